"""Plumbing shared by every layer (it imports only the other plumbing): atomic files, output folders, progress bars.

The one atomic writer of the workbook: loaders, caches, results files, sweeps and the
notebook runner all write through :func:`atomic_path` / :func:`atomic_open`.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


def unwritable(out, subfolders=()) -> tuple[str, Path] | None:
    """Why a command could not write into the folder ``out``: ``(problem, path)``, or ``None``; creates nothing.

    ``problem`` is ``"file"`` (``out``, or one of the ``subfolders`` the command writes inside it,
    is a file), ``"under a file"`` (a folder above ``out`` that would have to be made is a file)
    or ``"not writable"`` (the nearest existing folder does not let files be created); ``path``
    is the path at fault. The one output-folder check of the workbook's commands.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "taken").write_text("")
    ...     unwritable(Path(folder) / "new" / "out") is None, unwritable(Path(folder) / "taken")[0]
    (True, 'file')
    """
    out = Path(out)
    for sub in (out, *(out / name for name in subfolders)):
        if sub.exists() and not sub.is_dir():
            return "file", sub
    base = out
    while not base.exists() and base != base.parent:
        base = base.parent
    if not base.is_dir():
        return "under a file", base
    if not os.access(base, os.W_OK | os.X_OK):
        return "not writable", base
    return None


@contextmanager
def atomic_path(dest, suffix: str = ".tmp"):
    """A temporary path beside ``dest``, renamed onto it when the block succeeds.

    Readers never see a half-written ``dest``: an exception (or Ctrl-C) deletes the
    temporary file and leaves ``dest`` as it was. The file gets the mode a plain
    ``open(dest, "w")`` would give (0666 minus the umask), not ``mkstemp``'s 0600. Where
    ``dest`` is a symbolic link, the file it points to is replaced and the link kept, as
    ``open(dest, "w")`` would.

    Examples
    --------
    >>> import json, tempfile
    >>> dest = Path(tempfile.mkdtemp()) / "r.json"
    >>> with atomic_path(dest) as tmp:
    ...     _ = tmp.write_text(json.dumps({"a": 1}))
    >>> dest.read_text()
    '{"a": 1}'
    """
    dest = Path(dest)
    if dest.is_symlink():
        dest = dest.resolve()   # write what the link points to; the link stays
    try:
        fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=suffix)
    except OSError as exc:  # named by the file meant, not by the temporary name nobody asked for
        raise type(exc)(exc.errno, exc.strerror, str(dest)) from None
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_open(dest, mode: str = "w", suffix: str = ".tmp", encoding: str | None = None):
    """``open`` on a temporary file that replaces ``dest`` when the block succeeds (:func:`atomic_path`)."""
    with atomic_path(dest, suffix) as tmp, open(tmp, mode, encoding=encoding) as fh:
        yield fh


def progress_bar(iterable=None, progress: bool | None = None, **kwargs):
    """A plain tqdm bar: ``progress=True`` shows it, ``False`` hides it, ``None`` shows it on a terminal only.

    ``TQDM_DISABLE=1`` hides it in every case: tqdm itself lets an explicit ``disable=False``
    override that variable, so it is checked here (the Makefile sets it, keeping stored
    notebook outputs free of bar text). In a command line, which sets it for the kernels and
    workers it starts, the caller's value decides instead (:func:`helpers._environment.own_bars_hidden`).
    Plain ``tqdm``, not ``tqdm.auto``, which warns in kernels without ipywidgets.
    """
    from tqdm import tqdm

    from ._environment import own_bars_hidden

    disable = None if progress is None else not progress
    if own_bars_hidden():
        disable = True
    return tqdm(iterable, disable=disable, **kwargs)
