"""Text to vectors: the text pipeline of the Mahal-kNN paper as scikit-learn pieces.

Tokenise (lower-case alphabetic words), drop stop words (scikit-learn's
``ENGLISH_STOP_WORDS``: nltk's list needs a download) and Porter-stem (nltk, memoised per
word): :class:`StemmingAnalyzer`, an analyzer for ``CountVectorizer``. Weight the counts with
the paper's TF x log2(N / n_j) (:class:`PaperTfidfTransformer`) or scikit-learn's TF-IDF:
:func:`make_vectorizer` builds the counts + weights pipeline and :func:`vectorize_corpus`
fits it on training documents and applies it to both sets.

The next steps live elsewhere: PCA of the sparse matrix in :class:`helpers.gram.GramPCA`,
the readings of Mahal-kNN and the paper's baselines in :mod:`helpers.studies.srivastava_rao_2016`.

:func:`vectorize_corpus` takes ``verbose``: ``True`` shows a tqdm bar, ``False`` hides it,
``None`` (the default) shows it on a terminal only; ``TQDM_DISABLE=1`` hides every bar (the
Makefile sets it, so stored notebook outputs hold no bar text).

References
----------
.. [1] N. Srivastava & S. Rao (2016), Learning-based text classifiers using the Mahalanobis
   distance for correlated datasets, Int. J. Big Data Intelligence 3(1), 18-27 (its
   preprocessing and TF-IDF weighting).
.. [2] M. F. Porter (1980), An algorithm for suffix stripping, Program 14(3), 130-137.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import scipy.sparse as sp
from nltk.stem import PorterStemmer
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.feature_extraction.text import (
    ENGLISH_STOP_WORDS,
    CountVectorizer,
    TfidfTransformer,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import normalize
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from ._io import progress_bar
from ._validation import check_int

__all__ = [
    "PaperTfidfTransformer",
    "StemmingAnalyzer",
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
        if isinstance(doc, bytes):
            doc = doc.decode("utf-8", errors="replace")
        elif not isinstance(doc, str):
            raise TypeError(
                f"a document must be a str (or UTF-8 bytes); got {type(doc).__name__} {doc!r:.60}. "
                "Use '' for a missing document, e.g. [d if isinstance(d, str) else '' for d in docs]."
            )
        return [
            _stem(w)
            for w in _WORD.findall(doc.lower())
            if len(w) >= self.min_length and w not in self.stop_words
        ]


class PaperTfidfTransformer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """TF x log2(N / n_j): raw term frequency times the paper's inverse document frequency.

    ``N`` is the number of training documents and ``n_j`` the number containing term ``j``
    (terms absent from training get weight 0). scikit-learn's ``TfidfTransformer`` uses
    ``ln((1 + N) / (1 + n_j)) + 1`` instead, which never reaches zero.

    Parameters
    ----------
    norm : {"l2", None}, default="l2"
        Scale each document to unit length after weighting (as for cosine similarity).

    Attributes
    ----------
    idf_ : ndarray of shape (n_features,)
        ``log2(N / n_j)``, 0 for terms absent from the training documents.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when ``X`` has string feature names; the output keeps them
        (:meth:`get_feature_names_out`, one output per input term).

    Input: counts (dense or any scipy sparse format), which cannot be negative; the output
    is a CSR matrix.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[2, 1], [0, 1]])   # term 0 in 1 of 2 docs, term 1 in both
    >>> t = PaperTfidfTransformer(norm=None).fit(counts)
    >>> print(t.idf_.round(3), t.transform(counts).toarray().tolist())
    [1. 0.] [[2.0, 0.0], [0.0, 0.0]]
    """

    _parameter_constraints: dict = {"norm": [StrOptions({"l2"}), None]}

    def __init__(self, norm="l2"):
        self.norm = norm

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Document frequencies of the training counts ``X`` and the IDF; ``y`` is ignored."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, "PaperTfidfTransformer (term counts X)")
        X = sp.csr_matrix(X)
        n = X.shape[0]
        df = np.bincount(X.indices[X.data != 0], minlength=X.shape[1]) if X.nnz else np.zeros(X.shape[1])
        with np.errstate(divide="ignore"):
            idf = np.where(df > 0, np.log2(n / np.maximum(df, 1)), 0.0)
        self.idf_ = idf
        return self

    def transform(self, X):
        """TF x IDF of the counts ``X`` (CSR), each row scaled to unit length if ``norm="l2"``."""
        check_is_fitted(self, "idf_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        check_non_negative(X, "PaperTfidfTransformer (term counts X)")
        X = sp.csr_matrix(X) @ sp.diags(self.idf_)
        X = sp.csr_matrix(X)
        return normalize(X) if self.norm == "l2" else X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # term counts are sparse
        tags.input_tags.positive_only = True  # counts: negative values are refused
        return tags


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
    min_df = check_int(min_df, "min_df", 1, "min_df=1", why="documents a word must occur in")
    weight = PaperTfidfTransformer() if tfidf == "paper" else TfidfTransformer()
    return make_pipeline(CountVectorizer(analyzer=StemmingAnalyzer(), min_df=min_df), weight)


def vectorize_corpus(docs_train, docs_test, tfidf: str = "paper", min_df: int = 1, verbose: bool | None = None):
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
    verbose : bool or None
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
    ...     ["oil prices rise", "oil output falls"], ["wheat prices"], verbose=False)
    >>> vec[0].get_feature_names_out().tolist(), c_te.toarray().tolist()
    (['fall', 'oil', 'output', 'price', 'rise'], [[0, 0, 0, 1, 0]])
    >>> print(f"{w_te[0, 3]:.3f}")   # the only known word, unit length
    1.000
    """
    vectorizer = make_vectorizer(tfidf, min_df)
    docs_train, docs_test = _check_documents(docs_train, "docs_train"), _check_documents(docs_test, "docs_test")
    if not docs_train:
        raise ValueError("docs_train is empty: the vocabulary and the IDF need at least one training document.")
    if min_df > len(docs_train):
        raise ValueError(
            f"min_df={min_df} exceeds the {len(docs_train)} training documents, so no word could be kept; "
            f"pass min_df <= {len(docs_train)}."
        )
    count_step, weight_step = vectorizer[0], vectorizer[1]
    try:
        counts_train = count_step.fit_transform(
            progress_bar(docs_train, total=len(docs_train), desc="stemming training documents", progress=verbose))
    except ValueError as exc:
        if "empty vocabulary" not in str(exc) and "no terms remain" not in str(exc):
            raise
        raise ValueError(
            f"the {len(docs_train)} training documents leave an empty vocabulary: after lower-casing, keeping "
            "alphabetic words of two or more letters and dropping English stop words, no word is left"
            + (f" in at least min_df={min_df} documents" if min_df > 1 else "")
            + f" (first document: {docs_train[0]!r:.60}). Pass documents with content words"
            + (", or a smaller min_df." if min_df > 1 else ".")
        ) from None
    counts_test = count_step.transform(
        progress_bar(docs_test, total=len(docs_test), desc="stemming test documents", progress=verbose))
    weights_train = weight_step.fit_transform(counts_train)
    return vectorizer, (counts_train, counts_test), (weights_train, weight_step.transform(counts_test))


def _check_documents(docs, name: str) -> list:
    """``docs`` as a list of str/bytes documents, or an error naming the first bad one and the fix."""
    if isinstance(docs, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of documents, not one {type(docs).__name__} "
            f"({docs!r:.40}); wrap a single document in a list: [doc]."
        )
    try:
        docs = list(docs)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of documents (str); got {type(docs).__name__}.") from None
    for i, doc in enumerate(docs):
        if not isinstance(doc, (str, bytes)):
            raise TypeError(
                f"{name}[{i}] is {type(doc).__name__} {doc!r:.60}, not a document (str); "
                "use '' for a missing document, e.g. [d if isinstance(d, str) else '' for d in docs]."
            )
        if isinstance(doc, bytes):  # CountVectorizer decodes bytes as strict UTF-8: a raw UnicodeDecodeError
            try:
                doc.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ValueError(
                    f"{name}[{i}] is bytes that are not UTF-8 text (byte {doc[err.start:err.start + 1]!r} at offset "
                    f"{err.start}: {doc[:40]!r}...); decode the documents first with their own encoding, e.g. "
                    "[d.decode('latin-1') for d in docs], and pass the str."
                ) from None
    return docs
