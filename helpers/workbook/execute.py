"""One way to execute a notebook: papermill on this interpreter's kernel, over ipc sockets.

Used by :mod:`helpers.workbook.run` (``make run``, ``make notebooks``), by the parameter
sweep and by the tests, so every execution sees the same kernel, transport and options.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from .._validation import is_whole_seconds
from ..studies import NOTEBOOKS

__all__ = [
    "EXPECTED_SECONDS",
    "describe_failure",
    "execute_for_run",
    "execute_notebook",
    "ipc_kernel_manager_class",
    "longest_first",
    "remove_stale_kernel_folders",
]

KERNEL_PREFIX = "covsim-kernel-"   # + the pid of the process that started the kernel + "-" + a random part

# Seconds each notebook takes on its own, keyed by its two-digit prefix: the manifest's
# (helpers.studies.NOTEBOOKS). Only the order matters: two at a time, the longest first, no
# worker is left running a long notebook that started last.
EXPECTED_SECONDS = {number: entry.seconds for number, entry in NOTEBOOKS.items()}


def longest_first(paths) -> list[Path]:
    """Notebook paths sorted by :data:`EXPECTED_SECONDS`, the slowest first.

    A notebook not in the table (a new one, of unknown cost) goes first, so that its time
    is not added at the end; ties keep the order given.

    Examples
    --------
    >>> [p.name for p in longest_first([Path("00_a.ipynb"), Path("06_b.ipynb"), Path("09_new.ipynb")])]
    ['09_new.ipynb', '06_b.ipynb', '00_a.ipynb']
    """
    unknown = max(EXPECTED_SECONDS.values()) + 1
    return sorted(map(Path, paths), key=lambda p: -EXPECTED_SECONDS.get(p.name[:2], unknown))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale_kernel_folders(folder=None) -> list[Path]:
    """Remove the socket folders of kernels started by a process that no longer runs; return them.

    A sweep stopped by Ctrl-C, SIGTERM or SIGKILL takes its kernels with it, but not their
    folders of Unix sockets in the temporary directory (the manager's clean-up never runs). Each
    folder carries the pid of the process that made it; a folder whose process is gone, and
    which holds nothing but sockets, is removed the next time a kernel starts. Nothing else is
    touched: a folder of a running process, or one holding anything but sockets, is kept.

    Examples
    --------
    >>> import tempfile
    >>> remove_stale_kernel_folders(tempfile.mkdtemp())
    []
    """
    removed = []
    for path in Path(folder or tempfile.gettempdir()).glob(KERNEL_PREFIX + "*-*"):
        pid = path.name[len(KERNEL_PREFIX):].split("-")[0]
        try:
            stale = (pid.isdigit() and not _running(int(pid)) and path.is_dir() and not path.is_symlink()
                     and all(f.is_socket() for f in path.iterdir()))
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if stale:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def ipc_kernel_manager_class():
    """An AsyncKernelManager on the ipc transport in a private temp dir: no port races.

    Kernels started by different processes can collide on TCP ports (jupyter_client picks
    free ports before the kernel binds them); Unix-domain sockets in a fresh directory cannot.
    The directory is removed when the kernel shuts down; one left by a process that was killed
    is removed when the next kernel starts (:func:`remove_stale_kernel_folders`).

    It also skips the SIGINT that jupyter_client sends before every shutdown. papermill shuts
    the kernel down right after the reply to its last ``kernel_info_request``; the signal
    could land while the kernel was still returning from that handler, and the kernel then
    logged ``[IPKernelApp] ERROR | KeyboardInterrupt caught in kernel.`` on the console. Every
    cell has finished, failed or timed out by then, so there is nothing to interrupt: the
    shutdown request follows, then SIGTERM and SIGKILL if the kernel does not exit.

    Returns ``None`` on Windows (papermill's default TCP manager is used there).
    """
    if os.name == "nt":  # pragma: no cover - ipc needs Unix sockets
        return None
    from jupyter_client.manager import AsyncKernelManager

    class IPCKernelManager(AsyncKernelManager):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            remove_stale_kernel_folders()
            self._ipc_dir = tempfile.mkdtemp(prefix=f"{KERNEL_PREFIX}{os.getpid()}-")
            self.transport = "ipc"
            self.ip = os.path.join(self._ipc_dir, "k")

        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:  # the interrupt jupyter_client sends before a shutdown
                return
            await super()._async_interrupt_kernel()

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart=restart)
            if not restart:
                shutil.rmtree(self._ipc_dir, ignore_errors=True)

    return IPCKernelManager


def execute_notebook(src, dst, parameters: dict | None = None, cwd=None, timeout: int | None = None):
    """Execute ``src`` into ``dst`` with papermill on the ``python3`` kernel of this interpreter.

    Parameters
    ----------
    src, dst : path-like
        Input and output notebooks (``dst`` is written even when a cell fails).
    parameters : dict, optional
        Values to inject; ``None`` or ``{}`` injects no cell at all.
    cwd : path-like, optional
        Kernel working directory; defaults to the folder of ``src`` (as Jupyter and nbval).
    timeout : int, optional
        Seconds allowed per cell; ``None``: no limit.

    Returns
    -------
    NotebookNode
        The executed notebook.

    Raises
    ------
    FileNotFoundError, TypeError, ValueError
        ``src`` is missing, ``parameters`` is not a dict or names a parameter the notebook does not
        declare, ``timeout`` is not > 0 (before any kernel starts).
    papermill.PapermillExecutionError
        A cell raised; other exceptions mean a timeout, a dead kernel or infrastructure.
    """
    import papermill as pm

    src = Path(src)
    if not src.is_file():
        raise FileNotFoundError(errno.ENOENT, f"Notebook {src} does not exist; give the path of an .ipynb file.")
    if parameters is not None and not isinstance(parameters, dict):
        raise TypeError(f"parameters must be a dict {{name: value}}, not {type(parameters).__name__} {parameters!r}.")
    if timeout is not None and not is_whole_seconds(timeout):
        raise ValueError(f"timeout must be a whole number of seconds > 0 per cell (papermill's limit refuses "
                         f"fractions), or None for no limit; got {timeout!r}.")
    timeout = None if timeout is None else int(timeout)
    check_parameter_names_before_run(src, parameters)
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


def check_parameter_names_before_run(src, parameters) -> None:
    """Refuse, before a kernel starts, a parameter name the notebook does not declare (``K`` for ``k``).

    The declared names are those of the notebook's manifest entry (:data:`helpers.studies.NOTEBOOKS`)
    or, for another notebook, of its ``parameters`` cell as papermill reads it; a notebook
    without either is not checked. A misspelt name would otherwise run the notebook on its default.
    """
    if not parameters:
        return
    from ..studies import notebook
    from .parameters import check_parameter_names

    entry = notebook(src)
    if entry is not None:
        declared = entry.parameters
    else:
        import papermill as pm

        try:
            declared = pm.inspect_notebook(str(src))
        except Exception:  # noqa: BLE001 - an unreadable notebook fails in papermill itself, with its own message
            return
    if declared:
        check_parameter_names(list(parameters), declared, f"notebook {Path(src).name}")


def describe_failure(exc: BaseException) -> str:
    """One line for a failed execution: the error, its cell and the first line of its message.

    Examples
    --------
    >>> describe_failure(TimeoutError("cell took too long\\nmore"))
    'TimeoutError: cell took too long'
    """
    lines = str(getattr(exc, "evalue", exc)).strip().splitlines()
    where = f" in cell {exc.cell_index} (In [{exc.exec_count}])" if hasattr(exc, "cell_index") else ""
    return f"{getattr(exc, 'ename', type(exc).__name__)}{where}: {lines[0] if lines else ''}"


def execute_for_run(src, dst, results=None) -> dict:
    """Execute ``src`` into ``dst``: what ``make run`` does per notebook (the book shows ``dst``).

    Runs in a worker process of ``python -m helpers.workbook run`` and never raises for a
    failing notebook: a failed run still writes its notebook (which shows where it broke; the
    book renders it), and the failure comes back as text.

    ``dst`` is never written in place: papermill writes a temporary file beside it, which
    replaces ``dst`` only once it reads back as a whole notebook. A notebook cut short (a full
    disk, a killed run) is deleted, not kept for the book to trust; so is a results JSON the
    notebook left unreadable.

    Parameters
    ----------
    src, dst : path-like
        The notebook and its executed copy (replaced).
    results : path-like, optional
        Passed as the notebook's ``results_path`` parameter when it declares one.

    Returns
    -------
    dict
        ``name``, ``seconds`` and ``status``: ``"ok"``, ``"ok (no results JSON written)"`` or
        ``"FAILED ..."`` with :func:`describe_failure`'s line.
    """
    import papermill as pm

    from .._io import atomic_path

    src, dst = Path(src), Path(dst)
    results = Path(results) if results is not None else None
    for stale in (dst, results):
        if stale is not None:
            stale.unlink(missing_ok=True)
    start = time.perf_counter()
    status = "FAILED"
    try:
        with atomic_path(dst, suffix=".ipynb") as tmp:  # papermill wants the .ipynb extension
            try:
                takes_results = results is not None and "results_path" in pm.inspect_notebook(str(src))
                params = {"results_path": str(results)} if takes_results else {}
                execute_notebook(src, tmp, params)
                status = "ok" if not params or results.exists() else "ok (no results JSON written)"
            except Exception as exc:  # reported by the caller with every other failure (an unreadable notebook too)
                status = f"FAILED {describe_failure(exc)}"
            _whole_notebook(tmp)  # raises for a torn file: atomic_path then deletes it
    except (OSError, ValueError) as exc:  # the notebook could not be written whole: none is kept
        status = ("FAILED" if status.startswith("ok") else status) + f" (no executed notebook kept: {exc})"
    if results is not None and results.is_file():
        try:
            json.loads(results.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # a results JSON cut short: deleted, never trusted
            results.unlink(missing_ok=True)
            status = (f"FAILED {describe_failure(exc)}" if status.startswith("ok") else status) + (
                f" (its results JSON {results.name} was unreadable and is deleted)")
    return {"name": src.name, "seconds": time.perf_counter() - start, "status": status}


def _whole_notebook(path: Path) -> None:
    """Raise ``ValueError`` unless ``path`` holds a whole notebook (a JSON object with a list of cells)."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if not text.strip():
        raise ValueError("papermill wrote nothing")
    try:
        nb = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"the file papermill wrote is cut short ({exc})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("the file papermill wrote is not a notebook (no list of cells)")
