"""The HTML of the generic field types (`Count`, `Flag`, `Choice`, `Name`, `Group`, `Fixed`, `Rows` and
plain WTForms fields), written in Python rather than as Jinja macros: the edit page holds some 130
fields, and Jinja's macro calls (about ten per field) were two thirds of its time.

Templates reach it through `templates/play/_fields.html` (``ui.render(f, label=None, compact=False)``,
``ui.messages(f)``, ``ui.hint(f)``, ``ui.list_help(f)``), which binds one `FieldHtml` to the page's
``form``, ``errors``, ``theirs`` and ``warned``. Every value written into the page is escaped here;
what is already `Markup` (a label made by a template's ``_()``) is kept as it is, as Jinja would.
The markup conventions read by static/js/play/ are listed in docs/architecture.md ("Forms").
"""

from __future__ import annotations

from contextlib import suppress
from functools import lru_cache

from markupsafe import Markup, escape
from wtforms.fields import BooleanField, FieldList, FormField, HiddenField, RadioField, SelectField
from wtforms.form import BaseForm
from wtforms.widgets import CheckboxInput, HiddenInput, RadioInput, Select, TextInput
from wtforms.widgets.core import clean_key

from ..forms.fields import Choice, Fixed, Flag, Name, Rows
from ..games.i18n import N_, _, tr

FOLD = 20  # a hint longer than this (characters) folds behind a tap ("?"): a <details>, no script
_SEP = Markup(" · ")  # between several messages of one field
HELP = N_("Aide :")  # before a folded hint's label, for screen readers
THEIRS = N_("Enregistré sur l'autre appareil :")


def _html(text: str) -> Markup:
    """HTML written by this module: every value in it went through `escape` (which keeps `Markup`)."""
    return Markup(text)  # noqa: S704 - values escaped where interpolated


def esc(value) -> str:
    """`escape` (the same five characters), without making a `Markup` of every plain string: a
    thousand values per edit page. `Markup` (a template's label) and other types go to `escape`."""
    if type(value) is str:
        return (value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
                .replace("'", "&#39;").replace('"', "&#34;"))
    return escape(value)


def join_messages(messages) -> str:
    return _SEP.join(messages) if messages else ""


@lru_cache(maxsize=512)
def _attributes(items: tuple) -> str:
    """A Count's own attributes (min, max, inputmode...), as WTForms would write them: the same few
    sets on every page, so written once (a pure function of the items)."""
    return "".join(f" {esc(k)}" if v is True or v == "" else f' {esc(k)}="{esc(v)}"'
                   for k, v in items if v is not False and v is not None)


def _key(name: str) -> str:
    """A field kind's hint id: the field's name without its seat and row numbers nor the seats'
    list (`players-1-track`: `h-track`), "-n" for a list's item (`players-1-great_locations-0`:
    `h-great_locations-n`, not its list's). Two kinds of one key with two hints: `_hint_id`."""
    parts = name.split("-")
    kept = [part for part in parts if not part.isdigit()]
    if len(kept) > 1 and kept[0] == "players":
        kept = kept[1:]
    key = "-".join(kept)
    return "h-" + esc(key + "-n" if parts[-1].isdigit() else key)


def _said(form) -> dict:
    """The hints said on the page so far (id -> text), kept on its form: a game's template and the
    edit page it extends each import the fields' HTML, with one form."""
    if not isinstance(form, BaseForm):  # none, or a page without one (Jinja's undefined)
        return {}
    said = getattr(form, "_hints_said", None)
    if said is None:
        said = {}
        with suppress(AttributeError):  # a form that takes no attribute: hints said per FieldHtml
            form._hints_said = said
    return said


def warning_slot(n: str, warnings) -> str:
    """A field's warnings (likely mistakes) in their slot `w-NAME`, or nothing when it has none."""
    return f'<p class="field-warning" id="w-{n}">{join_messages(warnings)}</p>' if warnings else ""


class Bare(str):
    """An attribute `_widget` writes as its own text, neither ``k`` nor ``k="v"``: the page
    skeleton's place for ``checked`` (companion/views/edit_page.py)."""


def kind(f) -> str:
    """Which HTML renders a field."""
    for cls, name in ((Rows, "rows"), (Fixed, "fixed"), (FieldList, "fixed"), (FormField, "group"),
                      (Flag, "flag"), (BooleanField, "flag"), (Choice, "choice"), (RadioField, "choice"),
                      (Name, "select"), (SelectField, "select"), (HiddenField, "hidden")):
        if isinstance(f, cls):
            return name
    return "input"


