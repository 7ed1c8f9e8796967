"""Demands: which pools of the shoe the read cards of a leaf are drawn from.

A leaf of a row's exploration (:mod:`analyzer.engine.explore`) fixes, for each read card (a
*slot*), its point value and the labels the bet read: a named rank or a rank class, a named
suit or colour, a suit or colour class, a same-card suit.  Its *demand* counts the slots per
pool (value, rank part, suit part); :mod:`analyzer.engine.algebra` turns a demand into its
weight on any shoe, a sum of products of falling factorials of pool sizes.  A block of cards
"not all of one suit" is counted by inclusion and exclusion over its uniform cases
(:func:`inclusion_exclusion`), so a weight is a signed sum of demands.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

#: A slot's pool: (value, rank part, suit part).  Rank part: ``None`` (any rank of the value),
#: ``("n", rank index)``, ``("c", class)`` or ``("p", 0)`` (a picture: J, Q or K, of value 0).
#: Suit part: ``None``, ``("n", suit index)``,
#: ``("nc", colour index)``, ``("g", suit class)``, ``("gc", colour class)``, ``("l", class)``
#: (a same-card suit, a class among the cards of one rank).
Part = tuple[str, int] | None
Slot = tuple[int, Part, Part]
Demand = tuple[tuple[Slot, int], ...]
#: A weight as a signed sum of demands: ((sign, demand), ...).
SignedDemands = tuple[tuple[int, Demand], ...]


def part_key(part: Part) -> tuple[str, int]:
    """A sort key for a rank or suit part (``None`` first)."""
    return _NONE_FIRST if part is None else part


def demand_of(slots: list[tuple[int, int, Part, Part]]) -> Demand:
    """The demand of ``slots`` (block, value, rank part, suit part): slots per pool, sorted."""
    counts: dict[Slot, int] = {}
    for _, v, r, s in slots:
        key = (v, r, s)
        counts[key] = counts.get(key, 0) + 1
    return tuple(sorted(counts.items(), key=_pool_order))


def _pool_order(item: tuple[Slot, int]) -> tuple[int, tuple[str, int], tuple[str, int]]:
    """The order of a demand's pools: by value, then rank part and suit part (``None`` first;
    :func:`part_key` inlined, as every leaf's demand is sorted by it)."""
    (v, r, s), _ = item
    return (v, _NONE_FIRST if r is None else r, _NONE_FIRST if s is None else s)


_NONE_FIRST = ("", -1)


def inclusion_exclusion(
    slots: list[tuple[int, int, Part, Part]],
    given: dict[int, int],
    mixed: list[int],
    labels: int,
    colour: bool,
    named: bool,
) -> SignedDemands:
    """sum over subsets T of the mixed blocks of (-1)^|T| x the demand with the given blocks
    uniform as given and the blocks of T uniform in any suit (colour)."""
    tag = ("nc" if colour else "n") if named else ("gc" if colour else "g")
    out: list[tuple[int, Demand]] = []
    for size in range(len(mixed) + 1):
        for chosen in itertools.combinations(mixed, size):
            sign = -1 if size % 2 else 1
            if named:
                options: Iterator[tuple[int, ...]] = itertools.product(range(labels), repeat=size)
            else:  # join an existing class or open new ones (still at most `labels` classes)
                top = max(given.values(), default=-1)
                options = (
                    o
                    for o in itertools.product(range(top + 1 + size), repeat=size)
                    if _extends(o, top) and len(set(given.values()) | set(o)) <= labels
                )
            for extra in options:
                labelled = {**given, **dict(zip(chosen, extra, strict=True))}
                suited = [(b, v, r, (tag, labelled[b]) if b in labelled else None) for b, v, r, _ in slots]
                out.append((sign, demand_of(suited)))
    return tuple(out)


def _extends(labels: tuple[int, ...], top: int) -> bool:
    """True when ``labels`` opens new classes above ``top`` in order (a restricted growth
    continuation), so every set partition is listed once."""
    for x in labels:
        if x > top + 1:
            return False
        top = max(top, x)
    return True
