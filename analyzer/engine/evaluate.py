"""Evaluate compiled tables on one shoe: the exact count of sequences ending in each column.

Two implementations of one definition (:mod:`analyzer.engine.table`): Python integers (exact at
any size; no numpy import, for one-shot commands) and numpy int64 (used when every count of the
shoe fits int64: N!/(N-6)! < 2**63, i.e. at most 1,448 cards).  Which one runs is the policy of
:func:`column_counts`: numpy unless the caller asked for :func:`one_shot` evaluation or the shoe
is too large for int64.  Where the compiled kernel runs (:mod:`analyzer.engine.native`: built,
not switched off, the shoe within its bound) it evaluates instead, and gives the same counts in
the same form: an int64 array where numpy would, else a list of Python integers.

A shoe's value weights, and each table's counts on it, are kept for the last few shoes
(:data:`SHOES`), so that pricing several bets on one shoe, one :func:`~analyzer.engine.pricing.price`
call at a time, evaluates each table once.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import sys
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from operator import is_, itemgetter, mul
from typing import Any

from analyzer.core.shoe import MAX_CARDS, Shoe
from analyzer.engine import native
from analyzer.engine.algebra import (
    ShoeCounts,
    SuitsUnknownError,
    VectorPlan,
    concatenate,
    evaluate_scalar,
    fits_int64,
    pool_sizes_vector,
)
from analyzer.engine.table import BetTable
from analyzer.engine.values import (
    COMPOSITIONS,
    counts_of,
    falling,
    falling_table,
    flat_falls,
    read_weight,
    weights,
    weights_vector,
)

#: Shoes whose weights and table counts are kept (most recent first out).
SHOES = 8
_LOCK = threading.Lock()
#: Within one_shot(): a context variable, so each thread and each asyncio task has its own.
_ONE_SHOT: contextvars.ContextVar[bool] = contextvars.ContextVar("one_shot", default=False)


@contextlib.contextmanager
def one_shot() -> Iterator[None]:
    """Within this block, evaluate with Python integers (no numpy import): for a command that
    prices one shoe once, where importing numpy would cost more than it saves.  The setting
    is the calling thread's (or asyncio task's) own: blocks in others neither see nor undo it."""
    token = _ONE_SHOT.set(True)
    try:
        yield
    finally:
        _ONE_SHOT.reset(token)


@functools.lru_cache(maxsize=4096)  # a live shoe asks for each size in turn, a batch for a few
def denominator(size: int) -> int:
    """N!/(N-K)!, K = min(N, 6): the number of ordered K-card sequences of the shoe."""
    return falling(size, min(size, MAX_CARDS))


class _Shoe:
    """What one shoe's evaluations share: its counts as the algebra sees them, the value
    weights, and each table's counts (by table key)."""

    def __init__(self, shoe: Shoe, vector: bool) -> None:
        self.counts = ShoeCounts.of(shoe.counts, shoe.suited)
        self.shoe = shoe
        self.vector = vector
        self.size = shoe.size
        #: The compiled kernel's ring for this shoe (64 or 128 bits; 0: the pure path).
        self.kernel = native.tier(shoe.size)
        self._state: Any = None
        self.denominator = denominator(shoe.size)
        self.tables: dict[str, Any] = {}
        #: The tables asked for on this shoe, in order; the set the shoe before it asked for;
        #: and the tables this shoe expects, evaluated together on its first miss among them:
        #: those of the shoe before when the two shoes before asked for the same set (a live
        #: shoe pricing the same bets coup after coup), else none.
        self.asked: dict[str, BetTable] = {}
        self.prior: frozenset[str] = frozenset()
        self.expected: tuple[BetTable, ...] = ()
        self.expected_ids: frozenset[int] = frozenset()  # (the tables above are held: ids unique)
        self._weights: Any = None
        self._falls: list[list[int]] | None = None
        self._flat_falls: Any = None
        self._pools: Any = None

    @property
    def values(self) -> tuple[int, ...]:
        """Cards per point value (the pure path's weights start from them)."""
        return self.shoe.point_counts

    @property
    def falls(self) -> list[list[int]]:
        if self._falls is None:
            self._falls = falling_table(self.values)
        return self._falls

    @property
    def flat_falls(self) -> Any:
        """:attr:`falls` as one int64 array, row after row, and a 1 after them."""
        if self._flat_falls is None:
            self._flat_falls = flat_falls(self.falls)
        return self._flat_falls

    @property
    def weights(self) -> Any:
        if self._weights is None:
            if self.vector:
                self._weights = weights_vector(self.values, self.flat_falls)
            else:
                self._weights = weights(self.values)
        return self._weights

    @property
    def pools(self) -> Any:
        if self._pools is None:
            self._pools = pool_sizes_vector(self.counts)
        return self._pools

    @property
    def state(self) -> Any:
        """The compiled kernel's view of the shoe (:func:`~analyzer.engine.native.shoe_state`)."""
        if self._state is None:
            self._state = native.shoe_state(self.counts, self.kernel)
        return self._state


