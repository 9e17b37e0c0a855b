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
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.neighbors import NeighborhoodComponentsAnalysis
from sklearn.svm import SVC, LinearSVC

from ..._arrays import sq_euclidean, unit_rows
from ...estimators import ExpectedWhitener, Whitener
from ...neighbours import majority_votes, nearest_indices
from ...whitening import estimate_covariance
from .shrinkage import ShrinkagePath, class_paths, expected_zca_matrix, per_category_distances

#: the methods of the second and third editions, in display order, with their labels
METHODS_V2 = {
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


@dataclass(frozen=True)
class Grids:
    """The tuning grids of the protocol's ``[tuning]`` table (:func:`grids_from_protocol`)."""

    k: tuple
    shrinkage: tuple
    C: tuple         #: the RBF SVC's C grid
    gamma: tuple
    C_linear: tuple = (1.0,)  #: the linear-kernel SVCs' C grid
    inner_folds: int = 5
    svc_search: str = "grid"  #: "grid" (every point on every inner fold) or "halving" (:func:`halving_schedule`)
    halving_factor: int = 3   #: the share of candidates each halving round keeps is one in this many
    halving_min_rows_per_class: int = 10  #: the first halving round's rows per class, on average
    nca_max_iter: int = 1000
    nca_tol: float = 1e-5
    random_state: int = 0
    # the fourth edition's choices; the defaults are the second and third editions'
    nca_nested: bool = False          #: NCA fitted inside every inner fold (else once on the outer training rows)
    linear_solver: str = "mixed"      #: "liblinear" (one-vs-one on more than two classes) or "mixed" (libsvm there)
    svc_rows: str = "scaled"          #: the rows the whitened SVCs whiten: "scaled" or "standardised"
    per_category_target: str = "own"  #: per-category shrinkage towards each class's own variance or the "pooled" one
    factorisation: str = "cholesky"   #: "eigen": one eigendecomposition per fit serves every shrinkage
    edge_rule: str = "chosen"         #: "open-decided": only an open end, and only where no inner point ties with it
    libsvm_min_features: int = 30     #: with linear_solver "by-shape": libsvm on multi-class sets this wide


_V3 = Grids(k=(1,), shrinkage=(1.0,), C=(1.0,), gamma=(1.0,))


def _log2_grid(spec) -> tuple:
    start, stop, step = (int(v) for v in spec)
    return tuple(float(2.0 ** e) for e in range(start, stop + 1, step))


def grids_from_protocol(protocol: dict) -> Grids:
    """The grids of a protocol (:func:`load_protocol`): k, shrinkage (largest first), C = 2^a..2^b, gamma likewise.

    Examples
    --------
    >>> from helpers.studies.generalisation import load_protocol
    >>> g = grids_from_protocol(load_protocol())
    >>> g.k[:3], g.shrinkage[0], g.C[0], g.C[-1], g.C_linear[-1], len(g.gamma), g.inner_folds
    ((1, 3, 5), 1.0, 0.001953125, 131072.0, 131072.0, 6, 5)
    """
    t, p = protocol["tuning"], protocol["protocol"]
    halving = t.get("svc_halving", {})
    return Grids(k=tuple(int(k) for k in t["k"]), shrinkage=tuple(sorted((float(a) for a in t["shrinkage"]),
                                                                         reverse=True)),
                 C=_log2_grid(t["C_log2"]), gamma=_log2_grid(t["gamma_log2"]), C_linear=_log2_grid(t["C_linear_log2"]),
                 inner_folds=int(p["inner_folds"]), svc_search=str(t.get("svc_search", "grid")),
                 halving_factor=int(halving.get("factor", 3)),
                 halving_min_rows_per_class=int(halving.get("min_rows_per_class", 10)),
                 random_state=int(p["random_state"]),
                 **{field: type(getattr(_V3, field))(t[field]) for field in _EDITION_4 if field in t})


#: the fields of ``[tuning]`` that edition 4 added; an older protocol leaves them at the default
_EDITION_4 = ("nca_nested", "linear_solver", "svc_rows", "per_category_target", "factorisation", "edge_rule",
              "libsvm_min_features")


# --------------------------------------------------------------------------------------------
# features and whitening, fitted on training rows


def _scaled(X_tr, X_te, centre: bool):
    """Divide by the training standard deviations (a constant column keeps scale 1), centring first if asked."""
    mean = X_tr.mean(axis=0) if centre else 0.0
    sd = X_tr.std(axis=0)
    sd[sd == 0] = 1.0
    return (X_tr - mean) / sd, (X_te - mean) / sd


_PREP = {"raw": None, "standardised": True, "scaled": False}


def _cholesky_whitener(S):
    """``W`` with ``W S W' = I`` (lower-triangular inverse Cholesky factor); LinAlgError if S is singular."""
    L = linalg.cholesky(S, lower=True)
    return linalg.solve_triangular(L, np.eye(len(S)), lower=True)


def _whiten(kind, X_tr, y_tr, X_te, shrinkage):
    """The training and test rows after the whitening ``kind`` with covariance shrinkage ``shrinkage``."""
    if kind == "total":
        W = _cholesky_whitener(estimate_covariance(X_tr, shrinkage))
        return X_tr @ W.T, X_te @ W.T
    if kind == "within":
        model = Whitener(covariance=shrinkage, scatter="within").fit(X_tr, y_tr)
    else:  # "expected_cholesky", "expected_zca"
        model = ExpectedWhitener(method=kind.split("_")[1], covariance=shrinkage).fit(X_tr, y_tr)
    return model.transform(X_tr), model.transform(X_te)


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
        W = _cholesky_whitener(estimate_covariance(X_tr[members], shrinkage))
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
        paths, _ = class_paths(X_tr, y_tr, pooled_target=False)
        priors = np.unique(y_tr, return_counts=True)[1] / len(y_tr)

        def expected(a):
            E = None if a == 1.0 else expected_zca_matrix(paths, priors, a)
            return plain if a == 1.0 else None if E is None else _distances(spec.metric, X_te @ E, X_tr @ E)

        return expected

    def by_factor(a):  # expected_cholesky: a Cholesky factor per class and shrinkage
        if a == 1.0:
            return plain
        try:
            w_tr, w_te = _whiten(spec.whitening, X_tr, y_tr, X_te, a)
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
    grids = grids or _V3
    if spec.prep != "raw":
        X_tr, X_te = _scaled(X_tr, X_te, centre=_PREP[spec.prep])
    if spec.whitening is None:
        D = _distances(spec.metric, X_te, X_tr)
        return lambda a: D
    if grids.factorisation == "eigen":
        return _eigen_distances(spec, X_tr, y_tr, X_te, grids)

    def by_shrinkage(a):
        try:
            if spec.whitening == "per_category":
                return _per_category_distances(X_tr, y_tr, X_te, a)
            w_tr, w_te = _whiten(spec.whitening, X_tr, y_tr, X_te, a)
            return _distances(spec.metric, w_te, w_tr)
        except (linalg.LinAlgError, ValueError):
            return None

    return by_shrinkage


def neighbour_order(method: str, X_tr, y_tr, X_te, k: int, shrinkage=None, grids: Grids | None = None):
    """The ``k`` nearest training rows of each test row under ``method``, nearest first.

    Parameters
    ----------
    method : str
        A kNN method of :data:`METHODS_V2` other than ``nca``.
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


# --------------------------------------------------------------------------------------------
# tuning by inner cross-validation


def _inner_folds(y, grids: Grids):
    return list(StratifiedKFold(grids.inner_folds, shuffle=True, random_state=grids.random_state)
                .split(np.zeros((len(y), 1)), y))


def _best(scores: dict):
    """The grid point of the highest mean inner accuracy; ties to the earliest (grids are ordered for that)."""
    feasible = {point: s for point, s in scores.items() if np.isfinite(s)}
    if not feasible:
        raise ValueError("no grid point could be fitted on every inner fold")
    best = max(feasible.values())
    return next(point for point, s in feasible.items() if s == best)


def _point(names, values) -> tuple:
    """A grid point as ``((name, value), ...)``, the parameters it does not have left out."""
    return tuple((name, value) for name, value in zip(names, values) if value is not None)


#: the ends of a grid that are a parameter's own bounds, not a limit the grid sets (edge_rule "open-decided")
_CLOSED_ENDS = {"shrinkage": "both", "k": "low"}


def _edges(chosen: dict, grid: dict, grids: Grids, scores: dict | None = None) -> list:
    """The hyper-parameters whose chosen value is the first or last of their (feasible) grid.

    Under the fourth edition's rule (``edge_rule = "open-decided"``) only an open end counts
    (not ``k = 1`` nor a shrinkage of 0 or 1, which are the parameter's own bounds), and only
    where no grid point with that parameter off the end reaches the same inner accuracy: an end
    chosen by the tie rule among equal scores did not decide anything.
    """
    ends = [name for name, value in chosen.items() if len(grid[name]) > 1 and value in (grid[name][0],
                                                                                         grid[name][-1])]
    if grids.edge_rule != "open-decided":
        return sorted(ends)
    out = []
    for name in ends:
        value, low = chosen[name], chosen[name] == grid[name][0]
        closed = _CLOSED_ENDS.get(name)
        if closed == "both" or (closed == "low" and low):
            continue
        finite = [s for s in scores.values() if np.isfinite(s)]
        best = max(finite)
        if not any(s == best and point.get(name) != value for point, s in _items(scores)):
            out.append(name)
    return sorted(out)


def _items(scores: dict):
    return ((dict(point), s) for point, s in scores.items())


def _tune_neighbours(method, X, y, grids: Grids):
    """Choose (shrinkage, k) by inner CV: one neighbour search per inner fold and shrinkage serves every k."""
    classes, codes = np.unique(y, return_inverse=True)
    folds = _inner_folds(y, grids)
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
    a, k = _best(acc)
    chosen = {"k": k} if a is None else {"shrinkage": a, "k": k}
    grid = {"k": ks, "shrinkage": sorted({s for (s, _), v in acc.items() if np.isfinite(v) and s is not None})}
    return chosen, _edges(chosen, grid, grids, {_point(("shrinkage", "k"), p): v for p, v in acc.items()})


def _knn_predict(method, X_tr, y_tr, X_te, chosen, grids: Grids):
    classes, codes = np.unique(y_tr, return_inverse=True)
    idx = neighbour_order(method, X_tr, y_tr, X_te, chosen["k"], chosen.get("shrinkage"), grids)
    return classes[majority_votes(idx, codes, [chosen["k"]], len(classes))[chosen["k"]]]


def _nca_rows(X_tr, y_tr, X_te, grids: Grids):
    """NCA fitted on the standardised training rows: both sets of rows in its space, and its iterations."""
    X_tr, X_te = _scaled(X_tr, X_te, centre=True)
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
        folds = _inner_folds(y_tr, grids)
        ks = [k for k in grids.k if k <= min(len(tr) for tr, _ in folds)]
        acc = dict.fromkeys(ks, 0.0)
        for tr, te in folds:
            inner_tr, inner_te, _ = _nca_rows(X_tr[tr], y_tr[tr], X_tr[te], grids)
            votes = majority_votes(nearest_indices(sq_euclidean(inner_te, inner_tr), max(ks)), codes[tr], ks,
                                   len(classes))
            for k in ks:
                acc[k] += np.mean(votes[k] == codes[te]) / len(folds)
        chosen = {"k": _best(acc)}
        edges = _edges(chosen, {"k": ks}, grids, {(("k", k),): v for k, v in acc.items()})
    chosen["nca_iterations"] = iterations
    chosen["nca_converged"] = bool(iterations < grids.nca_max_iter)
    return _knn_predict("euclidean", Z_tr, y_tr, Z_te, chosen, grids), chosen, edges


def _svc(kernel, C, gamma, shape, grids: Grids):
    """The SVC of one grid point; ``shape`` is ``(classes, features)`` of the data set.

    A linear kernel, in the fourth edition (``linear_solver = "by-shape"``): liblinear
    (``LinearSVC(dual="auto")``, which picks the dual solver where there are more features than
    rows; one-vs-rest on more than two classes, scikit-learn's default) on two classes and on
    narrow sets, libsvm one-vs-one (``SVC(kernel="linear")``) on sets of more than two classes
    and at least ``grids.libsvm_min_features`` features, where it is fast at every ``C`` and
    liblinear's one-vs-rest is slow. The solver depends on the data set's shape only, so every
    linear SVC of a data set has the same one. In the second and third editions: liblinear's
    primal solver on two classes and libsvm one-vs-one on more, which slows down by orders of
    magnitude at large ``C`` on overlapping classes. The RBF kernel: libsvm, which stops after a
    million iterations, a guard against a single fit running for minutes.
    """
    n_classes, n_features = shape
    if kernel == "linear" and grids.linear_solver == "by-shape":
        if n_classes == 2 or n_features < grids.libsvm_min_features:
            return LinearSVC(C=C, dual="auto", max_iter=10000, random_state=grids.random_state)
    elif kernel == "linear" and n_classes == 2:
        return LinearSVC(C=C, dual=False, max_iter=10000)
    return SVC(kernel=kernel, C=C, gamma="scale" if gamma is None else gamma, max_iter=1_000_000)


def _fit_svc(kernel, C, gamma, X_tr, y_tr, grids: Grids):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return _svc(kernel, C, gamma, (len(np.unique(y_tr)), X_tr.shape[1]), grids).fit(X_tr, y_tr)


_SVCS = {  # method -> (prep, whitening, kernel); the whitened SVCs' rows are grids.svc_rows
    "linear_svc": ("standardised", None, "linear"),
    "rbf_svc": ("standardised", None, "rbf"),
    "expected_cholesky_svc": (None, "expected_cholesky", "linear"),
    "expected_zca_svc": (None, "expected_zca", "linear"),
}


def _resize(Z_tr, Z_te):
    size = np.sqrt(Z_tr.shape[1] / np.mean(np.einsum("ij,ij->i", Z_tr, Z_tr)))
    return Z_tr * size, Z_te * size


def svc_features(method, X_tr, y_tr, X_te, grids: Grids | None = None):
    """A function ``shrinkage -> (training rows, test rows)``: the SVC's input (``None`` where whitening fails).

    Whitened rows are brought back to the size of standardised ones: whitening by E(C^-1) can
    blow the rows up by orders of magnitude, which for a linear SVC is the same as multiplying
    ``C``: it would move the C grid off the range it was chosen for. One scalar per training
    fold (the same classifier at a rescaled ``C``) makes the training rows' mean squared norm
    equal the number of features, as after standardising. In the fourth edition the whitened
    SVCs whiten standardised rows and leave them as they are at shrinkage 1 (where E(C^-1) is a
    multiple of the identity), so that there they are exactly ``linear_svc``; the symmetric
    factors come from one eigendecomposition per class for every shrinkage.
    """
    grids = grids or _V3
    prep, whitening, _ = _SVCS[method]
    X_tr, X_te = _scaled(X_tr, X_te, centre=_PREP[prep or grids.svc_rows])
    if whitening is None:
        return lambda a: (X_tr, X_te)
    fourth = grids.svc_rows == "standardised"
    paths = priors = None
    if fourth and whitening == "expected_zca" and grids.factorisation == "eigen":
        paths, _ = class_paths(X_tr, y_tr, pooled_target=False)
        priors = np.unique(y_tr, return_counts=True)[1] / len(y_tr)

    def features(a):
        if fourth and a == 1.0:
            return X_tr, X_te
        if paths is not None:
            E = expected_zca_matrix(paths, priors, a)
            return None if E is None else _resize(X_tr @ E, X_te @ E)
        try:
            return _resize(*_whiten(whitening, X_tr, y_tr, X_te, a))
        except (linalg.LinAlgError, ValueError):
            return None

    return features


def _svc_scores(method, X, y, folds, points, grids: Grids) -> dict:
    """The mean inner accuracy of each grid point ``(shrinkage, C, gamma)``; ``-inf`` where a transform fails.

    ``folds`` are ``(training rows, test rows)`` pairs; each transform is computed once per fold
    and shrinkage, and serves every ``C`` and ``gamma`` of that shrinkage.
    """
    kernel = _SVCS[method][2]
    acc = dict.fromkeys(points, 0.0)
    by_shrinkage = {}
    for point in points:
        by_shrinkage.setdefault(point[0], []).append(point)
    for tr, te in folds:
        features = svc_features(method, X[tr], y[tr], X[te], grids)
        for a, same in by_shrinkage.items():
            Z = features(a)
            if Z is None:
                for point in same:
                    acc[point] = -np.inf
                continue
            for point in same:
                model = _fit_svc(kernel, point[1], point[2], Z[0], y[tr], grids)
                acc[point] += np.mean(model.predict(Z[1]) == y[te]) / len(folds)
    return acc


def halving_schedule(n_candidates: int, n_rows: int, n_classes: int, factor: int = 3,
                     min_rows_per_class: int = 10) -> list:
    """The rounds of successive halving: ``[(rows per inner training fold, candidates scored), ...]``.

    Each round scores its candidates on stratified subsamples of the inner training folds and
    keeps the best ``ceil(candidates / factor)``; the rows grow ``factor``-fold per round, and
    the last round uses every row. There are as many rounds as it takes to get down to one
    candidate, or fewer where the first round would have fewer than ``min_rows_per_class``
    rows per class on average (and 30 in all): then the last round scores several.

    Examples
    --------
    >>> halving_schedule(42, 648, 5)   # 42 grid points, 648 inner training rows, five classes
    [(72, 42), (216, 14), (648, 5)]
    >>> halving_schedule(55, 8100, 2)
    [(300, 55), (900, 19), (2700, 7), (8100, 3)]
    >>> halving_schedule(7, 50, 2)     # too few rows to halve: the full grid
    [(50, 7)]
    """
    counts = [int(n_candidates)]
    while counts[-1] > 1:
        counts.append(-(-counts[-1] // factor))
    rounds = max(len(counts) - 1, 1)  # the last count is the one chosen: it needs no round
    smallest = max(min_rows_per_class * n_classes, 30)
    rounds = min(rounds, 1 + max((j for j in range(rounds) if n_rows / factor ** j >= smallest), default=0))
    return [(int(round(n_rows / factor ** (rounds - 1 - i))), counts[i]) for i in range(rounds)]


def _halving_scores(method, X, y, folds, points, grids: Grids) -> tuple[dict, dict]:
    """Successive halving over ``points``: ``(final, last)`` mean inner accuracies.

    ``final`` holds the last round's accuracies of its candidates and ``-inf`` for the points
    dropped before (what :func:`_best` chooses from); ``last`` each point's accuracy in the last
    round it was scored (what tells a feasible grid point). Among equal scores the earliest grid
    point survives a round, as in :func:`_best`.
    """
    n_rows = min(len(tr) for tr, _ in folds)
    schedule = halving_schedule(len(points), n_rows, len(np.unique(y)), grids.halving_factor,
                                grids.halving_min_rows_per_class)
    scores, alive = {}, list(points)
    for i, (rows, _) in enumerate(schedule):
        if i < len(schedule) - 1:
            sub = [(np.sort(train_test_split(tr, train_size=rows, stratify=y[tr],
                                             random_state=grids.random_state + j)[0]), te)
                   for j, (tr, te) in enumerate(folds)]
        else:
            sub = folds
        acc = _svc_scores(method, X, y, sub, alive, grids)
        scores.update(acc)
        if i < len(schedule) - 1:
            keep = sorted(range(len(alive)), key=lambda t: (-acc[alive[t]], t))[:schedule[i + 1][1]]
            alive = [alive[t] for t in sorted(keep)]
    return {point: scores[point] if point in alive else -np.inf for point in points}, scores


def _tune_svc(method, X, y, grids: Grids):
    """Choose (shrinkage, C, gamma) by inner CV over the whole grid, or by successive halving (``grids.svc_search``)."""
    _, whitening, kernel = _SVCS[method]
    shrinkages = grids.shrinkage if whitening else (None,)
    gammas = grids.gamma if kernel == "rbf" else (None,)
    Cs = grids.C if kernel == "rbf" else grids.C_linear
    points = [(a, C, g) for a in shrinkages for C in Cs for g in gammas]
    folds = _inner_folds(y, grids)
    if grids.svc_search == "halving":
        acc, last = _halving_scores(method, X, y, folds, points, grids)
    else:
        acc = last = _svc_scores(method, X, y, folds, points, grids)
    a, C, g = _best(acc)
    chosen = {"C": C}
    if a is not None:
        chosen["shrinkage"] = a
    if g is not None:
        chosen["gamma"] = g
    grid = {"C": list(Cs), "gamma": list(grids.gamma),
            "shrinkage": sorted({p[0] for p, v in last.items() if np.isfinite(v) and p[0] is not None})}
    return chosen, _edges(chosen, grid, grids, {_point(("shrinkage", "C", "gamma"), p): v for p, v in acc.items()})


def _svc_predict(method, X_tr, y_tr, X_te, chosen, grids: Grids):
    Z = svc_features(method, X_tr, y_tr, X_te, grids)(chosen.get("shrinkage"))
    if Z is None:
        raise ValueError(f"{method}: the whitening at shrinkage {chosen.get('shrinkage')} fails on the training rows")
    return _fit_svc(_SVCS[method][2], chosen["C"], chosen.get("gamma"), Z[0], y_tr, grids).predict(Z[1])


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
        One of :data:`METHODS_V2`.
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
    if method not in METHODS_V2:
        raise ValueError(f"unknown method {method!r}; the methods are {', '.join(METHODS_V2)}.")
    if method == "nca":
        pred, chosen, edges = _nca(X_tr, y_tr, X_te, grids)
        return [pred], chosen, edges
    knn = method in _NEIGHBOURS
    tune = _tune_neighbours if knn else _tune_svc
    if method in ORDER_DEPENDENT and orders is not None:
        views = [(X_tr[:, o], X_te[:, o]) for o in orders]
    else:
        views = [(X_tr, X_te)]
    chosen, edges = tune(method, views[0][0], y_tr, grids)
    if knn:
        preds = [_knn_predict(method, a, y_tr, b, chosen, grids) for a, b in views]
    else:
        preds = [_svc_predict(method, a, y_tr, b, chosen, grids) for a, b in views]
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
