"""Points and how a classifier or a tree partitions the plane: labelled points, Voronoi cells, k-d tree
splits, decision regions and separating lines."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import (
    Integer,
    OneOf,
    as_float_array,
    check_value,
)
from ._common import colormap
from .geometry import plot_line


def kdtree_splits(X, max_depth: int | None = None) -> list[dict]:
    """The textbook k-d tree's median splits, cycling through the features.

    Each node stores the instance at the median of its region along feature
    ``depth % n_features`` (the upper median for an even count, ``len // 2`` after a
    stable sort); instances before it go left, after it right. This is the construction
    drawn on the slides; the search itself is left to ``sklearn.neighbors.KDTree``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    max_depth : int, optional
        Stop splitting below this depth (``None``: until every region holds one instance).

    Returns
    -------
    list of dict
        In pre-order, each with ``index`` (row of ``X``), ``depth``, ``feature``,
        ``value`` and the region's ``lower`` and ``upper`` bounds (arrays, +-inf outside).

    Examples
    --------
    >>> splits = kdtree_splits([[1.0, 5.0], [2.0, 1.0], [3.0, 4.0]])
    >>> [(s["index"], s["feature"], s["value"]) for s in splits]
    [(1, 0, 2.0), (0, 1, 5.0), (2, 1, 4.0)]
    """
    X = as_float_array(X, "X", ndim=2)
    check_value(max_depth, OneOf([None]) | Integer(0), "max_depth", why="None: split to single instances")
    out: list[dict] = []

    def split(rows, depth, lower, upper):
        if len(rows) == 0 or (max_depth is not None and depth >= max_depth):
            return
        feature = depth % X.shape[1]
        rows = rows[np.argsort(X[rows, feature], kind="stable")]
        mid = len(rows) // 2
        value = X[rows[mid], feature]
        out.append({"index": int(rows[mid]), "depth": depth, "feature": feature, "value": float(value),
                    "lower": lower.copy(), "upper": upper.copy()})
        left_upper, right_lower = upper.copy(), lower.copy()
        left_upper[feature] = value
        right_lower[feature] = value
        split(rows[:mid], depth + 1, lower, left_upper)
        split(rows[mid + 1 :], depth + 1, right_lower, upper)

    split(np.arange(X.shape[0]), 0, np.full(X.shape[1], -np.inf), np.full(X.shape[1], np.inf))
    return out

def plot_kdtree_splits(ax, splits: list[dict], xlim, ylim, **kwargs):
    """Draw 2-D k-d tree splits as line segments clipped to each node's region."""
    style = {"color": "0.3", "linewidth": 1.0} | kwargs
    for s in splits:
        lo = np.maximum(s["lower"], [xlim[0], ylim[0]])
        hi = np.minimum(s["upper"], [xlim[1], ylim[1]])
        if s["feature"] == 0:
            ax.plot([s["value"], s["value"]], [lo[1], hi[1]], **style)
        else:
            ax.plot([lo[0], hi[0]], [s["value"], s["value"]], **style)
    ax.set(xlim=xlim, ylim=ylim)
    return ax

