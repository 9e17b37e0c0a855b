"""The files people expect beside the workbook: LICENSE, CITATION.cff and the CI workflow.

- LICENSE is the standard text of the licence pyproject.toml declares (MIT).
- CITATION.cff carries the keys CFF 1.2.0 requires, agrees with pyproject.toml on title-level
  facts (version, licence) and cites the five sources of ``book/references.bib`` as references.
- ``.github/workflows/ci.yml`` runs the README's commands: ``make test`` on every push and pull
  request, and on the main branch ``make run`` and the Pages upload and deployment the README
  describes; the Makefile's ``make test`` starts with ruff, so CI lints too.
"""

import datetime
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

MIT_BODY = """\
Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


# ---------------------------------------------------------------- LICENSE

def test_license_is_the_declared_licence_word_for_word():
    assert PYPROJECT["license"] == "MIT", "the text below is MIT's: change both together"
    title, blank, copyright_line, blank2, *body = (ROOT / "LICENSE").read_text().splitlines(keepends=True)
    assert (title, blank, blank2) == ("MIT License\n", "\n", "\n")
    assert re.fullmatch(r"Copyright \(c\) \d{4}(-\d{4})? \S.*\n", copyright_line)
    assert "".join(body) == MIT_BODY


# ---------------------------------------------------------------- CITATION.cff

CFF_REQUIRED = {"cff-version", "message", "title", "authors"}  # CFF 1.2.0's required keys
REFERENCE_REQUIRED = {"type", "title", "authors"}
REFERENCE_TYPES = {"article", "book", "generic", "report", "slides", "thesis", "unpublished", "software"}


@pytest.fixture(scope="module")
def cff():
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def source_titles(bib: str) -> list[str]:
    """Titles of the entries in ``references.bib``'s "the five sources" section, braces dropped."""
    section = re.split(r"-{3,} the five sources\n", bib, maxsplit=1)[1]
    section = re.split(r"\n% -{3,}", section, maxsplit=1)[0]
    return [re.sub(r"[{}]", "", t) for t in re.findall(r"^\s*title\s*=\s*\{(.*)\},?\s*$", section, re.M)]


def _person_or_entity(author: dict) -> bool:
    return bool(author.get("family-names") or author.get("name"))


def test_citation_has_the_required_keys_and_agrees_with_pyproject(cff):
    assert CFF_REQUIRED <= cff.keys()
    assert cff["cff-version"] == "1.2.0"
    assert cff["authors"] and all(_person_or_entity(a) for a in cff["authors"])
    assert str(cff["version"]) == PYPROJECT["version"]
    assert cff["license"] == PYPROJECT["license"]
    datetime.date.fromisoformat(str(cff["date-released"]))
    assert "repository-code" not in cff or cff["repository-code"].startswith("https://")


def test_citation_cites_the_five_sources(cff):
    titles = source_titles((ROOT / "book" / "references.bib").read_text())
    assert len(titles) == 5
    refs = cff["references"]
    for ref in refs:
        assert REFERENCE_REQUIRED <= ref.keys(), ref.get("title")
        assert ref["type"] in REFERENCE_TYPES
        assert ref["authors"] and all(_person_or_entity(a) for a in ref["authors"])
    cited = [" ".join(ref["title"].split()) for ref in refs]
    assert sorted(cited) == sorted(titles)


def test_source_titles_are_read_from_the_bib_section():
    bib = "\n".join([
        "% the five sources, then the rest", "% --- the five sources", "",
        "@misc{a,", "  title = {A {Cholesky} kernel},", "  year = {2025}", "}", "",
        "% ---------------- textbooks", "@book{b,", "  title = {Not a source}", "}", ""])
    assert source_titles(bib) == ["A Cholesky kernel"]


# ---------------------------------------------------------------- the CI workflow

@pytest.fixture(scope="module")
def workflow():
    return yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())


def _runs(job: dict) -> list[str]:
    return [step["run"].strip() for step in job["steps"] if "run" in step]


def _uses(job: dict) -> list[str]:
    return [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]


def test_workflow_runs_make_test_on_every_push_and_pull_request(workflow):
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    assert triggers["push"] is None or "branches" not in triggers["push"], "every branch is tested"
    assert str(workflow["env"]["COVSIM_REQUIRE_LOCK"]) == "1"
    test = workflow["jobs"]["test"]
    assert "if" not in test
    assert "make test" in _runs(test)


def test_workflow_builds_and_publishes_the_book_on_main(workflow):
    jobs = workflow["jobs"]
    book = next(job for job in jobs.values() if "make run" in _runs(job))
    assert "refs/heads/main" in book["if"] and "push" in book["if"]
    assert "test" in book["needs"]
    upload = next(step for step in book["steps"] if step.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "build/book"
    deploy = next(job for job in jobs.values() if "actions/deploy-pages" in _uses(job))
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    needs = deploy["needs"] if isinstance(deploy["needs"], list) else [deploy["needs"]]
    assert [name for name, job in jobs.items() if job is book][0] in needs


def test_the_readme_and_makefile_name_the_commands_the_workflow_runs(workflow):
    readme = (ROOT / "README.md").read_text()
    makefile = (ROOT / "Makefile").read_text()
    commands = {run for job in workflow["jobs"].values() for run in _runs(job) if run.startswith("make ")}
    assert commands == {"make test", "make run"}
    for command in commands:
        assert f"{command} " in readme or f"{command}`" in readme, command
        assert re.search(rf"^{command.split()[1]}: ", makefile, re.M), command
    for action in ("actions/upload-pages-artifact", "actions/deploy-pages"):
        assert action in readme
    assert ".github/workflows/ci.yml" in readme


def test_ci_lints_and_requires_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    assert "ruff check ." in recipe, "make test (and so CI) runs ruff"
    assert re.search(r"^export COVSIM_REQUIRE_LOCK=1$", (ROOT / ".ci" / "run").read_text(), re.M)


def test_make_test_validates_the_workflow_against_githubs_schema(tmp_path):
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    assert "check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/ci.yml" in recipe
    checker = Path(sys.executable).with_name("check-jsonschema")
    if not checker.exists():
        pytest.skip("check-jsonschema is not installed (make setup installs it)")
    command = [str(checker), "--builtin-schema", "vendor.github-workflows"]
    good = subprocess.run([*command, str(ROOT / ".github" / "workflows" / "ci.yml")], capture_output=True, text=True)
    assert good.returncode == 0, good.stdout + good.stderr
    # a misspelt key, the kind of slip only GitHub would otherwise report, after the push
    bad = tmp_path / "ci.yml"
    bad.write_text((ROOT / ".github" / "workflows" / "ci.yml").read_text().replace("runs-on:", "runs_on:", 1))
    refused = subprocess.run([*command, str(bad)], capture_output=True, text=True)
    assert refused.returncode == 1 and "runs_on" in refused.stdout
