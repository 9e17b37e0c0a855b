"""Reuters-21578 (Distribution 1.0): find or download the archive, parse its SGML, split it.

The collection ships as ``reuters21578.tar.gz`` with 22 SGML files ``reut2-000.sgm`` ...
``reut2-021.sgm`` (21,578 ``<REUTERS>`` records). The files are Latin-1 and not valid XML
(bodies hold character references such as ``&#3;``), so they are parsed leniently with
regular expressions, record by record, and every record must be complete.

:func:`load_reuters21578` looks for the archive (an explicit path, then the environment
variable ``REUTERS21578_PATH``, then ``data/raw/``), downloads it from the UCI KDD archive
when it is absent (pooch's downloader, with a timeout and retries; the file is checked in a
temporary file and moved into ``data/raw/`` only when it passes), checks the SHA-256 of every
SGML file, and caches the parsed table under ``data/processed/`` keyed by the archive's
checksum, the checksum table it passed and the parser's cache version. A truncated or
corrupt archive is an error naming the file; a bad cache is reported, deleted and rebuilt.
The split helpers give the ModApte split, the top-k categories, the 90 categories with a
training and a test document, and single-label subsets (R8).

References
----------
.. [1] D. D. Lewis (1997), Reuters-21578 text categorization test collection, Distribution
   1.0, README.txt (the ModApte split: LEWISSPLIT and TOPICS="YES").
.. [2] Y. Yang & X. Liu (1999), A re-examination of text categorization methods, SIGIR
   (the 90 categories with at least one training and one test document).
"""

from __future__ import annotations

import errno
import hashlib
import html
import os
import re
import tarfile
import time
import urllib.parse
import warnings
import zlib
from collections import Counter
from pathlib import Path, PurePosixPath

import numpy as np
import pandas as pd

from .._io import atomic_path, progress_bar
from .paths import PROCESSED_DIR, RAW_DIR

