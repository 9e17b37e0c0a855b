"""Notebook 00, sections 2-3 (slides lines 70-317): distances, norms and feature-space normalisation."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from scipy.spatial import distance as scipy_distance
from sklearn.preprocessing import MinMaxScaler

from ...display import at_printed_digits
from ...metrics import cosine_similarity, l0_norm, lp_norm, minkowski
from .tables import Labelled, answer, truncation_note

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
    >>> from helpers.studies.cheng_slides import athletes
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
    >>> from helpers.studies.cheng_slides import athletes
    >>> ext = athletes(extended=True)
    >>> answer = axioms_claim(distance_axiom_table(ext.X), ext.X, ext.ids)
    >>> answer["holds"], answer["evidence"][-61:]
    (True, 'IDs 9 and 11, (4, 4) and (2, 2), lie on one ray: 1 - cos = 0)')
    """
    holds = axioms.loc[["L1", "L2", "L_inf"]].to_numpy().sum() == 0
    return answer(holds, f"L1, L2 and L_inf: no violation over all pairs and triples of the {len(X)} athletes; "
                          f"1 - cos violates identity {axioms.loc['1 - cos', 'identity']} times (e.g. "
                          f"{_same_ray_pair(np.asarray(X, float), ids)}, lie on one ray: 1 - cos = 0)")


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
    return answer(holds, f"not a condition for a norm: p = 1 (numerator 1) is a norm, and the slide lists L1 and "
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
    return answer(np.allclose(ours, reference), evidence)


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
    return answer(np.allclose(numeric, exact, atol=1e-8),
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
    return answer(holds, f"(1,1) -> (2,1) adds 1 to L1 but {lp_norm(y1, 2) - lp_norm(x1, 2):.3f} to L2; a zero entry "
                          f"of (1, 1, 0) moved to 0.1 adds 0.1 to L1 but {lp_norm(x3 + grow, 2) - lp_norm(x3, 2):.4f} "
                          "to L2")


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
    return answer(not np.all(scaled == alphas ** 0 * count),
                   f"by the slide's own definition (k an integer) the count is homogeneous of degree k = 0: "
                   f"||a x||_0 = a^0 ||x||_0 = {count} for a = {alphas.tolist()}; it fails degree 1, which a norm "
                   f"needs. (Banach's is homogeneous of no degree: ||a x|| / ||x|| = "
                   f"{np.round(banach_ratio, 3).tolist()})")


def cosine_law_claim(X) -> dict:
    """Line 217: ``x'y = ||x|| ||y|| cos(theta)``, with ``theta`` from the polar angles, for all pairs of ``X`` (2-D).

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> cosine_law_claim(athletes().X)["holds"]
    True
    """
    X = np.asarray(X, float)
    angle = np.arctan2(X[:, 1], X[:, 0])
    cos_from_angles = np.cos(angle[:, None] - angle[None, :])
    norms = lp_norm(X, 2)
    return answer(np.allclose(X @ X.T, np.outer(norms, norms) * cos_from_angles),
                   f"x'y = ||x|| ||y|| cos(theta), theta from the polar angles, for all pairs of the {len(X)} athletes")


# ------------------------------------------------------------------------------------------
# 00, section 3: feature-space normalisation (lines 223-317)


def _comparison_label(key: str) -> str:
    """``salary.norm.l2-x8`` -> ``||x1 - x8||_2``; ``...cos-x8`` -> ``cos(x1, x8)``."""
    measure, other = key.rsplit(".", 1)[1].split("-")
    return f"cos(x1, {other})" if measure == "cos" else f"||x1 - {other}||_{measure[1:]}"


def comparison_answers(prefix: str, x1, others: dict, cos_note: str = "", printed=None) -> dict:
    """The slides' comparison of ``x1`` with each ``x_j``: difference, ``L2``, ``L1`` and ``cos``, keyed by ledger key.

    Keys ``{prefix}.diff{j}``, ``{prefix}.l2-x{j}``, ``{prefix}.l1-x{j}``, ``{prefix}.cos-x{j}``;
    ``cos_note``, if given, is formatted with ``gap = 1 - cos`` and goes with the cosine.
    ``printed``, if given, maps a key to its printed text: a distance or cosine that does not
    round to its print but would truncate to it gets a :func:`~.tables.truncation_note`, with the
    other distances and cosines of the comparison as the evidence of how the slide prints.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import customers
    >>> cust = customers()
    >>> answers = comparison_answers("salary.raw", cust.row(1), {8: cust.row(8)})
    >>> answers["salary.raw.diff8"], round(answers["salary.raw.l2-x8"], 2), answers["salary.raw.l1-x8"]
    ([-19100.0, -19.0], 19100.01, 19119.0)
    >>> prints = {"s.l2-x8": "0.864", "s.l1-x8": "1.21", "s.cos-x8": "0.99"}
    >>> ours, note = comparison_answers("s", [0.3276, 0.4412], {8: [0.9862, 1.0]}, printed=prints.get)["s.l1-x8"]
    >>> print(note["note"])  # doctest: +NORMALIZE_WHITESPACE
    ours 1.2174 rounds to 1.22; truncated it would print 1.21, but that is a hypothesis: the same slide rounds
    ||x1 - x8||_2 = 0.86372 to 0.864 (truncated: 0.863)
    """
    x1 = np.asarray(x1, float)
    out = {}
    for j, xj in others.items():
        c = cosine_similarity(x1, xj)
        out[f"{prefix}.diff{j}"] = (x1 - xj).tolist()
        out[f"{prefix}.l2-x{j}"] = minkowski(x1, xj, 2)
        out[f"{prefix}.l1-x{j}"] = minkowski(x1, xj, 1)
        out[f"{prefix}.cos-x{j}"] = (c, {"note": cos_note.format(gap=1 - c)}) if cos_note else c
    if printed is None:
        return out
    values = {key: (v, printed(key)) for key, v in out.items() if isinstance(v, float)}
    for key, (v, text) in values.items():
        _, rounded, cut = at_printed_digits(v, text)
        if rounded != text.strip() and cut == text.strip():
            same = {_comparison_label(k): pair for k, pair in values.items() if k != key}
            out[key] = (v, {"note": truncation_note(v, text, same)})
    return out


def cosine_readings(data: Labelled, i=1, others=(8, 10), labels=None) -> pd.DataFrame:
    """What the printed raw ``cos(theta)`` values might be: cos, 1 - cos and the angle, on four scalings.

    Rows: each reading on the raw data, range [0, 1], z-scores and salary in thousands;
    columns: ``x_i`` against each of ``others`` (``labels`` names them).

    Examples
    --------
    >>> from helpers.studies.cheng_slides import customers
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
    >>> from helpers.studies.cheng_slides import customers
    >>> range_normalisation_claim(customers().X)["holds"]
    True
    """
    X = np.asarray(X, float)
    lo, hi = X.min(0), X.max(0)
    by_formula = [(X - lo) / (hi - lo) * (b - a) + a for a, b in ranges]
    by_sklearn = [MinMaxScaler(feature_range=r).fit_transform(X) for r in ranges]
    return answer(all(np.allclose(f, s) for f, s in zip(by_formula, by_sklearn)),
                   "the formula of line 268 equals MinMaxScaler for the three ranges of line 270 on the salary data")


def normalised_preference_claims(x1, x8, x10) -> dict:
    """Lines 311-317 after normalisation: ``L1`` and ``L2`` prefer ``x10``, cosine prefers ``x8``.

    Returns ``{"L1 and L2": answer, "cos": answer}``.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import customers, normalised
    >>> cust = normalised(customers())
    >>> answers = normalised_preference_claims(cust.row(1), cust.row(8), cust.row(10))
    >>> answers["L1 and L2"]["evidence"], answers["cos"]["holds"]
    ('L1 0.9959 (x10) < 1.2174 (x8); L2 0.746 < 0.864', True)
    """
    d = {j: (minkowski(x1, xj, 1), minkowski(x1, xj, 2), cosine_similarity(x1, xj)) for j, xj in ((8, x8), (10, x10))}
    return {
        "L1 and L2": answer(d[10][0] < d[8][0] and d[10][1] < d[8][1],
                             f"L1 {d[10][0]:.4f} (x10) < {d[8][0]:.4f} (x8); L2 {d[10][1]:.3f} < {d[8][1]:.3f}"),
        "cos": answer(d[8][2] > d[10][2],
                       f"cos {d[8][2]:.4f} (x8) > {d[10][2]:.4f} (x10): the angle ignores length, and x1 and x8 lie "
                       "close to one ray from the youngest, lowest-paid corner"),
    }


