"""The lecture notes' section 6.2 (notebook 07): its data, its R code ported, and each check's driver.

The values asserted are the notes' own (the R output of l. 112-116 and 136-140, the typeset
matrix of l. 83, Example 4 and the baskets of l. 59-75) and those notebook 07 reports.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.decomposition import PCA

from helpers import binary_counts
from helpers.map_comparisons import map_comparisons, map_differences
from helpers.mds import cailliez_constant, classical_mds, double_center, similarity_to_distance
from helpers.studies import lecture_notes_6_2 as study

# the R output of the notes for Example 5, as printed (l. 112-116 and l. 136-140)
R_SMC = np.array([[1.0000000, 0.6666667, 0.5000000, 0.3333333, 0.5000000],
                  [0.6666667, 1.0000000, 0.5000000, 0.3333333, 0.1666667],
                  [0.5000000, 0.5000000, 1.0000000, 0.8333333, 0.3333333],
                  [0.3333333, 0.3333333, 0.8333333, 1.0000000, 0.5000000],
                  [0.5000000, 0.1666667, 0.3333333, 0.5000000, 1.0000000]])
R_JACCARD = np.array([[1.00, 0.6, 0.4000000, 0.2000000, 0.25],
                      [0.60, 1.0, 0.4000000, 0.2000000, 0.00],
                      [0.40, 0.4, 1.0000000, 0.6666667, 0.00],
                      [0.20, 0.2, 0.6666667, 1.0000000, 0.00],
                      [0.25, 0.0, 0.0000000, 0.0000000, 1.00]])
# the SMC matrix F as typeset on l. 83 (its Sheep column is not the Sheep row)
TYPESET = np.array([[1, 2 / 3, 1 / 2, 1 / 2, 1 / 2],
                    [2 / 3, 1, 1 / 2, 1 / 2, 1 / 6],
                    [1 / 2, 1 / 2, 1, 1, 1 / 3],
                    [1 / 3, 1 / 3, 5 / 6, 1, 1 / 2],
                    [1 / 2, 1 / 6, 1 / 3, 1 / 3, 1]])
NAMES = ["Lion", "Giraffe", "Cow", "Sheep", "Human"]


@pytest.fixture(scope="module")
def example_5():
    animals, S = study.example_5()
    return animals.to_numpy(), S


# --------------------------------------------------------------------------------------------
# the data and the R code


def test_example_5_gives_the_notes_r_output(example_5):
    A01, S = example_5
    assert A01.shape == (5, 6)
    assert_allclose(S["SMC"], R_SMC, atol=5e-8)
    assert_allclose(S["Jaccard"], R_JACCARD, atol=5e-8)


def test_the_r_vector_filled_by_row_is_the_table(example_5):
    A01, _ = example_5
    assert_array_equal(np.array(study.R_ANIMAL).reshape(5, 6), A01)


def test_the_r_ports_agree_with_the_library(example_5):
    A01, S = example_5
    F_outer, F_manhattan, L1 = study.smc_routes(A01)
    assert_allclose(F_outer, S["SMC"], atol=1e-15)
    assert_allclose(F_manhattan, S["SMC"], atol=1e-15)
    assert L1.max() == 5                                  # Giraffe and Human share one attribute, by absence
    J_outer, J_binary = study.jaccard_routes(A01)
    assert_allclose(J_outer, S["Jaccard"], atol=1e-15)
    assert_allclose(J_binary, S["Jaccard"], atol=1e-15)
    for F in S.values():
        assert_allclose(study.FtoD(F), similarity_to_distance(F), atol=1e-15)


def test_the_r_jaccard_function_needs_both_values_in_each_vector():
    lion, tiger = np.ones(4, dtype=int), np.array([1, 1, 0, 1])
    with pytest.raises(IndexError, match="index 1 is out of bounds for axis 1 with size 1"):
        study.r_jaccard(lion, tiger)                      # the lion has no 0: table(y, x) has one column
    assert study.r_jaccard(np.array([1, 0, 1, 1]), tiger) == 0.5


def test_example_4_and_the_baskets():
    lion, tiger = np.ones(4, dtype=int), np.array([1, 1, 0, 1])
    t = binary_counts(lion, tiger)
    assert (t.co_presence, t.presence_absence, t.absence_presence, t.co_absence) == (3, 1, 0, 0)
    pair = study.similarities([lion], [tiger])
    assert pair["SMC"][0, 0] == pair["Jaccard"][0, 0] == 0.75
    a, b = study.market_baskets(100)
    t = binary_counts(a, b)
    assert (t.co_presence, t.co_absence) == (1, 97)
    baskets = study.similarities([a], [b])
    assert baskets["SMC"][0, 0] == pytest.approx(0.98) and baskets["Jaccard"][0, 0] == pytest.approx(1 / 3)


def test_display_helpers():
    assert [study.as_fraction(v) for v in R_SMC[1]] == ["2/3", "1", "1/2", "1/3", "1/6"]


# --------------------------------------------------------------------------------------------
# Definition 6.4, the route D -> B -> Z, the cosine similarity


def test_the_classical_route_recovers_b_and_d(example_5):
    _, S = example_5
    n_positive, error = study.classical_route(similarity_to_distance(S["SMC"]))
    assert n_positive == 4 and error < 1e-12


def test_definition_6_4_holds_for_the_notes_b_but_not_for_every_b(example_5):
    _, S = example_5
    assert all(study.meets_definition_6_4(double_center(F)) for F in S.values())
    points = np.array([[-2.0], [0.5], [1.5]])
    B = points @ points.T
    assert B[1, 2] == 0.75 and B[1, 1] == 0.25 and not study.meets_definition_6_4(B)


def test_definition_6_4_refusals_name_each_broken_condition(example_5):
    _, S = example_5
    refused = study.definition_6_4_refusals(S, {"condition 1": [[1, 0.5], [0.2, 1]], "condition 2": [[1, 2], [2, 3]]},
                                            labels=NAMES)
    assert refused == {"condition 1": "F is not symmetric: 1 pair(s) with f_ij != f_ji",
                       "condition 2": "F violates f_ij <= f_ii in 1 entries"}
    with pytest.raises(ValueError, match="not symmetric"):
        study.definition_6_4_refusals({"typeset": TYPESET}, {})


def test_the_typeset_matrix_is_not_a_similarity_matrix(example_5):
    A01, S = example_5
    ok, message = study.definition_6_4_verdict(TYPESET, labels=NAMES)
    assert not ok and message.startswith("F is not symmetric: 4 pair(s) with f_ij != f_ji, e.g. (Lion, Sheep)")
    assert study.definition_6_4_verdict(S["SMC"], labels=NAMES) == (True, "accepted")
    wrong = study.typeset_differences(TYPESET, S["SMC"], NAMES)
    assert wrong["row"].tolist() == ["Lion", "Giraffe", "Cow", "Human"] and set(wrong["column"]) == {"Sheep"}
    assert wrong["typeset"].tolist() == ["1/2", "1/2", "1", "1/3"]
    corrected = ["1/3", "1/3", "5/6", "1/2"]
    assert wrong["data and R output"].tolist() == wrong["typeset, mirror entry"].tolist() == corrected
    assert study.sheep_as_cow(A01, NAMES, TYPESET)
    assert not study.sheep_as_cow(A01, NAMES, S["SMC"])


def test_cosine_checks_of_positive_rows():
    X = np.random.default_rng(3).uniform(0.0, 1.0, (40, 6))
    C, checks = study.cosine_checks(X, random_state=1)
    norms = np.linalg.norm(X, axis=1)
    assert_allclose(C, X @ X.T / np.outer(norms, norms), atol=1e-14)
    assert checks.form_error < 1e-14 and checks.scale_error < 1e-14
    assert checks.symmetry_error < 1e-15 and checks.diagonal_error < 1e-14
    assert checks.largest_off_diagonal == pytest.approx(C[~np.eye(40, dtype=bool)].max())
    assert checks.min_eigenvalue > -1e-12                     # a Gram matrix of unit vectors


# --------------------------------------------------------------------------------------------
# Proposition 6.2


def test_every_step_of_the_proof_holds_on_example_5(example_5):
    _, S = example_5
    steps = study.proposition_steps(S)
    assert steps.loc["min eigenvalue of F"].round(4).tolist() == [0.0954, 0.2921]
    assert steps.loc["min f_ii + f_jj - 2 f_ij"].round(4).tolist() == [0.3333, 0.6667]
    identities = steps.loc[~steps.index.str.startswith("min")]
    assert len(identities) == 9 and identities.abs().to_numpy().max() < 1e-12
    answers = study.proof_answers(steps, S)
    assert len(answers) == 11 and all(holds for holds, _ in answers.values())
    assert answers["proof.nonneg"][1] == "smallest f_ii + f_jj - 2 f_ij (i != j): 0.3333"
    assert answers["proof.a"][1] == "max |left - right| < 1e-10 over the two matrices"
    for F in S.values():                                  # l. 42: MDS of F (B = HFH) is MDS of its distances (6.6)
        from_F = classical_mds(F=F, full_spectrum=False).embedding
        assert_allclose(from_F, classical_mds(similarity_to_distance(F), full_spectrum=False).embedding, atol=1e-10)


def test_a_matrix_that_is_not_positive_semi_definite_fails_the_assumption():
    F = np.array([[1.0, 0.9, 0.0], [0.9, 1.0, 0.9], [0.0, 0.9, 1.0]])    # a similarity matrix, eigenvalue < 0
    with pytest.warns(UserWarning, match="not positive semi-definite"):
        steps = study.proposition_steps({"F": F})
    answers = study.proof_answers(steps, {"F": F})
    assert not answers["prop6.2.eq6.6"][0] and not answers["proof.psd"][0]
    assert answers["proof.nonneg"][0] and answers["prop6.2.eq6.7"][0]     # the algebra of the proof still holds


# --------------------------------------------------------------------------------------------
# binary attributes


def test_formula_errors_are_rounding(example_5):
    A01, _ = example_5
    errors = study.formula_errors({"Example 5": A01})
    assert errors.index.tolist()[0] == "(6.8) vs binary_similarity" and errors.to_numpy().max() < 1e-15


def test_recoding_leaves_the_smc_and_moves_jaccard(example_5):
    A01, S = example_5
    recoded = study.similarities(1 - A01)                 # l. 77: 0 and 1 swapped in every attribute
    assert_array_equal(recoded["SMC"], S["SMC"])
    assert np.abs(recoded["Jaccard"] - S["Jaccard"]).max() == 0.5


# --------------------------------------------------------------------------------------------
# Example 5: MDS and the two maps


def test_example_5_mds_as_notebook_07_reports(example_5):
    _, S = example_5
    mds, ftod_errors, cmdscale_errors = study.cmdscale_routes(S)
    assert max(ftod_errors) < 1e-15 and max(cmdscale_errors) < 1e-10
    assert mds["SMC"].eigenvalues.round(4).tolist() == [0.9603, 0.8131, 0.2642, 0.0957, 0.0]
    assert round(mds["SMC"].gof[0], 4) == 0.8313                  # R's goodness of fit of two dimensions
    assert mds["Jaccard"].eigenvalues.round(4).tolist()[:4] == [1.2505, 0.9981, 0.3713, 0.2935]
    assert_allclose(mds["SMC"].embedding[0], [0.4311, 0.2592], atol=5e-5)
    diff = map_differences(mds["SMC"].embedding, mds["Jaccard"].embedding, NAMES)
    assert round(diff.disparity, 3) == 0.037 and round(diff.rho, 3) == 0.891
    assert [round(c, 3) for c in diff.axis_corr] == [0.111, 0.106]
    assert diff.changed == [] and diff.nearest.loc["Human"].tolist() == ["Lion", "Lion"]


def test_the_shortcut_one_minus_s_is_not_euclidean_for_example_5(example_5):
    _, S = example_5
    spectra = study.shortcut_spectra({"Example 5": S}).round(3)
    assert spectra["negative eigenvalues"].tolist() == [0, 1, 0, 0]
    assert spectra.loc[("Example 5", "SMC", "1 - S")].tolist() == [1, 0.075, 0.9, 0.973]
    assert spectra.loc[("Example 5", "SMC", "(6.6)"), "GOF g1"] == 0.831
    assert round(cailliez_constant(1 - S["SMC"]), 4) == 0.2381


# --------------------------------------------------------------------------------------------
# the MNIST drivers, on small stand-ins


def test_euclidean_mds_is_pca():
    # l. 166: classical MDS of the Euclidean distances gives the PCA scores, up to the sign of each column
    X = np.random.default_rng(5).normal(size=(50, 7)) * np.arange(1, 8)
    E = classical_mds(cdist(X, X), full_spectrum=False).embedding
    Z = PCA(n_components=2, svd_solver="full").fit_transform(X)
    assert_allclose(E, Z * np.sign(np.sum(E * Z, axis=0)), atol=1e-9)


def test_mnist_drivers_on_a_random_binary_matrix():
    Y = np.random.default_rng(6).binomial(1, 0.2, size=(60, 30)).astype(np.int8)
    S = study.similarities(Y)
    p = Y.shape[1]
    assert_allclose((p - squareform(pdist(Y, "cityblock"))) / p, S["SMC"], atol=1e-15)      # l. 176-177
    assert_allclose(1 - squareform(pdist(Y.astype(bool), "jaccard")), S["Jaccard"], atol=1e-15)  # l. 178-179
    mds, table, gap = study.mnist_mds(S)
    assert gap < 1e-8 and table["negative eigenvalues"].tolist() == [0, 0]
    assert table.index.tolist() == ["SMC", "Jaccard"]
    assert_allclose(table["GOF g1 (k = 2)"], table["GOF g2 (k = 2)"], rtol=1e-12)   # g1 = g2 without negatives
    # 2 - 2 SMC(x, y) = 2 |x - y|^2 / p: the SMC map is the PCA map of Y scaled by sqrt(2/p), up to column signs
    E, Z = mds["SMC"].embedding, np.sqrt(2 / p) * PCA(n_components=2, svd_solver="full").fit_transform(Y.astype(float))
    assert_allclose(E, Z * np.sign(np.sum(E * Z, axis=0)), atol=1e-10)


def test_map_comparisons_of_example_5_as_notebook_07_reports(example_5):
    _, S = example_5
    out = map_comparisons(S, {"ex5": ("SMC", "Jaccard")}, [0.01, 0.02, 0.03], n_resamples=40, random_state=1)
    row = out.table.loc["ex5"]
    assert round(row["Procrustes disparity"], 3) == 0.037          # map_differences' value, l. 160
    assert row["low"] <= row["Procrustes disparity"] <= row["high"]
    assert out.effects["ex5"]["effect"] == pytest.approx(row["Procrustes disparity"] - 0.02)
    assert out.effects["ex5"]["interval"] == pytest.approx((row["effect low"], row["effect high"]))


