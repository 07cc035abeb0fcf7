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
- Then at most `ACTIVE_REQUESTS` (1) requests per process run the app at once; the others wait their
  turn. Python runs one thread at a time: with the 32 threads of a gthread worker all working, each
  one (and the SQLite write lock it may hold) waited for all the others, and saves took seconds;
  with two, each save took longer and held the write turn longer than one after the other did.
  (gunicorn.conf.py now serves from one event loop a process, where a request in the app runs alone
  anyway; the slots still order the development server's threads and keep the heavy share apart.)
- Heavy routes (views marked `@heavy`: exports, statistics, a restore, a photo's upload, a PDF sheet) have a
  share of their own, `HEAVY_REQUESTS` (1) per process, and never take one of the others: eight
  exports of 5,000 games at once wait their turn among themselves while the tables' autosaves and
  pages keep their slots.
  A streamed response (a generator: the exports) holds its slot until its body is written or
  closed, since it works while it is sent; any other is done when the view returns. Heavy work
  also pauses every few games while other requests are working in the process (`pause`): one
  interpreter runs one thread at a time, and a share of the slots alone left an autosave beside
  an export waiting seconds for it.
"""

from __future__ import annotations

import io
import tempfile
import threading
import time
from collections import deque
from contextlib import contextmanager

from flask import Flask, abort, current_app, has_app_context, has_request_context, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule

TOO_LARGE = "companion.body_too_large"
TOO_SLOW = "companion.body_too_slow"
SERVICE_US = "companion.service_us"
SERVICE_CPU_US = "companion.service_cpu_us"  # the same, in the working thread's CPU time
GATE = "companion.gate"
PAUSE_EVERY = 25  # games between two pauses of heavy work (a few milliseconds of work)
YIELD_STEP = 0.002  # seconds: how often a pausing heavy request looks again
YIELD_MOST = 0.25  # seconds a heavy request waits at most per pause: it still moves on under load
STREAMED = "companion.streamed"
SLOT = "companion.slot"  # the working slots a request took, and whether they are the heavy share
READ_SIZE = 64 * 1024
BUFFERED_MAX = 16 * 1024 * 1024  # the largest body read ahead by default (the app passes UPLOAD_MAX_BYTES)
SPOOL_IN_MEMORY = 1024 * 1024  # past this, a body being read ahead waits in a temporary file


def heavy(view):
    """Mark a view as heavy (its work grows with a device's games): it runs in the heavy share of
    the working slots (`HEAVY_REQUESTS`), never in the one the tables' pages and saves use."""
    view.heavy = True
    return view


class Slots:
    """`n` working slots, handed out in the order they were asked for: a slot given back goes to the
    request that has waited longest, never to one that just arrived (a semaphore lets a newcomer take
    it between the release and the waiter's waking: under gunicorn's event loop, the exports asking
    again at once kept the heavy share from the others for up to 16 s, and a save's wait for the
    tables' slot grew the same way)."""

    def __init__(self, n: int):
        self.free = n
        self._lock = threading.Lock()
        self._waiting: deque = deque()

    def acquire(self) -> None:
        with self._lock:
            if self.free and not self._waiting:
                self.free -= 1
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append(turn)
        turn.acquire()  # released by `release`, which hands over its slot

    def release(self) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self.free += 1

    def __enter__(self) -> Slots:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


class RequestGate:
    """WSGI middleware: buffer the body (at most `limit` bytes), then wait for one of `active` slots
    (`heavy` slots for the paths `heavy_paths()` names)."""

    def __init__(self, app, limit: int | None, active: int, buffered: int = BUFFERED_MAX,
                 heavy: int = 0, heavy_paths=frozenset):
        self.app = app
        self.limit = limit
        # A view may allow more than `limit` (an upload): such bodies, up to `buffered` bytes, are
        # read first too, into memory then a temporary file; past that the app answers 413 itself.
        self.buffered = max(buffered, limit or 0)
        self.slots = Slots(active) if active > 0 else None
        self.heavy_slots = Slots(heavy) if heavy > 0 else self.slots
        self.heavy_paths = heavy_paths
        self._heavy: frozenset | HeavyPaths | None = None
        self.light = 0  # requests other than heavy ones working now (`yield_to_light`)
        self._count = threading.Lock()

    def __call__(self, environ, start_response):
        if self.limit is not None:
            self.buffer(environ)
        if self._heavy is None:  # read once the app's routes are all registered
            found = self.heavy_paths()
            self._heavy = found if isinstance(found, HeavyPaths) else frozenset(found)
        path = environ.get("PATH_INFO")
        is_heavy = ((path, environ.get("REQUEST_METHOD", "GET")) in self._heavy
                    if isinstance(self._heavy, HeavyPaths) else path in self._heavy)
        slots = self.heavy_slots if is_heavy else self.slots
        if slots is None:
            return self.app(environ, start_response)
        slots.acquire()
        environ[SLOT] = (slots, is_heavy)  # `idle` may give it back before the request ends
        start, cpu = time.perf_counter(), time.thread_time()
        if not is_heavy:
            with self._count:
                self.light += 1

        def done():
            if environ.get(SLOT) is None:  # given back already (`idle`)
                return
            environ[SLOT] = None
            if not is_heavy:
                with self._count:
                    self.light -= 1
            slots.release()
            # The time spent working, without the wait for a slot (bench/load.py logs it).
            environ[SERVICE_US] = str(int((time.perf_counter() - start) * 1e6))
            # ... and its thread's CPU time: what a busy machine's waits do not inflate
            environ[SERVICE_CPU_US] = str(int((time.thread_time() - cpu) * 1e6))

        try:
            body = self.app(environ, start_response)
        except BaseException:
            done()
            raise
        if not environ.get(STREAMED):  # written at once: the work is done
            done()
            return body
        return Held(body, done)

    def yield_to_light(self, most: float = YIELD_MOST) -> None:
        """A heavy request's pause between two steps: while other requests are working in this
        process, wait (up to `most` seconds) so that they have the interpreter to themselves."""
        waited = 0.0
        while self.light and waited < most:
            time.sleep(YIELD_STEP)
            waited += YIELD_STEP
        if not waited:
            time.sleep(0)  # let a thread waiting for the interpreter have it now

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
        # in memory when it surely fits there (an autosave's few hundred bytes), else spooled
        body = io.BytesIO() if wanted <= SPOOL_IN_MEMORY \
            else tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - handed on
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


def upload(too_large, limit: str = "UPLOAD_MAX_BYTES"):
    """Mark a view as taking bodies up to the setting `limit` (`UPLOAD_MAX_BYTES`; the photo of the
    final board: `PHOTO_MAX_BYTES`), not the app's MAX_CONTENT_LENGTH; `too_large()` is its answer
    to a body larger still (a page that says the limit)."""

    def mark(view):
        view.too_large = too_large
        view.upload_limit = limit
        return view

    return mark


class Held:
    """A response body whose slot is released once it is written to its end, or closed (a client
    gone), whichever comes first: a streamed body works while the server iterates it."""

    def __init__(self, body, done):
        self.body = body
        self.parts = iter(body)
        self._done = done

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self.parts)
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        done, self._done = self._done, None
        if done is not None:
            done()

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.release()


def pause() -> None:
    """Called by heavy work every few games (`PAUSE_EVERY`): Python runs one thread at a time, and
    a table's autosave sharing the interpreter with an export took seconds; it now waits while the
    process's other requests work (`RequestGate.yield_to_light`), then goes on."""
    gate = current_app.extensions.get(GATE) if has_app_context() else None
    if gate is not None:
        gate.yield_to_light()
    else:
        time.sleep(0)


@contextmanager
def idle():
    """A request waiting for work done elsewhere (a restore in the background) gives its working
    slot back for good: the waited-for work may need that very slot (the restore takes the heavy
    share), and the answer after the wait is a short page that needs none. Taking it again would
    wait behind the whole restore now that a slot goes to the request that waited longest."""
    taken = request.environ.get(SLOT) if has_request_context() else None
    gate = current_app.extensions.get(GATE)
    if taken is not None and gate is not None:
        slots, is_heavy = taken
        request.environ[SLOT] = None  # the gate's `done` gives back nothing more
        if not is_heavy:
            with gate._count:
                gate.light -= 1
        slots.release()
    yield


@contextmanager
def heavy_slot(app):
    """Heavy work outside a request (a restore's thread) takes one of the heavy share's slots, as
    an export does, for as long as it works."""
    gate = app.extensions.get(GATE)
    slots = gate.heavy_slots if gate is not None else None
    if slots is None:
        yield
        return
    with slots:
        yield


def streamed(response):
    """A view's response whose body is made while it is sent (a generator over the games): its slot
    is kept until the body is written. Said by the view itself: a body that merely looks streamed (an
    error answered by an HTTPException run as a WSGI app) is written at once and must free its slot."""
    request.environ[STREAMED] = True
    return response


def refuse():
    if request.environ.get(TOO_SLOW):
        abort(408)
    if request.environ.get(TOO_LARGE):
        abort(413)
    view = current_app.view_functions.get(request.endpoint)
    too_large = getattr(view, "too_large", None)
    if too_large is not None:
        request.max_content_length = current_app.config[view.upload_limit]
        if (request.content_length or 0) > request.max_content_length:
            return too_large()
    return None


def heavy_paths(app: Flask) -> set[str]:
    """The paths of the views marked `@heavy` (rules without variables: the gate matches exact paths)."""
    return {rule.rule for rule in app.url_map.iter_rules()
            if not rule.arguments and getattr(app.view_functions.get(rule.endpoint), "heavy", False)}


class HeavyPaths:
    """The gate's test of a request (path, method) against the views marked `@heavy`: their paths
    without variables exactly (a set), and those with variables (a game's photo upload,
    /g/<token>/photo) through a URL map of their rules alone, asked only for a path ending as one of
    them does: any other request costs a set lookup and one `endswith`."""

    def __init__(self, app: Flask):
        self.exact = frozenset(heavy_paths(app))
        rules = [rule for rule in app.url_map.iter_rules()
                 if rule.arguments and getattr(app.view_functions.get(rule.endpoint), "heavy", False)]
        self.tails = tuple({rule.rule.rsplit(">", 1)[-1] for rule in rules})
        # the app's own converters (a game link's `token`), so each rule matches as the app's does
        self.adapter = (Map([Rule(rule.rule, endpoint=rule.endpoint, methods=rule.methods) for rule in rules],
                            converters=app.url_map.converters).bind("heavy.invalid") if rules else None)

    def __contains__(self, request_line: tuple[str, str]) -> bool:
        path, method = request_line
        if path in self.exact:
            return True
        if self.adapter is None or not self.tails or not path.endswith(self.tails):
            return False
        try:
            self.adapter.match(path, method=method)
        except HTTPException:  # no such rule, another method, a redirect
            return False
        return True


def init_app(app: Flask) -> None:
    """Call before any extension that reads the body (CSRF reads forms in its own hook)."""
    gate = RequestGate(app.wsgi_app, app.config.get("MAX_CONTENT_LENGTH"),
                       int(app.config.get("ACTIVE_REQUESTS") or 0),
                       max(int(app.config.get("UPLOAD_MAX_BYTES") or BUFFERED_MAX),
                           int(app.config.get("PHOTO_MAX_BYTES") or 0)),
                       heavy=int(app.config.get("HEAVY_REQUESTS") or 0), heavy_paths=lambda: HeavyPaths(app))
    app.wsgi_app = app.extensions[GATE] = gate
    app.before_request(refuse)
