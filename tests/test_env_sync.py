"""environment.yml (conda) lists exactly what pyproject.toml does, with the same lower bounds.

pyproject.toml is the single source of truth: runtime dependencies and
every extra, flattened, except the self-referencing ``covsim-workbook[...]`` extra. A package
conda-forge does not carry (:data:`PIP_ONLY`) is listed in environment.yml's ``pip:`` section,
after ``-e .[dev]``, with the same bound.
"""

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

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


def compare(py: dict[str, str], conda: dict[str, str]) -> list[str]:
    """Differences between the two requirement maps, one sentence each (empty: in sync)."""
    conda = {k: v for k, v in conda.items() if k not in CONDA_ONLY}
    problems = [f"only in pyproject.toml: {n}" for n in sorted(py.keys() - conda.keys())]
    problems += [f"only in environment.yml: {n}" for n in sorted(conda.keys() - py.keys())]
    for n in sorted(py.keys() & conda.keys()):
        try:
            same = SpecifierSet(py[n]) == SpecifierSet(conda[n])
        except InvalidSpecifier:  # e.g. conda's fuzzy `=1.2`: keep to the shared `>=x.y` subset
            same = False
        if not same:
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


def test_same_dependencies(files):
    py, env = files
    conda, pip = conda_requirements(env), pip_requirements(env)
    assert compare(pyproject_requirements(py), {**conda, **pip}) == []
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


def test_drift_is_detected(files):
    py, env = files
    reqs, conda = pyproject_requirements(py), {**conda_requirements(env), **pip_requirements(env)}
    extra = {"example-package": ">=0.14"}
    assert compare({**reqs, **extra}, conda) == ["only in pyproject.toml: example-package"]
    assert compare(reqs, {**conda, **extra}) == ["only in environment.yml: example-package"]
    bumped = compare({**reqs, "numpy": ">=2.1"}, conda)
    assert bumped == [f"numpy: pyproject '>=2.1' vs environment.yml {conda['numpy']!r}"]
    fuzzy = compare(reqs, {**conda, "numpy": "=2.0"})  # conda's `=` is not a PEP 440 specifier
    assert fuzzy == [f"numpy: pyproject {reqs['numpy']!r} vs environment.yml '=2.0'"]


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
