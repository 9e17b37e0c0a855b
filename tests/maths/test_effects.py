"""Effect sizes with intervals: each checked against the library that computes the same thing."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from helpers.effects import (
    bayesian_signed_rank,
    bonferroni,
    bonferroni_effect,
    hodges_lehmann,
    paired_bootstrap,
    resampled_difference,
    signed_rank_null,
)
from helpers.significance import corrected_paired_ttest

RNG = np.random.default_rng(7)
A = RNG.uniform(0.85, 0.95, 30)
B = A - RNG.normal(0.01, 0.01, 30)


# ---------------------------------------------------------------------------- one data set, resamples

def test_resampled_difference_agrees_with_the_corrected_t_test():
    r = resampled_difference(A, B, test_train_ratio=0.25)
    t = corrected_paired_ttest(A, B, test_train_ratio=0.25)
    assert r["effect"] == pytest.approx(t["mean_diff"]) and r["p"] == pytest.approx(t["p_value"])
    d = A - B
    se = d.std(ddof=1) * np.sqrt(1 / 30 + 0.25)
    half = stats.t.ppf(0.975, 29) * se
    assert r["interval"] == pytest.approx((d.mean() - half, d.mean() + half))


def test_without_the_correction_the_interval_is_scipy_s_paired_t_interval():
    r = resampled_difference(A, B, test_train_ratio=0.0)
    ci = stats.ttest_rel(A, B).confidence_interval(0.95)
    assert r["interval"] == pytest.approx((ci.low, ci.high))
    assert r["p"] == pytest.approx(stats.ttest_rel(A, B).pvalue)


def test_the_correction_widens_the_interval():
    naive, corrected = (resampled_difference(A, B, ratio)["interval"] for ratio in (0.0, 1 / 9))
    assert corrected[0] < naive[0] and corrected[1] > naive[1]


def test_equal_differences_give_a_point_interval():
    r = resampled_difference([0.9, 0.8, 0.7], [0.89, 0.79, 0.69], 0.25)
    assert r["interval"] == pytest.approx((0.01, 0.01)) and r["p"] == 0.0


# ---------------------------------------------------------------------------- one test set

def test_paired_bootstrap_agrees_with_scipy_s_bootstrap_of_the_accuracy_difference():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 120)
    a = np.where(rng.random(120) < 0.9, y, 1 - y)
    b = np.where(rng.random(120) < 0.8, y, 1 - y)
    r = paired_bootstrap(y, a, b, n_resamples=1999, random_state=5)
    right = ((a == y).astype(float) - (b == y).astype(float),)
    ref = stats.bootstrap(right, np.mean, n_resamples=1999, method="BCa", rng=np.random.default_rng(5))
    assert r["effect"] == pytest.approx(np.mean(a == y) - np.mean(b == y))
    assert r["interval"] == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), abs=0.01)
    assert r["interval"][0] <= r["effect"] <= r["interval"][1]


@pytest.mark.parametrize("score", ["accuracy", "micro_f1", "macro_f1", "micro_precision", "macro_recall"])
def test_paired_bootstrap_is_scipy_s_paired_bca_interval_for_every_score(score):
    from helpers.evaluation import indicator_matrix, score_indicators

    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, 150)
    a = np.where(rng.random(150) < 0.85, y, rng.integers(0, 3, 150))
    b = np.where(rng.random(150) < 0.7, y, rng.integers(0, 3, 150))
    T, PA, PB = (indicator_matrix(v, [0, 1, 2]) for v in (y, a, b))

    def difference(idx, axis=-1):
        return score_indicators(T[idx], PA[idx])[score] - score_indicators(T[idx], PB[idx])[score]

    ref = stats.bootstrap((np.arange(150),), difference, vectorized=True, paired=True, n_resamples=4999,
                          method="BCa", rng=np.random.default_rng(2))
    got = paired_bootstrap(y, a, b, score=score, classes=[0, 1, 2], n_resamples=4999, random_state=2)
    assert got["effect"] == pytest.approx(float(difference(np.arange(150))))
    assert got["interval"] == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), abs=1e-9)


def test_a_discrete_score_counts_replicates_tied_with_the_estimate_half_as_scipy_does():
    y = np.zeros(50, dtype=int)
    a = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]
    b = np.r_[np.zeros(30, dtype=int), np.ones(20, dtype=int)]
    right = ((a == y).astype(float) - (b == y).astype(float),)
    ref = stats.bootstrap(right, np.mean, n_resamples=1999, method="BCa", rng=np.random.default_rng(4))
    got = paired_bootstrap(y, a, b, classes=[0, 1], n_resamples=1999, random_state=4)
    assert got["interval"] == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), abs=1e-9)


def test_paired_bootstrap_is_linear_in_the_rows():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 40_000)
    a, b = (np.where(rng.random(40_000) < q, y, 1 - y) for q in (0.9, 0.88))
    r = paired_bootstrap(y, a, b, n_resamples=999)      # the generic jackknife would evaluate 1.6e9 rows
    assert r["interval"][0] < r["effect"] < r["interval"][1] and r["interval"][1] - r["interval"][0] < 0.02


def test_paired_bootstrap_scores_indicator_matrices_by_micro_f1():
    rng = np.random.default_rng(0)
    Y = (rng.random((80, 4)) < 0.3).astype(int)
    same = paired_bootstrap(Y, Y, Y, score="micro_f1", n_resamples=199)
    assert same["effect"] == 0.0 and same["interval"] == (0.0, 0.0)
    worse = Y.copy()
    worse[:20] = 0
    r = paired_bootstrap(Y, Y, worse, score="micro_f1", n_resamples=199)
    assert r["effect"] > 0 and r["interval"][0] > 0


@pytest.mark.parametrize("kwargs, message", [
    ({"score": "auc"}, "score must be one of"),
    ({"n_resamples": 5}, "n_resamples"),
    ({"confidence": 1.5}, "confidence"),
])
def test_paired_bootstrap_refuses_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        paired_bootstrap([0, 1, 0], [0, 1, 1], [0, 0, 0], **kwargs)


def test_paired_bootstrap_needs_one_prediction_per_row():
    with pytest.raises(ValueError, match="one row per test row"):
        paired_bootstrap([0, 1, 0], [0, 1], [0, 0, 0])


def test_bonferroni_levels():
    assert bonferroni(1) == 0.95
    assert bonferroni(25) == pytest.approx(0.998)
    assert bonferroni(4, confidence=0.9) == pytest.approx(0.975)
    with pytest.raises(ValueError, match="looks"):
        bonferroni(0)


def test_bonferroni_effect_is_the_paired_bootstrap_at_the_bonferroni_level(rng):
    y = rng.integers(0, 2, size=80)
    a, b = np.where(rng.random(80) < 0.8, y, 1 - y), np.where(rng.random(80) < 0.6, y, 1 - y)
    e = bonferroni_effect(y, a, b, 4, "sizes", n_resamples=199)
    ref = paired_bootstrap(y, a, b, confidence=bonferroni(4), n_resamples=199)
    assert (e["effect"], e["interval"]) == (ref["effect"], ref["interval"])
    assert e["method"].endswith("98.75% interval (199 resamples); Bonferroni over 4 sizes, of which the best is the "
                                "one compared")
    one = bonferroni_effect(y, a, b, 1, n_resamples=199)
    assert one == paired_bootstrap(y, a, b, n_resamples=199)     # one look: the plain 95% interval, no note


# ---------------------------------------------------------------------------- over data sets

def test_signed_rank_null_is_scipy_s_exact_distribution():
    for n in (1, 5, 12):
        null = signed_rank_null(n)
        assert null.sum() == pytest.approx(1.0)
        w = np.arange(null.size)
        cdf = np.cumsum(null)
        d = np.arange(1, n + 1, dtype=float)        # differences 1..n: W+ of the sign pattern
        # scipy: P(W+ <= w) for the exact distribution, through its one-sided p-value of all-negative signs
        if n >= 2:
            assert stats.wilcoxon(-d, alternative="less", method="exact").pvalue == pytest.approx(cdf[0])
        assert null[w[-1]] == pytest.approx(0.5**n)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=6, max_size=14, unique=True).filter(lambda v: 0 not in v))
def test_the_hodges_lehmann_interval_is_the_set_the_exact_signed_rank_test_does_not_reject(values):
    d = np.array(values) / 1000.0                   # distinct magnitudes after shifting are not guaranteed:
    r = hodges_lehmann(d)                           # check the inversion only where scipy's test is exact
    low, high = r["interval"]
    for shift, inside in ((low + 1e-9, True), (high - 1e-9, True), (low - 1e-6, False), (high + 1e-6, False)):
        moved = d - shift
        if np.any(moved == 0) or len(np.unique(np.abs(moved))) < moved.size:
            continue
        p = stats.wilcoxon(moved, method="exact").pvalue
        assert (p > 0.05) == inside or r["coverage"] < 0.95


def test_hodges_lehmann_is_the_median_of_the_walsh_averages():
    d = np.array([0.02, 0.01, 0.04, 0.05, 0.01, 0.05, -0.01, 0.03])
    i, j = np.triu_indices(d.size)
    r = hodges_lehmann(d)
    assert r["effect"] == pytest.approx(np.median((d[i] + d[j]) / 2))
    assert r["interval"][0] <= r["effect"] <= r["interval"][1] and r["coverage"] >= 0.95


@pytest.mark.parametrize("bad", [[0.1], [0.1, np.nan, 0.2], []])
def test_hodges_lehmann_refuses_too_few_or_non_finite_differences(bad):
    with pytest.raises(ValueError, match="at least two finite numbers"):
        hodges_lehmann(bad)


def test_bayesian_signed_rank_is_baycomp_s_test():
    from baycomp import SignedRankTest

    got = bayesian_signed_rank(A, B, rope=0.01, random_state=1)
    left, rope, right = SignedRankTest.probs(A, B, rope=0.01, random_state=1)
    assert (got["better"], got["equivalent"], got["worse"]) == pytest.approx((left, rope, right))
    assert sum(got[k] for k in ("better", "equivalent", "worse")) == pytest.approx(1.0)


@pytest.mark.parametrize("n_sets, shift, rope, seed", [
    (5, 0.0, 0.01, 0), (12, 0.005, 0.01, 1), (30, 0.01, 0.005, 2), (58, -0.002, 0.01, 3), (58, 0.01, 0.02, 4),
    (40, 0.003, 0.0, 5), (200, 0.001, 0.01, 6),
])
def test_the_vectorised_posterior_counts_exactly_what_baycomp_s_loop_counts(n_sets, shift, rope, seed):
    from baycomp import SignedRankTest

    rng = np.random.default_rng(seed)
    b = rng.uniform(0.6, 0.95, n_sets)
    a = np.round(b + shift + rng.normal(0, 0.01, n_sets), 3)   # rounded: ties and sums on the ROPE's edge occur
    got = bayesian_signed_rank(a, b, rope=rope, random_state=seed, n_samples=5000)
    expected = SignedRankTest.probs(a, b, rope=rope, nsamples=5000, random_state=seed)
    if rope == 0:   # baycomp gives (P(left), P(right)) only; nothing is equivalent to a zero-width ROPE
        expected = (expected[0], 0.0, expected[1])
    assert (got["better"], got["equivalent"], got["worse"]) == expected


def test_bayesian_signed_rank_agrees_with_autorank_s_bayesian_mode():
    from autorank import autorank

    data = pd.DataFrame({"a": A, "b": B})
    result = autorank(data, approach="bayesian", rope=0.01, rope_mode="absolute", nsamples=50_000, random_state=0,
                      order="descending")
    got = bayesian_signed_rank(A, B, rope=0.01)
    table = result.posterior_matrix
    # autorank orders by the central tendency; a (the larger) comes first and its row holds (P(a>b), P(eq), P(b>a))
    probs = table.loc["a", "b"]
    assert got["better"] == pytest.approx(probs[0], abs=0.02) and got["worse"] == pytest.approx(probs[2], abs=0.02)


def test_equal_scores_are_practically_equivalent_and_a_clear_gain_is_better():
    assert bayesian_signed_rank(A, A, rope=0.01)["equivalent"] == pytest.approx(1.0)
    assert bayesian_signed_rank(A + 0.05, A, rope=0.01)["better"] > 0.95


@pytest.mark.parametrize("a, b, rope, message", [
    (A, B[:5], 0.01, "same length|one per|equal length|shape"),
    (A, B, -0.01, "rope"),
    (np.r_[A[:-1], np.nan], B, 0.01, "not finite"),
])
def test_bayesian_signed_rank_refuses_bad_input(a, b, rope, message):
    with pytest.raises(ValueError, match=message):
        bayesian_signed_rank(a, b, rope=rope)
