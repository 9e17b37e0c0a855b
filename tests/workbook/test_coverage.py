"""Ledger coverage: rows read back from notebooks, counted per source, and the README's block."""

import json
from pathlib import Path

import pandas as pd
import pytest

from helpers.workbook import coverage as C
from helpers.workbook.checks import MIME, SourceCheck
from helpers.workbook.ledger import SOURCES, load_ledger
from helpers.workbook.verdicts import VERDICTS

ROOT = Path(__file__).resolve().parents[2]
FILE = {prefix: file for file, (prefix, _) in SOURCES.items()}
VAC, SVM = FILE["VAC"], FILE["SVM"]


def ledger_rows():
    rows = [("VAC-1", "acc", "0.939"), ("VAC-2", "n", "569"), ("VAC-3", "", "Fig. 2"), ("VAC-4", "claim", "a claim")]
    return pd.DataFrame([dict(id=i, source=VAC, lines="1", item=i, printed=p, reading="", correction="",
                              notebook="99" if k else "", key=k, scope="" if k else "an image")
                         for i, k, p in rows])


def stored_notebook(tmp_path, outputs):
    nb = {"cells": [{"cell_type": "code", "outputs": [{"data": o} for o in outputs]}], "nbformat": 4}
    path = tmp_path / "99_x.ipynb"
    path.write_text(json.dumps(nb))
    return path


def test_notebook_rows_reads_the_json_of_every_table_and_the_last_answer_wins(tmp_path):
    check = SourceCheck("99", ledger=ledger_rows())
    check.number("acc", 0.95)
    first = check.table()._repr_mimebundle_()
    check.number("acc", 107 / 114)
    check.number("n", 569)
    check.claim("claim", False, evidence="x")
    last = check.done()._repr_mimebundle_()
    as_text = {MIME: json.dumps(check.table(all=True)._repr_mimebundle_()[MIME])}   # some writers store a string
    path = stored_notebook(tmp_path, [first, {"text/plain": "no rows here"}, as_text, last])
    rows = C.notebook_rows(path)
    assert [(r["key"], r["verdict"]) for r in rows] == [("acc", "reproduced"), ("n", "reproduced"),
                                                        ("claim", "refuted")]
    assert C.committed_rows(tmp_path) == rows


def test_coverage_counts_each_verdict_per_source():
    ledger = ledger_rows()
    rows = [{"id": "VAC-1", "verdict": "reproduced"}, {"id": "VAC-4", "verdict": "refuted"}]
    table = C.coverage(ledger, rows)
    assert list(table.columns) == ["rows", "out of scope", "distinct results", *VERDICTS, "unanswered"]
    vac = table.loc[f"VAC: {SOURCES[VAC][1]}"]
    assert (vac["rows"], vac["out of scope"], vac["reproduced"], vac["refuted"], vac["unanswered"]) == (4, 1, 1, 1, 1)
    assert table.loc[f"SVM: {SOURCES[SVM][1]}", "rows"] == 0 and table.loc["all sources"].equals(vac)
    head = "| source | rows | out of scope | distinct results | reproduced | refuted | unanswered |"
    assert C.coverage_markdown(table).splitlines()[0] == head


