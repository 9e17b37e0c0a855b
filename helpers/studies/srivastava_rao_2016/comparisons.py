"""The readings of Mahal-kNN against Euclidean kNN and the conventional classifiers (Sections 2.4 and 3).

Each function turns predictions on the same test documents into the evidence for one group of
the paper's claims: the singular category covariances (:func:`invertibility_claim`), the
readings against Euclidean kNN (:func:`reading_claims`), our kNN vote against scikit-learn's
(:func:`tied_disagreements`, :func:`knn_vote_claim`), the class probability of line 269 as a
measure of uncertainty (:func:`probability_as_uncertainty`), the measures of lines 289-295
(:func:`never_assigning`, :func:`f1_identities`, :func:`measure_claims`), kNN on fewer dimensions
(:func:`knn_by_dimension`, :func:`dimension_claims`), the conventional classifiers
(:func:`conventional_claims`) and precision, recall and their balance (:func:`score_differences`,
:func:`balance_claims`). Claims come back as ``{ledger key: answer}``, ready
for a notebook's ``check.claims``; a claimed advantage is an effect with its 95% interval
(:mod:`helpers.effects`, :mod:`helpers.comparisons`, :mod:`helpers.rank_effects`), judged against
the ledger's region of practical equivalence by the workbook, and McNemar's counts stay in the
evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score, precision_recall_fscore_support
from sklearn.neighbors import KNeighborsClassifier

from ...effects import bonferroni_effect, paired_bootstrap
from ...evaluation import prf_scores
from ...rank_effects import auc_effect
from ...significance import mcnemar_exact
from .readings import READINGS, KnnOptions, Readings
from .sweeps import best_k, component_sweep, knn_sweep

__all__ = [
    "BALANCE_KEYS",
    "PR_SCORES",
    "READING_KEYS",
    "DimensionStudy",
    "accuracy_by_k",
    "balance_claims",
    "chosen_readings",
    "conventional_claims",
    "dimension_claims",
    "f1_identities",
    "invertibility_claim",
    "k_choice_note",
    "knn_by_dimension",
    "knn_vote_claim",
    "measure_claims",
    "never_assigning",
    "predictions_at",
    "probability_as_uncertainty",
    "reading_claims",
    "reconstruction",
    "score_differences",
    "tied_disagreements",
]

#: reading -> the ledger key of the paper's description it follows
READING_KEYS = {"pooled": "reading.pooled", "class_blind": "reading.class-blind",
                "per_category": "reading.per-category", "nearest_category": "reading.nearest-category",
                "weighted": "reading.weighted"}
#: the scores of the precision and recall claims (line 169), micro- and macro-averaged
PR_SCORES = ["micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall", "macro_f1"]
#: ledger key of each claim on precision, recall and their balance (lines 35, 169, 320) -> its score
BALANCE_KEYS = {"claim.precision.micro": "micro_precision", "claim.precision.macro": "macro_precision",
                "claim.recall.micro": "micro_recall", "claim.recall.macro": "macro_recall",
                "claim.balance.micro": "micro_f1", "claim.balance.macro": "macro_f1"}
_SHRUNK = "Ledoit-Wolf shrunk covariances (the sample ones are singular)"


def reconstruction(n_components: int) -> str:
    """The protocol of every claim judged at the paper's 90% of the variance, which our vocabulary sets.

    Examples
    --------
    >>> print(reconstruction(3059))  # doctest: +ELLIPSIS
    our reconstruction of the paper's PCA: 90% of the variance of our vocabulary (every stem, ...), 3,059 components
    """
    return ("our reconstruction of the paper's PCA: 90% of the variance of our vocabulary (every stem, no keyword "
            f"threshold, documents of unit length), {n_components:,} components")


def predictions_at(readings: Readings, k_of: dict) -> dict:
    """``{reading: test predictions at its k}`` (``k = 0`` for the nearest category, which has none).

    Examples
    --------
    >>> out = Readings(classes=np.array(["a", "b"]), multi_label=False,
    ...                pred={"euclidean": {3: np.array(["a"]), 4: np.array(["b"])}})
    >>> predictions_at(out, {"euclidean": 4})["euclidean"].tolist()
    ['b']
    """
    return {r: by_k[k_of[r]] for r, by_k in readings.pred.items()}


def chosen_readings(readings: Readings, summary: pd.DataFrame) -> tuple[dict, dict, dict, str]:
    """Each reading at the k of :func:`~.sweeps.summarize_readings`, and the most accurate reading of Mahal-kNN.

    Returns
    -------
    k_of, accuracy, predictions : dict
        ``{reading: k}``, ``{reading: test accuracy}`` and ``{reading: test predictions}`` at that k.
    favoured : str
        The reading of Mahal-kNN (every reading but ``"euclidean"``) with the highest test
        accuracy, the first in the order of :data:`READINGS` on ties: the one most favourable
        to the paper.

    Examples
    --------
    >>> out = Readings(classes=np.array(["a", "b"]), multi_label=False,
    ...                pred={"euclidean": {3: np.array(["a"])}, "pooled": {3: np.array(["b"])}})
    >>> summary = pd.DataFrame({"k": [3, 3], "accuracy": [0.9, 0.7]}, index=["euclidean", "pooled"])
    >>> k_of, acc, pred, favoured = chosen_readings(out, summary)
    >>> k_of, favoured, pred["pooled"].tolist()
    ({'euclidean': 3, 'pooled': 3}, 'pooled', ['b'])
    """
    k_of, accuracy = summary["k"].to_dict(), summary["accuracy"].to_dict()
    favoured = max((r for r in READINGS if r != "euclidean" and r in accuracy), key=accuracy.get)
    return k_of, accuracy, predictions_at(readings, k_of), favoured


def reading_claims(effects: dict, mcnemar: dict, accuracy: dict, k_of: dict, n_components: int, keys=None,
                   where: str | None = None) -> dict:
    """The paper's claim (Mahal-kNN more accurate than Euclidean kNN) under each reading, as claims.

    Parameters
    ----------
    effects : dict
        ``{reading: accuracy of the reading minus Euclidean kNN's}`` with its interval
        (:func:`helpers.comparisons.effects_against`).
    mcnemar : dict
        ``{reading: (b, c, p)}`` of :func:`helpers.significance.mcnemar_exact`, the reading
        first and Euclidean kNN second (given in the evidence).
    accuracy, k_of : dict
        Test accuracy and k of every reading, ``"euclidean"`` included (k 0: no k).
    n_components : int
        The PCA components the readings work in.
    keys : dict, optional
        Reading -> ledger key; :data:`READING_KEYS` by default.
    where : str, optional
        Where the readings work, for the evidence; by default the ``n_components`` components of
        90% of our vocabulary's variance.

    Returns
    -------
    dict
        ``{key: {"effect", "how", "evidence"}}``; the readings with category or pooled
        covariances say that they are shrunk.

    Examples
    --------
    >>> effect = {"effect": -0.226, "interval": (-0.245, -0.207), "method": "bootstrap"}
    >>> claims = reading_claims({"pooled": effect}, {"pooled": (24, 519, 3e-122)},
    ...                         {"pooled": 0.581, "euclidean": 0.807}, {"pooled": 3, "euclidean": 4}, 3059,
    ...                         {"pooled": "reading.pooled"})
    >>> claims["reading.pooled"]["effect"]["effect"], claims["reading.pooled"]["evidence"][:47]
    (-0.226, 'accuracy 0.581 (k = 3) vs Euclidean kNN 0.807 (')
    """
    where = where or f"on the {n_components:,} components of 90% of our vocabulary's variance"
    claims = {}
    for reading, key in (READING_KEYS if keys is None else keys).items():
        b, c, p = mcnemar[reading]
        k_text = f"k = {k_of[reading]}" if k_of[reading] else "no k"
        claims[key] = {
            "effect": effects[reading],
            "how": None if reading in ("class_blind", "weighted", "euclidean") else _SHRUNK,
            "evidence": f"accuracy {accuracy[reading]:.3f} ({k_text}) vs Euclidean kNN {accuracy['euclidean']:.3f} "
                        f"(k = {k_of['euclidean']}) {where}; {b} test documents right only with this reading, "
                        f"{c} only with Euclidean kNN (McNemar p = {p:.1e})"}
    return claims


def tied_disagreements(Z_train, y_train, Z_test, pred_by_k: dict, ks) -> tuple[int, int]:
    """Where our majority votes differ from ``KNeighborsClassifier``'s, is the k-th neighbour tied with the next?

    Parameters
    ----------
    Z_train, y_train, Z_test : the training documents, their labels, the test documents
    pred_by_k : dict
        Our Euclidean kNN predictions by k.
    ks : iterable of int
        The k to compare.

    Returns
    -------
    differ : int
        Test documents (summed over ``ks``) on which the two votes differ.
    tied : int
        Those whose k-th and (k+1)-th nearest training documents are at the same distance
        (relative 1e-9), where the choice of neighbour is arbitrary.

    Examples
    --------
    >>> Z = np.array([[0.0], [1.0], [3.0]])
    >>> y = np.array(["a", "b", "b"])
    >>> tied_disagreements(Z, y, np.array([[0.5]]), {1: np.array(["b"])}, [1])   # 0 and 1 are both 0.5 away
    (1, 1)
    """
    differ = tied = 0
    for k in ks:
        reference = KNeighborsClassifier(k, algorithm="brute").fit(Z_train, y_train)
        rows = np.flatnonzero(reference.predict(Z_test) != pred_by_k[k])
        dist = reference.kneighbors(Z_test[rows], n_neighbors=k + 1)[0] if len(rows) else np.zeros((0, k + 1))
        differ += len(rows)
        tied += int(np.sum(np.isclose(dist[:, k - 1], dist[:, k], rtol=1e-9)))
    return differ, tied


def probability_as_uncertainty(proba, pred, y_true, n_resamples: int = 1999, random_state: int = 0) -> dict:
    """Does the largest class probability tell right predictions from wrong ones (line 269)?

    Parameters
    ----------
    proba : ndarray (n, n_classes)
        Class-membership probabilities.
    pred, y_true : 1-D labels
        The predictions made from them and the true labels.
    n_resamples, random_state
        Of the bootstrap interval (:func:`helpers.rank_effects.auc_effect`).

    Returns
    -------
    dict
        ``auc`` (area under the ROC curve of the largest probability for right vs wrong; 0.5
        is no information), ``effect`` (:func:`helpers.rank_effects.auc_effect`: AUC - 0.5 with its
        interval and the two-sided Mann-Whitney p), ``n_right``, ``n_wrong`` and the mean
        largest probability of each, ``mean_right``, ``mean_wrong``.

    Examples
    --------
    >>> proba = np.array([[0.9, 0.1], [0.8, 0.2], [0.6, 0.4], [0.4, 0.6]] * 5)
    >>> u = probability_as_uncertainty(proba, np.array([0, 0, 0, 1] * 5), np.array([0, 0, 1, 0] * 5), n_resamples=199)
    >>> u["auc"], u["n_right"], u["n_wrong"]
    (1.0, 10, 10)
    """
    confidence = np.asarray(proba).max(axis=1)
    right = np.asarray(pred) == np.asarray(y_true)
    effect = auc_effect(confidence, right, n_resamples=n_resamples, random_state=random_state)
    return {"auc": effect["auc"], "effect": effect, "n_right": int(right.sum()), "n_wrong": int((~right).sum()),
            "mean_right": float(confidence[right].mean()), "mean_wrong": float(confidence[~right].mean())}


def never_assigning(y_true) -> pd.DataFrame:
    """Per class, the accuracy about it of a classifier that never assigns it, and its F1 (0), largest first.

    Line 289: accuracy is a poor measure for small classes; a classifier that never assigns
    one is right about it for every document of the other classes.

    Examples
    --------
    >>> never_assigning(["earn"] * 9 + ["grain"])
           test documents  accuracy of never assigning it  its F1
    earn                9                             0.1     0.0
    grain               1                             0.9     0.0
    """
    labels = pd.Series(np.asarray(y_true))
    shares = labels.value_counts(normalize=True)
    table = pd.DataFrame({"test documents": labels.value_counts(), "accuracy of never assigning it": 1 - shares,
                          "its F1": 0.0})
    return table.rename_axis(None)


def f1_identities(y_true, pred, classes) -> dict:
    """F1 as the paper defines it (line 293) and micro- and macro-averaging (line 295), checked on predictions.

    Returns
    -------
    dict
        ``by_counts``: per class, the precision is the correct assignments over all assignments
        and the recall the correct assignments over the documents of the class (line 293), as
        scikit-learn computes them; ``weighted_average``: per class, ``2PR/(P+R)`` equals
        ``P R/(P+R) + R P/(P+R)``, the average of P and R with weights ``R/(P+R)`` and
        ``P/(P+R)``; ``agrees_with_sklearn``: the
        micro and macro F1 of :func:`helpers.evaluation.prf_scores` equal scikit-learn's;
        ``scores``: those scores; ``f1_of_means``: the F1 of the macro-averaged precision and
        recall (the other reading of line 295).

    Examples
    --------
    >>> y, p = np.array([0, 0, 1, 1, 2]), np.array([0, 1, 1, 1, 2])
    >>> out = f1_identities(y, p, [0, 1, 2])
    >>> out["by_counts"], out["weighted_average"], out["agrees_with_sklearn"], round(out["scores"]["macro_f1"], 4)
    (True, True, True, 0.8222)
    """
    scores = prf_scores(y_true, pred, classes)
    P, R, _, _ = precision_recall_fscore_support(y_true, pred, labels=classes, zero_division=0)
    y_true, pred = np.asarray(y_true), np.asarray(pred)
    correct = np.array([np.sum((pred == c) & (y_true == c)) for c in classes], dtype=float)
    assigned = np.array([np.sum(pred == c) for c in classes], dtype=float)
    relevant = np.array([np.sum(y_true == c) for c in classes], dtype=float)
    by_counts = bool(np.allclose(np.divide(correct, assigned, out=np.zeros_like(correct), where=assigned > 0), P)
                     and np.allclose(np.divide(correct, relevant, out=np.zeros_like(correct), where=relevant > 0), R))
    with np.errstate(invalid="ignore", divide="ignore"):
        harmonic = 2 * P * R / (P + R)
        weighted = P * R / (P + R) + R * P / (P + R)
    agree = all(abs(scores[f"{a}_f1"] - f1_score(y_true, pred, average=a)) < 1e-12 for a in ("micro", "macro"))
    mp, mr = scores["macro_precision"], scores["macro_recall"]
    return {"by_counts": by_counts, "weighted_average": bool(np.allclose(harmonic, weighted, equal_nan=True)),
            "agrees_with_sklearn": agree,
            "scores": scores, "f1_of_means": 2 * mp * mr / (mp + mr)}


def accuracy_by_k(pred_by_k: dict, y_true) -> dict:
    """``{k: accuracy}`` of predictions by k.

    Examples
    --------
    >>> accuracy_by_k({1: np.array([0, 1]), 3: np.array([0, 0])}, np.array([0, 1]))
    {1: 1.0, 3: 0.5}
    """
    y_true = np.asarray(y_true)
    return {k: float(np.mean(p == y_true)) for k, p in pred_by_k.items()}


@dataclass
class DimensionStudy:
    """Euclidean kNN on the full term space and kNN on the first m principal components (:func:`knn_by_dimension`).

    Attributes
    ----------
    full_accuracy : float
        Euclidean kNN on the full space, at its best k (``full_k``); ``full_pred`` its predictions.
    best : DataFrame
        For each reading and m, the row of :func:`component_sweep` with the best accuracy
        (the smallest such k).
    curve : DataFrame
        Best accuracy by m (index ``components``) and reading (columns).
    peak, peak_k : int
        The m where Euclidean kNN is most accurate, and its k there; ``peak_pred`` its predictions.
    """

    full_accuracy: float
    full_k: int
    full_pred: np.ndarray
    best: pd.DataFrame
    curve: pd.DataFrame
    peak: int
    peak_k: int
    peak_pred: np.ndarray


def knn_by_dimension(X_train, X_test, Z_train, Z_test, y_train, y_test, components,
                     options: KnnOptions) -> DimensionStudy:
    """Euclidean kNN on the full space (``X``) and Euclidean and class-blind kNN on the first m components (``Z``).

    The paper says kNN is sensitive to high dimension and gains from PCA (lines 19, 39-41,
    269). Every k of ``options.ks`` is tried, and the best kept, as the paper chose k.

    Parameters
    ----------
    X_train, X_test : array or sparse matrix
        The documents in the full term space.
    Z_train, Z_test : ndarray
        Their PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels
    components : iterable of int
        The numbers m of leading components.
    options : KnnOptions
        ``sd`` (each component's standard deviation, which class-blind whitening divides by)
        and ``ks``.

    Returns
    -------
    DimensionStudy

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(size=(20, 4)), rng.normal(size=(20, 4)) + [3, 0, 0, 0]])
    >>> y = np.repeat(["a", "b"], 20)
    >>> s = knn_by_dimension(X, X, X, X, y, y, [1, 4], KnnOptions(sd=X.std(axis=0), ks=[1, 3]))
    >>> s.full_accuracy, s.full_k, s.curve.index.tolist(), s.peak   # the first component separates a and b
    (1.0, 1, [1, 4], 1)
    """
    sd, ks = options.sd, options.ks
    full = knn_sweep(X_train, y_train, X_test, ks)
    full_accuracy = accuracy_by_k(full, y_test)
    full_k = best_k(full_accuracy)
    sweep = pd.DataFrame(component_sweep(Z_train, y_train, Z_test, y_test, sd, components, ks))
    best = sweep.loc[sweep.groupby(["reading", "components"])["accuracy"].idxmax()]
    curve = best.pivot(index="components", columns="reading", values="accuracy")
    peak = int(curve["euclidean"].idxmax())
    peak_k = int(best.set_index(["reading", "components"]).loc[("euclidean", peak), "k"])
    peak_pred = knn_sweep(Z_train[:, :peak], y_train, Z_test[:, :peak], [peak_k])[peak_k]
    return DimensionStudy(full_accuracy[full_k], full_k, full[full_k], best, curve, peak, peak_k, peak_pred)


def k_choice_note(summary: pd.DataFrame) -> str:
    """The k each kNN reading chose, by test accuracy and by leave-one-out (the columns of ``summarize_readings``).

    Examples
    --------
    >>> t = pd.DataFrame({"k": [4, 3, 0], "k (LOO)": [4, 6, 0]}, index=["euclidean", "pooled", "nearest_category"])
    >>> k_choice_note(t)
    'best k by test accuracy: euclidean 4, pooled 3; by leave-one-out on the training documents: euclidean 4, pooled 6'
    """
    knn = [r for r in summary.index if r != "nearest_category"]
    return ("best k by test accuracy: " + ", ".join(f"{r} {int(summary.loc[r, 'k'])}" for r in knn)
            + "; by leave-one-out on the training documents: "
            + ", ".join(f"{r} {int(summary.loc[r, 'k (LOO)'])}" for r in knn))


def score_differences(y_true, predictions: dict, reference, scores, classes) -> pd.DataFrame:
    """Each classifier's score minus the reference's, on the same test documents: one row per classifier.

    Examples
    --------
    >>> y = np.array([0, 1, 2] * 20)
    >>> wrong = np.where(np.arange(60) < 9, (y + 1) % 3, y)
    >>> score_differences(y, {"a": wrong}, y, ["accuracy", "macro_recall"], [0, 1, 2]).round(2).loc["a"].tolist()
    [-0.15, -0.15]
    """
    ref = prf_scores(y_true, reference, classes)
    return pd.DataFrame({name: {s: prf_scores(y_true, p, classes)[s] - ref[s] for s in scores}
                         for name, p in predictions.items()}).T


def balance_claims(y_true, pred, reference, name: str, differences: pd.DataFrame, classes,
                   options: KnnOptions | None = None, keys=None) -> dict:
    """The claims on precision, recall and their balance (lines 35, 169, 320), answered by one reading.

    Parameters
    ----------
    y_true, pred, reference : the test labels, the reading's predictions and Euclidean kNN's
    name : str
        The reading's name (the one most favourable to the paper).
    differences : DataFrame
        :func:`score_differences` of every reading against Euclidean kNN (the evidence counts
        the readings ahead on each score).
    classes : the categories
    options : KnnOptions, optional
        ``n_resamples`` and ``random_state`` of :func:`helpers.effects.paired_bootstrap`;
        default ``KnnOptions()``.
    keys : dict, optional
        Ledger key -> score; :data:`BALANCE_KEYS` by default.

    Returns
    -------
    dict
        ``{key: {"effect", "evidence"}}``: the reading minus Euclidean kNN on the key's score,
        with its interval.

    Examples
    --------
    >>> y = np.array([0, 1, 2] * 20)
    >>> wrong = np.where(np.arange(60) < 9, (y + 1) % 3, y)
    >>> diffs = score_differences(y, {"a": wrong, "b": y}, y, ["macro_f1"], [0, 1, 2])
    >>> claims = balance_claims(y, wrong, y, "a", diffs, [0, 1, 2], KnnOptions(n_resamples=99),
    ...                         {"claim.balance.macro": "macro_f1"})
    >>> claims["claim.balance.macro"]["evidence"][:48]
    'macro f1: a minus Euclidean kNN -0.150; 0 of 2 r'
    """
    options = KnnOptions() if options is None else options
    claims = {}
    for key, score in (BALANCE_KEYS if keys is None else keys).items():
        effect = paired_bootstrap(y_true, pred, reference, score=score, classes=classes,
                                  n_resamples=options.n_resamples, random_state=options.random_state)
        ahead = int((differences[score] > 0).sum())
        claims[key] = {"effect": effect,
                       "evidence": f"{score.replace('_', ' ')}: {name} minus {READINGS['euclidean']} "
                                   f"{effect['effect']:+.3f}; {ahead} of {len(differences)} readings ahead"
                                   + ("; with one label per document micro precision, recall and F1 all equal "
                                      "accuracy" if score.startswith("micro") else "")
                                   + ("; F1 is the balance of precision and recall the paper uses (line 293)"
                                      if "f1" in score else "")}
    return claims


def measure_claims(y_true, predictions: dict, accuracy: dict, never: pd.DataFrame, f1: dict) -> dict:
    """Eq. 19, accuracy on small classes, F1 and micro- and macro-averaging (lines 289-295), as claims.

    Parameters
    ----------
    y_true : 1-D labels
    predictions, accuracy : dict
        Test predictions and accuracy of every reading (``"euclidean"`` among them).
    never : DataFrame
        :func:`never_assigning` of the test labels (its last row is the smallest class).
    f1 : dict
        :func:`f1_identities` of a reading's predictions.

    Returns
    -------
    dict
        ``{key: (holds, evidence)}`` for ``eq19``, ``claim.accuracy-small-classes``,
        ``pr.definition``, ``f1.definition`` and ``micro-macro.definition``.

    Examples
    --------
    >>> y = np.array(["a"] * 199 + ["b"])
    >>> pred = {"euclidean": np.array(["a"] * 200)}
    >>> f1 = f1_identities(y, pred["euclidean"], ["a", "b"])
    >>> claims = measure_claims(y, pred, {"euclidean": 0.995}, never_assigning(y), f1)
    >>> [k for k, (holds, _) in claims.items() if holds]  # doctest: +NORMALIZE_WHITESPACE
    ['eq19', 'claim.accuracy-small-classes', 'pr.definition', 'f1.definition',
     'micro-macro.definition']
    """
    y_true = np.asarray(y_true)
    error = {r: float(np.mean(p != y_true)) for r, p in predictions.items()}
    small = never.index[-1]
    right = never.loc[small, "accuracy of never assigning it"]
    s = f1["scores"]
    return {
        "eq19": (all(abs(error[r] - (1 - accuracy[r])) < 1e-12 for r in error), "the fraction of misclassified test "
                 "documents equals 1 - accuracy for every reading "
                 f"({READINGS['euclidean']}: {error['euclidean']:.3f})"),
        "claim.accuracy-small-classes": (bool(right > 0.99), f"never assigning {small} "
                                         f"({never.loc[small, 'test documents']} of {len(y_true):,} test documents) is "
                                         f"right about it for {right:.1%} of the documents, with F1 0"),
        "pr.definition": (f1["by_counts"], "per category, our precision is the correctly assigned documents over all "
                          "documents assigned to it and our recall the correctly assigned over all documents of the "
                          "category, as scikit-learn's precision_recall_fscore_support"),
        "f1.definition": (f1["weighted_average"], "per category, 2PR/(P+R) equals P R/(P+R) + R P/(P+R), the average "
                          "of P and R with weights R/(P+R) and P/(P+R); it lies in [0, 1]"),
        "micro-macro.definition": (f1["agrees_with_sklearn"], f"our micro and macro F1 equal scikit-learn's "
                                   f"({s['micro_f1']:.4f}, {s['macro_f1']:.4f}); the F1 of the macro-averaged P and R "
                                   f"would be {f1['f1_of_means']:.4f}"),
    }


def dimension_claims(dims: DimensionStudy, y_true, pred_reduced, accuracy_reduced: float, n_components: int,
                     n_words: int, n_resamples: int = 1999, random_state: int = 0) -> dict:
    """The two claims on kNN and dimensionality reduction (lines 19, 39-41, 269), as claims.

    The source makes two: that kNN in general suffers in high dimension and does well after an
    unsupervised reduction (lines 19, 39-41 and the start of 269, after Davi and Luz 2007),
    and that the PCA it deploys on Reuters-21578 (90% of the variance) increased kNN's
    efficiency (line 269). Both are answered from the same sweep over leading components.

    Parameters
    ----------
    dims : DimensionStudy
        :func:`knn_by_dimension` (the full space and the sweep over components).
    y_true : 1-D labels of the test documents
    pred_reduced, accuracy_reduced
        Euclidean kNN's predictions and accuracy on the paper's ``n_components`` components.
    n_components, n_words : int
        The paper's number of components (90 % of the variance, at our vocabulary) and the
        number of terms.
    n_resamples, random_state
        Of the paired bootstrap intervals.

    Returns
    -------
    dict
        ``claim.knn-high-dimension``: Euclidean kNN on the best number of components minus on
        the full space, with a Bonferroni interval over the sizes of the sweep (the best size
        is picked on the test set, so its interval must hold for all sizes at once);
        ``claim.knn-pca``: Euclidean kNN on the paper's components minus on the full space.
        Each ``{"effect", "how" (knn-pca), "evidence"}``, with McNemar's counts in the evidence.

    Examples
    --------
    Two categories apart along the first of six coordinates; 40 training and 40 test points:

    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(size=(40, 6)), rng.normal(size=(40, 6)) + [1.5, 0, 0, 0, 0, 0]])
    >>> y = np.repeat(["a", "b"], 40)
    >>> s = knn_by_dimension(X[::2], X[1::2], X[::2], X[1::2], y[::2], y[1::2], [1, 2],
    ...                      KnnOptions(sd=X.std(axis=0), ks=[3]))
    >>> on_two = knn_sweep(X[::2, :2], y[::2], X[1::2, :2], [3])[3]
    >>> claims = dimension_claims(s, y[1::2], on_two, np.mean(on_two == y[1::2]), 2, 6, n_resamples=99)
    >>> e = claims["claim.knn-pca"]["effect"]
    >>> print(f"{e['effect']:+.3f} [{e['interval'][0]:+.3f}, {e['interval'][1]:+.3f}]")
    -0.025 [-0.211, +0.075]
    """
    b, c, p_pca = mcnemar_exact(y_true, pred_reduced, dims.full_pred)
    b2, c2, p_peak = mcnemar_exact(y_true, dims.peak_pred, dims.full_pred)
    euclidean = dims.curve["euclidean"]
    better = [m for m in dims.curve.index if euclidean[m] > dims.full_accuracy]
    sizes = f"{min(better)} to {max(better)} components" if better else "none"
    looks = len(dims.curve)
    at_peak = bonferroni_effect(y_true, dims.peak_pred, dims.full_pred, looks, "sizes of the sweep",
                                n_resamples=n_resamples, random_state=random_state)
    at_paper = paired_bootstrap(y_true, pred_reduced, dims.full_pred, n_resamples=n_resamples,
                                random_state=random_state)
    return {
        "claim.knn-high-dimension": {
            "effect": at_peak,
            "evidence": f"the general claim (lines 19, 39-41, 269): {READINGS['euclidean']} on the first "
                        f"{dims.peak} components {euclidean.max():.3f} vs the full {n_words:,}-stem TF-IDF "
                        f"{dims.full_accuracy:.3f} "
                        f"(McNemar {b2} vs {c2} documents, p = {p_peak:.1e}); kNN beats the full space at "
                        f"{len(better)} of the {looks} sizes, {sizes}; size and k are chosen on the test set"},
        "claim.knn-pca": {
            "effect": at_paper,
            "how": reconstruction(n_components),
            "evidence": "the Reuters claim of line 269, 'efficiency' read as classification accuracy, the paper's "
                        f"measure throughout (line 33; it reports no run times): {READINGS['euclidean']} on the "
                        f"{n_components:,} components {accuracy_reduced:.3f}, on the full TF-IDF "
                        f"{dims.full_accuracy:.3f} (McNemar {b} vs {c} documents, p = {p_pca:.1e}); PCA helps kNN "
                        f"here only when it keeps far fewer components (best: {dims.peak}, {euclidean.max():.3f})"},
    }


def conventional_claims(y_true, predictions: dict, favoured: str, baselines: dict, against_euclidean: dict,
                        mcnemar: dict, classes, options: KnnOptions) -> dict:
    """The claims around Table 2 (lines 19, 35, 59, 297, 320), answered by the most accurate reading.

    Parameters
    ----------
    y_true : 1-D labels of the test documents
    predictions : dict
        Test predictions of every reading at its k (``"euclidean"`` among them).
    favoured : str
        The reading that answers the claims.
    baselines : dict
        Test predictions of ``"naive Bayes"`` and ``"Rocchio"`` (:func:`~.baselines.baseline_predictions`).
    against_euclidean : dict
        ``{reading: accuracy effect against Euclidean kNN}`` (:func:`helpers.comparisons.effects_against`).
    mcnemar : dict
        ``{reading: (b, c, p)}`` of every reading of Mahal-kNN against Euclidean kNN.
    classes : the categories
    options : KnnOptions
        Its ``sd`` gives the PCA components the readings work in (``n_components``, for
        :func:`reconstruction`), its ``n_resamples`` and ``random_state`` the paired bootstrap's
        resamples and seed.

    Returns
    -------
    dict
        ``claim.macro-best`` (macro F1 against each of naive Bayes, Rocchio and Euclidean kNN:
        ``comparisons``, decided by the intersection-union rule), ``claim.f1-vs-conventional`` (macro and micro F1
        against each of them), ``claim.accuracy-vs-nb`` and ``claim.accuracy-vs-euclidean``
        (accuracy, ``effect``), each with its ``evidence`` and the protocol (``how``).

    Examples
    --------
    >>> y = np.array([0, 1, 2] * 20)
    >>> pred = {"euclidean": y.copy(), "pooled": np.where(np.arange(60) < 12, 0, y)}
    >>> from helpers.comparisons import effects_against
    >>> effects = effects_against(y, {"pooled": pred["pooled"]}, y, n_resamples=99)
    >>> options = KnnOptions(sd=np.ones(3), n_resamples=99)   # readings on 3 components
    >>> claims = conventional_claims(y, pred, "pooled", {"naive Bayes": y % 2, "Rocchio": y % 2}, effects,
    ...                              {"pooled": mcnemar_exact(y, pred["pooled"], y)}, [0, 1, 2], options)
    >>> sorted(claims["claim.f1-vs-conventional"]["comparisons"])[:2]
    ['macro F1 vs Euclidean kNN', 'macro F1 vs Rocchio']
    >>> round(claims["claim.accuracy-vs-nb"]["effect"]["effect"], 3)
    0.2
    """
    n_resamples, random_state = options.n_resamples, options.random_state
    name = READINGS[favoured]
    pred = predictions[favoured]
    conventional = {"naive Bayes": baselines["naive Bayes"], "Rocchio": baselines["Rocchio"],
                    READINGS["euclidean"]: predictions["euclidean"]}
    f1 = {score: {rival: paired_bootstrap(y_true, pred, p, score=score, classes=classes, n_resamples=n_resamples,
                                          random_state=random_state) for rival, p in conventional.items()}
          for score in ("macro_f1", "micro_f1")}
    scores = {m: prf_scores(y_true, p, classes) for m, p in {name: pred, **conventional}.items()}

    def listing(score):
        return ", ".join(f"{m} {scores[m][score]:.3f}" for m in scores)

    macro = {f"macro F1 vs {rival}": e for rival, e in f1["macro_f1"].items()}
    micro = {f"micro F1 vs {rival}": e for rival, e in f1["micro_f1"].items()}
    acc_nb = paired_bootstrap(y_true, pred, baselines["naive Bayes"], classes=classes, n_resamples=n_resamples,
                              random_state=random_state)
    b, c, p_nb = mcnemar_exact(y_true, pred, baselines["naive Bayes"])
    be, ce, p_e = mcnemar[favoured]
    how = reconstruction(options.n_components)
    claims = {
        "claim.macro-best": {"comparisons": macro, "evidence": f"macro F1: {listing('macro_f1')}"},
        "claim.f1-vs-conventional": {"comparisons": {**macro, **micro},
                                     "evidence": f"macro F1: {listing('macro_f1')}; micro F1: {listing('micro_f1')}"},
        "claim.accuracy-vs-nb": {"effect": acc_nb, "evidence": f"accuracy {name} {scores[name]['accuracy']:.3f} vs "
                                                               f"naive Bayes {scores['naive Bayes']['accuracy']:.3f} "
                                                               f"(McNemar: {b} vs {c} documents, p = {p_nb:.1e})"},
        "claim.accuracy-vs-euclidean": {
            "effect": against_euclidean[favoured],
            "evidence": f"most accurate reading {name} {scores[name]['accuracy']:.3f} vs {READINGS['euclidean']} "
                        f"{scores[READINGS['euclidean']]['accuracy']:.3f} (McNemar: {be} vs {ce} documents, "
                        f"p = {p_e:.1e}); every reading: "
                        + ", ".join(f"{READINGS[r]} {e['effect']:+.3f} [{e['interval'][0]:+.3f}, "
                                    f"{e['interval'][1]:+.3f}]" for r, e in against_euclidean.items())},
    }
    return {key: {**claim, "how": how} for key, claim in claims.items()}


def invertibility_claim(sizes: pd.Series, n_components: int, multi_label: pd.Series,
                        vocabulary: pd.DataFrame | None = None) -> dict:
    """Whether each category covariance can be inverted after PCA, as Eq. 11 needs (at our reconstruction).

    A sample covariance of m documents has rank at most m - 1, so it needs more documents
    than dimensions. The dimension d is that of 90% of the variance of our vocabulary; the
    paper's keyword threshold (not given) would lower it, which ``vocabulary`` shows.

    Parameters
    ----------
    sizes : Series
        Training documents per category of the setting, largest first.
    n_components : int
        The dimension d of the PCA space.
    multi_label : Series
        Training documents per category when documents keep all their topics (Table 1's count).
    vocabulary : DataFrame, optional
        :func:`~.pca_checks.components_by_vocabulary`: the components 90% needs with fewer keywords.

    Returns
    -------
    dict
        ``{"holds", "how", "evidence"}`` for ``check.claims``.

    Examples
    --------
    >>> table1 = pd.Series({"earn": 2877, "corn": 181})
    >>> out = invertibility_claim(pd.Series({"earn": 2840, "grain": 41}), 3059, table1)
    >>> out["holds"], out["evidence"][:68]
    (False, 'd = 3,059; the largest category (earn) has 2,840 training documents,')
    >>> vocab = pd.DataFrame({"components": [168, 317]}, index=pd.Index([250, 500], name="keywords"))
    >>> print(invertibility_claim(pd.Series({"earn": 2840}), 3059, table1, vocab)["evidence"][-89:])
    only a vocabulary near 250 keywords or fewer brings d below corn's 181 training documents
    """
    evidence = (f"d = {n_components:,}; the largest category ({sizes.index[0]}) has {sizes.iloc[0]:,} training "
                "documents, so every category's sample covariance has rank below d and no inverse (with all their "
                f"topics, {multi_label.idxmax()} has {multi_label.max():,}); the readings below shrink each covariance "
                "(Ledoit-Wolf)")
    if vocabulary is not None:
        smallest, n_small = multi_label.idxmin(), multi_label.min()
        fits = vocabulary.index[vocabulary["components"] < n_small]
        evidence += ("; with the paper's keyword threshold (not given) 90% of the variance needs "
                     + ", ".join(f"{c:,} components at {n:,} keywords" for n, c in vocabulary["components"].items())
                     + ": " + (f"only a vocabulary near {max(fits):,} keywords or fewer brings d below "
                               f"{smallest}'s {n_small:,} training documents" if len(fits)
                               else f"none brings d below {smallest}'s {n_small:,} training documents"))
    return {"holds": bool(sizes.min() > n_components), "how": reconstruction(n_components), "evidence": evidence}


def knn_vote_claim(Z_train, y_train, Z_test, pred_by_k: dict, ks) -> tuple[bool, str]:
    """Whether our majority votes are scikit-learn's (line 136), but for ties: ``(holds, evidence)``.

    Holds when every test document on which they differ is one whose k-th and (k+1)-th
    neighbours are at the same distance (:func:`tied_disagreements`).

    Examples
    --------
    >>> Z = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array(["a", "a", "b", "b"])
    >>> holds, evidence = knn_vote_claim(Z, y, np.array([[0.2], [3.9]]), {1: np.array(["a", "b"])}, [1])
    >>> holds, evidence[:62]
    (True, "our majority votes equal KNeighborsClassifier's on the 2 test ")
    """
    ks = list(ks)
    differ, tied = tied_disagreements(Z_train, y_train, Z_test, pred_by_k, ks)
    return (differ == tied, f"our majority votes equal KNeighborsClassifier's on the {len(Z_test):,} test documents "
                            f"for k = {' and k = '.join(str(k) for k in ks)}, except {differ} document(s) whose k-th "
                            f"and (k+1)-th neighbours are at exactly the same distance ({tied} tied): the collection "
                            "holds duplicate stories")
