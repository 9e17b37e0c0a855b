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


def test_save_results_reports_the_key_of_a_value_json_cannot_hold(tmp_path):
    with pytest.raises(TypeError, match=r"results\['rows'\]\[1\] = \{1, 2\}\. Store numbers, strings, lists or dicts"):
        save_results({"rows": [1.0, {1, 2}]}, tmp_path / "r.json")
    assert list(tmp_path.iterdir()) == []
