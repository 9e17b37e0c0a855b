"""The evidence of each edition: what the per-fold scores say about each claim, over the data sets.

Every function here reads the tidy score table (one row per data set, repeat, fold and method:
``dataset``, ``repeat``, ``fold``, ``method``, ``accuracy``, ``balanced_accuracy``, ``n_train``,
``n_test``, ``params`` and ``edges`` as JSON text, ``fit_seconds``, ``predict_seconds``,
``order_min``, ``order_max``) and the protocol (:func:`load_protocol`); none fits anything.

* :func:`dataset_means`: data sets by methods, the mean over folds and repeats;
* :func:`claim_table`: each claim's readings against each baseline: wins, ties and losses,
  the Hodges-Lehmann effect of the per-data-set differences with its 95% interval, the
  Wilcoxon signed-rank p, Holm-corrected (over the confirmatory family for the primary
  readings, within the claim for the secondary ones), and the Bayesian signed-rank posterior
  at the ROPE;
* :func:`claim_effects`: the same, as the verdict engine takes it
  (``{claim: {"comparisons": {baseline: effect dict}}}``, the posterior a function of the ROPE);
  :func:`leave_one_out`: those effect dicts with each data set left out in turn;
* :func:`.hierarchical.hierarchical_posterior` (its own module): the hierarchical Bayesian
  model of Corani et al. (2017) over the per-fold differences (``baycomp.HierarchicalTest``;
  it needs pystan);
* :func:`flags`: data sets at the ceiling or near chance, and the sources' own data;
  :func:`grid_edges`: how often a chosen hyper-parameter sits on the edge of its grid;
* exploratory: :func:`property_association` (the gain against one pre-specified property of
  the data, Spearman with a permutation p, Holm over the claims) in :mod:`.exploratory`.

The Wilcoxon tests are two-sided, so that ``p < 0.05`` agrees with a 95% Hodges-Lehmann
interval that excludes zero (both invert the same signed-rank statistic); a data set where
both methods score the same counts as evidence of no difference (``zero_method="zsplit"``,
half its rank to each side), as it does in the Hodges-Lehmann estimate, rather than being
dropped.

References
----------
.. [1] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets, JMLR 7,
   1-30.
.. [2] A. Benavoli, G. Corani, J. Demsar & M. Zaffalon (2017), Time for a change: a tutorial for
   comparing multiple classifiers through Bayesian analysis, JMLR 18(77), 1-36.
.. [3] G. Corani, A. Benavoli, J. Demsar, F. Mangili & M. Zaffalon (2017), Statistical comparison
   of classifiers through Bayesian hierarchical modelling, Machine Learning 106, 1817-1837.
.. [4] R. L. Berger & J. C. Hsu (1996), Bioequivalence trials, intersection-union tests and
   equivalence confidence sets, Statistical Science 11, 283-319 (a claim that needs every one
   of its comparisons: its p is the largest of theirs).
.. [5] S. Holm (1979), A simple sequentially rejective multiple test procedure, Scand. J.
   Statist. 6, 65-70.
"""

from __future__ import annotations

import functools
import json
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_int, check_real
from ...effects import bayesian_signed_rank, hodges_lehmann
from ...significance import holm
from ._examples import example_datasets, example_scores  # noqa: F401 (the doctests' tables)

__all__ = [
    "claim_effects",
    "claim_evidence",
    "claim_table",
    "contrasts",
    "dataset_means",
    "flags",
    "grid_edges",
    "leave_one_out",
]

SCORE_COLUMNS = ("dataset", "repeat", "fold", "method")
METRIC_COLUMNS = ("accuracy", "balanced_accuracy")
PROPERTIES = {"vac.expected-better": "log10_condition_classes",
              "mkn.accuracy-vs-euclidean": "log10_condition_within",
              "svm.better-than-kernels": "log10_condition_classes"}
ZERO_METHOD = "zsplit"


# --------------------------------------------------------------------------------------------
# checks


