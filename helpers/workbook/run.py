"""Execute, refresh and check the workbook's numbered notebooks (behind make run / notebooks / test).

Three commands of ``python -m helpers.workbook`` (:mod:`helpers.workbook.cli`):

``run --out build [--only NAME ...] [--jobs 2] [--no-progress] [--no-book]``
    papermill every ``notebooks/NN_*.ipynb`` into ``build/notebooks/`` (results JSON into
    ``build/results/``, each notebook's status into ``build/run.json``), two at a time, the
    longest first, then build the book ``build/book/`` from them; never touches the committed
    notebooks (:func:`run_notebooks`, ``make run``).
``refresh [NB ...]``
    re-execute notebooks with their default parameters and replace the committed files,
    normalized, only on success (:func:`refresh_notebooks`, ``make notebooks``).
``check``
    fail if a committed notebook is unexecuted, out of order, holds errors, stderr or injected
    cells, or is not normalized (:func:`check_notebooks`, ``make test``).

Each takes ``--notebooks-dir DIR`` to point at another folder, e.g. a scratch one. Kernels run
in the notebook's folder (as Jupyter and nbval do), over ipc sockets (no port races between
parallel kernels); a failed run never replaces a committed notebook.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from .._io import unwritable
from ..data.paths import ROOT
from .execute import describe_failure, execute_notebook

__all__ = [
    "DEFAULT_NOTEBOOKS_DIR",
    "KERNELSPEC",
    "check_notebooks",
    "normalize",
    "numbered_notebooks",
    "problems",
    "record_run",
    "refresh_notebooks",
    "resolve",
    "run_notebooks",
    "select",
    "write_notebook",
]

#: the committed notebooks
DEFAULT_NOTEBOOKS_DIR = ROOT / "notebooks"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
DROP_CELL_TAGS = {"injected-parameters", "papermill-error-cell-tag"}
DROP_CELL_METADATA = ("papermill", "execution", "ExecuteTime", "collapsed", "scrolled")


def numbered_notebooks(folder: Path = DEFAULT_NOTEBOOKS_DIR) -> list[Path]:
    """The workbook's notebooks, ``NN_*.ipynb``, sorted by name."""
    return sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))


