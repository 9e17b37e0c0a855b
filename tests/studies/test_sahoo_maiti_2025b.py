"""helpers.studies.sahoo_maiti_2025b: the Cholesky-kernel SVC paper's case study and its kernel (notebook 05)."""

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, cross_val_predict, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from helpers import ExpectedWhitener, class_whitening_matrices, expected_whitening_matrix, transform_by_class
from helpers.comparisons import sweep_comparisons
from helpers.evaluation import SCORE_FUNCTIONS
from helpers.studies import sahoo_maiti_2025b as study
from helpers.studies.sahoo_maiti_2025a import SplitProtocol, wdbc_split
from helpers.svm import is_linearly_separable, svc_loocv_predict
from tests.support import two_classes


@pytest.fixture(scope="module")
def split():
    return wdbc_split(0.2, 42)


@pytest.fixture(scope="module")
def options(split):
    return study.two_options(split)


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_kernels_on_the_raw_split_rbf_equals_poly_and_sigmoid_collapses(split):
    # notebook 05's Figs. 2-4: an SVC with each kernel, scikit-learn's defaults, on the raw rows
    preds = {k: SVC(kernel=k).fit(split.X_train, split.y_train).predict(split.X_test) for k in study.KERNELS}
    acc = {k: np.mean(p == split.y_test) for k, p in preds.items()}
    assert acc == pytest.approx({"linear": 109 / 114, "rbf": 108 / 114, "poly": 108 / 114, "sigmoid": 53 / 114})
    np.testing.assert_array_equal(preds["rbf"], preds["poly"])
    precision = study.precision_table(split.y_test, preds)
    assert precision.index.tolist() == ["malignant", "benign", "macro avg", "weighted avg"]
    assert precision.loc["malignant", "rbf"] == 1.0 and precision.loc["malignant", "linear"] == pytest.approx(39 / 40)
    assert precision.loc["benign", "linear"] == pytest.approx(70 / 74)
    assert {m: SCORE_FUNCTIONS[m](split.y_test, preds["linear"]) for m in study.PAPER_METRICS} == pytest.approx(
        {"accuracy": 109 / 114, "precision": 39 / 40, "recall": 39 / 43, "f1": 78 / 83})


def test_two_options_option_b_is_eq_29_and_eq_28(split, options):
    acc = {name: np.mean(p == split.y_test) for name, p in options.predictions.items()}
    assert acc == pytest.approx({"population_cholesky": 1.0, "expected_cholesky": 110 / 114})
    p, M = study.eq29_by_hand(split.X_train, split.y_train)
    assert p == pytest.approx(169 / 455)
    np.testing.assert_allclose(M, options.expected, rtol=1e-12)
    W = class_whitening_matrices(split.X_train, split.y_train)
    eq28 = p * (split.X_test @ W[1].T) + (1 - p) * (split.X_test @ W[0].T)   # Eq. 28 with L = p, row by row
    np.testing.assert_allclose(eq28, split.X_test @ options.expected.T, rtol=1e-10)
    E = options.expected
    ref = SVC(kernel="linear").fit(split.X_train @ E.T, split.y_train).predict(split.X_test @ E.T)
    np.testing.assert_array_equal(options.predictions["expected_cholesky"], ref)


def test_raw_option_a_and_option_b_rows_are_all_linearly_separable(split, options):
    # line 230's "the data becomes perfectly linearly separable": the raw rows already are (exact LP)
    assert is_linearly_separable(split.X, split.y)
    assert is_linearly_separable(transform_by_class(split.X, split.y, options.matrices), split.y)
    assert is_linearly_separable(split.X_train @ options.expected.T, split.y_train)


