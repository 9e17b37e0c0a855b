"""Every numbered notebook: a title, one literal parameters cell, python3 kernel, clean outputs, run by CI.

Also tests ``normalize``, ``check`` and ``run`` of :mod:`helpers.workbook.run`, and what
``papermill --help-notebook`` shows of every notebook's parameters.
"""

import ast
import json
import re
import shlex
from pathlib import Path

import nbformat
import pytest

from helpers.workbook import cli
from helpers.workbook import run as runner

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no NN_*.ipynb"


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.name)
def path(request):
    return request.param


@pytest.fixture
def nb(path):
    return nbformat.read(path, as_version=4)


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def test_first_cell_is_a_title(nb):
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), "first cell must be a '# ' title"


def literal_assignments(source: str) -> dict:
    """``{name: value}`` of a parameters cell; AssertionError unless every statement assigns a literal."""
    values = {}
    for stmt in ast.parse(source).body:
        code = ast.unparse(stmt)
        is_assignment = isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None
        assert is_assignment, f"not an assignment: {code}"
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        assert len(targets) == 1 and isinstance(targets[0], ast.Name), f"assign one plain name: {code}"
        try:
            values[targets[0].id] = ast.literal_eval(stmt.value)
        except ValueError:
            pytest.fail(f"not a literal (derive it in the setup cell): {code}")
    return values


def test_one_literal_parameters_cell(nb):
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, f"{len(tagged)} cells tagged 'parameters', expected exactly one"
    assert tagged[0].cell_type == "code"
    values = literal_assignments(tagged[0].source)
    assert "results_path" in values and values["results_path"] is None, "needs `results_path = None`"


def test_kernelspec_is_python3(nb):
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


def test_no_errors_stderr_or_injected_cells(nb):
    for i, cell in enumerate(code_cells(nb)):
        assert "injected-parameters" not in cell.metadata.get("tags", []), f"code cell {i}: injected cell"
        for out in cell.outputs:
            assert out.output_type != "error", f"code cell {i}: stored error {out.ename}: {out.evalue}"
            is_stderr = out.output_type == "stream" and out.name == "stderr"
            assert not is_stderr, f"code cell {i}: stored stderr {out.text[:80]!r}"


def test_executed_in_order(nb):
    cells = [c for c in code_cells(nb) if c.source.strip() or c.execution_count is not None]
    assert all(c.execution_count is not None for c in cells), "unexecuted code cells: run `make notebooks`"
    counts = [c.execution_count for c in cells]
    assert counts == list(range(1, len(counts) + 1)), f"execution counts {counts}: run `make notebooks`"


def test_ends_with_what_we_found(nb):
    headings = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert any(re.search(r"^#+ .*What we found", h, re.M) for h in headings)


def make_test_commands() -> list[list[str]]:
    """The commands of the Makefile's ``test`` recipe, variables expanded, each split into words."""
    text = (ROOT / "Makefile").read_text()
    variables = dict(re.findall(r"^([A-Za-z_]+)\s*[:?]?=[ \t]*(.*)$", text, re.M))

    def expand(s: str) -> str:
        return re.sub(r"\$\((\w+)\)", lambda m: expand(variables.get(m.group(1), "")), s)

    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", text, re.M)
    assert recipe, "the Makefile has no `test` target"
    commands = []
    for line in recipe.group(1).splitlines():  # one recipe line may chain commands: a; b && c
        lexer = shlex.shlex(expand(line), posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words: list[str] = []
        for token in lexer:
            if token in (";", "&&", "||", "|", "&"):
                commands.append(words)
                words = []
            else:
                words.append(token)
        commands.append(words)
    return [c for c in commands if c]


def test_executed_by_ci(path):
    """``make test`` runs ``pytest --nbval`` over the notebook, ignoring none; CI runs ``make test``."""
    rel = path.relative_to(ROOT)
    nbval = [words for words in make_test_commands() if "pytest" in words and "--nbval" in words]
    assert nbval, "`make test` runs no `pytest --nbval`"
    for words in nbval:
        covered = any(rel == Path(w) or Path(w) in rel.parents for w in words if not w.startswith("-"))
        ignored = [w for w in words if w.startswith(("--ignore", "--deselect")) or w == "-k"]
        if covered and not ignored:
            break
    else:
        pytest.fail(f"`make test` does not run `pytest --nbval` over {rel} (or ignores/deselects it)")
    assert any(words[-3:] == ["-m", "helpers.workbook", "check"] for words in make_test_commands())
    assert "make test" in (ROOT / ".ci" / "run").read_text(), ".ci/run does not call `make test`"


def papermill_output() -> nbformat.NotebookNode:
    """A small notebook as papermill writes it: run metadata, an injected cell, an odd kernel."""
    cell = nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Title", metadata={"tags": ["papermill-error-cell-tag"]}),
            cell("x = 1", execution_count=1, metadata={"tags": ["parameters"], "papermill": {"duration": 1.0}}),
            cell("# Parameters\nx = 2", metadata={"tags": ["injected-parameters"]}, execution_count=2),
            cell("x", execution_count=3,
                 metadata={"execution": {"iopub.status.idle": "now"}, "ExecuteTime": {}, "scrolled": True}),
        ]
    )
    nb.metadata.update(
        papermill={"parameters": {"x": 2}},
        kernelspec={"name": "conda-env-foo-py", "display_name": "foo", "language": "python"},
        language_info={"name": "python", "version": "3.11.7"},
    )
    return nb


