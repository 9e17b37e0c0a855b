"""The verdict engine: printed values, comparisons, and each rule by a table of cases."""

import pytest

from helpers.workbook.verdicts import (
    VERDICTS,
    Comparison,
    claim_verdict,
    compare_value,
    compare_values,
    correction_verdict,
    format_value,
    holds_verdict,
    match_verdict,
    number_verdict,
    parse_printed,
)

# ---------------------------------------------------------------------------- printed values


def test_parse_printed_keeps_the_printed_rounding():
    got = [(p.value, p.decimals) for p in parse_printed("2,877; 0.9121; 1.0; 2/3; -0.46; No; 35%")]
    assert got == [(2877.0, 0), (0.9121, 4), (1.0, 1), (2 / 3, None), (-0.46, 2), ("No", None), (35.0, 0)]
    assert parse_printed("35%")[0].value == 35.0 and parse_printed("≈ 1.414")[0].value == 1.414
    assert parse_printed("−0.5")[0].value == -0.5 and parse_printed("") == []
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
    ("0.5", float("nan"), False),
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


def test_compare_values_notes_each_mismatch_and_keeps_the_largest_difference():
    got = compare_values(parse_printed("2.50; 6.00; No"), [2.5, 6.1, "Yes"])
    assert got == Comparison(False, ["6.1000 vs printed 6.00", "Yes vs printed No"], pytest.approx(0.1))
    assert compare_values(parse_printed("91"), 0.9061, percent=True).ok
    assert compare_values(parse_printed("0.921"), 0.93, label="read").notes == ["0.93000 vs read 0.921"]
    with pytest.raises(ValueError, match="2 value.*for 3 printed value.*give one per printed value"):
        compare_values(parse_printed("2.50; 6.00; No"), (2.5, 6.0))


def test_format_value_prints_two_digits_beyond_the_source():
    assert [format_value(v, d) for v, d in [(0.95, 3), (1 / 3, None), (12000.0, 0), (7.0, None), (float("nan"), 2)]] \
        == ["0.95000", "0.333333", "12,000", "7", ""]


# ---------------------------------------------------------------------------- the rules, case by case

def test_every_rule_returns_a_verdict_of_the_list():
    assert set(VERDICTS) >= {match_verdict(True), match_verdict(True, "x"), match_verdict(False),
                             correction_verdict("typo: x"), correction_verdict("extraction: x"),
                             holds_verdict(True), holds_verdict(False),
                             claim_verdict(1, 0.01), claim_verdict(1, 0.5),
                             claim_verdict(-1, 0.5), claim_verdict(-1, 0.01)}


@pytest.mark.parametrize("ok, how, verdict", [
    (True, None, "reproduced"), (True, "LOOCV on all 569", "reproduced differently"),
    (False, None, "not reproduced"), (False, "LOOCV on all 569", "not reproduced"),
])
def test_match_verdict(ok, how, verdict):
    assert match_verdict(ok, how) == verdict


@pytest.mark.parametrize("correction, verdict", [
    ("extraction: the leading 0 is read as 9", "extraction error"),
    ("typo: the notes' R output prints 0.3333333", "source typo"),
])
def test_correction_verdict(correction, verdict):
    assert correction_verdict(correction) == verdict


def test_a_correction_outside_the_convention_is_refused():
    with pytest.raises(ValueError, match="must start 'typo:' or 'extraction:'"):
        correction_verdict("my guess: 0.9")


EXTRACTION = dict(reading="0.921", correction="extraction: the leading 0 is read as 9")
TYPO = dict(reading="1/3", correction="typo: the entry below is 1/3")


@pytest.mark.parametrize("printed, ours, options, verdict", [
    ("0.939", 107 / 114, {}, "reproduced"),
    ("0.939", 0.95, {}, "not reproduced"),
    ("0.971", 553 / 569, {"how": "LOOCV on all 569"}, "reproduced differently"),
    ("9.921", 0.9211, EXTRACTION, "extraction error"),
    ("9.921", 0.93, EXTRACTION, "not reproduced"),           # neither the print nor the reading
    ("1/2", 1 / 3, TYPO, "source typo"),
    ("1/2", 1 / 4, TYPO, "not reproduced"),
    ("1/2", 1 / 2, TYPO, "reproduced"),                        # the print itself wins over the reading
    ("2.50; 6.00; No", [2.5, 6.0, "no"], {}, "reproduced"),
    ("2.50; 6.00; No", [2.5, 6.1, "No"], {}, "not reproduced"),
    ("2,877", 2877.4, {}, "reproduced"),
    ("2,877", 2877.4, {"exact": True}, "not reproduced"),
    ("91", 0.9061, {"percent": True}, "reproduced"),
    ("91", 0.81, {"percent": True}, "not reproduced"),
    ("0.955", 0.9613, {"tol": 0.01}, "reproduced"),
])
def test_number_verdict(printed, ours, options, verdict):
    assert number_verdict(printed, ours, **options).verdict == verdict


def test_number_verdict_measures_from_the_reading_once_the_print_fails():
    got = number_verdict("9.921", 0.93, **EXTRACTION)
    assert got.difference == pytest.approx(0.009)
    assert got.notes == ["printed 9.921, read 0.921 (extraction: the leading 0 is read as 9)", "0.93000 vs read 0.921"]
    plain = number_verdict("0.939", 0.95)
    assert plain.difference == pytest.approx(0.011) and plain.notes == ["0.95000 vs printed 0.939"]


@pytest.mark.parametrize("holds, how, verdict", [
    (True, None, "reproduced"), (True, "LOOCV", "reproduced differently"),
    (False, None, "refuted"), (False, "LOOCV", "refuted"),
])
def test_holds_verdict(holds, how, verdict):
    assert holds_verdict(holds, how) == verdict


@pytest.mark.parametrize("effect, p, alpha, how, verdict", [
    (0.02, 0.001, 0.05, None, "reproduced"),
    (0.02, 0.001, 0.05, "LOOCV", "reproduced differently"),
    (0.001, 0.91, 0.05, None, "small, not significant"),
    (0.001, 0.91, 0.05, "LOOCV", "small, not significant"),
    (0.02, 0.03, 0.01, None, "small, not significant"),      # alpha decides significance
    (0.02, 0.05, 0.05, None, "small, not significant"),      # p = alpha is not below it
    (-0.004, 0.6, 0.05, None, "not supported"),
    (0.0, 0.6, 0.05, None, "not supported"),                 # no effect is not the claimed direction
    (-0.03, 0.01, 0.05, None, "refuted"),
    (-0.03, 0.01, 0.05, "LOOCV", "refuted"),
])
def test_claim_verdict(effect, p, alpha, how, verdict):
    assert claim_verdict(effect, p, alpha, how) == verdict


@pytest.mark.parametrize("p", [None, -0.1, 1.5])
def test_claim_verdict_needs_a_p_value(p):
    with pytest.raises(ValueError, match=r"p-value in \[0, 1\]"):
        claim_verdict(0.1, p)
