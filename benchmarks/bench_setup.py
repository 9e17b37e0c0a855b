"""Benchmark case 10: how long ``make setup`` takes on a fresh clone, with uv and with pip.

Each run clones the repository (its committed ``HEAD``) into a temporary folder and times
``make setup`` there: a new ``.venv`` synced to ``requirements/lock.txt``, the workbook
installed in editable mode, the Jupyter kernel registered. Each installer gets a private,
empty package cache (``PIP_CACHE_DIR``, ``UV_CACHE_DIR``), so its first run downloads every
wheel (a first clone) and the next ones reuse that cache (a second clone on the same
machine). After each run the clone's environment is compared with the lock
(``tests/lockfile.py``). The machine's load average (1 minute) is printed before and after
each run: on a shared machine, installs are slower when other processes compete for the cores,
pip's (pure Python, one download at a time) more than uv's. Not part of ``make bench``;
run it with ``make bench-setup``:

    .venv/bin/python benchmarks/bench_setup.py [--installers uv pip] [--runs 2] [--before REV]

``--before REV`` also times ``make setup`` of an older commit (say, the one before the lock),
with its own empty cache. Exits non-zero when a setup fails or ends in another environment
than the lock.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHECK = "from tests.{} import lock_differences as d; print(len(d()))"  # tests/lockfile.py, or test_lock.py before it


def clone(rev: str, where: Path) -> Path:
    path = where / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(path)], check=True)
    subprocess.run(["git", "checkout", "--quiet", rev], cwd=path, check=True)
    return path


def setup_once(rev: str, installer: str | None, cache: Path) -> tuple[int, float, str]:
    """Exit code, wall seconds and lock comparison of ``make setup`` on a fresh clone of ``rev``."""
    env = {**os.environ, "PIP_CACHE_DIR": str(cache / "pip"), "UV_CACHE_DIR": str(cache / "uv")}
    env.pop("VIRTUAL_ENV", None)
    with tempfile.TemporaryDirectory(prefix="covsim-setup-") as tmp:
        path = clone(rev, Path(tmp))
        args = ["make", "setup"] + ([f"INSTALLER={installer}"] if installer else [])
        start = time.perf_counter()
        proc = subprocess.run(args, cwd=path, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        if proc.returncode:
            return proc.returncode, seconds, (proc.stdout + proc.stderr)[-2000:]
        reader = next((m for m in ("lockfile", "test_lock") if (path / "tests" / f"{m}.py").exists()), None)
        if reader is None:
            return 0, seconds, "no lock at this commit"
        check = subprocess.run([str(path / ".venv" / "bin" / "python"), "-c", CHECK.format(reader)], cwd=path, env=env,
                               capture_output=True, text=True)
        if check.returncode:
            return check.returncode, seconds, check.stderr[-2000:]
        n = int(check.stdout.strip())
        return (0 if n == 0 else 1), seconds, "equals the lock" if n == 0 else f"{n} packages differ from the lock"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--installers", nargs="+", choices=["uv", "pip"], default=["uv", "pip"])
    parser.add_argument("--runs", type=int, default=2, help="runs per installer; the first with an empty cache")
    parser.add_argument("--before", metavar="REV", help="also time make setup at this older commit")
    args = parser.parse_args(argv)

    print(machine(), flush=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    cases = [(head.strip(), installer) for installer in args.installers]
    if args.before:
        cases.append((args.before, None))
    failed = False
    for rev, installer in cases:
        label = f"{rev} make setup" + (f" INSTALLER={installer}" if installer else "")
        with tempfile.TemporaryDirectory(prefix="covsim-cache-") as cache:
            for run in range(args.runs):
                load_before = os.getloadavg()[0]
                code, seconds, note = setup_once(rev, installer, Path(cache))
                state = "empty cache" if run == 0 else "warm cache "
                print(f"{label:<42} run {run + 1} ({state}) {seconds:7.1f} s  exit {code}  {note}  "
                      f"(load {load_before:.1f} -> {os.getloadavg()[0]:.1f})", flush=True)
                failed |= code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
