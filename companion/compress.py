"""Gzip for text responses: the edit page of a 4-player game is ~80 KB of HTML and a table's
phone is often on a bad signal. A reverse proxy may compress too; then this stays out of its way."""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

TYPES = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
         "image/svg+xml", "text/plain"}
MIN_BYTES = 1024


def compress(response: Response) -> Response:
    streamed = response.is_streamed and not response.direct_passthrough  # a generator: leave it
    if (response.status_code != 200 or response.mimetype not in TYPES or streamed
            or "Content-Encoding" in response.headers
            or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    etag, weak = response.get_etag()
    if etag and _size(response) >= MIN_BYTES:
        # The compressed body is another representation: its validator differs, and a phone that
        # holds it revalidates with that one, so it is that one that must answer 304.
        response.set_etag(f"{etag}-gz", weak=weak)
        response.make_conditional(request)
        if response.status_code == 304:
            response.vary.add("Accept-Encoding")
            return response
    response.direct_passthrough = False  # static files: read the file to compress it
    data = response.get_data()
    if len(data) < MIN_BYTES:
        if etag:
            response.set_etag(etag, weak=weak)
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def _size(response: Response) -> int:
    """The body's length without reading a file that is passed through (0 when unknown)."""
    if response.content_length is not None:
        return response.content_length
    return MIN_BYTES if response.direct_passthrough else len(response.get_data())


def init_app(app: Flask) -> None:
    app.after_request(compress)
