"""Each notebook's parameters checked against the manifest before any work starts.

What a notebook's parameters may be is written in its manifest entry
(:data:`helpers.studies.NOTEBOOKS`, in the vocabulary re-exported here: :class:`Integer`,
:class:`Real`, :class:`OneOf`, ...). Notebooks call :func:`check_parameters` in their setup
cell (``check_parameters(globals(), "04")``), so that a bad value from papermill ``-p`` or a
sweep stops there, naming the parameter, the value and what is allowed, not deep inside
scikit-learn; the sweep (:mod:`.sweep`) refuses a grid value that breaks these checks before
any run.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._validation import Boolean, DictOf, Integer, ListOf, OneOf, Real, Text
from ..studies import NOTEBOOKS, notebook

__all__ = [
    "Boolean",
    "DictOf",
    "Integer",
    "ListOf",
    "OneOf",
    "Real",
    "Text",
    "check_parameters",
    "parameter_spec",
]


def parameter_spec(name) -> tuple[dict, list]:
    """The checks and relations of a notebook's parameters: by its two-digit prefix or file name.

    Returns ``({}, [])`` for a notebook the workbook does not know (e.g. a scratch one).

    Examples
    --------
    >>> spec, relations = parameter_spec("notebooks/04_wisconsin_cosine_knn.ipynb")
    >>> spec["k"].describe(), relations
    ('an integer >= 1', [])
    """
    entry = notebook(name)
    return (dict(entry.parameters), list(entry.relations)) if entry is not None else ({}, [])


def _show(value) -> str:
    return f"{value!r} ({type(value).__name__})" if not isinstance(value, str) else repr(value)


def check_parameters(values: Mapping, spec, relations=(), where: str = "the parameters cell") -> None:
    """Raise, naming the parameter, its value and the allowed values, unless every value is allowed.

    Notebooks call it in their setup cell, right after the parameters, so that a bad value
    (from papermill ``-p`` or a sweep) fails there and not deep inside scikit-learn.

    Parameters
    ----------
    values : mapping
        Parameter values by name; a notebook passes ``globals()`` (only the names in ``spec`` are read).
    spec : mapping or str
        ``{name: check}`` with the checks of this module (:class:`Integer`, :class:`Real`,
        :class:`OneOf`, :class:`ListOf`, ...; ``a | b`` accepts either), or a notebook's
        two-digit prefix (``"04"``): the parameters and relations of its entry in
        :data:`helpers.studies.NOTEBOOKS`.
    relations : sequence of (str, tuple of str, callable), optional
        Conditions on several parameters: words, the names involved, a test of the mapping.
    where : str
        Where the values were set, for the message.

    Raises
    ------
    TypeError
        A value of the wrong type (e.g. ``random_state = "x"``).
    ValueError
        A value of the right type that is not allowed (``k = 0``, ``covariance = "bogus"``),
        a broken relation, or a name of ``spec`` missing from ``values``.

    Examples
    --------
    >>> check_parameters({"k": 13, "method": "zca"}, {"k": Integer(1), "method": OneOf(["zca", "cholesky"])})
    >>> check_parameters({"k": 0}, {"k": Integer(1)})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Parameter k = 0 (int) is not allowed: k takes an integer >= 1. Set it in the parameters cell ...
    """
    if isinstance(spec, str):
        if spec not in NOTEBOOKS:
            raise ValueError(f"No parameter checks for notebook {spec!r}; known: {', '.join(NOTEBOOKS)}.")
        spec, relations = NOTEBOOKS[spec].parameters, [*NOTEBOOKS[spec].relations, *relations]
    missing = [name for name in spec if name not in values]
    if missing:
        raise ValueError(f"{where} defines no {', '.join(missing)}; every checked parameter needs a default there.")
    for name, check in spec.items():
        value = values[name]
        kind = check.problem(value)
        if kind is not None:
            error = TypeError if kind == "type" else ValueError
            raise error(
                f"Parameter {name} = {_show(value)} is not allowed: {name} takes {check.describe()}. "
                f"Set it in {where} (papermill: -p {name} VALUE)."
            )
    for words, names, test in relations:
        if not test({name: values[name] for name in names}):
            got = ", ".join(f"{name} = {values[name]!r}" for name in names)
            raise ValueError(f"Parameters {got} break the condition {words}. Change one of them in {where}.")
