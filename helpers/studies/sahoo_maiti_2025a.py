"""Sahoo & Maiti (2025), variance-adjusted cosine: the paper's protocols, readings and audit (notebook 04).

The "population" protocol, kept under a name that says what it does:
:func:`population_protocol_predict` whitens every test point with the matrix of its *own*
class, so it reads the test labels. Use it to reproduce the papers (Sahoo & Maiti 2025, and
the Cholesky-kernel SVM paper, which reuses it), never to evaluate a classifier.
:func:`label_audit` measures how much of its accuracy the test labels carry: the protocol is
run with each test row's own label and with the labels flipped, under the papers' class
matrices and under controls (:func:`label_audit_controls`: the matrices swapped, plus and minus
the identity, random matrices).

The case study of sections 4-5 (notebook 04), in the order of the paper:

* :func:`wdbc_split`: the Wisconsin data and the 80:20 split;
* :func:`k_error_curves` and :func:`error_minima`: Fig. 2, misclassification error against K
  on the test split and under three fold schemes;
* :func:`three_cases` and :func:`classification_rows`: the three cases of lines 353-370 (raw
  cosine, each row with its own class's factor, :math:`E(W^{-1})`) and the rows of their
  classification tables (Figs. 3-5); :func:`eq9_by_hand` writes Eq. 9 out;
* :func:`eq7_versus_case2`: case 2's cosine against Eq. 7's, which uses one factor per pair;
* :func:`leak_free_models` and :func:`split_sweep`: the methods over random splits with every
  transform fitted on training rows, beside the label-using case 2; :data:`PAIRS` and
  :func:`paired_claim` for the normalisation and decorrelation claims;
* :func:`table1_protocol`, :func:`table1_protocol_grid` and :func:`protocols_printing_as`:
  Table 1 (LOOCV and 5-fold CV) under our stated protocol and a grid of plausible ones, and
  which protocols print as the paper's cells (:func:`prints_as`);
* :func:`mcnemar_table`: exact McNemar tests of two methods on the same rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import linalg, stats
from scipy.spatial.distance import cdist, pdist
from sklearn.base import clone
from sklearn.metrics import classification_report
from sklearn.metrics.pairwise import cosine_similarity as sk_cosine
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_predict,
    train_test_split,
)
from sklearn.neighbors import KNeighborsClassifier, NearestNeighbors, NeighborhoodComponentsAnalysis
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from .._validation import check_cv, check_estimator, check_int, check_labels
from ..data import load_salary_age, load_wdbc
from ..estimators import ClassConditionalKNN, ExpectedWhitener, Whitener
from ..evaluation import METRICS, check_scoring, repeated_cv_scores, repeated_split_scores, report_rows
from ..metrics import cosine_similarity, mahalanobis, variance_adjusted_cosine
from ..neighbours import knn_cv_accuracy_by_k, knn_cv_predictions_by_k
from ..plotting import plot_confusions, plot_error_curves, plot_model_scores, plot_raw_and_whitened
from ..significance import compare_pairs, mcnemar_exact, summarize_scores
from ..whitening import (
    METHODS,
    class_priors,
    class_whitening_matrices,
    estimate_covariance,
    expected_whitening_matrix,
    transform_by_class,
    whitening_matrix,
)

__all__ = [
    "CASES",
    "METHODS",
    "PAIRS",
    "TABLE_ROWS",
    "ClassConditionalKNN",
    "Split",
    "area_features",
    "below",
    "class_factor_checks",
    "class_whitening_matrices",
    "classification_reports",
    "classification_rows",
    "compare_pairs",
    "cosine_formula_gap",
    "cosine_knn",
    "cosine_nn",
    "cosine_nn_agreement",
    "cosine_similarity",
    "derivation_cases",
    "eq7_versus_case2",
    "eq9_by_hand",
    "eqs_1_to_4",
    "error_minima",
    "estimate_covariance",
    "expected_factor_checks",
    "expected_whitening_error",
    "fig1_points",
    "k_error_curves",
    "label_audit",
    "label_audit_controls",
    "leak_free_models",
    "load_salary_age",
    "load_wdbc",
    "mcnemar_exact",
    "mcnemar_table",
    "method_invariance",
    "p_mle",
    "paired_claim",
    "plot_confusions",
    "plot_error_curves",
    "plot_model_scores",
    "plot_raw_and_whitened",
    "population_protocol_cv",
    "population_protocol_predict",
    "population_split_scores",
    "prints_as",
    "protocols_printing_as",
    "rel",
    "repeated_cv_scores",
    "salary_age_shares",
    "split_sweep",
    "summarize_scores",
    "table1_protocol",
    "table1_protocol_grid",
    "three_cases",
    "uncentred_transform",
    "variance_adjusted_cosine",
    "wdbc_split",
    "whitening_matrix",
]


def population_protocol_predict(model, X_train, y_train, X_test, y_test_used, X_fit=None, y_fit=None,
                                method="cholesky", covariance="sample", matrices=None):
    """The seeds' "population" protocol. USES THE TEST LABELS (``y_test_used``).

    Per-class whitening matrices are estimated on ``(X_fit, y_fit)`` (default: the
    training data; the papers used all 569 points), every training row is transformed
    with its class's matrix and so is every *test* row, with the label given in
    ``y_test_used``. Passing the true test labels reproduces the papers; passing wrong
    labels shows that the prediction follows the label we gave. ``matrices`` (``{label: W}``)
    replaces the estimated matrices by any label-dependent transform, e.g. random ones.
    ``method`` and ``covariance`` are those of
    :func:`helpers.whitening.class_whitening_matrices` (the papers: Cholesky of the sample
    covariance).

    Returns
    -------
    ndarray: predictions of ``model`` (a fresh clone, fitted on the transformed training data).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> pred = population_protocol_predict(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2])
    >>> pred.shape
    (20,)
    """
    check_estimator(model)
    X_train, y_train = check_labels(X_train, y_train)
    X_test, y_test_used = np.asarray(X_test, dtype=float), np.asarray(y_test_used)
    if X_test.shape[0] != y_test_used.shape[0]:
        raise ValueError(
            f"population protocol needs one (used!) label per test row: X_test has {X_test.shape[0]} rows but "
            f"y_test_used has {y_test_used.shape[0]} labels."
        )
    if matrices is not None:
        mats = matrices
    else:
        if X_fit is None:
            X_fit, y_fit = X_train, y_train
        mats = class_whitening_matrices(np.asarray(X_fit, dtype=float), np.asarray(y_fit), method=method,
                                        covariance=covariance)
    Z_train = transform_by_class(X_train, y_train, mats)
    Z_test = transform_by_class(X_test, y_test_used, mats)
    return clone(model).fit(Z_train, y_train).predict(Z_test)


def population_protocol_cv(model, X, y, cv, matrices_from="all", method="cholesky", covariance="sample",
                           n_jobs=None) -> float:
    """Cross-validated accuracy of the "population" protocol. USES THE TEST LABELS.

    Parameters
    ----------
    cv : scikit-learn splitter (e.g. ``LeaveOneOut()``, ``StratifiedKFold(5)``)
    matrices_from : {"all", "train"}
        Where the per-class matrices are estimated: once on all rows (as the papers
        evidently did) or inside each training fold.

    Returns
    -------
    float: accuracy pooled over all held-out predictions.

    Examples
    --------
    >>> from sklearn.model_selection import StratifiedKFold
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> acc = population_protocol_cv(KNeighborsClassifier(3), X, y, StratifiedKFold(4))
    >>> 0.0 <= acc <= 1.0
    True
    """
    if matrices_from not in ("all", "train"):
        raise ValueError(f"matrices_from must be 'all' or 'train', got {matrices_from!r}.")
    check_estimator(model)
    check_cv(cv)
    X, y = check_labels(X, y)
    pred = np.empty_like(y)
    if matrices_from == "all":
        # one transform of every row with its own class's matrix; then ordinary CV on it
        mats = class_whitening_matrices(X, y, method=method, covariance=covariance)
        Z = transform_by_class(X, y, mats)
        return float(np.mean(cross_val_predict(clone(model), Z, y, cv=cv, n_jobs=n_jobs) == y))
    folds = list(cv.split(X, y))
    parts = Parallel(n_jobs=n_jobs)(
        delayed(population_protocol_predict)(model, X[tr], y[tr], X[te], y[te], method=method, covariance=covariance)
        for tr, te in folds)
    for (_, te), part in zip(folds, parts):
        pred[te] = part
    return float(np.mean(pred == y))


def population_split_scores(model, X, y, n_splits=50, test_size=0.2, random_state=0, matrices_from="all",
                            method="cholesky", covariance="sample", n_jobs=None, scoring="accuracy"):
    """The "population" protocol over the same stratified splits as :func:`repeated_split_scores`.

    USES THE TEST LABELS: each test row is whitened with its own class's matrix.
    ``matrices_from="all"`` estimates the per-class matrices on all rows (as the papers),
    ``"train"`` on the training rows of each split only. ``scoring`` as in
    :func:`repeated_split_scores` (one name: an array; a tuple: ``{metric: array}``).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> population_split_scores(KNeighborsClassifier(3), X, y, n_splits=2).shape
    (2,)
    """
    if matrices_from not in ("all", "train"):
        raise ValueError(f"matrices_from must be 'all' or 'train', got {matrices_from!r}.")
    names, single = check_scoring(scoring)
    check_estimator(model)
    n_splits = check_int(n_splits, "n_splits", 1, "n_splits=50")
    X, y = check_labels(X, y)
    cv = StratifiedShuffleSplit(n_splits=n_splits, test_size=test_size, random_state=random_state)
    fit = (X, y) if matrices_from == "all" else (None, None)
    splits = list(cv.split(X, y))
    preds = Parallel(n_jobs=n_jobs)(
        delayed(population_protocol_predict)(
            model, X[tr], y[tr], X[te], y[te], *fit, method=method, covariance=covariance
        )
        for tr, te in splits)
    out = {n: np.asarray([METRICS[n](y[te], pred) for (_, te), pred in zip(splits, preds)]) for n in names}
    return out[names[0]] if single else out


def label_audit_controls(matrices: dict, n_random: int = 3, random_state=0, word: str = "matrices") -> dict:
    """Label-dependent transforms that carry no information about the data, for :func:`label_audit`.

    Parameters
    ----------
    matrices : dict of {0: W0, 1: W1}
        Class matrices of a binary problem (e.g. estimated on the training rows).
    n_random : int, default=3
        Number of draws of two standard-normal random matrices.
    random_state : int or numpy Generator
        Seed of the random draws.
    word : str, default="matrices"
        What the papers call their matrices ("factors" in the SVM paper), used in the names.

    Returns
    -------
    dict of {name: {0: matrix, 1: matrix}}
        ``matrices`` swapped between the classes, the identity for class 0 and minus the
        identity for class 1, and ``n_random`` pairs of random matrices, in that order.

    Examples
    --------
    >>> controls = label_audit_controls({0: np.eye(2), 1: 2 * np.eye(2)}, n_random=1)
    >>> list(controls)  # doctest: +NORMALIZE_WHITESPACE
    ['the two class matrices swapped', 'identity for class 0, minus identity for class 1',
     'random Gaussian matrices, draw 1']
    >>> controls["the two class matrices swapped"][0].tolist()
    [[2.0, 0.0], [0.0, 2.0]]
    """
    if set(matrices) != {0, 1}:
        raise ValueError(f"the label audit flips 0/1 labels: matrices must be keyed 0 and 1; got {sorted(matrices)}.")
    n_random = check_int(n_random, "n_random", 0, "n_random=3", why="pairs of random Gaussian control matrices")
    rng = np.random.default_rng(random_state)
    eye = np.eye(np.asarray(matrices[0]).shape[0])
    return {
        f"the two class {word} swapped": {0: matrices[1], 1: matrices[0]},
        "identity for class 0, minus identity for class 1": {0: eye, 1: -eye},
        **{f"random Gaussian matrices, draw {i + 1}": {cl: rng.normal(size=eye.shape) for cl in (0, 1)}
           for i in range(n_random)},
    }


def label_audit(model, X_train, y_train, X_test, y_test, transforms: dict) -> pd.DataFrame:
    """How much of the population protocol's accuracy the test labels carry.

    For each set of class matrices the protocol (:func:`population_protocol_predict`) is run
    twice: with each test row's own label and with the 0/1 labels flipped. A transform that
    finds structure in the data scores well either way; one that only reads the label scores
    well with the true labels and badly with flipped ones, predicting the flipped label.

    Parameters
    ----------
    model : scikit-learn classifier
        Cloned for each run.
    X_train, y_train, X_test, y_test : array-like
        A split of a binary problem with labels 0 and 1.
    transforms : dict of {name: {0: matrix, 1: matrix}}
        The papers' class matrices and controls (:func:`label_audit_controls`).

    Returns
    -------
    pandas.DataFrame
        One row per transform: ``acc., own labels``, ``acc., flipped labels`` and
        ``follows flipped label`` (the share of test rows predicted as their flipped label).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(5.0, 1.0, size=(60, 2)), np.repeat([0, 1], 30)   # one cloud: no class structure
    >>> audit = label_audit(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2],
    ...                     label_audit_controls({0: np.eye(2), 1: np.eye(2)}, n_random=0))
    >>> audit.loc["identity for class 0, minus identity for class 1"].round(2).tolist()
    [1.0, 0.0, 1.0]
    """
    y_test = np.asarray(y_test)
    if not set(np.unique(y_test)) <= {0, 1}:
        raise ValueError(f"the label audit flips 0/1 labels; y_test holds {sorted(set(np.unique(y_test).tolist()))}.")
    rows = {}
    for name, mats in transforms.items():
        own = population_protocol_predict(model, X_train, y_train, X_test, y_test, matrices=mats)
        flipped = population_protocol_predict(model, X_train, y_train, X_test, 1 - y_test, matrices=mats)
        rows[name] = {"acc., own labels": np.mean(own == y_test), "acc., flipped labels": np.mean(flipped == y_test),
                      "follows flipped label": np.mean(flipped == 1 - y_test)}
    return pd.DataFrame(rows).T



# --------------------------------------------------------------------------------------------
# Section 4: the data and the split


class Split(NamedTuple):
    """The Wisconsin data as arrays (malignant = 1) and one stratified-by-chance train/test split."""

    X: np.ndarray
    y: np.ndarray
    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray


def wdbc_split(test_size: float = 0.2, random_state=42) -> Split:
    """WDBC (569 rows x 30 features) and the papers' training:validation split, 80:20 by default.

    The papers name no seed; ``random_state=42`` gives 71 benign and 43 malignant test rows,
    the supports the cosine paper prints in its three tables (lines 394-396, 425-427, 456-458).

    Returns
    -------
    Split
        ``X, y, X_train, X_test, y_train, y_test`` (a named tuple, so it unpacks).

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> X.shape, len(y_test), int((y_test == 0).sum()), int(y_test.sum())
    ((569, 30), 114, 71, 43)
    """
    X_df, y_s = load_wdbc()
    X, y = X_df.to_numpy(), y_s.to_numpy()
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, random_state=random_state)
    return Split(X, y, X_train, X_test, y_train, y_test)


def cosine_knn(k: int = 13) -> KNeighborsClassifier:
    """The paper's classifier: kNN with the cosine distance and ``k`` neighbours (K = 13, Fig. 2)."""
    return KNeighborsClassifier(k, metric="cosine")


