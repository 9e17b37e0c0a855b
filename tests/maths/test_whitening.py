import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.covariance import (
    OAS,
    EmpiricalCovariance,
    LedoitWolf,
    MinCovDet,
    ShrunkCovariance,
    shrunk_covariance,
)
from sklearn.preprocessing import StandardScaler

from helpers.data import load_wdbc
from helpers.metrics import mahalanobis, variance_adjusted_cosine
from helpers.whitening import (
    METHODS,
    check_covariance,
    class_whitening_matrices,
    estimate_covariance,
    expected_whitening_matrix,
    transform_by_class,
    whitening_matrix,
)
from tests.support import random_spd


@st.composite
def spd_matrices(draw):
    p = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**31))
    condition = draw(st.sampled_from([1.0, 10.0, 1e3, 1e6]))
    return random_spd(np.random.default_rng(seed), p, condition)


# --- covariance estimates -----------------------------------------------------------------


def test_sample_and_population_covariance(rng):
    X = rng.normal(size=(50, 4))
    assert_allclose(estimate_covariance(X), np.cov(X, rowvar=False, ddof=1))
    assert_allclose(estimate_covariance(X, "population"), np.cov(X, rowvar=False, ddof=0))


def test_shrinkage_estimators_use_sklearn(rng):
    X = rng.normal(size=(30, 5))
    assert_allclose(estimate_covariance(X, "ledoit_wolf"), LedoitWolf().fit(X).covariance_)
    assert_allclose(estimate_covariance(X, "oas"), OAS().fit(X).covariance_)


def test_float_shrinkage_moves_towards_scaled_identity(rng):
    X = rng.normal(size=(30, 3))
    S = np.cov(X, rowvar=False)
    mu = np.trace(S) / 3
    assert_allclose(estimate_covariance(X, 0.0), S)
    assert_allclose(estimate_covariance(X, 1.0), mu * np.eye(3))
    assert_allclose(estimate_covariance(X, 0.25), 0.75 * S + 0.25 * mu * np.eye(3))


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_shrinkage_out_of_range(bad):
    with pytest.raises(ValueError, match=r"A float covariance is a shrinkage intensity and must lie in \[0, 1\]; got"):
        estimate_covariance(np.eye(3), bad)


def test_unknown_covariance_lists_options():
    with pytest.raises(
        ValueError, match=r"Unknown covariance 'mle'; valid options are 'sample'.*'ledoit_wolf'.*float.*LedoitWolf\(\)"
    ):
        estimate_covariance(np.eye(3), "mle")


def test_covariance_estimator_objects_equal_the_names(rng):
    # the named estimates are scikit-learn's: objects give the same matrices, and the object is cloned, not fitted
    X = rng.normal(size=(25, 4)) @ random_spd(rng, 4, 30)
    lw, oas, emp = LedoitWolf(), OAS(), EmpiricalCovariance()
    assert_allclose(estimate_covariance(X, lw), estimate_covariance(X, "ledoit_wolf"), rtol=1e-14)
    assert_allclose(estimate_covariance(X, oas), estimate_covariance(X, "oas"), rtol=1e-14)
    assert_allclose(estimate_covariance(X, emp), estimate_covariance(X, "population"), rtol=1e-14)  # divides by n
    assert not hasattr(lw, "covariance_") and not hasattr(emp, "covariance_")
    # sample ("sample", divides by n - 1) = population * n / (n - 1): no scikit-learn estimator gives it
    assert_allclose(estimate_covariance(X, emp) * 25 / 24, estimate_covariance(X, "sample"), rtol=1e-14)
    # ShrunkCovariance(a) shrinks the population covariance, the float a the sample covariance
    assert_allclose(estimate_covariance(X, ShrunkCovariance(shrinkage=0.2)),
                    shrunk_covariance(estimate_covariance(X, "population"), 0.2), rtol=1e-14)
    assert not np.allclose(estimate_covariance(X, ShrunkCovariance(shrinkage=0.2)), estimate_covariance(X, 0.2))
    robust = MinCovDet(random_state=0)
    assert_allclose(estimate_covariance(X, robust), MinCovDet(random_state=0).fit(X).covariance_)