def check_scores(scores, metric: str = "accuracy", methods: Sequence | None = None) -> pd.DataFrame:
    """The score table, checked: its key columns, the metric, one row per key, no missing score."""
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be the per-fold score table (a DataFrame), not {type(scores).__name__}")
    if metric not in METRIC_COLUMNS:
        raise ValueError(f"metric must be one of {METRIC_COLUMNS}, not {metric!r}")
    missing = [c for c in (*SCORE_COLUMNS, metric) if c not in scores.columns]
    if missing:
        raise ValueError(f"the score table lacks the column(s) {missing}; it has {list(scores.columns)}")
    if methods is not None:
        absent = [m for m in methods if m not in set(scores["method"])]
        if absent:
            raise ValueError(f"the score table has no rows for the method(s) {absent}; it has "
                             f"{sorted(set(scores['method']))}")
        scores = scores[scores["method"].isin(list(methods))]
    repeated = scores.duplicated(list(SCORE_COLUMNS))
    if repeated.any():
        first = scores.loc[repeated, list(SCORE_COLUMNS)].iloc[0].to_dict()
        raise ValueError(f"the score table has {int(repeated.sum())} repeated (dataset, repeat, fold, method) "
                         f"row(s), e.g. {first}: keep one row per fold")
    bad = scores[~np.isfinite(scores[metric].to_numpy(dtype=float))]
    if len(bad):
        raise ValueError(f"{len(bad)} {metric} score(s) are missing or not finite, e.g. "
                         f"{bad[list(SCORE_COLUMNS)].iloc[0].to_dict()}: a failed fit must be rerun, or its data "
                         "set excluded for every method")
    values = scores[metric].to_numpy(dtype=float)
    outside = scores[(values < 0) | (values > 1)]
    if len(outside):
        in_percent = bool(values.min() >= 0 and values.max() <= 100 and np.median(values) > 1)
        raise ValueError(f"{len(outside)} {metric} score(s) lie outside [0, 1], which no {metric} can, e.g. "
                         f"{float(outside[metric].iloc[0])!r} at {outside[list(SCORE_COLUMNS)].iloc[0].to_dict()}"
                         + (": the scores look like per cents; store fractions (0.95, not 95)" if in_percent else
                            ": the table is not a score table of this study; recompute it"))
    return scores


def drop_sets(scores: pd.DataFrame, exclude) -> pd.DataFrame:
    exclude = [exclude] if isinstance(exclude, str) else list(exclude)
    unknown = sorted(set(exclude) - set(scores["dataset"]))
    if unknown:
        raise ValueError(f"exclude names data set(s) not in the score table: {unknown}")
    return scores[~scores["dataset"].isin(exclude)]


# --------------------------------------------------------------------------------------------
# per data set


def dataset_means(scores: pd.DataFrame, metric: str = "accuracy") -> pd.DataFrame:
    """Data sets by methods: the mean score over the folds and repeats.

    Every method must have the same folds on every data set (a method missing a fold would
    compare means over different splits); the message names the first incomplete cell.

    Examples
    --------
    >>> means = dataset_means(example_scores())
    >>> means.shape, round(float(means.loc["breast_cancer", "euclidean"]), 4)
    ((12, 15), 0.8267)
    """
    scores = check_scores(scores, metric)
    counts = scores.pivot_table(index="dataset", columns="method", values=metric, aggfunc="size", fill_value=0)
    expected = scores.groupby("dataset")[["repeat", "fold"]].apply(lambda g: len(g.drop_duplicates()))
    short = counts.lt(expected, axis=0)
    if short.to_numpy().any():
        dataset, method = short.stack().loc[lambda s: s].index[0]
        raise ValueError(f"method {method!r} has {int(counts.loc[dataset, method])} of the {int(expected[dataset])} "
                         f"folds of data set {dataset!r}: every method needs every fold")
    means = scores.pivot_table(index="dataset", columns="method", values=metric, aggfunc="mean")
    return means.rename_axis(index="dataset", columns="method")


