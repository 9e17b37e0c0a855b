"""The data sets, the identical repeated folds, every method on every fold, and the summaries per data set."""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import RepeatedStratifiedKFold

from ..._io import progress_bar
from ..._validation import check_int
from ...data.collection import COLLECTION, load_dataset
from ...significance import summarize_scores
from .methods import make_methods

# --------------------------------------------------------------------------------------------
# the data sets and the folds


def as_xy(name, data):
    """``(X, y)`` of a data set given as a pair or as an object with ``X`` and ``y`` (a loader's Dataset)."""
    if hasattr(data, "X") and hasattr(data, "y"):
        X, y = data.X, data.y
    else:
        try:
            X, y = data
        except (TypeError, ValueError):
            raise TypeError(f"data set {name!r} must be a pair (X, y) or have attributes X and y; "
                            f"got {type(data).__name__}.") from None
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"data set {name!r}: X must be 2-D with one label per row; got X {X.shape}, y {y.shape}.")
    if not np.isfinite(X).all():
        raise ValueError(f"data set {name!r} has missing or infinite values; drop or impute them first.")
    return X, y


def load_datasets(names=None) -> dict:
    """``{name: (X, y)}`` of the collection's data sets (:mod:`helpers.data.collection`).

    Parameters
    ----------
    names : None, str or sequence of str
        ``None`` or ``"all"``: every data set of ``COLLECTION``; a comma-separated string
        (``"iris, wine"``, as a notebook parameter) or a list of names.
    """
    if names is None or (isinstance(names, str) and names.strip().lower() in ("", "all")):
        chosen = list(COLLECTION)
    elif isinstance(names, str):
        chosen = [n.strip() for n in names.split(",") if n.strip()]
    else:
        chosen = [str(n) for n in names]
    unknown = [n for n in chosen if n not in COLLECTION]
    if unknown:
        raise ValueError(f"unknown data set(s) {unknown}; the collection has {', '.join(COLLECTION)}.")
    return {name: as_xy(name, load_dataset(name)) for name in chosen}


