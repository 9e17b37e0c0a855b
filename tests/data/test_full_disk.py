"""A full disk, for real: a small tmpfs filled to the last byte, then every writer of the workbook.

Each case checks the error names the file or folder and the way out, that nothing partial is
left on the full disk, and that a file written before is intact. Mounting needs root (as CI
runs); elsewhere the cases are skipped with the reason (the same paths are covered by
simulated ``ENOSPC`` errors in ``tests/test_sweep.py`` and the bad-input catalogues).
"""

import errno
import json
import warnings
from pathlib import Path

import pytest

from helpers.data import reuters as R
from helpers.workbook.results import save_results
from tests.support import full_disk, record, sgml, write_tar

pytestmark = pytest.mark.integration


def leftovers(disk: Path) -> list[str]:
    return sorted(p.name for p in disk.iterdir() if p.name not in ("before.json", "filler"))


def test_results_json_on_a_full_disk(tmp_path):
    with full_disk(tmp_path / "disk") as disk:
        with pytest.raises(OSError) as caught:
            save_results({"accuracy": 0.97, "rows": list(range(5000))}, disk / "before.json")
        assert caught.value.errno == errno.ENOSPC
        assert "before.json" in str(caught.value) and "folder you can write to" in str(caught.value)
        assert json.loads((disk / "before.json").read_text()) == {"kept": 1}  # the older file intact
        assert leftovers(disk) == []


def test_reuters_download_onto_a_full_disk(tmp_path, monkeypatch, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    records = [record(i, body="word " * 200) for i in range(1, 60)]
    archive = write_tar(tmp_path / "r.tar.gz", {"reut2-000.sgm": sgml(*records)})
    archive_server.routes["/r.tar.gz"] = ("ok", archive.read_bytes())
    disk = tmp_path / "disk"
    with full_disk(disk):
        words = r"Cannot write the download to .*disk .*No space left.*Free space there"
        with pytest.raises(OSError, match=words) as caught:
            R.load_reuters21578(raw_dir=disk, url=archive_server.url("/r.tar.gz"), checksums=None, cache=False,
                                retries=2, verbose=False)
        assert caught.value.errno == errno.ENOSPC
        assert archive_server.hits["/r.tar.gz"] == 1  # a full disk is not retried as if the network had failed
        assert leftovers(disk) == []


def test_reuters_cache_on_a_full_disk_costs_the_cache_not_the_table(tmp_path, monkeypatch):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive = write_tar(tmp_path / "r.tar.gz", {"reut2-000.sgm": sgml(*[record(i) for i in range(1, 40)])})
    disk = tmp_path / "disk"
    with full_disk(disk), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = R.load_reuters21578(archive, checksums=None, cache=True, cache_dir=disk, verbose=False)
        assert table["id"].tolist() == list(range(1, 40))
        assert any(str(disk) in str(w.message) and "cache=False" in str(w.message) for w in caught), \
            [str(w.message) for w in caught]
        assert leftovers(disk) == []
