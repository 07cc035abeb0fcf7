"""Form machinery for scoring a game at the table: one module per game, everything else generic.

A game's screens are ONE module, `companion/forms/<game>.py` (the file name is the game id of
`companion.games.GAMES`), plus optionally ONE template `templates/play/<game>.html`. Nothing else
changes: the views (`companion/views/play.py`), saving, autosave, version conflicts, error display,
results, history and the PDF link are game-independent.

What `companion/forms/<game>.py` provides
-----------------------------------------

``PALETTE``  (required) the box's player colours, in the box's order, as ``(css_hex, french_name)``;
    the new-game page offers these and gives seat *i* ``PALETTE[i]`` by default.

``player_form(variant) -> type[wtforms.Form]``  (required) the fields of ONE player's end state,
    each field named by its contract key (``track``, ``resources``...). The player's name is not a
    field: it is fixed when the game is created. Build it with the field types below.

``table_form(variant) -> type[wtforms.Form] | None``  (optional) table-level fields, named by their
    contract keys (Rebirth's ``cities``, ``edinburgh``...), rendered above the players.

``ui_only``  (optional class attribute of either form) names of fields that are NOT contract keys
    (Revive's ``card_mode``): the generic conversion skips them; the hooks below use them.

``to_form(document, data) -> None``  (optional) adjust ``data``, the form data built from the stored
    document (by default: the document itself, players under ``players``), e.g. to fill ui_only
    fields from the document.

``to_document(document, form, paths) -> None``  (optional) adjust the document built from the form
    (by default every contract-named field, blanks left out), and record in ``paths``
    (contract path -> field name) where a value came from when it is not its own field.

``COLOUR_NAMES``  (optional) how many colours of its own the table names once on the new-game page
    (Revive: 3, with ``COLOUR_HINT``); stored beside the document (``GameRecord.labels``), given to
    the form by ``label_form(form, labels)`` and to the engine's sentences by ``relabel(text, labels)``.

Field names mirror contract paths: ``players[0].resources.gears`` is the field
``players-0-resources-gears`` (WTForms FieldList/FormField naming). Engine problems are attached
to the field of their path (or of the nearest enclosing path that has a field, else to the top of
the page), so a game module never maps errors by hand.

Field types (all take ``label`` and ``hint``: a few words saying what to count, in the rules' words)
---------------------------------------------------------------------------------------------------

``Count(label, hint, lo=0, hi=...)``  a whole number: numeric keypad, − / + stepper (JS), French
    messages; blank means "left out" (0 in the contract).
``Flag(label, hint)``  a yes/no box: ticked is ``true``, unticked is left out (false).
``Choice(label, hint, choices=[(value, label)], ...)``  radio buttons (a string, or a ui_only switch).
``Name(label, hint)``  one of the game's players (Rebirth's castle holders...): a <select> of the
    players' names plus "personne" (null); the choices are filled in from the stored names.
``Group(FormClass, label, hint)``  a nested object (contract object: ``resources``); left out when
    all its fields are blank.
``Fixed(field, n, label, hint, item_labels=[...])``  a list of exactly n entries (``card_bonus``);
    blank numbers become 0.
``Rows(field, label, hint, max_entries=..., add_label=..., item_label=..., remove_label=...)``  a list
    whose rows are added and removed by the table (``great_locations``, missions, cities); wholly
    blank rows are dropped, and the document's index i is mapped back to the row it came from (for
    messages). ``item_label`` numbers the rows ("Grand emplacement 1"); ``remove_label`` names the
    row's remove button ("Retirer la tuile"; default "Retirer cette ligne"); one blank row is always
    offered. A row may hold a list of its own (a city's ``tiles``): field names, the no-JS padding,
    JS adding/removing/renumbering and the local draft handle lists at any depth, and the ``Name``
    fields of rows added at any time (padding, "ajouter") offer the players like the others.

A ``Choice`` may say ``local=True``: a ui-only switch the server reads back from the document
(Reterra's "dessiner" while nothing is painted): the page keeps what this phone chose. A ``Name`` is
rendered as one chip per player (a radio each: one tap); a ``Name`` subclass (a city tile's
``Owner``) stays a ``<select>``.

Each of them accepts ``show_if=("field", "value")``: shown only while the ui_only radio ``field``
(top-level) has that value (the server renders the state it stores; JS follows the radio); and
``Fixed``/``Rows`` accept ``copy_to="key"``: a table-level list whose values JS copies into every
player's list ``key`` (Revive's shared artifact card). Helpers for hooks and templates: ``walk(form)``
(every field, depth first), ``is_blank(field)``, ``options(pairs)`` (choices for the installed
WTForms), ``field_for(path, paths)``, ``give_names(form, names)`` (the players as the choices of
every ``Name``; ``Screens.form`` and ``pad_rows`` call it). A blank number is ``None`` in ``field.data``.
Saving (game-independent, used by the views): ``raw_values(form)`` (field name -> the text a browser
posts), ``changes_of``, ``merge``, ``check`` (``Checked.storable``: no bad value; ``Checked.ok``: it
scores), ``problems_of`` (a stored draft's rules, beside their fields), ``labels``/``summary`` (the
error summary: "Éloïse · Châteaux", "Ville 1 · Tuile 1 · Joueur").

Templates
---------

The edit page renders ``play/<game>.html`` when it exists, else ``play/edit.html``, with ``form``,
``record``, ``game``, ``screens``, ``names`` and ``colours`` (seat order), ``errors`` and ``theirs``
(field name -> messages / the value another device stored), ``warned`` and ``general``. A game template
``{% extends "play/edit.html" %}`` and overrides blocks ``table`` and/or ``player`` (one player's
section; ``p`` is that player's FormField, ``i`` the seat), and ``head``/``scripts`` with
``{{ super() }}`` to add its own CSS/JS file under static/ (no inline script or style), using ``ui`` of
``play/_fields.html``, whose HTML ``companion/forms/html.py`` writes
(``render(field, label=None, compact=False)`` renders any field type above, a list
saying its items' hints ONCE above its rows — ``Fixed``/``Rows.item_hints()``
— while each item (``compact``) keeps its own hint hidden, for its aria-describedby; ``messages(field)``
its message slots, several messages joined by " · "; ``hint(f)``, ``list_help(list)``;
``dot(colour)`` a player's colour). Results,
history and the new-game page need no game template; a game may add a part to its results pages
(edit and read-only alike) with the partial ``play/_<game>_results.html``, included after the score
pad with the same context (``result``, ``record``, ``game``, ``colours``...).

Markup conventions read by ``static/js/play.js`` (companion/forms/html.py writes them)
---------------------------------------------------------------------------------------

- ``<input data-stepper>``: JS adds − / + buttons (min/max attributes clamp); without JS a plain input.
- ``<div data-rows="FIELD" data-max="N" data-item-label="..." data-remove-label="...">`` holding
  rows ``<div data-row>``; the submit button ``<button name="add_row" value="FIELD">`` adds a row
  (JS clones the last row; without JS the server adds a blank row); JS adds a remove button to each
  row and renumbers names. Lists may nest (a ``data-rows`` inside a ``data-row``): each list counts
  only its own rows; renumbering an outer row renames everything it holds (names, ids, inner
  ``data-rows``, inner add buttons' ``value``); a copied outer row starts with one blank inner row;
  a row holding a list gets a worded remove button below it (not a "×" beside the inner ones).
- ``<div data-show-if="FIELD=VALUE">``: shown only while the radio FIELD has VALUE.
- ``<div data-copy-to="KEY">`` around a table-level list: its inputs are copied into each player's.
- Each field's wrapper is ``id="f-NAME"`` with its messages in ``id="e-NAME"``; autosave (JSON)
  answers ``{"errors": {NAME: [messages]}}`` and JS writes them there.
- The form holds ``version`` and ``base_values`` (JSON: the stored value of every non-blank field the
  page was rendered from); the autosave posts ``changes`` (JSON ``{NAME: [base, mine]}``), only the
  fields the phone changed. ``merge`` lays them over what is stored now: a conflict is a field the
  other side changed too, to another value (see "field-level saves" below and docs/architecture.md).
- ``[data-main]`` is the page's main action (Enter on the last field does it).

Messages
--------

Write them for a player: no contract key, no "(reçu 9)". In French, as message ids: a game module's
labels, hints, item and add labels are marked ``N_("…")`` and read in the reader's language when the
fields are bound (form classes are built once; a label with values is a ``lambda: _("…", n=…)``);
messages made while checking use ``_("…")`` (docs/architecture.md, "Languages").
 A game's engine reports a value wrong on
its own with ``check.add`` (never stored) and a rule between fields not met yet with ``check.rule``
(stored as a draft, flagged beside each field, results refused): ``check`` tells them apart by
``Problem.kind``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from types import MappingProxyType, ModuleType

from flask_wtf import FlaskForm
from wtforms import Form
from wtforms.fields import (
    BooleanField,
    Field,
    FieldList,
    FormField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.fields.core import UnboundField
from wtforms.utils import unset_value
from wtforms.validators import StopValidation

from .. import formkeys, games
from ..games import i18n
from ..games.core import join
from ..games.i18n import N_, _, tr
from ..saving import wire
from ..saving.merge import under

_INT = re.compile(r"[+-]?\d{1,7}")
try:  # WTForms 3.3 deprecates (value, label) tuples for choices; older versions only know tuples
    from wtforms.fields.choices import SelectChoice as _SelectChoice
except ImportError:  # pragma: no cover - WTForms < 3.3
    _SelectChoice = None
SKIPPED = ("csrf_token", "version", "base_values")
# The palettes' colour names (each game's PALETTE is French, like every message id): for extraction.
COLOUR_WORDS = (N_("rouge"), N_("bleu"), N_("jaune"), N_("vert"), N_("violet"), N_("noir"))


# --------------------------------------------------------------------------- field types


_TRANSLATED: dict[tuple[str, str], str] = {}


def _t(text):
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


class _Cloned:
    """Fields of this type bind by copy (`_Unbound`)."""

    def __new__(cls, *args, **kwargs):
        if "_form" in kwargs:
            return super().__new__(cls, *args, **kwargs)
        return _Unbound(cls, *args, **kwargs)


class _Extras(_Cloned):
    """What the generic templates need beyond WTForms: a hint, and the show-if / copy-to markers."""

    def _extras(self, hint="", show_if=None, copy_to=None, local=False, **kwargs) -> dict:
        """Keeps the extras on the field; returns the rest of the arguments, for WTForms. Explicit
        arguments, no dict copied: a form of a 4-player game binds ~180 fields per request."""
        self.hint = _t(hint) if hint else ""
        self.show_if, self.copy_to = show_if, copy_to
        # a ui-only switch whose stored value is read back from the document (Reterra's "dessiner"
        # while the board is blank): what this phone chose stays, whatever the server reads back
        self.local = local
        kwargs.setdefault("description", self.hint)
        return kwargs


@cache
def _number_attributes(lo: int, hi: int, extra: tuple = ()) -> MappingProxyType:
    """A number field's input attributes, made once per bounds (shared, read only)."""
    render_kw = {"inputmode": "numeric", "pattern": "[0-9]*" if lo >= 0 else None,
                 "min": lo, "max": hi, "data-stepper": "", "autocomplete": "off",
                 "enterkeyhint": "next", "class": "num"}
    render_kw.update(extra)
    return MappingProxyType({k: v for k, v in render_kw.items() if v is not None})


