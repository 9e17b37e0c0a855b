"""scikit-learn estimators around the whitening maths of :mod:`helpers.whitening`.

:class:`Whitener` (one covariance), :class:`ExpectedWhitener` (the papers' ``E(W^-1)``, a
prior-weighted mean of per-class matrices), :class:`ClassConditionalKNN` (kNN in which
each class is measured in its own whitened space, through the engine of
:mod:`helpers.neighbours`) and :class:`TunedKNN` (kNN after any transform, its ``k`` chosen
by inner cross-validation with one neighbour search per inner fold). The whiteners keep their
matrix in ``components_`` and name their outputs (``get_feature_names_out``); every estimator takes the covariance as
``covariance=`` (a name, a float shrinkage or a scikit-learn covariance estimator).

``transform`` never takes labels: test data cannot be whitened with its own class's
matrix by accident. Compose with scikit-learn, e.g.
``make_pipeline(ExpectedWhitener(), KNeighborsClassifier(13, metric="cosine"))``.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
    clone,
)
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._arrays import chunk_rows, pow2_exponent, row_pow2_exponents, sq_euclidean, unit_rows
from ._validation import (
    as_float_array,
    check_finite,
    check_int,
    check_label_values,
    check_positive_ints,
    plain,
)
from .neighbours import cumulative_votes, knn_cv_accuracy_by_k, nearest_indices
from .whitening import (
    COVARIANCES,
    METHODS,
    class_whitening_matrices,
    estimate_covariance,
    whitening_matrix,
)

__all__ = ["COVARIANCE_CONSTRAINTS", "TUNED_KNN_KS", "ClassConditionalKNN", "ExpectedWhitener", "TunedKNN", "Whitener"]

#: what ``covariance=`` takes, in scikit-learn's ``_parameter_constraints`` terms: a name, a float
#: shrinkage in [0, 1] or a covariance estimator (:func:`helpers.whitening.estimate_covariance`, which
#: still refuses a bool: scikit-learn counts ``True`` as the number 1)
COVARIANCE_CONSTRAINTS = [StrOptions(set(COVARIANCES)), Interval(Real, 0, 1, closed="both"), HasMethods("fit")]


def _validate(estimator, X, y="no_validation", **kwargs):
    """``validate_data`` with this package's messages for text, complex numbers, NaN and inf.

    Text and complex input are refused before scikit-learn converts them (its messages do not
    say what to do); NaN and inf are reported with their row and column and the fix.
    """
    if not hasattr(X, "tocsr"):  # dense input: catch what float64 conversion would lose or refuse
        raw = np.asarray(X)
        if raw.dtype.kind in "cUSO":
            as_float_array(X, "X")  # the original: pandas' pd.NA is reported as a missing value there
    if not (isinstance(y, str) and y == "no_validation") and y is not None:
        labels = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
        if labels.ndim == 2 and labels.shape[1] == 1:  # a column: scikit-learn ravels it with a warning
            labels = labels.ravel()
        if labels.ndim == 1:
            check_label_values(labels)  # mixed text and numbers, missing labels: before scikit-learn sorts them
    out = validate_data(estimator, X, y, dtype=np.float64, ensure_all_finite=False, **kwargs)
    check_finite(out[0] if isinstance(out, tuple) else out, "X")
    return out


class _WhiteningTransformerMixin(ClassNamePrefixFeaturesOutMixin, TransformerMixin):
    """``transform`` and ``inverse_transform`` for a fitted whitening matrix ``components_``."""

    def transform(self, X):
        """Whiten ``X``: ``(X - mean_) @ components_.T`` (``mean_`` is 0 unless ``center``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self, "components_")
        X = _validate(self, X, reset=False)
        return (X - self.mean_) @ self.components_.T

    def inverse_transform(self, X):
        """Map whitened rows back to the input space."""
        check_is_fitted(self, "components_")
        X = _validate(self, X, reset=False)
        return np.linalg.solve(self.components_, X.T).T + self.mean_

    @property
    def _n_features_out(self):
        return self.components_.shape[0]


