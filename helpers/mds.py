"""Classical MDS from distance or similarity matrices, with R ``cmdscale``-grade diagnostics.

Lecture notes on multivariate statistics, section 6.2 "Similarity measures": a similarity matrix
``F`` (Definition 6.4: symmetric, ``f_ij <= f_ii``) gives distances
``d_ij = sqrt(f_ii + f_jj - 2 f_ij)`` (6.6) and the centred inner-product matrix ``B = H F H``
(6.7, Proposition 6.2), which equals ``-1/2 H (D o D) H``.

What scikit-learn's ``ClassicalMDS`` and scikit-bio's ``pcoa`` do not give and this module does:
similarity input, the full spectrum with its negative eigenvalues, R's goodness of fit pair
``(g1, g2)``, Gower's out-of-sample placement and Cailliez's additive constant. The binary
similarity matrices it is usually fed come from :func:`helpers.binary.binary_similarity`.

Memory: these functions take an ``n x n`` matrix and work on it as a whole (double centring,
the eigendecomposition), so they hold a few ``n x n`` float64 arrays at once: 0.2 GiB each at
n = 5,000, 3 GiB at n = 20,000. That is their nature, not a chunking left undone; unlike the
kNN and PCA paths of the package (bounded by scikit-learn's ``working_memory`` or by
``O(n p)``), they are meant for the few thousand objects a similarity matrix is built on.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackNoConvergence, eigsh
from scipy.spatial import procrustes

from ._validation import as_float_array, check_int, check_real, check_square_matrix

__all__ = [
    "DISTANCE_RTOL",
    "SIMILARITY_RTOL",
    "MDSResult",
    "cailliez_constant",
    "check_similarity_matrix",
    "classical_mds",
    "double_center",
    "pca_resampling_disparities",
    "place_new_points",
    "proposition_6_2_residuals",
    "similarity_to_distance",
]


#: Rounding tolerated in a distance matrix, relative to its largest entry: a diagonal entry,
#: a negative entry or an asymmetry up to ``DISTANCE_RTOL * max|D|`` is taken for noise (and
#: cleaned: diagonal set to 0, negatives to 0, ``(D + D.T) / 2``). Distances computed as
#: ``sqrt(|x|^2 + |y|^2 - 2 x'y)`` carry about ``sqrt(eps) |x| = 1.5e-8 |x|`` on the diagonal.
DISTANCE_RTOL = 1e-6
#: Rounding tolerated in a similarity matrix (symmetry and ``f_ij <= f_ii``), relative to its
#: largest entry; similarities carry rounding of about ``eps = 2.2e-16`` relative.
SIMILARITY_RTOL = 1e-8
# Above this many objects the smallest eigenvalue comes from Lanczos (falling back to the dense
# solver if it does not converge); scipy.linalg.eigvalsh(subset_by_index=[0, 0]) takes about
# 0.15 s at n = 1,500, 1.7 s at 3,000 and 9 s at 5,000 on one thread.
_DENSE_MAX = 4000


def _square(M, name: str) -> np.ndarray:
    arr = as_float_array(M, name, ndim=2)
    check_square_matrix(arr, name)
    if arr.shape[0] < 2:
        raise ValueError(f"{name} must describe at least 2 objects; got shape {arr.shape}.")
    return arr


def _check_tolerances(atol, rtol) -> None:
    for name, value in (("atol", atol), ("rtol", rtol)):
        check_real(value, name, f"{name}=1e-8", low=0.0)


def _check_definition_6_4(F, atol: float = 1e-10, labels=None, rtol: float = SIMILARITY_RTOL) -> np.ndarray:
    """Definition 6.4 only (square, finite, symmetric, ``f_ij <= f_ii``) up to rounding.

    Tolerance ``atol + rtol * max|F|``; returns ``(F + F.T) / 2`` as floats.
    """
    _check_tolerances(atol, rtol)
    F = _square(F, "F")
    n = F.shape[0]
    names = list(labels) if labels is not None else list(range(n))
    if len(names) != n:
        raise ValueError(f"labels has {len(names)} names for a {n} x {n} matrix; pass one per row.")
    tol = atol + rtol * float(np.abs(F).max())
    tol_text = f"tolerance {tol:.3g} = atol + rtol * max|F| with atol={atol:g}, rtol={rtol:g}"
    iu, ju = np.triu_indices(n, 1)
    gap = np.abs(F[iu, ju] - F[ju, iu])
    asym = gap > tol
    if asym.any():
        ex = "; ".join(
            f"({names[i]}, {names[j]}): {F[i, j]:.4g} vs {F[j, i]:.4g}" for i, j in zip(iu[asym][:5], ju[asym][:5])
        )
        raise ValueError(
            f"F is not symmetric: {int(asym.sum())} pair(s) with f_ij != f_ji, e.g. {ex}. "
            f"Largest |f_ij - f_ji| = {gap.max():.3g} ({tol_text}). "
            "Fix the typo or symmetrise with (F + F.T) / 2."
        )
    diag = np.diag(F)
    excess = F - diag[:, None]
    over = excess > tol
    if over.any():
        ii, jj = np.nonzero(over)
        ex = "; ".join(
            f"f[{names[i]}, {names[j]}] = {F[i, j]:.4g} > f[{names[i]}, {names[i]}] = {diag[i]:.4g}"
            for i, j in zip(ii[:5], jj[:5])
        )
        raise ValueError(
            f"F violates f_ij <= f_ii in {int(over.sum())} entries, e.g. {ex}. Largest excess "
            f"f_ij - f_ii = {excess.max():.3g} ({tol_text}). "
            "An object must be at least as similar to itself as to any other."
        )
    return (F + F.T) / 2.0


def _smallest_eigenvalue(F: np.ndarray) -> float:
    """The smallest eigenvalue of symmetric ``F``: dense LAPACK, or Lanczos for very large ``n``."""
    n = F.shape[0]
    if n > _DENSE_MAX:  # Lanczos: O(n^2) per step instead of O(n^3); dense if it stalls
        v0 = np.random.default_rng(0).standard_normal(n)
        try:
            return float(eigsh(F, k=1, which="SA", v0=v0, tol=1e-10, maxiter=50 * int(np.sqrt(n)),
                               return_eigenvectors=False)[0])
        except ArpackNoConvergence:
            pass
    return float(linalg.eigvalsh(F, subset_by_index=[0, 0])[0])


def check_similarity_matrix(F, *, atol: float = 1e-10, labels=None, rtol: float = SIMILARITY_RTOL) -> dict:
    """Check Definition 6.4 (symmetry, ``f_ij <= f_ii``) and report positive semi-definiteness.

    Parameters
    ----------
    F : array-like of shape (n, n)
    atol : float, default=1e-10
        Absolute part of the tolerance for symmetry and for ``f_ij <= f_ii``, and the tolerance
        for "non-negative" eigenvalues (times ``max(1, max|f_ii|)``).
    labels : sequence of str, optional
        Names used in the error messages (default: indices).
    rtol : float, default=SIMILARITY_RTOL (1e-8)
        Relative part: a gap up to ``atol + rtol * max|F|`` is rounding, not a violation.

    Returns
    -------
    dict
        ``{"psd": bool, "min_eigenvalue": float}``. A matrix that is not PSD is still a
        similarity matrix (6.6 then gives distances that need not be Euclidean); a warning says so.
        The smallest eigenvalue comes from ``scipy.linalg.eigvalsh`` (0.15 s at n = 1,500);
        beyond 4,000 objects from Lanczos, with the dense solver as fallback.

    Raises
    ------
    ValueError
        Not square, non-finite, not symmetric, or ``f_ij > f_ii`` beyond the tolerance; the
        message lists up to five offending pairs, the largest violation and the tolerance.

    Examples
    --------
    >>> check_similarity_matrix([[1, 0.5], [0.5, 1]])["psd"]
    True
    >>> check_similarity_matrix([[1, 0.5], [0.2, 1]])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: F is not symmetric: 1 pair(s) with f_ij != f_ji, e.g. (0, 1): 0.5 vs 0.2.
    Largest |f_ij - f_ji| = 0.3 (tolerance 1.01e-08 = atol + rtol * max|F| with atol=1e-10, rtol=1e-08).
    Fix the typo or symmetrise with (F + F.T) / 2.
    """
    F = _check_definition_6_4(F, atol, labels, rtol)
    diag = np.diag(F)
    lam_min = _smallest_eigenvalue(F)
    psd = lam_min >= -atol * max(1.0, float(np.abs(diag).max()))
    if not psd:
        warnings.warn(
            f"F is a similarity matrix but not positive semi-definite (most negative eigenvalue {lam_min:.4g}); "
            "the distances (6.6) are then not Euclidean.",
            stacklevel=2,
        )
    return {"psd": bool(psd), "min_eigenvalue": lam_min}


def similarity_to_distance(F) -> np.ndarray:
    """Distances ``d_ij = sqrt(f_ii + f_jj - 2 f_ij)`` from a similarity matrix (notes eq. 6.6).

    Raises ValueError when ``F`` is not a similarity matrix (see :func:`check_similarity_matrix`).

    Examples
    --------
    >>> D = similarity_to_distance([[1, 0.5], [0.5, 1]])
    >>> print(f"{D[0, 1]:.4f}")
    1.0000
    """
    F = _check_definition_6_4(F)
    d = np.diag(F)
    sq = d[:, None] + d[None, :] - 2 * F
    return np.sqrt(np.clip(sq, 0.0, None))


def double_center(M) -> np.ndarray:
    """``H M H`` with ``H = I - 11'/n``, computed by subtracting row and column means.

    Examples
    --------
    >>> print(np.round(double_center([[0, 1], [1, 0]]), 2))
    [[-0.5  0.5]
     [ 0.5 -0.5]]
    """
    M = _square(M, "M")
    M = M - M.mean(axis=0, keepdims=True)
    return M - M.mean(axis=1, keepdims=True)


@dataclass
class MDSResult:
    """Classical MDS output, mirroring R's ``cmdscale(..., eig=TRUE)``.

    Attributes
    ----------
    embedding : ndarray (n, k)
        Coordinates ``U_k Lambda_k^(1/2)``; sign convention: in each column the entry of largest
        absolute value is positive.
    eigenvalues : ndarray (n,) or None
        All eigenvalues of ``B``, descending, negative ones included (None when the full spectrum
        was not computed, see ``full_spectrum``).
    top_eigenvalues : ndarray (k,)
    gof : tuple (g1, g2) or None
        ``g1 = sum(top k) / sum|lambda|`` and ``g2 = sum(top k) / sum max(lambda, 0)``, as R.
    n_negative : int or None
        Eigenvalues below ``-1e-10 * max|lambda|``.
    negative_share : float or None
        ``sum|negative lambda| / sum|lambda|``.
    trace : float
        ``trace(B)`` = sum of all eigenvalues (always available).
    B : ndarray (n, n)
        The double-centred matrix.
    additive_constant : float
        The Cailliez constant added to the off-diagonal distances (``add=True``), else 0,
        as R's ``cmdscale(..., add=TRUE)$ac``.
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray | None
    top_eigenvalues: np.ndarray
    gof: tuple | None
    n_negative: int | None
    negative_share: float | None
    trace: float
    B: np.ndarray
    additive_constant: float = 0.0


