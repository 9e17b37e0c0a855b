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

import numpy as np
from scipy import linalg

from ._arrays import chunk_rows, pow2_exponent, row_pow2_exponents, scalar_or_matrix, unit_rows, warn_overflow
from ._validation import (
    Real,
    as_float_array,
    check_square_matrix,
    check_symmetric,
    pairwise_inputs,
)

__all__ = [
    "precision_factor",
    "scaled_precision_factor",
    "cosine_similarity",
    "l0_norm",
    "lp_norm",
    "mahalanobis",
    "minkowski",
    "variance_adjusted_cosine",
]


def _check_p_type(p, example: str) -> None:
    """Refuse a ``p`` that is not a real number (text, None, a boolean, an array) before any comparison."""
    if Real().problem(p) == "type":   # text, None, a boolean, an array (inf and NaN are numbers: judged later)
        raise TypeError(f"p must be a real number (or np.inf), e.g. {example}; got {p!r} of type "
                        f"{type(p).__name__}" + (" (booleans are not exponents)" if isinstance(p, (bool, np.bool_))
                                                 else "") + ".")


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
    _check_p_type(p, "p=2")
    if p == 0:
        raise ValueError("p = 0 is not an L_p norm; use l0_norm(x, definition='donoho' or 'banach').")
    if not p > 0:
        raise ValueError(f"p must be positive or np.inf; got {p}.")
    x = as_float_array(x, "x", ndim=(1, 2))
    rows = np.atleast_2d(x)
    # |x|_p = 2^e |x / 2^e|_p with 2^e just above max |x_i| (exact scaling): no overflow of
    # |x_i|^p near 1e154 (p = 2), no underflow to 0 near 1e-200; inf only when the norm itself
    # exceeds float64's range
    e = row_pow2_exponents(rows)
    scaled = np.abs(np.ldexp(rows, -e[:, None]))
    if p in (1, 2, np.inf):
        out = np.linalg.norm(scaled, ord=p, axis=-1)
    else:
        out = _relative_power_sum(scaled, p)
    with np.errstate(over="ignore"):
        out = np.ldexp(out, e)
    warn_overflow(out, "lp_norm")
    return float(out[0]) if x.ndim == 1 else out


def _relative_power_sum(a, p):
    """``(sum a_i^p)^(1/p)`` over the last axis of non-negative ``a``, as ``m (sum (a_i / m)^p)^(1/p)``
    with ``m = max a_i``: the largest term is exactly 1, so no power underflows the whole sum to 0
    at a large ``p`` (it tends to ``m``, the max norm) and none overflows."""
    m = a.max(-1) if a.shape[-1] else np.zeros(a.shape[:-1])
    safe = np.where(m > 0, m, 1.0)
    return m * ((a / safe[..., None]) ** p).sum(-1) ** (1.0 / p)


def minkowski(x, y, p: float = 2):
    """Minkowski distance ``||x - y||_p`` (``p = 1`` Manhattan, 2 Euclidean, inf Chebyshev).

    Examples
    --------
    >>> minkowski([2, 2], [1, 1], 1), round(minkowski([2, 2], [1, 1], 2), 4), minkowski([2, 2], [1, 1], np.inf)
    (2.0, 1.4142, 1.0)
    """
    _check_p_type(p, "p=2")
    if not (p == np.inf or p >= 1):
        raise ValueError(f"The Minkowski distance needs p >= 1 (or np.inf) to be a metric; got {p}.")
    x, y, pairwise = pairwise_inputs(x, y)
    # exact power-of-two scaling of both sets (x - y cannot overflow), then each pair's
    # differences divided by their largest, so that |d_i|^p neither overflows nor underflows
    e = pow2_exponent(x, y)
    x, y = np.ldexp(x, -e), np.ldexp(y, -e)
    out = np.empty((x.shape[0], y.shape[0]))
    step = chunk_rows(x.shape[0], 16.0 * y.shape[0] * x.shape[1])
    for start in range(0, x.shape[0], step):
        diff = np.abs(x[start : start + step, None, :] - y[None, :, :])
        if p == np.inf:
            out[start : start + step] = diff.max(-1) if diff.shape[-1] else 0.0
        elif p == 1:
            out[start : start + step] = diff.sum(-1)
        else:
            e_pair = row_pow2_exponents(diff)
            diff = np.ldexp(diff, -e_pair[:, :, None])
            out[start : start + step] = np.ldexp(_relative_power_sum(diff, p), e_pair)
    with np.errstate(over="ignore"):
        out = np.ldexp(out, e)
    warn_overflow(out, "minkowski")
    return scalar_or_matrix(out, pairwise)


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


