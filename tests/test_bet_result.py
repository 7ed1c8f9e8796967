"""The frozen results of ``punto-banco bets`` (``analyzer.studies.bet_result``): the bets chosen
once, priced once, and their pays solved from the priced events, checked against the engine's
own solutions (``pay_for_edge``, ``practical_pays``, each pricing the bet again) and against the
definition of EV."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from analyzer.bets.catalogue import CATALOGUE, find_bet
from analyzer.bets.choice import choose, find_by_pays
from analyzer.core.shoe import Shoe
from analyzer.engine.pricing import pay_for_edge, practical_pays, price
from analyzer.errors import BetError
from analyzer.studies.bet_result import (
    BetsResult,
    PaysResult,
    SolvedLine,
    bet_result,
    catalogue_rows,
    choose_bets,
    pays_result,
)

SHOE = Shoe.standard(8)
#: Bets with one adjustable line, bets with several winning lines, a pair bet that cannot push.
BETS = ("tie", "dragon-7", "panda-8", "banker", "player", "dragon-bonus-player", "player-pair")


def _ev_with(summary, event: str, pays: Fraction) -> Fraction:
    """The bet's EV per coup with the pay of the line ``event`` set to ``pays`` (the definition
    of EV: a sum over events of probability x pays)."""
    return sum((r.probability * (pays if r.event == event else r.pays) for r in summary.events), Fraction(0))


def test_the_results_are_frozen():
    result = bet_result(SHOE, ["tie"], [], fair_pay=True)
    found = pays_result(SHOE, "25")
    for record in (result, result.solved[0], found, catalogue_rows()[0]):
        field = dataclasses.fields(record)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)
    assert isinstance(result.summaries, tuple) and isinstance(found.matches, tuple)


def test_a_result_without_pays_holds_the_priced_bets_in_order():
    result = bet_result(SHOE, list(BETS), [], events=True)
    assert isinstance(result, BetsResult)
    assert [s.bet.name for s in result.summaries] == list(BETS)
    for s in result.summaries:
        assert s.ev == price(find_bet(s.bet.name), SHOE).ev
    assert (result.house_edge, result.ladder, result.solved, result.scaled, result.unsolved) == (
        None, None, (), (), ()
    )
    assert result.events and result.not_priced == ()


def test_nothing_named_gives_the_main_bets():
    assert [b.name for b in choose_bets([], [])] == [s.bet.name for s in bet_result(SHOE, [], []).summaries]
    assert {"banker", "player", "tie"} <= {b.name for b in choose_bets([], [])}


@pytest.mark.parametrize("target", [None, "1.5", "-2"])
def test_each_adjustable_line_is_solved_as_the_engine_solves_it(target):
    result = bet_result(SHOE, list(BETS), [], fair_pay=target is None, target_edge=target)
    edge = Fraction(0) if target is None else Fraction(target) / 100
    assert result.ladder == "adjustable" and result.house_edge == edge
    adjustable = [b for b in map(find_bet, BETS) if b.adjustable is not None and b.payout_function is None]
    assert [s.bet.name for s in result.solved] == [b.name for b in adjustable]
    assert result.unsolved == tuple(find_bet(n).title for n in BETS if find_bet(n) not in adjustable)
    for solved, bet in zip(result.solved, adjustable, strict=True):
        assert solved.line == bet.adjustable
        exact = pay_for_edge(bet, SHOE, edge)  # prices the bet again, its own way
        assert solved.pay == (exact if exact > 0 else None)
        assert solved.near == (practical_pays(bet, SHOE, edge) if solved.pay is not None else ())
        if solved.pay is not None:
            summary = next(s for s in result.summaries if s.bet == bet)
            assert -_ev_with(summary, solved.event, solved.pay) == edge


def test_a_named_line_is_solved_for_every_bet_that_has_it():
    names = ["dragon-bonus-player", "dragon-bonus-banker", "tie"]
    result = bet_result(SHOE, names, [], target_edge="2", adjust="non-natural  WIN by 9")
    assert result.ladder == "line" and result.adjust == "non-natural  WIN by 9"
    assert [s.bet.name for s in result.solved] == names[:2]
    assert result.unsolved == (find_bet("tie").title,)
    for solved, summary in zip(result.solved, result.summaries[:2], strict=True):
        assert solved.event == "Non-natural win by 9" and solved.pay is not None
        assert -_ev_with(summary, solved.event, solved.pay) == Fraction(2, 100)
        assert solved.pays_now == summary.bet.lines[solved.line].pays
        assert all(p.pays > 0 for p in solved.near)
        assert {p.side for p in solved.near} <= {"below", "above", "exact"}
    with pytest.raises(BetError, match="no bet has a pay line 'nothing'"):
        bet_result(SHOE, names, [], fair_pay=True, adjust="nothing")


def test_a_line_no_positive_pay_solves_has_no_pay():
    # a house edge of 99%: Tie would have to pay less than nothing
    result = bet_result(SHOE, ["tie"], [], target_edge="99", adjust="Tie")
    assert result.solved == (SolvedLine(find_bet("tie"), result.solved[0].line, None, ()),)


def test_every_win_scaled_gives_the_house_edge():
    result = bet_result(SHOE, ["tie", "dragon-bonus-player", "banker"], [], target_edge="1", scale=True)
    assert result.ladder == "scale" and result.solved == ()
    assert [ladder.summary.bet.name for ladder in result.scaled] == ["tie", "dragon-bonus-player", "banker"]
    for ladder in result.scaled:
        k, rows = ladder.factor, ladder.summary.events
        scaled = sum((r.probability * r.pays * (k if r.pays > 0 else 1) for r in rows), Fraction(0))
        assert -scaled == Fraction(1, 100)


def test_all_bets_on_a_shoe_without_suits_leave_the_suited_ones_out():
    shoe = Shoe.from_counts([32] * 13)
    result = bet_result(shoe, [], [], all_bets=True)
    assert "perfect-pair" in result.not_priced
    assert all(not find_bet(n).reads.needs_suits or n in result.not_priced for n in result.not_priced)
    assert {s.bet.name for s in result.summaries}.isdisjoint(result.not_priced)
    assert all(not s.bet.reads.needs_suits for s in result.summaries)


def test_bets_already_chosen_are_not_chosen_again():
    choice = choose(["tie"], [])
    result = bet_result(SHOE, ["no-such-bet"], [], choice=choice)  # the specs are not read again
    assert [s.bet.name for s in result.summaries] == ["tie"]
    with pytest.raises(BetError):
        bet_result(SHOE, ["no-such-bet"], [])


def test_a_bad_target_edge_is_one_error():
    with pytest.raises(BetError, match="--target-edge"):
        bet_result(SHOE, ["tie"], [], target_edge="abc")
    with pytest.raises(BetError, match="a float is not exact"):
        bet_result(SHOE, ["tie"], [], target_edge=1.5)


def test_a_target_edge_may_be_a_fraction_or_an_int():
    as_text = bet_result(SHOE, ["tie"], [], target_edge="3/2")
    assert bet_result(SHOE, ["tie"], [], target_edge=Fraction(3, 2)) == as_text
    assert as_text.house_edge == Fraction(3, 200)
    assert bet_result(SHOE, ["tie"], [], target_edge=2).house_edge == Fraction(2, 100)


def test_bets_found_by_their_pays_are_priced():
    found = pays_result(Shoe.from_counts([32] * 13), "25")
    assert isinstance(found, PaysResult)
    finding = find_by_pays("25")
    assert found.finding == finding
    assert found.not_priced == tuple(m.bet.name for m in finding.matches if m.bet.reads.needs_suits)
    assert found.matches == tuple(m for m in finding.matches if not m.bet.reads.needs_suits)
    assert [s.bet for s in found.summaries] == [m.bet for m in found.matches]
    assert found.not_priced and found.matches


def test_the_catalogue_rows_follow_the_catalogue():
    rows = catalogue_rows()
    assert [r.entry.name for r in rows] == [e.name for e in CATALOGUE]
    egalite = next(r for r in rows if r.entry.name == "egalite")
    assert egalite.bet.name == "egalite:5"
    lucky = next(r for r in rows if r.entry.name == "lucky-6")
    assert "macau" in {n.alias for n in lucky.pay_table_names}
