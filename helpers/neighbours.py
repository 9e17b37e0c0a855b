"""Nearest neighbours: the one kNN engine of the package.

Every kNN of the workbook orders its neighbours and counts their votes here:

* :func:`nearest_indices`: the sorted ``k`` nearest columns of each row of a distance matrix,
  ties broken by column index (optionally leaving each row's own column out);
* :func:`nearest_neighbors`: the same from two sets of points and a metric, with memory
  bounded by row chunks and exact distances for the ``k`` kept;
* :func:`cumulative_votes` and :func:`majority_votes`: the class votes of the first ``k``
  neighbours for every ``k`` at once (ties to the first class, as ``KNeighborsClassifier``;
  multi-label: a label when more than half of the neighbours carry it);
* :func:`distance_weighted_proba` and :func:`inverse_square_weights`: weighted votes
  (``KNeighborsClassifier(weights="distance")`` or a weight function);
* :func:`knn_cv_accuracy_by_k` and :func:`knn_cv_predictions_by_k`: cross-validated kNN for
  many K at once, one neighbour search per fold, in test-row chunks bounded by ``working_memory``.

Memory: no function here holds a full test x train distance matrix larger than scikit-learn's
``working_memory`` (``sklearn.set_config(working_memory=...)``, in MiB; 1024 by default):
the distances are computed and reduced to their ``k`` nearest a block of rows at a time.
:func:`nearest_indices` takes a matrix the caller already holds and only bounds its own
temporaries.

Callers: :class:`helpers.estimators.ClassConditionalKNN` and :class:`~helpers.estimators.TunedKNN`,
and the Mahal-kNN readings of :mod:`helpers.studies.srivastava_rao_2016`.
"""

from __future__ import annotations

import numpy as np
from sklearn import config_context, get_config
from sklearn.base import clone
from sklearn.metrics import pairwise_distances

from ._arrays import chunk_rows, pow2_exponent, row_pow2_exponents, unit_rows, warn_overflow
from ._validation import (
    Boolean,
    as_float_array,
    check_int,
    check_labels,
    check_positive_ints,
    check_real,
    check_same_features,
    check_square_matrix,
    check_value,
    plain,
    split_folds,
)
from .metrics import scaled_precision_factor

__all__ = [
    "cumulative_votes",
    "distance_weighted_proba",
    "inverse_square_weights",
    "knn_cv_accuracy_by_k",
    "knn_cv_predictions_by_k",
    "majority_votes",
    "nearest_indices",
    "nearest_neighbors",
]


def _check_distances(D, name: str = "D") -> np.ndarray:
    """``D`` as a real 2-D array (not copied), without NaN; +inf is allowed (an excluded pair)."""
    D = np.asarray(D)
    if D.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D matrix of distances (queries in rows, reference points in columns); "
            f"got shape {D.shape}. Use D.reshape(1, -1) for a single query."
        )
    if D.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold real numbers (distances); got dtype {D.dtype}.")
    if D.dtype.kind == "f" and np.isnan(D).any():
        first = tuple(int(i) for i in np.argwhere(np.isnan(D))[0])
        raise ValueError(f"{name} contains NaN (first at index {first}); a distance must be a number or +inf.")
    return D


def _check_k(k, largest: int, what: str, name: str = "k") -> int:
    return check_int(k, name, 1, maximum=largest, why=what)


