"""The app as gunicorn serves it, plus one trivial route (`/_floor`): the floor of bench/load.py,
served by the same workers, hooks and server in the same run. Only the load benchmarks use it.

Each request also logs how long its thread waited for a core (`QUEUED`, Linux's
/proc/thread-self/schedstat: time runnable but not running), so that a save's time in its working
slot splits into its CPU, its waits for a core and the rest (locks, the disk)."""

from __future__ import annotations

import os
import threading

QUEUED = "bench.run_queue_us"
SCHEDSTAT = "/proc/thread-self/schedstat"


# each OS thread's own schedstat, opened once (an open and a close a request were 1.7 % of a worker's
# time under load: the instrument weighed on what it measured); keyed by the OS thread, not by
# `threading.local`, which gevent makes one per greenlet (a connection)
_kept: dict[int, int] = {}


def _queued_ns() -> int | None:
    try:
        thread = threading.get_native_id()
        fd = _kept.get(thread)
        if fd is None:
            fd = _kept[thread] = os.open(SCHEDSTAT, os.O_RDONLY)
        return int(os.pread(fd, 256, 0).split()[1])
    except (OSError, ValueError, IndexError):  # not Linux, or no scheduler statistics
        return None


def app():
    from companion import create_app
    from companion.web.limits import GATE

    application = create_app()
    application.add_url_rule("/_floor", "floor", lambda: "ok")
    gate = application.extensions[GATE]  # the working slots (companion/web/limits.py)
    inner = gate.app

    def measured(environ, start_response):  # within the slot, as the gate's service time
        before = _queued_ns()
        try:
            return inner(environ, start_response)
        finally:
            after = _queued_ns()
            if before is not None and after is not None:
                environ[QUEUED] = str((after - before) // 1000)

    gate.app = measured
    return application
