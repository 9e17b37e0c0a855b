"""Tests of helpers.data.reuters: loading, lookup, the download through pooch, the parse cache."""

import hashlib
import logging
import os

import pandas as pd
import pooch
import pytest

from helpers.data import reuters as R
from tests.support import refused_url


def test_load_small_archive(small_archive, tmp_path):
    path, _ = small_archive
    df = R.load_reuters21578(path, checksums=None, cache=False)
    assert df.columns.tolist() == R.COLUMNS
    assert df["id"].tolist() == [1, 2, 3, 4, 5]
    assert df.loc[1, "topics"] == ["acq", "earn"] and df.loc[1, "title"] == "A & B"
    assert df.loc[3, "body"].startswith("caf\xe9 <ok>")
    assert df["file"].tolist() == ["reut2-000.sgm"] * 3 + ["reut2-001.sgm"] * 2


def test_load_extracted_folder_equals_archive(small_archive, tmp_path):
    path, files = small_archive
    folder = tmp_path / "extracted"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    a = R.load_reuters21578(path, checksums=None, cache=False)
    b = R.load_reuters21578(folder, checksums=None, cache=False)
    pd.testing.assert_frame_equal(a, b)


def test_checksum_mismatch_raises(small_archive):
    path, files = small_archive
    good = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    assert len(R.load_reuters21578(path, checksums=good, cache=False)) == 5
    bad = dict(good, **{"reut2-001.sgm": "0" * 64})
    with pytest.raises(ValueError, match=r"SHA-256 of reut2-001\.sgm is [0-9a-f]{64}, expected 0{64}"):
        R.load_reuters21578(path, checksums=bad, cache=False)


def test_missing_sgml_file_raises(small_archive):
    path, _ = small_archive
    with pytest.raises(ValueError, match=r"lacks 20 of the 22 SGML files"):
        R.load_reuters21578(path, cache=False)  # default: the real 22 checksums


def test_not_a_tar_raises(tmp_path):
    bogus = tmp_path / "reuters21578.tar.gz"
    bogus.write_bytes(b"<html>not found</html>")
    with pytest.raises(ValueError, match="not a readable tar archive"):
        R.load_reuters21578(bogus, checksums=None, cache=False)


def test_missing_file_offline_names_file_place_and_source(tmp_path, monkeypatch):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    url = refused_url()
    with pytest.raises(R.ReutersNotFoundError) as info:
        R.load_reuters21578(raw_dir=tmp_path / "raw", cache=False, url=url, retries=0)
    msg = str(info.value)
    assert "reuters21578.tar.gz" in msg and str(tmp_path / "raw" / "reuters21578.tar.gz") in msg
    assert R.REUTERS_URL in msg and url in msg and R.ENV_VAR in msg and "Connection" in msg
    assert isinstance(info.value, ValueError) and isinstance(info.value, FileNotFoundError)
    assert not any((tmp_path / "raw").glob("*"))  # no partial download left behind


def test_not_found_without_a_url_says_where_to_get_it_and_where_to_put_it(tmp_path, monkeypatch):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    with pytest.raises(R.ReutersNotFoundError) as info:
        R.load_reuters21578(raw_dir=tmp_path / "raw", url=None, cache=False)
    msg = str(info.value)
    assert f"Put it at {tmp_path / 'raw' / 'reuters21578.tar.gz'}" in msg and R.REUTERS_URL in msg
    assert R.ENV_VAR in msg
    assert not (tmp_path / "raw").exists()  # url=None: nothing created


def test_explicit_missing_path_raises(tmp_path):
    with pytest.raises(R.ReutersNotFoundError, match="No Reuters-21578 archive or folder at"):
        R.load_reuters21578(tmp_path / "nope.tar.gz")


