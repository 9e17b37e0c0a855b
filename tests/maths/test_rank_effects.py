"""helpers.rank_effects: the AUC and the trend over training sizes with their intervals, against scipy, sklearn."""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from helpers.rank_effects import auc_effect, trend_effect


def test_auc_effect_equals_sklearn_and_mann_whitney(rng):
    right = rng.random(300) < 0.7
    scores = rng.normal(size=300) + 0.5 * right     # right predictions score higher on average
    scores[:20] = np.round(scores[:20])             # some ties, counted one half
    r = auc_effect(scores, right, n_resamples=999)
    assert r["auc"] == pytest.approx(roc_auc_score(right, scores))
    assert r["effect"] == pytest.approx(r["auc"] - 0.5)
    assert r["p"] == pytest.approx(stats.mannwhitneyu(scores[right], scores[~right]).pvalue)
    low, high = r["interval"]
    assert 0 < low < r["effect"] < high < 0.5
    assert r["method"].startswith("AUC - 0.5 on 300 test rows, BCa bootstrap 95% interval (999 resamples)")
    # no information: the interval straddles 0
    null = auc_effect(rng.normal(size=300), right, n_resamples=999)
    assert null["interval"][0] < 0 < null["interval"][1]


def test_auc_effect_of_a_perfect_ordering_has_no_spread():
    r = auc_effect(np.arange(10.0), np.arange(10) >= 5, n_resamples=99)
    assert (r["auc"], r["interval"]) == (1.0, (0.5, 0.5))


@pytest.mark.parametrize("scores, positive, match", [
    (np.zeros(4), np.array([1, 0, 1, 0]), "boolean"),
    (np.zeros(4), np.ones(4, bool), "both groups"),
    (np.array([0.0, np.nan, 1.0, 2.0]), np.array([True, False, True, False]), "finite"),
    (np.zeros(3), np.array([True, False]), "one length"),
])
def test_auc_effect_bad_input(scores, positive, match):
    with pytest.raises(ValueError, match=match):
        auc_effect(scores, positive)


def test_trend_effect_of_accuracy_and_of_the_error_reduction(rng):
    y = np.zeros(400, dtype=int)
    wrong = lambda n: np.where(rng.permutation(400) < n, 1, 0)  # noqa: E731 - n wrong of 400
    preds = [wrong(n) for n in (200, 150, 170, 80)]              # accuracies 0.5, 0.625, 0.575, 0.8
    r = trend_effect(y, preds, [10, 20, 40, 80], n_resamples=499)
    assert r["values"] == pytest.approx([0.5, 0.625, 0.575, 0.8])
    assert r["effect"] == pytest.approx(stats.spearmanr([10, 20, 40, 80], r["values"])[0])   # 0.8
    assert r["interval"][0] <= r["effect"] <= r["interval"][1] <= 1
    reference = [wrong(n) for n in (100, 80, 60, 40)]            # the reference's error falls faster
    preds = [wrong(n) for n in (120, 110, 100, 90)]              # reductions -0.2, -0.375, -0.667, -1.25
    red = trend_effect(y, preds, [10, 20, 40, 80], reference=reference, n_resamples=499)
    ce, ce_ref = np.array([120, 110, 100, 90]) / 400, np.array([100, 80, 60, 40]) / 400
    assert red["values"] == pytest.approx(list((ce_ref - ce) / ce_ref))
    assert red["effect"] == pytest.approx(-1.0) and red["interval"][1] < 0
    assert "error reduction against the reference" in red["method"]


def test_trend_effect_bad_input():
    y = np.zeros(10, dtype=int)
    with pytest.raises(ValueError, match="at least three sizes"):
        trend_effect(y, [y, y], [1, 2])
    with pytest.raises(ValueError, match="one array of predictions per size"):
        trend_effect(y, [y, y, y], [1, 2, 3], reference=[y])


def test_a_trend_over_training_sizes_with_every_value_tied_is_refused_by_name():
    y = np.array([0, 1] * 10)
    with pytest.raises(ValueError, match="the same at every one of the 3 training sizes .* no rank correlation"):
        trend_effect(y, [y, y, y], [10, 20, 40], n_resamples=99)
