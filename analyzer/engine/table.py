"""Compiled tables: every count a bet (or a distribution) needs, as a polynomial in the shoe.

A :class:`BetTable` has *columns* -- the events of one bet (its pay lines, in order), or the coup
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
hundred leaves.  A table's file (:func:`encode`, :func:`decode`) is its arrays as int64, a
JSON header and the counts it gives on six decks; :mod:`analyzer.engine.lookup` finds a table in
memory, in the disk cache (:mod:`analyzer.engine.cache`, which stores the bytes) or compiles it
here (:func:`build_bet`, :func:`build_records`); the tables of the catalogue under the standard
tableau ship with the package, so a first run is a warm one.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import threading
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.bets.model import Bet
from analyzer.core.coup import Coup, build_record
from analyzer.core.coup_json import record_from_json, record_to_json
from analyzer.core.exact import MAX_NUMBER_CHARS, whole_number
from analyzer.core.reads import FIELD_INDEX, Reads, SuitDetail
from analyzer.core.shoe import MAX_CARDS
from analyzer.core.tableau import Tableau
from analyzer.engine.algebra import POOLS, Program, ProgramBuilder
from analyzer.engine.values import (
    COMPOSITIONS,
    composition_indices,
    counts_of,
    falling,
    falling_table,
    read_weight,
    weights,
)
from analyzer.errors import BetError

if TYPE_CHECKING:
    from analyzer.engine.explore import State

#: The most records one compile may settle (``PUNTO_BANCO_MAX_RECORDS`` sets it).
MAX_RECORDS = 500_000
MAX_RECORDS_ENV = "PUNTO_BANCO_MAX_RECORDS"


@dataclass(frozen=True)
class BetTable:
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



# -- compiling -------------------------------------------------------------------------------------

#: Guards the walks' rows kept for reuse (:func:`_rows`).
_LOCK = threading.RLock()


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


def build_records(
    tableau: Tableau, reads: Reads, first_four: bool = False, symmetric: bool = False
) -> BetTable:
    """Compile the distribution table of ``reads`` (no caching): every record a bet with
    ``reads`` can see, refined fully."""

    def identity(record: Coup) -> object:
        # rebuilding the record reads every label it holds: the search fixes them all
        cards = [(members, list(group)) for members, group, _ in record._blocks]
        flags = [flag for _, _, flag in record._blocks]
        return build_record(record._fields, cards, reads, flags if reads.suits.per_set else None)

    key = records_key(tableau, reads, first_four, symmetric)
    return _compile(tableau, reads, first_four, symmetric, identity, key, None)


def build_bet(tableau: Tableau, bet: Bet, first_four: bool = False, symmetric: bool = False) -> BetTable:
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
) -> BetTable:
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
    return BetTable(
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


def _check_lines(tableau: Tableau, bet: Bet, first_four: bool, table: BetTable) -> None:
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


def first_four_orderings(table: BetTable, rows: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """Per row of a first-four table (of ``rows``, when given): (n_R, r), the orderings of its r
    read values (the row's count on a reference shoe over D(R) x falling(N - r, 6 - r),
    exact).  A first-four row's S / D(R) on a shoe of N >= 6 cards is n_R x falling(N - r, 6 - r):
    every evaluation (one shoe, many shoes, the compiled kernel) takes n_R from here.

    Raises:
        ValueError: a row whose count is not such a multiple (not a first-four row).
    """
    shoe = [24 * 4] + [24] * 9  # six decks by value: 96 ten-valued cards, 24 of each other
    size = sum(shoe)
    w = _reference_weights()
    table_f = falling_table(shoe)
    out = []
    for r in range(len(table.row_read)) if rows is None else rows:
        coded = table.row_read[r]
        span = range(table.row_start[r], table.row_start[r + 1])
        s = sum(table.row_tally[j] * w[table.row_comp[j]] for j in span)
        read = sum(counts_of(coded))
        n, left = divmod(s, read_weight(coded, table_f) * falling(size - read, MAX_CARDS - read))
        if left:
            raise ValueError("internal: a first-four row whose unread cards are not free")
        out.append((n, read))
    return out


@functools.cache  # built whole and stored once
def _reference_weights() -> list[int]:
    return weights([24 * 4] + [24] * 9)


# -- the file format ------------------------------------------------------------------------------

#: The int64 arrays of a table's file, in the order they are written.
_ARRAYS = (
    "value_col",
    "value_comp",
    "value_tally",
    "row_read",
    "row_rest",
    "row_start",
    "row_comp",
    "row_tally",
    "leaf_row",
    "leaf_comp",
    "leaf_col",
    "leaf_mult",
    "falls",
    "sub_start",
    "sub_items",
    "fac_start",
    "fac_items",
    "fac_flags",
    "cards",
    "term_start",
    "term_factors",
    "factor_start",
    "term_mult",
    "term_orbit",
)



def encode(table: BetTable, six_decks: Sequence[int]) -> bytes:
    """The body of a table's file (before compression): an 8-byte little-endian length, a JSON
    header (key, flags, columns, ``six_decks``: the table's counts per column on a six-deck shoe,
    which a reader checks the table against, and the arrays' places), then the int64 arrays
    (little-endian, 8-byte aligned)."""
    program = table.program
    arrays: dict[str, list[int]] = {name: list(getattr(table, name)) for name in _ARRAYS[:12]}
    arrays["falls"] = [x for f in program.falls for x in f]
    arrays["sub_start"], arrays["sub_items"] = _csr(program.subterms)
    arrays["fac_start"], arrays["fac_items"] = _csr([s for s, _, _ in program.factors])
    arrays["fac_flags"] = [int(ten) | 2 * int(suit) for _, ten, suit in program.factors]
    for name in ("cards", "term_start", "term_factors", "factor_start", "term_mult", "term_orbit"):
        arrays[name] = list(getattr(program, name))
    places: dict[str, list[int]] = {}
    blobs: list[bytes] = []
    at = 0
    for name in _ARRAYS:
        raw = array("q", arrays[name])
        if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
            raw.byteswap()
        blob = raw.tobytes()
        places[name] = [at, len(raw)]
        blobs.append(blob)
        at += len(blob)
    head = {
        "key": table.key,
        "first_four": table.first_four,
        "distribution": table.distribution,
        "symmetric": table.symmetric,
        "columns": [_column_json(c, table.distribution) for c in table.columns],
        "six_decks": [str(c) for c in six_decks],
        "arrays": places,
    }
    text = json.dumps(head, separators=(",", ":")).encode()
    text += b" " * (-(len(text) + 8) % 8)
    return len(text).to_bytes(8, "little") + text + b"".join(blobs)


def _csr(rows: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    starts = [0]
    items: list[int] = []
    for row in rows:
        items.extend(row)
        starts.append(len(items))
    return starts, items


def _column_json(column: Any, records: bool) -> object:
    if records:
        return record_to_json(column)
    if isinstance(column, int):
        return column
    event, pays = column
    return [event, f"{pays.numerator}/{pays.denominator}"]


#: A pay as :func:`_column_json` writes it: ``numerator/denominator``, the digits bounded well
#: above any pay a user can give (amounts are at most MAX_NUMBER_CHARS characters).
_DIGITS = 8 * MAX_NUMBER_CHARS
_PAYS = re.compile(rf"-?[0-9]{{1,{_DIGITS}}}/[1-9][0-9]{{0,{_DIGITS}}}")


def _column_from_json(data: object, records: bool, tableau: Tableau) -> Any:
    if records:
        record = record_from_json(data)
        if not _coherent(record, tableau):
            raise ValueError("a record contradicts itself or the rules")
        return record
    if type(data) is int:
        if data < 0:
            raise ValueError("bad line")
        return data
    if not (
        isinstance(data, list) and len(data) == 2 and isinstance(data[0], str) and isinstance(data[1], str)
    ):
        raise ValueError("bad event")
    if not _PAYS.fullmatch(data[1]):  # as written: p/q in bounded digits (a long exponent would hang)
        raise ValueError("bad pays")
    return (data[0], Fraction(data[1]))


def decode(body: bytes, key: str, tableau: Tableau) -> tuple[BetTable, list[int]]:
    """The table of a body written by :func:`encode` for ``key``, its structure checked, and the
    six-deck counts it recorded (whether the table evaluates to them is the caller's check:
    :func:`analyzer.engine.evaluate.sound`).

    Raises:
        ValueError: (or a sibling: ``KeyError``, ``TypeError``, ``IndexError``...) a body that is
            not a sound table of ``key``; the caller treats any as a miss.
    """

    size = int.from_bytes(body[:8], "little")
    if not 0 < size <= len(body) - 8:
        raise ValueError("bad header size")
    head = json.loads(body[8 : 8 + size])
    if not isinstance(head, dict) or head.get("key") != key:
        raise ValueError("another table")
    records = head["distribution"]
    first_four = head["first_four"]
    symmetric = head["symmetric"]
    if type(records) is not bool or type(first_four) is not bool or type(symmetric) is not bool:
        raise ValueError("bad flags")
    # the key names the flags the table was compiled under (records_key / bet_key): a file
    # whose flags say otherwise holds another table (a symmetric one priced on suited shoes)
    if not key.endswith(f"|first_four={int(first_four)}|sym={int(symmetric)}") or records != key.startswith(
        "records|"
    ):
        raise ValueError("flags contradict the key")
    columns = tuple(_column_from_json(c, records, tableau) for c in head["columns"])
    data = memoryview(body)[8 + size :]
    places = head["arrays"]
    got: dict[str, array[int]] = {}
    for name in _ARRAYS:
        at, n = places[name]
        if type(at) is not int or type(n) is not int or at < 0 or n < 0 or at + 8 * n > len(data):
            raise ValueError("bad array place")
        raw = array("q")
        raw.frombytes(data[at : at + 8 * n])
        if sys.byteorder != "little":  # pragma: no cover
            raw.byteswap()
        got[name] = raw

    def ints(name: str, low: int, high: int | None) -> tuple[int, ...]:
        values = tuple(got[name])  # min and max of a tuple: no second boxing of each entry
        if values and (min(values) < low or (high is not None and max(values) >= high)):
            raise ValueError(f"bad {name}")
        return values

    def offsets(name: str, end: int, count: int) -> tuple[int, ...]:
        out = ints(name, 0, end + 1)
        if len(out) != count + 1 or out[0] != 0 or out[-1] != end or not _ordered(out):
            raise ValueError(f"bad {name}")
        return out

    ncols = len(columns)
    flat = ints("falls", 0, None)
    if len(flat) % 3:
        raise ValueError("bad falling factorials")
    falls = tuple(zip(flat[0::3], flat[1::3], flat[2::3], strict=True))
    if any(pool >= len(POOLS) or shift > 6 or not 0 <= m <= 6 for pool, shift, m in falls):
        raise ValueError("bad falling factorial")
    sub_items = ints("sub_items", 0, len(falls))
    n_sub = len(got["sub_start"]) - 1
    sub_start = offsets("sub_start", len(sub_items), n_sub)
    subterms = tuple(sub_items[sub_start[i] : sub_start[i + 1]] for i in range(n_sub))
    fac_items = ints("fac_items", 0, len(subterms))
    n_fac = len(got["fac_start"]) - 1
    fac_start = offsets("fac_start", len(fac_items), n_fac)
    fac_flags = ints("fac_flags", 0, 4)
    if len(fac_flags) != n_fac or any(fac_start[i] == fac_start[i + 1] for i in range(n_fac)):
        raise ValueError("bad factors")
    factors = tuple(
        (fac_items[fac_start[i] : fac_start[i + 1]], bool(fac_flags[i] & 1), bool(fac_flags[i] & 2))
        for i in range(n_fac)
    )
    cards = ints("cards", 0, 7)
    if any(c not in (0, 4, 5, 6) for c in cards):
        raise ValueError("bad cards")
    term_mult = ints("term_mult", -(2**62), 2**62)
    term_orbit = ints("term_orbit", 0, 1 << 20)
    if len(term_orbit) != len(term_mult) or 0 in term_mult:
        raise ValueError("bad terms")
    term_start = offsets("term_start", len(term_mult), len(cards))
    term_factors = ints("term_factors", 0, len(factors))
    factor_start = offsets("factor_start", len(term_factors), len(term_mult))
    if any(term_start[i] == term_start[i + 1] for i in range(len(cards))):
        raise ValueError("a composition without terms")
    program = Program(
        falls, subterms, factors, cards, term_start, term_factors, factor_start, term_mult, term_orbit
    )
    ncomp = len(COMPOSITIONS)
    value_col = ints("value_col", 0, ncols)
    value_comp = ints("value_comp", 0, ncomp)
    value_tally = ints("value_tally", 1, None)
    row_comp = ints("row_comp", 0, ncomp)
    row_tally = ints("row_tally", 1, None)
    row_read = ints("row_read", 1, 8**10)
    row_start = offsets("row_start", len(row_comp), len(row_read))
    leaf_row = ints("leaf_row", 0, len(row_read))
    leaf_comp = ints("leaf_comp", 0, len(cards))
    leaf_col = ints("leaf_col", 0, ncols)
    leaf_mult = ints("leaf_mult", 1, None)
    row_rest = ints("row_rest", 0, ncols)
    if len(row_rest) != len(row_read):
        raise ValueError("bad rows")
    if not (len(value_col) == len(value_comp) == len(value_tally)) or len(row_tally) != len(row_comp):
        raise ValueError("bad value part")
    if not (len(leaf_row) == len(leaf_comp) == len(leaf_col) == len(leaf_mult)):
        raise ValueError("bad leaves")
    if not _ordered(value_col) or not _ordered(leaf_col):
        raise ValueError("unsorted columns")
    if any(row_start[r] == row_start[r + 1] for r in range(len(row_read))):
        raise ValueError("a row without compositions")
    table = BetTable(
        key,
        columns,
        first_four,
        records,
        symmetric,
        value_col,
        value_comp,
        value_tally,
        row_read,
        row_rest,
        row_start,
        row_comp,
        row_tally,
        leaf_row,
        leaf_comp,
        leaf_col,
        leaf_mult,
        program,
    )
    expected = head["six_decks"]
    if not isinstance(expected, list) or len(expected) != ncols or not all(type(x) is str for x in expected):
        raise ValueError("bad recorded counts")
    return table, [int(x) for x in expected]


def _ordered(values: tuple[int, ...]) -> bool:
    """True when ``values`` never decrease (a sort of sorted input is one linear pass in C)."""
    return list(values) == sorted(values)


def _coherent(record: Any, tableau: Tableau) -> bool:
    """What a record carries agrees with itself and the rules: the winner with the final
    totals, a natural with the two-card total, and a natural's hand with two cards.  (A file
    forged by someone who may write the cache folder, and re-signed, can still pass: the
    folder is refused when other users may write it.)"""

    f = record._fields
    winner, pt, bt = f[FIELD_INDEX["winner"]], f[FIELD_INDEX["player_total"]], f[FIELD_INDEX["banker_total"]]
    told = isinstance(pt, int) and isinstance(bt, int) and isinstance(winner, str)
    if told and winner != ("player" if pt > bt else "banker" if bt > pt else "tie"):
        return False
    for side in ("player", "banker"):
        natural, two = f[FIELD_INDEX[f"{side}_natural"]], f[FIELD_INDEX[f"{side}_two_card_total"]]
        if isinstance(natural, bool) and isinstance(two, int) and natural != (two in tableau.naturals):
            return False
        cards = f[FIELD_INDEX[f"{side}_cards"]]
        if natural is True and isinstance(cards, int) and cards != 2:
            return False
    return True


__all__ = [
    "MAX_RECORDS",
    "MAX_RECORDS_ENV",
    "BetTable",
    "bet_key",
    "build_bet",
    "build_records",
    "decode",
    "encode",
    "first_four_orderings",
    "impossible_line",
    "max_records",
    "names_suits",
    "records_key",
]
