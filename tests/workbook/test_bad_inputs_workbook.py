"""Bad input and faults against the workbook's writes, the book builder, the ledger and the verdict engine.

A catalogue: each case is a row (id, what is done, the expected error type or answer, the
words that must name the problem and the fix). The tables:

- ``BOOK_ERRORS``: a build folder ``make run`` could leave behind (a torn notebook, an
  unwritable ``book_src``, ...) on which the book's sources must not be written: the error
  names the file and what to do, and nothing of ``book_src`` is made.
- ``BOOK_WARNINGS``: a damaged file the book can do without (a torn ``run.json`` or results
  JSON): a warning names it and the fix, and the book still shows the right statuses and verdicts.
- ``LEDGER_ERRORS`` / ``LEDGER_ANSWERS``: ledger CSV files, refused with the file named, or read right.
- ``VERDICT_ERRORS`` / ``VERDICT_ANSWERS``: the verdict engine's inputs.
- ``RUN_CASES``: what ``run`` does when writing fails or Ctrl-C comes (simulated, no kernel).

A full disk (a real tmpfs), Ctrl-C against a live ``run`` and an ``--out`` with spaces and
accents execute notebooks and are marked ``integration``.
"""

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

import helpers._io as io_module
from helpers.workbook import book, cli, coverage
from helpers.workbook import execute as ex
from helpers.workbook import ledger as L
from helpers.workbook import run as runner
from helpers.workbook.checks import MIME, SourceCheck
from helpers.workbook.verdicts import effect_verdict, holds_verdict, parse_printed
from tests.support import fill, read_only, tmpfs, unwritable_dir

ROOT = Path(__file__).resolve().parents[2]
VAC, MDS = "000_355ea6f26af76eed.txt", "001_a9361abd8dd83813.txt"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


# --------------------------------------------------------------------------------------
# a small build folder, as `make run` leaves it


def small_ledger() -> pd.DataFrame:
    rows = [
        dict(id="VAC-901", source=VAC, lines="398", item="test accuracy, raw cosine", printed="0.939", key="acc.raw"),
        dict(id="VAC-902", source=VAC, lines="460", item="whitened accuracy", printed="0.947", key="acc.white"),
        dict(id="VAC-903", source=VAC, lines="470", item="a claim", printed="whitening helps", key="claim.helps"),
        dict(id="VAC-904", source=VAC, lines="471", item="an exponent", printed="1e-5", key="tol"),
        dict(id="VAC-905", source=VAC, lines="472", item="a sign", printed="+0.5", key="shift"),
        dict(id="MDS-901", source=MDS, lines="12-14", item="the R prompt", printed="", notebook="", key="",
             scope="software output, not a result"),
    ]
    base = dict(reading="", correction="", notebook="00", scope="", rope="0.01", printing="", unstated="", same_as="")
    return pd.DataFrame([{**base, **r} for r in rows])[L.COLUMNS]


def checked(ledger=None) -> SourceCheck:
    check = SourceCheck("00", ledger=small_ledger() if ledger is None else ledger)
    check.number("acc.raw", 0.9386)   # prints as 0.939: reproduced
    check.number("acc.white", 0.9561)  # not reproduced
    return check


def executed_notebook(path: Path, title: str, check: SourceCheck | None = None) -> Path:
    cells = [nbformat.v4.new_markdown_cell(f"# {title}")]
    code = nbformat.v4.new_code_cell("check.table()", execution_count=1)
    if check is not None:
        data = check.table(all=True)._repr_mimebundle_()
        code.outputs = [nbformat.v4.new_output("execute_result", data=data, execution_count=1)]
    cells.append(code)
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["papermill"] = {"duration": 2.5, "exception": None}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def build_folder(t: Path) -> Path:
    """``t/build``: notebooks 00 (with a comparison table) and 01, their results JSON and run.json."""
    out = t / "build"
    check = checked()
    executed_notebook(out / "notebooks" / "00_primer.ipynb", "00 · A primer", check)
    executed_notebook(out / "notebooks" / "01_more.ipynb", "01 · More")
    (out / "results").mkdir()
    (out / "results" / "00_primer.json").write_text(json.dumps({"comparison": check.rows}))
    (out / "run.json").write_text(json.dumps({"notebooks": [
        {"name": "00_primer.ipynb", "seconds": 12.5, "status": "ok"},
        {"name": "01_more.ipynb", "seconds": 3.0, "status": "ok"}]}))
    return out


def with_ledger(function):
    """Run ``function(out)`` with the book reading the small ledger instead of the committed one."""
    def call(out):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(book, "load_ledger", small_ledger)
            return function(out)
    return call


def nb_file(name):
    return lambda out: out / "notebooks" / name


def put(path_of, content):
    """Replace the file at ``path_of(out)`` with ``content`` (text or bytes)."""
    def damage(out):
        path = path_of(out)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return damage


def torn(path_of, keep=300):
    return lambda out: path_of(out).write_text(path_of(out).read_text(encoding="utf-8")[:keep], encoding="utf-8")


def replace_by_folder(path_of):
    def damage(out):
        path_of(out).unlink()
        path_of(out).mkdir()
    return damage


def book_src_unwritable(out):
    (out / "book_src").symlink_to(unwritable_dir(out.parent), target_is_directory=True)


def stored_row_without_verdict(out):
    """No results JSON, and the notebook's stored table holds a row without a verdict (hand-edited)."""
    (out / "results" / "00_primer.json").unlink()
    path = nb_file("00_primer.ipynb")(out)
    nb = json.loads(path.read_text(encoding="utf-8"))
    payload = nb["cells"][1]["outputs"][0]["data"][MIME]
    payload = json.loads(payload) if isinstance(payload, str) else payload
    del payload["rows"][0]["verdict"]
    nb["cells"][1]["outputs"][0]["data"][MIME] = payload
    path.write_text(json.dumps(nb), encoding="utf-8")


def ledger_header_only(out):
    (out.parent / "ledger.csv").write_text(",".join(L.COLUMNS) + "\n", encoding="utf-8")


