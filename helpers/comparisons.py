"""Several pairs of classifiers compared at once: each effect with its interval and the counts behind it.

The effects are those of :mod:`helpers.effects` and the tests those of :mod:`helpers.significance`;
here they are gathered over pairs, and shown as a table or in words:

* over resamples of one data set (random splits, the folds of repeated CV), one score per
  resample: :func:`pair_effects` (the Nadeau-Bengio difference of each pair, with the resamples
  each side wins) and :func:`sweep_comparisons` (the same on several metrics);
* on one test set (or the pooled held-out predictions of a cross-validation), one prediction
  per row: :func:`accuracy_difference` and :func:`prediction_effects` (the paired BCa bootstrap
  of the accuracy difference beside the exact McNemar test), :func:`mcnemar_table` (the test
  alone) and :func:`effects_against` (several classifiers against one reference, on any score);
* for the reader: :func:`effects_table` and :func:`comparisons_table` (one row per comparison)
  and :func:`comparison_evidence` (the comparisons in words).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .effects import bonferroni_effect, paired_bootstrap, resampled_difference
from .significance import compare_pairs, mcnemar_exact

__all__ = [
    "accuracy_difference",
    "comparison_evidence",
    "comparisons_table",
    "effects_against",
    "effects_table",
    "mcnemar_table",
    "pair_effects",
    "prediction_effects",
    "sweep_comparisons",
]

# --------------------------------------------------------------------------------------------
# over resamples of one data set


def pair_effects(scores: Mapping, pairs, test_train_ratio: float) -> dict[str, dict]:
    """The accuracy difference of each pair over the same resamples, with its Nadeau-Bengio interval.

    Parameters
    ----------
    scores : dict of {name: array-like}
        Each model's scores on the same resamples (random splits, or the folds of repeated CV).
    pairs : iterable of (name_a, name_b)
        Each gives ``a - b`` (positive: ``a`` better).
    test_train_ratio : float
        ``n_test / n_train`` of the resampling (0.25 for 80:20 splits and for 5-fold CV).

    Returns
    -------
    dict of {"a vs b": dict}
        :func:`helpers.effects.resampled_difference` (``effect``, ``interval``, ``p``, ``n``,
        ``method``) with the counts of resamples ``a`` wins, loses and ties.

    Examples
    --------
    >>> s = {"a": [0.95, 0.93, 0.96, 0.94], "b": [0.93, 0.93, 0.94, 0.92]}
    >>> r = pair_effects(s, [("a", "b")], 0.25)["a vs b"]
    >>> print(f"{r['effect']:+.4f} [{r['interval'][0]:+.4f}, {r['interval'][1]:+.4f}]", r["wins"], r["ties"])
    +0.0150 [-0.0075, +0.0375] 3 1
    """
    counts = compare_pairs(scores, pairs, test_train_ratio)   # checks the pairs, counts wins, losses, ties
    out = {}
    for a, b in pairs:
        key = f"{a} vs {b}"
        effect = resampled_difference(np.ravel(scores[a]), np.ravel(scores[b]), test_train_ratio)
        out[key] = {**effect, **{c: int(counts.loc[key, c]) for c in ("wins", "losses", "ties")}}
    return out


def sweep_comparisons(by_metric: Mapping, pairs: Sequence[tuple[str, str]], metric_names: Sequence[str],
                      test_train_ratio: float) -> dict[str, dict]:
    """The effect of each pair of models on each metric over the same resamples: ``a - b`` and its interval.

    Each is :func:`pair_effects` on that metric (the Nadeau-Bengio corrected interval), with the
    resamples ``a`` wins and loses; a claim that needs all of them to hold passes
    the dict to ``check.claim(..., comparisons=...)``, which judges it by the intersection-union rule
    (:func:`helpers.workbook.verdicts.intersection_union`).

    Parameters
    ----------
    by_metric : dict of {metric: {model: scores}}
        E.g. from :func:`helpers.evaluation.repeated_split_scores` with several ``scoring`` metrics.
    pairs : sequence of (a, b)
        Positive effects favour ``a``.
    metric_names : sequence of str
    test_train_ratio : float
        ``n_test / n_train`` of the resamples (0.25 for 80:20 splits).

    Returns
    -------
    dict of {"metric: a vs b": effect dict}

    Examples
    --------
    >>> scores = {"accuracy": {"b": [0.95, 0.96, 0.94, 0.97], "a": [0.93, 0.93, 0.94, 0.92]}}
    >>> c = sweep_comparisons(scores, [("b", "a")], ["accuracy"], 0.25)
    >>> r = c["accuracy: b vs a"]
    >>> print(f"{r['effect']:+.4f} [{r['interval'][0]:+.4f}, {r['interval'][1]:+.4f}]", r["wins"], r["losses"])
    +0.0250 [-0.0218, +0.0718] 3 0
    """
    return {f"{m}: {key}": {name: value for name, value in effect.items() if name != "ties"}
            for m in metric_names for key, effect in pair_effects(by_metric[m], pairs, test_train_ratio).items()}


# --------------------------------------------------------------------------------------------
# on one test set, paired by row


def accuracy_difference(y_true, pred_a, pred_b, n_resamples: int = 9999, random_state: int = 0) -> dict:
    """accuracy(a) - accuracy(b) on one set of fresh points, with its paired BCa interval and the McNemar test.

    The effect and its interval are :func:`helpers.effects.paired_bootstrap`'s; the exact McNemar
    test of the same paired predictions (:func:`helpers.significance.mcnemar_exact`) adds its
    discordant counts and its p-value.

    Returns
    -------
    dict
        ``effect``, ``interval``, ``n`` and ``method`` as :func:`~helpers.effects.paired_bootstrap`;
        ``p`` (exact McNemar, two-sided), ``a_only`` and ``b_only`` (rows only a, or only b,
        classifies right).

    Examples
    --------
    a is right on 45 of 50 points, b on 40 (b's errors include a's):

    >>> y = np.zeros(50, dtype=int)
    >>> a, b = (np.r_[np.zeros(n_right, dtype=int), np.ones(50 - n_right, dtype=int)] for n_right in (45, 40))
    >>> r = accuracy_difference(y, a, b, n_resamples=999)
    >>> low, high = r["interval"]
    >>> print(f"{r['effect']:+.2f} [{low:+.2f}, {high:+.2f}]", r["a_only"], r["b_only"], f"{r['p']:.3f}")
    +0.10 [+0.04, +0.22] 5 0 0.062
    """
    y_true, pred_a, pred_b = (np.asarray(v) for v in (y_true, pred_a, pred_b))
    classes = np.union1d(y_true, np.union1d(pred_a, pred_b))
    out = paired_bootstrap(y_true, pred_a, pred_b, score="accuracy", classes=classes, n_resamples=n_resamples,
                           random_state=random_state)
    a_only, b_only, p = mcnemar_exact(y_true, pred_a, pred_b)
    return {**out, "p": p, "a_only": a_only, "b_only": b_only}


def prediction_effects(y_true, pairs: Mapping, names=("a", "b")) -> dict[str, dict]:
    """The accuracy difference of two methods' predictions on the same rows, with its paired bootstrap interval.

    For one test set (or the pooled held-out predictions of a cross-validation), one row per
    scheme: :func:`accuracy_difference` (accuracy of ``a`` minus ``b``, BCa interval over the
    rows, with the exact McNemar test's p-value and the two discordant counts beside it), its
    counts named after the two methods.

    Parameters
    ----------
    pairs : dict of {scheme: (pred_a, pred_b)}
    names : (str, str)
        Short names of the two methods, for the count keys.

    Returns
    -------
    dict of {scheme: dict}
        ``effect``, ``interval``, ``n``, ``method``, ``mcnemar_p``, ``"{a} right, {b} wrong"``
        and ``"{b} right, {a} wrong"``.

    Examples
    --------
    >>> y = np.zeros(50, dtype=int)
    >>> a = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]
    >>> b = np.r_[np.zeros(30, dtype=int), np.ones(20, dtype=int)]
    >>> r = prediction_effects(y, {"split": (a, b)}, ("A", "B"))["split"]
    >>> print(f"{r['effect']:+.2f} [{r['interval'][0]:+.2f}, {r['interval'][1]:+.2f}]", r["A right, B wrong"],
    ...       f"{r['mcnemar_p']:.4f}")
    +0.20 [+0.10, +0.32] 10 0.0020
    """
    a, b = names
    out = {}
    for scheme, (pred_a, pred_b) in pairs.items():
        effect = accuracy_difference(y_true, pred_a, pred_b)
        p, n_a, n_b = (effect.pop(key) for key in ("p", "a_only", "b_only"))
        out[scheme] = {**effect, "mcnemar_p": p, f"{a} right, {b} wrong": n_a, f"{b} right, {a} wrong": n_b}
    return out


def mcnemar_table(y_true, pairs: Mapping, names=("A", "B")) -> pd.DataFrame:
    """Exact McNemar tests of two methods' predictions on the same rows, one row per scheme.

    Parameters
    ----------
    pairs : dict of {scheme: (pred_a, pred_b)}
    names : (str, str)
        Short names of the two methods, for the count columns.

    Returns
    -------
    pandas.DataFrame
        ``effect`` (net rows in favour of a, as a share of the rows), ``p_value`` and the two
        discordant counts, ``"{a} right, {b} wrong"`` and ``"{b} right, {a} wrong"``.

    Examples
    --------
    >>> mcnemar_table([0, 1, 1, 0], {"split": ([0, 1, 1, 1], [0, 0, 0, 0])}, ("E", "raw"))
           effect  p_value  E right, raw wrong  raw right, E wrong
    split    0.25      1.0                   2                   1
    """
    a, b = names
    rows = {}
    for scheme, (pred_a, pred_b) in pairs.items():
        n_a, n_b, p = mcnemar_exact(y_true, pred_a, pred_b)
        rows[scheme] = {"effect": (n_a - n_b) / len(y_true), "p_value": p,
                        f"{a} right, {b} wrong": n_a, f"{b} right, {a} wrong": n_b}
    return pd.DataFrame.from_dict(rows, orient="index")


def effects_against(y_true, predictions: dict, reference, score: str = "accuracy", classes=None,
                    n_resamples: int = 1999, random_state: int = 0, looks: int = 1) -> dict:
    """``score(classifier) - score(reference)`` on the same test rows, for each classifier, with its interval.

    Parameters
    ----------
    y_true : labels of the test rows
    predictions : dict
        ``{name: test predictions}``.
    reference : the reference classifier's predictions on the same rows
    score : str
        One of :data:`helpers.evaluation.SCORES`.
    classes : sequence, optional
        The categories averaged over (macro scores).
    n_resamples, random_state
        Of :func:`helpers.effects.paired_bootstrap` (the same resamples for every classifier).
    looks : int
        How many settings the compared one was the best of, on the test set: the interval is
        then the Bonferroni one at :func:`helpers.effects.bonferroni` ``(looks)``, so that picking it keeps its
        95% coverage (``1``: a setting fixed in advance).

    Returns
    -------
    dict
        ``{name: {"effect", "interval", "n", "method"}}``.

    Examples
    --------
    >>> y = np.zeros(60, dtype=int)
    >>> right = lambda n: np.r_[np.zeros(n, dtype=int), np.ones(60 - n, dtype=int)]  # noqa: E731
    >>> out = effects_against(y, {"a": right(50)}, right(40), classes=[0, 1], n_resamples=999)
    >>> e = out["a"]
    >>> print(f"{e['effect']:+.3f} [{e['interval'][0]:+.3f}, {e['interval'][1]:+.3f}]")
    +0.167 [+0.083, +0.267]
    """
    if not isinstance(predictions, dict) or not predictions:
        raise ValueError("predictions must be a non-empty dict {name: test predictions}; wrap one as {'name': pred}.")
    return {name: bonferroni_effect(y_true, pred, reference, looks, score=score, classes=classes,
                                    n_resamples=n_resamples, random_state=random_state)
            for name, pred in predictions.items()}


# --------------------------------------------------------------------------------------------
# for the reader


def effects_table(effects: Mapping) -> pd.DataFrame:
    """Effect dicts as a table for display: estimate, 95% interval, p-value and counts, rounded to 4 digits.

    Examples
    --------
    >>> effects_table({"a vs b": {"effect": 0.015, "interval": (-0.0075, 0.0375), "p": 0.124, "n": 4}})
            effect  95% low  95% high      p  n
    a vs b   0.015  -0.0075    0.0375  0.124  4
    """
    rows = {}
    for name, e in effects.items():
        row = {"effect": e["effect"], "95% low": e["interval"][0], "95% high": e["interval"][1]}
        row |= {key: e[key] for key in ("p", "mcnemar_p", "n", "wins", "losses", "ties", "a right, b wrong",
                                        "b right, a wrong") if key in e}
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index").round(4)


def comparisons_table(comparisons: Mapping[str, dict]) -> pd.DataFrame:
    """The comparisons as a table: effect, its 95% interval, p, and the counts behind it, one row each.

    Examples
    --------
    >>> comparisons_table({"accuracy: b vs a": {"effect": 0.005, "interval": (-0.01, 0.02), "p": 0.6, "wins": 27,
    ...                                         "losses": 13}}).to_dict("index")  # doctest: +NORMALIZE_WHITESPACE
    {'accuracy: b vs a': {'effect': 0.005, 'low': -0.01, 'high': 0.02, 'p': 0.6, 'wins': 27, 'losses': 13}}
    """
    rows = {}
    for name, c in comparisons.items():
        row = {"effect": c["effect"], "low": c["interval"][0], "high": c["interval"][1], "p": c.get("p", np.nan)}
        if "wins" in c:
            row |= {"wins": c["wins"], "losses": c["losses"]}
        if "right_wrong" in c:
            row |= {"wins": c["right_wrong"][0], "losses": c["right_wrong"][1]}
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def comparison_evidence(comparisons: Mapping[str, dict]) -> str:
    """Each comparison in words: its effect, its 95% interval, and the counts behind it.

    Examples
    --------
    >>> comparison_evidence({"accuracy: b vs a": {"effect": 0.005, "interval": (-0.01, 0.02), "wins": 27,
    ...                                           "losses": 13},
    ...                      "LOOCV: b vs a": {"effect": 0.0176, "interval": (0.004, 0.03), "right_wrong": (16, 6),
    ...                                        "p": 0.0525}}).split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ['"accuracy: b vs a" +0.005 [-0.010, +0.020] (27 wins, 13 losses)',
     '"LOOCV: b vs a" +0.018 [+0.004, +0.030] (16 rows against 6, McNemar p = 0.052)']
    """
    parts = []
    for name, c in comparisons.items():
        low, high = c["interval"]
        text = f'"{name}" {c["effect"]:+.3f} [{low:+.3f}, {high:+.3f}]'
        if "wins" in c:
            text += f" ({c['wins']} wins, {c['losses']} losses)"
        elif "right_wrong" in c:
            right, wrong = c["right_wrong"]
            text += f" ({right} row{'s' * (right != 1)} against {wrong}, McNemar p = {c['p']:.2g})"
        parts.append(text)
    return "; ".join(parts)
