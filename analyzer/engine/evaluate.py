"""Evaluate compiled tables on one shoe: the exact count of sequences ending in each column.

Two implementations of one definition (:mod:`analyzer.engine.table`): Python integers (exact at
any size; no numpy import, for one-shot commands) and numpy int64 (used when every count of the
shoe fits int64: N!/(N-6)! < 2**63, i.e. at most 1,448 cards).  Which one runs is the policy of
:func:`column_counts`: numpy unless the caller asked for :func:`one_shot` evaluation or the shoe
is too large for int64.

A shoe's value weights, and each table's counts on it, are kept for the last few shoes
(:data:`SHOES`), so that pricing several bets on one shoe, one :func:`~analyzer.engine.pricing.price`
call at a time, evaluates each table once.
"""

from __future__ import annotations

import contextlib
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterator
from operator import itemgetter, mul
from typing import Any

from analyzer.core.shoe import Shoe
from analyzer.engine.algebra import (
    ShoeCounts,
    SuitsUnknownError,
    VectorPlan,
    evaluate_scalar,
    fits_int64,
    pool_sizes_vector,
)
from analyzer.engine.table import Table
from analyzer.engine.values import (
    COMPOSITIONS,
    counts_of,
    falling,
    falling_table,
    read_weight,
    weights,
    weights_vector,
)

MAX_CARDS = 6
#: Shoes whose weights and table counts are kept (most recent first out).
SHOES = 8
_ONE_SHOT = [False]
_LOCK = threading.Lock()


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


def denominator(size: int) -> int:
    """N!/(N-K)!, K = min(N, 6): the number of ordered K-card sequences of the shoe."""
    return falling(size, min(size, MAX_CARDS))


class _Shoe:
    """What one shoe's evaluations share: its counts as the algebra sees them, the value
    weights, and each table's counts (by table key)."""

    def __init__(self, shoe: Shoe, vector: bool) -> None:
        self.counts = ShoeCounts.of(shoe.counts, shoe.suited)
        self.values = shoe.point_counts
        self.vector = vector
        self.size = shoe.size
        self.denominator = denominator(shoe.size)
        self.tables: dict[str, Any] = {}
        self._weights: Any = None
        self._falls: list[list[int]] | None = None
        self._flat_falls: Any = None
        self._pools: Any = None

    @property
    def falls(self) -> list[list[int]]:
        if self._falls is None:
            self._falls = falling_table(self.values)
        return self._falls

    @property
    def flat_falls(self) -> Any:
        """:attr:`falls` as one int64 array, row after row, and a 1 after them."""
        if self._flat_falls is None:
            import numpy as np

            self._flat_falls = np.asarray([*(x for row in self.falls for x in row), 1], dtype=np.int64)
        return self._flat_falls

    @property
    def weights(self) -> Any:
        if self._weights is None:
            if self.vector:
                self._weights = weights_vector(self.values, self.falls)
            else:
                self._weights = weights(self.values)
        return self._weights

    @property
    def pools(self) -> Any:
        if self._pools is None:
            self._pools = pool_sizes_vector(self.counts)
        return self._pools


_SHOES: OrderedDict[tuple[object, ...], _Shoe] = OrderedDict()


#: The last shoe object priced and its memo: a shoe is immutable, so pricing several bets on
#: it one call at a time finds its memo without hashing its counts.
_LAST: list[tuple[Shoe, bool, _Shoe]] = []


def _memo(shoe: Shoe) -> _Shoe:
    vector = not _ONE_SHOT[0] and fits_int64(shoe.size)
    last = _LAST[0] if _LAST else None
    if last is not None and last[0] is shoe and last[1] == vector:
        return last[2]
    key = (shoe.counts, shoe.suited, vector)
    with _LOCK:
        hit = _SHOES.get(key)
        if hit is None:
            hit = _SHOES[key] = _Shoe(shoe, vector)
            if len(_SHOES) > SHOES:
                _SHOES.popitem(last=False)
        else:
            _SHOES.move_to_end(key)
        _LAST[:] = [(shoe, vector, hit)]
        return hit


def column_counts(table: Table, shoe: Shoe) -> tuple[Any, int]:
    """For each column of ``table``, the number of ordered K-card sequences (K = min(N, 6)) of
    the shoe's physical cards whose coup ends in it; and N!/(N-K)!.  The counts are a list of
    Python integers, or an int64 numpy array when every count fits int64.

    Raises:
        SuitsUnknownError: the table needs suits and the shoe's suits are unknown.
    """
    counts, _, d = counted(table, shoe)
    return counts, d


