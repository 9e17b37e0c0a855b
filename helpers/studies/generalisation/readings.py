"""The study's methods: every reading of each claim, all tuned by one inner cross-validation.

Each method is fitted on a training fold only and scored on its test fold
(:func:`fit_predict`). The kNN methods share one engine: for every inner fold and every
shrinkage, one neighbour search at the largest ``k`` gives the votes of every ``k``
(:func:`helpers.neighbours.majority_votes`), so tuning ``k`` costs nothing beyond the
largest. The SVCs are tuned the same way over their grids, the transform computed once per
inner fold and grid point it depends on: every grid point on every inner fold (the second
edition, ``svc_search = "grid"``), or by successive halving (the third, ``"halving"``;
:func:`halving_schedule`), which scores every point on stratified subsamples of the inner
training rows and only the best third on three times as many, until the last round uses them
all; a subsample too small to factorise a covariance leaves that grid point out early. Every
covariance-aware method tunes the shrinkage ``a`` of its covariances, ``(1 - a) S + a (tr S / p) I``,
over a grid that ends at ``a = 1``, where the covariance is switched off:

* ``euclidean`` (raw features; the Mahal-kNN paper's baseline), ``standardised_euclidean``,
  ``cosine`` (raw; the cosine paper's baseline), ``scaled_cosine``: kNN without a covariance;
* ``mahalanobis_class_blind`` (the covariance of all training rows),
  ``mahalanobis_pooled_within`` (the pooled within-class covariance: RCA with the classes as
  chunklets) and ``mahalanobis_per_category`` (each training row measured under its own
  class's covariance: the Mahal-kNN paper's algorithm): Euclidean kNN on standardised rows
  after whitening; at shrinkage 1 the first two are ``standardised_euclidean`` and the third
  is Euclidean with one scale per class;
* ``expected_cholesky_cosine`` (E(W^-1) from Cholesky factors, averaged over fixed column
  orders), ``expected_zca_cosine`` (symmetric factors, order-free) and
  ``pooled_within_cosine``: cosine kNN on scaled rows after whitening; ``scaled_cosine`` at
  shrinkage 1;
* ``nca``: Euclidean kNN after scikit-learn's neighbourhood components analysis;
* ``linear_svc`` (liblinear's primal solver on two classes, libsvm one-vs-one on more) and
  ``rbf_svc`` (``C`` and ``gamma``) on standardised rows, and
  ``expected_cholesky_svc`` (column orders averaged) and ``expected_zca_svc``: the linear SVC
  on scaled rows after E(C^-1).

"Standardised": centred and divided by the training fold's standard deviations; "scaled":
divided only (the sources whiten uncentred rows). Ties in the inner accuracy go to the
earliest grid point in this order: the largest shrinkage (least covariance), the smallest
``C``, the smallest ``gamma``, the smallest ``k``. A grid point whose covariance cannot be
factorised on some inner fold (no shrinkage with fewer rows than features) is left out.
"""

from __future__ import annotations

import json
import time
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import balanced_accuracy_score
from sklearn.neighbors import NeighborhoodComponentsAnalysis

from ..._arrays import sq_euclidean, unit_rows
from ...neighbours import majority_votes, nearest_indices
from ...shrinkage import ShrinkagePath, class_paths, expected_zca_path, per_category_distances
from ...whitening import estimate_covariance, unchecked_whitening_matrix
from .svcs import svc_predict, tune_svc
from .tuning import EARLIER_GRIDS, PREP, Grids, best_point, edges_of, grid_point, inner_folds, scaled_rows, whiten_rows

