"""The study's tuning: the protocol's grids, the rows each method sees, and the choice by inner cross-validation.

:class:`Grids` holds the protocol's ``[tuning]`` table (:func:`grids_from_protocol`), with the
fourth and fifth editions' choices as fields whose defaults are the earlier editions'. ``scaled_rows`` gives
the standardised or scaled rows, ``whiten_rows`` the rows after a whitening fitted on training rows,
``best_point`` the grid point of the highest inner accuracy (ties to the earliest) and ``edges_of`` the
chosen values on an edge of their grid.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import StratifiedKFold

from ...estimators import ExpectedWhitener, Whitener
from ...whitening import estimate_covariance, unchecked_whitening_matrix


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
    # the fifth edition's choices; the defaults are the earlier editions'
    edge_extension: int = 0           #: steps an SVC's C or gamma grid is extended beyond an open end it chose
    whiten_once: bool = False         #: halving rounds whiten with the transform fitted on the inner fold's rows
    rbf_gram: bool = False            #: the RBF SVC fitted on its kernel matrix, computed once per fold and gamma


EARLIER_GRIDS = Grids(k=(1,), shrinkage=(1.0,), C=(1.0,), gamma=(1.0,))


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
                 **{field: type(getattr(EARLIER_GRIDS, field))(t[field]) for field in _LATER_FIELDS if field in t})


#: the fields of ``[tuning]`` that editions 4 and 5 added; an older protocol leaves them at the default
_LATER_FIELDS = ("nca_nested", "linear_solver", "svc_rows", "per_category_target", "factorisation", "edge_rule",
                 "libsvm_min_features", "edge_extension", "whiten_once", "rbf_gram")


# --------------------------------------------------------------------------------------------
# features and whitening, fitted on training rows


def scaled_rows(X_tr, X_te, centre: bool):
    """Divide by the training standard deviations (a constant column keeps scale 1), centring first if asked."""
    mean = X_tr.mean(axis=0) if centre else 0.0
    sd = X_tr.std(axis=0)
    sd[sd == 0] = 1.0
    return (X_tr - mean) / sd, (X_te - mean) / sd


PREP = {"raw": None, "standardised": True, "scaled": False}


def whiten_rows(kind, X_tr, y_tr, X_te, shrinkage):
    """The training and test rows after the whitening ``kind`` with covariance shrinkage ``shrinkage``."""
    if kind == "total":
        W = unchecked_whitening_matrix(estimate_covariance(X_tr, shrinkage), "cholesky")
        return X_tr @ W.T, X_te @ W.T
    if kind == "within":
        model = Whitener(covariance=shrinkage, scatter="within").fit(X_tr, y_tr)
    else:  # "expected_cholesky", "expected_zca"
        model = ExpectedWhitener(method=kind.split("_")[1], covariance=shrinkage).fit(X_tr, y_tr)
    return model.transform(X_tr), model.transform(X_te)


# --------------------------------------------------------------------------------------------
# the choice by inner cross-validation


def inner_folds(y, grids: Grids):
    return list(StratifiedKFold(grids.inner_folds, shuffle=True, random_state=grids.random_state)
                .split(np.zeros((len(y), 1)), y))


def best_point(scores: dict):
    """The grid point of the highest mean inner accuracy; ties to the earliest (grids are ordered for that)."""
    feasible = {point: s for point, s in scores.items() if np.isfinite(s)}
    if not feasible:
        raise ValueError("no grid point could be fitted on every inner fold")
    best = max(feasible.values())
    return next(point for point, s in feasible.items() if s == best)


def grid_point(names, values) -> tuple:
    """A grid point as ``((name, value), ...)``, the parameters it does not have left out."""
    return tuple((name, value) for name, value in zip(names, values) if value is not None)


#: the ends of a grid that are a parameter's own bounds, not a limit the grid sets (edge_rule "open-decided")
_CLOSED_ENDS = {"shrinkage": "both", "k": "low"}


def edges_of(chosen: dict, grid: dict, grids: Grids, scores: dict | None = None) -> list:
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
