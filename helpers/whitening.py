"""Covariance estimates, the five whitening matrices of Kessy et al. (2018), and E(W^-1).

:func:`estimate_covariance` takes the covariance as a name (:data:`COVARIANCES`), a float
shrinkage or a scikit-learn covariance estimator; :func:`check_covariance` refuses a singular
or ill-conditioned one; :func:`whitening_matrix` gives the five matrices of :data:`METHODS`;
:func:`class_whitening_matrices`, :func:`class_priors` and :func:`expected_whitening_matrix`
(the seeds' ``E(W^-1)``) work per class, and :func:`transform_by_class` is the seeds'
label-dependent "population" transform.

Rows are samples. A whitening matrix ``W`` acts on a column vector ``x`` as ``W @ x``; on
a sample matrix ``X`` (rows) as ``X @ W.T``. Every ``W`` returned here satisfies
``W @ sigma @ W.T = I``.

References
----------
.. [1] Kessy, Lewin & Strimmer (2018), Optimal whitening and decorrelation,
   The American Statistician 72(4), doi:10.1080/00031305.2016.1277159.
.. [2] Sahoo & Maiti (2025), Variance-Adjusted Cosine Distance as Similarity Metric,
   arXiv:2502.02233, Sections 3-4 (Cholesky factor, Eq. 9: E(W^-1)).
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import linalg
from sklearn.base import clone
from sklearn.covariance import OAS, LedoitWolf, shrunk_covariance

from ._arrays import pow2_exponent
from ._names import COVARIANCES, METHODS
from ._validation import (
    MAX_CONDITION,
    Real,
    as_float_array,
    check_label_values,
    check_option,
    check_square_matrix,
    check_symmetric,
    plain,
)

__all__ = [
    "check_covariance_choice",
    "COVARIANCES",
    "METHODS",
    "WHITENING_TOLERANCE",
    "check_covariance",
    "class_priors",
    "class_whitening_matrices",
    "estimate_covariance",
    "expected_whitening_matrix",
    "transform_by_class",
    "unchecked_whitening_matrix",
    "whitening_matrix",
]

_FULL_RANK_COVARIANCES = ("sample", "population")
_ACCEPTED = (
    "'sample', 'population', 'ledoit_wolf', 'oas', a float shrinkage in [0, 1], or a scikit-learn "
    "covariance estimator such as sklearn.covariance.LedoitWolf()"
)


def _is_estimator(covariance) -> bool:
    return not isinstance(covariance, (str, numbers.Number)) and callable(getattr(covariance, "fit", None))


def check_covariance_choice(covariance) -> None:
    """Raise unless ``covariance`` names an estimate, is a shrinkage in [0, 1] or a covariance estimator.

    Examples
    --------
    >>> check_covariance_choice("ledoit_wolf")
    >>> check_covariance_choice(1.5)
    Traceback (most recent call last):
    ...
    ValueError: A float covariance is a shrinkage intensity and must lie in [0, 1]; got 1.5.
    """
    if isinstance(covariance, numbers.Real) and not isinstance(covariance, bool):
        if Real(0.0, 1.0).problem(float(covariance)) is not None:
            raise ValueError(
                f"A float covariance is a shrinkage intensity and must lie in [0, 1]; got {covariance}."
            )
        return
    if isinstance(covariance, str):
        if covariance not in COVARIANCES:
            raise ValueError(f"Unknown covariance {covariance!r}; valid options are {_ACCEPTED}.")
        return
    if not _is_estimator(covariance):
        raise ValueError(
            f"Unknown covariance {covariance!r} (type {type(covariance).__name__}); valid options are {_ACCEPTED}."
        )


def estimate_covariance(X, covariance="sample") -> np.ndarray:
    """Estimate the covariance matrix of the rows of ``X``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples in rows.
    covariance : {"sample", "population", "ledoit_wolf", "oas"}, float or estimator, default="sample"
        ``"sample"`` divides by ``n - 1`` (``np.cov``, as the seed papers); ``"population"``
        by ``n`` (the maximum-likelihood estimate, ``EmpiricalCovariance``); ``"ledoit_wolf"``
        and ``"oas"`` are scikit-learn's shrinkage estimators; a float ``a`` in ``[0, 1]``
        returns ``(1 - a) S + a (tr S / p) I`` with ``S`` the sample covariance
        (``sklearn.covariance.shrunk_covariance``). A scikit-learn covariance estimator
        (anything with ``fit`` that sets ``covariance_``, e.g. ``LedoitWolf()``, ``OAS()``,
        ``ShrunkCovariance(shrinkage=0.1)``, ``MinCovDet()``) is cloned, fitted on ``X`` and its
        ``covariance_`` returned, as ``LinearDiscriminantAnalysis(covariance_estimator=...)``
        uses one. Note that scikit-learn's estimators start from the population covariance
        (divide by ``n``): ``ShrunkCovariance(shrinkage=a)`` is not the float ``a``.

    Returns
    -------
    ndarray of shape (n_features, n_features)

    Examples
    --------
    >>> X = [[1.0, 2.0], [2.0, 1.0], [3.0, 4.0], [4.0, 3.0]]
    >>> print(estimate_covariance(X).round(4))
    [[1.6667 1.    ]
     [1.     1.6667]]
    >>> print(estimate_covariance(X, "population").round(4))
    [[1.25 0.75]
     [0.75 1.25]]
    >>> from sklearn.covariance import EmpiricalCovariance
    >>> print(estimate_covariance(X, EmpiricalCovariance()).round(4))
    [[1.25 0.75]
     [0.75 1.25]]
    """
    check_covariance_choice(covariance)
    return _estimate_covariance(as_float_array(X, "X", ndim=2), covariance)


def _estimate_covariance(X: np.ndarray, covariance) -> np.ndarray:
    """:func:`estimate_covariance` of a checked X (finite, 2-D, float) and a checked ``covariance``."""
    n_samples = X.shape[0]
    if n_samples < 2:
        raise ValueError(
            f"A covariance needs at least 2 samples; X has {n_samples} sample(s) (shape {X.shape})."
        )
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if _is_estimator(covariance):
            try:
                sigma = _estimate(X, covariance)
            except ValueError as exc:
                if "NaN" not in str(exc) and "infinity" not in str(exc):
                    raise
                sigma = np.full((X.shape[1], X.shape[1]), np.inf)  # overflow inside the estimator
        else:
            # the named estimates are scale-equivariant, cov(2^-e X) = 4^-e cov(X): estimate on X
            # scaled exactly into [0.5, 1) so that no square overflows or underflows on the way
            e = pow2_exponent(X)
            sigma = np.ldexp(_estimate(np.ldexp(X, -e), covariance), 2 * e)
    _check_range(X, sigma)
    return sigma


def _check_range(X: np.ndarray, sigma: np.ndarray) -> None:
    """Refuse a covariance that overflowed or underflowed, saying so (not "NaN, impute")."""
    peak = float(np.abs(X).max()) if X.size else 0.0
    if not np.all(np.isfinite(sigma)):
        raise ValueError(
            f"The covariance of X overflowed: X holds values up to {peak:.3g}, whose squares exceed the "
            "float64 range (about 1.8e308). Rescale X first, e.g. sklearn.preprocessing.StandardScaler() "
            "or X / 1e150; whitened distances and cosines do not depend on a common scale."
        )
    spread = np.ptp(X, axis=0) if X.shape[0] else np.zeros(X.shape[1])
    vanished = (spread > 0) & (np.diag(sigma) < np.finfo(float).tiny)
    if np.any(vanished):
        j = int(np.flatnonzero(vanished)[0])
        raise ValueError(
            f"The covariance of X underflowed: column {j} varies (range {spread[j]:.3g}) but its variance "
            "is below the smallest float64 (about 1e-308). Rescale X first, e.g. "
            "sklearn.preprocessing.StandardScaler() or X * 1e150."
        )


def _estimate(X: np.ndarray, covariance) -> np.ndarray:
    if _is_estimator(covariance):
        fitted = clone(covariance, safe=False).fit(X)
        sigma = getattr(fitted, "covariance_", None)
        if sigma is None:
            raise TypeError(
                f"covariance={covariance!r} has no covariance_ after fit; pass a scikit-learn covariance "
                f"estimator (sklearn.covariance.LedoitWolf(), OAS(), ...) or one of {_ACCEPTED}."
            )
        return np.atleast_2d(np.asarray(sigma, dtype=np.float64))
    if covariance == "sample":
        return np.atleast_2d(np.cov(X, rowvar=False, ddof=1))
    if covariance == "population":
        return np.atleast_2d(np.cov(X, rowvar=False, ddof=0))
    if covariance == "ledoit_wolf":
        return LedoitWolf().fit(X).covariance_
    if covariance == "oas":
        return OAS().fit(X).covariance_
    sample = np.atleast_2d(np.cov(X, rowvar=False, ddof=1))
    return shrunk_covariance(sample, shrinkage=float(covariance))


def check_covariance(sigma, name: str = "covariance", n_samples: int | None = None) -> np.ndarray:
    """Check that ``sigma`` is a usable covariance matrix and return its eigenvalues.

    Raises ``ValueError`` when ``sigma`` is not square, not symmetric, not finite, singular
    (an eigenvalue <= 0) or numerically ill-conditioned (condition number above 1e14, where
    whitening would amplify rounding error to the size of the result).

    Returns
    -------
    ndarray of shape (n_features,)
        Eigenvalues in ascending order.

    Examples
    --------
    >>> print(check_covariance([[4.0, 2.0], [2.0, 3.0]]).round(4))
    [1.4384 5.5616]
    >>> check_covariance([[1.0, 1.0], [1.0, 1.0]])
    Traceback (most recent call last):
    ...
    ValueError: covariance is singular: ...
    """
    sigma = as_float_array(sigma, name, ndim=2)
    check_square_matrix(sigma, name)
    check_symmetric(sigma, name)
    eig = linalg.eigvalsh(sigma)
    p = sigma.shape[0]
    context = ""
    if n_samples is not None:
        context = f" It was estimated from {n_samples} samples of {p} features"
        context += (
            f"; a sample covariance has rank at most n - 1 = {n_samples - 1}."
            if n_samples <= p
            else "."
        )
    fix = (
        " Use a shrinkage estimate (covariance='ledoit_wolf', 'oas' or a float in (0, 1]) "
        "or reduce the dimension first, e.g. make_pipeline(PCA(n_components=0.99), Whitener())."
    )
    largest = eig[-1]
    if largest <= 0 or eig[0] <= 0:
        rank = int(np.sum(eig > max(largest, 0) * p * np.finfo(float).eps))
        raise ValueError(
            f"{name} is singular: it is not positive definite (smallest eigenvalue "
            f"{eig[0]:.3g}, numerical rank {rank} of {p}).{context}{fix}"
        )
    condition = largest / eig[0]
    if condition > MAX_CONDITION:
        raise ValueError(
            f"{name} is numerically ill-conditioned: condition number {condition:.3g} exceeds "
            f"{MAX_CONDITION:.0e}, so whitening would be dominated by rounding error.{context}{fix}"
        )
    return eig


WHITENING_TOLERANCE = 1e-6
"""Largest accepted entry of ``|W sigma W' - I|``; raw WDBC (condition number 6e11) stays below 1e-9."""