#: the fifteen methods of editions 2 to 5, in display order, with their labels (keys: the methods)
METHOD_LABELS = {
    "euclidean": "kNN, Euclidean (raw)",
    "standardised_euclidean": "kNN, Euclidean (standardised)",
    "cosine": "kNN, cosine (raw)",
    "scaled_cosine": "kNN, cosine (scaled)",
    "mahalanobis_class_blind": "Mahal-kNN, class-blind (total covariance)",
    "mahalanobis_pooled_within": "Mahal-kNN, pooled within-class (RCA)",
    "mahalanobis_per_category": "Mahal-kNN, per category (the paper's algorithm)",
    "expected_cholesky_cosine": "cosine kNN after E(W^-1), Cholesky",
    "expected_zca_cosine": "cosine kNN after E(W^-1), ZCA",
    "pooled_within_cosine": "cosine kNN after pooled within-class whitening",
    "nca": "NCA + kNN",
    "linear_svc": "SVC, linear",
    "rbf_svc": "SVC, RBF",
    "expected_cholesky_svc": "SVC after E(C^-1), Cholesky",
    "expected_zca_svc": "SVC after E(C^-1), ZCA",
}

#: methods averaged over the fixed column orders (Cholesky factors depend on the order of the columns)
ORDER_DEPENDENT = ("expected_cholesky_cosine", "expected_cholesky_svc")


# --------------------------------------------------------------------------------------------
# the kNN methods


@dataclass(frozen=True)
class _Neighbours:
    prep: str          # "raw", "standardised", "scaled"
    metric: str        # "euclidean", "cosine"
    whitening: str | None = None   # None, "total", "within", "per_category", "expected_cholesky", "expected_zca"


_NEIGHBOURS = {
    "euclidean": _Neighbours("raw", "euclidean"),
    "standardised_euclidean": _Neighbours("standardised", "euclidean"),
    "cosine": _Neighbours("raw", "cosine"),
    "scaled_cosine": _Neighbours("scaled", "cosine"),
    "mahalanobis_class_blind": _Neighbours("standardised", "euclidean", "total"),
    "mahalanobis_pooled_within": _Neighbours("standardised", "euclidean", "within"),
    "mahalanobis_per_category": _Neighbours("standardised", "euclidean", "per_category"),
    "expected_cholesky_cosine": _Neighbours("scaled", "cosine", "expected_cholesky"),
    "expected_zca_cosine": _Neighbours("scaled", "cosine", "expected_zca"),
    "pooled_within_cosine": _Neighbours("scaled", "cosine", "within"),
}


def _distances(metric, A, B):
    if metric == "cosine":
        return -(unit_rows(A, "a test row") @ unit_rows(B, "a training row").T)
    return sq_euclidean(A, B)


def _per_category_distances(X_tr, y_tr, X_te, shrinkage):
    """Squared Mahalanobis distance of each test row to each training row under that row's class covariance."""
    D = np.empty((len(X_te), len(X_tr)))
    for c in np.unique(y_tr):
        members = np.flatnonzero(y_tr == c)
        W = unchecked_whitening_matrix(estimate_covariance(X_tr[members], shrinkage), "cholesky")
        D[:, members] = sq_euclidean(X_te @ W.T, X_tr[members] @ W.T)
    return D


def _eigen_distances(spec, X_tr, y_tr, X_te, grids):
    """Edition 4: ``a -> D`` for a covariance-aware kNN, one eigendecomposition for every shrinkage.

    At ``a = 1`` the covariance is a multiple of the identity (per category: the same for every
    class), so the rows are left as they are: the reading is then exactly its plain counterpart.
    """
    plain = _distances(spec.metric, X_te, X_tr)
    if spec.whitening == "per_category":
        paths, members = class_paths(X_tr, y_tr, pooled_target=grids.per_category_target == "pooled")
        per_class = per_category_distances(paths, members, X_tr, X_te)
        pooled = grids.per_category_target == "pooled"
        return lambda a: plain if a == 1.0 and pooled else per_class(a)
    if spec.whitening in ("total", "within"):
        rows = X_tr
        if spec.whitening == "within":
            classes, codes = np.unique(y_tr, return_inverse=True)
            means = np.vstack([X_tr[codes == i].mean(axis=0) for i in range(len(classes))])
            rows = X_tr - means[codes]
        path = ShrinkagePath(np.atleast_2d(np.cov(rows, rowvar=False, ddof=1)))
        tr, te = X_tr @ path.vectors, X_te @ path.vectors

        def whitened(a):
            if a == 1.0:
                return plain
            w_tr, w_te = path.whitened(tr, a), path.whitened(te, a)
            return None if w_tr is None else _distances(spec.metric, w_te, w_tr)

        return whitened
    if spec.whitening == "expected_zca":
        factor = expected_zca_path(X_tr, y_tr)

        def expected(a):
            if a == 1.0:
                return plain
            E = factor(a)
            return None if E is None else _distances(spec.metric, X_te @ E, X_tr @ E)

        return expected

    def by_factor(a):  # expected_cholesky: a Cholesky factor per class and shrinkage
        if a == 1.0:
            return plain
        try:
            w_tr, w_te = whiten_rows(spec.whitening, X_tr, y_tr, X_te, a)
        except (linalg.LinAlgError, ValueError):
            return None
        return _distances(spec.metric, w_te, w_tr)

    return by_factor


