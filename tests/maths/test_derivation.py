"""The mathematical facts notebooks 02 and 03 show, checked independently of the notebooks."""

import numpy as np
import pytest
from scipy import linalg, stats
from scipy.spatial import distance

from helpers import (
    cosine_similarity,
    expected_whitening_matrix,
    mahalanobis,
    variance_adjusted_cosine,
    whitening_matrix,
)
from helpers.whitening import METHODS
from tests.support import random_spd

# ---------------------------------------------------------------- notebook 02

def fig2_covariance():
    # diag(a, b) with 25 / a = chi2.ppf(0.75, 2) = 2 ln 4 and 1 / b = chi2.ppf(0.90, 2) = 2 ln 10
    return np.diag([25.0 / (2 * np.log(4.0)), 1.0 / (2 * np.log(10.0))])


def test_chi2_two_df_quantile_closed_form():
    p = np.array([0.1, 0.5, 0.75, 0.9])
    np.testing.assert_allclose(stats.chi2.ppf(p, 2), -2 * np.log(1 - p), rtol=1e-12)


@pytest.mark.parametrize("point, level", [((5.0, 0.0), 0.75), ((0.0, 1.0), 0.90)])
def test_fig2_points_lie_exactly_on_the_stated_ellipses(point, level):
    VI = np.linalg.inv(fig2_covariance())
    d2 = mahalanobis(point, (0.0, 0.0), VI) ** 2
    assert stats.chi2.cdf(d2, 2) == pytest.approx(level, abs=1e-12)


def test_fig2_far_point_is_five_times_farther_yet_more_typical():
    VI = np.linalg.inv(fig2_covariance())
    far, near = np.array([5.0, 0.0]), np.array([0.0, 1.0])
    assert np.linalg.norm(far) / np.linalg.norm(near) == pytest.approx(5.0)
    assert mahalanobis(far, [0, 0], VI) < mahalanobis(near, [0, 0], VI)


def test_fig1_abc_rankings_disagree():
    # notebook 02's defaults: variances 9 and 1, correlation 0.9
    sigma = np.array([[9.0, 2.7], [2.7, 1.0]])
    A, B, C = np.array([4.0, 0.4]), np.array([3.0, 1.0]), np.array([1.0, 0.8])
    assert cosine_similarity(A, B) > cosine_similarity(B, C)
    for method in METHODS:
        W = whitening_matrix(sigma, method)
        assert variance_adjusted_cosine(B, C, W) > variance_adjusted_cosine(A, B, W)
    # closed form x' S^-1 y / sqrt(x' S^-1 x y' S^-1 y) for (A, B): worked out by hand
    P = np.linalg.inv(sigma)
    expected = A @ P @ B / np.sqrt((A @ P @ A) * (B @ P @ B))
    assert variance_adjusted_cosine(A, B, whitening_matrix(sigma)) == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- notebook 03: Eqs. 1-4 and 11-18

def test_cholesky_and_eigen_whitening_give_mahalanobis(rng):
    sigma = random_spd(rng, 5, condition=1e4)
    mu = rng.normal(size=5)
    X = rng.normal(size=(50, 5)) * 3
    VI = np.linalg.inv(sigma)
    d2 = np.array([distance.mahalanobis(x, mu, VI) ** 2 for x in X])
    L = linalg.cholesky(sigma, lower=True)                                   # Eq. (2)
    z = linalg.solve_triangular(L, (X - mu).T, lower=True).T                 # Eq. (3)
    np.testing.assert_allclose(np.sum(z ** 2, axis=1), d2, rtol=1e-9)        # Eq. (4)
    D, Q = np.linalg.eigh(sigma)                                             # Eqs. (11)-(14)
    x_hat = ((X - mu) @ Q) / np.sqrt(D)                                      # Eqs. (15)-(18)
    np.testing.assert_allclose(np.sum(x_hat ** 2, axis=1), d2, rtol=1e-9)


def test_whitening_matrices_differ_by_rotations(rng):
    sigma = random_spd(rng, 4, condition=50)
    Ws = {m: whitening_matrix(sigma, m) for m in METHODS}
    for a in METHODS:
        for b in METHODS:
            R = Ws[a] @ np.linalg.inv(Ws[b])
            np.testing.assert_allclose(R @ R.T, np.eye(4), atol=1e-10)


def test_expected_matrix_does_not_whiten_and_depends_on_method(rng):
    X = np.vstack([rng.multivariate_normal([0, 0, 0], random_spd(rng, 3, 5), 200),
                   rng.multivariate_normal([3, 0, 1], random_spd(rng, 3, 40) * 4, 200)])
    y = np.repeat([0, 1], 200)
    E_chol = expected_whitening_matrix(X, y, "cholesky")
    E_zca = expected_whitening_matrix(X, y, "zca")
    for k in (0, 1):
        S = np.cov(X[y == k], rowvar=False)
        assert np.linalg.norm(E_chol @ S @ E_chol.T - np.eye(3), 2) > 0.1
    assert np.abs(variance_adjusted_cosine(X, X, E_chol) - variance_adjusted_cosine(X, X, E_zca)).max() > 1e-3


# ---------------------------------------------------------------- notebook 03: SVM paper Eqs. 20-27

