"""The coup record: one finished coup, by name and by card position, built in one place.

:func:`resolve` deals a coup from concrete cards under a :class:`~analyzer.core.tableau.Tableau`
and returns a :class:`Coup` that knows everything: every base field (totals, naturals, who drew,
third-card values, winner) and every dealt card by position (Player 1st, Banker 1st, Player 2nd,
Banker 2nd, Player 3rd, Banker 3rd; rank, suit when known, point value).

A bet sees a coup through :meth:`Coup.project`: the same record restricted to what the bet
declared it reads (:class:`~analyzer.core.reads.Reads`).  The engine builds its records the same
way, from a representative coup of each refined pattern, so a bet settles a coup identically in
the engine, in ``verify`` and in the oracle.  In a projected record:

* a base field the bet did not declare raises :class:`~analyzer.errors.UndeclaredReadError`;
* a set of positions read as a set is a :class:`~analyzer.core.hands.CardGroup` (a multiset),
  and its positions cannot be read one by one (unless the set is one position);
* read "by equality", ranks of 10-valued cards and suits (colours) become anonymous classes
  (:class:`RankClass`, :class:`SuitClass`, :class:`ColourClass`): they compare equal to each
  other, and comparing one with a named rank or suit raises, since the bet declared it does not
  name them.

``Winner`` compares equal to its text (``coup.winner == "banker"``).
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from analyzer.core.cards import COLOURS, RANKS, SUITS, Card, Colour, Rank, Suit, hand_total, parse_cards
from analyzer.core.reads import (
    BASE_FIELDS,
    FIELD_INDEX,
    POSITIONS,
    PositionSet,
    RankDetail,
    Reads,
    SuitDetail,
)
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import CoupError, UndeclaredReadError


class Winner(enum.StrEnum):
    """Who wins the coup; equal to its text (``Winner.BANKER == "banker"``)."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"

    @property
    def label(self) -> str:
        """``"Player"``, ``"Banker"`` or ``"Tie"``."""
        return self.value.capitalize()


#: Record positions: index -> (machine name, label).
POSITION_NAMES: tuple[str, ...] = ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3")
POSITION_LABELS: tuple[str, ...] = (
    "Player 1st card",
    "Banker 1st card",
    "Player 2nd card",
    "Banker 2nd card",
    "Player 3rd card",
    "Banker 3rd card",
)
P1, B1, P2, B2, P3, B3 = POSITIONS
#: The naturals partition of a coup (:attr:`Coup.naturals`) and how tables label it.
NATURAL_CLASSES: dict[str, str] = {
    "player": "Player natural only",
    "banker": "Banker natural only",
    "both": "Both natural",
    "none": "No natural",
}
#: The named position sets of the vocabulary (TOML names), each read as a multiset.
PLAYER_FIRST_TWO: PositionSet = frozenset({P1, P2})
BANKER_FIRST_TWO: PositionSet = frozenset({B1, B2})
FIRST_FOUR: PositionSet = frozenset({P1, B1, P2, B2})
PLAYER_HAND: PositionSet = frozenset({P1, P2, P3})
BANKER_HAND: PositionSet = frozenset({B1, B2, B3})
ALL_CARDS: PositionSet = frozenset(POSITIONS)
POSITION_SETS: dict[str, PositionSet] = {
    "player_first_two": PLAYER_FIRST_TWO,
    "banker_first_two": BANKER_FIRST_TWO,
    "first_four": FIRST_FOUR,
    "player_hand": PLAYER_HAND,
    "banker_hand": BANKER_HAND,
    "all_cards": ALL_CARDS,
    **{name: frozenset({i}) for i, name in enumerate(POSITION_NAMES)},
}


# -- anonymous classes ("by equality") -------------------------------------------------------


class _Class:
    """An anonymous rank / suit / colour: equal only to the same class of the same record.

    Unhashable on purpose (a set lookup could silently miss the comparison that raises);
    the engine hashes :attr:`key`.
    """

    __slots__ = ("index",)
    kind = "class"
    named: type[enum.Enum] = enum.Enum

    def __init__(self, index: int) -> None:
        self.index = index

    @property
    def key(self) -> tuple[str, int]:
        """Hashable identity, for sorting and grouping."""
        return (self.kind, self.index)

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return bool(self.index == getattr(other, "index", None))
        if isinstance(other, self.named | str):
            raise UndeclaredReadError(
                f"a bet compared a card's {self.kind} with the named {self.kind} {other!r}, but it "
                f"declared it reads {self.kind}s by equality only: declare named {self.kind}s"
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.index})"


