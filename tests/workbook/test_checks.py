"""SourceCheck: a notebook's answers to its ledger rows, one at a time and in batches, and their tables."""

import pandas as pd
import pytest

from helpers.workbook.checks import MIME, ComparisonTable, SourceCheck

SRC = "000_355ea6f26af76eed.txt"


def row(key, printed, reading="", correction="", rid=None, notebook="99", scope="", rope="", printing=""):
    return dict(id=rid or f"VAC-{abs(hash(key)) % 10**6}", source=SRC, lines="1", item=f"item {key}",
                printed=printed, reading=reading, correction=correction, notebook=notebook, key=key, scope=scope,
                rope=rope, printing=printing)


@pytest.fixture
def check():
    led = pd.DataFrame([
        row("acc", "0.939"), row("loocv", "0.971", printing="truncated: the table cuts 565/569 to 0.992"),
        row("one", "1.0"), row("third", "1/3"),
        row("prec", "9.921", "0.921", "extraction: the leading 0 is read as 9"),
        row("smc", "1/2", "1/3", "typo: the notes' R output prints 0.3333333 and the entry below is 1/3"),
        row("table", "2.50; 6.00; No"), row("count", "2,877"), row("pct", "91"),
        row("claim", "E(W^-1) beats raw cosine", rope="0.01"), row("fig", "Fig. 2 numbers"),
        row("cite", "naive Bayes as in Lewis (1998)", correction="slip: the reference list's entry is another paper"),
        row("nr", "0.971"),
    ])
    return SourceCheck("99", ledger=led)



# ---------------------------------------------------------------------------- one answer at a time

def test_number_verdicts(check):
    assert check.number("acc", 107 / 114).verdict == "reproduced"
    assert check.number("acc", 0.95).verdict == "not reproduced"
    assert check.number("loocv", 553 / 569, how="LOOCV on all 569").verdict == "reproduced differently"
    assert "truncated as the ledger row says" in check.rows[-1]["note"]
    assert check.number("nr", 553 / 569).verdict == "not reproduced"     # 0.97188 rounds to 0.972: no truncation
    assert check.number("nr", 0.9714).verdict == "reproduced"
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
    assert check.matches("loocv", 553 / 569)                       # 0.97188 printed truncated, as the row says
    assert not check.matches("nr", 553 / 569)                      # a row that does not say so: rounding
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


@pytest.mark.parametrize("effect, interval, verdict", [
    (0.02, (0.012, 0.03), "reproduced"), (0.002, (-0.005, 0.009), "practically equivalent"),
    (0.004, (-0.02, 0.03), "small, not significant"), (0.03, (-0.01, 0.07), "inconclusive"),
    (-0.004, (-0.03, 0.02), "not supported"), (-0.03, (-0.05, -0.012), "refuted"),
])
def test_claims_with_an_effect(check, effect, interval, verdict):
    r = check.claim("claim", effect=effect, interval=interval, evidence="50 splits").record
    assert r["verdict"] == verdict and r["rope"] == 0.01 and r["interval"] == list(interval)
    assert set(r["rope_sensitivity"]) == {"half", "double"} and r["posterior"] is None


