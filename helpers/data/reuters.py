"""Reuters-21578 (Distribution 1.0): find the archive, or download it through pooch, and load it as a table.

:func:`load_reuters21578` looks for ``reuters21578.tar.gz`` (an explicit path, then the
environment variable ``REUTERS21578_PATH``, then ``data/raw/``). When it is absent it is
downloaded from the UCI KDD archive by a :func:`pooch.create` store on ``data/raw/``
(``retry_if_failed``: timeouts, refused or broken connections and server errors are tried
again; every request has a timeout). pooch streams the file into a temporary file beside its
place; there the SHA-256 of each of its 22 SGML files is checked, and pooch moves it into
place only when they pass, so a failed, rejected or interrupted download leaves nothing
behind. The parsed table is cached under ``data/processed/``, keyed by the archive's checksum,
the checksum table it passed and the parser's cache version; a bad cache is reported, deleted
and rebuilt. :func:`read_archive_member` reads any other file of the distribution.

The files themselves (names, checksums, SGML parsing, the archive's members) are
:mod:`helpers.data.reuters_sgml`'s; the splits (ModApte, top-k categories, the 90 categories
with a training and a test document, single-label subsets) are
:mod:`helpers.data.reuters_splits`'s. Both are re-exported here.
"""

from __future__ import annotations

import hashlib
import os
import urllib.parse
import warnings
from pathlib import Path

import pandas as pd

from .._io import atomic_path, progress_bar
from .._validation import check_int, check_real
from .paths import PROCESSED_DIR, RAW_DIR
from .reuters_download import ENV_VAR, SCHEMES, ReutersNotFoundError, download_archive
from .reuters_sgml import (
    ARCHIVE_NAME,
    ARCHIVE_SHA256,
    REUTERS_URL,
    SGML_SHA256,
    archive_key,
    check_sgml_files,
    parse_sgml,
    read_member,
    read_sgml_files,
)
from .reuters_splits import (
    SETTINGS,
    categories_with_train_and_test,
    class_counts,
    make_setting,
    modapte_split,
    restrict_to_categories,
    single_label,
    top_categories,
)

__all__ = [
    "ARCHIVE_NAME",
    "ARCHIVE_SHA256",
    "COLUMNS",
    "ENV_VAR",
    "REUTERS_URL",
    "SGML_SHA256",
    "ReutersNotFoundError",
    "load_reuters21578",
    "read_archive_member",
    "parse_sgml",
    "modapte_split",
    "top_categories",
    "categories_with_train_and_test",
    "restrict_to_categories",
    "single_label",
    "class_counts",
    "make_setting",
    "SETTINGS",
]

# 3: topics is each document's topic set (first appearance order), topics_listed as printed;
# 4: the cache file holds a dict repeating the version, the archive's SHA-256 and the checksum tag.
_CACHE_VERSION = 4

#: The columns of the table :func:`load_reuters21578` returns.
COLUMNS = ["id", "date", "lewissplit", "cgisplit", "topics_attr", "topics", "topics_listed", "title", "body", "file"]


# --------------------------------------------------------------------------- finding it
def _locate(path, raw_dir: Path) -> tuple[Path | None, str]:
    """Where the archive is and where that came from (``"path"``, ``"env"``, ``"raw"``); ``None`` when absent."""
    if path is not None:
        p = Path(path).expanduser()
        if not p.exists():
            raise ReutersNotFoundError(
                f"No Reuters-21578 archive or folder at {p}. Pass the path of {ARCHIVE_NAME} (or of the "
                f"folder holding reut2-000.sgm ... reut2-021.sgm); get it from {REUTERS_URL}."
            )
        return p, "path"
    env = os.environ.get(ENV_VAR)
    if env:
        p = Path(env).expanduser()
        if not p.exists():
            raise ReutersNotFoundError(
                f"{ENV_VAR}={env} but nothing is there. Point it at {ARCHIVE_NAME} (from {REUTERS_URL}) "
                "or at the folder holding its SGML files, or unset it to use data/raw/."
            )
        return p, "env"
    for candidate in (raw_dir / ARCHIVE_NAME, raw_dir / "reuters21578"):
        if candidate.exists():
            return candidate, "raw"
    return None, "raw"


def _with_env(exc: Exception) -> Exception:
    """``exc`` again, with a word on ``REUTERS21578_PATH``, which named the file."""
    return type(exc)(f"{exc} ({ENV_VAR}={os.environ.get(ENV_VAR)} points at it: fix that file or folder, "
                     "point the variable at an intact copy, or unset it to use data/raw/.)")


