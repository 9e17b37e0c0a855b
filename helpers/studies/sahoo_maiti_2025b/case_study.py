"""The kernel as defined (Eqs. 18-19, 31-34), random splits with four metrics, Table 1 (sections 5.3-5.4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ...comparisons import accuracy_difference, comparison_evidence
from ...display import at_printed_digits
from ...effects import resampled_difference
from ...estimators import ExpectedWhitener, Whitener
from ...evaluation import repeated_split_scores
from ...svm import svc_loocv_predict
from ...whitening import (
    class_whitening_matrices,
    expected_whitening_matrix,
    transform_by_class,
)
from ..sahoo_maiti_2025a import (
    SplitProtocol,
    population_split_scores,
)
from .kernels import KERNELS, PAPER_METRICS, eq29_by_hand

# --------------------------------------------------------------------------------------------
# Section 5.3: the kernel as defined, Eqs. 18-19 and 31-34


class KernelCheck(NamedTuple):
    """Eqs. 18 and 31 as Gram matrices: their spectra, and what can and cannot be done with them."""

    spectra: pd.DataFrame          #: per matrix: rows, trace, positive and negative eigenvalues, smallest / largest
    centred_gap: float             #: -1/2 J K J against the centred linear kernel (largest relative difference)
    gamma: float                   #: scikit-learn's gamma="scale" of the E(C^-1)-transformed rows
    gauss_min: float               #: smallest eigenvalue of exp(-gamma K), Eq. 31's K
    precomputed_accuracy: float    #: test accuracy of an SVC handed Eq. 31's matrix as its kernel
    n: int                         #: training rows


def kernel_check(X_train, y_train, X_test, y_test, matrices: Mapping, E) -> KernelCheck:
    """Eq. 18 within each class (with its own factor, ``matrices``) and Eq. 31 on all training rows (``E``).

    Both are matrices of squared distances between transformed rows: zero diagonal, so their
    eigenvalues sum to zero and cannot all be non-negative. Also built from Eq. 31's matrix:
    the double-centred :math:`-\\tfrac12 JKJ` (the linear kernel of the centred transformed rows)
    and the Gaussian :math:`\\exp(-\\gamma K)`, both valid kernels.

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> from helpers.studies.sahoo_maiti_2025b import two_options
    >>> split = wdbc_split()
    >>> options = two_options(split)
    >>> mats = class_whitening_matrices(split.X_train, split.y_train)
    >>> kc = kernel_check(split.X_train, split.y_train, split.X_test, split.y_test, mats, options.expected)
    >>> kc.spectra["negative eigenvalues"].tolist(), kc.centred_gap < 1e-12, round(kc.precomputed_accuracy, 3)
    ([31, 31, 31], True, 0.281)
    """
    y_train = np.asarray(y_train)
    Z_train_e = X_train @ E.T
    grams = {f"Eq. 18, {word} rows (own factor)": cdist(X_train[y_train == cl] @ matrices[cl].T,
                                                        X_train[y_train == cl] @ matrices[cl].T, "sqeuclidean")
             for cl, word in ((0, "benign"), (1, "malignant"))}
    grams["Eq. 31, all training rows (E(C^-1))"] = cdist(Z_train_e, Z_train_e, "sqeuclidean")
    spectra = {}
    for name, K in grams.items():
        ev = np.linalg.eigvalsh(K)
        tol = 1e-9 * np.abs(ev).max()
        spectra[name] = {"rows": len(K), "trace": np.trace(K), "positive eigenvalues": int(np.sum(ev > tol)),
                         "negative eigenvalues": int(np.sum(ev < -tol)),
                         "smallest / largest eigenvalue": ev[0] / ev[-1]}
    K31 = grams["Eq. 31, all training rows (E(C^-1))"]
    n = len(K31)
    J = np.eye(n) - 1.0 / n
    centred = Z_train_e - Z_train_e.mean(axis=0)
    gap = np.abs(-0.5 * J @ K31 @ J - centred @ centred.T).max() / np.abs(centred @ centred.T).max()
    gamma = 1.0 / (Z_train_e.shape[1] * Z_train_e.var())                 # scikit-learn's gamma="scale"
    gauss_min = np.linalg.eigvalsh(np.exp(-gamma * K31))[0]
    K31_test = cdist(X_test @ E.T, Z_train_e, "sqeuclidean")
    accuracy = SVC(kernel="precomputed").fit(K31, y_train).score(K31_test, y_test)
    return KernelCheck(pd.DataFrame.from_dict(spectra, orient="index"), float(gap), float(gamma), float(gauss_min),
                       float(accuracy), n)


def eq19_versus_optiona(X_train, y_train, X_test, y_test, matrices: Mapping) -> dict:
    """Option A's :math:`\\Omega^\\top\\Omega` against Eq. 19's, pair by pair (test row, training row).

    Eq. 19 uses one factor :math:`\\Psi_{y=k}^{-1}` for both points (here k = the training
    row's class); Option A gives each row its own class's factor.

    Returns
    -------
    dict
        ``cross_share`` (share of pairs of different classes), ``cross_ratio_median`` (Option A's
        squared distance over Eq. 19's on those pairs), ``cross_max_deviation`` and
        ``same_max_deviation`` (largest |ratio - 1| on different- and same-class pairs).

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> split = wdbc_split()
    >>> r = eq19_versus_optiona(split.X_train, split.y_train, split.X_test, split.y_test,
    ...                         class_whitening_matrices(split.X, split.y))
    >>> round(r["cross_share"], 2), round(r["cross_ratio_median"], 1), r["same_max_deviation"] < 1e-9
    (0.47, 14.5, True)
    """
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    d2_optiona = cdist(transform_by_class(X_test, y_test, matrices), transform_by_class(X_train, y_train, matrices),
                       "sqeuclidean")
    d2_eq19 = np.empty_like(d2_optiona)                                   # Eq. 19: k = the training row's class
    for cl, W in matrices.items():
        cols = y_train == cl
        d2_eq19[:, cols] = cdist(X_test @ W.T, X_train[cols] @ W.T, "sqeuclidean")
    cross = y_test[:, None] != y_train[None, :]
    ratio = d2_optiona / d2_eq19
    return {"cross_share": float(cross.mean()), "cross_ratio_median": float(np.median(ratio[cross])),
            "cross_max_deviation": float(np.abs(ratio[cross] - 1).max()),
            "same_max_deviation": float(np.abs(ratio[~cross] - 1).max())}


def eq33_against_constraint(X_train, y_train, E, method="cholesky", covariance="sample") -> dict:
    """Is Eq. 33's :math:`E(S^{-1})` the matrix the constraint of Eq. 34 implies, :math:`E(C^{-1})^\\top E(C^{-1})`?

    With :math:`S_k^{-1} = C_k^{-\\top}C_k^{-1}` and :math:`D = C_1^{-1} - C_0^{-1}`, the two differ by
    exactly :math:`p(1-p)D^\\top D`.

    Returns
    -------
    dict
        ``differences``: relative Frobenius differences (a check against inverted sample
        covariances, E(S^-1) against E(C^-1)'E(C^-1) and E(C^-1)E(C^-1)', and the identity
        with p(1-p)D'D); ``ratio_min``, ``ratio_max``: the range of
        :math:`\\theta^\\top E(S^{-1})\\theta / \\theta^\\top E(C^{-1})^\\top E(C^{-1})\\theta`.

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> X, y, X_train, X_test, y_train, y_test = wdbc_split()
    >>> out = eq33_against_constraint(X_train, y_train, expected_whitening_matrix(X_train, y_train))
    >>> d = out["differences"]
    >>> round(d["E(S^-1) vs E(C^-1)' E(C^-1)"], 2), d["difference vs p(1 - p) D'D (identity)"] < 1e-12
    (0.14, True)
    >>> round(out["ratio_min"], 2), round(out["ratio_max"], 2)
    (1.0, 4.6)
    """
    y_train = np.asarray(y_train)
    p1, _ = eq29_by_hand(X_train, y_train, method, covariance)
    W = class_whitening_matrices(X_train, y_train, method=method, covariance=covariance)
    ES = p1 * W[1].T @ W[1] + (1 - p1) * W[0].T @ W[0]                    # E(S^-1), S_k^-1 = C_k^-T C_k^-1
    S_inv = {cl: np.linalg.inv(np.cov(X_train[y_train == cl], rowvar=False)) for cl in (0, 1)}

    def rel(a, b):
        return float(np.linalg.norm(a - b) / np.linalg.norm(a))

    D = W[1] - W[0]
    differences = {"E(S^-1) vs p S_1^-1 + (1 - p) S_0^-1 (check)": rel(ES, p1 * S_inv[1] + (1 - p1) * S_inv[0]),
                   "E(S^-1) vs E(C^-1)' E(C^-1)": rel(ES, E.T @ E),
                   "E(S^-1) vs E(C^-1) E(C^-1)'": rel(ES, E @ E.T),
                   "difference vs p(1 - p) D'D (identity)": rel(ES - E.T @ E, p1 * (1 - p1) * D.T @ D)}
    L = np.linalg.cholesky(E.T @ E)
    ratio = np.linalg.eigvalsh(np.linalg.solve(L, np.linalg.solve(L, ES).T))
    return {"differences": differences, "ratio_min": float(ratio.min()), "ratio_max": float(ratio.max())}


# --------------------------------------------------------------------------------------------
# Section 5.4: random splits, four metrics


def svm_models(method="cholesky", covariance="sample", kernels: Sequence[str] = KERNELS) -> dict:
    """The SVCs compared over random splits; every transform is fitted on the training rows.

    The raw kernels of Figs. 2-4, Option B (:math:`E(C^{-1})` then a linear SVC), a linear SVC
    after whitening with one pooled covariance, and the linear and RBF SVCs on standardised
    rows (the usual practice).

    Examples
    --------
    >>> list(svm_models())  # doctest: +NORMALIZE_WHITESPACE
    ['linear', 'rbf', 'poly', 'sigmoid', 'expected_cholesky', 'whitened_linear', 'standardised_linear',
     'standardised_rbf']
    """
    return {
        **{kern: SVC(kernel=kern) for kern in kernels},
        "expected_cholesky": make_pipeline(ExpectedWhitener(method, covariance), SVC(kernel="linear")),
        "whitened_linear": make_pipeline(Whitener(method, covariance), SVC(kernel="linear")),
        "standardised_linear": make_pipeline(StandardScaler(), SVC(kernel="linear")),
        "standardised_rbf": make_pipeline(StandardScaler(), SVC(kernel="rbf")),
    }


def svm_split_sweep(models: Mapping, X, y, protocol: SplitProtocol | None = None,
                    metrics: Sequence[str] = PAPER_METRICS) -> dict[str, dict[str, np.ndarray]]:
    """Each metric of each model over the same stratified random splits, and Option A beside them.

    The splits, processes and Option A's whitening are those of ``protocol``
    (:class:`~helpers.studies.sahoo_maiti_2025a.SplitProtocol`, the cosine paper's, by default
    its defaults; the models carry their own whitening). Option A (the population protocol
    with a linear SVC, which reads the test labels) is run with class factors from all rows
    (``population_cholesky``) and from each split's training rows
    (``population_cholesky_train_matrices``).

    Returns
    -------
    dict of {metric: {model: ndarray of shape (n_splits,)}}

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> split = wdbc_split()
    >>> by_metric = svm_split_sweep({"rbf": SVC()}, split.X, split.y, SplitProtocol(n_splits=2), ("accuracy",))
    >>> {name: s.round(3).tolist() for name, s in by_metric["accuracy"].items()}  # doctest: +NORMALIZE_WHITESPACE
    {'rbf': [0.939, 0.947], 'population_cholesky': [1.0, 1.0], 'population_cholesky_train_matrices': [1.0, 1.0]}
    """
    metrics = tuple(metrics)
    protocol = protocol or SplitProtocol()
    scores = repeated_split_scores(models, X, y, n_splits=protocol.n_splits, test_size=protocol.test_size,
                                   random_state=protocol.random_state, n_jobs=protocol.n_jobs, scoring=metrics)
    for source, name in (("all", "population_cholesky"), ("train", "population_cholesky_train_matrices")):
        scores[name] = population_split_scores(SVC(kernel="linear"), X, y, protocol, matrices_from=source,
                                               scoring=metrics)
    return {m: {name: s[m] for name, s in scores.items()} for m in metrics}


def protocol_comparisons(first: str, others: Sequence[str], *, loo: tuple | None = None,
                         fold_scores: Mapping | None = None, split: tuple | None = None, n_resamples: int = 9999,
                         random_state: int = 0) -> dict[str, dict]:
    """``first`` against each of ``others`` under each protocol given: LOOCV, k-fold CV, one split.

    LOOCV and the split give one prediction per row: :func:`helpers.comparisons.accuracy_difference`
    (the paired bootstrap of the accuracy difference, rows resampled in pairs), with the
    discordant counts and the exact McNemar p beside it. k-fold CV gives one accuracy per fold:
    :func:`helpers.effects.resampled_difference` with ``n_test / n_train = 1 / (k - 1)``.

    Parameters
    ----------
    loo : (y, {model: predictions}), optional
        The true labels of all rows and each model's leave-one-out prediction of each row.
    fold_scores : dict of {model: accuracies}, optional
        Each model's accuracy on each of the k folds.
    split : (y_test, {model: predictions}), optional
        The true labels of the test rows and each model's predictions of them.

    Returns
    -------
    dict of {"protocol: first vs other": effect dict}; the paired ones also hold
    ``right_wrong`` (rows ``first`` gets right and ``other`` wrong, and the reverse).

    Examples
    --------
    >>> y = np.r_[np.zeros(30, int), np.ones(30, int)]
    >>> good, bad = y.copy(), y.copy()
    >>> bad[:12] = 1
    >>> c = protocol_comparisons("a", ["b"], loo=(y, {"a": good, "b": bad}),
    ...                          fold_scores={"a": [1.0, 0.9, 1.0], "b": [0.8, 0.8, 0.9]}, n_resamples=999)
    >>> list(c), c["LOOCV: a vs b"]["right_wrong"], round(c["LOOCV: a vs b"]["effect"], 2)
    (['LOOCV: a vs b', '3-fold: a vs b'], (12, 0), 0.2)
    """
    for name, given in (("loo", loo), ("split", split)):
        if given is not None and not (isinstance(given, tuple) and len(given) == 2):
            raise ValueError(f"{name} must be a pair (true labels, {{model: predictions}}), e.g. "
                             f"{name}=(y, predictions); got {type(given).__name__}")
    out = {}
    for other in others:
        if loo is not None:
            y, predictions = loo
            out[f"LOOCV: {first} vs {other}"] = _paired(y, predictions[first], predictions[other], n_resamples,
                                                        random_state)
        if fold_scores is not None:
            k = len(fold_scores[first])
            out[f"{k}-fold: {first} vs {other}"] = resampled_difference(fold_scores[first], fold_scores[other],
                                                                         1 / (k - 1))
        if split is not None:
            y_test, predictions = split
            out[f"80:20 split: {first} vs {other}"] = _paired(y_test, predictions[first], predictions[other],
                                                              n_resamples, random_state)
    if not out:
        raise ValueError("give at least one protocol: loo=, fold_scores= or split=")
    return out


def _paired(y_true, pred_a, pred_b, n_resamples, random_state) -> dict:
    """:func:`helpers.comparisons.accuracy_difference`, its two counts as ``right_wrong``, its test named."""
    e = accuracy_difference(y_true, pred_a, pred_b, n_resamples, random_state)
    return {"effect": e["effect"], "interval": e["interval"], "n": e["n"], "method": e["method"] + "; p: exact McNemar",
            "right_wrong": (e["a_only"], e["b_only"]), "p": e["p"]}


def advantage_evidence(comparisons: Mapping[str, dict], words: str, n_splits: int, split_table=None,
                       metric_names: Sequence[str] = (), pairs: Sequence[tuple[str, str]] = ()) -> str:
    """The evidence of a claimed advantage over random splits, in words, with our 80:20 split beside it.

    Parameters
    ----------
    comparisons : dict
        From :func:`helpers.comparisons.sweep_comparisons`.
    words : str
        What is compared, for the reader.
    n_splits : int
        The splits the comparisons are over.
    split_table : DataFrame, optional
        Each model's metrics on the 80:20 split (index: model); with ``metric_names`` and
        ``pairs``, the values of the pairs on the split are added (those the table holds).

    Examples
    --------
    >>> c = {"accuracy: b vs a": {"effect": 0.0049, "interval": (-0.0146, 0.0244), "wins": 27, "losses": 13}}
    >>> st = pd.DataFrame({"accuracy": [0.956, 0.965]}, index=["a", "b"])
    >>> text = advantage_evidence(c, "b vs a", 50, st, ["accuracy"], [("b", "a")])
    >>> text.split(". ")  # doctest: +NORMALIZE_WHITESPACE
    ['b vs a, mean difference over 50 splits [95% interval]: "accuracy: b vs a" +0.005 [-0.015, +0.024] (27 wins, 13
     losses)', 'On our 80:20 split: accuracy b 0.965 vs a 0.956']
    """
    text = f"{words}, mean difference over {n_splits} splits [95% interval]: {comparison_evidence(comparisons)}"
    if split_table is not None:
        on_split = [f"{m} {a} {split_table.loc[a, m]:.3f} vs {b} {split_table.loc[b, m]:.3f}"
                    for m in metric_names for a, b in pairs if a in split_table.index and b in split_table.index]
        if on_split:
            text += ". On our 80:20 split: " + "; ".join(on_split)
    return text


def advantage_claim(comparisons: Mapping[str, dict], metric_names: Sequence[str], pairs: Sequence[tuple[str, str]],
                    words: str, n_splits: int, split_table=None) -> dict:
    """The answer to a claimed advantage that needs every pair on every metric: its comparisons and evidence.

    For ``check.claim(key, **answer)``: the engine judges the claim by the intersection-union
    rule (the claim holds only if each comparison does; any refuted or practically equivalent
    comparison decides it).

    Examples
    --------
    >>> from helpers.comparisons import sweep_comparisons
    >>> c = sweep_comparisons({"accuracy": {"a": [0.9, 0.92, 0.91], "b": [0.95, 0.96, 0.97]}}, [("b", "a")],
    ...                       ["accuracy"], 0.25)
    >>> answer = advantage_claim(c, ["accuracy"], [("b", "a")], "b vs a", 3)
    >>> list(answer), list(answer["comparisons"])
    (['comparisons', 'evidence'], ['accuracy: b vs a'])
    """
    missing = [f"{m}: {a} vs {b}" for m in metric_names for a, b in pairs if f"{m}: {a} vs {b}" not in comparisons]
    if missing:
        raise ValueError(f"no comparison {missing[0]!r}: give its pair to sweep_comparisons() first")
    chosen = {f"{m}: {a} vs {b}": comparisons[f"{m}: {a} vs {b}"] for m in metric_names for a, b in pairs}
    return {"comparisons": chosen,
            "evidence": advantage_evidence(chosen, words, n_splits, split_table, metric_names, pairs)}


# --------------------------------------------------------------------------------------------
# Table 1: LOOCV and 10-fold CV


class Table1(NamedTuple):
    """Table 1 under our stated protocol."""

    accuracy: dict           #: {model: [LOOCV, 10-fold]}
    loo_predictions: dict    #: {model: held-out prediction of each row}
    fold_scores: dict        #: {model: accuracy on each of the ten folds}


def table1_svm(X, y, matrices: Mapping | None = None, method="cholesky", covariance="sample", n_jobs=None) -> Table1:
    """Table 1: the linear SVC, Option A and Option B under LOOCV and ``StratifiedKFold(10)`` on all rows.

    Option A transforms every row, held-out rows included, with its own class's factor
    (``matrices``, by default those of all rows); Option B's :math:`E(C^{-1})` is fitted on each
    training fold. The linear SVC's LOOCV uses the exact shortcut of
    :func:`helpers.svm.svc_loocv_predict`.

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> split = wdbc_split()
    >>> t = table1_svm(split.X[:80, :4], split.y[:80])         # a corner of the data, for speed
    >>> {name: [round(a, 3) for a in acc] for name, acc in t.accuracy.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'linear': [0.925, 0.938], 'population_cholesky': [1.0, 1.0], 'expected_cholesky': [0.975, 0.975]}
    """
    if matrices is None:
        matrices = class_whitening_matrices(X, y, method=method, covariance=covariance)
    linear_svc = SVC(kernel="linear")
    expected_svc = make_pipeline(ExpectedWhitener(method, covariance), SVC(kernel="linear"))
    Z_pop = transform_by_class(X, y, matrices)                              # Option A: every row with its own label
    loo = {"linear": svc_loocv_predict(linear_svc, X, y, n_jobs=n_jobs),
           "population_cholesky": svc_loocv_predict(linear_svc, Z_pop, y, n_jobs=n_jobs),
           "expected_cholesky": cross_val_predict(expected_svc, X, y, cv=LeaveOneOut(), n_jobs=n_jobs)}
    skf = StratifiedKFold(10)
    folds = {"linear": cross_val_score(linear_svc, X, y, cv=skf, n_jobs=n_jobs),
             "population_cholesky": cross_val_score(linear_svc, Z_pop, y, cv=skf, n_jobs=n_jobs),
             "expected_cholesky": cross_val_score(expected_svc, X, y, cv=skf, n_jobs=n_jobs)}
    accuracy = {name: [float(np.mean(loo[name] == y)), float(folds[name].mean())] for name in loo}
    return Table1(accuracy, loo, folds)


def loocv_printing_note(printed: Mapping[str, str], right: Mapping[str, int], n: int, name: str) -> str:
    """What the print of one LOOCV cell says about rounding and cutting: a note for the reader, no verdict.

    A LOOCV accuracy is a count out of ``n``. The note gives ours, the counts out of ``n`` that
    round to the printed value (if any), whether cutting ours to the printed digits gives it, and
    whether the other rows (``printed`` and ``right`` of every name) show a value that only cutting
    explains. Truncation is accepted only where the source shows that habit; otherwise it stays
    a hypothesis, which the note says.

    Examples
    --------
    >>> note = loocv_printing_note({"a": "0.954", "b": "0.971"}, {"a": 543, "b": 553}, 569, "b")
    >>> note.split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ['ours 553/569 = 0.97188 rounds to 0.972', 'no count out of 569 rounds to 0.971, and 553/569 cut to 3 digits
     gives it: a hypothesis, as no other LOOCV value printed beside it needs cutting (a: 543/569 = 0.95431 prints
     0.954 whether rounded or cut)']
    >>> loocv_printing_note({"a": "0.954"}, {"a": 543}, 569, "a")
    'ours 543/569 = 0.95431 rounds to 0.954, as printed'
    """
    text, k = printed[name], right[name]
    d, rounded, cut = at_printed_digits(k / n, text)
    out = f"ours {k}/{n} = {k / n:.5f} rounds to {rounded}"
    if rounded == text:
        return out + ", as printed"
    rounding = [f"{c}/{n}" for c in range(n + 1) if at_printed_digits(c / n, text).rounded == text]
    out += f"; {', '.join(rounding)} would round to {text}" if rounding else f"; no count out of {n} rounds to {text}"
    if cut != text:
        return out
    out += f", and {k}/{n} cut to {d} digits gives it"
    others = {o: (right[o], printed[o], at_printed_digits(right[o] / n, printed[o])) for o in printed
              if o != name and o in right}
    habit = [o for o, (r, t, at) in others.items() if at.cut == t != at.rounded]
    if habit:
        return out + f": {', '.join(habit)} shows the same cutting"
    both = [f"{o}: {r}/{n} = {r / n:.5f} prints {t} whether rounded or cut" if at.cut == t == at.rounded
            else f"{o}: {r}/{n} = {r / n:.5f} against {t}" for o, (r, t, at) in others.items()]
    return out + ": a hypothesis, as no other LOOCV value printed beside it needs cutting (" + "; ".join(both) + ")"


def fold_scheme_scores(X, y, matrices: Mapping, method="cholesky", covariance="sample", random_state=0,
                       n_jobs=None) -> pd.DataFrame:
    """10-fold CV accuracy of Options A and B under four fold schemes (unshuffled or shuffled, stratified or not).

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> split = wdbc_split()
    >>> X, y = split.X[:150, :4], split.y[:150]
    >>> table = fold_scheme_scores(X, y, class_whitening_matrices(X, y), random_state=42)
    >>> table.columns.tolist()
    ['KFold(10)', 'StratifiedKFold(10)', 'KFold(10) shuffled', 'StratifiedKFold(10) shuffled']
    >>> table.loc["expected_cholesky"].round(3).tolist()
    [0.9, 0.907, 0.927, 0.92]
    """
    linear_svc = SVC(kernel="linear")
    expected_svc = make_pipeline(ExpectedWhitener(method, covariance), SVC(kernel="linear"))
    Z_pop = transform_by_class(X, y, matrices)
    schemes = {"KFold(10)": KFold(10), "StratifiedKFold(10)": StratifiedKFold(10),
               "KFold(10) shuffled": KFold(10, shuffle=True, random_state=random_state),
               "StratifiedKFold(10) shuffled": StratifiedKFold(10, shuffle=True, random_state=random_state)}
    return pd.DataFrame({s: {"expected_cholesky": cross_val_score(expected_svc, X, y, cv=cv, n_jobs=n_jobs).mean(),
                             "population_cholesky": cross_val_score(linear_svc, Z_pop, y, cv=cv, n_jobs=n_jobs).mean()}
                         for s, cv in schemes.items()})


def expected_matrix_closeness(X, y, E_split, split_rows: int, method="cholesky",
                              covariance="sample") -> dict[str, float]:
    """How close the :math:`E(C^{-1})` of a training set is to that of all rows (relative Frobenius distance).

    The paper's reason for LOOCV and 10-fold CV (lines 210, 252): more training rows bring the
    training covariances nearer the population ones. Returns the distance for the split's
    training rows (``E_split``, from ``split_rows`` rows) and the mean over the training folds of
    ``StratifiedKFold(10)`` and of LOOCV.

    Examples
    --------
    >>> from helpers.studies.sahoo_maiti_2025a import wdbc_split
    >>> split = wdbc_split()
    >>> X, y = split.X[:120, :4], split.y[:120]
    >>> E = expected_whitening_matrix(X[:96], y[:96])
    >>> d = expected_matrix_closeness(X, y, E, 96)
    >>> list(d), d["80:20 training rows (96)"] > d["10-fold training folds (108)"] > d["LOOCV training folds (119)"]
    (['80:20 training rows (96)', '10-fold training folds (108)', 'LOOCV training folds (119)'], True)
    """
    y = np.asarray(y)
    E_all = expected_whitening_matrix(X, y, method=method, covariance=covariance)

    def dist(M):
        return float(np.linalg.norm(M - E_all) / np.linalg.norm(E_all))

    def fitted(rows):
        return expected_whitening_matrix(X[rows], y[rows], method=method, covariance=covariance)

    folds = list(StratifiedKFold(10).split(X, y))
    return {f"80:20 training rows ({split_rows})": dist(E_split),
            f"10-fold training folds ({len(folds[0][0])})": float(np.mean([dist(fitted(tr)) for tr, _ in folds])),
            f"LOOCV training folds ({len(y) - 1})": float(np.mean([dist(fitted(np.arange(len(y)) != i))
                                                                   for i in range(len(y))]))}

