"""The Bayesian hierarchical model of Corani et al. (2017) over per-fold differences, seeded (it needs pystan).

:func:`hierarchical_test` fits ``baycomp.HierarchicalTest`` (Stan through pystan) to two
methods' scores on the folds of several data sets, seeded and in a temporary directory, and
reports the probabilities for a new data set (predictive probabilities and argmax shares) with
the model's convergence diagnostics (arviz-stats).

References
----------
.. [1] G. Corani, A. Benavoli, J. Demsar, F. Mangili & M. Zaffalon (2017), Statistical comparison of
   classifiers through Bayesian hierarchical modelling, Machine Learning 106, 1817-1837.
"""

from __future__ import annotations

import contextlib
import tempfile
from unittest import mock

import numpy as np

from ._validation import check_int, check_real

__all__ = ["HIERARCHICAL_PARAMETERS", "hierarchical_test"]

#: the model's parameters whose convergence is reported: the location, scale and degrees of
#: freedom of the distribution of data-set means, on which the probabilities rest
HIERARCHICAL_PARAMETERS = ("delta0", "std0", "nu")


def _check_folds(x, y) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.ndim != 2 or x.shape != y.shape:
        raise ValueError(f"x and y must be scores of the same shape (data sets, folds); got {x.shape} and {y.shape}.")
    if len(x) < 2:
        raise ValueError(f"the hierarchical model needs at least two data sets; {len(x)} given")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("x and y must be finite scores: every method on every fold of every data set.")
    return x, y


def hierarchical_test(x, y, rope, runs: int = 1, n_samples: int = 2000, chains: int = 4, random_state: int = 0):
    """The difference ``y - x`` on a new data set, from the hierarchical model over the per-fold differences.

    The Bayesian hierarchical model of Corani et al. (2017) as ``baycomp.HierarchicalTest``
    fits it: each data set's per-fold differences are Student-t with the correlation
    ``1 / folds`` of cross-validation, their means drawn from a common Student-t whose location,
    scale and degrees of freedom are sampled (Stan, NUTS). Each posterior draw gives the
    probabilities that the difference on a new data set lies above ``rope``, inside
    ``[-rope, rope]`` or below ``-rope``. Two summaries: ``predictive_better``,
    ``predictive_equivalent``, ``predictive_worse``, their posterior means (the predictive
    probabilities for a new data set), and ``better``, ``equivalent``, ``worse``, baycomp's
    ``probs()``: the share of draws in which that region is the most probable. With arviz-stats
    installed, ``rhat`` (the largest rank-normalised split R-hat) and ``ess_bulk`` (the smallest
    bulk effective sample size) of :data:`HIERARCHICAL_PARAMETERS`.

    baycomp does not seed Stan and caches its last sample in a file in the working directory;
    here Stan is seeded with ``random_state``, so is the noise baycomp adds to a data set whose
    fold differences are all equal (its ``random_state``), and baycomp runs in a temporary
    directory, so the result is reproducible and no file is left behind. Several ROPEs reuse one sample.

    Parameters
    ----------
    x, y : array-like of shape (n_datasets, n_folds)
        The baseline's and the compared method's scores, fold by fold ("better" favours ``y``).
    rope : float or sequence of float
        The half-width(s) of the region of practical equivalence.
    runs : int
        Repetitions of the cross-validation among the folds (baycomp's ``runs``).
    n_samples, chains : int
        Posterior draws per chain (after as many warm-up draws as Stan's default, 1000) and
        chains; baycomp's defaults are 10000 and 4.
    random_state : int
        Stan's seed.

    Returns
    -------
    dict
        For one ROPE the argmax shares, the predictive probabilities and the diagnostics; for
        several, ``{rope: that dict}``.

    Raises
    ------
    ImportError
        Without pystan (``import stan``): the hierarchical model needs pystan >= 3.4.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.uniform(0.7, 0.9, size=(8, 10))
    >>> p = hierarchical_test(x, x + 0.05, 0.01, n_samples=500)   # doctest: +SKIP
    >>> p["predictive_better"] > 0.9   # doctest: +SKIP
    True
    """
    try:
        import stan
        from baycomp import HierarchicalTest
    except ImportError:
        raise ImportError("the hierarchical model needs pystan >= 3.4 (Stan through httpstan) and baycomp: "
                          "pip install pystan baycomp") from None
    ropes = [rope] if np.isscalar(rope) else list(rope)
    ropes = [check_real(r, "rope", "0.01 (one accuracy point)", low=0, closed="neither") for r in ropes]
    runs = check_int(runs, "runs", 1, "runs=1")
    n_samples = check_int(n_samples, "n_samples", 100, "n_samples=2000")
    chains = check_int(chains, "chains", 1, "chains=4")
    random_state = check_int(random_state, "random_state", 0, "random_state=0")
    x, y = _check_folds(x, y)
    fits = []
    build = stan.build

    def seeded(*args, **kwargs):   # Stan's seed must be positive; the fit is kept for its diagnostics
        model = build(*args, random_seed=random_state + 1, **kwargs)
        sample = model.sample

        def recording(**options):
            fits.append(sample(**options))
            return fits[-1]

        object.__setattr__(model, "sample", recording)   # pystan's Model is a frozen dataclass
        return model

    out = {}
    with tempfile.TemporaryDirectory() as where, contextlib.chdir(where), mock.patch.object(stan, "build", seeded):
        for r in ropes:   # the second ROPE on reads baycomp's cached sample of the same differences
            sample = HierarchicalTest.sample(x, y, r, runs=runs, chains=chains, nsamples=n_samples,
                                             random_state=random_state)
            worse, equivalent, better = np.bincount(np.argmax(sample, axis=1), minlength=3) / len(sample)
            predictive = sample.mean(axis=0)
            out[r] = {"better": float(better), "equivalent": float(equivalent), "worse": float(worse),
                      "predictive_better": float(predictive[2]), "predictive_equivalent": float(predictive[1]),
                      "predictive_worse": float(predictive[0]), **_diagnostics(fits[0] if fits else None, chains)}
    return out[ropes[0]] if np.isscalar(rope) else out


def _diagnostics(fit, chains: int) -> dict:
    """The largest rank-normalised split R-hat and the smallest bulk ESS over :data:`HIERARCHICAL_PARAMETERS`.

    Computed by arviz-stats from the fit's draws, chain by chain (pystan keeps each chain's
    draws together); ``{}`` without a fit or without arviz-stats.
    """
    try:
        from arviz_stats.base import array_stats
    except ImportError:
        return {}
    if fit is None:
        return {}
    rhat, ess = [], []
    for name in HIERARCHICAL_PARAMETERS:
        draws = np.asarray(fit[name], dtype=float).reshape(chains, -1)
        rhat.append(float(array_stats.rhat(draws, chain_axis=0, draw_axis=1)))
        ess.append(float(array_stats.ess(draws, chain_axis=0, draw_axis=1, method="bulk")))
    return {"rhat": max(rhat), "ess_bulk": min(ess)}