def test_class_matrices_accept_an_estimator_object(rng):
    X = np.vstack([rng.normal(size=(8, 5)), rng.normal(size=(9, 5)) * 3])  # fewer samples than features + 1 is fine
    y = np.repeat([0, 1], [8, 9])
    by_object = class_whitening_matrices(X, y, covariance=OAS())
    by_name = class_whitening_matrices(X, y, covariance="oas")
    for label in (0, 1):
        assert_allclose(by_object[label], by_name[label], rtol=1e-12)
    assert_allclose(expected_whitening_matrix(X, y, covariance=LedoitWolf()),
                    expected_whitening_matrix(X, y, covariance="ledoit_wolf"), rtol=1e-12)


@pytest.mark.parametrize("bad", [None, True, [0.1], np.eye(2), "LedoitWolf"])
def test_bad_covariance_names_the_value_and_the_accepted_forms(bad):
    with pytest.raises(ValueError, match=r"(?s)Unknown covariance .*valid options are 'sample', 'population', "
                                         r"'ledoit_wolf', 'oas', a float shrinkage in \[0, 1\], or a scikit-learn "
                                         r"covariance estimator such as sklearn.covariance.LedoitWolf\(\)"):
        estimate_covariance(np.eye(3), bad)


def test_estimator_without_covariance_is_refused():
    with pytest.raises(TypeError, match=r"covariance=StandardScaler\(\) has no covariance_ after fit"):
        estimate_covariance(np.eye(3), StandardScaler())


def test_one_sample_is_refused():
    with pytest.raises(ValueError, match=r"at least 2 samples; X has 1 sample"):
        estimate_covariance([[1.0, 2.0]])


def test_nan_is_refused():
    X = np.ones((5, 2))
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"NaN in 1 entries, first at row 3, column 1.*SimpleImputer"):
        estimate_covariance(X)


def test_1d_input_is_refused_with_hint():
    with pytest.raises(ValueError, match=r"must be 2-D; got shape \(4,\).*reshape"):
        estimate_covariance([1.0, 2.0, 3.0, 4.0])


# --- whitening matrices --------------------------------------------------------------------


def test_cholesky_worked_example():
    # sigma = L L' with L = [[2, 0], [1, sqrt 2]]  ->  W = inv(L) = [[1/2, 0], [-1/(2 sqrt 2), 1/sqrt 2]]
    W = whitening_matrix(np.array([[4.0, 2.0], [2.0, 3.0]]), "cholesky")
    assert_allclose(W, [[0.5, 0.0], [-1 / (2 * np.sqrt(2)), 1 / np.sqrt(2)]], atol=1e-15)


def test_cholesky_is_lower_triangular_inverse_of_factor(rng):
    sigma = random_spd(rng, 5, 1e4)
    W = whitening_matrix(sigma, "cholesky")
    assert_allclose(np.triu(W, 1), 0.0)
    assert_allclose(W @ np.linalg.cholesky(sigma), np.eye(5), atol=1e-12)


def test_zca_is_symmetric_inverse_square_root(rng):
    sigma = random_spd(rng, 4, 50)
    W = whitening_matrix(sigma, "zca")
    assert_allclose(W, W.T, atol=1e-12)
    assert_allclose(W @ W, np.linalg.inv(sigma), atol=1e-12)


def test_pca_variants_have_positive_diagonal_eigenvectors(rng):
    sigma = random_spd(rng, 4, 50)
    W = whitening_matrix(sigma, "pca")
    vals, vecs = np.linalg.eigh(sigma)
    U = (W.T * np.sqrt(vals[::-1]))  # columns are the eigenvectors, descending eigenvalues
    assert np.all(np.diag(U) > 0)
    assert_allclose(np.abs(U), np.abs(vecs[:, ::-1]), atol=1e-10)


@given(spd_matrices(), st.sampled_from(METHODS))
def test_every_method_whitens(sigma, method):
    W = whitening_matrix(sigma, method)
    cond = np.linalg.cond(sigma)
    assert_allclose(W @ sigma @ W.T, np.eye(len(sigma)), atol=1e-13 * cond + 1e-12)


@given(spd_matrices())
def test_methods_differ_by_a_rotation(sigma):
    # any two whitening matrices of the same sigma satisfy W2 = Q W1 with Q orthogonal
    W1 = whitening_matrix(sigma, "cholesky")
    for method in METHODS:
        Q = whitening_matrix(sigma, method) @ np.linalg.inv(W1)
        assert_allclose(Q @ Q.T, np.eye(len(sigma)), atol=1e-8)


