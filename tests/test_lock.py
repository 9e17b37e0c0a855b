"""The locked environment: ``requirements/lock.txt`` against pyproject.toml and against ``.venv``.

``make setup`` installs exactly the lock (hashes required), so the stored notebook outputs are
reproduced with the versions they were made with. The lock is universal: an entry whose
environment marker is false here (a Windows-only package, a dependency of Python 3.12 only) is
not expected to be installed.

The comparison with the running environment is strict where the environment must be the
lock (CI sets ``COVSIM_REQUIRE_LOCK=1``: a difference fails) and informative elsewhere: someone
who upgraded a package on purpose gets a skip that names the differences, and ``make test``
prints one warning line (``python tests/lockfile.py``, which holds the reading and comparing).
"""

from __future__ import annotations

import os
import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.lockfile import (
    LOCK,
    ROOT,
    SELF,
    STRICT_ENV,
    UV_LOCK,
    applicable,
    differences,
    lock_differences,
    parse_lock,
    warning_line,
)

# ---------------------------------------------------------------- the lock files themselves

def _lock():
    return parse_lock(LOCK.read_text())


def test_every_entry_is_pinned_and_hashed():
    for path in (LOCK, UV_LOCK):
        entries = parse_lock(path.read_text())
        assert entries, f"{path.name} is empty"
        unhashed = [n for n, (_, _, hashes) in entries.items() if not hashes]
        assert unhashed == [], f"{path.name}: entries without hashes: {unhashed}"
        assert all(h.startswith("sha256:") for _, _, hashes in entries.values() for h in hashes)


def test_lock_satisfies_pyproject():
    """Every dependency that `make setup` installs (runtime + the dev extra, followed through its
    self-references) and the build backend are locked at a version pyproject.toml allows."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    reqs = [Requirement(r) for r in project["project"]["dependencies"]]
    reqs += [Requirement(r) for r in project["build-system"]["requires"]]
    todo, seen = ["dev"], set()
    while todo:
        extra = todo.pop()
        seen.add(extra)
        for req in map(Requirement, extras[extra]):
            if canonicalize_name(req.name) == SELF:
                todo += sorted(req.extras - seen)
            else:
                reqs.append(req)
    locked = {n: v for n, (v, _, _) in _lock().items()}
    problems = []
    for req in reqs:
        version = locked.get(canonicalize_name(req.name))
        if version is None:
            problems.append(f"{req.name} is not locked")
        elif not req.specifier.contains(version, prereleases=True):
            problems.append(f"{req.name}: locked {version} outside {req.specifier}")
    assert problems == []
    assert "pystan" not in locked, "the hierarchical extra is not part of what make setup installs"


def test_uv_lock_pins_uv_alone():
    assert list(parse_lock(UV_LOCK.read_text())) == ["uv"]


def test_setup_installs_the_lock_with_hashes_required():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^LOCK\s*:=\s*requirements/lock\.txt$", makefile, re.M)
    # uv, the default, compiles to bytecode as pip does (else each process compiles: PYTHONDONTWRITEBYTECODE)
    assert "pip sync --quiet --python $(PY) --require-hashes --compile-bytecode $(LOCK)" in makefile
    assert "pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)" in makefile  # INSTALLER=pip
    assert "--require-hashes --no-deps -r $(UV_LOCK)" in makefile
    assert makefile.count("--no-deps --no-build-isolation -e .") == 2  # the workbook itself, nothing unlocked
    assert re.search(r"^lock: .*##", makefile, re.M), "make lock is a documented target"
    assert LOCK.read_text().splitlines()[1].strip() == "#    make lock"


# ---------------------------------------------------------------- the comparison

LOCKED = parse_lock("""\
numpy==2.4.6 \\
    --hash=sha256:aa
colorama==0.4.6 ; sys_platform == 'no-such-platform' \\
    --hash=sha256:bb
    # via tqdm
Scikit_Learn==1.9.1 \\
    --hash=sha256:cc \\
    --hash=sha256:dd
""")


def test_parse_lock_reads_pins_markers_and_hashes():
    assert {n: v for n, (v, _, _) in LOCKED.items()} == {"numpy": "2.4.6", "colorama": "0.4.6", "scikit-learn": "1.9.1"}
    assert LOCKED["scikit-learn"][2] == ["sha256:cc", "sha256:dd"]
    assert applicable(LOCKED) == {"numpy": "2.4.6", "scikit-learn": "1.9.1"}  # colorama's marker is false


def test_parse_lock_refuses_ranges_and_duplicates():
    with pytest.raises(ValueError, match="one exact version"):
        parse_lock("numpy>=2.0 --hash=sha256:aa\n")
    with pytest.raises(ValueError, match="locked twice"):
        parse_lock("numpy==2.0 --hash=sha256:aa\nNumPy==2.0 --hash=sha256:aa\n")


def test_differences_name_each_drift():
    locked = applicable(LOCKED)
    same = {"numpy": "2.4.6", "scikit-learn": "1.9.1", "pip": "23.2.1", SELF: "0.1.0", "uv": "0.13.9"}
    assert differences(same, locked, {"uv": "0.13.9"}) == []
    assert differences({k: v for k, v in same.items() if k != "uv"}, locked, {"uv": "0.13.9"}) == []
    drift = {**same, "numpy": "2.5.0", "pystan": "3.10.0", "uv": "0.14.0"}
    del drift["scikit-learn"]
    assert differences(drift, locked, {"uv": "0.13.9"}) == [
        "scikit-learn 1.9.1 missing", "numpy 2.5.0 instead of 2.4.6", "pystan 3.10.0 not in the lock",
        "uv 0.14.0 instead of 0.13.9"]


def test_warning_is_one_line():
    diffs = [f"pkg{i} 1.0 not in the lock" for i in range(5)]
    line = warning_line(diffs)
    assert "\n" not in line and "5 packages" in line and "and 2 more" in line
    assert "in 1 package:" in warning_line(diffs[:1])


def test_installed_environment_is_the_lock():
    """``pip freeze`` equals the lock (the workbook itself and pip aside). Fails under
    COVSIM_REQUIRE_LOCK=1 (CI); elsewhere a deliberate upgrade is a skip that names it."""
    diffs = lock_differences()
    if diffs and os.environ.get(STRICT_ENV) != "1":
        pytest.skip(f"not the locked environment ({STRICT_ENV} unset): " + "; ".join(diffs))
    assert diffs == []
