"""A game's sheet is rendered once per stored version, not once per request.

Rendering costs about 170 ms of CPU; a share link opened by a whole club (or refreshed in a loop)
would otherwise keep the server busy. `sheet_response` keys each sheet by everything it depends on
(the game's view token, its stored version, the players' colours and names of colours, the date printed on it,
the language,
and `RENDER_ID`, a digest of the code and files that draw sheets), so a new save is a new sheet and
an upgrade never serves an old drawing. The key is also the ETag: a phone that already holds this
version gets a 304 without anything being rendered, even from another worker. The rendered bytes
stay in a small LRU per process (bounded in bytes and in count) and in `instance/sheets/` (the
newest MAX_FILES, shared by the workers, so a sheet is rendered once per server, not per worker);
two requests of one process for the same missing sheet render it once (the second waits).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from ..base.lru import LRU
from ..games import i18n
from ..settings import ROOT

MAX_BYTES = 32 * 1024 * 1024
MAX_ITEMS = 128
MAX_FILES = 1000  # sheets kept on disk (instance/sheets/), shared by the workers


def _render_id() -> str:
    """Digest of what draws a sheet: the PDF code, its templates, stylesheet and fonts' names, and
    what the sheet prints (the engines' results, the forms' relabelling, the translations): the
    sheets on disk outlive an upgrade, and a 304 is answered without scoring the game."""
    digest = hashlib.sha256()
    folders = (ROOT / "companion" / "pdf", ROOT / "templates" / "pdf", ROOT / "companion" / "games",
               ROOT / "companion" / "forms", ROOT / "companion" / "translations")
    files = sorted(p for folder in folders for p in folder.rglob("*") if p.suffix in (".py", ".html", ".po"))
    files += sorted((ROOT / "static" / "css").glob("sheet*.css"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(",".join(sorted(p.name for p in (ROOT / "static" / "fonts").glob("*"))).encode())
    return digest.hexdigest()[:16]


RENDER_ID = _render_id()


class SheetCache(LRU):
    """A thread-safe LRU of PDF bytes, bounded by total size and number of sheets, backed by a folder."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_items: int = MAX_ITEMS, max_files: int = MAX_FILES):
        super().__init__(max_bytes, max_items)
        self.max_files = max_files
        self._rendering: dict[str, threading.Lock] = {}
        self.renders = 0  # how many sheets this process actually rendered (tests, benchmarks)

    def get_or_render(self, key: str, render: Callable[[], bytes | None],
                      folder: Path | None = None) -> bytes | None:
        """The sheet of `key` from memory, else from `folder` (shared by the server's workers), else
        rendered (and written to both); None when `render` has no sheet to draw (kept nowhere)."""
        data = self.get(key)
        if data is not None:
            return data
        with self._lock:
            lock = self._rendering.setdefault(key, threading.Lock())
        with lock:  # one render per key at a time: the others wait and read the cache
            data = self.get(key)
            if data is None and folder is not None:
                data = _read(folder / f"{key}.pdf")
            if data is None:
                data = render()
                if data is not None:
                    self.renders += 1
                    if folder is not None:
                        _write(folder, f"{key}.pdf", data, self.max_files)
            if data is not None:
                self.put(key, data)
        with self._lock:
            self._rendering.pop(key, None)
        return data


SHEETS = SheetCache()


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _age(path: Path) -> tuple[int, str]:
    try:
        return path.stat().st_mtime_ns, path.name
    except OSError:  # removed meanwhile by another worker
        return 0, path.name


def _write(folder: Path, name: str, data: bytes, max_files: int) -> None:
    """Write atomically (another worker may be reading), then keep the newest `max_files` sheets."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, folder / name)
        files = list(folder.glob("*.pdf"))
        if len(files) > max_files:
            files.sort(key=_age)
            for old in files[: len(files) - max_files]:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a full or read-only disk costs a render later, never a page


def sheet_key(game: str, version: int, colours: Sequence[tuple[str, str]], day: object,
              extra: object = None) -> str:
    """The ETag value (without quotes) of one sheet: changes whenever what is drawn may change.
    `game` is the game's view token (unique even across databases); only its digest is shown.
    `extra`: anything else the drawing depends on (the table's names for its colours...); the
    reader's language is part of it too."""
    material = repr((game, version, tuple(map(tuple, colours)), str(day), RENDER_ID, repr(extra),
                     i18n.current()))
    return f"v{version}-{hashlib.sha256(material.encode()).hexdigest()[:32]}"


def sheet_response(record, colours: Sequence[tuple[str, str]], day, extra,
                   render: Callable[[], bytes | None]):
    """The filled sheet of a stored game as a response: 304 when the phone already has this
    version (If-None-Match), else the cached or freshly rendered (`render()`) PDF, with its ETag;
    None when there is no sheet to draw (`render()` gave None: a draft that does not score).
    Everything `render` draws from besides the stored version goes into `colours`, `day`, `extra`."""
    from flask import Response, current_app, request

    etag = sheet_key(record.view_token, record.version, colours, day, extra)
    name = f"{record.game}-{day:%Y-%m-%d}.pdf"
    # Stored only by the phone itself, and checked again each time it is opened (a later save
    # changes the sheet): a 304 costs nothing.
    headers = {"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "private, no-cache"}
    if request.if_none_match.contains_weak(etag):  # If-None-Match compares weakly (RFC 9110)
        response = Response(status=304, headers=headers)
    else:
        data = SHEETS.get_or_render(etag, render, Path(current_app.instance_path) / "sheets")
        if data is None:
            return None
        response = Response(data, mimetype="application/pdf", headers=headers)
    response.set_etag(etag)
    return response
