"""Exact EVs of bets on many shoes at once (numpy imported here, on first use).

Shoes are taken in chunks sized by a memory budget (:data:`MEMORY_BUDGET`), so a batch's memory
does not grow with the number of shoes beyond its result.  For each chunk:

* the value weights of every shoe (:mod:`analyzer.engine.values`), once for all bets;
* every bet's value part, for all bets at once: one matrix product, weights (shoes x value
  compositions) times the value tallies (compositions x pay classes; one class of each bet is
  derived from the others, see :class:`_BetsPlan`);
* for a bet that reads cards, its label part (:mod:`analyzer.engine.table`): its rows' counts
  S (one more matrix product), S // D(R) per row, the leaves' label weights (the vectorised
  weight algebra, :meth:`~analyzer.engine.algebra.VectorPlan.weights_many`) and their sums
  per event.

**The compiled kernel.**  Where it runs (:mod:`analyzer.engine.native`, ``PUNTO_BANCO_KERNEL``),
the value weights and the label parts of a chunk are counted in C, shoe by shoe
(:func:`~analyzer.engine.native.batch_plan`: every bet's label part as one plan whose columns
are the pay classes), in the integers modulo 2**64 as numpy's int64 counts them, under the same
bound; the value part stays the float64 product.  The numpy path is the reference the tests
hold it to, and the fallback (``PUNTO_BANCO_KERNEL=off``, no compiler at install).

Every event count is a number of ordered card sequences, at most N!/(N-6)!, and so is every
partial sum of a product above (the terms of a sum are counts of disjoint sets of sequences, of
one sign), so when that bound is below 2**53 (shoes of at most 458 cards) the float64 matrix
products (BLAS) are exact whatever their summation order, and below 2**63 (at most 1,448 cards)
the int64 arithmetic is; a shoe beyond, or under 6 cards, is priced alone with Python integers.
The EV numerator, sum of pays x counts, is then formed in Python integers: equal bit for bit to
pricing each shoe alone.

**One BLAS thread.**  The products of a step are small (64 shoes): a BLAS library's threads
spin waiting for work more than they share it (with OpenBLAS's default threads a batch cost 2 to
7 times the CPU time of one thread on a 2-core machine, whatever the environment said).  So
while a batch runs, the BLAS libraries loaded in the process use one thread
(:func:`one_blas_thread`, by threadpoolctl; restored afterwards).  Run batches in parallel by
processes (``punto-banco batch --workers``, a Dask cluster), not by BLAS threads.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from analyzer.bets.model import Bet
from analyzer.core.cards import RANK_POINTS
from analyzer.core.shoe import MAX_CARDS, MIN_CARDS, Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine import native
from analyzer.engine.algebra import Program, fits_int64, pool_sizes_many
from analyzer.engine.evaluate import denominator
from analyzer.engine.labels import LabelPart
from analyzer.engine.lookup import bet_table
from analyzer.engine.pricing import Pricer, Settlement, settlement, table_for, table_reads
from analyzer.engine.table import BetTable
from analyzer.engine.values import (
    COMPOSITIONS,
    falling_tables_array,
    paddings_array,
    weights_array,
)
from analyzer.errors import BetError, ShoeError

#: The most shoes per vectorised step: a step's arrays of 64 shoes stay in the CPU's caches
#: (measured: 512 shoes a step ran a fifth slower, benchmarks/bench_card_bets.py).
CHUNK = 64
#: Bytes a vectorised step may use (its arrays grow with the shoes in it and the tables'
#: sizes): the chunk of shoes is chosen to stay within it.
MEMORY_BUDGET = 256 * 1024 * 1024


@dataclass(frozen=True)
class BatchEV:
    """Exact EVs of several bets on many shoes.

    ``numerators[s][b] / (scales[b] * denominators[s])`` is the EV per unit staked of
    ``bets[b]`` on shoe ``s`` (``numerators`` is an (n, bets) numpy object array of Python
    ints); ``denominators[s]`` = N!/(N-K)! with K = min(N, 6).
    """

    bets: tuple[Bet, ...]
    numerators: npt.NDArray[Any]
    scales: tuple[int, ...]
    denominators: tuple[int, ...]

    def ev(self, shoe: int, bet: int) -> Fraction:
        """EV per unit staked of ``bets[bet]`` on shoe number ``shoe`` (exact).

        Raises:
            BetError: an index out of range.
        """
        n, m = len(self.denominators), len(self.bets)
        for name, i, size in (("shoe", shoe, n), ("bet", bet, m)):
            if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < size:
                raise BetError(f"bad {name} index {i!r}: use 0 to {size - 1}")
        return Fraction(int(self.numerators[shoe, bet]), self.scales[bet] * self.denominators[shoe])

    def evs(self) -> npt.NDArray[Any]:
        """All EVs as an (n, bets) object array of ``Fraction``."""
        rows, cols = len(self.denominators), len(self.bets)
        out = np.empty((rows, cols), dtype=object)
        for s in range(rows):
            for b in range(cols):
                out[s, b] = self.ev(s, b)
        return out


#: Counts at least this large are kept as Python ints: below it, the sums of up to 52 counts
#: (cards per rank, cards per shoe) fit int64.
_SMALL = 2**56


def _as_counts(shoes: Any) -> tuple[npt.NDArray[Any], npt.NDArray[Any] | None]:
    """(n, 13) rank counts and, when given, (n, 52) rank-and-suit counts: int64 arrays, or
    object arrays of Python ints when a count is too large for int64 sums."""
    if isinstance(shoes, Shoe):
        shoes = [shoes]
    if isinstance(shoes, list | tuple) and shoes and all(isinstance(s, Shoe) for s in shoes):
        rows = (
            [s.suited for s in shoes]
            if all(s.suited is not None for s in shoes)
            else [s.counts for s in shoes]
        )
        big = max(max(r) for r in rows if r is not None) >= _SMALL
        arr = np.asarray(rows, dtype=object if big else np.int64)
    else:
        if isinstance(shoes, np.ma.MaskedArray):
            raise ShoeError("bad batch of shoes: a masked array; give plain whole-number counts")
        try:
            raw = np.asarray(shoes)
        except (TypeError, ValueError) as exc:
            raise ShoeError(f"bad batch of shoes: {exc}; give whole-number counts per rank") from None
        if raw.dtype.kind in "bcUSV" or (
            raw.dtype.kind == "O"
            and not all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in raw.ravel())
        ):
            raise ShoeError(f"bad batch of shoes: counts of type {raw.dtype}; give whole numbers >= 0")
        if raw.dtype.kind == "f" and isinstance(shoes, list | tuple):
            exact = np.asarray(shoes, dtype=object)
            if all(isinstance(x, int) and not isinstance(x, bool) for x in exact.ravel()):
                raw = exact  # Python ints beyond int64 made numpy choose floats
        if raw.dtype.kind == "f":
            if raw.size and not all(float(x).is_integer() for x in raw.ravel()):
                raise ShoeError("shoe counts must be whole numbers >= 0")
            if raw.size and float(np.abs(raw).max()) >= 2**62:
                raise ShoeError("bad batch of shoes: float counts this large are not exact; give integers")
            raw = raw.astype(np.int64)
        if raw.dtype.kind in "Oiu":  # Python ints, or int64 / uint64 whose sums may overflow
            if raw.dtype.kind == "O":
                top = max((abs(int(x)) for x in raw.ravel()), default=0)
            else:
                top = max(int(raw.max(initial=0)), -int(raw.min(initial=0)))
            arr = raw.astype(object) if top >= _SMALL else raw.astype(np.int64)
        else:
            arr = raw.astype(np.int64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] not in (13, 52):
        raise ShoeError(
            f"batch shoes need shape (n, 13) rank counts or (n, 52) rank-and-suit counts, "
            f"got {tuple(np.shape(shoes))}"
        )
    negative = any(int(x) < 0 for x in arr.ravel()) if arr.dtype == object else bool((arr < 0).any())
    if negative:
        raise ShoeError("shoe counts must be whole numbers >= 0")
    if arr.shape[1] == 52:
        ranks = (
            np.asarray(
                [[sum(int(x) for x in row[4 * r : 4 * r + 4]) for r in range(13)] for row in arr],
                dtype=object,
            )
            if arr.dtype == object
            else arr.reshape(-1, 13, 4).sum(axis=2)
        )
        return ranks, arr
    return arr, None


def batch_ev(
    shoes: Any, bets: Iterable[Bet], *, chunk: int | None = None, tableau: Tableau = STANDARD
) -> BatchEV:
    """Exact EVs of ``bets`` on many shoes at once.

    Args:
        shoes: an (n, 13) array of rank counts (A, 2, ..., 9, 10, J, Q, K), an (n, 52) array of
            rank-and-suit counts (As, Ah, Ad, Ac, 2s, ...; needed by bets that read suits), or a
            list of :class:`~analyzer.core.shoe.Shoe`.
        bets: the bets.
        chunk: the most shoes per vectorised step (default: as many as :data:`MEMORY_BUDGET`
            allows, at most :data:`CHUNK`).
        tableau: the rules.

    Returns:
        :class:`BatchEV`, equal bit for bit to pricing each shoe alone
        (``price(bet, shoe).ev``); its numerators take n x bets integers, the only memory that
        grows with the number of shoes.

    Raises:
        ShoeError: a bad array (shape, negative or non-integer counts, a shoe under 4 cards).
        BetError: a bet that reads suits on rank counts; a bad ``chunk``; a card-level bet
            whose compile exceeds the budget.

    >>> from analyzer.engine.pricing import price
    >>> from analyzer.bets.catalogue import find_bet
    >>> banker = find_bet("banker")
    >>> r = batch_ev([[32] * 13, [31] + [32] * 12], [banker])
    >>> r.ev(1, 0) == price(banker, Shoe.standard(8).remove("A")).ev
    True
    """
    try:
        chosen = tuple(bets)
    except TypeError:
        raise BetError(f"bad bets {bets!r}: give a list of Bet objects") from None
    if not all(isinstance(b, Bet) for b in chosen):
        raise BetError("bad bets: give Bet objects (e.g. from find_bet or main_bets())")
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise BetError(f"bad chunk {chunk!r}: use a whole number of 1 or more shoes per step")
    cnt, suited = _as_counts(shoes)
    n = cnt.shape[0]
    sizes = (
        [int(x) for x in cnt.sum(axis=1)]
        if cnt.dtype != object
        else [sum(int(x) for x in row) for row in cnt]
    )
    if n and min(sizes) < MIN_CARDS:
        raise ShoeError(f"a shoe of {min(sizes)} cards cannot deal a coup: it needs at least {MIN_CARDS}")
    if suited is None and any(b.reads.needs_suits for b in chosen):
        raise BetError("bets that read suits need the suits of the cards: give (n, 52) rank-and-suit counts")
    numerators = np.zeros((n, len(chosen)), dtype=object)
    fast = [s for s in range(n) if sizes[s] >= MAX_CARDS and fits_int64(sizes[s])]
    plan = _plan(chosen, tableau, suited is not None) if fast else None
    scales = list(plan.scales) if plan is not None else [1] * len(chosen)
    if plan is not None:
        compiled = plan.kernel_plan()
        step = min(chunk or CHUNK, plan.chunk(compiled is not None))
        with one_blas_thread():
            _vectorised(plan, compiled, cnt, suited, fast, sizes, numerators, step)
    # short shoes (under 6 cards, whose coups can run out) and giant ones: exact Python integers
    fast_set = set(fast)
    for s in range(n):
        if s in fast_set:
            continue
        shoe = Shoe(
            tuple(int(x) for x in cnt[s]), None if suited is None else tuple(int(x) for x in suited[s])
        )
        for j, summary in enumerate(Pricer(shoe, tableau).summaries(chosen)):
            numerators[s, j] = summary.first
            scales[j] = summary.scale
    return BatchEV(chosen, numerators, tuple(scales), tuple(denominator(z) for z in sizes))


_LIMIT_LOCK = threading.Lock()
#: While batches run: the threadpoolctl limit in force, and how many batches run under it.
_LIMIT: dict[str, Any] = {"limit": None, "running": 0}


def _controller() -> ThreadpoolController:
    """The thread pools of the libraries loaded in this process now (numpy's BLAS among them;
    found afresh, 0.4 ms: a library loaded since, scipy's own BLAS, is limited too)."""
    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """While the block runs, the BLAS libraries of this process use one thread; the number each
    had is restored when the last of the blocks running at once ends (threads that run batches
    together share one limit).  See the module docstring for why."""
    with _LIMIT_LOCK:
        if not _LIMIT["running"]:
            _LIMIT["limit"] = _controller().limit(limits=1, user_api="blas")
        _LIMIT["running"] += 1
    try:
        yield
    finally:
        with _LIMIT_LOCK:
            _LIMIT["running"] -= 1
            if not _LIMIT["running"]:
                _LIMIT["limit"].restore_original_limits()
                _LIMIT["limit"] = None


def _vectorised(
    plan: _BetsPlan,
    compiled: Any,
    cnt: Any,
    suited: Any,
    fast: list[int],
    sizes: list[int],
    numerators: Any,
    step: int,
) -> None:
    """The EV numerators of the shoes ``fast`` (numbers of rows of ``cnt``), ``step`` shoes at a
    time, into ``numerators``; ``compiled``: the compiled kernel's plan, or ``None`` (numpy)."""
    scratch: dict[str, Any] = {}  # the steps' arrays, made once
    for start in range(0, len(fast), step):
        rows = fast[start : start + step]
        counts = plan.counts(compiled, cnt, suited, rows, [sizes[s] for s in rows], scratch)
        exact = denominator(max(sizes[s] for s in rows))  # every class count sums to at most this
        if plan.pays_block is not None and exact * plan.top_total < 2**63:
            # each class's count x pay, summed per bet, in int64: |sum of count x pay| <= d max|pay|
            # bounds every partial sum, the derived class's d x pay included
            whole = np.asarray([denominator(sizes[s]) for s in rows], dtype=np.int64)
            sums = np.add.reduceat(counts * plan.pays_block, plan.starts, axis=1)  # per bet
            numerators[rows] = (sums + whole[:, None] * plan.derived_block).astype(object)
            continue
        wide: Any = counts.astype(object) if any(exact * top >= 2**63 for top in plan.top_pays) else None
        whole = np.asarray([denominator(sizes[s]) for s in rows], dtype=object)
        for j, (lo, hi) in enumerate(plan.slices):
            if exact * plan.top_pays[j] < 2**63:  # int64 exact: |sum of count x pay| <= d max|pay|
                numerators[rows, j] = (counts[:, lo:hi] @ plan.pays_int[j]).astype(object)
            else:
                numerators[rows, j] = wide[:, lo:hi] @ plan.pays[j]
            if plan.derived_pays[j]:
                numerators[rows, j] += whole * plan.derived_pays[j]


def _scaled_pays(keys: Sequence[tuple[str, Fraction]]) -> tuple[list[int], int]:
    scale = lcm(*(p.denominator for _, p in keys)) if keys else 1
    return [int(p * scale) for _, p in keys], scale


class _BetsPlan:
    """How a batch of ``bets`` is priced on many shoes, built once (one shoe's evaluation of
    tables is :class:`analyzer.engine.evaluate._TablesPlan`): per bet its events grouped by pay (its EV
    needs no finer count), the value tallies of every bet side by side (value compositions x
    pay classes), each card-level bet's label part, the pays.

    One pay class of each bet is not counted: a bet's classes share out every sequence, d of
    them, so with c_k the count and p_k the pay of class k and D the derived one,
    sum_k c_k p_k = sum_{k != D} c_k (p_k - p_D) + d p_D.  The pays are kept as p_k - p_D
    (0 for D) and p_D as ``derived_pays``; D is the class with the most value tallies, whose
    column then leaves the matrix product (a third of its columns on the catalogue)."""

    def __init__(self, bets: Sequence[Bet], tableau: Tableau, suited: bool) -> None:
        per_bet: list[tuple[BetTable, Settlement]] = [None] * len(bets)  # type: ignore[list-item]
        values = [i for i, b in enumerate(bets) if not b.reads.sets]
        for reads, members in table_reads([bets[i].reads for i in values], MAX_CARDS):
            table = table_for(reads, MAX_CARDS, tableau)
            for k in members:
                per_bet[values[k]] = (table, settlement(bets[values[k]], table))
        for i, bet in enumerate(bets):
            if bet.reads.sets:
                table = bet_table(tableau, bet, bet.reads.first_four_only, False)
                if table.needs_suits and not suited:
                    raise BetError(
                        "bets that read suits need the suits of the cards: give (n, 52) rank-and-suit counts"
                    )
                per_bet[i] = (table, settlement(bet, table))
        self.slices: list[tuple[int, int]] = []
        self.pays: list[Any] = []
        self.pays_int: list[Any] = []
        self.top_pays: list[int] = []
        self.derived_pays: list[int] = []
        scales: list[int] = []
        groups: list[tuple[BetTable, list[int], int, int]] = []  # table, classes, offset, derived
        arrays: dict[int, tuple[Any, Any, Any]] = {}  # a table's value part as arrays, made once

        def value_part(table: BetTable) -> tuple[Any, Any, Any]:
            got = arrays.get(id(table))  # the tables stay alive in per_bet meanwhile
            if got is None:
                got = arrays[id(table)] = (
                    np.asarray(table.value_col, dtype=np.intp),
                    np.asarray(table.value_comp, dtype=np.intp),
                    np.asarray(table.value_tally, dtype=np.float64),
                )
            return got

        at = 0
        for table, settled in per_bet:
            ints, scale = _scaled_pays(settled.keys)
            distinct = sorted(set(ints))
            of_key = [distinct.index(x) for x in ints]
            classes = [of_key[k] for k in settled.index]  # per column
            derived = _most_tallied(value_part(table)[0], classes, len(distinct))
            base = distinct[derived] if distinct else 0
            relative = [x - base for x in distinct]
            groups.append((table, classes, at, derived))
            self.slices.append((at, at + len(distinct)))
            self.pays.append(np.asarray(relative, dtype=object))
            self.derived_pays.append(base)
            self.top_pays.append(max(abs(x) for x in relative) if relative else 0)
            self.pays_int.append(np.asarray(relative, dtype=np.int64) if self.top_pays[-1] < 2**62 else None)
            scales.append(scale)
            at += len(distinct)
        #: the tables with a label part: (table, the pay class of each column, the bet's offset)
        self.parts = [(table, classes, offset) for table, classes, offset, _ in groups if table.row_read]
        self.width = at
        self._labels: tuple[list[LabelPart], list[int]] | None = None
        self._kernel: Any = None  # the compiled kernel's plan (False: it cannot take these tables)
        cells: list[Any] = []  # every bet's value tallies: (composition x columns + column, tally)
        tallies: list[Any] = []
        for table, classes, offset, derived in groups:
            cols, comps, counts = value_part(table)
            if len(cols):
                of_col = np.asarray(classes, dtype=np.intp)[cols]
                kept = of_col != derived
                cells.append(comps[kept] * at + (offset + of_col[kept]))
                tallies.append(counts[kept])
        # summed in float64 as np.add.at would (exact: every sum of tallies is far below 2**53)
        size = len(COMPOSITIONS) * at
        self.value: Any = (
            np.bincount(np.concatenate(cells), np.concatenate(tallies), minlength=size).reshape(-1, at)
            if cells
            else np.zeros((len(COMPOSITIONS), at), dtype=np.float64)
        )
        # many pay classes of different bets have the same value tallies (a bet's variants,
        # sums the analysis table already has): one column each, copied out after the product;
        # classes with no value tallies (the derived ones, those of label parts alone) read a
        # column of zeros appended after the product, not one computed in it
        nonzero = np.flatnonzero(self.value.any(axis=0))
        by_bytes: dict[bytes, int] = {}  # equal columns, found by their bytes (in a dict, not sorted)
        of_nonzero = [by_bytes.setdefault(self.value[:, c].tobytes(), len(by_bytes)) for c in nonzero]
        firsts = [int(nonzero[of_nonzero.index(k)]) for k in range(len(by_bytes))]
        columns = self.value[:, firsts]
        value_of = np.full(at, columns.shape[1], dtype=np.intp)
        value_of[nonzero] = of_nonzero
        self.value_of: Any = value_of
        self.value = np.ascontiguousarray(columns)
        self.value_int = self.value.astype(np.int64)
        self.scales = tuple(scales)
        # every bet's pays side by side, for one product and one sum per bet of each step when
        # d x the largest |pay| fits int64 (top_total: the largest |relative pay| + |derived pay|)
        self.top_total = max(
            (t + abs(d) for t, d in zip(self.top_pays, self.derived_pays, strict=True)), default=0
        )
        self.pays_block: Any = None  # every class's relative pay, bet after bet
        self.derived_block: Any = None
        self.starts = np.asarray([lo for lo, _ in self.slices], dtype=np.intp)  # each bet's first class
        if self.slices and self.top_total < 2**62 and all(hi > lo for lo, hi in self.slices):
            self.pays_block = np.concatenate(self.pays_int)  # (reduceat needs no slice empty)
            self.derived_block = np.asarray(self.derived_pays, dtype=np.int64)

    def kernel_plan(self) -> Any:
        """The compiled kernel's plan of the label parts (:func:`~analyzer.engine.native.batch_plan`),
        made on first use; ``None`` when the kernel is not running (``PUNTO_BANCO_KERNEL``, or
        not built) or cannot take these tables: then numpy evaluates them."""
        if native.kernel() is None:
            return None
        if self._kernel is None:
            self._kernel = native.batch_plan(self.parts, self.width) or False
        return self._kernel or None

    def labels(self) -> tuple[list[LabelPart], list[int]]:
        """The label parts as numpy evaluates them (made on first use), and the number of each
        one's program (equal programs, a bet's variants or mirrored bets, share a number)."""
        if self._labels is None:
            parts = [LabelPart(table, classes, offset) for table, classes, offset in self.parts]
            kept = [part for part in parts if not part.empty]
            programs: dict[Program, int] = {}
            self._labels = (kept, [programs.setdefault(part.program, len(programs)) for part in kept])
        return self._labels

    def chunk(self, kernel: bool) -> int:
        """The most shoes a step takes within :data:`MEMORY_BUDGET`: with the compiled kernel
        (``kernel``), a step holds each shoe's value weights and four rows of pay classes; with
        numpy, the label parts run one after another and the widest one bounds its arrays."""
        if kernel:
            per_shoe = 8 * (len(COMPOSITIONS) + 4 * self.width)
        else:
            widest = max((p.width for p in self.labels()[0]), default=0)
            per_shoe = 8 * 3 * (len(COMPOSITIONS) + self.width + widest)
        return max(1, min(CHUNK, MEMORY_BUDGET // max(per_shoe, 1)))

    def counts(
        self, compiled: Any, cnt: Any, suited: Any, rows: list[int], sizes: list[int], scratch: dict[str, Any]
    ) -> Any:
        """(shoes, pay classes) int64 counts of the shoes ``rows`` (a bet's derived class is not
        counted: its column holds only what the label parts add), by the compiled kernel's
        plan ``compiled`` (:meth:`kernel_plan`), or by numpy when it is ``None``.  ``scratch``:
        arrays kept from step to step (a new one of megabytes every step costs the system's
        zeroing of its pages)."""
        if compiled is None:
            return self._counts_numpy(cnt, suited, rows, sizes)
        return self._counts_kernel(compiled, cnt, suited, rows, sizes, scratch)

    def _counts_kernel(
        self, plan: Any, cnt: Any, suited: Any, rows: list[int], sizes: list[int], scratch: dict[str, Any]
    ) -> Any:
        """:meth:`counts` by the compiled kernel: each shoe's value weights and its label parts'
        counts per pay class in C (exact modulo 2**64, as numpy's int64 is: every count of
        these shoes fits int64), the value part one float64 product as on the numpy path."""
        source = cnt if suited is None else suited
        shoes = np.ascontiguousarray(np.asarray(source[rows], dtype=np.int64))
        in_float = denominator(max(sizes)) < 2**53  # the float64 product (BLAS) is exact
        kind = np.float64 if in_float else np.int64
        weights = _room(scratch, "weights", (len(rows), len(COMPOSITIONS)), kind)
        labels = _room(scratch, "labels", (len(rows), self.width), np.int64)
        plan.many(shoes, labels, weights)
        product = np.zeros((len(rows), self.value.shape[1] + 1), dtype=np.int64)  # last: the zeros
        product[:, :-1] = weights @ (self.value if in_float else self.value_int)
        out = product[:, self.value_of]
        out += labels
        return out

    def _counts_numpy(self, cnt: Any, suited: Any, rows: list[int], sizes: list[int]) -> Any:
        """:meth:`counts` by numpy: the value weights, the value product, and each label part
        (:class:`~analyzer.engine.labels.LabelPart`) one after another."""
        ranks = np.asarray(cnt[rows], dtype=np.int64)
        values = np.zeros((len(rows), 10), dtype=np.int64)
        for rank, v in enumerate(RANK_POINTS):
            values[:, v] += ranks[:, rank]
        falls = falling_tables_array(values)
        pads = paddings_array(sizes)
        in_float = denominator(max(sizes)) < 2**53  # the float64 product (BLAS) is exact
        weights = weights_array(falls, pads, as_float=in_float)
        product = np.zeros((len(rows), self.value.shape[1] + 1), dtype=np.int64)  # last: the zeros
        product[:, :-1] = weights @ (self.value if in_float else self.value_int)
        out = product[:, self.value_of]
        labels, program_of = self.labels()
        if labels:
            cards = None if suited is None else np.asarray(suited[rows], dtype=np.int64)
            pools = pool_sizes_many(ranks, cards)
            shared: dict[int, Any] = {}  # bets with one program (a bet's variants) weigh it once
            for part, key in zip(labels, program_of, strict=True):
                n = shared.get(key)
                if n is None:
                    n = shared[key] = part.plan.weights_many(pools, sizes)
                part.add(out, falls, pads, pools, sizes, weights, n)
        return out


def _room(scratch: dict[str, Any], name: str, shape: tuple[int, int], kind: Any) -> Any:
    """A C-contiguous array of ``shape`` and dtype ``kind``, the first rows of one kept in
    ``scratch`` under ``name`` (made, or made larger, when it has too few rows or another
    dtype); its contents are left as they were."""
    got = scratch.get(name)
    if got is None or got.shape[0] < shape[0] or got.shape[1:] != shape[1:] or got.dtype != kind:
        got = scratch[name] = np.empty(shape, dtype=kind)
    return got[: shape[0]]


def _most_tallied(value_col: Any, classes: Sequence[int], count: int) -> int:
    """The pay class of a table's columns (``classes[c]`` of column ``c``; ``value_col`` the
    column of each value tally, an intp array) with the most value tallies: the one a batch
    derives rather than counts (0 for a bet without classes)."""
    if not count or not len(value_col):
        return 0
    of_col = np.asarray(classes, dtype=np.intp)[value_col]
    return int(np.bincount(of_col, minlength=count).argmax())


_PLANS: OrderedDict[tuple[object, ...], tuple[tuple[Bet, ...], _BetsPlan]] = OrderedDict()


def _plan(bets: tuple[Bet, ...], tableau: Tableau, suited: bool) -> _BetsPlan:
    key = (tuple(id(b) for b in bets), tableau.fingerprint, suited)
    hit = _PLANS.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], bets, strict=True)):
        hit = _PLANS[key] = (bets, _BetsPlan(bets, tableau, suited))
        if len(_PLANS) > 16:
            _PLANS.popitem(last=False)
    return hit[1]
