"""A worker's full garbage collections on a clock (companion.base.gcpause.full_collections_every,
called by gunicorn.conf.py): none by count any more, one every so many seconds, none while a request
holds the collector off."""

from __future__ import annotations

import gc
import threading

import pytest

from companion.base import gcpause


@pytest.fixture(autouse=True)
def thresholds():
    kept = gc.get_threshold()
    yield
    gc.set_threshold(*kept)


def full_collections_while_keeping() -> int:
    """How many full collections the collector started by itself while new containers were made and
    kept (as a worker's caches keep what the saves make): half as many as it already holds, more than
    the quarter that starts one by count."""
    seen = []
    objects = len(gc.get_objects(generation=2)) // 2 + 100_000

    def count(phase, info):
        if phase == "start" and info["generation"] == 2:
            seen.append(1)

    gc.collect()
    gc.callbacks.append(count)
    try:
        kept = [[i] for i in range(objects)]
    finally:
        gc.callbacks.remove(count)
    del kept
    return len(seen)


class Clock:
    """A stand-in for `time.sleep`: counts the waits, lets `ticks` of them pass, then blocks."""

    def __init__(self, ticks: int):
        self.waits: list[float] = []
        self.ticks = ticks
        self.done = threading.Event()
        self._never = threading.Event()

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        if len(self.waits) > self.ticks:
            self.done.set()
            self._never.wait()


def test_no_full_collection_by_count_once_on_the_clock():
    assert full_collections_while_keeping() > 0  # the default: a quarter more kept starts one
    young, middle, _ = gc.get_threshold()
    clock = Clock(0)
    gcpause.full_collections_every(60, sleep=clock.sleep, collect=lambda: None)
    assert gc.get_threshold() == (young, middle, gcpause.OUT_OF_REACH)  # the young ones as before
    assert full_collections_while_keeping() == 0


def test_a_full_collection_every_so_many_seconds():
    clock, collected = Clock(3), []
    thread = gcpause.full_collections_every(60, sleep=clock.sleep, collect=lambda: collected.append(1))
    assert clock.done.wait(30)
    assert thread.daemon  # never keeps a stopping worker alive
    assert clock.waits == [60, 60, 60, 60]
    assert len(collected) == 3


def test_none_while_a_request_holds_the_collector_off():
    clock, collected = Clock(2), []
    with gcpause.paused():
        gcpause.full_collections_every(60, sleep=clock.sleep, collect=lambda: collected.append(1))
        assert clock.done.wait(30)
    assert collected == []
