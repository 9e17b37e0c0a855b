"""The keyword threshold the paper does not give: its claims judged over the plausible range of it.

The paper removes the keywords whose weight lies below a threshold (lines 37, 235), weighs the
rest by TF x log2(N/n_j) (line 77) and keeps the principal components of 90% of their variance
(lines 265-267); it gives neither the threshold nor the number of components. Every result of
the notebook depends on them. :func:`keyword_setting` builds the paper's pipeline at one
vocabulary size (the ``n`` heaviest stems, as :func:`~.pca_checks.components_by_vocabulary`
orders them): the weights of the kept stems, each document at unit length, the PCA of the
training documents to the variance kept, and every reading of Mahal-kNN with Euclidean kNN on
its components. :func:`claims_over_keywords` turns the answers each claim gets at every
vocabulary size into the answers :meth:`~helpers.workbook.checks.SourceCheck.claim` judges
over the plausible range the ledger states for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..._validation import check_positive_ints
from ...comparisons import effects_against
from ...effects import paired_bootstrap
from ...significance import mcnemar_exact
from ...text import make_vectorizer
from .baselines import baseline_predictions
from .comparisons import (
    PR_SCORES,
    READINGS,
    accuracy_by_k,
    balance_claims,
    chosen_readings,
    conventional_claims,
    invertibility_claim,
    probability_as_uncertainty,
    reading_claims,
    score_differences,
)
from .figures import training_size_claims
from .pca_checks import fit_pca, keyword_order
from .readings import KnnOptions, Readings, mahalanobis_readings
from .sweeps import best_k, knn_sweep, summarize_readings, training_size_curve

__all__ = ["Documents", "KeywordSetting", "claims_over_keywords", "keyword_claims", "keyword_setting",
           "plot_specification_curve", "specification_curve"]


@dataclass(frozen=True)
class Documents:
    """The documents of a setting (:func:`make_setting`), every stem's counts with them."""

    counts: tuple    #: term counts of the (training, test) documents, every stem
    rows: tuple      #: the setting's (training, test) documents, as rows of ``counts``
    y: tuple         #: their labels
    classes: tuple   #: the categories


@dataclass
class KeywordSetting:
    """The paper's pipeline at one vocabulary size (:func:`keyword_setting`)."""

    keywords: int           #: the stems kept (the heaviest)
    kept: np.ndarray        #: their columns in the counts
    components: int         #: the principal components that keep the variance asked for
    weights: tuple          #: the kept stems' weights of the setting's (training, test) documents
    scores: tuple           #: their (training, test) coordinates on the components
    sd: np.ndarray          #: each component's standard deviation over the training documents
    readings: Readings      #: every reading of Mahal-kNN and Euclidean kNN (no leave-one-out)
    summary: pd.DataFrame   #: :func:`~.sweeps.summarize_readings`
    k_of: dict              #: the k of each reading (best test accuracy, the paper's protocol)
    accuracy: dict          #: each reading's test accuracy at that k
    predictions: dict       #: each reading's test predictions at that k
    favoured: str           #: the most accurate reading of Mahal-kNN
    full_predictions: np.ndarray  #: Euclidean kNN on the kept stems' weights (no PCA), at its best k
    full_accuracy: float
    _effects: dict = field(default_factory=dict, repr=False)

    def effects(self, y_test, classes, n_resamples: int = 1999, random_state: int = 0) -> dict:
        """Each reading of Mahal-kNN minus Euclidean kNN in accuracy, with its interval
        (:func:`helpers.comparisons.effects_against`); computed once per resampling and kept."""
        key = (n_resamples, random_state)
        if key not in self._effects:
            mahal = [r for r in READINGS if r != "euclidean" and r in self.predictions]
            self._effects[key] = effects_against(y_test, {r: self.predictions[r] for r in mahal},
                                                 self.predictions["euclidean"], classes=list(classes),
                                                 n_resamples=n_resamples, random_state=random_state)
        return self._effects[key]


