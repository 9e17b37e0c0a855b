"""The verdict engine: printed values, comparisons, and each rule by a table of cases."""

import pytest

from helpers.workbook.verdicts import (
    VERDICTS,
    Comparison,
    compare_value,
    compare_values,
    correction_verdict,
    effect_verdict,
    format_value,
    holds_verdict,
    match_verdict,
    number_verdict,
    over_settings,
    parse_printed,
    rope_sensitivity,
    table_verdicts,
    weakest,
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
    ("0.971", 553 / 569, False),       # 0.97188 rounds to 0.972: truncation only where a row says so
    ("1.21", 1.2174, False),           # the slide's normalised L1 distance: 1.2174 rounds to 1.22
    ("0.971", 0.9714, True),
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


def test_truncation_only_where_the_row_says_so_and_tolerance_is_stated():
    assert compare_value(parse_printed("0.971")[0], 553 / 569) == (False, "")
    ok, how = compare_value(parse_printed("0.971")[0], 553 / 569, truncated=True)
    assert ok and "truncated as the ledger row says" in how
    assert not compare_value(parse_printed("0.971")[0], 0.9725, truncated=True)[0]   # cut, it is 0.972
    assert number_verdict("0.971", 553 / 569).verdict == "not reproduced"
    assert number_verdict("0.971", 553 / 569, truncated=True).verdict == "reproduced"
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
                             correction_verdict("slip: x"), holds_verdict(True), holds_verdict(False),
                             holds_verdict(False, correction="slip: x"),
                             *(effect_verdict(e, i, 0.01) for e, i in ADVANTAGES),
                             *(effect_verdict(e, i, 0.01, kind="equality") for e, i in ADVANTAGES)}


ADVANTAGES = [(0.02, (0.01, 0.03)), (0.002, (-0.005, 0.009)), (0.004, (-0.02, 0.03)), (0.03, (-0.01, 0.07)),
              (-0.004, (-0.03, 0.02)), (-0.03, (-0.05, -0.012)), (0.0, (0.0, 0.0))]


@pytest.mark.parametrize("ok, how, verdict", [
    (True, None, "reproduced"), (True, "LOOCV on all 569", "reproduced differently"),
    (False, None, "not reproduced"), (False, "LOOCV on all 569", "not reproduced"),
])
def test_match_verdict(ok, how, verdict):
    assert match_verdict(ok, how) == verdict


@pytest.mark.parametrize("correction, verdict", [
    ("extraction: the leading 0 is read as 9", "extraction error"),
    ("typo: the notes' R output prints 0.3333333", "source typo"),
    ("slip: cites Lewis (1998) for naive Bayes; the reference list's entry is McCallum & Nigam", "source slip"),
])
def test_correction_verdict(correction, verdict):
    assert correction_verdict(correction) == verdict


def test_a_correction_outside_the_convention_is_refused():
    with pytest.raises(ValueError, match="must start 'typo:', 'extraction:' or 'slip:'"):
        correction_verdict("my guess: 0.9")


EXTRACTION = dict(reading="0.921", correction="extraction: the leading 0 is read as 9")
TYPO = dict(reading="1/3", correction="typo: the entry below is 1/3")


