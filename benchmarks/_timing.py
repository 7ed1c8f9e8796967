"""Shared helpers for the benchmark scripts: medians, a fresh-process timer, one BLAS thread."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

# per-core figures: one BLAS thread (set before numpy is imported anywhere)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")


class Median(float):
    """A median wall time in seconds that also carries the median CPU time of the process
    (``cpu``): on a shared machine the CPU time is the per-core cost, the wall time what a user
    waits."""

    cpu: float


def median_seconds(func: Callable[[], object], repeat: int = 21, warmup: int = 2) -> Median:
    """Median wall (and CPU) time of ``func()`` over ``repeat`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        func()
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        func()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    out = Median(statistics.median(walls))
    out.cpu = statistics.median(cpus)
    return out


def fresh_process_seconds(code: str, repeat: int = 5, env: dict[str, str] | None = None) -> float:
    """Median of the time ``code`` reports (it must print one float, seconds) in fresh
    interpreters."""
    out = []
    for _ in range(repeat):
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, **(env or {})})
        out.append(float(res.stdout.strip().splitlines()[-1]))
    return statistics.median(out)


def ms(seconds: float) -> str:
    """Seconds as milliseconds text (with the CPU time when known)."""
    cpu = getattr(seconds, "cpu", None)
    extra = "" if cpu is None else f" (CPU {cpu * 1e3:.3f} ms)"
    return f"{seconds * 1e3:.3f} ms{extra}"


def rate(items: int, seconds: float) -> str:
    """Items per second, wall (and CPU) time."""
    cpu = getattr(seconds, "cpu", None)
    extra = "" if not cpu else f" (CPU time: {items / cpu:,.0f}/s)"
    return f"{items / seconds:,.0f}/s{extra}"
