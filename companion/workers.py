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
"""

from __future__ import annotations

import os
import threading

from gunicorn.workers import gthread

WATCH_EVERY = 0.2  # seconds between two looks at the master while the worker starts


class ThreadWorker(gthread.ThreadWorker):
    """gthread, whose listening sockets close when its master dies (not after the grace period)."""

    def init_process(self) -> None:
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