class Count(_Extras, StringField):
    """A whole number between lo and hi; blank is None (left out of the document, i.e. 0)."""

    def __init__(self, label=None, hint="", lo: int = 0, hi: int = 999, render_kw=None, **kwargs):
        kwargs = self._extras(hint, **kwargs)
        self.lo, self.hi = lo, hi
        super().__init__(_t(label), render_kw=_number_attributes(lo, hi, tuple((render_kw or {}).items())),
                         **kwargs)

    def process_data(self, value):
        self.data = value if isinstance(value, int) and not isinstance(value, bool) else None

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        raw = valuelist[0].strip().replace("\u2212", "-")
        self.data = None
        if raw == "":
            return
        if not _INT.fullmatch(raw):
            raise ValueError(_("doit être un nombre entier"))
        self.data = int(raw)

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return "" if self.data is None else str(self.data)

    def pre_validate(self, form):
        if self.process_errors:
            raise StopValidation()
        if self.data is not None and not self.lo <= self.data <= self.hi:
            raise StopValidation(_("doit être entre {lo} et {hi}", lo=self.lo, hi=self.hi))


class Text(_Cloned, StringField):
    """A plain text field whose label and description (French message ids) are read in the
    reader's language, like the other types' (Reterra's card name, the new-game names)."""

    def __init__(self, label=None, validators=None, description="", **kwargs):
        super().__init__(_t(label), validators, description=_t(description), **kwargs)