def _within_class_covariance(X, y, covariance) -> np.ndarray:
    """The pooled within-class covariance: the rows centred on their class means, then estimated."""
    classes, index = np.unique(y, return_inverse=True)
    if len(X) - len(classes) < 1:
        raise ValueError(f"scatter='within' needs more rows than classes; got {len(X)} rows in {len(classes)} classes")
    means = np.vstack([X[index == i].mean(axis=0) for i in range(len(classes))])
    centred = X - means[index]
    sigma = estimate_covariance(centred, covariance)
    if isinstance(covariance, str) and covariance == "sample":  # divisor n - K instead of n - 1
        sigma = sigma * (len(X) - 1) / (len(X) - len(classes))
    return sigma


class Whitener(_WhiteningTransformerMixin, BaseEstimator):
    """Whiten with one covariance estimated on the training data.

    After ``fit``, ``transform`` maps ``x`` to ``W (x - m)`` with ``W Sigma W' = I``, so
    Euclidean distances of the output are Mahalanobis distances of the input and cosine
    similarities of the output are variance-adjusted cosines (Sahoo & Maiti 2025, Eq. 7).
    All five methods give the same distances and cosines; they differ by a rotation.

    Parameters
    ----------
    method : {"cholesky", "zca", "zca_cor", "pca", "pca_cor"}, default="cholesky"
        See :func:`helpers.whitening.whitening_matrix`.
    covariance : {"sample", "population", "ledoit_wolf", "oas"}, float or estimator, default="sample"
        The covariance estimate: a name, a float shrinkage in [0, 1] or a scikit-learn
        covariance estimator such as ``sklearn.covariance.OAS()`` (cloned and fitted); see
        :func:`helpers.whitening.estimate_covariance`.
    center : bool, default=False
        Subtract the training mean before whitening. ``False`` reproduces the seed papers,
        which whiten uncentred data (this matters for cosine, not for distances).
    scatter : {"total", "within"}, default="total"
        Which covariance: ``"total"``, of all training rows, ignoring ``y`` (between-class
        scatter included); ``"within"``, the pooled within-class covariance, of the rows
        centred on their class means (``fit`` then needs ``y``; with ``covariance="sample"``
        the divisor is ``n - n_classes``, as in linear discriminant analysis). Whitening by the
        within-class covariance is relevant component analysis (RCA) with the classes as chunklets.

    Attributes
    ----------
    covariance_ : ndarray of shape (n_features, n_features)
    components_ : ndarray of shape (n_features, n_features)
        The whitening matrix ``W`` (rows: output features), as ``PCA.components_``.
    mean_ : ndarray of shape (n_features,)
        The training mean if ``center`` else zeros.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when ``X`` has string feature names; outputs are named ``whitener0``, ...

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 4.0], [4.0, 3.0]])
    >>> Z = Whitener(center=True).fit_transform(X)
    >>> print(np.cov(Z, rowvar=False).round(10) + 0.0)
    [[1. 0.]
     [0. 1.]]
    >>> from sklearn.covariance import OAS
    >>> wh = Whitener(covariance=OAS()).fit(X)
    >>> bool(np.allclose(wh.covariance_, Whitener(covariance="oas").fit(X).covariance_))
    True
    >>> wh.get_feature_names_out().tolist()
    ['whitener0', 'whitener1']

    Two classes that differ by a shift: the total covariance holds the shift, the within-class
    covariance does not.

    >>> X2 = np.array([[1.0, 2.0], [2.0, 1.0], [2.0, 3.0], [6.0, 7.0], [7.0, 6.0], [7.0, 8.0]])
    >>> y2 = np.array([0, 0, 0, 1, 1, 1])
    >>> Whitener().fit(X2).covariance_.round(3).tolist()
    [[7.767, 7.5], [7.5, 8.3]]
    >>> Whitener(scatter="within").fit(X2, y2).covariance_.round(3).tolist()
    [[0.333, 0.0], [0.0, 1.0]]
    """

    _parameter_constraints: dict = {
        "method": [StrOptions(set(METHODS))],
        "covariance": COVARIANCE_CONSTRAINTS,
        "center": ["boolean"],
        "scatter": [StrOptions({"total", "within"})],
    }

    def __init__(self, method="cholesky", covariance="sample", center=False, scatter="total"):
        self.method = method
        self.covariance = covariance
        self.center = center
        self.scatter = scatter

    @_fit_context(prefer_skip_nested_validation=False)  # a covariance estimator checks its own parameters
    def fit(self, X, y=None):
        """Estimate the covariance of ``X`` (total, or within the classes of ``y``) and its whitening matrix."""
        if self.scatter == "within":
            if y is None:
                raise ValueError("scatter='within' pools the covariance within the classes of y: call fit(X, y), "
                                 "or use scatter='total' for the covariance of all rows")
            X, y = _validate(self, X, y, ensure_min_samples=2)
            check_classification_targets(y)
            self.covariance_ = _within_class_covariance(X, y, self.covariance)
        else:
            X = _validate(self, X, ensure_min_samples=2)
            self.covariance_ = estimate_covariance(X, self.covariance)  # which checks the covariance choice first
        self.components_ = whitening_matrix(self.covariance_, self.method, "training covariance", n_samples=X.shape[0])
        self.mean_ = X.mean(axis=0) if self.center else np.zeros(X.shape[1])
        return self


