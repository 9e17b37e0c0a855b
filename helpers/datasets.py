"""Data loaders: WDBC from scikit-learn, and the small tables typed in from the sources.

The example tables live as CSV files in the repository's ``data/`` folder (see
``data/README.md`` for where each comes from). Large corpora (Reuters-21578, MNIST) are
read from ``data/raw/``; they are never committed.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.datasets import load_breast_cancer

from .mnist import load_mnist_test
from .reuters import load_reuters21578

__all__ = [
    "DATA_DIR",
    "RAW_DIR",
    "QUERIES",
    "load_wdbc",
    "load_table",
    "list_tables",
    "load_athletes",
    "load_salary_age",
    "load_whiskey",
    "load_signup",
    "load_animals",
    "load_mnist_test",
    "load_reuters21578",
]

# The query instance of each slide example (FMLPDA ch. 5 slides). The whiskey query is
# shown only in a figure; (2, 5) is the query that reproduces all 20 printed distances.
QUERIES = {
    "athletes": {"speed": 6.75, "agility": 3.00},
    "athletes_kdtree": {"speed": 6.0, "agility": 3.5},
    "salary_age": {"salary": 56000, "age": 35},
    "whiskey": {"age": 2, "rating": 5},
    "signup": {"profile": 1, "faq": 0, "help_forum": 1, "newsletter": 0, "liked": 0},
}

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
    (21, 5)
    """
    path = DATA_DIR / f"{name}.csv"
    if not path.exists():
        raise ValueError(
            f"No table {name!r} in {DATA_DIR}; available: {', '.join(list_tables()) or 'none'}. "
            "The tables ship with the repository: install it in editable mode (pip install -e .)."
        )
    return pd.read_csv(path, comment="#")


def _with_query(name: str):
    table = load_table(name)
    return table, pd.Series(QUERIES[name], name="query")


def load_athletes(extended: bool = False):
    """The college athletes (speed, agility, drafted?) and the query (6.75, 3).

    Parameters
    ----------
    extended : bool, default=False
        ``True`` adds ID 21 = (6.75, 3.00, yes), the slides' "extended" data set (the query
        labelled with its 1-NN prediction), used for the k-d tree example.

    Returns
    -------
    table : DataFrame with columns id, speed, agility, draft
    query : Series (speed, agility)

    Examples
    --------
    >>> table, query = load_athletes()
    >>> len(table), len(load_athletes(extended=True)[0]), query.tolist()
    (20, 21, [6.75, 3.0])
    """
    table, query = _with_query("athletes")
    if not extended:
        table = table[~table["extended"]]
    return table.drop(columns="extended").reset_index(drop=True), query


def load_salary_age():
    """Salary, age and pension-plan purchase of 10 customers, and the query (56000, 35).

    Examples
    --------
    >>> table, query = load_salary_age()
    >>> table.shape, query.tolist()
    ((10, 4), [56000, 35])
    """
    return _with_query("salary_age")


def load_whiskey():
    """Age, rating and price of 20 whiskeys, and the query (age 2, rating 5).

    Examples
    --------
    >>> table, query = load_whiskey()
    >>> table.shape, query.tolist()
    ((20, 4), [2, 5])
    """
    return _with_query("whiskey")


def load_signup():
    """Two website users' binary activity features, their sign-up label, and the query q.

    Examples
    --------
    >>> table, q = load_signup()
    >>> table.shape, q.tolist()
    ((2, 7), [1, 0, 1, 0, 0])
    """
    return _with_query("signup")


def load_animals(include_cat: bool = False) -> pd.DataFrame:
    """Binary attributes of the animals of the lecture notes' Example 5 (section 6.2).

    Parameters
    ----------
    include_cat : bool, default=False
        ``True`` adds the sixth animal of the source exercise (Mardia, Kent & Bibby), which
        the notes leave out.

    Returns
    -------
    DataFrame
        Indexed by animal name; columns tail, wild, long_neck, farm, carnivore, four_legs
        (0/1 integers).

    Examples
    --------
    >>> animals = load_animals()
    >>> animals.index.tolist()
    ['Lion', 'Giraffe', 'Cow', 'Sheep', 'Human']
    >>> animals.loc["Lion"].tolist()
    [1, 1, 0, 0, 1, 1]
    """
    table = load_table("animals")
    if not include_cat:
        table = table[table["in_notes"]]
    return table.drop(columns="in_notes").set_index("animal")