# --------------------------------------------------------------------------------------------
# Fig. 2: the optimal K


def k_error_curves(X_train, y_train, X_test, y_test, ks, random_state=0) -> dict[str, np.ndarray]:
    """Misclassification error of raw cosine kNN against K, four ways (Fig. 2 names no protocol).

    On the test split, and by 10-fold CV on the training rows with unshuffled ``KFold(10)``,
    scikit-learn's default ``StratifiedKFold(10)`` and shuffled stratified folds (seeded by
    ``random_state``).

    Returns
    -------
    dict of {name: ndarray}
        One error per K of ``ks``, in the order given.

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> curves = k_error_curves(X_train, y_train, X_test, y_test, [11, 13, 15], random_state=42)
    >>> {name: err.round(4).tolist() for name, err in curves.items()}["training rows, KFold(10)"]
    [0.077, 0.0704, 0.0793]
    """
    ks = [int(kk) for kk in ks]
    curves = {"test split": np.array([1 - cosine_knn(kk).fit(X_train, y_train).score(X_test, y_test) for kk in ks])}
    schemes = {"training rows, KFold(10)": KFold(10), "training rows, StratifiedKFold(10)": StratifiedKFold(10),
               "training rows, StratifiedKFold(10) shuffled": StratifiedKFold(10, shuffle=True,
                                                                              random_state=random_state)}
    for name, cv in schemes.items():
        acc = knn_cv_accuracy_by_k(X_train, y_train, ks, cv)
        curves[name] = 1 - np.array([acc[kk] for kk in ks])
    return curves


