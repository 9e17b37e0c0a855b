"""Papermill parameter sweeps: parallel, resumable, and never losing a finished result.

Command line::

    python -m helpers.workbook.sweep notebooks/04_wisconsin_cosine_knn.ipynb \\
        -p random_state 0:50 -p method cholesky zca --jobs 2 --out build/sweeps/03

Each run executes the notebook with papermill into ``OUT/runs/<run-id>.ipynb`` with its
parameters; the notebook writes its results JSON to ``OUT/runs/<run-id>.json`` through its
``results_path`` parameter. The run id is a stable hash of the parameters, so rerunning
the same command skips finished runs; ``--retry-failed`` runs the failed ones again (a run
whose status or results file cannot be read counts as failed, with a warning naming the file).
After every finished run, and once more from the run files when the sweep stops for any
reason, the tidy table ``OUT/results.csv`` (one row per run and result key, parameters as
columns) is rewritten atomically. The notebook, grid, options and ``--out`` are all checked
before any run or folder is made (exit code 2). ``--dask local`` or
``--dask tcp://scheduler:8786`` runs the same sweep on a Dask cluster.
"""

from __future__ import annotations

import argparse
import ast
import errno
import hashlib
import itertools
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
import traceback
import warnings
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

import pandas as pd

from .._io import atomic_open, atomic_path, progress_bar
from .execute import execute_notebook
from .parameters import parameter_spec

__all__ = [
    "CorruptRunFileWarning",
    "check_sweep",
    "expand_grid",
    "load",
    "main",
    "parse_values",
    "plan",
    "plot_distribution",
    "read_grid_file",
    "run_id",
    "run_sweep",
    "validate_grid",
]

STATUS_OK = "ok"
# A run whose status or results file cannot be read: reported, counted as failed, rerun by --retry-failed.
STATUS_CORRUPT = "corrupt-file"
DASK_CONNECT_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before the sweep is refused
# Outcome of a run that failed, from the exception papermill/nbclient raised: a cell error is
# deterministic (never retried), a timeout or a dead kernel is reported as such.
FAILURE_KINDS = {
    "PapermillExecutionError": "cell-error",
    "CellTimeoutError": "timeout",
    "DeadKernelError": "kernel-died",
}


# --------------------------------------------------------------------------------------
# Grid parsing and validation


def _literal(text: str):
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"True"`` -> True, ``"None"`` -> None, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def parse_values(tokens: list[str]) -> list:
    """Values of one ``-p NAME ...`` option: literals, or integer ranges ``start:stop[:step]``.

    Examples
    --------
    >>> parse_values(["0:3"]), parse_values(["cholesky", "zca"]), parse_values(["0.1", "None"])
    ([0, 1, 2], ['cholesky', 'zca'], [0.1, None])
    """
    values = []
    for token in tokens:
        parts = token.split(":")
        if len(parts) in (2, 3) and all(p.lstrip("-").isdigit() for p in parts):
            start, stop, *step = map(int, parts)
            step = step[0] if step else 1
            if step == 0:
                raise ValueError(f"Range {token!r} has step 0.")
            rng = list(range(start, stop, step))
            if not rng:
                raise ValueError(f"Range {token!r} is empty (start:stop is half-open, as in Python).")
            values.extend(rng)
        else:
            values.append(_literal(token))
    return values


def expand_grid(grid: dict) -> list[dict]:
    """All combinations of a ``{name: [values]}`` grid, in a stable order.

    Examples
    --------
    >>> expand_grid({"seed": [0, 1], "method": ["a"]})
    [{'seed': 0, 'method': 'a'}, {'seed': 1, 'method': 'a'}]
    """
    if not isinstance(grid, dict):
        raise TypeError(f"grid must be a dict {{name: [values]}}, not a {type(grid).__name__}.")
    for name, values in grid.items():
        if not isinstance(values, list):
            raise TypeError(f"Parameter {name!r} needs a list of values, e.g. [{values!r}]; got {values!r}.")
        if not values:
            raise ValueError(f"Parameter {name!r} has no values; give at least one.")
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]


