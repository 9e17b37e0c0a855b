"""The edge probe: one grid step beyond every SVC tuning on an edge, and whether the end bound it."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

from helpers.studies.generalisation.edge_probe import (
    PROBE_COLUMNS,
    _beyond,
    edge_summary,
    edge_tunings,
    probe_edges,
    read_probe,
    steps_beyond,
    write_probe,
)
from helpers.studies.generalisation.evidence import grid_edges
from helpers.studies.generalisation.preregistration import load_protocol, protocol_path
from helpers.studies.generalisation.scores import outer_folds, read_scores, scores_path
from helpers.studies.generalisation.svcs import SVCS, svc_scores, tune_svc
from helpers.studies.generalisation.tuning import grids_from_protocol, inner_folds


@pytest.fixture(scope="module")
def protocol():
    return load_protocol(protocol_path(4))


def test_one_step_beyond_each_end_of_a_geometric_grid():
    grid = tuple(2.0 ** e for e in range(-13, 18, 2))
    assert _beyond(grid, 2.0 ** -13) == ("low", 2.0 ** -15)
    assert _beyond(grid, 2.0 ** 17) == ("high", 2.0 ** 19)
    with pytest.raises(ValueError, match="not an end"):
        _beyond(grid, 1.0 / 2)


def _small_protocol(protocol, C_linear_log2):
    """The edition's protocol with a short linear C grid and a grid search (every point on every inner fold)."""
    p = copy.deepcopy(protocol)
    p["tuning"]["C_linear_log2"] = C_linear_log2
    p["tuning"]["svc_search"] = "grid"
    p["protocol"]["column_orders"] = 2
    return p


@pytest.mark.parametrize("C_linear_log2", [[-13, -11, 2], [-9, -7, 2], [-5, -3, 2]])
def test_the_probe_says_exactly_whether_a_wider_grid_would_have_chosen_beyond_the_end(protocol, C_linear_log2):
    """At the high end: bound if and only if the grid one step wider chooses the point beyond (ties go to
    the smaller C); at the low end, where ties go to the new point, the inner scores decide it as stated."""
    X, y = make_classification(120, 6, n_informative=3, flip_y=0.2, random_state=3)
    p = _small_protocol(protocol, C_linear_log2)
    grids = grids_from_protocol(p)
    repeat, fold, train, _ = outer_folds(y, p)[0]
    chosen, edges = tune_svc("linear_svc", X[train], y[train], grids)
    assert edges == ["C"]   # a two-point grid: whatever it chooses is an end
    stored = pd.DataFrame([{"dataset": "toy", "repeat": repeat, "fold": fold, "method": "linear_svc",
                            "params": json.dumps(chosen), "edges": json.dumps(edges)}])
    probe = probe_edges(stored, {"toy": (X, y)}, p)
    assert list(probe.columns) == PROBE_COLUMNS and len(probe) == 1
    row = probe.iloc[0]
    inner = svc_scores("linear_svc", X[train], y[train], inner_folds(y[train], grids),
                       [(None, C, None) for C in grids.C_linear], grids)
    assert row["inner_chosen"] == max(inner.values())     # the chosen point's score is the search's best
    lo, hi = C_linear_log2[0], C_linear_log2[1]
    wider = replace(grids, C_linear=tuple(2.0 ** e for e in range(lo - 2, hi + 3, 2)))
    again, _ = tune_svc("linear_svc", X[train], y[train], wider)
    if row["end"] == "high":
        assert row["bound"] == (again["C"] > chosen["C"])
    assert row["bound"] == (row["inner_beyond"] > row["inner_chosen"])


def test_the_summary_counts_the_probed_tunings_and_refuses_a_probe_that_misses_some():
    scores = pd.DataFrame({"method": ["rbf_svc"] * 4, "params": ['{"C": 4.0, "gamma": 1.0}'] * 4,
                           "edges": ['["C"]', '["C", "gamma"]', "[]", "[]"],
                           "dataset": "d", "repeat": 0, "fold": [0, 1, 2, 3]})
    probe = pd.DataFrame({"method": "rbf_svc", "parameter": ["C", "C", "gamma"], "bound": [True, False, False]})
    summary = edge_summary(scores, probe)
    c = summary.loc[("rbf_svc", "C")]
    assert (c["fits"], c["on_edge"], c["probed"], c["bound"], c["bound_share"]) == (4, 2, 2, 1, 0.25)
    assert summary.loc[("rbf_svc", "gamma"), "bound_share"] == 0.0
    with pytest.raises(ValueError, match="does not cover every tuning"):
        edge_summary(scores, probe.iloc[:2])


