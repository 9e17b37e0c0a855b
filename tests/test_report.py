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
    results = {"comparison": table.to_dict("records"), "sweep50": {"raw_cosine": {"mean": 0.93, "sd": 0.02}},
               "sweep50_values": {"raw_cosine": [0.92, 0.93, 0.95], "expected_cholesky": [0.94, 0.96, 0.93]}}
    (tmp_path / "results" / "03_x.json").write_text(json.dumps(results, allow_nan=True))
    page = build_report(tmp_path).read_text()
    assert "href='html/03_x.html'" in page
    assert "raw cosine reproduced: 0.939" in page
    assert "accuracy, E(W^-1)" in page and 'class="differs"' in page and 'class="matches"' in page
    assert "raw_cosine" in page and "0.93" in page
    assert "1 match · 1 differ" in page                      # the verdict count, in the index and the section
    assert page.count("data:image/png;base64,") == 1         # the per-split distribution


def test_report_plots_sweeps_found_in_out(tmp_path):
    _executed(tmp_path, "03_x.ipynb")
    sweep = tmp_path / "sweeps" / "03-seeds"
    sweep.mkdir(parents=True)
    rows = [{"run_id": f"r{i}", "status": "ok", "random_state": i, "key": f"test_accuracy.{m}", "value": 0.9 + i / 100}
            for i in range(4) for m in ("raw_cosine", "expected_cholesky")]
    rows.append({"run_id": "r9", "status": "cell-error", "random_state": 9, "key": None, "value": None})
    import pandas as pd

    pd.DataFrame(rows).to_csv(sweep / "results.csv", index=False)
    page = build_report(tmp_path).read_text()
    assert "Sweep <code>03-seeds</code></h3><p>5 runs, 1 failed" in page
    assert page.count("data:image/png;base64,") == 1
