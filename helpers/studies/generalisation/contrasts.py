"""What each part of a reading does, and the claim's own domain (the fourth edition's tables).

* :func:`claim_pairs`: every (claim, primary reading, contrast, comparator) of the protocol, the
  confirmatory contrast first;
* :func:`decomposition`: what scaling alone does (the plain method on scaled rows against it on
  raw rows) and what each covariance adds beyond scaling (every reading against the method it
  nests), beside the source's comparison, on the same folds;
* :func:`reuters_rows`: the Mahal-kNN claim on Reuters-21578 alone, over its outer folds, with
  the Nadeau-Bengio corrected interval.

Nothing here decides a verdict: the effects and posteriors go to the workbook's verdict engine.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ...effects import bayesian_signed_rank, hodges_lehmann, resampled_difference
from ._examples import example_scores  # noqa: F401 (the doctests' tables)
from .evidence import check_scores, claim_table, claims_of, contrasts, dataset_means, drop_sets, posterior_settings

__all__ = ["claim_pairs", "decomposition", "reuters_rows"]


def claim_pairs(protocol: Mapping) -> list[tuple[str, str, str, str]]:
    """``[(claim, primary reading, contrast, comparator), ...]``, each claim's confirmatory contrast first.

    Examples
    --------
    >>> from helpers.studies.generalisation import load_protocol
    >>> claim_pairs(load_protocol())[:2]
    [('vac.expected-better', 'expected_cholesky_cosine', 'covariance', 'scaled_cosine'), \
('vac.expected-better', 'expected_cholesky_cosine', 'source', 'cosine')]
    """
    return [(key, claim["primary"], contrast, comparator) for key, claim in claims_of(protocol).items()
            for contrast, comparators in contrasts(claim).items() for comparator in comparators]


def _row(means: pd.DataFrame, reading: str, comparator: str, rope: float, settings: Mapping) -> dict:
    d = (means[reading] - means[comparator]).to_numpy()
    hl = hodges_lehmann(d)
    post = bayesian_signed_rank(means[reading].to_numpy(), means[comparator].to_numpy(), rope=rope, **settings)
    return {"part": "scaling alone", "reading": reading, "comparator": comparator, "wins": int((d > 0).sum()),
            "losses": int((d < 0).sum()), "effect": hl["effect"], "low": hl["interval"][0], "high": hl["interval"][1],
            **{k: post[k] for k in MASSES}}


MASSES = ("mass_worse", "mass_equivalent", "mass_better")


def decomposition(scores: pd.DataFrame, protocol: Mapping, metric: str = "accuracy", exclude=(),
                  n_samples: int | None = None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Scaling alone, the covariance beyond scaling, and the source's comparison, reading by reading.

    Rows: ``part`` is ``"scaling alone"`` (each pair of the protocol's ``[decomposition]``),
    ``"covariance beyond scaling"`` (every reading of a claim against the method it nests) or
    ``"the source's comparison"`` (every reading against the source's other baselines); then the
    Hodges-Lehmann effect of the per-data-set differences with its 95% interval, the wins and
    losses, and the Bayesian signed-rank posterior masses at the protocol's ROPE. Where the
    nested method is the source's baseline (the linear SVC), the row appears once, as the
    covariance's. The readings' rows are those of ``table`` (:func:`.evidence.claim_table` of the
    same scores, metric and exclusions), computed here when not given; only the scaling rows are new.

    Examples
    --------
    >>> from helpers.studies.generalisation import load_protocol
    >>> t = decomposition(example_scores(), load_protocol(), n_samples=2000)
    >>> t.groupby("part").size().to_dict()
    {'covariance beyond scaling': 9, 'scaling alone': 2, "the source's comparison": 9}
    """
    means = dataset_means(drop_sets(check_scores(scores, metric), exclude), metric)
    rope = float(protocol["decision"]["rope"])
    settings = posterior_settings(protocol, n_samples)
    scaling = pd.DataFrame([_row(means, a, b, rope, settings)
                            for a, b in protocol.get("decomposition", {}).get("scaling", [])])
    table = claim_table(scores, protocol, metric, exclude, n_samples) if table is None else table
    nested = {key: c["nested"] for key, c in claims_of(protocol).items()}
    readings = table.copy()   # one row per claim, reading and comparator, in the claims' order
    readings["part"] = np.where(readings["baseline"] == readings["claim"].map(nested), "covariance beyond scaling",
                                "the source's comparison")
    readings = readings.rename(columns={"baseline": "comparator"})[list(scaling.columns)]
    return pd.concat([scaling, readings], ignore_index=True)


def reuters_rows(scores: pd.DataFrame, protocol: Mapping, metric: str = "accuracy") -> pd.DataFrame:
    """The protocol's ``[reuters]`` comparisons on Reuters-21578 alone: the mean over its outer folds.

    Each row: the mean of the per-fold differences with the Nadeau & Bengio (2003) corrected
    95% interval and p (:func:`helpers.effects.resampled_difference`; the folds share training
    rows, so the plain t interval would be too narrow), the test/train ratio from the folds'
    sizes, and the two methods' mean scores.

    Examples
    --------
    >>> from helpers.studies.generalisation import load_protocol
    >>> s = example_scores().replace({"dataset": {"set02": "reuters"}})
    >>> reuters_rows(s, load_protocol())[["reading", "comparator", "folds"]].values.tolist()[0]
    ['mahalanobis_per_category', 'standardised_euclidean', 20]
    """
    spec = protocol.get("reuters")
    if not spec:
        raise ValueError("the protocol has no [reuters] table (editions before the fourth report Reuters in the pool)")
    scores = check_scores(scores, metric)
    one = scores[scores["dataset"] == spec["dataset"]]
    if one.empty:
        raise ValueError(f"the score table has no rows of {spec['dataset']!r}")
    rows = []
    for reading, comparator in spec["comparisons"]:
        a, b = (one[one["method"] == m].set_index(["repeat", "fold"]).sort_index() for m in (reading, comparator))
        if not a.index.equals(b.index):
            raise ValueError(f"{reading} and {comparator} do not have the same folds of {spec['dataset']!r}")
        ratio = float(np.mean(a["n_test"] / a["n_train"]))
        r = resampled_difference(a[metric].to_numpy(), b[metric].to_numpy(), test_train_ratio=ratio)
        rows.append({"reading": reading, "comparator": comparator, "folds": len(a),
                     "reading score": float(a[metric].mean()), "comparator score": float(b[metric].mean()),
                     "effect": r["effect"], "low": r["interval"][0], "high": r["interval"][1], "p": r["p"],
                     "test/train": ratio})
    return pd.DataFrame(rows)