def normalize(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip what changes from run to run, keeping outputs, execution counts and cell ids.

    Parameters
    ----------
    nb : NotebookNode
        A notebook as read by ``nbformat.read`` or returned by papermill; not modified.

    Returns
    -------
    NotebookNode
        A copy without papermill/nbclient metadata (notebook and cells), without
        ``injected-parameters`` and papermill error-banner cells, with the ``python3``
        kernelspec and without ``language_info.version``. ``normalize`` is idempotent.
    """
    nb = copy.deepcopy(nb)
    nb.metadata.pop("papermill", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata.get("language_info", {}).pop("version", None)
    nb.cells = [c for c in nb.cells if not DROP_CELL_TAGS & set(c.metadata.get("tags", []))]
    for cell in nb.cells:
        for key in DROP_CELL_METADATA:
            cell.metadata.pop(key, None)
    return nb


def write_notebook(nb: nbformat.NotebookNode, path: Path) -> None:
    """Write ``nb`` as Jupyter does (indent 1, trailing newline), atomically."""
    from .._io import atomic_open

    text = nbformat.writes(nb)
    with atomic_open(path, encoding="utf-8") as fh:
        fh.write(text if text.endswith("\n") else text + "\n")


def select(notebooks: list[Path], only: list[str] | None) -> list[Path]:
    """Notebooks whose file name, stem or number prefix is in ``only`` (all when empty).

    Examples
    --------
    >>> [p.name for p in select([Path("02_a.ipynb"), Path("03_b.ipynb")], ["03"])]
    ['03_b.ipynb']
    """
    if not only:
        return notebooks
    return [p for p in notebooks if any(n in (p.name, p.stem) or p.stem.startswith(f"{n}_") for n in only)]


# --------------------------------------------------------------------------------------
# run


def _refuse_run(out: Path, only: list[str] | None, folder: Path, jobs: int) -> str | None:
    """What is wrong with a ``run`` command line, in words (``None``: nothing); creates nothing."""
    if (out / "notebooks").resolve() == folder.resolve():
        return f"refusing to write over the committed notebooks in {folder}"
    if jobs < 1:
        return f"error: --jobs must be at least 1 (notebooks at a time), not {jobs}"
    if not folder.is_dir():
        return f"error: notebook folder {folder} does not exist; give --notebooks-dir a folder of NN_*.ipynb files"
    available = numbered_notebooks(folder)
    unknown = [name for name in only or [] if not select(available, [name])]
    if unknown:
        return (f"error: no notebook in {folder} matches {', '.join(map(repr, unknown))}; --only takes file names, "
                f"stems or numbers: {', '.join(p.name for p in available) or 'none there'}")
    blocked = unwritable(out, ("notebooks", "results")) if select(available, only) else None
    if blocked:
        problem, where = blocked
        why = f"{where} is not writable" if problem == "not writable" else f"{where} is a file, not a folder"
        return f"error: cannot write into --out {out}: {why}; choose another --out"
    return None


def _execute_all(notebooks: list[Path], dirs: dict, jobs: int, progress: bool) -> dict[str, dict]:
    """Execute ``notebooks`` in ``jobs`` worker processes, the longest first; one line each, in name order.

    Returns each notebook's record (``name``, ``seconds``, ``status``), by name.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from tqdm import tqdm

    from .execute import execute_for_run, longest_first

    # tqdm's TQDM_DISABLE (the Makefile sets it so that no kernel stores a bar) is not consulted:
    # this bar is the console's; disable=None draws it only when stderr is a terminal.
    bar = tqdm(total=len(notebooks), unit="notebook", file=sys.stderr, disable=None if progress else True,
               dynamic_ncols=True, mininterval=1.0)
    done: dict[str, dict] = {}
    printed = 0
    # spawn: workers import helpers afresh (no forked tqdm thread, the same on every platform)
    spawn = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(notebooks)), mp_context=spawn, initializer=_ignore_sigint)
    try:
        # the workers start with Ctrl-C ignored (inherited), so that it interrupts this process only, not their imports
        sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            source = {pool.submit(execute_for_run, src, dirs["notebooks"] / src.name,
                                  dirs["results"] / f"{src.stem}.json"): src for src in longest_first(notebooks)}
        finally:
            signal.signal(signal.SIGINT, sigint)
        pending = set(source)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    record = future.result()
                except Exception as exc:  # the worker process itself died (e.g. out of memory)
                    record = {"name": source[future].name, "seconds": 0.0,
                              "status": f"FAILED {describe_failure(exc)}"}
                done[record["name"]] = record
                if not record["status"].startswith("ok"):
                    bar.set_postfix(failed=sum(not r["status"].startswith("ok") for r in done.values()), refresh=False)
                bar.update()
            while printed < len(notebooks) and notebooks[printed].name in done:  # name order, as soon as possible
                record = done[notebooks[printed].name]
                tqdm.write(f"{record['name']:<45} {record['seconds']:7.1f} s  {record['status']}", file=sys.stdout)
                printed += 1
            sys.stdout.flush()
    except KeyboardInterrupt:
        bar.close()
        _stop(pool, dirs["notebooks"])
        raise Interrupted(done) from None
    pool.shutdown()
    bar.close()
    return done


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``run``: ``done`` holds the records of the notebooks that finished before it."""

    def __init__(self, done: dict[str, dict]):
        super().__init__()
        self.done = done


def _ignore_sigint() -> None:
    """In each worker of ``run``: Ctrl-C is the main process's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool, notebooks_dir: Path) -> None:
    """Stop ``run``'s workers now (their kernels exit with them) and delete the notebooks they were writing."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # shutdown() forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(timeout=10)
    for partial in notebooks_dir.glob(".[0-9][0-9]_*.ipynb.*.ipynb"):  # atomic_path's temporary files
        partial.unlink(missing_ok=True)


def run_notebooks(out, only: list[str] | None = None, folder=DEFAULT_NOTEBOOKS_DIR, jobs: int = 2,
                  *, progress: bool = True, book: bool = True) -> int:
    """``run``: execute into ``out``, ``jobs`` notebooks at a time, the longest first; then the book.

    Prints one line per notebook (name, seconds, status) in name order, each as soon as it and
    the notebooks before it have finished; with ``progress``, an overall bar on stderr when
    stderr is a terminal. Records every status in ``out/run.json`` (kept for notebooks not run
    this time), then, with ``book``, builds ``out/book/`` (:func:`helpers.workbook.book.build_book`)
    and prints where to open it.

    Parameters
    ----------
    out : path-like
        The build folder (``notebooks/``, ``results/``, ``run.json``, ``book/``).
    only : list of str, optional
        File names, stems or two-digit numbers of the notebooks to run; all when empty.
    folder : path-like
        Where the numbered notebooks are.
    jobs : int
        Notebooks executed at a time.
    progress, book : bool
        Draw the overall bar; build the book afterwards.

    Returns
    -------
    int
        The exit status: 0 when every notebook ran cleanly and the book was built, 1 when one
        failed or ``run.json`` could not be written (said on stderr, an earlier one kept), 2 for
        a bad command line (said on stderr before anything is made), 130 after Ctrl-C (the
        workers and their kernels stopped, the finished notebooks recorded).

    Each executed notebook reaches ``out/notebooks`` whole or not at all
    (:func:`helpers.workbook.execute.execute_for_run`).
    """
    out, folder = Path(out).resolve(), Path(folder).resolve()
    refusal = _refuse_run(out, only, folder, jobs)
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    notebooks = select(numbered_notebooks(folder), only)
    if not notebooks:
        print(f"no notebooks to run in {folder}", file=sys.stderr)
        return 1
    dirs = {sub: out / sub for sub in ("notebooks", "results")}
    try:
        for d in dirs.values():
            d.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot make the folders of --out {out}: {exc.strerror or exc}; free space there or choose "
              "another --out", file=sys.stderr)
        return 2
    try:
        done = _execute_all(notebooks, dirs, jobs, progress)
    except Interrupted as stop:
        if not _record(out, stop.done):
            return 130
        print(f"interrupted: {len(stop.done)} of {len(notebooks)} notebook(s) had finished (kept in "
              f"{dirs['notebooks']}, recorded in {out / 'run.json'}); the others were stopped and left nothing "
              "behind. Run the same command again to execute them.", file=sys.stderr)
        return 130
    if not _record(out, done):
        return 1
    built = _build_book(out) if book else True
    failures = {name: r["status"] for name, r in done.items() if not r["status"].startswith("ok")}
    if failures:
        print(f"\n{len(failures)} of {len(notebooks)} notebook(s) failed:", file=sys.stderr)
        for name in sorted(failures):
            print(f"  {name}: {failures[name]}", file=sys.stderr)
        return 1
    return 0 if built else 1


def _record(out: Path, done: dict[str, dict]) -> bool:
    """:func:`record_run`, a failure (a full disk) said on stderr with the way out; whether it was recorded."""
    try:
        record_run(out, done.values())
    except OSError as exc:
        print(f"error: cannot write {out / 'run.json'}: {exc.strerror or exc}. The notebooks that ran are in "
              f"{out / 'notebooks'} and an earlier run.json is kept as it was; free space there (or choose another "
              "--out), then run the command again.", file=sys.stderr)
        return False
    return True


def record_run(out, records) -> Path:
    """Write ``out/run.json``: each notebook's name, seconds and status, merged with earlier runs'.

    A notebook not run this time (``--only``) keeps its earlier record, so the book's status
    table covers every executed notebook in ``out/notebooks``.
    """
    from .._io import atomic_open

    path = Path(out) / "run.json"
    earlier = {}
    try:
        earlier = {r["name"]: r for r in json.loads(path.read_text(encoding="utf-8"))["notebooks"]}
    except (OSError, ValueError, KeyError, TypeError):  # none yet, or unreadable: this run's records only
        pass
    merged = {**earlier, **{r["name"]: {k: r[k] for k in ("name", "seconds", "status")} for r in records}}
    with atomic_open(path, encoding="utf-8") as fh:
        json.dump({"notebooks": [merged[name] for name in sorted(merged)]}, fh, indent=1)
        fh.write("\n")
    return path


def _build_book(out: Path) -> bool:
    """Build the book from ``out`` and print where to open it; a failure is printed, not raised."""
    from .book import build_book

    try:
        book = build_book(out)
    except Exception as exc:  # the notebooks' results stand; say why the book is missing
        print(f"book: not built: {exc}", file=sys.stderr)
        return False
    print(f"book: open {book.index.resolve()}")
    if book.machine_paths:  # listed above by build_book
        print("book: it shows paths of this machine (listed above); fix the cells that print them before "
              "publishing it", file=sys.stderr)
        return False
    return True


# --------------------------------------------------------------------------------------
# refresh


def resolve(names: list[str], folder) -> list[Path]:
    """Notebook paths from command-line names: paths, or names/stems inside ``folder``.

    Raises ``ValueError`` naming every name that matches no notebook, with the notebooks there.
    """
    folder = Path(folder)
    paths, unknown = [], []
    for name in names:
        candidates = [Path(name), folder / name, folder / f"{name}.ipynb"]
        found = next((p for p in candidates if p.is_file() and p.suffix == ".ipynb"), None)
        if found is None:
            unknown.append(name)
        else:
            paths.append(found.resolve())
    if unknown:
        known = ", ".join(p.name for p in numbered_notebooks(folder)) or "none"
        raise ValueError(f"no such notebook: {', '.join(unknown)}; give a path, or a name or stem in {folder} "
                         f"(there: {known})")
    return paths


def _cannot_replace(path: Path) -> str | None:
    """Why ``path`` could not be replaced by a new file beside it, in words; ``None`` when it can."""
    if (blocked := unwritable(path.parent)) is not None:
        return f"{blocked[1]} ({blocked[0]})"
    return f"{path} (read-only)" if path.exists() and not os.access(path, os.W_OK) else None


def refresh_notebooks(names: list[str] | None = None, folder=DEFAULT_NOTEBOOKS_DIR) -> int:
    """``refresh``: re-execute with defaults and replace each committed notebook on success.

    Parameters
    ----------
    names : list of str, optional
        Paths, or names or stems in ``folder``; every numbered notebook when empty.
    folder : path-like
        Where the numbered notebooks are.

    Returns
    -------
    int
        The exit status: 0 when each notebook was refreshed and ``check`` finds nothing wrong
        with it, 1 otherwise (a failed notebook is left unchanged), 2 for an unknown name.
    """
    folder = Path(folder).resolve()
    try:
        targets = resolve(names, folder) if names else numbered_notebooks(folder)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not targets:
        print(f"no numbered notebooks in {folder}", file=sys.stderr)
        return 1
    blocked = sorted({where for src in targets if (where := _cannot_replace(src))})
    if blocked:  # refused before any notebook runs for minutes only to be thrown away
        print("error: refresh replaces each notebook in place, and cannot write " + "; ".join(blocked)
              + ": make the notebooks and their folder writable (or copy them to a writable folder and pass "
              "--notebooks-dir), then run it again", file=sys.stderr)
        return 1
    failed = 0
    for src in targets:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="refresh-") as tmp:
            clean = Path(tmp) / src.name  # without a stale injected cell (its values would be reused)
            write_notebook(normalize(nbformat.read(src, as_version=4)), clean)
            try:
                nb = execute_notebook(clean, Path(tmp) / f"out-{src.name}", cwd=src.parent)
            except Exception as exc:
                print(f"{src.name:<45} FAILED, left unchanged: {describe_failure(exc)}", file=sys.stderr)
                failed += 1
                continue
        write_notebook(normalize(nb), src)
        print(f"{src.name:<45} {time.perf_counter() - start:7.1f} s  refreshed", flush=True)
        for problem in problems(src):  # e.g. a warning on stderr: `check` will refuse it
            print(f"{src.name}: {problem}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


# --------------------------------------------------------------------------------------
# check


def _output_problems(i: int, cell) -> list[str]:
    """The error and stderr outputs of code cell ``i``, in words."""
    found = []
    for output in cell.outputs:
        if output.output_type == "error":
            found.append(f"cell {i} holds an error output ({output.ename}: {output.evalue[:80]})")
        elif output.output_type == "stream" and output.name == "stderr":
            found.append(f"cell {i} holds stderr output: {output.text.strip()[:80]!r}")
    return found


def problems(path) -> list[str]:
    """What ``check`` finds wrong with a committed notebook (an empty list: nothing).

    Parameters
    ----------
    path : path-like
        The notebook file.

    Returns
    -------
    list of str
        One readable sentence per problem: unexecuted code cells, execution counts other
        than 1..n in order, error or stderr outputs, injected-parameters cells, and
        whether normalization would change the notebook.
    """
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:  # noqa: BLE001 - not JSON, or JSON nbformat cannot read: every kind is a problem to report
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        return [f"cannot be read as a notebook ({first[:120]}); restore it (git checkout -- {Path(path).name} in "
                "its folder) or remove it"]
    found, counts, unexecuted = [], [], []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if "injected-parameters" in cell.metadata.get("tags", []):
            found.append(f"cell {i} is a papermill injected-parameters cell")
        if cell.execution_count is not None:
            counts.append(cell.execution_count)
        elif cell.source.strip():
            unexecuted.append(i)
        found += _output_problems(i, cell)
    if unexecuted:
        found.append(f"code cells {unexecuted} (indices among all cells) were not executed")
    if counts != list(range(1, len(counts) + 1)):
        found.append(f"execution counts are not 1..{len(counts)} in order: {counts}")
    found += [f"not normalized: {change}" for change in _normalization_changes(nb)]
    return found


def _normalization_changes(nb: nbformat.NotebookNode) -> list[str]:
    """What ``normalize`` would change in ``nb``, in words."""
    norm = normalize(nb)
    changes = []
    if nb.metadata.get("kernelspec") != norm.metadata["kernelspec"]:
        changes.append(f"kernelspec {nb.metadata.get('kernelspec')} is not {KERNELSPEC}")
    elif nb.metadata != norm.metadata:
        changes.append("notebook metadata holds run data (papermill or language_info.version)")
    if len(nb.cells) != len(norm.cells):
        changes.append("holds papermill injected-parameters or error-banner cells")
    elif any(a.metadata != b.metadata for a, b in zip(nb.cells, norm.cells)):
        changes.append(f"cell metadata holds run data (one of {', '.join(DROP_CELL_METADATA)})")
    return changes


def check_notebooks(folder=DEFAULT_NOTEBOOKS_DIR) -> int:
    """``check``: the exit status, 0 when there are numbered notebooks and none has a :func:`problems`.

    Each problem is printed on stderr as ``check: NAME: problem``, with the command that fixes it.
    """
    folder = Path(folder).resolve()
    notebooks = numbered_notebooks(folder)
    if not notebooks:
        print(f"check: no numbered notebooks (NN_*.ipynb) in {folder}", file=sys.stderr)
        return 1
    bad = [(path.name, problem) for path in notebooks for problem in problems(path)]
    for name, problem in bad:
        print(f"check: {name}: {problem}", file=sys.stderr)
    if bad:
        print("fix the cause, then: make notebooks NB=notebooks/<name>.ipynb", file=sys.stderr)
        return 1
    print(f"checked {len(notebooks)} notebooks")
    return 0
