"""The command lines set the environment the Makefile exports, so that `make X` and `python -m ... X` agree."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers import _environment as E
from helpers.workbook import cli


def test_the_settings_are_the_makefiles_exports():
    makefile = (E.__file__.rsplit("helpers", 1)[0] + "Makefile")
    exported = {}
    for line in open(makefile, encoding="utf-8"):
        if line.startswith("export ") and ":=" in line:
            name, value = line[len("export "):].split(":=")
            exported[name.strip()] = value.strip()
    assert exported == E.SETTINGS


def test_a_command_line_process_runs_with_one_blas_thread_and_no_kernel_bars():
    code = ("import os; from helpers._environment import reproducible_environment; reproducible_environment(); "
            "from threadpoolctl import threadpool_info; "
            "print(os.environ['OMP_NUM_THREADS'], os.environ['PYTHONHASHSEED'], os.environ['TQDM_DISABLE'], "
            "max([p['num_threads'] for p in threadpool_info()] or [1]))")
    env = {**os.environ, "OMP_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "2", "TQDM_DISABLE": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == ["1", "0", "1", "1"]


@pytest.mark.parametrize("module, caller, hidden", [(cli, "1", True), (cli, "0", False), (cli, "true", True),
                                                     (cli, "", False)])
def test_the_callers_tqdm_disable_still_decides_the_console_bar(module, caller, hidden, monkeypatch):
    seen = {}
    monkeypatch.setenv("TQDM_DISABLE", caller)
    monkeypatch.setattr(module, "reproducible_environment", lambda: os.environ.update(TQDM_DISABLE="1"))
    monkeypatch.setattr(module, "main", lambda argv, hide_progress: seen.setdefault("hide", hide_progress) and 0)
    module.console([])
    assert seen["hide"] is hidden
    assert os.environ["TQDM_DISABLE"] == "1"      # the kernels and workers it starts draw no bars


def test_a_command_lines_own_bar_follows_the_caller_not_the_value_it_sets_for_its_kernels(monkeypatch, capsys):
    from helpers._io import progress_bar

    for name, value in E.SETTINGS.items():   # put back after the test, whatever reproducible_environment sets
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("TQDM_DISABLE")
    monkeypatch.setattr(E, "_console", {})
    E.reproducible_environment()
    assert os.environ["TQDM_DISABLE"] == "1"                  # for the kernels and workers it starts
    list(progress_bar(range(3), progress=True, desc="folds"))
    assert "folds" in capsys.readouterr().err                 # the caller set none: its own bar shows
    monkeypatch.setattr(E, "_console", {"caller": "1"})
    list(progress_bar(range(3), progress=True, desc="folds"))
    assert capsys.readouterr().err == ""                      # the caller's TQDM_DISABLE=1 hides it
