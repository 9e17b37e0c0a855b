"""What a notebook's cells call: the setup in one call, and findings shown as Markdown."""

from pathlib import Path

import nbformat
import numpy as np
import pytest
from IPython.core.formatters import DisplayFormatter

from helpers.studies import NOTEBOOKS
from helpers.workbook import Findings, SourceCheck, findings, notebook_setup

ROOT_NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def defaults(number):
    """The notebook's own parameters cell, run: its defaults, as papermill would leave them."""
    path = next(ROOT_NOTEBOOKS.glob(f"{number}_*.ipynb"))
    cell = next(c for c in nbformat.read(path, as_version=4).cells if "parameters" in c.metadata.get("tags", []))
    namespace = {}
    exec(cell.source, namespace)  # noqa: S102 - the committed notebook's parameters cell
    return {k: v for k, v in namespace.items() if not k.startswith("__")}


@pytest.fixture
def print_options():
    saved = np.get_printoptions()
    yield
    np.set_printoptions(**saved)


def test_notebook_setup_checks_the_parameters_and_returns_the_notebooks_check(print_options):
    namespace = defaults("04")
    assert set(NOTEBOOKS["04"].parameters) <= set(namespace)
    check = notebook_setup(namespace, "04")
    assert isinstance(check, SourceCheck) and check.notebook == "04" and check.rows == []
    assert check.unanswered() == SourceCheck("04").unanswered()
    assert np.get_printoptions()["precision"] == 4                    # nb_setup ran


def test_notebook_setup_stops_at_a_bad_parameter_before_any_setting(print_options):
    np.set_printoptions(precision=8)
    with pytest.raises(ValueError, match=r"^Parameter k = 0 \(int\) is not allowed: k takes an integer >= 1"):
        notebook_setup({**defaults("04"), "k": 0}, "04")
    with pytest.raises(ValueError, match="No parameter checks for notebook '98'"):
        notebook_setup({}, "98")
    assert np.get_printoptions()["precision"] == 8


def test_findings_carry_the_same_markdown_as_markdown_and_as_plain_text():
    acc = 107 / 114
    shown = findings(f"""
        **What we found.** The accuracy is {acc:.3f}:

        - as printed
        """)
    text = "**What we found.** The accuracy is 0.939:\n\n- as printed"
    assert isinstance(shown, Findings) and str(shown) == repr(shown) == text
    data, _ = DisplayFormatter().format(shown)                       # what Jupyter stores for the cell
    assert data == {"text/markdown": text, "text/plain": text}


def test_findings_refuse_anything_but_text():
    with pytest.raises(TypeError, match="findings take Markdown text"):
        findings(["a", "b"])
