"""Significance tests and intervals for comparing classifiers, on one data set or over many.

On one data set, over resamples of it:

* :func:`summarize_scores`: mean, sd and a 95% interval per model, with the correction of
  Nadeau & Bengio (2003) for resamples that share training rows;
* :func:`corrected_paired_ttest` and :func:`compare_pairs`: the corrected resampled t-test of
  two models on the same splits.

On one test set, paired by test row:

* :func:`mcnemar_exact`: exact McNemar test of two classifiers' errors;
* :func:`paired_permutation_test` and :func:`paired_comparisons`: approximate randomisation for
  scores that are not sums over rows (micro and macro F1).

Over several data sets (Demsar 2006):

* :func:`critical_difference`: autorank's Friedman test and Nemenyi critical difference, whose
  result gives :func:`average_ranks` and :func:`friedman_test` (with Iman & Davenport's F);
* :func:`signed_rank_test`: the Wilcoxon signed-rank test of paired per-data-set scores;
* :func:`holm`: Holm's step-down adjustment (statsmodels' ``multipletests``).

References
----------
.. [1] C. Nadeau & Y. Bengio (2003), Inference for the generalization error, Machine Learning
   52, 239-281 (the corrected resampled t-test).
.. [2] Q. McNemar (1947), Note on the sampling error of the difference between correlated
   proportions or percentages, Psychometrika 12, 153-157.
.. [3] E. W. Noreen (1989), Computer-Intensive Methods for Testing Hypotheses (approximate
   randomisation); A. Yeh (2000), More accurate tests for the statistical significance of
   result differences, COLING.
.. [4] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets,
   JMLR 7, 1-30.
.. [5] S. Holm (1979), A simple sequentially rejective multiple test procedure, Scand. J.
   Statist. 6, 65-70.
"""

from __future__ import annotations

import contextlib
import gc
import io

import numpy as np
import pandas as pd
from scipy import stats

from ._validation import check_int, check_real
from .evaluation import SCORES, indicator_matrix, score_indicators

__all__ = [
    "pairwise_signed_rank",
    "average_ranks",
    "compare_pairs",
    "corrected_paired_ttest",
    "critical_difference",
    "friedman_test",
    "holm",
    "mcnemar_exact",
    "paired_comparisons",
    "paired_permutation_test",
    "signed_rank_test",
    "summarize_scores",
]
def _check_ratio(test_train_ratio):
    if test_train_ratio is None:
        return None
    return check_real(test_train_ratio, "test_train_ratio", "0.25 for 80:20 splits, 1 / (n_folds - 1) for k-fold CV, "
                      "or None", low=0.0, why="n_test / n_train")


def _check_scores(scores, name: str) -> np.ndarray:
    """Scores as a flat float array; NaN (a split whose fit failed) refused with the way to find out why."""
    try:
        s = np.asarray(scores, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numbers (one score per split); could not convert them to float "
                         f"({exc}).") from None
    bad = np.flatnonzero(~np.isfinite(s))
    if bad.size:
        raise ValueError(
            f"{name} holds {s[bad[0]]} at position {bad[0]} ({bad.size} of {s.size} scores not finite): a split "
            "whose model failed (scikit-learn's error_score=nan). Rerun that split with error_score='raise' "
            "to see why, or drop it from every model's scores."
        )
    return s


def _nb_scale(n: int, test_train_ratio) -> float:
    """Standard error of a mean of ``n`` resampled scores per unit sd (Nadeau & Bengio 2003)."""
    test_train_ratio = _check_ratio(test_train_ratio)
    if test_train_ratio is None:
        return 1.0 / np.sqrt(n)
    return float(np.sqrt(1.0 / n + test_train_ratio))


