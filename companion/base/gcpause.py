"""The cyclic garbage collector held off while a heavy page builds what it reads (issue 33).

A statistics page of 5,000 games makes some 100,000 short-lived containers (each game's summary,
its players, their points). Each 700 of them start a collection, and every tenth of those and
every full one walks the request's growing pile again: at 5,000 games a quarter of the page's CPU
went to collections that found nothing (none of it forms a cycle; reference counting frees it all
when the page is done), and that share grew faster than the number of games (2,000 games: 16 ms of
100; 5,000: 65 ms of 250). `paused()` keeps the collector off for the time of such a request,
and turns it back on when the last request that held it off is done (requests on other threads
may hold it too). What other threads throw away meanwhile waits for the next collection.

Flask-free.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_on = False


@contextmanager
def paused() -> Iterator[None]:
    global _holders, _was_on  # noqa: PLW0603 - one process-wide collector, one count of its holders
    with _lock:
        if _holders == 0:
            _was_on = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_on:
                gc.enable()