_SHOES: OrderedDict[tuple[object, ...], _Shoe] = OrderedDict()


#: The last shoe object priced and its memo: a shoe is immutable, so pricing several bets on
#: it one call at a time finds its memo without hashing its counts.
_LAST: list[tuple[Shoe, bool, _Shoe]] = []


def _memo(shoe: Shoe) -> _Shoe:
    vector = not _ONE_SHOT.get() and fits_int64(shoe.size)
    last = _LAST[0] if _LAST else None
    if last is not None and last[0] is shoe and last[1] == vector:
        return last[2]
    key = (shoe.counts, shoe.suited, vector)
    with _LOCK:
        hit = _SHOES.get(key)
        if hit is None:
            hit = _SHOES[key] = _Shoe(shoe, vector)
            if last is not None and last[1] == vector:
                _expect(hit, last[2])
            if len(_SHOES) > SHOES:
                _SHOES.popitem(last=False)
        else:
            _SHOES.move_to_end(key)
        _LAST[:] = [(shoe, vector, hit)]
        return hit


def _expect(memo: _Shoe, before: _Shoe) -> None:
    """Set what a new shoe's ``memo`` expects from the shoe ``before`` it.  Only a set of
    tables asked for on two shoes in a row is evaluated together: bets that change from shoe
    to shoe, or two live shoes priced in turn, would build a plan for nothing."""
    asked = frozenset(before.asked)
    memo.prior = asked
    if asked == before.prior and len(asked) > 1:
        memo.expected = tuple(before.asked.values())
        memo.expected_ids = frozenset(map(id, memo.expected))


def column_counts(table: BetTable, shoe: Shoe) -> tuple[Any, int]:
    """For each column of ``table``, the number of ordered K-card sequences (K = min(N, 6)) of
    the shoe's physical cards whose coup ends in it; and N!/(N-K)!.  The counts are a list of
    Python integers, or an int64 numpy array when every count fits int64.

    Raises:
        SuitsUnknownError: the table needs suits and the shoe's suits are unknown.
    """
    counts, _, d = counted(table, shoe)
    return counts, d


def counted(table: BetTable, shoe: Shoe) -> tuple[Any, int, int]:
    """:func:`column_counts` with the sum of the counts between them (N!/(N-K)! less the
    sequences of a void coup): (counts, their sum, N!/(N-K)!), kept per shoe and table."""
    memo = _memo(shoe)
    if memo.counts.cards is None and table.needs_suits:
        raise SuitsUnknownError
    key = table.key
    if key not in memo.asked and len(memo.asked) < TOGETHER:
        memo.asked[key] = table
    hit = memo.tables.get(key)
    if hit is None or hit[0] is not table:
        if len(memo.tables) >= 512:
            memo.tables.clear()
        if memo.vector and id(table) in memo.expected_ids:
            _evaluate_together(table, memo)
            hit = memo.tables[key]
        else:
            hit = memo.tables[key] = (table, *_alone(table, memo))
    return hit[1], hit[2], memo.denominator


#: At most this many tables, of at most this many entries in all, are evaluated together.
TOGETHER = 64
TOGETHER_ENTRIES = 1_000_000


