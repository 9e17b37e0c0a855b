"""The source ledger: ``data/source_ledger.csv``, read and validated.

``data/source_ledger.csv`` holds one row for every concrete item of the five sources (a
printed number or table row, a worked example, an equation, a definition, a claim), with the
file and lines where the source prints it. A notebook answers the rows that name it through a
:class:`~helpers.workbook.checks.SourceCheck`: for each ledger ``key`` it gives *our* value or
evidence; the printed value comes from the ledger, never typed twice, and the verdict is
computed by :mod:`~helpers.workbook.verdicts`, which lists the verdicts and their rules.

Rows out of the workbook's scope carry a ``scope`` note instead of a ``key``. A claim judged
from an effect states its region of practical equivalence in ``rope`` (the half-width, in the
effect's units: ``0.01`` is one accuracy point). A printed number is compared at its rounding,
unless ``printing`` says ``truncated: <the evidence from the source's own printing habit>``. Coverage per
source, and the README's block of it: :mod:`~helpers.workbook.coverage`.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pandas as pd

from ..data.paths import DATA_DIR
from ..studies import NOTEBOOKS
from ..studies import SOURCES as STUDY_SOURCES

__all__ = ["COLUMNS", "LEDGER_PATH", "SOURCES", "load_ledger"]

LEDGER_PATH = DATA_DIR / "source_ledger.csv"

COLUMNS = ["id", "source", "lines", "item", "printed", "reading", "correction", "notebook", "key", "scope", "rope",
           "printing", "unstated", "same_as"]
#: the columns a ledger written before they existed lacks; read as empty
OPTIONAL = ("rope", "printing", "unstated", "same_as")

#: ``unstated``: "none: <why no unstated setting changes the result>", or the setting the source leaves
#: unstated with its plausible range, "<setting>: <low>-<high>; <why that range>"
UNSTATED = re.compile(r"(?P<setting>[a-z][a-z0-9 _\-]*): (?P<low>\d+(?:\.\d+)?)-(?P<high>\d+(?:\.\d+)?); "
                      r"(?P<why>.{10,})", re.DOTALL)

#: source file -> (id prefix, short name used in tables), from the manifest (helpers.studies.SOURCES)
SOURCES = {file: (source.prefix, source.name) for file, source in STUDY_SOURCES.items()}

_NOTEBOOK = re.compile(r"\d\d")
_KEY = re.compile(r"[a-z0-9][a-z0-9_.\-]*")
_LINES = re.compile(r"\d+(?:-\d+)?(?:[;,] ?\d+(?:-\d+)?)*")


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
        A file that is not UTF-8, a header that is not the comma-separated :data:`COLUMNS`
        (missing or repeated columns), no row at all (a header-only ledger), a row with more
        fields than the header, a duplicate or empty id, an id whose prefix does not match its
        source, a notebook that is not two digits or not one of the workbook's, a key that is
        not a lower-case slug or is used twice in one notebook, a row with neither a key nor a
        scope note, lines that are not line numbers, a correction of an unknown kind, a ``rope`` that is not a positive
        number, or a ``printing`` that does not give its evidence.

    Examples
    --------
    >>> ledger = load_ledger()
    >>> sorted(ledger["source"].unique()) == sorted(SOURCES)
    True
    """
    path = Path(path or LEDGER_PATH)
    if not path.is_file():
        raise ValueError(f"no ledger at {path}: it is committed with the workbook (data/source_ledger.csv)")
    try:  # utf-8-sig: a spreadsheet's "CSV UTF-8" starts with a byte-order mark
        with path.open(encoding="utf-8-sig", newline="") as fh:
            lines = [line for line in fh if not line.startswith("#")]
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text ({exc}); save it as UTF-8 (a spreadsheet's \"CSV UTF-8\")") \
            from None
    header = next(csv.reader(lines[:1]), [])
    names = [h.strip() for h in header]
    missing = [c for c in COLUMNS if c not in names and c not in OPTIONAL]
    repeated = sorted({h for h in names if names.count(h) > 1})
    if missing or repeated:
        found = f"it reads {','.join(header)[:200]!r}" if header else "the file is empty"
        raise ValueError(f"{path}: the header (its first line that is not a # comment) must name the columns "
                         f"{','.join(COLUMNS)}, separated by commas; columns {missing or repeated} are "
                         f"{'missing' if missing else 'repeated'} ({found})")
    records = list(csv.DictReader(lines, fieldnames=names))[1:]
    if not records:
        raise ValueError(f"{path} holds no ledger row, only its header: the ledger lists every item of the five "
                         "sources, and an empty one would count none. Restore the committed file "
                         "(git checkout -- data/source_ledger.csv).")
    repeated_header = [i + 1 for i, r in enumerate(records) if [str(r.get(n, "")).strip() for n in names] == names]
    if repeated_header:
        raise ValueError(f"{path}: row(s) {repeated_header[:5]} after the header repeat it (two ledgers pasted into "
                         "one?): keep the header once, as the first line")
    extra = [r.get("id") or f"row {i + 1}" for i, r in enumerate(records) if None in r]
    if extra:
        raise ValueError(f"{path}: {', '.join(map(str, extra[:5]))} ha{'ve' if len(extra) > 1 else 's'} more fields "
                         "than the header: quote a field that holds a comma (\"a, b\")")
    table = pd.DataFrame(records, dtype=str)
    for col in OPTIONAL:
        if col not in table.columns:
            table[col] = ""
    table = table[COLUMNS].fillna("")
    for col in COLUMNS:
        table[col] = table[col].str.strip()
    problems = [f"row {i + 1} (after the header) has no id" for i in table.index[table["id"] == ""]]
    dup = table["id"][table["id"].duplicated() & (table["id"] != "")]
    problems += [f"{i}: the id is used twice" for i in dup]
    for row in table.itertuples(index=False):
        problems += _row_problems(row)
    keyed = table[table["key"] != ""]
    dup_keys = keyed[keyed.duplicated(["notebook", "key"], keep=False)]
    problems += [f"{r.id}: key {r.key!r} is used twice in notebook {r.notebook}" for r in dup_keys.itertuples()]
    known = set(table["id"])
    problems += [f"{r.id}: same_as {r.same_as!r} is not an id of the ledger" for r in table.itertuples()
                 if r.same_as and r.same_as not in known]
    if problems:
        raise ValueError(f"{path} has {len(problems)} problem(s):\n  " + "\n  ".join(problems))
    return table.reset_index(drop=True)


_KINDS = ("typo:", "extraction:", "slip:")


def _row_problems(row) -> list[str]:
    """What is wrong with one ledger row, each problem named with the row's id."""
    problems = []
    prefix = SOURCES.get(row.source, (None,))[0]
    if prefix is None:
        problems.append(f"{row.id}: source {row.source!r} is not one of {sorted(SOURCES)}")
    elif not row.id.startswith(prefix + "-"):
        problems.append(f"{row.id}: an item of {row.source} needs an id starting {prefix}-")
    if not _LINES.fullmatch(row.lines):
        problems.append(f"{row.id}: lines {row.lines!r} are not line numbers such as 392-396 or 12; 40")
    if row.notebook and _NOTEBOOK.fullmatch(row.notebook) and row.notebook not in NOTEBOOKS:
        problems.append(f"{row.id}: notebook {row.notebook!r} is not one of the workbook's ({', '.join(NOTEBOOKS)}); "
                        "a new notebook needs its entry in the manifest, helpers/studies/__init__.py")
    if row.key:
        if not _NOTEBOOK.fullmatch(row.notebook):
            problems.append(f"{row.id}: key {row.key!r} needs a notebook such as 03, not {row.notebook!r}")
        if not _KEY.fullmatch(row.key):
            problems.append(f"{row.id}: key {row.key!r} must be a lower-case slug (letters, digits, . _ -)")
    elif not row.scope:
        problems.append(f"{row.id}: neither a key (the comparison row that answers it) nor a scope note")
    if row.reading and not row.correction:
        problems.append(f"{row.id}: a reading needs a correction starting 'typo:', 'extraction:' or 'slip:'")
    if row.correction and not row.correction.startswith(_KINDS):
        problems.append(f"{row.id}: correction {row.correction[:40]!r} must start 'typo:', 'extraction:' or "
                        "'slip:'")
    if row.rope and not _positive(row.rope):
        problems.append(f"{row.id}: rope {row.rope!r} must be a positive number, the half-width of the region of "
                        "practical equivalence in the effect's units (0.01 is one accuracy point)")
    return problems + _judgement_problems(row)


def _judgement_problems(row) -> list[str]:
    """What is wrong with the columns of one ledger row that say how its claim is judged."""
    problems = []
    plausible = UNSTATED.fullmatch(row.unstated) if row.unstated else None
    if row.unstated and not (plausible or (row.unstated.startswith("none: ") and len(row.unstated) > 16)):
        problems.append(f"{row.id}: unstated {row.unstated[:50]!r} must read 'none: <why no setting the source leaves "
                        "unstated changes the result>' or '<setting>: <low>-<high>; <why that range is plausible>', "
                        "e.g. 'components: 168-948; 250 to 2,000 keywords'")
    elif plausible and float(plausible["low"]) > float(plausible["high"]):
        problems.append(f"{row.id}: the plausible range {plausible['low']}-{plausible['high']} of "
                        f"{plausible['setting']!r} is reversed: write it low-high")
    if row.same_as and row.same_as == row.id:
        problems.append(f"{row.id}: same_as names the row itself; it names another row whose evidence this one shares")
    if row.printing and not (row.printing.startswith("truncated: ") and len(row.printing) > 20):
        problems.append(f"{row.id}: printing {row.printing!r} must read 'truncated: <the evidence in the source "
                        "that it cuts digits instead of rounding them>'")
    return problems


def _positive(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return 0 < value < float("inf")
