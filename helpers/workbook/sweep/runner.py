"""Running a sweep: every check first, then the runs in a process pool or on Dask, Ctrl-C safe.

:func:`check_sweep` refuses a bad notebook, grid, option, output folder, a folder another sweep
is writing into, or a Dask address where no scheduler answers Dask's handshake, before any
folder is made. :func:`run_sweep` then takes the folder's lock, and executes each parameter set
not already finished with this notebook code (:func:`helpers.workbook.sweep.store.plan`) with
papermill, ``jobs`` at a time in worker processes, or on a Dask cluster; a run that fails to
start is retried once, a cell error never. The results table is rewritten after every finished
run and once more from the run files when the sweep stops for any reason (Ctrl-C or SIGTERM
included, a second one held back until it is on disk). The pool's workers stop their run when
the sweep is stopped, and end by themselves when the sweep process is killed (``kill -9``).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sys
import time
import traceback
import warnings
from pathlib import Path

import pandas as pd

from ..._dask import CONNECT_TIMEOUT, check_dask_address
from ..._io import progress_bar
from ..._tasks import hold_stop_signals, interrupted, run_tasks, running
from ..._validation import is_whole_seconds
from ..execute import execute_notebook
from .grid import DEFAULT_MAX_RUNS, check_grid_shape, check_run_count, expand_grid, validate_grid
from .store import (
    STATUS_OK,
    check_out_folder,
    check_unlocked,
    code_sha,
    load_json,
    lock_out_folder,
    make_out_folder,
    other_versions,
    plan,
    run_id,
    write_table,
    write_text,
)

__all__ = [
    "DASK_CONNECT_TIMEOUT",
    "FAILURE_KINDS",
    "NotebookChangedWarning",
    "check_sweep",
    "execute_run",
    "run_checked",
    "run_sweep",
]

DASK_CONNECT_TIMEOUT = CONNECT_TIMEOUT  # seconds to reach a Dask scheduler (and for it to answer), else refused
# Outcome of a run that failed, from the exception papermill/nbclient raised: a cell error is
# deterministic (never retried), a timeout or a dead kernel is reported as such.
FAILURE_KINDS = {
    "PapermillExecutionError": "cell-error",
    "CellTimeoutError": "timeout",
    "DeadKernelError": "kernel-died",
}


class NotebookChangedWarning(UserWarning):
    """Runs of this grid were finished with other notebook code; they run again."""


# --------------------------------------------------------------------------------------
# Checks, before anything is made


def _check_dask(address: str) -> None:
    """:func:`helpers._dask.check_dask_address` with the sweep's time limit for each step."""
    check_dask_address(address, timeout=DASK_CONNECT_TIMEOUT, stacklevel=4)


def check_sweep(notebook, grid: dict, out, jobs: int = 1, timeout: int | None = None,
                dask: str | None = None, origin: dict | None = None,
                max_runs: int = DEFAULT_MAX_RUNS) -> tuple[Path, Path]:
    """Every check a sweep makes before it starts; creates nothing. Returns the resolved notebook and ``out``.

    Raises
    ------
    FileNotFoundError
        The notebook does not exist.
    ValueError, TypeError
        A bad option (``jobs`` < 1, ``timeout`` not a whole number of seconds >= 1 — papermill
        takes whole seconds —, ``max_runs`` < 1, a malformed Dask address), notebook or grid
        (:func:`~helpers.workbook.sweep.grid.validate_grid`), more runs than ``max_runs``.
    OSError
        ``out`` is a file, under a file or not writable; another sweep is writing into it
        (:class:`~helpers.workbook.sweep.store.SweepBusyError`); no Dask scheduler answers at ``dask``.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"--jobs must be a whole number >= 1 (runs at a time), not {jobs!r}.")
    if timeout is not None and not is_whole_seconds(timeout):
        raise ValueError(f"--timeout must be a whole number of seconds >= 1 per cell (or left out: no limit), "
                         f"not {timeout!r}; e.g. --timeout 600.")
    if isinstance(max_runs, bool) or not isinstance(max_runs, int) or max_runs < 1:
        raise ValueError(f"--max-runs must be a whole number >= 1, not {max_runs!r}.")
    notebook = Path(notebook).resolve()
    if not notebook.exists():
        raise FileNotFoundError(errno.ENOENT, f"Notebook {notebook} does not exist; give the path of an .ipynb "
                                              "file, e.g. notebooks/04_wisconsin_cosine_knn.ipynb.")
    if notebook.is_dir() or notebook.suffix != ".ipynb":
        raise ValueError(f"{notebook} is not a notebook (.ipynb file); give the path of one.")
    check_grid_shape(grid)
    check_run_count(grid, max_runs)  # before anything is expanded
    validate_grid(notebook, grid, origin)
    out = Path(out).resolve()
    check_out_folder(out)
    check_unlocked(out)
    if dask:
        _check_dask(dask)
    return notebook, out


# --------------------------------------------------------------------------------------
# One run (executed in a worker process or a Dask worker)


def _failure(exc: Exception, kind: str | None) -> dict:
    """The fields of a failed run's record: its status, a one-line error, the traceback if unexpected."""
    first_line = str(getattr(exc, "evalue", exc)).strip().splitlines()
    fields = {"status": kind or "infrastructure",
              "error": f"{type(exc).__name__}: {first_line[0] if first_line else ''}"[:500]}
    if kind is None:
        fields["traceback"] = traceback.format_exc()[-2000:]
    return fields


