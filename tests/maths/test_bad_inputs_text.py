"""Bad-input catalogue for gram, text, evaluation, plotting and the papers' drivers.

Two tables, so the cases can be counted:

* ``ERRORS``: ``(id, callable, exception type, regex)``; the regex names the problem (the value,
  position, column or document) and the way out.
* ``ANSWERS``: ``(id, callable, reference)``; the reference comes from scikit-learn, scipy or
  numpy. At extreme magnitudes the reference is the library's value at unit scale, scaled as the
  quantity scales: scikit-learn's Ledoit-Wolf shrinkage of data times 1e150 is NaN (its sums of
  fourth powers overflow), so unit scale is the only finite reference.

None of these modules writes files, so no case has files to leave behind; the plotting cases
close their figures.
"""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.covariance import LedoitWolf, ledoit_wolf_shrinkage
from sklearn.decomposition import PCA
from sklearn.metrics import f1_score
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.svm import SVC

from helpers.evaluation import (
    check_scoring,
    loocv_accuracy,
    prf_scores,
    repeated_cv_scores,
    repeated_split_scores,
    report_rows,
)
from helpers.gram import GramPCA, ResidualCovariance, ledoit_wolf_shrinkage_gram, shrunk_residual_covariance
from helpers.neighbours import knn_cv_accuracy_by_k
from helpers.plotting import (
    box_strip,
    kdtree_splits,
    line_points,
    plot_confusions,
    plot_decision_regions,
    plot_model_scores,
    prediction_ellipse,
)
from helpers.significance import (
    compare_pairs,
    corrected_paired_ttest,
    mcnemar_exact,
    paired_comparisons,
    paired_permutation_test,
    summarize_scores,
)
from helpers.studies.sahoo_maiti_2025a import (
    SplitProtocol,
    population_protocol_cv,
    population_protocol_predict,
    population_split_scores,
)
from helpers.studies.srivastava_rao_2016 import (
    KnnOptions,
    baseline_predictions,
    component_sweep,
    knn_sweep,
    mahalanobis_readings,
    summarize_readings,
    training_size_curve,
)
from helpers.svm import is_linearly_separable, svc_loocv_predict
from helpers.text import StemmingAnalyzer, make_vectorizer, vectorize_corpus

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.normal(size=(10, 20)) * np.geomspace(5.0, 0.1, 20)  # 10 rows, p > n
Y = np.repeat([0, 1], 5)
X2 = X[:, :2]
KNN = KNeighborsClassifier(3)
DOCS = ["oil prices rise", "oil output falls", "wheat exports grow"]
R4 = RNG.normal(size=(30, 4)) @ np.diag([3.0, 1.0, 0.5, 0.1])  # Ledoit-Wolf shrinkage strictly in (0, 1)
R4c = R4 - R4.mean(axis=0)
XC = X - X.mean(axis=0)
SCORES_T = pd.DataFrame({"mean": [0.95, 0.9], "sd": [0.01, 0.02]}, index=["a", "b"])


def _with(A, i, j, value):
    A = np.array(A, dtype=float)
    A[i, j] = value
    return A


def _ax():
    return plt.subplots()[1]


def _fitted_readings():
    return mahalanobis_readings(X, Y, X, KnnOptions(ks=[3], readings=["euclidean"], verbose=False), loo=False)


