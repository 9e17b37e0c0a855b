"""The JSON results file and display settings for notebooks (comparisons: :mod:`helpers.workbook.ledger`)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import atomic_open

__all__ = ["save_results", "to_jsonable", "nb_setup"]

def to_jsonable(value):
    """Convert numpy scalars and arrays, pandas objects and tuples to plain JSON types.

    NaN and infinities become ``None`` (JSON ``null``).
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
    ``None``. Unless ``results`` already has a ``"comparison"`` key, the comparison rows of
    this session's :class:`~helpers.workbook.SourceCheck` (one per notebook) are added under
    it, for the workbook report.

    Examples
    --------
    >>> save_results({"accuracy": np.float64(0.5)}, None) is None
    True
    """
    if path is None:
        return None
    from .ledger import session_rows

    if "comparison" not in results and session_rows():
        results = {**results, "comparison": session_rows()}
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


def package_versions(*distributions: str) -> str:
    """One line naming the installed version of each package, for a notebook's last cell.

    Parameters
    ----------
    *distributions : str
        Distribution names as installed (``"numpy"``, ``"scikit-learn"``, ``"scikit-image"``).

    Returns
    -------
    str
        ``"numpy 2.3.1, scikit-learn 1.9.1, ..."`` (``not installed`` for a missing one).

    Examples
    --------
    >>> package_versions("numpy").startswith("numpy ")
    True
    >>> package_versions("no-such-package-here")
    'no-such-package-here not installed'
    """
    from importlib.metadata import PackageNotFoundError, version

    def one(name):
        try:
            return f"{name} {version(name)}"
        except PackageNotFoundError:
            return f"{name} not installed"

    return ", ".join(one(name) for name in distributions)
