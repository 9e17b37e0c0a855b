"""Evaluation statistics: repeated splits, repeated CV, LOOCV, paired tests, scores.

Resampling protocols (:func:`repeated_split_scores`, :func:`repeated_cv_scores`, LOOCV with
the support-vector shortcut for SVC), kNN over many K at once (:func:`knn_cv_accuracy_by_k`,
:func:`knn_cv_predictions_by_k`, through the engine of :mod:`helpers.neighbours`), the
corrected paired t-test, McNemar's exact test, micro/macro scores (:func:`prf_scores`, vectorised over resamples) and
the approximate-randomisation test of two classifiers on the same test rows
(:func:`paired_permutation_test`). Two small checks the papers' claims call for: the rows of
a classification table (:func:`report_rows`) and exact linear separability
(:func:`is_linearly_separable`).

References
----------
.. [1] C. Nadeau & Y. Bengio (2003), Inference for the generalization error, Machine Learning
   52, 239-281 (the corrected resampled t-test).
.. [2] E. W. Noreen (1989), Computer-Intensive Methods for Testing Hypotheses (approximate
   randomisation); A. Yeh (2000), More accurate tests for the statistical significance of
   result differences, COLING.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import optimize, stats
from sklearn.base import clone
from sklearn.metrics import (
    accuracy_score,
    classification_report,
    f1_score,
    make_scorer,
    pairwise_distances,
    precision_score,
    recall_score,
)
from sklearn.model_selection import (
    LeaveOneOut,
    RepeatedStratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_predict,
    cross_val_score,
    cross_validate,
)

from ._validation import as_float_array, check_cv, check_estimator, check_int, check_labels
from .neighbours import majority_votes, nearest_indices

__all__ = [
    "METRICS",
    "check_scoring",
    "SCORES",
    "compare_pairs",
    "corrected_paired_ttest",
    "is_linearly_separable",
    "knn_cv_accuracy_by_k",
    "knn_cv_predictions_by_k",
    "loocv_accuracy",
    "mcnemar_exact",
    "paired_comparisons",
    "paired_permutation_test",
    "prf_scores",
    "repeated_cv_scores",
    "repeated_split_scores",
    "report_rows",
    "summarize_scores",
    "svc_loocv_accuracy",
    "svc_loocv_predict",
]

#: Scores on the test rows of a split, by name: functions of ``(y_true, y_pred)`` with class 1
#: positive (malignant in WDBC); precision and recall count 0 when nothing is predicted positive.
METRICS = {
    "accuracy": accuracy_score,
    "precision": partial(precision_score, zero_division=0),
    "recall": partial(recall_score, zero_division=0),
    "f1": partial(f1_score, zero_division=0),
}


def check_scoring(scoring):
    """``scoring`` as a tuple of metric names, and whether one name (a str) was given.

    Examples
    --------
    >>> check_scoring("accuracy"), check_scoring(("accuracy", "f1"))
    ((('accuracy',), True), (('accuracy', 'f1'), False))
    """
    single = isinstance(scoring, str)
    try:
        names = (scoring,) if single else tuple(scoring)
    except TypeError:
        names = ()
    unknown = [n for n in names if not isinstance(n, str) or n not in METRICS]
    if not names or unknown:
        raise ValueError(f"scoring must name metrics among {sorted(METRICS)}; got {scoring!r}. "
                         "Pass one name (scores per model) or a tuple (scores per model and metric).")
    return names, single


def _scorers(names):
    return {n: make_scorer(METRICS[n]) for n in names}


def _check_models(models) -> dict:
    if not isinstance(models, dict) or not models:
        raise ValueError("models must be a non-empty dict {name: estimator}; wrap a single model as {'name': model}.")
    for name, m in models.items():
        check_estimator(m, f"models[{name!r}]")
    return models


def _check_stratified_folds(y, n_folds: int) -> None:
    """Stratified k-fold needs every class in every fold: n_folds <= the smallest class."""
    labels, counts = np.unique(y, return_counts=True)
    if n_folds > counts.min():
        small = labels[counts.argmin()]
        raise ValueError(
            f"n_folds={n_folds} exceeds the {counts.min()} member(s) of the smallest class "
            f"({small.item() if isinstance(small, np.generic) else small!r}); stratified folds need every class "
            f"in every fold. Use n_folds <= {counts.min()}, or LeaveOneOut()."
        )


def _split(cv, X, y) -> list:
    """The folds of ``cv``, with the splitter's own error completed by the class counts."""
    try:
        return list(check_cv(cv).split(X, y))
    except ValueError as exc:
        labels, counts = np.unique(y, return_counts=True)
        raise ValueError(f"{cv!r} cannot split these {len(y)} rows (class counts "
                         f"{dict(zip(labels.tolist(), counts.tolist()))}): {exc}") from None


