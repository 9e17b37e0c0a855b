"""The Mahal-kNN paper (Srivastava & Rao 2016): its readings, its Table-2 driver and baselines.

The readings of Mahal-kNN that the paper's text supports (:data:`READINGS`), all computed
by :func:`mahalanobis_readings` from inner products of PCA scores:

* ``euclidean``: kNN, Euclidean distance, majority vote (the baseline);
* ``class_blind``: kNN after whitening with the covariance of all training documents,
  i.e. the feature transformation of Eqs 12-18 with S of the whole training set;
* ``pooled``: kNN with the Mahalanobis distance under the pooled within-category covariance
  (Section 2.2.2 names no covariance; "pooled" is the one covariance shared by all categories);
* ``per_category``: kNN where the distance to a training document uses the covariance of that
  document's category (Sections 2.4.3-2.4.4: each category's S from the training stage);
* ``nearest_category``: the category whose mean is nearest under its own covariance
  (Section 2.4.4, steps 1-2);
* ``weighted``: the class-membership probability from the Mahalanobis distances to the k
  neighbours (weights 1/d, as ``KNeighborsClassifier(weights="distance")``), class-blind.

Category covariances in a d-dimensional PCA space with fewer documents than d are singular,
so they are shrunk (``covariance="ledoit_wolf"`` by default) and, while a category has fewer
documents than d, inverted through the Woodbury identity (:class:`helpers.gram.ResidualCovariance`):
every distance needs only inner products of documents. Neighbours and votes come from the
kNN engine of :mod:`helpers.neighbours`.

Around the readings: :func:`component_sweep` and :func:`knn_sweep` (many PCA sizes and k
from one neighbour search), :func:`summarize_readings` and :func:`best_k` (the paper's choice
of k, and leave-one-out's), :func:`training_size_curve` (Figs 5 and 6), the dense reference
classifier :class:`MahalanobisCentroidClassifier` (the classification phase, Section 2.4.4)
and the paper's baselines: naive Bayes, Rocchio (:func:`rocchio_ovr_predict`) and a linear
SVM (:func:`baseline_predictions`).

The slow steps take ``verbose``: ``True`` shows a tqdm bar, ``False`` hides it, ``None``
(the default) shows it on a terminal only; ``TQDM_DISABLE=1`` hides every bar.

References
----------
.. [1] N. Srivastava & S. Rao (2016), Learning-based text classifiers using the Mahalanobis
   distance for correlated datasets, Int. J. Big Data Intelligence 3(1), 18-27.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import linalg
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._arrays import row_sq_norms, sq_distances_from_inner, sq_euclidean
from .._io import progress_bar
from .._validation import (
    OneOf,
    Real,
    as_float_array,
    check_finite,
    check_int,
    check_positive_ints,
    check_value,
    plain,
)
from ..evaluation import prf_scores
from ..gram import (
    ResidualCovariance,
    shrunk_residual_covariance,
)
from ..neighbours import distance_weighted_proba, majority_votes, nearest_indices
from ..whitening import estimate_covariance

__all__ = [
    "READINGS",
    "MahalanobisCentroidClassifier",
    "Readings",
    "baseline_predictions",
    "best_k",
    "component_sweep",
    "knn_sweep",
    "mahalanobis_readings",
    "rocchio_ovr_predict",
    "summarize_readings",
    "training_size_curve",
]

# --------------------------------------------------------------------------------------------
# the readings of Mahal-kNN

#: reading -> the name used in tables (the paper's section in brackets)
READINGS = {
    "euclidean": "Euclidean kNN",
    "class_blind": "Mahal-kNN, class-blind (Eqs 12-18)",
    "pooled": "Mahal-kNN, pooled covariance (2.2.2)",
    "per_category": "Mahal-kNN, category covariances (2.4.3)",
    "nearest_category": "nearest category (2.4.4)",
    "weighted": "Mahal-kNN, distance-weighted (line 269)",
}
_KNN_READINGS = ("euclidean", "class_blind", "pooled", "per_category", "weighted")
_SINGLE_LABEL_ONLY = ("per_category", "weighted")


@dataclass
class Readings:
    """Predictions of each reading of Mahal-kNN (:func:`mahalanobis_readings`).

    Attributes
    ----------
    classes : ndarray
        Class labels (single-label) or column indices (multi-label).
    multi_label : bool
    pred : dict
        ``pred[reading][k]``: test predictions (labels, or an indicator matrix); the
        ``nearest_category`` reading has no k and is stored under ``k = 0``.
    loo_accuracy : dict
        ``loo_accuracy[reading][k]``: leave-one-out accuracy on the training documents
        (exact match for multi-label); empty when not computed. Covariances include the
        left-out document (computing them without it is n times the work); neighbours never do.
    proba : dict
        ``proba[k]``: class-membership probabilities of the ``weighted`` reading (n_test, n_classes).
    info : dict
        ``shrinkage`` (per category and pooled), ``n_components``.
    """

    classes: np.ndarray
    multi_label: bool
    pred: dict = field(default_factory=dict)
    loo_accuracy: dict = field(default_factory=dict)
    proba: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)


def _accuracy(y_true, y_pred, multi):
    return float(np.mean(np.all(y_true == y_pred, axis=1))) if multi else float(np.mean(y_true == y_pred))


def mahalanobis_readings(Z_train, y_train, Z_test, sd=None, ks=range(3, 21), readings=None,
                         covariance="ledoit_wolf", loo: bool = True, verbose: bool | None = None,
                         desc: str = "readings") -> Readings:
    """Test predictions of every reading of Mahal-kNN (:data:`READINGS`) for every k.

    Parameters
    ----------
    Z_train, Z_test : ndarray (n, d)
        PCA scores of the training and test documents.
    y_train : ndarray
        Labels (1-D) or a binary indicator matrix (2-D, multi-label: a document counts for
        each of its categories in the category means and covariances, and a kNN reading
        assigns a label when more than half of the k neighbours carry it). ``per_category``
        and ``weighted`` need single labels.
    sd : ndarray (d,), optional
        Standard deviation of each component over the documents the PCA was fitted on;
        ``class_blind`` divides the scores by it (PCA whitening). Needed for ``class_blind``
        and ``weighted``.
    ks : iterable of int
        Neighbours to try (the paper: 3 to 20).
    readings : iterable of str, optional
        Default: all that apply to the labels.
    covariance : "ledoit_wolf" or float in (0, 1]
        Shrinkage of the category and pooled covariances (:class:`ResidualCovariance`; the
        shrinkage is computed from inner products, so no scikit-learn estimator object).
    loo : bool
        Also compute leave-one-out accuracies on the training documents for every k (to
        choose k without the test set).
    verbose : bool or None
        A progress bar over the readings.
    desc : str
        The label of that bar.

    Returns
    -------
    Readings

    Examples
    --------
    Category "a" stretches along x, category "b" (centred at x = 4) along y. A query just
    above a's long axis, next to b's centre: its Euclidean neighbours are b's documents,
    while under each document's own category covariance the a-documents are nearer.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=(40, 2)) * [6.0, 0.3]
    >>> b = rng.normal(size=(40, 2)) * [0.3, 6.0] + [4.0, 0.0]
    >>> Z, y = np.vstack([a, b]), np.array(["a"] * 40 + ["b"] * 40)
    >>> out = mahalanobis_readings(Z, y, np.array([[4.5, 0.5]]), ks=[3], loo=False,
    ...                            readings=["euclidean", "per_category"], verbose=False)
    >>> [str(out.pred[r][3][0]) for r in ("euclidean", "per_category")]
    ['b', 'a']
    """
    task = _readings_task(Z_train, y_train, Z_test, sd, ks, readings, covariance, loo)
    gram = _Gram(task.Z_train, task.Z_test)
    out = Readings(classes=task.classes, multi_label=task.multi, info={"n_components": task.d})
    shrinkage = {}
    for step in progress_bar(_steps(task.wanted), desc=desc, progress=verbose):
        if step == "categories":
            _category_readings(task, gram, out, shrinkage)
        else:
            _knn_reading(task, out, step, *_DISTANCES[step](task, gram, shrinkage))
    out.info["shrinkage"] = shrinkage
    if not task.multi:  # labels, not their indices
        out.pred = {r: {k: task.classes[p] for k, p in by_k.items()} for r, by_k in out.pred.items()}
    return out


@dataclass
class _Task:
    """The checked inputs of :func:`mahalanobis_readings`, shared by every reading."""

    Z_train: np.ndarray
    Z_test: np.ndarray
    classes: np.ndarray
    Y: np.ndarray          # what the neighbours vote with: class codes, or the 0/1 indicator matrix
    docs: np.ndarray       # (document, category) memberships: the document ...
    labels: np.ndarray     # ... and the category's code
    multi: bool
    ks: list
    wanted: list
    sd: np.ndarray | None
    covariance: object
    loo: bool

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def d(self) -> int:
        return self.Z_train.shape[1]


class _Gram:
    """Inner products of the PCA scores, each computed once, when a reading first needs it."""

    def __init__(self, Z_train: np.ndarray, Z_test: np.ndarray):
        self.Z_train, self.Z_test = Z_train, Z_test

    @cached_property
    def test_train(self) -> np.ndarray:
        """``G = Z_test Z_train'``."""
        return self.Z_test @ self.Z_train.T

    @cached_property
    def train_train(self) -> np.ndarray:
        """``K = Z_train Z_train'``."""
        return self.Z_train @ self.Z_train.T

    @cached_property
    def test_sq(self) -> np.ndarray:
        return row_sq_norms(self.Z_test)

    @cached_property
    def train_sq(self) -> np.ndarray:
        return row_sq_norms(self.Z_train)