ERRORS = [
    # --- GramPCA: non-finite, too few rows, n_components out of range, text, wrong width
    ("gram_nan", lambda: GramPCA(3).fit(_with(X, 2, 3, np.nan)), ValueError,
     r"X contains NaN in 1 entries, first at row 2, column 3.*SimpleImputer"),
    ("gram_inf", lambda: GramPCA(3).fit(_with(X, 4, 1, np.inf)), ValueError,
     r"X contains inf \(overflow.*row 4, column 1.*Rescale"),
    ("gram_sparse_nan", lambda: GramPCA(3).fit(sp.csr_matrix(_with(X, 2, 3, np.nan))), ValueError,
     r"X \(sparse\) contains NaN in 1 stored entries, first at row 2, column 3.*impute"),
    ("gram_empty", lambda: GramPCA(3).fit(np.empty((0, 5))), ValueError, r"0 sample\(s\).*minimum of 2 is required"),
    ("gram_one_row", lambda: GramPCA(3).fit(X[:1]), ValueError, r"1 sample\(s\).*minimum of 2 is required"),
    ("gram_n_components_0", lambda: GramPCA(0).fit(X), ValueError,
     r"The 'n_components' parameter of GramPCA must be an int in the range \[1, inf\) or a float in the range "
     r"\(0\.0, 1\.0\]\. Got 0 instead\."),
    ("gram_n_components_negative", lambda: GramPCA(-2).fit(X), ValueError,
     r"'n_components' parameter of GramPCA must be an int in the range \[1, inf\).*Got -2 instead"),
    ("gram_n_components_1.5", lambda: GramPCA(1.5).fit(X), ValueError,
     r"'n_components' parameter of GramPCA must be .*a float in the range \(0\.0, 1\.0\]\. Got 1\.5 instead"),
    ("gram_n_components_text", lambda: GramPCA("3").fit(X), ValueError,
     r"'n_components' parameter of GramPCA must be .*Got '3' instead"),
    ("gram_fraction_text", lambda: GramPCA(3).fit(X).n_components_for("a"), ValueError,
     r"fraction must be a number in \(0, 1\], e\.g\. 0\.9.*got 'a'"),
    ("gram_text_matrix", lambda: GramPCA(1).fit([["oil", "wheat"], ["gold", "tin"]]), ValueError,
     r"X must be numeric.*vectorize_corpus"),
    ("gram_transform_width", lambda: GramPCA(3).fit(X).transform(X[:, :5]), ValueError,
     r"X has 5 features, but GramPCA is expecting 20 features"),
    ("gram_no_variance", lambda: GramPCA(2).fit(np.ones((5, 4))), ValueError,
     r"no variance: its 5 rows are identical.*empty vocabulary"),
    # an integer Gram matrix truncated every inner product: variances about 3% low, without a word
    ("gram_integer_dtype", lambda: GramPCA(3, dtype=np.int64).fit(X), ValueError,
     r"The 'dtype' parameter of GramPCA must be a type among \{.*<class 'numpy\.float32'>.*\}.*"
     r"Got <class 'numpy\.int64'> instead\."),
    # --- shrinkage from inner products
    ("lw_gram_nan", lambda: ledoit_wolf_shrinkage_gram(_with(XC @ XC.T, 1, 1, np.nan), 20), ValueError,
     r"K_centred contains NaN.*row 1, column 1"),
    ("lw_gram_asymmetric", lambda: ledoit_wolf_shrinkage_gram(np.array([[1.0, 2.0], [0.0, 1.0]]), 4), ValueError,
     r"K_centred is not symmetric: K_centred\[0, 1\] = 2 but K_centred\[1, 0\] = 0.*X @ X\.T"),
    ("lw_gram_n_features_fraction", lambda: ledoit_wolf_shrinkage_gram(np.eye(3), 2.5), ValueError,
     r"n_features must be an integer >= 1 \(the dimension p of the samples\); got 2\.5"),
    ("lw_gram_negative_norm", lambda: ledoit_wolf_shrinkage_gram(-np.eye(3), 4), ValueError,
     r"K_centred\[0, 0\] = -1 is a squared norm and cannot be negative"),
    ("residual_cov_unknown_name", lambda: ResidualCovariance("robust").fit(X @ X.T, Y, 20), ValueError,
     r"covariance must be 'ledoit_wolf' or a float shrinkage in \(0, 1\]; got 'robust'"),
    ("residual_cov_oas", lambda: ResidualCovariance("oas").fit(X @ X.T, Y, 20), ValueError,
     r"got 'oas'\. 'oas' has no inner-product form"),
    ("residual_cov_inf", lambda: ResidualCovariance(0.5).fit(np.full((10, 10), np.inf), Y, 20), ValueError,
     r"K contains inf \(overflow"),
    ("residual_cov_one_row", lambda: ResidualCovariance().fit(np.ones((1, 1)), [0], 20), ValueError,
     r"1 member\(s\) in 1 group\(s\) leave no residual degrees of freedom.*two members"),
    ("residual_cov_project_unfitted", lambda: ResidualCovariance().project(np.ones((2, 3))), ValueError,
     r"not fitted yet; call fit\(K, groups, n_features\) first"),
    ("residual_cov_project_width", lambda: ResidualCovariance().fit(X @ X.T, Y, 20).project(np.ones((2, 3))),
     ValueError, r"C must hold inner products with the 10 members; got shape \(2, 3\)"),
    ("residual_cov_project_nan", lambda: ResidualCovariance().fit(X @ X.T, Y, 20).project(np.full((1, 10), np.nan)),
     ValueError, r"C contains NaN"),
    ("shrunk_cov_1d", lambda: shrunk_residual_covariance(X[0]), ValueError, r"R must be 2-D; got shape \(20,\)"),
    ("shrunk_cov_zero_groups", lambda: shrunk_residual_covariance(XC, n_groups=0), ValueError,
     r"n_groups must be an integer >= 1 \(the group means subtracted from R\); got 0"),
    ("shrunk_cov_no_spread", lambda: shrunk_residual_covariance(np.zeros((4, 3))), ValueError,
     r"singular: every residual in R is zero.*two distinct rows"),
    ("shrunk_cov_zero_shrinkage", lambda: shrunk_residual_covariance(XC, covariance=0.0), ValueError,
     r"float shrinkage in \(0, 1\]; got 0\.0 \(0 would leave the covariance singular"),
    # --- text
    ("text_all_stop_words", lambda: vectorize_corpus(["the and of", "a the"], ["x"], verbose=False), ValueError,
     r"2 training documents leave an empty vocabulary.*stop words.*first document: 'the and of'"
     r".*content words"),
    ("text_empty_corpus", lambda: vectorize_corpus([], ["oil"], verbose=False), ValueError,
     r"docs_train is empty"),
    ("text_none_document", lambda: vectorize_corpus(["oil price", None], ["x"], verbose=False), TypeError,
     r"docs_train\[1\] is NoneType None, not a document \(str\); use '' for a missing document"),
    ("text_number_document", lambda: vectorize_corpus(DOCS, ["wheat", 3.5], verbose=False), TypeError,
     r"docs_test\[1\] is float 3\.5, not a document"),
    ("text_one_string", lambda: vectorize_corpus("oil prices rise", ["x"], verbose=False), TypeError,
     r"docs_train must be a sequence of documents, not one str.*\[doc\]"),
    ("text_analyzer_none", lambda: StemmingAnalyzer()(None), TypeError,
     r"a document must be a str \(or UTF-8 bytes\); got NoneType"),
    ("text_min_df_0", lambda: make_vectorizer(min_df=0), ValueError,
     r"min_df must be an integer >= 1 \(documents a word must occur in\), e\.g\. min_df=1; got 0"),
    ("text_min_df_too_big", lambda: vectorize_corpus(DOCS, ["x"], min_df=5, verbose=False), ValueError,
     r"min_df=5 exceeds the 3 training documents.*min_df <= 3"),
    ("text_unknown_tfidf", lambda: make_vectorizer("bm25"), ValueError,
     r"tfidf must be 'paper'.*or 'sklearn'; got 'bm25'"),
    # --- evaluation
    ("eval_ratio_negative", lambda: summarize_scores({"a": [0.9, 0.8]}, test_train_ratio=-0.25), ValueError,
     r"test_train_ratio must be a finite number >= 0 \(n_test / n_train\), e\.g\. 0\.25 for 80:20 splits.*got -0\.25"),
    ("eval_ratio_nan", lambda: corrected_paired_ttest([0.9, 0.8], [0.8, 0.8], float("nan")), ValueError,
     r"test_train_ratio must be a finite number >= 0.*got nan"),
    ("eval_ratio_text", lambda: summarize_scores({"a": [0.9, 0.8]}, test_train_ratio="1/4"), ValueError,
     r"test_train_ratio.*got '1/4'"),
    ("eval_scores_nan", lambda: summarize_scores({"a": [0.9, np.nan, 0.8]}), ValueError,
     r"scores\['a'\] holds nan at position 1.*error_score='raise'"),
    ("eval_scores_text", lambda: summarize_scores({"a": ["high", "low"]}), ValueError,
     r"scores\['a'\] must be numbers \(one score per split\)"),
    ("eval_paired_lengths", lambda: corrected_paired_ttest([0.9, 0.8, 0.7], [0.9, 0.8], 0.25), ValueError,
     r"paired scores of equal length >= 2.*shapes \(3,\) and \(2,\)"),
    ("eval_pair_not_tuple", lambda: compare_pairs({"a": [1, 2], "b": [1, 2]}, ["ab"], 0.25), ValueError,
     r"each pair must be a tuple \(name_a, name_b\); got 'ab'"),
    ("eval_model_is_text", lambda: repeated_split_scores({"knn": "knn"}, X2, Y, n_splits=2), TypeError,
     r"models\['knn'\] must be a scikit-learn estimator \(with fit and get_params\).*got str 'knn'"),
    ("eval_model_is_class", lambda: loocv_accuracy(KNeighborsClassifier, X2, Y), TypeError,
     r"model is the class KNeighborsClassifier, not an estimator; pass an instance, e\.g\. KNeighborsClassifier\(\)"),
    ("eval_models_list", lambda: repeated_split_scores([KNN], X2, Y), ValueError,
     r"models must be a non-empty dict.*\{'name': model\}"),
    ("eval_one_class", lambda: repeated_split_scores({"knn": KNN}, X2, np.zeros(10), n_splits=2), ValueError,
     r"y has 1 class\(es\) \[0\.0\]; a classification score needs at least 2"),
    ("eval_one_class_cv", lambda: repeated_cv_scores({"knn": KNN}, X2, np.zeros(10), n_folds=2), ValueError,
     r"y has 1 class\(es\)"),
    ("eval_folds_exceed_smallest_class", lambda: repeated_cv_scores({"knn": KNN}, X2, Y, n_folds=6), ValueError,
     r"n_folds=6 exceeds the 5 member\(s\) of the smallest class \(0\).*n_folds <= 5, or LeaveOneOut\(\)"),
    ("eval_splitter_fails", lambda: knn_cv_accuracy_by_k(X2, Y, [3], StratifiedKFold(6)), ValueError,
     r"StratifiedKFold\(n_splits=6.*cannot split these 10 rows \(class counts \{0: 5, 1: 5\}\)"),
    ("eval_n_splits_text", lambda: repeated_split_scores({"knn": KNN}, X2, Y, n_splits="50"), ValueError,
     r"n_splits must be an integer >= 1, e\.g\. n_splits=50; got '50'"),
    ("eval_model_fails_not_nan", lambda: repeated_split_scores({"knn": KNeighborsClassifier(30)}, X2, Y, n_splits=2),
     ValueError, r"models\['knn'\] failed on a split of 8 training rows.*n_neighbors = 30"),
    ("eval_rows_labels", lambda: loocv_accuracy(KNN, X2, Y[:3]), ValueError,
     r"X has 10 rows but y has 3 labels; pass matching arrays"),
    ("eval_ks_zero", lambda: knn_cv_accuracy_by_k(X2, Y, [0, 3], LeaveOneOut()), ValueError,
     r"ks must be a non-empty list of positive integers, e\.g\. \[3\].*\(0 is not a positive integer\)"),
    ("eval_ks_fraction", lambda: knn_cv_accuracy_by_k(X2, Y, [2.5], LeaveOneOut()), ValueError,
     r"\(2\.5 is not a positive integer\)"),
    ("eval_ks_int", lambda: knn_cv_accuracy_by_k(X2, Y, 3, LeaveOneOut()), ValueError,
     r"ks must be a non-empty list.*got 3\."),
    ("eval_ks_above_training_fold", lambda: knn_cv_accuracy_by_k(X2, Y, [20], LeaveOneOut()), ValueError,
     r"K = 20 exceeds the 9 rows of a training fold; use ks <= 9"),
    ("eval_cv_int", lambda: knn_cv_accuracy_by_k(X2, Y, [3], 5), TypeError,
     r"cv must be a scikit-learn splitter such as LeaveOneOut\(\).*got 5"),
    ("eval_knn_nan", lambda: knn_cv_accuracy_by_k(_with(X2, 2, 1, np.nan), Y, [3], LeaveOneOut()), ValueError,
     r"X contains NaN in 1 entries, first at row 2, column 1"),
    ("eval_unknown_scoring", lambda: repeated_split_scores({"knn": KNN}, X2, Y, scoring="auc"), ValueError,
     r"scoring must name metrics among \['accuracy', 'f1', 'precision', 'recall'\]; got 'auc'"),
    ("eval_scoring_none", lambda: check_scoring(None), ValueError, r"scoring must name metrics among.*got None"),
    ("eval_unknown_score", lambda: paired_permutation_test(Y, Y, Y, "auc"), ValueError,
     r"score must be one of \('accuracy', 'micro_precision'.*got 'auc'"),
    ("eval_mcnemar_lengths", lambda: mcnemar_exact([0, 1], [0, 1, 1], [0, 1]), ValueError,
     r"same length.*shapes \(2,\), \(3,\) and \(2,\)"),
    ("eval_mcnemar_empty", lambda: mcnemar_exact([], [], []), ValueError, r"y_true is empty"),
    ("eval_permutation_empty", lambda: paired_permutation_test([], [], [], "accuracy"), ValueError,
     r"y_true is empty: the permutation test needs predictions"),
    ("eval_permutation_resamples_0", lambda: paired_permutation_test(Y, Y, 1 - Y, n_resamples=0), ValueError,
     r"n_resamples must be an integer >= 1, e\.g\. n_resamples=999; got 0"),
    ("eval_comparisons_list", lambda: paired_comparisons(Y, [Y], Y), ValueError,
     r"predictions must be a non-empty dict \{name: test predictions\}"),
    ("eval_report_labels", lambda: report_rows([0, 1], [0, 1], labels=("benign", "malignant")), ValueError,
     r"hold labels \[0, 1\] that are not in labels=\('benign', 'malignant'\); pass labels=\(0, 1\)"),
    ("eval_separable_nan", lambda: is_linearly_separable(_with(X2, 0, 0, np.nan), Y), ValueError,
     r"X contains NaN.*row 0, column 0"),
    ("eval_svc_loocv_not_svc", lambda: svc_loocv_predict(KNN, X2, Y), TypeError,
     r"svc must be a support vector classifier.*loocv_accuracy\(model, X, y\)"),
    # --- plotting
    ("plot_scores_unknown_column", lambda: plot_model_scores(SCORES_T, ["auc"], xlabel="x", title="t"), ValueError,
     r"columns \['auc'\] are not in the table \(it has \['mean', 'sd'\]\)"),
    ("plot_scores_empty_frame", lambda: plot_model_scores(SCORES_T.iloc[:0], xlabel="x", title="t"), ValueError,
     r"table has no rows \(columns \['mean', 'sd'\]\): nothing to draw"),
    ("plot_scores_dict", lambda: plot_model_scores({"mean": [0.9]}, xlabel="x", title="t"), TypeError,
     r"table must be a pandas DataFrame; got dict\. Wrap it: pd\.DataFrame\(table\)"),
    ("plot_box_unknown_column", lambda: box_strip(_ax(), pd.DataFrame({"model": ["a"], "acc": [0.9]}), "model", "f1"),
     ValueError, r"columns \['f1'\] are not in the data \(it has \['model', 'acc'\]\)"),
    ("plot_box_empty_frame", lambda: box_strip(_ax(), pd.DataFrame({"model": [], "acc": []}), "model", "acc"),
     ValueError, r"data has no rows"),
    ("plot_confusions_lengths", lambda: plot_confusions({"knn": ([0, 1], [0])}), ValueError,
     r"cases\['knn'\]: y_true has 2 labels and y_pred 1"),
    ("plot_confusions_not_pair", lambda: plot_confusions({"knn": [0, 1, 1]}), ValueError,
     r"cases\['knn'\] must be a pair \(y_true, y_pred\)"),
    ("plot_ellipse_level_text", lambda: prediction_ellipse([0, 0], np.eye(2), "90%"), ValueError,
     r"level must be a number in \(0, 1\) \(a coverage probability\), e\.g\. 0\.9.*got '90%'"),
    ("plot_ellipse_points_text", lambda: prediction_ellipse([0, 0], np.eye(2), n_points="200"), ValueError,
     r"n_points must be an integer >= 3.*got '200'"),
    ("plot_line_xlim", lambda: line_points([1, 1], 0.0, (0.0,)), ValueError,
     r"xlim must be a pair \(x_min, x_max\), e\.g\. ax\.get_xlim\(\); got \(0\.0,\)"),
    ("plot_line_offset_nan", lambda: line_points([1, 1], np.nan, (0, 1)), ValueError, r"b must be a finite number"),
    ("plot_kdtree_depth", lambda: kdtree_splits(X2, max_depth=-1), ValueError,
     r"max_depth must be None or an integer >= 0 \(None: split to single instances\); got -1"),
    ("plot_regions_unknown_label", lambda: plot_decision_regions(_ax(), KNeighborsClassifier(1).fit(X2, Y), X2,
                                                                 np.full(10, 7)), ValueError,
     r"labels \[7\] are not classes of clf \(its classes_ are \[0, 1\]\)"),
    ("plot_regions_unfitted", lambda: plot_decision_regions(_ax(), KNeighborsClassifier(1), X2, Y), ValueError,
     r"clf must be a fitted classifier.*clf\.fit\(X, labels\)"),
    # --- the papers' drivers
    ("cosine_model_text", lambda: population_protocol_predict("knn", X2, Y, X2, Y), TypeError,
     r"model must be a scikit-learn estimator.*got str 'knn'"),
    ("cosine_unknown_method", lambda: population_protocol_predict(KNN, X2, Y, X2, Y, method="svd"), ValueError,
     r"Unknown whitening method 'svd'; valid options are 'zca', 'zca_cor', 'pca', 'pca_cor', 'cholesky'"),
    ("cosine_unknown_covariance", lambda: population_protocol_predict(KNN, X2, Y, X2, Y, covariance="robust"),
     ValueError, r"Unknown covariance 'robust'; valid options are 'sample', 'population', 'ledoit_wolf', 'oas'"),
    ("cosine_test_labels_length", lambda: population_protocol_predict(KNN, X2, Y, X2, Y[:3]), ValueError,
     r"X_test has 10 rows but y_test_used has 3 labels"),
    ("cosine_cv_text", lambda: population_protocol_cv(KNN, X2, Y, "loo"), TypeError,
     r"cv must be a scikit-learn splitter.*got 'loo'"),
    ("cosine_n_splits_0", lambda: population_split_scores(KNN, X2, Y, SplitProtocol(n_splits=0)), ValueError,
     r"n_splits must be an integer >= 1, e\.g\. n_splits=50; got 0"),
    ("cosine_one_class", lambda: population_split_scores(KNN, X2, np.zeros(10), SplitProtocol(n_splits=2)),
     ValueError, r"y has 1 class\(es\).*at least 2"),
    ("mahal_unknown_reading", lambda: mahalanobis_readings(X, Y, X, KnnOptions(ks=[3], readings=["mahalanobis"]),
                                                           loo=False),
     ValueError, r"unknown reading\(s\) \['mahalanobis'\]; choose from \['euclidean', 'class_blind', 'pooled'"),
    ("mahal_unknown_covariance", lambda: mahalanobis_readings(X, Y, X, KnnOptions(ks=[3], readings=["pooled"],
                                                                                  covariance="oas"), loo=False),
     ValueError, r"covariance must be 'ledoit_wolf' or a float shrinkage in \(0, 1\]; got 'oas'"),
    ("mahal_k_zero", lambda: mahalanobis_readings(X, Y, X, KnnOptions(ks=[0, 3], readings=["euclidean"]), loo=False),
     ValueError,
     r"ks must be a non-empty list of integers in \[1, 9\].*\(0 is not in \[1, 9\]\)"),
    ("mahal_k_too_big", lambda: mahalanobis_readings(X, Y, X, KnnOptions(ks=[10], readings=["euclidean"]), loo=False),
     ValueError,
     r"ks must be .*integers in \[1, 9\] \(training documents minus one\).*got \[10\] \(10 is not in \[1, 9\]\)"),
    ("mahal_k_text", lambda: mahalanobis_readings(X, Y, X, KnnOptions(ks=["5"], readings=["euclidean"]), loo=False),
     ValueError,
     r"got \['5'\] \('5' is not in \[1, 9\]\)"),
    ("mahal_scores_nan", lambda: mahalanobis_readings(_with(X, 2, 3, np.nan), Y, X, KnnOptions(ks=[3]), loo=False),
     ValueError,
     r"Z_train contains NaN in 1 entries, first at row 2, column 3"),
    ("mahal_knn_sweep_k_too_big", lambda: knn_sweep(X, Y, X, [11]), ValueError,
     r"ks must be .*integers in \[1, 10\] \(training documents\).*got \[11\] \(11 is not in \[1, 10\]\)"),
    ("mahal_component_sweep_zero", lambda: component_sweep(X, Y, X, Y, np.ones(20), [0], [1]), ValueError,
     r"components must be .* integers in \[1, 20\] \(the principal components given\), e\.g\. \[10, 50, 100\]"),
    ("mahal_fraction_zero", lambda: training_size_curve(X, Y, X, Y, [0.0], KnnOptions(sd=np.ones(20), ks=[1])),
     ValueError,
     r"fractions must be numbers in \(0, 1\].*got \[0\.0\]"),
    ("mahal_summary_labels", lambda: summarize_readings(_fitted_readings(), Y[:3]), ValueError,
     r"y_test has 3 rows but the readings predict 10 test documents"),
    ("mahal_unknown_baseline", lambda: baseline_predictions((X, X), (X, X), Y, methods=["kNN"]), ValueError,
     r"unknown method\(s\) \['kNN'\]; choose from \['naive Bayes', 'Rocchio', 'linear SVM'\]"),
]


