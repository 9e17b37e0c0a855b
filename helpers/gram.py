"""PCA and shrunk covariances from inner products: for data with far more features than rows.

:class:`GramPCA` is PCA of a (sparse) matrix through the eigendecomposition of the smaller
of the centred n x n Gram matrix and the p x p scatter matrix (exact, every eigenvalue, so
the number of components for a variance fraction is exact; memory ``O(n p + min(n, p)^2)``).
:func:`ledoit_wolf_shrinkage_gram` and :func:`shrunk_residual_covariance`
give the Ledoit-Wolf shrinkage from inner products only, and :class:`ResidualCovariance`
holds a shrunk covariance ``S = a I + b R'R`` of residuals ``R`` and applies ``S^-1``
through the Woodbury identity when there are fewer rows than dimensions. Their ``covariance``
is ``"ledoit_wolf"`` or a float shrinkage: a scikit-learn covariance estimator object is
refused, because the p x p matrix it would fit is never formed here.

References
----------
.. [1] O. Ledoit & M. Wolf (2004), A well-conditioned estimator for large-dimensional
   covariance matrices, J. Multivariate Analysis 88, 365-411.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import Hidden, Interval, Options, RealNotInt, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ._arrays import cache_row_blocks, row_sq_norms, sq_distances_from_inner, sq_euclidean
from ._io import progress_bar
from ._validation import (
    Boolean,
    Integer,
    OneOf,
    Real,
    as_float_array,
    check_finite,
    check_int,
    check_real,
    check_value,
)

__all__ = [
    "GramPCA",
    "ResidualCovariance",
    "ledoit_wolf_shrinkage_gram",
    "shrunk_residual_covariance",
]


def _check_fraction(fraction, name: str = "fraction") -> float:
    """A variance fraction in (0, 1], or a clear error naming the value."""
    return check_real(fraction, name, "0.9 for 90% of the variance", 0.0, 1.0, closed="right")


def _check_finite_matrix(X, name: str) -> None:
    """Refuse NaN and inf in a dense or sparse matrix, naming the first position and the fix."""
    if not sp.issparse(X):
        check_finite(X, name)
        return
    if np.isfinite(X.data).all():
        return
    coo = X.tocoo()
    bad = np.flatnonzero(~np.isfinite(coo.data))
    first = bad[np.lexsort((coo.col[bad], coo.row[bad]))[0]]  # first in row order
    value = coo.data[first]
    what = "NaN" if np.isnan(value) else "inf (overflow: a value beyond the float64 range of about 1.8e308)"
    fix = ("Remove or impute them first, e.g. sklearn.impute.SimpleImputer." if np.isnan(value) else
           "Rescale the data before this step or replace the inf values.")
    raise ValueError(
        f"{name} (sparse) contains {what} in {len(bad)} stored entries, first at row {int(coo.row[first])}, "
        f"column {int(coo.col[first])}. {fix}"
    )


def _validate(estimator, X, reset: bool):
    """``validate_data`` for dense or sparse ``X``, with messages that name the position and the fix."""
    try:
        X = validate_data(estimator, X, accept_sparse="csr", dtype=np.float64, ensure_min_samples=2 if reset else 1,
                          ensure_all_finite=False, reset=reset)
    except ValueError as exc:
        if "could not convert" in str(exc):
            raise ValueError(
                f"X must be numeric; could not convert it to float ({exc}). Turn documents into term weights "
                "first (helpers.text.vectorize_corpus) or encode text columns as numbers."
            ) from None
        raise
    _check_finite_matrix(X, "X")
    return X


def _n_for_fraction(cumulative: np.ndarray, fraction: float) -> int:
    """Smallest number of components whose cumulative explained variance reaches ``fraction``."""
    return int(np.searchsorted(cumulative, fraction - 1e-12) + 1)


def _argmax_abs_by_row(C: np.ndarray, rows: int = 64) -> np.ndarray:
    """``np.abs(C).argmax(axis=1)`` (the first on ties), a block of rows at a time in C order.

    The same indices; for a Fortran-ordered ``C`` (GramPCA's components) several times faster,
    as each row is read from contiguous memory instead of one element per cache line.
    """
    out = np.empty(C.shape[0], dtype=np.intp)
    for start in range(0, C.shape[0], rows):
        block = np.array(C[start:start + rows], order="C")       # a copy: C itself is left as it is
        out[start:start + rows] = np.abs(block, out=block).argmax(axis=1)
    return out


class GramPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """PCA of a (sparse) matrix from the eigendecomposition of the centred Gram matrix.

    For ``n`` training rows and ``p >> n`` features, ``Xc Xc' = U diag(s^2) U'`` is an
    ``n x n`` problem: the principal axes are ``V = Xc' U / s`` and the training scores
    ``U s``. All ``n`` eigenvalues come out, so ``explained_variance_ratio_`` and
    :meth:`n_components_for` are exact (their sum is ``||Xc||_F^2``, the total variance).
    With more rows than features (``p < n``) the same eigenvalues and axes come from the
    ``p x p`` scatter matrix ``Xc' Xc = V diag(s^2) V'`` instead (the other ``n - p``
    eigenvalues are 0), so memory stays ``O(n p + p^2)`` for any ``n``: the results agree
    with ``sklearn.decomposition.PCA`` to rounding, up to the sign of each axis.

    Parameters
    ----------
    n_components : int or float, default=100
        An int keeps that many principal components for ``transform``; a float in (0, 1]
        is a variance fraction: keep the fewest components whose explained variance
        reaches it (as ``sklearn.decomposition.PCA(0.9)``; 1.0 keeps every component with
        nonzero variance). Either way at most
        ``max_components`` and at most ``min(n - 1, n_features)``, the largest possible rank
        of the centred data.
    whiten : bool, default=False
        Divide the scores by the component standard deviations, so Euclidean distance of
        the output is the Mahalanobis distance under the (diagonal) covariance of the
        training scores.
    dtype : {np.float64, np.float32}, default=np.float64
        Precision of the Gram (or scatter) matrix and its eigendecomposition (``np.float32``
        halves its memory: ``min(n, p)^2`` x 4 bytes), as the type, its name or its
        ``np.dtype``. The fitted attributes are float64 either way, and so is the output of
        ``transform``.
    max_components : int or None, default=None
        Cap on the number of components, however ``n_components`` chooses them.
    verbose : bool, int or None, default=None
        A progress bar over the Gram-matrix blocks and the eigendecomposition (``None``: on
        a terminal only; ``TQDM_DISABLE=1`` hides it in every case).

    Attributes
    ----------
    mean_, components_ (n_components_, p), explained_variance_, explained_variance_ratio_
        As in ``sklearn.decomposition.PCA``; ``all_explained_variance_ratio_`` covers all
        ``n`` components.
    n_components_ : int
        Components kept: ``min(n_components or the count the fraction needs,
        max_components, n - 1, n_features)``.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when ``X`` has string feature names. The outputs are named ``pca0``,
        ``pca1``, ... (:meth:`get_feature_names_out`).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.decomposition import PCA
    >>> X = np.random.default_rng(0).normal(size=(30, 50))
    >>> a = GramPCA(3).fit(X).explained_variance_
    >>> b = PCA(3).fit(X).explained_variance_
    >>> bool(np.allclose(a, b))
    True

    A variance fraction, alone and with a cap:

    >>> GramPCA(0.5).fit(X).n_components_, GramPCA(0.5, max_components=4).fit(X).n_components_
    (7, 4)
    >>> GramPCA(2).fit(X).get_feature_names_out().tolist()
    ['pca0', 'pca1']
    """

    _block_rows = 1000  # rows of the Gram matrix computed at a time (bounds the sparse product)

    _parameter_constraints: dict = {
        "n_components": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
            Hidden(Interval(numbers.Real, 0, 1, closed="right")),  # a fraction as np.float32, not a RealNotInt
        ],
        "whiten": ["boolean"],
        "dtype": [
            Options(type, {float, np.float32, np.float64}),
            StrOptions({"float32", "float64"}),
            Options(np.dtype, {np.dtype(np.float32), np.dtype(np.float64)}),
        ],
        "max_components": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "verbose": ["verbose", None],
    }

    def __init__(self, n_components=100, whiten: bool = False, dtype=np.float64, max_components=None,
                 verbose=None):
        self.n_components = n_components
        self.whiten = whiten
        self.dtype = dtype
        self.max_components = max_components
        self.verbose = verbose

    def _check_params(self) -> None:
        """What ``_parameter_constraints`` lets through: bools, which scikit-learn counts as the integers 0 and 1."""
        check_value(self.n_components, Integer(1) | Real(0.0, 1.0, closed="right"), "n_components",
                    "100 components or 0.9 for 90% of the variance")
        check_value(self.max_components, OneOf([None]) | Integer(1), "max_components", "max_components=500")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit the principal axes of ``X`` (dense or any scipy sparse format); ``y`` is ignored."""
        self._check_params()
        X = _validate(self, X, reset=True)
        n, p = X.shape
        # X X' overflows for entries beyond ~1e154 and underflows below ~1e-154: far from 1, divide X
        # by its largest magnitude first (the axes do not change; variances scale back by factor^2)
        top = float(np.max(np.abs(X.data if sp.issparse(X) else X), initial=0.0))
        factor = top if top > 0 and not 1e-100 < top < 1e100 else 1.0
        if factor != 1.0:
            X = X / factor
        mean = np.asarray(X.mean(axis=0)).ravel()
        with progress_bar(total=3, desc="GramPCA", progress=self.verbose) as bar:
            # the smaller of the two inner-product matrices: Xc Xc' (n x n) for p >= n, else Xc' Xc (p x p)
            if p < n:
                vals, axes = self._covariance_eigh(X, mean, bar)
            else:
                vals, vecs = self._gram_eigh(X, mean, bar)
            total = vals.sum()
            if not total > 0:
                raise ValueError(
                    f"X has no variance: its {n} rows are identical, so there is no principal component. "
                    "Check the input (e.g. an empty vocabulary gives all-zero rows)."
                )
            cum = np.cumsum(vals / total)
            # the centred data have rank at most min(n - 1, p): no axis beyond it
            cap = min(n - 1, p) if self.max_components is None else min(int(self.max_components), n - 1, p)
            if isinstance(self.n_components, (float, np.floating)):
                m = min(_n_for_fraction(cum, float(self.n_components)), cap)
            else:
                m = min(int(self.n_components), cap)
            s = np.sqrt(vals[:m])
            if np.any(s <= 0):
                raise ValueError(
                    f"Only {int((vals > 0).sum())} components have nonzero variance (duplicate or collinear "
                    f"rows); ask for fewer than {m}, or a variance fraction such as n_components=0.99."
                )
            bar.set_postfix_str("principal axes")
            if p < n:
                self.components_ = np.ascontiguousarray(axes[:, :m].T)
            else:
                vecs = vecs[:, n - m :][:, ::-1].astype(np.float64)
                # Xc' U / s = (X' U - mean (1'U)) / s, computed in place: the same operations, without
                # three more p x m temporaries (660 MB each for notebook 06)
                axes_T = np.asarray(X.T @ vecs)
                col_sums = vecs.sum(axis=0)
                for start in range(0, len(axes_T), self._block_rows):
                    rows = slice(start, start + self._block_rows)
                    axes_T[rows] -= np.outer(mean[rows], col_sums)
                axes_T /= s
                self.components_ = axes_T.T
            bar.update()
        # fix signs: largest-magnitude entry of each axis positive (deterministic output)
        signs = np.sign(self.components_[np.arange(m), _argmax_abs_by_row(self.components_)])
        self.components_ *= signs[:, None]
        self.mean_ = mean * factor
        with np.errstate(over="ignore", under="ignore"):  # beyond float64 only when the variances are
            self.explained_variance_ = (np.sqrt(vals[:m] / (n - 1)) * factor) ** 2
        self.all_explained_variance_ratio_ = vals / total
        self.explained_variance_ratio_ = self.all_explained_variance_ratio_[:m]
        self.n_components_ = m
        return self

    def _gram_eigh(self, X, mean, bar):
        """Eigenvalues (descending, all ``n``) and eigenvectors (ascending) of the centred ``n x n`` Gram."""
        n = X.shape[0]
        r = np.asarray(X @ mean).ravel()  # Xc Xc' = X X' - r 1' - 1 r' + (m'm) 1 1'
        mm = float(mean @ mean)
        XT = X.T.tocsr() if sp.issparse(X) else X.T
        bar.set_postfix_str(f"Gram matrix {n:,} x {n:,}")
        # built block by block straight into a dense array of the requested dtype: no
        # sparse n x n product, no float64 copy when dtype is float32
        G = np.empty((n, n), dtype=self.dtype, order="F")
        for start in range(0, n, self._block_rows):
            rows = slice(start, start + self._block_rows)
            block = X[rows] @ XT
            block = block.toarray() if sp.issparse(block) else np.asarray(block)
            # ((X X' - r 1') - 1 r') + m'm, in the block's own (fresh) array
            block -= r[rows, None]
            block -= r[None, :]
            block += mm
            G[rows] = block
        bar.update()
        bar.set_postfix_str("eigendecomposition")
        # eigh reads the lower triangle only, so G needs no symmetrising copy, and G is
        # Fortran-ordered, so LAPACK works on it in place instead of on a copy
        vals, vecs = linalg.eigh(G, driver="evd", overwrite_a=True, check_finite=False)
        del G
        bar.update()
        return np.clip(vals[::-1].astype(np.float64), 0.0, None), vecs

    def _covariance_eigh(self, X, mean, bar):
        """Eigenvalues (descending, padded with zeros to ``n``) and axes (columns, descending) of ``Xc' Xc``.

        For more rows than features: the ``p x p`` scatter matrix instead of the ``n x n`` Gram
        matrix (the same nonzero eigenvalues; the axes are its eigenvectors), so memory is
        ``O(n p + p^2)`` whatever ``n``. Dense data are centred first (one ``n x p`` copy), which
        is more accurate than subtracting ``n m m'``; sparse data stay sparse.
        """
        n, p = X.shape
        bar.set_postfix_str(f"scatter matrix {p:,} x {p:,}")
        if sp.issparse(X):
            XT = X.T.tocsr()
            C = np.empty((p, p), dtype=self.dtype, order="F")
            for start in range(0, p, self._block_rows):
                rows = slice(start, start + self._block_rows)
                block = (XT[rows] @ X).toarray()
                C[rows] = block - n * mean[rows, None] * mean[None, :]
        else:
            Xc = X - mean
            C = np.asfortranarray((Xc.T @ Xc).astype(self.dtype, copy=False))
            del Xc
        bar.update()
        bar.set_postfix_str("eigendecomposition")
        vals, vecs = linalg.eigh(C, driver="evd", overwrite_a=True, check_finite=False)
        del C
        bar.update()
        vals = np.clip(vals[::-1].astype(np.float64), 0.0, None)
        # the other n - p eigenvalues of the Gram matrix are 0: keep all n, as the Gram route does
        return np.concatenate([vals, np.zeros(n - p)]), vecs[:, ::-1].astype(np.float64)

    @property
    def _n_features_out(self):
        return self.n_components_

    def get_feature_names_out(self, input_features=None):
        """Names of the output features: ``pca0``, ``pca1``, ... (one per kept component).

        ``input_features`` is checked against the names seen in ``fit``, as in scikit-learn.
        """
        names = super().get_feature_names_out(input_features)  # checks input_features
        return np.asarray([f"pca{i}" for i in range(len(names))], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # the Gram matrix is built from sparse products
        return tags

    def n_components_for(self, fraction: float) -> int:
        """Smallest number of components whose explained variance reaches ``fraction`` (no cap)."""
        check_is_fitted(self, "components_")
        return _n_for_fraction(np.cumsum(self.all_explained_variance_ratio_), _check_fraction(fraction))

    def transform(self, X):
        """Scores ``(X - mean_) @ components_.T`` (divided by the component sds if ``whiten``)."""
        check_is_fitted(self, "components_")
        X = _validate(self, X, reset=False)
        Z = np.asarray(X @ self.components_.T) - self.mean_ @ self.components_.T
        return Z / np.sqrt(self.explained_variance_) if self.whiten else Z



# --------------------------------------------------------------------------------------------
# shrunk covariances from inner products


def _check_gram(K, name="K") -> np.ndarray:
    """A finite, square, symmetric matrix of inner products, or a clear error."""
    K = as_float_array(K, name)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square matrix of inner products (n x n); got shape {K.shape}.")
    if K.size:
        asym = np.abs(K - K.T)
        tol = 1e-8 * max(float(np.abs(K).max()), np.finfo(float).tiny)
        if asym.max() > tol:
            i, j = np.unravel_index(np.argmax(asym), K.shape)
            raise ValueError(
                f"{name} is not symmetric: {name}[{i}, {j}] = {K[i, j]:.6g} but {name}[{j}, {i}] = {K[j, i]:.6g}. "
                f"Inner products are symmetric: pass X @ X.T, or ({name} + {name}.T) / 2 if the difference is "
                "rounding error."
            )
    return K


def _check_n_features(n_features) -> int:
    return check_int(n_features, "n_features", 1, why="the dimension p of the samples")


def ledoit_wolf_shrinkage_gram(K_centred, n_features: int) -> float:
    """Ledoit-Wolf shrinkage intensity from the centred Gram matrix ``Xc Xc'`` of n samples.

    The same number as ``sklearn.covariance.ledoit_wolf_shrinkage(X)``, which needs the
    p x p matrix ``Xc' Xc``: every quantity it uses is also a function of the n x n Gram
    matrix (``trace``, ``||Xc' Xc||_F = ||Xc Xc'||_F`` and the squared row norms), which is
    far smaller when p >> n.

    Parameters
    ----------
    K_centred : ndarray (n, n)
        Inner products of the centred samples (rows minus their mean).
    n_features : int
        The dimension p of the samples.

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.covariance import ledoit_wolf_shrinkage
    >>> X = np.random.default_rng(0).normal(size=(6, 40))
    >>> Xc = X - X.mean(axis=0)
    >>> print(f"{ledoit_wolf_shrinkage_gram(Xc @ Xc.T, 40):.6f} {ledoit_wolf_shrinkage(X):.6f}")
    0.632834 0.632834
    """
    K = _check_gram(K_centred, "K_centred")
    p = _check_n_features(n_features)
    if np.any(np.diag(K) < 0):
        i = int(np.argmin(np.diag(K)))
        raise ValueError(
            f"K_centred[{i}, {i}] = {K[i, i]:.6g} is a squared norm and cannot be negative; pass the inner "
            "products Xc @ Xc.T of the centred samples."
        )
    # scaled by the largest squared norm first: sum(K**2) and the fourth powers overflow beyond ~1e154
    scale = float(np.max(np.diag(K))) if K.size else 0.0
    if scale > 0:
        K = K / scale
    return _ledoit_wolf_from_moments(np.diag(K), float(np.sum(K**2)), K.shape[0], p)


def _ledoit_wolf_from_moments(sq_norms, sq_frobenius, n, n_features) -> float:
    """Ledoit-Wolf intensity from the squared norms of the n centred samples and ``||Xc'Xc||_F^2``.

    ``||Xc'Xc||_F = ||Xc Xc'||_F``, so either Gram matrix serves (the smaller one).
    """
    n, p = int(n), int(n_features)
    if p < 1 or n < 1:
        raise ValueError(f"need n >= 1 samples and n_features >= 1; got n = {n}, n_features = {n_features}.")
    sq_norms = np.asarray(sq_norms, dtype=np.float64)
    trace = float(sq_norms.sum()) / n  # sum of the empirical (1/n) variances
    mu = trace / p
    beta_ = float(np.sum(sq_norms**2))  # sum_i |x_i|^4
    delta_ = float(sq_frobenius) / n**2  # ||emp_cov||_F^2
    beta = (beta_ / n - delta_) / (p * n)
    delta = (delta_ - 2.0 * mu * trace + p * mu**2) / p
    beta = min(beta, delta)
    return 0.0 if beta == 0 else float(beta / delta)


def _shrinkage_coefficients(covariance, sq_norms, sq_frobenius, n, n_groups, p):
    """``(a, b, s)`` of ``S = a I + b R'R`` for n residuals in g groups (see :class:`ResidualCovariance`)."""
    trace = float(np.sum(sq_norms))
    if isinstance(covariance, str):  # "ledoit_wolf", the one name accepted
        s = _ledoit_wolf_from_moments(sq_norms, sq_frobenius, n, p)
        scale = 1.0 / n  # empirical covariance R'R / n
    else:
        s = float(covariance)
        scale = 1.0 / (n - n_groups)  # sample covariance, one mean per group
    mu = trace * scale / p
    return s * mu, (1.0 - s) * scale, s


_GRAM_ACCEPTED = "'ledoit_wolf' or a float shrinkage in (0, 1]"


def _check_gram_covariance(covariance) -> None:
    """Refuse what the inner-product route cannot compute: unshrunk names, 0, estimator objects."""
    if isinstance(covariance, str):
        if covariance != "ledoit_wolf":
            why = {"oas": " 'oas' has no inner-product form here.",
                   "sample": " The unshrunk covariance of fewer residuals than dimensions is singular.",
                   "population": " The unshrunk covariance of fewer residuals than dimensions is singular."}
            raise ValueError(f"covariance must be {_GRAM_ACCEPTED}; got {covariance!r}." + why.get(covariance, ""))
        return
    if hasattr(covariance, "fit"):
        raise ValueError(
            f"covariance must be {_GRAM_ACCEPTED}; got the estimator {covariance!r}. The shrinkage is "
            "computed here from inner products of the residuals (n x n), and the d x d covariance a "
            "scikit-learn estimator would fit is never formed; for LedoitWolf() pass 'ledoit_wolf'."
        )
    if Real(0.0, 1.0, closed="right").problem(covariance) is not None:
        raise ValueError(
            f"covariance must be {_GRAM_ACCEPTED}; got {covariance!r} (0 would leave the "
            "covariance singular when there are fewer residuals than dimensions)."
        )


def shrunk_residual_covariance(R, n_groups: int = 1, covariance="ledoit_wolf", *, return_shrinkage: bool = False):
    """The dense ``d x d`` covariance ``a I + b R'R`` of residual rows ``R`` (as :class:`ResidualCovariance`).

    Cheaper than the Woodbury route when there are more residuals than dimensions (one
    ``R'R``, one Cholesky factor of size d).

    Parameters
    ----------
    R : ndarray (n, d)
        Residuals of n documents about the mean of their group (category).
    n_groups : int
        Number of group means subtracted (degrees of freedom of the sample covariance).
    covariance : "ledoit_wolf" or float in (0, 1], default="ledoit_wolf"
        The shrinkage, as in :class:`ResidualCovariance`.
    return_shrinkage : bool
        Also return the shrinkage intensity.

    Returns
    -------
    ndarray (d, d), and the intensity when asked

    Examples
    --------
    One group: the same matrix as scikit-learn's Ledoit-Wolf estimate.

    >>> import numpy as np
    >>> from sklearn.covariance import LedoitWolf
    >>> X = np.random.default_rng(1).normal(size=(30, 4)) @ np.diag([3.0, 1.0, 0.5, 0.1])
    >>> S = shrunk_residual_covariance(X - X.mean(axis=0))
    >>> bool(np.allclose(S, LedoitWolf().fit(X).covariance_))
    True
    """
    _check_gram_covariance(covariance)
    check_value(return_shrinkage, Boolean(), "return_shrinkage")  # "no" returned a tuple
    R = as_float_array(R, "R", ndim=2)
    n_groups = check_int(n_groups, "n_groups", 1, why="the group means subtracted from R")
    n, d = R.shape
    if n - n_groups < 1:
        raise ValueError(f"{n} residual(s) in {n_groups} group(s) leave no degrees of freedom for a covariance.")
    # R / scale first: R'R and its squared Frobenius norm overflow for entries beyond ~1e77
    scale = float(np.max(np.abs(R))) if R.size else 0.0
    if scale == 0:
        raise ValueError(
            "the shrunk covariance is singular: every residual in R is zero (no spread among the members). "
            "A group needs at least two distinct rows."
        )
    Rs = R / scale
    C = Rs.T @ Rs
    a, b, shrinkage = _shrinkage_coefficients(covariance, row_sq_norms(Rs), float(np.sum(C**2)), n, n_groups, d)
    C *= b * scale**2
    C[np.diag_indices(d)] += a * scale**2
    return (C, shrinkage) if return_shrinkage else C


class ResidualCovariance:
    """A shrunk covariance ``S = a I + b R'R`` of residuals, used only through inner products.

    ``R`` holds the residuals of n member vectors (rows, dimension p) about the mean of
    their group: one group gives a category's own covariance, the categories as groups give
    the pooled within-category covariance. Distances ``(x - y)' S^-1 (x - y)`` follow from
    the Woodbury identity ``S^-1 = (I - R' M^-1 R) / a`` with ``M = (a / b) I + R R'`` (n x n,
    one Cholesky factor ``L``): with ``t(x) = L^-1 R x``,
    ``(x - y)' S^-1 (x - y) = (|x - y|^2 - |t(x) - t(y)|^2) / a``. Everything needs only
    the inner products of the members with each other (``fit``) and with the query vectors
    (:meth:`project`), never a p x p matrix.

    Parameters
    ----------
    covariance : "ledoit_wolf" or float, default="ledoit_wolf"
        ``"ledoit_wolf"``: ``(1 - s) R'R / n + s mu I`` with the Ledoit-Wolf intensity ``s``
        (:func:`ledoit_wolf_shrinkage_gram`) and ``mu`` the mean variance, as
        ``sklearn.covariance.LedoitWolf`` for one group; a float ``s`` in (0, 1]:
        ``(1 - s) R'R / (n - g) + s mu I`` as ``helpers.whitening.estimate_covariance``
        (``g`` groups). The unshrunk covariance (``s = 0``) is singular whenever n - g < p and
        is refused, and so is a scikit-learn covariance estimator object: the shrinkage is
        computed from inner products, and the p x p matrix such an object fits is never formed.

    Attributes
    ----------
    a_, b_ : float
        ``S = a I + b R'R``.
    shrinkage_ : float
    n_features_, n_members_ : int
    groups_ : ndarray (n_members,) of int
        Group of each member, 0 .. n_groups - 1.
    chol_ : ndarray (n_members, n_members) or None
        Lower Cholesky factor of ``M`` (None when ``b = 0``: full shrinkage, ``S = a I``).

    Examples
    --------
    Two groups in the plane, pooled: the Mahalanobis distance of two points agrees with
    the dense inverse of the same covariance.

    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [2.0, 1.0], [4.0, 2.0], [10.0, 0.0], [12.0, 2.0]])
    >>> cov = ResidualCovariance(0.5).fit(X @ X.T, [0, 0, 0, 1, 1], n_features=2)
    >>> q = np.array([[1.0, 3.0], [5.0, 0.0]])
    >>> T, sq = cov.project(q @ X.T), (q**2).sum(axis=1)
    >>> d2 = cov.sq_distances(T, sq, T, sq, q @ q.T)
    >>> S, w = cov.dense_covariance(X), q[0] - q[1]
    >>> print(f"{d2[0, 1]:.6f} {w @ np.linalg.solve(S, w):.6f}")
    18.794702 18.794702
    """

    def __init__(self, covariance="ledoit_wolf"):
        self.covariance = covariance

    def fit(self, K, groups, n_features: int):
        """Fit from the members' inner products ``K = X X'`` (raw, not centred) and their groups.

        Parameters
        ----------
        K : ndarray (n, n)
        groups : array-like (n,)
            Group label of each member (any hashable labels).
        n_features : int
            The dimension p of the members.
        """
        _check_gram_covariance(self.covariance)
        K = _check_gram(K)
        p = _check_n_features(n_features)
        groups = np.asarray(groups)
        n = K.shape[0]
        if groups.shape != (n,):
            raise ValueError(f"groups must give one label per member: {n} members, groups of shape {groups.shape}.")
        _, g = np.unique(groups, return_inverse=True)
        n_groups = int(g.max()) + 1 if n else 0
        if n - n_groups < 1:
            raise ValueError(
                f"{n} member(s) in {n_groups} group(s) leave no residual degrees of freedom: a covariance "
                "needs at least one group with two members."
            )
        sizes = np.bincount(g, minlength=n_groups).astype(np.float64)
        A = np.zeros((n, n_groups))
        A[np.arange(n), g] = 1.0 / sizes[g]  # group-mean weights: mu = A' X
        KA = K @ A
        AKA = A.T @ KA
        if n_groups == 1:  # R R' = K - r 1' - 1 r' + |mu|^2, by broadcasting
            Kc = K - KA - KA.T + AKA[0, 0]
        else:
            Kc = K - KA[:, g] - KA[:, g].T + AKA[np.ix_(g, g)]
        # moments of Kc / m: the sum of squares overflows for inner products beyond ~1e154;
        # the shrinkage does not change with the scale, and a (a variance) scales with m
        m = max(float(np.max(np.diag(Kc))), 0.0)
        m = m if m > 0 else 1.0
        a, self.b_, self.shrinkage_ = _shrinkage_coefficients(
            self.covariance, np.diag(Kc) / m, float(np.sum((Kc / m) ** 2)), n, n_groups, p)
        self.a_ = a * m
        if self.a_ <= 0:
            raise ValueError(
                "the shrunk covariance is singular (no spread among the members: every residual is zero); "
                "a category needs at least two distinct documents."
            )
        self.n_features_, self.n_members_, self.groups_ = p, n, g
        self._A, self._KA, self._AKA = A, KA, AKA
        if self.b_ > 0:
            Kc[np.diag_indices(n)] += self.a_ / self.b_  # M = (a / b) I + R R', in place
            self.chol_ = linalg.cholesky(Kc, lower=True, check_finite=False)
        else:
            self.chol_ = None
        return self

    def project(self, C) -> np.ndarray:
        """``t(x) = L^-1 R x`` of query vectors from their inner products ``C = Q X'`` with the members.

        Returns
        -------
        ndarray (n_queries, n_members)
        """
        if not hasattr(self, "n_members_"):
            raise NotFittedError("This ResidualCovariance is not fitted yet; call fit(K, groups, n_features) first.")
        C = np.atleast_2d(as_float_array(C, "C", ndim=(1, 2)))
        if C.shape[1] != self.n_members_:
            raise ValueError(f"C must hold inner products with the {self.n_members_} members; got shape {C.shape}.")
        if self.chol_ is None:
            return np.zeros((C.shape[0], 0))
        RC = C - (C @ self._A)[:, self.groups_]  # (R q)' for each query q
        return linalg.solve_triangular(self.chol_, RC.T, lower=True, check_finite=False).T

    def project_means(self) -> np.ndarray:
        """``t(mu_g)`` of each group mean (n_groups, n_members)."""
        return self.project(self._KA.T)

    def mean_inner_products(self, C) -> np.ndarray:
        """Inner products of the queries with each group mean, from ``C = Q X'`` (n_queries, n_groups)."""
        return np.asarray(C, dtype=np.float64) @ self._A

    @property
    def means_sq_norms_(self) -> np.ndarray:
        """``|mu_g|^2`` of each group mean."""
        return np.diag(self._AKA).copy()

    def sq_distances(self, T_q, q_sq, T_p, p_sq, G_qp) -> np.ndarray:
        """Squared Mahalanobis distances between queries and points (n_q, n_p).

        Parameters
        ----------
        T_q, T_p : ndarray
            :meth:`project` of the queries and of the points.
        q_sq, p_sq : ndarray
            Squared Euclidean norms of the queries and of the points.
        G_qp : ndarray (n_q, n_p)
            Their inner products.
        """
        # |q - p|^2 - |t(q) - t(p)|^2, each by the expanded formula, clipped once at the end
        # (in eu2's own array, a block of rows at a time, where the types allow: the same operations
        # without two more n_q x n_p temporaries and with one pass over the memory instead of three)
        eu2 = sq_distances_from_inner(q_sq, p_sq, G_qp, clip=False)
        t2 = sq_euclidean(T_q, T_p, clip=False) if T_q.shape[1] else None
        same = t2 is None or (t2.dtype, t2.shape) == (eu2.dtype, eu2.shape)
        if eu2.dtype != np.float64 or eu2.ndim != 2 or not same:
            return np.maximum(eu2 if t2 is None else eu2 - t2, 0.0) / self.a_
        for rows in cache_row_blocks(*eu2.shape):
            block = eu2[rows]
            if t2 is not None:
                np.subtract(block, t2[rows], out=block)
            np.maximum(block, 0.0, out=block)
            np.divide(block, self.a_, out=block)
        return eu2

    def sq_distances_to_means(self, C, q_sq) -> np.ndarray:
        """Squared Mahalanobis distances of the queries to each group mean (n_q, n_groups)."""
        return self.sq_distances(self.project(C), q_sq, self.project_means(), self.means_sq_norms_,
                                 self.mean_inner_products(C))

    def dense_covariance(self, X) -> np.ndarray:
        """The dense p x p covariance ``a I + b R'R`` from the members ``X`` (for checks on small p)."""
        if not hasattr(self, "n_members_"):
            raise NotFittedError("This ResidualCovariance is not fitted yet; call fit(K, groups, n_features) first.")
        X = as_float_array(X, "X", ndim=2)
        if X.shape != (self.n_members_, self.n_features_):  # another width gave another matrix without a word
            raise ValueError(
                f"X must hold the {self.n_members_} members of {self.n_features_} features whose inner products "
                f"K = X X' were fitted, one row each; got shape {X.shape}. Pass the same X as for fit."
            )
        R = X - (self._A.T @ X)[self.groups_]
        return self.a_ * np.eye(X.shape[1]) + self.b_ * (R.T @ R)


