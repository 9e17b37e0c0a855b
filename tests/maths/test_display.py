"""Printing a number that may be rounding noise, and ours at a source's printed digits (``helpers.display``)."""

import math
from decimal import ROUND_DOWN, Decimal

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.display import AtPrinted, at_printed_digits, prints_as, rounding_level


@pytest.mark.parametrize(("value", "bound", "kwargs", "shown"), [
    (0.0, 1e-12, {}, "< 1e-12"),
    (4.4e-16, 1e-12, {}, "< 1e-12"),
    (-9.9e-13, 1e-12, {}, "< 1e-12"),            # the size counts, not the sign
    (1e-12, 1e-12, {}, "1.00e-12"),              # at the bound: shown in full
    (3.2e-3, 1e-12, {"fmt": ".1e"}, "3.2e-03"),
    (0.1412, 1e-10, {"fmt": ".2f"}, "0.14"),
    (np.float32(2e-8), 1e-6, {}, "< 1e-06"),
    (0.02, 1e-6, {"flag_above": True}, "2.00e-02  (ABOVE the bound)"),
    (float("nan"), 1e-12, {}, "nan"),            # never "< bound": a NaN is no rounding noise
    (float("inf"), 1e-12, {}, "inf"),
])
def test_rounding_level_shows_noise_as_a_bound_and_the_rest_in_full(value, bound, kwargs, shown):
    assert rounding_level(value, bound, **kwargs) == shown


@given(st.floats(min_value=-1e-13, max_value=1e-13, allow_nan=False))
def test_every_value_below_the_bound_prints_the_same(value):
    assert rounding_level(value, 1e-12) == "< 1e-12"


@pytest.mark.parametrize("bound", [0, -1e-12, float("nan"), float("inf")])
def test_a_bound_that_is_not_a_positive_size_is_refused(bound):
    with pytest.raises(ValueError, match=r"bound must be a positive finite number.*got"):
        rounding_level(1e-3, bound)


# --------------------------------------------------------------------------------------------
# ours at the printed digits: one implementation for what the study packages each did their own way


@pytest.mark.parametrize(("value", "printed", "shown"), [
    (1.217444, "1.21", (2, "1.22", "1.21")),        # the slides' normalised L1 (notebook 00)
    (0.863751, "0.864", (3, "0.864", "0.863")),
    (1626.5264, " 1626.52 ", (2, "1626.53", "1626.52")),  # blanks around the print are ignored
    (553 / 569, "0.971", (3, "0.972", "0.971")),    # a LOOCV count (notebook 05)
    (-0.5678, "-0.56", (2, "-0.57", "-0.56")),      # a cut goes towards zero, not down
    (-1.239, "-1.2", (1, "-1.2", "-1.2")),
    (0.0, "0.00", (2, "0.00", "0.00")),
    (-0.001, "0.00", (2, "-0.00", "-0.00")),        # the sign stays, as in Python's own format
    (12.7, "13", (0, "13", "12")),
    (0.29, "0.29", (2, "0.29", "0.29")),            # stored as 0.28999...: cut on its shortest digits
    (0.125, "0.13", (2, "0.12", "0.12")),           # an exact binary tie rounds half to even
    (0.375, "0.38", (2, "0.38", "0.37")),
    (2.675, "2.68", (2, "2.67", "2.67")),           # stored just below 2.675
    (2.5, "3", (0, "2", "2")),                      # as round(2.5) == 2
    (3.5, "4", (0, "4", "3")),
    (np.float32(0.1), "0.1000", (4, "0.1000", "0.1000")),
    (2.5e-3, "2.5E-3", (4, "0.0025", "0.0025")),    # an exponent counts, as in the ledger's parse_printed
    (1e30, "1.00", (2, f"{1e30:.2f}", "1" + "0" * 30 + ".00")),  # 33 digits, beyond Decimal's default 28
    (float("nan"), "0.5", (1, "nan", "nan")),
    (float("-inf"), "0.5", (1, "-inf", "-inf")),
])
def test_at_printed_digits_rounds_and_cuts_to_the_printed_decimals(value, printed, shown):
    assert at_printed_digits(value, printed) == AtPrinted(*shown)