class RankClass(_Class):
    """A 10-valued rank (10, J, Q or K) known only by equality with other cards' ranks."""

    __slots__ = ()
    kind = "rank"
    named = Rank

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rank) and other.point != 0:
            return False  # a 10-valued class never equals a rank of another value
        return super().__eq__(other)

    __hash__ = None


class SuitClass(_Class):
    """A suit known only by equality with other read cards' suits."""

    __slots__ = ()
    kind = "suit"
    named = Suit


class ColourClass(_Class):
    """A colour known only by equality with other read cards' colours."""

    __slots__ = ()
    kind = "colour"
    named = Colour


RankLabel = Rank | RankClass
RANKS_BY_INDEX, SUITS_BY_INDEX, COLOURS_BY_INDEX = RANKS, SUITS, COLOURS
SuitLabel = Suit | SuitClass
ColourLabel = Colour | ColourClass


class PendingLabel:
    """A label of a card (rank, suit, colour, same-card identity) or a block's one-suit flag
    that the engine has not fixed yet: reading it raises :class:`LabelNeeded`, and the engine
    refines only what a bet reads (:mod:`analyzer.engine.explore`).  Internal to compiling;
    never seen in a record a bet gets elsewhere."""

    __slots__ = ("kind", "slot")

    def __init__(self, slot: int, kind: str) -> None:
        self.slot = slot
        self.kind = kind

    def __repr__(self) -> str:
        return f"PendingLabel({self.slot}, {self.kind!r})"


class LabelNeeded(BaseException):
    """Internal: a bet read a label the engine has not fixed yet (see :class:`PendingLabel`).

    A ``BaseException``, so that a bet's own ``except Exception`` cannot swallow it: the engine
    catches it, fixes that label every way it can be, and settles again."""

    def __init__(self, pending: PendingLabel) -> None:
        super().__init__(pending.slot, pending.kind)
        self.pending = pending


def _known(label: object) -> object:
    """``label``, unless it is pending (then the engine must fix it first)."""
    if type(label) is PendingLabel:
        raise LabelNeeded(label)
    return label


def _label_key(label: object) -> tuple[str, int]:
    if label is None:
        return ("", -1)
    if isinstance(label, _Class):
        return label.key
    if type(label) is PendingLabel:
        return ("~", 0)
    assert isinstance(label, Rank | Suit | Colour)
    return ("named", label.index)


