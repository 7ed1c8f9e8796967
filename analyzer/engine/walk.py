"""The walk: the dealing tree under a tableau, its leaves grouped by what a bet can tell apart.

The outcome of a coup depends only on the point values dealt (docs/ARCHITECTURE.md, "The one
idea").  A leaf of the tree is the sequence of point values dealt, position by position.  For a
given :class:`~analyzer.core.reads.Reads`, two leaves are interchangeable when they agree on the
base fields read, on the multiset of values in each read block of positions, and on the multiset
of the other dealt values: the refinement of the read cards and the weight on any shoe depend on
nothing else.  :func:`walk` returns those groups with the number of leaves in each.

The walk is organised by prefix classes: the first four values decide the draws only through
the two-card totals, so prefixes are grouped first (by totals and what the reads keep of them)
and each class is continued once.  When nothing read depends on the third cards or the outcome
(:attr:`~analyzer.core.reads.Reads.first_four_only`), :func:`walk_first_four` skips the
continuations: for a shoe of at least 6 cards, the coups that start with given four cards fill
exactly the sequences that start with them (the padding to six cards), so the first four
suffice.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict

from analyzer.core.coup import UNKNOWN, Winner
from analyzer.core.reads import BASE_FIELDS, Reads
from analyzer.core.tableau import Tableau

#: A group of leaves: (base fields as read, per block the multiset of values dealt in it, the
#: multiset of values dealt outside every block, cards dealt).  Multisets are coded as
#: integers, sum of 8**value (see :func:`multiset`), so adding a card is one addition.
GroupKey = tuple[tuple[object, ...], tuple[int, ...], int, int]



def continuations(tableau: Tableau, p2: int, b2: int) -> list[tuple[int | None, int | None]]:
    """Every way a coup with two-card totals ``p2`` / ``b2`` goes on: (Player's third value or
    None, Banker's third value or None), in the order the tree is walked; the draws are the
    tableau's (:meth:`~analyzer.core.tableau.Tableau.player_draws_third`, then
    :meth:`~analyzer.core.tableau.Tableau.banker_draws_third`).  Called once per pair of
    two-card totals, so the walk's cost does not depend on it."""
    out: list[tuple[int | None, int | None]] = []
    for p3 in range(10) if tableau.player_draws_third(p2, b2) else (None,):
        if tableau.banker_draws_third(p2, b2, p3):
            out.extend((p3, b3) for b3 in range(10))
        else:
            out.append((p3, None))
    return out


def base_fields(tableau: Tableau, p2: int, b2: int, p3: int | None, b3: int | None) -> tuple[object, ...]:
    """The base fields of a leaf, in :data:`~analyzer.core.reads.BASE_FIELDS` order."""
    pt = (p2 + (p3 or 0)) % 10
    bt = (b2 + (b3 or 0)) % 10
    winner = Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE
    return (
        winner,
        pt,
        bt,
        2 + (p3 is not None),
        2 + (b3 is not None),
        p2 in tableau.naturals,
        b2 in tableau.naturals,
        p2,
        b2,
        p3,
        b3,
    )


def project_fields(fields: tuple[object, ...], reads: Reads) -> tuple[object, ...]:
    """``fields`` with the ones ``reads`` does not read replaced by ``UNKNOWN`` (the winner is
    kept when both totals are read)."""
    out = tuple(v if name in reads.fields else UNKNOWN for name, v in zip(BASE_FIELDS, fields, strict=True))
    if "player_total" in reads.fields and "banker_total" in reads.fields:
        out = (fields[0], *out[1:])
    return out


def code(values: tuple[int, ...] | list[int]) -> int:
    """The integer code of a multiset of point values (sum of 8**value)."""
    return sum(8**v for v in values)


