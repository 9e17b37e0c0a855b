"""Sphinx settings of the workbook's book (``make book``; ``helpers.workbook.book`` copies this file).

The pages are the notebooks as ``make run`` executed them (MyST-NB never executes anything
here), generated pages for the notebooks' status, the source ledger and the parameter sweeps,
and the bibliography. Everything the pages load, MathJax included, is served from the built
folder: the book reads offline from ``build/book/index.html``.
"""

from pathlib import Path

project = "Covariance-aware similarity workbook"
author = "the workbook's authors"
html_title = "Covariance-aware similarity"

extensions = [
    "myst_nb",
    "sphinxcontrib.bibtex",
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static/mathjax/, no network needed
]

# The notebooks were executed by `make run` (papermill); their stored outputs are the book.
nb_execution_mode = "off"
# A chapter shows no library warning: a stderr output is a build warning (an error under -W, as
# the tests build), still shown on the page so that what happened is not hidden.
nb_output_stderr = "warn"
# $...$ and $$...$$ in markdown cells, amsmath environments (align, ...); ::: fences and
# [text]{.class} spans in the generated pages.
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "attrs_inline"]
myst_heading_anchors = 3

bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "plain"
bibtex_reference_style = "author_year"

exclude_patterns = ["_build", "**.ipynb_checkpoints"]

html_theme = "sphinx_book_theme"
html_theme_options = {
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "use_download_button": False,
    "use_fullscreen_button": False,
}
# Without a default the theme logs "Got invalid theme mode" to the console on a first visit.
html_context = {"default_mode": "light"}
html_static_path = ["_static"]
html_css_files = ["book.css"]
html_copy_source = False  # the notebooks are in build/notebooks already
html_show_sourcelink = False
html_last_updated_fmt = None


def _outputs_beside_the_doctrees(app):
    """Keep MyST-NB's extracted images in the source tree's _build/, not in a folder beside build/book/.

    MyST-NB writes them to ``<outdir>/../jupyter_execute`` by default, i.e. ``build/jupyter_execute``.
    """
    config = app.env.mystnb_config
    app.env.mystnb_config = config.copy(output_folder=str(Path(app.doctreedir).parent / "nb_outputs"))


def setup(app):
    app.connect("builder-inited", _outputs_beside_the_doctrees, priority=900)  # after MyST-NB's own handler
