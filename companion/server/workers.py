"""gunicorn's gevent worker: one thread a process, so a save never waits for the interpreter lock.

Why an event loop (issue 33): a gthread worker's 32 threads share one interpreter lock, and a save
handed it over 9-10 times (each socket read and write, each SQLite statement, another thread's
request parsed or logged), then waited for a core each time it was woken: at 300 tables of four
phones a save held its process's working slot 4.4 ms for 2.6 ms of its own CPU, and the queue for
the slot was the p95 (over a second). Here each connection is a greenlet of the worker's one thread:
nothing runs beside a save but the save, a slow phone costs a greenlet, not a thread, and a request
whose headers do not arrive within `keepalive` seconds is dropped. Long CPU work that would stop the
loop runs in a thread of its own (`companion.base.offload`: a PDF's layout, a photo's resizing), and
heavy pages pause every few games (`companion.web.limits.pause`).

A master killed outright (`kill -9`, the OOM killer) leaves its workers behind. gunicorn's gevent
worker then exits at its next look (a second), dropping the requests it holds; gthread kept the
listening socket until the end of the grace period, so a restart found the port taken. `LoopWorker`
closes its listening sockets the moment it sees its master gone, so a plain restart binds at once,
and the requests under way still finish (an acknowledged save stays acknowledged) on connections the
new server does not need. A worker still starting (loading the app, warming WeasyPrint: seconds on a
busy machine) runs no loop yet: a watchdog thread looks at its master meanwhile, and a worker whose
master died leaves without serving. `gunicorn.conf.py` names it as `worker_class`.

A worker is also recycled before it grows past `WORKER_MAX_RSS_MB` of resident memory: after a
request it reads its size (`resident_bytes`, /proc/self/statm), at most every RSS_EVERY seconds, and
past its limit it stops accepting, finishes the requests it holds (as gunicorn's `max_requests` does)
and leaves; the master starts a fresh one. Each worker takes a limit of its own between 90 % and 100 %
of the setting, so that two workers grown alike are not recycled together.

Each worker also keeps glibc's malloc to `MALLOC_ARENAS` arenas (`limit_malloc_arenas`): glibc gives
each thread (the offloaded work's pool here, gthread's 32 threads before) an arena of its own, up to
8 per core, and each keeps the memory it once held. `MALLOC_ARENA_MAX` in the environment wins.
"""

from __future__ import annotations

import os
import random
import resource
import sys
import time
from functools import partial

import gevent
from gevent import monkey
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn.workers import base
from gunicorn.workers.ggevent import GeventWorker

from . import responses

WATCH_EVERY = 0.2  # seconds between two looks at the master while the worker starts
RSS_JITTER = 0.10  # each worker's limit: between 90 % and 100 % of WORKER_MAX_RSS_MB
RSS_EVERY = 0.25  # seconds between two readings of a worker's size (a request's end reads it when due)
LOOK_EVERY = 1.0  # seconds between two looks at the master once serving (gunicorn's heartbeat)

MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)

# The watchdog is a real thread with a real lock and sleep whatever gevent has patched by then.
_start_thread = monkey.get_original("_thread", "start_new_thread")
_real_lock = monkey.get_original("_thread", "allocate_lock")
_real_sleep = monkey.get_original("time", "sleep")


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """At most `arenas` malloc arenas for this process's threads from now on (glibc only; called in a
    worker before it starts its threads); False when not done (another libc, or MALLOC_ARENA_MAX set)."""
    if os.environ.get("MALLOC_ARENA_MAX") or not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):  # musl and others: no mallopt, or not this one
        return False


def resident_bytes() -> int:
    """This process's resident memory now (Linux); elsewhere its peak so far (`ru_maxrss`)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


class LoopWorker(GeventWorker):
    """gunicorn's gevent worker, whose listening sockets close when its master dies (its requests
    under way still finish), recycled past its resident size."""

    def init_process(self) -> None:
        limit_malloc_arenas()  # before this worker starts any thread
        responses.install()  # a response's head goes with its body's first bytes, in one send
        from ..settings import WORKER_MAX_RSS_MB, worker_max_rss_mb

        try:
            limit = worker_max_rss_mb()
        except ValueError as exc:  # a typo in the environment must not keep the server from starting
            limit = WORKER_MAX_RSS_MB
            self.log.warning("%s ; %d Mo retenus", exc, limit)
        self.max_rss = int(limit * 1024 * 1024 * (1 - random.uniform(0, RSS_JITTER)))  # noqa: S311
        self._rss_due = 0.0  # when a request's end reads the worker's size next (the first one does)
        self._started = _real_lock()  # held by whoever decides: the loop starts, or the port goes
        self._serving = False
        self._released = False
        self.servers: list = []
        _start_thread(self._watch_while_starting, ())
        super().init_process()  # patches, loads the app, warms it (post_worker_init), then runs

    def _watch_while_starting(self) -> None:
        while True:
            _real_sleep(WATCH_EVERY)
            with self._started:
                if self._serving:
                    return
                if os.getppid() != self.ppid:
                    self._let_go_of_listeners()
                    return

    def _let_go_of_listeners(self) -> None:
        """From the watchdog, while the worker starts: each listening descriptor is made /dev/null
        in one step (`dup2`), so the port is let go of while the socket objects stay valid (the
        loop, not yet running, owns them; closing them from this thread is not safe)."""
        null = os.open(os.devnull, os.O_RDWR)
        try:
            for listener in self.sockets:
                os.dup2(null, listener.fileno())
        finally:
            os.close(null)
        self._released = True

    def patch(self) -> None:
        with self._started:  # the listening sockets are swapped for gevent's: not while the watchdog acts
            super().patch()

    def run(self) -> None:
        with self._started:
            self._serving = True
            if self._released or os.getppid() != self.ppid:
                self.log.info("Master gone while this worker started (pid: %s): leaving", self.pid)
                return
        for listener in self.sockets:
            listener.setblocking(1)
            server = StreamServer(listener, handle=partial(self.handle, listener),
                                  spawn=Pool(self.worker_connections))
            if self.cfg.workers > 1:
                server.max_accept = 1  # one connection per wake-up: the workers share the room's phones
            server.start()
            self.servers.append(server)
        while self.alive:
            self.notify()
            gevent.sleep(LOOK_EVERY)
        self.release_port()
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while any(server.pool.free_count() != server.pool.size for server in self.servers):
            if time.monotonic() > deadline:
                self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
                for server in self.servers:  # closed already (release_port): their handlers end now
                    server.pool.kill(block=True, timeout=1)
                return
            self.notify()
            gevent.sleep(0.1)

    def notify(self) -> None:
        """gunicorn's heartbeat; a worker whose master is gone stops taking connections now and
        finishes those it holds (gunicorn's own would exit at once, dropping them)."""
        base.Worker.notify(self)
        if self.alive and os.getppid() != self.ppid:
            self.log.info("Parent changed, shutting down: %s", self)
            self.alive = False
            self.release_port()

    def handle_request(self, listener_name, req, sock, addr):
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:  # a response that closes its connection ends in StopIteration: looked at all the same
            if self.max_rss and self.alive and (now := time.monotonic()) >= self._rss_due:
                self._rss_due = now + RSS_EVERY
                self._recycle_when_grown()

    def _recycle_when_grown(self) -> None:
        size = resident_bytes()
        if size > self.max_rss:
            self.log.info("Worker %s holds %d MB, past its %d MB (WORKER_MAX_RSS_MB): recycled after "
                          "the requests under way", self.pid, size >> 20, self.max_rss >> 20)
            # gunicorn's own way out (max_requests): no new connection, each one held answers its
            # next request with "Connection: close", and the loop leaves once they are done
            self.alive = False

    def release_port(self) -> None:
        """Stop accepting and close this worker's copies of the listening sockets (the master's
        died with it): nothing holds the port any more, and what the kernel had queued for this
        worker is refused rather than left waiting."""
        for server in self.servers:
            server.close()
        for listener in self.sockets:
            listener.close()
