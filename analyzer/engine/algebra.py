"""The weight algebra: how many ordered ways a shoe deals a refined composition.

A composition (cards drawn, and for the read cards the pools they come from) weighs, on a
shoe, the number of ordered sequences of distinct physical cards that realise it, padded to
K = min(N, 6) cards (docs/ARCHITECTURE.md, "The weight algebra").  Pools are nested (value ⊃
rank ⊃ rank and colour ⊃ card, and value ⊃ value and suit), so a composition whose read cards
name every label weighs a product of falling factorials, one per value:

    factor(v) = prod over read pools P of value v: falling(|P|, m_P) x falling(|v| - M_v, u_v)

(M_v read cards and u_v unread cards of value v), times the padding falling(N - k, K - k).
Labels read by equality are summed over: a rank class over the 10-valued ranks and a same-card
suit over the suits *inside* a factor; a suit (colour) class over the suits (colours) *across*
factors, which is why a composition is a sum of *terms*, each a product of factors.

Everything is a sum of products of falling factorials, so one structure, a
:class:`Program` (three levels: falling factorials of pool sizes, factors, terms), is
evaluated by one scalar implementation (:func:`evaluate_scalar`, Python integers, exact at any
size) and one vectorised one (:func:`evaluate_vector`, numpy int64, exact under the bound
checked by :func:`fits_int64`).  On a shoe whose suits (and 10-valued ranks) are alike, every
summand of a class sum is equal: the program then evaluates one summand times their number.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analyzer.core.cards import RANK_POINTS, RANKS_OF_POINT
from analyzer.core.shoe import MAX_CARDS
from analyzer.engine.demand import Demand, Part, SignedDemands, part_key

INT64_MAX = 2**63 - 1
_TEN_RANKS = RANKS_OF_POINT[0]

#: A pool of physical cards: (kind, value or rank, suit or colour or -1).
Pool = tuple[str, int, int]
#: Pools, each a set of physical cards: value v, rank r, card (r, s), value-suit (v, s),
#: value-colour (v, c), rank-colour (r, c), and the pictures (J, Q, K: ``("p", 0, -1)``, last,
#: so that the pools before it keep their indices); their indices in a pool vector.
POOLS: tuple[Pool, ...] = (
    *(("v", v, -1) for v in range(10)),
    *(("r", r, -1) for r in range(13)),
    *(("c", r, s) for r in range(13) for s in range(4)),
    *(("vs", v, s) for v in range(10) for s in range(4)),
    *(("vc", v, c) for v in range(10) for c in range(2)),
    *(("rc", r, c) for r in range(13) for c in range(2)),
    ("p", 0, -1),
)
POOL_INDEX: dict[Pool, int] = {p: i for i, p in enumerate(POOLS)}
#: Pools whose size needs the suits of the cards (not just their ranks).
SUITED_POOLS = frozenset(i for i, p in enumerate(POOLS) if p[0] not in ("v", "r", "p"))
#: The picture ranks (J, Q, K) and the pictures' pool.
PICTURE_RANKS = RANKS_OF_POINT[0][1:]
PICTURE_POOL = POOL_INDEX[("p", 0, -1)]
_COLOUR_SUITS = ((1, 2), (0, 3))  # red: hearts, diamonds; black: spades, clubs


def pool_members(pool: Pool) -> list[int]:
    """The card indices (4 x rank + suit) a pool holds."""
    kind, a, b = pool
    if kind == "v":
        return [4 * r + s for r in RANKS_OF_POINT[a] for s in range(4)]
    if kind == "r":
        return [4 * a + s for s in range(4)]
    if kind == "p":
        return [4 * r + s for r in PICTURE_RANKS for s in range(4)]
    if kind == "c":
        return [4 * a + b]
    if kind == "vs":
        return [4 * r + b for r in RANKS_OF_POINT[a]]
    if kind == "vc":
        return [4 * r + s for r in RANKS_OF_POINT[a] for s in _COLOUR_SUITS[b]]
    return [4 * a + s for s in _COLOUR_SUITS[b]]


def falling(x: int, m: int) -> int:
    """Falling factorial x (x-1) ... (x-m+1); 0 when x < m (fewer cards than draws).

    >>> falling(416, 2), falling(3, 4), falling(5, 0)
    (172640, 0, 1)
    """
    if x < m:
        return 0
    out = 1
    for i in range(m):
        out *= x - i
    return out


# -- building programs ---------------------------------------------------------------------

FallKey = tuple[int, int, int]  # (pool index, shift, m): falling(|pool| - shift, m)
#: A factor: (value, read pools as ((rank part, suit part), m) sorted, unread count).
FactorKey = tuple[int, tuple[tuple[tuple[Part, Part], int], ...], int]


def _concrete_pool(v: int, r: Part, s: Part) -> Pool | None:
    """The pool of a slot with concrete labels; ``None`` when it is the value pool itself."""
    if r is not None and r[0] == "p":  # a picture: read without suits (Reads.of names such ranks)
        assert s is None, "a picture's suit is never read"
        return ("p", 0, -1)
    rank = None if r is None else r[1]
    if rank is not None and v != 0:
        rank = None  # a value of one rank: its rank pool is the value pool
    single = RANKS_OF_POINT[v][0] if v != 0 else None
    if s is None:
        return None if rank is None else ("r", rank, -1)
    kind, label = s
    if kind == "n":
        if rank is not None:
            return ("c", rank, label)
        return ("c", single, label) if single is not None else ("vs", v, label)
    assert kind == "nc"
    if rank is not None:
        return ("rc", rank, label)
    return ("rc", single, label) if single is not None else ("vc", v, label)


class ProgramBuilder:
    """Accumulates compositions into a :class:`Program`, sharing falling factorials and factors."""

    def __init__(self) -> None:
        self.falls: dict[FallKey, int] = {}
        self.subterms: dict[tuple[int, ...], int] = {}
        self.factors: dict[FactorKey, int] = {}
        self.factor_parts: list[tuple[list[int], bool, bool]] = []  # subterms, needs ten, needs suit
        self.compositions: dict[
            tuple[int, tuple[tuple[tuple[tuple[tuple[int, ...], int], ...], int], ...]], int
        ] = {}
        self._by_demand: dict[tuple[SignedDemands, tuple[int, ...], int], int | None] = {}
        self._orbits: dict[tuple[Demand, tuple[int, ...]], tuple[tuple[tuple[int, ...], int], ...]] = {}
        self._value_factor: dict[tuple[object, ...], int] = {}

    def composition(self, demands: SignedDemands, unread: Sequence[int], cards: int) -> int | None:
        """The index of the composition weighing the signed sum of ``demands`` (read slots),
        with ``unread`` values, ``cards`` in all; ``None`` when the sum cancels to 0."""
        key = (demands, tuple(unread), cards)
        if key in self._by_demand:
            return self._by_demand[key]
        orbits: Counter[tuple[tuple[tuple[int, ...], int], ...]] = Counter()
        for sign, demand in demands:
            orbits[self._orbit(demand, tuple(unread))] += sign
        kept = tuple(sorted((o, m) for o, m in orbits.items() if m))
        index = self.compositions.setdefault((cards, kept), len(self.compositions)) if kept else None
        self._by_demand[key] = index
        return index

    def _orbit(self, demand: Demand, unread: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
        """The terms of one demand: one product of factors per injective assignment of its
        suit (colour) classes; they are equal on a suit-alike shoe."""
        hit = self._orbits.get((demand, unread))
        if hit is not None:
            return hit
        terms: Counter[tuple[int, ...]] = Counter()
        loose = Counter(unread)
        per_value: dict[int, list[tuple[Part, Part, int]]] = {}
        for (v, r, s), m in demand:
            if s is None and (r is None or (r[0] == "n" and v != 0)):
                loose[v] += m  # reads nothing finer than the value: the value pool itself
            else:
                per_value.setdefault(v, []).append((_norm_rank(v, r), s, m))
        values = sorted(set(per_value) | set(loose))
        suit_set: set[int] = set()
        colour_set: set[int] = set()
        for held in per_value.values():
            for _, s, _ in held:
                if s is not None:
                    if s[0] == "g":
                        suit_set.add(s[1])
                    elif s[0] == "gc":
                        colour_set.add(s[1])
        suits, colours = sorted(suit_set), sorted(colour_set)
        classes = bool(suits or colours)  # else the labels below are all -1: the slots tell them
        frozen = {v: tuple(per_value.get(v, ())) for v in values}
        for sp in itertools.permutations(range(4), len(suits)):
            smap = dict(zip(suits, sp, strict=True))
            for cp in itertools.permutations(range(2), len(colours)):
                cmap = dict(zip(colours, cp, strict=True))
                fids = []
                for v in values:
                    slots = frozen[v]
                    labels = (
                        tuple(
                            smap[s[1]] if s[0] == "g" else cmap[s[1]] if s[0] == "gc" else -1
                            for _, s, _ in slots
                            if s is not None
                        )
                        if classes
                        else ()
                    )
                    memo_key = (v, slots, loose.get(v, 0), labels)
                    fid = self._value_factor.get(memo_key)
                    if fid is None:
                        pools = [((r, _named_suit(s, smap, cmap)), m) for r, s, m in slots]
                        fid = self._value_factor[memo_key] = self._factor(
                            (v, _canonical_pools(pools), loose.get(v, 0))
                        )
                    fids.append(fid)
                terms[tuple(sorted(fids))] += 1
        out = tuple(sorted(terms.items()))
        self._orbits[(demand, unread)] = out
        return out

    def _fall(self, pool: Pool, shift: int, m: int) -> int:
        return self.falls.setdefault((POOL_INDEX[pool], shift, m), len(self.falls))

    def _factor(self, key: FactorKey) -> int:
        hit = self.factors.get(key)
        if hit is not None:
            return hit
        v, pools, unread = key
        read = sum(m for _, m in pools)
        subterms: list[int] = []
        has_ranks = any(r is not None and r[0] == "c" for (r, _), _ in pools)
        has_local = any(s is not None and s[0] == "l" for (_, s), _ in pools)
        for concrete in _expand_locals(v, pools):
            # a rank pool drawn beside cards of that rank fixed finer (a card, a colour) holds
            # those cards too: it gives only what they leave (the pools of a leaf are nested)
            inner: Counter[int] = Counter()
            for p, m in concrete:
                if p[0] in ("c", "rc"):
                    inner[p[1]] += m
            falls = [self._fall(p, inner[p[1]] if p[0] == "r" else 0, m) for p, m in concrete if m]
            if unread:
                falls.append(self._fall(("v", v, -1), read, unread))
            subterms.append(self.subterms.setdefault(tuple(sorted(falls)), len(self.subterms)))
        index = self.factors[key] = len(self.factors)
        self.factor_parts.append((subterms, has_ranks, has_local))
        return index

    def build(self) -> Program:
        """The finished program (compositions flattened into arrays)."""
        cards: list[int] = []
        term_start: list[int] = [0]
        term_factors: list[int] = []
        factor_start: list[int] = [0]
        term_mult: list[int] = []
        term_orbit: list[int] = []
        for comp_cards, orbits in self.compositions:
            cards.append(comp_cards)
            for k, (terms, mult) in enumerate(orbits):
                for fids, n in terms:
                    term_factors.extend(fids)
                    factor_start.append(len(term_factors))
                    term_mult.append(mult * n)
                    term_orbit.append(k)
            term_start.append(len(term_mult))
        return Program(
            falls=tuple(self.falls),
            subterms=tuple(self.subterms),
            factors=tuple((tuple(s), ten, suit) for s, ten, suit in self.factor_parts),
            cards=tuple(cards),
            term_start=tuple(term_start),
            term_factors=tuple(term_factors),
            factor_start=tuple(factor_start),
            term_mult=tuple(term_mult),
            term_orbit=tuple(term_orbit),
        )


def _named_suit(s: Part, smap: dict[int, int], cmap: dict[int, int]) -> Part:
    """A slot's suit part with its global class (if any) replaced by the assigned label."""
    if s is not None and s[0] == "g":
        return ("n", smap[s[1]])
    if s is not None and s[0] == "gc":
        return ("nc", cmap[s[1]])
    return s


