"""Every estimator class of the package under scikit-learn's common checks.

``parametrize_with_checks`` runs scikit-learn's own contract tests (cloning, fitted
attributes, input validation, sparse and non-negative input, pickling, ...). A check is
skipped only where it cannot apply, with the reason next to it.
"""

import numpy as np
from sklearn.covariance import OAS, LedoitWolf
from sklearn.utils.estimator_checks import parametrize_with_checks

from helpers.estimators import ClassConditionalKNN, ExpectedWhitener, Whitener
from helpers.gram import GramPCA
from helpers.studies.srivastava_rao_2016 import MahalanobisCentroidClassifier
from helpers.text import PaperTfidfTransformer

ESTIMATORS = [
    Whitener(),
    Whitener(method="zca", center=True),
    Whitener(covariance=LedoitWolf()),
    ExpectedWhitener(),
    ExpectedWhitener(covariance="ledoit_wolf", center=True),
    ClassConditionalKNN(),
    ClassConditionalKNN(metric="euclidean", covariance="oas"),
    ClassConditionalKNN(metric="euclidean", covariance=OAS()),
    GramPCA(),
    GramPCA(0.9, whiten=True, dtype=np.float32),
    PaperTfidfTransformer(),
    PaperTfidfTransformer(norm=None),
    MahalanobisCentroidClassifier(),
    MahalanobisCentroidClassifier("sample", degenerate_rtol=None),
]


def expected_failures(estimator):
    if isinstance(estimator, ClassConditionalKNN) and estimator.metric == "cosine":
        return {
            "check_estimators_dtypes": "its integer data contain all-zero rows, whose cosine similarity is "
            "undefined; the estimator refuses them (the metric='euclidean' instances pass this check)"
        }
    return {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failures)
def test_sklearn_contract(estimator, check):
    check(estimator)


def test_every_estimator_class_is_checked():
    # the six estimator classes of the package, each at least once above
    classes = {type(e) for e in ESTIMATORS}
    assert classes == {Whitener, ExpectedWhitener, ClassConditionalKNN, GramPCA, PaperTfidfTransformer,
                       MahalanobisCentroidClassifier}
