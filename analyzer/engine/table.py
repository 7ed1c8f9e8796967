"""Compiled tables: every count a bet (or a distribution) needs, as a polynomial in the shoe.

A :class:`Table` has *columns* -- the events of one bet (its pay lines, in order), or the coup
records of a distribution -- and gives, on any shoe, the exact number of ordered K-card
sequences (K = min(N, 6)) that end in each column.  It is compiled once per tableau and bet (or
reads), shoe-independent, and settled at compile time: pricing a shoe is arithmetic only.

Two parts, both sums over the shared value compositions of :mod:`analyzer.engine.values`:

* the **value part**: (column, composition, tally) -- every leaf of the dealing tree that the
  bet settles from point values alone (and the fields it reads), counted by composition;
  its count on a shoe is sum of tally x W(composition);
* the **label part**, for the rows of leaves where the bet reads ranks, suits or colours
  (:mod:`analyzer.engine.explore`): per row, its compositions and tallies (the row's count at the
  level of values, S = sum of tally x W) and the multiset R of its read cards' values; per leaf
  of the row's exploration, a composition of the weight program (the leaf's labels), its column
  and multiplicity.  A leaf's count is (S / D(R)) x N(leaf), where D(R) = prod falling(n_v, m_v)
  counts the ordered draws of R's values and N(leaf) the draws of the read cards with the leaf's
  labels: drawing without replacement is exchangeable, so the labels of the read cards given
  their values do not depend on the other cards (S / D(R) is an integer: every W of the row is a
  multiple of D(R)).  One event of each row takes its *rest*: the value part counts the whole
  row (S) for it, and every other leaf's count is taken back from it, so its own leaves (often
  the costly "mixed suits" ones) need no weight at all.

So a table's size is the number of rows a bet reads labels in and of leaves it needs, not of
every way to label every card; on the standard shoe most side bets are a value part and a few
hundred leaves.  Tables are kept in memory (bounded) and in the verified disk cache
(:mod:`analyzer.engine.cache`); the tables of the catalogue under the standard tableau ship with
the package, so a first run is a warm one.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from analyzer.bets.model import Bet
from analyzer.core.coup import Coup, build_record
from analyzer.core.exact import whole_number
from analyzer.core.reads import Reads, SuitDetail
from analyzer.core.tableau import Tableau
from analyzer.engine import cache
from analyzer.engine.algebra import Program, ProgramBuilder
from analyzer.engine.values import composition_indices
from analyzer.errors import BetError

if TYPE_CHECKING:
    from analyzer.engine.explore import State

#: The most records one compile may settle (``PUNTO_BANCO_MAX_RECORDS`` sets it).
MAX_RECORDS = 500_000
MAX_RECORDS_ENV = "PUNTO_BANCO_MAX_RECORDS"
#: Compiled tables kept in memory per process.
MEMORY_TABLES = 256


@dataclass(frozen=True)
class Table:
    """A compiled table (see the module docstring).

    ``distribution``: True for a distribution (columns are records, :attr:`records`).
    ``symmetric``: its weights hold on shoes whose suits are alike (every suit of a rank has as
    many cards) only, where the labellings that differ by a renaming of the suits weigh the
    same and share one weight; the exact table holds on every shoe.
    ``columns``: for a bet, its settle keys (pay-line index, ``len(lines)`` for ``otherwise``;
    or ``(event, pays)`` for a payout function); for a distribution, its records.  Value part:
    ``value_col``/``value_comp``/``value_tally`` (sorted by column; compositions index
    :data:`~analyzer.engine.values.COMPOSITIONS`).  Rows: ``row_read[r]`` the multiset code of
    the read values, compositions and tallies in ``row_comp[row_start[r]:row_start[r + 1]]``,
    ``row_rest[r]`` the column that takes the rest of the row: the value part counts the whole row
    for it, and each leaf of the row is taken back from it.
    Leaves (sorted by column): ``leaf_row``, ``leaf_comp`` (a composition of ``program``),
    ``leaf_col``, ``leaf_mult``.  ``first_four``: compiled from the first four cards only
    (exact on shoes of 6 cards or more).
    """

    key: str
    columns: tuple[Any, ...]
    first_four: bool
    distribution: bool
    symmetric: bool
    value_col: tuple[int, ...]
    value_comp: tuple[int, ...]
    value_tally: tuple[int, ...]
    row_read: tuple[int, ...]
    row_rest: tuple[int, ...]
    row_start: tuple[int, ...]
    row_comp: tuple[int, ...]
    row_tally: tuple[int, ...]
    leaf_row: tuple[int, ...]
    leaf_comp: tuple[int, ...]
    leaf_col: tuple[int, ...]
    leaf_mult: tuple[int, ...]
    program: Program

    @functools.cached_property  # asked on every evaluation: found once
    def needs_suits(self) -> bool:
        """True when a count needs the suits of the cards (a shoe given by rank counts only
        cannot be priced)."""
        return self.program.needs_suits

    @property
    def records(self) -> tuple[Any, ...]:
        """The records of a distribution table (its columns).

        Raises:
            ValueError: a bet's table (its columns are the bet's events).
        """
        if not self.distribution:
            raise ValueError("internal: a bet's table has events, not records")
        return self.columns

    @functools.cached_property  # asked on every shoe that evaluates tables together: found once
    def size(self) -> int:
        """Entries stored: value entries, row entries and leaves."""
        return len(self.value_col) + len(self.row_comp) + len(self.leaf_row)


# -- keys --------------------------------------------------------------------------------------


def records_key(tableau: Tableau, reads: Reads, first_four: bool, symmetric: bool = False) -> str:
    """The key of the distribution table of ``reads`` (the disk cache's key)."""
    return (
        f"records|rules={tableau.fingerprint}|{reads.key}|first_four={int(first_four)}|sym={int(symmetric)}"
    )


def bet_key(tableau: Tableau, bet: Bet, first_four: bool, symmetric: bool = False) -> str | None:
    """The key of a bet's table across processes, or ``None`` for a bet without an origin."""
    if not bet.origin:
        return None
    kind = "lines" if bet.payout_function is None else "payout"
    return (
        f"bet|rules={tableau.fingerprint}|{bet.origin}|{kind}|{bet.reads.key}|first_four={int(first_four)}"
        f"|sym={int(symmetric)}"
    )


def _memory_key(tableau: Tableau, bet: Bet, first_four: bool, symmetric: bool) -> Hashable:
    key = bet_key(tableau, bet, first_four, symmetric)
    if key is not None:
        return key
    # a Python bet: its conditions are its identity (a bet with other pays shares the table)
    conditions: tuple[object, ...] = (
        tuple(line.when for line in bet.lines)
        if bet.payout_function is None
        else (bet.payout_function, bet.event_function, bet.name)
    )
    return ("python", tableau.fingerprint, conditions, bet.reads, first_four, symmetric)


# -- compiling -------------------------------------------------------------------------------------

_MEMORY: OrderedDict[Hashable, Table] = OrderedDict()
_LOCK = threading.RLock()


def _remember(
    key: Hashable,
    build: Callable[[], Table],
    disk_key: str | None,
    tableau: Tableau,
    twin: Hashable | None = None,
    fits: Callable[[Table], bool] | None = None,
) -> Table:
    """The table of ``key``: in memory, else on disk (``disk_key``; a file whose table does not
    ``fits`` is a miss), else the table of a twin in memory (a bet with the same conditions:
    ``twin``, see :func:`_conditions`), else built."""
    with _LOCK:
        hit = _MEMORY.get(key)
        if hit is not None:
            _MEMORY.move_to_end(key)
            return hit

        table = cache.load(disk_key, tableau) if disk_key is not None else None
        if table is not None and fits is not None and not fits(table):
            table = None  # a file whose columns are not this bet's settle keys: compiled again
        if table is None:
            same = _TWINS.get(twin) if twin is not None else None
            if same is not None:  # the same columns: a variant of a bet that pays otherwise
                table = dataclasses.replace(same, key=disk_key if disk_key is not None else same.key)
            else:
                table = build()
            if disk_key is not None:
                cache.store(table)
            if twin is not None:  # only tables compiled here: a file's table is known by its key alone
                _TWINS[twin] = table
                if len(_TWINS) > MEMORY_TABLES:
                    _TWINS.popitem(last=False)
        _MEMORY[key] = table
        if len(_MEMORY) > MEMORY_TABLES:
            _MEMORY.popitem(last=False)
        return table


#: Bet tables by the structure of their bets' conditions (:func:`_conditions`).
_TWINS: OrderedDict[Hashable, Table] = OrderedDict()


class _OpaqueError(Exception):
    """A condition whose structure cannot be compared (an unhashable value it closes over)."""


def _structure(x: object, depth: int = 0) -> Hashable:
    """What a condition computes from, comparable across objects: a function's code, globals,
    defaults and the values it closes over (functions among them, recursively); any other
    value itself (it must be hashable).

    Raises:
        _OpaqueError: an unhashable value, or nesting deeper than 8.
    """
    if depth > 8:
        raise _OpaqueError
    code = getattr(x, "__code__", None)
    if code is not None:
        try:
            closure = getattr(x, "__closure__", None) or ()
            cells = tuple(_structure(c.cell_contents, depth + 1) for c in closure)
        except ValueError:  # an empty cell
            raise _OpaqueError from None
        defaults = tuple(_structure(d, depth + 1) for d in getattr(x, "__defaults__", None) or ())
        return ("function", code, id(getattr(x, "__globals__", None)), cells, defaults)
    try:
        hash(x)
    except TypeError:
        raise _OpaqueError from None
    return ("value", type(x), x)


def _conditions(tableau: Tableau, bet: Bet, first_four: bool, symmetric: bool) -> Hashable | None:
    """A key equal for two bets whose pay lines test the same conditions in the same order
    (the variants of a catalogue bet that differ only in what they pay: their tables, whose
    columns are pay-line indices, are one); ``None`` for a payout function, whose columns are
    its pays, or a condition that cannot be compared."""
    if bet.payout_function is not None:
        return None
    try:
        conditions = tuple(_structure(line.when) for line in bet.lines)
    except _OpaqueError:
        return None
    return ("conditions", tableau.fingerprint, conditions, bet.reads, first_four, symmetric)


def compile_table(tableau: Tableau, reads: Reads, first_four: bool = False, symmetric: bool = False) -> Table:
    """The distribution table of ``reads``: columns are the coup records as ``reads`` sees
    them (memory, then the disk cache, then compiled).

    ``first_four`` asks for the first-four-card table (exact on shoes of 6 cards or more),
    valid only for reads that are :attr:`~analyzer.core.reads.Reads.first_four_only`.
    """
    if first_four and not reads.first_four_only:
        raise ValueError("internal: a first-four table for reads that look past the first four cards")
    symmetric = symmetric and names_suits(reads)
    fast = (id(reads), id(tableau), first_four, symmetric)
    hit = _BY_OBJECT.get(fast)
    if hit is not None and hit[0] is reads and hit[1] is tableau and _MEMORY.get(hit[2]) is hit[3]:
        return hit[3]  # a pricing loop asks for the same reads again and again
    key = records_key(tableau, reads, first_four, symmetric)
    table = _remember(key, lambda: build_records(tableau, reads, first_four, symmetric), key, tableau)
    _by_object(fast, reads, tableau, key, table)
    return table


def bet_table(tableau: Tableau, bet: Bet, first_four: bool = False, symmetric: bool = False) -> Table:
    """The table of one bet (memory, then the disk cache, then compiled); its columns are its
    settle keys.

    Raises:
        BetError: the compile would exceed the budget (:data:`MAX_RECORDS`); a pay line of a bet
            from a file that no coup can meet under ``tableau``; what the bet's conditions raise.
    """
    if first_four and not bet.reads.first_four_only:
        raise ValueError("internal: a first-four table for a bet that looks past the first four cards")
    symmetric = symmetric and names_suits(bet.reads)  # otherwise the two tables are one
    # a pricing loop asks for the same bets again and again: by value (the fingerprint names
    # the conditions and reads, which make the table), or a bet built in Python by identity
    fingerprint = bet.fingerprint
    fast = (id(bet) if fingerprint is None else fingerprint, id(tableau), first_four, symmetric)
    hit = _BY_OBJECT.get(fast)
    if (
        hit is not None
        and (fingerprint is not None or hit[0] is bet)
        and hit[1] is tableau
        and _MEMORY.get(hit[2]) is hit[3]
    ):
        return hit[3]
    key = _memory_key(tableau, bet, first_four, symmetric)
    disk = bet_key(tableau, bet, first_four, symmetric)
    twin = _conditions(tableau, bet, first_four, symmetric)

    def build() -> Table:
        return build_bet(tableau, bet, first_four, symmetric)

    table = _remember(key, build, disk, tableau, twin, lambda t: _fits(t, bet))
    _by_object(fast, bet, tableau, key, table)
    return table


def _fits(table: Table, bet: Bet) -> bool:
    """Whether a bet table read from disk has this bet's settle keys as columns: pay-line
    indices up to ``len(lines)`` (``otherwise``), or (event, pays) of a payout function."""
    if table.distribution:
        return False
    if bet.payout_function is None:
        return all(type(c) is int and 0 <= c <= len(bet.lines) for c in table.columns)
    return all(isinstance(c, tuple) for c in table.columns)


#: The table each bet (by fingerprint, or by identity) or reads object was last given, valid
#: while the table is in memory.
_BY_OBJECT: dict[tuple[object, int, bool, bool], tuple[object, Tableau, Hashable, Table]] = {}


def _by_object(
    fast: tuple[object, int, bool, bool], owner: object, tableau: Tableau, key: Hashable, table: Table
) -> None:
    if len(_BY_OBJECT) > 4096:
        _BY_OBJECT.clear()
    _BY_OBJECT[fast] = (owner, tableau, key, table)  # the owner held: its id is not reused meanwhile


def names_suits(reads: Reads) -> bool:
    """True when ``reads`` names suits or colours: only then do a symmetric table (for shoes
    whose suits are alike) and an exact one differ."""
    return reads.suits in (
        SuitDetail.SUIT,
        SuitDetail.COLOUR,
        SuitDetail.ONE_SUIT_NAMED,
        SuitDetail.ONE_COLOUR_NAMED,
    )


def max_records() -> int:
    """The compile budget: ``PUNTO_BANCO_MAX_RECORDS`` or :data:`MAX_RECORDS`.

    Raises:
        BetError: the variable is not a whole number >= 1.
    """
    raw = os.environ.get(MAX_RECORDS_ENV)
    if raw is None or not raw.strip():
        return MAX_RECORDS

    value = whole_number(raw)
    if value is None or value < 1:
        raise BetError(f"bad {MAX_RECORDS_ENV}={raw!r}: give a whole number of records, at least 1")
    return value


_ROWS: OrderedDict[tuple[object, ...], dict[tuple[Any, ...], list[tuple[int, int]]]] = OrderedDict()


def _rows(tableau: Tableau, reads: Reads, first_four: bool) -> dict[tuple[Any, ...], list[tuple[int, int]]]:
    """The walk's groups as rows: (fields, coded block values) -> [(composition, tally)], kept
    for the last few walks (bets that read the same fields and blocks share one)."""
    key = (tableau.fingerprint, reads.fields, reads.blocks, first_four)
    with _LOCK:
        hit = _ROWS.get(key)
    if hit is not None:
        return hit
    from analyzer.engine.walk import walk, walk_first_four  # lazy: a loaded table needs no walk

    groups = walk_first_four(reads) if first_four else walk(tableau, reads)
    rows: dict[tuple[Any, ...], dict[int, int]] = {}
    index = composition_indices()
    for (fields, blocks, others, cards), n in groups.items():
        comp = index[(cards, sum(blocks) + others)]
        per = rows.get((fields, blocks))
        if per is None:
            rows[(fields, blocks)] = {comp: n}
        else:
            per[comp] = per.get(comp, 0) + n
    out = {k: sorted(v.items()) for k, v in rows.items()}
    with _LOCK:
        _ROWS[key] = out
        if len(_ROWS) > 16:
            _ROWS.popitem(last=False)
    return out


def build_records(tableau: Tableau, reads: Reads, first_four: bool = False, symmetric: bool = False) -> Table:
    """Compile the distribution table of ``reads`` (no caching): every record a bet with
    ``reads`` can see, refined fully."""

    def identity(record: Coup) -> object:
        # rebuilding the record reads every label it holds: the search fixes them all
        cards = [(members, list(group)) for members, group, _ in record._blocks]
        flags = [flag for _, _, flag in record._blocks]
        return build_record(record._fields, cards, reads, flags if reads.suits.per_set else None)

    key = records_key(tableau, reads, first_four, symmetric)
    return _compile(tableau, reads, first_four, symmetric, identity, key, None)


def build_bet(tableau: Tableau, bet: Bet, first_four: bool = False, symmetric: bool = False) -> Table:
    """Compile the table of ``bet`` (no caching; see :func:`bet_table`)."""
    settle: Callable[[Coup], object]
    settle = bet.line_of if bet.payout_function is None else bet.settle
    key = bet_key(tableau, bet, first_four, symmetric) or f"bet|rules={tableau.fingerprint}|python:{bet.name}"
    table = _compile(tableau, bet.reads, first_four, symmetric, settle, key, bet)
    if bet.payout_function is None and bet.origin.startswith("file:"):
        _check_lines(tableau, bet, first_four, table)
    return table


def _compile(
    tableau: Tableau,
    reads: Reads,
    first_four: bool,
    symmetric: bool,
    settle: Callable[[Coup], object],
    key: str,
    bet: Bet | None,
) -> Table:
    from analyzer.engine.explore import MIXED, PENDING, Budget, Explorer, Row  # lazy: compile only
    from analyzer.engine.walk import multiset  # lazy: as above

    what = f"bet {bet.name!r}" if bet is not None else f"the distribution of {reads.key}"
    explorer = Explorer(reads, settle, Budget(max_records(), what))
    builder = ProgramBuilder()
    columns: dict[Any, int] = {}
    value: dict[tuple[int, int], int] = defaultdict(int)
    row_read: list[int] = []
    row_rest: list[int] = []
    row_entries: list[list[tuple[int, int]]] = []
    leaves: dict[tuple[int, int, int], int] = defaultdict(int)
    # rows of one shape (fields, cards per block) that the bet settles from the fields and
    # flags alone share their leaves (Explorer.explore_shape); a distribution reads every card
    shapes: dict[tuple[object, ...], list[tuple[tuple[int, ...], object]] | None] = {}
    for (fields, coded), comps in _rows(tableau, reads, first_four).items():
        signature = tuple(multiset(b) for b in coded)
        shared = None
        if bet is not None:
            row_shape = (fields, tuple(len(values) for values in signature))
            if row_shape not in shapes:
                shapes[row_shape] = explorer.explore_shape(*row_shape)
            shared = shapes[row_shape]
        found: list[tuple[Any, object]]
        if shared is None:
            row = Row.of(fields, signature)
            found = explorer.explore(row)
        elif len(shared) == 1:
            found = list(shared)
        else:
            row = Row.of(fields, signature)
            none = (PENDING,) * len(row.slots)
            found = [((none, none, flags), event) for flags, event in shared]
        events = {event for _, event in found}
        if len(events) == 1:  # settled from values alone, or every label settles alike
            col = columns.setdefault(next(iter(events)), len(columns))
            for comp, t in comps:
                value[(col, comp)] += t
            continue
        # one event takes the rest: its count is the row's count at the level of values less
        # the other events' leaves, so its own leaves (often the costly "mixed" ones) need no
        # weight at all
        cost: dict[Any, int] = defaultdict(int)
        for state, event in found:
            cost[event] += 1 + 4 * sum(1 for f in state[2] if f == MIXED)
        rest = max(cost, key=lambda e: (cost[e], -columns.get(e, len(columns))))
        rest_col = columns.setdefault(rest, len(columns))
        for comp, t in comps:
            value[(rest_col, comp)] += t
        r = len(row_read)
        row_read.append(sum(coded))
        row_rest.append(rest_col)
        row_entries.append(comps)
        made: dict[State, int | None] = {}
        for state, event in found:
            if event == rest:
                continue
            col = columns.setdefault(event, len(columns))
            shape = explorer.canonical(state) if symmetric else state
            if shape not in made:
                made[shape] = builder.composition(explorer.demands(row, shape), (), 0)
            index = made[shape]
            if index is not None:
                leaves[(r, index, col)] += 1
    order = _column_order(list(columns), bet)
    remap = {columns[k]: i for i, k in enumerate(order)}  # found order -> pay-table order
    vals = sorted((remap[c], comp, t) for (c, comp), t in value.items())
    leafs = sorted((remap[c], r, i, m) for (r, i, c), m in leaves.items() if m)
    starts = [0]
    flat: list[tuple[int, int]] = []
    for entries in row_entries:
        flat.extend(entries)
        starts.append(len(flat))
    return Table(
        key=key,
        columns=tuple(order),
        first_four=first_four,
        distribution=bet is None,
        symmetric=symmetric,
        value_col=tuple(c for c, _, _ in vals),
        value_comp=tuple(comp for _, comp, _ in vals),
        value_tally=tuple(t for _, _, t in vals),
        row_read=tuple(row_read),
        row_rest=tuple(remap[c] for c in row_rest),
        row_start=tuple(starts),
        row_comp=tuple(c for c, _ in flat),
        row_tally=tuple(t for _, t in flat),
        leaf_row=tuple(r for _, r, _, _ in leafs),
        leaf_comp=tuple(i for _, _, i, _ in leafs),
        leaf_col=tuple(c for c, _, _, _ in leafs),
        leaf_mult=tuple(m for _, _, _, m in leafs),
        program=builder.build(),
    )


def _column_order(keys: list[Any], bet: Bet | None) -> list[Any]:
    """Columns in pay-table order: lines, then ``otherwise``; a payout function's events by
    decreasing pay; records as found (the walk's order is deterministic)."""
    if bet is None:
        return keys
    if bet.payout_function is None:
        return sorted(keys)
    return sorted(keys, key=lambda k: (-k[1], k[0]))


def _check_lines(tableau: Tableau, bet: Bet, first_four: bool, table: Table) -> None:
    """Refuse a bet from a file with a pay line no coup can meet under ``tableau`` (a line that
    only the lines above it take is allowed: its condition can hold)."""
    present = set(table.columns)
    for j, line in enumerate(bet.lines):
        if j in present:
            continue
        alone = Bet(bet.name, bet.title, (line,), reads=bet.reads)
        probe = _compile(tableau, bet.reads, first_four, True, alone.line_of, "probe", alone)
        if 0 not in probe.columns:
            raise impossible_line(bet, j, tableau)


def impossible_line(bet: Bet, line: int, tableau: Tableau) -> BetError:
    """The refusal of a file bet's pay line that no coup can meet under ``tableau``."""
    return BetError(
        f"bet {bet.name!r}: pay line {line + 1} ({bet.lines[line].event!r}) can never hold: no coup meets "
        f"its condition under the {tableau.name} tableau"
    )


def clear_memory() -> None:
    """Forget the tables compiled in this process (tests use it)."""
    with _LOCK:
        _MEMORY.clear()
        _BY_OBJECT.clear()
        _TWINS.clear()


__all__ = [
    "MAX_RECORDS",
    "MAX_RECORDS_ENV",
    "Table",
    "bet_key",
    "bet_table",
    "build_bet",
    "build_records",
    "clear_memory",
    "compile_table",
    "max_records",
    "records_key",
]
