"""End to end, as a reader opens it: the book in headless Chromium, from disk, offline.

Builds the book from the committed notebooks (copied into a temporary ``build/notebooks``, as
``make run`` would leave them; nothing is executed) with Sphinx warnings as errors, opens it
from ``file://`` and checks that every chapter loads, that notebook 03's equations are typeset
by MathJax (and no ``$`` of the markdown is left in the text), that notebook 04's figures are
images that decoded, that the ledger page has one row per ledger row, that no page logs a console
error, and that no request leaves the machine (every request that is not ``file://`` is refused
and fails the test). A clean book: no page shows an absolute path of the machine that built it
(each notebook gets papermill's injected ``results_path`` cell, as ``make run`` leaves it), no
chapter shows a library warning, and every figure's alt text is its title. Screenshots go to
``build/book_e2e_*.png``. Chromium comes from Debian and is driven through ``executable_path``
(the ``chromium`` fixture of ``tests/conftest.py``).
"""

import json
import re
from pathlib import Path

import nbformat
import pytest

from helpers.workbook.book import build_book, machine_paths, site_machine_paths
from helpers.workbook.ledger import load_ledger

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.integration,
]

# Text of the article without code, outputs and typeset maths: what the markdown cells say.
PROSE = """() => {
  const article = document.querySelector('article').cloneNode(true);
  article.querySelectorAll('.cell_input, .cell_output, pre, code, mjx-container, .math, script')
         .forEach(e => e.remove());
  return article.innerText;
}"""


# A warning as Python prints it ("...: UserWarning: ..."), or the call that raised it.
WARNING = re.compile(r"\b\w*Warning: |warnings\.warn\(")


def _as_make_run_leaves_it(src: Path, out: Path) -> None:
    """``src`` copied to ``out/notebooks`` with papermill's injected-parameters cell after its parameters cell."""
    nb = nbformat.read(src, as_version=4)
    at = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])) + 1
    injected = nbformat.v4.new_code_cell(f'# Parameters\nresults_path = "{out / "results" / (src.stem + ".json")}"\n')
    injected.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(at, injected)
    nbformat.write(nb, out / "notebooks" / src.name)


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    (out / "notebooks").mkdir()
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        _as_make_run_leaves_it(nb, out)
    index = build_book(out, strict=True).index
    return index.parent, sorted(p.stem for p in (out / "notebooks").glob("*.ipynb"))


