"""Splits of the Reuters-21578 table: ModApte, class counts, top-k and the 90 categories, single-label sets.

Every function takes the table :func:`helpers.data.reuters.load_reuters21578` returns (or its
ModApte halves) and returns rows, counts or labels; none reads a file. The ModApte split
follows Lewis's README [1]_; the 90 categories with a training and a test document are Yang &
Liu's [2]_; the single-label subset of the ten largest topics is Cardoso-Cachopo's R8 (with the
ten largest topics only 8 keep documents: ``wheat`` and ``corn`` always come with ``grain``).

References
----------
.. [1] D. D. Lewis (1997), Reuters-21578 text categorization test collection, Distribution
   1.0, README.txt (the ModApte split: LEWISSPLIT and TOPICS="YES").
.. [2] Y. Yang & X. Liu (1999), A re-examination of text categorization methods, SIGIR
   (the 90 categories with at least one training and one test document).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from .._validation import Boolean, check_int, check_value

__all__ = [
    "SETTINGS",
    "categories_with_train_and_test",
    "class_counts",
    "make_setting",
    "modapte_split",
    "restrict_to_categories",
    "single_label",
    "top_categories",
]


def _unique(topics) -> list:
    """A document's topics, each once, in the order first listed (tables built by hand may repeat one)."""
    return list(dict.fromkeys(topics))


def _check_table(df) -> None:
    if not isinstance(df, pd.DataFrame) or not {"lewissplit", "topics_attr", "topics"} <= set(df.columns):
        raise ValueError(
            "Expected the table returned by load_reuters21578 (columns lewissplit, topics_attr, topics); "
            f"got {type(df).__name__}."
        )
    _topics(df, "df")


def _topics(df, name: str) -> pd.Series:
    """``df["topics"]``, each entry a list of topic names, or an error naming the row and the fix.

    A str where a list belongs was read letter by letter (topics 'e', 'a', 'r', 'n' for "earn"),
    a missing list (None, NaN) broke with a bare TypeError.
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame with a topics column (from load_reuters21578 or modapte_split); "
                        f"got {type(df).__name__}.")
    if "topics" not in df.columns:
        raise ValueError(f"{name} has no 'topics' column (it has {list(df.columns)[:8]}); pass the table of "
                         "load_reuters21578 or a half of modapte_split, or name the column of topic lists 'topics'.")
    topics = df["topics"]
    for i, ts in enumerate(topics):
        if isinstance(ts, (list, tuple, set, frozenset, np.ndarray)):
            continue
        fix = ("Wrap single topics in a list: df['topics'] = df['topics'].map(lambda t: [t])" if isinstance(ts, str)
               else "Use [] for a document without topics")
        raise ValueError(f"{name}['topics'] must hold a list of topic names per document; row {i} holds "
                         f"{type(ts).__name__} {ts!r:.40}. {fix}.")
    return topics


def _categories(categories) -> set:
    """``categories`` as a set of names: one str is one category (not its letters); none is an error."""
    cats = {categories} if isinstance(categories, str) else set(categories)
    if not cats:
        raise ValueError("categories is empty; pass e.g. top_categories(train, 10).")
    return cats


def modapte_split(df: pd.DataFrame, *, keep_without_topics: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ModApte training and test sets (Lewis's README, section VIII.B).

    Training: ``LEWISSPLIT="TRAIN"``, ``TOPICS="YES"``; test: ``LEWISSPLIT="TEST"``,
    ``TOPICS="YES"``. By default documents without any topic are dropped (7,775 / 3,019
    on the full collection, the usual ModApte setting); ``keep_without_topics=True`` keeps
    them (9,603 / 3,299).

    Examples
    --------
    >>> df = pd.DataFrame({"lewissplit": ["TRAIN", "TRAIN", "TEST", "NOT-USED"],
    ...                    "topics_attr": ["YES", "YES", "YES", "YES"],
    ...                    "topics": [["earn"], [], ["acq"], ["earn"]]})
    >>> [len(s) for s in modapte_split(df)], [len(s) for s in modapte_split(df, keep_without_topics=True)]
    ([1, 1], [2, 1])
    """
    _check_table(df)
    check_value(keep_without_topics, Boolean(), "keep_without_topics")  # "no" kept them
    yes = df["topics_attr"] == "YES"
    if not keep_without_topics:
        yes &= df["topics"].map(len) > 0
    train = df[yes & (df["lewissplit"] == "TRAIN")].reset_index(drop=True)
    test = df[yes & (df["lewissplit"] == "TEST")].reset_index(drop=True)
    return train, test