@given(spd_matrices(), st.integers(0, 2**31))
def test_mahalanobis_is_euclidean_after_whitening(sigma, seed):
    r = np.random.default_rng(seed)
    x, y = r.normal(size=(2, len(sigma)))
    VI = np.linalg.inv(sigma)
    direct = np.sqrt((x - y) @ VI @ (x - y))
    for method in METHODS:
        W = whitening_matrix(sigma, method)
        assert np.linalg.norm(W @ x - W @ y) == pytest.approx(direct, rel=1e-7)
    assert mahalanobis(x, y, VI) == pytest.approx(direct, rel=1e-7)


@given(spd_matrices(), st.integers(0, 2**31))
def test_whitened_cosine_is_method_invariant(sigma, seed):
    r = np.random.default_rng(seed)
    x, y = r.normal(size=(2, len(sigma)))
    VI = np.linalg.inv(sigma)
    closed_form = (x @ VI @ y) / np.sqrt((x @ VI @ x) * (y @ VI @ y))
    for method in METHODS:
        W = whitening_matrix(sigma, method)
        assert variance_adjusted_cosine(x, y, W) == pytest.approx(closed_form, abs=1e-7)


def test_raw_wdbc_whitens_with_the_sample_estimator():
    X, _ = load_wdbc()
    sigma = estimate_covariance(X.to_numpy())
    eig = check_covariance(sigma)
    assert 5e11 < eig[-1] / eig[0] < 8e11  # condition number about 6e11
    for method in METHODS:
        W = whitening_matrix(sigma, method)
        assert_allclose(W @ sigma @ W.T, np.eye(30), atol=1e-8)


def test_singular_covariance_error_names_fix():
    sigma = np.ones((3, 3))
    with pytest.raises(
        ValueError, match=r"singular: it is not positive definite.*rank 1 of 3.*covariance='ledoit_wolf'.*PCA"
    ):
        whitening_matrix(sigma)


def test_ill_conditioned_covariance_gives_condition_number():
    sigma = np.diag([1.0, 1e-15])
    with pytest.raises(ValueError, match=r"ill-conditioned: condition number 1e\+15 exceeds 1e\+14.*ledoit_wolf"):
        whitening_matrix(sigma)


def test_nonsymmetric_matrix_is_refused():
    with pytest.raises(ValueError, match=r"not symmetric: entries \(0, 1\) and \(1, 0\)"):
        whitening_matrix([[2.0, 1.0], [0.0, 2.0]])


def test_non_square_matrix_is_refused():
    with pytest.raises(ValueError, match=r"square matrix; got shape \(2, 3\)"):
        whitening_matrix(np.ones((2, 3)))


def test_unknown_method_lists_valid_ones():
    with pytest.raises(
        ValueError,
        match=r"Unknown whitening method 'svd'; valid options are 'zca', 'zca_cor', 'pca', 'pca_cor', 'cholesky'",
    ):
        whitening_matrix(np.eye(2), "svd")


# --- per-class matrices and E(W^-1) -----------------------------------------------------


def _two_classes(rng):
    X0 = rng.multivariate_normal([0, 0, 0], random_spd(rng, 3, 10), size=40)
    X1 = rng.multivariate_normal([3, 1, 0], random_spd(rng, 3, 100), size=60)
    return np.vstack([X0, X1]), np.repeat([0, 1], [40, 60])


def test_class_matrices_whiten_their_class(rng):
    X, y = _two_classes(rng)
    mats = class_whitening_matrices(X, y)
    for label, W in mats.items():
        S = np.cov(X[y == label], rowvar=False)
        assert_allclose(W @ S @ W.T, np.eye(3), atol=1e-10)


@pytest.mark.parametrize("method", METHODS)
def test_expected_matrix_matches_direct_computation(rng, method):
    X, y = _two_classes(rng)
    W0 = whitening_matrix(np.cov(X[y == 0], rowvar=False), method)
    W1 = whitening_matrix(np.cov(X[y == 1], rowvar=False), method)
    assert_allclose(expected_whitening_matrix(X, y, method), 0.4 * W0 + 0.6 * W1, atol=1e-14)


