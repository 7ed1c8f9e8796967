"""What a bet reads of a coup: the view the engine refines to, and no finer.

A :class:`Reads` names the coup fields a bet looks at (winner, totals, naturals, third-card
values, ...), the sets of card positions whose cards it looks at (read as a *multiset*: which
cards, not in which order within the set), and how finely it tells those cards apart:

* ranks: ``NONE`` (point values only: 10, J, Q, K are alike), ``EQUALITY`` (which cards share a
  rank, without naming ten-valued ranks), ``PICTURE`` (whether each 10-valued card is a ten or a
  picture, J, Q or K, without telling the pictures apart), ``NAMED`` (every rank by name);
  ``EQUALITY`` and ``PICTURE`` do not cover each other: their join is ``NAMED``;
* suits: ``NONE``; ``SAME_CARD`` (which cards are the same card, rank and suit: pairs such as
  Perfect Pair); ``ONE_SUIT`` / ``ONE_COLOUR`` (whether each read set is all of one suit /
  colour), ``ONE_SUIT_NAMED`` / ``ONE_COLOUR_NAMED`` (and which); ``COLOUR_EQUALITY`` /
  ``COLOUR`` (which cards share a colour / each card's colour); ``SUIT_EQUALITY`` / ``SUIT``
  (which cards share a suit / each card's suit);
* suit values: the point values whose cards' suits (colours) are read (all by default; a bet
  about the nines needs only the nines' suits).

The "one suit / one colour" details hold per read set, so they need the read sets to be
disjoint; :meth:`Reads.of` turns them into the equality or named detail otherwise.

The engine compiles one table per (tableau, reads) and walks no finer than the reads need
(docs/ARCHITECTURE.md, "Reads and refinement").  A record built for a bet hides everything
else: reading an undeclared field raises :class:`~analyzer.errors.UndeclaredReadError`.
"""

from __future__ import annotations

import enum
import functools
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from analyzer.errors import BetError

#: The coup's base fields, in record order.  ``winner`` is implied by the two totals;
#: ``*_third`` is the point value of that side's third card, or ``None`` when it stood.
BASE_FIELDS: tuple[str, ...] = (
    "winner",
    "player_total",
    "banker_total",
    "player_cards",
    "banker_cards",
    "player_natural",
    "banker_natural",
    "player_two_card_total",
    "banker_two_card_total",
    "player_third",
    "banker_third",
)
FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(BASE_FIELDS)}

#: Derived properties of a coup record and the base fields they need.
DERIVED_FIELDS: dict[str, frozenset[str]] = {
    "natural": frozenset({"player_natural", "banker_natural"}),
    "margin": frozenset({"player_total", "banker_total"}),
    "cards": frozenset({"player_cards", "banker_cards"}),
    "cards_dealt": frozenset({"player_cards", "banker_cards"}),
    "naturals": frozenset({"player_natural", "banker_natural"}),
    "winner_total": frozenset({"player_total", "banker_total"}),
    "winner_cards": frozenset({"player_total", "banker_total", "player_cards", "banker_cards"}),
    "player_drew": frozenset({"player_cards"}),
    "banker_drew": frozenset({"banker_cards"}),
}


_D = TypeVar("_D", "RankDetail", "SuitDetail")


def _coarsest(order: Sequence[_D], a: _D, b: _D) -> _D:
    """The first detail of ``order`` (coarsest first, ending with the one that covers every
    other) that covers both ``a`` and ``b``."""
    return next(c for c in order if c.covers(a) and c.covers(b))


class RankDetail(enum.IntEnum):
    """How finely the read cards' ranks are told apart (only 10, J, Q, K share a point value).

    Not a chain: ``EQUALITY`` (which cards share a rank) and ``PICTURE`` (which 10-valued cards
    are pictures) each tell what the other cannot, so compare with :meth:`covers` and
    :meth:`join`, never with ``<`` or ``max`` (the integer values only keep the names stable).
    """

    NONE = 0
    EQUALITY = 1
    NAMED = 2
    PICTURE = 3

    def covers(self, other: RankDetail) -> bool:
        """True when a record read at ``self`` answers everything ``other`` asks."""
        return other in _RANK_COVERS[self]

    def join(self, other: RankDetail) -> RankDetail:
        """The coarsest detail that covers both (``EQUALITY`` and ``PICTURE`` join to ``NAMED``)."""
        return _coarsest(_RANK_JOIN_ORDER, self, other)


