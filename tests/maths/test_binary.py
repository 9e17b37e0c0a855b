"""Binary similarity coefficients (``helpers.binary``): the lecture notes' Example 4 and market
basket (section 6.2), agreement with scipy's dissimilarities, exact integer counts, and bad input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose, assert_array_equal
from scipy.spatial import distance
from scipy.spatial.distance import cdist, pdist, squareform

from helpers import load_animals
from helpers.binary import BINARY_COEFFICIENTS, binary_counts, binary_similarity, jaccard, russell_rao, simple_matching

# --- Example 4 and the market basket ------------------------------------------------------------


def test_example_4_lion_and_tiger():
    lion, tiger = [1, 1, 1, 1], [1, 1, 0, 1]  # lines 59 and 61
    t = binary_counts(lion, tiger)
    assert (t.co_presence, t.presence_absence, t.absence_presence, t.co_absence) == (3, 1, 0, 0)  # line 65
    both = binary_similarity([lion], [tiger], coefficient=["simple_matching", "jaccard"])
    assert both["simple_matching"][0, 0] == 0.75 and both["jaccard"][0, 0] == 0.75  # lines 69, 71
    # the pairwise functions of helpers.binary give the same numbers (SMC is Sokal and Michener's coefficient)
    assert simple_matching(lion, tiger) == 0.75 and jaccard(lion, tiger) == 0.75


def test_market_basket():
    # line 75: 100 products; A bought bread and beer, B peanuts and beer
    bread, beer, peanuts = 0, 1, 2
    a, b = np.zeros(100, int), np.zeros(100, int)
    a[[bread, beer]] = 1
    b[[peanuts, beer]] = 1
    t = binary_counts(a, b)
    assert (t.co_presence, t.co_absence) == (1, 97)
    assert binary_similarity([a], [b], coefficient="jaccard")[0, 0] == pytest.approx(1 / 3)
    assert binary_similarity([a], [b], coefficient="simple_matching")[0, 0] == pytest.approx((1 + 97) / 100)
    assert jaccard(a, b) == pytest.approx(1 / 3) and simple_matching(a, b) == pytest.approx(0.98)


def test_smc_does_not_depend_on_the_coding_jaccard_does():
    A = load_animals().to_numpy()
    assert_allclose(binary_similarity(1 - A), binary_similarity(A), atol=0)
    flipped, original = binary_similarity(1 - A, coefficient="jaccard"), binary_similarity(A, coefficient="jaccard")
    assert np.abs(flipped - original).max() > 0.4


# --- binary coefficients against scipy and exact counts -------------------------------------------


@pytest.mark.parametrize("name", [n for n, v in BINARY_COEFFICIENTS.items() if v["scipy_dissimilarity"]])
def test_binary_coefficients_equal_one_minus_scipy(name):
    rng = np.random.default_rng(6)
    X = rng.random((30, 25)) < 0.35
    Y = rng.random((20, 25)) < 0.5
    metric = BINARY_COEFFICIENTS[name]["scipy_dissimilarity"]
    cast = float if metric in ("cosine", "correlation") else bool
    assert_allclose(
        binary_similarity(X, Y, coefficient=name), 1 - cdist(X.astype(cast), Y.astype(cast), metric), atol=1e-14
    )


def test_hamann_and_sokal_sneath_2_from_the_table():
    x, y = [1, 1, 0, 1, 0, 0, 0], [1, 0, 1, 1, 0, 0, 1]  # a=2, b=1, c=2, d=2
    assert binary_similarity([x], [y], coefficient="hamann")[0, 0] == pytest.approx((2 + 2 - 3) / 7)
    s13 = (2 / 3 + 2 / 4 + 2 / 3 + 2 / 4) / 4
    assert binary_similarity([x], [y], coefficient="sokal_sneath_2")[0, 0] == pytest.approx(s13)
    # Hamann = 1 - 2 * hamming
    rng = np.random.default_rng(7)
    X = rng.random((10, 9)) < 0.5
    assert_allclose(binary_similarity(X, coefficient="hamann"), 1 - 2 * squareform(pdist(X, "hamming")), atol=1e-15)


def test_all_zero_rows_follow_scipy():
    X = np.array([[0, 0, 0], [0, 0, 0], [1, 0, 1]])
    assert binary_similarity(X, coefficient="jaccard")[0, 1] == 1.0  # 1 - scipy's jaccard
    assert np.isnan(binary_similarity(X, coefficient="dice")[0, 1])  # scipy's dice is nan too
    assert binary_similarity(X, coefficient="simple_matching")[0, 1] == 1.0


def test_counts_behind_the_coefficients_are_exact_integers():
    rng = np.random.default_rng(8)
    X = rng.random((200, 784)) < 0.2
    S = binary_similarity(X, coefficient="simple_matching")
    mismatches = squareform(pdist(X, "hamming")) * 784
    assert np.array_equal(np.rint((1 - S) * 784), np.rint(mismatches))
    J = binary_similarity(X, coefficient="jaccard")
    a = X.astype(int) @ X.T.astype(int)
    union = X.sum(1)[:, None] + X.sum(1)[None, :] - a
    assert_allclose(J, a / union, rtol=0, atol=0)  # the same float64 division of the same integers


def test_several_coefficients_share_one_product():
    rng = np.random.default_rng(10)
    X = rng.random((40, 30)) < 0.3
    X[5] = False  # an all-zero row
    both = binary_similarity(X, coefficient=("simple_matching", "jaccard", "dice"))
    assert set(both) == {"simple_matching", "jaccard", "dice"}
    for name, matrix in both.items():
        np.testing.assert_array_equal(matrix, binary_similarity(X, coefficient=name))
    with pytest.raises(ValueError, match="Unknown coefficient 'nope'"):
        binary_similarity(X, coefficient=["jaccard", "nope"])


# --- the pairwise coefficients of two sets of rows -----------------------------------------------------------------

binary_rows = arrays(np.int8, st.tuples(st.integers(1, 6), st.integers(1, 12)), elements=st.integers(0, 1))


@given(binary_rows, st.data())
def test_binary_coefficients_match_scipy(X, data):
    Y = data.draw(arrays(np.int8, (data.draw(st.integers(1, 5)), X.shape[1]), elements=st.integers(0, 1)))
    Xb, Yb = X.astype(bool), Y.astype(bool)
    assert_allclose(russell_rao(X, Y), 1 - distance.cdist(Xb, Yb, "russellrao"), atol=1e-12)
    assert_allclose(simple_matching(X, Y), 1 - distance.cdist(Xb, Yb, "hamming"), atol=1e-12)
    assert_allclose(jaccard(X, Y), 1 - distance.cdist(Xb, Yb, "jaccard"), atol=1e-12)


@given(binary_rows)
def test_binary_counts_add_up(X):
    a, b, c, d = binary_counts(X, X[::-1])
    assert_array_equal(a + b + c + d, X.shape[1])
    # swapping x and y swaps presence-absence and absence-presence
    _, _, c2, _ = binary_counts(X[::-1], X)
    assert_array_equal(b, c2.T)


def test_two_empty_sets_have_jaccard_one():
    assert jaccard([0, 0, 0], [0, 0, 0]) == 1.0
    assert_allclose(jaccard(np.zeros((2, 3)), np.array([[0, 0, 0], [1, 0, 0]])), [[1.0, 0.0], [1.0, 0.0]])


def test_non_binary_input_is_refused():
    with pytest.raises(ValueError, match=r"x must be binary \(0/1 or bool\); found 2.0 at index \(1,\).*Binarise"):
        jaccard([1, 2, 0], [1, 1, 0])


# --- bad input -----------------------------------------------------------------------------------


def test_binary_similarity_rejects_non_binary_and_unknown():
    with pytest.raises(ValueError, match=r"must be binary.*0\.3.*\(X > threshold\)"):
        binary_similarity([[0, 0.3], [1, 0]])
    with pytest.raises(ValueError, match=r"Unknown coefficient 'tanimoto'; choose one of \[.*'rogers_tanimoto'"):
        binary_similarity([[0, 1]], coefficient="tanimoto")
    with pytest.raises(ValueError, match=r"2-D arrays of binary rows; got shapes \(3,\)"):
        binary_similarity([0, 1, 1])
    with pytest.raises(ValueError, match=r"\(2, 3\) and \(1, 2\)"):
        binary_similarity([[0, 1, 1], [1, 0, 0]], [[1, 0]])