def test_expected_matrix_is_not_a_whitening_matrix(rng):
    X, y = _two_classes(rng)
    E = expected_whitening_matrix(X, y)
    for label in (0, 1):
        S = np.cov(X[y == label], rowvar=False)
        assert np.abs(E @ S @ E.T - np.eye(3)).max() > 0.05


def test_expected_matrix_depends_on_method(rng):
    X, y = _two_classes(rng)
    Ec = expected_whitening_matrix(X, y, "cholesky")
    Ez = expected_whitening_matrix(X, y, "zca")
    cos = [variance_adjusted_cosine(X[:5], X[5:10], E) for E in (Ec, Ez)]
    assert np.abs(cos[0] - cos[1]).max() > 1e-3


def test_three_classes(rng):
    X = rng.normal(size=(90, 2))
    y = np.repeat(["a", "b", "c"], [20, 30, 40])
    mats = class_whitening_matrices(X, y)
    E = expected_whitening_matrix(X, y)
    assert_allclose(E, (20 * mats["a"] + 30 * mats["b"] + 40 * mats["c"]) / 90)


def test_class_with_one_sample_is_refused(rng):
    X = rng.normal(size=(6, 2))
    with pytest.raises(ValueError, match=r"Class 1 has 1 sample; a class covariance needs at least 2"):
        class_whitening_matrices(X, [0, 0, 0, 0, 0, 1])


def test_class_with_fewer_samples_than_features_is_refused(rng):
    X = rng.normal(size=(10, 4))
    y = np.repeat([0, 1], [6, 4])
    with pytest.raises(
        ValueError, match=r"Class 1 has 4 samples for 4 features.*singular.*at least 5.*covariance='ledoit_wolf'"
    ):
        class_whitening_matrices(X, y)
    mats = class_whitening_matrices(X, y, covariance="ledoit_wolf")  # the suggested fix works
    assert set(mats) == {0, 1}


def test_label_length_mismatch_quotes_shapes(rng):
    with pytest.raises(ValueError, match=r"same number of samples; got shapes \(10, 2\) and \(9,\)"):
        class_whitening_matrices(rng.normal(size=(10, 2)), np.zeros(9))


def test_transform_by_class_uses_each_rows_label(rng):
    X, y = _two_classes(rng)
    mats = class_whitening_matrices(X, y)
    Z = transform_by_class(X, y, mats)
    assert_allclose(Z[y == 0], X[y == 0] @ mats[0].T)
    assert_allclose(Z[y == 1], X[y == 1] @ mats[1].T)
    with pytest.raises(ValueError, match=r"No whitening matrix for label\(s\) \[2\]"):
        transform_by_class(X, np.full(len(y), 2), mats)


@pytest.mark.parametrize("method", METHODS)
def test_whitening_that_loses_precision_is_refused(method):
    # condition number 5e13 in a rotated basis: below check_covariance's cut-off, but no method can
    # reach W S W' = I to 1e-6 there; the error names the residual, the condition number and the fixes
    rng = np.random.default_rng(3)
    Q, _ = np.linalg.qr(rng.normal(size=(10, 10)))
    S = (Q * np.geomspace(1, 5e13, 10)) @ Q.T
    with pytest.raises(
        ValueError,
        match=r"lost precision: max \|W sigma W' - I\| = .*condition number of sigma [\d.]+e\+13.*ledoit_wolf",
    ):
        whitening_matrix((S + S.T) / 2, method)


def test_empty_input_is_refused_not_answered_with_zero():
    with pytest.raises(ValueError, match="X and y hold no rows; per-class matrices need at least two rows"):
        expected_whitening_matrix(np.empty((0, 3)), [])
    with pytest.raises(ValueError, match="X and y hold no rows"):
        class_whitening_matrices(np.empty((0, 3)), np.array([], dtype=int))


@pytest.mark.parametrize("method", ["cholesky", "zca", "zca_cor", "pca", "pca_cor"])
def test_the_unchecked_path_is_the_checked_one_without_its_checks(method):
    from helpers.whitening import unchecked_whitening_matrix

    rng = np.random.default_rng(3)
    A = rng.normal(size=(40, 6))
    sigma = np.cov(A, rowvar=False)
    np.testing.assert_array_equal(unchecked_whitening_matrix(sigma, method), whitening_matrix(sigma, method))
    with pytest.raises(np.linalg.LinAlgError):                   # no message of its own: the caller checked
        unchecked_whitening_matrix(np.zeros((3, 3)), "cholesky")
