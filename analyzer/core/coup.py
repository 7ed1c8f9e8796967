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
  (:class:`~analyzer.core.dealt.RankClass`, :class:`~analyzer.core.dealt.SuitClass`,
  :class:`~analyzer.core.dealt.ColourClass`): they compare equal to each other, and comparing
  one with a named rank or suit raises, since the bet declared it does not name them.

``Winner`` compares equal to its text (``coup.winner == "banker"``).  The dealt cards are
:class:`~analyzer.core.dealt.DealtCard`; a bet record's classes are numbered by
:mod:`analyzer.core.canonical`; records go to and from JSON in :mod:`analyzer.core.coup_json`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any

from analyzer.core.canonical import record_blocks
from analyzer.core.cards import Card, hand_total, parse_cards
from analyzer.core.dealt import DealtCard, Flag, card_of
from analyzer.core.hands import CardGroup
from analyzer.core.reads import BASE_FIELDS, FIELD_INDEX, POSITIONS, PositionSet, Reads
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

def build_record(
    fields: Sequence[object],
    blocks: Sequence[tuple[PositionSet, Sequence[DealtCard]]],
    reads: Reads,
    flags: Sequence[Flag] | None = None,
) -> Coup:
    """The record a bet with ``reads`` sees: ``fields`` (base fields, UNKNOWN where not read)
    and, per block of ``reads``, its dealt cards; ranks and suits are reduced to what ``reads``
    tells apart, anonymous classes numbered canonically (the smallest labelling under renaming
    the classes: :mod:`analyzer.core.canonical`), so two coups that a bet cannot tell apart give
    equal records.  For the "one
    suit / colour" reads, each block carries its flag (from ``flags`` when the cards no longer
    show their suits, else from the cards).  The one builder of bet records, for the engine
    and the checkers.

    Raises:
        UndeclaredReadError: a card lacks the rank or suit ``reads`` needs.
    """
    return Coup(fields, None, record_blocks(blocks, reads, flags))


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
    if tableau.player_draws_third(p2, b2):
        if len(seq) <= used:
            raise CoupError(f"the Player draws on {p2} but the sequence has no 5th card")
        third_p = seq[used]
        used += 1
    if tableau.banker_draws_third(p2, b2, third_p.point if third_p else None):
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
