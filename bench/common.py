"""Shared timing helpers: every benchmark reports a ratio against a floor measured
in the same process and run, so that figures compare across machines."""

from __future__ import annotations

import json
import time
from collections.abc import Callable


def per_second(fn: Callable[[], object], seconds: float = 1.0, min_runs: int = 5) -> float:
    """Calls per second of `fn`, measured for about `seconds` after one warm-up call."""
    fn()
    runs = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or runs < min_runs:
        fn()
        runs += 1
        elapsed = time.perf_counter() - start
    return runs / elapsed


def interleaved(fn: Callable[[], object], floor: Callable[[], object], seconds: float = 1.0,
                rounds: int = 10) -> tuple[float, float, float, float]:
    """Calls per second of `fn` and of `floor`, in wall time then in this process's CPU time, each
    measured in `rounds` short slices taken in turn with the other's: a machine busy for a moment
    slows both alike, not the one that happened to be running (issue 21)."""
    fn()
    floor()
    runs, wall, cpu = [0, 0], [0.0, 0.0], [0.0, 0.0]
    for _ in range(rounds):
        for k, call in enumerate((fn, floor)):
            n, start, start_cpu = 0, time.perf_counter(), time.process_time()
            while time.perf_counter() - start < seconds / rounds or n < 1:
                call()
                n += 1
            wall[k] += time.perf_counter() - start
            cpu[k] += time.process_time() - start_cpu
            runs[k] += n
    return (runs[0] / wall[0], runs[1] / wall[1], runs[0] / max(cpu[0], 1e-9), runs[1] / max(cpu[1], 1e-9))


def report_both(name: str, rates: tuple[float, float, float, float], floor_name: str) -> dict:
    """`report` for an interleaved measure (`interleaved`): the ratio in wall time, and in CPU time."""
    rate, floor, cpu_rate, cpu_floor = rates
    ratio, cpu_ratio = floor / rate, cpu_floor / cpu_rate
    print(f"{name}: {rate:,.0f}/s ; {floor_name}: {floor:,.0f}/s ; ratio (floor / measured): "
          f"{ratio:,.1f} ; en temps CPU : {cpu_ratio:,.1f}")
    return {"name": name, "per_second": rate, "floor": floor_name, "floor_per_second": floor,
            "ratio": ratio, "cpu_ratio": cpu_ratio}


def json_floor(text: str, seconds: float = 1.0) -> float:
    """`json.loads` of the same document: the floor for scoring benchmarks."""
    return per_second(lambda: json.loads(text), seconds)


def report(name: str, rate: float, floor_name: str, floor: float) -> dict:
    ratio = floor / rate if rate else float("inf")
    print(f"{name}: {rate:,.0f}/s ; {floor_name}: {floor:,.0f}/s ; "
          f"ratio (floor / measured): {ratio:,.1f}")
    return {"name": name, "per_second": rate, "floor": floor_name,
            "floor_per_second": floor, "ratio": ratio}


def held_now(held: dict, answer: dict) -> dict:
    """What the server holds after a save, as static/js/play/autosave.js takes it: every value
    (`stored`), or what changed since the phone's version (`changed`) laid over what it held."""
    if "changed" not in answer:
        return answer["stored"]
    out = dict(held)
    for name, value in answer["changed"].items():
        if value:
            out[name] = value
        else:
            out.pop(name, None)
    return out