def keyword_setting(docs: Documents, n_keywords: int, variance: float = 0.9, ks=range(3, 21),
                    covariance="ledoit_wolf", tfidf: str = "paper") -> KeywordSetting:
    """The paper's pipeline keeping the ``n_keywords`` heaviest stems.

    Parameters
    ----------
    docs : Documents
        Every stem's counts, the setting's documents and their labels.
    n_keywords : int
        How many stems to keep, the heaviest by :func:`keyword_order`.
    variance, ks, covariance, tfidf
        The variance the PCA keeps, the k tried, the covariance estimate of the readings, the weights.

    Returns
    -------
    KeywordSetting

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat(["a", "b"], 30)
    >>> counts = sp.csr_matrix(rng.poisson(np.where(y[:, None] == "a", [3, 1, 1, 0, 2], [1, 3, 1, 2, 0])))
    >>> docs = Documents((counts, counts), (np.arange(60), np.arange(60)), (y, y), ("a", "b"))
    >>> s = keyword_setting(docs, 4, ks=[3, 5])
    >>> s.keywords, s.components <= 4, s.scores[0].shape[0], s.favoured in s.accuracy
    (4, True, 60, True)
    """
    counts_train, counts_test = (sp.csr_matrix(c, copy=True) for c in docs.counts)
    (n_keywords,) = check_positive_ints([n_keywords], "n_keywords", "500", maximum=counts_train.shape[1],
                                        why="stems in the vocabulary")
    keep = keyword_order(counts_train)[:n_keywords]
    weigh = make_vectorizer(tfidf)[1]
    W_train = weigh.fit_transform(counts_train[:, keep])
    W_test = weigh.transform(counts_test[:, keep])
    pca, S_train, S_test, _ = fit_pca(W_train, W_test, variance, verbose=False)
    rows_train, rows_test = docs.rows
    y_train, y_test = docs.y
    Z_train, Z_test = S_train[rows_train], S_test[rows_test]
    sd = np.sqrt(pca.explained_variance_)
    readings = mahalanobis_readings(Z_train, y_train, Z_test, KnnOptions(sd=sd, ks=ks, covariance=covariance,
                                                                        verbose=False), loo=False)
    summary = summarize_readings(readings, y_test)
    k_of, accuracy, predictions, favoured = chosen_readings(readings, summary)
    by_k = knn_sweep(W_train[rows_train], y_train, W_test[rows_test], ks)
    full_acc = accuracy_by_k(by_k, y_test)
    best = best_k(full_acc)
    return KeywordSetting(int(n_keywords), keep, int(pca.n_components_), (W_train, W_test), (Z_train, Z_test), sd,
                          readings, summary, k_of, accuracy, predictions, favoured, by_k[best], full_acc[best])


