"""Input checks shared by the helpers: one place that says what is wrong and how to fix it."""

from __future__ import annotations

import math

import numpy as np

# A covariance whose condition number exceeds this is treated as numerically singular:
# its smallest eigenvalue is within rounding error (about 1e-16 relative) of zero, and
# whitening would amplify that rounding error into the result. Raw WDBC (about 6e11)
# stays well below it, as the papers require.
MAX_CONDITION = 1e14


def as_float_array(x, name: str, ndim: int | tuple[int, ...] | None = None) -> np.ndarray:
    """Return ``x`` as a float64 array after checking its type, dimension and finiteness.

    Complex numbers, text and ragged nested lists are refused with a message saying what to do;
    booleans become 0.0 and 1.0.

    Examples
    --------
    >>> as_float_array([[1, 2]], "X", ndim=2).tolist()
    [[1.0, 2.0]]
    >>> as_float_array([1 + 2j], "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Complex data not supported: x holds complex numbers (dtype complex128); ... Pass x.real ...
    """
    if hasattr(x, "tocsr") and hasattr(x, "nnz"):  # a scipy sparse matrix or array
        raise TypeError(
            f"{name} is a scipy sparse {type(x).__name__} of shape {x.shape}; this function needs a dense array. "
            f"Pass {name}.toarray() if it fits in memory ({x.shape[0]:,} x {x.shape[1]:,} x 8 bytes = "
            f"{x.shape[0] * x.shape[1] * 8 / 2**20:,.1f} MiB), or reduce it first with helpers.gram.GramPCA "
            "(which takes sparse input)."
        )
    if hasattr(x, "to_numpy") and hasattr(x, "dtypes" if hasattr(x, "columns") else "dtype"):
        # pandas: nullable Int64/Float64/boolean columns hold pd.NA, which numpy cannot turn into a float;
        # as NaN it is reported below as a missing value, with its position
        try:
            x = x.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError):
            pass  # text or mixed columns: the checks below say what to do
    try:
        raw = np.asarray(x)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(
            f"{name} must be a rectangular array of numbers; its rows have different lengths ({exc}). "
            "Pad or drop the short rows first."
        ) from None
    if raw.dtype.kind == "c" or (raw.dtype == object and any(isinstance(v, complex) for v in raw.ravel()[:1000])):
        raise ValueError(
            f"Complex data not supported: {name} holds complex numbers (dtype {raw.dtype}); "
            "these measures need real data. "
            f"Pass {name}.real if the imaginary parts are rounding noise, or np.abs({name}) for the magnitudes."
        )
    try:
        arr = raw.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        missing = _first_missing(raw)
        if missing is not None:
            raise ValueError(
                f"{name} contains missing values ({missing[1]}), first at {_position(missing[0])}. Remove or impute "
                "them first, e.g. sklearn.impute.SimpleImputer (or df.dropna())."
            ) from None
        # TypeError for objects that are not numbers at all (a dict), ValueError for text
        raise type(exc)(
            f"{name} must be numeric; could not convert it to float ({exc}; dtype {raw.dtype}). "
            "Encode text columns as numbers first (e.g. sklearn.preprocessing.OrdinalEncoder) or drop them."
        ) from None
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if arr.ndim not in allowed:
            want = " or ".join(f"{d}-D" for d in allowed)
            hint = ""
            if 2 in allowed and arr.ndim == 1:
                hint = " Use x.reshape(1, -1) for a single sample or x.reshape(-1, 1) for a single feature."
            elif arr.ndim > max(allowed):
                hint = f" Reshape it to {want} first, e.g. x.reshape(len(x), -1) to flatten each sample."
            raise ValueError(f"{name} must be {want}; got shape {arr.shape}.{hint}")
    check_finite(arr, name)
    return arr


def _first_missing(raw: np.ndarray):
    """``(index, what)`` of the first ``None`` or ``pd.NA`` in an object array, or ``None``."""
    if raw.dtype != object:
        return None
    for index, value in np.ndenumerate(raw):
        if value is None or type(value).__name__ == "NAType":
            return tuple(int(i) for i in index), "None" if value is None else "pd.NA"
    return None


def _position(index: tuple) -> str:
    """``(3, 1)`` as "row 3, column 1" for matrices, "index (i,)" otherwise, for messages."""
    if len(index) == 2:
        return f"row {index[0]}, column {index[1]}, i.e. index {index}"
    return f"index {index}"


