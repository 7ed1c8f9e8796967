"""How many coups a conformance test needs to detect a given change: power analysis.

**Frequency families** (Pearson's chi-square test of :mod:`analyzer.checks.conform`).  Under
the null the family's categories have exact probabilities ``p``; under the alternative ``q``
(e.g. the same family under another tableau, computed exactly by the engine).  Cohen's effect
size is ``w = sqrt(sum (q_i - p_i)^2 / p_i)`` over the categories with ``p_i > 0``; for ``n``
coups Pearson's statistic is approximately noncentral chi-square with ``k - 1`` degrees of
freedom and noncentrality ``lambda = n w^2`` (Patnaik 1949, Biometrika 36, "The non-central
chi-square and F-distributions and their applications"; Mitra 1958, Ann. Math. Statist. 29,
"On the limiting power function of the frequency chi-square test"; Cohen 1988, *Statistical
Power Analysis for the Behavioral Sciences*, 2nd ed., ch. 7, where ``w`` and ``lambda = n w^2``
are tabulated).  The power at ``n`` is ``P(chi2'(k - 1, n w^2) > c)`` with ``c`` the upper
``level`` quantile of the central chi-square, ``level`` the Bonferroni-corrected significance
level of the conform run.  The number of coups reported is the smallest ``n`` with power at least
the target (90% by default).  The approximation is asymptotic (a local alternative, expected
counts not too small); it is not an exact multinomial power.

Categories impossible under the null (``p_i = 0``) but possible under the alternative make the
test fail at once when one is observed (:func:`~analyzer.checks.conform.fit_family`): with
``z`` their total probability under the alternative, the power at ``n`` is
``1 - (1 - z)^n (1 - P(chi2'(k - 1, n w^2) > c))`` (the chi-square part taken as independent of
the impossible observations: a close approximation when ``z`` is small).

**Decision cells** (:mod:`analyzer.checks.decisions`) need no statistics: one coup through a cell
where the two tableaux disagree is a failure.  With ``r`` the exact probability per coup of such
a coup under the alternative, the power at ``n`` is ``1 - (1 - r)^n`` and the coups needed for
power ``pi`` are ``ceil(log(1 - pi) / log(1 - r))``, whatever the significance level.

Floats appear only in the power, the quantiles and the noncentrality (named ``*_float``);
probabilities and ``w^2`` stay exact.  The distributions are those of :mod:`scipy.stats`
(``chi2``, ``ncx2``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.exact import parse_exact
from analyzer.errors import AnalyzerError, ObservedError

#: The power aimed at when none is given.
DEFAULT_POWER = Fraction(9, 10)
#: The effect size (Cohen's w) used when no alternative tableau is named.  The named tableau
#: variants move the families they affect by w of about 0.0005 to 0.05 on 8 decks
#: (banker-stands-on-6: winner 0.0005, banker_total 0.019, cards 0.023;
#: banker-under-5-when-player-stood: winner 0.010, banker_total 0.041, cards 0.044); 0.01, a tenth
#: of Cohen's "small" effect (0.1), is inside that range.
DEFAULT_EFFECT = Fraction(1, 100)
#: Above this many coups a test is reported as not practical (the search stops there).
MAX_COUPS = 10**15


def effect_size_squared(p: Mapping[str, Fraction], q: Mapping[str, Fraction]) -> Fraction:
    """Cohen's ``w^2 = sum (q_i - p_i)^2 / p_i`` over the categories with ``p_i > 0``, exact.

    ``p`` and ``q`` map the same categories to probabilities (null and alternative).

    >>> half, p = Fraction(1, 2), Fraction(3, 5)
    >>> effect_size_squared({"a": half, "b": half}, {"a": p, "b": 1 - p})
    Fraction(1, 25)
    """
    return sum(((q.get(c, Fraction(0)) - pc) ** 2 / pc for c, pc in p.items() if pc > 0), Fraction(0))


def impossible_mass(p: Mapping[str, Fraction], q: Mapping[str, Fraction]) -> Fraction:
    """The alternative's probability of categories impossible under the null (``p = 0``)."""
    return sum((qc for c, qc in q.items() if p.get(c, Fraction(0)) == 0), Fraction(0))


