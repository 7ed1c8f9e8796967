"""Exact numbers (``analyzer.core.exact``): rounding and square roots to any number of digits,
and parsing that refuses what is not a bounded decimal or fraction."""

from fractions import Fraction

import pytest

from analyzer.core.exact import parse_exact, round_fraction, sqrt_decimal
from analyzer.errors import AnalyzerError


def test_many_digits_are_exact(cli):
    # 2/3 to 60 decimals, and sqrt(2) to 50 (a Decimal context of 28 digits once cut these short).
    assert str(round_fraction(Fraction(2, 3), 60)) == "0." + "6" * 59 + "7"
    # sqrt(2) = 1.41421356237309504880168872420969807856967187537694|807... -> rounds up at 50.
    assert str(sqrt_decimal(Fraction(2), 50)) == "1.41421356237309504880168872420969807856967187537695"
    out = cli("analyze", "--table", "outcomes", "--digits", "60").output
    banker = Fraction(2_292_252_566_437_888, 4_998_398_275_503_360)
    assert f"{round_fraction(banker, 60):f}" in out and len(f"{round_fraction(banker, 60):f}") == 62


@pytest.mark.parametrize(
    "text", ["1e999999999", "1e5000", "1e-99999", "9" * 200, "٥", "1_0", "nan", "inf", ""]
)
def test_numbers_are_bounded(text):
    with pytest.raises(AnalyzerError):
        parse_exact(text, "pay")
