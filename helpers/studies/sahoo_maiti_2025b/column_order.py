"""Our own finding: Option B's :math:`E(C^{-1})` depends on the order of the columns (section 5.7).

A Cholesky factor is lower triangular *in the order the features are listed*: reorder the
columns and the factor of the reordered covariance is not the reordered factor. For one class
that does not matter to a linear SVM, because every whitening matrix of one covariance is the
same up to a rotation (:math:`W' = QW`, :math:`Q` orthogonal), and a rotation leaves the inner
products of the transformed rows, and so the SVM, unchanged. Option B, however, averages the
factors of two classes, :math:`E(C^{-1}) = p\\,C_1^{-1} + (1 - p)\\,C_0^{-1}`, and the two
rotations that a reordering brings are not the same: the averaged matrix, the space it maps
to and the SVM fitted there change with the order. The average of the two classes' symmetric
(ZCA) whitening matrices has no such freedom: reordering the columns only reorders its rows
and columns, so the SVM is the same whatever the order.

* :func:`order_gram_change` and :func:`gram_changes`: how much a reordering changes the inner
  products of the transformed rows (zero up to rounding for an order-free transform);
* :func:`column_order_scores`: Option B's accuracy over random column orders, on the 80:20 split
  and under Table 1's 10-fold CV, with the Cholesky and an order-free mixture;
* :func:`order_spread` and :func:`plot_column_orders`: their summary and the figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from ..._validation import check_int
from ...whitening import METHODS, class_whitening_matrices, expected_whitening_matrix

__all__ = ["ColumnOrders", "column_order_scores", "gram_changes", "order_gram_change", "order_spread",
           "plot_column_orders"]


def _transform(X, y, rows, method, covariance, which):
    """The matrix fitted on ``rows``: ``E(W^-1)`` (``which="expected"``) or one class's own ``W``."""
    if which == "expected":
        return expected_whitening_matrix(X[rows], y[rows], method=method, covariance=covariance)
    return class_whitening_matrices(X[rows], y[rows], method=method, covariance=covariance)[which]


