"""Cheng's lecture slides, chapter 5 "Similarity-based learning": the worked examples, checked.

The slides (C.-C. Cheng, National Chiao Tung University, after Kelleher, Mac Namee & D'Arcy)
turn at their line 921 from similarity to dimensionality, and so do the two notebooks that
answer them: notebook 00 takes lines 1-917 (vectors, norms, normalisation, the nearest
neighbour, kNN, the k-d tree, kNN regression, binary similarity, cosine and Mahalanobis) and
notebook 01 lines 919-1243 (k-means and the choice of K, the curse of dimensionality, PCA,
eigenfaces, the bird example). This module holds what the notebooks compute beyond the maths
and the loaders, which it re-exports: the slides' tables as arrays (:class:`Labelled`), their
worked examples, and the checks of their statements.

A function named ``*_claim`` returns a *claim answer*: a dict with ``holds`` (a bool),
``evidence`` (the numbers measured, as a sentence) and, where our protocol is not the slides',
``how``; the notebook hands it to its ledger check, which gives the verdict. Functions named
``*_answers`` return ``{ledger key: value}`` for a family of printed values; ``(value,
{"note": ...})`` carries a note with a value.
"""


from ...data import QUERIES
from .dimensionality import (
    FacePCA,
    alpha_claims,
    alpha_tables,
    bird_claims,
    conjugate_transpose_entries,
    decomposition_claims,
    eigen_claims,
    eigenface_shortcut_claim,
    eigenvalue_answers,
    face_pca,
    lloyd_claims,
    max_variance_claim,
    non_square_eigen_claim,
    perturbed,
    random_unit_directions,
    recognition_claim,
    recognition_table,
    retrieval_rate,
    threshold_answers,
)
from .neighbours import (
    KDSearch,
    MahalanobisCheck,
    binary_answers,
    contingency_by_heading,
    distance_ranks,
    flagged_items,
    is_median_split,
    kdtree_search,
    knn_regression,
    knn_vote,
    mahalanobis_check,
    median_split_claim,
    nearest_rows,
    neighbour_entry,
    one_nn_summary,
    radius_reading,
    ranked_ids,
    sigma_index,
    vote,
    vote_claim,
    weighted_regression,
    with_distances,
)
from .similarity import (
    agreement_claim,
    axiom_failures,
    axioms_claim,
    comparison_answers,
    cosine_law_claim,
    cosine_readings,
    distance_axiom_table,
    donoho_homogeneity_claim,
    even_numerator_claim,
    l1_growth_claim,
    l2_gradient_claim,
    normalised_preference_claims,
    range_normalisation_claim,
    scipy_distance_name,
)
from .tables import (
    KDTREE_QUERY,
    RANK_COLUMNS,
    SIGNUP_FEATURES,
    WEATHER_FEATURES,
    Labelled,
    athletes,
    customers,
    keyed_rows,
    normalised,
    random_queries,
    truncation_note,
    whiskeys,
)

__all__ = [
    # the tables
    "Labelled", "athletes", "customers", "whiskeys", "normalised", "keyed_rows", "random_queries",
    "truncation_note",
    "WEATHER_FEATURES", "SIGNUP_FEATURES", "KDTREE_QUERY", "RANK_COLUMNS",
    # 00: distances and norms
    "axiom_failures", "distance_axiom_table", "axioms_claim", "even_numerator_claim", "scipy_distance_name",
    "agreement_claim", "l2_gradient_claim", "l1_growth_claim", "donoho_homogeneity_claim", "cosine_law_claim",
    # 00: normalisation, the nearest neighbour, kNN
    "comparison_answers", "cosine_readings", "range_normalisation_claim", "normalised_preference_claims",
    "with_distances", "ranked_ids", "one_nn_summary", "nearest_rows", "neighbour_entry", "vote", "vote_claim",
    "distance_ranks", "knn_vote",
    # 00: k-d tree, regression, binary, Mahalanobis
    "is_median_split", "median_split_claim", "KDSearch", "kdtree_search", "radius_reading",
    "knn_regression", "weighted_regression", "binary_answers", "contingency_by_heading",
    "sigma_index", "MahalanobisCheck", "mahalanobis_check",
    "flagged_items",
    # 01: k-means, PCA, eigenfaces, birds
    "lloyd_claims", "alpha_tables", "alpha_claims",
    "FacePCA", "face_pca", "random_unit_directions", "max_variance_claim",
    "conjugate_transpose_entries", "non_square_eigen_claim", "eigen_claims", "decomposition_claims",
    "threshold_answers", "eigenface_shortcut_claim",
    "perturbed", "retrieval_rate", "recognition_table", "recognition_claim",
    "eigenvalue_answers", "bird_claims",
    # re-exported: the maths, loaders and pictures the notebooks use
    "QUERIES",
]
