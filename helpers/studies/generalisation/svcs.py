"""The study's SVCs: their input rows, their solvers, and their tuning (every grid point, or successive halving).

The linear SVC and the RBF SVC on standardised rows, and the linear SVC after the expected
whitening E(C^-1) (Cholesky or ZCA factors); :func:`halving_schedule` gives the rounds of the
successive halving the third to fifth editions search their grids by, and :func:`tune_svc`
steps a fifth-edition grid beyond an end it chose while that scores higher.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import linalg
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC, LinearSVC

from ...shrinkage import expected_zca_path
from .tuning import EARLIER_GRIDS, PREP, Grids, best_point, edges_of, grid_point, inner_folds, scaled_rows, whiten_rows


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


SVCS = {  # method -> (prep, whitening, kernel); the whitened SVCs' rows are grids.svc_rows
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
    grids = grids or EARLIER_GRIDS
    prep, whitening, _ = SVCS[method]
    X_tr, X_te = scaled_rows(X_tr, X_te, centre=PREP[prep or grids.svc_rows])
    if whitening is None:
        return lambda a: (X_tr, X_te)
    fourth = grids.svc_rows == "standardised"
    factor = None
    if fourth and whitening == "expected_zca" and grids.factorisation == "eigen":
        factor = expected_zca_path(X_tr, y_tr)

    def features(a):
        if fourth and a == 1.0:
            return X_tr, X_te
        if factor is not None:
            E = factor(a)
            return None if E is None else _resize(X_tr @ E, X_te @ E)
        try:
            return _resize(*whiten_rows(whitening, X_tr, y_tr, X_te, a))
        except (linalg.LinAlgError, ValueError):
            return None

    return features


def _gram(Z_fit, Z_te, gamma):
    """The RBF kernel matrices of the training rows with themselves and of the test rows with them."""
    return rbf_kernel(Z_fit, Z_fit, gamma=gamma), rbf_kernel(Z_te, Z_fit, gamma=gamma)


def _fit_predict(kernel, C, gamma, Z, y_fit, grids: Grids, gram=None):
    """Fit one grid point's SVC on ``Z[0]`` and predict ``Z[1]``; on ``gram`` (kernel matrices) where given."""
    if gram is not None:
        kernel, Z = "precomputed", gram   # the same libsvm SVC (:func:`_svc`), on the kernel's values
    return _fit_svc(kernel, C, gamma, Z[0], y_fit, grids).predict(Z[1])


def svc_scores(method, X, y, folds, points, grids: Grids) -> dict:
    """The mean inner accuracy of each grid point ``(shrinkage, C, gamma)``; ``-inf`` where a transform fails.

    ``folds`` are ``(training rows, test rows)`` pairs, or ``(training rows, test rows, kept)``
    triples where the transform is fitted on every training row and the SVC on the positions
    ``kept`` of them only (``grids.whiten_once``). Each transform is computed once per fold and
    shrinkage, and serves every ``C`` and ``gamma`` of that shrinkage; with ``grids.rbf_gram`` each
    RBF kernel matrix once per fold and ``gamma``, and serves every ``C``.
    """
    kernel = SVCS[method][2]
    gram = kernel == "rbf" and grids.rbf_gram
    acc = dict.fromkeys(points, 0.0)
    by_shrinkage = {}
    for point in points:
        by_shrinkage.setdefault(point[0], []).append(point)
    for tr, te, *kept in folds:
        features = svc_features(method, X[tr], y[tr], X[te], grids)
        y_fit = y[tr] if not kept else y[tr][kept[0]]
        for a, same in by_shrinkage.items():
            Z = features(a)
            if Z is None:
                for point in same:
                    acc[point] = -np.inf
                continue
            if kept:
                Z = (Z[0][kept[0]], Z[1])
            matrices = {}
            for point in same:
                if gram and point[2] not in matrices:
                    matrices[point[2]] = _gram(*Z, point[2])
                pred = _fit_predict(kernel, point[1], point[2], Z, y_fit, grids, matrices.get(point[2]))
                acc[point] += np.mean(pred == y[te]) / len(folds)
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
    dropped before (what :func:`best_point` chooses from); ``last`` each point's accuracy in the last
    round it was scored (what tells a feasible grid point). Among equal scores the earliest grid
    point survives a round, as in :func:`best_point`.
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
            if grids.whiten_once:  # the transform of all the fold's rows, the SVC on the subsample's
                sub = [(tr, te, np.searchsorted(tr, rows_kept)) for (tr, te), (rows_kept, _) in zip(folds, sub)]
        else:
            sub = folds
        acc = svc_scores(method, X, y, sub, alive, grids)
        scores.update(acc)
        if i < len(schedule) - 1:
            keep = sorted(range(len(alive)), key=lambda t: (-acc[alive[t]], t))[:schedule[i + 1][1]]
            alive = [alive[t] for t in sorted(keep)]
    return {point: scores[point] if point in alive else -np.inf for point in points}, scores


