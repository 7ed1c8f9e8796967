"""Many shoes at once (``analyzer.engine.batch``) and the pricing policy: exact, equal bit for bit
to pricing each shoe alone, for depleted, short, huge and giant shoes; which table prices what."""

import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from featurebets import quick_to_compile
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Bet, Pricer, Reads, Shoe, batch_ev, catalogue_bets, find_bet, main_bets, price
from analyzer.core.coup import BANKER_FIRST_TWO, PLAYER_FIRST_TWO
from analyzer.core.tableau import BANKER_STANDS_ON_6, STANDARD
from analyzer.engine import native
from analyzer.engine.algebra import pool_sizes_many
from analyzer.engine.evaluate import record_counts
from analyzer.engine.lookup import compile_table
from analyzer.engine.pricing import summarize, table_for, table_reads
from analyzer.errors import AnalyzerError, BetError, ShoeError

CATALOGUE = catalogue_bets()
UNSUITED = [b for b in CATALOGUE if not b.reads.needs_suits]


def quick(bets, size):
    return [b for b in bets if quick_to_compile(b, size)]


def _random_shoe(rng, decks=8, removed=200, suits=False):
    counts = [decks] * 52
    for _ in range(removed):
        i = rng.randrange(52)
        if counts[i]:
            counts[i] -= 1
    shoe = Shoe.from_suited_counts(counts)
    return shoe if suits else Shoe(shoe.counts)


def _check_batch(shoes, bets, **kwargs):
    result = batch_ev(shoes, bets, **kwargs)
    for i, shoe in enumerate(shoes):
        for j, bet in enumerate(bets):
            expected = price(bet, shoe, kwargs.get("tableau", STANDARD)).ev
            assert result.ev(i, j) == expected, (shoe.describe(), bet.name)
    return result


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_batch_equals_pricing_each_depleted_8_deck_shoe(full):
    rng = random.Random(11)
    shoes = [_random_shoe(rng, 8, rng.randrange(0, 380), suits=True) for _ in range(8 if full else 3)]
    _check_batch(shoes, CATALOGUE if full else quick(CATALOGUE, 36))


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_batch_equals_pricing_each_small_and_short_shoe(full):
    rng = random.Random(5)
    unsuited = [Shoe.parse("8=2,K=3"), Shoe.parse("A=4"), Shoe.parse("A=6"), Shoe.parse("9=2,K=5"),
                Shoe.parse("A=3,8=1,5=1")]
    suited = [Shoe.parse("Kh=2,Qd=1,8h=1,5c=1"), Shoe.parse("Kh=2,Ks=1,Qd=1,8h=2,8d=1,5c=2,9s=1"),
              *(_random_shoe(rng, 1, rng.randrange(30, 46), suits=True) for _ in range(4))]
    _check_batch(unsuited, [*main_bets(), find_bet("player-pair"), find_bet("dragon-bonus-player")])
    _check_batch(suited, CATALOGUE if full else quick(CATALOGUE, 5))


def test_batch_under_a_variant_tableau():
    rng = random.Random(8)
    shoes = [_random_shoe(rng, 2, rng.randrange(0, 90)) for _ in range(4)] + [Shoe.parse("8=2,K=3")]
    _check_batch(shoes, UNSUITED[:10], tableau=BANKER_STANDS_ON_6)


def test_batch_equals_pricing_each_huge_shoe():
    rng = random.Random(9)
    shoes = [Shoe.standard(10_000), Shoe(tuple(rng.randrange(10**5, 10**6) for _ in range(13))),
             Shoe(tuple(rng.randrange(0, 10**9) for _ in range(13)))]
    _check_batch(shoes, quick(UNSUITED, 416)[::3])


@pytest.mark.parametrize("count", [2**62, 10**18, 2**62 - 1, 2**63, 10**30],
                         ids=["2**62", "10**18", "2**62-1", "2**63", "10**30"])
