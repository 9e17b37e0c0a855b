"""The verdict engine: printed values, and the rules that turn our evidence into a verdict.

Every rule is a pure function of the evidence; :class:`~helpers.workbook.checks.SourceCheck`
only looks up the ledger row and records what they return.

==========================  ==============================================================
``reproduced``              ours equals the printed value at its rounding (or the claim holds)
``reproduced differently``  it does, but only by a protocol other than the one the source states
``source typo``             the printed value cannot be right (the source's own other content
                            contradicts it); ours equals the consistent reading in the ledger
``extraction error``        the text extraction garbled the value; ours equals the legible reading
``small, not significant``  a claimed advantage in the claimed direction, not significant
``not supported``           a claimed advantage not seen: the opposite direction, not significant
``not reproduced``          ours differs beyond the rounding and no reading explains it
``refuted``                 the claim does not hold on the evidence
``not testable``            nothing here can test it (the row says why)
==========================  ==============================================================

The rules, one function each: :func:`match_verdict` (a value matched its print or not),
:func:`correction_verdict` (it matched the ledger's corrected reading instead),
:func:`number_verdict` (the two together, for a printed value), :func:`holds_verdict` (a claim
that holds or not) and :func:`claim_verdict` (a claimed advantage, from an effect and its p-value).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import NamedTuple

__all__ = [
    "VERDICTS",
    "Comparison",
    "NumberVerdict",
    "Printed",
    "claim_verdict",
    "compare_value",
    "compare_values",
    "correction_verdict",
    "format_value",
    "holds_verdict",
    "match_verdict",
    "number_verdict",
    "parse_printed",
]

VERDICTS = (
    "reproduced",
    "reproduced differently",
    "source typo",
    "extraction error",
    "small, not significant",
    "not supported",
    "not reproduced",
    "refuted",
    "not testable",
)


# --------------------------------------------------------------------------------------------
# printed values


@dataclass(frozen=True)
class Printed:
    """One printed value: a number with the decimals it was printed to, an exact fraction, or a word.

    A trailing ``%`` is dropped from the value; :func:`compare_values` takes ``percent=True``
    to compare a fraction of ours with it.

    Examples
    --------
    >>> Printed("0.939", 0.939, 3).is_number, Printed("No", "No").is_number
    (True, False)
    """

    text: str
    value: float | str
    decimals: int | None = None  # None: exact (a fraction) or a word

    @property
    def is_number(self) -> bool:
        return not isinstance(self.value, str)


_NUM = re.compile(r"[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")
_FRACTION = re.compile(r"([-−]?\d+)\s*/\s*(\d+)")


def _parse_token(token: str) -> Printed:
    text = token.strip()
    core = text.lstrip("≈~=").strip()
    core = core.removesuffix("%").strip()
    frac = _FRACTION.fullmatch(core)
    if frac:
        num, den = int(frac.group(1).replace("−", "-")), int(frac.group(2))
        if den == 0:
            raise ValueError(f"printed value {text!r}: a fraction with denominator 0")
        return Printed(text, float(Fraction(num, den)), None)
    if core and any(ch.isdigit() for ch in core) and _NUM.fullmatch(core):
        plain = core.replace(",", "").replace("−", "-")
        try:
            dec = Decimal(plain)
        except InvalidOperation:  # pragma: no cover - the regex admits only decimals
            raise ValueError(f"printed value {text!r} is not a number") from None
        decimals = max(0, -int(dec.as_tuple().exponent))
        return Printed(text, float(dec), decimals)
    return Printed(text, text, None)


def parse_printed(text: str) -> list[Printed]:
    """Split a ledger ``printed`` (or ``reading``) cell into values: ``"2.50; 6.00; No"`` is three.

    Numbers keep the decimals they were printed to (their rounding), thousands separators are
    dropped (``2,877``), a fraction such as ``2/3`` is exact, a trailing ``%`` and a
    leading ``≈`` are ignored; anything else is a word, compared as text.

    Examples
    --------
    >>> [(p.value, p.decimals) for p in parse_printed("2,877; 0.9121; 2/3; No")]
    [(2877.0, 0), (0.9121, 4), (0.6666666666666666, None), ('No', None)]
    >>> parse_printed("≈ 19100.01")[0].value
    19100.01
    """
    return [_parse_token(t) for t in str(text).split(";") if t.strip()]


def format_value(value, decimals: int | None) -> str:
    """Ours as the notes print it: two digits beyond the printed ones (six for an exact value).

    Examples
    --------
    >>> format_value(0.95, 3), format_value(12000.0, 0), format_value("No", None)
    ('0.95000', '12,000', 'No')
    """
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    d = 6 if decimals is None else min(decimals + 2, 8)
    if float(value).is_integer() and (decimals in (0, None)):
        return f"{int(value):,}" if abs(value) >= 10_000 else f"{int(value)}"
    return f"{value:.{d}f}"


# --------------------------------------------------------------------------------------------
# comparing ours with printed values


def compare_value(printed: Printed, ours, tol: float | None = None, exact: bool = False) -> tuple[bool, str]:
    """Does ``ours`` equal one printed value? Returns ``(match, how)``.

    A number matches when it rounds to the printed digits (half a unit of the last printed
    digit), when it *truncates* to them (some sources cut digits instead of rounding: the note
    says so), or when it lies within ``tol`` (a tolerance the notebook states, e.g. for fold
    noise). A fraction, or any number when ``exact`` is true (a count, an identity, a matrix
    entry the source gives exactly), must match to 1e-9; a word must match ignoring case.

    Examples
    --------
    >>> compare_value(parse_printed("0.939")[0], 107 / 114)
    (True, '')
    >>> compare_value(parse_printed("0.971")[0], 553 / 569)
    (True, 'the source truncates: 0.97188 is printed 0.971')
    >>> compare_value(parse_printed("0.912")[0], 0.9068)
    (False, '')
    """
    if not printed.is_number:
        return str(ours).strip().lower() == str(printed.value).strip().lower(), ""
    if isinstance(ours, str):
        return False, ""
    ours = float(ours)
    if math.isnan(ours):
        return False, ""
    target = float(printed.value)
    if printed.decimals is None or exact:
        ok = abs(ours - target) <= 1e-9 * max(1.0, abs(target))
        return ok, ""
    unit = 10.0 ** -printed.decimals
    slack = 1e-9 * max(1.0, abs(target))
    if abs(ours - target) <= 0.5 * unit + slack:
        return True, ""
    truncated = math.trunc(ours / unit + math.copysign(1e-9, ours)) * unit
    if abs(truncated - target) <= slack:
        return True, f"the source truncates: {ours:.{printed.decimals + 2}f} is printed {printed.text}"
    if tol is not None and abs(ours - target) <= tol + slack:
        return True, f"within the stated tolerance {tol:g}"
    return False, ""


class Comparison(NamedTuple):
    """Ours against every printed value of an item: all matched?, the notes, the largest difference."""

    ok: bool
    notes: list[str]
    difference: float | None


def compare_values(printed: list[Printed], ours, tol: float | None = None, percent: bool = False,
                   exact: bool = False, label: str = "printed") -> Comparison:
    """Compare one value of ours with each printed value (:func:`compare_value`).

    Parameters
    ----------
    printed : list of Printed
        From :func:`parse_printed`.
    ours : number, str, or list or tuple of them
        One value per printed value.
    tol, exact
        As in :func:`compare_value`.
    percent : bool
        The source prints per cent and ours is a fraction: ours is multiplied by 100.
    label : str
        How the notes name the printed text (``"printed"``, or ``"read"`` for a reading).

    Returns
    -------
    Comparison
        ``ok`` when every value matches; ``notes`` name each mismatch (``0.95000 vs printed
        0.939``) and each truncation or tolerance used; ``difference`` is the largest
        ours - printed among the numbers (None when there are none).

    Raises
    ------
    ValueError
        Not one value of ours per printed value.

    Examples
    --------
    >>> compare_values(parse_printed("2.50; No"), [2.5, "no"])
    Comparison(ok=True, notes=[], difference=0.0)
    >>> compare_values(parse_printed("91"), 0.85, percent=True)
    Comparison(ok=False, notes=['85 vs printed 91'], difference=-6.0)
    """
    values = list(ours) if isinstance(ours, (list, tuple)) else [ours]
    if len(values) != len(printed):
        raise ValueError(
            f"{len(values)} value(s) of ours for {len(printed)} printed value(s) "
            f"({'; '.join(p.text for p in printed)}): give one per printed value"
        )
    notes, ok_all, diffs = [], True, []
    for p, v in zip(printed, values):
        if hasattr(v, "item"):
            v = v.item()
        if percent and p.is_number and not isinstance(v, str):
            v = 100.0 * float(v)
        ok, how = compare_value(p, v, tol, exact)
        ok_all &= ok
        if how:
            notes.append(how)
        if not ok:
            notes.append(f"{format_value(v, p.decimals)} vs {label} {p.text}")
        if p.is_number and not isinstance(v, str):
            diffs.append(float(v) - float(p.value))
    diff = max(diffs, key=abs) if diffs else None
    return Comparison(ok_all, notes, diff)


# --------------------------------------------------------------------------------------------
# the rules


def match_verdict(ok: bool, how: str | None = None) -> str:
    """A value of ours against its print: "reproduced" ("reproduced differently" by another protocol ``how``).

    Examples
    --------
    >>> match_verdict(True), match_verdict(True, how="LOOCV"), match_verdict(False, how="LOOCV")
    ('reproduced', 'reproduced differently', 'not reproduced')
    """
    if not ok:
        return "not reproduced"
    return "reproduced differently" if how else "reproduced"


def correction_verdict(correction: str) -> str:
    """Ours matches the ledger's corrected reading: which kind of error the print holds.

    ``correction`` is the ledger's cell, ``"extraction: ..."`` or ``"typo: ..."``.

    Examples
    --------
    >>> correction_verdict("extraction: the leading 0 is read as 9"), correction_verdict("typo: 1/2 for 1/3")
    ('extraction error', 'source typo')
    """
    kind = correction.split(":", 1)[0].strip()
    if kind not in ("extraction", "typo"):
        raise ValueError(f"correction {correction!r} must start 'typo:' or 'extraction:' (the ledger's convention)")
    return "extraction error" if kind == "extraction" else "source typo"


class NumberVerdict(NamedTuple):
    """The verdict on a printed value, the notes that explain it, and ours - printed (or - reading)."""

    verdict: str
    notes: list[str]
    difference: float | None


def number_verdict(printed: str, ours, *, reading: str = "", correction: str = "", how: str | None = None,
                   tol: float | None = None, percent: bool = False, exact: bool = False) -> NumberVerdict:
    """The verdict on a printed value: compare with the print, then with the ledger's reading.

    Ours matching the print is :func:`match_verdict`'s "reproduced" (or "reproduced
    differently" with ``how``). When it does not and the ledger gives a ``reading`` (the value
    the print must have meant, explained by ``correction``), ours is compared with the reading
    instead: a match is :func:`correction_verdict`'s "extraction error" or "source typo", and
    either way the notes and the difference then refer to the reading.

    Parameters
    ----------
    printed, reading, correction : str
        The ledger row's cells.
    ours : number, str, or list of them
        One value per printed value.
    how, tol, percent, exact
        As in :meth:`~helpers.workbook.checks.SourceCheck.number`.

    Examples
    --------
    >>> number_verdict("0.939", 107 / 114).verdict
    'reproduced'
    >>> got = number_verdict("9.921", 0.9211, reading="0.921", correction="extraction: the 0 is read as 9")
    >>> got.verdict, got.notes, round(got.difference, 6)
    ('extraction error', ['printed 9.921, read 0.921 (extraction: the 0 is read as 9)'], 0.0001)
    """
    ok, notes, diff = compare_values(parse_printed(printed), ours, tol, percent, exact)
    verdict = match_verdict(ok, how)
    if not ok and reading:
        # the printed value cannot be right: compare with the reading, and measure the difference from it
        if_read = correction_verdict(correction)
        ok_r, notes_r, diff_r = compare_values(parse_printed(reading), ours, tol, percent, exact, label="read")
        if ok_r:
            verdict = if_read
        kind, why = (part.strip() for part in correction.split(":", 1))
        notes, diff = [f"printed {printed}, read {reading} ({kind}: {why})"] + notes_r, diff_r
    return NumberVerdict(verdict, notes, diff)


def holds_verdict(holds: bool, how: str | None = None) -> str:
    """A claim checked as a whole: "reproduced" when it holds ("reproduced differently" by ``how``), else "refuted".

    Examples
    --------
    >>> holds_verdict(True), holds_verdict(True, how="LOOCV"), holds_verdict(False)
    ('reproduced', 'reproduced differently', 'refuted')
    """
    if not holds:
        return "refuted"
    return "reproduced differently" if how else "reproduced"


def claim_verdict(effect: float, p: float, alpha: float = 0.05, how: str | None = None) -> str:
    """A claimed advantage, from its effect (``> 0``: the claimed direction) and the p-value of no effect.

    ==================  =====================  ==============
    direction           p < alpha              p >= alpha
    ==================  =====================  ==============
    claimed (``> 0``)   reproduced [1]_        small, not significant
    opposite (``<= 0``) refuted                not supported
    ==================  =====================  ==============

    .. [1] "reproduced differently" when ``how`` names a protocol other than the source's.

    Raises
    ------
    ValueError
        ``p`` is missing or outside [0, 1].

    Examples
    --------
    >>> [claim_verdict(e, p) for e, p in [(0.02, 0.001), (0.001, 0.9), (-0.004, 0.6), (-0.03, 0.01)]]
    ['reproduced', 'small, not significant', 'not supported', 'refuted']
    """
    if p is None or not 0 <= p <= 1:
        raise ValueError(f"an effect needs its p-value in [0, 1], got {p!r}")
    significant = p < alpha
    if effect > 0:
        verdict = "reproduced" if significant else "small, not significant"
    else:
        verdict = "refuted" if significant else "not supported"
    if verdict == "reproduced" and how:
        verdict = "reproduced differently"
    return verdict
