"""Figures 5 and 6 (lines 307-316): accuracy and error reduction against the number of training documents.

The figures are images, absent from the text; only their claims are testable. From the long
table of :func:`~.sweeps.training_size_curve`: :func:`accuracy_table` (Fig. 5's curves),
:func:`error_reduction` (Fig. 6's, ``(CE_E - CE_M) / CE_E`` with CE from Eq. 19) and
:func:`training_size_claims` (the claims, ready for a notebook's ``check.claims``, and the
answer to the printed 35%).
"""

from __future__ import annotations

import pandas as pd
from scipy import stats

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


def training_size_claims(curve: pd.DataFrame, predictions: dict, y_test, reading: str) -> tuple[dict, tuple]:
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

    Returns
    -------
    claims : dict
        ``fig5.increasing`` (Spearman correlation of accuracy with the training documents, the
        smaller of Euclidean kNN's and the reading's, with the larger p), ``fig5.mahal-above``
        (the reading minus Euclidean kNN at its least favourable size, McNemar's p there) and
        ``fig6.increasing`` (Spearman correlation of the reading's error reduction with the
        training documents), each ``{"effect", "p", "evidence"}``.
    fig6_max : tuple
        ``(highest error reduction of the reading, {"note": ...})``, for ``check.numbers``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1] * 5)
    >>> curve = pd.DataFrame({"fraction": [0.5, 0.5, 1.0, 1.0], "training documents": [5, 5, 10, 10],
    ...                       "reading": ["euclidean", "pooled"] * 2, "accuracy": [0.6, 0.5, 0.8, 0.9]})
    >>> wrong = lambda n: np.where(np.arange(10) < n, 1 - y, y)
    >>> preds = {(0.5, "euclidean"): wrong(4), (0.5, "pooled"): wrong(5), (1.0, "euclidean"): wrong(2),
    ...          (1.0, "pooled"): wrong(1)}
    >>> claims, (top, _) = training_size_claims(curve, preds, y, "pooled")
    >>> round(claims["fig5.mahal-above"]["effect"], 2), round(top, 2)
    (-0.1, 0.5)
    """
    accuracy = accuracy_table(curve)
    reduction = error_reduction(accuracy)
    name, mahal = READINGS[reading], [r for r in accuracy.columns if r != "euclidean"]
    sizes = accuracy.index.to_numpy()
    fraction_of = dict(zip(curve["training documents"], curve["fraction"]))
    rho_e, p_e = stats.spearmanr(sizes, accuracy["euclidean"])
    rho_m, p_m = stats.spearmanr(sizes, accuracy[reading])
    gaps = accuracy[reading] - accuracy["euclidean"]
    worst = gaps.idxmin()
    p_worst = mcnemar_exact(y_test, predictions[(fraction_of[worst], reading)],
                            predictions[(fraction_of[worst], "euclidean")])[2]
    above = [f"{READINGS[r]} at {n:,} ({accuracy.loc[n, r] - accuracy.loc[n, 'euclidean']:+.3f})"
             for n in sizes for r in mahal if accuracy.loc[n, r] > accuracy.loc[n, "euclidean"]]
    rho_r, p_r = stats.spearmanr(sizes, reduction[reading])
    claims = {
        "fig5.increasing": {
            "effect": float(min(rho_e, rho_m)), "p": float(max(p_e, p_m)),
            "evidence": f"Spearman correlation of accuracy with training documents ({len(sizes)} sizes): "
                        f"{READINGS['euclidean']} {rho_e:+.2f} (p = {p_e:.2f}), {name} {rho_m:+.2f} (p = {p_m:.2f})"},
        "fig5.mahal-above": {
            "effect": float(gaps[worst]), "p": p_worst,
            "evidence": f"{name} minus {READINGS['euclidean']} in accuracy at each size: "
                        + ", ".join(f"{n:,} {g:+.3f}" for n, g in gaps.items())
                        + f"; at the least favourable size McNemar p = {p_worst:.1e}; any reading above "
                        f"{READINGS['euclidean']}: " + (", ".join(above) or "none")},
        "fig6.increasing": {
            "effect": float(rho_r), "p": float(p_r),
            "evidence": f"Spearman correlation of the error reduction of {name} with training documents {rho_r:+.2f} "
                        f"(p = {p_r:.2f}); reductions " + ", ".join(f"{v:+.0%}" for v in reduction[reading])},
    }
    best = reduction.max().idxmax()
    note = (f"{name}; the highest of any reading at any size: {reduction.max().max():+.0%} "
            f"({READINGS[best]}, {int(reduction[best].idxmax()):,} training documents)")
    return claims, (float(reduction[reading].max()), {"note": note})
