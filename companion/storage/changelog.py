"""A game's log of changes as stored (issue 32; written by each save, companion/saving/gamelog.py):
its entries read, newest first, each knowing whether an undo of it stands, for the log page, a
phone's "Annuler" and the exports. A phone is kept as a hash of its device cookie (`phone_of`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache

import sqlalchemy as sa

from ..extensions import db
from .models import GameChange

KEPT = 500  # changes kept per game: a game's whole evening, many times over
_TABLE = GameChange.__table__


@lru_cache(maxsize=4096)  # the same phones save all evening: one hash each, not one a save
def phone_of(device: str) -> str:
    """A phone as the log keeps it: a hash of its device cookie (24 hex)."""
    return hashlib.sha256(("companion-log:" + device).encode()).hexdigest()[:24]




@dataclass(frozen=True)
class Change:
    id: int
    phone: str
    at: datetime
    version: int
    changes: dict[str, list[str]]
    undo_of: int | None
    undone: bool = False  # an undo of it stands (itself not undone)

    def mine(self, device: str | None) -> bool:
        return device is not None and self.phone == phone_of(device)

    def undoable(self, seats_version: int) -> bool:
        """Written after the seats last moved (its fields are still the same players')."""
        return self.version > seats_version


def _parsed(text: str) -> dict[str, list[str]]:
    try:
        return json.loads(text)
    except ValueError:
        return {}


_COLUMNS = (_TABLE.c.id, _TABLE.c.phone, _TABLE.c.at, _TABLE.c.version, _TABLE.c.undo_of)


def changes_of(game_id: int, *, texts: bool = True) -> list[Change]:
    """A game's log, newest first, each change knowing whether it is undone; `texts` False: without
    the fields' texts (`changes` empty), to choose one change before reading it (`full`)."""
    columns = (*_COLUMNS, _TABLE.c.changes) if texts else _COLUMNS
    rows = db.session.execute(sa.select(*columns).where(_TABLE.c.game_id == game_id)
                              .order_by(_TABLE.c.id.desc()).limit(KEPT))  # kept (`_write`: trimmed later)
    return settled([Change(row.id, row.phone, row.at, row.version, _parsed(row.changes) if texts else {},
                           row.undo_of) for row in rows])


def settled(newest_first: list[Change]) -> list[Change]:
    """Each change with `undone`: an undo of it that is itself not undone (an undo is always newer
    than what it undoes, so the newest are settled first)."""
    undos: dict[int, list[int]] = {}
    for change in newest_first:
        if change.undo_of is not None:
            undos.setdefault(change.undo_of, []).append(change.id)
    undone: dict[int, bool] = {}
    out = []
    for change in newest_first:
        flag = any(not undone.get(u, False) for u in undos.get(change.id, ()))
        undone[change.id] = flag
        out.append(replace(change, undone=flag))
    return out


def full(change: Change) -> Change:
    """`change` with its fields' texts, read."""
    text = db.session.scalar(sa.select(_TABLE.c.changes).where(_TABLE.c.id == change.id))
    return replace(change, changes=_parsed(text or "{}"))


def last(game_id: int, device: str | None, seats_version: int) -> Change | None:
    """This phone's last change not undone yet (an undo is not one: "Annuler" again goes further
    back), when it can still be undone; None when there is none."""
    if device is None:
        return None
    phone = phone_of(device)
    for change in changes_of(game_id, texts=False):
        if change.phone == phone and change.undo_of is None and not change.undone:
            return full(change) if change.undoable(seats_version) else None
    return None


def get(game_id: int, change_id: int) -> Change | None:
    for change in changes_of(game_id, texts=False):
        if change.id == change_id:
            return full(change)
    return None
