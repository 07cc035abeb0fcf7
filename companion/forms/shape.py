"""A game's fields as the save reads them (`companion.saving.spec.Spec`), read once per game, variant
and seat count from the fields its form module declares: what each field is (a number and its
bounds, a box, a choice and its values, a player, a text), the groups, fixed lists and rows. The save
never builds a form: it reads this tree."""

from __future__ import annotations

from functools import cache

from wtforms.fields import BooleanField, FieldList, FormField, RadioField, SelectField

from ..saving import spec
from .fields import SKIPPED, Choice, Count, Name, Rows, choice_labels


@cache
def spec_of(form_class, seats: int) -> spec.Spec:
    """The spec of an end-state form class (`binding.end_state_class`: one per game, variant and seat
    count), read once from a form of it."""
    return spec_from(form_class(formdata=None, data={}), seats)


def spec_from(form, seats: int) -> spec.Spec:
    """The spec of a bound end-state form: its table's fields, then one player's."""
    table_ui = frozenset(getattr(form, "ui_only", ()))
    table = spec.Group(tuple((f.short_name, _node(f)) for f in form
                             if f.short_name not in SKIPPED and f.short_name != "players"), table_ui)
    player = _node(form.players.entries[0]) if form.players.entries else spec.Group(())
    return spec.Spec(table, player, seats)


def _node(f):
    if isinstance(f, FormField):
        return spec.Group(tuple((sub.short_name, _node(sub)) for sub in f.form
                                if sub.short_name not in SKIPPED),
                          frozenset(getattr(f.form, "ui_only", ())))
    if isinstance(f, Rows):
        return spec.Rows(_node(f.entries[0]), f.max_entries)
    if isinstance(f, FieldList):
        return spec.Fixed(_node(f.entries[0]), f.max_entries or len(f.entries))
    if isinstance(f, Count):
        return spec.Leaf("count", f.lo, f.hi)
    if isinstance(f, BooleanField):
        return spec.Leaf("flag")
    if isinstance(f, Choice):
        return spec.Leaf("choice", values=frozenset(choice_labels(f.choices)), offered=tuple(f.offered or ()),
                         numeric=f.numeric, default=f.default)
    if isinstance(f, Name):
        return spec.Leaf("name", nobody=type(f).nobody)
    if isinstance(f, RadioField | SelectField):
        return spec.Leaf("choice", values=frozenset(choice_labels(f.choices)),
                         offered=tuple(choice_labels(f.choices).items()), default=f.default)
    return spec.Leaf("text")
