"""helpers.comparisons: several pairs of classifiers compared, each effect with its interval and counts."""

import numpy as np
import pytest

from helpers.comparisons import (
    accuracy_difference,
    comparison_evidence,
    comparisons_table,
    effects_against,
    effects_table,
    mcnemar_table,
    pair_effects,
    prediction_effects,
    sweep_comparisons,
)
from helpers.effects import paired_bootstrap, resampled_difference
from helpers.significance import mcnemar_exact

# ---------------------------------------------------------------------------- over resamples of one data set


def test_pair_effects_are_nadeau_bengio_differences():
    scores = {"a": np.array([0.95, 0.93, 0.96, 0.94, 0.97]), "b": np.array([0.93, 0.93, 0.94, 0.92, 0.98])}
    effects = pair_effects(scores, [("a", "b")], 0.25)
    e = effects["a vs b"]
    ref = resampled_difference(scores["a"], scores["b"], 0.25)
    assert e["effect"] == pytest.approx(0.01) and e["interval"] == pytest.approx(ref["interval"])
    assert e["p"] == pytest.approx(ref["p"]) and (e["wins"], e["losses"], e["ties"]) == (3, 1, 1)
    # by hand: sd of the differences (0.02, 0, 0.02, 0.02, -0.01) times sqrt(1/5 + 1/4), t(4) quantile 2.776
    half = 2.7764451 * np.std([0.02, 0, 0.02, 0.02, -0.01], ddof=1) * np.sqrt(1 / 5 + 1 / 4)
    assert e["interval"] == pytest.approx((0.01 - half, 0.01 + half), abs=1e-6)
    table = effects_table(effects)
    assert table.columns.tolist() == ["effect", "95% low", "95% high", "p", "n", "wins", "losses", "ties"]
    assert table.loc["a vs b", "effect"] == 0.01
    with pytest.raises(ValueError, match=r"no scores for \['c'\]"):
        pair_effects(scores, [("a", "c")], 0.25)
    with pytest.raises(ValueError, match="tuple"):
        pair_effects(scores, ["ab"], 0.25)


def test_sweep_comparisons_are_corrected_differences_with_wins_and_losses():
    by_metric = {"accuracy": {"b": [0.95, 0.96, 0.94, 0.97], "a": [0.93, 0.93, 0.94, 0.92]},
                 "recall": {"b": [0.9, 0.9, 0.8, 0.9], "a": [0.8, 0.9, 0.9, 0.7]}}
    c = sweep_comparisons(by_metric, [("b", "a")], ["accuracy", "recall"], 0.25)
    assert list(c) == ["accuracy: b vs a", "recall: b vs a"]
    r = c["accuracy: b vs a"]
    # d = 0.02, 0.03, 0, 0.05: mean 0.025, sd 0.020817, se = sd * sqrt(1/4 + 1/4), t(3) = 3.1824
    assert r["effect"] == pytest.approx(0.025)
    half = 3.182446 * 0.0208167 * np.sqrt(0.5)
    assert r["interval"] == pytest.approx((0.025 - half, 0.025 + half), abs=1e-6)
    assert (r["wins"], r["losses"]) == (3, 0)
    assert list(r) == ["effect", "interval", "p", "n", "method", "wins", "losses"]   # no ties: the table's columns
    assert (c["recall: b vs a"]["wins"], c["recall: b vs a"]["losses"]) == (2, 1)
    with pytest.raises(ValueError, match=r"no scores for \['c'\]"):
        sweep_comparisons(by_metric, [("b", "c")], ["accuracy"], 0.25)


# ---------------------------------------------------------------------------- on one test set, paired by row


def test_accuracy_difference_is_the_paired_bootstrap_with_mcnemar_counts():
    y = np.zeros(50, dtype=int)
    a = np.r_[np.zeros(45, dtype=int), np.ones(5, dtype=int)]             # right on 45
    b = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]            # right on 40, wrong wherever a is
    r = accuracy_difference(y, a, b, n_resamples=999)
    assert r["effect"] == pytest.approx(0.1) and (r["a_only"], r["b_only"]) == (5, 0)
    assert r["p"] == pytest.approx(2 * 0.5**5)                              # exact two-sided binomial, 5 of 5
    assert 0 < r["interval"][0] < 0.1 < r["interval"][1] and r["n"] == 50 and "BCa" in r["method"]
    flipped = accuracy_difference(y, b, a, n_resamples=999)
    assert flipped["effect"] == pytest.approx(-0.1) and (flipped["a_only"], flipped["b_only"]) == (0, 5)
    with pytest.raises(ValueError, match="one row per test row"):
        accuracy_difference(y, a[:40], b)


