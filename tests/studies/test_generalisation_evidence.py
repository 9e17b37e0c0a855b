"""The evidence layer under the second and third editions' rules (one contrast per claim: the source's
baselines), on made-up score tables with known advantages; the fourth edition's nested contrasts are tested in
test_generalisation_fourth_edition.py."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from helpers.significance import average_ranks, critical_difference, friedman_test
from helpers.studies.generalisation._examples import example_datasets, example_scores
from helpers.studies.generalisation.evidence import (
    claim_effects,
    claim_table,
    dataset_means,
    flags,
    grid_edges,
    leave_one_out,
)
from helpers.studies.generalisation.exploratory import (
    property_association,
)
from helpers.studies.generalisation.hierarchical import hierarchical_posterior
from helpers.studies.generalisation.preregistration import load_protocol, protocol_path
from helpers.workbook.verdicts import effect_verdict, weakest
from tests.support import assert_hierarchical_answer

N = 2000   # posterior draws: enough for the checks, fast


@pytest.fixture(scope="module")
def scores():
    return example_scores()


@pytest.fixture(scope="module")
def datasets():
    return example_datasets()


@pytest.fixture(scope="module")
def protocol():
    return load_protocol(protocol_path(3))


@pytest.fixture(scope="module")
def table(scores, protocol):
    return claim_table(scores, protocol, n_samples=N)


def _walsh_median(d):
    d = np.asarray(d)
    return float(np.median([(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]))


# -- per data set --------------------------------------------------------------------------------


def test_dataset_means_are_the_means_over_folds_and_repeats(scores):
    means = dataset_means(scores)
    assert means.shape == (12, 15)
    rows = scores[(scores.dataset == "biopsy") & (scores.method == "nca")]
    assert len(rows) == 20
    assert means.loc["biopsy", "nca"] == pytest.approx(rows.accuracy.mean(), abs=1e-15)
    balanced = dataset_means(scores, "balanced_accuracy")
    assert balanced.loc["biopsy", "nca"] == pytest.approx(rows.balanced_accuracy.mean(), abs=1e-15)


def test_dataset_means_refuses_missing_folds_duplicates_and_nan(scores):
    with pytest.raises(ValueError, match=r"method 'nca' has 19 of the 20 folds of data set 'breast_cancer'"):
        first = scores[(scores.dataset == "breast_cancer") & (scores.method == "nca")].index[0]
        dataset_means(scores.drop(index=first))
    with pytest.raises(ValueError, match="1 repeated"):
        dataset_means(pd.concat([scores, scores.iloc[:1]]))
    bad = scores.copy()
    bad.loc[5, "accuracy"] = np.nan
    with pytest.raises(ValueError, match="1 accuracy score"):
        dataset_means(bad)
    with pytest.raises(ValueError, match="metric must be one of"):
        dataset_means(scores, "f1")
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['fold'\]"):
        dataset_means(scores.drop(columns="fold"))


# -- the claims ----------------------------------------------------------------------------------


def test_claim_table_rows_cover_every_reading_and_baseline(table, protocol):
    expected = {(c["key"], r, b) for c in protocol["claims"] for r in [c["primary"], *c["secondary"]]
                for b in c["baselines"]}
    assert set(zip(table.claim, table.reading, table.baseline)) == expected
    assert table.primary.sum() == 4   # vac, mkn, and svm against two kernels
    assert (table.wins + table.ties + table.losses == table.n_sets).all() and (table.n_sets == 12).all()


def test_hl_effect_is_the_median_of_walsh_averages(scores, table):
    means = dataset_means(scores)
    d = means["expected_cholesky_cosine"] - means["cosine"]
    row = table[(table.reading == "expected_cholesky_cosine") & (table.baseline == "cosine")].iloc[0]
    assert row.effect == pytest.approx(_walsh_median(d), abs=1e-15)
    assert row.low <= row.effect <= row.high
    assert row.effect == pytest.approx(0.03, abs=0.003)      # the advantage built in
    assert (row.wins, row.ties, row.losses) == (12, 0, 0)
    assert row.p == pytest.approx(stats.wilcoxon(d, zero_method="zsplit").pvalue)
    assert row.p == pytest.approx(2 / 2**12)                 # exact: all twelve differences positive


def test_posterior_sums_to_one_and_favours_the_built_in_advantage(table):
    total = table.p_better + table.p_equivalent + table.p_worse
    np.testing.assert_allclose(total, 1, atol=1e-12)
    vac = table[(table.reading == "expected_cholesky_cosine")].iloc[0]
    assert vac.p_better > 0.95


def test_intersection_union_p_is_the_larger_and_holm_equals_statsmodels(table, protocol):
    svm = table[(table.claim == "svm.better-than-kernels") & table.primary]
    assert (svm.p_claim == svm.p.max()).all()
    confirmatory = table[table.primary].drop_duplicates("claim").set_index("claim")
    keys = [c["key"] for c in protocol["claims"]]
    raw = confirmatory.loc[keys, "p_claim"].to_numpy()
    np.testing.assert_allclose(confirmatory.loc[keys, "p_holm"], multipletests(raw, method="holm")[1])
    assert (confirmatory.family == "confirmatory").all()
    secondary = table[(table.claim == "mkn.accuracy-vs-euclidean") & ~table.primary].set_index("reading")
    np.testing.assert_allclose(secondary.p_holm, multipletests(secondary.p_claim.to_numpy(), method="holm")[1])
    # one secondary reading: its own p
    zca = table[table.reading == "expected_zca_svc"]
    assert (zca.p_holm == zca.p_claim).all() and (zca.p_claim == zca.p.max()).all()


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_ties_count_split_not_dropped(scores, protocol):
    tied = scores.copy()
    sets = tied.dataset.isin(["breast_cancer", "biopsy", "set02"])
    same = (tied.method == "expected_cholesky_cosine") & sets
    tied.loc[same, "accuracy"] = tied.loc[(tied.method == "cosine") & sets, "accuracy"].to_numpy()
    e = claim_effects(tied, protocol, n_samples=N)["vac.expected-better"]["comparisons"]["cosine"]
    assert "12 wins" not in e["method"] and "9 wins, 3 ties, 0 losses" in e["method"]
    means = dataset_means(tied)
    d = (means["expected_cholesky_cosine"] - means["cosine"]).to_numpy()
    # twelve sets with zeros: scipy's exact sign-flip distribution, in which the split zeros add a constant
    assert e["p"] == pytest.approx(stats.wilcoxon(d, zero_method="zsplit").pvalue) == 2 / 2**9
    assert e["effect"] == pytest.approx(_walsh_median(d), abs=1e-15)   # the zeros count in the estimate
    assert e["effect"] < _walsh_median(d[d != 0])


def test_exclude_really_excludes(scores, protocol, table):
    own = protocol["datasets"]["sources_own_data"]
    without = claim_table(scores, protocol, exclude=own, n_samples=N)
    assert (without.n_sets == 10).all()
    means = dataset_means(scores).drop(index=own)
    d = means["mahalanobis_per_category"] - means["euclidean"]
    row = without[(without.reading == "mahalanobis_per_category")].iloc[0]
    assert row.effect == pytest.approx(_walsh_median(d), abs=1e-15)
    assert row.effect != table[table.reading == "mahalanobis_per_category"].iloc[0].effect
    with pytest.raises(ValueError, match=r"not in the score table: \['iris'\]"):
        claim_table(scores, protocol, exclude=["iris"], n_samples=N)


def test_claim_effects_are_what_the_verdict_engine_takes(scores, protocol, table):
    effects = claim_effects(scores, protocol, n_samples=N)
    assert list(effects) == [c["key"] for c in protocol["claims"]]
    rope = protocol["decision"]["rope"]
    for answer in effects.values():
        chosen = answer["comparisons"][weakest(answer["comparisons"])]
        assert set(chosen) == {"effect", "interval", "p", "method", "posterior", "decisive"}
        at = chosen["posterior"](rope)
        assert at["better"] + at["equivalent"] + at["worse"] == pytest.approx(1)
        assert effect_verdict(chosen["effect"], chosen["interval"], rope, posterior=at) in {
            "reproduced", "practically equivalent", "refuted", "not supported", "inconclusive",
            "small but real", "small, not significant"}
    vac = effects["vac.expected-better"]["comparisons"]["cosine"]
    row = table[table.reading == "expected_cholesky_cosine"].iloc[0]
    assert vac["effect"] == row.effect and tuple(vac["interval"]) == (row.low, row.high) and vac["p"] == row.p
    assert effect_verdict(vac["effect"], vac["interval"], rope, posterior=vac["posterior"](rope)) == "reproduced"
    assert "Holm-adjusted over the three claims" in vac["method"] and "12 wins" in vac["method"]
    # the sensitivity: other ROPEs give other posteriors, each cached
    assert vac["posterior"](0.005) is vac["posterior"](0.005)
    assert vac["posterior"](0.05)["equivalent"] > vac["posterior"](0.005)["equivalent"]


def test_claim_effects_with_a_secondary_reading_and_bad_readings(scores, protocol):
    e = claim_effects(scores, protocol, reading={"vac.expected-better": "expected_zca_cosine"}, n_samples=N)
    means = dataset_means(scores)
    d = means["expected_zca_cosine"] - means["cosine"]
    assert e["vac.expected-better"]["comparisons"]["cosine"]["effect"] == pytest.approx(_walsh_median(d), abs=1e-15)
    assert "within the claim's other comparisons" in e["vac.expected-better"]["comparisons"]["cosine"]["method"]
    with pytest.raises(ValueError, match="'cosine' is not a reading of vac.expected-better"):
        claim_effects(scores, protocol, reading={"vac.expected-better": "cosine"})
    with pytest.raises(ValueError, match="unknown claim 'vac'"):
        claim_effects(scores, protocol, reading={"vac": "expected_zca_cosine"})


def test_the_sourcecheck_takes_the_comparisons(scores, protocol):
    from helpers.workbook.checks import SourceCheck

    ledger = pd.DataFrame([dict(id="GEN-1", source="000_355ea6f26af76eed.txt", lines="519", item="svm",
                                printed="better", reading="", correction="", notebook="99",
                                key="svm.better-than-kernels", scope="", rope="0.01", printing="")])
    answer = claim_effects(scores, protocol, n_samples=N)["svm.better-than-kernels"]
    row = SourceCheck("99", ledger=ledger).claim("svm.better-than-kernels", evidence="12 data sets", **answer)
    assert row.verdict == "reproduced"
    assert set(row.record["rope_sensitivity"]) == {"half", "double"}


def test_leave_one_out_drops_each_data_set(scores, protocol):
    others = ["set06", "set07", "set08", "set09", "set10", "set11", "breast_cancer"]
    loo = leave_one_out(scores, protocol, "mkn.accuracy-vs-euclidean", exclude=others)
    assert sorted(loo) == ["biopsy", "set02", "set03", "set04", "set05"]
    means = dataset_means(scores).drop(index=[*others, "set05"])
    d = means["mahalanobis_per_category"] - means["euclidean"]
    assert loo["set05"]["comparisons"]["euclidean"]["effect"] == pytest.approx(_walsh_median(d), abs=1e-15)
    alone = claim_effects(scores, protocol, exclude=[*others, "set05"], n_samples=N)["mkn.accuracy-vs-euclidean"]
    dropped = loo["set05"]["comparisons"]["euclidean"]
    assert dropped["p"] == alone["comparisons"]["euclidean"]["p"] and dropped["method"] == \
        alone["comparisons"]["euclidean"]["method"]
    with pytest.raises(ValueError, match="unknown claim"):
        leave_one_out(scores, protocol, "mkn")


# -- what the scores rest on -----------------------------------------------------------------------


def test_flags(scores, datasets, protocol):
    f = flags(scores, datasets, protocol)
    means = dataset_means(scores)
    assert (f.best == means.max(axis=1)).all()
    assert f.loc["set11", "at_ceiling"] and f.at_ceiling.sum() == 1
    assert f.loc["set10", "near_chance"] and f.near_chance.sum() == 1
    assert f.own_data[["breast_cancer", "biopsy"]].all() and f.own_data.sum() == 2
    with pytest.raises(ValueError, match=r"no row in the datasets table"):
        flags(scores, datasets.iloc[1:], protocol)


def test_grid_edges_counts_from_params_and_edges():
    rows = pd.DataFrame({"method": ["nca", "nca", "nca", "rbf_svc"],
                         "params": ['{"k": 1}', '{"k": 5}', '{"k": 31}', '{"C": 0.03125, "gamma": 1.0}'],
                         "edges": ['["k"]', "[]", '["k"]', '["C"]']})
    g = grid_edges(rows)
    assert g.loc[("nca", "k")].to_dict() == {"fits": 3, "on_edge": 2, "share": 2 / 3, "low_end": 1, "high_end": 1,
                                             "values": {1: 1, 5: 1, 31: 1}}
    assert g.loc[("rbf_svc", "C"), "on_edge"] == 1 and g.loc[("rbf_svc", "gamma"), "on_edge"] == 0
    with pytest.raises(ValueError, match=r"edges names \['gamma'\], not among its chosen parameters \['k'\]"):
        grid_edges(rows.assign(edges=['["gamma"]', "[]", "[]", "[]"]))
    with pytest.raises(ValueError, match="must be JSON text"):
        grid_edges(rows.assign(params=["k=1", "{}", "{}", "{}"]))


def test_grid_edges_on_the_example_table(scores):
    g = grid_edges(scores)
    on_edge = sum("k" in json.loads(e) for e, m in zip(scores.edges, scores.method) if m == "nca")
    assert g.loc[("nca", "k"), "on_edge"] == on_edge > 0 and g.loc[("nca", "k"), "fits"] == 240


# -- description and exploration -------------------------------------------------------------------

METHODS = ["cosine", "expected_cholesky_cosine", "euclidean", "mahalanobis_per_category", "linear_svc"]


def test_mean_ranks_and_friedman_equal_scipy(scores):
    """The ranks and Friedman's test as notebook 08 computes them (one autorank run), against pandas and scipy."""
    means = dataset_means(scores)[METHODS]
    ranks = means.rank(axis=1, ascending=False).mean()
    demsar = critical_difference(means)
    r = average_ranks(demsar)
    assert r.index[0] == "expected_cholesky_cosine"
    np.testing.assert_allclose(r[METHODS], ranks[METHODS])
    f = friedman_test(demsar)
    assert f["statistic"] == pytest.approx(stats.friedmanchisquare(*[means[m] for m in METHODS]).statistic)
    assert f["p_value"] == pytest.approx(stats.friedmanchisquare(*[means[m] for m in METHODS]).pvalue, rel=1e-6)


