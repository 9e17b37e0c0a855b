"""Paper-versus-ours tables, the JSON results file, and display settings for notebooks."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd

from ._io import atomic_open

__all__ = ["compare_to_paper", "save_results", "to_jsonable", "nb_setup"]

COLUMNS = ["quantity", "paper", "ours", "difference", "verdict"]

# Every table compare_to_paper makes in this Python session, in order; save_results stores them
# under "comparison" so that the workbook report can collect each notebook's source-vs-ours rows.
_SESSION_TABLES: list[pd.DataFrame] = []


def _decimals(printed: str) -> int:
    exponent = Decimal(printed.strip()).as_tuple().exponent
    return max(0, -int(exponent))


def compare_to_paper(rows) -> pd.DataFrame:
    """Table of a source's numbers next to ours, with the difference and a verdict.

    Parameters
    ----------
    rows : iterable of dict or tuple
        Each row is ``(quantity, paper, ours)`` or ``(quantity, paper, ours, tol)``, or a
        dict with those keys. ``paper`` is best given as the string the source prints
        (``"0.939"``): the tolerance is then half a unit in its last printed digit, i.e.
        "equal to the source's rounding". A float ``paper`` needs ``tol`` (default 0).
        ``paper = None`` marks a number the source does not give.

    Returns
    -------
    DataFrame
        Columns ``quantity, paper, ours, difference, verdict``; the verdict is
        ``"matches"`` when ``|ours - paper| <= tol``, ``"differs"`` otherwise, and
        ``"no source value"`` without a paper number. The table is also remembered for
        this session, so that :func:`save_results` can store every comparison a notebook
        made (key ``"comparison"``) for the workbook report.

    Examples
    --------
    >>> t = compare_to_paper([("accuracy, raw cosine", "0.939", 0.93860), ("accuracy, E(W^-1)", "0.947", 0.9561)])
    >>> t[["quantity", "verdict"]].values.tolist()
    [['accuracy, raw cosine', 'matches'], ['accuracy, E(W^-1)', 'differs']]
    >>> print(f"{t.loc[1, 'difference']:+.4f}")
    +0.0091
    """
    records = []
    for row in rows:
        if isinstance(row, dict):
            quantity, paper, ours = row["quantity"], row["paper"], row["ours"]
            tol = row.get("tol")
        else:
            quantity, paper, ours, *rest = row
            tol = rest[0] if rest else None
        ours = float(ours)
        if paper is None:
            records.append((quantity, math.nan, ours, math.nan, "no source value"))
            continue
        if isinstance(paper, str):
            if tol is None:
                tol = 0.5 * 10.0 ** -_decimals(paper)
            paper = float(paper)
        paper = float(paper)
        tol = 0.0 if tol is None else float(tol)
        diff = ours - paper
        # a hair of slack so that exact halves (0.9386 vs 0.939 printed) are not lost to binary floats
        verdict = "matches" if abs(diff) <= tol * (1 + 1e-9) + 1e-12 else "differs"
        records.append((quantity, paper, ours, diff, verdict))
    table = pd.DataFrame.from_records(records, columns=COLUMNS)
    _SESSION_TABLES.append(table)
    return table


def to_jsonable(value):
    """Convert numpy scalars and arrays, pandas objects and tuples to plain JSON types.

    NaN and infinities become ``None`` (JSON ``null``), e.g. the difference of a row
    without a source value in :func:`compare_to_paper`.
    """
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (pd.Series, pd.DataFrame)):
        return to_jsonable(value.to_dict())
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None  # JSON has no NaN/inf: stored as null
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"Cannot store a {type(value).__name__} in the results JSON: {value!r}")


def save_results(results: dict, path) -> Path | None:
    """Write ``results`` as JSON to ``path`` (atomically); do nothing when ``path`` is None.

    Numbers become plain floats and ints, arrays become lists. Notebooks call this last
    with their ``results_path`` parameter, which papermill sets and interactive use leaves
    ``None``. Unless ``results`` already has a ``"comparison"`` key, the rows of every
    :func:`compare_to_paper` table made in this session are added under it (one list of
    records; duplicates of a re-run cell are dropped), for the workbook report.

    Examples
    --------
    >>> save_results({"accuracy": np.float64(0.5)}, None) is None
    True
    """
    if path is None:
        return None
    from .workbook.ledger import session_rows

    if "comparison" not in results and session_rows():
        results = {**results, "comparison": session_rows()}
    elif "comparison" not in results and _SESSION_TABLES:
        combined = pd.concat(_SESSION_TABLES, ignore_index=True).drop_duplicates(subset=["quantity", "paper", "ours"])
        results = {**results, "comparison": combined.to_dict("records")}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(to_jsonable(results), indent=2, sort_keys=True)
    with atomic_open(path) as fh:
        fh.write(text + "\n")
    return path


def nb_setup(precision: int = 4) -> None:
    """Display settings every notebook calls first: rounded numpy/pandas/IPython output, plot style."""
    import matplotlib as mpl

    np.set_printoptions(precision=precision, suppress=True)
    pd.set_option("display.precision", precision)
    pd.set_option("display.width", 120)
    pd.set_option("display.max_columns", 20)
    mpl.rcParams.update({"figure.figsize": (6.0, 4.0), "figure.dpi": 80, "axes.grid": True, "grid.alpha": 0.3})
    try:
        from IPython import get_ipython

        ip = get_ipython()
        if ip is not None:
            ip.run_line_magic("precision", str(precision))
    except ImportError:  # pragma: no cover - IPython is a notebook dependency
        pass
