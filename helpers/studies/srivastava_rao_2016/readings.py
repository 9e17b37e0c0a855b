"""The readings of Mahal-kNN the paper's text supports, computed from inner products of PCA scores.

See :mod:`helpers.studies.srivastava_rao_2016` for the readings and the paper's sections.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy import linalg

from ..._arrays import row_sq_norms, sq_euclidean
from ..._io import progress_bar
from ..._validation import (
    as_float_array,
    check_positive_ints,
)
from ...gram import (
    ResidualCovariance,
    shrunk_residual_covariance,
)
from ...neighbours import distance_weighted_proba, majority_votes, nearest_indices

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
#: the readings of Mahal-kNN: every reading but the Euclidean baseline, in the order of READINGS
MAHAL_READINGS = [r for r in READINGS if r != "euclidean"]
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


@dataclass(frozen=True, kw_only=True)
class KnnOptions:
    """The choices every reading of Mahal-kNN shares, and the resampling of their intervals.

    One object carries them through :func:`mahalanobis_readings` and the functions built on
    it (the sweeps, Table 2's settings, the comparisons); each function uses the fields it
    needs and ignores the others.

    Parameters
    ----------
    sd : ndarray (d,), optional
        Standard deviation of each principal component over the documents the PCA was fitted
        on; ``class_blind`` divides the scores by it (PCA whitening). Needed for ``class_blind``
        and ``weighted``; its length is the dimension the readings work in (:attr:`n_components`).
    ks : iterable of int
        Neighbours to try (the paper: 3 to 20, line 269).
    readings : iterable of str, optional
        The readings to compute (keys of :data:`READINGS`); default: every one that applies to
        the labels.
    covariance : "ledoit_wolf" or float in (0, 1]
        Shrinkage of the category and pooled covariances (:class:`ResidualCovariance`; the
        shrinkage is computed from inner products, so no scikit-learn estimator object).
    random_state : int
        Seed of the training subsets, the linear SVM and the bootstrap resamples.
    n_resamples : int
        Resamples of the test documents in each paired bootstrap interval.
    verbose : bool or None
        Progress bars on the slow steps: ``True`` shows them, ``False`` hides them, ``None``
        shows them on a terminal only.

    Examples
    --------
    >>> import numpy as np
    >>> options = KnnOptions(sd=np.array([2.0, 1.0, 0.5]), ks=[3, 5])
    >>> options.n_components, options.ks, options.covariance, options.n_resamples
    (3, [3, 5], 'ledoit_wolf', 1999)
    >>> from dataclasses import replace
    >>> replace(options, sd=options.sd[:2]).n_components   # the same choices on the first two components
    2
    """

    sd: np.ndarray | None = None
    ks: Iterable[int] = range(3, 21)
    readings: Iterable[str] | str | None = None
    covariance: str | float = "ledoit_wolf"
    random_state: int = 0
    n_resamples: int = 1999
    verbose: bool | None = None

    @property
    def n_components(self) -> int:
        """The principal components the readings work in: the length of ``sd``."""
        if self.sd is None:
            raise ValueError("the number of components comes from sd, which is None: pass "
                             "KnnOptions(sd=...), each component's standard deviation.")
        return len(self.sd)


def mahalanobis_readings(Z_train, y_train, Z_test, options: KnnOptions | None = None, *, loo: bool = True,
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
    options : KnnOptions, optional
        ``sd`` (needed for ``class_blind`` and ``weighted``), ``ks``, ``readings``,
        ``covariance`` and ``verbose`` (a progress bar over the readings); default
        ``KnnOptions()``.
    loo : bool
        Also compute leave-one-out accuracies on the training documents for every k (to
        choose k without the test set).
    desc : str
        The label of the progress bar.

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
    >>> options = KnnOptions(ks=[3], readings=["euclidean", "per_category"], verbose=False)
    >>> out = mahalanobis_readings(Z, y, np.array([[4.5, 0.5]]), options, loo=False)
    >>> [str(out.pred[r][3][0]) for r in ("euclidean", "per_category")]
    ['b', 'a']
    """
    o = KnnOptions() if options is None else options
    task = _readings_task(Z_train, y_train, Z_test, o.sd, o.ks, o.readings, o.covariance, loo)
    gram = _Gram(task.Z_train, task.Z_test)
    out = Readings(classes=task.classes, multi_label=task.multi, info={"n_components": task.d})
    shrinkage = {}
    for step in progress_bar(_steps(task.wanted), desc=desc, progress=o.verbose):
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


