"""The own study's fourth edition: nested contrasts, the written decision rule, and the readings that nest."""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_wine, make_classification
from sklearn.svm import SVC, LinearSVC
from statsmodels.stats.multitest import multipletests

from helpers.effects import bayesian_signed_rank
from helpers.studies.generalisation import readings
from helpers.studies.generalisation._examples import example_scores
from helpers.studies.generalisation.contrasts import claim_pairs, decomposition, reuters_rows
from helpers.studies.generalisation.evidence import claim_effects, claim_table, contrasts, dataset_means
from helpers.studies.generalisation.preregistration import load_protocol, protocol_path
from helpers.studies.generalisation.readings import fit_predict, neighbour_distances
from helpers.studies.generalisation.svcs import _svc, svc_features
from helpers.studies.generalisation.tuning import EARLIER_GRIDS, Grids, edges_of, grids_from_protocol
from helpers.workbook.verdicts import answer_verdict, effect_verdict, intersection_union, table_verdicts

N = 2000


@pytest.fixture(scope="module")
def protocol():
    return load_protocol(protocol_path(4))


@pytest.fixture(scope="module")
def scores():
    return example_scores()


@pytest.fixture(scope="module")
def grids(protocol):
    return grids_from_protocol(protocol)


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return X[::2], y[::2], X[1::2]


# -- the readings ------------------------------------------------------------------------------------

COVARIANCE_KNN = ["mahalanobis_class_blind", "mahalanobis_pooled_within", "mahalanobis_per_category",
                  "expected_cholesky_cosine", "expected_zca_cosine", "pooled_within_cosine"]
PLAIN = {"mahalanobis_class_blind": "standardised_euclidean", "mahalanobis_pooled_within": "standardised_euclidean",
         "mahalanobis_per_category": "standardised_euclidean", "expected_cholesky_cosine": "scaled_cosine",
         "expected_zca_cosine": "scaled_cosine", "pooled_within_cosine": "scaled_cosine"}


@pytest.mark.parametrize("method", COVARIANCE_KNN)
def test_every_covariance_knn_is_exactly_its_nested_method_at_shrinkage_one(method, grids, wine):
    X_tr, y_tr, X_te = wine
    D = neighbour_distances(method, X_tr, y_tr, X_te, grids)(1.0)
    plain = neighbour_distances(PLAIN[method], X_tr, y_tr, X_te, grids)(None)
    np.testing.assert_array_equal(D, plain)


