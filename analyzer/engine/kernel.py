"""Exact evaluation at speed: many shoes at once, vectorised with numpy (imported here only).

The compiled table (:func:`analyzer.engine.walk.compile_table`) turns a shoe into a sum, over
compositions, of tally x weight, where a weight is a product of at most seven small factors
(falling factorials of the shoe's counts, and the padding to six cards).  This module evaluates
that sum for one shoe (:func:`table_counts`, the fast scalar path behind
:func:`analyzer.engine.pricing.distribution`) and for many shoes (:func:`batch_ev`), exactly:

* **Fixed width only under a proof.**  Every weight, every partial product of its factors and
  every count is a number of ordered draws of distinct cards, so it is at most
  N!/(N-6)! (the denominator).  When that is below 2**63 (N <= 1448 cards, 27 decks) counts
  are summed directly in int64 and cannot overflow.
* **Otherwise residues.**  Above that, and for the pay-weighted sums of :func:`batch_ev`
  (which can exceed 2**63 even for 8 decks), the sums are computed modulo several primes
  p < 2**31 (products of two residues < 2**62 fit int64) and rebuilt by the Chinese remainder
  theorem.  The primes are chosen per call so that their product exceeds twice a proven bound
  on the result: |sum_f pay_f count_f| <= max|pay| x N!/(N-6)!.
* **Float64 BLAS only where exact.**  The batch contraction multiplies residues split into
  16-bit limbs by small integer tallies; the bound max|tally| x 2**16 x rows < 2**53 is checked
  when a kernel is built, so every product and every partial sum BLAS forms is an integer below
  2**53, exact in float64 whatever the summation order.

The batch kernel splits each composition's weight in two: G, the product of its factors for the
point values below a split value (and the padding), times E, the product for the values from the
split up (the split is chosen per table and bet set to balance the work).  Grouped by how many
cards fall on the E side, the table becomes a few dense blocks, and the sum is E^T M G per
block: one matrix product across all shoes (BLAS), then a short elementwise contraction.  G and
E products share their prefixes (a trie: one multiply per distinct prefix).  Pair-only bets
use the first-four-card table (:func:`analyzer.engine.walk.compile_pair_table`).  Shoes under 6
cards take the reference path (:func:`analyzer.engine.walk.evaluate`).
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, prod
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.bets.model import Bet
from analyzer.core.cards import RANK_POINTS, RANKS_OF_POINT
from analyzer.core.features import Level
from analyzer.core.shoe import MIN_CARDS, Shoe
from analyzer.engine.walk import (
    MAX_CARDS,
    CompiledTable,
    SuitsUnknownError,
    _shape_size,
    _shape_weight,
    compile_pair_table,
    compile_table,
    evaluate,
    falling,
)
from analyzer.errors import BetError, ShoeError

IntArray = npt.NDArray[np.int64]

#: The twelve largest primes below 2**31 (checked in the tests).
PRIMES: tuple[int, ...] = (
    2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
    2147483543, 2147483497, 2147483489, 2147483477, 2147483423, 2147483399,
)
INT64_MAX = 2**63 - 1
_EXACT_FLOAT = 2**53
_LIMB = 16
_LIMB_MASK = (1 << _LIMB) - 1
#: Point value of each of the 13 ranks, as a 13 x 10 0/1 matrix (counts @ it = point counts).
_POINTS = np.zeros((13, 10), dtype=np.int64)
for _r, _v in enumerate(RANK_POINTS):
    _POINTS[_r, _v] = 1


def _capacity() -> int:
    m = 1
    for p in PRIMES:
        m *= p
    return (m - 1) // 2


#: The largest absolute value the residue system recovers.
_RNS_CAPACITY = _capacity()


def primes_for(bound: int) -> tuple[int, ...]:
    """The fewest primes from :data:`PRIMES` whose product exceeds ``2 * bound + 1`` (so a
    result of absolute value at most ``bound`` is recovered from its residues).

    Raises:
        ValueError: the bound needs more primes than :data:`PRIMES` holds (about 2**370).
    """
    out: list[int] = []
    m = 1
    for p in PRIMES:
        if m > 2 * bound + 1:
            break
        out.append(p)
        m *= p
    if m <= 2 * bound + 1:
        raise ValueError(f"result bound {bound} too large for the residue number system")
    return tuple(out)


def crt(residues: Sequence[IntArray], primes: Sequence[int], signed: bool) -> npt.NDArray[Any]:
    """Rebuild integers from their residues modulo ``primes`` (Garner's algorithm, vectorised).

    ``residues[k]`` holds values in [0, primes[k]).  Returns an int64 array when the product of
    the primes is below 2**62, else an object array of Python ints; with ``signed`` the result
    is the representative in (-M/2, M/2], else in [0, M).
    """
    k = len(primes)
    digits = [residues[0].astype(np.int64)]
    for j in range(1, k):
        pj = primes[j]
        # x mod pj from the mixed-radix digits so far (Horner, all in int64 residues)
        acc = digits[-1] % pj
        for i in range(j - 2, -1, -1):
            acc = (acc * (primes[i] % pj) + digits[i]) % pj
        m_mod = 1
        for i in range(j):
            m_mod = m_mod * primes[i] % pj
        inv = pow(m_mod, -1, pj)
        digits.append(((residues[j] - acc) % pj) * inv % pj)
    modulus = prod(primes)
    if modulus < 2**62:
        x: npt.NDArray[Any] = digits[-1].astype(np.int64)
        for i in range(k - 2, -1, -1):
            x = x * primes[i] + digits[i]
    else:
        x = digits[-1].astype(object)
        for i in range(k - 2, -1, -1):
            x = x * primes[i] + digits[i].astype(object)
    if signed:
        x = np.where(x > modulus // 2, x - modulus, x)
    return x


def _mul(a: Any, b: Any, p: int | None) -> Any:
    return a * b if p is None else (a * b) % p


def _add(a: Any, b: Any, p: int | None) -> Any:
    return a + b if p is None else (a + b) % p


def _falling_vec(x: IntArray, m: int, p: int | None) -> IntArray:
    """x (x-1) ... (x-m+1) elementwise (0 where 0 <= x < m), optionally modulo p."""
    out = np.ones_like(x)
    for i in range(m):
        term = x - i if p is None else (x - i) % p
        out = _mul(out, term, p)
    return out


class _Fallings:
    """falling(count, n) for every column of a counts matrix and n = 0..6, computed once."""

    def __init__(self, counts: IntArray, p: int | None) -> None:
        self.counts = counts
        self.p = p
        self.cache: dict[int, IntArray] = {}

    def __call__(self, n: int) -> IntArray:
        got = self.cache.get(n)
        if got is None:
            got = self.cache[n] = _falling_vec(self.counts, n, self.p)
        return got


def _shape_weight_vec(cnt: IntArray, suited: IntArray | None, v: int, shape: tuple[str, object],
                      p: int | None, memo: dict[tuple[int, tuple[int, ...]], IntArray] | None = None,
                      ranks_f: _Fallings | None = None, suits_f: _Fallings | None = None) -> IntArray:
    """Vectorised :func:`analyzer.engine.walk._shape_weight` over rows of counts (``memo``,
    ``ranks_f`` and ``suits_f`` share work across calls for the same rows and modulus)."""
    kind, data = shape
    ranks = RANKS_OF_POINT[v]
    if kind == "v":
        assert isinstance(data, int)
        return _falling_vec(cnt[:, list(ranks)].sum(axis=1), data, p)
    assert isinstance(data, tuple)
    rf = ranks_f or _Fallings(cnt, p)
    if kind == "r":
        total: Any = 0
        for assign in itertools.permutations(ranks, len(data)):
            term: Any = rf(data[0])[:, assign[0]]
            for r, s in zip(assign[1:], data[1:], strict=False):
                term = _mul(term, rf(s)[:, r], p)
            total = _add(total, term, p)
        return np.asarray(total, dtype=np.int64)
    if suited is None:
        raise SuitsUnknownError
    sf = suits_f or _Fallings(suited, p)
    store: dict[tuple[int, tuple[int, ...]], IntArray] = {} if memo is None else memo

    def inner(r: int, sizes: tuple[int, ...]) -> IntArray:
        # the suit sums of every rank at once, (rows, 13), kept under the key (-1, sizes)
        got = store.get((-1, sizes))
        if got is None:
            acc: Any = 0
            for assign in itertools.permutations(range(4), len(sizes)):
                term: Any = sf(sizes[0]).reshape(-1, 13, 4)[:, :, assign[0]]
                for s, n in zip(assign[1:], sizes[1:], strict=True):
                    term = _mul(term, sf(n).reshape(-1, 13, 4)[:, :, s], p)
                acc = _add(acc, term, p)
            got = store[(-1, sizes)] = np.asarray(acc, dtype=np.int64)
        return got[:, r]

    total = 0
    for assign in itertools.permutations(ranks, len(data)):
        first = data[0]
        assert isinstance(first, tuple)
        term = inner(assign[0], first)
        for r, sizes in zip(assign[1:], data[1:], strict=False):
            assert isinstance(sizes, tuple)
            term = _mul(term, inner(r, sizes), p)
        total = _add(total, term, p)
    return np.asarray(total, dtype=np.int64)


def _scalar_shape_weight(shoe: Shoe, v: int, shape: tuple[str, object],
                         memo: dict[tuple[int, tuple[int, ...]], int]) -> int:
    """:func:`analyzer.engine.walk._shape_weight`, with the per-rank suit sums kept in ``memo``
    (one memo per shoe)."""
    kind, data = shape
    if kind != "c":
        return _shape_weight(shoe, v, shape)
    if shoe.suited is None:
        raise SuitsUnknownError
    suited = shoe.suited
    assert isinstance(data, tuple)

    def inner(r: int, sizes: tuple[int, ...]) -> int:
        got = memo.get((r, sizes))
        if got is None:
            got = memo[(r, sizes)] = sum(
                prod(falling(suited[4 * r + s], n) for s, n in zip(assign, sizes, strict=False))
                for assign in itertools.permutations(range(4), len(sizes))
            )
        return got

    return sum(
        prod(inner(r, sizes) for r, sizes in zip(assign, data, strict=False))
        for assign in itertools.permutations(RANKS_OF_POINT[v], len(data))
    )


# -- per-table plans ------------------------------------------------------------------------------


class _Plan:
    """Index arrays of one compiled table: each composition's factor slots (padded with the
    index of a constant 1, the last slot the padding factor) and its entries by feature."""

    def __init__(self, table: CompiledTable) -> None:
        self.table = table
        nf = len(table.factors)
        self.nf = nf
        self.one = nf
        ncomp = len(table.compositions)
        slots = np.full((ncomp, MAX_CARDS + 1), nf, dtype=np.int64)
        for i, (idx, k) in enumerate(table.compositions):
            slots[i, : len(idx)] = idx
            slots[i, MAX_CARDS] = nf + 1 + (k - 4)
        self.slots = slots
        comp, feat, tally = [], [], []
        for i, ents in enumerate(table.entries):
            for fi, t in ents:
                comp.append(i)
                feat.append(fi)
                tally.append(t)
        order = np.argsort(np.asarray(feat, dtype=np.int64), kind="stable")
        self.ent_comp = np.asarray(comp, dtype=np.int64)[order]
        self.ent_feat = np.asarray(feat, dtype=np.int64)[order]
        self.ent_tally = np.asarray(tally, dtype=np.int64)[order]
        self.starts = np.flatnonzero(np.r_[True, self.ent_feat[1:] != self.ent_feat[:-1]])
        if len(self.starts) != len(table.features):
            raise AssertionError("every feature of a compiled table has an entry")
        # residue sums of one feature: < p * max tally * entries per feature; must fit int64
        per_feature = int(np.diff(np.r_[self.starts, len(self.ent_feat)]).max())
        assert PRIMES[0] * int(self.ent_tally.max()) * per_feature < INT64_MAX
        self.card_of_factor = [_shape_size(shape) + m for _, shape, m in table.factors]

    def scalar_factors(self, shoe: Shoe) -> list[int]:
        """Exact factor values for one shoe (Python ints): the table's factors, 1, the pads."""
        points = shoe.point_counts
        n = shoe.size
        weights: dict[tuple[int, tuple[str, object]], int] = {}
        inner: dict[tuple[int, tuple[int, ...]], int] = {}
        vals = []
        for v, shape, m in self.table.factors:
            w = weights.get((v, shape))
            if w is None:
                w = weights[(v, shape)] = _scalar_shape_weight(shoe, v, shape, inner)
            vals.append(w * falling(points[v] - _shape_size(shape), m))
        return [*vals, 1, *(falling(n - k, MAX_CARDS - k) for k in (4, 5, 6))]

    def batch_factors(self, cnt: IntArray, suited: IntArray | None, p: int | None) -> IntArray:
        """Factor values for rows of counts (int64; modulo ``p`` unless ``p`` is None)."""
        n = cnt.shape[0]
        points = cnt @ _POINTS
        size = cnt.sum(axis=1)
        out = np.empty((n, self.nf + 4), dtype=np.int64)
        shapes: dict[tuple[int, tuple[str, object]], IntArray] = {}
        memo: dict[tuple[int, tuple[int, ...]], IntArray] = {}
        ranks_f = _Fallings(cnt, p)
        suits_f = None if suited is None else _Fallings(suited, p)
        for j, (v, shape, m) in enumerate(self.table.factors):
            key = (v, shape)
            if key not in shapes:
                shapes[key] = _shape_weight_vec(cnt, suited, v, shape, p, memo, ranks_f, suits_f)
            out[:, j] = _mul(shapes[key], _falling_vec(points[:, v] - _shape_size(shape), m, p), p)
        out[:, self.nf] = 1
        for k in (4, 5, 6):
            out[:, self.nf + 1 + k - 4] = _falling_vec(size - k, MAX_CARDS - k, p)
        return out

    def counts_from_factors(self, fx: IntArray, p: int | None) -> IntArray:
        """Feature counts (int64) from one shoe's factors ``fx``: exact when ``p`` is None,
        else residues modulo ``p``."""
        w = fx[self.slots[:, 0]]
        for j in range(1, MAX_CARDS + 1):
            w = _mul(w, fx[self.slots[:, j]], p)
        vals = w[self.ent_comp] * self.ent_tally
        out: IntArray = np.add.reduceat(vals, self.starts)
        return out if p is None else out % p


