"""How two maps of the same objects differ, and whether by more than resampling noise.

A map is a low-dimensional configuration of objects (classical MDS, PCA). Two maps of the same
objects, e.g. from two similarity coefficients, are compared after the best translation,
scaling, rotation and reflection (Procrustes, :func:`scipy.spatial.procrustes`):

* :func:`map_differences`: the Procrustes disparity, the rank correlation of the pairwise
  distances, the correlation of each axis and the objects whose nearest neighbour changes;
* :func:`map_comparisons`: the disparity of each pair of 2-D classical-MDS maps with a bootstrap
  interval over the objects, and :func:`excess_disparity`, its excess over the disparities that
  resampling alone produces (:func:`helpers.mds.pca_resampling_disparities`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.linalg import eigh
from scipy.sparse.linalg import eigsh
from scipy.spatial import procrustes
from scipy.spatial.distance import pdist, squareform
from scipy.stats import bootstrap, spearmanr

from ._validation import as_float_array, check_int, check_real
from .mds import double_center

__all__ = ["MapComparisons", "MapDifferences", "excess_disparity", "map_comparisons", "map_differences"]


class MapDifferences(NamedTuple):
    """How two 2-D maps of the same objects differ (:func:`map_differences`)."""

    disparity: float        #: Procrustes disparity: 0 = the same shape after the best similarity transform
    rho: float              #: Spearman rank correlation of the pairwise distances
    axis_corr: list         #: |correlation| of each coordinate between the maps
    nearest: pd.DataFrame   #: each object's nearest neighbour in each map
    changed: list           #: the objects whose nearest neighbour changes


def map_differences(E1, E2, names, labels=("first map", "second map")) -> MapDifferences:
    """How two 2-D maps of the same objects differ: shape, distance ranks, axes and nearest neighbours.

    The Procrustes disparity is taken after the best translation, scaling, rotation and
    reflection (``scipy.spatial.procrustes``); ``labels`` name the two maps in ``nearest``.

    Examples
    --------
    >>> E = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
    >>> d = map_differences(E, E @ [[0.0, -1.0], [1.0, 0.0]], list("abcd"))
    >>> bool(d.disparity < 1e-12), float(d.rho), d.changed, d.nearest.loc["d"].tolist()
    (True, 1.0, [], ['c', 'c'])
    """
    _, _, disparity = procrustes(E1, E2)
    rho = spearmanr(pdist(E1), pdist(E2)).statistic
    nearest = pd.DataFrame({label: [names[np.argsort(row)[1]] for row in squareform(pdist(E))]
                            for label, E in zip(labels, (E1, E2))}, index=names)
    changed = nearest.index[nearest[labels[0]] != nearest[labels[1]]].tolist()
    axis_corr = [abs(np.corrcoef(E1[:, k], E2[:, k])[0, 1]) for k in range(2)]
    return MapDifferences(disparity, rho, axis_corr, nearest, changed)


class MapComparisons(NamedTuple):
    """Pairs of maps against the resampling noise of a map (:func:`map_comparisons`)."""

    table: pd.DataFrame     #: per pair: the disparity, its interval, the effect and its interval, p
    effects: dict           #: ``{key: {"effect", "interval", "p", "method"}}``, for ``check.claim``


def _leading_coordinates(B, n_components: int = 2):
    """The leading classical-MDS coordinates of a centred inner-product matrix ``B`` (Lanczos, fixed start).

    Above 200 objects ARPACK's ``eigsh`` finds the top eigenpairs in a fraction of the time of a
    dense solver;
    its start vector is fixed (and not the ones vector, which a centred ``B`` annihilates), so
    the result does not depend on a random draw.
    """
    n = len(B)
    if n <= 200:  # small: the dense solver
        values, vectors = eigh(B, subset_by_index=[n - n_components, n - 1])
    else:
        start = np.random.default_rng(0).standard_normal(n)
        values, vectors = eigsh(B, k=n_components, which="LA", v0=start, tol=1e-12)
    order = np.argsort(values)[::-1]
    return vectors[:, order] * np.sqrt(np.maximum(values[order], 0.0))


def excess_disparity(disparity, interval, noise, confidence: float = 0.95, how: str = "") -> dict:
    """The Procrustes disparity of two maps beyond the resampling noise of a map, with its interval.

    The effect is ``disparity - median(noise)``: positive when the two maps are further apart
    than a map typically moves by sampling alone, about zero when they are as close as two
    resampled versions of one map. ``interval`` is the disparity's own interval (e.g. from a
    bootstrap of the objects), shifted by the same median. A percentile interval that misses
    the estimate (a bootstrap bias larger than its spread) is widened to include it, and
    ``method`` says so.

    Parameters
    ----------
    disparity : float
        Procrustes disparity of the two maps, in [0, 1].
    interval : (float, float)
        Its interval, ``low <= high``, in [0, 1].
    noise : array-like
        Disparities sampling alone produces (:func:`~helpers.mds.pca_resampling_disparities`),
        at least two.
    confidence : float
        The level of ``interval``, for the description.
    how : str
        How ``interval`` was obtained, for the description.

    Returns
    -------
    dict
        ``effect``, ``interval``, ``p`` (the share of ``noise`` at least as large as
        ``disparity``, with the usual +1) and ``method``, as
        :meth:`helpers.workbook.checks.SourceCheck.claim` takes them.

    Raises
    ------
    ValueError
        A disparity or interval bound outside [0, 1] or not finite, ``low > high``, or fewer
        than two finite noise values.

    Examples
    --------
    >>> e = excess_disparity(0.07, (0.06, 0.09), [0.005, 0.01, 0.02])
    >>> print(f"{e['effect']:+.3f} [{e['interval'][0]:+.3f}, {e['interval'][1]:+.3f}] p = {e['p']:.2f}")
    +0.060 [+0.050, +0.080] p = 0.25
    """
    disparity = check_real(disparity, "disparity", "0.07", 0, 1)
    try:
        low, high = (check_real(v, "interval bound", "(0.06, 0.09)", 0, 1) for v in interval)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"interval must be two disparities (low, high) in [0, 1]; got {interval!r} ({exc})") from None
    if low > high:
        raise ValueError(f"interval must be (low, high) with low <= high; got ({low:g}, {high:g})")
    noise = np.asarray(noise, dtype=float).ravel()
    if noise.size < 2 or not np.isfinite(noise).all():
        raise ValueError(f"noise must be at least two finite disparities (e.g. pca_resampling_disparities(X)); got "
                         f"{noise.size} value(s){'' if np.isfinite(noise).all() else ', some not finite'}")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    middle = float(np.median(noise))
    widened = not low <= disparity <= high
    low, high = min(low, disparity), max(high, disparity)
    method = (f"Procrustes disparity minus the median disparity ({middle:.4f}) of a map refitted on {noise.size} "
              f"bootstrap resamples; {confidence:.0%} interval {how or 'of the disparity'}"
              + (" (widened to the estimate, which the resamples' percentiles missed)" if widened else ""))
    return {"effect": disparity - middle, "interval": (low - middle, high - middle),
            "p": float((1 + np.sum(noise >= disparity)) / (noise.size + 1)), "method": method}


def map_comparisons(matrices: dict, pairs: dict, noise, *, n_resamples: int = 200, random_state: int = 0,
                    confidence: float = 0.95) -> MapComparisons:
    """Do two maps of the same objects differ beyond sampling noise? Disparity, interval and effect per pair.

    Each map is the 2-D classical MDS of a matrix (the leading eigenpairs of ``B = HFH``): a
    similarity matrix, or the inner products ``X X'`` of the data, whose MDS is the PCA map.
    For each pair the Procrustes disparity of the two maps is computed on all objects, and
    again on ``n_resamples`` bootstrap resamples of the objects with both maps recomputed on
    each (``scipy.stats.bootstrap``, percentile interval: the BCa interval would need a
    jackknife of ``n`` refits per map). :func:`excess_disparity` then measures each against
    ``noise``.

    Parameters
    ----------
    matrices : dict
        ``{name: F}``, symmetric ``(n, n)`` matrices of the same objects.
    pairs : dict
        ``{key: (name, name)}``, the pairs to compare.
    noise : array-like
        Disparities that sampling alone produces (:func:`~helpers.mds.pca_resampling_disparities`).
    n_resamples, random_state : int
        The bootstrap of the objects.
    confidence : float
        The level of the intervals.

    Returns
    -------
    MapComparisons
        ``table`` indexed by key (``maps``, ``Procrustes disparity``, its interval ``low`` and
        ``high``, ``effect``, ``effect low``, ``effect high``, ``p (resampling)``) and
        ``effects`` (``{key: effect dict}``).

    Raises
    ------
    ValueError
        A pair naming a matrix not given, matrices not square and of one size, fewer than
        three objects, or the errors of :func:`excess_disparity`.

    Examples
    --------
    A configuration against a noisy copy of itself, and against a different one:

    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 2)) * [3.0, 1.0]
    >>> copy, other = X + rng.normal(scale=0.05, size=X.shape), rng.normal(size=(40, 2))
    >>> out = map_comparisons({"X": X @ X.T, "copy": copy @ copy.T, "other": other @ other.T},
    ...                       {"same": ("X", "copy"), "different": ("X", "other")}, [0.001, 0.002, 0.004],
    ...                       n_resamples=30)
    >>> for key, r in out.table.iterrows():
    ...     print(f"{key}: {r['effect']:+.3f} [{r['effect low']:+.3f}, {r['effect high']:+.3f}]")
    same: -0.002 [-0.002, -0.001]
    different: +0.984 [+0.854, +0.993]
    """
    unknown = sorted({name for pair in pairs.values() for name in pair} - set(matrices))
    if unknown:
        raise ValueError(f"pairs name matrices that were not given: {unknown}; the matrices are {list(matrices)}")
    arrays = {name: as_float_array(F, f"matrices[{name!r}]", ndim=2) for name, F in matrices.items()}
    shapes = {F.shape for F in arrays.values()}
    n = next(iter(shapes))[0]
    if len(shapes) != 1 or n != next(iter(shapes))[1] or n < 3:
        raise ValueError(f"the matrices must be square, of one size, with at least three objects; got shapes "
                         f"{sorted(shapes)}")
    n_resamples = check_int(n_resamples, "n_resamples", 2, "n_resamples=200")
    names = sorted({name for pair in pairs.values() for name in pair})

    def disparities(rows):
        maps = {name: _leading_coordinates(double_center(arrays[name][np.ix_(rows, rows)])) for name in names}
        return np.array([procrustes(maps[a], maps[b])[2] for a, b in pairs.values()])

    observed = disparities(np.arange(n))
    boot = bootstrap((np.arange(n),), disparities, vectorized=False, n_resamples=n_resamples,
                     confidence_level=confidence, method="percentile", rng=np.random.default_rng(random_state))
    lows, highs = np.atleast_1d(boot.confidence_interval.low), np.atleast_1d(boot.confidence_interval.high)
    how = f"from {n_resamples} bootstrap resamples of the {n} objects, both maps recomputed on each (percentile)"
    effects, rows = {}, []
    for (key, (a, b)), d, low, high in zip(pairs.items(), observed, lows, highs):
        e = effects[key] = excess_disparity(d, (low, high), noise, confidence, how)
        rows.append({"maps": f"{a} vs {b}", "Procrustes disparity": d, "low": low, "high": high,
                     "effect": e["effect"], "effect low": e["interval"][0], "effect high": e["interval"][1],
                     "p (resampling)": e["p"]})
    return MapComparisons(pd.DataFrame(rows, index=list(pairs)), effects)
