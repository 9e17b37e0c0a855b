"""How many clusters? The f(K) criterion of Pham, Dimov & Nguyen (2005) for k-means.

k-means' within-cluster sum of squares ``S_K`` always falls as ``K`` grows, so it cannot
pick ``K`` by itself. Pham et al. divide it by the fall expected for *uniformly spread*
data, ``alpha_K * S_{K-1}``:

    f(1) = 1,    f(K) = S_K / (alpha_K * S_{K-1})    (f(K) = 1 when S_{K-1} = 0),
    alpha_2 = 1 - 3 / (4 m),    alpha_K = alpha_{K-1} + (1 - alpha_{K-1}) / 6  for K > 2,

with ``m`` the number of features. ``f(K)`` well below 1 means that going from ``K - 1``
to ``K`` clusters removes much more scatter than uniform data would lose: there is
structure at ``K``. The paper selects the ``K`` with the smallest ``f(K)`` and recommends
only values with ``f(K) < 0.85``; if there is none, the data show no clear clusters.

The k-means fits themselves are scikit-learn's :class:`~sklearn.cluster.KMeans`; this
module adds only the weights and the ratio.

References
----------
.. [1] Pham, D. T., Dimov, S. S. & Nguyen, C. D. (2005). Selection of K in K-means
   clustering. Proc. IMechE Part C: J. Mechanical Engineering Science 219(1), 43-54,
   doi:10.1243/095440605X8298, Eqs. (3)-(4).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans

from ._validation import as_float_array

__all__ = ["pham_alpha", "pham_f", "kmeans_f_table", "PHAM_THRESHOLD"]

PHAM_THRESHOLD = 0.85  # Pham et al. (2005): only K with f(K) below this are recommended


def _check_n_features(n_features) -> int:
    if int(n_features) != n_features or n_features < 2:
        raise ValueError(
            f"alpha_K is defined for data with at least 2 features (Pham et al. 2005: N_d > 1); "
            f"got n_features={n_features!r}. For one feature, compare the S_K values directly."
        )
    return int(n_features)


def pham_alpha(k_max: int, n_features: int) -> np.ndarray:
    """The weights ``alpha_K`` of Pham et al. (2005) for ``K = 1, ..., k_max``.

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
    if int(k_max) != k_max or k_max < 1:
        raise ValueError(f"k_max must be a positive integer; got {k_max!r}.")
    alpha = np.full(int(k_max), np.nan)
    for k in range(2, int(k_max) + 1):
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
    S = as_float_array(inertias, "inertias", ndim=1)
    if S.size == 0:
        raise ValueError("inertias is empty; pass S_K for K = 1, ..., k_max.")
    if np.any(S < 0):
        raise ValueError(f"inertias are sums of squares and cannot be negative; got {S.tolist()}.")
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
    if int(k_max) != k_max or not 1 <= k_max <= X.shape[0]:
        raise ValueError(
            f"k_max must be an integer between 1 and the number of samples ({X.shape[0]}); got {k_max!r}."
        )
    ks = np.arange(1, int(k_max) + 1)
    S = np.array([KMeans(n_clusters=int(k), n_init=n_init, random_state=random_state).fit(X).inertia_ for k in ks])
    table = pd.DataFrame({"S_K": S, "alpha_K": pham_alpha(k_max, X.shape[1]), "f_K": pham_f(S, X.shape[1])},
                         index=pd.Index(ks, name="K"))
    return table
