"""Fixtures of the data-layer tests: a small Reuters archive, a local HTTP server to download from, pooch's waits."""

import threading
from http.server import BaseHTTPRequestHandler
from types import SimpleNamespace

import pooch.core
import pytest

from tests.support import local_server, small_files, write_tar


@pytest.fixture
def small_archive(tmp_path):
    files = small_files()
    return write_tar(tmp_path / "reuters21578.tar.gz", files), files


# --------------------------------------------------------------------------- a local HTTP server
class _Handler(BaseHTTPRequestHandler):
    """Serves ``server.routes[path] = (behaviour, body)``; behaviours below; anything else is a 404."""

    def log_message(self, *args):  # keep test output clean
        pass

    def _send(self, status, body, length=None):
        self.send_response(status)
        if length is not False:
            self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        return status

    def do_GET(self):
        server = self.server
        server.hits[self.path] += 1
        behaviour, body = server.routes.get(self.path, ("404", b""))
        if behaviour == "flaky" and server.hits[self.path] == 1:
            behaviour = "drop"
        if behaviour == "error-once" and server.hits[self.path] == 1:
            behaviour = "500"
        if behaviour in ("ok", "flaky", "error-once"):
            self._send(200, body)
            self.wfile.write(body)
        elif behaviour == "short":  # announces the whole body, sends half, hangs up
            self._send(200, body)
            self.wfile.write(body[: len(body) // 2])
        elif behaviour == "short-unannounced":  # no Content-Length: only the archive's own check can tell
            self._send(200, body, length=False)
            self.wfile.write(body[: len(body) // 2])
        elif behaviour == "trickle":  # headers and a little of the body, then nothing until released
            self._send(200, body)
            self.wfile.write(body[:100])
            self.wfile.flush()
            server.release.wait(30)
        elif behaviour == "stall":  # accepts the connection and never answers
            server.release.wait(30)
        elif behaviour == "drop":  # closes the connection without a word
            self.close_connection = True
        elif behaviour == "500":
            self.send_error(500, "Internal Server Error")
        else:
            self.send_error(404, "Not Found")


@pytest.fixture
def archive_server():
    """A local HTTP server on 127.0.0.1 (port chosen by the OS); set ``.routes``, read ``.hits``, ``.url(path)``."""
    with local_server(_Handler) as server:
        server.release = threading.Event()
        try:
            yield server
        finally:
            server.release.set()   # a stalled response ends before the server shuts down


@pytest.fixture
def pooch_waits(monkeypatch):
    """The pauses pooch's ``retry_if_failed`` loop takes between attempts, recorded instead of slept."""
    waits = []
    monkeypatch.setattr(pooch.core, "time", SimpleNamespace(sleep=waits.append))
    return waits