__all__ = [
    "ARCHIVE_SHA256",
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

REUTERS_URL = "https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz"
ARCHIVE_NAME = "reuters21578.tar.gz"
ENV_VAR = "REUTERS21578_PATH"
# 3: topics is each document's topic set (first appearance order), topics_listed as printed;
# 4: the cache file holds a dict repeating the version, the archive's SHA-256 and the checksum tag.
_CACHE_VERSION = 4

#: SHA-256 of ``reuters21578.tar.gz`` as copied to ``../shared/data`` (its 22 SGML files match
#: SGML_SHA256). The archive served by the UCI KDD site may be packed differently (another
#: gzip header gives other bytes for the same files), so a download is accepted on the SGML
#: checksums, not on this one.
ARCHIVE_SHA256 = "fbf670c73658e98eb7b6fb939b2264e92749c5dd8038776427040fbdb8a02177"

#: SHA-256 of each SGML file of the distribution (``../shared/data/README.md``).
SGML_SHA256 = {
    "reut2-000.sgm": "9ff9bb40624ef992a03f62aace12e697dca1087abfd9b4d06aa787a6ad3e0687",
    "reut2-001.sgm": "1528e7e82d110d88d0234eb9619eadb7f9fd805711971df05975b92277dfdf4d",
    "reut2-002.sgm": "99f18068d0518952987dedd78c622e5c2a584e357d264d3754696c815f3e6628",
    "reut2-003.sgm": "78a3a8d7e04bc9d42c4614d5d5c60a4293dbe3f708df6fb5a71d9ef31f4b3fa3",
    "reut2-004.sgm": "726342c19a65873330b412378cd6a3f0d512035f5223146ddd60930c62eb6ff0",
    "reut2-005.sgm": "d09de619b6dd2d047d5124681f6df90550abaf592020d1c1ce338ae9b91522e7",
    "reut2-006.sgm": "b5535c0d66b01f4976f84621a4a795afbc00d2c4bd0a1b7ae426df6630fb361d",
    "reut2-007.sgm": "aa706007ec84a03537a3921ca976d60e11b3f99e4b9e9b2d5c81dd384d2c2062",
    "reut2-008.sgm": "a3994583694a00b7c744097c1d7eabfcf90f2e6650cc21663e46828035a336cb",
    "reut2-009.sgm": "29995f606dd1a9bdf907eacc9d879846c716860d9d9141676979474aaea39c7d",
    "reut2-010.sgm": "996df6008089bd09fa5b28a4d2eb0ee5f7b9d4601cde566fed3926ac82960fa3",
    "reut2-011.sgm": "d3a2782015247d9c2bffb8926267827fdd449c70d619435ef01a25a1c56a53ca",
    "reut2-012.sgm": "da31035d483851f2aebce5b66d779e5e2c0ac9dcfe098596c6d544e81c5604ab",
    "reut2-013.sgm": "8f7700bc0455fac3fcc12377ced4807b7df8aba1f21ecad059b9cc2b1cf0b8be",
    "reut2-014.sgm": "ef936bd3e0f36cf722afa9a6957563549775af32e9e28b4f539c8737ceda83ab",
    "reut2-015.sgm": "6d3bcec73eff871b8a5403588af814c4e50a0de6bc25707480522ab836f74026",
    "reut2-016.sgm": "be2f03a185fff70131f3b4fdbd6229b7ee2be077eba9691eaa597c8cfbda8812",
    "reut2-017.sgm": "f370e610b4b1342e41a98e0c426a08541044bd1d7e539674f32372a6060b73b5",
    "reut2-018.sgm": "a5f971bf25448e915781962309e669359a35fbcaf3017a806eca0590897f209a",
    "reut2-019.sgm": "d3b07097fba2633d130b4914aceba671645985248943ce9e39c289315339dffb",
    "reut2-020.sgm": "f6ad1b724125c202566c63b35ea0b5ee23881f8b7ed47a32829d5af05d8e860d",
    "reut2-021.sgm": "3f5196d32869723c9042aa5756805b4e90360f1f45ea17f4594fa0e2b3630b18",
}

COLUMNS = ["id", "date", "lewissplit", "cgisplit", "topics_attr", "topics", "topics_listed", "title", "body", "file"]

_SGML_NAME = re.compile(r"reut2-\d{3}\.sgm")
_RECORD_START = re.compile(r"<REUTERS\b([^>]*)>")
_RECORD_END = "</REUTERS>"
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D = re.compile(r"<D>(.*?)</D>", re.S)
_TAGS = {name: re.compile(rf"<{name}>(.*?)</{name}>", re.S) for name in ("DATE", "TITLE", "BODY")}
_TEXT = re.compile(r"<TEXT\b[^>]*>(.*?)</TEXT>", re.S)
_ANY_TAG = re.compile(r"<[^>]+>")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class ReutersNotFoundError(FileNotFoundError, ValueError):
    """The archive is neither where we looked nor downloadable (offline)."""


# --------------------------------------------------------------------------- parsing
def _clean(text: str) -> str:
    """Resolve character references (``&#3;``, ``&lt;``) and drop the control codes they encode."""
    return _CONTROL.sub(" ", html.unescape(text)).strip()


def parse_sgml(text: str, source: str = "<string>") -> list[dict]:
    """Parse the ``<REUTERS>`` records of one SGML file into dicts.

    Parameters
    ----------
    text : str
        The file's content, decoded as Latin-1.
    source : str
        The file name, quoted in error messages.

    Returns
    -------
    list of dict
        One per record, with keys ``id`` (NEWID), ``date``, ``lewissplit``, ``cgisplit``,
        ``topics_attr`` (the TOPICS attribute: YES, NO or BYPASS), ``topics`` (the
        document's topics, each once, in the order first listed), ``topics_listed`` (the
        ``<D>`` entries as printed: two records list a topic twice, NEWID 5467 ``corn`` and
        NEWID 19918 ``trade``), ``title`` and ``body``. Records without a ``<BODY>``
        (briefs, unprocessed texts) get the text of ``<TEXT>`` with tags removed, minus the
        title.

    Raises
    ------
    ValueError
        A record without a closing ``</REUTERS>`` (truncated file) or without a numeric
        NEWID attribute; the message names the file and the record.

    Examples
    --------
    >>> sgml = ('<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" NEWID="7">'
    ...         '<DATE>26-FEB-1987</DATE><TOPICS><D>earn</D><D>acq</D><D>earn</D></TOPICS>'
    ...         '<TEXT><TITLE>A &amp; B</TITLE><BODY>Profit up&#3;</BODY></TEXT></REUTERS>')
    >>> rec = parse_sgml(sgml)[0]
    >>> rec["id"], rec["topics"], rec["topics_listed"], rec["title"], rec["body"]
    (7, ['earn', 'acq'], ['earn', 'acq', 'earn'], 'A & B', 'Profit up')
    """
    records = []
    pos = 0
    while True:
        start = _RECORD_START.search(text, pos)
        if start is None:
            break
        attrs = dict(_ATTR.findall(start.group(1)))
        newid = attrs.get("NEWID", "")
        end = text.find(_RECORD_END, start.end())
        nxt = _RECORD_START.search(text, start.end())
        if end < 0 or (nxt is not None and nxt.start() < end):
            raise ValueError(
                f"{source}: record NEWID={newid or '?'} (character {start.start()}) has no closing "
                "</REUTERS>: the file is truncated or corrupt. Replace it with an intact copy of "
                f"the archive (checksums in SGML_SHA256; source {REUTERS_URL})."
            )
        if not newid.isdigit():
            raise ValueError(
                f"{source}: the record at character {start.start()} has no numeric NEWID attribute "
                f"(attributes: {attrs}); the file is not a Reuters-21578 SGML file or is corrupt."
            )
        inner = text[start.end() : end]
        topics_block = _TOPICS.search(inner)
        listed = [_clean(t) for t in _D.findall(topics_block.group(1))] if topics_block else []
        topics = list(dict.fromkeys(listed))  # a topic listed twice is still one topic of the document
        fields = {name: (m.group(1) if (m := rx.search(inner)) else "") for name, rx in _TAGS.items()}
        body = fields["BODY"]
        if not body and (m := _TEXT.search(inner)):
            body = _TAGS["TITLE"].sub(" ", m.group(1))
            body = _ANY_TAG.sub(" ", body)
        records.append(
            {
                "id": int(newid),
                "date": _clean(fields["DATE"]),
                "lewissplit": attrs.get("LEWISSPLIT", ""),
                "cgisplit": attrs.get("CGISPLIT", ""),
                "topics_attr": attrs.get("TOPICS", ""),
                "topics": topics,
                "topics_listed": listed,
                "title": _clean(fields["TITLE"]),
                "body": _clean(body),
            }
        )
        pos = end + len(_RECORD_END)
    return records


# --------------------------------------------------------------------------- the archive
def _sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _check_member_name(name: str, archive: Path) -> None:
    p = PurePosixPath(name)
    if p.is_absolute() or ".." in p.parts or "\\" in name or (p.parts and ":" in p.parts[0]):
        raise ValueError(
            f"{archive}: member {name!r} points outside the archive's folder (absolute path or '..'); "
            "refusing to read an archive built for path traversal. Download the original from "
            f"{REUTERS_URL}."
        )


#: What a damaged archive raises while its members are read, not only when it is opened: a
#: gzip stream cut short (EOFError, tarfile.ReadError), corrupt deflate data (zlib.error), a bad
#: gzip CRC (gzip.BadGzipFile, an OSError), an unreadable file (PermissionError, an OSError).
_ARCHIVE_ERRORS = (tarfile.TarError, EOFError, zlib.error, OSError)


def _unreadable(path, exc: BaseException) -> Exception:
    """The error to raise for ``exc`` met while reading ``path``: the file, the cause, the way out."""
    if isinstance(exc, PermissionError):
        return PermissionError(
            f"{path} cannot be read ({exc.strerror or exc}). Give your user read access to it "
            "(chmod u+r), or copy it to a folder you own and pass that path."
        )
    return ValueError(
        f"{path} is truncated or corrupt: reading it failed ({type(exc).__name__}: {exc}). Replace it "
        f"with an intact copy of {ARCHIVE_NAME} from {REUTERS_URL} (checksums of its SGML files in "
        f"SGML_SHA256); an archive in data/raw/ that you delete is downloaded again on the next load."
    )


def _sgml_files_in_folder(folder: Path) -> list[Path]:
    found: dict[str, Path] = {}
    for f in sorted(folder.rglob("reut2-*.sgm")):
        if not (f.is_file() and _SGML_NAME.fullmatch(f.name)):
            continue
        if f.name in found:
            raise ValueError(
                f"{folder} holds {f.name} twice ({found[f.name]} and {f}); keep one copy of the collection "
                "in the folder, or pass the folder of the copy you mean."
            )
        found[f.name] = f
    return list(found.values())


def _read_sgml_files(path: Path, label=None) -> dict[str, bytes]:
    """Raw bytes of every ``reut2-NNN.sgm`` in an archive or a folder, by base name.

    ``label`` is the name errors give the file (the final name of a download still in its
    temporary file).
    """
    label = label or path
    files: dict[str, bytes] = {}
    if path.is_dir():
        for f in _sgml_files_in_folder(path):
            try:
                files[f.name] = f.read_bytes()
            except OSError as exc:
                raise _unreadable(f, exc) from exc
        return files
    try:
        tar = tarfile.open(path, "r:*")
    except PermissionError as exc:
        raise _unreadable(label, exc) from exc
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise ValueError(
            f"{label} is not a readable tar archive ({type(exc).__name__}: {exc}): it is truncated, corrupt "
            f"or another file (an HTML error page?). Delete it and download it again from {REUTERS_URL}."
        ) from exc
    try:
        with tar:
            members = tar.getmembers()  # reads the whole stream: a truncated archive fails here
            for m in members:  # check every name before reading anything
                _check_member_name(m.name, label)
                if (m.issym() or m.islnk()) and _SGML_NAME.fullmatch(PurePosixPath(m.name).name):
                    raise ValueError(f"{label}: member {m.name!r} is a link, not a file; refusing to follow it.")
            for m in members:
                base = PurePosixPath(m.name).name
                if m.isfile() and _SGML_NAME.fullmatch(base):
                    if base in files:
                        raise ValueError(
                            f"{label} holds {base} twice; it is not the Reuters-21578 distribution. "
                            f"Get the original from {REUTERS_URL}."
                        )
                    files[base] = tar.extractfile(m).read()
    except _ARCHIVE_ERRORS as exc:
        raise _unreadable(label, exc) from exc
    return files


def _verify(files: dict[str, bytes], checksums: dict[str, str] | None, source: Path) -> None:
    if not files:
        raise ValueError(
            f"{source} holds no reut2-NNN.sgm file; it is not the Reuters-21578 distribution "
            f"({REUTERS_URL})."
        )
    if checksums is None:
        return
    missing = sorted(set(checksums) - set(files))
    if missing:
        raise ValueError(
            f"{source} lacks {len(missing)} of the {len(checksums)} SGML files ({', '.join(missing[:3])}"
            f"{', ...' if len(missing) > 3 else ''}); get the complete archive from {REUTERS_URL}."
        )
    for name, expected in checksums.items():
        got = _sha256_bytes(files[name])
        if got != expected:
            raise ValueError(
                f"{source}: SHA-256 of {name} is {got}, expected {expected}; the file is corrupt or "
                f"edited. Replace the archive with the original from {REUTERS_URL}."
            )


# --------------------------------------------------------------------------- the download
_SCHEMES = ("http", "https", "ftp")
_RETRY_WAIT = 1.0  # seconds before the first retry, doubled before each further one


def _pooch_downloader(url: str, timeout: float, bar):
    """pooch's HTTP or FTP downloader with ``timeout`` and our progress bar (``False`` when hidden)."""
    import pooch

    progress = False if bar.disable else bar
    if urllib.parse.urlsplit(url).scheme == "ftp":
        return pooch.FTPDownloader(timeout=timeout, progressbar=progress, chunk_size=1 << 16)
    return pooch.HTTPDownloader(timeout=timeout, progressbar=progress, chunk_size=1 << 16)


def _why(exc: BaseException, timeout: float) -> str:
    """A download failure in words."""
    import requests

    if isinstance(exc, requests.Timeout) or isinstance(exc, TimeoutError):
        return f"the server sent nothing for {timeout:g} s (timed out: {exc})"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return f"the connection broke before the whole file arrived, the body was cut short ({exc})"
    if isinstance(exc, requests.HTTPError):
        return f"the server answered {exc}"
    return f"{type(exc).__name__}: {exc}"


#: errors of the local disk, never of the network: not retried, reported as the folder's
_LOCAL_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)