def tune_svc(method, X, y, grids: Grids):
    """Choose (shrinkage, C, gamma) by inner CV over the whole grid, or by successive halving (``grids.svc_search``).

    With ``grids.edge_extension`` (the fifth edition), a ``C`` or ``gamma`` chosen at an open end
    of its grid, and decided there (:func:`edges_of`), is tried one grid step beyond that end on
    every inner fold with all rows, the other parameters as chosen; the step is taken where it
    scores higher, and tried again, at most ``edge_extension`` steps beyond the grid. A tuning
    is then on an edge only where the last step allowed was still taken.
    """
    _, whitening, kernel = SVCS[method]
    shrinkages = grids.shrinkage if whitening else (None,)
    gammas = grids.gamma if kernel == "rbf" else (None,)
    Cs = grids.C if kernel == "rbf" else grids.C_linear
    points = [(a, C, g) for a in shrinkages for C in Cs for g in gammas]
    folds = inner_folds(y, grids)
    if grids.svc_search == "halving":
        acc, last = _halving_scores(method, X, y, folds, points, grids)
    else:
        acc = last = svc_scores(method, X, y, folds, points, grids)
    a, C, g = best_point(acc)
    chosen = {"C": C}
    if a is not None:
        chosen["shrinkage"] = a
    if g is not None:
        chosen["gamma"] = g
    grid = {"C": list(Cs), "gamma": list(grids.gamma),
            "shrinkage": sorted({p[0] for p, v in last.items() if np.isfinite(v) and p[0] is not None})}
    scores = {grid_point(("shrinkage", "C", "gamma"), p): v for p, v in acc.items()}
    if grids.edge_extension:
        chosen = _extend_edges(method, X, y, folds, chosen, grid, scores, grids)
    return chosen, edges_of(chosen, grid, grids, scores)


def _extend_edges(method, X, y, folds, chosen: dict, grid: dict, scores: dict, grids: Grids) -> dict:
    """Step ``C`` and ``gamma`` beyond an open end they were chosen at while that scores higher (``edge_extension``).

    ``grid`` and ``scores`` gain each point tried, so that :func:`edges_of` then sees the grid
    as it was searched.
    """
    best = scores[grid_point(("shrinkage", "C", "gamma"), (chosen.get("shrinkage"), chosen["C"], chosen.get("gamma")))]
    tries = dict.fromkeys(("C", "gamma"), 0)
    while True:
        name = next((n for n in edges_of(chosen, grid, grids, scores) if n in tries
                     and tries[n] < grids.edge_extension), None)
        if name is None:
            return chosen
        values = grid[name]
        high = chosen[name] == values[-1]
        step = values[-1] / values[-2] if high else values[1] / values[0]
        trial = {**chosen, name: chosen[name] * step if high else chosen[name] / step}
        point = (trial.get("shrinkage"), trial["C"], trial.get("gamma"))
        score = svc_scores(method, X, y, folds, [point], grids)[point]
        scores[grid_point(("shrinkage", "C", "gamma"), point)] = score
        grid[name] = [*values, trial[name]] if high else [trial[name], *values]
        tries[name] += 1
        if score > best:
            chosen, best = trial, score


def svc_predict(method, X_tr, y_tr, X_te, chosen, grids: Grids):
    Z = svc_features(method, X_tr, y_tr, X_te, grids)(chosen.get("shrinkage"))
    if Z is None:
        raise ValueError(f"{method}: the whitening at shrinkage {chosen.get('shrinkage')} fails on the training rows")
    kernel, gamma = SVCS[method][2], chosen.get("gamma")
    gram = _gram(*Z, gamma) if kernel == "rbf" and grids.rbf_gram else None
    return _fit_predict(kernel, chosen["C"], gamma, Z, y_tr, grids, gram)