class Reader:
    """One page with its console errors and every request that would leave the machine."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1300, "height": 1000})
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("request", lambda req: self._check(req.url))

    def _check(self, url: str) -> None:
        if not url.startswith(("file://", "data:", "blob:", "about:")):
            self.outside.append(url)

    def _route(self, route):
        url = route.request.url
        if url.startswith(("file://", "data:", "blob:", "about:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def open(self, path: Path):
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")
        return self.page

    def close(self):
        self.context.close()


@pytest.fixture
def reader(chromium):
    r = Reader(chromium)
    yield r
    r.close()
    assert r.outside == [], f"requests that would leave the machine: {r.outside[:10]}"
    assert r.errors == [], f"console errors: {r.errors[:10]}"


def _shot(page, name: str) -> Path:
    path = ROOT / "build" / f"book_e2e_{name}.png"
    path.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(path))
    return path


# What each chapter shows a reader, read once per chapter for the tests below (a page load is the
# slow part of these tests).
CHAPTER = """() => ({
  title: (document.querySelector('article h1') || {innerText: ''}).innerText,
  cells: document.querySelectorAll('div.cell').length,
  article: document.querySelector('article').innerText,
  text: document.body.innerText + ' ' + [...document.querySelectorAll('[alt], [href], [src]')]
        .map(e => [e.alt, e.getAttribute('href'), e.getAttribute('src')].join(' ')).join(' '),
  stderr: document.querySelectorAll('article .cell_output .stderr').length,
  outputs: [...document.querySelectorAll('article .cell_output')].map(e => e.innerText).join('\\n'),
  alts: [...document.querySelectorAll('article .cell_output img')].map(e => e.alt),
  comparisons: [...document.querySelectorAll('article table.comparison')].map(t => t.scrollWidth
    <= (t.closest('.output, .pst-scrollable-table-container') || t.parentElement).clientWidth + 1),
})"""


@pytest.fixture(scope="module")
def chapters_seen(book, chromium):
    """Each chapter opened once in the browser: ``{stem: what CHAPTER reads}``."""
    site, chapters = book
    reader = Reader(chromium)
    try:
        seen = {stem: reader.open(site / "notebooks" / f"{stem}.html").evaluate(CHAPTER) for stem in chapters}
    finally:
        reader.close()
    assert reader.outside == [], f"requests that would leave the machine: {reader.outside[:10]}"
    assert reader.errors == [], f"console errors: {reader.errors[:10]}"
    return seen


def test_every_chapter_loads_from_the_contents(book, reader, chapters_seen):
    site, chapters = book
    page = reader.open(site / "index.html")
    _shot(page, "index")
    links = page.eval_on_selector_all("nav.bd-links a.reference.internal", "els => els.map(e => e.href)")
    assert [Path(h).stem for h in links if "/notebooks/" in h] == chapters
    for stem, seen in chapters_seen.items():
        assert seen["title"].startswith(stem[:2] + " "), (stem, seen["title"])
        assert seen["cells"] > 0, f"{stem}: no notebook cells on the page"


def test_equations_of_notebook_03_are_typeset(book, reader):
    site, chapters = book
    stem = next(s for s in chapters if s.startswith("03_"))
    page = reader.open(site / "notebooks" / f"{stem}.html")
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")
    typeset = page.locator("mjx-container").count()
    assert typeset >= 20, f"only {typeset} MathJax containers"
    assert page.locator("mjx-merror").count() == 0, "MathJax could not typeset some TeX"
    prose = page.evaluate(PROSE)
    assert "$" not in prose, prose[max(0, prose.find("$") - 80): prose.find("$") + 80]
    page.locator("mjx-container").nth(5).scroll_into_view_if_needed()
    _shot(page, "03_equations")


def test_figures_of_notebook_04_are_shown(book, reader):
    site, chapters = book
    stem = next(s for s in chapters if s.startswith("04_"))
    page = reader.open(site / "notebooks" / f"{stem}.html")
    widths = page.eval_on_selector_all("article .cell_output img", "els => els.map(e => e.naturalWidth)")
    assert len(widths) >= 2, f"{len(widths)} figures"
    assert all(w > 0 for w in widths), widths
    page.locator("article .cell_output img").first.scroll_into_view_if_needed()
    _shot(page, "04_figure")


def test_ledger_page_has_every_row(book, reader):
    site, _ = book
    page = reader.open(site / "ledger.html")
    rows = page.locator("table.ledger tbody tr").count()
    assert rows == len(load_ledger())
    verdicts = page.locator("table.ledger tbody tr td:last-child span[class^='verdict-']").count()
    assert verdicts == rows  # every row shows its verdict, "out of scope" or "unanswered"
    _shot(page, "ledger")


def test_no_page_shows_a_path_of_the_building_machine(book, chapters_seen):
    site, _ = book
    out = site.parent
    assert site_machine_paths(site, out) == {}  # every page's text, the search index too
    for stem, seen in chapters_seen.items():  # what a reader sees, the injected-parameters cell included
        assert "results_path =" not in seen["article"], f"{stem}: the injected parameters are shown"
        assert machine_paths(seen["text"], out) == [], stem


def test_no_chapter_shows_a_library_warning(chapters_seen):
    for stem, seen in chapters_seen.items():
        assert seen["stderr"] == 0, f"{stem}: a stderr output is shown"
        outputs = seen["outputs"]
        at = [m.start() for m in WARNING.finditer(outputs)]
        assert at == [], f"{stem}: a warning in the outputs: {outputs[max(0, at[0] - 200):at[0] + 200]}"


def test_every_figure_has_its_title_as_alt_text(book, chapters_seen):
    site, _ = book
    for stem, seen in chapters_seen.items():
        nb = json.loads((site.parent / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
        titles = [o.get("metadata", {}).get("image/png", {}).get("alt", "")
                  for c in nb["cells"] for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
        assert all(titles), (f"{stem}: figures without a stored title {titles}: a figure with no title, or a "
                             "notebook executed before nb_setup stored them (re-execute it: make notebooks)")
        assert seen["alts"] == titles, f"{stem}: alt text {seen['alts']} for figures titled {titles}"


# Tables wider than the text column around them, with the first header cells: a reader scrolls sideways.
OVERFLOWING = """(selector) => [...document.querySelectorAll(selector)]
  .filter(t => t.scrollWidth
               > (t.closest('.output, .pst-scrollable-table-container') || t.parentElement).clientWidth + 1)
  .map(t => [...t.querySelectorAll('th')].slice(0, 4).map(h => h.innerText.trim()).join(' | '))"""


def test_comparison_tables_fit_the_text_column(chapters_seen):
    """The chapters' comparison tables (8 columns, 13 with an effect) fit the text column at a
    1300-pixel window: 150 of 150 (none did before book.css narrowed their columns, 131 before
    the effect columns' headers were set vertically and long formulas allowed to break)."""
    fits = [f for seen in chapters_seen.values() for f in seen["comparisons"]]
    assert len(fits) >= 100 and all(fits), (
        f"{len(fits) - sum(fits)} of {len(fits)} comparison tables are wider than the text column: "
        + ", ".join(f"{stem} ({len(s['comparisons']) - sum(s['comparisons'])})" for stem, s in chapters_seen.items()
                    if not all(s["comparisons"])))


def test_wide_tables_fit_the_text_column(book, reader):
    site, chapters = book
    page = reader.open(site / "index.html")
    assert page.evaluate(OVERFLOWING, "article table.status") == []
    page = reader.open(site / "ledger.html")
    assert page.evaluate(OVERFLOWING, "article table.coverage") == []
    stem = next(s for s in chapters if s.startswith("08_"))
    page = reader.open(site / "notebooks" / f"{stem}.html")
    assert page.locator("article table.many-columns").count() >= 1  # the data set by method means
    assert page.evaluate(OVERFLOWING, "article table.many-columns") == []
    page.locator("article table.many-columns").first.scroll_into_view_if_needed()
    _shot(page, "08_wide_table")
