"""Rank-based effects with their intervals on one test set: an AUC and a trend over training sizes.

Each function returns the dict that :meth:`helpers.workbook.checks.SourceCheck.claim` takes as
``effect`` (``effect``, ``interval``, ``method`` and, where there is one, ``p``), with the effect
in the claim's direction (``> 0`` favours it):

* :func:`auc_effect`: the area under the ROC curve of a score for telling two groups of test
  rows apart (e.g. right and wrong predictions), minus 0.5, with a BCa bootstrap interval and
  the Mann-Whitney test;
* :func:`trend_effect`: Spearman's rank correlation of accuracy (or of the error reduction
  against a reference) with the number of training rows, with a percentile interval from
  resampling the test rows.

Both resample the test rows in batches of vectorised rank statistics (:func:`scipy.stats.rankdata`
along an axis), so thousands of resamples of thousands of rows take a fraction of a second.
Score differences of two classifiers on one test set are in :mod:`helpers.effects`.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from ._validation import check_int, check_real

__all__ = ["auc_effect", "trend_effect"]


def _auc(scores, positive, axis=-1):
    """Area under the ROC curve of ``scores`` for ``positive`` rows (Mann-Whitney, ties counted half), batched."""
    ranks = stats.rankdata(scores, axis=axis)
    n_pos = positive.sum(axis=axis)
    n_neg = positive.shape[axis] - n_pos
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((ranks * positive).sum(axis=axis) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def auc_effect(scores, positive, n_resamples: int = 1999, random_state: int = 0, confidence: float = 0.95) -> dict:
    """How well ``scores`` tell the ``positive`` rows from the others: AUC - 0.5, with a BCa bootstrap interval.

    The AUC is the probability that a random positive row scores higher than a random other
    row (ties count one half): 0.5 is no information, 1 a perfect ordering. The rows are
    resampled with their labels (:func:`scipy.stats.bootstrap`, paired).

    Parameters
    ----------
    scores : 1-D array
        E.g. the largest class probability of each test row.
    positive : 1-D bool array
        E.g. whether its prediction is right.

    Returns
    -------
    dict
        ``effect`` (AUC - 0.5), ``interval`` (of AUC - 0.5), ``auc``, ``p`` (two-sided
        Mann-Whitney test of AUC = 0.5) and ``method``.

    Examples
    --------
    >>> s = np.r_[np.linspace(0.3, 0.9, 30), np.linspace(0.2, 0.6, 30)]
    >>> r = auc_effect(s, np.r_[np.ones(30, bool), np.zeros(30, bool)], n_resamples=999)
    >>> print(f"AUC {r['auc']:.3f}; AUC - 0.5 = {r['effect']:+.3f} [{r['interval'][0]:+.3f}, {r['interval'][1]:+.3f}]")
    AUC 0.804; AUC - 0.5 = +0.304 [+0.179, +0.400]
    """
    scores, positive = np.asarray(scores, dtype=float).ravel(), np.asarray(positive).ravel()
    if scores.shape != positive.shape or positive.dtype != bool:
        raise ValueError(f"scores and positive must be 1-D of one length, positive boolean; got shapes {scores.shape} "
                         f"and {positive.shape}, dtype {positive.dtype}.")
    if not np.isfinite(scores).all():
        raise ValueError("scores must be finite numbers")
    if positive.all() or not positive.any():
        raise ValueError(f"the AUC needs rows of both groups; got {int(positive.sum())} positive of {positive.size}.")
    n_resamples = check_int(n_resamples, "n_resamples", 99, "n_resamples=1999")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    auc = float(_auc(scores, positive))
    rows = np.arange(scores.size)

    def statistic(idx, axis=-1):
        return _auc(scores[idx], positive[idx], axis=-1) - 0.5

    with warnings.catch_warnings():  # every resample alike (a perfect ordering): no BCa interval, the estimate
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning)
        res = stats.bootstrap((rows,), statistic, vectorized=True, paired=True, confidence_level=confidence,
                              n_resamples=n_resamples, method="BCa", rng=np.random.default_rng(random_state),
                              batch=max(1, 2_000_000 // scores.size))
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (np.isfinite(low) and np.isfinite(high)):
        low = high = auc - 0.5
    p = float(stats.mannwhitneyu(scores[positive], scores[~positive], alternative="two-sided").pvalue)
    return {"effect": auc - 0.5, "interval": (low, high), "auc": auc, "p": p, "n": int(scores.size),
            "method": f"AUC - 0.5 on {scores.size} test rows, BCa bootstrap {confidence:.0%} interval "
                      f"({n_resamples} resamples); Mann-Whitney p = {p:.2g}"}


def _spearman(x, y, axis=-1):
    """Spearman's rank correlation of a fixed ``x`` with each row of ``y`` (average ranks for ties)."""
    rx = stats.rankdata(x)
    ry = stats.rankdata(y, axis=axis)
    rx, ry = rx - rx.mean(), ry - ry.mean(axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (ry * rx).sum(axis=axis) / np.sqrt((rx**2).sum() * (ry**2).sum(axis=axis))


def trend_effect(y_true, predictions, sizes, reference=None, n_resamples: int = 1999, random_state: int = 0,
                 confidence: float = 0.95) -> dict:
    """Spearman's correlation of accuracy (or of the error reduction) with the training size, and its interval.

    Parameters
    ----------
    y_true : labels of the test rows (documents)
    predictions : list of arrays
        The test predictions at each training size, in the order of ``sizes``.
    sizes : list of numbers
        The training sizes (at least three).
    reference : list of arrays, optional
        A reference classifier's predictions at the same sizes: the correlation is then that of
        the error reduction ``(CE_ref - CE) / CE_ref`` with the sizes, not of the accuracy.

    Returns
    -------
    dict
        ``effect`` (Spearman's rho on the test set), ``interval`` (2.5th and 97.5th
        percentiles of rho when the test rows are resampled, the same rows at every
        size), ``values`` (the accuracies or reductions) and ``method``. The interval reflects
        the test rows only: each size is one draw of training rows. ``method`` speaks of
        documents (the text classification it was written for).

    Examples
    --------
    >>> y = np.zeros(200, dtype=int)
    >>> preds = [np.where(np.arange(200) < n, 0, 1) for n in (120, 150, 170, 190)]
    >>> r = trend_effect(y, preds, [10, 20, 40, 80], n_resamples=999)
    >>> r["effect"], r["interval"], [round(v, 3) for v in r["values"]]
    (1.0, (1.0, 1.0), [0.6, 0.75, 0.85, 0.95])
    """
    y_true = np.asarray(y_true)
    sizes = np.asarray(sizes, dtype=float)
    if sizes.ndim != 1 or sizes.size < 3 or len(predictions) != sizes.size:
        raise ValueError(f"give one array of test predictions per training size, at least three sizes; got "
                         f"{len(predictions)} predictions for {sizes.size} sizes.")
    if reference is not None and len(reference) != sizes.size:
        raise ValueError(f"reference needs one array of predictions per size ({sizes.size}); got {len(reference)}.")
    n_resamples = check_int(n_resamples, "n_resamples", 99, "n_resamples=1999")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    right = np.stack([np.asarray(p) == y_true for p in predictions], axis=-1).astype(float)  # (n, sizes)
    ref = None if reference is None else np.stack([np.asarray(p) == y_true for p in reference], axis=-1).astype(float)

    def values(rows):  # (..., sizes): accuracy, or the error reduction against the reference
        acc = right[rows].mean(axis=-2)
        if ref is None:
            return acc
        err_ref = 1 - ref[rows].mean(axis=-2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (err_ref - (1 - acc)) / err_ref

    observed = values(np.arange(len(y_true)))
    rho = float(_spearman(sizes, observed))
    rng = np.random.default_rng(random_state)
    rhos = []
    for start in range(0, n_resamples, 500):  # batches of resampled test sets
        idx = rng.integers(0, len(y_true), size=(min(500, n_resamples - start), len(y_true)))
        rhos.append(_spearman(sizes, values(idx)))
    rhos = np.concatenate(rhos)
    rhos = rhos[np.isfinite(rhos)]  # a resample with every value tied has no rank correlation
    if not rhos.size or not np.isfinite(rho):
        raise ValueError(f"the {'error reduction' if ref is not None else 'accuracy'} is the same at every one of the "
                         f"{sizes.size} training sizes ({[round(float(v), 4) for v in observed]}), so it has no rank "
                         "correlation with them: a trend needs values that differ (more test documents, or sizes "
                         "further apart)")
    tail = (1 - confidence) / 2
    low, high = (float(v) for v in np.quantile(rhos, [tail, 1 - tail]))
    what = "error reduction against the reference" if ref is not None else "accuracy"
    method = (f"Spearman's rho of {what} with the {sizes.size} training sizes; percentile {confidence:.0%} interval "
              f"from {n_resamples} resamples of the {len(y_true)} test documents (each size is one draw of training "
              "documents, whose variation it does not include)")
    if not low <= rho <= high:  # rho takes few values on a few sizes: the percentiles can miss the estimate
        low, high = min(low, rho), max(high, rho)
        method += "; the interval is widened to the estimate, which its percentiles leave out"
    return {"effect": rho, "interval": (low, high), "values": [float(v) for v in observed], "method": method}
