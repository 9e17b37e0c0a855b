"""Workbook tooling: the source ledger and comparisons, results files, sweeps, execution, the book.

The ledger room, one concept a module:
:mod:`~helpers.workbook.ledger` (``data/source_ledger.csv``, read and validated),
:mod:`~helpers.workbook.verdicts` (printed values and every rule that turns evidence into a verdict),
:mod:`~helpers.workbook.checks` (:class:`SourceCheck`: a notebook's comparison rows, their tables),
:mod:`~helpers.workbook.coverage` (coverage per source, the README block).
Then :mod:`~helpers.workbook.cells` (what a notebook's cells call: :func:`notebook_setup`,
:func:`findings`, versions),
:mod:`~helpers.workbook.results` (the results JSON, with the check's rows),
:mod:`~helpers.workbook.parameters` (what each notebook's parameters may be),
:mod:`~helpers.workbook.sweep` (a package: grid, store, runner),
:mod:`~helpers.workbook.execute` (the one papermill wrapper),
:mod:`~helpers.workbook.run` (run, refresh and check the notebooks),
:mod:`~helpers.workbook.book` (the executed notebooks, the ledger and the sweeps as a static site),
:mod:`~helpers.workbook.book_clean` (each chapter's clean copy of its notebook; no machine path in the site),
:mod:`~helpers.workbook.cli` (the one command line: ``python -m helpers.workbook COMMAND`` or ``covsim``).
"""

from .cells import Findings, findings, nb_setup, notebook_setup, package_versions
from .checks import SourceCheck
from .coverage import notebook_rows  # the module, not its function, is helpers.workbook.coverage
from .ledger import load_ledger
from .parameters import check_parameters
from .results import save_results

__all__ = [
    "Findings",
    "SourceCheck",
    "check_parameters",
    "findings",
    "load_ledger",
    "nb_setup",
    "notebook_rows",
    "notebook_setup",
    "package_versions",
    "save_results",
]
