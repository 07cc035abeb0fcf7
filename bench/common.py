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


def json_floor(text: str, seconds: float = 1.0) -> float:
    """`json.loads` of the same document: the floor for scoring benchmarks."""
    return per_second(lambda: json.loads(text), seconds)


def report(name: str, rate: float, floor_name: str, floor: float) -> dict:
    ratio = floor / rate if rate else float("inf")
    print(f"{name}: {rate:,.0f}/s ; {floor_name}: {floor:,.0f}/s ; "
          f"ratio (floor / measured): {ratio:,.1f}")
    return {"name": name, "per_second": rate, "floor": floor_name,
            "floor_per_second": floor, "ratio": ratio}
