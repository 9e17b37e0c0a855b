"""helpers.map_comparisons: two maps of the same objects, and their disparity against resampling noise."""

import numpy as np
import pytest
from scipy.spatial import procrustes
from sklearn.decomposition import PCA

from helpers.binary import binary_similarity
from helpers.map_comparisons import excess_disparity, map_comparisons, map_differences
from helpers.mds import classical_mds


def test_map_differences_of_a_rotated_and_relabelled_map():
    E = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [2.5, 3.5]])
    d = map_differences(E, E @ [[0.0, -1.0], [1.0, 0.0]], list("abcde"), labels=("before", "after"))
    assert d.disparity == pytest.approx(0, abs=1e-12) and d.rho == pytest.approx(1.0)
    assert d.nearest.columns.tolist() == ["before", "after"] and d.changed == []
    moved = E.copy()
    moved[0] = [2.0, 0.5]                               # a moves away from c: c's nearest becomes b
    d = map_differences(E, moved, list("abcde"))
    assert d.nearest.columns.tolist() == ["first map", "second map"]
    assert d.disparity > 0 and d.nearest.loc["c"].tolist() == ["a", "b"] and d.changed == ["c"]


def test_excess_disparity_subtracts_the_median_noise():
    # median of the noise 0.01; two of three resampled disparities are >= 0.02: p = (1 + 2) / 4
    e = excess_disparity(0.02, (0.015, 0.03), [0.01, 0.02, 0.03, 0.005, 0.001], how="from a test")
    assert e["effect"] == pytest.approx(0.01)
    assert e["interval"] == pytest.approx((0.005, 0.02))
    assert e["p"] == pytest.approx((1 + 2) / 6)
    assert "median disparity (0.0100)" in e["method"] and "95% interval from a test" in e["method"]
    assert "widened" not in e["method"]


def test_excess_disparity_widens_an_interval_that_misses_the_estimate():
    e = excess_disparity(0.05, (0.06, 0.09), [0.01, 0.01, 0.01])
    assert e["effect"] == pytest.approx(0.04) and e["interval"] == pytest.approx((0.04, 0.08))
    assert "widened to the estimate" in e["method"]


@pytest.mark.parametrize("args, words", [
    ((1.5, (0.1, 0.2), [0.01, 0.02]), r"disparity must be a number in \[0, 1\]"),
    ((0.1, (0.2, 0.05), [0.01, 0.02]), r"low <= high"),
    ((0.1, "ab", [0.01, 0.02]), r"interval must be two disparities"),
    ((0.1, (0.05, 0.2, 0.3), [0.01, 0.02]), r"interval must be two disparities"),
    ((0.1, (0.05, 0.2), [0.01]), r"at least two finite disparities"),
    ((0.1, (0.05, 0.2), [0.01, np.nan]), r"some not finite"),
])
def test_excess_disparity_refuses_bad_input(args, words):
    with pytest.raises(ValueError, match=words):
        excess_disparity(*args)
    with pytest.raises(ValueError, match="confidence"):
        excess_disparity(0.1, (0.05, 0.2), [0.01, 0.02], confidence=1.0)


def test_map_comparisons_of_a_gram_matrix_is_the_pca_map():
    # the PCA map is the MDS of X X': against the PCA scores the disparity is rounding
    X = np.random.default_rng(8).normal(size=(60, 5)) * [4.0, 2.0, 1.0, 0.5, 0.2]
    Y = (X > 0).astype(np.int8)
    smc = binary_similarity(Y, coefficient="simple_matching")
    out = map_comparisons({"gram": X @ X.T, "same": X @ X.T, "smc": smc},
                                {"same": ("gram", "same"), "smc": ("smc", "gram")}, [0.01, 0.02, 0.03], n_resamples=20)
    Z_pca = PCA(n_components=2, svd_solver="full").fit_transform(X)   # the disparity ignores column signs
    same = out.table.loc["same", ["Procrustes disparity", "low", "high"]].tolist()
    assert same == pytest.approx([0, 0, 0], abs=1e-12)
    assert out.effects["same"]["effect"] == pytest.approx(-0.02)
    assert out.table.loc["smc", "Procrustes disparity"] == pytest.approx(
        procrustes(classical_mds(F=smc).embedding, Z_pca)[2], abs=1e-10)
    assert out.table.loc["smc", "maps"] == "smc vs gram"


def test_map_comparisons_refuses_bad_input():
    X = np.random.default_rng(9).normal(size=(5, 3))
    S = {"SMC": X @ X.T, "Jaccard": (X**2) @ (X**2).T}
    noise = [0.01, 0.02]
    with pytest.raises(ValueError, match=r"not given: \['Cosine'\]"):
        map_comparisons(S, {"k": ("SMC", "Cosine")}, noise)
    with pytest.raises(ValueError, match="square, of one size"):
        map_comparisons({"a": S["SMC"], "b": np.eye(4)}, {"k": ("a", "b")}, noise)
    with pytest.raises(ValueError, match="n_resamples must be an integer >= 2"):
        map_comparisons(S, {"k": ("SMC", "Jaccard")}, noise, n_resamples=1)
    with pytest.raises(ValueError, match="at least two finite disparities"):
        map_comparisons(S, {"k": ("SMC", "Jaccard")}, [0.01], n_resamples=5)