def test_a_claim_takes_an_effect_dict_a_posterior_and_several_comparisons(check):
    r = check.claim("claim", effect={"effect": 0.02, "interval": (0.01, 0.03), "p": 0.001, "method": "5x2 CV"},
                    evidence="x").record
    assert (r["verdict"], r["p"], r["method"]) == ("reproduced", 0.001, "5x2 CV") and "5x2 CV" in r["note"]
    post = {"better": 0.01, "equivalent": 0.97, "worse": 0.02}
    r = check.claim("claim", effect=0.004, interval=(-0.02, 0.03), posterior=post, evidence="x").record
    assert r["verdict"] == "practically equivalent" and r["posterior"] == post and r["rope_sensitivity"] == {}
    r = check.claim("claim", effect=0.004, interval=(-0.02, 0.03), evidence="x",
                    posterior=lambda rope: {"better": 0.0, "equivalent": 1.0, "worse": 0.0} if rope >= 0.01
                    else {"better": 0.5, "equivalent": 0.2, "worse": 0.3}).record
    assert r["verdict"] == "practically equivalent"
    assert r["rope_sensitivity"] == {"half": "small, not significant", "double": "practically equivalent"}
    r = check.claim("claim", evidence="x", comparisons={
        "vs linear": {"effect": 0.03, "interval": (0.02, 0.04)},
        "vs RBF": {"effect": 0.01, "interval": (-0.01, 0.03)}}).record
    assert (r["verdict"], r["comparison"]) == ("small, not significant", "vs RBF") and "vs RBF" in r["note"]


def test_a_claim_without_a_rope_or_an_interval_is_refused(check):
    with pytest.raises(ValueError, match="states no ROPE"):
        check.claim("fig", effect=0.1, interval=(0.0, 0.2), evidence="x")
    with pytest.raises(ValueError, match="needs its 95% interval"):
        check.claim("claim", effect=0.1, evidence="x")
    with pytest.raises(ValueError, match="finite"):
        check.claim("claim", effect=float("nan"), interval=(0.0, 0.2), evidence="x")
    with pytest.raises(ValueError, match="outside its interval"):
        check.claim("claim", effect=0.5, interval=(0.0, 0.2), evidence="x")
    with pytest.raises(TypeError, match="True or False"):
        check.claim("claim", "False", evidence="x")


def test_a_slip_that_does_not_hold_is_not_refuted(check):
    assert check.claim("cite", False, evidence="the reference list cites Rennie").verdict == "source slip"
    assert check.claim("claim", False, evidence="x").verdict == "refuted"


def test_claims_and_untestable_items(check):
    assert check.claim("claim", True, evidence="x").verdict == "reproduced"
    assert check.claim("claim", False, evidence="x").verdict == "refuted"
    assert check.claim("claim", True, evidence="x", how="LOOCV").verdict == "reproduced differently"
    not_testable = check.not_testable("fig", "Figs 2-7 are images; the text holds none of their numbers")
    assert not_testable.verdict == "not testable"
    with pytest.raises(ValueError, match="say why"):
        check.not_testable("fig", "")
    with pytest.raises(ValueError, match="give one of holds"):
        check.claim("claim", True, effect=0.1, interval=(0.0, 0.2), evidence="x")


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
    with pytest.raises(ValueError, match="12 ledger row.*have no comparison row: loocv"):
        check.summary()
    for key in ("loocv", "one", "third", "prec", "smc", "table", "count", "pct", "nr"):
        check.number(key, check.printed(key)[0].value if len(check.printed(key)) == 1 else [2.5, 6.0, "No"])
    check.claim("claim", effect=0.001, interval=(-0.03, 0.03), evidence="x")
    check.claim("cite", False, evidence="x")
    check.not_testable("fig", "image only")
    assert check.summary() == ("13 source items answered: 10 reproduced, 1 source slip, 1 small, not significant, "
                               "1 not testable")


def test_done_stores_every_row_and_refuses_gaps(check):
    check.number("acc", 107 / 114)
    with pytest.raises(ValueError, match="have no comparison row"):
        check.done()
    for key in ("loocv", "one", "third", "prec", "smc", "table", "count", "pct", "nr"):
        check.number(key, [2.5, 6.0, "No"] if key == "table" else check.printed(key)[0].value)
    check.claim("claim", effect=0.02, interval=(0.01, 0.03), evidence="x")
    check.claim("cite", True, evidence="x")
    check.not_testable("fig", "image only")
    bundle = check.done()._repr_mimebundle_()
    assert len(bundle[MIME]["rows"]) == 13 and "12 reproduced" in bundle["text/plain"]
    stored = next(r for r in bundle[MIME]["rows"] if r["key"] == "claim")
    assert stored["interval"] == [0.01, 0.03] and stored["rope"] == 0.01 and "posterior" in stored


