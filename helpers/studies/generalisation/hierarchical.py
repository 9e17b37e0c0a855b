"""The hierarchical Bayesian model of Corani et al. (2017) over the study's per-fold differences (it needs pystan).

:func:`hierarchical_posterior` takes two methods' folds from the score table and fits the
library's seeded model (:func:`helpers.hierarchical.hierarchical_test`): the probabilities for a
new data set (predictive probabilities and argmax shares) with the model's convergence
diagnostics. Descriptive: no verdict rests on it.
"""

from __future__ import annotations

import pandas as pd

from ...hierarchical import hierarchical_test
from ._examples import example_scores  # noqa: F401 (the doctests' tables)
from .evidence import check_scores, dataset_means, drop_sets

__all__ = ["hierarchical_posterior"]


def _fold_matrix(scores: pd.DataFrame, method: str, metric: str) -> pd.DataFrame:
    table = scores[scores["method"] == method].pivot(index="dataset", columns=["repeat", "fold"], values=metric)
    return table.sort_index().sort_index(axis=1)


def hierarchical_posterior(scores: pd.DataFrame, reading: str, baseline: str, rope, *, metric: str = "accuracy",
                           exclude=(), n_samples: int = 2000, chains: int = 4, random_state: int = 0):
    """The difference ``reading - baseline`` on a new data set, from the hierarchical model over the fold differences.

    :func:`helpers.hierarchical.hierarchical_test` on the two methods' scores, one row per data
    set (in name order) and one column per (repeat, fold), with the table's repeats as baycomp's
    ``runs``; ``exclude`` leaves data sets out. ``rope``, ``n_samples``, ``chains`` and
    ``random_state`` are the model's.

    Returns
    -------
    dict
        For one ROPE the argmax shares (``better``, ``equivalent``, ``worse``), the predictive
        probabilities (``predictive_*``) and the diagnostics; for several, ``{rope: that dict}``.

    Examples
    --------
    >>> p = hierarchical_posterior(example_scores(), "expected_cholesky_cosine", "cosine", 0.01,
    ...                            n_samples=500)   # doctest: +SKIP
    >>> p["better"] > 0.95   # doctest: +SKIP
    True
    """
    scores = drop_sets(check_scores(scores, metric, methods=(reading, baseline)), exclude)
    dataset_means(scores, metric)  # every method on every fold
    x, y = _fold_matrix(scores, baseline, metric), _fold_matrix(scores, reading, metric)
    return hierarchical_test(x.to_numpy(), y.to_numpy(), rope, runs=scores["repeat"].nunique(), n_samples=n_samples,
                             chains=chains, random_state=random_state)
