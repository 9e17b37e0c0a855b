"""The claims tested over the data sets, and what can be measured before fitting that might predict a gain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_int
from ...data.collection import pooled_within_condition
from ...significance import holm, signed_rank_test
from ...whitening import check_covariance_choice, estimate_covariance
from .methods import CLAIMS, METHODS
from .protocol import as_xy

# --------------------------------------------------------------------------------------------
# across data sets


def claim_tests(table: pd.DataFrame, claims: Sequence = CLAIMS) -> pd.DataFrame:
    """Each claim as a paired test over the data sets: Wilcoxon signed-rank, Holm-corrected.

    For each :class:`Claim`, the differences ``aware - plain`` of the per-data-set mean
    accuracies are tested with the two-sided Wilcoxon signed-rank test
    (:func:`helpers.significance.signed_rank_test`, zero differences dropped); the p-values of
    all the claims are adjusted together by :func:`helpers.significance.holm`.

    Returns
    -------
    DataFrame indexed by ``claim.label`` with ``key, aware, plain, mean_diff, median_diff,
    wins, losses, ties, statistic, p_value, p_holm, n_datasets``; a positive difference is
    the claim's direction.

    Examples
    --------
    >>> from helpers.studies.generalisation import Claim
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    >>> r = claim_tests(t, [Claim("k", "x", "y", "a source")]).iloc[0]
    >>> print(f"{r['median_diff']:+.3f} {r['wins']}/{r['losses']} p={r['p_value']:.4f} holm={r['p_holm']:.4f}")
    +0.030 6/0 p=0.0312 holm=0.0312
    """
    if not isinstance(table, pd.DataFrame) or table.isna().any().any():
        raise ValueError("table must be a DataFrame of mean accuracies without gaps, data sets in rows and "
                         "methods in columns (mean_accuracy(scores)).")
    claims = list(claims)
    if not claims:
        raise ValueError("claims is empty: give at least one Claim(key, aware, plain, source).")
    rows = {}
    for c in claims:
        missing = [m for m in (c.aware, c.plain) if m not in table.columns]
        if missing:
            raise ValueError(f"claim {c.key!r}: no accuracies for {missing}; the table has {list(table.columns)}.")
        rows[c.label] = {"key": c.key, "aware": c.aware, "plain": c.plain,
                         **signed_rank_test(table[c.aware], table[c.plain])}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.insert(out.columns.get_loc("p_value") + 1, "p_holm", holm(out["p_value"].to_numpy()))
    return out


def claim_evidence(part: pd.DataFrame) -> str:
    """The rows of :func:`claim_tests` that answer one claim, in words, joined by ``"; "``.

    Examples
    --------
    >>> from helpers.studies.generalisation import Claim
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    >>> text = claim_evidence(claim_tests(t, [Claim("k", "x", "y", "a source")]))
    >>> head, tail = text.split(" (")
    >>> head
    'x minus y over 6 data sets: median +0.0300, mean +0.0300'
    >>> tail
    '6 higher, 0 lower, 0 equal), Wilcoxon p = 0.031, Holm p = 0.031'
    """
    return "; ".join(
        f"{METHODS.get(r['aware'], r['aware'])} minus {METHODS.get(r['plain'], r['plain'])} over {r['n_datasets']} "
        f"data sets: median {r['median_diff']:+.4f}, mean {r['mean_diff']:+.4f} ({r['wins']} higher, {r['losses']} "
        f"lower, {r['ties']} equal), Wilcoxon p = {r['p_value']:.2g}, Holm p = {r['p_holm']:.2g}"
        for _, r in part.iterrows())


def claim_summary(row) -> str:
    """One row of :func:`claim_tests` in words: the median difference, the wins and Holm's p.

    Examples
    --------
    >>> claim_summary({"median_diff": 0.0049, "wins": 14, "n_datasets": 20, "p_holm": 0.1481})
    'median +0.005, 14 of 20 data sets higher, Holm p = 0.15'
    """
    return (f"median {row['median_diff']:+.3f}, {row['wins']} of {row['n_datasets']} data sets higher, "
            f"Holm p = {row['p_holm']:.2g}")


# --------------------------------------------------------------------------------------------
# when does whitening help?


def _standardise(X):
    sd = X.std(axis=0, ddof=1)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def dataset_properties(datasets: Mapping, covariance="ledoit_wolf") -> pd.DataFrame:
    """What can be measured on each data set before fitting anything, on standardised features.

    Columns: ``n``, ``p``, ``classes``, ``n_over_p``;
    ``log10_condition``, the base-10 logarithm of the condition number of the pooled
    within-class sample covariance (:func:`helpers.data.collection.pooled_within_condition`:
    how unevenly the variance is spread; whitening divides by its small eigenvalues);
    ``heterogeneity``, how different the class covariances are:
    ``(ln|S_pooled| - sum_k w_k ln|S_k|) / p`` with ``w_k = (n_k - 1) / (n - K)`` and ``S_k``
    the class covariances estimated with ``covariance``, ``S_pooled = sum_k w_k S_k``. With
    sample covariances this is Box's M divided by ``(n - K) p``; it is 0 exactly when the
    class covariances are equal, and larger the more they differ.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(size=(200, 2)) * [1, 1], rng.normal(size=(200, 2)) * [5, 0.2]])
    >>> props = dataset_properties({"toy": (X, np.repeat([0, 1], 200))}, covariance="sample")
    >>> print(props.loc["toy", ["n", "p", "classes"]].tolist(), f"{props.loc['toy', 'heterogeneity']:.2f}")
    [400, 2, 2] 0.99
    """
    check_covariance_choice(covariance)
    rows = {}
    for name, data in datasets.items():
        X, y = as_xy(name, data)
        Z = _standardise(X)
        classes, y_idx, counts = np.unique(y, return_inverse=True, return_counts=True)
        n, p = Z.shape
        cond = pooled_within_condition(X, y)
        w = (counts - 1) / (n - len(classes))
        S = [estimate_covariance(Z[y_idx == k], covariance) for k in range(len(classes))]
        logdets = [np.linalg.slogdet(s) for s in S]
        pooled_logdet = np.linalg.slogdet(sum(wk * s for wk, s in zip(w, S)))
        if pooled_logdet[0] <= 0 or any(sign <= 0 for sign, _ in logdets):
            hetero = np.nan  # a singular class covariance: use a shrinkage covariance= (e.g. "ledoit_wolf")
        else:
            hetero = (pooled_logdet[1] - sum(wk * ld for wk, (_, ld) in zip(w, logdets))) / p
        rows[name] = {"n": n, "p": p, "classes": len(classes), "n_over_p": n / p,
                      "log10_condition": float(np.log10(cond)), "heterogeneity": float(hetero)}
    return pd.DataFrame.from_dict(rows, orient="index")


def gain_correlations(gains: pd.DataFrame, properties: pd.DataFrame) -> pd.DataFrame:
    """Spearman rank correlation of each gain with each property, over the data sets both hold.

    Parameters
    ----------
    gains : DataFrame
        Data sets in rows, one column per gain (e.g. Mahalanobis minus Euclidean kNN).
    properties : DataFrame
        Data sets in rows (:func:`dataset_properties`).

    Returns
    -------
    DataFrame indexed by ``(gain, property)`` with ``rho``, ``p_value`` (two-sided,
    :func:`scipy.stats.spearmanr`) and ``n``.

    Examples
    --------
    >>> g = pd.DataFrame({"gain": [0.01, 0.02, 0.03, 0.05]}, index=list("abcd"))
    >>> props = pd.DataFrame({"size": [1, 2, 3, 4], "noise": [3, 1, 4, 2]}, index=list("abcd"))
    >>> gain_correlations(g, props)["rho"].round(2).tolist()
    [1.0, 0.0]
    """
    common = gains.index.intersection(properties.index)
    if len(common) < 3:
        raise ValueError(f"gains and properties share {len(common)} data sets; a rank correlation needs at least 3.")
    rows = {}
    for g in gains.columns:
        for prop in properties.columns:
            pair = pd.concat([gains.loc[common, g], properties.loc[common, prop]], axis=1).dropna()
            res = stats.spearmanr(pair.iloc[:, 0], pair.iloc[:, 1])
            rows[(g, prop)] = {"rho": float(res.statistic), "p_value": float(res.pvalue), "n": len(pair)}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["gain", "property"])


def critical_rho(n: int, alpha: float = 0.05) -> float:
    """The smallest ``|rho|`` of a rank correlation over ``n`` points that reaches two-sided ``p < alpha``.

    The t approximation that :func:`scipy.stats.spearmanr` uses for its p-value:
    ``t = rho sqrt((n - 2) / (1 - rho^2))`` with ``n - 2`` degrees of freedom.

    Examples
    --------
    >>> round(critical_rho(20), 3)
    0.444
    """
    n = check_int(n, "n", 3, why="a rank correlation needs at least 3 points")
    t_crit = stats.t.ppf(1 - alpha / 2, n - 2)
    return float(t_crit / np.sqrt(n - 2 + t_crit**2))


