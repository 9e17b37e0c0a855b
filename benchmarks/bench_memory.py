"""Benchmark case 9: peak memory of the paths that meet large n, before and after bounding them.

knn_cv_accuracy_by_k (KFold(2), Euclidean, p = 5), TunedKNN (three inner folds, p = 5) and
GramPCA (2 components, p = 5) at n = 2,000, 20,000 and 60,000 rows. "After" is the code as it
is, with scikit-learn's ``working_memory`` set to 64 MiB; "before" is the same call computing
each fold's whole test x train distance matrix at once (``working_memory`` large enough for one
block: the code path as it was) and, for GramPCA, the n x n Gram route. A "before" that would
not fit is given as its matrix's size instead of being run. Peak = tracemalloc (numpy's
buffers) on one call, in MiB; data = the n x p float64 input.

Targets: the kNN paths' peak <= working_memory + 20 x data (the fold copies, transformed rows
and kNN indices are O(n p)), and flat in n apart from that data term; GramPCA's peak <= 1 MiB
+ 10 x data (no n x n matrix).

    .venv/bin/python benchmarks/bench_memory.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial

import numpy as np
from sklearn import config_context
from sklearn.model_selection import KFold
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _common import machine, peak_memory, warm_memory  # noqa: E402

from helpers._io import progress_bar  # noqa: E402
from helpers.estimators import TunedKNN  # noqa: E402
from helpers.gram import GramPCA  # noqa: E402
from helpers.neighbours import knn_cv_accuracy_by_k  # noqa: E402

WORKING_MEMORY = 64  # MiB, for "after"
ONE_BLOCK = 2**20  # MiB: the whole fold matrix in one block, the code path before
FIT_IN = 8 * 2**30  # bytes: a "before" larger than this is not run


def data(n, p=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    return X, (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)


def knn_cv(X, y):
    return knn_cv_accuracy_by_k(X, y, [1, 5, 15], KFold(2), metric="euclidean")


def tuned(X, y):
    return TunedKNN(StandardScaler(), ks=(1, 5, 15)).fit(X, y).best_k_


def pca(X):
    return GramPCA(2).fit(X).explained_variance_


def gram_route(X):
    """The n x n Gram route GramPCA took for every shape before (its eigendecomposition only)."""
    with progress_bar(total=3, progress=False) as bar:
        return GramPCA(2)._gram_eigh(X, X.mean(axis=0), bar)[0][:2]


def measure(fn, wm):
    with config_context(working_memory=wm):
        start = time.perf_counter()
        mib, result = peak_memory(fn)
        return mib, time.perf_counter() - start, result


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    print(machine())
    warm_memory()
    sizes = (1000, 5000) if args.quick else (2000, 20000, 60000)
    ok = True
    print(f"working_memory = {WORKING_MEMORY} MiB after; peaks in MiB (tracemalloc)")
    print(f"{'case':<26} {'n':>7} {'data':>6} {'before':>22} {'after':>8} {'after - data term':>18} "
          f"{'target':>8} {'s':>6}  result")
    for name, fn, whole_bytes, data_factor in (
        ("knn_cv_accuracy_by_k", knn_cv, lambda n: 8 * (n // 2) ** 2, 20),
        ("TunedKNN", tuned, lambda n: 8 * (n // 3) * (2 * n // 3), 20),
        ("GramPCA", None, lambda n: 8 * n * n, 10),
    ):
        for n in sizes:
            X, y = data(n)
            data_mib = X.nbytes / 2**20
            if name == "GramPCA":
                after_fn, before_fn = partial(pca, X), partial(gram_route, X)
                target = 1 + data_factor * data_mib  # + the p x p matrix and bookkeeping
            else:
                after_fn = before_fn = partial(fn, X, y)
                target = WORKING_MEMORY + data_factor * data_mib
            after, secs, result = measure(after_fn, WORKING_MEMORY)
            extra = after - data_factor * data_mib
            if whole_bytes(n) * 3 <= FIT_IN:  # the matrix and the sort's temporaries
                before, _, before_result = measure(before_fn, ONE_BLOCK)
                before_text = f"{before:10.0f}"
                if name != "GramPCA" and before_result != result:
                    print(f"  DISAGREE: {name} at n={n}: {before_result} before, {result} after")
                    ok = False
            else:
                before_text = f"not run ({whole_bytes(n) / 2**30:.1f} GiB matrix)"
            met = after <= target
            print(f"{name:<26} {n:>7,} {data_mib:>6.1f} {before_text:>22} {after:>8.0f} {extra:>18.0f} "
                  f"{target:>8.0f} {secs:>6.1f}  {'MET' if met else 'NOT MET'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
