"""Independent reference for the infinite-deck limit: cards drawn i.i.d., no enumerator.

On an infinite shoe each card's rank is uniform over the 13 ranks and its suit uniform over the
4 suits, independently of every other card.  So each point value 1-9 is drawn with probability
1/13 and value 0 (10, J, Q, K) with 4/13; the two sides' first two cards are independent of
each other and of the third cards.  This module walks that tree with exact fractions and lets
:func:`analyzer.core.coup.resolve` apply the tableau to representative cards; it never touches the
enumerator (``analyzer.engine.walk``) nor ``analyzer.studies.symbolic``.
"""

from collections import defaultdict
from fractions import Fraction

from analyzer.core.cards import parse_card
from analyzer.core.coup import resolve
from analyzer.core.features import Features

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
POINT = {r: (i + 1) % 10 if i < 9 else 0 for i, r in enumerate(RANKS)}
#: A card of each point value, for the tableau.
CARD_OF_VALUE = {v: parse_card("K" if v == 0 else "A" if v == 1 else str(v)) for v in range(10)}
VALUE_PROBABILITY = {v: Fraction(4 if v == 0 else 1, 13) for v in range(10)}


def side_first_two() -> dict[tuple[int, bool, bool], Fraction]:
    """Distribution of (two-card total, same rank, same rank and suit) for one side."""
    out: dict[tuple[int, bool, bool], Fraction] = defaultdict(Fraction)
    for r1 in RANKS:
        for r2 in RANKS:
            p = Fraction(1, 169)
            total = (POINT[r1] + POINT[r2]) % 10
            if r1 == r2:
                out[(total, True, True)] += p / 4
                out[(total, True, False)] += p * 3 / 4
            else:
                out[(total, False, False)] += p
    return dict(out)


def _coups_from_totals(pt: int, bt: int) -> list[tuple[Features, Fraction]]:
    """Every way a coup goes on from two-card totals pt, bt: (features without pairs, prob)."""
    first = [CARD_OF_VALUE[pt], CARD_OF_VALUE[bt], CARD_OF_VALUE[0], CARD_OF_VALUE[0]]
    out: list[tuple[Features, Fraction]] = []

    def leaf(cards: list, p: Fraction) -> None:
        c = resolve(cards)
        out.append((Features(
            player_total=c.player_total, banker_total=c.banker_total,
            player_cards=len(c.player), banker_cards=len(c.banker),
            player_third=c.player[2].point if len(c.player) == 3 else None,
            banker_third=c.banker[2].point if len(c.banker) == 3 else None,
        ), p))

    filler = CARD_OF_VALUE[0]
    if resolve([*first, filler, filler]).cards_used == 4:
        leaf(first, Fraction(1))
        return out
    for v5 in range(10):
        five = [*first, CARD_OF_VALUE[v5]]
        if resolve([*five, filler]).cards_used == 5:
            leaf(five, VALUE_PROBABILITY[v5])
            continue
        for v6 in range(10):
            leaf([*five, CARD_OF_VALUE[v6]], VALUE_PROBABILITY[v5] * VALUE_PROBABILITY[v6])
    return out


def infinite_distribution() -> dict[Features, Fraction]:
    """Exact probability of each full-level Features record on an infinite shoe."""
    side = side_first_two()
    by_totals = {(pt, bt): _coups_from_totals(pt, bt) for pt in range(10) for bt in range(10)}
    out: dict[Features, Fraction] = defaultdict(Fraction)
    for (pt, ppair, psuit), pp in side.items():
        for (bt, bpair, bsuit), bp in side.items():
            for f, p in by_totals[(pt, bt)]:
                full = f._replace(player_pair=ppair, banker_pair=bpair,
                                  player_suited_pair=psuit, banker_suited_pair=bsuit)
                out[full] += pp * bp * p
    return dict(out)
