"""Workbook tooling: the source ledger and the comparisons the notebooks make against it."""

from .ledger import SourceCheck, coverage, load_ledger, notebook_rows

__all__ = ["SourceCheck", "coverage", "load_ledger", "notebook_rows"]