def keyword_claims(s: KeywordSetting, docs: Documents, multi_label: pd.Series, fractions=(0.1, 0.2, 0.4, 0.7, 1.0),
                   ks=range(3, 21), covariance="ledoit_wolf", n_resamples: int = 1999, random_state: int = 0) -> dict:
    """Every claim of the paper that depends on the vocabulary, answered at one vocabulary size.

    The same claim builders as on the full vocabulary, on the setting's readings: each reading
    against Euclidean kNN (:func:`~.comparisons.reading_claims`), the category covariances'
    inverses (:func:`~.comparisons.invertibility_claim`), the claims around Table 2 with naive
    Bayes and Rocchio on the kept stems (:func:`~.comparisons.conventional_claims`), precision,
    recall and their balance (:func:`~.comparisons.balance_claims`), the class probability as a
    measure of uncertainty, PCA against the kept stems' weights for Euclidean kNN
    (``claim.knn-pca``), and Figs 5 and 6 (:func:`~.figures.training_size_claims`).

    ``multi_label`` is Table 1's training documents per category (every topic of a document),
    which the invertibility claim names; ``fractions`` the training sizes of Figs 5 and 6.

    Returns
    -------
    dict
        ``{key: answer}`` as :meth:`~helpers.workbook.checks.SourceCheck.claims` takes them.
    """
    (counts_train, counts_test), (rows_train, rows_test), (y_train, y_test) = docs.counts, docs.rows, docs.y
    classes = list(docs.classes)
    pred, euclid = s.predictions, s.predictions["euclidean"]
    mahal = [r for r in READINGS if r != "euclidean" and r in pred]
    options = {"n_resamples": n_resamples, "random_state": random_state}
    knn = KnnOptions(sd=s.sd, ks=ks, covariance=covariance, random_state=random_state, n_resamples=n_resamples,
                     verbose=False)
    mcnemar = {r: mcnemar_exact(y_test, pred[r], euclid) for r in mahal}
    against = s.effects(y_test, classes, **options)
    where = f"{s.keywords:,} keywords, {s.components:,} components"
    claims = reading_claims(against, mcnemar, s.accuracy, s.k_of, s.components, where=f"at {where}")
    sizes = pd.Series(y_train).value_counts()
    claims["category-covariance.invertible"] = invertibility_claim(sizes, s.components, multi_label)
    kept = s.kept
    base = baseline_predictions((counts_train[:, kept][rows_train], counts_test[:, kept][rows_test]),
                                (s.weights[0][rows_train], s.weights[1][rows_test]), y_train,
                                random_state=random_state, methods=("naive Bayes", "Rocchio"))
    claims |= conventional_claims(y_test, pred, s.favoured, base, against, mcnemar, classes, knn)
    differences = score_differences(y_test, {READINGS[r]: pred[r] for r in mahal}, euclid, PR_SCORES, classes)
    claims |= balance_claims(y_test, pred[s.favoured], euclid, READINGS[s.favoured], differences, classes, knn)
    u = probability_as_uncertainty(s.readings.proba[s.k_of["weighted"]], pred["weighted"], y_test, **options)
    claims["claim.uncertainty"] = {"effect": u["effect"], "evidence": f"AUC {u['auc']:.3f} at {where}"}
    b, c, p = mcnemar_exact(y_test, euclid, s.full_predictions)
    claims["claim.knn-pca"] = {
        "effect": paired_bootstrap(y_test, euclid, s.full_predictions, **options),
        "evidence": f"{READINGS['euclidean']} on the {s.components:,} components {s.accuracy['euclidean']:.3f}, on "
                    f"the {s.keywords:,} keywords' weights {s.full_accuracy:.3f} (McNemar {b} vs {c} documents, "
                    f"p = {p:.1e})"}
    curve, curve_pred = training_size_curve(s.scores[0], y_train, s.scores[1], y_test, fractions, knn,
                                            full=s.readings)
    claims |= training_size_claims(curve, curve_pred, y_test, s.favoured, **options)[0]
    return claims


_JUDGED = ("effect", "comparisons", "holds")


def claims_over_keywords(answers: Mapping, at_threshold: Mapping, at: int) -> dict:
    """Each claim answered on the full vocabulary, judged over the vocabulary sizes it was answered at too.

    Parameters
    ----------
    answers : dict
        ``{key: answer}`` on the full vocabulary (the workbook's reconstruction), as the claim
        builders give them: ``{"effect", ...}``, ``{"comparisons", ...}`` or ``{"holds", ...}``,
        with ``evidence`` (and ``how``).
    at_threshold : dict
        ``{keywords: {key: answer}}`` of :func:`keyword_claims` at the plausible vocabulary sizes.
    at : int
        The full vocabulary's size: the value whose answer the row shows.

    Returns
    -------
    dict
        ``{key: answer}`` for :meth:`~helpers.workbook.checks.SourceCheck.claims`: a key that
        :func:`keyword_claims` answers becomes ``{"settings": {keywords: judged}, "at": at,
        "evidence", "how"}`` (a ``how`` kept only where every size gives the same one); any
        other key is passed on as it is.

    Examples
    --------
    >>> at_250 = {250: {"c": {"holds": True, "evidence": "d 168"}}}
    >>> claims_over_keywords({"c": {"holds": False, "evidence": "d 3059"}, "x": (True, "e")}, at_250, at=18027)
    {'c': {'settings': {250: True, 18027: False}, 'at': 18027, 'evidence': 'd 3059'}, 'x': (True, 'e')}
    """
    if at in at_threshold:
        raise ValueError(f"at={at!r} is the full vocabulary's size, not one of the thresholds ({list(at_threshold)})")
    out = {}
    for key, shown in answers.items():
        if not at_threshold or any(key not in a for a in at_threshold.values()):
            out[key] = shown
            continue
        per_setting = {**{n: a[key] for n, a in at_threshold.items()}, at: shown}
        settings = {}
        for n, answer in per_setting.items():
            kind = next(k for k in _JUDGED if k in answer)
            settings[n] = {"comparisons": answer["comparisons"]} if kind == "comparisons" else answer[kind]
        claim = {"settings": settings, "at": at, "evidence": shown["evidence"]}
        hows = {a.get("how") for a in per_setting.values()}
        if len(hows) == 1 and None not in hows:
            claim["how"] = hows.pop()
        out[key] = claim
    return out


