"""The sweep runner on a tiny notebook: parallel runs, failures, resume, validation, Dask.

Tests that execute notebooks (every sweep, Dask, Ctrl-C and kill -9 mid-sweep) are marked
``integration``: ``make test`` runs them, ``make unit`` does not.
"""

import errno
import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
import time

import nbformat
import pandas as pd
import pytest

from helpers.workbook import cli, sweep
from tests.support import SLOW_BODY, processes_gone

TINY = [
    nbformat.v4.new_markdown_cell("# tiny sweep notebook"),
    nbformat.v4.new_code_cell(
        'seed = 0\nmethod = "a"\nscale = 1.0\nresults_path = None', metadata={"tags": ["parameters"]}
    ),
    nbformat.v4.new_code_cell(
        "import json\n"
        "if seed == 3:\n"
        '    raise RuntimeError("seed 3 fails on purpose")\n'
        'results = {"score": seed * scale, "detail": {"method": method}}\n'
        "if results_path:\n"
        '    json.dump(results, open(results_path, "w"))'
    ),
]


@pytest.fixture
def notebook(tmp_path):
    nb = nbformat.v4.new_notebook(cells=TINY)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    return path


def test_parse_values_and_grid():
    assert sweep.parse_values(["0:6:2", "10"]) == [0, 2, 4, 10]
    assert sweep.parse_values(["5:2:-1"]) == [5, 4, 3]
    assert sweep.parse_values(["cholesky", "0.5", "True", "None"]) == ["cholesky", 0.5, True, None]
    assert sweep.expand_grid({"a": [1, 2, 3], "b": ["x", "y"]}) == [
        {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"},
        {"a": 2, "b": "y"}, {"a": 3, "b": "x"}, {"a": 3, "b": "y"},
    ]
    with pytest.raises(ValueError, match=r"Range '3:3' is empty \(start:stop is half-open"):
        sweep.parse_values(["3:3"])
    with pytest.raises(ValueError, match=r"Range '0:4:0' has step 0"):
        sweep.parse_values(["0:4:0"])
    with pytest.raises(ValueError, match=r"Parameter 'b' has no values"):
        sweep.expand_grid({"a": [1], "b": []})


def test_run_id_is_the_hash_of_the_sorted_parameters():
    expected = hashlib.sha256(b'{"method": "zca", "seed": 1}').hexdigest()[:12]
    assert sweep.run_id({"seed": 1, "method": "zca"}) == sweep.run_id({"method": "zca", "seed": 1}) == expected
    assert sweep.run_id({"seed": 1}) != sweep.run_id({"seed": 2})


@pytest.mark.integration
def test_sweep_records_failures_and_resumes(notebook, tmp_path):
    out = tmp_path / "out"
    table = sweep.run_sweep(notebook, {"seed": [0, 1, 2, 3], "method": ["a", "b"]}, out, jobs=2, progress=False)
    runs = table.drop_duplicates("run_id").set_index("run_id")
    assert len(runs) == 8
    assert (runs["status"] == "cell-error").sum() == 2  # seed 3 with both methods
    assert set(runs.loc[runs["status"] == "cell-error", "seed"]) == {3}
    assert "seed 3 fails on purpose" in runs.loc[runs["status"] == "cell-error", "error"].iloc[0]
    scores = table[table["key"] == "score"].astype({"value": float})
    assert sorted(scores["value"]) == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]
    assert set(table.loc[table["key"] == "detail.method", "value"]) == {"a", "b"}
    # the CSV on disk is the same table
    on_disk = pd.read_csv(out / "results.csv")
    assert len(on_disk) == len(table)

    # rerunning does no work: no run notebook is rewritten
    mtimes = {p: p.stat().st_mtime_ns for p in (out / "runs").glob("*.ipynb")}
    again = sweep.run_sweep(notebook, {"seed": [0, 1, 2, 3], "method": ["a", "b"]}, out, jobs=2, progress=False)
    assert {p: p.stat().st_mtime_ns for p in (out / "runs").glob("*.ipynb")} == mtimes
    assert len(again) == len(table)

    # --retry-failed runs the failed ones again (and they fail again, deterministically)
    retried = sweep.run_sweep(notebook, {"seed": [3], "method": ["a"]}, out, retry_failed=True, progress=False)
    assert (retried.drop_duplicates("run_id")["status"] == "cell-error").sum() == 2


