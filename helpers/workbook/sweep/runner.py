"""Running a sweep: every check first, then the runs in a process pool or on Dask, Ctrl-C safe.

:func:`check_sweep` refuses a bad notebook, grid, option, output folder or Dask address before
any folder is made. :func:`run_sweep` then executes each parameter set not already finished
(:func:`helpers.workbook.sweep.store.plan`) with papermill, ``jobs`` at a time in worker
processes, or on a Dask cluster; a run that fails to start is retried once, a cell error never.
The results table is rewritten after every finished run and once more from the run files when
the sweep stops for any reason (Ctrl-C included, a second one held back until it is on disk).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

import pandas as pd

from ..._io import progress_bar
from ..execute import execute_notebook
from .grid import expand_grid, validate_grid
from .store import STATUS_OK, check_out_folder, load_json, make_out_folder, plan, run_id, write_table, write_text

__all__ = [
    "DASK_CONNECT_TIMEOUT",
    "FAILURE_KINDS",
    "check_sweep",
    "execute_run",
    "run_checked",
    "run_sweep",
]

DASK_CONNECT_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before the sweep is refused
# Outcome of a run that failed, from the exception papermill/nbclient raised: a cell error is
# deterministic (never retried), a timeout or a dead kernel is reported as such.
FAILURE_KINDS = {
    "PapermillExecutionError": "cell-error",
    "CellTimeoutError": "timeout",
    "DeadKernelError": "kernel-died",
}


# --------------------------------------------------------------------------------------
# Checks, before anything is made


def _check_dask(address: str) -> None:
    """Refuse a Dask address that is malformed or where no scheduler answers (5 s timeout)."""
    from urllib.parse import urlsplit

    try:
        import distributed  # noqa: F401
    except ImportError:  # pragma: no cover - dask is an optional extra
        raise ValueError("--dask needs dask.distributed: pip install 'covsim-workbook[sweep]'.") from None
    if address == "local":
        return
    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if parts.scheme not in ("tcp", "tls") or not host or port is None:
        raise ValueError(f"--dask {address!r} is not a scheduler address; give 'local' or tcp://HOST:PORT "
                         "(e.g. tcp://127.0.0.1:8786).")
    try:
        socket.create_connection((host, port), timeout=DASK_CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise ConnectionError(
            errno.ECONNREFUSED,
            f"No Dask scheduler answers at {address} ({exc.strerror or exc}); start one (dask scheduler), "
            "check the address, or use --dask local.",
        ) from None


def check_sweep(notebook, grid: dict, out, jobs: int = 1, timeout: float | None = None,
                dask: str | None = None, origin: dict | None = None) -> tuple[Path, Path]:
    """Every check a sweep makes before it starts; creates nothing. Returns the resolved notebook and ``out``.

    Raises
    ------
    FileNotFoundError
        The notebook does not exist.
    ValueError, TypeError
        A bad option (``jobs`` < 1, ``timeout`` <= 0, a malformed Dask address), notebook or grid
        (:func:`~helpers.workbook.sweep.grid.validate_grid`).
    OSError
        ``out`` is a file, under a file or not writable; no Dask scheduler answers at ``dask``.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"--jobs must be a whole number >= 1 (runs at a time), not {jobs!r}.")
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0 and timeout == timeout):
        raise ValueError(f"--timeout must be a number of seconds > 0 (or left out: no limit), not {timeout!r}.")
    notebook = Path(notebook).resolve()
    if not notebook.exists():
        raise FileNotFoundError(errno.ENOENT, f"Notebook {notebook} does not exist; give the path of an .ipynb "
                                              "file, e.g. notebooks/04_wisconsin_cosine_knn.ipynb.")
    if notebook.is_dir() or notebook.suffix != ".ipynb":
        raise ValueError(f"{notebook} is not a notebook (.ipynb file); give the path of one.")
    expand_grid(grid)
    validate_grid(notebook, grid, origin)
    out = Path(out).resolve()
    check_out_folder(out)
    if dask:
        _check_dask(dask)
    return notebook, out


# --------------------------------------------------------------------------------------
# One run (executed in a worker process or a Dask worker)


_interrupted = False  # set in a worker process by its first Ctrl-C


def _stop_on_first_ctrl_c(signum, frame):
    """A worker's SIGINT handler: stop the current run once; a second Ctrl-C must not break its clean-up."""
    global _interrupted
    _interrupted = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _init_worker() -> None:
    signal.signal(signal.SIGINT, _stop_on_first_ctrl_c)


def _failure(exc: Exception, kind: str | None) -> dict:
    """The fields of a failed run's record: its status, a one-line error, the traceback if unexpected."""
    first_line = str(getattr(exc, "evalue", exc)).strip().splitlines()
    fields = {"status": kind or "infrastructure",
              "error": f"{type(exc).__name__}: {first_line[0] if first_line else ''}"[:500]}
    if kind is None:
        fields["traceback"] = traceback.format_exc()[-2000:]
    return fields