def _worth_retrying(exc: BaseException) -> bool:
    """Timeouts, refused or reset connections and bodies cut short may pass next time; a 4xx answer will not."""
    import requests

    if isinstance(exc, requests.HTTPError):
        return exc.response is None or exc.response.status_code >= 500
    return True


def _download(url, dest: Path, *, checksums, verbose, downloader, timeout: float, retries: int) -> dict[str, bytes]:
    """Download ``url`` into a temporary file beside ``dest``; move it onto ``dest`` only when it passes the checks.

    The checks are those of a load: a readable archive (a body cut short fails here even
    without a Content-Length), SGML files present, and their SHA-256 (``checksums``). Returns
    the SGML files read from it. Any failure, or Ctrl-C, deletes the temporary file.
    """
    manual = (
        f"Download {ARCHIVE_NAME} on a machine with network access from {REUTERS_URL} and put it at "
        f"{dest}, or set {ENV_VAR} to its path."
    )
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(dest, suffix=".part") as tmp:
            for attempt in range(retries + 1):
                try:
                    with progress_bar(total=1, unit="B", unit_scale=True, desc=dest.name, progress=verbose) as bar:
                        get = downloader if downloader is not None else _pooch_downloader(url, timeout, bar)
                        get(url, str(tmp), None)
                    break
                except OSError as exc:  # requests' errors are OSErrors
                    if getattr(exc, "errno", None) in _LOCAL_ERRNOS:
                        raise  # the folder, not the network: reported below
                    if attempt == retries or not _worth_retrying(exc):
                        raise ReutersNotFoundError(
                            f"{ARCHIVE_NAME} is not at {dest} and downloading it from {url} failed "
                            f"({attempt + 1} attempt{'s' if attempt else ''}; {_why(exc, timeout)}). {manual}"
                        ) from exc
                    time.sleep(_RETRY_WAIT * 2**attempt)
            try:
                files = _read_sgml_files(tmp, label=f"the archive downloaded from {url}")
                _verify(files, checksums, f"the archive downloaded from {url}")
            except ValueError as exc:
                raise ValueError(f"{exc} It was not kept (nothing was written to {dest.parent}). {manual}") from exc
    except (ReutersNotFoundError, ValueError):
        raise
    except OSError as exc:  # the folder: missing rights, a file in its place, a full disk
        full = getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT)
        fix = "Free space there" if full else "Make the folder writable"
        message = (f"Cannot write the download to {dest.parent} ({type(exc).__name__}: {exc}). {fix}, pass raw_dir= "
                   f"a writable folder with room for it, or {manual[0].lower()}{manual[1:]}")
        raise (OSError(exc.errno, message) if full else PermissionError(message)) from exc
    return files


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


