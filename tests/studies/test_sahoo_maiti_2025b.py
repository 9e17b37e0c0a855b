"""helpers.studies.sahoo_maiti_2025b: the Cholesky-kernel SVC paper's case study and its kernel (notebook 05)."""

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, cross_val_predict, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from helpers import ExpectedWhitener, class_whitening_matrices, expected_whitening_matrix, transform_by_class
from helpers.studies import sahoo_maiti_2025b as study
from tests.support import two_classes


@pytest.fixture(scope="module")
def split():
    return study.wdbc_split(0.2, 42)


@pytest.fixture(scope="module")
def options(split):
    return study.two_options(split)


def test_bounded_prints_rounding_noise_as_a_bound():
    assert study.bounded(2.6e-14) == study.bounded(-2.1e-14) == "below 1e-12"
    assert study.bounded(0.1412) == "1.4e-01" and study.bounded(3e-9, floor=1e-6, fmt=".2f") == "below 1e-06"


def test_kernels_on_the_raw_split_rbf_equals_poly_and_sigmoid_collapses(split):
    fitted, preds = study.kernel_predictions(split.X_train, split.y_train, split.X_test)
    assert list(preds) == list(study.KERNELS)
    acc = {k: np.mean(p == split.y_test) for k, p in preds.items()}
    assert acc == pytest.approx({"linear": 109 / 114, "rbf": 108 / 114, "poly": 108 / 114, "sigmoid": 53 / 114})
    np.testing.assert_array_equal(preds["rbf"], preds["poly"])
    precision = study.precision_table(split.y_test, preds)
    assert precision.index.tolist() == ["malignant", "benign", "macro avg", "weighted avg"]
    assert precision.loc["malignant", "rbf"] == 1.0 and precision.loc["malignant", "linear"] == pytest.approx(39 / 40)
    assert precision.loc["benign", "linear"] == pytest.approx(70 / 74)
    assert study.split_metrics(split.y_test, preds["linear"]) == pytest.approx(
        {"accuracy": 109 / 114, "precision": 39 / 40, "recall": 39 / 43, "f1": 78 / 83})


def test_two_options_option_b_is_eq_29_and_eq_28(split, options):
    acc = {name: np.mean(p == split.y_test) for name, p in options.predictions.items()}
    assert acc == pytest.approx({"population_cholesky": 1.0, "expected_cholesky": 110 / 114})
    p, M = study.eq29_by_hand(split.X_train, split.y_train)
    assert p == pytest.approx(169 / 455)
    np.testing.assert_allclose(M, options.expected, rtol=1e-12)
    np.testing.assert_allclose(study.eq28_applied(split.X_test, split.X_train, split.y_train),
                               split.X_test @ options.expected.T, rtol=1e-10)
    E = options.expected
    ref = SVC(kernel="linear").fit(split.X_train @ E.T, split.y_train).predict(split.X_test @ E.T)
    np.testing.assert_array_equal(options.predictions["expected_cholesky"], ref)


def test_separability_by_exact_lp():
    X, y = two_classes(seed=0, n=20)
    far = X + np.where(y[:, None] == 1, 50.0, 0.0)                          # the classes pulled apart
    mats = {0: np.eye(3), 1: np.eye(3)}
    out = study.separability(far, y, far, y, mats, np.eye(3))
    assert out == {"raw rows (all 40)": True, "Option A rows (all 40)": True, "Option B training rows": True}
    mixed = study.separability(np.vstack([X[:20], X[:20]]), y, X, y, mats, np.zeros((3, 3)))
    assert mixed["raw rows (all 40)"] is False and mixed["Option B training rows"] is False


def test_eq_18_and_31_are_squared_distances_not_kernels():
    rng = np.random.default_rng(1)
    X, y = two_classes(seed=1, n=30)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    E = rng.normal(size=(3, 3))
    kc = study.kernel_check(X[::2], y[::2], X[1::2], y[1::2], mats, E)
    assert kc.spectra.index.tolist() == ["Eq. 18, benign rows (own factor)", "Eq. 18, malignant rows (own factor)",
                                         "Eq. 31, all training rows (E(C^-1))"]
    # a matrix of squared distances of points in R^3 has rank <= 5: one positive and at most 4 negative eigenvalues
    assert (kc.spectra["positive eigenvalues"] == 1).all() and (kc.spectra["negative eigenvalues"] >= 1).all()
    np.testing.assert_allclose(kc.spectra["trace"], 0.0, atol=1e-9)
    assert kc.centred_gap < 1e-12 and kc.gauss_min > 0 and kc.n == 30
    Z = X[::2] @ E.T
    K = cdist(Z, Z, "sqeuclidean")
    expected = SVC(kernel="precomputed").fit(K, y[::2]).score(cdist(X[1::2] @ E.T, Z, "sqeuclidean"), y[1::2])
    assert kc.precomputed_accuracy == pytest.approx(expected)


def test_eq19_agrees_with_option_a_only_within_a_class():
    X, y = two_classes(seed=2, n=20)
    rng = np.random.default_rng(2)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    r = study.eq19_versus_optiona(X[::2], y[::2], X[1::2], y[1::2], mats)
    assert r["cross_share"] == pytest.approx(0.5) and r["same_max_deviation"] < 1e-9 < r["cross_max_deviation"]
    one = study.eq19_versus_optiona(X[::2], y[::2], X[1::2], y[1::2], {0: mats[0], 1: mats[0]})
    assert one["cross_max_deviation"] < 1e-9 and one["cross_ratio_median"] == pytest.approx(1.0)
    assert study.eq32_is_a_distance(X[:5], X[5:10], mats[0])


