"""Bulk evaluation and the fast scalar path: exact, equal to the reference evaluation bit for bit."""

import random
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Bet, Pricer, Shoe, catalogue_bets, find_bet, main_bets, price
from analyzer.core.features import Level
from analyzer.engine.kernel import PRIMES, batch_ev, crt, pair_only, primes_for, table_counts, table_for
from analyzer.engine.pricing import summarize
from analyzer.engine.walk import (
    CACHE_ENV,
    _load_cached,
    _save_cached,
    _walk,
    compile_pair_table,
    compile_table,
    evaluate,
)
from analyzer.errors import BetError, ShoeError


def _random_shoe(rng, decks=8, removed=200, suits=False):
    counts = [decks] * 52
    for _ in range(removed):
        i = rng.randrange(52)
        if counts[i]:
            counts[i] -= 1
    shoe = Shoe.from_suited_counts(counts)
    return shoe if suits else Shoe(shoe.counts)


def test_primes_are_distinct_primes_below_2_31():
    assert len(set(PRIMES)) == len(PRIMES)
    assert all(sympy.isprime(p) and p < 2**31 for p in PRIMES)


def test_primes_for_covers_twice_the_bound():
    for bound in (0, 1, 2**40, 2**61, 2**62, 2**100):
        ps = primes_for(bound)
        m = 1
        for p in ps:
            m *= p
        assert m > 2 * bound + 1
        assert len(ps) == 1 or m // ps[-1] <= 2 * bound + 1  # the fewest


@given(st.lists(st.integers(-(2**120), 2**120), min_size=1, max_size=20))
@settings(max_examples=50, deadline=None)
def test_crt_rebuilds_signed_integers(values):
    primes = primes_for(2**120)
    res = [np.asarray([v % p for v in values], dtype=np.int64) for p in primes]
    assert [int(x) for x in crt(res, primes, signed=True)] == values


@pytest.mark.parametrize("level", list(Level))
def test_fast_counts_equal_the_reference(level):
    rng = random.Random(level)
    table = compile_table(level, False)
    shoes = [Shoe.standard(1), Shoe.standard(8), _random_shoe(rng, 8, 150, suits=True),
             _random_shoe(rng, 1, 40, suits=True), Shoe.standard(10_000),
             Shoe.from_suited_counts([rng.randrange(0, 3) for _ in range(52)] )]
    for shoe in shoes:
        if shoe.size < 4:
            continue
        assert table_counts(table, shoe) == evaluate(table, shoe), shoe.describe()


@given(st.lists(st.integers(0, 10**7), min_size=13, max_size=13).filter(lambda c: sum(c) >= 4))
@settings(max_examples=40, deadline=None)
def test_fast_counts_equal_the_reference_on_any_shoe(counts):
    # small, large and huge counts: int64 path below 2**63, residues + CRT above
    table = compile_table(Level.VALUE, False)
    shoe = Shoe(tuple(counts))
    assert table_counts(table, shoe) == evaluate(table, shoe)


@pytest.mark.parametrize("level", [Level.RANK, Level.CARD])
def test_pair_table_is_the_full_tables_marginal(level):
    rng = random.Random(7)
    full, pairs = compile_table(level, False), compile_pair_table(level)
    for shoe in (Shoe.standard(2), _random_shoe(rng, 4, 100, suits=True), Shoe.parse("As=2,Ah=1,Kd=3,Ks=1")):
        counts, denom = evaluate(full, shoe)
        marginal: dict[tuple, int] = {}
        for f, c in zip(full.features, counts, strict=False):
            marginal[f[6:]] = marginal.get(f[6:], 0) + c
        pc, pd = evaluate(pairs, shoe)
        assert pd == denom
        assert {f[6:]: c for f, c in zip(pairs.features, pc, strict=False)} == marginal


def test_pair_only_detection():
    assert pair_only(find_bet("player-pair")) and pair_only(find_bet("perfect-pair:2"))
    assert not pair_only(find_bet("dragon-7"))  # value level
    mixed = Bet.from_function("pair-and-tie", lambda f: 5 if f.player_pair and f.winner.name == "TIE" else -1,
                              level=Level.RANK)
    assert not pair_only(mixed)


def test_pricer_on_the_pair_table_equals_the_full_table():
    rng = random.Random(3)
    bets = [b for b in catalogue_bets() if b.level > Level.VALUE]
    for shoe in (Shoe.standard(8), Shoe.standard(1), _random_shoe(rng, 6, 120, suits=True)):
        fast = Pricer(shoe).summaries(bets)
        slow = [summarize(b, Pricer(shoe).distribution(b.level, b.thirds)) for b in bets]
        assert fast == slow


