"""The verdict engine: printed values, and the rules that turn our evidence into a verdict.

Every rule is a pure function of the evidence; :class:`~helpers.workbook.checks.SourceCheck`
only looks up the ledger row and records what they return.

==========================  ==============================================================
``reproduced``              ours equals the printed value at its rounding (or the claim holds;
                            a claimed advantage: its interval lies above zero)
``reproduced differently``  it does, but only by a protocol other than the one the source states
``practically equivalent``  the difference lies inside the region of practical equivalence (its
                            interval, or 95% of its posterior): no advantage worth having
``source typo``             the printed value cannot be right (the source's own other content
                            contradicts it); ours equals the consistent reading in the ledger
``extraction error``        the text extraction garbled the value; ours equals the legible reading
``source slip``             a slip that is not a false claim: a citation or cross-reference, a
                            misspelling, two equations that disagree, a loose phrase whose meaning
                            the source states elsewhere (the ledger's correction says which)
``small but real``          a claimed advantage above zero (its interval, and a multiplicity-adjusted
                            p where there is one) whose estimate lies inside the ROPE: a real
                            difference, too small to be the advantage claimed
``small, not significant``  a claimed advantage, undecided, whose estimate lies inside the ROPE
``inconclusive``            a claimed advantage, undecided, whose estimate lies beyond the ROPE:
                            large but uncertain
``not supported``           a claimed advantage, undecided, whose estimate is not in its direction
``depends on the unstated   a claim that holds at some and fails at other values of a setting the
setting``                   source leaves unstated, over the plausible range the ledger states
``not reproduced``          ours differs beyond the rounding and no reading explains it
``refuted``                 the claim does not hold on the evidence (a claimed advantage: its
                            interval lies below zero), at every plausible value of any setting
                            the source leaves unstated
``our finding``             what the workbook finds about an item the source does not address (a
                            property the source never claims or denies): ours, not the source's
``not testable``            nothing here can test it (the row says why)
==========================  ==============================================================

The rules, one function each: :func:`match_verdict` (a value matched its print or not),
:func:`correction_verdict` (it matched the ledger's corrected reading instead),
:func:`number_verdict` (the two together, for a printed value), :func:`holds_verdict` (a claim
that holds or not), :func:`effect_verdict` (a claimed advantage or equality, from an effect, its
95% interval, the ROPE the ledger states and, over data sets, the posterior probabilities),
:func:`rope_sensitivity` (the same at half and at double the ROPE) and :func:`intersection_union`
(a claim that needs several comparisons to hold: refuted or practically equivalent where any
comparison is, reproduced where all are, else the undecided verdict of the :func:`weakest`). A printed number is
compared at its rounding; truncation only where the ledger row says so and why
(``printing = "truncated: ..."``).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ..display import within_half_unit

__all__ = [
    "DECISIVE",
    "answer_verdict",
    "table_verdicts",
    "VERDICTS",
    "FAVOURABLE",
    "Comparison",
    "NumberVerdict",
    "Printed",
    "compare_value",
    "compare_values",
    "correction_verdict",
    "effect_verdict",
    "format_value",
    "holds_verdict",
    "intersection_union",
    "match_verdict",
    "number_verdict",
    "over_settings",
    "parse_printed",
    "rope_sensitivity",
    "weakest",
]

VERDICTS = (
    "reproduced",
    "reproduced differently",
    "practically equivalent",
    "small but real",
    "source typo",
    "extraction error",
    "source slip",
    "small, not significant",
    "inconclusive",
    "not supported",
    "depends on the unstated setting",
    "not reproduced",
    "refuted",
    "our finding",
    "not testable",
)

#: the verdicts of a claimed advantage, most favourable to the claim first (:func:`over_settings`)
FAVOURABLE = ("reproduced", "reproduced differently", "small but real", "inconclusive", "small, not significant",
              "not supported", "practically equivalent", "not reproduced", "refuted")

#: the posterior probability at which the Bayesian signed-rank test decides (Benavoli et al. 2017)
DECISIVE = 0.95


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


_NUM = re.compile(r"[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-−+]?\d+)?")
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
        plain = core.replace(",", "").replace("−", "-")  # 1e-5 keeps its last digit's place: 1e-5
        try:
            dec = Decimal(plain)
        except InvalidOperation:  # pragma: no cover - the regex admits only decimals
            raise ValueError(f"printed value {text!r} is not a number") from None
        decimals = max(0, -int(dec.as_tuple().exponent))
        if not math.isfinite(float(dec)):
            raise ValueError(f"printed value {text!r} is beyond the largest float: fix its transcription in the ledger")
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
    >>> [(p.value, p.decimals) for p in parse_printed("+0.5; 1e-5; 2.5E-3")]
    [(0.5, 1), (1e-05, 5), (0.0025, 4)]
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


def compare_value(printed: Printed, ours, tol: float | None = None, *, exact: bool = False,
                  truncated: bool = False) -> tuple[bool, str]:
    """Does ``ours`` equal one printed value? Returns ``(match, how)``.

    A number matches when it rounds to the printed digits (half a unit of the last printed
    digit), or when it lies within ``tol`` (a tolerance the notebook states, e.g. for fold
    noise). It matches by *truncation* (the digits cut instead of rounded) only when
    ``truncated`` is true: the ledger row names that printing habit and its evidence in the
    source. A fraction, or any number when ``exact`` is true (a count, an identity, a matrix
    entry the source gives exactly), must match to 1e-9; a word must match ignoring case.

    Examples
    --------
    >>> compare_value(parse_printed("0.939")[0], 107 / 114)
    (True, '')
    >>> compare_value(parse_printed("0.971")[0], 553 / 569)                  # 0.97188 rounds to 0.972
    (False, '')
    >>> compare_value(parse_printed("0.971")[0], 553 / 569, truncated=True)
    (True, 'truncated as the ledger row says: 0.97188 is printed 0.971')
    """
    if not printed.is_number:
        return str(ours).strip().lower() == str(printed.value).strip().lower(), ""
    if isinstance(ours, str):
        return False, ""
    ours = float(ours)
    if not math.isfinite(ours):
        raise ValueError(f"ours is {ours}, which cannot be compared with the printed {printed.text!r}: a verdict "
                         "needs a finite value; find where the computation lost it")
    target = float(printed.value)
    if printed.decimals is None or exact:
        ok = abs(ours - target) <= 1e-9 * max(1.0, abs(target))
        return ok, ""
    if within_half_unit(ours, target, printed.decimals):   # the rounding rule of helpers.display.prints_as
        return True, ""
    unit = 10.0 ** -printed.decimals
    slack = 1e-9 * max(1.0, abs(target))
    cut = math.trunc(ours / unit + math.copysign(1e-9, ours)) * unit
    if truncated and abs(cut - target) <= slack:
        return True, f"truncated as the ledger row says: {ours:.{printed.decimals + 2}f} is printed {printed.text}"
    if tol is not None and abs(ours - target) <= tol + slack:
        return True, f"within the stated tolerance {tol:g}"
    return False, ""


class Comparison(NamedTuple):
    """Ours against every printed value of an item: all matched?, the notes, the largest difference."""

    ok: bool
    notes: list[str]
    difference: float | None


def compare_values(printed: list[Printed], ours, tol: float | None = None, *, percent: bool = False,
                   exact: bool = False, label: str = "printed", truncated: bool = False) -> Comparison:
    """Compare one value of ours with each printed value (:func:`compare_value`).

    Parameters
    ----------
    printed : list of Printed
        From :func:`parse_printed`.
    ours : number, str, or list or tuple of them
        One value per printed value.
    tol, exact, truncated
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
        if p.is_number and (isinstance(v, bool) or not isinstance(v, numbers.Real)):
            raise TypeError(f"ours is {v!r} ({type(v).__name__}), but the source prints the number {p.text}: give a "
                            "number (an int or a float), not text, a flag or a missing value")
        if percent and p.is_number and not isinstance(v, str):
            v = 100.0 * float(v)
        ok, how = compare_value(p, v, tol, exact=exact, truncated=truncated)
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

    ``correction`` is the ledger's cell: ``"extraction: ..."`` (the PDF-to-text extraction garbled
    it), ``"typo: ..."`` (the source's own content contradicts the print) or ``"slip: ..."`` (a
    citation, cross-reference or wording slip whose intended meaning the source shows).

    Examples
    --------
    >>> correction_verdict("extraction: the leading 0 is read as 9"), correction_verdict("typo: 1/2 for 1/3")
    ('extraction error', 'source typo')
    >>> correction_verdict("slip: line 366 cites Eq. 7 for the formula of Eq. 9")
    'source slip'
    """
    kind = correction.split(":", 1)[0].strip()
    kinds = {"extraction": "extraction error", "typo": "source typo", "slip": "source slip"}
    if kind not in kinds:
        raise ValueError(f"correction {correction!r} must start 'typo:', 'extraction:' or 'slip:' (the ledger's "
                         "convention)")
    return kinds[kind]


class NumberVerdict(NamedTuple):
    """The verdict on a printed value, the notes that explain it, and ours - printed (or - reading)."""

    verdict: str
    notes: list[str]
    difference: float | None


def number_verdict(printed: str, ours, *, reading: str = "", correction: str = "", how: str | None = None,
                   tol: float | None = None, percent: bool = False, exact: bool = False,
                   truncated: bool = False) -> NumberVerdict:
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
    truncated : bool
        The ledger row says the source truncates its digits (its ``printing`` cell).

    Examples
    --------
    >>> number_verdict("0.939", 107 / 114).verdict
    'reproduced'
    >>> got = number_verdict("9.921", 0.9211, reading="0.921", correction="extraction: the 0 is read as 9")
    >>> got.verdict, got.notes, round(got.difference, 6)
    ('extraction error', ['printed 9.921, read 0.921 (extraction: the 0 is read as 9)'], 0.0001)
    """
    ok, notes, diff = compare_values(parse_printed(printed), ours, tol, percent=percent, exact=exact,
                                     truncated=truncated)
    verdict = match_verdict(ok, how)
    if not ok and reading:
        # the printed value cannot be right: compare with the reading, and measure the difference from it
        if_read = correction_verdict(correction)
        ok_r, notes_r, diff_r = compare_values(parse_printed(reading), ours, tol, percent=percent, exact=exact,
                                               label="read", truncated=truncated)
        if ok_r:
            verdict = if_read
        kind, why = (part.strip() for part in correction.split(":", 1))
        notes, diff = [f"printed {printed}, read {reading} ({kind}: {why})"] + notes_r, diff_r
    return NumberVerdict(verdict, notes, diff)


