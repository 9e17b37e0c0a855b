"""Evaluation protocols for notebooks 03-04: repeated splits, repeated CV, LOOCV, McNemar.

Also the seeds' "population" protocol, kept under a name that says what it does:
:func:`population_protocol_predict` whitens every test point with the matrix of its
*own* class, so it reads the test labels. Use it to reproduce the papers, never to
evaluate a classifier. And two small checks the papers' claims call for: the rows of a
classification table (:func:`report_rows`) and exact linear separability
(:func:`is_linearly_separable`).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import optimize, stats
from sklearn.base import clone
from sklearn.metrics import (accuracy_score, classification_report, f1_score, make_scorer, pairwise_distances,
                             precision_score, recall_score)
from sklearn.model_selection import (LeaveOneOut, RepeatedStratifiedKFold, StratifiedShuffleSplit,
                                     cross_val_predict, cross_val_score, cross_validate)

from .whitening import class_whitening_matrices, transform_by_class

__all__ = [
    "METRICS",
    "summarize_scores",
    "corrected_paired_ttest",
    "compare_pairs",
    "repeated_split_scores",
    "repeated_cv_scores",
    "loocv_accuracy",
    "knn_cv_accuracy_by_k",
    "knn_cv_predictions_by_k",
    "mcnemar_exact",
    "report_rows",
    "is_linearly_separable",
    "population_protocol_predict",
    "population_protocol_cv",
    "population_split_scores",
    "svc_loocv_accuracy",
    "svc_loocv_predict",
    "plot_confusions",
]

#: Scores on the test rows of a split, by name: functions of ``(y_true, y_pred)`` with class 1
#: positive (malignant in WDBC); precision and recall count 0 when nothing is predicted positive.
METRICS = {
    "accuracy": accuracy_score,
    "precision": partial(precision_score, zero_division=0),
    "recall": partial(recall_score, zero_division=0),
    "f1": partial(f1_score, zero_division=0),
}


def _check_scoring(scoring):
    """``scoring`` as a tuple of metric names, and whether one name (a str) was given."""
    single = isinstance(scoring, str)
    names = (scoring,) if single else tuple(scoring)
    unknown = [n for n in names if n not in METRICS]
    if not names or unknown:
        raise ValueError(f"scoring must name metrics among {sorted(METRICS)}; got {scoring!r}. "
                         "Pass one name (scores per model) or a tuple (scores per model and metric).")
    return names, single


def _scorers(names):
    return {n: make_scorer(METRICS[n]) for n in names}


def _check_models(models) -> dict:
    if not isinstance(models, dict) or not models:
        raise ValueError("models must be a non-empty dict {name: estimator}; wrap a single model as {'name': model}.")
    return models


def _nb_scale(n: int, test_train_ratio) -> float:
    """Standard error of a mean of ``n`` resampled scores per unit sd (Nadeau & Bengio 2003)."""
    if test_train_ratio is None:
        return 1.0 / np.sqrt(n)
    if float(test_train_ratio) < 0:
        raise ValueError(f"test_train_ratio must be n_test / n_train >= 0, got {test_train_ratio}.")
    return float(np.sqrt(1.0 / n + float(test_train_ratio)))


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
    rows = {}
    for name, s in scores.items():
        s = np.asarray(s, dtype=float).ravel()
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
    a, b = np.asarray(scores_a, dtype=float).ravel(), np.asarray(scores_b, dtype=float).ravel()
    if a.shape != b.shape or a.size < 2:
        raise ValueError(f"need paired scores of equal length >= 2 from the same splits; got shapes {a.shape} and {b.shape}.")
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
    for a, b in pairs:
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
    names, single = _check_scoring(scoring)
    if int(n_splits) < 1:
        raise ValueError(f"n_splits must be at least 1, got {n_splits}.")
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    cv = StratifiedShuffleSplit(n_splits=int(n_splits), test_size=test_size, random_state=random_state)
    out = {}
    for name, m in models.items():
        res = cross_validate(clone(m), X, y, cv=cv, n_jobs=n_jobs, scoring=_scorers(names))
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
    if int(n_repeats) < 1 or int(n_folds) < 2:
        raise ValueError(f"need n_repeats >= 1 and n_folds >= 2, got {n_repeats} and {n_folds}.")
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    cv = RepeatedStratifiedKFold(n_splits=int(n_folds), n_repeats=int(n_repeats), random_state=random_state)
    return {name: cross_val_score(clone(m), X, y, cv=cv, n_jobs=n_jobs).reshape(int(n_repeats), int(n_folds))
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
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; pass matching arrays.")
    pred = cross_val_predict(clone(model), X, y, cv=LeaveOneOut())
    return float(np.mean(pred == y))


def _check_knn_inputs(X, y, ks):
    """Arrays, the K list and the class codes shared by the kNN-over-K helpers; clear errors otherwise."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be 2-D with one row per label; got X {X.shape} and y {y.shape}.")
    ks = [int(k) for k in ks]
    if not ks or min(ks) < 1:
        raise ValueError(f"ks must be a non-empty list of positive integers, got {ks}.")
    classes, y_idx = np.unique(y, return_inverse=True)
    return X, y, ks, classes, y_idx


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
    folds = list(cv.split(X, y))
    acc = np.zeros((len(ks), len(folds)))
    for j, (tr, te) in enumerate(folds):
        votes = _knn_fold_votes(X, y_idx, tr, te, ks, metric, transformer, y, len(classes))
        for i, k in enumerate(ks):
            acc[i, j] = np.mean(votes[:, k - 1].argmax(axis=1) == y_idx[te])
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
    folds = list(cv.split(X, y))
    held_out = np.bincount(np.concatenate([te for _, te in folds]), minlength=len(y))
    if not np.all(held_out == 1):
        raise ValueError(f"every row must be held out exactly once (LeaveOneOut, KFold); this splitter holds "
                         f"rows out {held_out.min()} to {held_out.max()} times: use knn_cv_accuracy_by_k.")
    pred = {k: np.empty(len(y), dtype=int) for k in ks}
    for tr, te in folds:
        votes = _knn_fold_votes(X, y_idx, tr, te, ks, metric, transformer, y, len(classes))
        for k in ks:
            pred[k][te] = votes[:, k - 1].argmax(axis=1)
    return {k: classes[p] for k, p in pred.items()}