def error_minima(ks, curves: Mapping) -> dict[str, list[int]]:
    """The K at the lowest error of each curve, ties (equal to 1e-8) included.

    Examples
    --------
    >>> error_minima([1, 3, 5], {"a": np.array([0.2, 0.1, 0.1]), "b": np.array([0.1, 0.2, 0.3])})
    {'a': [3, 5], 'b': [1]}
    """
    ks = np.asarray(ks)
    return {name: [int(kk) for kk in ks[np.isclose(err, np.min(err))]] for name, err in curves.items()}


# --------------------------------------------------------------------------------------------
# Figs. 3-5: the three cases on the split

#: the paper's three cases (lines 353-370), by ledger prefix: our name of each
CASES = {"case1": "raw_cosine", "case2": "population_cholesky", "case3": "expected_cholesky"}

#: the rows of a classification table, by ledger suffix: their label in :func:`report_rows`
TABLE_ROWS = {"class0": 0, "class1": 1, "accuracy": "accuracy", "macro": "macro avg", "weighted": "weighted avg"}


class Cases(NamedTuple):
    """Test predictions of the three cases, and the matrices behind cases 2 and 3."""

    predictions: dict      #: {"raw_cosine": ..., "population_cholesky": ..., "expected_cholesky": ...}
    matrices: dict         #: case 2: {0: W_B, 1: W_M}, the class factors of all rows
    expected: np.ndarray   #: case 3: E(W^-1) of the training rows (Eq. 9)


def three_cases(split: Split, k: int = 13, method="cholesky", covariance="sample") -> Cases:
    """The three cases of lines 353-370, cosine kNN with ``k`` neighbours on the split.

    Case 1: raw data. Case 2 ("population", lines 356-362): class covariances of all rows,
    every row, test rows included, multiplied by its own class's inverse factor: this reads
    the test labels. Case 3 (lines 363-370): :math:`E(W^{-1})` of the training classes
    (Eq. 9, with p of Eq. 10) applied to training and test rows alike.

    Examples
    --------
    >>> split = wdbc_split()
    >>> cases = three_cases(split)
    >>> {name: round(float(np.mean(p == split.y_test)), 3) for name, p in cases.predictions.items()}
    {'raw_cosine': 0.939, 'population_cholesky': 1.0, 'expected_cholesky': 0.947}
    """
    X, y, X_train, X_test, y_train, y_test = split
    knn = cosine_knn(k)
    mats_all = class_whitening_matrices(X, y, method=method, covariance=covariance)         # case 2: every label
    E = expected_whitening_matrix(X_train, y_train, method=method, covariance=covariance)    # case 3: training rows
    preds = {"raw_cosine": clone(knn).fit(X_train, y_train).predict(X_test),
             "population_cholesky": population_protocol_predict(knn, X_train, y_train, X_test, y_test,
                                                                matrices=mats_all),
             "expected_cholesky": clone(knn).fit(X_train @ E.T, y_train).predict(X_test @ E.T)}
    return Cases(preds, mats_all, E)


def classification_reports(y_true, predictions: Mapping, target_names=("0 (benign)", "1 (malignant)"),
                           **options) -> str:
    """scikit-learn's classification report of each model, under its name, three digits, for printing.

    ``options`` go to :func:`sklearn.metrics.classification_report` (e.g. ``zero_division=0``).

    Examples
    --------
    >>> print(classification_reports([0, 1, 1], {"m": [0, 1, 0]}).splitlines()[0])
    m
    """
    return "".join(f"{name}\n{classification_report(y_true, p, target_names=list(target_names), digits=3, **options)}\n"
                   for name, p in predictions.items())


def classification_rows(y_true, predictions: Mapping) -> dict[str, dict[str, list]]:
    """The printed rows of the classification tables of Figs. 3-5, per case.

    Returns
    -------
    dict of {case: {row: values}}
        ``case`` of :data:`CASES`, ``row`` of :data:`TABLE_ROWS`; values as
        :func:`helpers.evaluation.report_rows` gives them (precision; recall; F1; support, or
        accuracy; support).

    Examples
    --------
    >>> rows = classification_rows([0, 0, 1], {"raw_cosine": [0, 1, 1]})
    >>> rows["case1"]["accuracy"], rows["case1"]["class1"]
    ([0.6666666666666666, 3], [0.5, 1.0, 0.6666666666666666, 1])
    """
    by_name = {name: case for case, name in CASES.items()}
    out = {}
    for name, pred in predictions.items():
        rows = report_rows(y_true, pred)
        out[by_name[name]] = {key: rows[label] for key, label in TABLE_ROWS.items()}
    return out


def eq9_by_hand(X_train, y_train, method="cholesky", covariance="sample") -> tuple[float, np.ndarray]:
    """Eq. 9 written out: :math:`p\\,W_1^{-1} + (1 - p)\\,W_0^{-1}`, with p of Eq. 10 from the training rows.

    Returns
    -------
    (p, matrix)
        The share of class 1 among the training rows and the mixed factor.

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> p, M = eq9_by_hand(X_train, y_train)
    >>> round(float(p), 4), bool(np.allclose(M, expected_whitening_matrix(X_train, y_train), rtol=1e-12, atol=0))
    (0.3714, True)
    """
    p1 = class_priors(y_train)[1]                                       # Eq. 10
    W = class_whitening_matrices(X_train, y_train, method=method, covariance=covariance)
    return p1, p1 * W[1] + (1 - p1) * W[0]                             # Eq. 9


# --------------------------------------------------------------------------------------------
# Section 5.3: case 2 against Eq. 7


