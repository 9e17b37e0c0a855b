"""The results JSON a notebook writes last: its headline numbers and its check's comparison rows.

The sweeps (:mod:`.sweep`) and the book (:mod:`.book`) read it; the comparison rows come from
the notebook's :class:`~helpers.workbook.checks.SourceCheck`, passed explicitly.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import atomic_open
from .checks import SourceCheck

__all__ = ["save_results", "to_jsonable"]


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


def save_results(results: dict, path, check: SourceCheck | None = None) -> Path | None:
    """Write ``results`` and ``check``'s comparison rows as JSON to ``path`` (atomically); nothing when it is None.

    Numbers become plain floats and ints, arrays become lists, NaN becomes ``null``. A missing
    folder of ``path`` is created. Notebooks call this last, with their ``results_path``
    parameter (which papermill sets and interactive use leaves ``None``) and their check:
    ``save_results(results, results_path, check)``. The check's rows are stored under
    ``"comparison"``, for the book's ledger page (:mod:`helpers.workbook.book`).

    Parameters
    ----------
    results : dict
        The notebook's headline numbers.
    path : str, path-like or None
        The JSON file to write.
    check : SourceCheck, optional
        The notebook's check; without it, only ``results`` is written.

    Raises
    ------
    TypeError
        ``results`` is not a dict, ``path`` is not a path, ``check`` is not a
        :class:`~helpers.workbook.checks.SourceCheck`, or a value cannot be stored in JSON.
    ValueError
        ``results`` has a ``"comparison"`` of its own and a check is given too.
    OSError
        ``path`` cannot be written (its message names the path and the cause); nothing is left
        behind, and an older file at ``path`` is kept as it was.

    Examples
    --------
    >>> save_results({"accuracy": np.float64(0.5)}, None) is None
    True
    """
    if check is not None and not isinstance(check, SourceCheck):
        raise TypeError(f"check must be the notebook's SourceCheck (check = notebook_setup(globals(), 'NN')) "
                        f"or None, not a {type(check).__name__}.")
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)) or str(path) == "":
        raise TypeError(f"results_path must be a file path (str) or None, not {path!r}.")
    if not isinstance(results, Mapping):
        raise TypeError(f"results must be a dict of headline numbers, not a {type(results).__name__}.")
    if check is not None:
        if "comparison" in results:
            raise ValueError("results has a 'comparison' of its own and a check was given too: the check's rows "
                             "go under 'comparison', so rename that key of results or leave out the check.")
        results = {**results, "comparison": check.rows}
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