def paired_differences(means: pd.DataFrame, reading: str, baseline: str) -> pd.Series:
    """Per data set, the mean score of ``reading`` minus that of ``baseline`` (``means`` from :func:`dataset_means`)."""
    for name in (reading, baseline):
        if name not in means.columns:
            raise ValueError(f"the score table has no method {name!r}; it has {sorted(means.columns)}")
    return (means[reading] - means[baseline]).rename(f"{reading} - {baseline}")


def _wilcoxon(d: np.ndarray) -> float:
    """Two-sided signed-rank p of the differences; zeros split (all zero: 1)."""
    if not np.any(d != 0):
        return 1.0
    return float(stats.wilcoxon(d, zero_method=ZERO_METHOD, alternative="two-sided").pvalue)


#: the posterior's keys: the argmax shares (what the decision reads) and the masses
POSTERIOR_KEYS = ("better", "equivalent", "worse", "mass_better", "mass_equivalent", "mass_worse")


def posterior_settings(protocol: Mapping, n_samples: int | None) -> dict:
    """The signed-rank posterior's prior, draws and seed: the protocol's from edition 4 on.

    The protocols of editions 2 and 3 state a prior of 1, but their results were computed with
    0.5 (baycomp's default, which the code has always used); those editions keep 0.5.
    """
    decision = protocol["decision"]
    fourth = protocol["study"].get("edition", 0) >= 4
    draws = n_samples if n_samples is not None else int(decision.get("posterior_draws", 50_000)) if fourth else 50_000
    return {"prior": float(decision["prior_pseudo_observation"]) if fourth else 0.5,
            "n_samples": check_int(draws, "n_samples", 1000, "n_samples=50000"),
            "random_state": int(decision.get("posterior_seed", 0)) if fourth else 0}


def _posterior(a: np.ndarray, b: np.ndarray, settings: Mapping):
    """The signed-rank posterior of ``a`` against ``b`` as a function of the ROPE (cached): argmax shares and masses."""
    @functools.cache
    def posterior(rope: float) -> dict:
        r = bayesian_signed_rank(a, b, rope=rope, **settings)
        return {k: r[k] for k in POSTERIOR_KEYS}
    return posterior


def _readings(claim: Mapping) -> list[tuple[str, bool]]:
    return [(claim["primary"], True)] + [(r, False) for r in claim.get("secondary", [])]


def claims_of(protocol: Mapping) -> dict:
    try:
        return {c["key"]: c for c in protocol["claims"]}
    except (KeyError, TypeError):
        raise ValueError("protocol must be the dict load_protocol() returns, with [[claims]] each having a key") \
            from None


def contrasts(claim: Mapping) -> dict:
    """A claim's contrasts: ``{name: comparators}``, the confirmatory one first.

    From edition 4, a claim names the method its readings nest (``nested``: the reading with
    its covariance switched off). Its confirmatory contrast, ``"covariance"``, is against that
    method alone, and the source's own baselines are a second contrast, ``"source"``; where the
    nested method is itself one of the source's baselines (the linear SVC), the claim against
    all of them is the one contrast. Before edition 4 the only contrast was the source's.

    Examples
    --------
    >>> contrasts({"nested": "scaled_cosine", "baselines": ["cosine"]})
    {'covariance': ['scaled_cosine'], 'source': ['cosine']}
    >>> contrasts({"nested": "linear_svc", "baselines": ["linear_svc", "rbf_svc"]})
    {'covariance': ['linear_svc', 'rbf_svc']}
    """
    baselines = list(claim["baselines"])
    nested = claim.get("nested")
    if nested is None:
        return {"source": baselines}
    if nested in baselines:
        return {"covariance": baselines}
    return {"covariance": [nested], "source": baselines}


def _comparisons(means: pd.DataFrame, comparators, reading: str, settings: Mapping) -> dict:
    """Each comparator of a contrast against one reading: the counts, HL, Wilcoxon p and the posterior function."""
    out = {}
    for baseline in comparators:
        d = paired_differences(means, reading, baseline)
        values = d.to_numpy()
        hl = hodges_lehmann(values)
        out[baseline] = {"n_sets": int(values.size), "wins": int((values > 0).sum()), "ties": int((values == 0).sum()),
                         "losses": int((values < 0).sum()), "hl": hl, "p": _wilcoxon(values),
                         "posterior": _posterior(means[reading].to_numpy(), means[baseline].to_numpy(), settings)}
    return out


