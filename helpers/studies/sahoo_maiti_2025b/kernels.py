"""The standard kernels and Options A and B on the raw data (sections 5.1-5.2, Figs. 2-6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.metrics import classification_report
from sklearn.svm import SVC

from ...evaluation import SCORE_FUNCTIONS
from ...whitening import (
    class_whitening_matrices,
    expected_whitening_matrix,
)
from ..sahoo_maiti_2025a import (
    Split,
    eq9_by_hand,
    population_protocol_predict,
)

#: the standard kernels of Figs. 2-4, scikit-learn's names
KERNELS = ("linear", "rbf", "poly", "sigmoid")

#: the paper's measures of performance (line 202, and F1 in the abstract); class 1 (malignant) positive
PAPER_METRICS = ("accuracy", "precision", "recall", "f1")

def eq29_by_hand(X_train, y_train, method="cholesky", covariance="sample") -> tuple[float, np.ndarray]:
    """Eq. 29 written out, :math:`p\\,C_1^{-1} + (1 - p)\\,C_0^{-1}` with p of Eq. 35: the cosine paper's Eq. 9.

    Returns ``(p, matrix)`` as :func:`helpers.studies.sahoo_maiti_2025a.eq9_by_hand`, which it is.
    """
    return eq9_by_hand(X_train, y_train, method, covariance)


# --------------------------------------------------------------------------------------------
# Section 5.1, Figs. 2-4: the standard kernels on the raw data


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
        columns[name] = {"malignant": SCORE_FUNCTIONS["precision"](y_true, p),
                         "benign": SCORE_FUNCTIONS["precision"](1 - y_true, 1 - p),
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
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
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

