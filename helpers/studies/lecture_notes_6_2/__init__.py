"""Lecture notes on multivariate statistics, section 6.2 "Similarity measures": what notebook 07 runs.

The notes define a similarity matrix (Definition 6.4), turn a positive semi-definite one into
Euclidean distances (6.6) whose centred inner products are ``B = HFH`` (6.7, Proposition 6.2),
and run classical MDS on binary data: Example 4 (a lion and a tiger), a market basket,
Example 5 (five creatures, six attributes, with R code and the R output it prints) and 1,000
binarised MNIST digits. The maths lives in :mod:`helpers.mds` and :mod:`helpers.binary`; this
module holds what the notebook does with it:

* the data: :func:`example_5` (the notes' table and its SMC and Jaccard matrices) and
  :func:`market_baskets` (the notes' two baskets, l. 75);
* the notes' R code, ported line by line so that it can be compared with the library:
  :data:`R_ANIMAL`, :func:`r_smc`, :func:`r_jaccard` and :func:`FtoD`;
* one driver per check of the notebook: the route ``D -> B -> Z`` (:func:`classical_route`),
  Definition 6.4 (:func:`meets_definition_6_4`, :func:`definition_6_4_refusals`,
  :func:`definition_6_4_verdict`), the cosine similarity (:func:`cosine_checks`), the steps
  of the proof (:func:`proposition_steps`, :func:`proof_answers`), the coefficients' formulas
  (:func:`formula_errors`), the typeset matrix of Example 5 (:func:`typeset_differences`),
  and the shortcut ``D = 1 - S`` (:func:`shortcut_spectra`). How far apart the maps are, and
  whether beyond the resampling noise of a map, is :mod:`helpers.map_comparisons`'.

Values at rounding level are shown as bounds (:func:`helpers.display.rounding_level`), so that stored outputs do not
depend on the BLAS.

References
----------
.. [1] J. C. Gower (1966), Some distance properties of latent root and vector methods used in
   multivariate analysis, Biometrika 53(3-4), 325-338.
.. [2] F. Cailliez (1983), The analytical solution of the additive constant problem,
   Psychometrika 48(2), 305-308.
"""

from .data import (
    COEFFICIENTS,
    R_ANIMAL,
    as_fraction,
    example_5,
    market_baskets,
    similarities,
)
from .definitions import (
    CosineChecks,
    classical_route,
    cosine_checks,
    definition_6_4_refusals,
    definition_6_4_verdict,
    formula_errors,
    meets_definition_6_4,
    proof_answers,
    proposition_steps,
)
from .examples import (
    cmdscale_routes,
    mnist_mds,
    sheep_as_cow,
    shortcut_spectra,
    typeset_differences,
)
from .r_code import (
    FtoD,
    jaccard_routes,
    r_jaccard,
    r_smc,
    smc_routes,
)

__all__ = [
    "COEFFICIENTS",
    "R_ANIMAL",
    "CosineChecks",
    "FtoD",
    "as_fraction",
    "classical_route",
    "cmdscale_routes",
    "cosine_checks",
    "definition_6_4_refusals",
    "definition_6_4_verdict",
    "example_5",
    "formula_errors",
    "jaccard_routes",
    "market_baskets",
    "meets_definition_6_4",
    "mnist_mds",
    "proof_answers",
    "proposition_steps",
    "r_jaccard",
    "r_smc",
    "sheep_as_cow",
    "shortcut_spectra",
    "similarities",
    "smc_routes",
    "typeset_differences",
]
