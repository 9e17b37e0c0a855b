"""The source ledger and the verdicts the notebooks compute for its items.

``data/source_ledger.csv`` holds one row for every concrete item of the five sources (a
printed number or table row, a worked example, an equation, a definition, a claim), with the
file and lines where the source prints it. A notebook answers the rows that name it: it
creates a :class:`SourceCheck` and, for each ledger ``key``, gives *our* value or evidence;
the printed value comes from the ledger, never typed twice, and the verdict is computed:

==========================  ==============================================================
``reproduced``              ours equals the printed value at its rounding (or the claim holds)
``reproduced differently``  it does, but only by a protocol other than the one the source states
``source typo``             the printed value cannot be right (the source's own other content
                            contradicts it); ours equals the consistent reading in the ledger
``extraction error``        the text extraction garbled the value; ours equals the legible reading
``small, not significant``  a claimed advantage in the claimed direction, not significant
``not supported``           a claimed advantage not seen: the opposite direction, not significant
``not reproduced``          ours differs beyond the rounding and no reading explains it
``refuted``                 the claim does not hold on the evidence
``not testable``            nothing here can test it (the row says why)
==========================  ==============================================================

Rows out of the workbook's scope carry a ``scope`` note instead of a ``key``.
"""

from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path

import pandas as pd

from ..data.paths import DATA_DIR, ROOT
from ..studies import SOURCES as STUDY_SOURCES

__all__ = [
    "COLUMNS",
    "LEDGER_PATH",
    "MIME",
    "SOURCES",
    "VERDICTS",
    "SourceCheck",
    "compare_value",
    "coverage",
    "load_ledger",
    "notebook_rows",
    "parse_printed",
]

LEDGER_PATH = DATA_DIR / "source_ledger.csv"
MIME = "application/vnd.covsim.comparison+json"

COLUMNS = ["id", "source", "lines", "item", "printed", "reading", "correction", "notebook", "key", "scope"]

#: source file -> (id prefix, short name used in tables), from the manifest (helpers.studies.SOURCES)
SOURCES = {file: (source.prefix, source.name) for file, source in STUDY_SOURCES.items()}

VERDICTS = (
    "reproduced",
    "reproduced differently",
    "source typo",
    "extraction error",
    "small, not significant",
    "not supported",
    "not reproduced",
    "refuted",
    "not testable",
)

_NOTEBOOK = re.compile(r"\d\d")
_KEY = re.compile(r"[a-z0-9][a-z0-9_.\-]*")
_LINES = re.compile(r"\d+(?:-\d+)?(?:[;,] ?\d+(?:-\d+)?)*")


# --------------------------------------------------------------------------------------------
# the ledger file