def run_id(params: dict) -> str:
    """Stable 12-character id of a parameter set (independent of key order).

    Examples
    --------
    >>> run_id({"a": 1, "b": "x"}) == run_id({"b": "x", "a": 1})
    True
    """
    text = json.dumps(params, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _type_name(value) -> str:
    return type(value).__name__


def _inspect(notebook: Path) -> dict:
    """papermill's view of the notebook's parameters, or an error naming the file."""
    import papermill as pm

    try:
        return pm.inspect_notebook(str(notebook))
    except Exception as exc:  # not JSON, not a notebook, unreadable
        first = str(exc).strip().splitlines()
        raise ValueError(
            f"{notebook} is not a readable Jupyter notebook ({type(exc).__name__}: {first[0] if first else ''}); "
            "give the path of an .ipynb file."
        ) from None


def validate_grid(notebook: Path, grid: dict, origin: dict | None = None) -> dict:
    """Check grid names and values against the notebook's ``parameters`` cell and its checks.

    Names must be parameters of the notebook; values must have the type of the default
    (an int is accepted for a float) or, for the workbook's notebooks, pass the checks of
    :data:`helpers.workbook.parameters.NOTEBOOK_PARAMETERS` (every value and, for conditions on
    two parameters, every combination). ``origin`` maps names to where they were given
    (a grid file, ``-p``), for the messages.

    Returns the notebook's parameters as papermill's ``inspect_notebook`` reports them.
    """
    notebook = Path(notebook)
    origin = origin or {}
    declared = _inspect(notebook)
    if not declared:
        raise ValueError(f"{notebook} has no cell tagged 'parameters', so papermill cannot inject values; "
                         "tag the cell of its parameters 'parameters' (Jupyter: View > Cell toolbar > Tags).")
    spec, relations = parameter_spec(notebook)
    for name, values in grid.items():
        where = f" (in {origin[name]})" if name in origin else ""
        if name not in declared:
            raise ValueError(
                f"Unknown parameter {name!r}{where} for {notebook.name}; its parameters are "
                f"{', '.join(sorted(declared))}."
            )
        if name == "results_path":
            raise ValueError(f"results_path{where} is set by the sweep for every run; do not sweep it.")
        default = _literal(declared[name]["default"])
        for value in values:
            if name in spec:
                kind = spec[name].problem(value)
                if kind is None:
                    continue
                expected = spec[name].describe()
            elif default is None or value is None or isinstance(value, type(default)):
                continue
            elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                continue
            else:
                kind, expected = "type", f"{_type_name(default)} values"
            unread = (" (it could not be read as a Python literal: quote strings, write lists as [1, 2])"
                      if isinstance(value, str) and not isinstance(default, str) else "")
            error = TypeError if kind == "type" else ValueError
            raise error(
                f"Parameter {name!r}{where} of {notebook.name} takes {expected} (default {default!r}); "
                f"got {value!r} ({_type_name(value)}){unread}."
            )
    for words, names, test in relations:
        for params in expand_grid(grid) if any(n in grid for n in names) else []:
            values = {n: params[n] if n in params else _literal(declared[n]["default"]) for n in names}
            if not test(values):
                got = ", ".join(f"{n} = {v!r}" for n, v in values.items())
                raise ValueError(f"The grid has a run with {got}, which breaks {notebook.name}'s condition "
                                 f"{words}; change the values so that every combination meets it.")
    if "results_path" not in declared:
        raise ValueError(
            f"{notebook.name} declares no results_path parameter, so its runs would record no results; "
            "add `results_path: str = None` to its parameters cell and save_results(results, results_path) at its end."
        )
    return declared


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _check_out(out: Path) -> None:
    """Refuse an output folder that is a file, sits under a file, or cannot be written; create nothing."""
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"Output folder {out} is a file, not a folder. Choose another --out.")
    base = _nearest_existing(out)
    if not base.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"Output folder {out} cannot be made: {base} is a file, not a "
                                                "folder. Choose another --out.")
    if not os.access(base, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"Output folder {out} is not writable: {base} does not let you "
                                            "create files. Choose another --out.")


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
        (:func:`validate_grid`).
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
    _check_out(out)
    if dask:
        _check_dask(dask)
    return notebook, out


