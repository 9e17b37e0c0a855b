"""Data loaders: WDBC from scikit-learn, and the small tables typed in from the sources.

The example tables live as CSV files in the repository's ``data/`` folder (see
``data/README.md`` for where each comes from). Large corpora (Reuters-21578, MNIST) are
read from ``data/raw/``; they are never committed.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.datasets import load_breast_cancer

__all__ = ["DATA_DIR", "RAW_DIR", "load_wdbc", "load_table", "list_tables"]

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
RAW_DIR = DATA_DIR / "raw"


def load_wdbc():
    """The Wisconsin Diagnostic Breast Cancer data (569 x 30) with malignant = 1.

    scikit-learn codes the target 0 = malignant, 1 = benign; the papers (and this
    function) use malignant = 1, benign = 0.

    Returns
    -------
    X : DataFrame of shape (569, 30)
        The 30 features under scikit-learn's names.
    y : Series of shape (569,)
        ``diagnosis``: 1 malignant (212), 0 benign (357).

    Examples
    --------
    >>> X, y = load_wdbc()
    >>> X.shape, int(y.sum()), int((y == 0).sum())
    ((569, 30), 212, 357)
    """
    data = load_breast_cancer(as_frame=True)
    X = data.data.copy()
    y = (1 - data.target).rename("diagnosis").astype(int)
    return X, y


def list_tables() -> list[str]:
    """Names of the example tables in ``data/``."""
    return sorted(p.stem for p in DATA_DIR.glob("*.csv"))


def load_table(name: str) -> pd.DataFrame:
    """Read ``data/<name>.csv``, one of the small tables typed in from the sources.

    Examples
    --------
    >>> load_table("athletes").shape
    (20, 4)
    """
    path = DATA_DIR / f"{name}.csv"
    if not path.exists():
        raise ValueError(
            f"No table {name!r} in {DATA_DIR}; available: {', '.join(list_tables()) or 'none'}. "
            "The tables ship with the repository: install it in editable mode (pip install -e .)."
        )
    return pd.read_csv(path, comment="#")
