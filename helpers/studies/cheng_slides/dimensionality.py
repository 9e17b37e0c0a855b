"""Notebook 01 (slides lines 921-1243): k-means and the choice of K, the curse of dimensionality, PCA,
eigenfaces, the bird example."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.neighbors import NearestNeighbors

from ...clustering import kmeans_alpha_table, pham_f
from ...display import at_printed_digits
from ...metrics import minkowski
from .tables import answer, truncation_note

# ------------------------------------------------------------------------------------------
# 01, section 1: k-means and the choice of K (lines 921-982)


def lloyd_claims(X, k: int = 3, random_state: int = 0) -> dict:
    """Lines 923-958 with ``KMeans(init="random", algorithm="lloyd")``: the objective, and the fixed point.

    Returns ``{"objective": answer, "algorithm": answer}``.

    Examples
    --------
    >>> from helpers.studies.cheng_slides import athletes
    >>> answers = lloyd_claims(athletes(extended=True).X)
    >>> answers["objective"]["holds"], answers["algorithm"]["holds"]
    (True, True)
    """
    X = np.asarray(X, float)
    km = KMeans(k, init="random", n_init=1, algorithm="lloyd", random_state=random_state).fit(X)
    own = ((X - km.cluster_centers_[km.labels_]) ** 2).sum()
    nearest_centre = np.argmin(minkowski(X, km.cluster_centers_, 2), axis=1)
    means = np.array([X[km.labels_ == c].mean(0) for c in range(k)])
    return {"objective": answer(np.isclose(own, km.inertia_),
                                 f"sum of ||x - mu_i||^2 by hand = KMeans' inertia = {km.inertia_:.4f} (K = {k}, "
                                 "athletes)"),
            "algorithm": answer((nearest_centre == km.labels_).all() and np.allclose(means, km.cluster_centers_),
                                 "at convergence every athlete is assigned to its closest centre and every centre is "
                                 "its cluster's mean", how="scikit-learn's KMeans(init='random', algorithm='lloyd')")}


def alpha_tables(data: dict, k_max: int, n_init: int, random_state: int) -> dict:
    """For each data set: ``S_K``, the slides' ``alpha_K`` and its slope, and Pham et al.'s ``f(K)``, K = 1..k_max.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> blobs = make_blobs(60, centers=[[0, 0], [6, 0], [3, 5]], cluster_std=0.6, random_state=0)[0]
    >>> t = alpha_tables({"blobs": blobs}, 4, 10, 0)["blobs"]
    >>> t.columns.tolist(), int(t["f_K (Pham et al.)"].idxmin())
    (['S_K', 'alpha_K', 'slope_K', 'f_K (Pham et al.)'], 3)
    """
    tables = {}
    for name, X in data.items():
        table = kmeans_alpha_table(X, k_max, n_init, random_state)
        table["f_K (Pham et al.)"] = pham_f(table["S_K"], np.asarray(X).shape[1])
        tables[name] = table
    return tables


def alpha_claims(X, tables: dict, choice: pd.DataFrame, n_init: int, random_state: int,
                 name: str = "21 athletes", control: str = "3 blobs") -> dict:
    """Lines 965-968: ``S_K`` falls with ``K``; ``alpha_K = S_K / K``; the rule finds the control's three clusters.

    ``choice`` holds the ``K`` the rule selects (:func:`~helpers.clustering.select_k_by_alpha`):
    one row per tolerance (the index), one column per data set of ``tables``. Returns
    ``{"decreasing": answer, "alpha": answer, "alpha-rule": answer}``.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from helpers.clustering import select_k_by_alpha
    >>> from helpers.studies.cheng_slides import athletes
    >>> X = athletes(extended=True).X
    >>> blobs = make_blobs(60, centers=[[0, 0], [6, 0], [3, 5]], cluster_std=0.6, random_state=0)[0]
    >>> tables = alpha_tables({"21 athletes": X, "3 blobs": blobs}, 10, 10, 0)
    >>> choice = pd.DataFrame({name: [select_k_by_alpha(t["S_K"], tol) for tol in (0.01, 0.2)]
    ...                        for name, t in tables.items()}, index=[0.01, 0.2])
    >>> answers = alpha_claims(X, tables, choice, 10, 0)
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
        "decreasing": answer(np.all(np.diff(S) < 0), f"S_K of the athletes falls at every step, K = 1..{len(S)}: "
                                                      f"{S[0]:.1f} to {S[-1]:.1f}"),
        "alpha": answer(np.isclose(alpha, tables[name].loc[k, "alpha_K"]),
                         f"alpha_{k} of the athletes from the clusters by hand = {alpha:.4f} = S_{k} / {k}"),
        "alpha-rule": answer((choice[control] == 3).all(),
                              f"the rule picks K = 3 for the three blobs at every tolerance {tolerances}; for the "
                              f"athletes it picks K = {choice[name].tolist()}: the choice follows the tolerance, not "
                              "the data", how="the slides' 'small number' read as a fraction of alpha_1 (they give no "
                                              "scale)"),
    }


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
    >>> from helpers.data import load_lfw_faces
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
    >>> from helpers.data import load_lfw_faces
    >>> pca = face_pca(*load_lfw_faces())
    >>> max_variance_claim(pca, random_unit_directions(50, pca.n, 0))["holds"]
    True
    """
    C = pca.AtA / (pca.m - 1)
    along = np.einsum("ij,jk,ik->i", directions, C, directions)
    top = pca.eigenvalues[0] / (pca.m - 1)
    return answer(along.max() <= top,
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
    return answer(not square_only, f"numpy refuses the eigenvectors of a 2 x 3 matrix ('{message}'); Av and lambda v "
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
        "eigen-left": answer(np.allclose(v @ B, lam.max() * v),
                              f"for B = {written} the eigenvector v = {np.round(v, 3).tolist()} of lambda = "
                              f"{lam.max():g} gives v'B = {np.round(v @ B, 3).tolist()}, not {lam.max():g} v' = "
                              f"{np.round(lam.max() * v, 3).tolist()}: v'A = lambda v' defines left eigenvectors, the "
                              f"same v only for symmetric A (holds for B + B': "
                              f"{np.allclose(V_s[:, 1] @ Bs, lam_s[1] * V_s[:, 1])}), the case of A'A"),
        "eigen-scaling": answer(all(np.allclose(B @ (s * v), lam.max() * (s * v)) for s in (-2.5, 0.1, 7.0)),
                                 "B (s v) = lambda (s v) for s = -2.5, 0.1, 7; numpy returns unit-length eigenvectors"),
        "aq": answer((A @ Q).shape == (Q @ np.diag(np.ones(3))).shape,
                      f"AQ = Q Lambda holds for a square A (for B: {np.allclose(B @ V, V * lam)}); for an m x n A "
                      "with m != n, AQ is m x n and Q Lambda n x n, so A must be n x n, not m x n"),
    }


def decomposition_claims(pca: FacePCA) -> dict:
    """Lines 1119-1170 on the faces: ``Q Lambda Q'``, the SVD and its link to ``A'A``, the covariance, PCA.

    Returns answers keyed ``spectral``, ``svd``, ``svd-ata``, ``svd-aat``, ``ata-covariance``,
    ``decomposition``, ``projection`` (the ledger keys after ``pca.``).

    Examples
    --------
    >>> from helpers.data import load_lfw_faces
    >>> answers = decomposition_claims(face_pca(*load_lfw_faces()))
    >>> [name for name, a in answers.items() if not a["holds"]]    # as printed; the ledger reads both as slips
    ['svd-ata', 'ata-covariance']
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
        "spectral": answer(np.allclose(Q * lam @ Q.T, AtA) and np.allclose(Q @ Q.T, np.eye(n)),
                            f"A'A of the faces ({n} x {n}) = Q Lambda Q' to rounding error, with Q orthogonal"),
        "svd": answer(np.allclose(U @ D @ Vt, A) and np.allclose(U @ U.T, np.eye(m))
                       and np.allclose(Vt @ Vt.T, np.eye(n)),
                       f"A ({m} x {n}) = U D V' with U {U.shape[0]} x {U.shape[1]} and V {Vt.shape[0]} x {Vt.shape[1]} "
                       f"orthogonal and D {m} x {n} diagonal"),
        "svd-ata": answer(m == n and np.allclose(Vt.T @ (D.T @ D) @ Vt, AtA),
                           f"as printed, neither V D U' nor D^2 is defined for the m x n D of line 1131 (the faces: "
                           f"{m} x {n}); read as V (D'D) V' it holds: A'A = V (D'D) V' to rounding error "
                           f"({np.allclose(Vt.T @ (D.T @ D) @ Vt, AtA)}), its eigenvalues the squared singular values "
                           f"({np.allclose(d_sv ** 2, lam[:m])})"),
        "svd-aat": answer(np.allclose(U @ (D @ D.T) @ U.T, A @ A.T), "AA' = U (DD') U' for the faces"),
        "ata-covariance": answer(np.allclose(AtA, cov),
                                  f"A'A = (m - 1) x the covariance of line 904 (ratio "
                                  f"{np.trace(AtA) / np.trace(cov):.0f} for the faces); the eigenvectors are the same "
                                  "and the eigenvalues scale by m - 1, so PCA is unaffected"),
        "decomposition": answer(same_dirs and np.allclose(full.explained_variance_[: m - 1] * (m - 1), lam[: m - 1])
                                 and np.all(np.diff(lam) <= 1e-9),
                                 "scikit-learn's PCA components are the eigenvectors of A'A (up to sign), its "
                                 "variances the eigenvalues / (m - 1), sorted decreasingly"),
        "projection": answer(np.allclose(A @ Qk, full.transform(pca.faces)[:, :10]),
                              f"y' = (x - mean)' Q equals PCA.transform for the first 10 components of the {m} faces"),
    }


