"""Example 5 (the typeset matrix, MDS, the two maps), MNIST (section 6.2.2) and the shortcut D = 1 - S."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.manifold import ClassicalMDS

from ...binary import binary_similarity
from ...mds import (
    classical_mds,
    similarity_to_distance,
)
from .data import as_fraction
from .r_code import FtoD

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


# --------------------------------------------------------------------------------------------
# MNIST (section 6.2.2)


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
    >>> from helpers.studies.lecture_notes_6_2 import similarities
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
    >>> from helpers.studies.lecture_notes_6_2 import cosine_checks
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
