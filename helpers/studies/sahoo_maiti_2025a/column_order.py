"""The workbook's own finding on the cosine paper (notebook 04): :math:`E(W^{-1})` depends on the order of the columns.

A Cholesky factor depends on the order in which the features are listed: for a permutation
matrix :math:`P`, the factor of :math:`P\\Sigma P^\\top` is not :math:`P L P^\\top`. For one
covariance this does not matter: any two whitening matrices of :math:`\\Sigma` differ by a
rotation on the left (:math:`W_2 = Q W_1`, :math:`Q` orthogonal), and rotations keep lengths,
inner products and so Euclidean distances *and* cosines, centred or not. Only the whitened
coordinates change. The expected factor of Eq. 9, :math:`E(W^{-1}) = \\sum_k p_k W_k`, mixes two
factors whose rotations differ (:math:`\\sum_k p_k Q_k W_k` is no rotation of
:math:`\\sum_k p_k W_k`), so listing the same features in another order changes its cosines,
its distances and the kNN answers. Mixing symmetric factors instead (ZCA, or ZCA of the
correlation, ``"zca_cor"``: :math:`W' = P W P^\\top`) gives one answer for every order.

* :data:`TRANSFORMS`: what is compared, from raw cosine (case 1) to case 2;
* :func:`random_column_orders`: fixed-seed permutations of the features;
* :func:`order_geometry`: every test-training cosine and distance, and the whitened coordinates,
  under each transform, with the features in one order;
* :func:`knn_from_similarity`: the kNN vote from a similarity matrix (as scikit-learn's cosine kNN);
* :func:`column_order_study`: the transforms over many orders: the largest change of the cosines,
  distances and coordinates against the data set's own order, and the kNN accuracy per order;
* :func:`format_spread`: the table for display, changes below rounding shown as such;
* :func:`order_averaged_difference`: the accuracy of a method averaged over orders, minus a
  reference's, on one test set, with a BCa interval over its rows;
* :func:`plot_column_orders`: the figure of the finding.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics.pairwise import cosine_similarity, euclidean_distances

from ..._validation import check_int, check_option, check_real
from ...display import rounding_level
from ...whitening import (
    class_priors,
    class_whitening_matrices,
    estimate_covariance,
    transform_by_class,
    whitening_matrix,
)
from .protocol import SplitProtocol

#: the transforms compared over column orders: name -> label (as tables and the figure show it)
TRANSFORMS = {
    "raw_cosine": "raw cosine (case 1)",
    "pooled_cholesky": "one pooled Cholesky whitening, uncentred (line 222)",
    "pooled_cholesky_centred": "one pooled Cholesky whitening, centred",
    "eq7_class_factor": "Eq. 7: one class factor per pair (the training row's class)",
    "expected_cholesky": "E(W^-1) of Cholesky factors (case 3, Eq. 9)",
    "expected_symmetric": "E(W^-1) of symmetric factors (order-free variant)",
    "case2_own_factor": "case 2: each row its own class's factor (reads the test label)",
}

#: the symmetric factors the order-free variant may mix (helpers.whitening methods with W' = P W P')
SYMMETRIC_METHODS = ("zca", "zca_cor")

#: a change below this is rounding: double precision on WDBC's covariances (condition numbers near 1e12)
ROUNDING_BOUND = 1e-10


def random_column_orders(n_features: int, n_orders: int = 50, random_state=0) -> np.ndarray:
    """``n_orders`` random permutations of ``range(n_features)``, from a seeded generator.

    Returns
    -------
    ndarray of shape (n_orders, n_features)
        Row ``i`` lists the columns in the order of the ``i``-th permutation.

    Examples
    --------
    >>> random_column_orders(4, 2, random_state=0).tolist()
    [[2, 0, 1, 3], [3, 2, 1, 0]]
    """
    n_features = check_int(n_features, "n_features", 2, "n_features=30", why="a permutation needs two columns")
    n_orders = check_int(n_orders, "n_orders", 1, "n_orders=50")
    rng = np.random.default_rng(random_state)
    return np.array([rng.permutation(n_features) for _ in range(n_orders)])


def order_geometry(X_train, y_train, X_test, y_test, order=None, symmetric_method: str = "zca_cor",
                   covariance="sample") -> dict[str, dict]:
    """Cosines, distances and coordinates of every transform of :data:`TRANSFORMS`, the columns in ``order``.

    Every matrix is estimated on the training rows (case 2's too: it still reads the test
    labels, to give each test row its own class's factor). Columns are taken in ``order``
    (default: as given) before anything is estimated.

    Parameters
    ----------
    X_train, y_train, X_test, y_test : array-like
        A split of a two-class problem.
    order : array-like of int, optional
        A permutation of the columns.
    symmetric_method : {"zca_cor", "zca"}, default="zca_cor"
        The symmetric factors mixed in ``expected_symmetric``. ``"zca"`` is the symmetric
        inverse square root :math:`\\Sigma_k^{-1/2}`; ``"zca_cor"`` the same of the correlation
        matrix, :math:`P_k^{-1/2} V_k^{-1/2}`, which keeps more digits on badly scaled data.
    covariance
        As in :func:`helpers.whitening.estimate_covariance`.

    Returns
    -------
    dict of {name: dict}
        For each transform: ``cosine`` and ``distance`` (test rows x training rows) and
        ``coordinates`` (the transformed training and test rows stacked; ``None`` for Eq. 7,
        which embeds a test row once per class).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(60, 3)) + 3.0, np.repeat([0, 1], 30)
    >>> geo = order_geometry(X[::2], y[::2], X[1::2], y[1::2])
    >>> list(geo) == list(TRANSFORMS), geo["raw_cosine"]["cosine"].shape
    (True, (30, 30))
    """
    check_option(symmetric_method, SYMMETRIC_METHODS, "symmetric_method")
    X_train, X_test = np.asarray(X_train, dtype=float), np.asarray(X_test, dtype=float)
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    if order is not None:
        order = np.asarray(order)
        if sorted(order.tolist()) != list(range(X_train.shape[1])):
            raise ValueError(f"order must be a permutation of the {X_train.shape[1]} columns; got {order.tolist()}.")
        X_train, X_test = X_train[:, order], X_test[:, order]
    chol = class_whitening_matrices(X_train, y_train, "cholesky", covariance)
    sym = class_whitening_matrices(X_train, y_train, symmetric_method, covariance)
    priors = class_priors(y_train)
    E_chol = sum(priors[c] * W for c, W in chol.items())                     # Eq. 9, Cholesky factors
    E_sym = sum(priors[c] * W for c, W in sym.items())                       # Eq. 9, symmetric factors
    W = whitening_matrix(estimate_covariance(X_train, covariance), "cholesky", "training covariance")
    mean = X_train.mean(axis=0)
    embedded = {
        "raw_cosine": (X_train, X_test),
        "pooled_cholesky": (X_train @ W.T, X_test @ W.T),
        "pooled_cholesky_centred": ((X_train - mean) @ W.T, (X_test - mean) @ W.T),
        "expected_cholesky": (X_train @ E_chol.T, X_test @ E_chol.T),
        "expected_symmetric": (X_train @ E_sym.T, X_test @ E_sym.T),
        "case2_own_factor": (transform_by_class(X_train, y_train, chol), transform_by_class(X_test, y_test, chol)),
    }
    out = {name: {"cosine": cosine_similarity(te, tr), "distance": euclidean_distances(te, tr),
                  "coordinates": np.vstack([tr, te])} for name, (tr, te) in embedded.items()}
    cos7, dist7 = np.empty((len(X_test), len(X_train))), np.empty((len(X_test), len(X_train)))
    for c, Wc in chol.items():                     # Eq. 7: the training row's class factor for both rows of a pair
        cols = y_train == c
        cos7[:, cols] = cosine_similarity(X_test @ Wc.T, X_train[cols] @ Wc.T)
        dist7[:, cols] = euclidean_distances(X_test @ Wc.T, X_train[cols] @ Wc.T)
    out["eq7_class_factor"] = {"cosine": cos7, "distance": dist7, "coordinates": None}
    return {name: out[name] for name in TRANSFORMS}


def knn_from_similarity(similarity, y_train, k: int = 13) -> np.ndarray:
    """The kNN vote from a similarity matrix: each row takes the majority label of its ``k`` most similar columns.

    With the cosine similarity this is scikit-learn's ``KNeighborsClassifier(k, metric="cosine")``
    (uniform weights; a tied vote goes to the smallest label, as there), up to the order of
    exactly tied similarities.

    Examples
    --------
    >>> S = np.array([[0.9, 0.8, 0.1], [0.1, 0.2, 0.95]])
    >>> knn_from_similarity(S, [0, 0, 1], k=1).tolist(), knn_from_similarity(S, [0, 0, 1], k=3).tolist()
    ([0, 1], [0, 0])
    """
    S = np.asarray(similarity, dtype=float)
    y_train = np.asarray(y_train)
    if S.ndim != 2 or S.shape[1] != y_train.shape[0]:
        raise ValueError(f"similarity must have one column per training label; got shape {S.shape} for "
                         f"{y_train.shape[0]} labels.")
    k = check_int(k, "k", 1, "k=13", maximum=S.shape[1], why="the training rows")
    labels, codes = np.unique(y_train, return_inverse=True)
    nearest = np.argsort(-S, axis=1, kind="stable")[:, :k]
    votes = np.zeros((S.shape[0], len(labels)), dtype=int)
    np.add.at(votes, (np.repeat(np.arange(S.shape[0]), k), codes[nearest].ravel()), 1)
    return labels[votes.argmax(axis=1)]


class ColumnOrderStudy(NamedTuple):
    """The transforms over column orders: the changes they show, and the kNN answers per order."""

    orders: np.ndarray          #: (n_orders, n_features): the random orders (the data set's own order is extra)
    spread: pd.DataFrame        #: one row per transform: largest changes against the data set's order, accuracy range
    accuracy: pd.DataFrame      #: kNN test accuracy per order ("data set's order" first) and transform
    predictions: dict           #: {transform: ndarray (1 + n_orders, n_test)}, the data set's order first


def _largest_change(new, ref, *, relative=False):
    diff = np.abs(new - ref)
    if relative:
        return float(diff.max() / np.abs(ref).max())
    return float(diff.max())


def column_order_study(X_train, y_train, X_test, y_test, k: int = 13, n_orders: int = 50,
                       protocol: SplitProtocol | None = None,
                       symmetric_method: str = "zca_cor") -> ColumnOrderStudy:
    """Each transform of :data:`TRANSFORMS` with the columns in ``n_orders`` random orders, against the given order.

    For every order the matrices are estimated afresh on the training rows (the case-3
    protocol), and compared with the data set's own column order on the same pairs (each
    test row against each training row): the largest change of the cosine, of the Euclidean
    distance (relative to the largest distance) and of the transformed coordinates matched by
    feature (relative to the largest coordinate; a transform that merely follows the order,
    :math:`W' = P W P^\\top`, changes them by rounding only), and the cosine kNN's test
    predictions (:func:`knn_from_similarity`, ``k`` neighbours). Of ``protocol``
    (:class:`SplitProtocol`, by default its defaults) the study uses the seed of the orders (``random_state``) and the
    ``covariance``; its factors are Cholesky and ``symmetric_method``'s, whatever ``method``.

    Returns
    -------
    ColumnOrderStudy
        ``spread`` has the columns ``max |change| cosine``, ``max |change| distance (relative)``,
        ``max |change| coordinates (relative)``, ``accuracy, data set's order``, ``accuracy, lowest``,
        ``accuracy, highest`` and ``test rows whose prediction changes``.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X, y = rng.normal(size=(80, 4)) @ rng.normal(size=(4, 4)) + 5.0, np.repeat([0, 1], 40)
    >>> X[y == 1] = X[y == 1] @ rng.normal(size=(4, 4))
    >>> st = column_order_study(X[::2], y[::2], X[1::2], y[1::2], k=3, n_orders=5)
    >>> change = st.spread["max |change| cosine"]
    >>> bool(change["expected_symmetric"] < 1e-10), bool(change["expected_cholesky"] > 1e-3)
    (True, True)
    """
    X_train = np.asarray(X_train, dtype=float)
    X_test = np.asarray(X_test, dtype=float)
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    protocol = protocol or SplitProtocol()
    covariance = protocol.covariance
    orders = random_column_orders(X_train.shape[1], n_orders, protocol.random_state)
    reference = order_geometry(X_train, y_train, X_test, y_test, None, symmetric_method, covariance)
    changes = {name: {"cos": 0.0, "dist": 0.0, "coord": 0.0} for name in TRANSFORMS}
    preds = {name: [knn_from_similarity(reference[name]["cosine"], y_train, k)] for name in TRANSFORMS}
    for order in orders:
        geo = order_geometry(X_train, y_train, X_test, y_test, order, symmetric_method, covariance)
        for name in TRANSFORMS:
            ch, new, ref = changes[name], geo[name], reference[name]
            ch["cos"] = max(ch["cos"], _largest_change(new["cosine"], ref["cosine"]))
            ch["dist"] = max(ch["dist"], _largest_change(new["distance"], ref["distance"], relative=True))
            if ref["coordinates"] is not None:          # matched by feature: column j of the new is column order[j]
                ch["coord"] = max(ch["coord"], _largest_change(new["coordinates"], ref["coordinates"][:, order],
                                                               relative=True))
            else:
                ch["coord"] = np.nan
            preds[name].append(knn_from_similarity(new["cosine"], y_train, k))
    preds = {name: np.array(p) for name, p in preds.items()}
    accuracy = pd.DataFrame({name: (p == y_test).mean(axis=1) for name, p in preds.items()},
                            index=["data set's order"] + [f"order {i + 1}" for i in range(len(orders))])
    spread = pd.DataFrame({
        name: {"max |change| cosine": changes[name]["cos"],
               "max |change| distance (relative)": changes[name]["dist"],
               "max |change| coordinates (relative)": changes[name]["coord"],
               "accuracy, data set's order": accuracy[name].iloc[0],
               "accuracy, lowest": accuracy[name].min(), "accuracy, highest": accuracy[name].max(),
               "test rows whose prediction changes": int((preds[name] != preds[name][0]).any(axis=0).sum())}
        for name in TRANSFORMS}).T
    spread["test rows whose prediction changes"] = spread["test rows whose prediction changes"].astype(int)
    return ColumnOrderStudy(orders, spread, accuracy, preds)


def format_spread(spread: pd.DataFrame, bound: float = ROUNDING_BOUND) -> pd.DataFrame:
    """The study's ``spread`` table for display: changes below ``bound`` as ``< 1e-10``, others to 3 digits.

    Rounding-level changes differ from machine to machine in their digits, not in being below the bound.

    Examples
    --------
    >>> t = pd.DataFrame({"max |change| cosine": [1.8e-13, 0.17873], "accuracy, lowest": [0.9386, 0.92105]},
    ...                  index=["a", "b"])
    >>> format_spread(t).to_dict("list")
    {'max |change| cosine': ['< 1e-10', '0.179'], 'accuracy, lowest': ['0.939', '0.921']}
    """
    bound = check_real(bound, "bound", "1e-10", 0, closed="neither")

    def cell(column, value):
        if isinstance(value, (int, np.integer)) or column.startswith("test rows"):
            return f"{int(value)}"
        if not np.isfinite(value):
            return "-"
        return rounding_level(value, bound, fmt=".3g") if column.startswith("max |change|") else f"{value:.3f}"

    return pd.DataFrame({col: [cell(col, v) for v in spread[col]] for col in spread.columns}, index=spread.index)


def order_averaged_difference(y_true, predictions, reference, confidence: float = 0.95, n_resamples: int = 9999,
                              random_state: int = 0) -> dict:
    """Accuracy of a method averaged over column orders, minus a reference's, on one test set.

    Each test row counts the share of orders whose prediction is right, minus 1 or 0 for the
    reference; the effect is the mean of these differences over the rows (the accuracy
    averaged over orders, minus the reference's accuracy), with a BCa bootstrap interval from
    resampling the rows (:func:`scipy.stats.bootstrap`), as
    :func:`helpers.effects.paired_bootstrap` does for one prediction per row.

    Parameters
    ----------
    y_true : array of shape (n_test,)
    predictions : array of shape (n_orders, n_test)
        The method's predictions under each order.
    reference : array of shape (n_test,)
        The reference's predictions (e.g. raw cosine, which no order changes).

    Returns
    -------
    dict with ``effect``, ``interval`` (low, high), ``n`` (test rows), ``n_orders``, the numbers of
    orders whose accuracy is above, equal to and below the reference's (``orders_ahead``,
    ``orders_level``, ``orders_behind``) and ``method``.

    Examples
    --------
    Two orders, four rows: the method is right on 3 and on 2 rows, the reference on 2.

    >>> y = np.array([0, 0, 1, 1])
    >>> r = order_averaged_difference(y, [[0, 0, 1, 0], [0, 1, 1, 0]], [0, 1, 0, 1], n_resamples=999)
    >>> print(f"{r['effect']:+.3f}", r["n"], r["n_orders"], r["orders_ahead"], r["orders_level"])
    +0.125 4 2 1 1
    """
    y_true = np.asarray(y_true)
    predictions = np.atleast_2d(np.asarray(predictions))
    reference = np.asarray(reference)
    if y_true.ndim != 1 or len(y_true) < 2 or predictions.shape[1] != len(y_true) or reference.shape != y_true.shape:
        raise ValueError(f"y_true (n_test,), predictions (n_orders, n_test) and reference (n_test,) must describe "
                         f"the same test rows, at least two; got shapes {y_true.shape}, {predictions.shape} and "
                         f"{reference.shape}.")
    confidence = check_real(confidence, "confidence", "0.95", 0, 1, closed="neither")
    n_resamples = check_int(n_resamples, "n_resamples", 99, "n_resamples=9999")
    d = (predictions == y_true).mean(axis=0) - (reference == y_true)
    effect = float(d.mean())
    per_order = (predictions == y_true).mean(axis=1) - np.mean(reference == y_true)
    counts = {"orders_ahead": int((per_order > 1e-12).sum()), "orders_level": int((np.abs(per_order) <= 1e-12).sum()),
              "orders_behind": int((per_order < -1e-12).sum())}
    if np.ptp(d) == 0:                               # every row alike: the bootstrap has nothing to resample
        low = high = effect
    else:
        res = stats.bootstrap((d,), np.mean, confidence_level=confidence, n_resamples=n_resamples, method="BCa",
                              rng=np.random.default_rng(random_state))
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if not (np.isfinite(low) and np.isfinite(high)):
            low = high = effect
    return {"effect": effect, "interval": (low, high), "n": int(len(d)), "n_orders": int(predictions.shape[0]),
            **counts,
            "method": f"accuracy averaged over {predictions.shape[0]} column orders minus the reference's, on "
                      f"{len(d)} test rows, BCa bootstrap {confidence:.0%} interval ({n_resamples} resamples)"}


def plot_column_orders(study: ColumnOrderStudy, title: str, floor: float = 1e-16):
    """The finding in two panels: the largest cosine change per transform, and the kNN accuracy per order.

    Left: for each transform the largest change of any test-training cosine against the
    data set's order (log scale; changes below ``floor`` are drawn at it). Right: the test
    accuracy of cosine kNN under each of the orders, one dot per order.

    Returns the matplotlib Figure (the caller adds ``plt.show()``).
    """
    import matplotlib.pyplot as plt

    floor = check_real(floor, "floor", "1e-16", 0, closed="neither")
    names = list(TRANSFORMS)
    labels = [TRANSFORMS[n] for n in names]
    rows = np.arange(len(names))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True, gridspec_kw={"width_ratios": [1, 1.2]})
    left.barh(rows, np.maximum(study.spread.loc[names, "max |change| cosine"].astype(float), floor), color="tab:blue")
    left.set_xscale("log")
    left.axvline(ROUNDING_BOUND, color="grey", ls=":", lw=1, label=f"rounding ({ROUNDING_BOUND:.0e})")
    left.legend(loc="upper right", fontsize=8)
    left.set(xlabel=f"largest change of a cosine over {len(study.orders)} column orders", yticks=rows)
    left.set_yticklabels(labels, fontsize=8)
    jitter = np.random.default_rng(0).uniform(-0.18, 0.18, len(study.accuracy))
    for i, name in enumerate(names):
        acc = study.accuracy[name].to_numpy()
        right.plot(acc[1:], i + jitter[1:], "o", ms=3, alpha=0.5, color="tab:orange",
                   label="a random column order" if i == 0 else None)
        right.plot(acc[0], i, "k|", ms=12, mew=2, label="the data set's order" if i == 0 else None)
    right.set(xlabel="test accuracy of cosine kNN")
    right.legend(loc="lower left", fontsize=8)
    left.invert_yaxis()
    fig.suptitle(title)
    fig.tight_layout()
    return fig
