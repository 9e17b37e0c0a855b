"""Section 2.2.1's PCA (Eqs 1-5) fitted and checked, and Section 2.3's scale invariance.

:func:`fit_pca` is the dimensionality reduction phase (Section 2.4.2) on the training documents;
:func:`pca_residuals` measures how far the fit is from each of Eqs 1-5 and :func:`pca_claims` turns
that into the answers to the paper's items; :func:`scale_invariance`
rescales every coordinate and measures how the Mahalanobis and Euclidean distances change
(line 146). :func:`components_by_vocabulary` counts the components that 90% of the variance needs
when the vocabulary is cut by a weight threshold, the step whose threshold the paper does not give;
:func:`least_squares` compares the projection on the leading axes with other projections (lines 98-100).
:func:`below` prints a residual as the bound it is under, never at rounding noise.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..._validation import check_positive_ints, check_real
from ...display import rounding_level
from ...gram import GramPCA
from ...whitening import estimate_covariance

__all__ = ["KEYWORD_COUNTS", "components_by_vocabulary", "fit_pca", "keyword_order", "least_squares",
           "pca_claims", "pca_residuals", "scale_invariance", "sq_mahalanobis"]


#: vocabulary sizes at which :func:`components_by_vocabulary` counts the components (the paper gives no threshold)
KEYWORD_COUNTS = (250, 500, 1000, 2000)


def fit_pca(X_train, X_test, variance: float, dtype=np.float32, verbose=None):
    """PCA of the training documents to a fraction of their variance; both sets re-expressed (lines 265-267).

    The exact PCA of a matrix with more words than documents: the eigendecomposition of the
    documents' Gram matrix (:class:`helpers.gram.GramPCA`), fitted without labels.

    Returns
    -------
    pca : GramPCA
        The fit; ``n_components_`` is the number of components the fraction needs.
    scores_train, scores_test : ndarray
        The documents' coordinates on those components.
    seconds : float
        The time the fit and the two transforms took.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(20, 50))
    >>> pca, Z_train, Z_test, _ = fit_pca(X[:15], X[15:], 0.5, dtype=np.float64, verbose=False)
    >>> pca.n_components_, Z_train.shape, Z_test.shape
    (5, (15, 5), (5, 5))
    """
    start = time.perf_counter()
    pca = GramPCA(n_components=variance, dtype=dtype, verbose=verbose).fit(X_train)
    scores_train, scores_test = pca.transform(X_train), pca.transform(X_test)
    return pca, scores_train, scores_test, time.perf_counter() - start


def components_by_vocabulary(counts, n_keywords=KEYWORD_COUNTS, variance: float = 0.9) -> pd.DataFrame:
    """Components that ``variance`` of the TF-IDF variance needs, when only the heaviest keywords are kept.

    The paper eliminates the keywords whose weight lies below a threshold it does not give
    (lines 37, 235). For each ``n`` of ``n_keywords``: the weights TF x log2(N / n_j) (line 77)
    of the training documents, the ``n`` stems with the largest total weight kept, each
    document scaled to unit length (as the notebook does), and the eigenvalues of the
    covariance of the ``n`` stems (Eq. 3 read as B'B), from which the fewest components that
    keep ``variance``.

    Parameters
    ----------
    counts : array or sparse matrix (documents, stems)
        Term counts of the training documents.
    n_keywords : iterable of int
        Vocabulary sizes (at most a few thousand: the covariance is dense, n x n).
    variance : float
        The fraction of the variance to keep (the paper's 90%).

    Returns
    -------
    DataFrame
        Indexed by ``keywords``: ``components`` (the fewest that keep ``variance``) and
        ``empty documents`` (training documents left with no kept stem).

    Examples
    --------
    >>> counts = np.array([[3, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, 0], [0, 0, 2, 2], [2, 1, 1, 0]])
    >>> components_by_vocabulary(counts, [1, 2, 4], 0.9)["components"].to_dict()
    {1: 1, 2: 1, 4: 2}
    >>> int(components_by_vocabulary(counts, [1], 0.9).loc[1, "empty documents"])  # documents without the first stem
    2
    """
    weights = _stem_weights(counts).tocsc()
    n_docs, n_stems = weights.shape
    sizes = sorted(set(check_positive_ints(n_keywords, "n_keywords", "[500, 1000, 2000]", maximum=n_stems,
                                           why="stems in the vocabulary")))
    variance = check_real(variance, "variance", "0.9", 0, 1, closed="right")
    order = _heaviest_first(weights)
    rows = {}
    for n in sizes:
        X = weights[:, order[:n]].tocsr()
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        X = sp.diags(np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)) @ X
        mean = np.asarray(X.mean(axis=0)).ravel()
        cov = ((X.T @ X).toarray() - n_docs * np.outer(mean, mean)) / (n_docs - 1)
        eig = np.clip(np.linalg.eigvalsh(cov)[::-1], 0, None)
        cum = np.cumsum(eig) / eig.sum()
        rows[n] = {"components": int(np.searchsorted(cum, variance - 1e-12) + 1),
                   "empty documents": int((norms == 0).sum())}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("keywords")


def _stem_weights(counts) -> sp.csr_matrix:
    """TF x log2(N / n_j) of the training documents' counts, not yet at unit length (line 77)."""
    counts = sp.csr_matrix(counts, dtype=np.float64, copy=True)  # its own index arrays: the input stays as it was
    df = np.asarray((counts > 0).sum(axis=0)).ravel()
    return counts.multiply(np.log2(counts.shape[0] / np.maximum(df, 1))).tocsr()


def _heaviest_first(weights) -> np.ndarray:
    return np.argsort(-np.asarray(weights.sum(axis=0)).ravel(), kind="stable")


def keyword_order(counts) -> np.ndarray:
    """The stems by their total weight TF x log2(N/n_j) over the training documents, heaviest first.

    The order in which :func:`components_by_vocabulary` keeps them.

    Examples
    --------
    >>> keyword_order(np.array([[3, 0, 1], [0, 2, 0], [1, 1, 0]])).tolist()
    [0, 1, 2]
    """
    return _heaviest_first(_stem_weights(counts))


def least_squares(pca, X, dims=(10, 100), n_others: int = 5, tilt: float = 0.2, random_state: int = 0) -> dict:
    """Mean squared distance of the documents to their projection on the first d axes, and on other d-subspaces.

    Lines 98-100: PCA is the linear projection that minimises the mean squared distance
    between the data points and their projections. For each d of ``dims`` the distance on
    the first d principal axes is compared with ``n_others`` random d-dimensional subspaces
    and ``n_others`` slight tilts of the axes (each axis plus ``tilt`` times a random direction,
    re-orthonormalised): the minimum must be the principal one.

    Parameters
    ----------
    pca : fitted GramPCA (``mean_``, ``components_``)
    X : array or sparse matrix (n, p)
        The documents it was fitted on.

    Returns
    -------
    dict
        ``{d: {"principal", "random", "tilted"}}``: the mean squared distance on the principal
        axes, and the smallest on a random subspace and on a tilted one.

    Examples
    --------
    >>> from helpers.gram import GramPCA
    >>> X = np.random.default_rng(0).normal(size=(40, 6)) * [5, 3, 2, 1, 1, 1]
    >>> out = least_squares(GramPCA(3).fit(X), X, dims=[1, 3])
    >>> all(v["principal"] < min(v["random"], v["tilted"]) for v in out.values())
    True
    """
    rng = np.random.default_rng(random_state)
    n, p = X.shape
    mean = np.asarray(pca.mean_, dtype=np.float64)
    total = float(X.multiply(X).sum() if sp.issparse(X) else np.sum(np.square(X))) - n * float(mean @ mean)

    def msd(Q):  # Q (p, d) orthonormal: (||B||^2 - ||B Q||^2) / n with B = X - 1 mean'
        BQ = np.asarray(X @ Q) - np.outer(np.ones(n), mean @ Q)
        return (total - float(np.sum(BQ**2))) / n

    out = {}
    for d in dims:
        V = np.asarray(pca.components_[:d], dtype=np.float64).T
        random = min(msd(np.linalg.qr(rng.normal(size=(p, d)))[0]) for _ in range(n_others))
        tilted = min(msd(np.linalg.qr(V + tilt * rng.normal(size=(p, d)) / np.sqrt(p))[0]) for _ in range(n_others))
        out[int(d)] = {"principal": msd(V), "random": random, "tilted": tilted}
    return out


def pca_residuals(pca, X, scores, block: int = 500) -> dict:
    """How far a fitted PCA is from Eqs 1-5 of the paper, each as a largest residual.

    Parameters
    ----------
    pca : fitted GramPCA (or any PCA with ``mean_``, ``components_``, ``explained_variance_``)
    X : array or sparse matrix (n, p)
        The documents it was fitted on.
    scores : ndarray (n, d)
        Their scores, ``pca.transform(X)``.
    block : int
        Components per block when computing ``C v`` (bounds the memory).

    Returns
    -------
    dict
        ``eq1``: the largest ``|mean - column mean of X|`` (Eq. 1); ``eq2``: the largest
        ``|column mean of the scores|`` (Eq. 2 centres the documents); ``eq4``: the largest
        ``|C v - lambda v| / lambda`` over the kept axes, with C the covariance of X with
        ``n - 1`` (Eq. 10) and ``C v`` computed as ``X' (X v) / (n - 1)``; ``eq5_diag``: the
        largest relative gap between the diagonal of ``V' C V`` and the eigenvalues;
        ``eq5_offdiag``: its largest off-diagonal entry relative to the first eigenvalue (Eq. 5).

    Examples
    --------
    >>> from sklearn.decomposition import PCA
    >>> X = np.random.default_rng(0).normal(size=(40, 6))
    >>> pca = PCA(3).fit(X)
    >>> r = pca_residuals(pca, X, pca.transform(X), block=2)
    >>> sorted(k for k, v in r.items() if v < 1e-10)
    ['eq1', 'eq2', 'eq4', 'eq5_diag', 'eq5_offdiag']
    """
    n, d = scores.shape
    lam = pca.explained_variance_[:d]
    eq4 = 0.0
    for start in range(0, d, block):  # C v = X'(X v) / (n - 1); X v are the scores (X' 1 = n mean, scores sum to 0)
        part = slice(start, min(start + block, d))
        Cv = np.asarray(X.T @ scores[:, part]) / (n - 1)
        eq4 = max(eq4, float(np.max(np.linalg.norm(Cv - pca.components_[part].T * lam[part], axis=0) / lam[part])))
    D = scores.T @ scores / (n - 1)  # V' C V
    return {"eq1": float(np.max(np.abs(pca.mean_ - np.asarray(X.mean(axis=0)).ravel()))),
            "eq2": float(np.max(np.abs(scores.mean(axis=0)))), "eq4": eq4,
            "eq5_diag": float(np.max(np.abs(np.diag(D) / lam - 1))),
            "eq5_offdiag": float(np.max(np.abs(D - np.diag(np.diag(D)))) / lam[0])}


def sq_mahalanobis(P, S) -> np.ndarray:
    """Squared Mahalanobis length of each row of ``P`` under the covariance ``S``: ``p' S^-1 p``.

    Examples
    --------
    >>> sq_mahalanobis(np.array([[2.0, 0.0], [0.0, 3.0]]), np.diag([4.0, 9.0])).tolist()
    [1.0, 1.0]
    """
    return np.einsum("ij,ij->i", P, np.linalg.solve(S, P.T).T)


def scale_invariance(Z, random_state: int = 0, n_coordinates: int = 200, n_pairs: int = 20,
                     estimators=("sample", "ledoit_wolf")) -> dict:
    """How much distances change when every coordinate is measured in another unit (line 146).

    Each of the first ``n_coordinates`` columns of ``Z`` is multiplied by a random factor in
    [0.1, 10]; the squared Mahalanobis distances of ``n_pairs`` pairs of rows (row i with row
    ``n_pairs + i``), each under the covariance of the rows estimated before and after
    (:func:`helpers.whitening.estimate_covariance`), and their Euclidean distances are
    compared before and after.

    Returns
    -------
    dict
        ``{estimator: largest |after / before - 1|}`` for each estimator of the covariance,
        and ``"euclidean"``: the largest relative change of the Euclidean distances.

    Examples
    --------
    >>> Z = np.random.default_rng(1).normal(size=(60, 5))
    >>> change = scale_invariance(Z, n_coordinates=5, n_pairs=10)
    >>> change["sample"] < 1e-12, change["ledoit_wolf"] > 1e-3, change["euclidean"] > 0.5
    (True, True, True)
    """
    rng = np.random.default_rng(random_state)
    Z = np.asarray(Z)[:, :n_coordinates]
    units = rng.uniform(0.1, 10, size=Z.shape[1])
    pairs = Z[:n_pairs] - Z[n_pairs:2 * n_pairs]
    change = {}
    for estimator in estimators:
        before = sq_mahalanobis(pairs, estimate_covariance(Z, estimator))
        after = sq_mahalanobis(pairs * units, estimate_covariance(Z * units, estimator))
        change[estimator] = float(np.max(np.abs(after / before - 1)))
    change["euclidean"] = float(np.max(np.abs(np.linalg.norm(pairs * units, axis=1) / np.linalg.norm(pairs, axis=1)
                                              - 1)))
    return change


def pca_claims(residuals: dict, eigenvalues, n_components: int, rank: int, n_words: int,
               projections: dict | None = None) -> dict:
    """Eqs 1-5, the PCA of Section 2.2.1 and the claim that the full covariance cannot be used, as claims.

    Parameters
    ----------
    residuals : dict
        :func:`pca_residuals` of the fit.
    eigenvalues : 1-D array
        The eigenvalues kept (``explained_variance_``), expected in decreasing order.
    n_components : int
        The components kept, d.
    rank : int
        The largest rank of the centred training matrix, n - 1.
    n_words : int
        The dimension of the term space, l.
    projections : dict, optional
        :func:`least_squares` of the fit: adds ``pca.least-squares``.

    Returns
    -------
    dict
        ``(holds, evidence)`` for ``eq1`` to ``eq5``, ``pca.definition`` and
        ``claim.covariance-needs-dr`` and ``order.transform-reduce`` (line 183's order: the
        transformation before the reduction, possible only with an invertible l x l
        covariance). Eq. 3 as printed, B.B^T with B of n x l (line 112),
        is the n x n Gram matrix, not the l x l covariance that line 118 and Eq. 10 describe:
        it holds only if n = l, and the evidence says whether the covariance B^T.B it means
        gives the fitted axes.

    Examples
    --------
    >>> r = {"eq1": 0.0, "eq2": 1e-16, "eq4": 2e-4, "eq5_diag": 1e-5, "eq5_offdiag": 1e-7}
    >>> claims = pca_claims(r, [3.0, 2.0, 1.0], 3, 9, 20)
    >>> [k for k, (holds, _) in claims.items() if not holds]   # n = 10 documents, l = 20 words
    ['eq3', 'order.transform-reduce']
    >>> claims["claim.covariance-needs-dr"][1][:58]
    'the 20 x 20 covariance of the training TF-IDF has rank at '
    """
    r = residuals
    claims = {
        "eq1": (r["eq1"] < 1e-12, "GramPCA's mean is the column mean of the training matrix (largest difference "
                                  f"{rounding_level(r['eq1'], 1e-12)})"),
        "eq2": (r["eq2"] < 1e-10, "every document minus the mean: the training scores have column mean 0 (largest "
                                  f"|column mean| {rounding_level(r['eq2'], 1e-12)})"),
        "eq3": (rank + 1 == n_words,
                f"as printed, B.B^T is the {rank + 1:,} x {rank + 1:,} Gram matrix of the documents (B is n x l, line "
                f"112), not the {n_words:,} x {n_words:,} covariance of the dimensions that line 118 describes and "
                "Eq. 10 writes with column vectors; read as B^T.B it is our PCA"
                + (": the axes are eigenvectors of B'B / (n - 1) (relative residuals below 1e-3)" if r["eq4"] < 1e-3
                   else f", but the axes miss it (relative residual {r['eq4']:.1e})")
                + "; B.B^T has the same nonzero eigenvalues and is what GramPCA decomposes; 1/n (Eq. 3) instead of "
                "1/(n - 1) (Eq. 10) shrinks every eigenvalue by (n - 1)/n and leaves the axes and the fraction of "
                "variance"),
        "eq4": (r["eq4"] < 1e-3, f"|C v - lambda v| / lambda below 1e-3 on all {n_components:,} kept axes "
                                 "(single-precision eigendecomposition)"),
        "eq5": (r["eq5_offdiag"] < 1e-5 and r["eq5_diag"] < 1e-3, "V'CV is diagonal (off-diagonal entries below "
                "1e-5 of lambda_1) with the variances of the components on it (relative error below 1e-3)"),
        "pca.definition": (bool(np.all(np.diff(eigenvalues) <= 0)) and n_components <= rank,
                           f"eigenvalues in decreasing order, the first d = {n_components:,} of at most {rank:,} "
                           "nonzero ones kept"),
        "claim.covariance-needs-dr": (rank < n_words, f"the {n_words:,} x {n_words:,} covariance of the training "
                                      f"TF-IDF has rank at most n - 1 = {rank:,}: it has no inverse, and a dense copy "
                                      f"would take {n_words**2 * 8 / 1e9:.1f} GB"),
    }
    claims["order.transform-reduce"] = (
        rank >= n_words,
        f"line 183 whitens first: x_hat = D^-1/2 Q'(x - mu) needs D^-1 of the {n_words:,} x {n_words:,} covariance, "
        f"which has at least {n_words - rank:,} zero eigenvalues (rank at most {rank:,}); and whitened, every "
        "direction has variance 1, so no 90% of the variance could single out components. The order that works, "
        "and that line 19 and the algorithm (lines 219-245, 265-267) give, is PCA first, then the Mahalanobis "
        "distance in the reduced space")
    if projections is not None:
        claims["pca.least-squares"] = (
            all(v["principal"] < min(v["random"], v["tilted"]) for v in projections.values()),
            "mean squared distance of the training documents to their projection: "
            + "; ".join(f"on the first {d} axes {v['principal']:.3f}, on random {d}-dimensional subspaces at least "
                        f"{v['random']:.3f}, on slightly tilted axes at least {v['tilted']:.3f}"
                        for d, v in projections.items()))
    return claims
