"""Tables and phrases the study's notebook shows: the protocol, the data sets, the methods, the spreads, the editions.

Nothing here decides a verdict (the workbook's verdict engine does); these functions only
arrange what the protocol, the collection and the stored scores say.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from .datasets import criteria_of
from .evidence import dataset_means
from .readings import METHOD_LABELS, ORDER_DEPENDENT
from .tuning import grids_from_protocol


def protocol_table(protocol: dict) -> pd.DataFrame:
    """One row per claim of the protocol: statement, source, primary and secondary readings, baselines, rule.

    Examples
    --------
    >>> from helpers.studies.generalisation import load_protocol
    >>> protocol_table(load_protocol()).loc["svm.better-than-kernels", "combine"]
    'intersection-union'
    """
    rows = {c["key"]: {"statement": c["statement"], "source": c["source"], "primary": c["primary"],
                       "secondary": ", ".join(c["secondary"]), **({"nested": c["nested"]} if "nested" in c else {}),
                       "baselines": ", ".join(c["baselines"]), "combine": c["combine"]} for c in protocol["claims"]}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "claim"
    return table


def inclusion_summary(protocol: dict) -> dict:
    """How the data sets were chosen: candidates examined, included, wide, and the exclusions by reason.

    Counts from :func:`helpers.data.collection.inclusion_table` under the protocol's criteria and
    :func:`helpers.data.collection.excluded_candidates` (left out by judgement before any score).
    """
    from ...data.collection import excluded_candidates, inclusion_table

    table = inclusion_table(**criteria_of(protocol))
    left_out = excluded_candidates()
    failed = table.loc[~table["included"]].set_index("name")["reason"]
    return {"candidates": len(table) + len(left_out), "specified": len(table), "included": int(table["included"].sum()),
            "wide": int((table["included"] & table["wide"]).sum()), "failed": failed.to_dict(),
            "judged_out": left_out["kind"].value_counts().to_dict(),
            "duplicates_dropped": int(table.loc[table["included"], "n_duplicates_dropped"].sum())}


def methods_table(protocol: dict) -> pd.DataFrame:
    """Each method of the study, its label and what its inner cross-validation tunes.

    Examples
    --------
    >>> from helpers.studies.generalisation import load_protocol
    >>> t = methods_table(load_protocol())
    >>> t.loc["mahalanobis_pooled_within", "tuned"]
    'shrinkage (6 values) and k (14)'
    """
    g = grids_from_protocol(protocol)
    k = f"k ({len(g.k)})"
    shrink = f"shrinkage ({len(g.shrinkage)} values) and {k}"
    tuned = {
        "euclidean": k, "standardised_euclidean": k, "cosine": k, "scaled_cosine": k,
        "mahalanobis_class_blind": shrink, "mahalanobis_pooled_within": shrink, "mahalanobis_per_category": shrink,
        "expected_cholesky_cosine": shrink, "expected_zca_cosine": shrink, "pooled_within_cosine": shrink,
        "nca": f"{k}, NCA fitted inside every inner fold" if g.nca_nested
        else f"{k}, after NCA fitted once per training fold",
        "linear_svc": f"C ({len(g.C_linear)})", "rbf_svc": f"C ({len(g.C)}) and gamma ({len(g.gamma)})",
        "expected_cholesky_svc": f"shrinkage ({len(g.shrinkage)}) and C ({len(g.C_linear)})",
        "expected_zca_svc": f"shrinkage ({len(g.shrinkage)}) and C ({len(g.C_linear)})",
    }
    table = pd.DataFrame({"method": list(METHOD_LABELS.values()), "tuned": [tuned[m] for m in METHOD_LABELS]},
                         index=pd.Index(list(METHOD_LABELS), name="name"))
    table["column orders"] = ["averaged" if m in ORDER_DEPENDENT else "" for m in METHOD_LABELS]
    return table


def order_spread(scores: pd.DataFrame) -> pd.DataFrame:
    """For the order-dependent methods: how far the best and worst column order lie apart on a fold.

    Returns, per method, the mean and largest range (best minus worst order's accuracy) over
    the folds, and the share of folds where the orders disagree at all.
    """
    part = scores[scores["method"].isin(ORDER_DEPENDENT)]
    spread = part["order_max"] - part["order_min"]
    g = spread.groupby(part["method"])
    return pd.DataFrame({"mean range": g.mean(), "largest range": g.max(), "folds where orders differ": g.apply(
        lambda s: float(np.mean(s > 0)))})


def chosen_values(scores: pd.DataFrame, method: str, parameter: str) -> pd.Series:
    """How often each value of one hyper-parameter was chosen for one method (over every fold)."""
    values = scores.loc[scores["method"] == method, "params"].map(lambda s: json.loads(s).get(parameter))
    return values.value_counts().sort_index()


def edition_comparison(now: pd.DataFrame, before: pd.DataFrame, metric: str = "accuracy") -> pd.DataFrame:
    """Method by method, how one edition's scores differ from another's on the same outer folds.

    Parameters
    ----------
    now, before : DataFrame
        Two editions' stored scores (:func:`.scores.stored_results`), with the same data sets,
        folds and methods.
    metric : str

    Returns
    -------
    DataFrame, one row per method: ``same choice`` (the share of folds whose chosen
    hyper-parameters are the same), ``sets that moved`` (data sets whose mean score differs),
    ``mean difference`` and ``largest difference`` (of the per-data-set means, now minus
    before, the largest in absolute value), and the summed seconds of tuning and fitting
    under each edition (``seconds before``, ``seconds now``).

    Examples
    --------
    >>> from ._examples import example_scores
    >>> before = example_scores()
    >>> now = before.assign(accuracy=before["accuracy"].where(before["method"] != "rbf_svc", before["accuracy"] - 0.01))
    >>> t = edition_comparison(now, before)
    >>> t.loc["rbf_svc", ["sets that moved", "mean difference"]].round(3).tolist()
    [12.0, -0.01]
    >>> t.loc["euclidean", ["same choice", "sets that moved", "largest difference"]].tolist()
    [1.0, 0.0, 0.0]
    """
    key = ["dataset", "repeat", "fold", "method"]
    cells_now, cells_before = (set(map(tuple, t[key].itertuples(index=False))) for t in (now, before))
    if cells_now != cells_before:
        only = sorted(cells_now ^ cells_before)[:3]
        raise ValueError(f"the two tables do not hold the same (data set, repeat, fold, method) cells "
                         f"({len(cells_now)} and {len(cells_before)}; e.g. {only} in one only): editions are compared "
                         "on the same folds")
    merged = now.merge(before, on=key, suffixes=(" now", " before"), validate="one_to_one")
    same = (merged["params now"] == merged["params before"]).groupby(merged["method"]).mean()
    diff = dataset_means(now, metric) - dataset_means(before, metric)
    largest = diff.apply(lambda col: col.loc[col.abs().idxmax()])
    table = pd.DataFrame({"same choice": same, "sets that moved": (diff != 0).sum(), "mean difference": diff.mean(),
                          "largest difference": largest,
                          "seconds before": before.groupby("method")["fit_seconds"].sum(),
                          "seconds now": now.groupby("method")["fit_seconds"].sum()})
    table["sets that moved"] = table["sets that moved"].astype(float)
    return table.reindex([m for m in METHOD_LABELS if m in table.index])


def identical_methods_ratio(comparison: pd.DataFrame) -> float:
    """The present edition's seconds over the earlier one's, on the methods both compute identically.

    The ratio of the summed seconds (now over before) of the methods whose scores and choices
    did not change between the editions (:func:`edition_comparison`): the same results, so the
    ratio measures what changed between the two runs other than the method (the machine's load,
    shared code made faster without changing a result).

    Examples
    --------
    >>> t = pd.DataFrame({"same choice": [1.0, 0.5], "sets that moved": [0.0, 3.0],
    ...                   "seconds before": [10.0, 50.0], "seconds now": [15.0, 20.0]}, index=["knn", "svc"])
    >>> identical_methods_ratio(t)
    1.5
    """
    same = comparison[(comparison["same choice"] == 1) & (comparison["sets that moved"] == 0)]
    if same.empty:
        raise ValueError("no method is computed identically in both editions: the machine's share cannot be told apart")
    return float(same["seconds now"].sum() / same["seconds before"].sum())


def effect_phrase(row) -> str:
    """The effect, its interval, the signed-rank argmax shares and (where given) masses of a ``claim_table`` row.

    Examples
    --------
    >>> effect_phrase({"effect": 0.012, "low": -0.015, "high": 0.055, "p_better": 0.7, "p_equivalent": 0.22,
    ...                "p_worse": 0.08})
    '+0.012 [-0.015, +0.055]; argmax shares (better, equivalent, worse) 0.70, 0.22, 0.08'
    >>> print(effect_phrase({"effect": 0.01, "low": 0.0, "high": 0.02, "p_better": 0.6, "p_equivalent": 0.3,
    ...                      "p_worse": 0.1, "mass_better": 0.5, "mass_equivalent": 0.3, "mass_worse": 0.2,
    ...                      "p_holm": 0.04}).split("; ", 2)[2])
    posterior masses 0.50, 0.30, 0.20; Holm-adjusted p 0.04
    """
    text = (f"{row['effect']:+.3f} [{row['low']:+.3f}, {row['high']:+.3f}]; argmax shares (better, equivalent, worse) "
            f"{row['p_better']:.2f}, {row['p_equivalent']:.2f}, {row['p_worse']:.2f}")
    if "mass_better" in row:
        text += f"; posterior masses {row['mass_better']:.2f}, {row['mass_equivalent']:.2f}, {row['mass_worse']:.2f}"
    if "p_holm" in row:
        text += f"; Holm-adjusted p {row['p_holm']:.2g}"
    return text


#: method -> the short column label of the wide tables and the diagram
SHORT_LABELS = {
    "euclidean": "euclid", "standardised_euclidean": "euclid-std", "cosine": "cosine", "scaled_cosine": "cos-scl",
    "mahalanobis_class_blind": "mahal-blind", "mahalanobis_pooled_within": "mahal-within",
    "mahalanobis_per_category": "mahal-cat", "expected_cholesky_cosine": "E(W)-chol", "expected_zca_cosine": "E(W)-zca",
    "pooled_within_cosine": "within-cos", "nca": "nca", "linear_svc": "svc-lin", "rbf_svc": "svc-rbf",
    "expected_cholesky_svc": "svc-E(C)-chol", "expected_zca_svc": "svc-E(C)-zca",
}


#: the fewest data sets notebook 08 can finish on: its ranks over data sets (autorank) need five
MIN_SETS = 5


def excluded_sets(exclude: str, names) -> list:
    """The data sets a notebook's ``exclude`` parameter names (comma-separated), each checked against ``names``.

    Examples
    --------
    >>> names = ["iris", "wine", "crabs", "fgl", "ais", "oslo", "cells"]
    >>> excluded_sets("iris, wine", names), excluded_sets("", names)
    (['iris', 'wine'], [])
    >>> excluded_sets("iris, wnie", names)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: exclude names data set(s) the study does not have: ['wnie']. 'wnie': did you mean 'wine'? ...
    """
    if not isinstance(exclude, str):
        raise TypeError(f"exclude must be a comma-separated string of data set names, not {exclude!r}")
    chosen = [n.strip() for n in exclude.split(",") if n.strip()]
    names = list(names)
    unknown = [n for n in chosen if n not in names]
    if unknown:
        import difflib

        near = {n: difflib.get_close_matches(n.lower(), names, n=1) for n in unknown}
        hints = "".join(f" {n!r}: did you mean {m[0]!r}?" for n, m in near.items() if m)
        raise ValueError(f"exclude names data set(s) the study does not have: {unknown}.{hints} Its data sets are "
                         f"{', '.join(names)}; separate names with commas.")
    left = len(names) - len(set(chosen))
    if left < MIN_SETS:
        raise ValueError(f"exclude leaves {left} data sets; the notebook needs at least {MIN_SETS} (the ranks over "
                         f"data sets, as autorank computes them, need five). Exclude at most {len(names) - MIN_SETS}.")
    return list(dict.fromkeys(chosen))


def plot_claim_differences(means: pd.DataFrame, protocol: dict, rope: float, axes=None, labels=None):
    """Each claim's primary reading minus each comparator (:func:`.contrasts.claim_pairs`), one dot per data set.

    Parameters
    ----------
    means : DataFrame
        Data sets by methods (:func:`.evidence.dataset_means`).
    protocol : dict
    rope : float
        The half-width of the ROPE band drawn around zero.
    axes : sequence of Axes, optional
        One per comparison (six for the fourth edition's claims); default: a new row of panels.
    labels : dict, optional
        Method name -> label for the panel titles.

    Returns
    -------
    list of Axes
    """
    import matplotlib.pyplot as plt

    from .contrasts import claim_pairs

    labels = labels or {}
    pairs = claim_pairs(protocol)
    if axes is None:
        _, axes = plt.subplots(1, len(pairs), figsize=(3.2 * len(pairs), 4.2), sharey=True)
    for ax, (_, reading, contrast, baseline) in zip(axes, pairs):
        d = (means[reading] - means[baseline]).sort_values()
        colours = ["tab:green" if v > rope else "tab:red" if v < -rope else "tab:grey" for v in d]
        ax.axhspan(-rope, rope, color="0.9", zorder=0)
        ax.axhline(0, color="0.5", lw=0.8)
        ax.scatter(range(len(d)), d.to_numpy(), c=colours, s=14, zorder=2)
        ax.set_title(f"{labels.get(reading, reading)}\nminus {labels.get(baseline, baseline)} ({contrast})\n"
                     f"{int((d > rope).sum())} ahead, {int((d < -rope).sum())} behind by more than the ROPE",
                     fontsize=9)
        ax.set_xticks([])
        ax.set_xlabel(f"{len(d)} data sets, sorted")
    axes[0].set_ylabel("difference of mean accuracy")
    return list(axes)
