"""gunicorn's threaded worker, letting go of the port as soon as its master is gone.

A master killed outright (`kill -9`, the OOM killer) leaves its workers behind. gunicorn's gthread
worker notices within a second (its parent changed) and then finishes the requests it holds for up
to `graceful_timeout`, but it keeps the listening socket open until the very end: a restart meanwhile
finds the port taken ("Connection in use" five times in five seconds) and exits, and the club has no
server. `ThreadWorker` closes its listening sockets the moment it sees its master gone, so a plain
restart binds at once; the requests under way still finish (an acknowledged save stays acknowledged),
on connections the new server does not need. A worker still starting (loading the app, warming
WeasyPrint: seconds on a busy machine) does not run gunicorn's loop yet: a watchdog thread closes its
sockets meanwhile, and the worker leaves without serving. `gunicorn.conf.py` names it as `worker_class`.

A worker is also recycled before it grows past `WORKER_MAX_RSS_MB` of resident memory (issue 33):
after a request it reads its size (`resident_bytes`, /proc/self/statm), at most every RSS_EVERY
seconds (three system calls a request, each one a hand-over of the interpreter lock), and past its
limit it stops accepting, finishes the requests it holds (as gunicorn's `max_requests` does) and
leaves; the master starts a fresh one. Each worker takes a limit of its own between 90 % and 100 %
of the setting, so that two workers grown alike are not recycled together.

Each worker also keeps glibc's malloc to `MALLOC_ARENAS` arenas (`limit_malloc_arenas`): by default
glibc gives each of a worker's 32 threads an arena of its own, up to 8 per core, and each keeps the
memory it once held. Under the load run a worker then levelled off at 190-205 MB; with 2 arenas at
160 MB, for the same CPU per request (one interpreter lock: threads seldom allocate at once).
`MALLOC_ARENA_MAX` in the environment, glibc's own setting, wins.
"""

from __future__ import annotations

import os
import random
import resource
import sys
import threading
import time

from gunicorn.workers import gthread

WATCH_EVERY = 0.2  # seconds between two looks at the master while the worker starts
RSS_JITTER = 0.10  # each worker's limit: between 90 % and 100 % of WORKER_MAX_RSS_MB
RSS_EVERY = 0.25  # seconds between two readings of a worker's size (a request's end reads it when due)


MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


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


class ThreadWorker(gthread.ThreadWorker):
    """gthread, whose listening sockets close when its master dies (not after the grace period)."""

    def init_process(self) -> None:
        limit_malloc_arenas()  # before this worker starts any thread
        from ..settings import WORKER_MAX_RSS_MB, worker_max_rss_mb

        try:
            limit = worker_max_rss_mb()
        except ValueError as exc:  # a typo in the environment must not keep the server from starting
            limit = WORKER_MAX_RSS_MB
            self.log.warning("%s ; %d Mo retenus", exc, limit)
        self.max_rss = int(limit * 1024 * 1024 * (1 - random.uniform(0, RSS_JITTER)))  # noqa: S311
        self._rss_due = 0.0  # when a request's end reads the worker's size next (the first one does)
        self._started = threading.Lock()  # held by whoever decides: the loop starts, or the port goes
        self._serving = False
        self._released = False
        self._watching = threading.Event()
        threading.Thread(target=self._watch_while_starting, name="master-watch", daemon=True).start()
        super().init_process()

    def _watch_while_starting(self) -> None:
        while not self._watching.wait(WATCH_EVERY):
            with self._started:
                if self._serving:
                    return
                if os.getppid() != self.ppid:
                    self._close_listeners()
                    return

    def run(self) -> None:
        with self._started:
            self._serving = True
            self._watching.set()
            if self._released or os.getppid() != self.ppid:
                self._close_listeners()
                self.log.info("Master gone while this worker started (pid: %s): leaving", self.pid)
                return
        super().run()

    def handle_request(self, req, conn) -> bool:
        keep = super().handle_request(req, conn)
        if self.max_rss and self.alive and (now := time.monotonic()) >= self._rss_due:
            self._rss_due = now + RSS_EVERY
            size = resident_bytes()
            if size > self.max_rss:
                self.log.info("Worker %s holds %d MB, past its %d MB (WORKER_MAX_RSS_MB): recycled after "
                              "the requests under way", self.pid, size >> 20, self.max_rss >> 20)
                self.alive = False  # gunicorn's own way out (max_requests): no new request, a clean exit
                return False  # and this connection is not kept alive
        return keep

    def is_parent_alive(self) -> bool:
        if super().is_parent_alive():
            return True
        self.release_port()
        return False

    def release_port(self) -> None:
        """Stop accepting and close this worker's copies of the listening sockets (the master's
        died with it): nothing holds the port any more, and what the kernel had queued for this
        worker is refused rather than left waiting."""
        self.set_accept_enabled(False)
        self._close_listeners()

    def _close_listeners(self) -> None:
        self._released = True
        for listener in self.sockets:
            listener.close()
