"""The Mahal-kNN paper's text pipeline and classifiers, as scikit-learn pieces.

Text to vectors: tokenise (lower-case alphabetic words), drop stop words (scikit-learn's
``ENGLISH_STOP_WORDS``: nltk's list needs a download), Porter-stem (nltk, memoised per
token), weight with the paper's TF x log2(N / n_j) (:class:`PaperTfidfTransformer`) or
scikit-learn's TF-IDF. Then PCA of the sparse matrix through the n x n Gram matrix of the
training documents (:class:`GramPCA`: exact, all eigenvalues, so the number of components
for a variance fraction is exact too).

The readings of Mahal-kNN that the paper's text supports (:data:`READINGS`), all computed
by :func:`mahalanobis_readings` from inner products of PCA scores:

* ``euclidean``: kNN, Euclidean distance, majority vote (the baseline);
* ``class_blind``: kNN after whitening with the covariance of all training documents,
  i.e. the feature transformation of Eqs 12-18 with S of the whole training set;
* ``pooled``: kNN with the Mahalanobis distance under the pooled within-category covariance
  (Section 2.2.2 names no covariance; "pooled" is the one covariance shared by all categories);
* ``per_category``: kNN where the distance to a training document uses the covariance of that
  document's category (Sections 2.4.3-2.4.4: each category's S from the training stage);
* ``nearest_category``: the category whose mean is nearest under its own covariance
  (Section 2.4.4, steps 1-2);
* ``weighted``: the class-membership probability from the Mahalanobis distances to the k
  neighbours (weights 1/d, as ``KNeighborsClassifier(weights="distance")``), class-blind.

Category covariances in a d-dimensional PCA space with fewer documents than d are singular,
so they are shrunk (Ledoit-Wolf by default) and, while a category has fewer documents than d,
inverted through the Woodbury identity:
``S = a I + b R'R`` with R the documents' residuals about their category means, so every
distance needs only inner products of documents and one Cholesky factor per covariance of
the size of its category (:class:`ResidualCovariance`); no d x d matrix is formed. A category
(or the pooled covariance) with more documents than d uses the d x d Cholesky factor instead.

Evaluation: :func:`prf_scores` (accuracy, micro/macro precision, recall and F1, vectorised
over resamples) and :func:`paired_permutation_test` (approximate randomisation of two
classifiers' predictions on the same test documents, with ``scipy.stats.permutation_test``).

The slow steps take ``progress``: ``True`` shows a tqdm bar, ``False`` hides it, ``None``
(the default) shows it on a terminal only; ``TQDM_DISABLE=1`` hides every bar (the Makefile
sets it, so stored notebook outputs hold no bar text).

References
----------
.. [1] N. Srivastava & S. Rao (2016), Learning-based text classifiers using the Mahalanobis
   distance for correlated datasets, Int. J. Big Data Intelligence 3(1), 18-27.
.. [2] O. Ledoit & M. Wolf (2004), A well-conditioned estimator for large-dimensional
   covariance matrices, J. Multivariate Analysis 88, 365-411.
.. [3] E. W. Noreen (1989), Computer-Intensive Methods for Testing Hypotheses (approximate
   randomisation); A. Yeh (2000), More accurate tests for the statistical significance of
   result differences, COLING.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd
import scipy.sparse as sp
from nltk.stem import PorterStemmer
from scipy import linalg, stats
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer, TfidfTransformer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import normalize
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._io import progress_bar
from .whitening import estimate_covariance

__all__ = [
    "StemmingAnalyzer",
    "PaperTfidfTransformer",
    "make_vectorizer",
    "vectorize_corpus",
    "GramPCA",
    "ledoit_wolf_shrinkage_gram",
    "ResidualCovariance",
    "shrunk_residual_covariance",
    "MahalanobisCentroidClassifier",
    "READINGS",
    "Readings",
    "mahalanobis_readings",
    "component_sweep",
    "knn_sweep",
    "summarize_readings",
    "training_size_curve",
    "best_k",
    "rocchio_ovr_predict",
    "baseline_predictions",
    "SCORES",
    "prf_scores",
    "paired_permutation_test",
    "paired_comparisons",
]

_WORD = re.compile(r"[a-z]+")


_stem = lru_cache(maxsize=None)(PorterStemmer().stem)  # memoised: each distinct word is stemmed once


class StemmingAnalyzer:
    """Callable analyzer for ``CountVectorizer(analyzer=...)``: words, stop words out, Porter stems.

    Parameters
    ----------
    stop_words : frozenset, default=sklearn's ENGLISH_STOP_WORDS
    min_length : int, default=2
        Shorter words (after lower-casing, before stemming) are dropped.

    Examples
    --------
    >>> StemmingAnalyzer()("The companies were buying 3 shares of Acme's stock")
    ['compani', 'buy', 'share', 'acm', 'stock']
    """

    def __init__(self, stop_words=ENGLISH_STOP_WORDS, min_length: int = 2):
        self.stop_words = frozenset(stop_words)
        self.min_length = min_length

    def __call__(self, doc: str) -> list[str]:
        return [
            _stem(w)
            for w in _WORD.findall(doc.lower())
            if len(w) >= self.min_length and w not in self.stop_words
        ]


class PaperTfidfTransformer(TransformerMixin, BaseEstimator):
    """TF x log2(N / n_j): raw term frequency times the paper's inverse document frequency.

    ``N`` is the number of training documents and ``n_j`` the number containing term ``j``
    (terms absent from training get weight 0). scikit-learn's ``TfidfTransformer`` uses
    ``ln((1 + N) / (1 + n_j)) + 1`` instead, which never reaches zero.

    Parameters
    ----------
    norm : {"l2", None}, default="l2"
        Scale each document to unit length after weighting (as for cosine similarity).

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[2, 1], [0, 1]])   # term 0 in 1 of 2 docs, term 1 in both
    >>> t = PaperTfidfTransformer(norm=None).fit(counts)
    >>> print(t.idf_.round(3), t.transform(counts).toarray().tolist())
    [1. 0.] [[2.0, 0.0], [0.0, 0.0]]
    """

    def __init__(self, norm="l2"):
        self.norm = norm

    def fit(self, X, y=None):
        if self.norm not in ("l2", None):
            raise ValueError(f"norm must be 'l2' or None; got {self.norm!r}.")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        X = sp.csr_matrix(X)
        n = X.shape[0]
        df = np.bincount(X.indices[X.data != 0], minlength=X.shape[1]) if X.nnz else np.zeros(X.shape[1])
        with np.errstate(divide="ignore"):
            idf = np.where(df > 0, np.log2(n / np.maximum(df, 1)), 0.0)
        self.idf_ = idf
        return self

    def transform(self, X):
        check_is_fitted(self, "idf_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        X = sp.csr_matrix(X) @ sp.diags(self.idf_)
        X = sp.csr_matrix(X)
        return normalize(X) if self.norm == "l2" else X


def make_vectorizer(tfidf: str = "paper", min_df: int = 1):
    """Counts of stemmed, stop-word-free words, then TF-IDF (``"paper"`` or ``"sklearn"``).

    Examples
    --------
    >>> v = make_vectorizer("paper").fit(["oil prices rise", "oil output falls", "wheat exports"])
    >>> v[0].get_feature_names_out().tolist()
    ['export', 'fall', 'oil', 'output', 'price', 'rise', 'wheat']
    """
    if tfidf not in ("paper", "sklearn"):
        raise ValueError(f"tfidf must be 'paper' (TF x log2(N/n_j)) or 'sklearn'; got {tfidf!r}.")
    weight = PaperTfidfTransformer() if tfidf == "paper" else TfidfTransformer()
    return make_pipeline(CountVectorizer(analyzer=StemmingAnalyzer(), min_df=min_df), weight)


def vectorize_corpus(docs_train, docs_test, tfidf: str = "paper", min_df: int = 1, progress: bool | None = None):
    """Fit :func:`make_vectorizer` on the training documents; counts and weights of both sets.

    Each document is tokenised and stemmed once (a progress bar per set); the vocabulary
    and the IDF come from the training documents only.

    Parameters
    ----------
    docs_train, docs_test : sequence of str
    tfidf : {"paper", "sklearn"}
        ``"paper"``: TF x log2(N / n_j) (:class:`PaperTfidfTransformer`); ``"sklearn"``:
        ``TfidfTransformer()``. Both scale documents to unit length.
    min_df : int
        Drop words in fewer training documents.
    progress : bool or None
        Progress bars over the documents (see the module docstring).

    Returns
    -------
    vectorizer : Pipeline
        The fitted counts + weights pipeline (``vectorizer.transform(docs)`` for new text).
    counts : tuple of sparse matrices
        Term counts of the training and test documents.
    weights : tuple of sparse matrices
        Their TF-IDF weights.

    Examples
    --------
    >>> vec, (c_tr, c_te), (w_tr, w_te) = vectorize_corpus(
    ...     ["oil prices rise", "oil output falls"], ["wheat prices"], progress=False)
    >>> vec[0].get_feature_names_out().tolist(), c_te.toarray().tolist()
    (['fall', 'oil', 'output', 'price', 'rise'], [[0, 0, 0, 1, 0]])
    >>> print(f"{w_te[0, 3]:.3f}")   # the only known word, unit length
    1.000
    """
    vectorizer = make_vectorizer(tfidf, min_df)
    count_step, weight_step = vectorizer[0], vectorizer[1]
    counts_train = count_step.fit_transform(
        progress_bar(docs_train, total=len(docs_train), desc="stemming training documents", progress=progress))
    counts_test = count_step.transform(
        progress_bar(docs_test, total=len(docs_test), desc="stemming test documents", progress=progress))
    weights_train = weight_step.fit_transform(counts_train)
    return vectorizer, (counts_train, counts_test), (weights_train, weight_step.transform(counts_test))


def _n_for_fraction(cumulative: np.ndarray, fraction: float) -> int:
    """Smallest number of components whose cumulative explained variance reaches ``fraction``."""
    return int(np.searchsorted(cumulative, fraction - 1e-12) + 1)


class GramPCA(TransformerMixin, BaseEstimator):
    """PCA of a (sparse) matrix from the eigendecomposition of the centred Gram matrix.

    For ``n`` training rows and ``p >> n`` features, ``Xc Xc' = U diag(s^2) U'`` is an
    ``n x n`` problem: the principal axes are ``V = Xc' U / s`` and the training scores
    ``U s``. All ``n`` eigenvalues come out, so ``explained_variance_ratio_`` and
    :meth:`n_components_for` are exact (their sum is ``||Xc||_F^2``, the total variance).

    Parameters
    ----------
    n_components : int or float, default=100
        An int keeps that many principal components for ``transform``; a float in (0, 1)
        is a variance fraction: keep the fewest components whose explained variance
        reaches it (as ``sklearn.decomposition.PCA(0.9)``). Either way at most
        ``max_components`` and at most ``n - 1``.
    whiten : bool, default=False
        Divide the scores by the component standard deviations, so Euclidean distance of
        the output is the Mahalanobis distance under the (diagonal) covariance of the
        training scores.
    dtype : numpy dtype, default=np.float64
        Precision of the Gram matrix and its eigendecomposition (``np.float32`` halves its
        memory: ``n^2`` x 4 bytes).
    max_components : int or None, default=None
        Cap on the number of components, however ``n_components`` chooses them.
    progress : bool or None, default=None
        A progress bar over the Gram-matrix blocks and the eigendecomposition.

    Attributes
    ----------
    mean_, components_ (n_components_, p), explained_variance_, explained_variance_ratio_
        As in ``sklearn.decomposition.PCA``; ``all_explained_variance_ratio_`` covers all
        ``n`` components.
    n_components_ : int
        Components kept: ``min(n_components or the count the fraction needs,
        max_components, n - 1)``.

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
    """

    _block_rows = 1000  # rows of the Gram matrix computed at a time (bounds the sparse product)

    def __init__(self, n_components=100, whiten: bool = False, dtype=np.float64, max_components=None,
                 progress=None):
        self.n_components = n_components
        self.whiten = whiten
        self.dtype = dtype
        self.max_components = max_components
        self.progress = progress

    def _check_params(self) -> None:
        nc = self.n_components
        is_int = isinstance(nc, (int, np.integer)) and not isinstance(nc, bool)
        is_fraction = isinstance(nc, (float, np.floating)) and 0.0 < nc < 1.0
        if not ((is_int and nc >= 1) or is_fraction):
            raise ValueError(
                "n_components must be a positive integer (components) or a float in (0, 1) "
                f"(a variance fraction, e.g. 0.9); got {nc!r}."
            )
        cap = self.max_components
        if cap is not None and (not isinstance(cap, (int, np.integer)) or isinstance(cap, bool) or cap < 1):
            raise ValueError(f"max_components must be None or a positive integer; got {cap!r}.")

    def fit(self, X, y=None):
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, ensure_min_samples=2)
        self._check_params()
        n = X.shape[0]
        mean = np.asarray(X.mean(axis=0)).ravel()
        r = np.asarray(X @ mean).ravel()  # Xc Xc' = X X' - r 1' - 1 r' + (m'm) 1 1'
        mm = float(mean @ mean)
        XT = X.T.tocsr() if sp.issparse(X) else X.T
        blocks = range(0, n, self._block_rows)
        with progress_bar(total=len(blocks) + 2, desc="GramPCA", progress=self.progress) as bar:
            bar.set_postfix_str(f"Gram matrix {n:,} x {n:,}")
            # built block by block straight into a dense array of the requested dtype: no
            # sparse n x n product, no float64 copy when dtype is float32
            G = np.empty((n, n), dtype=self.dtype, order="F")
            for start in blocks:
                rows = slice(start, start + self._block_rows)
                block = X[rows] @ XT
                block = block.toarray() if sp.issparse(block) else np.asarray(block)
                G[rows] = block - r[rows, None] - r[None, :] + mm
                bar.update()
            bar.set_postfix_str("eigendecomposition")
            # eigh reads the lower triangle only, so G needs no symmetrising copy, and G is
            # Fortran-ordered, so LAPACK works on it in place instead of on a copy
            vals, vecs = linalg.eigh(G, driver="evd", overwrite_a=True, check_finite=False)
            del G
            bar.update()
            vals = np.clip(vals[::-1].astype(np.float64), 0.0, None)
            total = vals.sum()
            cum = np.cumsum(vals / total)
            cap = n - 1 if self.max_components is None else min(int(self.max_components), n - 1)
            if isinstance(self.n_components, (float, np.floating)):
                m = min(_n_for_fraction(cum, float(self.n_components)), cap)
            else:
                m = min(int(self.n_components), cap)
            vecs = vecs[:, n - m :][:, ::-1].astype(np.float64)
            s = np.sqrt(vals[:m])
            if np.any(s <= 0):
                raise ValueError(f"Only {int((vals > 0).sum())} nonzero components; ask for fewer than {m}.")
            bar.set_postfix_str("principal axes")
            Xc_T_U = X.T @ vecs - np.outer(mean, vecs.sum(axis=0))
            self.components_ = np.asarray(Xc_T_U / s).T
            bar.update()
        # fix signs: largest-magnitude entry of each axis positive (deterministic output)
        signs = np.sign(self.components_[np.arange(m), np.abs(self.components_).argmax(axis=1)])
        self.components_ *= signs[:, None]
        self.mean_ = mean
        self.explained_variance_ = vals[:m] / (n - 1)
        self.all_explained_variance_ratio_ = vals / total
        self.explained_variance_ratio_ = self.all_explained_variance_ratio_[:m]
        self.n_components_ = m
        return self

    def n_components_for(self, fraction: float) -> int:
        """Smallest number of components whose explained variance reaches ``fraction`` (no cap)."""
        check_is_fitted(self, "components_")
        if not 0.0 < fraction <= 1.0:
            raise ValueError(f"fraction must lie in (0, 1]; got {fraction}.")
        return _n_for_fraction(np.cumsum(self.all_explained_variance_ratio_), fraction)

    def transform(self, X):
        check_is_fitted(self, "components_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        Z = np.asarray(X @ self.components_.T) - self.mean_ @ self.components_.T
        return Z / np.sqrt(self.explained_variance_) if self.whiten else Z



# --------------------------------------------------------------------------------------------
# shrunk covariances from inner products


def _sq_norms(Z):
    return np.einsum("ij,ij->i", Z, Z)


def _check_gram(K, name="K") -> np.ndarray:
    K = np.asarray(K, dtype=np.float64)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square matrix of inner products (n x n); got shape {K.shape}.")
    return K


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
    return _ledoit_wolf_from_moments(np.diag(K), float(np.sum(K**2)), K.shape[0], n_features)


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


def _shrinkage_coefficients(estimator, sq_norms, sq_frobenius, n, n_groups, p):
    """``(a, b, s)`` of ``S = a I + b R'R`` for n residuals in g groups (see :class:`ResidualCovariance`)."""
    trace = float(np.sum(sq_norms))
    if estimator == "ledoit_wolf":
        s = _ledoit_wolf_from_moments(sq_norms, sq_frobenius, n, p)
        scale = 1.0 / n  # empirical covariance R'R / n
    else:
        s = float(estimator)
        scale = 1.0 / (n - n_groups)  # sample covariance, one mean per group
    mu = trace * scale / p
    return s * mu, (1.0 - s) * scale, s


