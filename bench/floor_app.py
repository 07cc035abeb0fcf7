"""The app as gunicorn serves it, plus one trivial route (`/_floor`): the floor of bench/load.py,
served by the same workers, hooks and server in the same run. Only the load benchmarks use it.

Each request also logs how long its thread waited for a core (`QUEUED`, Linux's
/proc/thread-self/schedstat: time runnable but not running), so that a save's time in its working
slot splits into its CPU, its waits for a core and the rest (locks, the disk)."""

from __future__ import annotations

QUEUED = "bench.run_queue_us"
SCHEDSTAT = "/proc/thread-self/schedstat"


def _queued_ns() -> int | None:
    try:
        with open(SCHEDSTAT, "rb") as stat:
            return int(stat.read().split()[1])
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
