"""The baseline: a straightforward recursive enumeration of the dealing tree, shoe by shoe.

No compile step, no grouping by composition: it walks every dealt sequence of point values,
multiplying the counts of the cards as they leave the shoe, and pads coups that end after 4 or
5 cards to the 6-card universe.  Exact (Python integers), independent of the engine, and slow:
it is what the compiled table is measured against (``bench_targets.py`` prints the ratio).
"""

from __future__ import annotations

from analyzer.core.tableau import STANDARD

NATURALS = STANDARD.naturals
banker_draws = STANDARD.banker_draws
player_draws = STANDARD.player_draws


def _falling(x: int, m: int) -> int:
    out = 1
    for i in range(m):
        out *= x - i
    return out if x >= m else 0


def recursive_counts(points: list[int]) -> tuple[int, int, int, int]:
    """(Banker wins, Player wins, Ties, N!/(N-6)!) counted over ordered 6-card sequences, for a
    shoe given as its 10 counts per point value (index 0 = 10/J/Q/K).  Needs N >= 6."""
    counts = list(points)
    n = sum(counts)
    out = [0, 0, 0]

    def settle(p: int, b: int, used: int, weight: int) -> None:
        w = weight * _falling(n - used, 6 - used)
        out[0 if b > p else 1 if p > b else 2] += w

    def banker_third(p: int, b2: int, p3: int | None, used: int, weight: int) -> None:
        if not banker_draws(b2, p3):
            settle(p, b2, used, weight)
            return
        for v in range(10):
            c = counts[v]
            if c:
                counts[v] -= 1
                settle(p, (b2 + v) % 10, used + 1, weight * c)
                counts[v] += 1

    def deal(cards: list[int], weight: int) -> None:
        if len(cards) < 4:
            for v in range(10):
                c = counts[v]
                if c:
                    counts[v] -= 1
                    deal([*cards, v], weight * c)
                    counts[v] += 1
            return
        p2 = (cards[0] + cards[2]) % 10
        b2 = (cards[1] + cards[3]) % 10
        if p2 in NATURALS or b2 in NATURALS:
            settle(p2, b2, 4, weight)
        elif player_draws(p2):
            for v in range(10):
                c = counts[v]
                if c:
                    counts[v] -= 1
                    banker_third((p2 + v) % 10, b2, v, 5, weight * c)
                    counts[v] += 1
        else:
            banker_third(p2, b2, None, 4, weight)

    deal([], 1)
    return out[0], out[1], out[2], _falling(n, 6)