def holds_verdict(holds: bool, how: str | None = None, correction: str = "") -> str:
    """A claim checked as a whole: "reproduced" when it holds ("reproduced differently" by ``how``), else "refuted".

    A claim that does not hold as printed but whose ledger row is a slip (``correction``
    ``"slip: ..."``: a citation, a cross-reference, a loose phrase whose meaning the source
    states elsewhere) is a "source slip", not a refuted claim.

    Examples
    --------
    >>> holds_verdict(True), holds_verdict(True, how="LOOCV"), holds_verdict(False)
    ('reproduced', 'reproduced differently', 'refuted')
    >>> holds_verdict(False, correction="slip: cites Lewis (1998) for naive Bayes; the reference is Rennie (2003)")
    'source slip'
    >>> holds_verdict("False")
    Traceback (most recent call last):
    ...
    TypeError: holds must be True or False, not 'False' (str): a claim holds or it does not (e.g. holds=bool(p < 0.05))
    """
    if not isinstance(holds, (bool, np.bool_)):
        raise TypeError(f"holds must be True or False, not {holds!r} ({type(holds).__name__}): a claim holds or it "
                        "does not (e.g. holds=bool(p < 0.05))")
    if not holds:
        return correction_verdict(correction) if correction.startswith("slip") else "refuted"
    return "reproduced differently" if how else "reproduced"


