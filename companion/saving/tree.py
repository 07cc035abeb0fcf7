"""A game's fields as a tree of plain nodes (`Leaf`, `Group`, `Fixed`, `Rows`), one `Spec` per variant
and seat count (companion/forms/shape.py makes them from a game's form; companion/saving/spec.py
reads them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

OMIT = object()  # a value left out of the document (blank)


@dataclass(frozen=True)
class Leaf:
    """A field a player fills: "count" (a whole number in [lo, hi]), "flag" (a box), "choice" (one of
    `values`, labelled by `offered`: (value, French message id)), "name" (a player of the game, or
    nobody: null when `nobody`, else left out of its group) or "text"."""

    kind: str
    lo: int = 0
    hi: int = 0
    values: frozenset = frozenset()
    offered: tuple = ()
    numeric: bool = False  # a choice the document holds as its number (Rebirth's round towers)
    nobody: bool = True
    default: str | None = None  # a choice's value when its page did not post it at all


@dataclass(frozen=True)
class Group:
    """Named fields; `ui_only` are read (their messages, their values for the game's hooks) but not
    written in the document as they are."""

    fields: tuple  # ((key, node), ...) in the page's order
    ui_only: frozenset = frozenset()

    @cached_property
    def solo(self) -> dict:
        """Its fields that read and show on their own, each by its value alone: under groups only
        (no list), not `ui_only`, no default, in no group with a player to choose (whose blank decides
        what the group keeps). Name within it -> (keys, leaf or group)."""
        out: dict = {}
        for key, sub in self.fields:
            if key in self.ui_only:
                continue
            if type(sub) is Leaf and sub.kind != "name" and sub.default is None:
                out[key] = ((key,), sub)
            elif type(sub) is Group and "name" not in {s.kind for _k, s in sub.fields if type(s) is Leaf}:
                out[key] = ((key,), sub)
                out.update((f"{key}-{name}", ((key, *keys), node)) for name, (keys, node) in sub.solo.items())
        return out


@dataclass(frozen=True)
class Fixed:
    """Exactly `n` entries, entry i always entry i (a blank entry is its empty value)."""

    item: object
    n: int


@dataclass(frozen=True)
class Rows:
    """Rows the table adds and removes: blank rows are left out and the rest numbered again."""

    item: object
    max_entries: int


@dataclass(frozen=True, eq=False)  # one per game, variant and seat count: its identity is its key
class Spec:
    """One game's fields for one variant and seat count: the table's, and each player's."""

    table: Group
    player: Group
    seats: int


@dataclass(frozen=True)
class Hooks:
    """What a game says of its fields beyond the tree (its forms adapter's, called directly), each
    None where it says nothing: `to_texts(document, data)` fills `data` (the document without game
    and variant) with what only the page shows; `to_document(document, reading)` finishes the
    document read from the fields (a key made from others, a mode's fields)."""

    to_texts: Callable[[dict, dict], None] | None = None
    to_document: Callable[[dict, Any], None] | None = None  # (document, its `spec.Reading`)


NO_HOOKS = Hooks()