def eq7_versus_case2(X_train, y_train, X_test, y_test, matrices: Mapping) -> dict:
    """How far case 2's cosine is from Eq. 7's, pair by pair (test row, training row).

    Eq. 7 transforms *both* vectors of a pair with one factor :math:`A_{y=k}^{-1}`; case 2
    gives each row its own class's factor. With k the training row's class, the two agree on
    pairs of one class and differ on pairs of different classes.

    Returns
    -------
    dict
        ``n_pairs``; ``cross_share`` (share of pairs of different classes); ``same_gap_max``,
        ``cross_gap_median``, ``cross_gap_max`` (|case-2 cosine - Eq. 7 cosine|); the mean
        cosine of same-class and different-class pairs, raw (``raw_same``, ``raw_cross``) and
        after case 2's transform (``case2_same``, ``case2_cross``).

    Examples
    --------
    >>> split = wdbc_split()
    >>> gaps = eq7_versus_case2(split.X_train, split.y_train, split.X_test, split.y_test,
    ...                         class_whitening_matrices(split.X, split.y))
    >>> round(gaps["cross_share"], 3), gaps["same_gap_max"] < 1e-12, round(gaps["cross_gap_max"], 3)
    (0.468, True, 0.447)
    """
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    cos_case2 = sk_cosine(transform_by_class(X_test, y_test, matrices),
                                  transform_by_class(X_train, y_train, matrices))
    cos_eq7 = np.empty_like(cos_case2)                  # Eq. 7: one factor, the training row's class, for both rows
    for cl, W in matrices.items():
        cols = y_train == cl
        cos_eq7[:, cols] = sk_cosine(X_test @ W.T, X_train[cols] @ W.T)
    cross = y_test[:, None] != y_train[None, :]
    gap = np.abs(cos_case2 - cos_eq7)
    raw = sk_cosine(X_test, X_train)
    return {"n_pairs": int(cross.size), "cross_share": float(cross.mean()),
            "same_gap_max": float(gap[~cross].max()), "cross_gap_median": float(np.median(gap[cross])),
            "cross_gap_max": float(gap[cross].max()),
            "raw_same": float(raw[~cross].mean()), "raw_cross": float(raw[cross].mean()),
            "case2_same": float(cos_case2[~cross].mean()), "case2_cross": float(cos_case2[cross].mean())}


# --------------------------------------------------------------------------------------------
# Sections 5.4-5.5: random splits, nothing fitted on test rows


def leak_free_models(k: int = 13, method="cholesky", covariance="sample", random_state=0) -> dict:
    """The methods compared over random splits; every transform is fitted on the training rows.

    Raw cosine kNN; cosine after scaling each feature (without and with centring: the
    paper's "normalised"); after whitening with one pooled covariance (uncentred as the
    paper's line 222, and centred); :math:`E(W^{-1})` (case 3); Eq. 7 as printed
    (:class:`~helpers.estimators.ClassConditionalKNN`, no test label); NCA + Euclidean kNN.

    Examples
    --------
    >>> list(leak_free_models())  # doctest: +NORMALIZE_WHITESPACE
    ['raw_cosine', 'scaled_cosine', 'standardised_cosine', 'whitened_cosine', 'whitened_centred_cosine',
     'expected_cholesky', 'eq7_class_conditional', 'nca_knn']
    """
    return {
        "raw_cosine": cosine_knn(k),
        "scaled_cosine": make_pipeline(StandardScaler(with_mean=False), cosine_knn(k)),
        "standardised_cosine": make_pipeline(StandardScaler(), cosine_knn(k)),
        "whitened_cosine": make_pipeline(Whitener(method, covariance), cosine_knn(k)),
        "whitened_centred_cosine": make_pipeline(Whitener(method, covariance, center=True), cosine_knn(k)),
        "expected_cholesky": make_pipeline(ExpectedWhitener(method, covariance), cosine_knn(k)),
        "eq7_class_conditional": ClassConditionalKNN(k, method=method, covariance=covariance),
        "nca_knn": make_pipeline(StandardScaler(), NeighborhoodComponentsAnalysis(random_state=random_state),
                                 KNeighborsClassifier(k)),
    }


def split_sweep(models: Mapping, X, y, k: int = 13, n_splits: int = 50, test_size: float = 0.2, random_state=0,
                method="cholesky", covariance="sample") -> dict[str, np.ndarray]:
    """Test accuracy of each model over the same stratified random splits, and case 2 beside them.

    Case 2 (the population protocol, which reads the test labels) is run twice for contrast:
    ``population_cholesky`` with class matrices from all rows (as the paper) and
    ``population_cholesky_train_matrices`` with matrices from each split's training rows.

    Returns
    -------
    dict of {name: ndarray of shape (n_splits,)}

    Examples
    --------
    >>> split = wdbc_split()
    >>> scores = split_sweep({"raw_cosine": cosine_knn()}, split.X, split.y, n_splits=2)
    >>> {name: s.round(3).tolist() for name, s in scores.items()}["population_cholesky_train_matrices"]
    [1.0, 1.0]
    """
    scores = repeated_split_scores(models, X, y, n_splits=n_splits, test_size=test_size, random_state=random_state)
    for source, name in (("all", "population_cholesky"), ("train", "population_cholesky_train_matrices")):
        scores[name] = population_split_scores(cosine_knn(k), X, y, n_splits=n_splits, test_size=test_size,
                                               random_state=random_state, matrices_from=source,
                                               method=method, covariance=covariance)
    return scores


#: the pairs of section 5.5 (first better if the difference is positive): normalising, decorrelating, Eq. 7
PAIRS = [("standardised_cosine", "raw_cosine"), ("scaled_cosine", "raw_cosine"),
         ("whitened_centred_cosine", "standardised_cosine"), ("whitened_cosine", "scaled_cosine"),
         ("expected_cholesky", "scaled_cosine"), ("whitened_centred_cosine", "raw_cosine"),
         ("whitened_cosine", "raw_cosine"), ("eq7_class_conditional", "raw_cosine")]


def paired_claim(paired: pd.DataFrame, a: str, b: str, words: str, n_splits: int) -> dict:
    """A claimed advantage of ``a`` over ``b`` as effect, p-value and evidence, from a :func:`compare_pairs` table.

    Examples
    --------
    >>> t = pd.DataFrame({"mean_diff": [0.035], "p_value": [0.009], "wins": [44], "losses": [3]}, index=["a vs b"])
    >>> paired_claim(t, "a", "b", "a against b", 50)["evidence"]
    'a against b: +0.035 accuracy over 50 splits (44 wins, 3 losses), corrected paired p = 0.009'
    """
    r = paired.loc[f"{a} vs {b}"]
    return {"effect": r["mean_diff"], "p": r["p_value"],
            "evidence": f"{words}: {r['mean_diff']:+.3f} accuracy over {n_splits} splits "
                        f"({int(r['wins'])} wins, {int(r['losses'])} losses), corrected paired p = {r['p_value']:.3g}"}


# --------------------------------------------------------------------------------------------
# Table 1: LOOCV and 5-fold CV


def table1_protocol(X, y, k: int = 13, matrices: Mapping | None = None, method="cholesky", covariance="sample"):
    """Table 1 under our stated protocol: K = 13, all rows, LOOCV and ``StratifiedKFold(5)``.

    Raw cosine kNN; case 2 with each row transformed by its own class's matrix (``matrices``,
    by default those of all rows), held-out rows included; :math:`E(W^{-1})` fitted on each
    training fold.

    Returns
    -------
    (accuracy, predictions)
        ``{"LOOCV" | "5-fold": {case name: accuracy}}`` and the held-out predictions of raw
        cosine and :math:`E(W^{-1})` for paired tests, ``{"LOOCV" | "5-fold": {name: array}}``.

    Examples
    --------
    >>> split = wdbc_split()
    >>> acc, pred = table1_protocol(split.X[:100, :5], split.y[:100])          # a corner, for speed
    >>> {cv: [round(a, 3) for a in row.values()] for cv, row in acc.items()}
    {'LOOCV': [0.82, 1.0, 0.92], '5-fold': [0.81, 1.0, 0.93]}
    """
    if matrices is None:
        matrices = class_whitening_matrices(X, y, method=method, covariance=covariance)
    Z_pop = transform_by_class(X, y, matrices)                           # case 2: every row with its own label
    ew = ExpectedWhitener(method, covariance)
    accuracy, predictions = {}, {}
    for cv_name, cv in {"LOOCV": LeaveOneOut(), "5-fold": StratifiedKFold(5)}.items():
        accuracy[cv_name] = {"raw_cosine": knn_cv_accuracy_by_k(X, y, [k], cv)[k],
                             "population_cholesky": knn_cv_accuracy_by_k(Z_pop, y, [k], cv)[k],
                             "expected_cholesky": knn_cv_accuracy_by_k(X, y, [k], cv, transformer=ew)[k]}
        predictions[cv_name] = {"raw_cosine": knn_cv_predictions_by_k(X, y, [k], cv)[k],
                                "expected_cholesky": knn_cv_predictions_by_k(X, y, [k], cv, transformer=ew)[k]}
    return accuracy, predictions


