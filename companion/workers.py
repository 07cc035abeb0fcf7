"""gunicorn's threaded worker, letting go of the port as soon as its master is gone.

A master killed outright (`kill -9`, the OOM killer) leaves its workers behind. gunicorn's gthread
worker notices within a second (its parent changed) and then finishes the requests it holds for up
to `graceful_timeout`, but it keeps the listening socket open until the very end: a restart meanwhile
finds the port taken ("Connection in use" five times in five seconds) and exits, and the club has no
server. `ThreadWorker` closes its listening sockets the moment it sees its master gone, so a plain
restart binds at once; the requests under way still finish (an acknowledged save stays acknowledged),
on connections the new server does not need. `gunicorn.conf.py` names it as `worker_class`.
"""

from __future__ import annotations

from gunicorn.workers import gthread


class ThreadWorker(gthread.ThreadWorker):
    """gthread, whose listening sockets close when its master dies (not after the grace period)."""

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
        for listener in self.sockets:
            listener.close()
