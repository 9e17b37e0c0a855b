"""Linear soft-margin SVM problems solved as printed, with a matrix in the objective and the constraint.

The Cholesky-kernel paper (Sahoo & Maiti, arXiv:2504.04371, Eqs. 2-8) writes several linear
SVM formulations that differ only in where a covariance matrix appears::

    minimise    1/2 theta' P theta + C sum_i xi_i
    subject to  y_i (theta' M x_i + theta_0) >= 1 - xi_i,   xi_i >= 0

(P = M = I: the standard SVM, Eqs. 2-3; P = M = inv(Sigma): Eqs. 5-6; P = inv(Sigma),
M = I: Eqs. 7-8). :func:`primal_linear_svm` solves this quadratic programme directly with
scipy's SLSQP, independently of libsvm, so that each printed formulation can be compared
with scikit-learn's ``SVC`` on transformed data. It is meant for small problems (a few
hundred rows).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from ._validation import as_float_array

__all__ = ["PrimalSVM", "primal_linear_svm"]


@dataclass(frozen=True)
class PrimalSVM:
    """Solution of :func:`primal_linear_svm`: ``theta``, ``theta0``, slacks and objective."""

    theta: np.ndarray
    theta0: float
    slack: np.ndarray
    objective: float
    M: np.ndarray

    def decision_function(self, X) -> np.ndarray:
        """``theta' M x + theta0`` for each row ``x`` of ``X``."""
        return np.asarray(X, dtype=float) @ self.M.T @ self.theta + self.theta0


def primal_linear_svm(X, y, C: float = 1.0, P=None, M=None, tol: float = 1e-10) -> PrimalSVM:
    """Solve ``min 1/2 t'Pt + C sum xi  s.t.  y_i (t' M x_i + t0) >= 1 - xi_i, xi >= 0``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
        Weight of the slacks (the paper's lambda).
    P, M : array-like of shape (n_features, n_features), optional
        The matrices of the objective and of the constraint; the identity when omitted.
        ``P`` must be symmetric positive definite.
    tol : float
        Tolerance passed to SLSQP.

    Returns
    -------
    PrimalSVM

    Raises
    ------
    ValueError
        Labels other than -1 and +1, shapes that do not agree, a non-positive ``C``, a ``P``
        that is not symmetric positive definite, or a solver that does not converge.

    Examples
    --------
    Two points on a line: the hyperplane is their midpoint and the margin 1/|theta| = 1.

    >>> fit = primal_linear_svm([[-1.0], [1.0]], [-1, 1], C=100.0)
    >>> print(f"{fit.theta[0]:.4f} {fit.theta0:.4f}")
    1.0000 0.0000
    """
    X = as_float_array(X, "X", ndim=2)
    y = as_float_array(y, "y", ndim=1)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must hold one label per row of X: X {X.shape}, y {y.shape}")
    if not set(np.unique(y)) <= {-1.0, 1.0}:
        raise ValueError(
            f"labels must be -1 and +1, got {sorted(float(v) for v in np.unique(y))}; map them first, "
            "e.g. y = np.where(y == positive_class, 1, -1)"
        )
    if isinstance(C, bool) or not isinstance(C, (int, float, np.number)) or not C > 0 or not np.isfinite(C):
        raise ValueError(f"C must be a positive finite number, e.g. C=1.0; got {C!r}")
    n, d = X.shape
    P = np.eye(d) if P is None else as_float_array(P, "P", ndim=2)
    M = np.eye(d) if M is None else as_float_array(M, "M", ndim=2)
    if P.shape != (d, d) or M.shape != (d, d):
        raise ValueError(f"P and M must be {d} x {d} for {d} features: P {P.shape}, M {M.shape}")
    if not np.allclose(P, P.T) or np.linalg.eigvalsh(P).min() <= 0:
        raise ValueError("P must be symmetric positive definite (a covariance-type matrix)")
    # An exact change of variables for the solver's sake: with s the spread of each column of
    # M x, theta' = s * theta sees columns of unit spread, and the objective matrix becomes
    # P' = S^-1 P S^-1; theta is mapped back at the end.
    Z_raw = X @ M.T                                # the constraint sees M x
    s = Z_raw.std(axis=0)
    s[s == 0] = 1.0
    Z = Z_raw / s
    P_raw, P = P, P / np.outer(s, s)
    scale = 1.0 / max(1.0, C)                      # same minimiser, better conditioned for a large C

    def objective(v):
        t, xi = v[:d], v[d + 1:]
        return scale * (0.5 * t @ P @ t + C * xi.sum())

    def gradient(v):
        return scale * np.concatenate([P @ v[:d], [0.0], np.full(n, C)])

    A = np.hstack([y[:, None] * Z, y[:, None], np.eye(n)])      # y (t'Mx + t0) + xi - 1 >= 0
    constraints = [{"type": "ineq", "fun": lambda v: A @ v - 1.0, "jac": lambda v: A}]
    bounds = [(None, None)] * (d + 1) + [(0.0, None)] * n
    start = np.concatenate([np.zeros(d + 1), np.ones(n)])         # feasible: every slack 1
    res = minimize(objective, start, jac=gradient, bounds=bounds, constraints=constraints,
                   method="SLSQP", options={"maxiter": 1000, "ftol": tol})
    if not res.success:
        raise ValueError(f"SLSQP did not converge ({res.message}); try a smaller problem or another C")
    v = res.x
    theta = v[:d] / s
    slack = np.maximum(v[d + 1:], 0.0)
    return PrimalSVM(theta=theta, theta0=float(v[d]), slack=slack,
                     objective=float(0.5 * theta @ P_raw @ theta + C * slack.sum()), M=M)
