"""A sweep's grid: values from the command line or a grid file, checked against the notebook.

``-p NAME VALUES...`` gives literals or integer ranges (:func:`parse_values`), ``--grid FILE``
a YAML or JSON mapping (:func:`read_grid_file`); :func:`grid_from_options` merges them, a name
in one place only. :func:`validate_grid` checks names and values against the notebook's
``parameters`` cell and, for the workbook's notebooks, against the checks of their manifest
entry (:data:`helpers.studies.NOTEBOOKS`, through :mod:`helpers.workbook.parameters`). The
number of runs is counted before any list is made (:func:`count_runs`): a grid of more than
``max_runs`` (:data:`DEFAULT_MAX_RUNS`; ``--max-runs``) is refused at once, not after minutes
and gigabytes of expanding a typo such as ``0:10000000``.
"""

from __future__ import annotations

import ast
import datetime
import errno
import itertools
import json
import math
from pathlib import Path

from ..parameters import parameter_spec
from .store import RESERVED_NAMES

__all__ = [
    "DEFAULT_MAX_RUNS",
    "check_grid_shape",
    "check_run_count",
    "count_runs",
    "expand_grid",
    "grid_from_options",
    "parse_literal",
    "parse_values",
    "read_grid_file",
    "validate_grid",
]


#: the most runs a sweep makes unless ``--max-runs`` (``max_runs=``) allows more
DEFAULT_MAX_RUNS = 10_000


def _too_many(what: str, n: int, max_runs: int) -> ValueError:
    return ValueError(f"{what} gives {n:,} runs, more than the limit of {max_runs:,} (--max-runs); check the "
                      "ranges (start:stop is half-open: 0:10 gives 10 values), or raise --max-runs if you "
                      "mean it.")


def count_runs(grid: dict) -> int:
    """The number of runs of a ``{name: [values]}`` grid (the product of the list lengths), counted
    without expanding it.

    Examples
    --------
    >>> count_runs({"seed": [0, 1, 2], "method": ["a", "b"]})
    6
    """
    return math.prod(len(values) if isinstance(values, list) else 1 for values in grid.values())


def check_max_runs(max_runs) -> None:
    """Refuse a ``max_runs`` (``--max-runs``) that is not a whole number >= 1."""
    if isinstance(max_runs, bool) or not isinstance(max_runs, int) or max_runs < 1:
        raise ValueError(f"--max-runs must be a whole number >= 1, not {max_runs!r}.")


def check_run_count(grid: dict, max_runs: int = DEFAULT_MAX_RUNS) -> int:
    """:func:`count_runs`, or a ``ValueError`` with the count, each name's size and the fix above ``max_runs``."""
    check_max_runs(max_runs)
    n = count_runs(grid)
    if n > max_runs:
        sizes = " x ".join(f"{len(v):,} {name}" for name, v in grid.items() if isinstance(v, list))
        raise _too_many(f"The grid ({sizes})", n, max_runs)
    return n


def parse_literal(text: str):
    """A command-line or papermill default value as Python reads it; any other text stays a string.

    Examples
    --------
    >>> parse_literal("3"), parse_literal("0.5"), parse_literal("True"), parse_literal("None"), parse_literal("zca")
    (3, 0.5, True, None, 'zca')
    """
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def parse_values(tokens: list[str], max_runs: int = DEFAULT_MAX_RUNS) -> list:
    """Values of one ``-p NAME ...`` option: literals, or integer ranges ``start:stop[:step]``.

    A range longer than ``max_runs`` is refused before its list is made.

    Examples
    --------
    >>> parse_values(["0:3"]), parse_values(["cholesky", "zca"]), parse_values(["0.1", "None"])
    ([0, 1, 2], ['cholesky', 'zca'], [0.1, None])
    """
    values = []
    for token in tokens:
        parts = token.split(":")
        if len(parts) in (2, 3) and all(p.lstrip("-").isdigit() for p in parts):
            start, stop, *step = map(int, parts)
            step = step[0] if step else 1
            if step == 0:
                raise ValueError(f"Range {token!r} has step 0.")
            rng = range(start, stop, step)
            if not rng:
                raise ValueError(f"Range {token!r} is empty (start:stop is half-open, as in Python).")
            if len(values) + len(rng) > max_runs:
                raise _too_many(f"Range {token!r}", len(values) + len(rng), max_runs)
            values.extend(rng)
        else:
            values.append(parse_literal(token))
    return values


