"""The one command line ``python -m helpers.workbook COMMAND``: its parser, each command's dispatch, the entry points.

The commands' own behaviour is tested with their modules (:mod:`helpers.workbook.run` in
``tests/notebooks/test_notebook_hygiene.py`` and ``test_run.py``, the sweep in ``test_sweep.py``
and ``test_bad_inputs_sweep.py``, the book in ``test_book.py``); here each command line must
reach its function with the options it was given, and return that function's exit status.
"""

import importlib
import json
import os
import re
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import nbformat
import pytest

from helpers.workbook import cli, sweep
from helpers.workbook import run as runner

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["run", "refresh", "check", "book", "sweep", "study", "coverage", "readme", "transcriptions"]
# each command's arguments, in the order its --help lists them (positional ones first)
OPTIONS = {
    "run": ["-h", "--notebooks-dir", "--out", "--only", "--jobs", "--no-progress", "--no-book"],
    "refresh": ["NB", "-h", "--notebooks-dir"],
    "check": ["-h", "--notebooks-dir"],
    "book": ["-h", "--out", "--strict"],
    "sweep": ["notebook", "-h", "-p", "--grid", "--jobs", "--out", "--retry-failed", "--dask", "--timeout",
              "--max-runs"],
    "study": ["STUDY_COMMAND", "-h"],
    "coverage": ["-h"],
    "readme": ["-h"],
    "transcriptions": ["-h", "--sources", "--ledger", "--required"],
}


