"""helpers.studies.srivastava_rao_2016.table2 and .figures: Table 2 in three settings, Figs 5 and 6."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from helpers.data.reuters import make_setting
from helpers.evaluation import prf_scores
from helpers.significance import mcnemar_exact
from helpers.studies.srivastava_rao_2016 import (
    F1_COLUMNS,
    READINGS,
    TABLE2_BASELINES,
    KnnOptions,
    accuracy_table,
    baseline_predictions,
    error_reduction,
    mahalanobis_readings,
    other_settings,
    readings_note,
    setting_table,
    settings_note,
    single_label_table,
    summarize_readings,
    table2_answers,
    training_size_claims,
    training_size_curve,
)

TOPICS = ["earn", "acq", "grain"]


@pytest.fixture
def corpus(rng):
    """A small ModApte-like corpus: topic lists, term counts, TF-IDF-like weights and 'PCA scores'.

    Every document has one or two of three topics; a topic raises its own block of terms.
    """
    n_train, n_test, n_terms = 60, 30, 12
    topics, counts = [], []
    for i in range(n_train + n_test):
        main = TOPICS[i % 3]
        ts = [main] + (["grain"] if main == "earn" and i % 4 == 0 else [])
        row = rng.poisson(0.3, size=n_terms)
        for t in ts:
            row[TOPICS.index(t) * 4:(TOPICS.index(t) + 1) * 4] += rng.poisson(2.0, size=4)
        topics.append(ts)
        counts.append(row)
    counts = np.array(counts, dtype=float)
    weights = counts / np.linalg.norm(counts, axis=1, keepdims=True)
    scores = weights - weights[:n_train].mean(axis=0)
    train = pd.DataFrame({"topics": topics[:n_train]})
    test = pd.DataFrame({"topics": topics[n_train:]})
    split = lambda a: (a[:n_train], a[n_train:])  # noqa: E731
    return train, test, split(counts), split(weights), split(scores), scores[:n_train].std(axis=0, ddof=1)


def test_single_label_table_scores_the_baselines_and_every_reading(corpus):
    train, test, counts, weights, scores, sd = corpus
    rows_tr, rows_te, y_tr, y_te, classes = make_setting(train, test, "single_label", 3)
    readings = mahalanobis_readings(scores[0][rows_tr], y_tr, scores[1][rows_te], KnnOptions(sd=sd, ks=[3]), loo=False)
    summary = summarize_readings(readings, y_te)
    base, table = single_label_table(counts, weights, (rows_tr, rows_te), y_tr, y_te, classes, summary)
    assert table.index.tolist() == ["naive Bayes", "Rocchio", "linear SVM", *READINGS.values()]
    ref = baseline_predictions((counts[0][rows_tr], counts[1][rows_te]), (weights[0][rows_tr], weights[1][rows_te]),
                               y_tr)
    for name, pred in ref.items():
        np.testing.assert_array_equal(base[name], pred)
        assert table.loc[name].to_dict() == pytest.approx(prf_scores(y_te, pred, classes))
    assert table.loc[READINGS["pooled"], "macro_f1"] == summary.loc["pooled", "macro_f1"]


def test_setting_table_in_the_multi_label_settings(corpus):
    train, test, counts, weights, scores, sd = corpus
    table, size = setting_table(train, test, "multi_label", counts, weights, scores, KnnOptions(sd=sd, ks=[3]),
                                categories=3)
    rows_tr, rows_te, Y_tr, Y_te, _ = make_setting(train, test, "multi_label", 3)
    assert size == (len(rows_tr), len(rows_te), 3)
    assert list(table.columns) == F1_COLUMNS
    assert table.index.tolist() == ["naive Bayes", "Rocchio", "linear SVM", READINGS["euclidean"],
                                    READINGS["class_blind"], READINGS["pooled"], READINGS["nearest_category"]]
    nb = baseline_predictions((counts[0][rows_tr], counts[1][rows_te]), (weights[0][rows_tr], weights[1][rows_te]),
                              Y_tr, methods=["naive Bayes"])["naive Bayes"]
    assert table.loc["naive Bayes", "micro_f1"] == pytest.approx(prf_scores(Y_te, nb)["micro_f1"])
    tables, sizes = other_settings(train, test, counts, weights, scores, KnnOptions(sd=sd, ks=[3]), categories=3)
    assert list(tables) == ["multi_label", "all_90"]
    assert tables["all_90"].index.tolist() == ["naive Bayes", "Rocchio", READINGS["euclidean"],
                                               READINGS["class_blind"]]
    pd.testing.assert_frame_equal(tables["multi_label"], table)
    assert sizes["multi_label"] == size


def test_settings_note():
    tables = {"single_label": pd.DataFrame({"macro_f1": [0.84], "micro_f1": [0.96]}, index=["naive Bayes"]),
              "all_90": pd.DataFrame({"macro_f1": [0.24], "micro_f1": [0.775]}, index=["naive Bayes"])}
    assert settings_note(tables, "naive Bayes") == ("single_label: macro 0.840, micro 0.960; all_90: macro 0.240, "
                                                    "micro 0.775")
    assert settings_note(tables, "Rocchio") == ""


def test_table2_answers_and_the_readings_note():
    names = [*TABLE2_BASELINES.values(), READINGS["nearest_category"], READINGS["pooled"]]
    t = pd.DataFrame({"macro_f1": [0.841, 0.829, 0.773, 0.578, 0.369],
                      "micro_f1": [0.959, 0.884, 0.807, 0.668, 0.581]}, index=names)
    others = {"all_90": pd.DataFrame({"macro_f1": [0.5], "micro_f1": [0.66]}, index=["Rocchio"])}
    answers = table2_answers(t, others, "nearest_category", 0, ["nearest_category", "pooled"])
    assert list(answers) == [*TABLE2_BASELINES, "table2.mahal-knn", "table2.micro-gap"]
    assert answers["table2.rocchio"] == ([0.829, 0.884], {"note": "all_90: macro 0.500, micro 0.660"})
    assert answers["table2.micro-gap"][0] == pytest.approx(0.668 - 0.807)
    assert answers["table2.mahal-knn"][1]["note"] == ("the most accurate reading, nearest category (2.4.4); other "
                                                      "readings: Mahal-kNN, pooled covariance (2.2.2) 0.369/0.581")
    assert readings_note(t, "pooled", 3, ["pooled"]) == ("the most accurate reading, Mahal-kNN, pooled covariance "
                                                         "(2.2.2), k = 3; other readings: ")


# ---------------------------------------------------------------------------- Figs 5 and 6

def test_accuracy_table_and_error_reduction():
    curve = pd.DataFrame({"training documents": [10, 10, 10, 20, 20, 20],
                          "reading": ["weighted", "euclidean", "pooled"] * 2,
                          "accuracy": [0.5, 0.6, 0.7, 0.6, 0.8, 0.9]})
    acc = accuracy_table(curve)
    assert acc.columns.tolist() == ["euclidean", "pooled", "weighted"]  # the order of READINGS
    red = error_reduction(acc)
    assert red.columns.tolist() == ["pooled", "weighted"]
    np.testing.assert_allclose(red["pooled"], [0.25, 0.5])      # (0.4 - 0.3) / 0.4, (0.2 - 0.1) / 0.2
    np.testing.assert_allclose(red["weighted"], [-0.25, -1.0])


def test_training_size_claims(rng):
    y = np.tile(np.array(TOPICS), 60)
    Z = rng.normal(size=(180, 4)) + 0.8 * (y[:, None] == np.array(TOPICS + ["none"]))  # overlapping topics
    y_tr, y_te, Z_tr, Z_te = y[:120], y[120:], Z[:120], Z[120:]
    options = KnnOptions(sd=Z_tr.std(axis=0, ddof=1), ks=[1, 3, 5], readings=["euclidean", "pooled", "class_blind"])
    curve, preds = training_size_curve(Z_tr, y_tr, Z_te, y_te, [0.25, 0.5, 0.75, 1.0], options)
    claims, (top, options) = training_size_claims(curve, preds, y_te, "class_blind", n_resamples=199)
    acc = accuracy_table(curve)
    sizes = acc.index.to_numpy()
    fraction = dict(zip(curve["training documents"], curve["fraction"]))
    rising = claims["fig5.increasing"]["comparisons"]
    assert list(rising) == [READINGS["euclidean"], READINGS["class_blind"]]
    for r in ("euclidean", "class_blind"):
        e = rising[READINGS[r]]
        assert e["effect"] == pytest.approx(stats.spearmanr(sizes, acc[r])[0])
        assert e["values"] == pytest.approx(acc[r].tolist())
        assert e["interval"][0] <= e["effect"] <= e["interval"][1]
    gaps = claims["fig5.mahal-above"]["comparisons"]
    assert list(gaps) == [f"{n:,} training documents" for n in sizes]
    for n in sizes:
        pair = (preds[(fraction[n], "class_blind")], preds[(fraction[n], "euclidean")])
        assert gaps[f"{n:,} training documents"]["effect"] == pytest.approx(acc.loc[n, "class_blind"]
                                                                            - acc.loc[n, "euclidean"])
        b, c, _ = mcnemar_exact(y_te, *pair)
        assert f"{n:,} {acc.loc[n, 'class_blind'] - acc.loc[n, 'euclidean']:+.3f} ({b} vs {c} documents)" in \
            claims["fig5.mahal-above"]["evidence"]
    red = error_reduction(acc)["class_blind"]
    fig6 = claims["fig6.increasing"]["effect"]
    assert fig6["effect"] == pytest.approx(stats.spearmanr(sizes, red)[0])
    assert fig6["values"] == pytest.approx(red.tolist())
    assert top == pytest.approx(red.max())
    assert options["note"].startswith("Mahal-kNN, class-blind (Eqs 12-18); the highest of any reading at any size")
