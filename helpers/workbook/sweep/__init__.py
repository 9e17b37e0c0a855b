"""Papermill parameter sweeps: parallel, resumable, and never losing a finished result.

Command line (:mod:`helpers.workbook.cli`)::

    python -m helpers.workbook sweep notebooks/04_wisconsin_cosine_knn.ipynb \\
        -p random_state 0:50 -p method cholesky zca --jobs 2 --out build/sweeps/03

Each run executes the notebook with papermill into ``OUT/runs/<run-id>.ipynb`` with its
parameters; the notebook writes its results JSON (an object) to ``OUT/runs/<run-id>.json`` through its
``results_path`` parameter. The run id is a stable hash of the parameters and of the notebook's
code, so rerunning the same command skips finished runs, while an edited notebook (or another
one given the same ``--out``) runs them again; ``--retry-failed`` runs the failed ones again (a
run whose status or results file cannot be read counts as failed, with a warning naming the file).
After every finished run, and once more from the run files when the sweep stops for any
reason, the tidy table ``OUT/results.csv`` (one row per run and result key, parameters as
columns) is rewritten atomically. The notebook, grid (at most ``--max-runs`` runs, counted
before anything is expanded), options, ``--out`` (not held by another live sweep: its
``.sweep.lock``) and the Dask scheduler are all checked before any run or folder is made (exit
code 2). ``--dask local`` or ``--dask tcp://scheduler:8786`` runs the same sweep on a Dask
cluster. Ctrl-C (exit 130) or SIGTERM (exit 143) stops the runs under way and writes the table;
after a ``kill -9`` the pool's workers end by themselves.

Three modules: :mod:`~helpers.workbook.sweep.grid` (the grid from ``-p`` values and grid
files, checked against the notebook and its manifest entry), :mod:`~helpers.workbook.sweep.store`
(run ids, run files, the results table, :func:`load`, :func:`plot_distribution`) and
:mod:`~helpers.workbook.sweep.runner` (the checks before a sweep, the process pool, Dask, Ctrl-C).
"""

from ..._tasks import TasksStopped
from .grid import (
    DEFAULT_MAX_RUNS,
    count_runs,
    expand_grid,
    grid_from_options,
    parse_literal,
    parse_values,
    read_grid_file,
    validate_grid,
)
from .runner import NotebookChangedWarning, check_sweep, execute_run, run_checked, run_sweep
from .store import (
    RESERVED_NAMES,
    STATUS_CORRUPT,
    STATUS_OK,
    CorruptRunFileWarning,
    SweepBusyError,
    code_sha,
    collect,
    load,
    package_sha,
    plan,
    plot_distribution,
    read_run,
    run_id,
    runs_of_grid,
    write_table,
)

__all__ = [
    "DEFAULT_MAX_RUNS",
    "RESERVED_NAMES",
    "STATUS_CORRUPT",
    "STATUS_OK",
    "CorruptRunFileWarning",
    "NotebookChangedWarning",
    "SweepBusyError",
    "TasksStopped",
    "check_sweep",
    "code_sha",
    "collect",
    "count_runs",
    "execute_run",
    "expand_grid",
    "grid_from_options",
    "load",
    "package_sha",
    "parse_literal",
    "parse_values",
    "plan",
    "plot_distribution",
    "read_grid_file",
    "read_run",
    "run_checked",
    "run_id",
    "run_sweep",
    "runs_of_grid",
    "validate_grid",
    "write_table",
]
