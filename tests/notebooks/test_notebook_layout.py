"""How a notebook reads: a short setup from its study module, at most 60 cells, findings as Markdown.

A reader meets the same shape in every notebook: the parameters, a setup cell of a few lines
that imports the notebook's study module (``helpers.studies``, as the manifest names it), one
idea per cell, and "What we found" rendered as Markdown with the values of this run (never
``print``ed Markdown, which the book would show with literal ``**``).
"""

import ast
import re
from pathlib import Path

import nbformat
import pytest

from helpers.studies import notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MAX_SETUP_LINES = 12
MAX_CELLS = 60
MARKDOWN_IN_TEXT = re.compile(r"\*\*[^*\n]+\*\*|^\s*#{1,6} \S|^\s*- \*\*", re.M)


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.name)
def nb(request):
    return request.param, nbformat.read(request.param, as_version=4)


def setup_cell(nb):
    cells = nb.cells
    (i,) = [i for i, c in enumerate(cells) if "parameters" in c.metadata.get("tags", [])]
    following = [c for c in cells[i + 1:] if c.cell_type == "code"]
    return following[0]


def test_the_manifest_knows_every_notebook(nb):
    path, _ = nb
    entry = notebook(path.name)
    assert entry is not None, f"{path.name} is not in helpers.studies.NOTEBOOKS: add its entry"
    assert entry.stem == path.stem


def setup_statements(source: str) -> list[str]:
    """The setup cell's lines that are not imports: its imports are the reader's map of where each name
    comes from (the library, scikit-learn, the study), the rest is the setup proper."""
    imports = {n for node in ast.parse(source).body if isinstance(node, (ast.Import, ast.ImportFrom))
               for n in range(node.lineno, node.end_lineno + 1)}
    return [line for i, line in enumerate(source.splitlines(), 1) if line.strip() and i not in imports]


def test_setup_cell_is_short(nb):
    path, book = nb
    lines = setup_statements(setup_cell(book).source)
    assert len(lines) <= MAX_SETUP_LINES, (
        f"{path.name}: the setup cell has {len(lines)} lines besides its imports (at most {MAX_SETUP_LINES}); "
        "move what is not setup to the cells that use it")


def test_setup_lines_leave_the_imports_out():
    source = "import numpy as np\nfrom helpers import (\n    a,\n    b,\n)\n\ncheck = setup()\nresults = {}\n"
    assert setup_statements(source) == ["check = setup()", "results = {}"]


def test_a_study_package_exports_only_its_own_code():
    """Its namespace holds what the study defines (tables, checks, readings), never a name from the library,
    scikit-learn or another study: a notebook imports those by their own names."""
    import importlib
    import inspect
    import pkgutil

    import helpers.studies

    borrowed = []
    for info in pkgutil.iter_modules(helpers.studies.__path__):
        package = importlib.import_module(f"helpers.studies.{info.name}")
        public = {n for n, v in vars(package).items() if not n.startswith("_") and not inspect.ismodule(v)}
        for name in sorted(public | set(getattr(package, "__all__", ()))):   # what it lists and what it holds
            obj = getattr(package, name)
            home = getattr(obj, "__module__", None) or ""
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and not home.startswith(package.__name__):
                borrowed.append(f"{info.name}.{name} (from {home})")
    assert borrowed == [], f"study packages re-export names defined elsewhere: {borrowed}"


def test_setup_imports_its_study_module(nb):
    path, book = nb
    studies = notebook(path.name).studies
    source = setup_cell(book).source
    if studies:
        assert any(re.search(rf"helpers\.studies(\.| import ){s}\b", source) for s in studies), (
            f"{path.name}: the setup cell imports none of its study modules {studies}")
    assert "notebook_setup(globals()" in source, f"{path.name}: the setup cell does not call notebook_setup"


def test_at_most_sixty_cells(nb):
    path, book = nb
    assert len(book.cells) <= MAX_CELLS, f"{path.name} has {len(book.cells)} cells (at most {MAX_CELLS})"


