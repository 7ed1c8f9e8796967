"""Where a compiled table comes from: memory, then a verified file, then a compile.

:func:`bet_table` (a bet's table) and :func:`compile_table` (the distribution of some reads)
give the engine its tables. A table is looked up in this process's memory (bounded:
:data:`MEMORY_TABLES`), then in the disk cache (:mod:`analyzer.engine.cache`, which stores
bytes: the table's file format is :func:`analyzer.engine.table.encode` and
:func:`~analyzer.engine.table.decode`, and a file's table is trusted only when
:func:`analyzer.engine.evaluate.sound` holds, its counts on six decks as the file recorded them),
then compiled (:func:`analyzer.engine.table.build_bet`,
:func:`~analyzer.engine.table.build_records`) and written to the cache. This module imports the
three it joins (the cache, the table, its evaluation); none of them imports it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from analyzer.bets.model import Bet
from analyzer.core.reads import Reads
from analyzer.core.tableau import Tableau
from analyzer.engine import cache
from analyzer.engine.evaluate import six_deck_counts, sound
from analyzer.engine.table import (
    BetTable,
    bet_key,
    build_bet,
    build_records,
    decode,
    encode,
    names_suits,
    records_key,
)

#: Compiled tables kept in memory per process.
MEMORY_TABLES = 256


def file_body(table: BetTable) -> bytes:
    """The body of ``table``'s file (:func:`~analyzer.engine.table.encode`, with its counts on
    six decks recorded for the reader's check)."""
    return encode(table, six_deck_counts(table))


def table_file(table: BetTable) -> bytes:
    """The whole file of ``table``, as the cache writes it (the shipped tables are these)."""
    return cache.sealed(table.key, file_body(table))


def load_table(key: str, tableau: Tableau) -> BetTable | None:
    """The verified table of the file of ``key`` (shipped, then the cache folder), else ``None``."""
    return cache.load(key, _verified(key, tableau))


def _verified(key: str, tableau: Tableau) -> cache.Check[BetTable]:
    """The check of a table file of ``key`` (see :data:`analyzer.engine.cache.Check`): its
    structure (:func:`~analyzer.engine.table.decode`), then, unless it shipped with the package,
    its counts on six decks (:func:`~analyzer.engine.evaluate.sound`)."""

    def check(body: bytes, evaluate: bool) -> BetTable | None:
        table, expected = decode(body, key, tableau)
        return table if not evaluate or sound(table, expected) else None

    return check


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


_MEMORY: OrderedDict[Hashable, BetTable] = OrderedDict()
_LOCK = threading.RLock()


def _remember(
    key: Hashable,
    build: Callable[[], BetTable],
    disk_key: str | None,
    tableau: Tableau,
    twin: Hashable | None = None,
    fits: Callable[[BetTable], bool] | None = None,
) -> BetTable:
    """The table of ``key``: in memory, else on disk (``disk_key``; a file whose table does not
    ``fits`` is a miss), else the table of a twin in memory (a bet with the same conditions:
    ``twin``, see :func:`_conditions`), else built."""
    with _LOCK:
        hit = _MEMORY.get(key)
        if hit is not None:
            _MEMORY.move_to_end(key)
            return hit

        table = load_table(disk_key, tableau) if disk_key is not None else None
        if table is not None and fits is not None and not fits(table):
            table = None  # a file whose columns are not this bet's settle keys: compiled again
        if table is None:
            same = _TWINS.get(twin) if twin is not None else None
            if same is not None:  # the same columns: a variant of a bet that pays otherwise
                table = dataclasses.replace(same, key=disk_key if disk_key is not None else same.key)
            else:
                table = build()
            if disk_key is not None:
                cache.store(table.key, file_body(table))
            if twin is not None:  # only tables compiled here: a file's table is known by its key alone
                _TWINS[twin] = table
                if len(_TWINS) > MEMORY_TABLES:
                    _TWINS.popitem(last=False)
        _MEMORY[key] = table
        if len(_MEMORY) > MEMORY_TABLES:
            _MEMORY.popitem(last=False)
        return table


#: Bet tables by the structure of their bets' conditions (:func:`_conditions`).
_TWINS: OrderedDict[Hashable, BetTable] = OrderedDict()


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


def compile_table(
    tableau: Tableau, reads: Reads, first_four: bool = False, symmetric: bool = False
) -> BetTable:
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


def bet_table(tableau: Tableau, bet: Bet, first_four: bool = False, symmetric: bool = False) -> BetTable:
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

    def build() -> BetTable:
        return build_bet(tableau, bet, first_four, symmetric)

    table = _remember(key, build, disk, tableau, twin, lambda t: _fits(t, bet))
    _by_object(fast, bet, tableau, key, table)
    return table


def _fits(table: BetTable, bet: Bet) -> bool:
    """Whether a bet table read from disk has this bet's settle keys as columns: pay-line
    indices up to ``len(lines)`` (``otherwise``), or (event, pays) of a payout function."""
    if table.distribution:
        return False
    if bet.payout_function is None:
        return all(type(c) is int and 0 <= c <= len(bet.lines) for c in table.columns)
    return all(isinstance(c, tuple) for c in table.columns)


#: The table each bet (by fingerprint, or by identity) or reads object was last given, valid
#: while the table is in memory.
_BY_OBJECT: dict[tuple[object, int, bool, bool], tuple[object, Tableau, Hashable, BetTable]] = {}


def _by_object(
    fast: tuple[object, int, bool, bool], owner: object, tableau: Tableau, key: Hashable, table: BetTable
) -> None:
    if len(_BY_OBJECT) > 4096:
        _BY_OBJECT.clear()
    _BY_OBJECT[fast] = (owner, tableau, key, table)  # the owner held: its id is not reused meanwhile


def clear_memory() -> None:
    """Forget the tables compiled in this process (tests use it)."""
    with _LOCK:
        _MEMORY.clear()
        _BY_OBJECT.clear()
        _TWINS.clear()


__all__ = [
    "MEMORY_TABLES",
    "bet_table",
    "clear_memory",
    "compile_table",
    "file_body",
    "load_table",
    "table_file",
]
