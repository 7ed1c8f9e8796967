"""The blocks of a bet record: each dealt card reduced to what the bet reads, its anonymous
classes renamed canonically.

Two coups that a bet cannot tell apart must give equal records (the engine groups by them,
caches settle by them): a rank, suit or colour read by equality is a class, and the classes of
a record are numbered as the smallest labelling under every renaming of them
(:func:`canonical_blocks`); a same-card suit, which only tells cards of one rank apart, is
numbered within its rank.  :func:`record_blocks` does both for :func:`analyzer.core.coup.build_record`;
:func:`make_dealt` turns a card's canonical code back into its card (the table cache's codec,
:mod:`analyzer.core.coup_json`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from analyzer.core.cards import SUITS, Colour, Suit
from analyzer.core.dealt import (
    COLOURS_BY_INDEX,
    PICTURE,
    RANKS_BY_INDEX,
    SUITS_BY_INDEX,
    ColourClass,
    ColourLabel,
    DealtCard,
    Flag,
    PictureRank,
    RankClass,
    RankLabel,
    SuitClass,
    SuitLabel,
    known_label,
)
from analyzer.core.reads import PositionSet, RankDetail, Reads, SuitDetail
from analyzer.errors import UndeclaredReadError

#: A record's blocks: per block of positions read, its cards and its one-suit flag.
Blocks = tuple[tuple[PositionSet, tuple[DealtCard, ...], Flag], ...]


def record_blocks(
    blocks: Sequence[tuple[PositionSet, Sequence[DealtCard]]],
    reads: Reads,
    flags: Sequence[Flag] | None = None,
) -> Blocks:
    """The blocks of the record a bet with ``reads`` sees (see
    :func:`analyzer.core.coup.build_record`): each card reduced to what ``reads`` tells apart,
    the classes numbered canonically, each block with its one-suit flag (from ``flags`` when
    the cards no longer show their suits, else from the cards).

    Raises:
        UndeclaredReadError: a card lacks the rank or suit ``reads`` needs.
    """
    given = list(flags) if flags is not None else [None] * len(blocks)
    raw = tuple(
        (members, tuple(_reduce(c, reads) for c in cards), _flag(cards, reads, given[i]))
        for i, (members, cards) in enumerate(blocks)
    )
    return canonical_blocks(raw)


def _flag(cards: Sequence[DealtCard], reads: Reads, given: Flag) -> Flag:
    """The one-suit flag of a block read at a "one suit / colour" detail."""
    detail = reads.suits
    if not detail.per_set or not cards:
        return None
    kind = "colour" if detail in (SuitDetail.ONE_COLOUR, SuitDetail.ONE_COLOUR_NAMED) else "suit"
    named = detail in (SuitDetail.ONE_SUIT_NAMED, SuitDetail.ONE_COLOUR_NAMED)
    if given is not None:  # narrowing a record that carries flags, not suits
        known_label(given)
        if given[0] == kind:
            return (kind, given[1], given[2] if named else -1)
        if given[1] == "mixed" and kind == "suit":  # mixed colours: mixed suits
            return ("suit", "mixed", -1)
        if given[1] == "one" and kind == "colour" and given[2] >= 0:
            return ("colour", "one", SUITS[given[2]].colour.index if named else -1)
        if given[1] == "one" and kind == "colour":
            return ("colour", "one", -1)
        raise UndeclaredReadError("a record that tells one colour cannot tell one suit")
    labels = [c.colour if kind == "colour" else c.suit for c in cards]
    if all(x == labels[0] for x in labels[1:]):
        first = labels[0]
        if named and not isinstance(first, Suit | Colour):
            raise UndeclaredReadError("internal: a named one-suit read from anonymous suits")
        return (kind, "one", first.index if named and isinstance(first, Suit | Colour) else -1)
    return (kind, "mixed", -1)


#: A card reduced to what a bet reads: (value, rank part, suit part, colour part), each part
#: ``(0, i)`` a named label, ``(1, i)`` a label to be renamed into a class, ``(2, i)`` a suit
#: that only tells cards of one rank apart (same-card), ``(3, 0)`` a picture (a rank read as
#: picture or ten: J, Q and K alike), or ``()`` when not read.
RawCard = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
RawBlocks = tuple[tuple[PositionSet, tuple[RawCard, ...], Flag], ...]
_NAMED, _CLASS, _LOCAL, _PICTURE = 0, 1, 2, 3
_TEN_INDEX = 9  # Rank.TEN.index


def _number(label: object) -> int:
    """A label's code: a named rank's, suit's or colour's index, a class's number."""
    if isinstance(label, RankClass | SuitClass | ColourClass):
        return label.number
    index = label.index  # type: ignore[attr-defined]
    assert isinstance(index, int)
    return index