def _check_batch(shoes, bets):
    result = batch_ev(shoes, bets)
    for i, shoe in enumerate(shoes):
        for j, bet in enumerate(bets):
            assert result.ev(i, j) == price(bet, shoe).ev, (shoe.describe(), bet.name)
    return result


def test_batch_equals_scalar_on_depleted_8_deck_shoes():
    rng = random.Random(11)
    shoes = [_random_shoe(rng, 8, rng.randrange(0, 380), suits=True) for _ in range(12)]
    _check_batch(shoes, catalogue_bets())


def test_batch_equals_scalar_on_small_and_short_shoes():
    rng = random.Random(5)
    shoes = [Shoe.parse("8=2,K=3"), Shoe.parse("A=4"), Shoe.parse("A=6"), Shoe.parse("9=2,K=5"),
             *(_random_shoe(rng, 1, rng.randrange(30, 46), suits=True) for _ in range(6))]
    _check_batch([s for s in shoes if s.suited is None], [*main_bets(), find_bet("player-pair")])
    _check_batch([s for s in shoes if s.suited is not None], catalogue_bets())


def test_batch_equals_scalar_on_huge_shoes():
    rng = random.Random(9)
    shoes = [Shoe.standard(10_000), Shoe(tuple(rng.randrange(10**5, 10**6) for _ in range(13))),
             Shoe(tuple(rng.randrange(0, 10**9) for _ in range(13)))]
    _check_batch(shoes, [b for b in catalogue_bets() if b.level < Level.CARD])


@given(st.lists(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 4),
                min_size=1, max_size=6),
       st.sampled_from([None, 1, 2, 5]))
@settings(max_examples=25, deadline=None)
def test_batch_equals_scalar_on_random_shoes(rows, chunk):
    bets = [*main_bets(), find_bet("either-pair"), find_bet("dragon-bonus-player"), find_bet("egalite:5")]
    result = batch_ev(rows, bets, chunk=chunk)
    for i, row in enumerate(rows):
        shoe = Shoe(tuple(row))
        assert [result.ev(i, j) for j in range(len(bets))] == [price(b, shoe).ev for b in bets]


def test_batch_takes_arrays_and_big_pays_stay_exact():
    counts = np.array([[32] * 13, [31] + [32] * 12, [32] * 9 + [0] * 4])
    giant = find_bet("tie").with_pay(Fraction(10**30, 7))  # beyond int64: Python ints per shoe
    large = find_bet("tie").with_pay(Fraction(2**34 + 1, 3))  # fails the float64 bound: same path
    bets = [*main_bets(), giant, large]
    result = batch_ev(counts, bets)
    for i, row in enumerate(counts):
        shoe = Shoe(tuple(int(x) for x in row))
        assert [result.ev(i, j) for j in range(len(bets))] == [price(b, shoe).ev for b in bets]
    assert result.evs().shape == (3, len(bets))


@pytest.mark.parametrize(
    ("shoes", "bets", "error"),
    [
        ([[32] * 12], main_bets(), ShoeError),
        ([[-1] + [32] * 12], main_bets(), ShoeError),
        ([[1, 1, 1] + [0] * 10], main_bets(), ShoeError),
        ([[0.5] * 13], main_bets(), ShoeError),
        ([[32] * 13], [find_bet("perfect-pair")], BetError),
    ],
)
def test_batch_rejects_bad_input(shoes, bets, error):
    with pytest.raises(error):
        batch_ev(shoes, bets)


def test_table_for_routes_pair_bets_to_the_small_table():
    assert table_for(find_bet("banker-pair"), 416) is compile_pair_table(Level.RANK)
    assert table_for(find_bet("banker-pair"), 5) is compile_table(Level.RANK, False)
    assert table_for(find_bet("banker"), 416) is compile_table(Level.VALUE, False)


def test_disk_cache_round_trips_and_survives_bad_folders(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    table = _walk(Level.VALUE)
    _save_cached(table)
    assert list((tmp_path / "cache").glob("table-value-*.marshal"))
    assert _load_cached(Level.VALUE) == table
    # a corrupt file is ignored (and recompiled by compile_table)
    for f in (tmp_path / "cache").glob("*.marshal"):
        f.write_bytes(b"not a table")
    assert _load_cached(Level.VALUE) is None
    # an unusable folder (a file in its place) is not an error
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "sub"))
    _save_cached(table)
    assert _load_cached(Level.VALUE) is None
    monkeypatch.setenv(CACHE_ENV, "off")
    assert _load_cached(Level.VALUE) is None
