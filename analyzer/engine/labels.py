"""A table's label part on many shoes at once, exact in int64 (numpy imported here).

The label part of a compiled table (:mod:`analyzer.engine.table`) counts, per leaf, (S / D(R))
x N(leaf) sequences for the leaf's column and takes them back from its row's rest column.  What
a bet's EV needs is less: the count per *pay class* (columns that pay alike), so a leaf whose
column pays what its row's rest pays adds and takes back the same pay and is dropped.  The rest
is evaluated for a chunk of shoes with exact int64 arithmetic (every count is a number of
ordered card sequences, at most N!/(N-6)! < 2**63 for a shoe of at most 1,448 cards):

* S / D(R) per row: for a row read whole (every dealt card read: its one composition is its
  read values) it is the tally times the padding (:class:`_ByCards`: the tallies go into one
  coefficient per leaf, and the padding multiplies the class sums of the rows of k cards);
  for a first-four table (nothing read past the first four cards, nothing else read) it is
  n_R x falling(N - r, 6 - r), the r read cards' orderings times every draw of the others (the
  walk leaves those free); otherwise the row's value weights summed and divided by D(R),
  exactly;
* N(leaf): the vectorised weight algebra (:class:`~analyzer.engine.algebra.VectorPlan`);
* their products, summed per pay class (:class:`Segments`).

Used by :mod:`analyzer.engine.batch` (exact EVs of many shoes) and :mod:`analyzer.engine.kernel`
(the shoe walk's EVs, where these exact counts join the float part under its error bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from analyzer.engine.algebra import VectorPlan
from analyzer.engine.table import BetTable, first_four_orderings
from analyzer.engine.values import (
    COMPOSITIONS,
    counts_of,
    weights_of,
)


class Segments:
    """Sums of the rows of (leaves, shoes) arrays by each leaf's class (exact int64)."""

    def __init__(self, classes: Any) -> None:
        self.order = np.argsort(classes, kind="stable")
        ranked = classes[self.order]
        self.starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
        self.cols = ranked[self.starts]
        self.sorted = bool(np.all(self.order == np.arange(len(self.order))))
        self.one = int(self.cols[0]) if len(self.cols) == 1 else None  # a single class

    def add(self, out: Any, contrib: Any, sign: int = 1, scale: Any | None = None) -> None:
        """Add (``sign`` 1) or take back the class sums of ``contrib`` (leaves, shoes) into
        ``out`` (shoes, classes), each shoe's sums times ``scale`` (shoes,) when given."""
        if self.one is not None:
            sums = contrib.sum(axis=0)
            col: Any = self.one
        else:
            sums = np.add.reduceat(contrib if self.sorted else contrib[self.order], self.starts, axis=0).T
            col = self.cols
        if scale is not None:
            sums = sums * (scale if self.one is not None else scale[:, None])
        if sign > 0:
            out[:, col] += sums
        else:
            out[:, col] -= sums


