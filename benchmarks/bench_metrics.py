"""Benchmark cases 1-4 and 6: helpers.metrics and whitening + kNN against scipy / scikit-learn.

Run with `make bench` (BLAS pinned to one thread by the Makefile) or directly:
    .venv/bin/python benchmarks/bench_metrics.py [--quick]
Exits non-zero when an agreement check fails (a slower-than-target ratio is reported, not fatal).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction

import numpy as np
from scipy.spatial import distance
from sklearn import config_context
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _common import machine, median_time, peak_memory, report, run_times, warm_memory  # noqa: E402

from helpers import Whitener  # noqa: E402
from helpers.binary import binary_gram, binary_similarity  # noqa: E402
from helpers.metrics import mahalanobis, variance_adjusted_cosine  # noqa: E402
from helpers.neighbours import nearest_neighbors  # noqa: E402
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
    sub = slice(0, n_test // 10)  # the baseline's memory on a tenth of the queries (a second 30 s run otherwise)
    m_base, _ = peak_memory(lambda: base.fit(Xtr, ytr).predict(Xte[sub]))
    m_ours, _ = peak_memory(lambda: ours.fit(Xtr, ytr).predict(Xte))
    return report(f"1. Mahalanobis kNN {n_train}x{n_test}, d={d}, k=5", "sklearn brute metric='mahalanobis'",
                  t_base, t_ours, 50, bool(np.array_equal(p_base, p_ours)),
                  f"(baseline memory on {n_test // 10} queries)", m_base, m_ours)


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
    m_call, _ = peak_memory(lambda: distance.cdist(X[:20], Y, callable_metric))
    m_pre, _ = peak_memory(lambda: distance.cdist(X @ W.T, Y @ W.T, "cosine"))
    m_ours, _ = peak_memory(lambda: variance_adjusted_cosine(X, Y, W))
    ok = report(f"2. variance-adjusted cosine {n}x{m}, d={d}", "cdist(Python callable)", t_call, t_ours, 100, agree,
                "(callable timed on 500 rows, memory on 20)", m_call, m_ours)
    report("", "cdist('cosine') on pre-whitened data", t_pre, t_ours, 1, agree, "", m_pre, m_ours)
    return ok


def bench_mahalanobis(rng, quick):
    n, m, d = (1000, 400, 30) if quick else (5000, 2000, 30)
    X, Y = correlated(rng, n, d), correlated(rng, m, d)
    VI = np.linalg.inv(estimate_covariance(np.vstack([X, Y])))
    t_base, D_base = median_time(lambda: distance.cdist(X, Y, "mahalanobis", VI=VI), repeat=1)
    t_ours, D = median_time(lambda: mahalanobis(X, Y, VI), repeat=3)
    rel = float(np.max(np.abs(D - D_base) / np.maximum(D_base, 1e-300)))
    m_base, _ = peak_memory(lambda: distance.cdist(X, Y, "mahalanobis", VI=VI))
    m_ours, _ = peak_memory(lambda: mahalanobis(X, Y, VI))
    return report(f"3. Mahalanobis matrix {n}x{m}, d={d}", "cdist('mahalanobis', VI=VI)", t_base, t_ours, 15,
                  rel <= 1e-8, f"max rel diff {rel:.1e}", m_base, m_ours)


def bench_binary(rng, quick):
    n, d = (1000, 784) if quick else (5000, 784)
    B = rng.random((n, d)) < rng.uniform(0.05, 0.4, size=(n, 1))

    def base():
        return distance.pdist(B, "hamming"), distance.pdist(B, "jaccard")

    def ours():  # the user-facing call: both full similarity matrices from one product
        both = binary_similarity(B, coefficient=("simple_matching", "jaccard"))
        return both["simple_matching"], both["jaccard"]

    t_base, (ham, jac) = median_time(base, repeat=1)
    times, (smc, jac_sim) = run_times(ours, repeat=5)  # all five printed: the first calls pay fresh memory
    t_ours, reps = statistics.median(times), "/".join(f"{t:.2f}" for t in times)
    iu = np.triu_indices(n, 1)
    # exact comparison as rationals: compare integer counts, not floats. Ours: co-presences a and row
    # totals r (binary_gram, exact) give mismatches b + c = r_i + r_j - 2a and union a + b + c = r_i + r_j - a.
    # scipy's hamming * d and jaccard * union must be those same integers.
    a, r, _, _ = binary_gram(B)
    a = np.rint(a[iu]).astype(np.int64)
    ri, rj = r[iu[0]].astype(np.int64), r[iu[1]].astype(np.int64)
    mismatches, union = ri + rj - 2 * a, ri + rj - a
    scipy_mismatches = ham * d
    agree = bool(np.all(np.abs(scipy_mismatches - np.rint(scipy_mismatches)) < 1e-9))
    agree &= bool(np.array_equal(np.rint(scipy_mismatches).astype(np.int64), mismatches))
    scipy_numerators = jac * union
    agree &= bool(np.all(np.abs(scipy_numerators - np.rint(scipy_numerators)) < 1e-9))
    agree &= bool(np.array_equal(np.rint(scipy_numerators).astype(np.int64), mismatches))  # jaccard = (b + c) / union
    k = int(np.argmax(union))
    agree &= Fraction(int(mismatches[k]), int(union[k])) == Fraction(jac[k]).limit_denominator(d)
    # and the similarity matrices users get equal 1 - scipy to rounding
    agree &= bool(
        np.allclose(1 - smc[iu], ham, atol=1e-15, rtol=0) and np.allclose(1 - jac_sim[iu], jac, atol=1e-15, rtol=0)
    )
    m_base, _ = peak_memory(base)
    m_ours, _ = peak_memory(ours)
    return report(f"4. binary SMC + Jaccard {n}x{d}", "pdist('hamming') + pdist('jaccard')", t_base, t_ours, 15, agree,
                  f"(counts equal as integers; our 5 runs {reps} s)", m_base, m_ours)


def bench_memory(rng, quick):
    n, d, k = (10000, 30, 5) if quick else (50000, 30, 5)  # all n x n pairs, never held at once
    X = correlated(rng, n, d)
    VI = np.linalg.inv(estimate_covariance(X))
    peaks = {}
    for wm in (64, 256):  # the chunk size follows scikit-learn's working_memory (MiB)
        with config_context(working_memory=wm):
            start = time.perf_counter()
            peaks[wm], (dist, idx) = peak_memory(lambda: nearest_neighbors(X, X, k=k, metric="mahalanobis", VI=VI))
            seconds = time.perf_counter() - start
        print(f"6. {n} x {n} Mahalanobis top-{k}, working_memory={wm} MiB: peak {peaks[wm]:.0f} MiB "
              f"(target < 1024), {seconds:.1f} s (tracemalloc on)", flush=True)
    # agreement: every query's nearest row is itself, and 200 random queries match scipy's brute force
    agree = bool(np.array_equal(idx[:, 0], np.arange(n)) and np.all(dist[:, 0] == 0.0))
    check = rng.choice(n, size=200, replace=False)
    D = distance.cdist(X[check], X, "mahalanobis", VI=VI)
    ref_idx = np.argsort(D, axis=1, kind="stable")[:, :k]
    agree &= bool(np.array_equal(np.sort(idx[check], axis=1), np.sort(ref_idx, axis=1)))
    agree &= bool(np.allclose(dist[check], np.take_along_axis(D, ref_idx, axis=1), rtol=1e-8, atol=0))
    met = peaks[256] < 1024 and peaks[64] < peaks[256]
    print(f"   chunks follow working_memory: peak {peaks[64]:.0f} MiB at 64 < {peaks[256]:.0f} MiB at 256; "
          f"agree={agree} (self is nearest for all {n}; top-{k} of 200 queries equal scipy's cdist)  "
          f"{'MET' if met and agree else 'NOT MET'}", flush=True)
    return agree


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke test")
    args = parser.parse_args(argv)
    print(machine())
    warm_memory()  # first-touch cost of fresh VM memory, paid once for both sides
    rng = np.random.default_rng(0)
    results = [bench_knn(rng, args.quick), bench_vacos(rng, args.quick), bench_mahalanobis(rng, args.quick),
               bench_binary(rng, args.quick), bench_memory(rng, args.quick)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
