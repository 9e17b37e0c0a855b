"""Scores and their distributions: confusion matrices, models' scores over resamples, critical-difference
diagrams, curves over a parameter, grouped bars, a PCA's cumulative variance."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import (
    as_float_array,
    check_real,
)
from ._common import check_frame


def box_strip(ax, data, x: str, y: str):
    """A box per value of ``x`` with every observation drawn on top (seaborn box + strip plot).

    Outliers are not drawn twice: the strip already shows each point. Used for
    distributions over random splits or sweep runs (``helpers.workbook.sweep``, and the book's sweeps page).
    """
    import warnings

    import seaborn as sns

    check_frame(data, "data", [x, y])
    with warnings.catch_warnings():  # seaborn 0.13 passes vert= that Matplotlib 3.11 deprecates
        warnings.filterwarnings("ignore", message=r"vert: bool was deprecated", category=DeprecationWarning)
        sns.boxplot(data=data, x=x, y=y, ax=ax, color="white", showfliers=False)
    sns.stripplot(data=data, x=x, y=y, ax=ax, hue=x, palette="tab10", alpha=0.55, size=3, legend=False)
    return ax

def plot_confusions(cases, labels=("benign", "malignant"), title=None):
    """Confusion-matrix heatmaps side by side, one per ``{name: (y_true, y_pred)}``.

    Returns the matplotlib Figure (the caller adds ``plt.show()``).
    """
    import matplotlib.pyplot as plt
    import seaborn as sns
    from sklearn.metrics import confusion_matrix

    if not isinstance(cases, dict) or not cases:
        raise ValueError("cases must be a non-empty dict {name: (y_true, y_pred)}.")
    for name, case in cases.items():
        if not (isinstance(case, (tuple, list)) and len(case) == 2 and np.ndim(case[0]) == np.ndim(case[1]) == 1):
            raise ValueError(f"cases[{name!r}] must be a pair (y_true, y_pred) of label arrays; got {case!r:.80}.")
        if len(case[0]) != len(case[1]) or len(case[0]) == 0:
            raise ValueError(f"cases[{name!r}]: y_true has {len(case[0])} labels and y_pred {len(case[1])}; "
                             "give one prediction per test point (at least one).")
    fig, axes = plt.subplots(1, len(cases), figsize=(3.6 * len(cases), 3.4), squeeze=False)
    for ax, (name, (yt, yp)) in zip(axes[0], cases.items()):
        cm = confusion_matrix(yt, yp, labels=list(range(len(labels))))
        sns.heatmap(cm, annot=True, fmt="d", cbar=False, cmap="Blues", ax=ax,
                    xticklabels=labels, yticklabels=labels)
        ax.set(title=f"{name}\naccuracy {np.mean(np.asarray(yt) == np.asarray(yp)):.3f}",
               xlabel="predicted", ylabel="true")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig

def plot_model_scores(table, columns=("mean",), xerr=None, *, xlabel: str, title: str, ax=None, markers="osd^v<>"):
    """Dot chart of models' scores over resamples: one row per model, one marker per score column.

    The summary figure of a repeated-split comparison: ``table`` indexed by model (as
    :func:`helpers.evaluation.summarize_scores` returns it), best first as given.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per model.
    columns : sequence of str, default=("mean",)
        Score columns to draw; several are drawn side by side with small vertical offsets.
    xerr : str, optional
        A column of half-widths drawn as error bars (only with one score column), e.g. ``"sd"``.
    xlabel, title : str
        Axis label and a title that states the finding.
    ax : matplotlib Axes, optional
        Drawn into; a new figure otherwise.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"mean": [0.95, 0.9], "sd": [0.01, 0.02]}, index=["a", "b"])
    >>> ax = plot_model_scores(t, xerr="sd", xlabel="accuracy", title="a beats b")
    >>> [tick.get_text() for tick in ax.get_yticklabels()], ax.get_title()
    (['a', 'b'], 'a beats b')
    """
    import matplotlib.pyplot as plt

    columns = [columns] if isinstance(columns, str) else list(columns)
    check_frame(table, "table", columns + ([xerr] if xerr else []))
    if xerr is not None and len(columns) != 1:
        raise ValueError(f"xerr draws error bars for one score column; got {len(columns)} columns {columns}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(7 if len(columns) == 1 else 8, 4.6))
    rows = np.arange(len(table))
    if xerr is not None:
        ax.errorbar(
            table[columns[0]], rows, xerr=table[xerr], fmt="o", capsize=3, label=f"{columns[0]} ± {xerr} over splits"
        )
    else:
        offsets = np.linspace(-0.27, 0.27, len(columns)) if len(columns) > 1 else [0.0]
        for offset, column, marker in zip(offsets, columns, markers):
            ax.plot(table[column], rows + offset, marker, label=column)
    ax.set_yticks(rows, table.index)
    ax.invert_yaxis()
    ax.set(xlabel=xlabel, title=title)
    ax.legend(loc="upper left" if xerr is not None else "lower left", fontsize=8 if len(columns) > 1 else None)
    return ax

def plot_critical_difference(result, ax=None, labels: Mapping | None = None):
    """The critical-difference diagram of a :func:`critical_difference` result (autorank's ``plot_stats``).

    Methods joined by a bar do not differ by more than the critical difference (Nemenyi,
    ``result.cd``). Drawn also when the Friedman test is not significant. ``labels`` renames
    the methods (e.g. :data:`METHODS`).
    """
    from autorank import plot_stats

    if labels:
        result = result._replace(rankdf=result.rankdf.rename(index=dict(labels)))
    return plot_stats(result, ax=ax, allow_insignificant=True)


def plot_pairwise_cd(table, alpha: float = 0.05, *, title: str, labels: Mapping | None = None, ax=None,
                     zero_method: str = "zsplit"):
    """The critical-difference diagram of the methods, drawn from pairwise Wilcoxon-Holm decisions.

    Mean ranks over the data sets (1 = best) on the axis; methods joined by a bar are not told
    apart by :func:`helpers.significance.pairwise_signed_rank` at ``alpha``
    (``scikit_posthocs.critical_difference_diagram``), rather than by Nemenyi's critical
    difference (:func:`plot_critical_difference`).

    Parameters
    ----------
    table : DataFrame
        Data sets in rows, one mean score per method in columns (higher is better).
    title : str
        The finding the figure shows, stated by the caller.
    labels : dict, optional
        ``{method: label}`` for the figure.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.6], "b": [0.8, 0.7, 0.6, 0.8, 0.5],
    ...                   "c": [0.7, 0.6, 0.5, 0.7, 0.4]})
    >>> ax = plot_pairwise_cd(t, title="a ranks first")   # doctest: +SKIP
    """
    try:
        import scikit_posthocs as sp
    except ImportError:
        raise ImportError("the critical-difference diagram is drawn by scikit-posthocs: pip install scikit-posthocs") \
            from None
    import matplotlib.pyplot as plt

    from ..significance import average_ranks, critical_difference, pairwise_signed_rank

    alpha = check_real(alpha, "alpha", "0.05", 0, 1, closed="neither")
    if not isinstance(title, str) or not title.strip():
        raise ValueError("give the diagram a title that states what it shows, e.g. title='the expected whitening "
                         "ranks first'")
    ranks = average_ranks(critical_difference(table))
    p = pairwise_signed_rank(table, zero_method)
    if labels:
        ranks, p = ranks.rename(index=dict(labels)), p.rename(index=dict(labels), columns=dict(labels))
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.4 * len(ranks) + 1.5))
    sp.critical_difference_diagram(ranks, p, alpha=alpha, ax=ax)
    ax.set_title(title)
    return ax


def plot_alpha_curves(tables: Mapping, tol: float, titles=("alpha_K = S_K / K falls for any data", "")):
    """The slides' elbow criterion per data set: ``alpha_K / alpha_1`` and the size of its slope, with the tolerance.

    ``tables`` maps a name to a table indexed by ``K`` with columns ``alpha_K`` and ``slope_K``
    (:func:`helpers.clustering.kmeans_alpha_table`); the right panel draws ``-slope_K`` on a log
    scale with the tolerance ``tol`` as a dotted line.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from helpers.clustering import alpha_slopes, slide_alpha
    >>> S = [12.0, 6.0, 3.0, 2.4]
    >>> t = pd.DataFrame({"alpha_K": slide_alpha(S), "slope_K": alpha_slopes(S)}, index=[1, 2, 3, 4])
    >>> fig = plot_alpha_curves({"toy": t}, 0.05)
    >>> fig.axes[0].get_lines()[0].get_ydata().round(4).tolist()
    [1.0, 0.25, 0.0833, 0.05]
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    for (name, t), marker in zip(tables.items(), "osd^v<>"):
        check_frame(t, f"tables[{name!r}]", ["alpha_K", "slope_K"])
        axes[0].plot(t.index, t["alpha_K"] / t["alpha_K"].iloc[0], marker=marker, label=name)
        axes[1].plot(t.index[:-1], -t["slope_K"].iloc[:-1], marker=marker, label=name)
    axes[0].set(title=titles[0], xlabel="K (clusters)", ylabel="alpha_K / alpha_1")
    axes[1].axhline(tol, color="k", lw=0.8, ls=":", label=f"tolerance {tol}")
    axes[1].set(title=titles[1], xlabel="K (clusters)", ylabel="-(alpha_{K+1} - alpha_K) / alpha_1", yscale="log")
    for ax in axes:
        ax.legend(fontsize=8)
    return fig

