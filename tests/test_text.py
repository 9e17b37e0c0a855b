"""Tests of helpers.text against hand calculations, scikit-learn and scipy."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import mahalanobis
from sklearn.decomposition import PCA
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.metrics import f1_score
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from nltk.stem import PorterStemmer

from helpers import text as T

from helpers.text import (
    GramPCA,
    MahalanobisCentroidClassifier,
    PaperTfidfTransformer,
    StemmingAnalyzer,
    knn_component_sweep,
    knn_sweep,
    make_vectorizer,
    nearest_category_predict,
    rocchio_ovr_predict,
    score_methods,
    vectorize_corpus,
)
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


def test_sklearn_tfidf_end_to_end():
    docs = OIL + WHEAT
    y = np.array(["crude"] * 6 + ["wheat"] * 6)
    vec, (c_tr, c_te), (w_tr, w_te) = vectorize_corpus(docs, docs, "sklearn", progress=False)
    words = vec[0].get_feature_names_out().tolist()
    # sklearn's smooth idf: ln((1 + N) / (1 + df)) + 1; 'oil' is in 5 of 12 documents, 'opec' in 1
    idf = vec[1].idf_
    assert idf[words.index("oil")] == pytest.approx(np.log(13 / 6) + 1)
    assert idf[words.index("opec")] == pytest.approx(np.log(13 / 2) + 1)
    np.testing.assert_allclose(w_tr.toarray(), TfidfTransformer().fit_transform(c_tr).toarray())
    np.testing.assert_allclose(sp.linalg.norm(w_tr, axis=1), 1.0)
    pca = GramPCA(0.9, max_components=4).fit(w_tr)
    assert pca.n_components_ == 4  # 90% of the variance needs more: the cap binds
    Z = pca.transform(w_tr)
    feats = {"counts": (c_tr, c_te), "tfidf": (w_tr, w_te), "scores": (Z, Z), "sd": np.sqrt(pca.explained_variance_)}
    out = score_methods(feats, y, y, k=1, n_components=4, estimator=0.5, progress=False)
    for name in ["naive Bayes", "Rocchio", "Euclidean kNN", "Mahal-kNN (pooled)", "linear SVM"]:
        assert out[name]["micro"] == pytest.approx(1.0), name  # training = test: all separable


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


def test_nearest_category_counts_multi_label_documents_for_each_category(rng):
    Z = np.vstack([rng.normal(size=(20, 2)), rng.normal(size=(20, 2)) + [6, 0], rng.normal(size=(20, 2)) + [0, 6]])
    Y = np.zeros((60, 3), dtype=int)
    Y[np.arange(60), np.repeat([0, 1, 2], 20)] = 1
    Y[:5, 1] = 1  # five documents of category 0 also carry category 1
    Q = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0], [5.5, 0.5]])
    pred = nearest_category_predict(Z, Y, Q, "sample")
    np.testing.assert_array_equal(pred, [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0]])
    # the same as the single-label classifier fitted on (document, category) pairs
    docs, labels = np.nonzero(Y)
    ref = MahalanobisCentroidClassifier("sample").fit(Z[docs], labels)
    np.testing.assert_allclose(ref.means_[1], Z[Y[:, 1] == 1].mean(axis=0))
    np.testing.assert_array_equal(pred.argmax(axis=1), ref.predict(Q))
    with pytest.raises(ValueError, match="indicator matrix"):
        nearest_category_predict(Z, Y[:, 0], Q)


def test_knn_component_sweep_matches_kneighbors_classifier(rng):
    Z, Q = rng.normal(size=(50, 6)), rng.normal(size=(20, 6))
    y, y_q = rng.choice(["a", "b"], size=50), rng.choice(["a", "b"], size=20)
    sd = Z.std(axis=0, ddof=1)
    out = knn_component_sweep(Z, y, Q, y_q, sd, [2, 6], [1, 3], progress=False)
    assert len(out) == 2 * 2 * 2 and set(out["method"]) == {"Euclidean kNN", "Mahal-kNN (pooled)"}
    cell = out.set_index(["method", "components", "k"])
    ref = KNeighborsClassifier(3, algorithm="brute").fit(Z[:, :2] / sd[:2], y).predict(Q[:, :2] / sd[:2])
    assert cell.loc[("Mahal-kNN (pooled)", 2, 3), "macro"] == pytest.approx(f1_score(y_q, ref, average="macro"))
    ref = KNeighborsClassifier(1, algorithm="brute").fit(Z, y).predict(Q)
    assert cell.loc[("Euclidean kNN", 6, 1), "micro"] == pytest.approx(f1_score(y_q, ref, average="micro"))
    with pytest.raises(ValueError, match="components go up to 7 but only 6"):
        knn_component_sweep(Z, y, Q, y_q, sd, [7], [1])


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
    out = score_methods(feats, y, y, k=3, n_components=2, progress=False)
    assert list(out) == list(T.METHODS) and len(out) == 7
    for name, f in out.items():
        assert f["macro"] == pytest.approx(1.0), name
        assert f["micro"] == pytest.approx(1.0), name
    with pytest.raises(ValueError, match="n_components=5 but only 3"):
        score_methods(feats, y, y, n_components=5)


def test_score_methods_multi_label_readings_of_mahalanobis(rng):
    # three well-separated categories, every document has exactly one label: the nearest-category
    # reading is then exact, while one-vs-rest also runs and yields an indicator matrix
    centers = np.eye(3) * 6
    labels = np.repeat([0, 1, 2], 20)
    X = np.abs(centers[labels] + rng.normal(size=(60, 3)) * 0.3)
    Y = np.eye(3, dtype=int)[labels]
    pca = GramPCA(3).fit(X)
    Z = pca.transform(X)
    feats = {"counts": (X, X), "tfidf": (X, X), "scores": (Z, Z), "sd": np.sqrt(pca.explained_variance_)}
    out = score_methods(feats, Y, Y, k=3, n_components=2, progress=False)
    assert out["Mahal (nearest category)"]["micro"] == pytest.approx(1.0)
    assert out["Euclidean kNN"]["macro"] == pytest.approx(1.0)
    assert 0.0 <= out["Mahal (per-category)"]["micro"] <= 1.0