# --------------------------------------------------------------------------------------
# One run (executed in a worker process or a Dask worker)


def _atomic_write_text(path: Path, text: str) -> None:
    with atomic_open(path) as fh:
        fh.write(text)


_interrupted = False  # set in a worker process by its first Ctrl-C


def _stop_on_first_ctrl_c(signum, frame):
    """A worker's SIGINT handler: stop the current run once; a second Ctrl-C must not break its clean-up."""
    global _interrupted
    _interrupted = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _init_worker() -> None:
    signal.signal(signal.SIGINT, _stop_on_first_ctrl_c)


def execute_run(notebook: str, out: str, params: dict, timeout: float | None = None) -> dict:
    """Execute one run and return its status record (never raises for notebook failures).

    After a Ctrl-C in this worker it raises ``KeyboardInterrupt`` instead: no retry, no record
    (the run was not finished), and runs queued behind it do not start.
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
            elif (reason := _load_json(results_path)[1]) is not None:
                record.update(status="invalid-results", error=f"{results_path} is not valid JSON ({reason})"[:500])
            break
        except Exception as exc:  # classify, keep the sweep going
            if _interrupted:  # papermill turned the Ctrl-C into another error: stop, record nothing
                shutil.rmtree(work, ignore_errors=True)
                raise KeyboardInterrupt from exc
            kind = FAILURE_KINDS.get(type(exc).__name__)
            if kind is None and attempt == 1:
                continue  # infrastructure (e.g. kernel failed to start): retry once
            first_line = str(getattr(exc, "evalue", exc)).strip().splitlines()
            record.update(
                status=kind or "infrastructure",
                error=f"{type(exc).__name__}: {first_line[0] if first_line else ''}"[:500],
            )
            if kind is None:
                record["traceback"] = traceback.format_exc()[-2000:]
            break
    record["seconds"] = round(time.monotonic() - start, 2)
    shutil.rmtree(work, ignore_errors=True)
    _atomic_write_text(runs / f"{rid}.status.json", json.dumps(record, indent=2, default=str))
    return record


# --------------------------------------------------------------------------------------
# The run grid, aggregation, the driver


class CorruptRunFileWarning(UserWarning):
    """A run's status or results file could not be read; the run counts as failed."""


def _load_json(path: Path):
    """``(data, None)``, or ``(None, reason)`` for a file that cannot be read or is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _corrupt(path: Path, reason: str) -> str:
    message = (f"{path} cannot be read ({reason}); its run counts as failed. Rerun the sweep with "
               "--retry-failed to run it again.")
    warnings.warn(message, CorruptRunFileWarning, stacklevel=3)
    return message


def _params_from_notebook(path: Path) -> dict | None:
    """A run's parameters as papermill recorded them in its executed notebook (``None`` if unknown)."""
    data, reason = _load_json(path) if path.exists() else (None, "missing")
    try:
        params = dict(data["metadata"]["papermill"]["parameters"])
    except (TypeError, KeyError, ValueError):
        return None
    params.pop("results_path", None)
    return params


def read_run(runs: Path, rid: str) -> dict | None:
    """The status record of run ``rid`` in ``runs`` (``None``: never finished).

    A status file that is not a valid record, or a run recorded as ok whose results file is
    missing or not valid JSON, gives a record with status ``"corrupt-file"`` and, under
    ``"error"``, the file and the cause (a :class:`CorruptRunFileWarning` says so too). Under
    ``"results"`` an ok run's results are returned as read.
    """
    path = runs / f"{rid}.status.json"
    if not path.exists():
        return None
    record, reason = _load_json(path)
    if reason is None and not (isinstance(record, dict) and isinstance(record.get("params"), dict)
                               and isinstance(record.get("status"), str)):
        reason = "not a status record with 'params' and 'status'"
    if reason is not None:
        return {"run_id": rid, "params": _params_from_notebook(runs / f"{rid}.ipynb"), "status": STATUS_CORRUPT,
                "error": _corrupt(path, reason)}
    record = {**record, "run_id": rid}
    if record["status"] == STATUS_OK:
        results_file = runs / f"{rid}.json"
        if not results_file.exists():
            reason = "the run is recorded as ok but its results file is missing"
            return {**record, "status": STATUS_CORRUPT, "error": _corrupt(results_file, reason)}
        results, reason = _load_json(results_file)
        if reason is not None:
            return {**record, "status": STATUS_CORRUPT, "error": _corrupt(results_file, reason)}
        record["results"] = results
    return record


