"""Exact numbers of one quadratic field: ``a + b sqrt(d)`` with ``a``, ``b`` rational and ``d`` a
whole number > 1 that is not a perfect square (or ``b = 0``: a rational).

Baccara banque's equilibria may solve a quadratic (Banker's gain in a cell is bilinear in the
two Players' draw probabilities, so two of his indifference curves meet where a quadratic
vanishes): every number of such an equilibrium lies in one field Q(sqrt(d)), and these are its
exact numbers.  Comparisons are exact (the sign of ``a + b sqrt(d)`` from ``a^2`` against
``b^2 d``), so a verification over them decides, never estimates.  The decimal of a surd is
rounded exactly (integer square roots), only for display.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import cache
from math import isqrt

from analyzer.errors import GameError

Rational = int | Fraction


#: Square factors are taken out of a radicand by trial division up to this bound (a larger one
#: may stay inside: the arithmetic is exact either way, the radicand not being a square).
TRIAL_DIVISION = 10_000


@cache
def _square_part(n: int) -> tuple[int, int]:
    """``n = k^2 m``: (k, m), ``m`` = 1 when ``n`` is a perfect square, else free of square
    factors below :data:`TRIAL_DIVISION` squared."""
    r = isqrt(n)
    if r * r == n:
        return r, 1
    k, m = 1, n
    for f in range(2, TRIAL_DIVISION):
        if f * f > m:
            break
        while m % (f * f) == 0:
            m //= f * f
            k *= f
    return k, m


class Surd:
    """``a + b sqrt(d)``, exact; ``d`` > 1 and not a perfect square (made so by :meth:`sqrt`,
    the only way a new ``d`` arises) unless ``b == 0`` (then ``d == 1``).

    Arithmetic mixes with ``int``, ``Fraction`` and surds of the same ``d`` (or rational ones).

    Raises:
        GameError: two surds of different fields combined, a division by zero.
    """

    __slots__ = ("a", "b", "d")

    def __init__(self, a: Rational, b: Rational = 0, d: int = 1) -> None:
        b = Fraction(b)
        if not b or d == 1:
            a, b, d = Fraction(a) + (b if d == 1 else 0), Fraction(0), 1
        self.a = Fraction(a)
        self.b = b
        self.d = d

    @staticmethod
    def sqrt(x: Rational) -> Surd:
        """The square root of a rational ``x >= 0``, exact.

        Raises:
            GameError: ``x`` negative.
        """
        x = Fraction(x)
        if x < 0:
            raise GameError(f"internal: the square root of a negative number {x}")
        n, m = x.numerator * x.denominator, x.denominator  # sqrt(n)/m
        k, free = _square_part(n)
        if free == 1:
            return Surd(Fraction(k, m))
        return Surd(0, Fraction(k, m), free)

    @property
    def rational(self) -> Fraction | None:
        """The value as a Fraction when it is rational, else None."""
        return self.a if not self.b else None

    def _field(self, other: Surd) -> int:
        if self.b and other.b and self.d != other.d:
            raise GameError(f"internal: sqrt({self.d}) and sqrt({other.d}) in one computation")
        return self.d if self.b else other.d

    @staticmethod
    def of(x: Surd | Rational) -> Surd:
        """``x`` as a surd."""
        return x if isinstance(x, Surd) else Surd(x)

    def __add__(self, other: Surd | Rational) -> Surd:
        o = Surd.of(other)
        return Surd(self.a + o.a, self.b + o.b, self._field(o))

    __radd__ = __add__

    def __neg__(self) -> Surd:
        return Surd(-self.a, -self.b, self.d)

    def __sub__(self, other: Surd | Rational) -> Surd:
        return self + -Surd.of(other)

    def __rsub__(self, other: Surd | Rational) -> Surd:
        return Surd.of(other) - self

    def __mul__(self, other: Surd | Rational) -> Surd:
        o = Surd.of(other)
        d = self._field(o)
        return Surd(self.a * o.a + self.b * o.b * d, self.a * o.b + self.b * o.a, d)

    __rmul__ = __mul__

    def __truediv__(self, other: Surd | Rational) -> Surd:
        o = Surd.of(other)
        norm = o.a * o.a - o.b * o.b * o.d
        if norm == 0:
            raise GameError("internal: a division by zero")
        return self * Surd(o.a / norm, -o.b / norm, o.d)

    def __rtruediv__(self, other: Surd | Rational) -> Surd:
        return Surd.of(other) / self

    def sign(self) -> int:
        """-1, 0 or 1, exactly."""
        sa = (self.a > 0) - (self.a < 0)
        sb = (self.b > 0) - (self.b < 0)
        if sa == sb or sb == 0:
            return sa
        if sa == 0:
            return sb
        big_a = self.a * self.a > self.b * self.b * self.d
        return sa if big_a else sb

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Surd | int | Fraction):
            return NotImplemented
        o = Surd.of(other)
        if self.b and o.b and self.d != o.d:
            return False  # two irrationals of different fields
        return (self - o).sign() == 0

    def __hash__(self) -> int:
        return hash(self.a) if not self.b else hash((self.a, self.b, self.d))  # a rational as its Fraction

    def __lt__(self, other: Surd | Rational) -> bool:
        return (self - other).sign() < 0

    def __le__(self, other: Surd | Rational) -> bool:
        return (self - other).sign() <= 0

    def __gt__(self, other: Surd | Rational) -> bool:
        return (self - other).sign() > 0

    def __ge__(self, other: Surd | Rational) -> bool:
        return (self - other).sign() >= 0

    def __bool__(self) -> bool:
        return self.sign() != 0

    def floor_scaled(self, scale: int) -> int:
        """floor(self * scale), exact (``scale`` a positive whole number)."""
        x = self * scale  # (A + B sqrt d) / den with integers A, B and den > 0
        den = x.a.denominator * x.b.denominator
        big_a = x.a.numerator * (den // x.a.denominator)
        big_b = x.b.numerator * (den // x.b.denominator)
        n = big_b * big_b * x.d
        root = isqrt(n)
        floor_b = root if big_b >= 0 else -root - (root * root != n)
        return (big_a + floor_b) // den  # floor(y / den) = floor(floor(y) / den)

    def decimal(self, digits: int) -> Decimal:
        """The value rounded exactly to ``digits`` decimals (half away from zero), for display."""
        if self.rational is not None:
            from analyzer.core.exact import round_fraction  # lazy: kept out of the numbers' import

            return round_fraction(self.rational, digits)
        scale = 10**digits
        neg = self.sign() < 0
        x = -self if neg else self
        units = (x + Fraction(1, 2 * scale)).floor_scaled(scale)
        value = Decimal(f"{units}E-{digits}")  # from text: every digit kept, whatever the context's precision
        return value.copy_negate() if neg else value  # exact: unary minus rounds to the context

    def __str__(self) -> str:
        if not self.b:
            return str(self.a)
        size = abs(self.b)
        term = f"sqrt({self.d})" if size == 1 else f"{size}*sqrt({self.d})"
        if not self.a:
            return term if self.b > 0 else f"-{term}"
        return f"{self.a} {'+' if self.b > 0 else '-'} {term}"

    def __repr__(self) -> str:
        return f"Surd({self.a!r}, {self.b!r}, {self.d})"
