"""The cyclic garbage collector held off while a heavy page builds what it reads (issue 33).

A statistics page of 5,000 games makes some 100,000 short-lived containers (each game's summary,
its players, their points). Each 700 of them start a collection, and every tenth of those and
every full one walks the request's growing pile again: at 5,000 games a quarter of the page's CPU
went to collections that found nothing (none of it forms a cycle; reference counting frees it all
when the page is done), and that share grew faster than the number of games (2,000 games: 16 ms of
100; 5,000: 65 ms of 250). `paused()` keeps the collector off for the time of such a request,
and turns it back on when the last request that held it off is done (requests on other threads
may hold it too). What other threads throw away meanwhile waits for the next collection.

A server's worker also takes its full collections on a clock (`full_collections_every`, called by
gunicorn.conf.py) rather than when the oldest generation has grown by a quarter: the saves keep
replacing what the worker keeps (each game's texts, its players' parts, its record), so that count was
reached every 3-5 s at 200 tables of four phones, and each full collection then walked everything
kept (100-160 ms on this machine) with every save of that worker waiting behind it.

Flask-free.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
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


# A threshold the oldest generation's count (one per collection of the middle one) never reaches.
OUT_OF_REACH = 10**9


def full_collections_every(seconds: float, *, sleep: Callable[[float], object] = time.sleep,
                           collect: Callable[[], object] = gc.collect) -> threading.Thread:
    """No full collection by count from now on: one every `seconds` instead, in a daemon thread (a
    greenlet under gevent's patching), skipped while a request holds the collector off (`paused`).
    The young generations are collected as before; a cycle that outlived them is freed at the next
    full collection, `seconds` later at most."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, OUT_OF_REACH)

    def clock() -> None:
        while True:
            sleep(seconds)
            if gc.isenabled():
                collect()

    thread = threading.Thread(target=clock, name="full-collections", daemon=True)
    thread.start()
    return thread
