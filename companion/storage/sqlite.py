"""SQLite set up for the server (gunicorn.conf.py: an event loop a worker; the development server: threads).

WAL journal: readers never wait for a writer's commit (in the default journal every page view
stalled while an autosave committed), and writers queue for up to BUSY_TIMEOUT_MS instead of
failing with "database is locked". WAL keeps SQLite's default synchronous=FULL, so a committed save
survives a killed process or a power cut alike. PostgreSQL needs none of this.

The saves of all the server's processes also take turns for the write (`WriteTurn`, taken by
companion/storage/store.py from a save's UPDATE to its commit): a save finding another process's save
writing would otherwise sleep in SQLite's busy handler (1, 2, 5 ... 100 ms, however soon the file is
free), and under a table server's load the workers then spent more time asleep than writing (the
knee of bench/bench_tables.py, docs/benchmarks.md).
"""

from __future__ import annotations

import os
import threading
from datetime import datetime

import sqlalchemy as sa
from flask import Flask
from sqlalchemy.dialects.sqlite import DATETIME

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


_TURNS: dict[str, WriteTurn] = {}
_TURNS_LOCK = threading.Lock()


def write_turn(engine: sa.Engine) -> WriteTurn | None:
    """The write turn of `engine`'s database file; None for PostgreSQL, a database in memory (one
    process) or where files cannot be locked."""
    url = engine.url
    if fcntl is None or url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = os.path.abspath(url.database) + "-turn"
    with _TURNS_LOCK:
        if path not in _TURNS:
            _TURNS[path] = WriteTurn(path)
        return _TURNS[path]
