"""helpers.studies.srivastava_rao_2016.pca_checks: the PCA of Section 2.2.1 (Eqs 1-5) and the scale invariance."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import mahalanobis
from sklearn.decomposition import PCA

from helpers.studies.srivastava_rao_2016.pca_checks import (
    below,
    fit_pca,
    pca_claims,
    pca_residuals,
    scale_invariance,
    sq_mahalanobis,
)


def test_below_prints_a_bound_for_rounding_noise():
    assert below(4.4e-16, 1e-12) == "below 1e-12"
    assert below(-3e-13, 1e-12) == "below 1e-12"
    assert below(0.0, 1e-8) == "below 1e-08"
    assert below(2.5e-9, 1e-12) == "2.5e-09"


def test_fit_pca_keeps_the_components_sklearn_keeps(rng):
    X = rng.normal(size=(60, 80)) * np.linspace(3, 0.1, 80)
    pca, Z_train, Z_test, seconds = fit_pca(X[:45], X[45:], 0.9, dtype=np.float64, verbose=False)
    ref = PCA(0.9, svd_solver="full").fit(X[:45])
    assert pca.n_components_ == ref.n_components_
    np.testing.assert_allclose(pca.explained_variance_, ref.explained_variance_, rtol=1e-9)
    np.testing.assert_allclose(np.abs(Z_test), np.abs(ref.transform(X[45:])), atol=1e-8)
    assert Z_train.shape == (45, ref.n_components_) and seconds >= 0


def test_pca_residuals_of_an_exact_fit_are_rounding_noise(rng):
    X = sp.random(40, 30, density=0.3, random_state=np.random.default_rng(1), format="csr")
    pca, Z, _, _ = fit_pca(X, X[:5], 0.9, dtype=np.float64, verbose=False)
    r = pca_residuals(pca, X, Z, block=4)  # several blocks
    assert set(r) == {"eq1", "eq2", "eq4", "eq5_diag", "eq5_offdiag"}
    assert max(r.values()) < 1e-10
    # the residual of Eq. 4 sees a wrong axis: swap two of them
    pca.components_[[0, 1]] = pca.components_[[1, 0]]
    assert pca_residuals(pca, X, Z)["eq4"] > 0.1


def test_pca_residuals_measure_each_equation(rng):
    X = rng.normal(size=(50, 6))
    pca = PCA(3).fit(X)
    Z = pca.transform(X)
    pca.mean_ = pca.mean_ + 1e-3  # Eq. 1 off by 1e-3
    assert pca_residuals(pca, X, Z)["eq1"] == pytest.approx(1e-3)
    r = pca_residuals(PCA(3).fit(X), X, Z + 0.5)  # scores off-centre: Eq. 2
    assert r["eq2"] == pytest.approx(0.5)


def test_pca_claims_apply_each_bound():
    exact = {"eq1": 0.0, "eq2": 1e-16, "eq4": 2e-4, "eq5_diag": 1e-5, "eq5_offdiag": 1e-7}
    claims = pca_claims(exact, [5.0, 2.0, 1.0], 3, 7774, 18027)
    assert all((a["holds"] if isinstance(a, dict) else a[0]) for a in claims.values())
    assert claims["eq1"][1] == ("GramPCA's mean is the column mean of the training matrix (largest difference "
                                "below 1e-12)")
    assert claims["claim.covariance-needs-dr"][1].endswith("rank at most n - 1 = 7,774: it has no inverse, and a "
                                                           "dense copy would take 2.6 GB")
    assert "how" in claims["eq3"]
    off = pca_claims({**exact, "eq4": 2e-3, "eq5_offdiag": 1e-4}, [1.0, 2.0], 3, 2, 2)
    assert [k for k, a in off.items() if not (a["holds"] if isinstance(a, dict) else a[0])] == [
        "eq3", "eq4", "eq5", "pca.definition", "claim.covariance-needs-dr"]


def test_sq_mahalanobis_equals_scipy(rng):
    S = np.cov(rng.normal(size=(30, 4)), rowvar=False)
    P = rng.normal(size=(5, 4))
    ref = [mahalanobis(p, np.zeros(4), np.linalg.inv(S)) ** 2 for p in P]
    np.testing.assert_allclose(sq_mahalanobis(P, S), ref, rtol=1e-10)


def test_scale_invariance_of_the_sample_covariance_only(rng):
    Z = rng.normal(size=(80, 6)) * [1, 2, 3, 4, 5, 6]
    change = scale_invariance(Z, random_state=3, n_coordinates=4, n_pairs=10)
    assert change["sample"] < 1e-12
    assert 0.01 < change["ledoit_wolf"] < 1
    # the Euclidean change, from the same units
    units = np.random.default_rng(3).uniform(0.1, 10, size=4)
    pairs = Z[:10, :4] - Z[10:20, :4]
    expected = np.max(np.abs(np.linalg.norm(pairs * units, axis=1) / np.linalg.norm(pairs, axis=1) - 1))
    assert change["euclidean"] == pytest.approx(expected)
    assert set(scale_invariance(Z, estimators=("oas",), n_coordinates=3)) == {"oas", "euclidean"}