_R = RankDetail
_RANK_COVERS: dict[RankDetail, frozenset[RankDetail]] = {
    _R.NONE: frozenset({_R.NONE}),
    _R.EQUALITY: frozenset({_R.NONE, _R.EQUALITY}),
    _R.PICTURE: frozenset({_R.NONE, _R.PICTURE}),
    _R.NAMED: frozenset(_R),
}
_RANK_JOIN_ORDER = (_R.NONE, _R.EQUALITY, _R.PICTURE, _R.NAMED)


class SuitDetail(enum.Enum):
    """How finely the read cards' suits (or colours) are told apart."""

    NONE = "none"
    SAME_CARD = "same-card"
    ONE_COLOUR = "one-colour"
    ONE_SUIT = "one-suit"
    ONE_COLOUR_NAMED = "one-colour-named"
    ONE_SUIT_NAMED = "one-suit-named"
    COLOUR_EQUALITY = "colour-equality"
    COLOUR = "colour"
    SUIT_EQUALITY = "suit-equality"
    SUIT = "suit"

    @property
    def per_set(self) -> bool:
        """True for the details that only say whether each read set is of one suit (colour)."""
        return self in (
            SuitDetail.ONE_COLOUR,
            SuitDetail.ONE_SUIT,
            SuitDetail.ONE_COLOUR_NAMED,
            SuitDetail.ONE_SUIT_NAMED,
        )

    @property
    def exact_equivalent(self) -> SuitDetail:
        """The card-by-card detail that tells at least as much (for overlapping read sets, and
        for ranks read over several sets)."""
        return {
            SuitDetail.ONE_COLOUR: SuitDetail.COLOUR_EQUALITY,
            SuitDetail.ONE_SUIT: SuitDetail.SUIT_EQUALITY,
            SuitDetail.ONE_COLOUR_NAMED: SuitDetail.COLOUR,
            SuitDetail.ONE_SUIT_NAMED: SuitDetail.SUIT,
        }.get(self, self)

    def covers(self, other: SuitDetail) -> bool:
        """True when a record read at ``self`` answers everything ``other`` asks."""
        return other in _COVERS[self]

    def join(self, other: SuitDetail) -> SuitDetail:
        """The coarsest detail that covers both."""
        return _coarsest(_JOIN_ORDER, self, other)


_S = SuitDetail
_COVERS: dict[SuitDetail, frozenset[SuitDetail]] = {
    _S.NONE: frozenset({_S.NONE}),
    _S.SAME_CARD: frozenset({_S.NONE, _S.SAME_CARD}),
    _S.ONE_COLOUR: frozenset({_S.NONE, _S.ONE_COLOUR}),
    _S.ONE_SUIT: frozenset({_S.NONE, _S.ONE_SUIT}),
    _S.ONE_COLOUR_NAMED: frozenset({_S.NONE, _S.ONE_COLOUR, _S.ONE_COLOUR_NAMED}),
    _S.ONE_SUIT_NAMED: frozenset({_S.NONE, _S.ONE_SUIT, _S.ONE_SUIT_NAMED}),
    _S.COLOUR_EQUALITY: frozenset({_S.NONE, _S.ONE_COLOUR, _S.COLOUR_EQUALITY}),
    _S.COLOUR: frozenset({_S.NONE, _S.ONE_COLOUR, _S.ONE_COLOUR_NAMED, _S.COLOUR_EQUALITY, _S.COLOUR}),
    _S.SUIT_EQUALITY: frozenset({_S.NONE, _S.SAME_CARD, _S.ONE_SUIT, _S.SUIT_EQUALITY}),
    _S.SUIT: frozenset(_S),
}
_JOIN_ORDER = (
    _S.NONE,
    _S.SAME_CARD,
    _S.ONE_COLOUR,
    _S.ONE_SUIT,
    _S.ONE_COLOUR_NAMED,
    _S.ONE_SUIT_NAMED,
    _S.COLOUR_EQUALITY,
    _S.COLOUR,
    _S.SUIT_EQUALITY,
    _S.SUIT,
)
ALL_VALUES = frozenset(range(10))