def counted(table: Table, shoe: Shoe) -> tuple[Any, int, int]:
    """:func:`column_counts` with the sum of the counts between them (N!/(N-K)! less the
    sequences of a void coup): (counts, their sum, N!/(N-K)!), kept per shoe and table."""
    memo = _memo(shoe)
    if memo.counts.cards is None and table.needs_suits:
        raise SuitsUnknownError
    hit = memo.tables.get(table.key)
    if hit is None or hit[0] is not table:
        counts = _vector_counts(table, memo) if memo.vector else _scalar_counts(table, memo)
        total = sum(counts) if isinstance(counts, list) else int(counts.sum())
        hit = memo.tables[table.key] = (table, counts, total)
        if len(memo.tables) > 512:
            memo.tables.clear()
    return hit[1], hit[2], memo.denominator


def record_counts(table: Table, shoe: Shoe) -> tuple[list[int], int]:
    """:func:`column_counts` as a list of Python integers."""
    counts, d = column_counts(table, shoe)
    return (counts if isinstance(counts, list) else counts.tolist()), d


def counts_within(table: Table, shoe: Shoe, physical: int) -> list[int]:
    """:func:`record_counts` when only ``physical`` of the shoe's cards can be dealt (the rest
    were burned unseen): the compositions that need more cards weigh 0 (their coups are void),
    in Python integers."""

    memo = _Shoe(shoe, vector=False)
    memo._weights = [w if k <= physical else 0 for (k, _), w in zip(COMPOSITIONS, memo.weights, strict=True)]
    return _scalar_counts(table, memo)


#: A label part of at most this many leaves is evaluated with Python integers even when numpy
#: evaluates the rest of the table (one shoe: numpy's per-call cost would dominate).
SMALL = 64


def _scalar_counts(table: Table, memo: _Shoe) -> list[int]:
    w = memo.weights
    if not isinstance(w, list):
        w = w.tolist()
    out = [0] * len(table.columns)
    cols = table.value_col
    if cols:  # products in C (map, itemgetter), then one slice sum per column (sorted by column)
        picked = itemgetter(*table.value_comp)(w) if len(cols) > 1 else (w[table.value_comp[0]],)
        products = list(map(mul, table.value_tally, picked))
        start = 0
        while start < len(cols):
            col = cols[start]
            end = bisect_right(cols, col, start)
            out[col] += sum(products[start:end])
            start = end
    for c, x in enumerate(_scalar_labels(table, memo, w)):
        out[c] += x
    return out


def _scalar_labels(table: Table, memo: _Shoe, w: Any, per: list[int] | None = None) -> list[int]:
    """The label part's counts per column, with Python integers (``w``: the value weights, a
    list or a mapping of the rows' compositions; ``per``: each row's S / D(R), when the caller
    has it)."""
    out = [0] * len(table.columns)
    if table.row_read:
        if per is None:
            falls = memo.falls
            starts, comps, tallies = table.row_start, table.row_comp, table.row_tally
            per = []
            for r, coded in enumerate(table.row_read):
                s = 0
                for j in range(starts[r], starts[r + 1]):
                    s += tallies[j] * w[comps[j]]
                d = read_weight(coded, falls)
                per.append(s // d if d else 0)
        n = evaluate_scalar(table.program, memo.counts)
        rest = table.row_rest
        for r, i, c, m in zip(table.leaf_row, table.leaf_comp, table.leaf_col, table.leaf_mult, strict=True):
            x = per[r] * m * n[i]
            out[c] += x
            out[rest[r]] -= x
    return out


class _Plan:
    """A table's index arrays for the numpy evaluation (built once per table and symmetry
    class of the shoe)."""

    def __init__(self, table: Table, suits_alike: bool, tens_alike: bool) -> None:
        import numpy as np

        def arr(values: tuple[int, ...]) -> Any:
            return np.asarray(values, dtype=np.int64)

        self.table = table
        self.value_comp, self.value_tally = arr(table.value_comp), arr(table.value_tally)
        vcol = arr(table.value_col)
        self.value_starts = np.flatnonzero(np.r_[True, vcol[1:] != vcol[:-1]]) if len(vcol) else vcol
        self.value_cols = vcol[self.value_starts] if len(vcol) else vcol
        self.row_comp, self.row_tally = arr(table.row_comp), arr(table.row_tally)
        self.row_comps = sorted(set(table.row_comp))
        self.row_starts = arr(table.row_start[:-1])

        # D(R) per row as a product down axis 0 of entries of the flat falls table (70 = a 1)
        read = [[v * (MAX_CARDS + 1) + m for v, m in enumerate(counts_of(c)) if m] for c in table.row_read]
        width = max((len(r) for r in read), default=0) or 1
        self.row_read_at = np.full((width, len(read)), 10 * (MAX_CARDS + 1), dtype=np.intp)
        for j, r in enumerate(read):
            self.row_read_at[: len(r), j] = r
        self.leaf_row, self.leaf_comp = arr(table.leaf_row), arr(table.leaf_comp)
        self.leaf_mult = arr(table.leaf_mult)
        rest = arr(table.row_rest)[self.leaf_row] if len(self.leaf_row) else self.leaf_row
        self.rest_order = np.argsort(rest, kind="stable")
        ranked = rest[self.rest_order]
        self.rest_starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]]) if len(ranked) else ranked
        self.rest_cols = ranked[self.rest_starts] if len(ranked) else ranked
        lcol = arr(table.leaf_col)
        self.leaf_starts = np.flatnonzero(np.r_[True, lcol[1:] != lcol[:-1]]) if len(lcol) else lcol
        self.leaf_cols = lcol[self.leaf_starts] if len(lcol) else lcol
        self.program = VectorPlan(table.program, suits_alike, tens_alike) if table.row_read else None
        self.orderings: Any = None
        self.orderings_list: list[tuple[int, int]] = []  # (n_R, r) per row, as Python integers
        if table.first_four and table.row_read:  # S / D(R) = n_R falling(N - r, 6 - r): no weights
            from analyzer.engine.labels import orderings  # lazy: numpy, not needed in one shot

            self.orderings, self.read_cards = orderings(table, range(len(table.row_read)))
            self.orderings_list = list(zip(self.orderings.tolist(), self.read_cards.tolist(), strict=True))


