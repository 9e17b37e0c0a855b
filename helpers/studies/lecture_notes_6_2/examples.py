"""Example 5 (the typeset matrix, MDS, the two maps), MNIST (section 6.2.2) and the shortcut D = 1 - S."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.linalg import eigh
from scipy.sparse.linalg import eigsh
from scipy.spatial import procrustes
from scipy.spatial.distance import pdist, squareform
from scipy.stats import bootstrap, spearmanr
from sklearn.manifold import ClassicalMDS

from ..._validation import as_float_array, check_int, check_real
from ...binary import binary_similarity
from ...mds import (
    classical_mds,
    double_center,
    similarity_to_distance,
)
from .data import as_fraction
from .r_code import FtoD

# --------------------------------------------------------------------------------------------
# Example 5: the typeset matrix, MDS and the two maps


def typeset_differences(typeset, F, names) -> pd.DataFrame:
    """The entries of a typeset matrix that differ from ``F``, with their mirror entries, as fractions.

    Examples
    --------
    >>> F = np.array([[1, 1 / 3], [1 / 3, 1]])
    >>> typeset_differences(np.array([[1, 0.5], [1 / 3, 1]]), F, ["a", "b"]).iloc[0].tolist()
    ['a', 'b', '1/2', '1/3', '1/3']
    """
    typeset, F = np.asarray(typeset, dtype=float), np.asarray(F, dtype=float)
    wrong = np.argwhere(~np.isclose(typeset, F))
    return pd.DataFrame([(names[i], names[j], as_fraction(typeset[i, j]), as_fraction(F[i, j]),
                          as_fraction(typeset[j, i])) for i, j in wrong],
                        columns=["row", "column", "typeset", "data and R output", "typeset, mirror entry"])


def sheep_as_cow(X, names, typeset) -> bool:
    """Whether the typeset Sheep column is the SMC of a Sheep given Cow's attributes (off the diagonal).

    Examples
    --------
    >>> X = np.array([[1, 0, 0, 1, 0, 1], [0, 0, 0, 1, 0, 1]])
    >>> sheep_as_cow(X, ["Cow", "Sheep"], np.array([[1, 1], [5 / 6, 1]]))
    True
    """
    X = np.asarray(X)
    sheep, cow = names.index("Sheep"), names.index("Cow")
    as_cow = X.copy()
    as_cow[sheep] = X[cow]                                        # Sheep given Cow's attributes
    S_as_cow = binary_similarity(as_cow, coefficient="simple_matching")
    others = [i for i in range(len(names)) if i != sheep]
    return bool(np.allclose(np.asarray(typeset)[others, sheep], S_as_cow[others, sheep]))


def cmdscale_routes(S: dict):
    """MDS of each similarity matrix two ways: ``classical_mds(F=F)`` and ``cmdscale(FtoD(F))`` (l. 155-158).

    scikit-learn's ``ClassicalMDS`` on :func:`FtoD` stands in for R's ``cmdscale``.

    Returns
    -------
    mds : dict
        ``{label: MDSResult}`` of ``classical_mds(F=F)`` (``B = HFH``).
    ftod_errors, cmdscale_errors : list of float
        For each matrix, ``max |FtoD(F) - similarity_to_distance(F)|`` and the largest
        ``|coordinate difference|`` of the two MDS, column signs matched.

    Examples
    --------
    >>> F = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]])
    >>> mds, ftod_errors, cmdscale_errors = cmdscale_routes({"F": F})
    >>> mds["F"].embedding.shape, bool(max(ftod_errors) < 1e-15), bool(max(cmdscale_errors) < 1e-10)
    ((3, 2), True, True)
    """
    mds, ftod_errors, cmdscale_errors = {}, [], []
    for label, F in S.items():
        ftod_errors.append(np.abs(FtoD(F) - similarity_to_distance(F)).max())
        mds[label] = classical_mds(F=F)                                                    # B = HFH (l. 42, 155)
        theirs = ClassicalMDS(n_components=2, metric="precomputed").fit_transform(FtoD(F))  # cmdscale(FtoD(F))
        signs = np.sign(np.sum(mds[label].embedding * theirs, axis=0))
        cmdscale_errors.append(np.abs(mds[label].embedding - theirs * signs).max())
    return mds, ftod_errors, cmdscale_errors


class MapDifferences(NamedTuple):
    """How two 2-D maps of the same objects differ (:func:`map_differences`)."""

    disparity: float        #: Procrustes disparity: 0 = the same shape after the best similarity transform
    rho: float              #: Spearman rank correlation of the pairwise distances
    axis_corr: list         #: |correlation| of each coordinate between the maps
    nearest: pd.DataFrame   #: each object's nearest neighbour in each map
    changed: list           #: the objects whose nearest neighbour changes


def map_differences(E1, E2, names, labels=("SMC map", "Jaccard map")) -> MapDifferences:
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


# --------------------------------------------------------------------------------------------
# MNIST (section 6.2.2)


def mnist_mds(S: dict):
    """MDS of each similarity matrix (l. 181-182), its spectrum as ``cmdscale(..., eig = TRUE)`` reports it.

    Returns
    -------
    mds : dict
        ``{label: MDSResult}`` of ``classical_mds(F=F)``.
    table : DataFrame
        The two leading eigenvalues, R's goodness of fit ``g1`` and ``g2`` of two dimensions
        and the count of negative eigenvalues, one row per matrix.
    gap : float
        The largest ``|coordinate difference|`` from scikit-learn's ``ClassicalMDS`` on the
        distances (6.6), column signs matched.

    Examples
    --------
    >>> from helpers.studies.lecture_notes_6_2 import similarities
    >>> Y = np.random.default_rng(0).integers(0, 2, size=(12, 8))
    >>> mds, table, gap = mnist_mds(similarities(Y))
    >>> table.columns.tolist()[:3], bool(gap < 1e-8)
    (['lambda_1', 'lambda_2', 'GOF g1 (k = 2)'], True)
    """
    mds, rows, gap = {}, [], 0.0
    for label, F in S.items():
        r = mds[label] = classical_mds(F=F)
        theirs = ClassicalMDS(n_components=2, metric="precomputed").fit_transform(similarity_to_distance(F))
        gap = max(gap, np.abs(r.embedding - theirs * np.sign(np.sum(r.embedding * theirs, axis=0))).max())
        rows.append({"coefficient": label, "lambda_1": r.eigenvalues[0], "lambda_2": r.eigenvalues[1],
                     "GOF g1 (k = 2)": r.gof[0], "GOF g2 (k = 2)": r.gof[1], "negative eigenvalues": r.n_negative})
    return mds, pd.DataFrame(rows).set_index("coefficient"), gap


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

    Each map is the 2-D classical MDS of a matrix (the leading eigenpairs of ``B = HFH``, 6.7):
    a similarity matrix, or the inner products ``X X'`` of the data, whose MDS is the PCA map
    (l. 166). For each pair the Procrustes disparity of the two maps is computed on all objects,
    and again on ``n_resamples`` bootstrap resamples of the objects with both maps recomputed
    on each (``scipy.stats.bootstrap``, percentile interval: the BCa interval would need a
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


# --------------------------------------------------------------------------------------------
# the workbook's own observation: the shortcut D = 1 - S


def shortcut_spectra(sets: dict) -> pd.DataFrame:
    """MDS with the distances (6.6) and with the shortcut ``1 - S``: negative eigenvalues and goodness of fit.

    Parameters
    ----------
    sets : dict
        ``{data: {coefficient: S}}``.

    Returns
    -------
    DataFrame
        Indexed by data, coefficient and distance rule: the count of negative eigenvalues,
        their share of ``sum |lambda|``, and R's ``g1``, ``g2`` of two dimensions.

    Examples
    --------
    >>> from helpers.studies.lecture_notes_6_2 import cosine_checks
    >>> C, _ = cosine_checks(np.random.default_rng(0).uniform(size=(6, 3)))
    >>> spectra = shortcut_spectra({"toy": {"cosine": C}})
    >>> spectra["negative eigenvalues"].tolist()
    [0, 3]
    """
    rows = []
    for data, sims in sets.items():
        for label, F in sims.items():
            for rule, D in [("(6.6)", similarity_to_distance(F)), ("1 - S", 1 - F)]:
                r = classical_mds(D, n_components=2)
                rows.append({"data": data, "coefficient": label, "distance": rule, "negative eigenvalues": r.n_negative,
                             "share of |spectrum| negative": r.negative_share, "GOF g1": r.gof[0], "GOF g2": r.gof[1]})
    return pd.DataFrame(rows).set_index(["data", "coefficient", "distance"])
