"""Tests of helpers.data.paths, and that the data layer knows nothing of the machine it was developed on."""

import re

import pytest

from helpers.data import paths
from helpers.data.paths import DATA_DIR, PROCESSED_DIR, RAW_DIR, ROOT

DATA_LAYER = sorted((ROOT / "helpers" / "data").rglob("*.py"))  # the collection is a package


def test_the_folders_are_the_repository_s():
    assert (ROOT / "pyproject.toml").is_file() and (ROOT / "helpers" / "data" / "paths.py").is_file()
    assert (DATA_DIR, RAW_DIR, PROCESSED_DIR) == (ROOT / "data", ROOT / "data" / "raw", ROOT / "data" / "processed")
    assert sorted(paths.__all__) == ["DATA_DIR", "PACKAGE", "PROCESSED_DIR", "RAW_DIR", "ROOT"]

    assert paths.PACKAGE == ROOT / "helpers"

@pytest.mark.parametrize("path", DATA_LAYER, ids=lambda p: p.name)
def test_no_development_machine_path_in_code_docstrings_or_messages(path):
    # a user has neither the development machine's shared folder nor its /work/ tree: no message may send them there
    found = [f"line {n}: {line.strip()}" for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\.\./shared|SHARED_DATA_DIR|/work/", line)]
    assert not found, found


def test_the_scan_sees_a_shared_folder():
    assert re.search(r"\.\./shared|SHARED_DATA_DIR|/work/", "copy ../shared/data/mnist/ there")
    assert len(DATA_LAYER) >= 8  # every module of helpers/data is scanned
