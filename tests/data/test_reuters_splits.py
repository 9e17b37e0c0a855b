"""Tests of helpers.data.reuters_splits: ModApte, class counts, top-k, single-label subsets, settings."""

import os

import numpy as np
import pandas as pd
import pytest

from helpers.data import reuters_splits as P
from helpers.data.paths import RAW_DIR
from helpers.data.reuters import ENV_VAR, load_reuters21578


def small_table():
    """The table load_reuters21578 gives for tests.support.small_files()."""
    return pd.DataFrame({
        "id": [1, 2, 3, 4, 5],
        "lewissplit": ["TRAIN", "TRAIN", "TRAIN", "TEST", "NOT-USED"],
        "topics_attr": ["YES", "YES", "YES", "YES", "NO"],
        "topics": [["earn"], ["acq", "earn"], [], ["acq"], ["earn"]],
    })


def test_split_helpers_on_the_small_table():
    df = small_table()
    train, test = P.modapte_split(df)
    assert train["id"].tolist() == [1, 2] and test["id"].tolist() == [4]
    train_all, _ = P.modapte_split(df, keep_without_topics=True)
    assert train_all["id"].tolist() == [1, 2, 3]
    assert P.top_categories(train, 1) == ["earn"]
    assert P.class_counts(train, test).to_dict("index") == {"earn": {"train": 2, "test": 0},
                                                             "acq": {"train": 1, "test": 1}}
    assert P.categories_with_train_and_test(train, test) == ["acq"]
    assert P.single_label(train, ["earn", "acq"])["label"].tolist() == ["earn"]


def test_split_helpers_on_the_loaded_small_archive(small_archive):
    path, _ = small_archive
    df = load_reuters21578(path, checksums=None, cache=False, url=None)
    pd.testing.assert_frame_equal(df[small_table().columns], small_table())
    assert [len(s) for s in P.modapte_split(df)] == [2, 1]


def test_a_topic_listed_twice_counts_once_per_document():
    train = pd.DataFrame({"topics": [["grain", "corn", "barley"]],
                          "topics_listed": [["grain", "corn", "barley", "corn"]]})
    test = pd.DataFrame({"topics": [["trade"]], "topics_listed": [["trade", "trade"]]})
    assert P.class_counts(train, test).loc[["trade", "corn"]].values.tolist() == [[0, 1], [1, 0]]
    assert P.class_counts(train, test, by="listing").loc[["trade", "corn"]].values.tolist() == [[0, 2], [2, 0]]
    # single-label: a document listing one topic twice has one topic
    assert P.single_label(test, ["trade"])["label"].tolist() == ["trade"]
    hand_made = pd.DataFrame({"topics": [["trade", "trade"], ["acq"]]})  # a table not from the parser
    assert P.single_label(hand_made, ["trade", "acq"])["label"].tolist() == ["trade", "acq"]
    assert P.make_setting(hand_made, hand_made, "single_label", 2)[2].tolist() == ["trade", "acq"]
    assert P.top_categories(pd.DataFrame({"topics": [["b", "b", "b"], ["a"], ["a"]]}), 1) == ["a"]
    with pytest.raises(ValueError, match="by must be 'document'"):
        P.class_counts(train, test, by="tags")
    with pytest.raises(ValueError, match="topics_listed"):
        P.class_counts(hand_made, hand_made, by="listing")


def test_restrict_to_categories_keeps_documents_with_one_of_them():
    df = pd.DataFrame({"topics": [["earn", "gold"], ["gold"], ["acq", "acq"]]})
    assert P.restrict_to_categories(df, ["earn", "acq"])["topics"].tolist() == [["earn"], ["acq"]]
    with pytest.raises(ValueError, match="categories is empty"):
        P.restrict_to_categories(df, [])


def test_make_setting_shapes():
    tr = pd.DataFrame({"topics": [["a"], ["a", "b"], ["b"], ["c", "a"]]})
    te = pd.DataFrame({"topics": [["b"], ["a", "c"], ["d"]]})
    rows, rows_te, y, _, classes = P.make_setting(tr, te, "multi_label", 2)
    assert classes == ["a", "b"] and rows.tolist() == [0, 1, 2, 3] and rows_te.tolist() == [0, 1]
    np.testing.assert_array_equal(y, [[1, 0], [1, 1], [0, 1], [1, 0]])
    rows, rows_te, y, y_te, classes = P.make_setting(tr, te, "all_90")
    assert classes == ["a", "b", "c"] and rows_te.tolist() == [0, 1]
    np.testing.assert_array_equal(y_te, [[0, 1, 0], [1, 0, 1]])
    with pytest.raises(ValueError, match="setting must be one of"):
        P.make_setting(tr, te, "R52")


def test_bad_inputs_to_split_helpers():
    with pytest.raises(ValueError, match="load_reuters21578"):
        P.modapte_split(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match=r"k must be an integer >= 1 \(the number of categories\)"):
        P.top_categories(pd.DataFrame({"topics": [["a"]]}), 0)
    with pytest.raises(ValueError, match="among must be"):
        P.single_label(pd.DataFrame({"topics": [["a"]]}), ["a"], among="some")


# --------------------------------------------------------------------------- hostile input
# (each case is a row of tests/hostile_cases/loaders.csv)
SMALL = small_table()
TRAIN, TEST = P.modapte_split(SMALL)
AS_TEXT = pd.DataFrame({"topics": ["earn", "acq", "earn"]})  # one topic per document, not in a list

