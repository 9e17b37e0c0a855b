"""Figures 5 and 6 (lines 307-316): accuracy and error reduction against the number of training documents.

The figures are images, absent from the text; only their claims are testable. From the long
table of :func:`~.sweeps.training_size_curve`: :func:`accuracy_table` (Fig. 5's curves),
:func:`error_reduction` (Fig. 6's, ``(CE_E - CE_M) / CE_E`` with CE from Eq. 19) and
:func:`training_size_claims` (the claims with their effects and intervals, ready for a notebook's
``check.claims``, and the answer to the printed 35%).
"""

from __future__ import annotations

import pandas as pd

from ...effects import paired_bootstrap
from ...rank_effects import trend_effect
from ...significance import mcnemar_exact
from .readings import READINGS

__all__ = ["accuracy_table", "error_reduction", "training_size_claims"]


def accuracy_table(curve: pd.DataFrame) -> pd.DataFrame:
    """Accuracy by number of training documents (index) and reading (columns, in the order of :data:`READINGS`).

    Examples
    --------
    >>> curve = pd.DataFrame({"training documents": [10, 10, 20, 20], "reading": ["pooled", "euclidean"] * 2,
    ...                       "accuracy": [0.5, 0.6, 0.7, 0.8]})
    >>> accuracy_table(curve).values.tolist()
    [[0.6, 0.5], [0.8, 0.7]]
    """
    table = curve.pivot(index="training documents", columns="reading", values="accuracy")
    return table[[r for r in READINGS if r in table.columns]]


def error_reduction(accuracy: pd.DataFrame, reference: str = "euclidean") -> pd.DataFrame:
    """Each column's error relative to the reference's: ``(CE_ref - CE) / CE_ref``, CE = 1 - accuracy (Eq. 19).

    Positive: fewer errors than the reference (Fig. 6 plots it for Mahal-kNN against Euclidean kNN).

    Examples
    --------
    >>> acc = pd.DataFrame({"euclidean": [0.8, 0.9], "pooled": [0.87, 0.8]})
    >>> error_reduction(acc).round(2)["pooled"].tolist()
    [0.35, -1.0]
    """
    error = 1 - accuracy
    others = [c for c in accuracy.columns if c != reference]
    return error[others].rsub(error[reference], axis=0).div(error[reference], axis=0)


def training_size_claims(curve: pd.DataFrame, predictions: dict, y_test, reading: str, n_resamples: int = 1999,
                         random_state: int = 0) -> tuple[dict, tuple]:
    """The claims of Figs 5 and 6, answered by one reading, and our answer to Fig. 6's highest reduction (35%).

    Parameters
    ----------
    curve : DataFrame
        The long table of :func:`~.sweeps.training_size_curve` (``fraction``, ``training
        documents``, ``reading``, ``accuracy``), Euclidean kNN among the readings.
    predictions : dict
        Its ``{(fraction, reading): test predictions}``.
    y_test : labels of the test documents
    reading : str
        The reading that answers the claims (the most favourable to the paper).
    n_resamples, random_state
        Of the intervals (resamples of the test documents).

    Returns
    -------
    claims : dict
        ``fig5.increasing``: Spearman's correlation of accuracy with the training documents,
        for Euclidean kNN and for the reading (``comparisons``: both curves of Fig. 5 must
        rise); ``fig5.mahal-above``: the reading minus Euclidean kNN in accuracy at each size
        (``comparisons``: "in each case"); ``fig6.increasing``: Spearman's correlation of the
        reading's error reduction with the training documents (``effect``). Intervals from
        :func:`helpers.rank_effects.trend_effect` and :func:`helpers.effects.paired_bootstrap`.
    fig6_max : tuple
        ``(highest error reduction of the reading, {"note": ...})``, for ``check.numbers``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1] * 10)
    >>> curve = pd.DataFrame({"fraction": [0.3, 0.3, 0.6, 0.6, 1.0, 1.0], "training documents": [3, 3, 6, 6, 10, 10],
    ...                       "reading": ["euclidean", "pooled"] * 3, "accuracy": [0.6, 0.5, 0.8, 0.9, 0.9, 0.95]})
    >>> wrong = lambda n: np.where(np.arange(20) < n, 1 - y, y)
    >>> preds = {(0.3, "euclidean"): wrong(8), (0.3, "pooled"): wrong(10), (0.6, "euclidean"): wrong(4),
    ...          (0.6, "pooled"): wrong(2), (1.0, "euclidean"): wrong(2), (1.0, "pooled"): wrong(1)}
    >>> claims, (top, _) = training_size_claims(curve, preds, y, "pooled", n_resamples=199)
    >>> sorted(claims["fig5.mahal-above"]["comparisons"]), round(top, 2)
    (['10 training documents', '3 training documents', '6 training documents'], 0.5)
    """
    accuracy = accuracy_table(curve)
    reduction = error_reduction(accuracy)
    name, mahal = READINGS[reading], [r for r in accuracy.columns if r != "euclidean"]
    sizes = accuracy.index.to_numpy()
    fraction_of = dict(zip(curve["training documents"], curve["fraction"]))
    at = {r: [predictions[(fraction_of[n], r)] for n in sizes] for r in ("euclidean", reading)}
    options = {"n_resamples": n_resamples, "random_state": random_state}
    rising = {READINGS[r]: trend_effect(y_test, at[r], sizes, **options) for r in ("euclidean", reading)}
    gaps = {f"{n:,} training documents": paired_bootstrap(y_test, a, e, **options)
            for n, a, e in zip(sizes, at[reading], at["euclidean"])}
    counts = [mcnemar_exact(y_test, a, e)[:2] for a, e in zip(at[reading], at["euclidean"])]
    above = [f"{READINGS[r]} at {n:,} ({accuracy.loc[n, r] - accuracy.loc[n, 'euclidean']:+.3f})"
             for n in sizes for r in mahal if accuracy.loc[n, r] > accuracy.loc[n, "euclidean"]]
    fig6 = trend_effect(y_test, at[reading], sizes, reference=at["euclidean"], **options)
    claims = {
        "fig5.increasing": {
            "comparisons": rising,
            "evidence": f"Spearman's rho of accuracy with the training documents ({len(sizes)} sizes): "
                        + ", ".join(f"{m} {e['effect']:+.2f}" for m, e in rising.items())},
        "fig5.mahal-above": {
            "comparisons": gaps,
            "evidence": f"{name} minus {READINGS['euclidean']} in accuracy at each size: "
                        + ", ".join(f"{n:,} {g['effect']:+.3f} ({b} vs {c} documents)"
                                    for n, g, (b, c) in zip(sizes, gaps.values(), counts))
                        + f"; any reading above {READINGS['euclidean']}: " + (", ".join(above) or "none")},
        "fig6.increasing": {
            "effect": fig6,
            "evidence": f"Spearman's rho of the error reduction of {name} with the training documents "
                        f"{fig6['effect']:+.2f}; reductions " + ", ".join(f"{v:+.0%}" for v in reduction[reading])},
    }
    best = reduction.max().idxmax()
    note = (f"{name}; the highest of any reading at any size: {reduction.max().max():+.0%} "
            f"({READINGS[best]}, {int(reduction[best].idxmax()):,} training documents)")
    return claims, (float(reduction[reading].max()), {"note": note})
