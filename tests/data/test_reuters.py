"""Tests of helpers.data.reuters: SGML parsing, archive safety, checksums, lookup, download, cache, splits."""

import hashlib
import io
import socket
import tarfile
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pandas as pd
import pytest

from helpers.data import reuters as R
from tests.support import record, refused_url, sgml, small_files, write_tar

def test_parse_sgml_worked_example():
    text = sgml(record(7, ("grain", "wheat"), title="WHEAT &amp; CORN", body="price &lt;up&gt; caf\xe9"))
    (rec,) = R.parse_sgml(text.decode("latin-1"))
    assert rec["id"] == 7
    assert rec["topics"] == ["grain", "wheat"]
    assert rec["title"] == "WHEAT & CORN"
    assert rec["body"] == "price <up> caf\xe9\n Reuter"  # &#3; (a control code) dropped, Latin-1 kept
    assert (rec["lewissplit"], rec["cgisplit"], rec["topics_attr"]) == ("TRAIN", "TRAINING-SET", "YES")
    assert rec["date"] == "26-FEB-1987 15:01:01.79"


def test_a_topic_listed_twice_is_one_topic_of_the_document():
    # NEWID 19918 lists <D>trade</D> twice: one trade document, not two (Table 1 counts documents)
    text = sgml(record(19918, ("trade", "trade"), split="TEST"), record(5467, ("grain", "corn", "barley", "corn")))
    trade, corn = R.parse_sgml(text.decode("latin-1"))
    assert trade["topics"] == ["trade"] and trade["topics_listed"] == ["trade", "trade"]
    assert corn["topics"] == ["grain", "corn", "barley"]
    train, test = pd.DataFrame([corn]), pd.DataFrame([trade])
    assert R.class_counts(train, test).loc[["trade", "corn"]].values.tolist() == [[0, 1], [1, 0]]
    assert R.class_counts(train, test, by="listing").loc[["trade", "corn"]].values.tolist() == [[0, 2], [2, 0]]
    # single-label: a document listing one topic twice has one topic
    assert R.single_label(test, ["trade"])["label"].tolist() == ["trade"]
    hand_made = pd.DataFrame({"topics": [["trade", "trade"], ["acq"]]})  # a table not from the parser
    assert R.single_label(hand_made, ["trade", "acq"])["label"].tolist() == ["trade", "acq"]
    assert R.make_setting(hand_made, hand_made, "single_label", 2)[2].tolist() == ["trade", "acq"]
    assert R.top_categories(pd.DataFrame({"topics": [["b", "b", "b"], ["a"], ["a"]]}), 1) == ["a"]
    with pytest.raises(ValueError, match="by must be 'document'"):
        R.class_counts(train, test, by="tags")
    with pytest.raises(ValueError, match="topics_listed"):
        R.class_counts(hand_made, hand_made, by="listing")


def test_record_without_body_uses_text():
    brief = ('<REUTERS TOPICS="NO" LEWISSPLIT="TRAIN" CGISPLIT="X" NEWID="9"><TOPICS></TOPICS>'
             '<TEXT TYPE="UNPROC">&#2;\nshort unprocessed text &#3;</TEXT></REUTERS>')
    (rec,) = R.parse_sgml(brief)
    assert rec["body"] == "short unprocessed text"
    assert rec["topics"] == [] and rec["title"] == ""


def test_truncated_sgml_raises_naming_file_and_record():
    text = sgml(record(1), record(2))[:-40].decode("latin-1")
    with pytest.raises(ValueError, match=r"reut2-005\.sgm: record NEWID=2 .*no closing"):
        R.parse_sgml(text, source="reut2-005.sgm")


def test_record_running_into_the_next_is_truncated():
    text = record(1).replace("</REUTERS>", "") + record(2)
    with pytest.raises(ValueError, match=r"NEWID=1 .*truncated"):
        R.parse_sgml(text)


def test_malformed_record_without_newid_raises():
    text = record(1).replace('NEWID="1"', 'NEWID="x1"')
    with pytest.raises(ValueError, match="no numeric NEWID"):
        R.parse_sgml(text)


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


@pytest.mark.parametrize("bad_name", ["../reut2-000.sgm", "/etc/reut2-000.sgm", "a/../../x.txt"])
def test_path_traversal_member_is_refused(tmp_path, bad_name):
    path = write_tar(tmp_path / "evil.tar.gz", {"reut2-001.sgm": sgml(record(1)), bad_name: b"x"})
    with pytest.raises(ValueError, match="outside the archive"):
        R.load_reuters21578(path, checksums=None, cache=False)