def _check_effect(effect, interval, rope):
    flags = {name: v for name, v in (("effect", effect), ("rope", rope)) if isinstance(v, (bool, np.bool_))}
    if isinstance(interval, (list, tuple)):
        flags |= {f"interval[{i}]": v for i, v in enumerate(interval) if isinstance(v, (bool, np.bool_))}
    if flags:
        raise ValueError(f"{', '.join(f'{k}={v!r}' for k, v in flags.items())}: an effect, its interval and the ROPE "
                         "are numbers, not True or False; give the estimate of the difference")
    if isinstance(interval, (str, bytes, Mapping)) or np.ndim(interval) != 1 or len(interval) != 2:
        raise ValueError(f"an interval is two numbers (low, high); got interval={interval!r}")
    try:
        effect, low, high, rope = float(effect), float(interval[0]), float(interval[1]), float(rope)
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        raise ValueError(f"an effect needs a number, its interval (low, high) and the ROPE; got effect={effect!r}, "
                         f"interval={interval!r}, rope={rope!r} ({exc})") from None
    if not all(math.isfinite(v) for v in (effect, low, high, rope)):
        raise ValueError(f"effect {effect}, interval ({low}, {high}) and ROPE {rope} must be finite numbers: a "
                         "verdict cannot be judged from NaN or inf")
    if low > high:
        raise ValueError(f"the interval ({low:g}, {high:g}) is reversed: give it as (low, high), ({high:g}, {low:g})")
    if not low <= effect <= high:
        raise ValueError(f"the effect {effect:g} lies outside its interval ({low:g}, {high:g})")
    if rope < 0:
        raise ValueError(f"the ROPE is a half-width >= 0; got {rope:g}")
    return effect, low, high, rope


