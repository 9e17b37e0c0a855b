"""Does the covariance each source credits help beyond its data set? The own study, fifth edition.

Each source rests its claim on one data set: the variance-adjusted cosine and the
expected-Cholesky SVC of Sahoo & Maiti on the Wisconsin data, Mahal-kNN of Srivastava & Rao
on Reuters-21578. This study tests each claim, in every reading the sources support, over
every data set that meets criteria written down before any result, with one protocol; the
protocol (``data/protocols/generalisation_v5.toml``) fixes the claims, the comparison that
decides each (the reading against the method it nests: the same method with its covariance
switched off), readings, criteria, grids, metric, ROPE and decision rule, and its SHA-256 is
stored with every score. Editions 2 (the pre-registered record), 3 and 4 are kept beside it
with their protocols and scores, to be compared with (:func:`edition_comparison`) and
recomputed (``--edition 2``, ``3`` or ``4``).

* :mod:`.preregistration`: :func:`load_protocol`, :func:`protocol_path` of each edition;
* :mod:`.datasets`: :func:`study_datasets` (the collection's sets under the criteria, then
  Reuters-21578 in the Mahal-kNN paper's pipeline; larger sets capped), :func:`study_names`;
* :mod:`.readings`: the fifteen methods (:data:`METHOD_LABELS`), one inner-CV engine for all,
  every covariance-aware method nesting its plain counterpart at shrinkage 1 (the shrinkage
  paths of :mod:`helpers.shrinkage`: every shrinkage from one eigendecomposition);
* :mod:`.scores`: the per-fold computation (resumable, parallel, on Dask given an address),
  stored under ``data/results/`` with the protocol's hash (:func:`stored_results`), and
  :func:`recompute_sample`, which recomputes stored folds and lists every difference;
* :mod:`.evidence`: each claim's contrasts and effects (Hodges-Lehmann with its interval,
  Wilcoxon with Holm, the Bayesian signed-rank posterior at the ROPE: argmax shares and
  masses), leave-one-out, the hierarchical
  model, flags and grid edges; :mod:`.exploratory`: the pre-specified property (the pairwise
  tests over data sets and their diagram are the library's: :func:`helpers.significance.pairwise_signed_rank`,
  :func:`helpers.plotting.scores.plot_pairwise_cd`);
* :mod:`.edge_probe`: one grid step beyond every SVC tuning on an edge of its grid, and
  whether the end bound it (:func:`stored_probe`, :func:`edge_summary`, edition 4); how far
  beyond its grids the fifth edition's search stepped (:func:`steps_beyond`);
* :mod:`.contrasts`: scaling alone against the covariance beyond it (:func:`decomposition`),
  Reuters-21578 alone (:func:`reuters_rows`);
* :mod:`.report`: the tables the notebook shows, :func:`edition_comparison` among them.

The command line: ``python -m helpers.workbook study {run,verify,hierarchical,edges} [--edition N]``.
The first edition (twenty data sets, twelve methods, a class-blind Mahalanobis reading) is in
the repository's history.

References
----------
.. [1] J. Demsar (2006), Statistical comparisons of classifiers over multiple data sets, JMLR 7, 1-30.
.. [2] A. Benavoli, G. Corani, J. Demsar & M. Zaffalon (2017), Time for a change: a tutorial for
   comparing multiple classifiers through Bayesian analysis, JMLR 18(77), 1-36.
.. [3] G. Corani, A. Benavoli, J. Demsar, F. Mangili & M. Zaffalon (2017), Statistical comparison of
   classifiers through Bayesian hierarchical modelling, Machine Learning 106, 1817-1837.
.. [4] S. Holm (1979), A simple sequentially rejective multiple test procedure, Scand. J. Statist. 6, 65-70.
"""

from .contrasts import claim_pairs, decomposition, reuters_rows
from .datasets import REUTERS, study_datasets, study_names
from .edge_probe import edge_summary, steps_beyond, stored_probe
from .evidence import (
    claim_effects,
    claim_evidence,
    claim_table,
    contrasts,
    dataset_means,
    flags,
    grid_edges,
    leave_one_out,
)
from .exploratory import property_association
from .hierarchical import hierarchical_posterior
from .preregistration import EDITION, PROTOCOL_PATH, load_protocol, protocol_path
from .readings import METHOD_LABELS, ORDER_DEPENDENT, metric_learn_references
from .report import (
    SHORT_LABELS,
    chosen_values,
    edition_comparison,
    effect_phrase,
    excluded_sets,
    identical_methods_ratio,
    inclusion_summary,
    methods_table,
    order_spread,
    plot_claim_differences,
    protocol_table,
)
from .scores import SCORES_PATH, recompute_sample, scores_path, stored_hierarchical, stored_results

__all__ = [
    "EDITION",
    "METHOD_LABELS",
    "ORDER_DEPENDENT",
    "PROTOCOL_PATH",
    "REUTERS",
    "SCORES_PATH",
    "SHORT_LABELS",
    "chosen_values",
    "claim_pairs",
    "claim_effects",
    "claim_evidence",
    "claim_table",
    "contrasts",
    "decomposition",
    "dataset_means",
    "edge_summary",
    "edition_comparison",
    "effect_phrase",
    "excluded_sets",
    "flags",
    "grid_edges",
    "hierarchical_posterior",
    "identical_methods_ratio",
    "inclusion_summary",
    "leave_one_out",
    "load_protocol",
    "methods_table",
    "metric_learn_references",
    "order_spread",
    "plot_claim_differences",
    "property_association",
    "protocol_path",
    "protocol_table",
    "recompute_sample",
    "reuters_rows",
    "scores_path",
    "stored_hierarchical",
    "steps_beyond",
    "stored_probe",
    "stored_results",
    "study_datasets",
    "study_names",
]