def _readings_task(Z_train, y_train, Z_test, sd, ks, readings, covariance, loo) -> _Task:
    """Check the inputs of :func:`mahalanobis_readings` once, with messages that say what to pass."""
    Z_train = as_float_array(Z_train, "Z_train", ndim=2)
    Z_test = as_float_array(Z_test, "Z_test", ndim=2)
    if Z_train.shape[1] != Z_test.shape[1]:
        raise ValueError(
            f"Z_train and Z_test must be 2-D with the same columns; got {Z_train.shape} and {Z_test.shape}."
        )
    multi, classes, Y, docs, labels = _label_codes(y_train, len(Z_train))
    n_tr, d = Z_train.shape
    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)", maximum=n_tr - 1,
                                        why="training documents minus one")))
    wanted = _wanted_readings(readings, multi)
    if set(wanted) & {"class_blind", "weighted"} and (
        sd is None or np.shape(sd) != (d,) or np.any(np.asarray(sd) <= 0)
    ):
        raise ValueError(f"class_blind and weighted need sd: {d} positive component standard deviations.")
    counts = np.bincount(labels, minlength=len(classes))
    if set(wanted) & {"per_category", "nearest_category"} and counts.min() < 2:
        small = [str(c) for c, n in zip(classes, counts) if n < 2]
        raise ValueError(f"categories {small} have fewer than two training documents: no covariance of their own.")
    return _Task(Z_train, Z_test, classes, Y, docs, labels, multi, ks, wanted, sd, covariance, loo)


