"""Does covariance-aware similarity help beyond the sources' data sets? The multi-data-set comparison.

Each source rests its claim on one data set: the variance-adjusted cosine and the
expected-Cholesky SVC of Sahoo & Maiti on the Wisconsin data, Mahal-kNN of Srivastava & Rao
on Reuters-21578. This module runs twelve classifiers (:data:`METHODS`) on many data sets
with one protocol, and tests each claim over the data sets:

* :func:`make_methods`: the classifiers, each a scikit-learn estimator whose every transform
  is fitted on the training rows it is given; kNN picks ``k`` by inner cross-validation
  (:class:`TunedKNN`, one neighbour search per inner fold for every ``k``), the QDA and the
  SVCs pick their regularisation with ``GridSearchCV``;
* :func:`run_comparison`: repeated stratified 10-fold CV, the same folds for every method,
  in parallel over (data set, fold); one row per data set, fold and method, with the
  accuracy and the seconds spent fitting and predicting;
* per data set: :func:`summarise_by_dataset` (mean and the corrected interval of Nadeau &
  Bengio); across data sets: :func:`claim_tests` (Wilcoxon signed-rank over the data sets,
  Holm-corrected), and, from :mod:`helpers.significance` and :mod:`helpers.plotting`,
  ``critical_difference``, ``average_ranks``, ``friedman_test`` and
  ``plot_critical_difference`` (Demsar 2006, computed and drawn by autorank);
* :func:`dataset_properties` and :func:`gain_correlations`: is the gain of a
  covariance-aware method related to what can be measured before fitting (the condition
  number of the pooled covariance, how different the class covariances are, n/p)?

References
----------
.. [1] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets,
   JMLR 7, 1-30 (average ranks, the Friedman test, the Nemenyi critical difference, the
   Wilcoxon signed-rank test over data sets).
.. [2] C. Nadeau & Y. Bengio (2003), Inference for the generalization error, Machine Learning
   52, 239-281 (the corrected interval of a mean over resampled folds).
.. [3] S. Holm (1979), A simple sequentially rejective multiple test procedure, Scand. J.
   Statist. 6, 65-70.
.. [4] G. E. P. Box (1949), A general distribution theory for a class of likelihood criteria,
   Biometrika 36, 317-346 (the M statistic for equal covariance matrices).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import stats
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold, StratifiedKFold
from sklearn.neighbors import NeighborhoodComponentsAnalysis
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from .._io import progress_bar
from .._validation import check_int
from ..data.collection import COLLECTION, collection_table, load_dataset, pooled_within_condition
from ..estimators import TUNED_KNN_KS, ClassConditionalKNN, ExpectedWhitener, TunedKNN, Whitener
from ..plotting import plot_critical_difference
from ..significance import average_ranks, critical_difference, friedman_test, holm, signed_rank_test, summarize_scores
from ..whitening import check_covariance_choice, estimate_covariance

__all__ = [
    "CLAIMS",
    "KS",
    "METHODS",
    "PROPERTY_LABELS",
    "SHORT",
    "Claim",
    "TunedKNN",
    "average_ranks",
    "claim_evidence",
    "claim_summary",
    "claim_tests",
    "clear_differences",
    "collection_table",
    "critical_difference",
    "critical_rho",
    "dataset_properties",
    "fit_times",
    "friedman_test",
    "gain_correlations",
    "holm",
    "load_datasets",
    "make_methods",
    "mean_accuracy",
    "paired_difference",
    "plot_critical_difference",
    "plot_gain_correlations",
    "plot_paired_differences",
    "repeated_folds",
    "run_comparison",
    "summarise_by_dataset",
    "tuning_grids",
]

#: numbers of neighbours tried by every kNN's inner cross-validation
KS = TUNED_KNN_KS
#: numbers of neighbours tried by ClassConditionalKNN (a grid search: one fit per k and inner fold)
CCKNN_KS = (1, 5, 11, 21)
#: the C values tried by the linear SVCs (larger C cost libsvm minutes on the largest sets for no gain)
LINEAR_C = (0.01, 0.1, 1.0)
#: the C values of the RBF SVC, and its gamma values as multiples of 1 / n_features
#: (scikit-learn's gamma="scale" on standardised features)
RBF_C = (1.0, 10.0)
RBF_GAMMA = (0.3, 1.0, 3.0)
#: L-BFGS iterations of NCA (scikit-learn's default 50 costs seconds per fit on the largest sets)
NCA_MAX_ITER = 20
#: the shrinkage of the QDA's class covariances tried by its inner cross-validation
QDA_SHRINKAGE = (0.01, 0.1, 0.5, 0.9)

#: method name -> the label shown in tables and figures, in display order
METHODS = {
    "euclidean_knn": "kNN, Euclidean (standardised)",
    "cosine_knn": "kNN, cosine (raw)",
    "scaled_cosine_knn": "kNN, cosine (scaled)",
    "vac_knn": "kNN, variance-adjusted cosine E(W^-1)",
    "mahalanobis_knn": "kNN, Mahalanobis (pooled)",
    "class_conditional_knn": "kNN, class-conditional cosine (Eq. 7)",
    "nca_knn": "NCA + kNN",
    "lda": "LDA (shrunk)",
    "qda": "QDA (shrunk)",
    "linear_svc": "SVC, linear",
    "rbf_svc": "SVC, RBF",
    "expected_cholesky_svc": "SVC, expected Cholesky E(C^-1)",
}

#: method name -> the short column label of the wide tables and figures
SHORT = {
    "euclidean_knn": "euclid", "cosine_knn": "cosine", "scaled_cosine_knn": "cos-scl", "vac_knn": "E(W)-cos",
    "mahalanobis_knn": "mahal", "class_conditional_knn": "cc-cos", "nca_knn": "nca", "lda": "lda", "qda": "qda",
    "linear_svc": "svc-lin", "rbf_svc": "svc-rbf", "expected_cholesky_svc": "svc-E(C)",
}

#: property of :func:`dataset_properties` -> its axis label
PROPERTY_LABELS = {
    "log10_condition": "log10 condition number, pooled covariance",
    "heterogeneity": "class-covariance heterogeneity (Box's M per row and feature)",
    "n_over_p": "rows per feature, n / p",
}


@dataclass(frozen=True)
class Claim:
    """A source's claim as a paired comparison: the covariance-aware method against its plain counterpart."""

    key: str          #: the ledger key notebook 08 answers (two comparisons may answer one claim)
    aware: str        #: the covariance-aware method (a name of :data:`METHODS`)
    plain: str        #: the plain method it is claimed to beat
    source: str       #: the source, in words

    @property
    def label(self) -> str:
        return f"{self.aware} vs {self.plain}"


