"""helpers.studies.sahoo_maiti_2025a: the label-using population protocol and its audit."""

import numpy as np
import pytest
from sklearn.model_selection import (
    LeaveOneOut,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier

from helpers import (
    class_whitening_matrices,
    load_wdbc,
    transform_by_class,
)
from helpers.studies.sahoo_maiti_2025a import (
    label_audit,
    label_audit_controls,
    population_protocol_cv,
    population_protocol_predict,
    population_split_scores,
)
from tests.support import two_classes


def test_controls_swap_mirror_and_draw_in_a_fixed_order():
    mats = {0: np.eye(3), 1: 2 * np.eye(3)}
    controls = label_audit_controls(mats, n_random=2, random_state=7, word="factors")
    assert list(controls) == ["the two class factors swapped", "identity for class 0, minus identity for class 1",
                              "random Gaussian matrices, draw 1", "random Gaussian matrices, draw 2"]
    assert controls["the two class factors swapped"][0] is mats[1]
    rng = np.random.default_rng(7)
    expected = [rng.normal(size=(3, 3)) for _ in range(4)]      # draw 1 class 0, class 1, draw 2 class 0, class 1
    got = [controls[f"random Gaussian matrices, draw {d}"][c] for d in (1, 2) for c in (0, 1)]
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


def test_audit_equals_the_protocol_run_by_hand_on_wdbc():
    X, y = load_wdbc()
    X, y = X.to_numpy(), y.to_numpy()
    tr, te = np.arange(0, len(y), 2), np.arange(1, len(y), 2)
    mats = class_whitening_matrices(X[tr], y[tr])
    knn = KNeighborsClassifier(13, metric="cosine")
    audit = label_audit(knn, X[tr], y[tr], X[te], y[te], {"class matrices": mats, **label_audit_controls(mats, 1)})
    own = population_protocol_predict(knn, X[tr], y[tr], X[te], y[te], matrices=mats)
    flipped = population_protocol_predict(knn, X[tr], y[tr], X[te], 1 - y[te], matrices=mats)
    np.testing.assert_allclose(audit.loc["class matrices"].to_numpy(),
                               [np.mean(own == y[te]), np.mean(flipped == y[te]), np.mean(flipped == 1 - y[te])])
    # the papers' finding: with class matrices the prediction follows the label it was given
    assert audit.loc["class matrices", "acc., own labels"] > 0.95
    assert audit.loc["class matrices", "follows flipped label"] > 0.95


def test_bad_inputs_name_the_problem():
    with pytest.raises(ValueError, match=r"keyed 0 and 1; got \['a', 'b'\]"):
        label_audit_controls({"a": np.eye(2), "b": np.eye(2)})
    with pytest.raises(ValueError, match=r"n_random must be an integer >= 0 \(pairs of random Gaussian.*got -1"):
        label_audit_controls({0: np.eye(2), 1: np.eye(2)}, n_random=-1)
    with pytest.raises(ValueError, match=r"flips 0/1 labels; y_test holds \[1, 2\]"):
        label_audit(KNeighborsClassifier(1), np.eye(2), [0, 1], np.eye(2), [1, 2], {})


def test_population_protocol_uses_given_labels():
    X, y = two_classes(seed=1, n=40)
    mats = class_whitening_matrices(X[::2], y[::2])
    Z = transform_by_class(X[1::2], y[1::2], mats)
    expected = KNeighborsClassifier(5).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(Z)
    ours = population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2])
    np.testing.assert_array_equal(ours, expected)
    with pytest.raises(ValueError, match="label per test row"):
        population_protocol_predict(KNeighborsClassifier(5), X[::2], y[::2], X[1::2], y[1::2][:-1])


def test_population_cv_all_equals_transform_then_cv():
    X, y = two_classes(seed=2, n=30)
    Z = transform_by_class(X, y, class_whitening_matrices(X, y))
    cv = StratifiedKFold(5)
    ref = np.mean(cross_val_score(KNeighborsClassifier(3), Z, y, cv=cv))
    assert population_protocol_cv(KNeighborsClassifier(3), X, y, cv) == pytest.approx(ref)
    # matrices from each training fold only: the same as a hand-written leave-one-out loop
    by_hand = []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        mats = class_whitening_matrices(X[keep], y[keep])
        knn = KNeighborsClassifier(3).fit(transform_by_class(X[keep], y[keep], mats), y[keep])
        by_hand.append(knn.predict(transform_by_class(X[i:i + 1], y[i:i + 1], mats))[0] == y[i])
    loo = population_protocol_cv(KNeighborsClassifier(3), X, y, LeaveOneOut(), matrices_from="train")
    assert loo == pytest.approx(np.mean(by_hand))
    with pytest.raises(ValueError, match="matrices_from"):
        population_protocol_cv(KNeighborsClassifier(3), X, y, cv, matrices_from="test")
    splits = StratifiedShuffleSplit(n_splits=3, test_size=0.2, random_state=0).split(X, y)
    expected = [np.mean(KNeighborsClassifier(3).fit(Z[tr], y[tr]).predict(Z[te]) == y[te]) for tr, te in splits]
    np.testing.assert_allclose(population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3), expected)


def test_population_scores_by_metric_and_given_matrices():
    X, y = two_classes(seed=6, n=40)
    both = population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3, scoring=("accuracy", "recall"))
    np.testing.assert_allclose(both["accuracy"], population_split_scores(KNeighborsClassifier(3), X, y, n_splits=3))
    rng = np.random.default_rng(0)
    mats = {0: rng.normal(size=(3, 3)), 1: rng.normal(size=(3, 3))}
    ours = population_protocol_predict(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2], matrices=mats)
    ref = KNeighborsClassifier(3).fit(transform_by_class(X[::2], y[::2], mats), y[::2]).predict(
        transform_by_class(X[1::2], y[1::2], mats))
    np.testing.assert_array_equal(ours, ref)
