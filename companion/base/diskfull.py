"""Is this error a full disk? One answer for every database and file the app writes.

A full disk shows itself differently on each path: SQLite raises `sqlite3.OperationalError`
"database or disk is full" (SQLITE_FULL), PostgreSQL `psycopg.errors.DiskFull` (SQLSTATE 53100),
a file write `OSError` ENOSPC (or EDQUOT, a user's quota), and SQLAlchemy wraps the driver's error
(`.orig`). `is_disk_full` looks through the wrapping and the exception's causes, so a caller can say
"no room on the server" instead of "internal error", and a page that only reads can go on when a
write it makes in passing (a history entry) had no room.
"""

from __future__ import annotations

import errno

SQLITE_FULL = 13
POSTGRES_DISK_FULL = "53100"
NO_SPACE = (errno.ENOSPC, errno.EDQUOT)


def _full(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in NO_SPACE:
        return True
    if getattr(exc, "sqlite_errorcode", None) == SQLITE_FULL:  # Python 3.11+
        return True
    if POSTGRES_DISK_FULL in (getattr(exc, "sqlstate", None), getattr(exc, "pgcode", None)):
        return True
    text = str(exc)
    return exc.__class__.__name__ in ("OperationalError", "DiskFull") and (
        "database or disk is full" in text or "No space left on device" in text)


def is_disk_full(exc: BaseException | None) -> bool:
    """True when `exc`, the driver error it wraps (`.orig`) or one of its causes is a full disk."""
    seen: set[int] = set()
    stack = [exc]
    while stack:
        item = stack.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        if _full(item):
            return True
        stack.extend((getattr(item, "orig", None), item.__cause__, item.__context__))
    return False