#: the sources' claims, each tested over the data sets (positive difference: the claim's direction)
CLAIMS = (
    Claim("vac.expected-better", "vac_knn", "cosine_knn", "Sahoo & Maiti (2025), variance-adjusted cosine"),
    Claim("mkn.accuracy-vs-euclidean", "mahalanobis_knn", "euclidean_knn", "Srivastava & Rao (2016), Mahal-kNN"),
    Claim("svm.better-than-kernels", "expected_cholesky_svc", "linear_svc", "Sahoo & Maiti, Cholesky-kernel SVC"),
    Claim("svm.better-than-kernels", "expected_cholesky_svc", "rbf_svc", "Sahoo & Maiti, Cholesky-kernel SVC"),
)


# --------------------------------------------------------------------------------------------
# the methods


def make_methods(n_features: int, covariance="ledoit_wolf", inner_folds: int = 3, random_state: int = 0,
                 ks=KS) -> dict:
    """The twelve classifiers of :data:`METHODS`, unfitted, for data with ``n_features`` columns.

    Every transform sits inside the estimator, so cross-validation fits it on the training
    rows only. Covariance-aware steps estimate their covariances with ``covariance``
    (:func:`helpers.whitening.estimate_covariance`) on standardised features: a shrinkage
    estimate such as Ledoit-Wolf pulls towards a multiple of the identity, which is only a
    sensible target once the features share a scale. The whitening of the sources is
    uncentred, so before ``ExpectedWhitener`` and ``ClassConditionalKNN`` the features are
    only scaled (``StandardScaler(with_mean=False)``, which leaves the expected factor's
    cosines unchanged for the sample covariance).

    ============================  =================================================================
    ``euclidean_knn``             standardise, Euclidean kNN
    ``cosine_knn``                cosine kNN on the raw features (the sources' baseline)
    ``scaled_cosine_knn``         scale (divide by the sd, no centring), cosine kNN: what whitening
                                  adds beyond the scaling it includes
    ``vac_knn``                   scale, ``ExpectedWhitener`` (E(W^-1)), cosine kNN
    ``mahalanobis_knn``           standardise, ``Whitener`` (pooled covariance), Euclidean kNN
    ``class_conditional_knn``     scale, ``ClassConditionalKNN`` (cosine, Eq. 7 of the cosine paper)
    ``nca_knn``                   standardise, NCA, Euclidean kNN
    ``lda``                       standardise, LDA with Ledoit-Wolf shrinkage
    ``qda``                       standardise, QDA with shrunk class covariances, shrinkage by inner CV
    ``linear_svc``                standardise, linear SVC, ``C`` by inner CV
    ``rbf_svc``                   standardise, RBF SVC, ``C`` and ``gamma`` by inner CV
    ``expected_cholesky_svc``     scale, ``ExpectedWhitener`` (E(C^-1)), linear SVC, ``C`` by inner CV
    ============================  =================================================================

    kNN take ``k`` from ``ks`` by :class:`TunedKNN` (NCA, the one slow transform, fitted
    once per training set: ``nested=False``), ``ClassConditionalKNN`` from :data:`CCKNN_KS`
    by ``GridSearchCV``; every inner search uses ``inner_folds`` stratified folds seeded
    with ``random_state``. Grids: :data:`KS`, :data:`LINEAR_C`, :data:`RBF_C` and
    :data:`RBF_GAMMA` / n_features,
    :data:`QDA_SHRINKAGE` (scikit-learn's ``reg_param`` needs more rows than features in
    every class; the eigen solver's shrinkage does not).

    Examples
    --------
    >>> methods = make_methods(4)
    >>> list(methods) == list(METHODS)
    True
    >>> methods["rbf_svc"].param_grid["svc__gamma"]
    [0.075, 0.25, 0.75]
    """
    n_features = check_int(n_features, "n_features", 1, why="the data's columns")
    check_covariance_choice(covariance)
    inner = StratifiedKFold(inner_folds, shuffle=True, random_state=random_state)

    def knn(transformer, metric, nested=True):
        return TunedKNN(transformer, metric=metric, ks=ks, inner_folds=inner_folds, random_state=random_state,
                        nested=nested)

    def grid(pipeline, param_grid):
        return GridSearchCV(pipeline, param_grid, cv=inner, error_score="raise")

    c_grid = {"svc__C": list(LINEAR_C)}
    nca = NeighborhoodComponentsAnalysis(max_iter=NCA_MAX_ITER, random_state=random_state)
    return {
        "euclidean_knn": knn(StandardScaler(), "euclidean"),
        "cosine_knn": knn(None, "cosine"),
        "scaled_cosine_knn": knn(StandardScaler(with_mean=False), "cosine"),
        "vac_knn": knn(make_pipeline(StandardScaler(with_mean=False), ExpectedWhitener(covariance=covariance)),
                       "cosine"),
        "mahalanobis_knn": knn(make_pipeline(StandardScaler(), Whitener(covariance=covariance)), "euclidean"),
        "class_conditional_knn": grid(
            make_pipeline(StandardScaler(with_mean=False), ClassConditionalKNN(covariance=covariance)),
            {"classconditionalknn__n_neighbors": list(CCKNN_KS)}),
        "nca_knn": knn(make_pipeline(StandardScaler(), nca), "euclidean", nested=False),
        "lda": make_pipeline(StandardScaler(), LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")),
        "qda": grid(make_pipeline(StandardScaler(), QuadraticDiscriminantAnalysis(solver="eigen")),
                    {"quadraticdiscriminantanalysis__shrinkage": list(QDA_SHRINKAGE)}),
        "linear_svc": grid(make_pipeline(StandardScaler(), SVC(kernel="linear")), c_grid),
        "rbf_svc": grid(make_pipeline(StandardScaler(), SVC(kernel="rbf")),
                        {"svc__C": list(RBF_C), "svc__gamma": [g / n_features for g in RBF_GAMMA]}),
        "expected_cholesky_svc": grid(make_pipeline(StandardScaler(with_mean=False),
                                                    ExpectedWhitener(covariance=covariance), SVC(kernel="linear")),
                                      c_grid),
    }


def tuning_grids() -> dict:
    """What each method of :data:`METHODS` tunes by inner cross-validation, in words.

    Examples
    --------
    >>> grids = tuning_grids()
    >>> list(grids) == list(METHODS), grids["qda"]
    (True, 'shrinkage in (0.01, 0.1, 0.5, 0.9)')
    """
    return {
        "euclidean_knn": f"k in {KS}", "cosine_knn": f"k in {KS}", "scaled_cosine_knn": f"k in {KS}",
        "vac_knn": f"k in {KS}", "mahalanobis_knn": f"k in {KS}",
        "class_conditional_knn": f"k in {CCKNN_KS}",
        "nca_knn": f"k in {KS} (NCA fitted once per training set, {NCA_MAX_ITER} L-BFGS iterations)",
        "lda": "shrinkage: Ledoit-Wolf formula", "qda": f"shrinkage in {QDA_SHRINKAGE}",
        "linear_svc": f"C in {LINEAR_C}", "rbf_svc": f"C in {RBF_C}, gamma in {RBF_GAMMA} / p",
        "expected_cholesky_svc": f"C in {LINEAR_C}",
    }


# --------------------------------------------------------------------------------------------
# the data sets and the folds


def _as_xy(name, data):
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
    return {name: _as_xy(name, load_dataset(name)) for name in chosen}


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
        X, y = _as_xy(name, data)
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


# --------------------------------------------------------------------------------------------
# across data sets


def claim_tests(table: pd.DataFrame, claims: Sequence = CLAIMS) -> pd.DataFrame:
    """Each claim as a paired test over the data sets: Wilcoxon signed-rank, Holm-corrected.

    For each :class:`Claim`, the differences ``aware - plain`` of the per-data-set mean
    accuracies are tested with the two-sided Wilcoxon signed-rank test
    (:func:`helpers.significance.signed_rank_test`, zero differences dropped); the p-values of
    all the claims are adjusted together by :func:`helpers.significance.holm`.

    Returns
    -------
    DataFrame indexed by ``claim.label`` with ``key, aware, plain, mean_diff, median_diff,
    wins, losses, ties, statistic, p_value, p_holm, n_datasets``; a positive difference is
    the claim's direction.

    Examples
    --------
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    >>> r = claim_tests(t, [Claim("k", "x", "y", "a source")]).iloc[0]
    >>> print(f"{r['median_diff']:+.3f} {r['wins']}/{r['losses']} p={r['p_value']:.4f} holm={r['p_holm']:.4f}")
    +0.030 6/0 p=0.0312 holm=0.0312
    """
    if not isinstance(table, pd.DataFrame) or table.isna().any().any():
        raise ValueError("table must be a DataFrame of mean accuracies without gaps, data sets in rows and "
                         "methods in columns (mean_accuracy(scores)).")
    claims = list(claims)
    if not claims:
        raise ValueError("claims is empty: give at least one Claim(key, aware, plain, source).")
    rows = {}
    for c in claims:
        missing = [m for m in (c.aware, c.plain) if m not in table.columns]
        if missing:
            raise ValueError(f"claim {c.key!r}: no accuracies for {missing}; the table has {list(table.columns)}.")
        rows[c.label] = {"key": c.key, "aware": c.aware, "plain": c.plain,
                         **signed_rank_test(table[c.aware], table[c.plain])}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.insert(out.columns.get_loc("p_value") + 1, "p_holm", holm(out["p_value"].to_numpy()))
    return out


def claim_evidence(part: pd.DataFrame) -> str:
    """The rows of :func:`claim_tests` that answer one claim, in words, joined by ``"; "``.

    Examples
    --------
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    >>> text = claim_evidence(claim_tests(t, [Claim("k", "x", "y", "a source")]))
    >>> head, tail = text.split(" (")
    >>> head
    'x minus y over 6 data sets: median +0.0300, mean +0.0300'
    >>> tail
    '6 higher, 0 lower, 0 equal), Wilcoxon p = 0.031, Holm p = 0.031'
    """
    return "; ".join(
        f"{METHODS.get(r['aware'], r['aware'])} minus {METHODS.get(r['plain'], r['plain'])} over {r['n_datasets']} "
        f"data sets: median {r['median_diff']:+.4f}, mean {r['mean_diff']:+.4f} ({r['wins']} higher, {r['losses']} "
        f"lower, {r['ties']} equal), Wilcoxon p = {r['p_value']:.2g}, Holm p = {r['p_holm']:.2g}"
        for _, r in part.iterrows())


def claim_summary(row) -> str:
    """One row of :func:`claim_tests` in words: the median difference, the wins and Holm's p.

    Examples
    --------
    >>> claim_summary({"median_diff": 0.0049, "wins": 14, "n_datasets": 20, "p_holm": 0.1481})
    'median +0.005, 14 of 20 data sets higher, Holm p = 0.15'
    """
    return (f"median {row['median_diff']:+.3f}, {row['wins']} of {row['n_datasets']} data sets higher, "
            f"Holm p = {row['p_holm']:.2g}")


# --------------------------------------------------------------------------------------------
# when does whitening help?


def _standardise(X):
    sd = X.std(axis=0, ddof=1)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def dataset_properties(datasets: Mapping, covariance="ledoit_wolf") -> pd.DataFrame:
    """What can be measured on each data set before fitting anything, on standardised features.

    Columns: ``n``, ``p``, ``classes``, ``n_over_p``;
    ``log10_condition``, the base-10 logarithm of the condition number of the pooled
    within-class sample covariance (:func:`helpers.data.collection.pooled_within_condition`:
    how unevenly the variance is spread; whitening divides by its small eigenvalues);
    ``heterogeneity``, how different the class covariances are:
    ``(ln|S_pooled| - sum_k w_k ln|S_k|) / p`` with ``w_k = (n_k - 1) / (n - K)`` and ``S_k``
    the class covariances estimated with ``covariance``, ``S_pooled = sum_k w_k S_k``. With
    sample covariances this is Box's M divided by ``(n - K) p``; it is 0 exactly when the
    class covariances are equal, and larger the more they differ.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(size=(200, 2)) * [1, 1], rng.normal(size=(200, 2)) * [5, 0.2]])
    >>> props = dataset_properties({"toy": (X, np.repeat([0, 1], 200))}, covariance="sample")
    >>> print(props.loc["toy", ["n", "p", "classes"]].tolist(), f"{props.loc['toy', 'heterogeneity']:.2f}")
    [400, 2, 2] 0.99
    """
    check_covariance_choice(covariance)
    rows = {}
    for name, data in datasets.items():
        X, y = _as_xy(name, data)
        Z = _standardise(X)
        classes, y_idx, counts = np.unique(y, return_inverse=True, return_counts=True)
        n, p = Z.shape
        cond = pooled_within_condition(X, y)
        w = (counts - 1) / (n - len(classes))
        S = [estimate_covariance(Z[y_idx == k], covariance) for k in range(len(classes))]
        logdets = [np.linalg.slogdet(s) for s in S]
        pooled_logdet = np.linalg.slogdet(sum(wk * s for wk, s in zip(w, S)))
        if pooled_logdet[0] <= 0 or any(sign <= 0 for sign, _ in logdets):
            hetero = np.nan  # a singular class covariance: use a shrinkage covariance= (e.g. "ledoit_wolf")
        else:
            hetero = (pooled_logdet[1] - sum(wk * ld for wk, (_, ld) in zip(w, logdets))) / p
        rows[name] = {"n": n, "p": p, "classes": len(classes), "n_over_p": n / p,
                      "log10_condition": float(np.log10(cond)), "heterogeneity": float(hetero)}
    return pd.DataFrame.from_dict(rows, orient="index")


def gain_correlations(gains: pd.DataFrame, properties: pd.DataFrame) -> pd.DataFrame:
    """Spearman rank correlation of each gain with each property, over the data sets both hold.

    Parameters
    ----------
    gains : DataFrame
        Data sets in rows, one column per gain (e.g. Mahalanobis minus Euclidean kNN).
    properties : DataFrame
        Data sets in rows (:func:`dataset_properties`).

    Returns
    -------
    DataFrame indexed by ``(gain, property)`` with ``rho``, ``p_value`` (two-sided,
    :func:`scipy.stats.spearmanr`) and ``n``.

    Examples
    --------
    >>> g = pd.DataFrame({"gain": [0.01, 0.02, 0.03, 0.05]}, index=list("abcd"))
    >>> props = pd.DataFrame({"size": [1, 2, 3, 4], "noise": [3, 1, 4, 2]}, index=list("abcd"))
    >>> gain_correlations(g, props)["rho"].round(2).tolist()
    [1.0, 0.0]
    """
    common = gains.index.intersection(properties.index)
    if len(common) < 3:
        raise ValueError(f"gains and properties share {len(common)} data sets; a rank correlation needs at least 3.")
    rows = {}
    for g in gains.columns:
        for prop in properties.columns:
            pair = pd.concat([gains.loc[common, g], properties.loc[common, prop]], axis=1).dropna()
            res = stats.spearmanr(pair.iloc[:, 0], pair.iloc[:, 1])
            rows[(g, prop)] = {"rho": float(res.statistic), "p_value": float(res.pvalue), "n": len(pair)}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["gain", "property"])


