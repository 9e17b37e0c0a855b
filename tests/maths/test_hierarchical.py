"""The hierarchical Bayesian model (:mod:`helpers.hierarchical`): seeded, no file left behind, clear refusals."""

import sys
import types

import numpy as np
import pytest

from helpers.hierarchical import hierarchical_test
from tests.support import assert_hierarchical_answer

RNG = np.random.default_rng(0)
X = RNG.uniform(0.7, 0.9, size=(8, 10))
Y = X + 0.05 + RNG.normal(0, 0.01, size=X.shape)


def test_without_stan_it_says_how_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_stan(name, *args, **kwargs):
        if name == "stan":
            raise ImportError("No module named 'stan'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_stan)
    with pytest.raises(ImportError, match=r"needs pystan >= 3.4.*pip install pystan"):
        hierarchical_test(X, Y, 0.01)


@pytest.fixture
def fake_stan(monkeypatch):
    """Stan and baycomp's sampler replaced: the calls are recorded, the posterior fixed."""
    import baycomp

    calls = []
    stan = types.ModuleType("stan")
    stan.build = lambda *args, **kwargs: calls.append(("build", kwargs))
    monkeypatch.setitem(sys.modules, "stan", stan)

    def sample(x, y, rope, **kwargs):
        calls.append(("sample", {"x": x, "y": y, **kwargs}))
        return np.array([[0.1, 0.2, 0.7]] * 4)

    monkeypatch.setattr(baycomp.HierarchicalTest, "sample", staticmethod(sample))
    return calls


def test_stan_and_baycomps_noise_are_seeded(fake_stan):
    # baycomp replaces the fold differences of a data set whose differences are all equal by
    # random noise of its own RandomState: unseeded, two runs on the same scores differed
    p = hierarchical_test(X, Y, 0.01, runs=2, n_samples=100, random_state=7)
    assert p == {"better": 1.0, "equivalent": 0.0, "worse": 0.0,   # a scalar ROPE: one posterior
                 "predictive_better": pytest.approx(0.7), "predictive_equivalent": pytest.approx(0.2),
                 "predictive_worse": pytest.approx(0.1)}   # no Stan fit here: no diagnostics
    (kwargs,) = [kw for name, kw in fake_stan if name == "sample"]
    assert kwargs["random_state"] == 7 and kwargs["runs"] == 2 and kwargs["nsamples"] == 100
    np.testing.assert_array_equal(kwargs["y"], Y)


def test_several_ropes_give_one_posterior_each(fake_stan):
    p = hierarchical_test(X, Y, [0.01, 0.05], n_samples=100)
    assert list(p) == [0.01, 0.05] and p[0.05]["predictive_better"] == pytest.approx(0.7)


@pytest.mark.parametrize("x, y, words", [
    (X[:1], Y[:1], "at least two data sets; 1 given"),
    (X, Y[:, :5], r"the same shape \(data sets, folds\); got \(8, 10\) and \(8, 5\)"),
    (X[0], Y[0], r"the same shape \(data sets, folds\)"),
    (np.where(X > 0.8, np.nan, X), Y, "must be finite scores"),
], ids=["one-data-set", "other-folds", "one-dimensional", "missing-scores"])
def test_scores_it_cannot_model_are_refused(fake_stan, x, y, words):
    with pytest.raises(ValueError, match=words):
        hierarchical_test(x, y, 0.01)


@pytest.mark.parametrize("option, value", [("rope", 0), ("runs", 0), ("n_samples", 10), ("chains", 0),
                                           ("random_state", -1)])
def test_bad_settings_are_refused(fake_stan, option, value):
    settings = {"rope": 0.01, option: value}
    with pytest.raises(ValueError, match=option):
        hierarchical_test(X, Y, **settings)


@pytest.mark.integration
def test_a_built_in_advantage_is_found_reproducibly_and_no_file_is_left(tmp_path, monkeypatch):
    pytest.importorskip("stan")
    monkeypatch.chdir(tmp_path)
    p = hierarchical_test(X, Y, [0.01, 0.1], n_samples=500)
    assert_hierarchical_answer(p, 0.01, 0.1, again=hierarchical_test(X, Y, 0.01, n_samples=500))
    assert list(tmp_path.iterdir()) == []                             # baycomp's cache file left nowhere
