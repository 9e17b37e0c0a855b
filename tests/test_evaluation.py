"""Tests of helpers.evaluation against scipy / scikit-learn and worked examples."""

import itertools

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.metrics import (
    classification_report,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_predict,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from helpers import (
    ExpectedWhitener,
    class_whitening_matrices,
    load_wdbc,
    transform_by_class,
)
from helpers.evaluation import (
    SCORES,
    compare_pairs,
    corrected_paired_ttest,
    is_linearly_separable,
    knn_cv_accuracy_by_k,
    knn_cv_predictions_by_k,
    loocv_accuracy,
    mcnemar_exact,
    paired_comparisons,
    paired_permutation_test,
    prf_scores,
    repeated_cv_scores,
    repeated_split_scores,
    report_rows,
    summarize_scores,
    svc_loocv_accuracy,
    svc_loocv_predict,
)
from helpers.papers.cosine_paper import (
    population_protocol_cv,
    population_protocol_predict,
    population_split_scores,
)


def two_classes(seed=0, n=20):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n, 3)), rng.normal(1, 3, (n, 3))])
    return X, np.repeat([0, 1], n)


def test_summary_matches_scipy_t_interval():
    s = np.array([0.9, 0.92, 0.95, 0.97, 0.91])
    row = summarize_scores({"m": s}).loc["m"]
    lo, hi = stats.t.interval(0.95, len(s) - 1, loc=s.mean(), scale=stats.sem(s))
    assert row["mean"] == pytest.approx(s.mean())
    assert row["sd"] == pytest.approx(s.std(ddof=1))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))


def test_summary_corrected_interval_is_nadeau_bengio():
    s = np.array([0.9, 0.92, 0.95, 0.97, 0.91, 0.93])
    row = summarize_scores({"m": s.reshape(2, 3)}, test_train_ratio=0.25).loc["m"]    # 2-D fold scores are flattened
    half = stats.t.ppf(0.975, 5) * s.std(ddof=1) * np.sqrt(1 / 6 + 0.25)
    assert row["n"] == 6
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((s.mean() - half, s.mean() + half))
    with pytest.raises(ValueError, match="n_test / n_train"):
        summarize_scores({"m": s}, test_train_ratio=-1)


def test_corrected_paired_ttest_reduces_to_scipy_and_corrects():
    a = np.array([0.95, 0.93, 0.96, 0.94, 0.97])
    b = np.array([0.93, 0.93, 0.94, 0.92, 0.94])
    plain = corrected_paired_ttest(a, b, test_train_ratio=0.0)
    ref = stats.ttest_rel(a, b)
    assert plain["t"] == pytest.approx(ref.statistic)
    assert plain["p_value"] == pytest.approx(ref.pvalue)
    corr = corrected_paired_ttest(a, b, test_train_ratio=0.25)
    assert corr["t"] == pytest.approx(ref.statistic / np.sqrt(1 + 5 * 0.25))   # t shrinks by sqrt(1 + n r)
    assert corr["p_value"] > plain["p_value"]
    assert (corr["wins"], corr["losses"], corr["ties"]) == (4, 0, 1)
    assert corr["mean_diff"] == pytest.approx(0.018)
    assert corrected_paired_ttest(a, a, 0.25)["p_value"] == 1.0
    with pytest.raises(ValueError, match="same splits"):
        corrected_paired_ttest(a, b[:-1], 0.25)


def test_summary_rejects_single_score():
    with pytest.raises(ValueError, match="at least two"):
        summarize_scores({"m": [0.9]})


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


def test_knn_cv_by_k_equals_sklearn_on_wdbc():
    X_df, y_s = load_wdbc()
    X, y = X_df.to_numpy(), y_s.to_numpy()
    ks = [1, 3, 5, 7, 9, 11, 13, 15]
    for cv in (StratifiedKFold(5), KFold(5, shuffle=True, random_state=42)):
        ours = knn_cv_accuracy_by_k(X, y, ks, cv)
        for k in ks:
            expected = cross_val_score(KNeighborsClassifier(k, metric="cosine"), X, y, cv=cv).mean()
            assert ours[k] == pytest.approx(expected)
    cv = KFold(5)
    ours = knn_cv_accuracy_by_k(X, y, [13], cv, transformer=ExpectedWhitener())[13]
    ref = cross_val_score(make_pipeline(ExpectedWhitener(), KNeighborsClassifier(13, metric="cosine")), X, y, cv=cv)
    assert ours == pytest.approx(ref.mean())
    # raw cosine 1-NN, LOOCV on all 569 points: 519 right, the cosine paper's Table 1 value 0.9121
    assert knn_cv_accuracy_by_k(X, y, [1], LeaveOneOut())[1] == pytest.approx(519 / 569)
    assert knn_cv_accuracy_by_k(X[:120], y[:120], [5], LeaveOneOut())[5] == pytest.approx(
        loocv_accuracy(KNeighborsClassifier(5, metric="cosine"), X[:120], y[:120]))
    ten = np.r_[np.flatnonzero(y == 0)[:5], np.flatnonzero(y == 1)[:5]]
    with pytest.raises(ValueError, match=r"K = 20 exceeds the 5 rows of a training fold; use ks <= 5"):
        knn_cv_accuracy_by_k(X[ten], y[ten], [20], KFold(2))


