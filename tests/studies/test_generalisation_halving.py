"""Edition 3 of the own study: the SVCs' grids searched by successive halving, all else as in edition 2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import load_wine, make_classification
from sklearn.model_selection import StratifiedKFold

from helpers.studies.generalisation import svcs
from helpers.studies.generalisation.preregistration import EDITION, EDITIONS, load_protocol, protocol_path
from helpers.studies.generalisation.readings import fit_predict
from helpers.studies.generalisation.scores import scores_path
from helpers.studies.generalisation.svcs import halving_schedule
from helpers.studies.generalisation.tuning import Grids, grids_from_protocol

GRID = Grids(k=(1, 3), shrinkage=(1.0, 0.3, 0.0), C=(0.25, 1.0, 4.0), gamma=(0.01, 0.1), C_linear=(0.01, 0.1, 1.0),
             inner_folds=3)
HALVING = Grids(**{**GRID.__dict__, "svc_search": "halving"})


@given(n_candidates=st.integers(1, 300), n_rows=st.integers(30, 50_000), n_classes=st.integers(2, 30),
       factor=st.integers(2, 5), per_class=st.integers(1, 20))
def test_the_schedule_ends_on_every_row_and_keeps_one_in_factor(n_candidates, n_rows, n_classes, factor, per_class):
    schedule = halving_schedule(n_candidates, n_rows, n_classes, factor, per_class)
    rows, counts = [r for r, _ in schedule], [c for _, c in schedule]
    assert rows[-1] == n_rows and counts[0] == n_candidates
    assert all(a < b for a, b in zip(rows, rows[1:]))
    assert all(b == -(-a // factor) for a, b in zip(counts, counts[1:]))
    smallest = max(per_class * n_classes, 30)
    if len(schedule) > 1:
        assert rows[0] >= smallest
    # stopped because one candidate is left to choose, or because another round would start too small
    assert counts[-1] <= factor or n_rows / factor ** len(schedule) < smallest


def test_the_protocols_of_both_editions_differ_only_in_the_svc_search():
    v2, v3 = load_protocol(protocol_path(2)), load_protocol(protocol_path(3))
    assert (v2["study"]["edition"], v3["study"]["edition"], EDITION, EDITIONS) == (2, 3, 5, (2, 3, 4, 5))
    assert grids_from_protocol(v2).svc_search == "grid" and grids_from_protocol(v3).svc_search == "halving"
    assert (grids_from_protocol(v3).halving_factor, grids_from_protocol(v3).halving_min_rows_per_class) == (3, 10)
    assert v3["study"]["changes"][:-1] == v2["study"]["changes"]

    def rest(p):
        tuning = {k: v for k, v in p["tuning"].items() if k not in ("svc_search", "svc_halving")}
        return {k: v for k, v in p.items() if k not in ("study", "sha256")} | {"tuning": tuning}

    assert rest(v2) == rest(v3)
    assert scores_path(2).parent.name == "generalisation_v2" and scores_path(3).parent.name == "generalisation_v3"
    assert scores_path().parent.name == "generalisation_v5"


@pytest.mark.parametrize("function", [protocol_path, scores_path])
def test_an_edition_not_kept_is_refused(function):
    with pytest.raises(ValueError, match=r"edition must be one of \(2, 3, 4, 5\) \(the editions kept and those in "
                                         r"progress\), not 1"):
        function(1)


@pytest.mark.parametrize("method", ["linear_svc", "rbf_svc", "expected_zca_svc"])
def test_with_too_few_rows_to_halve_halving_is_the_full_grid(method):
    X, y = load_wine(return_X_y=True)   # ~89 inner training rows of 3 classes: a first round would have < 30
    tr, te = next(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    grid = fit_predict(method, X[tr], y[tr], X[te], GRID)
    halving = fit_predict(method, X[tr], y[tr], X[te], HALVING)
    assert grid[1:] == halving[1:]
    np.testing.assert_array_equal(grid[0][0], halving[0][0])


def test_halving_scores_every_point_on_subsamples_then_the_best_third_on_every_row(monkeypatch):
    X, y = make_classification(600, 6, n_informative=4, random_state=0)
    tr, te = next(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    fits = []
    fit = svcs._fit_svc

    def recording(kernel, C, gamma, X_tr, y_tr, grids):
        fits.append((C, gamma, len(y_tr)))
        return fit(kernel, C, gamma, X_tr, y_tr, grids)

    monkeypatch.setattr(svcs, "_fit_svc", recording)
    _, chosen, _ = fit_predict("rbf_svc", X[tr], y[tr], X[te], HALVING)
    # 450 outer training rows, inner folds of 300: 6 points on 100 rows, the best 2 on 300, then the final fit
    assert halving_schedule(6, 300, 2) == [(100, 6), (300, 2)]
    first, second, final = fits[:18], fits[18:24], fits[24:]
    assert {n for *_, n in first} == {100} and len({(C, g) for C, g, _ in first}) == 6
    assert {n for *_, n in second} == {300} and len({(C, g) for C, g, _ in second}) == 2
    assert final == [(chosen["C"], chosen["gamma"], 450)]
    assert (chosen["C"], chosen["gamma"]) in {(C, g) for C, g, _ in second}


def test_a_halving_tuning_is_reproducible():
    X, y = make_classification(500, 8, n_informative=5, n_classes=3, random_state=1)
    tr, te = next(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    a = fit_predict("expected_cholesky_svc", X[tr], y[tr], X[te], HALVING)
    b = fit_predict("expected_cholesky_svc", X[tr], y[tr], X[te], HALVING)
    assert a[1:] == b[1:]
    np.testing.assert_array_equal(a[0][0], b[0][0])


def test_editions_are_compared_on_the_same_folds_only():
    from helpers.studies.generalisation._examples import example_scores
    from helpers.studies.generalisation.report import edition_comparison

    before = example_scores()
    t = edition_comparison(before, before)
    assert (t["same choice"] == 1).all() and (t["sets that moved"] == 0).all() and (t["mean difference"] == 0).all()
    with pytest.raises(ValueError, match=r"do not hold the same \(data set, repeat, fold, method\) cells"):
        edition_comparison(before.iloc[1:], before)