class DealtCard:
    """A dealt card as a bet sees it: its point value always; its rank, suit and colour as far
    as the bet declared it reads them.

    ``rank`` is a :class:`~analyzer.core.cards.Rank` or, read by equality, a
    :class:`RankClass` (cards of value 1-9 always have a named rank); ``suit`` a
    :class:`~analyzer.core.cards.Suit` or :class:`SuitClass`; ``colour`` a
    :class:`~analyzer.core.cards.Colour` or :class:`ColourClass`.  Reading one that is not
    known raises :class:`~analyzer.errors.UndeclaredReadError`.
    """

    __slots__ = ("_card", "_code", "_colour", "_hash", "_key", "_rank", "_suit", "value")

    def __init__(
        self,
        value: int,
        rank: RankLabel | PendingLabel | None = None,
        suit: SuitLabel | PendingLabel | None = None,
        colour: ColourLabel | PendingLabel | None = None,
        card: object = None,
    ) -> None:
        self.value = value
        self._rank = rank
        self._suit = suit
        self._colour = colour if colour is not None or not isinstance(suit, Suit) else suit.colour
        self._card = card  # same-card identity: (rank key, class index), when read that way
        self._code: tuple[int, ...] | None = None  # canonical code of a bet record's card
        self._key = (  # a card never changes: its identity is computed once
            value,
            _label_key(rank),
            _label_key(suit),
            _label_key(self._colour),
            card if card is not None and type(card) is not PendingLabel else (),
        )
        self._hash = hash(self._key)

    @property
    def rank(self) -> RankLabel:
        """The rank (named, or a class when read by equality)."""
        rank = self._rank
        if rank is None:
            raise UndeclaredReadError(
                f"a bet read the rank of a card of value {self.value}, but it declared it reads "
                "point values only (ranks='none')"
            )
        if isinstance(rank, PendingLabel):
            raise LabelNeeded(rank)
        return rank

    @property
    def suit(self) -> SuitLabel:
        """The suit (named, or a class when read by equality)."""
        suit = self._suit
        if suit is None:
            raise UndeclaredReadError(
                "a bet read the suit of a card, but the card's suit is not known to it: declare "
                "suits='suit' or 'suit-equality' (or give the cards with their suits)"
            )
        if isinstance(suit, PendingLabel):
            raise LabelNeeded(suit)
        return suit

    @property
    def colour(self) -> ColourLabel:
        """Red or black (named, or a class when read by equality)."""
        colour = self._colour
        if colour is None:
            raise UndeclaredReadError(
                "a bet read the colour of a card, but the card's colour is not known to it: declare "
                "suits='colour' or 'colour-equality'"
            )
        if isinstance(colour, PendingLabel):
            raise LabelNeeded(colour)
        return colour

    @property
    def card(self) -> Card:
        """The concrete :class:`~analyzer.core.cards.Card` (rank, and suit when known) of a card
        of a full record.

        Raises:
            UndeclaredReadError: the rank is not known by name (a bet record).
        """
        rank = self.rank
        if not isinstance(rank, Rank) or not (self._suit is None or isinstance(self._suit, Suit)):
            raise UndeclaredReadError("only the cards of a full coup record are concrete cards")
        return Card(rank, self._suit)

    def same_card(self, other: DealtCard) -> bool:
        """True when both are the same card (same rank and same suit).

        Raises:
            UndeclaredReadError: the ranks or suits are not known well enough to tell.
        """
        mine, theirs = self.card_key, other.card_key
        return mine == theirs

    @property
    def card_key(self) -> tuple[object, ...]:
        """Hashable identity of the card (rank and suit), when known."""
        if self._card is not None:
            return ("card", self.value, _known(self._card))
        _known(self._rank)
        _known(self._suit)
        if self._suit is None or self._rank is None:
            raise UndeclaredReadError(
                "a bet compared two cards as cards (rank and suit), but declared less: declare "
                "suits='same-card' (or finer)"
            )
        return ("card", self.value, _label_key(self._rank), _label_key(self._suit))

    @property
    def key(self) -> tuple[object, ...]:
        """Hashable, sortable identity of what is known of the card."""
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealtCard) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"DealtCard({self})"

    def __str__(self) -> str:
        if isinstance(self._rank, Rank):
            text = self._rank.label
        elif isinstance(self._rank, PendingLabel):
            text = str(self.value)
        elif self._rank is not None:
            text = f"T{self._rank.index}"  # a 10-valued rank class
        else:
            text = str(self.value)
        if isinstance(self._suit, Suit):
            return text + self._suit.value
        if isinstance(self._suit, PendingLabel) or isinstance(self._colour, PendingLabel):
            return text + "?"
        if self._suit is not None:
            return text + f"~{self._suit.index}"
        if self._colour is not None:
            return text + (
                self._colour.value[0] if isinstance(self._colour, Colour) else f"~c{self._colour.index}"
            )
        return text


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


#: A base field a projected record does not carry.
UNKNOWN: Any = _Unknown()


