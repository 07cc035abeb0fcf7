"""companion.base.offload.in_thread: a plain call outside gevent's loop; in a process that serves
from the loop, the work runs in another thread, with the caller's context variables, its result or
exception handed back, while the loop goes on (a subprocess: monkey-patching is for the whole process)."""

from __future__ import annotations

import subprocess
import sys
import threading

from companion.base import offload
from companion.games import i18n

IN_THE_LOOP = r'''
from gevent import monkey
monkey.patch_all()
import threading, time
import gevent
from companion.base import offload
from companion.games import i18n

assert offload.event_loop()
sleep = monkey.get_original("time", "sleep")
ticks = []

def ticking():
    while True:
        ticks.append(1)
        gevent.sleep(0.01)

def work(n):
    # a long layout, holding its thread and not the loop: it ends once the loop has ticked meanwhile
    deadline = time.monotonic() + 60
    while len(ticks) < 5 and time.monotonic() < deadline:
        sleep(0.01)
    return n * 2, i18n.current(), threading.get_ident() != main

main = threading.get_ident()
gevent.spawn(ticking)
with i18n.using("en"):
    doubled, language, elsewhere = offload.in_thread(work, 21)
assert (doubled, language, elsewhere) == (42, "en", True), (doubled, language, elsewhere)
assert len(ticks) >= 5, ticks  # the loop went on while the work ran (blocked, it never ticks)
try:
    offload.in_thread(lambda: 1 / 0)
except ZeroDivisionError:
    print("ok")
'''


def test_outside_the_loop_the_work_is_a_plain_call():
    assert not offload.event_loop()
    with i18n.using("en"):
        assert offload.in_thread(lambda x: (x, i18n.current(), threading.get_ident()), 3) == \
            (3, "en", threading.get_ident())


def test_in_the_loop_the_work_runs_beside_it():
    done = subprocess.run([sys.executable, "-c", IN_THE_LOOP], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok"]
