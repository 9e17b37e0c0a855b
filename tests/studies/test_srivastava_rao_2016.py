"""Tests of helpers.studies.srivastava_rao_2016: the readings of Mahal-kNN, the dense centroid classifier and
the baselines, against scikit-learn's KNeighborsClassifier, NearestCentroid and scipy."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import mahalanobis
from sklearn.covariance import LedoitWolf
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.model_selection import LeaveOneOut, cross_val_predict
from sklearn.naive_bayes import MultinomialNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid

from helpers.centroids import MahalanobisCentroidClassifier
from helpers.effects import paired_bootstrap
from helpers.evaluation import prf_scores
from helpers.gram import shrunk_residual_covariance
from helpers.significance import mcnemar_exact
from helpers.studies.srivastava_rao_2016 import (
    KnnOptions,
    baseline_predictions,
    best_k,
    component_sweep,
    knn_sweep,
    largest_lead,
    mahalanobis_readings,
    readings_by_components,
    rocchio_ovr_predict,
    rocchio_predict,
    summarize_readings,
    training_size_curve,
)
from helpers.whitening import estimate_covariance


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
    with pytest.raises(ValueError, match=r"The 'degenerate_rtol' parameter of MahalanobisCentroidClassifier must be "
                                         r"a float in the range \[0\.0, inf\) or None\. Got -1\.0 instead\."):
        MahalanobisCentroidClassifier(degenerate_rtol=-1.0).fit(X, y)
    # scikit-learn's interval of floats takes True for 1.0: refused after it
    with pytest.raises(ValueError, match=r"degenerate_rtol must be None or a number >= 0, e\.g\. degenerate_rtol=1e-8; "
                                         r"got True"):
        MahalanobisCentroidClassifier(degenerate_rtol=True).fit(X, y)

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

@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dense"])
def test_rocchio_predict_equals_nearest_centroid(rng, fmt):
    X = sp.random(120, 40, density=0.1, random_state=1, format="csr")
    Q = sp.random(50, 40, density=0.1, random_state=2, format="csr")
    X, Q = (X.toarray(), Q.toarray()) if fmt == "dense" else (X.asformat(fmt), Q.asformat(fmt))
    y = rng.choice(np.array(["earn", "acq", "crude", "grain", "ship"], dtype=object), 120)
    np.testing.assert_array_equal(rocchio_predict(X, y, Q), NearestCentroid().fit(X, y).predict(Q))


def test_rocchio_predict_breaks_ties_and_refuses_bad_labels():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    # the centroids of "b" and "a" coincide: the first class in sorted order wins, as in NearestCentroid
    assert rocchio_predict(X, np.array(["b", "b", "a", "a"]), np.array([[0.3, 0.3]])).tolist() == ["a"]
    with pytest.raises(ValueError, match="at least two classes"):
        rocchio_predict(X, np.array(["a"] * 4), X)
    with pytest.raises(ValueError, match="rocchio_ovr_predict"):
        rocchio_predict(X, np.eye(4, 2), X)


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

# ---------------------------------------------------------------------------- the readings

def random_groups(rng, sizes, p):
    X = np.vstack([rng.normal(size=(n, p)) * rng.uniform(0.2, 3.0, size=p) + 3 * i for i, n in enumerate(sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)

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
    out = mahalanobis_readings(X, y, Q, KnnOptions(sd=sd, ks=[k], readings=["euclidean", "class_blind"]), loo=False)
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
    out = mahalanobis_readings(X, y, Q, KnnOptions(ks=[1, 3, 5], readings=["pooled"]), loo=True)
    for k in (1, 3, 5):
        ref = KNeighborsClassifier(k, algorithm="brute", metric="mahalanobis", metric_params={"VI": VI})
        np.testing.assert_array_equal(out.pred["pooled"][k], ref.fit(X, y).predict(Q))
        loo = cross_val_predict(ref, X, y, cv=LeaveOneOut())  # refits, but the covariance is fixed
        assert out.loo_accuracy["pooled"][k] == pytest.approx(np.mean(loo == y))

def test_per_category_uses_each_documents_category_covariance(corpus):
    X, y, Q = corpus
    VI = {c: np.linalg.inv(estimate_covariance(X[y == c], "ledoit_wolf")) for c in np.unique(y)}
    D = np.array([[mahalanobis(q, x, VI[c]) ** 2 for x, c in zip(X, y)] for q in Q])
    out = mahalanobis_readings(X, y, Q, KnnOptions(ks=[1, 3], readings=["per_category", "nearest_category"]), loo=False)
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
    out = mahalanobis_readings(X, y, Q, KnnOptions(sd=sd, ks=[3, 5], readings=["weighted"]), loo=True)
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
    out = mahalanobis_readings(X, Y, Q, KnnOptions(sd=X.std(axis=0, ddof=1), ks=[3, 4]), loo=True)
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
        mahalanobis_readings(X, Y, Q, KnnOptions(readings=["per_category"]))

def test_readings_bad_inputs(corpus):
    X, y, Q = corpus
    with pytest.raises(ValueError, match=r"ks must be .* integers in \[1, 31\] \(training documents minus one\)"):
        mahalanobis_readings(X, y, Q, KnnOptions(ks=[40], readings=["euclidean"]))
    with pytest.raises(ValueError, match="unknown reading"):
        mahalanobis_readings(X, y, Q, KnnOptions(readings=["cosine"]))
    with pytest.raises(ValueError, match="need sd"):
        mahalanobis_readings(X, y, Q, KnnOptions(readings=["class_blind"]))
    with pytest.raises(ValueError, match=r"categories \['solo'\] have fewer than two"):
        mahalanobis_readings(X, np.r_[y[:-1], ["solo"]], Q, KnnOptions(readings=["nearest_category"]))
    with pytest.raises(ValueError, match="same columns"):
        mahalanobis_readings(X, y, Q[:, :3])
    assert best_k({3: 0.5, 4: 0.7, 9: 0.7}) == 4

def test_category_readings_agree_across_the_dense_and_woodbury_paths(rng):
    # categories of 14, 10 and 8 documents in 9 dimensions: the first two take the dense Cholesky
    # path (more documents than dimensions), the third the Woodbury path; both equal the dense inverse
    X, g = random_groups(rng, [14, 10, 8], 9)
    y = np.array(["a", "b", "c"])[g]
    Q = rng.normal(size=(12, 9)) + 3
    VI = {c: np.linalg.inv(estimate_covariance(X[y == c], "ledoit_wolf")) for c in "abc"}
    D = np.array([[mahalanobis(q, x, VI[c]) ** 2 for x, c in zip(X, y)] for q in Q])
    out = mahalanobis_readings(X, y, Q, KnnOptions(ks=[1], readings=["per_category", "nearest_category"]), loo=True)
    np.testing.assert_array_equal(out.pred["per_category"][1], y[D.argmin(axis=1)])
    means = {c: X[y == c].mean(axis=0) for c in "abc"}
    nearest = [min("abc", key=lambda c: mahalanobis(q, means[c], VI[c])) for q in Q]
    np.testing.assert_array_equal(out.pred["nearest_category"][0], nearest)
    D_tr = np.array([[mahalanobis(a, x, VI[c]) ** 2 for x, c in zip(X, y)] for a in X])
    np.fill_diagonal(D_tr, np.inf)
    assert out.loo_accuracy["per_category"][1] == pytest.approx(np.mean(y[D_tr.argmin(axis=1)] == y))

def test_component_sweep_at_full_dimension_equals_the_readings(corpus):
    X, y, Q = corpus
    sd = X.std(axis=0, ddof=1)
    rows = component_sweep(X, y, Q, y[:15], sd, [2, 6], [1, 3])
    out = mahalanobis_readings(X, y, Q, KnnOptions(sd=sd, ks=[1, 3], readings=["euclidean", "class_blind"]), loo=False)
    for r in rows:
        if r["components"] == 6:
            assert r["accuracy"] == pytest.approx(np.mean(out.pred[r["reading"]][r["k"]] == y[:15]))
    two = KNeighborsClassifier(3, algorithm="brute").fit(X[:, :2], y).predict(Q[:, :2])
    (row,) = [r for r in rows if (r["reading"], r["components"], r["k"]) == ("euclidean", 2, 3)]
    assert row["accuracy"] == pytest.approx(np.mean(two == y[:15]))
    with pytest.raises(ValueError, match=r"components must be .* in \[1, 6\] \(the principal components given\)"):
        component_sweep(X, y, Q, y[:15], sd, [7])

@pytest.mark.parametrize("sparse", [False, True])
def test_knn_sweep_equals_kneighbors_classifier(corpus, sparse):
    X, y, Q = corpus
    Xin, Qin = (sp.csr_matrix(X), sp.csr_matrix(Q)) if sparse else (X, Q)
    out = knn_sweep(Xin, y, Qin, [1, 4, 9])
    for k in (1, 4, 9):
        np.testing.assert_array_equal(out[k], KNeighborsClassifier(k, algorithm="brute").fit(X, y).predict(Q))
    with pytest.raises(ValueError, match=r"ks must be .* integers in \[1, 32\] \(training documents\)"):
        knn_sweep(X, y, Q, [33])

def test_summary_chooses_k_by_test_accuracy_and_by_leave_one_out(corpus):
    X, y, Q = corpus
    y_q = KNeighborsClassifier(1).fit(X, y).predict(Q)  # test labels that favour k = 1
    out = mahalanobis_readings(X, y, Q, KnnOptions(sd=X.std(axis=0, ddof=1), ks=[1, 3, 5]), loo=True)
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
    options = KnnOptions(sd=X.std(axis=0, ddof=1), ks=[1, 3], readings=["euclidean", "nearest_category"])
    curve, preds = training_size_curve(X, y, Q, y_q, [0.5, 1.0], options)
    assert curve["training documents"].tolist() == [16, 16, 32, 32]
    full = curve[(curve["fraction"] == 1.0) & (curve["reading"] == "euclidean")].iloc[0]
    assert full["accuracy"] == 1.0 and full["error"] == 0.0 and full["k"] == 3
    np.testing.assert_array_equal(preds[(1.0, "euclidean")], y_q)
    full = mahalanobis_readings(X, y, Q, KnnOptions(ks=[1, 3], readings=["euclidean"]), loo=False)
    again, _ = training_size_curve(X, y, Q, y_q, [1.0], KnnOptions(ks=[1, 3], readings=["euclidean"]), full=full)
    assert again["accuracy"].tolist() == [1.0]  # the whole-set readings are reused, not refitted
    with pytest.raises(ValueError, match=r"fractions must be numbers in \(0, 1\], e\.g\. .*; got \[1\.5\]"):
        training_size_curve(X, y, Q, y_q, [1.5], KnnOptions(sd=X.std(axis=0)))


def test_readings_refuse_a_covariance_estimator_object(corpus):
    X, y, Q = corpus
    with pytest.raises(ValueError, match=r"covariance must be 'ledoit_wolf' or a float shrinkage in \(0, 1\]; got the "
                                         r"estimator LedoitWolf\(\)"):
        mahalanobis_readings(X, y, Q, KnnOptions(ks=[3], readings=["pooled"], covariance=LedoitWolf()), loo=False)
    a = mahalanobis_readings(X, y, Q, KnnOptions(ks=[3], readings=["pooled"], covariance=0.3), loo=False)
    b = mahalanobis_readings(X, y, Q, KnnOptions(ks=[3], readings=["pooled"], covariance=0.5), loo=False)
    assert a.info["shrinkage"]["pooled"] == 0.3 and b.info["shrinkage"]["pooled"] == 0.5


def test_readings_by_components_equal_the_readings_on_the_first_components(corpus):
    X, y, Q = corpus
    y_q = KNeighborsClassifier(3).fit(X, y).predict(Q)
    sd = X.std(axis=0, ddof=1)
    acc, preds = readings_by_components(X, y, Q, y_q, [4, 2], KnnOptions(sd=sd, ks=[1, 3]))
    assert acc.index.tolist() == [2, 4]
    out = mahalanobis_readings(X[:, :2], y, Q[:, :2], KnnOptions(sd=sd[:2], ks=[1, 3]), loo=False)
    summary = summarize_readings(out, y_q)
    assert acc.loc[2].to_dict() == summary["accuracy"].to_dict()
    for r in out.pred:
        np.testing.assert_array_equal(preds[(2, r)], out.pred[r][summary.loc[r, "k"]])
    full = mahalanobis_readings(X, y, Q, KnnOptions(sd=sd, ks=[1, 3]), loo=False)
    full_summary = summarize_readings(full, y_q)
    acc6, preds6 = readings_by_components(X, y, Q, y_q, [2], KnnOptions(sd=sd, ks=[1, 3]),
                                          full=(full_summary, {r: p[full_summary.loc[r, "k"]]
                                                               for r, p in full.pred.items()}))
    assert acc6.index.tolist() == [2, 6] and acc6.loc[6, "euclidean"] == 1.0  # y_q are 3-NN labels
    assert (6, "pooled") in preds6


def test_largest_lead_finds_where_a_reading_leads_euclidean_knn_most():
    y = np.array([0, 1] * 10)
    wrong = lambda n: np.where(np.arange(20) < n, 1 - y, y)  # noqa: E731
    acc = pd.DataFrame({"euclidean": [0.9, 0.7, 0.8], "pooled": [0.85, 0.8, 0.8], "weighted": [0.8, 0.8, 0.85]},
                       index=[10, 50, 100])
    preds = {(50, "euclidean"): wrong(6), (50, "weighted"): wrong(4), (50, "pooled"): wrong(4)}
    lead = largest_lead(acc, preds, y, n_resamples=199)
    # leads: 10 -> -0.05, 50 -> +0.1, 100 -> +0.05; at 50 weighted and pooled tie: pooled comes first in READINGS
    assert (lead["components"], lead["reading"]) == (50, "pooled")
    assert (lead["accuracy"], lead["reference_accuracy"]) == (0.8, 0.7)
    assert (lead["b"], lead["c"], lead["p"]) == mcnemar_exact(y, wrong(4), wrong(6))
    assert lead["effect"] == paired_bootstrap(y, wrong(4), wrong(6), n_resamples=199)
    # the best of 2 readings at 3 sizes: a Bonferroni interval over the 6 looks, wider than the plain one
    assert lead["looks"] == 6 and "99.17% interval" in lead["adjusted"]["method"]
    assert lead["adjusted"]["interval"][0] <= lead["effect"]["interval"][0]
    assert lead["adjusted"]["interval"][1] >= lead["effect"]["interval"][1]