def test_the_tunings_on_an_edge_are_read_from_the_stored_edges():
    scores = pd.DataFrame({"dataset": "d", "repeat": 0, "fold": [0, 1], "method": ["linear_svc", "euclidean"],
                           "params": ['{"C": 1.0}', '{"k": 181}'], "edges": ['["C"]', '["k"]']})
    tunings = edge_tunings(scores)
    assert tunings[["method", "parameter"]].values.tolist() == [["linear_svc", "C"]]   # kNN k is not an SVC's


def test_the_probe_is_stored_with_its_protocol_and_refused_under_another(tmp_path, protocol):
    probe = pd.DataFrame([{"dataset": "d", "repeat": 0, "fold": 1, "method": "linear_svc", "parameter": "C",
                           "end": "low", "chosen": 2.0 ** -13, "beyond": 2.0 ** -15, "inner_chosen": 0.5,
                           "inner_beyond": 0.5, "bound": False}])
    path = write_probe(probe, tmp_path / "edge_probe.csv", protocol, seconds=1.0)
    back = read_probe(path, protocol)
    pd.testing.assert_frame_equal(back, probe, check_dtype=False)
    other = {**protocol, "sha256": "0" * 64}
    with pytest.raises(ValueError, match="under protocol .* recompute it"):
        read_probe(path, other)
    path.write_text(path.read_text().splitlines()[0] + "\n")     # the rows cut off
    with pytest.raises(ValueError, match="not a complete edge probe"):
        read_probe(path, protocol)
    with pytest.raises(FileNotFoundError, match="python -m helpers.workbook study edges"):
        read_probe(tmp_path / "missing.csv", protocol)


@pytest.mark.integration
def test_a_sample_of_the_stored_probe_recomputes_identically(protocol):
    from helpers.studies.generalisation.datasets import study_datasets
    from helpers.studies.generalisation.edge_probe import probe_path

    stored = read_probe(probe_path(scores_path(4)), protocol)
    scores = read_scores(scores_path(4), protocol)
    fast = ["skulls", "caterpillars", "holzinger"]   # sets whose probe takes a second or two
    sample = stored[stored["dataset"].isin(fast)].reset_index(drop=True)
    assert len(sample) >= 10
    datasets, _ = study_datasets(protocol, names=fast)
    fresh = probe_edges(scores[scores["dataset"].isin(fast)], datasets, protocol)
    pd.testing.assert_frame_equal(fresh.reset_index(drop=True), sample, check_dtype=False, rtol=0, atol=1e-9)
    assert np.isfinite(sample[["inner_chosen", "inner_beyond"]].to_numpy()).all()


def test_the_fifth_edition_went_beyond_its_grids_at_most_its_extension_and_the_fourth_never():
    """steps_beyond agrees with the chosen values counted independently (grid_edges' value counts)."""
    for edition, most in ((5, 3), (4, 0)):
        protocol = load_protocol(protocol_path(edition))
        scores = read_scores(scores_path(edition), protocol)
        table = steps_beyond(scores, protocol)
        steps = [c for c in table.columns if "step" in c]
        assert (table["beyond"] == table["below"] + table["above"]).all()
        assert (table["beyond"] == table[steps].sum(axis=1)).all()
        grids = grids_from_protocol(protocol)
        for (method, parameter), row in grid_edges(scores[scores["method"].isin(SVCS)]).iterrows():
            if parameter not in ("C", "gamma"):
                continue
            grid = grids.gamma if parameter == "gamma" else grids.C if method == "rbf_svc" else grids.C_linear
            outside = {v: n for v, n in row["values"].items() if not grid[0] <= v <= grid[-1]}
            assert table.loc[(method, parameter), "beyond"] == sum(outside.values())
            step = grid[1] / grid[0]
            assert all(v in {grid[0] / step ** i for i in range(1, most + 1)} | {grid[-1] * step ** i
                                                                                  for i in range(1, most + 1)}
                       for v in outside)
        assert table["beyond"].sum() == (25 if edition == 5 else 0)
