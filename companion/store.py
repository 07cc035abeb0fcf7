"""Stored games: create, load, save with a version check, and each device's history.

Flask-aware but game-independent: the views call these, the games' forms never touch the database.
A stored document never holds a bad value (a save with one is refused before it reaches here); a
draft may still break a rule between fields (a castle holder typed before the castles), a scored
game always scores: `result_of` is None for such a draft, and every page reading it says so.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

import sqlalchemy as sa
from flask import abort, current_app, g, request
from sqlalchemy.orm.attributes import set_committed_value

from . import diskfull, games, summaries
from .extensions import db
from .games import i18n
from .models import DeviceGame, GameRecord, now

DEVICE_COOKIE = "companion_device"
DEVICE_MAX_AGE = 2 * 365 * 24 * 3600  # a table's phone keeps its history for two years
HISTORY_LIMIT = 100
REMEMBER_REFRESH = timedelta(minutes=10)  # `opened_at` is refreshed at most this often


class StaleVersion(Exception):
    """A save based on an older version than the stored one: someone else saved in between."""

    def __init__(self, record: GameRecord):
        super().__init__(f"game {record.id} is at version {record.version}")
        self.record = record


# --------------------------------------------------------------------------- games


def create(game: str, variant: str, players: list[str], colours: list[str],
           creation_key: str | None = None, labels: dict | None = None,
           document: dict | None = None) -> GameRecord:
    """A new game; with `creation_key` (the new-game form's one-time key), the game that key
    already created when there is one, so the same form posted twice makes one game."""
    if creation_key:
        existing = by_creation_key(creation_key)
        if existing is not None:
            return existing
    document = {"game": game, "variant": variant, **(document or {}),
                "players": [{"name": n} for n in players]}
    record = GameRecord(game=game, variant=variant, document=document, colours=list(colours),
                        labels=labels or None, status="draft", version=1, creation_key=creation_key or None,
                        summary=summary_for(document, 1))
    db.session.add(record)
    try:
        db.session.flush()
    except sa.exc.IntegrityError:  # the same form posted at the same instant: the other one won
        db.session.rollback()
        existing = by_creation_key(creation_key) if creation_key else None
        if existing is None:
            raise
        return existing
    return record


TWIN_WINDOW = 30 * 60  # seconds: Back to the new-game page then submit, within a sitting


def untouched_twin(game: str, variant: str, players: list[str], colours: list[str]) -> GameRecord | None:
    """A game this device created moments ago with the same game, variant, players and colours, and
    nothing entered since (version 1): the same new game asked twice (Back, then submit a page the
    browser fetched again, with a new one-time key). Going to it loses nothing: it is empty."""
    device = device_id(create=False)
    if device is None:
        return None
    since = now() - timedelta(seconds=TWIN_WINDOW)
    rows = db.session.scalars(
        sa.select(GameRecord).join(DeviceGame, DeviceGame.game_id == GameRecord.id)
        .where(DeviceGame.device == device, DeviceGame.can_edit.is_(True), GameRecord.game == game,
               GameRecord.variant == variant, GameRecord.version == 1, GameRecord.created_at >= since)
        .order_by(GameRecord.id.desc()).limit(10))
    for record in rows:
        if names_of(record) == list(players) and colours_of(record) == list(colours):
            return record
    return None


def by_creation_key(key: str) -> GameRecord | None:
    return db.session.scalar(sa.select(GameRecord).where(GameRecord.creation_key == key))


def by_edit_token(token: str) -> GameRecord:
    record = db.session.scalar(sa.select(GameRecord).where(GameRecord.edit_token == token))
    if record is None:
        abort(404)
    return record


def by_view_token(token: str) -> GameRecord:
    record = db.session.scalar(sa.select(GameRecord).where(GameRecord.view_token == token))
    if record is None:
        abort(404)
    return record


_ROW_BY = {column: sa.select(GameRecord.__table__).where(getattr(GameRecord, column) == sa.bindparam("token"))
           for column in ("edit_token", "view_token")}
# The same row with this device's history entry (None, None when it has none): one query, not two.
_ROW_SEEN = {column: sa.select(GameRecord.__table__, DeviceGame.can_edit.label("seen_can_edit"),
                               DeviceGame.opened_at.label("seen_at"))
             .select_from(GameRecord.__table__.outerjoin(
                 DeviceGame.__table__, sa.and_(DeviceGame.game_id == GameRecord.id,
                                               DeviceGame.device == sa.bindparam("device"))))
             .where(getattr(GameRecord, column) == sa.bindparam("token"))
             for column in ("edit_token", "view_token")}


def read_by_edit_token(token: str):
    """The game as a read-only row (sheets): the same attributes as a GameRecord, read on the
    session's connection without the ORM (a third of the cost: these pages are read often)."""
    return _read_row(_ROW_BY["edit_token"], {"token": token})


def read_by_view_token(token: str):
    return _read_row(_ROW_BY["view_token"], {"token": token})


def open_by_edit_token(token: str):
    """The game as a read-only row (results), remembered in this device's history with edit
    access, in one query when there is nothing to write (see `remember`)."""
    return _open("edit_token", token, can_edit=True)


def open_by_view_token(token: str):
    return _open("view_token", token, can_edit=False)


def _open(column: str, token: str, *, can_edit: bool):
    device = device_id()
    row = _read_row(_ROW_SEEN[column], {"token": token, "device": device})
    if not _unchanged(row.seen_can_edit, row.seen_at, can_edit):
        _write_entry(device, row.id, can_edit)
    return row


def _read_row(query, values: dict):
    """Reads on the session's connection: with SQLite, every query lets the other working thread
    take the interpreter for up to its switch interval (5 ms), so a page makes as few as it can."""
    row = db.session.connection().execute(query, values).one_or_none()
    if row is None:
        abort(404)
    return row


def save(record: GameRecord, document: dict, version: int, *, status: str | None = None) -> GameRecord:
    """Store `document` if `version` is still the stored one; raise StaleVersion otherwise.

    The check and the write are one UPDATE ... WHERE version = :version, so two phones saving at
    the same instant cannot both win, whatever the database or the number of workers. The new
    version's summary (`summary_for`) is written in the same statement.
    """
    values = {"document": document, "version": version + 1, "updated_at": now(),
              "summary": summary_for(document, version + 1)}
    if status:
        values["status"] = status
    done = db.session.execute(
        sa.update(GameRecord).where(GameRecord.id == record.id, GameRecord.version == version)
        .values(**values).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        db.session.rollback()
        fresh = db.session.get(GameRecord, record.id, populate_existing=True)
        if fresh is None:
            abort(404)
        raise StaleVersion(fresh)
    db.session.commit()
    # What was just written, without reading the row back (one query less per autosave).
    for key, value in values.items():
        set_committed_value(record, key, value)
    return record


def summary_for(document: dict, version: int) -> dict:
    """The summary stored with `document` at `version` (companion.summaries), in the statement that
    writes the document: whatever writes a game's document writes this beside it, so the statistics
    and the exports read summaries and score nothing."""
    text = json.dumps(document, sort_keys=True, ensure_ascii=False)
    # Scored through result_of's cache: the answer to a save reads the same result again.
    return summaries.make(document, version, result=_result_of_text(text, i18n.current()))


def set_status(record: GameRecord, status: str) -> None:
    if record.status != status:
        record.status = status
        db.session.commit()


def delete(record: GameRecord) -> None:
    db.session.execute(sa.delete(DeviceGame).where(DeviceGame.game_id == record.id))
    db.session.delete(record)
    db.session.commit()


def colours_of(record: GameRecord) -> list[str]:
    """One colour per player, whatever was stored (a game from before colours existed has none)."""
    stored = list(record.colours or [])
    n = len(record.document.get("players", []))
    return (stored + [""] * n)[:n]


def labels_of(record: GameRecord) -> dict:
    """The names the table gave beside the document ({"colours": [...]}), {} when none."""
    return dict(record.labels or {})


def known_cards(game: str) -> list[dict]:
    """Reterra's building cards (name, points) this device used before, latest game first, each
    (name, points) once: the new game's cards are picked from them."""
    rows = [entry.record for entry in history() if entry.record.game == game]
    seen, out = set(), []
    for record in rows:
        for card in record.document.get("buildings") or []:
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                continue
            key = (card["name"].strip().lower(), card.get("points"))
            if key not in seen:
                seen.add(key)
                out.append({"name": card["name"].strip(), "points": card.get("points")})
    return out


def names_of(record: GameRecord) -> list[str]:
    return [p.get("name", "") for p in record.document.get("players", [])]


def result_of(record: GameRecord):
    """The result of a stored document, or None if it no longer scores (an engine got stricter).

    The edit page, the results pages and the history all ask for it, again and again between two
    saves: results are kept per document text (the text is the key, so a document changed by any
    means is scored anew), and per language: the explanations are sentences in the reader's."""
    return _result_of_text(json.dumps(record.document, sort_keys=True, ensure_ascii=False), i18n.current())


@lru_cache(maxsize=512)
def _result_of_text(text: str, lang: str):
    try:
        return games.score(json.loads(text))
    except games.InvalidDocument:
        return None


# --------------------------------------------------------------------------- devices


def device_id(create: bool = True) -> str | None:
    """This device's random id (HttpOnly cookie); a new one is issued on the response when absent."""
    if "device" in g:
        return g.device
    token = request.cookies.get(DEVICE_COOKIE, "")
    if not (20 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()):
        if not create:
            return None
        token = secrets.token_urlsafe(24)
        g.new_device = True
    g.device = token
    return token


def set_device_cookie(response):
    """after_request hook: hand a new device its cookie."""
    if g.get("new_device"):
        response.set_cookie(DEVICE_COOKIE, g.device, max_age=DEVICE_MAX_AGE, httponly=True,
                            samesite="Lax", secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    return response


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


def history(limit: int = HISTORY_LIMIT) -> list[Entry]:
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
        delete(record)
        return True
    db.session.commit()
    return False


def known_names(limit: int = 30) -> list[str]:
    """Player names from this device's games, most recent first: the new-game suggestions."""
    seen: dict[str, str] = {}
    for entry in history():
        for name in names_of(entry.record):
            key = name.casefold()
            if name and key not in seen:
                seen[key] = name
    return list(seen.values())[:limit]
