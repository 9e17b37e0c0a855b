"""environment.yml (conda) lists exactly what pyproject.toml does, at the lock's versions.

pyproject.toml is the single source of truth for the names: runtime dependencies and
every extra, flattened, except the self-referencing ``covsim-workbook[...]`` extra. The versions
are those of ``requirements/lock.txt`` (what ``make setup`` installs), pinned with ``==``; a
package the lock does not hold (the optional extra ``hierarchical``) keeps pyproject.toml's bound.
A package conda-forge does not carry (:data:`PIP_ONLY`) is listed in environment.yml's ``pip:``
section, after ``-e .[dev]``, pinned the same way.
"""

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from tests.lockfile import LOCK, parse_lock

ROOT = Path(__file__).resolve().parents[1]
CONDA_NAMES = {"matplotlib": "matplotlib-base", "playwright": "playwright-python"}  # PyPI -> conda-forge
CONDA_ONLY = {"python", "pip"}
PIP_ONLY = {"sphinx-mathjax-offline"}  # not on conda-forge


def pyproject_requirements(data: dict) -> dict[str, str]:
    """``{conda name: specifier}`` of the runtime dependencies and all extras of a parsed pyproject."""
    project = data["project"]
    me = canonicalize_name(project["name"])
    reqs = [Requirement(r) for r in project["dependencies"]]
    reqs += [Requirement(r) for extra in project.get("optional-dependencies", {}).values() for r in extra]
    out = {}
    for req in reqs:
        name = canonicalize_name(req.name)
        if name != me:  # the same package in two extras is fine, with two different bounds it is not
            spec = str(req.specifier)
            assert out.setdefault(CONDA_NAMES.get(name, name), spec) == spec, f"{name}: conflicting bounds"
    return out


def conda_requirements(data: dict) -> dict[str, str]:
    """``{name: specifier}`` of a parsed environment.yml, without the nested ``pip:`` list."""
    out = {}
    for dep in data["dependencies"]:
        if isinstance(dep, dict):
            continue
        name, spec = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", dep).groups()
        name = canonicalize_name(name)
        assert name not in out, f"{name} listed twice in environment.yml"
        out[name] = spec.replace(" ", "")
    return out


def pip_requirements(data: dict) -> dict[str, str]:
    """``{name: specifier}`` of the packages in environment.yml's ``pip:`` section (the editable install left out)."""
    out = {}
    for dep in data["dependencies"]:
        if isinstance(dep, dict):
            for line in dep.get("pip", []):
                if not line.startswith("-e "):
                    req = Requirement(line)
                    out[canonicalize_name(req.name)] = str(req.specifier)
    return out


def locked_versions(text: str) -> dict[str, str]:
    """``{conda name: version}`` of a lock file's entries."""
    return {CONDA_NAMES.get(n, n): version for n, (version, _, _) in parse_lock(text).items()}


def compare(py: dict[str, str], conda: dict[str, str], locked: dict[str, str] | None = None) -> list[str]:
    """Differences between the requirement maps, one sentence each (empty: in sync).

    Without ``locked`` the specifiers must be equal; with it, a locked package must be pinned at
    ``==`` its locked version in environment.yml, and the others keep pyproject.toml's specifier.
    """
    locked = locked or {}
    conda = {k: v for k, v in conda.items() if k not in CONDA_ONLY}
    problems = [f"only in pyproject.toml: {n}" for n in sorted(py.keys() - conda.keys())]
    problems += [f"only in environment.yml: {n}" for n in sorted(conda.keys() - py.keys())]
    for n in sorted(py.keys() & conda.keys()):
        want = f"=={locked[n]}" if n in locked else py[n]
        try:
            same = SpecifierSet(want) == SpecifierSet(conda[n])
        except InvalidSpecifier:  # e.g. conda's fuzzy `=1.2`: keep to the shared PEP 440 subset
            same = False
        if same:
            continue
        if n in locked:
            problems.append(f"{n}: environment.yml {conda[n]!r}, the lock has {want!r}")
        else:
            problems.append(f"{n}: pyproject {py[n]!r} vs environment.yml {conda[n]!r}")
    return problems


def python_lower_bound(conda: dict[str, str]) -> str:
    """The lowest Python version the environment.yml pin allows (``=3.11``, ``==3.11`` or ``>=3.11``)."""
    match = re.fullmatch(r"(?:=|==|>=)(\d+\.\d+(?:\.\d+)?)(?:\.\*)?", conda.get("python", ""))
    assert match, f"environment.yml must pin python as =X.Y or >=X.Y, not {conda.get('python')!r}"
    return match.group(1)


