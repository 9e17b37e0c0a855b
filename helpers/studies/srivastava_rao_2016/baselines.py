"""The paper's baselines (naive Bayes, Rocchio, SVM); its classification phase as a dense estimator is the
library's :class:`helpers.centroids.MahalanobisCentroidClassifier`."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

# --------------------------------------------------------------------------------------------
# the baselines


def rocchio_ovr_predict(X_train, Y_train, X_test) -> np.ndarray:
    """One-vs-rest Rocchio (nearest centroid) for a multi-label indicator matrix.

    Label ``c`` is assigned when ``x`` is closer (Euclidean) to the centroid of the training
    documents with ``c`` than to the centroid of those without it, i.e. when
    ``2 x.(mu+ - mu-) > |mu+|^2 - |mu-|^2``. The same decisions as ``NearestCentroid().predict``
    fitted label by label, without its dense per-class statistics (minutes on a sparse
    90-label problem). ``OneVsRestClassifier(NearestCentroid())`` differs: it calls
    ``decision_function``, which also divides by within-class standard deviations.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [4.0, 0.0], [4.0, 1.0]])
    >>> Y = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    >>> rocchio_ovr_predict(X, Y, np.array([[0.5, 0.9], [3.5, 0.1]])).tolist()
    [[1, 1], [0, 0]]
    """
    Y = np.asarray(Y_train, dtype=np.float64)
    if Y.ndim != 2 or Y.shape[0] != X_train.shape[0]:
        raise ValueError(
            f"Y_train must be a (n_train, n_labels) indicator matrix with n_train = {X_train.shape[0]}; "
            f"got shape {Y.shape}. Use MultiLabelBinarizer().fit_transform(topics)."
        )
    n_pos = Y.sum(axis=0)
    if np.any(n_pos == 0) or np.any(n_pos == Y.shape[0]):
        raise ValueError("Every label needs at least one positive and one negative training document.")
    pos_sum = np.asarray((sp.csr_matrix(Y.T) @ X_train).todense() if sp.issparse(X_train) else Y.T @ X_train)
    all_sum = np.asarray(X_train.sum(axis=0)).ravel()
    mu_pos = pos_sum / n_pos[:, None]
    mu_neg = (all_sum[None, :] - pos_sum) / (Y.shape[0] - n_pos)[:, None]
    bias = (mu_pos**2).sum(axis=1) - (mu_neg**2).sum(axis=1)
    score = 2 * np.asarray(X_test @ (mu_pos - mu_neg).T) - bias
    return (score > 0).astype(int)




def rocchio_predict(X_train, y_train, X_test) -> np.ndarray:
    """Single-label Rocchio: the class whose centroid (mean training document) is nearest in Euclidean distance.

    The predictions of ``sklearn.neighbors.NearestCentroid().fit(X_train, y_train).predict(X_test)``
    (uniform priors, no shrinking), computed the same way: each class's centroid is the mean of
    its rows, and ``pairwise_distances_argmin`` picks the nearest (ties: the first class in
    sorted order). ``NearestCentroid.fit`` also computes a within-class standard deviation of
    every word, through a dense copy of the training matrix (documents x vocabulary, several
    seconds and about a gigabyte for Reuters), which the predictions do not use; it is left out.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5.0, 0.0], [6.0, 1.0], [0.0, 5.0], [1.0, 6.0]])
    >>> rocchio_predict(X, np.array(["a", "a", "b", "b"]), np.array([[4.0, 1.0], [2.0, 3.0]])).tolist()
    ['a', 'b']
    """
    from sklearn.metrics import pairwise_distances_argmin

    y = np.asarray(y_train)
    if y.ndim != 1 or len(y) != X_train.shape[0]:
        raise ValueError(f"y_train must hold one label per training row: {X_train.shape[0]} rows, y_train {y.shape}. "
                         "For several labels per document use rocchio_ovr_predict.")
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"Rocchio needs at least two classes; y_train has {len(classes)}.")
    # the formats NearestCentroid works in: CSR or CSC rows for the centroids, CSR for the distances
    X_train = (X_train if X_train.format in ("csr", "csc") else X_train.tocsr()) if sp.issparse(X_train) \
        else np.asarray(X_train)
    X_test = X_test.tocsr() if sp.issparse(X_test) else np.asarray(X_test)
    centroids = np.empty((len(classes), X_train.shape[1]), dtype=np.float64)
    for c in range(len(classes)):
        centroids[c] = X_train[np.flatnonzero(codes == c)].mean(axis=0)
    return classes[pairwise_distances_argmin(X_test, centroids, metric="euclidean")]


def baseline_predictions(counts, tfidf, y_train, random_state: int = 0, methods=None) -> dict:
    """Test predictions of the paper's baselines (Table 2) and of a linear SVM.

    Parameters
    ----------
    counts : tuple of sparse matrices
        Term counts of the training and test documents.
    tfidf : tuple of sparse matrices
        Their TF-IDF weights.
    y_train : 1-D labels or 2-D indicator matrix (one-vs-rest then)
    random_state : int
        Seed of ``LinearSVC``.
    methods : iterable of str, optional
        Any of ``"naive Bayes"`` (``MultinomialNB`` on counts, as Lewis 1998), ``"Rocchio"``
        (nearest centroid on TF-IDF; :func:`rocchio_ovr_predict` for multi-label) and
        ``"linear SVM"`` (``LinearSVC`` on TF-IDF). Default: all three.

    Returns
    -------
    dict
        ``{method: predictions}``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 0], [6, 1], [5, 1], [0, 5], [1, 6], [1, 5]], dtype=float)
    >>> y = np.array(["a", "a", "a", "b", "b", "b"])
    >>> pred = baseline_predictions((X, X), (X, X), y)
    >>> {m: p.tolist() for m, p in pred.items()}["Rocchio"]
    ['a', 'a', 'a', 'b', 'b', 'b']
    """
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.svm import LinearSVC

    all_methods = ("naive Bayes", "Rocchio", "linear SVM")
    methods = all_methods if methods is None else (methods,) if isinstance(methods, str) else tuple(methods)
    unknown = [m for m in methods if m not in all_methods]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose from {list(all_methods)}.")
    (C_tr, C_te), (T_tr, T_te) = counts, tfidf
    y = np.asarray(y_train)
    multi = y.ndim == 2
    wrap = OneVsRestClassifier if multi else (lambda est: est)
    out = {}
    for name in methods:
        if name == "naive Bayes":
            out[name] = wrap(MultinomialNB()).fit(C_tr, y).predict(C_te)
        elif name == "Rocchio":
            if multi:
                out[name] = rocchio_ovr_predict(T_tr, y, T_te)
            else:
                out[name] = rocchio_predict(T_tr, y, T_te)
        else:
            out[name] = wrap(LinearSVC(random_state=random_state)).fit(T_tr, y).predict(T_te)
    return out


