"""A value of a game's end state read by its field's spec entry and laid at its contract path, with no
form library (issue 29: one reading for the no-JS form's fields and the autosave's engine path).

A spec entry (`Leaf`) says what a field is (count, flag, choice, name), its bounds or its choices
(`Pick`), and where its value lives in the document (its contract path, the keys and indexes down
to it). `read` reads a posted text as the field does, with the message when the value is wrong on
its own; `lay_on` writes values at their paths on a copy of the document. `whole_number`,
`out_of_bounds` and `document_value` are the readings the form's own fields use too
(`companion.forms.fields`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..games.i18n import _, tr

OMIT = object()  # a value left out of the document (blank)

_INT = re.compile(r"[+-]?\d{1,7}")


def whole_number(text: str) -> int | None:
    """A typed whole number as a `Count` reads it (the form, and the autosave's engine path alike):
    None when blank; a ValueError with the field's message when it is not one ("−" is a minus)."""
    raw = text.strip().replace("\u2212", "-")
    if raw == "":
        return None
    if not _INT.fullmatch(raw):
        raise ValueError(_("doit être un nombre entier"))
    return int(raw)


def out_of_bounds(value: int | None, lo: int, hi: int) -> str | None:
    """A `Count`'s message for a number outside its bounds, else None."""
    if value is not None and not lo <= value <= hi:
        return _("doit être entre {lo} et {hi}", lo=lo, hi=hi)
    return None


def document_value(text: str, numeric: bool):
    """A chosen value (its posted text, stripped) as the document holds it: a numeric choice's
    ASCII digits as their number ("¹" is a digit to isdigit() and not to int()); anything else
    stays as typed, for the field's message and the engine's."""
    if numeric and text.isascii() and text.isdigit():
        return int(text)
    return text


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
        for value, label in self.offered:
            if value == text:  # a label with values is made when read (as `forms.fields._t` does)
                if callable(label):
                    return label()
                return tr(label) if isinstance(label, str) and label else label
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


def read(f: Leaf, text: str, names=()):
    """A posted text as the field reads it: (value or OMIT, message or None); `names`: the
    players', the choices of a `Name`."""
    if f.kind == "flag":
        return (OMIT if text in ("", "false") else True), None
    if f.kind == "choice":
        return read_choice(f.pick, text)
    if f.kind == "name":
        return read_name(text, names)
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