def _check_shrinkage_estimator(est) -> None:
    if isinstance(est, str):
        if est != "ledoit_wolf":
            raise ValueError(
                f"estimator must be 'ledoit_wolf' or a shrinkage in (0, 1]; got {est!r}. The unshrunk "
                "covariance of fewer residuals than dimensions is singular."
            )
    elif not (isinstance(est, (float, int, np.floating)) and not isinstance(est, bool) and 0.0 < est <= 1.0):
        raise ValueError(
            f"estimator must be 'ledoit_wolf' or a shrinkage in (0, 1]; got {est!r} (0 would leave the "
            "covariance singular when there are fewer residuals than dimensions)."
        )


def shrunk_residual_covariance(R, n_groups: int = 1, estimator="ledoit_wolf", return_shrinkage: bool = False):
    """The dense ``d x d`` covariance ``a I + b R'R`` of residual rows ``R`` (as :class:`ResidualCovariance`).

    Cheaper than the Woodbury route when there are more residuals than dimensions (one
    ``R'R``, one Cholesky factor of size d).

    Parameters
    ----------
    R : ndarray (n, d)
        Residuals of n documents about the mean of their group (category).
    n_groups : int
        Number of group means subtracted (degrees of freedom of the sample covariance).
    estimator : "ledoit_wolf" or float in (0, 1]
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
    _check_shrinkage_estimator(estimator)
    R = np.asarray(R, dtype=np.float64)
    n, d = R.shape
    if n - n_groups < 1:
        raise ValueError(f"{n} residual(s) in {n_groups} group(s) leave no degrees of freedom for a covariance.")
    C = R.T @ R
    a, b, shrinkage = _shrinkage_coefficients(estimator, _sq_norms(R), float(np.sum(C**2)), n, n_groups, d)
    C *= b
    C[np.diag_indices(d)] += a
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
    estimator : "ledoit_wolf" or float
        ``"ledoit_wolf"``: ``(1 - s) R'R / n + s mu I`` with the Ledoit-Wolf intensity ``s``
        (:func:`ledoit_wolf_shrinkage_gram`) and ``mu`` the mean variance, as
        ``sklearn.covariance.LedoitWolf`` for one group; a float ``s`` in (0, 1]:
        ``(1 - s) R'R / (n - g) + s mu I`` as ``helpers.whitening.estimate_covariance``
        (``g`` groups). The unshrunk covariance (``s = 0``) is singular whenever n - g < p and
        is refused.

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
    >>> S, w = cov.covariance(X), q[0] - q[1]
    >>> print(f"{d2[0, 1]:.6f} {w @ np.linalg.solve(S, w):.6f}")
    18.794702 18.794702
    """

    def __init__(self, estimator="ledoit_wolf"):
        self.estimator = estimator

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
        _check_shrinkage_estimator(self.estimator)
        K = _check_gram(K)
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
        p = int(n_features)
        self.a_, self.b_, self.shrinkage_ = _shrinkage_coefficients(
            self.estimator, np.diag(Kc), float(np.sum(Kc**2)), n, n_groups, p)
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
        C = np.atleast_2d(np.asarray(C, dtype=np.float64))
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
        eu2 = np.asarray(q_sq)[:, None] + np.asarray(p_sq)[None, :] - 2.0 * np.asarray(G_qp)
        if T_q.shape[1]:
            t2 = (T_q**2).sum(axis=1)[:, None] + (T_p**2).sum(axis=1)[None, :] - 2.0 * (T_q @ T_p.T)
            eu2 = eu2 - t2
        return np.maximum(eu2, 0.0) / self.a_

    def sq_distances_to_means(self, C, q_sq) -> np.ndarray:
        """Squared Mahalanobis distances of the queries to each group mean (n_q, n_groups)."""
        return self.sq_distances(self.project(C), q_sq, self.project_means(), self.means_sq_norms_,
                                 self.mean_inner_products(C))

    def covariance(self, X) -> np.ndarray:
        """The dense p x p covariance ``a I + b R'R`` from the members ``X`` (for checks on small p)."""
        X = np.asarray(X, dtype=np.float64)
        R = X - (self._A.T @ X)[self.groups_]
        return self.a_ * np.eye(X.shape[1]) + self.b_ * (R.T @ R)


