"""The one task engine (:mod:`helpers._tasks`): the same results in this process, in workers and on Dask."""

import os
import signal

import pytest

from helpers import _tasks
from helpers._tasks import TasksStopped, hold_stop_signals, interrupted, run_tasks


def square_and_pid(x):
    return x * x, os.getpid()


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_task_once_in_this_process_or_in_workers(jobs):
    done = []
    run_tasks(square_and_pid, [(i,) for i in range(6)], done.append, jobs=jobs)
    assert sorted(v for v, _ in done) == [0, 1, 4, 9, 16, 25]
    in_here = {pid for _, pid in done} == {os.getpid()}
    assert in_here is (jobs == 1)


def test_no_tasks_start_nothing():
    done = []
    run_tasks(square_and_pid, [], done.append, jobs=4)
    assert done == []


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_a_bad_number_of_jobs_is_refused(jobs):
    with pytest.raises(ValueError, match="jobs must be a whole number >= 1"):
        run_tasks(square_and_pid, [(1,)], print, jobs=jobs)


def test_an_error_in_finished_stops_the_engine_and_is_raised():
    seen = []

    def finished(result):
        seen.append(result)
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        run_tasks(square_and_pid, [(i,) for i in range(20)], finished, jobs=2)
    assert len(seen) == 1


def test_a_stop_signal_raises_tasks_stopped_and_the_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM)

    def stop_here(result):
        os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(TasksStopped) as stopped:
        run_tasks(square_and_pid, [(1,), (2,)], stop_here)
    assert stopped.value.signum == signal.SIGTERM and isinstance(stopped.value, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGTERM) == before and not interrupted()


def test_a_signal_held_back_is_raised_once_the_block_is_done():
    written = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)   # a pytest-xdist worker ignores SIGINT
    try:
        with pytest.raises(TasksStopped):
            with hold_stop_signals():
                os.kill(os.getpid(), signal.SIGINT)
                written.append("table")   # not interrupted half-way
    finally:
        signal.signal(signal.SIGINT, previous)
    assert written == ["table"]


def test_a_signal_ignored_before_stays_ignored():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with hold_stop_signals():
            os.kill(os.getpid(), signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN   # reached here: nothing raised, put back
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_worker_stops_on_its_first_ctrl_c_and_ignores_the_second(monkeypatch):
    monkeypatch.setattr(_tasks, "_interrupted", False)
    monkeypatch.setattr(_tasks, "_in_task", True)
    previous = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, _tasks._stop_on_first_ctrl_c)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
        assert interrupted() and signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGINT)   # ignored
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_waiting_worker_notes_ctrl_c_and_stops_the_next_task_at_once(monkeypatch):
    monkeypatch.setattr(_tasks, "_interrupted", False)
    previous = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, _tasks._stop_on_first_ctrl_c)
        os.kill(os.getpid(), signal.SIGINT)   # between tasks: noted, not raised
        assert interrupted()
        with pytest.raises(KeyboardInterrupt):
            _tasks._call(square_and_pid, (3,))
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.integration
def test_dask_local_gives_the_same_results():
    pytest.importorskip("distributed")
    done = []
    run_tasks(square_and_pid, [(i,) for i in range(4)], done.append, jobs=2, dask="local")
    assert sorted(v for v, _ in done) == [0, 1, 4, 9]