def test_table_shows_new_rows_and_stores_json(check):
    check.number("acc", 107 / 114)
    first = check.table()
    check.number("one", 1.0)
    second = check.table()
    assert len(first) == 1 and len(second) == 1 and len(check.table(all=True)) == 2
    bundle = second._repr_mimebundle_()
    assert bundle[MIME]["rows"] == [{"id": check.item("one")["id"], "key": "one", "notebook": "99",
                                       "ours": 1.0, "verdict": "reproduced"}]
    assert "reproduced" in bundle["text/plain"] and "<table" in bundle["text/html"]





def test_a_check_knows_its_notebook(check):
    assert repr(check) == "SourceCheck('99'): 0 of 13 ledger rows answered"
    assert check.item("acc")["printed"] == "0.939" and [p.value for p in check.printed("table")] == [2.5, 6.0, "No"]


# ---------------------------------------------------------------------------- many answers at once

NUMBERS = {"acc": 107 / 114, "loocv": 553 / 569, "prec": 0.9211, "smc": 1 / 3, "table": [2.5, 6.0, "no"],
           "count": 2877, "pct": 0.9061}


def records(rows):
    return [{k: v for k, v in r.items()} for r in rows]


def test_numbers_adds_the_rows_the_single_calls_add(check):
    from helpers.workbook.checks import SourceCheck as Fresh

    single = Fresh("99", ledger=check.ledger)
    for key, ours in NUMBERS.items():
        single.number(key, ours, note="fold noise", percent=(key == "pct"))
    options = {k: (v, {"percent": True}) if k == "pct" else v for k, v in NUMBERS.items()}
    table = check.numbers(options, note="fold noise")
    assert isinstance(table, ComparisonTable) and records(table.rows) == records(check.rows) == records(single.rows)
    assert [r["verdict"] for r in table.rows] == ["reproduced", "reproduced", "extraction error", "source typo",
                                                  "reproduced", "reproduced", "reproduced"]


def test_a_keys_own_options_take_precedence_over_the_shared_ones(check):
    table = check.numbers({"acc": (0.95, {"tol": 0.02, "note": "two fold sds"}), "one": 1.0}, note="shared",
                          how="LOOCV")
    acc, one = table.rows
    assert (acc["verdict"], acc["note"]) == ("reproduced differently",
                                             "by LOOCV; within the stated tolerance 0.02; two fold sds")
    assert (one["verdict"], one["note"]) == ("reproduced differently", "by LOOCV; shared")


def test_a_tuple_of_keys_shares_one_answer(check):
    table = check.numbers({("one", "count"): 1.0})
    assert [(r["key"], r["verdict"]) for r in table.rows] == [("one", "reproduced"), ("count", "not reproduced")]
    values = check.numbers({"table": (2.5, 6.0, "No")})          # a tuple of values is ours, not options
    assert values.rows[0]["verdict"] == "reproduced"


def test_claims_add_the_rows_the_single_calls_add(check):
    single = SourceCheck("99", ledger=check.ledger)
    single.claim("claim", effect=-0.01, interval=(-0.03, 0.01), evidence="50 splits", how="LOOCV")
    single.claim("one", False, evidence="A A' = S", how="LOOCV")
    single.claim("third", False, evidence="none", how="LOOCV")
    batch = check.claims({("fig", "one"): {"holds": True, "evidence": "A A' = S"},
                          "claim": {"effect": -0.01, "interval": (-0.03, 0.01), "evidence": "50 splits"},
                          "third": (False, "none")}, how="LOOCV")
    check.claims({"one": False}, evidence="A A' = S", how="LOOCV")   # a re-answered key replaces its row
    single.claim("fig", True, evidence="A A' = S", how="LOOCV")
    assert [(r["key"], r["verdict"]) for r in batch.rows] == [
        ("fig", "reproduced differently"), ("one", "reproduced differently"), ("claim", "not supported"),
        ("third", "refuted")]
    by_key = lambda rows: sorted(records(rows), key=lambda r: r["key"])  # noqa: E731
    assert by_key(check.rows) == by_key(single.rows)


def test_batch_calls_refuse_bad_input_with_the_fix(check):
    with pytest.raises(TypeError, match=r"numbers\(\) takes a dict \{key: answer\}, not a list"):
        check.numbers([("acc", 0.939)])
    with pytest.raises(ValueError, match="no answers"):
        check.numbers({})
    with pytest.raises(TypeError, match=r"numbers\(\): unknown option\(s\) \['tolerance'\]; the options are"):
        check.numbers({"acc": 0.939}, tolerance=0.1)
    with pytest.raises(TypeError, match=r"'acc' has unknown option\(s\) \['evidence'\]"):
        check.numbers({"acc": (0.939, {"evidence": "x"})})
    with pytest.raises(TypeError, match="a key must be a ledger key"):
        check.numbers({1: 0.939})
    with pytest.raises(TypeError, match=r"claims\(\): 'claim' has no evidence"):
        check.claims({"claim": True})
    with pytest.raises(KeyError, match="no ledger row of notebook 99 has key 'nope'"):
        check.numbers({"acc": 0.939, "nope": 1.0})
    assert [r["key"] for r in check.rows] == ["acc"]             # rows before the bad key are kept


def test_batch_tables_are_not_shown_again_by_table(check):
    check.claim("claim", True, evidence="x")                   # pending, shown by the next table()
    batch = check.numbers({"acc": 107 / 114, "one": 1.0})
    assert [r["key"] for r in batch.rows] == ["acc", "one"]
    assert [r["key"] for r in check.table().rows] == ["claim"]
    assert len(check.table()) == 0 and len(check.table(all=True)) == 3
    bundle = batch._repr_mimebundle_()
    assert [r["key"] for r in bundle[MIME]["rows"]] == ["acc", "one"]


def test_a_table_with_an_effect_shows_its_interval_rope_posterior_and_sensitivity(check):
    check.number("acc", 107 / 114)
    check.claim("claim", effect=0.004, interval=(-0.006, 0.014), evidence="x",
                posterior=lambda rope: {"better": 0.1, "equivalent": 0.85, "worse": 0.05})
    frame = check.table().frame()
    assert list(frame.columns) == ["id", "quantity", "source", "ours", "difference", "verdict", *ComparisonTable.
                                   EFFECT_COLUMNS, "lines", "note"]
    claim = frame.iloc[1]
    assert (claim["effect"], claim["95% interval"], claim["ROPE"]) == ("+0.004", "[-0.006, +0.014]", "±0.01")
    assert claim["P(better, equivalent, worse)"] == "0.10, 0.85, 0.05" and claim["ours"] == ""
    assert claim["at half, double the ROPE"] == "small, not significant; practically equivalent"
    assert frame.iloc[0]["effect"] == "" and frame.iloc[0]["ours"] == "0.938596"
    plain = ComparisonTable([check.rows[0]]).frame()
    assert list(plain.columns) == ComparisonTable.COLUMNS


# -- a claim over the plausible range of a setting the source leaves unstated ---------------------

MKN = "003_9c226eb02e43f5a5.txt"
RANGE = "components: 168-948; 250 to 2,000 keywords give these"


def settings_check(unstated=RANGE, same_as=""):
    base = dict(source=MKN, lines="19", reading="", correction="", notebook="99", scope="", rope="0.01", printing="")
    led = pd.DataFrame([
        {**base, "id": "MKN-901", "item": "claim", "printed": "better", "key": "acc", "unstated": unstated,
         "same_as": ""},
        {**base, "id": "MKN-902", "item": "micro precision", "printed": "better", "key": "micro",
         "unstated": unstated, "same_as": same_as or ""},
        {**base, "id": "MKN-903", "item": "an order", "printed": "the expected value", "key": "order",
         "unstated": "", "same_as": ""},
    ])
    return SourceCheck("99", ledger=led)