@pytest.mark.parametrize("printed, ours, options, verdict", [
    ("0.939", 107 / 114, {}, "reproduced"),
    ("0.939", 0.95, {}, "not reproduced"),
    ("0.971", 0.9712, {"how": "LOOCV on all 569"}, "reproduced differently"),
    ("0.971", 553 / 569, {"how": "LOOCV on all 569"}, "not reproduced"),
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


@pytest.mark.parametrize("holds, how, correction, verdict", [
    (True, None, "", "reproduced"), (True, "LOOCV", "", "reproduced differently"),
    (False, None, "", "refuted"), (False, "LOOCV", "", "refuted"),
    (False, None, "slip: Eq. 19 has one class factor; Eq. 18 and the text have two", "source slip"),
    (False, None, "typo: 1/2 for 1/3", "refuted"),        # a typo is a printed number's category, not a claim's
])
def test_holds_verdict(holds, how, correction, verdict):
    assert holds_verdict(holds, how, correction) == verdict


@pytest.mark.parametrize("effect, interval, kind, how, verdict", [
    (0.02, (0.01, 0.03), "advantage", None, "reproduced"),
    (0.02, (0.01, 0.03), "advantage", "LOOCV", "reproduced differently"),
    (0.002, (-0.005, 0.009), "advantage", None, "practically equivalent"),   # the interval inside the ROPE
    (0.005, (0.001, 0.009), "advantage", None, "practically equivalent"),    # above 0, but too small to matter
    (0.004, (-0.02, 0.03), "advantage", None, "small, not significant"),     # undecided, estimate inside the ROPE
    (0.01, (-0.02, 0.04), "advantage", None, "small, not significant"),      # on the ROPE's edge
    (0.008, (0.002, 0.016), "advantage", None, "small but real"),            # above 0, the estimate inside the ROPE
    (0.01, (0.001, 0.03), "advantage", None, "small but real"),              # on the ROPE's edge, above 0
    (0.0101, (0.001, 0.03), "advantage", None, "reproduced"),                # just beyond it
    (0.03, (-0.01, 0.07), "advantage", None, "inconclusive"),                # large but uncertain: not "small"
    (-0.004, (-0.03, 0.02), "advantage", None, "not supported"),
    (0.0, (-0.03, 0.03), "advantage", None, "not supported"),                # no effect is not the claimed direction
    (-0.03, (-0.05, -0.012), "advantage", None, "refuted"),
    (-0.03, (-0.05, -0.012), "advantage", "LOOCV", "refuted"),
    (0.0, (-0.002, 0.002), "equality", None, "reproduced"),
    (0.0, (-0.002, 0.002), "equality", "LOOCV", "reproduced differently"),
    (0.03, (0.02, 0.04), "equality", None, "refuted"),
    (0.005, (-0.01, 0.02), "equality", None, "inconclusive"),
])
def test_effect_verdict(effect, interval, kind, how, verdict):
    assert effect_verdict(effect, interval, 0.01, kind=kind, how=how) == verdict


@pytest.mark.parametrize("posterior, verdict", [
    ({"better": 0.96, "equivalent": 0.04, "worse": 0.0}, "reproduced"),
    ({"better": 0.02, "equivalent": 0.97, "worse": 0.01}, "practically equivalent"),
    ({"better": 0.0, "equivalent": 0.03, "worse": 0.97}, "refuted"),
    ({"better": 0.60, "equivalent": 0.30, "worse": 0.10}, "inconclusive"),   # the posterior decides, not the interval
])
def test_over_data_sets_the_posterior_decides(posterior, verdict):
    assert effect_verdict(0.03, (0.005, 0.06), 0.01, posterior=posterior) == verdict


@pytest.mark.parametrize("effect, interval, rope, posterior, message", [
    (float("nan"), (0.0, 0.1), 0.01, None, "finite"), (0.05, (0.0, float("inf")), 0.01, None, "finite"),
    (0.5, (0.0, 0.1), 0.01, None, "outside its interval"), (0.05, (0.0, 0.1), -0.01, None, "half-width"),
    (0.05, "wide", 0.01, None, "an interval is two numbers"),
    (0.05, (0.0, 0.1), 0.01, {"better": 0.5}, "'better', 'equivalent' and 'worse'"),
    (0.05, (0.0, 0.1), 0.01, {"better": 0.5, "equivalent": 0.6, "worse": 0.1}, "sum to 1"),
])
def test_effect_verdict_refuses_what_it_cannot_judge(effect, interval, rope, posterior, message):
    with pytest.raises(ValueError, match=message):
        effect_verdict(effect, interval, rope, posterior=posterior)


def test_an_interval_inside_the_rope_is_practically_equivalent_at_any_estimate():
    from hypothesis import given
    from hypothesis import strategies as st

    @given(st.floats(-0.0099, 0.0099), st.floats(0, 0.0099), st.floats(0, 0.0099))
    def inside(effect, below, above):
        low, high = max(effect - below, -0.0099), min(effect + above, 0.0099)
        assert effect_verdict(effect, (low, high), 0.01) == "practically equivalent"

    @given(st.floats(0.0001, 0.5), st.floats(0.0001, 0.5))
    def above_zero(width, lowest):
        assert effect_verdict(lowest + width, (lowest, lowest + 2 * width), 0.01) in ("reproduced",
                                                                                   "practically equivalent")

    inside()
    above_zero()


def test_rope_sensitivity_redoes_the_verdict_at_half_and_double():
    assert rope_sensitivity(0.004, (-0.006, 0.014), 0.01) == {"half": "small, not significant",
                                                               "double": "practically equivalent"}
    calls = []
    rope_sensitivity(0.004, (-0.006, 0.014), 0.01,
                     posterior=lambda r: calls.append(r) or {"better": 0.2, "equivalent": 0.7, "worse": 0.1})
    assert calls == [0.005, 0.02]


def test_weakest_is_the_comparison_reaching_lowest():
    both = {"vs linear": {"effect": 0.01, "interval": (-0.002, 0.02)},
            "vs RBF": {"effect": -0.001, "interval": (-0.01, 0.008)}}
    assert weakest(both) == "vs RBF"
    assert weakest({"a": {"effect": 0.02, "interval": (0.0, 0.04)},
                    "b": {"effect": 0.01, "interval": (0.0, 0.02)}}) == "b"    # a tie: the smaller estimate
    with pytest.raises(ValueError, match="at least one"):
        weakest({})
    with pytest.raises(ValueError, match="needs 'effect' and 'interval'"):
        weakest({"a": {"effect": 0.1}})


def test_answer_verdict_judges_several_comparisons_by_the_intersection_union_rule():
    from helpers.workbook.verdicts import answer_verdict

    strong = {"effect": 0.03, "interval": (0.01, 0.05)}
    weak = {"effect": -0.02, "interval": (-0.04, -0.005)}
    assert answer_verdict(strong, 0.01) == "reproduced"
    assert answer_verdict({"comparisons": {"a": strong, "b": weak}}, 0.01) == "refuted"
    posterior = lambda rope: {"better": 0.0 if rope >= 0.02 else 0.5, "equivalent": 1.0 if rope >= 0.02 else 0.5,  # noqa: E731
                              "worse": 0.0}
    assert answer_verdict({"effect": 0.004, "interval": (-0.03, 0.03), "posterior": posterior}, 0.02) == \
        "practically equivalent"
    assert answer_verdict({"effect": 0.004, "interval": (-0.03, 0.03), "posterior": posterior}, 0.01) == \
        "small, not significant"


def test_signed_and_scientific_prints_are_numbers_and_nan_is_refused():
    from helpers.workbook.verdicts import compare_value, parse_printed

    assert compare_value(parse_printed("1e-5")[0], 1.04e-5) == (True, "")
    assert compare_value(parse_printed("1e-5")[0], 2e-5)[0] is False
    assert compare_value(parse_printed("+0.5")[0], 0.5) == (True, "")
    assert compare_value(parse_printed("2.5E-3")[0], 0.00251) == (True, "")
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="cannot be compared with the printed '0.939'"):
            compare_value(parse_printed("0.939")[0], bad)


def test_table_verdicts_judge_each_row_as_effect_verdict_does():
    import pandas as pd

    rows = [(0.02, 0.01, 0.03, 0.99, 0.01, 0.0), (0.0, -0.004, 0.004, 0.01, 0.97, 0.02),
            (0.03, -0.01, 0.07, 0.70, 0.20, 0.10), (-0.02, -0.03, -0.012, 0.0, 0.01, 0.99)]
    table = pd.DataFrame(rows, columns=["effect", "low", "high", "p_better", "p_equivalent", "p_worse"])
    expected = [effect_verdict(e, (lo, hi), 0.01, posterior={"better": b, "equivalent": q, "worse": w})
                for e, lo, hi, b, q, w in rows]
    assert table_verdicts(table, 0.01) == expected == ["reproduced", "practically equivalent", "inconclusive",
                                                      "refuted"]
    # without a Bayesian test the interval alone decides
    plain = table[["effect", "low", "high"]]
    assert table_verdicts(plain, 0.01) == [effect_verdict(e, (lo, hi), 0.01) for e, lo, hi, *_ in rows]


def test_small_but_real_needs_the_adjusted_p_where_there_is_one_and_the_posterior_not_to_decide():
    assert effect_verdict(0.008, (0.002, 0.016), 0.01, p_adjusted=0.001, alpha=0.05) == "small but real"
    assert effect_verdict(0.008, (0.002, 0.016), 0.01, p_adjusted=0.2, alpha=0.05) == "small, not significant"
    undecided = {"better": 0.5, "equivalent": 0.5, "worse": 0.0}
    assert effect_verdict(0.0099, (0.003, 0.016), 0.01, posterior=undecided) == "small but real"
    assert effect_verdict(0.011, (0.006, 0.015), 0.01, posterior=undecided) == "inconclusive"
    decided = {"better": 0.96, "equivalent": 0.04, "worse": 0.0}
    assert effect_verdict(0.009, (0.004, 0.02), 0.01, posterior=decided) == "reproduced"   # the posterior decides


@pytest.mark.parametrize("verdicts, plausible, verdict", [
    ({168: "refuted", 300: "refuted", 948: "refuted"}, None, "refuted"),
    ({25: "reproduced", 168: "refuted", 948: "refuted", 3059: "refuted"}, [168, 948], "refuted"),  # 25 lies outside
    ({168: "reproduced", 300: "reproduced", 948: "refuted"}, None, "depends on the unstated setting"),
    ({168: "small but real", 948: "reproduced"}, None, "depends on the unstated setting"),
    ({168: "not supported", 948: "refuted"}, None, "not supported"),            # never refuted at every setting
    ({168: "inconclusive", 948: "practically equivalent"}, None, "inconclusive"),
    ({168: "reproduced", 948: "reproduced differently"}, None, "depends on the unstated setting"),
    ({168: "reproduced", 948: "reproduced"}, None, "reproduced"),
])
def test_a_claim_over_the_plausible_settings(verdicts, plausible, verdict):
    assert over_settings(verdicts, plausible)[0] == verdict
    assert verdict in VERDICTS


@pytest.mark.parametrize("verdicts, plausible, message", [
    ({}, None, "non-empty dict"), ([("a", "refuted")], None, "non-empty dict"),
    ({168: "source typo"}, None, "combines the verdicts of a claim"),
    ({168: "Refuted"}, None, "combines the verdicts of a claim"),
    ({25: "refuted", 3059: "refuted"}, [168, 948], "none of the settings judged"),
])
def test_over_settings_refuses_what_it_cannot_combine(verdicts, plausible, message):
    with pytest.raises(ValueError, match=message):
        over_settings(verdicts, plausible)


NAN = float("nan")


@pytest.mark.parametrize("effect, interval, posterior, message", [
    (0.02, (0.01, 0.03), {"better": NAN, "equivalent": NAN, "worse": NAN}, "must be finite numbers"),
    (0.02, (0.01, 0.03), {"better": NAN, "equivalent": 0.5, "worse": 0.5}, "must be finite numbers"),
    (0.02, (0.01, 0.03), {"better": float("inf"), "equivalent": 0.0, "worse": 0.0}, "must be finite numbers"),
    (0.02, (0.01, 0.03), ["better", "equivalent"], "'better', 'equivalent' and 'worse'"),
    (0.02, (0.03, 0.01), None, r"the interval \(0.03, 0.01\) is reversed: give it as \(low, high\), \(0.01, 0.03\)"),
    (0.02, {"low": 0.01, "high": 0.03}, None, "an interval is two numbers"),
    (0.02, (0.01,), None, "an interval is two numbers"),
    (0.02, (0.01, 0.02, 0.03), None, "an interval is two numbers"),
    (0.02, "0.01, 0.03", None, "an interval is two numbers"),
    (0.02, None, None, "an interval is two numbers"),
    (0.02, ((0.01, 0.02), (0.03, 0.04)), None, "an interval is two numbers"),
    ("large", (0.01, 0.03), None, "needs a number"),
])
def test_what_the_engine_cannot_judge_is_refused_by_name(effect, interval, posterior, message):
    with pytest.raises(ValueError, match=message):
        effect_verdict(effect, interval, 0.01, posterior=posterior)


@pytest.mark.parametrize("order", [("good", "nan"), ("nan", "good")])
def test_a_claim_with_a_comparison_that_cannot_be_judged_is_refused_whatever_the_order(order):
    from helpers.workbook.verdicts import intersection_union

    answers = {"good": {"effect": 0.02, "interval": (0.01, 0.03)}, "nan": {"effect": NAN, "interval": (NAN, NAN)}}
    with pytest.raises(ValueError, match="the comparison 'nan' cannot be judged"):
        intersection_union({name: answers[name] for name in order}, 0.01)