def test_eq_18_and_31_are_squared_distances_not_kernels():
    rng = np.random.default_rng(1)
    X, y = two_classes(seed=1, n=30)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    E = rng.normal(size=(3, 3))
    kc = study.kernel_check(X[::2], y[::2], X[1::2], y[1::2], mats, E)
    assert kc.spectra.index.tolist() == ["Eq. 18, benign rows (own factor)", "Eq. 18, malignant rows (own factor)",
                                         "Eq. 31, all training rows (E(C^-1))"]
    # a matrix of squared distances of points in R^3 has rank <= 5: one positive and at most 4 negative eigenvalues
    assert (kc.spectra["positive eigenvalues"] == 1).all() and (kc.spectra["negative eigenvalues"] >= 1).all()
    np.testing.assert_allclose(kc.spectra["trace"], 0.0, atol=1e-9)
    assert kc.centred_gap < 1e-12 and kc.gauss_min > 0 and kc.n == 30
    Z = X[::2] @ E.T
    K = cdist(Z, Z, "sqeuclidean")
    expected = SVC(kernel="precomputed").fit(K, y[::2]).score(cdist(X[1::2] @ E.T, Z, "sqeuclidean"), y[1::2])
    assert kc.precomputed_accuracy == pytest.approx(expected)


def test_eq19_agrees_with_option_a_only_within_a_class():
    X, y = two_classes(seed=2, n=20)
    rng = np.random.default_rng(2)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    r = study.eq19_versus_optiona(X[::2], y[::2], X[1::2], y[1::2], mats)
    assert r["cross_share"] == pytest.approx(0.5) and r["same_max_deviation"] < 1e-9 < r["cross_max_deviation"]
    one = study.eq19_versus_optiona(X[::2], y[::2], X[1::2], y[1::2], {0: mats[0], 1: mats[0]})
    assert one["cross_max_deviation"] < 1e-9 and one["cross_ratio_median"] == pytest.approx(1.0)


def test_eq33_differs_from_the_constraint_by_p_1_minus_p_d_d(split, options):
    out = study.eq33_against_constraint(split.X_train, split.y_train, options.expected)
    d = out["differences"]
    assert d["E(S^-1) vs p S_1^-1 + (1 - p) S_0^-1 (check)"] < 1e-10
    assert d["difference vs p(1 - p) D'D (identity)"] < 1e-10
    assert d["E(S^-1) vs E(C^-1)' E(C^-1)"] == pytest.approx(0.14, abs=0.005)
    assert out["ratio_min"] == pytest.approx(1.0, abs=0.005) and out["ratio_max"] == pytest.approx(4.6, abs=0.05)
    # equal class factors: E(S^-1) is exactly E(C^-1)'E(C^-1)
    X, y = two_classes(seed=3, n=40)
    X[y == 1] = X[y == 0] + 5.0                                              # same covariance in both classes
    same = study.eq33_against_constraint(X, y, expected_whitening_matrix(X, y))
    assert same["differences"]["E(S^-1) vs E(C^-1)' E(C^-1)"] < 1e-10


def test_svm_split_sweep_adds_option_a_beside_the_models(split):
    models = study.svm_models()
    assert list(models) == ["linear", "rbf", "poly", "sigmoid", "expected_cholesky", "whitened_linear",
                            "standardised_linear", "standardised_rbf"]
    by_metric = study.svm_split_sweep({"rbf": SVC()}, split.X, split.y, SplitProtocol(n_splits=3, random_state=42),
                                      metrics=("accuracy", "recall"))
    assert list(by_metric) == ["accuracy", "recall"]
    assert list(by_metric["accuracy"]) == ["rbf", "population_cholesky", "population_cholesky_train_matrices"]
    np.testing.assert_array_equal(by_metric["recall"]["population_cholesky_train_matrices"], [1.0, 1.0, 1.0])


def test_advantage_claim_gathers_the_sweep_comparisons_it_needs():
    by_metric = {"accuracy": {"b": [0.95, 0.96, 0.94, 0.97], "a": [0.93, 0.93, 0.94, 0.92]}}
    c = sweep_comparisons(by_metric, [("b", "a")], ["accuracy"], 0.25)
    answer = study.advantage_claim(c, ["accuracy"], [("b", "a")], "b vs a", 4,
                                   pd.DataFrame({"accuracy": [0.9, 0.95]}, index=["a", "b"]))
    assert list(answer["comparisons"]) == ["accuracy: b vs a"]
    assert answer["evidence"].endswith("On our 80:20 split: accuracy b 0.950 vs a 0.900")
    with pytest.raises(ValueError, match="no comparison 'recall: b vs a'"):
        study.advantage_claim(c, ["recall"], [("b", "a")], "b vs a", 4)


