"""One coup resolved from given cards with bets settled on it (``analyzer.bets.settle``): the
frozen :class:`Deal` that ``punto-banco deal`` and the service's ``deal`` tell."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from analyzer.bets.catalogue import find_bet
from analyzer.bets.settle import Deal, Settled, deal
from analyzer.core.cards import parse_cards
from analyzer.core.coup import Winner
from analyzer.errors import BetError, CardError, CoupError


def test_a_coup_is_resolved_and_each_bet_settled_for_the_stake():
    # Player 2 3 = 5 draws the 6 (total 1); Banker 4 10 = 4 draws against a 6: the ace (total 5)
    cards = parse_cards(["2", "4", "3", "10", "6", "A", "9"])
    bets = [find_bet("banker"), find_bet("player"), find_bet("tie")]
    result = deal(cards, bets=bets, stake=Fraction(10))
    assert (result.coup.player_total, result.coup.banker_total, result.coup.winner) == (1, 5, Winner.BANKER)
    assert result.coup.cards_dealt == 6 and [str(c) for c in result.not_dealt] == ["9"]
    assert result.settled == (
        Settled(bets[0], result.settled[0].event, Fraction(19, 20), Fraction(19, 2)),
        Settled(bets[1], result.settled[1].event, Fraction(-1), Fraction(-10)),
        Settled(bets[2], result.settled[2].event, Fraction(-1), Fraction(-10)),
    )
    assert result.stake == 10 and result.cards == tuple(cards)


def test_a_deal_is_frozen():
    result = deal(parse_cards(["9", "8", "9", "8"]), bets=[find_bet("tie")])
    for record in (result, result.settled[0]):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(record)[0].name, None)
    assert isinstance(result, Deal) and isinstance(result.settled, tuple)


@pytest.mark.parametrize(("cards", "bets", "stake", "error", "words"), [
    ("2 4 3 10 6 A", ["banker"], Fraction(0), BetError, "a stake must be greater than 0"),
    ("9 9 3 2 5 7", ["banker", "perfect-pair"], Fraction(1), BetError, "reads suits"),
    ("3 2 3 2", [], Fraction(1), CoupError, "no 5th card"),
])
def test_bad_input_is_one_error_before_any_bet_is_told(cards, bets, stake, error, words):
    with pytest.raises(error, match=words):
        deal(parse_cards(cards.split()), bets=[find_bet(b) for b in bets], stake=stake)


def test_suited_bets_settle_on_suited_cards():
    result = deal(parse_cards(["9h", "9h", "3d", "2c", "4s", "Kd"]), bets=[find_bet("perfect-pair")])
    assert result.settled[0].net == -1  # the Player's pair is 9h 3d: no pair
    result = deal(parse_cards(["9h", "3d", "9h", "2c", "4s", "Kd"]), bets=[find_bet("perfect-pair")])
    assert result.settled[0].net > 0  # 9h 9h: a perfect pair


def test_cards_may_be_text_or_card_text_as_the_oracle_takes_them():
    as_cards = deal(parse_cards("2 4 3 10 6 A"), bets=[find_bet("banker")])
    for given in ("2 4 3 10 6 A", "2,4,3,10,6,A", ["2", "4", "3", "10", "6", "A"]):
        result = deal(given, bets=[find_bet("banker")])
        assert result == as_cards and all(not isinstance(c, str) for c in result.cards)


def test_a_bad_card_in_text_is_named():
    with pytest.raises(CardError, match="'1O'"):
        deal("2 4 3 1O 6 A")