SPLIT_ERRORS = [
    # a str where a list of topics belongs was read letter by letter: categories 'a', 'e', 'n', 'r'
    ("top-categories-topics-as-text", lambda: P.top_categories(AS_TEXT, 2), ValueError,
     r"train\['topics'\] must hold a list of topic names per document; row 0 holds str 'earn'\. Wrap single "
     r"topics in a list: df\['topics'\] = df\['topics'\]\.map\(lambda t: \[t\]\)"),
    ("make-setting-topics-as-text", lambda: P.make_setting(AS_TEXT, AS_TEXT, "multi_label", 2), ValueError,
     r"train\['topics'\] must hold a list of topic names per document; row 0 holds str 'earn'"),
    ("class-counts-no-topics-column", lambda: P.class_counts(SMALL.drop(columns="topics"), TEST), ValueError,
     r"train has no 'topics' column \(it has \['id', 'lewissplit', 'topics_attr'\]\); pass the table of "
     r"load_reuters21578 or a half of modapte_split"),
    ("modapte-keep-without-topics-text", lambda: P.modapte_split(SMALL, keep_without_topics="no"), ValueError,
     r"^keep_without_topics must be one of True, False; got 'no'\.$"),
    ("modapte-topics-missing", lambda: P.modapte_split(SMALL.assign(topics=[["earn"], None, [], ["acq"], []])),
     ValueError, r"df\['topics'\] must hold a list of topic names per document; row 1 holds NoneType None\. Use \[\] "
                 r"for a document without topics"),
    ("make-setting-categories-zero", lambda: P.make_setting(TRAIN, TEST, "single_label", 0), ValueError,
     r"^categories must be an integer >= 1 \(how many of the largest topics\), e\.g\. categories=10; got 0\.$"),
    ("single-label-no-categories", lambda: P.single_label(TRAIN, []), ValueError,
     r"categories is empty; pass e\.g\. top_categories\(train, 10\)"),
    # already refused clearly when first tried
    ("top-categories-k-text", lambda: P.top_categories(TRAIN, "10"), ValueError,
     r"^k must be an integer >= 1 \(the number of categories\), e\.g\. k=10; got '10'\.$"),
]


@pytest.mark.parametrize("call, error, words", [c[1:] for c in SPLIT_ERRORS], ids=[c[0] for c in SPLIT_ERRORS])
def test_hostile_split_input_gives_a_clear_error(call, error, words):
    with pytest.raises(error, match=words):
        call()


SPLIT_ANSWERS = [
    # one category named as a str: that category, not its letters (every document was dropped)
    ("restrict-to-categories-one-name", lambda: P.restrict_to_categories(SMALL, "earn"),
     lambda: P.restrict_to_categories(SMALL, ["earn"])),
    ("single-label-one-name", lambda: P.single_label(SMALL, "acq"), lambda: P.single_label(SMALL, ["acq"])),
]


@pytest.mark.parametrize("call, reference", [c[1:] for c in SPLIT_ANSWERS], ids=[c[0] for c in SPLIT_ANSWERS])
def test_hostile_split_input_gives_the_right_answer(call, reference):
    got, ref = call(), reference()
    assert len(ref) > 0
    pd.testing.assert_frame_equal(got, ref)


def test_the_loader_module_still_offers_the_splits():
    from helpers.data import reuters

    for name in P.__all__:
        assert getattr(reuters, name) is getattr(P, name)


# --------------------------------------------------------------------------- the real corpus
RAW = RAW_DIR / "reuters21578.tar.gz"


@pytest.mark.integration
@pytest.mark.skipif(not RAW.exists() and not os.environ.get(ENV_VAR),
                    reason="Reuters-21578 archive absent (CI copies it into data/raw/)")
def test_modapte_counts_on_the_full_corpus():
    df = load_reuters21578()  # verified on first load, then from the parse cache
    train, test = P.modapte_split(df)
    assert (len(train), len(test)) == (7775, 3019)
    train_all, test_all = P.modapte_split(df, keep_without_topics=True)
    assert (len(train_all), len(test_all)) == (9603, 3299)
    counts = P.class_counts(train, test).head(10)
    assert counts.to_dict("index") == {  # documents: NEWID 19918 lists trade twice, NEWID 5467 corn twice
        "earn": {"train": 2877, "test": 1087}, "acq": {"train": 1650, "test": 719},
        "money-fx": {"train": 538, "test": 179}, "grain": {"train": 433, "test": 149},
        "crude": {"train": 389, "test": 189}, "trade": {"train": 369, "test": 117},
        "interest": {"train": 347, "test": 131}, "wheat": {"train": 212, "test": 71},
        "ship": {"train": 197, "test": 89}, "corn": {"train": 181, "test": 56},
    }
    listing = P.class_counts(train, test, by="listing")
    assert listing.loc["trade"].tolist() == [369, 118] and listing.loc["corn"].tolist() == [182, 56]
    topics_in_modapte = {t for ts in pd.concat([train_all, test_all])["topics"] for t in ts}
    assert len(topics_in_modapte) == 118 and len({t for ts in df["topics"] for t in ts}) == 120
    assert len(P.categories_with_train_and_test(train, test)) == 90
    top10 = P.top_categories(train, 10)
    r8_train = P.single_label(train, top10)
    assert len(r8_train) == 5485 and r8_train["label"].nunique() == 8
    assert len(P.single_label(test, top10)) == 2190  # with NEWID 19918 (trade, listed twice)
    # exactly one of the ten, whatever else: still not ten classes (corn never, wheat once without grain)
    one_of_ten_train = P.single_label(train, top10, among="categories")
    one_of_ten_test = P.single_label(test, top10, among="categories")
    assert one_of_ten_train["label"].nunique() == 9 and (one_of_ten_train["label"] == "wheat").sum() == 1
    assert one_of_ten_test["label"].nunique() == 8
    assert "corn" not in set(one_of_ten_train["label"]) | set(one_of_ten_test["label"])