def load_ledger(path=None) -> pd.DataFrame:
    """Read and validate the ledger; every problem is reported with the row's id.

    Parameters
    ----------
    path : path-like, optional
        Defaults to ``data/source_ledger.csv`` of the workbook.

    Returns
    -------
    DataFrame
        One row per item, the columns of :data:`COLUMNS`, all strings (empty where blank).

    Raises
    ------
    ValueError
        Missing columns, a duplicate id, an id whose prefix does not match its source, a
        notebook that is not two digits, a key that is not a lower-case slug or is used twice
        in one notebook, a row with neither a key nor a scope note, or lines that are not
        line numbers.

    Examples
    --------
    >>> ledger = load_ledger()
    >>> sorted(ledger["source"].unique()) == sorted(SOURCES)
    True
    """
    path = Path(path or LEDGER_PATH)
    if not path.is_file():
        raise ValueError(f"no ledger at {path}: it is committed with the workbook (data/source_ledger.csv)")
    with path.open(encoding="utf-8", newline="") as fh:
        records = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    table = pd.DataFrame(records, columns=COLUMNS if not records else None, dtype=str)
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: columns {missing} are missing; the ledger has {list(table.columns)}")
    table = table[COLUMNS].fillna("")
    for col in COLUMNS:
        table[col] = table[col].str.strip()
    problems = []
    dup = table["id"][table["id"].duplicated()]
    problems += [f"{i}: the id is used twice" for i in dup]
    for row in table.itertuples(index=False):
        prefix = SOURCES.get(row.source, (None,))[0]
        if prefix is None:
            problems.append(f"{row.id}: source {row.source!r} is not one of {sorted(SOURCES)}")
        elif not row.id.startswith(prefix + "-"):
            problems.append(f"{row.id}: an item of {row.source} needs an id starting {prefix}-")
        if not _LINES.fullmatch(row.lines):
            problems.append(f"{row.id}: lines {row.lines!r} are not line numbers such as 392-396 or 12; 40")
        if row.key:
            if not _NOTEBOOK.fullmatch(row.notebook):
                problems.append(f"{row.id}: key {row.key!r} needs a notebook such as 03, not {row.notebook!r}")
            if not _KEY.fullmatch(row.key):
                problems.append(f"{row.id}: key {row.key!r} must be a lower-case slug (letters, digits, . _ -)")
        elif not row.scope:
            problems.append(f"{row.id}: neither a key (the comparison row that answers it) nor a scope note")
        if row.reading and not row.correction.startswith(("typo:", "extraction:")):
            problems.append(f"{row.id}: a reading needs a correction starting 'typo:' or 'extraction:'")
    keyed = table[table["key"] != ""]
    dup_keys = keyed[keyed.duplicated(["notebook", "key"], keep=False)]
    problems += [f"{r.id}: key {r.key!r} is used twice in notebook {r.notebook}" for r in dup_keys.itertuples()]
    if problems:
        raise ValueError(f"{path} has {len(problems)} problem(s):\n  " + "\n  ".join(problems))
    return table.reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# printed values


@dataclass(frozen=True)
class Printed:
    """One printed value: a number with the decimals it was printed to, an exact fraction, or a word.

    A trailing ``%`` is dropped from the value; :meth:`SourceCheck.number` takes ``percent=True``
    to compare a fraction of ours with it.
    """

    text: str
    value: float | str
    decimals: int | None = None  # None: exact (a fraction) or a word

    @property
    def is_number(self) -> bool:
        return not isinstance(self.value, str)


_NUM = re.compile(r"[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")
_FRACTION = re.compile(r"([-−]?\d+)\s*/\s*(\d+)")


def _parse_token(token: str) -> Printed:
    text = token.strip()
    core = text.lstrip("≈~=").strip()
    core = core.removesuffix("%").strip()
    frac = _FRACTION.fullmatch(core)
    if frac:
        num, den = int(frac.group(1).replace("−", "-")), int(frac.group(2))
        if den == 0:
            raise ValueError(f"printed value {text!r}: a fraction with denominator 0")
        return Printed(text, float(Fraction(num, den)), None)
    if core and any(ch.isdigit() for ch in core) and _NUM.fullmatch(core):
        plain = core.replace(",", "").replace("−", "-")
        try:
            dec = Decimal(plain)
        except InvalidOperation:  # pragma: no cover - the regex admits only decimals
            raise ValueError(f"printed value {text!r} is not a number") from None
        decimals = max(0, -int(dec.as_tuple().exponent))
        return Printed(text, float(dec), decimals)
    return Printed(text, text, None)


def parse_printed(text: str) -> list[Printed]:
    """Split a ledger ``printed`` (or ``reading``) cell into values: ``"2.50; 6.00; No"`` is three.

    Numbers keep the decimals they were printed to (their rounding), thousands separators are
    dropped (``2,877``), a fraction such as ``2/3`` is exact, a trailing ``%`` and a
    leading ``≈`` are ignored; anything else is a word, compared as text.

    Examples
    --------
    >>> [(p.value, p.decimals) for p in parse_printed("2,877; 0.9121; 2/3; No")]
    [(2877.0, 0), (0.9121, 4), (0.6666666666666666, None), ('No', None)]
    >>> parse_printed("≈ 19100.01")[0].value
    19100.01
    """
    return [_parse_token(t) for t in str(text).split(";") if t.strip()]


