"""Pricing: which compiled table a bet needs, and its exact statistics on a shoe.

The policy (:func:`table_reads`): bets that read no cards share one value-level table read at
the union of their fields; bets that read only the first four cards share one first-four table
(on shoes of 6 cards or more); any other card-reading bet shares a table with the bets that
read the same cards.  Each bet settles every record of its table once (as the bet sees it:
the record narrowed to the bet's own reads), so pricing a shoe is one table evaluation
(:mod:`analyzer.engine.evaluate`) and a few additions per bet.

Everything is exact: counts are ``int``, probabilities and EVs are ``Fraction``.  The one
irrational figure, the standard deviation, is a ``Decimal`` rounded exactly
(:meth:`BetSummary.standard_deviation`), never through a float.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from operator import mul
from typing import Any

from analyzer.bets.model import Bet
from analyzer.core.coup import NATURAL_CLASSES, UNKNOWN, Coup, Winner
from analyzer.core.exact import sqrt_decimal
from analyzer.core.reads import BASE_FIELDS, Reads
from analyzer.core.shoe import MAX_CARDS, Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine import native
from analyzer.engine.algebra import SuitsUnknownError
from analyzer.engine.evaluate import counted
from analyzer.engine.lookup import bet_table, compile_table
from analyzer.engine.table import BetTable, impossible_line
from analyzer.errors import BetError, RulesError, ShoeError

#: Event label of the sequences that run out of cards before the coup is decided (N < 6 only).
RUN_OUT = "Shoe runs out mid-coup (void)"
#: What ``analyze`` reads: everything its tables show.
ANALYSIS_READS = Reads.of(
    [
        "winner",
        "player_total",
        "banker_total",
        "player_cards",
        "banker_cards",
        "player_natural",
        "banker_natural",
    ]
)
SUITS_NEEDED = (
    "suited bets need the suits of the cards, and this shoe gives counts per rank only: use a "
    "standard shoe (a number of decks), remove cards with their suits (e.g. Kh), or give counts "
    "per rank and suit"
)


def _check_shoe(shoe: object) -> Shoe:
    if not isinstance(shoe, Shoe):
        raise ShoeError(f"bad shoe {shoe!r}: give a Shoe, e.g. Shoe.standard(8) or Shoe.parse('8=2,K=3')")
    return shoe


def _check_bet(bet: object) -> Bet:
    if not isinstance(bet, Bet):
        raise BetError(f"bad bet {bet!r}: give a Bet, e.g. find_bet('banker')")
    return bet


def _check_tableau(tableau: object) -> Tableau:
    if not isinstance(tableau, Tableau):
        raise RulesError(
            f"bad rules {tableau!r}: give a Tableau, e.g. analyzer.STANDARD or find_tableau('standard')"
        )
    return tableau


# -- the policy -------------------------------------------------------------------------------


def table_reads(
    reads: Iterable[Reads], size: int, values: Reads | None = None
) -> list[tuple[Reads, list[int]]]:
    """Group reads into the tables that price them on a shoe of ``size`` cards: (the table's
    reads, indices of the reads it prices), in first-use order.

    Value-level reads share one table (read at least at ``values`` when given, so that one
    table serves an analysis and its bets); a card read joins a table whose reads already tell
    everything it reads (or that it tells more than), so a table is never refined further than
    its finest bet needs; first-four reads (on shoes of 6 cards or more) and reads of the whole
    coup are kept apart.
    """
    return _table_reads(tuple(reads), size >= MAX_CARDS, values)


@functools.lru_cache(maxsize=1024)
def _table_reads(reads: tuple[Reads, ...], full: bool, values: Reads | None) -> list[tuple[Reads, list[int]]]:
    groups: list[tuple[object, Reads, list[int]]] = []
    for i, r in enumerate(reads):
        if not r.sets:
            kind: object = "values"
            r = r | values if values is not None else r
        else:
            kind = "first-four" if r.first_four_only and full else "coup"
        for k, (g_kind, g_reads, members) in enumerate(groups):
            if g_kind != kind:
                continue
            if kind == "values" or g_reads.covers(r) or r.covers(g_reads):
                groups[k] = (g_kind, g_reads | r, [*members, i])
                break
        else:
            groups.append((kind, r, [i]))
    merged = True
    while merged:  # a later, finer read may now cover an earlier group
        merged = False
        for a in range(len(groups)):
            for b in range(len(groups)):
                ka, ra, ma = groups[a]
                kb, rb, mb = groups[b]
                if a != b and ka == kb != "values" and ra.covers(rb):
                    groups[a] = (ka, ra | rb, sorted(ma + mb))
                    del groups[b]
                    merged = True
                    break
            if merged:
                break
    return [(g_reads, members) for _, g_reads, members in groups]


def _value_reads(reads: Reads, values: Reads | None) -> Reads:
    """The reads of the table that prices a value-level bet alone (as :func:`table_reads`),
    kept by object (a pricing loop asks for the same reads again and again)."""
    hit = _VALUE_READS.get((id(reads), id(values)))
    if hit is None or hit[0] is not reads or hit[1] is not values:
        if len(_VALUE_READS) > 1024:
            _VALUE_READS.clear()
        wider = reads | values if values is not None else reads
        hit = _VALUE_READS[(id(reads), id(values))] = (reads, values, wider)
    return hit[2]


_VALUE_READS: dict[tuple[int, int], tuple[Reads, Reads | None, Reads]] = {}


def table_for(reads: Reads, size: int, tableau: Tableau = STANDARD, symmetric: bool = False) -> BetTable:
    """The distribution table of ``reads`` on a shoe of ``size`` cards: the first-four table
    when only the first four cards are read and the shoe holds 6 or more, else the full walk
    (``symmetric``: for a shoe whose suits are alike, see :func:`symmetric_shoe`)."""
    return compile_table(tableau, reads, reads.first_four_only and size >= MAX_CARDS, symmetric)


def symmetric_shoe(shoe: Shoe) -> bool:
    """True when the symmetric tables serve ``shoe``: every suit of a rank has as many cards
    (every full shoe; a shoe depleted evenly), or its suits are unknown (then only tables that
    need no suits can price it)."""
    return shoe.suits_alike


def bet_table_for(bet: Bet, shoe: Shoe, tableau: Tableau = STANDARD) -> BetTable:
    """The compiled table of a bet that reads cards, for ``shoe``: its first four cards only,
    when that is all it reads and the shoe holds 6 or more; symmetric when the shoe's suits are
    alike (see :func:`symmetric_shoe`), else exact.

    Raises:
        BetError: the compile budget is exceeded, or a file bet's pay line can never hold.
    """
    first_four = bet.reads.first_four_only and shoe.size >= MAX_CARDS
    return bet_table(tableau, bet, first_four, symmetric_shoe(shoe))


# -- distributions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """Exact counts of coup records for one shoe.

    ``counts[i]`` is the number of ordered K-card sequences of the shoe's physical cards
    (K = min(N, 6), N = cards in the shoe) whose coup ends with ``records[i]`` (as read by
    ``reads``); ``denominator`` = N!/(N-K)!.  For N >= 6 these are the published 6-card
    permutation counts; below, :attr:`run_out` counts the sequences that end before the coup
    is decided.
    """

    shoe: Shoe
    tableau: Tableau
    reads: Reads
    records: tuple[Coup, ...]
    counts: tuple[int, ...]
    denominator: int

    @property
    def sequence_cards(self) -> int:
        """K: cards per counted sequence (6 when the shoe holds at least 6)."""
        return min(self.shoe.size, MAX_CARDS)

    @property
    def complete(self) -> bool:
        """True when the shoe holds at least 6 cards, so no coup can run out."""
        return self.shoe.size >= MAX_CARDS

    @property
    def run_out(self) -> int:
        """Count of sequences on which the shoe runs out before the coup is decided."""
        return self.denominator - sum(self.counts)

    def count(self, predicate: Callable[[Coup], bool]) -> int:
        """Number of counted sequences whose coup satisfies ``predicate``."""
        return sum(c for r, c in zip(self.records, self.counts, strict=True) if c and predicate(r))

    def probability(self, predicate: Callable[[Coup], bool]) -> Fraction:
        """Probability per coup that the coup satisfies ``predicate`` (exact)."""
        return Fraction(self.count(predicate), self.denominator)

    def tally(self, key: Callable[[Coup], object]) -> dict[object, int]:
        """Counts grouped by ``key(record)``."""
        out: dict[object, int] = defaultdict(int)
        for r, c in zip(self.records, self.counts, strict=True):
            out[key(r)] += c
        return dict(out)


def distribution(shoe: Shoe, reads: Reads | None = None, tableau: Tableau = STANDARD) -> Distribution:
    """The exact :class:`Distribution` of coup records read at ``reads`` (default: every base
    field) for ``shoe`` under ``tableau``.

    Raises:
        ShoeError: ``shoe`` is not a Shoe; BetError: ``reads`` is not a Reads, or it reads suits
            and the shoe's suits are unknown; RulesError: ``tableau`` is not a Tableau.
    """
    _check_shoe(shoe)
    _check_tableau(tableau)
    chosen = Reads.everything_but_cards() if reads is None else reads
    if not isinstance(chosen, Reads):
        raise BetError(f"bad reads {reads!r}: give a Reads, e.g. Reads.of(['winner'])")
    table = compile_table(tableau, chosen, False)  # the full walk: every record is a whole coup
    counts, denom = _counts(table, shoe)
    return Distribution(shoe, tableau, chosen, table.columns, tuple(_ints(counts)), denom)


def np_add_reduceat(values: Any, starts: Any) -> Any:
    """numpy's exact segment sum (int64 in, int64 out)."""
    import numpy as np

    return np.add.reduceat(values, starts)


def _ints(counts: Any) -> list[int]:
    return counts if isinstance(counts, list) else counts.tolist()


def _counts(table: BetTable, shoe: Shoe) -> tuple[Any, int]:
    counts, _, d = _counted(table, shoe)
    return counts, d


def _counted(table: BetTable, shoe: Shoe) -> tuple[Any, int, int]:
    """:func:`~analyzer.engine.evaluate.counted`, a shoe without the suits a table needs
    refused in one line."""
    try:
        return counted(table, shoe)
    except SuitsUnknownError:
        raise BetError(SUITS_NEEDED) from None


# -- bets -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventRow:
    """One row of a bet's events table: the event, what it pays per unit, its exact count of
    sequences out of ``denominator``."""

    event: str
    pays: Fraction
    count: int
    denominator: int

    @property
    def probability(self) -> Fraction:
        """Probability per coup."""
        return Fraction(self.count, self.denominator)

    @property
    def ret(self) -> Fraction:
        """Contribution to the expected value per unit staked (probability x pays)."""
        return self.probability * self.pays


@dataclass(frozen=True)
class BetSummary:
    """Exact statistics of one bet on one shoe, per unit staked per coup.

    ``ev`` is the expected win (negative: the house has the edge); ``house_edge`` = -ev;
    ``house_edge_resolved`` = -ev / P(the bet does not push), ``None`` for a bet that cannot
    push; ``hit_frequency`` = P(the bet wins); ``variance`` of the result per unit staked;
    ``events`` the table of (event, pays, count) rows (``event_counts`` as plain tuples).
    Integers inside (sums over the events of count x L pays and count x (L pays)^2, with L the
    lcm of the pays' denominators); each Fraction is formed when it is read.
    """

    bet: Bet
    event_counts: tuple[tuple[str, Fraction, int], ...]
    denominator: int
    scale: int
    first: int
    second: int
    pushes: int
    hits: int

    @functools.cached_property
    def events(self) -> tuple[EventRow, ...]:
        """The events table: (event, pays, count) of each event, in pay-table order."""
        d = self.denominator
        return tuple(EventRow(event, pays, c, d) for event, pays, c in self.event_counts)

    @property
    def ev(self) -> Fraction:
        """Expected win per unit staked per coup."""
        return Fraction(self.first, self.denominator * self.scale)

    @property
    def variance(self) -> Fraction:
        """Variance of the result per unit staked."""
        d = self.denominator
        return Fraction(self.second * d - self.first * self.first, (d * self.scale) ** 2)

    @property
    def push_probability(self) -> Fraction:
        """P(the bet pushes)."""
        return Fraction(self.pushes, self.denominator)

    @property
    def hit_frequency(self) -> Fraction:
        """P(the bet wins)."""
        return Fraction(self.hits, self.denominator)

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit staked per coup, pushes counted (e.g. 8 decks Banker ~1.0579%)."""
        return -self.ev

    @property
    def house_edge_resolved(self) -> Fraction | None:
        """Expected loss per unit staked per resolved (non-push) bet; None if the bet cannot push
        (then it equals ``house_edge``) or never resolves."""
        if self.pushes in (0, self.denominator):
            return None
        return -self.ev / (1 - self.push_probability)

    def standard_deviation(self, digits: int = 20) -> Decimal:
        """Standard deviation per unit staked, sqrt(variance), rounded exactly to ``digits``
        decimals (half-even; no float involved).

        Raises:
            BetError: ``digits`` is not a whole number from 0 to 1000.
        """
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 1000:
            raise BetError(f"bad digits {digits!r}: use a whole number from 0 to 1000")
        return sqrt_decimal(self.variance, digits)


# _summary_from builds a BetSummary without __init__: it must stay fields only
assert not hasattr(BetSummary, "__post_init__") and [f.name for f in dataclasses.fields(BetSummary)] == [
    "bet", "event_counts", "denominator", "scale", "first", "second", "pushes", "hits"
]


@dataclass(frozen=True)
class Settlement:
    """A bet settled over a table's columns: the distinct (event, pays) keys in pay-table
    order, the key index of each column, and the pays as integers (``scaled`` / ``scale``)."""

    keys: tuple[tuple[str, Fraction], ...]
    index: tuple[int, ...]
    scale: int  # L, the lcm of the pays' denominators
    scaled: tuple[int, ...]  # L x the pays of each key
    # derived views, each built whole and stored once under its name (a dict's item set is one
    # step, so threads racing to build one never see it half-built)
    _built: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def arrays(self) -> tuple[Any, Any, list[int]]:
        """(columns ordered by event, where each event's run starts, the events present), as
        numpy arrays for exact segment sums of int64 counts."""
        arrays = self._built.get("arrays")
        if arrays is None:
            import numpy as np

            index = np.asarray(self.index, dtype=np.int64)
            order = np.argsort(index, kind="stable")
            ranked = index[order]
            starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]]) if len(ranked) else ranked
            arrays = self._built["arrays"] = (order, starts, ranked[starts].tolist())
        return arrays

    def summary(self, bet: Bet, sums: list[int], run_out: int, d: int) -> BetSummary:
        """:func:`summarize` of ``bet`` from its key sums (:meth:`sums`) and the sequences of
        a void coup, out of ``d``."""
        terms = self._built.get("terms")
        if terms is None:
            xs = self.scaled
            terms = self._built["terms"] = (
                [ev for ev, _ in self.keys],
                [pays for _, pays in self.keys],
                [x * x for x in xs],
                [i for i, x in enumerate(xs) if x == 0],
                [i for i, x in enumerate(xs) if x > 0],
            )
        names, pays, squares, pushes, wins = terms
        events = tuple(zip(names, pays, sums, strict=True))
        first = sum(map(mul, sums, self.scaled))
        second = sum(map(mul, sums, squares))
        push = sum([sums[i] for i in pushes])
        hit = sum([sums[i] for i in wins])
        if run_out:  # a void coup pays 0: a push
            events += ((RUN_OUT, Fraction(0), run_out),)
            push += run_out
        return BetSummary(bet, events, d, self.scale, first, second, push, hit)

    def sums(self, counts: Any) -> list[int]:
        """Per key, the sum of the counts of its columns (Python ints; int64 counts are summed
        exactly in segments)."""
        out = [0] * len(self.keys)
        if not isinstance(counts, list) and len(counts) <= SMALL_TABLE:
            counts = counts.tolist()  # a bet's own table: a few columns, summed in Python
        if isinstance(counts, list):
            for i, c in zip(self.index, counts, strict=True):
                if c:
                    out[i] += c
            return out
        order, starts, present = self.arrays()
        if len(order):
            for e, n in zip(present, np_add_reduceat(counts[order], starts).tolist(), strict=True):
                out[e] = n
        return out


#: Tables of at most this many columns (a bet's own) are summed per key in Python integers.
SMALL_TABLE = 32


class _Shared:
    """The key sums of every bet settled on one table, from a shoe's counts in one gather and
    one segment sum: the bets that share a table (the value-level ones) are priced together on
    every shoe, so the first one's sums serve the rest.

    ``state`` is replaced whole when a settlement joins (readers need no lock): (each
    settlement's id -> (it, its first and end run), every run's column order, where each run
    starts, each run's key)."""

    def __init__(self, table: BetTable) -> None:
        self.table = table
        self.state: tuple[dict[int, tuple[Settlement, int, int]], Any, Any, list[int]] = ({}, None, None, [])
        self.last: tuple[Any, object, list[int]] = (None, None, [])  # (counts, state, run sums)

    def sums(self, settled: Settlement, counts: Any) -> list[int]:
        """``settled.sums(counts)``, taken with every other settlement's on the table."""
        state = self.state
        hit = state[0].get(id(settled))
        if hit is None or hit[0] is not settled:
            with _LOCK:
                state = self._add(settled)
            hit = state[0][id(settled)]
        last = self.last
        if last[0] is not counts or last[1] is not state:
            last = self.last = (counts, state, np_add_reduceat(counts.take(state[1]), state[2]).tolist())
        _, first, end = hit
        out = [0] * len(settled.keys)
        for e, n in zip(state[3][first:end], last[2][first:end], strict=True):
            out[e] = n
        return out

    def _add(self, settled: Settlement) -> tuple[dict[int, tuple[Settlement, int, int]], Any, Any, list[int]]:
        import numpy as np

        index, order, starts, keys = self.state
        if id(settled) in index and index[id(settled)][0] is settled:
            return self.state  # another thread added it
        if len(index) >= _SHARED_BETS or order is None:
            index, order, starts, keys = {}, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), []
        more, more_starts, present = settled.arrays()
        index = {**index, id(settled): (settled, len(keys), len(keys) + len(present))}
        self.state = (
            index,
            np.concatenate([order, more]),
            np.concatenate([starts, more_starts + len(order)]),
            [*keys, *present],
        )
        return self.state


#: Settlements summed together per table, at most.
_SHARED_BETS = 64
_SHARED: OrderedDict[int, _Shared] = OrderedDict()
_LOCK = threading.Lock()


def _shared(table: BetTable) -> _Shared:
    hit = _SHARED.get(id(table))
    if hit is None or hit.table is not table:
        with _LOCK:
            hit = _SHARED[id(table)] = _Shared(table)
            if len(_SHARED) > 64:
                _SHARED.popitem(last=False)
    return hit


def key_sums(settled: Settlement, table: BetTable, counts: Any) -> list[int]:
    """``settled.sums(counts)`` for counts of ``table``; a large table's int64 counts summed with
    the other bets' settled on it (:class:`_Shared`)."""
    if isinstance(counts, list) or len(counts) <= SMALL_TABLE or not len(settled.index):
        return settled.sums(counts)
    return _shared(table).sums(settled, counts)


#: Settlements by (the bet's fingerprint, or its id for a bet built in Python; the table's id),
#: least recently used out past :data:`_SETTLED_LIMIT`.  An entry holds its table (and a bet
#: known by identity holds its bet), so an id in a live key is never reused.
_SETTLED: OrderedDict[tuple[object, int], tuple[Bet, BetTable, Settlement]] = OrderedDict()
_SETTLED_LIMIT = 4096


def settlement(bet: Bet, table: BetTable) -> Settlement:
    """How ``bet`` settles each column of ``table``: the bet's own table (its columns are its
    settle keys), or a distribution whose records it settles as it sees them.

    Kept in a bounded cache per table object and bet *value*: every bet with one
    :attr:`~analyzer.bets.model.Bet.fingerprint` (each ``find_bet("dragon-7")``, each reading
    of one bet file) shares one settlement; a bet built in Python is known by identity.

    Raises:
        UndeclaredReadError: the bet read what it did not declare.
    """
    fingerprint = bet.fingerprint
    key = (id(bet) if fingerprint is None else fingerprint, id(table))
    hit = _SETTLED.get(key)
    if hit is not None and hit[1] is table and (fingerprint is not None or hit[0] is bet):
        _SETTLED.move_to_end(key)
        return hit[2]
    keys: dict[tuple[str, Fraction], int] = {}
    if table.distribution:  # many records look alike to a bet: each distinct one settles once
        seen: dict[int, int] = {}
        per_column = []
        for r in _narrowed_records(table, bet.reads):
            i = seen.get(id(r))
            if i is None:
                i = seen[id(r)] = keys.setdefault(bet.settle(r), len(keys))
            per_column.append(i)
    else:
        per_column = [keys.setdefault(_key_of(bet, c), len(keys)) for c in table.columns]
    order = {k: _line_order(bet, k[0]) for k in keys}
    ranked = sorted(keys, key=lambda k: (order[k], -k[1]))
    position = {k: i for i, k in enumerate(ranked)}
    remap = [position[k] for k in keys]  # insertion order -> pay-table order
    scale, scaled = _scaled(tuple(pays for _, pays in ranked))
    settled = Settlement(tuple(ranked), tuple(remap[i] for i in per_column), scale, scaled)
    _SETTLED[key] = (bet, table, settled)
    if len(_SETTLED) > _SETTLED_LIMIT:
        _SETTLED.popitem(last=False)
    return settled


def _check_lines(bet: Bet, table: BetTable, tableau: Tableau) -> None:
    """Refuse a value-level bet from a file with a pay line whose condition no record of
    ``table`` meets under ``tableau`` (a line the lines above it take is allowed)."""
    if bet.payout_function is not None:
        return
    present = set(settlement(bet, table).keys)
    missing = [j for j, ln in enumerate(bet.lines) if (ln.event, ln.pays) not in present]
    if not missing:
        return
    records = _narrowed_records(table, bet.reads)
    for j in missing:
        if not any(bet.lines[j].when(r) for r in records):
            raise impossible_line(bet, j, tableau)


def _key_of(bet: Bet, column: Any) -> tuple[str, Fraction]:
    """The (event, pays) of a column of a bet's own table."""
    if bet.payout_function is not None:
        return column  # type: ignore[no-any-return]
    if column == len(bet.lines):
        return bet.otherwise_event, bet.otherwise
    line = bet.lines[column]
    return line.event, line.pays


_NARROWED: OrderedDict[tuple[int, Reads], tuple[BetTable, list[Coup]]] = OrderedDict()


def _narrowed_records(table: BetTable, reads: Reads) -> list[Coup]:
    """The records of a distribution table as a bet with ``reads`` sees them: value-level
    records by projecting their fields (fast), others through :meth:`Coup.narrow`; the last
    few kept (the main bets read alike).  Records that look alike are one object."""
    key = (id(table), reads)
    hit = _NARROWED.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    out = _narrow(table, reads)
    _NARROWED[key] = (table, out)
    if len(_NARROWED) > 16:
        _NARROWED.popitem(last=False)
    return out


def _narrow(table: BetTable, reads: Reads) -> list[Coup]:
    out: list[Coup] = []
    made: dict[tuple[object, ...], Coup] = {}
    keep = [name in reads.fields for name in BASE_FIELDS]
    winner = "player_total" in reads.fields and "banker_total" in reads.fields
    for record in table.columns:
        if record._blocks or reads.sets:
            out.append(record.narrow(reads))
            continue
        fields = record._fields
        projected = tuple(v if k else UNKNOWN for v, k in zip(fields, keep, strict=True))
        if winner and projected[0] is UNKNOWN:
            pt, bt = fields[1], fields[2]
            won = Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE
            projected = (won, *projected[1:])
        for name in reads.fields:  # a field the record does not carry cannot be read
            if fields[BASE_FIELDS.index(name)] is UNKNOWN:
                raise BetError(f"internal: the table does not carry {name!r}, which the bet reads")
        hit = made.get(projected)
        if hit is None:
            hit = made[projected] = Coup(projected, None, ())
        out.append(hit)
    return out


def _line_order(bet: Bet, event: str) -> int:
    for i, line in enumerate(bet.lines):
        if line.event == event:
            return i
    return len(bet.lines) + (0 if event != bet.otherwise_event else 1)


def summarize(bet: Bet, event_counts: Sequence[tuple[str, Fraction, int]], denominator: int) -> BetSummary:
    """The statistics of ``bet`` from its events' exact counts (event, pays, count) out of
    ``denominator`` sequences (a void run-out event pays 0)."""
    counts = tuple(event_counts)
    scale, xs = _scaled(tuple(pays for _, pays, _ in counts))
    return _summarized(bet, counts, xs, scale, denominator)


def _scaled(pays: tuple[Fraction, ...]) -> tuple[int, tuple[int, ...]]:
    """(L, L x each pay): L the lcm of the pays' denominators, so EV = sum c (L pays) / (d L)."""
    scale = math.lcm(*(p.denominator for p in pays)) if pays else 1
    return scale, tuple(p.numerator * (scale // p.denominator) for p in pays)


def _summarized(
    bet: Bet, counts: tuple[tuple[str, Fraction, int], ...], xs: tuple[int, ...], scale: int, d: int
) -> BetSummary:
    # integers inside: a pricing loop calls this for every bet and shoe
    first = second = push = hit = 0
    for (_, _, c), x in zip(counts, xs, strict=True):
        if not c:
            continue
        cx = c * x
        first += cx
        second += cx * x
        if x == 0:
            push += c
        elif x > 0:
            hit += c
    return BetSummary(bet, counts, d, scale, first, second, push, hit)


class Pricer:
    """Prices bets on one shoe under one tableau, evaluating each needed table once.

    >>> from analyzer.bets.catalogue import find_bet
    >>> Pricer(Shoe.standard(8)).summary(find_bet("banker")).house_edge > 0
    True
    """

    def __init__(
        self, shoe: Shoe, tableau: Tableau = STANDARD, values: Reads | None = ANALYSIS_READS
    ) -> None:
        """``values``: read value-level bets at least this finely (see :func:`table_reads`); by
        default the analysis table's reads, which every catalogue bet on values fits: they all
        share one table (which ships with the package), and one evaluation per shoe."""
        self.shoe = _check_shoe(shoe)
        self.tableau = _check_tableau(tableau)
        self.values = values

    def distribution(self, reads: Reads) -> Distribution:
        """The :class:`Distribution` of records read at ``reads`` (the full walk), sharing this
        shoe's table evaluations."""
        table = compile_table(self.tableau, reads, False)
        counts, d = _counts(table, self.shoe)
        return Distribution(self.shoe, self.tableau, reads, table.columns, tuple(_ints(counts)), d)

    def summaries(self, bets: Iterable[Bet]) -> list[BetSummary]:
        """Exact statistics of each bet, in order (bets that read values only share a table;
        a bet that reads cards has its own).

        Raises:
            BetError: a bet is not a Bet, or reads suits on a shoe without suits; the compile
                budget of a card-level bet is exceeded.
        """
        chosen = [_check_bet(b) for b in bets]
        out: list[BetSummary | None] = [None] * len(chosen)
        size = self.shoe.size
        by_values = [i for i, b in enumerate(chosen) if not b.reads.sets]
        for reads, members in table_reads([chosen[i].reads for i in by_values], size, self.values):
            table = table_for(reads, size, self.tableau)
            counts, total, d = _counted(table, self.shoe)
            for k in members:
                i = by_values[k]
                if chosen[i].origin.startswith("file:"):
                    _check_lines(chosen[i], table, self.tableau)
                out[i] = self._summary(chosen[i], table, counts, total, d)
        for i, bet in enumerate(chosen):
            if out[i] is None:
                table = bet_table_for(bet, self.shoe, self.tableau)
                counts, total, d = _counted(table, self.shoe)
                out[i] = self._summary(bet, table, counts, total, d)
        return [s for s in out if s is not None]

    def summary(self, bet: Bet) -> BetSummary:
        """:meth:`summaries` of one bet (the same tables, found without grouping)."""
        return _summary_of(_check_bet(bet), self.shoe, self.tableau, self.values)

    def _summary(self, bet: Bet, table: BetTable, counts: Any, total: int, d: int) -> BetSummary:
        return _summary_from(settlement(bet, table), bet, table, counts, total, d)


def _summary_from(
    settled: Settlement, bet: Bet, table: BetTable, counts: Any, total: int, d: int
) -> BetSummary:
    """``bet``'s statistics from the counts of ``table`` (their sum ``total``, out of ``d``):
    summed by the compiled kernel where it runs and no coup is void, else in Python."""
    if total == d:
        fast = native.summary(settled, counts)
        if fast is not None:
            events, first, second, pushes, hits = fast
            # BetSummary(...) as its __init__ would make it (a frozen dataclass: the fields,
            # nothing else), at half the cost: a pricing loop makes one per bet and shoe
            made = _new(BetSummary)
            made.__dict__.update(
                bet=bet, event_counts=events, denominator=d, scale=settled.scale,
                first=first, second=second, pushes=pushes, hits=hits,
            )
            return made
    return settled.summary(bet, key_sums(settled, table, counts), d - total, d)


_new = object.__new__


def _summary_of(bet: Bet, shoe: Shoe, tableau: Tableau, values: Reads | None) -> BetSummary:
    """:meth:`Pricer.summary` of checked arguments."""
    if bet.reads.sets:
        table = bet_table_for(bet, shoe, tableau)
    else:
        table = table_for(_value_reads(bet.reads, values), shoe.size, tableau)
        if bet.origin.startswith("file:"):
            _check_lines(bet, table, tableau)
    counts, total, d = _counted(table, shoe)
    return _summary_from(settlement(bet, table), bet, table, counts, total, d)


def price(bet: Bet, shoe: Shoe, tableau: Tableau = STANDARD) -> BetSummary:
    """Exact statistics of one bet on one shoe (see :class:`BetSummary`), as
    ``Pricer(shoe, tableau).summary(bet)``.

    Raises:
        BetError / ShoeError / RulesError: a bad argument; a suited bet on a shoe without suits.
    """
    return _summary_of(_check_bet(bet), _check_shoe(shoe), _check_tableau(tableau), ANALYSIS_READS)


def pay_for_edge(
    bet: Bet, shoe: Shoe, house_edge: Fraction | int = 0, tableau: Tableau = STANDARD
) -> Fraction:
    """The pay of the bet's adjustable line (e.g. Tie's 8, Dragon 7's 40) at which its house
    edge per coup equals ``house_edge`` (0 = the fair pay), exactly.

    EV is linear in that pay: EV(x) = q x + r, with q the line's probability, so
    x = (-house_edge - r) / q.

    Raises:
        BetError: the bet has no adjustable line, or the line's event cannot happen on this shoe.
    """
    if isinstance(house_edge, bool) or not isinstance(house_edge, int | Fraction):
        raise BetError(
            f"bad house edge {house_edge!r}: give an exact int or Fraction (e.g. Fraction(1, 100) for 1%)"
        )
    q, rest = _adjustable_terms(bet, shoe, tableau)
    return (-Fraction(house_edge) - rest) / q


def _adjustable_terms(bet: Bet, shoe: Shoe, tableau: Tableau) -> tuple[Fraction, Fraction]:
    """(q, r) with EV(x) = q x + r for the pay x of the bet's adjustable line (exact).

    Raises:
        BetError: no adjustable line, or its event cannot happen on this shoe.
    """
    _check_bet(bet)
    if bet.adjustable is None or bet.payout_function is not None:
        raise BetError(f"bet {bet.name!r} has no single adjustable pay to solve for")
    summary = price(bet, shoe, tableau)
    line = bet.lines[bet.adjustable]
    q = sum((r.probability for r in summary.events if r.event == line.event), Fraction(0))
    if q == 0:
        raise BetError(f"the event {line.event!r} of bet {bet.name!r} cannot happen on this shoe")
    return q, summary.ev - q * line.pays


#: The grid of practical pays, by the size of the number quoted ("X to 1" or "X for 1"): below
#: 2 in hundredths (commission-style pays: 0.95 or 0.96 to 1, 1.5 to 1), below 10 in halves
#: (2.5 to 1, 7.5 for 1), below 100 in whole numbers (8 to 1, 40 to 1), from 100 in fives (150,
#: 215 to 1).  Each limit is on the coarser grid above it, so the grids join without gaps.
PRACTICAL_STEPS: tuple[tuple[Fraction | None, Fraction], ...] = (
    (Fraction(2), Fraction(1, 100)),
    (Fraction(10), Fraction(1, 2)),
    (Fraction(100), Fraction(1)),
    (None, Fraction(5)),
)
#: How a pay is quoted: "X to 1" (net win X per unit staked) or "X for 1" (X returned, the stake
#: included: a net win of X - 1).
PAY_FORMS = ("to", "for")


def practical_step(quoted: Fraction) -> Fraction:
    """The grid step of :data:`PRACTICAL_STEPS` for a quoted number ``quoted`` (> 0).

    >>> practical_step(Fraction(19, 20)), practical_step(Fraction(17, 2)), practical_step(Fraction(150))
    (Fraction(1, 100), Fraction(1, 2), Fraction(5, 1))
    """
    for limit, step in PRACTICAL_STEPS:
        if limit is None or quoted < limit:
            return step
    raise AssertionError("unreachable: the last step has no limit")


@dataclass(frozen=True)
class PracticalPay:
    """A practical pay near a target: quoted as ``quoted`` ``form`` 1 (``form`` is ``"to"`` or
    ``"for"``), a net win of ``pays`` per unit staked, with its exact ``house_edge`` per coup;
    ``side`` is ``"below"`` or ``"above"`` the target (``"exact"`` when the target is on the grid)."""

    form: str
    side: str
    quoted: Fraction
    pays: Fraction
    house_edge: Fraction

    @property
    def text(self) -> str:
        """``"8 to 1"``, ``"9 for 1"``, ``"0.96 to 1"`` (the grid's numbers are exact decimals
        of at most two places)."""
        q = self.quoted
        cents = q * 100
        if cents.denominator != 1:
            raise AssertionError(f"a practical pay is on the grid of hundredths, not {q}")
        whole, frac = divmod(int(cents), 100)
        body = str(whole) if not frac else f"{whole}.{frac:02d}".rstrip("0")
        return f"{body} {self.form} 1"


def practical_pays(
    bet: Bet, shoe: Shoe, house_edge: Fraction | int = 0, tableau: Tableau = STANDARD
) -> tuple[PracticalPay, ...]:
    """The practical pays (grid :data:`PRACTICAL_STEPS`) nearest the pay that gives
    ``house_edge``, on either side, in each form "X to 1" and "X for 1", each with its exact
    house edge: EV(x) = q x + r (as :func:`pay_for_edge`), so the edge at pay x is -(q x + r).
    A pay that would not be a win (net 0 or less) is left out.

    Raises:
        BetError: as :func:`pay_for_edge`.

    >>> from analyzer.bets.catalogue import find_bet
    >>> [p.text for p in practical_pays(find_bet("tie"), Shoe.standard(8))]
    ['9.5 to 1', '10 to 1', '10 for 1', '11 for 1']
    """
    target = pay_for_edge(bet, shoe, house_edge, tableau)
    q, rest = _adjustable_terms(bet, shoe, tableau)
    out: list[PracticalPay] = []
    for form in PAY_FORMS:
        quoted = target + (1 if form == "for" else 0)
        step = practical_step(quoted) if quoted > 0 else PRACTICAL_STEPS[0][1]
        low = (quoted // step) * step
        high = -((-quoted) // step) * step
        sides = [("exact", low)] if low == high else [("below", low), ("above", high)]
        for side, value in sides:
            pays = value - (1 if form == "for" else 0)
            if pays <= 0:
                continue
            out.append(PracticalPay(form, side, value, pays, -(q * pays + rest)))
    return tuple(out)


# -- the engine-level analysis ---------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    """Exact analysis of one shoe under a tableau.

    Counts are integers over ``denominator`` = N!/(N-K)! ordered sequences (K = min(N, 6));
    for N >= 6 they are the published 6-card permutation counts.  Probabilities are per coup.
    ``bets`` holds Banker (19/20), Player (1) and Tie (8, Player/Banker push) by default.
    """

    shoe: Shoe
    tableau: Tableau
    distribution: Distribution
    bets: tuple[BetSummary, ...]

    @property
    def denominator(self) -> int:
        """N!/(N-K)!, the number of ordered K-card sequences (K = min(N, 6))."""
        return self.distribution.denominator

    @property
    def outcome_counts(self) -> dict[str, int]:
        """Counts of ``"Banker"``, ``"Player"``, ``"Tie"`` and, when nonzero, the run-out event."""
        counts = self.distribution.tally(lambda r: r.winner)
        out = {w.label: counts.get(w, 0) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)}
        if self.distribution.run_out:
            out[RUN_OUT] = self.distribution.run_out
        return out

    def probability(self, outcome: Winner) -> Fraction:
        """Probability per coup that ``outcome`` happens."""
        return Fraction(self.outcome_counts[outcome.label], self.denominator)

    @property
    def totals(self) -> tuple[tuple[int, ...], ...]:
        """10 x 10 counts: ``totals[p][b]`` = final Player total p with final Banker total b."""
        counts = self.distribution.tally(lambda r: (r.player_total, r.banker_total))
        return tuple(tuple(counts.get((p, b), 0) for b in range(10)) for p in range(10))

    @property
    def naturals(self) -> dict[str, int]:
        """A partition of the counted sequences by naturals: Player natural only, Banker
        natural only, both, neither (which includes every sequence on which the shoe runs out:
        a natural ends the coup at four cards, so a coup that runs out had none)."""
        counts = self.distribution.tally(lambda r: r.naturals)
        counts["none"] = counts.get("none", 0) + self.distribution.run_out
        return {label: counts.get(key, 0) for key, label in NATURAL_CLASSES.items()}

    @property
    def cards_dealt(self) -> dict[int, int]:
        """Counts of coups that use 4, 5 and 6 cards."""
        counts = self.distribution.tally(lambda r: r.cards_dealt)
        return {n: counts.get(n, 0) for n in (4, 5, 6)}


def analyze(shoe: Shoe, bets: Sequence[Bet] | None = None, tableau: Tableau = STANDARD) -> Analysis:
    """Exact analysis of ``shoe``: outcome counts and probabilities, the totals table, naturals,
    cards per coup, and the main bets (or ``bets``).

    Costs the same for any number of decks after the one-time compile.

    >>> a = analyze(Shoe.standard(8))
    >>> a.outcome_counts["Banker"], a.denominator
    (2292252566437888, 4998398275503360)
    """
    pricer = Pricer(shoe, tableau, ANALYSIS_READS)  # one value table for the analysis and its bets
    dist = pricer.distribution(ANALYSIS_READS)
    if bets is None:
        from analyzer.bets.main import main_bets  # lazy: not the side-bet catalogue, only these

        chosen: list[Bet] = main_bets()
    else:
        chosen = [_check_bet(b) for b in bets]
    return Analysis(shoe, tableau, dist, tuple(pricer.summaries(chosen)))
