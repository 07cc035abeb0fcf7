"""The fields an autosave may lay on the stored document itself, read once per form class from a
blank game's form (`_spec`), and a posted text read as its field reads it (`read`) and laid at its
contract path (`lay_on`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from wtforms import Form
from wtforms.fields import BooleanField, FieldList, FormField

from ...games.core import join
from ...games.i18n import _

OMIT = object()


@dataclass(frozen=True)
class Pick:
    """A choice's options as its form module wrote them ((value, label) pairs, labels French message
    ids) and whether the document holds the value as a number (`fields.Choice`'s `numeric`)."""

    offered: tuple
    numeric: bool

    @property
    def values(self) -> frozenset:
        return frozenset(v for v, _label in self.offered)

    def label(self, text: str) -> str:
        """The value as a person reads it (`convert.leaves`): its label, else the text itself."""
        from ..fields import _t

        for value, label in self.offered:
            if value == text:
                return _t(label)
        return text


@dataclass(frozen=True)
class Leaf:
    """A field a save may lay directly on the document: what it is, where its value lives."""

    kind: str  # "count" | "flag" | "choice" (a `Choice`, in a row) | "name" (a `Name`: a player or nobody)
    lo: int
    hi: int
    path: str  # its contract path
    steps: tuple  # the keys and indexes from the document down to its value
    kinds: tuple  # each container on the way: "seat", "group", "fixed", "entry" (a fixed list's object)
    orders: tuple  # each dict container's keys in the form's order (None for lists)
    fixed: bool  # an entry of a fixed list of numbers: blank is 0
    pick: Pick | None = None  # a choice's options


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


def read(f: Leaf, text: str, names=()):
    """A posted text as the field reads it: (value or OMIT, message or None); `names`: the
    players', the choices of a `Name`."""
    if f.kind == "flag":
        return (OMIT if text in ("", "false") else True), None
    if f.kind == "choice":
        return read_choice(f.pick, text)
    if f.kind == "name":
        return read_name(text, names)
    from ..fields import out_of_bounds, whole_number

    try:
        value = whole_number(text)
    except ValueError as exc:
        return OMIT, str(exc)
    if value is None:
        return OMIT, None
    return value, out_of_bounds(value, f.lo, f.hi)


def read_choice(pick: Pick, text: str):
    """A posted choice as `fields.Choice` reads it and `convert._convert` writes it: blank is left
    out; a value it does not offer says so (and is written as typed, for the engine's messages)."""
    from ..fields import document_value

    raw = text.strip()
    if raw == "":
        return OMIT, None
    return document_value(raw, pick.numeric), (None if text in pick.values else _("choix inconnu"))


def read_name(text: str, names) -> tuple:
    """A posted player's name as `fields.Name` reads it and `convert._convert` writes it: blank is
    null (nobody); a name not among the players says so (and is written as typed, for the
    engine's messages)."""
    if text == "":
        return None, None
    return text, (None if text in names else _("choisissez un joueur de la partie"))


def lay_on(document: dict, values: dict, spec) -> dict:
    """The document with `values` (field name -> value or OMIT) written at their paths; containers on
    the way are copied, never changed in place (the stored document is shared by the cache). A group
    left empty is left out; an entry of a fixed list stays ({}, or 0 for a number); a key written
    anew takes its place in the form's order, as the form would have written it."""
    root = dict(document)
    copied = {id(root)}
    inserted: list[tuple[list, Leaf]] = []
    for name, value in values.items():
        f = spec[name]
        nodes = [root]
        node = root
        for step in f.steps[:-1]:
            child = node[step] if isinstance(node, list) else node.get(step)
            if child is None:
                child = {}
            elif id(child) not in copied:
                child = dict(child) if isinstance(child, dict) else list(child)
            node[step] = child
            copied.add(id(child))
            nodes.append(child)
            node = child
        key = f.steps[-1]
        if value is OMIT and f.fixed:
            value = 0
        if value is OMIT:
            node.pop(key, None)
        else:
            node[key] = value
        inserted.append((nodes, f))
        for i in range(len(nodes) - 1, 0, -1):  # a group left empty is left out
            if f.kinds[i - 1] == "group" and not nodes[i]:
                del nodes[i - 1][f.steps[i - 1]]
            else:
                break
    for nodes, f in inserted:  # in place: every container on a path is this save's own copy
        for node, order in zip(nodes, f.orders, strict=True):
            if order is not None and isinstance(node, dict):
                items = list(node.items())
                rest = [(k, v) for k, v in items if k not in order]
                pos = {k: n for n, k in enumerate(order)}
                ranked = sorted(((k, v) for k, v in items if k in pos), key=lambda kv: pos[kv[0]])
                node.clear()
                node.update(rest + ranked)
    return root
