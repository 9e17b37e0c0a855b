"""Hostile servers and paths against the Reuters-21578 download: a catalogue, one row per case.

Each case puts an answer on a local HTTP server (127.0.0.1, a port the OS picks) and loads
the archive from it into a folder under the test's temporary folder. It expects either an
error of a given type whose message names the problem and the fix (``words``, a regex), or
the right answer: the five records of the miniature archive, kept at its place. A failed
download leaves nothing in the folder; the number of requests the server saw is checked too
(what cannot pass next time is not asked again).
"""

from __future__ import annotations

import gzip
import hashlib
import time
from http.server import BaseHTTPRequestHandler

import pytest

from helpers.data import reuters as R
from tests.support import local_server, small_files, write_tar

GOOD = {name: hashlib.sha256(data).hexdigest() for name, data in small_files().items()}
HTML = b"<!DOCTYPE html><html><body><h1>503 Service Temporarily Unavailable</h1></body></html>"


class _Hostile(BaseHTTPRequestHandler):
    """``server.routes[path] = (behaviour, body)``: redirects, loops, lying headers, other files."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        server = self.server
        server.hits[self.path] += 1
        behaviour, body = server.routes.get(self.path, ("404", b""))
        if behaviour == "loop":  # redirects to itself for ever
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif behaviour == "redirect":  # one hop to the real file
            self.send_response(301)
            self.send_header("Location", body.decode())
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif behaviour == "huge":  # announces 10 TB, sends a little, hangs up
            self.send_response(200)
            self.send_header("Content-Length", str(10**13))
            self.end_headers()
            self.wfile.write(body)
        elif behaviour == "trickle":  # a byte every 0.1 s: never quiet for the per-read timeout
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(min(len(body), 20)):
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
                time.sleep(0.1)
        elif behaviour == "ok":
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(int(behaviour))


@pytest.fixture
def server():
    with local_server(_Hostile) as srv:
        yield srv


@pytest.fixture
def archive(tmp_path):
    return write_tar(tmp_path / "source.tar.gz", small_files()).read_bytes()


# (id, behaviour, body (a function of the archive and the server), raw folder name, error, words, requests)
ERRORS = [
    ("download_redirect_loop", "loop", lambda a, s: b"", "raw", R.ReutersNotFoundError,
     r"failed \(1 attempt; the server redirects in a loop .*the address is wrong or the site has moved.*"
     r"Download reuters21578\.tar\.gz on a machine", 31),
    ("download_huge_content_length", "huge", lambda a, s: a[:200], "raw", R.ReutersNotFoundError,
     r"failed \(3 attempts; the connection broke before the whole file arrived, the body was cut short"
     r".*IncompleteRead\(200 bytes read.*put it at", 3),
    ("download_html_instead_of_archive", "ok", lambda a, s: HTML, "raw", ValueError,
     r"downloaded from .* is not a readable tar archive.*an HTML error page\?.*It was not kept", 1),
    ("download_gzip_that_is_html", "ok", lambda a, s: gzip.compress(HTML), "raw", ValueError,
     r"downloaded from .* is not a readable tar archive.*truncated header.*an HTML error page\?.*It was not kept",
     1),
    ("download_empty_body", "ok", lambda a, s: b"", "raw", ValueError,
     r"is not a readable tar archive \(ReadError.*empty file.*It was not kept", 1),
    ("download_forbidden_403", "403", lambda a, s: b"", "raw", R.ReutersNotFoundError,
     r"failed \(1 attempt; the server answered 403 Client Error.*Download reuters21578\.tar\.gz", 1),
    ("download_gone_410", "410", lambda a, s: b"", "raw", R.ReutersNotFoundError,
     r"failed \(1 attempt; the server answered 410 Client Error", 1),
]

ANSWERS = [
    ("download_one_redirect", "redirect", lambda a, s: s.url("/real.tar.gz").encode(), "raw"),
    ("download_into_unicode_folder", "ok", lambda a, s: a, "données ünï 数据/raw"),
    ("download_into_folder_with_spaces_and_emoji", "ok", lambda a, s: a, "my data 📦/raw"),
]


@pytest.mark.integration  # waits for the deadline: the slow tier (make test)
def test_a_server_that_trickles_bytes_is_cut_off_at_the_deadline(server, tmp_path, monkeypatch, archive):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    server.routes["/slow.tar.gz"] = ("trickle", archive)
    raw = tmp_path / "raw"
    start = time.perf_counter()
    with pytest.raises(R.ReutersNotFoundError, match=r"failed \(1 attempt; the download was still running after "
                                                     r"0\.5 s, the deadline of one attempt: the server sends too "
                                                     r"slowly\)\. Download reuters21578\.tar\.gz on a machine"):
        R.load_reuters21578(raw_dir=raw, url=server.url("/slow.tar.gz"), checksums=GOOD, cache=False, verbose=False,
                            retries=2, timeout=5, deadline=0.5)
    assert time.perf_counter() - start < 2                        # not the 2 s the whole trickle takes, nor more
    assert server.hits["/slow.tar.gz"] == 1                       # as slow next time: not asked again
    time.sleep(2.2)                                               # the abandoned attempt ends with the trickle
    assert not raw.exists() or list(raw.iterdir()) == []          # nothing a later load would trust


def _load(server, tmp_path, monkeypatch, behaviour, body, folder, archive):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    monkeypatch.setattr("pooch.core.time.sleep", lambda seconds: None)  # pooch's waits between attempts
    server.routes["/real.tar.gz"] = ("ok", archive)
    server.routes["/r.tar.gz"] = (behaviour, body(archive, server))
    raw = tmp_path / folder
    return raw, lambda: R.load_reuters21578(raw_dir=raw, url=server.url("/r.tar.gz"), checksums=GOOD, cache=False,
                                            verbose=False, retries=2, timeout=5)


@pytest.mark.parametrize("behaviour, body, folder, error, words, requests", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_bad_download(server, tmp_path, monkeypatch, archive, behaviour, body, folder, error, words, requests):
    raw, load = _load(server, tmp_path, monkeypatch, behaviour, body, folder, archive)
    with pytest.raises(error, match=f"(?s){words}"):
        load()
    assert not raw.exists() or list(raw.iterdir()) == []  # nothing a later load would trust
    assert server.hits["/r.tar.gz"] == requests


@pytest.mark.parametrize("behaviour, body, folder", [c[1:] for c in ANSWERS], ids=[c[0] for c in ANSWERS])
def test_download_gives_the_right_answer(server, tmp_path, monkeypatch, archive, behaviour, body, folder):
    raw, load = _load(server, tmp_path, monkeypatch, behaviour, body, folder, archive)
    df = load()
    assert df["id"].tolist() == [1, 2, 3, 4, 5]
    assert [p.name for p in raw.iterdir()] == ["reuters21578.tar.gz"]
    assert (raw / "reuters21578.tar.gz").read_bytes() == archive
    load()  # the kept archive passes its checksums and is used: no second download
    assert server.hits["/r.tar.gz"] == 1


def test_checksum_matching_archive_at_a_unicode_path_loads_and_caches(tmp_path, archive):
    # download_checksum_match_unicode_path: a verified archive the user put at a non-ASCII path, cache beside it
    path = tmp_path / "Reuters ünï 数据" / "reuters21578.tar.gz"
    path.parent.mkdir()
    path.write_bytes(archive)
    cache = tmp_path / "cache é"
    first = R.load_reuters21578(path, checksums=GOOD, cache=True, cache_dir=cache, url=None)
    again = R.load_reuters21578(path, checksums=GOOD, cache=True, cache_dir=cache, url=None)
    assert first["id"].tolist() == again["id"].tolist() == [1, 2, 3, 4, 5]
    assert first.equals(again)


@pytest.mark.parametrize("url, words", [
    ("127.0.0.1/reuters21578.tar.gz", r"url must start with http://, https:// or ftp://.*pass its path instead"),
    ("file:///tmp/reuters21578.tar.gz", r"url must start with http://, https:// or ftp://.*load_reuters21578\(path="),
], ids=["download_url_without_scheme", "download_file_url"])
def test_url_that_is_not_a_download_is_refused_before_any_request(tmp_path, monkeypatch, url, words):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    with pytest.raises(ValueError, match=words):
        R.load_reuters21578(raw_dir=tmp_path / "raw", url=url, cache=False)
    assert not (tmp_path / "raw").exists()
