"""The studies: one module per source or own study, and the manifest of the notebooks.

A module here holds what one source (or one of the workbook's own studies) needs beyond the
maths and the loaders: the protocol it describes, its readings, its drivers. Modules of a
source are named after its authors and year, so that the path says where an idea comes from
(two papers of one year are ``a`` and ``b``, in order of appearance); a source without a year
is named after its author and kind; the workbook's own studies after their question.

======================================  ==================================================
:mod:`.cheng_slides`                    Cheng's lecture slides, chapter 5 (notebooks 00 and
                                        01): the slides' tables, worked examples and the
                                        checks of their statements
:mod:`.sahoo_maiti_2025a`               Sahoo & Maiti (2025), variance-adjusted cosine: the
                                        label-using "population" protocol and its audit, the
                                        case study of notebook 04, Fig. 1 and Eqs. 1-10
:mod:`.sahoo_maiti_2025b`               Sahoo & Maiti (2025), Cholesky-kernel SVC: its case
                                        study (notebook 05), its kernel and its derivations
:mod:`.srivastava_rao_2016`             Srivastava & Rao (2016), Mahal-kNN: the collection,
                                        the PCA checks, its readings, sweeps, comparisons,
                                        Table 2, nearest category and Rocchio; its Figs. 2-3
                                        and Eqs. 6-18 (``derivations``)
:mod:`.lecture_notes_6_2`               the lecture notes' section 6.2 (notebook 07): their
                                        data, their R code ported, one driver per check
:mod:`.generalisation`                  the workbook's own study: the sources' claims over
                                        many data sets (notebook 08)
======================================  ==================================================

:data:`NOTEBOOKS` is the manifest: for each notebook, by its two-digit number, its file, title,
the sources it answers (ledger prefixes, :data:`SOURCES`), its study modules, the allowed values
of its parameters, the seconds it takes and whether it is one of the workbook's own studies.
The tooling (:mod:`helpers.workbook`) reads it; a new notebook is one entry here. Studies import
the maths and the data layers, never the workbook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .._names import COVARIANCES, METHODS
from .._validation import Boolean, Check, DictOf, Integer, ListOf, OneOf, Real, Text

__all__ = ["NOTEBOOKS", "SOURCES", "Notebook", "Source", "notebook"]


@dataclass(frozen=True)
class Source:
    """One of the five documents the workbook reproduces."""

    file: str        #: the text's file name (the ledger's ``source`` column)
    prefix: str      #: the prefix of its ledger ids
    name: str        #: short name, for tables
    citation: str    #: its key in ``book/references.bib``


#: the five sources, by text file
SOURCES: dict[str, Source] = {s.file: s for s in (
    Source("000_355ea6f26af76eed.txt", "VAC", "Sahoo & Maiti (2025), variance-adjusted cosine", "sahoo2025vac"),
    Source("001_a9361abd8dd83813.txt", "MDS", "Lecture notes 6.2, MDS from similarities", "mvnotes62"),
    Source("002_2b37f568fcc9c7e9.txt", "SVM", "Sahoo & Maiti, Cholesky-kernel SVC", "sahoo2025cholesky"),
    Source("003_9c226eb02e43f5a5.txt", "MKN", "Srivastava & Rao (2016), Mahal-kNN", "srivastava2016"),
    Source("004_6c0232f09c74f77d.txt", "SBL", "Lecture slides, similarity-based learning", "cheng_slides"),
)}


@dataclass(frozen=True)
class Notebook:
    """A notebook of the workbook, as the tooling needs to know it."""

    number: str                                  #: two digits, the file's prefix
    stem: str                                    #: file name without ``.ipynb``
    title: str                                   #: short title
    sources: tuple[str, ...]                     #: ledger prefixes of the sources it answers
    studies: tuple[str, ...]                     #: modules of this package it imports its study from
    parameters: Mapping[str, Check]              #: allowed values of its parameters
    seconds: float                               #: run time alone on 2 cores (longest first when run together)
    own_study: bool = False                      #: one of the workbook's own studies (after the sources' sections)
    relations: tuple[tuple[str, tuple[str, ...], Callable], ...] = field(default=())  #: conditions on several

    @property
    def citations(self) -> tuple[str, ...]:
        """Bibliography keys of the sources it answers."""
        by_prefix = {s.prefix: s.citation for s in SOURCES.values()}
        return tuple(by_prefix[p] for p in self.sources)


# the vocabulary of the parameter specs
SEED = Integer(0, 2**32 - 1)           # numpy and scikit-learn accept seeds in [0, 2**32 - 1]
COUNT = Integer(1)
POSITIVE = Real(0, closed="neither")
FRACTION = Real(0, 1, closed="neither")
POINT = ListOf(Real(), length=2)
MATRIX_2X2 = ListOf(ListOf(Real(), length=2), length=2)
COVARIANCE = OneOf(COVARIANCES) | Real(0, 1)      # a name of helpers.whitening.COVARIANCES or a shrinkage
RESULTS_PATH = OneOf([None]) | Text()
N_JOBS = COUNT | OneOf([-1])

#: every notebook, by number (seconds: one at a time on 2 cores, benchmarks/README.md case 7)
NOTEBOOKS: dict[str, Notebook] = {nb.number: nb for nb in (
    Notebook("00", "00_similarity_primer", "Similarity-based learning: a primer", ("SBL",), ("cheng_slides",), {
        "random_state": SEED, "results_path": RESULTS_PATH,
    }, seconds=6),
    Notebook("01", "01_dimensionality_primer", "Dimensionality: k-means, the curse of dimensionality and PCA",
             ("SBL",), ("cheng_slides",), {
        "random_state": SEED, "kmeans_k_max": Integer(2), "kmeans_n_init": COUNT, "alpha_tol": FRACTION,
        "alpha_tols": ListOf(FRACTION), "face_share": Real(0, 1, closed="right"),
        "face_noise_sds": ListOf(Real(0)), "face_shifts": ListOf(Integer(0)), "results_path": RESULTS_PATH,
    }, seconds=7),
    Notebook("02", "02_limitations", "Where Euclidean distance and cosine similarity mislead",
             ("VAC", "SVM", "MKN"), ("sahoo_maiti_2025a", "sahoo_maiti_2025b", "srivastava_rao_2016.derivations"), {
        "random_state": SEED, "fig1_cov": MATRIX_2X2, "point_a": POINT, "point_b": POINT, "point_c": POINT,
        "nn_dims": Integer(2), "nn_correlation": Real(-1, 1, closed="neither"), "nn_n": Integer(2),
        "far_point": POINT, "far_level": FRACTION, "near_point": POINT, "near_level": FRACTION,
        "fig3_correlation": Real(-1, 1, closed="neither"), "fig3_n": Integer(3), "fig3_radius": POSITIVE,
        "svm_n_train": Integer(2), "svm_n_test": COUNT, "svm_sd_tight": POSITIVE, "svm_sd_wide": POSITIVE,
        "svm_gap": Real(0), "svm_C": POSITIVE, "k_neighbours": COUNT, "results_path": RESULTS_PATH,
    }, seconds=11),
    Notebook("03", "03_whitening_derivation", "Whitening: the derivations of the three papers, checked step by step",
             ("VAC", "SVM", "MKN"), ("sahoo_maiti_2025a", "sahoo_maiti_2025b", "srivastava_rao_2016.derivations"), {
        "random_state": SEED, "n_random_features": Integer(2), "n_random_samples": Integer(3),
        "rounding_bound": POSITIVE, "cosine_bounds": DictOf(POSITIVE, keys=("WDBC", "random SPD")),
        "distance_bounds": DictOf(POSITIVE, keys=("WDBC", "random SPD")), "svm_n_per_class": Integer(3),
        "svm_mean_pos": POINT, "svm_cov_pos": MATRIX_2X2, "svm_mean_neg": POINT, "svm_cov_neg": MATRIX_2X2,
        "svm_C": POSITIVE, "qp_C": POSITIVE, "unit_change": ListOf(POSITIVE, length=2), "results_path": RESULTS_PATH,
    }, seconds=5),
    Notebook("04", "04_wisconsin_cosine_knn", "Wisconsin breast cancer: variance-adjusted cosine kNN",
             ("VAC",), ("sahoo_maiti_2025a",), {
        "random_state": SEED, "test_size": FRACTION, "k": COUNT, "method": OneOf(METHODS), "covariance": COVARIANCE,
        "n_splits_sweep": Integer(2), "n_repeats": COUNT, "n_random_transforms": COUNT, "n_orders": COUNT,
        "results_path": RESULTS_PATH,
    }, seconds=45),
    Notebook("05", "05_cholesky_svm", "Wisconsin breast cancer: the Cholesky-kernel SVM", ("SVM",),
             ("sahoo_maiti_2025b",), {
        "random_state": SEED, "test_size": FRACTION, "method": OneOf(METHODS), "covariance": COVARIANCE,
        "n_splits_sweep": Integer(2), "n_random_transforms": COUNT, "n_orders": COUNT, "n_jobs": N_JOBS,
        "results_path": RESULTS_PATH,
    }, seconds=150),
    Notebook("06", "06_reuters_mahalanobis_knn", "Mahal-kNN on Reuters-21578", ("MKN",), ("srivastava_rao_2016",), {
        "categories": Integer(2), "variance_retained": Real(0, 1, closed="right"), "k_min": COUNT, "k_max": COUNT,
        "covariance": COVARIANCE, "tfidf": OneOf(["paper", "sklearn"]), "sweep_components": ListOf(COUNT),
        "train_fractions": ListOf(Real(0, 1, closed="right")), "reading_components": ListOf(COUNT),
        "keyword_counts": ListOf(COUNT), "n_resamples": COUNT, "random_state": SEED, "verbose": Boolean(),
        "results_path": RESULTS_PATH,
    }, seconds=270, relations=(("k_min <= k_max", ("k_min", "k_max"), lambda p: p["k_min"] <= p["k_max"]),)),
    Notebook("07", "07_mds_similarity", "Classical MDS from similarity matrices", ("MDS",), ("lecture_notes_6_2",), {
        "n_images": Integer(2, 10_000), "threshold": Real(0, 1, closed="left"), "n_resamples": COUNT,
        "random_state": SEED, "results_path": RESULTS_PATH,
    }, seconds=45),
    Notebook("08", "08_generalisation", "Does covariance-aware similarity help elsewhere?", ("VAC", "SVM", "MKN"),
             ("generalisation",), {
        "metric": OneOf(["accuracy", "balanced_accuracy"]), "exclude": Text(), "recompute": Integer(0, 20),
        "results_path": RESULTS_PATH,
    }, seconds=8, own_study=True),
)}


def notebook(name) -> Notebook | None:
    """The manifest entry of a notebook, by number (``"04"``), file name or path; ``None`` if unknown.

    Examples
    --------
    >>> notebook("notebooks/04_wisconsin_cosine_knn.ipynb").sources, notebook("scratch.ipynb")
    (('VAC',), None)
    """
    from pathlib import Path

    key = str(name)
    key = Path(key).name[:2] if len(key) > 2 else key
    return NOTEBOOKS.get(key)
