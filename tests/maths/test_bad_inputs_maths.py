"""Bad-input catalogue for the maths layer: every case gives a clear error or the right answer.

Two tables, so the cases can be counted:

* ``ERRORS``: ``(id, callable, exception type, regex)``; the regex names the problem (the
  value, row, column or tolerance) and the way out.
* ``ANSWERS``: ``(id, callable, reference)``; the reference comes from scipy, numpy or
  scikit-learn. At extreme magnitudes the reference is the library's value at unit scale
  times the scale (distances scale with the data, cosines do not change): scipy itself
  overflows or underflows there (its cosine of two vectors times 1e154 is NaN, times 1e150 it
  is 0.0), and where it does give a finite non-zero answer the test checks that too.

The maths writes no files, so no case has files to leave behind.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import linalg
from scipy.spatial import distance as sd
from sklearn.decomposition import PCA
from sklearn.model_selection import KFold, cross_val_predict, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from helpers.binary import binary_counts, binary_similarity, jaccard, simple_matching
from helpers.clustering import kmeans_inertias, pham_alpha, select_k_by_alpha
from helpers.estimators import ClassConditionalKNN, ExpectedWhitener, TunedKNN, Whitener
from helpers.evaluation import prf_scores, repeated_cv_scores, repeated_split_scores
from helpers.gram import GramPCA, ResidualCovariance, ledoit_wolf_shrinkage_gram, shrunk_residual_covariance
from helpers.mds import check_similarity_matrix, classical_mds, place_new_points, similarity_to_distance
from helpers.metrics import (
    cosine_similarity,
    lp_norm,
    mahalanobis,
    minkowski,
    precision_factor,
    variance_adjusted_cosine,
)
from helpers.neighbours import (
    cumulative_votes,
    distance_weighted_proba,
    inverse_square_weights,
    knn_cv_accuracy_by_k,
    knn_cv_predictions_by_k,
    majority_votes,
    nearest_indices,
    nearest_neighbors,
)
from helpers.svm import primal_linear_svm
from helpers.text import vectorize_corpus
from helpers.whitening import (
    check_covariance,
    class_priors,
    class_whitening_matrices,
    estimate_covariance,
    expected_whitening_matrix,
    transform_by_class,
    whitening_matrix,
)

RNG = np.random.default_rng(0)
X40 = RNG.normal(size=(40, 3))
Y40 = np.repeat([0, 1], 20)
D6 = sd.squareform(sd.pdist(RNG.normal(size=(6, 2))))
F3 = np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.4], [0.2, 0.4, 1.0]])
SCALES = (1e150, 1e154, 1e-150, 1e-200, 1e300)
U = np.array([1.0, 2.0, 3.0])
V = np.array([1.5, 1.0, 3.5])
VI = np.linalg.inv(np.array([[4.0, 2.0, 0.5], [2.0, 3.0, 0.2], [0.5, 0.2, 1.0]]))


def _replace(D, i, j, value):
    D = D.copy()
    D[i, j] = value
    return D


def _ill_conditioned(condition: float) -> np.ndarray:
    Q, _ = np.linalg.qr(np.random.default_rng(1).normal(size=(6, 6)))
    return Q @ np.diag(np.logspace(0, np.log10(condition), 6)) @ Q.T


def _fitted_knn(**params):
    return ClassConditionalKNN(n_neighbors=3).fit(X40, Y40).set_params(**params)


def _with_nan(X, i, j):
    X = X.copy()
    X[i, j] = np.nan
    return X


def _with_inf(X, i, j):
    X = X.copy()
    X[i, j] = np.inf
    return X


TOL = r"tolerance [\d.e+-]+ = rtol \* max\|D\|"


def _str_among(param: str, owner: str, options, value: str, then: str = ".*") -> str:
    """scikit-learn's refusal of a string, which lists the allowed ones in no fixed order: each must appear.

    ``then``: what the message says between the list and "Got" (the other kinds of value allowed).
    """
    listed = "".join(f"(?=[^}}]*'{option}')" for option in options)
    return rf"The '{param}' parameter of {owner} must be a str among \{{{listed}[^}}]*\}}{then}Got '{value}' instead\."

ERRORS = [
    # --- MDS: real violations refused with the largest violation and the tolerance
    ("mds_diagonal_0.1", lambda: classical_mds(_replace(D6 / D6.max(), 0, 0, 0.1)), ValueError,
     r"zero diagonal.*largest is D\[0, 0\] = 0\.1 \(" + TOL + r".*np\.fill_diagonal"),
    ("mds_negative_distance", lambda: classical_mds(-D6), ValueError,
     r"negative entries, the most negative D\[\d, \d\] = -[\d.]+ \(" + TOL
     + r".*\); distances are non-negative.*classical_mds\(F=\.\.\.\)"),
    ("mds_asymmetric_distance", lambda: classical_mds(_replace(D6, 0, 1, D6[0, 1] + 0.01)), ValueError,
     r"D is not symmetric: entries \(0, 1\) and \(1, 0\)"
      r".*largest \|d_ij - d_ji\| = 0\.01, " + TOL + r".*\(D \+ D\.T\) / 2"),
    ("mds_asymmetric_similarity", lambda: check_similarity_matrix(_replace(F3, 0, 1, 0.6)), ValueError,
     r"F is not symmetric.*Largest \|f_ij - f_ji\| = 0\.1 \(tolerance [\d.e-]+ = atol \+ rtol \* max\|F\|"
      r".*\(F \+ F\.T\) / 2"),
    ("mds_similarity_above_diagonal", lambda: check_similarity_matrix(np.array([[1.0, 1.2], [1.2, 1.0]])), ValueError,
     r"f_ij <= f_ii.*Largest excess f_ij - f_ii = 0\.2 \(tolerance.*at least as similar to itself"),
    ("mds_n_components_zero", lambda: classical_mds(D6, n_components=0), ValueError,
     r"n_components must be an integer in \[1, 6\]; got 0"),
    ("mds_n_components_bool", lambda: classical_mds(D6, n_components=True), ValueError,
     r"n_components must be an integer in \[1, 6\]; got True"),
    ("mds_negative_rtol", lambda: classical_mds(D6, rtol=-1.0), ValueError,
     r"rtol must be a finite number >= 0, e\.g\. rtol=1e-8; got -1\.0"),
    ("mds_both_D_and_F", lambda: classical_mds(D6, F=F3), ValueError, r"Pass exactly one of D \(distances\) or F"),
    ("mds_place_nan", lambda: place_new_points(classical_mds(D6), np.full((1, 6), np.nan)), ValueError,
     r"d_new contains NaN in 6 entries, first at row 0, column 0.*impute"),
    ("mds_place_negative", lambda: place_new_points(classical_mds(D6), -np.ones((1, 6))), ValueError,
     r"d_new holds negative distances \(minimum -1\); pass distances"),
    ("mds_not_square", lambda: classical_mds(np.zeros((3, 2))), ValueError,
     r"D must be a square matrix; got shape \(3, 2\)"),
    # --- whitening: the advice must be something that would work for the method that failed
    ("whiten_cholesky_fails_no_cholesky_advice", lambda: whitening_matrix(_ill_conditioned(3e13), "cholesky"),
     ValueError,
     r"(?s)^(?!.*least sensitive).*method='cholesky' lost precision.*condition number of sigma 3e\+13\)\. "
     r"Regularise the covariance: Whitener\(covariance='ledoit_wolf'\) or a float shrinkage.*fewer features"),
    ("whiten_zca_fails_cholesky_advised", lambda: whitening_matrix(_ill_conditioned(3e13), "zca"), ValueError,
     r"method='zca' lost precision.*condition number of sigma 3e\+13"
      r".*ledoit_wolf.*method='cholesky' is the least sensitive"),
    ("whiten_overflow", lambda: Whitener().fit(X40 * 1e200), ValueError,
     r"covariance of X overflowed: X holds values up to [\d.]+e\+200"
      r".*Rescale X first, e\.g\. sklearn\.preprocessing\.StandardScaler"),
    ("whiten_underflow", lambda: Whitener().fit(X40 * 1e-200), ValueError,
     r"covariance of X underflowed: column 0 varies.*Rescale X first"),
    ("whiten_nan", lambda: Whitener().fit(_with_nan(X40, 3, 1)), ValueError,
     r"X contains NaN in 1 entries, first at row 3, column 1.*SimpleImputer"),
    ("whiten_inf_is_overflow", lambda: Whitener().fit(_with_inf(X40, 5, 2)), ValueError,
     r"X contains inf \(overflow: a value beyond the float64 range.*row 5, column 2.*Rescale the data"),
    ("whiten_text", lambda: Whitener().fit(np.array([["a", "b"], ["c", "d"], ["e", "f"]])), ValueError,
     r"X must be numeric; could not convert it to float.*OrdinalEncoder"),
    ("whiten_complex", lambda: Whitener().fit(X40 + 1j), ValueError,
     r"Complex data not supported: X holds complex numbers.*X\.real"),
    ("whiten_1d", lambda: Whitener().fit(X40[:, 0]), ValueError, r"(?s)Expected 2D array, got 1D array"
     r".*Reshape your data"),
    ("whiten_3d", lambda: Whitener().fit(X40[None]), ValueError, r"Found array with dim 3"),
    ("whiten_feature_mismatch", lambda: Whitener().fit(X40).transform(X40[:, :2]), ValueError,
     r"X has 2 features, but Whitener is expecting 3 features"),
    ("whiten_single_sample", lambda: Whitener().fit(X40[:1]), ValueError, r"1 sample\(s\).*minimum of 2 is required"),
    ("whiten_zero_variance", lambda: Whitener().fit(np.c_[X40, np.ones(40)]), ValueError,
     r"training covariance is singular.*numerical rank 3 of 4.*covariance='ledoit_wolf'"),
    ("whiten_p_greater_than_n", lambda: Whitener().fit(X40[:3] @ np.ones((3, 5))), ValueError,
     r"singular.*3 samples of 5 features; a sample covariance has rank at most n - 1 = 2.*PCA"),
    ("whiten_unknown_method", lambda: Whitener(method="foo").fit(X40), ValueError,
     _str_among("method", "Whitener", ["zca", "zca_cor", "pca", "pca_cor", "cholesky"], "foo")),
    ("whiten_unknown_covariance", lambda: Whitener(covariance="robust").fit(X40), ValueError,
     _str_among("covariance", "Whitener", ["sample", "population", "ledoit_wolf", "oas"], "robust",
                then=r", a float in the range \[0\.0, 1\.0\] or an object implementing 'fit'\. ")),
    # a string was taken for its truth value: center="no" centred the data
    ("whiten_center_text", lambda: Whitener(center="no").fit(X40), ValueError,
     r"The 'center' parameter of Whitener must be an instance of 'bool' or an instance of 'numpy\.bool'\. "
     r"Got 'no' instead\."),
    ("expected_whitener_singleton_class", lambda: ExpectedWhitener().fit(X40[:5], [0, 0, 0, 0, 1]), ValueError,
     r"Class 1 has 1 sample; a class covariance needs at least 2\. Merge or drop that class"),
    # --- kNN: n_neighbors refused, also after set_params
    ("knn_set_params_too_many", lambda: _fitted_knn(n_neighbors=100).predict_proba(X40[:2]), ValueError,
     r"Expected n_neighbors <= n_samples_fit, but n_neighbors = 100, n_samples_fit = 40.*set_params\(n_neighbors=40\)"),
    ("knn_set_params_zero", lambda: _fitted_knn(n_neighbors=0).predict(X40[:2]), ValueError,
     r"n_neighbors must be an integer >= 1, e\.g\. n_neighbors=5; got 0"),
    ("knn_fit_too_many", lambda: ClassConditionalKNN(n_neighbors=41).fit(X40, Y40), ValueError,
     r"Expected n_neighbors <= n_samples_fit, but n_neighbors = 41, n_samples_fit = 40"),
    ("knn_negative", lambda: ClassConditionalKNN(n_neighbors=-3).fit(X40, Y40), ValueError,
     r"The 'n_neighbors' parameter of ClassConditionalKNN must be an int in the range \[1, inf\)\. Got -3 instead"),
    ("knn_non_integer", lambda: ClassConditionalKNN(n_neighbors=2.5).fit(X40, Y40), ValueError,
     r"The 'n_neighbors' parameter of ClassConditionalKNN must be an int in the range \[1, inf\)\. Got 2\.5 instead"),
    ("knn_bool", lambda: ClassConditionalKNN(n_neighbors=True).fit(X40, Y40), ValueError,
     r"n_neighbors must be an integer >= 1, e\.g\. n_neighbors=5; got True"),
    ("knn_unknown_metric", lambda: ClassConditionalKNN(metric="manhattan").fit(X40, Y40), ValueError,
     _str_among("metric", "ClassConditionalKNN", ["cosine", "euclidean"], "manhattan")),
    ("knn_transform_nan", lambda: _fitted_knn().predict(_with_nan(X40[:3], 2, 0)), ValueError,
     r"X contains NaN in 1 entries, first at row 2, column 0.*SimpleImputer"),
    ("nearest_neighbors_k_zero", lambda: nearest_neighbors(X40, X40, k=0), ValueError,
     r"k must be an integer in \[1, 40\] \(the rows of y\); got 0"),
    ("nearest_neighbors_k_too_big", lambda: nearest_neighbors(X40, X40, k=41), ValueError,
     r"k must be an integer in \[1, 40\] \(the rows of y\); got 41"),
    ("nearest_neighbors_unknown_metric", lambda: nearest_neighbors(X40, X40, metric="l1"), ValueError,
     r"Unknown metric 'l1'; valid options are 'euclidean', 'mahalanobis', 'cosine', 'variance_adjusted_cosine'"),
    ("nearest_neighbors_feature_mismatch", lambda: nearest_neighbors(X40, X40[:, :2]), ValueError,
     r"x and y must have the same number of features; got shapes \(40, 3\) and \(40, 2\)"),
    ("nearest_indices_nan", lambda: nearest_indices(np.array([[0.0, np.nan]]), 1), ValueError,
     r"D contains NaN \(first at index \(0, 1\)\)"),
    # --- metrics
    ("cosine_zero_vector", lambda: cosine_similarity([0.0, 0.0], [1.0, 2.0]), ValueError,
     r"undefined for a zero vector: row 0 of x.*use a distance instead"),
    ("cosine_1d_vs_2d", lambda: cosine_similarity(U, X40), ValueError,
     r"both be vectors \(1-D\) or both be sample matrices \(2-D\); got shapes \(3,\) and \(40, 3\).*reshape\(1, -1\)"),
    ("cosine_3d", lambda: cosine_similarity(np.ones((2, 2, 2)), np.ones((2, 2, 2))), ValueError,
     r"x must be 1-D or 2-D; got shape \(2, 2, 2\)\. Reshape it"),
    ("cosine_text", lambda: cosine_similarity(["a", "b"], [1.0, 2.0]), ValueError,
     r"x must be numeric; could not convert.*OrdinalEncoder"),
    ("cosine_complex", lambda: cosine_similarity([1 + 1j, 1.0], [1.0, 1.0]), ValueError,
     r"x holds complex numbers.*x\.real"),
    ("cosine_ragged", lambda: cosine_similarity([[1.0, 2.0], [1.0]], [[1.0, 2.0]]), ValueError,
     r"x must be a rectangular array of numbers; its rows have different lengths"),
    ("cosine_nan", lambda: cosine_similarity([np.nan, 1.0], [1.0, 1.0]), ValueError,
     r"x contains NaN in 1 entries, first at index \(0,\).*impute"),
    ("cosine_inf_is_overflow", lambda: cosine_similarity([np.inf, 1.0], [1.0, 1.0]), ValueError,
     r"x contains inf \(overflow.*Rescale"),
    ("cosine_object_dict", lambda: cosine_similarity(np.array([{"a": 1}, 1.0], dtype=object), [1.0, 1.0]), TypeError,
     r"x must be numeric; could not convert it to float"),
    ("minkowski_p_below_1", lambda: minkowski(U, V, 0.5), ValueError,
     r"needs p >= 1 \(or np\.inf\) to be a metric; got 0\.5"),
    ("lp_norm_p_zero", lambda: lp_norm(U, 0), ValueError, r"p = 0 is not an L_p norm; use l0_norm"),
    ("mahalanobis_indefinite_VI", lambda: mahalanobis(U[:2], V[:2], np.diag([1.0, -1.0])), ValueError,
     r"VI \(the inverse covariance\) is not positive semi-definite: smallest eigenvalue -1\. .*ledoit_wolf"),
    ("mahalanobis_VI_shape", lambda: mahalanobis(U, V, np.eye(2)), ValueError,
     r"VI has shape \(2, 2\) but the data have 3 features; it must be \(3, 3\)"),
    ("vac_W_shape", lambda: variance_adjusted_cosine(U, V, np.eye(2)), ValueError,
     r"W must have shape \(3, 3\) for 3 features; got \(2, 2\)"),
    # --- binary coefficients
    ("binary_non_01_integers", lambda: binary_similarity(np.array([[2, 0], [0, 1]]), coefficient="jaccard"), ValueError,
     r"x must be binary \(0/1 or bool\); found 2\.0 at index \(0, 0\).*Binarise first"),
    ("binary_unknown_coefficient", lambda: binary_similarity(np.eye(2), coefficient="tanimoto"), ValueError,
     r"Unknown coefficient 'tanimoto'; choose one of \['dice', 'hamann', 'jaccard'"),
    ("binary_complex", lambda: jaccard([1 + 0j, 0], [1, 0]), ValueError, r"x holds complex numbers"),
    ("binary_1d_matrix", lambda: binary_similarity([1, 0, 1]), ValueError,
     r"X \(and Y\) must be 2-D arrays of binary rows; got shapes \(3,\).*reshape\(1, -1\)"),
    # --- SVM and clustering
    ("svm_C_zero", lambda: primal_linear_svm([[-1.0], [1.0]], [-1, 1], C=0), ValueError,
     r"C must be a finite number > 0, e\.g\. C=1\.0; got 0"),
    ("svm_C_text", lambda: primal_linear_svm([[-1.0], [1.0]], [-1, 1], C="1"), ValueError,
     r"C must be a finite number > 0, e\.g\. C=1\.0; got '1'"),
    ("svm_labels_01", lambda: primal_linear_svm([[-1.0], [1.0]], [0, 1]), ValueError,
     r"labels must be -1 and \+1, got \[0\.0, 1\.0\]; map them first, e\.g\. y = np\.where"),
    ("svm_nan", lambda: primal_linear_svm([[np.nan], [1.0]], [-1, 1]), ValueError,
     r"X contains NaN in 1 entries, first at row 0, column 0.*impute"),
    ("kmeans_k_max_none", lambda: kmeans_inertias(X40, None), ValueError,
     r"k_max must be an integer in \[1, 40\] \(at most the number of samples\); got None"),
    ("pham_alpha_k_max_fraction", lambda: pham_alpha(2.5, 2), ValueError,
     r"k_max must be an integer >= 1, e\.g\. k_max=10; got 2\.5"),
]


@pytest.mark.parametrize("call, error, words", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_bad_input_gives_a_clear_error(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a warning is not the error under test
        with pytest.raises(error, match=words):
            call()


# --- right answers ---------------------------------------------------------------------------


def _gram_distances(X):
    """Distances the usual way, sqrt(|x|^2 + |y|^2 - 2 x'y): the diagonal is ~1e-8, not 0."""
    sq = (X**2).sum(1)
    return np.sqrt(np.abs(sq[:, None] + sq[None, :] - 2 * X @ X.T))


def _mds_distances(D):
    return sd.squareform(sd.pdist(classical_mds(D, n_components=3).embedding))


X8 = np.random.default_rng(2).normal(size=(8, 3)) + 10.0
GAUSS = np.exp(-(np.subtract.outer(*(2 * [np.sort(np.random.default_rng(3).random(1200)) * 10]))) ** 2)


def _knn_row_sums(k):
    return ClassConditionalKNN(n_neighbors=3).fit(X40, Y40).set_params(n_neighbors=k).predict_proba(X40).sum(axis=1)


ANSWERS = [
    # the overflow/underflow family: reference = library at unit scale times the scale
    *[(f"cosine_at_{s:g}", lambda s=s: cosine_similarity(U * s, V * s), 1 - sd.cosine(U, V)) for s in SCALES],
    *[(f"cosine_mixed_scales_{s:g}", lambda s=s: cosine_similarity(U * s, V / s), 1 - sd.cosine(U, V))
      for s in (1e150, 1e-150)],
    *[(f"euclidean_at_{s:g}", lambda s=s: minkowski(U * s, V * s, 2), sd.euclidean(U, V) * s) for s in SCALES],
    *[(f"minkowski3_at_{s:g}", lambda s=s: minkowski(U * s, V * s, 3), sd.minkowski(U, V, 3) * s) for s in SCALES],
    *[(f"lp_norm_at_{s:g}", lambda s=s: lp_norm(U * s), np.linalg.norm(U) * s) for s in SCALES],
    *[(f"mahalanobis_at_{s:g}", lambda s=s: mahalanobis(U * s, V * s, VI), sd.mahalanobis(U, V, VI) * s)
      for s in SCALES],
    *[(f"mahalanobis_VI_at_{s:g}", lambda s=s: mahalanobis(U, V, VI * s), sd.mahalanobis(U, V, VI) * np.sqrt(s))
      for s in (1e-300, 1e300)],
    *[(f"vac_at_{s:g}", lambda s=s: variance_adjusted_cosine(U * s, V * s, whitening_matrix(linalg.inv(VI))),
       float(U @ VI @ V / np.sqrt(U @ VI @ U * (V @ VI @ V))))
      for s in SCALES],
    ("cdist_matrix_at_1e300", lambda: mahalanobis(X40[:4] * 1e300, X40[4:7] * 1e300, np.eye(3)),
     sd.cdist(X40[:4], X40[4:7]) * 1e300),
    ("nearest_neighbors_at_1e300", lambda: nearest_neighbors(X40[:5] * 1e300, X40 * 1e300, k=3)[0],
     np.sort(sd.cdist(X40[:5], X40), axis=1)[:, :3] * 1e300),
    ("nearest_neighbors_cosine_at_1e-200",
     lambda: nearest_neighbors(X40[:5] * 1e-200, X40 * 1e-200, k=3, metric="cosine")[0],
     np.sort(sd.cdist(X40[:5], X40, "cosine"), axis=1)[:, :3]),
    ("knn_cosine_at_1e250_same_votes", lambda: ClassConditionalKNN(n_neighbors=3, covariance="ledoit_wolf")
     .fit(X40 * 1e150, Y40).predict_proba(X40[:6] * 1e250),
     ClassConditionalKNN(n_neighbors=3, covariance="ledoit_wolf").fit(X40, Y40).predict_proba(X40[:6] * 1e100)),
    # MDS: floating-point noise tolerated
    ("mds_gram_formula_distances", lambda: _mds_distances(_gram_distances(X8)), sd.squareform(sd.pdist(X8))),
    ("mds_diagonal_1e-8", lambda: _mds_distances(_replace(sd.squareform(sd.pdist(X8)), 2, 2, 1e-8)),
     sd.squareform(sd.pdist(X8))),
    ("similarity_rounding_asymmetry", lambda: similarity_to_distance(_replace(F3, 0, 1, 0.5 + 1e-13)),
     similarity_to_distance(F3)),
    ("smallest_eigenvalue_n1200_dense", lambda: check_similarity_matrix(GAUSS)["min_eigenvalue"],
     linalg.eigvalsh(GAUSS, subset_by_index=[0, 0])[0]),
    # kNN probabilities sum to 1 for every n_neighbors (scikit-learn's contract)
    *[(f"knn_proba_rows_sum_to_1_k{k}", lambda k=k: _knn_row_sums(k), np.ones(40)) for k in (1, 4, 20, 40)],
    ("knn_one_class", lambda: ClassConditionalKNN(n_neighbors=3).fit(X40, np.zeros(40)).predict_proba(X40[:3]),
     KNeighborsClassifier(3).fit(X40, np.zeros(40)).predict_proba(X40[:3])),
    # binary: bool input, and two all-zero rows (0/0) for Jaccard as 1 - scipy
    ("binary_bool_input",
     lambda: binary_similarity(np.array([[True, False, True], [True, True, False]]), coefficient="jaccard"),
     1 - sd.squareform(sd.pdist(np.array([[1, 0, 1], [1, 1, 0]], bool), "jaccard"))),
    ("jaccard_all_zero_rows", lambda: jaccard([0, 0, 0], [0, 0, 0]), 1 - sd.jaccard([0, 0, 0], [0, 0, 0])),
    ("jaccard_zero_vs_nonzero", lambda: jaccard([0, 0, 0], [0, 1, 0]), 1 - sd.jaccard([0, 0, 0], [0, 1, 0])),
]


@pytest.mark.parametrize("call, reference", [c[1:] for c in ANSWERS], ids=[c[0] for c in ANSWERS])
def test_extreme_or_noisy_input_gives_the_right_answer(call, reference):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no silent overflow on the way
        got = call()
    ref = np.asarray(reference, dtype=float)
    assert np.all(np.isfinite(got))
    assert_allclose(got, ref, rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("scale", [1e150, 1e-150])
def test_scipy_agrees_where_it_is_finite(scale):
    # scipy's own values at these magnitudes, where it does not overflow: ours match them too
    assert minkowski(U * scale, V * scale, 2) == pytest.approx(sd.minkowski(U * scale, V * scale, 2), rel=1e-12)
    assert mahalanobis(U * scale, V * scale, VI) == pytest.approx(sd.mahalanobis(U * scale, V * scale, VI), rel=1e-12)
    assert lp_norm(U * scale) == pytest.approx(np.linalg.norm(U * scale), rel=1e-12)


def test_unavoidable_overflow_is_inf_with_a_warning_not_nan():
    with pytest.warns(RuntimeWarning, match=r"minkowski overflowed: 1 value\(s\) exceed the float64 range.*Rescale"):
        d = minkowski([1e308, -1e308], [-1e308, 1e308], 2)
    assert d == np.inf
    with pytest.warns(RuntimeWarning, match=r"lp_norm overflowed"):
        assert lp_norm([1.5e308, 1.5e308]) == np.inf


@given(
    st.lists(st.floats(-1e3, 1e3).filter(lambda v: abs(v) > 1e-3), min_size=3, max_size=3),
    st.lists(st.floats(-1e3, 1e3).filter(lambda v: abs(v) > 1e-3), min_size=3, max_size=3),
    st.integers(-200, 200),
    st.integers(-200, 200),
)
def test_cosine_is_scale_invariant_from_1e_minus_200_to_1e200(u, v, a, b):
    u, v = np.array(u), np.array(v)
    expected = 1 - sd.cosine(u, v)
    assert cosine_similarity(u * 10.0**a, v * 10.0**b) == pytest.approx(expected, abs=1e-12)


def test_lanczos_that_does_not_converge_falls_back_to_the_dense_solver(monkeypatch):
    # ARPACK stalled for 40-150 s on some 1,500-object matrices and raised ArpackNoConvergence;
    # now the dense solver answers instead, for the top eigenpairs and the smallest eigenvalue
    from scipy.sparse.linalg import ArpackNoConvergence

    import helpers.mds as mds

    def stall(*args, **kwargs):
        raise ArpackNoConvergence("simulated", np.array([]), np.array([]))

    monkeypatch.setattr(mds, "eigsh", stall)
    monkeypatch.setattr(mds, "_DENSE_MAX", 100)
    X = np.random.default_rng(4).normal(size=(1100, 3))
    res = classical_mds(sd.squareform(sd.pdist(X)), n_components=3, full_spectrum=False)
    assert_allclose(sd.pdist(res.embedding[:50]), sd.pdist(X[:50]), rtol=1e-8)
    F = GAUSS[:200, :200]
    assert check_similarity_matrix(F)["min_eigenvalue"] == pytest.approx(linalg.eigvalsh(F)[0], abs=1e-12)


# --- hostile input: sparse, float32, pandas with NA and categories, odd labels and shapes, large n
# (each case is a row of tests/hostile_cases/maths.csv)

S40 = sp.csr_matrix(X40)
DF40 = pd.DataFrame(X40, columns=["a", "b", "c"])
DF_NA = DF40.astype("Float64")
DF_NA.iloc[3, 1] = pd.NA
DF_CAT = DF40.assign(c=pd.Categorical(["low", "high"] * 20))
DF_STR = DF40.assign(c=["x", "y"] * 20)
MIXED = np.array(["a", 1] * 20, dtype=object)
SPARSE = r"is a scipy sparse csr_matrix of shape \(40, 3\); this function needs a dense array\. Pass \w+\.toarray\(\)"
NA = r"contains NaN in 1 entries, first at row 3, column 1.*SimpleImputer"
TEXT = r"X must be numeric; could not convert it to float.*OrdinalEncoder"

HOSTILE_ERRORS = [
    # sparse input where only dense is taken: the size of toarray() and the sparse route
    ("sparse_nearest_neighbors", lambda: nearest_neighbors(S40, S40), TypeError, "x " + SPARSE),
    ("sparse_knn_cv", lambda: knn_cv_accuracy_by_k(S40, Y40, [1], KFold(2)), TypeError, "X " + SPARSE),
    ("sparse_cosine_similarity", lambda: cosine_similarity(S40, S40), TypeError, SPARSE + r".*GramPCA"),
    ("sparse_binary_similarity", lambda: binary_similarity(sp.csr_matrix((X40 > 0).astype(float))), TypeError,
     r"x is a scipy sparse csr_matrix.*toarray\(\) if it fits in memory"),
    ("sparse_classical_mds", lambda: classical_mds(sp.csr_matrix(D6)), TypeError,
     r"D is a scipy sparse csr_matrix of shape \(6, 6\).*D\.toarray\(\)"),
    ("sparse_kmeans_inertias", lambda: kmeans_inertias(S40, 3), TypeError, "X " + SPARSE),
    ("sparse_whitener", lambda: Whitener().fit(S40), TypeError, r"Sparse data was passed for X.*\.toarray\(\)"),
    ("sparse_tuned_knn", lambda: TunedKNN().fit(S40, Y40), TypeError, r"Sparse data was passed.*\.toarray\(\)"),
    ("tuned_knn_transformer_text", lambda: TunedKNN(transformer="passthrough").fit(X40, Y40), ValueError,
     r"The 'transformer' parameter of TunedKNN must be an object implementing 'fit' and 'transform' or None\. "
     r"Got 'passthrough' instead\."),
    ("sparse_class_conditional_knn", lambda: ClassConditionalKNN().fit(S40, Y40), TypeError,
     r"Sparse data was passed.*\.toarray\(\)"),
    # pandas: pd.NA in nullable Float64 columns is a missing value, told with its position
    ("pandas_na_knn_cv", lambda: knn_cv_accuracy_by_k(DF_NA, Y40, [1], KFold(2)), ValueError, "X " + NA),
    ("pandas_na_nearest_neighbors", lambda: nearest_neighbors(DF_NA, DF_NA), ValueError, "x " + NA),
    ("pandas_na_whitener", lambda: Whitener().fit(DF_NA), ValueError, "X " + NA),
    ("pandas_na_tuned_knn", lambda: TunedKNN().fit(DF_NA, Y40), ValueError, "X " + NA),
    ("pandas_na_cosine_similarity", lambda: cosine_similarity(DF_NA, DF_NA), ValueError, "x " + NA),
    ("pandas_na_gram_pca", lambda: GramPCA(2).fit(DF_NA), ValueError, "X " + NA),
    ("pandas_na_object_none", lambda: nearest_neighbors(np.array([[1.0, None], [2.0, 3.0]], dtype=object),
                                                        [[1.0, 2.0]], k=1), ValueError,
     r"x contains NaN in 1 entries, first at row 0, column 1.*SimpleImputer"),  # numpy reads None as NaN
    # categorical and object columns of text
    ("pandas_categorical_whitener", lambda: Whitener().fit(DF_CAT), ValueError, TEXT),
    ("pandas_categorical_knn_cv", lambda: knn_cv_accuracy_by_k(DF_CAT, Y40, [1], KFold(2)), ValueError, TEXT),
    ("pandas_object_strings_tuned_knn", lambda: TunedKNN().fit(DF_STR, Y40), ValueError, TEXT),
    ("pandas_categorical_gram_pca", lambda: GramPCA(2).fit(DF_CAT), ValueError,
     r"X must be numeric.*encode text columns as numbers"),
    # labels
    ("labels_mixed_knn_cv", lambda: knn_cv_accuracy_by_k(X40, MIXED, [1], KFold(2)), TypeError,
     r"y mixes labels of types int, str, which cannot be sorted.*astype\(str\)"),
    ("labels_mixed_tuned_knn", lambda: TunedKNN().fit(X40, MIXED), TypeError, r"y mixes labels of types int, str"),
    ("labels_mixed_class_conditional_knn", lambda: ClassConditionalKNN().fit(X40, MIXED), TypeError,
     r"y mixes labels of types int, str"),
    ("labels_nan_knn_cv", lambda: knn_cv_accuracy_by_k(X40, np.r_[Y40[:39], np.nan], [1], KFold(2)), ValueError,
     r"y has a missing label \(NaN\) at index 39; drop those rows"),
    ("labels_column_knn_cv", lambda: knn_cv_accuracy_by_k(X40, Y40[:, None], [1], KFold(2)), ValueError,
     r"y must be 1-D, one label per row; got shape \(40, 1\)\. Use y\.ravel\(\)"),
    ("labels_one_class_knn_cv", lambda: knn_cv_accuracy_by_k(X40, np.zeros(40), [1], KFold(2)), ValueError,
     r"y has 1 class\(es\) \[0\.0\]; a classification score needs at least 2"),
    ("labels_one_class_tuned_knn", lambda: TunedKNN().fit(X40, np.zeros(40)), ValueError,
     r"y has 1 class\(es\).*needs at least 2"),
    # k, shapes, parameters
    ("k_above_n_knn_cv", lambda: knn_cv_accuracy_by_k(X40, Y40, [100], KFold(2)), ValueError,
     r"K = 100 exceeds the 20 rows of a training fold; use ks <= 20"),
    ("k_above_n_tuned_knn", lambda: TunedKNN(ks=(100,)).fit(X40, Y40), ValueError,
     r"no k in ks=\(100,\) fits the 26 rows of an inner training fold; include a k <= 26"),
    ("single_row_tuned_knn", lambda: TunedKNN().fit(X40[:1], Y40[:1]), ValueError,
     r"smallest class \(0\) has 1 sample, fewer than inner_folds=3"),
    ("zero_d_nearest_neighbors", lambda: nearest_neighbors(np.array(3.0), X40), ValueError,
     r"x must be 2-D; got shape \(\)"),
    ("zero_d_nearest_indices", lambda: nearest_indices(np.array(3.0), 1), ValueError,
     r"D must be a 2-D matrix of distances.*got shape \(\)\. Use D\.reshape\(1, -1\)"),
    ("three_d_knn_cv", lambda: knn_cv_accuracy_by_k(X40[None], Y40, [1], KFold(2)), ValueError,
     r"X must be 2-D; got shape \(1, 40, 3\)\. Reshape it to 2-D first"),
    ("three_d_gram_pca", lambda: GramPCA(2).fit(X40[None]), ValueError, r"Found array with dim 3.*dim <= 2"),
    ("working_memory_zero", lambda: knn_cv_accuracy_by_k(X40, Y40, [1], KFold(2), working_memory=0), ValueError,
     r"working_memory must be a finite number > 0, e\.g\. working_memory=256 \(MiB\); got 0"),
    ("working_memory_text", lambda: knn_cv_predictions_by_k(X40, Y40, [1], KFold(2), working_memory="64"),
     ValueError, r"working_memory must be a finite number > 0.*got '64'"),
    ("knn_cv_metric_mahalanobis", lambda: knn_cv_accuracy_by_k(X40, Y40, [1], KFold(2), metric="mahalanobis"),
     ValueError, r"metric='mahalanobis' needs a covariance .* estimated on each training fold.*"
                 r"transformer=Whitener\(\).*metric='euclidean'"),
    ("knn_cv_metric_misspelt", lambda: knn_cv_accuracy_by_k(X40, Y40, [1], KFold(2), metric="cosin"), ValueError,
     r"Unknown metric 'cosin'; did you mean 'cosine'\?"),
    ("tuned_knn_metric_misspelt", lambda: TunedKNN(metric="euclidian").fit(X40, Y40), ValueError,
     _str_among("metric", "TunedKNN", ["euclidean", "cosine", "manhattan"], "euclidian")),
    # an exponent that is not a real number: refused by name before any comparison (a str raised numpy's
    # "'>=' not supported"; True was read as p = 1)
    ("minkowski_p_text", lambda: minkowski([0, 0], [1, 3], "2"), TypeError,
     r"p must be a real number \(or np\.inf\), e\.g\. p=2; got '2' of type str\.$"),
    ("minkowski_p_bool", lambda: minkowski([0, 0], [1, 3], True), TypeError,
     r"got True of type bool \(booleans are not exponents\)\.$"),
    ("lp_norm_p_none", lambda: lp_norm([1.0, 2.0], None), TypeError,
     r"p must be a real number.*got None of type NoneType"),
    ("svm_too_many_rows", lambda: primal_linear_svm(np.zeros((2001, 2)), np.ones(2001)), ValueError,
     r"X has 2,001 rows, beyond the 2,000 primal_linear_svm is meant for.*SVC\(kernel='linear'"),
    # --- second round: covariance factors, binary tables, k-means scales, scores, votes, flags
    # an asymmetric VI was factored from one triangle (the factor of another matrix), NaN reached LAPACK
    ("precision_factor_asymmetric", lambda: precision_factor(np.array([[1.0, 2.0], [0.0, 1.0]])), ValueError,
     r"VI is not symmetric: entries \(0, 1\) and \(1, 0\) differ \(2 vs 0; .*Pass \(M \+ M\.T\) / 2"),
    ("precision_factor_nan", lambda: precision_factor(np.array([[np.nan, 0.0], [0.0, 1.0]])), ValueError,
     r"VI contains NaN in 1 entries, first at row 0, column 0"),
    ("binary_coefficient_none", lambda: binary_similarity(np.eye(2), coefficient=None), ValueError,
     r"Unknown coefficient None; choose one of \['dice', 'hamann', 'jaccard'"),
    ("simple_matching_no_features", lambda: simple_matching([], []), ValueError,
     r"simple_matching is undefined for vectors with 0 features: its denominator counts the features, so it is "
     r"0 / 0\. Pass binary rows with at least one feature"),
    ("select_k_tol_bool", lambda: select_k_by_alpha([12.0, 6.0, 3.0, 2.4], True), ValueError,
     r"tol must be a finite number > 0 \(a positive fraction of alpha_1\), e\.g\. tol=0\.05; got True\.$"),
    ("select_k_tol_none", lambda: select_k_by_alpha([12.0, 6.0, 3.0, 2.4], None), ValueError,
     r"tol must be a finite number > 0 .*got None\.$"),
    ("kmeans_at_1e300", lambda: kmeans_inertias(X40 * 1e300, 3), ValueError,
     r"X is too spread out .*largest deviation from a column mean is [\d.]+e\+300.*squares overflow float64"
     r".*every S_K would be inf\. Rescale X first"),
    ("kmeans_at_1e-300", lambda: kmeans_inertias(X40 * 1e-300, 3), ValueError,
     r"X is too tightly packed .*largest deviation from a column mean is [\d.]+e-300.*underflow float64"
     r".*as if every point coincided\. Rescale X first"),
    # NaN != NaN: a missing label scored accuracy 1 and macro scores 0.5 at once
    ("prf_nan_labels", lambda: prf_scores([0.0, np.nan], [0.0, np.nan]), ValueError,
     r"y_true has a missing label \(NaN\) at index 1; drop those rows or label them first"),
    ("prf_3d", lambda: prf_scores(np.ones((2, 2, 2)), np.ones((2, 2, 2))), ValueError,
     r"y_true and y_pred must be 1-D labels \(one per document\) or 2-D indicator matrices .*got shape \(2, 2, 2\)"),
    ("prf_classes_empty", lambda: prf_scores([0, 1], [0, 1], classes=[]), ValueError,
     r"classes is empty: the macro scores average over the categories it names.*classes=np\.unique\(y_true\)"),
    ("split_test_size_bool", lambda: repeated_split_scores({"knn": KNeighborsClassifier(3)}, X40, Y40, n_splits=2,
                                                           test_size=True), ValueError,
     r"test_size must be a number in \(0, 1\) or an integer >= 1 \(the share of the rows, or their number, held out "
     r"for testing\), e\.g\. test_size=0\.2; got True\.$"),
    ("split_random_state_negative", lambda: repeated_split_scores({"knn": KNeighborsClassifier(3)}, X40, Y40,
                                                                  n_splits=2, random_state=-1), ValueError,
     r"random_state must be None or an integer in \[0, 2\*\*32 - 1\] \(the seed of the splits\).*got -1\.$"),
    ("cv_n_jobs_zero", lambda: repeated_cv_scores({"knn": KNeighborsClassifier(3)}, X40, Y40, n_folds=2, n_jobs=0),
     ValueError, r"n_jobs must be None \(one process\), a positive number of processes or -1 \(every core\).*got 0\."),
    # a negative weight voted against its own class: the farther neighbour won
    ("weighted_vote_negative_weights", lambda: distance_weighted_proba([[0, 1]], [[1.0, 2.0]], np.array([0, 1]), [2],
                                                                       weights=lambda d: -d), ValueError,
     r"weights returned -1\.0 for neighbour 0 of query 0 \(k=2, distance 1\.0\); a vote weight must be a finite "
     r"number >= 0"),
    ("weighted_vote_n_classes_fraction", lambda: distance_weighted_proba([[0, 1]], [[1.0, 2.0]], np.array([0, 1]), [2],
                                                                         n_classes=1.5), ValueError,
     r"n_classes must be an integer >= 1, e\.g\. n_classes=len\(classes\); got 1\.5\.$"),
    ("majority_votes_text_codes", lambda: majority_votes([[0, 1]], np.array(["a", "b"]), [2]), ValueError,
     r"Y must hold integer class codes 0 \.\. n_classes - 1; got dtype <U1 \(e\.g\. 'a'\)\. Encode labels first: "
     r"classes, codes = np\.unique\(y, return_inverse=True\)"),
    ("majority_votes_float_codes", lambda: majority_votes([[0, 1]], np.array([0.0, 1.0]), [2]), ValueError,
     r"^Y must hold integer class codes 0 \.\. n_classes - 1; got dtype float64"),
    ("nearest_indices_exclude_self_text", lambda: nearest_indices(np.ones((3, 3)), 1, exclude_self="no"), ValueError,
     r"^exclude_self must be one of True, False; got 'no'\.$"),
    ("class_priors_nan", lambda: class_priors([0.0, np.nan, np.nan]), ValueError,
     r"y has a missing label \(NaN\) at index 1; drop those rows"),
    ("expected_whitening_mixed_labels", lambda: expected_whitening_matrix(X40, MIXED), TypeError,
     r"y mixes labels of types int, str, which cannot be sorted.*astype\(str\)"),
    ("class_whitening_nan_label", lambda: class_whitening_matrices(X40, np.r_[Y40[:39], np.nan]), ValueError,
     r"y has a missing label \(NaN\) at index 39"),
    ("transform_by_class_list", lambda: transform_by_class(X40, Y40, [np.eye(3), np.eye(3)]), TypeError,
     r"matrices must be a dict \{label: W\} as class_whitening_matrices returns; got list"),
    ("shrunk_cov_return_shrinkage_text", lambda: shrunk_residual_covariance(X40 - X40.mean(axis=0),
                                                                            return_shrinkage="no"), ValueError,
     r"^return_shrinkage must be one of True, False; got 'no'\.$"),
    ("residual_cov_dense_width", lambda: ResidualCovariance().fit(X40 @ X40.T, Y40, 3).dense_covariance(X40[:, :2]),
     ValueError, r"X must hold the 40 members of 3 features whose inner products K = X X' were fitted, one row each; "
                 r"got shape \(40, 2\)\. Pass the same X as for fit"),
    ("vectorize_latin1_bytes", lambda: vectorize_corpus(["caf\xe9 oil".encode("latin-1"), b"wheat"], ["oil"],
                                                        verbose=False), ValueError,
     r"docs_train\[0\] is bytes that are not UTF-8 text \(byte b'\\xe9' at offset 3.*\[d\.decode\('latin-1'\)"),
    # already refused clearly when first tried
    ("lp_norm_p_nan", lambda: lp_norm(U, np.nan), ValueError, r"p must be positive or np\.inf; got nan\.$"),
    ("cumulative_votes_n_classes_bool", lambda: cumulative_votes([[0, 1]], True), ValueError,
     r"n_classes must be an integer >= 1, e\.g\. n_classes=len\(classes\); got True\.$"),
    ("lw_gram_not_square", lambda: ledoit_wolf_shrinkage_gram(np.zeros((2, 3)), 3), ValueError,
     r"K_centred must be a square matrix of inner products \(n x n\); got shape \(2, 3\)"),
    ("covariance_one_row", lambda: estimate_covariance(X40[:1]), ValueError,
     r"A covariance needs at least 2 samples; X has 1 sample\(s\) \(shape \(1, 3\)\)"),
    ("check_covariance_asymmetric", lambda: check_covariance(np.array([[1.0, 0.5], [0.2, 1.0]])), ValueError,
     r"covariance is not symmetric: entries \(0, 1\) and \(1, 0\) differ \(0\.5 vs 0\.2"),
    ("class_whitening_method_capitalised", lambda: class_whitening_matrices(X40, Y40, method="Cholesky"), ValueError,
     r"Unknown whitening method 'Cholesky'; valid options are 'zca', 'zca_cor', 'pca', 'pca_cor', 'cholesky'"),
    ("binary_counts_fraction", lambda: binary_counts([0.5, 1.0], [1.0, 0.0]), ValueError,
     r"x must be binary \(0/1 or bool\); found 0\.5 at index \(0,\).*Binarise first"),
    ("whitening_zero_variance_1x1", lambda: whitening_matrix(np.zeros((1, 1))), ValueError,
     r"sigma is singular: it is not positive definite \(smallest eigenvalue 0, numerical rank 0 of 1\)"),
]


@pytest.mark.parametrize("call, error, words", [c[1:] for c in HOSTILE_ERRORS], ids=[c[0] for c in HOSTILE_ERRORS])
def test_hostile_input_gives_a_clear_error(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=f"(?s){words}"):
            call()


def _pca_answer(X_in, X_ref, n=2, **params):
    """GramPCA against scikit-learn's PCA: variances, and the axes up to sign."""
    ours, ref = GramPCA(n, **params).fit(X_in), PCA(n, svd_solver="full").fit(X_ref)
    signs = np.sign(np.sum(ours.components_ * ref.components_, axis=1))
    return (ours.explained_variance_, ours.components_ * signs[:, None], ours.components_.dtype), \
        (ref.explained_variance_, ref.components_, np.dtype(np.float64))


def _knn_cv_answer(X, y, metric="euclidean"):
    ours = knn_cv_predictions_by_k(X, y, [3], KFold(4, shuffle=True, random_state=0), metric=metric)[3]
    ref = cross_val_predict(KNeighborsClassifier(3, metric=metric, algorithm="brute"), np.asarray(X, dtype=float),
                            y, cv=KFold(4, shuffle=True, random_state=0))
    return ours, ref


X500 = np.random.default_rng(5).normal(size=(240, 4)) @ np.diag([3.0, 2.0, 1.0, 0.5]) + 7.0
Y500 = (X500[:, 0] > 7).astype(int)
F32 = X500.astype(np.float32)


def _big_gram_pca():
    # 200,000 rows: the n x n Gram matrix would be 298 GiB; the p x p route stays near the data
    X = np.random.default_rng(6).normal(size=(200_000, 3)) * [2.0, 1.0, 0.5]
    return _pca_answer(X, X)


def _cosine_zero_row():
    X = X40.copy()
    X[7] = 0.0
    ours = knn_cv_accuracy_by_k(X, Y40, [3], KFold(4, shuffle=True, random_state=0))[3]
    ref = cross_val_score(KNeighborsClassifier(3, metric="cosine", algorithm="brute"), X, Y40,
                          cv=KFold(4, shuffle=True, random_state=0)).mean()
    return ours, ref


HOSTILE_ANSWERS = [
    # (id, call returning (ours, reference)); compared exactly for labels, to 1e-8 for numbers
    ("gram_pca_sparse_coo_more_rows", lambda: _pca_answer(sp.coo_matrix(X500), X500)),
    ("gram_pca_sparse_csc_array_more_rows", lambda: _pca_answer(sp.csc_array(X500), X500)),
    ("gram_pca_float32_input_float64_output", lambda: _pca_answer(F32, F32.astype(np.float64))),
    ("gram_pca_constant_column", lambda: _pca_answer(np.c_[X500, np.ones(240)], np.c_[X500, np.ones(240)])),
    ("gram_pca_p_above_n_duplicate_rows", lambda: _pca_answer(np.vstack([X500[:10, :3] @ np.ones((3, 30))] * 2)
                                                              + np.arange(30), np.vstack(
                                                                  [X500[:10, :3] @ np.ones((3, 30))] * 2)
                                                              + np.arange(30), n=1)),
    ("gram_pca_fortran_read_only", lambda: _pca_answer(_read_only(np.asfortranarray(X500)), X500)),
    ("gram_pca_200k_rows_bounded_memory", _big_gram_pca),
    ("knn_cv_float32", lambda: _knn_cv_answer(F32, Y500)),
    ("knn_cv_bool_labels", lambda: _knn_cv_answer(X500, Y500.astype(bool))),
    ("knn_cv_string_labels", lambda: _knn_cv_answer(X500, np.where(Y500, "spam", "ham"))),
    ("knn_cv_pandas_nullable_float64", lambda: _knn_cv_answer(pd.DataFrame(X500).astype("Float64"), Y500)),
    ("knn_cv_fortran_read_only", lambda: _knn_cv_answer(_read_only(np.asfortranarray(X500)), Y500)),
    ("knn_cv_non_contiguous", lambda: _knn_cv_answer(np.repeat(X500, 2, axis=1)[:, ::2], Y500)),
    ("knn_cv_duplicate_rows_ties", lambda: _knn_cv_answer(np.repeat(X500[:100].round(), 3, axis=0),
                                                          np.repeat(Y500[:100], 3), metric="manhattan")),
    ("knn_cv_cosine_zero_row", _cosine_zero_row),
    ("nearest_neighbors_float32", lambda: (nearest_neighbors(F32[:5], F32, k=3)[1],
                                           np.argsort(sd.cdist(F32[:5].astype(float), F32.astype(float)),
                                                      axis=1, kind="stable")[:, :3])),
    ("nearest_indices_read_only_broadcast", lambda: (nearest_indices(np.broadcast_to(np.arange(5.0)[::-1], (3, 5)), 2),
                                                     np.array([[4, 3]] * 3))),
    ("whitener_pandas_nullable_int64", lambda: (Whitener().fit(pd.DataFrame(X500.round()).astype("Int64")).components_,
                                                Whitener().fit(X500.round()).components_)),
    ("tuned_knn_float32", lambda: (TunedKNN(ks=(1, 5, 9)).fit(F32, Y500).predict(F32[:50]),
                                   TunedKNN(ks=(1, 5, 9)).fit(F32.astype(np.float64), Y500).predict(F32[:50]))),
    ("tuned_knn_constant_column", lambda: (TunedKNN(ks=(1, 5)).fit(np.c_[X500, np.ones(240)], Y500).best_k_,
                                           TunedKNN(ks=(1, 5)).fit(X500, Y500).best_k_)),
    # second round
    ("precision_factor_nested_list", lambda: (precision_factor([[4.0, 2.0], [2.0, 3.0]]),
                                              linalg.cholesky(np.array([[4.0, 2.0], [2.0, 3.0]]), lower=False))),
    ("prf_classes_one_name", lambda: (_prf(["a", "b", "a"], ["a", "a", "a"], classes="a"),
                                      _prf(["a", "b", "a"], ["a", "a", "a"], classes=["a"]))),
    # 1 / d^2 of distances near 1e-200 was inf (the vote NaN), near 1e160 it was 0 (no vote at all)
    ("inverse_square_vote_at_1e-200", lambda: (_inverse_square_vote(1e-200), _inverse_square_vote(1.0))),
    ("inverse_square_vote_at_1e160", lambda: (_inverse_square_vote(1e160), _inverse_square_vote(1.0))),
    ("nearest_neighbors_no_queries", lambda: (nearest_neighbors(np.empty((0, 3)), X40, k=3),
                                              (np.empty((0, 3)), np.empty((0, 3), dtype=np.intp)))),
]


def _prf(y_true, y_pred, classes):
    return np.array(list(prf_scores(y_true, y_pred, classes).values()))


def _inverse_square_vote(scale):
    """Class probabilities of one query whose neighbours (classes 0, 1, 1) lie at 1, 2 and 4 times ``scale``."""
    return distance_weighted_proba([[0, 1, 2]], np.array([[1.0, 2.0, 4.0]]) * scale, np.array([0, 1, 1]), [3],
                                   weights=inverse_square_weights)[3]


def _read_only(a):
    a = a.copy(order="K")
    a.setflags(write=False)
    return a


@pytest.mark.parametrize("call", [c[1] for c in HOSTILE_ANSWERS], ids=[c[0] for c in HOSTILE_ANSWERS])
def test_hostile_input_gives_the_right_answer(call):
    ours, ref = call()
    for a, b in zip(ours, ref) if isinstance(ours, tuple) else [(ours, ref)]:
        if isinstance(b, np.dtype):
            assert a == b
        elif np.asarray(b).dtype.kind in "biuUSO":
            np.testing.assert_array_equal(a, b)
        else:
            assert_allclose(a, b, rtol=1e-8, atol=1e-10)