# --------------------------------------------------------------------------------------------
# the readings of Mahal-kNN

#: reading -> the name used in tables (the paper's section in brackets)
READINGS = {
    "euclidean": "Euclidean kNN",
    "class_blind": "Mahal-kNN, class-blind (Eqs 12-18)",
    "pooled": "Mahal-kNN, pooled covariance (2.2.2)",
    "per_category": "Mahal-kNN, category covariances (2.4.3)",
    "nearest_category": "nearest category (2.4.4)",
    "weighted": "Mahal-kNN, distance-weighted (line 269)",
}
_KNN_READINGS = ("euclidean", "class_blind", "pooled", "per_category", "weighted")
_SINGLE_LABEL_ONLY = ("per_category", "weighted")


@dataclass
class Readings:
    """Predictions of each reading of Mahal-kNN (:func:`mahalanobis_readings`).

    Attributes
    ----------
    classes : ndarray
        Class labels (single-label) or column indices (multi-label).
    multi_label : bool
    pred : dict
        ``pred[reading][k]``: test predictions (labels, or an indicator matrix); the
        ``nearest_category`` reading has no k and is stored under ``k = 0``.
    loo_accuracy : dict
        ``loo_accuracy[reading][k]``: leave-one-out accuracy on the training documents
        (exact match for multi-label); empty when not computed. Covariances include the
        left-out document (computing them without it is n times the work); neighbours never do.
    proba : dict
        ``proba[k]``: class-membership probabilities of the ``weighted`` reading (n_test, n_classes).
    info : dict
        ``shrinkage`` (per category and pooled), ``n_components``.
    """

    classes: np.ndarray
    multi_label: bool
    pred: dict = field(default_factory=dict)
    loo_accuracy: dict = field(default_factory=dict)
    proba: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)