class ExpectedWhitener(_WhiteningTransformerMixin, BaseEstimator):
    """Transform with the seeds' expected factor ``E(W^-1) = sum_k p_k W_k``.

    ``fit(X, y)`` estimates one covariance per class, its whitening matrix ``W_k`` and the
    class proportion ``p_k = n_k / n``; ``transform(X)`` applies ``sum_k p_k W_k`` to every
    row, whatever its class (Sahoo & Maiti 2025, Eq. 9, generalised to K classes). It
    needs no test label. The result is not white for any class; see notebook 03.

    Parameters
    ----------
    method, covariance, center
        As in :class:`Whitener`; ``covariance`` is estimated per class.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
    class_whitening_matrices_ : ndarray of shape (n_classes, n_features, n_features)
    components_ : ndarray of shape (n_features, n_features)
        ``sum_k priors_[k] * class_whitening_matrices_[k]``.
    mean_ : ndarray of shape (n_features,)
        The pooled training mean if ``center`` else zeros.
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [5.0, 5.0], [6.0, 5.0], [5.0, 7.0]])
    >>> ew = ExpectedWhitener().fit(X, [0, 0, 0, 1, 1, 1])
    >>> print(ew.priors_)
    [0.5 0.5]
    >>> print(ew.components_.round(4))
    [[1.299 0.   ]
     [0.75  1.   ]]
    """

    _parameter_constraints: dict = {
        "method": [StrOptions(set(METHODS))],
        "covariance": COVARIANCE_CONSTRAINTS,
        "center": ["boolean"],
    }

    def __init__(self, method="cholesky", covariance="sample", center=False):
        self.method = method
        self.covariance = covariance
        self.center = center

    @_fit_context(prefer_skip_nested_validation=False)  # a covariance estimator checks its own parameters
    def fit(self, X, y=None):
        """Fit one whitening matrix per class and their prior-weighted mean."""
        if y is None:
            raise ValueError(
                "ExpectedWhitener requires y to be passed, but the target y is None: it averages "
                "per-class whitening matrices, so call fit(X, y) with the training labels "
                "(in a Pipeline, pipe.fit(X, y))."
            )
        X, y = _validate(self, X, y, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.priors_ = counts / counts.sum()
        mats = class_whitening_matrices(X, y, method=self.method, covariance=self.covariance)
        self.class_whitening_matrices_ = np.stack([mats[c] for c in self.classes_])
        self.components_ = np.einsum("k,kij->ij", self.priors_, self.class_whitening_matrices_)
        self.mean_ = X.mean(axis=0) if self.center else np.zeros(X.shape[1])
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class ClassConditionalKNN(ClassifierMixin, BaseEstimator):
    """k nearest neighbours where each class is seen through its own whitening matrix.

    A leak-free use of per-class ("population") matrices. For each class ``c`` the test
    point ``x`` is whitened with ``W_c`` and compared with class ``c``'s training points
    whitened with the same ``W_c``; so the similarity of ``x`` to a training point of class
    ``c`` is the variance-adjusted cosine (or the Mahalanobis distance) under class
    ``c``'s covariance. The test label is never used.

    Scoring rule: the ``n_neighbors`` training points most similar to ``x``, each measured
    in its own class's space, vote with equal weight; ``predict_proba`` returns the vote
    shares and ``predict`` the class with most votes (ties go to the first class in
    ``classes_``, as in ``KNeighborsClassifier``; use an odd ``n_neighbors`` for two
    classes). With one class this is ordinary kNN in that class's
    whitened space; with equal covariances it is ordinary kNN after pooled whitening.

    For ``metric="euclidean"`` the distance in class ``c``'s whitened space is multiplied
    by ``|Sigma_c|^(1/(2p))``, the geometric mean of that class's standard deviations:
    class ``c`` then measures with the unit-determinant metric
    ``Sigma_c^-1 |Sigma_c|^(1/p)``, the same shape as its Mahalanobis distance but on a
    common scale of volume. This is the nearest-neighbour counterpart of the
    ``1/2 log|Sigma_c|`` term of quadratic discriminant analysis: without it a class with
    large variances looks close to everything once whitened and captures the region where
    the classes overlap. Cosine similarity is scale-free and needs no such factor.

    Parameters
    ----------
    n_neighbors : int, default=5
    metric : {"cosine", "euclidean"}, default="cosine"
        ``"cosine"``: variance-adjusted cosine similarity; ``"euclidean"``: Euclidean
        distance in the class's whitened space, i.e. the Mahalanobis distance under
        that class's covariance.
    method, covariance
        As in :class:`Whitener`, applied per class.
    center : bool, default=False
        Subtract the pooled training mean first (``False`` as in the seed papers).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_whitening_matrices_ : ndarray of shape (n_classes, n_features, n_features)
    distance_scales_ : ndarray of shape (n_classes,)
        ``|Sigma_c|^(1/(2p))``, applied to the Euclidean distances of each class's space.
    mean_ : ndarray of shape (n_features,)
    n_features_in_ : int

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)) + [4, 0], rng.normal(0, 1, (20, 2)) + [0, 4]])
    >>> y = np.repeat([0, 1], 20)
    >>> clf = ClassConditionalKNN(n_neighbors=3).fit(X, y)
    >>> clf.predict([[5.0, 0.5], [0.5, 5.0]]).tolist()
    [0, 1]
    >>> clf.predict_proba([[5.0, 0.5]]).round(3).tolist()
    [[1.0, 0.0]]
    """

    _parameter_constraints: dict = {
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],  # and not a bool: _check_n_neighbors
        "metric": [StrOptions({"cosine", "euclidean"})],
        "method": [StrOptions(set(METHODS))],
        "covariance": COVARIANCE_CONSTRAINTS,
        "center": ["boolean"],
    }

    def __init__(self, n_neighbors=5, metric="cosine", method="cholesky", covariance="sample", center=False):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.method = method
        self.covariance = covariance
        self.center = center

    @_fit_context(prefer_skip_nested_validation=False)  # a covariance estimator checks its own parameters
    def fit(self, X, y):
        """Store each class's whitening matrix and whitened training points."""
        X, y = _validate(self, X, y, ensure_min_samples=2)
        check_classification_targets(y)
        self._check_n_neighbors(X.shape[0])
        self.classes_ = np.unique(y)
        self.mean_ = X.mean(axis=0) if self.center else np.zeros(X.shape[1])
        Xc = X - self.mean_
        mats = class_whitening_matrices(Xc, y, method=self.method, covariance=self.covariance)
        self.class_whitening_matrices_ = np.stack([mats[c] for c in self.classes_])
        self._train = [
            self._embed(Xc[y == c], W) for c, W in zip(self.classes_, self.class_whitening_matrices_)
        ]
        # |Sigma_c|^(1/2p) = |det W_c|^(-1/p): puts each class's whitened distances back in a common
        # unit of volume (see the class docstring); unused for the scale-free cosine
        logdet_W = np.array([np.linalg.slogdet(W)[1] for W in self.class_whitening_matrices_])
        self.distance_scales_ = np.exp(-logdet_W / X.shape[1])
        return self

    def _check_n_neighbors(self, n_samples_fit: int) -> int:
        """``n_neighbors`` as an int (not a bool) in ``[1, n_samples_fit]``, also after ``set_params``."""
        k = check_int(self.n_neighbors, "n_neighbors", 1, "n_neighbors=5")
        if k > n_samples_fit:
            raise ValueError(
                f"Expected n_neighbors <= n_samples_fit, but n_neighbors = {k}, n_samples_fit = "
                f"{n_samples_fit}: there are not that many training samples to vote. Lower n_neighbors "
                f"(set_params(n_neighbors={n_samples_fit}) at most) or fit on more samples."
            )
        return k

    def _embed(self, X, W):
        if self.metric != "cosine":
            return X @ W.T
        # cosine is scale-free: scale rows and W first so that W x neither overflows nor underflows
        # (powers of two: exact, so ordinary data give the same bits as without the scaling)
        X = np.ldexp(X, -row_pow2_exponents(X)[:, None])
        try:
            return unit_rows(X @ np.ldexp(W, -pow2_exponent(W)).T, "X whitened")
        except ValueError:
            raise ValueError(
                "Cosine similarity is undefined for a zero vector; a row is zero after "
                "whitening. Drop all-zero rows or use metric='euclidean'."
            ) from None

    def _distances(self, Q, Z):
        """Smaller is nearer: minus the cosine, or the Euclidean distance in the whitened space."""
        if self.metric == "cosine":
            return -(Q @ Z.T)
        return np.sqrt(sq_euclidean(Q, Z))

    def _votes(self, X):
        """Votes of the ``n_neighbors`` nearest training points, each measured in its class's space."""
        X = _validate(self, X, reset=False) - self.mean_
        k = self._check_n_neighbors(sum(len(Z) for Z in self._train))
        n_classes = len(self.classes_)
        votes = np.zeros((X.shape[0], n_classes))
        n_train = sum(len(Z) for Z in self._train)
        step = chunk_rows(X.shape[0], 8.0 * 2 * n_train)
        for start in range(0, X.shape[0], step):
            rows = slice(start, start + step)
            # each class's k nearest in its own space, then the k nearest of those; ties go to
            # the earlier class in classes_, then to the earlier training point
            dists, owners = [], []
            for c, (W, Z) in enumerate(zip(self.class_whitening_matrices_, self._train)):
                D = self._distances(self._embed(X[rows], W), Z)
                if self.metric == "euclidean":
                    D = D * self.distance_scales_[c]
                near = nearest_indices(D, min(k, D.shape[1]))
                dists.append(np.take_along_axis(D, near, axis=1))
                owners.append(np.full(near.shape[1], c))
            owners = np.concatenate(owners)
            nearest = nearest_indices(np.hstack(dists), k)
            votes[rows] = cumulative_votes(owners[nearest], n_classes)[:, -1]
        return votes

    def predict_proba(self, X):
        """Share of the ``n_neighbors`` votes going to each class (columns in ``classes_`` order)."""
        check_is_fitted(self)
        return self._votes(X) / self.n_neighbors

    def predict(self, X):
        """Class with most votes; ties go to the first tied class in ``classes_``."""
        check_is_fitted(self)
        return self.classes_[np.argmax(self._votes(X), axis=1)]


