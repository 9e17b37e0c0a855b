"""Lecture notes on multivariate statistics, section 6.2 "Similarity measures": what notebook 07 runs.

The notes define a similarity matrix (Definition 6.4), turn a positive semi-definite one into
Euclidean distances (6.6) whose centred inner products are ``B = HFH`` (6.7, Proposition 6.2),
and run classical MDS on binary data: Example 4 (a lion and a tiger), a market basket,
Example 5 (five creatures, six attributes, with R code and the R output it prints) and 1,000
binarised MNIST digits. The maths lives in :mod:`helpers.mds` and :mod:`helpers.binary`; this
module holds what the notebook does with it:

* the data: :func:`example_5` (the notes' table and its SMC and Jaccard matrices) and
  :func:`binarised_mnist` (the notes' binarisation, l. 171);
* the notes' R code, ported line by line so that it can be compared with the library:
  :data:`R_ANIMAL`, :func:`r_smc`, :func:`r_jaccard` and :func:`FtoD`;
* one driver per check of the notebook: the route ``D -> B -> Z`` (:func:`classical_route`),
  Definition 6.4 (:func:`meets_definition_6_4`, :func:`definition_6_4_refusals`,
  :func:`definition_6_4_verdict`), the cosine similarity (:func:`cosine_checks`), the steps
  of the proof (:func:`proposition_steps`, :func:`proof_answers`), the coefficients' formulas
  (:func:`formula_errors`), the typeset matrix of Example 5 (:func:`typeset_differences`),
  the maps and how far apart they are (:func:`map_differences`, :func:`map_comparisons`) and
  the shortcut ``D = 1 - S`` (:func:`shortcut_spectra`).

Values at rounding level are shown as bounds (:func:`bounded`), so that stored outputs do not
depend on the BLAS.

References
----------
.. [1] J. C. Gower (1966), Some distance properties of latent root and vector methods used in
   multivariate analysis, Biometrika 53(3-4), 325-338.
.. [2] F. Cailliez (1983), The analytical solution of the additive constant problem,
   Psychometrika 48(2), 305-308.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.spatial import procrustes
from scipy.spatial.distance import cdist, pdist, squareform
from scipy.stats import spearmanr
from sklearn.decomposition import PCA
from sklearn.manifold import ClassicalMDS
from sklearn.metrics.pairwise import cosine_similarity

from ..binary import binary_counts, binary_similarity
from ..data.mnist import load_mnist_test
from ..data.tables import load_animals
from ..mds import (
    cailliez_constant,
    check_similarity_matrix,
    classical_mds,
    double_center,
    pca_resampling_disparities,
    proposition_6_2_residuals,
    similarity_to_distance,
)
from ..plotting import plot_class_maps, plot_labelled_maps

__all__ = [
    "COEFFICIENTS",
    "R_ANIMAL",
    "CosineChecks",
    "MapDifferences",
    "FtoD",
    "as_fraction",
    "binarised_mnist",
    "binary_counts",
    "binary_similarity",
    "bounded",
    "cailliez_constant",
    "check_similarity_matrix",
    "classical_mds",
    "classical_route",
    "cmdscale_routes",
    "cosine_checks",
    "definition_6_4_refusals",
    "definition_6_4_verdict",
    "different_digit_pairs",
    "dist_route_error",
    "double_center",
    "euclidean_mds_and_pca",
    "example_5",
    "formula_errors",
    "jaccard_routes",
    "map_comparisons",
    "map_differences",
    "market_baskets",
    "max_residual",
    "mds_route_gap",
    "meets_definition_6_4",
    "mnist_mds",
    "on_test_images",
    "pca_resampling_disparities",
    "plot_class_maps",
    "plot_labelled_maps",
    "proof_answers",
    "proposition_steps",
    "r_jaccard",
    "r_jaccard_outcome",
    "r_smc",
    "recoding_changes",
    "sheep_as_cow",
    "shortcut_spectra",
    "similarities",
    "similarity_to_distance",
    "smc_mds_as_binary_pca",
    "smc_routes",
    "spectrum_table",
    "threshold_rules",
    "typeset_differences",
]

#: the notes' two coefficients: label -> name in :func:`helpers.binary.binary_similarity`
COEFFICIENTS = {"SMC": "simple_matching", "Jaccard": "jaccard"}

#: the ``c(...)`` of the notes' R code for Example 5 (l. 87-88), filled by row into 5 rows (l. 89)
R_ANIMAL = (1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0,
            1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0)


# --------------------------------------------------------------------------------------------
# display


def bounded(value, bound: float = 1e-10) -> str:
    """A value for display: ``"< bound"`` at rounding level, else in scientific notation.

    Stored outputs then do not depend on the BLAS that computed a residual.

    Examples
    --------
    >>> bounded(3e-16), bounded(2.5e-3), bounded(-4e-13, 1e-12)
    ('< 1e-10', '2.50e-03', '< 1e-12')
    """
    return f"< {bound:.0e}" if abs(value) < bound else f"{value:.2e}"


def as_fraction(value) -> str:
    """A coefficient of Example 5 as a fraction: ratios of counts up to 6.

    Examples
    --------
    >>> as_fraction(2 / 3), as_fraction(0.8333333), as_fraction(1.0)
    ('2/3', '5/6', '1')
    """
    return str(Fraction(float(value)).limit_denominator(6))


def on_test_images(n: int) -> str:
    """How the MNIST rows are answered here: on test images, where the notes use training images.

    Examples
    --------
    >>> on_test_images(1000)[:40]
    'the first 1,000 MNIST test images (the n'
    """
    return (f"the first {n:,} MNIST test images (the notes use the first 1,000 training "
            "images, l. 169; the training set is not available here)")


# --------------------------------------------------------------------------------------------
# the data


def similarities(X, Y=None) -> dict:
    """The notes' two coefficients between the rows of 0/1 matrices: ``{"SMC": S, "Jaccard": S}``.

    Examples
    --------
    >>> S = similarities([[1, 1, 1, 1]], [[1, 1, 0, 1]])
    >>> float(S["SMC"][0, 0]), float(S["Jaccard"][0, 0])
    (0.75, 0.75)
    """
    S = binary_similarity(X, Y, coefficient=list(COEFFICIENTS.values()))
    return {label: S[name] for label, name in COEFFICIENTS.items()}


def example_5():
    """Example 5 (l. 83): the table of five creatures and six attributes, and its two similarity matrices.

    Returns
    -------
    animals : DataFrame (5, 6)
        ``data/animals.csv`` (:func:`helpers.data.tables.load_animals`), 0/1 by creature.
    S : dict
        ``{"SMC": F, "Jaccard": F}`` (:func:`similarities`) between the creatures.

    Examples
    --------
    >>> animals, S = example_5()
    >>> as_fraction(S["SMC"][0, 3]), float(S["Jaccard"][0, 4])
    ('1/3', 0.25)
    """
    animals = load_animals()
    return animals, similarities(animals.to_numpy())


def binarised_mnist(n_images: int, threshold: float):
    """The first MNIST test images, binarised as the notes' code does (l. 171: ``Y <- (X > 0.3) * 1``).

    The files must be there (no fallback to other digits): the numbers mean something on
    MNIST only.

    Returns
    -------
    X_grey : ndarray (n, 784)
        Intensities ``k / 255`` in [0, 1].
    digits : ndarray (n,)
        The labels (only to colour figures).
    Y : ndarray (n, 784) of int8
        1 where the intensity exceeds ``threshold``.
    S : dict
        ``{"SMC": F, "Jaccard": F}`` between the binarised images.
    """
    X_grey, digits, _ = load_mnist_test(n_images, fallback=False)
    Y = (X_grey > threshold).astype(np.int8)
    return X_grey, digits, Y, similarities(Y)


def market_baskets(products: int = 100):
    """The notes' two baskets (l. 75): customer A buys bread and beer, customer B peanuts and beer.

    Examples
    --------
    >>> a, b = market_baskets()
    >>> int(a.sum()), int(b.sum()), int(a @ b), len(a)
    (2, 2, 1, 100)
    """
    bread, beer, peanuts = 0, 1, 2                                  # any three distinct products
    basket_a, basket_b = np.zeros(products, dtype=int), np.zeros(products, dtype=int)
    basket_a[[bread, beer]] = 1
    basket_b[[peanuts, beer]] = 1
    return basket_a, basket_b


# --------------------------------------------------------------------------------------------
# section 6.2 and Definition 6.4


def classical_route(D):
    """The notes' route ``D -> B -> Z = U Lambda^(1/2)`` (l. 3-5), and how well ``Z`` gives back ``B`` and ``D``.

    Returns
    -------
    n_positive : int
        Positive eigenvalues of ``B = -1/2 H (D o D) H`` (the columns of ``Z``).
    error : float
        The larger of ``max |Z Z' - B|`` and ``max |distances between the rows of Z - D|``.

    Examples
    --------
    >>> D = squareform(pdist(np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]])))
    >>> n_positive, error = classical_route(D)
    >>> n_positive, bool(error < 1e-12)
    (2, True)
    """
    B = -0.5 * double_center(D**2)
    lam, U = np.linalg.eigh(B)
    positive = lam > 1e-12 * lam.max()
    Z = U[:, positive] * np.sqrt(lam[positive])
    error = max(np.abs(Z @ Z.T - B).max(), np.abs(squareform(pdist(Z)) - D).max())
    return int(positive.sum()), error


def meets_definition_6_4(M, tol: float = 1e-12) -> bool:
    """Whether ``M`` is a similarity matrix in the sense of Definition 6.4 (l. 9-12): symmetric, ``m_ij <= m_ii``.

    Examples
    --------
    >>> points = np.array([[-2.0], [0.5], [1.5]])
    >>> meets_definition_6_4(np.eye(3)), meets_definition_6_4(points @ points.T)
    (True, False)
    """
    M = np.asarray(M, dtype=float)
    return bool(np.abs(M - M.T).max() <= tol and np.all(M <= np.diag(M)[:, None] + tol))


def definition_6_4_refusals(accepted: dict, broken: dict, labels=None) -> dict:
    """Definition 6.4 as :func:`~helpers.mds.check_similarity_matrix` implements it.

    Every matrix of ``accepted`` must pass (a ValueError otherwise); each of ``broken``
    (``{condition: matrix}``) must be refused.

    Returns
    -------
    dict
        ``{condition: the first sentence of the refusal}`` for each refused matrix of ``broken``.

    Examples
    --------
    >>> refused = definition_6_4_refusals({"I": np.eye(2)}, {"condition 2": [[1, 2], [2, 3]]})
    >>> refused["condition 2"]
    'F violates f_ij <= f_ii in 1 entries'
    """
    for F in accepted.values():
        check_similarity_matrix(F, labels=labels)                  # raises if a condition fails
    refused = {}
    for condition, M in broken.items():
        try:
            check_similarity_matrix(M)
        except ValueError as err:
            refused[condition] = str(err).split(", e.g.")[0]
    return refused


def definition_6_4_verdict(M, labels=None):
    """``(meets Definition 6.4, check_similarity_matrix's message when it does not)``.

    Examples
    --------
    >>> definition_6_4_verdict(np.eye(2))
    (True, 'accepted')
    >>> ok, message = definition_6_4_verdict([[1, 0.5], [0.2, 1]])
    >>> ok, message[:60]
    (False, 'F is not symmetric: 1 pair(s) with f_ij != f_ji, e.g. (0, 1)')
    """
    try:
        check_similarity_matrix(M, labels=labels)
        return True, "accepted"
    except ValueError as err:
        return False, str(err).split(". Fix")[0]


class CosineChecks(NamedTuple):
    """The cosine similarity of l. 20-24 checked on one data set (:func:`cosine_checks`)."""

    form_error: float            #: max |difference| of the two forms of l. 22 from scikit-learn's
    symmetry_error: float        #: max |C - C'|
    diagonal_error: float        #: max |diag(C) - 1|
    largest_off_diagonal: float  #: the largest cosine between two different rows
    min_eigenvalue: float        #: the smallest eigenvalue of C (a Gram matrix of unit vectors)
    scale_error: float           #: max |change| when each row is multiplied by a positive factor


def cosine_checks(X, random_state: int = 0):
    """The cosine similarity of the rows of ``X``: the two forms of l. 22, Definition 6.4, scale invariance (l. 24).

    The two forms, ``x'y / (|x| |y|)`` and ``<x/|x|, y/|y|>``, against scikit-learn's
    ``cosine_similarity``; symmetry, unit diagonal and no entry above 1
    (:func:`~helpers.mds.check_similarity_matrix` must accept it); and each row rescaled by
    its own random factor in [0.1, 10].

    Returns
    -------
    C : ndarray (n, n)
        scikit-learn's cosine similarity matrix.
    checks : CosineChecks

    Examples
    --------
    >>> C, checks = cosine_checks(np.random.default_rng(0).uniform(size=(20, 5)))
    >>> C.shape, bool(checks.form_error < 1e-12), bool(checks.scale_error < 1e-12)
    ((20, 20), True, True)
    """
    n = len(X)
    C = cosine_similarity(X)                                                   # scikit-learn
    norms = np.linalg.norm(X, axis=1)
    C_angle = X @ X.T / np.outer(norms, norms)                                 # l. 22: x'y / (|x| |y|)
    X_unit = X / norms[:, None]
    C_unit = X_unit @ X_unit.T                                                 # l. 22: <x/|x|, y/|y|>
    form_error = max(np.abs(C - C_angle).max(), np.abs(C - C_unit).max())
    off_diagonal = C[~np.eye(n, dtype=bool)]
    factors = np.random.default_rng(random_state).uniform(0.1, 10.0, n)        # l. 24: a positive constant per row
    scale_error = np.abs(cosine_similarity(X, X * factors[:, None]) - C).max()
    report = check_similarity_matrix(C)
    return C, CosineChecks(form_error, np.abs(C - C.T).max(), np.abs(np.diag(C) - 1).max(), off_diagonal.max(),
                           report["min_eigenvalue"], scale_error)


# --------------------------------------------------------------------------------------------
# Proposition 6.2 and its proof

_NUMBERS = dict(enumerate(["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]))


def proposition_steps(matrices: dict) -> pd.DataFrame:
    """Each step of the proof of Proposition 6.2 on each matrix, after the smallest eigenvalue of each.

    Parameters
    ----------
    matrices : dict
        ``{label: F}``, similarity matrices.

    Returns
    -------
    DataFrame
        One column per matrix; the row ``"min eigenvalue of F"`` (the proposition assumes it is
        not negative), then the rows of :func:`~helpers.mds.proposition_6_2_residuals`: two
        minima and, for each identity of the proof, ``max |left - right|``.

    Examples
    --------
    >>> steps = proposition_steps({"F": np.array([[1.0, 0.5], [0.5, 1.0]])})
    >>> steps.index[:3].tolist(), round(float(steps.loc["min eigenvalue of F", "F"]), 12)
    (['min eigenvalue of F', 'min f_ii + f_jj - 2 f_ij', 'D distance matrix'], 0.5)
    """
    min_eig = {label: check_similarity_matrix(F)["min_eigenvalue"] for label, F in matrices.items()}
    steps = pd.DataFrame({label: proposition_6_2_residuals(F) for label, F in matrices.items()})
    return pd.concat([pd.DataFrame([min_eig], index=["min eigenvalue of F"]), steps])


def max_residual(steps: pd.DataFrame) -> float:
    """The largest residual of :func:`proposition_steps` over its identities (the rows that are not minima).

    Examples
    --------
    >>> max_residual(pd.DataFrame({"F": [-1.0, 2e-16, 0.0]}, index=["min x", "a_ij", "b_ij"]))
    2e-16
    """
    residuals = steps.drop(index=[s for s in steps.index if s.startswith("min")])
    return float(residuals.abs().to_numpy().max())


def proof_answers(steps: pd.DataFrame, matrices: dict, tol: float = 1e-10) -> dict:
    """The ledger's rows of Proposition 6.2 and of its proof, answered from :func:`proposition_steps`.

    A step holds when its residual is below ``tol`` on every matrix; the proposition's
    assumption when no ``F`` has an eigenvalue below ``-tol``; ``B = HFH`` is positive
    semi-definite when its smallest eigenvalue is above ``-tol`` times the largest ``|b_ij|``.

    Returns
    -------
    dict
        ``{ledger key: (holds, evidence)}``, for :meth:`SourceCheck.claims`.

    Examples
    --------
    >>> F = {"F": np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]])}
    >>> answers = proof_answers(proposition_steps(F), F)
    >>> len(answers), all(holds for holds, _ in answers.values())
    (11, True)
    >>> answers["proof.nonneg"][1]
    'smallest f_ii + f_jj - 2 f_ij (i != j): 1.0000'
    """
    psd = bool((steps.loc["min eigenvalue of F"] > -tol).all())

    def holds(step):
        return bool((steps.loc[step] < tol).all())

    def worst(step):
        return bounded(steps.loc[step].abs().max())

    scale_B = max(np.abs(double_center(F)).max() for F in matrices.values())
    count = _NUMBERS.get(len(matrices), str(len(matrices)))
    answers = {
        "prop6.2.eq6.6": (psd and holds("(6.6) Euclidean"),
                          f"all {count} F positive semi-definite; the rows of U Lambda^(1/2) reproduce the squared "
                          f"distances (6.6) (max error {worst('(6.6) Euclidean')})"),
        "prop6.2.eq6.7": (holds("(6.7)"), f"max |-1/2 H(D o D)H - HFH| {worst('(6.7)')} over the {count} matrices"),
        "proof.nonneg": (bool((steps.loc["min f_ii + f_jj - 2 f_ij"] >= 0).all()),
                         f"smallest f_ii + f_jj - 2 f_ij (i != j): {steps.loc['min f_ii + f_jj - 2 f_ij'].min():.4f}"),
        "proof.distance-matrix": (bool((steps.loc["D distance matrix"] == 0).all()),
                                  "D is symmetric with a zero diagonal and no negative entry (Definition 6.1 itself "
                                  "is not in this excerpt)"),
    }
    identities = {"proof.a": "a_ij", "proof.row-mean": "row means", "proof.col-mean": "column means",
                  "proof.grand-mean": "grand mean", "proof.property-vii": "property (vii)", "proof.b": "b_ij"}
    for key, step in identities.items():
        answers[key] = (holds(step), f"max |left - right| {worst(step)} over the {count} matrices")
    answers["proof.psd"] = (psd and bool((steps.loc["min eigenvalue of HFH"] > -tol * scale_B).all()),
                            f"every F positive semi-definite and every HFH too (smallest eigenvalue "
                            f"{bounded(steps.loc['min eigenvalue of HFH'].min())}); D then Euclidean (row (6.6) above)")
    return answers


def mds_route_gap(matrices: dict) -> float:
    """Largest ``|coordinate difference|`` between MDS of ``F`` (``B = HFH``, l. 42) and MDS of its distances (6.6).

    Examples
    --------
    >>> C, _ = cosine_checks(np.random.default_rng(0).uniform(size=(6, 3)))
    >>> bool(mds_route_gap({"cosine": C}) < 1e-12)
    True
    """
    return max(np.abs(classical_mds(F=F, full_spectrum=False).embedding
                      - classical_mds(similarity_to_distance(F), full_spectrum=False).embedding).max()
               for F in matrices.values())


# --------------------------------------------------------------------------------------------
# binary attributes (section 6.2.1)


def formula_errors(tables: dict) -> pd.DataFrame:
    """The two formulas written from the counts of the 2 x 2 table, against the library and scipy.

    (6.8) ``(a + d) / (a + b + c + d)`` and Jaccard ``a / (a + b + c)``, from
    :func:`~helpers.binary.binary_counts`, against :func:`~helpers.binary.binary_similarity`
    and against ``1 -`` scipy's Hamming and Jaccard dissimilarities.

    Parameters
    ----------
    tables : dict
        ``{label: 0/1 matrix}``; every pair of its rows is compared.

    Returns
    -------
    DataFrame
        Four rows (the comparisons), one column per table: the largest ``|difference|``.

    Examples
    --------
    >>> errors = formula_errors({"toy": np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])})
    >>> bool(errors.to_numpy().max() < 1e-15)
    True
    """
    out = {}
    for label, B01 in tables.items():
        t = binary_counts(B01, B01)
        a, b, c, d = (np.asarray(v, dtype=float) for v in (t.co_presence, t.presence_absence, t.absence_presence,
                                                           t.co_absence))
        ours = similarities(B01)
        scipy_smc = 1 - squareform(pdist(B01.astype(bool), "hamming"))
        scipy_jaccard = 1 - squareform(pdist(B01.astype(bool), "jaccard"))
        out[label] = {
            "(6.8) vs binary_similarity": np.abs((a + d) / (a + b + c + d) - ours["SMC"]).max(),
            "(6.8) vs 1 - scipy hamming": np.abs((a + d) / (a + b + c + d) - scipy_smc).max(),
            "a/(a+b+c) vs binary_similarity": np.abs(a / (a + b + c) - ours["Jaccard"]).max(),
            "a/(a+b+c) vs 1 - scipy jaccard": np.abs(a / (a + b + c) - scipy_jaccard).max(),
        }
    return pd.DataFrame(out)


def different_digit_pairs(S: dict, digits):
    """The SMC and the Jaccard index of every pair of images of different digits (the upper triangle).

    Examples
    --------
    >>> S = {"SMC": np.array([[1, 0.9, 0.8], [0.9, 1, 0.7], [0.8, 0.7, 1]]), "Jaccard": np.eye(3)}
    >>> smc, jaccard = different_digit_pairs(S, np.array([1, 1, 2]))
    >>> smc.tolist(), jaccard.tolist()
    ([0.8, 0.7], [0.0, 0.0])
    """
    digits = np.asarray(digits)
    iu = np.triu_indices(len(digits), 1)
    different = digits[iu[0]] != digits[iu[1]]
    return S["SMC"][iu][different], S["Jaccard"][iu][different]


def recoding_changes(X):
    """How far each coefficient moves when 0 and 1 are swapped in every attribute (l. 77): ``(SMC, Jaccard)``.

    Examples
    --------
    >>> smc, jaccard = recoding_changes(np.array([[1, 1, 0, 0], [1, 0, 0, 0]]))
    >>> smc, round(jaccard, 4)
    (0.0, 0.1667)
    """
    X = np.asarray(X)
    before, after = similarities(X), similarities(1 - X)
    return (float(np.abs(after["SMC"] - before["SMC"]).max()),
            float(np.abs(after["Jaccard"] - before["Jaccard"]).max()))


# --------------------------------------------------------------------------------------------
# the notes' R code, ported line by line


def r_smc(x, y):
    """The notes' R function ``SMC`` (l. 93-95): ``sum(x == y) / length(x)``.

    Examples
    --------
    >>> float(r_smc(np.array([1, 1, 1, 1]), np.array([1, 1, 0, 1])))
    0.75
    """
    return np.sum(x == y) / len(x)


def r_jaccard(x, y):
    """The notes' R function ``jaccard`` (l. 120-123), ``table(y, x)`` as a cross-tabulation.

    ``bt[2, 2] / (bt[1, 2] + bt[2, 1] + bt[2, 2])`` in R's 1-based indexing: rows ``y = 0, 1``,
    columns ``x = 0, 1``. As in R, the table only has a row and a column for the values that
    occur, so a vector without a 0 (or without a 1) raises IndexError here where R stops with
    "subscript out of bounds".

    Examples
    --------
    >>> float(r_jaccard(np.array([1, 1, 0, 0, 1, 1]), np.array([1, 1, 1, 0, 0, 1])))
    0.6
    """
    bt = pd.crosstab(y, x).to_numpy()                          # R: bt = table(y, x)
    return bt[1, 1] / (bt[0, 1] + bt[1, 0] + bt[1, 1])


def r_jaccard_outcome(x, y) -> str:
    """What :func:`r_jaccard` gives for one pair: its value, or the IndexError it raises.

    Examples
    --------
    >>> r_jaccard_outcome(np.array([1, 1, 1, 1]), np.array([1, 1, 0, 1]))
    'IndexError: index 1 is out of bounds for axis 1 with size 1'
    """
    try:
        return f"{r_jaccard(x, y):.4f}"
    except IndexError as err:
        return f"IndexError: {err}"


def FtoD(FF):  # noqa: N802 - the notes' name
    """The notes' R function ``FtoD`` (l. 144-153): ``D[ii, jj] = sqrt(FF[ii, ii] + FF[jj, jj] - 2 FF[ii, jj])``.

    Examples
    --------
    >>> FtoD(np.array([[1.0, 0.5], [0.5, 1.0]]))
    array([[0., 1.],
           [1., 0.]])
    """
    n_obj = FF.shape[0]
    D = np.empty((n_obj, n_obj))
    for ii in range(n_obj):
        for jj in range(n_obj):
            D[ii, jj] = np.sqrt(FF[ii, ii] + FF[jj, jj] - 2 * FF[ii, jj])
    return D


def smc_routes(X):
    """The SMC matrix as the notes' R code computes it, twice: ``SMC()`` over ``outer()`` and ``(p - L1) / p``.

    Returns
    -------
    F_outer : ndarray
        :func:`r_smc` of every pair of rows (l. 99-103).
    F_manhattan : ndarray
        ``(p - L1) / p`` with ``L1`` the Manhattan distances (l. 109-110, ``p`` attributes).
    L1 : ndarray
        The Manhattan distances.

    Examples
    --------
    >>> F_outer, F_manhattan, L1 = smc_routes(np.array([[1, 0, 1], [1, 1, 0]]))
    >>> F_outer[0, 1], F_manhattan[0, 1], L1.max()
    (np.float64(0.3333333333333333), np.float64(0.3333333333333333), np.float64(2.0))
    """
    X = np.asarray(X)
    n, p = X.shape
    F_outer = np.array([[r_smc(X[i], X[j]) for j in range(n)] for i in range(n)])
    L1 = squareform(pdist(X, "cityblock"))
    return F_outer, (p - L1) / p, L1


def jaccard_routes(X):
    """The Jaccard matrix as the notes' R code computes it, twice: ``jaccard()`` over ``outer()`` and ``1 - binary``.

    Returns ``(F_outer, F_binary)``: :func:`r_jaccard` of every pair of rows (l. 127-130) and
    ``1 -`` R's ``binary`` distance, which is scipy's ``jaccard`` dissimilarity (l. 134).

    Examples
    --------
    >>> F_outer, F_binary = jaccard_routes(np.array([[1, 0, 1], [1, 1, 0]]))
    >>> float(F_outer[0, 1]), float(F_binary[0, 1])
    (0.3333333333333333, 0.33333333333333337)
    """
    X = np.asarray(X)
    n = len(X)
    F_outer = np.array([[r_jaccard(X[i], X[j]) for j in range(n)] for i in range(n)])
    return F_outer, 1 - squareform(pdist(X.astype(bool), "jaccard"))


# --------------------------------------------------------------------------------------------
# Example 5: the typeset matrix, MDS and the two maps


def typeset_differences(typeset, F, names) -> pd.DataFrame:
    """The entries of a typeset matrix that differ from ``F``, with their mirror entries, as fractions.

    Examples
    --------
    >>> F = np.array([[1, 1 / 3], [1 / 3, 1]])
    >>> typeset_differences(np.array([[1, 0.5], [1 / 3, 1]]), F, ["a", "b"]).iloc[0].tolist()
    ['a', 'b', '1/2', '1/3', '1/3']
    """
    typeset, F = np.asarray(typeset, dtype=float), np.asarray(F, dtype=float)
    wrong = np.argwhere(~np.isclose(typeset, F))
    return pd.DataFrame([(names[i], names[j], as_fraction(typeset[i, j]), as_fraction(F[i, j]),
                          as_fraction(typeset[j, i])) for i, j in wrong],
                        columns=["row", "column", "typeset", "data and R output", "typeset, mirror entry"])


def sheep_as_cow(X, names, typeset) -> bool:
    """Whether the typeset Sheep column is the SMC of a Sheep given Cow's attributes (off the diagonal).

    Examples
    --------
    >>> X = np.array([[1, 0, 0, 1, 0, 1], [0, 0, 0, 1, 0, 1]])
    >>> sheep_as_cow(X, ["Cow", "Sheep"], np.array([[1, 1], [5 / 6, 1]]))
    True
    """
    X = np.asarray(X)
    sheep, cow = names.index("Sheep"), names.index("Cow")
    as_cow = X.copy()
    as_cow[sheep] = X[cow]                                        # Sheep given Cow's attributes
    S_as_cow = binary_similarity(as_cow, coefficient="simple_matching")
    others = [i for i in range(len(names)) if i != sheep]
    return bool(np.allclose(np.asarray(typeset)[others, sheep], S_as_cow[others, sheep]))


def cmdscale_routes(S: dict):
    """MDS of each similarity matrix two ways: ``classical_mds(F=F)`` and ``cmdscale(FtoD(F))`` (l. 155-158).

    scikit-learn's ``ClassicalMDS`` on :func:`FtoD` stands in for R's ``cmdscale``.

    Returns
    -------
    mds : dict
        ``{label: MDSResult}`` of ``classical_mds(F=F)`` (``B = HFH``).
    ftod_errors, cmdscale_errors : list of float
        For each matrix, ``max |FtoD(F) - similarity_to_distance(F)|`` and the largest
        ``|coordinate difference|`` of the two MDS, column signs matched.

    Examples
    --------
    >>> F = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]])
    >>> mds, ftod_errors, cmdscale_errors = cmdscale_routes({"F": F})
    >>> mds["F"].embedding.shape, bool(max(ftod_errors) < 1e-15), bool(max(cmdscale_errors) < 1e-10)
    ((3, 2), True, True)
    """
    mds, ftod_errors, cmdscale_errors = {}, [], []
    for label, F in S.items():
        ftod_errors.append(np.abs(FtoD(F) - similarity_to_distance(F)).max())
        mds[label] = classical_mds(F=F)                                                    # B = HFH (l. 42, 155)
        theirs = ClassicalMDS(n_components=2, metric="precomputed").fit_transform(FtoD(F))  # cmdscale(FtoD(F))
        signs = np.sign(np.sum(mds[label].embedding * theirs, axis=0))
        cmdscale_errors.append(np.abs(mds[label].embedding - theirs * signs).max())
    return mds, ftod_errors, cmdscale_errors


def spectrum_table(mds: dict) -> pd.DataFrame:
    """Every eigenvalue of each MDS and R's goodness of fit of two dimensions, one column per map.

    Examples
    --------
    >>> F = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]])
    >>> spectrum_table({"F": classical_mds(F=F)}).index.tolist()
    ['lambda_1', 'lambda_2', 'lambda_3', 'GOF (k = 2)']
    """
    n = len(next(iter(mds.values())).eigenvalues)
    table = pd.DataFrame({label: r.eigenvalues for label, r in mds.items()},
                         index=[f"lambda_{k + 1}" for k in range(n)])
    table.loc["GOF (k = 2)"] = [r.gof[0] for r in mds.values()]
    return table


class MapDifferences(NamedTuple):
    """How two 2-D maps of the same objects differ (:func:`map_differences`)."""

    disparity: float        #: Procrustes disparity: 0 = the same shape after the best similarity transform
    rho: float              #: Spearman rank correlation of the pairwise distances
    axis_corr: list         #: |correlation| of each coordinate between the maps
    nearest: pd.DataFrame   #: each object's nearest neighbour in each map
    changed: list           #: the objects whose nearest neighbour changes


def map_differences(E1, E2, names, labels=("SMC map", "Jaccard map")) -> MapDifferences:
    """How two 2-D maps of the same objects differ: shape, distance ranks, axes and nearest neighbours.

    The Procrustes disparity is taken after the best translation, scaling, rotation and
    reflection (``scipy.spatial.procrustes``); ``labels`` name the two maps in ``nearest``.

    Examples
    --------
    >>> E = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
    >>> d = map_differences(E, E @ [[0.0, -1.0], [1.0, 0.0]], list("abcd"))
    >>> bool(d.disparity < 1e-12), float(d.rho), d.changed, d.nearest.loc["d"].tolist()
    (True, 1.0, [], ['c', 'c'])
    """
    _, _, disparity = procrustes(E1, E2)
    rho = spearmanr(pdist(E1), pdist(E2)).statistic
    nearest = pd.DataFrame({label: [names[np.argsort(row)[1]] for row in squareform(pdist(E))]
                            for label, E in zip(labels, (E1, E2))}, index=names)
    changed = nearest.index[nearest[labels[0]] != nearest[labels[1]]].tolist()
    axis_corr = [abs(np.corrcoef(E1[:, k], E2[:, k])[0, 1]) for k in range(2)]
    return MapDifferences(disparity, rho, axis_corr, nearest, changed)


# --------------------------------------------------------------------------------------------
# MNIST (section 6.2.2)


def threshold_rules(X, threshold: float) -> dict:
    """The two binarisations of the notes: prose, 0 below ``threshold`` (l. 166), and code, 1 above it (l. 171).

    Returns ``levels`` (how many grey levels ``k / 255`` occur), ``at_threshold`` (pixels exactly
    at ``threshold``, the only ones where the rules can differ) and ``agree``.

    Examples
    --------
    >>> threshold_rules(np.array([[0.0, 0.3, 1.0]]), 0.3)
    {'levels': 3, 'at_threshold': 1, 'agree': False}
    """
    levels = np.unique(np.rint(X * 255))
    Y_prose = np.where(X < threshold, 0, 1)                        # l. 166
    Y_code = (X > threshold) * 1                                   # l. 171
    return {"levels": int(levels.size), "at_threshold": int(np.sum(X == threshold)),
            "agree": bool(np.array_equal(Y_prose, Y_code))}


def euclidean_mds_and_pca(X):
    """Classical MDS of the Euclidean distances between the rows of ``X`` and the two leading PCA scores.

    Returns ``(Z_pca, gap)``: the PCA scores with their column signs matched to the MDS
    coordinates, and the largest ``|difference|`` (l. 166: the two are the same).

    Examples
    --------
    >>> Z, gap = euclidean_mds_and_pca(np.random.default_rng(0).normal(size=(30, 4)))
    >>> Z.shape, bool(gap < 1e-10)
    ((30, 2), True)
    """
    mds = classical_mds(cdist(X, X), full_spectrum=False)
    Z_pca = PCA(n_components=2, svd_solver="full").fit_transform(X)
    Z_pca = Z_pca * np.sign(np.sum(mds.embedding * Z_pca, axis=0))
    return Z_pca, np.abs(mds.embedding - Z_pca).max()


def dist_route_error(Y, S: dict) -> float:
    """How far the notes' ``dist`` route (l. 176-179) is from ``S``: ``(p - L1) / p`` and ``1 -`` binary distance.

    Examples
    --------
    >>> Y = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    >>> bool(dist_route_error(Y, similarities(Y)) < 1e-15)
    True
    """
    p = Y.shape[1]
    F_smc = (p - squareform(pdist(Y, "cityblock"))) / p                   # l. 176-177
    F_jaccard = 1 - squareform(pdist(Y.astype(bool), "jaccard"))          # l. 178-179
    return max(np.abs(F_smc - S["SMC"]).max(), np.abs(F_jaccard - S["Jaccard"]).max())


def mnist_mds(S: dict):
    """MDS of each similarity matrix (l. 181-182), its spectrum as ``cmdscale(..., eig = TRUE)`` reports it.

    Returns
    -------
    mds : dict
        ``{label: MDSResult}`` of ``classical_mds(F=F)``.
    table : DataFrame
        The two leading eigenvalues, R's goodness of fit ``g1`` and ``g2`` of two dimensions
        and the count of negative eigenvalues, one row per matrix.
    gap : float
        The largest ``|coordinate difference|`` from scikit-learn's ``ClassicalMDS`` on the
        distances (6.6), column signs matched.

    Examples
    --------
    >>> Y = np.random.default_rng(0).integers(0, 2, size=(12, 8))
    >>> mds, table, gap = mnist_mds(similarities(Y))
    >>> table.columns.tolist()[:3], bool(gap < 1e-8)
    (['lambda_1', 'lambda_2', 'GOF g1 (k = 2)'], True)
    """
    mds, rows, gap = {}, [], 0.0
    for label, F in S.items():
        r = mds[label] = classical_mds(F=F)
        theirs = ClassicalMDS(n_components=2, metric="precomputed").fit_transform(similarity_to_distance(F))
        gap = max(gap, np.abs(r.embedding - theirs * np.sign(np.sum(r.embedding * theirs, axis=0))).max())
        rows.append({"coefficient": label, "lambda_1": r.eigenvalues[0], "lambda_2": r.eigenvalues[1],
                     "GOF g1 (k = 2)": r.gof[0], "GOF g2 (k = 2)": r.gof[1], "negative eigenvalues": r.n_negative})
    return mds, pd.DataFrame(rows).set_index("coefficient"), gap


def map_comparisons(maps: dict, pairs: dict, noise) -> pd.DataFrame:
    """Do two maps differ beyond the noise of resampling? The Procrustes disparity of each pair, with its p.

    Parameters
    ----------
    maps : dict
        ``{name: embedding}``.
    pairs : dict
        ``{key: (name, name)}``, the pairs to compare.
    noise : array
        Disparities that sampling alone produces
        (:func:`~helpers.mds.pca_resampling_disparities`).

    Returns
    -------
    DataFrame
        Indexed by ``key``: ``maps`` (in words), ``Procrustes disparity``, ``p (resampling)``
        (the share of ``noise`` at least as large, with the usual +1) and ``effect`` (the
        disparity minus the median of ``noise``: positive when the pair differs by more than
        typical noise).

    Examples
    --------
    >>> E = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
    >>> out = map_comparisons({"a": E, "b": E[::-1]}, {"a-b": ("a", "b")}, np.array([0.01, 0.02, 0.03]))
    >>> out.loc["a-b", "maps"], float(out.loc["a-b", "p (resampling)"])
    ('a vs b', 0.25)
    """
    noise = np.asarray(noise)
    rows = []
    for first, second in pairs.values():
        disparity = procrustes(maps[first], maps[second])[2]
        rows.append({"maps": f"{first} vs {second}", "Procrustes disparity": disparity,
                     "p (resampling)": (1 + np.sum(noise >= disparity)) / (len(noise) + 1),
                     "effect": disparity - np.median(noise)})
    return pd.DataFrame(rows, index=list(pairs))


def smc_mds_as_binary_pca(Y, E_smc, Z_pca):
    """MDS on the SMC is PCA of the binarised images scaled by ``sqrt(2/p)``; how far that is from the grey PCA.

    For 0/1 vectors ``2 - 2 SMC(x, y) = 2 |x - y|^2 / p``, so the distances (6.6) of the SMC are
    Euclidean distances between the binarised rows scaled by ``sqrt(2/p)``.

    Returns
    -------
    gap : float
        ``max |E_smc - sqrt(2/p) PCA(Y)|``, column signs matched.
    binary_vs_grey : float
        The Procrustes disparity of the PCA map of ``Y`` from ``Z_pca``.

    Examples
    --------
    >>> Y = np.random.default_rng(1).integers(0, 2, size=(15, 6))
    >>> E = classical_mds(F=similarities(Y)["SMC"]).embedding
    >>> gap, _ = smc_mds_as_binary_pca(Y, E, E)
    >>> bool(gap < 1e-10)
    True
    """
    p = Y.shape[1]
    Z_binary = PCA(n_components=2, svd_solver="full").fit_transform(Y.astype(float))
    scaled = np.sqrt(2 / p) * Z_binary
    gap = np.abs(E_smc - scaled * np.sign(np.sum(E_smc * scaled, axis=0))).max()
    return gap, procrustes(Z_binary, Z_pca)[2]


# --------------------------------------------------------------------------------------------
# the workbook's own observation: the shortcut D = 1 - S


def shortcut_spectra(sets: dict) -> pd.DataFrame:
    """MDS with the distances (6.6) and with the shortcut ``1 - S``: negative eigenvalues and goodness of fit.

    Parameters
    ----------
    sets : dict
        ``{data: {coefficient: S}}``.

    Returns
    -------
    DataFrame
        Indexed by data, coefficient and distance rule: the count of negative eigenvalues,
        their share of ``sum |lambda|``, and R's ``g1``, ``g2`` of two dimensions.

    Examples
    --------
    >>> C, _ = cosine_checks(np.random.default_rng(0).uniform(size=(6, 3)))
    >>> spectra = shortcut_spectra({"toy": {"cosine": C}})
    >>> spectra["negative eigenvalues"].tolist()
    [0, 3]
    """
    rows = []
    for data, sims in sets.items():
        for label, F in sims.items():
            for rule, D in [("(6.6)", similarity_to_distance(F)), ("1 - S", 1 - F)]:
                r = classical_mds(D, n_components=2)
                rows.append({"data": data, "coefficient": label, "distance": rule, "negative eigenvalues": r.n_negative,
                             "share of |spectrum| negative": r.negative_share, "GOF g1": r.gof[0], "GOF g2": r.gof[1]})
    return pd.DataFrame(rows).set_index(["data", "coefficient", "distance"])