@pytest.mark.parametrize("call, error, words", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_bad_input_gives_a_clear_error(call, error, words):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a warning is not the error under test
            with pytest.raises(error, match=words):
                call()
    finally:
        plt.close("all")


# --- right answers ---------------------------------------------------------------------------


def _gram_ratio_and_scores(matrix, scale, n_components=3):
    pca = GramPCA(n_components).fit(matrix(X * scale))
    return np.r_[pca.explained_variance_ratio_, np.abs(pca.transform(X * scale)).ravel() / scale]


PCA3 = PCA(3, svd_solver="full").fit(X)
PCA_REF = np.r_[PCA3.explained_variance_ratio_, np.abs(PCA3.transform(X)).ravel()]
PCA_ALL = PCA(svd_solver="full").fit(X).explained_variance_[:9]  # rank of 10 centred rows
SPARSE = {"coo": sp.coo_matrix, "dok": sp.dok_matrix, "lil": sp.lil_matrix, "bsr": sp.bsr_matrix,
          "csc": sp.csc_matrix, "csr_array": sp.csr_array}
LW_SHRINK = ledoit_wolf_shrinkage(X)
LW_COV = LedoitWolf().fit(R4).covariance_
Y_A = np.array([0, 0, 1, 1, 0, 1, 1, 0, 0, 1])  # two predictions that differ from Y on different rows
Y_B = np.array([0, 1, 1, 1, 0, 0, 1, 1, 0, 1])


def _knn(k):
    return KNeighborsClassifier(k).fit(X, Y).predict(X)


def _counts(docs_train, docs_test):
    _, (c_tr, c_te), _ = vectorize_corpus(docs_train, docs_test, verbose=False)
    return np.r_[c_tr.toarray().ravel(), c_te.toarray().ravel()]


def _t_interval(s, ratio=None):
    t = summarize_scores({"a": s}, test_train_ratio=ratio)
    return [t.loc["a", "ci_low"], t.loc["a", "ci_high"]]


def _drawn(columns):
    ax = plot_model_scores(SCORES_T, columns, xlabel="x", title="t")
    out = np.concatenate([line.get_xdata() for line in ax.get_lines()])
    plt.close("all")
    return out


ANSWERS = [
    # GramPCA: a variance fraction of 1.0 and a count beyond the rank keep every nonzero component
    ("gram_fraction_1.0_keeps_the_rank", lambda: GramPCA(1.0).fit(X).explained_variance_, PCA_ALL),
    ("gram_too_many_components_capped_at_rank", lambda: GramPCA(1000).fit(X).explained_variance_, PCA_ALL),
    # every scipy sparse format gives sklearn PCA's answer on the dense matrix
    *[(f"gram_sparse_{name}", lambda m=m: _gram_ratio_and_scores(m, 1.0), PCA_REF) for name, m in SPARSE.items()],
    # extreme magnitudes: X X' would overflow beyond ~1e154 and underflow below ~1e-154
    *[(f"gram_at_{s:g}", lambda s=s: _gram_ratio_and_scores(np.asarray, s), PCA_REF) for s in (1e160, 1e-160)],
    ("gram_sparse_at_1e300", lambda: _gram_ratio_and_scores(sp.csr_matrix, 1e300), PCA_REF),
    # Ledoit-Wolf from inner products at magnitudes where the sums of fourth powers overflow
    *[(f"lw_gram_at_{s:g}", lambda s=s: ledoit_wolf_shrinkage_gram((XC * s) @ (XC * s).T, 20), LW_SHRINK)
      for s in (1.0, 1e150, 1e-150)],
    *[(f"shrunk_cov_at_{s:g}", lambda s=s: shrunk_residual_covariance(R4c * s) / s**2, LW_COV)
      for s in (1e100, 1e-100)],
    ("residual_cov_at_1e150", lambda: ResidualCovariance().fit((R4c * 1e150) @ (R4c * 1e150).T, np.zeros(30), 4)
     .shrinkage_, ledoit_wolf_shrinkage(R4)),
    # text: empty documents are zero rows, bytes are decoded as UTF-8
    ("text_empty_document_is_a_zero_row", lambda: _counts(["", "oil price"], [""]), [0, 0, 1, 1, 0, 0]),
    ("text_bytes_like_str", lambda: _counts([d.encode() for d in DOCS], [b"oil"]), _counts(DOCS, ["oil"])),
    ("text_generator_like_list", lambda: _counts((d for d in DOCS), ["oil"]), _counts(DOCS, ["oil"])),
    # evaluation: identical predictions or scores give p = 1, not NaN
    ("eval_identical_scores_p_is_1", lambda: corrected_paired_ttest([0.9, 0.8, 0.7], [0.9, 0.8, 0.7], 0.25)["p_value"],
     1.0),
    ("eval_identical_predictions_permutation_p_is_1", lambda: paired_permutation_test(Y, Y_A, Y_A, "accuracy"),
     [0.0, 1.0]),
    ("eval_mcnemar_no_disagreement", lambda: mcnemar_exact(Y, Y_A, Y_A), [0, 0, 1.0]),
    ("eval_mcnemar_matches_scipy", lambda: mcnemar_exact(Y, Y_A, Y_B)[2],
     stats.binomtest(int(np.sum((Y_A == Y) & (Y_B != Y))), int(np.sum((Y_A == Y) != (Y_B == Y))), 0.5).pvalue),
    ("eval_ratio_0_is_scipy_ttest_rel",
     lambda: corrected_paired_ttest([0.9, 0.85, 0.7], [0.8, 0.8, 0.71], 0)["p_value"],
     stats.ttest_rel([0.9, 0.85, 0.7], [0.8, 0.8, 0.71]).pvalue),
    ("eval_ratio_0_is_scipy_t_interval", lambda: _t_interval([0.9, 0.8, 0.85, 0.7], 0),
     stats.t.interval(0.95, 3, loc=np.mean([0.9, 0.8, 0.85, 0.7]), scale=stats.sem([0.9, 0.8, 0.85, 0.7]))),
    ("eval_micro_macro_f1_match_sklearn", lambda: [prf_scores(Y, Y_A)[s] for s in ("micro_f1", "macro_f1")],
     [f1_score(Y, Y_A, average="micro"), f1_score(Y, Y_A, average="macro")]),
    ("eval_knn_by_k_matches_sklearn",
     lambda: knn_cv_accuracy_by_k(X2, Y, [3], StratifiedKFold(5), metric="euclidean")[3],
     cross_val_score(KNeighborsClassifier(3), X2, Y, cv=StratifiedKFold(5)).mean()),
    ("eval_svc_loocv_matches_loocv", lambda: svc_loocv_predict(SVC(kernel="linear"), X2, Y).mean(),
     np.mean([SVC(kernel="linear").fit(np.delete(X2, i, 0), np.delete(Y, i)).predict(X2[i:i + 1])[0]
              for i in range(10)])),
    # plotting: an empty point set has no splits; one column as a str draws the same as a tuple
    ("plot_kdtree_empty", lambda: len(kdtree_splits(np.empty((0, 2)))), 0),
    ("plot_scores_column_as_str", lambda: _drawn("mean"), _drawn(("mean",))),
    # the papers' drivers: one reading or method given as a str is that one, not its letters
    ("mahal_reading_as_str", lambda: mahalanobis_readings(X, Y, X, KnnOptions(ks=[3], readings="euclidean"), loo=False)
     .pred["euclidean"][3], _knn(3)),
    ("mahal_baseline_as_str", lambda: baseline_predictions((X, X), (X, X), Y, methods="Rocchio")["Rocchio"],
     NearestCentroid().fit(X, Y).predict(X)),
    ("mahal_knn_sweep_matches_sklearn", lambda: knn_sweep(X, Y, X, [1, 3])[3], _knn(3)),
]


@pytest.mark.parametrize("call, reference", [c[1:] for c in ANSWERS], ids=[c[0] for c in ANSWERS])
def test_edge_or_extreme_input_gives_the_right_answer(call, reference):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no silent overflow on the way
        got = call()
    ref = np.asarray(reference)
    if ref.dtype.kind in "iub":
        assert_array_equal(np.asarray(got), ref)
    else:
        got = np.asarray(got, dtype=float)
        assert np.all(np.isfinite(got))
        assert_allclose(got, ref.astype(float), rtol=1e-8, atol=1e-12)


def test_sklearn_ledoit_wolf_itself_fails_at_1e150():
    # why the references above are taken at unit scale: the library's own answer is NaN there
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(ledoit_wolf_shrinkage(X * 1e150))
