"""One way to execute a notebook: papermill on this interpreter's kernel, over ipc sockets.

Used by ``scripts/run_notebooks.py`` (``make run``, ``make notebooks``), by the parameter
sweep and by the tests, so every execution sees the same kernel, transport and options.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

__all__ = ["execute_notebook", "ipc_kernel_manager_class"]


def ipc_kernel_manager_class():
    """An AsyncKernelManager on the ipc transport in a private temp dir: no port races.

    Kernels started by different processes can collide on TCP ports (jupyter_client picks
    free ports before the kernel binds them); Unix-domain sockets in a fresh directory cannot.
    Returns ``None`` on Windows (papermill's default TCP manager is used there).
    """
    if os.name == "nt":  # pragma: no cover - ipc needs Unix sockets
        return None
    from jupyter_client.manager import AsyncKernelManager

    class IPCKernelManager(AsyncKernelManager):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._ipc_dir = tempfile.mkdtemp(prefix="covsim-kernel-")
            self.transport = "ipc"
            self.ip = os.path.join(self._ipc_dir, "k")

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart=restart)
            if not restart:
                shutil.rmtree(self._ipc_dir, ignore_errors=True)

    return IPCKernelManager


def execute_notebook(src, dst, parameters: dict | None = None, cwd=None, timeout: float | None = None):
    """Execute ``src`` into ``dst`` with papermill on the ``python3`` kernel of this interpreter.

    Parameters
    ----------
    src, dst : path-like
        Input and output notebooks (``dst`` is written even when a cell fails).
    parameters : dict, optional
        Values to inject; ``None`` or ``{}`` injects no cell at all.
    cwd : path-like, optional
        Kernel working directory; defaults to the folder of ``src`` (as Jupyter and nbval).
    timeout : float, optional
        Seconds allowed per cell; ``None``: no limit.

    Returns
    -------
    NotebookNode
        The executed notebook.

    Raises
    ------
    papermill.PapermillExecutionError
        A cell raised; other exceptions mean a timeout, a dead kernel or infrastructure.
    """
    import papermill as pm

    src = Path(src)
    manager = ipc_kernel_manager_class()
    return pm.execute_notebook(
        str(src),
        str(dst),
        parameters=parameters or None,
        kernel_name="python3",
        cwd=str(cwd or src.parent),
        progress_bar=False,
        request_save_on_cell_execute=False,
        execution_timeout=timeout,
        log_output=False,
        **({"kernel_manager_class": manager} if manager is not None else {}),
    )
