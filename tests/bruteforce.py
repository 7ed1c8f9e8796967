"""An independent, slow reference: deal every ordered sequence of *physical* cards.

It shares nothing with the enumerator but ``resolve`` (whose tableau is itself checked against
RULES.md in test_rules.py): it draws distinct physical cards one at a time and asks ``resolve``
whether the coup is finished, so every count is a count of real card orders.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable

from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import Coup, CoupError, resolve
from analyzer.core.shoe import Shoe


def physical_cards(shoe: Shoe) -> list[Card]:
    """One Card object per physical card (suits included when the shoe knows them)."""
    cards: list[Card] = []
    if shoe.suited is not None:
        for i, n in enumerate(shoe.suited):
            cards += [Card(RANKS[i // 4], SUITS[i % 4])] * n
    else:
        for r, n in zip(RANKS, shoe.counts, strict=True):
            cards += [Card(r)] * n
    return cards


def brute_force(shoe: Shoe, key: Callable[[Coup], Hashable]) -> tuple[Counter[Hashable], int]:
    """Counts of ``key(coup)`` over ordered K-card sequences (K = min(N, 6)) and the number of
    such sequences; a coup finished after k < K cards stands for (N-k)!/(N-K)! sequences.
    Sequences that run out of cards are counted under the key ``"run out"``."""
    cards = physical_cards(shoe)
    n = len(cards)
    kmax = min(n, 6)
    counts: Counter[Hashable] = Counter()

    def pad(k: int) -> int:
        out = 1
        for i in range(kmax - k):
            out *= n - k - i
        return out

    def walk(seq: list[Card], used: list[bool]) -> None:
        if len(seq) >= 4:
            try:
                coup = resolve(seq)
            except CoupError:
                coup = None
            if coup is not None:
                counts[key(coup)] += pad(len(seq))
                return
            if len(seq) == n:
                counts["run out"] += pad(len(seq))
                return
        for i, card in enumerate(cards):
            if not used[i]:
                used[i] = True
                seq.append(card)
                walk(seq, used)
                seq.pop()
                used[i] = False

    walk([], [False] * n)
    total = 1
    for i in range(kmax):
        total *= n - i
    return counts, total