def _knn_fold_votes(X, y_idx, tr, te, ks, metric, transformer, y, n_classes):
    """Cumulative class votes of the nearest training rows, shape (n_test, max(ks), n_classes)."""
    k_max = max(ks)
    if k_max > len(tr):
        raise ValueError(f"K = {k_max} exceeds the {len(tr)} rows of a training fold; use smaller ks.")
    X_tr, X_te = X[tr], X[te]
    if transformer is not None:
        t = clone(transformer).fit(X_tr, y[tr])
        X_tr, X_te = t.transform(X_tr), t.transform(X_te)
    order = np.argsort(pairwise_distances(X_te, X_tr, metric=metric), axis=1, kind="stable")[:, :k_max]
    return np.cumsum(y_idx[tr][order][:, :, None] == np.arange(n_classes), axis=1)


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
        raise ValueError("y_true, pred_a and pred_b must have the same length (predictions on one test set).")
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
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be 2-D with one row per label; got X {X.shape} and y {y.shape}.")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"linear separability is defined here for two classes; y has {classes.size}: {classes.tolist()}.")
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


def population_protocol_predict(model, X_train, y_train, X_test, y_test_used, X_fit=None, y_fit=None,
                                method="cholesky", estimator="sample", matrices=None):
    """The seeds' "population" protocol. USES THE TEST LABELS (``y_test_used``).

    Per-class whitening matrices are estimated on ``(X_fit, y_fit)`` (default: the
    training data; the papers used all 569 points), every training row is transformed
    with its class's matrix and so is every *test* row, with the label given in
    ``y_test_used``. Passing the true test labels reproduces the papers; passing wrong
    labels shows that the prediction follows the label we gave. ``matrices`` (``{label: W}``)
    replaces the estimated matrices by any label-dependent transform, e.g. random ones.

    Returns
    -------
    ndarray: predictions of ``model`` (a fresh clone, fitted on the transformed training data).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> pred = population_protocol_predict(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2])
    >>> pred.shape
    (20,)
    """
    X_train, X_test = np.asarray(X_train, dtype=float), np.asarray(X_test, dtype=float)
    y_train, y_test_used = np.asarray(y_train), np.asarray(y_test_used)
    if X_test.shape[0] != y_test_used.shape[0]:
        raise ValueError("population protocol needs one (used!) label per test row: y_test_used has the wrong length.")
    if matrices is not None:
        mats = matrices
    else:
        if X_fit is None:
            X_fit, y_fit = X_train, y_train
        mats = class_whitening_matrices(np.asarray(X_fit, dtype=float), np.asarray(y_fit), method=method,
                                        estimator=estimator)
    Z_train = transform_by_class(X_train, y_train, mats)
    Z_test = transform_by_class(X_test, y_test_used, mats)
    return clone(model).fit(Z_train, y_train).predict(Z_test)


