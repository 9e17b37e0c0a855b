"""Builders shared by the tests (not fixtures: the bad-input catalogues call them at import time).

Fixtures live in the ``conftest.py`` files; test modules never import one another.
"""

import errno
import io
import os
import shutil
import socket
import subprocess
import tarfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin


def random_spd(rng, p, condition=100.0):
    """A random SPD matrix with the given condition number."""
    Q, _ = np.linalg.qr(rng.normal(size=(p, p)))
    vals = np.geomspace(1.0, condition, p)
    return (Q * vals) @ Q.T


# ---------------------------------------------------------------- Reuters-21578 in miniature

RECORD = (
    '<REUTERS TOPICS="{attr}" LEWISSPLIT="{split}" CGISPLIT="TRAINING-SET" OLDID="5544" NEWID="{id}">\n'
    "<DATE>26-FEB-1987 15:01:01.79</DATE>\n<TOPICS>{topics}</TOPICS>\n"
    "<TEXT>&#2;\n<TITLE>{title}</TITLE>\n<BODY>{body}\n Reuter\n&#3;</BODY></TEXT>\n</REUTERS>\n"
)


def record(id, topics=("earn",), split="TRAIN", attr="YES", title="TITLE", body="Body text"):
    return RECORD.format(id=id, split=split, attr=attr, title=title, body=body,
                         topics="".join(f"<D>{t}</D>" for t in topics))


def sgml(*records):
    return ('<!DOCTYPE lewis SYSTEM "lewis.dtd">\n' + "".join(records)).encode("latin-1")


def write_tar(path, members):
    """members: {name: bytes}."""
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def small_files():
    """Two SGML files, five records: the collection in miniature."""
    return {
        "reut2-000.sgm": sgml(record(1, ("earn",)), record(2, ("acq", "earn"), title="A &amp; B"),
                              record(3, (), split="TRAIN")),
        "reut2-001.sgm": sgml(record(4, ("acq",), split="TEST", body="caf\xe9 &lt;ok&gt;"),
                              record(5, ("earn",), split="NOT-USED", attr="NO")),
    }


def refused_url() -> str:
    """A URL on a port nobody listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/reuters21578.tar.gz"


def two_classes(seed=0, n=20):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n, 3)), rng.normal(1, 3, (n, 3))])
    return X, np.repeat([0, 1], n)


FITS: list = []


class RowSpy(TransformerMixin, BaseEstimator):
    """Identity transform that records the row ids (column 0) of every fit in FITS."""

    def fit(self, X, y=None):
        FITS.append(frozenset(np.asarray(X)[:, 0].astype(int)))
        self.mean_ = np.asarray(X).mean(axis=0)
        return self

    def transform(self, X):
        return np.asarray(X, dtype=float)


# ---------------------------------------------------------------- folders that refuse writes


def unwritable_dir(tmp: Path) -> Path:
    """A folder where creating files fails: chmod'ed for a normal user; /sys (read-only) for root."""
    if os.geteuid() != 0:
        locked = tmp / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        return locked
    probe = Path("/sys") / f"covsim-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return Path("/sys")
    probe.rmdir()  # pragma: no cover - a writable /sys
    pytest.skip("running as root with a writable /sys: no folder here refuses writes")


@contextmanager
def tmpfs(disk: Path, size: str):
    """A tmpfs of ``size`` (``"64k"``, ``"1m"``) at ``disk`` for the block; skipped where mounting is refused."""
    disk.mkdir(exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"this machine does not allow mounting a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> None:
    """Write zeros into ``disk/filler`` until the disk is full (the write fails with ENOSPC)."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 512):
            pass
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


@contextmanager
def full_disk(disk: Path):
    """A 64 KiB tmpfs at ``disk`` holding ``before.json``, filled until a write fails; unmounted after."""
    with tmpfs(disk, "64k"):
        (disk / "before.json").write_text('{"kept": 1}')
        fill(disk)
        yield disk


def write_sweep(out: Path, name: str = "03-seeds") -> None:
    """A finished sweep as ``out/sweeps/NAME/runs`` holds it: eight ok runs (seed x method) and one failed."""
    import json

    runs = out / "sweeps" / name / "runs"
    runs.mkdir(parents=True)
    for seed in range(4):
        for method in ("cholesky", "zca"):
            rid = f"r{seed}{method}"
            record = {"run_id": rid, "params": {"random_state": seed, "method": method}, "status": "ok"}
            (runs / f"{rid}.status.json").write_text(json.dumps(record))
            acc = 0.9 + seed / 100 + (0.02 if method == "zca" else 0)
            (runs / f"{rid}.json").write_text(json.dumps({"test_accuracy": {"raw": acc}, "n_test": 114}))
    failed = {"run_id": "r9", "params": {"random_state": 9, "method": "zca"}, "status": "cell-error", "error": "x"}
    (runs / "r9.status.json").write_text(json.dumps(failed))


def processes_gone(ident: int, within: float, scope: str = "session") -> bool:
    """True once no live process (zombies awaiting their reaper aside) is left in the session
    (``scope="session"``) or process group (``scope="group"``) ``ident``; False after ``within`` seconds."""
    import time

    flag = {"session": "-s", "group": "-g"}[scope]
    deadline = time.time() + within
    while time.time() < deadline:
        states = subprocess.run(["ps", "-o", "stat=", flag, str(ident)], capture_output=True, text=True).stdout.split()
        if not [s for s in states if not s.startswith("Z")]:
            return True
        time.sleep(0.5)
    return False


@contextmanager
def local_server(handler):
    """A ``ThreadingHTTPServer`` with ``handler`` on 127.0.0.1 (port chosen by the OS), serving in a thread;
    ``.routes`` and ``.hits`` for the handler, ``.url(path)``; shut down on exit."""
    import threading
    from collections import Counter
    from http.server import ThreadingHTTPServer

    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.routes, server.hits = {}, Counter()
    server.url = lambda path: f"http://127.0.0.1:{server.server_address[1]}{path}"
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


#: the code cell of a sweep notebook whose every run lasts about a second (stop tests need runs in flight)
SLOW_BODY = ("import json, time\ntime.sleep(1.0)\n"
             "if results_path:\n    json.dump({'score': seed}, open(results_path, 'w'))")



@contextmanager
def read_only(disk: Path, files=()):
    """A small tmpfs at ``disk`` holding copies of ``files``, remounted read-only for the block (as root only)."""
    with tmpfs(disk, "4m"):
        for path in files:
            shutil.copy(path, disk / Path(path).name)
        done = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"this machine does not allow a read-only remount: {done.stderr.decode().strip()}")
        yield disk


# ---------------------------------------------------------------- the hierarchical model

def assert_hierarchical_answer(p: dict, tight: float, wide: float, again: dict) -> None:
    """What a fit of the hierarchical model on a built-in advantage must give, ``{rope: result}`` at two ROPEs:
    each set of shares and of predictive probabilities sums to 1, the advantage is found beyond the ``tight``
    ROPE and equivalence within the ``wide`` one, the chains converged (with arviz-stats), and a second fit
    at ``tight`` (``again``) is the same (seeded)."""
    for r in p.values():
        assert r["better"] + r["equivalent"] + r["worse"] == pytest.approx(1)
        assert r["predictive_better"] + r["predictive_equivalent"] + r["predictive_worse"] == pytest.approx(1)
    assert p[tight]["better"] > 0.9 and p[wide]["equivalent"] > 0.9
    if "rhat" in p[tight]:   # with arviz-stats: the convergence of the model's location, scale and df
        assert p[tight]["rhat"] < 1.05 and p[tight]["ess_bulk"] > 100
    assert again == p[tight]
