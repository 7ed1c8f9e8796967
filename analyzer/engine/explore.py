"""Exploration: refine a row of the dealing tree only as far as the bet reads it.

A *row* is a group of leaves of the dealing tree that a bet's reads cannot tell apart at the
level of point values: the base fields it reads and, per read block of positions, the multiset
of values dealt there (:func:`analyzer.engine.walk.walk`).  Within a row the bet may still tell
the read cards apart by rank, suit or colour.  Labelling every read card every way grows fast
(4**n suits for n cards), but a bet rarely looks at every label of every row: Lucky Win reads
the suits of a hand only when that hand wins with a total of 1, Royal 9 the suits of a hand only
when it holds a nine and a face card.  So a bet costs what its answer needs:

1. the row's record is built with every label it may read *pending*
   (:class:`~analyzer.core.dealt.PendingLabel`), and the bet settles it;
2. reading a pending label raises :class:`~analyzer.core.dealt.LabelNeeded`: the engine fixes
   that one label every way it can be -- a named rank, suit or colour; read by equality, the
   class of a card already fixed or a new class; a block's one-suit flag, uniform (in a named
   suit, or the suit of another uniform block, or a new one) or mixed -- and settles each child
   again;
3. a record that settles is a *leaf*: the labels fixed on its path, every other label any.

The leaves of a row partition its card sequences: every choice of step 2 splits the sequences
by a property of one card (or one block), into parts that are disjoint and cover them all.  A
leaf's weight is therefore a sum of products of falling factorials of pool sizes (its demand,
:mod:`analyzer.engine.algebra`), and a bet settles each leaf to one event, because it never read
the labels left pending (a bet is a function of what it reads).  The root itself often settles:
the row is then priced at the level of point values alone.

Slots are the read cards of the row, block by block in sorted value order; within a block,
the i-th card of a value is the i-th position holding it, so labelling slots (not multisets)
keeps the parts disjoint.  Two orders of the same labels give equal records (a block is a
multiset) and equal demands, which the callers merge.

For cards of value 0 whose ranks are read, a suit (colour, same-card identity) is fixed only
after the rank, so that the pools of a leaf are nested (card in rank in value), as the weight
algebra needs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from analyzer.core.cards import COLOURS, RANKS, RANKS_OF_POINT, SUITS, Rank, Suit
from analyzer.core.coup import Coup
from analyzer.core.dealt import (
    CARDS_PENDING,
    PICTURE,
    ColourClass,
    DealtCard,
    LabelNeeded,
    PendingCards,
    PendingLabel,
    RankClass,
    SuitClass,
    labels_needed,
)
from analyzer.core.hands import CardGroup
from analyzer.core.reads import PositionSet, RankDetail, Reads, SuitDetail
from analyzer.engine.demand import Demand, Part, SignedDemands, demand_of, inclusion_exclusion
from analyzer.engine.walk import project_fields
from analyzer.errors import BetError, CompileBudgetError

#: A row's labels: per slot its rank label and suit label, per block its one-suit flag
#: (``PENDING`` when not fixed; a named label's index or a class number; ``MIXED`` for a flag).
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
PENDING = -1
MIXED = -2
_TEN_RANKS = RANKS_OF_POINT[0]
#: A 10-valued slot's rank read as picture or ten (``ranks='picture'``): the ten's rank index,
#: or ``PICTURE_SLOT`` for a J, Q or K (13: no rank's index).
TEN_SLOT = _TEN_RANKS[0]
PICTURE_SLOT = 13
_CARD_DETAILS = (
    SuitDetail.SUIT,
    SuitDetail.SUIT_EQUALITY,
    SuitDetail.COLOUR,
    SuitDetail.COLOUR_EQUALITY,
    SuitDetail.SAME_CARD,
)
_RANK_CLASSES = tuple(RankClass(i) for i in range(4))
_SUIT_CLASSES = tuple(SuitClass(i) for i in range(4))
_COLOUR_CLASSES = tuple(ColourClass(i) for i in range(2))


@dataclass
class Budget:
    """How many records a compile may settle (each is a call of the bet's conditions) before
    it is refused: a bound on the time and memory one bet can take.

    ``what`` names the bet in the refusal."""

    limit: int
    what: str
    used: int = 0

    def tick(self) -> None:
        self.used += 1
        if self.used > self.limit:
            raise CompileBudgetError(
                f"{self.what}: its table needs more than {self.limit:,} settled records (the compile "
                "budget; raise it with PUNTO_BANCO_MAX_RECORDS, or read fewer card details)"
            )


@dataclass(frozen=True)
class Row:
    """One row: the read blocks' values (``signature``, sorted per block) and its slots as
    (block, value) pairs."""

    fields: tuple[object, ...]
    signature: tuple[tuple[int, ...], ...]
    slots: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, fields: tuple[object, ...], signature: tuple[tuple[int, ...], ...]) -> Row:
        return cls(fields, signature, _slots(signature))


@functools.lru_cache(maxsize=1 << 14)
def _slots(signature: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """A signature's slots (rows of one signature recur with other fields)."""
    return tuple((b, v) for b, values in enumerate(signature) for v in values)


class Explorer:
    """Explores rows for one bet (``settle`` maps a record to a hashable event)."""

    def __init__(self, reads: Reads, settle: Callable[[Coup], object], budget: Budget) -> None:
        self.reads = reads
        self.blocks: tuple[PositionSet, ...] = reads.blocks
        self.settle = settle
        self.budget = budget
        detail = reads.suits
        self.suit_detail = detail
        self.per_set = detail.per_set
        self.card_suits = detail in _CARD_DETAILS
        self.colour = detail in (
            SuitDetail.COLOUR,
            SuitDetail.COLOUR_EQUALITY,
            SuitDetail.ONE_COLOUR,
            SuitDetail.ONE_COLOUR_NAMED,
        )
        self.named_suits = detail in (
            SuitDetail.SUIT,
            SuitDetail.COLOUR,
            SuitDetail.ONE_SUIT_NAMED,
            SuitDetail.ONE_COLOUR_NAMED,
        )
        self.labels = 2 if self.colour else 4
        self.suit_values = reads.suit_values
        self.ranks = reads.ranks
        self._cards: dict[tuple[int, int, int, int], DealtCard] = {}
        self._blocks: dict[tuple[object, ...], tuple[tuple[object, ...], CardGroup]] = {}
        self._ordered: dict[tuple[object, ...], tuple[DealtCard, ...]] = {}
        self._pending: dict[tuple[int, str], PendingLabel] = {}

    # -- what a slot reads ----------------------------------------------------------------------

    def rank_read(self, value: int) -> bool:
        """True when the rank of a card of ``value`` is a label to fix (only 10, J, Q, K share
        a value)."""
        return value == 0 and self.ranks is not RankDetail.NONE

    def suit_read(self, value: int) -> bool:
        """True when the suit (colour, same-card identity) of a card of ``value`` is a label."""
        return self.card_suits and value in self.suit_values

    # -- the search -----------------------------------------------------------------------------

    def explore(self, row: Row) -> list[tuple[State, object]]:
        """The leaves of ``row``: (labels fixed, event), partitioning its card sequences.

        Raises:
            CompileBudgetError: more records than the budget allows; whatever the bet raises.
        """
        n = len(row.slots)
        root: State = ((PENDING,) * n, (PENDING,) * n, (PENDING,) * len(row.signature))
        stack = [root]
        memo: dict[Coup, object] = {}
        out: list[tuple[State, object]] = []
        while stack:
            state = stack.pop()
            record = self.record(row, state)
            if record in memo:
                out.append((state, memo[record]))
                continue
            self.budget.tick()
            before = labels_needed()
            try:
                event = self.settle(record)
            except LabelNeeded as need:
                stack.extend(self.children(row, state, need.pending))
                continue
            if labels_needed() != before:
                raise self._swallowed()
            memo[record] = event
            out.append((state, event))
        return out

    def explore_shape(
        self, fields: tuple[object, ...], sizes: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], object]] | None:
        """The leaves shared by every row with ``fields`` and ``sizes`` cards per block, when the
        bet settles them from the fields and the blocks' one-suit flags alone: (flags fixed,
        event), partitioning each such row's sequences as :meth:`explore` would; ``None`` when
        the bet looked at a card (each row is then explored by itself).  Many
        rows settle so with no row built: every row of a bet that pays on a few outcomes (a tie,
        a winning total), every row of a bet on the flags (all red, a suited hand).

        Raises:
            CompileBudgetError: more records than the budget allows; whatever the bet raises.
        """
        stack: list[tuple[int, ...]] = [(PENDING,) * len(sizes)]
        out: list[tuple[tuple[int, ...], object]] = []
        pending = PendingCards()  # one per shape: it tells whether the bet looked at a card
        while stack:
            flags = stack.pop()
            parts: list[Any] = []
            groups: list[CardGroup] = []
            for b, size in enumerate(sizes):
                cards: tuple[Any, ...] = pending if size else ()
                group = CardGroup.of_ordered(cards, self._flag(b, flags[b], size > 0))  # type: ignore[arg-type]
                parts.append((self.blocks[b], cards, group.flag))
                groups.append(group)
            record = _record(fields, parts, groups)
            self.budget.tick()
            before = labels_needed()
            try:
                event = self.settle(record)
            except LabelNeeded as need:
                if need.pending is CARDS_PENDING:
                    return None
                if need.pending.kind != "flag":
                    raise AssertionError(f"a record without cards raised {need.pending!r}") from None
                b = need.pending.slot
                stack.extend(_set(flags, b, o) for o in self._flag_options(flags, b, sizes[b]))
                continue
            if pending.looked:  # it looked, and swallowed the exception: rows one by one
                return None
            if labels_needed() != before:
                raise self._swallowed()
            out.append((flags, event))
        return out

    def _swallowed(self) -> BetError:
        return BetError(
            f"{self.budget.what}: it caught the engine's own exception while reading a card label "
            "(a bare 'except:' or 'except BaseException'), so it cannot be priced exactly; catch "
            "Exception instead"
        )

    def _flag_options(self, flags: tuple[int, ...], b: int, size: int) -> list[int]:
        """The ways block ``b``'s one-suit flag can be fixed: uniform in a named suit (colour),
        or in the class of another uniform block or a new one; mixed when it holds 2+ cards."""
        uniform = sorted({f for f in flags if f >= 0})
        options = list(range(self.labels)) if self.named_suits else _new_class(uniform, self.labels)
        if size >= 2:  # one card is always of one suit
            options.append(MIXED)
        return options

    def children(self, row: Row, state: State, pending: PendingLabel) -> list[State]:
        """The states that fix ``pending`` every way it can be (see the module docstring)."""
        ranks, suits, flags = state
        if pending.kind == "flag":
            b = pending.slot
            options = self._flag_options(flags, b, len(row.signature[b]))
            return [(ranks, suits, _set(flags, b, o)) for o in options]
        i = pending.slot
        b, v = row.slots[i]
        if self.rank_read(v) and ranks[i] == PENDING:  # the rank first: pools stay nested
            if self.ranks is RankDetail.NAMED:
                options = list(_TEN_RANKS)
            elif self.ranks is RankDetail.PICTURE:
                options = [TEN_SLOT, PICTURE_SLOT]
            else:
                used = sorted({r for j, r in enumerate(ranks) if r >= 0 and row.slots[j][1] == 0})
                options = _new_class(used, 4)
            return [(_set(ranks, i, o), suits, flags) for o in options]
        detail = self.suit_detail
        if self.named_suits:
            options = list(range(self.labels))
        elif detail is SuitDetail.SAME_CARD:
            mine = self._rank_key(v, ranks[i])
            used = sorted(
                {
                    s
                    for j, s in enumerate(suits)
                    if s >= 0 and row.slots[j][1] == v and self._rank_key(v, ranks[j]) == mine
                }
            )
            options = _new_class(used, 4)
        else:
            used = sorted({s for s in suits if s >= 0})
            options = _new_class(used, self.labels)
        return [(ranks, _set(suits, i, o), flags) for o in options]

    # -- records ---------------------------------------------------------------------------------

    def record(self, row: Row, state: State) -> Coup:
        """The record of ``row`` with the labels of ``state`` (pending ones raise when read)."""
        ranks, suits, flags = state
        parts: list[Any] = []
        groups: list[CardGroup] = []
        start = 0
        for b, values in enumerate(row.signature):
            stop = start + len(values)
            key = (b, start, values, ranks[start:stop], suits[start:stop], flags[b])
            hit = self._blocks.get(key)
            if hit is None:
                cards_key = key[1:5]  # the block's cards whatever its flag (a flag's children share them)
                ordered = self._ordered.get(cards_key)
                if ordered is None:
                    card = self._card
                    ordered = CardGroup(
                        card(i, values[i - start], ranks[i], suits[i]) for i in range(start, stop)
                    )._cards
                    self._ordered[cards_key] = ordered
                group = CardGroup.of_ordered(ordered, self._flag(b, flags[b], stop > start))  # type: ignore[arg-type]
                if len(self._blocks) > 200_000:
                    self._blocks.clear()
                    self._ordered.clear()
                hit = self._blocks[key] = ((self.blocks[b], group._cards, group.flag), group)
            parts.append(hit[0])
            groups.append(hit[1])
            start = stop
        return _record(row.fields, parts, groups)

    def _pending_label(self, slot: int, kind: str) -> PendingLabel:
        hit = self._pending.get((slot, kind))
        if hit is None:
            hit = self._pending[(slot, kind)] = PendingLabel(slot, kind)
        return hit

    def _rank_key(self, value: int, rank: int) -> tuple[int, int]:
        if value != 0:
            return (0, RANKS_OF_POINT[value][0])
        return (0, rank) if self.ranks is RankDetail.NAMED else (1, rank)

    def _card(self, slot: int, value: int, rank: int, suit: int) -> DealtCard:
        key = (slot, value, rank, suit)
        hit = self._cards.get(key)
        if hit is not None:
            return hit
        rank_label: object = None
        if self.ranks is not RankDetail.NONE:
            if value != 0:
                rank_label = RANKS[RANKS_OF_POINT[value][0]]
            elif rank == PENDING:
                rank_label = self._pending_label(slot, "rank")
            elif self.ranks is RankDetail.NAMED:
                rank_label = RANKS[rank]
            elif self.ranks is RankDetail.PICTURE:
                rank_label = PICTURE if rank == PICTURE_SLOT else RANKS[rank]
            else:
                rank_label = _RANK_CLASSES[rank]
        suit_label: object = None
        colour_label: object = None
        identity: object = None
        if self.suit_read(value):
            detail = self.suit_detail
            if suit == PENDING:
                kind = "card" if detail is SuitDetail.SAME_CARD else "colour" if self.colour else "suit"
                pending = self._pending_label(slot, kind)
                if detail is SuitDetail.SAME_CARD:
                    identity = pending
                elif self.colour:
                    colour_label = pending
                else:
                    suit_label = pending
                    if detail is SuitDetail.SUIT:  # a named suit tells its colour
                        colour_label = pending
            elif detail is SuitDetail.SUIT:
                suit_label = SUITS[suit]
            elif detail is SuitDetail.SUIT_EQUALITY:
                suit_label = _SUIT_CLASSES[suit]
            elif detail is SuitDetail.COLOUR:
                colour_label = COLOURS[suit]
            elif detail is SuitDetail.COLOUR_EQUALITY:
                colour_label = _COLOUR_CLASSES[suit]
            else:  # same card: an identity among the cards of one rank
                identity = (self._rank_key(value, rank), suit)
        card = DealtCard(value, rank_label, suit_label, colour_label, card=identity)  # type: ignore[arg-type]
        self._cards[key] = card
        return card

    def _flag(self, block: int, flag: int, dealt: bool) -> object:
        if not self.per_set or not dealt:
            return None
        if flag == PENDING:
            return self._pending_label(block, "flag")
        kind = "colour" if self.colour else "suit"
        if flag == MIXED:
            return (kind, "mixed", -1)
        return (kind, "one", flag if self.named_suits else -1)

    def record_of(self, coup: Coup) -> Coup:
        """The record this explorer builds for the dealt coup ``coup`` (a full record from
        :func:`~analyzer.core.coup.resolve`) with every label fixed as its cards have them: a
        bet must settle it as it settles ``coup`` (the settlement guard checks it)."""

        fields = project_fields(tuple(coup._fields), self.reads)
        groups = [sorted((c for c in coup.cards(members)), key=_dealt_order) for members in self.blocks]
        row = Row.of(fields, tuple(tuple(c.value for c in g) for g in groups))
        cards = [c for g in groups for c in g]
        ranks = [PENDING] * len(cards)
        suits = [PENDING] * len(cards)
        rank_classes: dict[int, int] = {}
        suit_classes: dict[Any, int] = {}
        for i, card in enumerate(cards):
            v = card.value
            if self.rank_read(v):
                rank = card.rank.index
                if self.ranks is RankDetail.NAMED:
                    ranks[i] = rank
                elif self.ranks is RankDetail.PICTURE:
                    ranks[i] = TEN_SLOT if rank == TEN_SLOT else PICTURE_SLOT
                else:
                    ranks[i] = rank_classes.setdefault(rank, len(rank_classes))
            if self.suit_read(v):
                detail = self.suit_detail
                if detail is SuitDetail.SAME_CARD:
                    same = (v, card.rank)
                    suits[i] = suit_classes.setdefault(
                        (same, card.suit), sum(1 for key in suit_classes if key[0] == same)
                    )
                elif self.colour:
                    colour = card.suit.colour.index
                    suits[i] = (
                        colour if self.named_suits else suit_classes.setdefault(colour, len(suit_classes))
                    )
                else:
                    suit = card.suit.index
                    suits[i] = suit if self.named_suits else suit_classes.setdefault(suit, len(suit_classes))
        flags = [PENDING] * len(groups)
        uniform: dict[int, int] = {}
        for b, group in enumerate(groups):
            if not self.per_set or not group:
                continue
            labels = {c.suit.colour.index if self.colour else c.suit.index for c in group}
            if len(labels) > 1:
                flags[b] = MIXED
            else:
                label = labels.pop()
                flags[b] = label if self.named_suits else uniform.setdefault(label, len(uniform))
        return self.record(row, (tuple(ranks), tuple(suits), tuple(flags)))

    # -- weights ---------------------------------------------------------------------------------

    def canonical(self, state: State) -> State:
        """``state`` with its named suits (colours) renamed in order of first appearance
        (flags block by block, then the slots): the one labelling of its class under renaming
        the suits.  On a shoe whose suits are alike every labelling of the class weighs the
        same, so the symmetric table weighs one of them.  Labels read by equality are classes
        already."""
        if not self.named_suits:
            return state
        ranks, suits, flags = state
        names: dict[int, int] = {}
        for x in (*flags, *suits):
            if x >= 0 and x not in names:
                names[x] = len(names)
        if all(k == v for k, v in names.items()):
            return state
        return (
            ranks,
            tuple(names.get(x, x) for x in suits),
            tuple(names.get(x, x) for x in flags),
        )

    def demands(self, row: Row, state: State) -> SignedDemands:
        """The weight of a leaf's labels as a signed sum of demands over the read cards (labels
        left pending draw from the whole value, or rank, pool)."""
        ranks, suits, flags = state
        tag = self._suit_tag()
        parts: list[tuple[int, int, Part, Part]] = []
        for i, (b, v) in enumerate(row.slots):
            r: Part = None
            if self.rank_read(v) and ranks[i] >= 0:
                if self.ranks is RankDetail.PICTURE:  # a ten's rank pool, or the pictures' pool
                    r = ("p", 0) if ranks[i] == PICTURE_SLOT else ("n", ranks[i])
                else:
                    r = ("n", ranks[i]) if self.ranks is RankDetail.NAMED else ("c", ranks[i])
            s: Part = None
            if self.suit_read(v) and suits[i] >= 0:
                s = (tag, suits[i])
            parts.append((b, v, r, s))
        if not self.per_set:
            return ((1, demand_of(parts)),)
        uniform = {b: f for b, f in enumerate(flags) if f >= 0}
        mixed = [b for b, f in enumerate(flags) if f == MIXED]
        return inclusion_exclusion(parts, uniform, mixed, self.labels, self.colour, self.named_suits)

    def _suit_tag(self) -> str:
        detail = self.suit_detail
        if detail is SuitDetail.SAME_CARD:
            return "l"
        if self.named_suits:
            return "nc" if self.colour else "n"
        return "gc" if self.colour else "g"


def _record(fields: tuple[object, ...], parts: list[Any], groups: list[CardGroup]) -> Coup:
    """A record of ``fields`` and blocks ``parts``, its groups the ones given (what
    ``cards(block)`` would build, shared between the records of one exploration)."""
    record = Coup(fields, None, parts)
    for (members, _, _), group in zip(parts, groups, strict=True):
        record._groups[members] = group
    return record


def _new_class(used: Sequence[int], most: int) -> list[int]:
    """Join one of the classes ``used`` (0..k-1) or open class k, if fewer than ``most``."""
    top = max(used, default=-1)
    return list(range(top + 1)) + ([top + 1] if top + 1 < most else [])


def _set(values: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    return (*values[:i], x, *values[i + 1 :])


def _dealt_order(card: DealtCard) -> tuple[int, int, int]:
    """Cards of a dealt coup by value, then rank and suit: the order of a row's slots."""
    rank, suit = card.rank, card._suit
    assert isinstance(rank, Rank)  # a dealt coup's cards are named
    return (card.value, rank.index, suit.index if isinstance(suit, Suit) else -1)


__all__ = ["MIXED", "PENDING", "Budget", "CompileBudgetError", "Demand", "Explorer", "Row", "State"]