def summarize_scores(scores, test_train_ratio=None) -> pd.DataFrame:
    """Tidy summary of per-split scores: mean, sd and a 95% t-interval of the mean per model.

    Parameters
    ----------
    scores : dict of {name: array-like of float}
        Scores of each model on the same splits (any shape; flattened, so a
        ``(n_repeats, n_folds)`` array of fold scores counts every fold).
    test_train_ratio : float, optional
        ``n_test / n_train`` of the resampling (0.25 for 80:20 splits, 1/9 for 10-fold
        CV). Given, the interval uses the corrected resampled t of Nadeau & Bengio
        (2003): standard error ``sd * sqrt(1/n + n_test/n_train)`` instead of
        ``sd / sqrt(n)``, because overlapping training sets make the scores positively
        correlated. Omitted, the naive interval treats the splits as independent, which
        they are not: it is too narrow.

    Returns
    -------
    DataFrame indexed by model name with columns ``mean, sd, ci_low, ci_high, n``.

    References
    ----------
    .. [1] Nadeau & Bengio (2003), Inference for the Generalization Error, Machine
       Learning 52, 239-281. Bouckaert & Frank (2004) apply it to repeated k-fold CV.

    Examples
    --------
    >>> t = summarize_scores({"a": [0.9, 1.0, 0.95]})
    >>> print(f"{t.loc['a', 'mean']:.3f} {t.loc['a', 'sd']:.3f} {t.loc['a', 'ci_low']:.3f}")
    0.950 0.050 0.826
    >>> t = summarize_scores({"a": [0.9, 1.0, 0.95]}, test_train_ratio=0.25)
    >>> print(f"{t.loc['a', 'ci_low']:.3f}")
    0.786
    """
    if not isinstance(scores, dict) or not scores:
        raise ValueError("scores must be a non-empty dict {name: list of scores}.")
    _check_ratio(test_train_ratio)
    rows = {}
    for name, s in scores.items():
        s = _check_scores(s, f"scores[{name!r}]")
        if s.size < 2:
            raise ValueError(f"scores[{name!r}] needs at least two scores; use more splits.")
        mean, sd = s.mean(), s.std(ddof=1)
        half = stats.t.ppf(0.975, s.size - 1) * sd * _nb_scale(s.size, test_train_ratio)
        rows[name] = {"mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half, "n": s.size}
    return pd.DataFrame.from_dict(rows, orient="index")


def corrected_paired_ttest(scores_a, scores_b, test_train_ratio):
    """Paired corrected resampled t-test (Nadeau & Bengio 2003) of two models' scores.

    ``scores_a`` and ``scores_b`` must come from the same splits (same order). With
    ``d = a - b``, ``t = mean(d) / (sd(d) * sqrt(1/n + n_test/n_train))`` on ``n - 1``
    degrees of freedom; ``test_train_ratio = 0`` gives the ordinary paired t-test
    (:func:`scipy.stats.ttest_rel`), which overstates the evidence for resampled splits.

    Returns
    -------
    dict with ``mean_diff, t, p_value, n, wins, losses, ties`` (wins: splits where a > b).
    ``t`` is NaN and ``p_value`` 1.0 when every difference is equal (sd 0) and zero.

    Examples
    --------
    >>> r = corrected_paired_ttest([0.95, 0.93, 0.96, 0.94], [0.93, 0.93, 0.94, 0.92], test_train_ratio=0.25)
    >>> print(f"{r['mean_diff']:+.3f} t={r['t']:.2f} p={r['p_value']:.3f} {r['wins']}/{r['losses']}/{r['ties']}")
    +0.015 t=2.12 p=0.124 3/0/1
    """
    _check_ratio(test_train_ratio)
    a, b = _check_scores(scores_a, "scores_a"), _check_scores(scores_b, "scores_b")
    if a.shape != b.shape or a.size < 2:
        raise ValueError(
            f"need paired scores of equal length >= 2 from the same splits; got shapes {a.shape} and {b.shape}."
        )
    d = a - b
    n, mean, sd = d.size, d.mean(), d.std(ddof=1)
    if sd == 0:
        t, p = (np.nan, 1.0) if mean == 0 else (np.copysign(np.inf, mean), 0.0)
    else:
        t = mean / (sd * _nb_scale(n, test_train_ratio))
        p = float(2 * stats.t.sf(abs(t), n - 1))
    return {"mean_diff": float(mean), "t": float(t), "p_value": float(p), "n": int(n),
            "wins": int(np.sum(d > 0)), "losses": int(np.sum(d < 0)), "ties": int(np.sum(d == 0))}


def compare_pairs(scores, pairs, test_train_ratio) -> pd.DataFrame:
    """:func:`corrected_paired_ttest` for several pairs of models, one row per pair.

    Parameters
    ----------
    scores : dict of {name: array-like}
        Scores of each model on the same splits.
    pairs : iterable of (name_a, name_b)
        Each row tests ``a - b`` (positive: ``a`` better).
    test_train_ratio : float
        ``n_test / n_train`` of the resampling, as in :func:`corrected_paired_ttest`.

    Returns
    -------
    DataFrame indexed ``"a vs b"`` with columns ``mean_diff, t, p_value, n, wins, losses, ties``.

    Examples
    --------
    >>> s = {"a": [0.95, 0.93, 0.96, 0.94], "b": [0.93, 0.93, 0.94, 0.92]}
    >>> print(compare_pairs(s, [("a", "b")], 0.25)[["mean_diff", "wins"]].to_string())
            mean_diff  wins
    a vs b      0.015     3
    """
    rows = {}
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"each pair must be a tuple (name_a, name_b); got {pair!r}.")
        a, b = pair
        missing = [n for n in (a, b) if n not in scores]
        if missing:
            raise ValueError(f"no scores for {missing}; scores has {sorted(scores)}.")
        rows[f"{a} vs {b}"] = corrected_paired_ttest(scores[a], scores[b], test_train_ratio)
    if not rows:
        raise ValueError("pairs is empty: give at least one (name_a, name_b).")
    return pd.DataFrame.from_dict(rows, orient="index")