def threshold_answers(pca: FacePCA, share: float):
    """Lines 1196-1202, the eigenvalue share: which sums make a share of the total, and the ``k`` it selects.

    Returns ``(k, {"lambda-bar": answer, "threshold": answer})``: ``k`` is the smallest number
    of leading eigenvalues whose share exceeds ``share``; the answers are number answers
    (``(value, {"note": ...})``) for the ledger keys ``faces.lambda-bar`` and ``faces.threshold``.

    Examples
    --------
    >>> from helpers.data import load_lfw_faces
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
    >>> from helpers.data import load_lfw_faces
    >>> eigenface_shortcut_claim(face_pca(*load_lfw_faces()))["holds"]
    True
    """
    u1 = np.linalg.eigh(pca.A @ pca.A.T)[1][:, -1]
    v = pca.A.T @ u1 / np.linalg.norm(pca.A.T @ u1)
    r, c = pca.shape
    return answer(np.isclose(abs(v @ pca.Q[:, 0]), 1) and pca.Q.shape[0] == r * c,
                   f"each eigenvector of A'A has n = {r} x {c} = {r * c} intensities; the first is also A'u / |A'u| "
                   f"from the {pca.m} x {pca.m} matrix AA' (the usual shortcut when m << n)")


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
    >>> from helpers.data import load_lfw_faces
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
    >>> from helpers.data import load_lfw_faces
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
    return answer((table.loc[recognisable, f"k = {k}"] >= level).all(),
                   f"wherever raw pixels retrieve at least {level:.0%} of the copies, so do the k = {k} eigenface "
                   "coefficients; eigenfaces / pixels: "
                   + ", ".join(f"{kind} {amt}: {v:.0%} / {px:.0%}"
                               for (kind, amt), v, px in zip(table.index, table[f"k = {k}"], table[pixels])),
                   how="retrieval of perturbed copies of the 100 training faces (no identity labels)")