def test_eq33_differs_from_the_constraint_by_p_1_minus_p_d_d(split, options):
    out = study.eq33_against_constraint(split.X_train, split.y_train, options.expected)
    d = out["differences"]
    assert d["E(S^-1) vs p S_1^-1 + (1 - p) S_0^-1 (check)"] < 1e-10
    assert d["difference vs p(1 - p) D'D (identity)"] < 1e-10
    assert d["E(S^-1) vs E(C^-1)' E(C^-1)"] == pytest.approx(0.14, abs=0.005)
    assert out["ratio_min"] == pytest.approx(1.0, abs=0.005) and out["ratio_max"] == pytest.approx(4.6, abs=0.05)
    # equal class factors: E(S^-1) is exactly E(C^-1)'E(C^-1)
    X, y = two_classes(seed=3, n=40)
    X[y == 1] = X[y == 0] + 5.0                                              # same covariance in both classes
    same = study.eq33_against_constraint(X, y, expected_whitening_matrix(X, y))
    assert same["differences"]["E(S^-1) vs E(C^-1)' E(C^-1)"] < 1e-10


def test_svm_split_sweep_and_its_table(split):
    models = study.svm_models()
    assert list(models) == ["linear", "rbf", "poly", "sigmoid", "expected_cholesky", "whitened_linear",
                            "standardised_linear", "standardised_rbf"]
    by_metric = study.svm_split_sweep({"rbf": SVC()}, split.X, split.y, n_splits=3, random_state=42,
                                      metrics=("accuracy", "recall"))
    assert list(by_metric) == ["accuracy", "recall"]
    assert list(by_metric["accuracy"]) == ["rbf", "population_cholesky", "population_cholesky_train_matrices"]
    np.testing.assert_array_equal(by_metric["recall"]["population_cholesky_train_matrices"], [1.0, 1.0, 1.0])
    table, acc = study.sweep_table(by_metric, 0.25)
    assert table.index[-1] == "rbf" and table.loc["rbf", "accuracy"] == pytest.approx(acc.loc["rbf", "mean"])
    assert table.loc["rbf", "accuracy ci_low"] <= table.loc["rbf", "accuracy"] <= table.loc["rbf", "accuracy ci_high"]


def test_advantage_evidence_names_the_weakest_and_every_comparison():
    pairs = pd.MultiIndex.from_tuples([("accuracy", "b vs a"), ("accuracy", "b vs c")])
    pt = pd.DataFrame({"mean_diff": [0.01, -0.02], "p_value": [0.5, 0.04], "wins": [3, 1], "losses": [2, 4]},
                      index=pairs)
    text = study.advantage_evidence(pt, pd.DataFrame(), ("accuracy", "b vs c"), ["accuracy"], ["a", "c"], "b",
                                    10, first="b")
    assert text == ("b. Weakest: accuracy, b vs c: -0.020 over 10 splits (1 wins, 4 losses), corrected paired "
                    "p = 0.04. All: accuracy vs a +0.010 (p = 0.5); accuracy vs c -0.020 (p = 0.04)")


def test_table1_equals_scikit_learn_cross_validation(split):
    X, y = split.X[:80, :5] / split.X[:, :5].std(0), split.y[:80]   # a corner, scaled: the same protocol, quickly
    t = study.table1_svm(X, y)
    expected_svc = make_pipeline(ExpectedWhitener(), SVC(kernel="linear"))
    loo = cross_val_predict(SVC(kernel="linear"), X, y, cv=LeaveOneOut())
    np.testing.assert_array_equal(t.loo_predictions["linear"], loo)
    folds = cross_val_score(expected_svc, X, y, cv=StratifiedKFold(10))
    np.testing.assert_allclose(t.fold_scores["expected_cholesky"], folds)
    assert t.accuracy["linear"] == pytest.approx([np.mean(loo == y), np.mean(t.fold_scores["linear"])])
    Z = transform_by_class(X, y, class_whitening_matrices(X, y))
    pop = cross_val_score(SVC(kernel="linear"), Z, y, cv=StratifiedKFold(10)).mean()
    assert t.accuracy["population_cholesky"][1] == pytest.approx(pop)


def test_fold_schemes_closeness_and_iterations(split):
    X, y = split.X[:150, :5] / split.X[:, :5].std(0), split.y[:150]
    table = study.fold_scheme_scores(X, y, class_whitening_matrices(X, y), random_state=42)
    assert table.shape == (2, 4)
    ref = cross_val_score(make_pipeline(ExpectedWhitener(), SVC(kernel="linear")), X, y, cv=StratifiedKFold(10)).mean()
    assert table.loc["expected_cholesky", "StratifiedKFold(10)"] == pytest.approx(ref)
    closeness = study.expected_matrix_closeness(X, y, expected_whitening_matrix(X[:120], y[:120]), 120)
    assert list(closeness) == ["80:20 training rows (120)", "10-fold training folds (135)",
                               "LOOCV training folds (149)"]
    values = list(closeness.values())
    assert values[0] > values[1] > values[2] > 0
    fitted = SVC(kernel="rbf").fit(split.X_train, split.y_train)
    iters = study.libsvm_iterations({"rbf": fitted}, split.X_train, split.y_train)
    assert iters == {"rbf": float(f"{fitted.n_iter_[0]:.2g}"), "standardised_linear": 1100.0}
