"""Made-up tables of the study's schema, with known advantages, for the doctests and tests of the evidence layer."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

METHOD_NAMES = ("euclidean", "standardised_euclidean", "cosine", "scaled_cosine", "mahalanobis_class_blind",
                "mahalanobis_pooled_within", "mahalanobis_per_category", "expected_cholesky_cosine",
                "expected_zca_cosine", "pooled_within_cosine", "nca", "linear_svc", "rbf_svc",
                "expected_cholesky_svc", "expected_zca_svc")


def example_datasets(n_sets: int = 12, random_state: int = 0) -> pd.DataFrame:
    """A made-up table of data sets (the schema of the study's), two of them the sources' own."""
    rng = np.random.default_rng(random_state)
    names = [f"set{i:02d}" for i in range(n_sets)]
    names[:2] = ["breast_cancer", "biopsy"]
    majority = rng.uniform(0.3, 0.6, n_sets)
    return pd.DataFrame({"dataset": names, "n_rows": rng.integers(100, 1000, n_sets),
                         "n_features": rng.integers(4, 60, n_sets), "n_classes": rng.integers(2, 6, n_sets),
                         "majority": majority, "wide": rng.random(n_sets) < 0.3, "own_data": [True, True]
                         + [False] * (n_sets - 2), "log10_condition_total": rng.uniform(1, 5, n_sets),
                         "log10_condition_within": rng.uniform(1, 5, n_sets),
                         "log10_condition_classes": rng.uniform(1, 6, n_sets)})


def example_scores(n_sets: int = 12, repeats: int = 2, folds: int = 10, random_state: int = 0) -> pd.DataFrame:
    """A made-up per-fold score table with known advantages over the per-data-set level.

    ``expected_cholesky_cosine`` gains 0.03 over ``cosine`` (0.02 for the ZCA reading),
    ``expected_cholesky_svc`` 0.02 over both kernels, ``mahalanobis_per_category`` gains in
    proportion to the data set's ``log10_condition_within`` less 3 (0 on average), the other
    methods differ by noise. Each fold adds noise of sd 0.02; the last data set sits at the
    ceiling, the one before it near chance.
    """
    rng = np.random.default_rng(random_state)
    sets = example_datasets(n_sets, random_state)
    base = rng.uniform(0.7, 0.9, n_sets)
    base[-1], base[-2] = 0.985, sets["majority"].iloc[-2] - 0.03
    gain = {m: rng.normal(0, 0.004, n_sets) for m in METHOD_NAMES}
    gain["euclidean"] = np.zeros(n_sets)
    gain["expected_cholesky_cosine"] = gain["cosine"] + 0.03 + rng.normal(0, 0.002, n_sets)
    gain["expected_zca_cosine"] = gain["cosine"] + 0.02 + rng.normal(0, 0.002, n_sets)
    gain["mahalanobis_per_category"] = 0.01 * (sets["log10_condition_within"].to_numpy() - 3)
    gain["expected_cholesky_svc"] = np.maximum(gain["linear_svc"], gain["rbf_svc"]) + 0.02
    ordered = ("expected_cholesky_cosine", "expected_cholesky_svc")
    grids = {"k": [1, 3, 5, 7, 9, 11, 15, 21, 31], "shrinkage": [0.0, 0.1, 0.3, 0.6, 0.9, 1.0],
             "C": [2.0 ** e for e in range(-5, 16, 2)], "gamma": [2.0 ** e for e in range(-15, 4, 4)]}
    rows = []
    for s, dataset in enumerate(sets["dataset"]):
        for repeat in range(repeats):
            for fold in range(folds):
                noise = rng.normal(0, 0.02)   # the fold's difficulty, shared by the methods
                for m in METHOD_NAMES:
                    acc = float(np.clip(base[s] + gain[m][s] + noise + rng.normal(0, 0.01), 0, 1))
                    names = (["C", "gamma"] if m == "rbf_svc" else ["C"] if m.endswith("svc") else ["k"])
                    names += ["shrinkage"] if m.startswith(("expected", "mahalanobis", "pooled")) else []
                    params = {n: grids[n][int(rng.integers(1, len(grids[n]) - 1))] for n in names}
                    if m == "nca" and rng.random() < 0.25:
                        params["k"] = 1
                    edges = [n for n in params if params[n] in (grids[n][0], grids[n][-1])]
                    spread = rng.uniform(0, 0.02) if m in ordered else np.nan
                    rows.append({"dataset": dataset, "repeat": repeat, "fold": fold, "method": m, "accuracy": acc,
                                 "balanced_accuracy": float(np.clip(acc - rng.uniform(0, 0.03), 0, 1)),
                                 "n_train": 90, "n_test": 10, "params": json.dumps(params), "edges": json.dumps(edges),
                                 "fit_seconds": rng.uniform(0.01, 0.5), "predict_seconds": rng.uniform(0.001, 0.01),
                                 "order_min": acc - spread, "order_max": acc + spread})
    return pd.DataFrame(rows)