def _cheng_cut(value, decimals):        # tables.rounded_and_cut of helpers.studies.cheng_slides, as it was
    cut = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_DOWN)
    return f"{float(value):.{decimals}f}", f"{cut:f}"


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(0, 8))
def test_at_printed_digits_is_the_former_copy_of_the_cheng_slides(value, decimals):
    printed = "0." + "0" * decimals if decimals else "0"
    at = at_printed_digits(value, printed)
    assert at.decimals == decimals and (at.rounded, at.cut) == _cheng_cut(value, decimals)


@given(st.from_regex(r"\A-?[0-9]{1,6}(\.[0-9]{0,8})?\Z"))
def test_the_decimals_are_those_the_former_copies_counted(printed):
    # cheng_slides.printed_decimals and sahoo_maiti_2025b._digits: the characters after the point
    assert at_printed_digits(1.0, printed).decimals == (len(printed.split(".")[1]) if "." in printed else 0)


@pytest.mark.parametrize("n", [114, 455, 569])
@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_every_count_out_of_n_rounds_and_cuts_as_sahoo_maiti_2025b_did(n, d):
    # the former _rounded and _cut of helpers.studies.sahoo_maiti_2025b.case_study, on every LOOCV count k/n
    printed = "0." + "0" * d
    for k in range(n + 1):
        at = at_printed_digits(k / n, printed)
        assert at.rounded == f"{k / n:.{d}f}"
        assert at.cut == f"{math.floor(k * 10 ** d / n) / 10 ** d:.{d}f}", (k, n, d)


@pytest.mark.parametrize("printed", ["", "No", "0.97)", "1,000", "nan", "inf", "2/3"])
def test_a_print_that_is_no_decimal_number_is_refused(printed):
    with pytest.raises(ValueError, match="is not a finite decimal number"):
        at_printed_digits(0.5, printed)
    with pytest.raises(ValueError, match="is not a finite decimal number"):
        prints_as(printed, 0.5)


@pytest.mark.parametrize(("printed", "value", "shown"), [
    ("0.939", 107 / 114, True),
    ("0.971", 553 / 569, False),           # 0.97188: rounding gives 0.972, and a value is never read as its cut
    ("0.9121", 519 / 569, True),
    ("0.955", 0.9684, False),
    ("0.9068", 0.90688, False),
    ("0.9069", 0.90688, True),
    ("-0.56", -0.5649, True),
    ("-0.56", -0.5651, False),
    ("0", 0.0, True),
    ("0.00", -0.004, True),
    ("0.12", 0.125, True),                 # an exact tie is read as both neighbours
    ("0.13", 0.125, True),
    ("0.12", 0.1250000001, True),          # within the 1e-9 slack
    ("0.12", 0.125001, False),
    (" 13 ", 12.5, True),
    ("0.5", float("nan"), False),
    ("0.5", float("inf"), False),
])
def test_prints_as_reads_a_value_within_half_a_unit(printed, value, shown):
    assert prints_as(printed, value) is shown


def test_prints_as_agrees_with_the_ledgers_comparison():
    from helpers.workbook.verdicts import compare_value, parse_printed

    for printed in ("0.9121", "0.971", "0.9068", "1.0", "13", "-0.56", "2.5E-3"):
        for value in np.linspace(float(printed) - 0.002, float(printed) + 0.002, 81):
            assert prints_as(printed, value) == compare_value(parse_printed(printed)[0], value)[0], (printed, value)


@given(st.integers(0, 569), st.sampled_from([113, 114, 455, 569]), st.integers(1, 5))
def test_prints_as_and_the_rounded_print_agree_on_counts(k, n, d):
    # no k/n lies within 1e-9 of a tie at d digits, so the two rules read a LOOCV count alike
    printed = at_printed_digits(k / n, "0." + "0" * d).rounded
    assert prints_as(printed, k / n)
    assert not prints_as(f"{float(printed) + 10.0 ** -d:.{d}f}", k / n)
