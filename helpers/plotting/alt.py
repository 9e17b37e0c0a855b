"""Alt text for the notebooks' figures: each figure's title, stored with the figure's output.

:func:`describe_figures` (called by the notebooks' setup) makes the IPython kernel add
``{"image/png": {"alt": title}}`` to the metadata of every matplotlib figure it displays, the
title being :func:`figure_title`. The figure's image itself is unchanged; a reader of the
executed notebook (the book, a screen reader in JupyterLab) finds the text beside it.
"""

from __future__ import annotations

import sys

__all__ = ["describe_figures", "figure_title"]

_IMAGE_TYPES = ("image/png", "image/svg+xml", "image/jpeg")


def figure_title(fig) -> str:
    """The title a figure shows: its suptitle, else the titles of its axes joined by ``"; "``.

    An axes' titles are its left, centre and right ones, in that order; empty ones are left out,
    and so is a title repeated on several axes. A figure without any title gives ``""``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> left, right = fig.subplots(1, 2)
    >>> _ = left.set_title("(a) raw"), right.set_title("(b) whitened")
    >>> figure_title(fig)
    '(a) raw; (b) whitened'
    >>> _ = fig.suptitle("Whitening turns the ellipse into a circle")
    >>> figure_title(fig)
    'Whitening turns the ellipse into a circle'
    """
    suptitle = " ".join(fig.get_suptitle().split())
    if suptitle:
        return suptitle
    titles = [" ".join(ax.get_title(loc).split()) for ax in fig.get_axes() for loc in ("left", "center", "right")]
    return "; ".join(dict.fromkeys(t for t in titles if t))


def _alt_metadata(fig):
    """The mime-bundle printer :func:`describe_figures` registers: no data, only the alt text of each image type.

    IPython then asks its per-type formatters (matplotlib's inline backend) for the image itself
    and keeps this metadata beside it.
    """
    title = figure_title(fig)
    if not title:
        return None
    formatters = _shell().display_formatter.formatters
    shown = []
    for mime in _IMAGE_TYPES:
        try:
            formatters[mime].lookup(fig)
        except KeyError:  # this image type is not drawn for figures
            continue
        shown.append(mime)
    return {}, {mime: {"alt": title} for mime in shown}


def _shell():
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


def describe_figures() -> bool:
    """In an IPython kernel, store each displayed figure's title as its image's alt text.

    Registers a mime-bundle printer for :class:`matplotlib.figure.Figure` that adds only
    metadata; the image formatters the inline backend set up are left alone, whenever they are
    set up. Calling it again changes nothing.

    Returns
    -------
    bool
        ``True`` in an IPython shell, ``False`` elsewhere (nothing to do).

    Examples
    --------
    >>> describe_figures()  # a plain Python process: no kernel, nothing displayed
    False
    """
    shell = _shell()
    if shell is None:
        return False
    from matplotlib.figure import Figure

    shell.display_formatter.mimebundle_formatter.for_type(Figure, _alt_metadata)
    return True