def python_m(*words, timeout=120):
    """``python -m helpers.workbook WORDS`` in a subprocess that imports this checkout's package."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "helpers.workbook", *words], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


def test_the_commands_are_the_nine():
    assert list(cli.COMMANDS) == COMMANDS
    assert all(len(line) < 100 and "\n" not in line for line in cli.COMMANDS.values())


def test_help_lists_every_command_with_its_line():
    done = python_m("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m helpers.workbook [-h] COMMAND ...")
    text = " ".join(done.stdout.split())  # argparse wraps long help lines
    listed = re.findall(r"^    (\w+)(?: |$)", done.stdout, flags=re.M)   # a long name stands on its own line
    assert listed == COMMANDS
    for name, line in cli.COMMANDS.items():
        assert f"{name} {line}" in text


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_help_lists_its_options(name, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main([name, "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m helpers.workbook {name} [-h]")
    listed = [line.split()[0].rstrip(",") for line in re.findall(r"^  (\S.*)$", out, flags=re.M)]
    assert listed == OPTIONS[name]
    assert " ".join(cli.COMMANDS[name].split()) in " ".join(out.split())


@pytest.mark.integration
def test_a_command_s_help_in_a_subprocess():
    """The real entry point, once (every command's help is checked in process above): no stderr."""
    name = "sweep"
    done = python_m(name, "--help")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith(f"usage: python -m helpers.workbook {name} [-h]")
    listed = [line.split()[0].rstrip(",") for line in re.findall(r"^  (\S.*)$", done.stdout, flags=re.M)]
    assert listed == OPTIONS[name]


@pytest.mark.parametrize("argv, words", [
    ([], r"the following arguments are required: COMMAND"),
    (["ran"], r"argument COMMAND: invalid choice: 'ran' \(choose from '?run'?, '?refresh'?"),
    (["sweep", "nb.ipynb", "-p", "seed", "0"], r"the following arguments are required: --out"),
    (["run", "--jobs", "two"], r"argument --jobs: invalid int value: 'two'"),
    (["check", "extra"], r"unrecognized arguments: extra"),
])
def test_a_bad_command_line_exits_2_with_the_usage(argv, words, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith("usage: python -m helpers.workbook") and re.search(words, err), err


# --------------------------------------------------------------------------------------
# Each command reaches its function with its options, and returns its exit status


def record_calls(monkeypatch, module, name, status):
    calls = []

    def fake(*args, **kwargs):
        calls.append((args, kwargs))
        return status

    monkeypatch.setattr(module, name, fake)
    return calls


def test_run_passes_every_option(monkeypatch, tmp_path):
    calls = record_calls(monkeypatch, runner, "run_notebooks", 7)
    argv = ["run", "--notebooks-dir", str(tmp_path), "--out", "o", "--only", "02", "03_b", "--jobs", "3",
            "--no-progress", "--no-book"]
    assert cli.main(argv) == 7
    assert calls == [((Path("o"), ["02", "03_b"], tmp_path), {"jobs": 3, "progress": False, "book": False})]


def test_run_defaults(monkeypatch):
    calls = record_calls(monkeypatch, runner, "run_notebooks", 0)
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    assert cli.main(["run"]) == 0
    assert calls == [((ROOT / "build", None, ROOT / "notebooks"), {"jobs": 2, "progress": True, "book": True})]
    monkeypatch.setenv("TQDM_DISABLE", "1")   # as `make run` reads it: the caller asks for no bar
    assert cli.main(["run"]) == 0 and calls[-1][1]["progress"] is False
    assert runner.DEFAULT_NOTEBOOKS_DIR == ROOT / "notebooks"


def test_refresh_and_check_pass_their_notebooks(monkeypatch, tmp_path):
    refreshed = record_calls(monkeypatch, runner, "refresh_notebooks", 1)
    checked = record_calls(monkeypatch, runner, "check_notebooks", 0)
    assert cli.main(["refresh", "04", "notebooks/05_cholesky_svm.ipynb"]) == 1
    assert cli.main(["refresh", "--notebooks-dir", str(tmp_path)]) == 1
    assert refreshed == [((["04", "notebooks/05_cholesky_svm.ipynb"], ROOT / "notebooks"), {}),
                         (([], tmp_path), {})]
    assert cli.main(["check"]) == 0 and cli.main(["check", "--notebooks-dir", str(tmp_path)]) == 0
    assert checked == [((ROOT / "notebooks",), {}), ((tmp_path,), {})]


def test_book_prints_where_to_open_it_or_why_not(monkeypatch, tmp_path, capsys):
    from helpers.workbook import book

    index = tmp_path / "book" / "index.html"
    calls = []
    built = book.BuiltBook(index, {})
    monkeypatch.setattr(book, "build_book", lambda out, strict=False: calls.append((out, strict)) or built)
    assert cli.main(["book", "--out", str(tmp_path), "--strict"]) == 0
    assert cli.main(["book"]) == 0
    assert calls == [(tmp_path, True), (Path("build"), False)]
    assert re.fullmatch(rf"book: {re.escape(str(index))} \(\d+\.\d s\)\n", capsys.readouterr().out.splitlines()[0]
                        + "\n")

    def fails(out, strict=False):
        raise FileNotFoundError(f"no executed notebook in {out}/notebooks: run `python -m helpers.workbook run` first")

    monkeypatch.setattr(book, "build_book", fails)
    assert cli.main(["book", "--out", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (f"error: no executed notebook in {tmp_path}/notebooks: run "
                                       "`python -m helpers.workbook run` first\n")


def test_sweep_runs_its_grid_and_reports_it(monkeypatch, tmp_path, capsys):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("seed = 0\nresults_path = None", metadata={"tags": ["parameters"]})])
    nb.metadata["kernelspec"] = dict(runner.KERNELSPEC)
    nbformat.write(nb, tmp_path / "tiny.ipynb")
    ran = []

    def fake_run(notebook, out, params, timeout=None, code=""):  # what a run leaves behind; seed 2 fails
        rid = sweep.run_id(params, code)
        ok = params["seed"] != 2
        if ok:
            Path(out, "runs", f"{rid}.json").write_text(json.dumps({"score": params["seed"] / 2}))
        record = {"run_id": rid, "params": params, "status": "ok" if ok else "cell-error", "error": None}
        Path(out, "runs", f"{rid}.status.json").write_text(json.dumps(record))
        ran.append((params, timeout))
        return record

    monkeypatch.setattr(sweep.runner, "execute_run", fake_run)
    out = tmp_path / "out"
    argv = ["sweep", str(tmp_path / "tiny.ipynb"), "-p", "seed", "0:2", "--out", str(out), "--timeout", "30"]
    assert cli.main(argv) == 0
    assert ran == [({"seed": 0}, 30.0), ({"seed": 1}, 30.0)]
    assert capsys.readouterr().out == f"2 runs of this grid in {out}: 2 ok, 0 failed\n"
    assert cli.main([*argv[:4], "0:3", *argv[5:]]) == 1         # seed 2 fails; 0 and 1 are not run again
    assert ran[2:] == [({"seed": 2}, 30.0)]
    assert capsys.readouterr().out == f"3 runs of this grid in {out}: 2 ok, 1 failed\n"
    table = sweep.load(out)
    assert sorted(table.loc[table["key"] == "score", "value"]) == [0.0, 0.5]


@pytest.mark.parametrize("name", ["coverage", "readme"])
def test_coverage_and_readme_call_the_coverage_module(name, monkeypatch):
    calls = []
    fake = types.ModuleType("helpers.workbook.coverage")
    fake.main = lambda argv: calls.append(argv) or 3
    monkeypatch.setitem(sys.modules, "helpers.workbook.coverage", fake)
    assert cli.main([name]) == 3
    assert calls == [[name]]


@pytest.mark.parametrize("name", ["coverage", "readme"])
def test_coverage_and_readme_run_the_coverage_module(name, monkeypatch):
    from helpers.workbook import coverage

    calls = record_calls(monkeypatch, coverage, "main", 0)
    assert cli.main([name]) == 0
    assert calls == [(([name],), {})]


def test_coverage_prints_the_table_of_the_committed_notebooks(capsys):
    assert cli.main(["coverage"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| source | rows |") and lines[1].startswith("|---|")
    assert len(lines) >= 7  # header, rule and one row per source at least


# --------------------------------------------------------------------------------------
# Entry points: python -m, the console script, the Makefile; the old ones are gone


def test_python_m_module_is_tiny_and_safe_to_import(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["worker"])
    module = importlib.import_module("helpers.workbook.__main__")  # as a worker process would: runs nothing
    assert module.console is cli.console
    source = Path(module.__file__).read_text()
    assert 'if __name__ == "__main__":' in source and len(source.splitlines()) < 15


def test_the_console_script_is_declared_and_resolves_to_main(monkeypatch, capsys):
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {cli.CONSOLE_SCRIPT: "helpers.workbook.cli:console"}   # main() in make's environment
    module, _, name = scripts[cli.CONSOLE_SCRIPT].partition(":")
    assert getattr(importlib.import_module(module), name) is cli.console
    monkeypatch.setattr(sys, "argv", [f"/somewhere/bin/{cli.CONSOLE_SCRIPT}", "--help"])
    with pytest.raises(SystemExit):
        cli.main()
    assert capsys.readouterr().out.startswith(f"usage: {cli.CONSOLE_SCRIPT} [-h] COMMAND ...")


def make_recipe(target: str) -> str:
    text = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", text, re.M)
    assert found, f"the Makefile has no `{target}` target"
    return found.group(1)


@pytest.mark.parametrize("target, command", [
    ("run", "run --out build"), ("book", "book --out build"), ("test", "check"), ("notebooks", "refresh $(NB)"),
    ("ledger", "readme"),
])
def test_the_makefile_calls_the_command_line(target, command):
    assert f"$(PY) -m helpers.workbook {command}" in make_recipe(target)


def test_the_old_entry_points_are_gone():
    text = (ROOT / "Makefile").read_text()
    assert "scripts/" not in text and "helpers.workbook.book" not in text and "helpers.workbook.sweep" not in text
    assert not (ROOT / "scripts").exists()
    assert importlib.util.find_spec("helpers.workbook.sweep.__main__") is None
    from helpers.workbook import book

    assert not hasattr(book, "main")


def test_sweep_max_runs_default_is_the_sweeps_limit():
    """The parser's --max-runs default (written out, so that the CLI imports no sweep module) is the sweep's."""
    args = cli.build_parser().parse_args(["sweep", "nb.ipynb", "-p", "seed", "0", "--out", "o"])
    assert args.max_runs == sweep.DEFAULT_MAX_RUNS and args.timeout is None
