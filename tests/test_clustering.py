"""The f(K) criterion of Pham, Dimov & Nguyen (2005): weights by hand, ratios by hand, and K on blobs."""

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs

from helpers.clustering import PHAM_THRESHOLD, kmeans_f_table, pham_alpha, pham_f


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
        (lambda: pham_alpha(0, 2), "positive integer"),
        (lambda: pham_f([1.0, -1.0], 2), "cannot be negative"),
        (lambda: pham_f([], 2), "empty"),
        (lambda: kmeans_f_table(np.zeros((3, 2)), k_max=4), r"between 1 and the number of samples \(3\)"),
        (lambda: kmeans_f_table(np.zeros((5, 1)), k_max=2), "at least 2 features"),
    ],
)
def test_bad_input_errors_name_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()