_PLANS: dict[int, _Plan] = {}


def _plan(table: CompiledTable) -> _Plan:
    plan = _PLANS.get(id(table))
    if plan is None or plan.table is not table:
        plan = _PLANS[id(table)] = _Plan(table)
    return plan


def table_counts(table: CompiledTable, shoe: Shoe) -> tuple[list[int], int]:
    """Exactly :func:`analyzer.engine.walk.evaluate`: per feature of ``table``, the number of
    ordered K-card sequences (K = min(N, 6)) ending in it, and N!/(N-K)! -- computed with
    int64 arrays when N!/(N-6)! < 2**63, else modulo several primes and rebuilt by CRT.

    Raises:
        SuitsUnknownError: a CARD-level table on a shoe whose suits are unknown.
    """
    n = shoe.size
    if n < MAX_CARDS:
        return evaluate(table, shoe)
    plan = _plan(table)
    denom = falling(n, MAX_CARDS)
    fvals = plan.scalar_factors(shoe)
    if denom <= INT64_MAX:
        counts = plan.counts_from_factors(np.asarray(fvals, dtype=np.int64), None)
        return counts.tolist(), denom
    try:
        primes = primes_for(denom)
    except ValueError:  # beyond the residue system (~10**17 decks): exact Python integers
        return evaluate(table, shoe)
    res = [plan.counts_from_factors(np.asarray([f % p for f in fvals], dtype=np.int64), p)
           for p in primes]
    return [int(x) for x in crt(res, primes, signed=False)], denom


# -- pay vectors ------------------------------------------------------------------------------------

_PAYS: OrderedDict[tuple[int, int], tuple[Bet, CompiledTable, tuple[int, ...], int]] = OrderedDict()


def pay_vector(bet: Bet, table: CompiledTable) -> tuple[tuple[int, ...], int]:
    """``(integer pays per feature of table, scale L)``: the bet pays ``pays[f] / L`` per unit
    on a coup ending in ``table.features[f]`` (L = lcm of the pays' denominators).  Cached per
    (bet object, table)."""
    key = (id(bet), id(table))
    hit = _PAYS.get(key)
    if hit is not None and hit[0] is bet and hit[1] is table:
        _PAYS.move_to_end(key)
        return hit[2], hit[3]
    pays = [bet.payout(f) for f in table.features]
    scale = lcm(*(x.denominator for x in pays)) if pays else 1
    ints = tuple(int(x * scale) for x in pays)
    _PAYS[key] = (bet, table, ints, scale)
    if len(_PAYS) > 4096:
        _PAYS.popitem(last=False)
    return ints, scale


def _flag_combos(level: Level) -> list[tuple[bool, bool, bool | None, bool | None]]:
    out: list[tuple[bool, bool, bool | None, bool | None]] = []
    for pp, bp in itertools.product((False, True), repeat=2):
        if level is Level.RANK:
            out.append((pp, bp, None, None))
            continue
        for ps in ((False, True) if pp else (False,)):
            for bs in ((False, True) if bp else (False,)):
                out.append((pp, bp, ps, bs))
    return out


_PAIR_ONLY: OrderedDict[int, tuple[Bet, bool]] = OrderedDict()


def pair_only(bet: Bet) -> bool:
    """True when ``bet`` (at RANK or CARD level, not reading third cards) settles every coup
    by its first-four-card pair flags alone, so :func:`compile_pair_table` can price it.

    Checked, not assumed: the bet is settled on every value-level coup record combined with
    every pair-flag combination (a superset of the reachable records) and must give one
    result per combination.  Cached per bet object.
    """
    hit = _PAIR_ONLY.get(id(bet))
    if hit is not None and hit[0] is bet:
        return hit[1]
    ok = False
    if bet.level > Level.VALUE and not bet.thirds:
        from analyzer.engine.walk import PAIR_REPRESENTATIVE

        base = [*compile_table(Level.VALUE, False).features, PAIR_REPRESENTATIVE]
        ok = True
        try:
            for pp, bp, ps, bs in _flag_combos(bet.level):
                settled = {bet.settle(f._replace(player_pair=pp, banker_pair=bp, player_suited_pair=ps,
                                                 banker_suited_pair=bs)) for f in base}
                if len(settled) != 1:
                    ok = False
                    break
        except Exception:
            ok = False
    _PAIR_ONLY[id(bet)] = (bet, ok)
    if len(_PAIR_ONLY) > 4096:
        _PAIR_ONLY.popitem(last=False)
    return ok


def table_for(bet: Bet, size: int) -> CompiledTable:
    """The smallest compiled table that prices ``bet`` on a shoe of ``size`` cards: the
    first-four-card pair table for pair-only bets (when size >= 6), else the bet's level."""
    if bet.level > Level.VALUE and size >= MAX_CARDS and pair_only(bet):
        return compile_pair_table(bet.level)
    return compile_table(bet.level, bet.thirds)


# -- the batch kernel -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Block:
    e: IntArray  # indices into the E-side products
    g: IntArray  # indices into the G-side products
    m: npt.NDArray[np.float64]  # (len(e) * columns, len(g)), small exact integers


class _Kernel:
    """sum_f pays[f, c] count_f for many shoes, by blocks of G^T M E (see the module doc).

    Each composition's weight is split into the product of its factors of point value below
    ``split`` (and the padding), the G side, times those of value ``split`` and above, the E
    side.  G products go through BLAS (one matrix product per block, across shoes), E products
    through a short elementwise contraction; ``split`` is chosen to balance the two.
    """

    def __init__(self, plan: _Plan, pays: IntArray) -> None:
        table = plan.table
        self.plan = plan
        self.columns = pays.shape[1]
        ncomp = len(table.compositions)
        # per-composition pay-weighted tallies: M[i, c] = sum over its entries t * pays[f, c]
        mcomp = np.zeros((ncomp, self.columns), dtype=np.int64)
        np.add.at(mcomp, plan.ent_comp, plan.ent_tally[:, None] * pays[plan.ent_feat])
        best: tuple[float, int] | None = None
        for split in range(4, 10):
            cost = self._cost(split)
            if best is None or cost < best[0]:
                best = (cost, split)
        assert best is not None
        self.split = best[1]
        self._build(mcomp)

    def _keys(self, split: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int]]:
        plan, table = self.plan, self.plan.table
        gs, es, blocks = [], [], []
        for idx, k in table.compositions:
            g = (plan.nf + 1 + k - 4, *sorted(i for i in idx if table.factors[i][0] < split))
            e = tuple(sorted(i for i in idx if table.factors[i][0] >= split))
            gs.append(g)
            es.append(e)
            blocks.append(sum(plan.card_of_factor[i] for i in e))
        return gs, es, blocks

    def _cost(self, split: int) -> float:
        gs, es, _ = self._keys(split)
        g_nodes = len({key[:j] for key in set(gs) for j in range(1, len(key) + 1)})
        e_nodes = len({key[:j] for key in set(es) for j in range(1, len(key) + 1)})
        return float(3 * (g_nodes + e_nodes) + 6 * len(set(es)) * self.columns)

    def _build(self, mcomp: IntArray) -> None:
        gs, es, comp_block = self._keys(self.split)
        self.g_trie = _Trie(sorted(set(gs), key=lambda x: (len(x), x)))
        self.e_trie = _Trie(sorted(set(es), key=lambda x: (len(x), x)))
        comp_g = [self.g_trie.index[x] for x in gs]
        comp_e = [self.e_trie.index[x] for x in es]
        blocks: list[_Block] = []
        for b in sorted(set(comp_block)):
            members = [i for i, x in enumerate(comp_block) if x == b]
            gl = sorted({comp_g[i] for i in members})
            el = sorted({comp_e[i] for i in members})
            gpos = {x: j for j, x in enumerate(gl)}
            epos = {x: j for j, x in enumerate(el)}
            dense = np.zeros((len(gl), len(el), self.columns), dtype=np.int64)
            for i in members:
                dense[gpos[comp_g[i]], epos[comp_e[i]]] = mcomp[i]
            biggest = int(np.abs(dense).max()) if dense.size else 0
            # exactness of the float64 products: every partial sum below 2**53
            if biggest * (1 << _LIMB) * len(gl) >= _EXACT_FLOAT or len(el) >= 1 << 15:
                raise ValueError("pays too large for the exact float64 contraction")
            blocks.append(_Block(e=np.asarray(el), g=np.asarray(gl),
                                 m=dense.reshape(len(gl), -1).T.astype(np.float64)))
        self.blocks = blocks
        self.cells = sum(b.m.size for b in blocks)

    def residues(self, fx: IntArray, p: int) -> IntArray:
        """sum_f pays[f, c] count_f mod p: (columns, shoes), from factor values ``fx``
        (factors, shoes) modulo p."""
        n = fx.shape[1]
        g = self.g_trie.products(fx, p)
        e = self.e_trie.products(fx, p)
        acc = np.zeros((self.columns, n), dtype=np.int64)
        for blk in self.blocks:
            gj = g[blk.g]
            x0 = (blk.m @ (gj & _LIMB_MASK).astype(np.float64)).astype(np.int64)
            x1 = (blk.m @ (gj >> _LIMB).astype(np.float64)).astype(np.int64)
            x = (((x1 % p) << _LIMB) + x0) % p
            x = x.reshape(len(blk.e), self.columns, n)
            ej = e[blk.e]
            s0 = np.einsum("ln,lcn->cn", ej & _LIMB_MASK, x)
            s1 = np.einsum("ln,lcn->cn", ej >> _LIMB, x)
            acc = (acc + ((s1 % p) << _LIMB) + s0) % p
        return acc


class _Trie:
    """Products of factor values over a set of keys (tuples of factor indices), one multiply
    per distinct prefix: node = parent node x factor."""

    def __init__(self, keys: list[tuple[int, ...]]) -> None:
        nodes: dict[tuple[int, ...], int] = {(): 0}
        levels: list[tuple[list[int], list[int], list[int]]] = []
        for key in keys:
            for j in range(1, len(key) + 1):
                pre = key[:j]
                if pre not in nodes:
                    nodes[pre] = len(nodes)
                    while len(levels) < j:
                        levels.append(([], [], []))
                    levels[j - 1][0].append(nodes[pre])
                    levels[j - 1][1].append(nodes[pre[:-1]])
                    levels[j - 1][2].append(pre[-1])
        self.size = len(nodes)
        self.levels = [(np.asarray(a), np.asarray(b), np.asarray(c)) for a, b, c in levels]
        self.key_nodes = np.asarray([nodes[k] for k in keys], dtype=np.int64)
        self.index = {k: i for i, k in enumerate(keys)}

    def products(self, fx: IntArray, p: int | None) -> IntArray:
        """(keys, shoes) products of the factor values ``fx`` (factors, shoes), modulo ``p``
        unless it is None (then the caller's bound guarantees they fit int64)."""
        out = np.empty((self.size, fx.shape[1]), dtype=np.int64)
        out[0] = 1
        for node, parent, col in self.levels:
            out[node] = _mul(out[parent], fx[col], p)
        return out[self.key_nodes]


_KERNELS: OrderedDict[tuple[int, bytes], tuple[CompiledTable, _Kernel | None]] = OrderedDict()


def _kernel(table: CompiledTable, pays: IntArray) -> _Kernel | None:
    key = (id(table), pays.tobytes() + bytes(str(pays.shape), "ascii"))
    hit = _KERNELS.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    try:
        kernel: _Kernel | None = _Kernel(_plan(table), pays)
    except (ValueError, OverflowError):
        kernel = None
    _KERNELS[key] = (table, kernel)
    if len(_KERNELS) > 64:
        _KERNELS.popitem(last=False)
    return kernel