def test_giant_shoes_are_exact_never_int64_overflow(count):
    # Issue 9 item 4: counts whose sums do not fit int64 must be priced exactly (Python integers)
    # or refused clearly; never wrapped around.
    bets = [*main_bets(), find_bet("egalite:5"), find_bet("player-pair")]
    giant = Shoe((count,) * 13)
    expected = [price(b, giant).ev for b in bets]
    small = Shoe.standard(8)
    for given_as in ([[count] * 13, list(small.counts)], [giant, small]):
        result = batch_ev(given_as, bets)
        assert [result.ev(0, j) for j in range(len(bets))] == expected
        assert [result.ev(1, j) for j in range(len(bets))] == [price(b, small).ev for b in bets]
        assert result.denominators[0] == price(bets[0], giant).denominator


@pytest.mark.parametrize("count", [2**62, 10**18])
def test_giant_suited_shoes_are_exact(count):
    bets = [find_bet("perfect-pair"), find_bet("banker")]
    giant = Shoe.from_suited_counts([count] * 52)
    result = batch_ev([giant], bets)
    assert [result.ev(0, j) for j in range(len(bets))] == [price(b, giant).ev for b in bets]
    result = batch_ev([[count] * 52], bets)
    assert [result.ev(0, j) for j in range(len(bets))] == [price(b, giant).ev for b in bets]


def test_giant_numpy_arrays_are_exact_or_refused():
    bets = main_bets()
    for arr in (np.full((1, 13), 2**62, dtype=np.int64), np.full((1, 13), 10**18, dtype=np.int64),
                np.full((1, 13), 2**63, dtype=np.uint64)):
        giant = Shoe(tuple(int(x) for x in arr[0]))
        try:
            result = batch_ev(arr, bets)
        except ShoeError as exc:  # a refusal must say why, not blame a negative shoe
            assert "cannot deal" not in str(exc) and ">= 0" not in str(exc)
            continue
        assert [result.ev(0, j) for j in range(len(bets))] == [price(b, giant).ev for b in bets]


@given(st.lists(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 4),
                min_size=1, max_size=6),
       st.sampled_from([None, 1, 2, 5]))
@settings(max_examples=12, deadline=None)
def test_batch_equals_pricing_each_random_shoe(rows, chunk):
    bets = [*main_bets(), find_bet("either-pair"), find_bet("dragon-bonus-player"), find_bet("egalite:5")]
    result = batch_ev(rows, bets, chunk=chunk)
    for i, row in enumerate(rows):
        shoe = Shoe(tuple(row))
        assert [result.ev(i, j) for j in range(len(bets))] == [price(b, shoe).ev for b in bets]


def test_batch_takes_arrays_and_big_pays_stay_exact():
    counts = np.array([[32] * 13, [31] + [32] * 12, [32] * 9 + [0] * 4])
    giant = find_bet("tie").with_pay(Fraction(10**30, 7))  # beyond int64: Python ints per shoe
    large = find_bet("tie").with_pay(Fraction(2**34 + 1, 3))
    bets = [*main_bets(), giant, large]
    result = batch_ev(counts, bets)
    for i, row in enumerate(counts):
        shoe = Shoe(tuple(int(x) for x in row))
        assert [result.ev(i, j) for j in range(len(bets))] == [price(b, shoe).ev for b in bets]
    assert result.evs().shape == (3, len(bets))
    assert result.evs()[1, 0] == result.ev(1, 0)
    one = batch_ev(Shoe.standard(8), bets)  # one shoe, not in a list
    assert one.ev(0, 0) == price(bets[0], Shoe.standard(8)).ev


def test_batch_of_function_and_file_style_bets():
    rng = random.Random(4)
    shoes = [_random_shoe(rng, 1, rng.randrange(0, 40), suits=True) for _ in range(3)]
    bets = [
        Bet.from_function("banker-7", lambda c: 3 if c.banker_total == 7 else -1,
                          reads=Reads.of(["banker_total"])),
        Bet.from_function("suited-p", lambda c: 4 if c.cards(PLAYER_FIRST_TWO).suited else -1,
                          reads=Reads.of([], [PLAYER_FIRST_TWO], suits="suit-equality")),
        find_bet("tie+banker"),
    ]
    _check_batch(shoes, bets)


