"""Benchmark case 7: wall time and peak memory of the workbook's two commands.

Runs ``make run`` (every notebook under papermill, full Reuters corpus, HTML report) and
``make test`` (unit tests, doctests, nbval over every notebook) from the repository root
and prints, for each, the wall time against its target (10 and 15 minutes on 2 cores),
the peak resident memory of the largest process it started (a notebook kernel, usually),
and the per-notebook times ``make run`` reports. Not part of ``make bench`` (it takes
longer than that target's 10 minutes on its own); run it with ``make bench-workbook``:

    .venv/bin/python benchmarks/workbook_timing.py [--only run|test]

The venv must exist (``make setup``); data must be in ``data/raw/`` (``.ci/run`` copies it).
Exits non-zero when a command fails.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"run": 10 * 60, "test": 15 * 60}


def run(target: str) -> tuple[int, float, float, bool, str]:
    """Run ``make <target>``: exit code, seconds, peak RSS of the largest child so far (MiB),
    whether this command raised that peak, and the output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(["make", target], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux, max over all children so far
    return proc.returncode, seconds, peak / 1024, peak > before, proc.stdout + proc.stderr


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=sorted(TARGETS), help="time one command only")
    args = parser.parse_args(argv)
    print(machine(), flush=True)
    failed = False
    for target in [args.only] if args.only else ["run", "test"]:
        code, seconds, peak, new_peak, output = run(target)
        ok = code == 0 and seconds <= TARGETS[target]
        peak_text = f"{peak:7.0f} MiB" if new_peak else f"<= {peak:.0f} MiB (no larger than the previous command's)"
        print(f"7. make {target:<5} wall {seconds / 60:6.2f} min (target <= {TARGETS[target] // 60} min)  "
              f"peak RSS of the largest process {peak_text}  exit {code}  {'MET' if ok else 'NOT MET'}", flush=True)
        if target == "run":  # scripts/run_notebooks.py prints "<notebook>  <seconds> s  <status>"
            for name, secs in re.findall(r"^(\d\d_\S+\.ipynb)\s+([\d.]+) s", output, flags=re.M):
                print(f"   {name:<45} {float(secs):7.1f} s")
        if target == "test":
            summary = [line for line in output.splitlines() if re.search(r"\d+ passed", line)]
            print(f"   {summary[-1].strip('= ') if summary else 'no pytest summary found'}")
        if code != 0:
            failed = True
            print(output[-3000:], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
