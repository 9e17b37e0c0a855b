"""Tests of helpers.text against hand calculations, scikit-learn and scipy."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from nltk.stem import PorterStemmer
from scipy.spatial.distance import mahalanobis
from sklearn.covariance import ledoit_wolf_shrinkage
from sklearn.decomposition import PCA
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.metrics import precision_recall_fscore_support
from sklearn.model_selection import LeaveOneOut, cross_val_predict
from sklearn.naive_bayes import MultinomialNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid

from helpers import text as T
from helpers.evaluation import SCORES, paired_comparisons, paired_permutation_test, prf_scores
from helpers.gram import GramPCA, ResidualCovariance, ledoit_wolf_shrinkage_gram, shrunk_residual_covariance
from helpers.papers.mahal_knn import (
    MahalanobisCentroidClassifier,
    baseline_predictions,
    best_k,
    component_sweep,
    knn_sweep,
    mahalanobis_readings,
    rocchio_ovr_predict,
    summarize_readings,
    training_size_curve,
)
from helpers.text import PaperTfidfTransformer, StemmingAnalyzer, make_vectorizer, vectorize_corpus
from helpers.whitening import estimate_covariance
def test_analyzer_drops_stop_words_and_stems():
    assert StemmingAnalyzer()("The prices of the shares were rising, and it is 1987!") == [
        "price", "share", "rise"]
    assert StemmingAnalyzer(stop_words=(), min_length=1)("a Prices") == ["a", "price"]


def test_stemming_is_memoised_per_word():
    T._stem.cache_clear()
    assert StemmingAnalyzer()("buying shares buying buys shares") == ["buy", "share", "buy", "buy", "share"]
    info = T._stem.cache_info()
    assert (info.misses, info.hits) == (3, 2)  # buying, shares, buys stemmed once each
    assert all(T._stem(w) == PorterStemmer().stem(w) for w in ["buying", "shares", "buys", "companies"])


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


OIL = ["oil prices rise", "crude oil output", "oil exports fall", "opec oil quota", "crude prices slide",
       "oil refinery output"]
WHEAT = ["wheat harvest grows", "wheat exports rise", "grain wheat tender", "wheat crop output",
         "grain harvest falls", "wheat prices slide"]


@pytest.mark.parametrize("tfidf", ["paper", "sklearn"])
def test_vectorize_corpus_equals_fitted_pipeline(tfidf):
    vec, (c_tr, c_te), (w_tr, w_te) = vectorize_corpus(OIL + WHEAT, ["oil wheat prices"], tfidf, progress=False)
    ref = make_vectorizer(tfidf).fit(OIL + WHEAT)
    np.testing.assert_array_equal(w_tr.toarray(), ref.transform(OIL + WHEAT).toarray())
    np.testing.assert_array_equal(w_te.toarray(), vec.transform(["oil wheat prices"]).toarray())
    assert c_te.sum() == 3


def test_progress_bars_show_unless_tqdm_disable(monkeypatch, capsys):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    vectorize_corpus(OIL, WHEAT, progress=True)
    assert "stemming training documents" in capsys.readouterr().err
    monkeypatch.setenv("TQDM_DISABLE", "1")  # what the Makefile exports: silences even progress=True
    vectorize_corpus(OIL, WHEAT, progress=True)
    GramPCA(2, progress=True).fit(np.eye(4) + np.arange(4))
    assert capsys.readouterr().err == ""
    monkeypatch.delenv("TQDM_DISABLE")
    GramPCA(2, progress=False).fit(np.eye(4) + np.arange(4))
    assert capsys.readouterr().err == ""


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


@pytest.mark.parametrize("fraction", [0.5, 0.9, 0.99])
def test_gram_pca_variance_fraction_matches_sklearn_and_respects_cap(rng, fraction):
    X = rng.normal(size=(40, 120)) * np.geomspace(5, 0.1, 120)
    needed = PCA(fraction, svd_solver="full").fit(X).n_components_
    pca = GramPCA(fraction).fit(sp.csr_matrix(X))
    assert pca.n_components_ == needed == pca.n_components_for(fraction)
    assert pca.components_.shape == (needed, 120) and pca.explained_variance_ratio_.sum() >= fraction
    capped = GramPCA(fraction, max_components=3).fit(X)
    assert capped.n_components_ == min(needed, 3) and capped.n_components_for(fraction) == needed
    assert GramPCA(50, max_components=3).fit(X).n_components_ == 3
    assert GramPCA(500).fit(X).n_components_ == 39  # at most n - 1


def test_gram_pca_float32_and_blocks_agree_with_float64(rng):
    X = sp.random(60, 200, density=0.1, random_state=1, format="csr")
    ref = GramPCA(5).fit(X)
    small_blocks = GramPCA(5)
    small_blocks._block_rows = 7  # the Gram matrix in 9 blocks
    small_blocks.fit(X)
    np.testing.assert_array_equal(small_blocks.explained_variance_, ref.explained_variance_)
    single = GramPCA(5, dtype=np.float32).fit(X)
    np.testing.assert_allclose(single.explained_variance_, ref.explained_variance_, rtol=1e-4)
    np.testing.assert_allclose(np.abs(single.transform(X)), np.abs(ref.transform(X)), atol=1e-4)


def test_gram_pca_whitened_scores_have_identity_covariance(rng):
    X = rng.normal(size=(50, 30)) @ rng.normal(size=(30, 30))
    Z = GramPCA(10, whiten=True).fit_transform(X)
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(10), atol=1e-8)


def test_gram_pca_bad_inputs():
    for bad in [0, -2, 1.0, 1.5, 0.0, True, "0.9"]:
        with pytest.raises(ValueError, match=r"positive integer \(components\) or a float in \(0, 1\)"):
            GramPCA(bad).fit(np.eye(3))
    with pytest.raises(ValueError, match="max_components must be None or a positive integer"):
        GramPCA(0.9, max_components=0).fit(np.eye(3))
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


def test_class_without_spread_uses_pooled_covariance(rng):
    # two documents: Ledoit-Wolf estimates zero shrinkage and leaves a rank-1 covariance (the
    # all_90 case); identical documents: no spread at all. Their pseudo-inverses see distance
    # along (almost) no direction, which would make them the nearest class to everything.
    X = np.vstack([rng.normal(size=(30, 4)), rng.normal(size=(30, 4)) + 5,
                   [[10.0, 0, 0, 0], [10.5, 0.3, 0, 0]], np.tile([[0, 10.0, 0, 0]], (2, 1))])
    y = np.array(["a"] * 30 + ["b"] * 30 + ["pair"] * 2 + ["twins"] * 2)
    Q = np.vstack([rng.normal(size=(10, 4)), rng.normal(size=(10, 4)) + 5])
    guarded = MahalanobisCentroidClassifier("ledoit_wolf").fit(X, y)
    assert guarded.pooled_classes_.tolist() == ["pair", "twins"]
    np.testing.assert_allclose(np.linalg.inv(guarded.precisions_[2]), estimate_covariance(X, "ledoit_wolf"))
    np.testing.assert_array_equal(guarded.predict(Q), ["a"] * 10 + ["b"] * 10)
    unguarded = MahalanobisCentroidClassifier("ledoit_wolf", degenerate_rtol=None).fit(X, y)
    assert unguarded.pooled_classes_.tolist() == []
    # a zero covariance has a zero pseudo-inverse: distance 0 to every document
    assert (unguarded.predict(Q) == "twins").all()
    with pytest.raises(ValueError, match="degenerate_rtol must be None or a float >= 0"):
        MahalanobisCentroidClassifier(degenerate_rtol=-1.0).fit(X, y)


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




# ---------------------------------------------------------------------------- shrunk covariances

@pytest.mark.parametrize("n, p", [(5, 40), (30, 6), (12, 12)])
def test_ledoit_wolf_from_gram_equals_sklearn(rng, n, p):
    X = rng.normal(size=(n, p)) * rng.uniform(0.1, 3.0, size=p)
    Xc = X - X.mean(axis=0)
    assert ledoit_wolf_shrinkage_gram(Xc @ Xc.T, p) == pytest.approx(ledoit_wolf_shrinkage(X), rel=1e-10)


def random_groups(rng, sizes, p):
    X = np.vstack([rng.normal(size=(n, p)) * rng.uniform(0.2, 3.0, size=p) + 3 * i for i, n in enumerate(sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)


@pytest.mark.parametrize("estimator", ["ledoit_wolf", 0.3])
def test_one_group_covariance_is_estimate_covariance(rng, estimator):
    X = rng.normal(size=(9, 20)) @ rng.normal(size=(20, 20))  # fewer samples than dimensions
    cov = ResidualCovariance(estimator).fit(X @ X.T, np.zeros(9), 20)
    np.testing.assert_allclose(cov.covariance(X), estimate_covariance(X, estimator), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(shrunk_residual_covariance(X - X.mean(0), 1, estimator), cov.covariance(X), rtol=1e-10)


@pytest.mark.parametrize("sizes, p", [([6, 9, 4], 25), ([30, 40], 5)])
def test_woodbury_distances_equal_dense_mahalanobis(rng, sizes, p):
    X, g = random_groups(rng, sizes, p)
    cov = ResidualCovariance("ledoit_wolf").fit(X @ X.T, g, p)
    S = cov.covariance(X)
    means = np.array([X[g == i].mean(axis=0) for i in range(len(sizes))])
    np.testing.assert_allclose(S, shrunk_residual_covariance(X - means[g], len(sizes)), rtol=1e-10)
    VI = np.linalg.inv(S)
    Q = rng.normal(size=(4, p)) * 2
    T_q, T_x = cov.project(Q @ X.T), cov.project(X @ X.T)
    D = cov.sq_distances(T_q, (Q**2).sum(1), T_x, (X**2).sum(1), Q @ X.T)
    ref = np.array([[mahalanobis(q, x, VI) ** 2 for x in X] for q in Q])
    np.testing.assert_allclose(D, ref, rtol=1e-8)
    to_means = cov.sq_distances_to_means(Q @ X.T, (Q**2).sum(1))
    np.testing.assert_allclose(to_means, [[mahalanobis(q, m, VI) ** 2 for m in means] for q in Q], rtol=1e-8)


def test_full_shrinkage_is_scaled_euclidean(rng):
    X, g = random_groups(rng, [5, 5], 3)
    cov = ResidualCovariance(1.0).fit(X @ X.T, g, 3)
    assert cov.chol_ is None and cov.b_ == 0.0
    Q = rng.normal(size=(2, 3))
    D = cov.sq_distances(cov.project(Q @ X.T), (Q**2).sum(1), cov.project(X @ X.T), (X**2).sum(1), Q @ X.T)
    np.testing.assert_allclose(D, ((Q[:, None] - X[None]) ** 2).sum(-1) / cov.a_)


def test_residual_covariance_bad_inputs(rng):
    X = rng.normal(size=(4, 6))
    for bad in ["sample", 0.0, 1.5, True]:
        with pytest.raises(ValueError, match="estimator must be 'ledoit_wolf' or a shrinkage in"):
            ResidualCovariance(bad).fit(X @ X.T, np.zeros(4), 6)
    with pytest.raises(ValueError, match="one label per member: 4 members"):
        ResidualCovariance().fit(X @ X.T, np.zeros(3), 6)
    with pytest.raises(ValueError, match="no residual degrees of freedom"):
        ResidualCovariance().fit(X @ X.T, np.arange(4), 6)
    with pytest.raises(ValueError, match="no spread"):
        ResidualCovariance().fit(np.ones((3, 3)), np.zeros(3), 6)  # three identical members
    with pytest.raises(ValueError, match="square matrix"):
        ResidualCovariance().fit(X, np.zeros(4), 6)
    cov = ResidualCovariance().fit(X @ X.T, np.zeros(4), 6)
    with pytest.raises(ValueError, match="inner products with the 4 members"):
        cov.project(np.ones((2, 3)))


# ---------------------------------------------------------------------------- the readings

@pytest.fixture
def corpus(rng):
    """Three categories of unequal size and shape in 6 dimensions; 15 test points."""
    sizes, p = [14, 10, 8], 6
    X, g = random_groups(rng, sizes, p)
    y = np.array(["earn", "grain", "trade"])[g]
    Q = rng.normal(size=(15, p)) * 2 + 3
    return X, y, Q


@pytest.mark.parametrize("k", [1, 3, 4, 7])
def test_euclidean_and_class_blind_equal_kneighbors_classifier(corpus, k):
    X, y, Q = corpus
    sd = X.std(axis=0, ddof=1)
    out = mahalanobis_readings(X, y, Q, sd, ks=[k], readings=["euclidean", "class_blind"], loo=False)
    ref = KNeighborsClassifier(k, algorithm="brute").fit(X, y).predict(Q)
    np.testing.assert_array_equal(out.pred["euclidean"][k], ref)
    VI = np.diag(1 / sd**2)  # whitening by the component sds = Mahalanobis with a diagonal covariance
    ref = KNeighborsClassifier(k, algorithm="brute", metric="mahalanobis", metric_params={"VI": VI}).fit(X, y)
    np.testing.assert_array_equal(out.pred["class_blind"][k], ref.predict(Q))


@pytest.mark.parametrize("p", [6, 40])  # more documents than dimensions (dense Cholesky), and fewer (Woodbury)
def test_pooled_equals_kneighbors_with_the_pooled_covariance(rng, p):
    X, g = random_groups(rng, [14, 10, 8], p)
    y = np.array(["a", "b", "c"])[g]
    Q = rng.normal(size=(15, p)) + 3
    means = np.array([X[g == i].mean(axis=0) for i in range(3)])
    VI = np.linalg.inv(shrunk_residual_covariance(X - means[g], 3))
    out = mahalanobis_readings(X, y, Q, ks=[1, 3, 5], readings=["pooled"], loo=True)
    for k in (1, 3, 5):
        ref = KNeighborsClassifier(k, algorithm="brute", metric="mahalanobis", metric_params={"VI": VI})
        np.testing.assert_array_equal(out.pred["pooled"][k], ref.fit(X, y).predict(Q))
        loo = cross_val_predict(ref, X, y, cv=LeaveOneOut())  # refits, but the covariance is fixed
        assert out.loo_accuracy["pooled"][k] == pytest.approx(np.mean(loo == y))


def test_per_category_uses_each_documents_category_covariance(corpus):
    X, y, Q = corpus
    VI = {c: np.linalg.inv(estimate_covariance(X[y == c], "ledoit_wolf")) for c in np.unique(y)}
    D = np.array([[mahalanobis(q, x, VI[c]) ** 2 for x, c in zip(X, y)] for q in Q])
    out = mahalanobis_readings(X, y, Q, ks=[1, 3], readings=["per_category", "nearest_category"], loo=False)
    for k in (1, 3):
        near = np.argsort(D, axis=1, kind="stable")[:, :k]
        ref = [max(sorted(set(y[r])), key=list(y[r]).count) for r in near]  # majority, ties to the first name
        np.testing.assert_array_equal(out.pred["per_category"][k], ref)
    # the nearest category mean under its own covariance: the dense classifier, unguarded
    ref = MahalanobisCentroidClassifier("ledoit_wolf", degenerate_rtol=None).fit(X, y).predict(Q)
    np.testing.assert_array_equal(out.pred["nearest_category"][0], ref)
    assert set(out.info["shrinkage"]) == {"earn", "grain", "trade"}


def test_weighted_reading_is_distance_weighted_knn(corpus):
    X, y, Q = corpus
    sd = X.std(axis=0, ddof=1)
    out = mahalanobis_readings(X, y, Q, sd, ks=[3, 5], readings=["weighted"], loo=True)
    for k in (3, 5):
        ref = KNeighborsClassifier(k, weights="distance", algorithm="brute").fit(X / sd, y)
        np.testing.assert_allclose(out.proba[k], ref.predict_proba(Q / sd))
        np.testing.assert_array_equal(out.pred["weighted"][k], ref.predict(Q / sd))
        loo = cross_val_predict(ref, X / sd, y, cv=LeaveOneOut())
        assert out.loo_accuracy["weighted"][k] == pytest.approx(np.mean(loo == y))


def test_multi_label_readings(rng):
    X, g = random_groups(rng, [12, 10, 9], 5)
    Y = np.eye(3, dtype=int)[g]
    Y[:4, 1] = 1  # four documents of category 0 also carry category 1
    Q = rng.normal(size=(10, 5)) * 2 + 3
    out = mahalanobis_readings(X, Y, Q, X.std(axis=0, ddof=1), ks=[3, 4], loo=True)
    assert set(out.pred) == {"euclidean", "class_blind", "pooled", "nearest_category"}  # the others need single labels
    for k in (3, 4):  # per label: assigned when more than half of the k neighbours carry it
        ref = KNeighborsClassifier(k, algorithm="brute").fit(X, Y).predict(Q)
        np.testing.assert_array_equal(out.pred["euclidean"][k], ref)
    assert (out.pred["nearest_category"][0].sum(axis=1) == 1).all()
    # category 1's mean and covariance count the four documents that also carry it
    docs, labels = np.nonzero(Y)
    ref = MahalanobisCentroidClassifier("ledoit_wolf", degenerate_rtol=None).fit(X[docs], labels).predict(Q)
    np.testing.assert_array_equal(out.pred["nearest_category"][0].argmax(axis=1), ref)
    with pytest.raises(ValueError, match=r"\['per_category'\] need single labels"):
        mahalanobis_readings(X, Y, Q, readings=["per_category"])


def test_readings_bad_inputs(corpus):
    X, y, Q = corpus
    with pytest.raises(ValueError, match=r"every k must lie in \[1, 31\]"):
        mahalanobis_readings(X, y, Q, ks=[40], readings=["euclidean"])
    with pytest.raises(ValueError, match="unknown reading"):
        mahalanobis_readings(X, y, Q, readings=["cosine"])
    with pytest.raises(ValueError, match="need sd"):
        mahalanobis_readings(X, y, Q, readings=["class_blind"])
    with pytest.raises(ValueError, match=r"categories \['solo'\] have fewer than two"):
        mahalanobis_readings(X, np.r_[y[:-1], ["solo"]], Q, readings=["nearest_category"])
    with pytest.raises(ValueError, match="same columns"):
        mahalanobis_readings(X, y, Q[:, :3])
    assert best_k({3: 0.5, 4: 0.7, 9: 0.7}) == 4


def test_component_sweep_at_full_dimension_equals_the_readings(corpus):
    X, y, Q = corpus
    sd = X.std(axis=0, ddof=1)
    rows = component_sweep(X, y, Q, y[:15], sd, [2, 6], [1, 3])
    out = mahalanobis_readings(X, y, Q, sd, ks=[1, 3], readings=["euclidean", "class_blind"], loo=False)
    for r in rows:
        if r["components"] == 6:
            assert r["accuracy"] == pytest.approx(np.mean(out.pred[r["reading"]][r["k"]] == y[:15]))
    two = KNeighborsClassifier(3, algorithm="brute").fit(X[:, :2], y).predict(Q[:, :2])
    (row,) = [r for r in rows if (r["reading"], r["components"], r["k"]) == ("euclidean", 2, 3)]
    assert row["accuracy"] == pytest.approx(np.mean(two == y[:15]))
    with pytest.raises(ValueError, match=r"components must lie in \[1, 6\]"):
        component_sweep(X, y, Q, y[:15], sd, [7])


# ---------------------------------------------------------------------------- baselines and scores

def test_baselines_equal_scikit_learn(rng):
    counts = rng.integers(0, 4, size=(30, 8)).astype(float)
    y = np.repeat(["a", "b", "c"], 10)
    counts[y == "a", 0] += 5
    tfidf = TfidfTransformer().fit_transform(counts)
    pred = baseline_predictions((counts, counts[:6]), (tfidf, tfidf[:6]), y)
    np.testing.assert_array_equal(pred["naive Bayes"], MultinomialNB().fit(counts, y).predict(counts[:6]))
    np.testing.assert_array_equal(pred["Rocchio"], NearestCentroid().fit(tfidf, y).predict(tfidf[:6]))
    assert set(pred) == {"naive Bayes", "Rocchio", "linear SVM"}
    with pytest.raises(ValueError, match="unknown method"):
        baseline_predictions((counts, counts), (tfidf, tfidf), y, methods=["kNN"])


@pytest.mark.parametrize("multi", [False, True])
def test_prf_scores_equal_scikit_learn(rng, multi):
    if multi:
        y_true, y_pred = rng.integers(0, 2, size=(40, 4)), rng.integers(0, 2, size=(40, 4))
        classes = None
    else:
        y_true, y_pred = rng.choice(list("abcd"), size=40), rng.choice(list("abce"), size=40)
        classes = None
    s = prf_scores(y_true, y_pred, classes)
    for avg in ("micro", "macro"):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=avg, zero_division=0)
        assert (s[f"{avg}_precision"], s[f"{avg}_recall"], s[f"{avg}_f1"]) == pytest.approx((p, r, f))
    exact = np.all(y_true == y_pred, axis=1) if multi else y_true == y_pred
    assert s["accuracy"] == pytest.approx(exact.mean())
    assert list(s) == list(SCORES)


def test_permutation_test_equals_exact_enumeration():
    y = np.array([0, 0, 1, 1, 2, 2, 0, 1])
    a = np.array([0, 0, 1, 1, 2, 0, 0, 1])
    b = np.array([0, 1, 1, 0, 2, 0, 1, 1])
    diff, p = paired_permutation_test(y, a, b, "macro_f1", n_resamples=10_000)  # 2^8 < 10,000: exact
    stat = lambda pa, pb: prf_scores(y, pa, [0, 1, 2])["macro_f1"] - prf_scores(y, pb, [0, 1, 2])["macro_f1"]
    assert diff == pytest.approx(stat(a, b))
    swapped = [stat(np.where(s, b, a), np.where(s, a, b)) for s in itertools.product([False, True], repeat=8)]
    swapped = np.array(swapped)
    expected = min(1.0, 2 * min(np.mean(swapped >= diff - 1e-12), np.mean(swapped <= diff + 1e-12)))
    assert p == pytest.approx(expected)


def test_permutation_test_of_identical_classifiers_and_bad_inputs():
    y = np.array(["a", "b", "a", "b"])
    diff, p = paired_permutation_test(y, y, y, "accuracy")
    assert diff == 0.0 and p == 1.0
    with pytest.raises(ValueError, match="score must be one of"):
        paired_permutation_test(y, y, y, "f2")
    with pytest.raises(ValueError, match="same shape"):
        paired_permutation_test(y, y[:3], y)


@pytest.mark.parametrize("sparse", [False, True])
def test_knn_sweep_equals_kneighbors_classifier(corpus, sparse):
    X, y, Q = corpus
    Xin, Qin = (sp.csr_matrix(X), sp.csr_matrix(Q)) if sparse else (X, Q)
    out = knn_sweep(Xin, y, Qin, [1, 4, 9])
    for k in (1, 4, 9):
        np.testing.assert_array_equal(out[k], KNeighborsClassifier(k, algorithm="brute").fit(X, y).predict(Q))
    with pytest.raises(ValueError, match=r"every k must lie in \[1, 32\]"):
        knn_sweep(X, y, Q, [33])


def test_summary_chooses_k_by_test_accuracy_and_by_leave_one_out(corpus):
    X, y, Q = corpus
    y_q = KNeighborsClassifier(1).fit(X, y).predict(Q)  # test labels that favour k = 1
    out = mahalanobis_readings(X, y, Q, X.std(axis=0, ddof=1), ks=[1, 3, 5], loo=True)
    table = summarize_readings(out, y_q)
    assert list(table.index) == ["euclidean", "class_blind", "weighted", "pooled", "per_category", "nearest_category"]
    assert table.loc["euclidean", "k"] == 1 and table.loc["euclidean", "accuracy"] == 1.0
    assert table.loc["euclidean", "k (LOO)"] == best_k(out.loo_accuracy["euclidean"])
    assert table.loc["nearest_category", "k"] == 0
    k = table.loc["pooled", "k"]
    scores = prf_scores(y_q, out.pred["pooled"][k], out.classes)  # averaged over every training category
    assert table.loc["pooled", "macro_f1"] == pytest.approx(scores["macro_f1"])


def test_training_size_curve_uses_stratified_subsets(corpus):
    X, y, Q = corpus
    y_q = KNeighborsClassifier(3).fit(X, y).predict(Q)
    curve, preds = training_size_curve(X, y, Q, y_q, X.std(axis=0, ddof=1), [0.5, 1.0], ks=[1, 3],
                                       readings=["euclidean", "nearest_category"])
    assert curve["training documents"].tolist() == [16, 16, 32, 32]
    full = curve[(curve["fraction"] == 1.0) & (curve["reading"] == "euclidean")].iloc[0]
    assert full["accuracy"] == 1.0 and full["error"] == 0.0 and full["k"] == 3
    np.testing.assert_array_equal(preds[(1.0, "euclidean")], y_q)
    full = mahalanobis_readings(X, y, Q, ks=[1, 3], readings=["euclidean"], loo=False)
    again, _ = training_size_curve(X, y, Q, y_q, None, [1.0], ks=[1, 3], readings=["euclidean"], full=full)
    assert again["accuracy"].tolist() == [1.0]  # the whole-set readings are reused, not refitted
    with pytest.raises(ValueError, match=r"fractions must lie in \(0, 1\]"):
        training_size_curve(X, y, Q, y_q, X.std(axis=0), [1.5])


def test_paired_comparisons_table(rng):
    y = rng.integers(0, 3, size=60)
    better = np.where(rng.random(60) < 0.9, y, (y + 1) % 3)
    worse = np.where(rng.random(60) < 0.5, y, (y + 1) % 3)
    t = paired_comparisons(y, {"better": better}, worse, scores=["accuracy", "macro_f1"], n_resamples=199)
    assert t.loc["better", ("accuracy", "difference")] == pytest.approx(np.mean(better == y) - np.mean(worse == y))
    assert t.loc["better", ("accuracy", "p")] < 0.05


def test_category_readings_agree_across_the_dense_and_woodbury_paths(rng):
    # categories of 14, 10 and 8 documents in 9 dimensions: the first two take the dense Cholesky
    # path (more documents than dimensions), the third the Woodbury path; both equal the dense inverse
    X, g = random_groups(rng, [14, 10, 8], 9)
    y = np.array(["a", "b", "c"])[g]
    Q = rng.normal(size=(12, 9)) + 3
    VI = {c: np.linalg.inv(estimate_covariance(X[y == c], "ledoit_wolf")) for c in "abc"}
    D = np.array([[mahalanobis(q, x, VI[c]) ** 2 for x, c in zip(X, y)] for q in Q])
    out = mahalanobis_readings(X, y, Q, ks=[1], readings=["per_category", "nearest_category"], loo=True)
    np.testing.assert_array_equal(out.pred["per_category"][1], y[D.argmin(axis=1)])
    means = {c: X[y == c].mean(axis=0) for c in "abc"}
    nearest = [min("abc", key=lambda c: mahalanobis(q, means[c], VI[c])) for q in Q]
    np.testing.assert_array_equal(out.pred["nearest_category"][0], nearest)
    D_tr = np.array([[mahalanobis(a, x, VI[c]) ** 2 for x, c in zip(X, y)] for a in X])
    np.fill_diagonal(D_tr, np.inf)
    assert out.loo_accuracy["per_category"][1] == pytest.approx(np.mean(y[D_tr.argmin(axis=1)] == y))


def test_several_scores_share_one_permutation_run(rng):
    y = rng.integers(0, 3, size=80)
    a = np.where(rng.random(80) < 0.8, y, (y + 1) % 3)
    b = np.where(rng.random(80) < 0.6, y, (y + 2) % 3)
    diffs, ps = paired_permutation_test(y, a, b, ["accuracy", "macro_recall"], n_resamples=299)
    for score, d, p in zip(["accuracy", "macro_recall"], diffs, ps):
        assert (d, p) == pytest.approx(paired_permutation_test(y, a, b, score, n_resamples=299))
