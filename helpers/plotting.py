"""Drawing helpers shared by the notebooks: Gaussian prediction ellipses and 2-D lines.

Decision boundaries of fitted scikit-learn classifiers are drawn with
:class:`sklearn.inspection.DecisionBoundaryDisplay`; this module holds only what no
library draws: the ``p`` prediction ellipse of a bivariate Gaussian, and the line
``w'x + b = c`` given by its normal vector.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import linalg, stats

from ._validation import (
    Integer,
    OneOf,
    as_float_array,
    check_int,
    check_real,
    check_square_matrix,
    check_symmetric,
    check_value,
)

__all__ = [
    "box_strip",
    "plot_confusions",
    "plot_critical_difference",
    "plot_model_scores",
    "prediction_ellipse",
    "plot_prediction_ellipses",
    "line_points",
    "plot_line",
    "kdtree_splits",
    "plot_kdtree_splits",
    "plot_decision_regions",
]


def _check_number(value, name: str, example: str) -> float:
    """A finite real number (a 0-d array too, such as an element of ``ax.get_xlim()``), or an error naming it."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    return check_real(value, name, example)


def _check_frame(table, name: str, columns) -> None:
    """``table`` is a non-empty DataFrame holding ``columns``; otherwise say which are missing."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame; got {type(table).__name__}. "
                        f"Wrap it: pd.DataFrame({name}).")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"columns {missing} are not in the {name} (it has {list(table.columns)}); "
                         "pass the names of existing columns.")
    if table.empty:
        raise ValueError(f"{name} has no rows (columns {list(table.columns)}): nothing to draw. "
                         "Check the filter or the run that produced it.")


def _check_level(level) -> float:
    return check_real(level, "level", "0.9 for the 90% prediction ellipse", 0.0, 1.0, closed="neither",
                      why="a coverage probability")


def prediction_ellipse(mean, cov, level: float = 0.9, n_points: int = 200, start_angle: float = 0.0) -> np.ndarray:
    """Points on the ``level`` prediction ellipse of a bivariate Gaussian ``N(mean, cov)``.

    The ellipse is ``{x : (x - mean)' inv(cov) (x - mean) = chi2.ppf(level, 2)}``: a draw
    from the Gaussian falls inside it with probability ``level``.

    Parameters
    ----------
    mean : array-like of shape (2,)
    cov : array-like of shape (2, 2)
        Symmetric positive definite covariance.
    level : float in (0, 1), default=0.9
        Coverage probability of the ellipse.
    n_points : int, default=200
        Number of points; the first and last coincide, so the curve closes.
    start_angle : float, default=0
        Angle in degrees, on the circle that the Cholesky factor of ``cov`` maps onto the
        ellipse, of the first point (0: the point ``mean + r L e1``).

    Returns
    -------
    ndarray of shape (n_points, 2)

    Examples
    --------
    With ``cov = I`` the 90% ellipse is the circle of radius ``sqrt(chi2.ppf(0.9, 2))``:

    >>> pts = prediction_ellipse([0, 0], np.eye(2), 0.9, n_points=5)
    >>> print(f"{np.hypot(*pts[1]):.4f} {np.sqrt(-2 * np.log(0.1)):.4f}")
    2.1460 2.1460
    """
    mean = as_float_array(mean, "mean", ndim=1)
    cov = as_float_array(cov, "cov", ndim=2)
    if mean.shape != (2,):
        raise ValueError(f"mean must have shape (2,) for a bivariate ellipse; got {mean.shape}.")
    check_square_matrix(cov, "cov", 2)
    check_symmetric(cov, "cov")
    level = _check_level(level)
    n_points = check_int(n_points, "n_points", 3, "n_points=200", why="to draw a closed curve")
    try:
        L = linalg.cholesky(cov, lower=True)
    except linalg.LinAlgError:
        raise ValueError(
            f"cov must be positive definite; got eigenvalues {np.linalg.eigvalsh(cov)}. "
            "Add a small ridge, e.g. cov + 1e-6 * np.eye(2)."
        ) from None
    radius = np.sqrt(stats.chi2.ppf(level, df=2))
    t = np.radians(float(start_angle)) + np.linspace(0.0, 2.0 * np.pi, int(n_points))
    circle = radius * np.column_stack([np.cos(t), np.sin(t)])
    # x = mean + L u with |u| = radius  =>  (x - mean)' inv(L L') (x - mean) = radius^2
    return mean + circle @ L.T


def plot_prediction_ellipses(ax, mean, cov, levels=(0.1, 0.3, 0.5, 0.7, 0.9), label_levels=True,
                             label_angle=None, **kwargs):
    """Draw the prediction ellipses of ``N(mean, cov)`` at each of ``levels`` on ``ax``.

    Parameters
    ----------
    ax : matplotlib Axes
    mean, cov
        As in :func:`prediction_ellipse`.
    levels : sequence of float in (0, 1)
    label_levels : bool, default=True
        Write the level (e.g. "90%") next to each ellipse.
    label_angle : float or None, default=None
        Where to write the levels: None puts each at the top of its ellipse; a number puts
        it at that ``start_angle`` (see :func:`prediction_ellipse`), e.g. 300 for lower right.
    **kwargs
        Passed to ``ax.plot`` (default: thin grey lines).

    Returns
    -------
    list of Line2D
    """
    style = {"color": "0.5", "lw": 0.8}
    style.update(kwargs)
    lines = []
    for level in levels:
        pts = prediction_ellipse(mean, cov, level, start_angle=label_angle or 0.0)
        lines.extend(ax.plot(pts[:, 0], pts[:, 1], **style))
        if label_levels:
            at = pts[np.argmax(pts[:, 1])] if label_angle is None else pts[0]
            ax.annotate(f"{100 * level:.0f}%", at, textcoords="offset points", xytext=(0, 2),
                        ha="center", va="bottom", fontsize=7, color=style["color"])
    return lines


def line_points(w, b, xlim, c: float = 0.0) -> np.ndarray:
    """Two points spanning the line ``w' x + b = c`` in 2-D across ``xlim``.

    Parameters
    ----------
    w : array-like of shape (2,)
        Normal vector of the line; not zero.
    b : float
        Offset.
    xlim : (float, float)
        Horizontal range to draw over (a vertical line is drawn at its ``x``).
    c : float, default=0
        Level; ``c = +1`` and ``c = -1`` give the SVM margin lines.

    Returns
    -------
    ndarray of shape (2, 2)
        Rows are points on the line.

    Examples
    --------
    >>> print(line_points([1.0, 1.0], -1.0, (0.0, 1.0)))
    [[0. 1.]
     [1. 0.]]
    """
    w = as_float_array(w, "w", ndim=1)
    if w.shape != (2,):
        raise ValueError(f"w must have shape (2,); got {w.shape}.")
    if not np.any(w):
        raise ValueError("w is the zero vector, which defines no line; pass a non-zero normal vector.")
    if np.ndim(xlim) != 1 or len(xlim) != 2:
        raise ValueError(f"xlim must be a pair (x_min, x_max), e.g. ax.get_xlim(); got {xlim!r}.")
    x0, x1 = (_check_number(v, "xlim", "(0.0, 1.0)") for v in xlim)
    b, c = _check_number(b, "b", "-1.0"), _check_number(c, "c", "0.0 (or +-1 for the margins)")
    if abs(w[1]) < 1e-12 * abs(w[0]):
        x = (c - b) / w[0]
        return np.array([[x, -1e6], [x, 1e6]])
    xs = np.array([x0, x1])
    return np.column_stack([xs, (c - b - w[0] * xs) / w[1]])


def plot_line(ax, w, b, c: float = 0.0, **kwargs):
    """Draw the line ``w' x + b = c`` across the current x-limits of ``ax`` (limits kept).

    Returns
    -------
    Line2D
    """
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    pts = line_points(w, b, xlim, c)
    (line,) = ax.plot(pts[:, 0], pts[:, 1], **kwargs)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return line


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
    colours = [_colormap(cmap)(i / max(len(classes) - 1, 1)) for i in range(len(classes))]
    for i, (name, marker) in enumerate(zip(classes, markers)):
        sel = codes == i
        ax.scatter(X[sel, 0], X[sel, 1], marker=marker, color=colours[i], edgecolor="k", label=str(name), zorder=3)
    return display


def _colormap(name: str):
    """The matplotlib colour map called ``name``."""
    import matplotlib

    return matplotlib.colormaps[name]


def box_strip(ax, data, x: str, y: str):
    """A box per value of ``x`` with every observation drawn on top (seaborn box + strip plot).

    Outliers are not drawn twice: the strip already shows each point. Used for
    distributions over random splits or sweep runs (``helpers.workbook.sweep``, and the book's sweeps page).
    """
    import warnings

    import seaborn as sns

    _check_frame(data, "data", [x, y])
    with warnings.catch_warnings():  # seaborn 0.13 passes vert= that Matplotlib 3.11 deprecates
        warnings.filterwarnings("ignore", message=r"vert: bool was deprecated", category=DeprecationWarning)
        sns.boxplot(data=data, x=x, y=y, ax=ax, color="white", showfliers=False)
    sns.stripplot(data=data, x=x, y=y, ax=ax, hue=x, palette="tab10", alpha=0.55, size=3, legend=False)
    return ax



def plot_confusions(cases, labels=("benign", "malignant"), title=None):
    """Confusion-matrix heatmaps side by side, one per ``{name: (y_true, y_pred)}``.

    Returns the matplotlib Figure (the caller adds ``plt.show()``).
    """
    import matplotlib.pyplot as plt
    import seaborn as sns
    from sklearn.metrics import confusion_matrix

    if not isinstance(cases, dict) or not cases:
        raise ValueError("cases must be a non-empty dict {name: (y_true, y_pred)}.")
    for name, case in cases.items():
        if not (isinstance(case, (tuple, list)) and len(case) == 2 and np.ndim(case[0]) == np.ndim(case[1]) == 1):
            raise ValueError(f"cases[{name!r}] must be a pair (y_true, y_pred) of label arrays; got {case!r:.80}.")
        if len(case[0]) != len(case[1]) or len(case[0]) == 0:
            raise ValueError(f"cases[{name!r}]: y_true has {len(case[0])} labels and y_pred {len(case[1])}; "
                             "give one prediction per test point (at least one).")
    fig, axes = plt.subplots(1, len(cases), figsize=(3.6 * len(cases), 3.4), squeeze=False)
    for ax, (name, (yt, yp)) in zip(axes[0], cases.items()):
        cm = confusion_matrix(yt, yp, labels=list(range(len(labels))))
        sns.heatmap(cm, annot=True, fmt="d", cbar=False, cmap="Blues", ax=ax,
                    xticklabels=labels, yticklabels=labels)
        ax.set(title=f"{name}\naccuracy {np.mean(np.asarray(yt) == np.asarray(yp)):.3f}",
               xlabel="predicted", ylabel="true")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_model_scores(table, columns=("mean",), xerr=None, *, xlabel: str, title: str, ax=None, markers="osd^v<>"):
    """Dot chart of models' scores over resamples: one row per model, one marker per score column.

    The summary figure of a repeated-split comparison: ``table`` indexed by model (as
    :func:`helpers.evaluation.summarize_scores` returns it), best first as given.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per model.
    columns : sequence of str, default=("mean",)
        Score columns to draw; several are drawn side by side with small vertical offsets.
    xerr : str, optional
        A column of half-widths drawn as error bars (only with one score column), e.g. ``"sd"``.
    xlabel, title : str
        Axis label and a title that states the finding.
    ax : matplotlib Axes, optional
        Drawn into; a new figure otherwise.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"mean": [0.95, 0.9], "sd": [0.01, 0.02]}, index=["a", "b"])
    >>> ax = plot_model_scores(t, xerr="sd", xlabel="accuracy", title="a beats b")
    >>> [tick.get_text() for tick in ax.get_yticklabels()], ax.get_title()
    (['a', 'b'], 'a beats b')
    """
    import matplotlib.pyplot as plt

    columns = [columns] if isinstance(columns, str) else list(columns)
    _check_frame(table, "table", columns + ([xerr] if xerr else []))
    if xerr is not None and len(columns) != 1:
        raise ValueError(f"xerr draws error bars for one score column; got {len(columns)} columns {columns}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(7 if len(columns) == 1 else 8, 4.6))
    rows = np.arange(len(table))
    if xerr is not None:
        ax.errorbar(
            table[columns[0]], rows, xerr=table[xerr], fmt="o", capsize=3, label=f"{columns[0]} ± {xerr} over splits"
        )
    else:
        offsets = np.linspace(-0.27, 0.27, len(columns)) if len(columns) > 1 else [0.0]
        for offset, column, marker in zip(offsets, columns, markers):
            ax.plot(table[column], rows + offset, marker, label=column)
    ax.set_yticks(rows, table.index)
    ax.invert_yaxis()
    ax.set(xlabel=xlabel, title=title)
    ax.legend(loc="upper left" if xerr is not None else "lower left", fontsize=8 if len(columns) > 1 else None)
    return ax


def plot_critical_difference(result, ax=None, labels: Mapping | None = None):
    """The critical-difference diagram of a :func:`critical_difference` result (autorank's ``plot_stats``).

    Methods joined by a bar do not differ by more than the critical difference (Nemenyi,
    ``result.cd``). Drawn also when the Friedman test is not significant. ``labels`` renames
    the methods (e.g. :data:`METHODS`).
    """
    from autorank import plot_stats

    if labels:
        result = result._replace(rankdf=result.rankdf.rename(index=dict(labels)))
    return plot_stats(result, ax=ax, allow_insignificant=True)


# ------------------------------------------------------------------------------------------
# 00 and 01 (the similarity and dimensionality primers): unit balls, labelled points and
# Voronoi cells, decision regions side by side, whitening, elbow curves, image rows, bars

__all__ += [
    "plot_alpha_curves",
    "plot_decision_panels",
    "plot_grouped_bars",
    "plot_image_row",
    "plot_labelled_points",
    "plot_unit_balls",
    "plot_voronoi_cells",
    "plot_whitening",
]


def plot_unit_balls(ax, ps=(1, 2, np.inf), styles=("-", "--", ":"), n_points: int = 400):
    """Draw the points at distance one from 0 in the plane, ``||x||_p = 1``, for each ``p``.

    Each direction of a circle is rescaled to ``L_p`` length one, so every drawn point lies on
    the unit sphere of its norm; ``np.inf`` gives the square ``max |x_i| = 1``.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_unit_balls(plt.subplots()[1])
    >>> [line.get_label() for line in ax.get_lines()]
    ['L1: ||x|| = 1', 'L2: ||x|| = 1', 'L_inf: ||x|| = 1']
    """
    check_int(n_points, "n_points", 3)
    if len(styles) < len(ps):
        raise ValueError(f"{len(ps)} norms but {len(styles)} line styles; pass one style per p.")
    t = np.linspace(0, 2 * np.pi, n_points)
    circle = np.column_stack([np.cos(t), np.sin(t)])
    for p, style in zip(ps, styles):
        ring = circle / np.linalg.norm(circle, ord=p, axis=1)[:, None]
        ax.plot(*ring.T, style, label=f"L{'_inf' if p == np.inf else f'{p:g}'}: ||x|| = 1")
    ax.set(aspect="equal")
    return ax


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


def plot_whitening(X, query, cov, W, *, levels=(0.5, 0.9), names=("x1", "x2"), point_label: str = "points"):
    """Points and a query with ellipses of equal Mahalanobis distance, raw and after whitening by ``W``.

    Left: the data with the prediction ellipses of ``cov`` around their mean; right: ``Z = X W'``
    with the circles of the identity. When ``W cov W' = I`` the ellipses become circles: the
    Mahalanobis distance is the Euclidean distance of the whitened points.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> X = np.array([[0.0, 0.0], [2.0, 1.0], [1.0, 2.0], [3.0, 3.0]])
    >>> S = np.cov(X, rowvar=False)
    >>> W = np.linalg.inv(np.linalg.cholesky(S))
    >>> fig = plot_whitening(X, [1.0, 1.0], S, W)
    >>> whitened = fig.axes[1].collections[0].get_offsets()
    >>> np.allclose(np.cov(np.asarray(whitened), rowvar=False), np.eye(2))
    True
    """
    import matplotlib.pyplot as plt

    X = as_float_array(X, "X", ndim=2)
    query = as_float_array(query, "query", ndim=1)
    W = as_float_array(W, "W", ndim=2)
    Z, zq = X @ W.T, query @ W.T
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.3), layout="constrained")
    ax1.scatter(*X.T, s=25, label=f"{len(X)} {point_label}")
    plot_prediction_ellipses(ax1, X.mean(0), cov, levels=levels)
    ax1.scatter(*query, marker="*", s=200, color="k", label="query")
    ax1.set(title="Raw: ellipses of equal Mahalanobis distance", xlabel=names[0], ylabel=names[1], aspect="equal")
    ax2.scatter(*Z.T, s=25, label=f"whitened {point_label}")
    plot_prediction_ellipses(ax2, Z.mean(0), np.eye(2), levels=levels)
    ax2.scatter(*zq, marker="*", s=200, color="k", label="whitened query")
    ax2.set(title="Whitened: unit variance, no covariance, circles", xlabel="z1", ylabel="z2", aspect="equal")
    for ax in (ax1, ax2):
        ax.legend(loc="upper left", fontsize=8)
    return fig


def plot_alpha_curves(tables: Mapping, tol: float, titles=("alpha_K = S_K / K falls for any data", "")):
    """The slides' elbow criterion per data set: ``alpha_K / alpha_1`` and the size of its slope, with the tolerance.

    ``tables`` maps a name to a table indexed by ``K`` with columns ``alpha_K`` and ``slope_K``
    (:func:`helpers.clustering.kmeans_alpha_table`); the right panel draws ``-slope_K`` on a log
    scale with the tolerance ``tol`` as a dotted line.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from helpers.clustering import alpha_slopes, slide_alpha
    >>> S = [12.0, 6.0, 3.0, 2.4]
    >>> t = pd.DataFrame({"alpha_K": slide_alpha(S), "slope_K": alpha_slopes(S)}, index=[1, 2, 3, 4])
    >>> fig = plot_alpha_curves({"toy": t}, 0.05)
    >>> fig.axes[0].get_lines()[0].get_ydata().round(4).tolist()
    [1.0, 0.25, 0.0833, 0.05]
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    for (name, t), marker in zip(tables.items(), "osd^v<>"):
        _check_frame(t, f"tables[{name!r}]", ["alpha_K", "slope_K"])
        axes[0].plot(t.index, t["alpha_K"] / t["alpha_K"].iloc[0], marker=marker, label=name)
        axes[1].plot(t.index[:-1], -t["slope_K"].iloc[:-1], marker=marker, label=name)
    axes[0].set(title=titles[0], xlabel="K (clusters)", ylabel="alpha_K / alpha_1")
    axes[1].axhline(tol, color="k", lw=0.8, ls=":", label=f"tolerance {tol}")
    axes[1].set(title=titles[1], xlabel="K (clusters)", ylabel="-(alpha_{K+1} - alpha_K) / alpha_1", yscale="log")
    for ax in axes:
        ax.legend(fontsize=8)
    return fig


def plot_image_row(images, shape, titles, *, cmaps="gray", limits=None, suptitle: str | None = None,
                   width: float = 2.0, fontsize=None):
    """Images side by side, each reshaped to ``shape``, without ticks.

    Parameters
    ----------
    images : sequence of array-like
        Each a flat image (or already of ``shape``).
    shape : tuple
        The image shape, e.g. ``(25, 25)``.
    titles : sequence of str
        One per image.
    cmaps : str or sequence of str
        A colour map for all, or one per image (e.g. grey for faces, a diverging map for eigenfaces).
    limits : (float, float), optional
        ``vmin`` and ``vmax`` for every image (default: each image's own range).
    suptitle : str, optional
        The figure's title (state the finding).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_image_row([np.arange(4.0), np.ones(4)], (2, 2), ["ramp", "flat"], limits=(0, 3))
    >>> fig.axes[0].images[0].get_array().tolist(), fig.axes[1].get_title()
    ([[0.0, 1.0], [2.0, 3.0]], 'flat')
    """
    import matplotlib.pyplot as plt

    if len(titles) != len(images):
        raise ValueError(f"{len(images)} images but {len(titles)} titles; pass one title per image.")
    cmaps = [cmaps] * len(images) if isinstance(cmaps, str) else list(cmaps)
    vmin, vmax = (None, None) if limits is None else limits
    fig, axes = plt.subplots(1, len(images), figsize=(width * len(images), 2.4), squeeze=False)
    for ax, image, title, cmap in zip(axes[0], images, titles, cmaps):
        ax.imshow(np.asarray(image, float).reshape(shape), cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set(xticks=[], yticks=[])
        ax.set_title(title, fontsize=fontsize)
    if suptitle:
        fig.suptitle(suptitle)
    return fig


def plot_grouped_bars(ax, groups: Mapping, categories, width: float = 0.8):
    """Bars of several series side by side for each category (``groups``: ``{legend label: values}``).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_grouped_bars(plt.subplots()[1], {"a": [1, 2], "b": [3, 4]}, ["x", "y"])
    >>> [(round(float(p.get_x() + p.get_width() / 2), 2), float(p.get_height())) for p in ax.patches]
    [(-0.2, 1.0), (0.8, 2.0), (0.2, 3.0), (1.2, 4.0)]
    """
    categories = list(categories)
    if not groups:
        raise ValueError("groups is empty; pass {legend label: one value per category}.")
    for name, values in groups.items():
        if len(values) != len(categories):
            raise ValueError(f"groups[{name!r}] has {len(values)} values for {len(categories)} categories.")
    xs = np.arange(len(categories))
    step = width / len(groups)
    for i, (name, values) in enumerate(groups.items()):
        ax.bar(xs - width / 2 + step * (i + 0.5), values, width=step, label=name)
    ax.set(xticks=xs, xticklabels=categories)
    return ax



# --------------------------------------------------------------------------------------------
# 06: a PCA's cumulative variance, score curves with reference lines, scores against a reference

__all__ += ["plot_against_reference", "plot_cumulative_variance", "plot_score_curves"]


def plot_cumulative_variance(explained_variance_ratio, level: float, *, n_components: int | None = None, ax=None,
                             title: str | None = None):
    """The cumulative explained variance of a PCA, the fraction ``level`` and the components it needs.

    Parameters
    ----------
    explained_variance_ratio : 1-D array
        The share of the total variance of every component, in decreasing order (all of them,
        e.g. ``GramPCA.all_explained_variance_ratio_``).
    level : float in (0, 1]
        The fraction of the variance to reach (a dashed line).
    n_components : int, optional
        The components kept (a dotted line); by default the fewest whose cumulative share
        reaches ``level``.
    ax : matplotlib Axes, optional
        Drawn into; a new figure otherwise.
    title : str, optional
        A title that states the finding; by default how many components ``level`` needs.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_cumulative_variance([0.5, 0.3, 0.1, 0.1], 0.8)
    >>> ax.get_title(), [t.get_text() for t in ax.get_legend().get_texts()][2]
    ('80% of the variance needs 2 of 4 components', 'd = 2 components')
    """
    import matplotlib.pyplot as plt

    ratios = as_float_array(explained_variance_ratio, "explained_variance_ratio", ndim=1)
    level = check_real(level, "level", "0.9 for 90% of the variance", 0.0, 1.0, closed="right",
                       why="a fraction of the variance")
    cumulative = np.cumsum(ratios)
    if n_components is None:
        n_components = int(min(np.searchsorted(cumulative, level - 1e-12) + 1, len(cumulative)))
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    ax.plot(np.arange(1, len(cumulative) + 1), cumulative, label="cumulative explained variance")
    ax.axhline(level, color="grey", ls="--", label=f"{level:.0%} of the variance")
    ax.axvline(n_components, color="C3", ls=":", label=f"d = {n_components:,} components")
    ax.set(title=title or f"{level:.0%} of the variance needs {n_components:,} of {len(cumulative):,} components",
           xlabel="number of principal components", ylabel="fraction of total variance")
    ax.legend()
    return ax


def plot_score_curves(table, *, xlabel: str, ylabel: str, title: str, hlines: Mapping | None = None,
                      vlines: Mapping | None = None, logx: bool = False, markers: str = "os^vD<>", ax=None):
    """A score against a size (the table's index) for each column, with labelled reference lines.

    Parameters
    ----------
    table : pandas.DataFrame
        One curve per column, named by it; the index is the x axis (e.g. numbers of components).
    xlabel, ylabel, title : str
        Axis labels with units, and a title that states the finding.
    hlines, vlines : dict, optional
        ``{label: y}`` drawn as dashed grey horizontal lines, ``{label: x}`` as dotted vertical ones.
    logx : bool
        A logarithmic x axis.
    markers : str
        One marker per column, in order.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"kNN": [0.9, 0.95, 0.8]}, index=[10, 25, 3000])
    >>> ax = plot_score_curves(t, xlabel="components", ylabel="accuracy", title="best at 25",
    ...                        hlines={"full space": 0.88}, vlines={"90%": 3000}, logx=True)
    >>> ax.get_xscale(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('log', ['kNN', 'full space', '90%'])
    """
    import matplotlib.pyplot as plt

    _check_frame(table, "table", [])
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    for column, marker in zip(table.columns, markers * (len(table.columns) // len(markers) + 1)):
        ax.plot(table.index, table[column], marker=marker, label=str(column))
    for i, (label, y) in enumerate((hlines or {}).items()):
        ax.axhline(y, color="grey", ls=("--", "-.", ":")[i % 3], label=label)
    for i, (label, x) in enumerate((vlines or {}).items()):
        ax.axvline(x, color=f"C{3 + i}", ls=":", label=label)
    if logx:
        ax.set_xscale("log")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(fontsize=8)
    return ax


def plot_against_reference(scores, reference: str, *, xlabel: str, ylabel: str, titles, claimed: Mapping | None = None,
                           figsize=(12, 4.8)):
    """Accuracy curves of several methods (left) and their error reduction relative to a reference (right).

    The right panel shows ``(CE_ref - CE) / CE_ref`` with ``CE = 1 - score``: above 0, fewer
    errors than the reference. One colour per method in both panels; the reference is drawn
    thick on the left.

    Parameters
    ----------
    scores : pandas.DataFrame
        Accuracies (fractions) by size (index) and method (columns), the reference among them.
    reference : str
        The column the others are measured against.
    xlabel, ylabel : str
        The x axis of both panels and the y axis of the left one, with units.
    titles : pair of str
        The titles of the two panels, each stating its finding.
    claimed : dict, optional
        ``{label: reduction}`` drawn as dashed lines on the right (e.g. a value a source prints).
    figsize : pair of float

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"Euclidean": [0.6, 0.8], "Mahalanobis": [0.7, 0.7]}, index=[500, 5000])
    >>> fig = plot_against_reference(t, "Euclidean", xlabel="training documents", ylabel="accuracy",
    ...                              titles=("ahead once", "fewer errors once"), claimed={"35% printed": 0.35})
    >>> right = fig.axes[1].get_lines()[0].get_ydata().round(2).tolist()
    >>> right, [t.get_text() for t in fig.legends[0].get_texts()]
    ([0.25, -0.5], ['Euclidean', 'Mahalanobis', '35% printed'])
    """
    import matplotlib.pyplot as plt

    _check_frame(scores, "scores", [reference])
    if len(titles) != 2:
        raise ValueError(f"titles must be a pair (left panel, right panel); got {titles!r}.")
    error = 1 - scores
    fig, (left, right) = plt.subplots(1, 2, figsize=figsize)
    for i, column in enumerate(scores.columns):  # one colour per method in both panels
        is_reference = column == reference
        left.plot(scores.index, scores[column], marker="o", color=f"C{i}", lw=2.5 if is_reference else 1.2,
                  label=str(column))
        if not is_reference:
            reduction = (error[reference] - error[column]) / error[reference]
            right.plot(scores.index, reduction, marker="o", color=f"C{i}", label=str(column))
    right.axhline(0, color="grey", lw=1)
    for label, value in (claimed or {}).items():
        right.axhline(value, color="grey", ls="--", lw=1, label=label)
    left.set(title=titles[0], xlabel=xlabel, ylabel=ylabel)
    right.set(title=titles[1], xlabel=xlabel, ylabel=f"error reduction relative to {reference} (fraction)")
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0][len(scores.columns) - 1:]
    fig.legend(handles, [h.get_label() for h in handles], loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig



# --------------------------------------------------------------------------------------------
# notebook 07: 2-D maps of the same objects side by side (MDS, PCA)

__all__ += ["plot_class_maps", "plot_labelled_maps"]


def _check_maps(maps, n: int, what: str) -> None:
    if not isinstance(maps, Mapping) or not maps:
        raise ValueError("maps must be a non-empty dict {panel title: (n, 2) coordinates}.")
    for title, Z in maps.items():
        shape = np.shape(Z)
        if len(shape) != 2 or shape[1] < 2 or shape[0] != n:
            raise ValueError(f"maps[{title!r}] must hold {n} rows of at least 2 coordinates, one per entry of "
                             f"{what}; got shape {shape}.")


def plot_labelled_maps(maps, names, *, title: str, point_label: str = "object", xlabel: str = "dimension 1",
                       ylabel: str = "dimension 2", figsize=None):
    """Maps of a few objects side by side, each point annotated with its name.

    Parameters
    ----------
    maps : dict
        ``{panel title: coordinates (n, 2)}``; only the first two columns are drawn.
    names : sequence of str
        One name per object (row of each map).
    title : str
        The figure's title: the finding.
    point_label : str
        The legend's name for a point.
    xlabel, ylabel : str
        Axis labels of every panel.
    figsize : tuple, optional
        Default: 5 inches wide per panel, 4.2 high.

    Returns
    -------
    matplotlib Figure (the caller shows it).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_labelled_maps({"a": [[0, 0], [1, 1]], "b": [[0, 1], [1, 0]]}, ["x", "y"], title="t")
    >>> [ax.get_title() for ax in fig.axes], [t.get_text() for t in fig.axes[1].texts]
    (['a', 'b'], ['x', 'y'])
    """
    import matplotlib.pyplot as plt

    _check_maps(maps, len(names), "names")
    fig, axes = plt.subplots(1, len(maps), figsize=figsize or (5 * len(maps), 4.2), squeeze=False)
    for ax, (panel, Z) in zip(axes[0], maps.items()):
        Z = np.asarray(Z, dtype=float)
        ax.scatter(Z[:, 0], Z[:, 1], s=40, color="tab:blue", label=point_label)
        for name, (x1, x2) in zip(names, Z[:, :2]):
            ax.annotate(name, (x1, x2), textcoords="offset points", xytext=(6, 4))
        ax.set(title=panel, xlabel=xlabel, ylabel=ylabel)
        ax.margins(0.15)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center")
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def plot_class_maps(maps, classes, *, title: str, legend_title: str = "class", xlabel: str = "dimension 1",
                    ylabel: str = "dimension 2", figsize=None):
    """Maps of many objects side by side, each point coloured by its class (ten colours at most).

    Parameters
    ----------
    maps : dict
        ``{panel title: coordinates (n, 2)}``; only the first two columns are drawn.
    classes : array-like (n,)
        The class of each object, e.g. the digit an image shows; classes in sorted order
        take the colours of ``tab10`` in turn.
    title : str
        The figure's title: the finding.
    legend_title, xlabel, ylabel : str
        The legend's title and the axis labels of every panel.
    figsize : tuple, optional
        Default: 5 inches wide per panel, 4.8 high.

    Returns
    -------
    matplotlib Figure (the caller shows it).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_class_maps({"a": [[0, 0], [1, 1], [2, 0]]}, [3, 1, 3], title="t")
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['1', '3']
    """
    import matplotlib.pyplot as plt

    classes = np.asarray(classes)
    _check_maps(maps, len(classes), "classes")
    values = np.unique(classes)
    if len(values) > 10:
        raise ValueError(f"classes has {len(values)} values; ten colours can tell at most 10 apart.")
    palette = _colormap("tab10")
    fig, axes = plt.subplots(1, len(maps), figsize=figsize or (5 * len(maps), 4.8), squeeze=False)
    for ax, (panel, Z) in zip(axes[0], maps.items()):
        Z = np.asarray(Z, dtype=float)
        for k, value in enumerate(values):
            pts = Z[classes == value]
            ax.scatter(pts[:, 0], pts[:, 1], s=7, color=palette(k), label=str(value))
        ax.set(title=panel, xlabel=xlabel, ylabel=ylabel)
    axes[0, -1].legend(title=legend_title, markerscale=2.5, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle(title)
    fig.tight_layout()
    return fig



# --------------------------------------------------------------------------------------------
# notebooks 02-05: curves against a parameter

__all__ += ["plot_classes_and_lines", "plot_cloud_and_points", "plot_error_curves", "plot_table_bars",
            "plot_level_ellipses", "plot_raw_and_whitened"]


def plot_error_curves(x, curves: Mapping, *, mark=None, mark_label: str | None = None, xlabel: str, ylabel: str,
                      title: str, ax=None, markers="osd^v<>"):
    """Several curves over one x axis, one marker each, with an optional vertical line at ``mark``.

    For an error (or any score) against a parameter under several protocols, e.g. kNN's
    misclassification error against K; the legend sits right of the axes.

    Parameters
    ----------
    x : array-like
        The parameter values, shared by every curve.
    curves : dict of {name: array-like}
        One value per ``x`` each.
    mark : float, optional
        Where to draw a dotted vertical line (e.g. the value a source chose), labelled ``mark_label``.
    xlabel, ylabel, title : str
        Axis labels with units and a title that states the finding.
    ax : matplotlib Axes, optional
        Drawn into; a new 9 x 3.8 inch figure otherwise.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_error_curves([1, 3, 5], {"a": [0.2, 0.1, 0.15], "b": [0.3, 0.2, 0.1]}, mark=3, mark_label="K = 3",
    ...                        xlabel="K (neighbours)", ylabel="error", title="a is lowest at K = 3")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a', 'b', 'K = 3']
    """
    import matplotlib.pyplot as plt

    if not isinstance(curves, Mapping) or not curves:
        raise ValueError("curves must be a non-empty dict {name: values}.")
    x = np.asarray(x)
    for name, values in curves.items():
        if np.shape(values) != x.shape:
            raise ValueError(f"curves[{name!r}] has shape {np.shape(values)}; it needs one value per x, {x.shape}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.8))
    for (name, values), marker in zip(curves.items(), markers * len(curves)):
        ax.plot(x, values, marker=marker, label=name)
    if mark is not None:
        ax.axvline(mark, color="grey", ls=":", label=mark_label)
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax


def plot_table_bars(table, tick_labels=None, *, xlabel: str, ylabel: str, title: str, ylim=None, ax=None,
                      figsize=(8, 3.8)):
    """Grouped bars of a table: one group per row, one bar per column, the legend right of the axes.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per group (e.g. a model), one column per bar (e.g. a metric).
    tick_labels : sequence of str, optional
        Labels of the groups on the x axis; the table's index by default.
    xlabel, ylabel, title : str
        Axis labels with units and a title that states the finding.
    ylim : (float, float), optional
        Limits of the y axis, to show small differences between bars.
    ax : matplotlib Axes, optional
        Drawn into; a new ``figsize`` figure otherwise.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"accuracy": [0.95, 0.97], "recall": [0.9, 0.93]}, index=["a", "b"])
    >>> ax = plot_table_bars(t, ["model a", "model b"], xlabel="model", ylabel="score", title="b is ahead")
    >>> [tick.get_text() for tick in ax.get_xticklabels()], len(ax.patches)
    (['model a', 'model b'], 4)
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame) or table.empty:
        raise ValueError("table must be a non-empty DataFrame: one row per group, one column per bar.")
    if tick_labels is not None and len(tick_labels) != len(table):
        raise ValueError(f"tick_labels has {len(tick_labels)} labels for {len(table)} groups; give one per row.")
    ax = table.plot.bar(figsize=figsize, rot=0, ax=ax)
    if tick_labels is not None:
        ax.set_xticks(range(len(table)), list(tick_labels))
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax


# notebooks 02-03: points, ellipses and lines in two dimensions


def plot_raw_and_whitened(points: Mapping, sigma, W, *, levels=(0.5, 0.9, 0.99), limits=(6.5, 4.5),
                          colours=("tab:red", "tab:blue", "tab:green", "tab:purple"), title: str):
    """Points seen from the origin before and after whitening: two panels, the prediction ellipses and the long axis.

    The right panel shows ``W x`` and the ellipses of ``W sigma W'`` (circles when ``W``
    whitens ``sigma``); each point is drawn as a ray from the origin, as a cosine sees it.

    Parameters
    ----------
    points : dict of {label: (2,) array}
    sigma : (2, 2) array
        The covariance of the zero-mean Gaussian.
    W : (2, 2) array
        The whitening matrix.
    levels : sequence of float
        Prediction-ellipse levels.
    limits : (float, float)
        Half-widths of the raw and the whitened panel.
    title : str
        The figure's title, stating the finding.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> sigma = np.array([[9.0, 2.7], [2.7, 1.0]])
    >>> W = np.linalg.inv(np.linalg.cholesky(sigma))
    >>> fig = plot_raw_and_whitened({"A": np.array([5.5, 0.5])}, sigma, W, title="A swings away")
    >>> [ax.get_title() for ax in fig.axes], [float(v) for v in fig.axes[1].get_xlim()]
    (['raw coordinates', 'whitened coordinates  Wx'], [-4.5, 4.5])
    """
    import matplotlib.pyplot as plt

    sigma, W = np.asarray(sigma, dtype=float), np.asarray(W, dtype=float)
    _, eigvecs = np.linalg.eigh(sigma)
    long_axis = eigvecs[:, 1] * np.sign(eigvecs[0, 1])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    views = [("raw coordinates", np.eye(2), sigma, limits[0], ("feature 1", "feature 2")),
             ("whitened coordinates  Wx", W, W @ sigma @ W.T, limits[1], ("(Wx)$_1$", "(Wx)$_2$"))]
    for ax, (name, T, cov, lim, (xlabel, ylabel)) in zip(axes, views):
        ax.set(xlim=(-lim, lim), ylim=(-lim, lim), aspect="equal")
        plot_prediction_ellipses(ax, [0, 0], cov, levels=levels)
        ax.axline((0, 0), tuple(T @ long_axis), color="0.3", ls="--", lw=0.8, label="long axis")
        for (label, x), colour in zip(points.items(), colours):
            z = T @ np.asarray(x, dtype=float)
            ax.plot([0, z[0]], [0, z[1]], color=colour, lw=1.2)
            ax.plot(*z, "o", color=colour, label=label)
            ax.annotate(label, z, textcoords="offset points", xytext=(4, 4))
        ax.set(title=name, xlabel=xlabel, ylabel=ylabel)
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle(title)
    return fig


def plot_level_ellipses(cov, levels, points: Mapping, *, xlim, ylim, title: str, xlabel="$x_1$", ylabel="$x_2$",
                        figsize=(8, 4.5)):
    """The prediction ellipses of ``N(0, cov)``, each labelled with its level where it crosses the negative x axis.

    Parameters
    ----------
    cov : (2, 2) array
    levels : sequence of float in (0, 1)
    points : dict of {legend label: ((2,) array, colour)}
        Points to mark.
    xlim, ylim : (float, float)
    title : str
        States the finding.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_level_ellipses(np.diag([9.0, 0.2]), [0.5, 0.9], {"(5, 0)": ([5.0, 0.0], "tab:red")},
    ...                          xlim=(-7, 7), ylim=(-2, 2), title="two ellipses")
    >>> [t.get_text() for t in ax.texts], [t.get_text() for t in ax.get_legend().get_texts()]
    (['50%', '90%'], ['(5, 0)'])
    """
    import matplotlib.pyplot as plt

    cov = np.asarray(cov, dtype=float)
    _, ax = plt.subplots(figsize=figsize)
    ax.set(xlim=xlim, ylim=ylim)
    plot_prediction_ellipses(ax, [0, 0], cov, levels=levels, label_levels=False)
    inv00 = np.linalg.inv(cov)[0, 0]
    for i, p in enumerate(levels):
        x_left = -np.sqrt(stats.chi2.ppf(p, df=2) / inv00)                     # where the ellipse meets the x axis
        ax.annotate(f"{100 * p:.0f}%", (x_left, 0.14 if i % 2 == 0 else -0.14), ha="center", va="center", fontsize=7,
                    color="0.35", bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
    for label, (x, colour) in points.items():
        ax.plot(*x, "o", color=colour, label=label)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(loc="lower left", fontsize=8)
    return ax


def plot_cloud_and_points(cloud, mean, cov, points: Mapping, *, radius: float, lim: float = 4.0, title: str,
                          levels=(0.5, 0.9, 0.99), cloud_label="cloud", xlabel="$x_1$", ylabel="$x_2$",
                          figsize=(5.5, 5)):
    """A sample cloud with its prediction ellipses, marked points and the circle of one Euclidean distance.

    Parameters
    ----------
    cloud : (n, 2) array
    mean, cov
        The cloud's mean and covariance, for the ellipses and the circle's centre.
    points : dict of {legend label: ((2,) array, colour)}
        Drawn as stars.
    radius : float
        Radius of the dotted circle around ``mean``.
    lim : float
        Half-width of the (square) axes.
    cloud_label : str
        What the cloud is, for the legend ("cluster (n = 300)").

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> cloud = np.random.default_rng(0).normal(size=(50, 2))
    >>> ax = plot_cloud_and_points(cloud, [0, 0], np.eye(2), {"y1": ([2.0, 0.0], "tab:blue")}, radius=2.0, title="t")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['cloud (n = 50)', 'y1', 'equal Euclidean distance']
    """
    import matplotlib.pyplot as plt

    cloud, mean = np.asarray(cloud, dtype=float), np.asarray(mean, dtype=float)
    _, ax = plt.subplots(figsize=figsize)
    ax.scatter(cloud[:, 0], cloud[:, 1], s=8, color="0.6", label=f"{cloud_label} (n = {len(cloud)})")
    ax.set(xlim=(-lim, lim), ylim=(-lim, lim), aspect="equal")
    plot_prediction_ellipses(ax, mean, cov, levels=levels)
    for label, (x, colour) in points.items():
        ax.plot(*x, "*", ms=14, color=colour, label=label)
    circle = np.linspace(0, 2 * np.pi, 200)
    ax.plot(mean[0] + radius * np.cos(circle), mean[1] + radius * np.sin(circle), ":", color="k", lw=0.8,
            label="equal Euclidean distance")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(loc="lower right", fontsize=7)
    return ax


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
