import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.spatial import distance
from sklearn import config_context

from helpers.metrics import (
    cosine_similarity,
    l0_norm,
    lp_norm,
    mahalanobis,
    minkowski,
    variance_adjusted_cosine,
)
from helpers.neighbours import inverse_square_weights
from helpers.whitening import METHODS, whitening_matrix
from tests.support import random_spd

# --- norms: the slides' worked examples ------------------------------------------------------


@pytest.mark.parametrize(
    "x, l1, l2, linf",
    [((1, 1), 2, np.sqrt(2), 1), ((2, 1), 3, np.sqrt(5), 2), ((2, 2), 4, np.sqrt(8), 2)],
)
def test_slide_lp_norms(x, l1, l2, linf):
    assert lp_norm(x, 1) == pytest.approx(l1)
    assert lp_norm(x, 2) == pytest.approx(l2)
    assert lp_norm(x, np.inf) == pytest.approx(linf)


def test_lp_norm_rows_and_fractional_p():
    assert_allclose(lp_norm([[3, 4], [1, 0]], 2), [5.0, 1.0])
    assert lp_norm([1, 1], 0.5) == pytest.approx(4.0)  # (1 + 1)^2: a quasi-norm


def test_lp_norm_rejects_p_zero_with_pointer():
    with pytest.raises(ValueError, match="use l0_norm"):
        lp_norm([1, 2], 0)


def test_slide_l0_norms():
    assert l0_norm([1, -4, 0, -2, 0, 0, 0], "donoho") == 3
    # Banach: 1/2 * 1/2 + 1/4 * 0 + 1/8 * 4/5 = 0.35
    assert l0_norm([1, 0, -4], "banach") == pytest.approx(0.35)
    with pytest.raises(ValueError, match="Unknown L0 definition 'hamming'"):
        l0_norm([1, 0], "hamming")


@pytest.mark.parametrize("p", [1, 1.5, 2, 3, np.inf])
def test_minkowski_matches_scipy(rng, p):
    X, Y = rng.normal(size=(7, 4)), rng.normal(size=(5, 4))
    expected = distance.cdist(X, Y, "chebyshev") if p == np.inf else distance.cdist(X, Y, "minkowski", p=p)
    assert_allclose(minkowski(X, Y, p), expected, rtol=1e-12)
    assert minkowski(X[0], Y[0], p) == pytest.approx(expected[0, 0])


def test_minkowski_chunks_agree(rng):
    X, Y = rng.normal(size=(300, 5)), rng.normal(size=(200, 5))
    full = minkowski(X, Y, 3)
    with config_context(working_memory=0.1):  # 100 KiB: many chunks
        assert_array_equal(minkowski(X, Y, 3), full)


def test_minkowski_rejects_p_below_one():
    with pytest.raises(ValueError, match="p >= 1"):
        minkowski([0, 0], [1, 1], 0.5)


# --- cosine and the covariance-aware measures ---------------------------------------------


def test_cosine_matches_scipy(rng):
    X, Y = rng.normal(size=(6, 3)), rng.normal(size=(4, 3))
    assert_allclose(cosine_similarity(X, Y), 1 - distance.cdist(X, Y, "cosine"), atol=1e-14)
    assert cosine_similarity([1, 0], [0, 1]) == 0.0


def test_cosine_zero_vector_is_refused():
    with pytest.raises(ValueError, match=r"undefined for a zero vector: row 1 of x"):
        cosine_similarity([[1.0, 0.0], [0.0, 0.0]], [[1.0, 1.0]])


def test_variance_adjusted_cosine_hand_example():
    # inv(cov) = [[3, -2], [-2, 4]] / 8  ->  x'S^-1 y = -0.25, x'S^-1 x * y'S^-1 y = 0.375 * 0.5
    W = whitening_matrix(np.array([[4.0, 2.0], [2.0, 3.0]]), "cholesky")
    assert variance_adjusted_cosine([1, 0], [0, 1], W) == pytest.approx(-0.25 / 0.1875**0.5)


def test_variance_adjusted_cosine_identity_is_cosine(rng):
    X, Y = rng.normal(size=(5, 3)), rng.normal(size=(4, 3))
    assert_allclose(variance_adjusted_cosine(X, Y, np.eye(3)), cosine_similarity(X, Y))


@pytest.mark.parametrize("method", METHODS)
def test_variance_adjusted_cosine_is_scipy_seuclid_free_closed_form(rng, method):
    sigma = random_spd(rng, 4, 1e3)
    X, Y = rng.normal(size=(6, 4)), rng.normal(size=(5, 4))
    VI = np.linalg.inv(sigma)
    closed = (X @ VI @ Y.T) / np.sqrt(
        np.einsum("ij,jk,ik->i", X, VI, X)[:, None] * np.einsum("ij,jk,ik->i", Y, VI, Y)[None, :]
    )
    assert_allclose(variance_adjusted_cosine(X, Y, whitening_matrix(sigma, method)), closed, atol=1e-10)


