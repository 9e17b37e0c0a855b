"""Array plumbing shared by the maths modules: memory-bounded chunks, unit rows, scalar results,
squared distances from inner products, and the scaling that keeps products of very large or
very small numbers finite.

Internal to the package (imported by the maths modules only); it imports nothing from it.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn import get_config

__all__ = [
    "cache_row_blocks",
    "chunk_rows",
    "pow2_exponent",
    "row_pow2_exponents",
    "row_sq_norms",
    "scalar_or_matrix",
    "sq_distances_from_inner",
    "sq_euclidean",
    "unit_rows",
    "warn_overflow",
]


def chunk_rows(n_rows: int, bytes_per_row: float) -> int:
    """Rows per chunk so that one chunk's temporaries stay within ``working_memory`` MiB.

    Examples
    --------
    >>> from sklearn import config_context
    >>> with config_context(working_memory=1):
    ...     chunk_rows(10_000, 8 * 1024)   # 1 MiB of 8 KiB rows
    128
    """
    budget = get_config()["working_memory"] * 2**20
    return int(max(1, min(n_rows, budget // max(bytes_per_row, 1))))


def scalar_or_matrix(result: np.ndarray, pairwise: bool):
    """The pairwise matrix, or its single entry as a float when two vectors were compared."""
    return result if pairwise else float(result[0, 0])


def pow2_exponent(*arrays: np.ndarray) -> int:
    """The exponent ``e`` of a power of two ``2**e`` just above the largest ``|entry|`` of ``arrays``.

    Dividing by ``2**e`` (``np.ldexp(x, -e)``) is exact, only the exponents change, and
    brings the largest entry into ``[0.5, 1)``, so squares and products of the scaled data
    neither overflow (as they do from about 1e154) nor underflow (from about 1e-154).
    Distances and norms are multiplied back with ``np.ldexp(d, e)``, as
    ``scipy.spatial.distance`` and LAPACK's ``dnrm2`` scale. All zero (or empty): 0.

    Examples
    --------
    >>> pow2_exponent(np.array([3.0, -5.0])), pow2_exponent(np.zeros(2)), pow2_exponent(np.array([1e300]))
    (3, 0, 997)
    """
    big = max((float(np.max(np.abs(a))) for a in arrays if a.size), default=0.0)
    if not big > 0 or not np.isfinite(big):
        return 0
    return int(np.frexp(big)[1])


def row_pow2_exponents(x: np.ndarray) -> np.ndarray:
    """Per row of ``x``, the exponent of a power of two just above its largest ``|entry|`` (0 for zero rows).

    ``np.ldexp(x, -e[:, None])`` then scales each row exactly into ``[0.5, 1)``: no rounding
    changes, so ordinary data give bit-identical results, and squares cannot overflow.

    Examples
    --------
    >>> row_pow2_exponents(np.array([[3.0, -5.0], [0.0, 0.0], [1e-300, 0.0]])).tolist()
    [3, 0, -996]
    """
    peak = np.max(np.abs(x), axis=-1) if x.shape[-1] else np.zeros(x.shape[:-1])
    return np.frexp(peak)[1]


def warn_overflow(result: np.ndarray, what: str) -> None:
    """Warn when a result is inf though its inputs were finite: the true value exceeds float64."""
    n_inf = int(np.isinf(result).sum())
    if n_inf:
        warnings.warn(
            f"{what} overflowed: {n_inf} value(s) exceed the float64 range (about 1.8e308) and are "
            "returned as inf. Rescale the inputs (e.g. divide by a power of ten) to compare them.",
            RuntimeWarning,
            stacklevel=3,
        )


def unit_rows(x: np.ndarray, name: str) -> np.ndarray:
    """Rows of ``x`` divided by their Euclidean norms; a zero row is an error naming it.

    Each row is first scaled by a power of two (exact) into ``[0.5, 1)``, so rows of any
    magnitude (1e-300 or 1e300) give the same unit vector, where ``x / |x|`` would overflow
    or underflow to a wrong answer.

    Examples
    --------
    >>> unit_rows(np.array([[3.0, 4.0]]), "x").tolist()
    [[0.6, 0.8]]
    >>> unit_rows(np.array([[3e-200, 4e-200]]), "x").round(12).tolist()
    [[0.6, 0.8]]
    """
    x = np.ldexp(x, -row_pow2_exponents(x)[:, None])
    norms = np.linalg.norm(x, axis=1)
    zero = np.flatnonzero(norms == 0)
    if zero.size:
        raise ValueError(
            f"Cosine similarity is undefined for a zero vector: row {int(zero[0])} of {name} "
            f"({zero.size} zero row(s) in all). Drop such rows or use a distance instead."
        )
    return x / norms[:, None]


def row_sq_norms(Z: np.ndarray) -> np.ndarray:
    """Squared Euclidean norm of each row, without forming ``Z * Z``.

    Examples
    --------
    >>> row_sq_norms(np.array([[3.0, 4.0], [1.0, 0.0]])).tolist()
    [25.0, 1.0]
    """
    return np.einsum("ij,ij->i", Z, Z)


def sq_distances_from_inner(sq_a, sq_b, inner, *, clip: bool = True) -> np.ndarray:
    """Squared Euclidean distances ``|a_i|^2 + |b_j|^2 - 2 a_i'b_j`` from squared norms and inner products.

    The one place the expanded formula is written. It needs only inner products, so it serves
    the Gram-matrix and Woodbury routes (where the points themselves are never formed) and
    sums accumulated block by block. The subtraction cancels for near neighbours: a point's
    distance to itself comes out as a rounding error of either sign, so the result is clipped
    at 0 (``clip=False`` keeps the raw difference, for a caller that subtracts a correction
    term before clipping). The operations and their order are fixed: the kNN readings order
    neighbours by these numbers and break ties by index, so a change in the last bits could
    change a prediction.

    Parameters
    ----------
    sq_a : ndarray of shape (n_a,)
        Squared norms of the rows ``a_i``.
    sq_b : ndarray of shape (n_b,)
        Squared norms of the rows ``b_j``.
    inner : ndarray of shape (n_a, n_b)
        Inner products ``a_i'b_j``.
    clip : bool, default=True
        Replace negative results (rounding error) by 0.

    Returns
    -------
    ndarray of shape (n_a, n_b)

    Examples
    --------
    >>> a, b = np.array([[0.0, 0.0], [3.0, 4.0]]), np.array([[3.0, 0.0]])
    >>> sq_distances_from_inner(row_sq_norms(a), row_sq_norms(b), a @ b.T).tolist()
    [[9.0], [16.0]]
    """
    sq_a, sq_b, inner = np.asarray(sq_a), np.asarray(sq_b), np.asarray(inner)
    if (sq_a.ndim == 1 and sq_b.ndim == 1 and inner.shape == (len(sq_a), len(sq_b))
            and sq_a.dtype == sq_b.dtype == inner.dtype == np.float64):
        return _sq_distances_by_rows(sq_a, sq_b, inner, clip)
    # the operations of (sq_a + sq_b) - 2 inner, then the clip, written into the sum's array:
    # the same numbers with two fewer temporary (n_a, n_b) arrays
    d2 = sq_a[:, None] + sq_b[None, :]
    twice = 2.0 * inner
    if np.result_type(d2, twice) == d2.dtype and d2.shape == np.broadcast_shapes(d2.shape, twice.shape):
        d2 -= twice
    else:  # the difference needs a wider type or shape than the sum has
        d2 = d2 - twice
    del twice
    return np.maximum(d2, 0.0, out=d2) if clip else d2


def cache_row_blocks(n_rows: int, n_cols: int):
    """Slices of about 256 kB of float64 rows (at least one row each) covering ``n_rows`` rows of ``n_cols``.

    For element-wise passes over a large matrix a block at a time, so that a block's
    intermediate values stay in the cache (:func:`sq_distances_from_inner`,
    :meth:`helpers.gram.ResidualCovariance.sq_distances`).

    Examples
    --------
    >>> [(s.start, s.stop) for s in cache_row_blocks(10, 10_000)]   # 3 rows of 10,000 per block
    [(0, 3), (3, 6), (6, 9), (9, 12)]
    """
    step = max(1, (1 << 15) // max(n_cols, 1))
    return [slice(start, start + step) for start in range(0, n_rows, step)]


def _sq_distances_by_rows(sq_a, sq_b, inner, clip: bool) -> np.ndarray:
    """:func:`sq_distances_from_inner` for float64 norms and inner products, a block of rows at a time.

    The same operations on each entry (the sum of the norms, minus twice the inner product, the
    clip), written into the result block by block: each block's intermediate values stay in the
    cache, so the (n_a, n_b) matrices are read and written once instead of once per operation.
    """
    n_a, n_b = inner.shape
    out = np.empty((n_a, n_b))
    for rows in cache_row_blocks(n_a, n_b):
        block = out[rows]
        np.add(sq_a[rows, None], sq_b[None, :], out=block)
        np.subtract(block, 2.0 * inner[rows], out=block)
        if clip:
            np.maximum(block, 0.0, out=block)
    return out


def sq_euclidean(A: np.ndarray, B: np.ndarray, inner=None, *, clip: bool = True) -> np.ndarray:
    """Squared Euclidean distances between the rows of ``A`` and of ``B``, by the expanded formula.

    :func:`sq_distances_from_inner` with the squared norms of :func:`row_sq_norms` and the
    inner products ``A @ B.T`` (or ``inner``, when the caller has them already). One matrix
    product instead of the ``(n_a, n_b, d)`` differences; agrees with
    ``sklearn.metrics.pairwise.euclidean_distances(A, B, squared=True)`` to rounding (not to
    the last bit: scikit-learn adds the terms in another order).

    Examples
    --------
    >>> from sklearn.metrics.pairwise import euclidean_distances
    >>> rng = np.random.default_rng(0)
    >>> A, B = rng.normal(size=(4, 3)), rng.normal(size=(5, 3))
    >>> bool(np.allclose(sq_euclidean(A, B), euclidean_distances(A, B, squared=True)))
    True

    Values whose squares leave float64's range are refused, not squared to 0 or infinity
    (every distance 0 would make every row the nearest):

    >>> try:
    ...     sq_euclidean(A * 1e-300, B * 1e-300)
    ... except ValueError as exc:
    ...     print(str(exc)[:69])
    the rows' largest |value| is 2.3e-300: squared, such values underflow
    """
    _check_squarable(A, B)
    return sq_distances_from_inner(row_sq_norms(A), row_sq_norms(B), A @ B.T if inner is None else inner, clip=clip)


#: outside this range of |value|, squares (and sums of a few thousand of them) leave float64's normal range
SQUARABLE = (1e-150, 1e150)


def largest_magnitude(*arrays) -> float:
    """The largest ``|value|`` of the arrays (0.0 when all are empty), from each one's maximum and minimum:
    no temporary copy of ``|a|``.

    Examples
    --------
    >>> largest_magnitude(np.array([[1.0, -3.0]]), np.zeros((0, 2)))
    3.0
    """
    return max((max(abs(float(np.max(a, initial=0.0))), abs(float(np.min(a, initial=0.0)))) for a in arrays),
               default=0.0)


def _check_squarable(*arrays) -> None:
    largest = largest_magnitude(*arrays)
    if largest == 0.0 or not np.isfinite(largest) or SQUARABLE[0] <= largest <= SQUARABLE[1]:
        return
    way = "underflow to 0" if largest < SQUARABLE[0] else "overflow to infinity"
    then = "every distance would be 0" if largest < SQUARABLE[0] else "the distances would be infinite"
    raise ValueError(f"the rows' largest |value| is {largest:.2g}: squared, such values {way} in float64 and {then}. "
                     "Rescale the rows first (e.g. StandardScaler, or multiply by a power of ten).")
