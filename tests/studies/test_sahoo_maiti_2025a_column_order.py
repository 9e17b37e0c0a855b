"""helpers.studies.sahoo_maiti_2025a.column_order: E(W^-1) of Cholesky factors depends on the order of the columns."""

import numpy as np
import pytest
from scipy import linalg
from sklearn.metrics.pairwise import cosine_similarity
from sklearn.neighbors import KNeighborsClassifier

from helpers import ClassConditionalKNN, expected_whitening_matrix
from helpers.studies.sahoo_maiti_2025a import (
    TRANSFORMS,
    SplitProtocol,
    column_order_study,
    knn_from_similarity,
    order_averaged_difference,
    order_geometry,
    random_column_orders,
    wdbc_split,
)


def _two_covariances(seed=0, n=60, p=4):
    """Two classes with different, strongly correlated covariances, away from the origin."""
    rng = np.random.default_rng(seed)
    A0, A1 = rng.normal(size=(p, p)), rng.normal(size=(p, p))
    X = np.vstack([rng.normal(size=(n, p)) @ A0.T + 4.0, rng.normal(size=(n, p)) @ A1.T + 6.0])
    return X, np.repeat([0, 1], n)


def test_cholesky_factor_of_a_reordered_covariance_is_not_the_reordered_factor():
    # the fact the finding rests on, on a 3 x 3 matrix: chol(P S P') != P chol(S) P', both whiten P S P'
    S = np.array([[4.0, 2.0, 0.6], [2.0, 3.0, 0.5], [0.6, 0.5, 2.0]])
    P = np.eye(3)[[2, 0, 1]]
    L, L_perm = linalg.cholesky(S, lower=True), linalg.cholesky(P @ S @ P.T, lower=True)
    assert np.abs(L_perm - P @ L @ P.T).max() > 0.1
    W, W_perm = np.linalg.inv(L), np.linalg.inv(L_perm)
    Q = W_perm @ P @ np.linalg.inv(W)               # W_perm P = Q W with Q orthogonal: the same whitening, rotated
    np.testing.assert_allclose(Q @ Q.T, np.eye(3), atol=1e-12)
    assert np.abs(Q - np.eye(3)).max() > 0.1


def test_mixed_symmetric_factors_follow_the_order_and_mixed_cholesky_factors_do_not():
    X, y = _two_covariances(seed=1)
    order = np.array([3, 1, 0, 2])
    for method, equivariant in (("zca", True), ("zca_cor", True), ("cholesky", False)):
        E = expected_whitening_matrix(X, y, method=method)
        E_perm = expected_whitening_matrix(X[:, order], y, method=method)
        gap = np.abs(E_perm - E[np.ix_(order, order)]).max() / np.abs(E).max()
        assert bool(gap < 1e-10) is equivariant, (method, gap)


@pytest.mark.parametrize("symmetric_method", ["zca", "zca_cor"])
def test_which_transforms_change_with_the_column_order(symmetric_method):
    X, y = _two_covariances(seed=2)
    study = column_order_study(X[::2], y[::2], X[1::2], y[1::2], k=5, n_orders=8,
                               protocol=SplitProtocol(random_state=3), symmetric_method=symmetric_method)
    cos = study.spread["max |change| cosine"]
    dist = study.spread["max |change| distance (relative)"]
    coord = study.spread["max |change| coordinates (relative)"]
    order_free = ["raw_cosine", "pooled_cholesky", "pooled_cholesky_centred", "eq7_class_factor", "expected_symmetric"]
    assert (cos[order_free] < 1e-10).all() and (dist[order_free] < 1e-10).all()
    # the geometry of one pooled whitening is order-free, its coordinates are not (a rotation); E of symmetric
    # factors merely permutes them
    assert coord["pooled_cholesky"] > 1e-3 and coord["expected_symmetric"] < 1e-10
    assert np.isnan(coord["eq7_class_factor"])
    assert cos["expected_cholesky"] > 1e-3 and dist["expected_cholesky"] > 1e-3
    assert cos["case2_own_factor"] > 1e-3            # different-class pairs get two differently rotated factors
    assert list(study.spread.index) == list(TRANSFORMS)
    assert study.accuracy.shape == (9, len(TRANSFORMS)) and study.accuracy.index[0] == "data set's order"
    assert study.predictions["raw_cosine"].shape == (9, 60)
    for name in order_free:
        assert study.spread.loc[name, "test rows whose prediction changes"] == 0
        assert study.accuracy[name].nunique() == 1


def test_order_geometry_against_a_hand_computation():
    X, y = _two_covariances(seed=4, p=3)
    Xtr, ytr, Xte, yte = X[::2], y[::2], X[1::2], y[1::2]
    order = [2, 0, 1]
    geo = order_geometry(Xtr, ytr, Xte, yte, order)
    E = expected_whitening_matrix(Xtr[:, order], ytr)
    np.testing.assert_allclose(geo["expected_cholesky"]["cosine"],
                               cosine_similarity(Xte[:, order] @ E.T, Xtr[:, order] @ E.T), rtol=1e-12)
    L = linalg.cholesky(np.cov(Xtr[:, order], rowvar=False), lower=True)
    Z_tr, Z_te = linalg.solve_triangular(L, Xtr[:, order].T, lower=True).T, linalg.solve_triangular(
        L, Xte[:, order].T, lower=True).T
    np.testing.assert_allclose(geo["pooled_cholesky"]["cosine"], cosine_similarity(Z_te, Z_tr), rtol=1e-10)
    with pytest.raises(ValueError, match=r"permutation of the 3 columns; got \[0, 0, 1\]"):
        order_geometry(Xtr, ytr, Xte, yte, [0, 0, 1])
    with pytest.raises(ValueError, match="symmetric_method"):
        order_geometry(Xtr, ytr, Xte, yte, symmetric_method="cholesky")


def test_knn_from_similarity_equals_scikit_learn_on_wdbc():
    split = wdbc_split()
    knn = KNeighborsClassifier(13, metric="cosine")
    geo = order_geometry(split.X_train, split.y_train, split.X_test, split.y_test)
    raw = knn_from_similarity(geo["raw_cosine"]["cosine"], split.y_train, 13)
    np.testing.assert_array_equal(raw, knn.fit(split.X_train, split.y_train).predict(split.X_test))
    E = expected_whitening_matrix(split.X_train, split.y_train)
    np.testing.assert_array_equal(knn_from_similarity(geo["expected_cholesky"]["cosine"], split.y_train, 13),
                                  knn.fit(split.X_train @ E.T, split.y_train).predict(split.X_test @ E.T))
    eq7 = ClassConditionalKNN(13).fit(split.X_train, split.y_train).predict(split.X_test)
    np.testing.assert_array_equal(knn_from_similarity(geo["eq7_class_factor"]["cosine"], split.y_train, 13), eq7)
    assert np.mean(raw == split.y_test) == pytest.approx(107 / 114)
    # a tied vote goes to the smallest label, as in scikit-learn
    assert knn_from_similarity([[0.9, 0.8]], [1, 0], k=2).tolist() == [0]
    with pytest.raises(ValueError, match="one column per training label"):
        knn_from_similarity(np.ones((2, 3)), [0, 1], 1)
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 2\]"):
        knn_from_similarity(np.ones((2, 2)), [0, 1], 3)


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_wdbc_expected_factor_changes_its_answers_with_the_order():
    split = wdbc_split()
    study = column_order_study(split.X_train, split.y_train, split.X_test, split.y_test, k=13, n_orders=10,
                               protocol=SplitProtocol(random_state=42))
    s = study.spread
    assert s.loc["expected_cholesky", "max |change| cosine"] > 0.05
    assert s.loc["expected_symmetric", "max |change| cosine"] < 1e-10
    assert s.loc["expected_cholesky", "accuracy, data set's order"] == pytest.approx(108 / 114)   # the paper's 0.947
    assert s.loc["expected_cholesky", "accuracy, lowest"] < 108 / 114
    assert s.loc["case2_own_factor", "accuracy, lowest"] == 1.0   # the label still decides case 2


def test_random_column_orders_are_seeded_permutations():
    orders = random_column_orders(30, 50, random_state=42)
    assert orders.shape == (50, 30) and all(sorted(o) == list(range(30)) for o in orders)
    np.testing.assert_array_equal(orders, random_column_orders(30, 50, random_state=42))
    assert len({tuple(o) for o in orders}) == 50
    with pytest.raises(ValueError, match="n_orders must be an integer >= 1"):
        random_column_orders(30, 0)


def test_order_averaged_difference_by_hand_and_against_the_paired_bootstrap():
    from helpers.effects import paired_bootstrap

    y = np.array([0, 0, 1, 1, 0, 1, 0, 1, 1, 0])
    ref = np.array([0, 0, 1, 0, 0, 1, 1, 1, 1, 0])                     # 8 of 10 right
    preds = np.array([[0, 0, 1, 1, 0, 1, 0, 1, 1, 0],                   # 10 right
                      [0, 1, 1, 1, 0, 0, 0, 1, 1, 0]])                  # 8 right
    r = order_averaged_difference(y, preds, ref)
    assert r["effect"] == pytest.approx((1.0 + 0.8) / 2 - 0.8) and (r["n"], r["n_orders"]) == (10, 2)
    assert r["interval"][0] <= r["effect"] <= r["interval"][1]
    one = order_averaged_difference(y, preds[:1], ref)
    boot = paired_bootstrap(y, preds[0], ref)
    assert one["effect"] == pytest.approx(boot["effect"])
    assert one["interval"] == pytest.approx(boot["interval"], abs=0.06)
    same = order_averaged_difference(y, [ref, ref], ref)
    assert same["effect"] == 0 and same["interval"] == (0.0, 0.0)
    with pytest.raises(ValueError, match="same test rows"):
        order_averaged_difference(y, preds[:, :5], ref)


def test_format_spread_on_a_hand_made_table():
    import pandas as pd

    from helpers.studies.sahoo_maiti_2025a import format_spread

    spread = pd.DataFrame({"max |change| cosine": [1e-13, 5e-11, 0.17873],
                           "max |change| distance (relative)": [2e-12, 3e-10, 0.0311],
                           "accuracy, lowest": [0.93859, 0.75438, 0.92105],
                           "test rows whose prediction changes": [0, 0, 4]}, index=["a", "b", "c"])
    shown = format_spread(spread)
    assert shown.loc["a"].tolist() == ["< 1e-10", "< 1e-10", "0.939", "0"]
    assert shown.loc["c"].tolist() == ["0.179", "0.0311", "0.921", "4"]
    with pytest.raises(ValueError, match="bound"):
        format_spread(spread, bound=0)


def test_order_counts_of_the_averaged_difference():
    y = np.array([0, 1, 0, 1])
    ref = np.array([0, 1, 0, 0])                                     # 3 of 4
    preds = [[0, 1, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]]  # 4, 2, 1 and 3 right
    r = order_averaged_difference(y, preds, ref, n_resamples=999)
    assert (r["orders_ahead"], r["orders_level"], r["orders_behind"]) == (1, 1, 2)
    assert r["effect"] == pytest.approx((4 + 2 + 1 + 3) / 16 - 3 / 4)
