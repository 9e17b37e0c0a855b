"""Around the readings: many PCA sizes and k from one neighbour search, k chosen, Figs 5 and 6, fewer components."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ..._arrays import row_sq_norms, sq_distances_from_inner
from ..._io import progress_bar
from ..._validation import (
    Real,
    check_finite,
    check_positive_ints,
)
from ...effects import bonferroni_effect, paired_bootstrap
from ...evaluation import exact_match_accuracy, prf_scores
from ...neighbours import majority_votes, nearest_indices
from ...significance import mcnemar_exact
from .readings import READINGS, KnnOptions, Readings, mahalanobis_readings


def component_sweep(Z_train, y_train, Z_test, y_test, sd, components, ks=range(3, 21)):
    """Euclidean and class-blind Mahal-kNN on the first m principal components, for many m and k.

    The inner products of the first m components are accumulated block by block, so the
    whole sweep costs one product of the score matrices.

    Parameters
    ----------
    Z_train, Z_test : ndarray
        PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels (single-label)
    sd : ndarray
        Standard deviation of each component (class-blind whitening divides by it).
    components : iterable of int
    ks : iterable of int

    Returns
    -------
    list of dict
        One per (reading, m, k): ``reading``, ``components``, ``k`` and every score of
        :func:`prf_scores`.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[0.0, 0.0], [0.2, 5.0], [3.0, 0.0], [3.2, 5.0]])
    >>> y = np.array(["a", "a", "b", "b"])
    >>> rows = component_sweep(Z, y, Z, y, np.array([1.0, 5.0]), [1, 2], [1])
    >>> [(r["reading"], r["components"], r["accuracy"]) for r in rows][:2]
    [('euclidean', 1, 1.0), ('class_blind', 1, 1.0)]
    """
    Z_train, Z_test = np.asarray(Z_train, dtype=np.float64), np.asarray(Z_test, dtype=np.float64)
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    if y_train.ndim != 1:
        raise ValueError("component_sweep needs single labels (a 1-D y_train).")
    check_finite(Z_train, "Z_train")
    check_finite(Z_test, "Z_test")
    d = min(Z_train.shape[1], len(sd))
    components = sorted(set(check_positive_ints(components, "components", "[10, 50, 100]", maximum=d,
                                                why="the principal components given")))
    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)", maximum=len(Z_train),
                                        why="training documents")))
    classes, Y = np.unique(y_train, return_inverse=True)
    rows, start = [], 0
    acc = {r: [np.zeros((len(Z_test), len(Z_train))), np.zeros(len(Z_test)), np.zeros(len(Z_train))]
           for r in ("euclidean", "class_blind")}
    for m in components:
        block = slice(start, m)
        for reading, scale in (("euclidean", 1.0), ("class_blind", np.asarray(sd)[block])):
            A, B = Z_test[:, block] / scale, Z_train[:, block] / scale
            G, a2, b2 = acc[reading]
            G += A @ B.T
            a2 += row_sq_norms(A)
            b2 += row_sq_norms(B)
            idx = nearest_indices(sq_distances_from_inner(a2, b2, G), ks[-1])
            for k, pred in majority_votes(idx, Y, ks, len(classes)).items():
                rows.append({"reading": reading, "components": m, "k": k,
                             **prf_scores(y_test, classes[pred], classes)})
        start = m
    return rows


def knn_sweep(X_train, y_train, X_test, ks) -> dict:
    """Majority-vote kNN predictions (Euclidean) for several k from one neighbour search.

    For inputs :func:`mahalanobis_readings` does not take, e.g. the sparse TF-IDF matrix
    (``sklearn.neighbors.NearestNeighbors``, brute force).

    Parameters
    ----------
    X_train, X_test : array or sparse matrix
    y_train : 1-D labels
    ks : iterable of int

    Returns
    -------
    dict
        ``{k: predicted labels}``; ties go to the first class, as ``KNeighborsClassifier``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    >>> out = knn_sweep(X, np.array(["a", "a", "b", "b", "b"]), np.array([[0.4], [9.0]]), [1, 3])
    >>> out[1].tolist(), out[3].tolist()
    (['a', 'b'], ['a', 'b'])
    """
    from sklearn.neighbors import NearestNeighbors

    ks = sorted(set(check_positive_ints(ks, "ks", "[3] or range(3, 21)", maximum=X_train.shape[0],
                                        why="training documents")))
    classes, Y = np.unique(np.asarray(y_train), return_inverse=True)
    idx = NearestNeighbors(n_neighbors=ks[-1], algorithm="brute").fit(X_train).kneighbors(X_test, return_distance=False)
    return {k: classes[p] for k, p in majority_votes(idx, Y, ks, len(classes)).items()}


def summarize_readings(readings: Readings, y_test) -> pd.DataFrame:
    """One row per reading: k chosen two ways and the scores of :func:`prf_scores` at the paper's k.

    The paper's protocol (line 269) tries k = 3 ... 20 and keeps the k with the best
    classification accuracy, which here is measured on the test documents; ``k (LOO)`` is
    chosen by leave-one-out accuracy on the training documents instead, without the test set.

    Returns
    -------
    DataFrame
        Indexed by reading key; columns ``reading`` (its name in :data:`READINGS`), ``k``
        (best test accuracy; 0 for ``nearest_category``, which has no k), the scores of
        :data:`SCORES` at that k, ``k (LOO)`` and ``accuracy at k (LOO)`` (NaN without LOO).
    """
    classes = None if readings.multi_label else readings.classes
    n_pred = {len(p) for by_k in readings.pred.values() for p in by_k.values()}
    if n_pred and np.shape(y_test)[0] not in n_pred:
        raise ValueError(f"y_test has {np.shape(y_test)[0]} rows but the readings predict {n_pred.pop()} test "
                         "documents; pass the labels of the Z_test given to mahalanobis_readings.")
    rows = {}
    for r, by_k in readings.pred.items():
        acc = {k: exact_match_accuracy(y_test, p, classes) for k, p in by_k.items()}
        k = best_k(acc)
        row = {"reading": READINGS[r], "k": k, **prf_scores(y_test, by_k[k], classes)}
        loo = readings.loo_accuracy.get(r)
        row["k (LOO)"] = best_k(loo) if loo else (0 if r == "nearest_category" else np.nan)
        row["accuracy at k (LOO)"] = acc[row["k (LOO)"]] if loo or r == "nearest_category" else np.nan
        rows[r] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def training_size_curve(Z_train, y_train, Z_test, y_test, fractions, options: KnnOptions | None = None,
                        full: Readings | None = None):
    """Accuracy of each reading against the number of training documents (Figs 5 and 6).

    For each fraction a stratified random subset of the training documents (seeded; the
    whole set at 1.0) trains every reading, with the best k of the paper's protocol (test
    accuracy over ``ks``); the PCA scores are those of the whole training set, fitted
    without labels, as the paper's PCA on unlabelled and seed data (line 265).

    Parameters
    ----------
    Z_train, Z_test : ndarray
        PCA scores of the training and test documents.
    y_train, y_test : 1-D labels (single-label)
    fractions : iterable of float in (0, 1]
        The fractions of the training documents.
    options : KnnOptions, optional
        ``sd``, ``ks``, ``readings`` and ``covariance`` of the readings, ``random_state`` (the
        seed of the subsets) and ``verbose`` (a progress bar over the fractions); default
        ``KnnOptions()``.
    full : Readings, optional
        The :func:`mahalanobis_readings` of the whole training set, reused at fraction 1.0.

    Returns
    -------
    curve : DataFrame
        One row per (fraction, reading): ``fraction``, ``training documents``, ``reading``,
        ``k``, ``accuracy``, ``error`` (Eq. 19: 1 - accuracy).
    predictions : dict
        ``{(fraction, reading): test predictions at that k}``, for paired tests.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = np.vstack([rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 4])
    >>> y = np.repeat(["a", "b"], 30)
    >>> options = KnnOptions(sd=Z.std(axis=0), ks=[3], readings=["euclidean"])
    >>> curve, _ = training_size_curve(Z, y, Z, y, [0.5, 1.0], options)
    >>> curve[["training documents", "accuracy"]].values.tolist()
    [[30.0, 1.0], [60.0, 1.0]]
    """
    from sklearn.model_selection import train_test_split

    options = KnnOptions() if options is None else options
    ks, readings = options.ks, options.readings
    y_train = np.asarray(y_train)
    fractions = list(fractions)
    if not fractions or any(Real(0, 1, closed="right").problem(f) is not None for f in fractions):
        raise ValueError(f"fractions must be numbers in (0, 1], e.g. [0.25, 0.5, 1.0]; got {fractions}.")
    if readings is not None:
        readings = [readings] if isinstance(readings, str) else list(readings)
    unknown = [] if readings is None else [r for r in readings if r not in READINGS]
    if unknown:
        raise ValueError(f"unknown reading(s) {unknown}; choose from {list(READINGS)}.")
    rows, preds = [], {}
    for frac in progress_bar(fractions, desc="training sizes", progress=options.verbose):
        idx = np.arange(len(y_train)) if frac == 1 else np.sort(train_test_split(
            np.arange(len(y_train)), train_size=frac, stratify=y_train, random_state=options.random_state)[0])
        if frac == 1 and full is not None:
            out = full
        else:
            out = mahalanobis_readings(Z_train[idx], y_train[idx], Z_test, replace(options, verbose=False), loo=False)
        for r, by_k in out.pred.items():
            if readings is not None and r not in readings:
                continue
            acc = {k: exact_match_accuracy(y_test, p) for k, p in by_k.items() if k == 0 or k in set(ks)}
            k = best_k(acc)
            rows.append({"fraction": frac, "training documents": len(idx), "reading": r, "k": k,
                         "accuracy": acc[k], "error": 1 - acc[k]})
            preds[(frac, r)] = by_k[k]
    return pd.DataFrame(rows), preds


def best_k(accuracy_by_k: dict) -> int:
    """The k with the highest accuracy (the smallest such k on ties).

    Examples
    --------
    >>> best_k({3: 0.90, 5: 0.93, 7: 0.93})
    5
    """
    if not accuracy_by_k:
        raise ValueError("accuracy_by_k is empty: give {k: accuracy}.")
    top = max(accuracy_by_k.values())
    return min(k for k, a in accuracy_by_k.items() if a == top)




def readings_by_components(Z_train, y_train, Z_test, y_test, components, options: KnnOptions | None = None,
                           full=None) -> tuple[pd.DataFrame, dict]:
    """Every reading on the first m principal components, for each m, with the best k of each (test accuracy).

    Parameters
    ----------
    Z_train, Z_test : ndarray
        PCA scores, components in decreasing order of variance.
    y_train, y_test : 1-D labels (single-label)
    components : iterable of int
        The numbers m of leading components.
    options : KnnOptions, optional
        ``sd`` (each component's standard deviation, cut to the first m), ``ks``, ``readings``
        and ``covariance`` of :func:`mahalanobis_readings`; default ``KnnOptions()``.
    full : tuple, optional
        ``(summary, predictions)`` of the readings already computed on every column of ``Z``
        (:func:`summarize_readings` and the predictions at its k), added as the row
        ``Z_train.shape[1]``.

    Returns
    -------
    accuracy : DataFrame
        Test accuracy by m (index, ascending) and reading (columns).
    predictions : dict
        ``{(m, reading): test predictions at the reading's k}``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Z = np.vstack([rng.normal(size=(20, 3)), rng.normal(size=(20, 3)) + [3, 0, 0]])
    >>> y = np.repeat(["a", "b"], 20)
    >>> acc, preds = readings_by_components(Z, y, Z, y, [1, 3], KnnOptions(sd=Z.std(axis=0), ks=[3]))
    >>> acc.index.tolist(), bool(acc.loc[1, "euclidean"] >= 0.9), preds[(3, "pooled")].shape
    ([1, 3], True, (40,))
    """
    options = KnnOptions() if options is None else options
    by_m, predictions = {}, {}
    if full is not None:
        summary, pred = full
        by_m[Z_train.shape[1]] = summary["accuracy"]
        predictions.update({(Z_train.shape[1], r): p for r, p in pred.items()})
    for m in components:
        on_m = replace(options, sd=np.asarray(options.sd)[:m], verbose=False)   # the first m components
        out = mahalanobis_readings(Z_train[:, :m], y_train, Z_test[:, :m], on_m, loo=False)
        summary = summarize_readings(out, y_test)
        by_m[m] = summary["accuracy"]
        predictions.update({(m, r): out.pred[r][summary.loc[r, "k"]] for r in out.pred})
    return pd.DataFrame(by_m).T.sort_index(), predictions


def largest_lead(accuracy: pd.DataFrame, predictions: dict, y_test, reference: str = "euclidean",
                 n_resamples: int = 1999, random_state: int = 0) -> dict:
    """Where a reading of Mahal-kNN leads the reference most (:func:`readings_by_components`), with its interval.

    Returns
    -------
    dict
        ``components`` (the m), ``reading`` (the most accurate reading there, first in the order
        of :data:`READINGS` on ties), ``accuracy`` and ``reference_accuracy`` at that m,
        ``b``, ``c``, ``p`` of :func:`helpers.significance.mcnemar_exact` (the reading first),
        ``effect`` (its accuracy minus the reference's, with the paired bootstrap 95% interval)
        and ``adjusted`` (the same with the Bonferroni interval over the ``looks``: every
        reading at every m, of which this one is the best on the test set).

    Examples
    --------
    >>> y = np.array([0, 1] * 10)
    >>> acc = pd.DataFrame({"euclidean": [0.9, 0.8], "pooled": [0.85, 0.9]}, index=[10, 20])
    >>> preds = {(20, "euclidean"): np.where(np.arange(20) < 4, 1 - y, y),
    ...          (20, "pooled"): np.where(np.arange(20) < 2, 1 - y, y)}
    >>> out = largest_lead(acc, preds, y, n_resamples=199)
    >>> out["components"], out["reading"], out["b"], out["c"], out["looks"], round(out["effect"]["effect"], 2)
    (20, 'pooled', 2, 0, 2, 0.1)
    """
    mahal = [r for r in READINGS if r != reference and r in accuracy.columns]
    lead = accuracy[mahal].max(axis=1) - accuracy[reference]
    m = int(lead.idxmax())
    reading = accuracy.loc[m, mahal].astype(float).idxmax()
    pred, ref = predictions[(m, reading)], predictions[(m, reference)]
    b, c, p = mcnemar_exact(y_test, pred, ref)
    looks = len(mahal) * len(accuracy)
    effect = paired_bootstrap(y_test, pred, ref, n_resamples=n_resamples, random_state=random_state)
    adjusted = bonferroni_effect(y_test, pred, ref, looks, "readings and sizes", n_resamples=n_resamples,
                                 random_state=random_state)
    return {"components": m, "reading": reading, "accuracy": float(accuracy.loc[m, reading]),
            "reference_accuracy": float(accuracy.loc[m, reference]), "b": b, "c": c, "p": p, "looks": looks,
            "effect": effect, "adjusted": adjusted}
