"""save_results' JSON, which the sweeps and the report read."""

import json

import numpy as np
import pandas as pd
import pytest

from helpers.workbook.results import save_results


@pytest.fixture(autouse=True)
def fresh_session(monkeypatch):
    from helpers.workbook.ledger import SourceCheck

    monkeypatch.setattr(SourceCheck, "_registry", {})


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


def test_comparison_rows_of_the_session_are_stored_for_the_report(tmp_path):
    import pandas as pd

    from helpers.workbook.ledger import SourceCheck

    ledger = pd.DataFrame([dict(id="VAC-901", source="000_355ea6f26af76eed.txt", lines="398", item="accuracy",
                                printed="0.939", reading="", correction="", notebook="03", key="acc", scope="")])
    check = SourceCheck("03", ledger=ledger)
    check.number("acc", 0.9386)
    check.number("acc", 0.9386)                    # a re-run cell replaces its row
    data = json.loads(save_results({"k": 1}, tmp_path / "r.json").read_text())
    assert [(r["id"], r["verdict"]) for r in data["comparison"]] == [("VAC-901", "reproduced")]
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
