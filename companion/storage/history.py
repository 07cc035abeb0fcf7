"""This device's games ("Mes parties"): which games it opened, with edit access or not, latest first.

A page that reads a game puts it in the list in passing (`remember`, or `open_by_*_token` in one
query); removing a game from the list deletes it when nobody else kept it (`forget`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from flask import current_app, g

from ..base import diskfull
from ..extensions import db
from . import phones, store
from .devices import device_id
from .models import DeviceGame, GameRecord, now

HISTORY_LIMIT = 100
REMEMBER_REFRESH = timedelta(minutes=10)  # `opened_at` is refreshed at most this often

# The same row with this device's history entry (None, None when it has none): one query, not two.
ROW_SEEN = {column: sa.select(GameRecord.__table__, DeviceGame.can_edit.label("seen_can_edit"),
                              DeviceGame.opened_at.label("seen_at"))
            .select_from(GameRecord.__table__.outerjoin(
                DeviceGame.__table__, sa.and_(DeviceGame.game_id == GameRecord.id,
                                              DeviceGame.device == sa.bindparam("device"))))
            .where(getattr(GameRecord, column) == sa.bindparam("token"))
            for column in ("edit_token", "view_token")}


def open_by_edit_token(token: str):
    """The game as a read-only row (results), remembered in this device's history with edit
    access, in one query when there is nothing to write (see `remember`)."""
    return _open("edit_token", token, can_edit=True)


def open_by_view_token(token: str):
    return _open("view_token", token, can_edit=False)


def _open(column: str, token: str, *, can_edit: bool):
    device = device_id()
    row = store.read_row(ROW_SEEN[column], {"token": token, "device": device})
    if not _unchanged(row.seen_can_edit, row.seen_at, can_edit):
        _write_entry(device, row.id, can_edit)
    return row


_ENTRY = (sa.select(DeviceGame.can_edit, DeviceGame.opened_at)
          .where(DeviceGame.device == sa.bindparam("device"), DeviceGame.game_id == sa.bindparam("game")))


def remember(record: GameRecord, *, can_edit: bool) -> None:
    """Put the game in this device's history (or move it to the top); edit access is never lowered."""
    device = device_id()
    if not g.get("new_device"):  # a known device: usually nothing to change, read without the ORM
        seen = db.session.connection().execute(_ENTRY, {"device": device, "game": record.id}).one_or_none()
        if seen is not None and _unchanged(seen.can_edit, seen.opened_at, can_edit):
            return
    _write_entry(device, record.id, can_edit)


def _write_entry(device: str, game_id: int, can_edit: bool) -> None:
    """Write the history entry. A page that reads a game writes it in passing: when it cannot be
    written (a full disk, a read-only database, the same entry written at the same instant by
    another request), the write is rolled back and logged, and the page goes on (issue 22)."""
    try:
        row = db.session.get(DeviceGame, (device, game_id))
        if row is None:
            db.session.add(DeviceGame(device=device, game_id=game_id, can_edit=can_edit))
        elif _unchanged(row.can_edit, row.opened_at, can_edit):
            return
        else:
            row.opened_at = now()
            row.can_edit = row.can_edit or can_edit
        db.session.commit()
    except (sa.exc.SQLAlchemyError, OSError) as exc:
        db.session.rollback()
        current_app.logger.warning("history entry of game %s not written (%s): the page goes on",
                                   game_id, "disk full" if diskfull.is_disk_full(exc) else type(exc).__name__)


def _unchanged(had_edit: bool, opened_at: datetime | None, can_edit: bool) -> bool:
    """Nothing to write: access not raised, opened recently (every page view would otherwise be a
    write transaction)."""
    return bool(had_edit or not can_edit) and _recent(opened_at)


def _recent(when: datetime | None) -> bool:
    if when is None:
        return False
    if when.tzinfo is None:  # SQLite gives back naive UTC datetimes
        when = when.replace(tzinfo=UTC)
    return now() - when < REMEMBER_REFRESH


@dataclass
class Entry:
    record: GameRecord
    can_edit: bool
    opened_at: object


def entries(limit: int = HISTORY_LIMIT) -> list[Entry]:
    device = device_id(create=False)
    if device is None:
        return []
    rows = db.session.execute(
        sa.select(GameRecord, DeviceGame.can_edit, DeviceGame.opened_at)
        .join(DeviceGame, DeviceGame.game_id == GameRecord.id)
        .where(DeviceGame.device == device)
        .order_by(GameRecord.updated_at.desc(), GameRecord.id.desc()).limit(limit)).all()
    return [Entry(r, bool(c), o) for r, c, o in rows]


def entry_for(record: GameRecord) -> DeviceGame | None:
    device = device_id(create=False)
    return None if device is None else db.session.get(DeviceGame, (device, record.id))


def forget(record: GameRecord) -> bool:
    """Remove the game from this device's history; delete it from the server when this device
    could edit it and no other device remembers it. Returns True when the game was deleted."""
    row = entry_for(record)
    can_edit = bool(row and row.can_edit)
    if row is not None:
        db.session.delete(row)
        db.session.flush()
    others = db.session.scalar(sa.select(sa.func.count()).select_from(DeviceGame)
                               .where(DeviceGame.game_id == record.id))
    if can_edit and not others:
        store.delete(record)
        phones.forget_game(phones.root(current_app.instance_path), record.uid)  # the table screen's
        return True
    db.session.commit()
    return False


def known_names(limit: int = 30) -> list[str]:
    """Player names from this device's games, most recent first: the new-game suggestions."""
    seen: dict[str, str] = {}
    for entry in entries():
        for name in store.names_of(entry.record):
            key = name.casefold()
            if name and key not in seen:
                seen[key] = name
    return list(seen.values())[:limit]


def documents(game: str) -> Iterator[dict]:
    """The documents of this device's games of `game`, latest first (what a game's page may offer
    again: companion.games `from_past`)."""
    return (entry.record.document for entry in entries() if entry.record.game == game)
