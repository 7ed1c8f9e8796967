"""A shoe's tables evaluated together (one plan for several tables) and the key sums of the bets
that share a table (one segment sum for all of them) give what each table and bet gives alone.

Pricing remembers which tables the previous shoes asked for and, when two shoes in a row asked
for the same set, evaluates them together on the next shoe's first miss among them
(``analyzer.engine.evaluate``); these tests price a shoe after others and compare with pricing
it in a fresh state, where every table is evaluated alone.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Pricer, Shoe, find_bet, price
from analyzer.engine import evaluate, pricing
from analyzer.engine.pricing import table_for

#: Value-level bets (one shared table), first-four card bets, and bets on every dealt card that
#: read ranks, a colour, a named suit, a named colour (rows summed over their weights).
NAMES = [
    "banker",
    "player",
    "tie",
    "dragon-bonus-player",
    "dragon-bonus-banker",
    "player-pair",
    "banker-pair",
    "perfect-pair",
    "low-tie-max",
    "super-tie",
    "lucky-win-player",
    "all-red",
]
BETS = [find_bet(n) for n in NAMES]
SHOES = [
    Shoe.standard(8).remove("As 5h Kd 9c 9c"),  # suits and 10-valued ranks unlike
    Shoe.standard(8).remove("As 5h 2h Qs"),
    Shoe.standard(6).remove("Ks Kh Kd Kc 7s 7h 7d 7c"),  # suits alike: the symmetric tables
    Shoe.standard(8),
    Shoe.from_counts([31, 32, 29, 32, 32, 30, 32, 32, 32, 31, 32, 28, 32]),  # no suits
]


def forget() -> None:
    """A fresh state: no shoe remembered, so every table is evaluated alone."""
    evaluate._SHOES.clear()
    evaluate._LAST.clear()
    evaluate._BROKEN.clear()


def priceable(bets, shoe):
    return [b for b in bets if shoe.suited is not None or not b.reads.sets]


def alone(bets, shoe):
    forget()
    return [price(b, shoe) for b in priceable(bets, shoe)]


def live(bets, *shoes):
    """Price ``bets`` on each of ``shoes`` in turn, from a fresh state (a live shoe's coups)."""
    forget()
    for shoe in shoes:
        for b in priceable(bets, shoe):
            price(b, shoe)


@pytest.fixture
def together(monkeypatch):
    """Counts the plans evaluated together, so that a test can tell the path was taken."""
    calls = []
    original = evaluate._evaluate_together

    def spy(table, memo):
        calls.append(table)
        return original(table, memo)

    monkeypatch.setattr(evaluate, "_evaluate_together", spy)
    return calls


def test_a_shoe_after_another_prices_as_the_shoe_alone(together):
    for before, after in zip(SHOES, SHOES[1:] + SHOES[:1], strict=True):
        expected = alone(BETS, after)
        live(BETS, before, before.remove("2h"))  # two shoes before, asking for the same set
        got = [price(b, after) for b in priceable(BETS, after)]
        assert got == expected, after.describe()
    assert together, "no shoe evaluated its tables together"


def test_a_plan_of_several_tables_counts_what_each_table_counts_alone():
    tables = [table_for(pricing.ANALYSIS_READS, 416)]
    tables += [pricing.bet_table_for(b, SHOES[0]) for b in BETS if b.reads.sets]
    for shoe in SHOES[:2]:
        memo = evaluate._Shoe(shoe, vector=True)
        alike, tens = memo.counts.suits_alike, memo.counts.tens_alike
        for group in (tables, tables[::-1], tables[1:4], tables[-3:]):
            both = evaluate._TablesPlan(tuple(group), alike, tens).counts(memo)
            for table, (counts, total) in zip(group, both, strict=True):
                single, single_total = evaluate._TablesPlan((table,), alike, tens).counts(memo)[0]
                assert counts.tolist() == single.tolist(), table.key
                assert total == single_total == sum(single.tolist())


def test_the_next_shoe_may_ask_for_other_bets(together):
    first, second = BETS[:6], BETS[3:]
    live(first, SHOES[0], SHOES[2])
    got = [price(b, SHOES[1]) for b in second]  # a table dropped, new ones asked for
    assert together
    assert got == alone(second, SHOES[1])


def test_a_shoe_without_suits_skips_the_tables_that_need_them(together):
    live(BETS, SHOES[0], SHOES[1])
    plain = SHOES[4]
    got = [price(b, plain) for b in BETS if not b.reads.sets]
    assert together
    assert got == alone(BETS, plain)


def test_tables_past_the_size_limit_are_evaluated_alone(monkeypatch, together):
    monkeypatch.setattr(evaluate, "TOGETHER_ENTRIES", 2_000)
    live(BETS, SHOES[0], SHOES[0].remove("2d"))
    got = [price(b, SHOES[1]) for b in BETS]
    assert together
    assert got == alone(BETS, SHOES[1])


def test_bets_sharing_a_table_sum_alike_in_any_order():
    value_bets = [b for b in BETS if not b.reads.sets]
    shoe = SHOES[1]
    forward = alone(value_bets, shoe)
    pricing._SHARED.clear()
    backward = alone(value_bets[::-1], shoe)[::-1]
    assert forward == backward
    table = table_for(pricing.ANALYSIS_READS, shoe.size)
    counts, d = evaluate.column_counts(table, shoe)
    for bet, summary in zip(value_bets, forward, strict=True):
        settled = pricing.settlement(bet, table)
        events = tuple(
            (ev, pays, n) for (ev, pays), n in zip(settled.keys, settled.sums(counts), strict=True)
        )
        assert summary == pricing.summarize(bet, events, d)


@settings(max_examples=12, deadline=None)
@given(
    st.lists(st.sampled_from(range(len(BETS))), min_size=1, max_size=8),
    st.lists(st.sampled_from(range(len(BETS))), min_size=1, max_size=8),
    st.lists(st.integers(0, 51), min_size=0, max_size=12),
)
def test_any_two_sets_of_bets_on_two_shoes(first, second, removed):
    ranks = "A23456789TJQK"
    cards = " ".join(("10" if ranks[i // 4] == "T" else ranks[i // 4]) + "shdc"[i % 4] for i in removed)
    after = Shoe.standard(8).remove(cards)
    live([BETS[i] for i in first], SHOES[0], SHOES[1])
    got = Pricer(after).summaries([BETS[i] for i in second])
    assert got == alone([BETS[i] for i in second], after)


@pytest.fixture
def plans_built(monkeypatch):
    """The plans built, one tuple of (table keys, suits alike, tens alike) per plan."""
    built = []
    original = evaluate._TablesPlan.__init__

    def spy(self, tables, suits_alike, tens_alike):
        built.append((tuple(t.key for t in tables), suits_alike, tens_alike))
        original(self, tables, suits_alike, tens_alike)

    monkeypatch.setattr(evaluate._TablesPlan, "__init__", spy)
    evaluate._GROUPS.clear()
    evaluate._PLANS.clear()
    return built


def test_the_same_bets_in_another_order_reuse_one_plan(together, plans_built):
    shoes = [Shoe.standard(8).remove(cards) for cards in ("2h", "2h 3d", "2h 3d 4s", "2h 3d 4s 5c")]
    expected = [alone(BETS, shoe) for shoe in shoes]
    forget()
    got = []
    for turn, shoe in enumerate(shoes):
        order = BETS[::-1] if turn % 2 else BETS  # the set asked for alike, its order not
        by_bet = {b.name: price(b, shoe) for b in order}
        got.append([by_bet[b.name] for b in BETS])
    assert got == expected
    assert together
    assert len([keys for keys, *_ in plans_built if len(keys) > 1]) == 1, "one set of tables, one plan"


def test_shoes_priced_in_turn_evaluate_no_tables_together(together):
    a_bets, b_bets = BETS[:5], BETS[3:]
    a_shoes = [Shoe.standard(8).remove(c) for c in ("2h", "2h 3d", "2h 3d 4s")]
    b_shoes = [Shoe.standard(8).remove(c) for c in ("9c", "9c 8h", "9c 8h 7s")]
    forget()
    for a, b in zip(a_shoes, b_shoes, strict=True):  # two live tables, one coup each in turn
        got_a = [price(x, a) for x in a_bets]
        got_b = [price(x, b) for x in b_bets]
        assert got_a == [Pricer(a).summaries([x])[0] for x in a_bets]
        assert got_b == [Pricer(b).summaries([x])[0] for x in b_bets]
    assert not together, "a shoe evaluated the other shoe's tables"


def test_bets_that_change_from_shoe_to_shoe_evaluate_no_tables_together(together):
    forget()
    for turn in range(5):
        shoe = Shoe.standard(8).remove("Ah " * (turn + 1))
        price(BETS[turn], shoe)
        price(BETS[-1 - turn], shoe)
    assert not together


def test_a_failing_group_leaves_each_table_to_be_evaluated_alone(monkeypatch, together):
    live(BETS, SHOES[0], SHOES[0].remove("2d"))
    original = evaluate._TablesPlan.counts

    def broken(self, memo):
        if len(self.tables) > 1:
            raise ValueError("a broken table")
        return original(self, memo)

    monkeypatch.setattr(evaluate._TablesPlan, "counts", broken)
    evaluate._GROUPS.clear()
    got = [price(b, SHOES[1]) for b in BETS]
    assert together
    monkeypatch.setattr(evaluate._TablesPlan, "counts", original)
    assert got == alone(BETS, SHOES[1])


def test_sets_of_bets_in_rotation_build_each_plan_once(plans_built):
    # three sets, each priced on a few live shoes in turn: every plan, of one table or of a
    # set, is built once and kept (building one costs far more than a shoe's evaluation)
    sets = [BETS[:6], BETS[4:], BETS[::2]]
    removed = ["2h", "3d", "4s", "5c", "6h", "7d", "8s", "9c", "Ah", "Kd", "Qs", "Jc"]
    shoe = Shoe.standard(8).remove("As")
    forget()
    for turn in range(24):
        shoe = shoe.remove(removed[turn % len(removed)])
        for b in sets[(turn // 3) % 3]:
            price(b, shoe)
    assert plans_built, "no plan built"
    assert len(plans_built) == len(set(plans_built)), "a plan was built again"
    assert len({keys for keys, *_ in plans_built if len(keys) > 1}) == 3, "one plan per set"


def test_a_failing_group_is_not_tried_again(monkeypatch, plans_built):
    live(BETS, SHOES[0], SHOES[0].remove("2d"))
    original = evaluate._TablesPlan.counts
    tried = []

    def broken(self, memo):
        if len(self.tables) > 1:
            tried.append(self)
            raise ValueError("a broken table")
        return original(self, memo)

    monkeypatch.setattr(evaluate._TablesPlan, "counts", broken)
    evaluate._GROUPS.clear()
    shoe = SHOES[1]
    for cards in ("3c", "4c", "5c"):
        shoe = shoe.remove(cards)
        got = [price(b, shoe) for b in BETS]
    assert len(tried) == 1
    monkeypatch.setattr(evaluate._TablesPlan, "counts", original)
    assert got == alone(BETS, shoe)


def test_one_shot_is_each_threads_own():
    import threading

    entered, left = threading.Event(), threading.Event()
    seen = []

    def other():
        with evaluate.one_shot():
            entered.set()
            left.wait(timeout=30)
        seen.append(evaluate._ONE_SHOT.get())

    thread = threading.Thread(target=other)
    with evaluate.one_shot():
        thread.start()
        entered.wait(timeout=30)
    assert not evaluate._ONE_SHOT.get()  # this thread left its block
    left.set()
    thread.join()
    assert seen == [False]
    assert evaluate._memo(SHOES[3]).vector, "pricing after the blocks uses numpy again"


def test_one_shot_is_each_asyncio_tasks_own():
    import asyncio

    async def block(enter, leave):
        with evaluate.one_shot():
            enter.set()
            await leave.wait()

    async def main():
        a_in, a_out, b_in, b_out = (asyncio.Event() for _ in range(4))
        a = asyncio.create_task(block(a_in, a_out))
        await a_in.wait()
        b = asyncio.create_task(block(b_in, b_out))
        await b_in.wait()
        a_out.set()  # the blocks end out of order
        await a
        b_out.set()
        await b
        return evaluate._ONE_SHOT.get()

    assert asyncio.run(main()) is False
    assert not evaluate._ONE_SHOT.get()
