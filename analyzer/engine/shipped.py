"""The compiled tables that ship with the package, so that a first run after install is warm.

Under the standard tableau: the analysis table (every main bet and every catalogue bet on
values prices from it), and each catalogue bet that reads cards, symmetric (for full shoes) and,
when it names suits, exact (for depleted suited shoes); first-four tables where a bet reads no
more (shoes of 6 cards or more).  ``punto-banco tables --shipped analyzer/tables`` writes them;
a test holds them fresh.  They load through the disk cache's checks
(:mod:`analyzer.engine.cache`).
"""

from __future__ import annotations

import re

from analyzer.bets.catalogue import catalogue_bets
from analyzer.core.tableau import STANDARD
from analyzer.engine.cache import file_name
from analyzer.engine.lookup import table_file
from analyzer.engine.pricing import ANALYSIS_READS
from analyzer.engine.table import BetTable, build_bet, build_records, names_suits


def shipped_tables() -> list[BetTable]:
    """The tables the package ships, compiled afresh (no cache), in a fixed order."""

    out = [build_records(STANDARD, ANALYSIS_READS, False)]
    seen: set[str] = set()
    for bet in catalogue_bets():
        if not bet.reads.sets:
            continue
        first_four = bet.reads.first_four_only
        for symmetric in (True, False) if names_suits(bet.reads) else (False,):
            table = build_bet(STANDARD, bet, first_four, symmetric)
            if table.key not in seen:
                seen.add(table.key)
                out.append(table)
    return out


def is_table_file(name: str) -> bool:
    """True for the name of a compiled table file (``table-<32 hex digits>.pbt``)."""
    return re.fullmatch(r"table-[0-9a-f]{32}\.pbt", name) is not None


def shipped_files() -> dict[str, bytes]:
    """File name -> content of every shipped table (deterministic)."""
    return {file_name(t.key): table_file(t) for t in shipped_tables()}
