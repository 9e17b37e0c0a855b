"""A notebook's comparison rows: :class:`SourceCheck` answers the ledger rows that name the notebook.

A notebook creates one check (``check = notebook_setup(globals(), "04")``) and, for each ledger
``key``, gives *our* value or evidence; the printed value comes from the ledger, never typed twice,
and the verdict is computed by :mod:`~helpers.workbook.verdicts`. Many answers at once:
:meth:`SourceCheck.numbers` and :meth:`SourceCheck.claims`. The check's tables carry their rows as
JSON (:data:`MIME`) in the stored notebook, which the coverage and the book read back.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .ledger import OPTIONAL, UNSTATED, load_ledger
from .verdicts import (
    RULE_KEYS,
    VERDICTS,
    Printed,
    compare_values,
    effect_verdict,
    holds_verdict,
    intersection_union,
    number_verdict,
    over_settings,
    parse_printed,
    rope_sensitivity,
)

__all__ = ["MIME", "ComparisonTable", "Done", "Row", "SourceCheck", "effect_text"]

#: the MIME type of the comparison rows stored with each table in a notebook's outputs
MIME = "application/vnd.covsim.comparison+json"

_NOTEBOOK = re.compile(r"\d\d")
_NUMBER_OPTIONS = ("how", "tol", "percent", "exact", "note")
_CLAIM_OPTIONS = ("holds", "evidence", "effect", "interval", "posterior", "comparisons", "kind", "how", "settings",
                  "at")
#: the fields of a claim judged from an effect, stored with its row in the results JSON
EFFECT_FIELDS = ("effect", "interval", "rope", "posterior", "p", "rope_sensitivity", "method", "comparison")
#: the fields of a claim judged over the plausible range of a setting the source leaves unstated
SETTING_FIELDS = ("unstated", "settings", "plausible")


def _round_json(value):
    if isinstance(value, (list, tuple)):
        return [_round_json(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    value = float(value)
    if not math.isfinite(value):
        return None
    return float(f"{value:.6g}")


def _answers(answers, kind: str):
    """``{key or (key, ...): answer}`` -> ``[(key, answer), ...]``, a tuple of keys sharing one answer."""
    if not isinstance(answers, Mapping):
        raise TypeError(f"{kind}() takes a dict {{key: answer}}, not a {type(answers).__name__}")
    if not answers:
        raise ValueError(f"{kind}() was given no answers: pass a dict {{key: answer, ...}}")
    pairs = []
    for keys, answer in answers.items():
        for key in keys if isinstance(keys, tuple) else (keys,):
            if not isinstance(key, str):
                raise TypeError(f"{kind}(): a key must be a ledger key (str) or a tuple of them, not {key!r}")
            pairs.append((key, answer))
    return pairs


def _options(key: str, given, allowed: tuple[str, ...], kind: str) -> dict:
    if not isinstance(given, Mapping):
        raise TypeError(f"{kind}(): the options of {key!r} must be a dict such as {{'note': ...}}, not {given!r}")
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise TypeError(f"{kind}(): {key!r} has unknown option(s) {unknown}; the options are {list(allowed)}")
    return dict(given)


class SourceCheck:
    """The comparison rows of one notebook: each answers a ledger row, named by its key.

    Parameters
    ----------
    notebook : str
        The notebook's two-digit number, e.g. ``"04"``.
    ledger : DataFrame, optional
        A loaded ledger (:func:`~helpers.workbook.ledger.load_ledger`); read from
        ``data/source_ledger.csv`` by default.

    Examples
    --------
    >>> import pandas as pd
    >>> led = pd.DataFrame([
    ...     dict(id="VAC-1", source="000_355ea6f26af76eed.txt", lines="398", item="test accuracy, raw cosine",
    ...          printed="0.939", reading="", correction="", notebook="99", key="acc.raw", scope=""),
    ...     dict(id="VAC-2", source="000_355ea6f26af76eed.txt", lines="394", item="precision, B",
    ...          printed="9.921", reading="0.921", correction="extraction: the leading 0 is read as 9",
    ...          notebook="99", key="prec.b", scope=""),
    ... ])
    >>> check = SourceCheck("99", ledger=led)
    >>> check.number("acc.raw", 107 / 114).verdict
    'reproduced'
    >>> check.number("prec.b", 0.9211).verdict
    'extraction error'
    >>> check.summary()
    '2 source items answered: 1 reproduced, 1 extraction error'
    """

    def __init__(self, notebook: str, ledger: pd.DataFrame | None = None):
        if not _NOTEBOOK.fullmatch(str(notebook)):
            raise ValueError(f"notebook must be its two-digit number such as '04', not {notebook!r}")
        self.notebook = str(notebook)
        self.ledger = load_ledger() if ledger is None else ledger
        missing = {col: "" for col in OPTIONAL if col not in self.ledger.columns}
        if missing:
            self.ledger = self.ledger.assign(**missing)
        mine = self.ledger[(self.ledger["notebook"] == self.notebook) & (self.ledger["key"] != "")]
        self._rows_by_key = {r["key"]: r for r in mine.to_dict("records")}
        self.rows: list[dict] = []
        self._shown: set[str] = set()  # keys some table has shown

    def __repr__(self) -> str:
        return f"SourceCheck({self.notebook!r}): {len(self.rows)} of {len(self._rows_by_key)} ledger rows answered"

    # -- lookup ---------------------------------------------------------------------------------
    def item(self, key: str) -> dict:
        """The ledger row answered by ``key`` in this notebook."""
        try:
            return self._rows_by_key[key]
        except KeyError:
            close = [k for k in self._rows_by_key if k.split(".")[0] == key.split(".")[0]][:6]
            raise KeyError(
                f"no ledger row of notebook {self.notebook} has key {key!r}: add it to data/source_ledger.csv "
                f"(with the source lines it answers){'; keys that start alike: ' + ', '.join(close) if close else ''}"
            ) from None

    def printed(self, key: str) -> list[Printed]:
        """The printed values of the item answered by ``key``, parsed (:func:`~.verdicts.parse_printed`)."""
        return parse_printed(self.item(key)["printed"])

    def matches(self, key: str, ours, *, reading: bool = False, percent: bool = False) -> bool:
        """Whether ``ours`` prints as the value(s) of ``key``, with the source's rounding; records nothing.

        For choosing among protocols before answering a row (``number`` then records the answer).
        ``reading=True`` compares with the row's corrected reading instead of the print.

        Examples
        --------
        >>> from helpers.workbook.checks import SourceCheck
        >>> check = SourceCheck("00")
        >>> check.matches("salary.norm.l1-x8", 1.2149), check.matches("salary.norm.l1-x8", 1.3)
        (True, False)
        """
        row = self.item(key)
        printed = parse_printed(row["reading"] if reading and row["reading"] else row["printed"])
        truncated = row["printing"].startswith("truncated")
        return compare_values(printed, ours, None, percent=percent, truncated=truncated).ok

    def _add(self, key, ours, verdict, difference, note, source_text, fields=None) -> Row:
        row = self.item(key)
        if verdict not in VERDICTS:  # pragma: no cover - internal
            raise ValueError(verdict)
        record = {
            "id": row["id"], "key": key, "notebook": self.notebook, "source": row["source"],
            "lines": row["lines"], "item": row["item"], "printed": source_text, "ours": ours,
            "difference": difference, "verdict": verdict, "note": note,
        }
        if fields:
            record |= fields
        if row.get("same_as"):  # one comparison, several ledger rows: the coverage counts it once
            record["same_as"] = row["same_as"]
            record["note"] = "; ".join(filter(None, [note, f"the same comparison as {row['same_as']}"]))
        self.rows = [r for r in self.rows if r["key"] != key]  # a re-run cell replaces its row
        self.rows.append(record)
        return Row(record)

    # -- the three kinds of answer -------------------------------------------------------------
    def number(self, key: str, ours, *, how: str | None = None, tol: float | None = None,
               percent: bool = False, exact: bool = False, note: str = "") -> Row:
        """Compare our value(s) with the printed value(s) of ``key`` (:func:`~.verdicts.number_verdict`).

        Parameters
        ----------
        key : str
            The ledger key (its row gives the printed value, its rounding and any reading).
        ours : number, str, or list of them
            One value per printed value (``"2.50; 6.00; No"`` takes three).
        how : str, optional
            The protocol by which ours was obtained when it is not the one the source states:
            a match is then "reproduced differently", and ``how`` is shown with it.
        tol : float, optional
            A tolerance beyond the printed rounding, stated in ``note`` (e.g. two fold sds).
        percent : bool
            The source prints per cent (``91``) and ours is a fraction (``0.91``).
        exact : bool
            The printed numbers are exact, not rounded (a matrix entry ``1`` among exact
            fractions, a count): ours must equal them to 1e-9, whatever digits are printed.
        note : str
            A sentence for the reader, shown with the verdict.
        """
        row = self.item(key)
        printed = parse_printed(row["printed"])
        if not printed or any(not p.is_number and len(p.text.split()) > 1 for p in printed):
            raise ValueError(f"ledger row {row['id']} ({key}) prints no value but {row['printed']!r}; "
                             "answer it with claim() or not_testable()")
        try:
            verdict, notes, diff = number_verdict(row["printed"], ours, reading=row["reading"],
                                                  correction=row["correction"], how=how, tol=tol,
                                                  percent=percent, exact=exact,
                                                  truncated=row["printing"].startswith("truncated"))
        except (TypeError, ValueError) as exc:  # ours NaN, text or missing: named with the key
            raise type(exc)(f"{key} ({row['id']}): {exc}") from None
        parts = ([f"by {how}"] if how else []) + notes + ([note] if note else [])
        return self._add(key, _round_json(ours), verdict, _round_json(diff), "; ".join(parts), row["printed"])

    def claim(self, key: str, holds: bool | None = None, *, evidence: str, effect=None, interval=None,
              posterior=None, comparisons: Mapping | None = None, kind: str = "advantage",
              how: str | None = None, settings: Mapping | None = None, at=None) -> Row:
        """Answer a claim with evidence: whether it holds, or an effect with its interval against the ROPE.

        Parameters
        ----------
        holds : bool, optional
            Whether the claim holds exactly as the source states it (:func:`~.verdicts.holds_verdict`);
            for a claim that is true or false, not larger or smaller (an identity, a count, a definition).
        evidence : str
            What was measured, with its numbers (shown to the reader).
        effect : float or dict, optional
            A claimed advantage (or, with ``kind="equality"``, a claimed equality): the estimate of
            the difference in the claim's direction (``> 0`` favours the claim). Either a number
            with ``interval``, or the dict an effect function of :mod:`helpers.effects` returns
            (``effect``, ``interval``, and optionally ``p``, ``method``, ``posterior``). The
            verdict is :func:`~.verdicts.effect_verdict` with the ROPE the ledger row states
            (its ``rope`` column); the row also records the verdicts at half and double the ROPE.
        interval : (float, float), optional
            The effect's 95% interval, when ``effect`` is a number.
        posterior : dict or callable, optional
            Over data sets: P(better), P(equivalent), P(worse) (:func:`helpers.effects.bayesian_signed_rank`),
            or a function of the ROPE returning them, so that the sensitivity check recomputes them.
        comparisons : dict, optional
            A claim that holds only if each of several comparisons does (``{name: effect dict}``):
            judged by the weakest (:func:`~.verdicts.weakest`), which the row names.
        kind : {"advantage", "equality"}
            What the source claims.
        how : str, optional
            A protocol other than the source's, for a claim that holds only that way.
        settings : dict, optional
            A claim whose result depends on a setting the source leaves unstated, judged at
            several of its values: ``{value: effect dict, {"comparisons": {...}} or holds}``. The ledger row's
            ``unstated`` column gives the setting's plausible range; the verdict is
            :func:`~.verdicts.over_settings` over the values inside it, and the row records every
            value's verdict. ``at`` names the value whose effect the row shows (the workbook's
            own reconstruction, inside the range or not).

        Examples
        --------
        >>> import pandas as pd
        >>> led = pd.DataFrame([dict(id="VAC-9", source="000_355ea6f26af76eed.txt", lines="519", item="B beats cosine",
        ...                          printed="better", reading="", correction="", notebook="99", key="b.better",
        ...                          scope="", rope="0.01", printing="")])
        >>> row = SourceCheck("99", ledger=led).claim("b.better", effect=0.002, interval=(-0.004, 0.008),
        ...                                            evidence="50 splits")
        >>> row.verdict, row.record["rope_sensitivity"]
        ('practically equivalent', {'half': 'small, not significant', 'double': 'practically equivalent'})
        """
        row = self.item(key)
        if sum(x is not None for x in (holds, effect, comparisons, settings)) != 1:
            raise ValueError(f"{key}: give one of holds=True/False, effect= (with interval=), comparisons= or "
                             "settings=")
        if settings is not None:
            try:
                fields = self._settings_fields(row, settings, at, kind, how)
            except ValueError as exc:
                raise ValueError(f"{key} ({row['id']}): {exc}") from None
            verdict, ours = fields.pop("verdict"), fields.pop("ours")
            note = "; ".join(([f"by {how}"] if how else []) + [evidence, fields.pop("summary")])
            return self._add(key, ours, verdict, None, note, row["printed"], fields)
        if holds is not None:
            if not isinstance(holds, (bool, np.bool_)):
                raise TypeError(f"{key}: holds must be True or False, not {holds!r}")
            verdict = holds_verdict(bool(holds), how, row["correction"])
            ours = "holds" if holds else "does not hold"
            note = "; ".join(([f"by {how}"] if how else []) + [evidence])
            return self._add(key, ours, verdict, None, note, row["printed"])
        try:
            fields = self._effect_fields(row, effect, interval, posterior, comparisons, kind, how)
        except ValueError as exc:
            raise ValueError(f"{key} ({row['id']}): {exc}") from None
        deciding = fields["comparison"]
        weakest_note = [f"decided by the comparison {deciding} (each must hold)"] if deciding else []
        note = "; ".join(([f"by {how}"] if how else []) + [evidence] + weakest_note
                         + ([fields["method"]] if fields["method"] else []))
        verdict = fields.pop("verdict")
        return self._add(key, effect_text(fields), verdict, None, note, row["printed"], fields)

    def _effect_fields(self, row, effect, interval, posterior, comparisons, kind, how) -> dict:
        if not row["rope"]:
            raise ValueError("the ledger row states no ROPE: give its rope column the half-width of the region of "
                             "practical equivalence (e.g. 0.01, one accuracy point)")
        rope = float(row["rope"])
        chosen, verdict, rule = None, None, {}
        if comparisons is not None:
            verdict, chosen = intersection_union(comparisons, rope, kind=kind, how=how)
            effect = comparisons[chosen]
        if isinstance(effect, Mapping):
            if interval is not None:
                raise ValueError("give the interval inside the effect dict or beside a number, not both")
            given = dict(effect)
            effect, interval = given.get("effect"), given.get("interval")
            posterior = given.get("posterior", posterior)
            p, method = given.get("p"), given.get("method", "")
            rule = {k: given[k] for k in RULE_KEYS if given.get(k) is not None}
        else:
            p, method = None, ""
        if interval is None:
            raise ValueError("an effect needs its 95% interval (interval=(low, high)), so that its size and its "
                             "uncertainty are judged together")
        at = posterior(rope) if callable(posterior) else posterior
        if verdict is None:
            verdict = effect_verdict(effect, interval, rope, posterior=at, kind=kind, how=how, **rule)
        # a fixed posterior belongs to one ROPE: the interval alone cannot redo it at half and double
        fixed = at is not None and not callable(posterior)
        if fixed:
            sensitivity = {}
        elif comparisons is not None:
            sensitivity = {name: intersection_union(comparisons, rope * f, kind=kind, how=how)[0]
                           for name, f in (("half", 0.5), ("double", 2.0))}
        else:
            sensitivity = rope_sensitivity(effect, interval, rope, posterior=posterior, kind=kind, how=how, **rule)
        return {"verdict": verdict, "effect": _round_json(effect), "interval": _round_json(list(interval)),
                "rope": rope, "posterior": ({k: _round_json(at[k]) for k in ("better", "equivalent", "worse")}
                                            if at is not None else None),
                "p": _round_json(p) if p is not None else None, "rope_sensitivity": sensitivity,
                "method": str(method or ""), "comparison": chosen}

    def plausible(self, key: str) -> dict | None:
        """The setting the ledger row of ``key`` says the source leaves unstated, with its plausible range.

        ``{"setting", "low", "high", "why"}`` from the row's ``unstated`` column, or ``None`` when
        it reads ``none: ...`` or is empty.
        """
        m = UNSTATED.fullmatch(self.item(key).get("unstated", ""))
        return None if m is None else {"setting": m["setting"], "low": float(m["low"]), "high": float(m["high"]),
                                       "why": m["why"]}

    def _settings_fields(self, row, settings, at, kind, how) -> dict:
        unstated = self.plausible(row["key"])
        if unstated is None:
            raise ValueError("settings= needs the setting the source leaves unstated and its plausible range in the "
                             "ledger row's unstated column ('<setting>: <low>-<high>; <why>')")
        if not isinstance(settings, Mapping) or not settings:
            raise ValueError(f"settings must be a non-empty dict {{value: effect dict or holds}}, not {settings!r}")
        per = {}
        for value, answer in settings.items():
            if isinstance(answer, (bool, np.bool_)):
                per[value] = {"verdict": holds_verdict(bool(answer), how), "holds": bool(answer)}
            elif isinstance(answer, Mapping) and "comparisons" in answer:   # several must hold at this value
                per[value] = self._effect_fields(row, None, None, None, answer["comparisons"], kind, how)
            else:
                per[value] = self._effect_fields(row, answer, None, None, None, kind, how)
        low, high = unstated["low"], unstated["high"]
        inside = [v for v in settings if low <= float(v) <= high]
        verdict, judged = over_settings({v: f["verdict"] for v, f in per.items()}, inside)
        sensitivity = {}
        if all(f.get("rope_sensitivity") for f in per.values()):
            sensitivity = {name: over_settings({v: f["rope_sensitivity"][name] for v, f in per.items()}, inside)[0]
                           for name in ("half", "double")}
        if at is not None and at not in per:
            raise ValueError(f"at={at!r} is not one of the settings judged ({list(settings)})")
        shown = per[at] if at is not None else per[judged[0]]
        by_verdict: dict = {}
        for v in judged:
            by_verdict.setdefault(per[v]["verdict"], []).append(_setting_text(v))
        summary = (f"over the plausible {unstated['setting']} {_setting_text(low)}-{_setting_text(high)} "
                   f"({unstated['why']}): " + "; ".join(f"{k} at {', '.join(vs)}" for k, vs in by_verdict.items()))
        fields = {"verdict": verdict, "summary": summary,
                  "unstated": {"setting": unstated["setting"], "range": [low, high]},
                  "plausible": [_round_json(v) for v in judged],
                  "settings": {str(v): {k: f[k] for k in ("verdict", "effect", "interval", "holds") if k in f}
                               for v, f in per.items()}}
        if "effect" in shown:
            fields |= {k: shown[k] for k in EFFECT_FIELDS} | {"rope_sensitivity": sensitivity}
            fields["ours"] = (f"{effect_text(shown)} at {unstated['setting']} = "
                              f"{_setting_text(at if at is not None else judged[0])}")
        else:
            fields["ours"] = "; ".join(f"{'holds' if per[v]['holds'] else 'does not hold'} at {_setting_text(v)}"
                                       for v in settings)
        return fields

    def finding(self, key: str, ours, *, evidence: str) -> Row:
        """Record what the workbook finds about an item the source does not address: "our finding".

        For a property of a source's method that the source neither claims nor denies (that a
        transform depends on the column order, say): the source is not wrong about it, and the
        row is not counted among its refuted claims.
        """
        if not evidence:
            raise ValueError(f"{key}: say what was measured")
        row = self.item(key)
        return self._add(key, _round_json(ours), "our finding", None, evidence, row["printed"])

    def not_testable(self, key: str, why: str) -> Row:
        """Record that nothing here can test the item, and why."""
        if not why:
            raise ValueError(f"{key}: say why the item cannot be tested")
        row = self.item(key)
        return self._add(key, None, "not testable", None, why, row["printed"])

    # -- many answers at once --------------------------------------------------------------------
    def numbers(self, answers: Mapping, **shared) -> ComparisonTable:
        """Answer many printed values at once: :meth:`number` for each, one table of the rows added.

        Parameters
        ----------
        answers : dict
            ``{key: ours}``, or ``{key: (ours, {option: value})}`` for options of one key only
            (``note``, ``how``, ``tol``, ``percent``, ``exact``); a tuple of keys
            ``{(key1, key2): ours}`` answers each with the same value.
        **shared
            Options of :meth:`number` for every key (a key's own options take precedence).

        Returns
        -------
        ComparisonTable
            The rows this call added, in the order given; :meth:`table` does not show them again.

        Examples
        --------
        >>> import pandas as pd
        >>> led = pd.DataFrame([dict(id=f"VAC-{i}", source="000_355ea6f26af76eed.txt", lines="1", item=k,
        ...                          printed=v, reading="", correction="", notebook="99", key=k, scope="")
        ...                     for i, (k, v) in enumerate({"acc": "0.939", "f1": "91", "n": "569"}.items())])
        >>> check = SourceCheck("99", ledger=led)
        >>> table = check.numbers({"acc": 107 / 114, "f1": (0.9061, {"percent": True}), "n": 569}, note="test set")
        >>> [r["verdict"] for r in table.rows], table.rows[0]["note"]
        (['reproduced', 'reproduced', 'reproduced'], 'test set')
        """
        bad = sorted(set(shared) - set(_NUMBER_OPTIONS))
        if bad:
            raise TypeError(f"numbers(): unknown option(s) {bad}; the options are {list(_NUMBER_OPTIONS)}")
        added = []
        for key, answer in _answers(answers, "numbers"):
            options = dict(shared)
            if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], Mapping):
                answer, own = answer
                options.update(_options(key, own, _NUMBER_OPTIONS, "numbers"))
            added.append(self.number(key, answer, **options).record)
        return self._table_of(added)

    def claims(self, answers: Mapping, **shared) -> ComparisonTable:
        """Answer many claims at once: :meth:`claim` for each, one table of the rows added.

        Parameters
        ----------
        answers : dict
            ``{key: holds}`` (with ``evidence`` among the shared options), ``{key: (holds,
            evidence)}``, or ``{key: {option: value}}`` with :meth:`claim`'s keywords (``holds``,
            ``effect``, ``interval``, ``posterior``, ``comparisons``, ``kind``, ``evidence``, ``how``); a tuple of keys
            ``{(key1, key2): answer}`` answers each with the same evidence.
        **shared
            Keywords of :meth:`claim` for every key (a key's own take precedence).

        Returns
        -------
        ComparisonTable
            The rows this call added, in the order given; :meth:`table` does not show them again.

        Examples
        --------
        >>> import pandas as pd
        >>> led = pd.DataFrame([dict(id=f"VAC-{i}", source="000_355ea6f26af76eed.txt", lines="1", item=k,
        ...                          printed="a claim", reading="", correction="", notebook="99", key=k, scope="",
        ...                          rope="0.01", printing="") for i, k in enumerate(["eq1", "eq2", "better"])])
        >>> check = SourceCheck("99", ledger=led)
        >>> table = check.claims({("eq1", "eq2"): (True, "A A' = S to 1e-15"),
        ...                       "better": {"effect": -0.012, "interval": (-0.03, 0.006), "evidence": "50 splits"}})
        >>> [(r["key"], r["verdict"]) for r in table.rows]
        [('eq1', 'reproduced'), ('eq2', 'reproduced'), ('better', 'not supported')]
        """
        bad = sorted(set(shared) - set(_CLAIM_OPTIONS))
        if bad:
            raise TypeError(f"claims(): unknown option(s) {bad}; the options are {list(_CLAIM_OPTIONS)}")
        added = []
        for key, answer in _answers(answers, "claims"):
            options = dict(shared)
            if isinstance(answer, Mapping):
                options.update(_options(key, answer, _CLAIM_OPTIONS, "claims"))
            elif isinstance(answer, tuple) and len(answer) == 2:
                options.update(holds=answer[0], evidence=answer[1])
            else:
                options["holds"] = answer
            if "evidence" not in options:
                raise TypeError(f"claims(): {key!r} has no evidence; give (holds, evidence) or evidence=... for all")
            added.append(self.claim(key, **options).record)
        return self._table_of(added)

    # -- display ---------------------------------------------------------------------------------
    def _table_of(self, records: list[dict]) -> ComparisonTable:
        self._shown.update(r["key"] for r in records)
        return ComparisonTable(records)

    def table(self, *, all: bool = False) -> ComparisonTable:  # noqa: A002 - reads well in notebooks
        """The rows no table has shown yet (``all=True``: every row), for display."""
        rows = self.rows if all else [r for r in self.rows if r["key"] not in self._shown]
        self._shown.update(r["key"] for r in self.rows)
        return ComparisonTable(rows)

    def unanswered(self) -> list[str]:
        """Ledger keys of this notebook that no row answers yet."""
        done = {r["key"] for r in self.rows}
        return [k for k in self._rows_by_key if k not in done]

    def done(self) -> Done:
        """End of the notebook: raises if a ledger row is unanswered, else shows the counts.

        Make it the last expression of a cell: its output stores every comparison row of the
        notebook, whatever the earlier tables showed, so the tests and the README see them all.
        """
        return Done(self)

    def summary(self) -> str:
        """One line of counts; raises when a ledger row of this notebook is left unanswered."""
        missing = self.unanswered()
        if missing:
            raise ValueError(
                f"{len(missing)} ledger row(s) of notebook {self.notebook} have no comparison row: "
                + ", ".join(missing[:12]) + (" ..." if len(missing) > 12 else "")
            )
        counts = pd.Series([r["verdict"] for r in self.rows]).value_counts()
        parts = [f"{counts[v]} {v}" for v in VERDICTS if v in counts]
        return f"{len(self.rows)} source items answered: " + ", ".join(parts)


def _json_rows(rows: list[dict]) -> list[dict]:
    keep = ("id", "key", "notebook", "ours", "verdict", "same_as", *EFFECT_FIELDS, *SETTING_FIELDS)
    return [{k: r[k] for k in keep if k in r} for r in rows]


def _setting_text(value) -> str:
    """A setting's value as the notes print it: ``300``, ``0.5``, ``1,000``."""
    value = float(value)
    return f"{value:,.0f}" if value == int(value) else f"{value:g}"


def effect_text(fields: dict) -> str:
    """A claim's effect as the tables and the book show it: ``+0.0150 [-0.0075, +0.0375]; ROPE ±0.01; P(...)``."""
    low, high = fields["interval"]
    text = f"{fields['effect']:+.4g} [{low:+.4g}, {high:+.4g}]; ROPE ±{fields['rope']:g}"
    if fields["posterior"]:
        post = fields["posterior"]
        text += f"; P(better, equivalent, worse) = {post['better']:.2f}, {post['equivalent']:.2f}, {post['worse']:.2f}"
    return text


class Done:
    """The last output of a notebook's check: its counts, and every row as JSON for the tests."""

    def __init__(self, check: SourceCheck):
        self.text = check.summary()
        self.rows = [dict(r) for r in check.rows]

    def _repr_mimebundle_(self, include=None, exclude=None):
        counts = pd.Series([r["verdict"] for r in self.rows]).value_counts()
        lines = [self.text] + [f"  {counts[v]:4d}  {v}" for v in VERDICTS if v in counts]
        return {"text/plain": "\n".join(lines), MIME: {"rows": _json_rows(self.rows)}}


@dataclass
class Row:
    """One comparison row just added: its ``record`` (every field) and its ``verdict``."""

    record: dict

    @property
    def verdict(self) -> str:
        return self.record["verdict"]

    def __repr__(self) -> str:
        r = self.record
        return f"{r['id']} {r['key']}: {r['verdict']}"


def _effect_columns(r: dict) -> dict:
    if r.get("interval") is None:
        return dict.fromkeys(ComparisonTable.EFFECT_COLUMNS, "")
    post, sens = r.get("posterior"), r.get("rope_sensitivity") or {}
    return {
        "effect": f"{r['effect']:+.4g}",
        "95% interval": f"[{r['interval'][0]:+.4g}, {r['interval'][1]:+.4g}]",
        "ROPE": f"±{r['rope']:g}",
        "P(better, equivalent, worse)": (f"{post['better']:.2f}, {post['equivalent']:.2f}, {post['worse']:.2f}"
                                         if post else ""),
        "at half, double the ROPE": f"{sens['half']}; {sens['double']}" if sens else "",
    }


def _display_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_display_value(v) for v in value)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


