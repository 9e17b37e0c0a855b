"""Does covariance-aware similarity help beyond the sources' data sets? The multi-data-set comparison.

Each source rests its claim on one data set: the variance-adjusted cosine and the
expected-Cholesky SVC of Sahoo & Maiti on the Wisconsin data, Mahal-kNN of Srivastava & Rao
on Reuters-21578. This module runs twelve classifiers (:data:`METHODS`) on many data sets
with one protocol, and tests each claim over the data sets:

* :func:`make_methods`: the classifiers, each a scikit-learn estimator whose every transform
  is fitted on the training rows it is given; kNN picks ``k`` by inner cross-validation
  (:class:`TunedKNN`, one neighbour search per inner fold for every ``k``), the QDA and the
  SVCs pick their regularisation with ``GridSearchCV``;
* :func:`run_comparison`: repeated stratified 10-fold CV, the same folds for every method,
  in parallel over (data set, fold); one row per data set, fold and method, with the
  accuracy and the seconds spent fitting and predicting;
* per data set: :func:`summarise_by_dataset` (mean and the corrected interval of Nadeau &
  Bengio); across data sets: :func:`claim_tests` (each claim's Hodges-Lehmann effect with its
  interval, the Bayesian signed-rank posterior at the claim's ROPE, and the Wilcoxon signed-rank
  test, Holm-corrected) and :func:`claim_answers` (the same as the verdict engine takes it, a
  claim against two methods as an intersection-union test), and, from
  :mod:`helpers.significance` and :mod:`helpers.plotting`,
  ``critical_difference``, ``average_ranks``, ``friedman_test`` and
  ``plot_critical_difference`` (Demsar 2006, computed and drawn by autorank);
* :func:`dataset_properties` and :func:`gain_correlations`: is the gain of a
  covariance-aware method related to what can be measured before fitting (the condition
  number of the pooled covariance, how different the class covariances are, n/p)?
  :func:`correlation_family` counts the correlations that reach ``alpha`` before and after
  Holm's correction.

The second edition's protocol, fixed before its results: :func:`load_protocol`
(``data/protocols/generalisation_v2.toml``).

References
----------
.. [1] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets,
   JMLR 7, 1-30 (average ranks, the Friedman test, the Nemenyi critical difference, the
   Wilcoxon signed-rank test over data sets).
.. [2] C. Nadeau & Y. Bengio (2003), Inference for the generalization error, Machine Learning
   52, 239-281 (the corrected interval of a mean over resampled folds).
.. [3] S. Holm (1979), A simple sequentially rejective multiple test procedure, Scand. J.
   Statist. 6, 65-70.
.. [4] A. Benavoli, G. Corani, J. Demsar & M. Zaffalon (2017), Time for a change: a tutorial for
   comparing multiple classifiers through Bayesian analysis, JMLR 18(77), 1-36 (the Bayesian
   signed-rank test and the ROPE).
.. [5] G. E. P. Box (1949), A general distribution theory for a class of likelihood criteria,
   Biometrika 36, 317-346 (the M statistic for equal covariance matrices).
"""

from ...data.collection import (
    collection_table,
)
from ...estimators import (
    TunedKNN,
)
from ...plotting import (
    plot_critical_difference,
)
from ...significance import (
    average_ranks,
    critical_difference,
    friedman_test,
    holm,
)
from .analysis import (
    claim_answers,
    claim_evidence,
    claim_summary,
    claim_tests,
    correlation_family,
    critical_rho,
    dataset_properties,
    gain_correlations,
)
from .figures import (
    plot_gain_correlations,
    plot_paired_differences,
)
from .methods import (
    CLAIMS,
    KS,
    METHODS,
    PROPERTY_LABELS,
    SHORT,
    Claim,
    make_methods,
    tuning_grids,
)
from .preregistration import (
    PROTOCOL_PATH,
    load_protocol,
)
from .protocol import (
    clear_differences,
    fit_times,
    load_datasets,
    mean_accuracy,
    paired_difference,
    repeated_folds,
    run_comparison,
    summarise_by_dataset,
)

__all__ = [
    "CLAIMS",
    "KS",
    "METHODS",
    "PROPERTY_LABELS",
    "PROTOCOL_PATH",
    "SHORT",
    "Claim",
    "TunedKNN",
    "average_ranks",
    "claim_answers",
    "claim_evidence",
    "claim_summary",
    "claim_tests",
    "clear_differences",
    "collection_table",
    "correlation_family",
    "critical_difference",
    "critical_rho",
    "dataset_properties",
    "fit_times",
    "friedman_test",
    "gain_correlations",
    "holm",
    "load_datasets",
    "load_protocol",
    "make_methods",
    "mean_accuracy",
    "paired_difference",
    "plot_critical_difference",
    "plot_gain_correlations",
    "plot_paired_differences",
    "repeated_folds",
    "run_comparison",
    "summarise_by_dataset",
    "tuning_grids",
]