def _norm_rank(v: int, r: Part) -> Part:
    if r is not None and r[0] == "n" and v != 0:
        return None  # the only rank of its value
    return r


def _canonical_pools(pools: list[tuple[tuple[Part, Part], int]]) -> tuple[tuple[tuple[Part, Part], int], ...]:
    if not pools:
        return ()
    return _canonical_pools_of(tuple(pools))


@functools.lru_cache(maxsize=65536)
def _canonical_pools_of(
    pools: tuple[tuple[tuple[Part, Part], int], ...],
) -> tuple[tuple[tuple[Part, Part], int], ...]:
    """Rename rank classes (by trying every renaming) and same-card suits (within each rank, by
    their counts) so that equal factors get equal keys."""
    merged: Counter[tuple[Part, Part]] = Counter()
    for part, m in pools:
        merged[part] += m
    classes = sorted({r[1] for (r, _) in merged if r is not None and r[0] == "c"})
    best: tuple[tuple[tuple[Part, Part], int], ...] | None = None
    for perm in itertools.permutations(range(len(classes))):
        rmap = dict(zip(classes, perm, strict=True))
        renamed: Counter[tuple[Part, Part]] = Counter()
        for (r, s), m in merged.items():
            r2 = ("c", rmap[r[1]]) if r is not None and r[0] == "c" else r
            renamed[(r2, s)] += m
        locals_by_rank: dict[Part, list[tuple[int, int]]] = {}
        for (r, s), m in renamed.items():
            if s is not None and s[0] == "l":
                locals_by_rank.setdefault(r, []).append((m, s[1]))
        final: Counter[tuple[Part, Part]] = Counter()
        relabel = {
            r: {old: new for new, (_, old) in enumerate(sorted(v, key=lambda x: (-x[0], x[1])))}
            for r, v in locals_by_rank.items()
        }
        for (r, s), m in renamed.items():
            if s is not None and s[0] == "l":
                s = ("l", relabel[r][s[1]])
            final[(r, s)] += m
        key = tuple(sorted(final.items(), key=_pool_key))
        if best is None or [_pool_key(x) for x in key] < [_pool_key(x) for x in best]:
            best = key
    return best if best is not None else ()


