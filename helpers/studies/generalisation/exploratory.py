"""The study's exploration, beside the confirmatory claims (the protocol's [exploratory]).

:func:`property_association`: for each claim, the Spearman correlation between the gain on a
data set and one property of it named before the results, with a permutation p, Holm over the
claims. The pairwise tests over data sets and their critical-difference diagram are the
library's (:func:`helpers.significance.pairwise_signed_rank`,
:func:`helpers.plotting.scores.plot_pairwise_cd`), on the per-data-set means (:func:`.dataset_means`).

None of this decides a claim; the claims are decided by :mod:`.evidence`.

References
----------
.. [1] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets, JMLR 7, 1-30.
.. [2] A. Benavoli, G. Corani & F. Mangili (2016), Should we really use post-hoc tests based on
   mean-ranks?, JMLR 17(5), 1-10 (pairwise Wilcoxon tests with Holm instead of mean-rank tests).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_int
from ...significance import holm
from ._examples import example_datasets, example_scores  # noqa: F401 (the doctests' tables)
from .evidence import PROPERTIES, dataset_means, paired_differences

__all__ = ["property_association"]


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


