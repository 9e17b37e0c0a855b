"""Papermill parameter sweeps: parallel, resumable, and never losing a finished result.

Command line::

    python -m helpers.workbook.sweep notebooks/03_wisconsin_cosine_knn.ipynb \\
        -p random_state 0:50 -p method cholesky zca --jobs 2 --out build/sweeps/03

Each run executes the notebook with papermill into ``OUT/runs/<run-id>.ipynb`` with its
parameters; the notebook writes its results JSON to ``OUT/runs/<run-id>.json`` through its
``results_path`` parameter. The run id is a stable hash of the parameters, so rerunning
the same command skips finished runs; ``--retry-failed`` runs the failed ones again.
After every finished run the tidy table ``OUT/results.csv`` (one row per run and result
key, parameters as columns) is rewritten atomically. ``--dask local`` or
``--dask tcp://scheduler:8786`` runs the same sweep on a Dask cluster.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import itertools
import json
import os
import shutil
import sys
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

import pandas as pd

from .._io import atomic_open, atomic_path, progress_bar
from .execute import execute_notebook

__all__ = ["expand_grid", "parse_values", "run_id", "plan", "run_sweep", "load", "plot_distribution", "main"]

STATUS_OK = "ok"
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
    for name, values in grid.items():
        if not isinstance(values, list) or not values:
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


def validate_grid(notebook: Path, grid: dict) -> dict:
    """Check grid names and value types against the notebook's ``parameters`` cell.

    Returns the notebook's parameters as papermill's ``inspect_notebook`` reports them.
    """
    import papermill as pm

    declared = pm.inspect_notebook(str(notebook))
    if not declared:
        raise ValueError(f"{notebook} has no cell tagged 'parameters'; papermill cannot inject values.")
    for name, values in grid.items():
        if name not in declared:
            raise ValueError(
                f"Unknown parameter {name!r} for {notebook.name}; its parameters are "
                f"{', '.join(sorted(declared))}."
            )
        if name == "results_path":
            raise ValueError("results_path is set by the sweep for every run; do not sweep it.")
        default = _literal(declared[name]["default"])
        for value in values:
            if default is None or value is None or isinstance(value, type(default)):
                continue
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                continue
            raise ValueError(
                f"Parameter {name!r} of {notebook.name} takes {_type_name(default)} values "
                f"(default {default!r}); got {value!r} ({_type_name(value)})."
            )
    if "results_path" not in declared:
        raise ValueError(
            f"{notebook.name} declares no results_path parameter, so its runs would record no results."
        )
    return declared


# --------------------------------------------------------------------------------------
# One run (executed in a worker process or a Dask worker)


def _atomic_write_text(path: Path, text: str) -> None:
    with atomic_open(path) as fh:
        fh.write(text)


def execute_run(notebook: str, out: str, params: dict, timeout: float | None = None) -> dict:
    """Execute one run and return its status record (never raises for notebook failures)."""
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
            break
        except Exception as exc:  # classify, keep the sweep going
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


def _read_status(runs: Path, rid: str) -> dict | None:
    path = runs / f"{rid}.status.json"
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:
        return None  # a torn write from an interrupted run: run it again


def plan(out: Path, combos: list[dict], retry_failed: bool = False) -> tuple[list[dict], list[dict]]:
    """Split parameter sets into (to run, already done) given what ``out`` holds."""
    runs = out / "runs"
    todo, done = [], []
    for params in combos:
        status = _read_status(runs, run_id(params))
        if status is not None and status["status"] == STATUS_OK and (runs / f"{run_id(params)}.json").exists():
            done.append(params)
        elif status is not None and not retry_failed:
            done.append(params)  # failed before: recorded, not retried unless asked
        else:
            todo.append(params)
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
    """One row per run and result key (nested keys joined with dots), parameters as columns."""
    runs = out / "runs"
    rows = []
    for status_file in sorted(runs.glob("*.status.json")) if runs.exists() else []:
        try:
            record = json.loads(status_file.read_text())
        except json.JSONDecodeError:
            continue
        base = {"run_id": record["run_id"], "status": record["status"], **record["params"]}
        results_file = runs / f"{record['run_id']}.json"
        if record["status"] == STATUS_OK and results_file.exists():
            pairs: list = []
            _flatten("", json.loads(results_file.read_text()), pairs)
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


def _check_writable(out: Path) -> None:
    try:
        (out / "runs").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-probe"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise SystemExit(f"Output directory {out} is not writable: {exc}. Choose another --out.") from None


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
    """Run every parameter set of ``grid`` not already finished in ``out``; return the table."""
    notebook = Path(notebook).resolve()
    if not notebook.exists():
        raise ValueError(f"Notebook {notebook} does not exist.")
    out = Path(out).resolve()
    combos = expand_grid(grid)
    validate_grid(notebook, grid)
    _check_writable(out)
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
            with ProcessPoolExecutor(max_workers=jobs) as pool:
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
        table = write_table(out)
    return table


def _run_dask(address: str, jobs: int, args: list, finished) -> None:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is an optional extra
        raise SystemExit("--dask needs dask.distributed: pip install 'covsim-workbook[sweep]'.") from None
    if address == "local":
        cluster = LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(address)
    try:
        futures = [client.submit(execute_run, *a, pure=False) for a in args]
        for future in as_completed(futures):
            finished(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def load(out) -> pd.DataFrame:
    """The tidy results table of a sweep folder (rebuilt from the run files)."""
    return collect(Path(out))


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
    parser.add_argument("--timeout", type=float, default=None, help="seconds per cell (papermill)")
    return parser.parse_args(argv)


def grid_from_args(args) -> dict:
    grid: dict = {}
    if args.grid is not None:
        text = args.grid.read_text()
        if args.grid.suffix in (".yaml", ".yml"):
            import yaml

            loaded = yaml.safe_load(text)
        else:
            loaded = json.loads(text)
        if not isinstance(loaded, dict):
            raise ValueError(f"{args.grid} must hold a mapping {{name: [values]}}.")
        grid.update({k: v if isinstance(v, list) else [v] for k, v in loaded.items()})
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
    if not grid:
        raise ValueError("Nothing to sweep: give -p NAME VALUES... or --grid FILE.")
    return grid


def main(argv=None) -> int:
    args = _parse_args(argv)
    try:
        grid = grid_from_args(args)
        table = run_sweep(args.notebook, grid, args.out, args.jobs, args.retry_failed, args.dask, args.timeout)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
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
    print(f"{len(runs)} runs of this grid in {args.out}: {len(runs) - n_failed} ok, {n_failed} failed")
    return 1 if n_failed else 0


if __name__ == "__main__":
    sys.exit(main())
