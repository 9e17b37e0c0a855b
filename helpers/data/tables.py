"""Small data: WDBC and LFW faces from the packages that ship them, and the tables typed in from the sources.

The example tables live as CSV files in the repository's ``data/`` folder (see
``data/README.md`` for where each comes from). Large corpora (Reuters-21578, MNIST) are
read from ``data/raw/``; they are never committed.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pandas as pd
from sklearn.datasets import load_breast_cancer

from .paths import DATA_DIR

__all__ = [
    "QUERIES",
    "load_wdbc",
    "load_table",
    "list_tables",
    "load_athletes",
    "load_salary_age",
    "load_whiskey",
    "load_signup",
    "load_weather",
    "load_bird_ata",
    "load_lfw_faces",
    "load_animals",
]
# The query instance of each slide example (lecture slides, ch. 5 "Similarity-based learning",
# after FMLPDA ch. 5). The whiskey query is printed range-normalised (age 0.0667, rating 1.00,
# line 752), which is age 2 and rating 5 in the table's units.
QUERIES = {
    "athletes": {"speed": 6.75, "agility": 3.00},
    "athletes_kdtree": {"speed": 6.0, "agility": 3.5},
    "salary_age": {"salary": 56000, "age": 35},
    "whiskey": {"age": 2, "rating": 5},
    "signup": {"profile": 1, "faq": 0, "help_forum": 1, "newsletter": 0, "liked": 0},
}



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


# What the loaders need of each table: its columns and their kinds. A file edited by hand
# that lacks one, or holds text where a number belongs, fails here, naming file and column,
# rather than deep inside a distance computation.
_NUMBER, _TEXT, _BOOL = "number", "text", "True/False"
_SCHEMAS = {
    "animals": {"animal": _TEXT, **{f"A{i}": _NUMBER for i in range(1, 7)}},
    "athletes": {"id": _NUMBER, "speed": _NUMBER, "agility": _NUMBER, "draft": _TEXT, "extended": _BOOL},
    "bird_ata": {"feature": _TEXT, "length": _NUMBER, "wingspan": _NUMBER, "weight": _NUMBER},
    "salary_age": {"id": _NUMBER, "salary": _NUMBER, "age": _NUMBER, "purchased": _TEXT},
    "signup": {"id": _NUMBER, **dict.fromkeys(("profile", "faq", "help_forum", "newsletter", "liked"), _NUMBER),
               "signup": _TEXT},
    "weather": {"day": _NUMBER, "min_temp": _NUMBER, "max_temp": _NUMBER, "humidity": _NUMBER, "rain": _NUMBER},
    "whiskey": {"id": _NUMBER, "age": _NUMBER, "rating": _NUMBER, "price": _NUMBER},
}
_NAME = re.compile(r"[A-Za-z0-9_]+")


def _read_csv(path: Path) -> pd.DataFrame:
    """``pd.read_csv`` whose failures name the file, the cause and the fix."""
    restore = f"Restore it from the repository (git checkout -- data/{path.name}) or fix it by hand."
    try:
        return pd.read_csv(path, comment="#", encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path} is not UTF-8 text: byte {err.object[err.start:err.start + 1]!r} at offset {err.start} "
            f"({err.reason}). Save it as UTF-8. {restore}"
        ) from err
    except pd.errors.EmptyDataError as err:
        raise ValueError(f"{path} holds no table (no header line). {restore}") from err
    except pd.errors.ParserError as err:
        raise ValueError(f"{path} is not a well-formed CSV table ({err}). {restore}") from err
    except PermissionError as err:
        raise PermissionError(f"{path} cannot be read ({err.strerror or err}); give your user read access "
                              "(chmod u+r).") from err


def _check_schema(table: pd.DataFrame, name: str, path: Path) -> pd.DataFrame:
    schema = _SCHEMAS.get(name)
    if schema is None:
        return table
    restore = f"Restore it from the repository (git checkout -- data/{path.name}) or fix it by hand."
    missing = [c for c in schema if c not in table.columns]
    if missing:
        raise ValueError(
            f"{path}: column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))} missing; its header "
            f"holds {table.columns.tolist()}, the loaders need {list(schema)}. {restore}"
        )
    for column, kind in schema.items():
        values = table[column]
        if values.isna().any():
            row = int(values.isna().to_numpy().argmax())
            raise ValueError(f"{path}, column {column!r}: data row {row + 1} has no value ({kind} expected). {restore}")
        if kind == _NUMBER and not pd.api.types.is_numeric_dtype(values.dtype) or (
            kind == _NUMBER and pd.api.types.is_bool_dtype(values.dtype)
        ):
            bad = pd.to_numeric(values, errors="coerce").isna().to_numpy()
            row = int(bad.argmax())
            raise ValueError(
                f"{path}, column {column!r}: {values.iloc[row]!r} in data row {row + 1} is not a number. {restore}"
            )
        if kind == _BOOL and not pd.api.types.is_bool_dtype(values.dtype):
            bad = ~values.astype(str).isin(["True", "False"]).to_numpy()
            row = int(bad.argmax())
            raise ValueError(
                f"{path}, column {column!r}: {values.iloc[row]!r} in data row {row + 1} is not True or False. {restore}"
            )
    return table


def load_table(name: str) -> pd.DataFrame:
    """Read ``data/<name>.csv``, one of the small tables typed in from the sources.

    The tables the loaders below use are checked on reading: every column they need is
    present, numbers are numbers, no cell is empty. A file that fails is named in the
    error with its column and row.

    Raises
    ------
    ValueError
        No such table (the message lists the available ones), a file that is not UTF-8,
        not a well-formed CSV table, or lacks a column or a value the loaders need.
    TypeError
        ``name`` is not a string.

    Examples
    --------
    >>> load_table("athletes").shape
    (21, 5)
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a table name such as 'athletes'; got {type(name).__name__} {name!r}.")
    path = DATA_DIR / f"{name}.csv"
    if not _NAME.fullmatch(name) or not path.is_file():
        raise ValueError(
            f"No table {name!r} in {DATA_DIR}; available: {', '.join(list_tables()) or 'none'}. "
            "The tables ship with the repository: install it in editable mode (pip install -e .)."
        )
    return _check_schema(_read_csv(path), name, path)


