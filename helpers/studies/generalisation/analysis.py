"""The claims tested over the data sets, and what can be measured before fitting that might predict a gain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_int, check_real
from ...data.collection import pooled_within_condition
from ...effects import bayesian_signed_rank, hodges_lehmann
from ...significance import holm, signed_rank_test
from ...whitening import check_covariance_choice, estimate_covariance
from .methods import CLAIMS, METHODS
from .protocol import as_xy

# --------------------------------------------------------------------------------------------
# across data sets


def _ropes(rope, claims) -> dict:
    if isinstance(rope, Mapping):
        missing = sorted({c.key for c in claims} - set(rope))
        if missing:
            raise ValueError(f"rope gives no ROPE for the claim(s) {missing}; give {{key: half-width}} for every claim "
                             "(the ledger's rope column), or one number for all.")
        return {c.key: check_real(rope[c.key], "rope", "0.01 (one accuracy point)", low=0, closed="neither")
                for c in claims}
    rope = check_real(rope, "rope", "0.01 (one accuracy point)", low=0, closed="neither")
    return dict.fromkeys((c.key for c in claims), rope)


def claim_tests(table: pd.DataFrame, claims: Sequence = CLAIMS, rope=0.01) -> pd.DataFrame:
    """Each claim over the data sets: its effect with a 95% interval, Wilcoxon and Holm, and the Bayesian posterior.

    For each :class:`Claim`, the differences ``aware - plain`` of the per-data-set mean
    accuracies give

    * the Hodges-Lehmann estimate (the median of their Walsh averages, the location the
      Wilcoxon signed-rank test tests) with its distribution-free interval
      (:func:`helpers.effects.hodges_lehmann`): ``hl_effect``, ``hl_low``, ``hl_high``,
      ``hl_coverage``;
    * the two-sided Wilcoxon signed-rank test (:func:`helpers.significance.signed_rank_test`,
      zero differences dropped), its p-values adjusted over all the claims by Holm
      (:func:`helpers.significance.holm`): ``p_value``, ``p_holm``;
    * the Bayesian signed-rank test on the paired accuracies
      (:func:`helpers.effects.bayesian_signed_rank`) at the claim's ROPE: ``p_better``,
      ``p_equivalent``, ``p_worse``, ``rope``.

    Parameters
    ----------
    table : DataFrame
        Mean accuracies, data sets in rows and methods in columns (:func:`mean_accuracy`).
    claims : sequence of Claim
        The comparisons (default :data:`CLAIMS`).
    rope : float or mapping
        The half-width of the region of practical equivalence, in accuracy: one number for
        every claim, or ``{claim.key: rope}`` (the ledger's ``rope`` column).

    Returns
    -------
    DataFrame indexed by ``claim.label`` with ``key, aware, plain, mean_diff, median_diff,
    wins, losses, ties, statistic, p_value, p_holm, n_datasets, hl_effect, hl_low, hl_high,
    hl_coverage, rope, p_better, p_equivalent, p_worse``; a positive difference is the claim's
    direction.

    Examples
    --------
    >>> from helpers.studies.generalisation import Claim
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    >>> r = claim_tests(t, [Claim("k", "x", "y", "a source")]).iloc[0]
    >>> print(f"{r['hl_effect']:+.3f} [{r['hl_low']:+.3f}, {r['hl_high']:+.3f}] p={r['p_value']:.4f} "
    ...       f"holm={r['p_holm']:.4f} P(better)={r['p_better']:.2f}")
    +0.030 [+0.010, +0.050] p=0.0312 holm=0.0312 P(better)=1.00
    """
    if not isinstance(table, pd.DataFrame) or table.isna().any().any():
        raise ValueError("table must be a DataFrame of mean accuracies without gaps, data sets in rows and "
                         "methods in columns (mean_accuracy(scores)).")
    claims = list(claims)
    if not claims:
        raise ValueError("claims is empty: give at least one Claim(key, aware, plain, source).")
    ropes = _ropes(rope, claims)
    rows = {}
    for c in claims:
        missing = [m for m in (c.aware, c.plain) if m not in table.columns]
        if missing:
            raise ValueError(f"claim {c.key!r}: no accuracies for {missing}; the table has {list(table.columns)}.")
        a, b = table[c.aware].to_numpy(dtype=float), table[c.plain].to_numpy(dtype=float)
        hl = hodges_lehmann(a - b)
        post = bayesian_signed_rank(a, b, ropes[c.key])
        rows[c.label] = {"key": c.key, "aware": c.aware, "plain": c.plain, **signed_rank_test(a, b),
                         "hl_effect": hl["effect"], "hl_low": hl["interval"][0], "hl_high": hl["interval"][1],
                         "hl_coverage": hl["coverage"], "rope": ropes[c.key], "p_better": post["better"],
                         "p_equivalent": post["equivalent"], "p_worse": post["worse"]}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.insert(out.columns.get_loc("p_value") + 1, "p_holm", holm(out["p_value"].to_numpy()))
    return out


def _versus(method: str) -> str:
    """A method's display name as the object of "vs": ``"SVC, linear"`` reads ``"linear SVC"``."""
    return " ".join(reversed(METHODS.get(method, method).split(", ")))


def claim_answers(tests: pd.DataFrame, table: pd.DataFrame) -> dict:
    """The rows of :func:`claim_tests` as ``check.claims`` takes them: one answer per ledger key.

    A claim answered by one comparison gets its Hodges-Lehmann ``effect`` (a dict with its
    ``interval``, Holm's ``p``, the ``method`` and the ``posterior`` as a function of the ROPE,
    so that the verdict engine recomputes it at half and double the ROPE); a claim answered by
    several (the Cholesky SVC "better than the traditional kernels", an intersection-union
    test) gets them all as ``comparisons``, named ``"vs <plain method>"``, and the engine judges
    it by the weakest. ``evidence`` is :func:`claim_evidence` of its rows.

    Parameters
    ----------
    tests : DataFrame
        :func:`claim_tests` of ``table``.
    table : DataFrame
        The mean accuracies the tests were computed from (for the posterior at another ROPE).

    Examples
    --------
    >>> from helpers.studies.generalisation import Claim
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70],
    ...                   "z": [0.81, 0.68, 0.91, 0.58, 0.85, 0.76]})
    >>> answers = claim_answers(claim_tests(t, [Claim("k", "x", "y", ""), Claim("k", "x", "z", "")]), t)
    >>> sorted(answers["k"]["comparisons"]), sorted(answers["k"]["comparisons"]["vs y"])
    (['vs y', 'vs z'], ['effect', 'interval', 'method', 'p', 'posterior'])
    >>> print(f"{answers['k']['comparisons']['vs z']['posterior'](0.02)['equivalent']:.2f}")
    1.00
    """
    answers = {}
    for key, part in tests.groupby("key", sort=False):
        comparisons = {}
        for _, r in part.iterrows():
            missing = [m for m in (r["aware"], r["plain"]) if m not in table.columns]
            if missing:
                raise ValueError(f"claim {key!r}: the table has no accuracies for {missing}; pass the table "
                                 "claim_tests was given.")
            comparisons[f"vs {_versus(r['plain'])}"] = {
                "effect": float(r["hl_effect"]), "interval": (float(r["hl_low"]), float(r["hl_high"])),
                "p": float(r["p_holm"]),
                "method": (f"Hodges-Lehmann estimate over {r['n_datasets']} data sets with its "
                           f"{r['hl_coverage']:.1%} interval (exact signed-rank test); p: Wilcoxon signed-rank, "
                           f"Holm-adjusted over {len(tests)} comparisons; P: Bayesian signed-rank test"),
                "posterior": partial(bayesian_signed_rank, table[r["aware"]].to_numpy(dtype=float),
                                     table[r["plain"]].to_numpy(dtype=float)),
            }
        evidence = claim_evidence(part)
        answers[key] = ({"comparisons": comparisons, "evidence": evidence} if len(comparisons) > 1 else
                        {"effect": next(iter(comparisons.values())), "evidence": evidence})
    return answers


def claim_evidence(part: pd.DataFrame) -> str:
    """The rows of :func:`claim_tests` that answer one claim, in words, joined by ``"; "``.

    Examples
    --------
    >>> from helpers.studies.generalisation import Claim
    >>> t = pd.DataFrame({"x": [0.80, 0.70, 0.90, 0.60, 0.85, 0.75], "y": [0.78, 0.69, 0.86, 0.55, 0.84, 0.70]})
    >>> text = claim_evidence(claim_tests(t, [Claim("k", "x", "y", "a source")]))
    >>> print(text.replace("; ", ";\\n").replace("], P", "],\\nP"))
    x minus y over 6 data sets: Hodges-Lehmann +0.0300 [+0.0100, +0.0500],
    P(better, equivalent, worse) = 1.00, 0.00, 0.00 at ROPE ±0.01;
    median +0.0300, mean +0.0300 (6 higher, 0 lower, 0 equal);
    Wilcoxon p = 0.031, Holm p = 0.031
    """
    return "; ".join(
        f"{METHODS.get(r['aware'], r['aware'])} minus {METHODS.get(r['plain'], r['plain'])} over {r['n_datasets']} "
        f"data sets: Hodges-Lehmann {r['hl_effect']:+.4f} [{r['hl_low']:+.4f}, {r['hl_high']:+.4f}], "
        f"P(better, equivalent, worse) = {r['p_better']:.2f}, {r['p_equivalent']:.2f}, {r['p_worse']:.2f} at ROPE "
        f"±{r['rope']:g}; median {r['median_diff']:+.4f}, mean {r['mean_diff']:+.4f} ({r['wins']} higher, "
        f"{r['losses']} lower, {r['ties']} equal); Wilcoxon p = {r['p_value']:.2g}, Holm p = {r['p_holm']:.2g}"
        for _, r in part.iterrows())


def claim_summary(row) -> str:
    """One row of :func:`claim_tests` in words: the Hodges-Lehmann estimate and interval, the posterior, Holm's p.

    Examples
    --------
    >>> text = claim_summary({"hl_effect": 0.0049, "hl_low": -0.0012, "hl_high": 0.0151, "rope": 0.01, "p_better": 0.3,
    ...                "p_equivalent": 0.68, "p_worse": 0.02, "wins": 14, "n_datasets": 20, "p_holm": 0.1481})
    >>> print(text.replace("; ", ";\\n"))
    +0.0049 [-0.0012, +0.0151], P(better, equivalent, worse) = 0.30, 0.68, 0.02 at ROPE ±0.01;
    14 of 20 data sets higher, Holm p = 0.15
    """
    return (f"{row['hl_effect']:+.4f} [{row['hl_low']:+.4f}, {row['hl_high']:+.4f}], P(better, equivalent, worse) = "
            f"{row['p_better']:.2f}, {row['p_equivalent']:.2f}, {row['p_worse']:.2f} at ROPE ±{row['rope']:g}; "
            f"{row['wins']} of {row['n_datasets']} data sets higher, Holm p = {row['p_holm']:.2g}")


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


def correlation_family(corr: pd.DataFrame, alpha: float = 0.05, method: str = "holm") -> dict:
    """The rank correlations tried, as one family of tests: how many reach ``alpha``, alone and corrected.

    Trying many correlations makes some reach ``p < alpha`` by chance (about ``alpha`` times the
    number tried). The p-values of :func:`gain_correlations` are adjusted together with
    statsmodels' ``multipletests`` (``method="holm"`` by default; for the smallest p-value Holm
    and Bonferroni agree), and the strongest correlation (largest ``|rho|``) is named with its
    raw and adjusted p-value and whether the correction keeps it.

    Returns
    -------
    dict with ``strongest`` (the ``(gain, property)`` pair), ``rho``, ``p_value``, ``p_adjusted``,
    ``survives`` (its adjusted p-value is below ``alpha``), ``n_tried``, ``expected_by_chance``
    (``alpha * n_tried``), ``n_uncorrected`` and ``n_corrected`` (how many reach ``alpha``
    before and after the correction), ``alpha`` and ``method``.

    Examples
    --------
    >>> corr = pd.DataFrame({"rho": [-0.50, 0.20, 0.10], "p_value": [0.024, 0.39, 0.67], "n": 20},
    ...                     index=pd.MultiIndex.from_tuples([("g", "a"), ("g", "b"), ("g", "c")]))
    >>> fam = correlation_family(corr)
    >>> fam["strongest"], round(fam["p_adjusted"], 3), fam["survives"], fam["n_uncorrected"], fam["n_corrected"]
    (('g', 'a'), 0.072, False, 1, 0)
    """
    from statsmodels.stats.multitest import multipletests

    if not isinstance(corr, pd.DataFrame) or not {"rho", "p_value"} <= set(corr.columns) or corr.empty:
        raise ValueError("corr must be the non-empty DataFrame of gain_correlations(gains, properties), with 'rho' "
                         "and 'p_value' columns.")
    alpha = check_real(alpha, "alpha", "0.05", 0, 1, closed="neither")
    if corr[["rho", "p_value"]].isna().any().any():
        raise ValueError("corr holds a NaN rho or p-value (a constant gain or property): drop that row first.")
    reject, adjusted, _, _ = multipletests(corr["p_value"].to_numpy(dtype=float), alpha=alpha, method=method)
    i = int(np.argmax(corr["rho"].abs().to_numpy()))
    return {"strongest": corr.index[i], "rho": float(corr["rho"].iloc[i]), "p_value": float(corr["p_value"].iloc[i]),
            "p_adjusted": float(adjusted[i]), "survives": bool(reject[i]), "n_tried": len(corr),
            "expected_by_chance": alpha * len(corr), "n_uncorrected": int((corr["p_value"] < alpha).sum()),
            "n_corrected": int(reject.sum()), "alpha": alpha, "method": method}


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