def population_protocol_cv(model, X, y, cv, matrices_from="all", method="cholesky", estimator="sample",
                           n_jobs=None) -> float:
    """Cross-validated accuracy of the "population" protocol. USES THE TEST LABELS.

    Parameters
    ----------
    cv : scikit-learn splitter (e.g. ``LeaveOneOut()``, ``StratifiedKFold(5)``)
    matrices_from : {"all", "train"}
        Where the per-class matrices are estimated: once on all rows (as the papers
        evidently did) or inside each training fold.

    Returns
    -------
    float: accuracy pooled over all held-out predictions.

    Examples
    --------
    >>> from sklearn.model_selection import StratifiedKFold
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> acc = population_protocol_cv(KNeighborsClassifier(3), X, y, StratifiedKFold(4))
    >>> 0.0 <= acc <= 1.0
    True
    """
    if matrices_from not in ("all", "train"):
        raise ValueError(f"matrices_from must be 'all' or 'train', got {matrices_from!r}.")
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    pred = np.empty_like(y)
    if matrices_from == "all":
        # one transform of every row with its own class's matrix; then ordinary CV on it
        mats = class_whitening_matrices(X, y, method=method, estimator=estimator)
        Z = transform_by_class(X, y, mats)
        return float(np.mean(cross_val_predict(clone(model), Z, y, cv=cv, n_jobs=n_jobs) == y))
    folds = list(cv.split(X, y))
    parts = Parallel(n_jobs=n_jobs)(
        delayed(population_protocol_predict)(model, X[tr], y[tr], X[te], y[te], method=method, estimator=estimator)
        for tr, te in folds)
    for (_, te), part in zip(folds, parts):
        pred[te] = part
    return float(np.mean(pred == y))


def population_split_scores(model, X, y, n_splits=50, test_size=0.2, random_state=0, matrices_from="all",
                            method="cholesky", estimator="sample", n_jobs=None, scoring="accuracy"):
    """The "population" protocol over the same stratified splits as :func:`repeated_split_scores`.

    USES THE TEST LABELS: each test row is whitened with its own class's matrix.
    ``matrices_from="all"`` estimates the per-class matrices on all rows (as the papers),
    ``"train"`` on the training rows of each split only. ``scoring`` as in
    :func:`repeated_split_scores` (one name: an array; a tuple: ``{metric: array}``).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> population_split_scores(KNeighborsClassifier(3), X, y, n_splits=2).shape
    (2,)
    """
    if matrices_from not in ("all", "train"):
        raise ValueError(f"matrices_from must be 'all' or 'train', got {matrices_from!r}.")
    names, single = _check_scoring(scoring)
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    cv = StratifiedShuffleSplit(n_splits=int(n_splits), test_size=test_size, random_state=random_state)
    fit = (X, y) if matrices_from == "all" else (None, None)
    splits = list(cv.split(X, y))
    preds = Parallel(n_jobs=n_jobs)(
        delayed(population_protocol_predict)(model, X[tr], y[tr], X[te], y[te], *fit, method=method, estimator=estimator)
        for tr, te in splits)
    out = {n: np.asarray([METRICS[n](y[te], pred) for (_, te), pred in zip(splits, preds)]) for n in names}
    return out[names[0]] if single else out


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
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; pass matching arrays.")
    full = clone(svc).fit(X, y)
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


def plot_confusions(cases, labels=("benign", "malignant"), title=None):
    """Confusion-matrix heatmaps side by side, one per ``{name: (y_true, y_pred)}``.

    Returns the matplotlib Figure (the caller adds ``plt.show()``).
    """
    import matplotlib.pyplot as plt
    import seaborn as sns
    from sklearn.metrics import confusion_matrix

    if not isinstance(cases, dict) or not cases:
        raise ValueError("cases must be a non-empty dict {name: (y_true, y_pred)}.")
    fig, axes = plt.subplots(1, len(cases), figsize=(3.6 * len(cases), 3.4), squeeze=False)
    for ax, (name, (yt, yp)) in zip(axes[0], cases.items()):
        cm = confusion_matrix(yt, yp, labels=list(range(len(labels))))
        sns.heatmap(cm, annot=True, fmt="d", cbar=False, cmap="Blues", ax=ax,
                    xticklabels=labels, yticklabels=labels)
        ax.set(title=f"{name}\naccuracy {np.mean(np.asarray(yt) == np.asarray(yp)):.3f}",
               xlabel="predicted", ylabel="true")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
