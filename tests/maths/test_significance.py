"""Tests of helpers.significance against scipy and statsmodels, worked examples and Demsar (2006)."""

import itertools

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from pandas.testing import assert_frame_equal
from scipy import stats

from helpers.evaluation import prf_scores
from helpers.significance import (
    average_ranks,
    compare_pairs,
    corrected_paired_ttest,
    critical_difference,
    friedman_test,
    holm,
    mcnemar_exact,
    paired_comparisons,
    paired_permutation_test,
    pairwise_signed_rank,
    signed_rank_test,
    summarize_scores,
)


def test_summary_matches_scipy_t_interval():
    s = np.array([0.9, 0.92, 0.95, 0.97, 0.91])
    row = summarize_scores({"m": s}).loc["m"]
    lo, hi = stats.t.interval(0.95, len(s) - 1, loc=s.mean(), scale=stats.sem(s))
    assert row["mean"] == pytest.approx(s.mean())
    assert row["sd"] == pytest.approx(s.std(ddof=1))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))


def test_summary_corrected_interval_is_nadeau_bengio():
    s = np.array([0.9, 0.92, 0.95, 0.97, 0.91, 0.93])
    row = summarize_scores({"m": s.reshape(2, 3)}, test_train_ratio=0.25).loc["m"]    # 2-D fold scores are flattened
    half = stats.t.ppf(0.975, 5) * s.std(ddof=1) * np.sqrt(1 / 6 + 0.25)
    assert row["n"] == 6
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((s.mean() - half, s.mean() + half))
    with pytest.raises(ValueError, match="n_test / n_train"):
        summarize_scores({"m": s}, test_train_ratio=-1)


def test_corrected_paired_ttest_reduces_to_scipy_and_corrects():
    a = np.array([0.95, 0.93, 0.96, 0.94, 0.97])
    b = np.array([0.93, 0.93, 0.94, 0.92, 0.94])
    plain = corrected_paired_ttest(a, b, test_train_ratio=0.0)
    ref = stats.ttest_rel(a, b)
    assert plain["t"] == pytest.approx(ref.statistic)
    assert plain["p_value"] == pytest.approx(ref.pvalue)
    corr = corrected_paired_ttest(a, b, test_train_ratio=0.25)
    assert corr["t"] == pytest.approx(ref.statistic / np.sqrt(1 + 5 * 0.25))   # t shrinks by sqrt(1 + n r)
    assert corr["p_value"] > plain["p_value"]
    assert (corr["wins"], corr["losses"], corr["ties"]) == (4, 0, 1)
    assert corr["mean_diff"] == pytest.approx(0.018)
    assert corrected_paired_ttest(a, a, 0.25)["p_value"] == 1.0
    with pytest.raises(ValueError, match="same splits"):
        corrected_paired_ttest(a, b[:-1], 0.25)


def test_summary_rejects_single_score():
    with pytest.raises(ValueError, match="at least two"):
        summarize_scores({"m": [0.9]})


def test_mcnemar_counts_and_scipy_pvalue():
    y = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    a = y.copy()
    b = y.copy()
    b[:5] = 1 - b[:5]                         # b wrong on 5 points where a is right
    a[9] = 0                                  # a wrong on one point where b is right
    nb, nc, p = mcnemar_exact(y, a, b)
    assert (nb, nc) == (5, 1)
    assert p == pytest.approx(stats.binomtest(5, 6, 0.5).pvalue)
    assert mcnemar_exact(y, y, y) == (0, 0, 1.0)
    with pytest.raises(ValueError, match="same length"):
        mcnemar_exact(y, y[:-1], y)


def test_compare_pairs_is_the_corrected_test_per_pair():
    s = {"a": [0.95, 0.93, 0.96, 0.94], "b": [0.93, 0.93, 0.94, 0.92], "c": [0.90, 0.91, 0.90, 0.92]}
    table = compare_pairs(s, [("a", "b"), ("c", "a")], 0.25)
    assert list(table.index) == ["a vs b", "c vs a"]
    assert table.loc["a vs b", "p_value"] == pytest.approx(corrected_paired_ttest(s["a"], s["b"], 0.25)["p_value"])
    assert table.loc["c vs a", "mean_diff"] == pytest.approx(-0.0375)
    with pytest.raises(ValueError, match="no scores for"):
        compare_pairs(s, [("a", "zzz")], 0.25)


