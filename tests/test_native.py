"""The compiled kernel (``analyzer.engine.native``) counts what the pure path counts.

The pure path (Python integers, numpy int64) is the reference: every catalogue bet is priced on
every kind of shoe -- suited, depleted, short (coups that run out), without suits, at the
last shoe of the 64-bit ring (1,448 cards) and the first of the 128-bit one, 10,000 decks --
with the kernel and without it, and the two must agree exactly; so must the column counts of
the tables themselves, several tables evaluated together, and shoes under every tableau of the
registry.  The tests that compare need the kernel built (``pip install .`` with a C compiler);
``PUNTO_BANCO_KERNEL=on`` (CI's compiled lane) makes its absence a failure.
"""

from __future__ import annotations

import contextlib
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Pricer, Shoe, catalogue_bets, find_bet, price
from analyzer.bets.files import parse_bets
from analyzer.core.cards import RANK_POINTS, parse_cards
from analyzer.core.reads import Reads
from analyzer.core.tableau import TABLEAUX
from analyzer.engine import evaluate, native, pricing
from analyzer.engine.algebra import fits_int64
from analyzer.engine.pricing import ANALYSIS_READS, bet_table_for, table_for
from analyzer.errors import AnalyzerError, KernelError

BUILT = native.built()
needs_kernel = pytest.mark.skipif(
    not BUILT, reason="the compiled kernel is not built (pip install . with a C compiler)"
)

SHOES = {
    "8 decks, full (suits alike: the symmetric tables)": Shoe.standard(8),
    "8 decks, depleted (suits and 10-valued ranks unlike)": Shoe.standard(8).remove(
        "As 5h Kd 9c 9c 2h Qs Jd"
    ),
    "6 decks, depleted evenly (suits alike, 10-valued ranks unlike)": Shoe.standard(6).remove(
        "Ks Kh Kd Kc 7s 7h 7d 7c"
    ),
    "1 deck, 37 cards": Shoe.standard(1).remove("As Ah Ad 2s 3h 4c 5d 6s 7h 8c 9d Ks Qh Jd 10c"),
    "1,448 cards: the last shoe of the 64-bit ring": Shoe.standard(28).remove("As Ah Ad Ac 2s 2h 2d 2c"),
    "1,449 cards: the first shoe of the 128-bit ring": Shoe.standard(28).remove("As Ah Ad Ac 2s 2h 2d"),
    "10,000 decks, depleted": Shoe.standard(10_000).remove("As 5h Kd"),
    "4 cards: every coup that needs a fifth runs out": Shoe.from_cards(parse_cards("As Kh 5d 9c")),
    "5 cards, suits unknown": Shoe.from_counts([1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1]),
    "6 decks by rank, suits unknown": Shoe.from_counts([23, 24, 22, 24, 24, 21, 24, 24, 24, 23, 24, 20, 24]),
}


@pytest.fixture
def kernel_runs(monkeypatch):
    """What the kernel evaluated: the counts of each plan it ran (None where it could not) and
    each summary it summed (None where its integers could not)."""
    seen: dict[str, list[object]] = {"plans": [], "summaries": []}
    plan_counts, summary = evaluate._TablesPlan.native_counts, native.summary

    def spy_plan(self, memo):
        got = plan_counts(self, memo)
        seen["plans"].append(got)
        return got

    def spy_summary(settled, counts):
        got = summary(settled, counts)
        seen["summaries"].append(got)
        return got

    monkeypatch.setattr(evaluate._TablesPlan, "native_counts", spy_plan)
    monkeypatch.setattr(native, "summary", spy_summary)
    return seen


def priced(bets, shoe, tableau=pricing.STANDARD):
    """Each bet's summary on ``shoe``, or the one-line error it is refused with."""
    out = []
    for bet in bets:
        try:
            out.append(price(bet, shoe, tableau))
        except AnalyzerError as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out


# -- the setting -----------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "meaning"), [("", "auto"), ("AUTO", "auto"), (" on ", "on"), ("1", "on"),
                                              ("off", "off"), ("no", "off"), ("False", "off")])
def test_the_setting_reads_the_environment(monkeypatch, raw, meaning):
    monkeypatch.setenv(native.ENV, raw)
    assert native.setting() == meaning


