"""Every numbered notebook: a title, one literal parameters cell, python3 kernel, clean outputs, run by CI."""

import ast
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
run_notebooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_notebooks)


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no NN_*.ipynb"


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.name)
def nb(request):
    return nbformat.read(request.param, as_version=4)


def test_first_cell_is_a_title(nb):
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")


def test_one_literal_parameters_cell(nb):
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1 and cells[0].cell_type == "code"
    names = {}
    for stmt in ast.parse(cells[0].source).body:
        assert isinstance(stmt, (ast.Assign, ast.AnnAssign)), f"not an assignment: {ast.unparse(stmt)}"
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        names[target.id] = ast.literal_eval(stmt.value)  # raises unless a literal
    assert "results_path" in names and names["results_path"] is None


def test_kernelspec_and_clean_outputs(nb):
    assert nb.metadata["kernelspec"]["name"] == "python3"
    counts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert "injected-parameters" not in cell.metadata.get("tags", [])
        for out in cell.outputs:
            assert out.output_type != "error", f"stored error: {out.get('ename')}"
            assert not (out.output_type == "stream" and out.name == "stderr"), f"stored stderr: {out.text[:80]}"
        if cell.source.strip():
            assert cell.execution_count is not None, f"unexecuted cell: {cell.source[:60]}"
            counts.append(cell.execution_count)
    assert counts == list(range(1, len(counts) + 1))


def test_ends_with_what_we_found(nb):
    headings = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert any(re.search(r"^#+ .*What we found", h, re.M) for h in headings)


def test_ci_executes_every_notebook():
    makefile = (ROOT / "Makefile").read_text()
    test_recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "--nbval" in makefile and re.search(r"pytest .*\$\(NBVAL_FLAGS\) notebooks\b", test_recipe)
    assert "run_notebooks.py check" in test_recipe
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci


def test_normalize_drops_run_metadata():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["parameters"], "papermill": {"duration": 1.0}}),
            nbformat.v4.new_code_cell("x = 2", metadata={"tags": ["injected-parameters"]}),
            nbformat.v4.new_code_cell("x", metadata={"execution": {"iopub.status.idle": "now"}}),
        ]
    )
    nb.metadata["papermill"] = {"parameters": {"x": 2}}
    nb.metadata["kernelspec"] = {"name": "conda-env-foo-py", "display_name": "foo", "language": "python"}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    out = run_notebooks.normalize(nb)
    assert "papermill" not in out.metadata
    assert out.metadata["kernelspec"]["name"] == "python3"
    assert "version" not in out.metadata["language_info"]
    assert [c.source for c in out.cells] == ["x = 1", "x"]
    assert all("papermill" not in c.metadata and "execution" not in c.metadata for c in out.cells)
    assert run_notebooks.normalize(out) == out  # idempotent


def test_check_flags_problems(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    nb.metadata["kernelspec"] = dict(run_notebooks.KERNELSPEC)
    path = tmp_path / "00_x.ipynb"
    nbformat.write(nb, path)
    assert any("not executed" in p for p in run_notebooks.problems(path))
    nb.cells[0].execution_count = 1
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stderr", text="Warning!")]
    nbformat.write(nb, path)
    assert any("stderr" in p for p in run_notebooks.problems(path))
    nb.cells[0].outputs = []
    nbformat.write(nb, path)
    assert run_notebooks.problems(path) == []
    assert run_notebooks.main(["--notebooks-dir", str(tmp_path), "check"]) == 0
    assert run_notebooks.main(["--notebooks-dir", str(tmp_path / "empty"), "check"]) == 1