def _check_ratio(test_train_ratio):
    if test_train_ratio is None:
        return None
    if isinstance(test_train_ratio, bool) or not isinstance(test_train_ratio, (int, float, np.integer, np.floating)) \
            or not (np.isfinite(test_train_ratio) and test_train_ratio >= 0):
        raise ValueError(
            f"test_train_ratio must be a finite number n_test / n_train >= 0 (0.25 for 80:20 splits, "
            f"1 / (n_folds - 1) for k-fold CV) or None; got {test_train_ratio!r}."
        )
    return float(test_train_ratio)


def _check_scores(scores, name: str) -> np.ndarray:
    """Scores as a flat float array; NaN (a split whose fit failed) refused with the way to find out why."""
    try:
        s = np.asarray(scores, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numbers (one score per split); could not convert them to float "
                         f"({exc}).") from None
    bad = np.flatnonzero(~np.isfinite(s))
    if bad.size:
        raise ValueError(
            f"{name} holds {s[bad[0]]} at position {bad[0]} ({bad.size} of {s.size} scores not finite): a split "
            "whose model failed (scikit-learn's error_score=nan). Rerun that split with error_score='raise' "
            "to see why, or drop it from every model's scores."
        )
    return s


def _nb_scale(n: int, test_train_ratio) -> float:
    """Standard error of a mean of ``n`` resampled scores per unit sd (Nadeau & Bengio 2003)."""
    test_train_ratio = _check_ratio(test_train_ratio)
    if test_train_ratio is None:
        return 1.0 / np.sqrt(n)
    return float(np.sqrt(1.0 / n + test_train_ratio))


def summarize_scores(scores, test_train_ratio=None) -> pd.DataFrame:
    """Tidy summary of per-split scores: mean, sd and a 95% t-interval of the mean per model.

    Parameters
    ----------
    scores : dict of {name: array-like of float}
        Scores of each model on the same splits (any shape; flattened, so a
        ``(n_repeats, n_folds)`` array of fold scores counts every fold).
    test_train_ratio : float, optional
        ``n_test / n_train`` of the resampling (0.25 for 80:20 splits, 1/9 for 10-fold
        CV). Given, the interval uses the corrected resampled t of Nadeau & Bengio
        (2003): standard error ``sd * sqrt(1/n + n_test/n_train)`` instead of
        ``sd / sqrt(n)``, because overlapping training sets make the scores positively
        correlated. Omitted, the naive interval treats the splits as independent, which
        they are not: it is too narrow.

    Returns
    -------
    DataFrame indexed by model name with columns ``mean, sd, ci_low, ci_high, n``.

    References
    ----------
    .. [1] Nadeau & Bengio (2003), Inference for the Generalization Error, Machine
       Learning 52, 239-281. Bouckaert & Frank (2004) apply it to repeated k-fold CV.

    Examples
    --------
    >>> t = summarize_scores({"a": [0.9, 1.0, 0.95]})
    >>> print(f"{t.loc['a', 'mean']:.3f} {t.loc['a', 'sd']:.3f} {t.loc['a', 'ci_low']:.3f}")
    0.950 0.050 0.826
    >>> t = summarize_scores({"a": [0.9, 1.0, 0.95]}, test_train_ratio=0.25)
    >>> print(f"{t.loc['a', 'ci_low']:.3f}")
    0.786
    """
    if not isinstance(scores, dict) or not scores:
        raise ValueError("scores must be a non-empty dict {name: list of scores}.")
    _check_ratio(test_train_ratio)
    rows = {}
    for name, s in scores.items():
        s = _check_scores(s, f"scores[{name!r}]")
        if s.size < 2:
            raise ValueError(f"scores[{name!r}] needs at least two scores; use more splits.")
        mean, sd = s.mean(), s.std(ddof=1)
        half = stats.t.ppf(0.975, s.size - 1) * sd * _nb_scale(s.size, test_train_ratio)
        rows[name] = {"mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half, "n": s.size}
    return pd.DataFrame.from_dict(rows, orient="index")


def corrected_paired_ttest(scores_a, scores_b, test_train_ratio):
    """Paired corrected resampled t-test (Nadeau & Bengio 2003) of two models' scores.

    ``scores_a`` and ``scores_b`` must come from the same splits (same order). With
    ``d = a - b``, ``t = mean(d) / (sd(d) * sqrt(1/n + n_test/n_train))`` on ``n - 1``
    degrees of freedom; ``test_train_ratio = 0`` gives the ordinary paired t-test
    (:func:`scipy.stats.ttest_rel`), which overstates the evidence for resampled splits.

    Returns
    -------
    dict with ``mean_diff, t, p_value, n, wins, losses, ties`` (wins: splits where a > b).
    ``t`` is NaN and ``p_value`` 1.0 when every difference is equal (sd 0) and zero.

    Examples
    --------
    >>> r = corrected_paired_ttest([0.95, 0.93, 0.96, 0.94], [0.93, 0.93, 0.94, 0.92], test_train_ratio=0.25)
    >>> print(f"{r['mean_diff']:+.3f} t={r['t']:.2f} p={r['p_value']:.3f} {r['wins']}/{r['losses']}/{r['ties']}")
    +0.015 t=2.12 p=0.124 3/0/1
    """
    _check_ratio(test_train_ratio)
    a, b = _check_scores(scores_a, "scores_a"), _check_scores(scores_b, "scores_b")
    if a.shape != b.shape or a.size < 2:
        raise ValueError(
            f"need paired scores of equal length >= 2 from the same splits; got shapes {a.shape} and {b.shape}."
        )
    d = a - b
    n, mean, sd = d.size, d.mean(), d.std(ddof=1)
    if sd == 0:
        t, p = (np.nan, 1.0) if mean == 0 else (np.copysign(np.inf, mean), 0.0)
    else:
        t = mean / (sd * _nb_scale(n, test_train_ratio))
        p = float(2 * stats.t.sf(abs(t), n - 1))
    return {"mean_diff": float(mean), "t": float(t), "p_value": float(p), "n": int(n),
            "wins": int(np.sum(d > 0)), "losses": int(np.sum(d < 0)), "ties": int(np.sum(d == 0))}


def compare_pairs(scores, pairs, test_train_ratio) -> pd.DataFrame:
    """:func:`corrected_paired_ttest` for several pairs of models, one row per pair.

    Parameters
    ----------
    scores : dict of {name: array-like}
        Scores of each model on the same splits.
    pairs : iterable of (name_a, name_b)
        Each row tests ``a - b`` (positive: ``a`` better).
    test_train_ratio : float
        ``n_test / n_train`` of the resampling, as in :func:`corrected_paired_ttest`.

    Returns
    -------
    DataFrame indexed ``"a vs b"`` with columns ``mean_diff, t, p_value, n, wins, losses, ties``.

    Examples
    --------
    >>> s = {"a": [0.95, 0.93, 0.96, 0.94], "b": [0.93, 0.93, 0.94, 0.92]}
    >>> print(compare_pairs(s, [("a", "b")], 0.25)[["mean_diff", "wins"]].to_string())
            mean_diff  wins
    a vs b      0.015     3
    """
    rows = {}
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"each pair must be a tuple (name_a, name_b); got {pair!r}.")
        a, b = pair
        missing = [n for n in (a, b) if n not in scores]
        if missing:
            raise ValueError(f"no scores for {missing}; scores has {sorted(scores)}.")
        rows[f"{a} vs {b}"] = corrected_paired_ttest(scores[a], scores[b], test_train_ratio)
    if not rows:
        raise ValueError("pairs is empty: give at least one (name_a, name_b).")
    return pd.DataFrame.from_dict(rows, orient="index")


