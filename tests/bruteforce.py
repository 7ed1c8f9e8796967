"""An independent, slow reference: deal every ordered sequence of *physical* cards.

It shares no code with the engine (``analyzer.engine``: walk, refinement, weights, tables) and
none with the bet records the engine builds (``build_record`` / ``Coup.project``):

* the drawing rules are applied here, from the tableau's data (naturals, the Player's drawing
  totals, the Banker's two tables), and :func:`analyzer.core.coup.resolve` is asked for the coup
  record only once this module has decided the coup is over (and must agree on its length);
* cards are drawn one at a time from the shoe's physical cards; identical cards (same rank and
  suit) are interchangeable, so drawing "one of the c copies left" counts c sequences
  (``physical=True`` enumerates every copy separately instead: the definition itself, for the
  smallest shoes; tests/test_bruteforce.py checks both agree);
* a coup finished after k < K cards (K = min(N, 6)) stands for the (N-k)!/(N-K)! orders of the
  cards that would come next (the 6-card universe of RULES.md, "Counting conventions"); a
  sequence that uses every card of a shoe under 6 without finishing the coup runs out;
* bets are settled on the *full* coup record (every card named), by their pay lines or payout
  function called directly, never through the projection the engine uses.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import Coup, resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau

#: The engine's event label of sequences that run out of cards (N < 6).
RUN_OUT = "Shoe runs out mid-coup (void)"


def physical_cards(shoe: Shoe) -> list[Card]:
    """One Card per physical card of the shoe (with its suit when the shoe knows suits)."""
    cards: list[Card] = []
    if shoe.suited is not None:
        for i, n in enumerate(shoe.suited):
            cards += [Card(RANKS[i // 4], SUITS[i % 4])] * n
    else:
        for rank, n in zip(RANKS, shoe.counts, strict=True):
            cards += [Card(rank)] * n
    return cards


def coup_length(tableau: Tableau, points: Sequence[int]) -> int | None:
    """How many cards the coup dealt from these point values uses (4, 5 or 6), read from the
    tableau's data directly; ``None`` when the values given do not yet say."""
    if len(points) < 4:
        return None
    player = (points[0] + points[2]) % 10
    banker = (points[1] + points[3]) % 10
    if player in tableau.naturals or banker in tableau.naturals:
        return 4
    if player not in tableau.player_draws_on:
        return 5 if banker in tableau.banker_draws_when_player_stood else 4
    if len(points) < 5:
        return None
    return 6 if points[4] in tableau.banker_draws_on_third[banker] else 5


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1)."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class BruteForce:
    """Every finished coup of a shoe with its number of ordered K-card sequences
    (K = min(N, 6)), the sequences that run out, and N!/(N-K)!."""

    coups: tuple[tuple[Coup, int], ...]
    run_out: int
    total: int

    def tally(self, key: Callable[[Coup], Hashable]) -> Counter[Hashable]:
        """Counts of ``key(coup)`` (run-out sequences not included)."""
        out: Counter[Hashable] = Counter()
        for coup, n in self.coups:
            out[key(coup)] += n
        return out


@functools.lru_cache(maxsize=64)
def deal_every_coup(shoe: Shoe, tableau: Tableau = STANDARD, physical: bool = False) -> BruteForce:
    """Deal every ordered sequence of the shoe's physical cards (see the module docstring)."""
    cards = physical_cards(shoe)
    n = len(cards)
    kmax = min(n, 6)
    if physical:
        kinds = [[card, 1, card.point] for card in cards]
    else:
        kinds = [[card, c, card.point] for card, c in Counter(cards).items()]
    found: list[tuple[Coup, int]] = []
    run_out = 0
    seq: list[Card] = []
    points: list[int] = []

    def deal(ways: int) -> None:
        nonlocal run_out
        length = coup_length(tableau, points)
        if length is not None and length <= len(seq):
            assert length == len(seq)
            coup = resolve(seq, tableau)
            assert coup.cards_dealt == length, (seq, coup)
            found.append((coup, ways * falling(n - length, kmax - length)))
            return
        if len(seq) == n:
            run_out += ways  # every card dealt (n < 6) and the coup is not over
            return
        for kind in kinds:
            left = kind[1]
            if left:
                kind[1] = left - 1
                seq.append(kind[0])
                points.append(kind[2])
                deal(ways * left)
                seq.pop()
                points.pop()
                kind[1] = left

    deal(1)
    return BruteForce(tuple(found), run_out, falling(n, kmax))


# -- bets settled on the full record --------------------------------------------------------------


def settle_full(bet: Bet, coup: Coup) -> tuple[str | None, Fraction]:
    """What ``bet`` pays on the full record ``coup``: its pay lines (first match) or its payout
    function, called on the record itself (no projection).  A payout function's event is its
    event function's label, or ``None`` (the engine derives a label from the pay)."""
    if bet.payout_function is not None:
        pays = Fraction(bet.payout_function(coup))
        return (bet.event_function(coup) if bet.event_function else None), pays
    for line in bet.lines:
        if line.when(coup):
            return line.event, line.pays
    return bet.otherwise_event, bet.otherwise


def brute_events(bet: Bet, brute: BruteForce) -> dict[tuple[str | None, Fraction], int]:
    """The bet's events and their counts over the brute force (the run-out event as the engine
    reports it: a void, paying 0), zero counts left out."""
    out: Counter[tuple[str | None, Fraction]] = Counter()
    for coup, n in brute.coups:
        out[settle_full(bet, coup)] += n
    if brute.run_out:
        out[(RUN_OUT, Fraction(0))] += brute.run_out
    return {k: v for k, v in out.items() if v}


def engine_events(bet: Bet, summary: object) -> dict[tuple[str | None, Fraction], int]:
    """A :class:`~analyzer.engine.pricing.BetSummary`'s events in the form of
    :func:`brute_events` (labels of a payout function without event function dropped)."""
    out: Counter[tuple[str | None, Fraction]] = Counter()
    anonymous = bet.payout_function is not None and bet.event_function is None
    for row in summary.events:  # type: ignore[attr-defined]
        label = None if anonymous and row.event != RUN_OUT else row.event
        out[(label, row.pays)] += row.count
    return {k: v for k, v in out.items() if v}
