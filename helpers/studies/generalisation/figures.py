"""The study's two figures: paired differences per data set, and gains against data-set properties."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .methods import CLAIMS, PROPERTY_LABELS, SHORT
from .protocol import clear_differences

# --------------------------------------------------------------------------------------------
# figures


def plot_paired_differences(paired: Mapping, names: Sequence, claims: Sequence = CLAIMS):
    """Each claim's paired difference per data set with its corrected interval, one panel per comparison.

    Green: the interval lies above zero (a gain on that data set); red: below (a loss); grey:
    not told apart. The title counts the clear gains and losses over all panels.

    Parameters
    ----------
    paired : mapping
        ``{claim.label: DataFrame}`` of :func:`paired_difference`, indexed by data set.
    names : sequence of str
        The data sets, drawn top to bottom in this order.
    claims : sequence of Claim
        The comparisons, one panel each (default :data:`CLAIMS`).

    Returns
    -------
    matplotlib Figure (the caller shows it).

    Examples
    --------
    >>> from helpers.studies.generalisation import Claim
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = pd.DataFrame({"mean": [0.02, -0.01], "ci_low": [0.01, -0.03], "ci_high": [0.03, 0.01]}, index=["a", "b"])
    >>> fig = plot_paired_differences({"x vs y": d}, ["a", "b"], [Claim("k", "x", "y", "")])
    >>> print(fig.axes[0].get_title())
    x - y
    above 0 on 1, below on 0
    """
    import matplotlib.pyplot as plt

    names = list(names)
    claims = list(claims)
    fig, axes = plt.subplots(1, len(claims), figsize=(13, 5.2), sharey=True, squeeze=False)
    axes = axes[0]
    above_total = below_total = 0
    for ax, c in zip(axes, claims):
        d = paired[c.label].loc[names[::-1]]
        above, below = clear_differences(d)
        above_total, below_total = above_total + above, below_total + below
        colour = np.where(d["ci_low"] > 0, "C2", np.where(d["ci_high"] < 0, "C3", "grey"))
        ax.errorbar(d["mean"], range(len(d)), xerr=[d["mean"] - d["ci_low"], d["ci_high"] - d["mean"]], fmt="none",
                    ecolor=colour, elinewidth=1.5)
        ax.scatter(d["mean"], range(len(d)), c=colour, zorder=3, s=18)
        ax.axvline(0, color="k", lw=0.8)
        ax.set(title=f"{SHORT.get(c.aware, c.aware)} - {SHORT.get(c.plain, c.plain)}\nabove 0 on {above}, "
                     f"below on {below}", xlabel="accuracy difference")
    axes[0].set_yticks(range(len(names)), names[::-1])
    fig.suptitle(f"Covariance-aware minus plain, per data set: clear gains in {above_total} and clear losses in "
                 f"{below_total} of {len(claims) * len(names)} comparisons")
    fig.tight_layout()
    return fig


def plot_gain_correlations(gains: pd.DataFrame, properties: pd.DataFrame, corr: pd.DataFrame):
    """Each gain against each property measured before fitting, one panel per property.

    Parameters
    ----------
    gains : DataFrame
        Data sets in rows, one column per gain (accuracy of a covariance-aware method minus
        its plain counterpart).
    properties : DataFrame
        Data sets in rows, one column per property (:func:`dataset_properties`); ``n_over_p``
        is drawn on a log scale. Axis labels from :data:`PROPERTY_LABELS`.
    corr : DataFrame
        :func:`gain_correlations` of the two: each panel's title gives its rhos, the figure's
        title the strongest of all.

    Returns
    -------
    matplotlib Figure (the caller shows it).

    Examples
    --------
    >>> from helpers.studies.generalisation import gain_correlations
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> g = pd.DataFrame({"a - b": [0.01, 0.02, 0.03, 0.05]}, index=list("wxyz"))
    >>> props = pd.DataFrame({"heterogeneity": [0.1, 0.2, 0.3, 0.4]}, index=list("wxyz"))
    >>> fig = plot_gain_correlations(g, props, gain_correlations(g, props))
    >>> print(fig.axes[0].get_title())
    Spearman rho, in legend order:
    +1.00
    """
    import matplotlib.pyplot as plt

    strongest = corr["rho"].abs().idxmax()
    fig, axes = plt.subplots(1, len(properties.columns), figsize=(13, 4.6), sharey=True, squeeze=False)
    axes = axes[0]
    for ax, prop in zip(axes, properties.columns):
        for gain, marker in zip(gains.columns, "osd^v"):
            ax.scatter(properties[prop], gains[gain], marker=marker, s=22, label=gain)
        ax.axhline(0, color="k", lw=0.8)
        if prop == "n_over_p":
            ax.set_xscale("log")
            ax.set_xticks([10, 20, 50, 100, 200], labels=["10", "20", "50", "100", "200"])
            ax.minorticks_off()
        rhos = ", ".join(f"{corr.loc[(g, prop), 'rho']:+.2f}" for g in gains.columns)
        ax.set(xlabel=PROPERTY_LABELS.get(prop, prop))
        ax.set_title(f"Spearman rho, in legend order:\n{rhos}", fontsize=9)
    axes[0].set_ylabel("accuracy gain over the plain method")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8)
    fig.suptitle(f"Gains and what can be measured before fitting: the strongest of {len(corr)} rank correlations is "
                 f"rho = {corr.loc[strongest, 'rho']:+.2f} ({strongest[0]} with {strongest[1]}, "
                 f"p = {corr.loc[strongest, 'p_value']:.2f})", fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig
