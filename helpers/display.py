"""How the workbook prints a number: rounding noise as a bound, and ours at a source's printed digits.

A residual of 3e-16 has no stable digits: another BLAS, another processor or another thread
count gives another one. Printed as it is, it would make a stored notebook output depend on the
machine that ran it. :func:`rounding_level` prints such a value as ``"< bound"`` and any other
value in full.

A source prints its numbers to some digits. :func:`at_printed_digits` gives ours at those
digits, rounded and cut (truncated), as text; :func:`prints_as` says whether ours is read as
the print, by the rule of the ledger's comparison (half a unit of the last printed digit).
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, Context, Decimal, InvalidOperation
from typing import NamedTuple

__all__ = ["AtPrinted", "at_printed_digits", "prints_as", "rounding_level", "within_half_unit"]


def rounding_level(value, bound: float, *, fmt: str = ".2e", flag_above: bool = False) -> str:
    """``"< bound"`` when ``|value|`` is below ``bound``, else ``value`` formatted with ``fmt``.

    Parameters
    ----------
    value : float
        The number, typically a residual or a largest difference that should be zero.
    bound : float
        Below this (in absolute value) the number is rounding noise; printed as ``"< 1e-12"``.
    fmt : str
        The format of a number at or above ``bound`` (:func:`format`'s specification).
    flag_above : bool
        Append ``"  (ABOVE the bound)"`` to a number at or above ``bound``: for a difference
        that the text expects to be noise, so that a failure reads as one.

    Examples
    --------
    >>> rounding_level(3e-16, 1e-12), rounding_level(-4e-13, 1e-12), rounding_level(2.5e-3, 1e-12)
    ('< 1e-12', '< 1e-12', '2.50e-03')
    >>> rounding_level(0.1412, 1e-10, fmt=".2f"), rounding_level(0.02, 1e-6, flag_above=True)
    ('0.14', '2.00e-02  (ABOVE the bound)')
    """
    bound = float(bound)
    if not (math.isfinite(bound) and bound > 0):
        raise ValueError(f"bound must be a positive finite number, the size below which a value is rounding noise; "
                         f"got {bound!r}.")
    value = float(value)
    if math.isnan(value):
        return "nan"
    if abs(value) < bound:
        return f"< {bound:.0e}"
    return format(value, fmt) + ("  (ABOVE the bound)" if flag_above else "")


class AtPrinted(NamedTuple):
    """A value at the digits of a print: how many decimals the print has, the value rounded and cut to them."""

    decimals: int
    rounded: str
    cut: str


def _printed_number(printed: str) -> tuple[float, int]:
    """The printed decimal as a float, and its digits after the point (``"1e-5"`` has 5, as in the ledger)."""
    text = str(printed).strip()
    try:
        dec = Decimal(text)
    except InvalidOperation:
        dec = None
    if dec is None or not dec.is_finite():
        raise ValueError(f"printed value {printed!r} is not a finite decimal number such as '0.971' or '1.21'")
    return float(dec), max(0, -int(dec.as_tuple().exponent))


def at_printed_digits(value, printed: str) -> AtPrinted:
    """``value`` at the digits ``printed`` has after its decimal point: rounded and cut, as text.

    Parameters
    ----------
    value : float
        Ours.
    printed : str
        The source's print of it, a decimal number (``"0.971"``, ``"-1.21"``, ``"12"``); surrounding
        blanks are ignored.

    Returns
    -------
    AtPrinted
        ``decimals``: the print's digits after the point (0 for an integer). ``rounded``: ``value``
        formatted to them, ``f"{value:.{decimals}f}"``, which rounds the binary value, half to even
        on an exact tie (``0.125`` gives ``"0.12"``; ``2.675``, stored just below, gives ``"2.67"``).
        ``cut``: ``value`` truncated towards zero to them, digit by digit on its shortest
        representation (``repr``), so ``0.29`` cuts to ``"0.29"``, not the ``"0.28"`` of its binary
        value. Both keep the sign of a negative value cut to zero (``"-0.00"``), as Python's
        format does; a NaN or an infinity gives ``"nan"``, ``"inf"`` or ``"-inf"`` for both.

    Raises
    ------
    ValueError
        ``printed`` is not a finite decimal number.

    Examples
    --------
    >>> at_printed_digits(553 / 569, "0.971")
    AtPrinted(decimals=3, rounded='0.972', cut='0.971')
    >>> at_printed_digits(-0.5678, "-0.56"), at_printed_digits(0.125, "0.13")
    (AtPrinted(decimals=2, rounded='-0.57', cut='-0.56'), AtPrinted(decimals=2, rounded='0.12', cut='0.12'))
    """
    decimals = _printed_number(printed)[1]
    value = float(value)
    rounded = f"{value:.{decimals}f}"
    if not math.isfinite(value):
        return AtPrinted(decimals, rounded, rounded)
    exact = Decimal(repr(value))
    digits = Context(prec=max(28, exact.adjusted() + decimals + 2))  # room for every digit kept
    cut = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_DOWN, context=digits)
    return AtPrinted(decimals, rounded, f"{cut:f}")


def prints_as(printed: str, value) -> bool:
    """Whether ``value`` is read as the decimal ``printed``: within half a unit of its last digit.

    The rule of the ledger's comparison (:func:`helpers.workbook.verdicts.compare_value`): a
    relative slack of 1e-9 (at least 1e-9) absorbs the binary error of ``value``, so a value at
    an exact tie, such as 0.125, is read as both neighbours (``"0.12"`` and ``"0.13"``), where
    :func:`at_printed_digits` rounds it to one. A value is never read as its truncation.

    Parameters
    ----------
    printed : str
        The source's print, a decimal number; surrounding blanks are ignored.
    value : float
        Ours; a NaN or an infinity prints as no decimal.

    Raises
    ------
    ValueError
        ``printed`` is not a finite decimal number.

    Examples
    --------
    >>> prints_as("0.939", 107 / 114), prints_as("0.971", 553 / 569), prints_as("0.912", 0.9068)
    (True, False, False)
    >>> prints_as("-0.56", -0.5649), prints_as("0.12", 0.125), prints_as("0.13", 0.125)
    (True, True, True)
    """
    target, decimals = _printed_number(printed)
    return within_half_unit(value, target, decimals)


def within_half_unit(value, target: float, decimals: int) -> bool:
    """Whether ``value`` lies within half a unit of the last of ``decimals`` digits of ``target`` (the rule of
    :func:`prints_as` on a number already read), with a relative slack of 1e-9 for binary error.

    Examples
    --------
    >>> within_half_unit(0.9386, 0.939, 3), within_half_unit(0.9384, 0.939, 3)
    (True, False)
    """
    slack = 1e-9 * max(1.0, abs(target))
    return bool(abs(float(value) - target) <= 0.5 * 10.0 ** -decimals + slack)
