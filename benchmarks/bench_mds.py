"""Benchmark case 5: classical MDS of n = 5,000 points, 2 components, from a distance matrix.

helpers.mds.classical_mds (top eigenpairs by Lanczos) against
sklearn.manifold.ClassicalMDS(metric="precomputed"); same embedding to 1e-8 up to sign.
    .venv/bin/python benchmarks/bench_mds.py [--quick]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.manifold import ClassicalMDS

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _common import machine, median_time, peak_memory, report, warm_memory  # noqa: E402

from helpers.mds import classical_mds  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    print(machine())
    warm_memory()  # first-touch cost of fresh VM memory, paid once for both sides
    n = 1000 if args.quick else 5000
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 10)) * np.linspace(3, 0.5, 10)  # distinct top eigenvalues
    D = cdist(X, X)

    def base():
        return ClassicalMDS(n_components=2, metric="precomputed").fit_transform(D)

    def ours():
        return classical_mds(D, n_components=2, full_spectrum=False)

    t_base, E_base = median_time(base, repeat=1)
    t_ours, res = median_time(ours, repeat=3)
    m_base, _ = peak_memory(base)
    m_ours, _ = peak_memory(ours)
    E = res.embedding
    signs = np.sign(np.sum(E * E_base, axis=0))  # align column signs
    diff = float(np.max(np.abs(E * signs - E_base)))
    ok = report(f"5. classical MDS n={n}, 2 components", "ClassicalMDS(metric='precomputed')", t_base, t_ours, 3,
                diff <= 1e-8 * max(1.0, float(np.abs(E_base).max())), f"max |diff| {diff:.1e}", m_base, m_ours)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