def test_permutation_test_equals_exact_enumeration():
    y = np.array([0, 0, 1, 1, 2, 2, 0, 1])
    a = np.array([0, 0, 1, 1, 2, 0, 0, 1])
    b = np.array([0, 1, 1, 0, 2, 0, 1, 1])
    diff, p = paired_permutation_test(y, a, b, "macro_f1", n_resamples=10_000)  # 2^8 < 10,000: exact

    def stat(pa, pb):
        return prf_scores(y, pa, [0, 1, 2])["macro_f1"] - prf_scores(y, pb, [0, 1, 2])["macro_f1"]

    assert diff == pytest.approx(stat(a, b))
    swapped = [stat(np.where(s, b, a), np.where(s, a, b)) for s in itertools.product([False, True], repeat=8)]
    swapped = np.array(swapped)
    expected = min(1.0, 2 * min(np.mean(swapped >= diff - 1e-12), np.mean(swapped <= diff + 1e-12)))
    assert p == pytest.approx(expected)


def test_permutation_test_of_identical_classifiers_and_bad_inputs():
    y = np.array(["a", "b", "a", "b"])
    diff, p = paired_permutation_test(y, y, y, "accuracy")
    assert diff == 0.0 and p == 1.0
    with pytest.raises(ValueError, match="score must be one of"):
        paired_permutation_test(y, y, y, "f2")
    with pytest.raises(ValueError, match="same shape"):
        paired_permutation_test(y, y[:3], y)


def test_paired_comparisons_table(rng):
    y = rng.integers(0, 3, size=60)
    better = np.where(rng.random(60) < 0.9, y, (y + 1) % 3)
    worse = np.where(rng.random(60) < 0.5, y, (y + 1) % 3)
    t = paired_comparisons(y, {"better": better}, worse, scores=["accuracy", "macro_f1"], n_resamples=199)
    assert t.loc["better", ("accuracy", "difference")] == pytest.approx(np.mean(better == y) - np.mean(worse == y))
    assert t.loc["better", ("accuracy", "p")] < 0.05


def test_several_scores_share_one_permutation_run(rng):
    y = rng.integers(0, 3, size=80)
    a = np.where(rng.random(80) < 0.8, y, (y + 1) % 3)
    b = np.where(rng.random(80) < 0.6, y, (y + 2) % 3)
    diffs, ps = paired_permutation_test(y, a, b, ["accuracy", "macro_recall"], n_resamples=299)
    for score, d, p in zip(["accuracy", "macro_recall"], diffs, ps):
        assert (d, p) == pytest.approx(paired_permutation_test(y, a, b, score, n_resamples=299))


@pytest.fixture
def table():
    # five data sets, three methods: a first but on d4, c always last (Demsar 2006, Section 3.2.2 style)
    return pd.DataFrame({"a": [0.90, 0.80, 0.70, 0.90, 0.90], "b": [0.85, 0.75, 0.65, 0.92, 0.85],
                         "c": [0.70, 0.60, 0.50, 0.70, 0.70]}, index=["d1", "d2", "d3", "d4", "d5"])


def test_average_ranks_and_friedman_by_hand(table):
    # ranks per data set: (1, 2, 3) four times and (2, 1, 3) on d4 -> 1.2, 1.8, 3.0
    result = critical_difference(table)
    assert_allclose(average_ranks(result).to_numpy(), [1.2, 1.8, 3.0])
    assert list(average_ranks(result).index) == ["a", "b", "c"]
    r = friedman_test(result)
    # chi2_F = 12 N / (k (k + 1)) [sum R_j^2 - k (k + 1)^2 / 4] with N = 5, k = 3
    chi2 = 12 * 5 / 12 * (1.2**2 + 1.8**2 + 3.0**2 - 3 * 16 / 4)
    assert r["statistic"] == pytest.approx(chi2) == pytest.approx(8.4)
    assert r["statistic"] == pytest.approx(stats.friedmanchisquare(*table.T.to_numpy()).statistic)
    assert r["p_value"] == pytest.approx(stats.chi2.sf(8.4, 2)) == pytest.approx(result.pvalue)
    assert r["f_statistic"] == pytest.approx(4 * 8.4 / (5 * 2 - 8.4)) == pytest.approx(21.0)   # Iman-Davenport
    assert r["f_p_value"] == pytest.approx(stats.f.sf(21.0, 2, 8))


def test_critical_difference_is_nemenyis(table):
    res = critical_difference(table)
    # Demsar (2006), Table 5: q_0.05 = 2.343 for three classifiers; CD = q sqrt(k (k + 1) / (6 N))
    assert res.cd == pytest.approx(2.343 * np.sqrt(3 * 4 / (6 * 5)), abs=1e-3)
    assert_frame_equal(res.sample_matrix, table)


def test_rank_tests_need_three_methods_five_data_sets_and_an_autorank_result(table):
    with pytest.raises(ValueError, match="at least three methods.*signed_rank_test"):
        critical_difference(table[["a", "b"]])
    with pytest.raises(ValueError, match="at least five data sets.*table has 4"):
        critical_difference(table.iloc[:4])
    with pytest.raises(TypeError, match=r"pass the result of critical_difference\(table\)"):
        average_ranks(table)


