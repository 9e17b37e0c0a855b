"""Case 8: the own study's computation. Wall time of the full study, speed-up with workers, notebook 08.

* the full study: read from the stored scores' record of the present edition
  (``data/results/generalisation_v<edition>/scores.json``, the seconds of the run that made them)
  against the target of 20 minutes on two cores (edition 4; editions 2 and 3 had 30);
* speed-up: the same folds on 1 and on 2 workers (scores must be identical), against a
  near-linear target (>= 1.6x on 2 cores);
* notebook 08 from the stored scores (papermill), against a target of 60 s.

Run: ``python benchmarks/bench_generalisation.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.studies.generalisation import load_protocol  # noqa: E402
from helpers.studies.generalisation.datasets import study_datasets  # noqa: E402
from helpers.studies.generalisation.scores import (  # noqa: E402
    SCORES_PATH,  # noqa: E402
    differences,
    run_scores,
)


def speed_up(names, folds):
    protocol = load_protocol()
    datasets, _ = study_datasets(protocol, names=names)
    cells = [(n, 0, f) for n in datasets for f in range(folds)]
    times, tables = {}, {}
    for jobs in (1, 2):
        start = time.perf_counter()
        tables[jobs] = run_scores(datasets, protocol, cells=cells, n_jobs=jobs, progress=False)
        times[jobs] = time.perf_counter() - start
    same = differences(tables[1], tables[2]).empty
    return times, same, len(cells)


def notebook_seconds():
    import papermill as pm

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        pm.execute_notebook(str(ROOT / "notebooks" / "08_generalisation.ipynb"), str(Path(tmp) / "08.ipynb"),
                            kernel_name="python3", progress_bar=False, cwd=str(ROOT / "notebooks"))
        return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer folds, no notebook")
    args = parser.parse_args(argv)
    record = json.loads(SCORES_PATH.with_name("scores.json").read_text())
    full = record.get("seconds")
    print(f"full study (stored run): {full / 60:.1f} min on {record.get('cpus')} cores "
          f"for {record['rows']:,} scores; target <= 20 min: {'met' if full <= 1200 else 'NOT MET'}")
    times, same, n = speed_up(["bdims", "olive"], 2 if args.quick else 6)
    ratio = times[1] / times[2]
    print(f"{n} folds: 1 worker {times[1]:.1f} s, 2 workers {times[2]:.1f} s, speed-up {ratio:.2f}x "
          f"(target >= 1.6x: {'met' if ratio >= 1.6 else 'NOT MET'}); scores identical: {same}")
    if not args.quick:
        seconds = notebook_seconds()
        verdict = 'met' if seconds <= 60 else 'NOT MET'
        print(f"notebook 08 from stored scores: {seconds:.1f} s (target <= 60 s: {verdict})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