# ------------------------------------------------------------------------------------------
# 01, section 5: the bird example (lines 1218-1243)


def eigenvalue_answers(lam, printed, matrix_decimals: int = 2) -> dict:
    """The eigenvalues against their prints on one line, ``{"lambda1": value, ...}``, with notes where they miss.

    A value that does not round to its print but would truncate to it comes as ``(value,
    {"note": ...})``: a :func:`~.tables.truncation_note` with the other eigenvalues as the evidence
    of how the line prints, and what the matrix's own rounding allows; where that rounding could
    give the print, the answer carries it as the comparison's tolerance (``"tol"``). Entries printed to
    ``matrix_decimals`` digits are off by at most half a unit, so an ``n x n`` symmetric error
    ``E`` has ``||E||_2 <= n`` half-units and, by Weyl's inequality, moves each eigenvalue by at
    most that much.

    Examples
    --------
    >>> answers = eigenvalue_answers([1626.5264, 128.9861, 7.0975], ["1626.52", "128.99", "7.10"])
    >>> answers["lambda2"]
    128.9861
    >>> print(answers["lambda1"][1]["note"])  # doctest: +NORMALIZE_WHITESPACE
    ours 1626.5264 rounds to 1626.53; truncated it would print 1626.52, but that is a hypothesis: the same slide
    rounds lambda_2 = 128.9861 to 128.99 (truncated: 128.98), and lambda_3 = 7.0975 to 7.10 (truncated: 7.09); the
    matrix printed to 2 decimals moves each eigenvalue by at most 0.015 (Weyl), so unrounded data could also give
    the print
    >>> answers["lambda1"][1]["tol"]
    0.015
    """
    lam = [float(v) for v in lam]
    if len(lam) != len(printed):
        raise ValueError(f"{len(lam)} eigenvalues for {len(printed)} printed values ({'; '.join(printed)})")
    reach = len(lam) * 0.5 * 10.0 ** -matrix_decimals
    out = {}
    for i, (value, text) in enumerate(zip(lam, printed)):
        out[f"lambda{i + 1}"] = value
        digits, rounded, cut = at_printed_digits(value, text)
        if rounded == text.strip() or cut != text.strip():
            continue
        same = {f"lambda_{j + 1}": (v, t) for j, (v, t) in enumerate(zip(lam, printed)) if j != i}
        half = 0.5 * 10.0 ** -digits
        within = abs(value - float(text)) < reach + half
        note = (f"{truncation_note(value, text, same)}; the matrix printed to {matrix_decimals} decimals moves each "
                f"eigenvalue by at most {reach:g} (Weyl), so unrounded data {'could also' if within else 'could not'} "
                "give the print")
        # within the reach of the inputs' own rounding, the print is compared with that tolerance
        out[f"lambda{i + 1}"] = (value, {"note": note, **({"tol": reach} if within else {})})
    return out


def bird_claims(features, V, v1_corr) -> dict:
    """Lines 1236-1244: weight (the largest entry of ``v1``) is the most significant feature, wingspan the next; ``v2``.

    Returns ``{"weight-most": answer, "wingspan-next": answer, "v2-stoutness": answer}``, with
    ``v1`` of the correlation matrix in the evidence. ``v2`` marks stout birds (a small wingspan
    for a large weight, line 1244) when wingspan and weight enter it with opposite signs.

    Examples
    --------
    With the eigenvectors printed on line 1234 as the columns of ``V``, and ``v1`` of the
    correlation matrix:

    >>> V = np.array([[0.22, 0.25, 0.97], [0.41, 0.85, -0.32], [0.88, -0.46, -0.08]])
    >>> claims = bird_claims(["length", "wingspan", "weight"], V, [0.594, 0.576, 0.561])
    >>> {k: a["holds"] for k, a in claims.items()}
    {'weight-most': True, 'wingspan-next': True, 'v2-stoutness': True}
    """
    features = list(features)
    v1, v2 = V[:, 0], V[:, 1]
    wing, weight = features.index("wingspan"), features.index("weight")
    return {
        "weight-most": answer(features[np.argmax(v1)] == "weight",
                               f"v1 = {np.round(v1, 3).tolist()} (length, wingspan, weight); on the correlation scale "
                               f"v1 = {np.round(v1_corr, 3).tolist()}: nearly equal weights, weight the smallest"),
        "wingspan-next": answer(features[np.argsort(v1)[-2]] == "wingspan",
                                 f"wingspan {v1[1]:.3f} > length {v1[0]:.3f} in v1 of A'A; on the correlation scale "
                                 f"length {v1_corr[0]:.3f} > wingspan {v1_corr[1]:.3f}"),
        "v2-stoutness": answer(np.sign(v2[wing]) != np.sign(v2[weight]),
                                f"v2 = {np.round(v2, 3).tolist()}: wingspan and weight enter with opposite signs, so "
                                "birds at its negative end have a small wingspan for their weight (stout); v2 is "
                                "orthogonal to v1, so it sorts birds by shape, whatever their size"),
    }
