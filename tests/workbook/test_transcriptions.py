"""The ledger's transcriptions against the source texts: every printed number in its cited lines."""

from __future__ import annotations

import re

import pytest

from helpers.workbook import transcriptions as T
from helpers.workbook.cli import main

SRC = "000_355ea6f26af76eed.txt"


def write(tmp_path, rows, text="line one 0.939\nline two 2,877 documents\nline three 1.0 and .95\n"):
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / SRC).write_text(text, encoding="utf-8")
    ledger = tmp_path / "ledger.csv"
    ledger.write_text("id,source,lines,printed\n" + "".join(f"{r}\n" for r in rows), encoding="utf-8")
    return ledger, sources


def test_numbers_ignore_separators_and_trailing_zeros():
    assert T.numbers("2,877; 1.0; .95; 0.950; −3") == {"2877", "1", "0.95", "-3"}
    assert T.numbers("no number here") == set()


def test_every_printed_number_found_in_its_lines(tmp_path):
    ledger, sources = write(tmp_path, [f"VAC-1,{SRC},1,0.939", f"VAC-2,{SRC},2-3,2877 and 1", f"VAC-3,{SRC},3,a claim"])
    assert T.check_transcriptions(ledger, sources) == (3, 2, [])


@pytest.mark.parametrize("row, message", [
    (f"VAC-1,{SRC},1,0.94", r"VAC-1: 0.94 \(printed '0.94'\) not in 000_355ea6f26af76eed.txt lines 1"),
    (f"VAC-1,{SRC},2,0.939", r"VAC-1: 0.939 .* not in .* lines 2"),            # the right number, the wrong line
    (f"VAC-1,{SRC},9,0.939", r"VAC-1: lines '9' are not line numbers of .* \(1-3\)"),
    (f"VAC-1,{SRC},3-1,1", r"VAC-1: lines '3-1' are not line numbers"),
    (f"VAC-1,{SRC},one,1", r"VAC-1: lines 'one' are not line numbers"),
    ("VAC-1,001_missing.txt,1,1", r"VAC-1: source '001_missing.txt' is not a file in"),
])
def test_a_transcription_that_does_not_check_is_named(tmp_path, row, message):
    ledger, sources = write(tmp_path, [row])
    rows, numeric, problems = T.check_transcriptions(ledger, sources)
    assert len(problems) == 1
    assert re.search(message, problems[0]), problems[0]


def test_without_the_source_texts_it_says_how_to_get_them(tmp_path, capsys):
    ledger, _ = write(tmp_path, [f"VAC-1,{SRC},1,0.939"])
    empty = tmp_path / "none"
    empty.mkdir()
    with pytest.raises(FileNotFoundError, match="does not distribute the text extractions .* --sources or COVSIM"):
        T.check_transcriptions(ledger, empty)
    assert T.main(empty, ledger, required=True) == 1 and capsys.readouterr().out.startswith("error: no source text")


def test_no_texts_at_the_default_place_skip_the_check_but_a_named_empty_folder_fails(tmp_path, capsys, monkeypatch):
    """The texts are not distributed, so `make ledger` without them says so and passes; a folder the caller
    names (misspelt, or empty) used to pass the same way, as if its transcriptions had been checked."""
    ledger, _ = write(tmp_path, [f"VAC-1,{SRC},1,0.939"])
    empty = tmp_path / "none"
    empty.mkdir()
    monkeypatch.delenv("COVSIM_SOURCES", raising=False)
    monkeypatch.setattr(T, "DEFAULT_SOURCES", empty)
    assert T.main(None, ledger) == 0 and "transcriptions not checked" in capsys.readouterr().out
    assert T.main(empty, ledger) == 1 and capsys.readouterr().out.startswith("error: no source text in")
    assert T.main(tmp_path / "sorces", ledger) == 1 and "sorces" in capsys.readouterr().out
    monkeypatch.setenv("COVSIM_SOURCES", str(empty))
    assert T.main(None, ledger) == 1 and capsys.readouterr().out.startswith("error: no source text")


def test_the_folder_comes_from_the_option_then_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COVSIM_SOURCES", str(tmp_path))
    assert T.source_folder() == tmp_path and T.source_folder("given") == T.Path("given")
    monkeypatch.delenv("COVSIM_SOURCES")
    assert T.source_folder() == T.DEFAULT_SOURCES


def test_the_command_line_reports_each_problem_and_fails(tmp_path, capsys):
    ledger, sources = write(tmp_path, [f"VAC-1,{SRC},1,0.939", f"VAC-2,{SRC},1,0.5"])
    assert main(["transcriptions", "--sources", str(sources), "--ledger", str(ledger)]) == 1
    out = capsys.readouterr().out
    assert "VAC-2: 0.5" in out and out.rstrip().endswith("2 rows, 2 with numbers: 1 problem(s)")
    bad = tmp_path / "bad.csv"
    bad.write_text("id,item\nVAC-1,x\n", encoding="utf-8")
    assert main(["transcriptions", "--sources", str(sources), "--ledger", str(bad)]) == 1
    assert "needs the columns" in capsys.readouterr().out