_KINDS: dict[type, str] = {}  # field class -> its kind (`kind` reads only the class)
_PLAIN = (CheckboxInput, HiddenInput, RadioInput, TextInput)  # <input>s written by `_widget`


def _widget(f, extra: dict, page: FieldHtml | None = None) -> str:
    """``f(**extra)``: the field's <input> exactly as WTForms writes it (its own and the given
    attributes, sorted, `checked` for a ticked box or chosen radio), for the plain input widgets.
    WTForms formats each attribute through `Markup.format`, a tenth of the edit page; anything
    else (a select, a datalist, a validator's attributes) is left to WTForms. `page`: what reads
    the field's value (`FieldHtml`; the page skeleton writes its places instead)."""
    page = page or _PAGE
    widget = f.widget
    kind_ = type(widget)
    if kind_ is Select and _plain_select(f):
        return _select(f, extra, page)
    if (kind_ not in _PLAIN or getattr(f, "_datalist", None) is not None
            or not set(vars(f.flags)).isdisjoint(widget.validation_attrs)):
        return page._wtforms(f, extra)
    kw = {clean_key(k): v for k, v in f.render_kw.items()} if f.render_kw else {}
    kw.update((clean_key(k), v) for k, v in extra.items())
    ticks = kind_ is CheckboxInput or kind_ is RadioInput
    if ticks:
        on = page._checked(f, kind_ is RadioInput)
        if on:
            kw.setdefault("checked", on if type(on) is Bare else True)
    kw.setdefault("id", f.id)
    kw.setdefault("type", widget.input_type)
    if "value" not in kw:
        kw["value"] = f._value() if ticks else page._text(f)
    kw["name"] = f.name
    params = " ".join(k if v is True else v if type(v) is Bare else f'{esc(k)}="{esc(v)}"'
                      for k, v in sorted(kw.items()) if v is not False)
    return f"<input {params}>"


def _plain_select(f) -> bool:
    """A one-choice <select> of plain text choices (a tile's player): written by `_select`."""
    return (not f.widget.multiple and getattr(f, "coerce", None) is str
            and set(vars(f.flags)).isdisjoint(f.widget.validation_attrs) and not f.has_groups())


def _select(f, extra: dict, page: FieldHtml) -> str:
    """``f(**extra)`` for a `_plain_select`, as WTForms writes it (attributes sorted, `selected`
    before `value`), its chosen option told by `page` (the page skeleton leaves a place per option:
    WTForms' select was three quarters of a filled page with twelve cities)."""
    kw = {clean_key(k): v for k, v in f.render_kw.items()} if f.render_kw else {}
    kw.update((clean_key(k), v) for k, v in extra.items())
    kw.setdefault("id", f.id)
    kw["name"] = f.name
    params = " ".join(k if v is True else f'{esc(k)}="{esc(v)}"'
                      for k, v in sorted(kw.items()) if v is not False)
    options = []
    for c in f._iter_choices_normalized():
        if c.render_kw:
            return page._wtforms(f, extra)
        value = str(c.value) if isinstance(c.value, bool) else c.value
        options.append(f'<option {page._option(f, c, value)}value="{esc(value)}">'
                       f'{esc(c.label or c.value)}</option>')
    return f"<select {params}>{''.join(options)}</select>"


