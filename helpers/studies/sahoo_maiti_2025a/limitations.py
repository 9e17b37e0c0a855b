"""Sections 1-2 and Fig. 1 (notebook 02): cosine and the shape of the data, unnormalised features."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from ...metrics import cosine_similarity, mahalanobis, variance_adjusted_cosine
from ...whitening import (
    estimate_covariance,
    whitening_matrix,
)

# --------------------------------------------------------------------------------------------
# Notebook 02, sections 1-2 and Fig. 1: cosine and the shape of the data


def fig1_points(sigma, points: Mapping) -> tuple[dict, pd.DataFrame]:
    """Fig. 1 constructed: the prediction-ellipse level of each point and the raw and variance-adjusted cosines.

    Parameters
    ----------
    sigma : (2, 2) array
        The covariance of the zero-mean Gaussian.
    points : dict of {"A" | "B" | "C": (2,) array}

    Returns
    -------
    (levels, table)
        ``{point: chi2_2 CDF of its squared Mahalanobis distance}``, and for the pairs (A, B) and
        (B, C) the angle and cosine, raw and after whitening with the Cholesky factor (Eq. 7).

    Examples
    --------
    >>> levels, abc = fig1_points([[9.0, 2.7], [2.7, 1.0]], {"A": np.array([5.5, 0.5]), "B": np.array([2.5, 1.0]),
    ...                                                      "C": np.array([0.5, 0.5])})
    >>> round(levels["A"], 3), abc["cosine, variance-adjusted"].round(3).tolist()
    (0.994, [0.004, 0.723])
    """
    sigma = np.asarray(sigma, dtype=float)
    W = whitening_matrix(sigma, "cholesky")                                # Eq. 4: W = A^-1 with sigma = A A'
    VI = np.linalg.inv(sigma)
    levels = {p: float(stats.chi2.cdf(mahalanobis(x, np.zeros(2), VI) ** 2, df=2)) for p, x in points.items()}
    rows = []
    for p, q in [("A", "B"), ("B", "C")]:
        raw = cosine_similarity(points[p], points[q])
        adj = variance_adjusted_cosine(points[p], points[q], W)            # Eq. 7
        rows.append({"pair": f"({p},{q})", "angle, raw (deg)": np.degrees(np.arccos(raw)), "cosine, raw": raw,
                     "angle, whitened (deg)": np.degrees(np.arccos(adj)), "cosine, variance-adjusted": adj})
    return levels, pd.DataFrame(rows).set_index("pair")


def cosine_nn(Z) -> np.ndarray:
    """Index of each row's nearest other row by cosine similarity.

    Examples
    --------
    >>> cosine_nn(np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0]])).tolist()
    [1, 0, 1]
    """
    C = cosine_similarity(Z, Z)
    np.fill_diagonal(C, -np.inf)
    return C.argmax(axis=1)


def cosine_nn_agreement(rng, dims: int, correlation: float, n: int, X_wdbc) -> dict[str, float]:
    """How often raw and variance-adjusted cosine pick the same nearest neighbour, on three data sets.

    A ``dims``-feature Gaussian cloud with ``correlation`` between every two features and
    standard deviations from 0.1 to 10 (whitened with its covariance), WDBC's rows centred
    (whitened with their sample covariance), and a spheroidal cloud (covariance I), the
    control. The two clouds are drawn from ``rng``, in that order.

    Examples
    --------
    >>> from helpers import load_wdbc
    >>> X = load_wdbc()[0].to_numpy()
    >>> agree = cosine_nn_agreement(np.random.default_rng(0), 5, 0.9, 200, X)
    >>> [round(v, 2) for v in agree.values()][2]
    1.0
    """
    sds = np.geomspace(0.1, 10, dims)
    corr = np.full((dims, dims), correlation) + (1 - correlation) * np.eye(dims)
    sigma = corr * np.outer(sds, sds)
    cloud = rng.multivariate_normal(np.zeros(dims), sigma, size=n)
    sphere = rng.multivariate_normal(np.zeros(dims), np.eye(dims), size=n)
    X_w = np.asarray(X_wdbc, dtype=float)
    X_w = X_w - X_w.mean(axis=0)
    return {
        f"correlated cloud ({dims} features, correlation {correlation:g})":
            float(np.mean(cosine_nn(cloud) == cosine_nn(cloud @ whitening_matrix(sigma).T))),
        f"WDBC ({X_w.shape[1]} features, sample covariance)":
            float(np.mean(cosine_nn(X_w) == cosine_nn(X_w @ whitening_matrix(estimate_covariance(X_w)).T))),
        f"spheroidal cloud ({dims} features, covariance I)":
            float(np.mean(cosine_nn(sphere) == cosine_nn(sphere @ whitening_matrix(np.eye(dims)).T))),
    }


# --------------------------------------------------------------------------------------------
# Notebook 02, section 5: unnormalised features (the paper's lines 441-443: normalisation removes
# some of the variance effects), measured on the slides' salary/age table and on WDBC


def salary_age_shares(table: pd.DataFrame, query) -> pd.DataFrame:
    """Each customer's distance from the query and the share of it that salary makes, raw and range-normalised.

    Parameters
    ----------
    table : DataFrame
        ``id``, ``salary``, ``age``, ``purchased`` (:func:`helpers.data.load_salary_age`).
    query : array-like
        (salary, age) of the query.

    Examples
    --------
    >>> from helpers import load_salary_age
    >>> shares = salary_age_shares(*load_salary_age())
    >>> int(shares["d, raw"].idxmin()), int(shares["d, normalised"].idxmin())
    (6, 1)
    """
    X, q = table[["salary", "age"]].to_numpy(float), np.asarray(query, dtype=float)
    scaler = MinMaxScaler().fit(X)
    sq_raw = (X - q) ** 2
    sq_norm = (scaler.transform(X) - scaler.transform(q[None, :])) ** 2
    return table[["id", "purchased"]].assign(**{
        "salary share of d^2, raw (%)": 100 * sq_raw[:, 0] / sq_raw.sum(axis=1), "d, raw": np.sqrt(sq_raw.sum(axis=1)),
        "salary share of d^2, normalised (%)": 100 * sq_norm[:, 0] / sq_norm.sum(axis=1),
        "d, normalised": np.sqrt(sq_norm.sum(axis=1))}).set_index("id")


def area_features(X_df: pd.DataFrame, k: int = 5) -> tuple[list[str], float, pd.DataFrame]:
    """How much WDBC's three *area* features decide Euclidean distances and neighbours, raw and standardised.

    Returns
    -------
    (columns, share, overlap)
        The area columns; their share of the summed squared Euclidean distances between all
        rows; and, raw and standardised, the mean share of each row's ``k`` nearest neighbours
        (all 30 features) that are also its ``k`` nearest by the area features alone.

    Examples
    --------
    >>> from helpers import load_wdbc
    >>> cols, share, overlap = area_features(load_wdbc()[0], 5)
    >>> cols, round(share, 4), overlap.iloc[:, 0].round(3).tolist()
    (['mean area', 'area error', 'worst area'], 0.996, [0.901, 0.099])
    """
    cols = [c for c in X_df.columns if "area" in c]
    idx = [X_df.columns.get_loc(c) for c in cols]
    X = X_df.to_numpy()
    diff2 = (X[:, None, :] - X[None, :, :]) ** 2
    share = float(diff2[:, :, idx].sum() / diff2.sum())

    def neighbour_sets(Z):
        found = NearestNeighbors(n_neighbors=k + 1).fit(Z).kneighbors(Z, return_distance=False)
        return [set(row[1:]) for row in found]

    def overlap(a, b):
        return np.mean([len(s & t) / len(s) for s, t in zip(a, b)])

    X_std = StandardScaler().fit_transform(X_df)
    table = pd.DataFrame({f"share of {k}-NN also {k}-NN by the area features alone": [
        overlap(neighbour_sets(X), neighbour_sets(X[:, idx])),
        overlap(neighbour_sets(X_std), neighbour_sets(X_std[:, idx]))]},
        index=[f"all {X.shape[1]} features, raw", f"all {X.shape[1]} features, standardised"])
    return cols, share, table