def _source_key(source: Path) -> str:
    """SHA-256 of the archive, or of the SGML files' names and checksums of a folder."""
    try:
        if not source.is_dir():
            return _sha256_file(source)
        key_hash = hashlib.sha256()
        for f in _sgml_files_in_folder(source):
            key_hash.update(f.name.encode() + _sha256_file(f).encode())
        return key_hash.hexdigest()
    except OSError as exc:
        raise _unreadable(getattr(exc, "filename", None) or source, exc) from exc


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


def _check_arguments(path, url, checksums, cache, raw_dir, cache_dir, downloader, timeout, retries) -> None:
    """Refuse bad arguments before any file is read or any byte downloaded."""
    for value, name in ((path, "path"), (raw_dir, "raw_dir"), (cache_dir, "cache_dir")):
        _check_pathlike(value, name)
    if url is not None:
        if not isinstance(url, str):
            raise TypeError(f"url must be a str or None (no download); got {type(url).__name__} {url!r}.")
        scheme = urllib.parse.urlsplit(url).scheme
        if downloader is None and scheme not in _SCHEMES:
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
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
        raise ValueError(f"timeout must be a positive number of seconds; got {timeout!r}.")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be a non-negative integer (0: one attempt); got {retries!r}.")


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
        with ``timeout``.
    timeout : float, default=60
        Seconds to wait for the server to connect or to send the next bytes.
    retries : int, default=2
        Further attempts after a timeout, a refused or broken connection or a server error
        (5xx), 1 s, then 2 s, ... apart; a 404 is not retried.

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
    _check_arguments(path, url, checksums, cache, raw_dir, cache_dir, downloader, timeout, retries)
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
        files = _download(url, source, checksums=checksums, verbose=verbose, downloader=downloader,
                          timeout=timeout, retries=retries)

    try:
        key = _source_key(source)
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
            files = _read_sgml_files(source)
            _verify(files, checksums, source)
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
    base = PurePosixPath(name).name
    try:
        if source.is_dir():
            matches = [f for f in source.rglob(base) if f.is_file()]
            if not matches:
                raise ValueError(
                    f"{name} is not in {source}; it holds {sorted(f.name for f in source.iterdir())[:8]} ..."
                )
            try:
                return matches[0].read_bytes()
            except OSError as exc:
                raise _unreadable(matches[0], exc) from exc
        try:
            tar = tarfile.open(source, "r:*")
        except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
            raise _unreadable(source, exc) from exc
        try:
            with tar:
                members = tar.getmembers()
                for m in members:
                    _check_member_name(m.name, source)
                for m in members:
                    if m.isfile() and PurePosixPath(m.name).name == base:
                        return tar.extractfile(m).read()
        except _ARCHIVE_ERRORS as exc:
            raise _unreadable(source, exc) from exc
        names = sorted(PurePosixPath(m.name).name for m in members if m.isfile())
        raise ValueError(f"{name} is not in {source}; its files are {names[:8]} ...")
    except (ValueError, PermissionError) as exc:
        if origin == "env":
            raise _with_env(exc) from exc
        raise