def mcnemar_exact(y_true, pred_a, pred_b):
    """Exact McNemar test: do two classifiers err on the same test points at different rates?

    Counts ``b`` (a right, b wrong) and ``c`` (a wrong, b right) and tests ``b`` against
    Binomial(b + c, 1/2) with :func:`scipy.stats.binomtest` (two-sided).

    Returns
    -------
    (b, c, p_value)

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> b, c, p = mcnemar_exact(y, [0, 0, 0, 0, 1, 1, 1, 1], [1, 1, 0, 0, 1, 1, 1, 0])
    >>> print(b, c, f"{p:.3f}")
    3 0 0.250
    """
    y_true, pred_a, pred_b = (np.asarray(v) for v in (y_true, pred_a, pred_b))
    if not (y_true.shape == pred_a.shape == pred_b.shape):
        raise ValueError(
            f"y_true, pred_a and pred_b must have the same length (predictions on one test set); got shapes "
            f"{y_true.shape}, {pred_a.shape} and {pred_b.shape}."
        )
    if y_true.size == 0:
        raise ValueError("y_true is empty: McNemar's test needs predictions on at least one test point.")
    a_ok, b_ok = pred_a == y_true, pred_b == y_true
    b, c = int(np.sum(a_ok & ~b_ok)), int(np.sum(~a_ok & b_ok))
    p = 1.0 if b + c == 0 else float(stats.binomtest(b, b + c, 0.5).pvalue)
    return b, c, p


