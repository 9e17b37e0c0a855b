"""The names the maths accepts for its choices, in a module that imports nothing.

:mod:`helpers.whitening` uses them; the notebooks' manifest (:mod:`helpers.studies`) reads them
for the parameter checks without loading scikit-learn.
"""

#: the covariance estimates named by a string (``covariance=``); a float shrinkage in [0, 1] or
#: a scikit-learn covariance estimator object is accepted too (:func:`helpers.whitening.estimate_covariance`)
COVARIANCES = ("sample", "population", "ledoit_wolf", "oas")
#: the whitening matrices (``method=``), :func:`helpers.whitening.whitening_matrix`
METHODS = ("zca", "zca_cor", "pca", "pca_cor", "cholesky")
