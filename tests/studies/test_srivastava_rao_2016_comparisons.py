"""helpers.studies.srivastava_rao_2016.comparisons: the evidence for the paper's claims, from predictions."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.neighbors import KNeighborsClassifier

from helpers.comparisons import effects_against
from helpers.effects import paired_bootstrap
from helpers.evaluation import prf_scores
from helpers.significance import mcnemar_exact
from helpers.studies.srivastava_rao_2016 import (
    BALANCE_KEYS,
    PR_SCORES,
    READING_KEYS,
    READINGS,
    KnnOptions,
    accuracy_by_k,
    balance_claims,
    chosen_readings,
    component_sweep,
    conventional_claims,
    dimension_claims,
    f1_identities,
    invertibility_claim,
    k_choice_note,
    knn_by_dimension,
    knn_vote_claim,
    mahalanobis_readings,
    measure_claims,
    never_assigning,
    predictions_at,
    probability_as_uncertainty,
    reading_claims,
    reconstruction,
    score_differences,
    summarize_readings,
    tied_disagreements,
)


@pytest.fixture
def three_topics(rng):
    """Three categories in 5 dimensions, 20 training and 30 test documents each."""
    centres = np.array([[0, 0, 0, 0, 0], [2.5, 0, 0, 0, 0], [0, 2.5, 0, 0, 0]])
    X = np.vstack([rng.normal(size=(50, 5)) + c for c in centres])
    y = np.repeat(np.array(["acq", "earn", "grain"]), 50)
    train = np.tile(np.arange(50) < 20, 3)
    return X[train], y[train], X[~train], y[~train]


@pytest.fixture
def readings(three_topics):
    X_tr, y_tr, X_te, y_te = three_topics
    out = mahalanobis_readings(X_tr, y_tr, X_te, KnnOptions(sd=X_tr.std(axis=0, ddof=1), ks=[3, 5]), loo=True)
    return out, summarize_readings(out, y_te), y_te


def test_chosen_readings_take_each_readings_k_and_the_most_accurate(readings):
    out, summary, y_te = readings
    k_of, acc, pred, favoured = chosen_readings(out, summary)
    assert k_of == summary["k"].to_dict() and k_of["nearest_category"] == 0
    for r in READINGS:
        np.testing.assert_array_equal(pred[r], out.pred[r][k_of[r]])
        assert acc[r] == pytest.approx(np.mean(pred[r] == y_te))
    best = max(acc[r] for r in READINGS if r != "euclidean")
    assert favoured != "euclidean" and acc[favoured] == best
    assert predictions_at(out, k_of).keys() == pred.keys()


def test_reading_claims_compare_each_reading_with_euclidean_knn(readings):
    out, summary, y_te = readings
    k_of, acc, pred, _ = chosen_readings(out, summary)
    mcnemar = {r: mcnemar_exact(y_te, pred[r], pred["euclidean"]) for r in READING_KEYS}
    effects = effects_against(y_te, {r: pred[r] for r in READING_KEYS}, pred["euclidean"], n_resamples=199)
    claims = reading_claims(effects, mcnemar, acc, k_of, 5)
    assert list(claims) == list(READING_KEYS.values())
    for r, key in READING_KEYS.items():
        b, c, p = mcnemar[r]
        effect = claims[key]["effect"]
        assert effect is effects[r] and effect["effect"] == pytest.approx(acc[r] - acc["euclidean"])
        assert effect["interval"][0] <= effect["effect"] <= effect["interval"][1]
        assert (f"on the 5 components of 90% of our vocabulary's variance; {b} test documents right only with this "
                f"reading, {c} only with Euclidean kNN (McNemar p = {p:.1e})") in claims[key]["evidence"]
    assert claims["reading.class-blind"]["how"] is None and claims["reading.weighted"]["how"] is None
    assert claims["reading.pooled"]["how"].startswith("Ledoit-Wolf shrunk covariances")
    assert "(no k)" in claims["reading.nearest-category"]["evidence"]


def test_tied_disagreements_count_only_ties():
    Z = np.array([[0.0], [1.0], [3.0], [7.0]])
    y = np.array(["a", "b", "b", "a"])
    query = np.array([[0.5], [6.0]])  # the first is as far from a as from b
    sklearn_1nn = KNeighborsClassifier(1, algorithm="brute").fit(Z, y).predict(query)
    other = np.where(np.arange(2) == 0, np.where(sklearn_1nn[0] == "a", "b", "a"), sklearn_1nn)
    assert tied_disagreements(Z, y, query, {1: sklearn_1nn}, [1]) == (0, 0)
    assert tied_disagreements(Z, y, query, {1: other}, [1]) == (1, 1)
    wrong = sklearn_1nn.copy()
    wrong[1] = "b"  # the second query's nearest is 7.0 (a), 3.0 is far: not a tie
    assert tied_disagreements(Z, y, query, {1: wrong}, [1]) == (1, 0)
    holds, evidence = knn_vote_claim(Z, y, query, {1: wrong, 3: KNeighborsClassifier(3).fit(Z, y).predict(query)},
                                     [1, 3])
    assert not holds
    assert evidence.startswith("our majority votes equal KNeighborsClassifier's on the 2 test documents for k = 1 "
                               "and k = 3, except 1 document(s)")


def test_probability_as_uncertainty_equals_scipy_and_sklearn(rng):
    proba = rng.dirichlet([1, 1, 1], size=60)
    y = rng.integers(0, 3, size=60)
    pred = proba.argmax(axis=1)
    u = probability_as_uncertainty(proba, pred, y, n_resamples=199)
    right = pred == y
    assert u["auc"] == pytest.approx(roc_auc_score(right, proba.max(axis=1)))
    assert u["effect"]["effect"] == pytest.approx(u["auc"] - 0.5)
    assert u["effect"]["p"] == pytest.approx(stats.mannwhitneyu(proba.max(axis=1)[right],
                                                                 proba.max(axis=1)[~right]).pvalue)
    low, high = u["effect"]["interval"]
    assert low < u["effect"]["effect"] < high
    assert (u["n_right"], u["n_wrong"]) == (right.sum(), (~right).sum())
    assert u["mean_right"] == pytest.approx(proba.max(axis=1)[right].mean())


def test_never_assigning_a_class_scores_its_share_of_the_others():
    table = never_assigning(["earn"] * 6 + ["acq"] * 3 + ["grain"])
    assert table.index.tolist() == ["earn", "acq", "grain"]
    assert table["test documents"].tolist() == [6, 3, 1]
    np.testing.assert_allclose(table["accuracy of never assigning it"], [0.4, 0.7, 0.9])
    assert (table["its F1"] == 0).all()


def test_f1_identities_against_scikit_learn(rng):
    y = rng.integers(0, 4, size=80)
    pred = np.where(rng.random(80) < 0.7, y, rng.integers(0, 4, size=80))
    out = f1_identities(y, pred, [0, 1, 2, 3])
    assert out["by_counts"] and out["weighted_average"] and out["agrees_with_sklearn"]
    assert out["scores"]["macro_f1"] == pytest.approx(f1_score(y, pred, average="macro"))
    P, R = out["scores"]["macro_precision"], out["scores"]["macro_recall"]
    assert out["f1_of_means"] == pytest.approx(2 * P * R / (P + R))
    assert out["f1_of_means"] != pytest.approx(out["scores"]["macro_f1"])


def test_accuracy_by_k():
    assert accuracy_by_k({1: np.array([0, 1, 1, 0]), 5: np.array([0, 0, 0, 0])}, [0, 1, 1, 1]) == {1: 0.75, 5: 0.25}


def test_knn_by_dimension(three_topics):
    X_tr, y_tr, X_te, y_te = three_topics
    sd = X_tr.std(axis=0, ddof=1)
    dims = knn_by_dimension(X_tr, X_te, X_tr, X_te, y_tr, y_te, [1, 2, 5], KnnOptions(sd=sd, ks=[1, 3, 5]))
    acc = {k: np.mean(KNeighborsClassifier(k).fit(X_tr, y_tr).predict(X_te) == y_te) for k in (1, 3, 5)}
    assert dims.full_accuracy == pytest.approx(max(acc.values()))
    assert dims.full_k == min(k for k, a in acc.items() if a == max(acc.values()))
    rows = pd.DataFrame(component_sweep(X_tr, y_tr, X_te, y_te, sd, [1, 2, 5], [1, 3, 5]))
    best = rows.groupby(["reading", "components"])["accuracy"].max()
    for m in (1, 2, 5):
        assert dims.curve.loc[m, "euclidean"] == best[("euclidean", m)]
        assert dims.curve.loc[m, "class_blind"] == best[("class_blind", m)]
    assert dims.peak == dims.curve["euclidean"].idxmax()
    ref = KNeighborsClassifier(dims.peak_k).fit(X_tr[:, :dims.peak], y_tr).predict(X_te[:, :dims.peak])
    np.testing.assert_array_equal(dims.peak_pred, ref)


def test_dimension_claims(three_topics):
    X_tr, y_tr, X_te, y_te = three_topics
    dims = knn_by_dimension(X_tr, X_te, X_tr, X_te, y_tr, y_te, [1, 2, 5], KnnOptions(sd=X_tr.std(axis=0), ks=[3]))
    pred1 = KNeighborsClassifier(3).fit(X_tr[:, :1], y_tr).predict(X_te[:, :1])
    claims = dimension_claims(dims, y_te, pred1, np.mean(pred1 == y_te), 1, 5, n_resamples=199)
    b, c, p = mcnemar_exact(y_te, pred1, dims.full_pred)
    assert claims["claim.knn-pca"]["effect"] == paired_bootstrap(y_te, pred1, dims.full_pred, n_resamples=199)
    assert claims["claim.knn-pca"]["effect"]["effect"] == pytest.approx(np.mean(pred1 == y_te) - dims.full_accuracy)
    assert f"(McNemar {b} vs {c} documents, p = {p:.1e})" in claims["claim.knn-pca"]["evidence"]
    assert claims["claim.knn-pca"]["how"] == reconstruction(1)
    high = claims["claim.knn-high-dimension"]["effect"]
    assert high["effect"] == pytest.approx(dims.curve["euclidean"].max() - dims.full_accuracy)
    # the best of 3 sizes: a Bonferroni interval, wider than the plain 95% one
    plain = paired_bootstrap(y_te, dims.peak_pred, dims.full_pred, n_resamples=199)
    assert high["interval"][0] <= plain["interval"][0] and high["interval"][1] >= plain["interval"][1]
    assert "98.33% interval" in high["method"] and "Bonferroni over 3 sizes of the sweep" in high["method"]
    better = int((dims.curve["euclidean"] > dims.full_accuracy).sum())
    assert f"kNN beats the full space at {better} of the 3 sizes" in claims["claim.knn-high-dimension"]["evidence"]


def test_k_choice_note():
    summary = pd.DataFrame({"k": [4, 3, 0], "k (LOO)": [5.0, 3.0, 0]}, index=["euclidean", "weighted",
                                                                             "nearest_category"])
    assert k_choice_note(summary) == ("best k by test accuracy: euclidean 4, weighted 3; by leave-one-out on the "
                                      "training documents: euclidean 5, weighted 3")


def test_score_differences_and_balance_claims(readings):
    out, summary, y_te = readings
    _, acc, pred, favoured = chosen_readings(out, summary)
    classes = ["acq", "earn", "grain"]
    mahal = {READINGS[r]: pred[r] for r in READINGS if r != "euclidean"}
    diffs = score_differences(y_te, mahal, pred["euclidean"], PR_SCORES, classes)
    assert diffs.index.tolist() == list(mahal) and diffs.columns.tolist() == PR_SCORES
    ref = prf_scores(y_te, pred["euclidean"], classes)
    name = READINGS[favoured]
    for score in PR_SCORES:
        assert diffs.loc[name, score] == pytest.approx(prf_scores(y_te, pred[favoured], classes)[score] - ref[score])
    # one label per document: micro precision, recall and F1 are all accuracy
    for score in ("micro_precision", "micro_recall", "micro_f1"):
        assert diffs[score].tolist() == pytest.approx([acc[r] - acc["euclidean"] for r in READINGS if r != "euclidean"])
    claims = balance_claims(y_te, pred[favoured], pred["euclidean"], name, diffs, classes, KnnOptions(n_resamples=199))
    assert list(claims) == list(BALANCE_KEYS)
    for key, score in BALANCE_KEYS.items():
        assert claims[key]["effect"] == paired_bootstrap(y_te, pred[favoured], pred["euclidean"], score=score,
                                                         classes=classes, n_resamples=199)
        ahead = int((diffs[score] > 0).sum())
        assert f"; {ahead} of 5 readings ahead" in claims[key]["evidence"]
    assert claims["claim.balance.micro"]["evidence"].endswith("F1 is the balance of precision and recall the paper "
                                                              "uses (line 293)")
    assert "micro precision, recall and F1 all equal accuracy" in claims["claim.precision.micro"]["evidence"]


def test_measure_claims(readings):
    out, summary, y_te = readings
    _, acc, pred, _ = chosen_readings(out, summary)
    never = never_assigning(y_te)
    claims = measure_claims(y_te, pred, acc, never, f1_identities(y_te, pred["euclidean"], ["acq", "earn", "grain"]))
    assert {k: a[0] for k, a in claims.items()} == {"eq19": True, "claim.accuracy-small-classes": False,
                                                    "pr.definition": True, "f1.definition": True,
                                                    "micro-macro.definition": True}
    assert claims["claim.accuracy-small-classes"][1].startswith("never assigning grain (30 of 90 test documents) is "
                                                                "right about it for 66.7% of the documents")
    bad = measure_claims(y_te, pred, {**acc, "pooled": acc["pooled"] + 0.01}, never,
                         f1_identities(y_te, pred["euclidean"], ["acq", "earn", "grain"]))
    assert not bad["eq19"][0]


def test_conventional_claims(readings):
    out, summary, y_te = readings
    _, acc, pred, favoured = chosen_readings(out, summary)
    classes = ["acq", "earn", "grain"]
    base = {"naive Bayes": pred["pooled"], "Rocchio": pred["class_blind"]}
    mahal = [r for r in READINGS if r != "euclidean"]
    mcnemar = {r: mcnemar_exact(y_te, pred[r], pred["euclidean"]) for r in mahal}
    against = effects_against(y_te, {r: pred[r] for r in mahal}, pred["euclidean"], classes=classes, n_resamples=99)
    options = KnnOptions(sd=np.ones(5), n_resamples=99)   # readings on 5 components
    claims = conventional_claims(y_te, pred, favoured, base, against, mcnemar, classes, options)
    assert all(c["how"] == reconstruction(5) for c in claims.values())
    assert list(claims) == ["claim.macro-best", "claim.f1-vs-conventional", "claim.accuracy-vs-nb",
                            "claim.accuracy-vs-euclidean"]
    rivals = {"naive Bayes": base["naive Bayes"], "Rocchio": base["Rocchio"], "Euclidean kNN": pred["euclidean"]}
    macro = claims["claim.macro-best"]["comparisons"]
    assert list(macro) == [f"macro F1 vs {r}" for r in rivals]
    for rival, p in rivals.items():
        assert macro[f"macro F1 vs {rival}"] == paired_bootstrap(y_te, pred[favoured], p, score="macro_f1",
                                                                 classes=classes, n_resamples=99)
    both = claims["claim.f1-vs-conventional"]["comparisons"]
    assert set(both) == set(macro) | {f"micro F1 vs {r}" for r in rivals}
    nb = claims["claim.accuracy-vs-nb"]["effect"]
    assert nb["effect"] == pytest.approx(acc[favoured] - acc["pooled"])
    b, c, p = mcnemar_exact(y_te, pred[favoured], pred["pooled"])
    assert f"(McNemar: {b} vs {c} documents, p = {p:.1e})" in claims["claim.accuracy-vs-nb"]["evidence"]
    assert claims["claim.accuracy-vs-euclidean"]["effect"] is against[favoured]
    assert claims["claim.accuracy-vs-euclidean"]["evidence"].count(" [") == len(mahal)


def test_invertibility_claim():
    table1 = pd.Series({"earn": 2877, "corn": 181})
    out = invertibility_claim(pd.Series([2840, 41], index=["earn", "grain"]), 3059, table1)
    assert not out["holds"] and out["how"] == ("our reconstruction of the paper's PCA: 90% of the variance of our "
                                               "vocabulary (every stem, no keyword threshold, documents of unit "
                                               "length), 3,059 components")
    assert out["evidence"] == ("d = 3,059; the largest category (earn) has 2,840 training documents, so every "
                               "category's sample covariance has rank below d and no inverse (with all their topics, "
                               "earn has 2,877); the readings below shrink each covariance (Ledoit-Wolf)")
    # each category must outnumber d: the smallest decides
    assert not invertibility_claim(pd.Series([300, 90], index=["earn", "grain"]), 100, table1)["holds"]
    assert invertibility_claim(pd.Series([300, 120], index=["earn", "grain"]), 100, table1)["holds"]
    vocab = pd.DataFrame({"components": [168, 317, 568]}, index=pd.Index([250, 500, 1000], name="keywords"))
    assert invertibility_claim(pd.Series([2840], index=["earn"]), 3059, table1, vocab)["evidence"].endswith(
        "90% of the variance needs 168 components at 250 keywords, 317 components at 500 keywords, 568 components at "
        "1,000 keywords: only a vocabulary near 250 keywords or fewer brings d below corn's 181 training documents")
    assert invertibility_claim(pd.Series([2840], index=["earn"]), 3059, table1, vocab.iloc[1:])["evidence"].endswith(
        "none brings d below corn's 181 training documents")