def _positive_diagonal(U: np.ndarray) -> np.ndarray:
    """Flip eigenvector columns so that the diagonal of ``U`` is non-negative (R `whitening`)."""
    signs = np.sign(np.diag(U))
    signs[signs == 0] = 1.0
    return U * signs


def _sorted_eigh(m: np.ndarray):
    vals, vecs = linalg.eigh(m)
    order = np.argsort(vals)[::-1]
    return vals[order], _positive_diagonal(vecs[:, order])


def whitening_matrix(sigma, method: str = "cholesky", name: str = "sigma", n_samples: int | None = None) -> np.ndarray:
    """Whitening matrix ``W`` with ``W @ sigma @ W.T = I``.

    Parameters
    ----------
    sigma : array-like of shape (n_features, n_features)
        A symmetric positive definite covariance matrix.
    method : {"cholesky", "zca", "zca_cor", "pca", "pca_cor"}, default="cholesky"
        The five methods of Kessy et al. (2018). With ``V`` the diagonal of variances,
        ``P = V^-1/2 sigma V^-1/2`` the correlation matrix, ``sigma = U L U'`` and
        ``P = G T G'`` eigen-decompositions (eigenvalues descending):

        - ``"cholesky"``: ``W = inv(L)`` with ``sigma = L L'``, ``L`` lower triangular,
          as the seed papers use (computed by a triangular solve). Kessy et al. define
          Cholesky whitening from the factor of ``inv(sigma)`` instead (upper triangular);
          both whiten, and they differ by an orthogonal rotation.
        - ``"zca"``: ``W = sigma^-1/2 = U L^-1/2 U'`` (symmetric; Mahalanobis whitening).
        - ``"zca_cor"``: ``W = P^-1/2 V^-1/2``.
        - ``"pca"``: ``W = L^-1/2 U'``.
        - ``"pca_cor"``: ``W = T^-1/2 G' V^-1/2``.

        Sign convention of the PCA variants: each eigenvector column is flipped so that
        the diagonal of ``U`` (or ``G``) is non-negative, as the R package `whitening` does.
    name : str, default="sigma"
        What ``sigma`` is called in an error message (e.g. "training covariance").
    n_samples : int, optional
        The number of samples ``sigma`` was estimated from, for the message on a singular
        matrix (as :func:`check_covariance`).

    Returns
    -------
    ndarray of shape (n_features, n_features)

    Raises
    ------
    ValueError
        ``sigma`` is not a usable covariance (see :func:`check_covariance`), or the computed
        ``W`` misses ``W sigma W' = I`` by more than ``WHITENING_TOLERANCE`` (1e-6): the
        matrix is too ill-conditioned for this method, and the message says what to do.

    Examples
    --------
    >>> sigma = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> W = whitening_matrix(sigma, "cholesky")
    >>> print(W.round(4))
    [[ 0.5     0.    ]
     [-0.3536  0.7071]]
    >>> print((W @ sigma @ W.T).round(10))
    [[1. 0.]
     [0. 1.]]
    """
    check_option(method, METHODS, "whitening method")
    sigma = as_float_array(sigma, name, ndim=2)
    eig = check_covariance(sigma, name, n_samples=n_samples)
    sigma = (sigma + sigma.T) / 2.0
    condition = eig[-1] / eig[0]
    # Advice that would work whatever failed: shrinkage bounds the condition number (a shrinkage
    # a gives at most about p / a), and fewer features remove the smallest eigenvalues. Another
    # method is suggested only if it is not the one that failed.
    fix = (
        "Regularise the covariance: Whitener(covariance='ledoit_wolf') or a float shrinkage such as "
        "covariance=0.1 (for a matrix: sklearn.covariance.shrunk_covariance(sigma, 0.1)), or use fewer "
        "features, e.g. make_pipeline(StandardScaler(), PCA(n_components=0.99), Whitener())."
    )
    if method != "cholesky":
        fix += " method='cholesky' is the least sensitive of the five to badly scaled features."
    try:
        W = _whitening_matrix(sigma, method)
    except linalg.LinAlgError as exc:
        raise ValueError(
            f"whitening with method={method!r} failed ({exc}); the condition number of sigma is "
            f"{condition:.3g}. {fix}"
        ) from None
    # a posteriori check: a matrix that passes check_covariance can still be too ill-conditioned
    # for a given method (eigen-based ones suffer most); refuse rather than return a wrong W
    residual = float(np.abs(W @ sigma @ W.T - np.eye(sigma.shape[0])).max())
    if not residual <= WHITENING_TOLERANCE:
        raise ValueError(
            f"whitening with method={method!r} lost precision: max |W sigma W' - I| = {residual:.2g} "
            f"(tolerance {WHITENING_TOLERANCE:.0e}; condition number of sigma {condition:.3g}). {fix}"
        )
    return W


