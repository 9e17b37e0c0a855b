"""The derivations of sections 1-3 (notebook 03): Eqs. 1-10 checked to rounding."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import linalg
from scipy.spatial.distance import cdist, pdist

from ...data import load_wdbc
from ...estimators import ExpectedWhitener
from ...metrics import variance_adjusted_cosine
from ...whitening import (
    METHODS,
    estimate_covariance,
    expected_whitening_matrix,
    whitening_matrix,
)

# --------------------------------------------------------------------------------------------
# Notebook 03: the derivations of sections 1-3, Eqs. 1-10, checked to rounding


def rel(a, b) -> float:
    """Largest difference between ``a`` and ``b``, relative to the largest entry of ``b``.

    Examples
    --------
    >>> rel([1.0, 2.0], [1.0, 4.0])
    0.5
    """
    a, b = np.asarray(a), np.asarray(b)
    return float(np.abs(a - b).max() / np.abs(b).max())


def derivation_cases(rng, n_features: int = 6, n_samples: int = 500):
    """WDBC and a random positive definite matrix, the two cases the derivations are checked on.

    The random matrix is :math:`AA^\\top + pI` with Gaussian :math:`A` (drawn from ``rng``), and
    ``n_samples`` rows from :math:`N(0, AA^\\top + pI)`.

    Returns
    -------
    (X, y, cases, class_covs)
        WDBC's rows and labels; ``{"WDBC": (rows, sample covariance, mean), "random SPD": (rows,
        true covariance, 0)}``; the sample covariance of each WDBC class,
        ``{"benign": ..., "malignant": ...}``.

    Examples
    --------
    >>> X, y, cases, class_covs = derivation_cases(np.random.default_rng(0))
    >>> {name: data.shape for name, (data, _, _) in cases.items()}, sorted(class_covs)
    ({'WDBC': (569, 30), 'random SPD': (500, 6)}, ['benign', 'malignant'])
    """
    X_df, y_ser = load_wdbc()
    X, y = X_df.to_numpy(), y_ser.to_numpy()
    sigma = estimate_covariance(X, "sample")
    A = rng.normal(size=(n_features, n_features))
    sigma_rand = A @ A.T + n_features * np.eye(n_features)
    X_rand = rng.multivariate_normal(np.zeros(n_features), sigma_rand, size=n_samples)
    cases = {"WDBC": (X, sigma, X.mean(axis=0)), "random SPD": (X_rand, sigma_rand, np.zeros(n_features))}
    class_covs = {name: estimate_covariance(X[y == k], "sample") for k, name in ((0, "benign"), (1, "malignant"))}
    return X, y, cases, class_covs


def eqs_1_to_4(cases: Mapping) -> pd.DataFrame:
    """Eqs. 1-4 (and SVM Eqs. 9-11) on each case: the Cholesky route from the Mahalanobis distance to a Euclidean norm.

    Eq. 1 against scipy's Mahalanobis distance; Eq. 2, :math:`\\Sigma = AA^\\top` with A lower
    triangular and :math:`(A^\\top)^{-1}A^{-1} = \\Sigma^{-1}`; Eqs. 3-4, :math:`Z^\\top Z` with
    :math:`Z = A^{-1}(X - \\mu)`; pairwise Euclidean distances after :math:`A^{-1}` against
    Mahalanobis distances; and, for WDBC (an estimated covariance), cov(Z) against I.

    Returns
    -------
    DataFrame
        Largest relative differences, one row per case (NaN where not applicable).

    Examples
    --------
    >>> _, _, cases, _ = derivation_cases(np.random.default_rng(0))
    >>> bool((eqs_1_to_4(cases).fillna(0) < 1e-6).all().all())
    True
    """
    rows = []
    for name, (data, cov, mu) in cases.items():
        L = linalg.cholesky(cov, lower=True)                                    # Eq. 2: Sigma = A A'
        L_inv = linalg.solve_triangular(L, np.eye(len(cov)), lower=True)
        z = (data - mu) @ L_inv.T                                               # Eq. 4: Z = A^-1 (X - mu)
        d2_eq1 = np.einsum("ij,jk,ik->i", data - mu, np.linalg.inv(cov), data - mu)   # Eq. 1
        d2_scipy = cdist(data, mu[None, :], "mahalanobis", VI=np.linalg.inv(cov)).ravel() ** 2
        d2_eq3 = np.sum(z ** 2, axis=1)                                         # Eqs. 3-4: Z'Z
        pair_white, pair_mahal = pdist(data @ L_inv.T), pdist(data, "mahalanobis", VI=np.linalg.inv(cov))
        rows.append({"case": name,
                     "Eq. 1 vs scipy": rel(d2_eq1, d2_scipy),
                     "A A' vs Sigma (A lower triangular)": rel(L @ L.T, cov) + np.abs(np.triu(L, 1)).max(),
                     "(A')^-1 A^-1 vs Sigma^-1": rel(L_inv.T @ L_inv, np.linalg.inv(cov)),
                     "Z'Z (Eqs. 3-4) vs scipy": float(np.max(np.abs(d2_eq3 - d2_scipy) / d2_scipy)),
                     "pairwise: Euclidean after A^-1 vs Mahalanobis":
                         float(np.max(np.abs(pair_white - pair_mahal) / pair_mahal)),
                     "cov(Z) vs I": float(np.abs(np.cov(z, rowvar=False) - np.eye(len(cov))).max())
                     if name == "WDBC" else np.nan})
    return pd.DataFrame(rows).set_index("case")


def _nearest_other(C):
    return np.argmax(C - 2 * np.eye(len(C)), axis=1)                     # nearest other row by cosine


def uncentred_transform(X, sigma) -> dict[str, float]:
    """The uncentred transform :math:`A^{-1}X` of lines 218-222, against the centred one.

    Returns
    -------
    dict
        ``shift``: :math:`|A^{-1}\\mu|` over the median distance of a whitened row from the
        centre; ``cov_error``: max :math:`|\\mathrm{cov}(A^{-1}X) - I|`; ``max_cosine_change``: the
        largest change of a cosine (Eq. 7) by centring; ``nn_changed``: the share of rows whose
        cosine nearest neighbour changes.

    Examples
    --------
    >>> X, _, cases, _ = derivation_cases(np.random.default_rng(0))
    >>> out = uncentred_transform(X, cases["WDBC"][1])
    >>> round(out["shift"], 1), round(out["nn_changed"], 3), out["cov_error"] < 1e-6
    (10.1, 0.527, True)
    """
    L = linalg.cholesky(sigma, lower=True)
    A_inv = linalg.solve_triangular(L, np.eye(X.shape[1]), lower=True)
    Z_unc, Z_cen = X @ A_inv.T, (X - X.mean(0)) @ A_inv.T
    cos_unc = variance_adjusted_cosine(X, X, A_inv)
    cos_cen = variance_adjusted_cosine(X - X.mean(0), X - X.mean(0), A_inv)
    return {"shift": float(np.linalg.norm(A_inv @ X.mean(0)) / np.median(np.linalg.norm(Z_cen, axis=1))),
            "cov_error": float(np.abs(np.cov(Z_unc, rowvar=False) - np.eye(X.shape[1])).max()),
            "max_cosine_change": float(np.abs(cos_unc - cos_cen).max()),
            "nn_changed": float(np.mean(_nearest_other(cos_unc) != _nearest_other(cos_cen)))}


def class_factor_checks(X, y, class_covs: Mapping, matrices: Mapping) -> pd.DataFrame:
    """Eqs. 5-7: each class times its own inverse Cholesky factor, and Eq. 7 written out within each class.

    Parameters
    ----------
    class_covs : dict of {"benign" | "malignant": covariance}
    matrices : dict of {0 | 1: W_k}
        The classes' inverse Cholesky factors (:func:`class_whitening_matrices`).

    Examples
    --------
    >>> from helpers import class_whitening_matrices
    >>> X, y, _, class_covs = derivation_cases(np.random.default_rng(0))
    >>> table = class_factor_checks(X, y, class_covs, class_whitening_matrices(X, y))
    >>> table["rows"].tolist(), table["W_k lower triangular"].tolist()
    ([357, 212], [True, True])
    """
    names = {0: "benign", 1: "malignant"}
    rows = []
    for k, W_k in matrices.items():
        S_k, Xk = class_covs[names[k]], X[y == k]
        direct = (Xk @ W_k.T) @ (Xk @ W_k.T).T
        norms = np.linalg.norm(Xk @ W_k.T, axis=1)
        eq7 = direct / np.outer(norms, norms)                                   # Eq. 7 written out
        helpers_eq7 = variance_adjusted_cosine(Xk, Xk, W_k)
        rows.append({"class": names[k], "rows": len(Xk),
                     "max |W_k S_k W_k' - I|": np.abs(W_k @ S_k @ W_k.T - np.eye(len(S_k))).max(),
                     "W_k lower triangular": bool(np.allclose(np.triu(W_k, 1), 0)),
                     "max |Eq. 7 - variance_adjusted_cosine|": np.abs(eq7 - helpers_eq7).max()})
    return pd.DataFrame(rows).set_index("class")


def expected_factor_checks(X, y, matrices: Mapping, class_covs: Mapping, sigma) -> dict:
    """Eqs. 8-9 (SVM Eqs. 28-30): how far apart the two class transforms of a row are, and E(W^-1) as a mixture.

    Returns
    -------
    dict
        ``gap``: :math:`|W_1x - W_0x| / |W_0x|` per row; ``eq9_gap``: the relative difference
        between :math:`pW_1 + (1-p)W_0` (p of all rows) and :func:`expected_whitening_matrix`;
        ``whitener_gap``: the same for :class:`~helpers.estimators.ExpectedWhitener`; ``priors``:
        its class priors; ``factors_ok``: whether :math:`W_k^{-1}W_k^{-\\top}` gives back each
        class covariance (to 1e-6 of the largest entry of ``sigma``, the whole-sample covariance).

    Examples
    --------
    >>> from helpers import class_whitening_matrices
    >>> X, y, cases, class_covs = derivation_cases(np.random.default_rng(0))
    >>> out = expected_factor_checks(X, y, class_whitening_matrices(X, y), class_covs, cases["WDBC"][1])
    >>> round(float(np.median(out["gap"])), 2), out["eq9_gap"] < 1e-6, out["factors_ok"]
    (0.76, True, True)
    """
    W_b, W_m = matrices[0], matrices[1]
    p_hat = np.mean(y == 1)
    E = expected_whitening_matrix(X, y, method="cholesky")
    ew = ExpectedWhitener(method="cholesky").fit(X, y)
    restored = [np.abs(np.linalg.inv(matrices[k]) @ np.linalg.inv(matrices[k]).T - class_covs[name]).max()
                for k, name in ((0, "benign"), (1, "malignant"))]
    return {"gap": np.linalg.norm(X @ (W_m - W_b).T, axis=1) / np.linalg.norm(X @ W_b.T, axis=1),
            "eq9_gap": rel(p_hat * W_m + (1 - p_hat) * W_b, E), "whitener_gap": rel(ew.components_, E),
            "priors": ew.priors_, "p": float(p_hat),
            "factors_ok": bool(np.allclose(restored, 0, atol=1e-6 * np.max(sigma)))}


def expected_whitening_error(X, y, class_covs: Mapping, sigma) -> tuple[pd.DataFrame, float, float]:
    """How far :math:`E(W^{-1})` is from whitening: :math:`\\|E\\Sigma E^\\top - I\\|_2`; does the method matter?

    For each class covariance, the pooled within-class covariance and the whole-sample one,
    with E mixing Cholesky factors and with E mixing ZCA matrices.

    Returns
    -------
    (errors, max_cosine_difference, nn_changed)
        The spectral-norm errors; the largest difference of a cosine (Eq. 7) between the two
        E's; the share of rows whose cosine nearest neighbour changes between them.

    Examples
    --------
    >>> X, y, cases, class_covs = derivation_cases(np.random.default_rng(0))
    >>> err, diff, changed = expected_whitening_error(X, y, class_covs, cases["WDBC"][1])
    >>> err.round(2).loc["benign"].tolist(), round(diff, 3), round(changed, 3)
    ([4.09, 4.4], 0.063, 0.144)
    """
    n_k = {name: int(np.sum(y == k)) for k, name in ((0, "benign"), (1, "malignant"))}
    covs = dict(class_covs)
    covs["pooled within-class"] = sum((n_k[c] - 1) * class_covs[c] for c in class_covs) / (len(y) - len(class_covs))
    covs["whole sample"] = sigma
    E_by = {m: expected_whitening_matrix(X, y, method=m) for m in ("cholesky", "zca")}
    err = pd.DataFrame({f"E mixes {m} matrices": {c: np.linalg.norm(E_m @ S @ E_m.T - np.eye(S.shape[0]), 2)
                                                  for c, S in covs.items()} for m, E_m in E_by.items()})
    cos_by = {m: variance_adjusted_cosine(X, X, E_m) for m, E_m in E_by.items()}
    changed = float(np.mean(_nearest_other(cos_by["cholesky"]) != _nearest_other(cos_by["zca"])))
    return err, float(np.abs(cos_by["cholesky"] - cos_by["zca"]).max()), changed


def method_invariance(cases: Mapping) -> pd.DataFrame:
    """The five whitening matrices (Kessy et al. 2018) on each case: each whitens, any two differ by a rotation.

    Returns
    -------
    DataFrame
        Indexed by (case, method): max :math:`|W\\Sigma W^\\top - I|`, max :math:`|RR^\\top - I|` for
        :math:`R = WW_{chol}^{-1}`, and the largest differences of the cosines and (relative) of the
        pairwise distances after whitening, against Cholesky.

    Examples
    --------
    >>> _, _, cases, _ = derivation_cases(np.random.default_rng(0))
    >>> table = method_invariance({"random SPD": cases["random SPD"]})
    >>> table.index.get_level_values("method").tolist(), bool((table < 1e-10).all().all())
    (['zca', 'zca_cor', 'pca', 'pca_cor', 'cholesky'], True)
    """
    rows = []
    for name, (data, cov, _) in cases.items():
        Ws = {m: whitening_matrix(cov, m) for m in METHODS}
        cos_ref = variance_adjusted_cosine(data, data, Ws["cholesky"])
        dist_ref = pdist(data @ Ws["cholesky"].T)
        for m, W in Ws.items():
            R = W @ np.linalg.inv(Ws["cholesky"])
            rows.append({"case": name, "method": m,
                         "max |W Sigma W' - I|": np.abs(W @ cov @ W.T - np.eye(len(cov))).max(),
                         "max |R R' - I|, R = W W_chol^-1": np.abs(R @ R.T - np.eye(len(cov))).max(),
                         "max |cosine - cosine_chol|": np.abs(variance_adjusted_cosine(data, data, W) - cos_ref).max(),
                         "max rel. diff. of distances": np.max(np.abs(pdist(data @ W.T) - dist_ref) / dist_ref)})
    return pd.DataFrame(rows).set_index(["case", "method"])
