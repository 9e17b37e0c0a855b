"""Similarity coefficients of binary vectors: the 2 x 2 table and the ten ``dist.binary`` coefficients.

References
----------
.. [1] Kelleher, Mac Namee & D'Arcy (2020), Fundamentals of Machine Learning for
   Predictive Data Analytics, 2nd ed., Chapter 5 (binary similarity indexes).
.. [2] J. C. Gower & P. Legendre (1986), Metric and Euclidean properties of dissimilarity
   coefficients, J. Classification 3, 5-48 (ade4's ``dist.binary``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._arrays import scalar_or_matrix
from ._validation import (
    as_float_array,
    pairwise_inputs,
)

__all__ = [
    "BINARY_COEFFICIENTS",
    "BinaryCounts",
    "binary_counts",
    "binary_gram",
    "binary_similarity",
    "jaccard",
    "russell_rao",
    "simple_matching",
]

# ---------------------------------------------------------------------------------------
# Binary data


class BinaryCounts(NamedTuple):
    """The 2 x 2 table of two binary vectors (or matrices of such tables, pairwise)."""

    co_presence: np.ndarray | int  # a: both 1
    presence_absence: np.ndarray | int  # b: x 1, y 0
    absence_presence: np.ndarray | int  # c: x 0, y 1
    co_absence: np.ndarray | int  # d: both 0


def _as_binary(x, name: str) -> np.ndarray:
    if hasattr(x, "tocsr") or hasattr(x, "to_numpy"):  # sparse: refused; pandas: pd.NA reported as missing
        x = as_float_array(x, name, ndim=(1, 2))
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
    return 0.25 * (
        _ratio(a, a + b, np.nan) + _ratio(a, a + c, np.nan) + _ratio(d, b + d, np.nan) + _ratio(d, c + d, np.nan)
    )


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
    "phi": (
        _generic(lambda a, b, c, d: _ratio(a * d - b * c, np.sqrt((a + b) * (a + c) * (d + b) * (d + c)), np.nan)),
        9,
        "correlation",
    ),
    "russell_rao": (_generic(lambda a, b, c, d: a / (a + b + c + d)), 10, "russellrao"),
}

BINARY_COEFFICIENTS = {name: {"ade4_method": v[1], "scipy_dissimilarity": v[2]} for name, v in _COEFFICIENTS.items()}
"""The ten similarity coefficients of ade4's ``dist.binary`` (method numbers 1-10) with the
scipy dissimilarity equal to ``1 - S`` where scipy has one (``hamann = 1 - 2 hamming``;
scipy 1.17 no longer has ``sokalmichener`` or ``kulczynski1``; ``cosine``/``correlation``
on 0/1 rows give Ochiai/phi). ade4 itself returns ``sqrt(1 - S)``."""


def binary_similarity(X, Y=None, coefficient="simple_matching"):
    """Pairwise similarity matrix of binary rows for one of ade4's ``dist.binary`` coefficients.

    Built on :func:`helpers.binary.binary_gram`: one float32 matrix product (symmetric
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
    try:
        names = [coefficient] if isinstance(coefficient, str) else list(coefficient)
    except TypeError:  # None, a number: not a name nor a list of names
        names = [coefficient]
    unknown = [c for c in names if not isinstance(c, str) or c not in _COEFFICIENTS]
    if unknown or not names:
        raise ValueError(
            f"Unknown coefficient {unknown[0] if unknown else coefficient!r}; choose one of {sorted(_COEFFICIENTS)}."
        )
    if np.ndim(X) != 2 or (Y is not None and np.ndim(Y) != 2):
        raise ValueError(
            f"X (and Y) must be 2-D arrays of binary rows; got shapes {np.shape(X)}"
            + ("" if Y is None else f" and {np.shape(Y)}")
            + ". Use x.reshape(1, -1) for a single row."
        )
    a, r, s, p = binary_gram(X, Y)
    _check_some_features(p, names)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {c: _COEFFICIENTS[c][0](a, r, s, p) for c in names}
    return out[coefficient] if isinstance(coefficient, str) else out


# coefficients whose denominator is 0 only when there are no features at all (a + b + c + d = p):
# with p = 0 they were NaN without a word
_OVER_FEATURES = ("simple_matching", "russell_rao", "hamann", "rogers_tanimoto")


def _check_some_features(p: int, names) -> None:
    bad = [c for c in names if c in _OVER_FEATURES]
    if p == 0 and bad:
        raise ValueError(
            f"{bad[0]} is undefined for vectors with 0 features: its denominator counts the features, so it is "
            "0 / 0. Pass binary rows with at least one feature (check that the columns were not all dropped)."
        )


def _binary_coefficient(x, y, name: str):
    """One coefficient for two vectors (a float) or two row sets (the pairwise matrix)."""
    a, r, s, p = binary_gram(x, y)
    _check_some_features(p, [name])
    with np.errstate(invalid="ignore", divide="ignore"):
        return scalar_or_matrix(_COEFFICIENTS[name][0](a, r, s, p), np.ndim(x) == 2)


def russell_rao(x, y):
    """Russell-Rao similarity ``a / (a + b + c + d)``: share of features present in both.

    Examples
    --------
    >>> russell_rao([1, 0, 1, 0, 0], [1, 0, 1, 1, 0])
    0.4
    """
    return _binary_coefficient(x, y, "russell_rao")


def simple_matching(x, y):
    """The simple matching coefficient ``(a + d) / (a + b + c + d)`` (the lecture notes' SMC, (6.8)).

    Sokal and Michener's coefficient: the similarity the slides call "Sokal-Michener".

    Equal to ``1 - scipy.spatial.distance.hamming`` on binary vectors. (scipy's removed
    ``sokalmichener`` was the Rogers-Tanimoto dissimilarity, not this.)

    Examples
    --------
    >>> simple_matching([1, 0, 1, 0, 0], [1, 0, 0, 0, 0])
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