def neighbour_distances(method: str, X_tr, y_tr, X_te, grids: Grids | None = None):
    """A function ``shrinkage -> distances`` (test rows by training rows) of ``method``; ``None`` where it fails.

    Every scaling and covariance is estimated on ``X_tr`` only; the work that does not depend
    on the shrinkage (scaling, and in the fourth edition the eigendecompositions) is done once.
    """
    spec = _NEIGHBOURS[method]
    grids = grids or EARLIER_GRIDS
    if spec.prep != "raw":
        X_tr, X_te = scaled_rows(X_tr, X_te, centre=PREP[spec.prep])
    if spec.whitening is None:
        D = _distances(spec.metric, X_te, X_tr)
        return lambda a: D
    if grids.factorisation == "eigen":
        return _eigen_distances(spec, X_tr, y_tr, X_te, grids)

    def by_shrinkage(a):
        try:
            if spec.whitening == "per_category":
                return _per_category_distances(X_tr, y_tr, X_te, a)
            w_tr, w_te = whiten_rows(spec.whitening, X_tr, y_tr, X_te, a)
            return _distances(spec.metric, w_te, w_tr)
        except (linalg.LinAlgError, ValueError):
            return None

    return by_shrinkage


def neighbour_order(method: str, X_tr, y_tr, X_te, k: int, shrinkage=None, grids: Grids | None = None):
    """The ``k`` nearest training rows of each test row under ``method``, nearest first.

    Parameters
    ----------
    method : str
        A kNN method of :data:`METHOD_LABELS` other than ``nca``.
    X_tr, y_tr, X_te : arrays
        Raw features and labels of the training rows, raw features of the test rows; every
        scaling and covariance is estimated on ``X_tr`` only.
    k : int
    shrinkage : float in [0, 1], optional
        The covariance shrinkage of a covariance-aware method.
    grids : Grids, optional
        The edition's choices (:func:`grids_from_protocol`); default the third edition's.

    Returns
    -------
    ndarray of int, shape (n_test, k)

    Raises
    ------
    ValueError
        The covariance at ``shrinkage`` cannot be factorised.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.1], [0.0, 1.0], [3.0, 3.1], [2.9, 3.0], [3.2, 2.8]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> neighbour_order("euclidean", X, y, np.array([[2.5, 2.5]]), 2).tolist()
    [[4, 5]]
    """
    D = neighbour_distances(method, X_tr, y_tr, X_te, grids)(shrinkage)
    if D is None:
        raise ValueError(f"{method}: the covariance at shrinkage {shrinkage} cannot be factorised")
    return nearest_indices(D, k)


