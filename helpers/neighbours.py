"""Nearest neighbours: the one kNN engine of the package.

Every kNN in the workbook goes through these functions: :func:`nearest_neighbors` (the top k
of a metric with bounded memory), :func:`nearest_indices` (sorted top k of a distance
matrix, ties by index), :func:`majority_votes` and :func:`cumulative_votes` (the votes of the
first k neighbours for every k at once), :func:`distance_weighted_proba` and
:func:`inverse_square_weights` (weighted votes).
"""

from __future__ import annotations

import numpy as np

from ._validation import (
    as_float_array,
    check_square_matrix,
)
from .metrics import _chunk_rows, _factor_precision, _unit_rows

__all__ = [
    "nearest_neighbors",
    "inverse_square_weights",
]

# ---------------------------------------------------------------------------------------
# Top-k reduction with bounded memory


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
        Ascending along each row.
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
    from ._validation import check_same_features

    check_same_features(x, y, "x", "y")
    if not (isinstance(k, (int, np.integer)) and 1 <= k <= y.shape[0]):
        raise ValueError(f"k must be an integer in [1, {y.shape[0]}] (the rows of y); got {k!r}.")
    base = "euclidean"
    if metric == "mahalanobis":
        if VI is None:
            raise ValueError("metric='mahalanobis' needs VI, the inverse covariance matrix.")
        VI = as_float_array(VI, "VI", ndim=2)
        check_square_matrix(VI, "VI", x.shape[1])
        R = _factor_precision((VI + VI.T) / 2.0)
        shift = y.mean(axis=0)
        x, y = (x - shift) @ R.T, (y - shift) @ R.T
    elif metric in ("cosine", "variance_adjusted_cosine"):
        if metric == "variance_adjusted_cosine":
            if W is None:
                raise ValueError("metric='variance_adjusted_cosine' needs W, a whitening matrix.")
            W = as_float_array(W, "W", ndim=2)
            x, y = x @ W.T, y @ W.T
        x, y = _unit_rows(x, "x"), _unit_rows(y, "y")
        base = "cosine"

    def reduce(block, start):
        idx = np.argpartition(block, k - 1, axis=1)[:, :k] if k < block.shape[1] else np.tile(np.arange(block.shape[1]), (len(block), 1))
        part = np.take_along_axis(block, idx, axis=1)
        order = np.argsort(part, axis=1, kind="stable")
        return np.take_along_axis(part, order, axis=1), np.take_along_axis(idx, order, axis=1)

    chunks = list(pairwise_distances_chunked(x, y, reduce_func=reduce, metric=base))
    dist, idx = np.vstack([c[0] for c in chunks]), np.vstack([c[1] for c in chunks])
    # The blocks use |a|^2 + |b|^2 - 2ab, which cancels for close pairs (a point's distance to
    # itself comes out near 1e-7, not 0). Recompute the k kept distances from the differences:
    # n * k * d work, exact to rounding; cosine distance 1 - cos = |u - v|^2 / 2 for unit rows.
    step = _chunk_rows(len(x), 8.0 * k * x.shape[1])
    for start in range(0, len(x), step):
        rows = slice(start, start + step)
        diff = x[rows, None, :] - y[idx[rows]]
        sq = np.einsum("ijk,ijk->ij", diff, diff)
        dist[rows] = sq / 2.0 if base == "cosine" else np.sqrt(sq)
    order = np.argsort(dist, axis=1, kind="stable")
    return np.take_along_axis(dist, order, axis=1), np.take_along_axis(idx, order, axis=1)


def inverse_square_weights(distances):
    """Weights ``1 / d^2`` for a weighted k-nearest-neighbour vote or average.

    The weighting of the slides' weighted kNN (their lines 515 and 767). Pass it as
    ``KNeighborsClassifier(weights=inverse_square_weights)`` or to
    ``KNeighborsRegressor``. A query that coincides with training points (``d = 0``) would
    get infinite weights; as scikit-learn does for ``weights="distance"``, the exact
    matches of such a query then share the vote with weight 1 each and its other
    neighbours get 0.

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
    w[~hit] = 1.0 / d2[~hit] ** 2
    w[hit] = exact[hit].astype(float)
    return w.reshape(d.shape)
