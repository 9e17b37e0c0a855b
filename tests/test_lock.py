"""The locked environment: ``requirements/lock.txt`` against pyproject.toml and against ``.venv``.

``make setup`` installs exactly the lock (hashes required), so the stored notebook outputs are
reproduced with the versions they were made with. The lock is universal: an entry whose
environment marker is false here (a Windows-only package, a dependency of Python 3.12 only) is
not expected to be installed.

The comparison with the running environment is strict where the environment must be the
lock (CI sets ``COVSIM_REQUIRE_LOCK=1``: a difference fails) and informative elsewhere: someone
who upgraded a package on purpose gets a skip that names the differences, and ``make test``
prints one warning line (this file run as a script, ``python tests/test_lock.py``).
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "lock.txt"
UV_LOCK = ROOT / "requirements" / "uv.txt"
SELF = "covsim-workbook"
# The venv's own installer (its version comes with Python) is not part of the lock.
IGNORED = {"pip"}
STRICT_ENV = "COVSIM_REQUIRE_LOCK"


def parse_lock(text: str) -> dict[str, tuple[str, Marker | None, list[str]]]:
    """``{name: (version, marker, hashes)}`` of a hashed requirements file (``uv pip compile --generate-hashes``)."""
    entries = {}
    logical = re.sub(r"\\\n", " ", text)  # join the continuation lines
    for line in logical.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        hashes = re.findall(r"--hash=(\S+)", line)
        req = Requirement(re.sub(r"\s*--hash=\S+", "", line))
        pins = [spec for spec in req.specifier if spec.operator == "=="]
        if len(pins) != 1 or len(req.specifier) != 1:
            raise ValueError(f"{req.name}: a lock entry must pin one exact version, not {req.specifier}")
        name = canonicalize_name(req.name)
        if name in entries:
            raise ValueError(f"{name} is locked twice")
        entries[name] = (pins[0].version, req.marker, hashes)
    return entries


def applicable(entries: dict) -> dict[str, str]:
    """``{name: version}`` of the entries whose marker holds for the running interpreter and platform."""
    return {name: version for name, (version, marker, _) in entries.items() if marker is None or marker.evaluate()}


def installed() -> dict[str, str]:
    """``{name: version}`` of the distributions the running interpreter sees (what ``pip freeze`` lists)."""
    return {canonicalize_name(dist.metadata["Name"]): dist.version for dist in metadata.distributions()}


def differences(have: dict[str, str], locked: dict[str, str], optional: dict[str, str] | None = None) -> list[str]:
    """How ``have`` differs from ``locked``, one short phrase each (empty: the environment is the lock).

    ``optional`` packages (the installer, uv) may be absent, but if present must be at their pin;
    the workbook itself and :data:`IGNORED` are left out.
    """
    optional = optional or {}
    have = {n: v for n, v in have.items() if n != SELF and n not in IGNORED}
    out = [f"{n} {v} missing" for n, v in sorted(locked.items()) if n not in have]
    out += [f"{n} {have[n]} instead of {v}" for n, v in sorted(locked.items()) if n in have and have[n] != v]
    for n, v in sorted(have.items()):
        if n in locked:
            continue
        if n in optional:
            if v != optional[n]:
                out.append(f"{n} {v} instead of {optional[n]}")
        else:
            out.append(f"{n} {v} not in the lock")
    return out


def lock_differences() -> list[str]:
    return differences(installed(), applicable(parse_lock(LOCK.read_text())),
                       applicable(parse_lock(UV_LOCK.read_text())))


def warning_line(diffs: list[str], shown: int = 3) -> str:
    """The one line ``make test`` prints when the environment is not the lock."""
    listed = "; ".join(diffs[:shown]) + (f"; and {len(diffs) - shown} more" if len(diffs) > shown else "")
    return (f"warning: the environment differs from {LOCK.relative_to(ROOT)} in {len(diffs)} "
            f"package{'s' * (len(diffs) != 1)}: {listed}; results may differ from the stored outputs; "
            "`rm .venv/.installed && make setup` restores the lock")


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


def main() -> int:
    """Print one warning line when the running environment is not the lock; never fails."""
    diffs = lock_differences()
    if diffs:
        print(warning_line(diffs), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
