"""Array plumbing shared by the maths modules: memory-bounded chunks, unit rows, scalar results,
and the scaling that keeps products of very large or very small numbers finite.

Internal to the package (imported by the maths modules only); it imports nothing from it.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn import get_config

__all__ = [
    "chunk_rows",
    "pow2_exponent",
    "row_pow2_exponents",
    "row_sq_norms",
    "scalar_or_matrix",
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