@functools.cache
def multiset(coded: int) -> tuple[int, ...]:
    """The sorted values of a multiset code (the inverse of :func:`code`).

    >>> multiset(code([3, 0, 3]))
    (0, 3, 3)
    """
    out: list[int] = []
    for v in range(10):
        out.extend([v] * ((coded >> (3 * v)) & 7))
    return tuple(out)


def _prefix_part(
    prefix: tuple[int, ...], block_of: dict[int, int], blocks: int
) -> tuple[tuple[int, ...], int]:
    parts = [0] * blocks
    rest = 0
    for pos, value in enumerate(prefix):
        b = block_of.get(pos)
        if b is None:
            rest += 8**value
        else:
            parts[b] += 8**value
    return (tuple(parts), rest)


def walk(tableau: Tableau, reads: Reads) -> dict[GroupKey, int]:
    """The leaves of the dealing tree under ``tableau``, grouped as ``reads`` tells them apart
    (see the module docstring): group key -> number of leaves (ordered value sequences)."""
    block_list = reads.blocks
    block_of = {pos: b for b, members in enumerate(block_list) for pos in members}
    classes: dict[tuple[int, int, tuple[tuple[int, ...], int]], int] = defaultdict(int)
    for prefix in itertools.product(range(10), repeat=4):
        p2 = (prefix[0] + prefix[2]) % 10
        b2 = (prefix[1] + prefix[3]) % 10
        classes[(p2, b2, _prefix_part(prefix, block_of, len(block_list)))] += 1
    groups: dict[GroupKey, int] = defaultdict(int)
    p3_block, b3_block = block_of.get(4), block_of.get(5)
    ways: dict[tuple[int, int], list[tuple[int | None, int | None, tuple[object, ...], int]]] = {}
    for (p2, b2, (parts, rest)), n in classes.items():
        conts = ways.get((p2, b2))
        if conts is None:
            conts = ways[(p2, b2)] = [
                (
                    p3,
                    b3,
                    project_fields(base_fields(tableau, p2, b2, p3, b3), reads),
                    4 + (p3 is not None) + (b3 is not None),
                )
                for p3, b3 in continuations(tableau, p2, b2)
            ]
        for p3, b3, fields, cards in conts:
            blocks = parts
            others = rest
            if p3 is not None:
                if p3_block is None:
                    others += _POW[p3]
                else:
                    blocks = (*blocks[:p3_block], blocks[p3_block] + _POW[p3], *blocks[p3_block + 1 :])
            if b3 is not None:
                if b3_block is None:
                    others += _POW[b3]
                else:
                    blocks = (*blocks[:b3_block], blocks[b3_block] + _POW[b3], *blocks[b3_block + 1 :])
            groups[(fields, blocks, others, cards)] += n
    return dict(groups)


#: 8**v: a value's place in a multiset code (inlined in the walk's inner loop, its hot spot).
_POW = tuple(8**v for v in range(10))


def walk_first_four(reads: Reads) -> dict[GroupKey, int]:
    """The first four cards only, grouped as ``reads`` tells them apart; every group counts
    as 4 cards dealt (padded to six).  Exact for shoes of at least 6 cards and for bets with
    :attr:`~analyzer.core.reads.Reads.first_four_only` reads (see the module docstring)."""
    block_list = reads.blocks
    block_of = {pos: b for b, members in enumerate(block_list) for pos in members}
    fields = (UNKNOWN,) * len(BASE_FIELDS)
    groups: dict[GroupKey, int] = defaultdict(int)
    for prefix in itertools.product(range(10), repeat=4):
        parts, rest = _prefix_part(prefix, block_of, len(block_list))
        groups[(fields, parts, rest, 4)] += 1
    return dict(groups)


def leaf_count(tableau: Tableau) -> int:
    """Number of leaves of the value-level dealing tree (339,400 under the standard tableau):
    a structural check for compiled tables."""
    return sum(
        len(continuations(tableau, (a + c) % 10, (b + d) % 10))
        for a, b, c, d in itertools.product(range(10), repeat=4)
    )