def _pool_key(item: tuple[tuple[Part, Part], int]) -> tuple[tuple[str, int], tuple[str, int], int]:
    (r, s), m = item
    return (part_key(r), part_key(s), m)


def _expand_locals(
    v: int, pools: tuple[tuple[tuple[Part, Part], int], ...]
) -> list[list[tuple[Pool, int]]]:
    """Every injective assignment of rank classes to 10-valued ranks and, per rank, of
    same-card suits to suits: the concrete pools of each summand."""
    classes = sorted({r[1] for (r, _), _ in pools if r is not None and r[0] == "c"})
    named_ranks = {r[1] for (r, _), _ in pools if r is not None and r[0] == "n"}
    free = [t for t in _TEN_RANKS if t not in named_ranks]
    out = []
    for ranks in itertools.permutations(free, len(classes)):
        rmap = dict(zip(classes, ranks, strict=True))
        concrete_rank = [
            ((("n", rmap[r[1]]) if r is not None and r[0] == "c" else r), s, m) for (r, s), m in pools
        ]
        by_rank: dict[Part, list[int]] = {}
        for i, (r, s, _) in enumerate(concrete_rank):
            if s is not None and s[0] == "l":
                by_rank.setdefault(r, []).append(i)
        groups = list(by_rank.values())
        choices = [itertools.permutations(range(4), len({concrete_rank[i][1][1] for i in g})) for g in groups]  # type: ignore[index]
        for picks in itertools.product(*choices):
            slots = list(concrete_rank)
            for g, pick in zip(groups, picks, strict=True):
                labels = sorted({slots[i][1][1] for i in g})  # type: ignore[index]
                smap = dict(zip(labels, pick, strict=True))
                for i in g:
                    r, s, m = slots[i]
                    slots[i] = (r, ("n", smap[s[1]]), m)  # type: ignore[index]
            concrete: list[tuple[Pool, int]] = []
            for r, s, m in slots:
                pool = _concrete_pool(v, r, s)
                assert pool is not None
                concrete.append((pool, m))
            out.append(concrete)
    return out


