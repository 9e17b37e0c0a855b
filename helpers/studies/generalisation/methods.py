"""The twelve methods of the comparison and the sources' claims as pairs of them."""

from __future__ import annotations

from dataclasses import dataclass

from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.neighbors import NeighborhoodComponentsAnalysis
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ..._validation import check_int
from ...estimators import TUNED_KNN_KS, ClassConditionalKNN, ExpectedWhitener, TunedKNN, Whitener
from ...whitening import check_covariance_choice

#: numbers of neighbours tried by every kNN's inner cross-validation
KS = TUNED_KNN_KS
#: numbers of neighbours tried by ClassConditionalKNN (a grid search: one fit per k and inner fold)
CCKNN_KS = (1, 5, 11, 21)
#: the C values tried by the linear SVCs (larger C cost libsvm minutes on the largest sets for no gain)
LINEAR_C = (0.01, 0.1, 1.0)
#: the C values of the RBF SVC, and its gamma values as multiples of 1 / n_features
#: (scikit-learn's gamma="scale" on standardised features)
RBF_C = (1.0, 10.0)
RBF_GAMMA = (0.3, 1.0, 3.0)
#: L-BFGS iterations of NCA (scikit-learn's default 50 costs seconds per fit on the largest sets)
NCA_MAX_ITER = 20
#: the shrinkage of the QDA's class covariances tried by its inner cross-validation
QDA_SHRINKAGE = (0.01, 0.1, 0.5, 0.9)

#: method name -> the label shown in tables and figures, in display order
METHODS = {
    "euclidean_knn": "kNN, Euclidean (standardised)",
    "cosine_knn": "kNN, cosine (raw)",
    "scaled_cosine_knn": "kNN, cosine (scaled)",
    "vac_knn": "kNN, variance-adjusted cosine E(W^-1)",
    "mahalanobis_knn": "kNN, Mahalanobis (pooled)",
    "class_conditional_knn": "kNN, class-conditional cosine (Eq. 7)",
    "nca_knn": "NCA + kNN",
    "lda": "LDA (shrunk)",
    "qda": "QDA (shrunk)",
    "linear_svc": "SVC, linear",
    "rbf_svc": "SVC, RBF",
    "expected_cholesky_svc": "SVC, expected Cholesky E(C^-1)",
}

#: method name -> the short column label of the wide tables and figures
SHORT = {
    "euclidean_knn": "euclid", "cosine_knn": "cosine", "scaled_cosine_knn": "cos-scl", "vac_knn": "E(W)-cos",
    "mahalanobis_knn": "mahal", "class_conditional_knn": "cc-cos", "nca_knn": "nca", "lda": "lda", "qda": "qda",
    "linear_svc": "svc-lin", "rbf_svc": "svc-rbf", "expected_cholesky_svc": "svc-E(C)",
}

#: property of :func:`dataset_properties` -> its axis label
PROPERTY_LABELS = {
    "log10_condition": "log10 condition number, pooled covariance",
    "heterogeneity": "class-covariance heterogeneity (Box's M per row and feature)",
    "n_over_p": "rows per feature, n / p",
}


@dataclass(frozen=True)
class Claim:
    """A source's claim as a paired comparison: the covariance-aware method against its plain counterpart."""

    key: str          #: the ledger key notebook 08 answers (two comparisons may answer one claim)
    aware: str        #: the covariance-aware method (a name of :data:`METHODS`)
    plain: str        #: the plain method it is claimed to beat
    source: str       #: the source, in words

    @property
    def label(self) -> str:
        return f"{self.aware} vs {self.plain}"


#: the sources' claims, each tested over the data sets (positive difference: the claim's direction)
CLAIMS = (
    Claim("vac.expected-better", "vac_knn", "cosine_knn", "Sahoo & Maiti (2025), variance-adjusted cosine"),
    Claim("mkn.accuracy-vs-euclidean", "mahalanobis_knn", "euclidean_knn", "Srivastava & Rao (2016), Mahal-kNN"),
    Claim("svm.better-than-kernels", "expected_cholesky_svc", "linear_svc", "Sahoo & Maiti, Cholesky-kernel SVC"),
    Claim("svm.better-than-kernels", "expected_cholesky_svc", "rbf_svc", "Sahoo & Maiti, Cholesky-kernel SVC"),
)


# --------------------------------------------------------------------------------------------
# the methods


