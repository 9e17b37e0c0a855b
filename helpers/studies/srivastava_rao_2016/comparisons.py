"""The readings of Mahal-kNN against Euclidean kNN and the conventional classifiers (Sections 2.4 and 3).

Each function turns predictions on the same test documents into the evidence for one group of
the paper's claims: the singular category covariances (:func:`invertibility_claim`), the
readings against Euclidean kNN (:func:`reading_claims`, McNemar's exact test), our kNN vote
against scikit-learn's (:func:`tied_disagreements`, :func:`knn_vote_claim`), the class probability
of line 269 as a measure of uncertainty (:func:`probability_as_uncertainty`), the measures of
lines 289-295 (:func:`never_assigning`, :func:`f1_identities`, :func:`measure_claims`), kNN on
fewer dimensions (:func:`knn_by_dimension`, :func:`dimension_claims`), the best conventional
classifier (:func:`against_best_rival`, :func:`conventional_claims`) and precision, recall and
their balance (:func:`balance_claims`). Claims come back as ``{ledger key: answer}``, ready for a
notebook's ``check.claims``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics import f1_score, precision_recall_fscore_support, roc_auc_score
from sklearn.neighbors import KNeighborsClassifier

from ...evaluation import prf_scores
from ...significance import mcnemar_exact, paired_comparisons
from .readings import READINGS, Readings
from .sweeps import best_k, component_sweep, knn_sweep

__all__ = [
    "BALANCE_KEYS",
    "PR_SCORES",
    "READING_KEYS",
    "DimensionStudy",
    "accuracy_by_k",
    "against_best_rival",
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


def reading_claims(mcnemar: dict, accuracy: dict, k_of: dict, keys=None) -> dict:
    """Each reading of Mahal-kNN against Euclidean kNN on the same test documents, as claims.

    Parameters
    ----------
    mcnemar : dict
        ``{reading: (b, c, p)}`` of :func:`helpers.significance.mcnemar_exact`, the reading
        first and Euclidean kNN second.
    accuracy, k_of : dict
        Test accuracy and k of every reading, ``"euclidean"`` included (k 0: no k).
    keys : dict, optional
        Reading -> ledger key; :data:`READING_KEYS` by default.

    Returns
    -------
    dict
        ``{key: {"effect", "p", "how", "evidence"}}``; the effect is the accuracy of the reading
        minus that of Euclidean kNN, and the readings with category or pooled covariances say
        that they are shrunk.

    Examples
    --------
    >>> claims = reading_claims({"pooled": (24, 519, 3e-122)}, {"pooled": 0.581, "euclidean": 0.807},
    ...                         {"pooled": 3, "euclidean": 4}, {"pooled": "reading.pooled"})
    >>> round(claims["reading.pooled"]["effect"], 3), claims["reading.pooled"]["evidence"][:47]
    (-0.226, 'accuracy 0.581 (k = 3) vs Euclidean kNN 0.807 (')
    """
    claims = {}
    for reading, key in (READING_KEYS if keys is None else keys).items():
        b, c, p = mcnemar[reading]
        k_text = f"k = {k_of[reading]}" if k_of[reading] else "no k"
        claims[key] = {
            "effect": accuracy[reading] - accuracy["euclidean"], "p": p,
            "how": None if reading in ("class_blind", "weighted", "euclidean") else _SHRUNK,
            "evidence": f"accuracy {accuracy[reading]:.3f} ({k_text}) vs Euclidean kNN {accuracy['euclidean']:.3f} "
                        f"(k = {k_of['euclidean']}); {b} test documents right only with this reading, {c} only "
                        "with Euclidean kNN (McNemar)"}
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


def probability_as_uncertainty(proba, pred, y_true) -> dict:
    """Does the largest class probability tell right predictions from wrong ones (line 269)?

    Parameters
    ----------
    proba : ndarray (n, n_classes)
        Class-membership probabilities.
    pred, y_true : 1-D labels
        The predictions made from them and the true labels.

    Returns
    -------
    dict
        ``auc`` (area under the ROC curve of the largest probability for right vs wrong; 0.5
        is no information), ``p`` (two-sided Mann-Whitney test of the same), ``n_right``,
        ``n_wrong`` and the mean largest probability of each, ``mean_right``, ``mean_wrong``.

    Examples
    --------
    >>> proba = np.array([[0.9, 0.1], [0.8, 0.2], [0.6, 0.4], [0.4, 0.6]])
    >>> u = probability_as_uncertainty(proba, np.array([0, 0, 0, 1]), np.array([0, 0, 1, 0]))
    >>> u["auc"], u["n_right"], u["n_wrong"]
    (1.0, 2, 2)
    """
    confidence = np.asarray(proba).max(axis=1)
    right = np.asarray(pred) == np.asarray(y_true)
    test = stats.mannwhitneyu(confidence[right], confidence[~right], alternative="two-sided")
    return {"auc": float(roc_auc_score(right, confidence)), "p": float(test.pvalue),
            "n_right": int(right.sum()), "n_wrong": int((~right).sum()),
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
        ``weighted_average``: per class, ``2PR/(P+R)`` equals ``P R/(P+R) + R P/(P+R)``, the
        average of P and R with weights ``R/(P+R)`` and ``P/(P+R)``; ``agrees_with_sklearn``: the
        micro and macro F1 of :func:`helpers.evaluation.prf_scores` equal scikit-learn's;
        ``scores``: those scores; ``f1_of_means``: the F1 of the macro-averaged precision and
        recall (the other reading of line 295).

    Examples
    --------
    >>> y, p = np.array([0, 0, 1, 1, 2]), np.array([0, 1, 1, 1, 2])
    >>> out = f1_identities(y, p, [0, 1, 2])
    >>> out["weighted_average"], out["agrees_with_sklearn"], round(out["scores"]["macro_f1"], 4)
    (True, True, 0.8222)
    """
    scores = prf_scores(y_true, pred, classes)
    P, R, _, _ = precision_recall_fscore_support(y_true, pred, labels=classes, zero_division=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        harmonic = 2 * P * R / (P + R)
        weighted = P * R / (P + R) + R * P / (P + R)
    agree = all(abs(scores[f"{a}_f1"] - f1_score(y_true, pred, average=a)) < 1e-12 for a in ("micro", "macro"))
    mp, mr = scores["macro_precision"], scores["macro_recall"]
    return {"weighted_average": bool(np.allclose(harmonic, weighted, equal_nan=True)), "agrees_with_sklearn": agree,
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


def knn_by_dimension(X_train, X_test, Z_train, Z_test, y_train, y_test, sd, components, ks) -> DimensionStudy:
    """Euclidean kNN on the full space (``X``) and Euclidean and class-blind kNN on the first m components (``Z``).

    The paper says kNN is sensitive to high dimension and gains from PCA (lines 19, 39-41,
    269). Every k of ``ks`` is tried, and the best kept, as the paper chose k.

    Parameters
    ----------
    X_train, X_test : array or sparse matrix
        The documents in the full term space.
    Z_train, Z_test : ndarray
        Their PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels
    sd : ndarray
        Standard deviation of each component (class-blind whitening divides by it).
    components : iterable of int
        The numbers m of leading components.
    ks : iterable of int

    Returns
    -------
    DimensionStudy

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(size=(20, 4)), rng.normal(size=(20, 4)) + [3, 0, 0, 0]])
    >>> y = np.repeat(["a", "b"], 20)
    >>> s = knn_by_dimension(X, X, X, X, y, y, X.std(axis=0), [1, 4], [1, 3])
    >>> s.full_accuracy, s.full_k, s.curve.index.tolist(), s.peak   # the first component separates a and b
    (1.0, 1, [1, 4], 1)
    """
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


def against_best_rival(y_true, pred, name: str, conventional: dict, classes, scores=("macro_f1", "micro_f1"),
                       n_resamples: int = 999, random_state: int = 0) -> dict:
    """A classifier against the best conventional classifier on each score, by a paired permutation test.

    Parameters
    ----------
    y_true, pred : the true labels and the classifier's predictions
    name : str
        The classifier's name (the row of :func:`helpers.significance.paired_comparisons`).
    conventional : dict
        ``{name: predictions}`` of the conventional classifiers; on each score the best of them
        is the rival.
    classes, scores, n_resamples, random_state
        As in :func:`helpers.significance.paired_comparisons`.

    Returns
    -------
    dict
        ``{score: (rival, difference, p)}``: the classifier minus its rival.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 2, 2] * 10)
    >>> out = against_best_rival(y, y, "perfect", {"zeros": np.zeros_like(y), "mod 2": y % 2}, [0, 1, 2],
    ...                          ["micro_f1"], n_resamples=99)
    >>> out["micro_f1"][0], round(out["micro_f1"][1], 3), out["micro_f1"][2] < 0.05
    ('mod 2', 0.333, True)
    """
    tests = {}
    for score in scores:
        rival = max(conventional, key=lambda m: prf_scores(y_true, conventional[m], classes)[score])
        row = paired_comparisons(y_true, {name: pred}, conventional[rival], [score], classes, n_resamples,
                                 random_state).loc[name]
        tests[score] = (rival, float(row[(score, "difference")]), float(row[(score, "p")]))
    return tests


def balance_claims(pr: pd.DataFrame, name: str, keys=None) -> dict:
    """The claims on precision, recall and their balance (lines 35, 169, 320), answered by one reading.

    Parameters
    ----------
    pr : DataFrame
        :func:`helpers.significance.paired_comparisons` of every reading against Euclidean kNN
        on the scores of :data:`PR_SCORES`.
    name : str
        The row that answers the claims (the reading most favourable to the paper).
    keys : dict, optional
        Ledger key -> score; :data:`BALANCE_KEYS` by default.

    Returns
    -------
    dict
        ``{key: {"effect", "p", "evidence"}}``; the evidence also counts the readings ahead of
        Euclidean kNN on the score.

    Examples
    --------
    >>> cols = pd.MultiIndex.from_tuples([("micro_f1", "difference"), ("micro_f1", "p")])
    >>> pr = pd.DataFrame([[-0.1, 0.002], [0.02, 0.5]], index=["a", "b"], columns=cols)
    >>> balance_claims(pr, "a", {"claim.balance.micro": "micro_f1"})["claim.balance.micro"]["evidence"][:48]
    'micro f1: a minus Euclidean kNN -0.100 (paired p'
    """
    claims = {}
    for key, score in (BALANCE_KEYS if keys is None else keys).items():
        diff, p = float(pr.loc[name, (score, "difference")]), float(pr.loc[name, (score, "p")])
        ahead = int((pr[(score, "difference")] > 0).sum())
        claims[key] = {"effect": diff, "p": p,
                       "evidence": f"{score.replace('_', ' ')}: {name} minus {READINGS['euclidean']} {diff:+.3f} "
                                   f"(paired permutation test); {ahead} of {len(pr)} readings ahead"
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
        ``f1.definition`` and ``micro-macro.definition``.

    Examples
    --------
    >>> y = np.array(["a"] * 199 + ["b"])
    >>> pred = {"euclidean": np.array(["a"] * 200)}
    >>> f1 = f1_identities(y, pred["euclidean"], ["a", "b"])
    >>> claims = measure_claims(y, pred, {"euclidean": 0.995}, never_assigning(y), f1)
    >>> {k: holds for k, (holds, _) in claims.items()}
    {'eq19': True, 'claim.accuracy-small-classes': True, 'f1.definition': True, 'micro-macro.definition': True}
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
        "f1.definition": (f1["weighted_average"], "per category, 2PR/(P+R) equals P R/(P+R) + R P/(P+R), the average "
                          "of P and R with weights R/(P+R) and P/(P+R); it lies in [0, 1]"),
        "micro-macro.definition": (f1["agrees_with_sklearn"], f"our micro and macro F1 equal scikit-learn's "
                                   f"({s['micro_f1']:.4f}, {s['macro_f1']:.4f}); the F1 of the macro-averaged P and R "
                                   f"would be {f1['f1_of_means']:.4f}"),
    }


def dimension_claims(dims: DimensionStudy, y_true, pred_reduced, accuracy_reduced: float, n_components: int,
                     n_words: int) -> dict:
    """The claims that kNN suffers in high dimension and gains from PCA (lines 19, 39-41, 269), as claims.

    Parameters
    ----------
    dims : DimensionStudy
        :func:`knn_by_dimension` (the full space and the sweep over components).
    y_true : 1-D labels of the test documents
    pred_reduced, accuracy_reduced
        Euclidean kNN's predictions and accuracy on the paper's ``n_components`` components.
    n_components, n_words : int
        The paper's number of components (90 % of the variance) and the number of terms.

    Returns
    -------
    dict
        ``claim.knn-pca`` (Euclidean kNN on the paper's components minus on the full space)
        and ``claim.knn-high-dimension`` (on the best number of components minus on the full
        space), each ``{"effect", "p", "evidence"}`` with McNemar's exact test.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(size=(30, 4)), rng.normal(size=(30, 4)) + [3, 0, 0, 0]])
    >>> y = np.repeat(["a", "b"], 30)
    >>> s = knn_by_dimension(X, X, X, X, y, y, X.std(axis=0), [1, 4], [3])
    >>> claims = dimension_claims(s, y, s.full_pred, s.full_accuracy, 4, 4)
    >>> claims["claim.knn-pca"]["effect"], claims["claim.knn-pca"]["p"]
    (0.0, 1.0)
    """
    b, c, p_pca = mcnemar_exact(y_true, pred_reduced, dims.full_pred)
    b2, c2, p_peak = mcnemar_exact(y_true, dims.peak_pred, dims.full_pred)
    euclidean = dims.curve["euclidean"]
    better = [m for m in dims.curve.index if euclidean[m] > dims.full_accuracy]
    sizes = f"{min(better)} to {max(better)} components" if better else "none"
    return {
        "claim.knn-pca": {
            "effect": accuracy_reduced - dims.full_accuracy, "p": p_pca,
            "evidence": "'efficiency' read as classification accuracy, the paper's measure throughout (l. 33; it "
                        f"reports no run times). {READINGS['euclidean']} on the {n_components:,} components of 90% of "
                        f"the variance: {accuracy_reduced:.3f}, on the full {n_words:,}-stem TF-IDF: "
                        f"{dims.full_accuracy:.3f} (McNemar {b} vs {c} documents); on the first {dims.peak} components "
                        f"{euclidean.max():.3f}: PCA helps kNN only when it keeps far less than 90% of the variance"},
        "claim.knn-high-dimension": {
            "effect": euclidean.max() - dims.full_accuracy, "p": p_peak,
            "evidence": f"{READINGS['euclidean']} on the first {dims.peak} components {euclidean.max():.3f} vs the "
                        f"full TF-IDF {dims.full_accuracy:.3f} (McNemar {b2} vs {c2} documents); kNN beats the full "
                        f"space at {len(better)} of the {len(dims.curve)} sizes, {sizes}; the size is chosen on the "
                        "test set, so optimistic"},
    }


def conventional_claims(y_true, predictions: dict, favoured: str, baselines: dict, mcnemar: dict, classes,
                        n_resamples: int = 999, random_state: int = 0) -> dict:
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
    mcnemar : dict
        ``{reading: (b, c, p)}`` of every reading of Mahal-kNN against Euclidean kNN.
    classes, n_resamples, random_state
        As in :func:`helpers.significance.paired_comparisons`.

    Returns
    -------
    dict
        ``claim.macro-best`` and ``claim.f1-vs-conventional`` (macro and micro F1 against the
        best of naive Bayes, Rocchio and Euclidean kNN, paired permutation tests),
        ``claim.accuracy-vs-nb`` and ``claim.accuracy-vs-euclidean`` (accuracy, McNemar's
        exact test), each ``{"effect", "p", "evidence"}``.

    Examples
    --------
    >>> y = np.array([0, 1, 2] * 20)
    >>> pred = {"euclidean": y.copy(), "pooled": np.where(np.arange(60) < 12, 0, y)}
    >>> claims = conventional_claims(y, pred, "pooled", {"naive Bayes": y % 2, "Rocchio": y % 2},
    ...                              {"pooled": mcnemar_exact(y, pred["pooled"], y)}, [0, 1, 2], n_resamples=99)
    >>> [round(a["effect"], 3) for a in claims.values()]
    [-0.13, -0.133, 0.2, -0.133]
    """
    name, acc = READINGS[favoured], {r: prf_scores(y_true, p, classes)["accuracy"] for r, p in predictions.items()}
    conventional = {"naive Bayes": baselines["naive Bayes"], "Rocchio": baselines["Rocchio"],
                    READINGS["euclidean"]: predictions["euclidean"]}
    rivals = against_best_rival(y_true, predictions[favoured], name, conventional, classes, n_resamples=n_resamples,
                                random_state=random_state)
    nb_accuracy = prf_scores(y_true, baselines["naive Bayes"], classes)["accuracy"]
    b, c, p_nb = mcnemar_exact(y_true, predictions[favoured], baselines["naive Bayes"])
    be, ce, p_e = mcnemar[favoured]
    claims = {key: {"effect": diff, "p": p, "evidence": f"{words}: {name} minus the best conventional classifier "
                                                        f"({rival}) = {diff:+.3f} (paired permutation test, "
                                                        f"{n_resamples} swaps)"}
              for key, words, (rival, diff, p) in [("claim.macro-best", "macro F1", rivals["macro_f1"]),
                                                   ("claim.f1-vs-conventional", "micro F1", rivals["micro_f1"])]}
    claims["claim.accuracy-vs-nb"] = {"effect": acc[favoured] - nb_accuracy, "p": p_nb,
                                      "evidence": f"accuracy {acc[favoured]:.3f} vs naive Bayes {nb_accuracy:.3f} "
                                                  f"(McNemar: {b} vs {c} documents)"}
    claims["claim.accuracy-vs-euclidean"] = {
        "effect": acc[favoured] - acc["euclidean"], "p": p_e,
        "evidence": f"most accurate reading {name} {acc[favoured]:.3f} vs {READINGS['euclidean']} "
                    f"{acc['euclidean']:.3f} (McNemar: {be} vs {ce} documents); every reading: "
                    + ", ".join(f"{r} {acc[r] - acc['euclidean']:+.3f} (p = {mcnemar[r][2]:.1e})" for r in mcnemar)}
    return claims


def invertibility_claim(sizes: pd.Series, n_components: int, largest_multi_label: int) -> tuple[bool, str]:
    """Whether each category covariance can be inverted after PCA, as Eq. 11 needs: ``(holds, evidence)``.

    A sample covariance of m documents has rank at most m - 1, so it needs more documents
    than dimensions.

    Parameters
    ----------
    sizes : Series
        Training documents per category, largest first.
    n_components : int
        The dimension d of the PCA space.
    largest_multi_label : int
        The training documents of the largest category when documents keep all their topics.

    Examples
    --------
    >>> holds, evidence = invertibility_claim(pd.Series({"earn": 2840, "grain": 41}), 3059, 2877)
    >>> holds, evidence[:68]
    (False, 'd = 3,059; the largest category (earn) has 2,840 training documents,')
    """
    return (bool(sizes.max() > n_components),
            f"d = {n_components:,}; the largest category ({sizes.index[0]}) has {sizes.iloc[0]:,} training documents, "
            "so every category's sample covariance has rank below d and no inverse (in the top-10 multi-label "
            f"setting {sizes.index[0]} has {largest_multi_label:,}); the readings below shrink each covariance "
            "(Ledoit-Wolf)")


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
