"""Evaluation: scores, resampling protocols and the rows of a classification table.

* :data:`SCORE_FUNCTIONS` and :func:`check_scoring`: the scores of a split (class 1 positive);
* :func:`repeated_split_scores`, :func:`repeated_cv_scores`, :func:`loocv_accuracy`: every
  model on the same resamples (``n_jobs`` spreads the fits over processes);
* :func:`report_rows`: a classification table's rows as scikit-learn prints them;
* :func:`prf_scores` (and :data:`SCORES`): accuracy and micro/macro precision, recall and F1,
  vectorised over resamples through :func:`indicator_matrix` and :func:`score_indicators`.

Intervals and tests on these scores are in :mod:`helpers.significance`; kNN over many K at
once in :mod:`helpers.neighbours`; the SVC leave-one-out shortcut in :mod:`helpers.svm`.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from sklearn.base import clone
from sklearn.metrics import (
    accuracy_score,
    classification_report,
    f1_score,
    make_scorer,
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

from ._validation import (
    Integer,
    Real,
    check_estimator,
    check_int,
    check_label_values,
    check_labels,
    check_value,
    plain,
)

__all__ = [
    "SCORE_FUNCTIONS",
    "SCORES",
    "check_scoring",
    "exact_match_accuracy",
    "indicator_matrix",
    "loocv_accuracy",
    "prf_scores",
    "repeated_cv_scores",
    "repeated_split_scores",
    "report_rows",
    "score_indicators",
]

#: Scores on the test rows of a split, by name: functions of ``(y_true, y_pred)`` with class 1
#: positive (malignant in WDBC); precision and recall count 0 when nothing is predicted positive.
SCORE_FUNCTIONS = {
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
    unknown = [n for n in names if not isinstance(n, str) or n not in SCORE_FUNCTIONS]
    if not names or unknown:
        raise ValueError(f"scoring must name metrics among {sorted(SCORE_FUNCTIONS)}; got {scoring!r}. "
                         "Pass one name (scores per model) or a tuple (scores per model and metric).")
    return names, single


def _scorers(names):
    return {n: make_scorer(SCORE_FUNCTIONS[n]) for n in names}


def _check_models(models) -> dict:
    if not isinstance(models, dict) or not models:
        raise ValueError("models must be a non-empty dict {name: estimator}; wrap a single model as {'name': model}.")
    for name, m in models.items():
        check_estimator(m, f"models[{name!r}]")
    return models


def _check_resampling(random_state, n_jobs) -> None:
    """The seed and the number of processes, refused by name before any fit (scikit-learn's own words
    name neither: "Seed must be between 0 and 2**32 - 1", "n_jobs == 0 in Parallel has no meaning")."""
    if not (random_state is None or isinstance(random_state, np.random.RandomState)
            or Integer(0, 2**32 - 1).problem(random_state) is None):
        raise ValueError(f"random_state must be None or an integer in [0, 2**32 - 1] (the seed of the splits), "
                         f"e.g. random_state=0; got {random_state!r}.")
    if not (n_jobs is None or (Integer().problem(n_jobs) is None and n_jobs != 0)):
        raise ValueError(f"n_jobs must be None (one process), a positive number of processes or -1 (every core), "
                         f"e.g. n_jobs=-1; got {n_jobs!r}.")


def _check_stratified_folds(y, n_folds: int) -> None:
    """Stratified k-fold needs every class in every fold: n_folds <= the smallest class."""
    labels, counts = np.unique(y, return_counts=True)
    if n_folds > counts.min():
        small = labels[counts.argmin()]
        raise ValueError(
            f"n_folds={n_folds} exceeds the {counts.min()} member(s) of the smallest class "
            f"({plain(small)!r}); stratified folds need every class "
            f"in every fold. Use n_folds <= {counts.min()}, or LeaveOneOut()."
        )


def repeated_split_scores(models, X, y, n_splits=50, test_size=0.2, random_state=0, n_jobs=None,
                          scoring="accuracy") -> dict:
    """Test scores of each model over ``n_splits`` stratified random train/test splits.

    Every model sees the same splits (:class:`~sklearn.model_selection.StratifiedShuffleSplit`).
    ``n_jobs`` runs the splits in parallel processes (scikit-learn's meaning); the scores do
    not depend on it. Several metrics come from one fit per split.

    Parameters
    ----------
    scoring : str or tuple of str, default="accuracy"
        Names in :data:`SCORE_FUNCTIONS` (class 1 positive for precision, recall and F1).

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
    check_value(test_size, Real(0, 1, closed="neither") | Integer(1), "test_size", "test_size=0.2",
                why="the share of the rows, or their number, held out for testing")
    _check_resampling(random_state, n_jobs)
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
    _check_resampling(random_state, n_jobs)
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


# --------------------------------------------------------------------------------------------
# scores and paired tests

#: the scores :func:`prf_scores` returns
SCORES = ("accuracy", "micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall", "macro_f1")


def indicator_matrix(y, classes) -> np.ndarray:
    """Labels as a boolean (n, C) matrix over ``classes``; a 2-D indicator matrix is returned as booleans."""
    y = np.asarray(y)
    if y.ndim == 2:
        return y != 0
    return y[:, None] == np.asarray(classes)[None, :]


def score_indicators(T, P) -> dict:
    """Every score of :data:`SCORES` for predictions ``P`` (..., n, C) against truth ``T`` (n, C)."""
    tp = (P & T).sum(axis=-2).astype(np.float64)  # (..., C)
    pp = P.sum(axis=-2).astype(np.float64)
    tt = np.broadcast_to(T.sum(axis=-2).astype(np.float64), tp.shape)  # T may carry batch dimensions too
    with np.errstate(divide="ignore", invalid="ignore"):
        micro_p = np.nan_to_num(tp.sum(-1) / pp.sum(-1))
        micro_r = np.nan_to_num(tp.sum(-1) / tt.sum(-1))
        micro_f = np.nan_to_num(2 * tp.sum(-1) / (pp.sum(-1) + tt.sum(-1)))
        macro_p = np.nan_to_num(tp / pp).mean(-1)
        macro_r = np.nan_to_num(tp / tt).mean(-1)
        macro_f = np.nan_to_num(2 * tp / (pp + tt)).mean(-1)
    accuracy = np.all(P == T, axis=-1).mean(axis=-1)
    return dict(zip(SCORES, (accuracy, micro_p, micro_r, micro_f, macro_p, macro_r, macro_f)))


def exact_match_accuracy(y_true, y_pred, classes=None) -> float:
    """The ``accuracy`` of :func:`prf_scores`, without its other scores (the same number, a fraction of the time).

    The fraction of documents whose predicted label (set) is exactly right. As in
    :func:`prf_scores`, labels are compared through their indicators over ``classes``: two
    labels that are both outside ``classes`` count as equal (neither has an indicator).

    Examples
    --------
    >>> exact_match_accuracy(["a", "a", "b", "c"], ["a", "b", "b", "b"])
    0.5
    >>> exact_match_accuracy(["a", "x"], ["a", "y"], classes=["a", "b"])   # x and y are both outside the classes
    1.0
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.size == 0 or y_true.dtype.kind == "f" or y_pred.dtype.kind == "f":
        return prf_scores(y_true, y_pred, classes)["accuracy"]  # its messages; NaN labels as it treats them
    if y_true.ndim == 2:
        return float(np.all((y_true != 0) == (y_pred != 0), axis=1).mean())
    same = y_true == y_pred
    if classes is not None:
        same |= ~np.isin(y_true, classes) & ~np.isin(y_pred, classes)
    return float(same.mean())


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
    if y_true.ndim not in (1, 2):
        raise ValueError(
            f"y_true and y_pred must be 1-D labels (one per document) or 2-D indicator matrices (documents x "
            f"classes); got shape {y_true.shape}. Wrap a single label in a list, or flatten the extra dimensions."
        )
    if y_true.ndim == 1:  # a missing label (NaN, None) is no class: NaN != NaN scored it right and wrong at once
        check_label_values(y_true, "y_true")
        check_label_values(y_pred, "y_pred")
    else:
        for name, Y in (("y_true", y_true), ("y_pred", y_pred)):
            if Y.dtype.kind == "f" and np.isnan(Y).any():
                raise ValueError(f"{name} holds NaN at index {tuple(int(i) for i in np.argwhere(np.isnan(Y))[0])}; "
                                 "an indicator matrix holds 0 and 1 only: fill or drop those documents first.")
    if isinstance(classes, str):  # one category named, not its letters
        classes = [classes]
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, y_pred)
    elif len(classes) == 0:
        raise ValueError("classes is empty: the macro scores average over the categories it names. Pass the "
                         "categories, e.g. classes=np.unique(y_true), or leave classes=None for those present.")
    scores = score_indicators(indicator_matrix(y_true, classes), indicator_matrix(y_pred, classes))
    return {k: float(v) for k, v in scores.items()}


