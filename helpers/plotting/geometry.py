"""Geometry in the plane: Gaussian prediction ellipses, lines given by their normal vector, unit balls,
and points before and after whitening."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import linalg, stats

from .._validation import (
    as_float_array,
    check_int,
    check_square_matrix,
    check_symmetric,
)
from ._common import check_level, check_number


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
    level = check_level(level)
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

def plot_prediction_ellipses(ax, mean, cov, levels=(0.1, 0.3, 0.5, 0.7, 0.9), *, label_levels=True,
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
    x0, x1 = (check_number(v, "xlim", "(0.0, 1.0)") for v in xlim)
    b, c = check_number(b, "b", "-1.0"), check_number(c, "c", "0.0 (or +-1 for the margins)")
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
