"""Downloading Reuters-21578 (:func:`helpers.data.reuters.load_reuters21578` calls it when the archive is absent).

A :func:`pooch.create` store on the raw-data folder fetches the archive with pooch's HTTP or FTP
downloader: a timeout for every read, a deadline for every attempt (a server that trickles
bytes never trips the timeout), retries after a timeout, a refused or broken connection or a
server error (pooch's ``retry_if_failed``), none after a 4xx answer, a redirect loop, the
deadline or a full disk. The file is checked (a readable archive, the SGML files' SHA-256) in
pooch's temporary file and kept only when it passes, so a failed or interrupted download leaves
nothing a later load would trust.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import urllib.parse
import warnings
from contextlib import contextmanager
from pathlib import Path

from .._io import progress_bar
from .reuters_sgml import ARCHIVE_NAME, REUTERS_URL, check_sgml_files, read_sgml_files

__all__ = ["ENV_VAR", "SCHEMES", "ReutersNotFoundError", "download_archive"]

#: the environment variable naming the archive (or its unpacked folder)
ENV_VAR = "REUTERS21578_PATH"


class ReutersNotFoundError(FileNotFoundError, ValueError):
    """The archive is neither where we looked nor downloadable (offline)."""


SCHEMES = ("http", "https", "ftp")

#: errors of the local disk, never of the network: not retried, reported as the folder's
_LOCAL_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)


class _Retry(ValueError):
    """A failed attempt worth another: pooch's ``retry_if_failed`` loop tries again on a ValueError."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


class _Stop(Exception):
    """A failure no further attempt can mend (a 404, a full disk, a file failing its checks); pooch lets it through."""

    def __init__(self, error: BaseException, stage: str):
        super().__init__(str(error))
        self.error, self.stage = error, stage


def _import_pooch():
    """pooch, without the "IProgress not found" warning its ``tqdm.auto`` gives in a kernel lacking ipywidgets."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found")
        import pooch
    return pooch


def _pooch_downloader(url: str, timeout: float, bar):
    """pooch's HTTP or FTP downloader with ``timeout`` and our progress bar (``False`` when hidden)."""
    pooch = _import_pooch()

    progress = False if bar.disable else bar
    if urllib.parse.urlsplit(url).scheme == "ftp":
        return pooch.FTPDownloader(timeout=timeout, progressbar=progress, chunk_size=1 << 16)
    return pooch.HTTPDownloader(timeout=timeout, progressbar=progress, chunk_size=1 << 16)


class _DeadlinePassed(TimeoutError):
    """An attempt that was still receiving when its overall deadline passed (a server trickling bytes)."""


def _within(get, deadline: float):
    """``get`` (a pooch downloader) run in a thread of its own, given at most ``deadline`` seconds in all.

    The per-request ``timeout`` catches a server that stops sending; this catches one that sends a
    byte now and then for ever. The thread is left to end with its connection (a daemon thread:
    it never holds the process); pooch deletes the temporary file it was writing.
    """
    def fetch(url, output_file, pup):
        outcome: list = []

        def attempt():
            try:
                get(url, output_file, pup)
                outcome.append(None)
            except BaseException as exc:  # handed to the caller's thread
                outcome.append(exc)

        worker = threading.Thread(target=attempt, daemon=True, name="reuters-download")
        worker.start()
        worker.join(deadline)
        if worker.is_alive():
            raise _DeadlinePassed(f"the download was still running after {deadline:g} s, the deadline of one "
                                  "attempt: the server sends too slowly")
        if outcome and outcome[0] is not None:
            raise outcome[0]

    return fetch


def _why(exc: BaseException, timeout: float) -> str:
    """A download failure in words."""
    import requests

    if isinstance(exc, _DeadlinePassed):
        return str(exc)
    if isinstance(exc, requests.Timeout) or isinstance(exc, TimeoutError):
        return f"the server sent nothing for {timeout:g} s (timed out: {exc})"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return f"the connection broke before the whole file arrived, the body was cut short ({exc})"
    if isinstance(exc, requests.HTTPError):
        return f"the server answered {exc}"
    if isinstance(exc, requests.TooManyRedirects):
        return (f"the server redirects in a loop ({exc}): the address is wrong or the site has moved; open it in a "
                "browser to see where it leads")
    return f"{type(exc).__name__}: {exc}"


def _worth_retrying(exc: BaseException) -> bool:
    """Timeouts, refused or reset connections and bodies cut short may pass next time; a 4xx answer or a redirect
    loop will not."""
    import requests

    if isinstance(exc, requests.HTTPError):
        return exc.response is None or exc.response.status_code >= 500
    if isinstance(exc, requests.TooManyRedirects):  # a redirect loop loops again
        return False
    return getattr(exc, "errno", None) not in _LOCAL_ERRNOS