def _evaluate_together(table: BetTable, memo: _Shoe) -> None:
    """Evaluate ``table`` and the other tables this shoe expects (those not yet evaluated on
    it, that it can price, within :data:`TOGETHER_ENTRIES`) as one plan; keep each one's
    counts.  The group is in table-key order, so the same set makes the same plan whatever
    order its bets are asked in.  ``table`` left out of the group (by the size limit), or a
    group that fails, leaves ``table`` to be evaluated alone: a table another bet asked for
    never breaks this one's pricing (``table`` raises its own error if it is the broken one)."""
    suits = memo.counts.cards is not None
    if memo.tables:  # some evaluated already: the group is this shoe's own
        group, seen = _group(memo.expected, memo.tables, suits)
    else:  # a shoe's first evaluation: the group of the shoes before (the same tables) again
        key = (*map(id, memo.expected), suits, TOGETHER_ENTRIES)
        hit = _GROUPED.get(key)
        if hit is None or not all(map(is_, hit[0], memo.expected)):
            if len(_GROUPED) >= GROUPS * 4:
                _GROUPED.clear()
            hit = _GROUPED[key] = (memo.expected, *_group(memo.expected, {}, suits))
        _, group, seen = hit
    memo.expected = ()  # one group a shoe: a table left out is evaluated alone
    memo.expected_ids = frozenset()
    group_key = _plan_key(group, memo.counts.suits_alike, memo.counts.tens_alike)
    if table.key in seen and len(group) > 1 and group_key not in _BROKEN:
        try:
            plan = _plan(tuple(group), memo.counts.suits_alike, memo.counts.tens_alike)
            together = plan.counts(memo)
        except Exception:  # any failure of the group: see the docstring
            with _LOCK:  # not tried again on any shoe
                if len(_BROKEN) >= GROUPS * 16:
                    _BROKEN.clear()
                _BROKEN[group_key] = tuple(group)  # its tables held: their ids are not reused
        else:
            for t, (counts, total) in zip(group, together, strict=True):
                memo.tables[t.key] = (t, counts, total)
            return
    memo.tables[table.key] = (table, *_alone(table, memo))


def _group(
    expected: tuple[BetTable, ...], evaluated: dict[str, Any], suits: bool
) -> tuple[list[BetTable], frozenset[str]]:
    """The tables of ``expected`` a shoe evaluates together, in key order, and their keys:
    those not ``evaluated`` already, that the shoe can price (``suits``: its suits are known),
    within :data:`TOGETHER_ENTRIES`."""
    group: list[BetTable] = []
    seen: set[str] = set()
    entries = 0
    for t in sorted(expected, key=lambda t: t.key):
        done = t.key in evaluated and evaluated[t.key][0] is t
        if done or t.key in seen or (t.needs_suits and not suits):
            continue
        if entries + t.size > TOGETHER_ENTRIES:
            continue
        seen.add(t.key)
        group.append(t)
        entries += t.size
    return group, frozenset(seen)


#: The groups of the last few sets of expected tables, on a shoe's first evaluation (by the
#: tables' ids, in order, and whether the shoe's suits are known; the tables held).
_GROUPED: dict[tuple[object, ...], tuple[tuple[BetTable, ...], list[BetTable], frozenset[str]]] = {}


def _alone(table: BetTable, memo: _Shoe) -> tuple[Any, int]:
    """The counts of ``table`` evaluated by itself, and their sum."""
    if memo.kernel:
        got = _plan((table,), memo.counts.suits_alike, memo.counts.tens_alike).native_counts(memo)
        if got is not None:
            return got[0]
    counts = _vector_counts(table, memo) if memo.vector else _scalar_counts(table, memo)
    return counts, sum(counts) if isinstance(counts, list) else int(counts.sum())


def record_counts(table: BetTable, shoe: Shoe) -> tuple[list[int], int]:
    """:func:`column_counts` as a list of Python integers."""
    counts, d = column_counts(table, shoe)
    return (counts if isinstance(counts, list) else counts.tolist()), d


def counts_within(table: BetTable, shoe: Shoe, physical: int) -> list[int]:
    """:func:`record_counts` when only ``physical`` of the shoe's cards can be dealt (the rest
    were burned unseen): the compositions that need more cards weigh 0 (their coups are void),
    in Python integers."""

    memo = _Shoe(shoe, vector=False)
    memo._weights = [w if k <= physical else 0 for (k, _), w in zip(COMPOSITIONS, memo.weights, strict=True)]
    return _scalar_counts(table, memo)


#: A label part of at most this many leaves is evaluated with Python integers even when numpy
#: evaluates the rest of the table (one shoe: numpy's per-call cost would dominate).
SMALL = 64


def _scalar_counts(table: BetTable, memo: _Shoe) -> list[int]:
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


def _scalar_labels(table: BetTable, memo: _Shoe, w: Any, per: list[int] | None = None) -> list[int]:
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


