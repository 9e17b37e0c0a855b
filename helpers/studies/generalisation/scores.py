"""The study's computation: every method on every outer fold of every data set, stored and checked.

One task is one (data set, repeat, fold): every method of :data:`~.readings.METHOD_LABELS` is
tuned on the fold's training rows and scored on its test rows (:func:`.readings.score_fold`).
A finished task is written at once to its own part file, atomically, under a folder named
by the protocol's hash, so a killed run loses at most the folds in flight and a rerun
resumes; tasks run in parallel in worker processes or on a Dask cluster given its address (the
workbook's one task engine, :func:`helpers._tasks.run_tasks`, which also runs the sweeps), and
the scores do not depend on the number of workers: every random choice is seeded by the
protocol, never by the order in which tasks finish.

:func:`run_scores` returns the tidy table (one row per data set, repeat, fold and method);
:func:`write_scores` stores it, with the protocol's SHA-256 and the package versions, under
``data/results/``; :func:`read_scores` reads it back and refuses a table made under another
protocol; :func:`recompute_sample` recomputes a random sample of stored folds and lists
every difference.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..._dask import check_dask_address
from ..._io import atomic_open, atomic_path, progress_bar
from ..._tasks import run_tasks
from ...data.paths import DATA_DIR
from .preregistration import EDITION, EDITIONS, IN_PROGRESS
from .readings import METHOD_LABELS, ORDER_DEPENDENT, column_orders, score_fold
from .tuning import grids_from_protocol


def scores_path(edition: int = EDITION) -> Path:
    """Where an edition's scores are stored (with ``scores.json``, their record, and ``scores_datasets.csv``).

    Examples
    --------
    >>> scores_path(2).parent.name, scores_path(2).name
    ('generalisation_v2', 'scores.csv.gz')
    """
    if edition not in EDITIONS + IN_PROGRESS:
        raise ValueError(f"edition must be one of {EDITIONS + IN_PROGRESS} (the editions kept and those in "
                         f"progress), not {edition!r}.")
    return DATA_DIR / "results" / f"generalisation_v{edition}" / "scores.csv.gz"


#: where the present edition's scores are stored
SCORES_PATH = scores_path()

#: the hierarchical model's posteriors, computed from the stored scores (:func:`write_hierarchical`)
HIERARCHICAL_PATH = SCORES_PATH.with_name("hierarchical.json")

#: the columns of the stored table whose values must come out identical on a rerun
SCORE_COLUMNS = ["accuracy", "balanced_accuracy", "n_train", "n_test", "params", "edges", "order_min", "order_max"]
#: every column of the stored table, in order
COLUMNS = ["dataset", "repeat", "fold", "method", *SCORE_COLUMNS, "fit_seconds"]


def outer_folds(y, protocol: dict) -> list:
    """The protocol's outer folds of one data set: ``[(repeat, fold, train, test), ...]``.

    Repeated stratified k-fold with the protocol's folds, repeats and seed
    (``RepeatedStratifiedKFold``), the same for every method.
    """
    from sklearn.model_selection import RepeatedStratifiedKFold

    p = protocol["protocol"]
    k, r = int(p["outer_folds"]), int(p["repeats"])
    cv = RepeatedStratifiedKFold(n_splits=k, n_repeats=r, random_state=int(p["random_state"]))
    return [(i // k, i % k, tr, te) for i, (tr, te) in enumerate(cv.split(np.zeros((len(y), 1)), y))]


def fingerprint(X, y) -> str:
    """The first 12 hex digits of the SHA-256 of a data set's values and labels (parts of other data never match).

    Examples
    --------
    >>> fingerprint(np.eye(2), np.array(["a", "b"])) == fingerprint(np.eye(2), np.array(["a", "b"]))
    True
    >>> fingerprint(np.eye(2), np.array(["a", "b"])) == fingerprint(np.eye(2), np.array(["b", "a"]))
    False
    """
    digest = hashlib.sha256(np.ascontiguousarray(X, dtype=np.float64).tobytes())
    digest.update("\x1f".join(map(str, np.asarray(y).tolist())).encode())
    return digest.hexdigest()[:12]


def _write_atomic(frame: pd.DataFrame, path: Path, **options) -> None:
    """Write a CSV beside ``path``, then move it into place (:func:`helpers._io.atomic_path`): never a torn file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, **options)