def repeated_split_scores(models, X, y, n_splits=50, test_size=0.2, random_state=0, n_jobs=None,
                          scoring="accuracy") -> dict:
    """Test scores of each model over ``n_splits`` stratified random train/test splits.

    Every model sees the same splits (:class:`~sklearn.model_selection.StratifiedShuffleSplit`).
    ``n_jobs`` runs the splits in parallel processes (scikit-learn's meaning); the scores do
    not depend on it. Several metrics come from one fit per split.

    Parameters
    ----------
    scoring : str or tuple of str, default="accuracy"
        Names in :data:`METRICS` (class 1 positive for precision, recall and F1).

    Returns
    -------
    dict of {name: ndarray of shape (n_splits,)} for one metric; for a tuple,
    dict of {name: {metric: ndarray of shape (n_splits,)}}.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> s = repeated_split_scores({"knn": KNeighborsClassifier()}, X, y, n_splits=3, random_state=0)
    >>> s["knn"].shape
    (3,)
    >>> s = repeated_split_scores({"knn": KNeighborsClassifier()}, X, y, n_splits=3, scoring=("accuracy", "recall"))
    >>> sorted(s["knn"])
    ['accuracy', 'recall']
    """
    models = _check_models(models)
    names, single = check_scoring(scoring)
    n_splits = check_int(n_splits, "n_splits", 1, "n_splits=50")
    X, y = check_labels(X, y)
    cv = StratifiedShuffleSplit(n_splits=n_splits, test_size=test_size, random_state=random_state)
    out = {}
    for name, m in models.items():
        # error_score="raise": a model that cannot fit a split is an error, never a NaN score
        try:
            res = cross_validate(clone(m), X, y, cv=cv, n_jobs=n_jobs, scoring=_scorers(names), error_score="raise")
        except ValueError as exc:
            n_train = next(cv.split(X, y))[0].size
            raise ValueError(f"models[{name!r}] failed on a split of {n_train} training rows "
                             f"(test_size={test_size}): {exc}") from exc
        out[name] = {n: res[f"test_{n}"] for n in names}
    return {name: s[names[0]] for name, s in out.items()} if single else out


