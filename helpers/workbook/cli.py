"""The workbook's one command line: ``python -m helpers.workbook COMMAND`` (installed as ``covsim COMMAND``).

====================  =============================================================================
``run``               execute every notebook into ``build/``, then build the book (``make run``)
``refresh``           re-execute committed notebooks in place (``make notebooks``)
``check``             refuse unexecuted, unclean or unnormalized committed notebooks (``make test``)
``book``              build the book from ``build/``, executing nothing (``make book``)
``sweep``             run a notebook over a grid of its parameters (:mod:`helpers.workbook.sweep`)
``study``             the own study: ``run`` every fold (``make study``), ``verify`` a sample (``make run``),
                      ``hierarchical``, ``edges`` (:mod:`helpers.workbook.study`)
``coverage``          print the source-ledger coverage of the committed notebooks
``readme``            rewrite README.md's coverage block (``make ledger``)
``transcriptions``    check the ledger's printed numbers against the source texts (``make ledger``)
====================  =============================================================================

``python -m helpers.workbook --help`` lists them, ``python -m helpers.workbook COMMAND --help``
gives a command's options. Each command returns its exit status: 0 done, 1 something failed
(a notebook, a run), 2 a bad command line, refused before any work, 130 interrupted. The
commands' modules are imported only when they run, so that this one stays cheap to import (the
worker processes of ``run`` import it again).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import time
import warnings
from pathlib import Path

from .._environment import caller_hides_progress, reproducible_environment
from ..data.paths import ROOT

__all__ = ["COMMANDS", "CONSOLE_SCRIPT", "build_parser", "console", "main"]

#: the console script that pyproject.toml installs for :func:`main`
CONSOLE_SCRIPT = "covsim"
PROG = "python -m helpers.workbook"

#: each command and its one line in ``--help``
COMMANDS = {
    "run": "execute every notebook into --out (notebooks, results JSON, run.json), then build the book",
    "refresh": "re-execute committed notebooks with their defaults, replacing each only on success",
    "check": "fail on unexecuted, unclean or unnormalized committed notebooks",
    "book": "build the book OUT/book/ from what `run` left in --out (executes nothing)",
    "sweep": "run a notebook over a grid of its parameters: parallel, resumable, on Dask if asked",
    "study": "the own study's scores: run every fold, verify a sample, the hierarchical model, the edge probe",
    "coverage": "print the source-ledger coverage of the committed notebooks",
    "readme": "rewrite README.md's coverage block from the committed notebooks",
    "transcriptions": "check that every number of the ledger is in its source's cited lines (needs the source texts)",
}


# --------------------------------------------------------------------------------------
# The commands


def _run(args) -> int:
    from .run import run_notebooks

    try:
        return run_notebooks(args.out, args.only, args.notebooks_dir, jobs=args.jobs, progress=not args.no_progress,
                             book=not args.no_book)
    except KeyboardInterrupt:  # after the notebooks (those are handled in run_notebooks): while building the book
        print(f"interrupted; the executed notebooks are kept in {args.out}: `{PROG} book --out {args.out}` builds "
              "the book from them", file=sys.stderr)
        return 130


def _refresh(args) -> int:
    from .run import refresh_notebooks

    return refresh_notebooks(args.notebooks, args.notebooks_dir)


def _check(args) -> int:
    from .run import check_notebooks

    return check_notebooks(args.notebooks_dir)


def _book(args) -> int:
    from .book import build_book

    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.showwarning = _print_warning  # an unreadable run.json or results JSON: one line naming it
        try:
            book = build_book(args.out, strict=args.strict)
        except (OSError, RuntimeError, ValueError) as exc:  # each names the file and the fix
            print(f"error: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}", file=sys.stderr)
            return 1
    print(f"book: {book.index.resolve()} ({time.perf_counter() - start:.1f} s)")
    if book.machine_paths:  # listed above by build_book
        print("error: the book was built, but shows paths of this machine (listed above); fix the cells that print "
              "them before publishing it", file=sys.stderr)
        return 1
    return 0


def _print_warning(message, category, filename, lineno, file=None, line=None):
    print(f"warning: {message}", file=sys.stderr)


def _sweep(args) -> int:
    from . import sweep

    try:  # every mistake of the command line is refused here, before any folder is made
        grid, origin = sweep.grid_from_options(args.grid, args.param, args.max_runs)
        with warnings.catch_warnings():
            warnings.showwarning = _print_warning
            notebook, out = sweep.check_sweep(args.notebook, grid, args.out, args.jobs, args.timeout, args.dask,
                                              origin, max_runs=args.max_runs)
    except (ValueError, TypeError, OSError) as exc:
        text = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc  # without "[Errno 2]"
        print(f"error: {text}", file=sys.stderr)
        return 2
    with warnings.catch_warnings():
        warnings.showwarning = _print_warning
        warnings.simplefilter("default", sweep.CorruptRunFileWarning)
        warnings.simplefilter("always", sweep.NotebookChangedWarning)
        try:
            table = sweep.run_checked(notebook, grid, out, args.jobs, retry_failed=args.retry_failed, dask=args.dask,
                                      timeout=args.timeout, progress=True)
        except sweep.SweepBusyError as exc:  # another sweep took the folder since the checks
            print(f"error: {exc.strerror}", file=sys.stderr)
            return 2
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
            print(f"{how}; finished runs are kept in {args.out}/results.csv (rerun the same command to finish "
                  "the sweep: finished runs are skipped)", file=sys.stderr)
            return 128 + signum
        except OSError as exc:  # disk full, output removed or made read-only during the sweep
            print(f"error: could not write the sweep's files in {args.out}: {exc}. Runs that finished before are "
                  "kept in runs/; free space or fix the folder, then rerun the same command (finished runs are "
                  "skipped).", file=sys.stderr)
            return 2
    # judge this command's grid (and notebook code) only; the folder's table may hold other runs too
    code = sweep.code_sha(notebook)
    runs = sweep.runs_of_grid(table, {sweep.run_id(params, code) for params in sweep.expand_grid(grid)})
    n_failed = int((runs["status"] != sweep.STATUS_OK).sum()) if not runs.empty else 0
    corrupt = int((runs["status"] == sweep.STATUS_CORRUPT).sum()) if not runs.empty else 0
    hint = f" ({corrupt} with unreadable run files: --retry-failed runs them again)" if corrupt else ""
    print(f"{len(runs)} runs of this grid in {args.out}: {len(runs) - n_failed} ok, {n_failed} failed{hint}")
    return 1 if n_failed else 0


def _study(args) -> int:
    """``study``: :func:`helpers.workbook.study.study`."""
    from .study import study

    return study(args)


def _coverage(args) -> int:
    """``coverage`` and ``readme``: :func:`helpers.workbook.coverage.main`."""
    return importlib.import_module(f"{__package__}.coverage").main([args.command])


def _transcriptions(args) -> int:
    """``transcriptions``: :func:`helpers.workbook.transcriptions.main`."""
    from .transcriptions import main as check

    return check(args.sources, args.ledger, required=args.required)


# --------------------------------------------------------------------------------------
# The parser


def _add_run_options(run: argparse.ArgumentParser) -> None:
    run.add_argument("--out", type=Path, default=ROOT / "build", help="the build folder (default: %(default)s)")
    run.add_argument("--only", nargs="+", metavar="NAME", help="file names, stems or numbers (e.g. 02)")
    run.add_argument("--jobs", type=int, default=2, help="notebooks executed at a time (default: %(default)s)")
    run.add_argument("--no-progress", action="store_true",
                     help="no overall progress bar (drawn on stderr only when it is a terminal)")
    run.add_argument("--no-book", action="store_true", help="do not build the book (OUT/book/) afterwards")


def _add_sweep_options(sweep: argparse.ArgumentParser) -> None:
    sweep.add_argument("notebook", type=Path, help="the notebook (.ipynb) to run for every parameter set")
    sweep.add_argument("-p", "--param", nargs="+", action="append", default=[], metavar=("NAME", "VALUE"),
                       help="a parameter and its values: literals or ranges start:stop[:step]")
    sweep.add_argument("--grid", type=Path,
                       help="a YAML or JSON file {name: [values]} (merged with -p; a name in one place only)")
    sweep.add_argument("--jobs", type=int, default=1, help="parallel runs (processes or Dask workers)")
    sweep.add_argument("--out", type=Path, required=True, help="sweep folder (runs/, results.csv)")
    sweep.add_argument("--retry-failed", action="store_true", help="run failed runs again")
    sweep.add_argument("--dask", metavar="ADDRESS", help="'local' for a LocalCluster, or tcp://host:8786")
    sweep.add_argument("--timeout", type=float, default=None,
                       help="whole seconds per cell (papermill); default: no limit")
    sweep.add_argument("--max-runs", type=int, default=10_000,
                       help="refuse a grid of more runs than this, before any work (default: %(default)s)")


#: each subcommand of ``study`` and its one line in ``--help``
STUDY_COMMANDS = {
    "run": "compute every score (resumable) and compare with the stored table",
    "verify": "recompute a random sample of stored folds and compare",
    "hierarchical": "the hierarchical Bayesian model of every claim's readings (needs pystan: pip install "
                    "'.[hierarchical]'), stored beside the scores",
    "edges": "score one grid step beyond every SVC tuning on an edge of its grid and compare with the stored "
             "probe (edge_probe.csv beside the scores)",
}


def _add_study_options(study: argparse.ArgumentParser) -> None:
    sub = study.add_subparsers(dest="study_command", required=True, metavar="STUDY_COMMAND")

    def command(name):
        return sub.add_parser(name, help=STUDY_COMMANDS[name], description=STUDY_COMMANDS[name])

    run, verify, hier, edges = command("run"), command("verify"), command("hierarchical"), command("edges")
    run.add_argument("--jobs", type=int, default=2, help="worker processes (the scores do not depend on it)")
    run.add_argument("--dask", default=None, help="a Dask scheduler address, e.g. tcp://127.0.0.1:8786")
    run.add_argument("--write", action="store_true", help="store the fresh table in data/results/")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    verify.add_argument("--cells", type=int, default=2, help="how many (data set, repeat, fold) cells")
    verify.add_argument("--seed", type=int, default=None, help="the sample's seed (default: a fresh one)")
    verify.add_argument("--jobs", type=int, default=1, help="worker processes (the scores do not depend on it)")
    hier.add_argument("--samples", type=int, default=None,
                      help="posterior draws per chain (default: the protocol's [hierarchical] draws, else 2000)")
    hier.add_argument("--primary-only", action="store_true", help="the claims' primary readings only")
    edges.add_argument("--write", action="store_true", help="store the fresh probe in data/results/")
    for each in (run, verify, hier, edges):
        each.add_argument("--edition", type=int, default=None,
                          help="the edition's protocol and stored scores (default: the present one)")


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The parser of every command: one subparser each, with a one-line help in :data:`COMMANDS`.

    Examples
    --------
    >>> args = build_parser().parse_args(["sweep", "nb.ipynb", "-p", "seed", "0:3", "--out", "o"])
    >>> args.command, args.param, args.jobs
    ('sweep', [['seed', '0:3']], 1)
    """
    from .run import DEFAULT_NOTEBOOKS_DIR

    parser = argparse.ArgumentParser(prog=prog, description="The covariance-aware similarity workbook's commands. "
                                     f"{prog} COMMAND --help gives the options of one.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")
    folder = argparse.ArgumentParser(add_help=False)
    folder.add_argument("--notebooks-dir", type=Path, default=DEFAULT_NOTEBOOKS_DIR,
                        help="the folder of the numbered notebooks (default: %(default)s)")

    def command(name, handler, parents=()):
        sub = commands.add_parser(name, help=COMMANDS[name], description=COMMANDS[name], parents=list(parents))
        sub.set_defaults(handler=handler)
        return sub

    _add_run_options(command("run", _run, [folder]))
    command("refresh", _refresh, [folder]).add_argument("notebooks", nargs="*", metavar="NB",
                                                        help="paths or names; default: all")
    command("check", _check, [folder])
    book = command("book", _book)
    book.add_argument("--out", type=Path, default=Path("build"),
                      help="the folder `run` wrote (default: %(default)s)")
    book.add_argument("--strict", action="store_true", help="fail on any Sphinx warning")
    _add_sweep_options(command("sweep", _sweep))
    _add_study_options(command("study", _study))
    command("coverage", _coverage)
    command("readme", _coverage)
    texts = command("transcriptions", _transcriptions)
    texts.add_argument("--sources", type=Path, default=None,
                       help="the folder of the source texts (default: COVSIM_SOURCES, else data/sources/)")
    texts.add_argument("--ledger", type=Path, default=None, help="the ledger (default: data/source_ledger.csv)")
    texts.add_argument("--required", action="store_true", help="fail when the source texts are not at hand")
    return parser


