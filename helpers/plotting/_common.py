"""Checks and colours shared by the plotting modules."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import (
    check_real,
)


def check_number(value, name: str, example: str) -> float:
    """A finite real number (a 0-d array too, such as an element of ``ax.get_xlim()``), or an error naming it."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    return check_real(value, name, example)

def check_frame(table, name: str, columns) -> None:
    """``table`` is a non-empty DataFrame holding ``columns``; otherwise say which are missing."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame; got {type(table).__name__}. "
                        f"Wrap it: pd.DataFrame({name}).")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"columns {missing} are not in the {name} (it has {list(table.columns)}); "
                         "pass the names of existing columns.")
    if table.empty:
        raise ValueError(f"{name} has no rows (columns {list(table.columns)}): nothing to draw. "
                         "Check the filter or the run that produced it.")

def check_level(level) -> float:
    return check_real(level, "level", "0.9 for the 90% prediction ellipse", 0.0, 1.0, closed="neither",
                      why="a coverage probability")

def colormap(name: str):
    """The matplotlib colour map called ``name``."""
    import matplotlib

    return matplotlib.colormaps[name]

def check_maps(maps, n: int, what: str) -> None:
    if not isinstance(maps, Mapping) or not maps:
        raise ValueError("maps must be a non-empty dict {panel title: (n, 2) coordinates}.")
    for title, Z in maps.items():
        shape = np.shape(Z)
        if len(shape) != 2 or shape[1] < 2 or shape[0] != n:
            raise ValueError(f"maps[{title!r}] must hold {n} rows of at least 2 coordinates, one per entry of "
                             f"{what}; got shape {shape}.")