def repeated_cv_scores(models, X, y, n_folds=10, n_repeats=3, random_state=0, n_jobs=None) -> dict:
    """Accuracy of each model on every fold of ``n_repeats`` x stratified ``n_folds``-fold CV.

    Every model sees the same folds. Summarise the fold scores with
    ``summarize_scores(scores, test_train_ratio=1 / (n_folds - 1))`` (the corrected
    resampled t), not the sd of a few repetition means.

    Returns
    -------
    dict of {name: ndarray of shape (n_repeats, n_folds)}: the accuracy on each fold;
    ``.mean(axis=1)`` gives one CV accuracy per repetition.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> s = repeated_cv_scores({"knn": KNeighborsClassifier()}, X, y, n_folds=5, n_repeats=2)
    >>> s["knn"].shape
    (2, 5)
    """
    models = _check_models(models)
    n_repeats = check_int(n_repeats, "n_repeats", 1, "n_repeats=3")
    n_folds = check_int(n_folds, "n_folds", 2, "n_folds=10")
    X, y = check_labels(X, y)
    _check_stratified_folds(y, n_folds)
    cv = RepeatedStratifiedKFold(n_splits=n_folds, n_repeats=n_repeats, random_state=random_state)
    return {name: cross_val_score(clone(m), X, y, cv=cv, n_jobs=n_jobs, error_score="raise").reshape(n_repeats, n_folds)
            for name, m in models.items()}


def loocv_accuracy(model, X, y) -> float:
    """Leave-one-out accuracy (the model is refitted n times, on n - 1 points each).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X = [[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]]
    >>> print(f"{loocv_accuracy(KNeighborsClassifier(1), X, [0, 0, 0, 1, 1, 1]):.3f}")
    1.000
    """
    check_estimator(model)
    X, y = check_labels(X, y)
    pred = cross_val_predict(clone(model), X, y, cv=LeaveOneOut())
    return float(np.mean(pred == y))


def _check_knn_inputs(X, y, ks):
    """Arrays, the K list and the class codes shared by the kNN-over-K helpers; clear errors otherwise."""
    X = as_float_array(X, "X")
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be 2-D with one row per label; got X {X.shape} and y {y.shape}.")
    X, y = check_labels(X, y)
    ks = _check_ks(ks)
    classes, y_idx = np.unique(y, return_inverse=True)
    return X, y, ks, classes, y_idx


def _check_ks(ks, name: str = "ks") -> list:
    """A non-empty list of positive integers (numbers of neighbours), or an error with an example."""
    example = "[3] or range(1, 21)" if name == "ks" else "[10, 50, 100]"
    if isinstance(ks, (int, np.integer, str)) or not hasattr(ks, "__iter__"):
        raise ValueError(f"{name} must be a non-empty list of positive integers, e.g. {example}; got {ks!r}.")
    ks = list(ks)
    bad = [k for k in ks if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1]
    if not ks or bad:
        raise ValueError(f"{name} must be a non-empty list of positive integers, e.g. {example}; got {ks!r}"
                         + (f" ({bad[0]!r} is not a positive integer)." if bad else "."))
    return [int(k) for k in ks]


def knn_cv_accuracy_by_k(X, y, ks, cv, metric="cosine", transformer=None) -> dict:
    """Cross-validated accuracy of uniform-vote kNN for several K at once.

    Equivalent to ``cross_val_score(KNeighborsClassifier(k, metric=metric), X, y, cv=cv).mean()``
    for each ``k`` (with ``transformer`` to ``make_pipeline(transformer, KNeighborsClassifier(...))``),
    but each fold's distance matrix is computed once and sorted once for every K, so
    LOOCV over a grid of K takes a fraction of a second instead of ``len(ks) * n`` fits.
    Neighbours at exactly equal distance are taken in training-row order and a tied
    vote goes to the smallest label; scikit-learn's order among exactly tied distances is
    unspecified, so the two can differ only where such ties straddle the K-th neighbour.

    Parameters
    ----------
    ks : iterable of int
        Numbers of neighbours, each at most the smallest training fold.
    cv : scikit-learn splitter (``LeaveOneOut()``, ``KFold(5)``, ...)
    metric : str
        Any metric of :func:`sklearn.metrics.pairwise_distances`.
    transformer : scikit-learn transformer, optional
        Cloned and fitted on each training fold (with its labels), then applied to the
        fold's training and test rows, e.g. ``ExpectedWhitener()``.

    Returns
    -------
    dict of {k: float}: mean of the per-fold accuracies (for LOOCV, the LOOCV accuracy).

    Examples
    --------
    >>> from sklearn.model_selection import LeaveOneOut
    >>> X = [[1.0, 0.1], [1.0, 0.2], [1.0, 0.3], [0.1, 1.0], [0.2, 1.0], [0.3, 1.2]]
    >>> acc = knn_cv_accuracy_by_k(X, [0, 0, 0, 1, 1, 1], [1, 3], LeaveOneOut())
    >>> print({k: f"{a:.3f}" for k, a in acc.items()})
    {1: '1.000', 3: '1.000'}
    """
    X, y, ks, classes, y_idx = _check_knn_inputs(X, y, ks)
    folds = _split(cv, X, y)
    acc = np.zeros((len(ks), len(folds)))
    for j, (tr, te) in enumerate(folds):
        pred = _knn_fold_predictions(X, y_idx, tr, te, ks, metric, transformer, y, len(classes))
        for i, k in enumerate(ks):
            acc[i, j] = np.mean(pred[k] == y_idx[te])
    return {k: float(acc[i].mean()) for i, k in enumerate(ks)}