# -- the program and its evaluation ----------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """A sum-of-products structure (see the module docstring), stored flat.

    ``falls[i] = (pool, shift, m)``: the value falling(|pool| - shift, m).  ``subterms[j]``:
    indices into ``falls``, multiplied.  ``factors[f] = (subterms, needs_ten, needs_suit)``:
    the sum of those subterms (all equal on a shoe whose 10-valued ranks, resp. suits, are
    alike when the flags say so).  Composition c draws ``cards[c]`` cards and weighs the sum
    over its terms ``term_start[c] <= t < term_start[c + 1]`` of ``term_mult[t]`` (a signed
    multiplicity) x the product of the factors ``term_factors[factor_start[t]:factor_start[t+1]]``,
    times the padding.  Terms of one composition with the same ``term_orbit`` are images of each
    other under renaming the suits, so equal on a suit-alike shoe.
    """

    falls: tuple[FallKey, ...]
    subterms: tuple[tuple[int, ...], ...]
    factors: tuple[tuple[tuple[int, ...], bool, bool], ...]
    cards: tuple[int, ...]
    term_start: tuple[int, ...]
    term_factors: tuple[int, ...]
    factor_start: tuple[int, ...]
    term_mult: tuple[int, ...]
    term_orbit: tuple[int, ...]

    @property
    def size(self) -> int:
        """Number of compositions."""
        return len(self.cards)

    @functools.cached_property  # asked on every evaluation: found once
    def needs_suits(self) -> bool:
        """True when a pool of the program needs the suits of the cards."""
        return any(pool in SUITED_POOLS for pool, _, _ in self.falls)


def concatenate(programs: Sequence[Program]) -> tuple[Program, list[int]]:
    """One program holding the compositions of ``programs`` one after another, and where each
    program's compositions start in it (so several tables' label parts evaluate as one).

    >>> one = Program(((0, 0, 1),), ((0,),), (((0,), False, False),), (0,), (0, 1), (0,), (0, 1), (1,), (0,))
    >>> both, starts = concatenate([one, one])
    >>> both.size, starts, both.term_factors
    (2, [0, 1], (0, 1))
    """
    falls: list[FallKey] = []
    subterms: list[tuple[int, ...]] = []
    factors: list[tuple[tuple[int, ...], bool, bool]] = []
    cards: list[int] = []
    term_start, factor_start = [0], [0]
    term_factors: list[int] = []
    term_mult: list[int] = []
    term_orbit: list[int] = []
    starts = []
    for p in programs:
        starts.append(len(cards))
        f0, s0, x0, t0, g0 = len(falls), len(subterms), len(factors), len(term_mult), len(term_factors)
        falls.extend(p.falls)
        subterms.extend(tuple(i + f0 for i in st) for st in p.subterms)
        factors.extend((tuple(j + s0 for j in sub), ten, suit) for sub, ten, suit in p.factors)
        cards.extend(p.cards)
        term_start.extend(t + t0 for t in p.term_start[1:])
        term_factors.extend(f + x0 for f in p.term_factors)
        factor_start.extend(g + g0 for g in p.factor_start[1:])
        term_mult.extend(p.term_mult)
        term_orbit.extend(p.term_orbit)  # compared within a composition only
    program = Program(
        tuple(falls),
        tuple(subterms),
        tuple(factors),
        tuple(cards),
        tuple(term_start),
        tuple(term_factors),
        tuple(factor_start),
        tuple(term_mult),
        tuple(term_orbit),
    )
    return program, starts


@dataclass(frozen=True)
class ShoeCounts:
    """A shoe as the algebra sees it: card counts (52, rank-major, or ``None`` when suits are
    unknown), rank counts (13), total cards, and whether its suits / 10-valued ranks are alike
    (every rank's four suits equal / 10, J, Q, K equal, suit by suit)."""

    ranks: tuple[int, ...]
    cards: tuple[int, ...] | None
    size: int
    suits_alike: bool
    tens_alike: bool

    @classmethod
    def of(cls, ranks: Sequence[int], cards: Sequence[int] | None) -> ShoeCounts:
        """From 13 rank counts and, when known, 52 card counts."""
        r = tuple(ranks)
        c = tuple(cards) if cards is not None else None
        if c is None:
            suits_alike = False
            tens_alike = len({r[t] for t in _TEN_RANKS}) == 1
        else:  # (slices of the card counts: each suit's 13 counts; each 10-valued rank's 4)
            suits_alike = c[0::4] == c[1::4] == c[2::4] == c[3::4]
            tens_alike = len({c[4 * t : 4 * t + 4] for t in _TEN_RANKS}) == 1
        return cls(r, c, sum(r), suits_alike, tens_alike)

    def pool_size(self, pool: int) -> int:
        """Cards in pool number ``pool`` (see :data:`POOLS`)."""
        spec = POOLS[pool]
        if spec[0] == "v":
            return sum(self.ranks[r] for r in RANKS_OF_POINT[spec[1]])
        if spec[0] == "r":
            return self.ranks[spec[1]]
        if spec[0] == "p":
            return sum(self.ranks[r] for r in PICTURE_RANKS)
        if self.cards is None:
            raise SuitsUnknownError
        return sum(self.cards[i] for i in pool_members(spec))


class SuitsUnknownError(Exception):
    """Internal: a program that reads suits was evaluated on a shoe without suit counts."""


def padding(size: int) -> dict[int, int]:
    """The padding falling(N - k, K - k) for k = 4, 5, 6 cards drawn (K = min(N, 6)), and 1
    for ``k = 0``: a composition of read cards alone, weighed without padding."""
    top = min(size, MAX_CARDS)
    return {0: 1, **{k: falling(size - k, top - k) if k <= top else 0 for k in (4, 5, 6)}}


def evaluate_scalar(program: Program, shoe: ShoeCounts) -> list[int]:
    """Every composition's weight on ``shoe``, exact Python integers.

    Raises:
        SuitsUnknownError: the program reads suits and the shoe has none.
    """
    sizes: dict[int, int] = {}
    falls = []
    for pool, shift, m in program.falls:
        size = sizes.get(pool)
        if size is None:
            size = sizes[pool] = shoe.pool_size(pool)
        falls.append(falling(size - shift, m))
    subterm_values: list[int | None] = [None] * len(program.subterms)

    def subterm(j: int) -> int:
        got = subterm_values[j]
        if got is None:
            got = 1
            for i in program.subterms[j]:
                got *= falls[i]
                if not got:
                    break
            subterm_values[j] = got
        return got

    factors = []
    for subterms, ten, suit in program.factors:
        if (not ten or shoe.tens_alike) and (not suit or shoe.suits_alike):
            factors.append(subterm(subterms[0]) * len(subterms))
        else:
            factors.append(sum(subterm(j) for j in subterms))
    pads = padding(shoe.size)
    ts, fs, tf, mult = program.term_start, program.factor_start, program.term_factors, program.term_mult
    orbit = program.term_orbit
    alike = shoe.suits_alike
    out = []
    for c, cards in enumerate(program.cards):
        pad = pads[cards]
        t0, t1 = ts[c], ts[c + 1]
        if not pad:
            out.append(0)
            continue
        if alike:  # per orbit: one product times the orbit's total multiplicity
            chosen: list[tuple[int, int]] = []
            for t in range(t0, t1):
                if t == t0 or orbit[t] != orbit[t - 1]:
                    chosen.append((t, mult[t]))
                else:
                    chosen[-1] = (chosen[-1][0], chosen[-1][1] + mult[t])
        else:
            chosen = [(t, mult[t]) for t in range(t0, t1)]
        total = 0
        for t, w in chosen:
            for f in tf[fs[t] : fs[t + 1]]:
                w *= factors[f]
                if not w:
                    break
            total += w
        out.append(total * pad)
    return out


@functools.lru_cache(maxsize=4096)
def fits_int64(size: int) -> bool:
    """True when every weight and count of a shoe of ``size`` cards fits int64: all are
    numbers of ordered draws of distinct cards, at most N!/(N-6)! (N <= 1448 cards)."""
    return falling(size, min(size, MAX_CARDS)) <= INT64_MAX and size**MAX_CARDS <= INT64_MAX


class VectorPlan:
    """Index arrays of a :class:`Program` for :func:`evaluate_vector` (built once per program
    and symmetry class of the shoe)."""

    def __init__(self, program: Program, suits_alike: bool, tens_alike: bool) -> None:
        import numpy as np

        self.np = np
        self.pools = np.asarray([p for p, _, _ in program.falls], dtype=np.int64)
        self.shifts = np.asarray([s for _, s, _ in program.falls], dtype=np.int64)
        self.ms = np.asarray([m for _, _, m in program.falls], dtype=np.int64)
        # the falls whose factorial has an i-th factor, for i = 1, 2, ... (most have one factor)
        self.deeper = [np.flatnonzero(self.ms > i) for i in range(1, int(self.ms.max(initial=0)))]
        one = len(program.falls)  # index of a constant 1
        width = max((len(s) for s in program.subterms), default=1) or 1
        sub = np.full((len(program.subterms), width), one, dtype=np.int64)
        for j, st in enumerate(program.subterms):
            sub[j, : len(st)] = st
        self.sub_cols = [np.ascontiguousarray(sub[:, j]) for j in range(width)]
        # factors: segments of subterms, or one subterm times a multiplier
        seg_sub: list[int] = []
        seg_start: list[int] = []
        fac_mult: list[int] = []
        for subterms, ten, suit in program.factors:
            seg_start.append(len(seg_sub))
            if (not ten or tens_alike) and (not suit or suits_alike):
                seg_sub.append(subterms[0])
                fac_mult.append(len(subterms))
            else:
                seg_sub.extend(subterms)
                fac_mult.append(1)
        self.fac_sub = np.asarray(seg_sub, dtype=np.int64)
        self.fac_start = np.asarray(seg_start, dtype=np.int64)
        self.fac_mult = np.asarray(fac_mult, dtype=np.int64)
        # every factor one subterm (a segment sum of one: a gather, or the subterms themselves)
        self.fac_single = len(seg_sub) == len(seg_start)
        self.fac_same = self.fac_single and bool(np.array_equal(self.fac_sub, np.arange(len(seg_sub))))
        self.fac_scaled = bool(np.any(self.fac_mult != 1))
        # compositions: segments of terms, each a product of factors x multiplicity x padding
        nf = len(program.factors)
        ts = np.asarray(program.term_start, dtype=np.int64)
        fs = np.asarray(program.factor_start, dtype=np.int64)
        tf = np.asarray(program.term_factors, dtype=np.int64)
        mult = np.asarray(program.term_mult, dtype=np.int64)
        cards = np.asarray(program.cards, dtype=np.int64)
        orbit = np.asarray(program.term_orbit, dtype=np.int64)
        if suits_alike:  # one term per orbit, carrying the orbit's total multiplicity
            comp_of = np.repeat(np.arange(len(cards)), ts[1:] - ts[:-1])
            first = (
                np.flatnonzero(np.r_[True, (comp_of[1:] != comp_of[:-1]) | (orbit[1:] != orbit[:-1])])
                if len(comp_of)
                else comp_of
            )
            rows = first
            counts = np.add.reduceat(mult, first) if len(first) else mult[:0]
            row_comp = comp_of[first]
            self.comp_start = (
                np.flatnonzero(np.r_[True, row_comp[1:] != row_comp[:-1]]) if len(row_comp) else row_comp
            )
            term_cards = cards[row_comp]
        else:
            rows, counts = np.arange(len(mult), dtype=np.int64), mult
            self.comp_start = ts[:-1]
            term_cards = np.repeat(cards, ts[1:] - ts[:-1])
        lengths = fs[rows + 1] - fs[rows]
        fwidth = int(lengths.max(initial=1)) or 1
        terms_arr = np.full((len(rows), fwidth), nf, dtype=np.int64)  # nf: a constant 1
        for j in range(fwidth):
            has = lengths > j
            terms_arr[has, j] = tf[fs[rows[has]] + j]
        self.term_cols = [np.ascontiguousarray(terms_arr[:, j]) for j in range(fwidth)]
        self.halves = _halves(np, terms_arr)
        self.term_mult = counts
        self.term_pad = np.where(term_cards == 0, 3, term_cards - 4)  # rows of the padding table
        self.unpadded = bool(np.all(term_cards == 0))
        self.one_term_each = len(rows) == len(cards)
        self.scaled = bool(np.any(counts != 1)) if len(counts) else False
        # every composition a run of `run` terms: summed by a reshape (numpy's reduceat along
        # the first axis is several times slower); 0 when the runs differ
        runs = np.diff(np.r_[self.comp_start, len(rows)]) if len(self.comp_start) else self.comp_start
        self.run = int(runs[0]) if len(runs) and bool(np.all(runs == runs[0])) else 0

    def weights(self, pool_sizes: Any, size: int) -> Any:
        """Composition weights (int64 array) for one shoe's pool sizes (int64 array)."""
        return self.weights_many(pool_sizes, [size])

    def weights_many(self, pool_sizes: Any, sizes: Sequence[int]) -> Any:
        """Composition weights, (compositions, shoes) int64, for pool sizes (pools, shoes) --
        or, for one shoe, (compositions,) from (pools,).  Every shoe must satisfy
        :func:`fits_int64`.  Items run along axis 0, so one shoe and many are one code path."""
        np = self.np
        many = pool_sizes.ndim == 2
        ms = self.ms[:, None] if many else self.ms
        shifts = self.shifts[:, None] if many else self.shifts
        x = pool_sizes.take(self.pools, axis=0) - shifts  # take: quicker than [ ]
        fall = np.ones((len(self.pools) + 1, *pool_sizes.shape[1:]), dtype=np.int64)
        body = fall[:-1]
        body[...] = np.where(ms > 0, x, 1)
        for i, rows in enumerate(self.deeper, start=1):
            body[rows] *= x[rows] - i
        body *= x >= ms  # a pool smaller than its draw gives 0 (a multiply: quicker than a mask)
        sub = fall.take(self.sub_cols[0], axis=0)
        for c in self.sub_cols[1:]:
            sub *= fall.take(c, axis=0)
        fac = np.ones((len(self.fac_start) + 1, *pool_sizes.shape[1:]), dtype=np.int64)
        if len(self.fac_start):
            mult = self.fac_mult[:, None] if many else self.fac_mult
            if self.fac_same:
                fac[:-1] = sub
            elif self.fac_single:
                fac[:-1] = sub.take(self.fac_sub, axis=0)
            else:
                fac[:-1] = np.add.reduceat(sub.take(self.fac_sub, axis=0), self.fac_start, axis=0)
            if self.fac_scaled:
                fac[:-1] *= mult
        term_mult: Any = self.term_mult
        term: Any = None
        if not self.unpadded:  # compositions of read cards alone need no padding
            pads = [padding(n) for n in sizes]
            pad = np.asarray([[p[k] for p in pads] for k in (4, 5, 6, 0)], dtype=np.int64)
            term = pad.take(self.term_pad, axis=0) if many else pad[:, 0].take(self.term_pad)
        if self.halves is not None:  # the products of each half's distinct factors, then one each
            low_cols, low_at, high_cols, high_at = self.halves
            both = _product(fac, low_cols).take(low_at, axis=0)
            both *= _product(fac, high_cols).take(high_at, axis=0)
            if term is None:
                term = both
            else:
                term *= both
        elif self.term_cols:
            term = _product(fac, self.term_cols, term)
        if term is None:
            shape = (len(self.term_pad), *pool_sizes.shape[1:])
            term = np.ones(shape, dtype=np.int64)
        if self.scaled:
            term = term * (term_mult[:, None] if many else term_mult)
        if self.one_term_each or not len(self.comp_start):
            return term
        if self.run:  # int64 sums wrap modulo 2**64 as reduceat's do: the same integers
            return term.reshape(len(self.comp_start), self.run, *term.shape[1:]).sum(axis=1)
        return np.add.reduceat(term, self.comp_start, axis=0)


def _product(fac: Any, cols: Sequence[Any], into: Any = None) -> Any:
    """The product of the rows ``fac[c]`` over the index columns ``cols`` (at least one),
    multiplied into ``into`` in place when given (a gather is a new array: the first one is
    multiplied into when there is nothing to start from)."""
    out = into
    for c in cols:
        if out is None:
            out = fac.take(c, axis=0)
        else:
            out *= fac.take(c, axis=0)
    return out


def _halves(np: Any, terms: Any) -> tuple[list[Any], Any, list[Any], Any] | None:
    """A term's factors split in two, at the place where the two halves have the fewest
    distinct rows: (each column of the first half's distinct rows, the row of each term
    there, the same of the second half); ``None`` when that saves no gathers (terms of at most
    two factors, or halves about as many as the terms).  Each term's product is then one
    product of two gathers of products shared by many terms (int64 arithmetic wraps modulo
    2**64, so the product is the same whatever the grouping)."""
    rows, width = terms.shape
    if width < 3 or rows < 64:
        return None
    base = int(terms.max()) + 1
    if base**width >= 2**62:  # pragma: no cover - programs have a few hundred factors
        return None
    # each prefix and suffix of a term's factors as one integer (digits in base `base`)
    prefix = np.zeros((width + 1, rows), dtype=np.int64)
    for j in range(width):
        prefix[j + 1] = prefix[j] * base + terms[:, j]
    best = None
    for h in range(1, width):
        low, low_at = np.unique(prefix[h], return_inverse=True)
        high, high_at = np.unique(prefix[width] - prefix[h] * base ** (width - h), return_inverse=True)
        # gathers: each half's rows times its columns, and two per term (against width per term)
        cost = len(low) * h + len(high) * (width - h) + 2 * rows
        if best is None or cost < best[0]:
            best = (cost, h, low, low_at, high, high_at)
    assert best is not None
    cost, h, low, low_at, high, high_at = best
    if cost >= 0.8 * rows * width:
        return None

    def digits(keys: Any, count: int) -> list[Any]:  # the columns of each distinct half
        return [np.ascontiguousarray(keys // base ** (count - 1 - j) % base) for j in range(count)]

    return digits(low, h), low_at.ravel(), digits(high, width - h), high_at.ravel()


#: Integers below this are exact in float64, and so is every sum of them that stays below it.
EXACT_FLOAT = 2**53


def pool_sizes_many(ranks: Any, cards: Any | None) -> Any:
    """Pool sizes (pools, shoes) int64 from rows of rank counts (shoes, 13) and, when known,
    card counts (shoes, 52); suited pools are 0 without card counts."""
    import numpy as np

    if cards is not None:
        c = np.asarray(cards, dtype=np.int64)
        # a pool's size is a sum of some of a shoe's card counts, at most the shoe's size: below
        # 2**53 the float64 product (BLAS; numpy's integer one is a plain loop, half a batch's
        # time) is exact; beyond it, integers
        if not c.size or int(c.sum(axis=1).max()) < EXACT_FLOAT:
            return (_pool_matrix_float() @ c.T.astype(np.float64)).astype(np.int64)
        return pool_matrix() @ c.T
    r = np.asarray(ranks, dtype=np.int64)
    out = np.zeros((len(POOLS), r.shape[0]), dtype=np.int64)
    out[10:23] = r.T
    for rank, v in enumerate(RANK_POINTS):
        out[v] += r[:, rank]
    out[PICTURE_POOL] = r[:, list(PICTURE_RANKS)].sum(axis=1)
    return out


def pool_sizes_vector(shoe: ShoeCounts) -> Any:
    """Sizes of every pool of :data:`POOLS` for ``shoe`` (int64 numpy array; suited pools 0
    when suits are unknown)."""
    import numpy as np

    if shoe.cards is None:
        ranks = np.asarray(shoe.ranks, dtype=np.int64)
        out = np.zeros(len(POOLS), dtype=np.int64)
        out[:10] = _RANK_TO_VALUE @ ranks
        out[10:23] = ranks
        out[PICTURE_POOL] = sum(int(ranks[r]) for r in PICTURE_RANKS)
        return out
    # in float64 (BLAS; numpy's integer product is not): every entry and sum is a card count,
    # far below 2**53, so the product is exact
    return (_pool_matrix_float() @ np.asarray(shoe.cards, dtype=np.float64)).astype(np.int64)


@functools.cache  # built whole and stored once: threads racing to build it both get a complete value
def _pool_matrix_float() -> Any:
    return pool_matrix().astype(float)


@functools.cache
def pool_matrix() -> Any:
    """(pools, 52) int64 0/1: which cards each pool of :data:`POOLS` holds (built once)."""
    import numpy as np

    m = np.zeros((len(POOLS), 52), dtype=np.int64)
    for i, pool in enumerate(POOLS):
        m[i, pool_members(pool)] = 1
    return m


class _RankToValue:
    def __matmul__(self, ranks: Any) -> Any:
        import numpy as np

        out = np.zeros(10, dtype=np.int64)
        for r, v in enumerate(RANK_POINTS):
            out[v] += ranks[r]
        return out


_RANK_TO_VALUE = _RankToValue()
