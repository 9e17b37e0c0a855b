"""The book's generated pages (intro, ledger, sweeps) and its build, on a small temporary build folder."""

import json
import re

import nbformat
import pandas as pd
import pytest

from helpers.workbook import book
from helpers.workbook.checks import MIME, SourceCheck
from tests.support import write_sweep

VAC, MDS = "000_355ea6f26af76eed.txt", "001_a9361abd8dd83813.txt"


def _ledger():
    rows = [
        dict(id="VAC-901", source=VAC, lines="398", item="test accuracy, raw cosine", printed="0.939"),
        dict(id="VAC-902", source=VAC, lines="460", item="accuracy of $E(W^{-1})$ | whitened", printed="0.947"),
        dict(id="VAC-903", source=VAC, lines="470", item="a claim nobody answered", printed="holds"),
        dict(id="MDS-901", source=MDS, lines="12-14", item="the R session's prompt", printed="",
             notebook="", key="", scope="software output, not a result"),
    ]
    base = dict(reading="", correction="", notebook="00", key="", scope="", rope="0.01", printing="")
    keys = {"VAC-901": "acc.raw", "VAC-902": "acc.expected", "VAC-903": "claim.open"}
    return pd.DataFrame([{**base, "key": keys.get(r["id"], ""), **r} for r in rows])


def _comparison_rows(ledger):
    check = SourceCheck("00", ledger=ledger)
    check.number("acc.raw", 0.9386)        # prints as 0.939: reproduced
    check.number("acc.expected", 0.9561)   # 0.956, not 0.947: not reproduced
    return check.rows, check.table(all=True)


def _notebook(folder, name, title, table=None, error=False, papermill=None):
    cells = [nbformat.v4.new_markdown_cell(f"# {title}\n\nThe claim: $\\cos(Wx, Wy)$ and $$a^2 + b^2$$")]
    code = nbformat.v4.new_code_cell("check.table()", execution_count=1)
    if table is not None:
        bundle = table._repr_mimebundle_()
        code.outputs = [nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)]
    if error:
        code.outputs = [nbformat.v4.new_output("error", ename="RuntimeError", evalue="fails on purpose",
                                               traceback=["RuntimeError: fails on purpose"])]
    cells.append(code)
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    if papermill is not None:
        nb.metadata["papermill"] = papermill
    path = folder / "notebooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture
def build(tmp_path):
    """Two executed notebooks: 00 (ok, with a comparison table) and 08 (an own study that failed)."""
    ledger = _ledger()
    rows, table = _comparison_rows(ledger)
    _notebook(tmp_path, "00_primer.ipynb", "00 · A primer", table=table)
    _notebook(tmp_path, "08_study.ipynb", "08 · A study of our own", error=True)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "00_primer.json").write_text(json.dumps({"comparison": rows}))
    (tmp_path / "run.json").write_text(json.dumps({"notebooks": [
        {"name": "00_primer.ipynb", "seconds": 12.34, "status": "ok"},
        {"name": "08_study.ipynb", "seconds": 3.0, "status": "FAILED RuntimeError in cell 1 (In [1]): fails"},
    ]}))
    return tmp_path, ledger


def _table_rows(markdown: str, css: str) -> list[list[str]]:
    """Cells of the pipe tables inside ``:::{table}`` with class ``css``, without their headers."""
    blocks = re.findall(r":::\{table\}\n:class: " + css + r"\n\n(.*?)\n:::", markdown, flags=re.S)
    return [[c.strip() for c in line.strip("|").split(" | ")] for b in blocks for line in b.splitlines()[2:]]


def test_intro_lists_status_seconds_and_verdicts_of_each_notebook(build):
    out, _ = build
    page = book.intro_page(out)
    assert _table_rows(page, "status") == [
        ["[00 · A primer](notebooks/00_primer.ipynb)", "[ok]{.status-ok}", "12.3",
         "1 reproduced · 1 not reproduced"],
        ["[08 · A study of our own](notebooks/08_study.ipynb)",
         r"[FAILED RuntimeError in cell 1 \(In \[1\]\)\: fails]{.status-failed}", "3.0", ""],
    ]
    # 00 follows the sources' sections, 07 is one of the workbook's own studies
    assert ":caption: The sources' sections\n:maxdepth: 1\n\nnotebooks/00_primer\n```" in page
    assert ":caption: The workbook's own studies\n:maxdepth: 1\n\nnotebooks/08_study\n```" in page
    assert "ledger\nsweeps\nreferences\n```" in page


def test_status_falls_back_on_papermill_metadata_then_on_the_outputs(tmp_path):
    _notebook(tmp_path, "00_a.ipynb", "00 · a", papermill={"duration": 4.5, "exception": None})
    _notebook(tmp_path, "01_b.ipynb", "01 · b", error=True)
    _notebook(tmp_path, "02_c.ipynb", "02 · c")
    assert book.notebook_status(tmp_path) == {
        "00_a.ipynb": {"status": "ok", "seconds": 4.5},
        "01_b.ipynb": {"status": "FAILED", "seconds": None},
        "02_c.ipynb": {"status": "not recorded", "seconds": None},
    }


