"""Array plumbing shared by the maths modules: memory-bounded chunks, unit rows, scalar results.

Internal to the package (imported by the maths modules only); it imports nothing from it.
"""

from __future__ import annotations

import numpy as np
from sklearn import get_config

__all__ = ["chunk_rows", "row_sq_norms", "scalar_or_matrix", "unit_rows"]


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


def unit_rows(x: np.ndarray, name: str) -> np.ndarray:
    """Rows of ``x`` divided by their Euclidean norms; a zero row is an error naming it.

    Examples
    --------
    >>> unit_rows(np.array([[3.0, 4.0]]), "x").tolist()
    [[0.6, 0.8]]
    """
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
