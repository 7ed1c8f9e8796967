"""Compiled tables: the walk, refined to a bet's reads, as records x compositions x tallies.

``compile_table(tableau, reads)`` walks the dealing tree once under ``tableau``
(:mod:`analyzer.engine.walk`), refines every group of leaves to the patterns ``reads`` tells
apart (:mod:`analyzer.engine.refine`), builds each pattern's bet record
(:func:`analyzer.core.coup.build_record`) and weight (:mod:`analyzer.engine.algebra`), and
tallies: ``entries`` hold (composition, record, tally), the number of (leaf, card pattern)
pairs that draw that composition and end in that record.  On a shoe, the count of ordered
K-card sequences (K = min(N, 6)) ending in a record is the sum of tally x composition weight.

Tables are shoe-independent, so they are compiled once per (tableau fingerprint, reads) and
kept in memory and in the verified disk cache (:mod:`analyzer.engine.cache`).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass

from analyzer.core.coup import Coup, build_record, card_of
from analyzer.core.reads import Reads
from analyzer.core.tableau import Tableau
from analyzer.engine.algebra import Program, ProgramBuilder
from analyzer.engine.refine import patterns
from analyzer.engine.walk import multiset, walk, walk_first_four


@dataclass(frozen=True)
class CompiledTable:
    """Shoe-independent tallies of the dealing tree, refined to ``reads``.

    ``first_four``: compiled from the first four cards only (exact for shoes of 6 cards or
    more; see :func:`analyzer.engine.walk.walk_first_four`).  Entry i says that ``tally[i]``
    (leaf, card pattern) pairs draw composition ``entry_comp[i]`` and end in record
    ``entry_record[i]``; entries are sorted by record.
    """

    fingerprint: str
    reads: Reads
    first_four: bool
    program: Program
    records: tuple[Coup, ...]
    entry_comp: tuple[int, ...]
    entry_record: tuple[int, ...]
    tally: tuple[int, ...]

    @property
    def key(self) -> str:
        """What the table depends on, as text (the cache key)."""
        return f"rules={self.fingerprint}|{self.reads.key}|first_four={int(self.first_four)}"


_MEMORY: dict[str, CompiledTable] = {}
_LOCK = threading.Lock()


def table_key(tableau: Tableau, reads: Reads, first_four: bool) -> str:
    """The cache key of a table (see :attr:`CompiledTable.key`)."""
    return f"rules={tableau.fingerprint}|{reads.key}|first_four={int(first_four)}"


def compile_table(tableau: Tableau, reads: Reads, first_four: bool = False) -> CompiledTable:
    """The compiled table of ``reads`` under ``tableau`` (from memory, the disk cache, or a
    fresh walk; a fresh table is stored in both).

    ``first_four`` asks for the first-four-card table, valid only for reads that are
    :attr:`~analyzer.core.reads.Reads.first_four_only` and shoes of at least 6 cards.
    """
    if first_four and not reads.first_four_only:
        raise ValueError("internal: a first-four table for reads that look past the first four cards")
    key = table_key(tableau, reads, first_four)
    hit = _MEMORY.get(key)
    if hit is not None:
        return hit
    with _LOCK:
        hit = _MEMORY.get(key)
        if hit is not None:
            return hit
        from analyzer.engine import cache

        table: CompiledTable | None = cache.load(key, tableau, reads, first_four)
        if table is None:
            table = build_table(tableau, reads, first_four)
            cache.store(table)
        _MEMORY[key] = table
        return table


def build_table(tableau: Tableau, reads: Reads, first_four: bool = False) -> CompiledTable:
    """The walk and refinement themselves (no caching)."""
    groups = walk_first_four(reads) if first_four else walk(tableau, reads)
    builder = ProgramBuilder()
    blocks = reads.blocks
    records: dict[Coup, int] = {}
    tallies: dict[tuple[int, int], int] = defaultdict(int)
    made: dict[tuple[object, ...], Coup] = {}
    for (fields, coded_blocks, coded_unread, cards), n in groups.items():
        signature = tuple(multiset(b) for b in coded_blocks)
        unread = multiset(coded_unread)
        for ways, reps, demand in patterns(reads, signature):
            memo = (fields, reps)
            record = made.get(memo)
            if record is None:
                record = made[memo] = build_record(
                    fields,
                    [(b, [card_of(c) for c in rep]) for b, rep in zip(blocks, reps, strict=True)],
                    reads,
                )
            comp = builder.composition(demand, unread, cards)
            if comp is not None:
                tallies[(comp, records.setdefault(record, len(records)))] += n * ways
    entries = sorted(((c, r, t) for (c, r), t in tallies.items()), key=lambda e: (e[1], e[0]))
    return CompiledTable(
        tableau.fingerprint,
        reads,
        first_four,
        builder.build(),
        tuple(records),
        tuple(e[0] for e in entries),
        tuple(e[1] for e in entries),
        tuple(e[2] for e in entries),
    )
