"""The Mahal-kNN paper (Srivastava & Rao 2016): its readings, its Table-2 driver and baselines.

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

Around the readings: :func:`component_sweep` and :func:`knn_sweep` (many PCA sizes and k
from one neighbour search), :func:`summarize_readings` and :func:`best_k` (the paper's choice
of k, and leave-one-out's), :func:`training_size_curve` (Figs 5 and 6), the dense reference
classifier :class:`MahalanobisCentroidClassifier` (the classification phase, Section 2.4.4)
and the paper's baselines: naive Bayes, Rocchio (:func:`rocchio_ovr_predict`) and a linear
SVM (:func:`baseline_predictions`).

The slow steps take ``verbose``: ``True`` shows a tqdm bar, ``False`` hides it, ``None``
(the default) shows it on a terminal only; ``TQDM_DISABLE=1`` hides every bar.

References
----------
.. [1] N. Srivastava & S. Rao (2016), Learning-based text classifiers using the Mahalanobis
   distance for correlated datasets, Int. J. Big Data Intelligence 3(1), 18-27.
"""

from .baselines import MahalanobisCentroidClassifier, baseline_predictions, rocchio_ovr_predict
from .readings import READINGS, Readings, mahalanobis_readings
from .sweeps import best_k, component_sweep, knn_sweep, summarize_readings, training_size_curve

__all__ = [
    "READINGS",
    "MahalanobisCentroidClassifier",
    "Readings",
    "baseline_predictions",
    "best_k",
    "component_sweep",
    "knn_sweep",
    "mahalanobis_readings",
    "rocchio_ovr_predict",
    "summarize_readings",
    "training_size_curve",
]