def _check_posterior(posterior):
    if posterior is None:
        return None
    try:
        better, equivalent, worse = (float(posterior[k]) for k in ("better", "equivalent", "worse"))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"posterior must give 'better', 'equivalent' and 'worse' probabilities; got {posterior!r} "
                         f"({exc})") from None
    if not all(math.isfinite(v) for v in (better, equivalent, worse)):
        raise ValueError(f"posterior probabilities must be finite numbers: a verdict cannot be judged from NaN or inf; "
                         f"got {posterior!r} (recompute the posterior; a NaN usually means no differences were given)")
    if min(better, equivalent, worse) < 0 or abs(better + equivalent + worse - 1) > 1e-6:
        raise ValueError(f"posterior probabilities must be >= 0 and sum to 1; got {posterior!r}")
    return better, equivalent, worse


def effect_verdict(effect: float, interval, rope: float, *, posterior=None, kind: str = "advantage",
                   how: str | None = None, decisive: float = DECISIVE, p_adjusted: float | None = None,
                   alpha: float | None = None) -> str:
    """A claimed advantage (or equality) judged from its effect, its 95% interval and the ROPE.

    ``effect`` is the estimate of the difference in the claim's direction (``> 0`` favours the
    claim), ``interval`` its 95% interval, ``rope`` the half-width of the region of practical
    equivalence the ledger states for the claim, ``posterior`` (over data sets) the probabilities
    that the difference lies above the ROPE (``better``), inside it (``equivalent``) or below it
    (``worse``): the Bayesian signed-rank test's argmax shares, the share of posterior draws in
    which that region is the most probable (Benavoli et al. 2017). The rule for a claimed
    advantage, in this order, with ``decisive`` (default :data:`DECISIVE`) the share that decides:

    1. **practically equivalent**: the interval lies inside ``[-rope, rope]``, or
       P(equivalent) >= ``decisive``;
    2. **reproduced** (``"reproduced differently"`` with ``how``): with a posterior, P(better)
       >= ``decisive``; without, the interval lies above zero and the estimate beyond ``rope``;
    3. **refuted**: with a posterior, P(worse) >= ``decisive``; without, the interval lies
       below zero;
    4. **small but real**: the interval lies above zero but the estimate inside ``(0, rope]``
       (a real difference, too small to be the advantage claimed);
    5. undecided: **small, not significant** when the estimate lies in ``(0, rope]``,
       **inconclusive** when it lies beyond ``rope`` (large but uncertain), **not supported**
       when it is not in the claimed direction (``<= 0``).

    In a family with a multiplicity correction (``alpha`` given), rules 2, 3 and 4 also need the
    adjusted p-value ``p_adjusted`` below ``alpha``; where it is not, the verdict is the undecided
    one of rule 5.

    For a claimed equality (``kind="equality"``): reproduced when practically equivalent (rule 1),
    refuted when the interval lies wholly outside the ROPE (or P(better) or P(worse) >=
    ``decisive``), inconclusive otherwise.

    Examples
    --------
    >>> effect_verdict(0.02, (0.01, 0.03), 0.01), effect_verdict(0.001, (-0.004, 0.006), 0.01)
    ('reproduced', 'practically equivalent')
    >>> effect_verdict(0.004, (-0.02, 0.03), 0.01), effect_verdict(0.03, (-0.02, 0.08), 0.01)
    ('small, not significant', 'inconclusive')
    >>> effect_verdict(-0.01, (-0.05, 0.03), 0.01), effect_verdict(-0.04, (-0.06, -0.02), 0.01)
    ('not supported', 'refuted')
    >>> effect_verdict(0.003, (-0.01, 0.02), 0.01, posterior={"better": 0.02, "equivalent": 0.97, "worse": 0.01})
    'practically equivalent'
    >>> effect_verdict(0.0, (-0.002, 0.002), 0.01, kind="equality")
    'reproduced'
    >>> effect_verdict(0.02, (0.01, 0.03), 0.01, p_adjusted=0.08, alpha=0.05)
    'inconclusive'
    >>> effect_verdict(0.006, (0.002, 0.011), 0.01)
    'small but real'
    >>> effect_verdict(0.006, (0.002, 0.011), 0.01, p_adjusted=0.2, alpha=0.05)
    'small, not significant'
    """
    effect, low, high, rope = _check_effect(effect, interval, rope)
    probabilities = _check_posterior(posterior)
    if kind not in ("advantage", "equality"):
        raise ValueError(f"kind must be 'advantage' or 'equality'; got {kind!r}")
    decisive = _check_decisive(decisive)
    significant = _significant(p_adjusted, alpha)
    better, equivalent, worse = probabilities if probabilities else (None, None, None)
    inside = (low >= -rope and high <= rope) or (equivalent is not None and equivalent >= decisive)
    if kind == "equality":
        if inside:
            return "reproduced differently" if how else "reproduced"
        outside = low > rope or high < -rope or (better is not None and max(better, worse) >= decisive)
        return "refuted" if outside and significant else "inconclusive"
    if inside:
        return "practically equivalent"
    above = (better >= decisive if probabilities else low > 0) and significant
    below = (worse >= decisive if probabilities else high < 0) and significant
    if above and (probabilities or effect > rope):
        return "reproduced differently" if how else "reproduced"
    if below:
        return "refuted"
    if effect <= 0:
        return "not supported"
    if effect <= rope:
        return "small but real" if low > 0 and significant else "small, not significant"
    return "inconclusive"


