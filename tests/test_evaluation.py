"""Tests of helpers.evaluation against scipy / scikit-learn and worked examples."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, StratifiedShuffleSplit, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from helpers import class_whitening_matrices, transform_by_class
from helpers.evaluation import (loocv_accuracy, mcnemar_exact, population_protocol_cv, population_protocol_predict,
                                population_split_scores, repeated_cv_scores, repeated_split_scores,
                                summarize_scores, svc_loocv_accuracy)


def two_classes(seed=0, n=20):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n, 3)), rng.normal(1, 3, (n, 3))])
    return X, np.repeat([0, 1], n)


def test_summary_matches_scipy_t_interval():
    s = np.array([0.9, 0.92, 0.95, 0.97, 0.91])
    row = summarize_scores({"m": s}).loc["m"]
    lo, hi = stats.t.interval(0.95, len(s) - 1, loc=s.mean(), scale=stats.sem(s))
    assert row["mean"] == pytest.approx(s.mean())
    assert row["sd"] == pytest.approx(s.std(ddof=1))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))


def test_summary_rejects_single_score():
    with pytest.raises(ValueError, match="at least two"):
        summarize_scores({"m": [0.9]})


def test_repeated_split_scores_equal_sklearn():
    X, y = load_iris(return_X_y=True)
    ours = repeated_split_scores({"knn": KNeighborsClassifier(3)}, X, y, n_splits=4, random_state=1)["knn"]
    ref = cross_val_score(KNeighborsClassifier(3), X, y,
                          cv=StratifiedShuffleSplit(4, test_size=0.2, random_state=1))
    np.testing.assert_allclose(ours, ref)


def test_repeated_cv_one_repeat_is_kfold_mean():
    X, y = load_iris(return_X_y=True)
    ours = repeated_cv_scores({"knn": KNeighborsClassifier(3)}, X, y, n_folds=5, n_repeats=2, random_state=0)["knn"]
    assert ours.shape == (2,)
    assert np.all((ours > 0.9) & (ours <= 1.0))


def test_models_must_be_dict():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="non-empty dict"):
        repeated_split_scores(KNeighborsClassifier(), X, y)


def test_loocv_equals_manual_loop():
    X, y = two_classes()
    manual = np.mean([KNeighborsClassifier(3).fit(np.delete(X, i, 0), np.delete(y, i)).predict(X[i:i + 1])[0] == y[i]
                      for i in range(len(y))])
    assert loocv_accuracy(KNeighborsClassifier(3), X, y) == pytest.approx(manual)


def test_svc_loocv_shortcut_is_exact():
    X, y = two_classes(seed=3)
    for kernel in ("linear", "rbf"):
        assert svc_loocv_accuracy(SVC(kernel=kernel), X, y) == pytest.approx(loocv_accuracy(SVC(kernel=kernel), X, y))


def test_mcnemar_counts_and_scipy_pvalue():
    y = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    a = y.copy()
    b = y.copy(); b[:5] = 1 - b[:5]          # b wrong on 5 points where a is right
    a[9] = 0                                  # a wrong on one point where b is right
    nb, nc, p = mcnemar_exact(y, a, b)
    assert (nb, nc) == (5, 1)
    assert p == pytest.approx(stats.binomtest(5, 6, 0.5).pvalue)
    assert mcnemar_exact(y, y, y) == (0, 0, 1.0)
    with pytest.raises(ValueError, match="same length"):
        mcnemar_exact(y, y[:-1], y)


def test_population_protocol_uses_given_labels():
    X, y = two_classes(seed=1, n=40)
    mats = class_whitening_matrices(X[::2], y[::2])
    Z = transform_by_class(X[1::2], y[1::2], mats)
    expected = KNeighborsClassifier(5).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(Z)
    ours = population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2])
    np.testing.assert_array_equal(ours, expected)
    with pytest.raises(ValueError, match="label per test row"):
        population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2][:-1])


def test_population_cv_all_equals_transform_then_cv():
    X, y = two_classes(seed=2, n=30)
    Z = transform_by_class(X, y, class_whitening_matrices(X, y))
    cv = StratifiedKFold(5)
    ref = np.mean(cross_val_score(KNeighborsClassifier(3), Z, y, cv=cv))
    assert population_protocol_cv(KNeighborsClassifier(3), X, y, cv) == pytest.approx(ref)
    assert 0 <= population_protocol_cv(KNeighborsClassifier(3), X, y, LeaveOneOut(), matrices_from="train") <= 1
    with pytest.raises(ValueError, match="matrices_from"):
        population_protocol_cv(KNeighborsClassifier(3), X, y, cv, matrices_from="test")
    assert population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3).shape == (3,)
