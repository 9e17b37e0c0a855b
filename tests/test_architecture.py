"""The four layers of ``helpers`` and the direction of their imports.

The maths (flat modules of ``helpers``) imports nothing from the data loaders, the studies or
the workbook; the data layer imports neither studies nor workbook; studies do not import the
workbook (the workbook may read the studies' manifest). ``helpers/__init__.py`` is the public
facade (maths and loaders) and no module may import it, since that would pull in every layer.
"""

import ast
import re
from pathlib import Path

import pytest

import helpers

PACKAGE = Path(helpers.__file__).parent
ROOT = PACKAGE.resolve().parent
LAYERS = ("maths", "data", "studies", "workbook")
FORBIDDEN = {
    "maths": {"data", "studies", "workbook", "facade"},
    "data": {"studies", "workbook", "facade"},
    "studies": {"workbook", "facade"},
    "workbook": {"facade"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(name: str) -> str:
    """The layer of an absolute module name inside ``helpers``."""
    parts = name.split(".")
    if parts == ["helpers"]:
        return "facade"
    return parts[1] if parts[1] in ("data", "studies", "workbook") else "maths"  # helpers.plotting.* is maths


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Absolute names of the ``helpers`` modules a file imports (anywhere in it), with line numbers."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "helpers"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "helpers":
                continue
            # "from helpers import x" / "from . import x": x may be a module of that package
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    PACKAGE.parent / Path(*sub.split("."))).is_dir()
                found.append((node.lineno, sub if is_module else target))
    return found


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "__init__.py")


def test_every_module_belongs_to_a_layer():
    assert {layer(module_name(p)) for p in SOURCES} == set(LAYERS)
    assert layer("helpers.whitening") == "maths" and layer("helpers.data.reuters") == "data"
    assert layer("helpers.studies") == "studies" and layer("helpers") == "facade"
    assert layer("helpers.studies.generalisation") == "studies" and layer("helpers.significance") == "maths"
    assert layer("helpers.plotting.scores") == "maths"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_imports_point_down_the_layers(path):
    own = layer(module_name(path))
    bad = [f"line {line}: {name} ({layer(name)})" for line, name in imported_modules(path)
           if layer(name) in FORBIDDEN[own]]
    assert not bad, f"{path.name} is in the {own} layer and may not import: " + "; ".join(bad)


def test_the_checker_sees_a_forbidden_import(tmp_path, monkeypatch):
    fake = PACKAGE / "_architecture_probe.py"
    assert not fake.exists()
    text = "from .workbook.ledger import SourceCheck\n\ndef f():\n    from helpers.data import load_wdbc\n"
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: text)
    names = [name for _, name in imported_modules(fake)]
    assert [layer(n) for n in names] == ["workbook", "data"]
    assert FORBIDDEN["maths"] & {layer(n) for n in names} == {"workbook", "data"}


def test_public_names_still_import_from_the_package():
    import importlib

    for name in helpers.__all__:
        obj = getattr(helpers, name)
        defining = importlib.import_module(obj.__module__)
        assert layer(obj.__module__) in ("maths", "data"), f"{name} comes from {obj.__module__}"
        assert getattr(defining, name) is obj
    assert {"load_wdbc", "Whitener", "variance_adjusted_cosine", "binary_similarity"} <= set(helpers.__all__)