def damaged_book(damage, ledger=small_ledger):
    def call(t):
        out = build_folder(t)
        damage(out)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(book, "load_ledger", ledger if ledger is not None else
                      (lambda: L.load_ledger(out.parent / "ledger.csv")))
            return book.write_sources(out)
    return call


HINT = r"Run `make run` again \(`python -m helpers\.workbook run --only 00` for this one\), or delete the file"

# (id, the damage done to a fresh build folder, error type, words). write_sources must raise
# before it writes anything: no book_src is made (an unwritable one is left as it was).
def with_markdown(text):
    """Add a Markdown cell holding ``text`` to the executed notebook 01."""
    def damage(out):
        path = out / "notebooks" / "01_more.ipynb"
        nb = nbformat.read(path, as_version=4)
        nb.cells.append(nbformat.v4.new_markdown_cell(text))
        nbformat.write(nb, path)
    return damage


OUTSIDE = (r"01_more\.ipynb: Markdown cell 2 takes a file from outside the book \(.+\): the book shows a notebook's "
           r"own text and outputs and publishes no other file.*Put the text or figure in the notebook itself")


BOOK_ERRORS = [
    ("book-notebook-torn", torn(nb_file("00_primer.ipynb")), ValueError,
     r"00_primer\.ipynb is not a whole notebook \(its JSON breaks off: .*\); the run that wrote it was cut short\. "
     + HINT),
    ("book-notebook-empty", put(nb_file("00_primer.ipynb"), ""), ValueError,
     r"00_primer\.ipynb is empty: the run that wrote it was cut short \(a full disk\?\)\. " + HINT),
    ("book-notebook-a-json-list", put(nb_file("00_primer.ipynb"), "[1, 2]"), ValueError,
     r"00_primer\.ipynb is JSON but not a notebook \(it holds a list\)\. " + HINT),
    ("book-notebook-without-cells", put(nb_file("00_primer.ipynb"), '{"cells": 3, "metadata": {}}'), ValueError,
     r"00_primer\.ipynb is JSON but not a notebook \(it holds an object without a list of cells\)"),
    ("book-notebook-not-utf8", put(nb_file("00_primer.ipynb"), b"\xff\xfe{\x00"), ValueError,
     r"00_primer\.ipynb cannot be read \(.*codec.*\)\. " + HINT),
    ("book-notebook-is-a-folder", lambda out: (out / "notebooks" / "02_dir.ipynb").mkdir(), ValueError,
     r"02_dir\.ipynb is a folder, not an executed notebook: remove it from .*notebooks"),
    ("book-two-torn-notebooks-named-at-once",
     lambda out: (put(nb_file("00_primer.ipynb"), "")(out), torn(nb_file("01_more.ipynb"))(out)), ValueError,
     r"cannot show these executed notebooks:\n  .*00_primer\.ipynb is empty.*\n  .*01_more\.ipynb is not a whole"),
    ("book-stored-row-without-verdict", stored_row_without_verdict, ValueError,
     r"00_primer\.ipynb: its stored comparison tables cannot be read \(.*has no verdict: execute the notebook "
     r"again.*\)\. " + HINT),
    ("book-src-is-a-file", lambda out: (out / "book_src").write_text("x"), NotADirectoryError,
     r"Cannot write the book's sources into .*book_src: a file is in its place\. It is rebuilt from .*build every "
     r"time: delete it if something else is in its place"),
    ("book-src-unwritable", book_src_unwritable, OSError,
     r"Cannot write the book's sources into .*book_src: (Permission denied|Read-only file system|Operation not "
     r"permitted)\. .*make the folder writable or free space there, then build the book again"),
    ("book-ledger-header-only", ledger_header_only, ValueError,
     r"ledger\.csv holds no ledger row, only its header: .*Restore the committed file"),
    ("book-include-parent", with_markdown("```{include} ../../../README.md\n```"), ValueError, OUTSIDE),
    ("book-literalinclude-absolute", with_markdown(":::{literalinclude} /etc/hostname\n:::"), ValueError, OUTSIDE),
    ("book-rst-include", with_markdown("```{eval-rst}\n.. include:: ../../secret.txt\n```"), ValueError, OUTSIDE),
    ("book-image-outside", with_markdown("```{image} ../../../plot.png\n```"), ValueError, OUTSIDE),
    ("book-markdown-image-absolute", with_markdown("A figure: ![a plot](/tmp/plot.png)"), ValueError, OUTSIDE),
    ("book-download-parent", with_markdown("The data: {download}`../../data.csv`"), ValueError, OUTSIDE),
]


@pytest.mark.parametrize("case", BOOK_ERRORS, ids=[c[0] for c in BOOK_ERRORS])
def test_bad_book_input(case, tmp_path):
    name, damage, error, words = case
    call = damaged_book(damage, ledger=None if "ledger" in name else small_ledger)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an error, not a warning and a half-built book
        with pytest.raises(error, match=words) as caught:
            call(tmp_path)
    assert "Traceback" not in str(caught.value)
    src = tmp_path / "build" / "book_src"
    assert not src.exists() or src.is_symlink() or src.is_file(), "book sources were written from bad input"


