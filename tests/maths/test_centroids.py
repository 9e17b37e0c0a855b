"""The nearest class mean under each class's Mahalanobis metric (:mod:`helpers.centroids`) against scipy."""

import numpy as np
import pytest
from scipy.spatial.distance import mahalanobis
from sklearn.covariance import OAS

from helpers.centroids import MahalanobisCentroidClassifier
from helpers.whitening import estimate_covariance


def test_mahalanobis_centroid_matches_scipy(rng):
    X = np.vstack([rng.normal(size=(30, 3)), rng.normal(size=(25, 3)) * [1, 4, 0.5] + 3])
    y = np.array([0] * 30 + [1] * 25)
    clf = MahalanobisCentroidClassifier("sample").fit(X, y)
    x = rng.normal(size=(6, 3)) + 1.5
    expected = np.array([[mahalanobis(xi, X[y == c].mean(0), np.linalg.inv(np.cov(X[y == c], rowvar=False))) ** 2
                          for c in (0, 1)] for xi in x])
    np.testing.assert_allclose(clf.decision_function(x), expected[:, 0] - expected[:, 1])
    np.testing.assert_array_equal(clf.predict(x), expected.argmin(axis=1))


def test_mahalanobis_centroid_shrinkage_and_small_classes(rng):
    X = rng.normal(size=(21, 40))  # fewer samples per class than dimensions
    y = np.array(["a"] * 10 + ["b"] * 10 + ["c"])
    clf = MahalanobisCentroidClassifier("ledoit_wolf").fit(X, y)
    np.testing.assert_allclose(np.linalg.inv(clf.precisions_[0]), estimate_covariance(X[:10], "ledoit_wolf"))
    # the one-document class falls back to the covariance of all training samples
    np.testing.assert_allclose(np.linalg.inv(clf.precisions_[2]), estimate_covariance(X, "ledoit_wolf"))
    d2 = np.stack([np.einsum("ij,jk,ik->i", X - mu, P, X - mu) for mu, P in zip(clf.means_, clf.precisions_)], 1)
    np.testing.assert_allclose(clf.decision_function(X), -d2, rtol=1e-10)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[d2.argmin(axis=1)])
    with pytest.raises(ValueError, match=r"The 'min_class_size' parameter of MahalanobisCentroidClassifier must be an "
                                         r"int in the range \[2, inf\)\. Got 1 instead\."):
        MahalanobisCentroidClassifier(min_class_size=1).fit(X, y)


def test_mahalanobis_centroid_needs_two_classes(rng):
    X = rng.normal(size=(10, 2))
    with pytest.raises(ValueError, match=r"needs samples of at least 2 classes; y has 1 class \('a'\)"):
        MahalanobisCentroidClassifier().fit(X, ["a"] * 10)
    with pytest.raises(
        ValueError, match=r"1 sample\(s\) .* a minimum of 2 is required by MahalanobisCentroidClassifier"
    ):
        MahalanobisCentroidClassifier().fit(X[:1], ["a"])


def test_mahalanobis_centroid_takes_a_covariance_estimator_object(rng):
    X = np.vstack([rng.normal(size=(12, 5)), rng.normal(size=(9, 5)) * 2 + 1])
    y = np.repeat(["a", "b"], [12, 9])
    by_object = MahalanobisCentroidClassifier(OAS()).fit(X, y)
    by_name = MahalanobisCentroidClassifier("oas").fit(X, y)
    for P, Q in zip(by_object.precisions_, by_name.precisions_):
        np.testing.assert_allclose(P, Q, rtol=1e-10)
    np.testing.assert_allclose(np.linalg.inv(by_object.precisions_[1]), OAS().fit(X[12:]).covariance_, rtol=1e-10)
