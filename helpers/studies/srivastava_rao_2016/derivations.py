"""Srivastava & Rao (2016), Mahal-kNN: its figures and its derivation, checked (notebooks 02 and 03).

Section 2.3 of the paper explains the Mahalanobis distance with two figures and derives the
feature transformation that turns it into a Euclidean distance. The figures are images, so
their covariances and points are constructed here so that the text's statements are exactly
true, and then every other statement is checked:

* :func:`fig2_covariance` and :func:`fig2_table`: Fig. 2, the 10%-90%
  prediction ellipses and the two observations (5, 0) and (0, 1) (lines 160-167);
* :func:`fig3_construction`: Fig. 3, a correlated cluster and two test points at equal
  Euclidean but unequal Mahalanobis distance (lines 177-179);
* :func:`eqs_6_to_18`: Eqs. 6-18, the eigen-decomposition route from the Mahalanobis distance
  to a Euclidean norm (lines 146-215);
* :func:`ellipsoid_axes`: the axes of the ellipsoids of constant Mahalanobis distance lie
  along the eigenvectors of S (line 169).

References
----------
.. [1] N. Srivastava & S. Rao (2016), Learning-based text classifiers using the Mahalanobis
   distance for correlated datasets, Int. J. Big Data Intelligence 3(1), 18-27.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats
from scipy.spatial.distance import cdist, pdist

from ...metrics import mahalanobis
from ...plotting import plot_cloud_and_points, plot_level_ellipses
from ...whitening import estimate_covariance
from ..sahoo_maiti_2025a import rel

__all__ = [
    "Fig3",
    "ellipsoid_axes",
    "eqs_6_to_18",
    "estimate_covariance",
    "fig2_covariance",
    "fig2_table",
    "fig3_construction",
    "plot_cloud_and_points",
    "plot_level_ellipses",
    "rel",
]


# --------------------------------------------------------------------------------------------
# Fig. 2: prediction ellipses and two observations


def fig2_covariance(far_point, far_level: float, near_point, near_level: float) -> np.ndarray:
    """The diagonal covariance for which ``far_point`` (on the x axis) and ``near_point`` (on the y axis)
    lie on the prediction ellipses of the stated levels.

    For a bivariate normal the squared Mahalanobis distance follows :math:`\\chi^2_2`, so the p
    ellipse is :math:`d^2 = \\chi^2_{2}(p) = -2\\ln(1 - p)`; with :math:`\\Sigma = \\mathrm{diag}(a, b)`,
    :math:`a = x^2 / \\chi^2_2(p_{far})` and :math:`b = y^2 / \\chi^2_2(p_{near})`.

    Examples
    --------
    >>> sigma = fig2_covariance([5.0, 0.0], 0.75, [0.0, 1.0], 0.90)
    >>> np.allclose(np.diag(sigma), [25 / (2 * np.log(4)), 1 / (2 * np.log(10))])
    True
    """
    a = float(far_point[0]) ** 2 / stats.chi2.ppf(far_level, df=2)
    b = float(near_point[1]) ** 2 / stats.chi2.ppf(near_level, df=2)
    return np.diag([a, b])


def fig2_table(points: Mapping, sigma) -> pd.DataFrame:
    """Each point's Euclidean and Mahalanobis distance from the origin, prediction-ellipse level and density.

    Examples
    --------
    >>> sigma = fig2_covariance([5.0, 0.0], 0.75, [0.0, 1.0], 0.90)
    >>> points = {"(5,0)": np.array([5.0, 0.0]), "(0,1)": np.array([0.0, 1.0])}
    >>> table = fig2_table(points, sigma)
    >>> table["Mahalanobis distance"].round(4).tolist(), table["level chi2.cdf(d^2, 2)"].round(4).tolist()
    ([1.6651, 2.146], [0.75, 0.9])
    >>> table["density"].round(4).tolist()
    [0.0284, 0.0114]
    """
    VI = np.linalg.inv(sigma)
    rows = []
    for name, x in points.items():
        d2 = mahalanobis(x, np.zeros(2), VI) ** 2
        rows.append({"point": name, "Euclidean distance": np.linalg.norm(x), "Mahalanobis distance": np.sqrt(d2),
                     "level chi2.cdf(d^2, 2)": stats.chi2.cdf(d2, df=2),
                     "density": stats.multivariate_normal([0, 0], sigma).pdf(x)})
    return pd.DataFrame(rows).set_index("point")


# --------------------------------------------------------------------------------------------
# Fig. 3: equal Euclidean, unequal Mahalanobis distance


class Fig3(NamedTuple):
    """A cluster, its estimated mean and covariance, two test points and their distances."""

    cluster: np.ndarray
    mean: np.ndarray
    cov: np.ndarray
    tests: dict            #: {"y1: along the long axis": x, "y2: across the long axis": x}
    table: pd.DataFrame    #: Euclidean and Mahalanobis distance, share of the cluster farther out


def fig3_construction(rng, correlation: float = 0.9, n: int = 300, radius: float = 2.0) -> Fig3:
    """Fig. 3 constructed: a correlated unit-variance cluster (drawn from ``rng``) and two test points.

    Both test points lie at Euclidean distance ``radius`` from the estimated mean, one along
    each principal axis of the estimated covariance.

    Examples
    --------
    >>> f = fig3_construction(np.random.default_rng(0))
    >>> d = f.table["Mahalanobis"]
    >>> f.table["Euclidean"].round(6).tolist(), bool(d.iloc[1] > 3 * d.iloc[0])
    ([2.0, 2.0], True)
    """
    true_cov = np.array([[1.0, correlation], [correlation, 1.0]])
    cluster = rng.multivariate_normal([0.0, 0.0], true_cov, size=n)
    mu = cluster.mean(axis=0)
    cov = estimate_covariance(cluster, "sample")
    _, vecs = np.linalg.eigh(cov)
    vecs = vecs * np.sign(vecs[np.argmax(np.abs(vecs), axis=0), range(2)])
    tests = {"y1: along the long axis": mu + radius * vecs[:, 1], "y2: across the long axis": mu + radius * vecs[:, 0]}
    VI = np.linalg.inv(cov)
    d_cluster = mahalanobis(cluster, mu.reshape(1, -1), VI).ravel()
    rows = []
    for name, x in tests.items():
        d = mahalanobis(x, mu, VI)
        rows.append({"test point": name, "Euclidean": np.linalg.norm(x - mu), "Mahalanobis": d,
                     "share of cluster farther out": np.mean(d_cluster > d)})
    return Fig3(cluster, mu, cov, tests, pd.DataFrame(rows).set_index("test point"))


# --------------------------------------------------------------------------------------------
# Section 2.3: Eqs. 6-18 and the ellipsoid axes


def eqs_6_to_18(cases: Mapping) -> pd.DataFrame:
    """Eqs. 6-18 on each case ``{name: (rows, S, mu)}``: the eigen route from the Mahalanobis distance to a norm.

    Eq. 8 against scipy; Eq. 12 (:math:`S = QDQ^\\top`, Q orthogonal) and Eq. 13
    (:math:`S^{-1} = QD^{-1}Q^\\top`); Eqs. 14-16 with :math:`x' = Q^\\top(x - \\mu)`; Eqs. 17-18,
    :math:`|\\hat x|` with :math:`\\hat x = D^{-1/2}x'`; pairwise distances after the transform
    against Mahalanobis distances; and, for an estimated S (not "random SPD"), Eq. 10's n - 1
    estimate against numpy and Eq. 9's mean outer product against numpy's ``ddof=0``.

    Returns
    -------
    DataFrame
        Largest relative differences, one row per case (NaN where not applicable).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> data = rng.normal(size=(50, 3)) @ rng.normal(size=(3, 3))
    >>> table = eqs_6_to_18({"sample": (data, np.cov(data, rowvar=False), data.mean(0))})
    >>> bool((table < 1e-10).all().all()), table.shape
    (True, (1, 8))
    """
    rows = []
    for name, (data, S, mu) in cases.items():
        S_inv = np.linalg.inv(S)
        d_eq8 = np.sqrt(np.einsum("ij,jk,ik->i", data - mu, S_inv, data - mu))            # Eqs. 8 / 11
        d_scipy = cdist(data, mu[None, :], "mahalanobis", VI=S_inv).ravel()
        Dv, Q = np.linalg.eigh(S)                                                          # Eq. 12
        x_prime = (data - mu) @ Q                                                          # Eq. 16: x' = Q'(x - mu)
        x_hat = x_prime / np.sqrt(Dv)                                                      # Eq. 17
        pair_mahal = pdist(data, "mahalanobis", VI=S_inv)
        row = {"case": name,
               "Eq. 8 vs scipy": float(np.max(np.abs(d_eq8 - d_scipy) / d_scipy)),
               "Q D Q' vs S (Eq. 12)": rel((Q * Dv) @ Q.T, S) + float(np.abs(Q.T @ Q - np.eye(len(Dv))).max()),
               "Q D^-1 Q' vs S^-1 (Eq. 13)": rel((Q / Dv) @ Q.T, S_inv),
               "Eqs. 14-16 vs Eq. 8": float(np.max(np.abs(np.sqrt(np.einsum("ij,j,ij->i", x_prime, 1 / Dv, x_prime))
                                                          - d_eq8) / d_eq8)),
               "|x_hat| (Eqs. 17-18) vs Eq. 8": float(np.max(np.abs(np.linalg.norm(x_hat, axis=1) - d_eq8) / d_eq8)),
               "pairwise |x_hat_i - x_hat_j| vs Mahalanobis": float(np.max(np.abs(pdist(x_hat) - pair_mahal)
                                                                           / pair_mahal))}
        if name != "random SPD":
            row["Eq. 10 (n - 1) vs np.cov"] = rel(((data - mu).T @ (data - mu)) / (len(data) - 1),
                                                  np.cov(data, rowvar=False))
            row["Eq. 9 (mean outer product) vs np.cov(ddof=0)"] = rel(
                np.einsum("ij,ik->jk", data - mu, data - mu) / len(data), np.cov(data, rowvar=False, ddof=0))
        rows.append(row)
    return pd.DataFrame(rows).set_index("case")


def ellipsoid_axes(S, n_directions: int = 20000, random_state=0) -> dict:
    """The ellipsoid of Mahalanobis distance 1 from the mean: its semi-axes and random directions against them.

    :math:`\\mu \\pm \\sqrt{\\lambda_i}q_i` should lie at distance 1 for every eigenpair of S, and no
    point of the ellipsoid (in ``n_directions`` random directions) should be farther from the
    mean than :math:`\\sqrt{\\lambda_{max}}` or nearer than :math:`\\sqrt{\\lambda_{min}}`.

    Returns
    -------
    dict
        ``axis_distances`` (Mahalanobis length of each scaled eigenvector), ``longest`` and
        ``shortest`` semi-axes, the largest and smallest Euclidean radius over the random
        directions (``radius_max``, ``radius_min``) and ``ok``, all three checks together.

    Examples
    --------
    >>> out = ellipsoid_axes(np.diag([4.0, 1.0]), 1000)
    >>> out["longest"], out["shortest"], out["ok"]
    (2.0, 1.0, True)
    """
    S = np.asarray(S, dtype=float)
    lam, Q = np.linalg.eigh(S)
    S_inv = np.linalg.inv(S)
    axis_d = [float(np.sqrt((np.sqrt(lm) * q) @ S_inv @ (np.sqrt(lm) * q))) for lm, q in zip(lam, Q.T)]
    u = np.random.default_rng(random_state).normal(size=(n_directions, len(S)))
    radius = 1 / np.sqrt(np.einsum("ij,jk,ik->i", u, S_inv, u)) * np.linalg.norm(u, axis=1)   # length at distance 1
    ok = bool(np.allclose(axis_d, 1) and radius.max() <= np.sqrt(lam[-1]) * (1 + 1e-12)
              and radius.min() >= np.sqrt(lam[0]) * (1 - 1e-12))
    return {"axis_distances": axis_d, "longest": float(np.sqrt(lam[-1])), "shortest": float(np.sqrt(lam[0])),
            "radius_max": float(radius.max()), "radius_min": float(radius.min()), "ok": ok}
