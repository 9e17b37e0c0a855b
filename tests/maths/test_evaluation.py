"""Tests of helpers.evaluation against scipy / scikit-learn and worked examples."""


import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.metrics import (
    classification_report,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from helpers import (
    load_wdbc,
)
from helpers.evaluation import (
    SCORES,
    exact_match_accuracy,
    loocv_accuracy,
    prf_scores,
    repeated_cv_scores,
    repeated_split_scores,
    report_rows,
)
from helpers.studies.sahoo_maiti_2025a import (
    SplitProtocol,
    population_protocol_cv,
    population_split_scores,
)
from helpers.svm import svc_loocv_accuracy
from tests.support import two_classes


def test_repeated_split_scores_equal_sklearn():
    X, y = load_iris(return_X_y=True)
    ours = repeated_split_scores({"knn": KNeighborsClassifier(3)}, X, y, n_splits=4, random_state=1)["knn"]
    ref = cross_val_score(KNeighborsClassifier(3), X, y,
                          cv=StratifiedShuffleSplit(4, test_size=0.2, random_state=1))
    np.testing.assert_allclose(ours, ref)


def test_repeated_cv_returns_every_fold():
    X, y = load_iris(return_X_y=True)
    ours = repeated_cv_scores({"knn": KNeighborsClassifier(3)}, X, y, n_folds=5, n_repeats=2, random_state=0)["knn"]
    ref = cross_val_score(
        KNeighborsClassifier(3), X, y, cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    )
    assert ours.shape == (2, 5)
    np.testing.assert_allclose(ours.ravel(), ref)


def test_models_must_be_dict():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="non-empty dict"):
        repeated_split_scores(KNeighborsClassifier(), X, y)


def test_loocv_equals_manual_loop():
    X, y = two_classes()
    manual = np.mean([KNeighborsClassifier(3).fit(np.delete(X, i, 0), np.delete(y, i)).predict(X[i:i + 1])[0] == y[i]
                      for i in range(len(y))])
    assert loocv_accuracy(KNeighborsClassifier(3), X, y) == pytest.approx(manual)


@pytest.mark.integration  # starts worker processes: ~3 s
def test_parallel_resampling_gives_the_same_scores():
    # n_jobs only spreads independent fits over processes: every score must be identical
    from sklearn.neighbors import KNeighborsClassifier

    from helpers.evaluation import repeated_cv_scores, repeated_split_scores

    X, y = load_wdbc()
    X, y = X.to_numpy()[:200], y.to_numpy()[:200]
    knn = {"knn": KNeighborsClassifier(5, metric="cosine")}
    for n_jobs in (None, 2):
        got = (repeated_split_scores(knn, X, y, n_splits=4, n_jobs=n_jobs)["knn"],
               repeated_cv_scores(knn, X, y, n_folds=3, n_repeats=2, n_jobs=n_jobs)["knn"],
               population_split_scores(KNeighborsClassifier(5), X, y, SplitProtocol(n_splits=4, n_jobs=n_jobs),
                                       matrices_from="train"),
               population_protocol_cv(KNeighborsClassifier(5), X, y, StratifiedKFold(4), "train", n_jobs=n_jobs),
               svc_loocv_accuracy(SVC(kernel="rbf", gamma="scale"), X[:, :5], y, n_jobs=n_jobs))
        if n_jobs is None:
            serial = got
    for a, b in zip(serial, got):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- added for the papers' claims


def test_repeated_split_scores_several_metrics_from_one_fit():
    X, y = two_classes(seed=4, n=40)
    knn = {"knn": KNeighborsClassifier(3)}
    multi = repeated_split_scores(knn, X, y, n_splits=3, random_state=2, scoring=("accuracy", "precision", "recall"))
    np.testing.assert_allclose(
        multi["knn"]["accuracy"], repeated_split_scores(knn, X, y, n_splits=3, random_state=2)["knn"]
    )
    tr, te = next(StratifiedShuffleSplit(3, test_size=0.2, random_state=2).split(X, y))
    pred = KNeighborsClassifier(3).fit(X[tr], y[tr]).predict(X[te])
    assert multi["knn"]["precision"][0] == pytest.approx(precision_score(y[te], pred))
    assert multi["knn"]["recall"][0] == pytest.approx(recall_score(y[te], pred))
    with pytest.raises(ValueError, match="scoring must name metrics"):
        repeated_split_scores(knn, X, y, n_splits=2, scoring="auc")


def test_report_rows_give_the_cosine_papers_tables_from_their_counts():
    # Fig. 3 of the cosine paper: 70 of 71 benign and 37 of 43 malignant right (accuracy 107/114 = 0.939)
    y = np.repeat([0, 1], [71, 43])
    pred = np.concatenate([np.zeros(70, int), [1], np.zeros(6, int), np.ones(37, int)])
    rows = report_rows(y, pred)
    assert [round(v, 3) for v in rows[0]] == [0.921, 0.986, 0.952, 71]
    assert [round(v, 3) for v in rows[1]] == [0.974, 0.86, 0.914, 43]     # printed 0.9214: F1 = 74/81
    assert [round(v, 3) for v in rows["accuracy"]] == [0.939, 114]
    assert [round(v, 3) for v in rows["macro avg"]] == [0.947, 0.923, 0.933, 114]
    assert [round(v, 3) for v in rows["weighted avg"]] == [0.941, 0.939, 0.938, 114]
    ref = classification_report(y, pred, output_dict=True)
    assert rows[1][2] == pytest.approx(ref["1"]["f1-score"])
    assert report_rows([0, 0], [0, 0])[1] == [0.0, 0.0, 0.0, 0]              # a label never seen nor predicted
    with pytest.raises(ValueError, match="same shape"):
        report_rows([0, 1], [0])


# --- micro/macro scores and paired permutation tests (the Mahal-kNN evaluation) ---------------


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




@pytest.mark.parametrize("kind", ["text", "integers", "multi-label"])
def test_exact_match_accuracy_is_the_accuracy_of_prf_scores(rng, kind):
    for _ in range(20):
        n = int(rng.integers(1, 60))
        if kind == "multi-label":
            y_true, y_pred = rng.integers(0, 2, size=(n, 4)), rng.integers(0, 3, size=(n, 4))   # any nonzero is a label
        else:
            labels = np.array(["acq", "earn", "grain", "ship", "trade"]) if kind == "text" else np.arange(5)
            y_true, y_pred = rng.choice(labels, n), rng.choice(labels, n)
            y_pred[: n // 3] = y_true[: n // 3]
        for classes in (None, np.unique(y_true) if kind != "multi-label" else None,
                        np.unique(y_true)[:2] if kind != "multi-label" else np.arange(4)):
            assert exact_match_accuracy(y_true, y_pred, classes) == prf_scores(y_true, y_pred, classes)["accuracy"]
    with pytest.raises(ValueError, match="same shape"):
        exact_match_accuracy([1, 2], [1])