# --------------------------------------------------------------------------- splits
def _unique(topics) -> list:
    """A document's topics, each once, in the order first listed (tables built by hand may repeat one)."""
    return list(dict.fromkeys(topics))


def _check_table(df) -> None:
    if not isinstance(df, pd.DataFrame) or not {"lewissplit", "topics_attr", "topics"} <= set(df.columns):
        raise ValueError(
            "Expected the table returned by load_reuters21578 (columns lewissplit, topics_attr, topics); "
            f"got {type(df).__name__}."
        )


def modapte_split(df: pd.DataFrame, keep_without_topics: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ModApte training and test sets (Lewis's README, section VIII.B).

    Training: ``LEWISSPLIT="TRAIN"``, ``TOPICS="YES"``; test: ``LEWISSPLIT="TEST"``,
    ``TOPICS="YES"``. By default documents without any topic are dropped (7,775 / 3,019
    on the full collection, the usual ModApte setting); ``keep_without_topics=True`` keeps
    them (9,603 / 3,299).

    Examples
    --------
    >>> df = pd.DataFrame({"lewissplit": ["TRAIN", "TRAIN", "TEST", "NOT-USED"],
    ...                    "topics_attr": ["YES", "YES", "YES", "YES"],
    ...                    "topics": [["earn"], [], ["acq"], ["earn"]]})
    >>> [len(s) for s in modapte_split(df)], [len(s) for s in modapte_split(df, True)]
    ([1, 1], [2, 1])
    """
    _check_table(df)
    yes = df["topics_attr"] == "YES"
    if not keep_without_topics:
        yes &= df["topics"].map(len) > 0
    train = df[yes & (df["lewissplit"] == "TRAIN")].reset_index(drop=True)
    test = df[yes & (df["lewissplit"] == "TEST")].reset_index(drop=True)
    return train, test


def class_counts(train: pd.DataFrame, test: pd.DataFrame, by: str = "document") -> pd.DataFrame:
    """Documents per topic in training and test, sorted by training count (descending), then name.

    Parameters
    ----------
    train, test : DataFrame
        Tables from :func:`modapte_split` (a ``topics`` column of lists).
    by : {"document", "listing"}
        ``"document"``: a document counts once for each of its topics, however often its
        ``<TOPICS>`` lists one (multi-label: a document about earn and acq counts for both).
        ``"listing"``: every ``<D>`` entry counts (column ``topics_listed``), so a topic
        printed twice in one record counts twice; only for comparing with counts made
        that way.

    Examples
    --------
    >>> tr = pd.DataFrame({"topics": [["earn"], ["earn", "acq"]],
    ...                    "topics_listed": [["earn"], ["earn", "acq", "earn"]]})
    >>> te = pd.DataFrame({"topics": [["acq"]], "topics_listed": [["acq"]]})
    >>> class_counts(tr, te).values.tolist()
    [[2, 0], [1, 1]]
    >>> class_counts(tr, te, by="listing").loc["earn"].tolist()
    [3, 0]
    """
    if by not in ("document", "listing"):
        raise ValueError(
            f"by must be 'document' (each document once per topic) or 'listing' (every <D> entry); got {by!r}."
        )

    def count(df):
        if by == "listing":
            if "topics_listed" not in df.columns:
                raise ValueError("by='listing' needs the topics_listed column of load_reuters21578's table.")
            return Counter(t for ts in df["topics_listed"] for t in ts)
        return Counter(t for ts in df["topics"] for t in set(ts))

    tr, te = count(train), count(test)
    names = sorted(set(tr) | set(te), key=lambda c: (-tr[c], c))
    return pd.DataFrame({"train": [tr[c] for c in names], "test": [te[c] for c in names]},
                        index=pd.Index(names, name="category"))


def top_categories(train: pd.DataFrame, k: int = 10) -> list[str]:
    """The ``k`` topics with most training documents (each document once per topic; ties by name).

    Examples
    --------
    >>> top_categories(pd.DataFrame({"topics": [["b"], ["a", "b"], ["c"]]}), 2)
    ['b', 'a']
    """
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer number of categories; got {k!r}.")
    counts = Counter(t for ts in train["topics"] for t in set(ts))
    return sorted(counts, key=lambda c: (-counts[c], c))[:k]


def categories_with_train_and_test(train: pd.DataFrame, test: pd.DataFrame) -> list[str]:
    """Topics with at least one training and one test document (90 under ModApte).

    Examples
    --------
    >>> categories_with_train_and_test(pd.DataFrame({"topics": [["a"], ["b"]]}),
    ...                                pd.DataFrame({"topics": [["b", "c"]]}))
    ['b']
    """
    tr = {t for ts in train["topics"] for t in ts}
    te = {t for ts in test["topics"] for t in ts}
    return sorted(tr & te)


def restrict_to_categories(df: pd.DataFrame, categories) -> pd.DataFrame:
    """Keep only ``categories`` in each topic list and drop documents left without one.

    The multi-label setting: a document about ``earn`` and ``gold`` stays, labelled
    ``['earn']``, when ``gold`` is not among ``categories``.

    Examples
    --------
    >>> df = pd.DataFrame({"topics": [["earn", "gold"], ["gold"], ["acq"]]})
    >>> restrict_to_categories(df, ["earn", "acq"])["topics"].tolist()
    [['earn'], ['acq']]
    """
    cats = set(categories)
    if not cats:
        raise ValueError("categories is empty; pass e.g. top_categories(train, 10).")
    out = df.assign(topics=df["topics"].map(lambda ts: _unique(t for t in ts if t in cats)))
    return out[out["topics"].map(len) > 0].reset_index(drop=True)


def single_label(df: pd.DataFrame, categories, among: str = "all") -> pd.DataFrame:
    """Single-label subset with a ``label`` column.

    ``among="all"``: documents with exactly one topic overall, that topic in
    ``categories`` (the R8 / R52 convention of Cardoso-Cachopo: with the ten largest
    topics only 8 keep documents, because ``wheat`` and ``corn`` always come with
    ``grain``). ``among="categories"``: documents with exactly one of ``categories``,
    whatever other topics they have. That does not bring the ten classes back: with the
    ten largest ModApte topics, ``corn`` never and ``wheat`` once (in training) occurs
    without ``grain``, so 9 classes keep training documents and 8 keep test documents.

    Examples
    --------
    >>> df = pd.DataFrame({"topics": [["earn"], ["grain", "wheat"], ["wheat", "gold"]]})
    >>> single_label(df, ["earn", "grain", "wheat"])["label"].tolist()
    ['earn']
    >>> single_label(df, ["earn", "grain", "wheat"], among="categories")["label"].tolist()
    ['earn', 'wheat']
    """
    if among not in ("all", "categories"):
        raise ValueError(f"among must be 'all' (R8 convention) or 'categories'; got {among!r}.")
    cats = set(categories)
    kept = df["topics"].map(lambda ts: _unique(ts) if among == "all" else _unique(t for t in ts if t in cats))
    mask = kept.map(lambda ts: len(ts) == 1 and ts[0] in cats)
    out = df[mask].copy()
    out["label"] = kept[mask].map(lambda ts: ts[0])
    return out.reset_index(drop=True)


SETTINGS = ("single_label", "multi_label", "all_90")


def make_setting(train: pd.DataFrame, test: pd.DataFrame, setting: str = "single_label", categories: int = 10):
    """Rows and labels of one evaluation setting on the ModApte split.

    ``"single_label"``: documents with exactly one topic, among the ``categories`` largest
    (R8 for 10: wheat and corn never occur alone); ``"multi_label"``: documents with at
    least one of the ``categories`` largest topics, labelled with those; ``"all_90"``: the
    topics with a training and a test document (90), multi-label.

    Returns
    -------
    train_rows, test_rows : ndarray of int
        Positions in ``train`` and ``test``.
    y_train, y_test : ndarray
        Labels (1-D, single-label) or binary indicator matrices (2-D, multi-label).
    classes : list of str

    Examples
    --------
    >>> tr = pd.DataFrame({"topics": [["a"], ["a", "b"], ["b"], ["c"]]})
    >>> te = pd.DataFrame({"topics": [["b"], ["a", "c"]]})
    >>> rows, _, y, _, classes = make_setting(tr, te, "single_label", 2)
    >>> rows.tolist(), y.tolist(), classes
    ([0, 2], ['a', 'b'], ['a', 'b'])
    >>> make_setting(tr, te, "all_90")[2].tolist()
    [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1]]
    """
    from sklearn.preprocessing import MultiLabelBinarizer

    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}; got {setting!r}.")
    if setting == "all_90":
        cats = categories_with_train_and_test(train, test)
    else:
        cats = top_categories(train, categories)
    if setting == "single_label":
        t_tr, t_te = train["topics"].map(_unique), test["topics"].map(_unique)
        ok_tr = t_tr.map(lambda ts: len(ts) == 1 and ts[0] in cats).to_numpy()
        ok_te = t_te.map(lambda ts: len(ts) == 1 and ts[0] in cats).to_numpy()
        y_tr = t_tr[ok_tr].map(lambda ts: ts[0]).to_numpy()
        y_te = t_te[ok_te].map(lambda ts: ts[0]).to_numpy()
        classes = sorted(set(y_tr))
        return np.flatnonzero(ok_tr), np.flatnonzero(ok_te), y_tr, y_te, classes
    keep = set(cats)
    t_tr = train["topics"].map(lambda ts: [t for t in ts if t in keep])
    t_te = test["topics"].map(lambda ts: [t for t in ts if t in keep])
    ok_tr, ok_te = (t_tr.map(len) > 0).to_numpy(), (t_te.map(len) > 0).to_numpy()
    mlb = MultiLabelBinarizer(classes=sorted(cats)).fit([])
    return (np.flatnonzero(ok_tr), np.flatnonzero(ok_te), mlb.transform(t_tr[ok_tr]),
            mlb.transform(t_te[ok_te]), sorted(cats))
