"""Baccara banque's model (analyzer/games/banque.py): the cells and the exact payoff forms, held
against a separate walk of the deal that follows the rules card by card."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from analyzer.errors import GameError
from analyzer.games.banque import (
    CELL_COUNT,
    NATURAL,
    STOOD,
    BanqueCell,
    banque,
    bilinear,
    check_theta,
    expected_results,
)


def _two_card_totals() -> Counter[int]:
    """Two-card totals by the 13 ranks (A-9 by value, 10 J Q K as 0), with replacement."""
    ranks = [*range(1, 10), 0, 0, 0, 0]
    return Counter((a + b) % 10 for a in ranks for b in ranks)


RANK_VALUES = [*range(1, 10), 0, 0, 0, 0]


def _walk(p1: int, p2: int, draws) -> tuple[Fraction, Fraction]:
    """E X1 and E X2 by dealing in order, with Players who draw at 5 when ``p_i`` is 1 and
    a Banker who draws when ``draws(total, seen1, seen2)`` says so: each rank of the 13 dealt
    with probability 1/13, totals of the first two cards from the 169 rank pairs."""
    two = _two_card_totals()
    x1 = x2 = 0  # in units of 13^-9: every hand's probability in 13ths of its third card

    def player(total: int, p: int) -> list[tuple[int, int, int]]:
        """(what Banker sees, final total, probability in 13ths) of a Player's play on ``total``."""
        if total >= 8:
            return [(NATURAL, total, 13)]
        if total <= 4 or (total == 5 and p == 1):
            return [(r % 10, (total + r) % 10, 1) for r in RANK_VALUES]
        return [(STOOD, total, 13)]

    def result(mine: int, banker: int) -> int:
        return (mine > banker) - (mine < banker)

    for a, wa in two.items():
        for b, wb in two.items():
            for k, wk in two.items():
                w = wa * wb * wk
                if k >= 8 or (a >= 8 and b >= 8):
                    x1 += w * 13**3 * result(a, k)
                    x2 += w * 13**3 * result(b, k)
                    continue
                for seen1, f1, w1 in player(a, p1):
                    for seen2, f2, w2 in player(b, p2):
                        ww = w * w1 * w2
                        if draws(k, seen1, seen2):
                            finals = [((k + r) % 10, 1) for r in RANK_VALUES]
                        else:
                            finals = [(k, 13)]
                        for fk, wy in finals:
                            # a Player out on a natural has won already (Banker has none)
                            x1 += ww * wy * (1 if seen1 == NATURAL else result(f1, fk))
                            x2 += ww * wy * (1 if seen2 == NATURAL else result(f2, fk))
    return Fraction(x1, 13**9), Fraction(x2, 13**9)


def _tableau_like(total: int, seen1: int, seen2: int) -> bool:
    """Draw on 0-2, on 3-6 by the last Player's third card as the Punto Banco tableau does."""
    third = seen2 if seen2 not in (STOOD, NATURAL) else seen1 if seen1 not in (STOOD, NATURAL) else None
    if total <= 2:
        return True
    if third is None:
        return total <= 5
    return {3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7, 6: third in (6, 7)}.get(total, False)


def _scrambled(total: int, seen1: int, seen2: int) -> bool:
    """A rule with no pattern, every cell on its own."""
    return (total * 131 + seen1 * 17 + seen2 * 7) % 5 < 2


def test_the_cells():
    cells = banque().cells
    assert len(cells) == CELL_COUNT == 1144 and len(set(cells)) == 1144
    assert sum(c.first == NATURAL for c in cells) == sum(c.second == NATURAL for c in cells) == 8 * 11
    assert BanqueCell(6, STOOD, NATURAL).label == "6 v stood, natural"


def test_every_deal_is_counted_once():
    game = banque()
    # the deals through Banker's cells: his total 0-7 and no two naturals among the Players
    two = _two_card_totals()
    no_natural = Fraction(sum(two[k] for k in range(8)), 169)
    both_natural = Fraction(two[8] + two[9], 169) ** 2
    reached = sum(Fraction(bilinear(w, Fraction(1, 3), Fraction(5, 7))) for w in game.weight)
    assert reached / game.denominator == no_natural * (1 - both_natural)


@pytest.mark.parametrize("rule", [_tableau_like, _scrambled])
@pytest.mark.parametrize(("p1", "p2"), [(1, 1), (1, 0), (0, 1), (0, 0)])
def test_the_forms_agree_with_a_walk_of_the_deal(p1, p2, rule):
    game = banque()
    draws = [Fraction(int(rule(c.total, c.first, c.second))) for c in game.cells]
    assert expected_results(game, Fraction(p1), Fraction(p2), lambda c: draws[c]) == _walk(p1, p2, rule)


def test_the_forms_are_bilinear_in_the_draw_probabilities():
    game = banque()
    draws = [Fraction(int(_scrambled(c.total, c.first, c.second))) for c in game.cells]
    corners = {(a, b): expected_results(game, Fraction(a), Fraction(b), lambda c: draws[c])
               for a in (0, 1) for b in (0, 1)}
    p1, p2 = Fraction(2, 7), Fraction(3, 5)
    mixed = expected_results(game, p1, p2, lambda c: draws[c])
    for hand in (0, 1):
        blend = sum(
            (p1 if a else 1 - p1) * (p2 if b else 1 - p2) * corners[(a, b)][hand] for a, b in corners
        )
        assert mixed[hand] == blend


def test_the_same_rule_for_both_sides_is_fair():
    # a Player who draws on 0-5 against a Banker who draws on 0-5 whatever he sees: symmetric
    game = banque()
    rule = [Fraction(int(c.total <= 5)) for c in game.cells]
    assert expected_results(game, Fraction(1), Fraction(1), lambda c: rule[c]) == (0, 0)


@pytest.mark.parametrize("bad", [0, 1, -1, Fraction(3, 2), "abc", "1/0", "100%", "", None, True])
def test_a_bad_theta(bad):
    # one line that says what a stake is, whatever the fault
    words = r"^bad theta .*: a stake is .* strictly between 0 and 1: 1/2, 0.3 or 30%$"
    with pytest.raises(GameError, match=words):
        check_theta(bad)


def test_a_number_past_the_exact_numbers_limits_says_so():
    words = r"strictly between 0 and 1: 1/2, 0.3 or 30% \(an exact number: .*exponent at most 30\)$"
    with pytest.raises(GameError, match=words):
        check_theta("1e-31")
    assert check_theta("1e-30") == Fraction(1, 10**30)


def test_a_decimal_is_exact_and_taken():
    assert check_theta(Decimal("0.3")) == Fraction(3, 10)
    with pytest.raises(GameError, match="a stake is"):
        check_theta(Decimal("NaN"))


def test_a_float_is_refused_as_not_exact():
    with pytest.raises(GameError, match="not exact"):
        check_theta(0.3)


def test_a_good_theta():
    assert check_theta(Fraction(3, 10)) == Fraction(3, 10)
    # text as the command line takes it: one reader for both
    for text in ("3/10", "0.3", " 30% ", "0.30"):
        assert check_theta(text) == Fraction(3, 10)