def table1_protocol_grid(X, y, X_train, y_train, E_split, k_grid=range(1, 16, 2), random_state=0,
                         method="cholesky", covariance="sample") -> pd.Series:
    """Cross-validated accuracy of the three cases under a grid of plausible Table 1 protocols.

    Rows: all rows or the training rows of the split; folds: LOOCV and 5-fold, unshuffled,
    stratified, shuffled (seeded by ``random_state``) or both; K of ``k_grid``; and
    :math:`E(W^{-1})` estimated once on the rows evaluated, taken from the split's training
    rows (``E_split``), or fitted in each training fold.

    Returns
    -------
    pandas.Series
        Accuracy indexed by (variant, data, folds, K).

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> E = expected_whitening_matrix(X_train, y_train)
    >>> grid = table1_protocol_grid(X[:100, :5], y[:100], X_train[:80, :5], y_train[:80], E[:5, :5], k_grid=[13])
    >>> len(grid), sorted(set(grid.index.get_level_values("data")))
    (50, ['all 100', 'train 80'])
    """
    folds = {"LOOCV": LeaveOneOut(), "5-fold": KFold(5), "5-fold strat": StratifiedKFold(5),
             "5-fold shuf": KFold(5, shuffle=True, random_state=random_state),
             "5-fold strat shuf": StratifiedKFold(5, shuffle=True, random_state=random_state)}
    ew = ExpectedWhitener(method, covariance)
    k_grid = list(k_grid)
    grid = {}
    for data_name, (Xd, yd) in {f"all {len(y)}": (X, y), f"train {len(y_train)}": (X_train, y_train)}.items():
        Zd = transform_by_class(Xd, yd, class_whitening_matrices(Xd, yd, method=method, covariance=covariance))
        Ed = expected_whitening_matrix(Xd, yd, method=method, covariance=covariance)
        variants = {"raw_cosine": (Xd, None), "population_cholesky": (Zd, None),
                    "expected, once on the rows": (Xd @ Ed.T, None),
                    "expected, from the 80:20 split": (Xd @ E_split.T, None), "expected, in each fold": (Xd, ew)}
        for cv_name, cv in folds.items():
            for variant, (Xc, transformer) in variants.items():
                for kk, acc in knn_cv_accuracy_by_k(Xc, yd, k_grid, cv, transformer=transformer).items():
                    grid[(variant, data_name, cv_name, kk)] = acc
    return pd.Series(grid).rename_axis(["variant", "data", "folds", "K"])


def prints_as(printed: str, value: float) -> bool:
    """Whether ``value`` prints as the decimal ``printed``, rounded or truncated to its digits.

    Some sources cut digits instead of rounding, so both count (to 1e-9 relative slack).

    Examples
    --------
    >>> prints_as("0.939", 107 / 114), prints_as("0.971", 553 / 569), prints_as("0.912", 0.9068)
    (True, True, False)
    """
    text = printed.strip()
    target = float(text)
    decimals = len(text.split(".")[1]) if "." in text else 0
    unit = 10.0 ** -decimals
    slack = 1e-9 * max(1.0, abs(target))
    if abs(value - target) <= 0.5 * unit + slack:
        return True
    truncated = math.trunc(value / unit + math.copysign(1e-9, value)) * unit
    return abs(truncated - target) <= slack


def protocols_printing_as(grid: pd.Series, readings: Mapping[str, str]) -> pd.DataFrame:
    """The protocols of :func:`table1_protocol_grid` whose accuracy prints as each Table 1 cell.

    Parameters
    ----------
    grid : pandas.Series
        From :func:`table1_protocol_grid`.
    readings : dict of {"LOOCV" | "5-fold": str}
        The legible reading of each Table 1 row, "raw; case 2; E(W^-1)" (e.g. ``"0.9121; 1.0; 0.9244"``);
        the case-2 cell, 1.0 under every protocol, is left out.

    Returns
    -------
    pandas.DataFrame
        One row per cell: the printed value, the number of protocols tried and those that
        print as it ("variant | data | folds | K (accuracy)"; "none").

    Examples
    --------
    >>> grid = pd.Series({("raw_cosine", "all", "LOOCV", 1): 0.91213, ("expected, x", "all", "LOOCV", 1): 0.9})
    >>> grid = grid.rename_axis(["variant", "data", "folds", "K"])
    >>> protocols_printing_as(grid, {"LOOCV": "0.9121; 1.0; 0.9244"})["protocols that print as it"].tolist()
    ['raw_cosine | all | LOOCV | 1 (0.91213)', 'none']
    """
    variant = grid.index.get_level_values("variant")
    is_loo = grid.index.get_level_values("folds") == "LOOCV"
    hits = []
    for cv_kind, reading in readings.items():
        for case, printed in zip(("raw_cosine", "population_cholesky", "expected"), reading.split(";")):
            if case == "population_cholesky":
                continue
            cand = grid[variant.str.startswith(case) & (is_loo if cv_kind == "LOOCV" else ~is_loo)]
            found = [" | ".join(map(str, i)) + f" ({v:.5f})" for i, v in cand.items() if prints_as(printed, v)]
            hits.append({"Table 1 cell": f"{cv_kind}, {case}", "printed (read)": printed.strip(),
                         "protocols tried": len(cand), "protocols that print as it": "; ".join(found) or "none"})
    return pd.DataFrame(hits).set_index("Table 1 cell")


def mcnemar_table(y_true, pairs: Mapping, names=("A", "B")) -> pd.DataFrame:
    """Exact McNemar tests of two methods' predictions on the same rows, one row per scheme.

    Parameters
    ----------
    pairs : dict of {scheme: (pred_a, pred_b)}
    names : (str, str)
        Short names of the two methods, for the count columns.

    Returns
    -------
    pandas.DataFrame
        ``effect`` (net rows in favour of a, as a share of the rows), ``p_value`` and the two
        discordant counts, ``"{a} right, {b} wrong"`` and ``"{b} right, {a} wrong"``.

    Examples
    --------
    >>> mcnemar_table([0, 1, 1, 0], {"split": ([0, 1, 1, 1], [0, 0, 0, 0])}, ("E", "raw"))
           effect  p_value  E right, raw wrong  raw right, E wrong
    split    0.25      1.0                   2                   1
    """
    a, b = names
    rows = {}
    for scheme, (pred_a, pred_b) in pairs.items():
        n_a, n_b, p = mcnemar_exact(y_true, pred_a, pred_b)
        rows[scheme] = {"effect": (n_a - n_b) / len(y_true), "p_value": p,
                        f"{a} right, {b} wrong": n_a, f"{b} right, {a} wrong": n_b}
    return pd.DataFrame.from_dict(rows, orient="index")


# --------------------------------------------------------------------------------------------
# Notebook 02, sections 1-2 and Fig. 1: cosine and the shape of the data


def cosine_formula_gap(rows) -> float:
    """Largest gap between the paper's cosine formula (lines 128-140) and scikit-learn's and helpers' cosine.

    Examples
    --------
    >>> rows = np.random.default_rng(0).normal(size=(20, 3))
    >>> cosine_formula_gap(rows) < 1e-12
    True
    """
    rows = np.asarray(rows, dtype=float)
    norms = np.linalg.norm(rows, axis=1)
    formula = rows @ rows.T / np.outer(norms, norms)                      # X_i.X_j / (|X_i| |X_j|)
    return float(max(np.abs(formula - sk_cosine(rows)).max(), np.abs(cosine_similarity(rows, rows) - formula).max()))