def test_a_bad_setting_is_refused_in_one_line(monkeypatch, kernel):
    kernel("fast")
    refused = r"^bad PUNTO_BANCO_KERNEL='fast': use auto \(the default\), on or off$"
    with pytest.raises(KernelError, match=refused):
        price(find_bet("banker"), Shoe.standard(6).remove("2h"))


def test_on_without_the_kernel_is_an_error_and_auto_runs_the_pure_path(monkeypatch, kernel):
    monkeypatch.setitem(sys.modules, "analyzer.engine._native", None)  # as if it was never built
    assert not native.built()
    kernel("on")
    with pytest.raises(KernelError, match="PUNTO_BANCO_KERNEL=on, but the compiled kernel was not built"):
        price(find_bet("banker"), Shoe.standard(6).remove("3h"))
    kernel("auto")
    shoe = Shoe.standard(6).remove("4h")
    assert native.tier(shoe.size) == 0
    assert price(find_bet("banker"), shoe).house_edge > 0


def test_the_kernel_runs_where_it_is_required():
    # CI's compiled lane sets PUNTO_BANCO_KERNEL=on: there, a kernel that did not build fails here
    if native.setting() != "on":
        pytest.skip("PUNTO_BANCO_KERNEL is not on")
    assert native.kernel() is not None
    assert native.tier(416) == 64


@needs_kernel
def test_off_evaluates_nothing_in_the_kernel(kernel, kernel_runs):
    kernel("off")
    shoe = Shoe.standard(8).remove("5c 6d")
    Pricer(shoe).summaries([find_bet(n) for n in ("banker", "perfect-pair", "dragon-bonus-player")])
    assert evaluate._memo(shoe).kernel == 0
    assert kernel_runs["plans"] == [] and kernel_runs["summaries"] == [None, None, None]


def test_importing_the_analyser_loads_no_kernel():
    # the extension is loaded on the first evaluation that uses it, not at import
    import subprocess

    code = "import analyzer.engine.pricing, sys; print('analyzer.engine._native' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# -- equal to the pure path --------------------------------------------------------------------


@needs_kernel
@pytest.mark.parametrize("name", list(SHOES))
def test_every_catalogue_bet_prices_alike_on_every_kind_of_shoe(name, kernel, kernel_runs):
    shoe, bets = SHOES[name], catalogue_bets()
    kernel("off")
    expected = priced(bets, shoe)
    kernel("on")
    kernel_runs["plans"].clear()
    kernel_runs["summaries"].clear()
    assert priced(bets, shoe) == expected
    ring = 64 if fits_int64(shoe.size) else 128
    assert evaluate._memo(shoe).kernel == native.tier(shoe.size) == ring
    assert kernel_runs["plans"] and all(p is not None for p in kernel_runs["plans"]), "the kernel evaluated"
    if ring == 64 and shoe.size >= 6:
        assert all(s is not None for s in kernel_runs["summaries"]), "and summed every bet"


@needs_kernel
@pytest.mark.parametrize("name", list(SHOES))
def test_the_tables_count_alike_one_shot_and_in_numpy(name, kernel):
    shoe = SHOES[name]
    tables = [table_for(ANALYSIS_READS, shoe.size), table_for(Reads.everything_but_cards(), shoe.size)]
    if shoe.suited is not None:
        tables += [bet_table_for(find_bet(n), shoe) for n in ("perfect-pair", "either-pair", "all-red",
                                                               "lucky-win-player", "super-tie")]
    for one_shot in (False, True):
        got = {}
        for setting in ("off", "on"):
            kernel(setting)
            with evaluate.one_shot() if one_shot else contextlib.nullcontext():
                got[setting] = [evaluate.counted(t, shoe) for t in tables]
        for (counts, total, d), (reference, total_ref, d_ref) in zip(got["on"], got["off"], strict=True):
            assert type(counts) is type(reference)  # an int64 array where numpy gives one, else a list
            assert _ints(counts) == _ints(reference)
            assert (total, d) == (total_ref, d_ref)
            assert type(total) is int and total == sum(_ints(counts))


