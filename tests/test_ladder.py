"""The designer's workflow: a pay ladder priced to a target house edge, by one chosen line
(``bets --adjust EVENT``) or one factor on every win (``bets --scale``), derived from the
priced events (EV is linear in any one pay and in a common factor) and checked here by pricing
the solved pay tables again."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest
from clirun import invoke

from analyzer import Shoe, find_bet, load_bets, pay_for_edge, price
from analyzer.bets.model import PayLine
from analyzer.errors import BetError
from analyzer.studies.ladder import find_line, ladder_lines, near_pays, pay_for_line, scale_for_edge

EIGHT = Shoe.standard(8)


def with_pays(bet, pays):
    """``bet`` with its pay lines paying ``pays`` (by event)."""
    lines = tuple(PayLine(ln.event, ln.when, pays.get(ln.event, ln.pays)) for ln in bet.lines)
    return dataclasses.replace(bet, lines=lines)


@pytest.mark.parametrize("spec, event, edge", [
    ("dragon-bonus-player", "Non-natural win by 9", Fraction(2, 100)),
    ("dragon-bonus-banker", "natural WIN", Fraction(0)),  # case and spaces do not matter
    ("lucky-6", "Banker wins with three-card 6", Fraction(5, 100)),
    ("perfect-9-bonus", "9 with a 10 or face card", Fraction(3, 100)),
])
def test_the_adjusted_line_gives_the_target_edge_exactly(spec, event, edge):
    summary = price(find_bet(spec), EIGHT)
    index = find_line(summary, event)
    assert index is not None
    pay = pay_for_line(summary, index, edge)
    again = price(with_pays(summary.bet, {summary.bet.lines[index].event: pay}), EIGHT)
    assert again.house_edge == edge


def test_the_adjustable_line_agrees_with_pay_for_edge():
    summary = price(find_bet("tie"), EIGHT)
    assert pay_for_line(summary, find_line(summary, "Tie"), Fraction(1, 100)) == \
        pay_for_edge(find_bet("tie"), EIGHT, Fraction(1, 100))


def test_near_pays_are_the_practical_pays_around_the_exact_one():
    summary = price(find_bet("dragon-bonus-player"), EIGHT)
    index = find_line(summary, "Non-natural win by 9")
    target = pay_for_line(summary, index, Fraction(2, 100))
    q = sum(r.probability for r in summary.events if r.event == "Non-natural win by 9")
    near = near_pays(target, q, summary.ev - 30 * q)
    assert [p.text for p in near] == ["31 to 1", "32 to 1", "32 for 1", "33 for 1"]
    for p in near:
        again = price(with_pays(summary.bet, {"Non-natural win by 9": p.pays}), EIGHT)
        assert again.house_edge == p.house_edge
        assert (p.pays < target) == (p.side == "below")


@pytest.mark.parametrize("spec, edge", [("dragon-bonus-player", Fraction(0)), ("lucky-6:2", Fraction(4, 100)),
                                        ("tie", Fraction(1, 100))])
def test_every_win_scaled_by_one_factor_gives_the_target_edge(spec, edge):
    summary = price(find_bet(spec), EIGHT)
    ladder = scale_for_edge(summary, edge)
    scaled = {event: pay for event, _, _, pay, _, _ in ladder.lines}
    assert all(pay == ladder.factor * now for _, now, _, pay, _, _ in ladder.lines)
    assert price(with_pays(summary.bet, scaled), EIGHT).house_edge == edge
    for side, pick in (("below", 4), ("above", 5)):
        chosen = {line[0]: line[pick] for line in ladder.lines}
        assert price(with_pays(summary.bet, chosen), EIGHT).house_edge == ladder.edges[side]
    assert ladder.edges["above"] <= edge <= ladder.edges["below"]
    for _, _, _, pay, low, high in ladder.lines:
        assert low <= pay <= high


def test_a_bet_without_the_line_is_left_out_and_no_line_anywhere_is_an_error():
    found = ladder_lines([price(find_bet("tie"), EIGHT), price(find_bet("dragon-7"), EIGHT)], "Tie")
    assert [i for _, i in found] == [0, None]
    with pytest.raises(BetError, match="no bet has a pay line 'Nope'; the lines of 'tie' are 'Tie'"):
        ladder_lines([price(find_bet("tie"), EIGHT)], "Nope")
    with pytest.raises(BetError, match="payout function"):
        scale_for_edge(price(find_bet("tie+banker"), EIGHT), Fraction(0))


def test_bets_adjust_prices_a_file_bet_line():
    result = invoke("bets", "--bet", "examples/dragon-bonus-alt.toml:dragon-bonus-alt", "--target-edge", "2",
                    "--adjust", "Non-natural win by 6 or 7", "--format", "json")
    assert result.exit_code == 0, result.output
    tables = {t["name"]: t for t in json.loads(result.stdout)["tables"]}
    (row,) = tables["pays"]["rows"]
    assert row["line"] == "Non-natural win by 6 or 7" and row["pays_now"] == "4"
    (bet,) = load_bets("examples/dragon-bonus-alt.toml")
    pay = Fraction(row["pay"])
    assert price(with_pays(bet, {"Non-natural win by 6 or 7": pay}), EIGHT).house_edge == Fraction(2, 100)
    near = tables["practical-pays"]["rows"]
    assert [r["side"] for r in near] == ["below", "above", "below", "above"]
    assert Fraction(near[0]["net_pay"]) < pay < Fraction(near[1]["net_pay"])
    assert Fraction(near[0]["house_edge"]) > Fraction(2, 100) > Fraction(near[1]["house_edge"])


def test_bets_scale_tables():
    result = invoke("bets", "--bet", "dragon-bonus-player", "--fair-pay", "--scale", "--format", "json")
    assert result.exit_code == 0, result.output
    tables = {t["name"]: t for t in json.loads(result.stdout)["tables"]}
    lines = tables["scaled-pays"]["rows"]
    assert [r["line"] for r in lines][:2] == ["Natural win", "Non-natural win by 9"]
    assert lines[1]["practical_below"] == "31 to 1" and lines[1]["practical_above"] == "32 to 1"
    (ladder,) = tables["scaled-ladders"]["rows"]
    summary = price(find_bet("dragon-bonus-player"), EIGHT)
    assert Fraction(ladder["factor"]) == scale_for_edge(summary, Fraction(0)).factor


@pytest.mark.parametrize("args, message", [
    (["--adjust", "Tie"], "add --fair-pay or --target-edge"),
    (["--scale"], "add --fair-pay or --target-edge"),
    (["--adjust", "Tie", "--scale", "--fair-pay"], "give one of them"),
    (["--adjust", " ", "--fair-pay"], "empty --adjust"),
    (["--adjust", "Nope", "--fair-pay"], "no bet has a pay line 'Nope'"),
])
def test_bets_ladder_usage_errors(args, message):
    result = invoke("bets", "--bet", "tie", *args)
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
