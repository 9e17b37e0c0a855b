"""Notebook 00, sections 4-9 (slides lines 319-917): the nearest neighbour, kNN, the k-d tree, kNN
regression, binary similarity, cosine and Mahalanobis."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.spatial import distance as scipy_distance
from sklearn.neighbors import KDTree, KNeighborsClassifier, KNeighborsRegressor

from ...binary import binary_counts, jaccard, russell_rao, simple_matching
from ...metrics import cosine_similarity, mahalanobis, minkowski
from ...neighbours import inverse_square_weights
from ...whitening import whitening_matrix
from .tables import RANK_COLUMNS, Labelled, answer

# ------------------------------------------------------------------------------------------
# 00, sections 4-5: the nearest neighbour and kNN (lines 319-595)


def with_distances(data: Labelled, q=None) -> pd.DataFrame:
    """The table with the ``L2``, ``L1`` and ``cosine`` of each instance to ``q`` (default: the table's query).

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> near = with_distances(athletes())
    >>> near.loc[near.id == 18, ["L2", "L1"]].round(2).to_numpy().tolist()
    [[1.27, 1.5]]
    """
    q = data.query if q is None else np.atleast_2d(np.asarray(q, float))
    out = data.table.copy()
    out["L2"] = minkowski(data.X, q, 2)[:, 0]
    out["L1"] = minkowski(data.X, q, 1)[:, 0]
    out["cosine"] = cosine_similarity(data.X, q)[:, 0]
    return out


def ranked_ids(table: pd.DataFrame, column: str, *, descending: bool = False) -> list[int]:
    """IDs in the order of ``column`` (nearest first; ``descending`` for similarities); ties in table order.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> table = with_distances(athletes())
    >>> ranked_ids(table, "L2")[:3], ranked_ids(table, "cosine", descending=True)[:3]
    ([18, 12, 10], [12, 18, 20])
    """
    values = table[column].to_numpy()
    order = np.argsort(-values if descending else values, kind="stable")
    return table["id"].to_numpy()[order].tolist()


def one_nn_summary(near: pd.DataFrame, listed_third: int = 10) -> str:
    """The 1-NN by ``L2``, ``L1`` and cosine, and which ID cosine ranks third (the slides list ``listed_third``).

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> one_nn_summary(with_distances(athletes()))[:60]
    '1-NN: L2 -> ID 18 (yes), L1 -> ID 18, cosine -> ID 12 (no); '
    """
    by = {c: near.iloc[int(np.argmin(near[c]))] for c in ("L2", "L1")}
    by_cos = near.iloc[int(np.argmax(near["cosine"]))]
    third = ranked_ids(near, "cosine", descending=True)[2]
    return (f"1-NN: L2 -> ID {by['L2'].id} ({by['L2'].draft}), L1 -> ID {by['L1'].id}, cosine -> ID {by_cos.id} "
            f"({by_cos.draft}); by cosine ID {third} ({near.loc[near.id == third, 'cosine'].iloc[0]:.3f}) ranks "
            f"third, ahead of ID {listed_third}")


def nearest_rows(data: Labelled, q, k: int = 4) -> pd.DataFrame:
    """The ``k`` instances nearest to ``q`` in ``L2`` (ties: the lower ID first), with ``L2``, ``L1``, ``L_inf``, cos.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> nearest_rows(athletes(extended=True), [8.0, 8.0])[["id", "L2"]].round(3).to_numpy().tolist()[:2]
    [[19.0, 0.5], [13.0, 0.559]]
    """
    X, q = data.X, np.atleast_2d(np.asarray(q, float))
    d = minkowski(X, q, 2)[:, 0]
    order = np.argsort(d, kind="stable")[:k]
    return pd.DataFrame({"id": data.ids[order], **{f: X[order, j] for j, f in enumerate(data.features)},
                         data.label: data.y[order], "L2": d[order], "L1": minkowski(X, q, 1)[order, 0],
                         "L_inf": minkowski(X, q, np.inf)[order, 0], "cosine": cosine_similarity(X, q)[order, 0]})


def neighbour_entry(near: pd.DataFrame, i) -> list:
    """``["ID<i>", speed, agility, draft]`` of the athlete with ID ``i`` in :func:`nearest_rows`.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> [str(v) for v in neighbour_entry(nearest_rows(athletes(extended=True), [8.0, 8.0]), 13)]
    ['ID13', '8.25', '8.5', 'no']
    """
    r = near[near.id == i].iloc[0]
    return [f"ID{i}", r.speed, r.agility, r.draft]


def vote(q, k: int, X, y, weights=None):
    """The slides' vote (lines 485, 515): ``argmax_l sum_{k nearest} w_i delta(t_i, l)``, ``w = 1`` or ``weights(d)``.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> ext = athletes(extended=True)
    >>> vote([8.0, 8.0], 3, ext.X, ext.y), vote([8.0, 8.0], 1, ext.X, ext.y)
    ('yes', 'yes')
    """
    y = np.asarray(y)
    d = minkowski(X, np.atleast_2d(q), 2)[:, 0]
    idx = np.argsort(d)[:k]
    w = np.ones(k) if weights is None else weights(d[idx][None, :])[0]
    tally = {lab: w[y[idx] == lab].sum() for lab in np.unique(y)}
    return max(tally, key=tally.get)


def vote_claim(X, y, queries, weights=None, ks=(3, 5, 21)) -> dict:
    """Lines 485 and 515: :func:`vote` by hand against ``KNeighborsClassifier`` (uniform or ``weights``) for each K.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes, random_queries
    >>> ext = athletes(extended=True)
    >>> vote_claim(ext.X, ext.y, random_queries(0, 40), inverse_square_weights)["evidence"][-52:]
    'weights 1/d^2) for K = 3, 5, 21 at 40 random queries'
    """
    agree = all((np.array([vote(q, k, X, y, weights) for q in queries])
                 == KNeighborsClassifier(k, weights=weights or "uniform").fit(X, y).predict(queries)).all() for k in ks)
    return answer(agree, "the vote by hand equals scikit-learn's KNeighborsClassifier "
                          f"({'weights 1/d^2' if weights else 'uniform'}) for K = {', '.join(map(str, ks))} at "
                          f"{len(queries)} random queries")


def distance_ranks(data: Labelled) -> pd.DataFrame:
    """The table with the distance to the query and its rank (1 = nearest) by both features and by each alone.

    Columns :data:`RANK_COLUMNS` (floats, ranks too, as one array), after the table's own.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import customers
    >>> ranks = distance_ranks(customers())
    >>> ranks.loc[ranks.id == 6, RANK_COLUMNS].round(4).to_numpy().tolist()
    [[102.3914, 1.0, 100.0, 1.0, 22.0, 9.0]]
    """
    X, q = data.X, data.query
    out = []
    for cols in ([0, 1], [0], [1]):
        d = minkowski(X[:, cols], q[:, cols], 2)[:, 0]
        out += [d, np.argsort(np.argsort(d, kind="stable"), kind="stable") + 1]
    ranks = pd.DataFrame(np.column_stack(out), columns=RANK_COLUMNS)
    return pd.concat([data.table.reset_index(drop=True), ranks], axis=1)


def knn_vote(data: Labelled, k: int = 3):
    """The ``k``-NN vote of scikit-learn's classifier at the table's query.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import customers, normalised
    >>> knn_vote(customers()), knn_vote(normalised(customers()))
    ('yes', 'no')
    """
    return KNeighborsClassifier(k).fit(data.X, data.y).predict(data.query)[0]


# ------------------------------------------------------------------------------------------
# 00, sections 6-7: the k-d tree (lines 597-707) and continuous targets (lines 711-767)


def is_median_split(splits: list[dict], i: int, X) -> bool:
    """Whether node ``i`` of :func:`~helpers.plotting.kdtree_splits` (pre-order) is a median of its cell.

    Its subtree's points lie below or above it, half on each side (the lower half one larger).

    Examples
    --------
    >>> from helpers.plotting import kdtree_splits
    >>> X = np.array([[1.0, 5.0], [2.0, 1.0], [3.0, 4.0]])
    >>> [is_median_split(kdtree_splits(X), i, X) for i in range(3)]
    [True, True, True]
    """
    X = np.asarray(X, float)
    s, sub = splits[i], splits[i + 1:]
    end = next((j for j, t in enumerate(sub) if t["depth"] <= s["depth"]), len(sub))
    f, v, members = s["feature"], s["value"], sub[:end]
    left = [t for t in members if t["upper"][f] <= v]
    right = [t for t in members if t["lower"][f] >= v]
    return (len(left) + len(right) == len(members) and 0 <= len(left) - len(right) <= 1
            and all(X[t["index"], f] < v for t in left) and all(X[t["index"], f] > v for t in right))


def median_split_claim(splits: list[dict], X, ids) -> dict:
    """Lines 614-655: one athlete per cell, speed and agility alternating, every pivot a median of its cell.

    Examples
    --------
    >>> from helpers.plotting import kdtree_splits
    >>> from helpers.studies.cheng_slides import athletes
    >>> ext = athletes(extended=True)
    >>> answer = median_split_claim(kdtree_splits(ext.X), ext.X, ext.ids)
    >>> answer["holds"], answer["evidence"][-65:]
    (True, 'root speed 4.50 (ID 6), then agility 5.50 (ID 3) and 6.75 (ID 16)')
    """
    X = np.asarray(X, float)
    regions_ok = all(s["feature"] == s["depth"] % X.shape[1] for s in splits) and \
        sorted(s["index"] for s in splits) == list(range(len(X)))
    medians_ok = all(is_median_split(splits, i, X) for i in range(len(splits)))
    root, second = splits[0], [s for s in splits if s["depth"] == 1]
    return answer(regions_ok and medians_ok,
                   f"ours: {len(splits)} nodes, one athlete per cell, features alternating speed/agility, each pivot "
                   f"a median of its cell; root speed {root['value']:.2f} (ID {ids[root['index']]}), then agility "
                   + " and ".join(f"{s['value']:.2f} (ID {ids[s['index']]})" for s in second))


@dataclass
class KDSearch:
    """scikit-learn's k-d tree searched for ``q`` and random queries, against brute force."""

    tree: KDTree
    search: dict             #: claim answer: the nearest distance equals brute force
    knn: dict                #: claim answer: the k nearest distances equal brute force
    nearest_id: int          #: the ID nearest to q
    nearest_distance: float  #: its distance
    q_distances: np.ndarray  #: the distances of every instance to q


def kdtree_search(X, q, queries, ids, k: int = 5) -> KDSearch:
    """Search ``KDTree(X, leaf_size=1)`` for ``q`` and ``queries``: nearest and ``k`` nearest against brute force.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import KDTREE_QUERY, athletes, random_queries
    >>> ext = athletes(extended=True)
    >>> kd = kdtree_search(ext.X, KDTREE_QUERY, random_queries(0, 100), ext.ids)
    >>> kd.nearest_id, round(kd.nearest_distance, 4), kd.search["holds"], kd.knn["holds"]
    (21, 0.9014, True, True)
    """
    tree = KDTree(X, leaf_size=1)
    every = np.vstack([q, queries])
    kd_d, kd_i = tree.query(every, k=k)
    bf = minkowski(every, X, 2)
    bf_i = np.argsort(bf, axis=1, kind="stable")[:, :k]
    nearest_id, nearest_distance = int(ids[kd_i[0, 0]]), float(kd_d[0, 0])
    search = answer(np.allclose(kd_d[:, 0], bf.min(1)),
                     f"nearest distance equal to brute force for q and {len(queries)} random queries; ours for q: "
                     f"ID {nearest_id} at {nearest_distance:.4f}",
                     how="scikit-learn's KDTree (its own splits and pruning)")
    knn = answer(np.allclose(kd_d, np.take_along_axis(bf, bf_i, 1)),
                  f"the {k} nearest distances equal brute force for q and {len(queries)} random queries",
                  how=f"scikit-learn's KDTree.query(k={k})")
    return KDSearch(tree, search, knn, nearest_id, nearest_distance, bf[0])


def radius_reading(search: KDSearch, q, R: float, ids):
    """Line 707's hypersphere ``x_1^2 + ... + x_k^2 = R``: is ``R`` or ``R^2`` the radius search's bound?

    Returns ``("R^2" or "R", {"note": ...})``, a number answer.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import KDTREE_QUERY, athletes, random_queries
    >>> ext = athletes(extended=True)
    >>> kd = kdtree_search(ext.X, KDTREE_QUERY, random_queries(0, 10), ext.ids)
    >>> radius_reading(kd, KDTREE_QUERY, 1.5, ext.ids)
    ('R^2', {'note': 'radius R = 1.5 around q holds IDs [12, 18, 21]: sum of squares <= R^2 = 2.25, not <= R'})
    """
    in_ball = set(search.tree.query_radius(q, r=R)[0])
    d = search.q_distances
    value = "R^2" if in_ball == set(np.flatnonzero(d ** 2 <= R ** 2)) != set(np.flatnonzero(d ** 2 <= R)) else "R"
    return value, {"note": f"radius R = {R} around q holds IDs {sorted(ids[list(in_ball)].tolist())}: sum of squares "
                           f"<= R^2 = {R ** 2}, not <= R"}


def knn_regression(data: Labelled, k: int = 3):
    """kNN regression at the table's query (line 715): the neighbours' IDs and targets, the prediction, and its check.

    Returns ``(ids, targets, prediction, claim answer)``; the answer checks that scikit-learn's
    prediction is the neighbours' mean.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import normalised, whiskeys
    >>> ids, prices, pred, answer = knn_regression(normalised(whiskeys()))
    >>> ids.tolist(), prices.tolist(), round(pred, 2), answer["holds"]
    ([12, 16, 3], [200.0, 250.0, 55.0], 168.33, True)
    """
    model = KNeighborsRegressor(k).fit(data.X, data.y)
    idx = model.kneighbors(data.query)[1][0]
    prediction = float(model.predict(data.query)[0])
    claim = answer(np.isclose(prediction, data.y[idx].mean()),
                   f"KNeighborsRegressor({k}) returns the mean price of the {k} nearest whiskeys")
    return data.ids[idx], data.y[idx], prediction, claim


def weighted_regression(data: Labelled, ks=(3, 20)):
    """Line 767's weighted mean, by hand against ``KNeighborsRegressor`` with ``1/d^2`` weights, for each K.

    Returns ``({K: prediction}, claim answer)``.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import normalised, whiskeys
    >>> predictions, answer = weighted_regression(normalised(whiskeys()))
    >>> {k: round(v, 2) for k, v in predictions.items()}, answer["holds"]
    ({3: 196.64, 20: 163.71}, True)
    """
    price = data.y.astype(float)
    d = minkowski(data.X, data.query, 2)[:, 0]
    model = {k: float(KNeighborsRegressor(k, weights=inverse_square_weights).fit(data.X, price).predict(data.query)[0])
             for k in ks}
    nearest = {k: np.argsort(d)[:k] for k in ks}
    by_hand = {k: np.sum(price[nearest[k]] / d[nearest[k]] ** 2) / np.sum(1 / d[nearest[k]] ** 2) for k in ks}
    claim = answer(all(np.isclose(model[k], by_hand[k]) for k in ks),
                   "the weighted mean of line 767 by hand equals KNeighborsRegressor with 1/d^2 weights for K = "
                   + " and ".join(map(str, ks)))
    return model, claim


# ------------------------------------------------------------------------------------------
# 00, sections 8-9: binary features (lines 769-884), cosine and Mahalanobis (lines 886-917)


def contingency_by_heading(q, d) -> list[int]:
    """The contingency table of ``d`` (rows Pres., Abs.) and ``q`` (columns Pres., Abs.), cells in reading order.

    Examples
    --------
    >>> contingency_by_heading([1, 0, 1, 0, 0], [1, 1, 1, 0, 1])
    [2, 2, 0, 1]
    """
    q, d = np.asarray(q), np.asarray(d)
    return [int(((d == dv) & (q == qv)).sum()) for dv in (1, 0) for qv in (1, 0)]


def binary_answers(q, users: dict) -> dict:
    """Each user's counts ``CP, PA, AP, CA`` of ``<q, d>``, table by its headings, Russell-Rao, Sokal-Michener, Jaccard.

    Keys ``binary.counts.<name>``, ``binary.layout.<name>``, ``binary.rr.<name>``,
    ``binary.sm.<name>``, ``binary.j.<name>`` for each ``name`` of ``users`` (``{name: d}``).

    Examples
    --------
    >>> answers = binary_answers([1, 0, 1, 0, 0], {"d1": [1, 1, 1, 0, 1]})
    >>> answers["binary.counts.d1"], answers["binary.rr.d1"], answers["binary.sm.d1"], answers["binary.j.d1"]
    ([2, 0, 2, 1], 0.4, 0.6, 0.5)
    """
    out = {}
    for name, d in users.items():
        out[f"binary.counts.{name}"] = [int(c) for c in binary_counts(q, d)]          # CP, PA, AP, CA of <q, d>
        out[f"binary.layout.{name}"] = (contingency_by_heading(q, d),
                                        {"note": "each cell counted under its printed row and column headings"})
        out[f"binary.rr.{name}"] = russell_rao(q, d)
        out[f"binary.sm.{name}"] = simple_matching(q, d)
        out[f"binary.j.{name}"] = jaccard(q, d)
    return out


def _covariance(W) -> np.ndarray:
    """Line 904, every pair at once: ``(W - mean)' (W - mean) / (n - 1)``."""
    W = np.asarray(W, float)
    return (W - W.mean(0)).T @ (W - W.mean(0)) / (len(W) - 1)


def sigma_index(W):
    """Lines 900-902 index the last row of ``Sigma`` by ``n`` (the data count): is it ``k`` (the features)?

    Returns ``("k" or "n", {"note": ...})``, a number answer.

    Examples
    --------
    >>> from helpers.data import load_weather
    >>> from helpers.studies.cheng_slides import WEATHER_FEATURES
    >>> sigma_index(load_weather()[WEATHER_FEATURES].to_numpy())[0]
    'k'
    """
    W = np.asarray(W, float)
    S, n = _covariance(W), len(W)
    last_row_ok = np.allclose(S[-1], [np.cov(W[:, -1], W[:, j])[0, 1] for j in range(W.shape[1])])
    value = "k" if S.shape[0] == W.shape[1] != n and last_row_ok else "n"
    return value, {"note": f"Sigma of the weather data is {S.shape[0]} x {S.shape[1]} (k = {W.shape[1]} features, "
                           f"n = {n} days); its last row is cov(x_k, .)"}


@dataclass
class MahalanobisCheck:
    """The Mahalanobis distance of lines 894-917 on a data set and a query, and its whitening."""

    cov: np.ndarray          #: the data's covariance
    W: np.ndarray            #: the Cholesky whitening matrix, ``W S W' = I``
    Z: np.ndarray            #: the whitened data
    distances: np.ndarray    #: the Mahalanobis distance of every instance to the query
    equation: dict           #: claim answer: ours equals scipy's
    whitening: dict          #: claim answer: the distance is Euclidean after whitening


def mahalanobis_check(X, q) -> MahalanobisCheck:
    """Lines 894 and 915-917: the distance against scipy's, and Euclidean after whitening (covariance I).

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> ath = athletes()
    >>> mc = mahalanobis_check(ath.X, ath.query)
    >>> int(ath.ids[mc.distances.argmin()]), round(float(mc.distances.min()), 3), mc.whitening["holds"]
    (18, 0.572, True)
    """
    X, q = np.asarray(X, float), np.atleast_2d(np.asarray(q, float))
    S = np.cov(X, rowvar=False)
    VI = np.linalg.inv(S)
    d = mahalanobis(X, q, VI)[:, 0]
    equation = answer(np.allclose(d, scipy_distance.cdist(X, q, "mahalanobis", VI=VI)[:, 0]),
                       f"helpers' Mahalanobis distance equals scipy's for the {len(X)} athletes and the query")
    W = whitening_matrix(S, "cholesky")
    Z = X @ W.T
    whitening = answer(np.allclose(np.cov(Z, rowvar=False), np.eye(X.shape[1]))
                        and np.allclose(d, np.linalg.norm(Z - q @ W.T, axis=1)),
                        f"after whitening W (W S W' = I) the athletes have covariance I, and the Mahalanobis distance "
                        f"is the Euclidean distance of the whitened points (speed-agility correlation before: "
                        f"{S[0, 1] / np.sqrt(S[0, 0] * S[1, 1]):.3f})")
    return MahalanobisCheck(S, W, Z, d, equation, whitening)


def flagged_items(rows: list[dict]) -> str:
    """One line per comparison row whose verdict flags the source (not reproduced, typo, refuted, ...), by ID.

    Examples
    --------
    >>> print(flagged_items([{"id": "SBL-2", "lines": "9", "verdict": "source typo", "item": "a name"},
    ...                      {"id": "SBL-1", "lines": "3", "verdict": "reproduced", "item": "a value"}]))
    SBL-2 (line 9), source typo: a name
    """
    flagged = [r for r in rows if r["verdict"] not in ("reproduced", "reproduced differently", "not testable")]
    return "\n".join(f"{r['id']} (line {r['lines']}), {r['verdict']}: {r['item']}"
                     for r in sorted(flagged, key=lambda r: r["id"]))


