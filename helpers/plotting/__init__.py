"""Drawing helpers shared by the notebooks: only what no library draws.

Decision boundaries of fitted scikit-learn classifiers come from
:class:`sklearn.inspection.DecisionBoundaryDisplay`, critical-difference diagrams from
autorank; the rest is here, by kind:

* :mod:`~helpers.plotting.geometry`: the ``p`` prediction ellipse of a bivariate Gaussian, the
  line ``w'x + b = c`` given by its normal vector, unit balls, points before and after whitening;
* :mod:`~helpers.plotting.partitions`: labelled points, Voronoi cells, k-d tree splits, decision
  regions and separating lines;
* :mod:`~helpers.plotting.scores`: confusion matrices, models' scores over resamples, curves over
  a parameter, grouped bars, critical-difference diagrams, a PCA's cumulative variance;
* :mod:`~helpers.plotting.maps`: a row of images, maps of the same objects side by side;
* :mod:`~helpers.plotting.alt`: each figure's title as the alt text of its notebook output.

Every function is importable from ``helpers.plotting``.
"""

from .alt import describe_figures, figure_title
from .geometry import (
    line_points,
    plot_cloud_and_points,
    plot_level_ellipses,
    plot_line,
    plot_prediction_ellipses,
    plot_raw_and_whitened,
    plot_unit_balls,
    plot_whitening,
    prediction_ellipse,
)
from .maps import (
    plot_class_maps,
    plot_image_row,
    plot_labelled_maps,
)
from .partitions import (
    kdtree_splits,
    plot_classes_and_lines,
    plot_decision_panels,
    plot_decision_regions,
    plot_kdtree_splits,
    plot_labelled_points,
    plot_voronoi_cells,
)
from .scores import (
    box_strip,
    plot_against_reference,
    plot_alpha_curves,
    plot_confusions,
    plot_critical_difference,
    plot_cumulative_variance,
    plot_error_curves,
    plot_grouped_bars,
    plot_model_scores,
    plot_pairwise_cd,
    plot_score_curves,
    plot_table_bars,
)

__all__ = [
    "box_strip",
    "describe_figures",
    "figure_title",
    "kdtree_splits",
    "line_points",
    "plot_against_reference",
    "plot_alpha_curves",
    "plot_class_maps",
    "plot_classes_and_lines",
    "plot_cloud_and_points",
    "plot_confusions",
    "plot_critical_difference",
    "plot_pairwise_cd",
    "plot_cumulative_variance",
    "plot_decision_panels",
    "plot_decision_regions",
    "plot_error_curves",
    "plot_grouped_bars",
    "plot_image_row",
    "plot_kdtree_splits",
    "plot_labelled_maps",
    "plot_labelled_points",
    "plot_level_ellipses",
    "plot_line",
    "plot_model_scores",
    "plot_prediction_ellipses",
    "plot_raw_and_whitened",
    "plot_score_curves",
    "plot_table_bars",
    "plot_unit_balls",
    "plot_voronoi_cells",
    "plot_whitening",
    "prediction_ellipse",
]