def test_property_association(scores, datasets):
    pairs = {"vac.expected-better": ("expected_cholesky_cosine", "cosine"),
             "mkn.accuracy-vs-euclidean": ("mahalanobis_per_category", "euclidean"),
             "svm.better-than-kernels": ("expected_cholesky_svc", "rbf_svc")}
    r = property_association(scores, datasets, pairs, n_permutations=999).set_index("claim")
    means = dataset_means(scores)
    gain = means["mahalanobis_per_category"] - means["euclidean"]
    prop = datasets.set_index("dataset").loc[means.index, "log10_condition_within"]
    assert r.loc["mkn.accuracy-vs-euclidean", "rho"] == pytest.approx(stats.spearmanr(gain, prop).statistic)
    assert r.loc["mkn.accuracy-vs-euclidean", "p"] == pytest.approx(1 / 1000 * 2, abs=0.002)   # built in
    assert r.loc["vac.expected-better", "property"] == "log10_condition_classes"
    np.testing.assert_allclose(r.p_holm, multipletests(r.p.to_numpy(), method="holm")[1])
    again = property_association(scores, datasets, pairs, n_permutations=999).set_index("claim")
    pd.testing.assert_frame_equal(r, again)                                                # seeded
    with pytest.raises(ValueError, match="no property named for claim 'x'"):
        property_association(scores, datasets, {"x": ("cosine", "euclidean")})


