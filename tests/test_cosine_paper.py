"""Tests of helpers.papers.cosine_paper's label audit."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from helpers import class_whitening_matrices, load_wdbc
from helpers.papers.cosine_paper import label_audit, label_audit_controls, population_protocol_predict


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
    with pytest.raises(ValueError, match="n_random must be a non-negative integer; got -1"):
        label_audit_controls({0: np.eye(2), 1: np.eye(2)}, n_random=-1)
    with pytest.raises(ValueError, match=r"flips 0/1 labels; y_test holds \[1, 2\]"):
        label_audit(KNeighborsClassifier(1), np.eye(2), [0, 1], np.eye(2), [1, 2], {})