@pytest.mark.integration
def test_interrupted_sweep_loses_nothing(notebook, tmp_path):
    out = tmp_path / "out"
    sweep.run_sweep(notebook, {"seed": [0, 1]}, out, progress=False)
    # a corrupt status file (status files are written atomically, so something else broke it) and a missing one
    torn = out / "runs" / f"{sweep.run_id({'seed': 1}, sweep.code_sha(notebook))}.status.json"
    torn.write_text("{ torn")
    with pytest.warns(sweep.CorruptRunFileWarning, match=rf"{torn.name} cannot be read .*--retry-failed"):
        table = sweep.run_sweep(notebook, {"seed": [0, 1, 2]}, out, progress=False)
    runs = table.drop_duplicates("run_id").set_index("seed")   # the seed comes back from the run's notebook
    assert sorted(runs.index) == [0, 1, 2]
    assert runs["status"].to_dict() == {0: "ok", 1: "corrupt-file", 2: "ok"}
    table = sweep.run_sweep(notebook, {"seed": [0, 1, 2]}, out, retry_failed=True, progress=False)
    runs = table.drop_duplicates("run_id")
    assert sorted(runs["seed"]) == [0, 1, 2] and (runs["status"] == "ok").all()


@pytest.mark.parametrize(
    "grid, error, message",
    [
        ({"sed": [1]}, ValueError,
         r"Unknown parameter 'sed' for tiny.ipynb; its parameters are method, results_path, scale, seed"),
        ({"seed": ["x"]}, TypeError, r"Parameter 'seed' of tiny.ipynb takes int values \(default 0\); got 'x' "
                                     r"\(str\) \(it could not be read as a Python literal"),
        ({"seed": []}, ValueError, r"Parameter 'seed' has no values"),
        ({"results_path": ["/tmp/x"]}, ValueError, r"results_path is set by the sweep"),
    ],
)
def test_bad_grids_fail_before_any_run(notebook, tmp_path, grid, error, message):
    with pytest.raises(error, match=message):
        sweep.run_sweep(notebook, grid, tmp_path / "out", progress=False)
    assert not (tmp_path / "out" / "runs").exists() or not any((tmp_path / "out" / "runs").iterdir())


def test_int_accepted_for_float_parameter_bool_is_not(notebook):
    declared = sweep.validate_grid(notebook, {"scale": [2, 0.5], "seed": [1]})
    assert {name: p["default"] for name, p in declared.items()} == {
        "seed": "0", "method": '"a"', "scale": "1.0", "results_path": "None"}
    with pytest.raises(TypeError, match=r"Parameter 'scale' of tiny.ipynb takes float values \(default 1.0\); "
                                        r"got True \(bool\)"):
        sweep.validate_grid(notebook, {"scale": [True]})


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_output_is_reported(notebook, tmp_path):  # pragma: no cover - CI runs as root
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IREAD | stat.S_IEXEC)
    with pytest.raises(PermissionError, match=r"Output folder .*locked/out is not writable: .*Choose another --out"):
        sweep.run_sweep(notebook, {"seed": [0]}, locked / "out", progress=False)
    assert not (locked / "out").exists()


def test_output_under_a_file_is_reported(notebook, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(NotADirectoryError, match=r"Output folder .*file/out cannot be made: .*file is a file"):
        sweep.run_sweep(notebook, {"seed": [0]}, blocker / "out", progress=False)
    with pytest.raises(NotADirectoryError, match=r"Output folder .*file is a file, not a folder. Choose another"):
        sweep.run_sweep(notebook, {"seed": [0]}, blocker, progress=False)


@pytest.mark.integration
def test_cli_exit_codes(notebook, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["sweep", str(notebook), "-p", "seed", "0:2", "--out", str(out)]) == 0
    assert "2 runs of this grid" in capsys.readouterr().out
    assert cli.main(["sweep", str(notebook), "-p", "seed", "3", "--out", str(out)]) == 1
    assert cli.main(["sweep", str(notebook), "-p", "nope", "1", "--out", str(out)]) == 2
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"seed": [0, 1], "method": ["b"]}))
    assert cli.main(["sweep", str(notebook), "--grid", str(grid), "--out", str(out)]) == 0


@pytest.mark.integration
def test_dask_local_cluster(notebook, tmp_path):
    pytest.importorskip("distributed")
    table = sweep.run_sweep(notebook, {"seed": [0, 1, 2]}, tmp_path / "out", jobs=2, dask="local", progress=False)
    runs = table.drop_duplicates("run_id")
    assert len(runs) == 3 and (runs["status"] == "ok").all()
    assert sorted(table.loc[table["key"] == "score", "value"].astype(float)) == [0.0, 1.0, 2.0]


