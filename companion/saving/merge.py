"""The merge: one phone's changes laid over the values stored NOW (pure functions).

The stored side is a `View` of the stored document (field name -> text as the page shows it:
`companion.saving.spec.Texts`). A field is in conflict only when the
stored value is neither its base nor the new value, as the stored document means it (`View.same`: a
0 the server filled in is the blank a page was based on). A game may say more through its forms
adapter (`rules`, a `Rules`: `companion.forms.adapter.Adapter` is one; None where a game has none):

- ``row_companion(list, old, new, name)``: a field outside a row that follows it by index, moved with
  a row this phone added when both phones added one at the same place;
- ``keyed(changes, keys, values, names)``, ``stored_count(values, seat, key)`` and
  ``settle(data, values, keyed, changes)``: fields that follow a row by its key (Reterra's counts by
  card), see `companion/games/reterra_fields.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from .wire import Changes


class View(Protocol):
    """What the merge reads of the stored document (`companion.saving.spec.Texts` is one)."""

    values: Mapping[str, str]  # field name -> the text a browser posts
    limits: Mapping[str, int]  # Rows name -> max entries

    def shown(self, name: str) -> str: ...  # the value as a person reads it

    def same(self, name: str, a: str, b: str) -> bool: ...


class Rules(Protocol):
    """A game's merge rules (`companion.forms.adapter.Adapter`); each None where the game has none."""

    row_companion: Callable[[str, int, int, str], str | None] | None
    keyed: Callable | None  # with stored_count and settle: fields following a row by its key
    stored_count: Callable[[Mapping[str, str], int, str], str] | None
    settle: Callable | None


@dataclass(frozen=True)
class NoRules:
    """The rules of a game without any: rows and fields merge by their names only."""

    row_companion: None = None
    keyed: None = None
    stored_count: None = None
    settle: None = None


NO_RULES = NoRules()


@dataclass
class Laid:
    """This phone's changes laid over the stored values: every field's value after the save
    (`data`), the fields the other side changed differently (name -> their value as a person reads
    it), the rows and fields of this phone that went to another index (old name -> new; "" for a
    field left out, which the page puts back as stored) and the fields left out, with the message
    saying why."""

    data: dict[str, str]
    conflicts: dict[str, str]
    moved: dict[str, str] = field(default_factory=dict)
    dropped: dict[str, str] = field(default_factory=dict)
    touched: set[str] | None = None  # the only fields `data` may hold otherwise than stored (None: any)


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + "-")


def relocate(changes: Changes, rows: list[str], stored: Mapping[str, str], limits: Mapping[str, int],
             companion: Callable | None = None) -> tuple[Changes, dict[str, str]]:
    """Two phones each add a row at the same index (two new cities, two new tiles): this phone's
    row goes to the first free index of its list, so both are kept and neither is a conflict.
    Outer rows first (a new city moves with its tiles). `companion(list, old, new, name)`, a game's
    `row_companion`: the new name of a field outside the row that follows it by index (Reterra's
    per-player count of a building card), else None; this phone's new ones move with the row."""
    out, moved, followed = dict(changes), {}, {}
    for prefix in sorted(set(rows), key=lambda p: (p.count("-"), p)):
        match = re.fullmatch(r"(.+)-(\d+)", prefix)
        if not match or match.group(1) not in limits or any(under(prefix, old) for old in moved):
            continue
        mine = {n: pair for n, pair in out.items() if under(n, prefix)}
        if not mine or not any(v for n, v in stored.items() if under(n, prefix)):
            continue  # nothing of mine there, or the place is still free
        if any(pair[0] for pair in mine.values()):
            continue  # not a row this phone added
        lst = match.group(1)
        taken = set()
        for n in list(stored) + list(out):
            m = re.match(re.escape(lst) + r"-(\d+)(?:-|$)", n)
            if m and (stored.get(n) or n in out):
                taken.add(int(m.group(1)))
        free = next((k for k in range(limits[lst]) if k not in taken), None)
        if free is None:
            continue  # no room: a conflict, the player chooses
        target = f"{lst}-{free}"
        for n, pair in mine.items():
            del out[n]
            out[target + n[len(prefix):]] = pair
        moved[prefix] = target
        for n in list(out) if companion else ():
            to = companion(lst, int(match.group(2)), free, n)
            if to and to not in out and not out[n][0]:  # blank in its base: entered with the new row
                out[to] = out.pop(n)
                followed[n] = to
    return out, moved | followed


def lay(view: View, changes: Changes, *, added: list | None = None, keys: Mapping[str, str] | None = None,
        names: list[str] | None = None, rules: Rules | None = None) -> Laid:
    """This phone's changes over the stored values (`added`: the rows this phone added, blank in its
    base; `keys`: the row each field was typed for, by its key; `names`: the players, for messages;
    `rules`: the game's `Rules`). A conflict on a blank stored value holds "" (the caller names it)."""
    rules = rules or NO_RULES
    moved: dict[str, str] = {}
    dropped: dict[str, str] = {}
    keyed: dict = {}
    if keys and rules.keyed is not None:  # fields following a row by its key (Reterra's counts by card)
        changes, keyed, dropped = rules.keyed(changes, keys, view.values, list(names or []))
    if added:
        changes, moved = relocate(changes, added, view.values, view.limits,
                                  rules.row_companion)
    conflicts = {}
    for name, (was, mine) in changes.items():
        now = view.values.get(name, "")
        # as the stored document means it: a 0 the server filled in is the blank the page was based on
        if not view.same(name, now, was) and not view.same(name, now, mine):
            conflicts[name] = view.shown(name)
    for (seat, key), (was, mine, name) in keyed.items():
        now = rules.stored_count(view.values, seat, key)
        if now != was and now != mine:
            conflicts[name] = now
    data = dict(view.values) | {name: mine for name, (_, mine) in changes.items()}
    if rules.settle is not None:  # a game's fields that follow a row by its key go with it
        moved |= rules.settle(data, view.values, keyed, changes)
    moved |= {name: "" for name in dropped}  # the page puts back what is stored there
    return Laid(data, conflicts, moved, dropped, None if rules.settle is not None else set(changes))

