"""The estimators of helpers.estimators: agreement with the functions, scikit-learn and the leak-free contract."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.covariance import OAS, LedoitWolf
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from helpers.estimators import ClassConditionalKNN, ExpectedWhitener, TunedKNN, Whitener
from helpers.metrics import mahalanobis, variance_adjusted_cosine
from helpers.whitening import METHODS, expected_whitening_matrix, whitening_matrix
from tests.support import FITS, RowSpy, random_spd


def _data(rng, n0=60, n1=40, p=3):
    X0 = rng.multivariate_normal(np.zeros(p), random_spd(rng, p, 5), size=n0) + 2.0
    X1 = rng.multivariate_normal(np.ones(p), random_spd(rng, p, 50), size=n1) + 2.0
    return np.vstack([X0, X1]), np.repeat([0, 1], [n0, n1])


@pytest.mark.parametrize("method", METHODS)
def test_whitener_matches_functions(rng, method):
    X, _ = _data(rng)
    wh = Whitener(method=method).fit(X)
    W = whitening_matrix(np.cov(X, rowvar=False), method)
    assert_allclose(wh.components_, W)
    assert_allclose(wh.transform(X), X @ W.T)
    assert_allclose(wh.inverse_transform(wh.transform(X)), X)


def test_centred_whitener_output_is_white(rng):
    X, _ = _data(rng)
    Z = Whitener(center=True).fit_transform(X)
    assert_allclose(Z.mean(0), 0, atol=1e-12)
    assert_allclose(np.cov(Z, rowvar=False), np.eye(3), atol=1e-12)


def test_whitener_distances_are_mahalanobis(rng):
    X, _ = _data(rng)
    wh = Whitener(method="pca", center=True).fit(X)
    Z = wh.transform(X[:5])
    d = np.linalg.norm(Z[:, None] - Z[None], axis=-1)
    assert_allclose(d, mahalanobis(X[:5], X[:5], np.linalg.inv(wh.covariance_)), atol=1e-10)


def test_uncentred_whitener_cosine_is_variance_adjusted_cosine(rng):
    X, _ = _data(rng)
    wh = Whitener().fit(X)
    Z = wh.transform(X[:4])
    cos = (Z / np.linalg.norm(Z, axis=1, keepdims=True)) @ (Z / np.linalg.norm(Z, axis=1, keepdims=True)).T
    assert_allclose(cos, variance_adjusted_cosine(X[:4], X[:4], wh.components_), atol=1e-12)


def test_whitener_singular_training_data_suggests_fix():
    X = np.ones((5, 3))
    with pytest.raises(ValueError, match=r"training covariance is singular.*ledoit_wolf.*PCA"):
        Whitener().fit(X)


def test_whitener_too_few_samples_explains_rank():
    X = np.random.default_rng(0).normal(size=(3, 5))
    with pytest.raises(
        ValueError, match=r"singular.*3 samples of 5 features; a sample covariance has rank at most n - 1 = 2"
    ):
        Whitener().fit(X)
    Whitener(covariance="ledoit_wolf").fit(X)  # the suggested fix works


def test_whitener_feature_mismatch():
    wh = Whitener().fit(np.random.default_rng(0).normal(size=(20, 3)))
    with pytest.raises(ValueError, match="X has 2 features, but Whitener is expecting 3 features"):
        wh.transform(np.ones((4, 2)))


def test_expected_whitener_uses_prior_weighted_matrices(rng):
    X, y = _data(rng)
    ew = ExpectedWhitener().fit(X, y)
    assert_allclose(ew.priors_, [0.6, 0.4])
    assert_allclose(ew.components_, expected_whitening_matrix(X, y))
    assert_allclose(ew.transform(X), X @ ew.components_.T)


def test_expected_whitener_in_pipeline_with_knn(rng):
    X, y = _data(rng)
    pipe = make_pipeline(ExpectedWhitener(), KNeighborsClassifier(5, metric="cosine"))
    assert cross_val_score(pipe, X, y, cv=5).mean() > 0.5


def test_expected_whitener_needs_y(rng):
    X, _ = _data(rng)
    with pytest.raises(ValueError, match=r"requires y to be passed.*fit\(X, y\) with the training labels"):
        ExpectedWhitener().fit(X)


def test_class_conditional_knn_reduces_to_knn_with_one_whitening(rng):
    # with a single class the rule is kNN in that class's whitened space
    X, _ = _data(rng)
    y = np.zeros(len(X), int)
    clf = ClassConditionalKNN(n_neighbors=3).fit(X, y)
    assert_array_equal(clf.predict(X[:5]), 0)
    assert_allclose(clf.predict_proba(X[:5]), 1.0)


def test_class_conditional_knn_votes_by_hand():
    # class 0 near the x axis, class 1 near the y axis: cosine votes are easy to count
    X = np.array([[1.0, 0.1], [1.0, -0.1], [2.0, 0.05], [0.1, 1.0], [-0.1, 1.0], [0.05, 2.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    clf = ClassConditionalKNN(n_neighbors=3, covariance=0.5).fit(X, y)
    assert_array_equal(clf.predict([[1.0, 0.0], [0.0, 1.0]]), [0, 1])
    proba = clf.predict_proba([[1.0, 0.0]])
    assert_allclose(proba.sum(), 1.0)
    assert proba[0, 0] > proba[0, 1]


def test_class_conditional_knn_never_needs_test_labels(rng):
    X, y = _data(rng)
    clf = ClassConditionalKNN(n_neighbors=5).fit(X, y)
    pred_a = clf.predict(X[:10])
    pred_b = clf.predict(X[:10][::-1])[::-1]  # order does not matter: rows are independent
    assert_array_equal(pred_a, pred_b)


def test_class_conditional_knn_beats_chance_on_heteroscedastic_data(rng):
    X, y = _data(rng, 150, 150)
    acc = cross_val_score(ClassConditionalKNN(n_neighbors=7, metric="euclidean"), X, y, cv=5).mean()
    assert acc > 0.6


def test_class_conditional_knn_euclidean_is_not_captured_by_the_wide_class():
    # concentric classes, sd 1 and 5: whitened distances shrink in the wide class's space, and
    # without the |Sigma_c|^(1/2p) factor that class took 93% of the predictions (accuracy 0.58)
    rng = np.random.default_rng(0)

    def draw(n):
        return np.vstack([rng.normal(0, 1, (n, 3)), rng.normal(0, 5, (n, 3))]), np.repeat([0, 1], n)

    (Xtr, ytr), (Xte, yte) = draw(400), draw(1000)
    pred = ClassConditionalKNN(15, metric="euclidean").fit(Xtr, ytr).predict(Xte)
    knn = KNeighborsClassifier(15).fit(Xtr, ytr).predict(Xte)
    assert np.mean(pred == yte) > np.mean(knn == yte) - 0.03 and np.mean(pred == yte) > 0.9
    assert 0.4 < pred.mean() < 0.6


def test_class_conditional_knn_distance_scales_are_geometric_mean_sd(rng):
    X, y = _data(rng)
    clf = ClassConditionalKNN(metric="euclidean").fit(X, y)
    for c, scale in zip(clf.classes_, clf.distance_scales_):
        S = np.cov(X[y == c], rowvar=False)
        assert scale == pytest.approx(np.linalg.det(S) ** (1 / (2 * X.shape[1])))


def test_class_conditional_knn_errors():
    X = np.random.default_rng(0).normal(size=(10, 2))
    y = np.repeat([0, 1], 5)
    with pytest.raises(ValueError, match=r"n_neighbors = 11, n_samples_fit = 10"):
        ClassConditionalKNN(n_neighbors=11).fit(X, y)
    listed = r"\{'(cosine', 'euclidean|euclidean', 'cosine)'\}"  # a set: either order
    with pytest.raises(ValueError, match=rf"The 'metric' parameter of ClassConditionalKNN must be a str among "
                                         rf"{listed}\. Got 'manhattan' instead\."):
        ClassConditionalKNN(metric="manhattan").fit(X, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        ClassConditionalKNN().fit(X, np.linspace(0, 1, 10))


# --- the covariance choice, components_ and feature names -----------------------------------


def test_whitener_takes_a_covariance_estimator_object(rng):
    X, y = _data(rng)
    lw = LedoitWolf()
    by_object = Whitener(covariance=lw).fit(X)
    by_name = Whitener(covariance="ledoit_wolf").fit(X)
    assert_allclose(by_object.covariance_, by_name.covariance_, rtol=1e-14)
    assert_allclose(by_object.components_, by_name.components_, rtol=1e-12)
    assert not hasattr(lw, "covariance_")  # cloned, not fitted in place
    ew = ExpectedWhitener(covariance=OAS()).fit(X, y)
    assert_allclose(ew.components_, ExpectedWhitener(covariance="oas").fit(X, y).components_, rtol=1e-12)
    knn = ClassConditionalKNN(metric="euclidean", covariance=OAS()).fit(X, y)
    assert_array_equal(
        knn.predict_proba(X), ClassConditionalKNN(metric="euclidean", covariance="oas").fit(X, y).predict_proba(X)
    )


def test_bad_covariance_is_refused_by_every_estimator(rng):
    X, y = _data(rng)
    for est in (Whitener(covariance="mle"), ExpectedWhitener(covariance=1.5), ClassConditionalKNN(covariance=None)):
        with pytest.raises(ValueError, match=rf"The 'covariance' parameter of {type(est).__name__} must be a str among "
                                             r"\{.*'sample'.*\}, a float in the range \[0\.0, 1\.0\] or an object "
                                             r"implementing 'fit'\. Got (1\.5|'mle'|None) instead\."):
            est.fit(X, y)
        # scikit-learn's interval of floats takes True for 1.0: estimate_covariance refuses it
        with pytest.raises(ValueError, match=r"Unknown covariance True \(type bool\); valid options are 'sample'"):
            est.set_params(covariance=True).fit(X, y)


def test_components_are_the_whitening_matrix_and_name_the_outputs(rng):

    X, y = _data(rng)
    frame = pd.DataFrame(X, columns=["radius", "texture", "area"])
    wh = Whitener(method="zca").fit(frame)
    assert_allclose(wh.components_ @ wh.covariance_ @ wh.components_.T, np.eye(3), atol=1e-10)
    assert wh.feature_names_in_.tolist() == ["radius", "texture", "area"]
    assert wh.get_feature_names_out().tolist() == ["whitener0", "whitener1", "whitener2"]
    ew = ExpectedWhitener().fit(X, y)
    assert ew.get_feature_names_out().tolist() == ["expectedwhitener0", "expectedwhitener1", "expectedwhitener2"]
    with pytest.raises(ValueError, match="input_features is not equal to feature_names_in_"):
        wh.get_feature_names_out(["a", "b", "c"])


def test_class_conditional_knn_votes_equal_a_full_sort(rng):
    # the reference: every training point measured in its class's space, one stable sort of all of them
    # (classes in classes_ order, ties to the earlier point); integer data give many exact ties
    X = rng.integers(1, 4, size=(45, 2)).astype(float) + rng.integers(0, 2, size=(45, 1)) * 3
    y = rng.integers(0, 3, size=45)
    Q = rng.integers(1, 7, size=(30, 2)).astype(float)
    for metric in ("cosine", "euclidean"):
        clf = ClassConditionalKNN(n_neighbors=5, metric=metric, covariance=0.2).fit(X, y)
        cols, owners = [], []
        for c, W, scale in zip(clf.classes_, clf.class_whitening_matrices_, clf.distance_scales_):
            Zq, Zc = Q @ W.T, X[y == c] @ W.T
            if metric == "cosine":
                Zq, Zc = Zq / np.linalg.norm(Zq, axis=1, keepdims=True), Zc / np.linalg.norm(Zc, axis=1, keepdims=True)
                cols.append(-(Zq @ Zc.T))
            else:
                cols.append(np.sqrt(np.maximum((Zq**2).sum(1)[:, None] + (Zc**2).sum(1) - 2 * Zq @ Zc.T, 0)) * scale)
            owners.append(np.full(len(Zc), c))
        near = np.argsort(np.hstack(cols), axis=1, kind="stable")[:, :5]
        votes = np.stack([(np.concatenate(owners)[near] == c).sum(axis=1) for c in clf.classes_], axis=1)
        assert_array_equal(clf.predict_proba(Q), votes / 5)
        assert_array_equal(clf.predict(Q), clf.classes_[votes.argmax(axis=1)])


def test_tuned_knn_agrees_with_grid_search(wine):
    # Continuous features, so no exactly tied distances: the engine and scikit-learn agree on every k.
    X, y = wine
    ks = (1, 3, 5, 9, 15)
    knn = TunedKNN(StandardScaler(), ks=ks, inner_folds=3, random_state=7).fit(X, y)
    search = GridSearchCV(make_pipeline(StandardScaler(), KNeighborsClassifier()),
                          {"kneighborsclassifier__n_neighbors": list(ks)},
                          cv=StratifiedKFold(3, shuffle=True, random_state=7)).fit(X, y)
    assert_allclose([knn.inner_accuracy_[k] for k in ks], search.cv_results_["mean_test_score"], atol=1e-12)
    assert knn.best_k_ == search.best_params_["kneighborsclassifier__n_neighbors"]
    assert_array_equal(knn.predict(X), search.predict(X))


def test_tuned_knn_breaks_ties_towards_the_smallest_k():
    X = np.array([[0.0], [0.1], [0.2], [0.3], [5.0], [5.1], [5.2], [5.3]])
    y = np.repeat([0, 1], 4)
    knn = TunedKNN(ks=(1, 3), inner_folds=2).fit(X, y)
    assert knn.inner_accuracy_ == {1: 1.0, 3: 1.0} and knn.best_k_ == 1


def test_tuned_knn_drops_ks_larger_than_an_inner_fold_and_says_when_none_fit():
    X, y = np.arange(12.0).reshape(-1, 1), np.repeat([0, 1], 6)
    knn = TunedKNN(ks=(1, 3, 99), inner_folds=3).fit(X, y)
    assert sorted(knn.inner_accuracy_) == [1, 3]
    with pytest.raises(ValueError, match=r"no k in ks=\(99,\) fits the 8 rows"):
        TunedKNN(ks=(99,), inner_folds=3).fit(X, y)
    with pytest.raises(ValueError, match=r"the smallest class \(1\.0\) has 2 samples, fewer than inner_folds=3"):
        TunedKNN(inner_folds=3).fit(X[:8], np.r_[np.zeros(6), np.ones(2)])
    with pytest.raises(ValueError, match=r"The 'inner_folds' parameter of TunedKNN must be an int in the range "
                                         r"\[2, inf\)\. Got 1 instead\."):
        TunedKNN(inner_folds=1).fit(X, y)
    with pytest.raises(ValueError, match=r"ks must be a non-empty list of positive integers.*\(0 is not a positive"):
        TunedKNN(ks=(0, 3)).fit(X, y)
    with pytest.raises(ValueError, match=r"has 1 sample, fewer than inner_folds=3"):  # check_fit2d_1sample's words
        TunedKNN().fit(X[:1], y[:1])


@pytest.mark.parametrize("nested, n_fits", [(True, 4), (False, 1)])
def test_tuned_knn_fits_its_transform_on_training_rows_only(iris, nested, n_fits):
    X, y = iris
    Xid = np.column_stack([np.arange(150), X])
    train = np.r_[0:40, 50:90, 100:140]
    FITS.clear()
    knn = TunedKNN(RowSpy(), ks=(1, 5), inner_folds=3, nested=nested).fit(Xid[train], y[train])
    knn.predict(Xid)  # predicting fits nothing
    assert len(FITS) == n_fits
    assert all(rows <= set(train) for rows in FITS), "a transform was fitted on a test row"
    assert FITS[-1] == set(train) if nested else FITS[0] == set(train)
    if nested:  # the inner folds: three disjoint validation parts of the training rows
        held_out = [set(train) - rows for rows in FITS[:3]]
        assert set().union(*held_out) == set(train) and sum(map(len, held_out)) == len(train)
    assert_allclose(knn.pipeline_[0].mean_, Xid[train].mean(axis=0))


# ---------------------------------------------------------------------------- within-class scatter

def _three_classes(rng, n=60):
    y = np.repeat([0, 1, 2], n)
    shift = np.array([[0.0, 0.0, 0.0], [4.0, 1.0, 0.0], [0.0, 5.0, 2.0]])
    X = rng.normal(size=(3 * n, 3)) @ np.array([[1.0, 0.4, 0.0], [0.0, 1.0, 0.3], [0.0, 0.0, 0.5]]) + shift[y]
    return X, y


def test_within_class_covariance_is_lda_s_times_n_over_n_minus_k(rng):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    X, y = _three_classes(rng)
    ours = Whitener(scatter="within").fit(X, y).covariance_
    lda = LinearDiscriminantAnalysis(solver="lsqr", store_covariance=True).fit(X, y).covariance_
    assert np.allclose(ours * (len(X) - 3) / len(X), lda)


def test_within_class_whitening_makes_each_class_white_and_ignores_the_shift(rng):
    X, y = _three_classes(rng, n=400)
    Z = Whitener(scatter="within", center=True).fit_transform(X, y)
    pooled = sum(np.cov(Z[y == k], rowvar=False) * (np.sum(y == k) - 1) for k in range(3)) / (len(Z) - 3)
    assert np.allclose(pooled, np.eye(3), atol=1e-10)
    total = Whitener(center=True).fit_transform(X)
    assert np.allclose(np.cov(total, rowvar=False), np.eye(3), atol=1e-10)
    # the total covariance holds the between-class shift: the class means lie closer after it
    spread = lambda Z: np.linalg.norm(Z[y == 1].mean(0) - Z[y == 0].mean(0))  # noqa: E731
    assert spread(Z) > 1.5 * spread(total)


def test_within_class_whitening_needs_y_and_more_rows_than_classes(rng):
    X, y = _three_classes(rng)
    with pytest.raises(ValueError, match=r"pools the covariance within the classes of y: call fit\(X, y\)"):
        Whitener(scatter="within").fit(X)
    with pytest.raises(ValueError, match="scatter must be one of|scatter"):
        Whitener(scatter="between").fit(X, y)
    with pytest.raises(ValueError, match="more rows than classes"):
        Whitener(scatter="within").fit(X[:3], np.array([0, 1, 2]))