def _label_codes(y_train, n_train: int):
    """``(multi, classes, Y, docs, labels)``: the votes' codes and the (document, category) memberships."""
    y = np.asarray(y_train)
    if len(y) != n_train:
        raise ValueError(f"y_train has {len(y)} rows for {n_train} training documents.")
    if y.ndim == 2:
        Y = (y != 0).astype(np.int32)
        if np.any(Y.sum(axis=1) == 0):
            raise ValueError("every training document needs at least one label (a row of y_train is all zero).")
        docs, labels = np.nonzero(Y)
        return True, np.arange(y.shape[1]), Y, docs, labels
    classes, codes = np.unique(y, return_inverse=True)
    codes = codes.astype(np.intp)
    return False, classes, codes, np.arange(len(codes)), codes


def _wanted_readings(readings, multi: bool) -> list:
    """The readings asked for (default: all that apply to the labels), each checked against :data:`READINGS`."""
    wanted = list(READINGS) if readings is None else [readings] if isinstance(readings, str) else list(readings)
    unknown = [r for r in wanted if r not in READINGS]
    if unknown:
        raise ValueError(f"unknown reading(s) {unknown}; choose from {list(READINGS)}.")
    if multi:
        if readings is not None and set(wanted) & set(_SINGLE_LABEL_ONLY):
            raise ValueError(f"{sorted(set(wanted) & set(_SINGLE_LABEL_ONLY))} need single labels (a 1-D y_train).")
        wanted = [r for r in wanted if r not in _SINGLE_LABEL_ONLY]
    return wanted


def _steps(wanted) -> list:
    """The computations the wanted readings need, in order: ``weighted`` comes with ``class_blind``'s
    neighbours, ``per_category`` and ``nearest_category`` with one pass over the categories."""
    need = {"euclidean": "euclidean" in wanted,
            "class_blind": bool({"class_blind", "weighted"} & set(wanted)),
            "pooled": "pooled" in wanted,
            "categories": bool({"per_category", "nearest_category"} & set(wanted))}
    return [step for step, needed in need.items() if needed]


def _knn_reading(task: _Task, out: Readings, name: str, D_test, D_train) -> None:
    """Majority votes of the k nearest under squared distances ``D_test`` (and leave-one-out on ``D_train``).

    ``class_blind`` also gives the ``weighted`` reading: the same neighbours, votes weighted by 1 / distance.
    """
    k_max = task.ks[-1]
    weighted = name == "class_blind" and "weighted" in task.wanted
    idx = nearest_indices(D_test, k_max)
    out.pred[name] = majority_votes(idx, task.Y, task.ks, task.n_classes, multi_label=task.multi)
    if weighted:
        out.proba.update(_weighted_proba(task, idx, D_test))
        out.pred["weighted"] = {k: p.argmax(axis=1) for k, p in out.proba.items()}
    if D_train is None:
        return
    idx_tr = nearest_indices(D_train, k_max, exclude_self=True)
    votes = majority_votes(idx_tr, task.Y, task.ks, task.n_classes, multi_label=task.multi)
    out.loo_accuracy[name] = {k: _accuracy(task.Y, p, task.multi) for k, p in votes.items()}
    if weighted:
        out.loo_accuracy["weighted"] = {k: _accuracy(task.Y, p.argmax(axis=1), task.multi)
                                        for k, p in _weighted_proba(task, idx_tr, D_train).items()}


def _weighted_proba(task: _Task, idx, D) -> dict:
    """Class probabilities of the ``k`` nearest, weights 1 / distance (``D`` holds squared distances)."""
    return distance_weighted_proba(idx, np.sqrt(np.take_along_axis(D, idx, axis=1)), task.Y, task.ks,
                                   task.n_classes)


