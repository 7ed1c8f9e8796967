"""One coup resolved from given cards, with bets settled on it: a frozen :class:`Deal` (the
library side of ``punto-banco deal`` and of the web service's ``deal``; told and written by
:mod:`analyzer.output.deal`).

:func:`deal` resolves the coup (:func:`~analyzer.core.coup.resolve`, the cards in dealing
order under the tableau's draws) and settles every bet (:meth:`~analyzer.bets.model.Bet.settle`)
before anything is shown, so a bad bet leaves no half-told coup.  Amounts are exact
(``Fraction``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.core.cards import Card, parse_card, parse_cards
from analyzer.core.coup import Coup, resolve
from analyzer.core.exact import fraction_text
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import BetError


@dataclass(frozen=True)
class Settled:
    """A bet settled on the coup: its event, the pay per unit staked and the net amount for
    the stake (``stake × pays``; a loss is ``-stake``)."""

    bet: Bet
    event: str
    pays: Fraction
    net: Fraction


@dataclass(frozen=True)
class Deal:
    """A coup resolved from ``cards`` (in dealing order; cards past the coup's last are not
    dealt), the ``stake`` per bet, and each bet settled on it."""

    cards: tuple[Card, ...]
    tableau: Tableau
    coup: Coup
    stake: Fraction
    settled: tuple[Settled, ...]

    @property
    def not_dealt(self) -> tuple[Card, ...]:
        """The cards given past the coup's last card."""
        return self.cards[self.coup.cards_dealt :]


def deal(
    cards: str | Sequence[Card | str],
    tableau: Tableau = STANDARD,
    bets: Sequence[Bet] = (),
    stake: Fraction = Fraction(1),
) -> Deal:
    """Resolve the coup of ``cards`` under ``tableau`` and settle each of ``bets`` on it.

    ``cards``: in dealing order, as text (``"2 4 3 10 6 A"``, spaces or commas) or a sequence
    of :class:`~analyzer.core.cards.Card` or card text.

    Raises:
        CardError: a token names no card.
        BetError: the stake is not above 0; a bet reads suits and a dealt card has none.
        CoupError: too few cards for the coup (from :func:`~analyzer.core.coup.resolve`).
    """
    if stake <= 0:
        raise BetError(f"bad --stake {fraction_text(stake)!r}: a stake must be greater than 0")
    given = parse_cards(cards) if isinstance(cards, str) else cards
    dealt = [c if isinstance(c, Card) else parse_card(c) for c in given]
    coup = resolve(dealt, tableau)
    settled = []
    for bet in bets:  # settle every bet before anything is shown: no half-told coup
        if bet.reads.needs_suits and any(c.suit is None for c in dealt[: coup.cards_dealt]):
            raise BetError(f"bet {bet.name!r} reads suits: give the cards with their suits, e.g. Kh 9s")
        event, pays = bet.settle(coup)
        settled.append(Settled(bet, event, pays, stake * pays))
    return Deal(tuple(dealt), tableau, coup, stake, tuple(settled))


__all__ = ["Deal", "Settled", "deal"]
