"""Images and maps: a row of images, and maps of the same objects side by side."""

from __future__ import annotations

import numpy as np

from ._common import check_maps, colormap


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

    check_maps(maps, len(names), "names")
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
    check_maps(maps, len(classes), "classes")
    values = np.unique(classes)
    if len(values) > 10:
        raise ValueError(f"classes has {len(values)} values; ten colours can tell at most 10 apart.")
    palette = colormap("tab10")
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