def test_normalize_drops_run_metadata_and_injected_cells():
    nb = papermill_output()
    before = nbformat.writes(nb)
    out = runner.normalize(nb)
    assert nbformat.writes(nb) == before, "normalize must not modify its argument"
    assert "papermill" not in out.metadata
    assert out.metadata["kernelspec"] == {"name": "python3", "display_name": "Python 3", "language": "python"}
    assert out.metadata["language_info"] == {"name": "python"}
    assert [c.source for c in out.cells] == ["x = 1", "x"]
    assert [c.metadata for c in out.cells] == [{"tags": ["parameters"]}, {}]
    assert [c.execution_count for c in out.cells] == [1, 3]  # kept, as nbval needs them
    assert [c.id for c in out.cells] == [nb.cells[1].id, nb.cells[3].id]
    nbformat.validate(out)


def test_normalize_is_idempotent():
    once = runner.normalize(papermill_output())
    assert runner.normalize(once) == once


def test_check_flags_problems(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    nb.metadata["kernelspec"] = dict(runner.KERNELSPEC)
    path = tmp_path / "00_x.ipynb"

    def problems_of(nb):
        nbformat.write(nb, path)
        return runner.problems(path)

    assert problems_of(nb) == ["code cells [0] (indices among all cells) were not executed"]
    nb.cells[0].execution_count = 1
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stderr", text="Warning!")]
    assert any("stderr" in p for p in problems_of(nb))
    nb.cells[0].outputs = [nbformat.v4.new_output("error", ename="ValueError", evalue="bad", traceback=[])]
    assert any("error output" in p for p in problems_of(nb))
    nb.cells[0].outputs = []
    assert problems_of(papermill_output())  # out of order, injected cell, not normalized
    assert problems_of(nb) == []
    assert cli.main(["check", "--notebooks-dir", str(tmp_path)]) == 0
    assert cli.main(["check", "--notebooks-dir", str(tmp_path / "empty")]) == 1


# Reader-facing text speaks of the sources and the evidence, never of how the work was organised.
PROCESS_TALK = re.compile(
    r"\b(?:the|this|that|an?|planning) issue(?:'s)?\b|\bissue \d+|\bwhile planning\b|\bplanning\b|\bticket\b"
    r"|NOTEBOOK_PRACTICES|STYLE\.md",
    re.IGNORECASE,
)


def test_notebook_text_speaks_of_sources_and_evidence(nb):
    for i, cell in enumerate(nb.cells):
        texts = [cell.source]
        for out in cell.get("outputs", []):
            is_stream = out.get("output_type") == "stream"
            texts.append(out.get("text", "") if is_stream else out.get("data", {}).get("text/plain", ""))
        for text in texts:
            hit = PROCESS_TALK.search(text if isinstance(text, str) else "".join(text))
            assert not hit, f"cell {i}: {hit.group(0)!r} — say it in terms of the sources and the evidence"


def test_readme_and_docs_speak_of_sources_and_evidence():
    files = [ROOT / "README.md", ROOT / "data" / "README.md", ROOT / "benchmarks" / "README.md",
             *sorted((ROOT / "helpers").rglob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]
    hits = [f"{p.relative_to(ROOT)}:{n}: {m.group(0)}" for p in files
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            for m in [PROCESS_TALK.search(line)] if m]
    assert not hits, hits


def test_papermill_help_notebook_gives_every_parameter_a_type_and_help(path, nb, caplog):
    """``papermill --help-notebook`` lists every parameter with a type and its comment, parsing every line.

    A parameter without an annotation is listed as "Unknown type" (for ``results_path = None``
    write ``results_path: str = None``); a line papermill's pattern cannot read (e.g. an
    annotation ``str | None``) is dropped with an "Unable to parse" warning.
    """
    papermill = pytest.importorskip("papermill")
    from click.testing import CliRunner
    from papermill.cli import papermill as papermill_cli

    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])][0]
    with caplog.at_level("WARNING"):
        found = papermill.inspect_notebook(str(path))
        shown = CliRunner().invoke(papermill_cli, ["--help-notebook", str(path)])
    assert [r.getMessage() for r in caplog.records if "Unable to parse" in r.getMessage()] == []
    assert shown.exit_code == 0 and "Unable to parse" not in shown.output, shown.output
    assert list(found) == list(literal_assignments(tagged.source)), "papermill must see every assignment"
    untyped = [name for name, p in found.items() if p["inferred_type_name"] in ("None", "", None)]
    assert untyped == [], f"parameters without a type annotation: {untyped}"
    assert "Unknown type" not in shown.output
    no_help = [name for name, p in found.items() if not p["help"].strip()]
    assert no_help == [], f"parameters without a comment (their help text): {no_help}"
    for name, p in found.items():
        assert f"  {name}: {p['inferred_type_name']} (default {p['default']})" in shown.output
        assert " ".join(p["help"].split()) in " ".join(shown.output.split())


