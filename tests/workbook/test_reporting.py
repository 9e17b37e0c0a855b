"""save_results' JSON, which the sweeps and the report read."""

import json

import numpy as np
import pandas as pd
import pytest

from helpers.workbook.results import save_results


def test_save_results_writes_plain_json_and_skips_none(tmp_path):
    assert save_results({"a": 1}, None) is None
    path = save_results({"acc": np.float64(0.5), "n": np.int64(3), "m": np.eye(2), "nan": float("nan"),
                         "s": pd.Series({"x": 1.0})}, tmp_path / "sub" / "r.json")
    data = json.loads(path.read_text())
    assert data == {"acc": 0.5, "n": 3, "m": [[1.0, 0.0], [0.0, 1.0]], "nan": None, "s": {"x": 1.0}}
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]  # no temporary file left behind


def test_save_results_rejects_unknown_objects(tmp_path):
    with pytest.raises(TypeError, match="Cannot store a object in the results JSON"):
        save_results({"x": object()}, tmp_path / "r.json")


def _check():
    from helpers.workbook.checks import SourceCheck

    ledger = pd.DataFrame([dict(id="VAC-901", source="000_355ea6f26af76eed.txt", lines="398", item="accuracy",
                                printed="0.939", reading="", correction="", notebook="04", key="acc", scope="")])
    return SourceCheck("04", ledger=ledger)


def test_the_checks_rows_are_stored_for_the_book_when_it_is_given(tmp_path):
    check = _check()
    check.number("acc", 0.95)
    check.number("acc", 0.9386)                    # a re-run cell replaces its row
    data = json.loads(save_results({"k": 1}, tmp_path / "r.json", check).read_text())
    assert [(r["id"], r["verdict"], r["ours"]) for r in data["comparison"]] == [("VAC-901", "reproduced", 0.9386)]
    assert data["k"] == 1


def test_without_a_check_only_the_results_are_written(tmp_path):
    check = _check()
    check.number("acc", 0.9386)                    # another check in the session is not picked up
    assert json.loads(save_results({"k": 1}, tmp_path / "r.json").read_text()) == {"k": 1}
    own = json.loads(save_results({"comparison": []}, tmp_path / "s.json").read_text())
    assert own["comparison"] == []


def test_a_check_is_refused_when_results_has_its_own_comparison_or_it_is_not_a_check(tmp_path):
    with pytest.raises(ValueError, match="results has a 'comparison' of its own and a check was given too"):
        save_results({"comparison": []}, tmp_path / "r.json", _check())
    with pytest.raises(TypeError, match=r"check must be the notebook's SourceCheck .* not a list"):
        save_results({"k": 1}, None, [])
    assert list(tmp_path.iterdir()) == []


def test_the_book_reads_the_comparison_a_check_wrote(tmp_path):
    from helpers.workbook import book

    check = _check()
    check.number("acc", 0.9386)
    save_results({"k": 1}, tmp_path / "results" / "04_x.json", check)
    got = book._comparison_rows(tmp_path, tmp_path / "notebooks" / "04_x.ipynb")
    assert got == check.rows


def test_results_file_is_an_ordinary_file(tmp_path):
    # mkstemp creates 0600 files; the results JSON must get the usual mode (0666 minus the umask)
    import os

    umask = os.umask(0o022)
    try:
        path = save_results({"a": 1}, tmp_path / "r.json")
    finally:
        os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o644


def test_checks_describe_what_they_allow_and_sort_type_from_value_problems():
    from helpers.workbook.parameters import Boolean, DictOf, Integer, ListOf, OneOf, Real, Text

    cases = [  # (check, its description, allowed, wrong value, wrong type)
        (Integer(1), "an integer >= 1", 5, 0, 2.0),
        (Integer(0, 10), "an integer in [0, 10]", 10, 11, "3"),
        (Real(0, 1, closed="neither"), "a number in (0, 1)", 0.5, 1.0, "0.5"),
        (Real(0, 1, closed="left"), "a number in [0, 1)", 0, 1, None),
        (Real(0, closed="neither"), "a number > 0", 1e-300, 0.0, [1.0]),
        (OneOf(["a", "b"]), "one of 'a', 'b'", "b", "c", 1),
        (Boolean(), "one of True, False", np.bool_(False), None, 1),
        (ListOf(Integer(1), length=2), "a list of 2 integers >= 1", [1, 2], [1, 2, 3], "1,2"),
        (DictOf(Real(0), keys=["x"]), "a dict with keys 'x' of values: a number >= 0", {"x": 1}, {"y": 1}, [1]),
        (Integer(1) | OneOf([-1]), "an integer >= 1 or -1", -1, -2, 1.0),
    ]
    for check, words, allowed, bad_value, bad_type in cases:
        assert check.describe() == words
        assert (check.problem(allowed), check.problem(bad_value) if bad_value is not None else "value",
                check.problem(bad_type)) == (None, "value", "type"), words
    assert Text().problem("x") is None and Text().problem(1) == "type"


def test_check_parameters_names_the_parameter_its_value_and_the_allowed_values():
    from helpers.workbook.parameters import check_parameters, parameter_spec

    spec, relations = parameter_spec("notebooks/06_reuters_mahalanobis_knn.ipynb")
    assert spec["tfidf"].describe() == "one of 'paper', 'sklearn'" and relations[0][0] == "k_min <= k_max"
    assert parameter_spec("scratch.ipynb") == ({}, [])
    with pytest.raises(ValueError, match=r"^Parameter n_images = 0 \(int\) is not allowed: n_images takes an integer "
                                         r"in \[2, 10000\]\. Set it in the parameters cell \(papermill: -p n_images "
                                         r"VALUE\)\.$"):
        check_parameters({"n_images": 0, "threshold": 0.3, "n_resamples": 200, "random_state": 0,
                          "results_path": None}, "07")
    with pytest.raises(TypeError, match=r"^Parameter verbose = 'yes' is not allowed: verbose takes one of True, "
                                        r"False\. Set it in papermill -p \(papermill: -p verbose VALUE\)\.$"):
        check_parameters({"verbose": "yes"}, {"verbose": spec["verbose"]}, where="papermill -p")
    check_parameters({"n_images": 10_000, "threshold": 0.0, "n_resamples": 1, "random_state": 2**32 - 1,
                      "results_path": "r.json"}, "07")  # every bound that is allowed


def test_save_results_reports_the_key_of_a_value_json_cannot_hold(tmp_path):
    with pytest.raises(TypeError, match=r"results\['rows'\]\[1\] = \{1, 2\}\. Store numbers, strings, lists or dicts"):
        save_results({"rows": [1.0, {1, 2}]}, tmp_path / "r.json")
    assert list(tmp_path.iterdir()) == []
