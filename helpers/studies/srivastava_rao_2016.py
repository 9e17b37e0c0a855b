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

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import linalg
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._arrays import row_sq_norms
from .._io import progress_bar
from .._validation import check_finite, check_positive_ints
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


def _plain(label):
    """A numpy scalar label as a plain Python value, for readable messages."""
    return label.item() if isinstance(label, np.generic) else label


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
    Z_train, Z_test = np.asarray(Z_train, dtype=np.float64), np.asarray(Z_test, dtype=np.float64)
    if Z_train.ndim != 2 or Z_test.ndim != 2 or Z_train.shape[1] != Z_test.shape[1]:
        raise ValueError(
            f"Z_train and Z_test must be 2-D with the same columns; got {Z_train.shape} and {Z_test.shape}."
        )
    check_finite(Z_train, "Z_train")
    check_finite(Z_test, "Z_test")
    y = np.asarray(y_train)
    multi = y.ndim == 2
    if len(y) != len(Z_train):
        raise ValueError(f"y_train has {len(y)} rows for {len(Z_train)} training documents.")
    if multi:
        classes = np.arange(y.shape[1])
        Y = (y != 0).astype(np.int32)
        docs, labels = np.nonzero(Y)
        if np.any(Y.sum(axis=1) == 0):
            raise ValueError("every training document needs at least one label (a row of y_train is all zero).")
    else:
        classes, Y = np.unique(y, return_inverse=True)
        docs, labels = np.arange(len(Y)), Y
    n_classes = len(classes)
    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)")))
    n_tr, d = Z_train.shape
    if not ks or ks[0] < 1 or ks[-1] > n_tr - 1:
        raise ValueError(f"every k must lie in [1, {n_tr - 1}] (training documents minus one); got {ks}.")
    wanted = list(READINGS) if readings is None else [readings] if isinstance(readings, str) else list(readings)
    unknown = [r for r in wanted if r not in READINGS]
    if unknown:
        raise ValueError(f"unknown reading(s) {unknown}; choose from {list(READINGS)}.")
    if multi:
        if readings is not None and set(wanted) & set(_SINGLE_LABEL_ONLY):
            raise ValueError(f"{sorted(set(wanted) & set(_SINGLE_LABEL_ONLY))} need single labels (a 1-D y_train).")
        wanted = [r for r in wanted if r not in _SINGLE_LABEL_ONLY]
    if set(wanted) & {"class_blind", "weighted"} and (
        sd is None or np.shape(sd) != (d,) or np.any(np.asarray(sd) <= 0)
    ):
        raise ValueError(f"class_blind and weighted need sd: {d} positive component standard deviations.")
    counts = np.bincount(labels, minlength=n_classes)
    if set(wanted) & {"per_category", "nearest_category"} and counts.min() < 2:
        small = [str(c) for c, n in zip(classes, counts) if n < 2]
        raise ValueError(f"categories {small} have fewer than two training documents: no covariance of their own.")

    out = Readings(classes=classes, multi_label=multi, info={"n_components": d})
    Y_vote = Y if multi else Y.astype(np.intp)

    def weighted(idx, D):  # D holds squared distances; the weights are 1 / distance
        return distance_weighted_proba(idx, np.sqrt(np.take_along_axis(D, idx, axis=1)), Y_vote, ks, n_classes)

    def knn(name, D_test, D_train=None):
        k_max = ks[-1]
        idx = nearest_indices(D_test, k_max)
        out.pred[name] = majority_votes(idx, Y_vote, ks, n_classes, multi_label=multi)
        if name == "class_blind" and "weighted" in wanted:
            out.proba.update(weighted(idx, D_test))
            out.pred["weighted"] = {k: p.argmax(axis=1) for k, p in out.proba.items()}
        if D_train is not None:
            idx_tr = nearest_indices(D_train, k_max, exclude_self=True)
            truth = Y_vote
            out.loo_accuracy[name] = {k: _accuracy(truth, p, multi) for k, p in
                                      majority_votes(idx_tr, Y_vote, ks, n_classes, multi_label=multi).items()}
            if name == "class_blind" and "weighted" in wanted:
                P = weighted(idx_tr, D_train)
                out.loo_accuracy["weighted"] = {k: _accuracy(truth, p.argmax(axis=1), multi) for k, p in P.items()}

    steps = [r for r in ("euclidean", "class_blind", "pooled", "categories") if r in wanted
             or (r == "class_blind" and "weighted" in wanted)
             or (r == "categories" and set(wanted) & {"per_category", "nearest_category"})]
    woodbury_pooled = "pooled" in steps and len(docs) <= d  # fewer residuals than dimensions
    need_k = "categories" in steps or woodbury_pooled or ("euclidean" in steps and loo)
    G = Z_test @ Z_train.T if ("euclidean" in steps or need_k) else None
    K = Z_train @ Z_train.T if need_k else None
    q_sq, t_sq = row_sq_norms(Z_test), row_sq_norms(Z_train)
    shrinkage = {}

    def euclid(A, B, AB=None):
        AB = A @ B.T if AB is None else AB
        return np.maximum(row_sq_norms(A)[:, None] + row_sq_norms(B)[None, :] - 2.0 * AB, 0.0)

    for name in progress_bar(steps, desc=desc, progress=verbose):
        if name == "euclidean":
            knn(name, euclid(Z_test, Z_train, G), euclid(Z_train, Z_train, K) if loo else None)
        elif name == "class_blind":
            W_tr, W_te = Z_train / sd, Z_test / sd
            knn(name, euclid(W_te, W_tr), euclid(W_tr, W_tr) if loo else None)
        elif name == "pooled" and not woodbury_pooled:
            # more residuals than dimensions: whiten with the Cholesky factor of the d x d covariance
            means = np.array([Z_train[docs[labels == c]].mean(axis=0) for c in range(n_classes)])
            S, shrinkage["pooled"] = shrunk_residual_covariance(Z_train[docs] - means[labels], n_classes, covariance,
                                                                return_shrinkage=True)
            L = linalg.cholesky(S, lower=True, check_finite=False)
            W_tr = linalg.solve_triangular(L, Z_train.T, lower=True, check_finite=False).T
            W_te = linalg.solve_triangular(L, Z_test.T, lower=True, check_finite=False).T
            knn(name, euclid(W_te, W_tr), euclid(W_tr, W_tr) if loo else None)
        elif name == "pooled":
            cov = ResidualCovariance(covariance).fit(K[np.ix_(docs, docs)], labels, d)
            shrinkage["pooled"] = cov.shrinkage_
            T_tr = cov.project(K[:, docs])
            T_te = cov.project(G[:, docs])
            D_te = cov.sq_distances(T_te, q_sq, T_tr, t_sq, G)
            D_tr = cov.sq_distances(T_tr, t_sq, T_tr, t_sq, K) if loo else None
            knn(name, D_te, D_tr)
        else:  # each category's own covariance: kNN (per_category) and nearest mean (nearest_category)
            per_cat = "per_category" in wanted
            D_te = np.empty((len(Z_test), n_tr)) if per_cat else None
            D_tr = np.empty((n_tr, n_tr)) if per_cat and loo else None
            D_mean = np.empty((len(Z_test), n_classes))
            for c in range(n_classes):
                m = docs[labels == c]
                if len(m) > d:  # more documents than dimensions: whiten with the d x d Cholesky factor
                    mu = Z_train[m].mean(axis=0)
                    S, shrinkage[str(classes[c])] = shrunk_residual_covariance(Z_train[m] - mu, 1, covariance,
                                                                               return_shrinkage=True)
                    L = linalg.cholesky(S, lower=True, check_finite=False)
                    W_te = linalg.solve_triangular(L, (Z_test - mu).T, lower=True, check_finite=False).T
                    D_mean[:, c] = row_sq_norms(W_te)
                    if per_cat:
                        W_all = linalg.solve_triangular(L, (Z_train - mu).T, lower=True, check_finite=False).T
                        D_te[:, m] = euclid(W_te, W_all[m])
                        if loo:
                            D_tr[:, m] = euclid(W_all, W_all[m])
                    continue
                cov = ResidualCovariance(covariance).fit(K[np.ix_(m, m)], np.zeros(len(m)), d)
                shrinkage[str(classes[c])] = cov.shrinkage_
                T_te = cov.project(G[:, m])
                D_mean[:, c] = cov.sq_distances(T_te, q_sq, cov.project_means(), cov.means_sq_norms_,
                                                cov.mean_inner_products(G[:, m]))[:, 0]
                if per_cat:
                    T_all = cov.project(K[:, m]) if loo else None  # every training document, members included
                    T_m = T_all[m] if loo else cov.project(K[np.ix_(m, m)])
                    D_te[:, m] = cov.sq_distances(T_te, q_sq, T_m, t_sq[m], G[:, m])
                    if loo:
                        D_tr[:, m] = cov.sq_distances(T_all, t_sq, T_m, t_sq[m], K[:, m])
            if per_cat:
                knn("per_category", D_te, D_tr)
            if "nearest_category" in wanted:
                nearest = D_mean.argmin(axis=1)
                out.pred["nearest_category"] = {0: np.eye(n_classes, dtype=int)[nearest] if multi else nearest}
    out.info["shrinkage"] = shrinkage
    if not multi:  # labels, not their indices
        out.pred = {r: {k: classes[p] for k, p in by_k.items()} for r, by_k in out.pred.items()}
    return out


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
    components = sorted(set(check_positive_ints(components, "components", "[10, 50, 100]")))
    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)")))
    if ks[-1] > len(Z_train):
        raise ValueError(f"every k must lie in [1, {len(Z_train)}] (training documents); got {ks}.")
    check_finite(Z_train, "Z_train")
    check_finite(Z_test, "Z_test")
    d = min(Z_train.shape[1], len(sd))
    if not components or components[0] < 1 or components[-1] > d:
        raise ValueError(f"components must lie in [1, {d}] (the principal components given); got {components}.")
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
            idx = nearest_indices(np.maximum(a2[:, None] + b2[None, :] - 2.0 * G, 0.0), ks[-1])
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

    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)")))
    if ks[-1] > X_train.shape[0]:
        raise ValueError(f"every k must lie in [1, {X_train.shape[0]}] (training documents); got {ks}.")
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
    bad = [f for f in fractions if isinstance(f, bool) or not isinstance(f, (int, float, np.integer, np.floating))
           or not 0 < f <= 1]
    if not fractions or bad:
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
        if not isinstance(self.min_class_size, (int, np.integer)) or self.min_class_size < 2:
            raise ValueError(f"min_class_size must be an integer >= 2; got {self.min_class_size!r}.")
        if self.degenerate_rtol is not None and not self.degenerate_rtol >= 0:
            raise ValueError(f"degenerate_rtol must be None or a float >= 0; got {self.degenerate_rtol!r}.")
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"MahalanobisCentroidClassifier needs samples of at least 2 classes; y has 1 class "
                f"({_plain(self.classes_[0])!r}), which would be the nearest to every sample."
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