def _tune_neighbours(method, X, y, grids: Grids):
    """Choose (shrinkage, k) by inner CV: one neighbour search per inner fold and shrinkage serves every k."""
    classes, codes = np.unique(y, return_inverse=True)
    folds = inner_folds(y, grids)
    ks = [k for k in grids.k if k <= min(len(tr) for tr, _ in folds)]
    shrinkages = grids.shrinkage if _NEIGHBOURS[method].whitening else (None,)
    acc = {(a, k): 0.0 for a in shrinkages for k in ks}
    for tr, te in folds:
        distances = neighbour_distances(method, X[tr], y[tr], X[te], grids)
        for a in shrinkages:
            D = distances(a)
            if D is None:
                for k in ks:
                    acc[(a, k)] = -np.inf
                continue
            votes = majority_votes(nearest_indices(D, max(ks)), codes[tr], ks, len(classes))
            for k in ks:
                acc[(a, k)] += np.mean(votes[k] == codes[te]) / len(folds)
    a, k = best_point(acc)
    chosen = {"k": k} if a is None else {"shrinkage": a, "k": k}
    grid = {"k": ks, "shrinkage": sorted({s for (s, _), v in acc.items() if np.isfinite(v) and s is not None})}
    return chosen, edges_of(chosen, grid, grids, {grid_point(("shrinkage", "k"), p): v for p, v in acc.items()})


def _knn_predict(method, X_tr, y_tr, X_te, chosen, grids: Grids):
    classes, codes = np.unique(y_tr, return_inverse=True)
    idx = neighbour_order(method, X_tr, y_tr, X_te, chosen["k"], chosen.get("shrinkage"), grids)
    return classes[majority_votes(idx, codes, [chosen["k"]], len(classes))[chosen["k"]]]


