"""Did the end of a grid limit a tuning? One step beyond every SVC tuning on an edge.

:func:`grid_edges` counts the tunings that chose the first or last value of a grid. That count
says a grid *may* be too narrow; it does not say the choice would have moved had the grid gone
on. For an SVC, a ``C`` beyond the end often gives the same classifier: past the largest ``C``
at which some training row still violates the margin nothing changes (the hard-margin
solution), and below the smallest ``C`` at which every row is a bounded support vector a linear
SVC only rescales its decision function. :func:`probe_edges` settles it for each such tuning:
it scores the chosen grid point and the point one grid step beyond the end (the other
hyper-parameters as chosen) on the same inner folds with every inner training row, as the last
round of the search did; the end *bound* the tuning when the point beyond scores higher.
:func:`edge_summary` gives, per method and hyper-parameter, the share of tunings on an edge
beside the share the end bound.

This is a check of edition 4's scores, not part of them: it changes no score and no verdict.
The fifth edition searches beyond an end it chose instead (the protocol's ``edge_extension``);
:func:`steps_beyond` counts how far beyond its grid each of its SVC tunings went.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from ..._io import atomic_open, atomic_path
from .evidence import grid_edges
from .readings import ORDER_DEPENDENT, column_orders
from .scores import outer_folds
from .svcs import SVCS, svc_scores
from .tuning import Grids, grids_from_protocol, inner_folds

#: the columns of :func:`probe_edges`
PROBE_COLUMNS = ["dataset", "repeat", "fold", "method", "parameter", "end", "chosen", "beyond",
                 "inner_chosen", "inner_beyond", "bound"]


def _grid_of(method: str, parameter: str, grids: Grids) -> tuple:
    if parameter == "gamma":
        return grids.gamma
    return grids.C if SVCS[method][2] == "rbf" else grids.C_linear


def _beyond(grid: tuple, value: float) -> tuple[str, float]:
    """``(end, value one grid step beyond it)`` of a grid's first or last value (a geometric grid)."""
    step = grid[1] / grid[0]
    if value == grid[0]:
        return "low", float(value / step)
    if value == grid[-1]:
        return "high", float(value * step)
    raise ValueError(f"{value!r} is not an end of the grid {grid[0]!r} ... {grid[-1]!r}")


def steps_beyond(scores: pd.DataFrame, protocol: dict) -> pd.DataFrame:
    """Per SVC and hyper-parameter: how many tunings chose a value beyond the protocol's grid, and how far.

    A fifth-edition tuning steps beyond an open end of its ``C`` or ``gamma`` grid while that
    scores higher on the inner folds, at most ``edge_extension`` steps (:func:`.svcs.tune_svc`).
    Columns: ``fits``, ``beyond`` (tunings whose chosen value lies outside the grid),
    ``below`` and ``above`` (which side), ``share`` (``beyond / fits``) and one column per
    number of steps, ``1 step`` ... (how many went that far).

    Examples
    --------
    >>> from .preregistration import load_protocol, protocol_path
    >>> scores = pd.DataFrame({"method": ["linear_svc", "linear_svc", "rbf_svc"],
    ...                        "params": ['{"C": 0.5}', '{"C": 524288.0}', '{"C": 2.0, "gamma": 1.9073486328125e-06}']})
    >>> t = steps_beyond(scores, load_protocol(protocol_path(5)))   # 2^19: one step above the grid's 2^17
    >>> t.loc[("linear_svc", "C"), ["fits", "beyond", "below", "above", "1 step", "2 steps"]].tolist()
    [2, 1, 0, 1, 1, 0]
    >>> t.loc["rbf_svc", "beyond"].tolist()
    [0, 0]
    """
    grids = grids_from_protocol(protocol)
    most = max(grids.edge_extension, 1)
    steps = [f"{n} step{'s' if n > 1 else ''}" for n in range(1, most + 1)]
    rows = {}
    for method, params in scores.loc[scores["method"].isin(SVCS), ["method", "params"]].itertuples(index=False):
        for parameter, value in json.loads(params).items():
            if parameter not in ("C", "gamma"):
                continue
            grid = _grid_of(method, parameter, grids)
            width = math.log2(grid[1] / grid[0])
            below = round(math.log2(grid[0] / value) / width)
            above = round(math.log2(value / grid[-1]) / width)
            row = rows.setdefault((method, parameter), dict.fromkeys(["fits", "beyond", "below", "above", *steps], 0))
            row["fits"] += 1
            far = max(below, above, 0)
            if far:
                row["beyond"] += 1
                row["below" if below > 0 else "above"] += 1
                row[steps[min(far, most) - 1]] += 1
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index = table.index.set_names(["method", "parameter"])
    table.insert(4, "share", table["beyond"] / table["fits"])
    return table.sort_index()