@pytest.mark.parametrize(
    ("shoes", "bets", "error"),
    [
        ([[32] * 12], main_bets(), ShoeError),
        ([[-1] + [32] * 12], main_bets(), ShoeError),
        ([[1, 1, 1] + [0] * 10], main_bets(), ShoeError),
        ([[0.5] * 13], main_bets(), ShoeError),
        ([["a"] * 13], main_bets(), ShoeError),
        ([[True] * 13], main_bets(), ShoeError),
        ([[32] * 13], [find_bet("perfect-pair")], BetError),
        ([[32] * 13], ["banker"], BetError),
        ([[32] * 13], 5, BetError),
    ],
)
def test_batch_rejects_bad_input(shoes, bets, error):
    with pytest.raises(error):
        batch_ev(shoes, bets)


def test_batch_rejects_bad_chunks_and_indices():
    for chunk in (0, -1, 1.5, True):
        with pytest.raises(BetError, match="chunk"):
            batch_ev([[32] * 13], main_bets(), chunk=chunk)
    result = batch_ev([[32] * 13], main_bets())
    for shoe, bet in ((1, 0), (0, 3), (-1, 0), (True, 0)):
        with pytest.raises(BetError, match="index"):
            result.ev(shoe, bet)


# -- the pricing policy ------------------------------------------------------------------------------


def test_table_reads_groups_bets_by_what_they_read():
    bets = [find_bet("banker"), find_bet("dragon-bonus-player"), find_bet("player-pair"),
            find_bet("perfect-pair"),
            Bet.from_function("p3", lambda c: 1 if c.card(4) is not None else -1, reads=Reads.of([], [{4}]))]
    groups = table_reads([b.reads for b in bets], 416)
    members = [m for _, m in groups]
    assert members == [[0, 1], [2, 3], [4]]  # values / first four / the rest
    union = groups[1][0]
    assert union.covers(bets[2].reads) and union.covers(bets[3].reads)
    # on a shoe under 6 cards the first-four bets are no longer grouped by the first four
    short = [m for _, m in table_reads([b.reads for b in bets], 5)]
    assert [0, 1] in short and [4] in short


def test_table_for_routes_first_four_bets_to_the_first_four_table():
    pair = find_bet("banker-pair").reads
    assert table_for(pair, 416) is compile_table(STANDARD, pair, True)
    assert table_for(pair, 6) is compile_table(STANDARD, pair, True)
    assert table_for(pair, 5) is compile_table(STANDARD, pair, False)
    banker = find_bet("banker").reads
    assert table_for(banker, 416) is compile_table(STANDARD, banker, False)
    assert table_for(banker, 416, BANKER_STANDS_ON_6) is not table_for(banker, 416)
    with pytest.raises(ValueError):
        compile_table(STANDARD, banker, True)  # a first-four table for a bet that reads outcomes


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_first_four_pricing_equals_the_full_walk(full):
    rng = random.Random(3)
    bets = [b for b in CATALOGUE
            if b.reads.sets and b.reads.first_four_only and (full or quick_to_compile(b, 5))]
    assert bets
    for shoe in (Shoe.standard(8), Shoe.standard(1), _random_shoe(rng, 6, 120, suits=True)):
        fast = Pricer(shoe).summaries(bets)
        for bet, summary in zip(bets, fast, strict=True):
            table = compile_table(STANDARD, bet.reads, False)
            counts, d = record_counts(table, shoe)
            by_event: dict = {}
            for record, n in zip(table.records, counts, strict=True):
                key = bet.settle(record)
                by_event[key] = by_event.get(key, 0) + n
            slow = summarize(bet, [(e, p, n) for (e, p), n in by_event.items()], d)
            assert (summary.ev, summary.variance, summary.hit_frequency) == (slow.ev, slow.variance,
                                                                            slow.hit_frequency), bet.name


@pytest.mark.slow
def test_pricing_together_equals_pricing_alone():
    rng = random.Random(12)
    shoe = _random_shoe(rng, 2, 40, suits=True)
    together = Pricer(shoe).summaries(CATALOGUE)
    assert together == [price(b, shoe) for b in CATALOGUE]


