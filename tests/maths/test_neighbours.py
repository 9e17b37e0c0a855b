"""The kNN engine of helpers.neighbours against scikit-learn's NearestNeighbors and KNeighborsClassifier."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import config_context
from sklearn.metrics import pairwise_distances
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_predict,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier, NearestNeighbors
from sklearn.pipeline import make_pipeline

from helpers import (
    ExpectedWhitener,
    load_wdbc,
)
from helpers.evaluation import (
    loocv_accuracy,
)
from helpers.neighbours import (
    cumulative_votes,
    distance_weighted_proba,
    inverse_square_weights,
    knn_cv_accuracy_by_k,
    knn_cv_predictions_by_k,
    majority_votes,
    nearest_indices,
)


def blobs(rng, n=60, p=3, n_classes=3):
    y = rng.integers(0, n_classes, size=n)
    return rng.normal(size=(n, p)) + y[:, None] * 1.5, y


# --- ordering -------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 4, 10, 40])
def test_nearest_indices_equal_nearest_neighbors(rng, k):
    X, _ = blobs(rng, n=40)
    Q = rng.normal(size=(25, 3))
    D = pairwise_distances(Q, X)
    ref = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(X).kneighbors(Q, return_distance=False)
    assert_array_equal(nearest_indices(D, k), ref)


def test_nearest_indices_break_ties_by_index_also_at_the_kth_place(rng):
    # integer distances: many ties, also across the k-th place, where argpartition alone picks arbitrarily
    D = rng.integers(0, 4, size=(200, 50)).astype(float)
    for k in (1, 3, 7, 25, 50):
        assert_array_equal(nearest_indices(D, k), np.argsort(D, axis=1, kind="stable")[:, :k])
    assert nearest_indices([[2.0, 1.0, 1.0, 1.0, 0.0]], 3).tolist() == [[4, 1, 2]]  # 1.0 three times: 1 and 2 kept


def test_nearest_indices_in_chunks_equal_one_block(rng):
    D = rng.integers(0, 5, size=(300, 40)).astype(float)
    with config_context(working_memory=0.01):  # about 10 KiB: a few rows per chunk
        chunked = nearest_indices(D, 6)
    assert_array_equal(chunked, np.argsort(D, axis=1, kind="stable")[:, :6])


def test_exclude_self_is_leave_one_out(rng):
    X, _ = blobs(rng, n=30)
    ref = NearestNeighbors(n_neighbors=4, algorithm="brute").fit(X).kneighbors(return_distance=False)
    assert_array_equal(nearest_indices(pairwise_distances(X), 4, exclude_self=True), ref)  # all rows but itself
    X[5] = X[3]  # a duplicate: at distance 0 from row 3, as row 3 itself
    D = pairwise_distances(X)
    idx = nearest_indices(D, 4, exclude_self=True)
    assert not np.any(idx == np.arange(30)[:, None])
    assert idx[3, 0] == 5 and idx[5, 0] == 3
    masked = D.copy()
    np.fill_diagonal(masked, np.inf)
    assert_array_equal(idx, np.argsort(masked, axis=1, kind="stable")[:, :4])


def test_exclude_self_ignores_the_diagonal_value():
    # the diagonal need not be the smallest entry (e.g. a similarity turned into -cos): it is left out anyway
    D = np.array([[5.0, 1.0, 2.0], [0.0, 9.0, 3.0], [1.0, 1.0, 0.5]])
    assert nearest_indices(D, 2, exclude_self=True).tolist() == [[1, 2], [0, 2], [0, 1]]


def test_infinite_distances_are_allowed_and_come_last():
    D = np.array([[np.inf, 1.0, np.inf, 0.0]])
    assert nearest_indices(D, 4).tolist() == [[3, 1, 0, 2]]


def test_nearest_indices_bad_inputs():
    D = np.ones((3, 4))
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 4\] \(the columns of D\); got 5"):
        nearest_indices(D, 5)
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 4\] \(the columns of D\); got 0"):
        nearest_indices(D, 0)
    with pytest.raises(ValueError, match=r"k must be an integer .*got 2.0"):
        nearest_indices(D, 2.0)
    with pytest.raises(ValueError, match=r"k must be an integer .*got True"):
        nearest_indices(D, True)
    with pytest.raises(ValueError, match=r"D must be a 2-D matrix of distances .*got shape \(4,\)"):
        nearest_indices(np.ones(4), 1)
    with pytest.raises(ValueError, match=r"exclude_self=True needs the square matrix .*shape \(3, 4\)"):
        nearest_indices(D, 1, exclude_self=True)
    with pytest.raises(
        ValueError, match=r"k must be an integer in \[1, 2\] \(the points other than the query itself\)"
    ):
        nearest_indices(np.ones((3, 3)), 3, exclude_self=True)
    with pytest.raises(ValueError, match=r"D contains NaN \(first at index \(1, 2\)\)"):
        nearest_indices([[0.0, 1.0, 2.0], [0.0, 1.0, np.nan]], 1)
    with pytest.raises(ValueError, match="D must hold real numbers"):
        nearest_indices(np.array([["a", "b"]]), 1)


# --- votes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_majority_votes_equal_kneighbors_classifier(rng, n_classes):
    X, y = blobs(rng, n=80, n_classes=n_classes)
    Q = rng.normal(size=(40, 3)) * 2 + 1.5
    ks = [1, 2, 4, 5, 10, 17]
    idx = nearest_indices(pairwise_distances(Q, X), max(ks))
    votes = majority_votes(idx, y, ks, n_classes)
    for k in ks:  # an even k has ties: both go to the first class
        knn = KNeighborsClassifier(k, algorithm="brute").fit(X, y)
        assert_array_equal(votes[k], knn.predict(Q))
        assert_allclose(cumulative_votes(y[idx], n_classes)[:, k - 1] / k, knn.predict_proba(Q))


def test_cumulative_votes_by_hand():
    cum = cumulative_votes([[2, 0, 2, 1]], 3)
    assert cum[0].tolist() == [[0, 0, 1], [1, 0, 1], [1, 0, 2], [1, 1, 2]]


def test_majority_vote_tie_goes_to_the_first_class():
    # neighbours of classes 1, 0: one vote each; KNeighborsClassifier also picks class 0
    assert majority_votes([[0, 1]], np.array([1, 0]), 2)[2].tolist() == [0]
    X, y = np.array([[0.0], [1.0]]), np.array([1, 0])
    assert KNeighborsClassifier(2).fit(X, y).predict([[0.4]]).tolist() == [0]


def test_multi_label_votes_equal_kneighbors_classifier(rng):
    X, _ = blobs(rng, n=70)
    Y = (rng.random(size=(70, 4)) < 0.4).astype(int)
    Q = rng.normal(size=(30, 3)) + 1.5
    ks = [1, 3, 4, 8]
    idx = nearest_indices(pairwise_distances(Q, X), max(ks))
    votes = majority_votes(idx, Y, ks, multi_label=True)
    for k in ks:  # a label when more than half of the k carry it (a tie at k/2: not assigned)
        assert_array_equal(votes[k], KNeighborsClassifier(k, algorithm="brute").fit(X, Y).predict(Q))


def test_votes_bad_inputs():
    idx = np.array([[0, 1], [1, 2]])
    y = np.array([0, 1, 1])
    with pytest.raises(ValueError, match=r"ks must be a non-empty list of integers in \[1, 2\].*idx has 2 neighbours"):
        majority_votes(idx, y, [3])
    with pytest.raises(ValueError, match=r"ks must be a non-empty list of integers in \[1, 2\]"):
        majority_votes(idx, y, [0])
    with pytest.raises(ValueError, match=r"idx holds row indices from 0 to 2, but Y has 2 rows"):
        majority_votes(idx, y[:2], [1])
    with pytest.raises(ValueError, match=r"idx must be a 2-D integer array"):
        majority_votes(np.array([0, 1]), y, [1])
    with pytest.raises(ValueError, match=r"multi_label=True needs an indicator matrix"):
        majority_votes(idx, y, [1], multi_label=True)
    with pytest.raises(ValueError, match=r"Y must be 1-D class codes \(or pass multi_label=True"):
        majority_votes(idx, np.eye(3, dtype=int), [1])
    with pytest.raises(
        ValueError,
        match=r"integer class codes in \[0, 1\]; got values from 0 to 2.*np.unique\(y, return_inverse=True\)",
    ):
        cumulative_votes([[0, 2]], 2)
    with pytest.raises(ValueError, match=r"integer class codes; got dtype <U1"):
        cumulative_votes([["a", "b"]], 2)
    with pytest.raises(ValueError, match=r"neighbour_labels must be 2-D"):
        cumulative_votes([0, 1], 2)


# --- weighted votes -------------------------------------------------------------------------


def test_distance_weighted_proba_equals_kneighbors_classifier(rng):
    X, y = blobs(rng, n=60)
    Q = np.vstack([rng.normal(size=(20, 3)) + 1.5, X[:3]])  # three queries on training points: distance 0
    ks = [1, 3, 6, 11]
    D = pairwise_distances(Q, X)
    idx = nearest_indices(D, max(ks))
    P = distance_weighted_proba(idx, np.take_along_axis(D, idx, axis=1), y, ks, 3)
    for k in ks:
        knn = KNeighborsClassifier(k, weights="distance", algorithm="brute").fit(X, y)
        assert_allclose(P[k], knn.predict_proba(Q), rtol=1e-12)
        assert_array_equal(P[k].argmax(axis=1), knn.predict(Q))
    assert_array_equal(P[11][-3:], np.eye(3)[y[:3]])  # an exact match takes the whole vote


def test_distance_weighted_proba_with_a_weight_function(rng):
    X, y = blobs(rng, n=50)
    Q = rng.normal(size=(15, 3)) + 1.5
    D = pairwise_distances(Q, X)
    idx = nearest_indices(D, 9)
    P = distance_weighted_proba(idx, np.take_along_axis(D, idx, axis=1), y, 9, weights=inverse_square_weights)
    knn = KNeighborsClassifier(9, weights=inverse_square_weights, algorithm="brute").fit(X, y)
    assert_allclose(P[9], knn.predict_proba(Q), rtol=1e-12)


def test_distance_weighted_proba_by_hand():
    # classes 0, 1, 1 at distances 1, 2, 4: weights 1, 1/2, 1/4
    P = distance_weighted_proba([[0, 1, 2]], [[1.0, 2.0, 4.0]], np.array([0, 1, 1]), [2, 3])
    assert_allclose(P[2], [[2 / 3, 1 / 3]])
    assert_allclose(P[3], [[4 / 7, 3 / 7]])


def test_distance_weighted_proba_bad_inputs():
    idx, y = np.array([[0, 1]]), np.array([0, 1])
    with pytest.raises(ValueError, match=r"distances must have the shape of idx.*\(1, 3\) and \(1, 2\)"):
        distance_weighted_proba(idx, [[1.0, 2.0, 3.0]], y, 2)
    with pytest.raises(ValueError, match="distances cannot be negative"):
        distance_weighted_proba(idx, [[1.0, -2.0]], y, 2)
    with pytest.raises(ValueError, match="weights must be 'distance' or a callable"):
        distance_weighted_proba(idx, [[1.0, 2.0]], y, 2, weights="uniform")
    with pytest.raises(ValueError, match=r"ks must be a non-empty list of integers in \[1, 2\]"):
        distance_weighted_proba(idx, [[1.0, 2.0]], y, 3)


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_knn_cv_by_k_equals_sklearn_on_wdbc():
    X_df, y_s = load_wdbc()
    X, y = X_df.to_numpy(), y_s.to_numpy()
    ks = [1, 3, 5, 7, 9, 11, 13, 15]
    for cv in (StratifiedKFold(5), KFold(5, shuffle=True, random_state=42)):
        ours = knn_cv_accuracy_by_k(X, y, ks, cv)
        for k in ks:
            expected = cross_val_score(KNeighborsClassifier(k, metric="cosine"), X, y, cv=cv).mean()
            assert ours[k] == pytest.approx(expected)
    cv = KFold(5)
    ours = knn_cv_accuracy_by_k(X, y, [13], cv, transformer=ExpectedWhitener())[13]
    ref = cross_val_score(make_pipeline(ExpectedWhitener(), KNeighborsClassifier(13, metric="cosine")), X, y, cv=cv)
    assert ours == pytest.approx(ref.mean())
    # raw cosine 1-NN, LOOCV on all 569 points: 519 right, the cosine paper's Table 1 value 0.9121
    assert knn_cv_accuracy_by_k(X, y, [1], LeaveOneOut())[1] == pytest.approx(519 / 569)
    assert knn_cv_accuracy_by_k(X[:120], y[:120], [5], LeaveOneOut())[5] == pytest.approx(
        loocv_accuracy(KNeighborsClassifier(5, metric="cosine"), X[:120], y[:120]))
    ten = np.r_[np.flatnonzero(y == 0)[:5], np.flatnonzero(y == 1)[:5]]
    with pytest.raises(ValueError, match=r"K = 20 exceeds the 5 rows of a training fold; use ks <= 5"):
        knn_cv_accuracy_by_k(X[ten], y[ten], [20], KFold(2))


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_knn_cv_predictions_equal_cross_val_predict():
    X_df, y_s = load_wdbc()
    X, y = X_df.to_numpy()[:150], y_s.to_numpy()[:150]
    for cv in (LeaveOneOut(), KFold(5, shuffle=True, random_state=0)):
        ours = knn_cv_predictions_by_k(X, y, [1, 13], cv)
        for k in (1, 13):
            ref = cross_val_predict(KNeighborsClassifier(k, metric="cosine"), X, y, cv=cv)
            np.testing.assert_array_equal(ours[k], ref)
    loo = knn_cv_predictions_by_k(X, y, [5], LeaveOneOut(), transformer=ExpectedWhitener())[5]
    expected = knn_cv_accuracy_by_k(X, y, [5], LeaveOneOut(), transformer=ExpectedWhitener())[5]
    assert np.mean(loo == y) == pytest.approx(expected)
    with pytest.raises(ValueError, match="held out exactly once"):
        knn_cv_predictions_by_k(X, y, [1], StratifiedShuffleSplit(3, test_size=0.2, random_state=0))


# --- memory: the folds' distances in blocks of test rows, the same neighbours as the whole matrix


def _tied_data(n=600, seed=0):
    """Small integer features: many exactly equal distances, so the tie rule decides the neighbours."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, size=(n, 4)).astype(float) + 0.5, rng.integers(0, 3, n)