def unchecked_whitening_matrix(sigma: np.ndarray, method: str = "cholesky") -> np.ndarray:
    """:func:`whitening_matrix` without its checks: for a loop over covariances its caller has made (a tuning grid).

    The same arithmetic as :func:`whitening_matrix`, none of its checks of ``sigma`` (square,
    symmetric, finite, its scale, its condition): ``scipy.linalg.LinAlgError`` where a Cholesky
    factor does not exist, NaN or infinity where an eigenvalue is not positive. Use
    :func:`whitening_matrix` anywhere else.

    Examples
    --------
    >>> sigma = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> bool(np.array_equal(unchecked_whitening_matrix(sigma), whitening_matrix(sigma)))
    True
    """
    return _whitening_matrix(np.asarray(sigma, dtype=float), method)


def _whitening_matrix(sigma: np.ndarray, method: str) -> np.ndarray:
    p = sigma.shape[0]
    if method == "cholesky":
        L = linalg.cholesky(sigma, lower=True)
        return linalg.solve_triangular(L, np.eye(p), lower=True)
    if method in ("zca", "pca"):
        vals, U = _sorted_eigh(sigma)
        if method == "pca":
            return U.T / np.sqrt(vals)[:, None]
        return (U / np.sqrt(vals)) @ U.T
    v_inv_sqrt = 1.0 / np.sqrt(np.diag(sigma))
    corr = sigma * v_inv_sqrt[:, None] * v_inv_sqrt[None, :]
    vals, G = _sorted_eigh((corr + corr.T) / 2.0)
    if method == "pca_cor":
        return (G.T / np.sqrt(vals)[:, None]) * v_inv_sqrt[None, :]
    return ((G / np.sqrt(vals)) @ G.T) * v_inv_sqrt[None, :]


