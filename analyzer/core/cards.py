"""Ranks, suits, point values, and card text.

Point values follow every rule sheet (RULES.md, "Cards"): Ace = 1, 2-9 = face value,
10, J, Q, K = 0.  Card text is ``A``, ``2``..``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``,
optionally followed by a suit letter ``s h d c``; case does not matter.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from analyzer.errors import CardError


class Rank(enum.Enum):
    """The 13 ranks, valued by their one-character symbol (``T`` for ten)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def index(self) -> int:
        """Position 0..12 in the order A, 2, ..., 9, T, J, Q, K."""
        return _RANK_INDEX[self._value_]  # by the symbol: a string's hash is kept, a member's is not

    @property
    def point(self) -> int:
        """Baccarat point value 0..9 (A = 1, 2-9 face value, T J Q K = 0)."""
        return RANK_POINTS[self.index]

    @property
    def label(self) -> str:
        """Printed symbol: ``A``, ``2``..``9``, ``10``, ``J``, ``Q``, ``K``."""
        return "10" if self is Rank.TEN else self.value

    @property
    def order(self) -> int:
        """Poker order 1..13 (A = 1 low, 2..10, J = 11, Q = 12, K = 13); an ace also plays high
        (14) where a hand rule says so."""
        return self.index + 1


class Suit(enum.Enum):
    """The four suits, valued by their lower-case letter."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def index(self) -> int:
        """Position 0..3 in the order s, h, d, c."""
        return _SUIT_INDEX[self._value_]

    @property
    def colour(self) -> Colour:
        """Red for hearts and diamonds, black for spades and clubs."""
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♠ ♥ ♦ ♣``."""
        return _SYMBOLS[self.index]


class Colour(enum.Enum):
    """The two colours: red (hearts, diamonds) and black (spades, clubs)."""

    RED = "red"
    BLACK = "black"

    @property
    def index(self) -> int:
        """0 for red, 1 for black."""
        return 0 if self is Colour.RED else 1


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
COLOURS: tuple[Colour, ...] = tuple(Colour)
_RANK_INDEX: dict[str, int] = {r.value: i for i, r in enumerate(RANKS)}  # the hot paths read them often
_SUIT_INDEX: dict[str, int] = {s.value: i for i, s in enumerate(SUITS)}
_SYMBOLS = "\u2660\u2665\u2666\u2663"
#: Point value of each rank, indexed like ``RANKS``.
RANK_POINTS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
#: Ranks of each point value 0..9 (value 0 holds T, J, Q, K).
RANKS_OF_POINT: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, p in enumerate(RANK_POINTS) if p == v) for v in range(10)
)


@dataclass(frozen=True)
class Card:
    """One card: a rank and, when known, a suit (``None`` means "any suit")."""

    rank: Rank
    suit: Suit | None = None

    @property
    def point(self) -> int:
        """Baccarat point value 0..9."""
        return self.rank.point

    def __str__(self) -> str:
        return self.rank.label + (self.suit.value if self.suit else "")


_RANK_TEXT = {r.value: r for r in RANKS} | {"10": Rank.TEN}
_SUIT_TEXT = {s.value: s for s in SUITS}


def parse_rank(token: str) -> Rank:
    """Parse a rank symbol (``A``, ``2``..``9``, ``10``/``T``, ``J``, ``Q``, ``K``), any case.

    Raises:
        CardError: the token is not a rank.

    >>> parse_rank("t"), parse_rank("10")
    (<Rank.TEN: 'T'>, <Rank.TEN: 'T'>)
    """
    rank = _RANK_TEXT.get(token.strip().upper())
    if rank is None:
        raise CardError(f"bad rank {token!r}: use A, 2-9, 10 or T, J, Q, K")
    return rank


def parse_card(token: str) -> Card:
    """Parse one card such as ``"Ks"``, ``"10h"``, ``"t"`` or ``"7"`` (suit optional).

    Raises:
        CardError: the token names no card; the message quotes it.

    >>> str(parse_card("10H")), parse_card("q").point
    ('10h', 0)
    """
    known = _CARD_TOKENS.get(token)
    if known is not None:
        return known
    text = token.strip()
    low = text.lower()
    if len(low) >= 2 and low[-1] in _SUIT_TEXT and low[:-1].upper() in _RANK_TEXT:
        return Card(_RANK_TEXT[low[:-1].upper()], _SUIT_TEXT[low[-1]])
    if low.upper() in _RANK_TEXT:
        return Card(_RANK_TEXT[low.upper()])
    raise CardError(
        f"bad card {token!r}: use a rank A, 2-9, 10 or T, J, Q, K, "
        "optionally followed by a suit s, h, d or c (e.g. 'Kh', '10s', '7')"
    )


#: Every card token written without spaces (``"Ks"``, ``"kS"``, ``"10h"``, ``"t"``, ``"7"``), to
#: its card: the common case of :func:`parse_card` as one lookup (a card is a frozen value).
_CARD_TOKENS: dict[str, Card] = {}
for _rank_text, _rank in _RANK_TEXT.items():
    for _spelling in {_rank_text, _rank_text.lower()}:
        _CARD_TOKENS[_spelling] = Card(_rank)
        for _suit_text, _suit in _SUIT_TEXT.items():
            for _suit_spelling in (_suit_text, _suit_text.upper()):
                _CARD_TOKENS[_spelling + _suit_spelling] = Card(_rank, _suit)
del _rank_text, _rank, _spelling, _suit_text, _suit, _suit_spelling


def parse_cards(text: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parse cards separated by spaces or commas (or given as a list of tokens).

    Raises:
        CardError: a token names no card.

    >>> [str(c) for c in parse_cards("2 4, 3 10 6 A")]
    ['2', '4', '3', '10', '6', 'A']
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


class Cards(list[Card]):
    """Cards in dealing order, a ``list`` of :class:`Card` whose repr is their text, so that a
    failing test prints ``Cards('5h Kd 9s 9c 2h 7d')`` rather than nested reprs; the repr
    evaluates back to equal cards.  Built from text or from cards.

    Raises:
        CardError: a token of the text names no card.

    >>> Cards("5h Kd 10s")
    Cards('5h Kd 10s')
    >>> Cards("5h Kd") == [Card(Rank.FIVE, Suit.HEARTS), Card(Rank.KING, Suit.DIAMONDS)]
    True
    """

    def __init__(self, cards: str | Iterable[Card] = ()) -> None:
        super().__init__(parse_cards(cards) if isinstance(cards, str) else cards)

    def __repr__(self) -> str:
        return f"Cards({' '.join(map(str, self))!r})"

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The repr for pretty printers (IPython's, hypothesis's "Falsifying example")."""
        printer.text(repr(self))


def hand_total(points: list[int] | tuple[int, ...]) -> int:
    """Baccarat total 0..9 of a hand given its cards' point values: the sum modulo 10.

    >>> hand_total((8, 7)), hand_total((6, 4))
    (5, 0)
    """
    return sum(points) % 10
