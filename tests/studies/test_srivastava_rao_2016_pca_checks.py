"""helpers.studies.srivastava_rao_2016.pca_checks: the PCA of Section 2.2.1 (Eqs 1-5) and the scale invariance."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import mahalanobis
from sklearn.decomposition import PCA

from helpers.gram import GramPCA
from helpers.studies.srivastava_rao_2016.pca_checks import (
    components_by_vocabulary,
    fit_pca,
    least_squares,
    pca_claims,
    pca_residuals,
    scale_invariance,
    sq_mahalanobis,
)


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
    # Eq. 3 as printed (B.B^T, n x n) is not the l x l covariance, and line 183's order needs an invertible one
    assert [k for k, (holds, _) in claims.items() if not holds] == ["eq3", "order.transform-reduce"]
    assert claims["eq1"][1] == ("GramPCA's mean is the column mean of the training matrix (largest difference "
                                "< 1e-12)")
    assert claims["claim.covariance-needs-dr"][1].endswith("rank at most n - 1 = 7,774: it has no inverse, and a "
                                                           "dense copy would take 2.6 GB")
    assert claims["eq3"][1].startswith("as printed, B.B^T is the 7,775 x 7,775 Gram matrix of the documents")
    assert "the axes are eigenvectors of B'B / (n - 1)" in claims["eq3"][1]
    assert "at least 10,253 zero eigenvalues (rank at most 7,774)" in claims["order.transform-reduce"][1]
    off = pca_claims({**exact, "eq4": 2e-3, "eq5_offdiag": 1e-4}, [1.0, 2.0], 3, 2, 2)
    assert [k for k, (holds, _) in off.items() if not holds] == ["eq3", "eq4", "eq5", "pca.definition",
                                                                 "claim.covariance-needs-dr"]
    assert off["order.transform-reduce"][0]  # a full-rank covariance could be whitened first
    assert "but the axes miss it (relative residual 2.0e-03)" in off["eq3"][1]
    assert "pca.least-squares" not in claims
    good = {10: {"principal": 0.80, "random": 0.97, "tilted": 0.84}}
    assert pca_claims(exact, [5.0, 2.0, 1.0], 3, 7774, 18027, good)["pca.least-squares"] == (
        True, "mean squared distance of the training documents to their projection: on the first 10 axes 0.800, on "
              "random 10-dimensional subspaces at least 0.970, on slightly tilted axes at least 0.840")
    bad = {10: {"principal": 0.85, "random": 0.97, "tilted": 0.84}}
    assert not pca_claims(exact, [5.0, 2.0, 1.0], 3, 7774, 18027, bad)["pca.least-squares"][0]


def test_least_squares_equals_the_discarded_variance_and_beats_other_subspaces(rng):
    X = sp.random(60, 25, density=0.4, random_state=np.random.default_rng(2), format="csr")
    pca = GramPCA(8).fit(X)
    out = least_squares(pca, X, dims=[2, 8], n_others=4, random_state=1)
    dense = X.toarray()
    ref = PCA().fit(dense)
    n = dense.shape[0]
    for d in (2, 8):  # mean squared distance = (n - 1) / n x the variance of the discarded components
        assert out[d]["principal"] == pytest.approx((n - 1) / n * ref.explained_variance_[d:].sum(), rel=1e-9)
        assert out[d]["principal"] < out[d]["tilted"] < out[d]["random"]


def test_components_by_vocabulary_equals_sklearn_pca_on_the_kept_stems(rng):
    counts = sp.random(80, 30, density=0.3, random_state=np.random.default_rng(4), format="csr")
    counts.data = np.ceil(counts.data * 5)
    out = components_by_vocabulary(counts, [10, 30], 0.9)
    assert out.index.tolist() == [10, 30] and out.columns.tolist() == ["components", "empty documents"]
    dense = counts.toarray()
    df = (dense > 0).sum(axis=0)
    W = dense * np.log2(80 / np.maximum(df, 1))
    for n in (10, 30):
        kept = W[:, np.argsort(-W.sum(axis=0), kind="stable")[:n]]
        norms = np.linalg.norm(kept, axis=1, keepdims=True)
        unit = np.divide(kept, norms, out=np.zeros_like(kept), where=norms > 0)
        assert out.loc[n, "components"] == PCA(0.9, svd_solver="full").fit(unit).n_components_
        assert out.loc[n, "empty documents"] == int((norms == 0).sum())


def test_components_by_vocabulary_leaves_its_input_as_it_was():
    # integer counts with unsorted indices (as CountVectorizer leaves them): a float copy that shared the index
    # arrays would sort them under the integer data, and naive Bayes on the counts would then change
    counts = sp.csr_matrix((np.array([3, 1, 2, 5]), np.array([2, 0, 1, 0]), np.array([0, 2, 4])), shape=(2, 3))
    assert not counts.has_sorted_indices
    before = counts.toarray()
    components_by_vocabulary(counts, [2, 3], 0.9)
    np.testing.assert_array_equal(counts.toarray(), before)
    assert counts.indices.tolist() == [2, 0, 1, 0]


def test_components_by_vocabulary_bad_input():
    with pytest.raises(ValueError, match="n_keywords"):
        components_by_vocabulary(np.ones((3, 4)), [5])  # more keywords than stems
    with pytest.raises(ValueError, match="variance"):
        components_by_vocabulary(np.eye(4), [2], variance=1.5)


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
