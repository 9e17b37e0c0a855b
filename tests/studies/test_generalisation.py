"""The multi-data-set comparison: its methods, its folds, its statistics over data sets."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.covariance import LedoitWolf
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from helpers.effects import bayesian_signed_rank
from helpers.estimators import TunedKNN, Whitener
from helpers.significance import holm, summarize_scores
from helpers.studies import generalisation as G
from helpers.studies.generalisation import (
    CLAIMS,
    METHODS,
    Claim,
    claim_tests,
    dataset_properties,
    gain_correlations,
    make_methods,
    mean_accuracy,
    repeated_folds,
    run_comparison,
    summarise_by_dataset,
)
from tests.support import FITS

# --------------------------------------------------------------------------------------------
# the methods


@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_clones_fits_and_predicts(iris, name):
    X, y = iris
    train = np.r_[0:40, 50:90, 100:140]
    test = np.setdiff1d(np.arange(150), train)
    model = clone(make_methods(X.shape[1])[name]).fit(X[train], y[train])
    pred = model.predict(X[test])
    assert pred.shape == (30,) and set(pred) <= {0, 1, 2}
    assert np.mean(pred == y[test]) >= 0.8, f"{name} is below 0.8 on iris, where every method is above 0.9"


def test_methods_follow_the_display_order_and_the_claims_name_them():
    assert list(make_methods(3)) == list(METHODS)
    assert {m for c in CLAIMS for m in (c.aware, c.plain)} <= set(METHODS)


# What the spies saw (module level: clone() deep-copies an estimator's parameters, so a list
# handed to a spy would be copied, not shared).


def test_a_whitening_method_holds_the_statistics_of_its_training_rows_only(iris):
    X, y = iris
    train = np.r_[0:40, 50:90, 100:140]
    model = clone(make_methods(4)["mahalanobis_knn"]).fit(X[train], y[train])
    scaler, whitener = model.pipeline_[0][0], model.pipeline_[0][1]
    assert_allclose(scaler.mean_, X[train].mean(axis=0))
    Z = (X[train] - X[train].mean(axis=0)) / X[train].std(axis=0)
    assert_allclose(whitener.covariance_, LedoitWolf().fit(Z).covariance_)
    assert isinstance(whitener, Whitener)


def test_make_methods_refuses_a_bad_feature_count():
    with pytest.raises(ValueError, match=r"n_features must be an integer >= 1 \(the data's columns\)"):
        make_methods(0)


# --------------------------------------------------------------------------------------------
# the folds and the run


def test_repeated_folds_are_scikit_learns():
    y = np.repeat([0, 1, 2], [10, 12, 14])
    folds = repeated_folds(y, n_splits=5, n_repeats=2, random_state=3)
    ref = list(RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=3).split(np.zeros((36, 1)), y))
    assert [(r, f) for r, f, _, _ in folds] == [(r, f) for r in range(2) for f in range(5)]
    for (_, _, tr, te), (tr_ref, te_ref) in zip(folds, ref):
        assert_array_equal(tr, tr_ref)
        assert_array_equal(te, te_ref)


def test_repeated_folds_refuse_a_class_smaller_than_the_folds():
    with pytest.raises(ValueError, match="smallest class has 4 rows, fewer than n_splits=10"):
        repeated_folds(np.repeat([0, 1], [20, 4]))


class FitSpy(ClassifierMixin, BaseEstimator):
    """Predicts the first class; records each fit's row ids (column 0) under its tag in FITS."""

    def __init__(self, tag=""):
        self.tag = tag

    def fit(self, X, y):
        FITS.append((self.tag, frozenset(X[:, 0].astype(int))))
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_every_method_sees_the_same_folds(iris):
    X, y = iris
    Xid = np.column_stack([np.arange(150), X])
    FITS.clear()
    scores = run_comparison({"iris": (Xid, y)}, {"a": FitSpy("a"), "b": FitSpy("b")},
                            n_splits=5, n_repeats=2, random_state=1, n_jobs=1)   # n_jobs=1: in this process
    a = [rows for tag, rows in FITS if tag == "a"]
    b = [rows for tag, rows in FITS if tag == "b"]
    ref = [frozenset(tr) for tr, _ in RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=1).split(X, y)]
    assert a == b == ref
    assert scores["accuracy"].eq(1 / 3).all()  # always class 0: a third of each stratified test fold


