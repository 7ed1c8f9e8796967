import pytest

from analyzer.core.cards import (
    RANK_POINTS,
    RANKS,
    RANKS_OF_POINT,
    SUITS,
    Card,
    Colour,
    Rank,
    Suit,
    hand_total,
    parse_card,
    parse_cards,
)
from analyzer.errors import CardError


def test_point_values_follow_the_rule_sheets():
    # RULES.md "Cards": Ace = 1, 2-9 face value, 10, J, Q, K = 0.
    expected = {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "T": 0,
        "J": 0,
        "Q": 0,
        "K": 0,
    }
    assert {r.value: r.point for r in RANKS} == expected
    assert tuple(expected.values()) == RANK_POINTS


@pytest.mark.parametrize(
    "text, rank, suit",
    [
        ("A", Rank.ACE, None),
        ("a", Rank.ACE, None),
        ("10", Rank.TEN, None),
        ("t", Rank.TEN, None),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("Ks", Rank.KING, Suit.SPADES),
        ("qD", Rank.QUEEN, Suit.DIAMONDS),
        ("7c", Rank.SEVEN, Suit.CLUBS),
        (" 9 ", Rank.NINE, None),
    ],
)
def test_parse_card(text, rank, suit):
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize("bad", ["1", "11", "Z", "Kx", "", "10hh", "AS2"])
def test_bad_card_names_the_token(bad):
    with pytest.raises(CardError, match=repr(bad).replace("\\", "\\\\")):
        parse_card(bad)


def test_parse_cards_and_totals():
    cards = parse_cards("8, 7 6 4")
    assert hand_total([c.point for c in cards[:2]]) == 5  # 8 + 7 = 15 -> 5 (RULES.md)
    assert hand_total([c.point for c in cards[2:]]) == 0  # 6 + 4 = 10 -> 0, "baccara"
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10h"


def test_suits_colours_and_orders():
    # the usual colours (no rule sheet needs them): hearts and diamonds red, spades and clubs black
    assert [s.colour for s in SUITS] == [Colour.BLACK, Colour.RED, Colour.RED, Colour.BLACK]
    assert "".join(s.symbol for s in SUITS) == "\u2660\u2665\u2666\u2663"
    assert [r.order for r in RANKS] == list(range(1, 14))  # ace low; straights play it high too
    assert [r.label for r in RANKS][9:] == ["10", "J", "Q", "K"]
    assert all(r.index == i for i, r in enumerate(RANKS)) and all(s.index == i for i, s in enumerate(SUITS))
    assert RANKS_OF_POINT[0] == (9, 10, 11, 12)  # 10, J, Q, K count 0 (RULES.md, "Cards")
    assert str(Card(Rank.ACE)) == "A" and Card(Rank.KING, Suit.CLUBS).point == 0


def test_parse_cards_takes_lists():
    assert parse_cards(["Kh", "10s", "a"]) == [Card(Rank.KING, Suit.HEARTS), Card(Rank.TEN, Suit.SPADES),
                                               Card(Rank.ACE)]
    with pytest.raises(CardError):
        parse_cards("K 1")