def plain(label):
    """A numpy scalar (a label, a count) as the plain Python value, for readable messages and dict keys.

    Examples
    --------
    >>> plain(np.int64(3)), plain(np.str_("earn")), plain("a")
    (3, 'earn', 'a')
    """
    return label.item() if isinstance(label, np.generic) else label


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise if ``arr`` holds NaN or inf, naming the first offending position and the fix.

    NaN (a missing value) is told apart from inf (a value beyond float64's range, about
    1.8e308: an overflow upstream), because they need different fixes.

    Examples
    --------
    >>> check_finite(np.array([[1.0, np.inf]]), "X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X contains inf (overflow: ...) in 1 entries, first at row 0, column 1, ... Rescale the data ...
    """
    finite = np.isfinite(arr)
    if finite.all():
        return
    nan = np.isnan(arr)
    if nan.any():
        bad = np.argwhere(nan)
        first = tuple(int(i) for i in bad[0])
        n_inf = int((~finite).sum()) - len(bad)
        extra = f" (and {n_inf} inf)" if n_inf else ""
        raise ValueError(
            f"{name} contains NaN in {len(bad)} entries{extra}, first at {_position(first)}. "
            "Remove or impute them first, e.g. sklearn.impute.SimpleImputer."
        )
    bad = np.argwhere(~finite)
    first = tuple(int(i) for i in bad[0])
    raise ValueError(
        f"{name} contains inf (overflow: a value beyond the float64 range of about 1.8e308) in {len(bad)} "
        f"entries, first at {_position(first)}. Rescale the data before this step (e.g. divide by a power "
        "of ten or use sklearn.preprocessing.StandardScaler) or replace the inf values."
    )


def check_same_features(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Raise if two arrays disagree in their last (feature) dimension, quoting both shapes."""
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"{name_a} and {name_b} must have the same number of features; "
            f"got shapes {a.shape} and {b.shape}."
        )


def check_square_matrix(m: np.ndarray, name: str, n_features: int | None = None) -> None:
    """Raise unless ``m`` is square (and, if given, ``n_features`` wide)."""
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(f"{name} must be a square matrix; got shape {m.shape}.")
    if n_features is not None and m.shape[0] != n_features:
        raise ValueError(
            f"{name} has shape {m.shape} but the data have {n_features} features; "
            f"it must be ({n_features}, {n_features})."
        )


def check_symmetric(m: np.ndarray, name: str, rtol: float = 1e-8) -> None:
    """Raise unless ``m`` is symmetric to a relative tolerance."""
    scale = max(float(np.max(np.abs(m))), np.finfo(float).tiny)
    asym = float(np.max(np.abs(m - m.T))) / scale
    if asym > rtol:
        i, j = np.unravel_index(np.argmax(np.abs(m - m.T)), m.shape)
        raise ValueError(
            f"{name} is not symmetric: entries ({i}, {j}) and ({j}, {i}) differ "
            f"({m[i, j]:.6g} vs {m[j, i]:.6g}; relative asymmetry {asym:.2e}). "
            f"Pass (M + M.T) / 2 if the asymmetry is rounding error."
        )


def check_option(value, options, name: str) -> None:
    """Raise unless ``value`` is one of ``options``, listing the valid ones."""
    if value not in options:
        valid = ", ".join(repr(o) for o in options)
        raise ValueError(f"Unknown {name} {value!r}; valid options are {valid}.")


def pairwise_inputs(x, y, name_x: str = "x", name_y: str = "y"):
    """Validate a pair for a metric: two 1-D vectors or two 2-D row sets.

    Returns ``(x, y, pairwise)``, with 1-D inputs lifted to single rows and ``pairwise``
    False when the caller should return a float.
    """
    xa = as_float_array(x, name_x, ndim=(1, 2))
    ya = as_float_array(y, name_y, ndim=(1, 2))
    if xa.ndim != ya.ndim:
        raise ValueError(
            f"{name_x} and {name_y} must both be vectors (1-D) or both be sample matrices (2-D); "
            f"got shapes {xa.shape} and {ya.shape}. Use v.reshape(1, -1) to treat a vector as one sample."
        )
    check_same_features(xa, ya, name_x, name_y)
    if xa.ndim == 1:
        return xa[None, :], ya[None, :], False
    return xa, ya, True


def check_estimator(model, name: str = "model"):
    """Refuse what scikit-learn cannot clone and fit, before any work starts."""
    if isinstance(model, type):
        raise TypeError(f"{name} is the class {model.__name__}, not an estimator; pass an instance, "
                        f"e.g. {model.__name__}().")
    if not (hasattr(model, "fit") and hasattr(model, "get_params")):
        raise TypeError(f"{name} must be a scikit-learn estimator (with fit and get_params), e.g. "
                        f"KNeighborsClassifier(5); got {type(model).__name__} {model!r:.60}.")
    return model


def _must_be(name: str, what: str, value, example: str | None, why: str | None) -> str:
    """The one wording of a refused value: what it must be, why, an example, and what was given."""
    because = f" ({why})" if why else ""
    for_example = f", e.g. {example}" if example else ""
    return f"{name} must be {what}{because}{for_example}; got {value!r}."


def check_value(value, allowed: Check, name: str, example: str | None = None, why: str | None = None):
    """``value`` unchanged if ``allowed`` accepts it, else a ``ValueError`` saying what it must be.

    The check behind :func:`check_int` and :func:`check_real`; use it directly for a union,
    e.g. ``Integer(1) | OneOf([None])``.

    Examples
    --------
    >>> check_value(None, Integer(1) | OneOf([None]), "max_components") is None
    True
    >>> check_value(0, Integer(1) | OneOf([None]), "max_components", "100")
    Traceback (most recent call last):
    ...
    ValueError: max_components must be an integer >= 1 or None, e.g. 100; got 0.
    """
    if allowed.problem(value) is not None:
        raise ValueError(_must_be(name, allowed.describe(), value, example, why))
    return value


def check_int(value, name: str, minimum: int = 1, example: str | None = None, maximum: int | None = None,
              why: str | None = None) -> int:
    """``value`` as an int in ``[minimum, maximum]``; bools, floats and text are refused with an example.

    ``why`` says in brackets where a bound comes from (e.g. "the rows of y").

    Examples
    --------
    >>> check_int(3, "k", 1, "k=5")
    3
    >>> check_int(True, "k", 1, "k=5")
    Traceback (most recent call last):
    ...
    ValueError: k must be an integer >= 1, e.g. k=5; got True.
    >>> check_int(41, "k", 1, maximum=40, why="the rows of y")
    Traceback (most recent call last):
    ...
    ValueError: k must be an integer in [1, 40] (the rows of y); got 41.
    """
    return int(check_value(value, Integer(minimum, maximum), name, example, why))


def check_real(value, name: str, example: str | None = None, low: float | None = None, high: float | None = None,
               closed: str = "both", why: str | None = None) -> float:
    """``value`` as a float between ``low`` and ``high``; NaN, inf, bools and text are refused with an example.

    ``closed`` says which bounds are allowed, as in :class:`Real`. Without an upper or a
    lower bound the message says "finite", which is then the part that can fail.

    Examples
    --------
    >>> check_real(0.5, "level", "0.9", 0, 1, closed="neither")
    0.5
    >>> check_real(float("inf"), "C", "C=1.0", low=0, closed="neither")
    Traceback (most recent call last):
    ...
    ValueError: C must be a finite number > 0, e.g. C=1.0; got inf.
    """
    allowed = Real(low, high, closed)
    what = allowed.describe()
    if low is None or high is None:
        what = what.replace("a number", "a finite number", 1)
    if allowed.problem(value) is not None:
        raise ValueError(_must_be(name, what, value, example, why))
    return float(value)


def check_label_values(y, name: str = "y") -> np.ndarray:
    """``y`` as a 1-D array of labels that can be sorted: no missing label, no mix of text and numbers.

    Examples
    --------
    >>> check_label_values(np.array(["a", 1], dtype=object))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: y mixes labels of types int, str, which cannot be sorted into classes; convert them ...
    """
    y = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    if y.ndim != 1:
        fix = " Use y.ravel() for a single column." if y.ndim == 2 and y.shape[1] == 1 else ""
        raise ValueError(f"{name} must be 1-D, one label per row; got shape {y.shape}.{fix}")
    missing = _first_missing(y)
    if missing is None and y.dtype.kind == "f" and np.isnan(y).any():
        missing = ((int(np.flatnonzero(np.isnan(y))[0]),), "NaN")
    if missing is not None:
        raise ValueError(f"{name} has a missing label ({missing[1]}) at index {missing[0][0]}; drop those rows or "
                         "label them first.")
    if y.dtype == object:
        try:
            np.unique(y)
        except TypeError:
            kinds = sorted({type(v).__name__ for v in y})
            raise TypeError(
                f"{name} mixes labels of types {', '.join(kinds)}, which cannot be sorted into classes; convert "
                f"them to one type first, e.g. {name} = np.asarray({name}).astype(str)."
            ) from None
    return y


