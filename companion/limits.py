"""Request bodies sent without a Content-Length (chunked) meet the same size limit as the others.

Werkzeug enforces `MAX_CONTENT_LENGTH` on a chunked body only by stopping at the limit: the body is
silently cut there (a document just past it reads as broken JSON, a 400), and under the limit it
relies on the server having set `wsgi.input_terminated` (gunicorn and Werkzeug's server do).
`ChunkedBody` reads such a body before Flask sees it, up to one byte past the limit: a body that
fits is handed on with its length like any other, a longer one is replaced by nothing and flagged,
and `refuse_too_large` (the app's first before_request hook) answers 413 in the app's look.
"""

from __future__ import annotations

import io

from flask import Flask, abort, request

TOO_LARGE = "companion.body_too_large"
TOO_SLOW = "companion.body_too_slow"
READ_SIZE = 64 * 1024


class ChunkedBody:
    """WSGI middleware: buffer a chunked body of at most `limit` bytes, flag a longer one."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    def __call__(self, environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH") and environ.get("wsgi.input_terminated"):
            stream = environ["wsgi.input"]
            parts, size = [], 0
            try:
                while size <= self.limit:
                    part = stream.read(min(READ_SIZE, self.limit + 1 - size))
                    if not part:
                        break
                    parts.append(part)
                    size += len(part)
            except OSError:  # the server's read deadline passed (gunicorn.conf.py), or the client left
                environ[TOO_SLOW] = True
            body = b"".join(parts)
            if size > self.limit or environ.get(TOO_SLOW):
                environ[TOO_LARGE] = size > self.limit
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)


def refuse_too_large() -> None:
    if request.environ.get(TOO_SLOW):
        abort(408)
    if request.environ.get(TOO_LARGE):
        abort(413)


def init_app(app: Flask) -> None:
    """Call before any extension that reads the body (CSRF reads forms in its own hook)."""
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if limit is None:
        return
    app.wsgi_app = ChunkedBody(app.wsgi_app, limit)
    app.before_request(refuse_too_large)