def _nca_rows(X_tr, y_tr, X_te, grids: Grids):
    """NCA fitted on the standardised training rows: both sets of rows in its space, and its iterations."""
    X_tr, X_te = scaled_rows(X_tr, X_te, centre=True)
    nca = NeighborhoodComponentsAnalysis(max_iter=grids.nca_max_iter, tol=grids.nca_tol,
                                         random_state=grids.random_state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        nca.fit(X_tr, y_tr)
    return nca.transform(X_tr), nca.transform(X_te), int(nca.n_iter_)


def _nca(X_tr, y_tr, X_te, grids: Grids):
    """NCA + kNN with k tuned by inner CV.

    Fourth edition (``nca_nested``): NCA is fitted inside every inner fold, on its training rows
    only, so the inner accuracy of each k is that of the whole method on rows NCA has not seen.
    Earlier editions fitted NCA once on the outer training rows and tuned k on its output, where
    every inner test row had shaped the transform (k = 1 won 79% of the third edition's tunings).
    """
    Z_tr, Z_te, iterations = _nca_rows(X_tr, y_tr, X_te, grids)
    if not grids.nca_nested:
        chosen, edges = _tune_neighbours("euclidean", Z_tr, y_tr, grids)
    else:
        classes, codes = np.unique(y_tr, return_inverse=True)
        folds = inner_folds(y_tr, grids)
        ks = [k for k in grids.k if k <= min(len(tr) for tr, _ in folds)]
        acc = dict.fromkeys(ks, 0.0)
        for tr, te in folds:
            inner_tr, inner_te, _ = _nca_rows(X_tr[tr], y_tr[tr], X_tr[te], grids)
            votes = majority_votes(nearest_indices(sq_euclidean(inner_te, inner_tr), max(ks)), codes[tr], ks,
                                   len(classes))
            for k in ks:
                acc[k] += np.mean(votes[k] == codes[te]) / len(folds)
        chosen = {"k": best_point(acc)}
        edges = edges_of(chosen, {"k": ks}, grids, {(("k", k),): v for k, v in acc.items()})
    chosen["nca_iterations"] = iterations
    chosen["nca_converged"] = bool(iterations < grids.nca_max_iter)
    return _knn_predict("euclidean", Z_tr, y_tr, Z_te, chosen, grids), chosen, edges


# --------------------------------------------------------------------------------------------
# one method on one fold


def column_orders(n_features: int, n_orders: int, random_state: int = 0) -> list:
    """The fixed column orders of the order-dependent methods: the data's own order, then random ones.

    Examples
    --------
    >>> [o.tolist() for o in column_orders(3, 3)]
    [[0, 1, 2], [2, 0, 1], [2, 1, 0]]
    """
    rng = np.random.default_rng(random_state)
    return [np.arange(n_features)] + [rng.permutation(n_features) for _ in range(n_orders - 1)]


def fit_predict(method: str, X_tr, y_tr, X_te, grids: Grids, orders=None):
    """Tune ``method`` on the training rows by inner CV, fit it on all of them and predict the test rows.

    Parameters
    ----------
    method : str
        One of :data:`METHOD_LABELS`.
    X_tr, y_tr, X_te : arrays
        Raw features and labels of one outer training fold, raw features of its test fold.
    grids : Grids
    orders : list of index arrays, optional
        For :data:`ORDER_DEPENDENT` methods: tuned on the first (the data's own order), then
        fitted and scored on every order with the chosen hyper-parameters.

    Returns
    -------
    predictions : list of ndarray
        One per column order (one for order-free methods).
    chosen : dict
        The chosen hyper-parameters (NCA: also its iterations and whether it converged).
    edges : list of str
        The chosen hyper-parameters that sit on an edge of their grid.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> grids = Grids(k=(1, 5, 9), shrinkage=(1.0, 0.3, 0.0), C=(1.0,), gamma=(0.1,), inner_folds=3)
    >>> preds, chosen, edges = fit_predict("mahalanobis_pooled_within", X[::2], y[::2], X[1::2], grids)
    >>> chosen, edges, round(float(np.mean(preds[0] == y[1::2])), 3)
    ({'shrinkage': 0.3, 'k': 5}, [], 0.973)
    """
    if method not in METHOD_LABELS:
        raise ValueError(f"unknown method {method!r}; the methods are {', '.join(METHOD_LABELS)}.")
    if method == "nca":
        pred, chosen, edges = _nca(X_tr, y_tr, X_te, grids)
        return [pred], chosen, edges
    knn = method in _NEIGHBOURS
    tune = _tune_neighbours if knn else tune_svc
    if method in ORDER_DEPENDENT and orders is not None:
        views = [(X_tr[:, o], X_te[:, o]) for o in orders]
    else:
        views = [(X_tr, X_te)]
    chosen, edges = tune(method, views[0][0], y_tr, grids)
    if knn:
        preds = [_knn_predict(method, a, y_tr, b, chosen, grids) for a, b in views]
    else:
        preds = [svc_predict(method, a, y_tr, b, chosen, grids) for a, b in views]
    return preds, chosen, edges


def score_fold(X, y, train, test, methods, grids: Grids, orders=None) -> list:
    """Every method on one outer fold: one record per method.

    Scores, chosen hyper-parameters and the seconds of tuning, fitting and predicting.
    """
    records = []
    for method in methods:
        start = time.perf_counter()
        preds, chosen, edges = fit_predict(method, X[train], y[train], X[test], grids, orders)
        seconds = time.perf_counter() - start
        accs = [float(np.mean(p == y[test])) for p in preds]
        bals = [float(balanced_accuracy_score(y[test], p)) for p in preds]
        several = len(preds) > 1
        records.append({
            "method": method, "accuracy": float(np.mean(accs)), "balanced_accuracy": float(np.mean(bals)),
            "n_train": len(train), "n_test": len(test),
            "params": json.dumps(chosen, sort_keys=True), "edges": json.dumps(edges),
            "order_min": min(accs) if several else np.nan, "order_max": max(accs) if several else np.nan,
            "fit_seconds": seconds,
        })
    return records



def metric_learn_references(X, y) -> dict:
    """Try metric-learn's LMNN and ITML on ``(X, y)``: ``{name: "fits"}`` or the error each raises.

    The protocol names them as references where metric-learn installs and works with the
    scikit-learn in use; where it does not, the study reports the error instead of a score.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> sorted(metric_learn_references(X, y))
    ['ITML', 'LMNN']
    """
    try:
        import metric_learn
    except ImportError as exc:
        return dict.fromkeys(("LMNN", "ITML"), f"ImportError: {exc}")
    out = {}
    for name, model in (("LMNN", metric_learn.LMNN(n_neighbors=3)), ("ITML", metric_learn.ITML_Supervised())):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(np.asarray(X, dtype=float), np.asarray(y))
            out[name] = "fits"
        except Exception as exc:  # noqa: BLE001 - any failure is what the study reports
            out[name] = f"{type(exc).__name__}: {exc}"
    return out