@needs_kernel
def test_tables_evaluated_together_count_what_each_counts_alone(kernel):
    shoe = SHOES["8 decks, depleted (suits and 10-valued ranks unlike)"]
    tables = [table_for(ANALYSIS_READS, shoe.size)]
    names = ("perfect-pair", "all-red", "super-tie", "player-pair")
    tables += [bet_table_for(find_bet(n), shoe) for n in names]
    kernel("off")
    alone = [_ints(evaluate.counted(t, shoe)[0]) for t in tables]
    kernel("on")
    memo = evaluate._Shoe(shoe, vector=True)
    alike, tens = memo.counts.suits_alike, memo.counts.tens_alike
    for group in (tables, tables[::-1], tables[1:3]):
        together = evaluate._TablesPlan(tuple(group), alike, tens).native_counts(memo)
        assert together is not None
        for table, (counts, total) in zip(group, together, strict=True):
            assert _ints(counts) == alone[tables.index(table)] and total == sum(_ints(counts))


@needs_kernel
@pytest.mark.parametrize("tableau", list(TABLEAUX.values()), ids=list(TABLEAUX))
def test_every_tableau_of_the_registry_prices_alike(tableau, kernel):
    names = ("banker", "player", "tie", "dragon-bonus-player", "dragon-bonus-banker", "dragon-7", "panda-8",
             "player-pair", "either-pair", "perfect-pair")
    bets = [find_bet(n) for n in names]
    for shoe in (Shoe.standard(8).remove("As 5h Kd 9c"), Shoe.standard(1).remove("2s 2h 3d")):
        kernel("off")
        expected = priced(bets, shoe, tableau)
        kernel("on")
        assert priced(bets, shoe, tableau) == expected


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize("tableau", [t for t in TABLEAUX.values() if t is not pricing.STANDARD],
                         ids=[n for n, t in TABLEAUX.items() if t is not pricing.STANDARD])
def test_every_catalogue_bet_under_every_other_tableau_prices_alike(tableau, kernel):
    # every card-level bet compiled under each other rule set (minutes): the whole catalogue
    bets = catalogue_bets()
    for shoe in (Shoe.standard(8).remove("As 5h Kd 9c 2h"), Shoe.standard(6)):
        kernel("off")
        expected = priced(bets, shoe, tableau)
        kernel("on")
        assert priced(bets, shoe, tableau) == expected


@needs_kernel
@settings(max_examples=15, deadline=None)
@given(
    decks=st.integers(1, 8),
    removed=st.lists(st.integers(0, 51), max_size=40),
    chosen=st.lists(st.sampled_from(["banker", "tie", "dragon-bonus-banker", "player-pair", "perfect-pair",
                                     "either-pair", "all-black", "lucky-win-banker", "super-tie"]),
                    min_size=1, max_size=6, unique=True),
)
def test_any_depleted_shoe_prices_alike_bet_by_bet_and_together(decks, removed, chosen):
    counts = [decks] * 52
    for i in removed:
        counts[i] = max(0, counts[i] - 1)
    shoes = [Shoe.from_suited_counts(counts)]
    for card in range(3):  # two shoes before, then the one compared: their tables evaluated together
        counts[card * 7] = max(0, counts[card * 7] - 1)
        shoes.append(Shoe.from_suited_counts(counts))
    bets = [find_bet(n) for n in chosen]
    results = {}
    before = os.environ.get(native.ENV)
    for setting in ("off", "on"):  # (hypothesis: no function-scoped fixture, the setting by hand)
        os.environ[native.ENV] = setting
        native.reset()
        evaluate._SHOES.clear()
        evaluate._LAST.clear()
        try:
            for shoe in shoes[:-1]:
                Pricer(shoe).summaries(bets)
            results[setting] = (Pricer(shoes[-1]).summaries(bets), priced(bets, shoes[0]))
        finally:
            if before is None:
                os.environ.pop(native.ENV)
            else:
                os.environ[native.ENV] = before
            native.reset()
    assert results["on"] == results["off"]


