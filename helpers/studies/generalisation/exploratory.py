"""The study's description and exploration, beside the confirmatory claims (the protocol's [exploratory]).

* :func:`pairwise_wilcoxon_holm`: every pair of methods, the Wilcoxon signed-rank test over the
  per-data-set means, Holm-adjusted over the pairs (what ``scikit_posthocs.posthoc_wilcoxon``
  computes); :func:`mean_ranks` (Demsar 2006, through autorank); and
  :func:`plot_pairwise_cd`, the critical-difference diagram drawn from those pairwise decisions
  (``scikit_posthocs.critical_difference_diagram``) rather than from Nemenyi's critical difference;
* :func:`property_association`: for each claim, the Spearman correlation between the gain on a
  data set and one property of it named before the results, with a permutation p, Holm over
  the claims.

None of this decides a claim; the claims are decided by :mod:`.evidence`.

References
----------
.. [1] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets, JMLR 7, 1-30.
.. [2] A. Benavoli, G. Corani & F. Mangili (2016), Should we really use post-hoc tests based on
   mean-ranks?, JMLR 17(5), 1-10 (pairwise Wilcoxon tests with Holm instead of mean-rank tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_int, check_real
from ...significance import average_ranks, critical_difference, holm
from ._examples import example_datasets, example_scores  # noqa: F401 (the doctests' tables)
from .evidence import PROPERTIES, ZERO_METHOD, dataset_means, paired_differences

__all__ = ["mean_ranks", "pairwise_wilcoxon_holm", "plot_pairwise_cd", "property_association"]


def _table(scores, methods, metric) -> pd.DataFrame:
    methods = list(methods)
    if len(methods) < 2 or len(set(methods)) != len(methods):
        raise ValueError(f"methods must name at least two different methods; got {methods}")
    means = dataset_means(scores, metric)
    absent = [m for m in methods if m not in means.columns]
    if absent:
        raise ValueError(f"the score table has no method(s) {absent}; it has {sorted(means.columns)}")
    return means[methods]


def pairwise_wilcoxon_holm(scores: pd.DataFrame, methods: Sequence[str], metric: str = "accuracy",
                           zero_method: str = ZERO_METHOD) -> pd.DataFrame:
    """Every pair of methods: the two-sided Wilcoxon signed-rank p over data sets, Holm-adjusted over the pairs.

    The per-data-set means (:func:`.dataset_means`) of each pair are tested by
    ``scikit_posthocs.posthoc_wilcoxon`` (:func:`scipy.stats.wilcoxon` on every pair, ties at zero
    split as in the claims' tests), the ``m (m - 1) / 2`` p-values adjusted together by Holm.

    Returns
    -------
    DataFrame
        Symmetric, methods in the order given, ones on the diagonal.

    Examples
    --------
    >>> p = pairwise_wilcoxon_holm(example_scores(), ["cosine", "expected_cholesky_cosine", "euclidean"])
    >>> p.round(4)
                              cosine  expected_cholesky_cosine  euclidean
    cosine                    1.0000                    0.0015     0.3394
    expected_cholesky_cosine  0.0015                    1.0000     0.0015
    euclidean                 0.3394                    0.0015     1.0000
    """
    import scikit_posthocs as sp

    table = _table(scores, methods, metric)
    names = list(table.columns)
    long = table.melt(var_name="method", value_name="score")
    p = sp.posthoc_wilcoxon(long, val_col="score", group_col="method", zero_method=zero_method, p_adjust="holm")
    return p.loc[names, names].rename_axis(index=None, columns=None)


def mean_ranks(scores: pd.DataFrame, methods: Sequence[str], metric: str = "accuracy") -> pd.Series:
    """Each method's mean rank over the data sets (1 = the highest mean score; ties share), best first.

    :func:`helpers.significance.average_ranks` of the per-data-set means (autorank).

    Examples
    --------
    >>> mean_ranks(example_scores(), ["cosine", "expected_cholesky_cosine", "euclidean"]).round(3).to_dict()
    {'expected_cholesky_cosine': 1.0, 'cosine': 2.333, 'euclidean': 2.667}
    """
    return average_ranks(critical_difference(_table(scores, methods, metric)))


def plot_pairwise_cd(scores: pd.DataFrame, methods: Sequence[str], metric: str = "accuracy", alpha: float = 0.05,
                     *, title: str, labels: Mapping | None = None, ax=None):
    """The critical-difference diagram of the methods, drawn from the pairwise Wilcoxon-Holm decisions.

    Mean ranks (:func:`mean_ranks`, 1 = best) on the axis; methods joined by a bar are not
    told apart by :func:`pairwise_wilcoxon_holm` at ``alpha``
    (``scikit_posthocs.critical_difference_diagram``).

    Parameters
    ----------
    title : str
        The finding the figure shows, stated by the caller.
    labels : dict, optional
        ``{method: label}`` for the figure.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = plot_pairwise_cd(example_scores(), ["cosine", "expected_cholesky_cosine", "euclidean"],
    ...                       title="the expected whitening ranks first")   # doctest: +SKIP
    """
    try:
        import scikit_posthocs as sp
    except ImportError:
        raise ImportError("the critical-difference diagram is drawn by scikit-posthocs: pip install scikit-posthocs") \
            from None
    import matplotlib.pyplot as plt

    alpha = check_real(alpha, "alpha", "0.05", 0, 1, closed="neither")
    if not isinstance(title, str) or not title.strip():
        raise ValueError("give the diagram a title that states what it shows, e.g. title='the expected whitening "
                         "ranks first'")
    ranks = mean_ranks(scores, methods, metric)
    p = pairwise_wilcoxon_holm(scores, methods, metric)
    if labels:
        ranks, p = ranks.rename(index=dict(labels)), p.rename(index=dict(labels), columns=dict(labels))
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.4 * len(ranks) + 1.5))
    sp.critical_difference_diagram(ranks, p, alpha=alpha, ax=ax)
    ax.set_title(title)
    return ax


# --------------------------------------------------------------------------------------------
# exploratory


def property_association(scores: pd.DataFrame, datasets: pd.DataFrame, claim_pairs: Mapping,
                         properties: Mapping = PROPERTIES, metric: str = "accuracy", n_permutations: int = 9999,
                         random_state: int = 0) -> pd.DataFrame:
    """Does a claim's gain on a data set go with one property of it, named before the results?

    For each claim, the per-data-set gain ``reading - baseline`` (of the means) against the
    claim's property (default: the condition number of the matrix the method inverts,
    log10, of the class covariances for the expected whitening and the whitened SVC, of the
    pooled within-class covariance for Mahalanobis kNN): Spearman's rho, its permutation p
    (:func:`scipy.stats.permutation_test` over the pairings, two-sided) and that p adjusted by
    Holm over the claims.

    Parameters
    ----------
    claim_pairs : dict
        ``{claim_key: (reading, baseline)}``.
    properties : dict
        ``{claim_key: column of datasets}``.

    Examples
    --------
    >>> r = property_association(example_scores(), example_datasets(),
    ...                          {"mkn.accuracy-vs-euclidean": ("mahalanobis_per_category", "euclidean")},
    ...                          n_permutations=999)
    >>> print(f"{r.loc[0, 'rho']:.3f} {r.loc[0, 'p']:.3f}")
    0.923 0.002
    """
    n_permutations = check_int(n_permutations, "n_permutations", 99, "n_permutations=9999")
    if not isinstance(claim_pairs, Mapping) or not claim_pairs:
        raise ValueError("claim_pairs must be {claim_key: (reading, baseline)}, e.g. "
                         "{'vac.expected-better': ('expected_cholesky_cosine', 'cosine')}")
    means = dataset_means(scores, metric)
    table = datasets.set_index("dataset")
    missing = sorted(set(means.index) - set(table.index))
    if missing:
        raise ValueError(f"the data sets {missing} have scores but no row in the datasets table")
    rng = np.random.default_rng(random_state)
    rows = []
    for key, pair in claim_pairs.items():
        if key not in properties:
            raise ValueError(f"no property named for claim {key!r}; properties has {sorted(properties)}")
        if properties[key] not in table.columns:
            raise ValueError(f"the datasets table has no column {properties[key]!r} (the property of {key})")
        reading, baseline = pair
        gain = paired_differences(means, reading, baseline).to_numpy()
        prop = table.loc[means.index, properties[key]].to_numpy(dtype=float)
        rank_gain, rank_prop = stats.rankdata(gain), stats.rankdata(prop)

        def rho(x, y, axis=-1):   # Pearson of the ranks: Spearman's rho, vectorised over resamples
            x, y = x - x.mean(axis=axis, keepdims=True), y - y.mean(axis=axis, keepdims=True)
            return (x * y).sum(axis=axis) / np.sqrt((x * x).sum(axis=axis) * (y * y).sum(axis=axis))

        res = stats.permutation_test((rank_gain, rank_prop), rho, permutation_type="pairings", vectorized=True,
                                     n_resamples=n_permutations, alternative="two-sided", rng=rng)
        rows.append({"claim": key, "reading": reading, "baseline": baseline, "property": properties[key],
                     "n_sets": len(gain), "rho": float(stats.spearmanr(gain, prop).statistic),
                     "p": float(res.pvalue)})
    out = pd.DataFrame(rows)
    out["p_holm"] = holm(out["p"].to_numpy()) if len(out) > 1 else out["p"]
    return out