# -- the public batch API ---------------------------------------------------------------------------


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


#: Counts above this per rank (or card) go through the Python-integer path: the vectorised
#: kernels keep every residue product below 2**62.
_KERNEL_COUNT_LIMIT = 2**31


def _as_counts(shoes: Any) -> tuple[npt.NDArray[Any], npt.NDArray[Any] | None]:
    """(n, 13) rank counts and, when given, (n, 52) rank-and-suit counts: int64 arrays, or
    object arrays of Python ints when a count does not fit int64."""
    if isinstance(shoes, Shoe):
        shoes = [shoes]
    if isinstance(shoes, list | tuple) and shoes and all(isinstance(s, Shoe) for s in shoes):
        rows = [s.suited for s in shoes] if all(s.suited is not None for s in shoes) else [
            s.counts for s in shoes]
        big = max(max(r) for r in rows if r is not None) >= 2**62
        arr = np.asarray(rows, dtype=object if big else np.int64)
    else:
        if isinstance(shoes, np.ma.MaskedArray):
            raise ShoeError("bad batch of shoes: a masked array; give plain whole-number counts")
        try:
            raw = np.asarray(shoes)
        except (TypeError, ValueError) as exc:
            raise ShoeError(f"bad batch of shoes: {exc}; give whole-number counts per rank") from None
        if raw.dtype.kind in "bcUSV" or (raw.dtype.kind == "O" and not all(
                isinstance(x, int | np.integer) and not isinstance(x, bool) for x in raw.ravel())):
            raise ShoeError(f"bad batch of shoes: counts of type {raw.dtype}; give whole numbers >= 0")
        if raw.dtype.kind == "f":
            if raw.size and not all(float(x).is_integer() for x in raw.ravel()):
                raise ShoeError("shoe counts must be whole numbers >= 0")
            if raw.size and float(np.abs(raw).max()) >= 2**62:
                raise ShoeError("bad batch of shoes: float counts this large are not exact; give integers")
            raw = raw.astype(np.int64)
        if raw.dtype.kind == "O":
            big = bool(raw.size) and max(abs(int(x)) for x in raw.ravel()) >= 2**62
            arr = raw if big else raw.astype(np.int64)
        else:
            arr = raw.astype(np.int64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] not in (13, 52):
        raise ShoeError(f"batch shoes need shape (n, 13) rank counts or (n, 52) rank-and-suit counts, "
                        f"got {tuple(np.shape(shoes))}")
    negative = any(int(x) < 0 for x in arr.ravel()) if arr.dtype == object else bool((arr < 0).any())
    if negative:
        raise ShoeError("shoe counts must be whole numbers >= 0")
    if arr.shape[1] == 52:
        ranks = np.asarray([[sum(int(x) for x in row[4 * r : 4 * r + 4]) for r in range(13)] for row in arr],
                           dtype=object) if arr.dtype == object else arr.reshape(-1, 13, 4).sum(axis=2)
        return ranks, arr
    return arr, None