def _nearest(D, k_max: int, exclude_diagonal: bool = False) -> np.ndarray:
    """Indices of the ``k_max`` smallest entries of each row, nearest first (ties by index)."""
    if exclude_diagonal:
        D = D.copy()
        np.fill_diagonal(D, np.inf)
    part = np.argpartition(D, k_max - 1, axis=1)[:, :k_max]
    part.sort(axis=1)  # index order, so that a stable sort breaks ties by index
    order = np.argsort(np.take_along_axis(D, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)


def _votes(idx, Y, ks, n_classes, multi):
    """Majority votes of the first k neighbours for every k: {k: labels (ints) or indicator}."""
    if multi:
        cum = np.cumsum(Y[idx], axis=1)  # (n_q, k_max, n_labels)
        return {k: (cum[:, k - 1] > k / 2).astype(int) for k in ks}
    cum = np.cumsum(np.eye(n_classes, dtype=np.int32)[Y[idx]], axis=1)
    return {k: cum[:, k - 1].argmax(axis=1) for k in ks}  # ties: the first class, as KNeighborsClassifier


def _weighted_proba(idx, D, Y, ks, n_classes):
    """Class probabilities from the k nearest with weights 1/distance (KNeighborsClassifier(weights="distance"))."""
    with np.errstate(divide="ignore"):
        w = 1.0 / np.sqrt(np.take_along_axis(D, idx, axis=1))
    out = {}
    for k in ks:
        wk = w[:, :k].copy()
        inf = np.isinf(wk)
        rows = inf.any(axis=1)
        wk[rows] = inf[rows]  # a neighbour at distance 0 takes all the weight
        P = np.zeros((len(idx), n_classes))
        np.add.at(P, (np.repeat(np.arange(len(idx)), k), Y[idx[:, :k]].ravel()), wk.ravel())
        out[k] = P / P.sum(axis=1, keepdims=True)
    return out


def _accuracy(y_true, y_pred, multi):
    return float(np.mean(np.all(y_true == y_pred, axis=1))) if multi else float(np.mean(y_true == y_pred))


def mahalanobis_readings(Z_train, y_train, Z_test, sd=None, ks=range(3, 21), readings=None,
                         estimator="ledoit_wolf", loo: bool = True, progress: bool | None = None,
                         desc: str = "readings") -> Readings:
    """Test predictions of every reading of Mahal-kNN (:data:`READINGS`) for every k.

    Parameters
    ----------
    Z_train, Z_test : ndarray (n, d)
        PCA scores of the training and test documents.
    y_train : ndarray
        Labels (1-D) or a binary indicator matrix (2-D, multi-label: a document counts for
        each of its categories in the category means and covariances, and a kNN reading
        assigns a label when more than half of the k neighbours carry it). ``per_category``
        and ``weighted`` need single labels.
    sd : ndarray (d,), optional
        Standard deviation of each component over the documents the PCA was fitted on;
        ``class_blind`` divides the scores by it (PCA whitening). Needed for ``class_blind``
        and ``weighted``.
    ks : iterable of int
        Neighbours to try (the paper: 3 to 20).
    readings : iterable of str, optional
        Default: all that apply to the labels.
    estimator : "ledoit_wolf" or float
        Shrinkage of the category and pooled covariances (:class:`ResidualCovariance`).
    loo : bool
        Also compute leave-one-out accuracies on the training documents for every k (to
        choose k without the test set).
    progress : bool or None
        A progress bar over the readings.

    Returns
    -------
    Readings

    Examples
    --------
    Category "a" stretches along x, category "b" (centred at x = 4) along y. A query just
    above a's long axis, next to b's centre: its Euclidean neighbours are b's documents,
    while under each document's own category covariance the a-documents are nearer.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=(40, 2)) * [6.0, 0.3]
    >>> b = rng.normal(size=(40, 2)) * [0.3, 6.0] + [4.0, 0.0]
    >>> Z, y = np.vstack([a, b]), np.array(["a"] * 40 + ["b"] * 40)
    >>> out = mahalanobis_readings(Z, y, np.array([[4.5, 0.5]]), ks=[3], loo=False,
    ...                            readings=["euclidean", "per_category"], progress=False)
    >>> [str(out.pred[r][3][0]) for r in ("euclidean", "per_category")]
    ['b', 'a']
    """
    Z_train, Z_test = np.asarray(Z_train, dtype=np.float64), np.asarray(Z_test, dtype=np.float64)
    if Z_train.ndim != 2 or Z_test.ndim != 2 or Z_train.shape[1] != Z_test.shape[1]:
        raise ValueError(f"Z_train and Z_test must be 2-D with the same columns; got {Z_train.shape} and {Z_test.shape}.")
    y = np.asarray(y_train)
    multi = y.ndim == 2
    if len(y) != len(Z_train):
        raise ValueError(f"y_train has {len(y)} rows for {len(Z_train)} training documents.")
    if multi:
        classes = np.arange(y.shape[1])
        Y = (y != 0).astype(np.int32)
        docs, labels = np.nonzero(Y)
        if np.any(Y.sum(axis=1) == 0):
            raise ValueError("every training document needs at least one label (a row of y_train is all zero).")
    else:
        classes, Y = np.unique(y, return_inverse=True)
        docs, labels = np.arange(len(Y)), Y
    n_classes = len(classes)
    ks = sorted({int(k) for k in ks})
    n_tr, d = Z_train.shape
    if not ks or ks[0] < 1 or ks[-1] > n_tr - 1:
        raise ValueError(f"every k must lie in [1, {n_tr - 1}] (training documents minus one); got {ks}.")
    wanted = list(READINGS) if readings is None else list(readings)
    unknown = [r for r in wanted if r not in READINGS]
    if unknown:
        raise ValueError(f"unknown reading(s) {unknown}; choose from {list(READINGS)}.")
    if multi:
        if readings is not None and set(wanted) & set(_SINGLE_LABEL_ONLY):
            raise ValueError(f"{sorted(set(wanted) & set(_SINGLE_LABEL_ONLY))} need single labels (a 1-D y_train).")
        wanted = [r for r in wanted if r not in _SINGLE_LABEL_ONLY]
    if set(wanted) & {"class_blind", "weighted"}:
        if sd is None or np.shape(sd) != (d,) or np.any(np.asarray(sd) <= 0):
            raise ValueError(f"class_blind and weighted need sd: {d} positive component standard deviations.")
    counts = np.bincount(labels, minlength=n_classes)
    if set(wanted) & {"per_category", "nearest_category"} and counts.min() < 2:
        small = [str(c) for c, n in zip(classes, counts) if n < 2]
        raise ValueError(f"categories {small} have fewer than two training documents: no covariance of their own.")

    out = Readings(classes=classes, multi_label=multi, info={"n_components": d})
    Y_vote = Y if multi else Y.astype(np.intp)

    def knn(name, D_test, D_train=None):
        k_max = ks[-1]
        idx = _nearest(D_test, k_max)
        out.pred[name] = _votes(idx, Y_vote, ks, n_classes, multi)
        if name == "class_blind" and "weighted" in wanted:
            out.proba.update(_weighted_proba(idx, D_test, Y_vote, ks, n_classes))
            out.pred["weighted"] = {k: p.argmax(axis=1) for k, p in out.proba.items()}
        if D_train is not None:
            idx_tr = _nearest(D_train, k_max, exclude_diagonal=True)
            truth = Y_vote
            out.loo_accuracy[name] = {k: _accuracy(truth, p, multi)
                                      for k, p in _votes(idx_tr, Y_vote, ks, n_classes, multi).items()}
            if name == "class_blind" and "weighted" in wanted:
                P = _weighted_proba(idx_tr, D_train, Y_vote, ks, n_classes)
                out.loo_accuracy["weighted"] = {k: _accuracy(truth, p.argmax(axis=1), multi) for k, p in P.items()}

    steps = [r for r in ("euclidean", "class_blind", "pooled", "categories") if r in wanted
             or (r == "class_blind" and "weighted" in wanted)
             or (r == "categories" and set(wanted) & {"per_category", "nearest_category"})]
    woodbury_pooled = "pooled" in steps and len(docs) <= d  # fewer residuals than dimensions
    need_k = "categories" in steps or woodbury_pooled or ("euclidean" in steps and loo)
    G = Z_test @ Z_train.T if ("euclidean" in steps or need_k) else None
    K = Z_train @ Z_train.T if need_k else None
    q_sq, t_sq = _sq_norms(Z_test), _sq_norms(Z_train)
    shrinkage = {}

    def euclid(A, B, AB=None):
        AB = A @ B.T if AB is None else AB
        return np.maximum(_sq_norms(A)[:, None] + _sq_norms(B)[None, :] - 2.0 * AB, 0.0)

    for name in progress_bar(steps, desc=desc, progress=progress):
        if name == "euclidean":
            knn(name, euclid(Z_test, Z_train, G), euclid(Z_train, Z_train, K) if loo else None)
        elif name == "class_blind":
            W_tr, W_te = Z_train / sd, Z_test / sd
            knn(name, euclid(W_te, W_tr), euclid(W_tr, W_tr) if loo else None)
        elif name == "pooled" and not woodbury_pooled:
            # more residuals than dimensions: whiten with the Cholesky factor of the d x d covariance
            means = np.array([Z_train[docs[labels == c]].mean(axis=0) for c in range(n_classes)])
            S, shrinkage["pooled"] = shrunk_residual_covariance(Z_train[docs] - means[labels], n_classes, estimator,
                                                                return_shrinkage=True)
            L = linalg.cholesky(S, lower=True, check_finite=False)
            W_tr = linalg.solve_triangular(L, Z_train.T, lower=True, check_finite=False).T
            W_te = linalg.solve_triangular(L, Z_test.T, lower=True, check_finite=False).T
            knn(name, euclid(W_te, W_tr), euclid(W_tr, W_tr) if loo else None)
        elif name == "pooled":
            cov = ResidualCovariance(estimator).fit(K[np.ix_(docs, docs)], labels, d)
            shrinkage["pooled"] = cov.shrinkage_
            T_tr = cov.project(K[:, docs])
            T_te = cov.project(G[:, docs])
            D_te = cov.sq_distances(T_te, q_sq, T_tr, t_sq, G)
            D_tr = cov.sq_distances(T_tr, t_sq, T_tr, t_sq, K) if loo else None
            knn(name, D_te, D_tr)
        else:  # each category's own covariance: kNN (per_category) and nearest mean (nearest_category)
            per_cat = "per_category" in wanted
            D_te = np.empty((len(Z_test), n_tr)) if per_cat else None
            D_tr = np.empty((n_tr, n_tr)) if per_cat and loo else None
            D_mean = np.empty((len(Z_test), n_classes))
            for c in range(n_classes):
                m = docs[labels == c]
                if len(m) > d:  # more documents than dimensions: whiten with the d x d Cholesky factor
                    mu = Z_train[m].mean(axis=0)
                    S, shrinkage[str(classes[c])] = shrunk_residual_covariance(Z_train[m] - mu, 1, estimator,
                                                                               return_shrinkage=True)
                    L = linalg.cholesky(S, lower=True, check_finite=False)
                    W_te = linalg.solve_triangular(L, (Z_test - mu).T, lower=True, check_finite=False).T
                    D_mean[:, c] = _sq_norms(W_te)
                    if per_cat:
                        W_all = linalg.solve_triangular(L, (Z_train - mu).T, lower=True, check_finite=False).T
                        D_te[:, m] = euclid(W_te, W_all[m])
                        if loo:
                            D_tr[:, m] = euclid(W_all, W_all[m])
                    continue
                cov = ResidualCovariance(estimator).fit(K[np.ix_(m, m)], np.zeros(len(m)), d)
                shrinkage[str(classes[c])] = cov.shrinkage_
                T_te = cov.project(G[:, m])
                D_mean[:, c] = cov.sq_distances(T_te, q_sq, cov.project_means(), cov.means_sq_norms_,
                                                cov.mean_inner_products(G[:, m]))[:, 0]
                if per_cat:
                    T_all = cov.project(K[:, m]) if loo else None  # every training document, members included
                    T_m = T_all[m] if loo else cov.project(K[np.ix_(m, m)])
                    D_te[:, m] = cov.sq_distances(T_te, q_sq, T_m, t_sq[m], G[:, m])
                    if loo:
                        D_tr[:, m] = cov.sq_distances(T_all, t_sq, T_m, t_sq[m], K[:, m])
            if per_cat:
                knn("per_category", D_te, D_tr)
            if "nearest_category" in wanted:
                nearest = D_mean.argmin(axis=1)
                out.pred["nearest_category"] = {0: np.eye(n_classes, dtype=int)[nearest] if multi else nearest}
    out.info["shrinkage"] = shrinkage
    if not multi:  # labels, not their indices
        out.pred = {r: {k: classes[p] for k, p in by_k.items()} for r, by_k in out.pred.items()}
    return out


def component_sweep(Z_train, y_train, Z_test, y_test, sd, components, ks=range(3, 21)):
    """Euclidean and class-blind Mahal-kNN on the first m principal components, for many m and k.

    The inner products of the first m components are accumulated block by block, so the
    whole sweep costs one product of the score matrices.

    Parameters
    ----------
    Z_train, Z_test : ndarray
        PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels (single-label)
    sd : ndarray
        Standard deviation of each component (class-blind whitening divides by it).
    components : iterable of int
    ks : iterable of int

    Returns
    -------
    list of dict
        One per (reading, m, k): ``reading``, ``components``, ``k`` and every score of
        :func:`prf_scores`.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[0.0, 0.0], [0.2, 5.0], [3.0, 0.0], [3.2, 5.0]])
    >>> y = np.array(["a", "a", "b", "b"])
    >>> rows = component_sweep(Z, y, Z, y, np.array([1.0, 5.0]), [1, 2], [1])
    >>> [(r["reading"], r["components"], r["accuracy"]) for r in rows][:2]
    [('euclidean', 1, 1.0), ('class_blind', 1, 1.0)]
    """
    Z_train, Z_test = np.asarray(Z_train, dtype=np.float64), np.asarray(Z_test, dtype=np.float64)
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    if y_train.ndim != 1:
        raise ValueError("component_sweep needs single labels (a 1-D y_train).")
    components = sorted({int(m) for m in components})
    ks = sorted({int(k) for k in ks})
    d = min(Z_train.shape[1], len(sd))
    if not components or components[0] < 1 or components[-1] > d:
        raise ValueError(f"components must lie in [1, {d}] (the principal components given); got {components}.")
    classes, Y = np.unique(y_train, return_inverse=True)
    rows, start = [], 0
    acc = {r: [np.zeros((len(Z_test), len(Z_train))), np.zeros(len(Z_test)), np.zeros(len(Z_train))]
           for r in ("euclidean", "class_blind")}
    for m in components:
        block = slice(start, m)
        for reading, scale in (("euclidean", 1.0), ("class_blind", np.asarray(sd)[block])):
            A, B = Z_test[:, block] / scale, Z_train[:, block] / scale
            G, a2, b2 = acc[reading]
            G += A @ B.T
            a2 += _sq_norms(A)
            b2 += _sq_norms(B)
            idx = _nearest(np.maximum(a2[:, None] + b2[None, :] - 2.0 * G, 0.0), ks[-1])
            for k, pred in _votes(idx, Y, ks, len(classes), False).items():
                rows.append({"reading": reading, "components": m, "k": k,
                             **prf_scores(y_test, classes[pred], classes)})
        start = m
    return rows


def knn_sweep(X_train, y_train, X_test, ks) -> dict:
    """Majority-vote kNN predictions (Euclidean) for several k from one neighbour search.

    For inputs :func:`mahalanobis_readings` does not take, e.g. the sparse TF-IDF matrix
    (``sklearn.neighbors.NearestNeighbors``, brute force).

    Parameters
    ----------
    X_train, X_test : array or sparse matrix
    y_train : 1-D labels
    ks : iterable of int

    Returns
    -------
    dict
        ``{k: predicted labels}``; ties go to the first class, as ``KNeighborsClassifier``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    >>> out = knn_sweep(X, np.array(["a", "a", "b", "b", "b"]), np.array([[0.4], [9.0]]), [1, 3])
    >>> out[1].tolist(), out[3].tolist()
    (['a', 'b'], ['a', 'b'])
    """
    from sklearn.neighbors import NearestNeighbors

    ks = sorted({int(k) for k in ks})
    if not ks or ks[0] < 1 or ks[-1] > X_train.shape[0]:
        raise ValueError(f"every k must lie in [1, {X_train.shape[0]}] (training documents); got {ks}.")
    classes, Y = np.unique(np.asarray(y_train), return_inverse=True)
    idx = NearestNeighbors(n_neighbors=ks[-1], algorithm="brute").fit(X_train).kneighbors(X_test, return_distance=False)
    return {k: classes[p] for k, p in _votes(idx, Y, ks, len(classes), False).items()}


def summarize_readings(readings: Readings, y_test) -> pd.DataFrame:
    """One row per reading: k chosen two ways and the scores of :func:`prf_scores` at the paper's k.

    The paper's protocol (line 269) tries k = 3 ... 20 and keeps the k with the best
    classification accuracy, which here is measured on the test documents; ``k (LOO)`` is
    chosen by leave-one-out accuracy on the training documents instead, without the test set.

    Returns
    -------
    DataFrame
        Indexed by reading key; columns ``reading`` (its name in :data:`READINGS`), ``k``
        (best test accuracy; 0 for ``nearest_category``, which has no k), the scores of
        :data:`SCORES` at that k, ``k (LOO)`` and ``accuracy at k (LOO)`` (NaN without LOO).
    """
    classes = None if readings.multi_label else readings.classes
    rows = {}
    for r, by_k in readings.pred.items():
        acc = {k: prf_scores(y_test, p, classes)["accuracy"] for k, p in by_k.items()}
        k = best_k(acc)
        row = {"reading": READINGS[r], "k": k, **prf_scores(y_test, by_k[k], classes)}
        loo = readings.loo_accuracy.get(r)
        row["k (LOO)"] = best_k(loo) if loo else (0 if r == "nearest_category" else np.nan)
        row["accuracy at k (LOO)"] = acc[row["k (LOO)"]] if loo or r == "nearest_category" else np.nan
        rows[r] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def training_size_curve(Z_train, y_train, Z_test, y_test, sd, fractions, ks=range(3, 21), readings=None,
                        estimator="ledoit_wolf", random_state: int = 0, progress: bool | None = None,
                        full: Readings | None = None):
    """Accuracy of each reading against the number of training documents (Figs 5 and 6).

    For each fraction a stratified random subset of the training documents (seeded; the
    whole set at 1.0) trains every reading, with the best k of the paper's protocol (test
    accuracy over ``ks``); the PCA scores are those of the whole training set, fitted
    without labels, as the paper's PCA on unlabelled and seed data (line 265). ``full``:
    the :func:`mahalanobis_readings` of the whole training set, reused at fraction 1.0.

    Returns
    -------
    curve : DataFrame
        One row per (fraction, reading): ``fraction``, ``training documents``, ``reading``,
        ``k``, ``accuracy``, ``error`` (Eq. 19: 1 - accuracy).
    predictions : dict
        ``{(fraction, reading): test predictions at that k}``, for paired tests.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = np.vstack([rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 4])
    >>> y = np.repeat(["a", "b"], 30)
    >>> curve, _ = training_size_curve(Z, y, Z, y, Z.std(axis=0), [0.5, 1.0], ks=[3], readings=["euclidean"])
    >>> curve[["training documents", "accuracy"]].values.tolist()
    [[30.0, 1.0], [60.0, 1.0]]
    """
    from sklearn.model_selection import train_test_split

    y_train = np.asarray(y_train)
    rows, preds = [], {}
    for frac in progress_bar(list(fractions), desc="training sizes", progress=progress):
        if not 0 < frac <= 1:
            raise ValueError(f"fractions must lie in (0, 1]; got {frac}.")
        idx = np.arange(len(y_train)) if frac == 1 else np.sort(train_test_split(
            np.arange(len(y_train)), train_size=frac, stratify=y_train, random_state=random_state)[0])
        if frac == 1 and full is not None:
            out = full
        else:
            out = mahalanobis_readings(Z_train[idx], y_train[idx], Z_test, sd, ks, readings, estimator, loo=False,
                                       progress=False)
        for r, by_k in out.pred.items():
            if readings is not None and r not in readings:
                continue
            acc = {k: prf_scores(y_test, p)["accuracy"] for k, p in by_k.items() if k == 0 or k in set(ks)}
            k = best_k(acc)
            rows.append({"fraction": frac, "training documents": len(idx), "reading": r, "k": k,
                         "accuracy": acc[k], "error": 1 - acc[k]})
            preds[(frac, r)] = by_k[k]
    return pd.DataFrame(rows), preds


def best_k(accuracy_by_k: dict) -> int:
    """The k with the highest accuracy (the smallest such k on ties).

    Examples
    --------
    >>> best_k({3: 0.90, 5: 0.93, 7: 0.93})
    5
    """
    if not accuracy_by_k:
        raise ValueError("accuracy_by_k is empty: give {k: accuracy}.")
    top = max(accuracy_by_k.values())
    return min(k for k, a in accuracy_by_k.items() if a == top)


# --------------------------------------------------------------------------------------------
# the paper's classification phase as a dense estimator (the reference for small dimensions), and the baselines


class MahalanobisCentroidClassifier(ClassifierMixin, BaseEstimator):
    """Assign each sample to the class with the smallest Mahalanobis distance.

    The Mahal-kNN paper's classification phase: per class ``c`` a mean ``mu_c`` and a
    covariance ``S_c`` (``helpers.whitening.estimate_covariance``; shrinkage such as
    ``"ledoit_wolf"`` or a float keeps it invertible when the class has fewer documents
    than dimensions); predict ``argmin_c (x - mu_c)' S_c^-1 (x - mu_c)``.

    Parameters
    ----------
    estimator : str or float, default="ledoit_wolf"
    min_class_size : int, default=2
        Classes with fewer training samples (a covariance needs two) use the covariance of
        all training samples instead (the pooled, class-blind estimate).
    degenerate_rtol : float or None, default=1e-8
        A class covariance whose smallest eigenvalue is at most this fraction of the largest
        eigenvalue of the pooled covariance is not positive definite in practice: e.g. two
        samples, where Ledoit-Wolf estimates a shrinkage of 0 and leaves a rank-1 matrix,
        or identical samples (no spread at all). Its pseudo-inverse would measure distance
        along a few directions only and make that class the nearest to almost everything,
        so such a class uses the pooled covariance too. ``None`` keeps every class's own
        estimate (pseudo-inverse).

    Attributes
    ----------
    means_ : ndarray (n_classes, n_features)
    precisions_ : list of ndarray
        Inverse (pseudo-inverse) covariance per class.
    pooled_classes_ : ndarray
        The classes that use the pooled covariance (too small or degenerate).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [1, 0.1], [-1, -0.1], [0, 5], [0.1, 6], [-0.1, 4]])
    >>> clf = MahalanobisCentroidClassifier(0.1).fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[0.5, 0.0], [0.0, 4.5]]).tolist()
    [0, 1]
    """

    def __init__(self, estimator="ledoit_wolf", min_class_size=2, degenerate_rtol=1e-8):
        self.estimator = estimator
        self.min_class_size = min_class_size
        self.degenerate_rtol = degenerate_rtol

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if not isinstance(self.min_class_size, (int, np.integer)) or self.min_class_size < 2:
            raise ValueError(f"min_class_size must be an integer >= 2; got {self.min_class_size!r}.")
        if self.degenerate_rtol is not None and not self.degenerate_rtol >= 0:
            raise ValueError(f"degenerate_rtol must be None or a float >= 0; got {self.degenerate_rtol!r}.")
        if X.shape[0] < 2:
            raise ValueError(f"Need at least 2 training samples for a covariance; got {X.shape[0]}.")
        pooled, floor = None, None
        self.means_, self.precisions_, pooled_classes = [], [], []
        for i in range(len(self.classes_)):
            Xi = X[y_idx == i]
            S = None
            if len(Xi) >= self.min_class_size:
                S = np.atleast_2d(estimate_covariance(Xi, self.estimator))
            if S is None or self.degenerate_rtol is not None:
                if pooled is None:
                    pooled = np.atleast_2d(estimate_covariance(X, self.estimator))
                    floor = (self.degenerate_rtol or 0.0) * linalg.eigvalsh(pooled)[-1]
                if S is None or (self.degenerate_rtol is not None and linalg.eigvalsh(S)[0] <= floor):
                    S = pooled
                    pooled_classes.append(self.classes_[i])
            self.means_.append(Xi.mean(axis=0))
            self.precisions_.append(linalg.pinvh(S))
        self.means_ = np.array(self.means_)
        self.pooled_classes_ = np.array(pooled_classes, dtype=self.classes_.dtype)
        return self

    def decision_function(self, X):
        """Minus the squared Mahalanobis distance to each class, shape (n_samples, n_classes)."""
        check_is_fitted(self, "means_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        d = np.empty((X.shape[0], len(self.classes_)))
        for i, (mu, P) in enumerate(zip(self.means_, self.precisions_)):
            D = X - mu
            d[:, i] = np.einsum("ij,jk,ik->i", D, P, D)
        return -d if len(self.classes_) > 2 else (d[:, 0] - d[:, 1])

    def predict(self, X):
        s = self.decision_function(X)
        idx = s.argmax(axis=1) if s.ndim == 2 else (s > 0).astype(int)
        return self.classes_[idx]


def rocchio_ovr_predict(X_train, Y_train, X_test) -> np.ndarray:
    """One-vs-rest Rocchio (nearest centroid) for a multi-label indicator matrix.

    Label ``c`` is assigned when ``x`` is closer (Euclidean) to the centroid of the training
    documents with ``c`` than to the centroid of those without it, i.e. when
    ``2 x.(mu+ - mu-) > |mu+|^2 - |mu-|^2``. The same decisions as ``NearestCentroid().predict``
    fitted label by label, without its dense per-class statistics (minutes on a sparse
    90-label problem). ``OneVsRestClassifier(NearestCentroid())`` differs: it calls
    ``decision_function``, which also divides by within-class standard deviations.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [4.0, 0.0], [4.0, 1.0]])
    >>> Y = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    >>> rocchio_ovr_predict(X, Y, np.array([[0.5, 0.9], [3.5, 0.1]])).tolist()
    [[1, 1], [0, 0]]
    """
    Y = np.asarray(Y_train, dtype=np.float64)
    if Y.ndim != 2 or Y.shape[0] != X_train.shape[0]:
        raise ValueError(
            f"Y_train must be a (n_train, n_labels) indicator matrix with n_train = {X_train.shape[0]}; "
            f"got shape {Y.shape}. Use MultiLabelBinarizer().fit_transform(topics)."
        )
    n_pos = Y.sum(axis=0)
    if np.any(n_pos == 0) or np.any(n_pos == Y.shape[0]):
        raise ValueError("Every label needs at least one positive and one negative training document.")
    pos_sum = np.asarray((sp.csr_matrix(Y.T) @ X_train).todense() if sp.issparse(X_train) else Y.T @ X_train)
    all_sum = np.asarray(X_train.sum(axis=0)).ravel()
    mu_pos = pos_sum / n_pos[:, None]
    mu_neg = (all_sum[None, :] - pos_sum) / (Y.shape[0] - n_pos)[:, None]
    bias = (mu_pos**2).sum(axis=1) - (mu_neg**2).sum(axis=1)
    score = 2 * np.asarray(X_test @ (mu_pos - mu_neg).T) - bias
    return (score > 0).astype(int)




def baseline_predictions(counts, tfidf, y_train, random_state: int = 0, methods=None) -> dict:
    """Test predictions of the paper's baselines (Table 2) and of a linear SVM.

    Parameters
    ----------
    counts : tuple of sparse matrices
        Term counts of the training and test documents.
    tfidf : tuple of sparse matrices
        Their TF-IDF weights.
    y_train : 1-D labels or 2-D indicator matrix (one-vs-rest then)
    random_state : int
        Seed of ``LinearSVC``.
    methods : iterable of str, optional
        Any of ``"naive Bayes"`` (``MultinomialNB`` on counts, as Lewis 1998), ``"Rocchio"``
        (nearest centroid on TF-IDF; :func:`rocchio_ovr_predict` for multi-label) and
        ``"linear SVM"`` (``LinearSVC`` on TF-IDF). Default: all three.

    Returns
    -------
    dict
        ``{method: predictions}``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 0], [6, 1], [5, 1], [0, 5], [1, 6], [1, 5]], dtype=float)
    >>> y = np.array(["a", "a", "a", "b", "b", "b"])
    >>> pred = baseline_predictions((X, X), (X, X), y)
    >>> {m: p.tolist() for m, p in pred.items()}["Rocchio"]
    ['a', 'a', 'a', 'b', 'b', 'b']
    """
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.neighbors import NearestCentroid
    from sklearn.svm import LinearSVC

    all_methods = ("naive Bayes", "Rocchio", "linear SVM")
    methods = all_methods if methods is None else tuple(methods)
    unknown = [m for m in methods if m not in all_methods]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose from {list(all_methods)}.")
    (C_tr, C_te), (T_tr, T_te) = counts, tfidf
    y = np.asarray(y_train)
    multi = y.ndim == 2
    wrap = OneVsRestClassifier if multi else (lambda est: est)
    out = {}
    for name in methods:
        if name == "naive Bayes":
            out[name] = wrap(MultinomialNB()).fit(C_tr, y).predict(C_te)
        elif name == "Rocchio":
            if multi:
                out[name] = rocchio_ovr_predict(T_tr, y, T_te)
            else:
                with warnings.catch_warnings():
                    # NearestCentroid warns when a word never varies within a class (harmless for centroids)
                    warnings.filterwarnings("ignore", message=r"self\.within_class_std_dev_", category=UserWarning)
                    out[name] = NearestCentroid().fit(T_tr, y).predict(T_te)
        else:
            out[name] = wrap(LinearSVC(random_state=random_state)).fit(T_tr, y).predict(T_te)
    return out


# --------------------------------------------------------------------------------------------
# scores and paired tests

#: the scores :func:`prf_scores` returns
SCORES = ("accuracy", "micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall", "macro_f1")


def _indicator(y, classes):
    y = np.asarray(y)
    if y.ndim == 2:
        return y != 0
    return y[:, None] == np.asarray(classes)[None, :]


def _scores(T, P):
    """Every score of :data:`SCORES` for predictions ``P`` (..., n, C) against truth ``T`` (n, C)."""
    tp = (P & T).sum(axis=-2).astype(np.float64)  # (..., C)
    pp = P.sum(axis=-2).astype(np.float64)
    tt = np.broadcast_to(T.sum(axis=0).astype(np.float64), tp.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        micro_p = np.nan_to_num(tp.sum(-1) / pp.sum(-1))
        micro_r = np.nan_to_num(tp.sum(-1) / tt.sum(-1))
        micro_f = np.nan_to_num(2 * tp.sum(-1) / (pp.sum(-1) + tt.sum(-1)))
        macro_p = np.nan_to_num(tp / pp).mean(-1)
        macro_r = np.nan_to_num(tp / tt).mean(-1)
        macro_f = np.nan_to_num(2 * tp / (pp + tt)).mean(-1)
    accuracy = np.all(P == T, axis=-1).mean(axis=-1)
    return dict(zip(SCORES, (accuracy, micro_p, micro_r, micro_f, macro_p, macro_r, macro_f)))


def prf_scores(y_true, y_pred, classes=None) -> dict:
    """Accuracy and micro/macro precision, recall and F1 (Section 3, lines 293-295).

    Micro-averaging pools the contingency tables of all categories (every document weighs
    the same); macro-averaging averages the per-category scores (every category weighs the
    same); F1 = 2 P R / (P + R). A category with no predicted (or no true) document scores
    0, as ``zero_division=0`` in scikit-learn. Accuracy is the fraction of documents whose
    predicted label (set) is exactly right.

    Parameters
    ----------
    y_true, y_pred : 1-D labels or 2-D indicator matrices
    classes : sequence, optional
        The categories averaged over (default: those in ``y_true`` and ``y_pred``).

    Examples
    --------
    >>> s = prf_scores(["a", "a", "b", "c"], ["a", "b", "b", "b"])
    >>> print({k: round(float(v), 4) for k, v in s.items()})
    {'accuracy': 0.5, 'micro_precision': 0.5, 'micro_recall': 0.5, 'micro_f1': 0.5, 'macro_precision': 0.4444, 'macro_recall': 0.5, 'macro_f1': 0.3889}
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must have the same shape; got {y_true.shape} and {y_pred.shape}.")
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, y_pred)
    return {k: float(v) for k, v in _scores(_indicator(y_true, classes), _indicator(y_pred, classes)).items()}


def paired_permutation_test(y_true, pred_a, pred_b, score="micro_f1", classes=None,
                            n_resamples: int = 999, random_state: int = 0):
    """Is classifier a better than b on ``score``? Approximate randomisation over test documents.

    Under the null hypothesis the two classifiers are exchangeable on each document, so
    their predictions for that document can be swapped; the p-value is the fraction of
    random swaps that give a difference at least as large in absolute value as the one
    observed (``scipy.stats.permutation_test``, paired samples, two-sided). Micro and
    macro scores are not sums over documents, so a paired t-test does not apply; this test
    needs no such assumption (Noreen 1989; Yeh 2000).

    Parameters
    ----------
    y_true, pred_a, pred_b : 1-D labels or 2-D indicator matrices, one row per test document
    score : str or list of str
        One of :data:`SCORES`, or several: they are tested on the same random swaps.
    classes : sequence, optional
        As in :func:`prf_scores`.
    n_resamples : int
    random_state : int

    Returns
    -------
    difference, p_value : float, or ndarray (one per score) when ``score`` is a list
        ``score(a) - score(b)`` and its two-sided p-value.

    Examples
    --------
    Classifier a is right on 40 of 50 documents, b on 30, and neither is right where the
    other is wrong only by chance:

    >>> import numpy as np
    >>> y = np.zeros(50, dtype=int)
    >>> a = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]
    >>> b = np.r_[np.zeros(30, dtype=int), np.ones(20, dtype=int)]
    >>> diff, p = paired_permutation_test(y, a, b, "accuracy", classes=[0, 1])
    >>> print(f"{diff:+.2f} {p:.3f}")
    +0.20 0.002
    """
    names = [score] if isinstance(score, str) else list(score)
    if not names or any(sc not in SCORES for sc in names):
        raise ValueError(f"score must be one of {SCORES} (or a list of them); got {score!r}.")
    y_true, pred_a, pred_b = np.asarray(y_true), np.asarray(pred_a), np.asarray(pred_b)
    if not (y_true.shape == pred_a.shape == pred_b.shape):
        raise ValueError(
            f"y_true, pred_a and pred_b must have the same shape (one row per test document); got "
            f"{y_true.shape}, {pred_a.shape}, {pred_b.shape}."
        )
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, np.union1d(pred_a, pred_b))
    T = _indicator(y_true, classes)
    both = np.concatenate([_indicator(pred_a, classes), _indicator(pred_b, classes)])
    n = len(T)

    def statistic(ia, ib, axis=-1):  # indices into `both`: swapping them swaps a document's predictions
        sa, sb = _scores(T, both[ia]), _scores(T, both[ib])
        return np.stack([sa[sc] - sb[sc] for sc in names], axis=-1)  # the scores last: scipy's batches first

    res = stats.permutation_test((np.arange(n), np.arange(n) + n), statistic, permutation_type="samples",
                                 vectorized=True, n_resamples=n_resamples, batch=max(1, 20_000_000 // both.size),
                                 rng=np.random.default_rng(random_state))
    diff, p = np.asarray(res.statistic, dtype=float), np.asarray(res.pvalue, dtype=float)
    return (float(diff[0]), float(p[0])) if isinstance(score, str) else (diff, p)


def paired_comparisons(y_test, predictions: dict, reference, scores=SCORES, classes=None,
                       n_resamples: int = 999, random_state: int = 0) -> pd.DataFrame:
    """Each classifier minus a reference on every score, with paired permutation p-values.

    Parameters
    ----------
    y_test : labels or indicator matrix
    predictions : dict
        ``{name: test predictions}``.
    reference : predictions of the reference classifier on the same documents
    scores : iterable of str
        Names from :data:`SCORES`.

    Returns
    -------
    DataFrame
        Index: the names; columns ``(score, "difference")`` and ``(score, "p")``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> t = paired_comparisons(y, {"same": y.copy()}, y, scores=["accuracy"])
    >>> t.loc["same"].tolist()
    [0.0, 1.0]
    """
    scores = list(scores)
    rows = {}
    for name, pred in predictions.items():
        diff, p = paired_permutation_test(y_test, pred, reference, scores, classes, n_resamples, random_state)
        rows[name] = {**{(sc, "difference"): float(d) for sc, d in zip(scores, diff)},
                      **{(sc, "p"): float(q) for sc, q in zip(scores, p)}}
    columns = pd.MultiIndex.from_tuples([(sc, part) for sc in scores for part in ("difference", "p")])
    return pd.DataFrame.from_dict(rows, orient="index")[columns]