def repeated_folds(y, n_splits: int = 10, n_repeats: int = 5, random_state: int = 0) -> list:
    """The folds of repeated stratified k-fold CV: ``[(repeat, fold, train_idx, test_idx), ...]``.

    ``RepeatedStratifiedKFold(n_splits, n_repeats, random_state)``; every method of a data set
    is scored on exactly these splits.

    Examples
    --------
    >>> folds = repeated_folds([0] * 10 + [1] * 10, n_splits=5, n_repeats=2)
    >>> len(folds), folds[6][:2], len(folds[6][3])
    (10, (1, 1), 4)
    """
    y = np.asarray(y)
    _, counts = np.unique(y, return_counts=True)
    if counts.min() < n_splits:
        raise ValueError(
            f"the smallest class has {counts.min()} rows, fewer than n_splits={n_splits}: stratified folds "
            "cannot all hold it. Drop classes that small or use fewer folds."
        )
    cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state)
    dummy = np.zeros((len(y), 1))
    return [(i // n_splits, i % n_splits, tr, te) for i, (tr, te) in enumerate(cv.split(dummy, y))]


def _score_fold(dataset, repeat, fold, X, y, train, test, methods):
    """Fit every method on one fold's training rows; one record per method."""
    records = []
    for name, estimator in methods.items():
        model = clone(estimator)
        start = time.perf_counter()
        model.fit(X[train], y[train])
        fitted = time.perf_counter()
        pred = model.predict(X[test])
        done = time.perf_counter()
        records.append({"dataset": dataset, "repeat": repeat, "fold": fold, "method": name,
                        "accuracy": float(np.mean(pred == y[test])), "n_test": len(test),
                        "fit_seconds": fitted - start, "predict_seconds": done - fitted})
    return records


def run_comparison(datasets: Mapping, methods=None, *, n_splits: int = 10, n_repeats: int = 5,
                   random_state: int = 0, covariance="ledoit_wolf", inner_folds: int = 3,
                   n_jobs: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Accuracy of every method on every fold of repeated stratified k-fold CV, on every data set.

    Parameters
    ----------
    datasets : mapping of {name: (X, y)}
        Or values with attributes ``X`` and ``y`` (the loaders' ``Dataset``); see
        :func:`load_datasets`.
    methods : dict of {name: estimator} or callable, optional
        Default :func:`make_methods` (called with each data set's number of features and
        ``covariance``, ``inner_folds``, ``random_state``); a callable is called as
        ``methods(n_features)``. Each estimator is cloned for each fold.
    n_splits, n_repeats, random_state
        The outer folds (:func:`repeated_folds`): the same for every method of a data set.
    n_jobs : int, optional
        Processes over the (data set, fold) pairs (joblib); the scores do not depend on it.
    progress : bool, optional
        A progress bar over the folds (``None``: on a terminal only).

    Returns
    -------
    DataFrame
        One row per data set, fold and method: ``dataset, repeat, fold, method, accuracy,
        n_test, fit_seconds, predict_seconds`` (fit includes every inner search), in the order
        data sets, folds, methods.
    """
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError("datasets must be a non-empty mapping {name: (X, y)}; see load_datasets().")
    tasks = []
    for name, data in datasets.items():
        X, y = as_xy(name, data)
        if methods is None:
            chosen = make_methods(X.shape[1], covariance=covariance, inner_folds=inner_folds,
                                  random_state=random_state)
        else:
            chosen = methods(X.shape[1]) if callable(methods) else dict(methods)
        if not chosen:
            raise ValueError("methods is empty: give at least one {name: estimator}.")
        for repeat, fold, train, test in repeated_folds(y, n_splits, n_repeats, random_state):
            tasks.append((name, repeat, fold, X, y, train, test, chosen))
    parts = Parallel(n_jobs=n_jobs, return_as="generator")(delayed(_score_fold)(*task) for task in tasks)
    records = [r for part in progress_bar(parts, progress=progress, total=len(tasks), desc="folds") for r in part]
    return pd.DataFrame.from_records(records)


# --------------------------------------------------------------------------------------------
# per data set


def _check_scores(scores) -> pd.DataFrame:
    need = {"dataset", "method", "accuracy"}
    if not isinstance(scores, pd.DataFrame) or not need <= set(scores.columns):
        raise ValueError(f"scores must be the DataFrame of run_comparison, with columns {sorted(need)}.")
    return scores


def summarise_by_dataset(scores: pd.DataFrame, n_splits: int = 10) -> pd.DataFrame:
    """Mean accuracy of each method on each data set with a corrected 95% interval.

    The folds of repeated k-fold CV share training rows, so the interval uses the corrected
    resampled t of Nadeau & Bengio with ``n_test / n_train = 1 / (n_splits - 1)``
    (:func:`helpers.evaluation.summarize_scores`).

    Returns
    -------
    DataFrame indexed by ``(dataset, method)`` with ``mean, sd, ci_low, ci_high, n``.

    Examples
    --------
    >>> s = pd.DataFrame({"dataset": ["a"] * 3, "method": ["m"] * 3, "accuracy": [0.9, 1.0, 0.95]})
    >>> print(summarise_by_dataset(s, n_splits=3).round(3).to_string())  # doctest: +NORMALIZE_WHITESPACE
                    mean    sd  ci_low  ci_high  n
    dataset method
    a       m       0.95  0.05   0.754    1.146  3
    """
    scores = _check_scores(scores)
    n_splits = check_int(n_splits, "n_splits", 2, "n_splits=10", why="the number of folds")
    parts = {}
    for dataset, part in scores.groupby("dataset", sort=False):
        per_method = {m: g["accuracy"].to_numpy() for m, g in part.groupby("method", sort=False)}
        parts[dataset] = summarize_scores(per_method, test_train_ratio=1.0 / (n_splits - 1))
    return pd.concat(parts, names=["dataset", "method"])


def paired_difference(scores: pd.DataFrame, aware: str, plain: str, datasets=None, n_splits: int = 10) -> pd.DataFrame:
    """The difference ``aware - plain`` on the same folds, per data set, with its corrected 95% interval.

    The paired version of :func:`summarise_by_dataset`: for each data set, the per-fold
    accuracy differences of two methods, summarised by
    :func:`helpers.significance.summarize_scores` with ``n_test / n_train = 1 / (n_splits - 1)``
    (Nadeau & Bengio's correction).

    Parameters
    ----------
    scores : DataFrame
        The rows of :func:`run_comparison`.
    aware, plain : str
        The two methods (names of :data:`METHODS`).
    datasets : sequence of str, optional
        The data sets, in this order (default: those of ``scores``, as they appear).
    n_splits : int
        The folds per repetition of the outer cross-validation.

    Returns
    -------
    DataFrame indexed by data set with ``mean, sd, ci_low, ci_high, n``.

    Examples
    --------
    >>> s = pd.DataFrame({"dataset": ["a"] * 6, "repeat": [0] * 6, "fold": [0, 1, 2] * 2,
    ...                   "method": ["x"] * 3 + ["y"] * 3, "accuracy": [0.9, 1.0, 0.95, 0.85, 0.9, 0.95]})
    >>> print(paired_difference(s, "x", "y", n_splits=3).round(3).to_string())  # doctest: +NORMALIZE_WHITESPACE
       mean    sd  ci_low  ci_high  n
    a  0.05  0.05  -0.146    0.246  3
    """
    scores = _check_scores(scores)
    n_splits = check_int(n_splits, "n_splits", 2, "n_splits=10", why="the number of folds")
    names = list(dict.fromkeys(scores["dataset"])) if datasets is None else list(datasets)
    per_fold = scores.pivot_table(index=["dataset", "repeat", "fold"], columns="method", values="accuracy")
    diff = per_fold[aware] - per_fold[plain]
    return summarize_scores({d: diff.loc[d].to_numpy() for d in names}, test_train_ratio=1 / (n_splits - 1))


def clear_differences(paired: pd.DataFrame) -> tuple[int, int]:
    """How many data sets have a paired interval (:func:`paired_difference`) clear of zero: ``(above, below)``.

    Examples
    --------
    >>> clear_differences(pd.DataFrame({"ci_low": [0.01, -0.2, -0.05], "ci_high": [0.1, -0.1, 0.05]}))
    (1, 1)
    """
    return int((paired["ci_low"] > 0).sum()), int((paired["ci_high"] < 0).sum())


def mean_accuracy(scores: pd.DataFrame) -> pd.DataFrame:
    """Mean accuracy over the folds: data sets in rows, methods in columns (in the order they appear).

    Examples
    --------
    >>> s = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "method": ["m", "n", "m", "n"],
    ...                   "accuracy": [0.9, 0.8, 0.7, 0.75]})
    >>> mean_accuracy(s)  # doctest: +NORMALIZE_WHITESPACE
    method     m     n
    dataset
    a        0.9  0.80
    b        0.7  0.75
    """
    scores = _check_scores(scores)
    table = scores.pivot_table(index="dataset", columns="method", values="accuracy", aggfunc="mean", sort=False)
    table.columns.name = "method"
    return table


def fit_times(scores: pd.DataFrame) -> pd.DataFrame:
    """Seconds per fit (inner searches included) and per prediction, by method: mean, median and total."""
    scores = _check_scores(scores)
    if "fit_seconds" not in scores:
        raise ValueError("scores has no fit_seconds column: pass the DataFrame of run_comparison.")
    g = scores.groupby("method", sort=False)
    return pd.DataFrame({"fit mean": g["fit_seconds"].mean(), "fit median": g["fit_seconds"].median(),
                         "predict mean": g["predict_seconds"].mean(),
                         "total": g["fit_seconds"].sum() + g["predict_seconds"].sum()})