def batch_ev(shoes: Any, bets: Iterable[Bet], *, chunk: int | None = None) -> BatchEV:
    """Exact EVs of ``bets`` on many shoes at once.

    Args:
        shoes: an (n, 13) array of rank counts (A, 2, ..., 9, 10, J, Q, K), an (n, 52) array of
            rank-and-suit counts (As, Ah, Ad, Ac, 2s, ...; needed by suited bets), or a list of
            :class:`~analyzer.core.shoe.Shoe`.
        bets: the bets (any level; pair-only bets use the small first-four-card table).
        chunk: shoes per vectorised step (default: sized to the kernel).

    Returns:
        :class:`BatchEV`, equal bit for bit to pricing each shoe alone
        (``price(bet, shoe).ev``).

    Raises:
        ShoeError: a bad array (shape, negative or non-integer counts, a shoe under 4 cards).
        BetError: a suited bet on rank counts.
        ValueError: ``chunk`` below 1.

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
    sizes = cnt.sum(axis=1)
    if n and int(sizes.min()) < MIN_CARDS:
        raise ShoeError(
            f"a shoe of {int(sizes.min())} cards cannot deal a coup: it needs at least {MIN_CARDS}"
        )
    if suited is None and any(b.level is Level.CARD for b in chosen):
        raise BetError("suited bets need the suits of the cards: give (n, 52) rank-and-suit counts")
    denominators = [falling(int(s), min(int(s), MAX_CARDS)) for s in sizes]
    numerators = np.zeros((n, len(chosen)), dtype=object)
    scales = [1] * len(chosen)
    widest = suited if suited is not None else cnt
    if widest.dtype == object:  # giant counts: Python integers, row by row
        small = np.asarray([max(int(x) for x in row) <= _KERNEL_COUNT_LIMIT for row in widest], dtype=bool)
        full = np.asarray([int(x) >= MAX_CARDS for x in sizes], dtype=bool) & small
    else:
        full = (sizes >= MAX_CARDS) & (widest.max(axis=1) <= _KERNEL_COUNT_LIMIT)
    rows = np.flatnonzero(full)
    if len(rows):
        cnt_rows = np.asarray(cnt[rows], dtype=np.int64)
        suited_rows = None if suited is None else np.asarray(suited[rows], dtype=np.int64)
    # group the bets by the table that prices them
    groups: dict[int, tuple[CompiledTable, list[int]]] = {}
    for j, bet in enumerate(chosen):
        table = table_for(bet, MAX_CARDS)
        groups.setdefault(id(table), (table, []))[1].append(j)
    for table, cols in groups.values():
        vecs = [pay_vector(chosen[j], table) for j in cols]
        for j, (_, scale) in zip(cols, vecs, strict=False):
            scales[j] = scale
        if len(rows):
            pays = np.asarray([v for v, _ in vecs], dtype=object).T
            block = _evaluate_rows(table, pays, cnt_rows, suited_rows, chunk)
            numerators[np.ix_(rows, np.asarray(cols, dtype=np.int64))] = block
    # short shoes (under 6 cards, whose coups can run out) and giant ones: exact Python integers
    for s in np.flatnonzero(~full):
        shoe = Shoe(tuple(int(x) for x in cnt[s]),
                    None if suited is None else tuple(int(x) for x in suited[s]))
        for j, bet in enumerate(chosen):
            table = compile_table(bet.level, bet.thirds)
            counts, _ = table_counts(table, shoe)
            ints, scale = pay_vector(bet, table)
            numerators[s, j] = sum(c * x for c, x in zip(counts, ints, strict=False))
            scales[j] = scale
    return BatchEV(chosen, numerators, tuple(scales), tuple(denominators))


def _evaluate_rows(table: CompiledTable, pays_obj: npt.NDArray[Any], cnt: IntArray,
                   suited: IntArray | None, chunk: int | None) -> npt.NDArray[Any]:
    """Numerators sum_f pays[f, c] count_f for shoes of at least 6 cards (object array)."""
    plan = _plan(table)
    n = cnt.shape[0]
    max_pay = max((abs(int(x)) for x in pays_obj.ravel()), default=0)
    size_max = int(cnt.sum(axis=1).max()) if n else 0
    bound = max(max_pay, 1) * falling(size_max, MAX_CARDS)
    kernel = None
    if max_pay < 2**40 and bound < _RNS_CAPACITY:
        kernel = _kernel(table, pays_obj.astype(np.int64))
    if kernel is None:  # giant pays or giant shoes: exact Python ints per shoe
        out = np.zeros((n, pays_obj.shape[1]), dtype=object)
        for s in range(n):
            shoe = Shoe(tuple(int(x) for x in cnt[s]),
                        None if suited is None else tuple(int(x) for x in suited[s]))
            counts, _ = table_counts(table, shoe)
            out[s] = [sum(c * int(x) for c, x in zip(counts, pays_obj[:, j], strict=True))
                      for j in range(pays_obj.shape[1])]
        return out
    primes = primes_for(bound)
    per_shoe = kernel.g_trie.size + kernel.e_trie.size * kernel.columns
    step = chunk or max(8, min(2048, (1 << 21) // max(per_shoe, 1)))
    parts: list[npt.NDArray[Any]] = []
    for start in range(0, n, step):
        c = cnt[start : start + step]
        su = None if suited is None else suited[start : start + step]
        res = [kernel.residues(np.ascontiguousarray(plan.batch_factors(c, su, p).T), p) for p in primes]
        parts.append(crt(res, primes, signed=True).T.astype(object))
    return np.concatenate(parts, axis=0) if parts else np.zeros((0, pays_obj.shape[1]), dtype=object)