def _euclidean_distances(task: _Task, gram: _Gram, shrinkage: dict):
    """Squared Euclidean distances, test-training and (for leave-one-out) training-training."""
    D_train = sq_euclidean(task.Z_train, task.Z_train, gram.train_train) if task.loo else None
    return sq_euclidean(task.Z_test, task.Z_train, gram.test_train), D_train


def _class_blind_distances(task: _Task, gram: _Gram, shrinkage: dict):
    """Squared distances after dividing each component by its standard deviation (PCA whitening)."""
    W_tr, W_te = task.Z_train / task.sd, task.Z_test / task.sd
    return sq_euclidean(W_te, W_tr), (sq_euclidean(W_tr, W_tr) if task.loo else None)


def _whiten(L, Z, centre=None) -> np.ndarray:
    """Rows of ``Z`` (minus ``centre``) whitened with the lower Cholesky factor ``L`` of a d x d covariance."""
    Z = Z if centre is None else Z - centre
    return linalg.solve_triangular(L, Z.T, lower=True, check_finite=False).T


def _pooled_distances(task: _Task, gram: _Gram, shrinkage: dict):
    """Squared Mahalanobis distances under the pooled within-category covariance (its shrinkage into ``shrinkage``)."""
    docs, labels = task.docs, task.labels
    if len(docs) > task.d:  # more residuals than dimensions: whiten with the Cholesky factor of the d x d covariance
        means = np.array([task.Z_train[docs[labels == c]].mean(axis=0) for c in range(task.n_classes)])
        S, shrinkage["pooled"] = shrunk_residual_covariance(task.Z_train[docs] - means[labels], task.n_classes,
                                                            task.covariance, return_shrinkage=True)
        L = linalg.cholesky(S, lower=True, check_finite=False)
        W_tr, W_te = _whiten(L, task.Z_train), _whiten(L, task.Z_test)
        return sq_euclidean(W_te, W_tr), (sq_euclidean(W_tr, W_tr) if task.loo else None)
    G, K = gram.test_train, gram.train_train
    cov = ResidualCovariance(task.covariance).fit(K[np.ix_(docs, docs)], labels, task.d)
    shrinkage["pooled"] = cov.shrinkage_
    T_tr, T_te = cov.project(K[:, docs]), cov.project(G[:, docs])
    D_train = cov.sq_distances(T_tr, gram.train_sq, T_tr, gram.train_sq, K) if task.loo else None
    return cov.sq_distances(T_te, gram.test_sq, T_tr, gram.train_sq, G), D_train


_DISTANCES = {"euclidean": _euclidean_distances, "class_blind": _class_blind_distances, "pooled": _pooled_distances}


def _category_readings(task: _Task, gram: _Gram, out: Readings, shrinkage: dict) -> None:
    """``per_category`` (kNN, each document measured under its category's covariance) and ``nearest_category``."""
    n_tr, n_te = len(task.Z_train), len(task.Z_test)
    per_cat = "per_category" in task.wanted
    D_te = np.empty((n_te, n_tr)) if per_cat else None
    D_tr = np.empty((n_tr, n_tr)) if per_cat and task.loo else None
    D_mean = np.empty((n_te, task.n_classes))
    for c in range(task.n_classes):
        m = task.docs[task.labels == c]
        # more documents than dimensions: whiten with the d x d Cholesky factor; else Woodbury
        category = _dense_category if len(m) > task.d else _woodbury_category
        D_mean[:, c], to_members, shrinkage[str(task.classes[c])] = category(task, gram, m, per_cat)
        if per_cat:
            D_te[:, m] = to_members[0]
            if task.loo:
                D_tr[:, m] = to_members[1]
    if per_cat:
        _knn_reading(task, out, "per_category", D_te, D_tr)
    if "nearest_category" in task.wanted:
        nearest = D_mean.argmin(axis=1)
        out.pred["nearest_category"] = {0: np.eye(task.n_classes, dtype=int)[nearest] if task.multi else nearest}


def _dense_category(task: _Task, gram: _Gram, m, per_cat: bool):
    """One category with more documents than dimensions, through the d x d Cholesky factor of its covariance.

    Returns the squared distances of the test documents to its mean; with ``per_cat`` those of
    the test and (leave-one-out) training documents to its members; and its shrinkage.
    """
    mu = task.Z_train[m].mean(axis=0)
    S, shrink = shrunk_residual_covariance(task.Z_train[m] - mu, 1, task.covariance, return_shrinkage=True)
    L = linalg.cholesky(S, lower=True, check_finite=False)
    W_te = _whiten(L, task.Z_test, mu)
    to_mean = row_sq_norms(W_te)
    if not per_cat:
        return to_mean, None, shrink
    W_all = _whiten(L, task.Z_train, mu)
    return to_mean, (sq_euclidean(W_te, W_all[m]), sq_euclidean(W_all, W_all[m]) if task.loo else None), shrink


