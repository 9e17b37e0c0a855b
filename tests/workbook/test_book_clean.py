"""A clean book: no path of the building machine, no library warning, figures described by their titles.

Fast checks on the book's sources (the notebook copies the book builds from) and on the pieces
that make them; the built site is checked in a browser by ``test_book_e2e.py``.
"""

import base64
import json
import re
import sys

import nbformat
import pytest
from matplotlib.figure import Figure

from helpers.plotting import describe_figures, figure_title
from helpers.workbook import book, book_clean

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n not really an image").decode()


def _executed(folder, *cells):
    """An executed notebook ``00_clean.ipynb`` in ``folder/notebooks`` with ``cells``."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 00 · Clean"), *cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "notebooks" / "00_clean.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _injected(source):
    cell = nbformat.v4.new_code_cell(source, execution_count=2)
    cell.metadata["tags"] = ["injected-parameters"]
    return cell


def _figure(alt=None, n=1):
    cell = nbformat.v4.new_code_cell("plt.show()", execution_count=3)
    meta = {"image/png": {"alt": alt}} if alt is not None else {}
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"},
                                           metadata=meta) for _ in range(n)]
    return cell


def _copy(tmp_path, *cells) -> dict:
    return json.loads(book_clean.book_notebook(_executed(tmp_path, *cells)))


# --------------------------------------------------------------------------------------------
# the run's parameters


def test_injected_results_path_is_hidden_and_gone_from_the_copy(tmp_path):
    where = tmp_path / "build" / "results" / "00_clean.json"
    nb = _copy(tmp_path, _injected(f'# Parameters\nresults_path = "{where}"\n'))
    cell = nb["cells"][1]
    assert "remove-cell" in cell["metadata"]["tags"]
    assert "results_path" not in cell["source"]
    assert book_clean.machine_paths(json.dumps(nb), tmp_path) == []


def test_a_parameter_set_for_the_run_stays_visible(tmp_path):
    nb = _copy(tmp_path, _injected(f'# Parameters\nk = 7\nresults_path: str = "{tmp_path}/r.json"\n'))
    cell = nb["cells"][1]
    assert cell["source"] == "# Parameters\nk = 7\n"
    assert "remove-cell" not in cell["metadata"]["tags"]


def test_the_notebooks_own_parameters_cell_is_left_alone(tmp_path):
    cell = nbformat.v4.new_code_cell('results_path: str | None = None  # papermill sets it')
    cell.metadata["tags"] = ["parameters"]
    nb = _copy(tmp_path, cell)
    assert "".join(nb["cells"][1]["source"]) == cell.source
    assert nb["cells"][1]["metadata"]["tags"] == ["parameters"]


# --------------------------------------------------------------------------------------------
# absolute paths


@pytest.mark.parametrize("root", [str(book.ROOT), sys.prefix, "/tmp"])
def test_machine_paths_finds_the_building_machines_folders(root):
    text = f'<pre>{root}/lib/x.py:21: TqdmWarning: IProgress not found</pre>'
    assert book_clean.machine_paths(text) == [f"{root}/lib/x.py:21:"]


def test_machine_paths_leaves_relative_paths_and_words_alone():
    text = "build/results/00_x.json, data/raw/reuters21578.tar.gz, sqrt/tmp/x, a/b, 1/2, http://x.org/tmp/y"
    assert book_clean.machine_paths(text) == []


def test_machine_paths_takes_more_folders(tmp_path):
    assert book_clean.machine_paths(f"open {tmp_path}/book/index.html", tmp_path) == [f"{tmp_path}/book/index.html"]


def test_a_built_site_is_read_page_by_page(tmp_path, capsys):
    site = tmp_path / "book"
    (site / "notebooks").mkdir(parents=True)
    (site / "index.html").write_text("<p>build/results/00_clean.json</p>")
    (site / "notebooks" / "00_clean.html").write_text(f"<pre>PosixPath('{tmp_path}/results/00_clean.json')</pre>")
    (site / "searchindex.js").write_text(f'Search.setIndex({{"x": "{book.ROOT}/notebooks"}})')
    (site / "theme.js").write_text("var TMP = '/tmp/'")  # a library's script, not the book's text
    found = book_clean.site_machine_paths(site, tmp_path)
    assert found == {"notebooks/00_clean.html": [f"{tmp_path}/results/00_clean.json"],
                     "searchindex.js": [f"{book.ROOT}/notebooks"]}
    book_clean.report_machine_paths(site, tmp_path, strict=False)
    assert "2 page(s) of the book show an absolute path" in capsys.readouterr().err
    with pytest.raises(RuntimeError, match=r"(?s)notebooks/00_clean.html: .*save_results"):
        book_clean.report_machine_paths(site, tmp_path, strict=True)


# --------------------------------------------------------------------------------------------
# alt text


def test_figure_title_is_the_suptitle_else_the_axes_titles():
    fig = Figure()
    assert figure_title(fig) == ""
    left, right = fig.subplots(1, 2)
    left.set_title("(a) raw\ncosine")
    right.set_title("(b) whitened", loc="left")
    right.set_title("(b) whitened")  # the same text twice is said once
    assert figure_title(fig) == "(a) raw cosine; (b) whitened"
    fig.suptitle("Whitening  separates the classes")
    assert figure_title(fig) == "Whitening separates the classes"


def test_a_kernel_stores_each_figures_title_beside_its_image():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats

    shell = InteractiveShell.instance()
    try:
        select_figure_formats(shell, {"png"})  # what the inline backend does, before or after the setup
        assert describe_figures() is True
        fig = Figure(figsize=(2, 1))
        fig.subplots().set_title("Accuracy rises with k")
        data, metadata = shell.display_formatter.format(fig)
        assert set(data) == {"text/plain", "image/png"}
        assert metadata == {"image/png": {"alt": "Accuracy rises with k"}}
        assert shell.display_formatter.format(Figure(figsize=(2, 1)))[1] == {}  # no title, no alt
    finally:
        InteractiveShell.clear_instance()


def test_a_figures_alt_becomes_its_cells_image_option(tmp_path):
    nb = _copy(tmp_path, _figure("Accuracy rises with k"), _figure(), _figure("Two panels", n=2))
    options = [c["metadata"].get("mystnb", {}).get("image", {}) for c in nb["cells"][1:]]
    assert options == [{"alt": "Accuracy rises with k"}, {}, {"alt": "Two panels"}]


def test_a_sweeps_figures_alt_is_its_title(tmp_path):
    from tests.support import write_sweep

    _executed(tmp_path)
    write_sweep(tmp_path)
    page = book.sweeps_page(tmp_path, tmp_path / "book_src")
    assert r"![test\_accuracy\.raw over 8 runs](sweeps/03-seeds_00.png)" in page  # plot_distribution's title


# --------------------------------------------------------------------------------------------
# warnings


def test_the_book_makes_a_stderr_output_a_build_warning():
    conf = (book.BOOK_DIR / "conf.py").read_text(encoding="utf-8")
    assert 'nb_output_stderr = "warn"' in conf


def test_committed_notebooks_hold_no_machine_path_and_no_stderr():
    """What the e2e test builds from: the notebooks as committed."""
    for path in sorted((book.ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        text = path.read_text(encoding="utf-8")
        assert book_clean.machine_paths(text) == [], path.name
        nb = json.loads(text)
        stderr = [i for i, c in enumerate(nb["cells"]) for o in c.get("outputs", []) if o.get("name") == "stderr"]
        assert stderr == [], f"{path.name}: stderr in cells {stderr}"


# --------------------------------------------------------------------------------------------
# wide tables


def _html_output(html, *, comparison=False):
    cell = nbformat.v4.new_code_cell("table", execution_count=4)
    data = {"text/html": html, "text/plain": "table"}
    if comparison:
        data[book_clean.MIME] = {"rows": []}
    cell.outputs = [nbformat.v4.new_output("execute_result", data=data, execution_count=4)]
    return cell


def _matrix(n_columns, value="0.935"):
    head = "".join(f"<th>method_{i}</th>" for i in range(n_columns))
    row = "".join(f"<td>{value}</td>" for _ in range(n_columns))
    return (f'<style scoped>.dataframe tbody_tr {{}}</style><table border="1" class="dataframe"><thead><tr>'
            f'<th></th>{head}</tr></thead><tbody><tr><th>tissue_gene_expression</th>{row}</tr></tbody></table>')


def _shown_html(tmp_path, cell) -> str:
    return _copy(tmp_path, cell)["cells"][1]["outputs"][0]["data"]["text/html"]


def test_long_names_in_tables_may_wrap_after_underscores(tmp_path):
    html = _shown_html(tmp_path, _html_output(_matrix(3)))
    assert "<th>tissue_<wbr>gene_<wbr>expression</th>" in html
    assert "<th>method_0</th>" in html  # a digit after "_": nothing to gain
    assert ".dataframe tbody_tr" in html  # the style block is left alone
    assert "<td>0.935</td>" in html


@pytest.mark.parametrize(("n_columns", "value", "css"), [
    (book_clean.MANY_COLUMNS, "0.935", "dataframe many-columns"),   # a matrix of numbers: vertical headers
    (book_clean.MANY_COLUMNS - 2, "0.935", "dataframe"),            # with its index, one column short
    (book_clean.MANY_COLUMNS, "reproduced", "dataframe"),           # words need their headers' width anyway
])
def test_wide_tables_of_numbers_get_vertical_headers(tmp_path, n_columns, value, css):
    html = _shown_html(tmp_path, _html_output(_matrix(n_columns, value)))
    assert re.search(r'<table border="1" class="([^"]*)"', html).group(1) == css


def test_comparison_tables_are_marked_and_lose_their_json_payload(tmp_path):
    out = _copy(tmp_path, _html_output(_matrix(3), comparison=True))["cells"][1]["outputs"][0]["data"]
    assert book_clean.MIME not in out
    assert 'class="dataframe comparison"' in out["text/html"]


def test_the_table_classes_are_styled():
    css = (book.BOOK_DIR / "_static" / "book.css").read_text(encoding="utf-8")
    for selector in ("table.many-columns", "table.comparison", "table.dataframe", "table.coverage"):
        assert selector in css
