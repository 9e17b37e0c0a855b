"""A sweep's folder: run ids, each run's status and results files, the tidy results table.

A sweep folder ``OUT`` holds ``runs/<run-id>.ipynb`` (the executed notebook),
``runs/<run-id>.json`` (its results JSON, an object) and ``runs/<run-id>.status.json`` (its
status record), and ``results.csv``: one row per run and result key, parameters as columns,
rebuilt from the run files (:func:`collect`) and rewritten atomically (:func:`write_table`). A
run file that cannot be read never stops the table: its run is listed as ``"corrupt-file"``
with a :class:`CorruptRunFileWarning` naming the file.

A run id hashes the parameters and the code that runs (:func:`code_sha`: the notebook's code
cells, not their outputs, and the source of the ``helpers`` package its cells import), so an
edited notebook, another one swept into the same folder, or a changed package runs again
instead of being reported with the earlier results; the table's ``notebook`` and ``code_sha``
columns tell the versions apart. ``OUT/.sweep.lock`` (:func:`lock_out_folder`)
keeps a second sweep out of a folder while one is writing there.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import time
import warnings
from pathlib import Path

import pandas as pd

from ..._io import atomic_open, atomic_path, unwritable
from ...data.paths import PACKAGE

__all__ = [
    "LOCK_NAME",
    "RESERVED_NAMES",
    "STATUS_CORRUPT",
    "STATUS_OK",
    "CorruptRunFileWarning",
    "SweepBusyError",
    "check_out_folder",
    "check_unlocked",
    "code_sha",
    "collect",
    "load",
    "load_json",
    "lock_out_folder",
    "package_sha",
    "make_out_folder",
    "other_versions",
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
#: the results table's own columns: a parameter of one of these names would overwrite them
RESERVED_NAMES = ("run_id", "status", "notebook", "code_sha", "key", "value", "error")
#: the lock file a running sweep holds in its folder (:func:`lock_out_folder`)
LOCK_NAME = ".sweep.lock"


class CorruptRunFileWarning(UserWarning):
    """A run's status or results file could not be read; the run counts as failed."""


class SweepBusyError(OSError):
    """Another sweep is writing into the folder (it holds ``OUT/.sweep.lock``)."""


