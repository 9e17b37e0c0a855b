"""compare_to_paper's verdicts and save_results' JSON, which the tests and the report read."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from helpers import reporting
from helpers.reporting import compare_to_paper, save_results


@pytest.fixture(autouse=True)
def fresh_session(monkeypatch):
    from helpers.workbook.ledger import SourceCheck

    monkeypatch.setattr(reporting, "_SESSION_TABLES", [])
    monkeypatch.setattr(SourceCheck, "_registry", {})


def test_tolerance_is_half_a_unit_of_the_printed_digit():
    t = compare_to_paper([
        ("printed 0.939, ours 107/114", "0.939", 107 / 114),    # 0.93860 rounds to 0.939
        ("printed 0.971, ours 553/569", "0.971", 553 / 569),    # 0.97188 rounds to 0.972
        ("printed 1.0, ours 0.96", "1.0", 0.96),                # within 0.05
        ("printed 1.00, ours 0.99", "1.00", 0.99),              # not within 0.005
    ])
    assert t["verdict"].tolist() == ["matches", "differs", "matches", "differs"]
    assert t.loc[1, "difference"] == pytest.approx(553 / 569 - 0.971)


def test_float_paper_needs_explicit_tolerance_and_none_means_no_source():
    t = compare_to_paper([("third", 1 / 3, 1 / 3), ("close", 0.5, 0.5001), ("close, tol", 0.5, 0.5001, 1e-3),
                          {"quantity": "missing", "paper": None, "ours": 2.0}])
    assert t["verdict"].tolist() == ["matches", "differs", "matches", "no source value"]
    assert math.isnan(t.loc[3, "paper"]) and math.isnan(t.loc[3, "difference"])


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


def test_comparisons_of_the_session_are_stored_for_the_report(tmp_path):
    compare_to_paper([("accuracy", "0.939", 0.9386)])
    compare_to_paper([("accuracy", "0.939", 0.9386), ("loocv", "0.912", 0.9121)])  # a re-run cell repeats a row
    data = json.loads(save_results({"k": 1}, tmp_path / "r.json").read_text())
    assert [row["quantity"] for row in data["comparison"]] == ["accuracy", "loocv"]
    assert data["comparison"][0]["verdict"] == "matches"
    # a notebook that sets the key itself keeps it
    own = json.loads(save_results({"comparison": []}, tmp_path / "s.json").read_text())
    assert own["comparison"] == []


def test_results_file_is_an_ordinary_file(tmp_path):
    # mkstemp creates 0600 files; the results JSON must get the usual mode (0666 minus the umask)
    import os

    umask = os.umask(0o022)
    try:
        path = save_results({"a": 1}, tmp_path / "r.json")
    finally:
        os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o644
