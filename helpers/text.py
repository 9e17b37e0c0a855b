"""The Mahal-kNN paper's text pipeline as scikit-learn pieces.

Tokenise (lower-case alphabetic words), drop stop words (scikit-learn's
``ENGLISH_STOP_WORDS``: nltk's list needs a download), Porter-stem (nltk, memoised per
token), weight with the paper's TF x log2(N / n_j) (:class:`PaperTfidfTransformer`) or
scikit-learn's TF-IDF, then PCA of the sparse matrix through the n x n Gram matrix of the
training documents (:class:`GramPCA`: exact, all eigenvalues, so the number of components
for a variance fraction is exact too; ``n_components=0.9`` keeps that many, up to
``max_components``), and the classifiers no library has:
:class:`MahalanobisCentroidClassifier` (the paper's classification phase),
:func:`nearest_category_predict` (its multi-label reading: the nearest category) and
:func:`knn_sweep` (kNN predictions for many k from one neighbour search).

The slow steps (stemming, the Gram matrix and its eigendecomposition, the component x k
sweep, the methods of one setting) take ``progress``: ``True`` shows a tqdm bar, ``False``
hides it, ``None`` (the default) shows it on a terminal only; ``TQDM_DISABLE=1`` hides
every bar (the Makefile sets it, so stored notebook outputs hold no bar text).
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache


import numpy as np
import pandas as pd
import scipy.sparse as sp
from nltk.stem import PorterStemmer
from scipy import linalg
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer, TfidfTransformer
from sklearn.neighbors import NearestNeighbors
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
    "MahalanobisCentroidClassifier",
    "nearest_category_predict",
    "knn_sweep",
    "knn_component_sweep",
    "rocchio_ovr_predict",
    "score_methods",
    "METHODS",
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


def nearest_category_predict(Z_train, Y_train, Z_test, estimator="ledoit_wolf", degenerate_rtol=1e-8) -> np.ndarray:
    """Multi-label reading of the paper's classification phase: the one nearest category.

    Each category gets the mean and (shrunk) covariance of its training documents, a
    document with several categories counting for each of them, exactly as
    :class:`MahalanobisCentroidClassifier` does for single labels; each test document is
    then assigned the one category at the smallest Mahalanobis distance. The alternative,
    ``OneVsRestClassifier(MahalanobisCentroidClassifier())``, asks per category whether the
    document is nearer the category than the rest of the collection, under two different
    covariances; it has no single answer per document and can assign many labels.

    Parameters
    ----------
    Z_train : ndarray (n_train, d)
    Y_train : ndarray (n_train, n_labels)
        Binary indicator matrix; every document needs at least one label.
    Z_test : ndarray (n_test, d)
    estimator : str or float
        Covariance estimate per category (``helpers.whitening.estimate_covariance``).
    degenerate_rtol : float or None
        As in :class:`MahalanobisCentroidClassifier`.

    Returns
    -------
    ndarray (n_test, n_labels) of int
        One 1 per row.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[0, 0], [1, 0.1], [-1, -0.1], [0, 5], [0.1, 6], [-0.1, 4]])
    >>> Y = np.array([[1, 0], [1, 0], [1, 1], [0, 1], [0, 1], [0, 1]])
    >>> nearest_category_predict(Z, Y, np.array([[0.5, 0.0], [0.0, 4.5]]), 0.1).tolist()
    [[1, 0], [0, 1]]
    """
    Y = np.asarray(Y_train)
    if Y.ndim != 2 or Y.shape[0] != len(Z_train):
        raise ValueError(
            f"Y_train must be a (n_train, n_labels) indicator matrix with n_train = {len(Z_train)}; "
            f"got shape {Y.shape}. Use MultiLabelBinarizer().fit_transform(topics)."
        )
    docs, labels = np.nonzero(Y)
    clf = MahalanobisCentroidClassifier(estimator, degenerate_rtol=degenerate_rtol)
    clf.fit(np.asarray(Z_train)[docs], labels)
    out = np.zeros((len(Z_test), Y.shape[1]), dtype=int)
    out[np.arange(len(Z_test)), clf.predict(Z_test)] = 1
    return out


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


def knn_sweep(Z_train, Y_train, Z_test, ks) -> dict:
    """Uniform-vote kNN predictions for several ``k`` from one Euclidean neighbour search.

    Parameters
    ----------
    Z_train : ndarray (n_train, d)
    Y_train : ndarray (n_train,) of labels, or (n_train, n_labels) binary indicator
        A 1-D array gives single-label majority votes (ties to the first class in sorted
        order, as ``KNeighborsClassifier``); a 2-D indicator gives multi-label votes (a
        label is assigned when more than half the neighbours carry it).
    Z_test : ndarray (n_test, d)
    ks : iterable of int

    Returns
    -------
    dict
        ``{k: predictions}``, labels or a binary indicator matrix.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    >>> out = knn_sweep(Z, np.array(["a", "a", "b", "b", "b"]), np.array([[0.4], [9.0]]), [1, 3])
    >>> out[1].tolist(), out[3].tolist()
    (['a', 'b'], ['a', 'b'])
    """
    ks = sorted({int(k) for k in ks})
    if not ks or ks[0] < 1 or ks[-1] > Z_train.shape[0]:
        raise ValueError(f"Every k must lie in [1, {Z_train.shape[0]}] (training size); got {ks}.")
    nn = NearestNeighbors(n_neighbors=ks[-1], algorithm="brute").fit(Z_train)
    idx = nn.kneighbors(Z_test, return_distance=False)
    Y = np.asarray(Y_train)
    out = {}
    if Y.ndim == 1:
        classes, y_idx = np.unique(Y, return_inverse=True)
        onehot = np.eye(len(classes))[y_idx]
        for k in ks:
            out[k] = classes[onehot[idx[:, :k]].sum(axis=1).argmax(axis=1)]
    else:
        for k in ks:
            out[k] = (Y[idx[:, :k]].mean(axis=1) > 0.5).astype(int)
    return out


def knn_component_sweep(Z_train, y_train, Z_test, y_test, sd, components, ks,
                        progress: bool | None = None) -> pd.DataFrame:
    """Macro and micro F1 of Euclidean kNN and pooled Mahal-kNN for every (components, k).

    Euclidean kNN uses the first ``m`` PCA scores; Mahal-kNN (pooled) divides them by the
    component standard deviations ``sd[:m]`` (whitening: Mahalanobis distance under the
    training covariance, diagonal in PCA space). One neighbour search per ``m`` and
    variant serves every ``k`` (:func:`knn_sweep`).

    Parameters
    ----------
    Z_train, Z_test : ndarray
        PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels or 2-D indicator matrices
    sd : ndarray
        Standard deviation of each component on the training documents of the PCA.
    components, ks : iterable of int
    progress : bool or None
        A progress bar over ``components``.

    Returns
    -------
    DataFrame
        Columns ``method``, ``components``, ``k``, ``macro``, ``micro``; one row per cell.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[0.0, 0.0], [0.2, 5.0], [3.0, 0.0], [3.2, 5.0]])
    >>> out = knn_component_sweep(Z, np.array(["a", "a", "b", "b"]), Z, np.array(["a", "a", "b", "b"]),
    ...                           np.array([1.0, 5.0]), [1, 2], [1], progress=False)
    >>> out[["method", "components", "k", "macro"]].values.tolist()[:2]
    [['Euclidean kNN', 1, 1, 1.0], ['Mahal-kNN (pooled)', 1, 1, 1.0]]
    """
    from sklearn.metrics import f1_score

    components = [int(m) for m in components]
    sd = np.asarray(sd, dtype=np.float64)
    if max(components) > min(Z_train.shape[1], len(sd)):
        raise ValueError(
            f"components go up to {max(components)} but only {min(Z_train.shape[1], len(sd))} "
            "principal components (scores and sd) are given; fit the PCA with more components."
        )
    rows = []
    for m in progress_bar(components, desc="components x k sweep", progress=progress):
        for variant, scale in (("Euclidean kNN", np.ones(m)), ("Mahal-kNN (pooled)", sd[:m])):
            for kk, pred in knn_sweep(Z_train[:, :m] / scale, y_train, Z_test[:, :m] / scale, ks).items():
                rows.append({"method": variant, "components": m, "k": kk,
                             "macro": float(f1_score(y_test, pred, average="macro", zero_division=0)),
                             "micro": float(f1_score(y_test, pred, average="micro", zero_division=0))})
    return pd.DataFrame(rows)


METHODS = (
    "naive Bayes",
    "Rocchio",
    "Euclidean kNN",
    "Mahal-kNN (pooled)",
    "Mahal (per-category)",
    "Mahal (nearest category)",
    "linear SVM",
)


def score_methods(features: dict, y_train, y_test, k: int = 5, n_components: int = 300,
                  estimator="ledoit_wolf", random_state: int = 0, progress: bool | None = None,
                  desc: str = "methods", degenerate_rtol=1e-8, return_predictions: bool = False):
    """Macro and micro F1 of the methods of Table 2 (:data:`METHODS`) on one setting.

    Parameters
    ----------
    features : dict
        ``counts``, ``tfidf`` (sparse, train and test as 2-tuples), ``scores`` (PCA scores,
        train and test) and ``sd`` (standard deviation of each component on the training
        documents the PCA was fitted on).
    y_train, y_test : 1-D labels or 2-D indicator matrices (one-vs-rest then).
    k : int
        Neighbours for both kNN variants.
    n_components : int
        Leading principal components used by the kNN and Mahalanobis methods.
    estimator : str or float
        Covariance estimate per category (``helpers.whitening.estimate_covariance``).
    progress : bool or None
        A progress bar over the methods, labelled ``desc`` (e.g. the setting's name).
    degenerate_rtol : float or None
        Passed to :class:`MahalanobisCentroidClassifier` (classes without spread use the
        pooled covariance; ``None`` keeps their pseudo-inverse).
    return_predictions : bool, default=False
        Also return each method's test predictions, to inspect them without refitting.

    Returns
    -------
    dict
        ``{method: {"macro": f1, "micro": f1}}`` with ``sklearn.metrics.f1_score``; with
        ``return_predictions``, the pair ``(scores, {method: predictions})``.

    Notes
    -----
    Naive Bayes: ``MultinomialNB`` on term counts; Rocchio: nearest centroid on TF-IDF;
    Euclidean kNN: Euclidean distance of PCA scores; Mahal-kNN (pooled): the same scores
    divided by the component standard deviations (whitened), i.e. Mahalanobis distance
    under the training covariance, which is diagonal in PCA space; Mahal (per-category):
    :class:`MahalanobisCentroidClassifier`, one-vs-rest for multi-label targets (category
    against the rest of the collection); Mahal (nearest category):
    :func:`nearest_category_predict` for multi-label targets (one label per document),
    the same classifier as per-category for single labels; linear SVM: ``LinearSVC`` on
    TF-IDF.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 0], [6, 1], [5, 1], [0, 5], [1, 6], [1, 5]], dtype=float)
    >>> y = np.array(["a", "a", "a", "b", "b", "b"])
    >>> Z = X - X.mean(axis=0)
    >>> feats = {"counts": (X, X), "tfidf": (X, X), "scores": (Z, Z), "sd": Z.std(axis=0, ddof=1)}
    >>> out = score_methods(feats, y, y, k=1, n_components=2, estimator=0.5, progress=False)
    >>> print(f"{out['Euclidean kNN']['macro']:.2f} {out['linear SVM']['micro']:.2f}")
    1.00 1.00
    """
    from sklearn.metrics import f1_score
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.neighbors import NearestCentroid
    from sklearn.svm import LinearSVC

    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    multi = y_train.ndim == 2
    wrap = OneVsRestClassifier if multi else (lambda est: est)
    (C_tr, C_te), (T_tr, T_te), (Z_tr, Z_te) = features["counts"], features["tfidf"], features["scores"]
    m = int(n_components)
    if m > Z_tr.shape[1]:
        raise ValueError(f"n_components={m} but only {Z_tr.shape[1]} principal components were computed.")
    Z_tr, Z_te, sd = Z_tr[:, :m], Z_te[:, :m], np.asarray(features["sd"])[:m]

    def rocchio():
        if multi:
            return rocchio_ovr_predict(T_tr, y_train, T_te)
        with warnings.catch_warnings():
            # NearestCentroid warns when a word never varies within a class (harmless for centroids)
            warnings.filterwarnings("ignore", message=r"self\.within_class_std_dev_", category=UserWarning)
            return NearestCentroid().fit(T_tr, y_train).predict(T_te)

    def per_category():
        clf = MahalanobisCentroidClassifier(estimator, degenerate_rtol=degenerate_rtol)
        return wrap(clf).fit(Z_tr, y_train).predict(Z_te)

    steps = {
        "naive Bayes": lambda: wrap(MultinomialNB()).fit(C_tr, y_train).predict(C_te),
        "Rocchio": rocchio,
        "Euclidean kNN": lambda: knn_sweep(Z_tr, y_train, Z_te, [k])[k],
        "Mahal-kNN (pooled)": lambda: knn_sweep(Z_tr / sd, y_train, Z_te / sd, [k])[k],
        "Mahal (per-category)": per_category,
        "Mahal (nearest category)": (
            (lambda: nearest_category_predict(Z_tr, y_train, Z_te, estimator, degenerate_rtol)) if multi
            else None),  # single labels: the same classifier as per-category
        "linear SVM": lambda: wrap(LinearSVC(random_state=random_state)).fit(T_tr, y_train).predict(T_te),
    }
    preds = {}
    for name in progress_bar(METHODS, desc=desc, progress=progress):
        preds[name] = steps[name]() if steps[name] is not None else preds["Mahal (per-category)"]
    scores = {
        name: {avg: float(f1_score(y_test, p, average=avg, zero_division=0)) for avg in ("macro", "micro")}
        for name, p in preds.items()
    }
    return (scores, preds) if return_predictions else scores
