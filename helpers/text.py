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
from functools import lru_cache

import numpy as np
import scipy.sparse as sp
from nltk.stem import PorterStemmer
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.feature_extraction.text import (
    ENGLISH_STOP_WORDS,
    CountVectorizer,
    TfidfTransformer,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import normalize
from sklearn.utils.validation import check_is_fitted, validate_data

from ._io import progress_bar

__all__ = [
    "StemmingAnalyzer",
    "PaperTfidfTransformer",
    "make_vectorizer",
    "vectorize_corpus",
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