def test_public_names_load_their_module_when_first_used():
    import subprocess
    import sys

    # the command line and its worker processes import the workbook's tooling, the manifest and
    # the data folder's paths: none of them may load scikit-learn or SciPy's statistics (1 s a process)
    code = ("import sys, helpers, helpers.data, helpers.workbook.cli, helpers.workbook.run, "
            "helpers.workbook.sweep.runner, helpers.studies; "
            "print(sorted(m for m in ('sklearn', 'scipy.stats', 'helpers.whitening') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=PACKAGE.parent)
    assert loaded.stdout.strip() == "[]", loaded.stdout
    assert set(helpers.__all__) <= set(dir(helpers)) and set(helpers.data.__all__) <= set(dir(helpers.data))
    assert helpers.whitening.METHODS == ("zca", "zca_cor", "pca", "pca_cor", "cholesky")   # submodules as before
    with pytest.raises(AttributeError, match="module 'helpers' has no attribute 'Whitner'"):
        helpers.Whitner  # noqa: B018 - the lookup is the test


def private_names_imported(path: Path) -> list[str]:
    """``_name`` imported from another helpers module (the shared internals _io, _arrays, _validation aside)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("helpers")):
            source = (node.module or "").rsplit(".", 1)[-1]
            if source in ("_io", "_arrays", "_validation", "__future__"):
                continue
            found += [f"line {node.lineno}: {alias.name} from {'.' * node.level}{node.module or ''}"
                      for alias in node.names if alias.name.startswith("_")]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_module_imports_another_modules_private_names(path):
    assert not private_names_imported(path), f"{path.name} imports private names: {private_names_imported(path)}"


def test_the_private_name_check_sees_one(monkeypatch):
    text = "from .gram import _sq_norms, GramPCA\nfrom ._arrays import chunk_rows\n"
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: text)
    assert private_names_imported(PACKAGE / "_probe.py") == ["line 1: _sq_norms from .gram"]


# ---------------------------------------------------------------------------- module sizes
LONG_MODULE_LINES = 600


def test_every_module_over_600_lines_is_named_in_the_readme_with_its_reason():
    """README's architecture section names each longer module (one concept, said there); no stale name either."""
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index("Modules hold one concept each and stay under about 600 lines.")
    paragraph = readme[start:readme.index("\n\n", start)]
    named = set(re.findall(r"`(helpers(?:\.\w+)+)`", paragraph))
    long = {module_name(p) for p in [*SOURCES, PACKAGE / "__init__.py"]
            if len(p.read_text(encoding="utf-8").splitlines()) > LONG_MODULE_LINES}
    assert long <= named, f"over {LONG_MODULE_LINES} lines and not named in README: {sorted(long - named)}"
    assert named <= long, f"named in README but no longer over {LONG_MODULE_LINES} lines: {sorted(named - long)}"


def test_no_test_module_imports_another_test_module():
    """Shared test code lives in conftest.py files and tests/support.py, never in another test module."""
    tests = PACKAGE.parent / "tests"
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found += [f"{path.relative_to(tests)}:{node.lineno} {name}" for name in names
                      if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")]
    assert found == [], found


def import_graph() -> dict:
    """``{module: the modules it imports}`` among the modules of ``helpers`` that are not packages' ``__init__``."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    leaves = {name for name, p in modules.items() if p.name != "__init__.py"}
    return {name: {t for _, t in imported_modules(modules[name]) if t in leaves and t != name} for name in leaves}


def import_circles(graph: dict) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan): each is an import circle."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_helpers_has_no_import_circle():
    """No module imports, at any depth and even inside a function, a module that imports it back."""
    assert import_circles(import_graph()) == []


def test_the_circle_check_sees_one():
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


# ---------------------------------------------------------------- tests mirror the modules

#: where the tests of each layer live
_TEST_FOLDER = {"": "maths", "data": "data", "workbook": "workbook"}


def _untested_modules() -> list[str]:
    """Public modules and packages of the maths, data and workbook layers with no ``test_<name>*.py`` beside them."""
    missing = []
    for layer, folder in _TEST_FOLDER.items():
        source = Path(helpers.__file__).parent / layer
        names = [p.stem for p in source.glob("*.py")] + [p.name for p in source.iterdir()
                                                       if (p / "__init__.py").exists()]
        for name in names:
            if name.startswith("_") or name in _TEST_FOLDER.values() or name == "studies":
                continue
            if not list((ROOT / "tests" / folder).glob(f"test_{name}*.py")):
                missing.append(f"helpers/{layer + '/' if layer else ''}{name} -> tests/{folder}/test_{name}.py")
    return missing


def test_every_public_module_has_a_test_file_of_its_name():
    assert not _untested_modules(), "no test file named after the module: " + "; ".join(_untested_modules())


def test_the_repository_root_is_computed_in_one_place():
    """``helpers.data.paths`` computes the package and repository folders; every other module imports them."""
    computing = sorted(str(path.relative_to(PACKAGE.parent)) for path in PACKAGE.rglob("*.py")
                       if re.search(r"Path\(__file__\)[^\n]*\.parents?\b", path.read_text(encoding="utf-8")))
    assert computing == ["helpers/data/paths.py"], computing


#: overrides whose signature a library fixes (jupyter_client's kernel manager, PyYAML's constructor)
_LIBRARY_SIGNATURES = {"_async_cleanup_resources", "mapping"}


def _positional_booleans() -> list[str]:
    """Functions (not ``__init__``, where scikit-learn's convention passes every parameter by keyword) whose
    parameter with a ``True``/``False`` default can be passed by position."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name == "__init__" \
                    or node.name in _LIBRARY_SIGNATURES:
                continue
            positional = node.args.posonlyargs + node.args.args
            defaults = dict(zip(positional[len(positional) - len(node.args.defaults):], node.args.defaults))
            found += [f"{path.relative_to(PACKAGE.parent)}: {node.name}({arg.arg}=...)" for arg, default in
                      defaults.items() if isinstance(default, ast.Constant) and isinstance(default.value, bool)]
    return found


def test_boolean_parameters_are_keyword_only():
    assert not _positional_booleans(), "make these keyword-only (a * before them): " + "; ".join(_positional_booleans())