def order_gram_change(X, y, order, method: str = "cholesky", covariance="sample", which="expected") -> float:
    """How much reordering the columns changes the inner products of the transformed rows.

    The matrix (``which="expected"``: Option B's :math:`E(W^{-1})`; a class label: that class's
    own whitening matrix) is fitted on ``X`` as given and on ``X[:, order]``; the result is the
    relative Frobenius difference of the two Gram matrices :math:`ZZ^\\top` of the transformed
    rows. Zero (up to rounding) means the two transforms differ by a rotation at most, which a
    linear SVM does not see.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    order : sequence of int
        A permutation of ``range(n_features)``.
    method, covariance
        As in :func:`helpers.whitening.expected_whitening_matrix`.
    which : "expected" or a class label

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(size=(40, 3)) @ [[2, 0, 0], [1, 1, 0], [0, 1, 3]],
    ...           rng.normal(size=(40, 3)) @ [[1, 0, 0], [0, 2, 0], [1, 1, 1]]]
    >>> y = np.repeat([0, 1], 40)
    >>> order_gram_change(X, y, [2, 0, 1], "zca") < 1e-10, order_gram_change(X, y, [2, 0, 1], "cholesky") > 1e-3
    (True, True)
    >>> order_gram_change(X, y, [2, 0, 1], "cholesky", which=0) < 1e-10      # one class: a rotation at most
    True
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be 2-D with one label per row in y; got shapes {X.shape} and {y.shape}")
    order = np.asarray(order)
    if sorted(order.tolist()) != list(range(X.shape[1])):
        raise ValueError(f"order must be a permutation of range({X.shape[1]}) (one index per column); got "
                         f"{order.tolist()}")
    rows = np.arange(len(y))
    Z = X @ _transform(X, y, rows, method, covariance, which).T
    Zp = X[:, order] @ _transform(X[:, order], y, rows, method, covariance, which).T
    G, Gp = Z @ Z.T, Zp @ Zp.T
    return float(np.linalg.norm(G - Gp) / np.linalg.norm(G))


def gram_changes(X, y, orders, methods: Sequence[str] = ("cholesky", "zca_cor"), covariance="sample") -> pd.Series:
    """The largest :func:`order_gram_change` over ``orders``: of each class's own matrix and of the mixture.

    Returns
    -------
    Series indexed ``"{method}, own matrix of class {k}"`` and ``"{method}, E(W^-1)"``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(size=(40, 3)) @ [[2, 0, 0], [1, 1, 0], [0, 1, 3]],
    ...           rng.normal(size=(40, 3)) @ [[1, 0, 0], [0, 2, 0], [1, 1, 1]]]
    >>> changes = gram_changes(X, np.repeat([0, 1], 40), [[2, 0, 1], [1, 2, 0]])
    >>> (changes > 1e-10).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'cholesky, own matrix of class 0': False, 'cholesky, own matrix of class 1': False, 'cholesky, E(W^-1)': True,
     'zca_cor, own matrix of class 0': False, 'zca_cor, own matrix of class 1': False, 'zca_cor, E(W^-1)': False}
    """
    labels = np.unique(y)
    out = {}
    for method in methods:
        for which in [*labels.tolist(), "expected"]:
            name = f"{method}, E(W^-1)" if which == "expected" else f"{method}, own matrix of class {which}"
            out[name] = max(order_gram_change(X, y, o, method, covariance, which) for o in orders)
    return pd.Series(out, name="largest relative change of the Gram matrix")


class ColumnOrders(NamedTuple):
    """Option B's accuracy over random column orders (and in the data set's own order)."""

    orders: np.ndarray        #: (n_orders, n_features), each row a permutation of the columns
    split: pd.DataFrame       #: test accuracy on the 80:20 split, one row per order, one column per method
    folds: pd.DataFrame       #: mean accuracy over ``StratifiedKFold(n_folds)`` (Table 1's folds), the same shape
    given: pd.DataFrame       #: the same two accuracies in the data set's own column order (index: method)


def _accuracy(X_train, y_train, X_test, y_test, method, covariance):
    E = expected_whitening_matrix(X_train, y_train, method=method, covariance=covariance)
    svc = SVC(kernel="linear").fit(X_train @ E.T, y_train)
    return float(np.mean(svc.predict(X_test @ E.T) == y_test))


def _one_order(X, y, split, folds, order, methods, covariance):
    X_train, y_train, X_test, y_test = split
    Xo = X[:, order]
    return {method: (_accuracy(X_train[:, order], y_train, X_test[:, order], y_test, method, covariance),
                     float(np.mean([_accuracy(Xo[tr], y[tr], Xo[te], y[te], method, covariance) for tr, te in folds])))
            for method in methods}


def column_order_scores(split, n_orders: int = 50, random_state=0,
                        methods: Sequence[str] = ("cholesky", "zca_cor"), covariance="sample",
                        n_folds: int = 10) -> ColumnOrders:
    """Option B (:math:`E(W^{-1})` of the training classes, then a linear SVC) under random column orders.

    For each of ``n_orders`` random permutations of the columns (drawn from ``random_state``)
    and for each mixing ``method``, the accuracy on the train/test split and the mean accuracy
    over the folds of ``StratifiedKFold(n_folds)`` on all rows (unshuffled, Table 1's folds; the
    folds do not depend on the column order). The matrix is fitted on each training set in the
    permuted order; rows and labels are unchanged.

    Parameters
    ----------
    split : Split
        ``X, y, X_train, X_test, y_train, y_test`` (:func:`wdbc_split`).
    n_orders : int
        Random column orders tried (besides the data set's own).
    methods : sequence of str
        Whitening methods mixed into :math:`E(W^{-1})` (:data:`helpers.whitening.METHODS`):
        ``"cholesky"`` is Option B; ``"zca"`` and ``"zca_cor"`` are order-free (``"zca_cor"``,
        the symmetric whitening of the correlation matrix, stays accurate on badly scaled
        features where the plain ZCA matrix loses precision).
    n_folds : int
        Folds of the cross-validation (10: Table 1's).

    Returns
    -------
    ColumnOrders
        About 0.15 s per order on WDBC (one split and ten folds, two methods).

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import Split
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> X, y = wdbc_split().X[:200, :6], wdbc_split().y[:200]
    >>> part = Split(X, y, X[:150], X[150:], y[:150], y[150:])
    >>> res = column_order_scores(part, n_orders=4, random_state=1, n_folds=3)
    >>> res.split.shape, res.orders.shape, list(res.given.columns)
    ((4, 2), (4, 6), ['80:20 split', '3-fold CV'])
    >>> res.split["zca_cor"].nunique(), res.folds["zca_cor"].nunique()          # order-free
    (1, 1)
    """
    n_orders = check_int(n_orders, "n_orders", 1, "n_orders=50")
    n_folds = check_int(n_folds, "n_folds", 2, "n_folds=10")
    methods = tuple(methods)
    if not methods or any(m not in METHODS for m in methods):
        raise ValueError(f"methods must name whitening methods among {METHODS}; got {methods!r}")
    X, y, X_train, X_test, y_train, y_test = (np.asarray(a) for a in split)
    rng = np.random.default_rng(random_state)
    orders = np.array([rng.permutation(X.shape[1]) for _ in range(n_orders)])
    folds = list(StratifiedKFold(n_folds).split(X, y))
    runs = [_one_order(X, y, (X_train, y_train, X_test, y_test), folds, order, methods, covariance)
            for order in [np.arange(X.shape[1]), *orders]]
    given, rest = runs[0], runs[1:]
    split = pd.DataFrame({m: [r[m][0] for r in rest] for m in methods})
    cv = pd.DataFrame({m: [r[m][1] for r in rest] for m in methods})
    given = pd.DataFrame({m: {"80:20 split": given[m][0], f"{n_folds}-fold CV": given[m][1]} for m in methods}).T
    return ColumnOrders(orders, split, cv, given)


def order_spread(result: ColumnOrders) -> pd.DataFrame:
    """Per method and protocol: the smallest, median and largest accuracy over the orders, and the data set's order.

    Examples
    --------
    >>> r = ColumnOrders(np.zeros((3, 2)), pd.DataFrame({"cholesky": [0.9, 0.95, 0.92]}),
    ...                  pd.DataFrame({"cholesky": [0.94, 0.95, 0.96]}),
    ...                  pd.DataFrame({"80:20 split": [0.97], "10-fold CV": [0.95]}, index=["cholesky"]))
    >>> order_spread(r).round(3).to_dict("index")["cholesky, 80:20 split"]
    {'min': 0.9, 'median': 0.92, 'max': 0.95, 'range': 0.05, "data set's order": 0.97}
    """
    rows = {}
    for protocol, table in (("80:20 split", result.split), (result.given.columns[1], result.folds)):
        for method in table.columns:
            s = table[method]
            rows[f"{method}, {protocol}"] = {"min": s.min(), "median": s.median(), "max": s.max(),
                                             "range": s.max() - s.min(),
                                             "data set's order": result.given.loc[method, protocol]}
    return pd.DataFrame.from_dict(rows, orient="index")


def plot_column_orders(result: ColumnOrders, reference: dict, labels: dict, title: str):
    """Two panels (80:20 split, k-fold CV): how many orders give each accuracy, per method.

    ``reference`` maps a name to its two accuracies (split, CV), drawn as vertical lines (e.g.
    the linear SVC on raw rows, which no column order changes); ``labels`` names the methods.
    The data set's own order is marked with a diamond.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    protocols = (("80:20 split", result.split), (result.given.columns[1], result.folds))
    for ax, (protocol, table) in zip(axes, protocols):
        for i, method in enumerate(table.columns):
            values, counts = np.unique(np.round(table[method].to_numpy(), 6), return_counts=True)
            offset = (i - (len(table.columns) - 1) / 2) * 0.0012
            ax.bar(values + offset, counts, width=0.0011, label=f"{labels.get(method, method)}, random orders",
                   color=f"C{i}")
            ax.plot(result.given.loc[method, protocol] + offset, 0.5, "D", color=f"C{i}", markeredgecolor="k",
                    label=f"{labels.get(method, method)}, the data set's order")
        for j, (name, (split_acc, cv_acc)) in enumerate(reference.items()):
            ax.axvline(split_acc if protocol == "80:20 split" else cv_acc, color="0.3", ls=("--", ":")[j % 2],
                       label=name)
        ax.set(title=protocol, xlabel="accuracy of Option B's linear SVC")
    axes[0].set_ylabel(f"column orders (of {len(result.orders)})")
    axes[1].legend(fontsize=8, loc="upper left")
    fig.suptitle(title)
    fig.tight_layout()
    return fig
