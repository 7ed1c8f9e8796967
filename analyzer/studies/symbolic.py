"""Closed forms in the number of decks: every probability and house edge as an exact rational
function of d, the decks in a standard shoe (the project's only sympy import).

This module is imported on demand only (``import analyzer`` does not load it, nor sympy).

**Why the counts are polynomials in d.**  A standard shoe of d decks holds 4d cards of each rank,
d of each (rank, suit), 16d of point value 0 and 4d of each value 1-9: N = 52d >= 52 cards, so
every counted sequence has K = 6 cards (the 6-card universe: docs/ARCHITECTURE.md, "The one
idea").  The engine's count of a feature record is a sum, over compositions, of tally x pad x
a product of factor values, and every one of these is a product of falling factorials of
*linear* functions of d: the pad is
(52d-k)(52d-k-1)...(52d-5) and a factor drawing j cards of a value contributes j linear factors
(4d - i, 16d - i or d - i).  A composition of k cards therefore weighs a polynomial of degree
exactly 6 in d with integer coefficients, and so does every count; the denominator is
falling(52d, 6) = 52d (52d-1) ... (52d-5).  The polynomial identity holds at every integer
d >= 1 (not just for large d): a falling factorial x (x-1) ... (x-m+1) of an integer x >= 0 is 0
exactly when x < m, which is what the engine's ``falling`` returns.

**How they are computed, and why it is exact.**  The count polynomial of each feature record is
interpolated, with exact integer arithmetic, from the numeric engine
(:func:`analyzer.engine.pricing.distribution`) on the standard shoes of d = 1, ..., 7 decks: a
polynomial of degree <= 6 is determined by its values at 7 points, so the interpolant *is* the
count polynomial.  Two checks run every time: the coefficients must come out integers, and the
polynomials must reproduce the engine exactly at an eighth shoe (d = 8).  The test suite also
evaluates the compiled table directly with polynomial arithmetic and compares.  Interpolation
keeps this module on the engine's public API, so it stays right when the engine's internals
change.

Bets are priced from these count polynomials the way :func:`analyzer.engine.pricing.summarize` prices
them from counts: each feature record is settled by the bet, the pays are summed per event, and
EV = sum(pays x P(event)), variance = sum(pays^2 x P(event)) - EV^2, all as rational functions.

>>> from analyzer import Shoe, find_bet, price
>>> he = bet_forms(find_bet("banker")).house_edge
>>> he.limit(), he.correction()
(Fraction(256786, 24134045), Fraction(-242377, 501988136))
>>> he(8) == price(find_bet("banker"), Shoe.standard(8)).house_edge
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import sympy  # type: ignore[import-untyped]

from analyzer.bets.catalogue import catalogue_bets, find_bet, main_bets
from analyzer.bets.choice import NO_FILE_BETS, FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.logs import show
from analyzer.core.coup import NATURAL_CLASSES, Coup, Winner
from analyzer.core.exact import MAX_NUMBER_CHARS, fraction_text
from analyzer.core.reads import Reads
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.evaluate import record_counts
from analyzer.engine.lookup import compile_table
from analyzer.engine.pricing import ANALYSIS_READS, bet_table_for, settlement, table_for
from analyzer.engine.table import BetTable
from analyzer.errors import (
    BetError,
    SymbolicArithmeticError,
    SymbolicError,
    SymbolicTypeError,
    SymbolicZeroDivisionError,
)

__all__ = [
    "ENGINE_TABLES",
    "QUANTITIES",
    "STANDARD_SHOE",
    "BetForms",
    "ClosedForm",
    "Crossing",
    "RationalFunction",
    "Section",
    "SymbolicArithmeticError",
    "SymbolicDistribution",
    "SymbolicError",
    "SymbolicReport",
    "SymbolicTypeError",
    "SymbolicZeroDivisionError",
    "bet_forms",
    "bet_sections",
    "closed_forms",
    "commission_form",
    "crossing",
    "engine_forms",
    "engine_sections",
    "falling_poly",
    "find_crossings",
    "interpolate",
    "pay_form",
    "smallest_decks",
    "symbolic_distribution",
]

#: The decks at which the engine is evaluated to interpolate the count polynomials (degree <= 6),
#: and the extra deck count at which the result is checked.
NODES = (1, 2, 3, 4, 5, 6, 7)
CHECK_NODE = 8
#: Cards per counted sequence, and so the degree of every count polynomial.
DEGREE = 6
#: Deck counts at which the reports show values.
SHOWN_DECKS = (1, 2, 4, 6, 8)
#: The engine's tables (as ``punto-banco analyze --table``), each a list of events.
ENGINE_TABLES = ("outcomes", "totals", "naturals", "cards")

_D = sympy.Symbol("d", positive=True, integer=True)

Poly = tuple[int, ...]
"""A polynomial in d with integer coefficients, constant term first; ``()`` is zero."""


#: The note under a pays table with an impossible target (as ``punto-banco bets --target-edge``).
IMPOSSIBLE_PAY_NOTE = (
    "'-': no positive pay gives that house edge, or the event cannot happen on this "
    "shoe (for a commission: none from 0 to 100% gives it)."
)


def _coefficients(value: object, what: str) -> list[int | Fraction]:
    """Polynomial coefficients: a list of ints or Fractions (never floats or text)."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise SymbolicTypeError(
            f"bad {what} {show(value)}: give a list of int or Fraction coefficients, constant term first"
        )
    out = list(value)
    for c in out:
        if isinstance(c, bool) or not isinstance(c, int | Fraction):
            raise SymbolicTypeError(
                f"bad coefficient {show(c)} in the {what}: give ints or Fractions (not floats or text)"
            )
    return out


