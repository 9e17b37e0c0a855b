"""Each notebook's parameters checked against the manifest before any work starts.

What a notebook's parameters may be is written in its manifest entry
(:data:`helpers.studies.NOTEBOOKS`, in the vocabulary re-exported here: :class:`Integer`,
:class:`Real`, :class:`OneOf`, ...). Notebooks call :func:`check_parameters` in their setup
cell (``check_parameters(globals(), "04")``), so that a bad value from papermill ``-p`` or a
sweep stops there, naming the parameter, the value and what is allowed, not deep inside
scikit-learn; the sweep (:mod:`.sweep`) refuses a grid value that breaks these checks before
any run.

A misspelt name (``-p K 5`` for ``k``) would otherwise become a new variable the notebook never
reads, and the run would finish on the default. So names are checked too
(:func:`check_parameter_names`): before execution by the workbook's runner
(:func:`helpers.workbook.execute.execute_notebook`, which the sweep uses), and in the setup cell
for a run started any other way (plain ``papermill``), from the names papermill's injected
cell assigned (:func:`injected_names`).
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterable, Mapping

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
    "check_parameter_names",
    "check_parameters",
    "injected_names",
    "parameter_spec",
]

#: names papermill itself may inject (``--inject-paths``); never a notebook's parameter
PAPERMILL_NAMES = frozenset({"PAPERMILL_INPUT_PATH", "PAPERMILL_OUTPUT_PATH", "PAPERMILL_INPUT_DIR",
                             "PAPERMILL_OUTPUT_DIR"})


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


def check_parameter_names(names: Iterable[str], spec: Mapping, where: str = "this notebook") -> None:
    """Raise ValueError, with the nearest declared names, if a name given as a parameter is not one.

    Parameters
    ----------
    names : iterable of str
        The names given (papermill ``-p NAME VALUE``, a sweep's grid, an injected cell).
    spec : mapping
        The notebook's declared parameters (its manifest entry's checks).
    where : str
        The notebook, for the message.

    Examples
    --------
    >>> check_parameter_names(["k"], {"k": Integer(1), "method": OneOf(["zca"])})
    >>> check_parameter_names(["K"], {"k": Integer(1), "method": OneOf(["zca"])})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: this notebook has no parameter 'K' (did you mean 'k'?); its parameters are k, method. ...
    """
    if isinstance(names, str):
        names = [names]
    unknown = [n for n in names if n not in spec and n not in PAPERMILL_NAMES]
    if not unknown:
        return
    folded = {str(n).lower(): n for n in spec}
    shown = []
    for name in unknown:
        key = str(name).lower()
        near = [folded[key]] if key in folded else [folded[m] for m in difflib.get_close_matches(key, folded, n=2)]
        shown.append(f"{name!r}" + (f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""))
    raise ValueError(
        f"{where} has no parameter {', '.join(shown)}; its parameters are {', '.join(spec)}. A value under another "
        "name is never read: the notebook would run on its default. Correct the name (names are case-sensitive; "
        "papermill: -p NAME VALUE)."
    )


def injected_names(namespace: Mapping) -> list[str] | None:
    """The names papermill's injected cell assigned, read from the kernel's input history; ``None`` if none ran.

    papermill runs its ``injected-parameters`` cell (source ``# Parameters`` then one
    assignment per ``-p``) right after the notebook's parameters cell; IPython keeps every
    executed cell's source in ``In``. A notebook's ``globals()`` cannot tell a misspelt
    parameter from any other variable, but this cell can.

    Examples
    --------
    >>> injected_names({"In": ["", "k = 5", "# Parameters\\nK = 5\\nseed = 1\\n", "check = ..."]})
    ['K', 'seed']
    >>> injected_names({"k": 5}) is None
    True
    """
    history = namespace.get("In") if isinstance(namespace, Mapping) else None
    if not isinstance(history, list):
        return None
    for source in reversed(history):
        if isinstance(source, str) and source.lstrip().split("\n", 1)[0].strip() == "# Parameters":
            try:
                tree = ast.parse(source)
            except SyntaxError:
                return None
            names = []
            for node in tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, ast.AnnAssign) else []
                names += [t.id for t in targets if isinstance(t, ast.Name)]
            return names
    return None


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
    label = "this notebook"
    if isinstance(spec, str):
        if spec not in NOTEBOOKS:
            raise ValueError(f"No parameter checks for notebook {spec!r}; known: {', '.join(NOTEBOOKS)}.")
        label = f"notebook {NOTEBOOKS[spec].stem}"
        spec, relations = NOTEBOOKS[spec].parameters, [*NOTEBOOKS[spec].relations, *relations]
    injected = injected_names(values)  # run by papermill: a misspelt -p name stops here, not on the default
    if injected is not None:
        check_parameter_names(injected, spec, label)
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