def paired_permutation_test(y_true, pred_a, pred_b, score="micro_f1", classes=None,
                            n_resamples: int = 999, random_state: int = 0):
    """Is classifier a better than b on ``score``? Approximate randomisation over test documents.

    Under the null hypothesis the two classifiers are exchangeable on each document, so
    their predictions for that document can be swapped; the p-value is the fraction of
    random swaps that give a difference at least as large in absolute value as the one
    observed (``scipy.stats.permutation_test``, paired samples, two-sided). Micro and
    macro scores are not sums over documents, so a paired t-test does not apply; this test
    needs no such assumption (Noreen 1989; Yeh 2000).

    Parameters
    ----------
    y_true, pred_a, pred_b : 1-D labels or 2-D indicator matrices, one row per test document
    score : str or list of str
        One of :data:`SCORES`, or several: they are tested on the same random swaps.
    classes : sequence, optional
        As in :func:`prf_scores`.
    n_resamples : int
    random_state : int

    Returns
    -------
    difference, p_value : float, or ndarray (one per score) when ``score`` is a list
        ``score(a) - score(b)`` and its two-sided p-value.

    Examples
    --------
    Classifier a is right on 40 of 50 documents, b on 30, and neither is right where the
    other is wrong only by chance:

    >>> import numpy as np
    >>> y = np.zeros(50, dtype=int)
    >>> a = np.r_[np.zeros(40, dtype=int), np.ones(10, dtype=int)]
    >>> b = np.r_[np.zeros(30, dtype=int), np.ones(20, dtype=int)]
    >>> diff, p = paired_permutation_test(y, a, b, "accuracy", classes=[0, 1])
    >>> print(f"{diff:+.2f} {p:.3f}")
    +0.20 0.002
    """
    names = [score] if isinstance(score, str) else list(score)
    if not names or any(not isinstance(sc, str) or sc not in SCORES for sc in names):
        raise ValueError(f"score must be one of {SCORES} (or a list of them); got {score!r}.")
    y_true, pred_a, pred_b = np.asarray(y_true), np.asarray(pred_a), np.asarray(pred_b)
    if not (y_true.shape == pred_a.shape == pred_b.shape):
        raise ValueError(
            f"y_true, pred_a and pred_b must have the same shape (one row per test document); got "
            f"{y_true.shape}, {pred_a.shape}, {pred_b.shape}."
        )
    if len(y_true) == 0:
        raise ValueError("y_true is empty: the permutation test needs predictions on at least one document.")
    n_resamples = check_int(n_resamples, "n_resamples", 1, "n_resamples=999")
    if classes is None:
        classes = np.arange(y_true.shape[1]) if y_true.ndim == 2 else np.union1d(y_true, np.union1d(pred_a, pred_b))
    T = indicator_matrix(y_true, classes)
    both = np.concatenate([indicator_matrix(pred_a, classes), indicator_matrix(pred_b, classes)])
    n = len(T)

    def statistic(ia, ib, axis=-1):  # indices into `both`: swapping them swaps a document's predictions
        sa, sb = score_indicators(T, both[ia]), score_indicators(T, both[ib])
        return np.stack([sa[sc] - sb[sc] for sc in names], axis=-1)  # the scores last: scipy's batches first

    res = stats.permutation_test((np.arange(n), np.arange(n) + n), statistic, permutation_type="samples",
                                 vectorized=True, n_resamples=n_resamples, batch=max(1, 20_000_000 // both.size),
                                 rng=np.random.default_rng(random_state))
    diff, p = np.asarray(res.statistic, dtype=float), np.asarray(res.pvalue, dtype=float)
    return (float(diff[0]), float(p[0])) if isinstance(score, str) else (diff, p)


def paired_comparisons(y_test, predictions: dict, reference, scores=SCORES, classes=None,
                       n_resamples: int = 999, random_state: int = 0) -> pd.DataFrame:
    """Each classifier minus a reference on every score, with paired permutation p-values.

    Parameters
    ----------
    y_test : labels or indicator matrix
    predictions : dict
        ``{name: test predictions}``.
    reference : predictions of the reference classifier on the same documents
    scores : iterable of str
        Names from :data:`SCORES`.

    Returns
    -------
    DataFrame
        Index: the names; columns ``(score, "difference")`` and ``(score, "p")``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> t = paired_comparisons(y, {"same": y.copy()}, y, scores=["accuracy"])
    >>> t.loc["same"].tolist()
    [0.0, 1.0]
    """
    if not isinstance(predictions, dict) or not predictions:
        raise ValueError("predictions must be a non-empty dict {name: test predictions}; wrap one as {'name': pred}.")
    scores = [scores] if isinstance(scores, str) else list(scores)
    rows = {}
    for name, pred in predictions.items():
        diff, p = paired_permutation_test(y_test, pred, reference, scores, classes, n_resamples, random_state)
        rows[name] = {**{(sc, "difference"): float(d) for sc, d in zip(scores, diff)},
                      **{(sc, "p"): float(q) for sc, q in zip(scores, p)}}
    columns = pd.MultiIndex.from_tuples([(sc, part) for sc in scores for part in ("difference", "p")])
    return pd.DataFrame.from_dict(rows, orient="index")[columns]




# --------------------------------------------------------------------------------------------
# over several data sets


def _check_table(table) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame) or table.shape[0] < 2 or table.shape[1] < 2:
        raise ValueError("table must be a DataFrame of mean scores with data sets in rows and at least two "
                         f"rows and two method columns; got {getattr(table, 'shape', table)}.")
    if table.isna().any().any():
        missing = table.columns[table.isna().any()].tolist()
        raise ValueError(f"table has missing scores (methods {missing}); every method needs every data set.")
    return table


def _check_rank_result(result):
    if not (hasattr(result, "rankdf") and hasattr(result, "sample_matrix")):
        raise TypeError(f"pass the result of critical_difference(table) (autorank's RankResult); got "
                        f"{type(result).__name__}.")
    return result