def _critical(df: int, level: Fraction) -> float:
    from scipy import stats  # type: ignore[import-untyped]

    return float(stats.chi2.isf(float(level), df))


def _chi2_power(df: int, critical: float, noncentrality: float) -> float:
    from scipy import stats

    if noncentrality <= 0:
        return float(stats.chi2.sf(critical, df))
    return float(stats.ncx2.sf(critical, df, noncentrality))


def noncentrality_for_power(df: int, level: Fraction, power: Fraction = DEFAULT_POWER) -> float:
    """The noncentrality ``lambda`` at which the chi-square test with ``df`` degrees of freedom at
    significance ``level`` has power ``power`` (a float; Cohen 1988, table 7.4.6, for checks).

    Raises:
        ObservedError: ``df`` < 1, or ``level`` / ``power`` not in (0, 1), or ``power`` not
            above ``level`` (the test rejects with probability ``level`` under the null).

    >>> round(noncentrality_for_power(1, Fraction(5, 100), Fraction(8, 10)), 2)  # Cohen: 7.85
    7.85
    """
    if df < 1:
        raise ObservedError(f"bad degrees of freedom {df}: a chi-square test needs at least 2 categories")
    _check_unit("significance level", level)
    _check_unit("power", power)
    if power <= level:
        raise ObservedError(f"power {float(power):g} must exceed the significance level {float(level):g}")
    from scipy import optimize

    critical = _critical(df, level)
    target = float(power)
    hi = 1.0
    while _chi2_power(df, critical, hi) < target:
        hi *= 2
    return float(optimize.brentq(lambda lam: _chi2_power(df, critical, lam) - target, 0.0, hi, xtol=1e-10))


def _check_unit(what: str, value: Fraction) -> None:
    if isinstance(value, bool) or not isinstance(value, int | Fraction) or not 0 < value < 1:
        raise ObservedError(
            f"bad {what} {value!r}: give an exact number between 0 and 1, e.g. Fraction(9, 10)"
        )


def coups_to_see(r: Fraction, power: Fraction = DEFAULT_POWER) -> int | None:
    """The fewest coups giving probability at least ``power`` of at least one event of
    probability ``r`` per coup (independent coups): ``ceil(log(1 - power) / log(1 - r))``,
    checked exactly; ``None`` when ``r`` is 0 (never).

    >>> coups_to_see(Fraction(1, 2), Fraction(9, 10))  # 1 - (1/2)^4 = 15/16 >= 9/10 > 7/8
    4
    """
    _check_unit("power", power)
    if r <= 0:
        return None
    if r >= 1:
        return 1
    n = max(1, math.ceil(math.log(1 - float(power)) / math.log1p(-float(r))))
    # settle the float estimate exactly: the smallest n with (1 - r)^n <= 1 - power
    while n > 1 and (1 - r) ** (n - 1) <= 1 - power:
        n -= 1
    while (1 - r) ** n > 1 - power:
        n += 1
    return n


def chance_to_see(r: Fraction, n: int) -> float:
    """``1 - (1 - r)^n``: the probability of at least one event of probability ``r`` in ``n``
    coups (a float)."""
    if r <= 0 or n <= 0:
        return 0.0
    return -math.expm1(n * math.log1p(-float(r))) if r < 1 else 1.0


@dataclass(frozen=True)
class FamilyPower:
    """Power of one family's chi-square test against one alternative.

    ``w_squared`` is Cohen's w^2 (exact), ``impossible`` the alternative's probability of
    categories impossible under the null, ``coups`` the coups needed for ``power`` (``None``:
    the family cannot see the change, or needs more than :data:`MAX_COUPS`),
    ``power_at_n_float`` the power at ``n`` coups (the log's).
    """

    df: int
    w_squared: Fraction
    impossible: Fraction
    coups: int | None
    power_at_n_float: float

    @property
    def w_float(self) -> float:
        """Cohen's w, as a float."""
        return math.sqrt(self.w_squared)


