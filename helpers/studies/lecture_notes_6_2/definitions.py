"""Section 6.2's definitions checked: the route D -> B -> Z, Definition 6.4, the cosine, Proposition 6.2
and its proof, binary attributes."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.spatial.distance import pdist, squareform
from sklearn.metrics.pairwise import cosine_similarity

from ...binary import binary_counts
from ...display import rounding_level
from ...mds import (
    check_similarity_matrix,
    double_center,
    proposition_6_2_residuals,
)
from .data import similarities

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
        return rounding_level(steps.loc[step].abs().max(), 1e-10)

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
                            f"{rounding_level(steps.loc['min eigenvalue of HFH'].min(), 1e-10)}); "
                            "D then Euclidean (row (6.6) above)")
    return answers


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
