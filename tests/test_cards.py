import pytest

from analyzer.core.cards import RANK_POINTS, RANKS, Card, Rank, Suit, hand_total, parse_card, parse_cards
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
