"""environment.yml (conda) lists exactly what pyproject.toml does, with the same lower bounds."""

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CONDA_NAMES = {"matplotlib": "matplotlib-base"}  # PyPI name -> conda-forge name
CONDA_ONLY = {"python", "pip"}


def pyproject_requirements(data: dict) -> dict[str, str]:
    project = data["project"]
    reqs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        reqs += [r for r in extra if canonicalize_name(Requirement(r).name) != canonicalize_name(project["name"])]
    out = {}
    for r in reqs:
        req = Requirement(r)
        name = canonicalize_name(req.name)
        out[CONDA_NAMES.get(name, name)] = str(req.specifier)
    return out


def conda_requirements(data: dict) -> dict[str, str]:
    out = {}
    for dep in data["dependencies"]:
        if isinstance(dep, dict):  # the nested pip: list
            continue
        name, spec = re.match(r"^([A-Za-z0-9_.\-]+)\s*(.*)$", dep).groups()
        out[canonicalize_name(name)] = spec.replace(" ", "")
    return out


def compare(py: dict, conda: dict) -> list[str]:
    conda = {k: v for k, v in conda.items() if k not in CONDA_ONLY}
    problems = [f"only in pyproject.toml: {n}" for n in sorted(set(py) - set(conda))]
    problems += [f"only in environment.yml: {n}" for n in sorted(set(conda) - set(py))]
    problems += [
        f"{n}: pyproject {py[n]!r} vs environment.yml {conda[n]!r}"
        for n in sorted(set(py) & set(conda))
        if SpecifierSet(py[n]) != SpecifierSet(conda[n])
    ]
    return problems


@pytest.fixture(scope="module")
def files():
    return (
        tomllib.loads((ROOT / "pyproject.toml").read_text()),
        yaml.safe_load((ROOT / "environment.yml").read_text()),
    )


def test_same_dependencies(files):
    py, env = files
    assert compare(pyproject_requirements(py), conda_requirements(env)) == []


def test_python_pin_satisfies_requires_python(files):
    py, env = files
    pin = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python"))
    lower = re.search(r"(\d+\.\d+)", pin).group(1)
    assert SpecifierSet(py["project"]["requires-python"]).contains(f"{lower}.0")
    assert {"pip": ["-e .[dev]"]} in env["dependencies"]


def test_drift_is_detected(files):
    py, env = files
    reqs = pyproject_requirements(py)
    assert compare({**reqs, "statsmodels": ">=0.14"}, conda_requirements(env)) == ["only in pyproject.toml: statsmodels"]
    assert compare({**reqs, "numpy": ">=2.1"}, conda_requirements(env)) == ["numpy: pyproject '>=2.1' vs environment.yml '>=2.0'"]