def test_run_comparison_agrees_with_cross_val_score(iris, wine):
    methods = {"lda": make_pipeline(StandardScaler(), LinearDiscriminantAnalysis()),
               "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(5))}
    scores = run_comparison({"iris": iris, "wine": wine}, methods, n_splits=10, n_repeats=1, random_state=0)
    assert list(scores.columns) == ["dataset", "repeat", "fold", "method", "accuracy", "n_test", "fit_seconds",
                                    "predict_seconds"]
    assert len(scores) == 2 * 10 * 2
    for name, (X, y) in {"iris": iris, "wine": wine}.items():
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=1, random_state=0)
        for m, est in methods.items():
            ref = cross_val_score(est, X, y, cv=cv)
            ours = scores.loc[(scores["dataset"] == name) & (scores["method"] == m), "accuracy"].to_numpy()
            assert_allclose(ours, ref)
    table = mean_accuracy(scores)
    assert table.shape == (2, 2) and list(table.index) == ["iris", "wine"]


def test_run_comparison_does_not_depend_on_n_jobs(wine):
    methods = {"knn": TunedKNN(StandardScaler(), ks=(1, 5, 9))}
    one = run_comparison({"wine": wine}, methods, n_splits=5, n_repeats=1, n_jobs=1)
    two = run_comparison({"wine": wine}, methods, n_splits=5, n_repeats=1, n_jobs=2)
    assert_array_equal(one["accuracy"], two["accuracy"])


def test_run_comparison_refuses_bad_data():
    with pytest.raises(ValueError, match="non-empty mapping"):
        run_comparison({})
    X = np.ones((20, 2))
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="'bad' has missing or infinite values"):
        run_comparison({"bad": (X, np.repeat([0, 1], 10))})
    with pytest.raises(TypeError, match="must be a pair"):
        run_comparison({"bad": np.ones(3)})


@pytest.mark.integration
def test_the_whole_comparison_on_iris_and_wine(iris, wine):
    scores = run_comparison({"iris": iris, "wine": wine}, n_repeats=1, n_jobs=2)
    assert len(scores) == 2 * 10 * len(METHODS)
    assert scores["accuracy"].between(0, 1).all()
    table = mean_accuracy(scores)
    assert table.shape == (2, len(METHODS)) and list(table.columns) == list(METHODS)
    assert (table > 0.8).all().all(), table.round(3)    # every method does well on both ...
    assert table.loc["wine"].idxmin() == "cosine_knn"     # ... but raw cosine on wine, where proline's scale rules
    summary = summarise_by_dataset(scores)
    assert summary.shape == (2 * len(METHODS), 5) and (summary["n"] == 10).all()
    assert (summary["ci_low"] <= summary["mean"]).all() and (summary["mean"] <= summary["ci_high"]).all()
    assert {"fit mean", "total"} <= set(G.fit_times(scores).columns)


# --------------------------------------------------------------------------------------------
# per data set and across data sets


def test_summarise_by_dataset_uses_the_corrected_interval_of_ten_fold_cv():
    rng = np.random.default_rng(0)
    acc = rng.uniform(0.8, 1.0, 20)
    scores = pd.DataFrame({"dataset": ["d"] * 20, "method": ["m"] * 10 + ["n"] * 10, "accuracy": acc})
    ours = summarise_by_dataset(scores, n_splits=10)
    ref = summarize_scores({"m": acc[:10], "n": acc[10:]}, test_train_ratio=1 / 9)
    assert_allclose(ours.loc["d"].to_numpy(dtype=float), ref.to_numpy(dtype=float))


def test_claim_tests_are_scipys_wilcoxon_holm_corrected():
    rng = np.random.default_rng(2)
    t = pd.DataFrame(rng.uniform(0.6, 0.95, (12, 4)), columns=["w", "x", "y", "z"])
    t["w"] = t["x"] + rng.normal(0.02, 0.01, 12)        # w clearly above x
    t.loc[0, "y"] = t.loc[0, "z"]                       # one tie between y and z: dropped
    claims = [Claim("one", "w", "x", "s"), Claim("two", "y", "z", "s")]
    out = claim_tests(t, claims)
    p_wx = stats.wilcoxon(t["w"] - t["x"]).pvalue
    d = (t["y"] - t["z"]).to_numpy()
    p_yz = stats.wilcoxon(d[d != 0]).pvalue
    assert_allclose(out["p_value"], [p_wx, p_yz])
    assert_allclose(out["p_holm"], holm([p_wx, p_yz]))
    assert out.loc["w vs x", "wins"] == 12 and out.loc["w vs x", "mean_diff"] > 0
    assert out.loc["y vs z", ["wins", "losses", "ties"]].sum() == 12 and out.loc["y vs z", "ties"] == 1
    assert list(out["key"]) == ["one", "two"] and (out["n_datasets"] == 12).all()