def check_labels(X, y, n_classes: int = 2):
    """``X`` as a 2-D float array and ``y`` as an array with one label per row and >= ``n_classes`` classes."""
    X, y = np.asarray(X, dtype=float), check_label_values(y)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples x features); got shape {X.shape}. Use X.reshape(-1, 1) "
                         "for a single feature.")
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; pass matching arrays.")
    classes = np.unique(y)
    if classes.size < n_classes:
        raise ValueError(
            f"y has {classes.size} class(es) {classes.tolist()}; a classification score needs at least "
            f"{n_classes} (a one-class model is right by construction). Check the labels or the subset."
        )
    return X, y


def check_cv(cv):
    if not (hasattr(cv, "split") and hasattr(cv, "get_n_splits")):
        raise TypeError(f"cv must be a scikit-learn splitter such as LeaveOneOut() or StratifiedKFold(5); got {cv!r}.")
    return cv


def split_folds(cv, X, y) -> list:
    """The folds of ``cv``, with the splitter's own error completed by the class counts."""
    try:
        return list(check_cv(cv).split(X, y))
    except ValueError as exc:
        labels, counts = np.unique(y, return_counts=True)
        raise ValueError(f"{cv!r} cannot split these {len(y)} rows (class counts "
                         f"{dict(zip(labels.tolist(), counts.tolist()))}): {exc}") from None


def check_positive_ints(values, name: str, example: str, maximum: int | None = None, *, scalar: bool = False,
                        why: str | None = None) -> list[int]:
    """``values`` as a list of integers in ``[1, maximum]``, or an error naming the first bad one.

    The one check behind every "numbers of neighbours" or "numbers of components" argument.
    ``scalar=True`` also accepts a single integer (returned as a one-item list); ``why`` says
    in brackets where ``maximum`` comes from.

    Examples
    --------
    >>> check_positive_ints(range(1, 4), "ks", "[3] or range(1, 21)")
    [1, 2, 3]
    >>> check_positive_ints([3, 0], "ks", "[3] or range(1, 21)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ks must be a non-empty list of positive integers, e.g. [3] ...; got [3, 0] (0 is not ...).
    """
    if scalar and is_int(values):
        values = [values]
    items = None if isinstance(values, (int, np.integer, str)) or not hasattr(values, "__iter__") else list(values)
    allowed = Integer(1, maximum)
    bad = [] if items is None else [k for k in items if allowed.problem(k) is not None]
    if not items or bad:
        what, in_words = ("positive integers", "a positive integer") if maximum is None else \
            (f"integers in [1, {maximum}]", f"in [1, {maximum}]")
        because = f" ({why})" if why else ""
        raise ValueError(f"{name} must be a non-empty list of {what}{because}, e.g. {example}; got {values!r}"
                         + (f" ({bad[0]!r} is not {in_words})." if bad else "."))
    return [int(k) for k in items]


def is_int(value) -> bool:
    """An integer that is not a bool (``True`` is an ``int`` in Python, never a count here)."""
    return Integer().problem(value) is None


def is_whole_seconds(value) -> bool:
    """A limit in seconds that papermill takes: a whole number >= 1, given as an int or a whole float, not a bool.

    Examples
    --------
    >>> [is_whole_seconds(v) for v in (600, 600.0, 0.5, 0, True, "600")]
    [True, True, False, False, False, False]
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (isinstance(value, int) or value.is_integer()) and value >= 1


# --------------------------------------------------------------------------------------------
# the vocabulary of allowed values: what a parameter may be, in words and as a test
# (the notebooks' parameter specs, helpers.studies.NOTEBOOKS, are written in it)


class Check:
    """One kind of allowed value; ``a | b`` accepts what either accepts."""

    def problem(self, value) -> str | None:  # None: allowed; "type": wrong type; "value": right type, not allowed
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def __or__(self, other: Check) -> Check:
        return _AnyOf(self, other)

    def __repr__(self) -> str:
        return f"<{self.describe()}>"


class _AnyOf(Check):
    def __init__(self, *checks: Check):
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


class _Interval(Check):
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


class OneOf(Check):
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


class Text(Check):
    """Any string (e.g. a file path)."""

    def problem(self, value):
        return None if isinstance(value, str) else "type"

    def describe(self):
        return "a string"


class ListOf(Check):
    """A list (or tuple) of items that ``item`` accepts; ``length`` fixes its length.

    Examples
    --------
    >>> ListOf(Real(0), length=2).describe(), ListOf(Real(0), length=2).problem([1.0, -1.0])
    ('a list of 2 numbers >= 0', 'value')
    """

    def __init__(self, item: Check, length: int | None = None, min_length: int = 1):
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


class DictOf(Check):
    """A dict whose values ``value`` accepts and that holds at least the keys ``keys``."""

    def __init__(self, value: Check, keys=()):
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