def _exact(value: object, what: str) -> Fraction:
    """``value`` as a Fraction: an int or a Fraction (never a float or text, whose meaning, say
    percent or fraction, would be a guess), with terms of at most
    :data:`~analyzer.core.exact.MAX_NUMBER_CHARS` digits.

    Raises:
        SymbolicTypeError: not an int or a Fraction; SymbolicError: too many digits.
    """
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise SymbolicTypeError(
            f"bad {what} {show(value)}: give an exact int or Fraction (not a float or text)"
        )
    x = Fraction(value)
    if max(abs(x.numerator), x.denominator).bit_length() > 4 * MAX_NUMBER_CHARS:
        raise SymbolicError(f"bad {what} {show(x)}: at most {MAX_NUMBER_CHARS} digits")
    return x


def _names(value: object, what: str, allowed: Sequence[str]) -> list[str]:
    """A list of names (never one str, whose letters would be taken as names)."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise SymbolicTypeError(
            f"bad {what} {show(value)}: give a list (not one text) of: {', '.join(allowed)}"
        )
    out = list(value)
    for name in out:
        if not isinstance(name, str):
            raise SymbolicTypeError(
                f"bad {what[:-1] if what.endswith('s') else what} {show(name)}: use {', '.join(allowed)}"
            )
    return out


# -- integer polynomials -------------------------------------------------------------------------


def _trim(coeffs: Sequence[int]) -> Poly:
    out = list(coeffs)
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def _add(a: Sequence[int], b: Sequence[int]) -> Poly:
    n = max(len(a), len(b))
    return _trim([(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(n)])


def _scale(a: Sequence[int], k: int) -> Poly:
    return _trim([k * x for x in a])


def _mul(a: Sequence[int], b: Sequence[int]) -> Poly:
    if not a or not b:
        return ()
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return _trim(out)


def _eval_int(a: Sequence[int], x: int) -> int:
    out = 0
    for c in reversed(a):
        out = out * x + c
    return out


def _eval(a: Sequence[int], x: Fraction) -> Fraction:
    out = Fraction(0)
    for c in reversed(a):
        out = out * x + c
    return out


def falling_poly(slope: int, offset: int, m: int) -> Poly:
    """The falling factorial x (x-1) ... (x-m+1) of x = slope*d + offset, as a polynomial in d.

    >>> falling_poly(52, 0, 2)   # 52d (52d - 1) = 2704 d^2 - 52 d
    (0, -52, 2704)
    """
    for name, v in (("slope", slope), ("offset", offset), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise SymbolicTypeError(f"bad {name} {show(v)}: give an int")
    if m < 0:
        raise SymbolicError(f"bad m {m}: the number of factors must be >= 0")
    out: Poly = (1,)
    for i in range(m):
        out = _mul(out, (offset - i, slope))
    return out


#: falling(52d, 6): the number of ordered 6-card sequences of a d-deck shoe.
DENOMINATOR: Poly = falling_poly(52, 0, DEGREE)


@functools.cache
def _interpolation_matrix() -> tuple[tuple[tuple[int, ...], ...], int]:
    """(M, L) with M = L x inverse Vandermonde matrix of ``NODES``, integer, L > 0 minimal."""
    n = len(NODES)
    rows = [
        [Fraction(x) ** i for i in range(n)] + [Fraction(int(j == r)) for j in range(n)]
        for r, x in enumerate(NODES)
    ]
    for col in range(n):  # Gauss-Jordan elimination, exact
        piv = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[piv] = rows[piv], rows[col]
        p = rows[col][col]
        rows[col] = [v / p for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [v - f * w for v, w in zip(rows[r], rows[col], strict=True)]
    inverse = [row[n:] for row in rows]
    scale = math.lcm(*(v.denominator for row in inverse for v in row))
    return tuple(tuple(int(v * scale) for v in row) for row in inverse), scale


def interpolate(values: Sequence[int]) -> Poly:
    """The polynomial of degree < len(NODES) with integer coefficients taking ``values`` at
    ``NODES``.

    Raises:
        SymbolicArithmeticError: the interpolant's coefficients are not integers (so the values do
            not come from such a polynomial); SymbolicError: not ``len(NODES)`` ints.

    >>> interpolate([x * x + 1 for x in NODES])
    (1, 0, 1)
    """
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise SymbolicTypeError(f"bad values {show(values)}: give {len(NODES)} ints, the values at {NODES}")
    values = list(values)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise SymbolicTypeError(f"bad values {show(values)}: give {len(NODES)} ints, the values at {NODES}")
    if len(values) != len(NODES):
        raise SymbolicError(f"bad values {show(values)}: give {len(NODES)} ints, the values at {NODES}")
    matrix, scale = _interpolation_matrix()
    out: list[int] = []
    for row in matrix:
        q, r = divmod(sum(m * y for m, y in zip(row, values, strict=True)), scale)
        if r:
            raise SymbolicArithmeticError("interpolated count polynomial has a non-integer coefficient")
        out.append(q)
    return _trim(out)


# -- rational functions of d ---------------------------------------------------------------------


def _sympy_poly(coeffs: Sequence[int]) -> Any:
    return sympy.Poly(list(reversed(coeffs)) or [0], _D, domain="ZZ")


def _from_sympy(p: Any) -> Poly:
    return _trim([int(c) for c in reversed(p.all_coeffs())])


def _as_int_polys(num: Sequence[Fraction | int], den: Sequence[Fraction | int]) -> tuple[Poly, Poly]:
    scale = math.lcm(*(Fraction(c).denominator for c in (*num, *den)), 1)
    return (
        _trim([int(Fraction(c) * scale) for c in num]),
        _trim([int(Fraction(c) * scale) for c in den]),
    )


@dataclass(frozen=True)
class RationalFunction:
    """An exact rational function f(d) = num(d) / den(d) of the number of decks d.

    ``num`` and ``den`` are integer coefficients, constant term first, in lowest terms: no common
    polynomial factor, no common integer factor, ``den``'s leading coefficient positive.  Build
    with :meth:`of`; combine with ``+ - * /`` (with each other, ``int`` or ``Fraction``).

    >>> f = RationalFunction.of([0, 1], [-1, 2])       # d / (2d - 1)
    >>> f(1), f.limit(), f.correction()
    (Fraction(1, 1), Fraction(1, 2), Fraction(1, 4))
    """

    num: Poly
    den: Poly

    @classmethod
    def of(cls, num: Sequence[Fraction | int], den: Sequence[Fraction | int] = (1,)) -> RationalFunction:
        """num(d) / den(d) in lowest terms (coefficients constant term first).

        Raises:
            SymbolicZeroDivisionError: ``den`` is the zero polynomial; SymbolicTypeError: a
                coefficient is not an int or a Fraction.
        """
        n, m = _as_int_polys(_coefficients(num, "numerator"), _coefficients(den, "denominator"))
        if not m:
            raise SymbolicZeroDivisionError(
                "rational function with a zero denominator: give a denominator with a nonzero coefficient"
            )
        if not n:
            return cls((), (1,))
        g = _gcd(n, m)
        if len(g) > 1:
            n = _from_sympy(_sympy_poly(n).exquo(_sympy_poly(g)))
            m = _from_sympy(_sympy_poly(m).exquo(_sympy_poly(g)))
        content = math.gcd(*n, *m)
        if m[-1] < 0:
            content = -content
        return cls(tuple(c // content for c in n), tuple(c // content for c in m))

    @classmethod
    def constant(cls, value: Fraction | int) -> RationalFunction:
        """The constant function.

        Raises:
            SymbolicTypeError: ``value`` is not an int or a Fraction.
        """
        if isinstance(value, bool) or not isinstance(value, int | Fraction):
            raise SymbolicTypeError(
                f"bad constant {show(value)}: give an int or a Fraction (not a float or text)"
            )
        return cls.of([Fraction(value)])

    # arithmetic
    def _coerce(self, other: object) -> RationalFunction:
        if isinstance(other, RationalFunction):
            return other
        if isinstance(other, int | Fraction) and not isinstance(other, bool):
            return RationalFunction.constant(other)
        raise SymbolicTypeError(
            f"cannot combine a rational function with {type(other).__name__}: "
            "use another RationalFunction, an int or a Fraction"
        )

    def __add__(self, other: object) -> RationalFunction:
        o = self._coerce(other)
        if self.den == o.den:
            return RationalFunction.of(_add(self.num, o.num), self.den)
        return RationalFunction.of(_add(_mul(self.num, o.den), _mul(o.num, self.den)), _mul(self.den, o.den))

    __radd__ = __add__

    def __neg__(self) -> RationalFunction:
        return RationalFunction(_scale(self.num, -1), self.den)

    def __sub__(self, other: object) -> RationalFunction:
        return self + (-self._coerce(other))

    def __rsub__(self, other: object) -> RationalFunction:
        return self._coerce(other) - self

    def __mul__(self, other: object) -> RationalFunction:
        o = self._coerce(other)
        return RationalFunction.of(_mul(self.num, o.num), _mul(self.den, o.den))

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> RationalFunction:
        o = self._coerce(other)
        if not o.num:
            raise SymbolicZeroDivisionError("division by the zero function")
        return RationalFunction.of(_mul(self.num, o.den), _mul(self.den, o.num))

    def __rtruediv__(self, other: object) -> RationalFunction:
        return self._coerce(other) / self

    # values
    def __call__(self, decks: int | Fraction) -> Fraction:
        """f(decks), exact.  For whole ``decks`` >= 1 this equals the engine on the standard shoe.

        Raises:
            SymbolicZeroDivisionError: ``decks`` is a pole of f (its denominator is 0 there);
                SymbolicTypeError: ``decks`` is not an int or a Fraction.
        """
        if isinstance(decks, bool) or not isinstance(decks, int | Fraction):
            raise SymbolicTypeError(f"bad number of decks {show(decks)}: give an int or a Fraction")
        if isinstance(decks, int):
            num, den = Fraction(_eval_int(self.num, decks)), Fraction(_eval_int(self.den, decks))
        else:
            num, den = _eval(self.num, Fraction(decks)), _eval(self.den, Fraction(decks))
        if den == 0:
            raise SymbolicZeroDivisionError(
                f"d = {show(decks)} is a pole of the function (its denominator "
                "is 0 there): it has no value at that d"
            )
        return num / den

    @property
    def is_zero(self) -> bool:
        """True for the zero function."""
        return not self.num

    def expansion(self, terms: int = 2) -> tuple[Fraction, ...]:
        """The first ``terms`` coefficients c0, c1, ... of f(d) = c0 + c1/d + c2/d^2 + ...
        as d -> infinity (exact).

        Raises:
            SymbolicArithmeticError: f grows without bound (numerator of higher degree);
            SymbolicError: ``terms`` is not a whole number from 0 to 10000.
        """
        if isinstance(terms, bool) or not isinstance(terms, int) or not 0 <= terms <= 10_000:
            raise (
                SymbolicError if isinstance(terms, int) and not isinstance(terms, bool) else SymbolicTypeError
            )(f"bad number of terms {show(terms)}: use a whole number from 0 to 10000")
        n, m = len(self.num) - 1, len(self.den) - 1
        if not self.num:
            return (Fraction(0),) * terms
        if n > m:
            raise SymbolicArithmeticError("the function has no finite limit as d -> infinity")
        # f(1/t) = t^(m-n) * R(t) / S(t), R and S the reversed coefficient lists.
        r = list(reversed(self.num))
        s = list(reversed(self.den))
        series: list[Fraction] = []
        for k in range(terms):
            acc = Fraction(r[k] if k < len(r) else 0)
            for j in range(1, min(k, len(s) - 1) + 1):
                acc -= s[j] * series[k - j]
            series.append(acc / s[0])
        shift = m - n
        return tuple(series[k - shift] if k >= shift else Fraction(0) for k in range(terms))

    def limit(self) -> Fraction:
        """lim f(d) as d -> infinity: the infinite-deck value (exact).

        Raises:
            SymbolicArithmeticError: f grows without bound.
        """
        return self.expansion(1)[0]

    def correction(self) -> Fraction:
        """The leading finite-deck correction c in f(d) = f(inf) + c/d + O(1/d^2) (exact)."""
        return self.expansion(2)[1]

    # display
    def expr(self) -> Any:
        """The function as a sympy expression in ``d``, numerator and denominator factored."""
        return _factored(self.num, self.den)

    def text(self) -> str:
        """The factored form as plain text, e.g. ``8*d*(...)/(13*(13*d - 1)*...)``."""
        return _printed(self.num, self.den, "text")

    def latex(self) -> str:
        """The factored form in LaTeX."""
        return _printed(self.num, self.den, "latex")

    def numerator_text(self) -> str:
        """The numerator, factored, as plain text."""
        return str(sympy.sstr(sympy.factor(_sympy_poly(self.num).as_expr())))

    def denominator_text(self) -> str:
        """The denominator, factored, as plain text."""
        return str(sympy.sstr(sympy.factor(_sympy_poly(self.den).as_expr())))


def _gcd(a: Poly, b: Poly) -> Poly:
    g = _from_sympy(_sympy_poly(a).gcd(_sympy_poly(b)))
    return g if len(g) > 1 else (1,)


@functools.lru_cache(maxsize=4096)
def _factored(num: Poly, den: Poly) -> Any:
    """num/den with both factored over the integers (as ``sympy.factor`` prints it, faster)."""
    cn, num_factors = _sympy_poly(num).factor_list()
    cd, den_factors = _sympy_poly(den).factor_list()
    parts = [sympy.Rational(int(cn), int(cd))]
    parts += [p.as_expr() ** m for p, m in num_factors]
    parts += [p.as_expr() ** -m for p, m in den_factors]
    return sympy.Mul(*parts)


@functools.lru_cache(maxsize=8192)
def _printed(num: Poly, den: Poly, how: str) -> str:
    expr = _factored(num, den)
    return str(sympy.latex(expr) if how == "latex" else sympy.sstr(expr))


# -- the count polynomials -----------------------------------------------------------------------


@dataclass(frozen=True)
class SymbolicDistribution:
    """Count polynomials of the coup records for the standard shoe of d decks.

    ``counts[i]`` is the number of ordered 6-card sequences of a d-deck shoe whose coup ends
    with ``records[i]`` (read at ``reads``), as a polynomial in d (integer coefficients,
    constant term first, degree <= 6); ``denominator`` is falling(52d, 6).  Valid for every
    whole d >= 1.
    """

    reads: Reads
    records: tuple[Coup, ...]
    counts: tuple[Poly, ...]
    denominator: Poly = DENOMINATOR

    def count(self, predicate: Callable[[Coup], bool]) -> Poly:
        """Count polynomial of the coups that satisfy ``predicate``.

        Raises:
            SymbolicTypeError: ``predicate`` is not callable.
        """
        if not callable(predicate):
            raise SymbolicTypeError(
                f"bad predicate {show(predicate)}: give a function of the coup record returning True or False"
            )
        out: Poly = ()
        for r, c in zip(self.records, self.counts, strict=True):
            if predicate(r):
                out = _add(out, c)
        return out

    def probability(self, predicate: Callable[[Coup], bool]) -> RationalFunction:
        """P(the coup satisfies ``predicate``) as a rational function of d."""
        return RationalFunction.of(self.count(predicate), self.denominator)


def symbolic_distribution(reads: Reads | None = None, tableau: Tableau = STANDARD) -> SymbolicDistribution:
    """The :class:`SymbolicDistribution` of records read at ``reads`` (default: every base
    field) under ``tableau`` (cached per process).

    Raises:
        SymbolicTypeError: ``reads`` is not a Reads or ``tableau`` not a Tableau.
    """
    chosen = Reads.everything_but_cards() if reads is None else reads
    if not isinstance(chosen, Reads):
        raise SymbolicTypeError(f"bad reads {show(reads)}: give a Reads, e.g. Reads.of(['winner'])")
    if not isinstance(tableau, Tableau):
        raise SymbolicTypeError(f"bad rules {show(tableau)}: give a Tableau")
    return _symbolic_table(compile_table(tableau, chosen, False), chosen)


_SYMBOLIC: dict[str, SymbolicDistribution] = {}


def _symbolic_table(table: BetTable, reads: Reads) -> SymbolicDistribution:
    """:func:`_interpolate`, kept per table key (compiled tables are shared per key)."""
    hit = _SYMBOLIC.get(table.key)
    if hit is None:
        if len(_SYMBOLIC) > 256:
            _SYMBOLIC.clear()
        hit = _SYMBOLIC[table.key] = _interpolate(table, reads)
    return hit


def _interpolate(table: BetTable, reads: Reads) -> SymbolicDistribution:
    """Count polynomials of ``table``'s records, interpolated from the numeric engine on
    1, ..., 7 decks and checked at 8 decks (see the module docstring for why this is exact).

    Raises:
        ArithmeticError: the engine's counts are not polynomials of degree <= 6 in d (an
            internal error: the check at 8 decks or the integrality check failed).
    """
    samples: list[list[int]] = []
    for decks in (*NODES, CHECK_NODE):
        counts, denominator = record_counts(table, Shoe.standard(decks))
        if denominator != _eval_int(DENOMINATOR, decks):
            raise ArithmeticError(f"unexpected denominator at {decks} decks")
        samples.append(counts)
    polys: list[Poly] = []
    for i, record in enumerate(table.columns):
        values = [s[i] for s in samples]
        poly = interpolate(values[: len(NODES)])
        if _eval_int(poly, CHECK_NODE) != values[-1]:
            raise ArithmeticError(f"count polynomial of {record} fails the check at {CHECK_NODE} decks")
        polys.append(poly)
    return SymbolicDistribution(reads, table.columns, tuple(polys))


# -- closed forms --------------------------------------------------------------------------------

Kind = Literal["probability", "ev", "house_edge", "house_edge_resolved", "variance", "pay", "commission"]


@dataclass(frozen=True)
class ClosedForm:
    """A named quantity as a function of the number of decks.

    ``kind`` says what it is: a probability per coup, an EV or house edge per unit staked per
    coup (``house_edge_resolved``: per resolved bet), a variance per unit staked squared, a pay
    per unit staked, or a Banker commission as a fraction of the win.
    """

    key: str
    label: str
    kind: Kind
    function: RationalFunction

    def at(self, decks: int | Fraction) -> Fraction:
        """The value at ``decks`` decks (exact)."""
        return self.function(decks)

    @property
    def limit(self) -> Fraction:
        """The infinite-deck value."""
        return self.function.limit()

    @property
    def correction(self) -> Fraction:
        """c in f(d) = f(inf) + c/d + O(1/d^2)."""
        return self.function.correction()

    def possible(self, value: Fraction) -> bool:
        """False when no bet has ``value``: a pay <= 0 (a winning bet that pays nothing or takes
        more), or a commission outside [0, 1); reports show such values as '-'
        (:data:`IMPOSSIBLE_PAY_NOTE`), as ``punto-banco bets --target-edge`` does."""
        if self.kind == "pay":
            return value > 0
        if self.kind == "commission":
            return 0 <= value < 1
        return True

    def shown_at(self, decks: int | Fraction) -> Fraction | None:
        """:meth:`at`, or ``None`` where that value is not :meth:`possible`."""
        value = self.at(decks)
        return value if self.possible(value) else None

    @property
    def shown_limit(self) -> Fraction | None:
        """:attr:`limit`, or ``None`` where it is not :meth:`possible`."""
        value = self.limit
        return value if self.possible(value) else None


def _winner_is(side: Winner) -> Callable[[Coup], bool]:
    return lambda c: c.winner is side


def _totals_are(p: int, b: int) -> Callable[[Coup], bool]:
    return lambda c: c.player_total == p and c.banker_total == b


def _cards_are(n: int) -> Callable[[Coup], bool]:
    return lambda c: c.cards_dealt == n


def _naturals_are(key: str) -> Callable[[Coup], bool]:
    return lambda c: c.naturals == key


def _engine_events(table: str) -> list[tuple[str, str, Callable[[Coup], bool]]]:
    if table == "outcomes":
        return [
            (f"outcome:{w.value}", f"{w.label} wins" if w is not Winner.TIE else "Tie", _winner_is(w))
            for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)
        ]
    if table == "naturals":
        return [(f"natural:{key}", label, _naturals_are(key)) for key, label in NATURAL_CLASSES.items()]
    if table == "cards":
        return [(f"cards:{n}", f"{n} cards dealt", _cards_are(n)) for n in (4, 5, 6)]
    if table == "totals":
        return [
            (f"totals:{p}:{b}", f"Player {p}, Banker {b}", _totals_are(p, b))
            for p in range(10)
            for b in range(10)
        ]
    raise SymbolicError(f"unknown table {table!r}: use {', '.join(ENGINE_TABLES)}")


def engine_forms(table: str, tableau: Tableau = STANDARD) -> tuple[ClosedForm, ...]:
    """The probabilities of one of the engine's tables (``ENGINE_TABLES``: outcomes, totals,
    naturals, cards) as closed forms under ``tableau``; events as in
    :class:`analyzer.engine.pricing.Analysis`.

    Raises:
        AnalyzerError: unknown table name.
    """
    if not isinstance(table, str) or table not in ENGINE_TABLES:
        raise SymbolicError(f"unknown table {show(table)}: use {', '.join(ENGINE_TABLES)}")
    if not isinstance(tableau, Tableau):
        raise SymbolicTypeError(f"bad rules {show(tableau)}: give a Tableau")
    return _engine_forms(table, tableau)


@functools.lru_cache(maxsize=64)
def _engine_forms(table: str, tableau: Tableau) -> tuple[ClosedForm, ...]:
    sd = symbolic_distribution(ANALYSIS_READS, tableau)
    return tuple(
        ClosedForm(key, label, "probability", sd.probability(pred))
        for key, label, pred in _engine_events(table)
    )


@dataclass(frozen=True)
class BetForms:
    """A bet's statistics as closed forms in d, per unit staked per coup (the symbolic
    :class:`~analyzer.engine.pricing.BetSummary`).

    ``events`` lists (event, pays, probability) in pay-table order; ``house_edge_resolved`` is
    ``None`` for a bet that cannot push.
    """

    bet: Bet
    events: tuple[tuple[str, Fraction, RationalFunction], ...]
    ev: RationalFunction
    variance: RationalFunction
    push_probability: RationalFunction
    hit_frequency: RationalFunction
    house_edge_resolved: RationalFunction | None = field(default=None)

    @property
    def house_edge(self) -> RationalFunction:
        """-EV."""
        return -self.ev

    def forms(self) -> list[ClosedForm]:
        """EV, house edge, house edge per resolved bet (if it can push) and variance."""
        name = self.bet.name
        out = [
            ClosedForm(f"{name}:ev", f"{self.bet.title}: EV", "ev", self.ev),
            ClosedForm(f"{name}:house_edge", f"{self.bet.title}: house edge", "house_edge", self.house_edge),
        ]
        if self.house_edge_resolved is not None:
            out.append(
                ClosedForm(
                    f"{name}:house_edge_resolved",
                    f"{self.bet.title}: house edge per resolved bet",
                    "house_edge_resolved",
                    self.house_edge_resolved,
                )
            )
        out.append(ClosedForm(f"{name}:variance", f"{self.bet.title}: variance", "variance", self.variance))
        return out


def bet_forms(bet: Bet, tableau: Tableau = STANDARD) -> BetForms:
    """The closed forms of ``bet`` (any :class:`~analyzer.bets.model.Bet`: catalogue, combined, from a
    function or a bet file), priced like :func:`analyzer.engine.pricing.summarize`.

    >>> from analyzer.bets.catalogue import catalogue_bets, find_bet, main_bets
    >>> bet_forms(find_bet("tie")).house_edge.limit() * 100 > 14
    True

    Raises:
        SymbolicTypeError: ``bet`` is not a :class:`~analyzer.bets.model.Bet`.
    """
    if not isinstance(bet, Bet):
        raise SymbolicTypeError(f"bad bet {show(bet)}: give a Bet (e.g. find_bet('tie'))")
    if not isinstance(tableau, Tableau):
        raise SymbolicTypeError(f"bad rules {show(tableau)}: give a Tableau")
    if bet.reads.sets:
        table = bet_table_for(bet, Shoe.standard(1), tableau)
    else:
        table = table_for(bet.reads, 52, tableau)
    sd = _symbolic_table(table, bet.reads)
    settled = settlement(bet, table)
    polys: list[Poly] = [()] * len(settled.keys)
    for i, counts in zip(settled.index, sd.counts, strict=True):
        polys[i] = _add(polys[i], counts)
    by_event = dict(zip(settled.keys, polys, strict=True))
    keys = list(settled.keys)
    den = sd.denominator
    events = tuple((e, p, RationalFunction.of(by_event[(e, p)], den)) for e, p in keys)
    first = [Fraction(0)] * (DEGREE + 1)
    second = [Fraction(0)] * (DEGREE + 1)
    push: Poly = ()
    hit: Poly = ()
    for (_, pays), poly in by_event.items():
        for i, c in enumerate(poly):
            first[i] += pays * c
            second[i] += pays * pays * c
        if pays == 0:
            push = _add(push, poly)
        elif pays > 0:
            hit = _add(hit, poly)
    ev = RationalFunction.of(first, den)
    variance = RationalFunction.of(second, den) - ev * ev
    push_p = RationalFunction.of(push, den)
    resolved = None if push_p.is_zero else -ev / (1 - push_p)
    return BetForms(bet, events, ev, variance, push_p, RationalFunction.of(hit, den), resolved)


# -- pay questions -------------------------------------------------------------------------------


def pay_form(
    bet: Bet, house_edge: Fraction | int = 0, tableau: Tableau = STANDARD, line: int | None = None
) -> RationalFunction:
    """The pay of the bet's adjustable line (Tie's 8, Dragon 7's 40, Banker's 19/20, ...), or
    of pay line ``line`` (an index into ``bet.lines``) when given, at which its house edge per
    coup is ``house_edge`` (0: the fair pay), as a function of d.

    EV is linear in that pay x: EV(x) = q x + r, q = P(the line's event), so
    x(d) = (-house_edge - r(d)) / q(d); the symbolic form of
    :func:`analyzer.engine.pricing.pay_for_edge`.

    The form is the algebra, for every d: where its value is <= 0, no positive pay gives that
    house edge (reports show '-' there; see :meth:`ClosedForm.possible`).

    Raises:
        BetError: the bet has no single adjustable pay (and no ``line`` is given), ``line`` is
            not one of its pay lines, or the line's event never happens;
        SymbolicError: ``house_edge`` is not an exact number of at most 80 digits.
    """
    edge = _exact(house_edge, "house edge")
    if not isinstance(bet, Bet):
        raise SymbolicTypeError(f"bad bet {show(bet)}: give a Bet (e.g. find_bet('tie'))")
    index = bet.adjustable if line is None else line
    if index is None or bet.payout_function is not None:
        raise BetError(f"bet {bet.name!r} has no single adjustable pay to solve for")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(bet.lines):
        raise BetError(f"bad pay line {index!r} of bet {bet.name!r}: use 0 to {len(bet.lines) - 1}")
    forms = bet_forms(bet, tableau)
    chosen = bet.lines[index]
    q = RationalFunction.constant(0)
    for event, _, prob in forms.events:
        if event == chosen.event:
            q = q + prob
    if q.is_zero:
        raise BetError(f"the event {chosen.event!r} of bet {bet.name!r} never happens")
    rest = forms.ev - q * chosen.pays
    return (-edge - rest) / q


def commission_form(house_edge: Fraction | int = 0) -> RationalFunction:
    """The Banker commission, as a fraction of the win (5% = 1/20), at which the Banker bet's
    house edge per coup is ``house_edge`` (0: the fair commission), as a function of d.  Where
    its value is outside [0, 1), no commission gives that house edge (reports show '-').

    >>> c = commission_form()
    >>> round(c.limit() * 100, 4) == Fraction("2.6790")   # fair commission, infinite deck
    True
    """
    return 1 - pay_form(find_bet("banker"), house_edge)


def _real_root_ceilings(poly: Poly) -> set[int]:
    """ceil(r) for every real root r of ``poly`` (exact: isolating intervals of width < 1/2)."""
    if len(poly) <= 1:
        return set()
    out: set[int] = set()
    for (a, b), _ in _sympy_poly(poly).intervals(eps=sympy.Rational(1, 2)):
        for end in (a, b):
            out.add(-((-int(end.p)) // int(end.q)))
    return out


def smallest_decks(f: RationalFunction, level: Fraction | int, above: bool = True) -> int | None:
    """The smallest whole d >= 1 with f(d) >= ``level`` (``above``) or f(d) <= ``level``, or
    ``None`` if no d >= 1 has it.

    Exact, with proof: f - level = P/den with P = num - level x den.  If d > 1 is the smallest
    such d, f(d-1) is on the other side, so P or den has a real root r in (d-1, d], and d =
    ceil(r).  The roots are isolated in intervals (a, b) of width < 1/2 with exact rational
    ends, so ceil(r) is ceil(a) or ceil(b); the function is evaluated exactly at d = 1 and at
    these few candidates, in increasing order.

    >>> smallest_decks(RationalFunction.of([0, 1], [1, 1]), Fraction(9, 10))   # d/(d+1) >= 0.9
    9
    """
    if not isinstance(f, RationalFunction):
        raise SymbolicTypeError(f"bad function {show(f)}: give a RationalFunction")
    if not isinstance(above, bool):
        raise SymbolicTypeError(f"bad above {show(above)}: give True or False")
    lv = _exact(level, "level")
    p = _add(_scale(f.num, lv.denominator), _scale(f.den, -lv.numerator))
    candidates = {1} | _real_root_ceilings(p) | _real_root_ceilings(f.den)
    for d in sorted(c for c in candidates if c >= 1):
        if _eval_int(f.den, d) == 0:
            continue
        value = f(d)
        if (value >= lv) if above else (value <= lv):
            return d
    return None


def crossing(f: RationalFunction, level: Fraction | int) -> int | None:
    """The smallest whole d >= 1 at which f crosses ``level`` from where it is at d = 1: if
    f(1) < level, the smallest d with f(d) >= level; if f(1) > level, the smallest d with
    f(d) <= level; 1 if f(1) == level; ``None`` if it never does (exact, see
    :func:`smallest_decks`).

    >>> from analyzer.bets.catalogue import catalogue_bets, find_bet, main_bets
    >>> crossing(bet_forms(find_bet("banker")).house_edge, Fraction(106, 10000))   # 1.06%
    13
    """
    if not isinstance(f, RationalFunction):
        raise SymbolicTypeError(f"bad function {show(f)}: give a RationalFunction")
    lv = _exact(level, "level")
    start = f(1)
    if start == lv:
        return 1
    return smallest_decks(f, lv, above=start < lv)


# -- reports -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """A titled group of closed forms, shown with the given style (``percent`` or ``decimal``)."""

    title: str
    forms: tuple[ClosedForm, ...]
    percent: bool = False


#: The bet quantities a report can show (``--quantity``), in the order shown.
QUANTITIES = ("house-edge", "resolved", "ev", "variance", "pay")


def bet_sections(
    bets: Sequence[Bet],
    pays: bool = True,
    house_edge: Fraction | int = 0,
    quantities: Sequence[str] = QUANTITIES,
    tableau: Tableau = STANDARD,
) -> list[Section]:
    """Sections for ``bets``, those named in ``quantities`` (``QUANTITIES``): house edges per
    coup, per resolved bet, EV, variance; and (``pay``, if ``pays``) the pay of each adjustable
    bet, and the Banker commission, for ``house_edge``.

    Raises:
        AnalyzerError: an unknown quantity name, or none at all; SymbolicError: a bad
            ``house_edge`` or a bet that is not a Bet.
    """
    quantities = _names(quantities, "quantities", QUANTITIES)
    bad = [q for q in quantities if q not in QUANTITIES]
    if bad:
        raise SymbolicError(f"unknown quantity {show(bad[0])}: use {', '.join(QUANTITIES)}")
    if not quantities:
        raise SymbolicError(f"no quantity named: use one or more of {', '.join(QUANTITIES)} (or all)")
    house_edge = _exact(house_edge, "house edge")
    if isinstance(bets, str) or not isinstance(bets, Iterable):
        raise SymbolicTypeError(f"bad bets {show(bets)}: give a list of Bet objects")
    bets = list(bets)
    forms = [bet_forms(b, tableau) for b in bets]
    every = [x for bf in forms for x in bf.forms()]

    def of_kind(kind: str) -> tuple[ClosedForm, ...]:
        return tuple(x for x in every if x.kind == kind)

    named = {
        "house-edge": Section("House edge per coup", of_kind("house_edge"), percent=True),
        "resolved": Section(
            "House edge per resolved bet (pushes excluded)", of_kind("house_edge_resolved"), percent=True
        ),
        "ev": Section("EV per unit staked", of_kind("ev")),
        "variance": Section("Variance per unit staked", of_kind("variance")),
    }
    sections = [named[q] for q in QUANTITIES if q in quantities and q in named]
    if pays and "pay" in quantities:
        pct = fraction_text(Fraction(house_edge) * 100)
        target = "fair (house edge 0)" if house_edge == 0 else f"house edge {pct}%"
        rows: list[ClosedForm] = []
        for bet in bets:
            if bet.adjustable is None or bet.payout_function is not None:
                continue
            line = bet.lines[bet.adjustable]
            try:
                rows.append(
                    ClosedForm(
                        f"{bet.name}:pay",
                        f"{bet.title}: pay on '{line.event}'",
                        "pay",
                        pay_form(bet, house_edge, tableau),
                    )
                )
            except BetError:
                continue
            if bet.name.split(":")[0] == "banker":
                rows.append(
                    ClosedForm(
                        f"{bet.name}:commission",
                        f"{bet.title}: commission (fraction of a win)",
                        "commission",
                        1 - rows[-1].function,
                    )
                )
        if rows:
            sections.append(Section(f"Pays for a {target} bet", tuple(rows)))
    return [s for s in sections if s.forms]


def engine_sections(tables: Iterable[str] = ENGINE_TABLES, tableau: Tableau = STANDARD) -> list[Section]:
    """Sections for the engine's tables (outcome, totals, naturals, cards probabilities).

    Raises:
        SymbolicError: an unknown table name (SymbolicTypeError: not a list of names).
    """
    tables = _names(tables, "tables", ENGINE_TABLES)
    for t in tables:
        if t not in ENGINE_TABLES:
            raise SymbolicError(f"unknown table {show(t)}: use {', '.join(ENGINE_TABLES)}")
    titles = {
        "outcomes": "Outcomes",
        "totals": "Final totals (Player p, Banker b)",
        "naturals": "Naturals",
        "cards": "Cards dealt per coup",
    }
    return [Section(f"{titles[t]}: probability per coup", engine_forms(t, tableau)) for t in tables]


@dataclass(frozen=True)
class Crossing:
    """Where one bet's house edge per coup crosses one level: the house edge on 1 deck and on
    an infinite shoe, which way it goes from 1 deck, the smallest deck count ``decks`` at which
    it reaches the level (``None``: never) and the house edge there."""

    bet: Bet
    level: Fraction
    at_one_deck: Fraction
    limit: Fraction
    direction: str
    decks: int | None
    at_decks: Fraction | None


def find_crossings(
    bets: Sequence[Bet], levels: Sequence[Fraction], tableau: Tableau = STANDARD
) -> tuple[Crossing, ...]:
    """For each bet and house-edge level, where the house edge crosses it (:func:`crossing`),
    bet by bet, each bet's levels in the order given.

    Raises:
        SymbolicTypeError: ``levels`` not a list of exact numbers, ``bets`` not a list of Bets.
    """
    if isinstance(levels, str) or not isinstance(levels, Iterable):
        raise SymbolicTypeError(f"bad levels {show(levels)}: give a list of exact house edges (Fractions)")
    levels = [_exact(level, "crossing level") for level in levels]
    if isinstance(bets, str) or not isinstance(bets, Iterable):
        raise SymbolicTypeError(f"bad bets {show(bets)}: give a list of Bet objects")
    rows: list[Crossing] = []
    for bet in bets:
        he = bet_forms(bet, tableau).house_edge
        for level in levels:
            d = crossing(he, level)
            start = he(1)
            way = "equal at 1 deck" if start == level else ("rises to" if start < level else "falls to")
            rows.append(Crossing(bet, level, start, he.limit(), way, d, None if d is None else he(d)))
    return tuple(rows)


#: How the shoe is described in what a report records about itself.
STANDARD_SHOE = "standard shoe of d decks (52d cards: 4d per rank, d per rank and suit), any whole d >= 1"


@dataclass(frozen=True)
class SymbolicReport:
    """What ``punto-banco symbolic`` shows, before it is rendered: the sections of closed forms
    (the engine tables, then the bets' quantities) and the crossings of the levels asked for
    (empty when none)."""

    sections: tuple[Section, ...]
    crossings: tuple[Crossing, ...] = ()

def closed_forms(
    bet_specs: Sequence[str | Bet] = (),
    *,
    all_bets: bool = False,
    tables: Sequence[str] = ("outcomes",),
    quantities: Sequence[str] = QUANTITIES,
    target_edge: Fraction | None = None,
    crossings: Sequence[Fraction] = (),
    tableau: Tableau = STANDARD,
    file_bets: FileBets = NO_FILE_BETS,
) -> SymbolicReport:
    """What ``punto-banco symbolic`` shows: the engine ``tables``, then the bets named by
    ``bet_specs`` (catalogue specs, names of bets of ``file_bets``
    (:class:`~analyzer.bets.choice.FileBets`), or :class:`~analyzer.bets.model.Bet` objects such
    as the bets of a file; the main bets when none and not ``all_bets``): the
    ``quantities`` (see :func:`bet_sections`), pays for ``target_edge`` (default: fair); then
    the ``crossings`` table if levels are given.

    Raises:
        BetError: an unknown bet or bad parameter.
        AnalyzerError: an unknown table or quantity, no quantity at all, or a target edge or
            crossing level that is not an exact number (int or Fraction) of at most 80 digits.
    """
    for t in _names(tables, "tables", ENGINE_TABLES):
        if t not in ENGINE_TABLES:
            raise SymbolicError(f"unknown table {show(t)}: use {', '.join(ENGINE_TABLES)}, all or none")
    quantities = _names(quantities, "quantities", QUANTITIES)
    if not quantities:
        raise SymbolicError(f"no quantity named: use one or more of {', '.join(QUANTITIES)} (or all)")
    edge = Fraction(0) if target_edge is None else _exact(target_edge, "target edge")
    if isinstance(crossings, str) or not isinstance(crossings, Iterable):
        raise SymbolicTypeError(f"bad crossings {show(crossings)}: give a list of exact house edges")
    levels = [_exact(level, "crossing level") for level in crossings]
    if isinstance(bet_specs, str) or not isinstance(bet_specs, Iterable):
        raise SymbolicTypeError(f"bad bet specs {show(bet_specs)}: give a list of names or Bet objects")
    chosen: list[Bet] = []
    for spec in bet_specs:
        if isinstance(spec, Bet):
            chosen.append(spec)
        elif isinstance(spec, str):
            chosen.append(lookup_bet(spec, file_bets))
        else:
            raise SymbolicTypeError(
                f"bad bet spec {show(spec)}: use catalogue names such as 'tie' or 'banker:4', or Bet objects"
            )
    bets = (catalogue_bets() if all_bets else []) + chosen
    seen: set[str] = set()
    for bet in bets:  # as punto-banco bets / eor: a bet twice would print every section twice
        if bet.name in seen:
            raise BetError(f"bet {bet.name!r} is chosen twice: give each bet once, with a distinct name")
        seen.add(bet.name)
    for i, level in enumerate(levels):
        if level in levels[:i]:
            raise SymbolicError(
                f"crossing level {fraction_text(level * 100)}% is given twice: give each level once"
            )
    if not bets:
        bets = main_bets()
    sections = engine_sections(tables, tableau) + bet_sections(
        bets, house_edge=edge, quantities=quantities, tableau=tableau
    )
    return SymbolicReport(tuple(sections), find_crossings(bets, levels, tableau))