def test_prediction_effects_bootstrap_the_accuracy_difference_beside_mcnemar():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 0])
    a, b = np.array([0, 1, 1, 0, 0, 1, 1, 0]), np.array([1, 0, 1, 0, 0, 0, 1, 0])
    r = prediction_effects(y, {"s": (a, b)}, names=("A", "B"))["s"]
    assert list(r) == ["effect", "interval", "n", "method", "mcnemar_p", "A right, B wrong", "B right, A wrong"]
    assert r["A right, B wrong"] == 2 and r["B right, A wrong"] == 1
    assert r["effect"] == pytest.approx(6 / 8 - 5 / 8) and r["mcnemar_p"] == pytest.approx(1.0)
    assert r["interval"] == pytest.approx(paired_bootstrap(y, a, b)["interval"])
    assert r["mcnemar_p"] == mcnemar_exact(y, a, b)[2]
    with pytest.raises(ValueError, match="one row per test row"):
        prediction_effects(y, {"s": (a[:-1], b[:-1])})


def test_mcnemar_table_counts_the_discordant_rows():
    y = np.array([0, 1, 1, 0, 1, 0])
    a, b = np.array([0, 1, 1, 0, 0, 1]), np.array([1, 0, 1, 0, 0, 0])
    table = mcnemar_table(y, {"s": (a, b)}, names=("A", "B"))
    assert table.loc["s", "A right, B wrong"] == 2 and table.loc["s", "B right, A wrong"] == 1
    assert table.loc["s", "effect"] == pytest.approx(1 / 6) and table.loc["s", "p_value"] == pytest.approx(1.0)


def test_effects_against_is_the_paired_bootstrap_of_each(rng):
    y = rng.integers(0, 3, size=120)
    noisy = lambda share: np.where(rng.random(120) < share, y, rng.integers(0, 3, size=120))  # noqa: E731
    ref, a, b = noisy(0.6), noisy(0.8), noisy(0.4)
    out = effects_against(y, {"a": a, "b": b}, ref, score="macro_f1", classes=[0, 1, 2], n_resamples=199)
    assert list(out) == ["a", "b"]
    for name, pred in (("a", a), ("b", b)):
        assert out[name] == paired_bootstrap(y, pred, ref, score="macro_f1", classes=[0, 1, 2], n_resamples=199)
    wide = effects_against(y, {"a": a}, ref, n_resamples=199, looks=10)["a"]
    plain = paired_bootstrap(y, a, ref, n_resamples=199)
    assert wide["effect"] == plain["effect"]
    assert wide["interval"][0] < plain["interval"][0] and wide["interval"][1] > plain["interval"][1]
    assert wide["method"].endswith("99.5% interval (199 resamples); Bonferroni over 10 settings, of which the best is "
                                   "the one compared")
    with pytest.raises(ValueError, match="non-empty dict"):
        effects_against(y, [a], ref)


# ---------------------------------------------------------------------------- for the reader


def test_comparison_evidence_and_table_show_every_comparison():
    comps = {"accuracy: b vs a": {"effect": 0.01, "interval": (-0.002, 0.02), "p": 0.5, "wins": 3, "losses": 2},
             "LOOCV: b vs a": {"effect": 0.02, "interval": (0.001, 0.04), "p": 0.04, "right_wrong": (1, 0)}}
    assert comparison_evidence(comps) == ('"accuracy: b vs a" +0.010 [-0.002, +0.020] (3 wins, 2 losses); '
                                          '"LOOCV: b vs a" +0.020 [+0.001, +0.040] (1 row against 0, McNemar '
                                          'p = 0.04)')
    table = comparisons_table(comps)
    assert table.loc["LOOCV: b vs a", ["effect", "low", "high", "wins", "losses"]].tolist() == [0.02, 0.001, 0.04, 1, 0]
