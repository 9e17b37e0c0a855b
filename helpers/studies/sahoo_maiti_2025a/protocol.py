"""The paper's "population" protocol (each row multiplied by its own class's matrix: it reads the test
labels) and its label audit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import (
    StratifiedShuffleSplit,
    cross_val_predict,
)

from ..._validation import check_cv, check_estimator, check_int, check_labels
from ...evaluation import SCORE_FUNCTIONS, check_scoring
from ...whitening import (
    class_whitening_matrices,
    transform_by_class,
)


def population_protocol_predict(model, X_train, y_train, X_test, y_test_used, method="cholesky",
                                covariance="sample", matrices=None):
    """The seeds' "population" protocol. USES THE TEST LABELS (``y_test_used``).

    Every training row is transformed with its class's matrix and so is every *test* row,
    with the label given in ``y_test_used``. Passing the true test labels reproduces the
    papers; passing wrong labels shows that the prediction follows the label we gave.
    ``matrices`` (``{label: W}``) are the class matrices: by default estimated on the
    training rows; the papers' are those of all 569 rows
    (``class_whitening_matrices(X, y)``); any label-dependent transform, e.g. random
    matrices, may stand in for them. ``method`` and ``covariance`` are those of
    :func:`helpers.whitening.class_whitening_matrices` (the papers: Cholesky of the sample
    covariance), used when ``matrices`` is not given.

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
        mats = class_whitening_matrices(X_train, y_train, method=method, covariance=covariance)
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


@dataclass(frozen=True)
class SplitProtocol:
    """The settings of the repeated-split protocol: the random splits, and the whitening fitted in them.

    Built once in a notebook and passed to the functions that resample, so that all of them
    use the same splits, seed and whitening: :func:`population_split_scores`,
    :func:`~helpers.studies.sahoo_maiti_2025a.split_sweep` and the SVM paper's
    :func:`~helpers.studies.sahoo_maiti_2025b.svm_split_sweep` draw ``n_splits`` stratified
    random splits; :func:`~helpers.studies.sahoo_maiti_2025a.table1_protocol_grid` seeds its
    shuffled folds and :func:`~helpers.studies.sahoo_maiti_2025a.column_order_study` its
    column orders with the same ``random_state``.

    Parameters
    ----------
    n_splits : int, default=50
        Stratified random train/test splits (``StratifiedShuffleSplit``).
    test_size : float, default=0.2
        Fraction of the rows held out in each split (the papers' 80:20).
    random_state : int, default=0
        Seed of the splits, and of the folds or orders a function draws instead.
    method : str, default="cholesky"
        Whitening method (:data:`helpers.whitening.METHODS`); the papers use Cholesky factors.
    covariance : str or float, default="sample"
        Covariance estimate (:data:`helpers.whitening.COVARIANCES`, or a shrinkage in [0, 1]).
    n_jobs : int or None, default=None
        Processes for the splits; the scores do not depend on it.

    Examples
    --------
    >>> protocol = SplitProtocol(n_splits=10, random_state=42)
    >>> protocol.n_splits, protocol.test_size, protocol.random_state, protocol.method
    (10, 0.2, 42, 'cholesky')
    >>> import dataclasses
    >>> dataclasses.replace(protocol, n_jobs=2).n_jobs       # frozen: another setting is another protocol
    2
    """

    n_splits: int = 50
    test_size: float = 0.2
    random_state: int | None = 0
    method: str = "cholesky"
    covariance: str | float = "sample"
    n_jobs: int | None = None


def population_split_scores(model, X, y, protocol: SplitProtocol | None = None, matrices_from="all",
                            scoring="accuracy"):
    """The "population" protocol over the same stratified splits as :func:`repeated_split_scores`.

    USES THE TEST LABELS: each test row is whitened with its own class's matrix.
    ``protocol`` gives the splits and the whitening (:class:`SplitProtocol`; default: its defaults).
    ``matrices_from="all"`` estimates the per-class matrices on all rows (as the papers),
    ``"train"`` on the training rows of each split only. ``scoring`` as in
    :func:`repeated_split_scores` (one name: an array; a tuple: ``{metric: array}``).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 3, (20, 2))]); y = np.repeat([0, 1], 20)
    >>> population_split_scores(KNeighborsClassifier(3), X, y, SplitProtocol(n_splits=2)).shape
    (2,)
    """
    if matrices_from not in ("all", "train"):
        raise ValueError(f"matrices_from must be 'all' or 'train', got {matrices_from!r}.")
    protocol = protocol or SplitProtocol()
    names, single = check_scoring(scoring)
    check_estimator(model)
    n_splits = check_int(protocol.n_splits, "n_splits", 1, "n_splits=50")
    X, y = check_labels(X, y)
    method, covariance = protocol.method, protocol.covariance
    cv = StratifiedShuffleSplit(n_splits=n_splits, test_size=protocol.test_size, random_state=protocol.random_state)
    # "all": one set of class matrices from every row, as the papers; "train": each split's training rows
    mats = class_whitening_matrices(X, y, method=method, covariance=covariance) if matrices_from == "all" else None
    splits = list(cv.split(X, y))
    preds = Parallel(n_jobs=protocol.n_jobs)(
        delayed(population_protocol_predict)(
            model, X[tr], y[tr], X[te], y[te], method=method, covariance=covariance, matrices=mats
        )
        for tr, te in splits)
    out = {n: np.asarray([SCORE_FUNCTIONS[n](y[te], pred) for (_, te), pred in zip(splits, preds)]) for n in names}
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