def critical_difference(table: pd.DataFrame, alpha: float = 0.05):
    """Demsar's procedure as autorank runs it: Friedman's test, Nemenyi's critical difference.

    ``autorank(table, alpha, order="descending", force_mode="nonparametric")`` with its
    console note silenced: data sets in rows, methods in columns, higher is better. The result
    holds the mean ranks (``rankdf["meanrank"]``, read by :func:`average_ranks`), ``cd`` the
    critical difference of the mean ranks, ``pvalue`` the Friedman p-value and
    ``sample_matrix`` the table tested (read by :func:`friedman_test`; autorank fills it only in
    its Bayesian mode). At least three methods and five data sets (autorank's minimum).

    Examples
    --------
    >>> t = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.6], "b": [0.8, 0.7, 0.6, 0.8, 0.5],
    ...                   "c": [0.7, 0.6, 0.5, 0.7, 0.4]})
    >>> r = critical_difference(t)
    >>> print(f"{r.pvalue:.4f} {r.cd:.3f}")
    0.0067 1.482
    """
    from autorank import autorank

    table = _check_table(table)
    if table.shape[1] < 3:
        raise ValueError(f"the Friedman test needs at least three methods; table has {table.shape[1]}. "
                         "For two, use signed_rank_test.")
    if table.shape[0] < 5:
        raise ValueError(f"ranks over data sets need at least five data sets (autorank's minimum); table has "
                         f"{table.shape[0]}: {list(table.index)}. Add data sets, or compare the methods per data set.")
    # autorank prints a note whenever force_mode is set, and divides by a zero spread for the
    # effect size of two methods with identical scores (a nan it reports, not an error)
    with contextlib.redirect_stdout(io.StringIO()), np.errstate(divide="ignore", invalid="ignore"):
        result = autorank(table, alpha=alpha, verbose=False, order="descending", force_mode="nonparametric")
    return result._replace(sample_matrix=table)  # kept by autorank in its Bayesian mode only


def pairwise_signed_rank(table: pd.DataFrame, zero_method: str = "zsplit") -> pd.DataFrame:
    """Every pair of methods: the two-sided Wilcoxon signed-rank p over data sets, Holm-adjusted over the pairs.

    ``scikit_posthocs.posthoc_wilcoxon`` on the columns of ``table`` (data sets in rows, one
    mean score per method in columns), :func:`scipy.stats.wilcoxon` on every pair, the
    ``m (m - 1) / 2`` p-values adjusted together by Holm: the pairwise tests Benavoli, Corani &
    Mangili (2016) recommend instead of mean-rank tests. Zero differences are split between the
    signs by default (``"zsplit"``, as Demsar 2006 advises).

    Returns
    -------
    DataFrame
        Symmetric, methods in the order of the columns, ones on the diagonal.

    Examples
    --------
    >>> t = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.6, 0.8], "b": [0.8, 0.7, 0.6, 0.8, 0.5, 0.7],
    ...                   "c": [0.85, 0.81, 0.65, 0.92, 0.55, 0.75]})
    >>> pairwise_signed_rank(t).round(3)
           a      b      c
    a  1.000  0.094  0.125
    b  0.094  1.000  0.094
    c  0.125  0.094  1.000
    """
    import scikit_posthocs as sp

    table = _check_table(table)
    if len(set(table.columns)) != table.shape[1]:
        raise ValueError(f"table must name each method once; columns {list(table.columns)}.")
    names = list(table.columns)
    long = table.melt(var_name="method", value_name="score")
    p = sp.posthoc_wilcoxon(long, val_col="score", group_col="method", zero_method=zero_method, p_adjust="holm")
    return p.loc[names, names].rename_axis(index=None, columns=None)


def average_ranks(result) -> pd.Series:
    """Mean rank of each method over the data sets (1 = best; ties share their mean rank), best first.

    Read from a :func:`critical_difference` result, so ranks, Friedman and the diagram come from
    one computation.

    Examples
    --------
    >>> t = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.9], "b": [0.8, 0.8, 0.6, 0.8, 0.8],
    ...                   "c": [0.7, 0.6, 0.8, 0.7, 0.7]})
    >>> average_ranks(critical_difference(t)).round(3).to_dict()   # a: 1, 1.5, 2, 1, 1; b: 2, 1.5, 3, 2, 2
    {'a': 1.3, 'b': 2.1, 'c': 2.6}
    """
    ranks = _check_rank_result(result).rankdf["meanrank"].astype(float)
    names = result.sample_matrix.columns.name if result.sample_matrix is not None else None
    return ranks.sort_values(kind="stable").rename("average rank").rename_axis(names)  # the table's column name


