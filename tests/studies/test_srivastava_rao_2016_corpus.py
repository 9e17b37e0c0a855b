"""helpers.studies.srivastava_rao_2016.corpus: the collection and its preprocessing (Sections 2.1 and 3, Table 1)."""

import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from helpers.studies.srivastava_rao_2016.corpus import (
    TABLE1,
    collection_claims,
    document_frequency,
    labels_provenance,
    paper_weights,
    preprocessing_claims,
    stems_by_hand,
    table1_answers,
    topic_statistics,
    topics_in,
)
from helpers.text import PaperTfidfTransformer, StemmingAnalyzer
from tests.support import record, sgml

# the notebook's sentence for the paper's example (line 73): K = {finance, ball, bat, umpire, break} -> <4, 1, 0, 3, 2>
SENTENCE = ("The finance minister's finances were financed by financing the ball; the umpire and two umpires "
            "umpired, and a break was breaking.")


def test_the_distributions_sgml_is_not_xml():
    """Notebook 06 answers 'in XML format' (lines 221, 231) with where Python's XML parser stops."""
    ET.fromstring(b"<REUTERS><BODY>oil</BODY></REUTERS>")
    bad = sgml(record(1))  # a doctype and the control-code references &#2; and &#3; of the distribution
    with pytest.raises(ET.ParseError, match="reference to invalid character number"):
        ET.fromstring(bad)


def test_the_analyzer_gives_the_papers_vector_space_example():
    """Line 73: K = {finance, ball, bat, umpire, break} and v = <4, 1, 0, 3, 2>, as notebook 06 counts it."""
    analyzer = StemmingAnalyzer()
    stems = [analyzer(word)[0] for word in ["finance", "ball", "bat", "umpire", "break"]]
    assert stems == ["financ", "ball", "bat", "umpir", "break"]
    assert [analyzer(SENTENCE).count(stem) for stem in stems] == [4, 1, 0, 3, 2]


@pytest.mark.parametrize("text", [SENTENCE, "Oil prices ROSE 3.5% to $18.20; OPEC's output fell.", "a I x \n\t",
                                  "Shares of Acme Co. were bought at 2 dlrs a share."])
def test_stems_by_hand_equal_the_analyzer(text):
    words, stems = stems_by_hand(text)
    assert stems == StemmingAnalyzer()(text)
    assert all(w.isalpha() and w.islower() for w in words)


def test_stems_by_hand_drop_stop_words_and_single_letters():
    words, stems = stems_by_hand("The finances of 2 umpires, and a break.")
    assert words == ["the", "finances", "of", "umpires", "and", "a", "break"]
    assert stems == ["financ", "umpir", "break"]


def test_document_frequency_counts_documents_not_occurrences():
    counts = sp.csr_matrix(np.array([[2, 0, 1], [1, 0, 0], [5, 0, 0]]))
    counts.data[counts.data == 1] = 0  # explicit zeros are stored but are no occurrence
    before = counts.data.copy()
    assert document_frequency(counts).tolist() == [2, 0, 0]
    np.testing.assert_array_equal(counts.data, before)  # the caller's matrix is left as it was
    assert document_frequency(np.array([[0, 3], [1, 1]])).tolist() == [1, 2]


def test_paper_weights_follow_the_formula_and_the_fitted_transformer(rng):
    counts = rng.poisson(0.6, size=(30, 12))
    counts[:, 0] = 1  # a term in every document: weight 0
    counts[counts.sum(axis=1) == counts[:, 0], 1] = 2  # every document has a term of weight > 0
    N, df = counts.shape[0], (counts > 0).sum(axis=0)
    W = counts * np.log2(N / np.maximum(df, 1))
    W = W / np.linalg.norm(W, axis=1, keepdims=True)
    ours = paper_weights(sp.csr_matrix(counts))
    np.testing.assert_allclose(ours.toarray(), W, atol=1e-15)
    assert (ours[:, 0].toarray() == 0).all()
    fitted = PaperTfidfTransformer().fit_transform(sp.csr_matrix(counts))
    assert abs(fitted - ours).max() < 1e-12


