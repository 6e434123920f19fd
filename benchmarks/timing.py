"""What the benchmark scripts share: timing a call and summarising samples in milliseconds."""
from __future__ import annotations

import statistics
import time
from typing import Callable, Sequence


def median_p95(samples_ms: Sequence[float]) -> tuple[float, float]:
    xs = sorted(samples_ms)
    return statistics.median(xs), xs[int(0.95 * (len(xs) - 1))]


def time_ms(fn: Callable[[], object], n: int) -> tuple[float, float]:
    """Median and 95th percentile of ``n`` calls of ``fn``, in ms."""
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return median_p95(out)