def _check_labels(X, y):
    X = as_float_array(X, "X", ndim=2)
    y = check_label_values(y)  # 1-D, no missing label (a NaN was a class of its own), sortable
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y must have the same number of samples; got shapes {X.shape} and {y.shape}."
        )
    return X, y


def class_priors(y) -> dict:
    """Class proportions ``p_k = n_k / n`` in sorted label order.

    Examples
    --------
    >>> {int(k): float(v) for k, v in class_priors([0, 0, 1, 1, 1]).items()}
    {0: 0.4, 1: 0.6}
    """
    y = check_label_values(y)  # a NaN counted as a class of its own, a 2-D y was flattened
    labels, counts = np.unique(y, return_counts=True)
    return {plain(label): count / counts.sum() for label, count in zip(labels, counts)}


def class_whitening_matrices(X, y, method: str = "cholesky", covariance="sample") -> dict:
    """One whitening matrix per class, from that class's covariance.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels.
    method, covariance
        As in :func:`whitening_matrix` and :func:`estimate_covariance`.

    Returns
    -------
    dict
        ``{label: W_k}`` in sorted label order, with ``W_k @ sigma_k @ W_k.T = I``.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [5.0, 5.0], [6.0, 5.0], [5.0, 7.0]])
    >>> mats = class_whitening_matrices(X, [0, 0, 0, 1, 1, 1])
    >>> print(mats[0].round(4))
    [[0.866 0.   ]
     [0.5   1.   ]]
    """
    check_option(method, METHODS, "whitening method")
    check_covariance_choice(covariance)
    X, y = _check_labels(X, y)
    if y.shape[0] == 0:
        raise ValueError("X and y hold no rows; per-class matrices need at least two rows of each class.")
    n_features = X.shape[1]
    labels, counts = np.unique(y, return_counts=True)
    for label, count in zip(labels, counts):
        label = plain(label)
        if count < 2:
            raise ValueError(
                f"Class {label!r} has {count} sample; a class covariance needs at least 2. "
                "Merge or drop that class."
            )
        if isinstance(covariance, str) and covariance in _FULL_RANK_COVARIANCES and count <= n_features:
            raise ValueError(
                f"Class {label!r} has {count} samples for {n_features} features, so its "
                f"{covariance} covariance is singular (rank at most {count - 1}). A full-rank "
                f"class covariance needs at least {n_features + 1} samples; use "
                "covariance='ledoit_wolf' (or 'oas', or a float shrinkage) or reduce the dimension first."
            )
    mats = {}
    for label in map(plain, labels):
        rows = X[y == label]
        sigma = _estimate_covariance(rows, covariance)  # X and covariance are checked above, once
        try:
            mats[label] = whitening_matrix(sigma, method, f"covariance of class {label!r}", n_samples=rows.shape[0])
        except ValueError as exc:
            raise ValueError(str(exc)) from None
    return mats


