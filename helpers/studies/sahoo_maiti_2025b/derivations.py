"""The derivations (notebook 03): the standard SVM and the earlier formulations, Eqs. 1-8; one whitened
hyperplane, two input-space lines, Eqs. 14-27."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import linalg
from sklearn.svm import SVC

from ...svm import primal_linear_svm
from ...whitening import (
    transform_by_class,
    whitening_matrix,
)
from ..sahoo_maiti_2025a import (
    rel,
)

# --------------------------------------------------------------------------------------------
# Notebook 03, section 2: the standard SVM and the earlier covariance formulations, Eqs. 1-8


def gaussian_example(mean_pos, cov_pos, mean_neg, cov_neg, n: int, n_fresh: int = 1000, random_state=0):
    """Two Gaussian classes (labels +1 and -1) and fresh points of both, from one seeded stream.

    Returns
    -------
    (X, y, fresh)
        ``n`` training points per class (class +1 first) and ``n_fresh`` fresh points per class,
        drawn in that order.

    Examples
    --------
    >>> X, y, fresh = gaussian_example([4, 4], np.eye(2), [0, 0], np.eye(2), 40)
    >>> X.shape, fresh.shape, y[:2].tolist()
    ((80, 2), (2000, 2), [1, 1])
    """
    rng = np.random.default_rng(random_state)
    X = np.vstack([rng.multivariate_normal(mean_pos, cov_pos, n), rng.multivariate_normal(mean_neg, cov_neg, n)])
    fresh = np.vstack([rng.multivariate_normal(mean_pos, cov_pos, n_fresh),
                       rng.multivariate_normal(mean_neg, cov_neg, n_fresh)])
    return X, np.repeat([1, -1], n), fresh


def standard_svm_checks(X, y, C: float = 1.0) -> dict:
    """Eqs. 1-4 at scikit-learn's soft-margin solution: hyperplane, primal and dual objectives, KKT.

    Returns
    -------
    dict
        ``svc`` (fitted with ``tol=1e-8``); ``eq1_gap`` (theta'x + theta0 against the decision
        function) and ``eq4_gap`` (the dual expansion against it), relative; ``primal`` and
        ``dual`` objectives; ``constraints_hold`` (Eq. 3 with the slacks); ``n_support``,
        ``n_free`` (0 < alpha < C); ``on_margin`` (largest :math:`|yf - 1|` of the free support
        vectors) and ``outside_min`` (smallest :math:`yf` of the other rows).

    Examples
    --------
    >>> X, y, _ = gaussian_example([4, 4], np.eye(2), [0, 0], np.eye(2), 40)
    >>> out = standard_svm_checks(X, y)
    >>> abs(out["primal"] - out["dual"]) < 1e-3, out["eq4_gap"] < 1e-6, out["constraints_hold"]
    (True, True, True)
    """
    svc = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    theta, theta0 = svc.coef_[0], svc.intercept_[0]
    f = X @ theta + theta0                                                  # Eq. 1: theta'x + theta0
    alpha_y = svc.dual_coef_[0]                                             # alpha_i y_i of the support vectors
    f_dual = X @ svc.support_vectors_.T @ alpha_y + theta0                  # Eq. 4
    xi = np.maximum(0, 1 - y * f)                                           # slacks of Eq. 3
    alpha = np.abs(alpha_y)
    dual = alpha.sum() - 0.5 * alpha_y @ (svc.support_vectors_ @ svc.support_vectors_.T) @ alpha_y
    free = alpha < C * (1 - 1e-6)
    outside = np.setdiff1d(np.arange(len(y)), svc.support_)
    return {"svc": svc, "eq1_gap": rel(f, svc.decision_function(X)), "eq4_gap": rel(f_dual, svc.decision_function(X)),
            "primal": float(0.5 * theta @ theta + C * xi.sum()), "dual": float(dual),    # Eq. 2 and its dual
            "constraints_hold": bool(np.all(y * f >= 1 - xi - 1e-9) and np.all(xi >= 0)),
            "n_support": len(svc.support_), "n_free": int(free.sum()),
            "on_margin": float(np.abs(y[svc.support_] * f[svc.support_] - 1)[free].max()),
            "outside_min": float((y * f)[outside].min())}


def earlier_formulations(X, y, pooled, C: float = 1.0) -> dict:
    """Eqs. 2-3, 5-6 and 7-8 solved as printed (SLSQP), against scikit-learn's SVC on transformed rows.

    Substituting :math:`w = \\Sigma^{-1/2}\\theta` makes Eqs. 5-6 the standard SVM on
    :math:`\\Sigma^{-1/2}x` and Eqs. 7-8 the standard SVM on :math:`\\Sigma^{1/2}x`.

    Returns
    -------
    dict
        ``gap_std``, ``gap56``, ``gap78``: the largest differences of decision values; the
        fitted formulations ``eq56`` and ``eq78``.

    Examples
    --------
    >>> X, y, _ = gaussian_example([4, 4], np.eye(2), [0, 0], np.eye(2), 40)
    >>> out = earlier_formulations(X, y, np.array([[1.0, 0.3], [0.3, 2.0]]))
    >>> max(out["gap_std"], out["gap56"], out["gap78"]) < 1e-3
    True
    """
    vals, vecs = np.linalg.eigh(pooled)
    root, root_inv = (vecs * np.sqrt(vals)) @ vecs.T, (vecs / np.sqrt(vals)) @ vecs.T
    S_inv = np.linalg.inv(pooled)
    eq56 = primal_linear_svm(X, y, C=C, P=S_inv, M=S_inv)
    eq78 = primal_linear_svm(X, y, C=C, P=S_inv)
    std = primal_linear_svm(X, y, C=C)
    svc = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    svc_white = SVC(kernel="linear", C=C, tol=1e-8).fit(X @ root_inv, y)
    svc_color = SVC(kernel="linear", C=C, tol=1e-8).fit(X @ root, y)
    return {"gap_std": float(np.abs(std.decision_function(X) - svc.decision_function(X)).max()),
            "gap56": float(np.abs(eq56.decision_function(X) - svc_white.decision_function(X @ root_inv)).max()),
            "gap78": float(np.abs(eq78.decision_function(X) - svc_color.decision_function(X @ root)).max()),
            "eq56": eq56, "eq78": eq78}


def unit_change_flips(X, y, fresh, pooled, unit_change, C: float = 1.0) -> pd.Series:
    """How many fresh points change class when the units of the features change, per formulation.

    The features are multiplied by ``unit_change``; the covariance is re-estimated in the new
    units. A formulation whose classifier does not depend on the units is dimensionally
    consistent. Compared: the standard SVM, Eqs. 5-6, Eqs. 7-8 and the paper's Eqs. 16-17 with
    one pooled Cholesky factor.

    Examples
    --------
    >>> X, y, fresh = gaussian_example([4, 4], [[1, 0.6], [0.6, 0.8]], [0, 0], [[3, -1.2], [-1.2, 1.5]], 40)
    >>> pooled = (np.cov(X[y == 1], rowvar=False) + np.cov(X[y == -1], rowvar=False)) / 2
    >>> flips = unit_change_flips(X, y, fresh, pooled, [1000.0, 0.01])
    >>> int(flips["Eqs. 5-6 (Sigma^-1 in objective and constraint)"]), int(flips["paper's Eqs. 16-17 (pooled Psi^-1)"])
    (0, 0)
    """
    D = np.diag(unit_change)
    X_u, fresh_u, pooled_u = X @ D, fresh @ D, D @ pooled @ D
    S_inv, S_inv_u = np.linalg.inv(pooled), np.linalg.inv(pooled_u)

    def changed(fit_a, fit_b, transform_a=lambda Z: Z, transform_b=lambda Z: Z):
        return int(np.sum(np.sign(fit_a(transform_a(fresh))) != np.sign(fit_b(transform_b(fresh_u)))))

    def svc(Z):
        return SVC(kernel="linear", C=C, tol=1e-8).fit(Z, y)

    L, L_u = linalg.cholesky(pooled, lower=True), linalg.cholesky(pooled_u, lower=True)
    return pd.Series({
        "standard SVM (Eqs. 2-3)": changed(svc(X).decision_function, svc(X_u).decision_function),
        "Eqs. 5-6 (Sigma^-1 in objective and constraint)": changed(
            primal_linear_svm(X, y, C=C, P=S_inv, M=S_inv).decision_function,
            primal_linear_svm(X_u, y, C=C, P=S_inv_u, M=S_inv_u).decision_function),
        "Eqs. 7-8 (Sigma^-1 in the objective only)": changed(
            primal_linear_svm(X, y, C=C, P=S_inv).decision_function,
            primal_linear_svm(X_u, y, C=C, P=S_inv_u).decision_function),
        "paper's Eqs. 16-17 (pooled Psi^-1)": changed(
            svc(X @ np.linalg.inv(L).T).decision_function, svc(X_u @ np.linalg.inv(L_u).T).decision_function,
            lambda Z: Z @ np.linalg.inv(L).T, lambda Z: Z @ np.linalg.inv(L_u).T),
    }, name="fresh points (of 2,000) whose class changes with the units")


# --------------------------------------------------------------------------------------------
# Notebook 03, section 3: one whitened hyperplane, two input-space lines (Eqs. 14-27)


def _input_space_margin(W, theta, theta0, side):
    # distance in the input space between the images of theta'z + theta0 = 0 and = side
    unit = theta / (theta @ theta)
    perp = np.array([-theta[1], theta[0]])
    on_line = [(-theta0) * unit, (-theta0) * unit + perp]
    on_margin = (side - theta0) * unit
    p0, p1, m = (np.linalg.solve(W, z) for z in (*on_line, on_margin))
    d = p1 - p0
    return abs(d[0] * (m - p0)[1] - d[1] * (m - p0)[0]) / np.hypot(*d)


def input_space_margins(X, y, class_covs: Mapping, C: float = 1000.0, methods=("zca", "cholesky")):
    """Fit the whitened SVM (each class by its own factor) and measure its two margins in the input space.

    For each whitening method: the training errors, the geometric margin of each class (the
    whitened decision and margin lines mapped back with :math:`W_k^{-1}`, point-to-line
    distances), their ratio, the paper's Eq. 27 and the general ratio
    :math:`|W_{-1}^\\top\\theta| / |W_1^\\top\\theta|`.

    Returns
    -------
    (table, fits)
        The margins by method, and per method ``(W, theta, theta0, Z, svc)``.

    Examples
    --------
    >>> X, y, _ = gaussian_example([4, 4], [[1, 0.6], [0.6, 0.8]], [0, 0], [[3, -1.2], [-1.2, 1.5]], 40)
    >>> covs = {k: np.cov(X[y == k], rowvar=False) for k in (1, -1)}
    >>> table, _ = input_space_margins(X, y, covs)
    >>> t = table.loc["zca"]
    >>> bool(abs(t["ratio, geometric"] - t["ratio, paper's Eq. 27"]) < 1e-9)
    True
    """
    rows, fits = [], {}
    for method in methods:
        Wk = {k: whitening_matrix(class_covs[k], method) for k in (1, -1)}
        Z = transform_by_class(X, y, Wk)
        fit = SVC(kernel="linear", C=C).fit(Z, y)
        th, th0 = fit.coef_[0], fit.intercept_[0]
        fits[method] = (Wk, th, th0, Z, fit)
        m_pos, m_neg = _input_space_margin(Wk[1], th, th0, +1), _input_space_margin(Wk[-1], th, th0, -1)
        paper = np.sqrt(th @ np.linalg.solve(class_covs[-1], th)) / np.sqrt(th @ np.linalg.solve(class_covs[1], th))
        general = np.linalg.norm(Wk[-1].T @ th) / np.linalg.norm(Wk[1].T @ th)
        rows.append({"whitening": method, "training errors": int(np.sum(fit.predict(Z) != y)),
                     "margin, class +1": m_pos, "margin, class -1": m_neg, "ratio, geometric": m_pos / m_neg,
                     "ratio, paper's Eq. 27": paper, "ratio, |W'theta| formula": general})
    return pd.DataFrame(rows).set_index("whitening"), fits


def eq22_steps(covs: Mapping) -> pd.DataFrame:
    """The steps of Eq. 22 for each covariance: they hold for a symmetric root, not for the Cholesky factor.

    Returns
    -------
    DataFrame
        Relative differences: :math:`\\Psi^{-1}(\\Psi^{-1})^\\top` against :math:`(\\Psi^\\top\\Psi)^{-1}`;
        :math:`(\\Psi^\\top\\Psi)^{-1}` against :math:`\\Sigma^{-1}` (Cholesky); :math:`WW^\\top` against
        :math:`\\Sigma^{-1}` for the symmetric root.

    Examples
    --------
    >>> table = eq22_steps({"2-D": np.array([[1.0, 0.6], [0.6, 0.8]])})
    >>> bool(table.iloc[0, 1] > 0.1), bool(table.iloc[0, 2] < 1e-12)
    (True, True)
    """
    rows = []
    for name, S in covs.items():
        Psi = linalg.cholesky(S, lower=True)
        Psi_inv = np.linalg.inv(Psi)
        sym = whitening_matrix(S, "zca")
        rows.append({"covariance": name,
                     "Psi^-1 (Psi^-1)' vs (Psi'Psi)^-1": rel(Psi_inv @ Psi_inv.T, np.linalg.inv(Psi.T @ Psi)),
                     "(Psi'Psi)^-1 vs Sigma^-1 (Cholesky)": rel(np.linalg.inv(Psi.T @ Psi), np.linalg.inv(S)),
                     "W W' vs Sigma^-1 (symmetric root)": rel(sym @ sym.T, np.linalg.inv(S))})
    return pd.DataFrame(rows).set_index("covariance")
