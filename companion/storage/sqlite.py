"""SQLite set up for the server (gunicorn.conf.py: an event loop a worker; the development server: threads).

WAL journal: readers never wait for a writer's commit (in the default journal every page view
stalled while an autosave committed), and writers queue for up to BUSY_TIMEOUT_MS instead of
failing with "database is locked". Connections keep SQLite's default synchronous=FULL (the saves'
own, below, flushed otherwise), so a committed save survives a killed process or a power cut alike.
PostgreSQL needs none of this.

The saves of all the server's processes also take turns for the write (`WriteTurn`, taken by
companion/storage/store.py from a save's UPDATE to its commit): a save finding another process's save
writing would otherwise sleep in SQLite's busy handler (1, 2, 5 ... 100 ms, however soon the file is
free), and under a table server's load the workers then spent more time asleep than writing (the
knee of bench/bench_tables.py, docs/benchmarks.md).

The saves' own connection (companion/storage/store.py keeps one a process) commits without SQLite's
fsync (synchronous=NORMAL) and the WAL is flushed for them together (`WalFlush`): one fsync, in a
thread beside the event loop, covers every save committed before it began, and a save is answered
only once such a flush has ended (`DurableAnswers`, after its working slot is given back). A save
that was answered is thus on the disk, as with FULL, but a worker's loop no longer stops for each
save's fsync, and the write turn is held for the statements alone.
"""

from __future__ import annotations

import itertools
import os
import threading
from contextvars import ContextVar
from datetime import datetime

import sqlalchemy as sa
from flask import Flask
from sqlalchemy.dialects.sqlite import DATETIME

from companion.base import offload

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: the busy handler alone
    fcntl = None

BUSY_TIMEOUT_MS = 30_000


def bind_processor(impl, dialect):
    """`impl.bind_processor(dialect)` (`store.Plain`'s values); for SQLite's DATETIME in its default
    format, one writing the same text in one C call: SQLAlchemy's fills seven fields with `%`, some
    15 % of a save's UPDATE and log INSERT beside SQLite's own work (tests/storage/test_sqlite_dates.py)."""
    processor = impl.bind_processor(dialect)
    if type(impl) is not DATETIME or impl._storage_format != DATETIME._storage_format:  # its default
        return processor

    def process(value, _theirs=processor):
        if type(value) is datetime:  # "%04d-%02d-%02d %02d:%02d:%02d.%06d", its offset (if any) left out
            return value.isoformat(" ", "microseconds")[:26]
        return _theirs(value)
    return process


def _pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


def init_app(app: Flask, db) -> None:
    if not str(app.config.get("SQLALCHEMY_DATABASE_URI", "")).startswith("sqlite"):
        return
    with app.app_context():
        sa.event.listen(db.engine, "connect", _pragmas)
    app.wsgi_app = DurableAnswers(app.wsgi_app)  # outside the working slots (web/limits.py): after them


class WriteTurn:
    """The write turn of one database file among processes: an exclusive `flock` on a file beside it
    (`<database>-turn`, in instance/ with the database). A process waiting for it sleeps in the kernel
    and wakes as soon as it is free. Within a process the threads take turns first (store._WRITING):
    a lock held through one open file is everybody's in that process."""

    def __init__(self, path: str):
        self.path = path
        self._fd: int | None = None
        self._pid: int | None = None

    def _file(self) -> int:
        if self._pid != os.getpid():  # opened after a fork: a file opened by the parent is shared with it
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        return self._fd

    def acquire(self) -> None:
        fcntl.flock(self._file(), fcntl.LOCK_EX)

    def release(self) -> None:
        fcntl.flock(self._file(), fcntl.LOCK_UN)


_BESIDE: dict[str, object] = {}  # by the path of a file beside a database: its WriteTurn or WalFlush
_BESIDE_LOCK = threading.Lock()