def cosine_similarity(x, y):
    """Cosine of the angle between ``x`` and ``y``: ``x'y / (|x| |y|)``.

    Examples
    --------
    Athletes query (6.75, 3) against ID 12 (5, 2.5) and ID 18 (7, 4.25):

    >>> round(cosine_similarity([6.75, 3], [5, 2.5]), 4), round(cosine_similarity([6.75, 3], [7, 4.25]), 4)
    (0.999, 0.9919)
    """
    x, y, pairwise = pairwise_inputs(x, y)
    out = unit_rows(x, "x") @ unit_rows(y, "y").T
    np.clip(out, -1.0, 1.0, out=out)
    return scalar_or_matrix(out, pairwise)


def precision_factor(VI) -> np.ndarray:
    """``R`` with ``R' R = VI``, so that the Mahalanobis distance is ``|R (x - y)|``.

    The upper Cholesky factor of the inverse covariance ``VI``; a positive semi-definite but
    singular ``VI`` is factored through its eigendecomposition instead. ``VI`` (array-like)
    must be square, symmetric and finite: anything else is refused, naming the entry.

    Examples
    --------
    >>> R = precision_factor(np.array([[4.0, 0.0], [0.0, 1.0]]))
    >>> R.tolist()
    [[2.0, 0.0], [0.0, 1.0]]
    """
    R, e = scaled_precision_factor(VI)
    return np.ldexp(R, e)


def scaled_precision_factor(VI) -> tuple[np.ndarray, int]:
    """``(R, e)`` with ``(2**e R)' (2**e R) = VI`` and the entries of ``R`` at most about 1.

    ``VI`` is divided by an even power of two ``4**e`` first (exact), so that its factor and
    the products with it stay finite whatever the scale of ``VI``.

    Examples
    --------
    >>> R, e = scaled_precision_factor(np.array([[4.0, 0.0], [0.0, 1.0]]))
    >>> R.tolist(), e
    ([[0.5, 0.0], [0.0, 0.25]], 2)
    """
    # a square, symmetric, finite matrix: Cholesky reads one triangle only, so an asymmetric VI
    # gave the factor of another matrix without a word
    VI = as_float_array(VI, "VI", ndim=2)
    check_square_matrix(VI, "VI")
    check_symmetric(VI, "VI")
    e = pow2_exponent(VI)
    e += e % 2
    scaled = np.ldexp(VI, -e)
    try:
        return linalg.cholesky(scaled, lower=False), e // 2
    except linalg.LinAlgError:
        vals, vecs = linalg.eigh(scaled)
        if vals[0] < -1e-10 * max(vals[-1], 0.0):
            raise ValueError(
                f"VI (the inverse covariance) is not positive semi-definite: smallest eigenvalue "
                f"{np.ldexp(vals[0], e):.3g}. Pass the inverse of a valid covariance, e.g. "
                "np.linalg.inv(estimate_covariance(X, 'ledoit_wolf'))."
            ) from None
        return np.sqrt(np.clip(vals, 0.0, None))[:, None] * vecs.T, e // 2


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
    step = chunk_rows(a.shape[0], 9.0 * b.shape[0])  # a row of the result and of the candidate mask
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
    # exact power-of-two scalings of the data and of VI (an even power, so that R scales by
    # its square root): products stay finite from 1e-300 to 1e300, the result is scaled back
    R, e_r = scaled_precision_factor((VI + VI.T) / 2.0)
    e = pow2_exponent(x, y)
    x, y = np.ldexp(x, -e), np.ldexp(y, -e)
    # centre before transforming: rounding in R x then scales with |x - shift|, not |x|
    shift = x.mean(axis=0)
    with np.errstate(over="ignore"):
        out = np.ldexp(_euclidean((x - shift) @ R.T, (y - shift) @ R.T), e + e_r)
    warn_overflow(out, "mahalanobis")
    return scalar_or_matrix(out, pairwise)


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
    # cos(W x, W y) does not change when a row of x or y, or W, is scaled: scale each row and W by
    # powers of two (exact), so that W x cannot overflow or underflow
    W = np.ldexp(W, -pow2_exponent(W))
    x = np.ldexp(x, -row_pow2_exponents(x)[:, None])
    y = np.ldexp(y, -row_pow2_exponents(y)[:, None])
    out = unit_rows(x @ W.T, "W x") @ unit_rows(y @ W.T, "W y").T
    np.clip(out, -1.0, 1.0, out=out)
    return scalar_or_matrix(out, pairwise)