@contextmanager
def _quiet_pooch():
    """Silence pooch's log lines ("Downloading file ...") while we fetch: our progress bar and errors speak."""
    pooch = _import_pooch()

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def _downloader(checksums, verbose, downloader, timeout: float, label: str, state: dict, deadline: float):
    """The downloader handed to pooch: one attempt, then the checks of a load on pooch's temporary file.

    It sorts failures for pooch's retry loop: a :class:`_Retry` (a ValueError) is tried again, a
    :class:`_Stop` goes straight through. The SGML files of an archive that passes are kept in
    ``state["files"]``, so the load does not read them a second time.
    """

    def fetch(url, output_file, pup):
        state["attempts"] += 1
        try:
            with progress_bar(total=1, unit="B", unit_scale=True, desc=ARCHIVE_NAME, progress=verbose) as bar:
                get = downloader if downloader is not None else _pooch_downloader(url, timeout, bar)
                _within(get, deadline)(url, output_file, pup)
        except _DeadlinePassed as exc:  # as slow next time: not retried
            raise _Stop(exc, "download") from exc
        except OSError as exc:  # requests' errors are OSErrors
            response = getattr(exc, "response", None)
            if response is not None:  # pooch streams the body: an error answer's connection is left open
                response.close()
            raise (_Retry(exc) if _worth_retrying(exc) else _Stop(exc, "download")) from exc
        except ValueError as exc:  # a downloader's own error: not pooch's to retry
            raise _Stop(exc, "download") from exc
        try:
            files = read_sgml_files(output_file, label=label)
            check_sgml_files(files, checksums, label)
        except ValueError as exc:
            raise _Stop(exc, "check") from exc
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(output_file, 0o666 & ~umask)  # the mode open() would give, not the temporary file's 0600
        state["files"] = files

    return fetch


def download_archive(url, dest: Path, *, checksums, verbose, downloader, timeout: float, retries: int,
              deadline: float) -> dict[str, bytes]:
    """Fetch ``url`` onto ``dest`` through a :func:`pooch.create` store on ``dest``'s folder; the SGML files read.

    pooch downloads into a temporary file beside ``dest`` and moves it onto ``dest`` only when
    our downloader returns, that is when the file passed the checks of a load: a readable
    archive (a body cut short fails here even without a Content-Length), SGML files present,
    and their SHA-256 (``checksums``). Any failure, or Ctrl-C, deletes the temporary file.

    The store has no ``env=``: pooch's variable would name the folder to download into, while
    ``REUTERS21578_PATH`` names the archive itself (or its unpacked folder) and is read before
    this is called; ``raw_dir=`` chooses the folder.
    """
    pooch = _import_pooch()

    manual = (
        f"Download {ARCHIVE_NAME} on a machine with network access from {REUTERS_URL} and put it at "
        f"{dest}, or set {ENV_VAR} to its path."
    )
    label = f"the archive downloaded from {url}"
    state = {"attempts": 0, "files": None}
    store = pooch.create(
        path=dest.parent,
        base_url=url.rsplit("/", 1)[0],
        registry={dest.name: None},  # no archive hash: a mirror may pack the same SGML files differently
        urls={dest.name: url},
        retry_if_failed=retries,
    )
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        with _quiet_pooch():
            store.fetch(dest.name, downloader=_downloader(checksums, verbose, downloader, timeout, label, state,
                                                          deadline))
    except (_Retry, _Stop) as failed:
        exc, attempts = failed.error, state["attempts"]
        if isinstance(failed, _Stop) and failed.stage == "check":
            raise ValueError(f"{exc} It was not kept (nothing was written to {dest.parent}). {manual}") from exc
        if getattr(exc, "errno", None) in _LOCAL_ERRNOS:
            raise _folder_error(exc, dest, manual) from exc
        if not isinstance(exc, OSError):
            raise exc from None
        raise ReutersNotFoundError(
            f"{ARCHIVE_NAME} is not at {dest} and downloading it from {url} failed "
            f"({attempts} attempt{'s' if attempts > 1 else ''}; {_why(exc, timeout)}). {manual}"
        ) from exc
    except OSError as exc:  # the folder: missing rights, a file in its place, a full disk
        raise _folder_error(exc, dest, manual) from exc
    return state["files"]


def _folder_error(exc: OSError, dest: Path, manual: str) -> OSError:
    """A folder that cannot take the download: a full disk keeps its errno, the rest becomes a PermissionError."""
    full = getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT)
    fix = "Free space there" if full else "Make the folder writable"
    message = (f"Cannot write the download to {dest.parent} ({type(exc).__name__}: {exc}). {fix}, pass raw_dir= "
               f"a writable folder with room for it, or {manual[0].lower()}{manual[1:]}")
    return OSError(exc.errno, message) if full else PermissionError(message)