class Flag(_Extras, BooleanField):
    def __init__(self, label=None, hint="", **kwargs):
        super().__init__(_t(label), **self._extras(hint, **kwargs))


class Choice(_Extras, RadioField):
    def __init__(self, label=None, hint="", choices=(), **kwargs):
        kwargs = self._extras(hint, **kwargs)
        if callable(choices):  # labels made in the reader's language (« Ville 2 cases »)
            choices = choices()
        super().__init__(_t(label), choices=options([(v, _t(text)) for v, text in choices]),
                         validate_choice=False, **kwargs)

    def pre_validate(self, form):
        if self.data == "":  # nothing chosen (a merged save writes a blank radio as "")
            self.data = None
        if self.data is not None and self.data not in choice_labels(self.choices):
            raise StopValidation(_("choix inconnu"))


class Name(_Extras, SelectField):
    """One of the game's players, or nobody (null). Choices are filled in by `EndState`."""

    def __init__(self, label=None, hint="", **kwargs):
        kwargs = self._extras(hint, **kwargs)
        super().__init__(_t(label), choices=[], validate_choice=False, **kwargs)

    def process_data(self, value):
        self.data = value if isinstance(value, str) else ""

    def pre_validate(self, form):
        if self.data and self.data not in choice_labels(self.choices):
            raise StopValidation(_("choisissez un joueur de la partie"))


class Group(_Extras, FormField):
    def __init__(self, form_class, label=None, hint="", **kwargs):
        super().__init__(form_class, _t(label), **self._extras(hint, **kwargs))


class Fixed(_Extras, FieldList):
    """Exactly n entries, one per colour/line; item_labels name them."""

    def __init__(self, unbound_field, n: int, label=None, hint="", item_labels=(), **kwargs):
        kwargs = self._extras(hint, **kwargs)
        # A callable gives labels known only now (Revive's « couleur n » in the reader's language).
        self.item_labels = list(item_labels()) if callable(item_labels) else [_t(x) for x in item_labels]
        super().__init__(unbound_field, _t(label), min_entries=n, max_entries=n, **kwargs)

    def item_hints(self) -> list[tuple[str, str, object]]:
        return item_hints(self)

    def _extract_indices(self, prefix, formdata):
        # Entry i is always entry i: a submission leaving out entry 0 must not shift entry 1 into it
        # (WTForms renumbers whatever indices it finds); a missing entry is read as blank.
        return iter(range(self.max_entries))


class Seats(Fixed):
    """The players, in seat order: one entry per player, never renumbered."""

    def __init__(self, unbound_field, n: int, **kwargs):
        super().__init__(unbound_field, n, **kwargs)


class Rows(_Extras, FieldList):
    """Rows the table adds and removes; wholly blank rows are dropped from the document.

    A row added after the form was built (padding, the no-JS "ajouter", a row of a list inside a
    row) gets the players as its `Name` choices, like the rows built with the form (`give_names`)."""

    def __init__(self, unbound_field, label=None, hint="", max_entries: int = 20,
                 add_label: str = N_("Ajouter une ligne"), item_label: str = "", remove_label: str = "",
                 **kwargs):
        kwargs = self._extras(hint, **kwargs)
        self.add_label = _t(add_label)
        self.item_label = _t(item_label)
        self.remove_label = _t(remove_label)
        self.names = None  # the players, once `give_names` has run on the form
        super().__init__(unbound_field, _t(label), min_entries=1, max_entries=max_entries, **kwargs)

    def item_hints(self) -> list[tuple[str, str, object]]:
        return item_hints(self)

    def _extract_indices(self, prefix, formdata):
        # only indices a row can have (companion.formkeys): "²" or 5,000 digits would fail in int()
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
    """Choices for a radio or select field from (value, label) pairs, in the form the installed
    WTForms wants."""
    if _SelectChoice is None:  # pragma: no cover - WTForms < 3.3
        return [(v, label) for v, label in pairs]
    return [_SelectChoice(value=v, label=label) for v, label in pairs]


