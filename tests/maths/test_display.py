"""Printing a number that may be rounding noise (``helpers.display``)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.display import rounding_level


@pytest.mark.parametrize(("value", "bound", "kwargs", "shown"), [
    (0.0, 1e-12, {}, "< 1e-12"),
    (4.4e-16, 1e-12, {}, "< 1e-12"),
    (-9.9e-13, 1e-12, {}, "< 1e-12"),            # the size counts, not the sign
    (1e-12, 1e-12, {}, "1.00e-12"),              # at the bound: shown in full
    (3.2e-3, 1e-12, {"fmt": ".1e"}, "3.2e-03"),
    (0.1412, 1e-10, {"fmt": ".2f"}, "0.14"),
    (np.float32(2e-8), 1e-6, {}, "< 1e-06"),
    (0.02, 1e-6, {"flag_above": True}, "2.00e-02  (ABOVE the bound)"),
    (float("nan"), 1e-12, {}, "nan"),            # never "< bound": a NaN is no rounding noise
    (float("inf"), 1e-12, {}, "inf"),
])
def test_rounding_level_shows_noise_as_a_bound_and_the_rest_in_full(value, bound, kwargs, shown):
    assert rounding_level(value, bound, **kwargs) == shown


@given(st.floats(min_value=-1e-13, max_value=1e-13, allow_nan=False))
def test_every_value_below_the_bound_prints_the_same(value):
    assert rounding_level(value, 1e-12) == "< 1e-12"


@pytest.mark.parametrize("bound", [0, -1e-12, float("nan"), float("inf")])
def test_a_bound_that_is_not_a_positive_size_is_refused(bound):
    with pytest.raises(ValueError, match=r"bound must be a positive finite number.*got"):
        rounding_level(1e-3, bound)
