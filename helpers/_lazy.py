"""Public names of a package that load their module on first use (PEP 562).

``import helpers`` and the command line (``python -m helpers.workbook``, the sweep's and the
runner's worker processes) then start without importing scikit-learn, SciPy's statistics and
pandas, which only the maths and the loaders need; ``from helpers import Whitener`` and
``helpers.whitening`` work as before, each the first time it is asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping


def lazy_exports(package: str, modules: Mapping[str, tuple[str, ...]]) -> tuple[list, Callable, Callable]:
    """``(__all__, __getattr__, __dir__)`` for ``package``, whose public names live in ``modules``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    modules : mapping of {submodule: names}
        Each relative submodule (``".whitening"``) and the public names it defines.

    Examples
    --------
    >>> names, getattr_, dir_ = lazy_exports("helpers", {".metrics": ("lp_norm",)})
    >>> names, getattr_("lp_norm")([3.0, 4.0], 2), "lp_norm" in dir_()
    (['lp_norm'], 5.0, True)
    >>> getattr_("nope")
    Traceback (most recent call last):
    ...
    AttributeError: module 'helpers' has no attribute 'nope'
    """
    where = {name: module for module, names in modules.items() for name in names}
    public = sorted(where, key=lambda n: (n[0].islower(), n))   # classes and constants first, as ruff sorts

    def __getattr__(name: str):
        if name in where:
            value = getattr(importlib.import_module(where[name], package), name)
            setattr(sys.modules[package], name, value)     # later lookups are plain attribute reads
            return value
        if not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}") is not None:
            return importlib.import_module(f"{package}.{name}")   # a submodule: helpers.whitening
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list:
        return sorted(set(vars(sys.modules[package])) | set(public))

    return public, __getattr__, __dir__
