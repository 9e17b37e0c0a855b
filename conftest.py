"""Pytest settings for the whole repository: the doctests of ``helpers`` and the tests alike.

Many examples draw a figure; every figure is closed after its test, so that none accumulate
(matplotlib warns beyond twenty open figures).
"""

import sys

import pytest


@pytest.fixture(autouse=True)
def close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
