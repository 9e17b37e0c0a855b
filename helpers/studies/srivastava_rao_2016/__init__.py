"""The Mahal-kNN paper (Srivastava & Rao 2016): its readings, its checks and drivers, and the helpers they use.

The readings of Mahal-kNN that the paper's text supports (:data:`READINGS`), all computed
by :func:`mahalanobis_readings` from inner products of PCA scores:

* ``euclidean``: kNN, Euclidean distance, majority vote (the baseline);
* ``class_blind``: kNN after whitening with the covariance of all training documents,
  i.e. the feature transformation of Eqs 12-18 with S of the whole training set;
* ``pooled``: kNN with the Mahalanobis distance under the pooled within-category covariance
  (Section 2.2.2 names no covariance; "pooled" is the one covariance shared by all categories);
* ``per_category``: kNN where the distance to a training document uses the covariance of that
  document's category (Sections 2.4.3-2.4.4: each category's S from the training stage);
* ``nearest_category``: the category whose mean is nearest under its own covariance
  (Section 2.4.4, steps 1-2);
* ``weighted``: the class-membership probability from the Mahalanobis distances to the k
  neighbours (weights 1/d, as ``KNeighborsClassifier(weights="distance")``), class-blind.

Category covariances in a d-dimensional PCA space with fewer documents than d are singular,
so they are shrunk (``covariance="ledoit_wolf"`` by default) and, while a category has fewer
documents than d, inverted through the Woodbury identity (:class:`helpers.gram.ResidualCovariance`):
every distance needs only inner products of documents. Neighbours and votes come from the
kNN engine of :mod:`helpers.neighbours`.

The modules, in the order of the paper (and of notebook 06):

* :mod:`.corpus`: the collection and its preprocessing (Sections 2.1 and 3, Table 1): the stems
  by hand, the TF-IDF formula, the topics;
* :mod:`.pca_checks`: the PCA (Eqs 1-5) fitted and checked, the scale invariance of line 146, the
  components that 90% of the variance needs under a keyword threshold;
* :mod:`.readings`: the readings above, and :class:`KnnOptions`, the choices they share (the
  components' standard deviations, the k tried, the covariance estimate, the seed, the
  bootstrap's resamples, the progress bars), which the readings, the training-size and component
  sweeps, Table 2's settings and the claims against the baselines take as one object;
* :mod:`.sweeps`: many PCA sizes and k from one neighbour search (:func:`component_sweep`,
  :func:`knn_sweep`), the choice of k (:func:`summarize_readings`, :func:`best_k`), Figs 5 and 6
  (:func:`training_size_curve`) and every reading on fewer components
  (:func:`readings_by_components`, :func:`largest_lead`);
* :mod:`.comparisons`: the readings against Euclidean kNN and the conventional classifiers, as
  the evidence of the paper's claims;
* :mod:`.baselines`: the baselines (the dense reference classifier of the classification phase,
  Section 2.4.4, is the library's :class:`helpers.centroids.MahalanobisCentroidClassifier`): naive Bayes, Rocchio
  (:func:`rocchio_predict`, :func:`rocchio_ovr_predict` for several labels) and a linear SVM
  (:func:`baseline_predictions`);
* :mod:`.table2`: Table 2 in three settings;
* :mod:`.figures`: the claims of Figs 5 and 6;
* :mod:`.thresholds`: the keyword threshold the paper does not give, and every claim that
  depends on it judged over its plausible range (:func:`keyword_setting`,
  :func:`keyword_claims`, :func:`claims_over_keywords`, :func:`specification_curve`).

The effects with their 95% intervals that the claims are judged from are the library's: score
differences on the test documents (:func:`helpers.comparisons.effects_against`,
:func:`helpers.effects.bonferroni_effect`), the AUC of line 269 and the trends of Figs 5 and 6
(:mod:`helpers.rank_effects`). Notebook 06 imports those, the data loaders, the text pipeline and
the plots from their own modules.

The slow steps take ``verbose`` (a field of :class:`KnnOptions` where they take one): ``True``
shows a tqdm bar, ``False`` hides it, ``None`` (the default) shows it on a terminal only;
``TQDM_DISABLE=1`` hides every bar.

References
----------
.. [1] N. Srivastava & S. Rao (2016), Learning-based text classifiers using the Mahalanobis
   distance for correlated datasets, Int. J. Big Data Intelligence 3(1), 18-27.
"""