class Coup:
    """A finished coup (see the module docstring).  Build with :func:`resolve`; restrict to a
    bet's reads with :meth:`project`.

    Base fields (each raises :class:`~analyzer.errors.UndeclaredReadError` when the record does
    not carry it): ``winner``, ``player_total`` / ``banker_total`` (final, 0-9),
    ``player_cards`` / ``banker_cards`` (2 or 3), ``player_natural`` / ``banker_natural``,
    ``player_two_card_total`` / ``banker_two_card_total``, ``player_third`` / ``banker_third``
    (point value 0-9, or ``None`` when the side stood).  Cards: :meth:`card` by position,
    :meth:`cards` by position set, ``player`` / ``banker`` hands (full records only).
    """

    __slots__ = ("_blocks", "_cards", "_fields", "_groups", "_hash")

    def __init__(
        self,
        fields: Sequence[object],
        cards: Sequence[DealtCard | None] | None,
        blocks: Sequence[tuple[PositionSet, tuple[DealtCard, ...], Flag]] = (),
    ) -> None:
        """Low level; use :func:`resolve` or :meth:`project`.  ``fields`` follow
        :data:`~analyzer.core.reads.BASE_FIELDS` (``UNKNOWN`` where not carried); ``cards`` by
        position (``None`` where not dealt) for a full record, else ``None`` with ``blocks``:
        (position set, its dealt cards sorted, its one-suit flag or ``None``) triples."""
        self._fields = tuple(fields)
        self._cards = tuple(cards) if cards is not None else None
        self._blocks = tuple(blocks)
        self._hash = hash((self._fields, self._cards, self._blocks))
        self._groups: dict[frozenset[int], Any] = {}  # cards(): a record never changes

    # -- identity ---------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Coup)
            and self._hash == other._hash
            and self._fields == other._fields
            and self._cards == other._cards
            and self._blocks == other._blocks
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        known = {n: v for n, v in zip(BASE_FIELDS, self._fields, strict=True) if v is not UNKNOWN}
        cards = self.announce() if self._cards is not None else f"blocks={self._blocks!r}"
        return f"Coup({known}, {cards})"

    @property
    def is_full(self) -> bool:
        """True for a record from :func:`resolve` (every field and card position known)."""
        return self._cards is not None and UNKNOWN not in self._fields

    # -- base fields ------------------------------------------------------------------------

    def _get(self, name: str) -> Any:
        value = self._fields[FIELD_INDEX[name]]
        if value is UNKNOWN:
            raise UndeclaredReadError(
                f"a bet read the coup's {name}, which it did not declare it reads: add {name!r} to its reads"
            )
        return value

    winner: Winner = property(lambda self: self._get("winner"))  # type: ignore[assignment]
    player_total: int = property(lambda self: self._get("player_total"))  # type: ignore[assignment]
    banker_total: int = property(lambda self: self._get("banker_total"))  # type: ignore[assignment]
    player_cards: int = property(lambda self: self._get("player_cards"))  # type: ignore[assignment]
    banker_cards: int = property(lambda self: self._get("banker_cards"))  # type: ignore[assignment]
    player_natural: bool = property(lambda self: self._get("player_natural"))  # type: ignore[assignment]
    banker_natural: bool = property(lambda self: self._get("banker_natural"))  # type: ignore[assignment]
    player_two_card_total: int = property(  # type: ignore[assignment]
        lambda self: self._get("player_two_card_total")
    )
    banker_two_card_total: int = property(  # type: ignore[assignment]
        lambda self: self._get("banker_two_card_total")
    )
    player_third: int | None = property(lambda self: self._get("player_third"))  # type: ignore[assignment]
    banker_third: int | None = property(lambda self: self._get("banker_third"))  # type: ignore[assignment]

    @property
    def natural(self) -> bool:
        """Either side has a natural."""
        return bool(self.player_natural or self.banker_natural)

    @property
    def naturals(self) -> str:
        """Which sides have a natural: ``"player"``, ``"banker"``, ``"both"`` or ``"none"``
        (the one definition of the naturals partition, see :data:`NATURAL_CLASSES`)."""
        p, b = self.player_natural, self.banker_natural
        return "both" if p and b else "player" if p else "banker" if b else "none"

    @property
    def margin(self) -> int:
        """Winning margin in points (0 on a tie)."""
        return abs(self.player_total - self.banker_total)

    @property
    def cards_dealt(self) -> int:
        """Cards dealt in the coup: 4, 5 or 6."""
        return int(self.player_cards + self.banker_cards)

    @property
    def player_drew(self) -> bool:
        """The Player took a third card."""
        return bool(self.player_cards == 3)

    @property
    def banker_drew(self) -> bool:
        """The Banker took a third card."""
        return bool(self.banker_cards == 3)

    @property
    def winner_total(self) -> int | None:
        """The winning side's final total (``None`` on a tie)."""
        w = self.winner
        return None if w is Winner.TIE else (self.player_total if w is Winner.PLAYER else self.banker_total)

    @property
    def winner_cards(self) -> int | None:
        """How many cards the winning side holds (``None`` on a tie)."""
        w = self.winner
        return None if w is Winner.TIE else (self.player_cards if w is Winner.PLAYER else self.banker_cards)

    # -- cards ------------------------------------------------------------------------------

    def card(self, position: int) -> DealtCard | None:
        """The card at ``position`` (0-5: P1 B1 P2 B2 P3 B3), ``None`` when not dealt.

        Raises:
            UndeclaredReadError: the record does not carry that position by itself.
        """
        if self._cards is not None:
            return self._cards[position]
        for members, cards, _ in self._blocks:
            if members == {position}:
                return cards[0] if cards else None
        raise UndeclaredReadError(
            f"a bet read the {POSITION_LABELS[position]} by position, which it did not declare: "
            f"declare the set {{{POSITION_NAMES[position]}}} (or read a set that holds it as a set)"
        )

    def cards(self, positions: Iterable[int]) -> Any:
        """The dealt cards at ``positions`` as a :class:`~analyzer.core.hands.CardGroup`
        (a multiset; undealt positions contribute nothing).

        Raises:
            UndeclaredReadError: the set is not one the record carries (a union of its blocks).
        """
        wanted = frozenset(positions)
        hit = self._groups.get(wanted)
        if hit is None:
            hit = self._groups[wanted] = self._group(wanted)
        return hit

    def _group(self, wanted: frozenset[int]) -> Any:
        from analyzer.core.hands import CardGroup

        if self._cards is not None:
            return CardGroup(c for i, c in enumerate(self._cards) if i in wanted and c is not None)
        found: list[DealtCard] = []
        covered: set[int] = set()
        flags: list[Flag] = []
        for members, cards, flag in self._blocks:
            if members <= wanted:
                found.extend(cards)
                covered |= members
                flags.append(flag)
            elif members & wanted:
                break
        if covered != wanted:
            names = ", ".join(POSITION_NAMES[i] for i in sorted(wanted))
            raise UndeclaredReadError(f"a bet read the cards of {{{names}}}, a set it did not declare")
        return CardGroup(found, flags[0] if len(flags) == 1 else None)

    @property
    def player(self) -> tuple[DealtCard, ...]:
        """The Player's hand in dealing order (full records only)."""
        return self._hand(0)

    @property
    def banker(self) -> tuple[DealtCard, ...]:
        """The Banker's hand in dealing order (full records only)."""
        return self._hand(1)

    def _hand(self, side: int) -> tuple[DealtCard, ...]:
        if self._cards is None:
            raise UndeclaredReadError("a bet read a hand by position; read it as a set: cards(PLAYER_HAND)")
        return tuple(
            c for c in (self._cards[side], self._cards[side + 2], self._cards[side + 4]) if c is not None
        )

    # -- pair flags (derived from the cards, here only) --------------------------------------

    @property
    def player_pair(self) -> bool:
        """The Player's first two cards have the same rank."""
        return bool(self.cards(PLAYER_FIRST_TWO).pair)

    @property
    def banker_pair(self) -> bool:
        """The Banker's first two cards have the same rank."""
        return bool(self.cards(BANKER_FIRST_TWO).pair)

    @property
    def player_suited_pair(self) -> bool:
        """The Player's first two cards are the same card (rank and suit)."""
        return bool(self.cards(PLAYER_FIRST_TWO).same_card_pair)

    @property
    def banker_suited_pair(self) -> bool:
        """The Banker's first two cards are the same card (rank and suit)."""
        return bool(self.cards(BANKER_FIRST_TWO).same_card_pair)

    # -- text -------------------------------------------------------------------------------

    def announce(self) -> str:
        """The coup as a dealer announces it (full records), e.g.
        ``"Player 2 3 6 (1), Banker 4 10 A (5): Banker wins"``."""

        def side(name: str, hand: tuple[DealtCard, ...], total: int, natural: bool) -> str:
            tag = f"natural {total}" if natural else str(total)
            return f"{name} {' '.join(map(str, hand))} ({tag})"

        result = "Tie" if self.winner is Winner.TIE else f"{self.winner.label} wins"
        return (
            f"{side('Player', self.player, self.player_total, self.player_natural)}, "
            f"{side('Banker', self.banker, self.banker_total, self.banker_natural)}: {result}"
        )

    # -- projection ---------------------------------------------------------------------------

    def project(self, reads: Reads) -> Coup:
        """This record as a bet with ``reads`` sees it (see the module docstring): the same
        record the engine builds for this coup's pattern.

        Raises:
            UndeclaredReadError: this record lacks what ``reads`` asks (e.g. suits of cards
                given without suits); CoupError: it is not a full record.
        """
        if not self.is_full:
            raise CoupError("only a full coup record (from resolve) can be projected")
        assert self._cards is not None
        fields = [
            v if name in reads.fields else UNKNOWN for name, v in zip(BASE_FIELDS, self._fields, strict=True)
        ]
        if "player_total" in reads.fields and "banker_total" in reads.fields:
            fields[0] = self._fields[0]
        blocks = [
            (b, [c for i, c in enumerate(self._cards) if i in b and c is not None]) for b in reads.blocks
        ]
        return build_record(fields, blocks, reads)

    def narrow(self, reads: Reads) -> Coup:
        """This record as a bet with coarser ``reads`` sees it (a full record is projected):
        the engine prices several bets from one table read at their union.

        Raises:
            UndeclaredReadError: ``reads`` asks for something this record does not carry.
        """
        if self.is_full:
            return self.project(reads)
        fields = [UNKNOWN] * len(BASE_FIELDS)
        for name in reads.fields:
            fields[FIELD_INDEX[name]] = self._get(name)
        if "player_total" in reads.fields and "banker_total" in reads.fields:
            fields[0] = (
                self._fields[0]
                if self._fields[0] is not UNKNOWN
                else (
                    Winner.PLAYER
                    if self.player_total > self.banker_total
                    else Winner.BANKER
                    if self.banker_total > self.player_total
                    else Winner.TIE
                )
            )
        groups = [self.cards(b) for b in reads.blocks]
        return build_record(
            fields,
            [(b, list(g)) for b, g in zip(reads.blocks, groups, strict=True)],
            reads,
            [g.flag for g in groups],
        )


