"""The source ledger: its file, the verdict rules, and its agreement with the committed notebooks."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from helpers.workbook import ledger as L
from helpers.workbook.ledger import SourceCheck, compare_value, load_ledger, parse_printed

ROOT = Path(__file__).resolve().parents[2]
SRC = "000_355ea6f26af76eed.txt"


def row(key, printed, reading="", correction="", rid=None, notebook="99", scope=""):
    return dict(id=rid or f"VAC-{abs(hash(key)) % 10**6}", source=SRC, lines="1", item=f"item {key}",
                printed=printed, reading=reading, correction=correction, notebook=notebook, key=key, scope=scope)


@pytest.fixture
def check():
    led = pd.DataFrame([
        row("acc", "0.939"), row("loocv", "0.971"), row("one", "1.0"), row("third", "1/3"),
        row("prec", "9.921", "0.921", "extraction: the leading 0 is read as 9"),
        row("smc", "1/2", "1/3", "typo: the notes' R output prints 0.3333333 and the entry below is 1/3"),
        row("table", "2.50; 6.00; No"), row("count", "2,877"), row("pct", "91"),
        row("claim", "E(W^-1) beats raw cosine"), row("fig", "Fig. 2 numbers"),
    ])
    return SourceCheck("99", ledger=led)


# ---------------------------------------------------------------------------- printed values

def test_parse_printed_keeps_the_printed_rounding():
    got = [(p.value, p.decimals) for p in parse_printed("2,877; 0.9121; 1.0; 2/3; -0.46; No; 35%")]
    assert got == [(2877.0, 0), (0.9121, 4), (1.0, 1), (2 / 3, None), (-0.46, 2), ("No", None), (35.0, 0)]
    assert parse_printed("35%")[0].value == 35.0 and parse_printed("≈ 1.414")[0].value == 1.414
    with pytest.raises(ValueError, match="denominator 0"):
        parse_printed("1/0")


@pytest.mark.parametrize("printed, ours, ok", [
    ("0.939", 107 / 114, True),        # 0.93860 rounds to 0.939
    ("0.939", 0.9384, False),
    ("1.27", 1.2748, True),
    ("0.971", 553 / 569, True),        # 0.97188 truncates to 0.971 (noted)
    ("0.971", 0.9725, False),          # neither rounds nor truncates to it
    ("2/3", 0.6666666667, True), ("2/3", 0.667, False),
    ("No", "no", True), ("No", "yes", False), ("No", 0.0, False), ("0.5", "0.5", False),
    ("-0.46", -0.4649, True), ("-0.46", -0.4549, False), ("-0.46", -0.4701, False),
])
def test_compare_value(printed, ours, ok):
    assert compare_value(parse_printed(printed)[0], ours)[0] is ok


def test_exact_values_ignore_the_printed_rounding():
    one = parse_printed("1")[0]
    assert compare_value(one, 5 / 6)[0] and not compare_value(one, 5 / 6, exact=True)[0]
    assert compare_value(one, 1.0, exact=True)[0]


def test_truncation_is_named_and_tolerance_is_stated():
    assert "truncates" in compare_value(parse_printed("0.971")[0], 553 / 569)[1]
    assert compare_value(parse_printed("0.955")[0], 0.9613, tol=0.01) == (True, "within the stated tolerance 0.01")


# ---------------------------------------------------------------------------- verdict rules

def test_number_verdicts(check):
    assert check.number("acc", 107 / 114).verdict == "reproduced"
    assert check.number("acc", 0.95).verdict == "not reproduced"
    assert check.number("loocv", 553 / 569, how="LOOCV on all 569").verdict == "reproduced differently"
    assert check.number("prec", 0.9211).verdict == "extraction error"
    assert check.number("smc", 1 / 3).verdict == "source typo"
    assert check.number("smc", 1 / 4).verdict == "not reproduced"       # neither printed nor the reading
    assert check.number("smc", 1 / 2).verdict == "reproduced"
    assert check.number("table", [2.5, 6.0, "no"]).verdict == "reproduced"
    assert check.number("table", [2.5, 6.1, "No"]).verdict == "not reproduced"
    assert check.number("count", 2877).verdict == "reproduced"
    assert check.number("count", 2877.4).verdict == "reproduced"
    assert check.number("count", 2877.4, exact=True).verdict == "not reproduced"
    assert check.number("pct", 0.9061, percent=True).verdict == "reproduced"
    assert check.number("pct", 0.81, percent=True).verdict == "not reproduced"


def test_matches_tests_a_value_against_the_print_without_recording(check):
    assert check.matches("acc", 107 / 114) and not check.matches("acc", 0.95)
    assert check.matches("loocv", 553 / 569)                       # 0.97188 printed truncated
    assert check.matches("pct", 0.9061, percent=True) and not check.matches("pct", 0.9061)
    assert not check.matches("prec", 0.9211) and check.matches("prec", 0.9211, reading=True)
    assert check.matches("table", [2.5, 6.0, "No"])
    with pytest.raises(ValueError, match="give one per printed value"):
        check.matches("table", [2.5, 6.0])
    assert check.rows == []


def test_a_re_answered_key_replaces_its_row(check):
    check.number("acc", 0.95)
    check.number("acc", 107 / 114)
    assert [(r["key"], r["verdict"]) for r in check.rows] == [("acc", "reproduced")]


def test_rows_carry_the_difference_and_notes(check):
    r = check.number("prec", 0.9211).record
    assert r["difference"] == pytest.approx(0.0001) and "read 0.921" in r["note"]
    r = check.number("prec", 0.93).record                  # neither printed nor read: measured from the reading
    assert r["verdict"] == "not reproduced" and r["difference"] == pytest.approx(0.009)
    assert "read 0.921" in r["note"] and "0.93000 vs read 0.921" in r["note"]
    r = check.number("acc", 0.95).record
    assert r["difference"] == pytest.approx(0.011) and "0.95000 vs printed 0.939" in r["note"]


@pytest.mark.parametrize("effect, p, verdict", [
    (0.02, 0.001, "reproduced"), (0.001, 0.91, "small, not significant"),
    (-0.004, 0.6, "not supported"), (-0.03, 0.01, "refuted"),
])
def test_claims_with_an_effect(check, effect, p, verdict):
    assert check.claim("claim", effect=effect, p=p, evidence="50 splits").verdict == verdict


def test_claims_and_untestable_items(check):
    assert check.claim("claim", True, evidence="x").verdict == "reproduced"
    assert check.claim("claim", False, evidence="x").verdict == "refuted"
    assert check.claim("claim", True, evidence="x", how="LOOCV").verdict == "reproduced differently"
    not_testable = check.not_testable("fig", "Figs 2-7 are images; the text holds none of their numbers")
    assert not_testable.verdict == "not testable"
    with pytest.raises(ValueError, match="say why"):
        check.not_testable("fig", "")
    with pytest.raises(ValueError, match="either holds"):
        check.claim("claim", True, effect=0.1, p=0.5, evidence="x")
    with pytest.raises(ValueError, match="p-value"):
        check.claim("claim", effect=0.1, evidence="x")


def test_bad_answers_are_refused_with_the_fix(check):
    with pytest.raises(KeyError, match="no ledger row of notebook 99 has key 'acc.typo'.*add it"):
        check.number("acc.typo", 1.0)
    with pytest.raises(ValueError, match="2 value.*for 3 printed value"):
        check.number("table", [2.5, 6.0])
    with pytest.raises(ValueError, match="prints no value but .*answer it with claim"):
        check.number("claim", 1.0)
    with pytest.raises(ValueError, match="two-digit"):
        SourceCheck("3", ledger=check.ledger)


def test_summary_names_unanswered_rows_and_counts_verdicts(check):
    check.number("acc", 107 / 114)
    with pytest.raises(ValueError, match="10 ledger row.*have no comparison row: loocv"):
        check.summary()
    for key in ("loocv", "one", "third", "prec", "smc", "table", "count", "pct"):
        check.number(key, check.printed(key)[0].value if len(check.printed(key)) == 1 else [2.5, 6.0, "No"])
    check.claim("claim", effect=0.001, p=0.9, evidence="x")
    check.not_testable("fig", "image only")
    assert check.summary() == "11 source items answered: 9 reproduced, 1 small, not significant, 1 not testable"


def test_done_stores_every_row_and_refuses_gaps(check):
    check.number("acc", 107 / 114)
    with pytest.raises(ValueError, match="have no comparison row"):
        check.done()
    for key in ("loocv", "one", "third", "prec", "smc", "table", "count", "pct"):
        check.number(key, [2.5, 6.0, "No"] if key == "table" else check.printed(key)[0].value)
    check.claim("claim", True, evidence="x")
    check.not_testable("fig", "image only")
    bundle = check.done()._repr_mimebundle_()
    assert len(bundle[L.MIME]["rows"]) == 11 and "10 reproduced" in bundle["text/plain"]


def test_table_shows_new_rows_and_stores_json(check):
    check.number("acc", 107 / 114)
    first = check.table()
    check.number("one", 1.0)
    second = check.table()
    assert len(first) == 1 and len(second) == 1 and len(check.table(all=True)) == 2
    bundle = second._repr_mimebundle_()
    assert bundle[L.MIME]["rows"] == [{"id": check.item("one")["id"], "key": "one", "notebook": "99",
                                       "ours": 1.0, "verdict": "reproduced"}]
    assert "reproduced" in bundle["text/plain"] and "<table" in bundle["text/html"]


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
    (dict(reading="0.9", correction="my guess"), "needs a correction starting"),
    (dict(key="acc"), "key 'acc' is used twice in notebook 99"),
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


@pytest.mark.skipif(not (ROOT.parent / "shared" / "tools" / "check_ledger.py").exists(),
                    reason="../shared/tools is not beside the workbook")
def test_check_ledger_finds_every_printed_number_in_its_lines():
    out = subprocess.run([sys.executable, str(ROOT.parent / "shared" / "tools" / "check_ledger.py")],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]


def test_every_ledger_key_is_answered_by_its_notebook():
    ledger = load_ledger()
    answered = {(r["notebook"], r["key"]) for r in L.committed_rows()}
    keyed = ledger[ledger["key"] != ""]
    missing = [f"{r.id} ({r.notebook}: {r.key})" for r in keyed.itertuples() if (r.notebook, r.key) not in answered]
    assert not missing, f"{len(missing)} ledger rows name a key no notebook result holds: {missing[:20]}"


def test_every_comparison_row_names_a_ledger_row():
    ledger = load_ledger().set_index("id")
    bad = []
    for r in L.committed_rows():
        if r["id"] not in ledger.index:
            bad.append(f"{r['notebook']}:{r['key']} names {r['id']}, which is not in the ledger")
        elif (ledger.loc[r["id"], "notebook"], ledger.loc[r["id"], "key"]) != (r["notebook"], r["key"]):
            bad.append(f"{r['notebook']}:{r['key']} names {r['id']}, whose row is "
                       f"{ledger.loc[r['id'], 'notebook']}:{ledger.loc[r['id'], 'key']}")
        elif r["verdict"] not in L.VERDICTS:
            bad.append(f"{r['id']}: verdict {r['verdict']!r}")
    assert not bad, bad[:20]


def test_readme_coverage_matches_the_committed_notebooks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert L.readme_section() in text, "README's ledger coverage is stale: run `make ledger`"
