"""Values built lazily and shared by every caller are whole whatever threads race to build them
(a view filled in place could be read half-built, or filled twice, by a thread that raced).

Each test holds every thread inside the build at one barrier, so that all of them race by
construction, not by chance, and checks each thread's answer against one built alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from analyzer import Shoe, find_bet
from analyzer.engine import evaluate, pricing, values

THREADS = 8


def race(work: Callable[[], Any]) -> list[Any]:
    """``work`` run by :data:`THREADS` threads at once; their answers (or errors)."""
    out: list[Any] = [None] * THREADS

    def run(i: int) -> None:
        try:
            out[i] = work()
        except Exception as error:  # the answer a racing thread got
            out[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


class HeldKeys(tuple):  # type: ignore[type-arg]
    """A settlement's keys that hold each thread's first walk over them until all have come:
    every thread is then inside the build of the settlement's terms."""

    def __new__(cls, keys: tuple[Any, ...]) -> HeldKeys:
        self = super().__new__(cls, keys)
        self.barrier = threading.Barrier(THREADS, timeout=30)
        self.walked = threading.local()
        return self

    def __iter__(self):  # type: ignore[no-untyped-def]
        if not getattr(self.walked, "once", False):
            self.walked.once = True
            self.barrier.wait()
        return super().__iter__()


def test_a_settlements_summary_terms():
    bet = find_bet("dragon-bonus-banker")
    shoe = Shoe.standard(8)
    table = pricing.table_for(pricing.ANALYSIS_READS, shoe.size)
    counts, d = evaluate.column_counts(table, shoe)
    settled = pricing.settlement(bet, table)
    sums = settled.sums(counts)
    expected = pricing.Settlement(settled.keys, settled.index, settled.scale, settled.scaled)
    expected_summary = expected.summary(bet, sums, 0, d)
    held = pricing.Settlement(HeldKeys(settled.keys), settled.index, settled.scale, settled.scaled)
    assert race(lambda: held.summary(bet, sums, 0, d)) == [expected_summary] * THREADS
    assert held.summary(bet, sums, 0, d) == expected_summary  # and after the race


def test_the_value_weights_of_a_shoe(monkeypatch):
    counts = Shoe.standard(8).remove("As 9d").point_counts
    expected = values.weights_vector(counts).tolist()
    barrier = threading.Barrier(THREADS, timeout=30)
    split = values._split

    def held_split() -> Any:  # every thread inside the build of the gathers at once
        barrier.wait()
        return split()

    monkeypatch.setattr(values, "_split", held_split)
    values._one.cache_clear()
    got = race(lambda: values.weights_vector(counts).tolist())
    assert got == [expected] * THREADS
    assert values.weights_vector(counts).tolist() == expected
