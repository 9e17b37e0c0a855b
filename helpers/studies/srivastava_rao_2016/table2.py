"""Table 2 (lines 297-305): the paper's classifiers in the settings the text leaves open.

The paper does not say on which documents Table 2 was computed. :func:`single_label_table`
scores the baselines (:func:`~.baselines.baseline_predictions`) and the readings on the
single-label setting; :func:`setting_table` and :func:`other_settings` the same methods on the
top-10 documents with all their topics and on the 90 topics with a training and a test
document; :func:`table2_answers` gives our answers to Table 2's rows, with the notes of
:func:`settings_note` and :func:`readings_note`.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from ...data.reuters import make_setting
from ...evaluation import prf_scores
from .baselines import baseline_predictions
from .readings import READINGS, KnnOptions, mahalanobis_readings
from .sweeps import summarize_readings

__all__ = ["F1_COLUMNS", "TABLE2_BASELINES", "other_settings", "readings_note", "setting_table",
           "settings_note", "single_label_table", "table2_answers"]

#: Table 2's baselines: ledger key -> the name of our classifier in the tables
TABLE2_BASELINES = {"table2.naive-bayes": "naive Bayes", "table2.rocchio": "Rocchio",
                    "table2.euclidean-knn": READINGS["euclidean"]}
#: the columns compared across settings
F1_COLUMNS = ["accuracy", "macro_f1", "micro_f1"]
#: the settings beside the single-label one, and the readings computed in each (None: every one that applies)
OTHER_SETTINGS = {"multi_label": None, "all_90": ["euclidean", "class_blind"]}


def _rows(pair, rows_train, rows_test):
    return pair[0][rows_train], pair[1][rows_test]


def single_label_table(counts, weights, rows, y_train, y_test, classes, summary: pd.DataFrame,
                       random_state: int = 0) -> tuple[dict, pd.DataFrame]:
    """The baselines and the readings of Mahal-kNN, scored on the single-label test documents.

    Parameters
    ----------
    counts, weights : pair of matrices
        Term counts and TF-IDF weights of all training and all test documents.
    rows : pair of int arrays
        The rows of the setting in each.
    y_train, y_test, classes : the setting's labels and classes
    summary : DataFrame
        :func:`~.sweeps.summarize_readings` of the readings on the same documents.
    random_state : int
        Seed of the linear SVM.

    Returns
    -------
    predictions : dict
        ``{baseline: test predictions}``.
    table : DataFrame
        Every score of :func:`helpers.evaluation.prf_scores`, one row per baseline, then one per
        reading (named as in :data:`READINGS`).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 0], [6, 1], [5, 1], [0, 5], [1, 6], [1, 5]], dtype=float)
    >>> y = np.array(["a", "a", "a", "b", "b", "b"])
    >>> summary = pd.DataFrame({"accuracy": [0.5], "macro_f1": [0.4]}, index=["euclidean"])
    >>> _, t = single_label_table((X, X), (X, X), (np.arange(6), np.arange(6)), y, y, ["a", "b"],
    ...                           summary.reindex(columns=list(prf_scores(y, y, ["a", "b"]))))
    >>> t.index.tolist(), float(t.loc["Rocchio", "accuracy"])
    (['naive Bayes', 'Rocchio', 'linear SVM', 'Euclidean kNN'], 1.0)
    """
    base = baseline_predictions(_rows(counts, *rows), _rows(weights, *rows), y_train, random_state=random_state)
    table = pd.DataFrame({name: prf_scores(y_test, p, classes) for name, p in base.items()}).T
    for reading in [r for r in READINGS if r in summary.index]:  # in the order of READINGS
        table.loc[READINGS[reading]] = summary.loc[reading, list(table.columns)]
    return base, table


def setting_table(train, test, setting: str, counts, weights, scores, options: KnnOptions,
                  categories: int = 10) -> tuple[pd.DataFrame, tuple]:
    """Accuracy, macro and micro F1 of the baselines and readings in one multi-label setting.

    Naive Bayes, Rocchio and (top-10 setting only) the linear SVM, one-vs-rest; a kNN reading
    assigns a category when more than half of the k neighbours carry it (at the k with the
    best test accuracy); the nearest category is one label.

    Parameters
    ----------
    train, test : DataFrame
        The ModApte documents with a topic (:func:`helpers.data.reuters.make_setting` chooses
        the setting's rows and labels).
    setting : {"multi_label", "all_90"}
    counts, weights, scores : pair of matrices
        Term counts, TF-IDF weights and PCA scores of all training and all test documents.
    options : KnnOptions
        ``sd``, ``ks``, ``readings``, ``covariance`` and ``verbose`` of
        :func:`~.readings.mahalanobis_readings`; ``random_state`` seeds the linear SVM.
    categories : int
        The number of largest topics (top-10 setting).

    Returns
    -------
    table : DataFrame
        One row per method, the columns of :data:`F1_COLUMNS`.
    size : tuple
        Training and test documents and categories of the setting.
    """
    rows_train, rows_test, y_train, y_test, _ = make_setting(train, test, setting, categories)
    methods = ["naive Bayes", "Rocchio"] + (["linear SVM"] if setting == "multi_label" else [])
    base = baseline_predictions(_rows(counts, rows_train, rows_test), _rows(weights, rows_train, rows_test), y_train,
                                random_state=options.random_state, methods=methods)
    out = mahalanobis_readings(scores[0][rows_train], y_train, scores[1][rows_test], options, loo=False,
                               desc=f"readings, {setting}")
    rows = {m: prf_scores(y_test, p) for m, p in base.items()}
    summary = summarize_readings(out, y_test)
    rows.update({READINGS[r]: summary.loc[r, F1_COLUMNS].to_dict() for r in out.pred})
    return pd.DataFrame(rows).T[F1_COLUMNS], (len(y_train), len(y_test), y_train.shape[1])


def other_settings(train, test, counts, weights, scores, options: KnnOptions, categories: int = 10,
                   settings=None) -> tuple[dict, dict]:
    """:func:`setting_table` for the top-10 multi-label setting (every reading that applies) and all 90 topics.

    In the 90-topic setting only the readings that need no category covariance run: 14 of
    the 90 topics have one or two training documents.

    Parameters
    ----------
    train, test, counts, weights, scores, categories : as in :func:`setting_table`
    options : KnnOptions
        As in :func:`setting_table`; its ``readings`` are replaced by each setting's.
    settings : dict, optional
        ``{setting: readings}`` (None: every reading that applies); by default the top-10
        multi-label setting with every reading and all 90 topics with Euclidean and class-blind kNN.

    Returns
    -------
    tables : dict
        ``{setting: table}``.
    sizes : dict
        ``{setting: (training documents, test documents, categories)}``.
    """
    tables, sizes = {}, {}
    for setting, readings in (OTHER_SETTINGS if settings is None else settings).items():
        tables[setting], sizes[setting] = setting_table(train, test, setting, counts, weights, scores,
                                                        replace(options, readings=readings), categories)
    return tables, sizes


def settings_note(tables: dict, method: str) -> str:
    """A method's macro and micro F1 in each setting it was run in, as a note.

    Examples
    --------
    >>> settings_note({"all_90": pd.DataFrame({"macro_f1": [0.24], "micro_f1": [0.775]}, index=["naive Bayes"])},
    ...               "naive Bayes")
    'all_90: macro 0.240, micro 0.775'
    """
    return "; ".join(f"{s}: macro {t.loc[method, 'macro_f1']:.3f}, micro {t.loc[method, 'micro_f1']:.3f}"
                     for s, t in tables.items() if method in t.index)


def readings_note(table: pd.DataFrame, reading: str, k: int, others) -> str:
    """The note of Table 2's Mahal-kNN row: the reading that answers it, and the others' macro/micro F1.

    Examples
    --------
    >>> t = pd.DataFrame({"macro_f1": [0.578, 0.277], "micro_f1": [0.668, 0.568]},
    ...                  index=[READINGS["nearest_category"], READINGS["class_blind"]])
    >>> readings_note(t, "nearest_category", 0, ["class_blind"])  # doctest: +NORMALIZE_WHITESPACE
    'the most accurate reading, nearest category (2.4.4); other readings:
     Mahal-kNN, class-blind (Eqs 12-18) 0.277/0.568'
    """
    def scores(r):
        row = table.loc[READINGS[r]]
        return f"{READINGS[r]} {row['macro_f1']:.3f}/{row['micro_f1']:.3f}"

    return (f"the most accurate reading, {READINGS[reading]}" + (f", k = {k}" if k else "") + "; other readings: "
            + ", ".join(scores(r) for r in others if r != reading))


def table2_answers(table: pd.DataFrame, others: dict, reading: str, k: int, readings) -> dict:
    """Our answers to Table 2's rows: macro and micro F1 of each classifier, and the micro-F1 gap of Mahal-kNN.

    Parameters
    ----------
    table : DataFrame
        :func:`single_label_table`'s scores.
    others : dict
        :func:`other_settings`' tables, given in each baseline's note.
    reading : str
        The reading that answers "Mahal-kNN" (the most accurate one); ``k`` its k (0: none).
    readings : iterable of str
        The readings of Mahal-kNN, the others given in its note.

    Returns
    -------
    dict
        ``{key: ([macro F1, micro F1] or the gap, {"note": ...})}`` for the baselines of
        :data:`TABLE2_BASELINES`, ``table2.mahal-knn`` and ``table2.micro-gap``, fractions to
        compare with the printed per cents (``check.numbers(..., percent=True)``).

    Examples
    --------
    >>> names = [*TABLE2_BASELINES.values(), READINGS["pooled"]]
    >>> t = pd.DataFrame({"macro_f1": [0.84, 0.83, 0.77, 0.37], "micro_f1": [0.96, 0.88, 0.81, 0.58]}, index=names)
    >>> answers = table2_answers(t, {}, "pooled", 3, ["pooled"])
    >>> [float(v) for v in answers["table2.rocchio"][0]], round(float(answers["table2.micro-gap"][0]), 2)
    ([0.83, 0.88], -0.23)
    """
    name, euclidean = READINGS[reading], READINGS["euclidean"]
    answers = {key: ([table.loc[m, "macro_f1"], table.loc[m, "micro_f1"]], {"note": settings_note(others, m)})
               for key, m in TABLE2_BASELINES.items()}
    answers["table2.mahal-knn"] = ([table.loc[name, "macro_f1"], table.loc[name, "micro_f1"]],
                                   {"note": readings_note(table, reading, k, readings)})
    answers["table2.micro-gap"] = (table.loc[name, "micro_f1"] - table.loc[euclidean, "micro_f1"],
                                   {"note": "micro F1 of Mahal-kNN minus Euclidean kNN, percentage points "
                                            "(91 - 86 = 5 as printed)"})
    return answers
