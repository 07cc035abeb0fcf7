"""The fields an autosave may lay on the stored document itself, read once per form class from a
blank game's form (`_spec`). A posted text is read by its entry and laid at its contract path by
`companion.saving.values` (`read`, `lay_on`), re-exported here."""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from wtforms import Form
from wtforms.fields import BooleanField, FieldList, FormField

from ...games.core import join
from ...saving.values import OMIT, Leaf, Pick, lay_on, read, read_choice, read_name

__all__ = ["OMIT", "Leaf", "Pick", "eligible", "lay_on", "leaves_of", "read", "read_choice", "read_name"]

def _own_validate(form) -> bool:
    return type(form).validate is not Form.validate


def _walk(game_id: str, variant: str, n_players: int, on_field, on_rows) -> None:
    """Every field of a blank game's form (the table's, then each seat's) as its contract place:
    `on_field(f, path, steps, kinds, orders, fixed)` for a field outside a list of rows (`fixed`: an
    entry of a fixed list), `on_rows(f, path, steps, kinds, orders)` for a list of rows (not entered).
    A form that checks its fields together (its own `validate`) is left out: WTForms reads it."""
    from ..binding import screens
    from ..fields import SKIPPED, Rows

    sc = screens(game_id)
    form = sc.form({"game": game_id, "variant": variant, "players": [{"name": ""}] * n_players})
    table = sc._table(variant)

    def order_of(f) -> tuple:
        return tuple(sub.short_name for sub in f if sub.short_name not in SKIPPED)

    def visit(form_obj, path, steps, kinds, orders, skip=()):
        """`orders`: each container above this form's own object; `kinds`: each step's container."""
        if _own_validate(form_obj):
            return
        own = (*orders, order_of(form_obj))
        for f in form_obj:
            if f.short_name in SKIPPED or f.short_name in skip:
                continue
            p, s = join(path, f.short_name), (*steps, f.short_name)
            if isinstance(f, Rows):
                on_rows(f, p, s, kinds, own)
            elif isinstance(f, FormField):
                visit(f.form, p, s, (*kinds, "group"), own, getattr(f.form, "ui_only", ()))
            elif isinstance(f, FieldList):
                for k, entry in enumerate(f.entries):
                    pk = join(p, k)
                    if isinstance(entry, FormField):
                        visit(entry.form, pk, (*s, k), (*kinds, "fixed", "entry"), (*own, None),
                              getattr(entry.form, "ui_only", ()))
                    else:
                        on_field(entry, pk, (*s, k), (*kinds, "fixed"), (*own, None), True)
            else:
                on_field(f, p, s, kinds, own, False)

    top = order_of(form)
    visit(form, "", (), (), (), {"players", *getattr(table or object, "ui_only", ())})
    for i, entry in enumerate(form.players.entries):
        visit(entry.form, join("players", i), ("players", i), ("list", "seat"), (top, None),
              getattr(entry.form, "ui_only", ()))


@cache
def _spec(game_id: str, variant: str, n_players: int) -> MappingProxyType:
    """Field name -> `Leaf`, for every field that can be laid on the document directly."""
    from ..fields import Count, Name

    out: dict[str, Leaf] = {}

    def leaf(f, path, steps, kinds, orders, fixed):
        if isinstance(f, BooleanField) and not fixed:
            out[f.name] = Leaf("flag", 0, 0, path, steps, kinds, orders, False)
        elif isinstance(f, Count):
            out[f.name] = Leaf("count", f.lo, f.hi, path, steps, kinds, orders, fixed)
        elif isinstance(f, Name) and not fixed:  # a player named (Rebirth's castle holders)
            out[f.name] = Leaf("name", 0, 0, path, steps, kinds, orders, False)

    _walk(game_id, variant, n_players, leaf, lambda *_: None)
    return MappingProxyType(out)


def leaves_of(sc, view) -> MappingProxyType | None:
    """The direct fields of a stored document's form (None: a game without any)."""
    doc = view.document
    return _spec(sc.id, doc["variant"], len(doc.get("players", [])))


def eligible(sc, view, spec, changes) -> bool:
    """Whether every changed field can be laid on the stored document directly."""
    excluded = sc.adapter.not_direct
    for name in changes:
        f = spec.get(name)
        if f is None or view.paths.get(f.path) != name or name not in view.values:
            return False
        if excluded is not None and excluded.fullmatch(name):
            return False
    return True
