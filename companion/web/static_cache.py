"""Static files a phone downloads once: every `url_for('static', …)` carries the file's content hash
(`/static/js/play/autosave.js?v=3f2a…`), and a request with the current hash is cached for a year, immutable.
A new version of a file is a new URL, so a phone never runs yesterday's script against today's page;
a request with another hash (a page cached before an upgrade) gets the file revalidated each time.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from flask import Flask, Response, current_app, request

YEAR = 365 * 24 * 3600


@lru_cache(maxsize=512)
def _digest(path: str, mtime_ns: int, size: int) -> str:  # noqa: ARG001 - the key of the cache
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:12]


@lru_cache(maxsize=512)
def _path(folder: str, filename: str) -> str | None:
    """static/`filename` resolved (links followed), None outside the folder: a page links some ten
    files, and `realpath` reads every component of the path each time."""
    path = os.path.realpath(os.path.join(folder, filename))
    return path if path.startswith(os.path.realpath(folder) + os.sep) else None


def version(filename: str) -> str | None:
    """The content hash of static/`filename`, or None when there is no such file."""
    path = _path(current_app.static_folder, filename)
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def _add_version(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "v" not in values and values.get("filename"):
        digest = version(values["filename"])
        if digest:
            values["v"] = digest


def _cache(response: Response) -> Response:
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    wanted = request.args.get("v")
    if wanted and wanted == version((request.view_args or {}).get("filename", "")):
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"  # revalidated with its ETag
    return response


def init_app(app: Flask) -> None:
    app.url_defaults(_add_version)
    app.after_request(_cache)