def test_no_printed_markdown(nb):
    path, book = nb
    for i, cell in enumerate(book.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                hit = MARKDOWN_IN_TEXT.search(out.get("text", ""))
                assert not hit, f"{path.name}, cell {i} prints Markdown ({hit.group(0)!r}): display it as Markdown"


def test_what_we_found_is_markdown_with_computed_values(nb):
    path, book = nb
    cells = book.cells
    (start,) = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and re.search(r"^#+ What we found",
                                                                                          c.source, re.M)]
    end = next((i for i in range(start + 1, len(cells))
                if cells[i].cell_type == "markdown" and re.match(r"#+ ", cells[i].source)), len(cells))
    shown = [out for c in cells[start + 1:end] if c.cell_type == "code" for out in c.get("outputs", [])
             if "text/markdown" in out.get("data", {})]
    assert shown, f"{path.name}: 'What we found' shows no Markdown computed in this run"
    assert all(out["data"]["text/plain"].strip() == out["data"]["text/markdown"].strip() for out in shown), (
        "the findings' text/plain must carry the Markdown itself, so that nbval compares the numbers")


#: code that chooses a verdict: comparing p-values or effects, or picking the weakest comparison;
#: every such rule lives in helpers.workbook.verdicts, which a notebook calls through its check
VERDICT_RULES = [
    re.compile(r"""\[\s*["'](?:p_value|p_holm|p|effect|mean_diff|median_diff|t)["']\s*\]\s*\.idxm(?:ax|in)\("""),
    re.compile(r"""sort_values\(\s*["'](?:p_value|p_holm|effect|mean_diff|median_diff|t)["']"""),
    re.compile(r"""(?:p_value|p_holm|\bp)["']?\]?\s*(?:<=?|>=?)\s*(?:alpha|0?\.0[15])\b"""),
    re.compile(r"""(?:effect|mean_diff|median_diff)["']\]\s*(?:<=?|>=?)\s*0\b"""),
    re.compile(r"""\bdef\s+weakest\b"""),
]


def test_no_notebook_cell_holds_a_verdict_rule(nb):
    path, book = nb
    found = [(i, m.group(0)) for i, cell in enumerate(book.cells) if cell.cell_type == "code"
             for rule in VERDICT_RULES for m in rule.finditer(cell.source)]
    assert not found, (f"{path.name}: cells choose a verdict by hand ({found[:4]}); give the effects to "
                       "check.claim(..., effect=..., comparisons=...), which decides by helpers.workbook.verdicts")


@pytest.mark.parametrize("code", [
    'weak = tests.loc[tests["p_value"].idxmax()]', 'beyond.sort_values("p_value").iloc[-1]',
    'survives = corr.loc[s, "p_value"] < alpha / 3', 'if (t1["effect"] <= 0).any():', "def weakest(names):",
])
def test_the_verdict_rule_patterns_catch_the_old_forms(code):
    assert any(rule.search(code) for rule in VERDICT_RULES)


#: the own study's functions that compute a claim's evidence: claim_evidence gives the table and the effects at once
EVIDENCE_CALLS = ("claim_evidence", "claim_table", "claim_effects")


def evidence_computed_twice(sources: list[str]) -> list[str]:
    """Calls that compute a claim's evidence already computed: the same arguments given twice to the study's
    evidence functions, or to ``claim_table``/``claim_effects`` after ``claim_evidence`` gave both."""
    seen, repeated = {}, []
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in EVIDENCE_CALLS:
                arguments = ast.unparse(ast.Call(ast.Name("f"), node.args, node.keywords))
                if arguments in seen:
                    repeated.append(f"{node.func.attr}{arguments[1:]} (already by {seen[arguments]})")
                seen.setdefault(arguments, node.func.attr)
    return repeated


def test_notebook_08_computes_each_claims_evidence_once():
    book = nbformat.read(ROOT / "notebooks" / "08_generalisation.ipynb", as_version=4)
    sources = [c.source for c in book.cells if c.cell_type == "code"]
    assert any("claim_evidence(" in s for s in sources)
    assert evidence_computed_twice(sources) == []


def test_the_twice_check_sees_a_repeated_evidence():
    once = "table, effects = study.claim_evidence(scores, protocol, metric=metric, exclude=left_out)\n"
    again = "effects = study.claim_effects(scores, protocol, metric=metric, exclude=left_out)\n"
    other = "balanced = study.claim_effects(scores, protocol, metric='balanced_accuracy', exclude=left_out)\n"
    assert evidence_computed_twice([once, other]) == []
    assert evidence_computed_twice([once, again]) == [
        "claim_effects(scores, protocol, metric=metric, exclude=left_out) (already by claim_evidence)"]