@needs_kernel
def test_moments_past_the_kernels_integers_are_summed_in_python(kernel, kernel_runs):
    text = "\n".join(
        f'[[bet]]\nname = "{name}"\ntitle = "{name}"\n[[bet.pay]]\nevent = "Player wins"\n'
        f'when = {{ winner = "player" }}\npays = {pays}\n'
        for name, pays in (("square-past-128-bits", 2**40), ("pay-past-64-bits", 10**30))
    )
    bets = parse_bets(text, "huge.toml")
    shoe = Shoe.standard(8).remove("9h 9d")
    kernel("off")
    expected = [price(b, shoe) for b in bets]
    kernel("on")
    kernel_runs["summaries"].clear()
    assert [price(b, shoe) for b in bets] == expected
    assert kernel_runs["summaries"] == [None, None], "both left to Python integers"
    assert expected[1].second > 2**127


# -- the kernel's own checks ---------------------------------------------------------------------


@needs_kernel
def test_a_shoe_past_its_ring_or_with_bad_counts_is_refused():
    module = native.kernel() or pytest.skip("the kernel is switched off")
    ranks, cards = (112,) * 13, (28,) * 52
    assert module.ShoeState(ranks, cards, 128).size == 1456
    with pytest.raises(OverflowError, match="past the 64-bit ring"):
        module.ShoeState(ranks, cards, 64)
    with pytest.raises(ValueError, match="negative"):
        module.ShoeState((4,) * 13, (-1, 2, 2, 1) + (1,) * 48, 64)
    with pytest.raises(ValueError, match="disagree"):
        module.ShoeState((4,) * 13, (2,) * 52, 64)
    with pytest.raises(ValueError, match="no ring of 32 bits"):
        module.ShoeState((4,) * 13, None, 32)
    assert native.tier(module.MAX_SIZE_128 + 1) == 0  # the pure path's Python integers take it


@needs_kernel
def test_a_malformed_plan_is_refused_before_it_reads_outside_its_arrays():
    module = native.kernel() or pytest.skip("the kernel is switched off")
    table = bet_table_for(find_bet("perfect-pair"), Shoe.standard(8).remove("2h"))
    good = native.plan_spec([table], False, False)
    module.Plan(good)  # as built: accepted
    for field, value in (("leaf_comp", 10**6), ("fall_pool", -1), ("row_pad", 14), ("term_cards", 7)):
        bad = {**good, field: [value] * len(good[field])}
        with pytest.raises(ValueError):
            module.Plan(bad)
    cols, comps, tallies = good["value_parts"][0]
    for part in ((cols, (7722,) * len(comps), tallies), ((len(table.columns),) * len(cols), comps, tallies),
                 (cols[::-1], comps, tallies), (cols, comps[1:], tallies)):
        with pytest.raises(ValueError, match=r"outside|sorted|differ"):
            module.Plan({**good, "value_parts": [part]})
    with pytest.raises(KeyError, match="plan without leaf_row"):
        module.Plan({k: v for k, v in good.items() if k != "leaf_row"})
    with pytest.raises(OverflowError):
        module.Plan({**good, "leaf_mult": [2**70] * len(good["leaf_mult"])})
    plan = module.Plan(good)
    state = module.ShoeState((32,) * 13, (8,) * 52, 64)
    with pytest.raises(ValueError, match="int64 expected"):
        plan.counts(state, bytearray(8 * plan.columns))  # bytes, not int64
    unsuited = module.ShoeState((32,) * 13, None, 64)
    with pytest.raises(ValueError, match="needs the suits"):
        plan.counts(unsuited)


@needs_kernel
def test_a_table_with_a_number_past_int64_is_left_to_the_pure_path(kernel):
    import dataclasses

    kernel("on")
    table = table_for(ANALYSIS_READS, 416)
    odd = dataclasses.replace(table, key=table.key + "|test", value_tally=(2**64, *table.value_tally[1:]))
    assert native.plan([odd], True, True) is None
    shoe = Shoe.standard(8).remove("Kc")
    with evaluate.one_shot():  # (numpy's int64 cannot hold the number either)
        counts, total, _ = evaluate.counted(odd, shoe)
    reference = evaluate._scalar_counts(odd, evaluate._Shoe(shoe, vector=False))
    assert counts == reference and total == sum(reference)


def _ints(counts):
    return counts if isinstance(counts, list) else counts.tolist()


