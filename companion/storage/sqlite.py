"""SQLite set up for a threaded server (gunicorn.conf.py runs many threads per worker).

WAL journal: readers never wait for a writer's commit (in the default journal every page view
stalled while an autosave committed), and writers queue for up to BUSY_TIMEOUT_MS instead of
failing with "database is locked". WAL keeps SQLite's default synchronous=FULL, so a committed save
survives a killed process or a power cut alike. PostgreSQL needs none of this.
"""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

BUSY_TIMEOUT_MS = 30_000


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