def _check_decisive(decisive) -> float:
    if isinstance(decisive, bool) or not isinstance(decisive, (int, float)) or not 0.5 < decisive < 1:
        raise ValueError(f"decisive is the posterior share that decides, in (0.5, 1), e.g. 0.95; got {decisive!r}")
    return float(decisive)


def _significant(p_adjusted, alpha) -> bool:
    """Whether a multiplicity-adjusted p allows a decision: always without ``alpha``; else p < alpha."""
    if alpha is None:
        return True
    for name, value in (("alpha", alpha), ("p_adjusted", p_adjusted)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1 or value != value:
            raise ValueError(f"{name} must be a probability in [0, 1] when alpha is given (a comparison in a "
                             f"corrected family needs its adjusted p); got {name}={value!r}")
    return p_adjusted < alpha


def rope_sensitivity(effect: float, interval, rope: float, *, posterior=None, kind: str = "advantage",
                     how: str | None = None, **rule) -> dict:
    """The verdict of :func:`effect_verdict` at half and at double the ROPE.

    ``posterior`` is a function of the ROPE returning the three probabilities (the posterior
    depends on the ROPE), or ``None``.

    Examples
    --------
    >>> rope_sensitivity(0.004, (-0.006, 0.014), 0.01)
    {'half': 'small, not significant', 'double': 'practically equivalent'}
    """
    out = {}
    for name, factor in (("half", 0.5), ("double", 2.0)):
        r = rope * factor
        out[name] = effect_verdict(effect, interval, r, posterior=posterior(r) if posterior else None, kind=kind,
                                   how=how, **rule)
    return out


def weakest(comparisons) -> str:
    """Of several comparisons that must all hold for one claim, the name of the one that supports it least.

    A claim such as "better than both kernels" holds only if each comparison does (an
    intersection-union test), so its verdict is that of its weakest comparison: the one whose
    interval reaches lowest in the claimed direction (ties: the smaller estimate).

    Parameters
    ----------
    comparisons : mapping
        ``{name: {"effect": e, "interval": (low, high), ...}}``.

    Examples
    --------
    >>> weakest({"vs linear": {"effect": 0.01, "interval": (-0.002, 0.02)},
    ...          "vs RBF": {"effect": -0.001, "interval": (-0.01, 0.008)}})
    'vs RBF'
    """
    if not comparisons:
        raise ValueError("weakest() needs at least one comparison {name: {'effect': ..., 'interval': (low, high)}}")
    try:
        return min(comparisons, key=lambda k: (float(comparisons[k]["interval"][0]), float(comparisons[k]["effect"])))
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"every comparison needs 'effect' and 'interval' (low, high); got {comparisons!r} "
                         f"({exc})") from None