from .baselines import baseline_predictions, rocchio_ovr_predict, rocchio_predict
from .comparisons import (
    BALANCE_KEYS,
    PR_SCORES,
    READING_KEYS,
    DimensionStudy,
    accuracy_by_k,
    balance_claims,
    chosen_readings,
    conventional_claims,
    dimension_claims,
    f1_identities,
    invertibility_claim,
    k_choice_note,
    knn_by_dimension,
    knn_vote_claim,
    measure_claims,
    never_assigning,
    predictions_at,
    probability_as_uncertainty,
    reading_claims,
    reconstruction,
    score_differences,
    tied_disagreements,
)
from .corpus import (
    TABLE1,
    collection_claims,
    document_frequency,
    labels_provenance,
    paper_weights,
    preprocessing_claims,
    stems_by_hand,
    table1_answers,
    topic_statistics,
    topics_in,
)
from .figures import accuracy_table, error_reduction, training_size_claims
from .pca_checks import (
    KEYWORD_COUNTS,
    components_by_vocabulary,
    fit_pca,
    keyword_order,
    least_squares,
    pca_claims,
    pca_residuals,
    scale_invariance,
    sq_mahalanobis,
)
from .readings import MAHAL_READINGS, READINGS, KnnOptions, Readings, mahalanobis_readings
from .sweeps import (
    best_k,
    component_sweep,
    knn_sweep,
    largest_lead,
    readings_by_components,
    summarize_readings,
    training_size_curve,
)
from .table2 import (
    F1_COLUMNS,
    TABLE2_BASELINES,
    other_settings,
    readings_note,
    setting_table,
    settings_note,
    single_label_table,
    table2_answers,
)
from .thresholds import (
    Documents,
    KeywordSetting,
    claims_over_keywords,
    keyword_claims,
    keyword_setting,
    plot_specification_curve,
    specification_curve,
)

__all__ = [
    "BALANCE_KEYS",
    "KEYWORD_COUNTS",
    "F1_COLUMNS",
    "MAHAL_READINGS",
    "PR_SCORES",
    "READINGS",
    "READING_KEYS",
    "TABLE1",
    "TABLE2_BASELINES",
    "DimensionStudy",
    "KnnOptions",
    "Readings",
    "accuracy_by_k",
    "accuracy_table",
    "balance_claims",
    "baseline_predictions",
    "best_k",
    "chosen_readings",
    "collection_claims",
    "component_sweep",
    "components_by_vocabulary",
    "conventional_claims",
    "dimension_claims",
    "document_frequency",
    "error_reduction",
    "f1_identities",
    "fit_pca",
    "invertibility_claim",
    "k_choice_note",
    "knn_by_dimension",
    "knn_sweep",
    "knn_vote_claim",
    "labels_provenance",
    "largest_lead",
    "least_squares",
    "mahalanobis_readings",
    "measure_claims",
    "never_assigning",
    "other_settings",
    "paper_weights",
    "pca_claims",
    "pca_residuals",
    "predictions_at",
    "preprocessing_claims",
    "probability_as_uncertainty",
    "reading_claims",
    "reconstruction",
    "readings_by_components",
    "readings_note",
    "rocchio_ovr_predict",
    "rocchio_predict",
    "scale_invariance",
    "score_differences",
    "setting_table",
    "settings_note",
    "single_label_table",
    "sq_mahalanobis",
    "stems_by_hand",
    "summarize_readings",
    "specification_curve",
    "plot_specification_curve",
    "keyword_setting",
    "keyword_order",
    "keyword_claims",
    "claims_over_keywords",
    "KeywordSetting",
    "Documents",
    "table1_answers",
    "table2_answers",
    "tied_disagreements",
    "topic_statistics",
    "topics_in",
    "training_size_claims",
    "training_size_curve",
]