def _check_distances(D, rtol: float = DISTANCE_RTOL) -> np.ndarray:
    """``D`` as a clean distance matrix: rounding up to ``rtol * max|D|`` tolerated, then removed.

    Negative entries, a non-zero diagonal or an asymmetry beyond that are refused, the
    message giving the largest violation and the tolerance.
    """
    _check_tolerances(0.0, rtol)
    D = _square(D, "D")
    scale = float(np.abs(D).max())
    tol = rtol * scale
    tol_text = f"tolerance {tol:.3g} = rtol * max|D| with rtol={rtol:g}"
    if np.any(D < -tol):
        i, j = np.unravel_index(np.argmin(D), D.shape)
        raise ValueError(
            f"D holds {int((D < -tol).sum())} negative entries, the most negative D[{i}, {j}] = {D[i, j]:.4g} "
            f"({tol_text}); distances are non-negative. For similarities use classical_mds(F=...)."
        )
    diag = np.abs(np.diag(D))
    if np.any(diag > tol):
        i = int(np.argmax(diag))
        raise ValueError(
            f"D must have a zero diagonal (each object is at distance 0 from itself); the largest is "
            f"D[{i}, {i}] = {D[i, i]:.4g} ({tol_text}). For similarities use classical_mds(F=...); for "
            "distances with a larger rounding error set the diagonal to 0 (np.fill_diagonal(D, 0)) or raise rtol."
        )
    gap = np.abs(D - D.T)
    if np.any(gap > tol):
        i, j = np.unravel_index(np.argmax(gap), D.shape)
        raise ValueError(
            f"D is not symmetric: entries ({i}, {j}) and ({j}, {i}) differ ({D[i, j]:.6g} vs {D[j, i]:.6g}; "
            f"largest |d_ij - d_ji| = {gap[i, j]:.3g}, {tol_text}). "
            "Pass (D + D.T) / 2 if the asymmetry is rounding error."
        )
    D = np.clip((D + D.T) / 2.0, 0.0, None)
    np.fill_diagonal(D, 0.0)
    return D