def plot_decision_regions(ax, clf, X, labels, *, grid_resolution: int = 200, eps: float = 0.5,
                          markers=("o", "^"), cmap: str = "coolwarm"):
    """Shade the regions a fitted 2-D classifier predicts, and draw the training points by class.

    A thin wrapper of :class:`sklearn.inspection.DecisionBoundaryDisplay` for the slides'
    kNN pictures: the regions are the classifier's predictions on a grid, each class of
    ``labels`` is drawn with its own marker, and the legend names the classes.

    Parameters
    ----------
    ax : matplotlib Axes
    clf : fitted classifier with two features
        E.g. ``KNeighborsClassifier(5).fit(X, labels)``; its ``classes_`` fix the colours.
    X : array-like of shape (n_samples, 2)
        The points to draw (usually the training data).
    labels : array-like of shape (n_samples,)
        Their classes, drawn in the order of ``clf.classes_``.
    grid_resolution : int, default=200
        Grid points per axis.
    eps : float, default=0.5
        Margin around ``X`` of the shaded area.
    markers : sequence of str
        One marker per class, in the order of ``clf.classes_``.
    cmap : str
        Colour map of the regions and points.

    Returns
    -------
    DecisionBoundaryDisplay
    """
    from sklearn.inspection import DecisionBoundaryDisplay

    X = as_float_array(X, "X", ndim=2)
    labels = np.asarray(labels)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 features to draw regions in the plane; got shape {X.shape}.")
    if len(labels) != len(X):
        raise ValueError(f"labels has {len(labels)} entries for {len(X)} points; give one label per row of X.")
    if not hasattr(clf, "classes_"):
        raise ValueError(f"clf must be a fitted classifier (it has no classes_); call clf.fit(X, labels) first: "
                         f"{clf!r}.")
    classes = list(clf.classes_)
    unknown = sorted({v for v in labels.tolist() if v not in classes}, key=str)
    if unknown:
        raise ValueError(f"labels {unknown} are not classes of clf (its classes_ are {np.asarray(classes).tolist()}); "
                         "pass the labels clf was fitted on.")
    if len(markers) < len(classes):
        raise ValueError(f"{len(classes)} classes but {len(markers)} markers; pass one marker per class.")
    codes = np.array([classes.index(v) for v in labels])
    display = DecisionBoundaryDisplay.from_estimator(
        clf, X, response_method="predict", alpha=0.3, ax=ax, grid_resolution=grid_resolution, eps=eps,
        cmap=cmap, plot_method="pcolormesh", shading="auto",
    )
    colours = [colormap(cmap)(i / max(len(classes) - 1, 1)) for i in range(len(classes))]
    for i, (name, marker) in enumerate(zip(classes, markers)):
        sel = codes == i
        ax.scatter(X[sel, 0], X[sel, 1], marker=marker, color=colours[i], edgecolor="k", label=str(name), zorder=3)
    return display

def plot_labelled_points(ax, X, labels, markers=("o", "^"), classes=None, label: str = "{}", **kwargs):
    """Scatter 2-D points, one marker and legend entry per class (``label`` formats the class name).

    Parameters
    ----------
    ax : matplotlib Axes
    X : array-like of shape (n_samples, 2)
    labels : array-like of shape (n_samples,)
    markers : sequence of str
        One per class, in the order of ``classes``.
    classes : sequence, optional
        The classes to draw, in order (default: the sorted distinct labels).
    label : str
        Legend text, ``label.format(class)``.
    **kwargs
        Passed to ``ax.scatter`` (``s``, ``edgecolor``, ``zorder``, ...).

    Returns
    -------
    list of PathCollection, one per class

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> _, ax = plt.subplots()
    >>> drawn = plot_labelled_points(ax, [[0, 0], [1, 1], [2, 2]], ["no", "yes", "no"], label="draft = {}")
    >>> [(c.get_label(), len(c.get_offsets())) for c in drawn]
    [('draft = no', 2), ('draft = yes', 1)]
    """
    X = as_float_array(X, "X", ndim=2)
    labels = np.asarray(labels)
    if X.shape[1] != 2 or len(labels) != len(X):
        raise ValueError(f"X must have 2 columns and one label per row; got X of shape {X.shape} and "
                         f"{len(labels)} labels.")
    classes = sorted(set(labels.tolist()), key=str) if classes is None else list(classes)
    if len(markers) < len(classes):
        raise ValueError(f"{len(classes)} classes but {len(markers)} markers; pass one marker per class.")
    return [ax.scatter(*X[labels == c].T, marker=m, label=label.format(c), **kwargs) for c, m in zip(classes, markers)]

def plot_voronoi_cells(ax, X, xlim=None, ylim=None, line_width: float = 0.8):
    """Draw the Voronoi cells of 2-D points (scipy's ``voronoi_plot_2d``, without vertices or points).

    The 1-NN decision regions of the points are unions of these cells.

    Returns
    -------
    scipy.spatial.Voronoi
        The diagram drawn.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> vor = plot_voronoi_cells(plt.subplots()[1], [[0, 0], [2, 0], [0, 2], [2, 2], [1, 1]])
    >>> sorted(vor.vertices.round(6).tolist())
    [[0.0, 1.0], [1.0, 0.0], [1.0, 2.0], [2.0, 1.0]]
    """
    from scipy.spatial import Voronoi, voronoi_plot_2d

    vor = Voronoi(as_float_array(X, "X", ndim=2))
    voronoi_plot_2d(vor, ax=ax, show_vertices=False, line_width=line_width, point_size=0)
    if xlim is not None:
        ax.set_xlim(xlim)
    if ylim is not None:
        ax.set_ylim(ylim)
    return vor