def test_mahalanobis_matches_scipy(rng):
    sigma = random_spd(rng, 5, 1e4)
    VI = np.linalg.inv(sigma)
    X, Y = rng.normal(size=(20, 5)), rng.normal(size=(15, 5))
    assert_allclose(mahalanobis(X, Y, VI), distance.cdist(X, Y, "mahalanobis", VI=VI), rtol=1e-9)
    assert mahalanobis(X[0], Y[0], VI) == pytest.approx(distance.mahalanobis(X[0], Y[0], VI), rel=1e-12)


def test_mahalanobis_keeps_precision_for_close_far_points(rng):
    # points far from the origin and close to each other: the naive |a|^2 + |b|^2 - 2ab loses all digits
    VI = np.linalg.inv(random_spd(rng, 3, 10))
    X = 1e6 + rng.normal(size=(10, 3))
    Y = X + 1e-4 * rng.normal(size=(10, 3))
    assert_allclose(mahalanobis(X, Y, VI), distance.cdist(X, Y, "mahalanobis", VI=VI), rtol=1e-8)


def test_mahalanobis_semidefinite_VI_allowed_indefinite_refused():
    VI = np.diag([1.0, 0.0])
    assert mahalanobis([0, 0], [3, 5], VI) == pytest.approx(3.0)
    with pytest.raises(ValueError, match=r"not positive semi-definite: smallest eigenvalue -1"):
        mahalanobis([0, 0], [1, 1], np.diag([1.0, -1.0]))


