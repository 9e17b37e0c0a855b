"""Norms, distances and similarities: vectors in, float out; row matrices in, matrix out.

Every pairwise function takes either two 1-D vectors (returns a float) or two 2-D arrays
with samples in rows, of shapes ``(n, d)`` and ``(m, d)`` (returns an ``(n, m)`` array).
The covariance-aware measures whiten once and then do ordinary Euclidean or cosine work
with matrix products; temporaries are bounded by scikit-learn's ``working_memory``
setting (``sklearn.set_config(working_memory=...)``, in MiB) by working in row chunks.

References
----------
.. [1] Sahoo & Maiti (2025), Variance-Adjusted Cosine Distance as Similarity Metric,
   arXiv:2502.02233, Eq. (7).
.. [2] Kelleher, Mac Namee & D'Arcy (2020), Fundamentals of Machine Learning for
   Predictive Data Analytics, 2nd ed., Chapter 5 (norms, binary similarity indexes).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import linalg
from sklearn import get_config

from ._validation import as_float_array, check_square_matrix, check_symmetric, pairwise_inputs

__all__ = [
    "lp_norm",
    "minkowski",
    "l0_norm",
    "cosine_similarity",
    "mahalanobis",
    "variance_adjusted_cosine",
    "BinaryCounts",
    "binary_counts",
    "binary_gram",
    "binary_similarity",
    "BINARY_COEFFICIENTS",
    "russell_rao",
    "sokal_michener",
    "jaccard",
    "nearest_neighbors",
    "inverse_square_weights",
]


def _chunk_rows(n_rows: int, bytes_per_row: float) -> int:
    """Rows per chunk so that one chunk's temporaries stay within ``working_memory`` MiB."""
    budget = get_config()["working_memory"] * 2**20
    return int(max(1, min(n_rows, budget // max(bytes_per_row, 1))))


def _finish(result: np.ndarray, pairwise: bool):
    return result if pairwise else float(result[0, 0])


def lp_norm(x, p: float = 2):
    """The ``L_p`` norm ``(sum |x_i|^p)^(1/p)``; ``p = inf`` gives ``max |x_i|``.

    Parameters
    ----------
    x : array-like of shape (n_features,) or (n_samples, n_features)
        A vector, or rows whose norms are wanted.
    p : float, default=2
        ``p > 0`` or ``np.inf``. For ``0 < p < 1`` the result is a quasi-norm. For
        ``p = 0`` use :func:`l0_norm`.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    The slides' vectors (1, 1), (2, 1), (2, 2):

    >>> [round(lp_norm([2, 1], p), 4) for p in (1, 2, np.inf)]
    [3.0, 2.2361, 2.0]
    """
    if p == 0:
        raise ValueError("p = 0 is not an L_p norm; use l0_norm(x, definition='donoho' or 'banach').")
    if not p > 0:
        raise ValueError(f"p must be positive or np.inf; got {p}.")
    x = as_float_array(x, "x", ndim=(1, 2))
    out = np.linalg.norm(x, ord=p, axis=-1) if p in (1, 2, np.inf) else (np.abs(x) ** p).sum(-1) ** (1 / p)
    return float(out) if x.ndim == 1 else out


def minkowski(x, y, p: float = 2):
    """Minkowski distance ``||x - y||_p`` (``p = 1`` Manhattan, 2 Euclidean, inf Chebyshev).

    Examples
    --------
    >>> minkowski([2, 2], [1, 1], 1), round(minkowski([2, 2], [1, 1], 2), 4), minkowski([2, 2], [1, 1], np.inf)
    (2.0, 1.4142, 1.0)
    """
    if not (p == np.inf or p >= 1):
        raise ValueError(f"The Minkowski distance needs p >= 1 (or np.inf) to be a metric; got {p}.")
    x, y, pairwise = pairwise_inputs(x, y)
    out = np.empty((x.shape[0], y.shape[0]))
    step = _chunk_rows(x.shape[0], 8.0 * y.shape[0] * x.shape[1])
    for start in range(0, x.shape[0], step):
        diff = np.abs(x[start : start + step, None, :] - y[None, :, :])
        if p == np.inf:
            out[start : start + step] = diff.max(-1)
        elif p == 1:
            out[start : start + step] = diff.sum(-1)
        else:
            out[start : start + step] = (diff**p).sum(-1) ** (1.0 / p)
    return _finish(out, pairwise)


def l0_norm(x, definition: str = "donoho"):
    """The two "L0 norms" of the slides.

    - ``"donoho"``: the number of non-zero entries, ``#{i: x_i != 0}`` (not a norm: it
      ignores scale).
    - ``"banach"``: Banach's (Frechet's) F-norm on sequences,
      ``sum_i 2^-i |x_i| / (1 + |x_i|)`` with ``i`` counted from 1.

    Examples
    --------
    >>> l0_norm([1, -4, 0, -2, 0, 0, 0], "donoho")
    3
    >>> round(l0_norm([1, 0, -4], "banach"), 4)
    0.35
    """
    x = as_float_array(x, "x", ndim=(1, 2))
    if definition == "donoho":
        out = np.count_nonzero(x, axis=-1)
        return int(out) if x.ndim == 1 else out
    if definition == "banach":
        weights = 0.5 ** np.arange(1, x.shape[-1] + 1)
        out = (weights * np.abs(x) / (1.0 + np.abs(x))).sum(-1)
        return float(out) if x.ndim == 1 else out
    raise ValueError(f"Unknown L0 definition {definition!r}; valid options are 'donoho', 'banach'.")


def _unit_rows(x: np.ndarray, name: str) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1)
    zero = np.flatnonzero(norms == 0)
    if zero.size:
        raise ValueError(
            f"Cosine similarity is undefined for a zero vector: row {int(zero[0])} of {name} "
            f"({zero.size} zero row(s) in all). Drop such rows or use a distance instead."
        )
    return x / norms[:, None]


def cosine_similarity(x, y):
    """Cosine of the angle between ``x`` and ``y``: ``x'y / (|x| |y|)``.

    Examples
    --------
    Athletes query (6.75, 3) against ID 12 (5, 2.5) and ID 18 (7, 4.25):

    >>> round(cosine_similarity([6.75, 3], [5, 2.5]), 4), round(cosine_similarity([6.75, 3], [7, 4.25]), 4)
    (0.999, 0.9919)
    """
    x, y, pairwise = pairwise_inputs(x, y)
    out = _unit_rows(x, "x") @ _unit_rows(y, "y").T
    np.clip(out, -1.0, 1.0, out=out)
    return _finish(out, pairwise)


def _factor_precision(VI: np.ndarray) -> np.ndarray:
    """``R`` with ``R' R = VI``, so that the Mahalanobis distance is ``|R (x - y)|``."""
    try:
        return linalg.cholesky(VI, lower=False)
    except linalg.LinAlgError:
        vals, vecs = linalg.eigh(VI)
        if vals[0] < -1e-10 * max(vals[-1], 0.0):
            raise ValueError(
                f"VI (the inverse covariance) is not positive semi-definite: smallest eigenvalue "
                f"{vals[0]:.3g}. Pass the inverse of a valid covariance, e.g. "
                "np.linalg.inv(estimate_covariance(X, 'ledoit_wolf'))."
            ) from None
        return np.sqrt(np.clip(vals, 0.0, None))[:, None] * vecs.T


def _euclidean(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean distances by one matrix product, exact where cancellation would bite.

    ``|a|^2 + |b|^2 - 2 a'b`` comes out of a single GEMM on augmented rows
    ``[a, |a|^2, 1]`` and ``[-2b, 1, |b|^2]``, written straight into the result (no
    full-size temporaries). That formula loses relative precision when a distance is small
    next to the norms. Both sets are first centred on a common point (distances are
    translation invariant), then pairs whose squared distance is below
    ``1e8 * eps * (|a|^2 + |b|^2)`` (relative error possibly above about 1e-8, negative
    values included) are recomputed from the differences.
    """
    shift = a.mean(axis=0)
    a = a - shift
    b = b - shift
    a2 = np.einsum("ij,ij->i", a, a)
    b2 = np.einsum("ij,ij->i", b, b)
    A = np.hstack([a, a2[:, None], np.ones((a.shape[0], 1))])
    B = np.hstack([-2.0 * b, np.ones((b.shape[0], 1)), b2[:, None]])
    out = np.empty((a.shape[0], b.shape[0]))
    step = _chunk_rows(a.shape[0], 9.0 * b.shape[0])  # a row of the result and of the candidate mask
    tol = 1e8 * np.finfo(float).eps
    bound = tol * (a2 + (b2.max() if b2.size else 0.0))  # per row, a superset of the pairs to recompute
    for start in range(0, a.shape[0], step):
        stop = min(start + step, a.shape[0])
        d2 = np.matmul(A[start:stop], B.T, out=out[start:stop])
        rows, cols = np.nonzero(d2 <= bound[start:stop, None])
        if rows.size:
            exact = d2[rows, cols] <= tol * (a2[start + rows] + b2[cols])
            rows, cols = rows[exact], cols[exact]
            diff = a[start + rows] - b[cols]
            d2[rows, cols] = np.einsum("ij,ij->i", diff, diff)
        np.sqrt(d2, out=d2)
    return out


def mahalanobis(x, y, VI):
    """Mahalanobis distance ``sqrt((x - y)' VI (x - y))``, ``VI`` the inverse covariance.

    Computed as the Euclidean distance after transforming both inputs with ``R``,
    ``R' R = VI`` (Cholesky): the "rescaled and decorrelated" Euclidean distance. Same
    argument convention as ``scipy.spatial.distance.mahalanobis``.

    Examples
    --------
    >>> VI = np.linalg.inv([[4.0, 2.0], [2.0, 3.0]])
    >>> round(mahalanobis([1, 0], [0, 1], VI), 4)  # sqrt(11 / 8)
    1.1726
    """
    x, y, pairwise = pairwise_inputs(x, y)
    VI = as_float_array(VI, "VI", ndim=2)
    check_square_matrix(VI, "VI", x.shape[1])
    check_symmetric(VI, "VI")
    R = _factor_precision((VI + VI.T) / 2.0)
    # centre before transforming: rounding in R x then scales with |x - shift|, not |x|
    shift = x.mean(axis=0)
    return _finish(_euclidean((x - shift) @ R.T, (y - shift) @ R.T), pairwise)


def variance_adjusted_cosine(x, y, W):
    """Cosine similarity after whitening both inputs with ``W``: ``cos(W x, W y)``.

    Parameters
    ----------
    x, y : array-like of shape (n_features,) or (n_samples, n_features)
        Vectors, or rows of samples, to compare.
    W : array-like of shape (n_features, n_features)
        A whitening matrix for the covariance estimated on training data, e.g.
        ``whitening_matrix(sigma, "cholesky")``, so that ``W @ sigma @ W.T = I``. With any
        whitening matrix of the same ``sigma`` the result is the same:
        ``x' inv(sigma) y / sqrt(x' inv(sigma) x * y' inv(sigma) y)``.

    Returns
    -------
    float or ndarray of shape (n_x, n_y)
        In ``[-1, 1]``.

    References
    ----------
    .. [1] Sahoo & Maiti (2025), arXiv:2502.02233, Section 3, Eq. (7).

    Examples
    --------
    With the identity it is the ordinary cosine similarity:

    >>> print(f"{variance_adjusted_cosine([1, 0], [0, 1], np.eye(2)):.4f}")
    0.0000
    >>> from helpers.whitening import whitening_matrix
    >>> W = whitening_matrix(np.array([[4.0, 2.0], [2.0, 3.0]]), "cholesky")
    >>> print(f"{variance_adjusted_cosine([1, 0], [0, 1], W):.4f}")
    -0.5774
    """
    x, y, pairwise = pairwise_inputs(x, y)
    W = as_float_array(W, "W", ndim=2)
    if W.shape != (x.shape[1], x.shape[1]):
        raise ValueError(
            f"W must have shape ({x.shape[1]}, {x.shape[1]}) for {x.shape[1]} features; got {W.shape}."
        )
    out = _unit_rows(x @ W.T, "W x") @ _unit_rows(y @ W.T, "W y").T
    np.clip(out, -1.0, 1.0, out=out)
    return _finish(out, pairwise)


# ---------------------------------------------------------------------------------------
# Binary data


class BinaryCounts(NamedTuple):
    """The 2 x 2 table of two binary vectors (or matrices of such tables, pairwise)."""

    co_presence: np.ndarray | int  # a: both 1
    presence_absence: np.ndarray | int  # b: x 1, y 0
    absence_presence: np.ndarray | int  # c: x 0, y 1
    co_absence: np.ndarray | int  # d: both 0


def _as_binary(x, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype == bool:
        return arr.astype(np.float64)
    arr = as_float_array(arr, name, ndim=(1, 2))
    bad = (arr != 0) & (arr != 1)
    if np.any(bad):
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"{name} must be binary (0/1 or bool); found {arr[idx].item()!r} at index {idx} "
            f"({int(bad.sum())} non-binary entries). Binarise first, e.g. (X > threshold)."
        )
    return arr


def binary_gram(x, y=None):
    """Co-presence counts and row totals of binary rows: the raw material of every coefficient.

    One matrix product gives ``a`` (features present in both rows); the other three cells of
    the 2 x 2 table follow from the row totals: ``b = r_x - a``, ``c = r_y - a``,
    ``d = p - r_x - r_y + a``. The product runs in float32, whose sums of 0/1 are exact
    below 2**24 features, and ``x @ x.T`` (``y`` omitted) uses BLAS's symmetric rank-k
    update, half the work of a general product.

    Parameters
    ----------
    x : array-like of shape (n, p), 0/1 or bool
    y : array-like of shape (m, p), optional
        Defaults to ``x``.

    Returns
    -------
    a : ndarray of shape (n, m), float32 (float64 from 2**24 features on) holding exact integers
    rx : ndarray of shape (n,), same dtype as ``a``
        Ones per row of ``x``.
    ry : ndarray of shape (m,), same dtype as ``a``
    p : int
        Number of features.

    Examples
    --------
    >>> a, rx, ry, p = binary_gram([[1, 0, 1], [1, 1, 0]])
    >>> a.astype(int).tolist(), rx.astype(int).tolist(), p
    ([[2, 1], [1, 2]], [2, 2], 3)
    """
    xb = _as_binary(x, "x")
    yb = xb if y is None else _as_binary(y, "y")
    x2, y2, _ = pairwise_inputs(xb, yb)
    p = x2.shape[1]
    dtype = np.float32 if p < 2**24 else np.float64
    x2 = x2.astype(dtype, copy=False)
    y2 = x2 if y is None else y2.astype(dtype, copy=False)
    a = x2 @ x2.T if y is None else x2 @ y2.T
    return a, x2.sum(axis=1, dtype=dtype), y2.sum(axis=1, dtype=dtype), p


def binary_counts(x, y) -> BinaryCounts:
    """Co-presence, presence-absence, absence-presence and co-absence counts.

    For 2-D inputs each field is an ``(n, m)`` integer matrix, computed with one matrix
    product (see :func:`binary_gram`; exact).

    Examples
    --------
    >>> binary_counts([1, 0, 1, 0, 0], [1, 1, 0, 0, 0])
    BinaryCounts(co_presence=1, presence_absence=1, absence_presence=1, co_absence=2)
    """
    a, rx, ry, p = binary_gram(x, y)
    b = rx[:, None] - a
    c = ry[None, :] - a
    d = p - a - b - c
    fields = [m.astype(np.int64) for m in (a, b, c, d)]  # exact integers already (binary_gram)
    if np.ndim(x) == 1:
        fields = [int(m[0, 0]) for m in fields]
    return BinaryCounts(*fields)


def _ratio(num, den, empty: float) -> np.ndarray:
    """``num / den`` in float64 with ``empty`` where ``den == 0`` (the 0/0 of two all-zero rows)."""
    num, den = np.broadcast_arrays(np.asarray(num), np.asarray(den))
    out = np.full(num.shape, empty)
    np.divide(num, den, out=out, where=den > 0, dtype=np.float64)
    return out


def _jaccard(a, r, s, p):
    # a / (a + b + c) with a + b + c = r + s - a: built in the float64 result itself, so the
    # only full-size allocation is the output (fresh pages cost as much as the arithmetic)
    out = np.add.outer(r.astype(np.float64), s.astype(np.float64))
    out -= a
    empty = out == 0  # two all-zero rows: 0 / 0
    np.divide(a, out, out=out, where=~empty)
    out[empty] = 1.0  # two empty sets are equal: similarity 1, as 1 - scipy's jaccard
    return out


def _simple_matching(a, r, s, p):
    # (a + d) / p = (p - (b + c)) / p with b + c = r + s - 2a, in place in the float64 result
    out = np.add.outer(r.astype(np.float64), s.astype(np.float64))
    out -= a
    out -= a
    np.subtract(p, out, out=out)
    out /= p
    return out


def _cells(a, r, s, p):
    a, r, s = (np.asarray(v, dtype=np.float64) for v in (a, r, s))
    b = r[:, None] - a
    c = s[None, :] - a
    return b, c, p - a - b - c


def _generic(formula):
    def coefficient(a, r, s, p):
        b, c, d = _cells(a, r, s, p)
        return formula(np.asarray(a, dtype=np.float64), b, c, d)

    return coefficient


def _sokal_sneath_2(a, b, c, d):
    return 0.25 * (_ratio(a, a + b, np.nan) + _ratio(a, a + c, np.nan) + _ratio(d, b + d, np.nan) + _ratio(d, c + d, np.nan))


# name: (function of (a, r_x, r_y, p), ade4 dist.binary method number, scipy dissimilarity equal to 1 - S)
_COEFFICIENTS = {
    "jaccard": (_jaccard, 1, "jaccard"),
    "simple_matching": (_simple_matching, 2, "hamming"),
    "sokal_sneath": (_generic(lambda a, b, c, d: _ratio(a, a + 2 * (b + c), np.nan)), 3, "sokalsneath"),
    "rogers_tanimoto": (_generic(lambda a, b, c, d: (a + d) / (a + 2 * (b + c) + d)), 4, "rogerstanimoto"),
    "dice": (_generic(lambda a, b, c, d: _ratio(2 * a, 2 * a + b + c, np.nan)), 5, "dice"),
    "hamann": (_generic(lambda a, b, c, d: (a - (b + c) + d) / (a + b + c + d)), 6, None),
    "ochiai": (_generic(lambda a, b, c, d: _ratio(a, np.sqrt((a + b) * (a + c)), np.nan)), 7, "cosine"),
    "sokal_sneath_2": (_generic(_sokal_sneath_2), 8, None),
    "phi": (_generic(lambda a, b, c, d: _ratio(a * d - b * c, np.sqrt((a + b) * (a + c) * (d + b) * (d + c)), np.nan)), 9, "correlation"),
    "russell_rao": (_generic(lambda a, b, c, d: a / (a + b + c + d)), 10, "russellrao"),
}

BINARY_COEFFICIENTS = {name: {"ade4_method": v[1], "scipy_dissimilarity": v[2]} for name, v in _COEFFICIENTS.items()}
"""The ten similarity coefficients of ade4's ``dist.binary`` (method numbers 1-10) with the
scipy dissimilarity equal to ``1 - S`` where scipy has one (``hamann = 1 - 2 hamming``;
scipy 1.17 no longer has ``sokalmichener`` or ``kulczynski1``; ``cosine``/``correlation``
on 0/1 rows give Ochiai/phi). ade4 itself returns ``sqrt(1 - S)``."""


def binary_similarity(X, Y=None, coefficient="simple_matching"):
    """Pairwise similarity matrix of binary rows for one of ade4's ``dist.binary`` coefficients.

    Built on :func:`helpers.metrics.binary_gram`: one float32 matrix product (symmetric
    rank-k update when ``Y`` is omitted) and row totals, so 5,000 x 784 binary rows take
    well under a second for Jaccard and simple matching. Pass several coefficients at once
    to compute the product only once. With ``a`` co-presences, ``b``/``c`` mismatches,
    ``d`` co-absences and ``p = a + b + c + d``:
    jaccard ``a/(a+b+c)``, simple_matching ``(a+d)/p``, sokal_sneath ``a/(a+2(b+c))``,
    rogers_tanimoto ``(a+d)/(a+2(b+c)+d)``, dice ``2a/(2a+b+c)``, hamann ``(a+d-b-c)/p``,
    ochiai ``a/sqrt((a+b)(a+c))``, sokal_sneath_2 ``(a/(a+b)+a/(a+c)+d/(b+d)+d/(c+d))/4``,
    phi ``(ad-bc)/sqrt((a+b)(a+c)(b+d)(c+d))``, russell_rao ``a/p``.
    Two all-zero rows (0/0) give 1 for jaccard (two empty sets are equal, as
    ``1 - scipy.spatial.distance.jaccard``) and NaN for sokal_sneath, dice, ochiai, phi and
    the undefined terms of sokal_sneath_2 (scipy returns NaN for dice, cosine and
    correlation there, and raises for sokalsneath).

    Parameters
    ----------
    X : array-like of shape (n, p), 0/1 or bool
    Y : array-like of shape (m, p), optional
        Defaults to ``X`` (the symmetric n x n matrix).
    coefficient : str or sequence of str, default="simple_matching"
        A key of :data:`BINARY_COEFFICIENTS`, or several.

    Returns
    -------
    ndarray of shape (n, m), or dict {coefficient: ndarray} when several are asked for

    Examples
    --------
    Lecture notes, Example 4: the lion has all four attributes, the tiger all but the third.

    >>> lion, tiger = [1, 1, 1, 1], [1, 1, 0, 1]
    >>> S = binary_similarity([lion, tiger], coefficient=["simple_matching", "jaccard"])
    >>> print(f"{S['simple_matching'][0, 1]:.2f} {S['jaccard'][0, 1]:.2f}")
    0.75 0.75
    """
    names = [coefficient] if isinstance(coefficient, str) else list(coefficient)
    unknown = [c for c in names if c not in _COEFFICIENTS]
    if unknown or not names:
        raise ValueError(f"Unknown coefficient {unknown[0] if unknown else coefficient!r}; choose one of {sorted(_COEFFICIENTS)}.")
    if np.ndim(X) != 2 or (Y is not None and np.ndim(Y) != 2):
        raise ValueError(f"X (and Y) must be 2-D arrays of binary rows; got shapes {np.shape(X)}" + ("" if Y is None else f" and {np.shape(Y)}") + ". Use x.reshape(1, -1) for a single row.")
    a, r, s, p = binary_gram(X, Y)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {c: _COEFFICIENTS[c][0](a, r, s, p) for c in names}
    return out[coefficient] if isinstance(coefficient, str) else out


def _binary_coefficient(x, y, name: str):
    """One coefficient for two vectors (a float) or two row sets (the pairwise matrix)."""
    a, r, s, p = binary_gram(x, y)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _finish(_COEFFICIENTS[name][0](a, r, s, p), np.ndim(x) == 2)


def russell_rao(x, y):
    """Russell-Rao similarity ``a / (a + b + c + d)``: share of features present in both.

    Examples
    --------
    >>> russell_rao([1, 0, 1, 0, 0], [1, 0, 1, 1, 0])
    0.4
    """
    return _binary_coefficient(x, y, "russell_rao")


def sokal_michener(x, y):
    """Sokal-Michener (simple matching) similarity ``(a + d) / (a + b + c + d)``.

    Equal to ``1 - scipy.spatial.distance.hamming`` on binary vectors. (scipy's removed
    ``sokalmichener`` was the Rogers-Tanimoto dissimilarity, not this.)

    Examples
    --------
    >>> sokal_michener([1, 0, 1, 0, 0], [1, 0, 0, 0, 0])
    0.8
    """
    return _binary_coefficient(x, y, "simple_matching")


def jaccard(x, y):
    """Jaccard similarity ``a / (a + b + c)``: co-absences are ignored.

    Two all-zero vectors have Jaccard similarity 1 (the empty sets are equal), matching
    ``1 - scipy.spatial.distance.jaccard``.

    Examples
    --------
    >>> jaccard([1, 0, 1, 0, 0], [1, 0, 1, 1, 0])
    0.6666666666666666
    """
    return _binary_coefficient(x, y, "jaccard")


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
