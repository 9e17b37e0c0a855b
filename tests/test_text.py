"""Tests of helpers.text against hand calculations, scikit-learn and scipy."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import mahalanobis
from sklearn.decomposition import PCA
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid

from helpers.text import (
    GramPCA,
    MahalanobisCentroidClassifier,
    PaperTfidfTransformer,
    StemmingAnalyzer,
    knn_sweep,
    make_vectorizer,
    rocchio_ovr_predict,
    score_methods,
)
from helpers.whitening import estimate_covariance


def test_analyzer_drops_stop_words_and_stems():
    assert StemmingAnalyzer()("The prices of the shares were rising, and it is 1987!") == [
        "price", "share", "rise"]
    assert StemmingAnalyzer(stop_words=(), min_length=1)("a Prices") == ["a", "price"]


def test_paper_idf_is_log2_n_over_df():
    counts = np.array([[3, 1, 0], [0, 1, 0], [1, 1, 2], [0, 1, 0]])  # df = 2, 4, 1 of N = 4
    t = PaperTfidfTransformer(norm=None).fit(counts)
    np.testing.assert_allclose(t.idf_, [1.0, 0.0, 2.0])
    np.testing.assert_allclose(t.transform(counts).toarray()[2], [1.0, 0.0, 4.0])
    unit = PaperTfidfTransformer().fit_transform(counts)
    np.testing.assert_allclose(sp.linalg.norm(unit[[0, 2]], axis=1), 1.0)
    with pytest.raises(ValueError, match="norm must be"):
        PaperTfidfTransformer(norm="l1").fit(counts)


def test_make_vectorizer_options():
    docs = ["oil prices rise", "oil output falls", "wheat exports"]
    paper = make_vectorizer("paper").fit_transform(docs).toarray()
    assert paper[0, 2] == 0.0 or paper[0, 2] < paper[0, 4]  # 'oil' (in 2 of 3) weighs less than 'price'
    with pytest.raises(ValueError, match="tfidf must be"):
        make_vectorizer("bm25")


@pytest.mark.parametrize("sparse", [False, True])
def test_gram_pca_agrees_with_sklearn_pca(rng, sparse):
    X = rng.normal(size=(40, 120)) * np.geomspace(5, 0.1, 120)
    Xin = sp.csr_matrix(X) if sparse else X
    ours = GramPCA(5).fit(Xin)
    ref = PCA(5, svd_solver="full").fit(X)
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-8)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-8)
    # axes agree up to sign
    np.testing.assert_allclose(np.abs(ours.components_ @ ref.components_.T), np.eye(5), atol=1e-8)
    np.testing.assert_allclose(np.abs(ours.transform(Xin)), np.abs(ref.transform(X)), atol=1e-8)
    assert ours.all_explained_variance_ratio_.sum() == pytest.approx(1.0)
    assert ours.n_components_for(0.9) == PCA(0.9, svd_solver="full").fit(X).n_components_


def test_gram_pca_whitened_scores_have_identity_covariance(rng):
    X = rng.normal(size=(50, 30)) @ rng.normal(size=(30, 30))
    Z = GramPCA(10, whiten=True).fit_transform(X)
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(10), atol=1e-8)


def test_gram_pca_bad_inputs():
    with pytest.raises(ValueError, match="positive integer"):
        GramPCA(0).fit(np.eye(3))
    with pytest.raises(ValueError, match=r"fraction must lie in \(0, 1\]"):
        GramPCA(1).fit(np.eye(3) + np.arange(3)).n_components_for(1.5)


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
    assert clf.decision_function(X).shape == (21, 3)
    with pytest.raises(ValueError, match="min_class_size"):
        MahalanobisCentroidClassifier(min_class_size=1).fit(X, y)


@pytest.mark.parametrize("k", [1, 3, 4, 7])
def test_knn_sweep_matches_kneighbors_classifier(rng, k):
    Z = rng.normal(size=(60, 4))
    y = rng.choice(["x", "y", "z"], size=60)
    Q = rng.normal(size=(25, 4))
    ref = KNeighborsClassifier(k, algorithm="brute").fit(Z, y).predict(Q)
    np.testing.assert_array_equal(knn_sweep(Z, y, Q, [k])[k], ref)
    Y = rng.integers(0, 2, size=(60, 3))
    ref_multi = KNeighborsClassifier(k, algorithm="brute").fit(Z, Y).predict(Q)
    np.testing.assert_array_equal(knn_sweep(Z, Y, Q, [k])[k], ref_multi)


def test_knn_sweep_bad_k(rng):
    with pytest.raises(ValueError, match=r"lie in \[1, 5\]"):
        knn_sweep(rng.normal(size=(5, 2)), np.arange(5), rng.normal(size=(2, 2)), [6])


def test_rocchio_matches_nearest_centroid_per_label(rng):
    # NearestCentroid.predict (uniform priors) is the plain nearest centroid; OneVsRestClassifier
    # would call its decision_function, which also divides by within-class standard deviations
    X = rng.random(size=(50, 6))
    Y = (rng.random(size=(50, 4)) < 0.4).astype(int)
    Q = rng.random(size=(20, 6))
    ref = np.column_stack([NearestCentroid().fit(X, Y[:, j]).predict(Q) for j in range(4)])
    np.testing.assert_array_equal(rocchio_ovr_predict(X, Y, Q), ref)
    np.testing.assert_array_equal(rocchio_ovr_predict(sp.csr_matrix(X), Y, sp.csr_matrix(Q)), ref)
    with pytest.raises(ValueError, match="indicator matrix"):
        rocchio_ovr_predict(X, Y[:, 0], Q)


def test_score_methods_on_separable_data(rng):
    centers = np.eye(3) * 6
    y = np.repeat(["a", "b", "c"], 20)
    X = np.abs(centers[np.repeat([0, 1, 2], 20)] + rng.normal(size=(60, 3)) * 0.3)
    pca = GramPCA(3).fit(X)
    feats = {"counts": (X, X), "tfidf": (X, X), "scores": (pca.transform(X), pca.transform(X)),
             "sd": np.sqrt(pca.explained_variance_)}
    out = score_methods(feats, y, y, k=3, n_components=2)
    assert set(out) == {"naive Bayes", "Rocchio", "Euclidean kNN", "Mahal-kNN (pooled)",
                        "Mahal (per-category)", "linear SVM"}
    for name, f in out.items():
        assert f["macro"] == pytest.approx(1.0), name
        assert f["micro"] == pytest.approx(1.0), name
    with pytest.raises(ValueError, match="n_components=5 but only 3"):
        score_methods(feats, y, y, n_components=5)
