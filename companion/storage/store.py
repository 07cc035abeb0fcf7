"""Stored games: create, load, save with a version check (a device's own list: companion.storage.history;
a stored document's result: companion.storage.score_cache).

Game-independent: the views call these, the games' forms never touch the database. A game that is
not there raises `Missing` (errors.py answers it as a 404).
A stored document never holds a bad value (a save with one is refused before it reaches here); a
draft may still break a rule between fields (a castle holder typed before the castles), a scored
game always scores: `result_of` is None for such a draft, and every page reading it says so.
"""

from __future__ import annotations

import json
import logging
import marshal
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from .. import games
from ..extensions import db
from ..games import i18n
from ..games.parts import MARSHAL
from . import devices, score_cache, sqlite, summaries
from .models import DeviceGame, GameChange, GamePhoto, GameRecord, now

LOG = logging.getLogger(__name__)


def json_text(value: Any) -> str:
    """The JSON text of what a game stores (its document, summary and log entries: the database
    engine's `json_serializer`, companion/__init__.py) and of a save's answer. orjson takes a tenth of
    `json.dumps`'s time on a game, the largest part of an autosave's own writing; what it refuses (a
    lone surrogate, an integer past 64 bits, a key not a string) goes to `json.dumps` as before."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value)


def frozen(value) -> tuple[Callable, bytes]:
    """`value` kept as exact bytes, and how to read them back (what the save path keeps by the values it
    holds, companion/saving/spec.py: 1, 1.0 and true are three): JSON, at a sixth of marshal's cost;
    marshal for what orjson refuses (a lone surrogate, an integer past 64 bits)."""
    try:
        return orjson.loads, orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is one
        return marshal.loads, marshal.dumps(value, MARSHAL)


def same_json(a, b) -> bool:
    """Whether `a` and `b` are the same JSON (1, 1.0 and true are three; what orjson refuses: never)."""
    try:
        return orjson.dumps(a) == orjson.dumps(b)
    except TypeError:
        return False


def json_value(text: str | bytes) -> Any:
    """A stored JSON text read back (the engine's `json_deserializer`): orjson, `json.loads` for what
    orjson refuses and Python reads (a lone surrogate's escape written before)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


class Missing(LookupError):
    """No stored game has this link, or it was deleted meanwhile (errors.py: a 404, for pages and
    for the autosave alike)."""


class StaleVersion(Exception):
    """A save based on an older version than the stored one: someone else saved in between."""

    def __init__(self, record: GameRecord):
        super().__init__(f"game {record.id} is at version {record.version}")
        self.record = record


# --------------------------------------------------------------------------- plain statements

# The autosave's statements as plain SQL (issue 33): `connection.execute(statement)` finds the
# compiled statement in SQLAlchemy's cache but still, at every call, makes its cache key, builds the
# parameters and their processors, an execution context and the result's columns (`exec_driver_sql`
# most of it too): for the game read, the versioned UPDATE and the log's INSERT, several times what
# SQLite takes to run them. A `Plain` statement keeps per database (its dialect) the SQL string
# (SQLite's `?`, PostgreSQL's `%(name)s` with its casts), its parameters' order and type processors
# (a document to JSON text, a date to SQLite's text) and those of the columns it reads, and runs on a
# cursor of the connection through `Connection._cursor_execute`, SQLAlchemy's own path for its
# special-case statements: the engine's events fire (tests/saving/test_save_statements.py counts
# them), a driver's error is raised as SQLAlchemy's (a full disk, a dropped connection), and the
# statement is in the connection's transaction, committed by `connection.commit()`.


@dataclass(frozen=True)
class _Compiled:
    sql: str
    positional: bool
    binds: tuple  # (name as sent, name in the values, its default, its processor or None), in order
    columns: tuple  # the processor of each column read, or None (a statement that reads none: empty)


class Plain:
    """One Core statement run as plain SQL, with its values by bind name: `execute(connection,
    values)` a write (the rows it wrote), `first(connection, values)` a read (its first row)."""

    def __init__(self, statement):
        self.statement = statement
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per dialect

    def compiled(self, dialect) -> _Compiled:
        try:
            return self._compiled[dialect]
        except KeyError:
            pass
        compiled = self.statement.compile(dialect=dialect)
        # Values SQLAlchemy would add at each call (a Python default, an INSERT's new key read back)
        # have no place in a plain statement: such a statement is refused when first run.
        if compiled.insert_prefetch or compiled.update_prefetch or compiled.effective_returning \
                or any(b.expanding or b.literal_execute for b in compiled.binds.values()):
            raise ValueError(f"not a plain statement: {compiled.string}")
        escaped = compiled.escaped_bind_names or {}
        order = compiled.positiontup if compiled.positional else list(compiled.binds)
        binds = []
        for name in order:
            bind = compiled.binds[name]
            processor = sqlite.bind_processor(bind.type.dialect_impl(dialect), dialect)
            default = _REQUIRED if bind.required else bind.value
            binds.append((escaped.get(name, name), bind.key, default, processor))
        columns = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
                        for column in getattr(self.statement, "selected_columns", ()))
        done = _Compiled(compiled.string, compiled.positional, tuple(binds), columns)
        self._compiled[dialect] = done
        return done

    def _run(self, connection: sa.Connection, values: dict[str, Any]):
        """The statement run on a new cursor of `connection` (the caller closes it)."""
        plain, sent = self.compiled(connection.dialect), []
        for _name, key, default, processor in plain.binds:  # a loop, no call per value: a save sends 15
            value = values.get(key, default)
            if value is _REQUIRED:
                raise KeyError(key)
            sent.append(value if processor is None else processor(value))
        parameters = tuple(sent) if plain.positional else \
            {bind[0]: value for bind, value in zip(plain.binds, sent, strict=True)}
        if not connection.in_transaction():
            connection.begin()  # as a statement through `execute` would: committed by `connection.commit()`
        cursor = connection.connection.cursor()
        try:
            connection._cursor_execute(cursor, plain.sql, parameters)  # noqa: SLF001 - see above
        except BaseException:
            cursor.close()
            raise
        return cursor

    def execute(self, connection: sa.Connection, values: dict[str, Any]) -> int:
        """Run a write; the number of rows it wrote."""
        cursor = self._run(connection, values)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def first(self, connection: sa.Connection, values: dict[str, Any]) -> tuple | None:
        """Run a read; its first row, each column as the Core statement reads it, or None."""
        cursor = self._run(connection, values)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        if row is None:
            return None
        processors = self.compiled(connection.dialect).columns
        return tuple(value if processor is None else processor(value)
                     for value, processor in zip(row, processors, strict=True))


_REQUIRED = object()  # a bind parameter without a value of its own: the caller's values must give it


# --------------------------------------------------------------------------- games


def create(game: str, variant: str, players: list[str], colours: list[str],
           creation_key: str | None = None, labels: dict | None = None,
           document: dict | None = None, edition: str | None = None) -> GameRecord:
    """A new game; with `creation_key` (the new-game form's one-time key), the game that key
    already created when there is one, so the same form posted twice makes one game. `document`:
    what the game starts with (table-level keys; "players", each named as in `players`, with their
    own fields: a tie carried into its game), never a bad value."""
    if creation_key:
        existing = by_creation_key(creation_key)
        if existing is not None:
            return existing
    document = {"game": game, "variant": variant, **(document or {})}
    document["players"] = document.get("players") or [{"name": n} for n in players]
    if [p["name"] for p in document["players"]] != list(players):
        raise ValueError("the document's players are not the names given")
    edition = edition_for(game, edition)
    record = GameRecord(game=game, variant=variant, document=document, colours=list(colours),
                        labels=labels or None, status="draft", version=1, creation_key=creation_key or None,
                        edition=edition, summary=summary_for(document, 1, edition))
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
    device = devices.device_id(create=False)
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
    """The game of an edit link (`Missing` when there is none)."""
    return _found(db.session.scalar(sa.select(GameRecord).where(GameRecord.edit_token == token)))


def by_view_token(token: str) -> GameRecord:
    return _found(db.session.scalar(sa.select(GameRecord).where(GameRecord.view_token == token)))


def _found(record):
    if record is None:
        raise Missing
    return record


ROW_BY = {column: sa.select(GameRecord.__table__).where(getattr(GameRecord, column) == sa.bindparam("token"))
           for column in ("edit_token", "view_token")}


def read_by_edit_token(token: str):
    """The game as a read-only row (sheets): the same attributes as a GameRecord, read on the
    session's connection without the ORM (a third of the cost: these pages are read often)."""
    return read_row(ROW_BY["edit_token"], {"token": token})


def read_by_view_token(token: str):
    return read_row(ROW_BY["view_token"], {"token": token})


def read_row(query, values: dict):
    """Reads on the session's connection: with SQLite, every query lets the other working thread
    take the interpreter for up to its switch interval (5 ms), so a page makes as few as it can."""
    return _found(db.session.connection().execute(query, values).one_or_none())


@dataclass(frozen=True)
class Held:
    """A game as a save reads it: what the saving service needs of a GameRecord, read with one Core
    query (the ORM's identity map and unit of work cost more than the save's own work)."""

    id: int
    game: str
    document: dict
    version: int
    status: str
    edition: str | None  # its tie rule's edition (None: the game's default)
    seats_version: int  # the version at which its seats last changed (GameRecord.seats_version)
    # the `saving` connection it was read on, which `save` writes and commits on (None: the session's)
    connection: sa.Connection | None = field(default=None, repr=False, compare=False)


_TABLE = GameRecord.__table__
_HELD = [_TABLE.c.id, _TABLE.c.game, _TABLE.c.document, _TABLE.c.version, _TABLE.c.status, _TABLE.c.edition,
         _TABLE.c.seats_version]
HELD_BY = {"edit_token": sa.select(*_HELD).where(_TABLE.c.edit_token == sa.bindparam("token")),
           "id": sa.select(*_HELD).where(_TABLE.c.id == sa.bindparam("token"))}
# the same, run as plain SQL on a `saving` connection (`Plain`), the document read as its text
# (`kept_document`)
_HELD_BY = {key: Plain(sa.select(*_HELD[:2], sa.cast(_TABLE.c.document, sa.Text), *_HELD[3:])
                       .where(column == sa.bindparam("token")))
            for key, column in (("edit_token", _TABLE.c.edit_token), ("id", _TABLE.c.id))}
# Each game's document as a save last read or wrote it, by game id: (its stored text, the document).
# The next save of the game reads the same text (most saves at a table follow one another): it is
# handed the same document, not read again, and the texts the save before it made of it are found
# by that document (companion/views/edit.py). A document handed out here is shared: never changed.
_DOCUMENTS: dict[int, tuple[str, dict]] = {}
DOCUMENTS_KEPT = 512  # games: a club's evening (300 tables), each worker seeing every table


def kept_document(game_id: int, text) -> dict:
    """The document of a stored text (`json_value`), the very one handed out before for that text."""
    found = _DOCUMENTS.get(game_id)
    if found is not None and found[0] == text:
        return found[1]
    document = json_value(text) if isinstance(text, (str, bytes)) else text
    _keep_document(game_id, text, document)
    return document


def _keep_document(game_id: int, text, document: dict) -> None:
    # each game kept goes last: the one saved least recently goes first
    if _DOCUMENTS.pop(game_id, None) is None and len(_DOCUMENTS) >= DOCUMENTS_KEPT:
        _DOCUMENTS.pop(next(iter(tuple(_DOCUMENTS)), None), None)  # the oldest (keys copied at once)
    _DOCUMENTS[game_id] = (text, document)


def _held(row, connection) -> Held:
    """A `Held` of a row of `_HELD_BY`, its document read from its text."""
    return Held(row[0], row[1], kept_document(row[0], row[2]), *row[3:], connection=connection)


def held_by_edit_token(token: str, connection=None) -> Held:
    """The game of an entry link, for a save (`Missing` when there is none: deleted); read on
    `connection` (`saving`) when given, else on the session's."""
    if connection is None:
        return Held(*read_row(HELD_BY["edit_token"], {"token": token}))
    return _held(_found(_HELD_BY["edit_token"].first(connection, {"token": token})), connection)


@contextmanager
def saving() -> Iterator[sa.Connection]:
    """A Core connection for one autosave (read with `held_by_edit_token`, written with `save`): the ORM
    session's transaction and its closing at the request's end cost more than the save's statements
    (issue 21). With SQLite one connection a process is kept for the saves, one at a time (the pool's
    checkout and checkin cost twice the game's read, issue 33); a save finding it taken, or another
    database (its server may close an idle connection: its pool checks each one it hands out), takes
    one from the pool. `save`'s UPDATE ... WHERE version is the check whatever the connection."""
    engine = db.engine
    kept = _kept(engine) if engine.dialect.name == "sqlite" else None
    if kept is None or not kept[0].acquire(blocking=False):
        with engine.connect() as connection:
            yield connection
        return
    try:
        yield kept[1]
    finally:
        try:
            if kept[1].in_transaction():  # what was left uncommitted, as the pool's checkin did
                kept[1].rollback()
        finally:
            if kept[1].invalidated or kept[1].closed:  # a broken connection: the next save opens one
                engine.__dict__.pop(_KEPT, None)
            kept[0].release()


_KEPT, _KEPT_MADE = "companion_saving", threading.Lock()


def _kept(engine: sa.Engine) -> tuple[threading.Lock, sa.Connection]:
    """The saves' kept connection of this engine in this process (a forked worker opens its own)."""
    found = engine.__dict__.get(_KEPT)
    if found is None or found[0] != os.getpid():
        with _KEPT_MADE:
            found = engine.__dict__.get(_KEPT)
            if found is None or found[0] != os.getpid():
                connection = engine.connect()
                sqlite.flush_after_commits(connection)  # its commits flushed together (storage/sqlite.py)
                found = engine.__dict__[_KEPT] = (os.getpid(), threading.Lock(), connection)
    return found[1], found[2]


# One statement, compiled once and run as plain SQL (`Plain`): building an UPDATE's
# values at each save cost more than running it.
_WRITE = Plain(
    _TABLE.update().where(_TABLE.c.id == sa.bindparam("key"), _TABLE.c.version == sa.bindparam("seen"))
    .values({name: sa.bindparam(name, type_=_TABLE.c[name].type)
             for name in ("document", "version", "updated_at", "summary", "status")})
    # set once, by the save that first stores the game as scored (`scored_at`: None otherwise)
    .values(first_scored_at=sa.func.coalesce(
        _TABLE.c.first_scored_at, sa.bindparam("scored_at", type_=_TABLE.c.first_scored_at.type))))

MISSING = object()  # `save`'s and `summary_for`'s result when the caller has none


def save(record: GameRecord, document: dict, version: int, *, status: str | None = None,
         result=MISSING) -> GameRecord:
    """Store `document` if `version` is still the stored one; raise StaleVersion otherwise.

    The check and the write are one UPDATE ... WHERE version = :version, so two phones saving at
    the same instant cannot both win, whatever the database or the number of workers. The new
    version's summary (`summary_for`) is written in the same statement. `result`: the engine's
    result of `document` (None: it does not score) when the caller has just computed it, so the
    save does not score it twice. A `Held` record read on a `saving` connection is written and
    committed on it; any other on the session's connection. Within `one_commit()`, the write is left
    in its transaction for the caller to add to and commit (`commit`), as the save's log entry is: the
    game and its log written together or not at all, one commit per save.
    """
    values = {"document": document, "version": version + 1, "updated_at": now(),
              "summary": summary_for(document, version + 1, edition_of(record), result),
              "status": status or record.status}
    # a Core UPDATE (on the session's connection when none is given): the ORM's bulk update path cost
    # more than the write
    connection = record.connection if isinstance(record, Held) else None
    on = connection if connection is not None else db.session  # what commits or rolls back

    def statements():  # the session's connection is taken again after a rollback
        return connection if connection is not None else db.session.connection()

    scored_at = values["updated_at"] if values["status"] == "scored" else None
    writing = statements()
    _take_turn(writing)  # within one_commit, with SQLite: this process's write turn, until the commit
    written = _WRITE.execute(writing, {**values, "key": record.id, "seen": version, "scored_at": scored_at})
    if written != 1:
        on.rollback()
        _release(_ONE_COMMIT.get())
        if isinstance(record, Held):
            found = _HELD_BY["id"].first(statements(), {"token": record.id})
            fresh = _found(_held(found, connection) if found is not None else None)  # deleted
        else:
            fresh = _found(db.session.get(GameRecord, record.id, populate_existing=True))
        raise StaleVersion(fresh)
    if _ONE_COMMIT.get() is None:
        on.commit()
        sqlite.committed(connection)
    # What was just written, without reading the row back (one query less per autosave).
    if isinstance(record, Held):  # its text as the database holds it: the next save is handed `document`
        _keep_document(record.id, json_text(document), document)
        return Held(record.id, record.game, document, version + 1, status or record.status, record.edition,
                    record.seats_version, connection)
    for key, value in values.items():
        set_committed_value(record, key, value)
    if record.first_scored_at is None and scored_at is not None:
        set_committed_value(record, "first_scored_at", scored_at)
    return record


class _Transaction:
    """One `one_commit()`: whether it holds this process's SQLite write turn (`_WRITING`)."""

    held = False
    turn = None  # the database's write turn among processes (storage/sqlite.py), when held


_ONE_COMMIT: ContextVar[_Transaction | None] = ContextVar("store_one_commit", default=None)
# SQLite has one writer at a time; a thread finding the file locked sleeps in SQLite's busy handler
# (1, 2, 5 ... 100 ms), and under load the threads of a worker queued that way while the writer waited
# for the interpreter: the saves of one process take turns here instead, woken as soon as it is free,
# then for the other processes' saves on the database's own turn (storage/sqlite.py's `WriteTurn`)
_WRITING = threading.Lock()


@contextmanager
def one_commit() -> Iterator[None]:
    """Within it, `save` writes without committing: the caller adds to the same transaction (the
    game's log entry, companion/saving/gamelog.py) and commits once (`commit`). Whatever is not committed
    when the request ends is rolled back (the connection closed, the session removed). With SQLite,
    from the UPDATE to the commit the save holds its process's write turn."""
    state = _Transaction()
    token = _ONE_COMMIT.set(state)
    try:
        yield
    finally:
        _ONE_COMMIT.reset(token)
        _release(state)


def _take_turn(connection: sa.Connection) -> None:
    state = _ONE_COMMIT.get()
    if state is not None and not state.held and connection.dialect.name == "sqlite":
        _WRITING.acquire()
        state.held = True
        turn = sqlite.write_turn(connection.engine)
        if turn is not None:  # then the other processes' saves: this process's one is waiting for it
            try:
                turn.acquire()
            except OSError:  # a file that cannot be locked: SQLite's busy handler alone, as before
                LOG.warning("the write turn %s cannot be locked", turn.path, exc_info=True)
            else:
                state.turn = turn


def _release(state: _Transaction | None) -> None:
    if state is not None and state.held:
        state.held = False
        turn, state.turn = state.turn, None
        try:
            if turn is not None:
                turn.release()
        finally:
            _WRITING.release()


def commit(record) -> None:
    """Commit what `save(record, ...)` left in its transaction within `one_commit()` (on a `Held`
    record's connection, or the session's)."""
    connection = record.connection if isinstance(record, Held) else None
    try:
        (connection if connection is not None else db.session).commit()
    finally:
        _release(_ONE_COMMIT.get())
    sqlite.committed(connection)  # after the write turn is given back: the flush needs none


def rollback(record) -> None:
    connection = record.connection if isinstance(record, Held) else None
    try:
        (connection if connection is not None else db.session).rollback()
    finally:
        _release(_ONE_COMMIT.get())


def edition_for(game: str, edition: str | None) -> str | None:
    """What is stored of a chosen edition: None for the game's default (or a game with one rule
    set, or an edition it does not know), so that only a table's real choice is kept."""
    spec = games.GAMES.get(game)
    if spec is None or edition not in spec.editions or edition == spec.default_edition:
        return None
    return edition


def edition_of(record) -> str | None:
    """The edition a stored game is scored by (None: its game's default)."""
    return getattr(record, "edition", None)


def summary_for(document: dict, version: int, edition: str | None = None, result=MISSING) -> dict:
    """The summary stored with `document` at `version` (companion.storage.summaries), in the statement that
    writes the document: whatever writes a game's document writes this beside it, so the statistics
    and the exports read summaries and score nothing. `result`: see `save`; it is the default
    edition's (the saving service scores as the API does), so a game played by another edition's
    rule is scored again by it."""
    if result is not MISSING and edition is None:
        return summaries.make(document, version, result=result)
    text = json.dumps(document, sort_keys=True, ensure_ascii=False)
    # Scored through result_of's cache: the answer to a save reads the same result again.
    return summaries.make(document, version, result=score_cache.result_of_text(text, i18n.current(), edition))


def set_status(record: GameRecord, status: str) -> None:
    if record.status != status:
        record.status = status
        db.session.commit()


def delete(record: GameRecord) -> None:
    db.session.execute(sa.delete(DeviceGame).where(DeviceGame.game_id == record.id))
    db.session.execute(sa.delete(GamePhoto).where(GamePhoto.game_id == record.id))  # SQLite: no cascade
    db.session.execute(sa.delete(GameChange).where(GameChange.game_id == record.id))  # its log
    db.session.delete(record)
    db.session.commit()


def colours_of(record: GameRecord) -> list[str]:
    """One colour per player, whatever was stored (a game from before colours existed has none)."""
    players = record.document.get("players", []) if isinstance(record.document, dict) else []
    return padded_colours(record.colours, len(players))


def padded_colours(colours: list[str] | None, n: int) -> list[str]:
    """`colours` cut or padded with "" to one per player (`n` players)."""
    return (list(colours or []) + [""] * n)[:n]


def labels_of(record: GameRecord) -> dict:
    """The names the table gave beside the document ({"colours": [...]}), {} when none."""
    return dict(record.labels or {})


def names_of(record: GameRecord) -> list[str]:
    return [p.get("name", "") for p in record.document.get("players", [])]


# Where the pages found them before the scoring cache had its own module (companion.storage.score_cache).
result_of = score_cache.result_of
_result_of_text = score_cache.result_of_text