def class_counts(train: pd.DataFrame, test: pd.DataFrame, by: str = "document") -> pd.DataFrame:
    """Documents per topic in training and test, sorted by training count (descending), then name.

    Parameters
    ----------
    train, test : DataFrame
        Tables from :func:`modapte_split` (a ``topics`` column of lists).
    by : {"document", "listing"}
        ``"document"``: a document counts once for each of its topics, however often its
        ``<TOPICS>`` lists one (multi-label: a document about earn and acq counts for both).
        ``"listing"``: every ``<D>`` entry counts (column ``topics_listed``), so a topic
        printed twice in one record counts twice; only for comparing with counts made
        that way.

    Examples
    --------
    >>> tr = pd.DataFrame({"topics": [["earn"], ["earn", "acq"]],
    ...                    "topics_listed": [["earn"], ["earn", "acq", "earn"]]})
    >>> te = pd.DataFrame({"topics": [["acq"]], "topics_listed": [["acq"]]})
    >>> class_counts(tr, te).values.tolist()
    [[2, 0], [1, 1]]
    >>> class_counts(tr, te, by="listing").loc["earn"].tolist()
    [3, 0]
    """
    if by not in ("document", "listing"):
        raise ValueError(
            f"by must be 'document' (each document once per topic) or 'listing' (every <D> entry); got {by!r}."
        )

    def count(df):
        if by == "listing":
            if "topics_listed" not in df.columns:
                raise ValueError("by='listing' needs the topics_listed column of load_reuters21578's table.")
            return Counter(t for ts in df["topics_listed"] for t in ts)
        return Counter(t for ts in df["topics"] for t in set(ts))

    _topics(train, "train")
    _topics(test, "test")
    tr, te = count(train), count(test)
    names = sorted(set(tr) | set(te), key=lambda c: (-tr[c], c))
    return pd.DataFrame({"train": [tr[c] for c in names], "test": [te[c] for c in names]},
                        index=pd.Index(names, name="category"))


def top_categories(train: pd.DataFrame, k: int = 10) -> list[str]:
    """The ``k`` topics with most training documents (each document once per topic; ties by name).

    Examples
    --------
    >>> top_categories(pd.DataFrame({"topics": [["b"], ["a", "b"], ["c"]]}), 2)
    ['b', 'a']
    """
    check_int(k, "k", 1, "k=10", why="the number of categories")
    counts = Counter(t for ts in _topics(train, "train") for t in set(ts))
    return sorted(counts, key=lambda c: (-counts[c], c))[:k]


def categories_with_train_and_test(train: pd.DataFrame, test: pd.DataFrame) -> list[str]:
    """Topics with at least one training and one test document (90 under ModApte).

    Examples
    --------
    >>> categories_with_train_and_test(pd.DataFrame({"topics": [["a"], ["b"]]}),
    ...                                pd.DataFrame({"topics": [["b", "c"]]}))
    ['b']
    """
    tr = {t for ts in _topics(train, "train") for t in ts}
    te = {t for ts in _topics(test, "test") for t in ts}
    return sorted(tr & te)


def restrict_to_categories(df: pd.DataFrame, categories) -> pd.DataFrame:
    """Keep only ``categories`` in each topic list and drop documents left without one.

    The multi-label setting: a document about ``earn`` and ``gold`` stays, labelled
    ``['earn']``, when ``gold`` is not among ``categories``.

    Examples
    --------
    >>> df = pd.DataFrame({"topics": [["earn", "gold"], ["gold"], ["acq"]]})
    >>> restrict_to_categories(df, ["earn", "acq"])["topics"].tolist()
    [['earn'], ['acq']]
    """
    cats = _categories(categories)
    out = df.assign(topics=_topics(df, "df").map(lambda ts: _unique(t for t in ts if t in cats)))
    return out[out["topics"].map(len) > 0].reset_index(drop=True)


