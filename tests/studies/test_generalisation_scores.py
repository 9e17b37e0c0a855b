"""The own study's second edition: its methods (against scikit-learn), its tuning, its stored scores."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier, NearestNeighbors
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from helpers.studies.generalisation import load_protocol, protocol_path
from helpers.studies.generalisation.datasets import apply_criteria, cap_rows, dataset_properties_v2
from helpers.studies.generalisation.readings import METHOD_LABELS, column_orders, fit_predict, neighbour_order
from helpers.studies.generalisation.scores import (
    COLUMNS,
    differences,
    fingerprint,
    read_scores,
    recompute_sample,
    run_scores,
    write_scores,
)
from helpers.studies.generalisation.tuning import Grids, grids_from_protocol

X_WINE, Y_WINE = load_wine(return_X_y=True)
SMALL = Grids(k=(1, 3, 5, 9), shrinkage=(1.0, 0.3, 0.0), C=(0.25, 1.0, 4.0), gamma=(0.01, 0.1),
              C_linear=(0.01, 0.1, 1.0), inner_folds=3)


def _split(X, y, seed=0):
    tr, te = next(StratifiedKFold(4, shuffle=True, random_state=seed).split(X, y))
    return X[tr], y[tr], X[te]


def _standardise(a, b):
    scaler = StandardScaler().fit(a)
    return scaler.transform(a), scaler.transform(b)


# --------------------------------------------------------------------------------------------
# the neighbour engine against scikit-learn


@pytest.mark.parametrize("method, metric, prep", [("euclidean", "euclidean", False), ("cosine", "cosine", False),
                                                  ("standardised_euclidean", "euclidean", True)])
def test_plain_neighbours_equal_scikit_learn(method, metric, prep):
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    if prep:
        X_tr_s, X_te_s = _standardise(X_tr, X_te)
    else:
        X_tr_s, X_te_s = X_tr, X_te
    ours = neighbour_order(method, X_tr, y_tr, X_te, 5)
    theirs = NearestNeighbors(n_neighbors=5, metric=metric, algorithm="brute").fit(X_tr_s).kneighbors(X_te_s)[1]
    assert (ours == theirs).mean() > 0.99  # exact ties may be ordered differently


def test_class_blind_mahalanobis_equals_scikit_learns_mahalanobis_metric():
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    Z_tr, Z_te = _standardise(X_tr, X_te)
    VI = np.linalg.inv(np.cov(Z_tr, rowvar=False))
    theirs = NearestNeighbors(n_neighbors=7, metric="mahalanobis", metric_params={"VI": VI},
                              algorithm="brute").fit(Z_tr).kneighbors(Z_te)[1]
    assert (neighbour_order("mahalanobis_class_blind", X_tr, y_tr, X_te, 7, 0.0) == theirs).mean() > 0.99


def test_per_category_distances_use_each_training_rows_own_class_covariance():
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    Z_tr, Z_te = _standardise(X_tr, X_te)
    D = np.empty((len(Z_te), len(Z_tr)))
    for c in np.unique(y_tr):
        VI = np.linalg.inv(np.cov(Z_tr[y_tr == c], rowvar=False))
        diff = Z_te[:, None, :] - Z_tr[None, y_tr == c, :]
        D[:, y_tr == c] = np.einsum("ijk,kl,ijl->ij", diff, VI, diff)
    np.testing.assert_array_equal(neighbour_order("mahalanobis_per_category", X_tr, y_tr, X_te, 4, 0.0),
                                  np.argsort(D, axis=1, kind="stable")[:, :4])


@pytest.mark.parametrize("aware, plain", [("mahalanobis_class_blind", "standardised_euclidean"),
                                          ("mahalanobis_pooled_within", "standardised_euclidean"),
                                          ("expected_cholesky_cosine", "scaled_cosine"),
                                          ("expected_zca_cosine", "scaled_cosine"),
                                          ("pooled_within_cosine", "scaled_cosine")])
def test_shrinkage_one_switches_the_covariance_off(aware, plain):
    """At shrinkage 1 every covariance-aware kNN is its plain counterpart: the grid nests it."""
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    np.testing.assert_array_equal(neighbour_order(aware, X_tr, y_tr, X_te, 6, 1.0),
                                  neighbour_order(plain, X_tr, y_tr, X_te, 6))


def test_the_cholesky_reading_depends_on_the_column_order_and_the_zca_reading_does_not():
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    order = column_orders(X_WINE.shape[1], 2, random_state=3)[1]

    def agree(method):
        a = neighbour_order(method, X_tr, y_tr, X_te, 5, 0.0)
        b = neighbour_order(method, X_tr[:, order], y_tr, X_te[:, order], 5, 0.0)
        return (a == b).mean()

    assert agree("expected_zca_cosine") > 0.99
    assert agree("expected_cholesky_cosine") < 0.95


# --------------------------------------------------------------------------------------------
# tuning against GridSearchCV


def test_tuned_k_equals_grid_search_over_k():
    X, y = load_iris(return_X_y=True)
    X_tr, y_tr, X_te = _split(X, y, seed=1)
    _, chosen, _ = fit_predict("standardised_euclidean", X_tr, y_tr, X_te, SMALL)
    search = GridSearchCV(make_pipeline(StandardScaler(), KNeighborsClassifier()),
                          {"kneighborsclassifier__n_neighbors": list(SMALL.k)},
                          cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(X_tr, y_tr)
    assert chosen == {"k": search.best_params_["kneighborsclassifier__n_neighbors"]}


def test_tuned_linear_svc_equals_grid_search_and_reports_edges():
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    preds, chosen, edges = fit_predict("linear_svc", X_tr, y_tr, X_te, SMALL)
    search = GridSearchCV(make_pipeline(StandardScaler(), SVC(kernel="linear")),
                          {"svc__C": list(SMALL.C_linear)}, cv=StratifiedKFold(3, shuffle=True, random_state=0))
    search.fit(X_tr, y_tr)
    assert chosen == {"C": search.best_params_["svc__C"]}
    assert edges == (["C"] if chosen["C"] in (SMALL.C_linear[0], SMALL.C_linear[-1]) else [])
    np.testing.assert_array_equal(preds[0], search.predict(X_te))


def test_order_dependent_methods_are_scored_on_every_order():
    X_tr, y_tr, X_te = _split(X_WINE, Y_WINE)
    orders = column_orders(X_WINE.shape[1], 3)
    preds, chosen, _ = fit_predict("expected_cholesky_cosine", X_tr, y_tr, X_te, SMALL, orders)
    assert len(preds) == 3 and set(chosen) == {"k", "shrinkage"}
    single, _, _ = fit_predict("expected_cholesky_cosine", X_tr, y_tr, X_te, SMALL, orders[:1])
    np.testing.assert_array_equal(preds[0], single[0])


def test_a_singular_covariance_leaves_its_grid_point_out():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 30))  # 20 rows per class, 30 features: class covariances are singular
    y = np.repeat(["a", "b", "c"], 20)
    X[y == "b"] += 1.0
    _, chosen, _ = fit_predict("mahalanobis_per_category", X[:45], y[:45], X[45:], SMALL)
    assert chosen["shrinkage"] > 0


def test_unknown_method_is_named():
    with pytest.raises(ValueError, match="unknown method 'mahal'"):
        fit_predict("mahal", X_WINE, Y_WINE, X_WINE, SMALL)


def test_the_protocols_grids():
    g = grids_from_protocol(load_protocol())
    assert g.shrinkage == (1.0, 0.9, 0.6, 0.3, 0.1, 0.0)
    assert g.C == tuple(2.0 ** e for e in range(-9, 18, 2))
    assert g.C_linear == tuple(2.0 ** e for e in range(-13, 18, 2))
    assert g.gamma == tuple(2.0 ** e for e in range(-19, 2, 4))
    assert g.k == (1, 3, 5, 7, 9, 11, 15, 21, 31, 45, 63, 91, 127, 181)
    assert g.inner_folds >= 5
    g3 = grids_from_protocol(load_protocol(protocol_path(3)))
    assert g3.C_linear == tuple(2.0 ** e for e in range(-5, 8, 2)) and g3.k[-1] == 31 and not g3.nca_nested


# --------------------------------------------------------------------------------------------
# the data sets


def test_criteria_drop_duplicates_then_small_classes():
    X = np.array([[0.0, 1.0]] * 3 + [[1.0, 1.0]] * 2 + [[2.0, 2.0], [3.0, 3.0]])
    y = np.array(["a", "a", "b", "a", "a", "c", "c"])
    Xc, yc = apply_criteria(X, y, 2)
    assert yc.tolist() == ["a", "a", "c", "c"] and Xc.tolist() == [[0.0, 1.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]


def test_row_cap_is_stratified_and_reproducible():
    y = np.array(["a"] * 900 + ["b"] * 300)
    X = np.arange(2400.0).reshape(1200, 2)
    Xs, ys = cap_rows(X, y, 1000)
    assert len(ys) == 1000 and (ys == "b").sum() == 250
    np.testing.assert_array_equal(Xs, cap_rows(X, y, 1000)[0])


def test_dataset_properties_condition_numbers():
    t = dataset_properties_v2({"wine": (X_WINE, Y_WINE)}, own_data=["wine"])
    Z = StandardScaler().fit_transform(X_WINE)
    assert t.loc["wine", "log10_condition_total"] == pytest.approx(np.log10(np.linalg.cond(np.cov(Z, rowvar=False))))
    assert bool(t.loc["wine", "own_data"]) and t.loc["wine", "n_classes"] == 3


# --------------------------------------------------------------------------------------------
# the score table: resumable, independent of the workers, stored with the protocol's hash


@pytest.fixture(scope="module")
def protocol():
    p = load_protocol()
    p = json.loads(json.dumps(p))
    p["tuning"].update(k=[1, 3, 5], shrinkage=[0.0, 1.0], C_log2=[-1, 1, 2], C_linear_log2=[-1, 1, 2],
                      gamma_log2=[-3, -1, 2])
    p["protocol"].update(repeats=1, inner_folds=3, column_orders=2)
    return p


METHODS = ["euclidean", "mahalanobis_pooled_within", "expected_cholesky_cosine", "linear_svc"]


def test_scores_do_not_depend_on_workers_and_resume_from_parts(protocol, tmp_path, monkeypatch):
    data = {"wine": (X_WINE, Y_WINE)}
    cells = [("wine", 0, 0), ("wine", 0, 5)]
    one = run_scores(data, protocol, METHODS, cells=cells, folder=tmp_path, n_jobs=1, progress=False)
    two = run_scores(data, protocol, METHODS, cells=cells, n_jobs=2, progress=False)
    assert list(one.columns) == COLUMNS and len(one) == 8
    assert differences(one, two).empty
    parts = sorted(p.name for p in tmp_path.rglob("*.csv"))
    assert parts == ["r0-f0.csv", "r0-f5.csv"] and (tmp_path / f"wine-{fingerprint(X_WINE, Y_WINE)}").is_dir()
    assert not list(tmp_path.rglob("*.tmp"))
    import helpers.studies.generalisation.scores as scores

    monkeypatch.setattr(scores, "score_fold", lambda *a, **k: pytest.fail("a stored fold was recomputed"))
    again = run_scores(data, protocol, METHODS, cells=cells, folder=tmp_path, n_jobs=1, progress=False)
    assert differences(one, again).empty


def test_stored_scores_carry_the_protocol_hash(protocol, tmp_path):
    data = {"wine": (X_WINE, Y_WINE)}
    table = run_scores(data, protocol, METHODS[:2], cells=[("wine", 0, 3)], n_jobs=1, progress=False)
    path = write_scores(table, tmp_path / "scores.csv.gz", protocol)
    back = read_scores(path, protocol)
    assert differences(table, back).empty and differences(back, table).empty
    seed, cells, diff = recompute_sample(back, data, protocol, n=1, seed=7, methods=METHODS[:2])
    assert (seed, cells, len(diff)) == (7, [("wine", 0, 3)], 0)
    other = dict(protocol, sha256="0" * 64)
    with pytest.raises(ValueError, match="computed under protocol .* not the present one"):
        read_scores(path, other)
    changed = back.copy()
    changed.loc[0, "accuracy"] = 0.0
    assert len(differences(back, changed)) == 1


def test_a_missing_score_table_says_how_to_make_it(protocol, tmp_path):
    with pytest.raises(FileNotFoundError, match="compute them with"):
        read_scores(tmp_path / "scores.csv.gz", protocol)


def test_every_method_has_a_label():
    assert len(METHOD_LABELS) == 15 and all(isinstance(v, str) and v for v in METHOD_LABELS.values())


def test_differences_flags_a_missing_cell():
    a = pd.DataFrame({c: [0] for c in COLUMNS}).assign(dataset="d", method="m", params="{}", edges="[]")
    b = a.assign(repeat=1)
    assert len(differences(a, b)) == 1


# --------------------------------------------------------------------------------------------
# what the notebook shows


@pytest.mark.integration  # seconds of fitting: the slow tier (make test)
def test_inclusion_summary_meets_the_protocols_minimum():
    from helpers.studies.generalisation import inclusion_summary

    p = load_protocol()
    s = inclusion_summary(p)
    assert s["included"] + 1 >= p["datasets"]["min_sets"]            # Reuters-21578 is the one more
    assert s["wide"] + 1 >= p["datasets"]["min_wide_sets"]
    assert s["candidates"] == s["specified"] + sum(s["judged_out"].values())
    assert s["failed"]["scat"].startswith("fewer than 100 rows")


def test_excluded_sets_refuses_unknown_names_and_too_few_left():
    from helpers.studies.generalisation import excluded_sets

    seven = ["iris", "wine", "a", "b", "c", "d", "e"]
    assert excluded_sets(" iris ,wine, iris", seven) == ["iris", "wine"]
    with pytest.raises(ValueError, match=r"does not have: \['wnie'\]\. 'wnie': did you mean 'wine'\?"):
        excluded_sets("wnie", seven)
    with pytest.raises(ValueError, match=r"leaves 4 data sets; the notebook needs at least 5 .*Exclude at most 2"):
        excluded_sets("iris, wine, a", seven)
    with pytest.raises(TypeError, match="comma-separated"):
        excluded_sets(["iris"], seven)


def test_methods_table_and_short_labels_cover_every_method():
    from helpers.studies.generalisation import SHORT_LABELS, methods_table

    t = methods_table(load_protocol())
    assert list(t.index) == list(METHOD_LABELS) == list(SHORT_LABELS)
    assert t.loc["rbf_svc", "tuned"] == "C (14) and gamma (6)"
    assert t.loc["nca", "tuned"] == "k (14), NCA fitted inside every inner fold"
    assert t.loc["expected_cholesky_svc", "column orders"] == "averaged"


def test_stored_hierarchical_is_none_until_computed_and_refused_under_another_protocol(tmp_path):
    from helpers.studies.generalisation.scores import stored_hierarchical

    p = load_protocol()
    path = tmp_path / "hierarchical.json"
    assert stored_hierarchical(p, path) is None
    record = {"protocol_sha256": p["sha256"], "n_samples": 10, "chains": 1, "seconds": 1.0, "versions": {},
              "comparisons": [{"claim": "c", "reading": "r", "baseline": "b", "primary": True,
                               "posterior": {"0.01": {"better": 0.2, "equivalent": 0.7, "worse": 0.1}}}]}
    path.write_text(json.dumps(record))
    table = stored_hierarchical(p, path)
    assert table.loc[0, "P(equivalent)"] == 0.7 and table.attrs["chains"] == 1
    path.write_text(json.dumps(record | {"protocol_sha256": "0" * 64}))
    with pytest.raises(ValueError, match="another protocol"):
        stored_hierarchical(p, path)


@pytest.mark.integration
def test_a_dask_cluster_gives_the_same_scores(protocol):
    pytest.importorskip("distributed")
    data = {"wine": (X_WINE, Y_WINE)}
    cells = [("wine", 0, 1), ("wine", 0, 2)]
    local = run_scores(data, protocol, METHODS[:2], cells=cells, n_jobs=1, progress=False)
    on_dask = run_scores(data, protocol, METHODS[:2], cells=cells, n_jobs=2, dask="local", progress=False)
    assert len(on_dask) == 4 and differences(local, on_dask).empty