def _results_problem(path: Path) -> str | None:
    """Why a run's results file cannot be its results (``None``: a JSON object, as save_results writes)."""
    results, reason = load_json(path)
    if reason is not None:
        return f"{path} is not valid JSON ({reason})"
    if not isinstance(results, dict):
        kind = "list" if isinstance(results, list) else "number" if isinstance(results, (int, float)) \
            else type(results).__name__
        return (f"{path} holds a JSON {kind}, not an object {{key: value}}; have the notebook save a dict "
                "(save_results(results, results_path))")
    return None


def _code_now(notebook) -> str:
    """The notebook's code_sha now, or ``"unreadable"``."""
    try:
        return code_sha(notebook)
    except (OSError, ValueError, AttributeError):
        return "unreadable"


def execute_run(notebook: str, out: str, params: dict, timeout: int | None = None, code: str = "") -> dict:
    """Execute one run and return its status record (never raises for notebook failures).

    The record (``run_id``, ``params``, ``notebook``, ``code_sha``, ``status``, ``error``,
    ``seconds``) is also written to ``out/runs/<run-id>.status.json``; ``code`` is the
    notebook's :func:`~helpers.workbook.sweep.store.code_sha`. A run whose results file is
    missing, not JSON or not a JSON object fails (``no-results``, ``invalid-results``); one whose
    notebook's code is no longer ``code`` is not made (``notebook-changed``). After a
    Ctrl-C in this worker it raises ``KeyboardInterrupt`` instead: no retry, no record (the run
    was not finished), and runs queued behind it do not start.
    """
    if interrupted():
        raise KeyboardInterrupt
    out_dir = Path(out)
    rid = run_id(params, code)
    runs = out_dir / "runs"
    work = out_dir / "work" / rid
    work.mkdir(parents=True, exist_ok=True)
    results_path = (runs / f"{rid}.json").resolve()
    results_path.unlink(missing_ok=True)
    record = {"run_id": rid, "params": params, "notebook": Path(notebook).name, "code_sha": code or None,
              "status": STATUS_OK, "error": None}
    start = time.monotonic()
    if code and (now := _code_now(notebook)) != code:  # edited (or removed) since the sweep started
        record.update(status="notebook-changed", error=(
            f"{notebook} or the helpers package changed during the sweep (their code is now {now}, the sweep "
            f"started with {code}); this run was not made. Rerun the sweep: it runs the code as it is now."))
        attempts = ()
    else:
        attempts = (1, 2)
    for attempt in attempts:
        try:
            with running():
                execute_notebook(notebook, runs / f"{rid}.ipynb", {**params, "results_path": str(results_path)},
                                 cwd=work, timeout=None if timeout is None else int(timeout))
            if not results_path.exists():
                record.update(status="no-results", error="the notebook did not write its results JSON")
            elif (reason := _results_problem(results_path)) is not None:
                record.update(status="invalid-results", error=reason[:500])
            break
        except Exception as exc:  # classify, keep the sweep going
            if interrupted():  # papermill turned the Ctrl-C into another error: stop, record nothing
                raise KeyboardInterrupt from exc  # (the working folder stays: a kernel may still be starting in it)
            kind = FAILURE_KINDS.get(type(exc).__name__)
            if kind is None and attempt == 1:
                continue  # infrastructure (e.g. kernel failed to start): retry once
            record.update(_failure(exc, kind))
            break
    record["seconds"] = round(time.monotonic() - start, 2)
    shutil.rmtree(work, ignore_errors=True)
    write_text(runs / f"{rid}.status.json", json.dumps(record, indent=2, default=str))
    return record


# --------------------------------------------------------------------------------------
# The driver


