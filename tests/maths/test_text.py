"""Tests of helpers.text: the analyzer, the paper's TF-IDF and the corpus pipeline, against hand
calculations, nltk and scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from nltk.stem import PorterStemmer

from helpers import text as T
from helpers.gram import GramPCA
from helpers.text import (
    PaperTfidfTransformer,
    StemmingAnalyzer,
    make_vectorizer,
    vectorize_corpus,
)


def test_analyzer_drops_stop_words_and_stems():
    assert StemmingAnalyzer()("The prices of the shares were rising, and it is 1987!") == [
        "price", "share", "rise"]
    assert StemmingAnalyzer(stop_words=(), min_length=1)("a Prices") == ["a", "price"]

def test_stemming_is_memoised_per_word():
    T._stem.cache_clear()
    assert StemmingAnalyzer()("buying shares buying buys shares") == ["buy", "share", "buy", "buy", "share"]
    info = T._stem.cache_info()
    assert (info.misses, info.hits) == (3, 2)  # buying, shares, buys stemmed once each
    assert all(T._stem(w) == PorterStemmer().stem(w) for w in ["buying", "shares", "buys", "companies"])

def test_paper_idf_is_log2_n_over_df():
    counts = np.array([[3, 1, 0], [0, 1, 0], [1, 1, 2], [0, 1, 0]])  # df = 2, 4, 1 of N = 4
    t = PaperTfidfTransformer(norm=None).fit(counts)
    np.testing.assert_allclose(t.idf_, [1.0, 0.0, 2.0])
    np.testing.assert_allclose(t.transform(counts).toarray()[2], [1.0, 0.0, 4.0])
    unit = PaperTfidfTransformer().fit_transform(counts)
    np.testing.assert_allclose(sp.linalg.norm(unit[[0, 2]], axis=1), 1.0)
    with pytest.raises(ValueError, match=r"The 'norm' parameter of PaperTfidfTransformer must be a str among "
                                         r"\{'l2'\} or None\. Got 'l1' instead\."):
        PaperTfidfTransformer(norm="l1").fit(counts)

def test_make_vectorizer_options():
    docs = ["oil prices rise", "oil output falls", "wheat exports"]
    paper = make_vectorizer("paper").fit_transform(docs).toarray()
    assert paper[0, 2] == 0.0 or paper[0, 2] < paper[0, 4]  # 'oil' (in 2 of 3) weighs less than 'price'
    with pytest.raises(ValueError, match="tfidf must be"):
        make_vectorizer("bm25")

OIL = ["oil prices rise", "crude oil output", "oil exports fall", "opec oil quota", "crude prices slide",
       "oil refinery output"]

WHEAT = ["wheat harvest grows", "wheat exports rise", "grain wheat tender", "wheat crop output",
         "grain harvest falls", "wheat prices slide"]

@pytest.mark.parametrize("tfidf", ["paper", "sklearn"])
def test_vectorize_corpus_equals_fitted_pipeline(tfidf):
    vec, (_, c_te), (w_tr, w_te) = vectorize_corpus(OIL + WHEAT, ["oil wheat prices"], tfidf, verbose=False)
    ref = make_vectorizer(tfidf).fit(OIL + WHEAT)
    np.testing.assert_array_equal(w_tr.toarray(), ref.transform(OIL + WHEAT).toarray())
    np.testing.assert_array_equal(w_te.toarray(), vec.transform(["oil wheat prices"]).toarray())
    assert c_te.sum() == 3

def test_progress_bars_show_unless_tqdm_disable(monkeypatch, capsys):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    vectorize_corpus(OIL, WHEAT, verbose=True)
    assert "stemming training documents" in capsys.readouterr().err
    monkeypatch.setenv("TQDM_DISABLE", "1")  # what the Makefile exports: silences even verbose=True
    vectorize_corpus(OIL, WHEAT, verbose=True)
    GramPCA(2, verbose=True).fit(np.eye(4) + np.arange(4))
    assert capsys.readouterr().err == ""
    monkeypatch.delenv("TQDM_DISABLE")
    GramPCA(2, verbose=False).fit(np.eye(4) + np.arange(4))
    assert capsys.readouterr().err == ""


def test_paper_tfidf_names_its_outputs_after_its_inputs():
    import pandas as pd

    counts = pd.DataFrame([[2, 1, 0], [0, 1, 3]], columns=["oil", "price", "wheat"])
    t = PaperTfidfTransformer().fit(counts)
    assert t.get_feature_names_out().tolist() == ["oil", "price", "wheat"]
    assert make_vectorizer().fit(["oil prices", "wheat"]).get_feature_names_out().tolist() == ["oil", "price", "wheat"]


@pytest.mark.parametrize("fmt", ["csc", "coo", "lil"])
def test_paper_tfidf_takes_every_sparse_format(fmt):
    counts = sp.csr_matrix(np.array([[3, 1, 0], [0, 1, 0], [1, 1, 2], [0, 1, 0]]))
    ref = PaperTfidfTransformer().fit(counts)
    t = PaperTfidfTransformer().fit(counts.asformat(fmt))
    np.testing.assert_array_equal(t.idf_, ref.idf_)
    np.testing.assert_array_equal(t.transform(counts.asformat(fmt)).toarray(), ref.transform(counts).toarray())


def test_paper_tfidf_refuses_negative_counts():
    with pytest.raises(ValueError, match=r"Negative values in data passed to PaperTfidfTransformer \(term counts X\)"):
        PaperTfidfTransformer().fit(np.array([[1, -1], [0, 2]]))
    t = PaperTfidfTransformer().fit(np.array([[1, 1], [0, 2]]))
    with pytest.raises(ValueError, match="Negative values"):
        t.transform(sp.csr_matrix(np.array([[0, -3]])))