def plan(out: Path, combos: list[dict], retry_failed: bool = False) -> tuple[list[dict], list[dict]]:
    """Split parameter sets into (to run, already done) given what ``out`` holds.

    Finished runs are done; failed ones (a corrupt run file included) too, unless ``retry_failed``.
    """
    runs = out / "runs"
    todo, done = [], []
    for params in combos:
        with warnings.catch_warnings():  # collect() reports corrupt files; plan only sorts them
            warnings.simplefilter("ignore", CorruptRunFileWarning)
            record = read_run(runs, run_id(params))
        if record is None or (retry_failed and record["status"] != STATUS_OK):
            todo.append(params)
        else:
            done.append(params)
    return todo, done


def _flatten(prefix: str, value, rows: list) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), item, rows)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        rows.append((prefix, float(value)))
    elif isinstance(value, str):
        rows.append((prefix, value))
    else:
        rows.append((prefix, json.dumps(value)))


def collect(out: Path) -> pd.DataFrame:
    """One row per run and result key (nested keys joined with dots), parameters as columns.

    A run whose files cannot be read gets one row with status ``"corrupt-file"`` and the file
    named under ``error`` (and a :class:`CorruptRunFileWarning`); it never stops the table.
    """
    runs = out / "runs"
    rows = []
    for status_file in sorted(runs.glob("*.status.json")) if runs.exists() else []:
        record = read_run(runs, status_file.name[: -len(".status.json")])
        base = {"run_id": record["run_id"], "status": record["status"], **(record["params"] or {})}
        if record["status"] == STATUS_OK:
            pairs: list = []
            _flatten("", record["results"], pairs)
            for key, value in pairs:
                rows.append({**base, "key": key, "value": value})
        else:
            rows.append({**base, "key": None, "value": None, "error": record.get("error")})
    return pd.DataFrame(rows)


def write_table(out: Path) -> pd.DataFrame:
    """Rewrite ``OUT/results.csv`` (and ``.parquet`` if pyarrow is present) atomically."""
    table = collect(out)
    _atomic_write_text(out / "results.csv", table.to_csv(index=False))
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - pyarrow is optional
        with atomic_path(out / "results.parquet") as tmp:
            table.astype({"value": str}).to_parquet(tmp)
    return table


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


