"""What a finished coup looks like to a bet: the features the enumerator tallies.

A :class:`Features` record is shoe-independent; the enumerator counts, for a shoe, how many
ordered card sequences end in each record.  Bets are payout functions over these records.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from analyzer.core.coup import Coup, Winner


class Level(enum.IntEnum):
    """How finely the enumerator must tell cards apart (coarsest first).

    VALUE: the 10 point values (main bets and most side bets); RANK: the 13 ranks of each side's
    first two cards (pair bets); CARD: rank and suit of those cards (suited pair bets).
    """

    VALUE = 0
    RANK = 1
    CARD = 2


class Features(NamedTuple):
    """The features of one finished coup that bets may use.

    Totals are 0-9; ``*_cards`` are 2 or 3; ``*_third`` is the point value 0-9 of the side's
    third card or ``None`` when it stood.  The pair fields are ``None`` unless the enumerator
    ran at a level that tells them: ``*_pair`` (first two cards of that side have the same rank)
    needs :attr:`Level.RANK`, ``*_suited_pair`` (same rank and suit) needs :attr:`Level.CARD`.
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_third: int | None
    banker_third: int | None
    player_pair: bool | None = None
    banker_pair: bool | None = None
    player_suited_pair: bool | None = None
    banker_suited_pair: bool | None = None

    @property
    def winner(self) -> Winner:
        """Player, Banker or Tie."""
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        if self.banker_total > self.player_total:
            return Winner.BANKER
        return Winner.TIE

    @property
    def player_natural(self) -> bool:
        """The Player's first two cards total 8 or 9."""
        return self.player_cards == 2 and self.player_total >= 8

    @property
    def banker_natural(self) -> bool:
        """The Banker's first two cards total 8 or 9."""
        return self.banker_cards == 2 and self.banker_total >= 8

    @property
    def natural(self) -> bool:
        """Either side has a natural."""
        return self.player_natural or self.banker_natural

    @property
    def margin(self) -> int:
        """Winning margin in points (0 on a tie)."""
        return abs(self.player_total - self.banker_total)

    @property
    def cards(self) -> int:
        """Cards dealt in the coup: 4, 5 or 6."""
        return self.player_cards + self.banker_cards

    @property
    def winner_total(self) -> int | None:
        """Final total of the winning side (``None`` on a tie)."""
        w = self.winner
        return None if w is Winner.TIE else (self.player_total if w is Winner.PLAYER else self.banker_total)

    @property
    def winner_cards(self) -> int | None:
        """Number of cards of the winning side (``None`` on a tie)."""
        w = self.winner
        return None if w is Winner.TIE else (self.player_cards if w is Winner.PLAYER else self.banker_cards)

    def project(self, level: Level, thirds: bool = True) -> Features:
        """The same record with the fields finer than ``level`` (and, if ``thirds`` is False,
        the third-card values) blanked, so records that differ only there merge."""
        rec = self
        if not thirds:
            rec = rec._replace(player_third=None, banker_third=None)
        if level < Level.CARD:
            rec = rec._replace(player_suited_pair=None, banker_suited_pair=None)
        if level < Level.RANK:
            rec = rec._replace(player_pair=None, banker_pair=None)
        return rec


def features_of(coup: Coup) -> Features:
    """The full-level :class:`Features` of a resolved coup (pairs need suits on both cards to
    tell suited pairs; without suits, ``*_suited_pair`` is ``None``)."""

    def pair(hand: tuple[object, ...]) -> tuple[bool, bool | None]:
        a, b = coup.player[:2] if hand is coup.player else coup.banker[:2]
        same_rank = a.rank is b.rank
        if a.suit is None or b.suit is None:
            return same_rank, None
        return same_rank, same_rank and a.suit is b.suit

    pp, ps = pair(coup.player)
    bp, bs = pair(coup.banker)
    return Features(
        player_total=coup.player_total,
        banker_total=coup.banker_total,
        player_cards=len(coup.player),
        banker_cards=len(coup.banker),
        player_third=coup.player[2].point if len(coup.player) == 3 else None,
        banker_third=coup.banker[2].point if len(coup.banker) == 3 else None,
        player_pair=pp,
        banker_pair=bp,
        player_suited_pair=ps,
        banker_suited_pair=bs,
    )


#: The level each finer field needs (fields not listed need only Level.VALUE).
FIELD_LEVEL: dict[str, Level] = {
    "player_pair": Level.RANK,
    "banker_pair": Level.RANK,
    "player_suited_pair": Level.CARD,
    "banker_suited_pair": Level.CARD,
}
THIRD_FIELDS = frozenset({"player_third", "banker_third"})


class GuardedFeatures:
    """A read-only view of :class:`Features` for a payout function that declared ``level`` and
    ``thirds``: reading a field it did not declare raises instead of silently giving ``None``
    (which would misprice the bet).

    Raises (on attribute access):
        BetError: the field needs a finer level, or third cards, than the bet declared.
    """

    __slots__ = ("_features", "_level", "_name", "_thirds")

    def __init__(self, features: Features, level: Level, thirds: bool, name: str) -> None:
        """``name`` says who reads, for the error message (e.g. ``"bet 'my-bet'"``)."""
        self._features = features
        self._level = level
        self._thirds = thirds
        self._name = name

    def __getattr__(self, field: str) -> object:
        from analyzer.errors import BetError

        needed = FIELD_LEVEL.get(field)
        if needed is not None and needed > self._level:
            raise BetError(
                f"{self._name} reads {field}, which needs level=Level.{needed.name}: pass that level"
            )
        if field in THIRD_FIELDS and not self._thirds:
            raise BetError(f"{self._name} reads {field}: pass thirds=True")
        return getattr(self._features, field)