EFFECTS = {25: {"effect": -0.05, "interval": (-0.07, -0.03)}, 168: {"effect": 0.02, "interval": (0.005, 0.03)},
           300: {"effect": 0.014, "interval": (0.004, 0.026)}, 948: {"effect": -0.03, "interval": (-0.05, -0.01)},
           3059: {"effect": -0.139, "interval": (-0.162, -0.116)}}


def test_a_claim_is_judged_over_the_plausible_range_the_ledger_states():
    r = settings_check().claim("acc", settings=EFFECTS, at=3059, evidence="the most accurate reading").record
    assert r["verdict"] == "depends on the unstated setting"
    assert r["plausible"] == [168, 300, 948] and r["unstated"] == {"setting": "components", "range": [168.0, 948.0]}
    assert r["settings"]["3059"]["verdict"] == "refuted" and r["settings"]["300"]["verdict"] == "reproduced"
    assert r["effect"] == -0.139 and r["ours"].endswith("at components = 3,059")   # the reconstruction is shown
    assert "reproduced at 168, 300; refuted at 948" in r["note"]


def test_refuted_only_when_refuted_at_every_plausible_setting():
    refuted = {k: EFFECTS[k] for k in (25, 948, 3059)} | {168: EFFECTS[948]}
    assert settings_check().claim("acc", settings=refuted, evidence="x").verdict == "refuted"
    mixed = {168: {"effect": -0.002, "interval": (-0.02, 0.015)}, 948: EFFECTS[948]}
    assert settings_check().claim("acc", settings=mixed, evidence="x").verdict == "not supported"


def test_a_claim_that_holds_or_not_at_each_setting():
    r = settings_check().claim("acc", settings={100: False, 168: True, 948: False}, evidence="invertible").record
    assert r["verdict"] == "depends on the unstated setting"
    assert r["ours"] == "does not hold at 100; holds at 168; does not hold at 948"


@pytest.mark.parametrize("unstated, settings, at, message", [
    ("", EFFECTS, None, "needs the setting the source leaves unstated"),
    ("none: an identity holds whatever the data", EFFECTS, None, "needs the setting"),
    (RANGE, {25: EFFECTS[25], 3059: EFFECTS[3059]}, None, "none of the settings judged"),
    (RANGE, EFFECTS, 500, "at=500 is not one of the settings judged"),
    (RANGE, {}, None, "non-empty dict"),
    (RANGE, {168: {"effect": 0.02}}, None, "interval"),
])
def test_a_claim_over_settings_refuses_what_it_cannot_judge(unstated, settings, at, message):
    with pytest.raises(ValueError, match=message):
        settings_check(unstated).claim("acc", settings=settings, at=at, evidence="x")


def test_one_comparison_answering_several_rows_is_named_once():
    check = settings_check(same_as="MKN-901")
    r = check.claim("micro", settings=EFFECTS, evidence="micro precision is accuracy with one label").record
    assert r["same_as"] == "MKN-901" and r["note"].endswith("the same comparison as MKN-901")
    stored = check.table(all=True)._repr_mimebundle_()[MIME]["rows"][-1]    # what the coverage reads back
    assert stored["same_as"] == "MKN-901" and stored["settings"]["300"]["verdict"] == "reproduced"


def test_our_finding_is_not_a_verdict_on_the_source():
    r = settings_check().finding("order", "0.939-0.965 over 50 column orders", evidence="Option B on the split").record
    assert r["verdict"] == "our finding"
    with pytest.raises(ValueError, match="say what was measured"):
        settings_check().finding("order", 1, evidence="")
