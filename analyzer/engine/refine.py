"""Refinement: the ways the read cards of a group of leaves can be told apart, as a bet reads them.

A walk group (:mod:`analyzer.engine.walk`) fixes, per read block of positions, the multiset of
point values dealt there.  :func:`patterns` lists every *pattern* of the cards in those slots at
the detail of the reads (docs/ARCHITECTURE.md, "Reads and refinement"):

* named labels (ranks of 10-valued cards, suits, colours when the bet names them) are
  enumerated as multisets per (block, value), each with its number of arrangements over the
  block's positions;
* labels read by equality (rank classes, suit or colour classes, same-card suits) are
  enumerated as set partitions of the slots (restricted growth strings), one arrangement each.

Each pattern carries representative cards (class i shown as the i-th label), from which
:func:`analyzer.core.coup.build_record` builds the record the bet settles, and its *demand*:
how many cards it takes from each pool (value, rank or class, suit or colour or class), from
which :mod:`analyzer.engine.algebra` builds its weight on any shoe.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from math import factorial, prod

from analyzer.core.cards import COLOURS, RANKS, RANKS_OF_POINT, SUITS, Card, Colour
from analyzer.core.reads import RankDetail, Reads, SuitDetail

#: A slot's pool: (value, rank part, suit part).  Rank part: ``None`` (any rank of the value),
#: ``("n", rank index)`` or ``("c", class)``.  Suit part: ``None``, ``("n", suit index)``,
#: ``("nc", colour index)``, ``("g", suit class)``, ``("gc", colour class)``, ``("l", class)``
#: (a same-card suit, a class among the cards of one rank).
Part = tuple[str, int] | None
Slot = tuple[int, Part, Part]
Demand = tuple[tuple[Slot, int], ...]
#: A weight as a signed sum of demands: ((sign, demand), ...).
SignedDemands = tuple[tuple[int, Demand], ...]
Pattern = tuple[int, tuple[tuple[Card, ...], ...], SignedDemands]

_TEN_RANKS = RANKS_OF_POINT[0]  # rank indices of 10, J, Q, K
_RED_SUIT = {Colour.RED: SUITS[1], Colour.BLACK: SUITS[0]}  # a colour's representative suit


def restricted_growth(n: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every set partition of ``n`` ordered items into at most ``most`` blocks, as restricted
    growth strings (item i gets a block at most one more than the largest before it).

    >>> list(restricted_growth(3, 2))
    [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    """
    if n == 0:
        yield ()
        return

    def grow(prefix: list[int], top: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == n:
            yield tuple(prefix)
            return
        for b in range(min(top + 2, most)):
            prefix.append(b)
            yield from grow(prefix, max(top, b))
            prefix.pop()

    yield from grow([0], 0)


def _multinomial(counts: Sequence[int]) -> int:
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


def _named_options(reads: Reads, value: int) -> list[tuple[Part, Part]]:
    ranks: list[Part] = [None]
    if reads.ranks is RankDetail.NAMED and value == 0:
        ranks = [("n", r) for r in _TEN_RANKS]
    elif reads.ranks is not RankDetail.NONE and value != 0:
        ranks = [("n", RANKS_OF_POINT[value][0])]
    suits: list[Part] = [None]
    if value in reads.suit_values:
        if reads.suits is SuitDetail.SUIT:
            suits = [("n", s) for s in range(4)]
        elif reads.suits is SuitDetail.COLOUR:
            suits = [("nc", c) for c in range(2)]
    return [(r, s) for r in ranks for s in suits]


@functools.lru_cache(maxsize=65536)
def patterns(reads: Reads, signature: tuple[tuple[int, ...], ...]) -> tuple[Pattern, ...]:
    """Every pattern of the read cards for a block signature (per block, its sorted values),
    as (number of arrangements, representative cards per block, its weight as a signed sum of
    demands)."""
    groups = [(b, v, n) for b, values in enumerate(signature) for v, n in sorted(Counter(values).items())]
    per_group: list[list[tuple[int, tuple[tuple[Part, Part], ...]]]] = []
    for _, v, n in groups:
        options = []
        for combo in itertools.combinations_with_replacement(_named_options(reads, v), n):
            options.append((_multinomial(list(Counter(combo).values())), combo))
        per_group.append(options)
    out: list[Pattern] = []
    for choice in itertools.product(*per_group):
        ways = prod(w for w, _ in choice)
        slots: list[tuple[int, int, Part, Part]] = [
            (b, v, r, s) for (b, v, _), (_, labels) in zip(groups, choice, strict=True) for r, s in labels
        ]
        for ranked in _rank_classes(reads, slots):
            if reads.suits.per_set:
                for suited, demands in _per_set(reads, signature, ranked):
                    out.append((ways, _representatives(signature, suited), demands))
                continue
            for suited in _suit_classes(reads, ranked):
                out.append((ways, _representatives(signature, suited), ((1, demand_of(suited)),)))
    return tuple(out)


def _per_set(
    reads: Reads, signature: tuple[tuple[int, ...], ...], slots: list[tuple[int, int, Part, Part]]
) -> Iterator[tuple[list[tuple[int, int, Part, Part]], SignedDemands]]:
    """Patterns that tell only whether each read set (block) is all of one suit (colour), and,
    when named, which: each block is *uniform* or *mixed*.  A mixed block's weight is the
    block's weight with no suit read minus its uniform weights, so a pattern weighs a signed
    sum over the mixed blocks' subsets (inclusion-exclusion) of uniform demands.  The
    representative cards of a mixed block have mixed suits and colours."""
    detail = reads.suits
    colour = detail in (SuitDetail.ONE_COLOUR, SuitDetail.ONE_COLOUR_NAMED)
    labels = 2 if colour else 4
    named = detail in (SuitDetail.ONE_SUIT_NAMED, SuitDetail.ONE_COLOUR_NAMED)
    blocks = [b for b, values in enumerate(signature) if values]
    # a single card is always of one suit: only blocks of two or more cards can be mixed
    for choice in itertools.product(*([True] if len(signature[b]) == 1 else [True, False] for b in blocks)):
        uniform = [b for b, u in zip(blocks, choice, strict=True) if u]
        mixed = [b for b, u in zip(blocks, choice, strict=True) if not u]
        if named:
            for picks in itertools.product(range(labels), repeat=len(uniform)):
                given = dict(zip(uniform, picks, strict=True))
                yield (
                    _label(slots, given, mixed, colour, named=True),
                    inclusion_exclusion(slots, given, mixed, labels, colour, named=True),
                )
        else:
            for rgs in restricted_growth(len(uniform), labels):
                given = dict(zip(uniform, rgs, strict=True))
                yield (
                    _label(slots, given, mixed, colour, named=False),
                    inclusion_exclusion(slots, given, mixed, labels, colour, named=False),
                )


def _label(
    slots: list[tuple[int, int, Part, Part]],
    given: dict[int, int],
    mixed: list[int],
    colour: bool,
    named: bool,
) -> list[tuple[int, int, Part, Part]]:
    """Slots with representative suits: a uniform block's label (or class) on all its cards, a
    mixed block alternating a black and a red suit."""
    tag = ("nc" if colour else "n") if named else ("gc" if colour else "g")
    out: list[tuple[int, int, Part, Part]] = []
    seen: dict[int, int] = {}
    for b, v, r, _ in slots:
        if b in given:
            out.append((b, v, r, (tag, given[b])))
        else:
            k = seen.get(b, 0)
            seen[b] = k + 1
            out.append((b, v, r, ("mixed", k % 2)))
    return out


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


def _rank_classes(
    reads: Reads, slots: list[tuple[int, int, Part, Part]]
) -> Iterator[list[tuple[int, int, Part, Part]]]:
    if reads.ranks is not RankDetail.EQUALITY:
        yield slots
        return
    zeros = [i for i, s in enumerate(slots) if s[1] == 0]
    for rgs in restricted_growth(len(zeros), 4):
        out = list(slots)
        for i, cls in zip(zeros, rgs, strict=True):
            b, v, _, s = out[i]
            out[i] = (b, v, ("c", cls), s)
        yield out


def _suit_classes(
    reads: Reads, slots: list[tuple[int, int, Part, Part]]
) -> Iterator[list[tuple[int, int, Part, Part]]]:
    detail = reads.suits
    read = [i for i, (_, v, _, _) in enumerate(slots) if v in reads.suit_values]
    if detail in (SuitDetail.SUIT_EQUALITY, SuitDetail.COLOUR_EQUALITY):
        tag, most = ("g", 4) if detail is SuitDetail.SUIT_EQUALITY else ("gc", 2)
        for rgs in restricted_growth(len(read), most):
            out = list(slots)
            for i, cls in zip(read, rgs, strict=True):
                b, v, r, _ = out[i]
                out[i] = (b, v, r, (tag, cls))
            yield out
        return
    if detail is not SuitDetail.SAME_CARD:
        yield slots
        return
    by_rank: dict[tuple[int, Part], list[int]] = {}
    for i in read:
        _, v, r, _ = slots[i]
        by_rank.setdefault((v, r), []).append(i)
    members = list(by_rank.values())
    for parts in itertools.product(*(restricted_growth(len(m), 4) for m in members)):
        out = list(slots)
        for idx, rgs in zip(members, parts, strict=True):
            for i, cls in zip(idx, rgs, strict=True):
                b, v, r, _ = out[i]
                out[i] = (b, v, r, ("l", cls))
        yield out


#: Every card, by (rank index, suit index): representatives are shared, not rebuilt.
_CARDS = {(r, s): Card(RANKS[r], SUITS[s]) for r in range(13) for s in range(4)}
_RED, _BLACK = SUITS.index(_RED_SUIT[COLOURS[0]]), SUITS.index(_RED_SUIT[COLOURS[1]])


def _representatives(
    signature: tuple[tuple[int, ...], ...], slots: list[tuple[int, int, Part, Part]]
) -> tuple[tuple[Card, ...], ...]:
    cards: list[list[Card]] = [[] for _ in signature]
    for b, v, r, s in slots:
        if r is None:
            rank = RANKS_OF_POINT[v][0]
        elif r[0] == "n":
            rank = r[1]
        else:
            rank = _TEN_RANKS[r[1]]
        if s is None:
            suit = 0
        elif s[0] in ("nc", "gc"):
            suit = _RED if s[1] == 0 else _BLACK
        else:  # a suit, a suit class, a same-card suit, or a mixed block's alternating suits
            suit = s[1]
        cards[b].append(_CARDS[(rank, suit)])
    return tuple(tuple(c) for c in cards)


def part_key(part: Part) -> tuple[str, int]:
    """A sort key for a rank or suit part (``None`` first)."""
    return ("", -1) if part is None else part


def demand_of(slots: list[tuple[int, int, Part, Part]]) -> Demand:
    counts: dict[Slot, int] = {}
    for _, v, r, s in slots:
        key = (v, r, s)
        counts[key] = counts.get(key, 0) + 1
    return tuple(sorted(counts.items(), key=lambda kv: (kv[0][0], part_key(kv[0][1]), part_key(kv[0][2]))))
