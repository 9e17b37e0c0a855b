"""The collection and its preprocessing as the paper describes them (Sections 2.1 and 3, Table 1).

What the notebook checks before any classifier runs (beside the XML question and the paper's
vector-space example, a few lines in the notebook): the preprocessing redone by hand (:func:`stems_by_hand`), the TF-IDF
weight straight from its formula (:func:`paper_weights`; both answered by
:func:`preprocessing_claims`), the topics of the collection
(:func:`topic_statistics`, :func:`labels_provenance`, :func:`collection_claims`) and the answers
to Table 1's rows (:func:`table1_answers`).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import scipy.sparse as sp
from nltk.stem import PorterStemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from ...data.reuters import class_counts
from ...display import rounding_level

__all__ = [
    "TABLE1",
    "collection_claims",
    "document_frequency",
    "labels_provenance",
    "paper_weights",
    "preprocessing_claims",
    "stems_by_hand",
    "table1_answers",
    "topic_statistics",
    "topics_in",
]

#: Table 1's rows (lines 277-287): ledger key -> the topic code of the printed class name, in the paper's order
TABLE1 = {"table1.earn": "earn", "table1.acq": "acq", "table1.money-fx": "money-fx", "table1.grain": "grain",
          "table1.crude": "crude", "table1.trade": "trade", "table1.interest": "interest", "table1.ship": "ship",
          "table1.wheat": "wheat", "table1.corn": "corn"}

_PROVENANCE = re.compile(r"indexed\s+with\s+categories\s+by\s+personnel\s+from\s+Reuters\s+Ltd\..*?"
                         r"Carnegie\s+Group,\s+Inc\.", re.S)
#: README VIII.B: the ModApte sets are the TOPICS="YES" stories ...
_MODAPTE_YES = re.compile(r"Training\s+Set\s+\(9,603\s+docs\):\s+LEWISSPLIT=\"TRAIN\";\s+TOPICS=\"YES\"")
#: ... README VI: for which the indexer is assumed ("reasonable (though not certain)") to have considered the topics
_INDEXER = re.compile(r"reasonable\s+\(though\s+not\s+certain\)\s+assumption\s+is\s+that\s+for\s+all\s+"
                      r"TOPICS=\"YES\"\s+stories\s+the\s+indexer\s+at\s+least\s+thought\s+about")


def stems_by_hand(text: str, stop_words=ENGLISH_STOP_WORDS) -> tuple[list[str], list[str]]:
    """Section 2.1's preprocessing redone step by step, to check the analyzer against.

    Lower-case, segment at anything but a letter (punctuation, digits and whitespace go), drop
    stop words and single letters, Porter-stem (nltk's stemmer) what is left.

    Returns
    -------
    words : list of str
        Every word of the segmentation.
    stems : list of str
        The stems of the words kept.

    Examples
    --------
    >>> stems_by_hand("The finances of 2 umpires, and a break.")
    (['the', 'finances', 'of', 'umpires', 'and', 'a', 'break'], ['financ', 'umpir', 'break'])
    """
    stemmer = PorterStemmer()
    words = re.findall("[a-z]+", text.lower())
    return words, [stemmer.stem(w) for w in words if len(w) > 1 and w not in stop_words]


def document_frequency(counts) -> np.ndarray:
    """n_j of line 77: the number of documents (rows) in which each term (column) occurs.

    Examples
    --------
    >>> document_frequency(np.array([[2, 0, 1], [1, 0, 0]])).tolist()
    [2, 0, 1]
    """
    counts = sp.csr_matrix(counts, copy=True)
    counts.eliminate_zeros()  # explicit zeros are no occurrence
    return np.bincount(counts.indices, minlength=counts.shape[1])


def paper_weights(counts) -> sp.csr_matrix:
    """The paper's weight W_ij = TF_ij x log2(N / n_j) (line 77), each document then scaled to unit length.

    Computed straight from the formula, as a reference for the fitted transformer; N is the
    number of rows and n_j their :func:`document_frequency`. A term in every document gets
    weight 0; a document whose every term is in every document has no unit-length scaling
    (its row would be 0 / 0).

    Examples
    --------
    >>> W = paper_weights(np.array([[1, 1, 0], [0, 1, 2]]))  # log2(N / n_j) = 1, 0, 1
    >>> W.toarray().tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    >>> W = paper_weights(np.array([[2, 0, 1], [0, 1, 1], [1, 1, 0]]))
    >>> np.sqrt(W.multiply(W).sum(axis=1)).round(12).ravel().tolist()
    [1.0, 1.0, 1.0]
    """
    counts = sp.csr_matrix(counts, dtype=np.float64, copy=True)  # its own index arrays: the input stays as it was
    n_docs, df = counts.shape[0], document_frequency(counts)
    weights = counts.multiply(np.log2(n_docs / np.maximum(df, 1))).tocsr()
    return weights.multiply(1 / np.sqrt(weights.multiply(weights).sum(axis=1))).tocsr()


def topics_in(*tables: pd.DataFrame) -> set:
    """The topics used by the documents of the tables (their ``topics`` columns).

    Examples
    --------
    >>> sorted(topics_in(pd.DataFrame({"topics": [["earn"], []]}), pd.DataFrame({"topics": [["acq", "earn"]]})))
    ['acq', 'earn']
    """
    return {t for table in tables for ts in table["topics"] for t in ts}


def topic_statistics(collection: pd.DataFrame, modapte: pd.DataFrame, train: pd.DataFrame, test: pd.DataFrame,
                     top: int = 10) -> dict:
    """How the collection's topics are used and how unevenly documents spread over them (lines 271-273).

    Parameters
    ----------
    collection : DataFrame
        Every record (``topics`` column).
    modapte : DataFrame
        The ModApte documents, with or without a topic.
    train, test : DataFrame
        The ModApte documents with a topic, as classified.
    top : int
        The number of largest topics whose share is reported.

    Returns
    -------
    dict
        ``used`` and ``modapte`` (the numbers of topics some record, some ModApte document
        uses), ``by_doc`` (:func:`helpers.data.reuters.class_counts`: documents per topic),
        ``largest`` (the topic with most training documents) and ``largest_train``, ``median``
        (training documents of the median topic with any), ``top_share`` (the share of the
        ``top`` largest topics in the (document, topic) assignments of the training documents).

    Examples
    --------
    >>> docs = pd.DataFrame({"topics": [["earn"], ["earn", "acq"], ["earn"], ["grain"]]})
    >>> s = topic_statistics(docs, docs, docs[:3], docs[3:], top=1)
    >>> s["used"], s["largest"], s["largest_train"], s["median"], round(s["top_share"], 2)
    (3, 'earn', 3, 2, 0.75)
    """
    by_doc = class_counts(train, test)
    trained = by_doc["train"]
    return {"used": len(topics_in(collection)), "modapte": len(topics_in(modapte)), "by_doc": by_doc,
            "largest": by_doc.index[0], "largest_train": int(trained.iloc[0]),
            "median": int(trained[trained > 0].median()), "top_share": float(trained.head(top).sum() / trained.sum())}


def labels_provenance(readme: str) -> bool:
    """Whether the collection's README says Reuters and Carnegie Group indexed the documents (line 271).

    Examples
    --------
    >>> labels_provenance("were assembled and indexed with categories by personnel from Reuters Ltd. "
    ...                   "(Sam Dobbins, ...) and Carnegie Group, Inc. (Peggy Andersen, ...) in 1987.")
    True
    >>> labels_provenance("collected by Reuters")
    False
    """
    return _PROVENANCE.search(readme) is not None


def table1_answers(by_doc: pd.DataFrame, by_listing: pd.DataFrame, matches, keys=None) -> dict:
    """Our answer to each row of Table 1: documents per class, or ``<D>`` entries when only they match.

    A class is counted by document (each document once per topic). When that misses the
    printed pair and the count of every ``<D>`` entry (a topic listed twice in one record
    counts twice) matches it, the row is answered with that count and says how.

    Parameters
    ----------
    by_doc, by_listing : DataFrame
        ``train`` and ``test`` counts per topic, by document and by listing
        (:func:`helpers.data.reuters.class_counts`).
    matches : callable
        ``matches(key, [train, test])``: whether a pair prints as the row's values (a
        notebook's ``check.matches``).
    keys : dict, optional
        Ledger key -> topic; :data:`TABLE1` by default.

    Returns
    -------
    dict
        ``{key: ([train, test], {"how": ...} or {"note": ...})}``, for ``check.numbers``.

    Examples
    --------
    >>> doc = pd.DataFrame({"train": [181], "test": [56]}, index=["corn"])
    >>> listed = pd.DataFrame({"train": [182], "test": [56]}, index=["corn"])
    >>> table1_answers(doc, listed, lambda key, ours: ours == [182, 56], {"table1.corn": "corn"})
    {'table1.corn': ([182, 56], {'how': 'counting every <D> entry, so a topic listed twice counts twice'})}
    >>> table1_answers(doc, listed, lambda key, ours: False, {"table1.corn": "corn"})
    {'table1.corn': ([181, 56], {'note': 'by <D> entry 182; 56'})}
    """
    answers = {}
    for key, topic in (TABLE1 if keys is None else keys).items():
        ours, listed = by_doc.loc[topic].tolist(), by_listing.loc[topic].tolist()
        if not matches(key, ours) and matches(key, listed):
            answers[key] = (listed, {"how": "counting every <D> entry, so a topic listed twice counts twice"})
        else:
            answers[key] = (ours, {"note": "" if ours == listed else f"by <D> entry {listed[0]:,}; {listed[1]:,}"})
    return answers


def collection_claims(readme: str, topics: dict, top_topics) -> dict:
    """The claims about the collection (lines 271-275): who labelled it, how uneven it is, Table 1's classes.

    Parameters
    ----------
    readme : str
        The collection's README.txt.
    topics : dict
        :func:`topic_statistics` of the ModApte documents.
    top_topics : iterable of str
        The topics with most training documents, as many as Table 1 has rows
        (:func:`helpers.data.reuters.top_categories`).

    Returns
    -------
    dict
        ``{key: (holds, evidence)}`` for ``corpus.provenance``, ``modapte.indexed`` (the
        README defines ModApte by TOPICS="YES" and assumes the indexer considered the topics of
        every such story), ``corpus.uneven`` (the largest topic has more than 100 times the
        training documents of the median one) and ``table1.top10``.

    Examples
    --------
    >>> topics = {"largest_train": 2877, "median": 12}
    >>> claims = collection_claims("collected by Reuters", topics, TABLE1.values())
    >>> {k: holds for k, (holds, _) in claims.items()}
    {'corpus.provenance': False, 'modapte.indexed': False, 'corpus.uneven': True, 'table1.top10': True}
    """
    return {
        "corpus.provenance": (labels_provenance(readme), "the collection's README (section IV): the documents were "
                              "assembled and indexed with categories by personnel from Reuters Ltd. and Carnegie "
                              "Group, Inc. in 1987"),
        "modapte.indexed": (bool(_MODAPTE_YES.search(readme) and _INDEXER.search(readme)),
                            "the README defines the ModApte sets by TOPICS=\"YES\" (section VIII.B) and calls it "
                            "\"a reasonable (though not certain) assumption\" that the indexer at least thought about "
                            "the topics of every such story (section VI); the paper states as fact what the README "
                            "assumes"),
        "corpus.uneven": (topics["largest_train"] > 100 * topics["median"], f"the largest topic has "
                          f"{topics['largest_train']:,} training documents, more than 100 times the median topic "
                          f"({topics['median']})"),
        "table1.top10": (set(TABLE1.values()) == set(top_topics), "the ten classes are the ten topics with most "
                         "training documents; the paper prints ship (197) before wheat (212)"),
    }


def preprocessing_claims(document: str, analyzer, weight_gap: float, n_docs: int, n_weights: int) -> dict:
    """Section 2.1's preprocessing and the TF-IDF weight of line 77, as claims.

    Parameters
    ----------
    document : str
        A document whose stems by the ``analyzer`` are compared with :func:`stems_by_hand`.
    analyzer : callable
        Text to stems (:class:`helpers.text.StemmingAnalyzer`).
    weight_gap : float
        The largest ``|fitted weight - paper_weights|`` over the training documents.
    n_docs, n_weights : int
        The training documents (N) and their nonzero weights.

    Returns
    -------
    dict
        ``{key: (holds, evidence)}`` for ``preprocessing`` and ``tfidf.formula`` (holds when the
        gap is below 1e-12).

    Examples
    --------
    >>> from helpers.text import StemmingAnalyzer
    >>> claims = preprocessing_claims("Umpires umpired the ball, 2 times.", StemmingAnalyzer(), 4e-16, 10, 25)
    >>> claims["preprocessing"][0], claims["preprocessing"][1][:64]
    (True, 'first training document: 5 words, 1 of them stop words or single')
    >>> claims["tfidf.formula"]
    (True, 'our weights equal TF x log2(N/n_j), N = 10 training documents, on all 25 nonzero weights (max |difference| < 1e-12), each document then scaled to unit length; line 75 calls W_ij a relative frequency, line 79 a term frequency: after the scaling the two agree')
    """  # noqa: E501
    words, by_hand = stems_by_hand(document)
    return {
        "preprocessing": (analyzer(document) == by_hand, f"first training document: {len(words)} words, "
                          f"{len(words) - len(by_hand)} of them stop words or single letters, {len(by_hand)} Porter "
                          "stems, the same as nltk's stemmer on scikit-learn's stop list; punctuation, digits and "
                          "whitespace never reach a stem; the sentence above shows word forms sharing a stem"),
        "tfidf.formula": (bool(weight_gap < 1e-12), f"our weights equal TF x log2(N/n_j), N = {n_docs:,} training "
                          f"documents, on all {n_weights:,} nonzero weights (max |difference| "
                          f"{rounding_level(weight_gap, 1e-12)}), each document then scaled to unit length; "
                          "line 75 calls W_ij "
                          "a relative frequency, line 79 a term frequency: after the scaling the two agree"),
    }
