"""Evaluate a compiled table on one shoe: the exact count of sequences ending in each record.

Two implementations of one definition (:mod:`analyzer.engine.algebra`): Python integers
(exact at any size; no numpy import, for one-shot commands) and numpy int64 (fast, used when
every count of the shoe fits int64: N!/(N-6)! < 2**63, i.e. at most 1,448 cards).  Which one
runs is the policy of :func:`record_counts`: numpy unless the caller asked for
:func:`one_shot` evaluation or the shoe is too large for int64.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from analyzer.core.shoe import Shoe
from analyzer.engine.algebra import (
    ShoeCounts,
    SuitsUnknownError,
    VectorPlan,
    evaluate_scalar,
    falling,
    fits_int64,
    pool_sizes_vector,
)
from analyzer.engine.table import CompiledTable

MAX_CARDS = 6
_ONE_SHOT = [False]


@contextlib.contextmanager
def one_shot() -> Iterator[None]:
    """Within this block, evaluate with Python integers (no numpy import): for a command that
    prices one shoe once, where importing numpy would cost more than it saves."""
    before = _ONE_SHOT[0]
    _ONE_SHOT[0] = True
    try:
        yield
    finally:
        _ONE_SHOT[0] = before


def shoe_counts(shoe: Shoe) -> ShoeCounts:
    """The algebra's view of a shoe (cached on the shoe)."""
    return ShoeCounts.of(shoe.counts, shoe.suited)


def denominator(size: int) -> int:
    """N!/(N-K)!, K = min(N, 6): the number of ordered K-card sequences of the shoe."""
    return falling(size, min(size, MAX_CARDS))


_PLANS: dict[tuple[int, bool, bool], tuple[CompiledTable, VectorPlan]] = {}


def _plan(table: CompiledTable, suits_alike: bool, tens_alike: bool) -> tuple[VectorPlan, Any]:
    key = (id(table), suits_alike, tens_alike)
    hit = _PLANS.get(key)
    if hit is None or hit[0] is not table:
        import numpy as np

        plan = VectorPlan(table.program, suits_alike, tens_alike)
        comps = np.asarray(table.entry_comp, dtype=np.int64)
        recs = np.asarray(table.entry_record, dtype=np.int64)
        tallies = np.asarray(table.tally, dtype=np.int64)
        starts = np.flatnonzero(np.r_[True, recs[1:] != recs[:-1]]) if len(recs) else recs
        plan.entries = (comps, tallies, starts, recs[starts] if len(recs) else recs)  # type: ignore[attr-defined]
        if len(_PLANS) > 256:
            _PLANS.clear()
        hit = _PLANS[key] = (table, plan)
    return hit[1], hit[1].entries  # type: ignore[attr-defined]


def record_counts(table: CompiledTable, shoe: Shoe) -> tuple[list[int], int]:
    """For each record of ``table``, the number of ordered K-card sequences (K = min(N, 6)) of
    the shoe's physical cards whose coup ends in it (a list of Python integers); and N!/(N-K)!.

    Raises:
        SuitsUnknownError: the table reads suits and the shoe's suits are unknown.
    """
    counts = shoe_counts(shoe)
    if counts.cards is None and table.program.needs_suits:
        raise SuitsUnknownError
    if _ONE_SHOT[0] or not fits_int64(counts.size) or not _numpy():
        weights = evaluate_scalar(table.program, counts)
        out = [0] * len(table.records)
        for c, r, t in zip(table.entry_comp, table.entry_record, table.tally, strict=True):
            out[r] += t * weights[c]
        return out, denominator(counts.size)
    array, d = record_counts_array(table, shoe)
    return array.tolist(), d


def record_counts_array(table: CompiledTable, shoe: Shoe) -> tuple[Any, int]:
    """:func:`record_counts` as an int64 numpy array, for a shoe whose counts fit int64
    (:func:`~analyzer.engine.algebra.fits_int64`); else as a list of Python integers.

    Raises:
        SuitsUnknownError: the table reads suits and the shoe's suits are unknown.
    """
    counts = shoe_counts(shoe)
    if counts.cards is None and table.program.needs_suits:
        raise SuitsUnknownError
    if _ONE_SHOT[0] or not fits_int64(counts.size) or not _numpy():
        return record_counts(table, shoe)
    import numpy as np

    plan, (comps, tallies, starts, recs) = _plan(table, counts.suits_alike, counts.tens_alike)
    weights = plan.weights(pool_sizes_vector(counts), counts.size)
    sums = np.add.reduceat(weights[comps] * tallies, starts) if len(comps) else comps
    full = np.zeros(len(table.records), dtype=np.int64)
    full[recs] = sums
    return full, denominator(counts.size)


def _numpy() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:  # pragma: no cover - a declared dependency
        return False
    return True
