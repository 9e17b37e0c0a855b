"""The notes' R code, ported line by line, and the routes it takes."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.spatial.distance import pdist, squareform

# --------------------------------------------------------------------------------------------
# the notes' R code, ported line by line


def r_smc(x, y):
    """The notes' R function ``SMC`` (l. 93-95): ``sum(x == y) / length(x)``.

    Examples
    --------
    >>> float(r_smc(np.array([1, 1, 1, 1]), np.array([1, 1, 0, 1])))
    0.75
    """
    return np.sum(x == y) / len(x)


def r_jaccard(x, y):
    """The notes' R function ``jaccard`` (l. 120-123), ``table(y, x)`` as a cross-tabulation.

    ``bt[2, 2] / (bt[1, 2] + bt[2, 1] + bt[2, 2])`` in R's 1-based indexing: rows ``y = 0, 1``,
    columns ``x = 0, 1``. As in R, the table only has a row and a column for the values that
    occur, so a vector without a 0 (or without a 1) raises IndexError here where R stops with
    "subscript out of bounds".

    Examples
    --------
    >>> float(r_jaccard(np.array([1, 1, 0, 0, 1, 1]), np.array([1, 1, 1, 0, 0, 1])))
    0.6
    """
    bt = pd.crosstab(y, x).to_numpy()                          # R: bt = table(y, x)
    return bt[1, 1] / (bt[0, 1] + bt[1, 0] + bt[1, 1])


def FtoD(FF):  # noqa: N802 - the notes' name
    """The notes' R function ``FtoD`` (l. 144-153): ``D[ii, jj] = sqrt(FF[ii, ii] + FF[jj, jj] - 2 FF[ii, jj])``.

    Examples
    --------
    >>> FtoD(np.array([[1.0, 0.5], [0.5, 1.0]]))
    array([[0., 1.],
           [1., 0.]])
    """
    n_obj = FF.shape[0]
    D = np.empty((n_obj, n_obj))
    for ii in range(n_obj):
        for jj in range(n_obj):
            D[ii, jj] = np.sqrt(FF[ii, ii] + FF[jj, jj] - 2 * FF[ii, jj])
    return D


def smc_routes(X):
    """The SMC matrix as the notes' R code computes it, twice: ``SMC()`` over ``outer()`` and ``(p - L1) / p``.

    Returns
    -------
    F_outer : ndarray
        :func:`r_smc` of every pair of rows (l. 99-103).
    F_manhattan : ndarray
        ``(p - L1) / p`` with ``L1`` the Manhattan distances (l. 109-110, ``p`` attributes).
    L1 : ndarray
        The Manhattan distances.

    Examples
    --------
    >>> F_outer, F_manhattan, L1 = smc_routes(np.array([[1, 0, 1], [1, 1, 0]]))
    >>> F_outer[0, 1], F_manhattan[0, 1], L1.max()
    (np.float64(0.3333333333333333), np.float64(0.3333333333333333), np.float64(2.0))
    """
    X = np.asarray(X)
    n, p = X.shape
    F_outer = np.array([[r_smc(X[i], X[j]) for j in range(n)] for i in range(n)])
    L1 = squareform(pdist(X, "cityblock"))
    return F_outer, (p - L1) / p, L1


def jaccard_routes(X):
    """The Jaccard matrix as the notes' R code computes it, twice: ``jaccard()`` over ``outer()`` and ``1 - binary``.

    Returns ``(F_outer, F_binary)``: :func:`r_jaccard` of every pair of rows (l. 127-130) and
    ``1 -`` R's ``binary`` distance, which is scipy's ``jaccard`` dissimilarity (l. 134).

    Examples
    --------
    >>> F_outer, F_binary = jaccard_routes(np.array([[1, 0, 1], [1, 1, 0]]))
    >>> float(F_outer[0, 1]), float(F_binary[0, 1])
    (0.3333333333333333, 0.33333333333333337)
    """
    X = np.asarray(X)
    n = len(X)
    F_outer = np.array([[r_jaccard(X[i], X[j]) for j in range(n)] for i in range(n)])
    return F_outer, 1 - squareform(pdist(X.astype(bool), "jaccard"))