class _TablesPlan:
    """How one shoe evaluates a set of tables (one, or several together): index arrays for
    numpy, or the compiled kernel's plan (built once per set of tables and symmetry class of
    the shoe; :class:`analyzer.engine.batch._BetsPlan` plans many shoes, a bet's pay classes).

    Several tables are laid side by side: their columns one after another, their value parts
    one gather and one segment sum, their rows' S / D(R) two computations (first-four rows, the
    others), their label parts one program (:func:`~analyzer.engine.algebra.concatenate`), so a
    shoe's tables cost the numpy calls of one.

    A row's weight S / D(R) is computed here for one shoe (1-D, every row of every table) and by
    :meth:`analyzer.engine.labels.LabelPart.per_row` for a chunk of shoes (2-D, only the rows a
    bet's pay classes need, read whole rows counted apart): the same formula over different
    shapes and rows; one shared routine would add numpy calls to the one-shoe path, the hot one
    of a live shoe.  What they share is computed once: n_R of a first-four row
    (:func:`~analyzer.engine.table.first_four_orderings`, the compiled kernel's too) and the
    paddings (:mod:`analyzer.engine.values`).  Both are held to the same counts
    (``tests/test_batch.py``: a batch equals pricing each shoe).
    """

    def __init__(self, tables: tuple[BetTable, ...], suits_alike: bool, tens_alike: bool) -> None:
        self.tables = tables
        self.suits_alike = suits_alike
        self.tens_alike = tens_alike
        self.col_start = [0]
        for t in tables:
            self.col_start.append(self.col_start[-1] + len(t.columns))
        #: The compiled kernel's plan (None: not built yet; False: the kernel cannot run it),
        #: and whether the numpy index arrays below are built: each is built on first use.
        self._native: Any = None
        self._arrays = False

    def native_counts(self, memo: _Shoe) -> list[tuple[Any, int]] | None:
        """:meth:`counts` by the compiled kernel, in the form the pure path gives (int64 arrays
        where ``memo`` is a numpy one, else lists of Python integers); ``None`` when the kernel
        cannot evaluate this plan."""
        kernel = self._native
        if kernel is None:
            kernel = self._native = native.plan(self.tables, self.suits_alike, self.tens_alike) or False
        if kernel is False:
            return None
        at = self.col_start
        if memo.vector:
            import numpy as np

            out = np.empty(at[-1], dtype=np.int64)
            _, totals = kernel.counts(memo.state, out)
            return [(out[at[i] : at[i + 1]], totals[i]) for i in range(len(self.tables))]
        counts, totals = kernel.counts(memo.state)
        return [(counts[at[i] : at[i + 1]], totals[i]) for i in range(len(self.tables))]

    def _build_arrays(self) -> None:
        import numpy as np

        tables, suits_alike, tens_alike = self.tables, self.suits_alike, self.tens_alike

        def arr(values: Any) -> Any:
            return np.asarray(values, dtype=np.int64)

        def runs(ranked: Any) -> tuple[Any, Any]:  # where each run of equal values starts, its value
            if not len(ranked):
                return ranked, ranked
            starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
            return starts, ranked[starts]

        at = self.col_start
        self.columns_each = all(len(t.columns) for t in tables)  # then a segment sum totals them
        self.value_comp = arr([c for t in tables for c in t.value_comp])
        self.value_tally = arr([x for t in tables for x in t.value_tally])
        value_col = [c + at[i] for i, t in enumerate(tables) for c in t.value_col]
        self.value_starts, self.value_cols = runs(arr(value_col))

        labelled = [i for i, t in enumerate(tables) if t.row_read]
        # rows: the first-four tables' (S / D(R) = n_R falling(N - r, 6 - r), no weights) first
        ordered = [i for i in labelled if tables[i].first_four]
        summed = [i for i in labelled if not tables[i].first_four]
        row_at: dict[int, int] = {}
        rows = 0
        for i in (*ordered, *summed):
            row_at[i] = rows
            rows += len(tables[i].row_read)
        self.ordered_rows = sum(len(tables[i].row_read) for i in ordered)
        if ordered:
            from analyzer.engine.labels import orderings  # lazy: numpy, not needed in one shot

            parts = [orderings(tables[i], range(len(tables[i].row_read))) for i in ordered]
            self.orderings = np.concatenate([n for n, _ in parts])
            self.read_cards = np.concatenate([r for _, r in parts])
        self.row_comp = arr([c for i in summed for c in tables[i].row_comp])
        self.row_tally = arr([x for i in summed for x in tables[i].row_tally])
        row_starts: list[int] = []
        read: list[list[int]] = []  # per summed row: D(R) as entries of the flat falls table
        offset = 0  # of each table's row entries in row_comp
        for i in summed:
            t = tables[i]
            row_starts.extend(offset + x for x in t.row_start[:-1])
            offset += len(t.row_comp)
            for coded in t.row_read:
                read.append([v * (MAX_CARDS + 1) + k for v, k in enumerate(counts_of(coded)) if k])
        self.row_starts = arr(row_starts)
        width = max((len(r) for r in read), default=0) or 1
        self.row_read_at = np.full((width, len(read)), 10 * (MAX_CARDS + 1), dtype=np.intp)  # 70: a 1
        for j, r in enumerate(read):
            self.row_read_at[: len(r), j] = r

        # leaves, sorted by column (each table's are, and its columns follow the last table's)
        self.program: VectorPlan | None = None
        if labelled:
            program, comp_at = concatenate([tables[i].program for i in labelled])
            self.program = VectorPlan(program, suits_alike, tens_alike)
            leaf_row: list[int] = []
            leaf_comp: list[int] = []
            leaf_col: list[int] = []
            leaf_mult: list[int] = []
            rest: list[int] = []
            for i, c0 in zip(labelled, comp_at, strict=True):
                t, r0 = tables[i], row_at[i]
                leaf_row.extend(r + r0 for r in t.leaf_row)
                leaf_comp.extend(c + c0 for c in t.leaf_comp)
                leaf_col.extend(c + at[i] for c in t.leaf_col)
                leaf_mult.extend(t.leaf_mult)
                rest.extend(t.row_rest[r] + at[i] for r in t.leaf_row)
            self.leaf_row, self.leaf_comp, self.leaf_mult = arr(leaf_row), arr(leaf_comp), arr(leaf_mult)
            self.leaf_starts, self.leaf_cols = runs(arr(leaf_col))
            ranked = arr(rest)
            self.rest_order = np.argsort(ranked, kind="stable")
            self.rest_starts, self.rest_cols = runs(ranked[self.rest_order])
        # one table with a few leaves: its labels in Python integers (numpy's per-call cost
        # would dominate)
        self.small = len(tables) == 1 and bool(labelled) and len(tables[0].leaf_row) <= SMALL
        if self.small and ordered:
            self.orderings_list = list(zip(self.orderings.tolist(), self.read_cards.tolist(), strict=True))
        self._arrays = True

    def counts(self, memo: _Shoe) -> list[tuple[Any, int]]:
        """Each table's counts on the shoe of ``memo`` (int64 arrays, views of one) and their
        sum: by the compiled kernel where it runs, else by numpy."""
        if memo.kernel:
            got = self.native_counts(memo)
            if got is not None:
                return got
        import numpy as np

        if not self._arrays:
            self._build_arrays()
        w = memo.weights
        out = np.zeros(self.col_start[-1], dtype=np.int64)
        if len(self.value_comp):
            products = self.value_tally * w.take(self.value_comp)  # take: quicker than [ ]
            out[self.value_cols] = np.add.reduceat(products, self.value_starts)
        if self.small:
            self._scalar_labels(memo, out)
        elif self.program is not None:
            self._labels(memo, out)
        at = self.col_start
        if self.columns_each:
            totals = np.add.reduceat(out, at[:-1]).tolist()
        else:
            totals = [int(out[at[i] : at[i + 1]].sum()) for i in range(len(self.tables))]
        return [(out[at[i] : at[i + 1]], totals[i]) for i in range(len(self.tables))]

    def _labels(self, memo: _Shoe, out: Any) -> None:
        import numpy as np

        per = []
        if self.ordered_rows:  # S / D(R) = n_R falling(N - r, 6 - r): no sum over the rows
            n_size = memo.size
            rest = [falling(n_size - r, MAX_CARDS - r) for r in range(MAX_CARDS + 1)]
            per.append(self.orderings * np.asarray(rest, dtype=np.int64).take(self.read_cards))
        if len(self.row_starts):
            s = np.add.reduceat(self.row_tally * memo.weights.take(self.row_comp), self.row_starts)
            d = memo.flat_falls.take(self.row_read_at).prod(axis=0)
            per.append(np.where(d > 0, s // np.maximum(d, 1), 0))
        rows = per[0] if len(per) == 1 else np.concatenate(per)
        assert self.program is not None
        n = self.program.weights(memo.pools, memo.size)
        contrib = rows.take(self.leaf_row) * self.leaf_mult * n.take(self.leaf_comp)
        out[self.leaf_cols] += np.add.reduceat(contrib, self.leaf_starts)
        # each row's rest column gives back its row's leaves
        out[self.rest_cols] -= np.add.reduceat(contrib.take(self.rest_order), self.rest_starts)

    def _scalar_labels(self, memo: _Shoe, out: Any) -> None:
        table = self.tables[0]
        if self.ordered_rows:
            n_size = memo.size
            rows = [n * falling(n_size - r, MAX_CARDS - r) for n, r in self.orderings_list]
            labels = _scalar_labels(table, memo, {}, rows)
        else:
            comps = sorted(set(table.row_comp))
            needed = dict(zip(comps, memo.weights[comps].tolist(), strict=True))
            labels = _scalar_labels(table, memo, needed)
        for c, x in enumerate(labels):
            if x:
                out[c] += x


_PLANS: OrderedDict[tuple[object, ...], _TablesPlan] = OrderedDict()
_GROUPS: OrderedDict[tuple[object, ...], _TablesPlan] = OrderedDict()
#: Groups whose evaluation together failed (their tables are evaluated alone from then on).
_BROKEN: dict[tuple[object, ...], tuple[BetTable, ...]] = {}
#: Plans kept: of single tables, and of sets of tables evaluated together (each a copy of its
#: tables' index arrays, at most :data:`TOGETHER_ENTRIES` entries: a few are kept).
PLANS = 512
GROUPS = 4


def _plan_key(tables: Sequence[BetTable], suits_alike: bool, tens_alike: bool) -> tuple[object, ...]:
    """The key of the plan of ``tables`` (in this order) under these symmetries."""
    return (*map(id, tables), suits_alike, tens_alike)


def _plan(tables: tuple[BetTable, ...], suits_alike: bool, tens_alike: bool) -> _TablesPlan:
    key = _plan_key(tables, suits_alike, tens_alike)
    kept, limit = (_PLANS, PLANS) if len(tables) == 1 else (_GROUPS, GROUPS)
    with _LOCK:
        hit = kept.get(key)
        if hit is not None and all(map(is_, hit.tables, tables)):
            kept.move_to_end(key)
            return hit
    plan = _TablesPlan(tables, suits_alike, tens_alike)
    with _LOCK:
        kept[key] = plan
        if len(kept) > limit:
            kept.popitem(last=False)
    return plan


def _vector_counts(table: BetTable, memo: _Shoe) -> Any:
    return _plan((table,), memo.counts.suits_alike, memo.counts.tens_alike).counts(memo)[0][0]


def six_deck_counts(table: BetTable) -> list[int]:
    """The table's counts per column on six decks, six copies of every card (exact: ordered
    draws of six cards of 312, summing to 312!/306!)."""
    # with numpy already imported (most commands), its evaluation is the quicker one
    memo = _Shoe(Shoe.from_suited_counts([6] * 52), vector="numpy" in sys.modules)
    counts = _vector_counts(table, memo) if memo.vector else _scalar_counts(table, memo)
    return counts if isinstance(counts, list) else list(counts.tolist())


def sound(table: BetTable, expected: Sequence[int]) -> bool:
    """Evaluated on six decks, the table's counts are non-negative, sum to 312!/306!, and equal
    ``expected``, the counts its file recorded when it was written (:func:`six_deck_counts`).

    Six copies of every card let every composition (at most six cards) be dealt, so every
    tally weighs there; on one deck a composition holding two identical cards weighs 0, and a
    wrong tally there would pass unseen.  The sum alone cannot see a wrong leaf (a leaf's count
    is added to its event and taken back from its row's rest, so the sum holds whatever it is):
    the recorded counts can, unless the file was forged by someone who may write the cache
    folder, which is refused when other users may."""

    values = six_deck_counts(table)
    return all(c >= 0 for c in values) and sum(values) == falling(312, 6) and values == list(expected)


__all__ = [
    "SHOES",
    "SuitsUnknownError",
    "column_counts",
    "counted",
    "denominator",
    "one_shot",
    "record_counts",
    "six_deck_counts",
    "sound",
]