#: Positions by their index in a coup record: Player 1st, Banker 1st, Player 2nd, Banker 2nd
#: (the first four, in dealing order), then the Player's and the Banker's third cards.
POSITIONS = range(6)
PositionSet = frozenset[int]


@dataclass(frozen=True)
class Reads:
    """What a bet reads (see the module docstring).  Build with :meth:`of`; join with ``|``.

    Attributes:
        fields: base fields read (names from :data:`BASE_FIELDS`).
        sets: position sets whose cards are read, each as a multiset.
        ranks / suits: how finely the cards of those sets are told apart.
    """

    fields: frozenset[str] = frozenset()
    sets: frozenset[PositionSet] = frozenset()
    ranks: RankDetail = RankDetail.NONE
    suits: SuitDetail = SuitDetail.NONE
    suit_values: frozenset[int] = ALL_VALUES

    @classmethod
    def of(
        cls,
        fields: Iterable[str] = (),
        sets: Iterable[Iterable[int]] = (),
        ranks: RankDetail | str = RankDetail.NONE,
        suits: SuitDetail | str = SuitDetail.NONE,
        suit_values: Iterable[int] | None = None,
    ) -> Reads:
        """A normalised :class:`Reads`: derived field names expand to the base fields they
        need; reading same-card equality implies rank equality, and a picture read beside any
        suit detail names the ranks; "one suit / colour" details on
        overlapping sets, or with ranks read over several sets, become the card-by-card detail;
        no card detail without sets.

        Raises:
            BetError: an unknown field, position or detail.

        >>> Reads.of(["margin"]).fields == {"player_total", "banker_total"}
        True
        >>> sorted(Reads.of(["cards_dealt"]).fields)
        ['banker_cards', 'player_cards']
        """
        names: set[str] = set()
        for name in fields:
            if name in DERIVED_FIELDS:
                names |= DERIVED_FIELDS[name]
            elif name in FIELD_INDEX:
                names.add(name)
            else:
                raise BetError(
                    f"unknown coup field {name!r}: known fields are {', '.join(BASE_FIELDS)}; "
                    f"derived: {', '.join(DERIVED_FIELDS)}"
                )
        position_sets: set[PositionSet] = set()
        for group in sets:
            members = frozenset(group)
            if not members or not members <= set(POSITIONS):
                raise BetError(f"bad position set {sorted(members)!r}: positions are 0-5 (P1 B1 P2 B2 P3 B3)")
            position_sets.add(members)
        rank = ranks if isinstance(ranks, RankDetail) else _rank_detail(ranks)
        suit = suits if isinstance(suits, SuitDetail) else _suit_detail(suits)
        if suit is SuitDetail.SAME_CARD and rank is RankDetail.NONE:
            rank = RankDetail.EQUALITY
        if rank is RankDetail.PICTURE and suit is not SuitDetail.NONE:
            # the weight algebra has no picture-and-suit (colour) pools: such reads name the
            # ranks, which tell everything a picture read does
            rank = RankDetail.NAMED
        if suit.per_set and (
            any(a != b and a & b for a in position_sets for b in position_sets)
            # a set's one-suit flag beside another set's ranks: the flag's pools and the ranks'
            # do not nest across sets, so such reads fix each card's suit instead
            or (rank is not RankDetail.NONE and len(position_sets) >= 2)
        ):
            suit = suit.exact_equivalent
        values = ALL_VALUES if suit_values is None else frozenset(suit_values)
        if not values <= ALL_VALUES:
            raise BetError(f"bad suit values {sorted(values)!r}: point values are 0-9")
        if suit.per_set or suit is SuitDetail.NONE or not values:
            values = ALL_VALUES  # "one suit" is about every card of the set
        if not position_sets:
            rank, suit = RankDetail.NONE, SuitDetail.NONE
        return cls(frozenset(names), frozenset(position_sets), rank, suit, values)

    @classmethod
    def everything_but_cards(cls) -> Reads:
        """Every base field and no card detail: what a payout function may read by default."""
        return cls(frozenset(BASE_FIELDS))

    def __or__(self, other: Reads) -> Reads:
        """The reads of two bets priced from one table."""
        mine = self.suit_values if self.suits is not SuitDetail.NONE else frozenset()
        theirs = other.suit_values if other.suits is not SuitDetail.NONE else frozenset()
        return Reads.of(
            self.fields | other.fields,
            self.sets | other.sets,
            self.ranks.join(other.ranks),
            self.suits.join(other.suits),
            mine | theirs or None,
        )

    def covers(self, other: Reads) -> bool:
        """True when a record read at ``self`` answers everything ``other`` reads."""
        blocks = self.blocks
        return (
            other.fields <= self.fields
            and all(_is_union_of(s, blocks) for s in other.sets)
            and self.ranks.covers(other.ranks)
            and self.suits.covers(other.suits)
            and (other.suits is SuitDetail.NONE or other.suit_values <= self.suit_values)
            and (not self.suits.per_set or not other.suits.per_set or set(other.sets) <= set(blocks))
        )

    @property
    def blocks(self) -> tuple[PositionSet, ...]:
        """The coarsest partition of the read positions in which every read set is a union of
        blocks (positions grouped by which read sets hold them), ordered by first position."""
        signature: dict[int, frozenset[PositionSet]] = {}
        for pos in POSITIONS:
            holders = frozenset(s for s in self.sets if pos in s)
            if holders:
                signature[pos] = holders
        groups: dict[frozenset[PositionSet], set[int]] = {}
        for pos, holders in signature.items():
            groups.setdefault(holders, set()).add(pos)
        return tuple(sorted((frozenset(g) for g in groups.values()), key=min))

    @property
    def needs_suits(self) -> bool:
        """True when the cards' suits (or colours) are read: such a bet cannot be priced on a
        shoe given by rank counts only."""
        return self.suits is not SuitDetail.NONE

    def __hash__(self) -> int:
        # pricing looks reads up on every call: hashed once, from the text key (the same in
        # every process, so that a pickled copy carries a right hash); equal reads, equal keys
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        return zlib.crc32(self.key.encode())

    @functools.cached_property
    def card_positions(self) -> frozenset[int]:
        """Every position whose card is read."""
        return frozenset().union(*self.sets) if self.sets else frozenset()

    @functools.cached_property
    def first_four_only(self) -> bool:
        """True when nothing read depends on the third cards or the outcome: the first four
        cards decide the bet, so the engine can skip the rest of the dealing tree."""
        return not self.fields and self.card_positions <= {0, 1, 2, 3}

    @functools.cached_property
    def key(self) -> str:
        """A stable text key (for compiled-table caches)."""
        fields = ",".join(f for f in BASE_FIELDS if f in self.fields)
        sets = ";".join("".join(map(str, sorted(s))) for s in sorted(self.sets, key=lambda s: sorted(s)))
        values = "" if self.suit_values == ALL_VALUES else "".join(map(str, sorted(self.suit_values)))
        return f"fields={fields}|sets={sets}|ranks={self.ranks.name}|suits={self.suits.value}{values}"


def _is_union_of(members: PositionSet, blocks: tuple[PositionSet, ...]) -> bool:
    covered: set[int] = set()
    for block in blocks:
        if block <= members:
            covered |= block
        elif block & members:
            return False
    return covered == members


def _rank_detail(text: str) -> RankDetail:
    key = str(text).strip().lower().replace("_", "-")
    for member in RankDetail:
        if key == member.name.lower():
            return member
    raise BetError(f"bad ranks detail {text!r}: use one of {', '.join(m.name.lower() for m in RankDetail)}")


def _suit_detail(text: str) -> SuitDetail:
    key = str(text).strip().lower().replace("_", "-")
    for member in SuitDetail:
        if key in (member.name.lower().replace("_", "-"), member.value):
            return member
    raise BetError(f"bad suits detail {text!r}: use one of {', '.join(m.value for m in SuitDetail)}")
