"""The weight algebra's vectorised plan (analyzer.engine.algebra.VectorPlan): its shortcuts --
factors of one subterm taken as they are, compositions of equal runs of terms summed by a
reshape -- give the same int64 weights as the segment sums (``np.add.reduceat``) they replace,
on suited depleted shoes, one at a time and many at once."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bets.catalogue import find_bet
from analyzer.bets.files import parse_bets
from analyzer.core.tableau import STANDARD
from analyzer.engine.algebra import VectorPlan, pool_sizes_many
from analyzer.engine.lookup import bet_table

#: A suit-reading bet of a file: four terms (one a suit) for each of its compositions.
FLUSH = """[[bet]]
name = "banker-three-card-flush"
[[bet.pay]]
event = "Banker's three cards of one suit"
when = { banker_hand = { size = 3, flush = true } }
pays = 30
"""


def _bet(name):
    return parse_bets(FLUSH, "flush.toml")[0] if name == "flush" else find_bet(name)


def _shoes(seed: int) -> np.ndarray:
    """Card counts (shoes, 52) of 1-, 6- and 8-deck shoes with random cards dealt: suits unlike,
    some rank of some suit gone."""
    rng = np.random.default_rng(seed)
    out = []
    for decks in (1, 6, 8, 8, 1):
        full = np.repeat(np.arange(52), decks)
        keep = int(rng.integers(6, len(full) + 1))
        out.append(np.bincount(rng.permutation(full)[:keep], minlength=52))
    return np.asarray(out, dtype=np.int64)


CASES = [("flush", 4), ("super-tie", 2), ("perfect-9-bonus", 4), ("royal-match", 0), ("either-pair", 1)]


@pytest.mark.parametrize(("name", "run"), CASES)
@pytest.mark.parametrize("suits_alike", [False, True])
@pytest.mark.parametrize("tens_alike", [False, True])
def test_shortcuts_give_the_segment_sums_weights(name, run, suits_alike, tens_alike):
    bet = _bet(name)
    program = bet_table(STANDARD, bet, bet.reads.first_four_only, False).program
    plan = VectorPlan(program, suits_alike, tens_alike)
    if not suits_alike and not tens_alike:
        assert plan.run == run
    cards = _shoes(len(name)).reshape(-1, 13, 4)
    if suits_alike:  # the four suits of each rank alike
        cards = np.repeat(cards.min(axis=2, keepdims=True), 4, axis=2)
    if tens_alike:  # the four ten-valued ranks alike, suit by suit
        cards[:, 9:] = cards[:, 9:].min(axis=1, keepdims=True)
    cards = np.ascontiguousarray(cards.reshape(-1, 52))
    ranks = cards.reshape(-1, 13, 4).sum(axis=2)
    pools = pool_sizes_many(ranks, cards)
    sizes = [int(x) for x in cards.sum(axis=1)]
    fast = plan.weights_many(pools, sizes)
    one = plan.weights_many(np.ascontiguousarray(pools[:, 1]), sizes[1:2])
    plan.run, plan.fac_same, plan.fac_single = 0, False, False  # the segment sums throughout
    slow = plan.weights_many(pools, sizes)
    assert fast.dtype == slow.dtype == np.int64
    assert np.array_equal(fast, slow) and np.array_equal(one, slow[:, 1])
    assert slow.any()  # weights to compare


def test_the_shortcuts_are_taken():
    # each branch of the factors' shortcuts is met by some program above
    seen = set()
    for name, _ in CASES:
        bet = _bet(name)
        program = bet_table(STANDARD, bet, bet.reads.first_four_only, False).program
        for suits_alike in (False, True):
            for tens_alike in (False, True):
                plan = VectorPlan(program, suits_alike, tens_alike)
                runs = plan.run > 1 and not plan.one_term_each
                seen.add((plan.fac_same, plan.fac_single, plan.fac_scaled, runs))
    assert {(True, True, False), (False, True, True), (False, False, False)} <= {s[:3] for s in seen}
    assert any(s[3] for s in seen)


def test_the_pictures_pool_holds_the_jacks_queens_and_kings_on_every_path():
    # the pool a picture read draws from (J, Q, K; not the tens), sized alike with card counts
    # and from rank counts alone, one shoe and many, scalar and vectorised
    from analyzer.engine.algebra import PICTURE_POOL, POOLS, ShoeCounts, pool_members, pool_sizes_vector

    assert POOLS[PICTURE_POOL] == ("p", 0, -1)
    assert len(POOLS) - 1 == PICTURE_POOL  # appended: every pool before it keeps its index
    assert sorted(pool_members(POOLS[PICTURE_POOL])) == list(range(40, 52))
    cards = _shoes(7)
    ranks = cards.reshape(-1, 13, 4).sum(axis=2)
    want = ranks[:, 10:13].sum(axis=1)
    assert not np.array_equal(want, ranks[:, 9:13].sum(axis=1))  # tens dealt: the pools differ
    for got in (pool_sizes_many(ranks, cards), pool_sizes_many(ranks, None)):
        assert np.array_equal(got[PICTURE_POOL], want)
    for r, c, n in zip(ranks.tolist(), cards.tolist(), want.tolist(), strict=True):
        for counts in (ShoeCounts.of(r, c), ShoeCounts.of(r, None)):
            assert counts.pool_size(PICTURE_POOL) == n
            assert int(pool_sizes_vector(counts)[PICTURE_POOL]) == n