_PLANS: dict[tuple[int, bool, bool], _Plan] = {}


def _plan(table: Table, suits_alike: bool, tens_alike: bool) -> _Plan:
    key = (id(table), suits_alike, tens_alike)
    hit = _PLANS.get(key)
    if hit is None or hit.table is not table:
        if len(_PLANS) > 512:
            _PLANS.clear()
        hit = _PLANS[key] = _Plan(table, suits_alike, tens_alike)
    return hit


def _vector_counts(table: Table, memo: _Shoe) -> Any:
    import numpy as np

    plan = _plan(table, memo.counts.suits_alike, memo.counts.tens_alike)
    w = memo.weights
    out = np.zeros(len(table.columns), dtype=np.int64)
    if len(plan.value_comp):
        out[plan.value_cols] += np.add.reduceat(plan.value_tally * w[plan.value_comp], plan.value_starts)
    if plan.program is not None and len(table.leaf_row) <= SMALL:  # numpy costs more than it saves
        if plan.orderings is not None:  # S / D(R) = n_R falling(N - r, 6 - r): no sum over the rows
            n_size = memo.size
            rows = [n * falling(n_size - r, MAX_CARDS - r) for n, r in plan.orderings_list]
            labels = _scalar_labels(table, memo, {}, rows)
        else:
            needed = dict(zip(plan.row_comps, w[plan.row_comps].tolist(), strict=True))
            labels = _scalar_labels(table, memo, needed)
        for c, x in enumerate(labels):
            if x:
                out[c] += x
    elif plan.program is not None:
        if plan.orderings is not None:
            n_size = memo.size
            rest = [falling(n_size - r, MAX_CARDS - r) for r in range(MAX_CARDS + 1)]
            per = plan.orderings * np.asarray(rest, dtype=np.int64).take(plan.read_cards)
        else:
            s = np.add.reduceat(plan.row_tally * w[plan.row_comp], plan.row_starts)
            d = memo.flat_falls.take(plan.row_read_at).prod(axis=0)
            per = np.where(d > 0, s // np.maximum(d, 1), 0)
        n = plan.program.weights(memo.pools, memo.size)
        contrib = per[plan.leaf_row] * plan.leaf_mult * n[plan.leaf_comp]
        out[plan.leaf_cols] += np.add.reduceat(contrib, plan.leaf_starts)
        out[plan.rest_cols] -= np.add.reduceat(contrib[plan.rest_order], plan.rest_starts)  # each row's rest
    return out


__all__ = [
    "SHOES",
    "SuitsUnknownError",
    "column_counts",
    "counted",
    "denominator",
    "one_shot",
    "record_counts",
]