def fig1_points(sigma, points: Mapping) -> tuple[dict, pd.DataFrame]:
    """Fig. 1 constructed: the prediction-ellipse level of each point and the raw and variance-adjusted cosines.

    Parameters
    ----------
    sigma : (2, 2) array
        The covariance of the zero-mean Gaussian.
    points : dict of {"A" | "B" | "C": (2,) array}

    Returns
    -------
    (levels, table)
        ``{point: chi2_2 CDF of its squared Mahalanobis distance}``, and for the pairs (A, B) and
        (B, C) the angle and cosine, raw and after whitening with the Cholesky factor (Eq. 7).

    Examples
    --------
    >>> levels, abc = fig1_points([[9.0, 2.7], [2.7, 1.0]], {"A": np.array([5.5, 0.5]), "B": np.array([2.5, 1.0]),
    ...                                                      "C": np.array([0.5, 0.5])})
    >>> round(levels["A"], 3), abc["cosine, variance-adjusted"].round(3).tolist()
    (0.994, [0.004, 0.723])
    """
    sigma = np.asarray(sigma, dtype=float)
    W = whitening_matrix(sigma, "cholesky")                                # Eq. 4: W = A^-1 with sigma = A A'
    VI = np.linalg.inv(sigma)
    levels = {p: float(stats.chi2.cdf(mahalanobis(x, np.zeros(2), VI) ** 2, df=2)) for p, x in points.items()}
    rows = []
    for p, q in [("A", "B"), ("B", "C")]:
        raw = cosine_similarity(points[p], points[q])
        adj = variance_adjusted_cosine(points[p], points[q], W)            # Eq. 7
        rows.append({"pair": f"({p},{q})", "angle, raw (deg)": np.degrees(np.arccos(raw)), "cosine, raw": raw,
                     "angle, whitened (deg)": np.degrees(np.arccos(adj)), "cosine, variance-adjusted": adj})
    return levels, pd.DataFrame(rows).set_index("pair")


def cosine_nn(Z) -> np.ndarray:
    """Index of each row's nearest other row by cosine similarity.

    Examples
    --------
    >>> cosine_nn(np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0]])).tolist()
    [1, 0, 1]
    """
    C = cosine_similarity(Z, Z)
    np.fill_diagonal(C, -np.inf)
    return C.argmax(axis=1)


def cosine_nn_agreement(rng, dims: int, correlation: float, n: int, X_wdbc) -> dict[str, float]:
    """How often raw and variance-adjusted cosine pick the same nearest neighbour, on three data sets.

    A ``dims``-feature Gaussian cloud with ``correlation`` between every two features and
    standard deviations from 0.1 to 10 (whitened with its covariance), WDBC's rows centred
    (whitened with their sample covariance), and a spheroidal cloud (covariance I), the
    control. The two clouds are drawn from ``rng``, in that order.

    Examples
    --------
    >>> X = load_wdbc()[0].to_numpy()
    >>> agree = cosine_nn_agreement(np.random.default_rng(0), 5, 0.9, 200, X)
    >>> [round(v, 2) for v in agree.values()][2]
    1.0
    """
    sds = np.geomspace(0.1, 10, dims)
    corr = np.full((dims, dims), correlation) + (1 - correlation) * np.eye(dims)
    sigma = corr * np.outer(sds, sds)
    cloud = rng.multivariate_normal(np.zeros(dims), sigma, size=n)
    sphere = rng.multivariate_normal(np.zeros(dims), np.eye(dims), size=n)
    X_w = np.asarray(X_wdbc, dtype=float)
    X_w = X_w - X_w.mean(axis=0)
    return {
        f"correlated cloud ({dims} features, correlation {correlation:g})":
            float(np.mean(cosine_nn(cloud) == cosine_nn(cloud @ whitening_matrix(sigma).T))),
        f"WDBC ({X_w.shape[1]} features, sample covariance)":
            float(np.mean(cosine_nn(X_w) == cosine_nn(X_w @ whitening_matrix(estimate_covariance(X_w)).T))),
        f"spheroidal cloud ({dims} features, covariance I)":
            float(np.mean(cosine_nn(sphere) == cosine_nn(sphere @ whitening_matrix(np.eye(dims)).T))),
    }


# --------------------------------------------------------------------------------------------
# Notebook 02, section 5: unnormalised features (the paper's lines 441-443: normalisation removes
# some of the variance effects), measured on the slides' salary/age table and on WDBC


def salary_age_shares(table: pd.DataFrame, query) -> pd.DataFrame:
    """Each customer's distance from the query and the share of it that salary makes, raw and range-normalised.

    Parameters
    ----------
    table : DataFrame
        ``id``, ``salary``, ``age``, ``purchased`` (:func:`helpers.data.load_salary_age`).
    query : array-like
        (salary, age) of the query.

    Examples
    --------
    >>> shares = salary_age_shares(*load_salary_age())
    >>> int(shares["d, raw"].idxmin()), int(shares["d, normalised"].idxmin())
    (6, 1)
    """
    X, q = table[["salary", "age"]].to_numpy(float), np.asarray(query, dtype=float)
    scaler = MinMaxScaler().fit(X)
    sq_raw = (X - q) ** 2
    sq_norm = (scaler.transform(X) - scaler.transform(q[None, :])) ** 2
    return table[["id", "purchased"]].assign(**{
        "salary share of d^2, raw (%)": 100 * sq_raw[:, 0] / sq_raw.sum(axis=1), "d, raw": np.sqrt(sq_raw.sum(axis=1)),
        "salary share of d^2, normalised (%)": 100 * sq_norm[:, 0] / sq_norm.sum(axis=1),
        "d, normalised": np.sqrt(sq_norm.sum(axis=1))}).set_index("id")


def area_features(X_df: pd.DataFrame, k: int = 5) -> tuple[list[str], float, pd.DataFrame]:
    """How much WDBC's three *area* features decide Euclidean distances and neighbours, raw and standardised.

    Returns
    -------
    (columns, share, overlap)
        The area columns; their share of the summed squared Euclidean distances between all
        rows; and, raw and standardised, the mean share of each row's ``k`` nearest neighbours
        (all 30 features) that are also its ``k`` nearest by the area features alone.

    Examples
    --------
    >>> cols, share, overlap = area_features(load_wdbc()[0], 5)
    >>> cols, round(share, 4), overlap.iloc[:, 0].round(3).tolist()
    (['mean area', 'area error', 'worst area'], 0.996, [0.901, 0.099])
    """
    cols = [c for c in X_df.columns if "area" in c]
    idx = [X_df.columns.get_loc(c) for c in cols]
    X = X_df.to_numpy()
    diff2 = (X[:, None, :] - X[None, :, :]) ** 2
    share = float(diff2[:, :, idx].sum() / diff2.sum())

    def neighbour_sets(Z):
        found = NearestNeighbors(n_neighbors=k + 1).fit(Z).kneighbors(Z, return_distance=False)
        return [set(row[1:]) for row in found]

    def overlap(a, b):
        return np.mean([len(s & t) / len(s) for s, t in zip(a, b)])

    X_std = StandardScaler().fit_transform(X_df)
    table = pd.DataFrame({f"share of {k}-NN also {k}-NN by the area features alone": [
        overlap(neighbour_sets(X), neighbour_sets(X[:, idx])),
        overlap(neighbour_sets(X_std), neighbour_sets(X_std[:, idx]))]},
        index=[f"all {X.shape[1]} features, raw", f"all {X.shape[1]} features, standardised"])
    return cols, share, table


# --------------------------------------------------------------------------------------------
# Notebook 03: the derivations of sections 1-3, Eqs. 1-10, checked to rounding