def _beside(engine: sa.Engine, suffix: str, kind):
    """The one `kind(path)` of this process for the file `<database><suffix>` of `engine`; None for
    PostgreSQL or a database in memory (one process)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = os.path.abspath(url.database) + suffix
    with _BESIDE_LOCK:
        if path not in _BESIDE:
            _BESIDE[path] = kind(path)
        return _BESIDE[path]


def write_turn(engine: sa.Engine) -> WriteTurn | None:
    """The write turn of `engine`'s database file; None for PostgreSQL, a database in memory (one
    process) or where files cannot be locked."""
    return None if fcntl is None else _beside(engine, "-turn", WriteTurn)


class WalFlush:
    """The WAL file of one database flushed to the disk for the commits made without SQLite's own
    fsync (`flush_after_commits`). Each such commit takes a ticket right after it (`ticket`); `wait`
    returns once a flush that began after the ticket was taken has ended. One flush at a time covers
    every commit made before it began: a waiter finding none under way starts one; the others wait
    for it and are woken together when it ends (woken one by one, each by the one before, they would
    wait a turn of the busy event loop each), then start the next one if it began before their commit."""

    def __init__(self, path: str):
        self.path = path  # the database's "-wal" file
        self.flushes = 0  # flushes made so far (benchmarks, tests)
        self._lock = threading.Lock()  # the state below, never held during a flush
        self._tickets = itertools.count(1)
        self._taken = 0  # the last ticket handed out (a commit made before it)
        self._flushed = 0  # every ticket up to this one is on the disk
        self._running: threading.Event | None = None  # set when the flush under way ends

    def ticket(self) -> int:
        """Right after a commit: the number a later flush must reach for it to be on the disk."""
        ticket = next(self._tickets)
        if ticket > self._taken:
            self._taken = ticket
        return ticket

    def wait(self, ticket: int) -> None:
        """Return once the commit of `ticket` (and every one before it) is on the disk."""
        while True:
            with self._lock:
                if self._flushed >= ticket:
                    return
                running = self._running
                if running is None:  # none under way: this waiter flushes for everyone committed by now
                    running = self._running = threading.Event()
                    reached = max(self._taken, ticket)
                    break
            running.wait()  # then look again: that flush may have begun before this commit
        flushed = False
        try:
            offload.in_thread(self._flush)  # the loop serves other requests during the fsync
            flushed = True
        finally:
            with self._lock:
                if flushed:
                    self.flushes += 1
                    self._flushed = max(self._flushed, reached)
                self._running = None
            running.set()

    def _flush(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:  # no WAL: SQLite checkpointed it into the database (and synced it)
            return
        try:
            os.fsync(fd)  # the file's pages, whichever connection wrote them
        finally:
            os.close(fd)


_FLUSH = "companion_wal_flush"  # a connection's info: its commits wait for this flush


def wal_flush(engine: sa.Engine) -> WalFlush | None:
    """The WAL flush of `engine`'s database file; None for PostgreSQL or a database in memory."""
    return _beside(engine, "-wal", WalFlush)


def flush_after_commits(connection: sa.Connection) -> None:
    """Let `connection` commit without SQLite's fsync, its commits made durable by the group flush
    (`committed`); given back to the pool, a connection syncs its commits itself again."""
    flush = wal_flush(connection.engine)
    if flush is None:
        return
    if not sa.event.contains(connection.engine, "checkin", _sync_again):
        sa.event.listen(connection.engine, "checkin", _sync_again)
    connection.connection.driver_connection.execute("PRAGMA synchronous=NORMAL")
    connection.info[_FLUSH] = flush


def _sync_again(dbapi_connection, record) -> None:
    if record is not None and record.info.pop(_FLUSH, None) is not None:
        dbapi_connection.execute("PRAGMA synchronous=FULL")


# The flushes a request's commits wait for, when the request is answered (`DurableAnswers`).
_LATER: ContextVar[list | None] = ContextVar("companion_wal_later", default=None)


def committed(connection: sa.Connection | None) -> None:
    """Call right after a commit on `connection`: one made without SQLite's fsync is on the disk when
    this returns, or (within a request) before the request is answered."""
    flush = connection.info.get(_FLUSH) if connection is not None else None
    if flush is None:
        return
    ticket = flush.ticket()
    later = _LATER.get()
    if later is None:
        flush.wait(ticket)
    else:
        later.append((flush, ticket))


class DurableAnswers:
    """WSGI middleware, outside the working slots: a request that committed saves waits for their
    flush once its work is done and its slot given back, and is answered after it."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        later: list = []  # (flush, ticket) of each commit `committed` saw
        token = _LATER.set(later)
        try:
            body = self.app(environ, start_response)
        except BaseException:
            self._settle(later)
            raise
        finally:
            _LATER.reset(token)
        try:
            self._settle(later)
        except BaseException:
            close = getattr(body, "close", None)
            if close is not None:
                close()
            raise
        return body

    @staticmethod
    def _settle(later: list) -> None:
        for flush, ticket in later:
            flush.wait(ticket)
