"""Tests of helpers.data.reuters_sgml: the SGML records, the archive's members, the checksums."""

import hashlib
import tarfile

import pandas as pd
import pytest

from helpers.data import reuters_sgml as S
from helpers.data.paths import RAW_DIR
from helpers.data.reuters_splits import class_counts
from tests.support import record, sgml, small_files, write_tar


# --------------------------------------------------------------------------- parsing
def test_parse_sgml_worked_example():
    text = sgml(record(7, ("grain", "wheat"), title="WHEAT &amp; CORN", body="price &lt;up&gt; caf\xe9"))
    (rec,) = S.parse_sgml(text.decode("latin-1"))
    assert rec["id"] == 7
    assert rec["topics"] == ["grain", "wheat"]
    assert rec["title"] == "WHEAT & CORN"
    assert rec["body"] == "price <up> caf\xe9\n Reuter"  # &#3; (a control code) dropped, Latin-1 kept
    assert (rec["lewissplit"], rec["cgisplit"], rec["topics_attr"]) == ("TRAIN", "TRAINING-SET", "YES")
    assert rec["date"] == "26-FEB-1987 15:01:01.79"


def test_a_topic_listed_twice_is_one_topic_of_the_document():
    # NEWID 19918 lists <D>trade</D> twice: one trade document, not two (Table 1 counts documents)
    text = sgml(record(19918, ("trade", "trade"), split="TEST"), record(5467, ("grain", "corn", "barley", "corn")))
    trade, corn = S.parse_sgml(text.decode("latin-1"))
    assert trade["topics"] == ["trade"] and trade["topics_listed"] == ["trade", "trade"]
    assert corn["topics"] == ["grain", "corn", "barley"]
    assert corn["topics_listed"] == ["grain", "corn", "barley", "corn"]
    train, test = pd.DataFrame([corn]), pd.DataFrame([trade])
    assert class_counts(train, test).loc[["trade", "corn"]].values.tolist() == [[0, 1], [1, 0]]
    assert class_counts(train, test, by="listing").loc[["trade", "corn"]].values.tolist() == [[0, 2], [2, 0]]


def test_record_without_body_uses_text():
    brief = ('<REUTERS TOPICS="NO" LEWISSPLIT="TRAIN" CGISPLIT="X" NEWID="9"><TOPICS></TOPICS>'
             '<TEXT TYPE="UNPROC">&#2;\nshort unprocessed text &#3;</TEXT></REUTERS>')
    (rec,) = S.parse_sgml(brief)
    assert rec["body"] == "short unprocessed text"
    assert rec["topics"] == [] and rec["title"] == ""


def test_truncated_sgml_raises_naming_file_and_record():
    text = sgml(record(1), record(2))[:-40].decode("latin-1")
    with pytest.raises(ValueError, match=r"reut2-005\.sgm: record NEWID=2 .*no closing"):
        S.parse_sgml(text, source="reut2-005.sgm")


def test_record_running_into_the_next_is_truncated():
    text = record(1).replace("</REUTERS>", "") + record(2)
    with pytest.raises(ValueError, match=r"NEWID=1 .*truncated"):
        S.parse_sgml(text)


def test_malformed_record_without_newid_raises():
    text = record(1).replace('NEWID="1"', 'NEWID="x1"')
    with pytest.raises(ValueError, match="no numeric NEWID"):
        S.parse_sgml(text)


# --------------------------------------------------------------------------- the archive and its members
def test_read_sgml_files_from_archive_and_folder_agree(small_archive, tmp_path):
    path, files = small_archive
    assert S.read_sgml_files(path) == files
    folder = tmp_path / "extracted" / "nested"
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (folder / "README.txt").write_bytes(b"not an SGML file")
    assert S.read_sgml_files(tmp_path / "extracted") == files


@pytest.mark.parametrize("bad_name", ["../reut2-000.sgm", "/etc/reut2-000.sgm", "a/../../x.txt"])
def test_path_traversal_member_is_refused(tmp_path, bad_name):
    path = write_tar(tmp_path / "evil.tar.gz", {"reut2-001.sgm": sgml(record(1)), bad_name: b"x"})
    with pytest.raises(ValueError, match="outside the archive"):
        S.read_sgml_files(path)
    with pytest.raises(ValueError, match="outside the archive"):
        S.read_member(path, "reut2-001.sgm")


def test_symlink_member_is_refused(tmp_path):
    path = tmp_path / "link.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo("reut2-000.sgm")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tar.addfile(info)
    with pytest.raises(ValueError, match="is a link"):
        S.read_sgml_files(path)


