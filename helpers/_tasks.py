"""The one parallel task engine of the workbook (plumbing): the sweeps' runs and the own study's folds.

:func:`run_tasks` calls ``function(*arguments)`` for each task, one after the other, in
``jobs`` worker processes, or on a Dask cluster (``"local"`` or a scheduler's address), and
hands each result to ``finished`` in this process as soon as it is done, in the order the tasks
finish. Resuming is the callers': each task writes its own file atomically, and a caller gives
only the tasks not already on disk (a sweep's runs are named by their parameters and the
notebook's code, the study's folds by the protocol, the method code and the data).

Stopping is safe: for the engine's duration a Ctrl-C (SIGINT) or a SIGTERM raises
:class:`TasksStopped` here; the tasks not started are cancelled and each worker process stops
its task once (a second Ctrl-C is ignored there, so clean-up finishes); a worker whose parent is
killed (``kill -9``) stops its task and exits by itself. On Dask the client is closed: tasks not
started are dropped, but a task already running on a remote worker runs to its end (and writes
its file there, on the worker's machine). A task can ask :func:`interrupted`
whether it was stopped, and mark with :func:`running` the part a stop should wait for.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager

from ._dask import CONNECT_TIMEOUT

__all__ = ["STOP_SIGNALS", "TasksStopped", "hold_stop_signals", "interrupted", "run_tasks", "running"]

PARENT_POLL_SECONDS = 0.5  # how often a pool worker checks that the process that started it is alive
ORPHAN_GRACE_SECONDS = 10.0  # how long an orphaned worker lets its task stop cleanly before it exits
#: the signals that stop the engine (Ctrl-C's SIGINT and SIGTERM)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class TasksStopped(KeyboardInterrupt):
    """The tasks were stopped by a signal (Ctrl-C's SIGINT, or SIGTERM); ``signum`` says which."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_interrupted = False  # set by the first Ctrl-C in a worker, or by a stop signal in the engine's process
_in_task = False  # set in a worker process while it calls a task
_running = threading.Event()  # set in a worker process while a task runs what a stop should wait for


def interrupted() -> bool:
    """Whether this process was told to stop (a task then raises ``KeyboardInterrupt`` instead of going on)."""
    return _interrupted


@contextmanager
def running():
    """Mark the part of a task an orphaned worker waits for (up to :data:`ORPHAN_GRACE_SECONDS`) before it exits."""
    _running.set()
    try:
        yield
    finally:
        _running.clear()


def _stop_on_first_ctrl_c(signum, frame):
    """A worker's SIGINT handler: stop the current task once; a second Ctrl-C must not break its clean-up.

    A worker waiting for a task only notes it (the tasks it is given next stop at once): a
    ``KeyboardInterrupt`` there would end the worker abruptly, and the pool would report itself
    broken on futures already cancelled.
    """
    global _interrupted
    _interrupted = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _in_task:
        raise KeyboardInterrupt


def _call(function: Callable, arguments: tuple):
    """``function(*arguments)`` in a worker, unless the worker was told to stop."""
    global _in_task
    if _interrupted:
        raise KeyboardInterrupt
    _in_task = True
    try:
        return function(*arguments)
    finally:
        _in_task = False


def _exit_when_orphaned(parent: int) -> None:
    """A pool worker's watchdog: once the process that started it is gone (``kill -9``), stop the task
    and exit as soon as it has stopped, or after :data:`ORPHAN_GRACE_SECONDS` at most."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGINT)
    deadline = time.monotonic() + ORPHAN_GRACE_SECONDS
    while _running.is_set() and time.monotonic() < deadline:
        time.sleep(0.1)
    os._exit(1)


def _init_worker() -> None:
    signal.signal(signal.SIGINT, _stop_on_first_ctrl_c)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()


class _StopSignals:
    """In the main thread, for the engine's duration: SIGINT and SIGTERM raise :class:`TasksStopped`
    and mark this process interrupted (a task running here then stops unrecorded); the handlers
    before are put back after."""

    def __enter__(self):
        self.previous = {}
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self.previous[sig] = signal.signal(sig, self._stop)
        return self

    @staticmethod
    def _stop(signum, frame):
        global _interrupted
        _interrupted = True
        raise TasksStopped(signum)

    def __exit__(self, *exc):
        global _interrupted
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        _interrupted = False


@contextmanager
def hold_stop_signals():
    """Hold back Ctrl-C and SIGTERM while the block runs (e.g. a last table written to disk), then raise
    :class:`TasksStopped` for the first one that came, unless it was being ignored before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    previous = {sig: signal.signal(sig, lambda signum, frame: held.append(signum)) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if held and previous[held[0]] not in (signal.SIG_IGN, None):
            raise TasksStopped(held[0])


def run_tasks(function: Callable, tasks: Iterable[tuple], finished: Callable, *, jobs: int = 1,
              dask: str | None = None) -> None:
    """``finished(function(*arguments))`` for each ``arguments`` of ``tasks``, in the order they finish.

    Parameters
    ----------
    function : callable
        A module-level function (worker processes and Dask import it by name).
    tasks : iterable of tuple
        The arguments of each call.
    finished : callable
        Called in this process with each result; an exception it raises stops the engine (the
        tasks not started are cancelled, those under way interrupted) and is raised here.
    jobs : int
        Worker processes (``1``: every task in this process; Dask: the workers of ``"local"``).
    dask : str, optional
        ``"local"`` (a cluster of ``jobs`` workers on this machine) or a scheduler's address
        ``tcp://HOST:PORT``, which the caller has checked before preparing the tasks
        (:func:`helpers._dask.check_dask_address`).

    Raises
    ------
    TasksStopped
        After Ctrl-C or SIGTERM.

    Examples
    --------
    >>> done = []
    >>> run_tasks(pow, [(2, 3), (3, 2)], done.append)
    >>> sorted(done)
    [8, 9]
    """
    tasks = list(tasks)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1 (tasks at a time), not {jobs!r}.")
    if not tasks:
        return
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")  # workers started from here compute on one thread each
    jobs = min(jobs, len(tasks))  # no idle worker: 1000 jobs for 3 tasks start 3
    with _StopSignals():
        if dask:
            _run_dask(dask, jobs, function, tasks, finished)
        elif jobs == 1:
            for arguments in tasks:
                finished(function(*arguments))
        else:
            _run_pool(jobs, function, tasks, finished)


def _run_pool(jobs: int, function: Callable, tasks: list, finished: Callable) -> None:
    """Each task in one of ``jobs`` worker processes; a Ctrl-C, a SIGTERM or an error in ``finished``
    cancels the rest and interrupts the tasks under way (each worker once: a second SIGINT is ignored there)."""
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker) as pool:
        pending = {pool.submit(_call, function, arguments) for arguments in tasks}
        try:
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    finished(future.result())
        except BaseException:  # Ctrl-C, SIGTERM, or finished failed (a disk full): stop here
            for future in pending:
                future.cancel()
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                try:
                    os.kill(process.pid, signal.SIGINT)  # a SIGTERM or a kill of this process alone reached no task
                except (OSError, AttributeError):
                    pass
            raise


def _run_dask(address: str, jobs: int, function: Callable, tasks: list, finished: Callable) -> None:
    from dask.distributed import Client, LocalCluster, as_completed

    if address == "local":
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(address, timeout=f"{CONNECT_TIMEOUT:g}s")
    try:
        futures = [client.submit(_call, function, arguments, pure=False) for arguments in tasks]
        for future in as_completed(futures):
            finished(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
