"""The keyword threshold the Mahal-kNN paper does not give: the pipeline at one vocabulary size, claims over many."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from helpers.studies.srivastava_rao_2016 import (
    Documents,
    claims_over_keywords,
    components_by_vocabulary,
    keyword_claims,
    keyword_order,
    keyword_setting,
    specification_curve,
)
from helpers.studies.srivastava_rao_2016.corpus import paper_weights


def corpus(seed=0, n=90, stems=40, signal=2.0):
    """Three topics of 30 documents, each with its own heavier stems, and duplicate entries in the sparse counts."""
    rng = np.random.default_rng(seed)
    y = np.repeat(["grain", "trade", "acq"], n // 3)
    rate = np.full((n, stems), 0.3)
    for t, topic in enumerate(["grain", "trade", "acq"]):
        rate[y == topic, t * 6:(t + 1) * 6] += signal
    dense = rng.poisson(rate)
    counts = sp.csr_matrix(dense)
    # the same counts written with duplicate (row, column) entries, as a matrix built from parts can be
    coo = counts.tocoo()
    half = coo.data // 2
    dup = sp.csr_matrix((np.r_[coo.data - half, half], (np.r_[coo.row, coo.row], np.r_[coo.col, coo.col])),
                        shape=counts.shape)
    return dense, dup, y


def test_the_keyword_order_is_the_one_components_by_vocabulary_keeps_and_leaves_its_input_alone():
    dense, dup, _ = corpus()
    before = (dup.data.copy(), dup.indices.copy(), dup.indptr.copy())
    order = keyword_order(dup)
    assert all(np.array_equal(a, b) for a, b in zip(before, (dup.data, dup.indices, dup.indptr)))
    assert np.array_equal(order, keyword_order(dense))
    weight = np.asarray(sp.csr_matrix(dense).multiply(
        np.log2(len(dense) / np.maximum((dense > 0).sum(axis=0), 1))).sum(axis=0)).ravel()
    assert np.all(np.diff(weight[order]) <= 0)      # heaviest first


def test_a_setting_is_the_papers_pipeline_on_the_kept_stems():
    dense, dup, y = corpus()
    rows = (np.arange(0, 90, 2), np.arange(1, 90, 2))
    docs = Documents((dup, dup), rows, (y[rows[0]], y[rows[1]]), ("acq", "grain", "trade"))
    s = keyword_setting(docs, 12, 0.9, ks=[3, 5])
    keep = keyword_order(dense)[:12]
    assert np.array_equal(s.kept, keep)
    expected = paper_weights(dense[:, keep])   # TF x log2(N/n_j) over the kept stems, unit length
    assert abs(s.weights[0] - expected).max() < 1e-12
    assert s.components == int(components_by_vocabulary(dense, [12], 0.9).loc[12, "components"])
    assert s.scores[0].shape == (45, s.components) and s.scores[1].shape == (45, s.components)
    assert s.favoured != "euclidean" and s.accuracy[s.favoured] == max(v for r, v in s.accuracy.items()
                                                                      if r != "euclidean")
    # Euclidean kNN on the kept stems' weights, best k of the two on the test documents
    from sklearn.neighbors import KNeighborsClassifier
    accs = [np.mean(KNeighborsClassifier(k, algorithm="brute").fit(s.weights[0][rows[0]], y[rows[0]])
                    .predict(s.weights[1][rows[1]]) == y[rows[1]]) for k in (3, 5)]
    assert s.full_accuracy == pytest.approx(max(accs))


def test_every_claim_at_one_size_is_an_answer_the_check_can_judge():
    dense, dup, y = corpus(1, n=120, signal=0.5)   # topics that overlap: accuracy grows with the training rows
    rows = (np.arange(0, 120, 2), np.arange(1, 120, 2))
    docs = Documents((dup, dup), rows, (y[rows[0]], y[rows[1]]), ("acq", "grain", "trade"))
    s = keyword_setting(docs, 15, 0.9, ks=[3, 5])
    multi = pd.Series(y[rows[0]]).value_counts()
    claims = keyword_claims(s, docs, multi, fractions=(0.4, 0.7, 1.0), ks=[3, 5], n_resamples=99)
    assert {"claim.accuracy-vs-euclidean", "reading.per-category", "category-covariance.invertible",
            "claim.knn-pca", "fig5.mahal-above", "claim.balance.micro"} <= set(claims)
    for key, answer in claims.items():
        assert any(k in answer for k in ("effect", "comparisons", "holds")) and answer["evidence"], key
    # with one label per document micro precision, micro recall and micro F1 are the accuracy
    accuracy = claims["claim.accuracy-vs-euclidean"]["effect"]["effect"]
    for k in ("claim.precision.micro", "claim.recall.micro", "claim.balance.micro"):
        assert claims[k]["effect"]["effect"] == pytest.approx(accuracy), k


def test_claims_over_keywords_combines_only_the_keys_answered_at_every_size():
    effect = {"effect": -0.1, "interval": (-0.12, -0.08)}
    at = {250: {"a": {"effect": effect, "how": "shrunk", "evidence": "e250"}},
          500: {"a": {"comparisons": {"x": effect}, "how": "shrunk", "evidence": "e500"}}}
    out = claims_over_keywords({"a": {"effect": effect, "how": "shrunk", "evidence": "full"},
                                "b": (True, "not a threshold claim")}, at, at=18027)
    assert out["a"] == {"settings": {250: effect, 500: {"comparisons": {"x": effect}}, 18027: effect},
                        "at": 18027, "evidence": "full", "how": "shrunk"}
    assert out["b"] == (True, "not a threshold claim")
    differ = claims_over_keywords({"a": {"effect": effect, "how": "at d = 3,059", "evidence": "full"}}, at, at=9)
    assert "how" not in differ["a"]       # a protocol that names one size is not the protocol at every size
    with pytest.raises(ValueError, match="the full vocabulary's size, not one of the thresholds"):
        claims_over_keywords({}, at, at=250)


def test_the_specification_curve_has_every_reading_at_every_size():
    dense, dup, y = corpus(2)
    rows = (np.arange(0, 90, 2), np.arange(1, 90, 2))
    docs = Documents((dup, dup), rows, (y[rows[0]], y[rows[1]]), ("acq", "grain", "trade"))
    settings = {n: keyword_setting(docs, n, 0.9, ks=[3]) for n in (10, 20)}
    full = settings[20]
    full_effects = full.effects(y[rows[1]], docs.classes, n_resamples=99)
    curve = specification_curve(settings, y[rows[1]], docs.classes, (40, full.components, full.predictions,
                                                                     full_effects), n_resamples=99)
    assert sorted(curve["keywords"].unique()) == [10, 20, 40]
    assert (curve.groupby("keywords")["most accurate"].sum() == 1).all()
    assert ((curve["low"] <= curve["effect"]) & (curve["effect"] <= curve["high"])).all()
    per = curve[curve["keywords"] == 10].set_index("reading")["effect"]
    s = settings[10]
    assert per["per_category"] == pytest.approx(s.accuracy["per_category"] - s.accuracy["euclidean"])


def test_a_settings_effects_are_computed_once_and_are_effects_against():
    from helpers.comparisons import effects_against
    from helpers.studies.srivastava_rao_2016 import READINGS

    dense, dup, y = corpus(3)
    rows = (np.arange(0, 90, 2), np.arange(1, 90, 2))
    docs = Documents((dup, dup), rows, (y[rows[0]], y[rows[1]]), ("acq", "grain", "trade"))
    s = keyword_setting(docs, 12, 0.9, ks=[3])
    first = s.effects(y[rows[1]], docs.classes, n_resamples=99)
    assert s.effects(y[rows[1]], docs.classes, n_resamples=99) is first          # kept, not recomputed
    mahal = [r for r in READINGS if r != "euclidean" and r in s.predictions]
    expected = effects_against(y[rows[1]], {r: s.predictions[r] for r in mahal}, s.predictions["euclidean"],
                               classes=list(docs.classes), n_resamples=99)
    assert {r: e["interval"] for r, e in first.items()} == {r: e["interval"] for r, e in expected.items()}
    assert s.effects(y[rows[1]], docs.classes, n_resamples=99, random_state=1) is not first