def claim_table(seed=5, n=14):
    """Accuracies of four methods on n data sets: w a little above x, y and z level (no ties)."""
    rng = np.random.default_rng(seed)
    t = pd.DataFrame(rng.uniform(0.6, 0.95, (n, 4)), columns=["w", "x", "y", "z"])
    t["w"] = t["x"] + rng.normal(0.015, 0.02, n)
    t["y"] = t["z"] + rng.normal(0.0, 0.004, n)
    return t


def test_claim_tests_give_the_hodges_lehmann_location_and_the_interval_scipys_wilcoxon_does_not_reject():
    t = claim_table()
    out = claim_tests(t, [Claim("one", "w", "x", "s")]).iloc[0]
    d = (t["w"] - t["x"]).to_numpy()
    i, j = np.triu_indices(len(d))
    assert out["hl_effect"] == pytest.approx(np.median((d[i] + d[j]) / 2))        # the median of the Walsh averages
    assert out["hl_low"] < out["hl_effect"] < out["hl_high"] and out["hl_coverage"] >= 0.95
    # the interval is the set of shifts the exact two-sided test keeps at 5%: just inside, p > 0.05; outside, p < 0.05
    eps = 1e-9
    for end, inward in ((out["hl_low"], +eps), (out["hl_high"], -eps)):
        assert stats.wilcoxon(d - (end + inward), method="exact").pvalue > 0.05
        assert stats.wilcoxon(d - (end - inward), method="exact").pvalue < 0.05


def test_claim_tests_give_baycomps_posterior_at_each_claims_rope():
    from baycomp import SignedRankTest

    t = claim_table()
    claims = [Claim("one", "w", "x", "s"), Claim("two", "y", "z", "s")]
    out = claim_tests(t, claims, rope={"one": 0.01, "two": 0.02})
    for c, rope in zip(claims, (0.01, 0.02)):
        ref = SignedRankTest.probs(t[c.aware].to_numpy(), t[c.plain].to_numpy(), rope=rope, nsamples=50_000,
                                   random_state=0)
        row = out.loc[c.label]
        assert_allclose(row[["p_better", "p_equivalent", "p_worse"]].to_numpy(dtype=float), ref)
        assert row["rope"] == rope
    assert out.loc["y vs z", "p_equivalent"] > 0.95     # y - z within +-0.004 on every set: inside a ROPE of 0.02
    assert out.loc["w vs x", "p_better"] > out.loc["w vs x", "p_worse"]


def test_claim_tests_refuse_a_missing_or_empty_rope():
    t = claim_table()
    with pytest.raises(ValueError, match=r"no ROPE for the claim\(s\) \['two'\]"):
        claim_tests(t, [Claim("one", "w", "x", "s"), Claim("two", "y", "z", "s")], rope={"one": 0.01})
    with pytest.raises(ValueError, match="rope must be a finite number > 0"):
        claim_tests(t, [Claim("one", "w", "x", "s")], rope=0)


def test_claim_answers_give_the_engine_an_effect_or_each_comparison():
    t = claim_table()
    t["rbf"] = t["x"] + 0.02                              # the second plain method: above w on most sets
    claims = [Claim("single", "w", "x", "s"), Claim("both", "w", "linear_svc", "s"), Claim("both", "w", "rbf_svc", "s")]
    t = t.rename(columns={"rbf": "rbf_svc"}).assign(linear_svc=t["x"])
    tests = claim_tests(t, claims)
    answers = G.claim_answers(tests, t)
    assert set(answers["single"]) == {"effect", "evidence"}
    single = answers["single"]["effect"]
    assert single["effect"] == tests.loc["w vs x", "hl_effect"] and single["p"] == tests.loc["w vs x", "p_holm"]
    assert single["interval"] == (tests.loc["w vs x", "hl_low"], tests.loc["w vs x", "hl_high"])
    assert single["posterior"](0.02) == bayesian_signed_rank(t["w"], t["x"], 0.02)   # recomputed at another ROPE
    assert list(answers["both"]["comparisons"]) == ["vs linear SVC", "vs RBF SVC"]
    assert answers["both"]["evidence"].count("Holm p") == 2