@pytest.mark.integration
def test_disk_full_during_a_sweep_is_reported(notebook, tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    real, calls = sweep.write_table, []

    def full_after_first(path):
        calls.append(path)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path)

    monkeypatch.setattr(sweep.runner, "write_table", full_after_first)
    assert cli.main(["sweep", str(notebook), "-p", "seed", "0:3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "could not write the sweep's files" in err and "No space left on device" in err
    assert "rerun the same command" in err
    monkeypatch.setattr(sweep.runner, "write_table", real)
    assert cli.main(["sweep", str(notebook), "-p", "seed", "0:3", "--out", str(out)]) == 0  # space is back: done


SLOW = [
    nbformat.v4.new_markdown_cell("# slow sweep notebook"),
    nbformat.v4.new_code_cell("seed = 0\nresults_path = None", metadata={"tags": ["parameters"]}),
    nbformat.v4.new_code_cell(SLOW_BODY),
]


@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_stopped_half_way_then_rerun_loses_and_duplicates_nothing(tmp_path, sig):
    nb = nbformat.v4.new_notebook(cells=SLOW)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "slow.ipynb")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "helpers.workbook", "sweep", str(tmp_path / "slow.ipynb"), "-p", "seed", "0:5",
           "--jobs", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 180
    while time.time() < deadline:  # wait for two finished runs in the table, then stop the whole process group
        try:
            if pd.read_csv(out / "results.csv")["run_id"].nunique() >= 2:
                break
        except (FileNotFoundError, pd.errors.EmptyDataError, KeyError):
            pass
        time.sleep(0.2)
    os.killpg(proc.pid, sig)  # what Ctrl-C does to the foreground group, or a kill -9 of everything
    _, err = proc.communicate(timeout=120)
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "finished runs are kept" in err
    assert processes_gone(proc.pid, within=30, scope="group"), "processes of the sweep outlived it"
    kept = pd.read_csv(out / "results.csv")
    assert kept["run_id"].nunique() >= 2 and (kept["status"] == "ok").all()
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    final = pd.read_csv(out / "results.csv")
    assert sorted(final["seed"]) == list(range(5)) and not final.duplicated(["run_id", "key"]).any()


def test_plot_distribution_draws_one_box_per_value():
    # the tidy table as collect() writes it: six finished runs (two keys each) and one failed run
    rows = [{"run_id": f"r{seed}{method}", "status": "ok", "seed": seed, "method": method, "key": key, "value": value}
            for seed in range(3) for method in "ab"
            for key, value in (("score", float(seed)), ("detail.method", method))]
    rows.append({"run_id": "r3a", "status": "cell-error", "seed": 3, "method": "a", "key": None, "value": None,
                 "error": "RuntimeError: seed 3 fails on purpose"})
    table = pd.DataFrame(rows)
    ax = sweep.plot_distribution(table, "score", "method")
    assert ax.get_title() == "score over 6 runs" and ax.get_xlabel() == "method" and ax.get_ylabel() == "score"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]
    assert sum(len(c.get_offsets()) for c in ax.collections) == 6  # every run drawn once, no outlier copies
    assert sorted(y for c in ax.collections for _, y in c.get_offsets()) == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]
    with pytest.raises(ValueError, match="No finished run has result 'nope'; keys: \\['detail.method', 'score'\\]"):
        sweep.plot_distribution(table, "nope", "method")


def sweep_args(*words):
    """The ``sweep`` command line as the workbook's parser reads it."""
    return cli.build_parser().parse_args(["sweep", *words])


def test_a_parameter_given_twice_is_refused_before_any_run(tmp_path, capsys):
    args = sweep_args("nb.ipynb", "-p", "seed", "0", "1", "-p", "seed", "5", "--out", str(tmp_path / "o"))
    with pytest.raises(ValueError, match=r"'seed' is given by -p twice; give all its values after one -p "
                                         r"\(e\.g\. -p seed 0 1 5\)"):
        sweep.grid_from_options(args.grid, args.param)
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"seed": [0, 1], "method": ["zca"]}))
    args = sweep_args("nb.ipynb", "--grid", str(grid), "-p", "seed", "5", "--out", str(tmp_path / "o"))
    with pytest.raises(ValueError, match=r"'seed' is in .*grid\.json and given by -p; set it in one place only"):
        sweep.grid_from_options(args.grid, args.param)
    args = sweep_args("nb.ipynb", "--grid", str(grid), "-p", "k", "1", "3", "--out", str(tmp_path / "o"))
    assert sweep.grid_from_options(args.grid, args.param)[0] == {"seed": [0, 1], "method": ["zca"], "k": [1, 3]}
    assert cli.main(["sweep", "nb.ipynb", "-p", "seed", "0", "-p", "seed", "1", "--out", str(tmp_path / "o")]) == 2
    assert "given by -p twice" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()                       # refused before any folder was made