def single_label(df: pd.DataFrame, categories, among: str = "all") -> pd.DataFrame:
    """Single-label subset with a ``label`` column.

    ``among="all"``: documents with exactly one topic overall, that topic in
    ``categories`` (the R8 / R52 convention of Cardoso-Cachopo: with the ten largest
    topics only 8 keep documents, because ``wheat`` and ``corn`` always come with
    ``grain``). ``among="categories"``: documents with exactly one of ``categories``,
    whatever other topics they have. That does not bring the ten classes back: with the
    ten largest ModApte topics, ``corn`` never and ``wheat`` once (in training) occurs
    without ``grain``, so 9 classes keep training documents and 8 keep test documents.

    Examples
    --------
    >>> df = pd.DataFrame({"topics": [["earn"], ["grain", "wheat"], ["wheat", "gold"]]})
    >>> single_label(df, ["earn", "grain", "wheat"])["label"].tolist()
    ['earn']
    >>> single_label(df, ["earn", "grain", "wheat"], among="categories")["label"].tolist()
    ['earn', 'wheat']
    """
    if among not in ("all", "categories"):
        raise ValueError(f"among must be 'all' (R8 convention) or 'categories'; got {among!r}.")
    cats = _categories(categories)
    kept = _topics(df, "df").map(lambda ts: _unique(ts) if among == "all" else _unique(t for t in ts if t in cats))
    mask = kept.map(lambda ts: len(ts) == 1 and ts[0] in cats)
    out = df[mask].copy()
    out["label"] = kept[mask].map(lambda ts: ts[0])
    return out.reset_index(drop=True)


SETTINGS = ("single_label", "multi_label", "all_90")


def make_setting(train: pd.DataFrame, test: pd.DataFrame, setting: str = "single_label", categories: int = 10):
    """Rows and labels of one evaluation setting on the ModApte split.

    ``"single_label"``: documents with exactly one topic, among the ``categories`` largest
    (R8 for 10: wheat and corn never occur alone); ``"multi_label"``: documents with at
    least one of the ``categories`` largest topics, labelled with those; ``"all_90"``: the
    topics with a training and a test document (90), multi-label.

    Returns
    -------
    train_rows, test_rows : ndarray of int
        Positions in ``train`` and ``test``.
    y_train, y_test : ndarray
        Labels (1-D, single-label) or binary indicator matrices (2-D, multi-label).
    classes : list of str

    Examples
    --------
    >>> tr = pd.DataFrame({"topics": [["a"], ["a", "b"], ["b"], ["c"]]})
    >>> te = pd.DataFrame({"topics": [["b"], ["a", "c"]]})
    >>> rows, _, y, _, classes = make_setting(tr, te, "single_label", 2)
    >>> rows.tolist(), y.tolist(), classes
    ([0, 2], ['a', 'b'], ['a', 'b'])
    >>> make_setting(tr, te, "all_90")[2].tolist()
    [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1]]
    """
    from sklearn.preprocessing import MultiLabelBinarizer

    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}; got {setting!r}.")
    if setting == "all_90":
        cats = categories_with_train_and_test(train, test)
    else:
        categories = check_int(categories, "categories", 1, "categories=10", why="how many of the largest topics")
        cats = top_categories(train, categories)
        _topics(test, "test")
    if setting == "single_label":
        t_tr, t_te = train["topics"].map(_unique), test["topics"].map(_unique)
        ok_tr = t_tr.map(lambda ts: len(ts) == 1 and ts[0] in cats).to_numpy()
        ok_te = t_te.map(lambda ts: len(ts) == 1 and ts[0] in cats).to_numpy()
        y_tr = t_tr[ok_tr].map(lambda ts: ts[0]).to_numpy()
        y_te = t_te[ok_te].map(lambda ts: ts[0]).to_numpy()
        classes = sorted(set(y_tr))
        return np.flatnonzero(ok_tr), np.flatnonzero(ok_te), y_tr, y_te, classes
    keep = set(cats)
    t_tr = train["topics"].map(lambda ts: [t for t in ts if t in keep])
    t_te = test["topics"].map(lambda ts: [t for t in ts if t in keep])
    ok_tr, ok_te = (t_tr.map(len) > 0).to_numpy(), (t_te.map(len) > 0).to_numpy()
    mlb = MultiLabelBinarizer(classes=sorted(cats)).fit([])
    return (np.flatnonzero(ok_tr), np.flatnonzero(ok_te), mlb.transform(t_tr[ok_tr]),
            mlb.transform(t_te[ok_te]), sorted(cats))