#: what an effect dict may carry of the decision rule (:func:`effect_verdict`'s keywords)
RULE_KEYS = ("decisive", "p_adjusted", "alpha")


def _judge(answer: Mapping, rope: float, kind: str, how) -> str:
    posterior = answer.get("posterior")
    at = posterior(rope) if callable(posterior) else posterior
    rule = {k: answer[k] for k in RULE_KEYS if answer.get(k) is not None}
    return effect_verdict(answer["effect"], answer["interval"], rope, posterior=at, kind=kind, how=how, **rule)


def intersection_union(comparisons: Mapping, rope: float, *, kind: str = "advantage",
                       how: str | None = None) -> tuple[str, str]:
    """The verdict of a claim that needs every one of several comparisons, and the comparison that decides it.

    A claim such as "better than both kernels" holds only if each comparison does (an
    intersection-union claim, Berger & Hsu 1996). Each comparison is judged by
    :func:`effect_verdict` (with the rule keys its effect dict carries), then, in this order:
    **refuted** if any comparison is; **practically equivalent** if any is (a claimed advantage
    fails there already); **reproduced** if all are (named: the :func:`weakest`); otherwise the
    undecided verdict of the weakest comparison that is not reproduced.

    Returns
    -------
    (verdict, name of the deciding comparison)

    Examples
    --------
    >>> intersection_union({"vs linear": {"effect": 0.0, "interval": (-0.004, 0.003)},
    ...                     "vs RBF": {"effect": -0.001, "interval": (-0.02, 0.015)}}, 0.01)
    ('practically equivalent', 'vs linear')
    """
    if not isinstance(comparisons, Mapping) or not comparisons:
        raise ValueError(f"comparisons must be a non-empty dict {{name: effect dict}}, not {comparisons!r}")
    verdicts = {}
    for name, c in comparisons.items():   # every comparison judged: one that cannot be stops the claim, named
        try:
            verdicts[name] = _judge(c, rope, kind, how)
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"the comparison {name!r} cannot be judged, so neither can the claim that needs it: "
                             f"{exc}") from None
    for wanted in ("refuted", "practically equivalent"):
        deciding = [name for name, v in verdicts.items() if v == wanted]
        if deciding:
            return wanted, weakest({n: comparisons[n] for n in deciding})
    if all(v.startswith("reproduced") for v in verdicts.values()):
        name = weakest(comparisons)
        return verdicts[name], name
    name = weakest({n: c for n, c in comparisons.items() if not verdicts[n].startswith("reproduced")})
    return verdicts[name], name


