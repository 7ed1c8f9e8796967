"""Independent reference for the infinite-deck limit: cards drawn i.i.d., no enumerator.

On an infinite shoe each card's rank is uniform over the 13 ranks and its suit uniform over the
4 suits, independently of every other card.  So each point value 1-9 is drawn with probability
1/13 and value 0 (10, J, Q, K) with 4/13; two cards have the same rank with probability 1/13
and are the same card (rank and suit) with probability 1/52.  This module walks that tree with
exact fractions and builds *representative* full coup records with
:func:`analyzer.core.coup.resolve` (the drawing rules); it never touches the engine
(``analyzer.engine``) nor ``analyzer.studies.symbolic``.

Two distributions, each fine enough for the bets it serves:

* :func:`value_coups`: every coup by its two-card totals and third-card values (base fields:
  winner, totals, cards, naturals, two-card totals, third cards), for bets that read no cards;
* :func:`first_four_coups`: the first four cards by point value, which share a rank and which
  are the same card, for bets that read only the first four cards, by rank equality and
  same-card equality.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

from analyzer.core.cards import Card, Rank, Suit
from analyzer.core.coup import Coup, resolve
from analyzer.core.tableau import STANDARD, Tableau

#: A card of each point value, for the tableau (the King stands for every 10-valued rank).
RANK_OF_VALUE = {0: Rank.KING, 1: Rank.ACE, **{v: Rank(str(v)) for v in range(2, 10)}}
VALUE_PROBABILITY = {v: Fraction(4 if v == 0 else 1, 13) for v in range(10)}


def _card(value: int, suit: Suit = Suit.SPADES, rank: Rank | None = None) -> Card:
    return Card(rank or RANK_OF_VALUE[value], suit)


def two_card_totals() -> dict[int, Fraction]:
    """P(a side's two-card total is t), t = 0..9."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for v1 in range(10):
        for v2 in range(10):
            out[(v1 + v2) % 10] += VALUE_PROBABILITY[v1] * VALUE_PROBABILITY[v2]
    return dict(out)


def value_coups(tableau: Tableau = STANDARD) -> dict[Coup, Fraction]:
    """Full coup records and their probabilities, fine enough for bets that read base fields
    only: the draws depend on the first four cards through the two-card totals alone, so each
    pair of totals is dealt from representative cards (the total and a 10-valued card)."""
    out: dict[Coup, Fraction] = defaultdict(Fraction)
    totals = two_card_totals()
    for pt, pp in totals.items():
        for bt, bp in totals.items():
            _deal_on([_card(pt), _card(bt), _card(0), _card(0)], pp * bp, tableau, out)
    return dict(out)


def _deal_on(first: list[Card], p: Fraction, tableau: Tableau, out: dict[Coup, Fraction]) -> None:
    """Add the coups that continue ``first`` (each third card by value) to ``out``."""
    filler = _card(0)
    if resolve([*first, filler, filler], tableau).cards_dealt == 4:
        out[resolve(first, tableau)] += p
        return
    for v5 in range(10):
        five = [*first, _card(v5)]
        if resolve([*five, filler], tableau).cards_dealt == 5:
            out[resolve(five, tableau)] += p * VALUE_PROBABILITY[v5]
            continue
        for v6 in range(10):
            out[resolve([*five, _card(v6)], tableau)] += p * VALUE_PROBABILITY[v5] * VALUE_PROBABILITY[v6]


def set_partitions(n: int, most: int = 4) -> list[tuple[int, ...]]:
    """Set partitions of n ordered items into at most ``most`` blocks (block of each item,
    numbered in order of first appearance)."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(n):
        out = [(*p, b) for p in out for b in range(min((max(p) + 2) if p else 1, most))]
    return out


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


TEN_RANKS = (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
SUITS_IN_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def first_four_coups() -> dict[Coup, Fraction]:
    """Records of the first four cards (P1 B1 P2 B2) with their probabilities, as fine as rank
    equality and same-card equality tell them: the point values, which 10-valued cards share a
    rank (k distinct ranks among n tens: probability 4!/(4-k)!/4^n per partition), and which
    cards of one rank share a suit (likewise over the 4 suits).  The coup is finished with
    filler cards, which bets reading only the first four cards never see."""
    out: dict[Coup, Fraction] = defaultdict(Fraction)
    filler = Card(Rank.JACK, Suit.CLUBS)
    for values in itertools.product(range(10), repeat=4):
        p_values = Fraction(1)
        for v in values:
            p_values *= VALUE_PROBABILITY[v]
        zeros = [i for i, v in enumerate(values) if v == 0]
        for ranks in set_partitions(len(zeros)):
            p_ranks = Fraction(_falling(4, len(set(ranks))), 4 ** len(zeros))
            rank_of = [RANK_OF_VALUE[v] for v in values]
            for i, r in zip(zeros, ranks, strict=True):
                rank_of[i] = TEN_RANKS[r]
            groups: dict[Rank, list[int]] = defaultdict(list)
            for i, r in enumerate(rank_of):
                groups[r].append(i)
            members = list(groups.values())
            for suits in itertools.product(*(set_partitions(len(m)) for m in members)):
                p = p_values * p_ranks
                suit_of = [Suit.SPADES] * 4
                for m, part in zip(members, suits, strict=True):
                    p *= Fraction(_falling(4, len(set(part))), 4 ** len(m))
                    for i, s in zip(m, part, strict=True):
                        suit_of[i] = SUITS_IN_ORDER[s]
                cards = [Card(rank_of[i], suit_of[i]) for i in range(4)]
                out[resolve([*cards, filler, filler])] += p
    return dict(out)
