import numpy as np
import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.load_profile("ci")


@pytest.fixture
def rng():
    return np.random.default_rng(20250202)


def random_spd(rng, p, condition=100.0):
    """A random SPD matrix with the given condition number."""
    Q, _ = np.linalg.qr(rng.normal(size=(p, p)))
    vals = np.geomspace(1.0, condition, p)
    return (Q * vals) @ Q.T