def tiny_notebook(folder: Path, name: str, source: str, parameters: str | None = None) -> Path:
    cells = [nbformat.v4.new_markdown_cell(f"# {name}")]
    if parameters is not None:
        cells.append(nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]}))
    cells.append(nbformat.v4.new_code_cell(source))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(runner.KERNELSPEC)
    path = folder / name
    nbformat.write(nb, path)
    return path


@pytest.mark.integration
def test_run_executes_two_at_a_time_and_prints_one_line_each_in_name_order(tmp_path, capfd):
    folder, out = tmp_path / "nb", tmp_path / "build"
    folder.mkdir()
    tiny_notebook(folder, "00_ok.ipynb", "import json\njson.dump({'answer': 42}, open(results_path, 'w'))",
                  parameters="results_path: str = None  # where the results go")
    tiny_notebook(folder, "01_fails.ipynb", "raise RuntimeError('fails on purpose')")
    tiny_notebook(folder, "02_no_results.ipynb", "print('no results file')",
                  parameters="results_path: str = None  # where the results go")
    code = cli.main(["run", "--notebooks-dir", str(folder), "--out", str(out), "--no-progress"])
    stdout, stderr = capfd.readouterr()
    assert code == 1
    lines = stdout.splitlines()
    assert [re.sub(r"\s+\d+\.\d s  ", " | ", line) for line in lines] == [
        "00_ok.ipynb | ok",
        "01_fails.ipynb | FAILED RuntimeError in cell 1 (In [1]): fails on purpose",
        "02_no_results.ipynb | ok (no results JSON written)",
        f"book: open {out.resolve() / 'book' / 'index.html'}",
    ]
    failure = "01_fails.ipynb: FAILED RuntimeError in cell 1 (In [1]): fails on purpose"
    assert stderr == f"\n1 of 3 notebook(s) failed:\n  {failure}\n"
    assert json.loads((out / "results" / "00_ok.json").read_text()) == {"answer": 42}
    assert sorted(p.name for p in (out / "results").iterdir()) == ["00_ok.json"]
    recorded = json.loads((out / "run.json").read_text())["notebooks"]
    assert [(r["name"], r["status"][:6]) for r in recorded] == [
        ("00_ok.ipynb", "ok"), ("01_fails.ipynb", "FAILED"), ("02_no_results.ipynb", "ok (no")]
    chapters = sorted(p.name for p in (out / "book" / "notebooks").glob("*.html"))
    assert chapters == ["00_ok.html", "01_fails.html", "02_no_results.html"]
    assert "fails on purpose" in (out / "book" / "notebooks" / "01_fails.html").read_text()  # where it broke