def test_protocol_comparisons_pair_rows_and_correct_folds():
    y = np.r_[np.zeros(30, int), np.ones(30, int)]
    good, bad = y.copy(), y.copy()
    bad[:12] = 1                                                            # b wrong on 12 rows a gets right
    folds = {"a": [1.0, 0.9, 1.0, 0.95], "b": [0.8, 0.8, 0.9, 0.85]}
    c = study.protocol_comparisons("a", ["b"], loo=(y, {"a": good, "b": bad}), fold_scores=folds,
                                   split=(y[:20], {"a": good[:20], "b": bad[:20]}), n_resamples=999)
    assert list(c) == ["LOOCV: a vs b", "4-fold: a vs b", "80:20 split: a vs b"]
    loo = c["LOOCV: a vs b"]
    assert loo["effect"] == pytest.approx(0.2) and loo["right_wrong"] == (12, 0)
    assert loo["p"] == pytest.approx(2 * 0.5 ** 12) and loo["interval"][0] > 0
    cv = c["4-fold: a vs b"]                                                # d = 0.2, 0.1, 0.1, 0.1; n_test/n_train 1/3
    assert cv["effect"] == pytest.approx(0.125) and "n_test/n_train = 0.333" in cv["method"]
    assert c["80:20 split: a vs b"]["effect"] == pytest.approx(12 / 20)
    with pytest.raises(ValueError, match="at least one protocol"):
        study.protocol_comparisons("a", ["b"])
    with pytest.raises(ValueError, match=r"loo must be a pair \(true labels, \{model: predictions\}\)"):
        study.protocol_comparisons("a", ["b"], loo={"a": good, "b": bad})


def test_loocv_printing_note_accepts_cutting_only_as_a_hypothesis():
    note = study.loocv_printing_note({"linear": "0.954", "b": "0.971"}, {"linear": 543, "b": 553}, 569, "b")
    assert note.startswith("ours 553/569 = 0.97188 rounds to 0.972; no count out of 569 rounds to 0.971")
    assert "a hypothesis" in note and "linear: 543/569 = 0.95431 prints 0.954 whether rounded or cut" in note
    # another value of the same table that only cutting explains is the evidence of the habit
    habit = study.loocv_printing_note({"c": "0.957", "b": "0.971"}, {"c": 545, "b": 553}, 569, "b")  # 0.95782
    assert habit.endswith("c shows the same cutting")
    assert study.loocv_printing_note({"b": "0.972"}, {"b": 553}, 569, "b").endswith("as printed")
    assert "552/569 would round to 0.970" in study.loocv_printing_note({"b": "0.970"}, {"b": 553}, 569, "b")


def test_loocv_shortcut_equals_scikit_learn_for_the_rbf_kernel(split):   # notebook 05 runs the raw kernels by it
    X, y = split.X[:90, :4], split.y[:90]
    np.testing.assert_array_equal(svc_loocv_predict(SVC(), X, y), cross_val_predict(SVC(), X, y, cv=LeaveOneOut()))


# ---------------------------------------------------------------- section 5.7: the order of the columns


@pytest.fixture(scope="module")
def small_classes():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(40, 3)) @ [[2, 0, 0], [1, 1, 0], [0, 1, 3]],
              rng.normal(size=(40, 3)) @ [[1, 0, 0], [0, 2, 0], [1, 1, 1]] + 1.0]
    return X, np.repeat([0, 1], 40)