class LabelPart:
    """A table's label part reduced to a bet's pay classes (see the module docstring).

    ``classes[c]`` is the pay class of column ``c``; the counts go to ``offset + class``.
    ``empty``: no leaf changes a pay (nothing to evaluate)."""

    def __init__(self, table: BetTable, classes: Sequence[int], offset: int = 0) -> None:
        cls = np.asarray(classes, dtype=np.intp)
        leaf_row = np.asarray(table.leaf_row, dtype=np.intp)
        plus = cls[np.asarray(table.leaf_col, dtype=np.intp)] if len(leaf_row) else leaf_row
        minus = cls[np.asarray(table.row_rest, dtype=np.intp)][leaf_row] if len(leaf_row) else leaf_row
        keep = plus != minus
        self.empty = not bool(keep.any())
        self.width = 0
        if self.empty:
            return
        used = np.unique(leaf_row[keep])  # the rows these leaves need, renumbered
        self.leaf_row = np.searchsorted(used, leaf_row[keep])
        self.leaf_comp = np.asarray(table.leaf_comp, dtype=np.intp)[keep]
        self.leaf_mult = np.asarray(table.leaf_mult, dtype=np.int64)[keep]
        self.plus = Segments(offset + plus[keep])
        self.minus = Segments(offset + minus[keep])
        starts = np.asarray(table.row_start, dtype=np.intp)
        first = starts[used]
        single = bool(np.all(starts[used + 1] - first == 1))
        whole = single and all(
            COMPOSITIONS[table.row_comp[j]][1] == table.row_read[r] for r, j in zip(used, first, strict=True)
        )
        if whole:
            self.kind = "whole"
            row_tally = np.asarray(table.row_tally, dtype=np.int64)[first]
            row_cards = np.asarray([COMPOSITIONS[table.row_comp[j]][0] for j in first], dtype=np.intp)
            self.by_cards = _ByCards(
                self.leaf_comp,
                row_tally[self.leaf_row] * self.leaf_mult,
                row_cards[self.leaf_row],
                offset + plus[keep],
                offset + minus[keep],
            )
        elif table.first_four:
            self.kind = "first-four"
            self.orderings, self.read_cards = orderings(table, used)
        else:
            self.kind = "rows"
            lengths = starts[used + 1] - first
            take = np.concatenate([np.arange(starts[r], starts[r + 1]) for r in used])
            self.row_comp = np.asarray(table.row_comp, dtype=np.intp)[take]
            self.row_tally = np.asarray(table.row_tally, dtype=np.int64)[take]
            self.row_starts = np.r_[0, np.cumsum(lengths)[:-1]]
            mult = np.asarray([counts_of(table.row_read[r]) for r in used], dtype=np.int64)
            self.row_mult = mult.reshape(-1, 10)
            self.comps, self.comp_at = np.unique(self.row_comp, return_inverse=True)
        self.program = table.program
        self.plan = VectorPlan(table.program, False, False)
        every = np.arange(len(self.leaf_row))
        self.leaf_per_row = bool(np.array_equal(self.leaf_row, every))  # leaf i is row i
        comps = len(table.program.cards)
        self.leaf_per_comp = comps == len(every) and bool(np.array_equal(self.leaf_comp, every))
        self.multiplied = bool(np.any(self.leaf_mult != 1))
        self.width = len(used) * 12 + 2 * len(table.program.cards) + 3 * len(self.leaf_row)

    def per_row(self, falls: Any, pads: Any, sizes: Any, weights: Any | None = None) -> Any:
        """(rows, shoes) int64: S / D(R) of each kept row of a first-four part or one of rows
        (a part read whole is counted by :class:`_ByCards`, its S / D(R) the tally times the
        padding).  ``falls`` (shoes, 10, 7) and ``pads`` (shoes, 7) from
        :mod:`analyzer.engine.values`; ``weights`` (shoes, compositions, int64 or exact
        float64), when already computed, saves computing the rows' own."""
        if self.kind == "first-four":  # n_R x falling(N - r, 6 - r), the padding of r cards
            return self.orderings[:, None] * pads[:, self.read_cards].T
        if weights is None:
            w = weights_of(falls, pads, self.comps)[:, self.comp_at]
        else:
            w = weights[:, self.row_comp].astype(np.int64, copy=False)
        s = np.add.reduceat(w * self.row_tally, self.row_starts, axis=1)
        d = np.ones_like(s)
        for v in range(10):
            d *= falls[:, v, :][:, self.row_mult[:, v]]
        return np.where(d > 0, s // np.maximum(d, 1), 0).T

    def add(
        self,
        out: Any,
        falls: Any,
        pads: Any,
        pools: Any,
        sizes: Sequence[int],
        weights: Any | None = None,
        n: Any | None = None,
    ) -> None:
        """Add the label part's counts per pay class of a chunk of shoes to ``out`` (shoes,
        classes); ``pools`` (pools, shoes) the shoes' pool sizes; ``n`` the program's weights
        (compositions, shoes), when already computed."""
        if n is None:
            n = self.plan.weights_many(pools, sizes)  # (compositions, shoes)
        if self.kind == "whole":
            self.by_cards.add(out, pads, n)
            return
        per = self.per_row(falls, pads, sizes, weights)
        contrib = per if self.leaf_per_row else per[self.leaf_row]
        contrib = contrib * (n if self.leaf_per_comp else n[self.leaf_comp])
        if self.multiplied:
            contrib *= self.leaf_mult[:, None]  # (leaves, shoes)
        self.plus.add(out, contrib)
        self.minus.add(out, contrib, -1)


class _ByCards:
    """The leaves of a label part whose rows are read whole, grouped by their row's cards k
    (4, 5 or 6).  A leaf counts padding(k) x (row tally x leaf multiplicity) x N(leaf)
    sequences: the constant is one coefficient per leaf, and the padding, the same for every
    leaf of a group on a shoe, multiplies the group's class sums rather than each leaf.  Each
    group's leaves run in the order of their added class (no reordering for those sums) and,
    when their compositions are consecutive, take N as a slice."""

    def __init__(self, comp: Any, coef: Any, cards: Any, plus: Any, minus: Any) -> None:
        self.groups: list[tuple[int, Any, tuple[int, int] | None, Any, Segments, Segments]] = []
        for k in np.unique(cards):
            idx = np.flatnonzero(cards == k)
            idx = idx[np.argsort(plus[idx], kind="stable")]
            at = comp[idx]
            consecutive = np.array_equal(at, at[0] + np.arange(len(at)))
            span = (int(at[0]), int(at[0]) + len(at)) if consecutive else None
            c = None if np.all(coef[idx] == 1) else coef[idx][:, None]
            self.groups.append((int(k), at, span, c, Segments(plus[idx]), Segments(minus[idx])))

    def add(self, out: Any, pads: Any, n: Any) -> None:
        """Add the groups' counts per class to ``out`` (shoes, classes); ``pads`` (shoes, 7),
        ``n`` the program's weights (compositions, shoes)."""
        for k, at, span, coef, plus, minus in self.groups:
            x = n[span[0] : span[1]] if span is not None else n.take(at, axis=0)
            if coef is not None:
                x = x * coef
            scale = pads[:, k]
            if plus.one is not None and minus.one is not None:  # one sum serves both
                sums = x.sum(axis=0) * scale
                out[:, plus.one] += sums
                out[:, minus.one] -= sums
            else:
                plus.add(out, x, 1, scale)
                minus.add(out, x, -1, scale)


def orderings(table: BetTable, rows: Any) -> tuple[Any, Any]:
    """Per row of a first-four table (of ``rows``): n_R and r as int64 arrays
    (:func:`~analyzer.engine.table.first_four_orderings`)."""
    pairs = first_four_orderings(table, [int(r) for r in rows])
    return (
        np.asarray([n for n, _ in pairs], dtype=np.int64).reshape(-1),
        np.asarray([r for _, r in pairs], dtype=np.int64).reshape(-1),
    )