# -- many shoes at once (the batch's entry point) ------------------------------------------------


def _many_shoes():
    """Suited shoes of 6 to 1,448 cards: depleted 8 decks, a short deck, the ring's last shoe."""
    return [
        Shoe.standard(8).remove("As 5h Kd 9c 9c 2h Qs Jd"),
        Shoe.standard(8).remove("Ks Kh Kd Kc 7s 7h 7d 7c"),
        Shoe.from_cards(parse_cards("As Ah 2d 3c 5s 7h 7d 8c 9s Th Jd Kc")),
        Shoe.standard(28).remove("As Ah Ad Ac 2s 2h 2d 2c"),
    ]


@needs_kernel
@pytest.mark.parametrize("name", ["perfect-pair", "royal-match", "lucky-win-player", "bellagio-match-player"])
def test_many_shoes_count_what_each_counts_alone(name, kernel):
    """``Plan.many`` on a chunk of shoes: each row of counts is ``Plan.counts`` of that shoe
    alone (value part and label part, of a table and the analysis table side by side), and the
    value weights it writes are :func:`values.weights`, as int64 and, where exact, float64."""
    import numpy as np

    from analyzer.engine.values import weights

    kernel("on")
    module = native.kernel()
    shoes = _many_shoes()
    tables = [table_for(ANALYSIS_READS, 416), bet_table_for(find_bet(name), shoes[0])]
    plan = module.Plan(native.plan_spec(tables, False, False))
    cards = np.asarray([s.suited for s in shoes], dtype=np.int64)
    out = np.empty((len(shoes), plan.columns), dtype=np.int64)
    wide = np.empty((len(shoes), 7722), dtype=np.int64)
    plan.many(cards, out, wide)
    for i, shoe in enumerate(shoes):
        alone, _ = plan.counts(module.ShoeState(shoe.counts, shoe.suited, 64))
        assert out[i].tolist() == alone, shoe.describe()
        values = [sum(shoe.counts[r] for r in range(13) if RANK_POINTS[r] == v) for v in range(10)]
        assert wide[i].tolist() == weights(values)
    assert out[:, len(tables[0].columns):].any()  # the label part counts something
    small = np.ascontiguousarray(cards[:3])  # within 2**53 sequences: float64 weights, exact
    floats = np.empty((3, 7722), dtype=np.float64)
    again = np.empty((3, plan.columns), dtype=np.int64)
    plan.many(small, again, floats)
    assert np.array_equal(again, out[:3]) and floats.tolist() == wide[:3].tolist()
    if not plan.needs_suits:  # rank counts serve a plan that reads no suit
        ranks = np.asarray([s.counts for s in shoes], dtype=np.int64)
        by_rank = np.empty_like(out)
        plan.many(ranks, by_rank)
        assert np.array_equal(by_rank, out)


@needs_kernel
def test_many_shoes_refuses_what_it_cannot_count_and_writes_nothing(kernel):
    import numpy as np

    kernel("on")
    module = native.kernel()
    table = bet_table_for(find_bet("perfect-pair"), Shoe.standard(8).remove("2h"))
    plan = module.Plan(native.plan_spec([table], False, False))
    good = np.full((2, 52), 8, dtype=np.int64)
    out = np.full((2, plan.columns), -7, dtype=np.int64)
    weights = np.full((2, 7722), -7.0)
    refusals = [
        ((np.where(np.arange(52) == 3, -1, good),), ValueError, "negative"),
        ((np.full((2, 52), 28, dtype=np.int64),), OverflowError, "64-bit ring"),  # 1,456 cards
        ((np.full((2, 13), 32, dtype=np.int64),), ValueError, "needs the suits"),
        ((np.full((2, 12), 32, dtype=np.int64),), ValueError, "13 rank counts or 52"),
        ((good.astype(np.float64),), ValueError, "int64"),
        ((good[:, ::2],), ValueError, "C-contiguous"),
        ((np.full((2, 52), 9, dtype=np.int64), weights), ValueError, "2\\*\\*53"),  # 468 cards: not exact
        ((good, np.full((2, 7721), -7.0)), ValueError, "expected"),
        ((good, weights.astype(np.float32)), ValueError, "float64"),
    ]
    for args, error, message in refusals:
        counts, *rest = args
        with pytest.raises(error, match=message):
            plan.many(counts, out, *rest)
        assert (out == -7).all() and (weights == -7.0).all()
    with pytest.raises(ValueError, match="out"):
        plan.many(good, out[:1])
    with pytest.raises(ValueError, match="int64"):
        plan.many(good, out.astype(np.float64))