def _fmt(value, decimals: int | None) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    d = 6 if decimals is None else min(decimals + 2, 8)
    if float(value).is_integer() and (decimals in (0, None)):
        return f"{int(value):,}" if abs(value) >= 10_000 else f"{int(value)}"
    return f"{value:.{d}f}"


def compare_value(printed: Printed, ours, tol: float | None = None, exact: bool = False) -> tuple[bool, str]:
    """Does ``ours`` equal one printed value? Returns ``(match, how)``.

    A number matches when it rounds to the printed digits (half a unit of the last printed
    digit), when it *truncates* to them (some sources cut digits instead of rounding: the note
    says so), or when it lies within ``tol`` (a tolerance the notebook states, e.g. for fold
    noise). A fraction, or any number when ``exact`` is true (a count, an identity, a matrix
    entry the source gives exactly), must match to 1e-9; a word must match ignoring case.

    Examples
    --------
    >>> compare_value(parse_printed("0.939")[0], 107 / 114)
    (True, '')
    >>> compare_value(parse_printed("0.971")[0], 553 / 569)
    (True, 'the source truncates: 0.97188 is printed 0.971')
    >>> compare_value(parse_printed("0.912")[0], 0.9068)
    (False, '')
    """
    if not printed.is_number:
        return str(ours).strip().lower() == str(printed.value).strip().lower(), ""
    if isinstance(ours, str):
        return False, ""
    ours = float(ours)
    if math.isnan(ours):
        return False, ""
    target = float(printed.value)
    if printed.decimals is None or exact:
        ok = abs(ours - target) <= 1e-9 * max(1.0, abs(target))
        return ok, ""
    unit = 10.0 ** -printed.decimals
    slack = 1e-9 * max(1.0, abs(target))
    if abs(ours - target) <= 0.5 * unit + slack:
        return True, ""
    truncated = math.trunc(ours / unit + math.copysign(1e-9, ours)) * unit
    if abs(truncated - target) <= slack:
        return True, f"the source truncates: {ours:.{printed.decimals + 2}f} is printed {printed.text}"
    if tol is not None and abs(ours - target) <= tol + slack:
        return True, f"within the stated tolerance {tol:g}"
    return False, ""


def _compare_all(printed: list[Printed], ours, tol, percent, exact=False,
                 label: str = "printed") -> tuple[bool, list[str], float | None]:
    values = list(ours) if isinstance(ours, (list, tuple)) else [ours]
    if len(values) != len(printed):
        raise ValueError(
            f"{len(values)} value(s) of ours for {len(printed)} printed value(s) "
            f"({'; '.join(p.text for p in printed)}): give one per printed value"
        )
    notes, ok_all, diffs = [], True, []
    for p, v in zip(printed, values):
        if hasattr(v, "item"):
            v = v.item()
        if percent and p.is_number and not isinstance(v, str):
            v = 100.0 * float(v)
        ok, how = compare_value(p, v, tol, exact)
        ok_all &= ok
        if how:
            notes.append(how)
        if not ok:
            notes.append(f"{_fmt(v, p.decimals)} vs {label} {p.text}")
        if p.is_number and not isinstance(v, str):
            diffs.append(float(v) - float(p.value))
    diff = max(diffs, key=abs) if diffs else None
    return ok_all, notes, diff


# --------------------------------------------------------------------------------------------
# a notebook's comparison rows


