"""build/report.html from executed notebooks and their results JSON."""

import json

import nbformat

from helpers.reporting import compare_to_paper
from helpers.report import build_report, notebook_summary


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


def test_report_collects_tables_and_links(tmp_path):
    _executed(tmp_path, "03_x.ipynb")
    (tmp_path / "results").mkdir()
    table = compare_to_paper([("accuracy, raw cosine", "0.939", 0.9386), ("accuracy, E(W^-1)", "0.947", 0.9561)])
    results = {"comparison": table.to_dict("records"), "sweep50": {"raw_cosine": {"mean": 0.93, "sd": 0.02}}}
    (tmp_path / "results" / "03_x.json").write_text(json.dumps(results, allow_nan=True))
    page = build_report(tmp_path).read_text()
    assert "href='html/03_x.html'" in page
    assert "raw cosine reproduced: 0.939" in page
    assert "accuracy, E(W^-1)" in page and 'class="differs"' in page and 'class="matches"' in page
    assert "raw_cosine" in page and "0.93" in page
