"""Workbook tooling: the source ledger and comparisons, results files, sweeps, execution, the book.

:mod:`~helpers.workbook.ledger` (the ledger and :class:`SourceCheck`),
:mod:`~helpers.workbook.results` (results JSON, notebook setup),
:mod:`~helpers.workbook.parameters` (what each notebook's parameters may be),
:mod:`~helpers.workbook.sweep`,
:mod:`~helpers.workbook.execute` (the one papermill wrapper),
:mod:`~helpers.workbook.book` (the executed notebooks, the ledger and the sweeps as a static site).
"""

from .ledger import SourceCheck, coverage, load_ledger, notebook_rows
from .parameters import check_parameters
from .results import nb_setup, package_versions, save_results

__all__ = [
    "SourceCheck",
    "check_parameters",
    "coverage",
    "load_ledger",
    "nb_setup",
    "notebook_rows",
    "package_versions",
    "save_results",
]