def test_symlink_member_is_refused(tmp_path):
    path = tmp_path / "link.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo("reut2-000.sgm")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tar.addfile(info)
    with pytest.raises(ValueError, match="is a link"):
        R.load_reuters21578(path, checksums=None, cache=False)


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
    assert "reuters21578.tar.gz" in msg and str(tmp_path / "raw") in msg and R.REUTERS_URL in msg and url in msg
    assert R.ENV_VAR in msg and "Connection" in msg
    assert isinstance(info.value, ValueError) and isinstance(info.value, FileNotFoundError)
    assert not any((tmp_path / "raw").glob("*"))  # no partial download left behind


def test_explicit_missing_path_raises(tmp_path):
    with pytest.raises(R.ReutersNotFoundError, match="No Reuters-21578 archive or folder at"):
        R.load_reuters21578(tmp_path / "nope.tar.gz")


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
    assert archive_server.hits["/r.tar.gz"] == 1
    R.load_reuters21578(raw_dir=raw, url=archive_server.url("/r.tar.gz"), checksums=good, cache=False)
    assert archive_server.hits["/r.tar.gz"] == 1  # the kept archive is used, not downloaded again


def test_body_cut_short_leaves_nothing(small_archive, tmp_path, monkeypatch, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/r.tar.gz"] = ("short", small_archive[0].read_bytes())
    with pytest.raises(R.ReutersNotFoundError, match=r"downloading it from .* failed .*cut short"):
        R.load_reuters21578(raw_dir=tmp_path / "raw", url=archive_server.url("/r.tar.gz"), cache=False, retries=0)
    assert list((tmp_path / "raw").iterdir()) == []


def test_environment_variable_is_used(small_archive, tmp_path, monkeypatch):
    path, _ = small_archive
    monkeypatch.setenv(R.ENV_VAR, str(path))
    df = R.load_reuters21578(raw_dir=tmp_path / "empty", url=None, checksums=None, cache=False)
    assert len(df) == 5
    monkeypatch.setenv(R.ENV_VAR, str(tmp_path / "missing.tar.gz"))
    with pytest.raises(R.ReutersNotFoundError, match="REUTERS21578_PATH"):
        R.load_reuters21578(raw_dir=tmp_path / "empty", url=None, checksums=None, cache=False)


def test_cache_is_keyed_by_checksum_and_reused(small_archive, tmp_path, monkeypatch):
    path, _ = small_archive
    cache = tmp_path / "processed"
    first = R.load_reuters21578(path, checksums=None, cache_dir=cache)
    (cached,) = cache.glob("*.pkl")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest[:16] in cached.name

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed again despite the cache")

    monkeypatch.setattr(R, "_read_sgml_files", no_parsing)
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

    monkeypatch.setattr(R, "_read_sgml_files", no_parsing)
    pd.testing.assert_frame_equal(R.load_reuters21578(path, checksums=good, cache_dir=cache), verified)


def test_downloaded_archive_failing_its_checksum_is_not_kept(small_archive, tmp_path, monkeypatch, archive_server):
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
    # an archive the user put in data/raw/ is never deleted, only reported
    (raw / "reuters21578.tar.gz").write_bytes(src.read_bytes())
    with pytest.raises(ValueError, match=r"SHA-256 of reut2-001\.sgm"):
        R.load_reuters21578(raw_dir=raw, url=None, checksums=bad, cache=False)
    assert (raw / "reuters21578.tar.gz").exists()


def test_download_progress_bar_respects_tqdm_disable(small_archive, tmp_path, monkeypatch, capsys, archive_server):
    monkeypatch.delenv(R.ENV_VAR, raising=False)
    archive_server.routes["/r.tar.gz"] = ("ok", small_archive[0].read_bytes())
    url = archive_server.url("/r.tar.gz")
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    R.load_reuters21578(raw_dir=tmp_path / "a", url=url, checksums=None, cache=False, verbose=True)
    err = capsys.readouterr().err
    assert "reuters21578.tar.gz" in err and "parsing SGML" in err
    monkeypatch.setenv("TQDM_DISABLE", "1")
    R.load_reuters21578(raw_dir=tmp_path / "b", url=url, checksums=None, cache=False, verbose=True)
    assert capsys.readouterr().err == ""


def test_read_archive_member_from_archive_and_folder(small_archive, tmp_path):
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


def test_split_helpers_on_small_archive(small_archive):
    path, _ = small_archive
    df = R.load_reuters21578(path, checksums=None, cache=False)
    train, test = R.modapte_split(df)
    assert train["id"].tolist() == [1, 2] and test["id"].tolist() == [4]
    train_all, _ = R.modapte_split(df, keep_without_topics=True)
    assert train_all["id"].tolist() == [1, 2, 3]
    assert R.top_categories(train, 1) == ["earn"]
    assert R.class_counts(train, test).to_dict("index") == {"earn": {"train": 2, "test": 0},
                                                             "acq": {"train": 1, "test": 1}}
    assert R.categories_with_train_and_test(train, test) == ["acq"]
    assert R.single_label(train, ["earn", "acq"])["label"].tolist() == ["earn"]


def test_make_setting_shapes():
    tr = pd.DataFrame({"topics": [["a"], ["a", "b"], ["b"], ["c", "a"]]})
    te = pd.DataFrame({"topics": [["b"], ["a", "c"], ["d"]]})
    rows, rows_te, y, _, classes = R.make_setting(tr, te, "multi_label", 2)
    assert classes == ["a", "b"] and rows.tolist() == [0, 1, 2, 3] and rows_te.tolist() == [0, 1]
    np.testing.assert_array_equal(y, [[1, 0], [1, 1], [0, 1], [1, 0]])
    with pytest.raises(ValueError, match="setting must be one of"):
        R.make_setting(tr, te, "R52")


def test_bad_inputs_to_split_helpers():
    with pytest.raises(ValueError, match="load_reuters21578"):
        R.modapte_split(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="positive integer"):
        R.top_categories(pd.DataFrame({"topics": [["a"]]}), 0)
    with pytest.raises(ValueError, match="among must be"):
        R.single_label(pd.DataFrame({"topics": [["a"]]}), ["a"], among="some")


# --------------------------------------------------------------------------- the real corpus
RAW = R.RAW_DIR / "reuters21578.tar.gz"


@pytest.mark.integration
@pytest.mark.skipif(not RAW.exists() and not R.os.environ.get(R.ENV_VAR),
                    reason="Reuters-21578 archive absent (CI copies it into data/raw/)")
def test_full_corpus_counts_and_cached_load(monkeypatch):
    df = R.load_reuters21578()  # verifies the 22 SHA-256 checksums on first load
    assert len(df) == 21578 and df["id"].is_unique
    train, test = R.modapte_split(df)
    assert (len(train), len(test)) == (7775, 3019)
    train_all, test_all = R.modapte_split(df, keep_without_topics=True)
    assert (len(train_all), len(test_all)) == (9603, 3299)
    counts = R.class_counts(train, test).head(10)
    assert counts.to_dict("index") == {  # documents: NEWID 19918 lists trade twice, NEWID 5467 corn twice
        "earn": {"train": 2877, "test": 1087}, "acq": {"train": 1650, "test": 719},
        "money-fx": {"train": 538, "test": 179}, "grain": {"train": 433, "test": 149},
        "crude": {"train": 389, "test": 189}, "trade": {"train": 369, "test": 117},
        "interest": {"train": 347, "test": 131}, "wheat": {"train": 212, "test": 71},
        "ship": {"train": 197, "test": 89}, "corn": {"train": 181, "test": 56},
    }
    listing = R.class_counts(train, test, by="listing")
    assert listing.loc["trade"].tolist() == [369, 118] and listing.loc["corn"].tolist() == [182, 56]
    repeated = df[df["topics_listed"].map(len) != df["topics"].map(len)]
    assert repeated["id"].tolist() == [5467, 19918]
    topics_in_modapte = {t for ts in pd.concat([train_all, test_all])["topics"] for t in ts}
    assert len(topics_in_modapte) == 118 and len({t for ts in df["topics"] for t in ts}) == 120
    assert len(R.categories_with_train_and_test(train, test)) == 90
    top10 = R.top_categories(train, 10)
    r8_train = R.single_label(train, top10)
    assert len(r8_train) == 5485 and r8_train["label"].nunique() == 8
    assert len(R.single_label(test, top10)) == 2190  # with NEWID 19918 (trade, listed twice)
    # exactly one of the ten, whatever else: still not ten classes (corn never, wheat once without grain)
    one_of_ten_train = R.single_label(train, top10, among="categories")
    one_of_ten_test = R.single_label(test, top10, among="categories")
    assert one_of_ten_train["label"].nunique() == 9 and (one_of_ten_train["label"] == "wheat").sum() == 1
    assert one_of_ten_test["label"].nunique() == 8
    assert "corn" not in set(one_of_ten_train["label"]) | set(one_of_ten_test["label"])
    def no_parsing(*args, **kwargs):
        raise AssertionError("the second load parsed the archive again instead of reading the cache")

    monkeypatch.setattr(R, "_read_sgml_files", no_parsing)
    again = R.load_reuters21578()
    pd.testing.assert_frame_equal(again, df)





@pytest.mark.integration
@pytest.mark.skipif(not RAW.exists(), reason="Reuters-21578 archive absent (CI copies it into data/raw/)")
def test_archive_checksum_and_its_members_agree():
    # ARCHIVE_SHA256 is the copy's own hash; its 22 SGML members carry the distribution's checksums
    assert R._sha256_file(RAW) == R.ARCHIVE_SHA256
    files = R._read_sgml_files(RAW)
    assert {name: hashlib.sha256(data).hexdigest() for name, data in files.items()} == R.SGML_SHA256
