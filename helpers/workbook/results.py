"""Results JSON, display settings and versions (comparisons: :mod:`.ledger`; parameter checks: :mod:`.parameters`)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import atomic_open

__all__ = [
    "nb_setup",
    "package_versions",
    "save_results",
    "to_jsonable",
]


# --------------------------------------------------------------------------------------
# The results JSON


def to_jsonable(value, where: str = "results"):
    """Convert numpy scalars and arrays, pandas objects and tuples to plain JSON types.

    NaN, infinities, ``pandas.NA`` and ``NaT`` become ``None`` (JSON ``null``). ``where``
    names the value in error messages (``results['acc']``).

    Examples
    --------
    >>> to_jsonable({"acc": np.float32(0.5), "n": np.int64(3), "nan": float("nan"), "m": np.eye(2, dtype=int)})
    {'acc': 0.5, 'n': 3, 'nan': None, 'm': [[1, 0], [0, 1]]}
    """
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            key = str(k)
            if key in out:
                raise ValueError(
                    f"{where} has two keys that are both {key!r} in JSON (e.g. 1 and '1'); one would "
                    "overwrite the other. Rename one of them."
                )
            out[key] = to_jsonable(v, f"{where}[{k!r}]")
        return out
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, (pd.Series, pd.DataFrame)):
        return to_jsonable(value.to_dict(), where)
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist(), where)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None  # JSON has no NaN/inf: stored as null
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, str):
        return str(value)
    raise TypeError(
        f"Cannot store a {type(value).__name__} in the results JSON: {where} = {value!r}. "
        "Store numbers, strings, lists or dicts (e.g. float(x), str(x) or x.tolist())."
    )


def save_results(results: dict, path) -> Path | None:
    """Write ``results`` as JSON to ``path`` (atomically); do nothing when ``path`` is None.

    Numbers become plain floats and ints, arrays become lists, NaN becomes ``null``. A missing
    folder of ``path`` is created. Notebooks call this last with their ``results_path``
    parameter, which papermill sets and interactive use leaves ``None``. Unless ``results``
    already has a ``"comparison"`` key, the comparison rows of this session's
    :class:`~helpers.workbook.SourceCheck` (one per notebook) are added under it, for the
    book's ledger page (:mod:`helpers.workbook.book`).

    Raises
    ------
    TypeError
        ``results`` is not a dict, ``path`` is not a path, or a value cannot be stored in JSON.
    OSError
        ``path`` cannot be written (its message names the path and the cause); nothing is left
        behind, and an older file at ``path`` is kept as it was.

    Examples
    --------
    >>> save_results({"accuracy": np.float64(0.5)}, None) is None
    True
    """
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)) or str(path) == "":
        raise TypeError(f"results_path must be a file path (str) or None, not {path!r}.")
    if not isinstance(results, Mapping):
        raise TypeError(f"results must be a dict of headline numbers, not a {type(results).__name__}.")
    from .ledger import session_rows

    if "comparison" not in results and session_rows():
        results = {**results, "comparison": session_rows()}
    path = Path(path)
    text = json.dumps(to_jsonable(dict(results)), indent=2, sort_keys=True)  # before touching the disk
    if path.is_dir():
        raise IsADirectoryError(
            f"results_path {path} is a folder; give a file path such as {path / 'results.json'}."
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(path) as fh:
            fh.write(text + "\n")
    except OSError as exc:
        message = (f"Cannot write the results JSON {path}: {exc.strerror or exc}. Give results_path a file "
                   "in a folder you can write to (or None to write nothing).")
        raise (type(exc)(exc.errno, message) if exc.errno is not None else type(exc)(message)) from exc
    return path


# --------------------------------------------------------------------------------------
# Display settings and versions


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
