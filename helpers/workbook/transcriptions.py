"""The ledger's transcriptions checked against the source texts: every printed number is in its cited lines.

For every row of ``data/source_ledger.csv``, every number written in its ``printed`` column must
appear in the cited ``lines`` of its ``source`` file. Thousands separators and trailing zeros are
ignored (2,877 = 2877; 1.0 = 1; .95 = 0.95); a row whose ``printed`` holds no number (a claim in
words) is only checked for a known source and lines inside it. This catches copying mistakes; it
cannot tell whether a row is the right item or whether the ledger is complete: that takes reading
the source.

The source texts are the text extractions of the five documents, which the workbook does not
distribute: put them in ``data/sources/`` (``000_355ea6f26af76eed.txt`` ... as the ledger's
``source`` column names them) or give their folder (``--sources``, or the environment variable
``COVSIM_SOURCES``). Without them at ``data/sources/`` nothing is checked, and the command says
so; a folder the caller names that holds none is an error.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

from ..data.paths import DATA_DIR
from .ledger import LEDGER_PATH

__all__ = ["DEFAULT_SOURCES", "check_transcriptions", "main", "numbers", "source_folder"]

#: where the source texts are looked for, unless ``--sources`` or ``COVSIM_SOURCES`` says otherwise
DEFAULT_SOURCES = DATA_DIR / "sources"

_NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?|(?<![\w.])[-−]?\.\d+")


def _canonical(token: str) -> str:
    t = token.replace("−", "-").replace(",", "")
    negative = t.startswith("-")
    t = t.lstrip("-")
    if "." in t:
        t = t.rstrip("0").rstrip(".")
    t = t.lstrip("0") or "0"
    if t.startswith("."):
        t = "0" + t
    return ("-" if negative and t != "0" else "") + t


def numbers(text: str) -> set[str]:
    """The numbers written in ``text``, in one canonical form each.

    Examples
    --------
    >>> sorted(numbers("2,877 documents; accuracy 0.950, .95 and 1.0; −3"))
    ['-3', '0.95', '1', '2877']
    """
    return {_canonical(m.group()) for m in _NUMBER.finditer(text)}


def _line_numbers(spec: str, n_lines: int) -> list[int] | None:
    out = []
    for part in re.split(r"[;, ]+", spec.strip()):
        if not part:
            continue
        m = re.fullmatch(r"[lL]?(\d+)(?:\s*[-–]\s*[lL]?(\d+))?", part)
        if not m:
            return None
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if not 1 <= a <= b <= n_lines:
            return None
        out += range(a, b + 1)
    return out or None


def source_folder(given=None) -> Path:
    """The folder of the source texts: ``given``, else ``COVSIM_SOURCES``, else :data:`DEFAULT_SOURCES`."""
    return Path(given or os.environ.get("COVSIM_SOURCES") or DEFAULT_SOURCES)


def check_transcriptions(ledger=None, sources=None) -> tuple[int, int, list[str]]:
    """``(rows, rows with numbers, problems)``: each problem names the row's id, what is missing and where.

    Raises
    ------
    FileNotFoundError
        No ledger, or no source text in the folder (the message says how to get them).
    """
    ledger, sources = Path(ledger or LEDGER_PATH), source_folder(sources)
    if not ledger.is_file():
        raise FileNotFoundError(f"no ledger at {ledger}: it is committed with the workbook (data/source_ledger.csv)")
    texts = {p.name: p.read_text(encoding="utf-8", errors="replace").splitlines() for p in sources.glob("*.txt")}
    if not texts:
        raise FileNotFoundError(
            f"no source text in {sources}: the workbook does not distribute the text extractions of its five sources; "
            "put them there (000_355ea6f26af76eed.txt ... as the ledger's source column names them) or give their "
            "folder with --sources or COVSIM_SOURCES")
    with ledger.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    need = {"id", "source", "lines", "printed"}
    if not rows or not need <= set(rows[0]):
        raise ValueError(f"{ledger}: needs the columns {sorted(need)}; has {sorted(rows[0]) if rows else 'no rows'}")
    problems, numeric = [], 0
    for row in rows:
        rid, src = row["id"], row["source"].strip()
        if src not in texts:
            problems.append(f"{rid}: source {src!r} is not a file in {sources}")
            continue
        lines = _line_numbers(row["lines"], len(texts[src]))
        if lines is None:
            problems.append(f"{rid}: lines {row['lines']!r} are not line numbers of {src} (1-{len(texts[src])})")
            continue
        wanted = numbers(row["printed"])
        if not wanted:
            continue
        numeric += 1
        missing = sorted(wanted - numbers("\n".join(texts[src][i - 1] for i in lines)))
        if missing:
            problems.append(f"{rid}: {', '.join(missing)} (printed {row['printed']!r}) not in {src} lines "
                            f"{row['lines']}")
    return len(rows), numeric, problems


def main(sources=None, ledger=None, *, required: bool = False) -> int:
    """Print every problem and the counts; 0 when every row checks.

    Without the texts at the default place, nothing is checked and the exit status is 0 (the
    texts are not distributed), unless ``required``. A folder the caller named (``sources`` or
    ``COVSIM_SOURCES``) that holds no text is an error: a misspelt folder must not pass as a check.
    """
    named = sources is not None or bool(os.environ.get("COVSIM_SOURCES"))
    try:
        rows, numeric, problems = check_transcriptions(ledger, sources)
    except FileNotFoundError as exc:
        refused = required or named
        print(("error: " if refused else "transcriptions not checked: ") + str(exc))
        return 1 if refused else 0
    except ValueError as exc:
        print(f"error: {exc}")
        return 1
    for problem in problems:
        print(problem)
    print(f"{rows} rows, {numeric} with numbers: {len(problems)} problem(s)")
    return 1 if problems else 0
