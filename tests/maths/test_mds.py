"""Classical MDS from distances and similarities (lecture notes section 6.2): the notes' worked
examples and printed R output, identities, and agreement with scikit-learn and R's cmdscale
conventions. The binary coefficients are tested in ``test_binary.py``, the MNIST loader in
``tests/data/test_mnist.py``."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.manifold import ClassicalMDS

from helpers import load_animals
from helpers.binary import binary_similarity
from helpers.mds import (
    cailliez_constant,
    check_similarity_matrix,
    classical_mds,
    double_center,
    pca_resampling_disparities,
    place_new_points,
    proposition_6_2_residuals,
    similarity_to_distance,
)

# --- Example 5: the notes' five creatures -----------------------------------------------------

F = Fraction
NAMES = ["Lion", "Giraffe", "Cow", "Sheep", "Human"]
# The data matrix typeset on line 83 of the notes (= the R matrix of lines 87-91).
NOTES_DATA = [[1, 1, 0, 0, 1, 1], [1, 1, 1, 0, 0, 1], [1, 0, 0, 1, 0, 1], [0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0]]
# The R vector of lines 87-88, filled by row into 5 rows (nr=5, byrow=TRUE).
R_VECTOR = [1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0]
# The notes' R output, lines 112-116 (SMC) and 136-140 (Jaccard), as printed.
R_SMC = [
    [1.0000000, 0.6666667, 0.5000000, 0.3333333, 0.5000000],
    [0.6666667, 1.0000000, 0.5000000, 0.3333333, 0.1666667],
    [0.5000000, 0.5000000, 1.0000000, 0.8333333, 0.3333333],
    [0.3333333, 0.3333333, 0.8333333, 1.0000000, 0.5000000],
    [0.5000000, 0.1666667, 0.3333333, 0.5000000, 1.0000000],
]
R_JACCARD = [
    [1.00, 0.6, 0.4000000, 0.2000000, 0.25],
    [0.60, 1.0, 0.4000000, 0.2000000, 0.00],
    [0.40, 0.4, 1.0000000, 0.6666667, 0.00],
    [0.20, 0.2, 0.6666667, 1.0000000, 0.00],
    [0.25, 0.0, 0.0000000, 0.0000000, 1.00],
]
# The same matrices as exact fractions: SMC = matches / 6, Jaccard = a / (a + b + c).
EXACT_SMC = [
    [1, F(2, 3), F(1, 2), F(1, 3), F(1, 2)],
    [F(2, 3), 1, F(1, 2), F(1, 3), F(1, 6)],
    [F(1, 2), F(1, 2), 1, F(5, 6), F(1, 3)],
    [F(1, 3), F(1, 3), F(5, 6), 1, F(1, 2)],
    [F(1, 2), F(1, 6), F(1, 3), F(1, 2), 1],
]
EXACT_JACCARD = [
    [1, F(3, 5), F(2, 5), F(1, 5), F(1, 4)],
    [F(3, 5), 1, F(2, 5), F(1, 5), 0],
    [F(2, 5), F(2, 5), 1, F(2, 3), 0],
    [F(1, 5), F(1, 5), F(2, 3), 1, 0],
    [F(1, 4), 0, 0, 0, 1],
]
# The notes' typeset SMC matrix F (line 83), as printed: its Sheep column is wrong in four rows.
TYPESET_F = [
    [1, F(2, 3), F(1, 2), F(1, 2), F(1, 2)],
    [F(2, 3), 1, F(1, 2), F(1, 2), F(1, 6)],
    [F(1, 2), F(1, 2), 1, 1, F(1, 3)],
    [F(1, 3), F(1, 3), F(5, 6), 1, F(1, 2)],
    [F(1, 2), F(1, 6), F(1, 3), F(1, 3), 1],
]


def test_load_animals_is_the_notes_table():
    animals = load_animals()
    assert animals.index.tolist() == NAMES
    assert animals.columns.tolist() == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert animals.to_numpy().tolist() == NOTES_DATA
    assert np.array_equal(np.array(R_VECTOR).reshape(5, 6), animals.to_numpy())  # the R code agrees


@pytest.mark.parametrize(
    "coefficient, printed, exact", [("simple_matching", R_SMC, EXACT_SMC), ("jaccard", R_JACCARD, EXACT_JACCARD)]
)
def test_animals_similarity_matrices_match_the_notes_r_output(coefficient, printed, exact):
    S = binary_similarity(load_animals().to_numpy(), coefficient=coefficient)
    assert_allclose(S, np.array(exact, dtype=float), rtol=0, atol=1e-15)
    assert_allclose(S, np.array(printed), rtol=0, atol=5e-8)  # R prints 7 decimals


def test_animals_smc_by_the_notes_routes():
    A = load_animals().to_numpy()
    by_function = np.array([[np.sum(x == y) / len(x) for y in A] for x in A])  # SMC() and outer(), lines 93-103
    by_manhattan = (6 - squareform(pdist(A, "cityblock"))) / 6  # lines 109-110
    S = binary_similarity(A, coefficient="simple_matching")
    assert_allclose(by_function, S, atol=1e-15)
    assert_allclose(by_manhattan, S, atol=1e-15)
    assert_allclose(
        1 - squareform(pdist(A.astype(bool), "jaccard")), binary_similarity(A, coefficient="jaccard"), atol=1e-15
    )


def test_notes_typeset_f_is_wrong_in_the_sheep_column_and_not_symmetric():
    S = binary_similarity(load_animals().to_numpy(), coefficient="simple_matching")
    typeset = np.array(TYPESET_F, dtype=float)
    wrong = {(NAMES[i], NAMES[j]) for i, j in np.argwhere(~np.isclose(typeset, S))}
    assert wrong == {("Lion", "Sheep"), ("Giraffe", "Sheep"), ("Cow", "Sheep"), ("Human", "Sheep")}
    assert_allclose(typeset[3], S[3])  # the typeset Sheep row is right
    with pytest.raises(ValueError, match=r"not symmetric: 4 pair\(s\).*\(Lion, Sheep\): 0\.5 vs 0\.3333"):
        check_similarity_matrix(typeset, labels=NAMES)
    assert check_similarity_matrix(S, labels=NAMES)["psd"]
    # the wrong entries are what a Sheep with Cow's attributes would give
    as_cow = load_animals().to_numpy().copy()
    as_cow[3] = as_cow[2]
    assert_allclose(binary_similarity(as_cow, coefficient="simple_matching")[[0, 1, 2, 4], 3], typeset[[0, 1, 2, 4], 3])


def test_animals_mds_eigenvalues_and_gof():
    # cmdscale(FtoD(F_SMC), eig = TRUE): four positive eigenvalues, GOF = (l1 + l2) / sum
    S = binary_similarity(load_animals().to_numpy(), coefficient="simple_matching")
    res = classical_mds(F=S)
    B = double_center(S)
    ev = np.sort(np.linalg.eigvalsh(B))[::-1]
    assert_allclose(res.eigenvalues, ev, atol=1e-12)
    assert res.n_negative == 0 and res.gof[0] == pytest.approx(ev[:2].sum() / ev[:4].sum())
    assert res.eigenvalues.sum() == pytest.approx(np.trace(B)) == pytest.approx(5 * (1 - S.mean()))


# --- Definition 6.4, (6.6) and Proposition 6.2 --------------------------------------------------


def test_similarity_to_distance_formula():
    Fm = np.array([[4.0, 1, 0], [1, 3, 2], [0, 2, 5]])
    D = similarity_to_distance(Fm)
    assert D[0, 1] == pytest.approx(np.sqrt(4 + 3 - 2))
    assert D[1, 2] == pytest.approx(np.sqrt(3 + 5 - 4))
    assert np.all(np.diag(D) == 0)


@given(arrays(np.float64, (7, 3), elements=st.floats(-5, 5)).filter(lambda X: np.all(np.linalg.norm(X, axis=1) > 1e-3)))
def test_proposition_6_2_hfh_equals_minus_half_hd2h(X):
    # cosine similarities F (unit rows, so f_ij <= f_ii = 1): B = H F H = -1/2 H (D o D) H, D from (6.6)
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    Fm = U @ U.T
    D = similarity_to_distance(Fm)
    assert_allclose(double_center(Fm), -0.5 * double_center(D**2), atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(arrays(np.int8, (6, 8), elements=st.integers(0, 1)).filter(lambda X: np.all(X.sum(axis=1) > 0)),
       st.sampled_from(["simple_matching", "jaccard"]))
def test_proposition_6_2_every_step_on_binary_similarities(X, coefficient):
    # SMC and Jaccard matrices are positive semi-definite similarity matrices: every step of the proof holds
    r = proposition_6_2_residuals(binary_similarity(X, coefficient=coefficient))
    assert r["min f_ii + f_jj - 2 f_ij"] >= 0 and r["min eigenvalue of HFH"] > -1e-12
    assert all(v < 1e-12 for k, v in r.items() if not k.startswith("min"))


def test_proposition_6_2_residuals_sees_a_not_psd_similarity():
    # a similarity matrix (Definition 6.4) that is not PSD: the identities hold, HFH is indefinite, D not Euclidean
    Fm = np.array([[1, 0.9, 0.9], [0.9, 1, -0.9], [0.9, -0.9, 1]])
    with pytest.warns(UserWarning, match="not positive semi-definite"):
        assert not check_similarity_matrix(Fm)["psd"]
    r = proposition_6_2_residuals(Fm)
    assert r["(6.7)"] < 1e-12 and r["b_ij"] < 1e-12
    assert r["min eigenvalue of HFH"] < -0.1 and r["(6.6) Euclidean"] > 0.1


def test_gram_matrix_that_breaks_definition_6_4_is_refused():
    X = np.array([[1.0, 0], [3, 0]])  # f_12 = 3 > f_11 = 1
    with pytest.raises(ValueError, match=r"f_ij <= f_ii"):
        similarity_to_distance(X @ X.T)


def test_double_center_matches_h_m_h():
    M = np.arange(16, dtype=float).reshape(4, 4) ** 1.5
    H = np.eye(4) - np.ones((4, 4)) / 4
    assert_allclose(double_center(M), H @ M @ H, atol=1e-12)


def test_mds_of_similarity_equals_mds_of_its_distances():
    S = binary_similarity(load_animals().to_numpy(), coefficient="jaccard")
    a = classical_mds(F=S)
    b = classical_mds(similarity_to_distance(S))
    assert_allclose(a.embedding, b.embedding, atol=1e-12)
    assert_allclose(a.eigenvalues, b.eigenvalues, atol=1e-12)


# --- comparing maps: PCA resampling noise ------------------------------------------------------


def test_pca_resampling_disparities():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(150, 4)) * [4.0, 2.0, 1.0, 0.5]
    d = pca_resampling_disparities(X, n_resamples=15, random_state=3)
    assert d.shape == (15,) and np.all((d >= 0) & (d <= 1))
    from scipy.spatial import procrustes
    from sklearn.decomposition import PCA

    reference = PCA(2, svd_solver="full").fit_transform(X)
    rows = np.random.default_rng(3).integers(0, 150, 150)            # the first resample of random_state 3
    refit = PCA(2, svd_solver="randomized", random_state=3).fit(X[rows])
    assert d[0] == pytest.approx(procrustes(reference, refit.transform(X))[2], rel=1e-12)
    assert_allclose(d, pca_resampling_disparities(X, n_resamples=15, random_state=3))  # seeded
    iso = rng.normal(size=(150, 4))  # no preferred 2-D plane: refits wander far more
    assert np.median(pca_resampling_disparities(iso, n_resamples=15)) > 5 * np.median(d)
    with pytest.raises(ValueError, match=r"n_resamples must be an integer >= 1, e\.g\. n_resamples=100; got 0"):
        pca_resampling_disparities(X, n_resamples=0)
    with pytest.raises(ValueError, match=r"n_components must be an integer in \[1, 3\] \(for X of shape \(150, 4\)\)"):
        pca_resampling_disparities(X, n_components=4)


# --- classical MDS: invariants, R's diagnostics, scikit-learn ----------------------------------


def test_equilateral_triangle_keeps_distances():
    D = np.ones((3, 3)) - np.eye(3)
    res = classical_mds(D, n_components=2)
    assert_allclose(pdist(res.embedding), [1, 1, 1], atol=1e-12)
    assert res.n_negative == 0 and res.gof == pytest.approx((1.0, 1.0))


def test_eigenvalues_full_spectrum_and_gof_as_cmdscale():
    # a non-Euclidean dissimilarity: the L1 distance of random points
    rng = np.random.default_rng(1)
    D = cdist(*(2 * [rng.normal(size=(12, 4))]), "cityblock")
    res = classical_mds(D, n_components=2)
    B = -0.5 * double_center(D**2)
    ev = np.sort(np.linalg.eigvalsh(B))[::-1]
    assert_allclose(res.eigenvalues, ev, atol=1e-10)
    assert res.eigenvalues.sum() == pytest.approx(res.trace)
    # R: GOF = sum(ev[1:k]) / c(sum(abs(evalus)), sum(pmax(evalus, 0)))
    assert res.gof == pytest.approx((ev[:2].sum() / np.abs(ev).sum(), ev[:2].sum() / ev.clip(0).sum()))
    assert res.n_negative == int((ev < -1e-10 * np.abs(ev).max()).sum()) > 0
    assert 0 < res.negative_share < 1


def test_sign_convention_largest_entry_positive():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 3)) * [5, 2, 1]
    E = classical_mds(cdist(X, X), n_components=3).embedding
    idx = np.argmax(np.abs(E), axis=0)
    assert np.all(E[idx, np.arange(3)] > 0)


@pytest.mark.parametrize("n", [40, pytest.param(1200, marks=pytest.mark.integration)])  # eigh; Lanczos (slow)
def test_agrees_with_sklearn_classical_mds_up_to_sign(n):
    rng = np.random.default_rng(n)
    X = rng.normal(size=(n, 6)) * np.linspace(4, 0.5, 6)
    D = cdist(X, X)
    ours = classical_mds(D, n_components=2, full_spectrum=False).embedding
    theirs = ClassicalMDS(n_components=2, metric="precomputed").fit_transform(D)
    signs = np.sign(np.sum(ours * theirs, axis=0))
    assert_allclose(ours * signs, theirs, atol=1e-8 * np.abs(theirs).max())


def test_recovers_a_euclidean_configuration():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(25, 2)) @ [[3, 1], [0, 1]]
    res = classical_mds(cdist(X, X), n_components=2)
    assert_allclose(squareform(pdist(res.embedding)), cdist(X, X), atol=1e-9)
    assert res.n_negative == 0


def test_cailliez_constant_is_the_smallest_that_makes_d_euclidean():
    rng = np.random.default_rng(4)
    D = cdist(*(2 * [rng.normal(size=(15, 3))]), "cityblock")
    c = cailliez_constant(D)
    assert c > 0
    off = 1 - np.eye(15)

    def min_eig(const):
        B = -0.5 * double_center((D + const * off) ** 2)
        return np.linalg.eigvalsh(B).min() / np.abs(np.linalg.eigvalsh(B)).max()

    assert min_eig(c) > -1e-9  # Euclidean at c
    assert min_eig(0.98 * c) < -1e-6  # not below it
    res = classical_mds(D, add=True)
    assert res.additive_constant == pytest.approx(c) and res.n_negative == 0


def test_gower_out_of_sample_placement():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 2)) * [3, 1]
    res = classical_mds(cdist(X, X), n_components=2)
    assert_allclose(place_new_points(res, cdist(X[:3], X)), res.embedding[:3], atol=1e-10)
    # a new point lands where its projection on the embedding's axes puts it
    new = np.array([[1.0, -2.0]])
    Xc = X - X.mean(0)
    R, *_ = np.linalg.lstsq(Xc, res.embedding, rcond=None)  # the rotation from X to the embedding
    assert_allclose(place_new_points(res, cdist(new, X)), (new - X.mean(0)) @ R, atol=1e-9)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "matrix, message",
    [
        ([[1, 0.5], [0.2, 1]], r"not symmetric.*\(0, 1\): 0\.5 vs 0\.2.*\(F \+ F\.T\) / 2"),
        ([[1, 2], [2, 3]], r"violates f_ij <= f_ii.*f\[0, 1\] = 2 > f\[0, 0\] = 1"),
        ([[1, 0.5, 0]], r"F must be a square matrix; got shape \(1, 3\)"),
        ([[1, np.nan], [np.nan, 1]], r"F contains NaN in 2 entries, first at row 0, column 1"),
        ([[1.0]], r"at least 2 objects"),
    ],
)
def test_check_similarity_matrix_errors(matrix, message):
    with pytest.raises(ValueError, match=message):
        check_similarity_matrix(matrix)


def test_not_psd_warns_with_most_negative_eigenvalue():
    Fm = np.array([[1, 0.9, 0.9], [0.9, 1, -0.9], [0.9, -0.9, 1]])
    with pytest.warns(UserWarning, match=r"not positive semi-definite \(most negative eigenvalue -0\.8"):
        report = check_similarity_matrix(Fm)
    assert not report["psd"] and report["min_eigenvalue"] == pytest.approx(np.linalg.eigvalsh(Fm).min())


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "exactly one of D"),
        ({"D": [[0, 1], [1, 0]], "F": [[1, 0], [0, 1]]}, "exactly one of D"),
        ({"D": [[0, -1], [-1, 0]]}, "negative entries"),
        ({"D": [[1, 1], [1, 0]]}, "zero diagonal"),
        ({"D": [[0, 1], [2, 0]]}, r"D is not symmetric: entries \(0, 1\) and \(1, 0\) differ \(1 vs 2"),
        ({"D": [[0, 1], [1, 0]], "n_components": 3}, r"integer in \[1, 2\]"),
        ({"F": [[1, 0], [0, 1]], "add": True}, "add=True applies to distances"),
    ],
)
def test_classical_mds_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        classical_mds(**kwargs)
