"""A dealt card as a bet record shows it: its point value, and its rank, suit and colour as
far as the bet reads them.

A label read by name is a :class:`~analyzer.core.cards.Rank`, :class:`~analyzer.core.cards.Suit`
or :class:`~analyzer.core.cards.Colour`; read "by equality" it is an anonymous class
(:class:`RankClass`, :class:`SuitClass`, :class:`ColourClass`), equal only to the same class of
the same record; while the engine compiles, a label it has not fixed yet is a
:class:`PendingLabel`, and reading one raises :class:`LabelNeeded`.  The coup record
(:mod:`analyzer.core.coup`) holds these cards; :mod:`analyzer.core.canonical` numbers their
classes canonically.
"""

from __future__ import annotations

import enum
import threading
from typing import Any

from analyzer.core.cards import COLOURS, RANKS, SUITS, Card, Colour, Rank, Suit
from analyzer.errors import UndeclaredReadError

# -- anonymous classes ("by equality") -------------------------------------------------------


class _Class:
    """An anonymous rank / suit / colour: equal only to the same class of the same record.
    A named label's attributes (``index``, ``label``, ...) raise ``UndeclaredReadError``: a bet
    that reads them must declare named ranks or suits.

    Unhashable on purpose (a set lookup could silently miss the comparison that raises);
    the engine hashes :attr:`key`.
    """

    __slots__ = ("number",)
    kind = "class"
    named: type[enum.Enum] = enum.Enum

    def __init__(self, number: int) -> None:
        #: The class's number within its record (0, 1, ...: the order the classes first
        #: appear), the engine's; not a rank's or suit's index, which a bet cannot know here.
        self.number = number

    @property
    def key(self) -> tuple[str, int]:
        """Hashable identity, for sorting and grouping."""
        return (self.kind, self.number)

    def __getattr__(self, name: str) -> object:
        # An attribute of a named rank or suit (index, label, point, colour...) is not known of a
        # class; a private or special name stays an AttributeError (hasattr, copy and pickle ask).
        if name.startswith("_"):
            raise AttributeError(name)
        raise UndeclaredReadError(
            f"a bet read {name!r} of a card's {self.kind}, but it declared it reads {self.kind}s by "
            f"equality only: declare named {self.kind}s"
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return bool(self.number == other.number)
        if isinstance(other, self.named | str):
            raise UndeclaredReadError(
                f"a bet compared a card's {self.kind} with the named {self.kind} {other!r}, but it "
                f"declared it reads {self.kind}s by equality only: declare named {self.kind}s"
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.number})"


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