def test_claim_answers_are_judged_by_the_verdict_engine_by_the_weakest_comparison():
    from helpers.workbook.checks import SourceCheck

    t = claim_table().assign(linear_svc=lambda f: f["x"], rbf_svc=lambda f: f["x"] + 0.02)
    tests = claim_tests(t, [Claim("both", "w", "linear_svc", "s"), Claim("both", "w", "rbf_svc", "s")])
    ledger = pd.DataFrame([dict(id="SVM-999", source="002_2b37f568fcc9c7e9.txt", lines="266", item="better than both",
                                printed="better", reading="", correction="", notebook="99", key="both", scope="",
                                rope="0.01", printing="")])
    check = SourceCheck("99", ledger=ledger)
    row = check.claims(G.claim_answers(tests, t)).rows[0]
    assert row["comparison"] == "vs RBF SVC"                       # w - rbf_svc is w - x - 0.02: the weaker one
    assert row["effect"] == pytest.approx(tests.loc["w vs rbf_svc", "hl_effect"], abs=1e-6)
    assert row["p"] == pytest.approx(tests.loc["w vs rbf_svc", "p_holm"], rel=1e-3)
    assert set(row["rope_sensitivity"]) == {"half", "double"}


def test_claim_answers_need_the_table_of_the_tests():
    t = claim_table()
    tests = claim_tests(t, [Claim("one", "w", "x", "s")])
    with pytest.raises(ValueError, match=r"no accuracies for \['w'\]"):
        G.claim_answers(tests, t.drop(columns="w"))


def test_claim_tests_name_a_missing_method():
    t = pd.DataFrame({"a": [0.1, 0.2], "b": [0.3, 0.4]})
    with pytest.raises(ValueError, match=r"claim 'k': no accuracies for \['zz'\]"):
        claim_tests(t, [Claim("k", "a", "zz", "s")])


# --------------------------------------------------------------------------------------------
# when does whitening help?


def test_heterogeneity_is_zero_for_equal_class_covariances_and_box_m_otherwise():
    rng = np.random.default_rng(3)
    cloud = rng.normal(size=(50, 3)) @ np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.3], [0.0, 0.0, 1.0]])
    same = np.vstack([cloud, cloud + 4.0])
    y = np.repeat([0, 1], 50)
    props = dataset_properties({"same": (same, y)}, covariance="sample")
    assert props.loc["same", "heterogeneity"] == pytest.approx(0.0, abs=1e-12)
    other = np.vstack([cloud, rng.normal(size=(30, 3)) * [3.0, 1.0, 0.2]])
    y2 = np.repeat([0, 1], [50, 30])
    props = dataset_properties({"other": (other, y2)}, covariance="sample")
    # Box's M = (N - K) ln|S_p| - sum (n_k - 1) ln|S_k|, on standardised features
    Z = (other - other.mean(0)) / other.std(0, ddof=1)
    S = [np.cov(Z[y2 == k], rowvar=False) for k in (0, 1)]
    Sp = (49 * S[0] + 29 * S[1]) / 78
    box_m = 78 * np.linalg.slogdet(Sp)[1] - 49 * np.linalg.slogdet(S[0])[1] - 29 * np.linalg.slogdet(S[1])[1]
    assert props.loc["other", "heterogeneity"] == pytest.approx(box_m / (78 * 3))
    assert props.loc["other", ["n", "p", "classes"]].tolist() == [80, 3, 2]
    assert props.loc["other", "n_over_p"] == pytest.approx(80 / 3)


def test_condition_is_the_collections(iris):
    from helpers.data.collection import pooled_within_condition

    props = dataset_properties({"iris": iris})
    assert props.loc["iris", "log10_condition"] == pytest.approx(np.log10(pooled_within_condition(*iris)))


