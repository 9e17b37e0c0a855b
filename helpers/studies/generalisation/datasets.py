"""The study's data sets: the collection under the protocol's criteria, Reuters-21578, the row cap.

:func:`study_datasets` returns ``{name: (X, y)}`` for every set the protocol admits, in a
fixed order, and a table of their properties (:func:`dataset_properties_v2`): rows,
features, classes, the majority share, whether the set is wide or the sources' own data, and
the condition numbers of the matrices the covariance-aware methods invert.

The text set follows the Mahal-kNN paper's pipeline (Srivastava & Rao 2016): the ModApte
split of Reuters-21578, the documents with one of the ten largest topics and no other, the
stemmed vocabulary of the training documents, TF-IDF weights ``TF x log2(N / n_j)``, and a
PCA fitted on the training documents. The study's data set is the test documents in that
representation: it was learned on other documents, so no fold of the study has seen any of
its test rows, labelled or not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from ..._validation import check_int

#: the name of the text data set
REUTERS = "reuters"


def cap_rows(X, y, max_rows: int, random_state: int = 0):
    """A stratified subsample of ``max_rows`` rows when there are more (else the set unchanged).

    Examples
    --------
    >>> X, y = np.arange(40.0).reshape(20, 2), np.array([0] * 15 + [1] * 5)
    >>> Xs, ys = cap_rows(X, y, 8)
    >>> Xs.shape, np.bincount(ys).tolist()
    ((8, 2), [6, 2])
    """
    max_rows = check_int(max_rows, "max_rows", 2, "max_rows=1000", why="the rows kept of a larger set")
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if len(y) <= max_rows:
        return X, y
    keep, _ = train_test_split(np.arange(len(y)), train_size=max_rows, stratify=y, random_state=random_state)
    keep = np.sort(keep)
    return X[keep], y[keep]


def reuters_dataset(n_components: int = 100, categories: int = 10, verbose: bool | None = None):
    """Reuters-21578 as a data set of the study: ``(X, y)`` of the ModApte test documents.

    The documents with exactly one of the ``categories`` largest topics; the vocabulary,
    the TF-IDF weights and a PCA of ``n_components`` are fitted on the training documents
    (the paper's pipeline), and the test documents are projected. Needs the Reuters-21578
    archive (:func:`helpers.data.reuters.load_reuters21578` says where to put it).
    """
    from ...data.reuters import load_reuters21578
    from ...data.reuters_splits import make_setting, modapte_split
    from ...text import vectorize_corpus
    from ..srivastava_rao_2016.pca_checks import fit_pca

    train, test = modapte_split(load_reuters21578(verbose=verbose))
    rows_train, rows_test, _, y_test, _ = make_setting(train, test, "single_label", categories)
    train, test = train.iloc[rows_train], test.iloc[rows_test]
    text = [d["title"] + "\n" + d["body"] for d in (train, test)]
    _, _, (tfidf_train, tfidf_test) = vectorize_corpus(*text, "paper", verbose=verbose)
    _, _, scores_test, _ = fit_pca(tfidf_train, tfidf_test, n_components, dtype=np.float64, verbose=verbose)
    return np.asarray(scores_test, dtype=np.float64), np.asarray(y_test).astype(str)


def _log10_condition(S) -> float:
    s = np.linalg.svd(S, compute_uv=False)
    return float(np.log10(s[0] / s[-1])) if s[-1] > 0 else float("inf")


def dataset_properties_v2(datasets: dict, own_data=(), wide_features: int = 30) -> pd.DataFrame:
    """One row per data set: size, classes, majority share, and the condition numbers the methods meet.

    The condition numbers are those of the standardised rows' total covariance, their pooled
    within-class covariance, and (the mean of the log10 over classes) each class's covariance.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> t = dataset_properties_v2({"iris": (X, y)})
    >>> [int(t.loc["iris", c]) for c in ("n_rows", "n_features", "n_classes")], float(t.loc["iris", "majority"])
    ([150, 4, 3], 0.3333)
    """
    rows = {}
    for name, (X, y) in datasets.items():
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
        sd = X.std(axis=0)
        Z = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
        classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
        means = np.vstack([Z[codes == c].mean(axis=0) for c in range(len(classes))])
        within = np.cov(Z - means[codes], rowvar=False)
        rows[name] = {
            "n_rows": len(y), "n_features": X.shape[1], "n_classes": len(classes),
            "majority": round(float(counts.max() / len(y)), 4), "wide": bool(X.shape[1] >= wide_features),
            "own_data": name in own_data,
            "log10_condition_total": _log10_condition(np.cov(Z, rowvar=False)),
            "log10_condition_within": _log10_condition(within),
            "log10_condition_classes": float(np.mean([_log10_condition(np.cov(Z[codes == c], rowvar=False))
                                                      for c in range(len(classes))])),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "dataset"
    return table


def apply_criteria(X, y, min_rows_per_class: int):
    """Exact duplicate rows (values and label) dropped, the first kept; then classes below the minimum.

    Examples
    --------
    >>> X = np.array([[0.0], [0.0], [1.0], [2.0], [3.0]])
    >>> Xc, yc = apply_criteria(X, np.array(["a", "a", "a", "b", "c"]), 2)
    >>> Xc.ravel().tolist(), yc.tolist()
    ([0.0, 1.0], ['a', 'a'])
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y).astype(str)
    frame = pd.DataFrame(X)
    frame["_y"] = y
    keep = ~frame.duplicated().to_numpy()
    X, y = X[keep], y[keep]
    classes, counts = np.unique(y, return_counts=True)
    big = np.isin(y, classes[counts >= min_rows_per_class])
    return X[big], y[big]