def _claim_p(comparisons: Mapping) -> float:
    """A claim's p: its one comparison's, or, needing every comparison (intersection-union), the largest."""
    return max(c["p"] for c in comparisons.values())


class FewerSetsWarning(UserWarning):
    """A score table holds fewer data sets than the protocol's ``min_sets``: its verdicts are not the study's."""


def _table_means(scores, metric, exclude, protocol) -> pd.DataFrame:
    means = dataset_means(drop_sets(check_scores(scores, metric), exclude), metric)
    if len(means) < 2:
        raise ValueError(f"{len(means)} data set(s) left after exclude={list(exclude)}: comparisons over data sets "
                         "need at least two")
    least = protocol.get("datasets", {}).get("min_sets")
    if not exclude and least is not None and len(means) < int(least):
        warnings.warn(f"the score table holds {len(means)} data sets, fewer than the protocol's min_sets ({least}): "
                      "the verdicts below are computed as the protocol says, but they are not the study's, whose "
                      "decision rule presumes at least that many sets", FewerSetsWarning, stacklevel=3)
    return means


_CORRECTIONS = {"holm": "holm", "bonferroni": "bonferroni", "none": None}


def _adjust(p_values: list, correction: str) -> list:
    """The protocol's multiplicity correction: Holm (:func:`helpers.significance.holm`), Bonferroni or none."""
    if correction not in _CORRECTIONS:
        raise ValueError(f"decision.correction must be one of {sorted(_CORRECTIONS)}, not {correction!r}")
    if len(p_values) == 1 or correction == "none":
        return list(p_values)
    if correction == "holm":
        return [float(p) for p in holm(p_values)]
    return [min(1.0, float(p) * len(p_values)) for p in p_values]


def _evidence(means: pd.DataFrame, protocol: Mapping, n_samples: int | None, secondary_of=None) -> tuple[dict, float]:
    """The claims' readings compared, contrast by contrast, with the adjusted claim p's.

    Returns ``{(claim, reading, contrast): {...}}`` and the ROPE. The confirmatory family is
    every claim's primary reading in its first contrast; the rest of a claim (its other
    contrast, its secondary readings) is its secondary family. Only the claims in
    ``secondary_of`` (default: every claim) have their secondary rows computed.
    """
    settings = posterior_settings(protocol, n_samples)
    rope = check_real(protocol["decision"]["rope"], "decision.rope", "0.01", low=0, closed="neither")
    correction = protocol["decision"].get("correction", "holm")
    claims = claims_of(protocol)
    secondary_of = claims if secondary_of is None else secondary_of
    results = {}
    for key, claim in claims.items():
        readings = [(r, primary) for r, primary in _readings(claim) if primary or key in secondary_of]
        for reading, primary in readings:
            for i, (contrast, comparators) in enumerate(contrasts(claim).items()):
                comparisons = _comparisons(means, comparators, reading, settings)
                results[key, reading, contrast] = {"primary": primary, "confirmatory": primary and i == 0,
                                                   "comparisons": comparisons, "p_claim": _claim_p(comparisons)}
        secondary = [item for item in results if item[0] == key and not results[item]["confirmatory"]]
        if secondary:
            for item, p in zip(secondary, _adjust([results[s]["p_claim"] for s in secondary], correction)):
                results[item]["p_holm"], results[item]["family"] = p, "secondary"
    confirmatory = [item for item, r in results.items() if r["confirmatory"]]
    for item, p in zip(confirmatory, _adjust([results[c]["p_claim"] for c in confirmatory], correction)):
        results[item]["p_holm"], results[item]["family"] = p, "confirmatory"
    return results, rope


# --------------------------------------------------------------------------------------------
# the claims