def choice_labels(choices) -> dict:
    """value -> label of a field's choices, whatever their form."""
    out = {}
    for c in choices or ():
        value, label = (c.value, c.label) if hasattr(c, "value") else (c[0], c[1])
        out[value] = label
    return out


def kind(f) -> str:
    """Which HTML renders a field (companion/forms/html.py)."""
    for cls, name in ((Rows, "rows"), (Fixed, "fixed"), (FieldList, "fixed"), (FormField, "group"),
                      (Flag, "flag"), (BooleanField, "flag"), (Choice, "choice"), (RadioField, "choice"),
                      (Name, "select"), (SelectField, "select"), (HiddenField, "hidden")):
        if isinstance(f, cls):
            return name
    return "input"


# --------------------------------------------------------------------------- game screens


class _WTFormsMessages:
    """WTForms' own messages (a CSRF token missing...) in the reader's language. Flask-WTF reads
    their catalogue from disk again on every request that builds a form: read once per language."""

    def gettext(self, string):
        return _wtforms_catalogue(i18n.current()).ugettext(string)

    def ngettext(self, singular, plural, n):
        return _wtforms_catalogue(i18n.current()).ungettext(singular, plural, n)


@cache
def _wtforms_catalogue(lang: str):
    from babel import support
    from wtforms.i18n import messages_path

    return support.Translations.load(messages_path(), [lang], domain="wtforms")


class AppForm(FlaskForm):
    """Every form of the app: Flask-WTF's (CSRF), with WTForms' messages read once per language."""

    class Meta:
        def get_translations(self, form):
            return _WTFORMS_MESSAGES


_WTFORMS_MESSAGES = _WTFormsMessages()


class EndState(AppForm):
    """Base of every end-state form: the stored version it was read from, then the game's fields."""

    version = HiddenField()

    def version_number(self) -> int | None:
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return None


@dataclass
class Screens:
    """One game's screens: its module, wrapped with the generic behaviour."""

    id: str
    module: ModuleType
    game: games.Game = field(repr=False)

    @property
    def palette(self) -> list[tuple[str, str]]:
        """(hex, colour name in the current language) of the box's colours."""
        return [(hex_, tr(name)) for hex_, name in self.module.PALETTE]

    def default_colours(self, n: int) -> list[str]:
        pal = [hex_ for hex_, _ in self.palette]
        return [pal[i % len(pal)] for i in range(n)] if pal else [""] * n

    def colour_name(self, hex_: str) -> str:
        return dict(self.palette).get(hex_, "")

    @property
    def colour_names(self) -> int:
        """How many colours of its own the table names when the game starts (Revive: 3), else 0."""
        return int(getattr(self.module, "COLOUR_NAMES", 0))

    def label(self, form, labels: dict) -> None:
        """Give the form the names the table chose (Revive's colours), where the game has any."""
        hook = getattr(self.module, "label_form", None)
        if hook:
            hook(form, labels or {})

    def say(self, message: str) -> str:
        """An engine message as the page words it (Reterra: board squares as "A1", not [0, 0])."""
        hook = getattr(self.module, "readable", None)
        return hook(message) if hook else message

    def relabel(self, text: str, labels: dict) -> str:
        """A sentence of the engine (a line's detail) with the table's names in it."""
        hook = getattr(self.module, "relabel", None)
        return hook(text, labels or {}) if hook and text else text

    @property
    def templates(self) -> list[str]:
        return [f"play/{self.id}.html", "play/edit.html"]

    def form_class(self, variant: str, n_players: int) -> type[EndState]:
        return _form_class(self.id, variant, n_players)

    def _table(self, variant: str):
        fn = getattr(self.module, "table_form", None)
        return fn(variant) if fn else None

    def form(self, document: dict, formdata=None) -> EndState:
        """The end-state form for a stored document, or for a submission when `formdata` is given."""
        variant = document["variant"]
        names = [p.get("name", "") for p in document.get("players", [])]
        cls = self.form_class(variant, len(names))
        data = {k: v for k, v in document.items() if k not in ("game", "variant")}
        hook = getattr(self.module, "to_form", None)
        if hook:
            hook(document, data)
        if formdata is None:
            form = cls(formdata=None, data=data)
        else:
            form = cls(formdata=formdata)
        form.names = names
        give_names(form, names)
        return form

    def to_document(self, record_document: dict, form: EndState) -> tuple[dict, dict[str, str]]:
        """The contract document the form describes, and contract path -> field name."""
        paths: dict[str, str] = {}
        table_ui = set(getattr(self._table(record_document["variant"]) or object, "ui_only", ()))
        doc = {"game": record_document["game"], "variant": record_document["variant"]}
        doc.update(_collect(form, "", paths, skip={*SKIPPED, "players", *table_ui}))
        names = [p.get("name", "") for p in record_document.get("players", [])]
        players = []
        for i, name in enumerate(names):
            entry = form.players.entries[i] if i < len(form.players.entries) else None
            path = join("players", i)
            player = {"name": name}
            if entry is not None:
                paths[path] = entry.name
                ui = set(getattr(entry.form, "ui_only", ()))
                player.update(_collect(entry.form, path, paths, skip=ui))
            players.append(player)
        paths["players"] = "players"
        doc["players"] = players
        hook = getattr(self.module, "to_document", None)
        if hook:
            hook(doc, form, paths)
        return doc, paths


