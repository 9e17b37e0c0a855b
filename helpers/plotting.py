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


# --------------------------------------------------------------------------------------------
# notebooks 02-05: curves against a parameter

__all__ += ["plot_classes_and_lines", "plot_cloud_and_points", "plot_error_curves", "plot_grouped_bars",
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


def plot_grouped_bars(table, tick_labels=None, *, xlabel: str, ylabel: str, title: str, ylim=None, ax=None,
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
    >>> ax = plot_grouped_bars(t, ["model a", "model b"], xlabel="model", ylabel="score", title="b is ahead")
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