def claim_table(scores: pd.DataFrame, protocol: Mapping, metric: str = "accuracy", exclude=(),
                n_samples: int | None = None) -> pd.DataFrame:
    """One row per claim, reading, contrast and comparator: counts, the effect with its interval, p-values, posterior.

    For each reading (the claim's primary and secondary methods), each contrast
    (:func:`contrasts`: from edition 4 the method the reading nests, ``"covariance"``, then
    the source's baselines, ``"source"``) and each comparator, the differences ``reading -
    comparator`` of the per-data-set means (:func:`dataset_means`) give

    * ``wins``, ``ties``, ``losses``: data sets where the reading scores higher, the same, lower;
    * ``effect``, ``low``, ``high``: the Hodges-Lehmann estimate (the median of the Walsh
      averages) with its exact signed-rank 95% interval (:func:`helpers.effects.hodges_lehmann`);
    * ``p``: the two-sided Wilcoxon signed-rank test (:func:`scipy.stats.wilcoxon`,
      ``zero_method="zsplit"``: a tie counts half on each side instead of being dropped);
    * ``p_claim``: the contrast's p: ``p`` itself, or for a contrast that must hold against
      every comparator the largest ``p`` over them (Berger & Hsu 1996);
    * ``p_holm``: ``p_claim`` adjusted by the protocol's correction (Holm), over the
      confirmatory family (each claim's primary reading in its first contrast, ``family =
      "confirmatory"``) or over the rest of its claim (``family = "secondary"``);
    * ``p_better``, ``p_equivalent``, ``p_worse``: the Bayesian signed-rank test's argmax shares
      at the protocol's ROPE (the share of posterior draws in which that region is the most
      probable; what the decision reads), and ``mass_better``, ``mass_equivalent``,
      ``mass_worse``: its posterior masses (:func:`helpers.effects.bayesian_signed_rank`).

    Parameters
    ----------
    scores : DataFrame
        The per-fold score table.
    protocol : dict
        :func:`load_protocol`: its claims and ``[decision]``.
    metric : {"accuracy", "balanced_accuracy"}
    exclude : sequence of str
        Data sets left out (e.g. the sources' own data, ``protocol["datasets"]["sources_own_data"]``).
    n_samples : int, optional
        Draws of the Bayesian signed-rank posterior; default the protocol's (50000).

    Examples
    --------
    >>> from helpers.studies.generalisation.preregistration import load_protocol
    >>> t = claim_table(example_scores(), load_protocol(), n_samples=2000)
    >>> row = t[t.primary & (t.claim == "vac.expected-better")].iloc[0]
    >>> print(row.reading, row.contrast, row.baseline, row.wins, row.losses, f"{row.effect:+.3f}")
    expected_cholesky_cosine covariance scaled_cosine 12 0 +0.030
    """
    results, rope = _evidence(_table_means(scores, metric, exclude, protocol), protocol, n_samples)
    return _table(results, rope)


def _table(results: Mapping, rope: float) -> pd.DataFrame:
    rows = []
    for (key, reading, contrast), r in results.items():
        for baseline, c in r["comparisons"].items():
            post = c["posterior"](rope)
            rows.append({"claim": key, "reading": reading, "primary": r["primary"], "contrast": contrast,
                         "baseline": baseline, "n_sets": c["n_sets"], "wins": c["wins"], "ties": c["ties"],
                         "losses": c["losses"], "effect": c["hl"]["effect"], "low": c["hl"]["interval"][0],
                         "high": c["hl"]["interval"][1], "p": c["p"], "p_claim": r["p_claim"], "p_holm": r["p_holm"],
                         "family": r["family"], **{f"p_{k}" if not k.startswith("mass") else k: post[k]
                                                   for k in POSTERIOR_KEYS}, "rope": rope})
    return pd.DataFrame(rows)


