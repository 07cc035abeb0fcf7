"""Shared timing helpers: every benchmark reports a ratio against a floor measured
in the same process and run, so that figures compare across machines."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

MIN_ROUNDS = 3  # a ratio is never one sample: its median and spread over at least this many


class Rates(tuple):
    """`interleaved`'s answer: (rate, floor rate, CPU rate, floor CPU rate) over all rounds, plus
    `rounds`, each round's (wall ratio, CPU ratio): floor's time per call ÷ the candidate's, as
    `report_both` divides them."""

    rounds: list[tuple[float, float]]

    def __new__(cls, values, rounds):
        self = super().__new__(cls, values)
        self.rounds = rounds
        return self


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
                rounds: int = 10) -> Rates:
    """Calls per second of `fn` and of `floor`, in wall time then in this process's CPU time, each
    measured in `rounds` short slices taken in turn with the other's: a machine busy for a moment
    slows both alike, not the one that happened to be running (issue 21). Each round's ratios are
    kept (`Rates.rounds`): `report_both` gives their median and spread."""
    if rounds < MIN_ROUNDS:
        raise ValueError(f"at least {MIN_ROUNDS} rounds: one slice is not a measure")
    fn()
    floor()
    runs, wall, cpu = [0, 0], [0.0, 0.0], [0.0, 0.0]
    each = []
    for _ in range(rounds):
        this = []
        for k, call in enumerate((fn, floor)):
            n, start, start_cpu = 0, time.perf_counter(), time.process_time()
            while time.perf_counter() - start < seconds / rounds or n < 1:
                call()
                n += 1
            spent, spent_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            wall[k] += spent
            cpu[k] += spent_cpu
            runs[k] += n
            this.append((spent / n, max(spent_cpu, 1e-9) / n))
        each.append((this[0][0] / this[1][0], this[0][1] / this[1][1]))
    return Rates((runs[0] / wall[0], runs[1] / wall[1], runs[0] / max(cpu[0], 1e-9),
                  runs[1] / max(cpu[1], 1e-9)), each)


def spread(values: list[float]) -> str:
    """'median (min-max)' of ratios."""
    return f"{statistics.median(values):,.1f} ({min(values):,.1f}-{max(values):,.1f})"


def report_both(name: str, rates: tuple[float, float, float, float], floor_name: str) -> dict:
    """`report` for an interleaved measure (`interleaved`): the ratio in wall time, and in CPU time,
    each the median of the rounds' ratios with their spread (min-max); the overall rates beside."""
    rate, floor, cpu_rate, cpu_floor = rates
    ratio, cpu_ratio = floor / rate, cpu_floor / cpu_rate
    rounds = getattr(rates, "rounds", None)
    if rounds:
        walls, cpus = [w for w, _ in rounds], [c for _, c in rounds]
        ratio, cpu_ratio = statistics.median(walls), statistics.median(cpus)
        print(f"{name}: {rate:,.0f}/s ; {floor_name}: {floor:,.0f}/s ; ratio, médiane de {len(rounds)} "
              f"tranches (min-max) : au mur {spread(walls)} ; en temps CPU {spread(cpus)}")
    else:
        print(f"{name}: {rate:,.0f}/s ; {floor_name}: {floor:,.0f}/s ; ratio (floor / measured): "
              f"{ratio:,.1f} ; en temps CPU : {cpu_ratio:,.1f}")
    return {"name": name, "per_second": rate, "floor": floor_name, "floor_per_second": floor,
            "ratio": ratio, "cpu_ratio": cpu_ratio, "rounds": rounds}


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