def test_either_pair_is_player_pair_or_banker_pair():
    bets = [find_bet("either-pair"), Bet.from_function(
        "both", lambda c: 1 if c.player_pair and c.banker_pair else -1,
        reads=Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], "equality"))]
    s = Pricer(Shoe.standard(8)).summaries([*bets, find_bet("player-pair"), find_bet("banker-pair")])
    either, both, player, banker = (x.hit_frequency for x in s)
    assert either == player + banker - both  # inclusion-exclusion, exactly


def test_batch_handles_giant_shoes_exactly_and_rejects_non_counts():
    import numpy as np

    from analyzer import price
    from analyzer.engine.batch import batch_ev

    banker = find_bet("banker")
    giant = Shoe.standard(10**25)  # beyond the vectorised kernels: exact Python integers
    result = batch_ev([giant, Shoe.standard(8)], [banker])
    assert result.ev(0, 0) == price(banker, giant).ev
    assert result.ev(1, 0) == price(banker, Shoe.standard(8)).ev
    for bad in (np.ones((1, 13), dtype=bool), np.ones((1, 13)) * 1j, np.array([["4"] * 13])):
        with pytest.raises(AnalyzerError):
            batch_ev(bad, [banker])
    with pytest.raises(AnalyzerError, match="index"):
        result.ev(2, 0)


@pytest.mark.parametrize("name", ["jackpot-baccarat", "super-tie", "all-red", "lucky-nines"])
def test_terms_as_products_of_shared_halves_equal_the_plain_products(name):
    """The catalogue's larger programs (three to six factors a term) multiply each term's
    factors as two halves shared by many terms (``VectorPlan.halves``): the weights equal the
    plain product of every factor, on suited depleted shoes, one at a time and many at once."""
    from analyzer.engine.algebra import VectorPlan
    from analyzer.engine.lookup import bet_table

    bet = find_bet(name)
    plan = VectorPlan(bet_table(STANDARD, bet, bet.reads.first_four_only, False).program, False, False)
    assert plan.halves is not None
    rng = random.Random(name)
    shoes = [_random_shoe(rng, rng.choice((1, 6, 8)), rng.randrange(0, 40), suits=True) for _ in range(5)]
    cards = np.asarray([s.suited for s in shoes], dtype=np.int64)
    ranks = np.asarray([s.counts for s in shoes], dtype=np.int64)
    pools = pool_sizes_many(ranks, cards)
    sizes = [s.size for s in shoes]
    halves = plan.weights_many(pools, sizes)
    one = plan.weights_many(np.ascontiguousarray(pools[:, 0]), sizes[:1])
    plan.halves = None
    plain = plan.weights_many(pools, sizes)
    assert np.array_equal(halves, plain) and np.array_equal(one, plain[:, 0])
    assert plain.any()  # the shoes can deal what the bet reads: weights to compare


def test_label_parts_read_whole_equal_pricing_each_shoe():
    """Bets whose label rows are read whole (pairs, suits of the first four, every card's colour)
    are counted by the cards of their rows (``labels._ByCards``: the padding multiplies the
    class sums): 4-card rows only, 6-card rows only, and 4, 5 and 6 together, on suited shoes
    of 1, 6 and 8 decks; equal to pricing each shoe alone."""
    rng = random.Random(19)
    shoes = [_random_shoe(rng, decks, rng.randrange(0, 30), suits=True) for decks in (1, 6, 8)]
    names = ("either-pair", "perfect-pair", "super-tie", "lucky-match", "all-red", "royal-9")
    bets = [find_bet(n) for n in names]
    _check_batch(shoes, bets)
    _check_batch(shoes, bets, chunk=2)


# -- BLAS threads ------------------------------------------------------------------------------------


def _blas_threads():
    from analyzer.engine.batch import _controller

    return [p["num_threads"] for p in _controller().info() if p["user_api"] == "blas"]