@pytest.mark.parametrize("order", [[2, 0, 1], [1, 0, 2], [0, 2, 1]])
def test_zca_mixture_is_order_free_and_cholesky_mixture_is_not(small_classes, order):
    X, y = small_classes
    for method in ("zca", "zca_cor"):
        assert study.order_gram_change(X, y, order, method) < 1e-10
        E, Ep = (expected_whitening_matrix(Z, y, method=method) for Z in (X, X[:, order]))
        np.testing.assert_allclose(Ep, E[np.ix_(order, order)], atol=1e-10)   # reordered, nothing else
    assert study.order_gram_change(X, y, order, "cholesky") > 1e-4                  # far beyond rounding
    for cl in (0, 1):                                                       # one class: a rotation at most
        assert study.order_gram_change(X, y, order, "cholesky", which=cl) < 1e-10
    assert study.order_gram_change(X, y, [0, 1, 2], "cholesky") < 1e-12     # the same order changes nothing


def test_gram_changes_and_bad_orders(small_classes):
    X, y = small_classes
    changes = study.gram_changes(X, y, [[2, 0, 1], [1, 2, 0]])
    assert changes.index.tolist() == ["cholesky, own matrix of class 0", "cholesky, own matrix of class 1",
                                      "cholesky, E(W^-1)", "zca_cor, own matrix of class 0",
                                      "zca_cor, own matrix of class 1", "zca_cor, E(W^-1)"]
    assert changes["cholesky, E(W^-1)"] == max(study.order_gram_change(X, y, o) for o in ([2, 0, 1], [1, 2, 0]))
    with pytest.raises(ValueError, match=r"permutation of range\(3\)"):
        study.order_gram_change(X, y, [0, 0, 1])
    with pytest.raises(ValueError, match="one label per row"):
        study.order_gram_change(X, y[:-1], [0, 1, 2])


def test_column_order_scores_on_wdbc(split, options):
    res = study.column_order_scores(split, n_orders=2, random_state=42)
    assert res.orders.shape == (2, 30) and sorted(res.orders[0]) == list(range(30))
    assert res.split.columns.tolist() == ["cholesky", "zca_cor"] and res.split.shape == (2, 2)
    # the data set's order is Option B of the notebook: 110 of 114 test rows, and Table 1's ten folds
    assert res.given.loc["cholesky", "80:20 split"] == pytest.approx(110 / 114)
    ref = cross_val_score(make_pipeline(ExpectedWhitener(), SVC(kernel="linear")), split.X, split.y,
                          cv=StratifiedKFold(10)).mean()
    assert res.given.loc["cholesky", "10-fold CV"] == pytest.approx(ref)
    assert (res.split["zca_cor"] == res.given.loc["zca_cor", "80:20 split"]).all()
    assert (res.folds["zca_cor"] == res.given.loc["zca_cor", "10-fold CV"]).all()
    spread = study.order_spread(res)
    assert spread.loc["zca_cor, 80:20 split", "range"] == 0
    assert spread.loc["cholesky, 10-fold CV", "data set's order"] == pytest.approx(ref)
    fig = study.plot_column_orders(res, {"linear": (0.95, 0.95)}, {"cholesky": "Option B"}, "title")
    assert len(fig.axes) == 2 and fig._suptitle.get_text() == "title"
    with pytest.raises(ValueError, match="n_orders"):
        study.column_order_scores(split, n_orders=0)
    with pytest.raises(ValueError, match="whitening methods"):
        study.column_order_scores(split, n_orders=1, methods=("bogus",))


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_table1_equals_scikit_learn_cross_validation(split):
    X, y = split.X[:80, :5] / split.X[:, :5].std(0), split.y[:80]   # a corner, scaled: the same protocol, quickly
    t = study.table1_svm(X, y)
    expected_svc = make_pipeline(ExpectedWhitener(), SVC(kernel="linear"))
    loo = cross_val_predict(SVC(kernel="linear"), X, y, cv=LeaveOneOut())
    np.testing.assert_array_equal(t.loo_predictions["linear"], loo)
    folds = cross_val_score(expected_svc, X, y, cv=StratifiedKFold(10))
    np.testing.assert_allclose(t.fold_scores["expected_cholesky"], folds)
    assert t.accuracy["linear"] == pytest.approx([np.mean(loo == y), np.mean(t.fold_scores["linear"])])
    Z = transform_by_class(X, y, class_whitening_matrices(X, y))
    pop = cross_val_score(SVC(kernel="linear"), Z, y, cv=StratifiedKFold(10)).mean()
    assert t.accuracy["population_cholesky"][1] == pytest.approx(pop)


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_fold_schemes_closeness_and_iterations(split):
    X, y = split.X[:150, :5] / split.X[:, :5].std(0), split.y[:150]
    table = study.fold_scheme_scores(X, y, class_whitening_matrices(X, y), random_state=42)
    assert table.shape == (2, 4)
    ref = cross_val_score(make_pipeline(ExpectedWhitener(), SVC(kernel="linear")), X, y, cv=StratifiedKFold(10)).mean()
    assert table.loc["expected_cholesky", "StratifiedKFold(10)"] == pytest.approx(ref)
    closeness = study.expected_matrix_closeness(X, y, expected_whitening_matrix(X[:120], y[:120]), 120)
    assert list(closeness) == ["80:20 training rows (120)", "10-fold training folds (135)",
                               "LOOCV training folds (149)"]
    values = list(closeness.values())
    assert values[0] > values[1] > values[2] > 0
    standardised = make_pipeline(StandardScaler(), SVC(kernel="linear")).fit(split.X_train, split.y_train)[-1]
    assert float(f"{standardised.n_iter_[0]:.2g}") == 1100.0          # notebook 05's libsvm iterations, 2 digits