def knn_cv_predictions_by_k(X, y, ks, cv, metric="cosine", transformer=None) -> dict:
    """Held-out kNN predictions for several K at once, each row predicted by the fold that holds it out.

    The predictions behind :func:`knn_cv_accuracy_by_k` (same neighbour order and ties), for
    splitters in which every row is held out exactly once (``LeaveOneOut()``, ``KFold``,
    ``StratifiedKFold``): what a paired test on the same rows (e.g. :func:`mcnemar_exact` on two
    methods' LOOCV predictions) needs. Equals ``cross_val_predict`` of the same kNN.

    Returns
    -------
    dict of {k: ndarray of shape (n_samples,)}: the predicted labels.

    Examples
    --------
    >>> from sklearn.model_selection import LeaveOneOut
    >>> X = [[1.0, 0.1], [1.0, 0.2], [1.0, 0.3], [0.1, 1.0], [0.2, 1.0], [0.3, 1.2]]
    >>> knn_cv_predictions_by_k(X, [0, 0, 0, 1, 1, 1], [1], LeaveOneOut())[1].tolist()
    [0, 0, 0, 1, 1, 1]
    """
    X, y, ks, classes, y_idx = _check_knn_inputs(X, y, ks)
    folds = _split(cv, X, y)
    held_out = np.bincount(np.concatenate([te for _, te in folds]), minlength=len(y))
    if not np.all(held_out == 1):
        raise ValueError(f"every row must be held out exactly once (LeaveOneOut, KFold); this splitter holds "
                         f"rows out {held_out.min()} to {held_out.max()} times: use knn_cv_accuracy_by_k.")
    pred = {k: np.empty(len(y), dtype=int) for k in ks}
    for tr, te in folds:
        fold = _knn_fold_predictions(X, y_idx, tr, te, ks, metric, transformer, y, len(classes))
        for k in ks:
            pred[k][te] = fold[k]
    return {k: classes[p] for k, p in pred.items()}


def _knn_fold_predictions(X, y_idx, tr, te, ks, metric, transformer, y, n_classes):
    """Majority-vote class codes of one fold's test rows for every k: ``{k: ndarray (n_test,)}``."""
    k_max = max(ks)
    if k_max > len(tr):
        raise ValueError(f"K = {k_max} exceeds the {len(tr)} rows of a training fold; use ks <= {len(tr)}.")
    X_tr, X_te = X[tr], X[te]
    if transformer is not None:
        t = clone(transformer).fit(X_tr, y[tr])
        X_tr, X_te = t.transform(X_tr), t.transform(X_te)
    idx = nearest_indices(pairwise_distances(X_te, X_tr, metric=metric), k_max)
    return majority_votes(idx, y_idx[tr], ks, n_classes)


def mcnemar_exact(y_true, pred_a, pred_b):
    """Exact McNemar test: do two classifiers err on the same test points at different rates?

    Counts ``b`` (a right, b wrong) and ``c`` (a wrong, b right) and tests ``b`` against
    Binomial(b + c, 1/2) with :func:`scipy.stats.binomtest` (two-sided).

    Returns
    -------
    (b, c, p_value)

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> b, c, p = mcnemar_exact(y, [0, 0, 0, 0, 1, 1, 1, 1], [1, 1, 0, 0, 1, 1, 1, 0])
    >>> print(b, c, f"{p:.3f}")
    3 0 0.250
    """
    y_true, pred_a, pred_b = (np.asarray(v) for v in (y_true, pred_a, pred_b))
    if not (y_true.shape == pred_a.shape == pred_b.shape):
        raise ValueError(
            f"y_true, pred_a and pred_b must have the same length (predictions on one test set); got shapes "
            f"{y_true.shape}, {pred_a.shape} and {pred_b.shape}."
        )
    if y_true.size == 0:
        raise ValueError("y_true is empty: McNemar's test needs predictions on at least one test point.")
    a_ok, b_ok = pred_a == y_true, pred_b == y_true
    b, c = int(np.sum(a_ok & ~b_ok)), int(np.sum(~a_ok & b_ok))
    p = 1.0 if b + c == 0 else float(stats.binomtest(b, b + c, 0.5).pvalue)
    return b, c, p