class PictureRank:
    """A 10-valued rank known only as a picture (J, Q or K), read at ``ranks='picture'``; a ten
    read so keeps its named rank :attr:`~analyzer.core.cards.Rank.TEN`.  It equals no rank of
    another point value and not the ten; asking whether it is a Jack, a Queen or a King, or the
    same rank as another picture, or reading a named rank's attributes (``index``, ``label``),
    was not declared (``UndeclaredReadError``).  Unhashable, as
    the classes are.  :data:`PICTURE` is the one instance."""

    __slots__ = ()
    kind = "rank"

    @property
    def key(self) -> tuple[str, int]:
        """Hashable identity, for sorting and grouping."""
        return ("picture", 0)

    def __getattr__(self, name: str) -> object:
        # An attribute of a named rank (index, label, point...) is not known of a picture; a
        # private or special name stays an AttributeError (hasattr, copy and pickle ask them).
        if name.startswith("_"):
            raise AttributeError(name)
        raise UndeclaredReadError(
            f"a bet read {name!r} of a picture's rank, but it declared it reads only whether "
            "10-valued cards are pictures: declare named ranks"
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rank):
            if other.point != 0 or other is Rank.TEN:
                return False  # a picture is never a ten, nor a rank of another value
            raise UndeclaredReadError(
                f"a bet compared a picture with the named rank {other.label}, but it declared it "
                "reads only whether 10-valued cards are pictures: declare named ranks"
            )
        if isinstance(other, PictureRank | RankClass | str):
            raise UndeclaredReadError(
                "a bet compared the ranks of pictures, but it declared it reads only whether "
                "10-valued cards are pictures: declare ranks by equality or named"
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "PICTURE"


#: The one :class:`PictureRank`.
PICTURE = PictureRank()

RankLabel = Rank | RankClass | PictureRank
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


class PendingCards(tuple):  # type: ignore[type-arg]
    """The cards of a block that the engine has not dealt yet (internal to compiling): a
    record whose blocks hold these carries its base fields and one-suit flags only, and any
    look at the cards (iterating, counting, indexing) raises :class:`LabelNeeded` with
    :data:`CARDS_PENDING` and sets :attr:`looked`, so that a bet that swallowed the exception
    (a bare ``except``) is still known to have looked.  A bet that settles such a record without
    looking settles alike every row with its fields and block sizes, whatever their cards
    (:meth:`analyzer.engine.explore.Explorer.explore_shape`).  Equal only to itself: a record
    holding it never equals (nor hashes as) one whose block is really empty."""

    looked: bool

    def __new__(cls) -> PendingCards:
        self = super().__new__(cls)
        self.looked = False
        return self

    def _look(self) -> LabelNeeded:
        self.looked = True
        return LabelNeeded(CARDS_PENDING)

    def __iter__(self) -> Any:
        raise self._look()

    def __len__(self) -> int:
        raise self._look()

    def __getitem__(self, index: Any) -> Any:
        raise self._look()

    def __contains__(self, item: object) -> bool:
        raise self._look()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return id(self)


class LabelNeeded(BaseException):
    """Internal: a bet read a label the engine has not fixed yet (see :class:`PendingLabel`).

    A ``BaseException``, so that a bet's own ``except Exception`` cannot swallow it: the engine
    catches it, fixes that label every way it can be, and settles again.  A bet that catches it
    anyway (a bare ``except``) is refused: each raise is counted per thread
    (:func:`labels_needed`), and a settle that returns while the count moved is not trusted."""

    def __init__(self, pending: PendingLabel) -> None:
        super().__init__(pending.slot, pending.kind)
        self.pending = pending
        _RAISED.count = getattr(_RAISED, "count", 0) + 1


#: How many :class:`LabelNeeded` this thread has raised: a bet that settles while the count
#: moved caught one (a bare ``except``), and its answer cannot be trusted.
_RAISED = threading.local()


def labels_needed() -> int:
    """How many times this thread has raised :class:`LabelNeeded` (see :data:`_RAISED`)."""
    count: int = getattr(_RAISED, "count", 0)
    return count


def known_label(label: object) -> object:
    """``label``, unless it is pending (then the engine must fix it first)."""
    if type(label) is PendingLabel:
        raise LabelNeeded(label)
    return label


def _label_key(label: object) -> tuple[str, int]:
    if label is None:
        return ("", -1)
    if isinstance(label, _Class | PictureRank):
        return label.key
    if type(label) is PendingLabel:
        return ("~", 0)
    assert isinstance(label, Rank | Suit | Colour)
    return ("named", label.index)


class DealtCard:
    """A dealt card as a bet sees it: its point value always; its rank, suit and colour as far
    as the bet declared it reads them.

    ``rank`` is a :class:`~analyzer.core.cards.Rank` or, read by equality, a
    :class:`RankClass`, or, read as picture or ten, :data:`PICTURE` (cards of value 1-9 and
    tens so read have a named rank); ``suit`` a
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
            return ("card", self.value, known_label(self._card))
        known_label(self._rank)
        known_label(self._suit)
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
        elif isinstance(self._rank, PictureRank):
            text = "P"  # a picture: J, Q or K
        elif self._rank is not None:
            text = f"T{self._rank.number}"  # a 10-valued rank class
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


#: The label :class:`PendingCards` raises.
CARDS_PENDING = PendingLabel(-1, "cards")
