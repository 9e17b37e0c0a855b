"""The case study of sections 4-6 (notebook 04): the split, Fig. 2's K, the three cases, case 2 against
Eq. 7, the leak-free resampling and Table 1."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.metrics import classification_report
from sklearn.metrics.pairwise import cosine_similarity as sk_cosine
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    train_test_split,
)
from sklearn.neighbors import KNeighborsClassifier, NeighborhoodComponentsAnalysis
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ...data import load_wdbc
from ...display import prints_as
from ...estimators import ClassConditionalKNN, ExpectedWhitener, Whitener
from ...evaluation import repeated_split_scores, report_rows
from ...neighbours import knn_cv_accuracy_by_k, knn_cv_predictions_by_k
from ...whitening import (
    class_priors,
    class_whitening_matrices,
    expected_whitening_matrix,
    transform_by_class,
)
from .protocol import SplitProtocol, population_protocol_predict, population_split_scores

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


#: the measurements the paper names for the 30 features (lines 342-347), which it ends with "etc."
PAPER_FEATURES = ("radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity", "symmetry",
                  "fractal dimension")


def wdbc_features() -> dict:
    """The WDBC columns as the paper describes them (lines 338-347): measurements of the cell nuclei.

    Returns
    -------
    dict
        ``n_rows``, ``n_columns``, ``measurements`` (each column's measurement, its statistic
        -- mean, standard error or worst value -- removed), ``statistics``, ``real_valued``
        (every column a float), ``missing`` (measurements of :data:`PAPER_FEATURES` that no
        column holds), ``unnamed`` (measurements the paper's list leaves to its "etc.") and
        ``classes`` (rows per class, malignant and benign).

    Examples
    --------
    >>> f = wdbc_features()
    >>> f["n_columns"], len(f["measurements"]), f["statistics"], f["missing"], f["unnamed"]
    (30, 10, ['mean', 'standard error', 'worst'], [], ['concave points'])
    >>> f["classes"]
    {'malignant': 212, 'benign': 357}
    """
    X_df, y = load_wdbc()
    measurements, statistics = [], []
    for column in X_df.columns:
        for prefix, suffix, statistic in (("mean ", "", "mean"), ("", " error", "standard error"),
                                          ("worst ", "", "worst")):
            if column.startswith(prefix) and column.endswith(suffix) and (prefix or suffix):
                name = column.removeprefix(prefix).removesuffix(suffix) if suffix else column.removeprefix(prefix)
                measurements.append(name)
                statistics.append(statistic)
                break
    found = sorted(set(measurements), key=measurements.index)
    return {"n_rows": int(X_df.shape[0]), "n_columns": int(X_df.shape[1]), "measurements": found,
            "statistics": sorted(set(statistics), key=statistics.index),
            "real_valued": bool(all(dtype.kind == "f" for dtype in X_df.dtypes)),
            "missing": [m for m in PAPER_FEATURES if m not in found],
            "unnamed": [m for m in found if m not in PAPER_FEATURES],
            "classes": {"malignant": int((y == 1).sum()), "benign": int((y == 0).sum())}}


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


def split_sweep(models: Mapping, X, y, k: int = 13,
                protocol: SplitProtocol | None = None) -> dict[str, np.ndarray]:
    """Test accuracy of each model over the same stratified random splits, and case 2 beside them.

    The splits and case 2's whitening are those of ``protocol`` (:class:`SplitProtocol`, by
    default its defaults; the models carry their own whitening). Case 2 (the population protocol, which reads the test
    labels) is run twice for contrast, with cosine kNN of ``k`` neighbours:
    ``population_cholesky`` with class matrices from all rows (as the paper) and
    ``population_cholesky_train_matrices`` with matrices from each split's training rows.

    Returns
    -------
    dict of {name: ndarray of shape (n_splits,)}

    Examples
    --------
    >>> split = wdbc_split()
    >>> scores = split_sweep({"raw_cosine": cosine_knn()}, split.X, split.y, protocol=SplitProtocol(n_splits=2))
    >>> {name: s.round(3).tolist() for name, s in scores.items()}["population_cholesky_train_matrices"]
    [1.0, 1.0]
    """
    protocol = protocol or SplitProtocol()
    scores = repeated_split_scores(models, X, y, n_splits=protocol.n_splits, test_size=protocol.test_size,
                                   random_state=protocol.random_state, n_jobs=protocol.n_jobs)
    for source, name in (("all", "population_cholesky"), ("train", "population_cholesky_train_matrices")):
        scores[name] = population_split_scores(cosine_knn(k), X, y, protocol, matrices_from=source)
    return scores


#: the pairs of section 5.5 (first better if the difference is positive): normalising, decorrelating, Eq. 7
PAIRS = [("standardised_cosine", "raw_cosine"), ("scaled_cosine", "raw_cosine"),
         ("whitened_centred_cosine", "standardised_cosine"), ("whitened_cosine", "scaled_cosine"),
         ("expected_cholesky", "scaled_cosine"), ("whitened_centred_cosine", "raw_cosine"),
         ("whitened_cosine", "raw_cosine"), ("eq7_class_conditional", "raw_cosine")]


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


def table1_protocol_grid(X, y, X_train, y_train, E_split, k_grid=range(1, 16, 2),
                         protocol: SplitProtocol | None = None) -> pd.Series:
    """Cross-validated accuracy of the three cases under a grid of plausible Table 1 protocols.

    Rows: all rows or the training rows of the split; folds: LOOCV and 5-fold, unshuffled,
    stratified, shuffled (seeded by ``protocol.random_state``) or both; K of ``k_grid``; and
    :math:`E(W^{-1})` estimated once on the rows evaluated, taken from the split's training
    rows (``E_split``), or fitted in each training fold. The whitening is ``protocol``'s
    (``method``, ``covariance``; :class:`SplitProtocol`, by default its defaults); its splits
    are not used.

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
    protocol = protocol or SplitProtocol()
    random_state, method, covariance = protocol.random_state, protocol.method, protocol.covariance
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


