"""The typed-in tables reproduce the numbers their sources print; WDBC is coded as the papers."""

import numpy as np
import pytest

from helpers import cosine_similarity, load_table, load_wdbc, minkowski

QUERY = np.array([[6.75, 3.0]])


@pytest.fixture(scope="module")
def athletes():
    return load_table("athletes")


def test_wdbc_coding_and_shape():
    X, y = load_wdbc()
    assert X.shape == (569, 30) and list(X.columns[:2]) == ["mean radius", "mean texture"]
    assert int(y.sum()) == 212 and int((y == 0).sum()) == 357  # malignant = 1


def test_athletes_l2_distances_match_slide(athletes):
    X = athletes[["speed", "agility"]].to_numpy()
    d = minkowski(X, QUERY, 2)[:, 0]
    order = np.argsort(d)[:4]
    assert athletes["id"].to_numpy()[order].tolist() == [18, 12, 10, 20]
    assert np.round(d[order], 2).tolist() == [1.27, 1.82, 2.61, 2.80]


def test_athletes_l1_and_cosine_match_slide(athletes):
    X = athletes[["speed", "agility"]].to_numpy()
    ids = athletes["id"].to_numpy()
    d1 = minkowski(X, QUERY, 1)[:, 0]
    assert ids[np.argmin(d1)] == 18 and d1.min() == pytest.approx(1.5)
    cos = dict(zip(ids.tolist(), cosine_similarity(X, QUERY)[:, 0]))
    assert ids[np.argmax(list(cos.values()))] == 12
    assert [round(cos[i], 3) for i in (12, 18, 10)] == [0.999, 0.992, 0.954]


def test_unknown_table_lists_available():
    with pytest.raises(ValueError, match=r"No table 'nope'.*available: .*athletes"):
        load_table("nope")