@needs_kernel
def test_a_batch_plan_shares_programs_and_drops_leaves_that_pay_alike(kernel):
    """:func:`native.batch_spec`: bets on one program (variants) evaluate it once; a leaf whose
    column pays what its row's rest pays is dropped (a bet paying alike on every column has no
    leaf, and counts nothing)."""
    import numpy as np

    kernel("on")
    shoe = Shoe.standard(8).remove("2h")
    one = bet_table_for(find_bet("perfect-pair:2"), shoe)
    other = bet_table_for(find_bet("perfect-pair:25/200"), shoe)
    assert one.program == other.program
    width = len(one.columns)
    distinct = list(range(width))  # every column its own class
    spec = native.batch_spec([(one, distinct, 0), (other, distinct, width)], 2 * width)
    assert len(spec["comp_start"]) - 1 == one.program.size  # the program once
    moves = sum(c != one.row_rest[r] for c, r in zip(one.leaf_col, one.leaf_row, strict=True))
    assert len(spec["leaf_row"]) == 2 * moves  # every leaf whose column is not its row's rest
    assert native.batch_spec([(one, [0] * width, 0)], 1)["leaf_row"] == []
    plan = native.batch_plan([(one, distinct, 0), (other, distinct, width)], 2 * width)
    cards = np.asarray([shoe.suited], dtype=np.int64)
    out = np.empty((1, 2 * width), dtype=np.int64)
    plan.many(cards, out)
    assert np.array_equal(out[:, :width], out[:, width:]) and out.any()


# -- a rank read as picture or ten -------------------------------------------------------------

#: Bets that read whether 10-valued cards are pictures (J, Q, K) or tens, the kernel's pool of
#: pictures: on the first two cards (a first-four table) and on a whole hand with the winner.
PICTURES = """
[[bet]]
name = "player-two-pictures"
[[bet.pay]]
when = { player_first_two = { pictures = 2 } }
pays = 15
[[bet]]
name = "banker-wins-on-pictures"
[[bet.pay]]
when = { winner = "banker", banker_hand = { pictures = { at_least = 2 } } }
pays = 9
"""


@needs_kernel
@pytest.mark.parametrize("name", list(SHOES))
def test_picture_bets_price_alike_on_every_kind_of_shoe(name, kernel, kernel_runs):
    shoe, bets = SHOES[name], parse_bets(PICTURES, "pictures.toml")
    kernel("off")
    expected = priced(bets, shoe)
    kernel("on")
    kernel_runs["plans"].clear()
    assert priced(bets, shoe) == expected
    assert kernel_runs["plans"] and all(p is not None for p in kernel_runs["plans"]), "the kernel evaluated"


@needs_kernel
def test_many_shoes_count_picture_tables_as_each_alone_by_rank_and_by_card(kernel):
    import numpy as np

    kernel("on")
    module = native.kernel()
    shoes = _many_shoes()
    tables = [bet_table_for(bet, shoes[0]) for bet in parse_bets(PICTURES, "pictures.toml")]
    plan = module.Plan(native.plan_spec(tables, False, False))
    assert not plan.needs_suits  # the pictures' pool is sized from rank counts
    cards = np.asarray([s.suited for s in shoes], dtype=np.int64)
    ranks = np.asarray([s.counts for s in shoes], dtype=np.int64)
    by_card, by_rank = (np.empty((len(shoes), plan.columns), dtype=np.int64) for _ in range(2))
    plan.many(cards, by_card)
    plan.many(ranks, by_rank)
    for i, shoe in enumerate(shoes):
        alone, _ = plan.counts(module.ShoeState(shoe.counts, shoe.suited, 64))
        assert by_card[i].tolist() == by_rank[i].tolist() == alone, shoe.describe()
    assert by_card.any()