@pytest.mark.parametrize("metric", ["euclidean", "cosine", "manhattan"])
def test_knn_cv_in_blocks_gives_the_predictions_of_the_whole_matrix(metric):
    X, y = _tied_data()
    ks = [1, 4, 15]
    whole = knn_cv_predictions_by_k(X, y, ks, KFold(3), metric=metric)
    blocks = knn_cv_predictions_by_k(X, y, ks, KFold(3), metric=metric, working_memory=0.2)  # blocks of 48 rows
    for k in ks:
        assert_array_equal(blocks[k], whole[k])
    assert knn_cv_accuracy_by_k(X, y, ks, KFold(3), metric=metric, working_memory=0.2) == \
        knn_cv_accuracy_by_k(X, y, ks, KFold(3), metric=metric)


@pytest.mark.parametrize("metric", ["euclidean", "cosine"])
def test_blocks_of_test_rows_keep_the_bits_of_the_whole_matrix(metric):
    # random data: near-ties decided by the last bits; the blocks (multiples of 48 rows) keep them
    from helpers.neighbours import _nearest_in_blocks

    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(400, 20)), rng.normal(size=(700, 20))
    whole = nearest_indices(pairwise_distances(A, B, metric=metric), 10)
    assert_array_equal(_nearest_in_blocks(A, B, 10, metric, working_memory=0.2), whole)
    # and the global setting does the same
    with config_context(working_memory=0.3):
        assert_array_equal(_nearest_in_blocks(A, B, 10, metric, working_memory=0.2), whole)


def test_knn_cv_peak_memory_follows_working_memory():
    import tracemalloc

    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(4000, 3)), rng.integers(0, 2, 4000)

    def peak(wm):
        tracemalloc.start()
        try:
            knn_cv_accuracy_by_k(X, y, [1, 5], KFold(2), metric="euclidean", working_memory=wm)
            return tracemalloc.get_traced_memory()[1] / 2**20
        finally:
            tracemalloc.stop()

    # the whole 2,000 x 2,000 fold matrix is 31 MiB, with its sorting temporaries about 90 MiB
    assert peak(2) < 8