def _effect_dict(c: Mapping, r: Mapping, metric: str, protocol: Mapping) -> dict:
    hl = c["hl"]
    family = "over the three claims" if r["family"] == "confirmatory" else "within the claim's other comparisons"
    method = (f"{hl['method']} of the per-data-set mean {metric.replace('_', ' ')}; two-sided Wilcoxon "
              f"signed-rank p = {c['p']:.3g} ({c['wins']} wins, {c['ties']} ties, {c['losses']} losses), "
              f"the claim's p {protocol['decision'].get('correction', 'holm').capitalize()}-adjusted {family}: "
              f"{r['p_holm']:.3g}")
    out = {"effect": hl["effect"], "interval": hl["interval"], "p": c["p"], "method": method,
           "posterior": c["posterior"], "decisive": float(protocol["decision"]["decisive"])}
    if protocol["study"].get("edition", 0) >= 4 and r["family"] == "confirmatory":
        out |= {"p_adjusted": r["p_holm"], "alpha": float(protocol["decision"]["alpha"])}
    return out


def claim_effects(scores: pd.DataFrame, protocol: Mapping, metric: str = "accuracy", exclude=(),
                  reading: Mapping | None = None, contrast: str | None = None, n_samples: int | None = None) -> dict:
    """Each claim's comparisons as the verdict engine takes them.

    Returns ``{claim_key: {"comparisons": {comparator: effect dict}}}``, the argument of
    ``SourceCheck.claim(key, comparisons=...)``: the claim's first contrast (:func:`contrasts`;
    from edition 4 the one that isolates the covariance), or ``contrast``. A contrast with
    several comparators must hold against each (:func:`helpers.workbook.verdicts.intersection_union`).
    Each effect dict holds ``effect`` and ``interval`` (Hodges-Lehmann, 95%), ``p`` (the
    comparison's two-sided Wilcoxon p), ``method`` (what was computed, with the counts and the
    adjusted p of the claim), ``posterior`` (a function of the ROPE returning the argmax shares
    and the masses, cached per ROPE, so that the verdicts at half and double the ROPE are
    recomputed from it) and the protocol's decision rule: ``decisive``, and in the confirmatory
    family from edition 4 ``p_adjusted`` and ``alpha`` (a decision needs ``p_adjusted < alpha``).

    Parameters
    ----------
    reading : dict, optional
        ``{claim_key: method}``: a secondary reading instead of the primary one for those
        claims (the others keep their primary reading).
    contrast : {"covariance", "source"}, optional
        The contrast to give; default each claim's first.
    n_samples : int, optional
        Draws of the Bayesian signed-rank posterior; default the protocol's.

    Examples
    --------
    >>> from helpers.studies.generalisation.preregistration import load_protocol
    >>> e = claim_effects(example_scores(), load_protocol(), n_samples=2000)
    >>> c = e["svm.better-than-kernels"]["comparisons"]
    >>> sorted(c), round(c["rbf_svc"]["effect"], 3), c["rbf_svc"]["alpha"]
    (['linear_svc', 'rbf_svc'], 0.021, 0.05)
    """
    claims = claims_of(protocol)
    chosen = {key: c["primary"] for key, c in claims.items()}
    for key, method in dict(reading or {}).items():
        if key not in claims:
            raise ValueError(f"reading names an unknown claim {key!r}; the claims are {sorted(claims)}")
        allowed = [r for r, _ in _readings(claims[key])]
        if method not in allowed:
            raise ValueError(f"{method!r} is not a reading of {key}; its readings are {allowed}")
        chosen[key] = method
    means = _table_means(scores, metric, exclude, protocol)
    return _effects(means, protocol, chosen, metric, n_samples, contrast=contrast)


def _effects(means: pd.DataFrame, protocol: Mapping, chosen: Mapping, metric: str, n_samples: int | None,
             keys=None, contrast: str | None = None) -> dict:
    claims = claims_of(protocol)
    keys = list(claims) if keys is None else keys
    secondary_of = [k for k in keys if chosen[k] != claims[k]["primary"] or contrast is not None]
    results, _ = _evidence(means, protocol, n_samples, secondary_of)
    return _effects_of(results, protocol, chosen, metric, keys, contrast)


