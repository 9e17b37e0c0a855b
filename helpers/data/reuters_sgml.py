"""The files of Reuters-21578 (Distribution 1.0): their names and checksums, their SGML records, the archive.

The collection ships as ``reuters21578.tar.gz`` with 22 SGML files ``reut2-000.sgm`` ...
``reut2-021.sgm`` (21,578 ``<REUTERS>`` records) beside its README and lists of categories.
The files are Latin-1 and not valid XML (bodies hold character references such as ``&#3;``),
so :func:`parse_sgml` parses them leniently with regular expressions, record by record, and
every record must be complete. :func:`read_sgml_files` reads the SGML files of an archive or
of a folder it was unpacked into, refusing members named outside the archive's folder and
links; :func:`check_sgml_files` compares them with the distribution's SHA-256
(:data:`SGML_SHA256`); :func:`read_member` reads any other file of the distribution, and
:func:`archive_key` is the checksum a parse cache is keyed by. Finding, downloading and
caching are :mod:`helpers.data.reuters`'s.
"""

from __future__ import annotations

import hashlib
import html
import re
import tarfile
import zlib
from pathlib import Path, PurePosixPath

__all__ = [
    "ARCHIVE_NAME",
    "ARCHIVE_SHA256",
    "REUTERS_URL",
    "SGML_SHA256",
    "archive_key",
    "check_sgml_files",
    "parse_sgml",
    "read_member",
    "read_sgml_files",
]

REUTERS_URL = "https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz"
ARCHIVE_NAME = "reuters21578.tar.gz"

#: SHA-256 of the copy of ``reuters21578.tar.gz`` the workbook's results were computed from (its
#: 22 SGML files match SGML_SHA256). The archive served by the UCI KDD site may be packed
#: differently (another gzip header gives other bytes for the same files), so a download is
#: accepted on the SGML checksums, not on this one.
ARCHIVE_SHA256 = "fbf670c73658e98eb7b6fb939b2264e92749c5dd8038776427040fbdb8a02177"

#: SHA-256 of each SGML file of the distribution (Reuters-21578, Distribution 1.0).
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


def read_sgml_files(path, label=None) -> dict[str, bytes]:
    """Raw bytes of every ``reut2-NNN.sgm`` in an archive or a folder (searched recursively), by base name.

    Parameters
    ----------
    path : str or Path
        ``reuters21578.tar.gz`` (any tar archive Python's :mod:`tarfile` reads) or a folder.
    label : str, optional
        The name errors give the file (a download's URL while it is still a temporary file).

    Raises
    ------
    ValueError
        A truncated or corrupt archive (a gzip stream cut short, bad deflate data, a bad CRC),
        a file that is not a tar archive, a member named outside the archive's folder
        (absolute or ``..``), an SGML member that is a link, an SGML file held twice.
    PermissionError
        The archive or a file of the folder cannot be read.

    Examples
    --------
    >>> import io, tarfile, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with tarfile.open(d / "r.tar.gz", "w:gz") as tar:
    ...     for name in ("reut2-000.sgm", "README.txt"):
    ...         info = tarfile.TarInfo(name); info.size = 2
    ...         tar.addfile(info, io.BytesIO(b"ok"))
    >>> read_sgml_files(d / "r.tar.gz")
    {'reut2-000.sgm': b'ok'}
    """
    path = Path(path)
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


def check_sgml_files(files: dict[str, bytes], checksums: dict[str, str] | None, source) -> None:
    """Check that ``files`` (from :func:`read_sgml_files`) is the distribution: present, complete, unaltered.

    Parameters
    ----------
    files : dict
        ``{file name: bytes}``.
    checksums : dict or None
        ``{file name: SHA-256 hex digest}`` every one of which must be in ``files`` with that
        digest (:data:`SGML_SHA256` for the distribution); ``None`` checks only that there is
        an SGML file.
    source : str or Path
        What the files came from, quoted in error messages.

    Raises
    ------
    ValueError
        No SGML file, a file of ``checksums`` missing, or a digest that differs.

    Examples
    --------
    >>> import hashlib
    >>> files = {"reut2-000.sgm": b"<REUTERS>"}
    >>> check_sgml_files(files, {"reut2-000.sgm": hashlib.sha256(b"<REUTERS>").hexdigest()}, "x")
    >>> check_sgml_files(files, {"reut2-000.sgm": "0" * 64}, "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: x: SHA-256 of reut2-000.sgm is ..., expected 000...; the file is corrupt or edited. ...
    """
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


def read_member(source, name: str) -> bytes:
    """The bytes of one file of the distribution in an archive or a folder, found by its base name.

    Parameters
    ----------
    source : str or Path
        The archive, or a folder (searched recursively).
    name : str
        ``README.txt``, ``all-topics-strings.lc.txt``, an SGML file; a folder part is ignored.

    Raises
    ------
    ValueError
        ``name`` is not there (the message lists what is), or the archive is truncated,
        corrupt or names a member outside its folder.
    PermissionError
        The archive or the file cannot be read.

    Examples
    --------
    >>> import io, tarfile, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with tarfile.open(d / "r.tar.gz", "w:gz") as tar:
    ...     info = tarfile.TarInfo("README.txt"); info.size = 5
    ...     tar.addfile(info, io.BytesIO(b"hello"))
    >>> read_member(d / "r.tar.gz", "README.txt")
    b'hello'
    """
    source = Path(source)
    base = PurePosixPath(name).name
    if source.is_dir():
        matches = [f for f in source.rglob(base) if f.is_file()]
        if not matches:
            raise ValueError(f"{name} is not in {source}; it holds {sorted(f.name for f in source.iterdir())[:8]} ...")
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


def archive_key(source) -> str:
    """SHA-256 of an archive, or of the names and SHA-256 of a folder's SGML files: what a parse cache is keyed by.

    Raises
    ------
    ValueError, PermissionError
        A file that cannot be read, an SGML file held twice in the folder.

    Examples
    --------
    >>> import hashlib, tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "r.tar.gz"
    >>> _ = f.write_bytes(b"abc")
    >>> archive_key(f) == hashlib.sha256(b"abc").hexdigest()
    True
    """
    source = Path(source)
    try:
        if not source.is_dir():
            return _sha256_file(source)
        key_hash = hashlib.sha256()
        for f in _sgml_files_in_folder(source):
            key_hash.update(f.name.encode() + _sha256_file(f).encode())
        return key_hash.hexdigest()
    except OSError as exc:
        raise _unreadable(getattr(exc, "filename", None) or source, exc) from exc
