"""Pays for a target edge also show the nearest practical pays, "X to 1" and "X for 1", each
with its exact house edge."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.bets.catalogue import find_bet
from analyzer.core.shoe import Shoe
from analyzer.engine.pricing import pay_for_edge, practical_pays, practical_step, price
from analyzer.errors import BetError

EIGHT = Shoe.standard(8)


def test_a_target_on_the_grid_is_exact_with_the_bets_own_edge():
    tie = find_bet("tie")
    edge = price(tie, EIGHT).house_edge
    near = practical_pays(tie, EIGHT, edge)
    assert [(p.text, p.side) for p in near] == [("8 to 1", "exact"), ("9 for 1", "exact")]
    assert all(p.pays == 8 and p.house_edge == edge for p in near)


def test_nearest_pays_bracket_the_target_with_exact_edges():
    tie = find_bet("tie")
    target = pay_for_edge(tie, EIGHT, Fraction(1, 100))
    near = practical_pays(tie, EIGHT, Fraction(1, 100))
    assert [p.text for p in near] == ["9 to 1", "9.5 to 1", "10 for 1", "11 for 1"]
    for form in ("to", "for"):
        below, above = (p for p in near if p.form == form)
        assert below.side == "below" and above.side == "above"
        assert below.pays < target < above.pays
        # A higher pay, a lower edge; the target's edge lies between.
        assert below.house_edge > Fraction(1, 100) > above.house_edge
    # The edge of a practical pay is the bet's own edge at that pay (Tie paying 9 to 1: tie:9).
    nine = next(p for p in near if p.text == "9 to 1")
    assert nine.house_edge == price(find_bet("tie:9"), EIGHT).house_edge


def test_commission_pays_step_in_hundredths():
    banker = find_bet("banker")
    near = practical_pays(banker, EIGHT, Fraction(1, 100))
    assert [p.text for p in near] == ["0.95 to 1", "0.96 to 1", "1.95 for 1", "1.96 for 1"]
    assert near[1].house_edge == price(find_bet("banker:4"), EIGHT).house_edge  # 4% commission


@pytest.mark.parametrize(
    ("quoted", "step"),
    [
        (Fraction(19, 20), Fraction(1, 100)),
        (Fraction(2), Fraction(1, 2)),
        (Fraction(99), Fraction(1)),
        (Fraction(100), Fraction(5)),
    ],
)
def test_grid_steps(quoted, step):
    assert practical_step(quoted) == step


def test_no_adjustable_pay_is_an_error():
    with pytest.raises(BetError, match="no single adjustable pay"):
        practical_pays(find_bet("dragon-bonus-player"), EIGHT)


def test_cli_shows_the_practical_pays(cli):
    res = cli("bets", "--bet", "tie", "--fair-pay")
    assert res.exit_code == 0, res.output
    assert "Practical pays nearest the fair pay" in res.output
    assert "9.5 to 1" in res.output and "10 for 1" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ("--bet", "tie", "--target-edge", "95"),
        ("--bet", "dragon-7", "--fair-pay", "--shoe", "K=10,8=10"),
    ],
)
def test_no_pay_for_the_target_is_a_dash_row_not_a_crash(cli, args):


    result = cli("bets", *args)
    assert result.exit_code == 0, result.output
    assert "no positive pay gives that house edge" in result.output


def test_bets_without_one_adjustable_pay_are_named_under_the_pays_table(cli):


    result = cli("bets", "--bet", "tie", "--bet", "dragon-bonus-player", "--fair-pay")
    assert (
        result.exit_code == 0 and "Not listed" in result.output and "Dragon Bonus (Player)" in result.output
    )