def cailliez_constant(D) -> float:
    """The smallest constant ``c`` that makes ``d_ij + c`` (i != j) a Euclidean distance matrix.

    Cailliez (1983): ``c`` is the largest real eigenvalue of the ``2n x 2n`` matrix
    ``[[0, 2 B1], [-I, -4 B2]]`` with ``B1 = -1/2 H (D o D) H`` and ``B2 = -1/2 H D H``; the
    same computation as R's ``cmdscale(..., add = TRUE)``. It needs a dense non-symmetric
    eigensolver on ``2n x 2n``: fine for a few hundred objects, slow beyond ~2,000.

    Examples
    --------
    Three "points" breaking the triangle inequality (1 + 1 < 3): adding c = 1 gives
    2 + 2 = 4, three points on a line, the least that is Euclidean.

    >>> D = np.array([[0, 1, 3], [1, 0, 1], [3, 1, 0]], float)
    >>> c = cailliez_constant(D)
    >>> print(f"{c:.4f}")
    1.0000
    """
    D = _check_distances(D)
    n = D.shape[0]
    B1 = -0.5 * double_center(D**2)
    B2 = -0.5 * double_center(D)
    Z = np.zeros((2 * n, 2 * n))
    Z[:n, n:] = 2 * B1
    Z[n:, :n] = -np.eye(n)
    Z[n:, n:] = -4 * B2
    return float(np.max(linalg.eigvals(Z).real))


