"""Timing and memory helpers shared by the benchmark scripts."""

from __future__ import annotations

import os
import platform
import resource
import statistics
import time
import tracemalloc

import numpy as np
from threadpoolctl import threadpool_info


def machine() -> str:
    blas = ", ".join(f"{i['internal_api']} {i.get('version')} ({i['num_threads']} threads)" for i in threadpool_info())
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}; BLAS: {blas}"


def median_time(fn, repeat: int = 3):
    """Median wall time of ``repeat`` calls and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def peak_memory(fn):
    """Peak Python-allocated memory (tracemalloc, numpy included) of one call, in MiB."""
    tracemalloc.start()
    try:
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20, result


def max_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(name: str, baseline_label: str, t_base: float, t_ours: float, target: float, agree: bool, extra: str = "") -> bool:
    ratio = t_base / t_ours
    ok = agree and ratio >= target
    print(
        f"{name:<44} {baseline_label:<38} base {t_base:8.3f} s  ours {t_ours:7.3f} s  "
        f"ratio {ratio:7.1f}x (target >= {target:g}x)  agree={agree}  {'MET' if ok else 'NOT MET'} {extra}"
    )
    return agree