def _with_query(name: str):
    table = load_table(name)
    return table, pd.Series(QUERIES[name], name="query")


def load_athletes(*, extended: bool = False):
    """The college athletes (speed, agility, drafted?) and the query (6.75, 3).

    Parameters
    ----------
    extended : bool, default=False
        ``True`` adds ID 21 = (6.75, 3.00, yes), the slides' "Updating" table (the query
        labelled with its 1-NN prediction), which the slides use from then on (decision
        regions, k-d tree).

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
    if not isinstance(extended, bool):
        raise TypeError(f"extended must be True or False; got {extended!r}.")
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

    The slides print the query range-normalised, (0.0667, 1.00); in the table's units
    that is age 2 (of 0-30) and rating 5 (of 1-5).

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


def load_weather() -> pd.DataFrame:
    """Seven days of weather observations: the slides' feature-space example (lines 53-60).

    Returns
    -------
    DataFrame
        Columns day, min_temp, max_temp, humidity, rain.

    Examples
    --------
    >>> weather = load_weather()
    >>> weather.shape
    (7, 5)
    >>> weather.loc[weather["day"] == 3, ["min_temp", "max_temp", "humidity", "rain"]].to_numpy().tolist()
    [[23.0, 30.0, 0.6, 0.3]]
    """
    return load_table("weather")


def load_bird_ata() -> pd.DataFrame:
    """The slides' bird PCA matrix ``A'A`` exactly as their text prints it (line 1230).

    The printed matrix is not symmetric, as ``A'A`` must be: its (2, 1) and (3, 2) entries
    repeat other entries. It is kept as printed; the symmetric reading is made where it is
    used (notebook 01), so that the correction stays visible.

    Returns
    -------
    DataFrame of shape (3, 3)
        Rows and columns length, wingspan, weight (the slides' feature order, line 1224).

    Examples
    --------
    >>> ata = load_bird_ata()
    >>> print(ata.columns.tolist(), f"trace {ata.to_numpy().trace():.2f}")
    ['length', 'wingspan', 'weight'] trace 1762.61
    >>> bool((ata.to_numpy() == ata.to_numpy().T).all())
    False
    """
    return load_table("bird_ata").set_index("feature")


def load_lfw_faces():
    """The 100 faces of scikit-image's LFW subset, as rows of 625 pixel intensities.

    ``skimage.data.lfw_subset()`` ships in scikit-image's wheel (no download): 200 grey
    images of 25 x 25 pixels in [0, 1], the first 100 faces of randomly chosen people from
    Labeled Faces in the Wild, the last 100 non-face patches from the same photographs.
    It carries no identity labels. This function returns the faces only.

    Returns
    -------
    faces : ndarray of shape (100, 625)
        One face per row, pixels in row-major order (``faces[i].reshape(25, 25)``).
    shape : tuple
        ``(25, 25)``, the image shape.

    Examples
    --------
    >>> faces, shape = load_lfw_faces()
    >>> faces.shape, shape, bool(0 <= faces.min() and faces.max() <= 1)
    ((100, 625), (25, 25), True)
    """
    with warnings.catch_warnings():
        # scikit-image imports pooch, which imports tqdm.auto: in a kernel without ipywidgets that
        # warns "IProgress not found", although nothing is downloaded (the subset ships in the wheel)
        warnings.filterwarnings("ignore", message="IProgress not found")
        from skimage.data import lfw_subset

    images = lfw_subset()[:100]
    return images.reshape(len(images), -1).astype(float), images.shape[1:]


def load_animals() -> pd.DataFrame:
    """The data matrix of the lecture notes' Example 5 (section 6.2): five creatures, six attributes.

    The notes leave the six binary attributes unspecified and call them ``A1`` ... ``A6`` in
    their R code; the table is the one typeset on line 83 of the notes, identical to the R
    matrix ``animal`` of lines 87-91 (``data/animals.csv``; see ``data/README.md``).

    Returns
    -------
    DataFrame of shape (5, 6)
        Indexed by creature (Lion, Giraffe, Cow, Sheep, Human, the notes' order); columns
        ``A1`` ... ``A6`` holding 0/1 integers (1 = attribute present).

    Examples
    --------
    >>> animals = load_animals()
    >>> animals.index.tolist(), animals.columns.tolist()
    (['Lion', 'Giraffe', 'Cow', 'Sheep', 'Human'], ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'])
    >>> animals.loc["Sheep"].tolist()
    [0, 0, 0, 1, 0, 1]
    """
    return load_table("animals").set_index("animal")