def classical_mds(
    D=None, *, F=None, n_components: int = 2, full_spectrum: bool | None = None, add: bool = False,
    rtol: float | None = None,
) -> MDSResult:
    """Classical (Torgerson-Gower) MDS of a distance matrix ``D`` or a similarity matrix ``F``.

    ``B = -1/2 H (D o D) H`` from distances, ``B = H F H`` from similarities (notes 6.7). The top
    ``n_components`` eigenpairs come from ``scipy.linalg.eigh(subset_by_index=...)`` for
    n <= 1000 and from ARPACK's Lanczos ``scipy.sparse.linalg.eigsh`` above (n = 5,000: about a
    second), with the dense solver as fallback when Lanczos does not converge.

    Parameters
    ----------
    D, F : array-like (n, n)
        Give exactly one.
    n_components : int, default=2
    full_spectrum : bool or None
        Compute all ``n`` eigenvalues (needed for ``eigenvalues``, ``gof`` and the negative
        counts). None (default) means ``n <= 3000`` (full ``eigvalsh`` at n = 3000 takes a few
        seconds on one thread; at n = 5000 about four times longer). When False those fields are
        None; ``trace`` still gives the sum of all eigenvalues.
    add : bool, default=False
        Add the Cailliez constant (:func:`cailliez_constant`) to the off-diagonal distances
        first, so that no eigenvalue is negative (R's ``add = TRUE``). Distances only.
    rtol : float, optional
        Rounding tolerated, relative to the largest entry: :data:`DISTANCE_RTOL` (1e-6) for
        ``D`` (diagonal, negative entries, asymmetry; such noise is then removed) and
        :data:`SIMILARITY_RTOL` (1e-8) for ``F`` (symmetry, ``f_ij <= f_ii``).

    Returns
    -------
    MDSResult

    Raises
    ------
    ValueError
        Both or neither of ``D`` and ``F``; ``D`` not a distance matrix (negative entries,
        non-zero diagonal, asymmetric beyond ``rtol * max|D|``) or ``F`` not a similarity matrix
        (see :func:`check_similarity_matrix`); NaN or inf; ``n_components`` outside ``[1, n]``.

    Examples
    --------
    >>> X = np.array([[0.0, 0], [3, 0], [0, 4]])
    >>> from scipy.spatial.distance import cdist
    >>> res = classical_mds(cdist(X, X))
    >>> print(np.round(res.eigenvalues[:2], 3))
    [12.964  3.703]
    >>> print(f"{res.gof[0]:.3f} {res.gof[1]:.3f}")
    1.000 1.000
    """
    if (D is None) == (F is None):
        raise ValueError(
            "Pass exactly one of D (distances) or F (similarities), e.g. classical_mds(D) or classical_mds(F=S)."
        )
    constant = 0.0
    if D is not None:
        D = _check_distances(D, DISTANCE_RTOL if rtol is None else rtol)
        if add:
            constant = cailliez_constant(D)
            D = D + constant * (1 - np.eye(D.shape[0]))
        B = -0.5 * double_center(D**2)
    else:
        if add:
            raise ValueError("add=True applies to distances; pass classical_mds(similarity_to_distance(F), add=True).")
        B = double_center(_check_definition_6_4(F, rtol=SIMILARITY_RTOL if rtol is None else rtol))
    B = (B + B.T) / 2
    n = B.shape[0]
    k = check_int(n_components, "n_components", 1, maximum=n)
    if full_spectrum is None:
        full_spectrum = n <= 3000
    if n > 1000 and k < n // 10:
        # Lanczos (ARPACK) for the top k: O(n^2) per iteration instead of eigh's O(n^3)
        # tridiagonalisation (n = 5,000: ~1 s instead of ~30 s). Fixed start vector (not the
        # ones vector, which B annihilates) keeps it deterministic.
        # If ARPACK stalls (clustered eigenvalues), the dense solver below answers instead.
        v0 = np.random.default_rng(0).standard_normal(n)
        try:
            vals, vecs = eigsh(B, k=k, which="LA", v0=v0, tol=1e-12, maxiter=50 * int(np.sqrt(n)))
            order = np.argsort(vals)[::-1]
            vals, vecs = vals[order], vecs[:, order]
        except ArpackNoConvergence:
            vals = None
    else:
        vals = None
    if vals is None:
        vals, vecs = linalg.eigh(B, subset_by_index=[n - k, n - 1])
        vals, vecs = vals[::-1], vecs[:, ::-1]
    big = np.argmax(np.abs(vecs), axis=0)
    vecs = vecs * np.sign(vecs[big, np.arange(k)])
    positive = vals > 1e-10 * max(abs(float(vals[0])), 1e-300)
    if not positive.all():
        warnings.warn(
            f"only {int(positive.sum())} of the {k} requested eigenvalues are positive; "
            "the remaining coordinates are set to 0 (as R's cmdscale). Ask for fewer n_components.",
            stacklevel=2,
        )
    emb = vecs * np.sqrt(np.where(positive, vals, 0.0))  # gof below uses the raw values, as R
    eig = gof = n_neg = neg_share = None
    if full_spectrum:
        eig = linalg.eigvalsh(B)[::-1]
        absum = np.abs(eig).sum()
        top = vals.sum()
        gof = (float(top / absum), float(top / np.clip(eig, 0, None).sum()))
        neg = eig < -1e-10 * np.abs(eig).max()
        n_neg = int(neg.sum())
        neg_share = float(np.abs(eig[neg]).sum() / absum)
    return MDSResult(emb, eig, vals, gof, n_neg, neg_share, float(np.trace(B)), B, constant)


