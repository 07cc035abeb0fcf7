"""Each player's part of a score, kept (issue 33): an autosave changes one field of one player, and the
other players' parts are taken from here instead of being read, checked and scored again.

A part is what a game computes from ONE player's own sub-document: their fields read and checked,
and their lines when these depend on nothing the players share (Rebirth's part keeps its lines per
cities won beside it). The same holds for any sub-document read on its own (a Rebirth city,
given the seats). `PARTS.part(compute, check, raw, path, variant, *context)` calls `compute(own,
raw, path, variant, *context)` with a Checker of its own the first time, keeps the problems it found
and the value it returned, and from then on lays the same problems on `check` and returns the same
value. What is shared between parts (a castle's holder, a token only one may hold, the ranking, the
ties) is worked out by the game from the parts, each time.

The key is everything the computation reads: the compute function (so the game), the sub-document's
path (its problems' paths: a player's seat), the variant, the language the messages are worded in,
the game's `context` (hashable: Reterra's cards in play) and the sub-document itself as its marshal
bytes (exact types: 1, 1.0 and true are three keys; format 2, see MARSHAL). A sub-document marshal
cannot write (not from JSON) is computed each time. A value is shared by every result built from it:
what a result hands out is a copy (a part's lines, Reterra's community drawn). Bounded: `size` parts, the
least recently used dropped first.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from .core import Checker, Problem
from .i18n import current

T = TypeVar("T")

SIZE = 2048  # a few KB each: 300 tables of four players (Rebirth: also ~8 cities a game), each worker
# seeing every table, and the parts each save adds
# marshal's format 2 writes no back-references: from format 3 on, a string held elsewhere too (a key
# json.loads shares between players, a string another copy of the document holds) is written as a
# reference, so the same sub-document could give other bytes and never be found again
MARSHAL = 2


class Parts:
    """A bounded, thread-safe store of players' parts (see the module's docstring)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, tuple[tuple[Problem, ...], Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.hits = self.misses = 0

    def part(self, compute: Callable[..., T], check: Checker, raw: Any, path: str, variant: str,
             *context: Any) -> T:
        """`compute(own_checker, raw, path, variant, *context)`, or what it gave last time for the
        same key; its problems are added to `check` either way, in the order found."""
        key = None
        if self.size > 0:
            try:
                key = (compute, path, variant, current(), context, marshal.dumps(raw, MARSHAL))
            except ValueError:  # not a JSON value: computed each time
                key = None
        found = None
        if key is not None:
            with self._lock:
                found = self._kept.get(key)
                if found is not None:
                    self._kept.move_to_end(key)
                    self.hits += 1
        if found is None:
            own = Checker()
            value = compute(own, raw, path, variant, *context)
            found = (tuple(own.problems), value)
            if key is not None:
                with self._lock:
                    self.misses += 1
                    self._kept[key] = found
                    self._kept.move_to_end(key)
                    while len(self._kept) > self.size:
                        self._kept.popitem(last=False)
        check.problems.extend(found[0])
        return found[1]


PARTS = Parts()

# What else the engine keeps between scorings (a line's words per what it reads, the table's common
# checks): each module that keeps something lists here how to forget it, so that `forget` leaves
# nothing kept (tests comparing a kept score with a fresh one, benchmarks of a full rescoring).
CLEARS: list[Callable[[], None]] = []


def forget() -> None:
    """Nothing kept any more: every part, and everything listed in `CLEARS`."""
    PARTS.clear()
    for clear in CLEARS:
        clear()
