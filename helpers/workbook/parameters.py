"""What each notebook's parameters may be, checked before any work starts.

Notebooks call :func:`check_parameters` in their setup cell (``check_parameters(globals(), "03")``),
so that a bad value from papermill ``-p`` or a sweep stops there, naming the parameter, the value
and what is allowed, not deep inside scikit-learn; the sweep (:mod:`.sweep`) refuses a grid value
that breaks these checks before any run.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..whitening import COVARIANCES, METHODS

__all__ = [
    "NOTEBOOK_PARAMETERS",
    "NOTEBOOK_RELATIONS",
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

# --------------------------------------------------------------------------------------
# Parameter checks: what each notebook's parameters may be


class _Check:
    """One kind of allowed value; ``a | b`` accepts what either accepts."""

    def problem(self, value) -> str | None:  # None: allowed; "type": wrong type; "value": right type, not allowed
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def __or__(self, other: _Check) -> _Check:
        return _AnyOf(self, other)

    def __repr__(self) -> str:
        return f"<{self.describe()}>"


class _AnyOf(_Check):
    def __init__(self, *checks: _Check):
        self.checks = checks

    def problem(self, value):
        found = [check.problem(value) for check in self.checks]
        if None in found:
            return None
        return "value" if "value" in found else "type"

    def describe(self):
        return " or ".join(check.describe() for check in self.checks)


def _bound_text(low, high, closed: str) -> str:
    if low is not None and high is not None:
        left = "[" if closed in ("both", "left") else "("
        right = "]" if closed in ("both", "right") else ")"
        return f" in {left}{low:g}, {high:g}{right}"
    if low is not None:
        return f" {'>=' if closed in ('both', 'left') else '>'} {low:g}"
    if high is not None:
        return f" {'<=' if closed in ('both', 'right') else '<'} {high:g}"
    return ""


class _Interval(_Check):
    def __init__(self, low=None, high=None, closed: str = "both"):
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', not {closed!r}.")
        self.low, self.high, self.closed = low, high, closed

    def _inside(self, value) -> bool:
        if self.low is not None and (value < self.low or (value == self.low and self.closed in ("right", "neither"))):
            return False
        return not (self.high is not None
                    and (value > self.high or (value == self.high and self.closed in ("left", "neither"))))


class Integer(_Interval):
    """An integer (not a bool) between ``low`` and ``high`` (``None``: unbounded).

    Examples
    --------
    >>> Integer(1).describe(), Integer(0, 10).problem(11), Integer(1).problem("3")
    ('an integer >= 1', 'value', 'type')
    """

    def problem(self, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            return "type"
        return None if self._inside(value) else "value"

    def describe(self):
        return "an integer" + _bound_text(self.low, self.high, self.closed)


class Real(_Interval):
    """A finite number (an int is accepted, a bool is not) between ``low`` and ``high``.

    ``closed`` says which bounds are allowed: ``"both"``, ``"left"``, ``"right"`` or ``"neither"``.

    Examples
    --------
    >>> Real(0, 1, closed="neither").describe(), Real(0, 1, closed="neither").problem(1), Real(0).problem(2)
    ('a number in (0, 1)', 'value', None)
    """

    def problem(self, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            return "type"
        return None if math.isfinite(value) and self._inside(value) else "value"

    def describe(self):
        return "a number" + _bound_text(self.low, self.high, self.closed)


class OneOf(_Check):
    """One of the listed values (compared with their types: ``True`` is not ``1``).

    Examples
    --------
    >>> OneOf(["paper", "sklearn"]).describe(), OneOf(["paper", "sklearn"]).problem("Paper")
    ("one of 'paper', 'sklearn'", 'value')
    """

    def __init__(self, options):
        self.options = tuple(options)

    def problem(self, value):
        if any(type(value) is type(option) and value == option for option in self.options):
            return None
        return "value" if any(type(value) is type(option) for option in self.options) else "type"

    def describe(self):
        if len(self.options) == 1:
            return repr(self.options[0])
        return "one of " + ", ".join(map(repr, self.options))


class Boolean(OneOf):
    """``True`` or ``False``."""

    def __init__(self):
        super().__init__([True, False])

    def problem(self, value):
        return None if isinstance(value, (bool, np.bool_)) else "type"


class Text(_Check):
    """Any string (e.g. a file path)."""

    def problem(self, value):
        return None if isinstance(value, str) else "type"

    def describe(self):
        return "a string"


class ListOf(_Check):
    """A list (or tuple) of items that ``item`` accepts; ``length`` fixes its length.

    Examples
    --------
    >>> ListOf(Real(0), length=2).describe(), ListOf(Real(0), length=2).problem([1.0, -1.0])
    ('a list of 2 numbers >= 0', 'value')
    """

    def __init__(self, item: _Check, length: int | None = None, min_length: int = 1):
        self.item, self.length, self.min_length = item, length, min_length

    def problem(self, value):
        if not isinstance(value, (list, tuple)):
            return "type"
        if (self.length is not None and len(value) != self.length) or len(value) < self.min_length:
            return "value"
        found = [self.item.problem(v) for v in value]
        return None if not any(found) else ("type" if "type" in found else "value")

    def describe(self):
        inner = self.item.describe()
        for article in ("an ", "a "):  # "an integer >= 1" -> "integers >= 1"
            if inner.startswith(article):
                head, _, rest = inner[len(article):].partition(" ")
                inner = f"{head}s {rest}".strip()
                break
        if self.length is not None:
            return f"a list of {self.length} {inner}"
        return f"a {'non-empty ' if self.min_length else ''}list of {inner}"


class DictOf(_Check):
    """A dict whose values ``value`` accepts and that holds at least the keys ``keys``."""

    def __init__(self, value: _Check, keys=()):
        self.value, self.keys = value, tuple(keys)

    def problem(self, value):
        if not isinstance(value, dict):
            return "type"
        if any(key not in value for key in self.keys):
            return "value"
        found = [self.value.problem(v) for v in value.values()]
        return None if not any(found) else ("type" if "type" in found else "value")

    def describe(self):
        keys = f" with keys {', '.join(map(repr, self.keys))}" if self.keys else ""
        return f"a dict{keys} of values: {self.value.describe()}"


SEED = Integer(0, 2**32 - 1)           # numpy and scikit-learn accept seeds in [0, 2**32 - 1]
COUNT = Integer(1)
POSITIVE = Real(0, closed="neither")
FRACTION = Real(0, 1, closed="neither")
POINT = ListOf(Real(), length=2)
MATRIX_2X2 = ListOf(ListOf(Real(), length=2), length=2)
COVARIANCE = OneOf(COVARIANCES) | Real(0, 1)      # a name of helpers.whitening.COVARIANCES or a shrinkage
RESULTS_PATH = OneOf([None]) | Text()

# The allowed values of every notebook's parameters, keyed by the notebook's two-digit prefix.
# Notebooks check them in their setup cell (check_parameters(globals(), "03")) and the sweep
# refuses a grid value that breaks them before any run starts.
NOTEBOOK_PARAMETERS: dict[str, dict[str, _Check]] = {
    "00": {
        "random_state": SEED, "kmeans_k_max": Integer(2), "kmeans_n_init": COUNT, "alpha_tol": FRACTION,
        "alpha_tols": ListOf(FRACTION), "face_share": Real(0, 1, closed="right"),
        "face_noise_sds": ListOf(Real(0)), "face_shifts": ListOf(Integer(0)), "results_path": RESULTS_PATH,
    },
    "01": {
        "random_state": SEED, "fig1_cov": MATRIX_2X2, "point_a": POINT, "point_b": POINT, "point_c": POINT,
        "nn_dims": Integer(2), "nn_correlation": Real(-1, 1, closed="neither"), "nn_n": Integer(2),
        "far_point": POINT, "far_level": FRACTION, "near_point": POINT, "near_level": FRACTION,
        "fig3_correlation": Real(-1, 1, closed="neither"), "fig3_n": Integer(3), "fig3_radius": POSITIVE,
        "svm_n_train": Integer(2), "svm_n_test": COUNT, "svm_sd_tight": POSITIVE, "svm_sd_wide": POSITIVE,
        "svm_gap": Real(0), "svm_C": POSITIVE, "k_neighbours": COUNT, "results_path": RESULTS_PATH,
    },
    "02": {
        "random_state": SEED, "n_random_features": Integer(2), "n_random_samples": Integer(3),
        "rounding_bound": POSITIVE, "cosine_bounds": DictOf(POSITIVE, keys=("WDBC", "random SPD")),
        "distance_bounds": DictOf(POSITIVE, keys=("WDBC", "random SPD")), "svm_n_per_class": Integer(3),
        "svm_mean_pos": POINT, "svm_cov_pos": MATRIX_2X2, "svm_mean_neg": POINT, "svm_cov_neg": MATRIX_2X2,
        "svm_C": POSITIVE, "qp_C": POSITIVE, "unit_change": ListOf(POSITIVE, length=2), "results_path": RESULTS_PATH,
    },
    "03": {
        "random_state": SEED, "test_size": FRACTION, "k": COUNT, "method": OneOf(METHODS), "covariance": COVARIANCE,
        "n_splits_sweep": Integer(2), "n_repeats": COUNT, "n_random_transforms": COUNT, "results_path": RESULTS_PATH,
    },
    "04": {
        "random_state": SEED, "test_size": FRACTION, "method": OneOf(METHODS), "covariance": COVARIANCE,
        "n_splits_sweep": Integer(2), "n_random_transforms": COUNT, "n_jobs": COUNT | OneOf([-1]),
        "results_path": RESULTS_PATH,
    },
    "05": {
        "categories": Integer(2), "variance_retained": Real(0, 1, closed="right"), "k_min": COUNT, "k_max": COUNT,
        "covariance": COVARIANCE, "tfidf": OneOf(["paper", "sklearn"]), "sweep_components": ListOf(COUNT),
        "train_fractions": ListOf(Real(0, 1, closed="right")), "reading_components": ListOf(COUNT),
        "n_resamples": COUNT, "random_state": SEED, "verbose": Boolean(), "results_path": RESULTS_PATH,
    },
    "06": {
        "n_images": Integer(2, 10_000), "threshold": Real(0, 1, closed="left"), "n_resamples": COUNT,
        "random_state": SEED, "results_path": RESULTS_PATH,
    },
    "07": {
        "random_state": SEED, "n_repeats": COUNT, "n_splits": Integer(2), "inner_folds": Integer(2),
        "datasets": Text(), "covariance": COVARIANCE, "alpha": FRACTION, "n_jobs": COUNT | OneOf([-1]),
        "results_path": RESULTS_PATH,
    },
}

# Conditions on two parameters at once: (condition in words, names, test).
NOTEBOOK_RELATIONS: dict[str, list[tuple[str, tuple[str, ...], object]]] = {
    "05": [("k_min <= k_max", ("k_min", "k_max"), lambda p: p["k_min"] <= p["k_max"])],
}


def parameter_spec(notebook) -> tuple[dict, list]:
    """The checks and relations of a notebook's parameters: by its two-digit prefix or file name.

    Returns ``({}, [])`` for a notebook the workbook does not know (e.g. a scratch one).

    Examples
    --------
    >>> spec, relations = parameter_spec("notebooks/03_wisconsin_cosine_knn.ipynb")
    >>> spec["k"].describe(), relations
    ('an integer >= 1', [])
    """
    key = str(notebook)
    key = Path(key).name[:2] if len(key) > 2 else key
    return NOTEBOOK_PARAMETERS.get(key, {}), NOTEBOOK_RELATIONS.get(key, [])


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
        two-digit prefix (``"03"``): its entry in :data:`NOTEBOOK_PARAMETERS` and :data:`NOTEBOOK_RELATIONS`.
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
    >>> check_parameters({"k": 13, "method": "zca"}, {"k": Integer(1), "method": OneOf(METHODS)})
    >>> check_parameters({"k": 0}, {"k": Integer(1)})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Parameter k = 0 (int) is not allowed: k takes an integer >= 1. Set it in the parameters cell ...
    """
    if isinstance(spec, str):
        if spec not in NOTEBOOK_PARAMETERS:
            raise ValueError(f"No parameter checks for notebook {spec!r}; known: {', '.join(NOTEBOOK_PARAMETERS)}.")
        spec, relations = NOTEBOOK_PARAMETERS[spec], [*NOTEBOOK_RELATIONS.get(spec, []), *relations]
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
