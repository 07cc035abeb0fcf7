"""Settings come from the environment; the secret key is never a constant."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout: templates/, static/, migrations/, instance/
STATIC = ROOT / "static"  # the app's own files: the only folder a sheet may read from

# A game document is a few kilobytes; this leaves room for a generously indented one (300 KB).
MAX_DOCUMENT_BYTES = 384 * 1024
# The largest body any view takes: a restored export file (a club's 5,000 games are about 10 MB).
# The one number for uploads: the restore page says it, the request gate reads that much ahead.
UPLOAD_MAX_BYTES = 16 * 1024 * 1024
# The largest photo of a final board a phone may send (the results page says it): a 12 Mpx phone
# photo is 2 to 6 MB, a 50 Mpx one up to 20. What is kept is far smaller (companion/storage/photos.py).
PHOTO_MAX_BYTES = 16 * 1024 * 1024


# Resident memory (MB) past which a gunicorn worker is recycled after its current requests
# (companion.server.workers); 0: never. A worker starts at about 120 MB (WeasyPrint and its fonts warmed).
WORKER_MAX_RSS_MB = 320


def worker_max_rss_mb() -> int:
    """`WORKER_MAX_RSS_MB` when set (a whole number of MB, 0 to turn it off), else the default;
    ValueError with the variable's name for anything else."""
    text = os.environ.get("WORKER_MAX_RSS_MB", "").strip()
    if not text:
        return WORKER_MAX_RSS_MB
    if not text.isdigit():
        raise ValueError(f"WORKER_MAX_RSS_MB : nombre entier de Mo attendu (0 : jamais), reçu {text[:40]!r}")
    return int(text)


def database_url(instance_path: str) -> str:
    """`DATABASE_URL` when set (PostgreSQL for a club), else a SQLite file in instance/."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "companion.sqlite3")
    # Hosting providers still hand out postgres:// URLs; SQLAlchemy wants a driver name.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def secret_key(instance_path: str) -> str:
    """`SECRET_KEY` when set, else one generated once into instance/secret_key (mode 0600)."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text().strip() or _write_key(path)
    except FileNotFoundError:
        return _write_key(path)


def _write_key(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    # O_EXCL: two workers starting together must not end up with two different keys.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key


def engine_options(url: str) -> dict:
    """A database server's connections are pinged before use (one it dropped, a restart or an idle
    timeout, is replaced instead of failing a save); a SQLite file has no server to lose them, and
    the ping would be one more statement in every request that reads a game (issue 21)."""
    return {} if url.startswith("sqlite") else {"pool_pre_ping": True}


def from_env(instance_path: str) -> dict:
    return {
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "SECRET_KEY": secret_key(instance_path),
        "MAX_CONTENT_LENGTH": MAX_DOCUMENT_BYTES,
        "UPLOAD_MAX_BYTES": int(os.environ.get("UPLOAD_MAX_BYTES", "") or UPLOAD_MAX_BYTES),
        "PHOTO_MAX_BYTES": int(os.environ.get("PHOTO_MAX_BYTES", "") or PHOTO_MAX_BYTES),
        # Requests running the app at once per process (companion.web.limits); 0: no limit. One: a
        # process runs one thread at a time, and two saves sharing it each took longer, the write turn
        # held meanwhile (docs/benchmarks.md, "One working slot a process").
        "ACTIVE_REQUESTS": int(os.environ.get("ACTIVE_REQUESTS", "") or 1),
        # Heavy routes (exports, statistics, PDF sheets) working at once per process, beside those:
        # their own share.
        "HEAVY_REQUESTS": int(os.environ.get("HEAVY_REQUESTS", "") or 1),
        # Seconds a restore's request (and each ask of its progress page) waits for the restore
        # running in the background before answering with its progress (companion.outputs.restore_jobs).
        "RESTORE_WAIT_SECONDS": float(os.environ.get("RESTORE_WAIT_SECONDS", "") or 10),
        # How often one client may do each (companion.web.ratelimits; Flask-Limiter's notation). The
        # counts are per process unless RATELIMIT_STORAGE_URI names a shared store (redis://...).
        "RATE_LIMIT_RESTORE": os.environ.get("RATE_LIMIT_RESTORE", "").strip() or "10 per hour",
        "RATE_LIMIT_NEW_GAME": os.environ.get("RATE_LIMIT_NEW_GAME", "").strip() or "60 per 10 minutes",
        "RATE_LIMIT_TIE": os.environ.get("RATE_LIMIT_TIE", "").strip() or "60 per minute",
        "RATE_LIMIT_API": os.environ.get("RATE_LIMIT_API", "").strip() or "300 per minute",
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "").strip() or "memory://",
        "RATELIMIT_ENABLED": os.environ.get("RATELIMIT_ENABLED", "1").strip() != "0",
        "WTF_CSRF_TIME_LIMIT": None,  # a game is scored over an evening: tokens last the session
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": os.environ.get("SESSION_COOKIE_SECURE", "") == "1",
        "PREFERRED_URL_SCHEME": os.environ.get("PREFERRED_URL_SCHEME", "http"),
        # Links for another phone (companion.web.links): the address phones use, when a proxy is in
        # front (wins over everything); else the network address `make run` found at start.
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", "").strip(),
        "LAN_ADDRESS": os.environ.get("COMPANION_LAN_ADDRESS", "").strip(),
    }