# ---------------------------------------------------------------- notebook 02: Fig. 1, support vectors and spread


def test_spread_classes_support_vectors_and_the_rules_that_know_the_spread():
    rng = np.random.default_rng(0)
    X, y = study.spread_classes(rng, 50, 0.3, 1.5, 4.5)
    X_new, y_new = study.spread_classes(rng, 5000, 0.3, 1.5, 4.5)
    assert X.shape == (100, 2) and X_new.shape == (10000, 2)
    svm = SVC(kernel="linear", C=1000.0).fit(X, y)
    refits = study.support_vector_refits(X, y, svm)
    assert refits["change"] < 1e-6 and refits["n_support"] == len(svm.support_)
    assert refits["spread_after"] > 2 * refits["spread_before"]
    rules = study.spread_rules(X, y, X_new, y_new, svm)
    err = rules.errors["error, overall"]
    assert err["QDA (class Gaussians)"] < err["linear SVM"]
    assert err["nearest mean, Mahalanobis"] < err["nearest mean, Euclidean"]
    assert rules.svm_margin["tight"] == pytest.approx(rules.svm_margin["wide"], rel=1e-3)   # the SVM splits the gap
    assert rules.qda_margin["wide"] > rules.qda_margin["tight"]
    assert rules.qda_x_range[0] < 0 < rules.qda_x_range[1] < 4.5          # an oval around the tight class
    np.testing.assert_array_equal(rules.predictions["linear SVM"], svm.predict(X_new))
    assert rules.effects == {}                                              # no pairs asked, no bootstrap


def test_spread_rules_pairs_give_the_accuracy_difference_of_two_rules():
    rng = np.random.default_rng(0)
    X, y = study.spread_classes(rng, 50, 0.3, 1.5, 4.5)
    X_new, y_new = study.spread_classes(rng, 500, 0.3, 1.5, 4.5)
    svm = SVC(kernel="linear", C=1000.0).fit(X, y)
    pairs = {"Mahalanobis vs Euclidean": ("nearest mean, Mahalanobis", "nearest mean, Euclidean")}
    rules = study.spread_rules(X, y, X_new, y_new, svm, pairs=pairs)
    got = rules.effects["Mahalanobis vs Euclidean"]
    err = rules.errors["error, overall"]
    assert got["effect"] == pytest.approx(err["nearest mean, Euclidean"] - err["nearest mean, Mahalanobis"])
    assert got["interval"][0] <= got["effect"] <= got["interval"][1] and got["n"] == 1000
    assert (got["a_only"] - got["b_only"]) / 1000 == pytest.approx(got["effect"])
    with pytest.raises(ValueError, match="does not fit"):
        study.spread_rules(X, y, X_new, y_new, svm, pairs={"bad": ("linear SVM", "kNN")})


