"""The multi-data-set comparison: its methods, its folds, its statistics over data sets."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone
from sklearn.covariance import LedoitWolf
from sklearn.datasets import load_iris, load_wine
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import (
    GridSearchCV,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from helpers.estimators import Whitener
from helpers.evaluation import summarize_scores
from helpers.workbook import generalisation as G
from helpers.workbook.generalisation import (
    CLAIMS,
    METHODS,
    Claim,
    TunedKNN,
    average_ranks,
    claim_tests,
    critical_difference,
    dataset_properties,
    friedman_test,
    gain_correlations,
    holm,
    make_methods,
    mean_accuracy,
    repeated_folds,
    run_comparison,
    summarise_by_dataset,
)


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


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


def test_tuned_knn_agrees_with_grid_search(wine):
    # Continuous features, so no exactly tied distances: the engine and scikit-learn agree on every k.
    X, y = wine
    ks = (1, 3, 5, 9, 15)
    knn = TunedKNN(StandardScaler(), ks=ks, inner_folds=3, random_state=7).fit(X, y)
    search = GridSearchCV(make_pipeline(StandardScaler(), KNeighborsClassifier()),
                          {"kneighborsclassifier__n_neighbors": list(ks)},
                          cv=StratifiedKFold(3, shuffle=True, random_state=7)).fit(X, y)
    assert_allclose([knn.inner_accuracy_[k] for k in ks], search.cv_results_["mean_test_score"], atol=1e-12)
    assert knn.best_k_ == search.best_params_["kneighborsclassifier__n_neighbors"]
    assert_array_equal(knn.predict(X), search.predict(X))


def test_tuned_knn_breaks_ties_towards_the_smallest_k():
    X = np.array([[0.0], [0.1], [0.2], [0.3], [5.0], [5.1], [5.2], [5.3]])
    y = np.repeat([0, 1], 4)
    knn = TunedKNN(ks=(1, 3), inner_folds=2).fit(X, y)
    assert knn.inner_accuracy_ == {1: 1.0, 3: 1.0} and knn.best_k_ == 1


def test_tuned_knn_drops_ks_larger_than_an_inner_fold_and_says_when_none_fit():
    X, y = np.arange(12.0).reshape(-1, 1), np.repeat([0, 1], 6)
    knn = TunedKNN(ks=(1, 3, 99), inner_folds=3).fit(X, y)
    assert sorted(knn.inner_accuracy_) == [1, 3]
    with pytest.raises(ValueError, match=r"no k in ks=\(99,\) fits the 8 rows"):
        TunedKNN(ks=(99,), inner_folds=3).fit(X, y)
    with pytest.raises(ValueError, match="smallest class has 2 training rows, fewer than inner_folds=3"):
        TunedKNN(inner_folds=3).fit(X[:8], np.r_[np.zeros(6), np.ones(2)])


# What the spies saw (module level: clone() deep-copies an estimator's parameters, so a list
# handed to a spy would be copied, not shared).
FITS: list = []


class RowSpy(TransformerMixin, BaseEstimator):
    """Identity transform that records the row ids (column 0) of every fit in FITS."""

    def fit(self, X, y=None):
        FITS.append(frozenset(np.asarray(X)[:, 0].astype(int)))
        self.mean_ = np.asarray(X).mean(axis=0)
        return self

    def transform(self, X):
        return np.asarray(X, dtype=float)


@pytest.mark.parametrize("nested, n_fits", [(True, 4), (False, 1)])
def test_tuned_knn_fits_its_transform_on_training_rows_only(iris, nested, n_fits):
    X, y = iris
    Xid = np.column_stack([np.arange(150), X])
    train = np.r_[0:40, 50:90, 100:140]
    FITS.clear()
    knn = TunedKNN(RowSpy(), ks=(1, 5), inner_folds=3, nested=nested).fit(Xid[train], y[train])
    knn.predict(Xid)  # predicting fits nothing
    assert len(FITS) == n_fits
    assert all(rows <= set(train) for rows in FITS), "a transform was fitted on a test row"
    assert FITS[-1] == set(train) if nested else FITS[0] == set(train)
    if nested:  # the inner folds: three disjoint validation parts of the training rows
        held_out = [set(train) - rows for rows in FITS[:3]]
        assert set().union(*held_out) == set(train) and sum(map(len, held_out)) == len(train)
    assert_allclose(knn.pipeline_[0].mean_, Xid[train].mean(axis=0))


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
    with pytest.raises(ValueError, match="n_features must be a positive integer"):
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


@pytest.fixture
def table():
    # four data sets, three methods: a always first, c always last (Demsar 2006, Section 3.2.2 style)
    return pd.DataFrame({"a": [0.90, 0.80, 0.70, 0.90], "b": [0.85, 0.75, 0.65, 0.92],
                         "c": [0.70, 0.60, 0.50, 0.70]}, index=["d1", "d2", "d3", "d4"])


def test_average_ranks_and_friedman_by_hand(table):
    # ranks per data set: (1, 2, 3), (1, 2, 3), (1, 2, 3), (2, 1, 3) -> 1.25, 1.75, 3.0
    assert average_ranks(table).to_dict() == {"a": 1.25, "b": 1.75, "c": 3.0}
    r = friedman_test(table)
    # chi2_F = 12 N / (k (k + 1)) [sum R_j^2 - k (k + 1)^2 / 4] with N = 4, k = 3
    chi2 = 12 * 4 / 12 * (1.25**2 + 1.75**2 + 3.0**2 - 3 * 16 / 4)
    assert r["statistic"] == pytest.approx(chi2) == pytest.approx(6.5)
    assert r["p_value"] == pytest.approx(stats.chi2.sf(6.5, 2))
    assert r["f_statistic"] == pytest.approx(3 * 6.5 / (4 * 2 - 6.5))   # Iman-Davenport
    assert r["f_p_value"] == pytest.approx(stats.f.sf(13.0, 2, 6))


def test_critical_difference_is_nemenyis(table):
    five = pd.concat([table, table.iloc[[0]].rename(index={"d1": "d5"})])   # autorank needs five data sets
    res = critical_difference(five)
    assert_allclose(res.rankdf.loc[["a", "b", "c"], "meanrank"], [1.2, 1.8, 3.0])
    assert_allclose(res.rankdf["meanrank"], average_ranks(five)[res.rankdf.index])
    assert res.pvalue == pytest.approx(friedman_test(five)["p_value"])
    # Demsar (2006), Table 5: q_0.05 = 2.343 for three classifiers; CD = q sqrt(k (k + 1) / (6 N))
    assert res.cd == pytest.approx(2.343 * np.sqrt(3 * 4 / (6 * 5)), abs=1e-3)


def test_friedman_needs_three_methods(table):
    with pytest.raises(ValueError, match="at least three methods"):
        friedman_test(table[["a", "b"]])


def test_holm_by_hand_and_against_statsmodels():
    p = [0.01, 0.04, 0.03, 0.2]
    # sorted 0.01, 0.03, 0.04, 0.2 times 4, 3, 2, 1 = 0.04, 0.09, 0.08 -> 0.09 (monotone), 0.2
    assert_allclose(holm(p), [0.04, 0.09, 0.09, 0.2])
    assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(1)
    q = rng.uniform(0, 0.2, 7)
    assert_allclose(holm(q), multitest.multipletests(q, method="holm")[1])


def test_holm_refuses_what_is_not_a_probability():
    with pytest.raises(ValueError, match="probabilities in"):
        holm([0.1, 1.5])


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


def test_load_datasets_reads_a_comma_separated_list_and_names_unknown_sets():
    data = G.load_datasets("iris, wine")
    assert list(data) == ["iris", "wine"] and data["iris"][0].shape == (150, 4)
    with pytest.raises(ValueError, match=r"unknown data set\(s\) \['nope'\]"):
        G.load_datasets(["iris", "nope"])