def expand_grid(grid: dict) -> list[dict]:
    """All combinations of a ``{name: [values]}`` grid, in a stable order.

    Examples
    --------
    >>> expand_grid({"seed": [0, 1], "method": ["a"]})
    [{'seed': 0, 'method': 'a'}, {'seed': 1, 'method': 'a'}]
    """
    check_grid_shape(grid)
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]


def check_grid_shape(grid: dict) -> None:
    """Refuse a grid that is not a ``{name: [values]}`` dict of non-empty lists (``TypeError``, ``ValueError``)."""
    if not isinstance(grid, dict):
        raise TypeError(f"grid must be a dict {{name: [values]}}, not a {type(grid).__name__}.")
    for name, values in grid.items():
        if not isinstance(values, list):
            raise TypeError(f"Parameter {name!r} needs a list of values, e.g. [{values!r}]; got {values!r}.")
        if not values:
            raise ValueError(f"Parameter {name!r} has no values; give at least one.")


def _type_name(value) -> str:
    return type(value).__name__


def _inspect(notebook: Path) -> dict:
    """papermill's view of the notebook's parameters, or an error naming the file."""
    import papermill as pm

    try:
        return pm.inspect_notebook(str(notebook))
    except Exception as exc:  # not JSON, not a notebook, unreadable
        first = str(exc).strip().splitlines()
        raise ValueError(
            f"{notebook} is not a readable Jupyter notebook ({type(exc).__name__}: {first[0] if first else ''}); "
            "give the path of an .ipynb file."
        ) from None


def _value_problem(value, default, check) -> tuple[str, str] | None:
    """``(kind, what is expected)`` when ``value`` cannot be given to a parameter, else ``None``.

    ``check`` is the parameter's check from the manifest (``None`` for a notebook the workbook
    does not know); without one, the value must have the default's type (an int for a float).
    """
    if check is not None:
        kind = check.problem(value)
        return None if kind is None else (kind, check.describe())
    if isinstance(value, bool) and not isinstance(default, bool) and default is not None:
        return "type", f"{_type_name(default)} values"  # True is an int to Python, not to the notebook's author
    if default is None or value is None or isinstance(value, type(default)):
        return None
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        return None
    return "type", f"{_type_name(default)} values"


def validate_grid(notebook: Path, grid: dict, origin: dict | None = None) -> dict:
    """Check grid names and values against the notebook's ``parameters`` cell and its checks.

    Names must be parameters of the notebook; values must have the type of the default
    (an int is accepted for a float) or, for the workbook's notebooks, pass the checks of
    their manifest entry (:func:`helpers.workbook.parameters.parameter_spec`: every value and,
    for conditions on two parameters, every combination). ``origin`` maps names to where they
    were given (a grid file, ``-p``), for the messages.

    Returns
    -------
    dict
        The notebook's parameters as papermill's ``inspect_notebook`` reports them.

    Raises
    ------
    ValueError, TypeError
        An unreadable notebook, one without a ``parameters`` cell or a ``results_path``
        parameter, an unknown name, ``results_path`` or a name of the results table's own
        columns (:data:`~helpers.workbook.sweep.store.RESERVED_NAMES`) in the grid, a value the
        parameter cannot take, a combination that breaks a condition; the message names the
        notebook, the parameter, where it was given and the fix.
    """
    notebook = Path(notebook)
    origin = origin or {}
    declared = _inspect(notebook)
    if not declared:
        raise ValueError(f"{notebook} has no cell tagged 'parameters', so papermill cannot inject values; "
                         "tag the cell of its parameters 'parameters' (Jupyter: View > Cell toolbar > Tags).")
    spec, relations = parameter_spec(notebook)
    for name, values in grid.items():
        where = f" (in {origin[name]})" if name in origin else ""
        if name not in declared:
            raise ValueError(
                f"Unknown parameter {name!r}{where} for {notebook.name}; its parameters are "
                f"{', '.join(sorted(declared))}."
            )
        if name in RESERVED_NAMES:
            raise ValueError(
                f"Parameter {name!r}{where} of {notebook.name} cannot be swept: the results table has a column "
                f"{name!r} of its own ({', '.join(RESERVED_NAMES)}), which the parameter would overwrite. "
                f"Rename it in the notebook's parameters cell (e.g. {name}_), then sweep the new name."
            )
        if name == "results_path":
            raise ValueError(f"results_path{where} is set by the sweep for every run; do not sweep it.")
        default = parse_literal(declared[name]["default"])
        for value in values:
            problem = _value_problem(value, default, spec.get(name))
            if problem is None:
                continue
            kind, expected = problem
            unread = (" (it could not be read as a Python literal: quote strings, write lists as [1, 2])"
                      if isinstance(value, str) and not isinstance(default, str) else "")
            if str(origin.get(name, "")).lower().endswith((".yaml", ".yml")) and isinstance(
                    value, (bool, datetime.date)) and not isinstance(default, (bool, datetime.date)):
                unread = (" (YAML reads yes, no, on, off, true and false as booleans and 2026-12-03 as a date: "
                          "quote the value in the grid file, e.g. 'yes')")
            error = TypeError if kind == "type" else ValueError
            raise error(
                f"Parameter {name!r}{where} of {notebook.name} takes {expected} (default {default!r}); "
                f"got {value!r} ({_type_name(value)}){unread}."
            )
    for words, names, test in relations:
        for params in expand_grid(grid) if any(n in grid for n in names) else []:
            values = {n: params[n] if n in params else parse_literal(declared[n]["default"]) for n in names}
            if not test(values):
                got = ", ".join(f"{n} = {v!r}" for n, v in values.items())
                raise ValueError(f"The grid has a run with {got}, which breaks {notebook.name}'s condition "
                                 f"{words}; change the values so that every combination meets it.")
    if "results_path" not in declared:
        raise ValueError(
            f"{notebook.name} declares no results_path parameter, so its runs would record no results; "
            "add `results_path: str = None` to its parameters cell and save_results(results, results_path) at its end."
        )
    return declared


