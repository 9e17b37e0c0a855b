"""The record of hostile cases: every case tried against the workbook, what it did then, what it does now.

``tests/hostile_cases/*.csv`` holds one row per case (columns ``id, theme, case, found, now,
test``). ``found`` is what the case did when first tried, ``now`` what it does today, and ``test``
the test that pins it. This file checks the record itself: every row well formed, every case
ending in a clear error or the right answer, and every named test present in its file, so that a
row cannot outlive its test.
"""

import csv
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "hostile_cases"
COLUMNS = ["id", "theme", "case", "found", "now", "test"]
THEMES = {"writes", "sweep", "verdicts", "loaders", "driver", "memory", "maths", "downloads", "book",
          "environment"}
FOUND = {"good", "poor message", "wrong answer", "crash", "hang", "data loss"}
NOW = {"clear error", "right answer"}
TEST = re.compile(r"^(tests/[\w/]+\.py)::(\w+)(?:\[(.+)\])?$")


def rows():
    out = []
    for path in sorted(RECORD.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            assert reader.fieldnames == COLUMNS, f"{path.name}: header {reader.fieldnames}, expected {COLUMNS}"
            out += [(path.name, row) for row in reader]
    return out


ROWS = rows()


def test_the_record_is_not_empty():
    assert len(ROWS) >= 150


def test_case_ids_are_unique():
    ids = [row["id"] for _, row in ROWS]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


@pytest.mark.parametrize(("file", "row"), ROWS, ids=[row["id"] for _, row in ROWS])
def test_every_case_is_recorded_with_its_outcome_and_a_test_that_exists(file, row):
    assert row["theme"] in THEMES, f"{file}: {row['id']}: theme {row['theme']!r} not in {sorted(THEMES)}"
    assert row["found"] in FOUND, f"{file}: {row['id']}: found {row['found']!r} not in {sorted(FOUND)}"
    assert row["now"] in NOW, f"{file}: {row['id']}: now {row['now']!r} not in {sorted(NOW)}"
    assert row["case"].strip() and "/work" not in row["case"], f"{file}: {row['id']}: case text"
    match = TEST.match(row["test"])
    assert match, f"{file}: {row['id']}: test {row['test']!r} is not tests/<path>.py::<function>[<case id>]"
    path, function, case = match.groups()
    source = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^(async )?def {function}\(", source, re.M), f"{file}: {row['id']}: no {function} in {path}"
    if case:
        assert case in source, f"{file}: {row['id']}: case id {case!r} does not appear in {path}"


def test_the_readme_tally_matches_the_record():
    found = {key: sum(row["found"] == key for _, row in ROWS) for key in FOUND}
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    stated = re.search(r"(\d+) hostile cases", readme)
    assert stated, "README's Reliability section states how many hostile cases were tried"
    assert int(stated.group(1)) == len(ROWS)
    for key, count in found.items():
        if count:
            assert f"{count} {key}" in readme, f"README's tally should read '{count} {key}'"