def test_mcnemar_counts_and_scipy_pvalue():
    y = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    a = y.copy()
    b = y.copy()
    b[:5] = 1 - b[:5]                         # b wrong on 5 points where a is right
    a[9] = 0                                  # a wrong on one point where b is right
    nb, nc, p = mcnemar_exact(y, a, b)
    assert (nb, nc) == (5, 1)
    assert p == pytest.approx(stats.binomtest(5, 6, 0.5).pvalue)
    assert mcnemar_exact(y, y, y) == (0, 0, 1.0)
    with pytest.raises(ValueError, match="same length"):
        mcnemar_exact(y, y[:-1], y)


def test_population_protocol_uses_given_labels():
    X, y = two_classes(seed=1, n=40)
    mats = class_whitening_matrices(X[::2], y[::2])
    Z = transform_by_class(X[1::2], y[1::2], mats)
    expected = KNeighborsClassifier(5).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(Z)
    ours = population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2])
    np.testing.assert_array_equal(ours, expected)
    with pytest.raises(ValueError, match="label per test row"):
        population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2][:-1])


def test_population_cv_all_equals_transform_then_cv():
    X, y = two_classes(seed=2, n=30)
    Z = transform_by_class(X, y, class_whitening_matrices(X, y))
    cv = StratifiedKFold(5)
    ref = np.mean(cross_val_score(KNeighborsClassifier(3), Z, y, cv=cv))
    assert population_protocol_cv(KNeighborsClassifier(3), X, y, cv) == pytest.approx(ref)
    # matrices from each training fold only: the same as a hand-written leave-one-out loop
    by_hand = []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        mats = class_whitening_matrices(X[keep], y[keep])
        knn = KNeighborsClassifier(3).fit(transform_by_class(X[keep], y[keep], mats), y[keep])
        by_hand.append(knn.predict(transform_by_class(X[i:i + 1], y[i:i + 1], mats))[0] == y[i])
    loo = population_protocol_cv(KNeighborsClassifier(3), X, y, LeaveOneOut(), matrices_from="train")
    assert loo == pytest.approx(np.mean(by_hand))
    with pytest.raises(ValueError, match="matrices_from"):
        population_protocol_cv(KNeighborsClassifier(3), X, y, cv, matrices_from="test")
    splits = StratifiedShuffleSplit(n_splits=3, test_size=0.2, random_state=0).split(X, y)
    expected = [np.mean(KNeighborsClassifier(3).fit(Z[tr], y[tr]).predict(Z[te]) == y[te]) for tr, te in splits]
    np.testing.assert_allclose(population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3), expected)


@pytest.mark.integration  # starts worker processes: ~3 s
def test_parallel_resampling_gives_the_same_scores():
    # n_jobs only spreads independent fits over processes: every score must be identical
    from sklearn.model_selection import StratifiedKFold
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import SVC

    from helpers import load_wdbc
    from helpers.evaluation import (
        repeated_cv_scores,
        repeated_split_scores,
        svc_loocv_accuracy,
    )
    from helpers.papers.cosine_paper import (
        population_protocol_cv,
        population_split_scores,
    )

    X, y = load_wdbc()
    X, y = X.to_numpy()[:200], y.to_numpy()[:200]
    knn = {"knn": KNeighborsClassifier(5, metric="cosine")}
    for n_jobs in (None, 2):
        got = (repeated_split_scores(knn, X, y, n_splits=4, n_jobs=n_jobs)["knn"],
               repeated_cv_scores(knn, X, y, n_folds=3, n_repeats=2, n_jobs=n_jobs)["knn"],
               population_split_scores(KNeighborsClassifier(5), X, y, n_splits=4, matrices_from="train", n_jobs=n_jobs),
               population_protocol_cv(KNeighborsClassifier(5), X, y, StratifiedKFold(4), "train", n_jobs=n_jobs),
               svc_loocv_accuracy(SVC(kernel="rbf", gamma="scale"), X[:, :5], y, n_jobs=n_jobs))
        if n_jobs is None:
            serial = got
    for a, b in zip(serial, got):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- added for the papers' claims