# --------------------------------------------------------------------------- the download
def test_download_from_local_server(small_archive, tmp_path, monkeypatch, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    src, files = small_archive
    archive_server.routes["/r.tar.gz"] = ("ok", src.read_bytes())
    raw = tmp_path / "raw"
    good = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    df = R.load_reuters21578(raw_dir=raw, url=archive_server.url("/r.tar.gz"), checksums=good, cache=False,
                             verbose=False)
    assert df["id"].tolist() == [1, 2, 3, 4, 5]
    assert (raw / "reuters21578.tar.gz").read_bytes() == src.read_bytes()
    assert [p.name for p in raw.iterdir()] == ["reuters21578.tar.gz"]
    umask = os.umask(0)
    os.umask(umask)
    assert (raw / "reuters21578.tar.gz").stat().st_mode & 0o777 == 0o666 & ~umask  # not the temporary file's 0600
    assert archive_server.hits["/r.tar.gz"] == 1
    R.load_reuters21578(raw_dir=raw, url=archive_server.url("/r.tar.gz"), checksums=good, cache=False)
    assert archive_server.hits["/r.tar.gz"] == 1  # the kept archive is used, not downloaded again


def test_the_download_is_a_pooch_store_on_the_raw_folder(small_archive, tmp_path, monkeypatch, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/files/r.tar.gz"] = ("ok", small_archive[0].read_bytes())
    stores = []
    real_create = pooch.create

    def spy(**kwargs):
        stores.append(kwargs)
        return real_create(**kwargs)

    monkeypatch.setattr(pooch, "create", spy)
    url = archive_server.url("/files/r.tar.gz")
    R.load_reuters21578(raw_dir=tmp_path / "raw", url=url, checksums=None, cache=False, retries=3, verbose=False)
    (store,) = stores
    assert store == {"path": tmp_path / "raw", "base_url": url.rsplit("/", 1)[0],
                     "registry": {"reuters21578.tar.gz": None}, "urls": {"reuters21578.tar.gz": url},
                     "retry_if_failed": 3}


def test_retries_are_pooch_s_with_its_waits(tmp_path, monkeypatch, archive_server, pooch_waits):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/r.tar.gz"] = ("stall", b"")
    with pytest.raises(R.ReutersNotFoundError, match=r"failed \(3 attempts; the server sent nothing for 0\.2 s"):
        R.load_reuters21578(raw_dir=tmp_path / "raw", url=archive_server.url("/r.tar.gz"), cache=False,
                            timeout=0.2, retries=2, verbose=False)
    assert archive_server.hits["/r.tar.gz"] == 3 and pooch_waits == [1, 2]  # pooch: 1 s, then 2 s, ...
    assert list((tmp_path / "raw").iterdir()) == []


@pytest.mark.parametrize(("behaviour", "error", "words"), [
    ("404", R.ReutersNotFoundError, r"failed \(1 attempt; the server answered 404 Client Error"),
    ("ok", ValueError, r"downloaded from .* lacks 20 of the 22 SGML files.* It was not kept"),  # not the collection
])
def test_what_cannot_pass_next_time_is_not_retried(small_archive, tmp_path, monkeypatch, archive_server,
                                                   pooch_waits, behaviour, error, words):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/r.tar.gz"] = (behaviour, small_archive[0].read_bytes())
    with pytest.raises(error, match=words):
        R.load_reuters21578(raw_dir=tmp_path / "raw", url=archive_server.url("/r.tar.gz"), cache=False,
                            retries=3, verbose=False)  # default checksums: the real 22 files
    assert archive_server.hits["/r.tar.gz"] == 1 and pooch_waits == []
    assert list((tmp_path / "raw").iterdir()) == []


def test_body_cut_short_leaves_nothing(small_archive, tmp_path, monkeypatch, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/r.tar.gz"] = ("short", small_archive[0].read_bytes())
    with pytest.raises(R.ReutersNotFoundError, match=r"downloading it from .* failed .*cut short"):
        R.load_reuters21578(raw_dir=tmp_path / "raw", url=archive_server.url("/r.tar.gz"), cache=False, retries=0)
    assert list((tmp_path / "raw").iterdir()) == []


def test_downloaded_archive_failing_its_checksum_is_not_kept(small_archive, tmp_path, monkeypatch, archive_server,
                                                             pooch_waits):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    src, files = small_archive
    archive_server.routes["/r.tar.gz"] = ("ok", src.read_bytes())
    raw = tmp_path / "raw"
    bad = dict({name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
               **{"reut2-001.sgm": "0" * 64})
    with pytest.raises(ValueError, match=r"downloaded from .*SHA-256 of reut2-001\.sgm.*not kept") as info:
        R.load_reuters21578(raw_dir=raw, url=archive_server.url("/r.tar.gz"), checksums=bad, cache=False)
    assert R.REUTERS_URL in str(info.value)
    assert list(raw.iterdir()) == []  # nothing left for the next load to pick up
    assert archive_server.hits["/r.tar.gz"] == 1 and pooch_waits == []  # a wrong file is not fetched again
    # an archive the user put in data/raw/ is never deleted, only reported
    (raw / "reuters21578.tar.gz").write_bytes(src.read_bytes())
    with pytest.raises(ValueError, match=r"SHA-256 of reut2-001\.sgm"):
        R.load_reuters21578(raw_dir=raw, url=None, checksums=bad, cache=False)
    assert (raw / "reuters21578.tar.gz").exists()


def test_download_progress_bar_respects_tqdm_disable(small_archive, tmp_path, monkeypatch, capsys, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/r.tar.gz"] = ("ok", small_archive[0].read_bytes())
    url = archive_server.url("/r.tar.gz")
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    pooch.get_logger().addHandler(handler)
    try:
        monkeypatch.delenv("TQDM_DISABLE", raising=False)
        R.load_reuters21578(raw_dir=tmp_path / "a", url=url, checksums=None, cache=False, verbose=True)
        err = capsys.readouterr().err
        assert "reuters21578.tar.gz" in err and "parsing SGML" in err
        monkeypatch.setenv("TQDM_DISABLE", "1")
        R.load_reuters21578(raw_dir=tmp_path / "b", url=url, checksums=None, cache=False, verbose=True)
        assert capsys.readouterr().err == ""
    finally:
        pooch.get_logger().removeHandler(handler)
    assert records == []  # pooch's "Downloading file ..." lines are silenced: our bar and errors speak
    assert pooch.get_logger().level == logging.NOTSET  # and its logger is left as it was


# --------------------------------------------------------------------------- finding the archive
def test_environment_variable_is_used(small_archive, tmp_path, monkeypatch):
    path, _ = small_archive
    monkeypatch.setenv(R.ENV_VAR, str(path))
    df = R.load_reuters21578(raw_dir=tmp_path / "empty", url=None, checksums=None, cache=False)
    assert len(df) == 5
    monkeypatch.setenv(R.ENV_VAR, str(tmp_path / "missing.tar.gz"))
    with pytest.raises(R.ReutersNotFoundError, match="REUTERS21578_PATH"):
        R.load_reuters21578(raw_dir=tmp_path / "empty", url=None, checksums=None, cache=False)


def test_read_archive_member_from_archive_and_folder(small_archive, tmp_path, monkeypatch):
    path, files = small_archive
    assert R.read_archive_member("reut2-001.sgm", path) == files["reut2-001.sgm"]
    folder = tmp_path / "extracted"
    folder.mkdir()
    (folder / "README.txt").write_bytes(b"Reuters Ltd. and Carnegie Group, Inc.")
    assert R.read_archive_member("README.txt", folder).startswith(b"Reuters Ltd.")
    with pytest.raises(ValueError, match=r"README\.txt is not in .*reut2-000\.sgm"):
        R.read_archive_member("README.txt", path)
    with pytest.raises(R.ReutersNotFoundError, match="No Reuters-21578 archive"):
        R.read_archive_member("README.txt", tmp_path / "nowhere.tar.gz")
    monkeypatch.setenv(R.ENV_VAR, str(path))
    with pytest.raises(ValueError, match=r"README\.txt is not in .*REUTERS21578_PATH=.*points at it"):
        R.read_archive_member("README.txt")
    monkeypatch.delenv(R.ENV_VAR)
    with pytest.raises(R.ReutersNotFoundError, match=r"Put it at .*raw.*reuters21578\.tar\.gz.*downloads it"):
        R.read_archive_member("README.txt", raw_dir=tmp_path / "raw")


# --------------------------------------------------------------------------- the parse cache
def test_cache_is_keyed_by_checksum_and_reused(small_archive, tmp_path, monkeypatch):
    path, _ = small_archive
    cache = tmp_path / "processed"
    first = R.load_reuters21578(path, checksums=None, cache_dir=cache)
    (cached,) = cache.glob("*.pkl")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest[:16] in cached.name

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed again despite the cache")

    monkeypatch.setattr(R, "read_sgml_files", no_parsing)
    pd.testing.assert_frame_equal(R.load_reuters21578(path, checksums=None, cache_dir=cache), first)


def test_unverified_cache_is_never_returned_by_a_verified_load(small_archive, tmp_path, monkeypatch):
    path, files = small_archive
    cache = tmp_path / "processed"
    R.load_reuters21578(path, checksums=None, cache_dir=cache)  # writes an unverified cache
    (unverified,) = cache.glob("*.pkl")
    assert "unverified" in unverified.name
    bad = {name: "0" * 64 for name in files}
    with pytest.raises(ValueError, match="SHA-256 of reut2-000.sgm"):
        R.load_reuters21578(path, checksums=bad, cache_dir=cache)  # checks, despite the cache
    good = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    verified = R.load_reuters21578(path, checksums=good, cache_dir=cache)
    assert len(list(cache.glob("*.pkl"))) == 2  # its own cache, next to the unverified one

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed again despite the verified cache")

    monkeypatch.setattr(R, "read_sgml_files", no_parsing)
    pd.testing.assert_frame_equal(R.load_reuters21578(path, checksums=good, cache_dir=cache), verified)


# --------------------------------------------------------------------------- the real corpus
RAW = R.RAW_DIR / "reuters21578.tar.gz"


@pytest.mark.integration
@pytest.mark.skipif(not RAW.exists() and not os.environ.get(R.ENV_VAR),
                    reason="Reuters-21578 archive absent (CI copies it into data/raw/)")
def test_full_corpus_loads_verified_and_cached(monkeypatch):
    df = R.load_reuters21578()  # verifies the 22 SHA-256 checksums on first load
    assert len(df) == 21578 and df["id"].is_unique and df["id"].is_monotonic_increasing
    assert df["file"].nunique() == 22 and df.columns.tolist() == R.COLUMNS
    repeated = df[df["topics_listed"].map(len) != df["topics"].map(len)]
    assert repeated["id"].tolist() == [5467, 19918]

    def no_parsing(*args, **kwargs):
        raise AssertionError("the second load parsed the archive again instead of reading the cache")

    monkeypatch.setattr(R, "read_sgml_files", no_parsing)
    again = R.load_reuters21578()
    pd.testing.assert_frame_equal(again, df)
