"""helpers.studies.srivastava_rao_2016.comparisons: the evidence for the paper's claims, from predictions."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.neighbors import KNeighborsClassifier

from helpers.evaluation import prf_scores
from helpers.significance import mcnemar_exact, paired_comparisons
from helpers.studies.srivastava_rao_2016 import (
    BALANCE_KEYS,
    PR_SCORES,
    READING_KEYS,
    READINGS,
    accuracy_by_k,
    against_best_rival,
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
    out = mahalanobis_readings(X_tr, y_tr, X_te, X_tr.std(axis=0, ddof=1), ks=[3, 5], loo=True)
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
    claims = reading_claims(mcnemar, acc, k_of)
    assert list(claims) == list(READING_KEYS.values())
    for r, key in READING_KEYS.items():
        b, c, p = mcnemar[r]
        assert claims[key]["effect"] == pytest.approx(acc[r] - acc["euclidean"]) and claims[key]["p"] == p
        assert f"{b} test documents right only with this reading, {c} only with Euclidean kNN" in \
            claims[key]["evidence"]
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
    u = probability_as_uncertainty(proba, pred, y)
    right = pred == y
    assert u["auc"] == pytest.approx(roc_auc_score(right, proba.max(axis=1)))
    assert u["p"] == pytest.approx(stats.mannwhitneyu(proba.max(axis=1)[right], proba.max(axis=1)[~right]).pvalue)
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
    assert out["weighted_average"] and out["agrees_with_sklearn"]
    assert out["scores"]["macro_f1"] == pytest.approx(f1_score(y, pred, average="macro"))
    P, R = out["scores"]["macro_precision"], out["scores"]["macro_recall"]
    assert out["f1_of_means"] == pytest.approx(2 * P * R / (P + R))
    assert out["f1_of_means"] != pytest.approx(out["scores"]["macro_f1"])


def test_accuracy_by_k():
    assert accuracy_by_k({1: np.array([0, 1, 1, 0]), 5: np.array([0, 0, 0, 0])}, [0, 1, 1, 1]) == {1: 0.75, 5: 0.25}


def test_knn_by_dimension(three_topics):
    X_tr, y_tr, X_te, y_te = three_topics
    sd = X_tr.std(axis=0, ddof=1)
    dims = knn_by_dimension(X_tr, X_te, X_tr, X_te, y_tr, y_te, sd, [1, 2, 5], [1, 3, 5])
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
    dims = knn_by_dimension(X_tr, X_te, X_tr, X_te, y_tr, y_te, X_tr.std(axis=0), [1, 2, 5], [3])
    pred1 = KNeighborsClassifier(3).fit(X_tr[:, :1], y_tr).predict(X_te[:, :1])
    claims = dimension_claims(dims, y_te, pred1, np.mean(pred1 == y_te), 1, 5)
    b, c, p = mcnemar_exact(y_te, pred1, dims.full_pred)
    assert claims["claim.knn-pca"]["effect"] == pytest.approx(np.mean(pred1 == y_te) - dims.full_accuracy)
    assert claims["claim.knn-pca"]["p"] == p
    assert f"(McNemar {b} vs {c} documents)" in claims["claim.knn-pca"]["evidence"]
    assert claims["claim.knn-high-dimension"]["effect"] == pytest.approx(dims.curve["euclidean"].max()
                                                                         - dims.full_accuracy)
    better = int((dims.curve["euclidean"] > dims.full_accuracy).sum())
    assert f"kNN beats the full space at {better} of the 3 sizes" in claims["claim.knn-high-dimension"]["evidence"]


def test_k_choice_note():
    summary = pd.DataFrame({"k": [4, 3, 0], "k (LOO)": [5.0, 3.0, 0]}, index=["euclidean", "weighted",
                                                                             "nearest_category"])
    assert k_choice_note(summary) == ("best k by test accuracy: euclidean 4, weighted 3; by leave-one-out on the "
                                      "training documents: euclidean 5, weighted 3")


def test_against_best_rival_picks_the_best_conventional_classifier(rng):
    y = rng.integers(0, 3, size=90)
    noisy = lambda share: np.where(rng.random(90) < share, y, rng.integers(0, 3, size=90))  # noqa: E731
    conventional = {"weak": noisy(0.3), "strong": noisy(0.8)}
    ours = noisy(0.5)
    tests = against_best_rival(y, ours, "ours", conventional, [0, 1, 2], n_resamples=199, random_state=1)
    for score in ("macro_f1", "micro_f1"):
        rival, diff, p = tests[score]
        assert rival == "strong"
        ref = paired_comparisons(y, {"ours": ours}, conventional["strong"], [score], [0, 1, 2], 199, 1).loc["ours"]
        assert diff == pytest.approx(prf_scores(y, ours, [0, 1, 2])[score]
                                     - prf_scores(y, conventional["strong"], [0, 1, 2])[score])
        assert (diff, p) == (ref[(score, "difference")], ref[(score, "p")])


def test_balance_claims_read_the_favoured_row_and_count_the_readings_ahead():
    cols = pd.MultiIndex.from_tuples([(s, part) for s in PR_SCORES for part in ("difference", "p")])
    values = [[-0.1, 0.002] * 6, [0.02, 0.6] * 6, [-0.05, 0.01] * 6]
    pr = pd.DataFrame(values, index=["a", "b", "c"], columns=cols)
    claims = balance_claims(pr, "c")
    assert list(claims) == list(BALANCE_KEYS)
    assert all(a["effect"] == -0.05 and a["p"] == 0.01 for a in claims.values())
    assert claims["claim.precision.macro"]["evidence"] == ("macro precision: c minus Euclidean kNN -0.050 (paired "
                                                           "permutation test); 1 of 3 readings ahead")
    assert claims["claim.balance.micro"]["evidence"].endswith("F1 is the balance of precision and recall the paper "
                                                              "uses (line 293)")


def test_measure_claims(readings):
    out, summary, y_te = readings
    _, acc, pred, _ = chosen_readings(out, summary)
    never = never_assigning(y_te)
    claims = measure_claims(y_te, pred, acc, never, f1_identities(y_te, pred["euclidean"], ["acq", "earn", "grain"]))
    assert {k: a[0] for k, a in claims.items()} == {"eq19": True, "claim.accuracy-small-classes": False,
                                                    "f1.definition": True, "micro-macro.definition": True}
    assert claims["claim.accuracy-small-classes"][1].startswith("never assigning grain (30 of 90 test documents) is "
                                                                "right about it for 66.7% of the documents")
    bad = measure_claims(y_te, pred, {**acc, "pooled": acc["pooled"] + 0.01}, never,
                         f1_identities(y_te, pred["euclidean"], ["acq", "earn", "grain"]))
    assert not bad["eq19"][0]


def test_conventional_claims(readings):
    out, summary, y_te = readings
    _, acc, pred, favoured = chosen_readings(out, summary)
    base = {"naive Bayes": pred["pooled"], "Rocchio": pred["class_blind"]}
    mcnemar = {r: mcnemar_exact(y_te, pred[r], pred["euclidean"]) for r in READINGS if r != "euclidean"}
    claims = conventional_claims(y_te, pred, favoured, base, mcnemar, ["acq", "earn", "grain"], n_resamples=99)
    assert list(claims) == ["claim.macro-best", "claim.f1-vs-conventional", "claim.accuracy-vs-nb",
                            "claim.accuracy-vs-euclidean"]
    assert claims["claim.accuracy-vs-nb"]["effect"] == pytest.approx(acc[favoured] - acc["pooled"])
    assert claims["claim.accuracy-vs-nb"]["p"] == mcnemar_exact(y_te, pred[favoured], pred["pooled"])[2]
    assert claims["claim.accuracy-vs-euclidean"]["p"] == mcnemar[favoured][2]
    assert claims["claim.accuracy-vs-euclidean"]["evidence"].count("(p = ") == len(mcnemar)


def test_invertibility_claim():
    holds, evidence = invertibility_claim(pd.Series([2840, 41], index=["earn", "grain"]), 3059, 2877)
    assert not holds
    assert evidence == ("d = 3,059; the largest category (earn) has 2,840 training documents, so every category's "
                        "sample covariance has rank below d and no inverse (in the top-10 multi-label setting earn "
                        "has 2,877); the readings below shrink each covariance (Ledoit-Wolf)")
    assert invertibility_claim(pd.Series([300], index=["earn"]), 100, 320)[0]
