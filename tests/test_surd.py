"""Exact quadratic surds (analyzer/games/surd.py): arithmetic, exact signs, exact decimals."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

import pytest

from analyzer.errors import GameError
from analyzer.games.surd import Surd


def test_arithmetic_in_one_field():
    r = Surd.sqrt(2)
    assert r * r == 2 and (r * r).rational == 2
    assert (1 + r) / (3 - r) == Surd(Fraction(5, 7), Fraction(4, 7), 2)
    assert ((1 + r) / (3 - r)) * (3 - r) == 1 + r
    assert Surd.sqrt(8) == 2 * r and Surd.sqrt(Fraction(9, 4)).rational == Fraction(3, 2)
    assert Surd.sqrt(Fraction(1, 2)) == r / 2
    assert (r - r).rational == 0 and not (r - r)


@pytest.mark.parametrize(("a", "b", "d"),
                         [(3, -2, 2), (-3, 2, 2), (1, 1, 3), (-7, 4, 3), (12, -5, 6), (0, -1, 5)])
def test_signs_are_exact(a, b, d):
    x = Surd(a, b, d)
    assert x.sign() == (1 if a + b * d**0.5 > 0 else -1)
    assert (x < 0) == (x.sign() < 0) and (-x).sign() == -x.sign()


def test_a_near_tie_is_decided_exactly():
    # 665857/470832 is a convergent of sqrt(2): within 2e-12 of it, above
    x = Fraction(665857, 470832) - Surd.sqrt(2)
    assert x > 0 and x.sign() == 1


@pytest.mark.parametrize("text", ["2", "3", "9216910201", "1/7"])
def test_decimals_are_rounded_exactly(text):
    value = Fraction(text)
    x = Fraction(1, 3) - 5 * Surd.sqrt(value)
    with localcontext() as ctx:
        ctx.prec = 80
        expected = Decimal(1) / 3 - 5 * (Decimal(value.numerator) / value.denominator).sqrt()
    assert x.decimal(20) == expected.quantize(Decimal(10) ** -20)


@pytest.mark.parametrize("sign", [1, -1])
def test_a_decimal_keeps_every_digit_beyond_the_contexts_precision(sign):
    # the default context keeps 28 digits: a decimal of 60 places must not go through it, nor
    # its negation
    x = sign * Surd.sqrt(2)
    shown = x.decimal(60)
    assert -shown.as_tuple().exponent == 60 and len(shown.as_tuple().digits) == 61
    with localcontext() as ctx:
        ctx.prec = 100
        expected = (sign * Decimal(2).sqrt()).quantize(Decimal(10) ** -60)
    assert shown == expected


def test_text():
    assert str(Surd(1, -3, 2)) == "1 - 3*sqrt(2)"
    assert str(Surd(0, 1, 5)) == "sqrt(5)" and str(Surd(Fraction(1, 2))) == "1/2"
    assert str(Surd(Fraction(-1, 2), Fraction(1, 4), 3)) == "-1/2 + 1/4*sqrt(3)"


def test_two_fields_do_not_mix():
    with pytest.raises(GameError, match="internal"):
        _ = Surd.sqrt(2) + Surd.sqrt(3)
    assert Surd.sqrt(2) != Surd.sqrt(3)
    with pytest.raises(GameError):
        Surd.sqrt(-1)


def test_a_rational_surd_is_its_fraction_in_a_set():
    assert {Surd(Fraction(1, 2)), Surd(1)} == {Fraction(1, 2), 1}
    assert Surd(3) in {3} and Surd.sqrt(2) not in {Fraction(99, 70)}
