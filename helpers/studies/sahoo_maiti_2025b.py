"""Sahoo & Maiti (2025), the Cholesky-kernel SVC (arXiv:2504.04371, v1): its case study and its kernel (notebook 05).

The second of the two 2025 papers reuses the first one's protocols on the Wisconsin data
(:mod:`.sahoo_maiti_2025a`: the split, the label-using "population" protocol and its audit)
with support vector classifiers. What this paper needs beyond them, in the order of its
sections 4-6:

* :func:`kernel_predictions`, :func:`split_metrics` and :func:`precision_table`: the four
  standard kernels on the raw data (Figs. 2-4);
* :func:`two_options`: Option A (each row times its own class's inverse Cholesky factor, which
  reads the test labels) and Option B (:math:`E(C^{-1})` of the training classes), then a
  linear SVC (Figs. 5-6); :func:`eq28_applied` writes Eq. 28 out row by row;
  :func:`separability` asks which rows are linearly separable (exact LP);
* :func:`kernel_check`: Eqs. 18 and 31 as Gram matrices (squared distances: not positive
  semi-definite), with the valid kernels built from the same distances;
  :func:`eq19_versus_optiona`, :func:`eq32_is_a_distance` and :func:`eq33_against_constraint`
  for Eqs. 19, 32 and 33-34; :func:`bounded` prints a rounding-level number as a bound;
* :func:`svm_models`, :func:`svm_split_sweep` and :func:`sweep_table`: the models over random
  splits with every transform fitted on training rows, four metrics;
  :func:`advantage_evidence` words a claimed advantage from the paired tests;
* :func:`table1_svm` and :func:`fold_scheme_scores`: Table 1 (LOOCV and 10-fold CV) under our
  stated protocol and other fold schemes; :func:`expected_matrix_closeness` and
  :func:`libsvm_iterations` for the paper's reason for cross-validation and its drawback.

Section 2's figure and derivations (notebooks 02 and 03):

* :func:`spread_classes`, :func:`support_vector_refits` and :func:`spread_rules`: Fig. 1, a
  tight and a wide class; a linear SVM is fixed by its support vectors, while rules that know
  the class covariances leave the wide class more room;
* :func:`gaussian_example`, :func:`standard_svm_checks`, :func:`earlier_formulations` and
  :func:`unit_change_flips`: Eqs. 1-8, the standard SVM and the earlier covariance
  formulations solved as printed, and which of them depend on the units;
* :func:`input_space_margins`, :func:`eq20_eq21_gap` and :func:`eq22_steps`: Eqs. 14-27, one
  whitened hyperplane as two input-space lines, and the step of Eq. 22 that holds only for a
  symmetric root.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import linalg
from scipy.spatial.distance import cdist
from skimage.measure import find_contours
from sklearn.base import clone
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
from sklearn.inspection import DecisionBoundaryDisplay
from sklearn.metrics import classification_report
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ..estimators import ExpectedWhitener, Whitener
from ..evaluation import METRICS as METRIC_FUNCTIONS
from ..evaluation import repeated_split_scores
from ..metrics import mahalanobis
from ..plotting import plot_classes_and_lines, plot_confusions, plot_model_scores, plot_table_bars
from ..significance import compare_pairs, mcnemar_exact, summarize_scores
from ..svm import is_linearly_separable, primal_linear_svm, svc_loocv_predict
from ..whitening import (
    class_whitening_matrices,
    estimate_covariance,
    expected_whitening_matrix,
    transform_by_class,
    whitening_matrix,
)
from .sahoo_maiti_2025a import (
    Split,
    below,
    classification_reports,
    eq9_by_hand,
    label_audit,
    label_audit_controls,
    mcnemar_table,
    population_protocol_predict,
    population_split_scores,
    rel,
    wdbc_split,
)

__all__ = [
    "KERNELS",
    "METRICS",
    "SVC",
    "DecisionBoundaryDisplay",
    "KernelCheck",
    "Options",
    "SpreadRules",
    "Table1",
    "advantage_evidence",
    "below",
    "bounded",
    "class_whitening_matrices",
    "classification_reports",
    "compare_pairs",
    "earlier_formulations",
    "eq19_versus_optiona",
    "eq20_eq21_gap",
    "eq22_steps",
    "eq28_applied",
    "eq29_by_hand",
    "eq32_is_a_distance",
    "eq33_against_constraint",
    "estimate_covariance",
    "expected_matrix_closeness",
    "fold_scheme_scores",
    "gaussian_example",
    "input_space_margins",
    "kernel_check",
    "kernel_predictions",
    "label_audit",
    "label_audit_controls",
    "libsvm_iterations",
    "mcnemar_exact",
    "mcnemar_table",
    "plot_classes_and_lines",
    "plot_confusions",
    "plot_table_bars",
    "plot_model_scores",
    "precision_table",
    "rel",
    "separability",
    "split_metrics",
    "spread_classes",
    "spread_rules",
    "standard_svm_checks",
    "support_vector_refits",
    "svm_models",
    "svm_split_sweep",
    "sweep_table",
    "table1_svm",
    "two_options",
    "unit_change_flips",
    "wdbc_split",
    "whitening_matrix",
]

#: the standard kernels of Figs. 2-4, scikit-learn's names
KERNELS = ("linear", "rbf", "poly", "sigmoid")

#: the paper's measures of performance (line 202, and F1 in the abstract); class 1 (malignant) positive
METRICS = ("accuracy", "precision", "recall", "f1")

#: Eq. 29 is Eq. 9 of the cosine paper: p C_1^-1 + (1 - p) C_0^-1, with p of Eq. 35
eq29_by_hand = eq9_by_hand


def bounded(value: float, floor: float = 1e-12, fmt: str = ".1e") -> str:
    """A number for print, or ``"below {floor}"`` when it is at rounding level (its digits would vary).

    Examples
    --------
    >>> bounded(2.6e-14), bounded(0.1412), bounded(0.1412, fmt=".2f")
    ('below 1e-12', '1.4e-01', '0.14')
    """
    return f"below {floor:g}" if abs(value) < floor else format(value, fmt)


# --------------------------------------------------------------------------------------------
# Section 5.1, Figs. 2-4: the standard kernels on the raw data


def kernel_predictions(X_train, y_train, X_test, kernels: Sequence[str] = KERNELS) -> tuple[dict, dict]:
    """Fit an ``SVC`` with each kernel (scikit-learn's defaults: C = 1, gamma "scale", degree 3) on raw rows.

    Returns
    -------
    (fitted, predictions)
        Two dicts keyed by kernel: the fitted SVCs and their test predictions.

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> fitted, preds = kernel_predictions(X_train, y_train, X_test, ("rbf", "poly"))
    >>> bool(np.array_equal(preds["rbf"], preds["poly"])), round(float(np.mean(preds["rbf"] == y_test)), 3)
    (True, 0.947)
    """
    fitted = {kern: SVC(kernel=kern).fit(X_train, y_train) for kern in kernels}
    return fitted, {kern: model.predict(X_test) for kern, model in fitted.items()}


def split_metrics(y_true, y_pred, metrics: Sequence[str] = METRICS) -> dict[str, float]:
    """Accuracy, precision, recall and F1 of one set of predictions, class 1 (malignant) positive.

    Examples
    --------
    >>> split_metrics([0, 1, 1, 0], [0, 1, 0, 0])
    {'accuracy': 0.75, 'precision': 1.0, 'recall': 0.5, 'f1': 0.6666666666666666}
    """
    return {m: METRIC_FUNCTIONS[m](y_true, y_pred) for m in metrics}


def precision_table(y_true, predictions: Mapping) -> pd.DataFrame:
    """Precision of each model for the malignant and the benign class and their macro and weighted averages.

    Examples
    --------
    >>> precision_table([0, 0, 1, 1], {"m": [0, 1, 1, 1]})["m"].round(3).tolist()
    [0.667, 1.0, 0.833, 0.833]
    """
    y_true = np.asarray(y_true)
    columns = {}
    for name, p in predictions.items():
        p = np.asarray(p)
        report = classification_report(y_true, p, output_dict=True, zero_division=0)
        columns[name] = {"malignant": METRIC_FUNCTIONS["precision"](y_true, p),
                         "benign": METRIC_FUNCTIONS["precision"](1 - y_true, 1 - p),
                         **{avg: report[avg]["precision"] for avg in ("macro avg", "weighted avg")}}
    return pd.DataFrame(columns)


# --------------------------------------------------------------------------------------------
# Section 5.2, Figs. 5-6: Options A and B


class Options(NamedTuple):
    """Test predictions of Options A and B, their matrices, and Option B's fitted SVC."""

    predictions: dict      #: {"population_cholesky": ..., "expected_cholesky": ...}
    matrices: dict         #: Option A: {0: Psi_B^-1, 1: Psi_M^-1}, the class factors of all rows
    expected: np.ndarray   #: Option B: E(C^-1) of the training rows
    model: SVC             #: Option B's linear SVC, fitted on the transformed training rows


def two_options(split: Split, method="cholesky", covariance="sample") -> Options:
    """Options A and B of lines 204-208, each followed by a linear SVC (the hyperplane of Eqs. 14-17).

    Option A: class covariances of all rows and every row, test rows included, multiplied by
    its own class's inverse factor (reads the test labels). Option B: :math:`E(C^{-1})` of the
    training classes (Eq. 29 with p of Eq. 35) applied to training and test rows alike.

    Examples
    --------
    >>> split = wdbc_split()
    >>> options = two_options(split)
    >>> {name: round(float(np.mean(p == split.y_test)), 3) for name, p in options.predictions.items()}
    {'population_cholesky': 1.0, 'expected_cholesky': 0.965}
    """
    X, y, X_train, X_test, y_train, y_test = split
    mats_all = class_whitening_matrices(X, y, method=method, covariance=covariance)         # Option A: every label
    E = expected_whitening_matrix(X_train, y_train, method=method, covariance=covariance)    # Option B: training rows
    model = SVC(kernel="linear").fit(X_train @ E.T, y_train)
    preds = {"population_cholesky": population_protocol_predict(SVC(kernel="linear"), X_train, y_train, X_test,
                                                                y_test, matrices=mats_all),
             "expected_cholesky": model.predict(X_test @ E.T)}
    return Options(preds, mats_all, E, model)


def eq28_applied(X, X_train, y_train, method="cholesky", covariance="sample") -> np.ndarray:
    """Eq. 28 applied to each row of ``X``: :math:`L\\,C_1^{-1}x + (1 - L)\\,C_0^{-1}x`, L = p of the training rows.

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> E = expected_whitening_matrix(X_train, y_train)
    >>> bool(np.allclose(eq28_applied(X_test, X_train, y_train), X_test @ E.T, rtol=1e-12))
    True
    """
    p1, _ = eq29_by_hand(X_train, y_train, method, covariance)
    W = class_whitening_matrices(X_train, y_train, method=method, covariance=covariance)
    return p1 * (X @ W[1].T) + (1 - p1) * (X @ W[0].T)


def separability(X, y, X_train, y_train, matrices: Mapping, E) -> dict[str, bool]:
    """Which rows are linearly separable (exact LP): raw, after Option A, Option B's training rows.

    Examples
    --------
    >>> split = wdbc_split()
    >>> options = two_options(split)
    >>> separability(split.X, split.y, split.X_train, split.y_train, options.matrices, options.expected)
    {'raw rows (all 569)': True, 'Option A rows (all 569)': True, 'Option B training rows': True}
    """
    return {f"raw rows (all {len(y)})": is_linearly_separable(X, y),
            f"Option A rows (all {len(y)})": is_linearly_separable(transform_by_class(X, y, matrices), y),
            "Option B training rows": is_linearly_separable(X_train @ E.T, y_train)}


# --------------------------------------------------------------------------------------------
# Section 5.3: the kernel as defined, Eqs. 18-19 and 31-34


class KernelCheck(NamedTuple):
    """Eqs. 18 and 31 as Gram matrices: their spectra, and what can and cannot be done with them."""

    spectra: pd.DataFrame          #: per matrix: rows, trace, positive and negative eigenvalues, smallest / largest
    centred_gap: float             #: -1/2 J K J against the centred linear kernel (largest relative difference)
    gamma: float                   #: scikit-learn's gamma="scale" of the E(C^-1)-transformed rows
    gauss_min: float               #: smallest eigenvalue of exp(-gamma K), Eq. 31's K
    precomputed_accuracy: float    #: test accuracy of an SVC handed Eq. 31's matrix as its kernel
    n: int                         #: training rows


def kernel_check(X_train, y_train, X_test, y_test, matrices: Mapping, E) -> KernelCheck:
    """Eq. 18 within each class (with its own factor, ``matrices``) and Eq. 31 on all training rows (``E``).

    Both are matrices of squared distances between transformed rows: zero diagonal, so their
    eigenvalues sum to zero and cannot all be non-negative. Also built from Eq. 31's matrix:
    the double-centred :math:`-\\tfrac12 JKJ` (the linear kernel of the centred transformed rows)
    and the Gaussian :math:`\\exp(-\\gamma K)`, both valid kernels.

    Examples
    --------
    >>> split = wdbc_split()
    >>> options = two_options(split)
    >>> mats = class_whitening_matrices(split.X_train, split.y_train)
    >>> kc = kernel_check(split.X_train, split.y_train, split.X_test, split.y_test, mats, options.expected)
    >>> kc.spectra["negative eigenvalues"].tolist(), kc.centred_gap < 1e-12, round(kc.precomputed_accuracy, 3)
    ([31, 31, 31], True, 0.281)
    """
    y_train = np.asarray(y_train)
    Z_train_e = X_train @ E.T
    grams = {f"Eq. 18, {word} rows (own factor)": cdist(X_train[y_train == cl] @ matrices[cl].T,
                                                        X_train[y_train == cl] @ matrices[cl].T, "sqeuclidean")
             for cl, word in ((0, "benign"), (1, "malignant"))}
    grams["Eq. 31, all training rows (E(C^-1))"] = cdist(Z_train_e, Z_train_e, "sqeuclidean")
    spectra = {}
    for name, K in grams.items():
        ev = np.linalg.eigvalsh(K)
        tol = 1e-9 * np.abs(ev).max()
        spectra[name] = {"rows": len(K), "trace": np.trace(K), "positive eigenvalues": int(np.sum(ev > tol)),
                         "negative eigenvalues": int(np.sum(ev < -tol)),
                         "smallest / largest eigenvalue": ev[0] / ev[-1]}
    K31 = grams["Eq. 31, all training rows (E(C^-1))"]
    n = len(K31)
    J = np.eye(n) - 1.0 / n
    centred = Z_train_e - Z_train_e.mean(axis=0)
    gap = np.abs(-0.5 * J @ K31 @ J - centred @ centred.T).max() / np.abs(centred @ centred.T).max()
    gamma = 1.0 / (Z_train_e.shape[1] * Z_train_e.var())                 # scikit-learn's gamma="scale"
    gauss_min = np.linalg.eigvalsh(np.exp(-gamma * K31))[0]
    K31_test = cdist(X_test @ E.T, Z_train_e, "sqeuclidean")
    accuracy = SVC(kernel="precomputed").fit(K31, y_train).score(K31_test, y_test)
    return KernelCheck(pd.DataFrame.from_dict(spectra, orient="index"), float(gap), float(gamma), float(gauss_min),
                       float(accuracy), n)


def eq19_versus_optiona(X_train, y_train, X_test, y_test, matrices: Mapping) -> dict:
    """Option A's :math:`\\Omega^\\top\\Omega` against Eq. 19's, pair by pair (test row, training row).

    Eq. 19 uses one factor :math:`\\Psi_{y=k}^{-1}` for both points (here k = the training
    row's class); Option A gives each row its own class's factor.

    Returns
    -------
    dict
        ``cross_share`` (share of pairs of different classes), ``cross_ratio_median`` (Option A's
        squared distance over Eq. 19's on those pairs), ``cross_max_deviation`` and
        ``same_max_deviation`` (largest |ratio - 1| on different- and same-class pairs).

    Examples
    --------
    >>> split = wdbc_split()
    >>> r = eq19_versus_optiona(split.X_train, split.y_train, split.X_test, split.y_test,
    ...                         class_whitening_matrices(split.X, split.y))
    >>> round(r["cross_share"], 2), round(r["cross_ratio_median"], 1), r["same_max_deviation"] < 1e-9
    (0.47, 14.5, True)
    """
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    d2_optiona = cdist(transform_by_class(X_test, y_test, matrices), transform_by_class(X_train, y_train, matrices),
                       "sqeuclidean")
    d2_eq19 = np.empty_like(d2_optiona)                                   # Eq. 19: k = the training row's class
    for cl, W in matrices.items():
        cols = y_train == cl
        d2_eq19[:, cols] = cdist(X_test @ W.T, X_train[cols] @ W.T, "sqeuclidean")
    cross = y_test[:, None] != y_train[None, :]
    ratio = d2_optiona / d2_eq19
    return {"cross_share": float(cross.mean()), "cross_ratio_median": float(np.median(ratio[cross])),
            "cross_max_deviation": float(np.abs(ratio[cross] - 1).max()),
            "same_max_deviation": float(np.abs(ratio[~cross] - 1).max())}


def eq32_is_a_distance(X_a, X_b, E, n_pairs: int = 5) -> bool:
    """Eq. 32's :math:`\\omega^\\top\\omega` for the first ``n_pairs`` pairs equals the squared distance of the
    :math:`E(C^{-1})`-transformed points: one matrix for both classes, so the subscript k changes nothing.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> eq32_is_a_distance(rng.normal(size=(5, 3)), rng.normal(size=(5, 3)), rng.normal(size=(3, 3)))
    True
    """
    A, B = np.asarray(X_a)[:n_pairs] @ E.T, np.asarray(X_b)[:n_pairs] @ E.T
    omega = A - B                                                           # Eq. 32
    return bool(np.allclose((omega ** 2).sum(1), np.diag(cdist(A, B, "sqeuclidean"))))


def eq33_against_constraint(X_train, y_train, E, method="cholesky", covariance="sample") -> dict:
    """Is Eq. 33's :math:`E(S^{-1})` the matrix the constraint of Eq. 34 implies, :math:`E(C^{-1})^\\top E(C^{-1})`?

    With :math:`S_k^{-1} = C_k^{-\\top}C_k^{-1}` and :math:`D = C_1^{-1} - C_0^{-1}`, the two differ by
    exactly :math:`p(1-p)D^\\top D`.

    Returns
    -------
    dict
        ``differences``: relative Frobenius differences (a check against inverted sample
        covariances, E(S^-1) against E(C^-1)'E(C^-1) and E(C^-1)E(C^-1)', and the identity
        with p(1-p)D'D); ``ratio_min``, ``ratio_max``: the range of
        :math:`\\theta^\\top E(S^{-1})\\theta / \\theta^\\top E(C^{-1})^\\top E(C^{-1})\\theta`.

    Examples
    --------
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> out = eq33_against_constraint(X_train, y_train, expected_whitening_matrix(X_train, y_train))
    >>> d = out["differences"]
    >>> round(d["E(S^-1) vs E(C^-1)' E(C^-1)"], 2), d["difference vs p(1 - p) D'D (identity)"] < 1e-12
    (0.14, True)
    >>> round(out["ratio_min"], 2), round(out["ratio_max"], 2)
    (1.0, 4.6)
    """
    y_train = np.asarray(y_train)
    p1, _ = eq29_by_hand(X_train, y_train, method, covariance)
    W = class_whitening_matrices(X_train, y_train, method=method, covariance=covariance)
    ES = p1 * W[1].T @ W[1] + (1 - p1) * W[0].T @ W[0]                    # E(S^-1), S_k^-1 = C_k^-T C_k^-1
    S_inv = {cl: np.linalg.inv(np.cov(X_train[y_train == cl], rowvar=False)) for cl in (0, 1)}

    def rel(a, b):
        return float(np.linalg.norm(a - b) / np.linalg.norm(a))

    D = W[1] - W[0]
    differences = {"E(S^-1) vs p S_1^-1 + (1 - p) S_0^-1 (check)": rel(ES, p1 * S_inv[1] + (1 - p1) * S_inv[0]),
                   "E(S^-1) vs E(C^-1)' E(C^-1)": rel(ES, E.T @ E),
                   "E(S^-1) vs E(C^-1) E(C^-1)'": rel(ES, E @ E.T),
                   "difference vs p(1 - p) D'D (identity)": rel(ES - E.T @ E, p1 * (1 - p1) * D.T @ D)}
    L = np.linalg.cholesky(E.T @ E)
    ratio = np.linalg.eigvalsh(np.linalg.solve(L, np.linalg.solve(L, ES).T))
    return {"differences": differences, "ratio_min": float(ratio.min()), "ratio_max": float(ratio.max())}


# --------------------------------------------------------------------------------------------
# Section 5.4: random splits, four metrics


def svm_models(method="cholesky", covariance="sample", kernels: Sequence[str] = KERNELS) -> dict:
    """The SVCs compared over random splits; every transform is fitted on the training rows.

    The raw kernels of Figs. 2-4, Option B (:math:`E(C^{-1})` then a linear SVC), a linear SVC
    after whitening with one pooled covariance, and the linear and RBF SVCs on standardised
    rows (the usual practice).

    Examples
    --------
    >>> list(svm_models())  # doctest: +NORMALIZE_WHITESPACE
    ['linear', 'rbf', 'poly', 'sigmoid', 'expected_cholesky', 'whitened_linear', 'standardised_linear',
     'standardised_rbf']
    """
    return {
        **{kern: SVC(kernel=kern) for kern in kernels},
        "expected_cholesky": make_pipeline(ExpectedWhitener(method, covariance), SVC(kernel="linear")),
        "whitened_linear": make_pipeline(Whitener(method, covariance), SVC(kernel="linear")),
        "standardised_linear": make_pipeline(StandardScaler(), SVC(kernel="linear")),
        "standardised_rbf": make_pipeline(StandardScaler(), SVC(kernel="rbf")),
    }


def svm_split_sweep(models: Mapping, X, y, n_splits: int = 50, test_size: float = 0.2, random_state=0,
                    method="cholesky", covariance="sample", n_jobs=None,
                    metrics: Sequence[str] = METRICS) -> dict[str, dict[str, np.ndarray]]:
    """Each metric of each model over the same stratified random splits, and Option A beside them.

    Option A (the population protocol with a linear SVC, which reads the test labels) is run
    with class factors from all rows (``population_cholesky``) and from each split's training
    rows (``population_cholesky_train_matrices``).

    Returns
    -------
    dict of {metric: {model: ndarray of shape (n_splits,)}}

    Examples
    --------
    >>> split = wdbc_split()
    >>> by_metric = svm_split_sweep({"rbf": SVC()}, split.X, split.y, n_splits=2, metrics=("accuracy",))
    >>> {name: s.round(3).tolist() for name, s in by_metric["accuracy"].items()}  # doctest: +NORMALIZE_WHITESPACE
    {'rbf': [0.939, 0.947], 'population_cholesky': [1.0, 1.0], 'population_cholesky_train_matrices': [1.0, 1.0]}
    """
    metrics = tuple(metrics)
    scores = repeated_split_scores(models, X, y, n_splits=n_splits, test_size=test_size, random_state=random_state,
                                   n_jobs=n_jobs, scoring=metrics)
    for source, name in (("all", "population_cholesky"), ("train", "population_cholesky_train_matrices")):
        scores[name] = population_split_scores(SVC(kernel="linear"), X, y, n_splits=n_splits, test_size=test_size,
                                               random_state=random_state, matrices_from=source, method=method,
                                               covariance=covariance, n_jobs=n_jobs, scoring=metrics)
    return {m: {name: s[m] for name, s in scores.items()} for m in metrics}


def sweep_table(by_metric: Mapping, test_train_ratio: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The mean of each metric per model, with the corrected 95% interval of the accuracy, best first.

    Returns
    -------
    (table, accuracy_summary)
        The table sorted by accuracy, and :func:`summarize_scores` of the accuracy.

    Examples
    --------
    >>> table, _ = sweep_table({"accuracy": {"a": [0.9, 0.92], "b": [0.95, 0.97]},
    ...                         "recall": {"a": [0.8, 0.8], "b": [0.9, 0.9]}}, 0.25)
    >>> table.index.tolist(), table.loc["b", ["accuracy", "recall"]].round(2).tolist()
    (['b', 'a'], [0.96, 0.9])
    """
    table = pd.concat({m: summarize_scores(s, test_train_ratio)["mean"] for m, s in by_metric.items()}, axis=1)
    accuracy = summarize_scores(by_metric["accuracy"], test_train_ratio)
    table[["accuracy ci_low", "accuracy ci_high"]] = accuracy[["ci_low", "ci_high"]]
    return table.sort_values("accuracy", ascending=False), accuracy


def advantage_evidence(pair_tables: pd.DataFrame, split_table: pd.DataFrame, weakest: tuple, metric_names, others,
                       words: str, n_splits: int, first: str = "expected_cholesky") -> str:
    """The evidence of a claimed advantage of ``first`` over ``others`` on ``metric_names``, in words.

    Parameters
    ----------
    pair_tables : DataFrame
        :func:`compare_pairs` tables by metric (index: metric, "a vs b").
    split_table : DataFrame
        Each model's metrics on the 80:20 split (index: model).
    weakest : (metric, pair)
        The comparison the verdict rests on.

    Examples
    --------
    >>> pt = pd.DataFrame({"mean_diff": [0.0049], "p_value": [0.6183], "wins": [27], "losses": [13]},
    ...                   index=pd.MultiIndex.from_tuples([("accuracy", "b vs a")]))
    >>> st = pd.DataFrame({"accuracy": [0.956, 0.965]}, index=["a", "b"])
    >>> text = advantage_evidence(pt, st, ("accuracy", "b vs a"), ["accuracy"], ["a"], "b vs a", 50, first="b")
    >>> text.split(". ")  # doctest: +NORMALIZE_WHITESPACE
    ['b vs a', 'Weakest: accuracy, b vs a: +0.005 over 50 splits (27 wins, 13 losses), corrected paired p = 0.62',
     'All: accuracy vs a +0.005 (p = 0.62)', 'On the split: accuracy 0.965 vs a 0.956']
    """
    m, pair = weakest
    row = pair_tables.loc[(m, pair)]
    keys = [(mx, f"{first} vs {o}") for mx in metric_names for o in others]
    rest = "; ".join(f"{mm} vs {pp.split(' vs ')[1]} {r['mean_diff']:+.3f} (p = {r['p_value']:.2g})"
                     for (mm, pp), r in pair_tables.loc[keys].iterrows())
    on_split = "; ".join(f"{mm} {split_table.loc[first, mm]:.3f} vs {o} {split_table.loc[o, mm]:.3f}"
                         for mm in metric_names for o in others) if first in split_table.index else ""
    return (f"{words}. Weakest: {m}, {pair}: {row['mean_diff']:+.3f} over {n_splits} splits "
            f"({int(row['wins'])} wins, {int(row['losses'])} losses), corrected paired p = {row['p_value']:.2g}. "
            f"All: {rest}" + (f". On the split: {on_split}" if on_split else ""))


# --------------------------------------------------------------------------------------------
# Table 1: LOOCV and 10-fold CV


class Table1(NamedTuple):
    """Table 1 under our stated protocol."""

    accuracy: dict           #: {model: [LOOCV, 10-fold]}
    loo_predictions: dict    #: {model: held-out prediction of each row}
    fold_scores: dict        #: {model: accuracy on each of the ten folds}


def table1_svm(X, y, matrices: Mapping | None = None, method="cholesky", covariance="sample", n_jobs=None) -> Table1:
    """Table 1: the linear SVC, Option A and Option B under LOOCV and ``StratifiedKFold(10)`` on all rows.

    Option A transforms every row, held-out rows included, with its own class's factor
    (``matrices``, by default those of all rows); Option B's :math:`E(C^{-1})` is fitted on each
    training fold. The linear SVC's LOOCV uses the exact shortcut of
    :func:`helpers.svm.svc_loocv_predict`.

    Examples
    --------
    >>> split = wdbc_split()
    >>> t = table1_svm(split.X[:80, :4], split.y[:80])         # a corner of the data, for speed
    >>> {name: [round(a, 3) for a in acc] for name, acc in t.accuracy.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'linear': [0.925, 0.938], 'population_cholesky': [1.0, 1.0], 'expected_cholesky': [0.975, 0.975]}
    """
    if matrices is None:
        matrices = class_whitening_matrices(X, y, method=method, covariance=covariance)
    linear_svc = SVC(kernel="linear")
    expected_svc = make_pipeline(ExpectedWhitener(method, covariance), SVC(kernel="linear"))
    Z_pop = transform_by_class(X, y, matrices)                              # Option A: every row with its own label
    loo = {"linear": svc_loocv_predict(linear_svc, X, y, n_jobs=n_jobs),
           "population_cholesky": svc_loocv_predict(linear_svc, Z_pop, y, n_jobs=n_jobs),
           "expected_cholesky": cross_val_predict(expected_svc, X, y, cv=LeaveOneOut(), n_jobs=n_jobs)}
    skf = StratifiedKFold(10)
    folds = {"linear": cross_val_score(linear_svc, X, y, cv=skf, n_jobs=n_jobs),
             "population_cholesky": cross_val_score(linear_svc, Z_pop, y, cv=skf, n_jobs=n_jobs),
             "expected_cholesky": cross_val_score(expected_svc, X, y, cv=skf, n_jobs=n_jobs)}
    accuracy = {name: [float(np.mean(loo[name] == y)), float(folds[name].mean())] for name in loo}
    return Table1(accuracy, loo, folds)


def fold_scheme_scores(X, y, matrices: Mapping, method="cholesky", covariance="sample", random_state=0,
                       n_jobs=None) -> pd.DataFrame:
    """10-fold CV accuracy of Options A and B under four fold schemes (unshuffled or shuffled, stratified or not).

    Examples
    --------
    >>> split = wdbc_split()
    >>> X, y = split.X[:150, :4], split.y[:150]
    >>> table = fold_scheme_scores(X, y, class_whitening_matrices(X, y), random_state=42)
    >>> table.columns.tolist()
    ['KFold(10)', 'StratifiedKFold(10)', 'KFold(10) shuffled', 'StratifiedKFold(10) shuffled']
    >>> table.loc["expected_cholesky"].round(3).tolist()
    [0.9, 0.907, 0.927, 0.92]
    """
    linear_svc = SVC(kernel="linear")
    expected_svc = make_pipeline(ExpectedWhitener(method, covariance), SVC(kernel="linear"))
    Z_pop = transform_by_class(X, y, matrices)
    schemes = {"KFold(10)": KFold(10), "StratifiedKFold(10)": StratifiedKFold(10),
               "KFold(10) shuffled": KFold(10, shuffle=True, random_state=random_state),
               "StratifiedKFold(10) shuffled": StratifiedKFold(10, shuffle=True, random_state=random_state)}
    return pd.DataFrame({s: {"expected_cholesky": cross_val_score(expected_svc, X, y, cv=cv, n_jobs=n_jobs).mean(),
                             "population_cholesky": cross_val_score(linear_svc, Z_pop, y, cv=cv, n_jobs=n_jobs).mean()}
                         for s, cv in schemes.items()})


def expected_matrix_closeness(X, y, E_split, split_rows: int, method="cholesky",
                              covariance="sample") -> dict[str, float]:
    """How close the :math:`E(C^{-1})` of a training set is to that of all rows (relative Frobenius distance).

    The paper's reason for LOOCV and 10-fold CV (lines 210, 252): more training rows bring the
    training covariances nearer the population ones. Returns the distance for the split's
    training rows (``E_split``, from ``split_rows`` rows) and the mean over the training folds of
    ``StratifiedKFold(10)`` and of LOOCV.

    Examples
    --------
    >>> split = wdbc_split()
    >>> X, y = split.X[:120, :4], split.y[:120]
    >>> E = expected_whitening_matrix(X[:96], y[:96])
    >>> d = expected_matrix_closeness(X, y, E, 96)
    >>> list(d), d["80:20 training rows (96)"] > d["10-fold training folds (108)"] > d["LOOCV training folds (119)"]
    (['80:20 training rows (96)', '10-fold training folds (108)', 'LOOCV training folds (119)'], True)
    """
    y = np.asarray(y)
    E_all = expected_whitening_matrix(X, y, method=method, covariance=covariance)

    def dist(M):
        return float(np.linalg.norm(M - E_all) / np.linalg.norm(E_all))

    def fitted(rows):
        return expected_whitening_matrix(X[rows], y[rows], method=method, covariance=covariance)

    folds = list(StratifiedKFold(10).split(X, y))
    return {f"80:20 training rows ({split_rows})": dist(E_split),
            f"10-fold training folds ({len(folds[0][0])})": float(np.mean([dist(fitted(tr)) for tr, _ in folds])),
            f"LOOCV training folds ({len(y) - 1})": float(np.mean([dist(fitted(np.arange(len(y)) != i))
                                                                   for i in range(len(y))]))}


def libsvm_iterations(models: Mapping, X_train, y_train) -> dict[str, float]:
    """libsvm iterations of fitted SVCs, and of a linear SVC on standardised rows (the usual practice), 2 digits.

    The iteration counts vary in their last digits with the platform's floating point, so
    they are rounded to two significant digits.

    Examples
    --------
    >>> split = wdbc_split()
    >>> its = libsvm_iterations({}, split.X_train, split.y_train)
    >>> its
    {'standardised_linear': 1100.0}
    """
    iters = {name: float(f"{model.n_iter_[0]:.2g}") for name, model in models.items()}
    standardised = clone(make_pipeline(StandardScaler(), SVC(kernel="linear"))).fit(X_train, y_train)[-1]
    iters["standardised_linear"] = float(f"{standardised.n_iter_[0]:.2g}")
    return iters


# --------------------------------------------------------------------------------------------
# Notebook 02, section 2 and Fig. 1: a few support vectors decide, whatever the spread


def spread_classes(rng, n: int, sd_tight: float = 0.3, sd_wide: float = 1.5, gap: float = 4.5):
    """``n`` points of a tight class (label 0, at the origin) and ``n`` of a wide class (label 1, ``gap`` to the right).

    Both are isotropic Gaussians, drawn from ``rng`` (tight first).

    Examples
    --------
    >>> X, y = spread_classes(np.random.default_rng(0), 100)
    >>> X.shape, round(float(X[y == 1, 1].std()), 1), round(float(X[y == 0, 1].std()), 1)
    ((200, 2), 1.6, 0.3)
    """
    tight = rng.normal(0.0, sd_tight, size=(n, 2))
    wide = rng.normal(0.0, sd_wide, size=(n, 2)) + np.array([gap, 0.0])
    return np.vstack([tight, wide]), np.repeat([0, 1], n)


def support_vector_refits(X, y, svm: SVC) -> dict:
    """Refit a linear SVC on its support vectors alone, and after moving every other point twice as far from the line.

    Returns
    -------
    dict
        ``change``: the largest change of (w, b) between the fit and the two refits;
        ``spread_before`` and ``spread_after``: the class-1 total variance before and after the
        move; ``n_support``.

    Examples
    --------
    >>> X, y = spread_classes(np.random.default_rng(0), 50)
    >>> out = support_vector_refits(X, y, SVC(kernel="linear", C=1000.0).fit(X, y))
    >>> out["change"] < 1e-6, out["spread_after"] > out["spread_before"]
    (True, True)
    """
    w, b0 = svm.coef_[0], svm.intercept_[0]
    dist = (X @ w + b0) / np.linalg.norm(w)
    sv = svm.support_
    refit_sv = clone(svm).fit(X[sv], y[sv])
    X_spread = X.copy()
    others = np.setdiff1d(np.arange(len(y)), sv)
    X_spread[others] += dist[others, None] * w / np.linalg.norm(w)      # twice as far from the line
    refit_spread = clone(svm).fit(X_spread, y)
    before, after = (float(np.trace(np.cov(Z[y == 1], rowvar=False))) for Z in (X, X_spread))
    change = max(np.abs(np.r_[m.coef_[0], m.intercept_] - np.r_[w, b0]).max() for m in (refit_sv, refit_spread))
    return {"change": float(change), "spread_before": before, "spread_after": after, "n_support": len(sv)}


class SpreadRules(NamedTuple):
    """Four rules on fresh points of the two classes, and how close each class comes to two boundaries."""

    predictions: dict         #: {rule: predicted labels of the fresh points}
    errors: pd.DataFrame      #: error on each class and overall, per rule
    qda: QuadraticDiscriminantAnalysis
    qda_margin: dict          #: {"tight" | "wide": nearest training point of the class to QDA's boundary}
    svm_margin: dict          #: the same for the SVM's line
    qda_x_range: tuple        #: the x range of QDA's boundary (an oval around the tight class)


def spread_rules(X, y, X_new, y_new, svm: SVC) -> SpreadRules:
    """The linear SVM against rules that know each class's covariance, on fresh points.

    The rules: the SVM; QDA (the class-conditional Gaussians); the nearest class mean by
    Euclidean distance and by Mahalanobis distance (each class with its own covariance).
    QDA's boundary (posterior 0.5) is traced on a fine grid (x from -4 to 10, y from -6 to 6).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X, y = spread_classes(rng, 50)
    >>> X_new, y_new = spread_classes(rng, 2000)
    >>> rules = spread_rules(X, y, X_new, y_new, SVC(kernel="linear", C=1000.0).fit(X, y))
    >>> list(rules.errors.index)
    ['linear SVM', 'QDA (class Gaussians)', 'nearest mean, Euclidean', 'nearest mean, Mahalanobis']
    """
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    means = [X[y == k].mean(axis=0) for k in (0, 1)]
    inv_covs = [np.linalg.inv(np.cov(X[y == k], rowvar=False)) for k in (0, 1)]
    predictions = {
        "linear SVM": svm.predict(X_new),
        "QDA (class Gaussians)": qda.predict(X_new),
        "nearest mean, Euclidean": np.argmin([np.linalg.norm(X_new - m, axis=1) for m in means], axis=0),
        "nearest mean, Mahalanobis": np.argmin([mahalanobis(X_new, m[None, :], VI).ravel()
                                                for m, VI in zip(means, inv_covs)], axis=0),
    }
    errors = pd.DataFrame({name: {"error, tight class": np.mean(p[y_new == 0] != 0),
                                  "error, wide class": np.mean(p[y_new == 1] != 1),
                                  "error, overall": np.mean(p != y_new)} for name, p in predictions.items()}).T
    gx, gy = np.linspace(-4, 10, 1401), np.linspace(-6, 6, 1201)
    grid = np.c_[np.repeat(gx[None, :], len(gy), 0).ravel(), np.repeat(gy[:, None], len(gx), 1).ravel()]
    post = qda.predict_proba(grid)[:, 1]
    curve = np.vstack(find_contours(post.reshape(len(gy), len(gx)), 0.5))          # (row, column) grid indices
    curve = np.c_[np.interp(curve[:, 1], np.arange(len(gx)), gx), np.interp(curve[:, 0], np.arange(len(gy)), gy)]
    to_curve = cdist(X, curve).min(axis=1)
    w, b0 = svm.coef_[0], svm.intercept_[0]
    dist = np.abs(X @ w + b0) / np.linalg.norm(w)
    return SpreadRules(predictions, errors, qda,
                       {"tight": float(to_curve[y == 0].min()), "wide": float(to_curve[y == 1].min())},
                       {"tight": float(dist[y == 0].min()), "wide": float(dist[y == 1].min())},
                       (float(curve[:, 0].min()), float(curve[:, 0].max())))


# --------------------------------------------------------------------------------------------
# Notebook 03, section 2: the standard SVM and the earlier covariance formulations, Eqs. 1-8


def gaussian_example(mean_pos, cov_pos, mean_neg, cov_neg, n: int, n_fresh: int = 1000, random_state=0):
    """Two Gaussian classes (labels +1 and -1) and fresh points of both, from one seeded stream.

    Returns
    -------
    (X, y, fresh)
        ``n`` training points per class (class +1 first) and ``n_fresh`` fresh points per class,
        drawn in that order.

    Examples
    --------
    >>> X, y, fresh = gaussian_example([4, 4], np.eye(2), [0, 0], np.eye(2), 40)
    >>> X.shape, fresh.shape, y[:2].tolist()
    ((80, 2), (2000, 2), [1, 1])
    """
    rng = np.random.default_rng(random_state)
    X = np.vstack([rng.multivariate_normal(mean_pos, cov_pos, n), rng.multivariate_normal(mean_neg, cov_neg, n)])
    fresh = np.vstack([rng.multivariate_normal(mean_pos, cov_pos, n_fresh),
                       rng.multivariate_normal(mean_neg, cov_neg, n_fresh)])
    return X, np.repeat([1, -1], n), fresh


def standard_svm_checks(X, y, C: float = 1.0) -> dict:
    """Eqs. 1-4 at scikit-learn's soft-margin solution: hyperplane, primal and dual objectives, KKT.

    Returns
    -------
    dict
        ``svc`` (fitted with ``tol=1e-8``); ``eq1_gap`` (theta'x + theta0 against the decision
        function) and ``eq4_gap`` (the dual expansion against it), relative; ``primal`` and
        ``dual`` objectives; ``constraints_hold`` (Eq. 3 with the slacks); ``n_support``,
        ``n_free`` (0 < alpha < C); ``on_margin`` (largest :math:`|yf - 1|` of the free support
        vectors) and ``outside_min`` (smallest :math:`yf` of the other rows).

    Examples
    --------
    >>> X, y, _ = gaussian_example([4, 4], np.eye(2), [0, 0], np.eye(2), 40)
    >>> out = standard_svm_checks(X, y)
    >>> abs(out["primal"] - out["dual"]) < 1e-3, out["eq4_gap"] < 1e-6, out["constraints_hold"]
    (True, True, True)
    """
    svc = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    theta, theta0 = svc.coef_[0], svc.intercept_[0]
    f = X @ theta + theta0                                                  # Eq. 1: theta'x + theta0
    alpha_y = svc.dual_coef_[0]                                             # alpha_i y_i of the support vectors
    f_dual = X @ svc.support_vectors_.T @ alpha_y + theta0                  # Eq. 4
    xi = np.maximum(0, 1 - y * f)                                           # slacks of Eq. 3
    alpha = np.abs(alpha_y)
    dual = alpha.sum() - 0.5 * alpha_y @ (svc.support_vectors_ @ svc.support_vectors_.T) @ alpha_y
    free = alpha < C * (1 - 1e-6)
    outside = np.setdiff1d(np.arange(len(y)), svc.support_)
    return {"svc": svc, "eq1_gap": rel(f, svc.decision_function(X)), "eq4_gap": rel(f_dual, svc.decision_function(X)),
            "primal": float(0.5 * theta @ theta + C * xi.sum()), "dual": float(dual),    # Eq. 2 and its dual
            "constraints_hold": bool(np.all(y * f >= 1 - xi - 1e-9) and np.all(xi >= 0)),
            "n_support": len(svc.support_), "n_free": int(free.sum()),
            "on_margin": float(np.abs(y[svc.support_] * f[svc.support_] - 1)[free].max()),
            "outside_min": float((y * f)[outside].min())}


def earlier_formulations(X, y, pooled, C: float = 1.0) -> dict:
    """Eqs. 2-3, 5-6 and 7-8 solved as printed (SLSQP), against scikit-learn's SVC on transformed rows.

    Substituting :math:`w = \\Sigma^{-1/2}\\theta` makes Eqs. 5-6 the standard SVM on
    :math:`\\Sigma^{-1/2}x` and Eqs. 7-8 the standard SVM on :math:`\\Sigma^{1/2}x`.

    Returns
    -------
    dict
        ``gap_std``, ``gap56``, ``gap78``: the largest differences of decision values; the
        fitted formulations ``eq56`` and ``eq78``.

    Examples
    --------
    >>> X, y, _ = gaussian_example([4, 4], np.eye(2), [0, 0], np.eye(2), 40)
    >>> out = earlier_formulations(X, y, np.array([[1.0, 0.3], [0.3, 2.0]]))
    >>> max(out["gap_std"], out["gap56"], out["gap78"]) < 1e-3
    True
    """
    vals, vecs = np.linalg.eigh(pooled)
    root, root_inv = (vecs * np.sqrt(vals)) @ vecs.T, (vecs / np.sqrt(vals)) @ vecs.T
    S_inv = np.linalg.inv(pooled)
    eq56 = primal_linear_svm(X, y, C=C, P=S_inv, M=S_inv)
    eq78 = primal_linear_svm(X, y, C=C, P=S_inv)
    std = primal_linear_svm(X, y, C=C)
    svc = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    svc_white = SVC(kernel="linear", C=C, tol=1e-8).fit(X @ root_inv, y)
    svc_color = SVC(kernel="linear", C=C, tol=1e-8).fit(X @ root, y)
    return {"gap_std": float(np.abs(std.decision_function(X) - svc.decision_function(X)).max()),
            "gap56": float(np.abs(eq56.decision_function(X) - svc_white.decision_function(X @ root_inv)).max()),
            "gap78": float(np.abs(eq78.decision_function(X) - svc_color.decision_function(X @ root)).max()),
            "eq56": eq56, "eq78": eq78}


def unit_change_flips(X, y, fresh, pooled, unit_change, C: float = 1.0) -> pd.Series:
    """How many fresh points change class when the units of the features change, per formulation.

    The features are multiplied by ``unit_change``; the covariance is re-estimated in the new
    units. A formulation whose classifier does not depend on the units is dimensionally
    consistent. Compared: the standard SVM, Eqs. 5-6, Eqs. 7-8 and the paper's Eqs. 16-17 with
    one pooled Cholesky factor.

    Examples
    --------
    >>> X, y, fresh = gaussian_example([4, 4], [[1, 0.6], [0.6, 0.8]], [0, 0], [[3, -1.2], [-1.2, 1.5]], 40)
    >>> pooled = (np.cov(X[y == 1], rowvar=False) + np.cov(X[y == -1], rowvar=False)) / 2
    >>> flips = unit_change_flips(X, y, fresh, pooled, [1000.0, 0.01])
    >>> int(flips["Eqs. 5-6 (Sigma^-1 in objective and constraint)"]), int(flips["paper's Eqs. 16-17 (pooled Psi^-1)"])
    (0, 0)
    """
    D = np.diag(unit_change)
    X_u, fresh_u, pooled_u = X @ D, fresh @ D, D @ pooled @ D
    S_inv, S_inv_u = np.linalg.inv(pooled), np.linalg.inv(pooled_u)

    def changed(fit_a, fit_b, transform_a=lambda Z: Z, transform_b=lambda Z: Z):
        return int(np.sum(np.sign(fit_a(transform_a(fresh))) != np.sign(fit_b(transform_b(fresh_u)))))

    def svc(Z):
        return SVC(kernel="linear", C=C, tol=1e-8).fit(Z, y)

    L, L_u = linalg.cholesky(pooled, lower=True), linalg.cholesky(pooled_u, lower=True)
    return pd.Series({
        "standard SVM (Eqs. 2-3)": changed(svc(X).decision_function, svc(X_u).decision_function),
        "Eqs. 5-6 (Sigma^-1 in objective and constraint)": changed(
            primal_linear_svm(X, y, C=C, P=S_inv, M=S_inv).decision_function,
            primal_linear_svm(X_u, y, C=C, P=S_inv_u, M=S_inv_u).decision_function),
        "Eqs. 7-8 (Sigma^-1 in the objective only)": changed(
            primal_linear_svm(X, y, C=C, P=S_inv).decision_function,
            primal_linear_svm(X_u, y, C=C, P=S_inv_u).decision_function),
        "paper's Eqs. 16-17 (pooled Psi^-1)": changed(
            svc(X @ np.linalg.inv(L).T).decision_function, svc(X_u @ np.linalg.inv(L_u).T).decision_function,
            lambda Z: Z @ np.linalg.inv(L).T, lambda Z: Z @ np.linalg.inv(L_u).T),
    }, name="fresh points (of 2,000) whose class changes with the units")


# --------------------------------------------------------------------------------------------
# Notebook 03, section 3: one whitened hyperplane, two input-space lines (Eqs. 14-27)


def _input_space_margin(W, theta, theta0, side):
    # distance in the input space between the images of theta'z + theta0 = 0 and = side
    unit = theta / (theta @ theta)
    perp = np.array([-theta[1], theta[0]])
    on_line = [(-theta0) * unit, (-theta0) * unit + perp]
    on_margin = (side - theta0) * unit
    p0, p1, m = (np.linalg.solve(W, z) for z in (*on_line, on_margin))
    d = p1 - p0
    return abs(d[0] * (m - p0)[1] - d[1] * (m - p0)[0]) / np.hypot(*d)


def input_space_margins(X, y, class_covs: Mapping, C: float = 1000.0, methods=("zca", "cholesky")):
    """Fit the whitened SVM (each class by its own factor) and measure its two margins in the input space.

    For each whitening method: the training errors, the geometric margin of each class (the
    whitened decision and margin lines mapped back with :math:`W_k^{-1}`, point-to-line
    distances), their ratio, the paper's Eq. 27 and the general ratio
    :math:`|W_{-1}^\\top\\theta| / |W_1^\\top\\theta|`.

    Returns
    -------
    (table, fits)
        The margins by method, and per method ``(W, theta, theta0, Z, svc)``.

    Examples
    --------
    >>> X, y, _ = gaussian_example([4, 4], [[1, 0.6], [0.6, 0.8]], [0, 0], [[3, -1.2], [-1.2, 1.5]], 40)
    >>> covs = {k: np.cov(X[y == k], rowvar=False) for k in (1, -1)}
    >>> table, _ = input_space_margins(X, y, covs)
    >>> t = table.loc["zca"]
    >>> bool(abs(t["ratio, geometric"] - t["ratio, paper's Eq. 27"]) < 1e-9)
    True
    """
    rows, fits = [], {}
    for method in methods:
        Wk = {k: whitening_matrix(class_covs[k], method) for k in (1, -1)}
        Z = transform_by_class(X, y, Wk)
        fit = SVC(kernel="linear", C=C).fit(Z, y)
        th, th0 = fit.coef_[0], fit.intercept_[0]
        fits[method] = (Wk, th, th0, Z, fit)
        m_pos, m_neg = _input_space_margin(Wk[1], th, th0, +1), _input_space_margin(Wk[-1], th, th0, -1)
        paper = np.sqrt(th @ np.linalg.solve(class_covs[-1], th)) / np.sqrt(th @ np.linalg.solve(class_covs[1], th))
        general = np.linalg.norm(Wk[-1].T @ th) / np.linalg.norm(Wk[1].T @ th)
        rows.append({"whitening": method, "training errors": int(np.sum(fit.predict(Z) != y)),
                     "margin, class +1": m_pos, "margin, class -1": m_neg, "ratio, geometric": m_pos / m_neg,
                     "ratio, paper's Eq. 27": paper, "ratio, |W'theta| formula": general})
    return pd.DataFrame(rows).set_index("whitening"), fits


def eq20_eq21_gap(X_class, W, theta, theta0) -> float:
    """Eqs. 20-21 for one class's rows: both sides, :math:`\\theta^\\top\\Psi^{-1}x` and its regrouping, compared.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> eq20_eq21_gap(rng.normal(size=(10, 2)), rng.normal(size=(2, 2)), np.array([1.0, 2.0]), 0.5) < 1e-12
    True
    """
    left = X_class @ np.linalg.inv(W).T                                      # any points; both sides agree pointwise
    eq20 = left @ W.T @ theta + theta0
    eq21 = left @ (W.T @ theta) + theta0
    return rel(eq21, eq20)


def eq22_steps(covs: Mapping) -> pd.DataFrame:
    """The steps of Eq. 22 for each covariance: they hold for a symmetric root, not for the Cholesky factor.

    Returns
    -------
    DataFrame
        Relative differences: :math:`\\Psi^{-1}(\\Psi^{-1})^\\top` against :math:`(\\Psi^\\top\\Psi)^{-1}`;
        :math:`(\\Psi^\\top\\Psi)^{-1}` against :math:`\\Sigma^{-1}` (Cholesky); :math:`WW^\\top` against
        :math:`\\Sigma^{-1}` for the symmetric root.

    Examples
    --------
    >>> table = eq22_steps({"2-D": np.array([[1.0, 0.6], [0.6, 0.8]])})
    >>> bool(table.iloc[0, 1] > 0.1), bool(table.iloc[0, 2] < 1e-12)
    (True, True)
    """
    rows = []
    for name, S in covs.items():
        Psi = linalg.cholesky(S, lower=True)
        Psi_inv = np.linalg.inv(Psi)
        sym = whitening_matrix(S, "zca")
        rows.append({"covariance": name,
                     "Psi^-1 (Psi^-1)' vs (Psi'Psi)^-1": rel(Psi_inv @ Psi_inv.T, np.linalg.inv(Psi.T @ Psi)),
                     "(Psi'Psi)^-1 vs Sigma^-1 (Cholesky)": rel(np.linalg.inv(Psi.T @ Psi), np.linalg.inv(S)),
                     "W W' vs Sigma^-1 (symmetric root)": rel(sym @ sym.T, np.linalg.inv(S))})
    return pd.DataFrame(rows).set_index("covariance")