def below(value: float, bound: float = 1e-6) -> str:
    """A rounding-level difference printed as ``"< bound"``, so stored outputs do not depend on the BLAS.

    Examples
    --------
    >>> below(3e-12), below(0.02)
    ('< 1e-06', '2.00e-02  (ABOVE the bound)')
    """
    return f"< {bound:.0e}" if value < bound else f"{value:.2e}  (ABOVE the bound)"


def rel(a, b) -> float:
    """Largest difference between ``a`` and ``b``, relative to the largest entry of ``b``.

    Examples
    --------
    >>> rel([1.0, 2.0], [1.0, 4.0])
    0.5
    """
    a, b = np.asarray(a), np.asarray(b)
    return float(np.abs(a - b).max() / np.abs(b).max())


def derivation_cases(rng, n_features: int = 6, n_samples: int = 500):
    """WDBC and a random positive definite matrix, the two cases the derivations are checked on.

    The random matrix is :math:`AA^\\top + pI` with Gaussian :math:`A` (drawn from ``rng``), and
    ``n_samples`` rows from :math:`N(0, AA^\\top + pI)`.

    Returns
    -------
    (X, y, cases, class_covs)
        WDBC's rows and labels; ``{"WDBC": (rows, sample covariance, mean), "random SPD": (rows,
        true covariance, 0)}``; the sample covariance of each WDBC class,
        ``{"benign": ..., "malignant": ...}``.

    Examples
    --------
    >>> X, y, cases, class_covs = derivation_cases(np.random.default_rng(0))
    >>> {name: data.shape for name, (data, _, _) in cases.items()}, sorted(class_covs)
    ({'WDBC': (569, 30), 'random SPD': (500, 6)}, ['benign', 'malignant'])
    """
    X_df, y_ser = load_wdbc()
    X, y = X_df.to_numpy(), y_ser.to_numpy()
    sigma = estimate_covariance(X, "sample")
    A = rng.normal(size=(n_features, n_features))
    sigma_rand = A @ A.T + n_features * np.eye(n_features)
    X_rand = rng.multivariate_normal(np.zeros(n_features), sigma_rand, size=n_samples)
    cases = {"WDBC": (X, sigma, X.mean(axis=0)), "random SPD": (X_rand, sigma_rand, np.zeros(n_features))}
    class_covs = {name: estimate_covariance(X[y == k], "sample") for k, name in ((0, "benign"), (1, "malignant"))}
    return X, y, cases, class_covs


def eqs_1_to_4(cases: Mapping) -> pd.DataFrame:
    """Eqs. 1-4 (and SVM Eqs. 9-11) on each case: the Cholesky route from the Mahalanobis distance to a Euclidean norm.

    Eq. 1 against scipy's Mahalanobis distance; Eq. 2, :math:`\\Sigma = AA^\\top` with A lower
    triangular and :math:`(A^\\top)^{-1}A^{-1} = \\Sigma^{-1}`; Eqs. 3-4, :math:`Z^\\top Z` with
    :math:`Z = A^{-1}(X - \\mu)`; pairwise Euclidean distances after :math:`A^{-1}` against
    Mahalanobis distances; and, for WDBC (an estimated covariance), cov(Z) against I.

    Returns
    -------
    DataFrame
        Largest relative differences, one row per case (NaN where not applicable).

    Examples
    --------
    >>> _, _, cases, _ = derivation_cases(np.random.default_rng(0))
    >>> bool((eqs_1_to_4(cases).fillna(0) < 1e-6).all().all())
    True
    """
    rows = []
    for name, (data, cov, mu) in cases.items():
        L = linalg.cholesky(cov, lower=True)                                    # Eq. 2: Sigma = A A'
        L_inv = linalg.solve_triangular(L, np.eye(len(cov)), lower=True)
        z = (data - mu) @ L_inv.T                                               # Eq. 4: Z = A^-1 (X - mu)
        d2_eq1 = np.einsum("ij,jk,ik->i", data - mu, np.linalg.inv(cov), data - mu)   # Eq. 1
        d2_scipy = cdist(data, mu[None, :], "mahalanobis", VI=np.linalg.inv(cov)).ravel() ** 2
        d2_eq3 = np.sum(z ** 2, axis=1)                                         # Eqs. 3-4: Z'Z
        pair_white, pair_mahal = pdist(data @ L_inv.T), pdist(data, "mahalanobis", VI=np.linalg.inv(cov))
        rows.append({"case": name,
                     "Eq. 1 vs scipy": rel(d2_eq1, d2_scipy),
                     "A A' vs Sigma (A lower triangular)": rel(L @ L.T, cov) + np.abs(np.triu(L, 1)).max(),
                     "(A')^-1 A^-1 vs Sigma^-1": rel(L_inv.T @ L_inv, np.linalg.inv(cov)),
                     "Z'Z (Eqs. 3-4) vs scipy": float(np.max(np.abs(d2_eq3 - d2_scipy) / d2_scipy)),
                     "pairwise: Euclidean after A^-1 vs Mahalanobis":
                         float(np.max(np.abs(pair_white - pair_mahal) / pair_mahal)),
                     "cov(Z) vs I": float(np.abs(np.cov(z, rowvar=False) - np.eye(len(cov))).max())
                     if name == "WDBC" else np.nan})
    return pd.DataFrame(rows).set_index("case")


def _nearest_other(C):
    return np.argmax(C - 2 * np.eye(len(C)), axis=1)                     # nearest other row by cosine


def uncentred_transform(X, sigma) -> dict[str, float]:
    """The uncentred transform :math:`A^{-1}X` of lines 218-222, against the centred one.

    Returns
    -------
    dict
        ``shift``: :math:`|A^{-1}\\mu|` over the median distance of a whitened row from the
        centre; ``cov_error``: max :math:`|\\mathrm{cov}(A^{-1}X) - I|`; ``max_cosine_change``: the
        largest change of a cosine (Eq. 7) by centring; ``nn_changed``: the share of rows whose
        cosine nearest neighbour changes.

    Examples
    --------
    >>> X, _, cases, _ = derivation_cases(np.random.default_rng(0))
    >>> out = uncentred_transform(X, cases["WDBC"][1])
    >>> round(out["shift"], 1), round(out["nn_changed"], 3), out["cov_error"] < 1e-6
    (10.1, 0.527, True)
    """
    L = linalg.cholesky(sigma, lower=True)
    A_inv = linalg.solve_triangular(L, np.eye(X.shape[1]), lower=True)
    Z_unc, Z_cen = X @ A_inv.T, (X - X.mean(0)) @ A_inv.T
    cos_unc = variance_adjusted_cosine(X, X, A_inv)
    cos_cen = variance_adjusted_cosine(X - X.mean(0), X - X.mean(0), A_inv)
    return {"shift": float(np.linalg.norm(A_inv @ X.mean(0)) / np.median(np.linalg.norm(Z_cen, axis=1))),
            "cov_error": float(np.abs(np.cov(Z_unc, rowvar=False) - np.eye(X.shape[1])).max()),
            "max_cosine_change": float(np.abs(cos_unc - cos_cen).max()),
            "nn_changed": float(np.mean(_nearest_other(cos_unc) != _nearest_other(cos_cen)))}