def _write_final_table(out: Path) -> pd.DataFrame:
    """:func:`write_table` with Ctrl-C and SIGTERM held back until the table is on disk, then raised.

    The last table of a sweep is written after a Ctrl-C too; a second Ctrl-C (or a SIGTERM)
    meanwhile must not leave it without the runs that finished since the previous write.
    """
    with hold_stop_signals():
        return write_table(out)


def run_sweep(
    notebook,
    grid: dict,
    out,
    jobs: int = 1,
    *, retry_failed: bool = False,
    dask: str | None = None,
    timeout: int | None = None,
    progress: bool = True,
    max_runs: int = DEFAULT_MAX_RUNS,
) -> pd.DataFrame:
    """Run every parameter set of ``grid`` not already finished in ``out``; return the table.

    Everything is checked first (:func:`check_sweep`); a bad notebook, grid, option or
    output folder raises before any folder is made.

    Parameters
    ----------
    notebook : path-like
        A notebook with a ``parameters`` cell that declares ``results_path``.
    grid : dict
        ``{name: [values]}``; every combination is one run.
    out : path-like
        The sweep folder (``runs/``, ``results.csv``).
    jobs : int
        Runs at a time (worker processes, or Dask workers of ``dask="local"``).
    retry_failed : bool
        Run failed runs (a corrupt run file included) again.
    dask : str, optional
        ``"local"`` for a local cluster, or a scheduler address ``tcp://HOST:PORT``.
    timeout : int, optional
        Whole seconds per cell; ``None``: no limit.
    progress : bool
        Draw a progress bar on stderr.
    max_runs : int
        The most runs the grid may have (:data:`~helpers.workbook.sweep.grid.DEFAULT_MAX_RUNS`).

    Returns
    -------
    DataFrame
        The folder's results table (:func:`~helpers.workbook.sweep.store.collect`).
    """
    notebook, out = check_sweep(notebook, grid, out, jobs, timeout, dask, max_runs=max_runs)
    return run_checked(notebook, grid, out, jobs, retry_failed=retry_failed, dask=dask, timeout=timeout,
                       progress=progress)


def run_checked(notebook: Path, grid: dict, out: Path, jobs: int = 1, *, retry_failed: bool = False,
                dask: str | None = None, timeout: int | None = None, progress: bool = True) -> pd.DataFrame:
    """:func:`run_sweep` without its checks: for a sweep :func:`check_sweep` has already accepted.

    Raises :class:`~helpers.workbook.sweep.store.SweepBusyError` when another sweep took the
    folder since the checks, and :class:`~helpers._tasks.TasksStopped` (a ``KeyboardInterrupt``) after Ctrl-C
    or SIGTERM, once the table is written.
    """
    combos = expand_grid(grid)
    code = code_sha(notebook)
    make_out_folder(out)
    lock = lock_out_folder(out)
    try:
        return _run_locked(notebook, combos, out, jobs=jobs, retry_failed=retry_failed, dask=dask, timeout=timeout,
                           progress=progress, code=code)
    finally:
        os.close(lock)


def _run_locked(notebook: Path, combos: list, out: Path, *, jobs: int, retry_failed: bool, dask: str | None,
                timeout: int | None, progress: bool, code: str) -> pd.DataFrame:
    todo, done = plan(out, combos, retry_failed=retry_failed, code=code)
    if todo and (others := other_versions(out, todo, code)):
        names = ", ".join(f"{n} by {'a notebook it did not record' if name == 'unknown' else name}"
                          for name, n in others.items())
        warnings.warn(f"{sum(others.values())} runs of this grid in {out} were made by other code ({names}): "
                      f"{Path(notebook).name} has been edited, is another notebook, or the helpers package has "
                      f"changed. They run again with the code as it is now; the earlier results are kept, told "
                      "apart in results.csv by the notebook and code_sha columns.", NotebookChangedWarning,
                      stacklevel=3)
    bar = progress_bar(total=len(todo) + len(done), initial=len(done), unit="run", progress=progress,
                       file=sys.stderr)
    failed = 0

    def finished(record):
        nonlocal failed
        failed += record["status"] != STATUS_OK
        bar.set_postfix(failed=failed, remaining=bar.total - bar.n - 1)
        bar.update()
        write_table(out)

    args = [(str(notebook), str(out), params, timeout, code) for params in todo]
    try:
        run_tasks(execute_run, args, finished, jobs=jobs, dask=dask)
    finally:
        bar.close()
        table = _write_final_table(out)  # from the run files on disk: every finished run, whatever stopped us
    return table
