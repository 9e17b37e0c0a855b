"""Helpers for the covariance-aware similarity workbook, in four layers.

* the maths, flat modules here: :mod:`~helpers.whitening` (covariance estimates, the five
  whitening matrices, E(W^-1)), :mod:`~helpers.metrics` (norms, distances, similarities),
  :mod:`~helpers.binary` (binary coefficients), :mod:`~helpers.neighbours` (the kNN engine),
  :mod:`~helpers.estimators` (scikit-learn estimators), :mod:`~helpers.gram` (PCA and shrunk
  covariances from inner products), :mod:`~helpers.text` (the text pipeline),
  :mod:`~helpers.mds`, :mod:`~helpers.clustering`, :mod:`~helpers.svm`,
  :mod:`~helpers.evaluation` (resampling protocols), :mod:`~helpers.significance` (paired
  tests, ranks), :mod:`~helpers.effects` (effect sizes with intervals, the Bayesian signed-rank
  test), :mod:`~helpers.plotting`; shared plumbing in ``_arrays`` (chunks, scalings,
  squared distances from inner products) and ``_validation`` (the checks and their words);
* :mod:`helpers.data`: the data folder and every loader;
* :mod:`helpers.studies`: what one source (or own study) needs beyond the maths, and the
  notebooks' manifest;
* :mod:`helpers.workbook`: the source ledger, results files, sweeps, notebook execution.

The maths imports none of the other three; data imports neither studies nor workbook; studies
do not import the workbook. The public maths and loaders are importable from here.
"""

from ._lazy import lazy_exports

# Each public name is imported from its module when first used, so that the command line and
# its worker processes start without scikit-learn (see helpers._lazy).
__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".binary": ("binary_counts", "binary_similarity", "jaccard", "russell_rao", "simple_matching"),
    ".data": ("load_animals", "load_athletes", "load_mnist_test", "load_salary_age", "load_signup", "load_table",
              "load_wdbc", "load_whiskey"),
    ".estimators": ("ClassConditionalKNN", "ExpectedWhitener", "Whitener"),
    ".metrics": ("cosine_similarity", "l0_norm", "lp_norm", "mahalanobis", "minkowski", "variance_adjusted_cosine"),
    ".whitening": ("class_whitening_matrices", "estimate_covariance", "expected_whitening_matrix",
                   "transform_by_class", "whitening_matrix"),
})
