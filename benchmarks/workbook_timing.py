"""Benchmark case 7: wall time and peak memory of the workbook's commands on a fresh clone.

Clones the repository (its committed ``HEAD``) into a temporary folder, copies the data sets
from ``data/raw/`` beside them (as ``.ci/run`` does from ``../shared/data``), runs ``make setup``
there (a new ``.venv``: timed, no target) and then, in that order,

- ``make unit``  the fast tier: unit tests and doctests          target <= 60 s
- ``make test``  everything, each notebook executed once (nbval) target <= 4 min (idle, 2 cores)
- ``make run``   the own study's folds sampled, then every notebook into build/, two at a time,
                 and the book                                     target <= 10 min, setup included

and prints, for each, the wall time against its target on 2 cores, the peak resident memory of
the largest process it started (a notebook kernel, usually), the exit code, and the pytest
summary or the per-notebook times ``make run`` prints. Nothing is cached between the commands
but what a user's clone would keep (the parsed Reuters corpus in ``data/processed/``, written
by the first command that needs it). Not part of ``make bench``; run it with
``make bench-workbook``:

    .venv/bin/python benchmarks/workbook_timing.py [--only unit test run] [--here] [--keep]

``--here`` times the working tree instead (uncommitted changes included, its ``build/`` and
caches as they are); ``--keep`` leaves the clone in place and prints its path. Exits non-zero
when a command fails.
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"unit": 60, "test": 4 * 60, "run": 10 * 60}  # seconds on 2 cores


def make(target: str, where: Path) -> tuple[int, float, float, bool, str]:
    """Run ``make <target>`` in ``where``: exit code, seconds, peak RSS of the largest child so
    far (MiB), whether this command raised that peak, and the output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(["make", target], cwd=where, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux, max over all children so far
    return proc.returncode, seconds, peak / 1024, peak > before, proc.stdout + proc.stderr


def fresh_clone(parent: Path) -> Path:
    """A clone of ROOT's HEAD in ``parent``, with ROOT's data/raw/ copied beside its sources."""
    clone = parent / ROOT.name
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    raw = ROOT / "data" / "raw"
    if raw.is_dir():
        copy = shutil.copytree(raw, clone / "data" / "raw")
        for path in [copy, *copy.rglob("*")]:  # the originals may be read-only; the clone is removed after
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    return clone


def summary(target: str, output: str) -> list[str]:
    """The lines worth repeating from a command's output."""
    if target == "run":  # `python -m helpers.workbook run` prints "<notebook>  <seconds> s  <status>"
        return [f"{name:<45} {float(secs):7.1f} s  {status}"
                for name, secs, status in re.findall(r"^(\d\d_\S+\.ipynb)\s+([\d.]+) s  (.*)$", output, flags=re.M)]
    found = [line.strip("= ") for line in output.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    return [found[-1] if found else "no pytest summary found"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(TARGETS), help="time these commands only")
    parser.add_argument("--here", action="store_true", help="time the working tree, not a fresh clone")
    parser.add_argument("--keep", action="store_true", help="keep the clone")
    args = parser.parse_args(argv)
    print(machine(), flush=True)
    tmp = None if args.here else Path(tempfile.mkdtemp(prefix="covsim-bench-"))
    failed = False
    try:
        where = ROOT if args.here else fresh_clone(tmp)
        print(f"in {where}" + ("" if args.here else f" (fresh clone of {ROOT} at HEAD)"), flush=True)
        if not args.here:
            code, seconds, _, _, output = make("setup", where)
            print(f"7. make setup wall {seconds / 60:6.2f} min (a new .venv; no target)  exit {code}", flush=True)
            if code != 0:
                print(output[-3000:], file=sys.stderr)
                return 1
        for target in args.only or list(TARGETS):
            code, seconds, peak, new_peak, output = make(target, where)
            ok = code == 0 and seconds <= TARGETS[target]
            peak_text = f"{peak:7.0f} MiB" if new_peak else f"<= {peak:.0f} MiB (no larger than before)"
            limit = f"{TARGETS[target]} s" if TARGETS[target] < 120 else f"{TARGETS[target] // 60} min"
            print(f"7. make {target:<5} wall {seconds / 60:6.2f} min ({seconds:5.0f} s; target <= {limit})  "
                  f"peak RSS of the largest process {peak_text}  exit {code}  {'MET' if ok else 'NOT MET'}", flush=True)
            for line in summary(target, output):
                print(f"   {line}", flush=True)
            if code != 0:
                failed = True
                print(output[-3000:], file=sys.stderr)
    finally:
        if tmp is not None:
            if args.keep:
                print(f"clone kept in {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
