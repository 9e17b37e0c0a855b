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

The geometry the paper's claims call for: exact linear separability
(:func:`is_linearly_separable`, a linear programme) and exact leave-one-out predictions of an
``SVC`` that refit only the support vectors whose answer is not already known
(:func:`svc_loocv_predict`, :func:`svc_loocv_accuracy`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed
from scipy import optimize
from scipy.optimize import minimize
from sklearn.base import clone

from ._validation import as_float_array, check_estimator, check_labels, check_real

#: rows beyond which :func:`primal_linear_svm` refuses the problem (SLSQP's memory is n^2, its time n^3)
_PRIMAL_MAX_ROWS = 2000

__all__ = ["PrimalSVM", "is_linearly_separable", "primal_linear_svm", "svc_loocv_accuracy", "svc_loocv_predict"]


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
    >>> print(f"{fit.theta[0]:.4f} {round(fit.theta0, 4) + 0.0:.4f}")   # + 0.0: no "-0.0000"
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
    C = check_real(C, "C", "C=1.0", low=0.0, closed="neither")
    n, d = X.shape
    if n > _PRIMAL_MAX_ROWS:
        raise ValueError(
            f"X has {n:,} rows, beyond the {_PRIMAL_MAX_ROWS:,} primal_linear_svm is meant for: SLSQP works on "
            f"{n + d + 1:,} variables with a dense {n:,} x {n + d + 1:,} constraint matrix "
            f"({8 * n * (n + d + 1) / 2**30:,.1f} GiB), and its time grows as n^3 (about 20 s at 600 rows). "
            "Fit sklearn.svm.SVC(kernel='linear', C=C) on the transformed rows X @ M.T instead (the same problem "
            "when P = I), or pass a subsample."
        )
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


# --------------------------------------------------------------------------------------------
# separability and the leave-one-out shortcut


def is_linearly_separable(X, y) -> bool:
    """Whether a hyperplane separates two classes without error: ``y_i (w'x_i + b) >= 1`` is feasible.

    Solved exactly as a linear-programming feasibility problem (:func:`scipy.optimize.linprog`,
    HiGHS), on features standardised first (separability does not change under an invertible
    affine map of the features, and the solver is better conditioned). A hard-margin SVM has a
    solution exactly when this is ``True``.

    Examples
    --------
    >>> is_linearly_separable([[0, 0], [1, 0], [0, 1], [3, 3]], [0, 0, 0, 1])
    True
    >>> is_linearly_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [0, 0, 1, 1])   # XOR
    False
    """
    X, y = as_float_array(X, "X"), np.asarray(y)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be 2-D with one row per label; got X {X.shape} and y {y.shape}.")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"linear separability is defined here for two classes; y has {classes.size}: {classes.tolist()}."
        )
    sd = X.std(axis=0)
    Xs = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    s = np.where(y == classes[1], 1.0, -1.0)
    # variables (w, b); constraints -s_i (w'x_i + b) <= -1
    A = -s[:, None] * np.hstack([Xs, np.ones((len(y), 1))])
    res = optimize.linprog(np.zeros(X.shape[1] + 1), A_ub=A, b_ub=-np.ones(len(y)),
                           bounds=[(None, None)] * (X.shape[1] + 1), method="highs")
    if res.status not in (0, 2):
        raise ValueError(f"the separability LP did not finish (status {res.status}: {res.message}).")
    return bool(res.status == 0)


def svc_loocv_accuracy(svc, X, y, n_jobs=None) -> float:
    """Exact LOOCV accuracy of an SVC: the mean of :func:`svc_loocv_predict` against ``y``.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (15, 2)), rng.normal(2, 1, (15, 2))]); y = np.repeat([0, 1], 15)
    >>> from helpers.evaluation import loocv_accuracy
    >>> fast, slow = svc_loocv_accuracy(SVC(kernel="linear"), X, y), loocv_accuracy(SVC(kernel="linear"), X, y)
    >>> print(f"{fast:.3f} {slow:.3f}")
    0.933 0.933
    """
    return float(np.mean(svc_loocv_predict(svc, X, y, n_jobs=n_jobs) == np.asarray(y)))


def svc_loocv_predict(svc, X, y, n_jobs=None) -> np.ndarray:
    """Exact leave-one-out predictions of an SVC, refitting only where the answer is not already known.

    Two facts about the exact SVM optimum spare most refits:

    1. A point with dual coefficient 0 (not a support vector) does not enter the solution,
       so leaving it out changes nothing: its leave-one-out prediction is the full model's.
    2. For a binary problem, leaving a point out cannot raise its margin
       ``y f(x)``: the full solution minimises ``R(f) + C loss_i(f)`` and the
       leave-one-out one ``R(f)`` alone, so ``loss_i(f_full) <= loss_i(f_loo)`` and the hinge
       loss only falls as the margin rises. A support vector the full model misclassifies
       stays misclassified. Only those with full-model margin below ``-10 * svc.tol`` are
       skipped, a safety gap of ten solver tolerances for libsvm's approximate optimum.

    Only the remaining support vectors are refitted (in ``n_jobs`` parallel processes; the
    answer does not depend on it). Same model and same predictions as
    ``cross_val_predict(svc, X, y, cv=LeaveOneOut())``, many times faster when each fit is
    slow (a linear SVC on unscaled WDBC takes about a second per fit).

    Returns
    -------
    ndarray of shape (n_samples,): the label predicted for each row with that row left out.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> X = [[0.0], [0.2], [0.4], [1.0], [1.2], [1.4]]
    >>> svc_loocv_predict(SVC(kernel="linear"), X, [0, 0, 0, 1, 1, 1]).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    check_estimator(svc, "svc")
    X, y = check_labels(X, y)
    full = clone(svc).fit(X, y)
    if not hasattr(full, "support_"):
        raise TypeError(f"svc must be a support vector classifier (sklearn.svm.SVC, with support_ after fit); got "
                        f"{type(svc).__name__}. For other models use loocv_accuracy(model, X, y).")
    pred = full.predict(X)
    refit = np.zeros(len(y), dtype=bool)
    refit[full.support_] = True
    if len(full.classes_) == 2:
        margin = np.where(y == full.classes_[1], 1.0, -1.0) * full.decision_function(X)
        refit &= margin >= -10 * full.tol      # fact 2: misclassified support vectors stay wrong
    todo = np.flatnonzero(refit)
    pred[todo] = Parallel(n_jobs=n_jobs)(delayed(_leave_one_out_predict)(svc, X, y, i) for i in todo)
    return pred


def _leave_one_out_predict(model, X, y, i):
    keep = np.ones(len(y), dtype=bool)
    keep[i] = False
    return clone(model).fit(X[keep], y[keep]).predict(X[i : i + 1])[0]