def _round_json(value):
    if isinstance(value, (list, tuple)):
        return [_round_json(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    value = float(value)
    if not math.isfinite(value):
        return None
    return float(f"{value:.6g}")


class SourceCheck:
    """The comparison rows of one notebook: each answers a ledger row, named by its key.

    Parameters
    ----------
    notebook : str
        The notebook's two-digit number, e.g. ``"04"``.
    ledger : DataFrame, optional
        A loaded ledger (:func:`load_ledger`); read from ``data/source_ledger.csv`` by default.

    Examples
    --------
    >>> import pandas as pd
    >>> led = pd.DataFrame([
    ...     dict(id="VAC-1", source="000_355ea6f26af76eed.txt", lines="398", item="test accuracy, raw cosine",
    ...          printed="0.939", reading="", correction="", notebook="99", key="acc.raw", scope=""),
    ...     dict(id="VAC-2", source="000_355ea6f26af76eed.txt", lines="394", item="precision, B",
    ...          printed="9.921", reading="0.921", correction="extraction: the leading 0 is read as 9",
    ...          notebook="99", key="prec.b", scope=""),
    ... ])
    >>> check = SourceCheck("99", ledger=led)
    >>> check.number("acc.raw", 107 / 114).verdict
    'reproduced'
    >>> check.number("prec.b", 0.9211).verdict
    'extraction error'
    >>> check.summary()
    '2 source items answered: 1 reproduced, 1 extraction error'
    """

    _registry: dict[str, SourceCheck] = {}  # the latest check of each notebook in this session

    def __init__(self, notebook: str, ledger: pd.DataFrame | None = None):
        if not _NOTEBOOK.fullmatch(str(notebook)):
            raise ValueError(f"notebook must be its two-digit number such as '04', not {notebook!r}")
        self.notebook = str(notebook)
        self.ledger = load_ledger() if ledger is None else ledger
        mine = self.ledger[(self.ledger["notebook"] == self.notebook) & (self.ledger["key"] != "")]
        self._rows_by_key = {r["key"]: r for r in mine.to_dict("records")}
        self.rows: list[dict] = []
        self._shown = 0
        SourceCheck._registry[self.notebook] = self

    # -- lookup ---------------------------------------------------------------------------------
    def item(self, key: str) -> dict:
        """The ledger row answered by ``key`` in this notebook."""
        try:
            return self._rows_by_key[key]
        except KeyError:
            close = [k for k in self._rows_by_key if k.split(".")[0] == key.split(".")[0]][:6]
            raise KeyError(
                f"no ledger row of notebook {self.notebook} has key {key!r}: add it to data/source_ledger.csv "
                f"(with the source lines it answers){'; keys that start alike: ' + ', '.join(close) if close else ''}"
            ) from None

    def printed(self, key: str) -> list[Printed]:
        """The printed values of the item answered by ``key``, parsed (:func:`parse_printed`)."""
        return parse_printed(self.item(key)["printed"])

    def matches(self, key: str, ours, *, reading: bool = False, percent: bool = False) -> bool:
        """Whether ``ours`` prints as the value(s) of ``key``, with the source's rounding; records nothing.

        For choosing among protocols before answering a row (``number`` then records the answer).
        ``reading=True`` compares with the row's corrected reading instead of the print.

        Examples
        --------
        >>> from helpers.workbook.ledger import SourceCheck, load_ledger
        >>> check = SourceCheck("00", load_ledger())
        >>> check.matches("salary.norm.l1-x8", 1.2149), check.matches("salary.norm.l1-x8", 1.3)
        (True, False)
        """
        row = self.item(key)
        printed = parse_printed(row["reading"] if reading and row["reading"] else row["printed"])
        return _compare_all(printed, ours, None, percent)[0]

    def _add(self, key, ours, verdict, difference, note, source_text):
        row = self.item(key)
        if verdict not in VERDICTS:  # pragma: no cover - internal
            raise ValueError(verdict)
        record = {
            "id": row["id"], "key": key, "notebook": self.notebook, "source": row["source"],
            "lines": row["lines"], "item": row["item"], "printed": source_text, "ours": ours,
            "difference": difference, "verdict": verdict, "note": note,
        }
        self.rows = [r for r in self.rows if r["key"] != key]  # a re-run cell replaces its row
        self.rows.append(record)
        return _Row(record)

    # -- the three kinds of answer -------------------------------------------------------------
    def number(self, key: str, ours, *, how: str | None = None, tol: float | None = None,
               percent: bool = False, exact: bool = False, note: str = ""):
        """Compare our value(s) with the printed value(s) of ``key``.

        Parameters
        ----------
        key : str
            The ledger key (its row gives the printed value, its rounding and any reading).
        ours : number, str, or list of them
            One value per printed value (``"2.50; 6.00; No"`` takes three).
        how : str, optional
            The protocol by which ours was obtained when it is not the one the source states:
            a match is then "reproduced differently", and ``how`` is shown with it.
        tol : float, optional
            A tolerance beyond the printed rounding, stated in ``note`` (e.g. two fold sds).
        percent : bool
            The source prints per cent (``91``) and ours is a fraction (``0.91``).
        exact : bool
            The printed numbers are exact, not rounded (a matrix entry ``1`` among exact
            fractions, a count): ours must equal them to 1e-9, whatever digits are printed.
        note : str
            A sentence for the reader, shown with the verdict.
        """
        row = self.item(key)
        printed = parse_printed(row["printed"])
        if not printed or any(not p.is_number and len(p.text.split()) > 1 for p in printed):
            raise ValueError(f"ledger row {row['id']} ({key}) prints no value but {row['printed']!r}; "
                             "answer it with claim() or not_testable()")
        ok, notes, diff = _compare_all(printed, ours, tol, percent, exact)
        verdict = ("reproduced differently" if how else "reproduced") if ok else "not reproduced"
        if not ok and row["reading"]:
            # the printed value cannot be right: compare with the reading, and measure the difference from it
            reading = parse_printed(row["reading"])
            ok_r, notes_r, diff_r = _compare_all(reading, ours, tol, percent, exact, label="read")
            kind = row["correction"].split(":", 1)[0]
            if ok_r:
                verdict = "extraction error" if kind == "extraction" else "source typo"
            why = row["correction"].split(":", 1)[1].strip()
            notes, diff = [f"printed {row['printed']}, read {row['reading']} ({kind}: {why})"] + notes_r, diff_r
        parts = ([f"by {how}"] if how else []) + notes + ([note] if note else [])
        return self._add(key, _round_json(ours), verdict, _round_json(diff), "; ".join(parts), row["printed"])

    def claim(self, key: str, holds: bool | None = None, *, evidence: str, effect: float | None = None,
              p: float | None = None, alpha: float = 0.05, how: str | None = None):
        """Answer a claim with evidence: a boolean, or an effect and a p-value.

        Parameters
        ----------
        holds : bool, optional
            Whether the claim holds exactly as the source states it.
        evidence : str
            What was measured, with its numbers (shown to the reader).
        effect, p : float, optional
            For a claimed advantage: the effect oriented so that ``effect > 0`` is the claimed
            direction, and the p-value of a test of no effect. Then the verdict is
            "reproduced" (claimed direction, p < alpha), "small, not significant" (claimed
            direction, p >= alpha), "not supported" (opposite direction, p >= alpha) or
            "refuted" (opposite direction, p < alpha).
        how : str, optional
            A protocol other than the source's, for a claim that holds only that way.
        """
        row = self.item(key)
        if (holds is None) == (effect is None):
            raise ValueError(f"{key}: give either holds=True/False or effect= and p=, not both or neither")
        if effect is not None:
            if p is None or not 0 <= p <= 1:
                raise ValueError(f"{key}: an effect needs its p-value in [0, 1], got {p!r}")
            significant = p < alpha
            if effect > 0:
                verdict = "reproduced" if significant else "small, not significant"
            else:
                verdict = "refuted" if significant else "not supported"
            if verdict == "reproduced" and how:
                verdict = "reproduced differently"
            ours = f"effect {effect:+.4g}, p = {p:.3g}"
        else:
            verdict = ("reproduced differently" if how else "reproduced") if holds else "refuted"
            ours = "holds" if holds else "does not hold"
        note = "; ".join(([f"by {how}"] if how else []) + [evidence])
        return self._add(key, ours, verdict, None, note, row["printed"])

    def not_testable(self, key: str, why: str):
        """Record that nothing here can test the item, and why."""
        if not why:
            raise ValueError(f"{key}: say why the item cannot be tested")
        row = self.item(key)
        return self._add(key, None, "not testable", None, why, row["printed"])

    # -- display ---------------------------------------------------------------------------------
    def table(self, *, all: bool = False) -> ComparisonTable:  # noqa: A002 - reads well in notebooks
        """The rows added since the last call (``all=True``: every row), for display."""
        rows = self.rows if all else self.rows[self._shown:]
        self._shown = len(self.rows)
        return ComparisonTable(rows)

    def unanswered(self) -> list[str]:
        """Ledger keys of this notebook that no row answers yet."""
        done = {r["key"] for r in self.rows}
        return [k for k in self._rows_by_key if k not in done]

    def done(self) -> _Done:
        """End of the notebook: raises if a ledger row is unanswered, else shows the counts.

        Make it the last expression of a cell: its output stores every comparison row of the
        notebook, whatever the earlier tables showed, so the tests and the README see them all.
        """
        return _Done(self)

    def summary(self) -> str:
        """One line of counts; raises when a ledger row of this notebook is left unanswered."""
        missing = self.unanswered()
        if missing:
            raise ValueError(
                f"{len(missing)} ledger row(s) of notebook {self.notebook} have no comparison row: "
                + ", ".join(missing[:12]) + (" ..." if len(missing) > 12 else "")
            )
        counts = pd.Series([r["verdict"] for r in self.rows]).value_counts()
        parts = [f"{counts[v]} {v}" for v in VERDICTS if v in counts]
        return f"{len(self.rows)} source items answered: " + ", ".join(parts)


class _Done:
    """The last output of a notebook's check: its counts, and every row as JSON for the tests."""

    def __init__(self, check: SourceCheck):
        self.text = check.summary()
        self.rows = [dict(r) for r in check.rows]

    def _repr_mimebundle_(self, include=None, exclude=None):
        counts = pd.Series([r["verdict"] for r in self.rows]).value_counts()
        lines = [self.text] + [f"  {counts[v]:4d}  {v}" for v in VERDICTS if v in counts]
        return {"text/plain": "\n".join(lines),
                MIME: {"rows": [{k: r[k] for k in ("id", "key", "notebook", "ours", "verdict")} for r in self.rows]}}


@dataclass
class _Row:
    record: dict

    @property
    def verdict(self) -> str:
        return self.record["verdict"]

    def __repr__(self) -> str:
        r = self.record
        return f"{r['id']} {r['key']}: {r['verdict']}"


def _display_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_display_value(v) for v in value)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


class ComparisonTable:
    """Quantity · source · ours · difference · verdict rows, shown as a table, stored as JSON for the tests.

    Columns, in reading order: the ledger ``id``, the ``quantity`` (the ledger's item), the value
    the ``source`` prints, ``ours``, the ``difference``, the ``verdict``, then the source's
    ``lines`` and the ``note``.
    """

    COLUMNS = ["id", "quantity", "source", "ours", "difference", "verdict", "lines", "note"]

    def __init__(self, rows: list[dict]):
        self.rows = [dict(r) for r in rows]

    def frame(self) -> pd.DataFrame:
        records = [{
            "id": r["id"], "quantity": r["item"], "source": r["printed"],
            "ours": _display_value(r["ours"]), "difference": _display_value(r["difference"]),
            "verdict": r["verdict"], "lines": r["lines"], "note": r["note"],
        } for r in self.rows]
        return pd.DataFrame.from_records(records, columns=self.COLUMNS)

    def _repr_mimebundle_(self, include=None, exclude=None):
        frame = self.frame()
        with pd.option_context("display.max_colwidth", 90, "display.max_rows", 500, "display.width", 250):
            text = frame.to_string(index=False) if len(frame) else "(no rows)"
        return {
            "text/plain": text,
            "text/html": frame.to_html(index=False, na_rep=""),
            MIME: {"rows": [{k: r[k] for k in ("id", "key", "notebook", "ours", "verdict")} for r in self.rows]},
        }

    def __len__(self) -> int:
        return len(self.rows)


def session_rows() -> list[dict]:
    """Every comparison row made in this Python session (the notebook's), for its results file."""
    rows = {}
    for check in SourceCheck._registry.values():
        for r in check.rows:
            rows[(r["notebook"], r["key"])] = r
    return list(rows.values())


# --------------------------------------------------------------------------------------------
# reading stored notebooks, and coverage


def notebook_rows(path) -> list[dict]:
    """The comparison rows a notebook file holds in its stored outputs (the JSON of each table)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    rows = {}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if MIME in data:
                payload = data[MIME]
                if isinstance(payload, str):
                    payload = json.loads(payload)
                for r in payload.get("rows", []):
                    rows[(r["notebook"], r["key"])] = r
    return list(rows.values())


def coverage(ledger: pd.DataFrame, rows: list[dict]) -> pd.DataFrame:
    """Per source: ledger rows, out of scope, unanswered, and how many of each verdict.

    Parameters
    ----------
    ledger : DataFrame
        From :func:`load_ledger`.
    rows : list of dict
        Comparison rows with ``id`` and ``verdict`` (from :func:`notebook_rows` or results files).
    """
    verdict_by_id = {r["id"]: r["verdict"] for r in rows}
    records = []
    for source, (prefix, name) in SOURCES.items():
        part = ledger[ledger["source"] == source]
        in_scope = part[part["key"] != ""]
        verdicts = pd.Series([verdict_by_id.get(i, "unanswered") for i in in_scope["id"]], dtype=object)
        rec = {"source": f"{prefix}: {name}", "rows": len(part), "out of scope": int((part["key"] == "").sum())}
        for v in VERDICTS:
            rec[v] = int((verdicts == v).sum())
        rec["unanswered"] = int((verdicts == "unanswered").sum())
        records.append(rec)
    table = pd.DataFrame(records).set_index("source")
    table.loc["all sources"] = table.sum()
    return table


def coverage_markdown(table: pd.DataFrame) -> str:
    """The coverage table as Markdown (columns with no rows anywhere are left out)."""
    keep = [c for c in table.columns if c in ("rows", "out of scope") or table[c].sum() > 0]
    t = table[keep]
    head = "| source | " + " | ".join(keep) + " |"
    sep = "|---|" + "---:|" * len(keep)
    body = ["| " + str(idx) + " | " + " | ".join(str(int(v)) for v in row) + " |" for idx, row in t.iterrows()]
    return "\n".join([head, sep, *body])


# --------------------------------------------------------------------------------------------
# README coverage, from the committed notebooks

README_START = "<!-- ledger coverage: generated by `make ledger`; do not edit by hand -->"
README_END = "<!-- end of ledger coverage -->"


def committed_rows(notebooks_dir=None) -> list[dict]:
    """Comparison rows stored in the committed notebooks ``notebooks/NN_*.ipynb``."""
    folder = Path(notebooks_dir or ROOT / "notebooks")
    rows = []
    for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        rows += notebook_rows(path)
    return rows


def readme_section(ledger: pd.DataFrame | None = None, rows: list[dict] | None = None) -> str:
    """The README's coverage block: the markers around the Markdown coverage table."""
    ledger = load_ledger() if ledger is None else ledger
    rows = committed_rows() if rows is None else rows
    return f"{README_START}\n{coverage_markdown(coverage(ledger, rows))}\n{README_END}"


def update_readme(path=None) -> bool:
    """Rewrite the coverage block of README.md; returns whether the file changed."""
    path = Path(path or ROOT / "README.md")
    text = path.read_text(encoding="utf-8")
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise ValueError(f"{path} has no coverage block: put the lines\n{README_START}\n{README_END}\nwhere it belongs")
    new = text[:start] + readme_section() + text[end + len(README_END):]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m helpers.workbook",
                                     description="Source-ledger coverage from the committed notebooks.")
    parser.add_argument("command", choices=["coverage", "readme"],
                        help="coverage: print the table; readme: rewrite README.md's coverage block")
    args = parser.parse_args(argv)
    if args.command == "coverage":
        print(coverage_markdown(coverage(load_ledger(), committed_rows())))
    else:
        print("README.md coverage block " + ("updated" if update_readme() else "already up to date"))
    return 0