def _verification_tag(checksums: dict[str, str] | None) -> str:
    """Part of the cache name: which checksum table the cached table passed (``unverified``: none).

    A table parsed with ``checksums=None`` is cached under a different name, so a later
    verified load never returns it unchecked.
    """
    if checksums is None:
        return "unverified"
    table = "".join(f"{name}={digest};" for name, digest in sorted(checksums.items()))
    return "sha" + hashlib.sha256(table.encode()).hexdigest()[:8]


# --------------------------------------------------------------------------- the parse cache
_CACHE_FORMAT = "helpers.data.reuters parse cache"


def _discard_cache(cache_file: Path, why: str) -> None:
    try:
        cache_file.unlink()
        done = "deleted it; parsing the archive again"
    except OSError as exc:
        done = f"could not delete it ({exc}), delete it by hand; parsing the archive again"
    warnings.warn(f"The Reuters-21578 parse cache {cache_file} {why}: {done}.", UserWarning, stacklevel=4)


def _read_cache(cache_file: Path, key: str, tag: str) -> pd.DataFrame | None:
    """The cached table, or ``None``: absent, unreadable, or not written by this parser version for this archive.

    A cache is derived data: a bad one is reported, deleted and rebuilt, never returned.
    """
    if not os.path.lexists(cache_file):
        return None
    try:
        payload = pd.read_pickle(cache_file)
    except Exception as exc:  # noqa: BLE001 - whatever broke a derived file, rebuilding it is the answer
        _discard_cache(cache_file, f"cannot be read ({type(exc).__name__}: {exc})")
        return None
    expected = {"format": _CACHE_FORMAT, "version": _CACHE_VERSION, "archive": key, "verification": tag}
    found = {k: payload.get(k) for k in expected} if isinstance(payload, dict) else type(payload).__name__
    table = payload.get("table") if isinstance(payload, dict) else None
    if found != expected or not isinstance(table, pd.DataFrame) or table.columns.tolist() != COLUMNS:
        _discard_cache(cache_file, f"was not written by this parser (cache version {_CACHE_VERSION}) for this "
                                   f"archive (it holds {found})")
        return None
    return table


def _write_cache(cache_file: Path, key: str, tag: str, df: pd.DataFrame) -> None:
    """Write the cache atomically; a folder that cannot take it costs a warning, never the parsed table."""
    payload = {"format": _CACHE_FORMAT, "version": _CACHE_VERSION, "archive": key, "verification": tag, "table": df}
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(cache_file) as tmp:
            pd.to_pickle(payload, tmp)
        for older in cache_file.parent.glob(f"reuters21578-{key[:16]}-{tag}-v*.pkl"):  # replaced: never read again
            if older != cache_file:
                older.unlink(missing_ok=True)
    except OSError as exc:
        warnings.warn(
            f"Could not write the Reuters-21578 parse cache in {cache_file.parent} ({type(exc).__name__}: {exc}); "
            "the table is returned uncached and the next load parses the archive again. Make that folder "
            "writable, pass cache_dir= a writable folder, or cache=False.",
            UserWarning,
            stacklevel=3,
        )


# --------------------------------------------------------------------------- arguments
def _check_pathlike(value, name: str) -> None:
    if value is not None and not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or pathlib.Path) or None; got {type(value).__name__} {value!r}.")


def _check_arguments(*, path, url, checksums, cache, raw_dir, cache_dir, downloader, timeout, retries,
                     deadline) -> None:
    """Refuse bad arguments before any file is read or any byte downloaded."""
    for value, name in ((path, "path"), (raw_dir, "raw_dir"), (cache_dir, "cache_dir")):
        _check_pathlike(value, name)
    if url is not None:
        if not isinstance(url, str):
            raise TypeError(f"url must be a str or None (no download); got {type(url).__name__} {url!r}.")
        scheme = urllib.parse.urlsplit(url).scheme
        if downloader is None and scheme not in SCHEMES:
            raise ValueError(
                f"url must start with http://, https:// or ftp://; got {url!r}. For a file on this machine pass "
                f"its path instead (load_reuters21578(path=...)), or set {ENV_VAR}."
            )
    if checksums is not None and not (
        isinstance(checksums, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in checksums.items())
    ):
        raise TypeError(
            "checksums must be a dict {SGML file name: SHA-256 hex digest} (default SGML_SHA256) or None "
            f"(no check); got {type(checksums).__name__}."
        )
    if not isinstance(cache, bool):
        raise TypeError(f"cache must be True or False; got {cache!r}.")
    if downloader is not None and not callable(downloader):
        raise TypeError(
            "downloader must be callable as downloader(url, output_file, pooch) (e.g. pooch.HTTPDownloader(...)) "
            f"or None; got {type(downloader).__name__}."
        )
    check_real(timeout, "timeout", "timeout=60", low=0, closed="neither", why="seconds per request")
    check_real(deadline, "deadline", "deadline=1800", low=0, closed="neither", why="seconds for one whole attempt")
    check_int(retries, "retries", 0, "retries=2", why="0: one attempt")


