"""Helpers for the covariance-aware similarity workbook.

Modules: :mod:`helpers.whitening` (covariance estimates, the five whitening matrices,
E(W^-1)), :mod:`helpers.metrics` (norms, distances, similarities), :mod:`helpers.estimators`
(scikit-learn estimators), :mod:`helpers.mds` (classical MDS from distances or similarities), :mod:`helpers.datasets`, :mod:`helpers.reporting`.
"""

from .datasets import (
    load_animals,
    load_athletes,
    load_mnist_test,
    load_salary_age,
    load_signup,
    load_table,
    load_wdbc,
    load_whiskey,
)
from .estimators import ClassConditionalKNN, ExpectedWhitener, Whitener
from .metrics import (
    binary_counts,
    binary_similarity,
    cosine_similarity,
    jaccard,
    l0_norm,
    lp_norm,
    mahalanobis,
    minkowski,
    russell_rao,
    sokal_michener,
    variance_adjusted_cosine,
)
from .reporting import nb_setup, save_results
from .whitening import (
    class_whitening_matrices,
    estimate_covariance,
    expected_whitening_matrix,
    transform_by_class,
    whitening_matrix,
)

__all__ = [
    "ClassConditionalKNN",
    "ExpectedWhitener",
    "Whitener",
    "binary_counts",
    "binary_similarity",
    "class_whitening_matrices",
    "cosine_similarity",
    "estimate_covariance",
    "expected_whitening_matrix",
    "jaccard",
    "l0_norm",
    "load_animals",
    "load_athletes",
    "load_salary_age",
    "load_signup",
    "load_table",
    "load_wdbc",
    "load_mnist_test",
    "load_whiskey",
    "lp_norm",
    "mahalanobis",
    "minkowski",
    "nb_setup",
    "russell_rao",
    "save_results",
    "sokal_michener",
    "transform_by_class",
    "variance_adjusted_cosine",
    "whitening_matrix",
]
