"""Tests of helpers.gram: PCA through the Gram matrix and shrunk covariances from inner products,
against scikit-learn and dense inverses."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import mahalanobis
from sklearn.covariance import LedoitWolf, ledoit_wolf_shrinkage
from sklearn.decomposition import PCA

from helpers.gram import (
    GramPCA,
    ResidualCovariance,
    ledoit_wolf_shrinkage_gram,
    shrunk_residual_covariance,
)
from helpers.whitening import estimate_covariance


@pytest.mark.parametrize("sparse", [False, True])
def test_gram_pca_agrees_with_sklearn_pca(rng, sparse):
    X = rng.normal(size=(40, 120)) * np.geomspace(5, 0.1, 120)
    Xin = sp.csr_matrix(X) if sparse else X
    ours = GramPCA(5).fit(Xin)
    ref = PCA(5, svd_solver="full").fit(X)
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-8)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-8)
    # axes agree up to sign
    np.testing.assert_allclose(np.abs(ours.components_ @ ref.components_.T), np.eye(5), atol=1e-8)
    np.testing.assert_allclose(np.abs(ours.transform(Xin)), np.abs(ref.transform(X)), atol=1e-8)
    assert ours.all_explained_variance_ratio_.sum() == pytest.approx(1.0)
    assert ours.n_components_for(0.9) == PCA(0.9, svd_solver="full").fit(X).n_components_

@pytest.mark.parametrize("fraction", [0.5, 0.9, 0.99])
def test_gram_pca_variance_fraction_matches_sklearn_and_respects_cap(rng, fraction):
    X = rng.normal(size=(40, 120)) * np.geomspace(5, 0.1, 120)
    needed = PCA(fraction, svd_solver="full").fit(X).n_components_
    pca = GramPCA(fraction).fit(sp.csr_matrix(X))
    assert pca.n_components_ == needed == pca.n_components_for(fraction)
    assert pca.components_.shape == (needed, 120) and pca.explained_variance_ratio_.sum() >= fraction
    capped = GramPCA(fraction, max_components=3).fit(X)
    assert capped.n_components_ == min(needed, 3) and capped.n_components_for(fraction) == needed
    assert GramPCA(50, max_components=3).fit(X).n_components_ == 3
    assert GramPCA(500).fit(X).n_components_ == 39  # at most n - 1

def test_gram_pca_float32_and_blocks_agree_with_float64(rng):
    X = sp.random(60, 200, density=0.1, random_state=1, format="csr")
    ref = GramPCA(5).fit(X)
    small_blocks = GramPCA(5)
    small_blocks._block_rows = 7  # the Gram matrix in 9 blocks
    small_blocks.fit(X)
    np.testing.assert_array_equal(small_blocks.explained_variance_, ref.explained_variance_)
    single = GramPCA(5, dtype=np.float32).fit(X)
    np.testing.assert_allclose(single.explained_variance_, ref.explained_variance_, rtol=1e-4)
    np.testing.assert_allclose(np.abs(single.transform(X)), np.abs(ref.transform(X)), atol=1e-4)

def test_gram_pca_whitened_scores_have_identity_covariance(rng):
    X = rng.normal(size=(50, 30)) @ rng.normal(size=(30, 30))
    Z = GramPCA(10, whiten=True).fit_transform(X)
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(10), atol=1e-8)

def test_gram_pca_bad_inputs():
    for bad in [0, -2, 1.5, 0.0, "0.9", float("nan")]:
        with pytest.raises(ValueError, match=r"The 'n_components' parameter of GramPCA must be an int in the range "
                                             r"\[1, inf\) or a float in the range \(0\.0, 1\.0\]\. Got .* instead"):
            GramPCA(bad).fit(np.eye(3))
    with pytest.raises(ValueError, match=r"The 'max_components' parameter of GramPCA must be an int in the range "
                                         r"\[1, inf\) or None\. Got 0 instead"):
        GramPCA(0.9, max_components=0).fit(np.eye(3))
    # scikit-learn's integer intervals take True as 1: these checks come after the constraints
    with pytest.raises(ValueError, match=r"n_components must be an integer >= 1 or a number in \(0, 1\], e\.g\. "
                                         r".*; got True"):
        GramPCA(True).fit(np.eye(3))
    with pytest.raises(ValueError, match=r"max_components must be None or an integer >= 1, e\.g\. .*; got True"):
        GramPCA(0.9, max_components=True).fit(np.eye(3))
    with pytest.raises(ValueError, match=r"fraction must be a number in \(0, 1\], e\.g\. 0\.9.*got 1\.5"):
        GramPCA(1).fit(np.eye(3) + np.arange(3)).n_components_for(1.5)

# ---------------------------------------------------------------------------- shrunk covariances

@pytest.mark.parametrize("n, p", [(5, 40), (30, 6), (12, 12)])
def test_ledoit_wolf_from_gram_equals_sklearn(rng, n, p):
    X = rng.normal(size=(n, p)) * rng.uniform(0.1, 3.0, size=p)
    Xc = X - X.mean(axis=0)
    assert ledoit_wolf_shrinkage_gram(Xc @ Xc.T, p) == pytest.approx(ledoit_wolf_shrinkage(X), rel=1e-10)

def random_groups(rng, sizes, p):
    X = np.vstack([rng.normal(size=(n, p)) * rng.uniform(0.2, 3.0, size=p) + 3 * i for i, n in enumerate(sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)

@pytest.mark.parametrize("estimator", ["ledoit_wolf", 0.3])
def test_one_group_covariance_is_estimate_covariance(rng, estimator):
    X = rng.normal(size=(9, 20)) @ rng.normal(size=(20, 20))  # fewer samples than dimensions
    cov = ResidualCovariance(estimator).fit(X @ X.T, np.zeros(9), 20)
    np.testing.assert_allclose(cov.dense_covariance(X), estimate_covariance(X, estimator), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(
        shrunk_residual_covariance(X - X.mean(0), 1, estimator), cov.dense_covariance(X), rtol=1e-10
    )

@pytest.mark.parametrize("sizes, p", [([6, 9, 4], 25), ([30, 40], 5)])
def test_woodbury_distances_equal_dense_mahalanobis(rng, sizes, p):
    X, g = random_groups(rng, sizes, p)
    cov = ResidualCovariance("ledoit_wolf").fit(X @ X.T, g, p)
    S = cov.dense_covariance(X)
    means = np.array([X[g == i].mean(axis=0) for i in range(len(sizes))])
    np.testing.assert_allclose(S, shrunk_residual_covariance(X - means[g], len(sizes)), rtol=1e-10)
    VI = np.linalg.inv(S)
    Q = rng.normal(size=(4, p)) * 2
    T_q, T_x = cov.project(Q @ X.T), cov.project(X @ X.T)
    D = cov.sq_distances(T_q, (Q**2).sum(1), T_x, (X**2).sum(1), Q @ X.T)
    ref = np.array([[mahalanobis(q, x, VI) ** 2 for x in X] for q in Q])
    np.testing.assert_allclose(D, ref, rtol=1e-8)
    to_means = cov.sq_distances_to_means(Q @ X.T, (Q**2).sum(1))
    np.testing.assert_allclose(to_means, [[mahalanobis(q, m, VI) ** 2 for m in means] for q in Q], rtol=1e-8)

def test_full_shrinkage_is_scaled_euclidean(rng):
    X, g = random_groups(rng, [5, 5], 3)
    cov = ResidualCovariance(1.0).fit(X @ X.T, g, 3)
    assert cov.chol_ is None and cov.b_ == 0.0
    Q = rng.normal(size=(2, 3))
    D = cov.sq_distances(cov.project(Q @ X.T), (Q**2).sum(1), cov.project(X @ X.T), (X**2).sum(1), Q @ X.T)
    np.testing.assert_allclose(D, ((Q[:, None] - X[None]) ** 2).sum(-1) / cov.a_)

def test_residual_covariance_bad_inputs(rng):
    X = rng.normal(size=(4, 6))
    for bad in ["sample", 0.0, 1.5, True]:
        with pytest.raises(ValueError, match=r"covariance must be 'ledoit_wolf' or a float shrinkage in \(0, 1\]; got"):
            ResidualCovariance(bad).fit(X @ X.T, np.zeros(4), 6)
    with pytest.raises(ValueError, match="one label per member: 4 members"):
        ResidualCovariance().fit(X @ X.T, np.zeros(3), 6)
    with pytest.raises(ValueError, match="no residual degrees of freedom"):
        ResidualCovariance().fit(X @ X.T, np.arange(4), 6)
    with pytest.raises(ValueError, match="no spread"):
        ResidualCovariance().fit(np.ones((3, 3)), np.zeros(3), 6)  # three identical members
    with pytest.raises(ValueError, match="square matrix"):
        ResidualCovariance().fit(X, np.zeros(4), 6)
    cov = ResidualCovariance().fit(X @ X.T, np.zeros(4), 6)
    with pytest.raises(ValueError, match="inner products with the 4 members"):
        cov.project(np.ones((2, 3)))


def test_an_estimator_object_is_refused_with_the_reason(rng):
    X = rng.normal(size=(6, 10))
    with pytest.raises(ValueError, match=r"covariance must be 'ledoit_wolf' or a float shrinkage in \(0, 1\]; got the "
                                         r"estimator LedoitWolf\(\).*inner products.*pass 'ledoit_wolf'"):
        ResidualCovariance(LedoitWolf()).fit(X @ X.T, np.zeros(6), 10)
    with pytest.raises(ValueError, match=r"got the estimator LedoitWolf\(\)"):
        shrunk_residual_covariance(X - X.mean(axis=0), 1, LedoitWolf())
    with pytest.raises(ValueError, match=r"got 'oas'.*'oas' has no inner-product form"):
        shrunk_residual_covariance(X - X.mean(axis=0), 1, "oas")


# ---------------------------------------------------------------------------- GramPCA as a transformer

@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "dok"])
def test_gram_pca_takes_every_sparse_format(rng, fmt):
    X = sp.random(30, 60, density=0.2, random_state=3, format="csr")
    ref = GramPCA(4).fit(X)
    other = GramPCA(4).fit(X.asformat(fmt))
    np.testing.assert_array_equal(other.components_, ref.components_)
    np.testing.assert_allclose(other.transform(X.asformat(fmt)), ref.transform(X), atol=1e-12)
    np.testing.assert_allclose(GramPCA(4).fit(sp.csr_array(X)).transform(X), ref.transform(X), atol=1e-12)


def test_gram_pca_keeps_at_most_n_features_components(rng):
    X = rng.normal(size=(30, 4)) * [3.0, 2.0, 1.0, 0.5]  # more rows than features: rank 4
    pca = GramPCA().fit(X)  # asks for 100
    assert pca.n_components_ == 4
    np.testing.assert_allclose(pca.explained_variance_, PCA(4).fit(X).explained_variance_, rtol=1e-10)
    with pytest.raises(ValueError, match="no variance: its 5 rows are identical"):
        GramPCA(2).fit(np.ones((5, 3)))


def test_gram_pca_names_its_outputs(rng):
    import pandas as pd

    frame = pd.DataFrame(rng.normal(size=(20, 6)), columns=[f"w{i}" for i in range(6)])
    pca = GramPCA(3).fit(frame)
    assert pca.get_feature_names_out().tolist() == ["pca0", "pca1", "pca2"]
    assert pca.feature_names_in_.tolist() == list(frame.columns)
    with pytest.raises(ValueError, match="input_features is not equal to feature_names_in_"):
        pca.get_feature_names_out(["a"] * 6)
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    out = make_pipeline(GramPCA(2), StandardScaler()).set_output(transform="pandas").fit_transform(frame)
    assert list(out.columns) == ["pca0", "pca1"]


@pytest.mark.parametrize("kind", ["dense", "csr", "csc", "coo", "csr_array"])
def test_gram_pca_with_more_rows_than_features_uses_the_scatter_matrix(rng, kind):
    # n > p: the p x p scatter matrix, never an n x n Gram; same answers as scikit-learn's PCA
    X = rng.normal(size=(600, 6)) @ rng.normal(size=(6, 6)) + 3.0
    Xin = {"dense": X, "csr": sp.csr_matrix(X), "csc": sp.csc_matrix(X), "coo": sp.coo_matrix(X),
           "csr_array": sp.csr_array(X)}[kind]
    ours = GramPCA(4).fit(Xin)
    ref = PCA(4, svd_solver="full").fit(X)
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-10)
    signs = np.sign(np.sum(ours.components_ * ref.components_, axis=1))
    np.testing.assert_allclose(ours.components_ * signs[:, None], ref.components_, atol=1e-10)
    np.testing.assert_allclose(ours.transform(Xin) * signs, ref.transform(X), atol=1e-9)
    # all n eigenvalues, the n - p beyond the rank being 0, as the Gram route gives them
    assert ours.all_explained_variance_ratio_.shape == (600,)
    assert np.all(ours.all_explained_variance_ratio_[6:] == 0)
    assert GramPCA(0.95).fit(Xin).n_components_ == PCA(0.95, svd_solver="full").fit(X).n_components_


def test_gram_pca_routes_agree_at_the_boundary(rng):
    # the same data through both routes (n = p + 1 uses the scatter matrix, n = p the Gram matrix)
    X = rng.normal(size=(31, 30))
    a, b = GramPCA(5).fit(X), GramPCA(5).fit(X[:30])
    ref_a, ref_b = PCA(5, svd_solver="full").fit(X), PCA(5, svd_solver="full").fit(X[:30])
    for ours, ref in ((a, ref_a), (b, ref_b)):
        np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-9)
        np.testing.assert_allclose(np.abs(ours.components_ @ ref.components_.T), np.eye(5), atol=1e-8)


def test_gram_pca_memory_does_not_grow_with_n_squared(rng):
    # 20,000 rows of 5 features: an n x n Gram would be 3 GiB; the scatter route stays near the data
    import tracemalloc

    X = rng.normal(size=(20_000, 5))
    tracemalloc.start()
    try:
        GramPCA(2).fit(X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6 * X.nbytes


@pytest.mark.parametrize("order", ["C", "F"])
def test_argmax_abs_by_row_is_numpys_and_leaves_the_matrix(rng, order):
    from helpers.gram import _argmax_abs_by_row

    C = np.asarray(rng.integers(-3, 4, size=(150, 40)).astype(float), order=order)   # many ties: the first wins
    kept = C.copy()
    np.testing.assert_array_equal(_argmax_abs_by_row(C, rows=16), np.abs(C).argmax(axis=1))
    np.testing.assert_array_equal(C, kept)


def test_woodbury_sq_distances_equal_the_formula_bit_for_bit(rng):
    # |q - p|^2 - |t(q) - t(p)|^2, clipped at 0, over a: computed in place, the same numbers as written out
    from helpers._arrays import row_sq_norms, sq_distances_from_inner, sq_euclidean

    # 2,000 queries against 40 points: several blocks of rows (about 32,768 entries each)
    X, Q = rng.normal(size=(40, 30)), rng.normal(size=(2000, 30))
    cov = ResidualCovariance(0.3).fit(X @ X.T, np.repeat([0, 1, 2, 3], 10), n_features=30)
    T_q, T_p = cov.project(Q @ X.T), cov.project(X @ X.T)
    q_sq, p_sq, G = row_sq_norms(Q), row_sq_norms(X), Q @ X.T
    ref = np.maximum(sq_distances_from_inner(q_sq, p_sq, G, clip=False) - sq_euclidean(T_q, T_p, clip=False),
                     0.0) / cov.a_
    np.testing.assert_array_equal(cov.sq_distances(T_q, q_sq, T_p, p_sq, G), ref)
    d_self = cov.sq_distances(T_p, p_sq, T_p, p_sq, X @ X.T)
    assert (d_self >= 0).all() and np.abs(np.diag(d_self)).max() < 1e-10