def critical_rho(n: int, alpha: float = 0.05) -> float:
    """The smallest ``|rho|`` of a rank correlation over ``n`` points that reaches two-sided ``p < alpha``.

    The t approximation that :func:`scipy.stats.spearmanr` uses for its p-value:
    ``t = rho sqrt((n - 2) / (1 - rho^2))`` with ``n - 2`` degrees of freedom.

    Examples
    --------
    >>> round(critical_rho(20), 3)
    0.444
    """
    n = check_int(n, "n", 3, why="a rank correlation needs at least 3 points")
    t_crit = stats.t.ppf(1 - alpha / 2, n - 2)
    return float(t_crit / np.sqrt(n - 2 + t_crit**2))


# --------------------------------------------------------------------------------------------
# figures


def plot_paired_differences(paired: Mapping, names: Sequence, claims: Sequence = CLAIMS):
    """Each claim's paired difference per data set with its corrected interval, one panel per comparison.

    Green: the interval lies above zero (a gain on that data set); red: below (a loss); grey:
    not told apart. The title counts the clear gains and losses over all panels.

    Parameters
    ----------
    paired : mapping
        ``{claim.label: DataFrame}`` of :func:`paired_difference`, indexed by data set.
    names : sequence of str
        The data sets, drawn top to bottom in this order.
    claims : sequence of Claim
        The comparisons, one panel each (default :data:`CLAIMS`).

    Returns
    -------
    matplotlib Figure (the caller shows it).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = pd.DataFrame({"mean": [0.02, -0.01], "ci_low": [0.01, -0.03], "ci_high": [0.03, 0.01]}, index=["a", "b"])
    >>> fig = plot_paired_differences({"x vs y": d}, ["a", "b"], [Claim("k", "x", "y", "")])
    >>> print(fig.axes[0].get_title())
    x - y
    above 0 on 1, below on 0
    """
    import matplotlib.pyplot as plt

    names = list(names)
    claims = list(claims)
    fig, axes = plt.subplots(1, len(claims), figsize=(13, 5.2), sharey=True, squeeze=False)
    axes = axes[0]
    above_total = below_total = 0
    for ax, c in zip(axes, claims):
        d = paired[c.label].loc[names[::-1]]
        above, below = clear_differences(d)
        above_total, below_total = above_total + above, below_total + below
        colour = np.where(d["ci_low"] > 0, "C2", np.where(d["ci_high"] < 0, "C3", "grey"))
        ax.errorbar(d["mean"], range(len(d)), xerr=[d["mean"] - d["ci_low"], d["ci_high"] - d["mean"]], fmt="none",
                    ecolor=colour, elinewidth=1.5)
        ax.scatter(d["mean"], range(len(d)), c=colour, zorder=3, s=18)
        ax.axvline(0, color="k", lw=0.8)
        ax.set(title=f"{SHORT.get(c.aware, c.aware)} - {SHORT.get(c.plain, c.plain)}\nabove 0 on {above}, "
                     f"below on {below}", xlabel="accuracy difference")
    axes[0].set_yticks(range(len(names)), names[::-1])
    fig.suptitle(f"Covariance-aware minus plain, per data set: clear gains in {above_total} and clear losses in "
                 f"{below_total} of {len(claims) * len(names)} comparisons")
    fig.tight_layout()
    return fig


def plot_gain_correlations(gains: pd.DataFrame, properties: pd.DataFrame, corr: pd.DataFrame):
    """Each gain against each property measured before fitting, one panel per property.

    Parameters
    ----------
    gains : DataFrame
        Data sets in rows, one column per gain (accuracy of a covariance-aware method minus
        its plain counterpart).
    properties : DataFrame
        Data sets in rows, one column per property (:func:`dataset_properties`); ``n_over_p``
        is drawn on a log scale. Axis labels from :data:`PROPERTY_LABELS`.
    corr : DataFrame
        :func:`gain_correlations` of the two: each panel's title gives its rhos, the figure's
        title the strongest of all.

    Returns
    -------
    matplotlib Figure (the caller shows it).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> g = pd.DataFrame({"a - b": [0.01, 0.02, 0.03, 0.05]}, index=list("wxyz"))
    >>> props = pd.DataFrame({"heterogeneity": [0.1, 0.2, 0.3, 0.4]}, index=list("wxyz"))
    >>> fig = plot_gain_correlations(g, props, gain_correlations(g, props))
    >>> print(fig.axes[0].get_title())
    Spearman rho, in legend order:
    +1.00
    """
    import matplotlib.pyplot as plt

    strongest = corr["rho"].abs().idxmax()
    fig, axes = plt.subplots(1, len(properties.columns), figsize=(13, 4.6), sharey=True, squeeze=False)
    axes = axes[0]
    for ax, prop in zip(axes, properties.columns):
        for gain, marker in zip(gains.columns, "osd^v"):
            ax.scatter(properties[prop], gains[gain], marker=marker, s=22, label=gain)
        ax.axhline(0, color="k", lw=0.8)
        if prop == "n_over_p":
            ax.set_xscale("log")
            ax.set_xticks([10, 20, 50, 100, 200], labels=["10", "20", "50", "100", "200"])
            ax.minorticks_off()
        rhos = ", ".join(f"{corr.loc[(g, prop), 'rho']:+.2f}" for g in gains.columns)
        ax.set(xlabel=PROPERTY_LABELS.get(prop, prop))
        ax.set_title(f"Spearman rho, in legend order:\n{rhos}", fontsize=9)
    axes[0].set_ylabel("accuracy gain over the plain method")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8)
    fig.suptitle(f"Gains and what can be measured before fitting: the strongest of {len(corr)} rank correlations is "
                 f"rho = {corr.loc[strongest, 'rho']:+.2f} ({strongest[0]} with {strongest[1]}, "
                 f"p = {corr.loc[strongest, 'p_value']:.2f})", fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig
