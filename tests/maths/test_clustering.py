"""The slides' alpha_K rule and Pham, Dimov & Nguyen's f(K): values by hand, and K on blobs."""

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs

from helpers.clustering import (
    PHAM_THRESHOLD,
    alpha_slopes,
    kmeans_alpha_table,
    kmeans_f_table,
    kmeans_inertias,
    pham_alpha,
    pham_f,
    select_k_by_alpha,
    slide_alpha,
)

# --- the slides' alpha_K = S_K / K (lines 966-968) --------------------------------------------


def test_slide_alpha_and_slopes_by_hand():
    # S = (12, 6, 3, 2.4): alpha = (12, 3, 1, 0.6); forward slopes (-9, -2, -0.4) / 12
    S = [12.0, 6.0, 3.0, 2.4]
    np.testing.assert_allclose(slide_alpha(S), [12.0, 3.0, 1.0, 0.6])
    slopes = alpha_slopes(S)
    np.testing.assert_allclose(slopes[:-1], [-0.75, -2 / 12, -0.4 / 12])
    assert np.isnan(slopes[-1])
    assert [select_k_by_alpha(S, tol) for tol in (0.05, 0.1, 0.2, 0.8)] == [3, 3, 2, 1]


def test_alpha_is_the_within_cluster_scatter_over_k():
    X, _ = make_blobs(n_samples=40, centers=3, random_state=2)
    km = KMeans(3, n_init=10, random_state=0).fit(X)
    by_hand = sum(((X[km.labels_ == c] - km.cluster_centers_[c]) ** 2).sum() for c in range(3)) / 3
    assert slide_alpha(kmeans_inertias(X, 3, n_init=10, random_state=0))[2] == pytest.approx(by_hand)


def test_alpha_rule_finds_three_separated_blobs():
    # the notebook's control: three blobs, K = 3 at every tolerance from 0.01 to 0.2 of alpha_1
    X, _ = make_blobs(n_samples=60, centers=[[0, 0], [6, 0], [3, 5]], cluster_std=0.6, random_state=0)
    table = kmeans_alpha_table(X, k_max=8, n_init=10, random_state=0)
    assert list(table.columns) == ["S_K", "alpha_K", "slope_K"] and table.index.tolist() == list(range(1, 9))
    assert np.all(np.diff(table["S_K"]) < 0)
    np.testing.assert_allclose(table["alpha_K"], table["S_K"] / table.index)
    assert [select_k_by_alpha(table["S_K"], tol) for tol in (0.01, 0.02, 0.05, 0.1, 0.2)] == [3] * 5


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: select_k_by_alpha([12.0, 6.0, 3.0], tol=0.0), "positive fraction"),
        (lambda: select_k_by_alpha([12.0, 6.0, 3.0], tol=0.01), r"a larger k_max\) or a larger tol"),
        (lambda: alpha_slopes([0.0, 0.0]), "S_1 = 0"),
        (lambda: slide_alpha([3.0, -1.0]), "cannot be negative"),
        (lambda: kmeans_inertias(np.zeros((3, 2)), k_max=5), r"in \[1, 3\] \(at most the number of samples\); got 5"),
    ],
)
def test_alpha_bad_input_errors_name_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- Pham, Dimov & Nguyen (2005), the workbook's addition ----------------------------------


def test_alpha_two_features_by_hand():
    # m = 2: alpha_2 = 1 - 3/8 = 0.625; alpha_3 = 0.625 + 0.375/6 = 0.6875;
    # alpha_4 = 0.6875 + 0.3125/6 = 0.739583...
    alpha = pham_alpha(4, 2)
    assert np.isnan(alpha[0])
    assert alpha[1] == pytest.approx(0.625)
    assert alpha[2] == pytest.approx(0.6875)
    assert alpha[3] == pytest.approx(0.6875 + 0.3125 / 6)


def test_alpha_many_features_by_hand():
    # m = 64 (the 8x8 digits): alpha_2 = 1 - 3/256; each step removes 1/6 of the gap to 1
    alpha = pham_alpha(5, 64)
    gap2 = 3 / 256
    np.testing.assert_allclose(1 - alpha[1:], [gap2, gap2 * 5 / 6, gap2 * (5 / 6) ** 2, gap2 * (5 / 6) ** 3])


def test_f_by_hand():
    # S = (12, 6, 3, 0, 0) with m = 2: f(2) = 6/(0.625*12) = 0.8, f(3) = 3/(0.6875*6) = 8/11,
    # f(4) = 0 (S_4 = 0), f(5) = 1 because S_4 = 0
    f = pham_f([12.0, 6.0, 3.0, 0.0, 0.0], n_features=2)
    np.testing.assert_allclose(f, [1.0, 0.8, 8 / 11, 0.0, 1.0])


def test_f_of_one_cluster_is_one():
    assert pham_f([5.0], n_features=3).tolist() == [1.0]


def test_three_separated_blobs_pick_three():
    X, _ = make_blobs(n_samples=150, centers=[[0, 0], [10, 0], [5, 9]], cluster_std=0.5, random_state=0)
    table = kmeans_f_table(X, k_max=6, n_init=10, random_state=0)
    assert int(table["f_K"].idxmin()) == 3
    assert table.loc[3, "f_K"] < PHAM_THRESHOLD
    # S_K is scikit-learn's inertia and the table's f is pham_f of those values
    assert table.loc[3, "S_K"] == pytest.approx(KMeans(3, n_init=10, random_state=0).fit(X).inertia_)
    np.testing.assert_allclose(table["f_K"], pham_f(table["S_K"], 2))
    assert np.all(np.diff(table["S_K"]) <= 0)


def test_uniform_data_has_no_k_below_threshold():
    # uniformly spread data is what alpha_K models: no K is recommended
    X = np.random.default_rng(0).uniform(size=(2000, 2))
    table = kmeans_f_table(X, k_max=6, n_init=4, random_state=0)
    assert table["f_K"].min() > PHAM_THRESHOLD


def test_table_is_reproducible():
    X, _ = make_blobs(n_samples=60, centers=4, random_state=1)
    a = kmeans_f_table(X, k_max=5, random_state=3)
    b = kmeans_f_table(X, k_max=5, random_state=3)
    assert a.equals(b)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: pham_alpha(3, 1), r"at least 2 features.*N_d > 1"),
        (lambda: pham_alpha(0, 2), r"k_max must be an integer >= 1, e\.g\. k_max=10; got 0"),
        (lambda: pham_f([1.0, -1.0], 2), "cannot be negative"),
        (lambda: pham_f([], 2), "empty"),
        (lambda: kmeans_f_table(np.zeros((3, 2)), k_max=4), r"in \[1, 3\] \(at most the number of samples\); got 4"),
        (lambda: kmeans_f_table(np.zeros((5, 1)), k_max=2), "at least 2 features"),
    ],
)
def test_bad_input_errors_name_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()
