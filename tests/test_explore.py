"""The explorer's records (``analyzer.engine.explore``): every catalogue bet settles a coup
identically through the engine, verify and the oracle.

The engine prices a bet from the records it explores, each a coup as the bet's reads see it,
with the labels it reads fixed; verify and the oracle
(``analyzer.testing``) settle the full record of a dealt coup.  On random suited coups of an
8-deck shoe, for every catalogue bet: the record the engine builds for the coup, every label
fixed as its cards have them, settles like the full record (the brute force in
test_bruteforce.py ties the engine's counts to the same settlement on small shoes, which checks
that the labels left pending were never needed); verify accepts exactly that payout and rejects
it off by one unit; the oracle returns it.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from bruteforce import settle_full

from analyzer import catalogue_bets
from analyzer.checks.handlog import ClaimedBet, Record
from analyzer.checks.oracle import assert_payout
from analyzer.checks.verify import Verifier
from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import dealing_order, resolve
from analyzer.engine.explore import Budget, Explorer

CATALOGUE = catalogue_bets()
COUPS = 40


def random_coups(seed: int, count: int) -> list[list[Card]]:
    """``count`` six-card sequences dealt from shuffled 8-deck shoes (a coup uses 4 to 6)."""
    rng = random.Random(seed)
    shoe = [Card(r, s) for r in RANKS for s in SUITS] * 8
    return [rng.sample(shoe, 6) for _ in range(count)]


SEQUENCES = random_coups(2026, COUPS)


@pytest.mark.parametrize("bet", CATALOGUE, ids=[b.name for b in CATALOGUE])
def test_engine_verify_and_oracle_settle_alike(bet):
    explorer = Explorer(bet.reads, bet.settle, Budget(10**6, bet.name))
    verifier = Verifier()
    for number, cards in enumerate(SEQUENCES, 1):
        coup = resolve(cards)
        event, pays = settle_full(bet, coup)
        settled = bet.settle(explorer.record_of(coup))
        assert settled[1] == pays and event in (None, settled[0]), (
            f"{bet.name}: the engine's record settles otherwise on {coup}"
        )
        order = tuple(dealing_order(coup))
        right = Record(number, number, cards=order, bets=(ClaimedBet(bet.name, bet, Fraction(1), pays),))
        assert not verifier.check(right), f"{bet.name}: verify rejects the right payout {pays} on {coup}"
        wrong = Record(number, number, cards=order, bets=(ClaimedBet(bet.name, bet, Fraction(1), pays + 1),))
        assert verifier.check(wrong), f"{bet.name}: verify accepts a payout one unit off on {coup}"
        assert assert_payout(bet, list(order), 1, pays) == pays