def test_topic_statistics_and_topics_in():
    docs = pd.DataFrame({"topics": [["earn"], ["earn", "acq"], ["earn"], ["acq"], ["grain"], ["ship"]]})
    collection = pd.concat([docs, pd.DataFrame({"topics": [["cpi"], []]})])
    s = topic_statistics(collection, docs, docs[:4], docs[4:], top=1)
    assert (s["used"], s["modapte"]) == (5, 4)
    assert s["largest"] == "earn" and s["largest_train"] == 3
    assert s["median"] == 2  # earn 3, acq 2: grain and ship have no training document
    assert s["top_share"] == pytest.approx(3 / 5)
    assert s["by_doc"].loc["grain"].tolist() == [0, 1]
    assert topics_in(docs[:1], docs[3:4]) == {"earn", "acq"}


def test_labels_provenance_reads_the_readme_across_lines():
    readme = ("The documents in the Reuters-22173 collection\nwere assembled and indexed with categories by\n"
              "personnel from Reuters Ltd. (Sam Dobbins, Mike Topliss, Steve Weinstein) and Carnegie\nGroup, "
              "Inc. (Peggy Andersen, Monica Cellio) in 1987.")
    assert labels_provenance(readme)
    assert not labels_provenance(readme.replace("Carnegie", "Another"))


def test_table1_answers_count_listings_only_when_they_match_the_print():
    by_doc = pd.DataFrame({"train": [181, 369, 2877], "test": [56, 117, 1087]}, index=["corn", "trade", "earn"])
    by_listing = pd.DataFrame({"train": [182, 369, 2877], "test": [56, 118, 1087]}, index=["corn", "trade", "earn"])
    printed = {"table1.corn": [182, 56], "table1.trade": [369, 119], "table1.earn": [2877, 1087]}
    answers = table1_answers(by_doc, by_listing, lambda key, ours: ours == printed[key],
                             {k: k.split(".")[1] for k in printed})
    assert answers["table1.corn"] == ([182, 56], {"how": "counting every <D> entry, so a topic listed twice counts "
                                                         "twice"})
    assert answers["table1.trade"] == ([369, 117], {"note": "by <D> entry 369; 118"})  # neither count matches
    assert answers["table1.earn"] == ([2877, 1087], {"note": ""})
    assert list(TABLE1) == [f"table1.{t}" for t in ["earn", "acq", "money-fx", "grain", "crude", "trade",
                                                     "interest", "ship", "wheat", "corn"]]


def test_collection_claims():
    readme = "indexed with categories by personnel from Reuters Ltd. and Carnegie Group, Inc."
    top = ["earn", "acq", "money-fx", "grain", "crude", "trade", "interest", "wheat", "ship", "corn"]
    claims = collection_claims(readme, {"largest_train": 2877, "median": 12}, top)
    assert {k: a[0] for k, a in claims.items()} == {"corpus.provenance": True, "modapte.indexed": False,
                                                    "corpus.uneven": True, "table1.top10": True}
    assert claims["corpus.uneven"][1] == ("the largest topic has 2,877 training documents, more than 100 times the "
                                          "median topic (12)")
    claims = collection_claims("", {"largest_train": 1200, "median": 12}, top[:9] + ["cpi"])
    assert {k: a[0] for k, a in claims.items()} == {"corpus.provenance": False, "modapte.indexed": False,
                                                    "corpus.uneven": False, "table1.top10": False}
    readme = (' Training Set (9,603 docs): LEWISSPLIT="TRAIN";  TOPICS="YES"\n ... Now, a reasonable (though not '
              'certain) assumption is that for all\nTOPICS="YES" stories the indexer at least thought about whether')
    holds, evidence = collection_claims(readme, {"largest_train": 2877, "median": 12}, top)["modapte.indexed"]
    assert holds and "the paper states as fact what the README assumes" in evidence
    assert not collection_claims(readme.replace("(though not certain) ", ""), {"largest_train": 1, "median": 1},
                                 top)["modapte.indexed"][0]


def test_preprocessing_claims():
    claims = preprocessing_claims(SENTENCE, StemmingAnalyzer(), 4.4e-16, 7775, 355283)
    holds, evidence = claims["preprocessing"]
    assert holds and evidence.startswith("first training document: 22 words, 11 of them stop words or single "
                                         "letters, 11 Porter stems")
    holds, evidence = claims["tfidf.formula"]
    assert holds and "N = 7,775 training documents, on all 355,283 nonzero weights (max |difference| < 1e-12)" \
        in evidence
    claims = preprocessing_claims(SENTENCE, str.split, 2e-9, 10, 20)  # another analyzer, weights off the formula
    assert not claims["preprocessing"][0] and not claims["tfidf.formula"][0]
    assert "(max |difference| 2.00e-09)" in claims["tfidf.formula"][1]