def report_rows(y_true, y_pred, labels=(0, 1)) -> dict:
    """The rows of a classification table as scikit-learn's ``classification_report`` prints them.

    Returns
    -------
    dict
        ``{label: [precision, recall, f1, support]}`` for each label, then
        ``"accuracy": [accuracy, n]``, ``"macro avg"`` and ``"weighted avg"``:
        ``[precision, recall, f1, n]``. Unrounded; precision is 0 for a label never predicted.

    Examples
    --------
    >>> rows = report_rows([0, 0, 0, 1, 1], [0, 0, 1, 1, 1])
    >>> print({k: [round(v, 3) for v in r] for k, r in rows.items()})  # doctest: +NORMALIZE_WHITESPACE
    {0: [1.0, 0.667, 0.8, 3], 1: [0.667, 1.0, 0.8, 2], 'accuracy': [0.8, 5],
     'macro avg': [0.833, 0.833, 0.8, 5], 'weighted avg': [0.867, 0.8, 0.8, 5]}
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must have the same shape; got {y_true.shape} and {y_pred.shape}.")
    if y_true.size == 0:
        raise ValueError("y_true is empty: a classification table needs at least one test point.")
    seen = np.union1d(y_true, y_pred)
    stray = [v for v in seen.tolist() if v not in list(labels)]
    if stray:
        raise ValueError(f"y_true and y_pred hold labels {stray} that are not in labels={tuple(labels)!r}; "
                         f"pass labels={tuple(seen.tolist())!r} (or map the labels first).")
    rep = classification_report(y_true, y_pred, labels=list(labels), output_dict=True, zero_division=0)
    rows = {}
    for label in labels:
        r = rep[str(label)]
        rows[label] = [r["precision"], r["recall"], r["f1-score"], int(r["support"])]
    rows["accuracy"] = [float(np.mean(y_true == y_pred)), int(y_true.size)]
    for avg in ("macro avg", "weighted avg"):
        r = rep[avg]
        rows[avg] = [r["precision"], r["recall"], r["f1-score"], int(r["support"])]
    return rows


def is_linearly_separable(X, y) -> bool:
    """Whether a hyperplane separates two classes without error: ``y_i (w'x_i + b) >= 1`` is feasible.

    Solved exactly as a linear-programming feasibility problem (:func:`scipy.optimize.linprog`,
    HiGHS), on features standardised first (separability does not change under an invertible
    affine map of the features, and the solver is better conditioned). A hard-margin SVM has a
    solution exactly when this is ``True``.

    Examples
    --------
    >>> is_linearly_separable([[0, 0], [1, 0], [0, 1], [3, 3]], [0, 0, 0, 1])
    True
    >>> is_linearly_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [0, 0, 1, 1])   # XOR
    False
    """
    X, y = as_float_array(X, "X"), np.asarray(y)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be 2-D with one row per label; got X {X.shape} and y {y.shape}.")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"linear separability is defined here for two classes; y has {classes.size}: {classes.tolist()}."
        )
    sd = X.std(axis=0)
    Xs = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    s = np.where(y == classes[1], 1.0, -1.0)
    # variables (w, b); constraints -s_i (w'x_i + b) <= -1
    A = -s[:, None] * np.hstack([Xs, np.ones((len(y), 1))])
    res = optimize.linprog(np.zeros(X.shape[1] + 1), A_ub=A, b_ub=-np.ones(len(y)),
                           bounds=[(None, None)] * (X.shape[1] + 1), method="highs")
    if res.status not in (0, 2):
        raise ValueError(f"the separability LP did not finish (status {res.status}: {res.message}).")
    return bool(res.status == 0)


def svc_loocv_accuracy(svc, X, y, n_jobs=None) -> float:
    """Exact LOOCV accuracy of an SVC: the mean of :func:`svc_loocv_predict` against ``y``.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (15, 2)), rng.normal(2, 1, (15, 2))]); y = np.repeat([0, 1], 15)
    >>> fast, slow = svc_loocv_accuracy(SVC(kernel="linear"), X, y), loocv_accuracy(SVC(kernel="linear"), X, y)
    >>> print(f"{fast:.3f} {slow:.3f}")
    0.933 0.933
    """
    return float(np.mean(svc_loocv_predict(svc, X, y, n_jobs=n_jobs) == np.asarray(y)))


def svc_loocv_predict(svc, X, y, n_jobs=None) -> np.ndarray:
    """Exact leave-one-out predictions of an SVC, refitting only where the answer is not already known.

    Two facts about the exact SVM optimum spare most refits:

    1. A point with dual coefficient 0 (not a support vector) does not enter the solution,
       so leaving it out changes nothing: its leave-one-out prediction is the full model's.
    2. For a binary problem, leaving a point out cannot raise its margin
       ``y f(x)``: the full solution minimises ``R(f) + C loss_i(f)`` and the
       leave-one-out one ``R(f)`` alone, so ``loss_i(f_full) <= loss_i(f_loo)`` and the hinge
       loss only falls as the margin rises. A support vector the full model misclassifies
       stays misclassified. Only those with full-model margin below ``-10 * svc.tol`` are
       skipped, a safety gap of ten solver tolerances for libsvm's approximate optimum.

    Only the remaining support vectors are refitted (in ``n_jobs`` parallel processes; the
    answer does not depend on it). Same model and same predictions as
    ``cross_val_predict(svc, X, y, cv=LeaveOneOut())``, many times faster when each fit is
    slow (a linear SVC on unscaled WDBC takes about a second per fit).

    Returns
    -------
    ndarray of shape (n_samples,): the label predicted for each row with that row left out.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> X = [[0.0], [0.2], [0.4], [1.0], [1.2], [1.4]]
    >>> svc_loocv_predict(SVC(kernel="linear"), X, [0, 0, 0, 1, 1, 1]).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    check_estimator(svc, "svc")
    X, y = check_labels(X, y)
    full = clone(svc).fit(X, y)
    if not hasattr(full, "support_"):
        raise TypeError(f"svc must be a support vector classifier (sklearn.svm.SVC, with support_ after fit); got "
                        f"{type(svc).__name__}. For other models use loocv_accuracy(model, X, y).")
    pred = full.predict(X)
    refit = np.zeros(len(y), dtype=bool)
    refit[full.support_] = True
    if len(full.classes_) == 2:
        margin = np.where(y == full.classes_[1], 1.0, -1.0) * full.decision_function(X)
        refit &= margin >= -10 * full.tol      # fact 2: misclassified support vectors stay wrong
    todo = np.flatnonzero(refit)
    pred[todo] = Parallel(n_jobs=n_jobs)(delayed(_leave_one_out_predict)(svc, X, y, i) for i in todo)
    return pred


