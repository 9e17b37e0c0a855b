"""One module per source, holding only what that source needs beyond the maths.

:mod:`~helpers.papers.cosine_paper` (Sahoo & Maiti 2025, reused by the Cholesky-kernel SVM
paper): the label-using "population" protocol and its audit. :mod:`~helpers.papers.mahal_knn`
(Srivastava & Rao 2016): the readings of Mahal-kNN, the Table-2 driver, nearest category and
Rocchio. Papers import the maths and the data layers, never the workbook.
"""
