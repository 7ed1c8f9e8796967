"""The shoe: an immutable count of cards per rank (and, when known, per rank and suit)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from analyzer.core.cards import RANK_POINTS, RANKS, SUITS, Card, Rank, parse_card, parse_cards, parse_rank
from analyzer.core.exact import MAX_NUMBER_CHARS, whole_number
from analyzer.errors import ShoeError

#: The fewest cards a shoe may hold: one coup needs at least four.
MIN_CARDS = 4
#: The most cards one coup deals: two to each hand and at most one third card each (the six
#: positions of a coup record).  A shoe of N cards deals min(N, MAX_CARDS) of them to a coup, the
#: engine's whole count: ordered sequences of that many cards.
MAX_CARDS = 6


def _plain_counts(values: tuple[object, ...]) -> bool:
    """True when every count is a plain ``int`` >= 0 (the usual case, checked without building
    a message per count; anything else goes through :func:`_check_count`)."""
    return set(map(type, values)) == _INT and min(values) >= 0  # type: ignore[operator,type-var]


_INT = {int}


def _card_name(i: int) -> str:
    """``card As`` for suited count number ``i`` (rank-major)."""
    return f"card {RANKS[i // 4].label}{SUITS[i % 4].value}"


def _check_count(what: str, n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise ShoeError(f"bad count {n!r} for {what}: counts must be whole numbers >= 0")
    if n < 0:
        raise ShoeError(f"bad count {n} for {what}: counts must be whole numbers >= 0")
    return n


@dataclass(frozen=True)
class Shoe:
    """Cards left in the shoe.

    ``counts`` holds 13 card counts, by rank in the order A, 2, ..., 9, 10, J, Q, K.
    ``suited`` holds 52 counts by (rank, suit) in the order rank-major, suits s, h, d, c, or is
    ``None`` when the suits of the cards are unknown (then suited bets cannot be priced).

    Build with :meth:`standard`, :meth:`from_counts`, :meth:`parse` or :meth:`remove`.
    """

    counts: tuple[int, ...]
    suited: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        # Accept any sequence of counts but store tuples, so shoes hash and compare by value.
        for name in ("counts", "suited"):
            value = getattr(self, name)
            if value is None and name == "suited":
                continue
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise ShoeError(f"bad shoe {name} {value!r}: give a sequence of whole numbers")
            object.__setattr__(self, name, tuple(value))
        if len(self.counts) != 13:
            raise ShoeError(f"a shoe needs 13 rank counts (A..K), got {len(self.counts)}")
        if not _plain_counts(self.counts):
            for rank, n in zip(RANKS, self.counts, strict=True):
                _check_count(f"rank {rank.label}", n)
        if self.suited is not None:
            if len(self.suited) != 52:
                raise ShoeError(f"suited counts need 52 entries, got {len(self.suited)}")
            if not _plain_counts(self.suited):
                for i, n in enumerate(self.suited):
                    _check_count(_card_name(i), n)
            for r in range(13):
                if sum(self.suited[4 * r : 4 * r + 4]) != self.counts[r]:
                    raise ShoeError(f"suited counts of rank {RANKS[r].label} disagree with its count")
        if self.size < MIN_CARDS:
            raise ShoeError(f"a shoe of {self.size} cards cannot deal a coup: it needs at least {MIN_CARDS}")

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """A full shoe of ``decks`` 52-card decks (any whole number >= 1), suits known.

        Raises:
            ShoeError: ``decks`` is not a whole number >= 1.

        >>> Shoe.standard(8).size
        416
        """
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise ShoeError(f"bad number of decks {decks!r}: use a whole number >= 1")
        return _trusted((4 * decks,) * 13, (decks,) * 52)

    @classmethod
    def from_counts(cls, counts: Iterable[int] | Mapping[str | Rank, int]) -> Shoe:
        """A shoe from 13 counts in rank order A..K, or from a mapping rank -> count.

        Mapping keys are ranks or rank text (``"A"``, ``"10"``, ``"T"``, ...); absent ranks
        count 0.  Suits are unknown.

        Raises:
            ShoeError: a count is negative or not whole, or there are fewer than 4 cards.
            CardError: a mapping key is not a rank.
        """
        if isinstance(counts, Mapping):
            values: list[int | None] = [None] * 13
            for key, n in counts.items():
                rank = key if isinstance(key, Rank) else parse_rank(str(key))
                if values[rank.index] is not None:
                    raise ShoeError(f"rank {rank.label} is given twice")
                values[rank.index] = _check_count(f"rank {rank.label}", n)
            return cls(tuple(v or 0 for v in values))
        if isinstance(counts, str | bytes) or not isinstance(counts, Iterable):
            raise ShoeError(f"bad counts {counts!r}: give 13 whole numbers (A..K) or a mapping rank -> count")
        return cls(tuple(counts))

    @classmethod
    def from_suited_counts(cls, suited: Iterable[int]) -> Shoe:
        """A shoe from 52 counts by (rank, suit), rank-major (As, Ah, Ad, Ac, 2s, ...).

        Raises:
            ShoeError: a count is bad or there are fewer than 4 cards.
        """
        if isinstance(suited, str | bytes) or not isinstance(suited, Iterable):
            raise ShoeError(f"bad suited counts {suited!r}: give 52 whole numbers")
        values = tuple(suited)
        if len(values) != 52:
            raise ShoeError(f"suited counts need 52 entries, got {len(values)}")
        if not _plain_counts(values):
            for i, n in enumerate(values):
                _check_count(_card_name(i), n)
        counts = tuple([values[i] + values[i + 1] + values[i + 2] + values[i + 3] for i in range(0, 52, 4)])
        if cls is not Shoe:
            return cls(counts, values)
        shoe = _trusted(counts, values)  # every count checked; the ranks' sums agree by construction
        if shoe.size < MIN_CARDS:
            raise ShoeError(f"a shoe of {shoe.size} cards cannot deal a coup: it needs at least {MIN_CARDS}")
        return shoe

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Shoe:
        """A shoe holding exactly these cards (suits known only if every card has one)."""
        listed = list(cards)
        counts = [0] * 13
        for card in listed:
            counts[card.rank.index] += 1
        if listed and all(c.suit is not None for c in listed):
            suited = [0] * 52
            for card in listed:
                assert card.suit is not None
                suited[4 * card.rank.index + card.suit.index] += 1
            return cls(tuple(counts), tuple(suited))
        return cls(tuple(counts))

    @classmethod
    def parse(cls, text: str) -> Shoe:
        """Parse a shoe given as text, in one of two forms:

        * 13 whole numbers, the counts of A, 2, ..., 9, 10, J, Q, K: ``"4,4,4,4,4,4,4,4,4,4,4,4,4"``
        * ``RANK=COUNT`` pairs, absent ranks 0: ``"8=2,K=3"`` (``:`` works in place of ``=``).
        * with suits: 52 counts by rank then suit (As, Ah, Ad, Ac, 2s, ...), or ``CARD=COUNT``
          pairs with a suit on every card: ``"Kh=2,Ks=1"``.

        Raises:
            ShoeError / CardError: the text is malformed; the message quotes the bad part.
        """
        if not isinstance(text, str):
            raise ShoeError(f"bad shoe {text!r}: give the shoe as text, e.g. '8=2,K=3'")
        parts = _parts(text)
        if not parts:
            raise ShoeError("empty shoe: give 13 counts (A..K) or RANK=COUNT pairs such as 8=2,K=3")
        if any("=" in p or ":" in p for p in parts):
            return cls._parse_pairs(text, parts)
        if len(parts) == 52:
            return cls.from_suited_counts(
                _parse_int(p, f"card {RANKS[i // 4].label}{SUITS[i % 4].value}") for i, p in enumerate(parts)
            )
        if len(parts) != 13:
            raise ShoeError(
                f"bad shoe {text!r}: expected 13 counts (A, 2, ..., 9, 10, J, Q, K) or 52 counts "
                f"by rank and suit, got {len(parts)}; or use RANK=COUNT pairs such as 8=2,K=3"
            )
        return cls(tuple(_parse_int(p, f"rank {r.label}") for p, r in zip(parts, RANKS, strict=True)))

    @classmethod
    def _parse_pairs(cls, text: str, parts: list[str]) -> Shoe:
        entries = count_pairs(text, parts)
        with_suit = [card.suit is not None for card, _ in entries]
        if any(with_suit) and not all(with_suit):
            raise ShoeError(f"bad shoe {text!r}: give a suit on every entry (Kh=2) or on none (K=2)")
        if all(with_suit):
            suited = [0] * 52
            for card, n in entries:
                assert card.suit is not None
                suited[4 * card.rank.index + card.suit.index] = n
            return cls.from_suited_counts(suited)
        by_rank: dict[str | Rank, int] = {card.rank: n for card, n in entries}
        return cls.from_counts(by_rank)

    # -- queries ------------------------------------------------------------------------------

    @cached_property
    def size(self) -> int:
        """Number of cards in the shoe."""
        return sum(self.counts)

    @cached_property
    def suits_alike(self) -> bool:
        """True when every suit of a rank has as many cards (every full shoe, a shoe depleted
        evenly), or the suits are unknown."""
        suited = self.suited
        return suited is None or all(
            suited[i] == suited[i + 1] == suited[i + 2] == suited[i + 3] for i in range(0, 52, 4)
        )

    @cached_property
    def point_counts(self) -> tuple[int, ...]:
        """Cards per point value 0..9 (value 0 sums 10, J, Q, K)."""
        c = self.counts  # A..9 are worth 1..9 (RANK_POINTS), 10, J, Q, K 0
        return (c[9] + c[10] + c[11] + c[12], *c[:9])

    @property
    def decks(self) -> int | None:
        """The number of decks if this is a full standard shoe (suits known and equal), else None."""
        d = self.counts[0] // 4
        if self.suited is not None and d >= 1 and self.suited == (d,) * 52:
            return d
        return None

    def describe(self) -> str:
        """Short text for table headers: ``"8 decks (416 cards)"`` or the counts per rank."""
        d = self.decks
        if d is not None:
            return f"{d} deck{'s' if d > 1 else ''} ({self.size} cards)"
        listed = ", ".join(f"{r.label}={n}" for r, n in zip(RANKS, self.counts, strict=True) if n)
        return f"{self.size} cards: {listed}"

    # -- removal ------------------------------------------------------------------------------

    def remove(self, cards: str | Iterable[Card]) -> Shoe:
        """The shoe without the given cards: text naming each card (``"K 5h 5"``, ``"5,5,9"``),
        text of counts as :meth:`parse` reads them (``RANK=COUNT`` or ``CARD=COUNT`` pairs:
        ``"5=20,9=10"``, ``"Kh=2"``; ``:`` works in place of ``=``), or Card objects.

        A card with a suit is removed from that suit.  Removing a card without a suit from a
        shoe whose suits are known forgets the suits (the shoe becomes rank-only), since which
        suit left is unknown.

        Raises:
            ShoeError: a card is not in the shoe (or not that many of it), fewer than 4 cards
                would remain, a count is not a whole number, a rank or card is counted twice,
                or the text mixes cards and counts (``"K 5=2"``).
            CardError: a card token is malformed.

        >>> Shoe.standard(1).remove("5=3,9:1").counts[4:9]
        (1, 4, 4, 4, 3)
        """
        if isinstance(cards, str) and ("=" in cards or ":" in cards):
            return self._remove_counts(cards)
        listed = _card_list(cards)
        counts = list(self.counts)
        suited = list(self.suited) if self.suited is not None else None
        for card in listed:
            r = card.rank.index
            if counts[r] == 0:
                raise ShoeError(f"cannot remove {card}: the shoe holds no {card.rank.label}")
            counts[r] -= 1
            if card.suit is None:
                suited = None
            elif suited is not None:
                i = 4 * r + card.suit.index
                if suited[i] == 0:
                    raise ShoeError(f"cannot remove {card}: the shoe holds no {card}")
                suited[i] -= 1
        if sum(counts) < MIN_CARDS:
            raise ShoeError(
                f"removing {len(listed)} cards leaves {sum(counts)}: a shoe needs at least {MIN_CARDS}"
            )
        return _trusted(tuple(counts), tuple(suited) if suited is not None else None)

    def _remove_counts(self, text: str) -> Shoe:
        """:meth:`remove` for counts (``"5=20,9=10"``)."""
        parts = _parts(text)
        if not all("=" in p for p in parts):
            bad = next(p for p in parts if "=" not in p)
            raise ShoeError(
                f"bad cards to remove {text!r}: {bad!r} is a card among counts; give cards ('K 5h 5') "
                "or RANK=COUNT pairs ('5=20,9=10'), not both"
            )
        counts = list(self.counts)
        suited = list(self.suited) if self.suited is not None else None
        total = 0
        for card, n in count_pairs(text, parts):
            r = card.rank.index
            if n > counts[r]:
                raise ShoeError(f"cannot remove {n} of {card.rank.label}: the shoe holds {counts[r]}")
            counts[r] -= n
            total += n
            if n and card.suit is None:
                suited = None
            elif n and suited is not None:
                i = 4 * r + card.suit.index  # type: ignore[union-attr]
                if n > suited[i]:
                    raise ShoeError(f"cannot remove {n} of {card}: the shoe holds {suited[i]}")
                suited[i] -= n
        if sum(counts) < MIN_CARDS:
            raise ShoeError(f"removing {total} cards leaves {sum(counts)}: a shoe needs at least {MIN_CARDS}")
        return Shoe(tuple(counts), tuple(suited) if suited is not None else None)


def _parts(text: str) -> list[str]:
    """The entries of shoe text, split at commas, semicolons and spaces, ``:`` read as ``=``
    and spaces around it dropped (``"8 = 2; K:3"`` -> ``["8=2", "K=3"]``)."""
    return [p for p in re.split(r"[,;\s]+", re.sub(r"\s*[=:]\s*", "=", text.strip())) if p]


def count_pairs(text: str, parts: list[str] | None = None) -> list[tuple[Card, int]]:
    """The ``RANK=COUNT`` / ``CARD=COUNT`` pairs of ``text`` (its entries ``parts``, by default
    split as :meth:`Shoe.parse` splits them), as (card, count): the one reader of counts for
    ``--shoe`` and ``--remove``.  A count is a whole number of ASCII digits
    (:func:`~analyzer.core.exact.whole_number`).

    Raises:
        ShoeError: an entry is not ``KEY=COUNT``, a count is not a whole number, or a rank (or
            card) appears twice; CardError: a key names no rank or card.

    >>> [(str(c), n) for c, n in count_pairs("5=20, Kh:2")]
    [('5', 20), ('Kh', 2)]
    """
    entries: list[tuple[Card, int]] = []
    for part in _parts(text) if parts is None else parts:
        key, sep, value = part.replace(":", "=").partition("=")
        if not sep:
            raise ShoeError(f"bad shoe entry {part!r}: expected RANK=COUNT, e.g. K=32 or Kh=8")
        entries.append((parse_card(key), _parse_int(value, f"card {key.strip()}")))
    seen: set[Card] = set()
    for card, _ in entries:
        if card in seen:
            raise ShoeError(f"{'card' if card.suit else 'rank'} {card} appears twice in {text!r}")
        seen.add(card)
    return entries


def _card_list(cards: object) -> list[Card]:
    """Cards given as text, or as Card objects / card tokens."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, bytes) or not isinstance(cards, Iterable):
        raise ShoeError(f"bad cards {cards!r}: give text such as 'K 5h' or a list of cards")
    return [c if isinstance(c, Card) else _one_card(c) for c in cards]


