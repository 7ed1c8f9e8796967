"""Exact decimal views of exact numbers: rounding without a float detour.

Python 3.11 cannot format a ``Fraction`` to fixed decimals without converting it to a float;
these helpers round with integer arithmetic only (round half to even).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from math import isqrt

from analyzer.errors import AnalyzerError


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` (or ``"p"`` for an integer): the exact text of a fraction.

    >>> fraction_text(Fraction(3, 10)), fraction_text(Fraction(2))
    ('3/10', '2')
    """
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def round_fraction(x: Fraction, digits: int) -> Decimal:
    """``x`` rounded to ``digits`` decimals (half to even), as an exact ``Decimal``.

    >>> round_fraction(Fraction(2, 3), 4), round_fraction(Fraction(-1, 8), 2)
    (Decimal('0.6667'), Decimal('-0.12'))
    """
    if digits < 0:
        raise ValueError(f"bad number of digits {digits}: use 0 or more")
    # round(x * 10**digits) as Fraction.__round__ takes it (half to even), in integers
    scaled, twice = divmod(x.numerator * 10**digits, x.denominator)
    twice *= 2
    if twice > x.denominator or (twice == x.denominator and scaled % 2):
        scaled += 1
    return _decimal(scaled, digits)


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
    return _decimal(f, digits)


def _decimal(scaled: int, digits: int) -> Decimal:
    """``scaled`` / 10**digits as a Decimal, exactly (no context rounding, whatever the size)."""
    return Decimal(f"{scaled}E-{digits}")  # a Decimal from text keeps every digit


#: Bounds on numbers read from users and files: enough for any pay, stake or rate, small enough
#: that no input can make the exact arithmetic explode (``1e999999999`` would).
MAX_NUMBER_CHARS = 80
MAX_EXPONENT = 30
#: The bounds in words, as messages give them.
LIMITS_WORDS = f"at most {MAX_NUMBER_CHARS} characters, exponent at most {MAX_EXPONENT}"

_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_RATIO = re.compile(r"[+-]?\d+/\d+")


def past_limits(text: str) -> bool:
    """True when ``text`` is refused by :func:`parse_exact` for its size alone: longer than
    :data:`MAX_NUMBER_CHARS`, or a decimal whose exponent is beyond :data:`MAX_EXPONENT`."""
    raw = text.strip()
    if len(raw) > MAX_NUMBER_CHARS:
        return True
    match = _DECIMAL.fullmatch(raw)
    return bool(match and match.group(3) and abs(int(match.group(3)[1:])) > MAX_EXPONENT)


def parse_exact(text: object, what: str) -> Fraction:
    """Parse an exact number: an integer, a decimal (``0.95``, ``1.5e2``) or a ratio ``p/q``,
    into a ``Fraction`` without a float.  ASCII digits only, at most 80 characters, exponent
    at most 30 in size.

    Raises:
        AnalyzerError: the text is not such a number; the message quotes it and names ``what``.

    >>> parse_exact("19/20", "pay"), parse_exact("0.95", "pay"), parse_exact(" 1.5e1 ", "pay")
    (Fraction(19, 20), Fraction(19, 20), Fraction(15, 1))
    """
    if isinstance(text, bool) or not isinstance(text, str | int | Decimal | Fraction):
        raise AnalyzerError(f"bad {what} {text!r}: use a number such as 8, 0.95 or 19/20")
    if isinstance(text, int | Fraction):
        value = Fraction(text)
        bits = max(abs(value.numerator), value.denominator).bit_length()
        if bits > 4 * MAX_NUMBER_CHARS:
            raise AnalyzerError(f"bad {what}: a number of about {bits * 3 // 10} digits is too large")
        return value
    raw = str(text).strip()
    short = raw if len(raw) <= 40 else raw[:37] + "..."
    bad = AnalyzerError(
        f"bad {what} {short!r}: use a number such as 8, 0.95 or 19/20 ({LIMITS_WORDS})"
    )
    if len(raw) > MAX_NUMBER_CHARS or not raw.isascii():
        raise bad
    if _RATIO.fullmatch(raw):
        num, den = raw.split("/")
        if int(den) == 0:
            raise AnalyzerError(f"bad {what} {short!r}: division by zero")
        return Fraction(int(num), int(den))
    if _DECIMAL.fullmatch(raw) is None or past_limits(raw):
        raise bad
    return Fraction(raw)


_WHOLE = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")


def whole_number(value: object, *, signed: bool = False) -> int | None:
    """``value`` as a whole number, or ``None`` when it is not one: an ``int`` (not a bool), or
    text of ASCII digits 0-9 (a sign only when ``signed``; spaces around ignored), at most
    :data:`~analyzer.core.exact.MAX_NUMBER_CHARS` digits.  Fullwidth or other Unicode digits,
    ``1_000``, ``1.0`` and ``1e3`` are not whole numbers here, whatever Python's ``int()`` says.
    Negative numbers need ``signed``.

    >>> whole_number("12"), whole_number("-1", signed=True), whole_number("８"), whole_number("1_000")
    (12, -1, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if value.bit_length() > 4 * MAX_NUMBER_CHARS or (value < 0 and not signed):
            return None
        return value
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= MAX_NUMBER_CHARS and (_SIGNED if signed else _WHOLE).fullmatch(text):
            return int(text)
    return None