def test_an_sgml_file_held_twice_is_refused(tmp_path):
    members = {"a/reut2-000.sgm": sgml(record(1)), "b/reut2-000.sgm": sgml(record(2))}
    path = write_tar(tmp_path / "twice.tar.gz", members)
    with pytest.raises(ValueError, match=r"holds reut2-000\.sgm twice"):
        S.read_sgml_files(path)


def test_not_a_tar_raises(tmp_path):
    bogus = tmp_path / "reuters21578.tar.gz"
    bogus.write_bytes(b"<html>not found</html>")
    with pytest.raises(ValueError, match="not a readable tar archive"):
        S.read_sgml_files(bogus)
    label = "the archive downloaded from http://x"  # a download is named by its URL, not its temporary file
    with pytest.raises(ValueError, match=r"(?s)^the archive downloaded from http://x is not a readable tar .*HTML"):
        S.read_sgml_files(bogus, label=label)


def test_check_sgml_files_names_the_file_and_both_digests(small_archive):
    _, files = small_archive
    good = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    S.check_sgml_files(files, good, "here")  # passes
    S.check_sgml_files(files, None, "here")  # only presence checked
    bad = dict(good, **{"reut2-001.sgm": "0" * 64})
    digest = good["reut2-001.sgm"]
    with pytest.raises(ValueError, match=rf"here: SHA-256 of reut2-001\.sgm is {digest}, expected 0{{64}}; the file"):
        S.check_sgml_files(files, bad, "here")
    with pytest.raises(ValueError, match=r"here lacks 20 of the 22 SGML files \(reut2-002\.sgm, reut2-003\.sgm, "):
        S.check_sgml_files(files, S.SGML_SHA256, "here")
    with pytest.raises(ValueError, match=r"here holds no reut2-NNN\.sgm file"):
        S.check_sgml_files({}, None, "here")


def test_read_member_from_archive_and_folder(small_archive, tmp_path):
    path, files = small_archive
    assert S.read_member(path, "reut2-001.sgm") == files["reut2-001.sgm"]
    assert S.read_member(path, "some/folder/reut2-000.sgm") == files["reut2-000.sgm"]  # matched on its base name
    folder = tmp_path / "extracted"
    folder.mkdir()
    (folder / "README.txt").write_bytes(b"Reuters Ltd. and Carnegie Group, Inc.")
    assert S.read_member(folder, "README.txt").startswith(b"Reuters Ltd.")
    with pytest.raises(ValueError, match=r"README\.txt is not in .*its files are \['reut2-000\.sgm', 'reut2-001\.sgm'"):
        S.read_member(path, "README.txt")
    with pytest.raises(ValueError, match=r"cats\.txt is not in .*extracted; it holds \['README\.txt'\]"):
        S.read_member(folder, "cats.txt")


def test_archive_key_of_an_archive_and_of_a_folder(small_archive, tmp_path):
    path, files = small_archive
    assert S.archive_key(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    folder = tmp_path / "extracted"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    expected = hashlib.sha256(b"".join(name.encode() + hashlib.sha256(data).hexdigest().encode()
                                       for name, data in sorted(files.items()))).hexdigest()
    assert S.archive_key(folder) == expected
    (folder / "reut2-001.sgm").write_bytes(files["reut2-001.sgm"] + b" ")  # one byte more: another key
    assert S.archive_key(folder) != expected


def test_small_files_hold_the_records_the_builders_wrote():
    files = small_files()
    ids = [rec["id"] for name in sorted(files) for rec in S.parse_sgml(files[name].decode("latin-1"))]
    assert ids == [1, 2, 3, 4, 5]


# --------------------------------------------------------------------------- the real archive
RAW = RAW_DIR / S.ARCHIVE_NAME


@pytest.mark.integration
@pytest.mark.skipif(not RAW.exists(), reason="Reuters-21578 archive absent (CI copies it into data/raw/)")
def test_archive_checksum_and_its_members_agree():
    # ARCHIVE_SHA256 is the copy's own hash; its 22 SGML members carry the distribution's checksums
    assert hashlib.sha256(RAW.read_bytes()).hexdigest() == S.ARCHIVE_SHA256
    files = S.read_sgml_files(RAW)
    assert {name: hashlib.sha256(data).hexdigest() for name, data in files.items()} == S.SGML_SHA256
    S.check_sgml_files(files, S.SGML_SHA256, RAW)
    assert b"Reuters-21578 text categorization test collection" in S.read_member(RAW, "README.txt")[:100]
