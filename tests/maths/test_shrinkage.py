"""Every shrinkage from one eigendecomposition (:mod:`helpers.shrinkage`) against the direct computation."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.datasets import load_wine

from helpers.estimators import ExpectedWhitener
from helpers.shrinkage import ShrinkagePath, class_paths, expected_zca_matrix, expected_zca_path, per_category_distances


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    Z = (X - X.mean(0)) / X.std(0)
    return Z[::2], y[::2], Z[1::2]


@pytest.mark.parametrize("a", [0.0, 0.25, 0.7, 1.0])
def test_a_path_is_the_shrunk_covariance_towards_its_mean_variance(a, wine):
    X, _, _ = wine
    S = np.cov(X, rowvar=False)
    t = np.trace(S) / len(S)
    path = ShrinkagePath(S)
    np.testing.assert_allclose(path.covariance(a), (1 - a) * S + a * t * np.eye(len(S)), atol=1e-12)
    np.testing.assert_allclose(np.sort(path.eigenvalues(a)), np.linalg.eigvalsh((1 - a) * S + a * t * np.eye(len(S))),
                               rtol=1e-10)


def test_the_per_category_covariances_meet_at_the_pooled_variance(wine):
    X_tr, y_tr, _ = wine
    paths, members = class_paths(X_tr, y_tr, pooled_target=True)
    pooled = sum((len(m) - 1) * np.trace(np.cov(X_tr[m], rowvar=False)) for m in members) / (
        (len(X_tr) - len(members)) * X_tr.shape[1])
    for path, m in zip(paths, members):
        np.testing.assert_allclose(path.eigenvalues(1.0), pooled, rtol=1e-12)
        np.testing.assert_allclose(path.covariance(0.4), 0.6 * np.cov(X_tr[m], rowvar=False)
                                   + 0.4 * pooled * np.eye(X_tr.shape[1]), atol=1e-10)


@pytest.mark.parametrize("a", [0.0, 0.5])
def test_per_category_distances_are_scipys_mahalanobis_under_each_class_covariance(a, wine):
    X_tr, y_tr, X_te = wine
    paths, members = class_paths(X_tr, y_tr, pooled_target=False)
    D = per_category_distances(paths, members, X_tr, X_te)(a)
    for path, m in zip(paths, members):
        VI = np.linalg.inv(path.covariance(a))
        np.testing.assert_allclose(D[:, m], cdist(X_te, X_tr[m], "mahalanobis", VI=VI) ** 2, rtol=1e-8, atol=1e-9)


def test_the_expected_zca_path_is_the_expected_whitener_at_every_shrinkage(wine):
    X_tr, y_tr, _ = wine
    path = expected_zca_path(X_tr, y_tr)
    for a in (0.1, 0.6):
        np.testing.assert_allclose(path(a), ExpectedWhitener(method="zca", covariance=a).fit(X_tr, y_tr).components_,
                                   rtol=1e-8, atol=1e-10)


def test_an_unusable_covariance_gives_none_not_a_wrong_whitening():
    path = ShrinkagePath(np.diag([1.0, 1e-20]))
    assert path.eigenvalues(0.0) is None and path.eigenvalues(0.1) is not None
    assert ShrinkagePath(np.array([[1.0, 1.0], [1.0, 1.0]])).eigenvalues(0.0) is None
    X, y = np.c_[np.arange(6.0), np.arange(6.0)], np.repeat([0, 1], 3)   # each class on a line
    paths, members = class_paths(X, y, pooled_target=False)
    assert per_category_distances(paths, members, X, X)(0.0) is None
    assert expected_zca_matrix(paths, [0.5, 0.5], 0.0) is None
    assert expected_zca_matrix(paths, [0.5, 0.5], 0.5) is not None


def test_a_class_of_one_row_is_refused():
    with pytest.raises(ValueError, match="at least two rows of each class"):
        class_paths(np.eye(3), np.array([0, 0, 1]), pooled_target=False)