@pytest.fixture(scope="module")
def files():
    return (
        tomllib.loads((ROOT / "pyproject.toml").read_text()),
        yaml.safe_load((ROOT / "environment.yml").read_text()),
    )


@pytest.fixture(scope="module")
def locked():
    return locked_versions(LOCK.read_text())


def test_same_dependencies_at_the_locked_versions(files, locked):
    py, env = files
    conda, pip = conda_requirements(env), pip_requirements(env)
    assert compare(pyproject_requirements(py), {**conda, **pip}, locked) == []
    assert set(pip) == PIP_ONLY, "only the packages conda-forge lacks go under pip:"
    assert not PIP_ONLY & conda.keys(), "a pip-only package is listed as a conda package"


def test_python_pin_satisfies_requires_python(files):
    py, env = files
    requires = SpecifierSet(py["project"]["requires-python"])
    assert requires.contains(python_lower_bound(conda_requirements(env))), f"requires-python {requires}"


def test_conda_only_entries_and_pip_section(files):
    _, env = files
    assert "conda-forge" in env["channels"]
    assert {"python", "pip"} <= conda_requirements(env).keys()
    pip = [dep["pip"] for dep in env["dependencies"] if isinstance(dep, dict)]
    assert len(pip) == 1 and pip[0][0] == "-e .[dev]"


def test_the_lock_covers_everything_but_the_optional_stan_extra(files, locked):
    py, _ = files
    assert sorted(pyproject_requirements(py).keys() - locked.keys()) == ["arviz-stats", "pystan"]


def test_drift_is_detected(files, locked):
    py, env = files
    reqs, conda = pyproject_requirements(py), {**conda_requirements(env), **pip_requirements(env)}
    extra = {"example-package": ">=0.14"}
    assert compare({**reqs, **extra}, conda, locked) == ["only in pyproject.toml: example-package"]
    assert compare(reqs, {**conda, **extra}, locked) == ["only in environment.yml: example-package"]
    moved = compare(reqs, conda, {**locked, "numpy": "2.5.0"})  # the lock refreshed, environment.yml not
    assert moved == [f"numpy: environment.yml {conda['numpy']!r}, the lock has '==2.5.0'"]
    bound = compare(reqs, {**conda, "numpy": ">=2.0"}, locked)  # a bound where the lock has a version
    assert bound == [f"numpy: environment.yml '>=2.0', the lock has '=={locked['numpy']}'"]
    fuzzy = compare(reqs, {**conda, "numpy": "=2.4"}, locked)  # conda's `=` is not a PEP 440 specifier
    assert fuzzy == [f"numpy: environment.yml '=2.4', the lock has '=={locked['numpy']}'"]
    unlocked = compare({**reqs, "pystan": ">=3.5"}, conda, locked)  # not locked: pyproject's bound
    assert unlocked == [f"pystan: pyproject '>=3.5' vs environment.yml {conda['pystan']!r}"]


def test_parsing_maps_names_and_drops_the_self_extra():
    py = {
        "project": {
            "name": "covsim-workbook",
            "dependencies": ["Matplotlib>=3.8", "scikit_learn>=1.6"],
            "optional-dependencies": {"test": ["pytest>=8.0"], "dev": ["covsim-workbook[test]"]},
        }
    }
    env = {"dependencies": ["python=3.11", "pip", "matplotlib-base >=3.8", "scikit-learn>=1.6", "pytest>=8.0",
                            {"pip": ["-e .[dev]"]}]}
    expected = {"matplotlib-base": ">=3.8", "scikit-learn": ">=1.6", "pytest": ">=8.0"}
    assert pyproject_requirements(py) == expected
    assert compare(pyproject_requirements(py), conda_requirements(env)) == []
    assert python_lower_bound(conda_requirements(env)) == "3.11"


def test_pip_section_is_read_with_its_bounds():
    env = {"dependencies": ["python>=3.11", "pip", {"pip": ["-e .[dev]", "sphinx-mathjax-offline>=0.0.2",
                                                            "Some_Pkg >= 1.0"]}]}
    assert pip_requirements(env) == {"sphinx-mathjax-offline": ">=0.0.2", "some-pkg": ">=1.0"}
    assert conda_requirements(env) == {"python": ">=3.11", "pip": ""}


def test_lock_names_are_mapped_to_conda_names():
    text = ("matplotlib==3.11.2 \\\n    --hash=sha256:aa\n"
            "playwright==1.65.2 --hash=sha256:bb\nnumpy==2.4.6 --hash=sha256:cc\n")
    assert locked_versions(text) == {"matplotlib-base": "3.11.2", "playwright-python": "1.65.2", "numpy": "2.4.6"}