def edge_tunings(scores: pd.DataFrame, methods=None) -> pd.DataFrame:
    """The stored SVC tunings with a hyper-parameter on an edge: one row per (fold, method, parameter)."""
    methods = list(SVCS) if methods is None else list(methods)
    rows = []
    for r in scores[scores["method"].isin(methods)].itertuples(index=False):
        for parameter in json.loads(r.edges or "[]"):
            rows.append({"dataset": r.dataset, "repeat": int(r.repeat), "fold": int(r.fold), "method": r.method,
                         "parameter": parameter, "params": r.params})
    return pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "method", "parameter", "params"])


def check_probeable(protocol: dict) -> Grids:
    """The protocol's grids, if its tunings stop at the ends of their grids (else there is nothing to probe).

    Examples
    --------
    >>> from .preregistration import load_protocol, protocol_path
    >>> check_probeable(load_protocol(protocol_path(4))).edge_extension
    0
    >>> check_probeable(load_protocol(protocol_path(5)))   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: edition 5 steps beyond an end of a grid it chose itself ... edges --edition 4
    """
    grids = grids_from_protocol(protocol)
    if grids.edge_extension:
        raise ValueError(f"edition {protocol['study']['edition']} steps beyond an end of a grid it chose itself (the "
                         "protocol's tuning.edge_extension), so there is nothing to probe; the probe is edition 4's "
                         "check: python -m helpers.workbook study edges --edition 4")
    return grids


def probe_edges(scores: pd.DataFrame, datasets: Mapping, protocol: dict, methods=None) -> pd.DataFrame:
    """Every stored SVC tuning on an edge, scored one grid step beyond it (:data:`PROBE_COLUMNS`).

    Parameters
    ----------
    scores : DataFrame
        The stored scores of the edition (:func:`read_scores`), with their ``params`` and ``edges``.
    datasets : mapping
        ``{name: (X, y)}`` of :func:`study_datasets`, at least the sets with a tuning on an edge.
    protocol : dict
        The edition's protocol: its outer and inner folds, grids and column orders.
    methods : iterable of str, optional
        The SVCs to probe; default all four.

    Returns
    -------
    DataFrame
        One row per tuning and hyper-parameter on an edge: which ``end``, the ``chosen`` value
        and the one ``beyond`` it, the mean inner accuracy of each (the other hyper-parameters
        as chosen, every inner training row), and ``bound``: the point beyond scored higher.
    """
    grids = check_probeable(protocol)
    tunings = edge_tunings(scores, methods)
    missing = sorted(set(tunings["dataset"]) - set(datasets))
    if missing:
        raise ValueError(f"the data sets {missing} have tunings on an edge but were not given: load them with "
                         "study_datasets(protocol, names=...)")
    n_orders = int(protocol["protocol"]["column_orders"])
    seed = int(protocol["protocol"]["random_state"])
    rows = []
    for (name, repeat, fold), group in tunings.groupby(["dataset", "repeat", "fold"], sort=False):
        X, y = datasets[name]
        train = next(tr for r, f, tr, _ in outer_folds(y, protocol) if (r, f) == (repeat, fold))
        X_tr, y_tr = X[train], y[train]
        folds = inner_folds(y_tr, grids)
        for t in group.itertuples(index=False):
            chosen = json.loads(t.params)
            view = X_tr[:, column_orders(X.shape[1], n_orders, seed)[0]] if t.method in ORDER_DEPENDENT else X_tr
            end, beyond = _beyond(_grid_of(t.method, t.parameter, grids), chosen[t.parameter])
            point = (chosen.get("shrinkage"), chosen["C"], chosen.get("gamma"))
            other = tuple(beyond if name_ == t.parameter else v
                          for name_, v in zip(("shrinkage", "C", "gamma"), point))
            acc = svc_scores(t.method, view, y_tr, folds, [point, other], grids)
            rows.append({"dataset": name, "repeat": repeat, "fold": fold, "method": t.method,
                         "parameter": t.parameter, "end": end, "chosen": chosen[t.parameter], "beyond": beyond,
                         "inner_chosen": float(acc[point]), "inner_beyond": float(acc[other]),
                         "bound": bool(acc[other] > acc[point])})
    return pd.DataFrame(rows, columns=PROBE_COLUMNS)


