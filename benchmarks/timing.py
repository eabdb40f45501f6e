"""What the benchmarks share for timing in-process work."""

from __future__ import annotations

import time
from collections.abc import Callable


def best(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time (s) of ``repeat`` calls: the least disturbed run of a
    busy machine."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)