def test_gain_correlations_are_scipys_spearman():
    rng = np.random.default_rng(4)
    idx = [f"d{i}" for i in range(9)]
    gains = pd.DataFrame({"g": rng.normal(size=9)}, index=idx)
    props = pd.DataFrame({"p1": rng.normal(size=9), "p2": np.arange(9.0)}, index=idx[::-1])  # other order
    out = gain_correlations(gains, props)
    ref = stats.spearmanr(gains["g"], props.loc[idx, "p1"])
    assert out.loc[("g", "p1"), "rho"] == pytest.approx(ref.statistic)
    assert out.loc[("g", "p1"), "p_value"] == pytest.approx(ref.pvalue)
    assert out.loc[("g", "p2"), "n"] == 9
    with pytest.raises(ValueError, match="share 2 data sets"):
        gain_correlations(gains.iloc[:2], props)


def test_correlation_family_is_statsmodels_holm_over_the_correlations_tried():
    from statsmodels.stats.multitest import multipletests

    idx = pd.MultiIndex.from_tuples([("g1", "a"), ("g1", "b"), ("g2", "a"), ("g2", "b")])
    corr = pd.DataFrame({"rho": [0.3, -0.72, 0.5, 0.1], "p_value": [0.2, 0.004, 0.03, 0.7], "n": 12}, index=idx)
    fam = G.correlation_family(corr, alpha=0.05)
    assert fam["strongest"] == ("g1", "b") and fam["rho"] == -0.72
    assert fam["p_adjusted"] == pytest.approx(4 * 0.004)                          # the smallest p times four
    assert fam["p_adjusted"] == pytest.approx(multipletests(corr["p_value"], method="holm")[1][1])
    assert fam["survives"] and fam["n_uncorrected"] == 2 and fam["n_corrected"] == 1   # 0.03 * 3 > 0.05
    assert fam["n_tried"] == 4 and fam["expected_by_chance"] == pytest.approx(0.2)
    weak = G.correlation_family(corr.assign(p_value=[0.2, 0.02, 0.03, 0.7]))
    assert not weak["survives"] and weak["p_adjusted"] == pytest.approx(0.08)
    with pytest.raises(ValueError, match="'rho' and 'p_value' columns"):
        G.correlation_family(corr[["rho"]])
    with pytest.raises(ValueError, match="alpha must be"):
        G.correlation_family(corr, alpha=1.5)


def test_load_datasets_reads_a_comma_separated_list_and_names_unknown_sets():
    data = G.load_datasets("iris, wine")
    assert list(data) == ["iris", "wine"] and data["iris"][0].shape == (150, 4)
    with pytest.raises(ValueError, match=r"unknown data set\(s\) \['nope'\]"):
        G.load_datasets(["iris", "nope"])


# --------------------------------------------------------------------------------------------
# what notebook 08 shows: short labels, grids, paired differences, figures


def test_short_labels_and_tuning_grids_name_every_method():
    assert list(G.SHORT) == list(METHODS) and len(set(G.SHORT.values())) == len(METHODS)
    grids = G.tuning_grids()
    assert list(grids) == list(METHODS)
    assert grids["euclidean_knn"] == "k in (1, 3, 5, 7, 9, 11, 15, 21)"
    assert grids["rbf_svc"] == "C in (1.0, 10.0), gamma in (0.3, 1.0, 3.0) / p"
    assert grids["nca_knn"].endswith("(NCA fitted once per training set, 20 L-BFGS iterations)")