def execute_run(notebook: str, out: str, params: dict, timeout: float | None = None) -> dict:
    """Execute one run and return its status record (never raises for notebook failures).

    The record (``run_id``, ``params``, ``status``, ``error``, ``seconds``) is also written to
    ``out/runs/<run-id>.status.json``. After a Ctrl-C in this worker it raises
    ``KeyboardInterrupt`` instead: no retry, no record (the run was not finished), and runs
    queued behind it do not start.
    """
    if _interrupted:
        raise KeyboardInterrupt
    out_dir = Path(out)
    rid = run_id(params)
    runs = out_dir / "runs"
    work = out_dir / "work" / rid
    work.mkdir(parents=True, exist_ok=True)
    results_path = (runs / f"{rid}.json").resolve()
    results_path.unlink(missing_ok=True)
    record = {"run_id": rid, "params": params, "status": STATUS_OK, "error": None}
    start = time.monotonic()
    for attempt in (1, 2):
        try:
            execute_notebook(notebook, runs / f"{rid}.ipynb", {**params, "results_path": str(results_path)},
                             cwd=work, timeout=timeout)
            if not results_path.exists():
                record.update(status="no-results", error="the notebook did not write its results JSON")
            elif (reason := load_json(results_path)[1]) is not None:
                record.update(status="invalid-results", error=f"{results_path} is not valid JSON ({reason})"[:500])
            break
        except Exception as exc:  # classify, keep the sweep going
            if _interrupted:  # papermill turned the Ctrl-C into another error: stop, record nothing
                shutil.rmtree(work, ignore_errors=True)
                raise KeyboardInterrupt from exc
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
    """:func:`write_table` with Ctrl-C held back until the table is on disk, then raised.

    The last table of a sweep is written after a Ctrl-C too; a second Ctrl-C meanwhile must
    not leave it without the runs that finished since the previous write.
    """
    if threading.current_thread() is not threading.main_thread():
        return write_table(out)
    held = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        return write_table(out)
    finally:
        signal.signal(signal.SIGINT, previous)
        if held and previous not in (signal.SIG_IGN, None):
            raise KeyboardInterrupt


def run_sweep(
    notebook,
    grid: dict,
    out,
    jobs: int = 1,
    retry_failed: bool = False,
    dask: str | None = None,
    timeout: float | None = None,
    progress: bool = True,
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
    timeout : float, optional
        Seconds per cell; ``None``: no limit.
    progress : bool
        Draw a progress bar on stderr.

    Returns
    -------
    DataFrame
        The folder's results table (:func:`~helpers.workbook.sweep.store.collect`).
    """
    notebook, out = check_sweep(notebook, grid, out, jobs, timeout, dask)
    return run_checked(notebook, grid, out, jobs, retry_failed, dask, timeout, progress)


def run_checked(notebook: Path, grid: dict, out: Path, jobs: int = 1, retry_failed: bool = False,
                dask: str | None = None, timeout: float | None = None, progress: bool = True) -> pd.DataFrame:
    """:func:`run_sweep` without its checks: for a sweep :func:`check_sweep` has already accepted."""
    combos = expand_grid(grid)
    make_out_folder(out)
    todo, done = plan(out, combos, retry_failed)
    bar = progress_bar(total=len(combos), initial=len(done), unit="run", progress=progress, file=sys.stderr)
    failed = 0

    def finished(record):
        nonlocal failed
        failed += record["status"] != STATUS_OK
        bar.set_postfix(failed=failed, remaining=bar.total - bar.n - 1)
        bar.update()
        write_table(out)

    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    args = [(str(notebook), str(out), params, timeout) for params in todo]
    try:
        if dask:
            _run_dask(dask, jobs, args, finished)
        elif jobs <= 1:
            for a in args:
                finished(execute_run(*a))
        else:
            _run_pool(jobs, args, finished)
    finally:
        bar.close()
        table = _write_final_table(out)  # from the run files on disk: every finished run, whatever stopped us
    return table


def _run_pool(jobs: int, args: list, finished) -> None:
    """Each run in one of ``jobs`` worker processes; a Ctrl-C or a failed table write cancels the rest."""
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker) as pool:
        pending = {pool.submit(execute_run, *a) for a in args}
        try:
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    finished(future.result())
        except BaseException:  # Ctrl-C, or the table could not be written (disk full): stop here
            for future in pending:
                future.cancel()
            raise


def _run_dask(address: str, jobs: int, args: list, finished) -> None:
    from dask.distributed import Client, LocalCluster, as_completed

    if address == "local":
        cluster = LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(address, timeout=f"{DASK_CONNECT_TIMEOUT:g}s")
    try:
        futures = [client.submit(execute_run, *a, pure=False) for a in args]
        for future in as_completed(futures):
            finished(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
