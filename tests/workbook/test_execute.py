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


def _socket_folder(parent: Path, name: str) -> Path:
    import socket

    folder = parent / name
    folder.mkdir()
    for i in (1, 2):
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(folder / f"k-{i}"))   # a socket file stays after the socket is closed
    return folder


def test_a_killed_runs_kernel_folders_are_removed_when_the_next_kernel_starts(tmp_path, monkeypatch):
    """A sweep killed by SIGKILL or stopped by Ctrl-C left one folder of sockets per kernel in the
    temporary directory (the manager's clean-up never ran): 260 of them after a day of tests."""
    import os
    import subprocess
    import sys
    import tempfile

    from helpers.workbook.execute import KERNEL_PREFIX, ipc_kernel_manager_class, remove_stale_kernel_folders

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    dead_pid = int(dead.stdout)
    stale = _socket_folder(tmp_path, f"{KERNEL_PREFIX}{dead_pid}-abc123")
    alive = _socket_folder(tmp_path, f"{KERNEL_PREFIX}{os.getpid()}-def456")     # a running process's kernel
    kept = _socket_folder(tmp_path, f"{KERNEL_PREFIX}{dead_pid}-ghi789")
    (kept / "notes.txt").write_text("not a socket: not ours to delete")
    older = _socket_folder(tmp_path, f"{KERNEL_PREFIX}zx81qy")                    # no pid in the name
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    manager = ipc_kernel_manager_class()(kernel_name="python3")   # a kernel starts: the stale folder goes
    try:
        assert not stale.exists()
        assert alive.exists() and kept.exists() and older.exists()
        assert Path(manager.ip).parent.name.startswith(f"{KERNEL_PREFIX}{os.getpid()}-")
    finally:
        asyncio.run(manager._async_cleanup_resources())
    assert remove_stale_kernel_folders(tmp_path) == []   # nothing more is stale