@cache
def _form_class(game_id: str, variant: str, n_players: int) -> type[EndState]:
    module = _module(game_id)
    player = module.player_form(variant)
    namespace: dict = {}
    table_fn = getattr(module, "table_form", None)
    table = table_fn(variant) if table_fn else None
    if table is not None:
        for name in dir(table):
            value = getattr(table, name)
            if hasattr(value, "field_class"):  # an UnboundField
                namespace[name] = value
        namespace["ui_only"] = tuple(getattr(table, "ui_only", ()))
    namespace["players"] = Seats(FormField(player), n_players)
    hook = getattr(module, "field_labels", None)
    namespace["label_hook"] = staticmethod(hook) if hook else None
    return type(f"{game_id.title()}{variant.title()}EndState", (EndState,), namespace)


def _module(game_id: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{game_id}")


def screens(game_id: str) -> Screens | None:
    """The screens of a game, or None when nobody has written `companion/forms/<game>.py` yet."""
    game = games.GAMES.get(game_id)
    if game is None or not re.fullmatch(r"[a-z_]+", game_id):
        return None
    if importlib.util.find_spec(f"{__name__}.{game_id}") is None:
        return None
    return Screens(game_id, _module(game_id), game)


# --------------------------------------------------------------------------- form <-> document


OMIT = object()


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
    `names` defaults to `form.names` (set by `Screens.form`); nothing happens without names."""
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


def _collect(form, path: str, paths: dict, skip=()) -> dict:
    out = {}
    for f in form:
        if f.short_name in skip or f.short_name in SKIPPED:
            continue
        p = join(path, f.short_name)
        value = _convert(f, p, paths)
        if value is not OMIT:
            out[f.short_name] = value
    return out


def _convert(f, path: str, paths: dict):
    paths[path] = f.name
    if isinstance(f, FormField):
        value = _collect(f.form, path, paths, skip=set(getattr(f.form, "ui_only", ())))
        return value if value else OMIT  # an empty object is the same as none (contract)
    if isinstance(f, Rows):
        items = []
        for entry in f.entries:
            if is_blank(entry):
                continue
            value = _convert(entry, join(path, len(items)), paths)
            if value is not OMIT:  # a row holding only a typing error: its message is beside it
                items.append(value)
        return items if items else OMIT
    if isinstance(f, FieldList):
        values = []
        for i, entry in enumerate(f.entries):
            value = _convert(entry, join(path, i), paths)
            if value is OMIT:  # a fixed list keeps every entry: a blank one is its empty value
                value = (0 if isinstance(entry, Count) else False if isinstance(entry, BooleanField)
                         else {} if isinstance(entry, FormField) else None)
            values.append(value)
        return values
    if isinstance(f, BooleanField):
        return True if f.data else OMIT  # left out means false (contract)
    if isinstance(f, Name):
        return f.data or None
    if isinstance(f, Count):
        return OMIT if f.data is None else f.data
    data = f.data
    if isinstance(data, str):
        data = data.strip()
    return OMIT if data in (None, "") else data


def field_for(path: str, paths: dict[str, str]) -> str | None:
    """The field showing a contract path's problem: its own, else the nearest enclosing one."""
    while path:
        if path in paths:
            return paths[path]
        cut = max(path.rfind("."), path.rfind("["))
        if cut <= 0:
            return None
        path = path[:cut]
    return None


@dataclass
class Checked:
    """What a submission gives: the document, messages by field, and whether it scores.

    `document` is None when a value is bad on its own (not a number, out of bounds, an expired
    form): such a value is never stored. A rule between fields that is not met yet (a castle
    holder before the castles are typed) leaves the document storable, as a draft: `ok` (it
    scores) is then False and the messages say what to complete before the results."""

    document: dict | None
    errors: dict[str, list[str]]
    general: list[str]
    result: games.Result | None = None

    @property
    def ok(self) -> bool:
        return self.document is not None and self.result is not None and not self.errors and not self.general

    @property
    def storable(self) -> bool:
        return self.document is not None


def check(screens_: Screens, record_document: dict, form: EndState) -> Checked:
    """WTForms validation and the engine's, together: every message, each beside its field."""
    errors: dict[str, list[str]] = {}
    blocking = False

    def add(name: str | None, message: str) -> None:
        if name is None:
            if message not in general:
                general.append(message)
            return
        bucket = errors.setdefault(name, [])
        if message not in bucket:
            bucket.append(message)

    general: list[str] = []
    form.validate()
    for f in walk(form):
        if not isinstance(f, FormField | FieldList) and f.errors and f.short_name != "csrf_token":
            blocking = True
            for message in f.errors:
                add(f.name, message)
    if "csrf_token" in form and form.csrf_token.errors:
        blocking = True
        general.append(_("Le formulaire a expiré : rechargez la page (vos saisies restent sur ce "
                         "téléphone)."))
    doc, paths = screens_.to_document(record_document, form)
    result, refused = engine_verdict(screens_, doc, paths, add)
    blocking = blocking or refused
    shown = {f.name for f in walk(form)} - {"players"}  # the seat list itself has no message slot
    for name in [n for n in errors if n not in shown]:
        for message in errors.pop(name):
            add(None, message)
    return Checked(None if blocking else doc, errors, general, result)


def engine_verdict(screens_: Screens, document: dict, paths, add) -> tuple[games.Result | None, bool]:
    """The engine's result of `document`, or its problems each `add`ed beside the field of its path
    (as the page words them); True when one of them is more than a rule between fields (a draft)."""
    try:
        return games.score(document), False
    except games.InvalidDocument as exc:
        blocking = False
        for problem in exc.problems:
            blocking = blocking or problem.kind != games.RULE
            add(field_for(problem.path, paths), screens_.say(problem.message))
        return None, blocking


def _placed(screens_: Screens, problems, paths: Mapping[str, str]) -> tuple[dict[str, list[str]], list[str]]:
    """The engine's problems as the page words them, each beside the field of its path, and those
    with no field at all."""
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    for problem in problems:
        name = field_for(problem.path, paths)
        bucket = general if name is None else errors.setdefault(name, [])
        message = screens_.say(problem.message)
        if message not in bucket:
            bucket.append(message)
    return errors, general


def problems_of(screens_: Screens, document: dict, form: EndState) -> dict[str, list[str]]:
    """The engine's messages about a stored document, beside their fields (a draft's rules not
    met yet, shown again when the page is reopened)."""
    problems = games.validate(document)
    if not problems:
        return {}
    _, paths = screens_.to_document(document, form)
    return _placed(screens_, problems, paths)[0]


def stored_problems(screens_: Screens, view: Stored) -> tuple[dict[str, list[str]], list[str]]:
    """The engine's messages about a stored document (a draft's rules not met yet), read from its
    `Stored` view (no form built): each beside its field, and those with no field of their own
    (the seat list has no message slot), as a save's answer gives them."""
    errors, general = _placed(screens_, games.validate(view.document), view.paths)
    general += [m for m in errors.pop("players", []) if m not in general]
    return errors, general


# --------------------------------------------------------------------------- field-level saves
#
# A save carries what THIS phone changed, field by field, each with the value it was based on
# ({field name: (base, mine)}), never the whole form: a field the phone did not touch is never
# written back, so two phones entering different players never undo each other. The autosave
# sends these pairs itself (`CHANGES`); the no-JS form posts every field plus `BASE`, the values
# the page was rendered from, and the server takes the difference. `merge` then lays the changes
# over the values stored NOW: a field is in conflict only when the other side changed it too, to
# something else (stored value neither the base nor mine).

BASE, CHANGES, ADDED, KEYS = wire.BASE, wire.CHANGES, wire.ADDED, wire.KEYS  # see companion.saving.wire


def leaf_fields(form):
    """The fields a player fills (no group, no list, no version or action field), in page order."""
    return (f for f in walk(form) if not isinstance(f, FormField | FieldList) and f.short_name not in SKIPPED)


def raw_values(form) -> dict[str, str]:
    """Field name -> the text a browser posts for it ('' when blank or unticked), every leaf field."""
    out = {}
    for f in leaf_fields(form):
        if isinstance(f, BooleanField):
            value = "y" if f.data else ""
        elif isinstance(f, RadioField | SelectField):
            value = "" if f.data is None else str(f.data)
        else:
            value = f._value()
        out[f.name] = (value or "").strip()
    return out


changes_of = wire.changes_of
parse_values = wire.parse_values


def parse_changes(text: str | None) -> dict[str, tuple[str, str]] | None:
    """`CHANGES` as posted by the autosave: {name: [base, mine]}, or None when malformed."""
    try:
        return wire.parse_changes(text)
    except wire.BadSave:
        return None


def parse_keys(text: str | None) -> dict[str, str] | None:
    """`KEYS` as posted by the autosave: {field name: key} (absent: none), or None when malformed."""
    try:
        return wire.parse_keys(text)
    except wire.BadSave:
        return None


def row_keys(screens_: Screens, form) -> dict[str, str]:
    """What a posted form says of the rows its fields were typed for (a game's `row_keys`)."""
    hook = getattr(screens_.module, "row_keys", None)
    return hook(form) if hook else {}


def parse_list(text: str | None) -> list[str] | None:
    """`ADDED` as posted by the autosave: a JSON list of row names (absent: none)."""
    try:
        return wire.parse_list(text)
    except wire.BadSave:
        return None


@dataclass(frozen=True)
class Stored:
    """What saves and pages read of a stored document's form, without the form (read only):
    `values` (field name -> text, `raw_values`), `shown` (field name -> value as a person reads
    it, `leaves`), `limits` (Rows name -> max entries), `document` and `paths` (`to_document`)."""

    values: Mapping[str, str]
    shown: Mapping[str, str]
    limits: Mapping[str, int]
    document: dict
    paths: Mapping[str, str]
    # field name -> the text the stored document shows for a field nobody typed, when not blank: an
    # entry of a fixed list of numbers is stored as 0 (the contract keeps every entry), so "" and "0"
    # are one value there (`same`)
    blanks: Mapping[str, str] = field(default_factory=dict)

    def same(self, name: str, a: str, b: str) -> bool:
        """Whether two texts of a field mean one stored value."""
        if a == b:
            return True
        blank = self.blanks.get(name)
        return blank is not None and {a, b} <= {"", blank}


def stored(screens_: Screens, document: dict) -> Stored:
    """The `Stored` view of a document: the form is built once per document text and language
    (a WTForms form of a 4-player game is ~180 fields; every autosave needs the stored values
    before and after it), kept in a bounded cache per process."""
    key = (screens_.id, json.dumps(document, sort_keys=True, ensure_ascii=False), i18n.current())
    with _STORED_LOCK:
        found = _STORED.get(key)
        if found is not None:
            _STORED.move_to_end(key)
            return found
    from . import direct  # a document seen before but for a few numbers: its view without a form

    found = direct.view_of(screens_, document, key[1], key[2], partial(_stored, *key))
    _keep(key, found)
    return found


_STORED: OrderedDict = OrderedDict()  # (game, document text, language) -> Stored, least recent first
_STORED_LOCK = threading.Lock()
STORED_MAX = 256


def _keep(key, view: Stored) -> None:
    with _STORED_LOCK:
        _STORED[key] = view
        _STORED.move_to_end(key)
        while len(_STORED) > STORED_MAX:
            _STORED.popitem(last=False)


def remember(screens_: Screens, document: dict, view: Stored) -> None:
    """Keep the `Stored` view of a document a save made without a form (`direct.Laid.after`)."""
    _keep((screens_.id, json.dumps(document, sort_keys=True, ensure_ascii=False), i18n.current()), view)


def _stored(game_id: str, text: str, lang: str, labelled: bool = False):
    """The `Stored` view made with the form (`labelled`: with its fields' `labels` beside it)."""
    sc = screens(game_id)
    form = sc.form(json.loads(text))
    document, paths = sc.to_document(json.loads(text), form)
    limits = {f.name: f.max_entries for f in walk(form) if isinstance(f, Rows)}
    # shared by every request of this process: read only
    view = Stored(*(MappingProxyType(d) for d in (raw_values(form), leaves(form), limits)), document,
                  MappingProxyType(paths), MappingProxyType(blank_texts(form)))
    return (view, labels(form)) if labelled else view


def blank_texts(form) -> dict[str, str]:
    """Field name -> the text a field nobody typed shows once its document is stored, where it is
    not blank: a number in a fixed list (`Fixed`, or a game's own `FieldList`) is stored as 0
    (`_convert`), so a page rendered before the first save (blank) and after it ("0") agree."""
    return {entry.name: "0" for f in walk(form) if isinstance(f, FieldList) and not isinstance(f, Rows)
            for entry in f.entries if isinstance(entry, Count)}


@dataclass
class Merged:
    """This phone's changes laid over the stored values: the form to check and store, the fields
    the other side changed differently (name -> their value as a person reads it), the stored
    values the merge was made on, and the rows this phone added that went to another index
    (old prefix -> new: the other phone had added a row at the same place)."""

    form: EndState
    conflicts: dict[str, str]
    stored: dict[str, str]
    moved: dict[str, str] = field(default_factory=dict)
    # fields left out, with the message saying why (a count for a card another phone removed)
    dropped: dict[str, str] = field(default_factory=dict)


def new_rows(form, base: dict[str, str]) -> list[str]:
    """The rows of `form` (a posted form) that were blank in `base`: rows this phone added."""
    out = []
    for f in walk(form):
        if isinstance(f, Rows):
            for entry in f.entries:
                if not any(under(n, entry.name) and v for n, v in base.items()):
                    out.append(entry.name)
    return out


def merge(screens_: Screens, document: dict, changes: dict[str, tuple[str, str]],
          extra: dict[str, str] | None = None, view: Stored | None = None,
          added: list[str] | None = None, keys: Mapping[str, str] | None = None) -> Merged:
    """The stored game with this phone's changes applied (`companion.saving.merge.lay`) as a form to
    check (`extra`: csrf_token and the like; `view`: the stored document's `Stored`, when the caller
    has it; `added`: the rows this phone added, see `new_rows`; `keys`: see `KEYS`)."""
    from werkzeug.datastructures import MultiDict

    from ..saving.merge import lay

    view = view if view is not None else stored(screens_, document)
    names = [p.get("name", "") for p in document.get("players", [])]
    laid = lay(view, changes, added=added, keys=keys, names=names, rules=screens_.module, blank=_("vide"))
    # blanks included, as a browser posts them: a blank row in the middle keeps the rows after it
    # at their own index (a radio or a box left blank reads as unset, see `Choice`)
    pairs = list(laid.data.items()) + list((extra or {}).items())
    form = screens_.form(document, formdata=MultiDict(pairs))
    return Merged(form, laid.conflicts, dict(view.values), laid.moved, laid.dropped)


class Steps:
    """A game's form steps for `companion.saving.service` (its `Steps`): the stored view, the merged
    form, WTForms' and the engine's checks. `formdata`: a no-JS post (read only by `differences`, for
    an old page without base values); `extra`: fields posted beside the changes (csrf_token)."""

    def __init__(self, screens_: Screens, formdata=None, extra: dict[str, str] | None = None):
        self.screens, self.formdata, self.extra = screens_, formdata, extra

    def stored(self, document: dict) -> Stored:
        return stored(self.screens, document)

    def merge(self, document: dict, changes, view: Stored, added, keys) -> Merged:
        return merge(self.screens, document, changes, self.extra, view, added, keys)

    def check(self, document: dict, form: EndState) -> Checked:
        return check(self.screens, document, form)

    def differences(self, document: dict, view: Stored):
        form = self.screens.form(document, formdata=self.formdata)
        return form, check(self.screens, document, form), differences(form, view)

    def direct(self, document: dict, save, view: Stored):
        """An autosave laid on the stored document and checked by the engine, no form built, or
        None when it touches a field only the form can read (`companion.forms.direct.lay_save`)."""
        from . import direct

        return direct.lay_save(self, document, save, view)

    def written(self, merged, document: dict) -> None:
        """After a direct save is written: its stored values, made from the ones before it."""
        after = getattr(merged, "after", None)
        if after is not None:
            after(self.screens, document)


class Lazy:
    """A form made only when something reads it (the error summary's names of a direct save)."""

    def __init__(self, make):
        self._make, self._form = make, None

    def _get(self):
        if self._form is None:
            self._form = self._make()
        return self._form

    def __getattr__(self, name):
        return getattr(self._get(), name)

    def __iter__(self):
        return iter(self._get())

    def __contains__(self, name):
        return name in self._get()

    def __getitem__(self, name):
        return self._get()[name]


def labels(form) -> dict[str, str]:
    """Field name -> how a player names it ("Éloïse · Châteaux", "Ville 2 · Taille"): the error
    summary's links."""
    out: dict[str, str] = {}
    names = getattr(form, "names", None) or []

    def visit(f, prefix: str, label: str | None = None) -> None:
        text = label or (f.label.text if getattr(f, "label", None) else f.short_name)
        here = f"{prefix} · {text}" if prefix else text
        if f.short_name in SKIPPED:
            return
        out[f.name] = here
        if isinstance(f, FormField):
            for sub in f.form:
                visit(sub, here)
        elif isinstance(f, FieldList):
            item = getattr(f, "item_label", "") or text
            item_labels = getattr(f, "item_labels", None) or []
            # a row says its own name ("Ville 2 · Tuile 1"); a fixed entry keeps its list's
            # ("Cartes gagnées · couleur 1")
            within = prefix if isinstance(f, Rows) and getattr(f, "item_label", "") else here
            for k, entry in enumerate(f.entries):
                name = item_labels[k] if k < len(item_labels) else f"{item} {k + 1}"
                visit(entry, within, name)

    for f in form:
        if f.short_name == "players" and isinstance(f, FieldList):
            for i, entry in enumerate(f.entries):
                who = names[i] if i < len(names) else _("Joueur {n}", n=i + 1)
                out[entry.name] = who
                for sub in entry.form:
                    visit(sub, who)
        else:
            visit(f, "")
    hook = getattr(form, "label_hook", None)
    if hook:  # names a game gives its fields itself (Reterra's counts: by their card's name)
        hook(form, out)
    return out


def summary(form, errors: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """The error summary at the top of the page: (field name, its name for a player, messages),
    in the page's order."""
    if not errors:
        return []  # the common case: no need to name every field
    named = labels(form)
    order = {name: k for k, name in enumerate(named)}
    return [(name, named.get(name, name), " · ".join(errors[name]))
            for name in sorted(errors, key=lambda n: order.get(n, len(order)))]


def warned(screens_: Screens, record_document: dict, form: EndState | Stored,
           result: games.Result | None = None) -> tuple[dict[str, list[str]], list[str]]:
    """The warnings of the document the form describes (likely mistakes, never blocking), each
    beside its field (field name -> messages), and those with no field of their own. `form` may
    be the stored document's `Stored` view (no form built); `result`: the stored document's, used
    only when the form holds that very document."""
    if isinstance(form, Stored):
        doc, paths = form.document, form.paths
    else:
        doc, paths = screens_.to_document(record_document, form)
    if result is not None and doc != record_document:
        result = None  # the result given is the stored document's; this form says something else
    by_field: dict[str, list[str]] = {}
    rest: list[str] = []
    for problem in games.warnings(doc, result):
        name = field_for(problem.path, paths)
        if name is None or name == "players":
            rest.append(problem.message)
        else:
            by_field.setdefault(name, []).append(problem.message)
    return by_field, rest


def pad_rows(form, add: str | None = None) -> None:
    """Leave one blank row at the end of each Rows list (the no-JS way to add a line), plus one
    more in the list named `add` (the "ajouter une ligne" button). The rows added offer the
    players in their `Name` fields like the others (a list inside an added row comes with its own
    blank row)."""
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


def leaves(form) -> dict[str, str]:
    """Field name -> the value as a person reads it, for every leaf field (conflict display)."""
    out = {}
    for f in leaf_fields(form):
        if isinstance(f, BooleanField):
            out[f.name] = _("oui") if f.data else _("non")
        elif isinstance(f, RadioField):
            out[f.name] = choice_labels(f.choices).get(f.data, f.data or "")
        elif isinstance(f, Count):
            out[f.name] = "" if f.data is None else str(f.data)
        else:
            out[f.name] = (f.data or "") if isinstance(f.data, str) else str(f.data or "")
    return out


def differences(mine, theirs: Stored) -> dict[str, str]:
    """Fields whose stored value (theirs) differs from what this phone sent (mine)."""
    a = leaves(mine)
    return {name: (value if value != "" else _("vide")) for name, value in theirs.shown.items()
            if a.get(name, "") != value}


# --------------------------------------------------------------------------- new game


class PlayerRow(Form):
    name = Text(N_("Nom"), render_kw={"autocomplete": "off", "list": "noms-connus", "maxlength": 40,
                                         "autocapitalize": "words", "enterkeyhint": "next"})
    colour = SelectField(N_("Couleur"), choices=[], validate_choice=False)


COLOUR_NAMES_MAX = 3


@cache
def new_game_form(max_players: int) -> type[FlaskForm]:
    return type(f"NewGame{max_players}", (AppForm,), {
        "game": HiddenField(),
        "once": HiddenField(),  # the form's one-time key: posted twice, it still makes one game
        "variant": RadioField(N_("Variante"), choices=[], validate_choice=False),
        "players": Seats(FormField(PlayerRow), max_players),
        # the table's own names for a game's colours (Revive), asked once; unused by other games
        "colour_names": Names(StringField(render_kw={"autocomplete": "off", "maxlength": 20,
                                                     "enterkeyhint": "next"}),
                              min_entries=COLOUR_NAMES_MAX, max_entries=COLOUR_NAMES_MAX),
    })
