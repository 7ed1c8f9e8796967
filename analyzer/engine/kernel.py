"""Fast EVs of a few bets on many depleted shoes: one bet, one vector, a float64 kernel with a
proven error bound (numpy imported here, on first use).

**One bet, one vector.**  On a shoe of N >= 6 cards the exact EV of a bet is

    EV = (1 / (L * N!/(N-6)!)) * sum over compositions c of coef[c] * w_c

where ``w_c`` is the composition's weight (:mod:`analyzer.engine.algebra`: a sum over terms of
a multiplicity times a product of factors, times the padding falling(N - k, 6 - k) for its k
cards), ``coef[c] = sum over the table's entries (c, r, t) of t * pay_int(r)`` collapses the
compiled table to one integer per composition, and ``pay_int = pay * L`` with L the lcm of the
pays' denominators.  :class:`BetVector` holds that collapse.

**The kernel** (:class:`EVKernel`) evaluates the sum for many shoe states at once.  Every
(composition, term) pair is a product of factors, one per point value, times the padding.  The
factors are split by point value: those below a split value (with the padding) form the G side,
the others the E side, so the sum is, block by block, ``sum_e E_e * sum_g M[g, e] G_g``: the G
and E products are built once per distinct prefix (:class:`_Trie`), the inner sums are one
matrix product across all states (BLAS), the outer sum a short elementwise contraction (the
idea of the previous engine's batch kernel, on :class:`~analyzer.engine.algebra.Program`).

**Exactness.**  Factors and paddings are computed exactly in int64 (each is a number of ordered
draws of distinct cards of one value, at most N**6 < 2**63 for N <= 1,448 cards) and then
converted to float64; everything after is float64, with this bound (u = 2**-53, the unit
roundoff, gamma_n = n u / (1 - n u)):

    |EV_float - EV| <= gamma_D * P,    P = 3 max |pay - base| + max |pay| (units per unit staked)

where D counts the roundings on the path of any one summand: one per factor conversion (a factor is
computed exactly in int64 first: it counts ordered draws of cards of one value, at most N**6 <
2**63), one per multiplication of a G or E product, one for the coefficient's conversion (exact below 2**53),
one for M x G and the (at most) n_g - 1 additions of the matrix product (any summation order,
with or without FMA), one for x E, the additions of its block's outer sum and of the blocks, and three
for the division by L * N!/(N-6)! (its conversion, the product, the quotient).  The bound
follows from the standard model fl(a op b) = (a op b)(1 + d), |d| <= u, applied along each
summand (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1 and §4.2):
every summand is a product of non-negative factors times coef, so the computed sum is
``sum_i x_i (1 + theta_i)`` with ``|theta_i| <= gamma_D``, and the error is at most
``gamma_D * sum_i |x_i| = gamma_D * A``, with ``A = sum_c |sparse_c| w_c <= 3 max|pay_int -
base_int| * N!/(N-6)!`` (:class:`BetVector`: the value compositions count every ordered 6-card
sequence once; a leaf of a table's label part counts its sequences for its event and takes them
back from its row's "rest" event, a pay difference of at most twice the largest offset); the
conversion of the base and the final roundings add at most gamma_D * max |pay|.
:attr:`EVKernel.bound` is gamma_D * P per column, about 1e-13 x P for the catalogue's tables.
A decision (EV above a
threshold) may be taken on the float only when the float is farther than the bound from the
threshold; otherwise the caller decides with the exact integers (:func:`exact_ev`).
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb, lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.bets.model import Bet
from analyzer.core.cards import RANK_POINTS
from analyzer.core.shoe import MAX_CARDS, Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.algebra import POOL_INDEX, POOLS, Program, falling, pool_matrix, pool_sizes_many
from analyzer.engine.evaluate import counts_within
from analyzer.engine.labels import LabelPart
from analyzer.engine.lookup import bet_table
from analyzer.engine.pricing import price, settlement, table_for, table_reads
from analyzer.engine.table import BetTable
from analyzer.engine.values import COMPOSITIONS, counts_of, falling_tables_array, paddings

#: The unit roundoff of float64.
UNIT_ROUNDOFF = 2.0**-53
#: The largest shoe the int64 factors hold exactly: N**6 < 2**63.
MAX_KERNEL_CARDS = 1448
#: States per vectorised step (memory: a few MB per step for the catalogue's tables).
STEP = 512
#: States per step of a label part: its arrays stay in the CPU's caches (measured on the
#: catalogue's card-level bets and a Banker three-card flush: within a quarter of each one's
#: best step, where 512 states took up to 3.5 times as long).
LABEL_STEP = 128
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def gamma(n: int) -> float:
    """gamma_n = n u / (1 - n u), rounded up: the relative error bound of n roundings."""
    x = n * UNIT_ROUNDOFF
    return float(np.nextafter(x / (1 - x), np.inf))


# -- a table as the kernel takes it -------------------------------------------------------------


class KernelView:
    """A compiled table's value part (:mod:`analyzer.engine.table`) as one weight program over
    whole coups: one composition per value composition, prod_v falling(n_v, m_v) times the
    padding, and ``entries`` (composition, column, tally).  A table's label part, when it has
    one, is evaluated apart, exactly (:class:`~analyzer.engine.labels.LabelPart`)."""

    def __init__(self, table: BetTable) -> None:
        self.table = table
        falls: list[tuple[int, int, int]] = []
        factors: dict[tuple[int, int], int] = {}  # (value, m) -> factor

        def value_factor(v: int, m: int) -> int:
            hit = factors.get((v, m))
            if hit is None:
                hit = factors[(v, m)] = len(falls)
                falls.append((POOL_INDEX[("v", v, -1)], 0, m))
            return hit

        comps: dict[int, int] = {}
        cards: list[int] = []
        terms: list[tuple[int, ...]] = []
        entries: dict[tuple[int, int], int] = defaultdict(int)
        for col, comp, t in zip(table.value_col, table.value_comp, table.value_tally, strict=True):
            c = comps.get(comp)
            if c is None:
                k, coded = COMPOSITIONS[comp]
                c = comps[comp] = len(cards)
                cards.append(k)
                terms.append(tuple(value_factor(v, m) for v, m in enumerate(counts_of(coded)) if m))
            entries[(c, col)] += t
        term_start = list(range(len(cards) + 1))
        factor_start = [0]
        term_factors: list[int] = []
        for fids in terms:
            term_factors.extend(fids)
            factor_start.append(len(term_factors))
        n = len(falls)
        self.program = Program(
            tuple(falls),
            tuple((i,) for i in range(n)),
            tuple(((i,), False, False) for i in range(n)),
            tuple(cards),
            tuple(term_start),
            tuple(term_factors),
            tuple(factor_start),
            (1,) * len(cards),
            (0,) * len(cards),
        )
        self.entries = tuple((c, col, t) for (c, col), t in sorted(entries.items()) if t)


def composition_terms(program: Program) -> list[tuple[int, list[tuple[tuple[int, ...], int]]]]:
    """Per composition: (cards drawn, [(factor indices, multiplicity), ...])."""
    ts, fs, tf, mult = program.term_start, program.factor_start, program.term_factors, program.term_mult
    out = []
    for c, cards in enumerate(program.cards):
        out.append((cards, [(tuple(tf[fs[t] : fs[t + 1]]), mult[t]) for t in range(ts[c], ts[c + 1])]))
    return out


def _pool_value(pool: int) -> int:
    spec = POOLS[pool]
    kind = spec[0]
    label = spec[1]
    assert isinstance(label, int)
    return label if kind in ("v", "vs", "vc", "p") else RANK_POINTS[label]


# -- one bet, one vector ------------------------------------------------------------------------


@dataclass(frozen=True)
class BetVector:
    """A bet collapsed over a compiled table: ``coef[c]`` = sum of tally x integer pay over the
    entries of composition c (the bet pays ``pay_int / scale`` per unit staked).

    ``base`` is the pay of the bet's most common event (for a side bet, the loss) and
    ``sparse[c] = coef[c] - base * scale * (total tally of c)``: since the tallies times the
    weights of all compositions add up to every ordered six-card sequence, EV = (sum of
    ``sparse`` x weights) / (scale x N!/(N-6)!) + ``base``, and ``sparse`` is zero wherever the
    composition always pays ``base`` (most compositions, for a side bet).  ``max_pay`` and
    ``max_offset`` are the largest |pay| and |pay - base| (units per unit staked).
    """

    bet: Bet
    view: KernelView
    coef: tuple[int, ...]
    scale: int
    base: Fraction
    sparse: tuple[int, ...]
    max_pay: Fraction
    max_offset: Fraction

    @classmethod
    def of(cls, bet: Bet, view: KernelView) -> BetVector:
        """Collapse ``bet`` over ``view`` (its table must carry what the bet reads)."""
        settled = settlement(bet, view.table)
        scale = lcm(*(p.denominator for _, p in settled.keys)) if settled.keys else 1
        pays = [int(p * scale) for _, p in settled.keys]
        ncomp = len(view.program.cards)
        coef = [0] * ncomp
        total = [0] * ncomp
        by_event = [0] * len(pays)
        for c, col, t in view.entries:
            event = settled.index[col]
            coef[c] += t * pays[event]
            total[c] += t
            by_event[event] += t
        base_int = pays[max(range(len(pays)), key=lambda i: by_event[i])] if pays else 0
        sparse = tuple(x - base_int * n for x, n in zip(coef, total, strict=True))
        base = Fraction(base_int, scale)
        biggest = max((abs(p) for _, p in settled.keys), default=Fraction(0))
        offset = max((abs(p - base) for _, p in settled.keys), default=Fraction(0))
        return cls(bet, view, tuple(coef), scale, base, sparse, biggest, offset)


_VIEWS: OrderedDict[tuple[int, bool], tuple[BetTable, KernelView]] = OrderedDict()


def kernel_view(table: BetTable) -> KernelView:
    """The :class:`KernelView` of ``table`` (kept for the last tables used)."""
    key = (id(table), table.symmetric)
    hit = _VIEWS.get(key)
    if hit is None or hit[0] is not table:
        hit = _VIEWS[key] = (table, KernelView(table))
        if len(_VIEWS) > 64:
            _VIEWS.popitem(last=False)
    return hit[1]


def exact_ev(bet: Bet, cards52: Sequence[int], physical: int, tableau: Tableau = STANDARD) -> Fraction:
    """The exact EV per unit staked of ``bet`` on the next coup, given the unseen cards
    ``cards52`` (52 counts, rank-major, suits s h d c) of which ``physical`` are still in the
    shoe (the others were burned unseen); a coup the shoe cannot finish is void.

    With ``physical`` >= 6 this is :func:`analyzer.engine.pricing.price` on the unseen shoe;
    below, the full walk's table is evaluated with the compositions that need more than
    ``physical`` cards weighing 0 (void: they pay 0), exactly.
    """
    size = sum(cards52)
    if physical < 4 or size < 4:
        return Fraction(0)
    ranks = [sum(cards52[4 * r : 4 * r + 4]) for r in range(13)]
    shoe = Shoe(tuple(ranks), tuple(cards52))
    if physical >= MAX_CARDS:
        return price(bet, shoe, tableau).ev
    table = bet_table(tableau, bet, False, False) if bet.reads.sets else table_for(bet.reads, size, tableau)
    counts = counts_within(table, shoe, physical)
    settled = settlement(bet, table)
    sums = settled.sums(counts)
    total = sum((pays * n for (_, pays), n in zip(settled.keys, sums, strict=True)), Fraction(0))
    return total / falling(size, min(size, MAX_CARDS))


# -- a label part's rows, as one matrix product ------------------------------------------------


class RowCompletions:
    """S / D(R) of every kept row of a :class:`~analyzer.engine.labels.LabelPart` of rows (its
    ``per_row``), exactly, as one float64 matrix product whose every partial sum is an integer
    below 2**53.

    A row R reads the multiset r of values (r_v cards of value v) and holds entries (composition
    m = r + u of k cards, tally t); its count at the level of values is S = sum t x W(m), and
    S / D(R) = sum t x pad(k) x prod_v falling(n_v - r_v, u_v): the ways to deal the row's unread
    cards u from the shoe without R's cards (D(R) = prod_v falling(n_v, r_v) > 0).  Vandermonde's
    identity for falling factorials, falling(n - r, u) = sum_j C(u, j) falling(n, j)
    falling(-r, u - j), turns each into a sum over the compositions j <= u of monomials of the
    shoe itself, X_(k, j) = pad(k) x prod_v falling(n_v, j_v), shared by every row:

        S / D(R) = sum over columns (k, j) of K[R, (k, j)] x X_(k, j)

    with K a matrix of small integers fixed by the table (signed: falling(-r, d) = (-1)^d r (r +
    1) ... (r + d - 1)).  The polynomial is S / D(R) wherever D(R) > 0 and is replaced by 0
    elsewhere, as ``per_row`` does.  X is computed exactly in int64; K x X is a float64 product
    (BLAS), exact when sum |K[R, c]| x max X_c < 2**53 for every row (:meth:`exact_digits`, from
    the shoe's size: X_(k, j) <= pad(k) x falling(N, |j|), ordered draws from disjoint pools
    being at most those from their union); beyond it X is cut into base-2**b digits, one exact
    product each, summed in int64 (modulo 2**64, where S / D(R) <= N!/(N-6)! < 2**63 lies).

    Equal columns of K are one column, times the sum of their X (:data:`FOLD_CELLS`; summed in
    int64, modulo 2**64): each row's sum of |K| x X is the same, so is the bound of one digit
    (and a group's sum, at most that bound, is exact in float64); past it, the digits cover the
    largest group's sum of its columns' bounds, and a sum past 2**63, held modulo 2**64, is cut
    into digits of its bits modulo 2**64, which the digits' products sum back to.

    A flush of the Banker's three cards (212 rows of 190 entries each on average) is a 212 x 288
    K of 117 distinct columns: a product of 212 x 120 after the sums, a few microseconds a shoe
    state, where the rows' value weights, one by one, took about a millisecond.
    """

    #: Use the product when its cells are at most this many times the rows' entries, and at
    #: most :data:`MAX_CELLS` (else ``per_row``).
    CELLS_PER_ENTRY = 64
    #: A level of equal columns is summed (one numpy step) when it takes at least this many
    #: cells off the product (rows x its columns); its members stay columns of their own else.
    FOLD_CELLS = 256
    MAX_CELLS = 1 << 22

    def __init__(self, part: LabelPart) -> None:
        rows = len(part.row_starts)
        entries = len(part.row_comp)
        row_of = np.repeat(np.arange(rows), np.diff(np.r_[part.row_starts, entries]))
        comps, comp_at = np.unique(part.row_comp, return_inverse=True)
        comp_at = comp_at.ravel()
        cards = np.asarray([COMPOSITIONS[c][0] for c in comps.tolist()], dtype=np.int64)[comp_at]
        whole = np.asarray([counts_of(COMPOSITIONS[c][1]) for c in comps.tolist()], dtype=np.int64)
        read = np.asarray(part.row_mult, dtype=np.int64).reshape(rows, 10)
        unread = whole[comp_at] - read[row_of]
        if entries and int(unread.min()) < 0:
            raise ValueError("internal: a row's composition without its read values")
        # entries alike in (cards, unread values, read values among them) expand alike: one
        # integer each (3 bits a count), expanded once per kind
        alike = cards.copy()
        for v in range(10):
            alike = alike * 8 + unread[:, v]
        shown = np.where(unread > 0, read[row_of], 0)
        for v in range(10):
            alike = alike * 8 + shown[:, v]
        _, first, group = np.unique(alike, return_index=True, return_inverse=True)
        group = group.ravel()
        columns: dict[tuple[int, tuple[int, ...]], int] = {}
        start = [0]
        cols: list[int] = []
        coefs: list[int] = []
        for e in first.tolist():
            k, u, x = int(cards[e]), unread[e].tolist(), read[row_of[e]].tolist()
            # per value: (j, C(u, j) falling(-r, u - j)) for j = 0..u (just u where r = 0)
            options = [
                [(j, comb(m, j) * falling_signed(-y, m - j)) for j in range(m + 1)] if m and y else [(m, 1)]
                for m, y in zip(u, x, strict=True)
            ]
            for pick in product(*options):
                coef = 1
                for _, c in pick:
                    coef *= c
                if coef:
                    cols.append(columns.setdefault((k, tuple(j for j, _ in pick)), len(columns)))
                    coefs.append(coef)
            start.append(len(cols))
        starts = np.asarray(start, dtype=np.int64)
        each = (starts[1:] - starts[:-1])[group]  # expansion terms per entry
        entry = np.repeat(np.arange(entries), each)
        term = starts[group][entry] + np.arange(len(entry)) - np.repeat(np.cumsum(each) - each, each)
        tally = np.asarray(part.row_tally, dtype=np.int64)
        keys = list(columns)
        flat = row_of[entry] * len(keys) + np.asarray(cols, dtype=np.int64)[term]
        cells, cell_at = np.unique(flat, return_inverse=True)
        values = np.zeros(len(cells), dtype=np.int64)
        np.add.at(values, cell_at.ravel(), tally[entry] * np.asarray(coefs, dtype=np.int64)[term])
        if len(values) and int(np.abs(values).max()) >= 2**53:
            raise ValueError("internal: a row's coefficient beyond float64's integers")
        self.rows = rows
        filled = np.zeros(rows * len(keys), dtype=np.float64)
        filled[cells] = values
        dense = filled.reshape(rows, len(keys))
        # per row, sum |K| over the columns of each kind (k, |j|): the bound of exact_digits
        kind_of = [(k, sum(j)) for k, j in keys]
        self.kinds = sorted(set(kind_of))
        kind_at = np.asarray([self.kinds.index(kind) for kind in kind_of], dtype=np.int64)
        sums = np.zeros((rows, len(self.kinds)), dtype=np.int64)
        np.add.at(sums, (cells // max(len(keys), 1), kind_at[cells % max(len(keys), 1)]), np.abs(values))
        self.abs_sums = sums.tolist()
        # equal columns of K, one column each: K X = sum over groups of K's column times the
        # sum of the group's X (a flush: 288 columns, 117 distinct).  The columns are laid out
        # by level: the first of every group, then the second of the groups of two or more, ...
        if len(keys):
            _, group = np.unique(dense.T, axis=0, return_inverse=True)
            group = group.ravel()
        else:
            group = np.zeros(0, dtype=np.intp)
        group, level = _fold_levels(group, rows, self.FOLD_CELLS)
        groups = int(group.max(initial=-1)) + 1
        by_level = np.lexsort((group, level))
        self.size = rows * groups
        self.groups = groups
        self.matrix = np.ascontiguousarray(dense[:, by_level[:groups]])
        self.folds: list[tuple[slice, IntArray]] = []  # (rows of X past the firsts, their groups)
        past = groups
        for lv in range(1, int(level.max(initial=0)) + 1):
            members = by_level[past : past + int((level == lv).sum())]
            self.folds.append((slice(past, past + len(members)), group[members].astype(np.intp)))
            past += len(members)
        # per group, how many of its columns are of each kind (the most of its summed X)
        self.group_kinds = np.zeros((groups, len(self.kinds)), dtype=np.int64)
        np.add.at(self.group_kinds, (group, kind_at), 1)
        keys = [keys[c] for c in by_level.tolist()]
        width = max((sum(1 for x in j if x) for _, j in keys), default=0) or 1
        ones = 10 * (MAX_CARDS + 1)  # a row of ones after the flat falling table
        at = np.full((len(keys), width), ones, dtype=np.intp)
        for c, (_, j) in enumerate(keys):
            for i, v in enumerate(v for v in range(10) if j[v]):
                at[c, i] = v * (MAX_CARDS + 1) + j[v]
        self.x_at = [np.ascontiguousarray(at[:, i]) for i in range(width)]
        self.x_pad = np.asarray([k for k, _ in keys], dtype=np.intp)
        rwidth = int((read > 0).sum(axis=1).max(initial=0)) or 1
        need = np.full((rows, rwidth), ones, dtype=np.intp)
        for r, rv in enumerate(read.tolist()):
            for i, v in enumerate(v for v in range(10) if rv[v]):
                need[r, i] = v * (MAX_CARDS + 1) + rv[v]
        self.d_at = [np.ascontiguousarray(need[:, i]) for i in range(rwidth)]
        self.most_read = read.max(axis=0, initial=0)  # (10,): the most cards of each value a row reads
        self._digits: dict[int, tuple[int, int]] = {}

    @classmethod
    def of(cls, part: LabelPart) -> RowCompletions | None:
        """The product for ``part`` (a label part of rows), or ``None`` when it would cost more
        than ``per_row`` (see :data:`CELLS_PER_ENTRY`)."""
        if part.empty or part.kind != "rows":
            return None
        done = cls(part)
        entries = len(part.row_comp)
        if done.size > min(cls.MAX_CELLS, cls.CELLS_PER_ENTRY * entries):
            return None
        return done

    def exact_digits(self, size: int) -> tuple[int, int]:
        """(digits, bits): X cut into ``digits`` base-2**``bits`` digits makes every product
        exact on shoes of at most ``size`` cards (one digit: X as it is)."""
        hit = self._digits.get(size)
        if hit is None:
            pads = paddings(size)
            most = [pads[k] * falling(size, d) for k, d in self.kinds]  # X_(k, j) <= this
            top = max((sum(map(int.__mul__, row, most)) for row in self.abs_sums), default=0)
            if top < 2**53:
                hit = (1, 0)
            else:
                widest = max((sum(row) for row in self.abs_sums), default=1)
                bits = 53 - widest.bit_length()
                if bits < 8:
                    raise ValueError("internal: a row's coefficients too large for exact products")
                groups = self.group_kinds.tolist()  # a group's X is at most its columns' bounds summed
                summed = max((sum(map(int.__mul__, row, most)) for row in groups), default=1)
                hit = (-(-summed.bit_length() // bits), bits)
            self._digits[size] = hit
        return hit

    def per_row(self, falls: IntArray, pads: IntArray, largest: int) -> IntArray:
        """(rows, states) int64: S / D(R) of every row (0 where D(R) = 0), from
        :func:`~analyzer.engine.values.falling_tables_array` (states, 10, 7) and
        :func:`~analyzer.engine.values.paddings_array` (states, 7) of shoes of 6 to 1,448 cards,
        ``largest`` cards at most."""
        states = falls.shape[0]
        flat = np.ones((10 * (MAX_CARDS + 1) + 1, states), dtype=np.int64)
        flat[:-1] = falls.reshape(states, -1).T
        x = flat[self.x_at[0]]
        for at in self.x_at[1:]:
            x *= flat[at]
        x *= pads.T[self.x_pad]
        if self.folds:  # each group's X summed (int64, modulo 2**64: see the class docstring)
            head = x[: self.groups]
            for rest, groups in self.folds:
                head[groups] += x[rest]
            x = head
        digits, bits = self.exact_digits(largest)
        if digits == 1:
            out = (self.matrix @ x.astype(np.float64)).astype(np.int64)
        else:
            mask = (1 << bits) - 1
            parts = np.concatenate([(x >> (bits * i)) & mask for i in range(digits)], axis=1)
            parts = parts.astype(np.float64)
            sums = (self.matrix @ parts).astype(np.int64).view(np.uint64)  # modulo 2**64
            total = sums[:, :states].copy()
            for i in range(1, digits):
                total += sums[:, i * states : (i + 1) * states] * np.uint64((1 << (bits * i)) % 2**64)
            out = total.view(np.int64)
        if not np.all(falls[:, :, 1] >= self.most_read):  # some state lacks a row's read values
            held = flat[self.d_at[0]] > 0  # D(R) > 0: every read value held
            for at in self.d_at[1:]:
                held &= flat[at] > 0
            out *= held
        return out


def _fold_levels(group: IntArray, rows: int, cells: int) -> tuple[IntArray, IntArray]:
    """Each column's group of equal columns and its level (rank within the group, in column
    order), where the levels past the first that takes fewer than ``cells`` cells off a
    product of ``rows`` rows (rows x its columns) are left out: their columns become groups of
    their own, at level 0."""
    order = np.argsort(group, kind="stable")
    level = np.empty(len(group), dtype=np.int64)
    level[order] = np.arange(len(order)) - np.searchsorted(group[order], group[order])
    counts = np.bincount(level)
    small = np.flatnonzero(counts[1:] * rows < cells)
    if len(small):
        alone = level > small[0]  # levels 1..small[0] are kept
        group = group.copy()
        group[alone] = int(group.max()) + 1 + np.arange(int(alone.sum()))
        level[alone] = 0
    return group, level


def falling_signed(x: int, m: int) -> int:
    """x (x - 1) ... (x - m + 1) for any integer x (negative too: the polynomial's value)."""
    out = 1
    for i in range(m):
        out *= x - i
    return out


def _paddings(sizes: IntArray) -> IntArray:
    """(states, 7) int64: falling(N - k, 6 - k) for k = 0..6, each the next times N - k
    (:func:`~analyzer.engine.values.paddings_array` for shoes of at least 6 cards)."""
    size = np.asarray(sizes, dtype=np.int64)
    out = np.ones((len(size), MAX_CARDS + 1), dtype=np.int64)
    for k in range(MAX_CARDS - 1, -1, -1):
        out[:, k] = out[:, k + 1] * (size - k)
    return out


def _add_leaves(part: LabelPart, per: IntArray, out: IntArray, pools: IntArray, sizes: Sequence[int]) -> None:
    """What :meth:`LabelPart.add` does for a part of rows once its rows' S / D(R) are ``per``
    (rows, states): each leaf's count, S / D(R) x N(leaf) x its multiplicity, added to its pay
    class and taken back from its row's rest, into ``out`` (states, classes)."""
    n = part.plan.weights_many(pools, sizes)  # (compositions, states)
    contrib = per if part.leaf_per_row else per[part.leaf_row]
    contrib = contrib * (n if part.leaf_per_comp else n[part.leaf_comp])
    if part.multiplied:
        contrib *= part.leaf_mult[:, None]
    part.plus.add(out, contrib)
    part.minus.add(out, contrib, -1)


# -- the kernel -----------------------------------------------------------------------------------


class _Levels:
    """Products of factor rows over keys (tuples of row indices), level by level: the nodes of
    level s are the distinct prefixes of length s, numbered contiguously (ordered by the cards
    they draw), and each is its parent (level s - 1) times one row, so the products of the keys
    of one length and one number of cards are one slice of the output."""

    def __init__(self, keys: list[tuple[int, ...]], cards: Sequence[int]) -> None:
        depth = max((len(k) for k in keys), default=0)
        levels: list[list[tuple[int, ...]]] = [[()]]
        for s in range(1, depth + 1):  # within a level, by cards drawn: blocks are slices
            found = {k[:s] for k in keys if len(k) >= s}
            levels.append(sorted(found, key=lambda n: (sum(cards[f] for f in n), n)))
        self.offsets: list[int] = []
        index: dict[tuple[int, ...], int] = {}
        at = 0
        for nodes in levels:
            self.offsets.append(at)
            for node in nodes:
                index[node] = at
                at += 1
        self.offsets.append(at)
        self.size = at
        self.steps = [
            (
                np.asarray([index[n[:-1]] for n in nodes], dtype=np.intp),
                np.asarray([n[-1] for n in nodes], dtype=np.intp),
            )
            for nodes in levels[1:]
        ]
        self.index = index
        self.depth = depth

    def products(self, fx: FloatArray) -> FloatArray:
        """(nodes, states) products of the rows of ``fx`` (rows, states)."""
        out = np.empty((self.size, fx.shape[1]), dtype=np.float64)
        out[0] = 1.0
        for s, (parent, col) in enumerate(self.steps, start=1):
            np.multiply(out[parent], fx[col], out=out[self.offsets[s] : self.offsets[s + 1]])
        return out


@dataclass(frozen=True)
class _Block:
    lo: int  # the block's G products: nodes lo:hi of the G levels (one level)
    hi: int
    e: npt.NDArray[np.intp]  # per E row of the block: its E node
    pad: npt.NDArray[np.intp]  # ... and its padding row (cards drawn - 4)
    m: FloatArray  # (E rows * columns, hi - lo) coefficients


class EVKernel:
    """Float64 EVs of the bets that share one compiled table, on many shoe states of at least 6
    cards (see the module docstring for the method and the error bound).

    ``evs(cards52)`` takes an (n, 52) int array of unseen card counts (rank-major, suits
    s h d c; rank-only tables read only the ranks' sums) and returns (n, bets) float64 EVs per
    unit staked, each within :attr:`bound` ``[b]`` of the exact EV.
    """

    def __init__(self, view: KernelView, bets: Sequence[Bet]) -> None:
        self.view = view
        self.vectors = [BetVector.of(b, view) for b in bets]
        program = view.program
        self.columns = len(self.vectors)
        comps = composition_terms(program)
        nf = len(program.factors)
        self.nf = nf
        self._index_program(program)
        factor_value: list[int] = []
        factor_cards: list[int] = []
        for subterms, _, _ in program.factors:
            falls = program.subterms[subterms[0]]
            factor_value.append(_pool_value(program.falls[falls[0]][0]) if falls else 0)
            factor_cards.append(sum(program.falls[i][2] for i in falls))
        self.factor_cards = factor_cards
        # every (composition, term): (cards, factor key) -> coefficients per bet
        merged: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for c, (cards, terms) in enumerate(comps):
            weights = [v.sparse[c] for v in self.vectors]
            if not any(weights):
                continue
            for fids, mult in terms:
                acc = merged.setdefault((cards, tuple(sorted(fids))), [0] * self.columns)
                for j, w in enumerate(weights):
                    acc[j] += w * mult
        keys = [k for k, w in merged.items() if any(w)]
        coefs = [merged[k] for k in keys]
        best: tuple[int, int] | None = None
        for split in range(1, 11):
            cost = self._cost(keys, factor_value, split)
            if best is None or cost < best[0]:
                best = (cost, split)
        assert best is not None
        self.split = best[1]
        self._build(keys, coefs, factor_value)
        self.base = np.asarray([float(v.base) for v in self.vectors], dtype=np.float64)
        # the label part, exact in int64 (a card-level bet's table is its own: one bet); a part
        # of rows with its rows' S / D(R) as one matrix product (RowCompletions)
        self.labels: list[tuple[int, LabelPart, Any, RowCompletions | None]] = []
        for j, bet in enumerate(bets):
            if view.table.row_read:
                settled = settlement(bet, view.table)
                scale = self.vectors[j].scale
                ints = [int(p * scale) for _, p in settled.keys]
                distinct = sorted(set(ints))
                part = LabelPart(view.table, [distinct.index(ints[k]) for k in settled.index])
                if not part.empty:
                    pays = np.asarray(distinct, dtype=np.float64)
                    self.labels.append((j, part, pays, RowCompletions.of(part)))
        # the value part: A = sum |sparse| x weight <= max_offset x N!/(N-6)! (the value
        # compositions count every sequence once); the label part adds sum_c q_c x_c over its C
        # pay classes, each x_c an exact count converted once, |x| summing to at most twice the
        # sequences (a leaf counts for its event and is taken back from its row's rest):
        # gamma_(C + 5) x 2 max_offset, with the division's roundings
        classes = {j: len(pays) for j, _, pays, _ in self.labels}
        self.bound = tuple(
            gamma(self.rounding_depth) * float(v.max_offset + v.max_pay)
            + (gamma(classes[j] + 5) * float(2 * v.max_offset) if j in classes else 0.0)
            for j, v in enumerate(self.vectors)
        )

    def _index_program(self, program: Program) -> None:
        """Index arrays for the factor rows: (pool, shift) pairs and their falling factorials,
        subterms (products of falls) and factors (sums of subterms)."""
        pairs = sorted({(p, sh) for p, sh, _ in program.falls})
        where = {ps: i for i, ps in enumerate(pairs)}
        pools = sorted({p for p, _ in pairs})
        self.pools = np.asarray(pools, dtype=np.intp)
        pool_at = {p: i for i, p in enumerate(pools)}
        self.pair_pool = np.asarray([pool_at[p] for p, _ in pairs], dtype=np.intp)
        self.pair_shift = np.asarray([sh for _, sh in pairs], dtype=np.int64)
        self.depth_m = max((m for _, _, m in program.falls), default=0)
        stride = self.depth_m + 1
        self.fall_at = np.asarray([where[(p, sh)] * stride + m for p, sh, m in program.falls], dtype=np.intp)
        width = max((len(s) for s in program.subterms), default=1) or 1
        one = len(program.falls)  # a row of ones
        sub = np.full((len(program.subterms), width), one, dtype=np.intp)
        for j, st in enumerate(program.subterms):
            sub[j, : len(st)] = st
        self.sub_cols = [np.ascontiguousarray(sub[:, j]) for j in range(width)]
        order: list[int] = []
        starts: list[int] = []
        self.factor_roundings: list[int] = []
        for subterms, _, _ in program.factors:
            starts.append(len(order))
            order.extend(subterms)
            # computed exactly in int64, then converted: one rounding
            self.factor_roundings.append(1)
        self.fac_sub = np.asarray(order, dtype=np.intp)
        self.fac_start = np.asarray(starts, dtype=np.intp)
        self.single = len(order) == len(starts)

    def _sides(
        self, keys: list[tuple[int, tuple[int, ...]]], factor_value: list[int], split: int
    ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        gs = [tuple(f for f in fids if factor_value[f] < split) for _, fids in keys]
        es = [tuple(f for f in fids if factor_value[f] >= split) for _, fids in keys]
        return gs, es

    def _cost(self, keys: list[tuple[int, tuple[int, ...]]], factor_value: list[int], split: int) -> int:
        gs, es = self._sides(keys, factor_value, split)
        g_nodes = len({k[:j] for k in set(gs) for j in range(1, len(k) + 1)})
        e_nodes = len({k[:j] for k in set(es) for j in range(1, len(k) + 1)})
        blocks: dict[tuple[int, int], tuple[set[tuple[int, ...]], set[tuple[int, tuple[int, ...]]]]] = {}
        for (cards, _), g, e in zip(keys, gs, es, strict=True):
            sides = blocks.setdefault((len(g), sum(self.factor_cards[f] for f in g)), (set(), set()))
            sides[0].add(g)
            sides[1].add((cards, e))
        cells = sum(len(a) * len(b) for a, b in blocks.values())
        rows = sum(len(b) for _, b in blocks.values())
        return 6 * (g_nodes + e_nodes) + cells * self.columns // 2 + 6 * rows * self.columns

    def _build(
        self, keys: list[tuple[int, tuple[int, ...]]], coefs: list[list[int]], factor_value: list[int]
    ) -> None:
        gs, es = self._sides(keys, factor_value, self.split)
        cards = self.factor_cards
        self.g_levels = _Levels(gs, cards)
        self.e_levels = _Levels(es, cards)
        by_size: dict[tuple[int, int], list[int]] = {}
        for i, g in enumerate(gs):
            by_size.setdefault((len(g), sum(cards[f] for f in g)), []).append(i)
        blocks: list[_Block] = []
        outer = 0
        widest = 0
        for size in sorted(by_size):
            members = by_size[size]
            at = [self.g_levels.index[gs[i]] for i in members]
            lo, hi = min(at), max(at) + 1
            rows = sorted({(keys[i][0], es[i]) for i in members})
            rpos = {r: j for j, r in enumerate(rows)}
            dense = np.zeros((hi - lo, len(rows), self.columns), dtype=np.float64)
            for i in members:
                dense[self.g_levels.index[gs[i]] - lo, rpos[(keys[i][0], es[i])]] += np.asarray(
                    coefs[i], dtype=np.float64
                )
            blocks.append(
                _Block(
                    lo,
                    hi,
                    np.asarray([self.e_levels.index[e] for _, e in rows], dtype=np.intp),
                    np.asarray([k - 4 for k, _ in rows], dtype=np.intp),
                    np.ascontiguousarray(dense.reshape(hi - lo, -1).T),
                )
            )
            outer = max(outer, len(rows))
            widest = max(widest, hi - lo)
        self.blocks = blocks
        self.cells = sum(b.m.size for b in blocks)
        # roundings along one summand (module docstring): the conversions of its factors and
        # padding, the multiplications of its G and E products and of the padding, the
        # coefficient, M x G and the matrix product's additions, x E, the outer additions (a
        # summand passes through the additions of its own block's rows, then the blocks' sum)
        # (every block's rows and the blocks), the division
        rounds = self.factor_roundings
        factors = max(
            (sum(rounds[f] for f in g + e) + len(g) + len(e) for g, e in zip(gs, es, strict=True)), default=0
        )
        # factors and their G / E products; the padding (1) and x padding (1); the coefficient
        # (1, exact below 2**53); M x G (1) and the additions of the product; x E (1); the outer
        # additions; the denominator (5), x scale (1), the quotient (1), + base (1)
        self.rounding_depth = factors + 2 + 1 + 1 + (widest - 1) + 1 + outer + len(blocks) + 8

    # -- evaluation ------------------------------------------------------------------------------

    def factor_rows(self, cards52: IntArray) -> tuple[FloatArray, FloatArray]:
        """(factors + 3 paddings, states) float64 rows and the denominators N!/(N-6)! per state
        (float64), with the roundings counted in :attr:`rounding_depth`."""
        exact = np.asarray(cards52, dtype=np.int64)
        counts = exact.astype(np.float64)
        n = counts.shape[0]
        # factors exactly in int64 (each counts ordered draws of cards of one value: at most N**6),
        # then one rounding each, to float64
        sizes = pool_matrix()[self.pools] @ exact.T  # (pools used, states)
        x = np.maximum(sizes[self.pair_pool] - self.pair_shift[:, None], 0)  # falling(<0, m) = 0
        stride = self.depth_m + 1
        cum = np.empty((len(self.pair_pool), stride, n), dtype=np.int64)
        cum[:, 0] = 1
        for i in range(1, stride):
            np.multiply(cum[:, i - 1], x - (i - 1), out=cum[:, i])
        fall = np.ones((len(self.fall_at) + 1, n), dtype=np.int64)
        fall[:-1] = cum.reshape(-1, n)[self.fall_at]
        sub = fall[self.sub_cols[0]]
        for col in self.sub_cols[1:]:
            sub = sub * fall[col]
        rows = np.empty((self.nf + 3, n), dtype=np.float64)
        if self.single:
            rows[: self.nf] = sub[self.fac_sub]
        elif self.nf:
            rows[: self.nf] = np.add.reduceat(sub[self.fac_sub], self.fac_start, axis=0)
        total = counts.sum(axis=1)
        rows[self.nf] = (total - 4) * (total - 5)
        rows[self.nf + 1] = total - 5
        rows[self.nf + 2] = 1.0
        denom = total * (total - 1) * (total - 2) * (total - 3) * (total - 4) * (total - 5)
        return rows, denom

    def evs(self, cards52: Any) -> FloatArray:
        """(states, bets) float64 EVs of the unseen counts ``cards52`` (states, 52), every state
        of at least 6 cards and at most :data:`MAX_KERNEL_CARDS`."""
        counts = np.asarray(cards52, dtype=np.int64)
        if counts.ndim != 2 or counts.shape[1] != 52:
            raise ValueError("internal: the kernel takes (states, 52) card counts")
        n = counts.shape[0]
        out = np.empty((n, self.columns), dtype=np.float64)
        scales = np.asarray([v.scale for v in self.vectors], dtype=np.float64)
        for start in range(0, n, STEP):
            part = counts[start : start + STEP]
            total = part.sum(axis=1)
            if len(total) and (int(total.min()) < MAX_CARDS or int(total.max()) > MAX_KERNEL_CARDS):
                raise ValueError("internal: the kernel needs states of 6 to 1,448 cards")
            rows, denom = self.factor_rows(part)
            sums = self.numerators(rows)
            if self.labels:
                sums += self.label_numerators(part, total)
            out[start : start + STEP] = (sums / (denom[None, :] * scales[:, None])).T + self.base
        return out

    def label_numerators(self, cards52: IntArray, sizes: IntArray) -> FloatArray:
        """(bets, states): each card-level bet's label part, sum over its pay classes of the
        exact int64 count times the class's integer pay, in float64 (see :attr:`bound`).  The
        rows' products take the states at once; the leaves, :data:`LABEL_STEP` at a time."""

        ranks = cards52.reshape(-1, 13, 4).sum(axis=2)
        values = np.zeros((len(ranks), 10), dtype=np.int64)
        for rank, v in enumerate(RANK_POINTS):
            values[:, v] += ranks[:, rank]
        falls = falling_tables_array(values)
        pads = _paddings(sizes)
        pools = pool_sizes_many(ranks, cards52)
        out = np.zeros((self.columns, len(ranks)), dtype=np.float64)
        listed = [int(x) for x in sizes]
        for j, part, pays, rows in self.labels:
            counts = np.zeros((len(ranks), len(pays)), dtype=np.int64)
            per = None if rows is None else rows.per_row(falls, pads, max(listed))
            for at in range(0, len(ranks), LABEL_STEP):
                step = slice(at, at + LABEL_STEP)
                if per is None:
                    part.add(counts[step], falls[step], pads[step], pools[:, step], listed[step])
                else:
                    _add_leaves(part, per[:, step], counts[step], pools[:, step], listed[step])
            out[j] = counts.astype(np.float64) @ pays
        return out

    def numerators(self, rows: FloatArray) -> FloatArray:
        """(bets, states) sums of coef x weight from the factor rows."""
        g = self.g_levels.products(rows)
        e = self.e_levels.products(rows)
        pads = rows[self.nf :]
        states = rows.shape[1]
        acc = np.zeros((self.columns, states), dtype=np.float64)
        for blk in self.blocks:
            x = blk.m @ g[blk.lo : blk.hi]
            ep = e[blk.e] * pads[blk.pad]
            if self.columns == 1:
                acc[0] += np.einsum("es,es->s", ep, x)
            else:
                acc += np.einsum("es,ecs->cs", ep, x.reshape(len(blk.e), self.columns, states))
        return acc


_KERNELS: OrderedDict[tuple[int, tuple[int, ...]], tuple[KernelView, tuple[Bet, ...], EVKernel]]
_KERNELS = OrderedDict()


def kernels_for(bets: Sequence[Bet], tableau: Tableau = STANDARD) -> list[tuple[EVKernel, list[int]]]:
    """The kernels that price ``bets`` on shoe states of 6 cards or more (bets that read
    values only share one; a bet that reads cards has its own, exact, since the states of a
    walked shoe are depleted), each with the indices of the bets it prices, in first-use order."""
    groups: list[tuple[KernelView, list[int]]] = []
    values = [i for i, b in enumerate(bets) if not b.reads.sets]
    for reads, members in table_reads([bets[i].reads for i in values], MAX_CARDS):
        groups.append((kernel_view(table_for(reads, MAX_CARDS, tableau)), [values[k] for k in members]))
    for i, bet in enumerate(bets):
        if bet.reads.sets:
            first_four = bet.reads.first_four_only
            groups.append((kernel_view(bet_table(tableau, bet, first_four, False)), [i]))
    out = []
    for view, members in sorted(groups, key=lambda g: g[1][0]):
        chosen = tuple(bets[i] for i in members)
        key = (id(view), tuple(id(b) for b in chosen))
        hit = _KERNELS.get(key)
        if hit is None or hit[0] is not view or any(a is not b for a, b in zip(hit[1], chosen, strict=True)):
            hit = _KERNELS[key] = (view, chosen, EVKernel(view, chosen))
            if len(_KERNELS) > 64:
                _KERNELS.popitem(last=False)
        out.append((hit[2], members))
    return out
