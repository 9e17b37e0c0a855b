"""The nearest class mean under each class's own Mahalanobis metric: a scikit-learn classifier.

:class:`MahalanobisCentroidClassifier` is the Mahal-kNN paper's classification phase written as
a dense estimator (the reference against which the study of that paper checks its large-scale
readings, :mod:`helpers.studies.srivastava_rao_2016`): per class a mean and a covariance, each
sample to the class at the smallest Mahalanobis distance.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import (
    OneOf,
    Real,
    check_value,
    plain,
)
from .estimators import COVARIANCE_CONSTRAINTS
from .whitening import estimate_covariance

__all__ = ["MahalanobisCentroidClassifier"]


class MahalanobisCentroidClassifier(ClassifierMixin, BaseEstimator):
    """Assign each sample to the class with the smallest Mahalanobis distance.

    The Mahal-kNN paper's classification phase: per class ``c`` a mean ``mu_c`` and a
    covariance ``S_c`` (``helpers.whitening.estimate_covariance``; shrinkage such as
    ``"ledoit_wolf"`` or a float keeps it invertible when the class has fewer documents
    than dimensions); predict ``argmin_c (x - mu_c)' S_c^-1 (x - mu_c)``. It needs at
    least two classes (one class would be the nearest to everything).

    Parameters
    ----------
    covariance : {"sample", "population", "ledoit_wolf", "oas"}, float or estimator, default="ledoit_wolf"
        The class covariance estimate: a name, a float shrinkage in [0, 1] or a scikit-learn
        covariance estimator such as ``sklearn.covariance.OAS()`` (cloned and fitted per class),
        as in :func:`helpers.whitening.estimate_covariance`.
    min_class_size : int, default=2
        Classes with fewer training samples (a covariance needs two) use the covariance of
        all training samples instead (the pooled, class-blind estimate).
    degenerate_rtol : float or None, default=1e-8
        A class covariance whose smallest eigenvalue is at most this fraction of the largest
        eigenvalue of the pooled covariance is not positive definite in practice: e.g. two
        samples, where Ledoit-Wolf estimates a shrinkage of 0 and leaves a rank-1 matrix,
        or identical samples (no spread at all). Its pseudo-inverse would measure distance
        along a few directions only and make that class the nearest to almost everything,
        so such a class uses the pooled covariance too. ``None`` keeps every class's own
        estimate (pseudo-inverse).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    means_ : ndarray (n_classes, n_features)
    precisions_ : list of ndarray
        Inverse (pseudo-inverse) covariance per class.
    pooled_classes_ : ndarray
        The classes that use the pooled covariance (too small or degenerate).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [1, 0.1], [-1, -0.1], [0, 5], [0.1, 6], [-0.1, 4]])
    >>> clf = MahalanobisCentroidClassifier(0.1).fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[0.5, 0.0], [0.0, 4.5]]).tolist()
    [0, 1]
    """

    _parameter_constraints: dict = {
        "covariance": COVARIANCE_CONSTRAINTS,
        "min_class_size": [Interval(numbers.Integral, 2, None, closed="left")],  # a covariance needs two samples
        "degenerate_rtol": [Interval(numbers.Real, 0, None, closed="left"), None],
    }

    def __init__(self, covariance="ledoit_wolf", min_class_size=2, degenerate_rtol=1e-8):
        self.covariance = covariance
        self.min_class_size = min_class_size
        self.degenerate_rtol = degenerate_rtol

    @_fit_context(prefer_skip_nested_validation=False)  # a covariance estimator checks its own parameters
    def fit(self, X, y):
        """Each class's mean and (pseudo-)inverse covariance."""
        # a bool passes scikit-learn's interval of reals (True is 1.0): refused here
        check_value(self.degenerate_rtol, OneOf([None]) | Real(0), "degenerate_rtol", "degenerate_rtol=1e-8")
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"MahalanobisCentroidClassifier needs samples of at least 2 classes; y has 1 class "
                f"({plain(self.classes_[0])!r}), which would be the nearest to every sample."
            )
        pooled, floor = None, None
        self.means_, self.precisions_, pooled_classes = [], [], []
        for i in range(len(self.classes_)):
            Xi = X[y_idx == i]
            S = None
            if len(Xi) >= self.min_class_size:
                S = np.atleast_2d(estimate_covariance(Xi, self.covariance))
            if S is None or self.degenerate_rtol is not None:
                if pooled is None:
                    pooled = np.atleast_2d(estimate_covariance(X, self.covariance))
                    floor = (self.degenerate_rtol or 0.0) * linalg.eigvalsh(pooled)[-1]
                if S is None or (self.degenerate_rtol is not None and linalg.eigvalsh(S)[0] <= floor):
                    S = pooled
                    pooled_classes.append(self.classes_[i])
            self.means_.append(Xi.mean(axis=0))
            self.precisions_.append(linalg.pinvh(S))
        self.means_ = np.array(self.means_)
        self.pooled_classes_ = np.array(pooled_classes, dtype=self.classes_.dtype)
        return self

    def decision_function(self, X):
        """Minus the squared Mahalanobis distance to each class, shape (n_samples, n_classes).

        Two classes: shape (n_samples,), as scikit-learn's binary classifiers: ``d_0 - d_1``,
        the squared distance to ``classes_[0]`` minus that to ``classes_[1]`` (positive:
        ``classes_[1]`` is nearer).
        """
        check_is_fitted(self, "means_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        d = np.empty((X.shape[0], len(self.classes_)))
        for i, (mu, P) in enumerate(zip(self.means_, self.precisions_)):
            D = X - mu
            d[:, i] = np.einsum("ij,jk,ik->i", D, P, D)
        return -d if len(self.classes_) > 2 else (d[:, 0] - d[:, 1])

    def predict(self, X):
        """The class whose mean is nearest under its own covariance."""
        s = self.decision_function(X)
        idx = s.argmax(axis=1) if s.ndim == 2 else (s > 0).astype(int)
        return self.classes_[idx]