def test_signed_rank_test_is_scipys_wilcoxon_on_the_nonzero_differences():
    a = np.array([0.80, 0.70, 0.90, 0.60, 0.85, 0.75, 0.5])
    b = np.array([0.78, 0.69, 0.86, 0.55, 0.84, 0.77, 0.5])
    r = signed_rank_test(a, b)
    d = a - b
    assert r["p_value"] == pytest.approx(stats.wilcoxon(d[d != 0]).pvalue)
    assert (r["wins"], r["losses"], r["ties"], r["n_datasets"]) == (5, 1, 1, 7)
    assert r["median_diff"] == pytest.approx(np.median(d))
    assert signed_rank_test([0.5, 0.6], [0.5, 0.6])["p_value"] == 1.0
    with pytest.raises(ValueError, match="equal length"):
        signed_rank_test([0.5, 0.6], [0.5])


def test_holm_by_hand_and_against_statsmodels():
    p = [0.01, 0.04, 0.03, 0.2]
    # sorted 0.01, 0.03, 0.04, 0.2 times 4, 3, 2, 1 = 0.04, 0.09, 0.08 -> 0.09 (monotone), 0.2
    assert_allclose(holm(p), [0.04, 0.09, 0.09, 0.2])
    assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(1)
    q = rng.uniform(0, 0.2, 7)
    assert_allclose(holm(q), multitest.multipletests(q, method="holm")[1])


def test_holm_leaves_the_garbage_collector_as_it_found_it():
    import gc

    before = gc.get_freeze_count()
    holm([0.01, 0.04, 0.03])
    assert gc.get_freeze_count() == before == 0 and gc.isenabled()


def test_holm_refuses_what_is_not_a_probability():
    with pytest.raises(ValueError, match="probabilities in"):
        holm([0.1, 1.5])


def test_friedman_with_every_method_tied_says_there_is_no_ranking():
    scores = [0.8, 0.7, 0.9, 0.6, 0.75, 0.85]
    result = critical_difference(pd.DataFrame({"a": scores, "b": scores, "c": scores}))
    with pytest.raises(ValueError, match="every method scores the same on every one of the 6 data sets: there is no "
                                         "ranking"):
        friedman_test(result)


# -- pairwise tests over data sets ------------------------------------------------------------------

PAIRWISE = pd.DataFrame(np.random.default_rng(3).uniform(0.6, 0.9, size=(12, 4)), columns=list("abcd")) \
    + np.array([0.0, 0.02, 0.05, 0.0])


def test_pairwise_is_holm_over_the_pairs_and_equals_scikit_posthocs():
    sp = pytest.importorskip("scikit_posthocs")
    from statsmodels.stats.multitest import multipletests

    p = pairwise_signed_rank(PAIRWISE)
    assert (p.to_numpy() == p.to_numpy().T).all() and (np.diag(p) == 1).all() and list(p.columns) == list("abcd")
    raw = [stats.wilcoxon(PAIRWISE[a], PAIRWISE[b], zero_method="zsplit").pvalue
           for a, b in itertools.combinations("abcd", 2)]
    assert_allclose(p.to_numpy()[np.triu_indices(4, 1)], multipletests(raw, method="holm")[1])
    long = PAIRWISE.melt(var_name="method", value_name="score")
    theirs = sp.posthoc_wilcoxon(long, val_col="score", group_col="method", zero_method="zsplit", p_adjust="holm")
    assert_frame_equal(p, theirs.loc[list("abcd"), list("abcd")], check_names=False)


def test_pairwise_order_of_rows_does_not_matter():
    assert_frame_equal(pairwise_signed_rank(PAIRWISE), pairwise_signed_rank(PAIRWISE.iloc[::-1]))


@pytest.mark.parametrize("table, words", [
    (PAIRWISE[["a"]], "at least two rows and two method columns"),
    (PAIRWISE.set_axis(list("aabc"), axis=1), "name each method once"),
    (PAIRWISE.where(PAIRWISE > 0.65), "missing scores"),
], ids=["one-method", "a-method-twice", "missing-scores"])
def test_pairwise_refuses_a_table_it_cannot_test(table, words):
    with pytest.raises(ValueError, match=words):
        pairwise_signed_rank(table)


def test_pairwise_cd_diagram_has_the_callers_title():
    pytest.importorskip("scikit_posthocs")
    import matplotlib

    matplotlib.use("Agg")
    from helpers.plotting.scores import plot_pairwise_cd

    ax = plot_pairwise_cd(PAIRWISE, labels={"c": "C"}, title="c ranks first")
    assert ax.get_title() == "c ranks first" and any(t.get_text().startswith("C (") for t in ax.texts)
    with pytest.raises(ValueError, match="title that states"):
        plot_pairwise_cd(PAIRWISE, title="")
