"""Sahoo & Maiti (2025), variance-adjusted cosine: the paper's protocols, readings and audit (notebook 04).

The "population" protocol, kept under a name that says what it does:
:func:`population_protocol_predict` whitens every test point with the matrix of its *own*
class, so it reads the test labels. Use it to reproduce the papers (Sahoo & Maiti 2025, and
the Cholesky-kernel SVM paper, which reuses it), never to evaluate a classifier.
:func:`label_audit` measures how much of its accuracy the test labels carry: the protocol is
run with each test row's own label and with the labels flipped, under the papers' class
matrices and under controls (:func:`label_audit_controls`: the matrices swapped, plus and minus
the identity, random matrices). :class:`SplitProtocol` holds the settings of the repeated
random splits (their number, test size and seed, the whitening, the processes), stated once
and passed to the split sweeps of both papers, Table 1's protocol grid and the column-order study.

The case study of sections 4-5 (notebook 04), in the order of the paper:

* :func:`wdbc_split` and :func:`wdbc_features`: the Wisconsin data, its columns as the paper describes
  them, and the 80:20 split;
* :func:`k_error_curves`: Fig. 2, misclassification error against K on the test split and
  under three fold schemes;
* :func:`three_cases` and :func:`classification_rows`: the three cases of lines 353-370 (raw
  cosine, each row with its own class's factor, :math:`E(W^{-1})`) and the rows of their
  classification tables (Figs. 3-5); :func:`eq9_by_hand` writes Eq. 9 out;
* :func:`eq7_versus_case2`: case 2's cosine against Eq. 7's, which uses one factor per pair;
* :func:`leak_free_models` and :func:`split_sweep`: the methods over random splits with every
  transform fitted on training rows, beside the label-using case 2; :data:`PAIRS`, the pairs of
  the normalisation and decorrelation claims (their accuracy differences with Nadeau-Bengio
  intervals: :func:`helpers.comparisons.pair_effects`);
* :func:`table1_protocol`, :func:`table1_protocol_grid` and :func:`protocols_printing_as`:
  Table 1 (LOOCV and 5-fold CV) under our stated protocol and a grid of plausible ones, and
  which protocols print as the paper's cells (:func:`helpers.display.prints_as`).

Two methods' predictions on the same rows are compared with :mod:`helpers.comparisons`
(:func:`~helpers.comparisons.prediction_effects`: the accuracy difference with a paired
bootstrap interval and the exact McNemar test beside it).

The workbook's own finding (module :mod:`.column_order`): :math:`E(W^{-1})` mixes Cholesky factors,
which depend on the order of the columns, so its cosines and kNN answers change when the same
features are listed in another order; one pooled whitening, Eq. 7 and mixed symmetric factors
do not (:func:`column_order_study`, :func:`order_geometry`, :func:`order_averaged_difference`,
:func:`plot_column_orders`).
"""

from ...whitening import METHODS
from .case_study import (
    CASES,
    PAIRS,
    PAPER_FEATURES,
    TABLE_ROWS,
    Split,
    classification_reports,
    classification_rows,
    cosine_knn,
    eq7_versus_case2,
    eq9_by_hand,
    k_error_curves,
    leak_free_models,
    protocols_printing_as,
    split_sweep,
    table1_protocol,
    table1_protocol_grid,
    three_cases,
    wdbc_features,
    wdbc_split,
)
from .column_order import (
    ROUNDING_BOUND,
    SYMMETRIC_METHODS,
    TRANSFORMS,
    ColumnOrderStudy,
    column_order_study,
    format_spread,
    knn_from_similarity,
    order_averaged_difference,
    order_geometry,
    plot_column_orders,
    random_column_orders,
)
from .derivations import (
    class_factor_checks,
    derivation_cases,
    eqs_1_to_4,
    expected_factor_checks,
    expected_whitening_error,
    method_invariance,
    rel,
    uncentred_transform,
)
from .limitations import (
    area_features,
    cosine_nn,
    cosine_nn_agreement,
    fig1_points,
    salary_age_shares,
)
from .protocol import (
    SplitProtocol,
    label_audit,
    label_audit_controls,
    population_protocol_cv,
    population_protocol_predict,
    population_split_scores,
)

__all__ = [
    "CASES",
    "METHODS",
    "PAIRS",
    "PAPER_FEATURES",
    "ROUNDING_BOUND",
    "SYMMETRIC_METHODS",
    "TABLE_ROWS",
    "TRANSFORMS",
    "ColumnOrderStudy",
    "Split",
    "SplitProtocol",
    "area_features",
    "class_factor_checks",
    "classification_reports",
    "classification_rows",
    "column_order_study",
    "cosine_knn",
    "cosine_nn",
    "cosine_nn_agreement",
    "derivation_cases",
    "eq7_versus_case2",
    "eq9_by_hand",
    "eqs_1_to_4",
    "expected_factor_checks",
    "expected_whitening_error",
    "fig1_points",
    "format_spread",
    "k_error_curves",
    "knn_from_similarity",
    "label_audit",
    "label_audit_controls",
    "leak_free_models",
    "method_invariance",
    "order_averaged_difference",
    "order_geometry",
    "plot_column_orders",
    "population_protocol_cv",
    "population_protocol_predict",
    "population_split_scores",
    "protocols_printing_as",
    "random_column_orders",
    "rel",
    "salary_age_shares",
    "split_sweep",
    "table1_protocol",
    "table1_protocol_grid",
    "three_cases",
    "uncentred_transform",
    "wdbc_features",
    "wdbc_split",
]
