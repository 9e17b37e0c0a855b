"""Effect sizes with their 95% intervals, and the posterior of an effect against a ROPE.

A claim that one method beats another is judged on how large the difference is and how
certain, not on a p-value alone (a p-value cannot tell "no difference worth having" from "too
little data to tell"). Each function here returns the estimate of a difference in the claim's
direction (``a - b``), its interval, and what it was computed from:

* :func:`resampled_difference`: the mean difference over resamples of one data set (random
  splits or repeated cross-validation), with the interval of Nadeau & Bengio (2003) that widens
  the naive one for training sets that overlap;
* :func:`paired_bootstrap`: a score difference on one test set (accuracy, micro or macro F1),
  with a BCa interval from resampling the test rows in pairs (:func:`scipy.stats.bootstrap`);
  :func:`bonferroni_effect` widens its interval when the compared setting was picked as the
  best of several on that test set (:func:`bonferroni` gives the level);
* :func:`hodges_lehmann`: the location of paired differences over data sets that the Wilcoxon
  signed-rank test tests (the median of the Walsh averages), with the distribution-free
  interval obtained by inverting the exact test;
* :func:`bayesian_signed_rank`: P(a better), P(practically equivalent), P(b better) over data
  sets for a region of practical equivalence (ROPE), the Bayesian signed-rank test of Benavoli
  et al. (2017) as ``baycomp`` computes it.

The verdict a claim gets from these numbers is decided in one place,
:func:`helpers.workbook.verdicts.effect_verdict`.

References
----------
.. [1] C. Nadeau & Y. Bengio (2003), Inference for the generalization error, Machine Learning
   52, 239-281.
.. [2] J. L. Hodges & E. L. Lehmann (1963), Estimates of location based on rank tests, Ann.
   Math. Statist. 34, 598-611; M. Hollander & D. A. Wolfe (1999), Nonparametric Statistical
   Methods, 2nd ed., section 3.3 (the interval from the Walsh averages).
.. [3] B. Efron (1987), Better bootstrap confidence intervals, JASA 82, 171-185 (BCa).
.. [4] A. Benavoli, G. Corani, J. Demsar & M. Zaffalon (2017), Time for a change: a tutorial for
   comparing multiple classifiers through Bayesian analysis, JMLR 18(77), 1-36.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import special, stats

from ._validation import check_int, check_real
from .evaluation import SCORES, indicator_matrix

__all__ = [
    "bayesian_signed_rank",
    "bonferroni",
    "bonferroni_effect",
    "hodges_lehmann",
    "paired_bootstrap",
    "resampled_difference",
    "signed_rank_null",
]


def _paired(a, b, name_a: str = "a", name_b: str = "b", minimum: int = 2):
    try:
        a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name_a} and {name_b} must be numbers ({exc}).") from None
    if a.shape != b.shape or a.size < minimum:
        raise ValueError(f"{name_a} and {name_b} must be paired scores of equal length >= {minimum}; got shapes "
                         f"{a.shape} and {b.shape}.")
    bad = np.flatnonzero(~(np.isfinite(a) & np.isfinite(b)))
    if bad.size:
        raise ValueError(f"{name_a} or {name_b} is not finite at position {bad[0]} ({bad.size} in all); a failed fit "
                         "leaves NaN: rerun it, or drop that position from both.")
    return a, b


def resampled_difference(scores_a, scores_b, test_train_ratio: float, confidence: float = 0.95) -> dict:
    """Mean of ``a - b`` over resamples, with the corrected interval of Nadeau & Bengio (2003).

    The scores come from the same resamples (random train/test splits, or the folds of repeated
    cross-validation). Their differences are correlated through the overlapping training sets,
    so the standard error is ``sd * sqrt(1/n + n_test/n_train)``, not ``sd / sqrt(n)``; the
    interval uses Student's t on ``n - 1`` degrees of freedom.

    Returns
    -------
    dict with ``effect`` (the mean difference), ``interval`` (low, high), ``p`` (the corrected
    paired t-test of no difference), ``n`` and ``method``.

    Examples
    --------
    >>> r = resampled_difference([0.95, 0.93, 0.96, 0.94], [0.93, 0.93, 0.94, 0.92], test_train_ratio=0.25)
    >>> print(f"{r['effect']:+.4f} [{r['interval'][0]:+.4f}, {r['interval'][1]:+.4f}] p={r['p']:.3f}")
    +0.0150 [-0.0075, +0.0375] p=0.124
    """
    a, b = _paired(scores_a, scores_b, "scores_a", "scores_b")
    ratio = check_real(test_train_ratio, "test_train_ratio", "0.25 for 80:20 splits", low=0)
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    d = a - b
    n, mean, sd = d.size, float(d.mean()), float(d.std(ddof=1))
    se = sd * np.sqrt(1.0 / n + ratio)
    if se == 0:
        low = high = mean
        p = 1.0 if mean == 0 else 0.0
    else:
        half = stats.t.ppf(0.5 + confidence / 2, n - 1) * se
        low, high = mean - half, mean + half
        p = float(2 * stats.t.sf(abs(mean / se), n - 1))
    return {"effect": mean, "interval": (float(low), float(high)), "p": p, "n": int(n),
            "method": f"mean over {n} resamples, Nadeau-Bengio corrected {confidence:.0%} interval "
                      f"(n_test/n_train = {ratio:.3g})"}


def paired_bootstrap(y_true, pred_a, pred_b, score: str = "accuracy", classes=None, confidence: float = 0.95,
                     n_resamples: int = 9999, random_state: int = 0) -> dict:
    """``score(a) - score(b)`` on one test set, with a BCa bootstrap interval over its rows.

    The test rows are resampled with their two predictions together (paired), so the interval
    reflects which rows the two classifiers get right or wrong together. The interval is
    Efron's bias-corrected and accelerated (BCa) one, as :func:`scipy.stats.bootstrap` computes
    it with ``paired=True, method="BCa"`` (a test checks the two agree). Every score of
    :data:`helpers.evaluation.SCORES` is a function of sums over rows (right answers, and per
    category the true positives, predictions and true labels), so a resample is a weighted sum
    of those rows and the jackknife leaves one row out of the totals: time linear in the rows,
    where the generic jackknife is quadratic.

    Parameters
    ----------
    y_true, pred_a, pred_b : labels (1-D) or indicator matrices (2-D), one row per test row
    score : str
        One of :data:`helpers.evaluation.SCORES` (``"accuracy"``, ``"micro_f1"``, ...).
    classes : sequence, optional
        The categories averaged over (as :func:`helpers.evaluation.prf_scores`).

    Returns
    -------
    dict with ``effect``, ``interval`` (low, high), ``n`` and ``method``.

    Examples
    --------
    Classifier a is right on 40 of 50 rows, b on 30:

    >>> y = np.zeros(50, dtype=int)
    >>> a = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]
    >>> b = np.r_[np.zeros(30, dtype=int), np.ones(20, dtype=int)]
    >>> r = paired_bootstrap(y, a, b, classes=[0, 1], n_resamples=999)
    >>> print(f"{r['effect']:+.2f} [{r['interval'][0]:+.2f}, {r['interval'][1]:+.2f}]")
    +0.20 [+0.12, +0.34]
    """
    if score not in SCORES:
        raise ValueError(f"score must be one of {SCORES}; got {score!r}.")
    y_true, pred_a, pred_b = np.asarray(y_true), np.asarray(pred_a), np.asarray(pred_b)
    if not (y_true.shape == pred_a.shape == pred_b.shape) or len(y_true) < 2:
        raise ValueError(f"y_true, pred_a and pred_b must have one row per test row, at least two; got shapes "
                         f"{y_true.shape}, {pred_a.shape}, {pred_b.shape}.")
    n_resamples = check_int(n_resamples, "n_resamples", 99, "n_resamples=9999")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, np.union1d(pred_a, pred_b))
    T, A, B = (indicator_matrix(v, classes) for v in (y_true, pred_a, pred_b))
    rows = _row_counts(T, A, B)                    # (n, m): what every score sums over the rows
    n = len(rows)

    def difference(sums):                          # sums: (..., m) -> score(a) - score(b)
        return _score_of_sums(sums, score, T.shape[1])

    total = rows.sum(axis=0)
    effect = float(difference(total))
    rng = np.random.default_rng(random_state)
    boot = np.empty(n_resamples)
    batch = max(1, 4_000_000 // n)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        picks = rng.integers(0, n, (size, n))     # the rows of each resample, as scipy.stats.bootstrap draws them
        weights = np.bincount((np.arange(size)[:, None] * n + picks).ravel(), minlength=size * n).reshape(size, n)
        boot[start:start + size] = difference(weights @ rows)
    low, high = _bca(boot, effect, difference(total - rows), confidence)
    return {"effect": effect, "interval": (low, high), "n": int(n),
            "method": f"{score} difference on {n} test rows, paired BCa bootstrap {confidence:.0%} interval "
                      f"({n_resamples} resamples)"}



def bonferroni(looks: int, confidence: float = 0.95) -> float:
    """The confidence level of each of ``looks`` intervals so that all hold together at ``confidence``.

    An interval for a setting picked as the best of ``looks`` on the test set keeps its coverage
    when it is one of simultaneous intervals (Bonferroni): ``1 - (1 - confidence) / looks``.

    Examples
    --------
    >>> round(bonferroni(10), 4), bonferroni(1)
    (0.995, 0.95)
    """
    looks = check_int(looks, "looks", 1, "looks=9 (the settings the best was picked from)")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    return 1 - (1 - confidence) / looks


def bonferroni_effect(y_true, pred, reference, looks: int, what: str = "settings", **options) -> dict:
    """:func:`paired_bootstrap` with the Bonferroni interval for the best of ``looks`` settings.

    The method names the level (e.g. 99.44% for 9 looks) and why: the compared setting was
    picked as the best of ``looks`` on the test set, and only intervals that hold for all of
    them at once keep 95% coverage after that choice. ``options`` go to :func:`paired_bootstrap`.

    Examples
    --------
    >>> y = np.zeros(60, dtype=int)
    >>> right = lambda n: np.r_[np.zeros(n, dtype=int), np.ones(60 - n, dtype=int)]  # noqa: E731
    >>> e = bonferroni_effect(y, right(50), right(40), 9, "sizes", classes=[0, 1], n_resamples=999)
    >>> print(f"{e['effect']:+.3f} [{e['interval'][0]:+.3f}, {e['interval'][1]:+.3f}]")
    +0.167 [+0.067, +0.341]
    >>> e["method"][-95:]
    '99.44% interval (999 resamples); Bonferroni over 9 sizes, of which the best is the one compared'
    """
    confidence = bonferroni(looks)
    effect = paired_bootstrap(y_true, pred, reference, confidence=confidence, **options)
    effect["method"] = (effect["method"].replace(f"{confidence:.0%} interval", f"{100 * confidence:.4g}% interval")
                        + (f"; Bonferroni over {looks} {what}, of which the best is the one compared" if looks > 1
                           else ""))
    return effect

def _row_counts(T, A, B) -> np.ndarray:
    """Per test row: 1, a exactly right, b exactly right, then per category a's TP, a's predictions,
    b's TP, b's predictions and the true labels; a score of either is a function of their sums."""
    T, A, B = (np.asarray(m, dtype=bool) for m in (T, A, B))
    exact = [np.all(P == T, axis=1)[:, None] for P in (A, B)]
    return np.hstack([np.ones((len(T), 1)), *exact, A & T, A, B & T, B, T]).astype(np.float64)


def _score_of_sums(sums, score: str, n_classes: int):
    """score(a) - score(b) from summed :func:`_row_counts` (any leading batch dimensions)."""
    c = n_classes
    ones, exact_a, exact_b = sums[..., 0], sums[..., 1], sums[..., 2]
    tp_a, pp_a, tp_b, pp_b, tt = (sums[..., 3 + i * c:3 + (i + 1) * c] for i in range(5))
    if score == "accuracy":
        return (exact_a - exact_b) / ones
    kind, measure = score.split("_")
    with np.errstate(divide="ignore", invalid="ignore"):
        def one(tp, pp):
            if kind == "micro":
                tp, pp_, tt_ = tp.sum(-1), pp.sum(-1), tt.sum(-1)
            else:
                pp_, tt_ = pp, tt
            value = {"precision": tp / pp_, "recall": tp / tt_, "f1": 2 * tp / (pp_ + tt_)}[measure]
            value = np.nan_to_num(value)
            return value if kind == "micro" else value.mean(-1)
        return one(tp_a, pp_a) - one(tp_b, pp_b)


def _bca(boot: np.ndarray, estimate: float, jackknife: np.ndarray, confidence: float) -> tuple[float, float]:
    """Efron's BCa interval from bootstrap replicates and leave-one-out values, as scipy computes it.

    When every replicate is equal the interval is the estimate itself; when the correction is
    undefined, the percentile interval. In the rare case that the interval misses the estimate
    (a very skewed bootstrap distribution), it is widened to reach it.
    """
    if np.ptp(boot) == 0:
        return estimate, estimate
    alpha = (1 - confidence) / 2
    z0 = special.ndtri((np.sum(boot < estimate) + np.sum(boot <= estimate)) / (2 * boot.size))  # ties count half
    dev = jackknife.mean() - jackknife
    den = 6.0 * np.sum(dev**2) ** 1.5
    accel = np.sum(dev**3) / den if den > 0 else 0.0
    levels = []
    for z in (special.ndtri(alpha), special.ndtri(1 - alpha)):
        levels.append(special.ndtr(z0 + (z0 + z) / (1 - accel * (z0 + z))))
    if not np.all(np.isfinite(levels)):
        levels = [alpha, 1 - alpha]
    low, high = np.percentile(boot, 100 * np.asarray(levels))
    return float(min(low, estimate)), float(max(high, estimate))


def signed_rank_null(n: int) -> np.ndarray:
    """The exact null distribution of the Wilcoxon signed-rank statistic ``W+`` for ``n`` differences.

    ``out[w]`` is P(W+ = w) when each rank 1..n is counted with probability 1/2 (no ties).

    Examples
    --------
    >>> signed_rank_null(3).tolist()     # 2^3 sign patterns: sums 0, 1, 2, 3, 3, 4, 5, 6
    [0.125, 0.125, 0.125, 0.25, 0.125, 0.125, 0.125]
    """
    n = check_int(n, "n", 1, "n=20")
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    return counts / 2.0**n


def hodges_lehmann(differences, confidence: float = 0.95) -> dict:
    """The Hodges-Lehmann estimate of paired differences and its distribution-free interval.

    The estimate is the median of the Walsh averages ``(d_i + d_j) / 2`` (``i <= j``), the
    location that the Wilcoxon signed-rank test tests. The interval is the set of shifts the
    exact two-sided signed-rank test does not reject: the ``k``-th smallest and ``k``-th largest
    Walsh averages, with ``k`` the largest count such that ``P(W+ < k) <= (1 - confidence) / 2``
    under :func:`signed_rank_null`. Every difference counts (zeros too); ties among their
    absolute values make the interval approximate.

    Returns
    -------
    dict with ``effect``, ``interval`` (low, high), ``n``, ``coverage`` (the exact coverage of
    the interval, at least ``confidence`` unless ``n`` is too small to reach it) and ``method``.

    Examples
    --------
    >>> r = hodges_lehmann([0.02, 0.01, 0.04, 0.05, 0.01, 0.05, -0.01, 0.03])
    >>> print(f"{r['effect']:+.3f} [{r['interval'][0]:+.3f}, {r['interval'][1]:+.3f}] {r['coverage']:.3f}")
    +0.025 [+0.005, +0.045] 0.961
    """
    d = np.asarray(differences, dtype=float).ravel()
    if d.size < 2 or not np.isfinite(d).all():
        raise ValueError(f"differences must be at least two finite numbers (one per data set); got {differences!r}.")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    n = d.size
    i, j = np.triu_indices(n)
    walsh = np.sort((d[i] + d[j]) / 2.0)
    null = signed_rank_null(n)
    cdf = np.cumsum(null)            # P(W+ <= w)
    alpha_half = (1.0 - confidence) / 2
    k = int(np.searchsorted(cdf, alpha_half, side="right"))   # P(W+ <= k - 1) <= alpha/2 < P(W+ <= k)
    if k == 0:  # too few data sets: even the widest interval (the extreme Walsh averages) falls short
        low, high, coverage = walsh[0], walsh[-1], 1.0 - 2 * null[0]
    else:
        low, high, coverage = walsh[k - 1], walsh[-k], 1.0 - 2 * cdf[k - 1]
    return {"effect": float(np.median(walsh)), "interval": (float(low), float(high)), "n": int(n),
            "coverage": float(coverage),
            "method": f"Hodges-Lehmann estimate over {n} data sets, {coverage:.1%} interval from the exact "
                      "signed-rank test"}


@functools.lru_cache(maxsize=2)
def _dirichlet_draws(size: int, prior: float, random_state: int, n_samples: int) -> np.ndarray:
    """baycomp's Dirichlet weights: they depend on the number of data sets only, so comparisons over
    the same sets (every baseline, reading and ROPE of a claim) share one read-only draw."""
    weights = np.ones(size)
    weights[0] = prior
    draws = np.random.RandomState(random_state).dirichlet(weights, n_samples)
    draws.setflags(write=False)
    return draws


def _signed_rank_probabilities(a, b, rope: float, random_state: int, n_samples: int, prior: float = 0.5):
    """``baycomp.SignedRankTest.probs(a, b, rope)`` with its loop over posterior draws done as matrix products.

    baycomp draws the Dirichlet weights ``w`` of the differences ``b - a`` (the prior
    pseudo-observation at zero first, with weight ``prior``) in one call of a seeded
    ``RandomState``, then loops in Python over the draws, computing ``w' M w`` for the matrix
    ``M`` of the Walsh sums beyond the ROPE (0.5 where a sum sits on its edge), and counts which
    of left, ROPE and right is largest in each draw. The same draws and the same sums here, in
    blocks of draws, are about nine times faster, and forty times when the weights of the same
    number of data sets are drawn again (they are kept); the counts agree with baycomp's (tested).
    """
    diff = np.concatenate(([0.0], b - a))
    sums = diff[:, None] + diff[None, :]
    draws = _dirichlet_draws(diff.size, prior, random_state, n_samples)

    def heaviside(m, threshold):
        return (m > threshold).astype(float) + 0.5 * (m == threshold).astype(float)

    def quadratic(matrix):
        block = max(1, 2**21 // diff.size)   # a few MiB of products at a time, whatever the number of sets
        return np.concatenate([np.einsum("ij,ij->i", w @ matrix, w) for w in
                               (draws[i:i + block] for i in range(0, n_samples, block))])

    samples = np.zeros((n_samples, 3))
    if rope > 0:
        samples[:, 0] = quadratic(heaviside(-sums, 2 * rope))
        samples[:, 2] = quadratic(heaviside(sums, 2 * rope))
        samples[:, 1] = -samples[:, 0] - samples[:, 2] + 1
    else:
        samples[:, 2] = quadratic(heaviside(sums, 0))
        samples[:, 0] = -samples[:, 2] + 1
    shares = np.bincount(np.argmax(samples, axis=1), minlength=3) / n_samples
    return (*shares, *samples.mean(axis=0))


def bayesian_signed_rank(scores_a, scores_b, rope: float, random_state: int = 0, n_samples: int = 50_000,
                         prior: float = 0.5) -> dict:
    """The Bayesian signed-rank posterior over data sets of a better, practically equivalent or worse than b.

    The Bayesian signed-rank test of Benavoli et al. (2017) on the paired per-data-set scores,
    as ``baycomp.SignedRankTest`` computes it (a Dirichlet process over the differences, with
    the prior pseudo-observation at zero of weight ``prior``, baycomp's default 0.5): the same
    seeded draws, with baycomp's loop over them done as matrix products (the probabilities
    agree with baycomp's; about nine times faster). ``rope=0`` gives P(equivalent) = 0.

    Each posterior draw gives the probabilities of the three regions, ``theta``. Two summaries:

    * the **argmax shares** ``better``, ``equivalent``, ``worse``: the share of draws in which
      that region is the most probable one. This is what ``baycomp``'s ``probs()`` returns and
      what Benavoli et al. call P(a > b); it is not the probability that a difference is better;
    * the **posterior masses** ``mass_better``, ``mass_equivalent``, ``mass_worse``: the
      posterior mean of ``theta``, the probability that the difference on a data set like these
      lies in that region.

    Returns
    -------
    dict with ``better`` (the share of draws in which a - b > rope is the most probable region),
    ``equivalent`` (|a - b| <= rope), ``worse`` (a - b < -rope), summing to 1; the three masses,
    summing to 1; and ``rope``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.uniform(0.7, 0.9, 20)
    >>> r = bayesian_signed_rank(a + 0.05, a, rope=0.01)
    >>> print(f"{r['better']:.2f} {r['equivalent']:.2f} {r['worse']:.2f}")
    1.00 0.00 0.00
    >>> r = bayesian_signed_rank(a + rng.normal(0.005, 0.02, 20), a, rope=0.01)
    >>> print(f"shares {r['better']:.2f} {r['equivalent']:.2f}; masses {r['mass_better']:.2f} "
    ...       f"{r['mass_equivalent']:.2f}")
    shares 0.11 0.89; masses 0.34 0.62
    """
    a, b = _paired(scores_a, scores_b, "scores_a", "scores_b")
    rope = check_real(rope, "rope", "0.01 (one accuracy point)", low=0)
    n_samples = check_int(n_samples, "n_samples", 1000, "n_samples=50000")
    prior = check_real(prior, "prior", "0.5 (baycomp's default)", low=0, closed="neither")
    left, equivalent, right, *masses = _signed_rank_probabilities(a, b, rope, random_state, n_samples, prior)
    return {"better": float(left), "equivalent": float(equivalent), "worse": float(right),
            "mass_better": float(masses[0]), "mass_equivalent": float(masses[1]), "mass_worse": float(masses[2]),
            "rope": float(rope)}
