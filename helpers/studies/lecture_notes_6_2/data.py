"""The notes' data (Example 5's animals, the market baskets), their two coefficients and how values are displayed."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ...binary import binary_similarity
from ...data.tables import load_animals

#: the notes' two coefficients: label -> name in :func:`helpers.binary.binary_similarity`
COEFFICIENTS = {"SMC": "simple_matching", "Jaccard": "jaccard"}

#: the ``c(...)`` of the notes' R code for Example 5 (l. 87-88), filled by row into 5 rows (l. 89)
R_ANIMAL = (1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0,
            1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0)


# --------------------------------------------------------------------------------------------
# display


def as_fraction(value) -> str:
    """A coefficient of Example 5 as a fraction: ratios of counts up to 6.

    Examples
    --------
    >>> as_fraction(2 / 3), as_fraction(0.8333333), as_fraction(1.0)
    ('2/3', '5/6', '1')
    """
    return str(Fraction(float(value)).limit_denominator(6))


# --------------------------------------------------------------------------------------------
# the data


def similarities(X, Y=None) -> dict:
    """The notes' two coefficients between the rows of 0/1 matrices: ``{"SMC": S, "Jaccard": S}``.

    Examples
    --------
    >>> S = similarities([[1, 1, 1, 1]], [[1, 1, 0, 1]])
    >>> float(S["SMC"][0, 0]), float(S["Jaccard"][0, 0])
    (0.75, 0.75)
    """
    S = binary_similarity(X, Y, coefficient=list(COEFFICIENTS.values()))
    return {label: S[name] for label, name in COEFFICIENTS.items()}


def example_5():
    """Example 5 (l. 83): the table of five creatures and six attributes, and its two similarity matrices.

    Returns
    -------
    animals : DataFrame (5, 6)
        ``data/animals.csv`` (:func:`helpers.data.tables.load_animals`), 0/1 by creature.
    S : dict
        ``{"SMC": F, "Jaccard": F}`` (:func:`similarities`) between the creatures.

    Examples
    --------
    >>> animals, S = example_5()
    >>> as_fraction(S["SMC"][0, 3]), float(S["Jaccard"][0, 4])
    ('1/3', 0.25)
    """
    animals = load_animals()
    return animals, similarities(animals.to_numpy())


def market_baskets(products: int = 100):
    """The notes' two baskets (l. 75): customer A buys bread and beer, customer B peanuts and beer.

    Examples
    --------
    >>> a, b = market_baskets()
    >>> int(a.sum()), int(b.sum()), int(a @ b), len(a)
    (2, 2, 1, 100)
    """
    bread, beer, peanuts = 0, 1, 2                                  # any three distinct products
    basket_a, basket_b = np.zeros(products, dtype=int), np.zeros(products, dtype=int)
    basket_a[[bread, beer]] = 1
    basket_b[[peanuts, beer]] = 1
    return basket_a, basket_b