@pytest.mark.parametrize("method", COVARIANCE_KNN)
@pytest.mark.parametrize("a", [0.0, 0.3, 0.9])
def test_one_eigendecomposition_gives_the_cholesky_readings_distances(method, a, wine):
    """Whitened distances and cosines depend on the covariance only: eigen and Cholesky factors agree."""
    X_tr, y_tr, X_te = wine
    target = "pooled" if method == "mahalanobis_per_category" else "own"
    eigen, cholesky = (replace(EARLIER_GRIDS, factorisation=f, per_category_target=target)
                       for f in ("eigen", "cholesky"))
    if method == "mahalanobis_per_category":   # the Cholesky path shrinks each class to its own variance
        own = replace(EARLIER_GRIDS, factorisation="eigen")
        np.testing.assert_allclose(neighbour_distances(method, X_tr, y_tr, X_te, own)(a),
                                   neighbour_distances(method, X_tr, y_tr, X_te, cholesky)(a), rtol=1e-10)
        return
    np.testing.assert_allclose(neighbour_distances(method, X_tr, y_tr, X_te, eigen)(a),
                               neighbour_distances(method, X_tr, y_tr, X_te, cholesky)(a), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("method", ["expected_cholesky_svc", "expected_zca_svc"])
def test_the_whitened_svcs_are_exactly_the_linear_svc_at_shrinkage_one(method, grids, wine):
    X_tr, y_tr, X_te = wine
    a = svc_features(method, X_tr, y_tr, X_te, grids)(1.0)
    b = svc_features("linear_svc", X_tr, y_tr, X_te, grids)(None)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    Z_tr, _ = svc_features(method, X_tr, y_tr, X_te, grids)(0.3)
    assert np.mean(np.einsum("ij,ij->i", Z_tr, Z_tr)) == pytest.approx(X_tr.shape[1])   # the size of standardised rows


def test_the_linear_solver_depends_on_the_data_sets_shape(grids):
    assert isinstance(_svc("linear", 1.0, None, (2, 750), grids), LinearSVC)      # two classes: liblinear
    assert isinstance(_svc("linear", 1.0, None, (5, 13), grids), LinearSVC)       # narrow: liblinear one-vs-rest
    assert isinstance(_svc("linear", 1.0, None, (10, 61), grids), SVC)            # wide, several classes: libsvm
    assert _svc("linear", 1.0, None, (2, 5), grids).dual == "auto"
    assert isinstance(_svc("rbf", 1.0, 0.1, (2, 5), grids), SVC)
    assert isinstance(_svc("linear", 1.0, None, (5, 13), EARLIER_GRIDS), SVC)              # the earlier editions


def test_nca_is_fitted_inside_every_inner_fold(grids, monkeypatch):
    X, y = make_classification(150, 5, n_informative=3, random_state=0)
    calls = []
    original = readings._nca_rows

    def recording(X_tr, y_tr, X_te, g):
        calls.append((len(X_tr), len(X_te)))
        return original(X_tr, y_tr, X_te, g)

    monkeypatch.setattr(readings, "_nca_rows", recording)
    small = replace(grids, k=(1, 5, 15), nca_max_iter=50)
    preds, chosen, _ = fit_predict("nca", X[:120], y[:120], X[120:], small)
    assert calls[0] == (120, 30) and [c for c in calls[1:]] == [(96, 24)] * 5   # the outer fit, then five inner ones
    assert chosen["k"] in (1, 5, 15) and len(preds[0]) == 30
    calls.clear()
    fit_predict("nca", X[:120], y[:120], X[120:], replace(small, nca_nested=False))
    assert calls == [(120, 30)]


def test_an_edge_counts_only_at_an_open_end_that_decided(grids):
    grid = {"k": [1, 3, 5], "C": [0.1, 1.0, 10.0], "shrinkage": [0.0, 0.5, 1.0]}
    tied = {(("C", 10.0),): 0.9, (("C", 1.0),): 0.9, (("C", 0.1),): 0.8}
    assert edges_of({"C": 10.0}, grid, grids, tied) == []                    # an inner point scores as well
    assert edges_of({"C": 10.0}, grid, grids, {**tied, (("C", 1.0),): 0.85}) == ["C"]
    assert edges_of({"C": 0.1}, grid, grids, {(("C", 0.1),): 0.9, (("C", 1.0),): 0.8}) == ["C"]
    assert edges_of({"k": 1}, grid, grids, {(("k", 1),): 0.9, (("k", 3),): 0.8}) == []   # k = 1 is k's own bound
    assert edges_of({"k": 5}, grid, grids, {(("k", 5),): 0.9, (("k", 3),): 0.8}) == ["k"]
    assert edges_of({"shrinkage": 1.0, "k": 3}, grid, grids, {(("shrinkage", 1.0), ("k", 3)): 0.9}) == []
    assert edges_of({"k": 1}, grid, EARLIER_GRIDS) == ["k"]                              # the earlier editions' rule


# -- the evidence ----------------------------------------------------------------------------------


def test_each_claim_is_decided_against_the_method_it_nests(protocol):
    got = {c["key"]: contrasts(c) for c in protocol["claims"]}
    assert got == {"vac.expected-better": {"covariance": ["scaled_cosine"], "source": ["cosine"]},
                   "mkn.accuracy-vs-euclidean": {"covariance": ["standardised_euclidean"], "source": ["euclidean"]},
                   "svm.better-than-kernels": {"covariance": ["linear_svc", "rbf_svc"]}}
    assert claim_pairs(protocol)[2:4] == [
        ("mkn.accuracy-vs-euclidean", "mahalanobis_per_category", "covariance", "standardised_euclidean"),
        ("mkn.accuracy-vs-euclidean", "mahalanobis_per_category", "source", "euclidean")]


def test_the_confirmatory_family_is_the_nested_contrasts_holm_over_three(scores, protocol):
    t = claim_table(scores, protocol, n_samples=N)
    conf = t[t.family == "confirmatory"]
    assert sorted(set(zip(conf.claim, conf.baseline))) == [
        ("mkn.accuracy-vs-euclidean", "standardised_euclidean"), ("svm.better-than-kernels", "linear_svc"),
        ("svm.better-than-kernels", "rbf_svc"), ("vac.expected-better", "scaled_cosine")]
    claims = conf.drop_duplicates("claim").set_index("claim")
    np.testing.assert_allclose(claims.p_holm, multipletests(claims.p_claim.to_numpy(), method="holm")[1])
    means = dataset_means(scores)
    row = t[(t.reading == "mahalanobis_per_category") & (t.baseline == "standardised_euclidean")].iloc[0]
    d = (means["mahalanobis_per_category"] - means["standardised_euclidean"]).to_numpy()
    post = bayesian_signed_rank(means["mahalanobis_per_category"], means["standardised_euclidean"], 0.01, n_samples=N)
    assert (row.wins, row.losses) == (int((d > 0).sum()), int((d < 0).sum()))
    assert row.mass_better == pytest.approx(post["mass_better"]) and row.p_better == pytest.approx(post["better"])
    np.testing.assert_allclose(t[["mass_better", "mass_equivalent", "mass_worse"]].sum(axis=1), 1, atol=1e-12)


def test_the_signed_rank_masses_are_baycomps_posterior_means():
    from baycomp import SignedRankTest

    rng = np.random.default_rng(3)
    a = rng.uniform(0.7, 0.9, 25)
    b = a + rng.normal(0.004, 0.015, 25)
    ours = bayesian_signed_rank(a, b, rope=0.01, n_samples=5000, random_state=1)
    theirs = SignedRankTest.sample(a, b, rope=0.01, nsamples=5000, random_state=1)   # left: a ahead of b by the ROPE
    np.testing.assert_allclose([ours["mass_better"], ours["mass_equivalent"], ours["mass_worse"]],
                               theirs.mean(axis=0), atol=1e-12)


def _changed(protocol, section, field, value):
    other = copy.deepcopy(protocol)
    other[section][field] = value
    return other


def test_every_field_of_the_decision_is_used(scores, protocol):
    """Change one field of [decision] at a time: what the evidence says, or its verdict, changes with it."""
    def confirmatory(p):
        t = claim_table(scores, p)   # the protocol's posterior_draws
        return t[t.family == "confirmatory"].reset_index(drop=True)

    protocol = _changed(protocol, "decision", "posterior_draws", 2000)
    base = confirmatory(protocol)
    for field, value in (("rope", 0.03), ("prior_pseudo_observation", 5.0), ("posterior_seed", 7),
                         ("correction", "none")):
        changed = confirmatory(_changed(protocol, "decision", field, value))
        assert not changed.equals(base), field
    assert not confirmatory(_changed(protocol, "decision", "posterior_draws", 1000)).equals(base)
    # decisive and alpha reach the verdict engine in every confirmatory effect dict
    for field, value in (("decisive", 0.99), ("alpha", 0.01)):
        effects = claim_effects(scores, _changed(protocol, "decision", field, value), n_samples=N)
        comparison = effects["vac.expected-better"]["comparisons"]["scaled_cosine"]
        assert comparison["decisive" if field == "decisive" else "alpha"] == value
    answer = {"effect": 0.02, "interval": (0.01, 0.03),
              "posterior": {"better": 0.97, "equivalent": 0.02, "worse": 0.01}}
    assert answer_verdict(answer | {"decisive": 0.95}, 0.01) == "reproduced"
    assert answer_verdict(answer | {"decisive": 0.99}, 0.01) == "inconclusive"
    assert answer_verdict(answer | {"p_adjusted": 0.03, "alpha": 0.05}, 0.01) == "reproduced"
    assert answer_verdict(answer | {"p_adjusted": 0.03, "alpha": 0.01}, 0.01) == "inconclusive"
    with pytest.raises(ValueError, match="correction must be one of"):
        claim_table(scores, _changed(protocol, "decision", "correction", "fdr"), n_samples=N)


def test_a_confirmatory_decision_needs_the_adjusted_p(scores, protocol):
    t = claim_table(scores, protocol, n_samples=N)
    gated = table_verdicts(t.assign(p_holm=0.5), protocol["decision"]["rope"], alpha=0.05)
    free = table_verdicts(t.assign(p_holm=0.5), protocol["decision"]["rope"])
    confirmatory = (t.family == "confirmatory").to_numpy()
    assert all(g not in ("reproduced", "refuted") for g, c in zip(gated, confirmatory) if c)
    assert [g for g, c in zip(gated, confirmatory) if not c] == [f for f, c in zip(free, confirmatory) if not c]
    assert effect_verdict(-0.03, (-0.04, -0.02), 0.01, p_adjusted=0.2, alpha=0.05) == "not supported"
    with pytest.raises(ValueError, match="p_adjusted must be a probability"):
        effect_verdict(0.03, (0.02, 0.04), 0.01, p_adjusted=float("nan"), alpha=0.05)


def test_the_intersection_union_rule():
    up = {"effect": 0.03, "interval": (0.02, 0.04)}
    flat = {"effect": 0.0, "interval": (-0.004, 0.004)}
    down = {"effect": -0.03, "interval": (-0.04, -0.02)}
    vague = {"effect": 0.02, "interval": (-0.01, 0.05)}
    assert intersection_union({"a": up, "b": up | {"interval": (0.01, 0.05)}}, 0.01) == ("reproduced", "b")
    assert intersection_union({"a": up, "b": flat}, 0.01) == ("practically equivalent", "b")
    assert intersection_union({"a": flat, "b": down}, 0.01) == ("refuted", "b")
    assert intersection_union({"a": up, "b": vague}, 0.01) == ("inconclusive", "b")
    # the edition-3 rule reported the weakest comparison: here "b", which is only inconclusive
    assert intersection_union({"a": flat, "b": vague | {"interval": (-0.02, 0.05)}}, 0.01) == (
        "practically equivalent", "a")


def test_the_decomposition_separates_scaling_from_the_covariance(scores, protocol):
    t = decomposition(scores, protocol, n_samples=N)
    means = dataset_means(scores)
    scaling = t[t.part == "scaling alone"].set_index("reading")
    d = means["standardised_euclidean"] - means["euclidean"]
    assert scaling.loc["standardised_euclidean", "comparator"] == "euclidean"
    assert scaling.loc["standardised_euclidean", "wins"] == int((d > 0).sum())
    cov = t[t.part == "covariance beyond scaling"]
    assert set(cov.comparator) == {"standardised_euclidean", "scaled_cosine", "linear_svc"}
    source = t[t.part == "the source's comparison"]
    assert set(source.comparator) == {"euclidean", "cosine", "rbf_svc"}


def test_reuters_is_its_own_row_with_the_corrected_interval(scores, protocol):
    s = scores.replace({"dataset": {"set03": "reuters"}})
    t = reuters_rows(s, protocol)
    one = s[s.dataset == "reuters"]
    a = one[one.method == "mahalanobis_per_category"].sort_values(["repeat", "fold"])["accuracy"].to_numpy()
    b = one[one.method == "standardised_euclidean"].sort_values(["repeat", "fold"])["accuracy"].to_numpy()
    row = t.iloc[0]
    assert row.effect == pytest.approx(np.mean(a - b))
    naive = np.std(a - b, ddof=1) / np.sqrt(len(a))
    assert (row.high - row.low) > 2 * 1.96 * naive   # Nadeau-Bengio widens the naive interval
    with pytest.raises(ValueError, match="no rows of 'reuters'"):
        reuters_rows(scores, protocol)


def test_the_earlier_editions_keep_their_rules(scores):
    v3 = load_protocol(protocol_path(3))
    t = claim_table(scores, v3, n_samples=N)
    assert set(t.contrast) == {"source"}
    e = claim_effects(scores, v3, n_samples=N)["vac.expected-better"]["comparisons"]["cosine"]
    assert "alpha" not in e and e["decisive"] == 0.95
    assert grids_from_protocol(v3) == replace(grids_from_protocol(v3), nca_nested=False, factorisation="cholesky")


def test_the_protocol_needs_a_nested_method(tmp_path, protocol):
    text = protocol_path(4).read_text()
    broken = tmp_path / "v4.toml"
    broken.write_text(text.replace('nested = "scaled_cosine"', 'nestd = "scaled_cosine"'))
    with pytest.raises(ValueError, match="claim vac.expected-better: no nested method"):
        load_protocol(broken)
    broken.write_text(text.replace('factorisation = "eigen"', 'factorisation = "qr"'))
    with pytest.raises(ValueError, match="tuning.factorisation must be one of"):
        load_protocol(broken)


def test_grids_read_the_fourth_editions_choices(protocol):
    g = grids_from_protocol(protocol)
    assert (g.nca_nested, g.linear_solver, g.svc_rows, g.per_category_target, g.factorisation, g.edge_rule,
            g.libsvm_min_features) == (True, "by-shape", "standardised", "pooled", "eigen", "open-decided", 30)
    assert g.k[-1] == 181 and g.C_linear[0] == 2.0**-13 and g.C_linear[-1] == 2.0**17
    assert isinstance(Grids(k=(1,), shrinkage=(1.0,), C=(1.0,), gamma=(1.0,)), Grids)
    assert pd.Series(g.gamma).is_monotonic_increasing


def test_the_evidence_computed_once_is_what_the_separate_calls_give(scores, protocol):
    from helpers.studies.generalisation.evidence import claim_evidence

    table, effects = claim_evidence(scores, protocol, n_samples=N)
    pd.testing.assert_frame_equal(table, claim_table(scores, protocol, n_samples=N))
    for contrast in ("covariance", "source"):
        separate = claim_effects(scores, protocol, contrast=contrast, n_samples=N)
        for key, answer in separate.items():
            for name, c in answer["comparisons"].items():
                once = effects[contrast][key]["comparisons"][name]
                assert (once["effect"], once["interval"], once["p"], once["method"]) == (
                    c["effect"], c["interval"], c["p"], c["method"])
                assert once["posterior"](0.01) == c["posterior"](0.01)


def test_the_decomposition_takes_the_readings_rows_from_the_claim_table(scores, protocol):
    table = claim_table(scores, protocol, n_samples=N)
    given = decomposition(scores, protocol, n_samples=N, table=table)
    pd.testing.assert_frame_equal(given, decomposition(scores, protocol, n_samples=N))
    row = given[(given.reading == "expected_cholesky_cosine") & (given.comparator == "cosine")].iloc[0]
    same = table[(table.reading == "expected_cholesky_cosine") & (table.baseline == "cosine")].iloc[0]
    assert (row.part, row.effect, row.mass_better) == ("the source's comparison", same.effect, same.mass_better)
