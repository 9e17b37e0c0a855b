"""helpers.studies.cheng_slides: the slides' worked examples come out as printed (or as the ledger reads them)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import pairwise

from helpers import cosine_similarity, l0_norm, load_signup, lp_norm
from helpers.clustering import select_k_by_alpha
from helpers.data import load_bird_ata, load_lfw_faces, load_weather
from helpers.neighbours import inverse_square_weights
from helpers.plotting import kdtree_splits
from helpers.studies import cheng_slides as S

# lines 370-394: the 20 athletes' L2 distances to the query (6.75, 3), as printed
PRINTED_L2 = {18: 1.27, 12: 1.82, 10: 2.61, 20: 2.80, 9: 2.93, 6: 3.01, 8: 3.76, 15: 3.82, 7: 3.95, 16: 3.95,
              11: 4.85, 19: 5.06, 3: 5.15, 1: 5.20, 13: 5.70, 2: 5.83, 14: 5.84, 5: 6.02, 4: 6.31, 17: 6.67}


@pytest.fixture(scope="module")
def ext():
    return S.athletes(extended=True)


@pytest.fixture(scope="module")
def pca():
    return S.face_pca(*load_lfw_faces())


# -- the tables -------------------------------------------------------------------------------


def test_tables_are_the_slides_with_their_queries():
    ath, ext, cust, wh = S.athletes(), S.athletes(extended=True), S.customers(), S.whiskeys()
    assert (len(ath.ids), len(ext.ids), len(cust.ids), len(wh.ids)) == (20, 21, 10, 20)
    assert ext.row(21).tolist() == [6.75, 3.0] and ext.y[ext.ids == 21][0] == "yes"       # the "Updating" row
    assert ath.query.tolist() == [[6.75, 3.0]] and cust.query.tolist() == [[56000.0, 35.0]]
    assert wh.query.tolist() == [[2.0, 5.0]] and S.KDTREE_QUERY.tolist() == [[6.0, 3.5]]


def test_normalised_tables_match_the_printed_ones():
    cust, wh = S.normalised(S.customers()), S.normalised(S.whiskeys())
    # lines 278-287 (salary, age) and 740-750 (age, rating), as printed to 4 and 2 decimals
    np.testing.assert_allclose(cust.row(1), [0.3276, 0.4412], atol=5e-5)
    np.testing.assert_allclose(cust.row(6), [0.4034, 0.9118], atol=5e-5)
    np.testing.assert_allclose(wh.row(11), [0.6333, 1.00], atol=5e-5)
    np.testing.assert_allclose(wh.query, [[0.0667, 1.00]], atol=5e-5)                      # line 752
    assert cust.table["purchased"].tolist() == S.customers().table["purchased"].tolist()


def test_keyed_rows_names_each_row_by_its_id():
    table = pd.DataFrame({"day": [3, 6], "rain": [0.3, 0.6], "min": [23, 22]})
    assert S.keyed_rows("weather.day", table, ["min", "rain"], id_column="day", width=1) == {
        "weather.day3": [23, 0.3], "weather.day6": [22, 0.6]}
    assert S.keyed_rows("x.id", table, "rain", id_column="day", ids=[6, 3]) == {"x.id06": 0.6, "x.id03": 0.3}


def test_random_directions_continue_the_stream_of_the_random_queries():
    rng = np.random.default_rng(7)
    rng.uniform(size=(30, 2))                        # what random_queries(7, 30) draws first
    u = rng.normal(size=(4, 6))
    directions = S.random_unit_directions(4, 6, 7, after=30)
    np.testing.assert_allclose(directions, u / np.linalg.norm(u, axis=1, keepdims=True))
    queries = np.random.default_rng(7).uniform((1.5, 1.5), (9, 10), (30, 2))
    np.testing.assert_array_equal(S.random_queries(7, 30), queries)


# -- 00: distances and norms -------------------------------------------------------------------


def test_lp_distances_obey_the_four_criteria_and_one_minus_cos_does_not(ext):
    axioms = S.distance_axiom_table(ext.X)
    assert axioms.loc[["L1", "L2", "L_inf"]].to_numpy().sum() == 0
    assert axioms.loc["1 - cos"].tolist() == [0, 2, 0, 2622]
    answer = S.axioms_claim(axioms, ext.X, ext.ids)
    assert answer["holds"] and "IDs 9 and 11, (4, 4) and (2, 2)" in answer["evidence"]


def test_norm_claims_as_the_slides_state_them():
    X = S.athletes().X                                                   # line 99's L^p norm, p = 1, 2, inf and 3
    for p in (1, 2, np.inf):
        np.testing.assert_allclose(lp_norm(X, p), np.linalg.norm(X, ord=p, axis=1))
    np.testing.assert_allclose(lp_norm(X, 3), (np.abs(X) ** 3).sum(1) ** (1 / 3))
    even = S.even_numerator_claim()
    assert not even["holds"] and "||(1,0)+(0,1)|| = 2.828 > 2" in even["evidence"]
    assert S.l2_gradient_claim([3.0, 4.0])["evidence"].endswith("x/||x|| = [0.6, 0.8]")
    assert S.l1_growth_claim()["holds"]
    assert S.cosine_law_claim(S.athletes(extended=True).X)["holds"]


def test_l0_examples_and_homogeneity():
    x = np.array([1.0, 0.0, -4.0])
    terms = 0.5 ** np.arange(1, 4) * np.abs(x) / (1 + np.abs(x))                        # line 177
    assert terms.tolist() == [0.25, 0.0, 0.1]                                            # lines 181-183
    assert l0_norm(x, "banach") == pytest.approx(0.35)                                   # their sum
    x_donoho = np.array([1, -4, 0, -2, 0, 0, 0])
    assert l0_norm(x_donoho, "donoho") == 3                                              # line 196
    assert (l0_norm(2 * x_donoho, "donoho"), 2 * l0_norm(x_donoho, "donoho")) == (3, 6)  # not a norm (line 199)
    homogeneous = S.donoho_homogeneity_claim([1, -4, 0, -2, 0, 0, 0], [1.0, 0.0, -4.0])
    assert not homogeneous["holds"] and "= 3 for a = [-3.0, -1.0, 0.5, 2.0, 10.0]" in homogeneous["evidence"]


def test_scipy_names_the_two_distances():
    assert (S.scipy_distance_name("minkowski"), S.scipy_distance_name("russellrao")) == ("Minkowski", "Russell-Rao")


# -- 00: normalisation ---------------------------------------------------------------------------


def test_raw_comparison_gives_the_printed_distances_and_not_the_printed_cosines():
    cust = S.customers()
    x1, x8, x10 = cust.row(1), cust.row(8), cust.row(10)
    answers = S.comparison_answers("salary.raw", x1, {8: x8, 10: x10}, cos_note="1 - cos = {gap:.1e}")
    assert answers["salary.raw.diff8"] == [-19100.0, -19.0] and answers["salary.raw.diff10"] == [-19500.0, -11.0]
    assert round(answers["salary.raw.l2-x8"], 2) == 19100.01 and round(answers["salary.raw.l2-x10"], 3) == 19500.003
    assert (answers["salary.raw.l1-x8"], answers["salary.raw.l1-x10"]) == (19119.0, 19511.0)
    cos8, note = answers["salary.raw.cos-x8"]
    assert round(cos8, 4) == 1.0 and note["note"].startswith("1 - cos = ")                 # printed 0.099
    assert answers["salary.raw.l2-x8"] < answers["salary.raw.l2-x10"]                     # line 253
    assert answers["salary.raw.l1-x8"] < answers["salary.raw.l1-x10"]
    assert cust.ids[(cust.X == [72800, 60]).all(1)].tolist() == [8]                       # "ID = 6", line 241
    readings = S.cosine_readings(cust)
    assert not np.isclose(readings.to_numpy(float), 0.099, atol=5e-4).any()


def test_normalised_comparison_reverses_l1_l2_but_not_cosine():
    cust = S.normalised(S.customers())
    n1, n8, n10 = cust.row(1), cust.row(8), cust.row(10)
    answers = S.comparison_answers("salary.norm", n1, {8: n8, 10: n10})
    assert round(answers["salary.norm.l2-x8"], 3) == 0.864 and round(answers["salary.norm.l2-x10"], 3) == 0.746
    assert round(answers["salary.norm.l1-x8"], 2) == 1.22                  # printed 1.21 (line 299): not its rounding
    assert round(answers["salary.norm.l1-x10"], 4) == 0.9959
    assert (round(answers["salary.norm.cos-x8"], 2), round(answers["salary.norm.cos-x10"], 2)) == (0.99, 0.96)
    np.testing.assert_allclose(n1 - n8, [-0.6586, -0.5588], atol=5e-5)                    # written x_6, line 295
    prints = {"salary.norm.l2-x8": "0.864", "salary.norm.l1-x8": "1.21", "salary.norm.cos-x8": "0.99",
              "salary.norm.l2-x10": "0.746", "salary.norm.l1-x10": "0.9959", "salary.norm.cos-x10": "0.96"}
    noted = S.comparison_answers("salary.norm", n1, {8: n8, 10: n10}, printed=prints.get)
    assert [k for k, v in noted.items() if isinstance(v, tuple)] == ["salary.norm.l1-x8"]   # the only one to flag
    assert noted["salary.norm.l1-x8"][1]["note"].endswith("rounds ||x1 - x8||_2 = 0.86375 to 0.864 (truncated: 0.863)")
    claims = S.normalised_preference_claims(n1, n8, n10)
    assert claims["L1 and L2"]["holds"] and claims["cos"]["holds"]
    assert S.range_normalisation_claim(S.customers().X)["holds"]


# -- 00: the nearest neighbour and kNN -----------------------------------------------------------


def test_the_twenty_printed_l2_distances_and_their_order():
    near = S.with_distances(S.athletes())
    ours = dict(zip(near.id, near.L2.round(2)))
    assert ours == PRINTED_L2
    assert S.ranked_ids(near, "L2") == list(PRINTED_L2)                                  # printed in rank order
    assert S.keyed_rows("l1.id", near, "L1", width=1, ids=[18, 12, 10]) == {"l1.id18": 1.5, "l1.id12": 2.25,
                                                                             "l1.id10": 3.25}
    cos = near.set_index("id").loc[[12, 18, 10], "cosine"]       # printed 0.999, 0.992, 0.954 as distances (line 405)
    assert cos.round(3).tolist() == [0.999, 0.992, 0.954] and (1 - cos).round(3).tolist() == [0.001, 0.008, 0.046]
    assert S.one_nn_summary(near) == ("1-NN: L2 -> ID 18 (yes), L1 -> ID 18, cosine -> ID 12 (no); by cosine ID 20 "
                                      "(0.968) ranks third, ahead of ID 10")


def test_one_nn_and_the_noisy_queries(ext):
    near88 = S.nearest_rows(ext, [8.0, 8.0])
    assert near88.id.tolist()[:2] == [19, 13] and near88.L2.round(3).tolist()[:2] == [0.5, 0.559]   # not ID 13
    assert S.nearest_rows(ext, [7.0, 7.0]).iloc[0][["id", "draft"]].tolist() == [19, "yes"]          # line 474


def test_k3_vote_at_eight_eight(ext):
    near88 = S.nearest_rows(ext, [8.0, 8.0])
    assert near88.id.tolist()[2:] == [14, 20] and near88.L2.round(4).tolist()[2:] == [2.3717, 2.3717]  # a tie
    assert [str(v) for v in S.neighbour_entry(near88, 20)] == ["ID20", "7.25", "5.75", "yes"]      # printed "ID13"
    assert S.vote([8.0, 8.0], 3, ext.X, ext.y) == "yes"
    for weights in (None, inverse_square_weights):
        assert S.vote_claim(ext.X, ext.y, S.random_queries(0, 60), weights)["holds"]


def test_distance_rank_tables_of_lines_564_and_581():
    raw, norm = S.distance_ranks(S.customers()), S.distance_ranks(S.normalised(S.customers()))
    row = raw.set_index("id")[S.RANK_COLUMNS]
    np.testing.assert_allclose(row.loc[1], [2300.0078, 2, 2300, 2, 6, 4], atol=5e-5)               # line 564
    np.testing.assert_allclose(row.loc[6], [102.3914, 1, 100, 1, 22, 9], atol=5e-5)                # line 569
    assert (row.loc[5, "rank, second"], row.loc[7, "rank, second"]) == (3, 5)      # printed 5 and 3: swapped
    nrow = norm.set_index("id")[S.RANK_COLUMNS]
    np.testing.assert_allclose(nrow.loc[1], [0.1935, 1, 0.0793, 2, 0.17647, 4], atol=5e-5)         # line 581
    assert (S.knn_vote(S.customers()), S.knn_vote(S.normalised(S.customers()))) == ("yes", "no")


# -- 00: k-d tree, regression, binary, Mahalanobis ----------------------------------------------------


def test_kdtree_medians_search_and_the_radius(ext):
    splits = kdtree_splits(ext.X)
    assert all(S.is_median_split(splits, i, ext.X) for i in range(len(splits)))
    build = S.median_split_claim(splits, ext.X, ext.ids)
    assert build["holds"] and build["evidence"].startswith("ours: 21 nodes")
    kd = S.kdtree_search(ext.X, S.KDTREE_QUERY, S.random_queries(0, 300), ext.ids)
    assert (kd.nearest_id, round(kd.nearest_distance, 4)) == (21, 0.9014)
    assert kd.search["holds"] and kd.knn["holds"] and kd.knn["how"] == "scikit-learn's KDTree.query(k=5)"
    value, note = S.radius_reading(kd, S.KDTREE_QUERY, 1.5, ext.ids)
    assert value == "R^2" and "IDs [12, 18, 21]" in note["note"]


def test_whiskey_regression_is_the_printed_168_33():
    ids, prices, prediction, answer = S.knn_regression(S.normalised(S.whiskeys()), 3)
    assert (ids.tolist(), prices.tolist(), round(prediction, 2)) == ([12, 16, 3], [200.0, 250.0, 55.0], 168.33)
    assert answer["holds"]                                                                # line 761
    weighted, answer = S.weighted_regression(S.normalised(S.whiskeys()), (3, 20))
    assert (round(weighted[3], 2), round(weighted[20], 2)) == (196.64, 163.71) and answer["holds"]


def test_binary_counts_and_coefficients_of_lines_796_to_884():
    signup, q = load_signup()
    D = signup[S.SIGNUP_FEATURES].to_numpy()
    answers = S.binary_answers(q.to_numpy(), {"d1": D[0], "d2": D[1]})
    assert answers["binary.counts.d1"] == [2, 0, 2, 1] and answers["binary.counts.d2"] == [1, 1, 0, 3]
    assert [answers[f"binary.{c}.d1"] for c in ("rr", "sm", "j")] == [0.4, 0.6, 0.5]
    assert [answers[f"binary.{c}.d2"] for c in ("rr", "sm", "j")] == [0.2, 0.8, 0.5]
    assert answers["binary.layout.d1"][0] == [2, 2, 0, 1]           # printed CP=2, PA=0 / AP=2, CA=1: transposed


def test_covariance_sigma_and_mahalanobis():
    W = load_weather()[S.WEATHER_FEATURES].to_numpy()
    np.testing.assert_allclose(S.neighbours._covariance(W), np.cov(W, rowvar=False))         # line 904
    assert S.sigma_index(W)[0] == "k"                                                     # printed n, line 902
    ath = S.athletes()
    mc = S.mahalanobis_check(ath.X, ath.query)
    assert mc.equation["holds"] and mc.whitening["holds"] and "correlation before: 0.341" in mc.whitening["evidence"]
    np.testing.assert_allclose(mc.W @ mc.cov @ mc.W.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(cosine_similarity(ath.X, ath.X), pairwise.cosine_similarity(ath.X))   # line 890


def test_flagged_items_lists_the_flagged_verdicts_by_id():
    rows = [{"id": "SBL-9", "lines": "1", "verdict": "refuted", "item": "b"},
            {"id": "SBL-3", "lines": "2", "verdict": "not testable", "item": "c"},
            {"id": "SBL-2", "lines": "3", "verdict": "not reproduced", "item": "a"}]
    assert S.flagged_items(rows) == "SBL-2 (line 3), not reproduced: a\nSBL-9 (line 1), refuted: b"


# -- 01: k-means, the curse of dimensionality ------------------------------------------------------


def test_kmeans_claims_and_the_alpha_rule(ext):
    lloyd = S.lloyd_claims(ext.X, 3, 0)
    assert lloyd["objective"]["holds"] and lloyd["algorithm"]["holds"]
    blobs = make_blobs(60, centers=[[0, 0], [6, 0], [3, 5]], cluster_std=0.6, random_state=0)[0]   # notebook 01's
    tables = S.alpha_tables({"21 athletes": ext.X, "3 blobs": blobs}, 10, 10, 0)
    tolerances = [0.01, 0.02, 0.05, 0.1, 0.2]
    choice = pd.DataFrame({name: [select_k_by_alpha(t["S_K"], tol) for tol in tolerances]
                           for name, t in tables.items()}, index=tolerances)                 # line 968's rule
    assert choice["21 athletes"].tolist() == [6, 5, 4, 3, 2] and choice["3 blobs"].tolist() == [3] * 5
    answers = S.alpha_claims(ext.X, tables, choice, 10, 0)
    assert all(a["holds"] for a in answers.values())
    assert answers["alpha-rule"]["how"].startswith("the slides' 'small number' read as a fraction of alpha_1")
    pham = {name: int(t["f_K (Pham et al.)"].idxmin()) for name, t in tables.items()}
    assert pham == {"21 athletes": 8, "3 blobs": 3}


def test_densities_of_lines_988_to_1018():
    assert [round(k ** (1 / m), 4) for k, m in ((10, 1), (4, 2), (2, 3), (10, 2), (10, 3))] == [  # k^(1/m), line 988
        10.0, 2.0, 1.2599, 3.1623, 2.1544]
    assert [10 ** m for m in (1, 2, 3)] == [10, 100, 1000]                                # d^m, lines 1015-1018


# -- 01: PCA and eigenfaces ---------------------------------------------------------------------------


def test_pca_statements(pca):
    assert pca.Q.shape == (625, 625) and np.all(np.diff(pca.eigenvalues) <= 1e-9)
    assert S.max_variance_claim(pca, S.random_unit_directions(200, pca.n, 0))["holds"]
    assert S.conjugate_transpose_entries(np.array([[1, -2 - 3j], [1 + 4j, 5j]])) == [1.0, "1-4i", "-2+3i", "-5i"]
    assert not S.non_square_eigen_claim()["holds"]
    assert {k: a["holds"] for k, a in S.eigen_claims().items()} == {"eigen-left": False, "eigen-scaling": True,
                                                                     "aq": False}
    claims = S.decomposition_claims(pca)
    assert [k for k, a in claims.items() if not a["holds"]] == ["svd-ata", "ata-covariance"]     # as printed
    assert claims["svd-ata"]["evidence"].endswith("to rounding error (True), its eigenvalues the squared singular "
                                                  "values (True)")
    assert "ratio 99 for the faces" in claims["ata-covariance"]["evidence"]


def test_eigenface_threshold_reconstruction_and_recognition(pca):
    k, answers = S.threshold_answers(pca, 0.9)
    assert k == 40 and answers["lambda-bar"][0] == "λ1+λ2+…+λn" and answers["threshold"][0] == "λ1+λ2+…+λk"
    assert S.eigenface_shortcut_claim(pca)["holds"]
    Qm, Q40 = pca.Q[:, : pca.m - 1], pca.Q[:, :40]                    # x = Q y + mean (line 1208)
    np.testing.assert_allclose(pca.A[0] @ Qm @ Qm.T + pca.mean, pca.faces[0], atol=1e-9)   # m - 1 components are all
    assert round(np.linalg.norm(pca.A @ Q40 @ Q40.T - pca.A) / np.linalg.norm(pca.A), 3) == 0.314
    table = S.recognition_table(pca, [0.25], [2], [40], random_state=0)
    assert table.round(2).to_numpy().tolist() == [[1.0, 1.0], [0.4, 0.43], [0.18, 0.17]]
    assert S.recognition_claim(table, 40)["holds"]
    with pytest.raises(ValueError, match="kind must be"):
        S.perturbed(pca.faces, pca.shape, "blur", 1)


# -- 01: the bird example -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bird():
    """The printed A'A (line 1230) read with its upper triangle mirrored: eigenvalues decreasing, each vector's largest
    entry positive."""
    printed = load_bird_ata().to_numpy()
    lam, V = np.linalg.eigh(np.triu(printed) + np.triu(printed, 1).T)
    V = V * np.sign(V[np.abs(V).argmax(0), range(3)])
    return lam[::-1], V[:, ::-1]


def test_bird_readings_eigenpairs_and_conclusions(bird):
    printed = load_bird_ata().to_numpy()
    upper, lower = np.triu(printed) + np.triu(printed, 1).T, np.tril(printed) + np.tril(printed, -1).T
    # printed 1626.52, 128.99, 7.10 (line 1232): lambda_1 rounds to 1626.53, not to its print
    assert np.round(np.linalg.eigvalsh(upper)[::-1], 2).tolist() == [1626.53, 128.99, 7.1]
    assert round(np.trace(upper), 2) == 1762.61
    assert np.linalg.eigvalsh(lower)[0] < 0                                                       # impossible for A'A
    lam, V = bird
    np.testing.assert_allclose(V[:, 0], [0.22, 0.41, 0.88], atol=5e-3)                          # line 1234
    np.testing.assert_allclose(V[:, 1], [0.25, 0.85, -0.46], atol=5e-3)
    np.testing.assert_allclose(V[:, 2], [0.94, -0.32, -0.08], atol=5e-3)                         # printed 0.97
    assert round(np.linalg.norm([0.97, -0.32, -0.08]), 3) == 1.025                  # the printed v3 is no unit vector
    sd = np.sqrt(np.diag(upper))
    v1c = np.linalg.eigh(upper / np.outer(sd, sd))[1][:, -1]                          # v1 on the correlation scale
    v1c = v1c * np.sign(v1c[np.abs(v1c).argmax()])
    assert np.round(v1c, 3).tolist() == [0.594, 0.576, 0.561]
    claims = S.bird_claims(["length", "wingspan", "weight"], V, v1c)
    assert claims["weight-most"]["holds"] and claims["wingspan-next"]["holds"] and claims["v2-stoutness"]["holds"]
    assert claims["v2-stoutness"]["evidence"].startswith("v2 = [0.247, 0.853, -0.461]")             # line 1234
    V_same_sign = V.copy()
    V_same_sign[2, 1] *= -1                                                 # v2's weight entry with wingspan's sign
    flipped = S.bird_claims(["length", "wingspan", "weight"], V_same_sign, v1c)
    assert not flipped["v2-stoutness"]["holds"]                            # wingspan and weight with one sign


def test_eigenvalue_answers_note_only_a_print_that_truncation_alone_gives(bird):
    lam, _ = bird
    answers = S.eigenvalue_answers(lam, ["1626.52", "128.99", "7.10"])                          # line 1232
    assert isinstance(answers["lambda2"], float) and isinstance(answers["lambda3"], float)
    value, note = answers["lambda1"]
    assert round(value, 4) == 1626.5264
    assert "rounds lambda_2 = 128.9861 to 128.99 (truncated: 128.98), and lambda_3 = 7.0975" in note["note"]
    assert note["note"].endswith("at most 0.015 (Weyl), so unrounded data could also give the print")
    assert note["tol"] == pytest.approx(0.015)          # the print is judged within its inputs' rounding
    from helpers.workbook.verdicts import compare_value, parse_printed
    assert compare_value(parse_printed("1626.52")[0], value, tol=note["tol"])[0]
    far = S.eigenvalue_answers([1626.5264, 128.9861], ["1626.50", "128.99"])["lambda1"]   # neither rounds nor truncates
    assert far == 1626.5264
    tight = S.eigenvalue_answers([1626.5264], ["1626.52"], matrix_decimals=4)["lambda1"][1]
    assert tight["note"].endswith("could not give the print") and "tol" not in tight
    with pytest.raises(ValueError, match="2 eigenvalues for 3 printed"):
        S.eigenvalue_answers([1.0, 2.0], ["1.0", "2.0", "3.0"])


def test_truncation_note_names_the_slides_rounding():
    note = S.truncation_note(1.217444, "1.21", {"||x1 - x8||_2": (0.863751, "0.864"), "cos": (0.99025, "0.99")})
    assert note == ("ours 1.2174 rounds to 1.22; truncated it would print 1.21, but that is a hypothesis: the same "
                    "slide rounds ||x1 - x8||_2 = 0.86375 to 0.864 (truncated: 0.863)")      # cos 0.99 tells neither
    assert S.truncation_note(1.217444, "1.21", {"cos": (0.99025, "0.99")}).endswith(
        "no other value printed with it tells rounding from truncation")
    assert S.truncation_note(1.217444, "1.30", {}) == ("ours 1.2174 rounds to 1.22; truncated it would print 1.21, "
                                                       "not the printed 1.30")
    assert S.truncation_note(-0.5678, "-0.56", {}).startswith("ours -0.5678 rounds to -0.57; truncated it would print "
                                                             "-0.56, but")