def _leave_one_out_predict(model, X, y, i):
    keep = np.ones(len(y), dtype=bool)
    keep[i] = False
    return clone(model).fit(X[keep], y[keep]).predict(X[i : i + 1])[0]



# --------------------------------------------------------------------------------------------
# scores and paired tests

#: the scores :func:`prf_scores` returns
SCORES = ("accuracy", "micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall", "macro_f1")


def _indicator(y, classes):
    y = np.asarray(y)
    if y.ndim == 2:
        return y != 0
    return y[:, None] == np.asarray(classes)[None, :]


def _scores(T, P):
    """Every score of :data:`SCORES` for predictions ``P`` (..., n, C) against truth ``T`` (n, C)."""
    tp = (P & T).sum(axis=-2).astype(np.float64)  # (..., C)
    pp = P.sum(axis=-2).astype(np.float64)
    tt = np.broadcast_to(T.sum(axis=0).astype(np.float64), tp.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        micro_p = np.nan_to_num(tp.sum(-1) / pp.sum(-1))
        micro_r = np.nan_to_num(tp.sum(-1) / tt.sum(-1))
        micro_f = np.nan_to_num(2 * tp.sum(-1) / (pp.sum(-1) + tt.sum(-1)))
        macro_p = np.nan_to_num(tp / pp).mean(-1)
        macro_r = np.nan_to_num(tp / tt).mean(-1)
        macro_f = np.nan_to_num(2 * tp / (pp + tt)).mean(-1)
    accuracy = np.all(P == T, axis=-1).mean(axis=-1)
    return dict(zip(SCORES, (accuracy, micro_p, micro_r, micro_f, macro_p, macro_r, macro_f)))


def prf_scores(y_true, y_pred, classes=None) -> dict:
    """Accuracy and micro/macro precision, recall and F1 (Section 3, lines 293-295).

    Micro-averaging pools the contingency tables of all categories (every document weighs
    the same); macro-averaging averages the per-category scores (every category weighs the
    same); F1 = 2 P R / (P + R). A category with no predicted (or no true) document scores
    0, as ``zero_division=0`` in scikit-learn. Accuracy is the fraction of documents whose
    predicted label (set) is exactly right.

    Parameters
    ----------
    y_true, y_pred : 1-D labels or 2-D indicator matrices
    classes : sequence, optional
        The categories averaged over (default: those in ``y_true`` and ``y_pred``).

    Examples
    --------
    >>> s = prf_scores(["a", "a", "b", "c"], ["a", "b", "b", "b"])
    >>> print({k: round(float(v), 4) for k, v in s.items()})  # doctest: +NORMALIZE_WHITESPACE
    {'accuracy': 0.5, 'micro_precision': 0.5, 'micro_recall': 0.5, 'micro_f1': 0.5,
     'macro_precision': 0.4444, 'macro_recall': 0.5, 'macro_f1': 0.3889}
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must have the same shape; got {y_true.shape} and {y_pred.shape}.")
    if y_true.size == 0:
        raise ValueError("y_true is empty: scores need predictions on at least one document.")
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, y_pred)
    return {k: float(v) for k, v in _scores(_indicator(y_true, classes), _indicator(y_pred, classes)).items()}


def paired_permutation_test(y_true, pred_a, pred_b, score="micro_f1", classes=None,
                            n_resamples: int = 999, random_state: int = 0):
    """Is classifier a better than b on ``score``? Approximate randomisation over test documents.

    Under the null hypothesis the two classifiers are exchangeable on each document, so
    their predictions for that document can be swapped; the p-value is the fraction of
    random swaps that give a difference at least as large in absolute value as the one
    observed (``scipy.stats.permutation_test``, paired samples, two-sided). Micro and
    macro scores are not sums over documents, so a paired t-test does not apply; this test
    needs no such assumption (Noreen 1989; Yeh 2000).

    Parameters
    ----------
    y_true, pred_a, pred_b : 1-D labels or 2-D indicator matrices, one row per test document
    score : str or list of str
        One of :data:`SCORES`, or several: they are tested on the same random swaps.
    classes : sequence, optional
        As in :func:`prf_scores`.
    n_resamples : int
    random_state : int

    Returns
    -------
    difference, p_value : float, or ndarray (one per score) when ``score`` is a list
        ``score(a) - score(b)`` and its two-sided p-value.

    Examples
    --------
    Classifier a is right on 40 of 50 documents, b on 30, and neither is right where the
    other is wrong only by chance:

    >>> import numpy as np
    >>> y = np.zeros(50, dtype=int)
    >>> a = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]
    >>> b = np.r_[np.zeros(30, dtype=int), np.ones(20, dtype=int)]
    >>> diff, p = paired_permutation_test(y, a, b, "accuracy", classes=[0, 1])
    >>> print(f"{diff:+.2f} {p:.3f}")
    +0.20 0.002
    """
    names = [score] if isinstance(score, str) else list(score)
    if not names or any(not isinstance(sc, str) or sc not in SCORES for sc in names):
        raise ValueError(f"score must be one of {SCORES} (or a list of them); got {score!r}.")
    y_true, pred_a, pred_b = np.asarray(y_true), np.asarray(pred_a), np.asarray(pred_b)
    if not (y_true.shape == pred_a.shape == pred_b.shape):
        raise ValueError(
            f"y_true, pred_a and pred_b must have the same shape (one row per test document); got "
            f"{y_true.shape}, {pred_a.shape}, {pred_b.shape}."
        )
    if len(y_true) == 0:
        raise ValueError("y_true is empty: the permutation test needs predictions on at least one document.")
    n_resamples = check_int(n_resamples, "n_resamples", 1, "n_resamples=999")
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, np.union1d(pred_a, pred_b))
    T = _indicator(y_true, classes)
    both = np.concatenate([_indicator(pred_a, classes), _indicator(pred_b, classes)])
    n = len(T)

    def statistic(ia, ib, axis=-1):  # indices into `both`: swapping them swaps a document's predictions
        sa, sb = _scores(T, both[ia]), _scores(T, both[ib])
        return np.stack([sa[sc] - sb[sc] for sc in names], axis=-1)  # the scores last: scipy's batches first

    res = stats.permutation_test((np.arange(n), np.arange(n) + n), statistic, permutation_type="samples",
                                 vectorized=True, n_resamples=n_resamples, batch=max(1, 20_000_000 // both.size),
                                 rng=np.random.default_rng(random_state))
    diff, p = np.asarray(res.statistic, dtype=float), np.asarray(res.pvalue, dtype=float)
    return (float(diff[0]), float(p[0])) if isinstance(score, str) else (diff, p)


def paired_comparisons(y_test, predictions: dict, reference, scores=SCORES, classes=None,
                       n_resamples: int = 999, random_state: int = 0) -> pd.DataFrame:
    """Each classifier minus a reference on every score, with paired permutation p-values.

    Parameters
    ----------
    y_test : labels or indicator matrix
    predictions : dict
        ``{name: test predictions}``.
    reference : predictions of the reference classifier on the same documents
    scores : iterable of str
        Names from :data:`SCORES`.

    Returns
    -------
    DataFrame
        Index: the names; columns ``(score, "difference")`` and ``(score, "p")``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> t = paired_comparisons(y, {"same": y.copy()}, y, scores=["accuracy"])
    >>> t.loc["same"].tolist()
    [0.0, 1.0]
    """
    if not isinstance(predictions, dict) or not predictions:
        raise ValueError("predictions must be a non-empty dict {name: test predictions}; wrap one as {'name': pred}.")
    scores = [scores] if isinstance(scores, str) else list(scores)
    rows = {}
    for name, pred in predictions.items():
        diff, p = paired_permutation_test(y_test, pred, reference, scores, classes, n_resamples, random_state)
        rows[name] = {**{(sc, "difference"): float(d) for sc, d in zip(scores, diff)},
                      **{(sc, "p"): float(q) for sc, q in zip(scores, p)}}
    columns = pd.MultiIndex.from_tuples([(sc, part) for sc in scores for part in ("difference", "p")])
    return pd.DataFrame.from_dict(rows, orient="index")[columns]