class ScoringError(RuntimeError):
    """Some (data set, fold, method) could not be scored; the others were.

    Attributes
    ----------
    failures : list of dict
        ``dataset, repeat, fold, method, error`` of each failure.
    table : DataFrame
        The scores that were computed (every fold without a failure), as :func:`run_scores` returns them.
    """

    def __init__(self, message: str, failures: list, table: pd.DataFrame):
        super().__init__(message)
        self.failures, self.table = failures, table


@dataclass(frozen=True)
class FoldTask:
    """One outer fold of one data set to score with every method: what a worker needs, in one object.

    ``X``, ``y`` the data set; ``train``, ``test`` the fold's row indices; ``grids`` and
    ``orders`` the protocol's tuning grids and column orders; ``part`` the file the finished
    fold is written to (``None``: not stored).
    """

    dataset: str
    repeat: int
    fold: int
    X: np.ndarray
    y: np.ndarray
    train: np.ndarray
    test: np.ndarray
    methods: list
    grids: object
    orders: object
    part: Path | None


def _task(task: FoldTask):
    """One outer fold, every method: ``(frame, failures)``; the part file is written only when none failed.

    Each method is scored on its own (:func:`.readings.score_fold` scores them one after the
    other, independently), so a failing method is named and the others still run. BLAS runs on
    one thread here whatever the process was started with: the stored scores were made so, and
    a multi-threaded BLAS sums in another order, which can move a near tie of a tuning.
    """
    from threadpoolctl import threadpool_limits

    t = task
    records, failures = [], []
    with threadpool_limits(1):
        for method in t.methods:
            try:
                records += score_fold(t.X, t.y, t.train, t.test, [method], t.grids, t.orders)
            except Exception as exc:  # noqa: BLE001 - reported with its data set, fold and method by run_scores
                text = " ".join(str(exc).split()) or "(no message)"
                failures.append({"dataset": t.dataset, "repeat": t.repeat, "fold": t.fold, "method": method,
                                 "error": f"{type(exc).__name__}: {text}"})
    if not records:
        return None, failures
    frame = pd.DataFrame.from_records(records)
    frame.insert(0, "fold", t.fold)
    frame.insert(0, "repeat", t.repeat)
    frame.insert(0, "dataset", t.dataset)
    frame = frame[COLUMNS]
    if t.part is not None and not failures:
        _write_atomic(frame, t.part)
    return frame, failures


def _read_part(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, na_values=[""],
                       dtype={"dataset": str, "method": str, "params": str, "edges": str})


#: the columns of a part that are empty by design (the column-order spread of a method without orders)
_MAY_BE_EMPTY = ["order_min", "order_max"]