def family_power(
    df: int,
    w_squared: Fraction,
    impossible: Fraction,
    level: Fraction,
    n: int,
    power: Fraction = DEFAULT_POWER,
) -> FamilyPower:
    """Coups needed, and the power at ``n`` coups, for a chi-square test with ``df`` degrees of
    freedom at ``level`` against an alternative of effect ``w_squared`` (Cohen's w^2) that puts
    probability ``impossible`` on categories impossible under the null (module docstring).

    Raises:
        ObservedError: ``level`` or ``power`` outside (0, 1), or ``power`` not above ``level``.
    """
    _check_unit("significance level", level)
    _check_unit("power", power)
    if df < 1:  # one category: only the impossible ones can show a change
        seen = coups_to_see(impossible, power)
        return FamilyPower(df, w_squared, impossible, seen, chance_to_see(impossible, n))
    critical = _critical(df, level)

    def at(m: int) -> float:
        chi = _chi2_power(df, critical, m * float(w_squared))
        return 1 - (1 - chance_to_see(impossible, m)) * (1 - chi)

    bounds = []
    if w_squared > 0:
        bounds.append(math.ceil(noncentrality_for_power(df, level, power) / float(w_squared)))
    seen = coups_to_see(impossible, power)
    if seen is not None:
        bounds.append(seen)
    if not bounds:
        return FamilyPower(df, w_squared, impossible, None, at(n))
    hi = max(1, min(bounds))
    if hi > MAX_COUPS:
        return FamilyPower(df, w_squared, impossible, None, at(n))
    target = float(power)
    while at(hi) < target:  # the float bound may fall a coup short
        hi += 1
    lo = 0  # at(lo) < target (0 coups: no power)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if at(mid) >= target:
            hi = mid
        else:
            lo = mid
    return FamilyPower(df, w_squared, impossible, hi, at(n))


def effect_power(
    df: int, w: Fraction, level: Fraction, n: int, power: Fraction = DEFAULT_POWER
) -> FamilyPower:
    """:func:`family_power` for a given effect size ``w`` (Cohen's w, > 0) instead of an
    alternative distribution.

    Raises:
        ObservedError: ``w`` not above 0, or a bad ``level`` / ``power``.
    """
    if isinstance(w, bool) or not isinstance(w, int | Fraction) or w <= 0:
        raise ObservedError(f"bad effect size {w!r}: give Cohen's w as an exact number above 0, e.g. 0.01")
    return family_power(df, Fraction(w) ** 2, Fraction(0), level, n, power)


def parse_fraction_option(text: str, what: str, low: Fraction, high: Fraction | None) -> Fraction:
    """An exact number from option text (``0.9``, ``9/10``, ``90%``), ``low`` < x (< ``high``).

    Raises:
        ObservedError: not a number in range.
    """

    shape = f"above {low}" + (f" and below {high}" if high is not None else "")
    raw = text.strip() if isinstance(text, str) else ""
    try:
        value = parse_exact(raw[:-1], what) / 100 if raw.endswith("%") else parse_exact(raw, what)
    except AnalyzerError:
        raise ObservedError(f"bad {what} {text!r}: use a number {shape}, e.g. 0.9, 9/10 or 90%") from None
    if not value > low or (high is not None and not value < high):
        raise ObservedError(f"bad {what} {text!r}: use a number {shape}")
    return value


__all__ = [
    "DEFAULT_EFFECT",
    "DEFAULT_POWER",
    "MAX_COUPS",
    "FamilyPower",
    "chance_to_see",
    "coups_to_see",
    "effect_power",
    "effect_size_squared",
    "family_power",
    "impossible_mass",
    "noncentrality_for_power",
    "parse_fraction_option",
]
