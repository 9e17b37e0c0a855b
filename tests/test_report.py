"""build/report.html from executed notebooks and their results JSON."""

import json

import nbformat
import pandas as pd
import pytest

from helpers.workbook.ledger import SourceCheck
from helpers.workbook.report import build_report, notebook_summary


def _executed(tmp_path, name, found="- raw cosine reproduced: 0.939"):
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# 03 · Variance-adjusted cosine kNN\n\nintro"),
            nbformat.v4.new_markdown_cell(f"## What we found\n\n{found}"),
        ]
    )
    nb.metadata["papermill"] = {"duration": 12.3, "exception": None}
    path = tmp_path / "notebooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def test_summary_reads_title_found_and_status(tmp_path):
    info = notebook_summary(_executed(tmp_path, "03_x.ipynb"))
    assert info == {"title": "03 · Variance-adjusted cosine kNN", "status": "ok", "seconds": 12.3,
                    "found": "- raw cosine reproduced: 0.939"}


def _rows():
    src = "000_355ea6f26af76eed.txt"
    ledger = pd.DataFrame([
        dict(id="VAC-901", source=src, lines="398", item="test accuracy, raw cosine", printed="0.939", reading="",
             correction="", notebook="03", key="acc.raw", scope=""),
        dict(id="VAC-902", source=src, lines="460", item="test accuracy, E(W^-1)", printed="0.947", reading="",
             correction="", notebook="03", key="acc.expected", scope=""),
    ])
    check = SourceCheck("03", ledger=ledger)
    check.number("acc.raw", 0.9386)
    check.number("acc.expected", 0.9561)
    return check.rows


def test_report_collects_tables_and_links(tmp_path):
    _executed(tmp_path, "03_x.ipynb")
    (tmp_path / "results").mkdir()
    results = {"comparison": _rows(), "sweep50": {"raw_cosine": {"mean": 0.93, "sd": 0.02}},
               "sweep50_values": {"raw_cosine": [0.92, 0.93, 0.95], "expected_cholesky": [0.94, 0.96, 0.93]}}
    (tmp_path / "results" / "03_x.json").write_text(json.dumps(results, allow_nan=True))
    page = build_report(tmp_path).read_text()
    assert "href='html/03_x.html'" in page
    assert "raw cosine reproduced: 0.939" in page
    assert "test accuracy, E(W^-1)" in page and "VAC-902" in page
    assert 'class="v-not-reproduced"' in page and 'class="v-reproduced"' in page
    assert "raw_cosine" in page and "0.93" in page
    assert "1 reproduced · 1 not reproduced" in page           # the verdict count, in the index and the section
    assert "Source ledger coverage" in page
    assert page.count("data:image/png;base64,") == 1         # the per-split distribution


def test_report_plots_sweeps_found_in_out(tmp_path):
    _executed(tmp_path, "03_x.ipynb")
    sweep = tmp_path / "sweeps" / "03-seeds"
    sweep.mkdir(parents=True)
    rows = [{"run_id": f"r{i}", "status": "ok", "random_state": i, "key": f"test_accuracy.{m}", "value": 0.9 + i / 100}
            for i in range(4) for m in ("raw_cosine", "expected_cholesky")]
    rows.append({"run_id": "r9", "status": "cell-error", "random_state": 9, "key": None, "value": None})
    pd.DataFrame(rows).to_csv(sweep / "results.csv", index=False)
    page = build_report(tmp_path).read_text()
    assert "Sweep <code>03-seeds</code></h3><p>5 runs, 1 failed" in page
    assert page.count("data:image/png;base64,") == 1


def test_an_unreadable_results_file_is_reported_and_left_out(tmp_path):
    from helpers.workbook.report import _read_results

    bad = tmp_path / "03_x.json"
    bad.write_text("{not json")
    with pytest.warns(UserWarning, match=r"03_x\.json: results file unreadable .*Re-run its notebook"):
        assert _read_results(bad) == {}
