"""What a notebook's cells call around its work: the setup in one call, findings as Markdown, versions.

A setup cell, right after the parameters, reads ``check = notebook_setup(globals(), "04")``;
"What we found" is ``findings(f"...")`` with the computed values in its text; the last cell
names the versions (:func:`package_versions`).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping

import numpy as np
import pandas as pd

from .checks import SourceCheck
from .parameters import check_parameters

__all__ = ["Findings", "findings", "nb_setup", "notebook_setup", "package_versions"]


def nb_setup(precision: int = 4) -> None:
    """Display settings every notebook calls first: rounded numpy/pandas/IPython output, plot style.

    In a kernel, each figure's title also becomes its image's alt text (:func:`helpers.plotting.describe_figures`).
    """
    import matplotlib as mpl

    from ..plotting import describe_figures

    np.set_printoptions(precision=precision, suppress=True)
    pd.set_option("display.precision", precision)
    pd.set_option("display.width", 120)
    pd.set_option("display.max_columns", 20)
    mpl.rcParams.update({"figure.figsize": (6.0, 4.0), "figure.dpi": 80, "axes.grid": True, "grid.alpha": 0.3})
    try:
        from IPython import get_ipython

        ip = get_ipython()
        if ip is not None:
            ip.run_line_magic("precision", str(precision))
            describe_figures()
    except ImportError:  # pragma: no cover - IPython is a notebook dependency
        pass


def notebook_setup(namespace: Mapping, number: str, *, ledger: pd.DataFrame | None = None) -> SourceCheck:
    """A notebook's setup in one call: display settings, its parameters checked, its ledger check.

    The same as ``check_parameters(namespace, number)``, ``nb_setup()`` and
    ``SourceCheck(number)``: the parameters are checked first, so that a bad value stops the
    notebook before anything else happens.

    Parameters
    ----------
    namespace : mapping
        The notebook's ``globals()``, where the parameters cell set its values.
    number : str
        The notebook's two-digit number (``"04"``), its entry in :data:`helpers.studies.NOTEBOOKS`.
    ledger : DataFrame, optional
        A loaded ledger for the check (the committed one by default).

    Returns
    -------
    SourceCheck
        The notebook's comparison rows, none answered yet.

    Raises
    ------
    TypeError, ValueError
        A parameter that is not allowed (named with its value and what it may be), a parameter
        the namespace lacks, or a notebook number the manifest does not know.

    Examples
    --------
    >>> notebook_setup({"k": 0}, "04")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the parameters cell defines no ...; every checked parameter needs a default there.
    """
    check_parameters(namespace, number)  # a bad value stops here, naming the parameter and what it may be
    nb_setup()
    return SourceCheck(number, ledger=ledger)


class Findings:
    """Markdown shown as Markdown, whose text is also the cell's plain output.

    ``text/markdown`` is rendered by JupyterLab and the book (MyST-NB); ``text/plain`` holds the
    same text, so nbval compares the numbers in it with the stored output.

    Parameters
    ----------
    text : str
        Markdown; its common indentation and surrounding blank lines are removed
        (:func:`inspect.cleandoc`), so a triple-quoted f-string can be indented like the code.
    """

    def __init__(self, text: str):
        if not isinstance(text, str):
            raise TypeError(f"findings take Markdown text (a str), not a {type(text).__name__}: {text!r}")
        self.text = inspect.cleandoc(text)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/markdown": self.text, "text/plain": self.text}

    def _repr_markdown_(self):
        return self.text

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def findings(text: str) -> Findings:
    """"What we found" as Markdown with computed values: make it the last expression of a cell.

    Examples
    --------
    >>> accuracy = 107 / 114
    >>> shown = findings(f'''
    ...     **Accuracy** {accuracy:.3f}, as the paper prints:
    ...     - raw cosine, k = 13
    ... ''')
    >>> shown._repr_mimebundle_()["text/markdown"]
    '**Accuracy** 0.939, as the paper prints:\\n- raw cosine, k = 13'
    >>> shown._repr_mimebundle_()["text/plain"] == shown.text
    True
    """
    return Findings(text)


def package_versions(*distributions: str) -> str:
    """One line naming the installed version of each package, for a notebook's last cell.

    Parameters
    ----------
    *distributions : str
        Distribution names as installed (``"numpy"``, ``"scikit-learn"``, ``"scikit-image"``).

    Returns
    -------
    str
        ``"numpy 2.3.1, scikit-learn 1.9.1, ..."`` (``not installed`` for a missing one).

    Examples
    --------
    >>> package_versions("numpy").startswith("numpy ")
    True
    >>> package_versions("no-such-package-here")
    'no-such-package-here not installed'
    """
    from importlib.metadata import PackageNotFoundError, version

    def one(name):
        try:
            return f"{name} {version(name)}"
        except PackageNotFoundError:
            return f"{name} not installed"

    return ", ".join(one(name) for name in distributions)
