"""helpers.svm: the printed SVM formulations solved directly, exact separability and the exact LOOCV
shortcut, against scikit-learn's SVC."""

import numpy as np
import pytest
from sklearn.model_selection import (
    LeaveOneOut,
    cross_val_predict,
)
from sklearn.svm import SVC

from helpers.evaluation import (
    loocv_accuracy,
)
from helpers.svm import is_linearly_separable, primal_linear_svm, svc_loocv_accuracy, svc_loocv_predict
from tests.support import two_classes


@pytest.fixture
def data(rng):
    X = np.vstack([rng.normal([2.0, 1.0], [1.0, 0.5], (25, 2)), rng.normal([-1.0, -1.0], [0.6, 1.2], (25, 2))])
    return X, np.repeat([1, -1], 25)


def test_standard_svm_equals_libsvm(data):
    X, y = data
    ours = primal_linear_svm(X, y, C=1.0)
    svc = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    assert ours.theta == pytest.approx(svc.coef_[0], abs=1e-4)
    assert ours.theta0 == pytest.approx(svc.intercept_[0], abs=1e-4)
    assert np.array_equal(np.sign(ours.decision_function(X)), svc.predict(X))


def test_matrix_in_objective_and_constraint_is_svm_on_whitened_rows(data, rng):
    # P = M = inv(S): substituting w = S^-1/2 theta gives the standard SVM on S^-1/2 x
    X, y = data
    A = rng.normal(size=(2, 2))
    S = A @ A.T + np.eye(2)
    vals, vecs = np.linalg.eigh(S)
    root_inv = vecs @ np.diag(vals ** -0.5) @ vecs.T
    ours = primal_linear_svm(X, y, C=1.0, P=np.linalg.inv(S), M=np.linalg.inv(S))
    svc = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X @ root_inv, y)
    assert ours.decision_function(X) == pytest.approx(svc.decision_function(X @ root_inv), abs=1e-4)


def test_hard_margin_on_a_line():
    fit = primal_linear_svm([[-2.0], [-1.0], [1.0], [3.0]], [-1, -1, 1, 1], C=1e4)
    assert fit.theta[0] == pytest.approx(1.0, abs=1e-6) and fit.theta0 == pytest.approx(0.0, abs=1e-6)
    assert fit.slack == pytest.approx(0.0, abs=1e-8)


@pytest.mark.parametrize("kwargs, message", [
    (dict(y=[0, 1]), "labels must be -1 and \\+1"),
    (dict(y=[1]), "one label per row"),
    (dict(C=0.0), r"C must be a finite number > 0, e\.g\. C=1\.0; got 0\.0"),
    (dict(P=np.eye(3)), "must be 1 x 1"),
    (dict(P=[[-1.0]]), "symmetric positive definite"),
])
def test_bad_input_is_refused_with_the_fix(kwargs, message):
    args = dict(X=[[-1.0], [1.0]], y=[-1, 1]) | kwargs
    with pytest.raises(ValueError, match=message):
        primal_linear_svm(**args)


def test_badly_scaled_units_are_solved(data):
    # features in very different units: the solution is the same classifier in the new units
    X, y = data
    D = np.diag([1000.0, 0.01])
    a = primal_linear_svm(X, y, C=1.0)
    b = primal_linear_svm(X @ D, y, C=1.0, P=D @ D)    # theta = D theta' keeps the problem
    assert b.decision_function(X @ D) == pytest.approx(a.decision_function(X), abs=1e-4)


def test_svc_loocv_shortcut_is_exact():
    X, y = two_classes(seed=3)
    for kernel in ("linear", "rbf"):
        assert svc_loocv_accuracy(SVC(kernel=kernel), X, y) == pytest.approx(loocv_accuracy(SVC(kernel=kernel), X, y))


def test_svc_loocv_skips_misclassified_support_vectors_exactly():
    # heavily overlapping classes: the full linear SVC misclassifies several support vectors
    X, y = two_classes(seed=5, n=40)
    full = SVC(kernel="linear").fit(X, y)
    margin = np.where(y == 1, 1.0, -1.0) * full.decision_function(X)
    assert np.sum(margin[full.support_] < -0.01) >= 5          # the shortcut is exercised
    for kernel in ("linear", "rbf"):
        assert svc_loocv_accuracy(SVC(kernel=kernel), X, y) == loocv_accuracy(SVC(kernel=kernel), X, y)


def test_linear_separability_agrees_with_a_hard_margin_svm():
    assert is_linearly_separable([[0, 0], [1, 0], [0, 1], [3, 3]], [0, 0, 0, 1])
    assert not is_linearly_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [0, 0, 1, 1])   # XOR
    assert not is_linearly_separable([[0.0], [1.0], [2.0]], [0, 1, 0])                # no threshold splits it
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(0, 1, (30, 3)), rng.normal(6, 1, (30, 3))])     # well apart
    y = np.repeat([0, 1], 30)
    assert is_linearly_separable(X, y) and SVC(kernel="linear", C=1e8).fit(X, y).score(X, y) == 1.0
    X[0] = X[30:].mean(axis=0)               # a class-0 point inside the class-1 cloud
    assert not is_linearly_separable(X, y)
    with pytest.raises(ValueError, match="two classes"):
        is_linearly_separable([[0.0], [1.0], [2.0]], [0, 1, 2])


def test_svc_loocv_predictions_equal_cross_val_predict():
    X, y = two_classes(seed=3)
    np.testing.assert_array_equal(svc_loocv_predict(SVC(kernel="linear"), X, y),
                                  cross_val_predict(SVC(kernel="linear"), X, y, cv=LeaveOneOut()))