def _reduce(card: DealtCard, reads: Reads) -> RawCard:
    """What ``reads`` keeps of a card: named labels stay named or become classes; classes and
    same-card suits stay what they are (a record is only ever reduced to coarser reads)."""
    rank: tuple[int, ...] = ()
    suit: tuple[int, ...] = ()
    colour: tuple[int, ...] = ()
    if reads.ranks is RankDetail.PICTURE:
        r = card.rank
        if card.value != 0:
            rank = (_NAMED, _number(r))
        elif isinstance(r, RankClass):
            raise UndeclaredReadError("internal: a rank class cannot tell a picture from a ten")
        elif isinstance(r, PictureRank) or r.index != _TEN_INDEX:  # a J, Q or K: a picture
            rank = (_PICTURE, 0)
        else:
            rank = (_NAMED, r.index)
    elif reads.ranks is not RankDetail.NONE:
        r = card.rank
        if isinstance(r, RankClass):
            rank = (_CLASS, r.number)
        elif isinstance(r, PictureRank):
            raise UndeclaredReadError("internal: a picture cannot be told from other pictures")
        else:
            hidden = reads.ranks is RankDetail.EQUALITY and card.value == 0
            rank = (_CLASS if hidden else _NAMED, _number(r))
    detail = reads.suits
    if detail.per_set or card.value not in reads.suit_values:
        detail = SuitDetail.NONE
    if detail is SuitDetail.SAME_CARD and card._card is not None:
        local = known_label(card._card)
        assert isinstance(local, tuple)
        suit = (_LOCAL, int(local[1]))
    elif detail in (SuitDetail.SUIT, SuitDetail.SUIT_EQUALITY, SuitDetail.SAME_CARD):
        s = card.suit
        kind = {SuitDetail.SUIT: _NAMED, SuitDetail.SUIT_EQUALITY: _CLASS}.get(detail, _LOCAL)
        if isinstance(s, SuitClass) and kind == _NAMED:
            raise UndeclaredReadError("internal: a suit class cannot be named")
        suit = (kind, _number(s))
    elif detail in (SuitDetail.COLOUR, SuitDetail.COLOUR_EQUALITY):
        c = card.colour
        kind = _NAMED if detail is SuitDetail.COLOUR else _CLASS
        if isinstance(c, ColourClass) and kind == _NAMED:
            raise UndeclaredReadError("internal: a colour class cannot be named")
        colour = (kind, _number(c))
    return (card.value, rank, suit, colour)


_CANONICAL: dict[RawBlocks, Blocks] = {}


def canonical_blocks(raw: RawBlocks) -> Blocks:
    """Rename the anonymous labels of ``raw`` canonically and build the cards (memoised).

    Rank and suit (colour) classes are renamed by trying every renaming and keeping the smallest
    record; same-card suits, which only tell cards of one rank apart, are renamed within each
    rank by where their cards lie (their count per block).
    """
    hit = _CANONICAL.get(raw)
    if hit is not None:
        return hit
    best: tuple[tuple[tuple[int, ...], ...], ...] | None = None
    if not any(x[:1] in ((_CLASS,), (_LOCAL,)) for _, cards, _ in raw for c in cards for x in c[1:]):
        none: dict[int, int] = {}  # nothing to rename: every label is named
        best = tuple(tuple(sorted(_rename(c, none, none, none) for c in cards)) for _, cards, _ in raw)
    for rmap, smap, cmap in _renamings(raw) if best is None else ():
        renamed = [[_rename(c, rmap, smap, cmap) for c in cards] for _, cards, _ in raw]
        _rename_local(renamed)
        key = tuple(tuple(sorted(cards)) for cards in renamed)
        if best is None or key < best:
            best = key
    assert best is not None
    out = tuple(
        (members, tuple(_dealt(c) for c in cards), flag)
        for (members, _, flag), cards in zip(raw, best, strict=True)
    )
    if len(_CANONICAL) > 200_000:
        _CANONICAL.clear()
    _CANONICAL[raw] = out
    return out


def _renamings(raw: RawBlocks) -> Iterator[tuple[dict[int, int], dict[int, int], dict[int, int]]]:
    """The candidate renamings of the classes: each kind of class (rank, suit, colour) sorted by
    a signature that renaming cannot change (where its cards lie, with the other kinds' classes
    masked); only classes with equal signatures are permuted among themselves.  The candidates
    are the same set for any two records that are renamings of each other, so the smallest
    renamed record is canonical."""
    per_kind: list[list[list[int]]] = []
    for part in range(3):
        signature: dict[int, list[tuple[int, int, tuple[tuple[int, ...], ...]]]] = {}
        for b, (_, cards, _) in enumerate(raw):
            for c in cards:
                labels = (c[1], c[2], c[3])
                label = labels[part]
                if label[:1] == (_CLASS,):
                    others = tuple(
                        x[:1] if x[:1] in ((_CLASS,), (_LOCAL,)) else x
                        for i, x in enumerate(labels)
                        if i != part
                    )
                    signature.setdefault(label[1], []).append((b, c[0], others))
        groups: dict[tuple[tuple[int, int, tuple[tuple[int, ...], ...]], ...], list[int]] = {}
        for cls, sig in signature.items():
            groups.setdefault(tuple(sorted(sig)), []).append(cls)
        per_kind.append([groups[k] for k in sorted(groups)])
    choices: list[list[list[int]]] = []
    for kind_groups in per_kind:
        options = [list(itertools.permutations(g)) for g in kind_groups]
        choices.append([[c for perm in combo for c in perm] for combo in itertools.product(*options)])
    for ranks, suits, colours in itertools.product(*choices):
        yield (
            {c: i for i, c in enumerate(ranks)},
            {c: i for i, c in enumerate(suits)},
            {c: i for i, c in enumerate(colours)},
        )


def _rename(
    card: RawCard, rmap: dict[int, int], smap: dict[int, int], cmap: dict[int, int]
) -> tuple[int, ...]:
    value, rank, suit, colour = card
    r = (_CLASS, rmap[rank[1]]) if rank[:1] == (_CLASS,) else rank
    s = (_CLASS, smap[suit[1]]) if suit[:1] == (_CLASS,) else suit
    c = (_CLASS, cmap[colour[1]]) if colour[:1] == (_CLASS,) else colour
    return (value, len(r), *r, len(s), *s, len(c), *c)


def _rename_local(blocks: list[list[tuple[int, ...]]]) -> None:
    """Renumber same-card suits within each rank by their count per block (in place)."""
    groups: dict[tuple[int, ...], dict[int, list[int]]] = {}
    for b, cards in enumerate(blocks):
        for card in cards:
            rank = card[: 2 + card[1]]
            at = 2 + card[1]
            if card[at] == 2 and card[at + 1] == _LOCAL:
                groups.setdefault(rank, {}).setdefault(card[at + 2], [0] * len(blocks))[b] += 1
    if not groups:
        return
    renames: dict[tuple[tuple[int, ...], int], int] = {}
    for rank, members in groups.items():
        order = sorted(members, key=lambda s: (tuple(-n for n in members[s]), s))
        for new, old in enumerate(order):
            renames[(rank, old)] = new
    for cards in blocks:
        for i, card in enumerate(cards):
            rank = card[: 2 + card[1]]
            at = 2 + card[1]
            if card[at] == 2 and card[at + 1] == _LOCAL:
                cards[i] = (*card[: at + 2], renames[(rank, card[at + 2])], *card[at + 3 :])


_DEALT: dict[tuple[int, ...], DealtCard] = {}


def _dealt(key: tuple[int, ...]) -> DealtCard:
    """The card of a canonical key (shared: cards of bet records are never changed)."""
    hit = _DEALT.get(key)
    if hit is None:
        hit = _DEALT[key] = make_dealt(key)
    return hit


def make_dealt(key: tuple[int, ...]) -> DealtCard:
    """The card of a canonical code (a bet record card's ``_code``), built anew."""
    value = key[0]
    at = 1
    parts: list[tuple[int, ...]] = []
    for _ in range(3):
        n = key[at]
        parts.append(key[at + 1 : at + 1 + n])
        at += 1 + n
    rank_p, suit_p, colour_p = parts
    rank: RankLabel | None = None
    if rank_p:
        if rank_p[0] == _PICTURE:
            rank = PICTURE
        else:
            rank = RANKS_BY_INDEX[rank_p[1]] if rank_p[0] == _NAMED else RankClass(rank_p[1])
    suit: SuitLabel | None = None
    local: object = None
    if suit_p:
        if suit_p[0] == _NAMED:
            suit = SUITS_BY_INDEX[suit_p[1]]
        elif suit_p[0] == _CLASS:
            suit = SuitClass(suit_p[1])
        else:
            local = (rank_p, suit_p[1])
    colour: ColourLabel | None = None
    if colour_p:
        colour = COLOURS_BY_INDEX[colour_p[1]] if colour_p[0] == _NAMED else ColourClass(colour_p[1])
    card = DealtCard(value, rank, suit, colour, card=local)
    card._code = key
    return card
