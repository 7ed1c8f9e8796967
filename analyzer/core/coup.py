"""Resolve a concrete sequence of cards, in dealing order, into a coup."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.core.cards import Card, hand_total, parse_cards
from analyzer.core.tableau import NATURALS, banker_draws, player_draws
from analyzer.errors import CoupError


class Winner(enum.Enum):
    """Who wins the coup."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"

    @property
    def label(self) -> str:
        """``"Player"``, ``"Banker"`` or ``"Tie"``."""
        return self.value.capitalize()


@dataclass(frozen=True)
class Coup:
    """A finished coup.

    ``player`` and ``banker`` are the hands (2 or 3 cards each, in the order dealt);
    ``cards_used`` is 4, 5 or 6.
    """

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    player_natural: bool
    banker_natural: bool
    winner: Winner
    cards_used: int

    @property
    def natural(self) -> bool:
        """True when either side had a natural (8 or 9 on two cards)."""
        return self.player_natural or self.banker_natural

    @property
    def player_drew(self) -> bool:
        """True when the Player took a third card."""
        return len(self.player) == 3

    @property
    def banker_drew(self) -> bool:
        """True when the Banker took a third card."""
        return len(self.banker) == 3

    @property
    def margin(self) -> int:
        """Winning margin in points, 0 for a tie."""
        return abs(self.player_total - self.banker_total)

    def announce(self) -> str:
        """The coup as a dealer would announce it, e.g.
        ``"Player 2 3 6 (1), Banker 4 10 A (5): Banker wins"``."""

        def side(name: str, hand: tuple[Card, ...], total: int, natural: bool) -> str:
            tag = f"natural {total}" if natural else str(total)
            return f"{name} {' '.join(map(str, hand))} ({tag})"

        result = "Tie" if self.winner is Winner.TIE else f"{self.winner.label} wins"
        return (
            f"{side('Player', self.player, self.player_total, self.player_natural)}, "
            f"{side('Banker', self.banker, self.banker_total, self.banker_natural)}: {result}"
        )


def _token(card: object) -> str:
    if not isinstance(card, str):
        raise CoupError(f"bad card {card!r}: give a Card or text such as 'Kh'")
    return card


def resolve(cards: Sequence[Card] | str) -> Coup:
    """Deal a coup from ``cards`` in dealing order (Player, Banker, Player, Banker, then third
    cards by the tableau) and return the finished :class:`Coup`.

    Cards after those the coup uses are ignored (``cards_used`` says how many were used).

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
        seq = [c if isinstance(c, Card) else parse_cards([_token(c)])[0] for c in cards]
    if len(seq) < 4:
        raise CoupError(f"a coup needs at least 4 cards (Player, Banker, Player, Banker); got {len(seq)}")
    player = [seq[0], seq[2]]
    banker = [seq[1], seq[3]]
    p2 = hand_total([c.point for c in player])
    b2 = hand_total([c.point for c in banker])
    used = 4
    if p2 not in NATURALS and b2 not in NATURALS:
        player_third: int | None = None
        if player_draws(p2):
            if len(seq) <= used:
                raise CoupError(f"the Player draws on {p2} but the sequence has no 5th card")
            player.append(seq[used])
            player_third = seq[used].point
            used += 1
        if banker_draws(b2, player_third):
            if len(seq) <= used:
                raise CoupError(f"the Banker draws on {b2} but the sequence has no card {used + 1}")
            banker.append(seq[used])
            used += 1
    pt = hand_total([c.point for c in player])
    bt = hand_total([c.point for c in banker])
    winner = Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE
    return Coup(
        player=tuple(player),
        banker=tuple(banker),
        player_total=pt,
        banker_total=bt,
        player_natural=p2 in NATURALS,
        banker_natural=b2 in NATURALS,
        winner=winner,
        cards_used=used,
    )