def _one_card(token: object) -> Card:
    if not isinstance(token, str):
        raise ShoeError(f"bad card {token!r}: give a Card or text such as 'Kh'")
    return parse_card(token)


def _parse_int(text: str, what: str) -> int:
    """A count of a shoe's text: a whole number >= 0 of at most
    :data:`~analyzer.core.exact.MAX_NUMBER_CHARS` ASCII digits.

    Raises:
        ShoeError: not such a number; a longer run of digits names the limit.
    """
    value = whole_number(text)
    if value is None:
        raw = text.strip()
        if raw.isascii() and raw.isdigit():  # digits only: too many of them
            raise ShoeError(
                f"bad count {raw[:12]}...{raw[-6:]} ({len(raw):,} characters) for {what}: a count "
                f"has at most {MAX_NUMBER_CHARS} digits"
            )
        shown = raw if len(raw) <= 40 else f"{raw[:12]}...{raw[-6:]}"
        raise ShoeError(
            f"bad count {shown!r} for {what}: use a whole number >= 0 (digits 0-9, at most "
            f"{MAX_NUMBER_CHARS} of them)"
        )
    return value


def _trusted(counts: tuple[int, ...], suited: tuple[int, ...] | None) -> Shoe:
    """A shoe from counts this module derived from a checked shoe (a removal, a standard shoe):
    the checks of ``__post_init__`` skipped, since a live shoe is built once per coup."""
    shoe = object.__new__(Shoe)
    object.__setattr__(shoe, "counts", counts)
    object.__setattr__(shoe, "suited", suited)
    return shoe


assert (*range(1, 10), 0, 0, 0, 0) == RANK_POINTS, "Shoe.point_counts reads the ranks' points in this order"