def test_readme_block_is_rewritten_between_its_markers(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{C.README_START}\nold\n{C.README_END}\n\nafter\n")
    monkeypatch.setattr(C, "readme_section", lambda: f"{C.README_START}\nnew\n{C.README_END}")
    assert C.update_readme(readme) and not C.update_readme(readme)
    assert readme.read_text() == f"# x\n\n{C.README_START}\nnew\n{C.README_END}\n\nafter\n"
    readme.write_text("# no block\n")
    with pytest.raises(ValueError, match="has no coverage block: put the lines"):
        C.update_readme(readme)


def test_main_prints_the_coverage_of_the_committed_notebooks(capsys):
    assert C.main(["coverage"]) == 0
    assert capsys.readouterr().out.strip() == C.coverage_markdown(C.coverage(load_ledger(), C.committed_rows()))
    with pytest.raises(SystemExit):
        C.main(["bogus"])


# ---------------------------------------------------------------------------- the committed notebooks

def test_every_ledger_key_is_answered_by_its_notebook():
    ledger = load_ledger()
    answered = {(r["notebook"], r["key"]) for r in C.committed_rows()}
    keyed = ledger[ledger["key"] != ""]
    missing = [f"{r.id} ({r.notebook}: {r.key})" for r in keyed.itertuples() if (r.notebook, r.key) not in answered]
    assert not missing, f"{len(missing)} ledger rows name a key no notebook result holds: {missing[:20]}"


def test_every_comparison_row_names_a_ledger_row():
    ledger = load_ledger().set_index("id")
    bad = []
    for r in C.committed_rows():
        if r["id"] not in ledger.index:
            bad.append(f"{r['notebook']}:{r['key']} names {r['id']}, which is not in the ledger")
        elif (ledger.loc[r["id"], "notebook"], ledger.loc[r["id"], "key"]) != (r["notebook"], r["key"]):
            bad.append(f"{r['notebook']}:{r['key']} names {r['id']}, whose row is "
                       f"{ledger.loc[r['id'], 'notebook']}:{ledger.loc[r['id'], 'key']}")
        elif r["verdict"] not in VERDICTS:
            bad.append(f"{r['id']}: verdict {r['verdict']!r}")
    assert not bad, bad[:20]


def test_readme_coverage_matches_the_committed_notebooks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert C.readme_section() in text, "README's ledger coverage is stale: run `make ledger`"


#: verdicts that only a claim judged from an effect can get
EFFECT_VERDICTS = {"practically equivalent", "small but real", "small, not significant", "inconclusive",
                   "not supported"}


def test_every_claim_judged_by_an_effect_stores_its_interval_rope_and_sensitivity():
    ledger = load_ledger().set_index("id")
    rows = C.committed_rows()
    judged = [r for r in rows if r.get("interval") is not None]
    assert judged, "no committed notebook stores a claim judged from an effect"
    for r in judged:
        assert r["rope"] == float(ledger.loc[r["id"], "rope"]), r["id"]
        low, high = r["interval"]
        assert low <= r["effect"] <= high, r["id"]
        assert r["rope_sensitivity"] or r["posterior"], r["id"]
    for r in rows:
        if r["verdict"] in EFFECT_VERDICTS:
            assert r.get("interval") is not None, f"{r['id']}: {r['verdict']} without an effect and its interval"
    with_rope = set(ledger.index[ledger["rope"] != ""])
    answered_by_effect = {r["id"] for r in judged}
    assert with_rope <= answered_by_effect | {r["id"] for r in rows if r["verdict"] == "not testable"}, (
        f"ledger rows state a ROPE but their notebook answered them without an effect: "
        f"{sorted(with_rope - answered_by_effect)[:8]}")


def test_claims_over_data_sets_store_the_three_posterior_probabilities():
    rows = [r for r in C.committed_rows() if r["notebook"] == "08" and r.get("interval") is not None]
    assert rows, "notebook 08 judges its claims over data sets from effects"
    for r in rows:
        post = r["posterior"]
        assert set(post) == {"better", "equivalent", "worse"}, r["id"]
        assert sum(post.values()) == pytest.approx(1.0, abs=1e-3), r["id"]


def test_no_refuted_row_rests_on_one_reconstruction_of_an_unstated_setting():
    """Every "refuted" either depends on no setting the source leaves unstated (the ledger says why) or was judged
    over the whole plausible range the ledger states, ends included, and refuted at every value of it."""
    ledger = load_ledger().set_index("id")
    refuted = [r for r in C.committed_rows() if r["verdict"] == "refuted"]
    assert refuted, "no refuted row at all: the committed notebooks were not read"
    for r in refuted:
        unstated = ledger.loc[r["id"], "unstated"]
        assert unstated, f"{r['id']} is refuted but its ledger row does not say whether an unstated setting matters"
        if unstated.startswith("none: "):
            continue
        low, high = r["unstated"]["range"]
        assert min(r["plausible"]) == low and max(r["plausible"]) == high and len(r["plausible"]) >= 2, r["id"]
        assert all(r["settings"][str(v)]["verdict"] == "refuted" for v in r["plausible"]), r["id"]


def test_a_row_judged_over_settings_names_the_ledgers_range_and_every_value():
    ledger = load_ledger().set_index("id")
    over = [r for r in C.committed_rows() if "settings" in r]
    assert len(over) >= 20   # the Mahal-kNN paper's claims over its unstated keyword threshold
    for r in over:
        assert ledger.loc[r["id"], "unstated"].startswith(f"{r['unstated']['setting']}: "), r["id"]
        assert set(map(str, r["plausible"])) <= set(r["settings"]), r["id"]


def test_rows_that_are_one_comparison_are_counted_once():
    ledger = load_ledger()
    table = C.coverage(ledger, C.committed_rows())
    same = int((ledger.loc[ledger["key"] != "", "same_as"] != "").sum())
    assert same >= 3
    in_scope = int((ledger["key"] != "").sum())
    assert table.loc["all sources", "distinct results"] == in_scope - same


@pytest.mark.parametrize("rows, message", [
    ([{"id": "VAC-1", "verdict": "Refuted"}], r"VAC-1: verdict 'Refuted' is not one of .* did you mean 'refuted'\?"),
    ([{"id": "VAC-1", "verdict": "wrong"}], r"VAC-1: verdict 'wrong' is not one of the workbook's"),
    ([{"id": "VAC-1", "verdict": "reproduced"}, {"id": "VAC-1", "verdict": "refuted"}],
     r"VAC-1 is answered twice, 'reproduced' and 'refuted'"),
])
def test_coverage_refuses_rows_it_could_not_count(rows, message):
    """A verdict counted nowhere, or one id with two answers, would make the README's table not add up."""
    with pytest.raises(ValueError, match=message):
        C.coverage(ledger_rows(), rows)


def test_coverage_columns_add_up_to_the_rows_in_scope():
    ledger = load_ledger()
    table = C.coverage(ledger, C.committed_rows())
    counted = table[[*VERDICTS, "unanswered"]].sum(axis=1)
    assert (counted == table["rows"] - table["out of scope"]).all()
