"""The book's copy of an executed notebook, clean for a reader, and the check that a built site is.

:func:`book_notebook` is what :func:`helpers.workbook.book.write_sources` puts in the book for
each executed notebook: the comparison tables' JSON payload dropped, papermill's injected
``results_path`` hidden, each figure's title as its alt text, wide tables with narrower columns.
:func:`machine_paths` finds absolute paths of the building machine in a text, and
:func:`site_machine_paths` in every page of a built site (the book refuses them under ``--strict``).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from ..data.paths import ROOT
from .checks import MIME

__all__ = ["MANY_COLUMNS", "book_notebook", "machine_paths", "report_machine_paths", "site_machine_paths"]


def machine_paths(text: str, *also) -> list[str]:
    """The absolute paths of the building machine found in ``text``, each with the rest of its path.

    The folders looked for: the repository, the Python environment (its prefix and base prefix),
    the home folder, the temporary folder (and ``/tmp``), and any ``also`` (the build folder, say).
    A book that prints one tells its reader nothing and exposes the machine that built it.

    Examples
    --------
    >>> machine_paths(f"results_path = '{ROOT / 'build' / 'x.json'}'") == [str(ROOT / 'build' / 'x.json')]
    True
    >>> machine_paths("see build/results/00_primer.json and data/raw/")
    []
    """
    roots = {str(ROOT), sys.prefix, sys.base_prefix, str(Path.home()), tempfile.gettempdir(), "/tmp",
             *(str(p) for p in also)}
    roots = sorted({r.rstrip("/\\") for r in roots if r and r.rstrip("/\\")}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.~/-])(?:" + "|".join(map(re.escape, roots)) + r")(?![\w.-])[^\s\"'<>`),;]*")
    return list(dict.fromkeys(pattern.findall(text)))


#: what papermill injects for ``make run`` and a reader needs not see: where the results JSON went
_RUN_PARAMETERS = frozenset({"results_path"})
_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=")


def _hide_run_parameters(cell: dict) -> None:
    """Drop the run's own parameters from papermill's injected-parameters cell; hide the cell if nothing is left.

    ``make run`` injects only ``results_path``, the build machine's absolute path of the results
    JSON: the chapter shows the notebook's defaults (its ``parameters`` cell), not the folders of
    the machine that built it. A parameter set for the run (a sweep's) stays visible.
    """
    if "injected-parameters" not in cell.get("metadata", {}).get("tags", []):
        return
    source = cell.get("source", "")
    lines = (source if isinstance(source, str) else "".join(source)).splitlines(keepends=True)
    kept = [line for line in lines if (m := _ASSIGNED.match(line)) is None or m.group(1) not in _RUN_PARAMETERS]
    cell["source"] = "".join(kept)
    if all(not line.strip() or line.lstrip().startswith("#") for line in kept):
        cell["metadata"]["tags"] = [*cell["metadata"]["tags"], "remove-cell"]


def _figure_alt(cell: dict) -> None:
    """Each figure's title (stored by :func:`helpers.plotting.describe_figures`) as the alt text of its image.

    MyST-NB takes image options per cell (``mystnb: image: alt:``, its documented cell-level
    setting), not per output: a cell showing several figures with different titles gets them
    all, joined by ``"; "``.
    """
    alts = [meta["alt"] for output in cell.get("outputs", [])
            for mime, meta in output.get("metadata", {}).items()
            if mime.startswith("image/") and mime in output.get("data", {})
            and isinstance(meta, dict) and str(meta.get("alt", "")).strip()]
    if alts:
        options = cell.setdefault("metadata", {}).setdefault("mystnb", {}).setdefault("image", {})
        options.setdefault("alt", "; ".join(dict.fromkeys(alts)))


_STYLE = re.compile(r"(<style\b.*?</style>)", re.S | re.I)
_TEXT = re.compile(r"(?<=>)[^<>]+(?=<)")
_JOINER = re.compile(r"(?<=[A-Za-z0-9][_/])(?=[A-Za-z])")
_TD = re.compile(r"<td[^>]*>([^<]*)</td>", re.I)
_HEADER_ROW = re.compile(r"<thead[^>]*>\s*<tr[^>]*>(.*?)</tr>", re.S | re.I)
_NUMBER = re.compile(r"\s*[-+\u2212]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?%?\s*|\s*(nan|NaN|True|False)?\s*")
#: a table of numbers with at least this many columns gets upright-to-vertical headers (``book.css``)
MANY_COLUMNS = 10


def _readable_table(html: str, *, comparison: bool = False) -> str:
    """A pandas HTML table as the book shows it: narrower columns, so that a wide table fits the page.

    - Names may wrap after ``_`` and ``/`` (``n_<wbr>features``): a header such as
      ``tissue_gene_expression`` is one word to the browser, which would set the column as wide
      as the whole name. Numbers, the ``<style>`` block and the tags' attributes are left alone.
    - A table of numbers with :data:`MANY_COLUMNS` columns or more, its index included (a matrix)
      gets the class ``many-columns``, whose headers ``book/_static/book.css`` sets vertically:
      each column is then as wide as its numbers.
    - A notebook's comparison table (``comparison``) gets the class ``comparison``: its long
      texts (quantity, source, note) keep a readable width instead of a column of single words.

    Examples
    --------
    >>> _readable_table("<style>a_b {}</style><th>n_features</th><td>0.5</td><td>RBF/poly</td>")
    '<style>a_b {}</style><th>n_<wbr>features</th><td>0.5</td><td>RBF/<wbr>poly</td>'
    >>> head = "<thead><tr>" + "<th>m</th>" * 12 + "</tr></thead>"
    >>> _readable_table(f'<table class="dataframe">{head}<tr><td>0.935</td></tr></table>')[:42]
    '<table class="dataframe many-columns"><the'
    """
    parts = _STYLE.split(html)
    out = "".join(part if i % 2 else _TEXT.sub(lambda m: _JOINER.sub("<wbr>", m.group()), part)
                  for i, part in enumerate(parts))
    header, cells = _HEADER_ROW.search(html), _TD.findall(html)
    numeric = sum(bool(_NUMBER.fullmatch(c)) for c in cells)
    if comparison:
        out = out.replace('class="dataframe"', 'class="dataframe comparison"', 1)
    elif header and header.group(1).lower().count("<th") >= MANY_COLUMNS and cells and numeric >= 0.9 * len(cells):
        out = out.replace('class="dataframe"', 'class="dataframe many-columns"', 1)
    return out


#: MyST and reStructuredText directives and Markdown links that copy a file into the book: an include of any
#: file; an image, figure or download, or a linked file, outside the book's folder (``../`` or an absolute path)
_INCLUDE = re.compile(r"\{(?:literal)?include\}[^\n]*|\.\.\s+(?:literal)?include::[^\n]*"
                      r"|\{(?:image|figure|download)\}`?\s*[^\n]*?(?:\.\./|(?<![\w:])/)[^\n]*"
                      r"|\.\.\s+(?:image|figure)::\s*(?:\.\./|/)[^\n]*"
                      r"|\]\(\s*(?:\.\./|/)[^)\n]*\)")


def outside_file(nb: dict) -> tuple[int, str] | None:
    """The first Markdown cell that takes a file from outside the book, as ``(index, what)``; ``None`` if none does.

    Examples
    --------
    >>> outside_file({"cells": [{"cell_type": "markdown", "source": "```{include} ../../README.md\\n```"}]})
    (0, '{include} ../../README.md')
    >>> outside_file({"cells": [{"cell_type": "markdown", "source": "![a figure](figures/a.png)"}]}) is None
    True
    """
    for i, cell in enumerate(nb.get("cells", [])):
        source = cell.get("source", "")
        text = source if isinstance(source, str) else "".join(map(str, source))
        if cell.get("cell_type") == "markdown" and (found := _INCLUDE.search(text)):
            return i, found.group(0).strip()
    return None


def book_notebook(path: Path) -> str:
    """An executed notebook as the book shows it.

    - The comparison tables' JSON payload dropped: they keep their ``text/html`` (what the
      chapter shows) and ``text/plain``; the payload (:data:`helpers.workbook.checks.MIME`, read
      by the tests and the ledger) has no renderer in MyST-NB, which would warn once per table.
    - The run's injected ``results_path`` hidden (:func:`_hide_run_parameters`).
    - Each figure's title as its alt text (:func:`_figure_alt`).
    - Tables with narrower columns (:func:`_readable_table`), so that wide tables fit the page
      (``book/_static/book.css`` sets their size).
    - MyST-NB's execution settings dropped from the notebook's metadata (``mystnb.execution_mode``
      and the other ``execution_*`` keys): the book shows notebooks as ``make run`` executed them
      and executes nothing, whatever a notebook asks for.
    """
    nb = json.loads(path.read_text(encoding="utf-8"))
    settings = nb.get("metadata", {}).get("mystnb")
    if isinstance(settings, dict):
        for key in [key for key in settings if str(key).startswith("execution")]:
            del settings[key]
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            comparison = data.pop(MIME, None) is not None
            html = data.get("text/html")
            if html is not None and "<table" in (html if isinstance(html, str) else "".join(html)):
                text = html if isinstance(html, str) else "".join(html)
                data["text/html"] = _readable_table(text, comparison=comparison)
        _hide_run_parameters(cell)
        _figure_alt(cell)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def site_machine_paths(site, *also) -> dict[str, list[str]]:
    """The absolute paths of the building machine (:func:`machine_paths`) in a built site, by page.

    Read: every ``.html`` and ``.txt`` page and the search index (the text a reader can see or
    search); the themes' scripts and styles are not the book's text.
    """
    site = Path(site)
    pages = sorted(p for p in site.rglob("*") if p.suffix in (".html", ".txt") or p.name == "searchindex.js")
    found = {str(p.relative_to(site)): machine_paths(p.read_text(encoding="utf-8"), *also) for p in pages}
    return {page: paths for page, paths in found.items() if paths}


def report_machine_paths(site: Path, out: Path, strict: bool) -> dict[str, list[str]]:
    """Say which pages show a path of the building machine, and return them; under ``strict``, refuse the book."""
    found = site_machine_paths(site, Path(out).resolve())
    if not found:
        return found
    listing = "\n".join(f"  {page}: {', '.join(paths[:3])}" for page, paths in found.items())
    message = (f"{len(found)} page(s) of the book show an absolute path of this machine, which tells a reader "
               f"nothing:\n{listing}\nFind the cell that prints it (a returned Path, a warning's file name) and "
               "keep it from the output, e.g. `_ = save_results(...)`.")
    if strict:
        raise RuntimeError(message)
    print(message, file=sys.stderr)
    return found