def friedman_test(result) -> dict:
    """Friedman's test that all methods rank alike over the data sets, and Iman & Davenport's F form.

    Read from a :func:`critical_difference` result: its p-value is autorank's, the chi-squared
    statistic is :func:`scipy.stats.friedmanchisquare` of the same table (the statistic autorank
    tests but does not keep).

    Returns
    -------
    dict with ``statistic`` (chi-squared), ``p_value``, ``f_statistic`` and ``f_p_value``
    (Iman-Davenport, F on ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom, the form Demsar
    recommends), ``n_datasets``, ``n_methods``.

    Examples
    --------
    >>> t = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.6], "b": [0.8, 0.7, 0.6, 0.8, 0.5],
    ...                   "c": [0.7, 0.6, 0.5, 0.7, 0.4]})
    >>> r = friedman_test(critical_difference(t))     # chi2 = 12 N / (k (k + 1)) (sum R^2 - k (k + 1)^2 / 4)
    >>> print(f"{r['statistic']:.2f} {r['p_value']:.4f}")
    10.00 0.0067
    """
    table = _check_rank_result(result).sample_matrix
    values = table.to_numpy(dtype=float)
    if np.all(values == values[:, :1]):
        raise ValueError(f"every method scores the same on every one of the {len(table)} data sets: there is no "
                         "ranking for Friedman's test to test (its statistic is 0/0), and nothing tells the "
                         f"methods {list(table.columns)} apart")
    stat = stats.friedmanchisquare(*[table[c].to_numpy() for c in table.columns]).statistic
    n, k = table.shape
    f = (n - 1) * stat / (n * (k - 1) - stat) if n * (k - 1) > stat else np.inf
    f_p = float(stats.f.sf(f, k - 1, (k - 1) * (n - 1))) if np.isfinite(f) else 0.0
    return {"statistic": float(stat), "p_value": float(result.pvalue), "f_statistic": float(f), "f_p_value": f_p,
            "n_datasets": int(n), "n_methods": int(k)}


def signed_rank_test(a, b) -> dict:
    """Paired per-data-set scores ``a - b``: the Wilcoxon signed-rank test and the counts behind it.

    Two-sided :func:`scipy.stats.wilcoxon` on the non-zero differences (zero differences
    dropped, Wilcoxon's original treatment); every difference zero gives ``p_value`` 1.

    Returns
    -------
    dict with ``mean_diff, median_diff, wins, losses, ties, statistic, p_value, n_datasets``
    (wins: data sets where ``a > b``).

    Examples
    --------
    >>> r = signed_rank_test([0.80, 0.70, 0.90, 0.60, 0.85, 0.75], [0.78, 0.69, 0.86, 0.55, 0.84, 0.70])
    >>> print(f"{r['median_diff']:+.3f} {r['wins']}/{r['losses']} p={r['p_value']:.4f}")
    +0.030 6/0 p=0.0312
    """
    a, b = _check_scores(a, "a"), _check_scores(b, "b")
    if a.shape != b.shape or a.size < 1:
        raise ValueError(f"a and b must be paired scores of equal length >= 1 (one per data set); got shapes "
                         f"{a.shape} and {b.shape}.")
    d = a - b
    nonzero = d[d != 0]
    if nonzero.size == 0:
        stat, p = np.nan, 1.0
    else:
        res = stats.wilcoxon(nonzero)
        stat, p = float(res.statistic), float(res.pvalue)
    return {"mean_diff": float(d.mean()), "median_diff": float(np.median(d)), "wins": int((d > 0).sum()),
            "losses": int((d < 0).sum()), "ties": int((d == 0).sum()), "statistic": stat, "p_value": p,
            "n_datasets": int(d.size)}


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment of p-values (family-wise error), in the order given.

    statsmodels' ``multipletests(p, method="holm")``: the i-th smallest of m p-values is
    multiplied by ``m - i + 1``, made monotone and capped at 1.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.2]).round(3).tolist()
    [0.04, 0.09, 0.09, 0.2]
    """
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any((p < 0) | (p > 1)) or np.isnan(p).any():
        raise ValueError(f"p_values must be a non-empty list of probabilities in [0, 1]; got {p_values!r}.")
    # statsmodels' Holm branch ends with gc.collect(), a full collection that costs 0.05-0.3 s
    # in a process holding a notebook's objects, on every call (leave-one-out makes hundreds).
    # Frozen objects are not traversed: the collection sees only what this call created.
    gc.freeze()
    try:
        return multipletests(p, method="holm")[1]
    finally:
        gc.unfreeze()