# ---------------------------------------------------------------- notebook 03: Eqs. 1-8 and 14-27

COV_POS, COV_NEG = [[1.0, 0.6], [0.6, 0.8]], [[3.0, -1.2], [-1.2, 1.5]]


@pytest.fixture(scope="module")
def example():
    X, y, fresh = study.gaussian_example([4.0, 4.0], COV_POS, [0.0, 0.0], COV_NEG, 40, 1000, 0)
    covs = {k: np.cov(X[y == k], rowvar=False) for k in (1, -1)}
    return X, y, fresh, covs, 39 * (covs[1] + covs[-1]) / 78


def test_gaussian_example_draws_training_then_fresh_points_from_one_stream(example):
    X, y, fresh, _, _ = example
    rng = np.random.default_rng(0)
    first = rng.multivariate_normal([4.0, 4.0], COV_POS, 40)
    np.testing.assert_array_equal(X[:40], first)
    assert y.tolist() == [1] * 40 + [-1] * 40 and fresh.shape == (2000, 2)


def test_standard_svm_equations_hold_at_the_solution(example):
    X, y, _, _, _ = example
    out = study.standard_svm_checks(X, y, 1.0)
    assert out["eq1_gap"] < 1e-9 and out["eq4_gap"] < 1e-6 and out["constraints_hold"]
    assert out["primal"] == pytest.approx(out["dual"], rel=1e-4)
    assert out["n_free"] <= out["n_support"] == len(out["svc"].support_)
    assert out["on_margin"] < 1e-3 and out["outside_min"] >= 1 - 1e-3


def test_earlier_formulations_are_svms_on_transformed_rows_and_units(example):
    X, y, fresh, _, pooled = example
    early = study.earlier_formulations(X, y, pooled, 1.0)
    assert max(early["gap_std"], early["gap56"], early["gap78"]) < 1e-3
    flips = study.unit_change_flips(X, y, fresh, pooled, [1000.0, 0.01], 1.0)
    assert flips["Eqs. 5-6 (Sigma^-1 in objective and constraint)"] == 0
    assert flips["paper's Eqs. 16-17 (pooled Psi^-1)"] == 0
    assert flips["standard SVM (Eqs. 2-3)"] > 50 and flips["Eqs. 7-8 (Sigma^-1 in the objective only)"] > 50
    assert study.unit_change_flips(X, y, fresh, pooled, [1.0, 1.0], 1.0).sum() == 0     # no change of units


def test_input_space_margins_match_the_geometry_and_eq22(example):
    X, y, _, covs, _ = example
    table, fits = study.input_space_margins(X, y, covs, 1000.0)
    assert table.index.tolist() == ["zca", "cholesky"] and (table["training errors"] == 0).all()
    zca, chol = table.loc["zca"], table.loc["cholesky"]
    assert zca["ratio, geometric"] == pytest.approx(zca["ratio, paper's Eq. 27"], rel=1e-9)
    assert chol["ratio, geometric"] == pytest.approx(chol["ratio, |W'theta| formula"], rel=1e-9)
    assert abs(chol["ratio, geometric"] - chol["ratio, paper's Eq. 27"]) > 0.1
    W, th, th0, Z, fit = fits["cholesky"]
    assert chol["margin, class +1"] == pytest.approx(1 / np.linalg.norm(W[1].T @ th), rel=1e-9)
    steps = study.eq22_steps({"class +1": covs[1]})
    assert steps.iloc[0, 0] < 1e-12 and steps.iloc[0, 2] < 1e-12 and steps.iloc[0, 1] > 0.1