def make_methods(n_features: int, covariance="ledoit_wolf", inner_folds: int = 3, random_state: int = 0,
                 ks=KS) -> dict:
    """The twelve classifiers of :data:`METHODS`, unfitted, for data with ``n_features`` columns.

    Every transform sits inside the estimator, so cross-validation fits it on the training
    rows only. Covariance-aware steps estimate their covariances with ``covariance``
    (:func:`helpers.whitening.estimate_covariance`) on standardised features: a shrinkage
    estimate such as Ledoit-Wolf pulls towards a multiple of the identity, which is only a
    sensible target once the features share a scale. The whitening of the sources is
    uncentred, so before ``ExpectedWhitener`` and ``ClassConditionalKNN`` the features are
    only scaled (``StandardScaler(with_mean=False)``, which leaves the expected factor's
    cosines unchanged for the sample covariance).

    ============================  =================================================================
    ``euclidean_knn``             standardise, Euclidean kNN
    ``cosine_knn``                cosine kNN on the raw features (the sources' baseline)
    ``scaled_cosine_knn``         scale (divide by the sd, no centring), cosine kNN: what whitening
                                  adds beyond the scaling it includes
    ``vac_knn``                   scale, ``ExpectedWhitener`` (E(W^-1)), cosine kNN
    ``mahalanobis_knn``           standardise, ``Whitener`` (pooled covariance), Euclidean kNN
    ``class_conditional_knn``     scale, ``ClassConditionalKNN`` (cosine, Eq. 7 of the cosine paper)
    ``nca_knn``                   standardise, NCA, Euclidean kNN
    ``lda``                       standardise, LDA with Ledoit-Wolf shrinkage
    ``qda``                       standardise, QDA with shrunk class covariances, shrinkage by inner CV
    ``linear_svc``                standardise, linear SVC, ``C`` by inner CV
    ``rbf_svc``                   standardise, RBF SVC, ``C`` and ``gamma`` by inner CV
    ``expected_cholesky_svc``     scale, ``ExpectedWhitener`` (E(C^-1)), linear SVC, ``C`` by inner CV
    ============================  =================================================================

    kNN take ``k`` from ``ks`` by :class:`TunedKNN` (NCA, the one slow transform, fitted
    once per training set: ``nested=False``), ``ClassConditionalKNN`` from :data:`CCKNN_KS`
    by ``GridSearchCV``; every inner search uses ``inner_folds`` stratified folds seeded
    with ``random_state``. Grids: :data:`KS`, :data:`LINEAR_C`, :data:`RBF_C` and
    :data:`RBF_GAMMA` / n_features,
    :data:`QDA_SHRINKAGE` (scikit-learn's ``reg_param`` needs more rows than features in
    every class; the eigen solver's shrinkage does not).

    Examples
    --------
    >>> methods = make_methods(4)
    >>> list(methods) == list(METHODS)
    True
    >>> methods["rbf_svc"].param_grid["svc__gamma"]
    [0.075, 0.25, 0.75]
    """
    n_features = check_int(n_features, "n_features", 1, why="the data's columns")
    check_covariance_choice(covariance)
    inner = StratifiedKFold(inner_folds, shuffle=True, random_state=random_state)

    def knn(transformer, metric, nested=True):
        return TunedKNN(transformer, metric=metric, ks=ks, inner_folds=inner_folds, random_state=random_state,
                        nested=nested)

    def grid(pipeline, param_grid):
        return GridSearchCV(pipeline, param_grid, cv=inner, error_score="raise")

    c_grid = {"svc__C": list(LINEAR_C)}
    nca = NeighborhoodComponentsAnalysis(max_iter=NCA_MAX_ITER, random_state=random_state)
    return {
        "euclidean_knn": knn(StandardScaler(), "euclidean"),
        "cosine_knn": knn(None, "cosine"),
        "scaled_cosine_knn": knn(StandardScaler(with_mean=False), "cosine"),
        "vac_knn": knn(make_pipeline(StandardScaler(with_mean=False), ExpectedWhitener(covariance=covariance)),
                       "cosine"),
        "mahalanobis_knn": knn(make_pipeline(StandardScaler(), Whitener(covariance=covariance)), "euclidean"),
        "class_conditional_knn": grid(
            make_pipeline(StandardScaler(with_mean=False), ClassConditionalKNN(covariance=covariance)),
            {"classconditionalknn__n_neighbors": list(CCKNN_KS)}),
        "nca_knn": knn(make_pipeline(StandardScaler(), nca), "euclidean", nested=False),
        "lda": make_pipeline(StandardScaler(), LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")),
        "qda": grid(make_pipeline(StandardScaler(), QuadraticDiscriminantAnalysis(solver="eigen")),
                    {"quadraticdiscriminantanalysis__shrinkage": list(QDA_SHRINKAGE)}),
        "linear_svc": grid(make_pipeline(StandardScaler(), SVC(kernel="linear")), c_grid),
        "rbf_svc": grid(make_pipeline(StandardScaler(), SVC(kernel="rbf")),
                        {"svc__C": list(RBF_C), "svc__gamma": [g / n_features for g in RBF_GAMMA]}),
        "expected_cholesky_svc": grid(make_pipeline(StandardScaler(with_mean=False),
                                                    ExpectedWhitener(covariance=covariance), SVC(kernel="linear")),
                                      c_grid),
    }


def tuning_grids() -> dict:
    """What each method of :data:`METHODS` tunes by inner cross-validation, in words.

    Examples
    --------
    >>> grids = tuning_grids()
    >>> list(grids) == list(METHODS), grids["qda"]
    (True, 'shrinkage in (0.01, 0.1, 0.5, 0.9)')
    """
    return {
        "euclidean_knn": f"k in {KS}", "cosine_knn": f"k in {KS}", "scaled_cosine_knn": f"k in {KS}",
        "vac_knn": f"k in {KS}", "mahalanobis_knn": f"k in {KS}",
        "class_conditional_knn": f"k in {CCKNN_KS}",
        "nca_knn": f"k in {KS} (NCA fitted once per training set, {NCA_MAX_ITER} L-BFGS iterations)",
        "lda": "shrinkage: Ledoit-Wolf formula", "qda": f"shrinkage in {QDA_SHRINKAGE}",
        "linear_svc": f"C in {LINEAR_C}", "rbf_svc": f"C in {RBF_C}, gamma in {RBF_GAMMA} / p",
        "expected_cholesky_svc": f"C in {LINEAR_C}",
    }