def place_new_points(result: MDSResult, d_new) -> np.ndarray:
    """Gower's (1968) out-of-sample formula: coordinates of new points from their distances.

    ``x = 1/2 Lambda_k^-1 X' (b - d^2)`` with ``X`` the embedding and ``b = diag(B)``; an
    original point is put back exactly where it was.

    Parameters
    ----------
    result : MDSResult
    d_new : array-like (m, n)
        Distances of ``m`` new points to the ``n`` original points.

    Examples
    --------
    >>> from scipy.spatial.distance import cdist
    >>> X = np.array([[0.0, 0], [3, 0], [0, 4], [1, 1]])
    >>> res = classical_mds(cdist(X, X))
    >>> print(np.allclose(place_new_points(res, cdist(X[:1], X)), res.embedding[:1]))
    True
    """
    d_new = np.atleast_2d(as_float_array(d_new, "d_new", ndim=(1, 2)))
    if np.any(d_new < 0):
        raise ValueError(
            f"d_new holds negative distances (minimum {d_new.min():.4g}); pass distances |x - y|, not differences."
        )
    n = result.B.shape[0]
    if d_new.shape[1] != n:
        raise ValueError(f"d_new must have one column per original point ({n}); got shape {d_new.shape}.")
    lam = result.top_eigenvalues
    if np.any(lam <= 0):
        raise ValueError("Some kept eigenvalues are not positive; refit with fewer n_components.")
    if result.additive_constant:  # the fit added c to every distance between distinct objects
        d_new = d_new + result.additive_constant
    b = np.diag(result.B)
    return 0.5 * (b[None, :] - d_new**2) @ result.embedding / lam[None, :]


