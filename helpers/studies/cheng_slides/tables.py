"""The slides' tables as arrays, their keyed rows, and the claim answers every check returns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.preprocessing import MinMaxScaler

from ...data import (
    QUERIES,
    load_athletes,
    load_salary_age,
    load_whiskey,
)
from ...display import at_printed_digits

#: the weather table's four features (lines 51-60)
WEATHER_FEATURES = ["min_temp", "max_temp", "humidity", "rain"]
#: the sign-up table's five binary features (lines 774-776)
SIGNUP_FEATURES = ["profile", "faq", "help_forum", "newsletter", "liked"]
#: the k-d tree's query q = (6.0, 3.5) (line 673), as a 1 x 2 array
KDTREE_QUERY = np.array([list(QUERIES["athletes_kdtree"].values())], dtype=float)
#: distance and rank (1 = nearest) by both features, by the first only and by the second only (lines 560-590)
RANK_COLUMNS = ["distance, both", "rank, both", "distance, first", "rank, first", "distance, second",
                "rank, second"]


def answer(holds, evidence: str, how: str | None = None) -> dict:
    """A claim answer: ``holds`` as a bool, the evidence, and ``how`` when the protocol is ours."""
    out = {"holds": bool(holds), "evidence": evidence}
    if how:
        out["how"] = how
    return out


def truncation_note(ours: float, printed: str, same_print: dict) -> str:
    """A note for a printed value that ours does not round to: would truncation give it, and does the slide truncate?

    ``same_print`` holds the other values printed on the same slide or line, ``{label: (ours,
    printed text)}``; each whose rounding gives its print and whose truncation would not is
    evidence that the slide rounds. Truncation giving the print is then a hypothesis, not a
    reading: the note says so and keeps the value not reproduced.

    Examples
    --------
    >>> print(truncation_note(1.2174, "1.21", {"||x1 - x8||_2": (0.86372, "0.864")}))  # doctest: +NORMALIZE_WHITESPACE
    ours 1.2174 rounds to 1.22; truncated it would print 1.21, but that is a hypothesis: the same slide rounds
    ||x1 - x8||_2 = 0.86372 to 0.864 (truncated: 0.863)
    >>> print(truncation_note(0.5, "0.7", {}))
    ours 0.500 rounds to 0.5; truncated it would print 0.5, not the printed 0.7
    """
    decimals, rounded, cut = at_printed_digits(ours, printed)
    head = f"ours {ours:.{decimals + 2}f} rounds to {rounded}"
    if cut != str(printed).strip():
        return f"{head}; truncated it would print {cut}, not the printed {printed}"
    rounding = []
    for label, (value, text) in same_print.items():
        d, r, c = at_printed_digits(value, text)
        if r == str(text).strip() != c:
            rounding.append(f"{label} = {value:.{d + 2}f} to {text} (truncated: {c})")
    habit = (f"the same slide rounds {', and '.join(rounding)}" if rounding
             else "no other value printed with it tells rounding from truncation")
    return f"{head}; truncated it would print {printed}, but that is a hypothesis: {habit}"


# ------------------------------------------------------------------------------------------
# the slides' tables as arrays


@dataclass(frozen=True)
class Labelled:
    """One of the slides' tables: ``table`` (an ``id`` column, the ``features``, the ``label``) and a ``query``.

    ``X``, ``y`` and ``ids`` are the table's features (float), labels and IDs as arrays; the
    query is a 1 x n_features array in the features' units.
    """

    table: pd.DataFrame
    features: tuple[str, ...]
    label: str
    query: np.ndarray

    @property
    def X(self) -> np.ndarray:
        return self.table[list(self.features)].to_numpy(float)

    @property
    def y(self) -> np.ndarray:
        return self.table[self.label].to_numpy()

    @property
    def ids(self) -> np.ndarray:
        return self.table["id"].to_numpy()

    def row(self, i) -> np.ndarray:
        """The features of the instance with ID ``i``."""
        return self.X[self.ids == i][0]


def _labelled(table, features, label, query_name) -> Labelled:
    return Labelled(table, tuple(features), label, np.array([list(QUERIES[query_name].values())], dtype=float))


def athletes(*, extended: bool = False) -> Labelled:
    """The college athletes (speed, agility, draft) and the query (6.75, 3); ``extended`` adds ID 21.

    Examples
    --------
    >>> ath = athletes()
    >>> len(ath.ids), ath.row(2).tolist(), ath.query.tolist(), len(athletes(extended=True).ids)
    (20, [3.75, 8.0], [[6.75, 3.0]], 21)
    """
    return _labelled(load_athletes(extended=extended)[0], ["speed", "agility"], "draft", "athletes")


def customers() -> Labelled:
    """The ten customers (salary, age, purchased) and the query (56000, 35) of lines 227-237 and 549.

    Examples
    --------
    >>> cust = customers()
    >>> cust.row(8).tolist(), cust.query.tolist()
    ([72800.0, 60.0], [[56000.0, 35.0]])
    """
    return _labelled(load_salary_age()[0], ["salary", "age"], "purchased", "salary_age")


def whiskeys() -> Labelled:
    """The twenty whiskeys (age, rating; the target price) and the query (age 2, rating 5), lines 722-752.

    Examples
    --------
    >>> wh = whiskeys()
    >>> len(wh.ids), wh.query.tolist(), wh.y[:3].tolist()
    (20, [[2.0, 5.0]], [30.0, 40.0, 55.0])
    """
    return _labelled(load_whiskey()[0], ["age", "rating"], "price", "whiskey")


def normalised(data: Labelled) -> Labelled:
    """The table range-normalised to [0, 1] in its features (line 268), the query with the same map.

    Examples
    --------
    >>> cust = normalised(customers())
    >>> cust.row(1).round(4).tolist(), cust.query.round(4).tolist()
    ([0.3276, 0.4412], [[0.4069, 0.2647]])
    """
    scaler = MinMaxScaler().fit(data.X)
    table = data.table.astype({f: float for f in data.features})
    table[list(data.features)] = scaler.transform(data.X)
    return Labelled(table, data.features, data.label, scaler.transform(data.query))


def keyed_rows(prefix: str, table: pd.DataFrame, columns, id_column: str = "id", width: int = 2,
               ids=None) -> dict:
    """``{prefix + ID: values}`` for rows of a table: the answers to one printed table, row by row.

    Parameters
    ----------
    prefix : str
        The ledger keys' common start, e.g. ``"athletes.id"``.
    table : DataFrame
    columns : list of str, or str
        The columns whose values answer a row (a list); one column gives the value alone.
    id_column : str
        The column whose value ends the key.
    width : int
        Digits of the ID in the key, zero-padded (``width=2``: ``id01``).
    ids : sequence, optional
        Only these IDs, in this order (default: every row, in the table's order).

    Examples
    --------
    >>> table = pd.DataFrame({"id": [1, 12], "speed": [2.5, 5.0], "draft": ["no", "yes"]})
    >>> keyed_rows("athletes.id", table, ["speed", "draft"])
    {'athletes.id01': [2.5, 'no'], 'athletes.id12': [5.0, 'yes']}
    >>> keyed_rows("nn.l1.id", table, "speed", width=1, ids=[12])
    {'nn.l1.id12': 5.0}
    """
    if ids is not None:
        table = table.set_index(id_column, drop=False).loc[list(ids)]
    keys = [f"{prefix}{i:0{width}d}" for i in table[id_column].tolist()]
    if isinstance(columns, str):
        return dict(zip(keys, table[columns].tolist()))
    values = [table[c].tolist() for c in columns]
    return {key: [v[k] for v in values] for k, key in enumerate(keys)}


def random_queries(random_state: int, n: int = 2000, low=(1.5, 1.5), high=(9.0, 10.0)) -> np.ndarray:
    """``n`` queries drawn uniformly over the athletes' range (speed 1.5-9, agility 1.5-10).

    They are the first ``2 n`` draws of the generator seeded with ``random_state``;
    :func:`random_unit_directions` continues that stream.

    Examples
    --------
    >>> q = random_queries(0)
    >>> q.shape, bool(q.min(0)[0] >= 1.5 and q.max(0)[1] <= 10)
    ((2000, 2), True)
    """
    return np.random.default_rng(random_state).uniform(low, high, size=(n, len(low)))


