"""Every shrinkage of a covariance from one eigendecomposition: a whole shrinkage grid for the price of one ``eigh``.

Shrinking towards a multiple of the identity, ``(1 - a) S + a t I``, keeps the eigenvectors of
``S`` and moves each eigenvalue to ``(1 - a) l + a t``. One ``eigh`` per covariance and fit
therefore serves the whole shrinkage grid: the rows are rotated once (``X V``) and each
shrinkage only rescales their columns. The Euclidean distances and the cosines of rows whitened
by any ``W`` with ``W'W = Sigma^-1`` depend on ``Sigma`` only, so this symmetric whitening gives
the Mahalanobis readings' distances exactly as a Cholesky factor does (up to rounding).

A shrunk covariance is usable when its smallest eigenvalue is positive and its condition number
is at most :data:`helpers.whitening.MAX_CONDITION` (1e14), the library's rule for any
whitening; a shrinkage that fails it is left out of the tuning, as a failed Cholesky factor was
in the earlier editions. The own study's covariance-aware readings (:mod:`helpers.studies.generalisation`)
tune their shrinkage on these paths.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ._arrays import sq_euclidean
from .whitening import MAX_CONDITION

__all__ = ["ShrinkagePath", "class_paths", "expected_zca_matrix", "expected_zca_path", "per_category_distances"]


class ShrinkagePath:
    """The eigendecomposition of one covariance ``S``, and its shrinkage ``(1 - a) S + a t I`` for any ``a``.

    Parameters
    ----------
    S : ndarray of shape (p, p)
        A sample covariance.
    target : float, optional
        ``t``, the variance the shrinkage moves towards; default ``tr S / p`` (as
        :func:`sklearn.covariance.shrunk_covariance`).

    Examples
    --------
    >>> from sklearn.covariance import shrunk_covariance
    >>> S = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> path = ShrinkagePath(S)
    >>> bool(np.allclose(path.covariance(0.3), shrunk_covariance(S, 0.3)))
    True
    >>> path.eigenvalues(1.0).tolist()
    [3.5, 3.5]
    """

    def __init__(self, S, target=None):
        S = (S + S.T) / 2.0
        self.values, self.vectors = linalg.eigh(S)
        self.target = float(np.trace(S) / len(S)) if target is None else float(target)

    def eigenvalues(self, a: float):
        """The shrunk covariance's eigenvalues (ascending), or ``None`` where it is not usable."""
        values = (1.0 - a) * self.values + a * self.target
        if not (values[0] > 0 and values[-1] <= MAX_CONDITION * values[0]):
            return None
        return values

    def covariance(self, a: float) -> np.ndarray:
        """``(1 - a) S + a t I``, rebuilt from the eigendecomposition (for checks)."""
        values = (1.0 - a) * self.values + a * self.target
        return (self.vectors * values) @ self.vectors.T

    def whitened(self, rotated, a: float):
        """Rows already rotated by ``V`` (``X @ self.vectors``), whitened at shrinkage ``a``; ``None`` if not usable."""
        values = self.eigenvalues(a)
        return None if values is None else rotated / np.sqrt(values)


def class_paths(X, y, *, pooled_target: bool):
    """One :class:`ShrinkagePath` per class (sorted labels): each class's own covariance, and the rows of each class.

    ``pooled_target``: every class shrinks towards the pooled within-class variance per feature,
    ``sum_k (n_k - 1) tr S_k / ((n - K) p)``, so that at ``a = 1`` every class has the same
    covariance (a multiple of the identity); otherwise each towards its own ``tr S_k / p``.
    """
    classes, codes = np.unique(y, return_inverse=True)
    members = [np.flatnonzero(codes == i) for i in range(len(classes))]
    if any(len(m) < 2 for m in members):
        raise ValueError("a class covariance needs at least two rows of each class")
    covs = [np.atleast_2d(np.cov(X[m], rowvar=False, ddof=1)) for m in members]
    target = None
    if pooled_target:
        p = X.shape[1]
        target = sum((len(m) - 1) * np.trace(S) for m, S in zip(members, covs)) / ((len(X) - len(classes)) * p)
    return [ShrinkagePath(S, target) for S in covs], members


def per_category_distances(paths, members, X_tr, X_te):
    """A function ``a -> D``: squared Mahalanobis distances of each test row to each training row under its class's
    shrunk covariance (``None`` where some class's covariance is not usable at ``a``)."""
    rotated = [(X_te @ path.vectors, X_tr[m] @ path.vectors) for path, m in zip(paths, members)]

    def distances(a):
        D = np.empty((len(X_te), len(X_tr)))
        for path, m, (te, tr) in zip(paths, members, rotated):
            values = path.eigenvalues(a)
            if values is None:
                return None
            scale = 1.0 / np.sqrt(values)
            D[:, m] = sq_euclidean(te * scale, tr * scale)
        return D

    return distances


def expected_zca_matrix(paths, priors, a: float):
    """``E(W^-1) = sum_k p_k Sigma_k(a)^-1/2`` (symmetric factors); ``None`` where a class covariance is not usable.

    Examples
    --------
    >>> from helpers.estimators import ExpectedWhitener
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 3)), np.repeat([0, 1], 20)
    >>> paths, members = class_paths(X, y, pooled_target=False)
    >>> E = expected_zca_matrix(paths, [0.5, 0.5], 0.3)
    >>> bool(np.allclose(E, ExpectedWhitener(method="zca", covariance=0.3).fit(X, y).components_))
    True
    """
    E = 0.0
    for path, p in zip(paths, priors):
        values = path.eigenvalues(a)
        if values is None:
            return None
        E = E + p * (path.vectors / np.sqrt(values)) @ path.vectors.T
    return E


def expected_zca_path(X, y):
    """A function ``a -> E(W^-1)`` at shrinkage ``a`` (each class towards its own variance), from one
    eigendecomposition per class; ``None`` where a class covariance is not usable (:func:`expected_zca_matrix`)."""
    paths, members = class_paths(X, y, pooled_target=False)
    priors = np.array([len(m) for m in members]) / len(y)
    return lambda a: expected_zca_matrix(paths, priors, a)
