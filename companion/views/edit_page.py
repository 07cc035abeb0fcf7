"""The edit page without a WTForms form: a skeleton rendered once per game, shape and language,
its stored values filled in on each request (issue 23).

A GET of the edit page built the stored game's form (~180 WTForms fields) and rendered it, though
the page only writes each field's value into markup that depends on nothing else. When no error is
to be shown beside a field (the game scores) and no message was flashed, the page is the skeleton
of its record and shape with the values filled in: the skeleton is the page rendered once by
`Skeleton` (a `field_html.FieldHtml` that writes a place instead of each value: a field's text, a
box ticked or a radio chosen, a part hidden while a radio holds another value, the warnings beside
a field, a select WTForms writes), and the values are the stored document's texts (`GameForms.texts`,
made without a form).

The key holds everything else the page is drawn from: the game, its tokens, players, colours and
the table's names, the language, the page's URL (links, the language switch, the phone link), and
its shape (the stored fields' names, and which fields of added rows are blank: a blank row is
added at the end of each list). The CSRF token, the version, the stored values (`base_values`)
and the totals are filled in on each request. `tests/views/test_edit_page.py` renders 400 random states
both ways (all five variants, French and English) and finds the same bytes.

A game whose template reads values itself (Reterra: a card's name is its count's label) says
`page_skeleton=False` in its forms module's `ADAPTER` and is always rendered with its form.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from functools import partial

from flask import current_app, render_template, request, session
from markupsafe import Markup, escape
from wtforms import SelectField

from .. import forms, games
from ..base.lru import LRU
from ..games import i18n
from ..saving import spec
from ..storage import history, store
from .field_html import Bare, FieldHtml, esc, join_messages, warning_slot

_NONCE = secrets.token_hex(6)  # a place's mark: no value typed at a table can forge it
_MARK = re.compile("\ue000" + _NONCE + r"(\d+)\ue001")


class NotSkeletal(Exception):
    """A field this skeleton cannot leave a place for (WTForms writes it, not a select)."""


# A place: (kind, name, argument, text). TEXT: the value of field `name`, escaped; WHEN / UNLESS:
# `text` when the value of `name` is / is not `argument`; GIVEN: values[name] as it is (already
# escaped); WARNED: the warnings of `name`; CALL: argument(values); SLOT: the warnings of `name` in
# their slot (argument: the name escaped), nothing when it has none.
TEXT, WHEN, UNLESS, GIVEN, WARNED, CALL, SLOT = range(7)


@dataclass(frozen=True)
class Page:
    """A rendered page cut at its places: `parts[0]`, place 0 filled, `parts[1]`, ... `parts[-1]`."""

    parts: tuple[str, ...]
    places: tuple[tuple, ...]

    def __len__(self) -> int:  # its weight in SKELETONS
        return sum(map(len, self.parts))

    def fill(self, values: dict) -> str:
        """The page with `values` (field name -> stored text; the page's own under "\ue000...")."""
        out = [self.parts[0]]
        append, get, warned = out.append, values.get, values.get("\ue000warned") or {}
        for (kind, name, arg, text), part in zip(self.places, self.parts[1:], strict=True):
            if kind == TEXT:
                append(esc(get(name, "")))
            elif kind == WHEN:
                if get(name, "") == arg:
                    append(text)
            elif kind == UNLESS:
                if get(name, "") != arg:
                    append(text)
            elif kind == GIVEN:
                append(values[name])
            elif kind == WARNED:
                append(join_messages(warned.get(name)))
            elif kind == SLOT:
                append(warning_slot(arg, warned.get(name)))
            else:
                append(arg(values))
            append(part)
        return "".join(out)


class Skeleton(FieldHtml):
    """The fields' HTML with a place where each value goes (see `FieldHtml`'s "what reads values")."""

    __slots__ = ("places",)

    def __init__(self, form, errors=None, theirs=None, warned=None):
        super().__init__(form, errors, theirs, warned)
        self.places: list[tuple] = []

    def place(self, kind: int, name: str, arg=None, text: str = "") -> str:
        self.places.append((kind, name, arg, text))
        return f"\ue000{_NONCE}{len(self.places) - 1}\ue001"

    def _hidden(self, name, value) -> str:
        return self.place(UNLESS, name, str(value), " hidden")

    def _checked(self, f, radio: bool):
        return Bare(self.place(WHEN, f.name, str(f.data) if radio else "y", "checked "))

    def _option(self, f, choice, value) -> str:
        return self.place(WHEN, f.name, str(value), "selected ")

    def _chip(self, f, choice, blank: bool) -> str:
        return self.place(WHEN, f.name, str(choice.value), " checked")

    def _text(self, f) -> str:
        return self.place(TEXT, f.name)

    def _warnings(self, name) -> str:
        return self.place(WARNED, name)

    def _warning(self, name, n) -> str:
        return self.place(SLOT, name, n)

    def _wtforms(self, f, extra: dict) -> str:
        if not isinstance(f, SelectField):
            raise NotSkeletal(f.name)
        return self.place(CALL, f.name, partial(_select, f, dict(extra)))


def _select(f, extra: dict, values: dict) -> str:
    """A select written by WTForms, on a copy of the skeleton's field holding this value."""
    copy = object.__new__(type(f))
    copy.__dict__.update(f.__dict__)
    copy.data = values.get(f.name, "")
    return str(copy(**extra))


# Skeletons per process, bounded in characters and in count (a 4-player page is ~140 KB).
SKELETONS = LRU(max_size=16 * 1024 * 1024, max_items=128)
_NOT_SKELETAL = Page(("",), ())  # a shape rendered with its form (a field WTForms writes)


def _shape(view: spec.Texts) -> tuple:
    """The page's fields: the stored fields' names, and which fields in rows are blank (each list
    gets one blank row at its end and at least its `shown` rows, `forms.pad_rows`)."""
    names = tuple(view.values)
    rows = tuple(f"{name}-" for name in view.limits)
    blanks = tuple(bool(v) for n, v in view.values.items() if n.startswith(rows)) if rows else ()
    return names, blanks


def page(record, sc: forms.GameForms) -> str | None:
    """The edit page of `record` from its skeleton, or None when it must be rendered with its form
    (a draft's rules beside the fields, a flashed message, a game that opts out)."""
    if not sc.adapter.page_skeleton or session.get("_flashes"):
        return None
    result = store.result_of(record)
    if result is None:
        return None
    view = sc.texts(record.document)
    key = (record.game, record.variant, record.edit_token, record.view_token, repr(record.colours),
           repr(record.labels), tuple(store.names_of(record)), record.seats_version, i18n.current(),
           request.url, request.script_root, _shape(view))
    skeleton = SKELETONS.get(key)
    if skeleton is _NOT_SKELETAL:
        return None
    if skeleton is None:
        skeleton = _build(record, sc)
        if not current_app.jinja_env.auto_reload:  # development: templates change under it
            SKELETONS.put(key, skeleton if skeleton is not None else _NOT_SKELETAL)
        if skeleton is None:
            return None
    values = dict(view.values)
    stored = {k: v for k, v in view.values.items() if v}
    values["\ue000version"] = str(escape(str(record.version)))
    values["\ue000base"] = str(quoted_json(stored))
    for i, p in enumerate(result.players):
        values[f"\ue000total{i}"] = str(p.total)
    values["\ue000csrf"] = _csrf()
    values["\ue000warned"] = forms.warned(sc, view, result)[0]
    return skeleton.fill(values)


def quoted_json(value) -> Markup:
    """`value` as JSON for a single-quoted attribute (base_values): its double quotes left as they
    are (written `&#34;`, a tenth of the page went to them), `&`, `<`, `>` and `'` escaped."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")  # noqa: S704
                  .replace("'", "&#39;"))


def _csrf() -> str:
    if not current_app.config.get("WTF_CSRF_ENABLED", True):
        return ""
    from flask_wtf.csrf import generate_csrf

    return generate_csrf()


def _build(record, sc: forms.GameForms) -> Page | None:
    """The page rendered once with places for what changes between two requests of one shape."""
    form = sc.form(record.document)
    forms.pad_rows(form, None)
    sc.label(form, store.labels_of(record))
    skel = Skeleton(form)
    version = skel.place(GIVEN, "\ue000version")
    form.version.data = version
    totals = [skel.place(GIVEN, f"\ue000total{i}") for i in range(len(store.names_of(record)))]
    base = skel.place(GIVEN, "\ue000base")
    token = getattr(getattr(form, "csrf_token", None), "current_token", None)
    try:
        html = render_template(
            sc.templates, record=record, screens=sc, game=sc.game, form=form,
            names=store.names_of(record), colours=store.colours_of(record), totals=totals, warned={},
            from_past=partial(games.from_past, record.game, partial(history.documents, record.game)),
            errors={}, general=[], theirs={}, summary=[], conflict_fields=[], base_values=base,
            field_html=lambda *args: skel)
    except NotSkeletal:
        return None
    if token:
        html = html.replace(token, skel.place(GIVEN, "\ue000csrf"))
    pieces = _MARK.split(html)
    parts, places = [pieces[0]], []
    for k in range(1, len(pieces), 2):
        place = skel.places[int(pieces[k])]
        text = pieces[k + 1]
        if place[0] == WHEN and place[3] == "checked ":
            text = text[1:]  # a bare `checked` is followed by its space: the place writes both
        places.append(place)
        parts.append(text)
    return Page(tuple(parts), tuple(places))