def geometric_margin(W, theta, theta0, side):
    """Euclidean distance, in the input space, between the images under W^-1 of the
    whitened lines theta'z + theta0 = 0 and = side (2-D), by point-to-line geometry."""
    unit = theta / (theta @ theta)
    perp = np.array([-theta[1], theta[0]])
    p0 = np.linalg.solve(W, -theta0 * unit)
    p1 = np.linalg.solve(W, -theta0 * unit + perp)
    m = np.linalg.solve(W, (side - theta0) * unit)
    d = p1 - p0
    return abs(d[0] * (m - p0)[1] - d[1] * (m - p0)[0]) / np.hypot(*d)


def paper_ratio(theta, sigma_pos, sigma_neg):
    # margin(+1) / margin(-1) = sqrt(theta' S_-1^-1 theta) / sqrt(theta' S_1^-1 theta)
    return np.sqrt(theta @ np.linalg.solve(sigma_neg, theta)) / np.sqrt(theta @ np.linalg.solve(sigma_pos, theta))


SIGMA_POS = np.array([[1.0, 0.6], [0.6, 0.8]])
SIGMA_NEG = np.array([[3.0, -1.2], [-1.2, 1.5]])


@pytest.mark.parametrize("theta, theta0", [([1.0, 2.0], -0.5), ([-0.3, 0.7], 2.0), ([2.0, 0.1], 0.0)])
def test_margin_ratio_formula_holds_for_zca(theta, theta0):
    theta = np.array(theta)
    W_pos, W_neg = whitening_matrix(SIGMA_POS, "zca"), whitening_matrix(SIGMA_NEG, "zca")
    ratio = geometric_margin(W_pos, theta, theta0, 1) / geometric_margin(W_neg, theta, theta0, -1)
    assert ratio == pytest.approx(paper_ratio(theta, SIGMA_POS, SIGMA_NEG), rel=1e-10)
    # and each margin is 1 / sqrt(theta' inv(Sigma_k) theta)
    assert geometric_margin(W_pos, theta, theta0, 1) == pytest.approx(
        1 / np.sqrt(theta @ np.linalg.solve(SIGMA_POS, theta)), rel=1e-10)


@pytest.mark.parametrize("method", METHODS)
def test_margin_ratio_general_formula_any_whitening(method):
    theta, theta0 = np.array([1.0, 2.0]), -0.5
    W_pos, W_neg = whitening_matrix(SIGMA_POS, method), whitening_matrix(SIGMA_NEG, method)
    ratio = geometric_margin(W_pos, theta, theta0, 1) / geometric_margin(W_neg, theta, theta0, -1)
    assert ratio == pytest.approx(np.linalg.norm(W_neg.T @ theta) / np.linalg.norm(W_pos.T @ theta), rel=1e-10)


def test_margin_ratio_paper_formula_fails_for_cholesky():
    # W = L^-1 gives W W' = inv(L' L), not inv(Sigma): the printed ratio is off
    theta, theta0 = np.array([1.0, 2.0]), -0.5
    W_pos, W_neg = whitening_matrix(SIGMA_POS, "cholesky"), whitening_matrix(SIGMA_NEG, "cholesky")
    ratio = geometric_margin(W_pos, theta, theta0, 1) / geometric_margin(W_neg, theta, theta0, -1)
    assert abs(ratio - paper_ratio(theta, SIGMA_POS, SIGMA_NEG)) > 0.05
    np.testing.assert_allclose(W_pos.T @ W_pos, np.linalg.inv(SIGMA_POS), rtol=1e-12)


# ---------------------------------------------------------------- the studies compute what these facts say

def test_study_margins_equal_the_geometry_above():
    from helpers.studies import sahoo_maiti_2025b as svm_paper

    rng = np.random.default_rng(3)
    X = np.vstack([rng.multivariate_normal([4, 4], SIGMA_POS, 40), rng.multivariate_normal([0, 0], SIGMA_NEG, 40)])
    y = np.repeat([1, -1], 40)
    table, fits = svm_paper.input_space_margins(X, y, {1: SIGMA_POS, -1: SIGMA_NEG}, 1000.0)
    for method in ("zca", "cholesky"):
        W, th, th0 = fits[method][:3]
        assert table.loc[method, "margin, class +1"] == pytest.approx(geometric_margin(W[1], th, th0, 1), rel=1e-12)
        assert table.loc[method, "margin, class -1"] == pytest.approx(geometric_margin(W[-1], th, th0, -1), rel=1e-12)
        assert table.loc[method, "ratio, paper's Eq. 27"] == pytest.approx(paper_ratio(th, SIGMA_POS, SIGMA_NEG))


def test_study_fig2_covariance_is_the_one_above():
    from helpers.studies.srivastava_rao_2016 import derivations

    np.testing.assert_allclose(derivations.fig2_covariance([5.0, 0.0], 0.75, [0.0, 1.0], 0.90), fig2_covariance(),
                               rtol=1e-12)


def test_study_fig1_points_rank_as_above():
    from helpers.studies import sahoo_maiti_2025a as cosine_paper

    sigma = np.array([[9.0, 2.7], [2.7, 1.0]])
    _, abc = cosine_paper.fig1_points(sigma, {"A": np.array([4.0, 0.4]), "B": np.array([3.0, 1.0]),
                                              "C": np.array([1.0, 0.8])})
    assert abc.loc["(A,B)", "cosine, raw"] > abc.loc["(B,C)", "cosine, raw"]
    assert abc.loc["(B,C)", "cosine, variance-adjusted"] > abc.loc["(A,B)", "cosine, variance-adjusted"]
