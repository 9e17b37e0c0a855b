"""How many clusters? Two elbow criteria for k-means: the slides' alpha_k and Pham et al.'s f(K).

k-means' within-cluster sum of squares ``S_K`` always falls as ``K`` grows, so it cannot
pick ``K`` by itself.

**The slides' criterion** (lecture slides, Chapter 5 "Similarity-based learning", lines
960-968): compute

    alpha_K = (1 / K) * sum_i sum_{x in S_i} ||x - mu_i||^2 = S_K / K

and "select K while d alpha_K / dK is less than a small number". The slides give no scale
for that number, nor a discretisation of the derivative; :func:`select_k_by_alpha` uses the
forward difference ``alpha_{K+1} - alpha_K`` divided by ``alpha_1 = S_1`` (so the tolerance
is a fraction of the total scatter and does not depend on the data's units) and returns the
smallest ``K`` whose slope is smaller in magnitude than the tolerance: adding a cluster
after it changes ``alpha`` by less than that.

**Pham, Dimov & Nguyen (2005)**, an addition of this workbook (not in the slides), divide
``S_K`` by the fall expected for *uniformly spread* data, ``alpha_K * S_{K-1}`` with their
own weights (not the slides' alpha):

    f(1) = 1,    f(K) = S_K / (alpha_K * S_{K-1})    (f(K) = 1 when S_{K-1} = 0),
    alpha_2 = 1 - 3 / (4 m),    alpha_K = alpha_{K-1} + (1 - alpha_{K-1}) / 6  for K > 2,

with ``m`` the number of features. ``f(K)`` well below 1 means that going from ``K - 1``
to ``K`` clusters removes much more scatter than uniform data would lose. The paper selects
the ``K`` with the smallest ``f(K)`` and recommends only values with ``f(K) < 0.85``.

The k-means fits themselves are scikit-learn's :class:`~sklearn.cluster.KMeans`; this
module adds only the criteria.

References
----------
.. [1] C.-C. Cheng, lecture slides, Chapter 5 "Similarity-based learning" (after Kelleher,
   Mac Namee & D'Arcy), "K-Means Clustering: How to decide k?".
.. [2] Pham, D. T., Dimov, S. S. & Nguyen, C. D. (2005). Selection of K in K-means
   clustering. Proc. IMechE Part C: J. Mechanical Engineering Science 219(1), 43-54,
   doi:10.1243/095440605X8298, Eqs. (3)-(4).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans

from ._arrays import SQUARABLE, largest_magnitude
from ._validation import as_float_array, check_int, check_real

__all__ = [
    "kmeans_inertias",
    "slide_alpha",
    "alpha_slopes",
    "select_k_by_alpha",
    "kmeans_alpha_table",
    "pham_alpha",
    "pham_f",
    "kmeans_f_table",
    "PHAM_THRESHOLD",
]

PHAM_THRESHOLD = 0.85  # Pham et al. (2005): only K with f(K) below this are recommended


def _check_k_max(k_max, n_samples: int) -> int:
    return check_int(k_max, "k_max", 1, maximum=n_samples, why="at most the number of samples")


def _check_inertias(inertias) -> np.ndarray:
    S = as_float_array(inertias, "inertias", ndim=1)
    if S.size == 0:
        raise ValueError("inertias is empty; pass S_K for K = 1, ..., k_max.")
    if np.any(S < 0):
        raise ValueError(f"inertias are sums of squares and cannot be negative; got {S.tolist()}.")
    return S


def _check_scale(X: np.ndarray) -> None:
    """Refuse data whose squared deviations leave float64's range (:data:`helpers._arrays.SQUARABLE`): S_K sums
    them, so k-means returned inf above it and 0 below it, as if every point coincided."""
    low, high = SQUARABLE
    with np.errstate(over="ignore", invalid="ignore"):
        spread = largest_magnitude(X - X.mean(axis=0)) if X.size else 0.0
    if not spread <= high:
        raise ValueError(
            f"X is too spread out for k-means' sums of squares: its largest deviation from a column mean is "
            f"{spread:.3g}, and above {high:.0e} the squares overflow float64 (about 1.8e308), so every "
            "S_K would be inf. Rescale X first (S_K scales with the square of its units), e.g. divide it by a "
            "power of ten or use sklearn.preprocessing.StandardScaler."
        )
    if 0 < spread < low:
        raise ValueError(
            f"X is too tightly packed for k-means' sums of squares: its largest deviation from a column mean is "
            f"{spread:.3g}, and below {low:.0e} the squares underflow float64 (they lose digits "
            "below 1e-300 and vanish below 5e-324), so S_K would come out 0, as if every point coincided. "
            "Rescale X first, e.g. multiply it by a power of ten or use sklearn.preprocessing.StandardScaler."
        )


def kmeans_inertias(X, k_max: int, n_init: int = 10, random_state: int = 0) -> np.ndarray:
    """The k-means objective ``S_K`` (scikit-learn's ``inertia_``) for ``K = 1, ..., k_max``.

    ``S_K = sum_i sum_{x in S_i} ||x - mu_i||^2`` is the sum-of-squares criterion the slides
    minimise (line 927); each ``K`` keeps the best of ``n_init`` k-means runs.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    k_max : int
        Largest number of clusters, between 1 and ``n_samples``.
    n_init : int, default=10
        k-means restarts per ``K`` (scikit-learn keeps the lowest ``S_K``).
    random_state : int, default=0
        Seed of the initialisations, so the values are reproducible.

    Returns
    -------
    ndarray of shape (k_max,)
        Entry ``K - 1`` holds ``S_K``.

    Examples
    --------
    >>> print(kmeans_inertias([[0, 0], [0, 1], [10, 0], [10, 1]], k_max=2).round(2))
    [101.   1.]
    """
    X = as_float_array(X, "X", ndim=2)
    k_max = _check_k_max(k_max, X.shape[0])
    _check_scale(X)
    return np.array([KMeans(n_clusters=k, n_init=n_init, random_state=random_state).fit(X).inertia_
                     for k in range(1, k_max + 1)])


def slide_alpha(inertias) -> np.ndarray:
    """The slides' ``alpha_K = S_K / K`` (lines 966-967) from ``S_1, ..., S_Kmax``.

    Examples
    --------
    >>> print(slide_alpha([12.0, 6.0, 3.0, 2.4]))
    [12.   3.   1.   0.6]
    """
    S = _check_inertias(inertias)
    return S / np.arange(1, S.size + 1)


def alpha_slopes(inertias) -> np.ndarray:
    """Forward slopes of the slides' ``alpha_K``, as a fraction of ``alpha_1``.

    ``(alpha_{K+1} - alpha_K) / alpha_1`` for ``K = 1, ..., k_max - 1``, and NaN for
    ``K = k_max`` (no next value). They are negative (``alpha_K`` falls as ``K`` grows);
    :func:`select_k_by_alpha` compares their magnitude with a tolerance.

    Examples
    --------
    >>> print(alpha_slopes([12.0, 6.0, 3.0, 2.4]).round(4))
    [-0.75   -0.1667 -0.0333     nan]
    """
    alpha = slide_alpha(inertias)
    if alpha[0] == 0:
        raise ValueError("S_1 = 0: all points coincide, so there is nothing to cluster and no slope to scale.")
    return np.append(np.diff(alpha), np.nan) / alpha[0]


def select_k_by_alpha(inertias, tol: float) -> int:
    """The slides' rule: the smallest ``K`` at which ``d alpha_K / dK`` is below ``tol`` in size.

    Parameters
    ----------
    inertias : array-like of shape (k_max,)
        ``S_K`` for ``K = 1, ..., k_max`` (e.g. :func:`kmeans_inertias`).
    tol : float
        The slides' "small number", as a fraction of ``alpha_1`` (see :func:`alpha_slopes`).

    Returns
    -------
    int
        The smallest ``K`` with ``|alpha_{K+1} - alpha_K| / alpha_1 < tol``.

    Raises
    ------
    ValueError
        If no ``K < k_max`` qualifies: the tolerance is too small for the ``K`` tried.

    Examples
    --------
    ``alpha = (12, 3, 1, 0.6)``: the slopes are 0.75, 0.167 and 0.033 of ``alpha_1``.

    >>> select_k_by_alpha([12.0, 6.0, 3.0, 2.4], tol=0.1)
    3
    >>> select_k_by_alpha([12.0, 6.0, 3.0, 2.4], tol=0.2)
    2
    """
    tol = check_real(tol, "tol", "tol=0.05", low=0, closed="neither", why="a positive fraction of alpha_1")
    slopes = alpha_slopes(inertias)
    small = np.flatnonzero(np.abs(slopes[:-1]) < tol)
    if small.size == 0:
        raise ValueError(
            f"no K below k_max = {slopes.size} has |d alpha / dK| < {tol} alpha_1 (smallest "
            f"{np.nanmin(np.abs(slopes)):.4g}); try more clusters (a larger k_max) or a larger tol."
        )
    return int(small[0] + 1)


def kmeans_alpha_table(X, k_max: int, n_init: int = 10, random_state: int = 0) -> pd.DataFrame:
    """Fit k-means for ``K = 1, ..., k_max`` and tabulate ``S_K``, the slides' ``alpha_K`` and its slope.

    Parameters are those of :func:`kmeans_inertias`.

    Returns
    -------
    DataFrame
        Index ``K``; columns ``S_K``, ``alpha_K`` (``S_K / K``) and ``slope_K``
        (:func:`alpha_slopes`). The slides' choice for a tolerance ``tol`` is
        ``select_k_by_alpha(table["S_K"], tol)``.

    Examples
    --------
    Three tight pairs of points: the slope falls to almost nothing after ``K = 3``.

    >>> X = [[0, 0], [0, 1], [10, 0], [10, 1], [5, 9], [5, 10]]
    >>> t = kmeans_alpha_table(X, k_max=4)
    >>> for k, row in t.iterrows():
    ...     print(k, f"S_K = {row['S_K']:.2f}, alpha_K = {row['alpha_K']:.2f}, slope = {row['slope_K']:.4f}")
    1 S_K = 209.50, alpha_K = 209.50, slope = -0.7578
    2 S_K = 101.50, alpha_K = 50.75, slope = -0.2399
    3 S_K = 1.50, alpha_K = 0.50, slope = -0.0012
    4 S_K = 1.00, alpha_K = 0.25, slope = nan
    >>> select_k_by_alpha(t["S_K"], tol=0.05)
    3
    """
    S = kmeans_inertias(X, k_max, n_init, random_state)
    return pd.DataFrame({"S_K": S, "alpha_K": slide_alpha(S), "slope_K": alpha_slopes(S)},
                        index=pd.Index(np.arange(1, S.size + 1), name="K"))


def _check_n_features(n_features) -> int:
    return check_int(n_features, "n_features", 2, why="alpha_K is defined for data with at least 2 features, Pham "
                     "et al. 2005: N_d > 1; for one feature, compare the S_K values directly")


def pham_alpha(k_max: int, n_features: int) -> np.ndarray:
    """The weights ``alpha_K`` of Pham et al. (2005) for ``K = 1, ..., k_max`` (not the slides' alpha).

    Parameters
    ----------
    k_max : int
        Largest number of clusters, at least 1.
    n_features : int
        Number of features ``m`` of the data, at least 2.

    Returns
    -------
    ndarray of shape (k_max,)
        Entry ``K - 1`` holds ``alpha_K``; ``alpha_1`` is not defined and is NaN.
        ``alpha_2 = 1 - 3/(4m)`` and ``alpha_K = alpha_{K-1} + (1 - alpha_{K-1})/6``.

    Examples
    --------
    For two features ``alpha_2 = 1 - 3/8`` and ``alpha_3 = 0.625 + 0.375/6``:

    >>> print(", ".join(f"{a:.4f}" for a in pham_alpha(4, 2)))
    nan, 0.6250, 0.6875, 0.7396
    """
    n_features = _check_n_features(n_features)
    k_max = check_int(k_max, "k_max", 1, "k_max=10")
    alpha = np.full(k_max, np.nan)
    for k in range(2, k_max + 1):
        alpha[k - 1] = 1.0 - 3.0 / (4.0 * n_features) if k == 2 else alpha[k - 2] + (1.0 - alpha[k - 2]) / 6.0
    return alpha


def pham_f(inertias, n_features: int) -> np.ndarray:
    """The criterion ``f(K)`` from the within-cluster sums of squares ``S_1, ..., S_Kmax``.

    Parameters
    ----------
    inertias : array-like of shape (k_max,)
        ``S_K`` for ``K = 1, ..., k_max`` in that order (e.g. ``KMeans(K).fit(X).inertia_``);
        non-negative.
    n_features : int
        Number of features ``m`` of the clustered data, at least 2.

    Returns
    -------
    ndarray of shape (k_max,)
        ``f(1) = 1``; ``f(K) = S_K / (alpha_K S_{K-1})``, or 1 where ``S_{K-1} = 0``.

    Examples
    --------
    Halving the scatter with a second cluster in 2-D gives ``0.5 / 0.625``:

    >>> print(pham_f([10.0, 5.0, 0.0, 0.0], n_features=2))
    [1.  0.8 0.  1. ]
    """
    S = _check_inertias(inertias)
    alpha = pham_alpha(S.size, n_features)
    f = np.ones(S.size)
    prev, cur = S[:-1], S[1:]
    nonzero = prev > 0
    f[1:][nonzero] = cur[nonzero] / (alpha[1:][nonzero] * prev[nonzero])
    return f


def kmeans_f_table(X, k_max: int, n_init: int = 10, random_state: int = 0) -> pd.DataFrame:
    """Fit k-means for ``K = 1, ..., k_max`` and tabulate ``S_K``, ``alpha_K`` and ``f(K)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Data to cluster, with ``n_features >= 2`` and ``n_samples >= k_max``.
    k_max : int
        Largest number of clusters tried.
    n_init : int, default=10
        k-means restarts per ``K`` (scikit-learn keeps the lowest ``S_K``).
    random_state : int, default=0
        Seed of the k-means initialisations, so the table is reproducible.

    Returns
    -------
    DataFrame
        Index ``K`` (1 to ``k_max``); columns ``S_K`` (``KMeans.inertia_``), ``alpha_K`` and
        ``f_K``. The paper's choice is ``table["f_K"].idxmin()``, recommended only if that
        value is below :data:`PHAM_THRESHOLD` (0.85).

    Examples
    --------
    Two tight pairs of points: two clusters remove almost all scatter.

    >>> t = kmeans_f_table([[0, 0], [0, 1], [10, 0], [10, 1]], k_max=3)
    >>> for k, row in t.iterrows():
    ...     print(k, f"S_K = {row['S_K']:.1f}, f(K) = {row['f_K']:.3f}")
    1 S_K = 101.0, f(K) = 1.000
    2 S_K = 1.0, f(K) = 0.016
    3 S_K = 0.5, f(K) = 0.727
    >>> int(t["f_K"].idxmin())
    2
    """
    X = as_float_array(X, "X", ndim=2)
    _check_n_features(X.shape[1])
    S = kmeans_inertias(X, k_max, n_init, random_state)
    ks = np.arange(1, S.size + 1)
    return pd.DataFrame({"S_K": S, "alpha_K": pham_alpha(S.size, X.shape[1]), "f_K": pham_f(S, X.shape[1])},
                        index=pd.Index(ks, name="K"))