def _stored_part(part: Path, dataset: str, repeat: int, fold: int, methods: list) -> pd.DataFrame | None:
    """The part file of a finished fold, or ``None`` (with a warning) when it cannot be trusted: then it is recomputed.

    A part is trusted when it reads as a CSV with exactly :data:`COLUMNS`, one row per method
    asked, all of this data set, repeat and fold, every field filled (but the column-order
    spread, empty by design for most methods) and finite scores in [0, 1].
    """
    if part.is_dir():
        raise IsADirectoryError(f"{part} is a folder where a part file of finished scores belongs; remove it "
                                "and run again (the fold is then recomputed).")
    try:
        frame = _read_part(part)
    except Exception as exc:  # noqa: BLE001 - any unreadable part is recomputed
        problem = f"it cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
    else:
        acc = pd.to_numeric(frame.get("accuracy", pd.Series(dtype=object)), errors="coerce")
        if list(frame.columns) != COLUMNS:
            problem = f"its columns {list(frame.columns)} are not those of this code ({COLUMNS})"
        elif set(frame["method"]) != set(methods):
            return None  # made for another choice of methods: recomputed for this one, as before
        elif len(frame) != len(methods):
            problem = "it repeats a method"
        elif not ((frame["dataset"] == dataset) & (frame["repeat"] == repeat) & (frame["fold"] == fold)).all():
            where = frame[["dataset", "repeat", "fold"]].drop_duplicates().values.tolist()
            problem = f"it holds scores of another fold ({where})"
        elif not (acc.between(0, 1).all()):
            problem = "its accuracies are not all numbers in [0, 1]"
        elif (gaps := frame.drop(columns=_MAY_BE_EMPTY).isna()).any(axis=None):
            rows = frame.loc[gaps.any(axis=1), "method"].tolist()
            problem = f"the row(s) of {rows} lack fields (the file was cut short?)"
        elif not pd.to_numeric(frame["balanced_accuracy"], errors="coerce").between(0, 1).all():
            problem = "its balanced accuracies are not all numbers in [0, 1]"
        else:
            return frame
    warnings.warn(f"Part file {part.parent.name}/{part.name} is not a finished fold of this run: {problem}; "
                  "recomputing that fold (the file is replaced).", UserWarning, stacklevel=3)
    return None


def _check_dataset(name, X, y, n_folds: int):
    """``(X, y)`` of one data set as floats and labels, or an error naming the set and the fix."""
    if not isinstance(name, str) or not name.strip() or any(c in name for c in "/\\\0") or name in (".", ".."):
        raise ValueError(f"data set names must be non-empty strings without path separators (they name the parts "
                         f"folders); got {name!r}.")
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"data set {name}: X must be numbers ({exc}); encode or drop its text columns.") from None
    y = np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or len(y) != len(X) or X.shape[1] == 0:
        raise ValueError(f"data set {name}: X must be 2-D with at least one column and y one label per row; got X "
                         f"{X.shape}, y {y.shape}.")
    bad = ~np.isfinite(X)
    if bad.any():
        rows, cols = np.nonzero(bad)
        raise ValueError(f"data set {name}: X holds {int(bad.sum())} missing or infinite values (first at row "
                         f"{int(rows[0])}, column {int(cols[0])}); drop or impute them before scoring.")
    missing = [i for i, v in enumerate(y.tolist()) if v is None or (isinstance(v, float) and np.isnan(v))
               or str(v).strip() in ("", "nan", "None", "<NA>")]
    if missing:
        raise ValueError(f"data set {name}: {len(missing)} labels stand for a missing class (first at row "
                         f"{missing[0]}: {y[missing[0]]!r}); drop those rows before scoring.")
    y = y.astype(str) if y.dtype == object else y
    classes, counts = np.unique(y.astype(str), return_counts=True)
    small = {str(c): int(n) for c, n in zip(classes, counts) if n < n_folds}
    if len(classes) < 2 or small:
        raise ValueError(f"data set {name}: stratified {n_folds}-fold cross-validation needs at least two classes of "
                         f"{n_folds} rows or more; classes {dict(zip(map(str, classes), map(int, counts)))}. Drop "
                         "the small classes first (the study drops classes below its minimum size).")
    return X, y


