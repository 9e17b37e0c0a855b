"""A sweep's folder: run ids, each run's status and results files, the tidy results table.

A sweep folder ``OUT`` holds ``runs/<run-id>.ipynb`` (the executed notebook),
``runs/<run-id>.json`` (its results JSON) and ``runs/<run-id>.status.json`` (its status
record), and ``results.csv``: one row per run and result key, parameters as columns, rebuilt
from the run files (:func:`collect`) and rewritten atomically (:func:`write_table`). A run file
that cannot be read never stops the table: its run is listed as ``"corrupt-file"`` with a
:class:`CorruptRunFileWarning` naming the file.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import warnings
from pathlib import Path

import pandas as pd

from ..._io import atomic_open, atomic_path

__all__ = [
    "STATUS_CORRUPT",
    "STATUS_OK",
    "CorruptRunFileWarning",
    "check_out_folder",
    "collect",
    "load",
    "load_json",
    "make_out_folder",
    "plan",
    "plot_distribution",
    "read_run",
    "run_id",
    "runs_of_grid",
    "write_table",
    "write_text",
]

STATUS_OK = "ok"
#: a run whose status or results file cannot be read: reported, counted as failed, rerun by --retry-failed
STATUS_CORRUPT = "corrupt-file"


class CorruptRunFileWarning(UserWarning):
    """A run's status or results file could not be read; the run counts as failed."""


def run_id(params: dict) -> str:
    """Stable 12-character id of a parameter set (independent of key order).

    Examples
    --------
    >>> run_id({"a": 1, "b": "x"}) == run_id({"b": "x", "a": 1})
    True
    """
    text = json.dumps(params, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a reader sees the old file or the new one, never half)."""
    with atomic_open(path) as fh:
        fh.write(text)


def load_json(path: Path):
    """``(data, None)``, or ``(None, reason)`` for a file that cannot be read or is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------------------
# The output folder


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_out_folder(out: Path) -> None:
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


def make_out_folder(out: Path) -> None:
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


# --------------------------------------------------------------------------------------
# Run files


def _corrupt(path: Path, reason: str) -> str:
    message = (f"{path} cannot be read ({reason}); its run counts as failed. Rerun the sweep with "
               "--retry-failed to run it again.")
    warnings.warn(message, CorruptRunFileWarning, stacklevel=3)
    return message


def _params_from_notebook(path: Path) -> dict | None:
    """A run's parameters as papermill recorded them in its executed notebook (``None`` if unknown)."""
    data, reason = load_json(path) if path.exists() else (None, "missing")
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
    record, reason = load_json(path)
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
        results, reason = load_json(results_file)
        if reason is not None:
            return {**record, "status": STATUS_CORRUPT, "error": _corrupt(results_file, reason)}
        record["results"] = results
    return record


def plan(out: Path, combos: list[dict], retry_failed: bool = False) -> tuple[list[dict], list[dict]]:
    """Split parameter sets into (to run, already done) given what ``out`` holds.

    Finished runs are done; failed ones (a corrupt run file included) too, unless ``retry_failed``.
    """
    runs = Path(out) / "runs"
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


# --------------------------------------------------------------------------------------
# The results table


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
    runs = Path(out) / "runs"
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
    out = Path(out)
    table = collect(out)
    write_text(out / "results.csv", table.to_csv(index=False))
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - pyarrow is optional
        with atomic_path(out / "results.parquet") as tmp:
            table.astype({"value": str}).to_parquet(tmp)
    return table


def runs_of_grid(table: pd.DataFrame, ids) -> pd.DataFrame:
    """One row per run (its first result row) of the runs in ``ids``: a folder may hold other grids' runs too.

    Examples
    --------
    >>> table = pd.DataFrame({"run_id": ["a", "a", "b"], "status": ["ok", "ok", "ok"], "key": ["x", "y", "x"]})
    >>> list(runs_of_grid(table, {"a"})["run_id"]), len(runs_of_grid(pd.DataFrame(), {"a"}))
    (['a'], 0)
    """
    if table.empty:
        return table
    runs = table.drop_duplicates("run_id")
    return runs[runs["run_id"].isin(set(ids))]


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
    """Box and strip plot of result ``key`` over the values of parameter ``by``.

    Parameters
    ----------
    table : DataFrame
        A results table (:func:`load`); only finished runs are drawn.
    key : str
        A result key (nested keys joined with dots).
    by : str
        The parameter whose values make the boxes.
    ax : matplotlib Axes, optional
        Where to draw; a new 6 x 4 figure otherwise.

    Returns
    -------
    matplotlib Axes
        Titled with the key and the number of runs.

    Raises
    ------
    ValueError
        No finished run has ``key`` (the keys there are listed).
    """
    import matplotlib.pyplot as plt

    from ...plotting import box_strip

    data = table[(table["key"] == key) & (table["status"] == STATUS_OK)].astype({"value": float})
    if data.empty:
        raise ValueError(f"No finished run has result {key!r}; keys: {sorted(table['key'].dropna().unique())}.")
    ax = box_strip(ax or plt.subplots(figsize=(6, 4))[1], data, by, "value")
    ax.set(title=f"{key} over {data['run_id'].nunique()} runs", xlabel=by, ylabel=key)
    return ax