def pca_resampling_disparities(
    X, *, n_components: int = 2, n_resamples: int = 200, random_state: int = 0
) -> np.ndarray:
    """How far a PCA map moves when the same objects are mapped by PCA fitted to a resample.

    The reference map is the PCA scores of ``X``. For each bootstrap resample of the rows of
    ``X`` (drawn with replacement), PCA is refitted on the resample and *all* rows of ``X`` are
    projected on its axes; the Procrustes disparity (``scipy.spatial.procrustes``: the sum of
    squared differences after optimal translation, scaling, rotation and reflection of
    standardised maps, in [0, 1]) between that map and the reference is recorded. The
    resulting values are the disparities that sampling the objects alone produces: two maps
    of the same objects whose disparity lies among them do not differ beyond that noise.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    n_components : int, default=2
        Dimensions of the maps.
    n_resamples : int, default=200
        Bootstrap resamples.
    random_state : int, default=0
        Seeds the resampling (and scikit-learn's randomized SVD, used for the refits).

    Returns
    -------
    ndarray of shape (n_resamples,)
        Procrustes disparities, each in [0, 1].

    Examples
    --------
    Points spread mostly along one axis: refitting on resamples barely moves the map.

    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3)) * [5.0, 2.0, 0.1]
    >>> d = pca_resampling_disparities(X, n_resamples=20)
    >>> d.shape, bool(d.max() < 0.01)
    ((20,), True)
    """
    from sklearn.decomposition import PCA

    X = as_float_array(X, "X", ndim=2)
    n = X.shape[0]
    n_resamples = check_int(n_resamples, "n_resamples", 1, "n_resamples=100")
    n_components = check_int(n_components, "n_components", 1, maximum=min(X.shape) - 1, why=f"for X of shape {X.shape}")
    reference = PCA(n_components, svd_solver="full").fit_transform(X)
    rng = np.random.default_rng(random_state)
    out = np.empty(n_resamples)
    for b in range(n_resamples):
        rows = rng.integers(0, n, n)
        refit = PCA(n_components, svd_solver="randomized", random_state=random_state).fit(X[rows])
        out[b] = procrustes(reference, refit.transform(X))[2]
    return out