def edge_summary(scores: pd.DataFrame, probe: pd.DataFrame) -> pd.DataFrame:
    """Per SVC and hyper-parameter: tunings, how many sit on an edge, and how many the end bound.

    ``share`` is the share of tunings on an edge (:func:`grid_edges`), ``bound_share`` the
    share in which the point one step beyond the end scored higher on the inner folds.
    """
    edges = grid_edges(scores[scores["method"].isin(SVCS)])
    if {"dataset", "repeat", "fold"} <= set(probe.columns):   # the folds of these scores only (a set left out)
        cells = pd.MultiIndex.from_frame(scores[["dataset", "repeat", "fold"]].drop_duplicates())
        probe = probe[pd.MultiIndex.from_frame(probe[["dataset", "repeat", "fold"]]).isin(cells)]
    bound = probe.groupby(["method", "parameter"])["bound"].agg(["size", "sum"])
    table = edges[["fits", "on_edge", "share"]].join(bound.rename(columns={"size": "probed", "sum": "bound"}))
    table[["probed", "bound"]] = table[["probed", "bound"]].fillna(0).astype(int)
    if (table["probed"] != table["on_edge"]).any():
        raise ValueError("the probe does not cover every tuning on an edge: rerun it on these scores")
    table["bound_share"] = table["bound"] / table["fits"]
    return table


def probe_path(scores_path) -> Path:
    """Where the probe of a stored score table lives: ``edge_probe.csv`` beside it."""
    return Path(scores_path).with_name("edge_probe.csv")


def write_probe(probe: pd.DataFrame, path, protocol: dict, seconds: float | None = None) -> Path:
    """Store the probe (CSV) and beside it its record (the protocol's SHA-256, rows, seconds), atomically."""
    path = Path(path)
    with atomic_path(path) as tmp:
        probe[PROBE_COLUMNS].to_csv(tmp, index=False, float_format="%.10g")
    meta = {"protocol_sha256": protocol["sha256"], "rows": len(probe),
            "seconds": None if seconds is None else round(float(seconds), 1)}
    with atomic_open(path.with_suffix(".json")) as fh:
        json.dump(meta, fh, indent=1, sort_keys=True)
    return path


def stored_probe(protocol: dict, path=None) -> pd.DataFrame:
    """The stored probe of the present edition's scores (:func:`read_probe` of ``edge_probe.csv`` beside them)."""
    from .scores import SCORES_PATH

    return read_probe(probe_path(SCORES_PATH) if path is None else path, protocol)


def read_probe(path, protocol: dict) -> pd.DataFrame:
    """The stored probe; a clear error when it is missing, incomplete or made under another protocol."""
    path = Path(path)
    meta_path = path.with_suffix(".json")
    if not path.exists() or not meta_path.exists():
        raise FileNotFoundError(f"no stored edge probe at {path.name} (and {meta_path.name}): compute it with "
                                "`python -m helpers.workbook study edges --edition "
                                f"{protocol['study']['edition']}` (a few minutes).")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("protocol_sha256") != protocol["sha256"]:
        raise ValueError(f"{path.name} was computed under protocol {str(meta.get('protocol_sha256'))[:12]}, not the "
                         f"present one ({protocol['sha256'][:12]}): recompute it "
                         f"(python -m helpers.workbook study edges --edition {protocol['study']['edition']}).")
    probe = pd.read_csv(path, dtype={"dataset": str, "method": str, "parameter": str, "end": str})
    if list(probe.columns) != PROBE_COLUMNS or len(probe) != meta.get("rows"):
        raise ValueError(f"{path.name} is not a complete edge probe (columns {list(probe.columns)}, {len(probe)} rows "
                         f"where its record says {meta.get('rows')}): recompute it.")
    probe["bound"] = probe["bound"].astype(bool)
    return probe