_OF_CARD: dict[Card, DealtCard] = {}


def card_of(card: Card) -> DealtCard:
    """A full-knowledge :class:`DealtCard` from a concrete card (suit ``None`` when unknown);
    shared per card (dealt cards are never changed)."""
    hit = _OF_CARD.get(card)
    if hit is None:
        hit = _OF_CARD[card] = DealtCard(card.point, card.rank, card.suit)
    return hit


#: Whether a read set is all of one suit (colour), for the "one suit / one colour" reads:
#: (kind "suit" or "colour", state "one" or "mixed", named label index or -1), or ``None``.
Flag = tuple[str, str, int] | None


def build_record(
    fields: Sequence[object],
    blocks: Sequence[tuple[PositionSet, Sequence[DealtCard]]],
    reads: Reads,
    flags: Sequence[Flag] | None = None,
) -> Coup:
    """The record a bet with ``reads`` sees: ``fields`` (base fields, UNKNOWN where not read)
    and, per block of ``reads``, its dealt cards; ranks and suits are reduced to what ``reads``
    tells apart, anonymous classes numbered canonically (the smallest labelling under renaming
    the classes), so two coups that a bet cannot tell apart give equal records.  For the "one
    suit / colour" reads, each block carries its flag (from ``flags`` when the cards no longer
    show their suits, else from the cards).  The one builder of bet records, for the engine
    and the checkers.

    Raises:
        UndeclaredReadError: a card lacks the rank or suit ``reads`` needs.
    """
    given = list(flags) if flags is not None else [None] * len(blocks)
    raw = tuple(
        (members, tuple(_reduce(c, reads) for c in cards), _flag(cards, reads, given[i]))
        for i, (members, cards) in enumerate(blocks)
    )
    return Coup(fields, None, canonical_blocks(raw))


