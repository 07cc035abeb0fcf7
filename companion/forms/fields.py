"""The field types a game's form module builds its screens with (`Count`, `Flag`, `Choice`, `Name`,
`Text`, `Group`, `Fixed`, `Rows`...), the speed-up that binds them by copy, and the helpers that walk
a form's fields (`walk`, `is_blank`, `give_names`, `pad_rows`). Labels and hints are French message
ids, read in the reader's language when a form is bound. docs/architecture.md, "Forms", says what
each type does."""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from wtforms.fields import (
    BooleanField,
    Field,
    FieldList,
    FormField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.fields.choices import SelectChoice  # WTForms 3.3 deprecates (value, label) tuples
from wtforms.fields.core import UnboundField
from wtforms.utils import unset_value
from wtforms.validators import StopValidation

from ..base.typed import out_of_bounds, whole_number
from ..games import i18n
from ..games.i18n import N_, _, tr
from ..web import formkeys

SKIPPED = ("csrf_token", "version", "base_values")  # fields of every form that are not the game's

_TRANSLATED: dict[tuple[str, str], str] = {}


def translated(text):
    """A label, hint or choice written in a game's form module (French, marked with N_) in the
    current language. Fields are built for each request (WTForms binds them then), so a page is in
    its reader's language even though the form classes are made once. Kept per language and text:
    a form of a 4-player game reads some 350 of them each time it is built."""
    if callable(text):  # a message with values (« 1 à {top} »): made when the field is
        return text()
    if not (isinstance(text, str) and text):
        return text
    key = (i18n.current(), text)
    found = _TRANSLATED.get(key)
    if found is None:
        if len(_TRANSLATED) > 20_000:  # the form modules' texts are a few hundred: never reached
            _TRANSLATED.clear()
        found = _TRANSLATED[key] = tr(text)
    return found


class _Unbound(UnboundField):
    """An unbound field of the app's types that binds by copying a pristine field made once per
    name, prefix and language. WTForms makes every field anew for each form (~10 µs each, ~180
    per form of a 4-player game, two to four forms per save); what a field's constructor sets
    depends only on those keys (labels, hints and choices in the reader's language), and what a
    request changes (data, errors, entries, choices given later) is set on the copy by assignment,
    never in place, so copies share nothing a request writes."""

    def __init__(self, field_class, *args, **kwargs):
        super().__init__(field_class, *args, **kwargs)
        self._pristine: dict = {}

    def bind(self, form, name, prefix="", translations=None, **kwargs):
        meta = kwargs.pop("_meta", None)
        try:
            key = (name, prefix, translations, i18n.current(), tuple(sorted(kwargs.items())))
            pristine = self._pristine.get(key)
        except TypeError:  # an unhashable option: bind as WTForms does
            return super().bind(form, name, prefix, translations, _meta=meta, **kwargs)
        if pristine is None:
            field = super().bind(form, name, prefix, translations, _meta=meta, **kwargs)
            if len(self._pristine) < 512:  # a few entries per list and language: never reached
                self._pristine[key] = {k: v for k, v in field.__dict__.items() if k not in ("_form", "meta")}
            return field
        field = object.__new__(self.field_class)
        field.__dict__.update(pristine)
        field._form = form
        field.meta = meta if meta is not None else form.meta
        return field


class Cloned:
    """Fields of this type bind by copy (`_Unbound`)."""

    def __new__(cls, *args, **kwargs):
        if "_form" in kwargs:
            return super().__new__(cls, *args, **kwargs)
        return _Unbound(cls, *args, **kwargs)


class _Extras(Cloned):
    """What the generic templates need beyond WTForms: a hint, and the show-if / copy-to markers."""

    def _extras(self, hint="", show_if=None, copy_to=None, local=False, **kwargs) -> dict:
        """Keeps the extras on the field; returns the rest of the arguments, for WTForms. Explicit
        arguments, no dict copied: a form of a 4-player game binds ~180 fields per request."""
        self.hint = translated(hint) if hint else ""
        self.show_if, self.copy_to = show_if, copy_to
        # a ui-only switch whose stored value is read back from the document (Reterra's "dessiner"
        # while the board is blank): what this phone chose stays, whatever the server reads back
        self.local = local
        kwargs.setdefault("description", self.hint)
        return kwargs


@cache
def _number_attributes(lo: int, hi: int, extra: tuple = ()) -> MappingProxyType:
    """A number field's input attributes, made once per bounds (shared, read only). Lean, some 130 on
    an edit page: `inputmode` brings the number keyboard (no `pattern`), the form says
    autocomplete="off" for all its fields, the style reads [data-stepper] (no class), no `min` when
    it is 0 (static/js/stepper.js's own), and "suivant" on the keyboard is static/js/play/fields.js's
    (enterkeyhint, where Enter goes to the next field: without JS it submits)."""
    render_kw = {"inputmode": "numeric", "min": lo or None, "max": hi, "data-stepper": ""}
    render_kw.update(extra)
    return MappingProxyType({k: v for k, v in render_kw.items() if v is not None})


class Count(_Extras, StringField):
    """A whole number between lo and hi; blank is None (left out of the document, i.e. 0)."""

    def __init__(self, label=None, hint="", lo: int = 0, hi: int = 999, render_kw=None, **kwargs):
        kwargs = self._extras(hint, **kwargs)
        self.lo, self.hi = lo, hi
        attributes = _number_attributes(lo, hi, tuple((render_kw or {}).items()))
        super().__init__(translated(label), render_kw=attributes,
                         **kwargs)

    def process_data(self, value):
        self.data = value if isinstance(value, int) and not isinstance(value, bool) else None

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        self.data = None
        self.data = whole_number(valuelist[0])

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return "" if self.data is None else str(self.data)

    def pre_validate(self, form):
        if self.process_errors:
            raise StopValidation()
        problem = out_of_bounds(self.data, self.lo, self.hi)
        if problem:
            raise StopValidation(problem)


class Text(Cloned, StringField):
    """A plain text field whose label and description (French message ids) are read in the
    reader's language, like the other types' (Reterra's card name, the new-game names)."""

    def __init__(self, label=None, validators=None, description="", **kwargs):
        super().__init__(translated(label), validators, description=translated(description), **kwargs)


class Flag(_Extras, BooleanField):
    def __init__(self, label=None, hint="", **kwargs):
        super().__init__(translated(label), **self._extras(hint, **kwargs))


class Choice(_Extras, RadioField):
    """One of a few values. `numeric`: the document holds the chosen value as a whole number
    (Rebirth's round towers, 13 or 3), see `document_value`."""

    def __init__(self, label=None, hint="", choices=(), numeric: bool = False, **kwargs):
        kwargs = self._extras(hint, **kwargs)
        self.numeric = numeric
        # the (value, label) pairs as written (labels: French message ids), None when made per reader
        self.offered = None if callable(choices) else tuple((v, text) for v, text in choices)
        if callable(choices):  # labels made in the reader's language (« Ville 2 cases »)
            choices = choices()
        super().__init__(translated(label), choices=options([(v, translated(text)) for v, text in choices]),
                         validate_choice=False, **kwargs)

    def pre_validate(self, form):
        if self.data == "":  # nothing chosen (a merged save writes a blank radio as "")
            self.data = None
        if self.data is not None and self.data not in choice_labels(self.choices):
            raise StopValidation(_("choix inconnu"))


class Name(_Extras, SelectField):
    """One of the game's players, or nobody (null). Choices are filled in by `EndState`.
    `nobody` False (a class saying so): blank is not an answer but a player not chosen yet, left
    out of its group in the document (once the group is kept), so the engine says it is required."""

    nobody = True

    def __init__(self, label=None, hint="", **kwargs):
        kwargs = self._extras(hint, **kwargs)
        super().__init__(translated(label), choices=[], validate_choice=False, **kwargs)

    def process_data(self, value):
        self.data = value if isinstance(value, str) else ""

    def pre_validate(self, form):
        if self.data and self.data not in choice_labels(self.choices):
            raise StopValidation(_("choisissez un joueur de la partie"))


class Group(_Extras, FormField):
    def __init__(self, form_class, label=None, hint="", **kwargs):
        super().__init__(form_class, translated(label), **self._extras(hint, **kwargs))


class Fixed(_Extras, FieldList):
    """Exactly n entries, one per colour/line; item_labels name them."""

    def __init__(self, unbound_field, n: int, label=None, hint="", item_labels=(), **kwargs):
        kwargs = self._extras(hint, **kwargs)
        # A callable gives labels known only now (Revive's « couleur n » in the reader's language).
        self.item_labels = (list(item_labels()) if callable(item_labels)
                            else [translated(x) for x in item_labels])
        super().__init__(unbound_field, translated(label), min_entries=n, max_entries=n, **kwargs)

    def item_hints(self) -> list[tuple[str, str, object]]:
        return item_hints(self)

    def _extract_indices(self, prefix, formdata):
        # Entry i is always entry i: a submission leaving out entry 0 must not shift entry 1 into it
        # (WTForms renumbers whatever indices it finds); a missing entry is read as blank.
        return iter(range(self.max_entries))


class Seats(Fixed):
    """The players, in seat order: one entry per player, never renumbered."""


class Rows(_Extras, FieldList):
    """Rows the table adds and removes; wholly blank rows are dropped from the document.

    A row added after the form was built (padding, the no-JS "ajouter", a row of a list inside a
    row) gets the players as its `Name` choices, like the rows built with the form (`give_names`).
    `shown`: the rows the list offers at least, blank ones included (its `min_entries`; the page's
    `data-shown`, which a removal on the phone keeps too): the list's own choice, 1 for most."""

    def __init__(self, unbound_field, label=None, hint="", max_entries: int = 20,
                 add_label: str = N_("Ajouter une ligne"), item_label: str = "", remove_label: str = "",
                 shown: int = 1, **kwargs):
        kwargs = self._extras(hint, **kwargs)
        self.add_label = translated(add_label)
        self.item_label = translated(item_label)
        self.remove_label = translated(remove_label)
        self.names = None  # the players, once `give_names` has run on the form
        super().__init__(unbound_field, translated(label), min_entries=max(1, min(shown, max_entries)),
                         max_entries=max_entries, **kwargs)

    def item_hints(self) -> list[tuple[str, str, object]]:
        return item_hints(self)

    def _extract_indices(self, prefix, formdata):
        # only indices a row can have (companion.web.formkeys): "²" or 5,000 digits would fail in int()
        return _indices(self, prefix, formdata)

    def _compact_indices(self):
        # A row keeps the index it was posted with, even after a gap (a blank row in the middle
        # that a merged save leaves out): its messages go to the row the player typed in.
        pass

    def append_entry(self, data=unset_value):
        entry = super().append_entry(data)
        if self.names is not None:
            give_names(entry, self.names)
        return entry


def _indices(f, prefix: str, formdata):
    offset = len(prefix) + 1
    for key in formdata:
        if key.startswith(prefix):
            part = key[offset:].split(f._field_separator, 1)[0]
            if part.isdigit() and not formkeys.bad_name(part):
                yield int(part)


class Names(FieldList):
    """A list of free names (the new-game form's colour names), read at safe indices only."""

    def _extract_indices(self, prefix, formdata):
        return _indices(self, prefix, formdata)


def item_hints(f) -> list[tuple[str, str, object]]:
    """The hints of a list's item fields, each said ONCE above the list rather than in every row:
    ``(label, hint, field)``, field being the first item's (for its show-if), depth first through
    groups. Lists inside an item are left out: they say their own."""
    if not f.entries:
        return []
    out = []

    def visit(sub):
        if isinstance(sub, FieldList) or sub.short_name in SKIPPED:
            return
        text = getattr(sub, "hint", "") or sub.description  # a plain WTForms field: its description
        if text:
            out.append((sub.label.text, text, sub))
        if isinstance(sub, FormField):
            for inner in sub.form:
                visit(inner)

    entry = f.entries[0]
    for sub in entry.form if isinstance(entry, FormField) else [entry]:
        visit(sub)
    return out


def options(pairs) -> list:
    """Choices for a radio or select field from (value, label) pairs, as WTForms wants them."""
    return [SelectChoice(value=v, label=label) for v, label in pairs]


def choice_labels(choices) -> dict:
    """value -> label of a field's choices, whatever their form."""
    out = {}
    for c in choices or ():
        value, label = (c.value, c.label) if hasattr(c, "value") else (c[0], c[1])
        out[value] = label
    return out


def walk(form):
    """Every field of a form, depth first, lists and groups included."""
    for f in form:
        yield f
        if isinstance(f, FormField):
            yield from walk(f.form)
        elif isinstance(f, FieldList):
            for entry in f.entries:
                yield entry
                if isinstance(entry, FormField):
                    yield from walk(entry.form)


def _fields(f):
    """A field and everything inside it (a row of a list: a group, a list, or one field)."""
    yield f
    if isinstance(f, FormField):
        yield from walk(f.form)
    elif isinstance(f, FieldList):
        for entry in f.entries:
            yield from _fields(entry)


def give_names(form, names: list[str] | None = None) -> None:
    """Give every `Name` field of `form` (a form, or one field and what it holds) the players'
    names as choices, plus "personne"; every `Rows` inside remembers them for the rows added later.
    `names` defaults to `form.names` (set by `GameForms.form`); nothing happens without names."""
    if names is None:
        names = getattr(form, "names", None)
    if names is None:
        return
    pairs = [("", _("personne"))] + [(n, n) for n in names]
    for f in _fields(form) if isinstance(form, Field) else walk(form):
        if isinstance(f, Name):
            f.choices = options(pairs)
        elif isinstance(f, Rows):
            f.names = list(names)


def is_blank(f) -> bool:
    if isinstance(f, FormField):
        return all(is_blank(sub) for sub in f.form)
    if isinstance(f, FieldList):
        return all(is_blank(e) for e in f.entries)
    if isinstance(f, BooleanField):
        return not f.data
    if f.raw_data:  # what was typed, even when it is not a number
        return str(f.raw_data[0]).strip() == ""
    return f.data is None or f.data == ""


def pad_rows(form, add: str | None = None) -> None:
    """Leave one blank row at the end of each Rows list (the no-JS way to add a line), plus one
    more in the list named `add` (the "ajouter une ligne" button). The rows added offer the players
    in their `Name` fields like the others (a list inside an added row comes with its `shown` rows)."""
    for f in list(walk(form)):
        if isinstance(f, Rows):
            want = 1 + (1 if add == f.name else 0)
            trailing = 0
            for entry in reversed(f.entries):
                if not is_blank(entry):
                    break
                trailing += 1
            while trailing < want and len(f.entries) < f.max_entries:
                f.append_entry()
                trailing += 1
    give_names(form)  # every row, however it was created, offers the players
