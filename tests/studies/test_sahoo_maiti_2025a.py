"""helpers.studies.sahoo_maiti_2025a: the label-using population protocol, its audit, notebook 04's case study."""

import numpy as np
import pytest
from sklearn.model_selection import (
    LeaveOneOut,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier

from helpers import (
    class_whitening_matrices,
    load_wdbc,
    transform_by_class,
)
from helpers.studies.sahoo_maiti_2025a import (
    SplitProtocol,
    label_audit,
    label_audit_controls,
    population_protocol_cv,
    population_protocol_predict,
    population_split_scores,
)
from tests.support import two_classes


def test_controls_swap_mirror_and_draw_in_a_fixed_order():
    mats = {0: np.eye(3), 1: 2 * np.eye(3)}
    controls = label_audit_controls(mats, n_random=2, random_state=7, word="factors")
    assert list(controls) == ["the two class factors swapped", "identity for class 0, minus identity for class 1",
                              "random Gaussian matrices, draw 1", "random Gaussian matrices, draw 2"]
    assert controls["the two class factors swapped"][0] is mats[1]
    rng = np.random.default_rng(7)
    expected = [rng.normal(size=(3, 3)) for _ in range(4)]      # draw 1 class 0, class 1, draw 2 class 0, class 1
    got = [controls[f"random Gaussian matrices, draw {d}"][c] for d in (1, 2) for c in (0, 1)]
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


def test_audit_equals_the_protocol_run_by_hand_on_wdbc():
    X, y = load_wdbc()
    X, y = X.to_numpy(), y.to_numpy()
    tr, te = np.arange(0, len(y), 2), np.arange(1, len(y), 2)
    mats = class_whitening_matrices(X[tr], y[tr])
    knn = KNeighborsClassifier(13, metric="cosine")
    audit = label_audit(knn, X[tr], y[tr], X[te], y[te], {"class matrices": mats, **label_audit_controls(mats, 1)})
    own = population_protocol_predict(knn, X[tr], y[tr], X[te], y[te], matrices=mats)
    flipped = population_protocol_predict(knn, X[tr], y[tr], X[te], 1 - y[te], matrices=mats)
    np.testing.assert_allclose(audit.loc["class matrices"].to_numpy(),
                               [np.mean(own == y[te]), np.mean(flipped == y[te]), np.mean(flipped == 1 - y[te])])
    # the papers' finding: with class matrices the prediction follows the label it was given
    assert audit.loc["class matrices", "acc., own labels"] > 0.95
    assert audit.loc["class matrices", "follows flipped label"] > 0.95


def test_bad_inputs_name_the_problem():
    with pytest.raises(ValueError, match=r"keyed 0 and 1; got \['a', 'b'\]"):
        label_audit_controls({"a": np.eye(2), "b": np.eye(2)})
    with pytest.raises(ValueError, match=r"n_random must be an integer >= 0 \(pairs of random Gaussian.*got -1"):
        label_audit_controls({0: np.eye(2), 1: np.eye(2)}, n_random=-1)
    with pytest.raises(ValueError, match=r"flips 0/1 labels; y_test holds \[1, 2\]"):
        label_audit(KNeighborsClassifier(1), np.eye(2), [0, 1], np.eye(2), [1, 2], {})


def test_population_protocol_uses_given_labels():
    X, y = two_classes(seed=1, n=40)
    mats = class_whitening_matrices(X[::2], y[::2])
    Z = transform_by_class(X[1::2], y[1::2], mats)
    expected = KNeighborsClassifier(5).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(Z)
    ours = population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2])
    np.testing.assert_array_equal(ours, expected)
    with pytest.raises(ValueError, match="label per test row"):
        population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2][:-1])


def test_population_cv_all_equals_transform_then_cv():
    X, y = two_classes(seed=2, n=30)
    Z = transform_by_class(X, y, class_whitening_matrices(X, y))
    cv = StratifiedKFold(5)
    ref = np.mean(cross_val_score(KNeighborsClassifier(3), Z, y, cv=cv))
    assert population_protocol_cv(KNeighborsClassifier(3), X, y, cv) == pytest.approx(ref)
    # matrices from each training fold only: the same as a hand-written leave-one-out loop
    by_hand = []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        mats = class_whitening_matrices(X[keep], y[keep])
        knn = KNeighborsClassifier(3).fit(transform_by_class(X[keep], y[keep], mats), y[keep])
        by_hand.append(knn.predict(transform_by_class(X[i:i + 1], y[i:i + 1], mats))[0] == y[i])
    loo = population_protocol_cv(KNeighborsClassifier(3), X, y, LeaveOneOut(), matrices_from="train")
    assert loo == pytest.approx(np.mean(by_hand))
    with pytest.raises(ValueError, match="matrices_from"):
        population_protocol_cv(KNeighborsClassifier(3), X, y, cv, matrices_from="test")
    splits = StratifiedShuffleSplit(n_splits=3, test_size=0.2, random_state=0).split(X, y)
    expected = [np.mean(KNeighborsClassifier(3).fit(Z[tr], y[tr]).predict(Z[te]) == y[te]) for tr, te in splits]
    np.testing.assert_allclose(population_split_scores(KNeighborsClassifier(3), X, y, SplitProtocol(n_splits=3)),
                               expected)


def test_population_scores_by_metric_and_given_matrices():
    X, y = two_classes(seed=6, n=40)
    three = SplitProtocol(n_splits=3)
    both = population_split_scores(KNeighborsClassifier(3), X, y, three, scoring=("accuracy", "recall"))
    np.testing.assert_allclose(both["accuracy"], population_split_scores(KNeighborsClassifier(3), X, y, three))
    rng = np.random.default_rng(0)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    ours = population_protocol_predict(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2], matrices=mats)
    ref = KNeighborsClassifier(3).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(
        transform_by_class(X[1::2], y[1::2], mats))
    np.testing.assert_array_equal(ours, ref)


# ---------------------------------------------------------------- notebook 04: the case study


@pytest.fixture(scope="module")
def split():
    from helpers.studies.sahoo_maiti_2025a import wdbc_split

    return wdbc_split(0.2, 42)


def test_the_split_has_the_supports_the_paper_prints(split):
    X, y, X_train, X_test, y_train, y_test = split
    assert X.shape == (569, 30) and int(y.sum()) == 212
    assert (len(y_train), len(y_test)) == (455, 114)
    assert (int((y_test == 0).sum()), int(y_test.sum())) == (71, 43)


def test_wdbc_features_are_ten_measurements_in_three_statistics():
    from helpers.studies.sahoo_maiti_2025a import PAPER_FEATURES, wdbc_features

    f = wdbc_features()
    assert (f["n_rows"], f["n_columns"]) == (569, 30) and f["real_valued"]
    assert len(f["measurements"]) * len(f["statistics"]) == 30
    assert f["missing"] == [] and f["unnamed"] == ["concave points"] and len(PAPER_FEATURES) == 9
    assert f["measurements"][:2] == ["radius", "texture"] and f["classes"] == {"malignant": 212, "benign": 357}


def test_k_error_curves_equal_scikit_learn_and_unshuffled_folds_pick_13(split):
    from sklearn.model_selection import KFold

    from helpers.studies.sahoo_maiti_2025a import k_error_curves

    ks = np.arange(1, 41, 2)
    curves = k_error_curves(split.X_train, split.y_train, split.X_test, split.y_test, ks, random_state=42)
    assert list(curves) == ["test split", "training rows, KFold(10)", "training rows, StratifiedKFold(10)",
                            "training rows, StratifiedKFold(10) shuffled"]
    for kk in (1, 13, 25):
        knn = KNeighborsClassifier(kk, metric="cosine")
        i = list(ks).index(kk)
        assert curves["test split"][i] == pytest.approx(1 - knn.fit(split.X_train, split.y_train)
                                                        .score(split.X_test, split.y_test))
        by_sklearn = cross_val_score(knn, split.X_train, split.y_train, cv=KFold(10)).mean()
        assert curves["training rows, KFold(10)"][i] == pytest.approx(1 - by_sklearn)
    def minima(err):   # the K at the lowest error, ties included, as notebook 04 reads Fig. 2
        return ks[np.isclose(err, err.min())].tolist()

    assert minima(curves["training rows, KFold(10)"]) == [13]                 # the paper's K (lines 380-386)
    assert minima(curves["test split"]) == [9, 11, 23, 31]


def test_three_cases_give_the_papers_accuracies_and_case_3_is_eq_9(split):
    from helpers import expected_whitening_matrix
    from helpers.studies.sahoo_maiti_2025a import classification_rows, eq9_by_hand, three_cases

    cases = three_cases(split)
    acc = {name: np.mean(p == split.y_test) for name, p in cases.predictions.items()}
    assert acc == pytest.approx({"raw_cosine": 107 / 114, "population_cholesky": 1.0, "expected_cholesky": 108 / 114})
    rows = classification_rows(split.y_test, cases.predictions)
    assert list(rows) == ["case1", "case2", "case3"]
    assert list(rows["case1"]) == ["class0", "class1", "accuracy", "macro", "weighted"]
    np.testing.assert_allclose(rows["case1"]["class1"], [37 / 38, 37 / 43, 0.91358, 43], rtol=1e-5)
    p, M = eq9_by_hand(split.X_train, split.y_train)
    assert p == pytest.approx(169 / 455)
    np.testing.assert_allclose(M, cases.expected, rtol=1e-12)
    np.testing.assert_allclose(cases.expected, expected_whitening_matrix(split.X_train, split.y_train), rtol=1e-12)


def test_eq7_and_case2_agree_on_same_class_pairs_only():
    from helpers.studies.sahoo_maiti_2025a import eq7_versus_case2

    X, y = two_classes(seed=3, n=30)
    rng = np.random.default_rng(3)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    gaps = eq7_versus_case2(X[::2], y[::2], X[1::2], y[1::2], mats)
    assert gaps["n_pairs"] == 30 * 30 and gaps["cross_share"] == pytest.approx(0.5)
    assert gaps["same_gap_max"] < 1e-12 < gaps["cross_gap_max"]
    same = eq7_versus_case2(X[::2], y[::2], X[1::2], y[1::2], {0: mats[0], 1: mats[0]})   # one factor: no gap
    assert same["cross_gap_max"] < 1e-12 and same["case2_cross"] == pytest.approx(same["case2_cross"])


def test_split_sweep_adds_the_label_using_case_2_beside_the_models(split):
    from helpers.evaluation import repeated_split_scores
    from helpers.studies.sahoo_maiti_2025a import cosine_knn, leak_free_models, split_sweep

    models = leak_free_models(13, random_state=42)
    assert list(models) == ["raw_cosine", "scaled_cosine", "standardised_cosine", "whitened_cosine",
                            "whitened_centred_cosine", "expected_cholesky", "eq7_class_conditional", "nca_knn"]
    scores = split_sweep({"raw_cosine": cosine_knn(13)}, split.X, split.y,
                         protocol=SplitProtocol(n_splits=3, random_state=42))
    assert list(scores) == ["raw_cosine", "population_cholesky", "population_cholesky_train_matrices"]
    ref = repeated_split_scores({"raw_cosine": cosine_knn(13)}, split.X, split.y, n_splits=3, random_state=42)
    np.testing.assert_allclose(scores["raw_cosine"], ref["raw_cosine"])
    np.testing.assert_array_equal(scores["population_cholesky_train_matrices"], [1.0, 1.0, 1.0])


def test_pairs_name_the_models_of_leak_free_models():
    from helpers.studies.sahoo_maiti_2025a import PAIRS, leak_free_models

    assert ("whitened_centred_cosine", "standardised_cosine") in PAIRS and len(PAIRS) == 8
    assert {name for pair in PAIRS for name in pair} <= set(leak_free_models())


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_table1_protocol_equals_scikit_learn_cross_validation(split):
    from sklearn.model_selection import StratifiedKFold
    from sklearn.pipeline import make_pipeline

    from helpers import ExpectedWhitener
    from helpers.studies.sahoo_maiti_2025a import table1_protocol

    X, y = split.X[:100, :6], split.y[:100]               # a corner of the data: the same protocol, quickly
    acc, pred = table1_protocol(X, y, k=13)
    knn = KNeighborsClassifier(13, metric="cosine")
    folds = StratifiedKFold(5)
    assert acc["5-fold"]["raw_cosine"] == pytest.approx(cross_val_score(knn, X, y, cv=folds).mean())
    expected = cross_val_score(make_pipeline(ExpectedWhitener(), knn), X, y, cv=folds).mean()
    assert acc["5-fold"]["expected_cholesky"] == pytest.approx(expected)
    assert acc["LOOCV"]["population_cholesky"] == acc["5-fold"]["population_cholesky"] == 1.0
    assert acc["LOOCV"]["raw_cosine"] == pytest.approx(np.mean(pred["LOOCV"]["raw_cosine"] == y))


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_table1_grid_holds_every_protocol_once(split):
    from helpers import expected_whitening_matrix
    from helpers.studies.sahoo_maiti_2025a import table1_protocol_grid

    X, y = split.X[:80, :6], split.y[:80]                 # a corner of the data: the same protocols, quickly
    X_train, y_train = X[:64], y[:64]
    grid = table1_protocol_grid(X, y, X_train, y_train, expected_whitening_matrix(X_train, y_train), k_grid=[1, 7],
                                protocol=SplitProtocol(random_state=42))
    assert len(grid) == 2 * 5 * 5 * 2 and not grid.index.duplicated().any()
    assert set(grid.index.get_level_values("data")) == {"all 80", "train 64"}
    knn = KNeighborsClassifier(1, metric="cosine")
    loo = cross_val_score(knn, X, y, cv=LeaveOneOut()).mean()
    assert grid[("raw_cosine", "all 80", "LOOCV", 1)] == pytest.approx(loo)


def test_protocols_printing_as_lists_the_hits_per_cell():
    import pandas as pd

    from helpers.studies.sahoo_maiti_2025a import protocols_printing_as

    grid = pd.Series({("raw_cosine", "all", "LOOCV", 1): 519 / 569, ("raw_cosine", "all", "5-fold", 1): 0.90688,
                      ("population_cholesky", "all", "LOOCV", 1): 1.0,
                      ("expected, in each fold", "all", "5-fold", 13): 0.91914}).rename_axis(
        ["variant", "data", "folds", "K"])
    hits = protocols_printing_as(grid, {"LOOCV": "0.9121; 1.0; 0.9244", "5-fold": "0.9068; 1.0; 0.9191"})
    assert hits.index.tolist() == ["LOOCV, raw_cosine", "LOOCV, expected", "5-fold, raw_cosine", "5-fold, expected"]
    assert hits["protocols tried"].tolist() == [1, 0, 1, 1]
    assert hits["protocols that print as it"].tolist() == [
        "raw_cosine | all | LOOCV | 1 (0.91213)", "none", "none",
        "expected, in each fold | all | 5-fold | 13 (0.91914)"]


# ---------------------------------------------------------------- notebook 02: cosine and the shape of the data


def test_cosine_formula_and_fig1_construction():
    from sklearn.metrics.pairwise import cosine_similarity as sklearn_cosine

    from helpers import cosine_similarity
    from helpers.studies.sahoo_maiti_2025a import fig1_points

    rows = np.random.default_rng(0).normal(size=(30, 4)) * [1, 10, 0.1, 3]
    norms = np.linalg.norm(rows, axis=1)
    formula = rows @ rows.T / np.outer(norms, norms)                      # lines 128-140: X_i.X_j / (|X_i| |X_j|)
    np.testing.assert_allclose(cosine_similarity(rows, rows), formula, rtol=0, atol=1e-12)
    np.testing.assert_allclose(sklearn_cosine(rows), formula, rtol=0, atol=1e-12)
    sigma = np.array([[9.0, 2.7], [2.7, 1.0]])
    points = {"A": np.array([5.5, 0.5]), "B": np.array([2.5, 1.0]), "C": np.array([0.5, 0.5])}
    levels, abc = fig1_points(sigma, points)
    P = np.linalg.inv(sigma)
    for name, x in points.items():                               # chi2 with 2 df: CDF 1 - exp(-d^2 / 2)
        assert levels[name] == pytest.approx(1 - np.exp(-(x @ P @ x) / 2), rel=1e-12)
    A, B = points["A"], points["B"]
    assert abc.loc["(A,B)", "cosine, raw"] == pytest.approx(A @ B / np.linalg.norm(A) / np.linalg.norm(B))
    adjusted = A @ P @ B / np.sqrt((A @ P @ A) * (B @ P @ B))
    assert abc.loc["(A,B)", "cosine, variance-adjusted"] == pytest.approx(adjusted)
    np.testing.assert_allclose(np.cos(np.radians(abc["angle, raw (deg)"])), abc["cosine, raw"], rtol=1e-12)


def test_cosine_nn_agreement_is_complete_on_a_sphere_only():
    from helpers.studies.sahoo_maiti_2025a import cosine_nn, cosine_nn_agreement

    Z = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    assert cosine_nn(Z).tolist() == [1, 0, 3, 2]
    X_w = load_wdbc()[0].to_numpy()
    agree = cosine_nn_agreement(np.random.default_rng(0), 10, 0.9, 300, X_w)
    assert list(agree) == ["correlated cloud (10 features, correlation 0.9)", "WDBC (30 features, sample covariance)",
                           "spheroidal cloud (10 features, covariance I)"]
    values = list(agree.values())
    assert values[2] == 1.0 and values[0] < 0.5 and values[1] == pytest.approx(0.025, abs=0.002)


def test_salary_shares_and_wdbc_area_features():
    from helpers import load_salary_age
    from helpers.studies.sahoo_maiti_2025a import area_features, salary_age_shares

    table, query = load_salary_age()
    shares = salary_age_shares(table, query)
    assert shares.index.tolist() == list(range(1, 11))
    row = table.set_index("id").loc[6]
    d2 = (row["salary"] - query.iloc[0]) ** 2 + (row["age"] - query.iloc[1]) ** 2
    assert shares.loc[6, "d, raw"] == pytest.approx(np.sqrt(d2))
    salary_part = (row["salary"] - query.iloc[0]) ** 2
    assert shares.loc[6, "salary share of d^2, raw (%)"] == pytest.approx(100 * salary_part / d2)
    assert shares["salary share of d^2, raw (%)"].min() == pytest.approx(95.3834, abs=1e-4)
    cols, share, overlap = area_features(load_wdbc()[0], 5)
    assert cols == ["mean area", "area error", "worst area"] and share == pytest.approx(0.996, abs=5e-4)
    assert overlap.iloc[0, 0] > 0.85 > 0.15 > overlap.iloc[1, 0]


# ---------------------------------------------------------------- notebook 03: Eqs. 1-10 and the five whitenings


@pytest.fixture(scope="module")
def derivation():
    from helpers.studies.sahoo_maiti_2025a import derivation_cases

    return derivation_cases(np.random.default_rng(0), 6, 500)


def test_rel_is_the_largest_difference_relative_to_the_largest_entry():
    from helpers.studies.sahoo_maiti_2025a import rel

    assert rel([1.0, 2.0, 3.0], [1.0, 2.0, 4.0]) == pytest.approx(0.25)


def test_eqs_1_to_4_and_the_class_factors_hold_to_rounding(derivation):
    from helpers.studies.sahoo_maiti_2025a import class_factor_checks, eqs_1_to_4

    X, y, cases, class_covs = derivation
    assert cases["random SPD"][0].shape == (500, 6) and np.linalg.cond(cases["WDBC"][1]) > 1e11
    table = eqs_1_to_4(cases)
    assert np.isnan(table.loc["random SPD", "cov(Z) vs I"])
    assert (table.fillna(0) < 1e-6).all().all()
    per_class = class_factor_checks(X, y, class_covs, class_whitening_matrices(X, y))
    assert (per_class[["max |W_k S_k W_k' - I|", "max |Eq. 7 - variance_adjusted_cosine|"]] < 1e-6).all().all()


def test_uncentred_transform_whitens_but_moves_the_cloud(derivation):
    from helpers.studies.sahoo_maiti_2025a import uncentred_transform

    X, _, cases, _ = derivation
    out = uncentred_transform(X, cases["WDBC"][1])
    assert out["cov_error"] < 1e-6 and out["shift"] == pytest.approx(10.1, abs=0.05)
    assert out["max_cosine_change"] == pytest.approx(1.698, abs=5e-4)
    assert out["nn_changed"] == pytest.approx(0.527, abs=5e-4)
    # on data centred at the origin, centring changes nothing
    Xc = X - X.mean(0)
    assert uncentred_transform(Xc, cases["WDBC"][1])["nn_changed"] == 0.0


def test_expected_factor_p_and_whitening_error(derivation):
    from scipy.optimize import minimize_scalar

    from helpers.studies.sahoo_maiti_2025a import expected_factor_checks, expected_whitening_error

    X, y, cases, class_covs = derivation
    out = expected_factor_checks(X, y, class_whitening_matrices(X, y), class_covs, cases["WDBC"][1])
    assert out["gap"].min() == pytest.approx(0.65, abs=0.005) and out["eq9_gap"] < 1e-6 and out["whitener_gap"] < 1e-6
    assert out["factors_ok"] and out["p"] == pytest.approx(212 / 569) and out["priors"][1] == pytest.approx(212 / 569)
    n1, n0 = int(np.sum(y == 1)), int(np.sum(y == 0))                     # Eq. 10: p = 212/569
    best = minimize_scalar(lambda p: -(n1 * np.log(p) + n0 * np.log(1 - p)), bounds=(1e-3, 1 - 1e-3),
                           method="bounded", options={"xatol": 1e-9})
    assert (n1, n0) == (212, 357) and best.x == pytest.approx(212 / 569, abs=1e-6)
    err, diff, changed = expected_whitening_error(X, y, class_covs, cases["WDBC"][1])
    assert err.shape == (4, 2) and (err > 4).all().all()
    assert err.loc["malignant", "E mixes cholesky matrices"] == pytest.approx(208.25, abs=0.005)
    assert diff == pytest.approx(0.063, abs=5e-4) and changed == pytest.approx(0.144, abs=5e-4)


def test_five_whitenings_give_the_same_cosines(derivation):
    from helpers.studies.sahoo_maiti_2025a import method_invariance

    _, _, cases, _ = derivation
    table = method_invariance(cases)
    assert table.shape == (10, 4)
    by_case = table.groupby(level="case", sort=False).max()
    assert by_case.loc["WDBC", "max |cosine - cosine_chol|"] < 1e-10
    assert by_case.loc["random SPD", "max rel. diff. of distances"] < 1e-13
    assert (table.loc[("WDBC", "cholesky")] == 0).iloc[2:].all()       # against itself: exactly zero