def over_settings(verdicts: Mapping, plausible=None) -> tuple[str, list]:
    """The verdict of a claim over the plausible values of a setting the source leaves unstated.

    ``verdicts`` maps each value of the setting at which the claim was judged to its verdict
    there (:func:`effect_verdict` or :func:`holds_verdict`); ``plausible`` the values the ledger's
    range admits (default: all of them). Over the plausible values, in this order:

    1. every one gives the same verdict: that verdict (a claim is **refuted** only when it is
       refuted at every plausible value);
    2. the claim holds (reproduced) at some and not at others: **depends on the unstated setting**;
    3. otherwise the verdict most favourable to the claim (:data:`FAVOURABLE`): the evidence
       cannot say more against the source than its most favourable plausible setting allows.

    Returns
    -------
    (verdict, the plausible values judged, in the order given)

    Examples
    --------
    >>> over_settings({168: "reproduced", 300: "reproduced", 948: "refuted", 3059: "refuted"}, [168, 300, 948])
    ('depends on the unstated setting', [168, 300, 948])
    >>> over_settings({168: "refuted", 948: "refuted", 3059: "refuted"}, [168, 948])[0]
    'refuted'
    >>> over_settings({168: "not supported", 948: "refuted"})[0]
    'not supported'
    """
    if not isinstance(verdicts, Mapping) or not verdicts:
        raise ValueError(f"verdicts must be a non-empty dict {{setting: verdict}}, not {verdicts!r}")
    unknown = {k: v for k, v in verdicts.items() if v not in FAVOURABLE}
    if unknown:
        raise ValueError(f"a verdict over settings combines the verdicts of a claim ({', '.join(FAVOURABLE)}); "
                         f"got {unknown}")
    judged = list(verdicts) if plausible is None else [v for v in verdicts if v in set(plausible)]
    if not judged:
        raise ValueError(f"none of the settings judged ({list(verdicts)}) lies in the plausible range "
                         f"{list(plausible)}: judge the claim at a plausible value of the setting")
    found = [verdicts[v] for v in judged]
    if len(set(found)) == 1:
        return found[0], judged
    if any(v.startswith("reproduced") for v in found):
        return "depends on the unstated setting", judged
    return min(found, key=FAVOURABLE.index), judged


def answer_verdict(answer: Mapping, rope: float, *, kind: str = "advantage", how: str | None = None) -> str:
    """The verdict of an effect dict, or of ``{"comparisons": {name: effect dict}}`` by :func:`intersection_union`.

    The rule :class:`~helpers.workbook.checks.SourceCheck.claim` applies to a ledger row, for the
    answers that have no row of their own (a claim's secondary readings, the claim without some
    data sets, with one data set left out): :func:`effect_verdict` at ``rope``, the posterior
    taken at ``rope`` when it is a function of the ROPE, with the rule keys the dict carries
    (``decisive``, ``p_adjusted``, ``alpha``).

    Examples
    --------
    >>> answer_verdict({"effect": 0.02, "interval": (0.01, 0.03)}, 0.01)
    'reproduced'
    >>> answer_verdict({"comparisons": {"a": {"effect": 0.02, "interval": (0.01, 0.03)},
    ...                                 "b": {"effect": 0.0, "interval": (-0.005, 0.004)}}}, 0.01)
    'practically equivalent'
    """
    if "comparisons" in answer:
        return intersection_union(answer["comparisons"], rope, kind=kind, how=how)[0]
    return _judge(answer, rope, kind, how)


def table_verdicts(table, rope: float, *, kind: str = "advantage", decisive: float = DECISIVE,
                   alpha: float | None = None) -> list[str]:
    """The verdict of each row of a table of claim effects, by :func:`answer_verdict`: its ``effect``,
    ``low`` and ``high`` (the 95% interval) and, if present, ``p_better``, ``p_equivalent``, ``p_worse``
    (the argmax shares). With ``alpha``, a row whose ``family`` is ``"confirmatory"`` also needs its
    ``p_holm`` below ``alpha`` to be decided (:func:`effect_verdict`).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"effect": [0.02, 0.0], "low": [0.01, -0.005], "high": [0.03, 0.004],
    ...                       "p_better": [0.99, 0.01], "p_equivalent": [0.01, 0.98], "p_worse": [0.0, 0.01]})
    >>> table_verdicts(table, 0.01)
    ['reproduced', 'practically equivalent']
    >>> table_verdicts(table.assign(family="confirmatory", p_holm=0.2), 0.01, alpha=0.05)
    ['inconclusive', 'practically equivalent']
    """
    bayes = {"p_better", "p_equivalent", "p_worse"} <= set(table.columns)
    gated = alpha is not None and {"family", "p_holm"} <= set(table.columns)
    out = []
    for r in table.itertuples():
        answer = {"effect": r.effect, "interval": (r.low, r.high), "decisive": decisive, "posterior": {
            "better": r.p_better, "equivalent": r.p_equivalent, "worse": r.p_worse} if bayes else None}
        if gated and r.family == "confirmatory":
            answer |= {"p_adjusted": r.p_holm, "alpha": alpha}
        out.append(answer_verdict(answer, rope, kind=kind))
    return out