def load_reuters21578(
    path=None,
    *,
    url: str | None = REUTERS_URL,
    checksums: dict[str, str] | None = SGML_SHA256,
    cache: bool = True,
    raw_dir=None,
    cache_dir=None,
    verbose: bool | None = None,
    downloader=None,
    timeout: float = 60.0,
    retries: int = 2,
    deadline: float = 1800.0,
) -> pd.DataFrame:
    """The Reuters-21578 collection as a tidy table, one row per ``<REUTERS>`` record.

    Parameters
    ----------
    path : str or Path, optional
        ``reuters21578.tar.gz`` or a folder holding the SGML files. Default: the environment
        variable ``REUTERS21578_PATH``, then ``data/raw/reuters21578.tar.gz`` (or
        ``data/raw/reuters21578/``), else a download from ``url`` into ``data/raw/``.
    url : str or None
        Where to download from when the archive is absent (http, https or ftp); ``None``
        forbids downloading.
    checksums : dict or None
        Expected SHA-256 per SGML file (default: the 22 files of the distribution);
        ``None`` skips the check (for test fixtures).
    cache : bool
        Read/write the parsed table in ``cache_dir`` (default ``data/processed/``) under a
        name holding the archive's SHA-256, the checksum table it was verified against (or
        ``unverified``) and the parser's cache version; the file repeats all three and a
        load returns it only when they match. A cache that cannot be read or does not
        match is deleted with a warning and rebuilt; a folder that cannot take the cache
        costs a warning, not the table.
    raw_dir, cache_dir : str or Path, optional
        Override ``data/raw/`` and ``data/processed/``.
    verbose : bool or None
        Progress bars for download and parsing; ``None`` shows them only on a terminal;
        ``TQDM_DISABLE=1`` silences them in every case.
    downloader : callable, optional
        ``downloader(url, output_file, pooch)``, pooch's protocol (e.g.
        ``pooch.HTTPDownloader(headers=...)``). Default: pooch's HTTP or FTP downloader
        with ``timeout``. Either is called by the :func:`pooch.create` store on ``raw_dir``.
    timeout : float, default=60
        Seconds to wait for the server to connect or to send the next bytes.
    retries : int, default=2
        Further attempts (pooch's ``retry_if_failed``) after a timeout, a refused or broken
        connection or a server error (5xx), 1 s, then 2 s, ... apart (pooch's schedule, at
        most 10 s); a 404, a full disk or a file failing its checks is not retried.
    deadline : float, default=1800
        Seconds one attempt may take in all (the 8 MB archive in 30 minutes is 4.6 kB/s): a
        server that keeps sending a byte now and then never trips ``timeout``. An attempt cut
        off here is not retried.

    Returns
    -------
    DataFrame
        Columns ``id`` (NEWID), ``date``, ``lewissplit`` (TRAIN/TEST/NOT-USED), ``cgisplit``,
        ``topics_attr`` (the TOPICS attribute), ``topics`` (the document's topics, each once),
        ``topics_listed`` (the ``<D>`` entries as printed), ``title``, ``body``, ``file``;
        sorted by ``id``. The full collection has 21,578 rows.

    Raises
    ------
    ReutersNotFoundError
        (a ``FileNotFoundError`` and ``ValueError``) when the archive is absent and cannot
        be downloaded; the message names the URL, the cause, and where to put the archive.
    ValueError
        A truncated or corrupt archive, checksum mismatch, missing SGML files, truncated or
        malformed records, unsafe archive member names, duplicate NEWIDs. A download is
        checked in its temporary file and moved into ``data/raw/`` only when it passes, so
        a failed or interrupted download leaves nothing behind.
    PermissionError
        An archive that cannot be read, or a ``raw_dir`` that cannot take the download.
    TypeError
        Arguments of the wrong type (checked before any work).

    Examples
    --------
    >>> import tarfile, tempfile, io, pathlib
    >>> sgml = (b'<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" NEWID="1">'
    ...         b'<TOPICS><D>earn</D></TOPICS><TEXT><TITLE>T</TITLE><BODY>b</BODY></TEXT></REUTERS>')
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with tarfile.open(d / "r.tar.gz", "w:gz") as tar:
    ...     info = tarfile.TarInfo("reut2-000.sgm"); info.size = len(sgml)
    ...     tar.addfile(info, io.BytesIO(sgml))
    >>> df = load_reuters21578(d / "r.tar.gz", checksums=None, cache=False)
    >>> df[["id", "lewissplit", "topics"]].values.tolist()
    [[1, 'TRAIN', ['earn']]]
    """
    _check_arguments(path=path, url=url, checksums=checksums, cache=cache, raw_dir=raw_dir, cache_dir=cache_dir,
                     downloader=downloader, timeout=timeout, retries=retries, deadline=deadline)
    raw_dir = Path(raw_dir).expanduser() if raw_dir is not None else RAW_DIR
    cache_dir = Path(cache_dir).expanduser() if cache_dir is not None else PROCESSED_DIR
    source, origin = _locate(path, raw_dir)
    files = None
    if source is None:
        source = raw_dir / ARCHIVE_NAME
        if url is None:
            raise ReutersNotFoundError(
                f"{ARCHIVE_NAME} not found. Put it at {source} (or set {ENV_VAR} to its path); "
                f"get it from {REUTERS_URL}."
            )
        files = download_archive(url, source, checksums=checksums, verbose=verbose, downloader=downloader,
                          timeout=timeout, retries=retries, deadline=deadline)

    try:
        key = archive_key(source)
    except (ValueError, PermissionError) as exc:
        if origin == "env":
            raise _with_env(exc) from exc
        raise
    tag = _verification_tag(checksums)
    cache_file = cache_dir / f"reuters21578-{key[:16]}-{tag}-v{_CACHE_VERSION}.pkl"
    if cache and (df := _read_cache(cache_file, key, tag)) is not None:
        return df

    if files is None:
        try:
            files = read_sgml_files(source)
            check_sgml_files(files, checksums, source)
        except (ValueError, PermissionError) as exc:
            if origin == "env":
                raise _with_env(exc) from exc
            raise

    rows = []
    for name in progress_bar(sorted(files), desc="parsing SGML", progress=verbose):
        for rec in parse_sgml(files[name].decode("latin-1"), source=name):
            rec["file"] = name
            rows.append(rec)
    df = pd.DataFrame.from_records(rows, columns=COLUMNS)
    dupes = df["id"][df["id"].duplicated()]
    if len(dupes):
        raise ValueError(f"{source}: NEWID {int(dupes.iloc[0])} occurs more than once; the files are corrupt.")
    df = df.sort_values("id", ignore_index=True)
    if cache:
        _write_cache(cache_file, key, tag, df)
    return df