# -- the hierarchical model ------------------------------------------------------------------------


def test_hierarchical_posterior_models_the_two_methods_folds(scores, monkeypatch):
    """One row per data set, one column per (repeat, fold); the baseline first, the repeats as baycomp's runs."""
    import helpers.studies.generalisation.hierarchical as module

    seen = {}
    monkeypatch.setattr(module, "hierarchical_test", lambda x, y, rope, **kw: seen.update(x=x, y=y, rope=rope, **kw))
    hierarchical_posterior(scores, "expected_cholesky_cosine", "cosine", 0.01, n_samples=100, random_state=7,
                           exclude=["biopsy"])
    kept = scores[scores["dataset"] != "biopsy"]
    n_sets, n_folds = kept["dataset"].nunique(), kept.groupby(["repeat", "fold"]).ngroups
    assert seen["x"].shape == seen["y"].shape == (n_sets, n_folds)
    first = kept[kept["dataset"] == sorted(kept["dataset"].unique())[0]]
    for side, method in (("x", "cosine"), ("y", "expected_cholesky_cosine")):
        rows = first[first["method"] == method].sort_values(["repeat", "fold"])
        np.testing.assert_array_equal(seen[side][0], rows["accuracy"].to_numpy())
    assert (seen["rope"], seen["runs"], seen["n_samples"], seen["random_state"]) == (0.01, kept["repeat"].nunique(),
                                                                                      100, 7)


@pytest.mark.integration
def test_hierarchical_posterior_favours_the_built_in_advantage(scores, tmp_path, monkeypatch):
    pytest.importorskip("stan")
    monkeypatch.chdir(tmp_path)
    p = hierarchical_posterior(scores, "expected_cholesky_cosine", "cosine", [0.01, 0.05], n_samples=500)
    again = hierarchical_posterior(scores, "expected_cholesky_cosine", "cosine", 0.01, n_samples=500)
    assert_hierarchical_answer(p, 0.01, 0.05, again=again)
    assert list(tmp_path.iterdir()) == []                     # baycomp's cache file left nowhere
