"""Request bodies are read whole before any work starts, and only a few requests work at a time.

`RequestGate` (WSGI middleware, outermost) does two things:

- It reads the body first: a chunked one up to one byte past `MAX_CONTENT_LENGTH`, one with a
  Content-Length whole up to BUFFERED_MAX (a view may allow more than the documents' limit: an
  upload). Werkzeug enforces the limit on a chunked body only by stopping there (a document just
  past it read as broken JSON, a 400; under gunicorn a valid 300 KB one too): here a longer one is
  replaced by nothing and flagged, and `refuse` (the app's first before_request hook) answers 413
  in the app's look; a body that stops arriving (gunicorn.conf.py sets a read deadline) gets 408.
  A phone trickling its body on a bad connection thus holds a waiting thread only.
- A view that takes a larger body (the restore's file) says so with `@upload(...)`: `refuse` raises
  the request's limit to `UPLOAD_MAX_BYTES` before any other hook reads the form (CSRFProtect reads
  it in its own hook, under the app-wide limit: a restore over 384 KiB got a generic 413), and
  answers the view's own refusal when the body is larger still.
- Then at most `ACTIVE_REQUESTS` (2) requests per process run the app at once; the others wait their
  turn. Python runs one thread at a time: with the 32 threads of a gthread worker all working, each
  one (and the SQLite write lock it may hold) waited for all the others, and saves took seconds.
"""

from __future__ import annotations

import io
import tempfile
import threading
import time

from flask import Flask, abort, current_app, request

TOO_LARGE = "companion.body_too_large"
TOO_SLOW = "companion.body_too_slow"
SERVICE_US = "companion.service_us"
READ_SIZE = 64 * 1024
BUFFERED_MAX = 16 * 1024 * 1024  # the largest body read ahead by default (the app passes UPLOAD_MAX_BYTES)
SPOOL_IN_MEMORY = 1024 * 1024  # past this, a body being read ahead waits in a temporary file


class RequestGate:
    """WSGI middleware: buffer the body (at most `limit` bytes), then wait for one of `active` slots."""

    def __init__(self, app, limit: int | None, active: int, buffered: int = BUFFERED_MAX):
        self.app = app
        self.limit = limit
        # A view may allow more than `limit` (an upload): such bodies, up to `buffered` bytes, are
        # read first too, into memory then a temporary file; past that the app answers 413 itself.
        self.buffered = max(buffered, limit or 0)
        self.slots = threading.BoundedSemaphore(active) if active > 0 else None

    def __call__(self, environ, start_response):
        if self.limit is not None:
            self.buffer(environ)
        if self.slots is None:
            return self.app(environ, start_response)
        with self.slots:
            start = time.perf_counter()
            try:
                return self.app(environ, start_response)
            finally:
                # The time spent working, without the wait for a slot (bench/load.py logs it).
                environ[SERVICE_US] = str(int((time.perf_counter() - start) * 1e6))

    def buffer(self, environ) -> None:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return  # Werkzeug answers 400
        if chunked and not length and not environ.get("wsgi.input_terminated"):
            return  # a server that does not decode chunked bodies: Werkzeug reads nothing
        if not chunked and not 0 < length <= self.buffered:
            return  # no body, or one too large for any view: Werkzeug refuses it from its length (413)
        wanted = length if length and not chunked else self.limit + 1
        stream = environ["wsgi.input"]
        body = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - handed on
        size = 0
        try:
            while size < wanted:
                part = stream.read(min(READ_SIZE, wanted - size))
                if not part:
                    break
                body.write(part)
                size += len(part)
        except OSError:  # the read deadline passed (gunicorn.conf.py), or the client left
            environ[TOO_SLOW] = True
        if (chunked and size > self.limit) or environ.get(TOO_SLOW):
            environ[TOO_LARGE] = not environ.get(TOO_SLOW)
            body = io.BytesIO()
            size = 0
        body.seek(0)
        environ["wsgi.input"] = body
        environ["CONTENT_LENGTH"] = str(size)
        environ.pop("HTTP_TRANSFER_ENCODING", None)


def upload(too_large):
    """Mark a view as taking bodies up to `UPLOAD_MAX_BYTES` (not the app's MAX_CONTENT_LENGTH);
    `too_large()` is its answer to a body larger still (a page that says the limit)."""

    def mark(view):
        view.too_large = too_large
        return view

    return mark


def refuse():
    if request.environ.get(TOO_SLOW):
        abort(408)
    if request.environ.get(TOO_LARGE):
        abort(413)
    too_large = getattr(current_app.view_functions.get(request.endpoint), "too_large", None)
    if too_large is not None:
        request.max_content_length = current_app.config["UPLOAD_MAX_BYTES"]
        if (request.content_length or 0) > request.max_content_length:
            return too_large()
    return None


def init_app(app: Flask) -> None:
    """Call before any extension that reads the body (CSRF reads forms in its own hook)."""
    app.wsgi_app = RequestGate(app.wsgi_app, app.config.get("MAX_CONTENT_LENGTH"),
                               int(app.config.get("ACTIVE_REQUESTS") or 0),
                               int(app.config.get("UPLOAD_MAX_BYTES") or BUFFERED_MAX))
    app.before_request(refuse)