def class_factor_checks(X, y, class_covs: Mapping, matrices: Mapping) -> pd.DataFrame:
    """Eqs. 5-7: each class times its own inverse Cholesky factor, and Eq. 7 written out within each class.

    Parameters
    ----------
    class_covs : dict of {"benign" | "malignant": covariance}
    matrices : dict of {0 | 1: W_k}
        The classes' inverse Cholesky factors (:func:`class_whitening_matrices`).

    Examples
    --------
    >>> X, y, _, class_covs = derivation_cases(np.random.default_rng(0))
    >>> table = class_factor_checks(X, y, class_covs, class_whitening_matrices(X, y))
    >>> table["rows"].tolist(), table["W_k lower triangular"].tolist()
    ([357, 212], [True, True])
    """
    names = {0: "benign", 1: "malignant"}
    rows = []
    for k, W_k in matrices.items():
        S_k, Xk = class_covs[names[k]], X[y == k]
        direct = (Xk @ W_k.T) @ (Xk @ W_k.T).T
        norms = np.linalg.norm(Xk @ W_k.T, axis=1)
        eq7 = direct / np.outer(norms, norms)                                   # Eq. 7 written out
        helpers_eq7 = variance_adjusted_cosine(Xk, Xk, W_k)
        rows.append({"class": names[k], "rows": len(Xk),
                     "max |W_k S_k W_k' - I|": np.abs(W_k @ S_k @ W_k.T - np.eye(len(S_k))).max(),
                     "W_k lower triangular": bool(np.allclose(np.triu(W_k, 1), 0)),
                     "max |Eq. 7 - variance_adjusted_cosine|": np.abs(eq7 - helpers_eq7).max()})
    return pd.DataFrame(rows).set_index("class")


def expected_factor_checks(X, y, matrices: Mapping, class_covs: Mapping, sigma) -> dict:
    """Eqs. 8-9 (SVM Eqs. 28-30): how far apart the two class transforms of a row are, and E(W^-1) as a mixture.

    Returns
    -------
    dict
        ``gap``: :math:`|W_1x - W_0x| / |W_0x|` per row; ``eq9_gap``: the relative difference
        between :math:`pW_1 + (1-p)W_0` (p of all rows) and :func:`expected_whitening_matrix`;
        ``whitener_gap``: the same for :class:`~helpers.estimators.ExpectedWhitener`; ``priors``:
        its class priors; ``factors_ok``: whether :math:`W_k^{-1}W_k^{-\\top}` gives back each
        class covariance (to 1e-6 of the largest entry of ``sigma``, the whole-sample covariance).

    Examples
    --------
    >>> X, y, cases, class_covs = derivation_cases(np.random.default_rng(0))
    >>> out = expected_factor_checks(X, y, class_whitening_matrices(X, y), class_covs, cases["WDBC"][1])
    >>> round(float(np.median(out["gap"])), 2), out["eq9_gap"] < 1e-6, out["factors_ok"]
    (0.76, True, True)
    """
    W_b, W_m = matrices[0], matrices[1]
    p_hat = np.mean(y == 1)
    E = expected_whitening_matrix(X, y, method="cholesky")
    ew = ExpectedWhitener(method="cholesky").fit(X, y)
    restored = [np.abs(np.linalg.inv(matrices[k]) @ np.linalg.inv(matrices[k]).T - class_covs[name]).max()
                for k, name in ((0, "benign"), (1, "malignant"))]
    return {"gap": np.linalg.norm(X @ (W_m - W_b).T, axis=1) / np.linalg.norm(X @ W_b.T, axis=1),
            "eq9_gap": rel(p_hat * W_m + (1 - p_hat) * W_b, E), "whitener_gap": rel(ew.components_, E),
            "priors": ew.priors_, "p": float(p_hat),
            "factors_ok": bool(np.allclose(restored, 0, atol=1e-6 * np.max(sigma)))}


def p_mle(y, grid_size: int = 9981) -> tuple[float, float]:
    """Eq. 10 (SVM Eq. 35): the class proportion and the maximum of the Bernoulli log-likelihood on a grid.

    Examples
    --------
    >>> p, p_grid = p_mle(np.repeat([0, 1], [357, 212]))
    >>> round(p, 4), round(p_grid, 4)
    (0.3726, 0.3726)
    """
    y = np.asarray(y)
    grid = np.linspace(0.001, 0.999, grid_size)
    loglik = (y == 1).sum() * np.log(grid) + (y == 0).sum() * np.log(1 - grid)
    return float(np.mean(y == 1)), float(grid[np.argmax(loglik)])


def expected_whitening_error(X, y, class_covs: Mapping, sigma) -> tuple[pd.DataFrame, float, float]:
    """How far :math:`E(W^{-1})` is from whitening: :math:`\\|E\\Sigma E^\\top - I\\|_2`; does the method matter?

    For each class covariance, the pooled within-class covariance and the whole-sample one,
    with E mixing Cholesky factors and with E mixing ZCA matrices.

    Returns
    -------
    (errors, max_cosine_difference, nn_changed)
        The spectral-norm errors; the largest difference of a cosine (Eq. 7) between the two
        E's; the share of rows whose cosine nearest neighbour changes between them.

    Examples
    --------
    >>> X, y, cases, class_covs = derivation_cases(np.random.default_rng(0))
    >>> err, diff, changed = expected_whitening_error(X, y, class_covs, cases["WDBC"][1])
    >>> err.round(2).loc["benign"].tolist(), round(diff, 3), round(changed, 3)
    ([4.09, 4.4], 0.063, 0.144)
    """
    n_k = {name: int(np.sum(y == k)) for k, name in ((0, "benign"), (1, "malignant"))}
    covs = dict(class_covs)
    covs["pooled within-class"] = sum((n_k[c] - 1) * class_covs[c] for c in class_covs) / (len(y) - len(class_covs))
    covs["whole sample"] = sigma
    E_by = {m: expected_whitening_matrix(X, y, method=m) for m in ("cholesky", "zca")}
    err = pd.DataFrame({f"E mixes {m} matrices": {c: np.linalg.norm(E_m @ S @ E_m.T - np.eye(S.shape[0]), 2)
                                                  for c, S in covs.items()} for m, E_m in E_by.items()})
    cos_by = {m: variance_adjusted_cosine(X, X, E_m) for m, E_m in E_by.items()}
    changed = float(np.mean(_nearest_other(cos_by["cholesky"]) != _nearest_other(cos_by["zca"])))
    return err, float(np.abs(cos_by["cholesky"] - cos_by["zca"]).max()), changed


def method_invariance(cases: Mapping) -> pd.DataFrame:
    """The five whitening matrices (Kessy et al. 2018) on each case: each whitens, any two differ by a rotation.

    Returns
    -------
    DataFrame
        Indexed by (case, method): max :math:`|W\\Sigma W^\\top - I|`, max :math:`|RR^\\top - I|` for
        :math:`R = WW_{chol}^{-1}`, and the largest differences of the cosines and (relative) of the
        pairwise distances after whitening, against Cholesky.

    Examples
    --------
    >>> _, _, cases, _ = derivation_cases(np.random.default_rng(0))
    >>> table = method_invariance({"random SPD": cases["random SPD"]})
    >>> table.index.get_level_values("method").tolist(), bool((table < 1e-10).all().all())
    (['zca', 'zca_cor', 'pca', 'pca_cor', 'cholesky'], True)
    """
    rows = []
    for name, (data, cov, _) in cases.items():
        Ws = {m: whitening_matrix(cov, m) for m in METHODS}
        cos_ref = variance_adjusted_cosine(data, data, Ws["cholesky"])
        dist_ref = pdist(data @ Ws["cholesky"].T)
        for m, W in Ws.items():
            R = W @ np.linalg.inv(Ws["cholesky"])
            rows.append({"case": name, "method": m,
                         "max |W Sigma W' - I|": np.abs(W @ cov @ W.T - np.eye(len(cov))).max(),
                         "max |R R' - I|, R = W W_chol^-1": np.abs(R @ R.T - np.eye(len(cov))).max(),
                         "max |cosine - cosine_chol|": np.abs(variance_adjusted_cosine(data, data, W) - cos_ref).max(),
                         "max rel. diff. of distances": np.max(np.abs(pdist(data @ W.T) - dist_ref) / dist_ref)})
    return pd.DataFrame(rows).set_index(["case", "method"])
