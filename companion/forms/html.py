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

from functools import lru_cache

from markupsafe import Markup, escape
from wtforms.widgets import CheckboxInput, HiddenInput, RadioInput, TextInput
from wtforms.widgets.core import clean_key

from ..games.i18n import N_, _, tr
from .fields import kind

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


class Bare(str):
    """An attribute `_widget` writes as its own text, neither ``k`` nor ``k="v"``: the page
    skeleton's place for ``checked`` (companion/views/edit_page.py)."""


_KINDS: dict[type, str] = {}  # field class -> its kind (`forms.kind` reads only the class)
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


class FieldHtml:
    """The fields of one page: ``form`` (the whole form, for show_if), ``errors`` (field name ->
    messages), ``theirs`` (field name -> the value another device stored), ``warned`` (field name ->
    warnings: likely mistakes, never blocking). Nothing is kept across requests: labels and hints
    are in the reader's language and may be relabelled (`Screens.label`)."""

    __slots__ = ("form", "errors", "theirs", "warned")

    def __init__(self, form=None, errors=None, theirs=None, warned=None):
        self.form = form
        self.errors = errors or {}
        self.theirs = theirs or {}
        self.warned = warned or {}

    # ----------------------------------------------------------------- the templates' API

    def render(self, f, label=None, compact=False) -> Markup:
        """Any field; `label` replaces its own; `compact` (a list's items) hides the sub-fields'
        hints, which their list says once above its rows (see `list_help`)."""
        return _html(self._render(f, label, compact))

    def messages(self, f) -> Markup:
        """The field's message slots (errors, warnings, the other device's value): always written,
        so that the autosave's answers have a place to go."""
        return _html(self._messages(f, esc(f.name)))

    def hint(self, f, text=None, hidden=False) -> Markup:
        return _html(self._hint(f, esc(f.name), text, hidden))

    def list_help(self, f) -> Markup:
        return _html(self._list_help(f, esc(f.name)))

    # ----------------------------------------------------------------- what reads values
    # (the page skeleton, companion/views/edit_page.py, writes its places here instead)

    def _hidden(self, name, value) -> str:
        """` hidden` while the top-level field `name` holds another value than `value`."""
        return " hidden" if self.form[name].data != value else ""

    def _checked(self, f, radio: bool):
        """Whether a box is ticked or a radio chosen."""
        return f.checked if radio else getattr(f, "checked", f.data)

    def _chip(self, f, choice, blank: bool) -> str:
        return " checked" if choice.selected and (choice.value or blank) else ""

    def _warnings(self, name) -> str:
        """The field's warnings (likely mistakes), escaped."""
        return join_messages(self.warned.get(name))

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

    def _messages(self, f, n) -> str:
        """`n`: the field's name, escaped (every part below takes it, rather than escape it again)."""
        name = f.name
        errors = join_messages(self.errors.get(name))
        out = (f'<p class="field-error" id="e-{n}" role="alert">{errors}</p>\n  '
               f'<p class="field-warning" id="w-{n}">{self._warnings(name)}</p>')
        if name in self.theirs:
            out += (f'\n  <p class="theirs" id="t-{n}">{tr(THEIRS)} '
                    f'<b>{esc(self.theirs[name])}</b></p>')
        return out

    def _hint(self, f, n, text=None, hidden=False) -> str:
        """The field's hint (`h-NAME`). `hidden`: a list item's hint, said once above the list and
        kept here, unseen, for the field's aria-describedby (JS renames it with the row). A long
        hint is folded behind "?"."""
        if text is None:
            text = getattr(f, "hint", None)
        if not text:
            return ""
        if not hidden and len(text) > FOLD:
            return (f'\n  <details class="fold"><summary><span aria-hidden="true">?</span>'
                    f'<span class="visually-hidden">{tr(HELP)} {esc(f.label.text)}</span></summary>'
                    f'\n    <span class="hint" id="h-{n}">{esc(text)}</span></details>')
        unseen = " hidden" if hidden else ""
        return f'<span class="hint" id="h-{n}"{unseen}>{esc(text)}</span>'

    def _item_hints(self, hints) -> str:
        """A list's item hints, said ONCE above its rows (not in every row): one line per item field
        that has a hint, shown while that field is (show_if)."""
        if not hints:
            return ""
        lines = "".join(f'\n    <li{self._shown(sub)}>'
                        + _("{label} : {hint}", label=f'<span class="item-hint-label">{esc(label)}</span>',
                            hint=esc(text)) + '</li>' for label, text, sub in hints)
        return f'\n  <ul class="item-hints" role="list">{lines}\n  </ul>'

    def _list_help(self, f, n) -> str:
        """A list's hint and its items' hints, folded together behind one "?" when long."""
        hints = f.item_hints() if hasattr(f, "item_hints") else []
        own = getattr(f, "hint", None) or ""
        if len(own) + len(" ".join(h[1] for h in hints)) > FOLD:
            head = f'<span class="hint" id="h-{n}">{esc(own)}</span>' if own else ""
            return (f'\n  <details class="fold fold-items"><summary><span aria-hidden="true">?</span>'
                    f'<span class="visually-hidden">{tr(HELP)} {esc(f.label.text)}</span></summary>'
                    f'{head}\n    {self._item_hints(hints)}\n  </details>')
        return f"\n  {self._hint(f, n)}\n  {self._item_hints(hints)}"

    @staticmethod
    def _described(f, n) -> Markup:
        """The ids of the field's messages and hint, for its aria-describedby."""
        return _html(f"e-{n} w-{n} h-{n}" if getattr(f, "hint", None) else f"e-{n} w-{n}")

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
            subs = "".join(self._render(sub, None, compact) for sub in f.form)
            return (f'<fieldset class="group{bad}" id="f-{n}"{self._shown(f)}>\n    <legend>{text}</legend>'
                    f'\n    {self._hint(f, n, None, compact)}\n    {self._messages(f, n)}'
                    f'\n    <div class="group-fields">{subs}\n    </div>\n  </fieldset>')
        if k == "fixed":
            labels = getattr(f, "item_labels", None) or ()
            copy = getattr(f, "copy_to", None)
            copy = f' data-copy-to="{esc(copy)}" data-copy-from="{n}"' if copy else ""
            items = []
            for i, entry in enumerate(f.entries):
                own = labels[i] if i < len(labels) else _html(f"{text} {i + 1}")
                items.append(f"\n      {self._render(entry, own, True)}")
            items = "".join(items)
            return (f'<fieldset class="list fixed{bad}" id="f-{n}"{self._shown(f)}{copy}>'
                    f'\n    <legend>{text}</legend>\n    {self._list_help(f, n)}\n    {self._messages(f, n)}'
                    f'\n    <div class="items">{items}\n    </div>\n  </fieldset>')
        if k == "rows":
            item = esc(f.item_label) if f.item_label else text
            remove = f' data-remove-label="{esc(f.remove_label)}"' if f.remove_label else ""
            items = "".join(
                f'\n      <div class="row" data-row>{self._render(entry, _html(f"{item} {i}"), True)}</div>'
                for i, entry in enumerate(f.entries, 1))
            full = " hidden" if len(f.entries) >= f.max_entries else ""
            return (f'<fieldset class="list rows{bad}" id="f-{n}" data-rows="{n}"'
                    f'\n    data-max="{esc(f.max_entries)}" data-item-label="{item}"{remove}'
                    f'{self._shown(f)}>'
                    f'\n    <legend>{text}</legend>\n    {self._list_help(f, n)}\n    {self._messages(f, n)}'
                    f'\n    <div class="items">{items}\n    </div>'
                    f'\n    <button type="submit" class="ghost add-row" name="add_row" value="{n}"{full}>'
                    f'{esc(f.add_label)}</button>\n  </fieldset>')
        if k == "flag":
            box = _widget(f, {"aria-describedby": self._described(f, n)}, self)
            return (f'<div class="field flag{bad}" id="f-{n}"{self._shown(f)}>'
                    f'\n    <label class="check" for="{fid}">{box} <span>{text}</span></label>'
                    f'\n    {self._hint(f, n, None, compact)}\n    {self._messages(f, n)}\n  </div>')
        if k == "choice":
            extra = {"data-keep-local": ""} if getattr(f, "local", False) else {}
            options = "".join(f'\n    <label class="check" for="{esc(o.id)}">{_widget(o, extra, self)} '
                              f'<span>{esc(o.label.text)}</span></label>' for o in f)
            return (f'<fieldset class="choice{bad}" id="f-{n}"{self._shown(f)}>\n    <legend>{text}</legend>'
                    f'\n    {self._hint(f, n, None, compact)}{options}'
                    f'\n    {self._messages(f, n)}\n  </fieldset>')
        if k == "select" and f.type == "Name":
            return self._chips(f, n, text, bad, compact)
        return self._input(f, n, fid, text, bad, compact)

    def _chips(self, f, n, text, bad, compact) -> str:
        """One of the players (a castle's holder): a chip per name, one tap (a <select> takes two).
        A city tile's player (`Owner`, a `Name` subclass) stays a <select>: a chip row per tile
        would make a city too tall."""
        fid = n if f.id == f.name else esc(f.id)
        described = f' aria-describedby="h-{n}"' if getattr(f, "hint", None) else ""
        blank = f.data == ""
        chips = "".join(
            f'\n    <label class="check chip" for="{fid}-{i}"><input type="radio" id="{fid}-{i}" name="{n}"'
            f' value="{esc(c.value)}"{self._chip(f, c, blank)}{described}>'
            f' <span>{esc(c.label)}</span></label>'
            for i, c in enumerate(f.iter_choices()))
        return (f'<fieldset class="choice chips{bad}" id="f-{n}"{self._shown(f)}>'
                f'\n    <legend>{text}</legend>'
                f'\n    {self._hint(f, n, None, compact)}\n    <div class="chip-row">{chips}\n    </div>'
                f'\n    {self._messages(f, n)}\n  </fieldset>')

    def _input(self, f, n, fid, text, bad, compact) -> str:
        invalid = "true" if bad else "false"
        if f.type == "Count" and f.widget.input_type == "text":
            # the common case written directly: WTForms' attribute rendering was most of its time
            attrs = _attributes(tuple((f.render_kw or {}).items()))
            widget = (f'<input type="text" id="{fid}" name="{n}" value="{esc(self._text(f))}"{attrs}'
                      f'\n      aria-describedby="{self._described(f, n)}" aria-invalid="{invalid}">')
        else:
            widget = _widget(f, {"aria-describedby": self._described(f, n), "aria-invalid": invalid}, self)
        return (f'<div class="field{bad}" id="f-{n}"{self._shown(f)}>'
                f'\n    <label for="{fid}">{text}</label>'
                f'\n    {self._hint(f, n, None, compact)}\n    {widget}'
                f'\n    {self._messages(f, n)}\n  </div>')


_PAGE = FieldHtml()  # `_widget` called without a page: values read from the field
