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
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}; BLAS: {blas}"
    )


def warm_memory(mib: int = 1024) -> None:
    """Touch and free ``mib`` MiB once, before any case runs.

    On these virtual machines the host backs guest memory only when a page is first
    touched: the first 200 MB a process writes take 0.4-0.6 s, the same amount reused
    0.02-0.1 s. That cost falls on whichever side happens to allocate first and says
    nothing about either; paying it once up front removes it from both the baseline and ours.
    """
    block = np.empty(mib * 2**20 // 8)
    block.fill(1.0)
    del block


def run_times(fn, repeat: int = 3):
    """Wall times of ``repeat`` calls, in order, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def median_time(fn, repeat: int = 3):
    """Median wall time of ``repeat`` calls and the last result."""
    times, result = run_times(fn, repeat)
    return statistics.median(times), result


def peak_memory(fn):
    """Peak memory allocated during one call (tracemalloc, which counts numpy's buffers), in MiB.

    Run it on a separate, untimed call: tracing slows Python-level allocation.
    """
    tracemalloc.start()
    try:
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20, result


def max_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(name: str, baseline_label: str, t_base: float, t_ours: float, target: float, agree: bool, extra: str = "",
           mem_base: float | None = None, mem_ours: float | None = None) -> bool:
    """Print one case: times, ratio against the target, peak memories (MiB), agreement. Returns ``agree``."""
    ratio = t_base / t_ours
    ok = agree and ratio >= target

    def mem(m):
        return "   n/a" if m is None else f"{m:6.0f}"

    print(
        f"{name:<44} {baseline_label:<38} base {t_base:8.3f} s  ours {t_ours:7.3f} s  "
        f"ratio {ratio:7.1f}x (target >= {target:g}x)  peak MiB base {mem(mem_base)} ours {mem(mem_ours)}  "
        f"agree={agree}  {'MET' if ok else 'NOT MET'} {extra}",
        flush=True,
    )
    return agree
