"""How the workbook prints a number that may be rounding noise.

A residual of 3e-16 has no stable digits: another BLAS, another processor or another thread
count gives another one. Printed as it is, it would make a stored notebook output depend on the
machine that ran it. :func:`rounding_level` prints such a value as ``"< bound"`` and any other
value in full.
"""

from __future__ import annotations

import math

__all__ = ["rounding_level"]


def rounding_level(value, bound: float, *, fmt: str = ".2e", flag_above: bool = False) -> str:
    """``"< bound"`` when ``|value|`` is below ``bound``, else ``value`` formatted with ``fmt``.

    Parameters
    ----------
    value : float
        The number, typically a residual or a largest difference that should be zero.
    bound : float
        Below this (in absolute value) the number is rounding noise; printed as ``"< 1e-12"``.
    fmt : str
        The format of a number at or above ``bound`` (:func:`format`'s specification).
    flag_above : bool
        Append ``"  (ABOVE the bound)"`` to a number at or above ``bound``: for a difference
        that the text expects to be noise, so that a failure reads as one.

    Examples
    --------
    >>> rounding_level(3e-16, 1e-12), rounding_level(-4e-13, 1e-12), rounding_level(2.5e-3, 1e-12)
    ('< 1e-12', '< 1e-12', '2.50e-03')
    >>> rounding_level(0.1412, 1e-10, fmt=".2f"), rounding_level(0.02, 1e-6, flag_above=True)
    ('0.14', '2.00e-02  (ABOVE the bound)')
    """
    bound = float(bound)
    if not (math.isfinite(bound) and bound > 0):
        raise ValueError(f"bound must be a positive finite number, the size below which a value is rounding noise; "
                         f"got {bound!r}.")
    value = float(value)
    if math.isnan(value):
        return "nan"
    if abs(value) < bound:
        return f"< {bound:.0e}"
    return format(value, fmt) + ("  (ABOVE the bound)" if flag_above else "")