def specification_curve(keywords: Mapping, y_test, classes, full: tuple, n_resamples: int = 1999,
                        random_state: int = 0) -> pd.DataFrame:
    """Each reading of Mahal-kNN minus Euclidean kNN in accuracy, with its interval, at every vocabulary size.

    Parameters
    ----------
    keywords : dict
        ``{keywords: KeywordSetting}`` (:func:`keyword_setting`).
    y_test, classes : the test labels and the categories
    full : (keywords, components, predictions, effects)
        The full vocabulary: its size, its components, every reading's test predictions and their
        effects against Euclidean kNN (:func:`helpers.comparisons.effects_against`, as its claims used them).
    n_resamples, random_state
        Of the paired bootstrap intervals.

    Returns
    -------
    DataFrame
        One row per (vocabulary size, reading): ``keywords``, ``components``, ``reading``,
        ``effect``, ``low``, ``high``, and ``most accurate`` (the reading of Mahal-kNN most
        accurate at that size, the one the main claim is answered with).
    """
    n_full, d_full, pred_full, effects_full = full
    points = {n: (s.components, s.favoured, s.effects(y_test, classes, n_resamples, random_state))
              for n, s in keywords.items()}
    accuracy = {r: float(np.mean(p == y_test)) for r, p in pred_full.items()}
    points[n_full] = (d_full, max((r for r in READINGS if r != "euclidean" and r in accuracy), key=accuracy.get),
                      effects_full)
    rows = []
    for n, (d, favoured, effects) in sorted(points.items()):
        rows += [{"keywords": n, "components": d, "reading": r, "effect": e["effect"], "low": e["interval"][0],
                  "high": e["interval"][1], "most accurate": r == favoured} for r, e in effects.items()]
    return pd.DataFrame(rows)


def plot_specification_curve(curve: pd.DataFrame, plausible: Mapping, reconstruction: int, title: str, ax=None):
    """The specification curve: each reading minus Euclidean kNN against the components, intervals as bars.

    ``plausible`` (the ledger's range of the keyword threshold, ``low`` and ``high`` in keywords)
    is shaded over the components those sizes give; ``reconstruction`` (the full vocabulary's
    size) is marked.
    """
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(8, 4.2))[1]
    inside = curve[(curve["keywords"] >= plausible["low"]) & (curve["keywords"] <= plausible["high"])]
    ax.axvspan(inside["components"].min(), inside["components"].max(), color="0.9",
               label=f"plausible: {plausible['low']:,.0f}-{plausible['high']:,.0f} keywords")
    ax.axhline(0, color="0.3", lw=0.8)
    for i, (reading, part) in enumerate(curve.groupby("reading", sort=False)):
        x = part["components"] * (1 + 0.03 * (i - 2))   # a little apart, so the bars do not overlap
        ax.errorbar(x, part["effect"], yerr=[part["effect"] - part["low"], part["high"] - part["effect"]],
                    marker="o", ms=4, capsize=2, lw=1, label=READINGS[reading])
    at = curve.loc[curve["keywords"] == reconstruction, "components"].iloc[0]
    ax.axvline(at, color="0.5", ls="--", lw=0.8, label=f"no threshold ({reconstruction:,} stems)")
    ax.set_xscale("log")
    ax.set_xlabel("principal components for 90% of the variance (log scale)")
    ax.set_ylabel("accuracy minus Euclidean kNN's (95% interval)")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="lower left")
    return ax
