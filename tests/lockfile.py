"""The lock file, read and compared with the running environment (the tests are tests/test_lock.py).

``make test`` and ``make unit`` run this file as a script first: one warning line when the
environment is not ``requirements/lock.txt``, never a failure (``tests/test_lock.py`` fails
instead where ``COVSIM_REQUIRE_LOCK=1``, as in CI).
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

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


def main() -> int:
    """Print one warning line when the running environment is not the lock; never fails."""
    diffs = lock_differences()
    if diffs:
        print(warning_line(diffs), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