def plot_decision_panels(classifiers: Mapping, X, labels, *, titles=None, xlabel: str = "", ylabel: str = "",
                         legend_title: str | None = None, panel_size=(4.25, 4.3)):
    """The regions of several fitted 2-D classifiers side by side (:func:`plot_decision_regions` each).

    Parameters
    ----------
    classifiers : mapping
        ``{name: fitted classifier}``, one panel each, in order.
    X, labels : array-like
        The points drawn on every panel and their classes.
    titles : sequence of str, optional
        One per panel (default: the names).
    xlabel, ylabel : str
        Axis labels (the y label on the first panel only; the panels share the y axis).
    legend_title : str, optional
        Title of the legend, drawn on the first panel.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = [[0, 0], [1, 1], [2, 2], [3, 3]], ["a", "a", "b", "b"]
    >>> fig = plot_decision_panels({"K = 1": KNeighborsClassifier(1).fit(X, y)}, X, y, xlabel="x")
    >>> [ax.get_title() for ax in fig.axes], fig.axes[0].get_xlabel()
    (['K = 1'], 'x')
    """
    import matplotlib.pyplot as plt

    if not isinstance(classifiers, Mapping) or not classifiers:
        raise ValueError("classifiers must be a non-empty mapping {name: fitted classifier}.")
    titles = list(classifiers) if titles is None else list(titles)
    if len(titles) != len(classifiers):
        raise ValueError(f"{len(classifiers)} classifiers but {len(titles)} titles; pass one title per panel.")
    fig, axes = plt.subplots(1, len(classifiers), figsize=(panel_size[0] * len(classifiers), panel_size[1]),
                             sharey=True, layout="constrained", squeeze=False)
    for ax, clf, title in zip(axes[0], classifiers.values(), titles):
        plot_decision_regions(ax, clf, X, labels)
        ax.set(title=title, xlabel=xlabel)
    axes[0, 0].set_ylabel(ylabel)
    axes[0, 0].legend(title=legend_title, loc="upper left", fontsize=8)
    return fig

def plot_classes_and_lines(X, y, classes: Mapping, lines=(), *, marked=None, ax=None, xlim=None, ylim=None,
                           title: str, xlabel="$x_1$", ylabel="$x_2$", proxies: Mapping | None = None,
                           legend_loc="upper left", fontsize=8, figsize=(7, 5), size=10):
    """Two-dimensional classes as dots, with lines ``w'x + b = c`` (decision and margin lines) across the axes.

    Parameters
    ----------
    X : (n, 2) array
    y : (n,) array
    classes : dict of {label value: (name, colour)}
        The classes to draw, in legend order.
    lines : iterable of (w, b, c, style)
        Each drawn with :func:`plot_line` (``style``: keyword arguments such as ``label``, ``ls``).
    marked : (m, 2) array, optional
        Points circled in black (e.g. support vectors), labelled "support vectors".
    ax : matplotlib Axes, optional
        Drawn into (e.g. after a contour); a new ``figsize`` figure otherwise.
    xlim, ylim : (float, float), optional
        Set before the lines are drawn; the data's range otherwise.
    proxies : dict of {legend label: colour}, optional
        Legend entries for what was drawn outside (e.g. a contour).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> X, y = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0], [4.0, 4.0]]), np.array([0, 0, 1, 1])
    >>> ax = plot_classes_and_lines(X, y, {0: ("a", "tab:blue"), 1: ("b", "tab:orange")},
    ...                             [([1.0, 1.0], -4.0, 0.0, {"color": "k", "label": "boundary"})], title="t")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a', 'b', 'boundary']
    """
    import matplotlib.pyplot as plt

    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    for value, (name, colour) in classes.items():
        ax.scatter(*X[y == value].T, s=size, color=colour, label=name)
    if marked is not None:
        ax.scatter(*np.asarray(marked).T, s=60, facecolors="none", edgecolors="k", label="support vectors")
    if xlim is not None or ylim is not None:
        ax.set(xlim=xlim if xlim is not None else ax.get_xlim(), ylim=ylim if ylim is not None else ax.get_ylim())
    for w, b, c, style in lines:
        plot_line(ax, w, b, c=c, **style)
    for label, colour in (proxies or {}).items():
        ax.plot([], [], color=colour, label=label)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel, aspect="equal")
    ax.legend(loc=legend_loc, fontsize=fontsize)
    return ax
