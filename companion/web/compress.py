"""Compressed text responses: the edit page of a 4-player game is ~140 KB of HTML and a table's
phone is often on a bad signal. A reverse proxy may compress too; then this stays out of its way.

Brotli where the phone offers it (browsers do over HTTPS only), else gzip. A page is compressed on
every request: the 4-player edit page (139 KB before issue 33) was 10.6 KB in 0.36 ms with brotli at
level 3, 13.0 KB in 1.1 ms with gzip at level 6. The page is now 68 KB (issue 33): brotli at level 3,
8.4 KB in 0.24 ms (level 4: 7.9 KB in 0.47 ms), gzip at level 3, 10.5 KB in 0.34 ms (level 5:
9.5 KB in 0.60 ms, level 6: 9.1 KB in 0.80 ms; a phone offered no brotli, over HTTP, gets a fifth
fewer bytes than before for a third of the time, and the page within 6 times the trivial route's CPU).
Accept-Encoding is read with its q-values (`br;q=0` refuses brotli, `*` offers it). Each encoding
has its own ETag ("...-br", "...-gz"), so a revalidation matches the copy the phone holds (304),
and `Vary: Accept-Encoding` tells caches the answer depends on it. Static files (content-hashed,
downloaded once) are compressed once per process, harder, and their stylesheets and scripts go out
minified (`companion.web.lean`: rjsmin, rcssmin).
"""

from __future__ import annotations

import gzip

import brotli
from flask import Flask, Response, g, request
from werkzeug.http import parse_accept_header

from ..base.lru import LRU
from . import lean

TYPES = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
         "image/svg+xml", "text/plain"}
MIN_BYTES = 1024
INLINED = "page_holds_files"  # set on `g` by companion.web.inline when a page holds its files
# (encoding, ETag suffix, compress a page, compress a static file once, compress a first visit's
# page holding its stylesheets and scripts: `companion.web.inline`). Brotli at level 3 lost to gzip on
# such a page (the 4-player edit page, 198 KB: 29.4 KB against 29.6 KB, and more than gzip with
# two players); level 5 makes it 25.5 KB in 2.1 ms of CPU, less than gzip's 2.9 ms (first visits only).
CODECS = {
    "br": ("-br", lambda data: brotli.compress(data, quality=3, mode=brotli.MODE_TEXT),
           lambda data: brotli.compress(data, quality=11, mode=brotli.MODE_TEXT),
           lambda data: brotli.compress(data, quality=5, mode=brotli.MODE_TEXT)),
    "gzip": ("-gz", lambda data: gzip.compress(data, compresslevel=3, mtime=0),
             lambda data: gzip.compress(data, compresslevel=9, mtime=0),
             lambda data: gzip.compress(data, compresslevel=6, mtime=0)),
}
# Static files compressed, per (ETag, encoding): the CSS and scripts are a few, read by every phone.
STATIC = LRU(max_size=8 * 1024 * 1024, max_items=256)


def chosen(accept) -> str | None:
    """The encoding to answer with: brotli when offered, else gzip, else None (as it is).
    `accept`: werkzeug's parsed Accept-Encoding (q=0 refuses; `*` offers what is not named)."""
    best, best_q = None, 0.0
    for name in CODECS:  # brotli first: it wins a tie
        q = _quality(accept, name)
        if q > best_q:
            best, best_q = name, q
    return best


_CHOSEN: dict[str, str | None] = {}  # an Accept-Encoding header as sent -> `chosen` (phones send a few)
_CHOSEN_MAX = 64


def chosen_for(header: str) -> str | None:
    """`chosen` for a raw Accept-Encoding header, read once per process: parsing it at every answer
    cost more than compressing an autosave's answer."""
    try:
        return _CHOSEN[header]
    except KeyError:
        pass
    encoding = chosen(parse_accept_header(header))
    if len(_CHOSEN) < _CHOSEN_MAX:
        _CHOSEN[header] = encoding
    return encoding


def _quality(accept, name: str) -> float:
    for value, q in accept:
        if value == name:
            return q
    for value, q in accept:
        if value == "*":
            return q
    return 0.0


def compress(response: Response) -> Response:
    streamed = response.is_streamed and not response.direct_passthrough  # a generator: leave it
    if (response.status_code != 200 or response.mimetype not in TYPES or streamed
            or "Content-Encoding" in response.headers):
        return response  # a 304 of the view itself (the plain copy's validator): as it is
    is_static = request.endpoint == "static"
    small = _size(response) < MIN_BYTES
    if small and not is_static:
        return response  # an autosave's answer: nothing to gain
    etag, weak = response.get_etag()
    static = is_static and etag
    leaned = static and response.mimetype in lean.TYPES  # a stylesheet or a script: sent lean
    if small:
        if leaned:
            _set(response, _lean(response, etag))
        return response
    _vary(response)  # another Accept-Encoding may get another body
    encoding = chosen_for(request.environ.get("HTTP_ACCEPT_ENCODING", ""))
    if encoding is None:
        if leaned:
            _set(response, _lean(response, etag))
        return response
    suffix, fresh, once, holding = CODECS[encoding]
    if g.get(INLINED):
        fresh = holding
    if etag:
        # The compressed body is another representation: its validator differs, and a phone that
        # holds it revalidates with that one, so it is that one that must answer 304.
        response.set_etag(f"{etag}{suffix}", weak=weak)
        response.make_conditional(request)
        if response.status_code == 304:
            return response
    data = STATIC.get((etag, encoding)) if static else None
    if data is None:
        plain = _lean(response, etag) if static else response.get_data()
        if len(plain) < MIN_BYTES:
            if etag:
                response.set_etag(etag, weak=weak)
            if static:
                _set(response, plain)
            return response
        data = (once if static else fresh)(plain)
        if static:
            STATIC.put((etag, encoding), data)
    _set(response, data)
    response.headers["Content-Encoding"] = encoding
    return response


def _lean(response: Response, etag: str) -> bytes:
    """A static file's bytes as phones get them (`companion.web.lean`: a stylesheet or script minified),
    read once per process."""
    data = STATIC.get((etag, None))
    if data is None:
        response.direct_passthrough = False  # read the file
        data = lean.lean(response.get_data(), response.mimetype)
        STATIC.put((etag, None), data)
    return data


def _set(response: Response, data: bytes) -> None:
    if hasattr(response.response, "close"):  # a static file's wrapper, read or not
        response.response.close()
    response.direct_passthrough = False
    response.set_data(data)


def _vary(response: Response) -> None:
    """`Vary: Accept-Encoding` added (the set of `response.vary` parsed and written again only when
    the view said Vary already)."""
    if "Vary" in response.headers:
        response.vary.add("Accept-Encoding")
    else:
        response.headers["Vary"] = "Accept-Encoding"


def _size(response: Response) -> int:
    """The body's length without reading a file that is passed through (MIN_BYTES when unknown)."""
    if response.content_length is not None:
        return response.content_length
    return MIN_BYTES if response.direct_passthrough else len(response.get_data())


def init_app(app: Flask) -> None:
    app.after_request(compress)