def read_archive_member(name: str, path=None, raw_dir=None) -> bytes:
    """The bytes of one file of the distribution (``README.txt``, ``all-topics-strings.lc.txt``, an SGML file).

    The archive is found as :func:`load_reuters21578` finds it (``path``, then
    ``REUTERS21578_PATH``, then ``data/raw/``), never downloaded.

    Raises
    ------
    ReutersNotFoundError
        No archive or folder where it was looked for.
    ValueError
        ``name`` is not in the archive (the message lists what is), or the archive is
        truncated or corrupt.

    Examples
    --------
    >>> import io, tarfile, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with tarfile.open(d / "r.tar.gz", "w:gz") as tar:
    ...     info = tarfile.TarInfo("README.txt"); info.size = 5
    ...     tar.addfile(info, io.BytesIO(b"hello"))
    >>> read_archive_member("README.txt", d / "r.tar.gz")
    b'hello'
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a file name such as 'README.txt'; got {name!r}.")
    _check_pathlike(path, "path")
    _check_pathlike(raw_dir, "raw_dir")
    raw_dir = Path(raw_dir).expanduser() if raw_dir is not None else RAW_DIR
    source, origin = _locate(path, raw_dir)
    if source is None:
        raise ReutersNotFoundError(
            f"{ARCHIVE_NAME} not found. Put it at {raw_dir / ARCHIVE_NAME} (or set {ENV_VAR} to its path); "
            f"get it from {REUTERS_URL}, or run load_reuters21578(), which downloads it."
        )
    try:
        return read_member(source, name)
    except (ValueError, PermissionError) as exc:
        if origin == "env":
            raise _with_env(exc) from exc
        raise