def expected_whitening_matrix(X, y, method: str = "cholesky", covariance="sample") -> np.ndarray:
    """The seeds' expected factor ``E(W^-1) = sum_k p_k W_k`` with ``p_k = n_k / n``.

    Eq. (9) of Sahoo & Maiti (2025) for two classes, generalised to ``K``. It is used
    when the test label is unknown. Note that it is *not* a whitening matrix of any class
    (``E sigma_k E'`` is not ``I``), and that the result depends on ``method``: mixing
    Cholesky factors and mixing ZCA matrices give different matrices.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [5.0, 5.0], [6.0, 5.0], [5.0, 7.0]])
    >>> print(expected_whitening_matrix(X, [0, 0, 0, 1, 1, 1]).round(4))
    [[1.299 0.   ]
     [0.75  1.   ]]
    """
    mats = class_whitening_matrices(X, y, method=method, covariance=covariance)
    priors = class_priors(np.asarray(y))
    return sum(priors[label] * W for label, W in mats.items())


def transform_by_class(X, y, matrices: dict) -> np.ndarray:
    """The seeds' "population" transform: whiten each row with its *own class's* matrix.

    Warning: this needs the label of every row. Applied to test points it uses the test
    labels, so any classifier run on its output has seen the answer. The papers' 100%
    accuracies come from this transform; use it to reproduce them, never to evaluate.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        The label of each row (for test rows: the true or an assigned label).
    matrices : dict
        ``{label: W}`` as returned by :func:`class_whitening_matrices`.

    Returns
    -------
    ndarray of shape (n_samples, n_features)
        Row ``i`` is ``matrices[y[i]] @ X[i]``.

    Examples
    --------
    >>> mats = {0: np.eye(2), 1: 2 * np.eye(2)}
    >>> print(transform_by_class([[1.0, 1.0], [1.0, 1.0]], [0, 1], mats))
    [[1. 1.]
     [2. 2.]]
    """
    X, y = _check_labels(X, y)
    if not isinstance(matrices, dict):
        raise TypeError(f"matrices must be a dict {{label: W}} as class_whitening_matrices returns; got "
                        f"{type(matrices).__name__}. Build it with class_whitening_matrices(X_train, y_train), or "
                        "dict(zip(labels, list_of_matrices)).")
    missing = sorted(set(np.unique(y).tolist()) - set(matrices))
    if missing:
        raise ValueError(
            f"No whitening matrix for label(s) {missing}; matrices has {sorted(matrices)}. "
            "Fit class_whitening_matrices on data containing every class."
        )
    out = np.empty_like(X)
    for label, W in matrices.items():
        rows = y == label
        if np.any(rows):
            W = as_float_array(W, f"matrices[{label!r}]", ndim=2)
            if W.shape != (X.shape[1], X.shape[1]):
                raise ValueError(
                    f"matrices[{label!r}] has shape {W.shape} but X has {X.shape[1]} features."
                )
            out[rows] = X[rows] @ W.T
    return out