class FieldHtml:
    """The fields of one page: ``form`` (the whole form, for show_if), ``errors`` (field name ->
    messages), ``theirs`` (field name -> the value another device stored), ``warned`` (field name ->
    warnings: likely mistakes, never blocking). Nothing is kept across requests: labels and hints
    are in the reader's language and may be relabelled (`GameForms.label`)."""

    __slots__ = ("form", "errors", "theirs", "warned", "said", "fold")

    def __init__(self, form=None, errors=None, theirs=None, warned=None):
        self.form = form
        self.errors = errors or {}
        self.theirs = theirs or {}
        self.warned = warned or {}
        self.said = _said(form)
        self.fold = ""  # ` data-fold="ID"`: the wrapper of the field being written, its fold said before

    # ----------------------------------------------------------------- the templates' API

    def render(self, f, label=None, compact=False) -> Markup:
        """Any field; `label` replaces its own; `compact` (a list's items) hides the sub-fields'
        hints, which their list says once above its rows (see `list_help`)."""
        return _html(self._render(f, label, compact))

    def messages(self, f, always=True) -> Markup:
        """The field's message slots (errors, warnings, the other device's value). `always`: even
        empty (a slot a game's layout places itself); otherwise written only when they say something,
        the autosave (static/js/play/autosave.js) adding a slot where an answer needs one."""
        return _html(self._messages(f, esc(f.name), always))

    def hint(self, f, text=None, hidden=False) -> Markup:
        return _html(self._hint(f, esc(f.name), text, hidden) + self._fold_here())

    def list_help(self, f) -> Markup:
        return _html(self._list_help(f, esc(f.name)) + self._fold_here())

    def _fold_here(self) -> str:
        """A hint said before, in a game's own layout: the place static/js/play/fields.js writes its fold."""
        fold = self._take_fold()
        return f"<span{fold} data-fold-here></span>" if fold else ""

    # ----------------------------------------------------------------- what reads values
    # (the page skeleton, companion/views/edit_page.py, writes its places here instead)

    def _hidden(self, name, value) -> str:
        """` hidden` while the top-level field `name` holds another value than `value`."""
        return " hidden" if self.form[name].data != value else ""

    def _checked(self, f, radio: bool):
        """Whether a box is ticked or a radio chosen."""
        return f.checked if radio else getattr(f, "checked", f.data)

    def _option(self, f, choice, value) -> str:
        """`selected ` for the chosen option of a select."""
        return "selected " if choice.selected else ""

    def _chip(self, f, choice, blank: bool) -> str:
        return " checked" if choice.selected and (choice.value or blank) else ""

    def _warnings(self, name) -> str:
        """The field's warnings (likely mistakes), escaped."""
        return join_messages(self.warned.get(name))

    def _warning(self, name, n) -> str:
        """The field's warning slot, when it has warnings."""
        return warning_slot(n, self.warned.get(name))

    def _text(self, f) -> str:
        """The text a field shows, unescaped."""
        return f._value()

    def _wtforms(self, f, extra: dict) -> str:
        """A field written by WTForms itself (a select, a datalist, a validator's attributes)."""
        return f(**extra)

    # ----------------------------------------------------------------- parts

    def _shown(self, f) -> str:
        """` data-show-if="FIELD=VALUE"`, and ` hidden` while the (top-level) radio FIELD has
        another value: the server renders the state it stores, JS follows the radio."""
        cond = getattr(f, "show_if", None)
        if not cond:
            return ""
        name, value = cond[0], cond[1]
        return f' data-show-if="{esc(name)}={esc(value)}"{self._hidden(name, value)}'

    def _messages(self, f, n, always=False) -> str:
        """`n`: the field's name, escaped (every part below takes it, rather than escape it again).
        Slots with nothing to say are left out unless `always` (the autosave adds them as needed)."""
        name = f.name
        errors = self.errors.get(name)
        out = (f'<p class="field-error" id="e-{n}" role="alert">{join_messages(errors)}</p>'
               if errors or always or name in self.theirs else "")
        if always:
            out += f'<p class="field-warning" id="w-{n}">{self._warnings(name)}</p>'
        else:
            out += self._warning(name, n)
        if name in self.theirs:
            out += (f'<p class="theirs" id="t-{n}">{tr(THEIRS)} '
                    f'<b>{esc(self.theirs[name])}</b></p>')
        return out

    def _hint_id(self, f, text) -> str:
        """The id of the hint `text` of field `f`: one per field kind (its name without the row and
        seat numbers: every player's "track" says its hint once, `h-track`), or the field's
        own (`h-NAME`) when another field of that kind says another hint."""
        key = _key(f.name)
        said = self.said.get(key)
        return key if said is None or said == text else f"h-{esc(f.name)}"

    def _hint(self, f, n, text=None, hidden=False) -> str:
        """The field's hint, said once per field kind (`_hint_id`), the others referring to it.
        `hidden`: a list item's hint, said above the list (`_item_hints`); only when it was not is it
        said here, unseen, for the field's aria-describedby. A long hint is folded behind "?"; after
        the first, the field's wrapper says `data-fold="ID"` (`take_fold`) and static/js/play/fields.js
        writes the fold, a copy of the first's; without JS, where every step is shown in one column,
        it is said once, at the first field of its kind."""
        if text is None:
            text = getattr(f, "hint", None)
        if not text:
            return ""
        hid = self._hint_id(f, text)
        first = hid not in self.said
        self.said[hid] = text
        if hidden:
            return f'<span class="hint" id="{hid}" hidden>{esc(text)}</span>' if first else ""
        if len(text) > FOLD:
            if not first:
                self.fold = f' data-fold="{hid}"'
                return ""
            return (f'<details class="fold">{self._summary(f)}'
                    f'<span class="hint" id="{hid}">{esc(text)}</span></details>')
        own = f' id="{hid}"' if first else ""
        return f'<span class="hint"{own}>{esc(text)}</span>'

    def _take_fold(self) -> str:
        """` data-fold="ID"` for the wrapper of the field whose hint was just written, once."""
        fold, self.fold = self.fold, ""
        return fold

    @staticmethod
    def _summary(f) -> str:
        return (f'<summary><span aria-hidden="true">?</span>'
                f'<span class="visually-hidden">{tr(HELP)} {esc(f.label.text)}</span></summary>')

    def _item_hints(self, hints) -> str:
        """A list's item hints, said ONCE above its rows (not in every row): one line per item field
        that has a hint, shown while that field is (show_if). The first list of a kind gives each
        its id (`_hint_id`), which every row's field refers to."""
        if not hints:
            return ""
        lines = []
        for label, text, sub in hints:
            hid = self._hint_id(sub, text)
            own = "" if hid in self.said else f' id="{hid}"'
            self.said[hid] = text
            lines.append(f'<li{self._shown(sub)}>'
                         + _("{label} : {hint}", label=f'<span class="item-hint-label">{esc(label)}</span>',
                             hint=f"<span{own}>{esc(text)}</span>") + '</li>')
        return f'<ul class="item-hints" role="list">{"".join(lines)}</ul>'

    def _list_help(self, f, n) -> str:
        """A list's hint and its items' hints, folded together behind one "?" when long; said once
        per kind of list, as a field's hint (`_hint`)."""
        hints = f.item_hints() if hasattr(f, "item_hints") else []
        own = getattr(f, "hint", None) or ""
        if len(own) + len(" ".join(h[1] for h in hints)) > FOLD:
            key = _key(f.name) + "~"  # the fold's kind (its first id is the one `data-hint` names)
            text = own + "\n" + "\n".join(h[1] for h in hints)
            if self.said.get(key) == text:
                for _label, hint, sub in hints:  # the rows refer to the first list's hints
                    self.said.setdefault(self._hint_id(sub, hint), hint)
                first = self._hint_id(f, own) if own else self._hint_id(hints[0][2], hints[0][1])
                self.fold = f' data-fold="{first}"'
                return ""
            self.said[key] = text
            head = self._hint(f, n, own, True).replace(" hidden>", ">", 1) if own else ""
            return (f'<details class="fold fold-items">{self._summary(f)}'
                    f'{head}{self._item_hints(hints)}</details>')
        return f"{self._hint(f, n)}{self._item_hints(hints)}"

    def _described(self, f, n) -> Markup:
        """The ids of what describes the field: its hint (said once per kind), its error when it
        has one (the autosave adds its error and warning slots' ids as it fills them)."""
        text = getattr(f, "hint", None)
        ids = [f"e-{n}"] if f.name in self.errors else []
        if text:
            ids.append(self._hint_id(f, text))
        return _html(" ".join(ids))

    # ----------------------------------------------------------------- one field

    def _render(self, f, label, compact) -> str:
        k = _KINDS.get(type(f)) or _KINDS.setdefault(type(f), kind(f))
        if k == "hidden":
            return _widget(f, {}, self)
        name = f.name
        n = esc(name)
        text = esc(label or f.label.text)
        fid = n if f.id == name else esc(f.id)
        bad = " has-error" if name in self.errors else ""
        if k == "group":
            hint = self._hint(f, n, None, compact)
            fold = self._take_fold()
            subs = "".join(self._render(sub, None, compact) for sub in f.form)
            return (f'<fieldset class="group{bad}" id="f-{n}"{self._shown(f)}{fold}><legend>{text}</legend>'
                    f'{hint}{self._messages(f, n)}'
                    f'<div class="group-fields">{subs}</div></fieldset>\n')
        if k == "fixed":
            labels = getattr(f, "item_labels", None) or ()
            copy = getattr(f, "copy_to", None)
            copy = f' data-copy-to="{esc(copy)}" data-copy-from="{n}"' if copy else ""
            help_ = self._list_help(f, n)
            copy += self._take_fold()
            items = []
            for i, entry in enumerate(f.entries):
                own = labels[i] if i < len(labels) else _html(f"{text} {i + 1}")
                items.append(self._render(entry, own, True))
            items = "".join(items)
            return (f'<fieldset class="list fixed{bad}" id="f-{n}"{self._shown(f)}{copy}>'
                    f'<legend>{text}</legend>{help_}{self._messages(f, n)}'
                    f'<div class="items">{items}</div></fieldset>\n')
        if k == "rows":
            item = esc(f.item_label) if f.item_label else text
            remove = f' data-remove-label="{esc(f.remove_label)}"' if f.remove_label else ""
            help_ = self._list_help(f, n)
            remove += self._take_fold()
            items = "".join(
                f'<div class="row" data-row>{self._render(entry, _html(f"{item} {i}"), True)}</div>\n'
                for i, entry in enumerate(f.entries, 1))
            full = " hidden" if len(f.entries) >= f.max_entries else ""
            shown = f' data-shown="{f.min_entries}"' if f.min_entries > 1 else ""  # the rows a removal keeps
            return (f'<fieldset class="list rows{bad}" id="f-{n}" data-rows="{n}"'
                    f' data-max="{esc(f.max_entries)}" data-item-label="{item}"{remove}'
                    f'{self._shown(f)}{shown}>'
                    f'<legend>{text}</legend>{help_}{self._messages(f, n)}'
                    f'<div class="items">{items}</div>'
                    f'<button type="submit" class="ghost add-row" name="add_row" value="{n}"{full}>'
                    f'{esc(f.add_label)}</button></fieldset>\n')
        if k == "flag":
            box = _widget(f, self._aria(f, n, bad), self)
            hint = self._hint(f, n, None, compact)
            return (f'<div class="field flag{bad}" id="f-{n}"{self._shown(f)}{self._take_fold()}>'
                    f'<label class="check" for="{fid}">{box} <span>{text}</span></label>'
                    f'{hint}{self._messages(f, n)}</div>\n')
        if k == "choice":
            extra = {"data-keep-local": ""} if getattr(f, "local", False) else {}
            options = "".join(f'\n<label class="check" for="{esc(o.id)}">{_widget(o, extra, self)} '
                              f'<span>{esc(o.label.text)}</span></label>' for o in f)
            hint = self._hint(f, n, None, compact)
            return (f'<fieldset class="choice{bad}" id="f-{n}"{self._shown(f)}{self._take_fold()}>'
                    f'<legend>{text}</legend>{hint}{options}{self._messages(f, n)}</fieldset>\n')
        if k == "select" and f.type == "Name":
            return self._chips(f, n, text, bad, compact)
        return self._input(f, n, fid, text, bad, compact)

    def _aria(self, f, n, bad) -> dict:
        """A field's aria-describedby (when something describes it) and aria-invalid (when bad)."""
        out = {}
        described = self._described(f, n)
        if described:
            out["aria-describedby"] = described
        if bad:
            out["aria-invalid"] = "true"
        return out

    def _chips(self, f, n, text, bad, compact) -> str:
        """One of the players (a castle's holder): a chip per name, one tap (a <select> takes two).
        A city tile's player (`Owner`, a `Name` subclass) stays a <select>: a chip row per tile
        would make a city too tall."""
        fid = n if f.id == f.name else esc(f.id)
        hint = getattr(f, "hint", None)
        described = f' aria-describedby="{self._hint_id(f, hint)}"' if hint else ""
        blank = f.data == ""
        chips = "".join(
            f'\n<label class="check chip" for="{fid}-{i}"><input type="radio" id="{fid}-{i}" name="{n}"'
            f' value="{esc(c.value)}"{self._chip(f, c, blank)}{described}>'
            f' <span>{esc(c.label)}</span></label>'
            for i, c in enumerate(f.iter_choices()))
        hint = self._hint(f, n, None, compact)
        return (f'<fieldset class="choice chips{bad}" id="f-{n}"{self._shown(f)}{self._take_fold()}>'
                f'<legend>{text}</legend>{hint}<div class="chip-row">{chips}</div>'
                f'{self._messages(f, n)}</fieldset>\n')

    def _input(self, f, n, fid, text, bad, compact) -> str:
        if f.type == "Count" and f.widget.input_type == "text":
            # the common case written directly: WTForms' attribute rendering was most of its time
            attrs = _attributes(tuple((f.render_kw or {}).items()))
            described = self._described(f, n)
            aria = f' aria-describedby="{described}"' if described else ""
            if bad:
                aria += ' aria-invalid="true"'
            widget = (f'<input type="text" id="{fid}" name="{n}" value="{esc(self._text(f))}"{attrs}{aria}>')
        else:
            widget = _widget(f, self._aria(f, n, bad), self)
        hint = self._hint(f, n, None, compact)
        return (f'<div class="field{bad}" id="f-{n}"{self._shown(f)}{self._take_fold()}>'
                f'<label for="{fid}">{text}</label>{hint}{widget}{self._messages(f, n)}</div>\n')


_PAGE = FieldHtml()  # `_widget` called without a page: values read from the field
