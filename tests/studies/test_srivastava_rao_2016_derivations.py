"""helpers.studies.srivastava_rao_2016.derivations: Figs. 2-3 constructed, Eqs. 6-18 and the ellipsoid axes."""

import numpy as np
import pytest
from scipy import stats

from helpers.studies.srivastava_rao_2016 import derivations as mk


def test_fig2_covariance_puts_each_star_on_its_stated_ellipse():
    sigma = mk.fig2_covariance([5.0, 0.0], 0.75, [0.0, 1.0], 0.90)
    np.testing.assert_allclose(np.diag(sigma), [25 / (2 * np.log(4)), 1 / (2 * np.log(10))], rtol=1e-12)
    table = mk.fig2_table({"(5,0)": np.array([5.0, 0.0]), "(0,1)": np.array([0.0, 1.0])}, sigma)
    np.testing.assert_allclose(table["level chi2.cdf(d^2, 2)"], [0.75, 0.90], atol=1e-12)
    np.testing.assert_allclose(table["Euclidean distance"], [5.0, 1.0])
    # the density of N(0, diag(a, b)) by hand
    a, b = np.diag(sigma)
    by_hand = np.exp(-0.5 * (25 / a)) / (2 * np.pi * np.sqrt(a * b))
    assert table.loc["(5,0)", "density"] == pytest.approx(by_hand, rel=1e-12)


def test_fig3_points_are_equally_far_but_not_equally_typical():
    f = mk.fig3_construction(np.random.default_rng(0), 0.9, 300, 2.0)
    assert f.cluster.shape == (300, 2)
    np.testing.assert_allclose(f.table["Euclidean"], [2.0, 2.0], rtol=1e-12)
    VI = np.linalg.inv(np.cov(f.cluster, rowvar=False))
    for name, x in f.tests.items():
        assert f.table.loc[name, "Mahalanobis"] == pytest.approx(np.sqrt((x - f.mean) @ VI @ (x - f.mean)))
    d1, d2 = f.table["Mahalanobis"]
    # along the long axis: radius / sqrt(lambda_max); across: radius / sqrt(lambda_min)
    lam = np.linalg.eigvalsh(f.cov)
    assert (d1, d2) == pytest.approx((2 / np.sqrt(lam[1]), 2 / np.sqrt(lam[0])))
    assert f.table.iloc[1, 2] == 0.0 < f.table.iloc[0, 2]


def test_eqs_6_to_18_hold_on_a_sample(rng):
    data = rng.normal(size=(80, 4)) @ rng.normal(size=(4, 4))
    S, mu = np.cov(data, rowvar=False), data.mean(0)
    table = mk.eqs_6_to_18({"sample": (data, S, mu), "random SPD": (data, S, mu)})
    assert (table.loc["sample"] < 1e-10).all()
    assert np.isnan(table.loc["random SPD", "Eq. 10 (n - 1) vs np.cov"])
    assert table.shape == (2, 8)


def test_ellipsoid_axes_are_the_eigenvectors():
    out = mk.ellipsoid_axes(np.array([[4.0, 1.0], [1.0, 2.0]]), 5000)
    lam = np.linalg.eigvalsh([[4.0, 1.0], [1.0, 2.0]])
    assert out["ok"] and (out["longest"], out["shortest"]) == pytest.approx((np.sqrt(lam[1]), np.sqrt(lam[0])))
    np.testing.assert_allclose(out["axis_distances"], 1.0)
    assert out["shortest"] <= out["radius_min"] <= out["radius_max"] <= out["longest"]
    assert stats.chi2.cdf(1.0, 2) < 0.5                                  # distance 1 is inside the 50% ellipse