def _woodbury_category(task: _Task, gram: _Gram, m, per_cat: bool):
    """One category with fewer documents than dimensions, through the Woodbury identity (as :func:`_dense_category`)."""
    G, K = gram.test_train, gram.train_train
    cov = ResidualCovariance(task.covariance).fit(K[np.ix_(m, m)], np.zeros(len(m)), task.d)
    T_te = cov.project(G[:, m])
    to_mean = cov.sq_distances(T_te, gram.test_sq, cov.project_means(), cov.means_sq_norms_,
                               cov.mean_inner_products(G[:, m]))[:, 0]
    if not per_cat:
        return to_mean, None, cov.shrinkage_
    T_all = cov.project(K[:, m]) if task.loo else None  # every training document, members included
    T_m = T_all[m] if task.loo else cov.project(K[np.ix_(m, m)])
    D_te = cov.sq_distances(T_te, gram.test_sq, T_m, gram.train_sq[m], G[:, m])
    D_tr = cov.sq_distances(T_all, gram.train_sq, T_m, gram.train_sq[m], K[:, m]) if task.loo else None
    return to_mean, (D_te, D_tr), cov.shrinkage_


def component_sweep(Z_train, y_train, Z_test, y_test, sd, components, ks=range(3, 21)):
    """Euclidean and class-blind Mahal-kNN on the first m principal components, for many m and k.

    The inner products of the first m components are accumulated block by block, so the
    whole sweep costs one product of the score matrices.

    Parameters
    ----------
    Z_train, Z_test : ndarray
        PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels (single-label)
    sd : ndarray
        Standard deviation of each component (class-blind whitening divides by it).
    components : iterable of int
    ks : iterable of int

    Returns
    -------
    list of dict
        One per (reading, m, k): ``reading``, ``components``, ``k`` and every score of
        :func:`prf_scores`.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[0.0, 0.0], [0.2, 5.0], [3.0, 0.0], [3.2, 5.0]])
    >>> y = np.array(["a", "a", "b", "b"])
    >>> rows = component_sweep(Z, y, Z, y, np.array([1.0, 5.0]), [1, 2], [1])
    >>> [(r["reading"], r["components"], r["accuracy"]) for r in rows][:2]
    [('euclidean', 1, 1.0), ('class_blind', 1, 1.0)]
    """
    Z_train, Z_test = np.asarray(Z_train, dtype=np.float64), np.asarray(Z_test, dtype=np.float64)
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    if y_train.ndim != 1:
        raise ValueError("component_sweep needs single labels (a 1-D y_train).")
    check_finite(Z_train, "Z_train")
    check_finite(Z_test, "Z_test")
    d = min(Z_train.shape[1], len(sd))
    components = sorted(set(check_positive_ints(components, "components", "[10, 50, 100]", maximum=d,
                                                why="the principal components given")))
    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)", maximum=len(Z_train),
                                        why="training documents")))
    classes, Y = np.unique(y_train, return_inverse=True)
    rows, start = [], 0
    acc = {r: [np.zeros((len(Z_test), len(Z_train))), np.zeros(len(Z_test)), np.zeros(len(Z_train))]
           for r in ("euclidean", "class_blind")}
    for m in components:
        block = slice(start, m)
        for reading, scale in (("euclidean", 1.0), ("class_blind", np.asarray(sd)[block])):
            A, B = Z_test[:, block] / scale, Z_train[:, block] / scale
            G, a2, b2 = acc[reading]
            G += A @ B.T
            a2 += row_sq_norms(A)
            b2 += row_sq_norms(B)
            idx = nearest_indices(sq_distances_from_inner(a2, b2, G), ks[-1])
            for k, pred in majority_votes(idx, Y, ks, len(classes)).items():
                rows.append({"reading": reading, "components": m, "k": k,
                             **prf_scores(y_test, classes[pred], classes)})
        start = m
    return rows


def knn_sweep(X_train, y_train, X_test, ks) -> dict:
    """Majority-vote kNN predictions (Euclidean) for several k from one neighbour search.

    For inputs :func:`mahalanobis_readings` does not take, e.g. the sparse TF-IDF matrix
    (``sklearn.neighbors.NearestNeighbors``, brute force).

    Parameters
    ----------
    X_train, X_test : array or sparse matrix
    y_train : 1-D labels
    ks : iterable of int

    Returns
    -------
    dict
        ``{k: predicted labels}``; ties go to the first class, as ``KNeighborsClassifier``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    >>> out = knn_sweep(X, np.array(["a", "a", "b", "b", "b"]), np.array([[0.4], [9.0]]), [1, 3])
    >>> out[1].tolist(), out[3].tolist()
    (['a', 'b'], ['a', 'b'])
    """
    from sklearn.neighbors import NearestNeighbors

    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)", maximum=X_train.shape[0],
                                        why="training documents")))
    classes, Y = np.unique(np.asarray(y_train), return_inverse=True)
    idx = NearestNeighbors(n_neighbors=ks[-1], algorithm="brute").fit(X_train).kneighbors(X_test, return_distance=False)
    return {k: classes[p] for k, p in majority_votes(idx, Y, ks, len(classes)).items()}


