"""Executing notebooks (``helpers.workbook.execute``): the kernel manager's shutdown and the order
notebooks start in."""

import asyncio
from pathlib import Path

import pytest


def test_kernel_manager_sends_no_interrupt_while_shutting_down():
    """jupyter_client interrupts before every shutdown; ours does not (see ipc_kernel_manager_class)."""

    from helpers.workbook.execute import ipc_kernel_manager_class

    manager = ipc_kernel_manager_class()(kernel_name="python3")
    try:
        with pytest.raises(RuntimeError, match="Cannot interrupt kernel. No kernel is running"):
            asyncio.run(manager._async_interrupt_kernel())  # not shutting down: jupyter_client's own interrupt
        manager.shutting_down = True
        assert asyncio.run(manager._async_interrupt_kernel()) is None  # no signal, no error
    finally:
        asyncio.run(manager._async_cleanup_resources())
    assert not Path(manager.ip).parent.exists()  # the private socket folder is removed


@pytest.mark.parametrize(
    "names, expected",
    [
        (["00_a.ipynb", "05_b.ipynb", "04_c.ipynb"], ["05_b.ipynb", "04_c.ipynb", "00_a.ipynb"]),
        (["02_x.ipynb", "99_new.ipynb", "05_y.ipynb"], ["99_new.ipynb", "05_y.ipynb", "02_x.ipynb"]),
    ],
)
def test_longest_first_follows_the_measured_times(names, expected):
    from helpers.workbook.execute import EXPECTED_SECONDS, longest_first

    assert EXPECTED_SECONDS["06"] > EXPECTED_SECONDS["05"] > EXPECTED_SECONDS["00"] > EXPECTED_SECONDS["03"]
    assert [p.name for p in longest_first(names)] == expected