def paired_scores():
    """Two data sets, two repeats of three folds, methods a and b: a - b is +0.1 on d1, mixed on d2."""
    rows = []
    for dataset, diffs in {"d1": [0.1] * 6, "d2": [0.05, -0.05, 0.1, -0.1, 0.0, 0.02]}.items():
        for i, diff in enumerate(diffs):
            rows += [{"dataset": dataset, "repeat": i // 3, "fold": i % 3, "method": "b", "accuracy": 0.8},
                     {"dataset": dataset, "repeat": i // 3, "fold": i % 3, "method": "a", "accuracy": 0.8 + diff}]
    return pd.DataFrame(rows)


def test_paired_difference_summarises_the_per_fold_differences():
    scores = paired_scores()
    out = G.paired_difference(scores, "a", "b", ["d2", "d1"], n_splits=3)
    assert out.index.tolist() == ["d2", "d1"]
    ref = summarize_scores({"d2": np.array([0.05, -0.05, 0.1, -0.1, 0.0, 0.02]), "d1": np.full(6, 0.1)},
                           test_train_ratio=1 / 2)
    assert_allclose(out.to_numpy(dtype=float), ref.to_numpy(dtype=float), atol=1e-12)
    assert out.loc["d1", "mean"] == pytest.approx(0.1) and out.loc["d2", "mean"] == pytest.approx(0.02 / 6)
    assert G.clear_differences(out) == (1, 0)                 # d1 above zero (no spread), d2 not told apart
    assert G.paired_difference(scores, "a", "b", n_splits=3).index.tolist() == ["d1", "d2"]


def test_claim_summary_reads_a_row_of_claim_tests():
    t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    row = claim_tests(t, [Claim("k", "x", "y", "a source")]).iloc[0]
    # differences 0.02, 0.01, 0.04, 0.05, 0.01, 0.05: Walsh averages' median 0.03, exact 96.9% interval
    assert G.claim_summary(row) == ("+0.0300 [+0.0100, +0.0500], P(better, equivalent, worse) = 1.00, 0.00, 0.00 at "
                                    "ROPE ±0.01; 6 of 6 data sets higher, Holm p = 0.031")


@pytest.mark.parametrize("n", [5, 20, 100])
def test_critical_rho_is_where_the_spearman_p_value_reaches_alpha(n):
    rho = G.critical_rho(n, alpha=0.05)
    t = rho * np.sqrt((n - 2) / (1 - rho**2))
    assert 2 * stats.t.sf(t, n - 2) == pytest.approx(0.05)
    assert round(G.critical_rho(20), 2) == 0.44


def test_paired_differences_figure_colours_clear_gains_and_losses():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    d = pd.DataFrame({"mean": [0.05, -0.04, 0.0], "ci_low": [0.01, -0.08, -0.02], "ci_high": [0.09, -0.01, 0.02]},
                     index=["s1", "s2", "s3"])
    claims = [Claim("k", "vac_knn", "cosine_knn", ""), Claim("k", "mahalanobis_knn", "euclidean_knn", "")]
    fig = G.plot_paired_differences({c.label: d for c in claims}, ["s1", "s2", "s3"], claims)
    first = fig.axes[0]
    assert first.get_title() == "E(W)-cos - cosine\nabove 0 on 1, below on 1"
    assert [t.get_text() for t in first.get_yticklabels()] == ["s3", "s2", "s1"]   # first data set at the top
    colours = [tuple(c) for c in first.collections[-1].get_facecolor()]
    assert colours == [to_rgba("grey"), to_rgba("C3"), to_rgba("C2")]
    assert fig._suptitle.get_text().endswith("clear gains in 2 and clear losses in 2 of 6 comparisons")
    plt.close("all")


def test_gain_correlations_figure_titles_the_strongest_correlation():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    idx = [f"d{i}" for i in range(6)]
    gains = pd.DataFrame({"g1": [0.01, 0.02, 0.0, -0.01, 0.03, 0.02], "g2": [0.0, 0.01, 0.02, 0.03, 0.04, 0.05]},
                         index=idx)
    props = pd.DataFrame({"heterogeneity": [0.1, 0.3, 0.2, 0.5, 0.4, 0.6], "n_over_p": [10, 20, 40, 80, 160, 200]},
                         index=idx)
    corr = gain_correlations(gains, props)
    fig = G.plot_gain_correlations(gains, props, corr)
    assert [ax.get_xlabel() for ax in fig.axes[:2]] == [G.PROPERTY_LABELS[p] for p in ("heterogeneity", "n_over_p")]
    assert fig.axes[1].get_xscale() == "log" and fig.axes[0].get_xscale() == "linear"
    rho_g1 = stats.spearmanr(gains["g1"], props["n_over_p"]).statistic                # ties in g1: 0.32
    assert fig.axes[1].get_title() == f"Spearman rho, in legend order:\n{rho_g1:+.2f}, +1.00" == \
        "Spearman rho, in legend order:\n+0.32, +1.00"
    assert "is rho = +1.00 (g2 with n_over_p, p = 0.00)" in fig._suptitle.get_text()
    plt.close("all")
