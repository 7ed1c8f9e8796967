"""Bets over every card feature of the hand vocabulary (``analyzer.core.hands.CardGroup``), each
reading exactly what the feature needs (``FEATURE_NEEDS``), for the brute-force comparisons.

A feature bet's event is the feature's value (``repr``), so comparing its events with the brute
force compares the feature's whole distribution; it pays 1 when the value is truthy, else loses.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.core.cards import Colour, Rank, Suit
from analyzer.core.coup import POSITION_NAMES, POSITION_SETS, Coup
from analyzer.core.hands import FEATURE_NEEDS
from analyzer.core.reads import RankDetail, Reads, SuitDetail

#: Features that take an argument, and the argument used.
ARGUMENTS: dict[str, object] = {
    "count_value": 0,
    "count_rank": Rank.KING,
    "pair_of": Rank.KING,
    "colour": Colour.RED,
    "count_colour": Colour.BLACK,
    "suit": Suit.HEARTS,
    "count_suit": Suit.SPADES,
    "count_card": (Rank.KING, Suit.HEARTS),
}


def feature_value(coup: Coup, where: str, feature: str) -> object:
    """The value of ``feature`` of the cards at ``where`` (a name of ``POSITION_SETS``)."""
    group = coup.cards(POSITION_SETS[where])
    value = getattr(group, feature)
    if callable(value):
        arg = ARGUMENTS[feature]
        value = value(*arg) if isinstance(arg, tuple) else value(arg)
    return value


def feature_bet(where: str, feature: str, fields: tuple[str, ...] = ()) -> Bet:
    """A bet whose event is ``feature`` of the cards at ``where`` (optionally with the winner or
    other base fields in the event too, which sends it to a full-walk table)."""
    ranks, suits = FEATURE_NEEDS[feature]
    reads = Reads.of(fields, [POSITION_SETS[where]], ranks, suits)

    def event(c: Coup) -> str:
        head = ",".join(str(getattr(c, f)) for f in fields)
        return f"{head}|{feature_value(c, where, feature)!r}"

    return Bet.from_function(f"{where}.{feature}" + (f"+{'+'.join(fields)}" if fields else ""),
                             lambda c: 1 if feature_value(c, where, feature) else -1,
                             reads=reads, event=event)


#: Per-position attributes of a dealt card and what they need.
POSITION_ATTRIBUTES: dict[str, tuple[RankDetail, SuitDetail]] = {
    "value": (RankDetail.NONE, SuitDetail.NONE),
    "rank": (RankDetail.NAMED, SuitDetail.NONE),
    "colour": (RankDetail.NONE, SuitDetail.COLOUR),
    "suit": (RankDetail.NONE, SuitDetail.SUIT),
}


def position_bet(position: int, attribute: str) -> Bet:
    """A bet whose event is one attribute of the card at ``position`` (``None`` when undealt)."""
    ranks, suits = POSITION_ATTRIBUTES[attribute]
    reads = Reads.of([], [{position}], ranks, suits)

    def value(c: Coup) -> object:
        card = c.card(position)
        return None if card is None else getattr(card, attribute)

    return Bet.from_function(f"{POSITION_NAMES[position]}.{attribute}",
                             lambda c: 0 if value(c) is None else 1, reads=reads,
                             event=lambda c: repr(value(c)))


def value_bet(name: str, payout: Callable[[Coup], object], fields: tuple[str, ...]) -> Bet:
    """A bet on base fields only, its event the value of ``payout``."""
    return Bet.from_function(name, lambda c: Fraction(1) if payout(c) else -1, reads=Reads.of(fields),
                             event=lambda c: repr(payout(c)))


def quick_to_compile(bet: Bet, size: int) -> bool:
    """True when the tables pricing ``bet`` on a shoe of ``size`` cards compile in about a
    second: bets on base fields, on one card at any detail, and on the first two cards of each
    side by rank and same-card equality.  The slow lane prices every bet."""
    reads = bet.reads
    if not reads.sets or len(reads.card_positions) == 1:
        return True
    simple = reads.suits in (SuitDetail.NONE, SuitDetail.SAME_CARD) and RankDetail.EQUALITY.covers(
        reads.ranks
    )
    return simple and reads.card_positions <= {0, 1, 2, 3} and (size >= 6 or len(reads.card_positions) <= 2)
