"""Shared fixtures, the hypothesis profile, and the order of a `make test` run.

Two tiers: tests marked ``integration`` (notebook execution in sweeps, Dask, Ctrl-C and kill
injection, JupyterLab in a browser, the full Reuters corpus) run in ``make test`` only;
``make unit`` leaves them out (``-m "not integration"``).
"""

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

# The package and scikit-learn are imported where they are used: pytest-xdist's controller loads
# this file too, before any worker starts, and needs none of them.

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.load_profile("ci")

# Rough cost of one integration test, in seconds: enough to rank the files that hold them
# among the notebooks (whose costs come from EXPECTED_SECONDS); unit tests count as free.
INTEGRATION_TEST_SECONDS = 10


def _file_cost(path, items) -> float:
    from helpers.workbook.execute import EXPECTED_SECONDS

    if path.suffix == ".ipynb":
        return EXPECTED_SECONDS.get(path.name[:2], max(EXPECTED_SECONDS.values()) + 1)
    return INTEGRATION_TEST_SECONDS * sum(item.get_closest_marker("integration") is not None for item in items)


def pytest_collection_modifyitems(config, items):
    """The most expensive files first, each file's tests kept together and in their order.

    ``make test`` hands whole files (a notebook's cells must run in one kernel) to two
    pytest-xdist workers in this order (``--dist loadfile --no-loadscope-reorder``): the
    longest notebook starts at once and short files fill the gaps at the end. Serial runs
    only see notebooks and slow files earlier.
    """
    by_file: dict = {}
    for item in items:
        by_file.setdefault(item.path, []).append(item)
    cost = {path: _file_cost(path, file_items) for path, file_items in by_file.items()}
    items.sort(key=lambda item: -cost[item.path])  # stable: a file's items stay together, in order


@pytest.fixture
def rng():
    return np.random.default_rng(20250202)


# The browser tests (JupyterLab, the book) drive Debian's Chromium through Playwright's
# executable_path: Playwright's own browser download is not reachable from here.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic"]


@pytest.fixture(scope="module")
def chromium():
    """A headless Debian Chromium for a module's tests (skipped where Playwright or Chromium is absent)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def iris():
    from sklearn.datasets import load_iris

    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def wine():
    from sklearn.datasets import load_wine

    return load_wine(return_X_y=True)


@pytest.fixture(autouse=True)
def _signal_handlers_are_restored():
    """Every test leaves SIGINT and SIGTERM as it found them.

    A handler left behind (say, Ctrl-C ignored by code that stops a sweep) is inherited by every
    process a later test starts: a child started with SIGINT ignored never sees Ctrl-C, and the
    tests that send it one would hang until their timeout, far from the test that caused it.
    """
    import signal

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    after = {sig: signal.getsignal(sig) for sig in before}
    for sig, handler in before.items():
        signal.signal(sig, handler)
    changed = {sig.name: (before[sig], after[sig]) for sig in before if after[sig] != before[sig]}
    assert not changed, f"the test left signal handlers changed (before, after): {changed}"