def _flag(cards: Sequence[DealtCard], reads: Reads, given: Flag) -> Flag:
    """The one-suit flag of a block read at a "one suit / colour" detail."""
    detail = reads.suits
    if not detail.per_set or not cards:
        return None
    kind = "colour" if detail in (SuitDetail.ONE_COLOUR, SuitDetail.ONE_COLOUR_NAMED) else "suit"
    named = detail in (SuitDetail.ONE_SUIT_NAMED, SuitDetail.ONE_COLOUR_NAMED)
    if given is not None:  # narrowing a record that carries flags, not suits
        _known(given)
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
#: that only tells cards of one rank apart (same-card), or ``()`` when not read.
RawCard = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
RawBlocks = tuple[tuple[PositionSet, tuple[RawCard, ...], Flag], ...]
_NAMED, _CLASS, _LOCAL = 0, 1, 2


def _reduce(card: DealtCard, reads: Reads) -> RawCard:
    """What ``reads`` keeps of a card: named labels stay named or become classes; classes and
    same-card suits stay what they are (a record is only ever reduced to coarser reads)."""
    rank: tuple[int, ...] = ()
    suit: tuple[int, ...] = ()
    colour: tuple[int, ...] = ()
    if reads.ranks is not RankDetail.NONE:
        r = card.rank
        if isinstance(r, RankClass):
            rank = (_CLASS, r.index)
        else:
            hidden = reads.ranks is RankDetail.EQUALITY and card.value == 0
            rank = (_CLASS if hidden else _NAMED, r.index)
    detail = reads.suits
    if detail.per_set or card.value not in reads.suit_values:
        detail = SuitDetail.NONE
    if detail is SuitDetail.SAME_CARD and card._card is not None:
        local = _known(card._card)
        assert isinstance(local, tuple)
        suit = (_LOCAL, int(local[1]))
    elif detail in (SuitDetail.SUIT, SuitDetail.SUIT_EQUALITY, SuitDetail.SAME_CARD):
        s = card.suit
        kind = {SuitDetail.SUIT: _NAMED, SuitDetail.SUIT_EQUALITY: _CLASS}.get(detail, _LOCAL)
        if isinstance(s, SuitClass) and kind == _NAMED:
            raise UndeclaredReadError("internal: a suit class cannot be named")
        suit = (kind, s.index)
    elif detail in (SuitDetail.COLOUR, SuitDetail.COLOUR_EQUALITY):
        c = card.colour
        kind = _NAMED if detail is SuitDetail.COLOUR else _CLASS
        if isinstance(c, ColourClass) and kind == _NAMED:
            raise UndeclaredReadError("internal: a colour class cannot be named")
        colour = (kind, c.index)
    return (card.value, rank, suit, colour)