def test_ledger_page_has_every_row_with_its_verdict(build):
    out, ledger = build
    page = book.ledger_page(out, ledger)
    rows = _table_rows(page, "ledger")
    assert [r[0] for r in rows] == [r"VAC\-901", r"VAC\-902", r"VAC\-903", r"MDS\-901"]
    assert [r[-1] for r in rows] == [
        "[reproduced]{.verdict-reproduced}",
        "[not reproduced]{.verdict-not-reproduced}",
        "[unanswered]{.verdict-unanswered}",
        r"[out of scope]{.verdict-out-of-scope}: software output\, not a result",
    ]
    # the item's $ and | are literal text, not maths or a column break; the notebook links its chapter
    assert rows[1][2] == r"accuracy of \$E\(W\^\{\-1\}\)\$ \| whitened"
    assert rows[1][4] == "[00](notebooks/00_primer.ipynb)"
    coverage = {r[0]: r[1:] for r in _table_rows(page, "coverage")}
    # rows, out of scope, distinct results, reproduced, not reproduced, unanswered
    assert coverage["VAC"] == ["3", "0", "3", "1", "1", "1"]
    assert coverage[r"all sources"] == ["4", "1", "3", "1", "1", "1"]


def test_ledger_page_shows_a_claims_effect_interval_rope_and_posterior(build):
    out, ledger = build
    check = SourceCheck("00", ledger=ledger)
    check.claim("claim.open", effect=0.012, interval=(0.004, 0.02), evidence="x",
                posterior={"better": 0.97, "equivalent": 0.03, "worse": 0.0})
    (out / "results" / "00_primer.json").write_text(json.dumps({"comparison": check.rows}))
    verdict = _table_rows(book.ledger_page(out, ledger), "ledger")[2][-1]
    assert verdict.replace("\\", "") == ("[reproduced]{.verdict-reproduced} (+0.012 [+0.004, +0.02]; ROPE ±0.01; "
                                         "P(better, equivalent, worse) = 0.97, 0.03, 0.00)")


def test_sweeps_page_without_a_sweep_says_how_to_run_one(build):
    out, _ = build
    page = book.sweeps_page(out, out / "book_src")
    assert "No parameter sweep in this build" in page and "python -m helpers.workbook sweep" in page


def test_sweeps_page_shows_each_varying_result_by_the_repeated_parameter(build, monkeypatch):
    out, _ = build
    write_sweep(out)
    grouped = []
    from helpers.workbook import sweep  # sweeps_page imports plot_distribution when it runs: record its grouping

    original = sweep.plot_distribution
    monkeypatch.setattr(sweep, "plot_distribution", lambda t, k, by, ax=None: grouped.append((k, by)) or original(
        t, k, by, ax=ax))
    src = out / "book_src"
    page = book.sweeps_page(out, src)
    assert "## Sweep `03-seeds`" in page
    assert "9 runs, 1 failed; parameters varied: `random_state`, `method`" in page
    # n_test is the same in every run: in no table or figure; the accuracy is grouped by method, not by seed
    assert grouped == [("test_accuracy.raw", "method")]
    assert "| `test_accuracy.raw` | 8 | 0.925 | 0.016 | 0.9 | 0.95 |"  # sd of 0.90..0.93 and 0.92..0.95 in page
    assert "](sweeps/03-seeds_00.png)" in page
    assert (src / "sweeps" / "03-seeds_00.png").read_bytes()[:4] == b"\x89PNG"


def test_sources_need_executed_notebooks(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"No executed notebooks in .*notebooks .*Run `make run` first"):
        book.write_sources(tmp_path)


def test_sources_drop_the_json_payload_and_stale_chapters(build):
    out, _ = build
    src = book.write_sources(out)
    copy = json.loads((src / "notebooks" / "00_primer.ipynb").read_text())
    data = copy["cells"][1]["outputs"][0]["data"]
    assert MIME not in data and "text/html" in data
    assert (src / "conf.py").read_text() == (book.BOOK_DIR / "conf.py").read_text()
    (out / "notebooks" / "08_study.ipynb").unlink()
    book.write_sources(out)
    assert sorted(p.name for p in (src / "notebooks").iterdir()) == ["00_primer.ipynb"]


def test_comparison_tables_read_quantity_source_ours_difference_verdict():
    rows, table = _comparison_rows(_ledger())
    assert list(table.frame().columns) == ["id", "quantity", "source", "ours", "difference", "verdict", "lines",
                                           "note"]
    html = table._repr_mimebundle_()["text/html"]
    assert re.findall(r"<th>(\w+)</th>", html) == list(table.frame().columns)


@pytest.mark.integration
def test_the_book_builds_without_a_warning(build):
    out, _ = build
    index = book.build_book(out, strict=True).index
    assert index == out / "book" / "index.html"
    chapter = (out / "book" / "notebooks" / "00_primer.html").read_text()
    assert "VAC-902" in chapter and "not reproduced" in chapter       # the comparison table, as HTML
    assert "fails on purpose" in (out / "book" / "notebooks" / "08_study.html").read_text()
    assert (out / "book" / "_static" / "mathjax" / "tex-chtml.js").is_file()  # MathJax served locally
    assert 'src="../_static/mathjax/tex-chtml.js"' in chapter
    assert not (out / "jupyter_execute").exists()                        # MyST-NB's images stay in book_src
    bibliography = (out / "book" / "references.html").read_text()
    for author in ("Nadeau", "Ledoit", "Demšar", "Lewis", "Yang", "Goldberger", "Gower", "Torgerson"):
        assert author in bibliography
