"""``helpers.workbook.run`` as a module: choosing notebooks, the run record, and what run/refresh/check refuse.

Executing notebooks (``run`` on a small folder, ``normalize`` and ``check`` on papermill's
output) is tested in ``tests/notebooks/test_notebook_hygiene.py``; the command lines' mistakes
in the catalogue of ``test_bad_inputs_sweep.py``.
"""

import json

import nbformat
import pytest

from helpers.workbook import run as runner


def notebook(folder, name, executed=True):
    cell = nbformat.v4.new_code_cell("1 + 1", execution_count=1 if executed else None)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {name}"), cell])
    nb.metadata["kernelspec"] = dict(runner.KERNELSPEC)
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / name)
    return folder / name


@pytest.fixture
def folder(tmp_path):
    for name in ("03_b.ipynb", "02_a.ipynb", "10_c.ipynb", "scratch.ipynb", "4_short.ipynb"):
        notebook(tmp_path / "nb", name)
    return tmp_path / "nb"


def test_numbered_notebooks_are_the_nn_files_in_name_order(folder):
    assert [p.name for p in runner.numbered_notebooks(folder)] == ["02_a.ipynb", "03_b.ipynb", "10_c.ipynb"]
    assert runner.numbered_notebooks(folder / "nowhere") == []


@pytest.mark.parametrize("only, expected", [
    (None, ["02_a.ipynb", "03_b.ipynb", "10_c.ipynb"]),
    (["03"], ["03_b.ipynb"]),
    (["02_a", "10_c.ipynb"], ["02_a.ipynb", "10_c.ipynb"]),
    (["0"], []),                 # a number is a whole prefix, not its first digit
    (["a"], []),
])
def test_select_by_name_stem_or_number(folder, only, expected):
    assert [p.name for p in runner.select(runner.numbered_notebooks(folder), only)] == expected


def test_resolve_takes_paths_names_and_stems(folder, monkeypatch):
    monkeypatch.chdir(folder.parent)
    assert runner.resolve(["02_a", "03_b.ipynb", "nb/10_c.ipynb"], folder) == [
        folder / "02_a.ipynb", folder / "03_b.ipynb", folder / "10_c.ipynb"]
    with pytest.raises(ValueError, match=r"no such notebook: 99, nope; give a path, or a name or stem in .*nb "
                                         r"\(there: 02_a\.ipynb, 03_b\.ipynb, 10_c\.ipynb\)"):
        runner.resolve(["99", "02_a", "nope"], folder)


def test_record_run_keeps_the_records_of_notebooks_not_run_this_time(tmp_path):
    first = [{"name": "02_a.ipynb", "seconds": 1.5, "status": "ok", "extra": "dropped"},
             {"name": "03_b.ipynb", "seconds": 2.0, "status": "FAILED ValueError: bad"}]
    path = runner.record_run(tmp_path, first)
    runner.record_run(tmp_path, [{"name": "03_b.ipynb", "seconds": 2.5, "status": "ok"}])
    assert json.loads(path.read_text()) == {"notebooks": [
        {"name": "02_a.ipynb", "seconds": 1.5, "status": "ok"},
        {"name": "03_b.ipynb", "seconds": 2.5, "status": "ok"}]}
    path.write_text("{ torn")                        # an unreadable record: this run's records only
    runner.record_run(tmp_path, [{"name": "10_c.ipynb", "seconds": 0.5, "status": "ok"}])
    assert [r["name"] for r in json.loads(path.read_text())["notebooks"]] == ["10_c.ipynb"]


def test_run_refuses_to_write_over_the_committed_notebooks(tmp_path, capsys):
    committed = notebook(tmp_path / "notebooks", "02_a.ipynb").parent
    assert runner.run_notebooks(tmp_path, folder=committed) == 2    # OUT/notebooks would be the committed folder
    assert capsys.readouterr().err == f"refusing to write over the committed notebooks in {committed}\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["02_a.ipynb", "notebooks"]


def test_run_with_no_numbered_notebook_fails_and_makes_nothing(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert runner.run_notebooks(tmp_path / "out", folder=tmp_path / "empty") == 1
    assert capsys.readouterr().err == f"no notebooks to run in {tmp_path / 'empty'}\n"
    assert not (tmp_path / "out").exists()


def test_refresh_with_an_unknown_name_or_an_empty_folder(folder, tmp_path, capsys):
    before = {p: p.read_bytes() for p in folder.iterdir()}
    assert runner.refresh_notebooks(["nope"], folder) == 2
    assert capsys.readouterr().err.startswith("error: no such notebook: nope;")
    (tmp_path / "empty").mkdir()
    assert runner.refresh_notebooks([], tmp_path / "empty") == 1
    assert capsys.readouterr().err == f"no numbered notebooks in {tmp_path / 'empty'}\n"
    assert {p: p.read_bytes() for p in folder.iterdir()} == before      # nothing touched


def test_check_names_each_problem_and_the_fix(folder, capsys):
    assert runner.check_notebooks(folder) == 0
    assert capsys.readouterr().out == "checked 3 notebooks\n"
    notebook(folder, "03_b.ipynb", executed=False)
    assert runner.check_notebooks(folder) == 1
    assert capsys.readouterr().err.splitlines() == [
        "check: 03_b.ipynb: code cells [1] (indices among all cells) were not executed",
        "fix the cause, then: make notebooks NB=notebooks/<name>.ipynb",
    ]