_CANONICAL: dict[RawBlocks, tuple[tuple[PositionSet, tuple[DealtCard, ...], Flag], ...]] = {}


def canonical_blocks(raw: RawBlocks) -> tuple[tuple[PositionSet, tuple[DealtCard, ...], Flag], ...]:
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
        hit = _DEALT[key] = _make_dealt(key)
    return hit


def _make_dealt(key: tuple[int, ...]) -> DealtCard:
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


_FIELD_CODES = {"player": Winner.PLAYER, "banker": Winner.BANKER, "tie": Winner.TIE}


def record_to_json(record: Coup) -> list[object]:
    """A bet record (from :func:`build_record`) as JSON data, for the table cache."""
    fields = ["?" if v is UNKNOWN else (v.value if isinstance(v, Winner) else v) for v in record._fields]
    blocks = []
    for members, cards, flag in record._blocks:
        codes = []
        for card in cards:
            if card._code is None:
                raise CoupError("internal: only bet records built by build_record can be stored")
            codes.append(list(card._code))
        blocks.append([sorted(members), codes, list(flag) if flag is not None else None])
    return [fields, blocks]


def record_from_json(data: object) -> Coup:
    """The inverse of :func:`record_to_json`.

    Raises:
        ValueError: the data is not a stored record (the cache treats that as a miss).
    """
    if not isinstance(data, list) or len(data) != 2:
        raise ValueError("bad record")
    fields, blocks = data
    if not isinstance(fields, list) or len(fields) != len(BASE_FIELDS):
        raise ValueError("bad record fields")
    values: list[object] = []
    for name, v in zip(BASE_FIELDS, fields, strict=True):
        if v == "?":
            values.append(UNKNOWN)
        elif name == "winner":
            if v not in _FIELD_CODES:
                raise ValueError("bad winner")
            values.append(_FIELD_CODES[v])
        elif name.endswith("natural"):
            if type(v) is not bool:
                raise ValueError("bad natural")
            values.append(v)
        elif v is None and name.endswith("third"):
            values.append(None)
        elif (type(v) is int and 0 <= v <= 9) or (name.endswith("cards") and v in (2, 3)):
            values.append(v)
        else:
            raise ValueError(f"bad {name}")
    out = []
    if not isinstance(blocks, list):
        raise ValueError("bad record blocks")
    for block in blocks:
        members, codes, flag = block
        if flag is not None and not (
            isinstance(flag, list)
            and len(flag) == 3
            and flag[0] in ("suit", "colour")
            and flag[1] in ("one", "mixed")
            and type(flag[2]) is int
            and -1 <= flag[2] < 4
        ):
            raise ValueError("bad flag")
        if not isinstance(members, list) or not all(type(m) is int and 0 <= m < 6 for m in members):
            raise ValueError("bad positions")
        cards = []
        for code in codes:
            if not isinstance(code, list) or not all(type(x) is int and -1 <= x <= 52 for x in code):
                raise ValueError("bad card")
            cards.append(_dealt_checked(tuple(code)))
        out.append((frozenset(members), tuple(cards), tuple(flag) if flag is not None else None))
    return Coup(values, None, out)