def test_a_batch_runs_on_one_blas_thread_and_restores_the_threads(monkeypatch):
    """Small products spin BLAS threads (issue 30): inside a batch every BLAS library uses one
    thread, whatever it had; afterwards it has its threads back."""
    from threadpoolctl import threadpool_limits

    from analyzer.engine import batch

    seen = []
    counts = batch._BetsPlan.counts

    def watched(self, *args):
        seen.append(_blas_threads())
        return counts(self, *args)

    monkeypatch.setattr(batch._BetsPlan, "counts", watched)
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        if not before or max(before) < 2:
            pytest.skip("this BLAS cannot run two threads here")
        result = batch_ev([[32] * 13, [31] + [32] * 12], main_bets())
        assert seen and all(threads == [1] * len(before) for threads in seen)
        assert _blas_threads() == before
    assert result.ev(1, 0) == price(main_bets()[0], Shoe.standard(8).remove("A")).ev


def test_a_blas_library_loaded_after_a_first_batch_gets_one_thread_too():
    # scipy brings its own BLAS: loaded after a first batch (a fresh process, so that it is),
    # a later batch must still find it and limit it, whatever libraries the first one saw
    pytest.importorskip("scipy")
    code = (
        "import sys\n"
        "from threadpoolctl import threadpool_info, threadpool_limits\n"
        "from analyzer.engine.batch import one_blas_thread\n"
        "assert 'scipy' not in sys.modules\n"
        "with one_blas_thread():\n"
        "    pass\n"
        "import scipy.linalg\n"
        "with threadpool_limits(limits=2, user_api='blas'):\n"
        "    with one_blas_thread():\n"
        "        print(sorted({p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[1]"


def test_batches_running_at_once_share_one_limit(monkeypatch):
    """Two threads in batches at once: the limit is set once, by the first to start; the first
    to end leaves it in force for the other; the last restores the threads (a fake controller
    records the calls: OpenBLAS itself answers a thread other than the one that set it
    unreliably)."""
    import threading

    from analyzer.engine import batch

    calls = []

    class Limit:
        def restore_original_limits(self):
            calls.append("restore")

    class Controller:
        def limit(self, limits, user_api):
            calls.append(("limit", limits, user_api))
            return Limit()

    monkeypatch.setattr(batch, "_controller", Controller)
    inside, first_left = threading.Event(), threading.Event()

    def second():
        with batch.one_blas_thread():
            inside.set()
            assert first_left.wait(30)
            calls.append("second ends")

    other = threading.Thread(target=second)
    with batch.one_blas_thread():
        other.start()
        assert inside.wait(30)
    calls.append("first ended")
    first_left.set()
    other.join(30)
    assert calls == [("limit", 1, "blas"), "first ended", "second ends", "restore"]
    with batch.one_blas_thread():  # and a later batch limits again
        pass
    assert calls[-2:] == [("limit", 1, "blas"), "restore"]


# -- the compiled kernel ------------------------------------------------------------------------------

needs_kernel = pytest.mark.skipif(
    not native.built(), reason="the compiled kernel is not built (pip install . with a C compiler)"
)

#: Bets of every shape a batch's label parts take, quick to compile: values only; label rows of
#: the first four cards (by rank; by suit, a bet and its variant on one program); rows read
#: whole (by rank; by suit, three variants on two programs; the largest program, every card's
#: colour); rows whose S / D(R) is summed (by rank, by suit).
SHAPES = ("banker", "player", "tie", "egalite:5", "dragon-bonus-player", "player-pair", "banker-pair",
          "royal-match", "royal-match:banker", "either-pair", "tiger-pair", "perfect-pair", "perfect-pair:2",
          "perfect-pair:25/200", "lucky-nines", "all-red", "bellagio-match-player", "lucky-win-player")


def _kinds_of_shoe():
    """Shoes of every kind the batch meets, by name (each a list of suited shoes)."""
    rng = random.Random(30)
    deck = Shoe.standard(1)
    return {
        "8 decks, depleted": [_random_shoe(rng, 8, rng.randrange(0, 380), suits=True) for _ in range(3)],
        "6 decks, depleted evenly (suits alike)": [Shoe.standard(6).remove("Ks Kh Kd Kc 7s 7h 7d 7c")],
        "1 deck, 6 to 12 cards (the fewest the kernel counts)": [
            _random_shoe(rng, 1, 52 - size, suits=True) for size in (6, 7, 9, 12)
        ],
        "4 and 5 cards (coups that run out: priced alone)": [
            Shoe.parse("Kh=2,Qd=1,8h=1"), Shoe.parse("Kh=2,Qd=1,8h=1,5c=1")
        ],
        "458 and 459 cards (the last shoe of the float64 product, the first past it)": [
            Shoe.standard(9).remove("As Ah Ad Ac 2s 2h 2d 2c 3s 3h"),
            Shoe.standard(9).remove("As Ah Ad Ac 2s 2h 2d 2c 3s"),
        ],
        "1,448, 1,449 and 519,997 cards (the last shoe of int64, then huge ones: priced alone)": [
            Shoe.standard(28).remove("As Ah Ad Ac 2s 2h 2d 2c"),
            Shoe.standard(28).remove("As Ah Ad Ac 2s 2h 2d"),
            Shoe.standard(10_000).remove("As 5h Kd"),
        ],
        "a deck's worth, suits unknown": [Shoe(deck.counts), Shoe(Shoe.standard(2).remove("A A K 5").counts)],
    }


@needs_kernel
@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["shapes", "all"])
@pytest.mark.parametrize("kind", list(_kinds_of_shoe()))
def test_the_kernel_and_numpy_batch_alike_and_price_each_shoe(kind, full, kernel, monkeypatch):
    """The batch with the compiled kernel (``on``) equals the batch on the numpy path (``off``),
    numerator for numerator, and pricing each shoe alone on the pure path: the whole catalogue
    (slow lane) or a bet of every shape (fast lane), on every kind of shoe."""
    from analyzer.engine import batch

    shoes = _kinds_of_shoe()[kind]
    suited = all(s.suited is not None for s in shoes)
    bets = CATALOGUE if full else [find_bet(n) for n in SHAPES]
    bets = [b for b in bets if suited or not b.reads.needs_suits]
    ran = []
    by_kernel = batch._BetsPlan._counts_kernel

    def counted(self, *args):
        ran.append(len(args[3]))  # (plan, counts, suited counts, rows, ...)
        return by_kernel(self, *args)

    monkeypatch.setattr(batch._BetsPlan, "_counts_kernel", counted)
    kernel("on")
    compiled = batch_ev(shoes, bets, chunk=3)
    assert sum(ran) == sum(6 <= s.size <= 1448 for s in shoes)  # the kernel counted every shoe it can
    kernel("off")
    reference = batch_ev(shoes, bets, chunk=3)
    assert sum(ran) == sum(6 <= s.size <= 1448 for s in shoes)  # and switched off, none
    assert np.array_equal(compiled.numerators, reference.numerators) and compiled.scales == reference.scales
    for i, shoe in enumerate(shoes):
        evs = [s.ev for s in Pricer(shoe).summaries(bets)]
        assert [compiled.ev(i, j) for j in range(len(bets))] == evs, shoe.describe()