class ComparisonTable:
    """Quantity · source · ours · difference · verdict rows, shown as a table, stored as JSON for the tests.

    Columns, in reading order: the ledger ``id``, the ``quantity`` (the ledger's item), the value
    the ``source`` prints, ``ours``, the ``difference``, the ``verdict``, then the source's
    ``lines`` and the ``note``.
    """

    COLUMNS = ["id", "quantity", "source", "ours", "difference", "verdict", "lines", "note"]
    #: the columns of claims judged from an effect, shown when a table has one
    EFFECT_COLUMNS = ["effect", "95% interval", "ROPE", "P(better, equivalent, worse)", "at half, double the ROPE"]

    def __init__(self, rows: list[dict]):
        self.rows = [dict(r) for r in rows]

    def frame(self) -> pd.DataFrame:
        with_effect = any(r.get("interval") is not None for r in self.rows)
        records = []
        for r in self.rows:
            record = {
                "id": r["id"], "quantity": r["item"], "source": r["printed"],
                "ours": _display_value(r["ours"]), "difference": _display_value(r["difference"]),
                "verdict": r["verdict"], "lines": r["lines"], "note": r["note"],
            }
            if with_effect:
                record |= _effect_columns(r)
            records.append(record)
        columns = self.COLUMNS[:6] + (self.EFFECT_COLUMNS if with_effect else []) + self.COLUMNS[6:]
        if with_effect:
            for record in records:  # the effect has columns of its own: ours would repeat them
                record["ours"] = "" if record["effect"] else record["ours"]
        return pd.DataFrame.from_records(records, columns=columns)

    def _repr_mimebundle_(self, include=None, exclude=None):
        frame = self.frame()
        with pd.option_context("display.max_colwidth", 90, "display.max_rows", 500, "display.width", 250):
            text = frame.to_string(index=False) if len(frame) else "(no rows)"
        return {
            "text/plain": text,
            "text/html": frame.to_html(index=False, na_rep=""),
            MIME: {"rows": _json_rows(self.rows)},
        }

    def __len__(self) -> int:
        return len(self.rows)
