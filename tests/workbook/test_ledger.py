"""The source ledger file: its validation, and the committed ledger itself."""

from pathlib import Path

import pandas as pd
import pytest

from helpers.workbook import ledger as L
from helpers.workbook.ledger import load_ledger

ROOT = Path(__file__).resolve().parents[2]
SRC = "000_355ea6f26af76eed.txt"


def row(key, printed, reading="", correction="", rid=None, notebook="00", scope=""):
    return dict(id=rid or f"VAC-{abs(hash(key)) % 10**6}", source=SRC, lines="1", item=f"item {key}",
                printed=printed, reading=reading, correction=correction, notebook=notebook, key=key, scope=scope)


# ---------------------------------------------------------------------------- ledger validation

def write(tmp_path, rows):
    path = tmp_path / "ledger.csv"
    pd.DataFrame(rows, columns=L.COLUMNS).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("bad, message", [
    (dict(id="VAC-1"), "VAC-1: the id is used twice"),
    (dict(id="SVM-9"), "needs an id starting VAC-"),
    (dict(source="999.txt"), "source '999.txt' is not one of"),
    (dict(lines="l. 12"), "are not line numbers"),
    (dict(notebook=""), "needs a notebook such as 03"),
    (dict(key="Table 1"), "must be a lower-case slug"),
    (dict(key="", scope=""), "neither a key"),
    (dict(reading="0.9", correction="my guess"), "must start 'typo:', 'extraction:' or 'slip:'"),
    (dict(reading="0.9", correction=""), "needs a correction starting"),
    (dict(rope="one point"), "rope 'one point' must be a positive number"),
    (dict(rope="-0.01"), "must be a positive number"),
    (dict(printing="truncated"), "must read 'truncated: <the evidence"),
    (dict(key="acc"), "key 'acc' is used twice in notebook 00"),
])
def test_ledger_validation_names_the_row_and_the_fix(tmp_path, bad, message):
    good = row("acc", "0.939", rid="VAC-1")
    other = {**row("other", "0.5", rid="VAC-2"), **bad}
    with pytest.raises(ValueError, match=message):
        load_ledger(write(tmp_path, [good, other]))


def test_missing_columns_and_missing_file(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("id,source\nVAC-1,x\n")
    with pytest.raises(ValueError, match="columns .* are missing"):
        load_ledger(path)
    with pytest.raises(ValueError, match="no ledger at"):
        load_ledger(tmp_path / "absent.csv")


# ---------------------------------------------------------------------------- the real ledger

def test_the_ledger_loads_and_covers_every_source():
    ledger = load_ledger()
    assert set(ledger["source"]) == set(L.SOURCES)


def test_every_printed_number_is_in_its_cited_lines():
    """The transcription check over the real ledger and source texts (data/sources/, which CI fills)."""
    from helpers.workbook import transcriptions as T

    if not list(T.source_folder().glob("*.txt")):
        pytest.skip("the source texts are not at hand (data/sources/ or COVSIM_SOURCES)")
    rows, numeric, problems = T.check_transcriptions()
    assert problems == [] and rows == len(load_ledger()) and numeric > 400


def test_a_ledger_without_the_rope_and_printing_columns_reads_them_as_empty(tmp_path):
    path = tmp_path / "old.csv"
    pd.DataFrame([row("acc", "0.939")], columns=[c for c in L.COLUMNS if c not in L.OPTIONAL]).to_csv(path,
                                                                                                    index=False)
    table = L.load_ledger(path)
    assert list(table.columns) == L.COLUMNS and table.loc[0, "rope"] == "" and table.loc[0, "printing"] == ""


def test_every_claim_row_judged_by_an_effect_can_be_read():
    ledger = L.load_ledger()
    ropes = ledger.loc[ledger["rope"] != "", "rope"].astype(float)
    assert (ropes > 0).all() and (ropes <= 0.1).all()     # half-widths in accuracy or AUC units, not per cent
    truncated = ledger[ledger["printing"] != ""]
    assert truncated["printing"].str.startswith("truncated: ").all()