@needs_kernel
def test_a_batch_kernel_plan_is_made_once_and_only_when_the_kernel_runs(kernel, monkeypatch):
    """``off`` builds no kernel plan (numpy's label parts count); ``on`` builds one per batch
    plan, kept for the next batch of the same bets, and no numpy label part."""
    from analyzer.engine import batch
    from analyzer.engine.labels import LabelPart

    made = {"kernel": 0, "numpy": 0}
    plan_of, part_init = native.batch_plan, LabelPart.__init__

    def spy_plan(*args):
        made["kernel"] += 1
        return plan_of(*args)

    def spy_part(self, *args):
        made["numpy"] += 1
        part_init(self, *args)

    monkeypatch.setattr(native, "batch_plan", spy_plan)
    monkeypatch.setattr(LabelPart, "__init__", spy_part)
    bets = [find_bet(n) for n in ("banker", "perfect-pair", "perfect-pair:2", "player-pair")]
    shoes = [[8] * 52, [7] + [8] * 51]
    batch._PLANS.clear()
    kernel("off")
    off = batch_ev(shoes, bets)
    assert made == {"kernel": 0, "numpy": 3}  # one label part per bet that reads cards
    batch._PLANS.clear()
    kernel("on")
    on = batch_ev(shoes, bets)
    batch_ev(shoes[:1], bets)
    assert made == {"kernel": 1, "numpy": 3}
    assert np.array_equal(on.numerators, off.numerators)