def plot_grouped_bars(ax, groups: Mapping, categories, width: float = 0.8):
    """Bars of several series side by side for each category (``groups``: ``{legend label: values}``).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_grouped_bars(plt.subplots()[1], {"a": [1, 2], "b": [3, 4]}, ["x", "y"])
    >>> [(round(float(p.get_x() + p.get_width() / 2), 2), float(p.get_height())) for p in ax.patches]
    [(-0.2, 1.0), (0.8, 2.0), (0.2, 3.0), (1.2, 4.0)]
    """
    categories = list(categories)
    if not groups:
        raise ValueError("groups is empty; pass {legend label: one value per category}.")
    for name, values in groups.items():
        if len(values) != len(categories):
            raise ValueError(f"groups[{name!r}] has {len(values)} values for {len(categories)} categories.")
    xs = np.arange(len(categories))
    step = width / len(groups)
    for i, (name, values) in enumerate(groups.items()):
        ax.bar(xs - width / 2 + step * (i + 0.5), values, width=step, label=name)
    ax.set(xticks=xs, xticklabels=categories)
    return ax

def plot_table_bars(table, tick_labels=None, *, xlabel: str, ylabel: str, title: str, ylim=None, ax=None,
                      figsize=(8, 3.8)):
    """Grouped bars of a table: one group per row, one bar per column, the legend right of the axes.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per group (e.g. a model), one column per bar (e.g. a metric).
    tick_labels : sequence of str, optional
        Labels of the groups on the x axis; the table's index by default.
    xlabel, ylabel, title : str
        Axis labels with units and a title that states the finding.
    ylim : (float, float), optional
        Limits of the y axis, to show small differences between bars.
    ax : matplotlib Axes, optional
        Drawn into; a new ``figsize`` figure otherwise.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"accuracy": [0.95, 0.97], "recall": [0.9, 0.93]}, index=["a", "b"])
    >>> ax = plot_table_bars(t, ["model a", "model b"], xlabel="model", ylabel="score", title="b is ahead")
    >>> [tick.get_text() for tick in ax.get_xticklabels()], len(ax.patches)
    (['model a', 'model b'], 4)
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame) or table.empty:
        raise ValueError("table must be a non-empty DataFrame: one row per group, one column per bar.")
    if tick_labels is not None and len(tick_labels) != len(table):
        raise ValueError(f"tick_labels has {len(tick_labels)} labels for {len(table)} groups; give one per row.")
    ax = table.plot.bar(figsize=figsize, rot=0, ax=ax)
    if tick_labels is not None:
        ax.set_xticks(range(len(table)), list(tick_labels))
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax

def plot_cumulative_variance(explained_variance_ratio, level: float, *, n_components: int | None = None, ax=None,
                             title: str | None = None):
    """The cumulative explained variance of a PCA, the fraction ``level`` and the components it needs.

    Parameters
    ----------
    explained_variance_ratio : 1-D array
        The share of the total variance of every component, in decreasing order (all of them,
        e.g. ``GramPCA.all_explained_variance_ratio_``).
    level : float in (0, 1]
        The fraction of the variance to reach (a dashed line).
    n_components : int, optional
        The components kept (a dotted line); by default the fewest whose cumulative share
        reaches ``level``.
    ax : matplotlib Axes, optional
        Drawn into; a new figure otherwise.
    title : str, optional
        A title that states the finding; by default how many components ``level`` needs.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_cumulative_variance([0.5, 0.3, 0.1, 0.1], 0.8)
    >>> ax.get_title(), [t.get_text() for t in ax.get_legend().get_texts()][2]
    ('80% of the variance needs 2 of 4 components', 'd = 2 components')
    """
    import matplotlib.pyplot as plt

    ratios = as_float_array(explained_variance_ratio, "explained_variance_ratio", ndim=1)
    level = check_real(level, "level", "0.9 for 90% of the variance", 0.0, 1.0, closed="right",
                       why="a fraction of the variance")
    cumulative = np.cumsum(ratios)
    if n_components is None:
        n_components = int(min(np.searchsorted(cumulative, level - 1e-12) + 1, len(cumulative)))
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    ax.plot(np.arange(1, len(cumulative) + 1), cumulative, label="cumulative explained variance")
    ax.axhline(level, color="grey", ls="--", label=f"{level:.0%} of the variance")
    ax.axvline(n_components, color="C3", ls=":", label=f"d = {n_components:,} components")
    ax.set(title=title or f"{level:.0%} of the variance needs {n_components:,} of {len(cumulative):,} components",
           xlabel="number of principal components", ylabel="fraction of total variance")
    ax.legend()
    return ax

def plot_score_curves(table, *, xlabel: str, ylabel: str, title: str, hlines: Mapping | None = None,
                      vlines: Mapping | None = None, logx: bool = False, markers: str = "os^vD<>", ax=None):
    """A score against a size (the table's index) for each column, with labelled reference lines.

    Parameters
    ----------
    table : pandas.DataFrame
        One curve per column, named by it; the index is the x axis (e.g. numbers of components).
    xlabel, ylabel, title : str
        Axis labels with units, and a title that states the finding.
    hlines, vlines : dict, optional
        ``{label: y}`` drawn as dashed grey horizontal lines, ``{label: x}`` as dotted vertical ones.
    logx : bool
        A logarithmic x axis.
    markers : str
        One marker per column, in order.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"kNN": [0.9, 0.95, 0.8]}, index=[10, 25, 3000])
    >>> ax = plot_score_curves(t, xlabel="components", ylabel="accuracy", title="best at 25",
    ...                        hlines={"full space": 0.88}, vlines={"90%": 3000}, logx=True)
    >>> ax.get_xscale(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('log', ['kNN', 'full space', '90%'])
    """
    import matplotlib.pyplot as plt

    check_frame(table, "table", [])
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    for column, marker in zip(table.columns, markers * (len(table.columns) // len(markers) + 1)):
        ax.plot(table.index, table[column], marker=marker, label=str(column))
    for i, (label, y) in enumerate((hlines or {}).items()):
        ax.axhline(y, color="grey", ls=("--", "-.", ":")[i % 3], label=label)
    for i, (label, x) in enumerate((vlines or {}).items()):
        ax.axvline(x, color=f"C{3 + i}", ls=":", label=label)
    if logx:
        ax.set_xscale("log")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(fontsize=8)
    return ax

def plot_against_reference(scores, reference: str, *, xlabel: str, ylabel: str, titles, claimed: Mapping | None = None,
                           figsize=(12, 4.8)):
    """Accuracy curves of several methods (left) and their error reduction relative to a reference (right).

    The right panel shows ``(CE_ref - CE) / CE_ref`` with ``CE = 1 - score``: above 0, fewer
    errors than the reference. One colour per method in both panels; the reference is drawn
    thick on the left.

    Parameters
    ----------
    scores : pandas.DataFrame
        Accuracies (fractions) by size (index) and method (columns), the reference among them.
    reference : str
        The column the others are measured against.
    xlabel, ylabel : str
        The x axis of both panels and the y axis of the left one, with units.
    titles : pair of str
        The titles of the two panels, each stating its finding.
    claimed : dict, optional
        ``{label: reduction}`` drawn as dashed lines on the right (e.g. a value a source prints).
    figsize : pair of float

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"Euclidean": [0.6, 0.8], "Mahalanobis": [0.7, 0.7]}, index=[500, 5000])
    >>> fig = plot_against_reference(t, "Euclidean", xlabel="training documents", ylabel="accuracy",
    ...                              titles=("ahead once", "fewer errors once"), claimed={"35% printed": 0.35})
    >>> right = fig.axes[1].get_lines()[0].get_ydata().round(2).tolist()
    >>> right, [t.get_text() for t in fig.legends[0].get_texts()]
    ([0.25, -0.5], ['Euclidean', 'Mahalanobis', '35% printed'])
    """
    import matplotlib.pyplot as plt

    check_frame(scores, "scores", [reference])
    if len(titles) != 2:
        raise ValueError(f"titles must be a pair (left panel, right panel); got {titles!r}.")
    error = 1 - scores
    fig, (left, right) = plt.subplots(1, 2, figsize=figsize)
    for i, column in enumerate(scores.columns):  # one colour per method in both panels
        is_reference = column == reference
        left.plot(scores.index, scores[column], marker="o", color=f"C{i}", lw=2.5 if is_reference else 1.2,
                  label=str(column))
        if not is_reference:
            reduction = (error[reference] - error[column]) / error[reference]
            right.plot(scores.index, reduction, marker="o", color=f"C{i}", label=str(column))
    right.axhline(0, color="grey", lw=1)
    for label, value in (claimed or {}).items():
        right.axhline(value, color="grey", ls="--", lw=1, label=label)
    left.set(title=titles[0], xlabel=xlabel, ylabel=ylabel)
    right.set(title=titles[1], xlabel=xlabel, ylabel=f"error reduction relative to {reference} (fraction)")
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0][len(scores.columns) - 1:]
    fig.legend(handles, [h.get_label() for h in handles], loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig

def plot_error_curves(x, curves: Mapping, *, mark=None, mark_label: str | None = None, xlabel: str, ylabel: str,
                      title: str, ax=None, markers="osd^v<>"):
    """Several curves over one x axis, one marker each, with an optional vertical line at ``mark``.

    For an error (or any score) against a parameter under several protocols, e.g. kNN's
    misclassification error against K; the legend sits right of the axes.

    Parameters
    ----------
    x : array-like
        The parameter values, shared by every curve.
    curves : dict of {name: array-like}
        One value per ``x`` each.
    mark : float, optional
        Where to draw a dotted vertical line (e.g. the value a source chose), labelled ``mark_label``.
    xlabel, ylabel, title : str
        Axis labels with units and a title that states the finding.
    ax : matplotlib Axes, optional
        Drawn into; a new 9 x 3.8 inch figure otherwise.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_error_curves([1, 3, 5], {"a": [0.2, 0.1, 0.15], "b": [0.3, 0.2, 0.1]}, mark=3, mark_label="K = 3",
    ...                        xlabel="K (neighbours)", ylabel="error", title="a is lowest at K = 3")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a', 'b', 'K = 3']
    """
    import matplotlib.pyplot as plt

    if not isinstance(curves, Mapping) or not curves:
        raise ValueError("curves must be a non-empty dict {name: values}.")
    x = np.asarray(x)
    for name, values in curves.items():
        if np.shape(values) != x.shape:
            raise ValueError(f"curves[{name!r}] has shape {np.shape(values)}; it needs one value per x, {x.shape}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.8))
    for (name, values), marker in zip(curves.items(), markers * len(curves)):
        ax.plot(x, values, marker=marker, label=name)
    if mark is not None:
        ax.axvline(mark, color="grey", ls=":", label=mark_label)
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax
