"""Exact EVs of bets on many shoes at once (numpy imported here, on first use).

For each table a batch needs (:func:`analyzer.engine.pricing.table_reads`), every shoe's
composition weights come from the vectorised weight algebra
(:meth:`analyzer.engine.algebra.VectorPlan.weights_many`, int64), and each bet's event counts
from one integer matrix product: weights (shoes x compositions) times the bet's event tallies
(compositions x events).  Every event count is a number of ordered card sequences, at most
N!/(N-6)!, so when that bound is below 2**63 (shoes of at most 1,448 cards) the int64
arithmetic is exact whatever the summation order; a larger shoe is evaluated alone with
Python integers.  The EV numerator, sum of pays x counts, is then formed in Python integers:
equal bit for bit to pricing each shoe alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.bets.model import Bet
from analyzer.core.shoe import MIN_CARDS, Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.algebra import VectorPlan, fits_int64, pool_sizes_many
from analyzer.engine.evaluate import denominator, record_counts
from analyzer.engine.pricing import SUITS_NEEDED, settlement, table_for, table_reads
from analyzer.engine.table import CompiledTable
from analyzer.errors import BetError, ShoeError

MAX_CARDS = 6
#: Shoes per vectorised step.
CHUNK = 512


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
        chunk: shoes per vectorised step (default :data:`CHUNK`).
        tableau: the rules.

    Returns:
        :class:`BatchEV`, equal bit for bit to pricing each shoe alone
        (``price(bet, shoe).ev``).

    Raises:
        ShoeError: a bad array (shape, negative or non-integer counts, a shoe under 4 cards).
        BetError: a bet that reads suits on rank counts; a bad ``chunk``.

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
    scales = [1] * len(chosen)
    fast = [s for s in range(n) if sizes[s] >= MAX_CARDS and fits_int64(sizes[s])]
    fast_set = set(fast)
    for reads, members in table_reads([b.reads for b in chosen], MAX_CARDS):
        table = table_for(reads, MAX_CARDS, tableau)
        vectors = [_event_vectors(chosen[j], table) for j in members]
        for j, (_, _, scale) in zip(members, vectors, strict=True):
            scales[j] = scale
        # every member's events side by side: one matrix product per chunk of shoes
        tallies = np.concatenate([v[0] for v in vectors], axis=1)
        bounds = np.cumsum([0, *(v[0].shape[1] for v in vectors)])
        pays = [np.asarray(v[1], dtype=object) for v in vectors]
        step = chunk or CHUNK
        for start in range(0, len(fast), step):
            rows = fast[start : start + step]
            weights = _weights(table, cnt, suited, rows, sizes)
            counts = _event_counts(weights, tallies, max(sizes[s] for s in rows)).astype(object)
            for j, lo, hi, pay in zip(members, bounds[:-1], bounds[1:], pays, strict=True):
                numerators[rows, j] = counts[:, lo:hi] @ pay
    # short shoes (under 6 cards, whose coups can run out) and giant ones: exact Python integers
    for s in range(n):
        if s in fast_set:
            continue
        shoe = Shoe(
            tuple(int(x) for x in cnt[s]), None if suited is None else tuple(int(x) for x in suited[s])
        )
        for reads, members in table_reads([b.reads for b in chosen], sizes[s]):
            table = table_for(reads, sizes[s], tableau)
            counts, _ = record_counts(table, shoe)
            for j in members:
                settled = settlement(chosen[j], table)
                ints, scale = _scaled_pays(settled.keys)
                numerators[s, j] = sum(c * ints[i] for c, i in zip(counts, settled.index, strict=True))
                scales[j] = scale
    return BatchEV(chosen, numerators, tuple(scales), tuple(denominator(z) for z in sizes))


def _scaled_pays(keys: Sequence[tuple[str, Fraction]]) -> tuple[list[int], int]:
    scale = lcm(*(p.denominator for _, p in keys)) if keys else 1
    return [int(p * scale) for _, p in keys], scale


_VECTORS: dict[tuple[int, int], tuple[Bet, CompiledTable, tuple[Any, list[int], int]]] = {}


def _event_vectors(bet: Bet, table: CompiledTable) -> tuple[Any, list[int], int]:
    """The bet's event tallies per composition (compositions x events, int64), its integer
    pays per event and their scale (bounded cache per bet and table object)."""
    key = (id(bet), id(table))
    hit = _VECTORS.get(key)
    if hit is not None and hit[0] is bet and hit[1] is table:
        return hit[2]
    settled = settlement(bet, table)
    tallies = np.zeros((table.program.size, len(settled.keys)), dtype=np.int64)
    events = np.asarray(settled.index, dtype=np.int64)[np.asarray(table.entry_record, dtype=np.int64)]
    np.add.at(
        tallies,
        (np.asarray(table.entry_comp, dtype=np.int64), events),
        np.asarray(table.tally, dtype=np.int64),
    )
    ints, scale = _scaled_pays(settled.keys)
    if len(_VECTORS) > 1024:
        _VECTORS.clear()
    _VECTORS[key] = (bet, table, (tallies, ints, scale))
    return tallies, ints, scale


_PLANS: dict[int, tuple[CompiledTable, VectorPlan]] = {}


def _event_counts(weights: Any, tallies: Any, largest: int) -> Any:
    """(shoes x events) counts: weights (compositions x shoes) times tallies (compositions x
    events), exact.  Every weight and tally is a non-negative count and every partial sum is at
    most the shoe's N!/(N-6)!, so when that is below 2**53 (shoes of at most 458 cards) the
    float64 matrix product (BLAS) is exact whatever its summation order; beyond, int64 (exact
    below 2**63, see the module docstring)."""
    if denominator(largest) < 2**53:
        exact = weights.T.astype(np.float64) @ tallies.astype(np.float64)
        return exact.astype(np.int64)
    return np.einsum("cs,ce->se", weights, tallies)


def _weights(table: CompiledTable, cnt: Any, suited: Any, rows: list[int], sizes: list[int]) -> Any:
    hit = _PLANS.get(id(table))
    if hit is None or hit[0] is not table:
        hit = _PLANS[id(table)] = (table, VectorPlan(table.program, False, False))
    plan = hit[1]
    ranks = np.asarray(cnt[rows], dtype=np.int64)
    cards = None if suited is None else np.asarray(suited[rows], dtype=np.int64)
    if cards is None and table.program.needs_suits:
        raise BetError(SUITS_NEEDED)
    return plan.weights_many(pool_sizes_many(ranks, cards), [sizes[s] for s in rows])