def _smallest(block: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the ``k`` smallest entries of each row, in order; ties by column index.

    The same as ``np.argsort(block, axis=1, kind="stable")[:, :k]``, at the cost of a partial
    sort: ``argpartition`` picks the ``k`` smallest, which are ordered by index and then by
    value (a stable sort keeps index order among equal values). A row where the ``k``-th
    value is shared with an entry left out (a tie across the boundary, which
    ``argpartition`` breaks arbitrarily) is sorted in full instead.
    """
    m = block.shape[1]
    if k >= m:
        return np.argsort(block, axis=1, kind="stable")[:, :k]
    part = np.argpartition(block, k - 1, axis=1)[:, :k]
    kth = np.take_along_axis(block, part, axis=1).max(axis=1)
    straddle = np.count_nonzero(block <= kth[:, None], axis=1) > k
    part.sort(axis=1)
    order = np.argsort(np.take_along_axis(block, part, axis=1), axis=1, kind="stable")
    out = np.take_along_axis(part, order, axis=1)
    if straddle.any():
        out[straddle] = np.argsort(block[straddle], axis=1, kind="stable")[:, :k]
    return out


def nearest_indices(D, k: int, *, exclude_self: bool = False) -> np.ndarray:
    """The ``k`` nearest columns of each row of a distance matrix, nearest first, ties by index.

    Equal to ``np.argsort(D, axis=1, kind="stable")[:, :k]`` (so among equally distant
    points the one with the smaller column index comes first, also at the ``k``-th place),
    computed with a partial sort in row chunks bounded by scikit-learn's ``working_memory``.

    Parameters
    ----------
    D : array-like of shape (n_queries, n_points)
        Distances (or any dissimilarity: only the order matters; ``+inf`` is allowed,
        NaN is not). Not copied.
    k : int
        Neighbours per row, in ``[1, n_points]`` (``[1, n_points - 1]`` with ``exclude_self``).
    exclude_self : bool, default=False
        ``D`` is the square matrix of a set against itself: leave row ``i``'s own column
        ``i`` out (leave-one-out neighbours), whatever its value.

    Returns
    -------
    ndarray of shape (n_queries, k), dtype intp
        Column indices into ``D``.

    Examples
    --------
    >>> D = np.array([[0.0, 2.0, 1.0, 1.0],
    ...               [2.0, 0.0, 3.0, 2.0]])
    >>> nearest_indices(D, 3).tolist()
    [[0, 2, 3], [1, 0, 3]]
    >>> nearest_indices([[1.0, 0.0, 1.0, 1.0]], 2).tolist()  # three ties for second: the smallest index
    [[1, 0]]
    >>> nearest_indices([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]], 1, exclude_self=True).tolist()
    [[1], [0], [0]]
    """
    D = _check_distances(D)
    exclude_self = bool(check_value(exclude_self, Boolean(), "exclude_self"))  # "no" counted as True
    n, m = D.shape
    if exclude_self:
        if n != m:
            raise ValueError(
                f"exclude_self=True needs the square matrix of a set against itself; D has shape {D.shape}."
            )
        k = _check_k(k, m - 1, "the points other than the query itself")
    else:
        k = _check_k(k, m, "the columns of D")
    out = np.empty((n, k), dtype=np.intp)
    step = chunk_rows(n, 16.0 * m)  # per row: argpartition's int64 indices and the comparison mask
    for start in range(0, n, step):
        rows = slice(start, start + step)
        if not exclude_self:
            out[rows] = _smallest(D[rows], k)
            continue
        # the k + 1 nearest with self among them or not: drop self, else the (k + 1)-th
        near = _smallest(D[rows], k + 1)
        keep = near != np.arange(start, start + near.shape[0])[:, None]
        keep[keep.all(axis=1), -1] = False
        out[rows] = near[keep].reshape(-1, k)
    return out


def nearest_neighbors(x, y, k: int = 5, metric: str = "euclidean", VI=None, W=None):
    """The ``k`` rows of ``y`` nearest to each row of ``x``, with memory bounded by chunks.

    The full ``(n, m)`` distance matrix is never held: ``sklearn.metrics.pairwise_distances_chunked``
    computes it in row blocks sized by ``working_memory`` (``sklearn.set_config``, in MiB)
    and each block is reduced to its top ``k`` at once. The ``k`` distances kept are then
    recomputed from the differences, so they are exact to rounding even for near-duplicates
    (a row's distance to itself is 0, not the ~1e-7 of the expanded formula).

    Parameters
    ----------
    x : array-like of shape (n, d)
        Queries.
    y : array-like of shape (m, d)
        Reference rows.
    k : int, default=5
    metric : {"euclidean", "mahalanobis", "cosine", "variance_adjusted_cosine"}
        ``"mahalanobis"`` needs ``VI`` (inverse covariance) and is computed as Euclidean
        after whitening; ``"variance_adjusted_cosine"`` needs ``W`` and returns cosine
        *distances* ``1 - cos(W x, W y)``.

    Returns
    -------
    distances : ndarray of shape (n, k)
        Ascending along each row; equal distances in the order of their row index in ``y``.
    indices : ndarray of shape (n, k)
        Row indices into ``y``.

    Examples
    --------
    >>> d, i = nearest_neighbors([[0.0, 0.0]], [[3.0, 4.0], [1.0, 0.0], [0.0, 2.0]], k=2)
    >>> i.tolist(), d.round(3).tolist()
    ([[1, 2]], [[1.0, 2.0]])
    """
    from sklearn.metrics import pairwise_distances_chunked

    valid = ("euclidean", "mahalanobis", "cosine", "variance_adjusted_cosine")
    if metric not in valid:
        raise ValueError(f"Unknown metric {metric!r}; valid options are {', '.join(map(repr, valid))}.")
    x = as_float_array(x, "x", ndim=2)
    y = as_float_array(y, "y", ndim=2)
    check_same_features(x, y, "x", "y")
    k = _check_k(k, y.shape[0], "the rows of y")
    if x.shape[0] == 0:  # no queries: no neighbours (scikit-learn's chunking refuses 0 rows)
        return np.empty((0, k)), np.empty((0, k), dtype=np.intp)
    base = "euclidean"
    # exact power-of-two scalings (undone at the end) keep the products finite for data of any
    # magnitude, 1e-300 to 1e300; cosines need none (unit_rows scales each row)
    e = 0
    if metric in ("euclidean", "mahalanobis"):
        e = pow2_exponent(x, y)
        x, y = np.ldexp(x, -e), np.ldexp(y, -e)
    if metric == "mahalanobis":
        if VI is None:
            raise ValueError("metric='mahalanobis' needs VI, the inverse covariance matrix.")
        VI = as_float_array(VI, "VI", ndim=2)
        check_square_matrix(VI, "VI", x.shape[1])
        R, e_r = scaled_precision_factor((VI + VI.T) / 2.0)
        e += e_r
        shift = y.mean(axis=0)
        x, y = (x - shift) @ R.T, (y - shift) @ R.T
    elif metric in ("cosine", "variance_adjusted_cosine"):
        if metric == "variance_adjusted_cosine":
            if W is None:
                raise ValueError("metric='variance_adjusted_cosine' needs W, a whitening matrix.")
            W = as_float_array(W, "W", ndim=2)
            check_square_matrix(W, "W", x.shape[1])
            W = np.ldexp(W, -pow2_exponent(W))
            x = np.ldexp(x, -row_pow2_exponents(x)[:, None]) @ W.T
            y = np.ldexp(y, -row_pow2_exponents(y)[:, None]) @ W.T
        x, y = unit_rows(x, "x"), unit_rows(y, "y")
        base = "cosine"

    def reduce(block, start):
        idx = _smallest(block, k)
        return np.take_along_axis(block, idx, axis=1), idx

    chunks = list(pairwise_distances_chunked(x, y, reduce_func=reduce, metric=base))
    dist, idx = np.vstack([c[0] for c in chunks]), np.vstack([c[1] for c in chunks])
    # The blocks use |a|^2 + |b|^2 - 2ab, which cancels for close pairs (a point's distance to
    # itself comes out near 1e-7, not 0). Recompute the k kept distances from the differences:
    # n * k * d work, exact to rounding; cosine distance 1 - cos = |u - v|^2 / 2 for unit rows.
    step = chunk_rows(len(x), 8.0 * k * x.shape[1])
    for start in range(0, len(x), step):
        rows = slice(start, start + step)
        diff = x[rows, None, :] - y[idx[rows]]
        sq = np.einsum("ijk,ijk->ij", diff, diff)
        dist[rows] = sq / 2.0 if base == "cosine" else np.sqrt(sq)
    order = np.lexsort((idx, dist), axis=1)  # by the exact distance, ties by index
    dist = np.take_along_axis(dist, order, axis=1)
    if e:
        with np.errstate(over="ignore"):
            dist = np.ldexp(dist, e)
        warn_overflow(dist, "nearest_neighbors")
    return dist, np.take_along_axis(idx, order, axis=1)


def cumulative_votes(neighbour_labels, n_classes: int) -> np.ndarray:
    """Votes for each class among the first ``j`` neighbours, for every ``j`` at once.

    Parameters
    ----------
    neighbour_labels : array-like of int, shape (n_queries, k_max)
        Class code (``0 .. n_classes - 1``) of each query's neighbours, nearest first,
        e.g. ``y_codes[nearest_indices(D, k_max)]``.
    n_classes : int

    Returns
    -------
    ndarray of shape (n_queries, k_max, n_classes)
        ``[:, k - 1, c]`` counts the neighbours of class ``c`` among the ``k`` nearest.

    Examples
    --------
    >>> cumulative_votes([[1, 0, 1]], 2)[0].tolist()
    [[0, 1], [1, 1], [1, 2]]
    """
    L = np.asarray(neighbour_labels)
    if L.ndim != 2:
        raise ValueError(
            f"neighbour_labels must be 2-D (queries x neighbours, nearest first); got shape {L.shape}."
        )
    n_classes = check_int(n_classes, "n_classes", 1, "n_classes=len(classes)")
    encode = "Encode labels first: classes, codes = np.unique(y, return_inverse=True)."
    if L.dtype.kind not in "iu":
        raise ValueError(f"neighbour_labels must be integer class codes; got dtype {L.dtype}. {encode}")
    if L.size and (L.min() < 0 or L.max() >= n_classes):
        raise ValueError(
            f"neighbour_labels must be integer class codes in [0, {n_classes - 1}]; got values from {L.min()} "
            f"to {L.max()}. {encode}"
        )
    return np.cumsum(L[:, :, None] == np.arange(n_classes), axis=1, dtype=np.intp)


def _check_ks(ks, k_max: int) -> list[int]:
    """Numbers of neighbours available in each row of ``idx``, sorted and without repeats."""
    example = f"[1, 3, 5] (idx has {k_max} neighbours per row: ask nearest_indices for max(ks))"
    return sorted(set(check_positive_ints(ks, "ks", example, maximum=k_max, scalar=True)))


def _check_codes(Y, idx, n_classes):
    """The class codes of the neighbours in ``idx`` and the number of classes, or an error naming ``Y``."""
    encode = "Encode labels first: classes, codes = np.unique(y, return_inverse=True)."
    if Y.dtype.kind not in "iu":
        raise ValueError(f"Y must hold integer class codes 0 .. n_classes - 1; got dtype {Y.dtype}"
                         + (f" (e.g. {plain(Y.flat[0])!r})" if Y.size else "") + f". {encode}")
    if n_classes is None:
        n_classes = int(Y.max()) + 1 if Y.size else 1
    n_classes = check_int(n_classes, "n_classes", 1, "n_classes=len(classes)")
    labels = Y[idx]
    if labels.size and (labels.min() < 0 or labels.max() >= n_classes):
        raise ValueError(f"Y must hold integer class codes in [0, {n_classes - 1}] (n_classes={n_classes}); its "
                         f"neighbours' codes run from {labels.min()} to {labels.max()}. {encode}")
    return labels, n_classes


def _check_idx(idx, n_points: int, name: str) -> np.ndarray:
    idx = np.asarray(idx)
    if idx.ndim != 2 or idx.dtype.kind not in "iu":
        raise ValueError(
            f"idx must be a 2-D integer array (queries x neighbours); got shape {idx.shape}, dtype {idx.dtype}."
        )
    if idx.size and (idx.min() < 0 or idx.max() >= n_points):
        raise ValueError(f"idx holds row indices from {idx.min()} to {idx.max()}, but {name} has {n_points} rows.")
    return idx


def majority_votes(idx, Y, ks, n_classes: int | None = None, *, multi_label: bool = False) -> dict:
    """Majority-vote kNN predictions of the first ``k`` neighbours, for every ``k`` in ``ks``.

    The rule of ``KNeighborsClassifier`` (uniform weights): the class with most votes among
    the ``k`` nearest, a tie going to the first (smallest) class code. Multi-label
    (``Y`` an indicator matrix): a label is assigned when more than half of the ``k``
    nearest carry it, as ``KNeighborsClassifier`` fitted on the indicator matrix.

    Parameters
    ----------
    idx : array-like of int, shape (n_queries, k_max)
        Neighbours of each query, nearest first (:func:`nearest_indices`), as rows of ``Y``.
    Y : array-like
        Single-label: class codes ``0 .. n_classes - 1`` of the reference points, shape
        ``(n_points,)``. Multi-label: a 0/1 indicator matrix ``(n_points, n_labels)``.
    ks : int or iterable of int
        Numbers of neighbours, each in ``[1, k_max]``.
    n_classes : int, optional
        Single-label: the number of classes (default ``Y.max() + 1``).
    multi_label : bool, default=False

    Returns
    -------
    dict
        ``{k: class codes (n_queries,)}``, or ``{k: 0/1 indicator (n_queries, n_labels)}``.

    Examples
    --------
    >>> idx = [[0, 2, 3], [1, 3, 2]]            # the neighbours of two queries, nearest first
    >>> Y = np.array([1, 0, 0, 1])              # their class codes: (1, 0, 1) and (0, 1, 0)
    >>> {k: v.tolist() for k, v in majority_votes(idx, Y, [1, 2, 3]).items()}  # k = 2: ties, to class 0
    {1: [1, 0], 2: [0, 0], 3: [1, 0]}
    >>> M = np.array([[1, 0], [1, 1], [0, 1], [1, 0]])
    >>> majority_votes(idx, M, 3, multi_label=True)[3].tolist()    # label 1 of query 0: 1 of 3
    [[1, 0], [1, 1]]
    """
    Y = np.asarray(Y)
    idx = _check_idx(idx, len(Y), "Y")
    ks = _check_ks(ks, idx.shape[1])
    k_max = ks[-1]
    if multi_label:
        if Y.ndim != 2:
            raise ValueError(f"multi_label=True needs an indicator matrix Y (n_points, n_labels); got shape {Y.shape}.")
        cum = np.cumsum((Y != 0)[idx[:, :k_max]], axis=1, dtype=np.intp)  # (n_queries, k_max, n_labels)
        return {k: (cum[:, k - 1] > k / 2).astype(int) for k in ks}
    if Y.ndim != 1:
        raise ValueError(
            f"Y must be 1-D class codes (or pass multi_label=True for an indicator matrix); got shape {Y.shape}."
        )
    labels, n_classes = _check_codes(Y, idx[:, :k_max], n_classes)
    cum = cumulative_votes(labels, n_classes)
    return {k: cum[:, k - 1].argmax(axis=1) for k in ks}  # argmax: ties to the first class


def distance_weighted_proba(idx, distances, Y, ks, n_classes: int | None = None, weights="distance") -> dict:
    """Class probabilities from the first ``k`` neighbours with weighted votes, for every ``k`` in ``ks``.

    ``weights="distance"`` weighs each neighbour by ``1 / d``, as
    ``KNeighborsClassifier(weights="distance").predict_proba``: a query at distance 0 from
    some of its neighbours gives those the whole vote, with weight 1 each. A callable gets
    the ``(n_queries, k)`` distances of the ``k`` nearest and returns their weights, as
    ``KNeighborsClassifier(weights=callable)`` (e.g. :func:`inverse_square_weights`).

    Parameters
    ----------
    idx : array-like of int, shape (n_queries, k_max)
        Neighbours, nearest first, as rows of ``Y`` (:func:`nearest_indices`).
    distances : array-like of shape (n_queries, k_max)
        Their distances (not squared), e.g. ``np.take_along_axis(D, idx, axis=1)``.
    Y : array-like of int, shape (n_points,)
        Class codes ``0 .. n_classes - 1`` of the reference points.
    ks : int or iterable of int
    n_classes : int, optional
        Default ``Y.max() + 1``.
    weights : "distance" or callable, default="distance"

    Returns
    -------
    dict
        ``{k: ndarray (n_queries, n_classes)}``, rows summing to 1 (a row whose weights
        are all 0 stays 0, as scikit-learn).

    Examples
    --------
    One query with neighbours of classes 0, 1, 1 at distances 1, 2, 4:

    >>> P = distance_weighted_proba([[0, 1, 2]], [[1.0, 2.0, 4.0]], np.array([0, 1, 1]), [1, 3])
    >>> {k: p.round(4).tolist() for k, p in P.items()}    # 3 nearest: 1 against 1/2 + 1/4
    {1: [[1.0, 0.0]], 3: [[0.5714, 0.4286]]}
    """
    Y = np.asarray(Y)
    if Y.ndim != 1:
        raise ValueError(f"Y must be 1-D class codes; got shape {Y.shape}.")
    idx = _check_idx(idx, len(Y), "Y")
    dist = as_float_array(distances, "distances", ndim=2)
    if dist.shape != idx.shape:
        raise ValueError(f"distances must have the shape of idx, one per neighbour; got {dist.shape} and {idx.shape}.")
    if np.any(dist < 0):
        raise ValueError(
            f"distances cannot be negative; got a minimum of {dist.min()}. Pass |x - q|, not a difference."
        )
    if not (weights == "distance" or callable(weights)):
        raise ValueError(f"weights must be 'distance' or a callable of the distances; got {weights!r}.")
    ks = _check_ks(ks, idx.shape[1])
    labels, n_classes = _check_codes(Y, idx, n_classes)
    if weights == "distance":
        with np.errstate(divide="ignore"):
            inverse = 1.0 / dist
    rows = np.arange(len(idx))
    out = {}
    for k in ks:
        if weights == "distance":
            w = inverse[:, :k].copy()
            exact = np.isinf(w)
            hit = exact.any(axis=1)
            w[hit] = exact[hit]  # a neighbour at distance 0 takes all the weight
        else:
            w = np.asarray(weights(dist[:, :k]), dtype=np.float64)
            if w.shape != (len(idx), k):
                raise ValueError(f"weights returned shape {w.shape} for distances of shape {(len(idx), k)}.")
            bad = ~(np.isfinite(w) & (w >= 0))  # a negative weight voted against its class: farther won
            if bad.any():
                i, j = (int(v) for v in np.argwhere(bad)[0])
                raise ValueError(
                    f"weights returned {float(w[i, j])!r} for neighbour {j} of query {i} (k={k}, distance "
                    f"{float(dist[i, j])!r}); a vote weight must be a finite number >= 0. Return e.g. 1 / d**2 "
                    "(inverse_square_weights) or another non-negative function of the distances."
                )
        P = np.zeros((len(idx), n_classes))
        np.add.at(P, (np.repeat(rows, k), labels[:, :k].ravel()), w.ravel())
        total = P.sum(axis=1, keepdims=True)
        total[total == 0] = 1.0
        out[k] = P / total
    return out


def inverse_square_weights(distances):
    """Weights ``1 / d^2`` for a weighted k-nearest-neighbour vote or average.

    The weighting of the slides' weighted kNN (their lines 515 and 767). Pass it as
    ``KNeighborsClassifier(weights=inverse_square_weights)`` or to
    ``KNeighborsRegressor``. A query that coincides with training points (``d = 0``) would
    get infinite weights; as scikit-learn does for ``weights="distance"``, the exact
    matches of such a query then share the vote with weight 1 each and its other
    neighbours get 0. A row whose ``1 / d^2`` leaves float64's range (distances below about
    1e-154, or all beyond about 1e154) is returned multiplied by a power of four, which
    changes no vote and no weighted mean: its weights keep their proportions instead of
    becoming inf or 0.

    Parameters
    ----------
    distances : array-like of shape (n_queries, n_neighbors)
        Distances of each query to its neighbours (non-negative).

    Returns
    -------
    ndarray of the same shape

    Examples
    --------
    >>> print(inverse_square_weights([[0.5, 2.0], [0.0, 1.0]]))
    [[4.   0.25]
     [1.   0.  ]]
    """
    d = as_float_array(distances, "distances", ndim=(1, 2))
    if np.any(d < 0):
        raise ValueError(f"distances cannot be negative; got a minimum of {d.min()}. Pass |x - q|, not a difference.")
    d2 = np.atleast_2d(d)
    exact = d2 == 0
    hit = exact.any(axis=1)
    w = np.empty_like(d2)
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        w[~hit] = 1.0 / d2[~hit] ** 2
    w[hit] = exact[hit].astype(float)
    if d2.shape[1]:
        # 1 / d^2 beyond float64's range (inf below d ~ 1e-154, 0 or subnormal for every neighbour beyond
        # ~1e154): only the proportions within a row count, so such a row is computed from its distances
        # divided by a power of two near the smallest (exact), its largest weight then in (1, 4]
        lost = ~hit & (~np.isfinite(w).all(axis=1) | (w.max(axis=1) < np.finfo(float).tiny))
        if lost.any():
            scaled = np.ldexp(d2[lost], -np.frexp(d2[lost].min(axis=1))[1][:, None])
            with np.errstate(over="ignore", under="ignore"):
                w[lost] = 1.0 / scaled**2
    return w.reshape(d.shape)


# --------------------------------------------------------------------------------------------
# cross-validated kNN for many K at once


def _metric_names() -> set:
    """The metric names ``sklearn.metrics.pairwise_distances`` takes."""
    from sklearn.metrics.pairwise import _VALID_METRICS, PAIRWISE_DISTANCE_FUNCTIONS

    return set(_VALID_METRICS) | set(PAIRWISE_DISTANCE_FUNCTIONS)


def _check_knn_inputs(X, y, ks, metric=None):
    """Arrays, the K list and the class codes shared by the kNN-over-K helpers; clear errors otherwise."""
    if isinstance(metric, str) and metric not in _metric_names():
        import difflib

        near = difflib.get_close_matches(metric, _metric_names(), n=1)
        raise ValueError(
            f"Unknown metric {metric!r}{f'; did you mean {near[0]!r}' if near else ''}? Any metric of "
            "sklearn.metrics.pairwise_distances, e.g. 'cosine', 'euclidean', 'manhattan', or a callable."
        )
    if isinstance(metric, str) and metric in ("mahalanobis", "seuclidean"):
        raise ValueError(
            f"metric={metric!r} needs a covariance (or variances) estimated on each training fold, which a "
            "metric name cannot carry; whiten in the fold instead: transformer=Whitener() (or "
            "StandardScaler() for 'seuclidean') with metric='euclidean' gives these distances."
        )
    X, y = check_labels(as_float_array(X, "X", ndim=2), y)
    ks = check_positive_ints(ks, "ks", "[3] or range(1, 21)")
    classes, y_idx = np.unique(y, return_inverse=True)
    return X, y, ks, classes, y_idx


def knn_cv_accuracy_by_k(X, y, ks, cv, metric="cosine", transformer=None, working_memory=None) -> dict:
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
    working_memory : float, optional
        MiB for one block of a fold's test x train distances and their sorting (default
        ``sklearn.get_config()["working_memory"]``, 1024). The distance matrix of a fold is
        never held whole when it is larger: the test rows go in blocks (a multiple of 48 rows,
        so BLAS gives the same bits as the whole matrix), each reduced to its ``max(ks)``
        nearest at once. Peak memory is about ``working_memory`` plus the data.

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
    X, y, ks, classes, y_idx = _check_knn_inputs(X, y, ks, metric)
    working_memory = _check_working_memory(working_memory)
    folds = split_folds(cv, X, y)
    acc = np.zeros((len(ks), len(folds)))
    for j, (tr, te) in enumerate(folds):
        pred = _knn_fold_predictions(X, y, y_idx, tr, te, ks=ks, metric=metric, transformer=transformer,
                                     n_classes=len(classes), working_memory=working_memory)
        for i, k in enumerate(ks):
            acc[i, j] = np.mean(pred[k] == y_idx[te])
    return {k: float(acc[i].mean()) for i, k in enumerate(ks)}


def knn_cv_predictions_by_k(X, y, ks, cv, metric="cosine", transformer=None, working_memory=None) -> dict:
    """Held-out kNN predictions for several K at once, each row predicted by the fold that holds it out.

    The predictions behind :func:`knn_cv_accuracy_by_k` (same neighbour order and ties), for
    splitters in which every row is held out exactly once (``LeaveOneOut()``, ``KFold``,
    ``StratifiedKFold``): what a paired test on the same rows (e.g. :func:`mcnemar_exact` on two
    methods' LOOCV predictions) needs. Equals ``cross_val_predict`` of the same kNN. Memory is
    bounded by ``working_memory`` as there.

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
    X, y, ks, classes, y_idx = _check_knn_inputs(X, y, ks, metric)
    working_memory = _check_working_memory(working_memory)
    folds = split_folds(cv, X, y)
    held_out = np.bincount(np.concatenate([te for _, te in folds]), minlength=len(y))
    if not np.all(held_out == 1):
        raise ValueError(f"every row must be held out exactly once (LeaveOneOut, KFold); this splitter holds "
                         f"rows out {held_out.min()} to {held_out.max()} times: use knn_cv_accuracy_by_k.")
    pred = {k: np.empty(len(y), dtype=int) for k in ks}
    for tr, te in folds:
        fold = _knn_fold_predictions(X, y, y_idx, tr, te, ks=ks, metric=metric, transformer=transformer,
                                     n_classes=len(classes), working_memory=working_memory)
        for k in ks:
            pred[k][te] = fold[k]
    return {k: classes[p] for k, p in pred.items()}


def _check_working_memory(working_memory) -> float:
    """``working_memory`` in MiB (> 0), defaulting to scikit-learn's setting."""
    if working_memory is None:
        return float(get_config()["working_memory"])
    return check_real(working_memory, "working_memory", "working_memory=256 (MiB)", low=0.0, closed="neither")


#: rows per block are a multiple of this: BLAS kernels compute blocks of 4 to 24 rows, and a
#: block that ended inside one would round some rows differently from the whole matrix
_ROW_ALIGN = 48


def _nearest_in_blocks(X_te, X_tr, k: int, metric, working_memory: float) -> np.ndarray:
    """``nearest_indices(pairwise_distances(X_te, X_tr, metric), k)`` in blocks of test rows.

    The same indices as the whole matrix (rows are independent, and blocks of a multiple of
    ``_ROW_ALIGN`` rows give BLAS's bits for each row), with at most about ``working_memory``
    MiB of distances and sorting temporaries at a time: per test row, 8 bytes per training
    row for its distances, 8 more for ``pairwise_distances``' temporary and 16 for the
    partial sort's indices and mask.
    """
    n, m = len(X_te), len(X_tr)
    rows = int(working_memory * 2**20 // (32.0 * max(m, 1)))
    rows = max(_ROW_ALIGN, rows - rows % _ROW_ALIGN)
    with config_context(working_memory=working_memory):
        if rows >= n:  # one block: exactly the call of the whole matrix
            return nearest_indices(pairwise_distances(X_te, X_tr, metric=metric), k)
        out = np.empty((n, k), dtype=np.intp)
        for start in range(0, n, rows):
            block = slice(start, start + rows)
            out[block] = nearest_indices(pairwise_distances(X_te[block], X_tr, metric=metric), k)
        return out


def _knn_fold_predictions(X, y, y_idx, tr, te, *, ks, metric, transformer, n_classes, working_memory):
    """Majority-vote class codes of one fold's test rows for every k: ``{k: ndarray (n_test,)}``."""
    k_max = max(ks)
    if k_max > len(tr):
        raise ValueError(f"K = {k_max} exceeds the {len(tr)} rows of a training fold; use ks <= {len(tr)}.")
    X_tr, X_te = X[tr], X[te]
    if transformer is not None:
        t = clone(transformer).fit(X_tr, y[tr])
        X_tr, X_te = t.transform(X_tr), t.transform(X_te)
    idx = _nearest_in_blocks(X_te, X_tr, k_max, metric, working_memory)
    return majority_votes(idx, y_idx[tr], ks, n_classes)
