"""A game's sheet is rendered once per stored version, not once per request.

Rendering costs about 170 ms of CPU; a share link opened by a whole club (or refreshed in a loop)
would otherwise keep the server busy. `sheet_response` keys each sheet by everything it depends on
(the game's view token, its stored version, the players' colours and names of colours, the date printed on it,
and `RENDER_ID`, a digest of the code and files that draw sheets), so a new save is a new sheet and
an upgrade never serves an old drawing. The key is also the ETag: a phone that already holds this
version gets a 304 without anything being rendered, even from another worker. The rendered bytes
stay in a small LRU per process (bounded in bytes and in count); two requests for the same missing
sheet render it once (the second waits for the first).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from .. import ROOT

MAX_BYTES = 32 * 1024 * 1024
MAX_ITEMS = 128


def _render_id() -> str:
    """Digest of what draws a sheet: the PDF code, its templates, stylesheet and fonts' names."""
    digest = hashlib.sha256()
    folders = (ROOT / "companion" / "pdf", ROOT / "templates" / "pdf")
    files = sorted(p for folder in folders for p in folder.rglob("*") if p.suffix in (".py", ".html"))
    files += sorted((ROOT / "static" / "css").glob("sheet*.css"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(",".join(sorted(p.name for p in (ROOT / "static" / "fonts").glob("*"))).encode())
    return digest.hexdigest()[:16]


RENDER_ID = _render_id()


class SheetCache:
    """A thread-safe LRU of PDF bytes, bounded by total size and number of sheets."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_items: int = MAX_ITEMS):
        self.max_bytes = max_bytes
        self.max_items = max_items
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._rendering: dict[str, threading.Lock] = {}
        self.renders = 0  # how many sheets this process actually rendered (tests, benchmarks)

    def get(self, key: str) -> bytes | None:
        with self._lock:
            data = self._items.get(key)
            if data is not None:
                self._items.move_to_end(key)
            return data

    def put(self, key: str, data: bytes) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = data
            self._size += len(data)
            while self._items and (self._size > self.max_bytes or len(self._items) > self.max_items):
                _, old = self._items.popitem(last=False)
                self._size -= len(old)

    def get_or_render(self, key: str, render: Callable[[], bytes]) -> bytes:
        data = self.get(key)
        if data is not None:
            return data
        with self._lock:
            lock = self._rendering.setdefault(key, threading.Lock())
        with lock:  # one render per key at a time: the others wait and read the cache
            data = self.get(key)
            if data is None:
                data = render()
                self.renders += 1
                self.put(key, data)
        with self._lock:
            self._rendering.pop(key, None)
        return data

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0


SHEETS = SheetCache()


def sheet_key(game: str, version: int, colours: Sequence[tuple[str, str]], day: object) -> str:
    """The ETag value (without quotes) of one sheet: changes whenever what is drawn may change.
    `game` is the game's view token (unique even across databases); only its digest is shown."""
    material = repr((game, version, tuple(map(tuple, colours)), str(day), RENDER_ID))
    return f"v{version}-{hashlib.sha256(material.encode()).hexdigest()[:32]}"


def sheet_response(record, colours: Sequence[tuple[str, str]]):
    """The filled sheet of a stored game as a response: 304 when the phone already has this
    version (If-None-Match), else the cached or freshly rendered PDF, with its ETag."""
    from flask import Response, request

    from . import render_sheet

    day = record.created_at.date()
    etag = sheet_key(record.view_token, record.version, colours, day)
    name = f"{record.game}-{record.created_at:%Y-%m-%d}.pdf"
    # Stored only by the phone itself, and checked again each time it is opened (a later save
    # changes the sheet): a 304 costs nothing.
    headers = {"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "private, no-cache"}
    if request.if_none_match.contains(etag):
        response = Response(status=304, headers=headers)
    else:
        document = record.document
        data = SHEETS.get_or_render(etag, lambda: render_sheet(document, colours=list(colours), date=day))
        response = Response(data, mimetype="application/pdf", headers=headers)
    response.set_etag(etag)
    return response