def test_the_book_command_refuses_an_out_that_is_a_file(tmp_path, capsys):
    """`book --out results.txt` said "No executed notebooks in results.txt/notebooks": true, but it
    sent the reader looking for notebooks instead of at the --out they mistyped."""
    out = tmp_path / "results.txt"
    out.write_text("kept")
    assert cli.main(["book", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"error: .*results\.txt is a file, not the build folder the book is made from \(the --out "
                        r"of `make run`, with notebooks/, results/ and run\.json\); give that folder\.\n", err), err
    assert out.read_text() == "kept"


def test_the_book_command_says_a_bad_input_in_one_line(tmp_path, capsys):
    out = build_folder(tmp_path)
    put(nb_file("00_primer.ipynb"), "")(out)
    assert cli.main(["book", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"error: the book cannot show these executed notebooks:\n  .*00_primer\.ipynb is empty: .*\n",
                        err), err
    (out / "book_src").write_text("x")
    put(nb_file("00_primer.ipynb"), "")(out)
    nb_file("00_primer.ipynb")(out).unlink()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(book, "load_ledger", small_ledger)
        assert cli.main(["book", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: Cannot write the book's sources into ") and "[Errno" not in err, err


def _status_and_verdicts(out):
    page = with_ledger(book.intro_page)(out)
    return book.notebook_status(out), "1 reproduced · 1 not reproduced" in page


OK_STATUS = {"00_primer.ipynb": {"status": "ok", "seconds": 12.5}, "01_more.ipynb": {"status": "ok", "seconds": 3.0}}
FALLBACK_STATUS = {name: {"status": "ok", "seconds": 2.5} for name in OK_STATUS}  # papermill's metadata
RUN_JSON = lambda out: out / "run.json"  # noqa: E731
RESULTS = lambda out: out / "results" / "00_primer.json"  # noqa: E731

# (id, damage, words of the warning, the right (status, verdicts-shown) afterwards). The book
# does without the damaged file: statuses from the notebooks' papermill metadata, verdicts from
# the tables the notebook stores.
BOOK_WARNINGS = [
    ("book-runjson-torn", torn(RUN_JSON, 20), r"run\.json: unreadable \(.*\); the book does without it\. Run "
     r"`make run` again to rewrite it", (FALLBACK_STATUS, True)),
    ("book-runjson-empty", put(RUN_JSON, ""), r"run\.json: unreadable", (FALLBACK_STATUS, True)),
    ("book-runjson-not-utf8", put(RUN_JSON, b"\xff\xfe\x00"), r"run\.json: unreadable \(.*codec",
     (FALLBACK_STATUS, True)),
    ("book-runjson-a-list", put(RUN_JSON, "[1, 2]"),
     r"run\.json is not the record `make run` writes \(\{\"notebooks\": \[\.\.\.\]\}\); the book reads each "
     r"notebook's status from the notebook instead\. Run `make run` again", (FALLBACK_STATUS, True)),
    ("book-runjson-notebooks-not-a-list", put(RUN_JSON, '{"notebooks": 5}'), r"run\.json is not the record",
     (FALLBACK_STATUS, True)),
    ("book-runjson-is-a-folder", replace_by_folder(RUN_JSON), r"run\.json is not the record",
     (FALLBACK_STATUS, True)),
    ("book-results-torn", torn(RESULTS, 10), r"00_primer\.json: unreadable \(.*\); the book does without it",
     (OK_STATUS, True)),
    ("book-results-a-list", put(RESULTS, "[]"),
     r"00_primer\.json holds a list, not the object a notebook's save_results writes; the book uses the tables "
     r"stored in 00_primer\.ipynb instead", (OK_STATUS, True)),
    ("book-results-row-without-verdict", put(RESULTS, json.dumps({"comparison": [{"id": "VAC-901"}]})),
     r"00_primer\.json: comparison row 0 \(VAC-901\) has no verdict the workbook gives \(None\); the book uses the "
     r"tables stored in 00_primer\.ipynb instead\. Run `make run` again", (OK_STATUS, True)),
    ("book-results-rows-not-objects", put(RESULTS, json.dumps({"comparison": [1, "x"]})),
     r"comparison row 0 is not a row with an id \(1\)", (OK_STATUS, True)),
    ("book-results-unknown-verdict",
     put(RESULTS, json.dumps({"comparison": [{"id": "VAC-901", "verdict": "maybe"}]})),
     r"has no verdict the workbook gives \('maybe'\)", (OK_STATUS, True)),
    ("book-results-comparison-not-a-list", put(RESULTS, json.dumps({"comparison": "all good"})),
     r"its comparison is a str, not a list of rows", (OK_STATUS, True)),
]


@pytest.mark.parametrize("case", BOOK_WARNINGS, ids=[c[0] for c in BOOK_WARNINGS])
def test_damaged_book_input_is_named_and_done_without(case, tmp_path):
    _, damage, words, expected = case
    out = build_folder(tmp_path)
    damage(out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _status_and_verdicts(out)
        with_ledger(book.ledger_page)(out)
    assert any(re.search(words, str(w.message)) for w in caught), [str(w.message) for w in caught]
    assert got == expected


def test_each_damaged_file_is_said_once_per_build(tmp_path):
    """The intro and the ledger page both read a results JSON: its warning comes once, not twice."""
    out = build_folder(tmp_path)
    torn(RESULTS, 10)(out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with_ledger(book.write_sources)(out)
    assert [str(w.message).split(":")[0] for w in caught] == [str(RESULTS(out))]


def test_a_sweep_folder_with_a_space_keeps_its_figures(tmp_path):
    """``sweeps/k by seed/``: its figures get file names a Markdown link can point at (``book-sweep-name-space``)."""
    out = build_folder(tmp_path)
    runs = out / "sweeps" / "k by seed" / "runs"
    runs.mkdir(parents=True)
    for seed in range(3):
        for k in (1, 5):
            rid = f"r{seed}k{k}"
            record = {"run_id": rid, "params": {"seed": seed, "k": k}, "status": "ok"}
            (runs / f"{rid}.status.json").write_text(json.dumps(record))
            (runs / f"{rid}.json").write_text(json.dumps({"accuracy": 0.9 + seed / 100 + k / 1000}))
    src = out / "book_src"
    page = book.sweeps_page(out, src)
    links = re.findall(r"!\[[^\]]*\]\(([^)]*)\)", page)
    assert links and all(" " not in link for link in links), links
    assert all((src / link).read_bytes()[:4] == b"\x89PNG" for link in links)
    assert "## Sweep `k by seed`" in page
    from markdown_it import MarkdownIt  # MyST's parser: each link is an image, not literal text

    assert MarkdownIt("commonmark").render(page).count("<img src=\"sweeps/") == len(links)


# --------------------------------------------------------------------------------------
# run: each executed notebook is moved into place whole, or not at all (no kernel here)


def fake_papermill(write, raises=None, results_text=None):
    """A stand-in for :func:`execute_notebook`: writes ``write`` to the output path, then raises ``raises``."""
    def execute(src, dst, parameters=None, **kwargs):
        Path(dst).write_text(write, encoding="utf-8")
        if results_text is not None and parameters:
            Path(parameters["results_path"]).write_text(results_text, encoding="utf-8")
        if raises is not None:
            raise raises
    return execute


WHOLE = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


class CellError(Exception):
    ename, evalue, cell_index, exec_count = "RuntimeError", "fails on purpose", 1, 1


def one_run(t, execute):
    src = t / "nbs" / "00_tiny.ipynb"
    src.parent.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("results_path = None",
                                                                   metadata={"tags": ["parameters"]})])
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nbformat.write(nb, src)
    dst, results = t / "build" / "notebooks" / "00_tiny.ipynb", t / "build" / "results" / "00_tiny.json"
    for folder in (dst.parent, results.parent):
        folder.mkdir(parents=True)
    dst.write_text(WHOLE)  # a notebook of an earlier run: replaced, never mixed with this run's status
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ex, "execute_notebook", execute)
        record = ex.execute_for_run(src, dst, results)
    left = sorted(p.name for p in dst.parent.iterdir()) + sorted(p.name for p in results.parent.iterdir())
    return record["status"], left


# (id, fake execution, the status's words, the files left in build/notebooks and build/results)
RUN_CASES = [
    ("run-notebook-torn-by-full-disk",
     fake_papermill(WHOLE[:20], OSError(errno.ENOSPC, "No space left on device")),
     r"^FAILED OSError: \[Errno 28\] No space left on device \(no executed notebook kept: the file papermill wrote "
     r"is cut short", []),
    ("run-notebook-nothing-written", fake_papermill("", OSError(errno.ENOSPC, "No space left on device")),
     r"\(no executed notebook kept: papermill wrote nothing\)", []),
    ("run-cell-error-keeps-the-whole-notebook", fake_papermill(WHOLE, CellError()),
     r"^FAILED RuntimeError in cell 1 \(In \[1\]\): fails on purpose$", ["00_tiny.ipynb"]),
    ("run-results-json-torn", fake_papermill(WHOLE, results_text='{"accuracy": 0.9'),
     r"^FAILED JSONDecodeError: .* \(its results JSON 00_tiny\.json was unreadable and is deleted\)",
     ["00_tiny.ipynb"]),
    ("run-results-json-whole", fake_papermill(WHOLE, results_text='{"accuracy": 0.9}'), r"^ok$",
     ["00_tiny.ipynb", "00_tiny.json"]),
]


@pytest.mark.parametrize("case", RUN_CASES, ids=[c[0] for c in RUN_CASES])
def test_an_executed_notebook_is_kept_whole_or_not_at_all(case, tmp_path):
    _, execute, words, expected = case
    status, left = one_run(tmp_path, execute)
    assert re.search(words, status), status
    assert left == expected  # no temporary file, no torn notebook or results JSON
    for name in left:
        path = tmp_path / "build" / ("notebooks" if name.endswith(".ipynb") else "results") / name
        json.loads(path.read_text())


def tiny_folder(t: Path) -> Path:
    folder = t / "nbs"
    folder.mkdir()
    for name in ("00_a.ipynb", "01_b.ipynb"):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
        nb.metadata["kernelspec"] = dict(KERNELSPEC)
        nbformat.write(nb, folder / name)
    return folder


def test_run_json_that_cannot_be_written_is_said_and_the_earlier_one_kept(tmp_path, monkeypatch, capsys):
    """``run-runjson-disk-full``: the runner used to die with a traceback writing run.json on a full disk."""
    out = tmp_path / "build"
    out.mkdir()
    (out / "run.json").write_text('{"notebooks": [{"name": "00_a.ipynb", "seconds": 1.0, "status": "ok"}]}')
    before = (out / "run.json").read_text()
    monkeypatch.setattr(runner, "_execute_all", lambda notebooks, dirs, jobs, progress: {
        "00_a.ipynb": {"name": "00_a.ipynb", "seconds": 2.0, "status": "ok"}})

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(io_module, "atomic_open", full)
    code = runner.run_notebooks(out, ["00"], tiny_folder(tmp_path), book=False)
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"error: cannot write .*run\.json: No space left on device\. The notebooks that ran are in "
                     r".*notebooks and an earlier run\.json is kept as it was; free space there", err), err
    assert (out / "run.json").read_text() == before


def test_a_torn_earlier_run_json_is_replaced_by_this_runs_records(tmp_path):
    """``run-earlier-runjson-torn``: a run.json cut short by an earlier run does not stop the next one."""
    (tmp_path / "run.json").write_text('{"notebooks": [{"na')
    runner.record_run(tmp_path, [{"name": "00_a.ipynb", "seconds": 1.5, "status": "ok"}])
    assert json.loads((tmp_path / "run.json").read_text()) == {
        "notebooks": [{"name": "00_a.ipynb", "seconds": 1.5, "status": "ok"}]}
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_ctrl_c_during_run_records_the_finished_and_exits_130(tmp_path, monkeypatch, capsys):
    """``run-ctrl-c-simulated``: the finished notebooks are recorded; the message says how to go on."""
    out = tmp_path / "build"

    def interrupted(notebooks, dirs, jobs, progress):
        raise runner.Interrupted({"00_a.ipynb": {"name": "00_a.ipynb", "seconds": 2.0, "status": "ok"}})

    monkeypatch.setattr(runner, "_execute_all", interrupted)
    assert runner.run_notebooks(out, None, tiny_folder(tmp_path), book=False) == 130
    err = capsys.readouterr().err
    assert re.search(r"interrupted: 1 of 2 notebook\(s\) had finished \(kept in .*notebooks, recorded in "
                     r".*run\.json\); the others were stopped and left nothing behind\. Run the same command again",
                     err), err
    assert json.loads((out / "run.json").read_text())["notebooks"][0]["name"] == "00_a.ipynb"


def test_ctrl_c_while_the_book_builds_exits_130_with_a_sentence(tmp_path, monkeypatch, capsys):
    """``run-ctrl-c-during-book``."""
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_notebooks", stopped)
    assert cli.main(["run", "--out", str(tmp_path / "b")]) == 130
    err = capsys.readouterr().err
    assert "interrupted; the executed notebooks are kept in" in err and "Traceback" not in err


def test_stop_deletes_the_temporary_notebooks_of_stopped_workers(tmp_path):
    """``run-ctrl-c-temporary-files``: what a stopped worker was writing is removed, finished notebooks kept."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / ".00_a.ipynb.k2j3.ipynb").write_text("{")
    (folder / "01_b.ipynb").write_text(WHOLE)

    class Pool:
        _processes = {}

        def shutdown(self, wait, cancel_futures):
            assert not wait and cancel_futures

    runner._stop(Pool(), folder)
    assert [p.name for p in folder.iterdir()] == ["01_b.ipynb"]


# --------------------------------------------------------------------------------------
# the ledger file


def ledger_csv(t: Path, text: str | bytes, name="ledger.csv") -> Path:
    path = t / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def small_csv(**change) -> str:
    table = small_ledger()
    for column, (row, value) in change.items():
        table.loc[row, column] = value
    return table.to_csv(index=False)


def load(text_of):
    return lambda t: L.load_ledger(ledger_csv(t, text_of() if callable(text_of) else text_of))


HEADER = ",".join(L.COLUMNS)

# (id, call, error type, words). Each names the file and says what to fix.
LEDGER_ERRORS = [
    ("ledger-header-repeated", load(lambda: small_csv() + small_csv()), ValueError,
     r"row\(s\) \[7\] after the header repeat it \(two ledgers pasted into one\?\): keep the header once"),
    ("ledger-header-only", load(HEADER + "\n"), ValueError,
     r"ledger\.csv holds no ledger row, only its header: .* an empty one would count none\. Restore the committed "
     r"file \(git checkout -- data/source_ledger\.csv\)"),
    ("ledger-empty-file", load(""), ValueError,
     r"ledger\.csv: the header \(its first line that is not a # comment\) must name the columns id,source,.*the "
     r"file is empty"),
    ("ledger-comments-only", load("# the items of the five sources\n"), ValueError, r"the file is empty"),
    ("ledger-header-garbled", load(lambda: small_csv().replace("id,source", "id;source", 1)), ValueError,
     r"ledger\.csv: the header .* separated by commas; columns \['id', 'source'\] are missing \(it reads "
     r"'id;source,lines"),
    ("ledger-semicolon-separated", load(lambda: small_ledger().to_csv(index=False, sep=";")), ValueError,
     r"separated by commas; columns .* are missing \(it reads 'id;source;lines"),
    ("ledger-column-missing", load(lambda: small_ledger().drop(columns="key").to_csv(index=False)), ValueError,
     r"columns \['key'\] are missing"),
    ("ledger-column-repeated", load(lambda: small_csv().replace("printing", "key", 1)), ValueError,
     r"columns \['key'\] are repeated"),
    ("ledger-latin-1", load(lambda: small_csv(item=(0, "café au lait")).encode("latin-1")), ValueError,
     r"ledger\.csv is not UTF-8 text \(.*codec.*\); save it as UTF-8 \(a spreadsheet's \"CSV UTF-8\"\)"),
    ("ledger-utf-16", load(lambda: small_csv().encode("utf-16")), ValueError, r"is not UTF-8 text"),
    ("ledger-row-with-extra-fields", load(lambda: small_csv() + f"VAC-999,{VAC},1,a,b,,,00,k9,,,,,,surplus\n"),
     ValueError,
     r"ledger\.csv: VAC-999 has more fields than the header: quote a field that holds a comma"),
    ("ledger-row-without-id", load(lambda: small_csv(id=(0, ""))), ValueError,
     r"row 1 \(after the header\) has no id"),
    ("ledger-duplicate-id", load(lambda: small_csv(id=(1, "VAC-901"))), ValueError, r"VAC-901: the id is used twice"),
    ("ledger-notebook-unknown", load(lambda: small_csv(notebook=(0, "42"))), ValueError,
     r"VAC-901: notebook '42' is not one of the workbook's \(00, 01, .*08\); a new notebook needs its entry in the "
     r"manifest"),
    ("ledger-rope-nan", load(lambda: small_csv(rope=(0, "nan"))), ValueError,
     r"VAC-901: rope 'nan' must be a positive number, the half-width of the region of practical equivalence"),
    ("ledger-rope-inf", load(lambda: small_csv(rope=(0, "inf"))), ValueError, r"rope 'inf' must be a positive number"),
    ("ledger-rope-text", load(lambda: small_csv(rope=(0, "one point"))), ValueError,
     r"rope 'one point' must be a positive number"),
    ("ledger-rope-percent", load(lambda: small_csv(rope=(0, "1%"))), ValueError, r"rope '1%' must be a positive"),
    ("ledger-unstated-free-text", load(lambda: small_csv(unstated=(0, "the keyword threshold"))), ValueError,
     r"VAC-901: unstated 'the keyword threshold' must read 'none: <why"),
    ("ledger-unstated-none-without-why", load(lambda: small_csv(unstated=(0, "none: "))), ValueError,
     r"VAC-901: unstated 'none:' must read"),
    ("ledger-unstated-no-range", load(lambda: small_csv(unstated=(0, "components: many; a threshold not given"))),
     ValueError, r"must read .*'<setting>: <low>-<high>; <why"),
    ("ledger-unstated-reversed", load(lambda: small_csv(unstated=(0, "components: 948-168; 250 to 2,000 keywords"))),
     ValueError, r"VAC-901: the plausible range 948-168 of 'components' is reversed: write it low-high"),
    ("ledger-unstated-no-why", load(lambda: small_csv(unstated=(0, "components: 168-948; "))), ValueError,
     r"VAC-901: unstated .* must read"),
    ("ledger-same-as-unknown", load(lambda: small_csv(same_as=(0, "VAC-999"))), ValueError,
     r"VAC-901: same_as 'VAC-999' is not an id of the ledger"),
    ("ledger-same-as-itself", load(lambda: small_csv(same_as=(0, "VAC-901"))), ValueError,
     r"VAC-901: same_as names the row itself"),
    ("ledger-missing-file", lambda t: L.load_ledger(t / "absent.csv"), ValueError,
     r"no ledger at .*absent\.csv: it is committed with the workbook"),
]


@pytest.mark.parametrize("case", LEDGER_ERRORS, ids=[c[0] for c in LEDGER_ERRORS])
def test_bad_ledger_is_refused_naming_the_file(case, tmp_path):
    _, call, error, words = case
    with pytest.raises(error, match=words):
        call(tmp_path)


# (id, call, the right answer: the small ledger's ids, in order)
IDS = list(small_ledger()["id"])
LEDGER_ANSWERS = [
    ("ledger-byte-order-mark", load(lambda: "\ufeff" + small_csv()), IDS),
    ("ledger-crlf-line-ends", load(lambda: small_csv().replace("\n", "\r\n")), IDS),
    ("ledger-columns-reordered", load(lambda: small_ledger()[L.COLUMNS[::-1]].to_csv(index=False)), IDS),
    ("ledger-every-field-quoted", load(lambda: small_ledger().to_csv(index=False, quoting=1)), IDS),
    ("ledger-rope-with-exponent", load(lambda: small_csv(rope=(0, "1e-2"))), IDS),
    ("ledger-extra-column-ignored", load(lambda: small_ledger().assign(notes="mine").to_csv(index=False)), IDS),
    ("ledger-comment-lines", load(lambda: "# the items\n" + small_csv()), IDS),
]


@pytest.mark.parametrize("case", LEDGER_ANSWERS, ids=[c[0] for c in LEDGER_ANSWERS])
def test_awkward_ledger_is_read_right(case, tmp_path):
    _, call, expected = case
    table = call(tmp_path)
    assert list(table["id"]) == expected and list(table.columns) == L.COLUMNS
    assert all(table[c].map(type).eq(str).all() for c in table.columns)


def test_make_ledger_refuses_an_empty_ledger_and_leaves_the_readme(tmp_path, monkeypatch, capsys):
    """``ledger-empty-rewrites-readme``: the README's coverage table used to be rewritten with zeros."""
    readme = tmp_path / "README.md"
    text = f"# x\n\n{coverage.README_START}\n| source | rows |\n|---|---:|\n| VAC | 682 |\n{coverage.README_END}\n"
    readme.write_text(text)
    monkeypatch.setattr(L, "LEDGER_PATH", ledger_csv(tmp_path, HEADER + "\n"))
    monkeypatch.setattr(coverage, "ROOT", tmp_path)
    assert cli.main(["readme"]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"error: .*ledger\.csv holds no ledger row, only its header: .*\n", err), err
    assert readme.read_text() == text


def test_a_stored_row_without_a_verdict_is_named_with_its_notebook(tmp_path):
    """``coverage-stored-row-without-verdict``: ``make ledger`` used to stop on a bare KeyError."""
    out = build_folder(tmp_path)
    stored_row_without_verdict(out)
    with pytest.raises(ValueError, match=r"00_primer\.ipynb: a stored comparison row \(.*\) has no verdict: execute "
                                         r"the notebook again \(make notebooks NB="):
        coverage.notebook_rows(nb_file("00_primer.ipynb")(out))


# --------------------------------------------------------------------------------------
# the verdict engine


def answer(method, key, *args, **kwargs):
    def call(t):
        check = SourceCheck("00", ledger=small_ledger())
        return getattr(check, method)(key, *args, **kwargs)
    return call


# (id, call, error type, words). A value the engine cannot judge is refused, named by its key.
VERDICT_ERRORS = [
    ("verdict-ours-nan", answer("number", "acc.raw", float("nan")), ValueError,
     r"acc\.raw \(VAC-901\): ours is nan, which cannot be compared with the printed '0\.939': a verdict needs a "
     r"finite value"),
    ("verdict-ours-inf", answer("number", "acc.raw", float("inf")), ValueError, r"acc\.raw \(VAC-901\): ours is inf"),
    ("verdict-ours-text", answer("number", "acc.raw", "0.939"), TypeError,
     r"acc\.raw \(VAC-901\): ours is '0\.939' \(str\), but the source prints the number 0\.939: give a number"),
    ("verdict-ours-none", answer("number", "acc.raw", None), TypeError, r"acc\.raw \(VAC-901\): ours is None"),
    ("verdict-ours-pandas-na", answer("number", "acc.raw", pd.NA), TypeError, r"ours is <NA> \(NAType\)"),
    ("verdict-ours-a-flag", answer("number", "acc.raw", True), TypeError, r"ours is True \(bool\), but the source"),
    ("verdict-claim-holds-text-false", answer("claim", "claim.helps", "False", evidence="e"), TypeError,
     r"claim\.helps: holds must be True or False, not 'False'"),
    ("verdict-claim-holds-one", answer("claim", "claim.helps", 1, evidence="e"), TypeError,
     r"holds must be True or False, not 1"),
    ("verdict-holds-text-engine", lambda t: holds_verdict("False"), TypeError,
     r"holds must be True or False, not 'False' \(str\): a claim holds or it does not"),
    ("verdict-effect-nan", answer("claim", "claim.helps", effect=float("nan"), interval=(0, 1), evidence="e"),
     ValueError, r"claim\.helps \(VAC-903\): effect nan, interval \(0\.0, 1\.0\) and ROPE 0\.01 must be finite"),
    ("verdict-interval-nan", answer("claim", "claim.helps", effect=0.02, interval=(float("nan"), 1), evidence="e"),
     ValueError, r"must be finite numbers"),
    ("verdict-effect-a-flag", lambda t: effect_verdict(True, (0, 1), 0.01), ValueError,
     r"effect=True: an effect, its interval and the ROPE are numbers, not True or False"),
    ("verdict-printed-beyond-float", lambda t: parse_printed("1e400"), ValueError,
     r"printed value '1e400' is beyond the largest float: fix its transcription in the ledger"),
]


@pytest.mark.parametrize("case", VERDICT_ERRORS, ids=[c[0] for c in VERDICT_ERRORS])
def test_a_value_the_engine_cannot_judge_is_refused(case, tmp_path):
    _, call, error, words = case
    with pytest.raises(error, match=words):
        call(tmp_path)


# (id, call, the right verdict)
VERDICT_ANSWERS = [
    ("verdict-printed-exponent", lambda t: answer("number", "tol", 1e-5)(t).verdict, "reproduced"),
    ("verdict-printed-exponent-missed", lambda t: answer("number", "tol", 2e-5)(t).verdict, "not reproduced"),
    ("verdict-printed-plus-sign", lambda t: answer("number", "shift", 0.5)(t).verdict, "reproduced"),
    ("verdict-numpy-float32-ours", lambda t: answer("number", "acc.raw", np.float32(0.939))(t).verdict, "reproduced"),
    ("verdict-numpy-bool-holds", lambda t: answer("claim", "claim.helps", np.bool_(False), evidence="e")(t).verdict,
     "refuted"),
]


@pytest.mark.parametrize("case", VERDICT_ANSWERS, ids=[c[0] for c in VERDICT_ANSWERS])
def test_awkward_verdict_input_gets_the_right_verdict(case, tmp_path):
    _, call, expected = case
    assert call(tmp_path) == expected


# --------------------------------------------------------------------------------------
# integration: a real full disk, a real Ctrl-C, an --out with spaces and accents


def tiny_notebooks(t: Path, body: str = "print('x' * 100000)") -> Path:
    folder = t / "nbs"
    folder.mkdir()
    for name in ("00_tiny.ipynb", "01_small.ipynb"):
        cells = [nbformat.v4.new_markdown_cell(f"# {name}"),
                 nbformat.v4.new_code_cell("results_path = None", metadata={"tags": ["parameters"]}),
                 nbformat.v4.new_code_cell(body)]
        nb = nbformat.v4.new_notebook(cells=cells)
        nb.metadata["kernelspec"] = dict(KERNELSPEC)
        nbformat.write(nb, folder / name)
    return folder


@pytest.mark.integration
def test_run_onto_a_full_disk_keeps_no_torn_notebook(tmp_path, capsys):
    """``run-full-disk``: papermill used to leave empty notebooks and the runner died writing run.json."""
    from tests.support import full_disk

    folder = tiny_notebooks(tmp_path)
    with full_disk(tmp_path / "disk") as disk:
        out = disk / "build"
        code = runner.run_notebooks(out, None, folder, jobs=2, progress=False, book=False)
        captured = capsys.readouterr()
        assert code == 1
        assert "no executed notebook kept" in captured.out
        assert re.search(r"error: cannot write .*run\.json: No space left on device\..* free space there",
                         captured.err), captured.err
        assert [p.name for p in out.rglob("*") if p.is_file()] == []  # nothing torn, no temporary file


def _interrupt_run(tmp_path, out: Path, after: float):
    folder = tiny_notebooks(tmp_path, body="import time\ntime.sleep(60)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "helpers.workbook", "run", "--notebooks-dir", str(folder),
                             "--out", str(out), "--no-book", "--no-progress"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + after
    while time.monotonic() < deadline and not list((out / "notebooks").glob(".*.ipynb")):
        time.sleep(0.5)  # until papermill writes (the kernels run), at most `after` seconds
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # pragma: no cover - the bug this test pins
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("run hung after Ctrl-C")
    return proc.returncode, err


@pytest.mark.integration
def test_ctrl_c_during_a_live_run_stops_it_at_once(tmp_path):
    """``run-ctrl-c-live``: Ctrl-C used to print a traceback per process; now one sentence, exit 130."""
    out = tmp_path / "build"
    code, err = _interrupt_run(tmp_path, out, after=60)
    assert code == 130, err
    assert "interrupted: 0 of 2 notebook(s) had finished" in err and "Traceback" not in err, err
    assert [p.name for p in (out / "notebooks").iterdir()] == []


@pytest.mark.integration
def test_run_into_an_out_folder_with_spaces_and_accents(tmp_path, capsys):
    """``run-out-unicode-space``: the notebooks, results and run.json land there, and the book's sources too."""
    out = tmp_path / "my büild — ñ" / "out dir"
    writes = "import json\nif results_path:\n    json.dump({'a': 1}, open(results_path, 'w'))"
    folder = tiny_notebooks(tmp_path, body=writes)
    assert runner.run_notebooks(out, None, folder, jobs=2, progress=False, book=False) == 0
    assert sorted(p.name for p in (out / "notebooks").iterdir()) == ["00_tiny.ipynb", "01_small.ipynb"]
    assert json.loads((out / "results" / "00_tiny.json").read_text()) == {"a": 1}
    assert {r["status"] for r in json.loads((out / "run.json").read_text())["notebooks"]} == {"ok"}
    src = with_ledger(book.write_sources)(out)
    assert (src / "notebooks" / "00_tiny.ipynb").is_file() and (src / "index.md").is_file()


@pytest.mark.integration
def test_the_book_onto_a_full_disk_names_the_folder_and_leaves_no_torn_page(tmp_path):
    """``book-full-disk``: build/ on a disk that fills up while the book's sources are written."""
    with tmpfs(tmp_path / "disk", "1m") as disk:
        out = build_folder(disk)
        fill(disk)
        with pytest.raises(OSError, match=r"Cannot write the book's sources into .*book_src: No space left on device\. "
                                          r".*free space there, then build the book again"):
            with_ledger(book.write_sources)(out)
        written = [p for p in (out / "book_src").rglob("*") if p.is_file()]
        assert not [p for p in written if p.name.startswith(".")], "a temporary file was left behind"
        for page in written:  # whatever was written before the disk filled is whole
            static = book.BOOK_DIR / page.relative_to(out / "book_src")
            if static.is_file():
                assert page.read_bytes() == static.read_bytes()
            elif page.suffix == ".ipynb":
                json.loads(page.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- check: a notebook that cannot be read

UNREADABLE_NOTEBOOKS = [
    ("check-notebook-not-json", "not json {\n"),
    ("check-notebook-empty", ""),
    ("check-notebook-json-not-a-notebook", '{"cells": 3}'),
    ("check-notebook-json-list", "[]"),
    ("check-notebook-missing-metadata", '{"nbformat": 4, "nbformat_minor": 5, "cells": []}'),
    ("check-notebook-not-utf8", "\udcff\udcfe"),
]


@pytest.mark.parametrize(("case", "content"), UNREADABLE_NOTEBOOKS, ids=[c[0] for c in UNREADABLE_NOTEBOOKS])
def test_check_names_a_notebook_it_cannot_read_and_goes_on(case, content, tmp_path, capsys):
    from helpers.workbook import cli

    good = ROOT / "notebooks" / "01_dimensionality_primer.ipynb"
    (tmp_path / good.name).write_bytes(good.read_bytes())
    (tmp_path / "02_broken.ipynb").write_bytes(content.encode("utf-8", "surrogateescape"))
    (tmp_path / "03_after.ipynb").write_text("[]")
    assert cli.main(["check", "--notebooks-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"check: 02_broken\.ipynb: cannot be read as a notebook \(.+\); restore it \(git checkout -- "
                     r"02_broken\.ipynb in its folder\) or remove it", err), err
    assert "check: 03_after.ipynb: cannot be read" in err          # the check went on past it
    assert "01_dimensionality_primer" not in err and "Traceback" not in err


# ---------------------------------------------------------------- a README that is a symbolic link

def test_make_ledger_writes_through_a_readme_that_is_a_link_and_keeps_the_link(tmp_path):
    from helpers.workbook.coverage import README_END, README_START, update_readme

    target = tmp_path / "docs" / "README.md"
    target.parent.mkdir()
    target.write_text(f"# Workbook\n\n{README_START}\nold table\n{README_END}\n\nmore\n", encoding="utf-8")
    link = tmp_path / "README.md"
    link.symlink_to(Path("docs") / "README.md")
    assert update_readme(link) is True
    assert link.is_symlink() and link.resolve() == target.resolve()          # still a link, to the same file
    text = target.read_text(encoding="utf-8")
    assert "old table" not in text and text.startswith("# Workbook") and text.rstrip().endswith("more")
    assert "| source |" in text or "|" in text.split(README_START)[1]       # the coverage table went in


# ---------------------------------------------------------------- the book executes nothing

@pytest.mark.integration
@pytest.mark.parametrize("case", ["book-execution-mode-force", "book-execution-mode-cache"])
def test_the_book_executes_no_notebook_whatever_its_metadata_asks(case, tmp_path):
    from helpers.workbook.book import build_book

    out = build_folder(tmp_path)
    marker = tmp_path / "executed.txt"
    path = out / "notebooks" / "01_more.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.metadata["mystnb"] = {"execution_mode": case.rsplit("-", 1)[1], "execution_timeout": 5}
    nb.cells.append(nbformat.v4.new_code_cell(f"open({str(marker)!r}, 'w').write('ran')", execution_count=2))
    nbformat.write(nb, path)
    build_book(out)
    assert not marker.exists(), "the book executed a notebook"
    chapter = json.loads((out / "book_src" / "notebooks" / "01_more.ipynb").read_text(encoding="utf-8"))
    assert chapter["metadata"]["mystnb"] == {}
    assert json.loads(path.read_text(encoding="utf-8"))["metadata"]["mystnb"]["execution_mode"]  # the input untouched


# ---------------------------------------------------------------- a book that shows this machine's paths

@pytest.mark.integration
def test_the_book_command_fails_when_the_book_shows_a_path_of_this_machine(tmp_path, capsys):
    from helpers.workbook import cli

    out = build_folder(tmp_path)
    path = out / "notebooks" / "01_more.ipynb"
    nb = nbformat.read(path, as_version=4)
    printed = nbformat.v4.new_output("stream", name="stdout", text=f"saved {out.resolve()}/results/01_more.json\n")
    nb.cells.append(nbformat.v4.new_code_cell("print(path)", execution_count=2, outputs=[printed]))
    nbformat.write(nb, path)
    assert cli.main(["book", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "1 page(s) of the book show an absolute path of this machine" in err
    assert "error: the book was built, but shows paths of this machine (listed above)" in err
    assert (out / "book" / "index.html").is_file()               # built, to be looked at, but not passed


# ---------------------------------------------------------------- notebooks that cannot be written

def test_refresh_of_read_only_notebooks_is_refused_before_running_any(tmp_path, capsys):
    from helpers.workbook import cli

    notebook = ROOT / "notebooks" / "01_dimensionality_primer.ipynb"
    with read_only(tmp_path / "ro", [notebook]) as folder:
        start = time.perf_counter()
        assert cli.main(["refresh", "--notebooks-dir", str(folder), notebook.stem]) == 1
        assert time.perf_counter() - start < 5                      # refused, not executed first
        err = capsys.readouterr().err
        assert f"cannot write {folder} (not writable)" in err and "--notebooks-dir" in err
        assert "Traceback" not in err and ".tmp" not in err
        assert (folder / notebook.name).read_bytes() == notebook.read_bytes()


def test_an_atomic_write_into_a_read_only_folder_names_the_file_meant(tmp_path):
    from helpers._io import atomic_open

    with read_only(tmp_path / "ro") as folder:
        with pytest.raises(OSError, match=rf"Read-only file system: '{re.escape(str(folder))}/results\.json'$"):
            with atomic_open(folder / "results.json") as fh:
                fh.write("{}")