def study_names(protocol: dict) -> list:
    """The data sets the protocol admits, in the study's order: the collection's, then Reuters-21578."""
    from ...data.collection import included_datasets

    return list(included_datasets(**criteria_of(protocol))) + [REUTERS]


def criteria_of(protocol: dict) -> dict:
    crit = protocol["datasets"]
    return {"min_rows": int(crit["min_rows"]), "min_continuous_features": int(crit["min_continuous_features"]),
            "min_rows_per_class": int(crit["min_rows_per_class"]),
            "continuous_min_distinct": int(crit["continuous_min_distinct"]),
            "wide_features": int(crit["wide_features"])}


def study_datasets(protocol: dict, names=None, verbose: bool | None = None):
    """``({name: (X, y)}, properties)``: every data set the protocol admits, cleaned and capped.

    The collection's sets come cleaned by its loader under the protocol's criteria
    (:func:`helpers.data.collection.inclusion_table`: complete cases, exact duplicates
    dropped, classes below the minimum dropped); Reuters-21578 is cleaned the same way
    (:func:`apply_criteria`). A set with more rows than the protocol's ``max_rows`` is then
    subsampled (:func:`cap_rows`), and a class the subsample leaves below the minimum is
    dropped too.

    Parameters
    ----------
    protocol : dict
        :func:`load_protocol`: the criteria (``[datasets]``) and the row cap (``[protocol]``).
    names : iterable of str, optional
        Only these sets (in the study's order); default: all.
    """
    from ...data.collection import load_dataset

    if isinstance(names, str):
        raise TypeError(f"names must be a collection of data set names such as ['iris'], not the string {names!r}.")
    crit, proto = protocol["datasets"], protocol["protocol"]
    chosen = study_names(protocol)
    if names is not None:
        wanted = set(names)
        unknown = wanted - set(chosen)
        if unknown:
            raise ValueError(f"unknown data set(s) {sorted(unknown)}; the study's data sets are {', '.join(chosen)}.")
        chosen = [n for n in chosen if n in wanted]
    least = int(crit.get("min_sets", 0))
    if names is None and len(chosen) < least:  # refused before hours of computation on too few sets
        raise ValueError(f"the protocol's criteria admit {len(chosen)} data sets, fewer than its min_sets ({least}): "
                         "the study's decision rule needs that many. A data set of the collection may be missing "
                         "(reinstall the locked packages: make setup); the protocol is not to be changed after "
                         "the fact.")
    minimum = int(crit["min_rows_per_class"])
    out = {}
    for name in chosen:
        if name == REUTERS:
            X, y = apply_criteria(*reuters_dataset(int(crit.get("text_components", 100)), verbose=verbose), minimum)
        else:
            data = load_dataset(name, min_rows_per_class=minimum, drop_duplicates=True)
            X, y = data.X, data.y
        X, y = cap_rows(X, y, int(proto["max_rows"]), int(proto["random_state"]))
        out[name] = apply_criteria(X, y, minimum)
    return out, dataset_properties_v2(out, own_data=crit["sources_own_data"], wide_features=int(crit["wide_features"]))