def _no_repeats(path: Path):
    """A JSON ``object_pairs_hook`` refusing a name given twice (``json`` would keep the last silently)."""
    def hook(pairs):
        seen = set()
        for name, _ in pairs:
            if name in seen:
                raise ValueError(f"Grid file {path} gives {name!r} twice; the values of one would be dropped. "
                                 f"Give all its values in one list, e.g. {json.dumps({name: [0, 1, 5]})}.")
            seen.add(name)
        return dict(pairs)
    return hook


def _yaml_loader(path: Path):
    """PyYAML's safe loader, refusing a name given twice in a mapping (PyYAML keeps the last silently)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node, deep=False):  # PyYAML's construct_mapping signature
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # << *anchor: YAML's own way to repeat keys
                continue
            name = loader.construct_object(key_node, deep=deep)
            if name in seen:
                raise ValueError(f"Grid file {path} gives {name!r} twice (line {key_node.start_mark.line + 1}); the "
                                 f"values of one would be dropped. Give all its values in one list, e.g. "
                                 f"{name}: [0, 1, 5].")
            seen.add(name)
        return loader.construct_mapping(node, deep=deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


def _parse_grid_text(path: Path, text: str, yaml_file: bool, example: str):
    """The object a grid file's text holds, or a ``ValueError`` naming the file, the place and the fix."""
    if yaml_file:
        import yaml

        try:
            return yaml.load(text, Loader=_yaml_loader(path))  # noqa: S506 - a SafeLoader subclass
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            raise ValueError(f"Grid file {path} is not valid YAML{at} ({getattr(exc, 'problem', exc)}); "
                             f"write one name per line: {example}.") from None
    try:
        return json.loads(text, object_pairs_hook=_no_repeats(path))
    except json.JSONDecodeError as exc:
        raise ValueError(f"Grid file {path} is not valid JSON at line {exc.lineno}, column {exc.colno} "
                         f"({exc.msg}); write {example} (use .yaml for a YAML file).") from None