def _effects_of(results: Mapping, protocol: Mapping, chosen: Mapping, metric: str, keys, contrast) -> dict:
    claims = claims_of(protocol)
    out = {}
    for key in keys:
        names = list(contrasts(claims[key]))
        name = names[0] if contrast is None else contrast
        if name == "source" and name not in names and set(claims[key]["baselines"]) == set(
                results[key, chosen[key], names[0]]["comparisons"]):
            name = names[0]   # the nested method is a source baseline: one contrast is both
        if name not in names:
            raise ValueError(f"claim {key} has the contrasts {names}, not {name!r}")
        r = results[key, chosen[key], name]
        out[key] = {"comparisons": {b: _effect_dict(c, r, metric, protocol) for b, c in r["comparisons"].items()}}
    return out


def claim_evidence(scores: pd.DataFrame, protocol: Mapping, metric: str = "accuracy", exclude=(),
                   n_samples: int | None = None) -> tuple[pd.DataFrame, dict]:
    """The claims' evidence computed once: :func:`claim_table`'s table, and the primary readings' effect dicts.

    Returns ``(table, effects)`` with ``effects[contrast][claim]`` what :func:`claim_effects`
    gives for that contrast (``"covariance"``, and ``"source"``: for a claim whose nested method
    is a source baseline, its one contrast), from the same posteriors and p-values as the table.

    Examples
    --------
    >>> from helpers.studies.generalisation.preregistration import load_protocol
    >>> table, effects = claim_evidence(example_scores(), load_protocol(), n_samples=2000)
    >>> c = effects["covariance"]["vac.expected-better"]["comparisons"]["scaled_cosine"]
    >>> row = table[(table.claim == "vac.expected-better") & table.primary & (table.baseline == "scaled_cosine")]
    >>> c["effect"] == row.effect.item(), sorted(effects)
    (True, ['covariance', 'source'])
    """
    claims = claims_of(protocol)
    results, rope = _evidence(_table_means(scores, metric, exclude, protocol), protocol, n_samples)
    chosen = {key: c["primary"] for key, c in claims.items()}
    contrasts_used = sorted({name for c in claims.values() for name in contrasts(c)} | {"source"})
    return _table(results, rope), {name: _effects_of(results, protocol, chosen, metric, list(claims), name)
                                   for name in contrasts_used}


def leave_one_out(scores: pd.DataFrame, protocol: Mapping, claim: str, reading: str | None = None,
                  metric: str = "accuracy", exclude=(), n_samples: int | None = None) -> dict:
    """A claim's effect dicts with each data set left out in turn: ``{dropped set: {"comparisons": ...}}``.

    Each value is what :func:`claim_effects` gives for ``claim`` without that data set (and
    without ``exclude``), ready for the verdict engine; counting the verdicts that change shows
    whether one data set carries a claim.

    Examples
    --------
    >>> from helpers.studies.generalisation.preregistration import load_protocol
    >>> loo = leave_one_out(example_scores(), load_protocol(), "vac.expected-better")
    >>> len(loo), min(v["comparisons"]["scaled_cosine"]["interval"][0] for v in loo.values()) > 0
    (12, True)
    """
    claims = claims_of(protocol)
    if claim not in claims:
        raise ValueError(f"unknown claim {claim!r}; the claims are {sorted(claims)}")
    if reading is not None and reading not in [r for r, _ in _readings(claims[claim])]:
        raise ValueError(f"{reading!r} is not a reading of {claim}; its readings are "
                         f"{[r for r, _ in _readings(claims[claim])]}")
    means = _table_means(scores, metric, exclude, protocol)
    if len(means) < 3:
        raise ValueError(f"leaving one of {len(means)} data sets out leaves too few to compare; give at least three")
    chosen = {key: c["primary"] for key, c in claims.items()} | ({claim: reading} if reading else {})
    return {dataset: _effects(means.drop(index=dataset), protocol, chosen, metric, n_samples, [claim])[claim]
            for dataset in means.index}


# --------------------------------------------------------------------------------------------
# what the scores rest on