def summarize_readings(readings: Readings, y_test) -> pd.DataFrame:
    """One row per reading: k chosen two ways and the scores of :func:`prf_scores` at the paper's k.

    The paper's protocol (line 269) tries k = 3 ... 20 and keeps the k with the best
    classification accuracy, which here is measured on the test documents; ``k (LOO)`` is
    chosen by leave-one-out accuracy on the training documents instead, without the test set.

    Returns
    -------
    DataFrame
        Indexed by reading key; columns ``reading`` (its name in :data:`READINGS`), ``k``
        (best test accuracy; 0 for ``nearest_category``, which has no k), the scores of
        :data:`SCORES` at that k, ``k (LOO)`` and ``accuracy at k (LOO)`` (NaN without LOO).
    """
    classes = None if readings.multi_label else readings.classes
    n_pred = {len(p) for by_k in readings.pred.values() for p in by_k.values()}
    if n_pred and np.shape(y_test)[0] not in n_pred:
        raise ValueError(f"y_test has {np.shape(y_test)[0]} rows but the readings predict {n_pred.pop()} test "
                         "documents; pass the labels of the Z_test given to mahalanobis_readings.")
    rows = {}
    for r, by_k in readings.pred.items():
        acc = {k: prf_scores(y_test, p, classes)["accuracy"] for k, p in by_k.items()}
        k = best_k(acc)
        row = {"reading": READINGS[r], "k": k, **prf_scores(y_test, by_k[k], classes)}
        loo = readings.loo_accuracy.get(r)
        row["k (LOO)"] = best_k(loo) if loo else (0 if r == "nearest_category" else np.nan)
        row["accuracy at k (LOO)"] = acc[row["k (LOO)"]] if loo or r == "nearest_category" else np.nan
        rows[r] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def training_size_curve(Z_train, y_train, Z_test, y_test, sd, fractions, ks=range(3, 21), readings=None,
                        covariance="ledoit_wolf", random_state: int = 0, verbose: bool | None = None,
                        full: Readings | None = None):
    """Accuracy of each reading against the number of training documents (Figs 5 and 6).

    For each fraction a stratified random subset of the training documents (seeded; the
    whole set at 1.0) trains every reading, with the best k of the paper's protocol (test
    accuracy over ``ks``); the PCA scores are those of the whole training set, fitted
    without labels, as the paper's PCA on unlabelled and seed data (line 265). ``full``:
    the :func:`mahalanobis_readings` of the whole training set, reused at fraction 1.0.

    Returns
    -------
    curve : DataFrame
        One row per (fraction, reading): ``fraction``, ``training documents``, ``reading``,
        ``k``, ``accuracy``, ``error`` (Eq. 19: 1 - accuracy).
    predictions : dict
        ``{(fraction, reading): test predictions at that k}``, for paired tests.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = np.vstack([rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 4])
    >>> y = np.repeat(["a", "b"], 30)
    >>> curve, _ = training_size_curve(Z, y, Z, y, Z.std(axis=0), [0.5, 1.0], ks=[3], readings=["euclidean"])
    >>> curve[["training documents", "accuracy"]].values.tolist()
    [[30.0, 1.0], [60.0, 1.0]]
    """
    from sklearn.model_selection import train_test_split

    y_train = np.asarray(y_train)
    fractions = list(fractions)
    if not fractions or any(Real(0, 1, closed="right").problem(f) is not None for f in fractions):
        raise ValueError(f"fractions must be numbers in (0, 1], e.g. [0.25, 0.5, 1.0]; got {fractions}.")
    if readings is not None:
        readings = [readings] if isinstance(readings, str) else list(readings)
    unknown = [] if readings is None else [r for r in readings if r not in READINGS]
    if unknown:
        raise ValueError(f"unknown reading(s) {unknown}; choose from {list(READINGS)}.")
    rows, preds = [], {}
    for frac in progress_bar(fractions, desc="training sizes", progress=verbose):
        idx = np.arange(len(y_train)) if frac == 1 else np.sort(train_test_split(
            np.arange(len(y_train)), train_size=frac, stratify=y_train, random_state=random_state)[0])
        if frac == 1 and full is not None:
            out = full
        else:
            out = mahalanobis_readings(Z_train[idx], y_train[idx], Z_test, sd, ks, readings, covariance, loo=False,
                                       verbose=False)
        for r, by_k in out.pred.items():
            if readings is not None and r not in readings:
                continue
            acc = {k: prf_scores(y_test, p)["accuracy"] for k, p in by_k.items() if k == 0 or k in set(ks)}
            k = best_k(acc)
            rows.append({"fraction": frac, "training documents": len(idx), "reading": r, "k": k,
                         "accuracy": acc[k], "error": 1 - acc[k]})
            preds[(frac, r)] = by_k[k]
    return pd.DataFrame(rows), preds


def best_k(accuracy_by_k: dict) -> int:
    """The k with the highest accuracy (the smallest such k on ties).

    Examples
    --------
    >>> best_k({3: 0.90, 5: 0.93, 7: 0.93})
    5
    """
    if not accuracy_by_k:
        raise ValueError("accuracy_by_k is empty: give {k: accuracy}.")
    top = max(accuracy_by_k.values())
    return min(k for k, a in accuracy_by_k.items() if a == top)


# --------------------------------------------------------------------------------------------
# the paper's classification phase as a dense estimator (the reference for small dimensions), and the baselines


class MahalanobisCentroidClassifier(ClassifierMixin, BaseEstimator):
    """Assign each sample to the class with the smallest Mahalanobis distance.

    The Mahal-kNN paper's classification phase: per class ``c`` a mean ``mu_c`` and a
    covariance ``S_c`` (``helpers.whitening.estimate_covariance``; shrinkage such as
    ``"ledoit_wolf"`` or a float keeps it invertible when the class has fewer documents
    than dimensions); predict ``argmin_c (x - mu_c)' S_c^-1 (x - mu_c)``. It needs at
    least two classes (one class would be the nearest to everything).

    Parameters
    ----------
    covariance : {"sample", "population", "ledoit_wolf", "oas"}, float or estimator, default="ledoit_wolf"
        The class covariance estimate: a name, a float shrinkage in [0, 1] or a scikit-learn
        covariance estimator such as ``sklearn.covariance.OAS()`` (cloned and fitted per class),
        as in :func:`helpers.whitening.estimate_covariance`.
    min_class_size : int, default=2
        Classes with fewer training samples (a covariance needs two) use the covariance of
        all training samples instead (the pooled, class-blind estimate).
    degenerate_rtol : float or None, default=1e-8
        A class covariance whose smallest eigenvalue is at most this fraction of the largest
        eigenvalue of the pooled covariance is not positive definite in practice: e.g. two
        samples, where Ledoit-Wolf estimates a shrinkage of 0 and leaves a rank-1 matrix,
        or identical samples (no spread at all). Its pseudo-inverse would measure distance
        along a few directions only and make that class the nearest to almost everything,
        so such a class uses the pooled covariance too. ``None`` keeps every class's own
        estimate (pseudo-inverse).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    means_ : ndarray (n_classes, n_features)
    precisions_ : list of ndarray
        Inverse (pseudo-inverse) covariance per class.
    pooled_classes_ : ndarray
        The classes that use the pooled covariance (too small or degenerate).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [1, 0.1], [-1, -0.1], [0, 5], [0.1, 6], [-0.1, 4]])
    >>> clf = MahalanobisCentroidClassifier(0.1).fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[0.5, 0.0], [0.0, 4.5]]).tolist()
    [0, 1]
    """

    def __init__(self, covariance="ledoit_wolf", min_class_size=2, degenerate_rtol=1e-8):
        self.covariance = covariance
        self.min_class_size = min_class_size
        self.degenerate_rtol = degenerate_rtol

    def fit(self, X, y):
        """Each class's mean and (pseudo-)inverse covariance."""
        check_int(self.min_class_size, "min_class_size", 2, "min_class_size=2", why="a covariance needs two samples")
        check_value(self.degenerate_rtol, OneOf([None]) | Real(0), "degenerate_rtol", "degenerate_rtol=1e-8")
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"MahalanobisCentroidClassifier needs samples of at least 2 classes; y has 1 class "
                f"({plain(self.classes_[0])!r}), which would be the nearest to every sample."
            )
        pooled, floor = None, None
        self.means_, self.precisions_, pooled_classes = [], [], []
        for i in range(len(self.classes_)):
            Xi = X[y_idx == i]
            S = None
            if len(Xi) >= self.min_class_size:
                S = np.atleast_2d(estimate_covariance(Xi, self.covariance))
            if S is None or self.degenerate_rtol is not None:
                if pooled is None:
                    pooled = np.atleast_2d(estimate_covariance(X, self.covariance))
                    floor = (self.degenerate_rtol or 0.0) * linalg.eigvalsh(pooled)[-1]
                if S is None or (self.degenerate_rtol is not None and linalg.eigvalsh(S)[0] <= floor):
                    S = pooled
                    pooled_classes.append(self.classes_[i])
            self.means_.append(Xi.mean(axis=0))
            self.precisions_.append(linalg.pinvh(S))
        self.means_ = np.array(self.means_)
        self.pooled_classes_ = np.array(pooled_classes, dtype=self.classes_.dtype)
        return self

    def decision_function(self, X):
        """Minus the squared Mahalanobis distance to each class, shape (n_samples, n_classes).

        Two classes: shape (n_samples,), as scikit-learn's binary classifiers: ``d_0 - d_1``,
        the squared distance to ``classes_[0]`` minus that to ``classes_[1]`` (positive:
        ``classes_[1]`` is nearer).
        """
        check_is_fitted(self, "means_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        d = np.empty((X.shape[0], len(self.classes_)))
        for i, (mu, P) in enumerate(zip(self.means_, self.precisions_)):
            D = X - mu
            d[:, i] = np.einsum("ij,jk,ik->i", D, P, D)
        return -d if len(self.classes_) > 2 else (d[:, 0] - d[:, 1])

    def predict(self, X):
        """The class whose mean is nearest under its own covariance."""
        s = self.decision_function(X)
        idx = s.argmax(axis=1) if s.ndim == 2 else (s > 0).astype(int)
        return self.classes_[idx]


def rocchio_ovr_predict(X_train, Y_train, X_test) -> np.ndarray:
    """One-vs-rest Rocchio (nearest centroid) for a multi-label indicator matrix.

    Label ``c`` is assigned when ``x`` is closer (Euclidean) to the centroid of the training
    documents with ``c`` than to the centroid of those without it, i.e. when
    ``2 x.(mu+ - mu-) > |mu+|^2 - |mu-|^2``. The same decisions as ``NearestCentroid().predict``
    fitted label by label, without its dense per-class statistics (minutes on a sparse
    90-label problem). ``OneVsRestClassifier(NearestCentroid())`` differs: it calls
    ``decision_function``, which also divides by within-class standard deviations.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [4.0, 0.0], [4.0, 1.0]])
    >>> Y = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    >>> rocchio_ovr_predict(X, Y, np.array([[0.5, 0.9], [3.5, 0.1]])).tolist()
    [[1, 1], [0, 0]]
    """
    Y = np.asarray(Y_train, dtype=np.float64)
    if Y.ndim != 2 or Y.shape[0] != X_train.shape[0]:
        raise ValueError(
            f"Y_train must be a (n_train, n_labels) indicator matrix with n_train = {X_train.shape[0]}; "
            f"got shape {Y.shape}. Use MultiLabelBinarizer().fit_transform(topics)."
        )
    n_pos = Y.sum(axis=0)
    if np.any(n_pos == 0) or np.any(n_pos == Y.shape[0]):
        raise ValueError("Every label needs at least one positive and one negative training document.")
    pos_sum = np.asarray((sp.csr_matrix(Y.T) @ X_train).todense() if sp.issparse(X_train) else Y.T @ X_train)
    all_sum = np.asarray(X_train.sum(axis=0)).ravel()
    mu_pos = pos_sum / n_pos[:, None]
    mu_neg = (all_sum[None, :] - pos_sum) / (Y.shape[0] - n_pos)[:, None]
    bias = (mu_pos**2).sum(axis=1) - (mu_neg**2).sum(axis=1)
    score = 2 * np.asarray(X_test @ (mu_pos - mu_neg).T) - bias
    return (score > 0).astype(int)




def baseline_predictions(counts, tfidf, y_train, random_state: int = 0, methods=None) -> dict:
    """Test predictions of the paper's baselines (Table 2) and of a linear SVM.

    Parameters
    ----------
    counts : tuple of sparse matrices
        Term counts of the training and test documents.
    tfidf : tuple of sparse matrices
        Their TF-IDF weights.
    y_train : 1-D labels or 2-D indicator matrix (one-vs-rest then)
    random_state : int
        Seed of ``LinearSVC``.
    methods : iterable of str, optional
        Any of ``"naive Bayes"`` (``MultinomialNB`` on counts, as Lewis 1998), ``"Rocchio"``
        (nearest centroid on TF-IDF; :func:`rocchio_ovr_predict` for multi-label) and
        ``"linear SVM"`` (``LinearSVC`` on TF-IDF). Default: all three.

    Returns
    -------
    dict
        ``{method: predictions}``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 0], [6, 1], [5, 1], [0, 5], [1, 6], [1, 5]], dtype=float)
    >>> y = np.array(["a", "a", "a", "b", "b", "b"])
    >>> pred = baseline_predictions((X, X), (X, X), y)
    >>> {m: p.tolist() for m, p in pred.items()}["Rocchio"]
    ['a', 'a', 'a', 'b', 'b', 'b']
    """
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.neighbors import NearestCentroid
    from sklearn.svm import LinearSVC

    all_methods = ("naive Bayes", "Rocchio", "linear SVM")
    methods = all_methods if methods is None else (methods,) if isinstance(methods, str) else tuple(methods)
    unknown = [m for m in methods if m not in all_methods]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose from {list(all_methods)}.")
    (C_tr, C_te), (T_tr, T_te) = counts, tfidf
    y = np.asarray(y_train)
    multi = y.ndim == 2
    wrap = OneVsRestClassifier if multi else (lambda est: est)
    out = {}
    for name in methods:
        if name == "naive Bayes":
            out[name] = wrap(MultinomialNB()).fit(C_tr, y).predict(C_te)
        elif name == "Rocchio":
            if multi:
                out[name] = rocchio_ovr_predict(T_tr, y, T_te)
            else:
                with warnings.catch_warnings():
                    # NearestCentroid warns when a word never varies within a class (harmless for centroids)
                    warnings.filterwarnings("ignore", message=r"self\.within_class_std_dev_", category=UserWarning)
                    out[name] = NearestCentroid().fit(T_tr, y).predict(T_te)
        else:
            out[name] = wrap(LinearSVC(random_state=random_state)).fit(T_tr, y).predict(T_te)
    return out


