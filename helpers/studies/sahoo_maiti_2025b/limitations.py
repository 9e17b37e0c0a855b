"""Section 2 and Fig. 1 (notebook 02): a few support vectors decide, whatever the spread."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from skimage.measure import find_contours
from sklearn.base import clone
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
from sklearn.svm import SVC

from ...comparisons import accuracy_difference
from ...metrics import mahalanobis

# --------------------------------------------------------------------------------------------
# Notebook 02, section 2 and Fig. 1: a few support vectors decide, whatever the spread


def spread_classes(rng, n: int, sd_tight: float = 0.3, sd_wide: float = 1.5, gap: float = 4.5):
    """``n`` points of a tight class (label 0, at the origin) and ``n`` of a wide class (label 1, ``gap`` to the right).

    Both are isotropic Gaussians, drawn from ``rng`` (tight first).

    Examples
    --------
    >>> X, y = spread_classes(np.random.default_rng(0), 100)
    >>> X.shape, round(float(X[y == 1, 1].std()), 1), round(float(X[y == 0, 1].std()), 1)
    ((200, 2), 1.6, 0.3)
    """
    tight = rng.normal(0.0, sd_tight, size=(n, 2))
    wide = rng.normal(0.0, sd_wide, size=(n, 2)) + np.array([gap, 0.0])
    return np.vstack([tight, wide]), np.repeat([0, 1], n)


def support_vector_refits(X, y, svm: SVC) -> dict:
    """Refit a linear SVC on its support vectors alone, and after moving every other point twice as far from the line.

    Returns
    -------
    dict
        ``change``: the largest change of (w, b) between the fit and the two refits;
        ``spread_before`` and ``spread_after``: the class-1 total variance before and after the
        move; ``n_support``.

    Examples
    --------
    >>> X, y = spread_classes(np.random.default_rng(0), 50)
    >>> out = support_vector_refits(X, y, SVC(kernel="linear", C=1000.0).fit(X, y))
    >>> out["change"] < 1e-6, out["spread_after"] > out["spread_before"]
    (True, True)
    """
    w, b0 = svm.coef_[0], svm.intercept_[0]
    dist = (X @ w + b0) / np.linalg.norm(w)
    sv = svm.support_
    refit_sv = clone(svm).fit(X[sv], y[sv])
    X_spread = X.copy()
    others = np.setdiff1d(np.arange(len(y)), sv)
    X_spread[others] += dist[others, None] * w / np.linalg.norm(w)      # twice as far from the line
    refit_spread = clone(svm).fit(X_spread, y)
    before, after = (float(np.trace(np.cov(Z[y == 1], rowvar=False))) for Z in (X, X_spread))
    change = max(np.abs(np.r_[m.coef_[0], m.intercept_] - np.r_[w, b0]).max() for m in (refit_sv, refit_spread))
    return {"change": float(change), "spread_before": before, "spread_after": after, "n_support": len(sv)}


class SpreadRules(NamedTuple):
    """Four rules on fresh points of the two classes, and how close each class comes to two boundaries."""

    predictions: dict         #: {rule: predicted labels of the fresh points}
    errors: pd.DataFrame      #: error on each class and overall, per rule
    qda: QuadraticDiscriminantAnalysis
    qda_margin: dict          #: {"tight" | "wide": nearest training point of the class to QDA's boundary}
    svm_margin: dict          #: the same for the SVM's line
    qda_x_range: tuple        #: the x range of QDA's boundary (an oval around the tight class)
    effects: dict             #: {comparison: :func:`~helpers.comparisons.accuracy_difference` of its two rules}


def spread_rules(X, y, X_new, y_new, svm: SVC, pairs=None) -> SpreadRules:
    """The linear SVM against rules that know each class's covariance, on fresh points.

    The rules: the SVM; QDA (the class-conditional Gaussians); the nearest class mean by
    Euclidean distance and by Mahalanobis distance (each class with its own covariance).
    QDA's boundary (posterior 0.5) is traced on a fine grid (x from -4 to 10, y from -6 to 6).
    ``pairs`` (``{name: (rule a, rule b)}``, rules named as in ``predictions``) asks for the
    accuracy difference of a over b on the fresh points, with its interval and McNemar test
    (:func:`helpers.comparisons.accuracy_difference`; its bootstrap takes a few seconds per thousand points).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X, y = spread_classes(rng, 50)
    >>> X_new, y_new = spread_classes(rng, 2000)
    >>> rules = spread_rules(X, y, X_new, y_new, SVC(kernel="linear", C=1000.0).fit(X, y))
    >>> list(rules.errors.index)
    ['linear SVM', 'QDA (class Gaussians)', 'nearest mean, Euclidean', 'nearest mean, Mahalanobis']
    """
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    means = [X[y == k].mean(axis=0) for k in (0, 1)]
    inv_covs = [np.linalg.inv(np.cov(X[y == k], rowvar=False)) for k in (0, 1)]
    predictions = {
        "linear SVM": svm.predict(X_new),
        "QDA (class Gaussians)": qda.predict(X_new),
        "nearest mean, Euclidean": np.argmin([np.linalg.norm(X_new - m, axis=1) for m in means], axis=0),
        "nearest mean, Mahalanobis": np.argmin([mahalanobis(X_new, m[None, :], VI).ravel()
                                                for m, VI in zip(means, inv_covs)], axis=0),
    }
    unknown = sorted({rule for pair in (pairs or {}).values() for rule in pair} - set(predictions))
    if unknown:
        raise ValueError(f"pairs name rules {unknown} that spread_rules does not fit; the rules are "
                         f"{list(predictions)}")
    errors = pd.DataFrame({name: {"error, tight class": np.mean(p[y_new == 0] != 0),
                                  "error, wide class": np.mean(p[y_new == 1] != 1),
                                  "error, overall": np.mean(p != y_new)} for name, p in predictions.items()}).T
    gx, gy = np.linspace(-4, 10, 1401), np.linspace(-6, 6, 1201)
    grid = np.c_[np.repeat(gx[None, :], len(gy), 0).ravel(), np.repeat(gy[:, None], len(gx), 1).ravel()]
    post = qda.predict_proba(grid)[:, 1]
    curve = np.vstack(find_contours(post.reshape(len(gy), len(gx)), 0.5))          # (row, column) grid indices
    curve = np.c_[np.interp(curve[:, 1], np.arange(len(gx)), gx), np.interp(curve[:, 0], np.arange(len(gy)), gy)]
    to_curve = cdist(X, curve).min(axis=1)
    w, b0 = svm.coef_[0], svm.intercept_[0]
    dist = np.abs(X @ w + b0) / np.linalg.norm(w)
    effects = {name: accuracy_difference(y_new, predictions[a], predictions[b])
               for name, (a, b) in (pairs or {}).items()}
    return SpreadRules(predictions, errors, qda,
                       {"tight": float(to_curve[y == 0].min()), "wide": float(to_curve[y == 1].min())},
                       {"tight": float(dist[y == 0].min()), "wide": float(dist[y == 1].min())},
                       (float(curve[:, 0].min()), float(curve[:, 0].max())), effects)