def test_compare_pairs_is_the_corrected_test_per_pair():
    s = {"a": [0.95, 0.93, 0.96, 0.94], "b": [0.93, 0.93, 0.94, 0.92], "c": [0.90, 0.91, 0.90, 0.92]}
    table = compare_pairs(s, [("a", "b"), ("c", "a")], 0.25)
    assert list(table.index) == ["a vs b", "c vs a"]
    assert table.loc["a vs b", "p_value"] == pytest.approx(corrected_paired_ttest(s["a"], s["b"], 0.25)["p_value"])
    assert table.loc["c vs a", "mean_diff"] == pytest.approx(-0.0375)
    with pytest.raises(ValueError, match="no scores for"):
        compare_pairs(s, [("a", "zzz")], 0.25)


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


def test_population_scores_by_metric_and_given_matrices():
    X, y = two_classes(seed=6, n=40)
    both = population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3, scoring=("accuracy", "recall"))
    np.testing.assert_allclose(both["accuracy"], population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3))
    rng = np.random.default_rng(0)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    ours = population_protocol_predict(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2], matrices=mats)
    ref = KNeighborsClassifier(3).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(
        transform_by_class(X[1::2], y[1::2], mats))
    np.testing.assert_array_equal(ours, ref)


def test_knn_cv_predictions_equal_cross_val_predict():
    X_df, y_s = load_wdbc()
    X, y = X_df.to_numpy()[:150], y_s.to_numpy()[:150]
    for cv in (LeaveOneOut(), KFold(5, shuffle=True, random_state=0)):
        ours = knn_cv_predictions_by_k(X, y, [1, 13], cv)
        for k in (1, 13):
            ref = cross_val_predict(KNeighborsClassifier(k, metric="cosine"), X, y, cv=cv)
            np.testing.assert_array_equal(ours[k], ref)
    loo = knn_cv_predictions_by_k(X, y, [5], LeaveOneOut(), transformer=ExpectedWhitener())[5]
    expected = knn_cv_accuracy_by_k(X, y, [5], LeaveOneOut(), transformer=ExpectedWhitener())[5]
    assert np.mean(loo == y) == pytest.approx(expected)
    with pytest.raises(ValueError, match="held out exactly once"):
        knn_cv_predictions_by_k(X, y, [1], StratifiedShuffleSplit(3, test_size=0.2, random_state=0))


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

def test_permutation_test_equals_exact_enumeration():
    y = np.array([0, 0, 1, 1, 2, 2, 0, 1])
    a = np.array([0, 0, 1, 1, 2, 0, 0, 1])
    b = np.array([0, 1, 1, 0, 2, 0, 1, 1])
    diff, p = paired_permutation_test(y, a, b, "macro_f1", n_resamples=10_000)  # 2^8 < 10,000: exact

    def stat(pa, pb):
        return prf_scores(y, pa, [0, 1, 2])["macro_f1"] - prf_scores(y, pb, [0, 1, 2])["macro_f1"]

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

def test_paired_comparisons_table(rng):
    y = rng.integers(0, 3, size=60)
    better = np.where(rng.random(60) < 0.9, y, (y + 1) % 3)
    worse = np.where(rng.random(60) < 0.5, y, (y + 1) % 3)
    t = paired_comparisons(y, {"better": better}, worse, scores=["accuracy", "macro_f1"], n_resamples=199)
    assert t.loc["better", ("accuracy", "difference")] == pytest.approx(np.mean(better == y) - np.mean(worse == y))
    assert t.loc["better", ("accuracy", "p")] < 0.05

def test_several_scores_share_one_permutation_run(rng):
    y = rng.integers(0, 3, size=80)
    a = np.where(rng.random(80) < 0.8, y, (y + 1) % 3)
    b = np.where(rng.random(80) < 0.6, y, (y + 2) % 3)
    diffs, ps = paired_permutation_test(y, a, b, ["accuracy", "macro_recall"], n_resamples=299)
    for score, d, p in zip(["accuracy", "macro_recall"], diffs, ps):
        assert (d, p) == pytest.approx(paired_permutation_test(y, a, b, score, n_resamples=299))
