"""The vocabulary over a set of dealt cards: a :class:`CardGroup` is a multiset of
:class:`~analyzer.core.dealt.DealtCard` with the features side bets pay on.

The same vocabulary serves Python payout functions (``coup.cards(PLAYER_FIRST_TWO).suited``)
and TOML bet files (``when = { player_first_two = { suited = true } }``).  Each feature reads
only what it needs, and :data:`FEATURE_NEEDS` says what that is, so a bet's reads (and the
engine's refinement) follow from the features it uses.  Ranks and suits read "by equality" work
for every feature that compares cards; a feature that names a rank or a suit, or orders ranks
(straights), needs them named.

Poker words follow the published side bets (docs/ARCHITECTURE.md, "Hand vocabulary"):
a *straight* is distinct consecutive ranks with the ace low (A-2-3...) or high (...Q-K-A), no
wrap-around; *of a kind* counts cards of one rank; *suited* / *flush* means every card of the
set has one suit; a *royal flush* is a straight flush up to the ace played high (J-Q-K-A, the
"mini royal" of four-card bets).  :data:`FOUR_CARD_POKER` ranks four-card hands as Four Card
Poker and the four-card baccarat side bets do; from a multi-deck shoe a flush may hold a pair.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Iterator

from analyzer.core.cards import COLOURS, SUITS, Colour, Rank, Suit
from analyzer.core.dealt import DealtCard, LabelNeeded, PendingLabel, PictureRank, RankClass
from analyzer.core.reads import RankDetail, SuitDetail
from analyzer.errors import UndeclaredReadError

#: Four-card poker categories, best first (Four Card Poker's ranking, which the first-four-card
#: side bets follow, e.g. Jackpot Baccarat): four of a kind, straight flush, three of a kind,
#: flush, straight, two pair, pair, high card.  With several decks a flush may hold a pair or
#: two pairs of identical cards (it counts as the flush), and a suited three or four of a kind
#: counts as the three or four of a kind.
FOUR_CARD_POKER: tuple[str, ...] = (
    "four_of_a_kind", "straight_flush", "three_of_a_kind", "flush", "straight", "two_pair", "pair",
    "high_card",
)

#: What each feature needs: (rank detail, suit detail).
FEATURE_NEEDS: dict[str, tuple[RankDetail, SuitDetail]] = {
    "size": (RankDetail.NONE, SuitDetail.NONE),
    "total": (RankDetail.NONE, SuitDetail.NONE),
    "values": (RankDetail.NONE, SuitDetail.NONE),
    "count_value": (RankDetail.NONE, SuitDetail.NONE),
    "highest_value": (RankDetail.NONE, SuitDetail.NONE),
    "lowest_value": (RankDetail.NONE, SuitDetail.NONE),
    "pair": (RankDetail.EQUALITY, SuitDetail.NONE),
    "of_a_kind": (RankDetail.EQUALITY, SuitDetail.NONE),
    "rank_pattern": (RankDetail.EQUALITY, SuitDetail.NONE),
    "pairs": (RankDetail.EQUALITY, SuitDetail.NONE),
    "two_pair": (RankDetail.EQUALITY, SuitDetail.NONE),
    "full_house": (RankDetail.EQUALITY, SuitDetail.NONE),
    "same_card_pair": (RankDetail.EQUALITY, SuitDetail.SAME_CARD),
    "pictures": (RankDetail.PICTURE, SuitDetail.NONE),
    "ranks": (RankDetail.NAMED, SuitDetail.NONE),
    "count_rank": (RankDetail.NAMED, SuitDetail.NONE),
    "pair_of": (RankDetail.NAMED, SuitDetail.NONE),
    "straight": (RankDetail.NAMED, SuitDetail.NONE),
    "suited": (RankDetail.NONE, SuitDetail.SUIT_EQUALITY),
    "flush": (RankDetail.NONE, SuitDetail.SUIT_EQUALITY),
    "straight_flush": (RankDetail.NAMED, SuitDetail.SUIT_EQUALITY),
    "royal_flush": (RankDetail.NAMED, SuitDetail.SUIT_EQUALITY),
    "four_card_poker": (RankDetail.NAMED, SuitDetail.SUIT_EQUALITY),
    "one_colour": (RankDetail.NONE, SuitDetail.COLOUR_EQUALITY),
    "colour": (RankDetail.NONE, SuitDetail.COLOUR),
    "count_colour": (RankDetail.NONE, SuitDetail.COLOUR),
    "suit": (RankDetail.NONE, SuitDetail.SUIT),
    "count_suit": (RankDetail.NONE, SuitDetail.SUIT),
    "count_card": (RankDetail.NAMED, SuitDetail.SUIT),
}


_KEY = operator.attrgetter("_key")  # a card's identity, computed once (DealtCard.key)


class CardGroup:
    """The dealt cards of a set of positions, as a multiset (order within the set is not
    kept).  Iterating gives the cards sorted by what is known of them."""

    __slots__ = ("_cards", "_pattern", "flag")

    def __init__(
        self, cards: Iterable[DealtCard], flag: tuple[str, str, int] | PendingLabel | None = None
    ) -> None:
        """``flag``: for a set read "one suit / one colour", whether it is (see
        :data:`analyzer.core.coup.Flag`); the suit features then answer from it."""
        self._cards = tuple(sorted(cards, key=_KEY))
        self.flag = flag
        self._pattern: tuple[int, ...] | None = None

    @classmethod
    def of_ordered(
        cls, cards: tuple[DealtCard, ...], flag: tuple[str, str, int] | PendingLabel | None = None
    ) -> CardGroup:
        """A group from the ``_cards`` of another (already in order): no sort (the engine
        builds many groups of the same cards with other flags)."""
        group = cls.__new__(cls)
        group._cards = cards
        group.flag = flag
        group._pattern = None
        return group

    def _flag(self) -> tuple[str, str, int]:
        flag = self.flag
        if isinstance(flag, PendingLabel):
            raise LabelNeeded(flag)
        assert flag is not None
        return flag

    def __iter__(self) -> Iterator[DealtCard]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"CardGroup({' '.join(map(str, self._cards))})"

    # -- point values ------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of cards (undealt positions hold none)."""
        return len(self._cards)

    @property
    def values(self) -> tuple[int, ...]:
        """Point values, ascending."""
        return tuple(sorted(c.value for c in self._cards))

    @property
    def total(self) -> int:
        """Baccarat total of the cards: the sum of their point values modulo 10."""
        return sum(c.value for c in self._cards) % 10

    def count_value(self, value: int) -> int:
        """How many cards have point value ``value`` (0-9)."""
        return sum(1 for c in self._cards if c.value == value)

    def of_value(self, value: int) -> CardGroup:
        """The cards of point value ``value`` (0-9), as a group of their own (e.g. the nines of
        a hand, to ask whether they are suited); it reads what this group reads."""
        return CardGroup(c for c in self._cards if c.value == value)

    @property
    def highest_value(self) -> int | None:
        """The highest point value (10, J, Q, K count 0); ``None`` for no cards."""
        return max((c.value for c in self._cards), default=None)

    @property
    def lowest_value(self) -> int | None:
        """The lowest point value; ``None`` for no cards."""
        return min((c.value for c in self._cards), default=None)

    # -- ranks by equality -------------------------------------------------------------------

    @property
    def rank_pattern(self) -> tuple[int, ...]:
        """How many cards share each rank, largest first: (2, 1) one pair among three cards,
        (3, 3) two sets of three of a kind, (2, 2, 2) three pairs."""
        # kept: a group's cards never change, and a bet asks several of these of one group
        if self._pattern is None:
            counts = Counter((c.value, _key(c.rank)) for c in self._cards)
            self._pattern = tuple(sorted(counts.values(), reverse=True))
        return self._pattern

    @property
    def of_a_kind(self) -> int:
        """The most cards of one rank (1 when all ranks differ, 0 for no cards)."""
        return max(self.rank_pattern, default=0)

    @property
    def pair(self) -> bool:
        """At least two cards share a rank."""
        return self.of_a_kind >= 2

    @property
    def pairs(self) -> int:
        """How many ranks have two or more cards."""
        return sum(1 for n in self.rank_pattern if n >= 2)

    @property
    def two_pair(self) -> bool:
        """Exactly two ranks hold exactly two cards each, and no rank more."""
        return sorted(n for n in self.rank_pattern if n >= 2) == [2, 2]

    @property
    def full_house(self) -> bool:
        """Three cards of one rank and two of another (among the cards, nothing more)."""
        return sorted(n for n in self.rank_pattern if n >= 2) == [2, 3]

    @property
    def same_card_pair(self) -> bool:
        """At least two of the cards are the same card (same rank and suit)."""
        counts = Counter(c.card_key for c in self._cards)
        return max(counts.values(), default=0) >= 2

    # -- pictures -------------------------------------------------------------------------------

    @property
    def pictures(self) -> int:
        """How many cards are pictures (J, Q or K; a 10 is not one).  Reads only whether each
        10-valued card is a picture (``ranks='picture'``), or named ranks."""
        return sum(1 for c in self._cards if c.value == 0 and _is_picture(c))

    # -- named ranks ----------------------------------------------------------------------------

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks by name, in A..K order (needs named ranks)."""
        return tuple(sorted((_named_rank(c) for c in self._cards), key=lambda r: r.index))

    def count_rank(self, rank: Rank) -> int:
        """How many cards have rank ``rank`` (for A-9 the point value tells; only 10, J, Q and
        K need named ranks)."""
        if rank.point != 0:
            return self.count_value(rank.point)
        return sum(1 for c in self._cards if c.value == 0 and _named_rank(c) is rank)

    def pair_of(self, rank: Rank) -> bool:
        """At least two cards of rank ``rank``."""
        return self.count_rank(rank) >= 2

    @property
    def straight(self) -> bool:
        """Distinct consecutive ranks, ace low (A-2-3...) or high (...Q-K-A), no wrap-around;
        False for fewer than two cards."""
        orders = sorted(r.order for r in self.ranks)
        if len(orders) < 2 or len(set(orders)) != len(orders):
            return False
        if orders[-1] - orders[0] == len(orders) - 1:
            return True
        high = sorted(14 if o == 1 else o for o in orders)
        return high[-1] - high[0] == len(high) - 1

    # -- suits and colours -----------------------------------------------------------------------

    @property
    def suited(self) -> bool:
        """Every card has one suit (True for a single card)."""
        if self.flag is not None:
            kind, state, _ = self._flag()
            if kind == "suit" or state == "mixed":
                return state == "one"
            raise UndeclaredReadError("a bet read whether cards share a suit, but declared colours only")
        suits = [c.suit for c in self._cards]
        return all(s == suits[0] for s in suits[1:])

    @property
    def flush(self) -> bool:
        """Same as :attr:`suited`: every card of the set has one suit."""
        return self.suited

    @property
    def straight_flush(self) -> bool:
        """A straight, all of one suit."""
        return self.straight and self.suited

    @property
    def royal_flush(self) -> bool:
        """A straight flush whose top card is an ace played high (Q-K-A, J-Q-K-A, 10-J-Q-K-A);
        False for fewer than two cards."""
        orders = sorted(r.order for r in self.ranks)
        return self.straight_flush and orders[0] == 1 and orders[-1] == 13

    @property
    def four_card_poker(self) -> str | None:
        """The :data:`FOUR_CARD_POKER` category of exactly four cards (``None`` for another
        number of cards), e.g. ``"three_of_a_kind"``; a royal flush is a ``"straight_flush"``
        (ask :attr:`royal_flush` to tell it apart)."""
        if len(self._cards) != 4:
            return None
        pattern = self.rank_pattern
        if pattern[0] == 4:
            return "four_of_a_kind"
        straight = len(pattern) == 4 and self.straight
        suited = self.suited
        if straight and suited:
            return "straight_flush"
        if pattern[0] == 3:
            return "three_of_a_kind"
        if suited:
            return "flush"
        if straight:
            return "straight"
        if pattern == (2, 2):
            return "two_pair"
        return "pair" if pattern[0] == 2 else "high_card"

    @property
    def one_colour(self) -> bool:
        """Every card has one colour."""
        if self.flag is not None:
            kind, state, _ = self._flag()
            if kind == "colour" or state == "one":
                return state == "one"
            raise UndeclaredReadError("a bet read whether cards share a colour, but declared one-suit only")
        colours = [c.colour for c in self._cards]
        return all(x == colours[0] for x in colours[1:])

    def colour(self, colour: Colour) -> bool:
        """Every card is of colour ``colour`` (False for no cards)."""
        if self.flag is not None:
            kind, state, label = self._flag()
            if state == "mixed" and kind == "colour":
                return False
            if state == "one" and label >= 0:
                named = COLOURS[label] if kind == "colour" else SUITS[label].colour
                return named is colour
            raise UndeclaredReadError("a bet names a colour: declare suits='one-colour-named' (or finer)")
        return bool(self._cards) and all(_named_colour(c) is colour for c in self._cards)

    def count_colour(self, colour: Colour) -> int:
        """How many cards are of colour ``colour``."""
        return sum(1 for c in self._cards if _named_colour(c) is colour)

    def suit(self, suit: Suit) -> bool:
        """Every card is of suit ``suit`` (False for no cards)."""
        if self.flag is not None:
            kind, state, label = self._flag()
            if state == "mixed":
                return False
            if kind == "suit" and label >= 0:
                return SUITS[label] is suit
            raise UndeclaredReadError("a bet names a suit: declare suits='one-suit-named' (or finer)")
        return bool(self._cards) and all(_named_suit(c) is suit for c in self._cards)

    def count_suit(self, suit: Suit) -> int:
        """How many cards are of suit ``suit``."""
        return sum(1 for c in self._cards if _named_suit(c) is suit)

    def count_card(self, rank: Rank, suit: Suit) -> int:
        """How many cards are the card ``rank`` of ``suit`` (only the suits of cards of that
        point value are read, and the rank only for 10, J, Q, K)."""
        return sum(1 for c in self._cards if c.value == rank.point
                   and (rank.point != 0 or _named_rank(c) is rank) and _named_suit(c) is suit)


def _key(label: object) -> object:
    if isinstance(label, PictureRank):
        raise UndeclaredReadError(
            "a bet compares the ranks of cards, but it declared it reads only whether 10-valued cards "
            "are pictures: declare ranks='equality' (or named)"
        )
    return label.key if isinstance(label, RankClass) else label


def _is_picture(card: DealtCard) -> bool:
    """True for a J, Q or K (a 10-valued card read at ``ranks='picture'`` or named)."""
    rank = card.rank
    if isinstance(rank, PictureRank):
        return True
    if not isinstance(rank, Rank):
        raise UndeclaredReadError(
            "a bet asks whether a card is a picture (J, Q, K) or a ten: declare ranks='picture' (or named)"
        )
    return rank.point == 0 and rank is not Rank.TEN


def _named_rank(card: DealtCard) -> Rank:
    rank = card.rank
    if not isinstance(rank, Rank):
        raise UndeclaredReadError("a bet needs the ranks of 10-valued cards by name: declare ranks='named'")
    return rank


def _named_suit(card: DealtCard) -> Suit:
    suit = card.suit
    if not isinstance(suit, Suit):
        raise UndeclaredReadError("a bet names a suit: declare suits='suit'")
    return suit


def _named_colour(card: DealtCard) -> Colour:
    colour = card.colour
    if not isinstance(colour, Colour):
        raise UndeclaredReadError("a bet names a colour: declare suits='colour'")
    return colour