#: the numbers of neighbours :class:`TunedKNN` tries by default
TUNED_KNN_KS = (1, 3, 5, 7, 9, 11, 15, 21)


class TunedKNN(ClassifierMixin, BaseEstimator):
    """kNN whose ``k`` is chosen by inner cross-validation on the training rows, after a transform.

    ``fit`` splits the training rows into ``inner_folds`` stratified folds; on each, a clone
    of ``transformer`` is fitted on the inner training rows and one neighbour search at the
    largest ``k`` gives the votes of every ``k`` at once
    (:func:`helpers.neighbours.knn_cv_accuracy_by_k`). The ``k`` with the highest mean inner
    accuracy wins (ties: the smallest); then ``transformer`` and
    ``KNeighborsClassifier(k, metric=metric)`` are fitted on all the training rows, as the
    pipeline ``pipeline_``. Nothing is ever fitted on the rows passed to ``predict``.

    Parameters
    ----------
    transformer : scikit-learn transformer or None, default=None
        Fitted with the labels (``ExpectedWhitener`` needs them), e.g.
        ``make_pipeline(StandardScaler(), Whitener())``; ``None``: the raw features.
    metric : str or callable, default="euclidean"
        The kNN metric (``"euclidean"``, ``"cosine"``, ...), as ``KNeighborsClassifier`` takes it.
    ks : int or sequence of int, default=TUNED_KNN_KS
        The numbers of neighbours tried; those larger than the smallest inner training
        fold are dropped.
    inner_folds : int, default=3
    random_state : int, default=0
        Seed of the inner folds.
    nested : bool, default=True
        ``True``: the transform is refitted on each inner training fold, so the inner
        scores are honest. ``False``: it is fitted once on the training rows and ``k`` is
        chosen on its output, which costs one fit instead of ``inner_folds + 1`` (for a slow
        transform such as NCA); the inner scores have then seen a transform fitted with
        their validation rows, the rows passed to ``predict`` still never.

    Attributes
    ----------
    best_k_ : int
    inner_accuracy_ : dict of {k: float}
    pipeline_ : Pipeline
        The transform and the kNN, fitted on all the training rows.
    classes_ : ndarray

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_iris(return_X_y=True)
    >>> knn = TunedKNN(StandardScaler(), ks=(1, 5, 9)).fit(X, y)
    >>> knn.best_k_, sorted(knn.inner_accuracy_)
    (5, [1, 5, 9])
    >>> print(f"{knn.score(X, y):.3f}")
    0.953
    """

    _parameter_constraints: dict = {
        "transformer": [HasMethods(["fit", "transform"]), None],
        # the names KNeighborsClassifier takes; the inner search over k refuses a few more, saying why
        "metric": KNeighborsClassifier._parameter_constraints["metric"],
        "ks": [Interval(Integral, 1, None, closed="left"), "array-like"],  # its items: check_positive_ints
        "inner_folds": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
        "nested": ["boolean"],
    }

    def __init__(self, transformer=None, metric="euclidean", ks=TUNED_KNN_KS, inner_folds=3, random_state=0,
                 nested=True):
        self.transformer = transformer
        self.metric = metric
        self.ks = ks
        self.inner_folds = inner_folds
        self.random_state = random_state
        self.nested = nested

    @_fit_context(prefer_skip_nested_validation=False)  # the transformer checks its own parameters
    def fit(self, X, y):
        """Choose ``k`` by inner cross-validation, then fit the transform and the kNN on all rows."""
        requested = check_positive_ints(self.ks, "ks", "(1, 3, 5, 7)", scalar=True)
        X, y = _validate(self, X, y)
        check_classification_targets(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        if counts.min() < self.inner_folds:
            smallest = counts.min()
            raise ValueError(
                f"the smallest class ({plain(self.classes_[counts.argmin()])!r}) has {smallest} "
                f"sample{'' if smallest == 1 else 's'}, fewer than inner_folds={self.inner_folds}: stratified inner "
                "folds need every class in every fold. Lower inner_folds or drop classes that small."
            )
        cv = StratifiedKFold(self.inner_folds, shuffle=True, random_state=self.random_state)
        smallest_fold = min(len(tr) for tr, _ in cv.split(X, y))
        ks = sorted({k for k in requested if k <= smallest_fold})
        if not ks:
            raise ValueError(f"no k in ks={tuple(requested)} fits the {smallest_fold} rows of an inner training fold; "
                             f"include a k <= {smallest_fold}.")
        transformer = "passthrough" if self.transformer is None else clone(self.transformer)
        if self.nested or self.transformer is None:
            search_X, inner_transformer = X, self.transformer
        else:
            transformer = transformer.fit(X, y)
            search_X, inner_transformer = transformer.transform(X), None
        if len(ks) == 1:
            self.inner_accuracy_ = {ks[0]: np.nan}
            self.best_k_ = ks[0]
        else:
            self.inner_accuracy_ = knn_cv_accuracy_by_k(search_X, y, ks, cv, metric=self.metric,
                                                        transformer=inner_transformer)
            best = max(self.inner_accuracy_.values())
            self.best_k_ = min(k for k, a in self.inner_accuracy_.items() if a == best)
        knn = KNeighborsClassifier(self.best_k_, metric=self.metric)
        if self.nested or self.transformer is None:
            self.pipeline_ = make_pipeline(transformer, knn).fit(X, y)
        else:
            self.pipeline_ = make_pipeline(transformer, knn.fit(search_X, y))
        return self

    def predict(self, X):
        """Labels from the kNN with the chosen ``k``, on the transformed rows."""
        check_is_fitted(self, "pipeline_")
        return self.pipeline_.predict(_validate(self, X, reset=False))

    def predict_proba(self, X):
        """Vote shares of the ``best_k_`` nearest training rows (columns in ``classes_`` order)."""
        check_is_fitted(self, "pipeline_")
        return self.pipeline_.predict_proba(_validate(self, X, reset=False))