def read_grid_file(path) -> dict:
    """The ``{name: [values]}`` mapping of a YAML (``.yaml``/``.yml``) or JSON grid file, checked.

    Raises ``FileNotFoundError`` for a missing file and ``ValueError``/``TypeError`` naming the
    file, the key and the fix for a file that is not valid JSON/YAML, not a mapping, or has a
    value that is not a non-empty list.

    Examples
    --------
    >>> import tempfile
    >>> grid = Path(tempfile.mkdtemp()) / "grid.json"
    >>> _ = grid.write_text('{"seed": [0, 1], "method": ["zca"]}')
    >>> read_grid_file(grid)
    {'seed': [0, 1], 'method': ['zca']}
    """
    path = Path(path)
    yaml_file = path.suffix.lower() in (".yaml", ".yml")
    kind = "YAML" if yaml_file else "JSON"
    example = "seed: [0, 1, 2]" if yaml_file else '{"seed": [0, 1, 2]}'
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, f"Grid file {path} does not exist; give the path of a {kind} file "
                                              f"such as {example}.")
    if path.suffix.lower() not in (".json", ".yaml", ".yml"):   # a .toml or .csv grid was reported as bad JSON
        raise ValueError(f"Grid file {path} is read by its suffix, and {path.suffix or 'no suffix'!r} is not one: "
                         "write the grid as JSON (.json, e.g. {\"seed\": [0, 1, 2]}) or YAML (.yaml or .yml, e.g. "
                         "seed: [0, 1, 2]).")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"Grid file {path} cannot be read ({exc}); give a UTF-8 {kind} file "
                         f"such as {example}.") from None
    loaded = _parse_grid_text(path, text, yaml_file, example)
    if not isinstance(loaded, dict) or not loaded:
        raise ValueError(f"Grid file {path} must hold a non-empty mapping {{name: [values]}}, e.g. {example}; "
                         f"it holds {type(loaded).__name__} {str(loaded)[:60]}.")
    for name, values in loaded.items():
        if not isinstance(name, str):
            raise TypeError(f"Grid file {path}: key {name!r} is not a parameter name; quote it or fix it.")
        if not isinstance(values, list):
            fix = f'"{name}": [{json.dumps(values)}]' if not yaml_file else f"{name}: [{values!r}]"
            raise TypeError(f"Grid file {path}: {name!r} must be a list of values, not {values!r} "
                            f"({type(values).__name__}); write {fix}.")
        if not values:
            raise ValueError(f"Grid file {path}: {name!r} has an empty list; give at least one value "
                             "or remove the key.")
    return loaded


def grid_from_options(grid_file=None, params=(), max_runs: int = DEFAULT_MAX_RUNS) -> tuple[dict, dict]:
    """The grid of a command line: a grid file merged with every ``-p NAME VALUES...``.

    Parameters
    ----------
    grid_file : path-like, optional
        A YAML or JSON grid file (:func:`read_grid_file`).
    params : sequence of sequences of str
        Each ``-p`` option's words: the name, then its values (:func:`parse_values`).
    max_runs : int
        The most runs the grid may have (``--max-runs``), checked before any range is expanded.

    Returns
    -------
    grid, origin : dict
        ``{name: [values]}``, and ``{name: where it was given}`` for the messages of
        :func:`validate_grid`.

    Raises
    ------
    ValueError
        A name without values, given by ``-p`` twice or both in the file and by ``-p``,
        nothing to sweep at all, or more than ``max_runs`` runs.

    Examples
    --------
    >>> grid_from_options(params=[["seed", "0:2"], ["method", "zca"]])
    ({'seed': [0, 1], 'method': ['zca']}, {'seed': '-p seed', 'method': '-p method'})
    """
    check_max_runs(max_runs)
    grid: dict = {}
    origin: dict = {}
    if grid_file is not None:
        grid.update(read_grid_file(grid_file))
        origin.update(dict.fromkeys(grid, str(grid_file)))
    from_file = set(grid)
    seen: set = set()
    for name, *tokens in params:
        if not tokens:
            raise ValueError(f"Parameter {name!r} has no values; give at least one after its name.")
        if name in seen:
            raise ValueError(f"Parameter {name!r} is given by -p twice; give all its values after one -p "
                             f"(e.g. -p {name} 0 1 5), so that none is dropped.")
        if name in from_file:
            raise ValueError(f"Parameter {name!r} is in {grid_file} and given by -p; set it in one place only.")
        seen.add(name)
        grid[name] = parse_values(tokens, max_runs)
        origin[name] = f"-p {name}"
        check_run_count(grid, max_runs)
    if not grid:
        raise ValueError("Nothing to sweep: give -p NAME VALUES... or --grid FILE.")
    check_run_count(grid, max_runs)
    return grid, origin
