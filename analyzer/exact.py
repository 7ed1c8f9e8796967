"""Exact decimal views of exact numbers: rounding without a float detour.

Python 3.11 cannot format a ``Fraction`` to fixed decimals without converting it to a float;
these helpers round with integer arithmetic only (round half to even).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from math import isqrt


def round_fraction(x: Fraction, digits: int) -> Decimal:
    """``x`` rounded to ``digits`` decimals (half to even), as an exact ``Decimal``.

    >>> round_fraction(Fraction(2, 3), 4), round_fraction(Fraction(-1, 8), 2)
    (Decimal('0.6667'), Decimal('-0.12'))
    """
    if digits < 0:
        raise ValueError(f"bad number of digits {digits}: use 0 or more")
    scaled = round(x * 10**digits)  # Fraction.__round__ is exact, half to even
    return Decimal(scaled).scaleb(-digits)


def sqrt_decimal(x: Fraction, digits: int) -> Decimal:
    """sqrt(x) for ``x`` >= 0, rounded to ``digits`` decimals (half to even), exactly.

    >>> sqrt_decimal(Fraction(2), 10), sqrt_decimal(Fraction(9, 4), 3)
    (Decimal('1.4142135624'), Decimal('1.500'))

    Raises:
        ValueError: ``x`` is negative.
    """
    if x < 0:
        raise ValueError(f"cannot take the square root of a negative number {x}")
    if digits < 0:
        raise ValueError(f"bad number of digits {digits}: use 0 or more")
    # floor(sqrt(x) * 10^d) = isqrt(floor(x * 10^(2d))); then decide the last digit's rounding
    # by comparing (f + 1/2)^2 with x * 10^(2d) exactly.
    scaled = x * 10 ** (2 * digits)
    f = isqrt(scaled.numerator // scaled.denominator)
    half_sq = Fraction((2 * f + 1) ** 2, 4)
    if scaled > half_sq or (scaled == half_sq and f % 2 == 1):
        f += 1
    return Decimal(f).scaleb(-digits)


def percent(x: Fraction) -> Fraction:
    """``x`` as a percentage (exact): 100 x."""
    return x * 100