def _make_out(out: Path) -> None:
    """Create ``out/runs`` and prove a file can be written there (else nothing new is left)."""
    created = [p for p in (out / "runs", *(out / "runs").parents) if not p.exists()]
    try:
        (out / "runs").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-probe"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        for folder in created:  # deepest first
            try:
                folder.rmdir()
            except OSError:
                pass
        raise type(exc)(exc.errno, f"Output folder {out} is not writable ({exc.strerror or exc}). "
                                   "Choose another --out.") from None


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
    """
    notebook, out = check_sweep(notebook, grid, out, jobs, timeout, dask)
    return _run_checked(notebook, grid, out, jobs, retry_failed, dask, timeout, progress)


def _run_checked(notebook: Path, grid: dict, out: Path, jobs: int, retry_failed: bool, dask: str | None,
                 timeout: float | None, progress: bool) -> pd.DataFrame:
    combos = expand_grid(grid)
    _make_out(out)
    todo, done = plan(out, combos, retry_failed)
    bar = progress_bar(total=len(combos), initial=len(done), unit="run", progress=progress, file=sys.stderr)
    failed = 0

    def finished(record):
        nonlocal failed
        failed += record["status"] != STATUS_OK
        bar.set_postfix(failed=failed, remaining=bar.total - bar.n - 1)
        bar.update()
        write_table(out)

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")
    args = [(str(notebook), str(out), params, timeout) for params in todo]
    try:
        if dask:
            _run_dask(dask, jobs, args, finished)
        elif jobs <= 1:
            for a in args:
                finished(execute_run(*a))
        else:
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
    finally:
        bar.close()
        table = _write_final_table(out)  # from the run files on disk: every finished run, whatever stopped us
    return table


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


def load(out) -> pd.DataFrame:
    """The tidy results table of a sweep folder (rebuilt from the run files).

    A run file that cannot be read is reported (:class:`CorruptRunFileWarning`) and its run
    listed with status ``"corrupt-file"``; it never stops the table.
    """
    out = Path(out)
    if not (out / "runs").is_dir():
        raise FileNotFoundError(errno.ENOENT, f"{out} holds no sweep ({out / 'runs'} does not exist); give the "
                                              "--out folder of a sweep.")
    return collect(out)


def plot_distribution(table: pd.DataFrame, key: str, by: str, ax=None):
    """Box and strip plot of result ``key`` over the values of parameter ``by``."""
    import matplotlib.pyplot as plt

    from ..plotting import box_strip

    data = table[(table["key"] == key) & (table["status"] == STATUS_OK)].astype({"value": float})
    if data.empty:
        raise ValueError(f"No finished run has result {key!r}; keys: {sorted(table['key'].dropna().unique())}.")
    ax = box_strip(ax or plt.subplots(figsize=(6, 4))[1], data, by, "value")
    ax.set(title=f"{key} over {data['run_id'].nunique()} runs", xlabel=by, ylabel=key)
    return ax


# --------------------------------------------------------------------------------------
# Command line


def _parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m helpers.workbook.sweep", description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("-p", "--param", nargs="+", action="append", default=[], metavar=("NAME", "VALUE"),
                        help="a parameter and its values: literals or ranges start:stop[:step]")
    parser.add_argument("--grid", type=Path,
                        help="a YAML or JSON file {name: [values]} (merged with -p; a name in one place only)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel runs (processes or Dask workers)")
    parser.add_argument("--out", type=Path, required=True, help="sweep folder (runs/, results.csv)")
    parser.add_argument("--retry-failed", action="store_true", help="run failed runs again")
    parser.add_argument("--dask", metavar="ADDRESS", help="'local' for a LocalCluster, or tcp://host:8786")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per cell (papermill); default: no limit")
    return parser.parse_args(argv)


def read_grid_file(path) -> dict:
    """The ``{name: [values]}`` mapping of a YAML (``.yaml``/``.yml``) or JSON grid file, checked.

    Raises ``FileNotFoundError`` for a missing file and ``ValueError``/``TypeError`` naming the
    file, the key and the fix for a file that is not valid JSON/YAML, not a mapping, or has a
    value that is not a non-empty list.

    Examples
    --------
    >>> import tempfile
    >>> grid = Path(tempfile.mkdtemp()) / "grid.json"
    >>> _ = grid.write_text('{"seed": [0, 1], "method": ["zca"]}')
    >>> read_grid_file(grid)
    {'seed': [0, 1], 'method': ['zca']}
    """
    path = Path(path)
    yaml_file = path.suffix in (".yaml", ".yml")
    kind = "YAML" if yaml_file else "JSON"
    example = "seed: [0, 1, 2]" if yaml_file else '{"seed": [0, 1, 2]}'
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, f"Grid file {path} does not exist; give the path of a {kind} file "
                                              f"such as {example}.")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"Grid file {path} cannot be read ({exc}); give a UTF-8 {kind} file "
                         f"such as {example}.") from None
    if yaml_file:
        import yaml

        try:
            loaded = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            raise ValueError(f"Grid file {path} is not valid YAML{at} ({getattr(exc, 'problem', exc)}); "
                             f"write one name per line: {example}.") from None
    else:
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"Grid file {path} is not valid JSON at line {exc.lineno}, column {exc.colno} "
                             f"({exc.msg}); write {example} (use .yaml for a YAML file).") from None
    if not isinstance(loaded, dict) or not loaded:
        raise ValueError(f"Grid file {path} must hold a non-empty mapping {{name: [values]}}, e.g. {example}; "
                         f"it holds {type(loaded).__name__} {str(loaded)[:60]}.")
    for name, values in loaded.items():
        if not isinstance(name, str):
            raise TypeError(f"Grid file {path}: key {name!r} is not a parameter name; quote it or fix it.")
        if not isinstance(values, list):
            fix = f'"{name}": [{json.dumps(values)}]' if not yaml_file else f"{name}: [{values!r}]"
            raise TypeError(f"Grid file {path}: {name!r} must be a list of values, not {values!r} "
                            f"({type(values).__name__}); write {fix}.")
        if not values:
            raise ValueError(f"Grid file {path}: {name!r} has an empty list; give at least one value "
                             "or remove the key.")
    return loaded


def grid_from_args(args) -> dict:
    """The grid of the command line: the ``--grid`` file merged with every ``-p`` (a name in one place)."""
    return _grid_and_origin(args)[0]


def _grid_and_origin(args) -> tuple[dict, dict]:
    grid: dict = {}
    origin: dict = {}
    if args.grid is not None:
        grid.update(read_grid_file(args.grid))
        origin.update(dict.fromkeys(grid, str(args.grid)))
    from_file = set(grid)
    seen: set = set()
    for name, *tokens in args.param:
        if not tokens:
            raise ValueError(f"Parameter {name!r} has no values; give at least one after its name.")
        if name in seen:
            raise ValueError(f"Parameter {name!r} is given by -p twice; give all its values after one -p "
                             f"(e.g. -p {name} 0 1 5), so that none is dropped.")
        if name in from_file:
            raise ValueError(f"Parameter {name!r} is in {args.grid} and given by -p; set it in one place only.")
        seen.add(name)
        grid[name] = parse_values(tokens)
        origin[name] = f"-p {name}"
    if not grid:
        raise ValueError("Nothing to sweep: give -p NAME VALUES... or --grid FILE.")
    return grid, origin


def _print_warning(message, category, filename, lineno, file=None, line=None):
    print(f"warning: {message}", file=sys.stderr)


def main(argv=None) -> int:
    args = _parse_args(argv)
    try:  # every mistake of the command line is refused here, before any folder is made
        grid, origin = _grid_and_origin(args)
        notebook, out = check_sweep(args.notebook, grid, args.out, args.jobs, args.timeout, args.dask, origin)
    except (ValueError, TypeError, OSError) as exc:
        text = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc  # without "[Errno 2]"
        print(f"error: {text}", file=sys.stderr)
        return 2
    with warnings.catch_warnings():
        warnings.showwarning = _print_warning
        warnings.simplefilter("default", CorruptRunFileWarning)
        try:
            table = _run_checked(notebook, grid, out, args.jobs, args.retry_failed, args.dask, args.timeout,
                                 progress=True)
        except KeyboardInterrupt:
            print(f"interrupted; finished runs are kept in {args.out}/results.csv", file=sys.stderr)
            return 130
        except OSError as exc:  # disk full, output removed or made read-only during the sweep
            print(f"error: could not write the sweep's files in {args.out}: {exc}. Runs that finished before are "
                  "kept in runs/; free space or fix the folder, then rerun the same command (finished runs are "
                  "skipped).", file=sys.stderr)
            return 2
    # judge this command's grid only; the folder's table may hold runs of other grids
    ids = {run_id(params) for params in expand_grid(grid)}
    runs = table.drop_duplicates("run_id") if not table.empty else table
    runs = runs[runs["run_id"].isin(ids)] if not runs.empty else runs
    n_failed = int((runs["status"] != STATUS_OK).sum()) if not runs.empty else 0
    corrupt = int((runs["status"] == STATUS_CORRUPT).sum()) if not runs.empty else 0
    hint = f" ({corrupt} with unreadable run files: --retry-failed runs them again)" if corrupt else ""
    print(f"{len(runs)} runs of this grid in {args.out}: {len(runs) - n_failed} ok, {n_failed} failed{hint}")
    return 1 if n_failed else 0


if __name__ == "__main__":
    sys.exit(main())
