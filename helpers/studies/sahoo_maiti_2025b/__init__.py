"""Sahoo & Maiti (2025), the Cholesky-kernel SVC (arXiv:2504.04371, v1): its case study and its kernel (notebook 05).

The second of the two 2025 papers reuses the first one's protocols on the Wisconsin data
(:mod:`.sahoo_maiti_2025a`: the split, the label-using "population" protocol and its audit)
with support vector classifiers, and its settings of the repeated random splits
(:class:`~helpers.studies.sahoo_maiti_2025a.SplitProtocol`). What this paper needs beyond them,
in the order of its sections 4-6:

* :func:`precision_table`: the precision of each class for the four standard kernels on the
  raw data (Figs. 2-4);
* :func:`two_options`: Option A (each row times its own class's inverse Cholesky factor, which
  reads the test labels) and Option B (:math:`E(C^{-1})` of the training classes), then a
  linear SVC (Figs. 5-6); :func:`eq29_by_hand` writes Eq. 29 out;
* :func:`kernel_check`: Eqs. 18 and 31 as Gram matrices (squared distances: not positive
  semi-definite), with the valid kernels built from the same distances;
  :func:`eq19_versus_optiona` and :func:`eq33_against_constraint` for Eqs. 19 and 33-34;
* :func:`svm_models` and :func:`svm_split_sweep`: the models over random splits with every
  transform fitted on training rows, four metrics;
  :func:`helpers.comparisons.sweep_comparisons` gives the effect of each pair with its corrected
  interval, :func:`advantage_evidence` and :func:`advantage_claim` word and gather them for a claim;
* :func:`table1_svm` and :func:`fold_scheme_scores`: Table 1 (LOOCV and 10-fold CV) under our
  stated protocol, and other fold schemes; :func:`protocol_comparisons` gives Option B's effect
  against each kernel under each protocol (paired bootstrap for LOOCV and the split, corrected
  interval for the folds);
  :func:`loocv_printing_note` says what a LOOCV print shows about rounding and cutting;
  :func:`expected_matrix_closeness` for the paper's reason for cross-validation;
* :mod:`.column_order`, our own finding: :func:`column_order_scores` (Option B over random
  orders of the columns, beside an order-free ZCA mixture), :func:`order_gram_change`, :func:`gram_changes`,
  :func:`order_spread` and :func:`plot_column_orders`.

Section 2's figure and derivations (notebooks 02 and 03):

* :func:`spread_classes`, :func:`support_vector_refits` and :func:`spread_rules`: Fig. 1, a
  tight and a wide class; a linear SVM is fixed by its support vectors, while rules that know
  the class covariances leave the wide class more room;
* :func:`gaussian_example`, :func:`standard_svm_checks`, :func:`earlier_formulations` and
  :func:`unit_change_flips`: Eqs. 1-8, the standard SVM and the earlier covariance
  formulations solved as printed, and which of them depend on the units;
* :func:`input_space_margins` and :func:`eq22_steps`: Eqs. 14-27, one whitened hyperplane as
  two input-space lines, and the step of Eq. 22 that holds only for a symmetric root.
"""


from .case_study import (
    KernelCheck,
    Table1,
    advantage_claim,
    advantage_evidence,
    eq19_versus_optiona,
    eq33_against_constraint,
    expected_matrix_closeness,
    fold_scheme_scores,
    kernel_check,
    loocv_printing_note,
    protocol_comparisons,
    svm_models,
    svm_split_sweep,
    table1_svm,
)
from .column_order import (
    ColumnOrders,
    column_order_scores,
    gram_changes,
    order_gram_change,
    order_spread,
    plot_column_orders,
)
from .derivations import (
    earlier_formulations,
    eq22_steps,
    gaussian_example,
    input_space_margins,
    standard_svm_checks,
    unit_change_flips,
)
from .kernels import (
    KERNELS,
    PAPER_METRICS,
    Options,
    eq29_by_hand,
    precision_table,
    two_options,
)
from .limitations import (
    SpreadRules,
    spread_classes,
    spread_rules,
    support_vector_refits,
)

__all__ = [
    "eq29_by_hand",
    "KERNELS",
    "PAPER_METRICS",
    "ColumnOrders",
    "KernelCheck",
    "Options",
    "SpreadRules",
    "Table1",
    "advantage_claim",
    "advantage_evidence",
    "column_order_scores",
    "earlier_formulations",
    "eq19_versus_optiona",
    "eq22_steps",
    "eq33_against_constraint",
    "expected_matrix_closeness",
    "fold_scheme_scores",
    "gaussian_example",
    "gram_changes",
    "input_space_margins",
    "kernel_check",
    "loocv_printing_note",
    "order_gram_change",
    "order_spread",
    "plot_column_orders",
    "precision_table",
    "protocol_comparisons",
    "spread_classes",
    "spread_rules",
    "standard_svm_checks",
    "support_vector_refits",
    "svm_models",
    "svm_split_sweep",
    "table1_svm",
    "two_options",
    "unit_change_flips",
]