def flags(scores: pd.DataFrame, datasets: pd.DataFrame, protocol: Mapping, metric: str = "accuracy") -> pd.DataFrame:
    """Per data set: the best mean score, and whether the set is at the ceiling, near chance or the sources' own.

    ``at_ceiling``: the best mean reaches ``protocol["datasets"]["ceiling"]`` (no method can
    gain much); ``near_chance``: the best mean lies within ``near_chance`` of the majority
    class's share (no method learns much); ``own_data``: the set is one the sources used
    (the ``own_data`` column of ``datasets``).

    Examples
    --------
    >>> from helpers.studies.generalisation.preregistration import load_protocol
    >>> f = flags(example_scores(), example_datasets(), load_protocol())
    >>> f[["at_ceiling", "near_chance", "own_data"]].sum().to_dict()
    {'at_ceiling': 1, 'near_chance': 1, 'own_data': 2}
    """
    means = dataset_means(scores, metric)
    need = ("dataset", "majority", "own_data")
    if not isinstance(datasets, pd.DataFrame) or any(c not in datasets.columns for c in need):
        raise ValueError(f"datasets must be the table of data sets with the columns {need}; got "
                         f"{list(getattr(datasets, 'columns', []))}")
    table = datasets.set_index("dataset")
    unknown = sorted(set(means.index) - set(table.index))
    if unknown:
        raise ValueError(f"the data sets {unknown} have scores but no row in the datasets table")
    ceiling, near = protocol["datasets"]["ceiling"], protocol["datasets"]["near_chance"]
    best = means.max(axis=1)
    majority = table.loc[means.index, "majority"].astype(float)
    return pd.DataFrame({"best_method": means.idxmax(axis=1), "best": best, "majority": majority,
                         "at_ceiling": best >= ceiling, "near_chance": best - majority <= near,
                         "own_data": table.loc[means.index, "own_data"].astype(bool)})


def grid_edges(scores: pd.DataFrame) -> pd.DataFrame:
    """Per method and hyper-parameter: how often the chosen value sits on an edge of its grid.

    Read from the ``params`` (the chosen values, JSON) and ``edges`` (the names on an edge,
    JSON) columns: ``fits`` (outer folds where the method chose the parameter), ``on_edge``
    and ``share``, ``low_end`` and ``high_end`` (which end), and ``values``: how often each
    value was chosen. A parameter often on an
    edge says its grid may be too narrow.

    Examples
    --------
    >>> g = grid_edges(example_scores())
    >>> g.loc[("nca", "k")].to_dict()["fits"], int(g.loc[("rbf_svc", "C"), "on_edge"])
    (240, 0)
    """
    missing = [c for c in ("method", "params", "edges") if c not in getattr(scores, "columns", ())]
    if missing:
        raise ValueError(f"the score table lacks the column(s) {missing}")
    rows = {}
    for position, (method, params, edges) in enumerate(scores[["method", "params", "edges"]].itertuples(index=False)):
        try:
            params, edges = json.loads(params or "{}"), set(json.loads(edges or "[]"))
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"row {position} ({method}): params and edges must be JSON text, e.g. "
                             f"'{{\"k\": 5}}' and '[\"k\"]'; got {params!r}, {edges!r} ({exc})") from None
        unknown = edges - set(params)
        if unknown:
            raise ValueError(f"row {position} ({method}): edges names {sorted(unknown)}, not among its chosen "
                             f"parameters {sorted(params)}")
        for name, value in params.items():
            row = rows.setdefault((method, name), {"fits": 0, "on_edge": 0, "values": {}, "edge_values": []})
            row["fits"] += 1
            row["on_edge"] += name in edges
            row["values"][value] = row["values"].get(value, 0) + 1
            if name in edges:
                row["edge_values"].append(value)
    table = pd.DataFrame.from_dict(rows, orient="index")
    columns = ["fits", "on_edge", "share", "low_end", "high_end", "values"]
    if table.empty:
        return pd.DataFrame(columns=columns)
    table.index = table.index.set_names(["method", "parameter"])
    table["share"] = table["on_edge"] / table["fits"]
    # an edge value is the grid's first or last, so the smallest or largest value chosen at all
    table["low_end"] = [sum(v == min(r["values"]) for v in r["edge_values"]) for _, r in table.iterrows()]
    table["high_end"] = table["on_edge"] - table["low_end"]
    table["values"] = [dict(sorted(v.items())) for v in table["values"]]
    return table[columns].sort_index()