def _dealt_checked(code: tuple[int, ...]) -> DealtCard:
    if not code or not 0 <= code[0] <= 9:
        raise ValueError("bad card value")
    at = 1
    for _ in range(3):
        if at >= len(code) or code[at] not in (0, 2):
            raise ValueError("bad card part")
        if code[at] == 2 and (code[at + 1] not in (0, 1, 2) or not 0 <= code[at + 2] < 13):
            raise ValueError("bad card label")
        at += 1 + code[at]
    if at != len(code):
        raise ValueError("bad card length")
    return _make_dealt(code)


# -- dealing ----------------------------------------------------------------------------------


def _token(card: object) -> Card:
    if isinstance(card, DealtCard):
        return card.card  # a card of a full record
    if not isinstance(card, str):
        raise CoupError(f"bad card {card!r}: give a Card or text such as 'Kh'")
    return parse_cards([card])[0]


def resolve(cards: Sequence[Card] | str, tableau: Tableau = STANDARD) -> Coup:
    """Deal a coup from ``cards`` in dealing order (Player, Banker, Player, Banker, then third
    cards by ``tableau``) and return the full :class:`Coup` record.

    Cards after those the coup uses are ignored (``cards_dealt`` says how many were used).

    Raises:
        CoupError: fewer cards than the tableau requires; the message says which card is missing.
        CardError: ``cards`` is text with a malformed token.

    >>> resolve("2 4 3 10 6 A").announce()
    'Player 2 3 6 (1), Banker 4 10 A (5): Banker wins'
    """
    if isinstance(cards, str):
        seq = parse_cards(cards)
    elif isinstance(cards, bytes) or not hasattr(cards, "__iter__"):
        raise CoupError(f"bad cards {cards!r}: give text such as '2 4 3 10 6 A' or a list of cards")
    else:
        seq = [c if isinstance(c, Card) else _token(c) for c in cards]
    if not isinstance(tableau, Tableau):
        raise CoupError(f"bad rules {tableau!r}: give a Tableau, e.g. analyzer.STANDARD")
    if len(seq) < 4:
        raise CoupError(f"a coup needs at least 4 cards (Player, Banker, Player, Banker); got {len(seq)}")
    p2 = hand_total([seq[0].point, seq[2].point])
    b2 = hand_total([seq[1].point, seq[3].point])
    used = 4
    third_p: Card | None = None
    third_b: Card | None = None
    if not tableau.decided_by_naturals(p2, b2):
        if tableau.player_draws(p2):
            if len(seq) <= used:
                raise CoupError(f"the Player draws on {p2} but the sequence has no 5th card")
            third_p = seq[used]
            used += 1
        if tableau.banker_draws(b2, third_p.point if third_p else None):
            if len(seq) <= used:
                raise CoupError(f"the Banker draws on {b2} but the sequence has no {used + 1}th card")
            third_b = seq[used]
            used += 1
    return coup_from_cards(seq[:4], third_p, third_b, tableau)


def coup_from_cards(
    first_four: Sequence[Card],
    player_third: Card | None,
    banker_third: Card | None,
    tableau: Tableau = STANDARD,
) -> Coup:
    """The full record of a coup whose draws are already decided: the first four cards in
    dealing order and each side's third card (``None`` when it stood).  Totals, naturals and the
    winner come from the cards and ``tableau``'s naturals; the draws are not re-checked."""
    p2 = hand_total([first_four[0].point, first_four[2].point])
    b2 = hand_total([first_four[1].point, first_four[3].point])
    pt = (p2 + (player_third.point if player_third else 0)) % 10
    bt = (b2 + (banker_third.point if banker_third else 0)) % 10
    winner = Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE
    fields = (
        winner,
        pt,
        bt,
        2 + (player_third is not None),
        2 + (banker_third is not None),
        p2 in tableau.naturals,
        b2 in tableau.naturals,
        p2,
        b2,
        player_third.point if player_third else None,
        banker_third.point if banker_third else None,
    )
    cards = [card_of(c) for c in first_four] + [
        card_of(player_third) if player_third else None,
        card_of(banker_third) if banker_third else None,
    ]
    return Coup(fields, cards)


def dealing_order(coup: Coup) -> list[Card]:
    """The cards of a full record in the order they came out of the shoe (P1 B1 P2 B2, then the
    Player's third card, then the Banker's).

    >>> " ".join(map(str, dealing_order(resolve("2 4 3 10 6 A"))))
    '2 4 3 10 6 A'
    """
    return [c.card for c in (coup.card(i) for i in POSITIONS) if c is not None]