def proposition_6_2_residuals(F) -> dict:
    """Each step of the proof of Proposition 6.2 (lecture notes section 6.2), checked on ``F``.

    With ``f = diag(F)``, ``t = mean(f)``, ``D`` from (6.6) and ``A = -1/2 D o D``, every step
    is an identity ``left = right``; the value returned for it is ``max |left - right|``
    (0 up to rounding when the step holds). Two entries are not residuals:
    ``"min f_ii + f_jj - 2 f_ij"`` over ``i != j`` (non-negative when the ``d_ij`` are real;
    the diagonal gives 0) and
    ``"min eigenvalue of HFH"`` (non-negative when ``B`` is positive semi-definite).

    Parameters
    ----------
    F : array-like of shape (n, n)
        A similarity matrix (Definition 6.4); ValueError otherwise.

    Returns
    -------
    dict
        ``{step: value}`` in the order of the proof: the two minima above, ``"D distance
        matrix"`` (asymmetry, diagonal and negative entries of ``D``), ``"a_ij"``,
        ``"row means"``, ``"column means"``, ``"grand mean"``, ``"property (vii)"``
        (``HAH`` against ``a_ij - a_i+ - a_+j + a_++``), ``"b_ij"`` (that against
        ``f_ij - f_i+ - f_+j + f_++``), ``"(6.7)"`` (``-1/2 H(D o D)H`` against ``HFH``) and
        ``"(6.6) Euclidean"`` (squared distances between the rows of ``U Lambda^(1/2)``, all
        positive eigenpairs of ``HFH``, against ``D o D``).

    Examples
    --------
    >>> F = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]])
    >>> r = proposition_6_2_residuals(F)
    >>> print(f"{r['min f_ii + f_jj - 2 f_ij']:.1f}", r["min eigenvalue of HFH"] > -1e-12)
    1.0 True
    >>> all(v < 1e-12 for k, v in r.items() if not k.startswith("min"))
    True
    """
    F = _check_definition_6_4(F)
    n = F.shape[0]
    f = np.diag(F)
    t = f.mean()
    gap = f[:, None] + f[None, :] - 2 * F  # l. 32: f_ii + f_jj - 2 f_ij
    D = similarity_to_distance(F)  # (6.6)
    A = -0.5 * D**2  # l. 34
    a_row, a_col, a_all = A.mean(axis=1), A.mean(axis=0), A.mean()
    f_row, f_col, f_all = F.mean(axis=1), F.mean(axis=0), F.mean()
    H = np.eye(n) - np.ones((n, n)) / n
    B_vii = A - a_row[:, None] - a_col[None, :] + a_all  # property (vii)
    B_f = F - f_row[:, None] - f_col[None, :] + f_all
    HFH = H @ F @ H
    lam, U = linalg.eigh((HFH + HFH.T) / 2)
    keep = lam > 1e-12 * max(abs(lam).max(), 1e-300)
    Z = U[:, keep] * np.sqrt(lam[keep])
    sq = np.sum(Z**2, axis=1)
    Z_sq = sq[:, None] + sq[None, :] - 2 * Z @ Z.T

    def worst(M):
        return float(np.abs(M).max())

    return {
        "min f_ii + f_jj - 2 f_ij": float(gap[~np.eye(n, dtype=bool)].min()),
        "D distance matrix": max(worst(D - D.T), worst(np.diag(D)), float(np.clip(-D, 0, None).max())),
        "a_ij": worst(A - (F - 0.5 * (f[:, None] + f[None, :]))),
        "row means": worst(a_row - (f_row - 0.5 * (f + t))),
        "column means": worst(a_col - (f_col - 0.5 * (f + t))),
        "grand mean": abs(float(a_all - (f_all - 0.5 * (t + t)))),
        "property (vii)": worst(H @ A @ H - B_vii),
        "b_ij": worst(B_vii - B_f),
        "(6.7)": worst(-0.5 * H @ (D**2) @ H - HFH),
        "min eigenvalue of HFH": float(lam.min()),
        "(6.6) Euclidean": worst(Z_sq - D**2),
    }