def package_sha() -> str:
    """12-character hash of the ``helpers`` package's source: every ``.py`` file, by relative path.

    A sweep's results depend on the package as much as on the notebook: a fixed bug in a
    helper changes the numbers a notebook prints.
    """
    root = PACKAGE
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def code_sha(notebook) -> str:
    """12-character hash of the code a run executes: the notebook's code cells, in order, and :func:`package_sha`.

    Outputs, execution counts, metadata and Markdown do not count, so re-executing or
    re-documenting a notebook keeps its sweep's runs; editing a line of its code, or of the
    ``helpers`` package, does not.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "nb.ipynb"
    >>> _ = path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["x = 1"]},
    ...                                           {"cell_type": "markdown", "source": "# x"}]}))
    >>> code_sha(path) == code_sha(path) and len(code_sha(path))
    12
    """
    cells = json.loads(Path(notebook).read_text(encoding="utf-8")).get("cells", [])
    code = ["".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code"]
    return hashlib.sha256(json.dumps([code, package_sha()]).encode()).hexdigest()[:12]


def run_id(params: dict, code: str = "") -> str:
    """Stable 12-character id of a parameter set (independent of key order) and notebook code.

    ``code`` is the notebook's :func:`code_sha`; a sweep always gives it, so that an edited
    notebook's runs get new ids (``""``: the parameters alone).

    Examples
    --------
    >>> run_id({"a": 1, "b": "x"}) == run_id({"b": "x", "a": 1})
    True
    >>> run_id({"a": 1}, "0123456789ab") == run_id({"a": 1})
    False
    """
    text = json.dumps(params, sort_keys=True, default=str) + (f"\n{code}" if code else "")
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


def check_out_folder(out: Path) -> None:
    """Refuse an output folder that is a file, sits under a file, or cannot be written; create nothing."""
    blocked = unwritable(out)
    if blocked is None:
        return
    problem, where = blocked
    if problem == "file":
        raise NotADirectoryError(errno.ENOTDIR, f"Output folder {out} is a file, not a folder. Choose another --out.")
    if problem == "under a file":
        raise NotADirectoryError(errno.ENOTDIR, f"Output folder {out} cannot be made: {where} is a file, not a "
                                                "folder. Choose another --out.")
    raise PermissionError(errno.EACCES, f"Output folder {out} is not writable: {where} does not let you "
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


def _holder(lock: Path) -> str:
    """Who holds ``lock``, as its file says: ``"pid N, since HH:MM:SS"``."""
    try:
        info = json.loads(lock.read_text(encoding="utf-8"))
        return f"pid {int(info['pid'])}, since {info['started']}"
    except (OSError, ValueError, TypeError, KeyError):
        return "pid unknown"


def _busy(out: Path, lock: Path) -> SweepBusyError:
    return SweepBusyError(errno.EBUSY, f"Another sweep ({_holder(lock)}) is writing into {out}; wait for it to "
                                       "finish, or give this one another --out. (The lock is "
                                       f"{lock.name} there; it is released when that sweep's processes end.)")


def check_unlocked(out: Path) -> None:
    """Refuse a folder another live sweep holds (its lock file is locked); creates nothing."""
    lock = Path(out) / LOCK_NAME
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:  # no lock file: no sweep ever ran here, or it cannot be read (then locking fails later)
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _busy(Path(out), lock) from None
    except OSError:  # a file system without flock: lock_out_folder says so
        pass
    finally:
        os.close(fd)  # closing drops the probe's own lock


def lock_out_folder(out: Path) -> int:
    """Take ``OUT/.sweep.lock`` for this sweep; returns its file descriptor (close it to release).

    The lock is an ``flock`` on the file: the system drops it when the last process holding it
    ends, however it ends (a ``kill -9`` included), so a killed sweep never blocks the next
    one. The file names the holder's pid for the message of a sweep that is refused; it is
    left in place (removing it would let two sweeps lock two different files).

    Raises
    ------
    SweepBusyError
        Another sweep holds the lock; the message names the folder and its pid.
    """
    lock = Path(out) / LOCK_NAME
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise _busy(Path(out), lock) from None
    except OSError as exc:  # the file system cannot lock files (some network or FUSE mounts)
        warnings.warn(f"{out} cannot be locked ({exc.strerror or exc}); make sure no other sweep writes into it "
                      "while this one runs.", stacklevel=3)
    os.ftruncate(fd, 0)
    os.write(fd, json.dumps({"pid": os.getpid(), "started": time.strftime("%H:%M:%S")}).encode())
    return fd


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


def _json_kind(value) -> str:
    """The JSON name of a loaded value's type (``list``, ``number``, ...)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {list: "list", str: "string", type(None): "null"}.get(type(value), type(value).__name__)


def read_run(runs: Path, rid: str) -> dict | None:
    """The status record of run ``rid`` in ``runs`` (``None``: never finished).

    A status file that is not a valid record, or a run recorded as ok whose results file is
    missing, not valid JSON or not a JSON object, gives a record with status ``"corrupt-file"`` and, under
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
        if reason is None and not isinstance(results, dict):
            reason = f"it holds a JSON {_json_kind(results)}, not an object {{key: value}}"
        if reason is not None:
            return {**record, "status": STATUS_CORRUPT, "error": _corrupt(results_file, reason)}
        record["results"] = results
    return record


def plan(out: Path, combos: list[dict], *, retry_failed: bool = False, code: str = "") -> tuple[list[dict], list[dict]]:
    """Split parameter sets into (to run, already done) given what ``out`` holds.

    Finished runs of the same parameters and notebook ``code`` (:func:`run_id`) are done;
    failed ones (a corrupt run file included) too, unless ``retry_failed``. A parameter set
    given twice is planned once.
    """
    runs = Path(out) / "runs"
    todo, done, seen = [], [], set()
    for params in combos:
        rid = run_id(params, code)
        if rid in seen:
            continue
        seen.add(rid)
        with warnings.catch_warnings():  # collect() reports corrupt files; plan only sorts them
            warnings.simplefilter("ignore", CorruptRunFileWarning)
            record = read_run(runs, rid)
        if record is None or (retry_failed and record["status"] != STATUS_OK):
            todo.append(params)
        else:
            done.append(params)
    return todo, done


def other_versions(out: Path, todo: list[dict], code: str) -> dict:
    """``{notebook name or "unknown": count}`` of the runs in ``out`` with the parameters of a run in
    ``todo`` but other notebook code: the runs an edited (or another) notebook now does again."""
    wanted = {json.dumps(p, sort_keys=True, default=str) for p in todo}
    found: dict = {}
    for path in sorted((Path(out) / "runs").glob("*.status.json")):
        record, reason = load_json(path)
        if reason is not None or not isinstance(record, dict) or not isinstance(record.get("params"), dict):
            continue
        if record.get("code_sha") != code and json.dumps(record["params"], sort_keys=True, default=str) in wanted:
            name = record.get("notebook") or "unknown"
            found[name] = found.get(name, 0) + 1
    return found


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

    The columns: ``run_id``, ``status``, ``notebook`` and ``code_sha`` (the notebook's file name
    and :func:`code_sha` of the code that ran), one per parameter, ``key``, ``value`` and, for a
    failed run, ``error``. A run whose files cannot be read gets one row with status
    ``"corrupt-file"`` and the file named under ``error`` (and a :class:`CorruptRunFileWarning`);
    it never stops the table. A parameter named like one of the table's own columns (a folder
    written before such names were refused) is shown as ``param.NAME``.
    """
    runs = Path(out) / "runs"
    rows = []
    for status_file in sorted(runs.glob("*.status.json")) if runs.exists() else []:
        record = read_run(runs, status_file.name[: -len(".status.json")])
        params = {f"param.{k}" if k in RESERVED_NAMES else k: v for k, v in (record["params"] or {}).items()}
        base = {"run_id": record["run_id"], "status": record["status"], "notebook": record.get("notebook"),
                "code_sha": record.get("code_sha"), **params}
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
