"""Cheng's lecture slides, chapter 5 "Similarity-based learning": the worked examples, checked.

The slides (C.-C. Cheng, National Chiao Tung University, after Kelleher, Mac Namee & D'Arcy)
turn at their line 921 from similarity to dimensionality, and so do the two notebooks that
answer them: notebook 00 takes lines 1-917 (vectors, norms, normalisation, the nearest
neighbour, kNN, the k-d tree, kNN regression, binary similarity, cosine and Mahalanobis) and
notebook 01 lines 919-1243 (k-means and the choice of K, the curse of dimensionality, PCA,
eigenfaces, the bird example). This module holds what the notebooks compute beyond the maths
and the loaders, which it re-exports: the slides' tables as arrays (:class:`Labelled`), their
worked examples, and the checks of their statements.

A function named ``*_claim`` returns a *claim answer*: a dict with ``holds`` (a bool),
``evidence`` (the numbers measured, as a sentence) and, where our protocol is not the slides',
``how``; the notebook hands it to its ledger check, which gives the verdict. Functions named
``*_answers`` return ``{ledger key: value}`` for a family of printed values; ``(value,
{"note": ...})`` carries a note with a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.spatial import Voronoi
from scipy.spatial import distance as scipy_distance
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA
from sklearn.metrics.pairwise import cosine_similarity as sk_cosine
from sklearn.neighbors import KDTree, KNeighborsClassifier, KNeighborsRegressor, NearestNeighbors
from sklearn.preprocessing import MinMaxScaler

from ..binary import binary_counts, jaccard, russell_rao, sokal_michener
from ..clustering import alpha_slopes, kmeans_alpha_table, pham_f, select_k_by_alpha
from ..data import (
    QUERIES,
    load_athletes,
    load_bird_ata,
    load_lfw_faces,
    load_salary_age,
    load_signup,
    load_weather,
    load_whiskey,
)
from ..metrics import cosine_similarity, l0_norm, lp_norm, mahalanobis, minkowski
from ..neighbours import inverse_square_weights
from ..plotting import (
    kdtree_splits,
    plot_alpha_curves,
    plot_decision_panels,
    plot_decision_regions,
    plot_grouped_bars,
    plot_image_row,
    plot_kdtree_splits,
    plot_labelled_points,
    plot_unit_balls,
    plot_voronoi_cells,
    plot_whitening,
)
from ..whitening import whitening_matrix

__all__ = [
    # the tables
    "Labelled", "athletes", "customers", "whiskeys", "normalised", "keyed_rows", "random_queries",
    "WEATHER_FEATURES", "SIGNUP_FEATURES", "KDTREE_QUERY", "RANK_COLUMNS",
    # 00: distances and norms
    "axiom_failures", "distance_axiom_table", "axioms_claim", "lp_formula_claim", "even_numerator_claim",
    "scipy_distance_name", "agreement_claim", "banach_terms", "l2_gradient_claim", "l1_growth_claim",
    "donoho_norm_claim", "donoho_homogeneity_claim", "cosine_law_claim",
    # 00: normalisation, the nearest neighbour, kNN
    "id_of_row", "id_of_difference", "comparison_answers", "raw_preference_claim", "cosine_readings",
    "range_normalisation_claim", "normalised_preference_claims", "with_distances", "ranked_ids",
    "cosine_reading", "one_nn_summary", "one_nn_claim", "voronoi_claim", "nearest_rows", "neighbour_entry",
    "tied_neighbour", "vote", "vote_tally", "vote_claim", "knn_models", "label_shares", "distance_ranks",
    "knn_vote",
    # 00: k-d tree, regression, binary, Mahalanobis
    "is_median_split", "median_split_claim", "KDSearch", "kdtree_search", "radius_reading",
    "knn_regression", "weighted_regression", "binary_answers", "contingency_by_heading",
    "cosine_agreement_claim", "covariance_claim", "sigma_index", "MahalanobisCheck", "mahalanobis_check",
    "flagged_items",
    # 01: k-means, dimensionality, PCA, eigenfaces, birds
    "lloyd_claims", "three_blobs", "alpha_tables", "alpha_choices", "alpha_claims", "density",
    "instances_for_density", "FacePCA", "face_pca", "random_unit_directions", "max_variance_claim",
    "conjugate_transpose_entries", "non_square_eigen_claim", "eigen_claims", "decomposition_claims",
    "threshold_answers", "eigenface_shortcut_claim", "leading_eigenfaces", "reconstruction_claim",
    "reconstructions", "perturbed", "retrieval_rate", "recognition_table", "recognition_claim",
    "symmetric_readings", "reading_spectra", "sorted_eigh", "v3_note", "correlation_v1", "bird_claims",
    # re-exported: the maths, loaders and pictures the notebooks use
    "QUERIES", "load_athletes", "load_bird_ata", "load_lfw_faces", "load_salary_age", "load_signup",
    "load_weather", "load_whiskey", "binary_counts", "jaccard", "russell_rao", "sokal_michener",
    "cosine_similarity", "l0_norm", "lp_norm", "mahalanobis", "minkowski", "inverse_square_weights",
    "whitening_matrix", "alpha_slopes", "kmeans_alpha_table", "pham_f", "select_k_by_alpha",
    "KNeighborsClassifier", "kdtree_splits", "plot_alpha_curves", "plot_decision_panels",
    "plot_decision_regions", "plot_grouped_bars", "plot_image_row", "plot_kdtree_splits",
    "plot_labelled_points", "plot_unit_balls", "plot_voronoi_cells", "plot_whitening",
]

#: the weather table's four features (lines 51-60)
WEATHER_FEATURES = ["min_temp", "max_temp", "humidity", "rain"]
#: the sign-up table's five binary features (lines 774-776)
SIGNUP_FEATURES = ["profile", "faq", "help_forum", "newsletter", "liked"]
#: the k-d tree's query q = (6.0, 3.5) (line 673), as a 1 x 2 array
KDTREE_QUERY = np.array([list(QUERIES["athletes_kdtree"].values())], dtype=float)
#: distance and rank (1 = nearest) by both features, by the first only and by the second only (lines 560-590)
RANK_COLUMNS = ["distance, both", "rank, both", "distance, first", "rank, first", "distance, second",
                "rank, second"]


def _answer(holds, evidence: str, how: str | None = None) -> dict:
    """A claim answer: ``holds`` as a bool, the evidence, and ``how`` when the protocol is ours."""
    out = {"holds": bool(holds), "evidence": evidence}
    if how:
        out["how"] = how
    return out


# ------------------------------------------------------------------------------------------
# the slides' tables as arrays


@dataclass(frozen=True)
class Labelled:
    """One of the slides' tables: ``table`` (an ``id`` column, the ``features``, the ``label``) and a ``query``.

    ``X``, ``y`` and ``ids`` are the table's features (float), labels and IDs as arrays; the
    query is a 1 x n_features array in the features' units.
    """

    table: pd.DataFrame
    features: tuple[str, ...]
    label: str
    query: np.ndarray

    @property
    def X(self) -> np.ndarray:
        return self.table[list(self.features)].to_numpy(float)

    @property
    def y(self) -> np.ndarray:
        return self.table[self.label].to_numpy()

    @property
    def ids(self) -> np.ndarray:
        return self.table["id"].to_numpy()

    def row(self, i) -> np.ndarray:
        """The features of the instance with ID ``i``."""
        return self.X[self.ids == i][0]


def _labelled(table, features, label, query_name) -> Labelled:
    return Labelled(table, tuple(features), label, np.array([list(QUERIES[query_name].values())], dtype=float))


def athletes(extended: bool = False) -> Labelled:
    """The college athletes (speed, agility, draft) and the query (6.75, 3); ``extended`` adds ID 21.

    Examples
    --------
    >>> ath = athletes()
    >>> len(ath.ids), ath.row(2).tolist(), ath.query.tolist(), len(athletes(extended=True).ids)
    (20, [3.75, 8.0], [[6.75, 3.0]], 21)
    """
    return _labelled(load_athletes(extended=extended)[0], ["speed", "agility"], "draft", "athletes")


def customers() -> Labelled:
    """The ten customers (salary, age, purchased) and the query (56000, 35) of lines 227-237 and 549.

    Examples
    --------
    >>> cust = customers()
    >>> cust.row(8).tolist(), cust.query.tolist()
    ([72800.0, 60.0], [[56000.0, 35.0]])
    """
    return _labelled(load_salary_age()[0], ["salary", "age"], "purchased", "salary_age")


def whiskeys() -> Labelled:
    """The twenty whiskeys (age, rating; the target price) and the query (age 2, rating 5), lines 722-752.

    Examples
    --------
    >>> wh = whiskeys()
    >>> len(wh.ids), wh.query.tolist(), wh.y[:3].tolist()
    (20, [[2.0, 5.0]], [30.0, 40.0, 55.0])
    """
    return _labelled(load_whiskey()[0], ["age", "rating"], "price", "whiskey")


def normalised(data: Labelled) -> Labelled:
    """The table range-normalised to [0, 1] in its features (line 268), the query with the same map.

    Examples
    --------
    >>> cust = normalised(customers())
    >>> cust.row(1).round(4).tolist(), cust.query.round(4).tolist()
    ([0.3276, 0.4412], [[0.4069, 0.2647]])
    """
    scaler = MinMaxScaler().fit(data.X)
    table = data.table.astype({f: float for f in data.features})
    table[list(data.features)] = scaler.transform(data.X)
    return Labelled(table, data.features, data.label, scaler.transform(data.query))


def keyed_rows(prefix: str, table: pd.DataFrame, columns, id_column: str = "id", width: int = 2,
               ids=None) -> dict:
    """``{prefix + ID: values}`` for rows of a table: the answers to one printed table, row by row.

    Parameters
    ----------
    prefix : str
        The ledger keys' common start, e.g. ``"athletes.id"``.
    table : DataFrame
    columns : list of str, or str
        The columns whose values answer a row (a list); one column gives the value alone.
    id_column : str
        The column whose value ends the key.
    width : int
        Digits of the ID in the key, zero-padded (``width=2``: ``id01``).
    ids : sequence, optional
        Only these IDs, in this order (default: every row, in the table's order).

    Examples
    --------
    >>> table = pd.DataFrame({"id": [1, 12], "speed": [2.5, 5.0], "draft": ["no", "yes"]})
    >>> keyed_rows("athletes.id", table, ["speed", "draft"])
    {'athletes.id01': [2.5, 'no'], 'athletes.id12': [5.0, 'yes']}
    >>> keyed_rows("nn.l1.id", table, "speed", width=1, ids=[12])
    {'nn.l1.id12': 5.0}
    """
    if ids is not None:
        table = table.set_index(id_column, drop=False).loc[list(ids)]
    keys = [f"{prefix}{i:0{width}d}" for i in table[id_column].tolist()]
    if isinstance(columns, str):
        return dict(zip(keys, table[columns].tolist()))
    values = [table[c].tolist() for c in columns]
    return {key: [v[k] for v in values] for k, key in enumerate(keys)}


def random_queries(random_state: int, n: int = 2000, low=(1.5, 1.5), high=(9.0, 10.0)) -> np.ndarray:
    """``n`` queries drawn uniformly over the athletes' range (speed 1.5-9, agility 1.5-10).

    They are the first ``2 n`` draws of the generator seeded with ``random_state``;
    :func:`random_unit_directions` continues that stream.

    Examples
    --------
    >>> q = random_queries(0)
    >>> q.shape, bool(q.min(0)[0] >= 1.5 and q.max(0)[1] <= 10)
    ((2000, 2), True)
    """
    return np.random.default_rng(random_state).uniform(low, high, size=(n, len(low)))


# ------------------------------------------------------------------------------------------
# 00, section 2: distances and norms (lines 70-219)


def axiom_failures(D, X) -> dict:
    """How often a matrix of pairwise values ``D`` between the rows of ``X`` breaks each criterion of lines 84-92.

    Examples
    --------
    >>> X = np.array([[1.0, 1.0], [2.0, 2.0], [0.0, 1.0]])
    >>> axiom_failures(minkowski(X, X, 2), X)
    {'non-negativity': 0, 'identity': 0, 'symmetry': 0, 'triangle': 0}
    >>> axiom_failures(1 - cosine_similarity(X, X), X)["identity"]   # (1, 1) and (2, 2) lie on one ray
    2
    """
    D, X = np.asarray(D, float), np.asarray(X, float)
    same = (X[:, None, :] == X[None, :, :]).all(-1)
    return {"non-negativity": int((D < -1e-12).sum()),
            "identity": int(((np.abs(D) < 1e-12) != same).sum()),
            "symmetry": int((np.abs(D - D.T) > 1e-12).sum()),
            "triangle": int((D[:, :, None] > D[:, None, :] + D.T[None, :, :] + 1e-12).sum())}


def distance_axiom_table(X, name: str = "athletes") -> pd.DataFrame:
    """Violations of the four criteria by ``L1``, ``L2``, ``L_inf`` and ``1 - cos`` over all pairs and triples of ``X``.

    Examples
    --------
    >>> distance_axiom_table(athletes(extended=True).X).loc["1 - cos"].tolist()
    [0, 2, 0, 2622]
    """
    X = np.asarray(X, float)
    table = pd.DataFrame({label: axiom_failures(D, X) for label, D in (
        ("L1", minkowski(X, X, 1)), ("L2", minkowski(X, X, 2)), ("L_inf", minkowski(X, X, np.inf)),
        ("1 - cos", 1 - cosine_similarity(X, X)))}).T
    table.index.name = f"violations among the {len(X)} {name}"
    return table


def _same_ray_pair(X, ids) -> str:
    """The first two different rows of ``X`` on one ray from the origin, as 'IDs a and b, (..) and (..)'."""
    C = cosine_similarity(X, X)
    for i in range(len(X)):
        for j in range(i + 1, len(X)):
            if 1 - C[i, j] < 1e-12 and not np.array_equal(X[i], X[j]):
                pa, pb = (", ".join(f"{v:g}" for v in X[k]) for k in (i, j))
                return f"IDs {ids[i]} and {ids[j]}, ({pa}) and ({pb})"
    return "none"


def axioms_claim(axioms: pd.DataFrame, X, ids) -> dict:
    """Lines 84-92 for the ``L^p`` distances: no violation in :func:`distance_axiom_table`; what ``1 - cos`` breaks.

    Examples
    --------
    >>> ext = athletes(extended=True)
    >>> answer = axioms_claim(distance_axiom_table(ext.X), ext.X, ext.ids)
    >>> answer["holds"], answer["evidence"][-61:]
    (True, 'IDs 9 and 11, (4, 4) and (2, 2), lie on one ray: 1 - cos = 0)')
    """
    holds = axioms.loc[["L1", "L2", "L_inf"]].to_numpy().sum() == 0
    return _answer(holds, f"L1, L2 and L_inf: no violation over all pairs and triples of the {len(X)} athletes; "
                          f"1 - cos violates identity {axioms.loc['1 - cos', 'identity']} times (e.g. "
                          f"{_same_ray_pair(np.asarray(X, float), ids)}, lie on one ray: 1 - cos = 0)")


def lp_formula_claim(X) -> dict:
    """The ``L^p`` norm of line 99: ``lp_norm`` against numpy's norms (p = 1, 2, inf) and the formula (p = 3).

    Examples
    --------
    >>> lp_formula_claim(athletes(extended=True).X)["holds"]
    True
    """
    X = np.asarray(X, float)
    holds = all(np.allclose(lp_norm(X, p), np.linalg.norm(X, ord=p, axis=1)) for p in (1, 2, np.inf)) and \
        np.allclose(lp_norm(X, 3), (np.abs(X) ** 3).sum(1) ** (1 / 3))
    return _answer(holds, f"lp_norm equals numpy's norm for p = 1, 2, inf and the formula for p = 3 on the "
                          f"{len(X)} athletes")


def _triangle(p: float) -> bool:
    """``||(1, 0) + (0, 1)||_p <= ||(1, 0)||_p + ||(0, 1)||_p``."""
    return bool(lp_norm([1.0, 1.0], p) <= lp_norm([1.0, 0.0], p) + lp_norm([0.0, 1.0], p) + 1e-12)


def even_numerator_claim() -> dict:
    """Line 103: "p is rational and, in reduced form, has an even numerator", read as the condition for a norm.

    It would be the condition if p = 2/3 (numerator 2) gave a norm and p = 1 (numerator 1) did
    not; the triangle inequality of ``(1, 0)`` and ``(0, 1)`` decides both.

    Examples
    --------
    >>> answer = even_numerator_claim()
    >>> answer["holds"], answer["evidence"][:96]
    (False, 'not a condition for a norm: p = 1 (numerator 1) is a norm, and the slide lists L1 and L_inf next')
    """
    quasi = lp_norm([1, 1], 2 / 3)                     # ||(1,0) + (0,1)||_p with p = 2/3 (numerator 2)
    x_neg = np.array([-3.0, 2.0, -0.5])
    no_bars_even = np.allclose(np.cbrt(x_neg ** 2).sum() ** 1.5, lp_norm(x_neg, 2 / 3))  # x^(2/3) = |x|^(2/3)
    no_bars_odd = np.isclose((x_neg ** 1).sum(), lp_norm(x_neg, 1))                       # x^1 != |x|
    holds = _triangle(2 / 3) and not _triangle(1)
    return _answer(holds, f"not a condition for a norm: p = 1 (numerator 1) is a norm, and the slide lists L1 and "
                          f"L_inf next; p = 2/3 (numerator 2) breaks the triangle inequality, ||(1,0)+(0,1)|| = "
                          f"{quasi:.3f} > 2. What an even numerator does allow is dropping the |.|: x^(2/3) sums to "
                          f"the same as |x|^(2/3) ({no_bars_even}), x^1 does not ({no_bars_odd}); the norm needs "
                          "p >= 1")


def scipy_distance_name(function: str) -> str:
    """The name a ``scipy.spatial.distance`` function's docstring gives its distance ("Compute the X distance").

    Examples
    --------
    >>> scipy_distance_name("minkowski"), scipy_distance_name("russellrao")
    ('Minkowski', 'Russell-Rao')
    """
    doc = getattr(scipy_distance, function).__doc__
    return re.search(r"Compute the (\S+) (?:distance|dissimilarity)", doc).group(1)


def agreement_claim(ours, reference, evidence: str) -> dict:
    """A formula checked numerically: ``holds`` when ``ours`` and ``reference`` agree to rounding error.

    Examples
    --------
    >>> agreement_claim(lp_norm([[3.0, 4.0]], 2), [5.0], "3-4-5")
    {'holds': True, 'evidence': '3-4-5'}
    """
    return _answer(np.allclose(ours, reference), evidence)


def banach_terms(x) -> list[float]:
    """The terms ``2^-i |x_i| / (1 + |x_i|)`` of Banach's ``L^0`` (line 177), ``i`` from 1.

    Examples
    --------
    >>> banach_terms([1.0, 0.0, -4.0])
    [0.25, 0.0, 0.1]
    """
    x = np.asarray(x, float)
    return (0.5 ** np.arange(1, len(x) + 1) * np.abs(x) / (1 + np.abs(x))).tolist()


def l2_gradient_claim(x=(6.75, 3.0), h: float = 1e-6) -> dict:
    """Lines 120-121: the gradient of ``||x||_2`` is ``x / ||x||_2``, against central differences at ``x``.

    Examples
    --------
    >>> answer = l2_gradient_claim()
    >>> answer["holds"], answer["evidence"]
    (True, 'central differences at x = (6.75, 3) give [0.913812, 0.406138], x/||x|| = [0.913812, 0.406138]')
    """
    x = np.asarray(x, float)
    steps = h * np.eye(len(x))
    numeric = np.array([(lp_norm(x + s, 2) - lp_norm(x - s, 2)) / (2 * h) for s in steps])
    exact = x / lp_norm(x, 2)
    point = ", ".join(f"{v:g}" for v in x)
    return _answer(np.allclose(numeric, exact, atol=1e-8),
                   f"central differences at x = ({point}) give {np.round(numeric, 6).tolist()}, x/||x|| = "
                   f"{np.round(exact, 6).tolist()}")


def l1_growth_claim() -> dict:
    """Lines 149-150: an entry moving away from 0 by ``d`` raises ``||x||_1`` by ``d`` (and ``||x||_2`` by less).

    Examples
    --------
    >>> answer = l1_growth_claim()
    >>> print(answer["holds"], answer["evidence"])  # doctest: +NORMALIZE_WHITESPACE
    True (1,1) -> (2,1) adds 1 to L1 but 0.822 to L2; a zero entry of (1, 1, 0) moved to 0.1 adds 0.1 to L1 but
    0.0035 to L2
    """
    x1 = np.array([1.0, 1.0])
    y1 = x1 + [1, 0]
    grow = np.array([0.0, 0.0, 0.1])                         # a zero entry of (1, 1, 0) moves away from 0 by d = 0.1
    x3 = np.array([1.0, 1.0, 0.0])
    holds = np.isclose(lp_norm(y1, 1) - lp_norm(x1, 1), 1) and np.isclose(lp_norm(x3 + grow, 1) - lp_norm(x3, 1), 0.1)
    return _answer(holds, f"(1,1) -> (2,1) adds 1 to L1 but {lp_norm(y1, 2) - lp_norm(x1, 2):.3f} to L2; a zero entry "
                          f"of (1, 1, 0) moved to 0.1 adds 0.1 to L1 but {lp_norm(x3 + grow, 2) - lp_norm(x3, 2):.4f} "
                          "to L2")


def donoho_norm_claim(x) -> dict:
    """Line 199: Donoho's ``L^0`` (the count of non-zero entries) is not a norm: ``||2x||_0 != 2 ||x||_0``.

    Examples
    --------
    >>> donoho_norm_claim([1, -4, 0, -2, 0, 0, 0])
    {'holds': True, 'evidence': '||2x||_0 = 3, not 2 ||x||_0 = 6: absolute homogeneity fails'}
    """
    x = np.asarray(x, float)
    doubled, twice = l0_norm(2 * x, "donoho"), 2 * l0_norm(x, "donoho")
    return _answer(doubled != twice, f"||2x||_0 = {doubled}, not 2 ||x||_0 = {twice}: absolute homogeneity fails")


def donoho_homogeneity_claim(x_donoho, x_banach, alphas=(-3.0, -1.0, 0.5, 2.0, 10.0)) -> dict:
    """Lines 199-205: "not homogeneous", with homogeneity ``f(a x) = a^k f(x)`` for an integer ``k``.

    The count is homogeneous of degree ``k = 0`` (unchanged by any non-zero ``a``), so the
    claim, read with the slide's own definition, does not hold; it fails degree 1.

    Examples
    --------
    >>> answer = donoho_homogeneity_claim([1, -4, 0, -2, 0, 0, 0], [1.0, 0.0, -4.0])
    >>> answer["holds"], answer["evidence"][:76]
    (False, "by the slide's own definition (k an integer) the count is homogeneous of deg")
    """
    xd, xb, alphas = np.asarray(x_donoho, float), np.asarray(x_banach, float), np.asarray(alphas, float)
    count = l0_norm(xd, "donoho")
    scaled = np.array([l0_norm(a * xd, "donoho") for a in alphas])
    banach_ratio = np.array([l0_norm(a * xb, "banach") for a in alphas]) / l0_norm(xb, "banach")
    return _answer(not np.all(scaled == alphas ** 0 * count),
                   f"by the slide's own definition (k an integer) the count is homogeneous of degree k = 0: "
                   f"||a x||_0 = a^0 ||x||_0 = {count} for a = {alphas.tolist()}; it fails degree 1, which a norm "
                   f"needs. (Banach's is homogeneous of no degree: ||a x|| / ||x|| = "
                   f"{np.round(banach_ratio, 3).tolist()})")


def cosine_law_claim(X) -> dict:
    """Line 217: ``x'y = ||x|| ||y|| cos(theta)``, with ``theta`` from the polar angles, for all pairs of ``X`` (2-D).

    Examples
    --------
    >>> cosine_law_claim(athletes().X)["holds"]
    True
    """
    X = np.asarray(X, float)
    angle = np.arctan2(X[:, 1], X[:, 0])
    cos_from_angles = np.cos(angle[:, None] - angle[None, :])
    norms = lp_norm(X, 2)
    return _answer(np.allclose(X @ X.T, np.outer(norms, norms) * cos_from_angles),
                   f"x'y = ||x|| ||y|| cos(theta), theta from the polar angles, for all pairs of the {len(X)} athletes")


# ------------------------------------------------------------------------------------------
# 00, section 3: feature-space normalisation (lines 223-317)


def id_of_row(data: Labelled, values) -> int:
    """The ID of the first instance whose features equal ``values``.

    Examples
    --------
    >>> id_of_row(customers(), [72800, 60])
    8
    """
    hit = (data.X == np.asarray(values, float)).all(1)
    if not hit.any():
        raise ValueError(f"no instance has the features {list(values)}")
    return int(data.ids[hit][0])


def id_of_difference(data: Labelled, i, difference) -> int:
    """The ID ``j`` for which ``x_i - x_j`` is nearest to ``difference`` (the first such ID).

    Examples
    --------
    >>> id_of_difference(normalised(customers()), 1, [-0.6586, -0.5588])
    8
    """
    gaps = [np.abs(data.row(i) - data.row(j) - np.asarray(difference, float)).max() for j in data.ids]
    return int(data.ids[int(np.argmin(gaps))])


def comparison_answers(prefix: str, x1, others: dict, cos_note: str = "") -> dict:
    """The slides' comparison of ``x1`` with each ``x_j``: difference, ``L2``, ``L1`` and ``cos``, keyed by ledger key.

    Keys ``{prefix}.diff{j}``, ``{prefix}.l2-x{j}``, ``{prefix}.l1-x{j}``, ``{prefix}.cos-x{j}``;
    ``cos_note``, if given, is formatted with ``gap = 1 - cos`` and goes with the cosine.

    Examples
    --------
    >>> cust = customers()
    >>> answers = comparison_answers("salary.raw", cust.row(1), {8: cust.row(8)})
    >>> answers["salary.raw.diff8"], round(answers["salary.raw.l2-x8"], 2), answers["salary.raw.l1-x8"]
    ([-19100.0, -19.0], 19100.01, 19119.0)
    """
    x1 = np.asarray(x1, float)
    out = {}
    for j, xj in others.items():
        c = cosine_similarity(x1, xj)
        out[f"{prefix}.diff{j}"] = (x1 - xj).tolist()
        out[f"{prefix}.l2-x{j}"] = minkowski(x1, xj, 2)
        out[f"{prefix}.l1-x{j}"] = minkowski(x1, xj, 1)
        out[f"{prefix}.cos-x{j}"] = (c, {"note": cos_note.format(gap=1 - c)}) if cos_note else c
    return out


def raw_preference_claim(x1, x8, x10) -> dict:
    """Line 253: in raw units ``x1`` is more similar to ``x8`` than to ``x10`` (by ``L2`` and ``L1``).

    Examples
    --------
    >>> cust = customers()
    >>> answer = raw_preference_claim(cust.row(1), cust.row(8), cust.row(10))
    >>> answer["holds"], answer["evidence"][:52]
    (True, 'L2 19100.01 < 19500.003 and L1 19119 < 19511; raw co')
    """
    d = {j: (minkowski(x1, xj, 2), minkowski(x1, xj, 1), cosine_similarity(x1, xj)) for j, xj in ((8, x8), (10, x10))}
    holds = d[8][0] < d[10][0] and d[8][1] < d[10][1]
    return _answer(holds, f"L2 {d[8][0]:.2f} < {d[10][0]:.3f} and L1 {d[8][1]:g} < {d[10][1]:g}; raw cosine prefers "
                          f"x10 by a hair (1 - cos {1 - d[10][2]:.1e} vs {1 - d[8][2]:.1e} for x8)")


def cosine_readings(data: Labelled, i=1, others=(8, 10), labels=None) -> pd.DataFrame:
    """What the printed raw ``cos(theta)`` values might be: cos, 1 - cos and the angle, on four scalings.

    Rows: each reading on the raw data, range [0, 1], z-scores and salary in thousands;
    columns: ``x_i`` against each of ``others`` (``labels`` names them).

    Examples
    --------
    >>> cosine_readings(customers()).loc["cos, raw"].round(4).tolist()
    [1.0, 1.0]
    """
    X = data.X
    rows = [int(np.flatnonzero(data.ids == j)[0]) for j in (i, *others)]
    scaled = {"raw": X, "range [0, 1]": MinMaxScaler().fit_transform(X),
              "z-score": (X - X.mean(0)) / X.std(0, ddof=1), "salary in thousands": X / [1000, 1]}
    candidates = {}
    for name, Z in scaled.items():
        c = [cosine_similarity(Z[rows[0]], Z[r]) for r in rows[1:]]
        candidates[f"cos, {name}"] = tuple(c)
        candidates[f"1 - cos, {name}"] = tuple(1 - v for v in c)
        candidates[f"angle in degrees, {name}"] = tuple(np.degrees(np.arccos(np.clip(c, -1, 1))))
    labels = labels or [f"x{i} vs x{j}" for j in others]
    return pd.DataFrame(candidates, index=labels).T


def range_normalisation_claim(X, ranges=((0.0, 1.0), (-0.5, 0.5), (-1.0, 1.0))) -> dict:
    """Line 268's range normalisation equals scikit-learn's ``MinMaxScaler`` for the ranges of line 270.

    Examples
    --------
    >>> range_normalisation_claim(customers().X)["holds"]
    True
    """
    X = np.asarray(X, float)
    lo, hi = X.min(0), X.max(0)
    by_formula = [(X - lo) / (hi - lo) * (b - a) + a for a, b in ranges]
    by_sklearn = [MinMaxScaler(feature_range=r).fit_transform(X) for r in ranges]
    return _answer(all(np.allclose(f, s) for f, s in zip(by_formula, by_sklearn)),
                   "the formula of line 268 equals MinMaxScaler for the three ranges of line 270 on the salary data")


def normalised_preference_claims(x1, x8, x10) -> dict:
    """Lines 311-317 after normalisation: ``L1`` and ``L2`` prefer ``x10``, cosine prefers ``x8``.

    Returns ``{"L1 and L2": answer, "cos": answer}``.

    Examples
    --------
    >>> cust = normalised(customers())
    >>> answers = normalised_preference_claims(cust.row(1), cust.row(8), cust.row(10))
    >>> answers["L1 and L2"]["evidence"], answers["cos"]["holds"]
    ('L1 0.9959 (x10) < 1.2174 (x8); L2 0.746 < 0.864', True)
    """
    d = {j: (minkowski(x1, xj, 1), minkowski(x1, xj, 2), cosine_similarity(x1, xj)) for j, xj in ((8, x8), (10, x10))}
    return {
        "L1 and L2": _answer(d[10][0] < d[8][0] and d[10][1] < d[8][1],
                             f"L1 {d[10][0]:.4f} (x10) < {d[8][0]:.4f} (x8); L2 {d[10][1]:.3f} < {d[8][1]:.3f}"),
        "cos": _answer(d[8][2] > d[10][2],
                       f"cos {d[8][2]:.4f} (x8) > {d[10][2]:.4f} (x10): the angle ignores length, and x1 and x8 lie "
                       "close to one ray from the youngest, lowest-paid corner"),
    }


# ------------------------------------------------------------------------------------------
# 00, sections 4-5: the nearest neighbour and kNN (lines 319-595)


def with_distances(data: Labelled, q=None) -> pd.DataFrame:
    """The table with the ``L2``, ``L1`` and ``cosine`` of each instance to ``q`` (default: the table's query).

    Examples
    --------
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


def ranked_ids(table: pd.DataFrame, column: str, descending: bool = False) -> list[int]:
    """IDs in the order of ``column`` (nearest first; ``descending`` for similarities); ties in table order.

    Examples
    --------
    >>> ranked_ids(with_distances(athletes()), "L2")[:3], ranked_ids(with_distances(athletes()), "cosine", True)[:3]
    ([18, 12, 10], [12, 18, 20])
    """
    values = table[column].to_numpy()
    order = np.argsort(-values if descending else values, kind="stable")
    return table["id"].to_numpy()[order].tolist()


def cosine_reading(near: pd.DataFrame, printed: dict):
    """Line 405 calls the printed cosine values distances: are they similarities (cos) or distances (1 - cos)?

    Parameters
    ----------
    near : DataFrame
        :func:`with_distances` of the athletes.
    printed : dict
        ``{ID: printed value}``.

    Returns
    -------
    ("similarities" or "distances", {"note": ...}), a number answer.

    Examples
    --------
    >>> cosine_reading(with_distances(athletes()), {12: 0.999, 18: 0.992, 10: 0.954})[0]
    'similarities'
    """
    ours = np.array([near.loc[near.id == i, "cosine"].iloc[0] for i in printed])
    value = "similarities" if np.allclose(ours, list(printed.values()), atol=5e-4) else "distances"
    return value, {"note": f"the printed values are cos (largest = nearest); 1 - cos would be "
                           f"{np.round(1 - ours, 3).tolist()}"}


def one_nn_summary(near: pd.DataFrame, listed_third: int = 10) -> str:
    """The 1-NN by ``L2``, ``L1`` and cosine, and which ID cosine ranks third (the slides list ``listed_third``).

    Examples
    --------
    >>> one_nn_summary(with_distances(athletes()))[:60]
    '1-NN: L2 -> ID 18 (yes), L1 -> ID 18, cosine -> ID 12 (no); '
    """
    by = {c: near.iloc[int(np.argmin(near[c]))] for c in ("L2", "L1")}
    by_cos = near.iloc[int(np.argmax(near["cosine"]))]
    third = ranked_ids(near, "cosine", descending=True)[2]
    return (f"1-NN: L2 -> ID {by['L2'].id} ({by['L2'].draft}), L1 -> ID {by['L1'].id}, cosine -> ID {by_cos.id} "
            f"({by_cos.draft}); by cosine ID {third} ({near.loc[near.id == third, 'cosine'].iloc[0]:.3f}) ranks "
            f"third, ahead of ID {listed_third}")


def one_nn_claim(X, y, queries) -> dict:
    """Lines 325-326: the two steps by hand (nearest instance, its label) against scikit-learn's 1-NN.

    Examples
    --------
    >>> ath = athletes()
    >>> one_nn_claim(ath.X, ath.y, random_queries(0, 50))["holds"]
    True
    """
    brute = np.asarray(y)[np.argmin(minkowski(queries, X, 2), axis=1)]
    sk_1nn = KNeighborsClassifier(1, algorithm="brute").fit(X, y).predict(queries)
    return _answer((brute == sk_1nn).all(),
                   f"the two steps by hand and scikit-learn's 1-NN agree on {len(queries)} random queries")


def voronoi_claim(X) -> dict:
    """Lines 411-417: every finite Voronoi vertex is equidistant from the two points of its edge.

    Examples
    --------
    >>> voronoi_claim(athletes(extended=True).X)["holds"]
    True
    """
    vor = Voronoi(np.asarray(X, float))
    gaps = [abs(np.linalg.norm(vor.vertices[v] - X[a]) - np.linalg.norm(vor.vertices[v] - X[b]))
            for (a, b), verts in zip(vor.ridge_points, vor.ridge_vertices) for v in verts if v >= 0]
    return _answer(max(gaps) < 1e-9, f"every finite Voronoi vertex of the {len(X)} athletes is equidistant from the "
                                     "two athletes of its edge (to 1e-9): the edges lie on perpendicular bisectors")


def nearest_rows(data: Labelled, q, k: int = 4) -> pd.DataFrame:
    """The ``k`` instances nearest to ``q`` in ``L2`` (ties: the lower ID first), with ``L2``, ``L1``, ``L_inf``, cos.

    Examples
    --------
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
    >>> [str(v) for v in neighbour_entry(nearest_rows(athletes(extended=True), [8.0, 8.0]), 13)]
    ['ID13', '8.25', '8.5', 'no']
    """
    r = near[near.id == i].iloc[0]
    return [f"ID{i}", r.speed, r.agility, r.draft]


def tied_neighbour(near: pd.DataFrame, position: int, coordinates):
    """The neighbours tied in ``L2`` with the one at ``position`` (0-based), and the one of them at ``coordinates``.

    Returns ``(ID, tied IDs, their distance)``; without a match at ``coordinates`` the first tied ID.

    Examples
    --------
    >>> third, tied, d = tied_neighbour(nearest_rows(athletes(extended=True), [8.0, 8.0]), 2, [7.25, 5.75])
    >>> third, tied, round(d, 4)
    (20, [14, 20], 2.3717)
    """
    tied = near[np.isclose(near["L2"], near["L2"].iloc[position])]
    at = tied[(tied.speed == coordinates[0]) & (tied.agility == coordinates[1])]
    pick = (at if len(at) else tied).iloc[0]
    return int(pick.id), [int(i) for i in tied.id], float(tied.L2.iloc[0])


def vote(q, k: int, X, y, weights=None):
    """The slides' vote (lines 485, 515): ``argmax_l sum_{k nearest} w_i delta(t_i, l)``, ``w = 1`` or ``weights(d)``.

    Examples
    --------
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


def vote_tally(labels, first: str = "yes", second: str = "no") -> list[int]:
    """Counts of ``first`` and ``second`` among ``labels``.

    Examples
    --------
    >>> vote_tally(["no", "yes", "yes"])
    [2, 1]
    """
    labels = np.asarray(labels)
    return [int((labels == first).sum()), int((labels == second).sum())]


def vote_claim(X, y, queries, weights=None, ks=(3, 5, 21)) -> dict:
    """Lines 485 and 515: :func:`vote` by hand against ``KNeighborsClassifier`` (uniform or ``weights``) for each K.

    Examples
    --------
    >>> ext = athletes(extended=True)
    >>> vote_claim(ext.X, ext.y, random_queries(0, 40), inverse_square_weights)["evidence"][-52:]
    'weights 1/d^2) for K = 3, 5, 21 at 40 random queries'
    """
    agree = all((np.array([vote(q, k, X, y, weights) for q in queries])
                 == KNeighborsClassifier(k, weights=weights or "uniform").fit(X, y).predict(queries)).all() for k in ks)
    return _answer(agree, "the vote by hand equals scikit-learn's KNeighborsClassifier "
                          f"({'weights 1/d^2' if weights else 'uniform'}) for K = {', '.join(map(str, ks))} at "
                          f"{len(queries)} random queries")


def knn_models(X, y) -> dict:
    """kNN with ``K = 5``, 15, 21 and weighted ``K = 21`` (weights ``1/d^2``), fitted: the slides' region pictures.

    Examples
    --------
    >>> list(knn_models(*[athletes(extended=True).X, athletes(extended=True).y]))
    ['K = 5', 'K = 15', 'K = 21, unweighted', 'K = 21, weights 1/d^2']
    """
    return {"K = 5": KNeighborsClassifier(5).fit(X, y), "K = 15": KNeighborsClassifier(15).fit(X, y),
            "K = 21, unweighted": KNeighborsClassifier(21).fit(X, y),
            "K = 21, weights 1/d^2": KNeighborsClassifier(21, weights=inverse_square_weights).fit(X, y)}


def label_shares(models: dict, queries, label) -> dict:
    """Share of ``queries`` each fitted model labels ``label``.

    Examples
    --------
    >>> ext = athletes(extended=True)
    >>> label_shares(knn_models(ext.X, ext.y), random_queries(0), "yes")["K = 21, unweighted"]
    0.0
    """
    return {name: float((clf.predict(queries) == label).mean()) for name, clf in models.items()}


def distance_ranks(data: Labelled) -> pd.DataFrame:
    """The table with the distance to the query and its rank (1 = nearest) by both features and by each alone.

    Columns :data:`RANK_COLUMNS` (floats, ranks too, as one array), after the table's own.

    Examples
    --------
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
    return _answer(regions_ok and medians_ok,
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
    search = _answer(np.allclose(kd_d[:, 0], bf.min(1)),
                     f"nearest distance equal to brute force for q and {len(queries)} random queries; ours for q: "
                     f"ID {nearest_id} at {nearest_distance:.4f}",
                     how="scikit-learn's KDTree (its own splits and pruning)")
    knn = _answer(np.allclose(kd_d, np.take_along_axis(bf, bf_i, 1)),
                  f"the {k} nearest distances equal brute force for q and {len(queries)} random queries",
                  how=f"scikit-learn's KDTree.query(k={k})")
    return KDSearch(tree, search, knn, nearest_id, nearest_distance, bf[0])


def radius_reading(search: KDSearch, q, R: float, ids):
    """Line 707's hypersphere ``x_1^2 + ... + x_k^2 = R``: is ``R`` or ``R^2`` the radius search's bound?

    Returns ``("R^2" or "R", {"note": ...})``, a number answer.

    Examples
    --------
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
    >>> ids, prices, pred, answer = knn_regression(normalised(whiskeys()))
    >>> ids.tolist(), prices.tolist(), round(pred, 2), answer["holds"]
    ([12, 16, 3], [200.0, 250.0, 55.0], 168.33, True)
    """
    model = KNeighborsRegressor(k).fit(data.X, data.y)
    idx = model.kneighbors(data.query)[1][0]
    prediction = float(model.predict(data.query)[0])
    answer = _answer(np.isclose(prediction, data.y[idx].mean()),
                     f"KNeighborsRegressor({k}) returns the mean price of the {k} nearest whiskeys")
    return data.ids[idx], data.y[idx], prediction, answer


def weighted_regression(data: Labelled, ks=(3, 20)):
    """Line 767's weighted mean, by hand against ``KNeighborsRegressor`` with ``1/d^2`` weights, for each K.

    Returns ``({K: prediction}, claim answer)``.

    Examples
    --------
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
    answer = _answer(all(np.isclose(model[k], by_hand[k]) for k in ks),
                     "the weighted mean of line 767 by hand equals KNeighborsRegressor with 1/d^2 weights for K = "
                     + " and ".join(map(str, ks)))
    return model, answer


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
        out[f"binary.sm.{name}"] = sokal_michener(q, d)
        out[f"binary.j.{name}"] = jaccard(q, d)
    return out


def cosine_agreement_claim(X) -> dict:
    """Line 890's cosine similarity, q . x / (|q| |x|): ours against scikit-learn's, for all pairs of ``X``.

    Examples
    --------
    >>> cosine_agreement_claim(athletes(extended=True).X)
    {'holds': True, 'evidence': "helpers' cosine similarity equals scikit-learn's for all pairs of the 21 athletes"}
    """
    X = np.asarray(X, float)
    return _answer(np.allclose(cosine_similarity(X, X), sk_cosine(X)),
                   f"helpers' cosine similarity equals scikit-learn's for all pairs of the {len(X)} athletes")


def _covariance(W) -> np.ndarray:
    """Line 904, every pair at once: ``(W - mean)' (W - mean) / (n - 1)``."""
    W = np.asarray(W, float)
    return (W - W.mean(0)).T @ (W - W.mean(0)) / (len(W) - 1)


def covariance_claim(W) -> dict:
    """Line 904's covariance equals numpy's (``1/(n - 1)``), and its diagonal the variances ``var(a) = cov(a, a)``.

    Examples
    --------
    >>> covariance_claim(load_weather()[WEATHER_FEATURES].to_numpy())["holds"]
    True
    """
    W = np.asarray(W, float)
    S = _covariance(W)
    return _answer(np.allclose(S, np.cov(W, rowvar=False)) and np.allclose(np.diag(S), W.var(0, ddof=1)),
                   "the formula of line 904 equals numpy's covariance (1/(n - 1)) on the weather days, and its "
                   "diagonal the variances var(a) = cov(a, a)")


def sigma_index(W):
    """Lines 900-902 index the last row of ``Sigma`` by ``n`` (the data count): is it ``k`` (the features)?

    Returns ``("k" or "n", {"note": ...})``, a number answer.

    Examples
    --------
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
    >>> ath = athletes()
    >>> mc = mahalanobis_check(ath.X, ath.query)
    >>> int(ath.ids[mc.distances.argmin()]), round(float(mc.distances.min()), 3), mc.whitening["holds"]
    (18, 0.572, True)
    """
    X, q = np.asarray(X, float), np.atleast_2d(np.asarray(q, float))
    S = np.cov(X, rowvar=False)
    VI = np.linalg.inv(S)
    d = mahalanobis(X, q, VI)[:, 0]
    equation = _answer(np.allclose(d, scipy_distance.cdist(X, q, "mahalanobis", VI=VI)[:, 0]),
                       f"helpers' Mahalanobis distance equals scipy's for the {len(X)} athletes and the query")
    W = whitening_matrix(S, "cholesky")
    Z = X @ W.T
    whitening = _answer(np.allclose(np.cov(Z, rowvar=False), np.eye(X.shape[1]))
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


# ------------------------------------------------------------------------------------------
# 01, section 1: k-means and the choice of K (lines 921-982)


def lloyd_claims(X, k: int = 3, random_state: int = 0) -> dict:
    """Lines 923-958 with ``KMeans(init="random", algorithm="lloyd")``: the objective, and the fixed point.

    Returns ``{"objective": answer, "algorithm": answer}``.

    Examples
    --------
    >>> answers = lloyd_claims(athletes(extended=True).X)
    >>> answers["objective"]["holds"], answers["algorithm"]["holds"]
    (True, True)
    """
    X = np.asarray(X, float)
    km = KMeans(k, init="random", n_init=1, algorithm="lloyd", random_state=random_state).fit(X)
    own = ((X - km.cluster_centers_[km.labels_]) ** 2).sum()
    nearest_centre = np.argmin(minkowski(X, km.cluster_centers_, 2), axis=1)
    means = np.array([X[km.labels_ == c].mean(0) for c in range(k)])
    return {"objective": _answer(np.isclose(own, km.inertia_),
                                 f"sum of ||x - mu_i||^2 by hand = KMeans' inertia = {km.inertia_:.4f} (K = {k}, "
                                 "athletes)"),
            "algorithm": _answer((nearest_centre == km.labels_).all() and np.allclose(means, km.cluster_centers_),
                                 "at convergence every athlete is assigned to its closest centre and every centre is "
                                 "its cluster's mean", how="scikit-learn's KMeans(init='random', algorithm='lloyd')")}


def three_blobs(random_state: int = 0, n: int = 60) -> np.ndarray:
    """Three well-separated Gaussian blobs (centres (0, 0), (6, 0), (3, 5), sd 0.6): data with a known K = 3.

    Examples
    --------
    >>> three_blobs().shape
    (60, 2)
    """
    return make_blobs(n_samples=n, centers=[[0, 0], [6, 0], [3, 5]], cluster_std=0.6, random_state=random_state)[0]


def alpha_tables(data: dict, k_max: int, n_init: int, random_state: int) -> dict:
    """For each data set: ``S_K``, the slides' ``alpha_K`` and its slope, and Pham et al.'s ``f(K)``, K = 1..k_max.

    Examples
    --------
    >>> t = alpha_tables({"blobs": three_blobs()}, 4, 10, 0)["blobs"]
    >>> t.columns.tolist(), int(t["f_K (Pham et al.)"].idxmin())
    (['S_K', 'alpha_K', 'slope_K', 'f_K (Pham et al.)'], 3)
    """
    tables = {}
    for name, X in data.items():
        table = kmeans_alpha_table(X, k_max, n_init, random_state)
        table["f_K (Pham et al.)"] = pham_f(table["S_K"], np.asarray(X).shape[1])
        tables[name] = table
    return tables


def alpha_choices(tables: dict, tolerances) -> pd.DataFrame:
    """The ``K`` the slides' rule selects (:func:`~helpers.clustering.select_k_by_alpha`) per data set and tolerance.

    Examples
    --------
    >>> alpha_choices(alpha_tables({"blobs": three_blobs()}, 6, 10, 0), [0.02, 0.1])["blobs"].tolist()
    [3, 3]
    """
    return pd.DataFrame({name: [select_k_by_alpha(t["S_K"], tol) for tol in tolerances] for name, t in tables.items()},
                        index=pd.Index(list(tolerances), name="tolerance (fraction of alpha_1)"))


def alpha_claims(X, tables: dict, choice: pd.DataFrame, n_init: int, random_state: int,
                 name: str = "21 athletes", control: str = "3 blobs") -> dict:
    """Lines 965-968: ``S_K`` falls with ``K``; ``alpha_K = S_K / K``; the rule finds the control's three clusters.

    Returns ``{"decreasing": answer, "alpha": answer, "alpha-rule": answer}``.

    Examples
    --------
    >>> X = athletes(extended=True).X
    >>> tables = alpha_tables({"21 athletes": X, "3 blobs": three_blobs()}, 10, 10, 0)
    >>> answers = alpha_claims(X, tables, alpha_choices(tables, [0.01, 0.2]), 10, 0)
    >>> [a["holds"] for a in answers.values()], answers["alpha-rule"]["evidence"][-80:]
    ([True, True, True], 'the athletes it picks K = [6, 2]: the choice follows the tolerance, not the data')
    """
    X = np.asarray(X, float)
    S = tables[name]["S_K"].to_numpy()
    k = 3
    labels = KMeans(k, n_init=n_init, random_state=random_state).fit(X).labels_
    alpha = sum(((X[labels == c] - X[labels == c].mean(0)) ** 2).sum() for c in range(k)) / k
    tolerances = choice.index.tolist()
    return {
        "decreasing": _answer(np.all(np.diff(S) < 0), f"S_K of the athletes falls at every step, K = 1..{len(S)}: "
                                                      f"{S[0]:.1f} to {S[-1]:.1f}"),
        "alpha": _answer(np.isclose(alpha, tables[name].loc[k, "alpha_K"]),
                         f"alpha_{k} of the athletes from the clusters by hand = {alpha:.4f} = S_{k} / {k}"),
        "alpha-rule": _answer((choice[control] == 3).all(),
                              f"the rule picks K = 3 for the three blobs at every tolerance {tolerances}; for the "
                              f"athletes it picks K = {choice[name].tolist()}: the choice follows the tolerance, not "
                              "the data"),
    }


# ------------------------------------------------------------------------------------------
# 01, section 2: the curse of dimensionality (lines 984-1043)


def density(k, m):
    """The slides' ``density = k^(1/m)`` (line 988): instances per axis of ``k`` instances in ``m`` dimensions.

    Examples
    --------
    >>> round(density(10, 2), 4), round(density(2, 3), 4)
    (3.1623, 1.2599)
    """
    return k ** (1 / m)


def instances_for_density(d, m):
    """The ``k`` with ``k^(1/m) = d`` (lines 1015-1018): ``d^m``.

    Examples
    --------
    >>> [instances_for_density(10, m) for m in (1, 2, 3)]
    [10, 100, 1000]
    """
    return d ** m


# ------------------------------------------------------------------------------------------
# 01, sections 3-4: PCA (lines 1047-1174) and eigenfaces (lines 1178-1216)


@dataclass
class FacePCA:
    """PCA of face images as the slides build it (lines 1149-1170): the centred ``A`` and ``A'A = Q Lambda Q'``."""

    faces: np.ndarray        #: m x n, one image per row
    shape: tuple             #: an image's shape
    mean: np.ndarray         #: the mean face
    A: np.ndarray            #: faces - mean
    AtA: np.ndarray          #: A'A, n x n
    eigenvalues: np.ndarray  #: of A'A, decreasing
    Q: np.ndarray            #: its eigenvectors, in the same order

    @property
    def m(self) -> int:
        return self.faces.shape[0]

    @property
    def n(self) -> int:
        return self.faces.shape[1]

    @property
    def nonzero(self) -> np.ndarray:
        """The ``m - 1`` eigenvalues a centred ``A`` of ``m`` rows can have above zero."""
        return self.eigenvalues[: self.m - 1]


def face_pca(faces, shape) -> FacePCA:
    """``A = faces - mean`` and the eigendecomposition of ``A'A``, eigenvalues decreasing (line 1164).

    Examples
    --------
    >>> pca = face_pca(*load_lfw_faces())
    >>> pca.m, pca.n, bool(np.all(np.diff(pca.nonzero) <= 0))
    (100, 625, True)
    """
    faces = np.asarray(faces, float)
    mean = faces.mean(0)
    A = faces - mean
    AtA = A.T @ A
    lam, Q = np.linalg.eigh(AtA)
    return FacePCA(faces, tuple(shape), mean, A, AtA, lam[::-1], Q[:, ::-1])


def random_unit_directions(n: int, dim: int, random_state: int, after: int = 2000) -> np.ndarray:
    """``n`` random unit vectors in ``dim`` dimensions, from the stream of ``random_state`` after ``after`` queries.

    The generator seeded with ``random_state`` first gives :func:`random_queries` its ``after``
    queries (two draws each); the directions are the Gaussian draws that follow, so that one
    seed gives independent queries and directions.

    Examples
    --------
    >>> u = random_unit_directions(3, 5, 0)
    >>> u.shape, np.allclose(np.linalg.norm(u, axis=1), 1)
    ((3, 5), True)
    """
    u = np.random.Generator(np.random.PCG64(random_state).advance(2 * after)).normal(size=(n, dim))
    return u / np.linalg.norm(u, axis=1, keepdims=True)


def max_variance_claim(pca: FacePCA, directions) -> dict:
    """Lines 1049-1051: the variance along ``v1`` is at least the variance along any of ``directions``.

    Examples
    --------
    >>> pca = face_pca(*load_lfw_faces())
    >>> max_variance_claim(pca, random_unit_directions(50, pca.n, 0))["holds"]
    True
    """
    C = pca.AtA / (pca.m - 1)
    along = np.einsum("ij,jk,ik->i", directions, C, directions)
    top = pca.eigenvalues[0] / (pca.m - 1)
    return _answer(along.max() <= top,
                   f"the variance along v1, {top:.3f}, exceeds the variance along {len(directions)} random unit "
                   f"directions (largest {along.max():.3f}) on the faces")


def conjugate_transpose_entries(M) -> list:
    """The entries of ``M*`` (line 1075) in reading order, complex ones written like the slide (``1-4i``).

    Examples
    --------
    >>> conjugate_transpose_entries(np.array([[1, -2 - 3j], [1 + 4j, 5j]]))
    [1.0, '1-4i', '-2+3i', '-5i']
    """
    def written(z):
        z = complex(z)
        if z.imag == 0:
            return z.real
        real = "" if z.real == 0 else f"{z.real:g}"
        return f"{real}{'+' if z.imag > 0 and real else '-' if z.imag < 0 else ''}{abs(z.imag):g}i"

    return [written(z) for z in np.asarray(M).conj().T.ravel()]


def non_square_eigen_claim() -> dict:
    """Lines 1090-1094: an eigenvector of an ``m x n`` matrix, ``Av = lambda v``; numpy on a 2 x 3 matrix.

    Examples
    --------
    >>> non_square_eigen_claim()["holds"]
    False
    """
    try:
        np.linalg.eig(np.ones((2, 3)))
        square_only, message = False, ""
    except np.linalg.LinAlgError as err:
        square_only, message = True, str(err)
    return _answer(not square_only, f"numpy refuses the eigenvectors of a 2 x 3 matrix ('{message}'); Av and lambda v "
                                    "have different lengths unless m = n, as the slides say themselves on line 1134")


def eigen_claims(B=((2.0, 1.0), (0.0, 3.0))) -> dict:
    """Lines 1096-1115 on a non-symmetric square ``B``: left eigenvectors, scaling, ``AQ = Q Lambda``.

    Returns ``{"eigen-left": answer, "eigen-scaling": answer, "aq": answer}``.

    Examples
    --------
    >>> {name: a["holds"] for name, a in eigen_claims().items()}
    {'eigen-left': False, 'eigen-scaling': True, 'aq': False}
    """
    B = np.asarray(B, float)
    lam, V = np.linalg.eig(B)
    v = V[:, np.argmax(lam)]
    Bs = B + B.T
    lam_s, V_s = np.linalg.eigh(Bs)
    A, Q = np.ones((2, 3)), np.eye(3)                 # an m x n A with m != n, and an n x n Q
    written = "[" + ", ".join("[" + ", ".join(f"{x:g}" for x in row) + "]" for row in B) + "]"
    return {
        "eigen-left": _answer(np.allclose(v @ B, lam.max() * v),
                              f"for B = {written} the eigenvector v = {np.round(v, 3).tolist()} of lambda = "
                              f"{lam.max():g} gives v'B = {np.round(v @ B, 3).tolist()}, not {lam.max():g} v' = "
                              f"{np.round(lam.max() * v, 3).tolist()}: v'A = lambda v' defines left eigenvectors, the "
                              f"same v only for symmetric A (holds for B + B': "
                              f"{np.allclose(V_s[:, 1] @ Bs, lam_s[1] * V_s[:, 1])}), the case of A'A"),
        "eigen-scaling": _answer(all(np.allclose(B @ (s * v), lam.max() * (s * v)) for s in (-2.5, 0.1, 7.0)),
                                 "B (s v) = lambda (s v) for s = -2.5, 0.1, 7; numpy returns unit-length eigenvectors"),
        "aq": _answer((A @ Q).shape == (Q @ np.diag(np.ones(3))).shape,
                      f"AQ = Q Lambda holds for a square A (for B: {np.allclose(B @ V, V * lam)}); for an m x n A "
                      "with m != n, AQ is m x n and Q Lambda n x n, so A must be n x n, not m x n"),
    }


def decomposition_claims(pca: FacePCA) -> dict:
    """Lines 1119-1170 on the faces: ``Q Lambda Q'``, the SVD and its link to ``A'A``, the covariance, PCA.

    Returns answers keyed ``spectral``, ``svd``, ``svd-ata``, ``svd-aat``, ``ata-covariance``,
    ``decomposition``, ``projection`` (the ledger keys after ``pca.``).

    Examples
    --------
    >>> answers = decomposition_claims(face_pca(*load_lfw_faces()))
    >>> [name for name, a in answers.items() if not a["holds"]]
    ['ata-covariance']
    """
    A, AtA, lam, Q, m, n = pca.A, pca.AtA, pca.eigenvalues, pca.Q, pca.m, pca.n
    U, d_sv, Vt = np.linalg.svd(A, full_matrices=True)
    D = np.zeros((m, n))
    D[:m, :m] = np.diag(d_sv)
    cov = np.cov(pca.faces, rowvar=False)
    full = PCA(svd_solver="full").fit(pca.faces)
    same_dirs = np.allclose(np.abs(np.sum(full.components_[: m - 1] * Q[:, : m - 1].T, axis=1)), 1)
    Qk = Q[:, :10] * np.sign(np.sum(Q[:, :10] * full.components_[:10].T, axis=0))
    return {
        "spectral": _answer(np.allclose(Q * lam @ Q.T, AtA) and np.allclose(Q @ Q.T, np.eye(n)),
                            f"A'A of the faces ({n} x {n}) = Q Lambda Q' to rounding error, with Q orthogonal"),
        "svd": _answer(np.allclose(U @ D @ Vt, A) and np.allclose(U @ U.T, np.eye(m))
                       and np.allclose(Vt @ Vt.T, np.eye(n)),
                       f"A ({m} x {n}) = U D V' with U {U.shape[0]} x {U.shape[1]} and V {Vt.shape[0]} x {Vt.shape[1]} "
                       f"orthogonal and D {m} x {n} diagonal"),
        "svd-ata": _answer(np.allclose(Vt.T @ (D.T @ D) @ Vt, AtA) and np.allclose(d_sv ** 2, lam[:m]),
                           "A'A = V (D'D) V' and its eigenvalues are the squared singular values (D^2 read as the "
                           "n x n matrix D'D, since D is m x n)"),
        "svd-aat": _answer(np.allclose(U @ (D @ D.T) @ U.T, A @ A.T), "AA' = U (DD') U' for the faces"),
        "ata-covariance": _answer(np.allclose(AtA, cov),
                                  f"A'A = (m - 1) x the covariance of line 904 (ratio "
                                  f"{np.trace(AtA) / np.trace(cov):.0f} for the faces); the eigenvectors are the same "
                                  "and the eigenvalues scale by m - 1, so PCA is unaffected"),
        "decomposition": _answer(same_dirs and np.allclose(full.explained_variance_[: m - 1] * (m - 1), lam[: m - 1])
                                 and np.all(np.diff(lam) <= 1e-9),
                                 "scikit-learn's PCA components are the eigenvectors of A'A (up to sign), its "
                                 "variances the eigenvalues / (m - 1), sorted decreasingly"),
        "projection": _answer(np.allclose(A @ Qk, full.transform(pca.faces)[:, :10]),
                              f"y' = (x - mean)' Q equals PCA.transform for the first 10 components of the {m} faces"),
    }


def threshold_answers(pca: FacePCA, share: float):
    """Lines 1196-1202, the eigenvalue share: which sums make a share of the total, and the ``k`` it selects.

    Returns ``(k, {"lambda-bar": answer, "threshold": answer})``: ``k`` is the smallest number
    of leading eigenvalues whose share exceeds ``share``; the answers are number answers
    (``(value, {"note": ...})``) for the ledger keys ``faces.lambda-bar`` and ``faces.threshold``.

    Examples
    --------
    >>> k, answers = threshold_answers(face_pca(*load_lfw_faces()), 0.9)
    >>> k, answers["lambda-bar"][0], answers["threshold"][0]
    (40, 'λ1+λ2+…+λn', 'λ1+λ2+…+λk')
    """
    lam = pca.nonzero
    shares = np.cumsum(lam) / lam.sum()                                  # (lambda_1 + ... + lambda_k) / lambda-bar
    k = int(np.argmax(shares > share) + 1)                               # smallest k with share > t (line 1202)
    literal = np.cumsum(lam) / (lam[0] + (len(lam) - 1) * lam[-1])       # lambda_1 + lambda_n + ... + lambda_n
    k_over = int(np.argmax(literal > 1) + 1)
    k_sklearn = PCA(n_components=share, svd_solver="full").fit(pca.faces).n_components_
    total = "λ1+λ2+…+λn" if np.isclose(shares[-1], 1) and literal[-1] > 1 else "λ1+λn+…+λn"
    top = "λ1+λ2+…+λk" if k == k_sklearn else "λ1+λn+…+λk"
    return k, {
        "lambda-bar": (total, {"note": f"over the n = {len(lam)} non-zero eigenvalues the share of the total rises to "
                                       f"exactly 1; with lambda_1 + {len(lam) - 1} lambda_n as denominator the 'share' "
                                       f"exceeds 1 from k = {k_over} and reaches {literal[-1]:.1f}"}),
        "threshold": (top, {"note": f"t = {share}: k = {k} leading eigenvalues, as PCA(n_components={share}) chooses "
                                    f"({k_sklearn})"}),
    }


def eigenface_shortcut_claim(pca: FacePCA) -> dict:
    """Lines 1181-1188: each eigenface has ``n = r x c`` intensities; the first also from the small ``AA'``.

    Examples
    --------
    >>> eigenface_shortcut_claim(face_pca(*load_lfw_faces()))["holds"]
    True
    """
    u1 = np.linalg.eigh(pca.A @ pca.A.T)[1][:, -1]
    v = pca.A.T @ u1 / np.linalg.norm(pca.A.T @ u1)
    r, c = pca.shape
    return _answer(np.isclose(abs(v @ pca.Q[:, 0]), 1) and pca.Q.shape[0] == r * c,
                   f"each eigenvector of A'A has n = {r} x {c} = {r * c} intensities; the first is also A'u / |A'u| "
                   f"from the {pca.m} x {pca.m} matrix AA' (the usual shortcut when m << n)")


def leading_eigenfaces(pca: FacePCA, count: int = 5) -> np.ndarray:
    """The first ``count`` eigenfaces as rows, each signed so that its largest entry is positive.

    Examples
    --------
    >>> faces = leading_eigenfaces(face_pca(*load_lfw_faces()), 2)
    >>> faces.shape, bool((faces.max(1) >= -faces.min(1)).all())
    ((2, 625), True)
    """
    Q = pca.Q[:, :count]
    return (Q * np.sign(Q[np.abs(Q).argmax(0), range(count)])).T


def reconstructions(pca: FacePCA, i: int, ks) -> list[np.ndarray]:
    """Face ``i`` rebuilt from its first ``k`` coefficients, ``x = Q_k y_k + mean`` (line 1208), for each ``k``.

    Examples
    --------
    >>> pca = face_pca(*load_lfw_faces())
    >>> np.allclose(reconstructions(pca, 0, [pca.n])[0], pca.faces[0])
    True
    """
    return [pca.A[i] @ pca.Q[:, :k] @ pca.Q[:, :k].T + pca.mean for k in ks]


def reconstruction_claim(pca: FacePCA, ks) -> dict:
    """Lines 1204-1209: ``x = Q y + mean`` is exact with all components; the relative error with the leading ``k``.

    Examples
    --------
    >>> answer = reconstruction_claim(face_pca(*load_lfw_faces()), [5])
    >>> answer["holds"], answer["evidence"][-12:]
    (True, 'k = 5: 0.668')
    """
    A, Q = pca.A, pca.Q
    errors = {k: np.linalg.norm(A @ Q[:, :k] @ Q[:, :k].T - A) / np.linalg.norm(A) for k in ks}
    return _answer(np.allclose(A @ Q @ Q.T + pca.mean, pca.faces),
                   "x = Qy + mean is exact with all components (to rounding error); relative error with the leading "
                   "k: " + ", ".join(f"k = {k}: {e:.3f}" for k, e in errors.items()))


def perturbed(faces, shape, kind: str, amount, random_state: int = 0) -> np.ndarray:
    """Copies of the faces: Gaussian pixel noise (``"noise, sd"``), a shift (``"shift, pixels"``) or a mirror image.

    Examples
    --------
    >>> faces = np.arange(8.0).reshape(2, 4)
    >>> perturbed(faces, (2, 2), "shift, pixels", 1)[0].tolist(), perturbed(faces, (2, 2), "mirror", "")[0].tolist()
    ([1.0, 0.0, 3.0, 2.0], [1.0, 0.0, 3.0, 2.0])
    """
    faces = np.asarray(faces, float)
    images = faces.reshape(-1, *shape)
    if kind == "noise, sd":
        return faces + np.random.default_rng(random_state).normal(0, amount, faces.shape)
    if kind == "shift, pixels":
        return np.roll(images, amount, axis=2).reshape(len(faces), -1)
    if kind == "mirror":
        return images[:, :, ::-1].reshape(len(faces), -1)
    raise ValueError(f"kind must be 'noise, sd', 'shift, pixels' or 'mirror'; got {kind!r}")


def retrieval_rate(pca: FacePCA, Z, k: int | None = None) -> float:
    """Share of the copies ``Z`` whose nearest training face is their own: in pixels, or in ``k`` coefficients.

    With ``k``, the training faces are ``y = (x - mean)' Q_k`` and the copies ``w = (z - mean)' Q_k``
    (lines 1206, 1215).

    Examples
    --------
    >>> pca = face_pca(*load_lfw_faces())
    >>> retrieval_rate(pca, pca.faces), retrieval_rate(pca, pca.faces, k=5)
    (1.0, 1.0)
    """
    if k is None:
        train, test = pca.faces, Z
    else:
        train, test = pca.A @ pca.Q[:, :k], (Z - pca.mean) @ pca.Q[:, :k]
    nearest = NearestNeighbors(n_neighbors=1).fit(train).kneighbors(test)[1][:, 0]
    return float((nearest == np.arange(pca.m)).mean())


def recognition_table(pca: FacePCA, noise_sds, shifts, ks, random_state: int = 0) -> pd.DataFrame:
    """Retrieval of noisy, shifted and mirrored copies in pixels and with ``k`` eigenface coefficients, each ``k``.

    Examples
    --------
    >>> table = recognition_table(face_pca(*load_lfw_faces()), [0.25], [], [5])
    >>> table.columns.tolist(), table.index.tolist()
    (['pixels (625)', 'k = 5'], [('noise, sd', '0.25'), ('mirror', '')])
    """
    cases = [("noise, sd", s) for s in noise_sds] + [("shift, pixels", s) for s in shifts] + [("mirror", "")]
    rows = []
    for kind, amount in cases:
        Z = perturbed(pca.faces, pca.shape, kind, amount, random_state)
        rows.append({"perturbation": kind, "amount": f"{amount:g}" if amount != "" else "",
                     f"pixels ({pca.n})": retrieval_rate(pca, Z),
                     **{f"k = {k}": retrieval_rate(pca, Z, k) for k in ks}})
    return pd.DataFrame(rows).set_index(["perturbation", "amount"])


def recognition_claim(table: pd.DataFrame, k: int, level: float = 0.95) -> dict:
    """Lines 1213-1216: wherever raw pixels retrieve at least ``level`` of the copies, so do ``k`` coefficients.

    Examples
    --------
    >>> table = pd.DataFrame({"pixels (625)": [1.0, 0.4], "k = 40": [0.99, 0.43]},
    ...                      index=pd.MultiIndex.from_tuples([("noise, sd", "0.25"), ("mirror", "")]))
    >>> recognition_claim(table, 40)["evidence"][-46:]
    'noise, sd 0.25: 99% / 100%, mirror : 43% / 40%'
    """
    pixels = next(c for c in table.columns if c.startswith("pixels"))
    recognisable = table[pixels] >= level
    return _answer((table.loc[recognisable, f"k = {k}"] >= level).all(),
                   f"wherever raw pixels retrieve at least {level:.0%} of the copies, so do the k = {k} eigenface "
                   "coefficients; eigenfaces / pixels: "
                   + ", ".join(f"{kind} {amt}: {v:.0%} / {px:.0%}"
                               for (kind, amt), v, px in zip(table.index, table[f"k = {k}"], table[pixels])),
                   how="retrieval of perturbed copies of the 100 training faces (no identity labels)")


# ------------------------------------------------------------------------------------------
# 01, section 5: the bird example (lines 1218-1243)


def symmetric_readings(P) -> dict:
    """The printed matrix and its two symmetric readings: the upper or the lower triangle mirrored.

    Examples
    --------
    >>> readings = symmetric_readings([[1.0, 2.0], [5.0, 3.0]])
    >>> readings["upper triangle mirrored"].tolist(), readings["lower triangle mirrored"].tolist()
    ([[1.0, 2.0], [2.0, 3.0]], [[1.0, 5.0], [5.0, 3.0]])
    """
    P = np.asarray(P, float)
    return {"as printed (not symmetric)": P, "upper triangle mirrored": np.triu(P) + np.triu(P, 1).T,
            "lower triangle mirrored": np.tril(P) + np.tril(P, -1).T}


def reading_spectra(readings: dict) -> pd.DataFrame:
    """Eigenvalues (real parts, decreasing) and trace of each reading.

    Examples
    --------
    >>> spectra = reading_spectra(symmetric_readings(load_bird_ata().to_numpy())).round(2)
    >>> spectra.loc["upper triangle mirrored"].tolist()
    [1626.53, 128.99, 7.1, 1762.61]
    """
    n = len(next(iter(readings.values())))
    table = pd.DataFrame({name: np.sort(np.linalg.eigvals(M).real)[::-1] for name, M in readings.items()},
                         index=[f"lambda_{i + 1}" for i in range(n)]).T
    table["trace"] = [np.trace(M) for M in readings.values()]
    return table


def sorted_eigh(M):
    """Eigenvalues (decreasing) and unit eigenvectors of a symmetric matrix, each vector's largest entry positive.

    Examples
    --------
    >>> lam, V = sorted_eigh([[2.0, 0.0], [0.0, 5.0]])
    >>> lam.tolist(), V.tolist()
    ([5.0, 2.0], [[0.0, 1.0], [1.0, 0.0]])
    """
    lam, V = np.linalg.eigh(np.asarray(M, float))
    lam, V = lam[::-1], V[:, ::-1]
    return lam, V * np.sign(V[np.abs(V).argmax(0), range(V.shape[1])])


def v3_note(printed_v3, V) -> str:
    """The printed ``v3``'s length and dot products with ``v1``, ``v2``: a unit vector orthogonal to them has 1, 0, 0.

    Examples
    --------
    >>> v3_note([0.97, -0.32, -0.08], np.eye(3))
    'printed v3 has length 1.025 and dot products 0.970, -0.320 with v1, v2'
    """
    p = np.asarray(printed_v3, float)
    return (f"printed v3 has length {np.linalg.norm(p):.3f} and dot products {p @ V[:, 0]:.3f}, {p @ V[:, 1]:.3f} "
            "with v1, v2")


def correlation_v1(ata) -> np.ndarray:
    """``v1`` of the correlation matrix of ``A'A`` (each feature divided by its sd), its largest entry positive.

    Examples
    --------
    >>> correlation_v1([[4.0, 0.0], [0.0, 1.0]]).tolist()
    [0.0, 1.0]
    """
    ata = np.asarray(ata, float)
    sd = np.sqrt(np.diag(ata))
    V = np.linalg.eigh(ata / np.outer(sd, sd))[1]
    return V[:, -1] * np.sign(V[np.abs(V[:, -1]).argmax(), -1])


def bird_claims(features, V, v1_corr) -> dict:
    """Lines 1236-1242: weight (the largest entry of ``v1``) is the most significant feature, wingspan the next.

    Returns ``{"weight-most": answer, "wingspan-next": answer}``, with ``v1`` of the correlation
    matrix in the evidence.

    Examples
    --------
    >>> ata = load_bird_ata().to_numpy()
    >>> lam, V = sorted_eigh(symmetric_readings(ata)["upper triangle mirrored"])
    >>> v1c = correlation_v1(symmetric_readings(ata)["upper triangle mirrored"])
    >>> {k: a["holds"] for k, a in bird_claims(["length", "wingspan", "weight"], V, v1c).items()}
    {'weight-most': True, 'wingspan-next': True}
    """
    features = list(features)
    v1 = V[:, 0]
    return {
        "weight-most": _answer(features[np.argmax(v1)] == "weight",
                               f"v1 = {np.round(v1, 3).tolist()} (length, wingspan, weight); on the correlation scale "
                               f"v1 = {np.round(v1_corr, 3).tolist()}: nearly equal weights, weight the smallest"),
        "wingspan-next": _answer(features[np.argsort(v1)[-2]] == "wingspan",
                                 f"wingspan {v1[1]:.3f} > length {v1[0]:.3f} in v1 of A'A; on the correlation scale "
                                 f"length {v1_corr[0]:.3f} > wingspan {v1_corr[1]:.3f}"),
    }