def run_scores(datasets: Mapping, protocol: dict, methods=None, *, cells=None, folder=None,
               n_jobs: int | None = None, dask: str | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Every method on every outer fold of every data set: the tidy table of the study.

    Parameters
    ----------
    datasets : mapping of {name: (X, y)}
        Raw features (float) and labels.
    protocol : dict
        :func:`load_protocol` (folds, repeats, seed, grids, column orders).
    methods : sequence of str, optional
        Default: every method of :data:`METHOD_LABELS`.
    cells : iterable of (dataset, repeat, fold), optional
        Only these outer folds (for :func:`recompute_sample`); default: all.
    folder : path, optional
        Part files go there, one per finished fold (under ``<name>-<fingerprint>``, so parts
        of other data are never read), and folds already there are read instead of recomputed
        (resuming a killed run). Use one folder per protocol hash.
    n_jobs : int, optional
        Worker processes over the folds (``None``: one, two on a local Dask cluster; ``-1``: one per
        CPU); the scores do not depend on it.
    dask : str, optional
        The address of a Dask scheduler (``"tcp://host:8786"``): the folds run on its workers;
        ``"local"`` starts a local cluster of ``n_jobs`` workers.
    progress : bool, optional
        A bar with the folds done and the time left (``None``: on a terminal only).

    Returns
    -------
    DataFrame with :data:`COLUMNS`, sorted by data set (in the order given), repeat, fold and method.
    """
    methods = _check_arguments(datasets, methods, n_jobs)
    grids = grids_from_protocol(protocol)
    n_orders = int(protocol["protocol"]["column_orders"])
    wanted = None if cells is None else {(str(d), int(r), int(f)) for d, r, f in cells}
    folder = None if folder is None else Path(folder)
    done, tasks = [], []
    n_folds = int(protocol["protocol"]["outer_folds"])
    for name, (X, y) in datasets.items():
        X, y = _check_dataset(name, X, y, n_folds)
        where = None if folder is None else folder / f"{name}-{fingerprint(X, y)}"
        orders = column_orders(X.shape[1], n_orders, int(protocol["protocol"]["random_state"])) \
            if any(m in ORDER_DEPENDENT for m in methods) else None
        for repeat, fold, train, test in outer_folds(y, protocol):
            if wanted is not None and (name, repeat, fold) not in wanted:
                continue
            part = None if where is None else where / f"r{repeat}-f{fold}.csv"
            if part is not None and part.exists():
                frame = _stored_part(part, name, repeat, fold, methods)
                if frame is not None:
                    done.append(frame)
                    continue
            tasks.append((FoldTask(name, repeat, fold, X, y, train, test, methods, grids, orders, part),))
    if wanted is not None:
        _check_cells(wanted, tasks, done, protocol)
    frames, failures = list(done), []
    if dask:
        check_dask_address(dask)  # a wrong address refused in seconds, not after a hang
    with progress_bar(total=len(tasks), progress=progress, desc="folds") as bar:
        def finished(result):
            frame, failed = result
            failures.extend(failed)
            if frame is not None and not failed:
                frames.append(frame)
            bar.update()

        run_tasks(_task, tasks, finished, jobs=_workers(n_jobs, dask), dask=dask)
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    order = {name: i for i, name in enumerate(datasets)}
    method_order = {m: i for i, m in enumerate(methods)}
    table = table.assign(_d=table["dataset"].map(order), _m=table["method"].map(method_order))
    table = table.sort_values(["_d", "repeat", "fold", "_m"]).drop(columns=["_d", "_m"]).reset_index(drop=True)
    if failures:
        raise ScoringError(_failure_message(failures, len(tasks) + len(done), folder), failures, table)
    return table


def _check_arguments(datasets, methods, n_jobs) -> list:
    methods = list(METHOD_LABELS if methods is None else methods)
    unknown = [m for m in methods if m not in METHOD_LABELS]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; the methods are {', '.join(METHOD_LABELS)}.")
    if len(set(methods)) != len(methods) or not methods:
        raise ValueError(f"methods must name each method once, at least one; got {methods}.")
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError("datasets must be a non-empty mapping {name: (X, y)}.")
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer))
                               or not (n_jobs >= 1 or n_jobs == -1)):
        raise ValueError(f"n_jobs must be a number of workers >= 1 (or -1: one per CPU, None: one; two on a local "
                         f"Dask cluster); got {n_jobs!r}.")
    return methods


def _workers(n_jobs: int | None, dask: str | None = None) -> int:
    """Worker processes for ``n_jobs``: ``None`` one (two on a local Dask cluster), ``-1`` one per CPU."""
    if n_jobs is None:
        return 2 if dask == "local" else 1
    return (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)


def _check_cells(wanted: set, tasks: list, done: list, protocol: dict) -> None:
    found = {(t.dataset, t.repeat, t.fold) for (t,) in tasks} | {
        (str(fr["dataset"].iloc[0]), int(fr["repeat"].iloc[0]), int(fr["fold"].iloc[0])) for fr in done}
    absent = sorted(wanted - found)
    if absent:
        p = protocol["protocol"]
        raise ValueError(f"cells {absent[:5]}{' ...' if len(absent) > 5 else ''} are not (data set, repeat, fold) "
                         f"of these data sets under the protocol (repeats 0-{int(p['repeats']) - 1}, folds "
                         f"0-{int(p['outer_folds']) - 1}).")


def _failure_message(failures: list, n_folds: int, folder) -> str:
    failures = sorted(failures, key=lambda f: (f["dataset"], f["repeat"], f["fold"], f["method"]))
    folds = {(f["dataset"], f["repeat"], f["fold"]) for f in failures}
    lines = [f"  {f['dataset']} (repeat {f['repeat']}, fold {f['fold']}), {f['method']}: {f['error']}"
             for f in failures[:20]]
    if len(failures) > 20:
        lines.append(f"  ... and {len(failures) - 20} more (ScoringError.failures lists them all)")
    kept = (f"; they are stored under {Path(folder).name}/ and a rerun computes only the failed ones" if folder
            else "; ScoringError.table holds them")
    return (f"{len(folds)} of {n_folds} folds could not be scored ({len(failures)} method fits failed); the other "
            f"{n_folds - len(folds)} folds were scored{kept}:\n" + "\n".join(lines) + "\n"
            "The study's methods take their settings (covariance estimate, shrinkage and grids) from the protocol, so "
            "advice in these messages about a function's arguments does not apply here. Report the lines above, "
            f"or change the protocol (data/protocols/generalisation_v{EDITION}.toml) and recompute.")


# --------------------------------------------------------------------------------------------
# storing and checking


def write_scores(table: pd.DataFrame, path, protocol: dict, datasets_table: pd.DataFrame | None = None,
                 seconds: float | None = None) -> Path:
    """Store the table (gzip CSV, reproducible bytes) and beside it a JSON of its provenance.

    The JSON (``<path>.json``) holds the protocol's SHA-256, the package versions, the
    number of rows, the wall-clock seconds and the platform; ``datasets_table`` (one row per
    data set) goes to ``<stem>_datasets.csv``.
    """
    path = Path(path)
    _write_atomic(table[COLUMNS], path, compression={"method": "gzip", "mtime": 0}, float_format="%.10g")
    if datasets_table is not None:
        _write_atomic(datasets_table, path.with_name(path.name.replace(".csv.gz", "_datasets.csv")))
    meta = {"protocol_sha256": protocol["sha256"], "rows": len(table),
            "datasets": int(table["dataset"].nunique()), "methods": sorted(table["method"].unique()),
            "seconds": None if seconds is None else round(float(seconds), 1),
            "platform": platform.platform(), "cpus": os.cpu_count(), "versions": _versions()}
    with atomic_open(path.with_name(path.name.replace(".csv.gz", ".json"))) as fh:
        json.dump(meta, fh, indent=1, sort_keys=True)
    return path


def _versions() -> dict:
    from importlib.metadata import version

    return {name: version(name) for name in ("numpy", "scipy", "scikit-learn", "pandas", "joblib")}


def read_scores(path, protocol: dict) -> pd.DataFrame:
    """The stored table, refused with a clear message when it was made under another protocol.

    Raises
    ------
    FileNotFoundError, ValueError
    """
    path = Path(path)
    meta_path = path.with_name(path.name.replace(".csv.gz", ".json"))
    if not path.exists() or not meta_path.exists():
        raise FileNotFoundError(f"no stored scores at {path.name} (and {meta_path.name}): compute them with "
                                "`python -m helpers.workbook study run` (about 30 minutes on two cores).")
    restore = (f"restore the committed copies (git checkout data/results/{path.parent.name}) or recompute them "
               "(python -m helpers.workbook study run --write)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if not isinstance(meta, dict):
            raise ValueError(f"a JSON {type(meta).__name__}, not an object")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"{meta_path.name}, the record of the stored scores, is not readable JSON ({exc}): "
                         f"{restore}.") from None
    if meta.get("protocol_sha256") != protocol["sha256"]:
        raise ValueError(f"{path.name} was computed under protocol {str(meta.get('protocol_sha256'))[:12]}, "
                         f"not the present one ({protocol['sha256'][:12]}): the protocol changed after the "
                         "scores were made. Recompute them, or restore the protocol they were made under.")
    try:
        table = _read_part(path)
    except (OSError, EOFError, ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path.name} cannot be read ({type(exc).__name__}: {exc}): {restore}.") from None
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing or len(table) != meta.get("rows"):
        raise ValueError(f"{path.name} is not a complete score table (missing columns {missing}, "
                         f"{len(table)} rows where its record says {meta.get('rows')}): recompute it.")
    return table


def stored_results(protocol: dict, path=None) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """``(scores, datasets, record)``: the stored table, its data sets' properties and the run's record.

    Raises the errors of :func:`read_scores` (none stored, another protocol, incomplete).
    """
    path = SCORES_PATH if path is None else Path(path)
    scores = read_scores(path, protocol)
    datasets = pd.read_csv(path.with_name(path.name.replace(".csv.gz", "_datasets.csv"))).set_index("dataset")
    record = json.loads(path.with_name(path.name.replace(".csv.gz", ".json")).read_text())
    return scores, datasets, record


def _hierarchical_pairs(protocol: dict, secondary: bool) -> list[dict]:
    """The comparisons the hierarchical model is fitted to: each claim's readings against every comparator."""
    from .evidence import contrasts

    pairs = []
    for claim in protocol["claims"]:
        for reading in [claim["primary"], *(claim["secondary"] if secondary else [])]:
            for contrast, comparators in contrasts(claim).items():
                pairs += [{"claim": claim["key"], "reading": reading, "contrast": contrast, "baseline": b,
                           "primary": reading == claim["primary"]} for b in comparators]
    return pairs


def write_hierarchical(scores: pd.DataFrame, protocol: dict, path=None, n_samples: int | None = None,
                       chains: int | None = None, random_state: int | None = None, *, secondary: bool = True) -> dict:
    """Fit the hierarchical model to the readings of every claim against each comparator, and store it.

    ``secondary=False``: the primary readings only (a quarter of an hour less on two cores).
    The chains, draws and seed are the protocol's ``[hierarchical]`` ones from edition 4 on
    (else 4 chains of 2000 draws, seed 0), unless given.

    The posteriors of :func:`.evidence.hierarchical_posterior` at the protocol's ROPE and its
    sensitivity ROPEs (argmax shares, predictive probabilities, R-hat and bulk ESS), with the
    protocol's hash, the draws, the seed, the versions and the seconds, as JSON (written atomically).
    """
    from importlib.metadata import PackageNotFoundError, version

    from .hierarchical import hierarchical_posterior

    settings = protocol.get("hierarchical", {})
    chains = int(settings.get("chains", 4)) if chains is None else chains
    n_samples = int(settings.get("draws", 2000)) if n_samples is None else n_samples
    random_state = int(settings.get("seed", 0)) if random_state is None else random_state
    decision = protocol["decision"]
    ropes = [float(decision["rope"]), *map(float, decision["rope_sensitivity"])]
    start = time.perf_counter()
    out = []
    for pair in _hierarchical_pairs(protocol, secondary):
        posterior = hierarchical_posterior(scores, pair["reading"], pair["baseline"], ropes, n_samples=n_samples,
                                           chains=chains, random_state=random_state)
        out.append({**pair, "posterior": {str(r): p for r, p in posterior.items()}})

    def installed(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    record = {"protocol_sha256": protocol["sha256"], "n_samples": n_samples, "chains": chains,
              "random_state": random_state, "seconds": round(time.perf_counter() - start, 1),
              "versions": {name: installed(name) for name in ("baycomp", "pystan", "httpstan", "arviz-stats")},
              "comparisons": out}
    with atomic_open(HIERARCHICAL_PATH if path is None else Path(path)) as fh:
        json.dump(record, fh, indent=1)
    return record


def stored_hierarchical(protocol: dict, path=None) -> pd.DataFrame | None:
    """The stored hierarchical posteriors as a table (one row per reading and comparator), or None if not computed.

    Columns ``P(better)``, ``P(equivalent)``, ``P(worse)`` (argmax shares) and, where stored,
    ``predictive_better``, ``predictive_equivalent``, ``predictive_worse``, ``rhat`` and ``ess_bulk``.
    Raises ValueError when they were computed under another protocol.
    """
    path = HIERARCHICAL_PATH if path is None else Path(path)
    if not path.exists():
        return None
    record = json.loads(path.read_text())
    if record.get("protocol_sha256") != protocol["sha256"]:
        raise ValueError(f"{path.name} was computed under another protocol; recompute it: "
                         "python -m helpers.workbook study hierarchical")
    rope = str(float(protocol["decision"]["rope"]))
    rows = [{**{k: c[k] for k in ("claim", "reading", "contrast", "baseline", "primary") if k in c},
             **{(f"P({k})" if k in ("better", "equivalent", "worse") else k): v
                for k, v in c["posterior"][rope].items()}} for c in record["comparisons"]]
    table = pd.DataFrame(rows)
    table.attrs.update({k: record.get(k) for k in ("n_samples", "chains", "seconds", "versions", "random_state")})
    return table


def differences(stored: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    """The cells of ``fresh`` whose scores differ from ``stored`` (empty when identical).

    Compares :data:`SCORE_COLUMNS` exactly (floats to the 10 significant digits the table
    stores); the seconds are never compared.

    Examples
    --------
    >>> a = pd.DataFrame({"dataset": ["d"], "repeat": [0], "fold": [0], "method": ["m"], "accuracy": [0.9],
    ...                   "balanced_accuracy": [0.9], "n_train": [9], "n_test": [1], "params": ['{"k": 1}'],
    ...                   "edges": ["[]"], "order_min": [np.nan], "order_max": [np.nan], "fit_seconds": [0.1]})
    >>> len(differences(a, a.assign(fit_seconds=9.0))), len(differences(a, a.assign(accuracy=0.8)))
    (0, 1)
    """
    keys = ["dataset", "repeat", "fold", "method"]
    merged = fresh.merge(stored, on=keys, how="left", suffixes=("", "_stored"), indicator=True)
    bad = merged["_merge"] != "both"
    for column in SCORE_COLUMNS:
        a, b = merged[column], merged[f"{column}_stored"]
        if pd.api.types.is_float_dtype(a) or pd.api.types.is_float_dtype(b):
            a = pd.to_numeric(a).map(lambda v: float(f"{v:.10g}"))
            b = pd.to_numeric(b).map(lambda v: float(f"{v:.10g}"))
            same = (a == b) | (a.isna() & b.isna())
        else:
            same = a.astype(str) == b.astype(str)
        bad |= ~same
    return merged.loc[bad, keys + [c for c in SCORE_COLUMNS] + [f"{c}_stored" for c in SCORE_COLUMNS]]


def sample_cells(stored: pd.DataFrame, n: int, seed: int, max_seconds: float | None = None,
                 exclude=()) -> list:
    """``n`` distinct (dataset, repeat, fold) cells of the stored table, drawn with ``seed``.

    ``max_seconds`` draws among the cells whose stored fit time (every method of the fold)
    is at most that, and ``exclude`` leaves data sets out: a test with a time budget then never
    draws the few folds that took minutes. Fewer than ``n`` cells qualify: all of them.

    Examples
    --------
    >>> stored = pd.DataFrame({"dataset": ["a", "a", "b"], "repeat": 0, "fold": [0, 1, 0], "fit_seconds": [1, 60, 2]})
    >>> sample_cells(stored, 5, seed=0, max_seconds=10)
    [('a', 0, 0), ('b', 0, 0)]
    >>> sample_cells(stored, 5, seed=0, exclude=["a"])
    [('b', 0, 0)]
    """
    keys = ["dataset", "repeat", "fold"]
    seconds = stored.groupby(keys, sort=False)["fit_seconds"].sum()
    if max_seconds is not None:
        seconds = seconds[seconds <= max_seconds]
    cells = [cell for cell in seconds.index if cell[0] not in set(exclude)]
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(cells), size=min(n, len(cells)), replace=False)
    return [(str(d), int(r), int(f)) for d, r, f in (cells[i] for i in sorted(pick))]


def check_sample_size(stored: pd.DataFrame, n: int, protocol: dict) -> None:
    """Refuse to recompute more folds than are stored: a typo such as ``n=100000`` would recompute every one.

    Examples
    --------
    >>> stored = pd.DataFrame({"dataset": ["a", "a"], "repeat": 0, "fold": [0, 1]})
    >>> check_sample_size(stored, 3, {"study": {"edition": 5}})   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 3 folds asked for, more than the 2 stored for edition 5; give at most 2 (make study, ...
    """
    folds = len(stored[["dataset", "repeat", "fold"]].drop_duplicates())
    if n > folds:
        edition = protocol["study"]["edition"]
        raise ValueError(f"{n} folds asked for, more than the {folds} stored for edition {edition}; give at most "
                         f"{folds} (make study, or `run --edition {edition}`, recomputes every one)")


def recompute_sample(stored: pd.DataFrame, datasets: Mapping | None, protocol: dict, *, n: int = 3,
                     seed: int | None = None, methods=None, max_seconds: float | None = None, exclude=(),
                     n_jobs: int = 1) -> tuple[int, list, pd.DataFrame]:
    """Recompute ``n`` random stored folds and compare: ``(seed, cells, differences)``.

    ``datasets`` maps each data set's name to its ``(X, y)``; ``None`` loads the sets of the drawn
    folds only (:func:`.datasets.study_datasets`). ``n`` may not exceed the stored folds (asking
    for more is refused before anything loads: every fold is ``make study``'s job). ``seed``
    defaults to a fresh one (print it: a failure is then reproducible); ``max_seconds`` and
    ``exclude`` narrow the draw (:func:`sample_cells`); ``n_jobs`` workers share the folds (the
    scores do not depend on it).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be the number of stored folds to recompute, at least 1; got {n!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed < 2**32):
        raise ValueError(f"seed must be an integer in [0, 2**32) or None (a fresh one); got {seed!r}.")
    check_sample_size(stored, n, protocol)
    seed = int(np.random.SeedSequence().entropy % (2**32)) if seed is None else int(seed)
    cells = sample_cells(stored, n, seed, max_seconds, exclude)
    if not cells:
        raise ValueError(f"no stored fold qualifies (max_seconds={max_seconds!r}, exclude={list(exclude)}): "
                         "raise max_seconds or exclude fewer data sets.")
    names = dict.fromkeys(d for d, _, _ in cells)
    if datasets is None:
        from .datasets import study_datasets

        datasets, _ = study_datasets(protocol, names=set(names))
    fresh = run_scores({d: datasets[d] for d in names}, protocol, methods=methods, cells=cells, n_jobs=n_jobs,
                       progress=False)
    return seed, cells, differences(stored, fresh)