def test_pairwise_shape_errors_quote_shapes():
    with pytest.raises(ValueError, match=r"same number of features; got shapes \(2, 3\) and \(2, 2\)"):
        cosine_similarity(np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(
        ValueError, match=r"both be vectors \(1-D\) or both be sample matrices \(2-D\); got shapes \(3,\) and \(2, 3\)"
    ):
        cosine_similarity(np.ones(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"VI has shape \(2, 2\) but the data have 3 features"):
        mahalanobis(np.ones(3), np.zeros(3), np.eye(2))
    with pytest.raises(ValueError, match=r"W must have shape \(3, 3\) for 3 features; got \(2, 2\)"):
        variance_adjusted_cosine(np.ones(3), np.ones(3), np.eye(2))


def test_nan_inputs_are_refused():
    with pytest.raises(ValueError, match=r"y contains NaN in 1 entries, first at index \(0,\).*impute"):
        mahalanobis([0.0, 1.0], [np.nan, 1.0], np.eye(2))


# --- top-k with bounded memory -------------------------------------------------------------


@pytest.mark.parametrize("metric", ["euclidean", "mahalanobis", "cosine", "variance_adjusted_cosine"])
def test_nearest_neighbors_match_sklearn(rng, metric):
    from sklearn.neighbors import NearestNeighbors

    from helpers.neighbours import nearest_neighbors

    sigma = random_spd(rng, 4, 100)
    X, Q = rng.normal(size=(300, 4)) + 1.0, rng.normal(size=(40, 4)) + 1.0
    VI, W = np.linalg.inv(sigma), whitening_matrix(sigma)
    if metric == "mahalanobis":
        ref = NearestNeighbors(n_neighbors=6, metric="mahalanobis", metric_params={"VI": VI}, algorithm="brute")
    elif metric == "variance_adjusted_cosine":
        ref = NearestNeighbors(n_neighbors=6, metric="cosine", algorithm="brute")
    else:
        ref = NearestNeighbors(n_neighbors=6, metric=metric, algorithm="brute")
    fitted = ref.fit(X @ W.T if metric == "variance_adjusted_cosine" else X)
    d_ref, i_ref = fitted.kneighbors(Q @ W.T if metric == "variance_adjusted_cosine" else Q)
    with config_context(working_memory=0.05):  # ~50 KiB: many chunks
        d, i = nearest_neighbors(Q, X, k=6, metric=metric, VI=VI, W=W)
    assert_array_equal(i, i_ref)
    assert_allclose(d, d_ref, atol=1e-9)


@pytest.mark.parametrize("metric", ["euclidean", "mahalanobis", "cosine"])
def test_nearest_neighbors_distances_exact_for_near_duplicates(rng, metric):
    # far from the origin, the expanded formula |a|^2 + |b|^2 - 2ab loses the small distances
    from helpers.neighbours import nearest_neighbors

    X = rng.normal(size=(200, 5)) * 0.01 + 100.0
    VI = np.linalg.inv(np.cov(X, rowvar=False))
    d, i = nearest_neighbors(X, X, k=3, metric=metric, VI=VI)
    assert_array_equal(i[:, 0], np.arange(200))
    assert np.all(d[:, 0] == 0.0)  # a row's distance to itself
    if metric == "cosine":  # scipy's 1 - cos has absolute, not relative, precision here: use long double
        U = X.astype(np.longdouble) / np.sqrt(np.sum(X.astype(np.longdouble) ** 2, axis=1, keepdims=True))
        ref = (1 - U @ U.T).astype(np.float64)
        assert_allclose(
            d[:, 1:], np.take_along_axis(distance.cdist(X, X, "cosine"), i[:, 1:], axis=1), rtol=0, atol=1e-15
        )
    else:
        ref = distance.cdist(X, X, metric, **({"VI": VI} if metric == "mahalanobis" else {}))
    assert_allclose(d[:, 1:], np.take_along_axis(ref, i[:, 1:], axis=1), rtol=1e-8 if metric == "cosine" else 1e-12)


def test_nearest_neighbors_errors(rng):
    from helpers.neighbours import nearest_neighbors

    X = rng.normal(size=(5, 2))
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 5\]"):
        nearest_neighbors(X, X, k=6)
    with pytest.raises(ValueError, match="needs VI"):
        nearest_neighbors(X, X, metric="mahalanobis")
    with pytest.raises(ValueError, match="Unknown metric 'l1'"):
        nearest_neighbors(X, X, metric="l1")


# --- weights of the slides' weighted kNN (lines 515 and 767) -----------------------------------


def test_inverse_square_weights_by_hand_and_exact_matches():
    np.testing.assert_allclose(inverse_square_weights([[0.5, 2.0, 4.0]]), [[4.0, 0.25, 0.0625]])
    # a query on top of training points: those share the vote, the others get nothing
    np.testing.assert_array_equal(inverse_square_weights([[0.0, 0.0, 1.0], [1.0, 2.0, 2.0]])[0], [1.0, 1.0, 0.0])
    assert inverse_square_weights([2.0]).tolist() == [0.25]


def test_inverse_square_weights_in_sklearn_match_the_slides_formula():
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor

    from helpers import load_athletes, load_whiskey

    table, _ = load_athletes(extended=True)
    X, y = table[["speed", "agility"]].to_numpy(), table["draft"].to_numpy()
    q = np.array([[8.0, 8.0]])
    d = np.linalg.norm(X - q, axis=1)
    tally = {lab: (1 / d[y == lab] ** 2).sum() for lab in ("yes", "no")}  # K = 21: every athlete votes
    assert KNeighborsClassifier(21, weights=inverse_square_weights).fit(X, y).predict(q)[0] == max(tally, key=tally.get)
    wh, wq = load_whiskey()
    Xw = wh[["age", "rating"]].to_numpy(float)
    Xw = (Xw - Xw.min(0)) / (Xw.max(0) - Xw.min(0))
    qw = (wq.to_numpy(float) - [0, 1]) / [30, 4]
    dw = np.linalg.norm(Xw - qw, axis=1)
    by_hand = (wh["price"] / dw**2).sum() / (1 / dw**2).sum()  # line 767 over all 20
    model = KNeighborsRegressor(20, weights=inverse_square_weights).fit(Xw, wh["price"])
    assert model.predict(qw[None, :])[0] == pytest.approx(by_hand)


def test_inverse_square_weights_refuse_negative_distances():
    with pytest.raises(ValueError, match="cannot be negative"):
        inverse_square_weights([[1.0, -0.5]])


@pytest.mark.parametrize("p", [1075, 2000, 1e4, 1e6, 1e12])
def test_a_large_p_tends_to_the_max_norm_instead_of_underflowing_to_zero(p):
    """(sum |x_i|^p)^(1/p) at p >= 1075 underflowed to 0 when every |x_i| was scaled below 1: the
    largest term is now exactly 1, so the norm lies in [max |x_i|, n^(1/p) max |x_i|] as it must."""
    x = np.array([3.0, 4.0, -4.0, 1e-300])
    norm = lp_norm(x, p)
    assert 4.0 <= norm <= 4.0 * 4 ** (1 / p)
    assert norm == pytest.approx(4.0 * 2 ** (1 / p), rel=1e-12)   # two entries at the maximum
    d = minkowski(np.zeros(4), x, p)
    assert d == pytest.approx(norm, rel=1e-12)
    assert minkowski(x, x, p) == 0.0 and lp_norm(np.zeros(3), p) == 0.0


@pytest.mark.parametrize("p", [1.5, 3, 7.25, 40])
def test_moderate_p_agrees_with_scipy(p):
    from scipy.spatial.distance import minkowski as scipy_minkowski

    rng = np.random.default_rng(int(p * 4))
    a, b = rng.normal(size=6) * 1e3, rng.normal(size=6)
    assert minkowski(a, b, p) == pytest.approx(scipy_minkowski(a, b, p), rel=1e-13)
    assert lp_norm(a - b, p) == pytest.approx(scipy_minkowski(a, b, p), rel=1e-13)