def main(argv: list[str] | None = None, *, hide_progress: bool | None = None) -> int:
    """Run one command of the workbook's command line; returns its exit status.

    Parameters
    ----------
    argv : list of str, optional
        The words after the program's name; ``sys.argv[1:]`` by default.
    hide_progress : bool, optional
        No overall progress bar, as ``--no-progress``; by default when the caller's
        ``TQDM_DISABLE`` asks for none (:func:`console` reads it before it sets its own).

    Returns
    -------
    int
        0 done, 1 a notebook, run or build failed, 2 a bad command line (refused before any
        work), 130 a sweep or the study interrupted by Ctrl-C (143 by SIGTERM).
    """
    prog = CONSOLE_SCRIPT if Path(sys.argv[0]).stem == CONSOLE_SCRIPT else PROG
    args = build_parser(prog).parse_args(argv)
    hide = caller_hides_progress() if hide_progress is None else hide_progress
    if hide and hasattr(args, "no_progress"):
        args.no_progress = True   # as `make run` reads the caller's TQDM_DISABLE
    return args.handler(args)


def console(argv: list[str] | None = None) -> int:
    """The command line as a program (``covsim``, ``python -m helpers.workbook``): :func:`main` in the environment
    the Makefile exports (:func:`helpers._environment.reproducible_environment`), which its kernels and workers
    inherit; the caller's ``TQDM_DISABLE``, read first, still decides the console's own bar, as in ``make run``."""
    hide = caller_hides_progress()
    reproducible_environment()
    return main(argv, hide_progress=hide)
