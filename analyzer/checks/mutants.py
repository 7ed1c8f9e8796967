"""Engine bugs as data: a catalogue of *mutant* dealers, each an executable alternative engine.

Five real engines taught the oracle that being right is not enough: a developer needs the bug
named.  Each :class:`Mutant` here is a baccarat engine with one known bug (the third-card rule
read from the Player's total, totals compared before modulo 10, a natural not checked, state
carried over from the previous coup, a misvalued card, a pair bet that ignores three-card
hands, a rounded commission, a refilled shoe, ...), written as a :class:`Dealer` that overrides
one step of a correct one.  The same dealers serve three purposes:

* **diagnosis** (:mod:`analyzer.checks.diagnose`): which mutant explains a log's findings;
* **power** (:mod:`analyzer.checks.mutant_power`): how many coups each check needs to catch each
  mutant;
* **tests and demonstrations**: a mutant deals hand logs (:func:`deal_log`) and answers the
  stacked-shoe protocol of ``punto-banco probe`` (``punto-banco mutants --serve NAME``).

A dealer deals one coup from the top of a shoe given as a card sequence (the first card first);
what it reports is an :class:`EngineCoup` (the cards it took, both hands, totals, winner,
naturals and the bets it settled), which :meth:`EngineCoup.record` writes as a hand-log record
(docs/checks.md, "Hand-log format").  :data:`CORRECT` names the dealer without a bug; every
registered tableau variant (:data:`~analyzer.core.tableau.TABLEAUX`) is a mutant too.

>>> from analyzer.core.cards import parse_cards
>>> find_mutant("ace-high").dealer().deal(parse_cards("A 5 2 K 9 9")).announce()
'Player A 2 (6), Banker 5 K 9 (4): Player wins'
>>> CORRECT.dealer().deal(parse_cards("A 5 2 K 9 9")).announce()
'Player A 2 9 (2), Banker 5 K (5): Banker wins'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TypeVar

from analyzer.bets.choice import NO_FILE_BETS, FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.core.cards import RANKS, SUITS, Card, Rank
from analyzer.core.coup import Coup, Winner
from analyzer.core.dealt import card_of
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, TABLEAUX, TOTALS, Tableau
from analyzer.errors import MutantError

#: A card position past the end of a stacked shoe: the dealer wanted a card the stack did not
#: hold (diagnosis replays a log's own cards, and a mutant may draw more than the engine did).
Hand = tuple[Card | None, ...]
#: Hands as a log gives them (every card known).
Cards = tuple[Card, ...]
_C = TypeVar("_C")

#: What each kind of mutant breaks, in the order reports list them.
KINDS: dict[str, str] = {
    "tableau": "the drawing rules",
    "naturals": "the naturals",
    "totals": "card values and totals",
    "winner": "the winner",
    "state": "state carried between coups",
    "dealing order": "the dealing order",
    "settlement": "bet settlement",
    "shoe": "the shoe",
}


def net_text(x: Fraction) -> str:
    """An exact amount as hand-log text: ``9.5``, ``-10``, or ``p/q`` when no decimal ends."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = 0
    while (x * 10**places).denominator != 1:
        places += 1
    digits = str(abs(x.numerator) * 10**places // x.denominator).rjust(places + 1, "0")
    return ("-" if x < 0 else "") + f"{digits[:-places]}.{digits[-places:]}"


@dataclass(frozen=True)
class EngineCoup:
    """One coup as an engine reports it.

    Attributes:
        cards: the cards it took from the shoe, in the order it took them (``None`` for a card
            past the end of a stacked shoe).
        player, banker: the hands as it reports them (normally 2 or 3 cards each).
        player_total, banker_total: its totals (a buggy engine may report 15).
        winner: its winner.
        natural: which sides it says have a natural: ``none``, ``player``, ``banker``, ``both``.
        bets: ``(bet name, stake, net)`` for each bet it settled, exact.
    """

    cards: Hand
    player: Hand
    banker: Hand
    player_total: int
    banker_total: int
    winner: Winner
    natural: str
    bets: tuple[tuple[str, Fraction, Fraction], ...] = ()

    @property
    def complete(self) -> bool:
        """False when the dealer wanted a card the stack did not hold."""
        return None not in self.cards

    def record(self, coup_id: str | None = None, shoe: str | None = None) -> dict[str, object]:
        """The coup as a hand-log JSON record (docs/checks.md): ``cards`` in the order taken,
        the hands, the totals, the winner, ``natural`` and ``bets`` (exact amounts as text).

        Raises:
            MutantError: the coup wanted a card past the end of its stack.
        """
        if not self.complete:
            raise MutantError("the coup needs more cards than the stack holds")
        out: dict[str, object] = {}
        if coup_id is not None:
            out["id"] = coup_id
        if shoe is not None:
            out["shoe"] = shoe
        out.update(
            cards=[str(c) for c in self.cards],
            player=[str(c) for c in self.player],
            banker=[str(c) for c in self.banker],
            player_total=self.player_total,
            banker_total=self.banker_total,
            winner=self.winner.value,
            natural=self.natural,
        )
        if self.bets:
            out["bets"] = {
                name: {"stake": net_text(stake), "paid": net_text(net)} for name, stake, net in self.bets
            }
        return out

    def announce(self) -> str:
        """The coup in a dealer's words, e.g. ``Player 2 3 6 (1), Banker 4 10 A (5): Banker wins``."""

        def hand(cards: Hand) -> str:
            return " ".join("?" if c is None else str(c) for c in cards)

        result = "Tie" if self.winner is Winner.TIE else f"{self.winner.label} wins"
        return (
            f"Player {hand(self.player)} ({self.player_total}), "
            f"Banker {hand(self.banker)} ({self.banker_total}): {result}"
        )


#: Point value by rank symbol (a str key hashes faster than the enum member).
_POINT: dict[str, int] = {r.value: r.point for r in RANKS}


class _Stack:
    """The top of a shoe, taken one card at a time (``None`` past its end)."""

    __slots__ = ("cards", "taken")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        self.taken: list[Card | None] = []

    def take(self) -> Card | None:
        i = len(self.taken)
        card = self.cards[i] if i < len(self.cards) else None
        self.taken.append(card)
        return card


Stakes = Mapping[str, Fraction]


class Dealer:
    """A baccarat engine that deals one coup from the top of a stacked shoe: correct under its
    tableau, unless a subclass (a mutant) overrides one of its steps.

    The steps, in the order :meth:`deal` runs them: :meth:`first_four` (who gets the first four
    cards), :meth:`value` (a card's point value), :meth:`total` (a hand's total as the rules
    read it), :meth:`naturals`, :meth:`player_draws`, :meth:`banker_draws`,
    :meth:`banker_draws_again`, :meth:`totals` (as reported), :meth:`winner`,
    :meth:`natural_claim`, :meth:`shown_hands` (the hands as reported) and :meth:`settle`.
    A dealer keeps no state of its own: what an engine carries from coup to coup is passed in
    as ``previous``, the coup it reported before.
    """

    def __init__(self, tableau: Tableau = STANDARD) -> None:
        self.tableau = tableau

    # -- the shoe ------------------------------------------------------------------------------

    def shoe(self, declared: Shoe) -> Shoe:
        """The shoe this engine really deals from when it is told to deal ``declared``."""
        return declared

    #: Whether the engine refills (reshuffles whole) its shoe before every coup.
    refills = False
    #: The claims this engine can report otherwise than a correct one (``bet`` for any settled
    #: bet, ``bet:NAME`` for the catalogue bet NAME whatever its parameter); a replay skips an
    #: engine on a coup that claims none of them.
    changes: frozenset[str] = frozenset(
        {"player", "banker", "cards", "player_total", "banker_total", "winner", "natural", "bet"}
    )

    # -- the steps -----------------------------------------------------------------------------

    def first_four(self, stack: _Stack) -> tuple[list[Card | None], list[Card | None]]:
        """The first four cards: Player, Banker, Player, Banker."""
        p1, b1, p2, b2 = stack.take(), stack.take(), stack.take(), stack.take()
        return [p1, p2], [b1, b2]

    def value(self, card: Card | None) -> int:
        """A card's point value (a card past the stack counts 0)."""
        return 0 if card is None else _POINT[card.rank._value_]

    def total(self, hand: Sequence[Card | None]) -> int:
        """A hand's total as the engine's rules read it: the point values' sum modulo 10."""
        value = self.value
        total = 0
        for card in hand:
            total += value(card)
        return total % 10

    def naturals(self, p2: int, b2: int) -> tuple[bool, bool]:
        """Which two-card totals the engine takes for naturals (and so ends the coup)."""
        return p2 in self.tableau.naturals, b2 in self.tableau.naturals

    def player_draws(self, p2: int, b2: int, naturals: tuple[bool, bool]) -> bool:
        """Whether the Player draws a third card."""
        return not (naturals[0] or naturals[1]) and self.tableau.player_draws(p2)

    def banker_draws(
        self,
        p2: int,
        b2: int,
        player: Sequence[Card | None],
        naturals: tuple[bool, bool],
        previous: EngineCoup | None,
    ) -> bool:
        """Whether the Banker draws, once the Player's hand is as dealt."""
        if naturals[0] or naturals[1]:
            return False
        third = self.value(player[2]) if len(player) > 2 else None
        return self.tableau.banker_draws(b2, third)

    def banker_draws_again(self, banker: Sequence[Card | None], player: Sequence[Card | None]) -> bool:
        """Whether the Banker draws a fourth card (never, in baccarat)."""
        return False

    def totals(self, player: Sequence[Card | None], banker: Sequence[Card | None]) -> tuple[int, int]:
        """The final totals as the engine reports them."""
        return self.total(player), self.total(banker)

    def winner(self, player: Sequence[Card | None], banker: Sequence[Card | None]) -> Winner:
        """The winner: the higher final total; equal totals tie."""
        pt, bt = self.total(player), self.total(banker)
        return Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE

    def natural_claim(
        self, naturals: tuple[bool, bool], player: Sequence[Card | None], banker: Sequence[Card | None]
    ) -> str:
        """Which sides the engine reports as having a natural."""
        p, b = naturals
        return "both" if p and b else "player" if p else "banker" if b else "none"

    def shown_hands(
        self, player: Sequence[Card | None], banker: Sequence[Card | None], previous: EngineCoup | None
    ) -> tuple[Hand, Hand]:
        """The hands as the engine reports them."""
        return tuple(player), tuple(banker)

    def settle(self, bet: Bet, coup: Coup, stake: Fraction, pays: Fraction) -> Fraction:
        """The net amount the engine pays on ``stake`` of ``bet`` for its coup ``coup`` (a full
        record carrying the engine's own totals, winner and naturals), where the bet's pay table
        gives ``pays`` per unit for that record."""
        return stake * pays

    def orders(self, player: Cards, banker: Cards, previous: EngineCoup | None) -> tuple[Cards, ...]:
        """The orders in which this engine could have taken from the shoe the cards of the
        hands it reports (for logs that give the hands only): Player, Banker, Player, Banker,
        then the Player's third card, then the Banker's."""
        return (interleave(player, banker),)

    # -- one coup ------------------------------------------------------------------------------

    def deal(
        self,
        shoe: Sequence[Card],
        stakes: Stakes | None = None,
        previous: EngineCoup | None = None,
        *,
        bets: Mapping[str, Bet] | None = None,
        file_bets: FileBets = NO_FILE_BETS,
        payout: Callable[[Bet, Coup], Fraction] | None = None,
    ) -> EngineCoup:
        """Deal one coup from the top of ``shoe`` (first card first) and report it, settling a
        bet of ``stakes`` (bet name -> stake) on it; ``previous`` is the coup this engine reported
        before (for engines that carry state); ``bets`` the bets by name when the caller has them
        (else looked up in ``file_bets`` and the catalogue); ``payout(bet, record)`` a bet's pay
        per unit on a record (default :meth:`Bet.payout`; a caller replaying many dealers on one
        coup passes a remembering one).

        A dealer that wants a card past the end of ``shoe`` gets ``None`` there, and the coup
        reports it (:attr:`EngineCoup.complete` is False; no bet is settled then).

        Raises:
            BetError: a bet name that names no bet.
        """
        stack = _Stack(shoe)
        player, banker = self.first_four(stack)
        p2, b2 = self.total(player), self.total(banker)
        naturals = self.naturals(p2, b2)
        if self.player_draws(p2, b2, naturals):
            player.append(stack.take())
        if self.banker_draws(p2, b2, player, naturals, previous):
            banker.append(stack.take())
            if self.banker_draws_again(banker, player):
                banker.append(stack.take())
        pt, bt = self.totals(player, banker)
        winner = self.winner(player, banker)
        natural = self.natural_claim(naturals, player, banker)
        shown = self.shown_hands(player, banker, previous)
        settled: list[tuple[str, Fraction, Fraction]] = []
        if stakes and None not in stack.taken:
            coup = _coup_record(player, banker, (pt, bt), winner, naturals, (p2, b2), self.value)
            for name, stake in stakes.items():
                bet = bets[name] if bets is not None and name in bets else lookup_bet(name, file_bets)
                pays = payout(bet, coup) if payout is not None else bet.payout(coup)
                settled.append((name, stake, self.settle(bet, coup, stake, pays)))
        return EngineCoup(tuple(stack.taken), *shown, pt, bt, winner, natural, tuple(settled))


def interleave(player: Sequence[_C], banker: Sequence[_C]) -> tuple[_C, ...]:
    """The cards of two hands in dealing order: P1 B1 P2 B2, then the Player's third and later
    cards, then the Banker's."""
    return (*player[:1], *banker[:1], *player[1:2], *banker[1:2], *player[2:], *banker[2:])


def _coup_record(
    player: Sequence[Card | None],
    banker: Sequence[Card | None],
    totals: tuple[int, int],
    winner: Winner,
    naturals: tuple[bool, bool],
    two_card: tuple[int, int],
    value: Callable[[Card | None], int],
) -> Coup:
    """The engine's coup as a full coup record (its own totals, winner and naturals), for its
    bets to settle on: cards by position P1 B1 P2 B2 P3 B3 (a fourth card of a hand is not
    placed; the count of cards says it was dealt)."""
    fields = (
        winner,
        totals[0],
        totals[1],
        len(player),
        len(banker),
        naturals[0],
        naturals[1],
        two_card[0],
        two_card[1],
        value(player[2]) if len(player) > 2 else None,
        value(banker[2]) if len(banker) > 2 else None,
    )

    def at(hand: Sequence[Card | None], i: int) -> object:
        card = hand[i] if i < len(hand) else None
        return card_of(card) if card is not None else None

    cards = [at(player, 0), at(banker, 0), at(player, 1), at(banker, 1), at(player, 2), at(banker, 2)]
    return Coup(fields, cards)  # type: ignore[arg-type]


# -- the mutants ------------------------------------------------------------------------------------


def _listed(values: Sequence[int]) -> str:
    vals = sorted(values)
    if not vals:
        return "never"
    if len(vals) == 1:
        return str(vals[0])
    return ", ".join(map(str, vals[:-1])) + f" or {vals[-1]}"


class _BankerReadsPlayerTotal(Dealer):
    """The Banker's table is read with the Player's final total where the rules read the value
    of the Player's third card (on the Banker totals ``cells``)."""

    def __init__(self, tableau: Tableau, cells: frozenset[int]) -> None:
        super().__init__(tableau)
        self.cells = cells

    def banker_draws(
        self,
        p2: int,
        b2: int,
        player: Sequence[Card | None],
        naturals: tuple[bool, bool],
        previous: EngineCoup | None,
    ) -> bool:
        if naturals[0] or naturals[1] or len(player) < 3 or b2 not in self.cells:
            return super().banker_draws(p2, b2, player, naturals, previous)
        return self.tableau.banker_draws(b2, self.total(player))


class _PlayerStoodAsZero(Dealer):
    """When the Player stood, its missing third card is read as a card of value 0."""

    def banker_draws(
        self,
        p2: int,
        b2: int,
        player: Sequence[Card | None],
        naturals: tuple[bool, bool],
        previous: EngineCoup | None,
    ) -> bool:
        if naturals[0] or naturals[1] or len(player) > 2:
            return super().banker_draws(p2, b2, player, naturals, previous)
        return self.tableau.banker_draws(b2, 0)


class _NoNaturalCheck(Dealer):
    """A natural on ``side`` (``player``, ``banker`` or ``both``) does not end the coup."""

    def __init__(self, tableau: Tableau, side: str) -> None:
        super().__init__(tableau)
        self.side = side

    def naturals(self, p2: int, b2: int) -> tuple[bool, bool]:
        p, b = super().naturals(p2, b2)
        return (p and self.side == "banker", b and self.side == "player")


class _BankerDrawsTwice(Dealer):
    """The Banker's rule is applied again after it draws."""

    def banker_draws_again(self, banker: Sequence[Card | None], player: Sequence[Card | None]) -> bool:
        third = self.value(player[2]) if len(player) > 2 else None
        return self.tableau.banker_draws(self.total(banker), third)


class _TotalsNotReduced(Dealer):
    """Every total is the raw sum of the point values: the naturals, the draws, the reported
    totals and the winner read it."""

    def total(self, hand: Sequence[Card | None]) -> int:
        return sum(map(self.value, hand))

    def player_draws(self, p2: int, b2: int, naturals: tuple[bool, bool]) -> bool:
        return not (naturals[0] or naturals[1]) and p2 in self.tableau.player_draws_on

    def banker_draws(
        self,
        p2: int,
        b2: int,
        player: Sequence[Card | None],
        naturals: tuple[bool, bool],
        previous: EngineCoup | None,
    ) -> bool:
        if naturals[0] or naturals[1] or b2 > 9:
            return False
        return super().banker_draws(p2, b2, player, naturals, previous)


class _WinnerBeforeModulo(Dealer):
    """The winner compares the raw sums of the point values."""

    def winner(self, player: Sequence[Card | None], banker: Sequence[Card | None]) -> Winner:
        pt, bt = sum(map(self.value, player)), sum(map(self.value, banker))
        return Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE


class _Misvalued(Dealer):
    """Some ranks count a wrong point value (``values``: rank -> value)."""

    def __init__(self, tableau: Tableau, values: Mapping[Rank, int]) -> None:
        super().__init__(tableau)
        self.values = {rank.value: v for rank, v in values.items()}

    def value(self, card: Card | None) -> int:
        if card is None:
            return 0
        found = self.values.get(card.rank._value_)
        return _POINT[card.rank._value_] if found is None else found


#: The pair bets a pair-on-two-cards engine settles its way, and the sides each reads.
_PAIR_SIDES: dict[str, tuple[str, ...]] = {
    "player-pair": ("player",),
    "banker-pair": ("banker",),
    "either-pair": ("player", "banker"),
}


class _PairsOnTwoCardHands(Dealer):
    """A pair bet counts a pair only in a hand of exactly two cards."""

    changes = frozenset(f"bet:{name}" for name in _PAIR_SIDES)

    def settle(self, bet: Bet, coup: Coup, stake: Fraction, pays: Fraction) -> Fraction:
        net = super().settle(bet, coup, stake, pays)
        sides = _PAIR_SIDES.get(bet.name.partition(":")[0])
        if sides is None or net <= 0:
            return net
        pairs = {"player": coup.player_pair, "banker": coup.banker_pair}
        cards = {"player": coup.player_cards, "banker": coup.banker_cards}
        if any(pairs[s] and cards[s] == 2 for s in sides):
            return net
        return -stake


class _CommissionRounded(Dealer):
    """The Banker's win after commission is rounded to a whole unit (``down``, or ``nearest``
    with halves up)."""

    changes = frozenset({"bet:banker"})

    def __init__(self, tableau: Tableau, mode: str) -> None:
        super().__init__(tableau)
        self.mode = mode

    def settle(self, bet: Bet, coup: Coup, stake: Fraction, pays: Fraction) -> Fraction:
        net = super().settle(bet, coup, stake, pays)
        if bet.name.partition(":")[0] != "banker" or net <= 0 or net.denominator == 1:
            return net
        if self.mode == "down":
            return Fraction(net.numerator // net.denominator)
        return Fraction((2 * net.numerator + net.denominator) // (2 * net.denominator))


class _NoCommission(Dealer):
    """A winning Banker bet is paid even money: no commission is taken."""

    changes = frozenset({"bet:banker"})

    def settle(self, bet: Bet, coup: Coup, stake: Fraction, pays: Fraction) -> Fraction:
        net = super().settle(bet, coup, stake, pays)
        if bet.name.partition(":")[0] == "banker" and net > 0:
            return stake
        return net


class _TieLosesMainBets(Dealer):
    """Player and Banker bets lose on a tie instead of pushing."""

    changes = frozenset({"bet:player", "bet:banker"})

    def settle(self, bet: Bet, coup: Coup, stake: Fraction, pays: Fraction) -> Fraction:
        net = super().settle(bet, coup, stake, pays)
        if bet.name.partition(":")[0] in ("player", "banker") and coup.winner is Winner.TIE:
            return -stake
        return net


class _StaleThirdCard(Dealer):
    """A side that stands is reported with the third card it held in the previous coup."""

    changes = frozenset({"player", "banker"})

    def shown_hands(
        self, player: Sequence[Card | None], banker: Sequence[Card | None], previous: EngineCoup | None
    ) -> tuple[Hand, Hand]:
        p, b = tuple(player), tuple(banker)
        if previous is not None:
            if len(p) == 2 and len(previous.player) > 2:
                p = (*p, previous.player[2])
            if len(b) == 2 and len(previous.banker) > 2:
                b = (*b, previous.banker[2])
        return p, b


    def orders(self, player: Cards, banker: Cards, previous: EngineCoup | None) -> tuple[Cards, ...]:
        # a third card equal to the one the side held before may be stale or drawn again: both
        players = [player]
        bankers = [banker]
        if previous is not None:
            if len(player) == 3 and previous.player[2:3] == player[2:]:
                players.append(player[:2])
            if len(banker) == 3 and previous.banker[2:3] == banker[2:]:
                bankers.append(banker[:2])
        return tuple(interleave(p, b) for p in players for b in bankers)


class _BankerReadsStaleThird(Dealer):
    """When the Player stands, the Banker's rule reads the Player's third card of the previous
    coup (when it had one)."""

    def banker_draws(
        self,
        p2: int,
        b2: int,
        player: Sequence[Card | None],
        naturals: tuple[bool, bool],
        previous: EngineCoup | None,
    ) -> bool:
        if naturals[0] or naturals[1] or len(player) > 2 or previous is None or len(previous.player) < 3:
            return super().banker_draws(p2, b2, player, naturals, previous)
        return self.tableau.banker_draws(b2, self.value(previous.player[2]))


class _NaturalOnFinalTotal(Dealer):
    """A natural is claimed on the final total of 8 or 9, whatever the number of cards."""

    changes = frozenset({"natural"})

    def natural_claim(
        self, naturals: tuple[bool, bool], player: Sequence[Card | None], banker: Sequence[Card | None]
    ) -> str:
        pt, bt = self.total(player), self.total(banker)
        nat = self.tableau.naturals
        return super().natural_claim((pt in nat, bt in nat), player, banker)


class _DealsPPBB(Dealer):
    """The first four cards go Player, Player, Banker, Banker."""

    def first_four(self, stack: _Stack) -> tuple[list[Card | None], list[Card | None]]:
        p1, p2, b1, b2 = stack.take(), stack.take(), stack.take(), stack.take()
        return [p1, p2], [b1, b2]

    def orders(self, player: Cards, banker: Cards, previous: EngineCoup | None) -> tuple[Cards, ...]:
        return ((*player[:2], *banker[:2], *player[2:], *banker[2:]),)


class _ShoeRefilled(Dealer):
    """The shoe is refilled (reshuffled whole) before every coup."""

    refills = True


class _ShoeLarger(Dealer):
    """The shoe holds ``extra`` decks more than declared."""

    def __init__(self, tableau: Tableau, extra: int) -> None:
        super().__init__(tableau)
        self.extra = extra

    def shoe(self, declared: Shoe) -> Shoe:
        decks = declared.decks
        if decks is None:
            return declared
        return Shoe.standard(decks + self.extra)


@dataclass(frozen=True)
class Mutant:
    """One engine bug of the catalogue.

    Attributes:
        name: machine name, e.g. ``banker-reads-player-total:6``.
        kind: what it breaks (a key of :data:`KINDS`).
        cause: the bug in one sentence a developer acts on (the diagnosis says it).
        make: the dealer of this engine under a tableau.
        needs: what a check must see to catch it: ``cards`` (a coup's cards and draws),
            ``claims`` (totals, winner, naturals as claimed), ``bets`` (settled amounts),
            ``sequence`` (consecutive coups), ``shoe`` (many coups of one shoe).
        breadth: the decision cells it can decide otherwise (see the attribute).
    """

    name: str
    kind: str
    cause: str
    make: Callable[[Tableau], Dealer] = field(compare=False)
    needs: str = "cards"
    #: How many decision cells it can decide otherwise than the rules (:data:`BROAD` when it is
    #: not a matter of cells): when two bugs explain the same coups, the narrower is named.
    breadth: int = field(default=0, compare=False)

    def dealer(self, tableau: Tableau = STANDARD) -> Dealer:
        """This engine's dealer under ``tableau``."""
        return self.make(tableau)


def _banker_total_cells(tableau: Tableau) -> list[int]:
    """Banker totals whose draw depends on the Player's third card (3-6 under the standard rules)."""
    return [
        b
        for b in TOTALS
        if b not in tableau.naturals and 0 < len(tableau.banker_draws_on_third[b]) < len(TOTALS)
    ]


def _stood_as_zero_cells(tableau: Tableau) -> list[int]:
    return [
        b
        for b in TOTALS
        if b not in tableau.naturals and tableau.banker_draws(b, None) != tableau.banker_draws(b, 0)
    ]


def _tableau_cause(variant: Tableau, reference: Tableau = STANDARD) -> str:
    """How ``variant`` deals differently from ``reference``, cell by cell, in one sentence."""
    parts: list[str] = []
    if variant.naturals != reference.naturals:
        parts.append(f"naturals are {_listed(sorted(variant.naturals))}")
    for t in TOTALS:
        if t in variant.naturals or t in reference.naturals:
            continue
        if variant.player_draws(t) != reference.player_draws(t):
            parts.append(f"Player on {t} {'draws' if variant.player_draws(t) else 'stands'}")
    for b in TOTALS:
        if b in variant.naturals or b in reference.naturals:
            continue
        if variant.banker_draws(b, None) != reference.banker_draws(b, None):
            parts.append(f"Banker on {b} {'draws' if variant.banker_draws(b, None) else 'stands'} "
                         "when the Player stood")
        changed = [v for v in TOTALS if variant.banker_draws(b, v) != reference.banker_draws(b, v)]
        if changed:
            verb = "draws" if variant.banker_draws(b, changed[0]) else "stands"
            parts.append(f"Banker on {b} {verb} when the Player's third card is {_listed(changed)}")
    if not parts:
        return f"deals as the {reference.name} rules"
    return "; ".join(parts) + f" (the {reference.name} rules say otherwise)"


def _fixed_rules(rules: Tableau, tableau: Tableau) -> Dealer:
    """A correct dealer of ``rules``, whatever tableau it is asked to deal (a rule variant as an
    engine bug)."""
    return Dealer(rules)


#: The breadth of a bug that is not a matter of decision cells.
BROAD = 1000


def _differing_cells(variant: Tableau, reference: Tableau) -> int:
    """How many decision cells ``variant`` decides otherwise than ``reference``."""
    plain = [t for t in TOTALS if t not in reference.naturals]
    n = len((variant.player_draws_on ^ reference.player_draws_on) & set(plain))
    for b in plain:
        n += (b in variant.banker_draws_when_player_stood) != (b in reference.banker_draws_when_player_stood)
        n += len(variant.banker_draws_on_third[b] ^ reference.banker_draws_on_third[b])
    return n + len(variant.naturals ^ reference.naturals) * 10


def _catalogue(tableau: Tableau = STANDARD) -> tuple[Mutant, ...]:
    """Every mutant, its sentences written for the cells of ``tableau`` (the rules a log is
    judged by: a rule variant is said as it differs from those)."""
    std = tableau
    found: list[Mutant] = []
    banker_cells = _banker_total_cells(std)
    for b in banker_cells:
        draws = sorted(std.banker_draws_on_third[b])
        found.append(
            Mutant(
                f"banker-reads-player-total:{b}",
                "tableau",
                f"Banker on {b} draws or stands by the Player's final total, not by the Player's "
                f"third card (it draws when the Player's total is {_listed(draws)})",
                functools.partial(_BankerReadsPlayerTotal, cells=frozenset({b})),
                breadth=len(TOTALS),
            )
        )
    found.append(
        Mutant(
            "banker-reads-player-total",
            "tableau",
            "The Banker's third-card rule reads the Player's final total, not the Player's third "
            "card, on every Banker total",
            lambda t: _BankerReadsPlayerTotal(t, frozenset(TOTALS)),
            breadth=len(TOTALS) * len(banker_cells),
        )
    )
    cells = _stood_as_zero_cells(std)
    found.append(
        Mutant(
            "player-stood-as-zero",
            "tableau",
            "When the Player stands, the Banker's rule reads the missing third card as a 0 instead "
            f"of using the 'Player stood' rule (Banker on {_listed(cells)} then stands)",
            _PlayerStoodAsZero,
            breadth=len(cells),
        )
    )
    for side, text in (
        ("player", "The Player's natural does not end the coup: the Banker still draws by its rule"),
        ("banker", "The Banker's natural does not end the coup: the Player still draws on its total"),
        ("both", "No natural is checked: both hands draw by the rules whatever their first two cards"),
    ):
        found.append(
            Mutant(
                f"no-natural-check:{side}", "naturals", text, functools.partial(_NoNaturalCheck, side=side)
            )
        )
    found.append(
        Mutant(
            "natural-on-final-total",
            "naturals",
            "A natural is claimed on the final total: a three-card 8 or 9 is reported as a natural",
            _NaturalOnFinalTotal,
            "claims",
        )
    )
    found.append(
        Mutant(
            "banker-draws-twice",
            "tableau",
            "The Banker's rule is applied again after it draws: it takes a second third card when "
            "its new total still calls for one",
            _BankerDrawsTwice,
        )
    )
    found.append(
        Mutant(
            "totals-not-reduced",
            "totals",
            "Totals are not reduced modulo 10: the naturals, the draws, the reported totals and the "
            "winner read the raw sum of the point values (7 + 8 = 15, not 5)",
            _TotalsNotReduced,
        )
    )
    found.append(
        Mutant(
            "winner-before-modulo",
            "winner",
            "The winner is decided on the raw sums of the point values, before they are reduced "
            "modulo 10 (Player 9 + 9 = 18 beats Banker 9)",
            _WinnerBeforeModulo,
            "claims",
        )
    )
    found.append(
        Mutant(
            "face-cards-by-rank-number",
            "totals",
            "J, Q and K count 1, 2 and 3 (their rank numbers 11, 12 and 13 modulo 10), not 0",
            lambda t: _Misvalued(t, {Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3}),
        )
    )
    found.append(
        Mutant(
            "ace-high",
            "totals",
            "The ace counts 4 (14, its rank in poker order, modulo 10), not 1",
            lambda t: _Misvalued(t, {Rank.ACE: 4}),
        )
    )
    found.append(
        Mutant(
            "ten-counts-one",
            "totals",
            "The 10 counts 1 (the first digit of its label), not 0",
            lambda t: _Misvalued(t, {Rank.TEN: 1}),
        )
    )
    found.append(
        Mutant(
            "banker-reads-stale-third",
            "state",
            "When the Player stands, the Banker's rule reads the Player's third card of the previous "
            "coup (state carried over between coups)",
            _BankerReadsStaleThird,
            "sequence",
        )
    )
    found.append(
        Mutant(
            "stale-third-card",
            "state",
            "A side that stands is reported with the third card it held in the previous coup (its "
            "result row is not cleared between coups)",
            _StaleThirdCard,
            "sequence",
        )
    )
    found.append(
        Mutant(
            "deals-player-player-banker-banker",
            "dealing order",
            "The first four cards go Player, Player, Banker, Banker instead of alternating Player, "
            "Banker, Player, Banker",
            _DealsPPBB,
        )
    )
    found.append(
        Mutant(
            "pairs-on-two-card-hands",
            "settlement",
            "A pair bet pays only when the side's hand has two cards: a pair in the first two cards "
            "of a side that drew a third card loses",
            _PairsOnTwoCardHands,
            "bets",
        )
    )
    found.append(
        Mutant(
            "no-commission",
            "settlement",
            "A winning Banker bet is paid even money: the commission is not taken (a stake of 10 wins "
            "10, not 9.5)",
            _NoCommission,
            "bets",
        )
    )
    for mode, how in (
        ("down", "rounded down to a whole unit (a stake of 5 wins 4, not 4.75)"),
        ("nearest", "rounded to the nearest whole unit (a stake of 5 wins 5, not 4.75)"),
    ):
        found.append(
            Mutant(
                f"commission-rounded:{mode}",
                "settlement",
                f"A winning Banker bet is paid its win after commission {how}",
                functools.partial(_CommissionRounded, mode=mode),
                "bets",
            )
        )
    found.append(
        Mutant(
            "tie-loses-main-bets",
            "settlement",
            "Player and Banker bets lose on a tie instead of pushing",
            _TieLosesMainBets,
            "bets",
        )
    )
    found.append(
        Mutant(
            "shoe-refilled",
            "shoe",
            "The shoe is refilled (reshuffled whole) between coups: one shoe deals more cards of a "
            "rank than it holds",
            _ShoeRefilled,
            "shoe",
        )
    )
    found.append(
        Mutant(
            "shoe-one-deck-more",
            "shoe",
            "The shoe holds one deck more than declared",
            lambda t: _ShoeLarger(t, 1),
            "shoe",
        )
    )
    for variant in TABLEAUX.values():
        if variant.fingerprint == std.fingerprint:
            continue
        found.append(
            Mutant(
                variant.name,
                "tableau",
                _tableau_cause(variant, std),
                functools.partial(_fixed_rules, variant),
                breadth=_differing_cells(variant, std),
            )
        )
    return tuple(replace(m, breadth=m.breadth or BROAD) for m in found)


@functools.lru_cache(maxsize=8)
def catalogue_for(tableau: Tableau) -> tuple[Mutant, ...]:
    """The catalogue as the diagnosis uses it under ``tableau``: :data:`MUTANTS` written for its
    cells (every registered rule set that differs from it, the standard one included, is a bug
    under it)."""
    if tableau == STANDARD:
        return MUTANTS
    return _catalogue(tableau)


#: Every mutant of the catalogue, in report order.
MUTANTS: tuple[Mutant, ...] = _catalogue()
_BY_NAME: dict[str, Mutant] = {m.name: m for m in MUTANTS}
#: The engine without a bug.
CORRECT = Mutant("correct", "tableau", "no bug: the rules of Punto Banco", Dealer)


#: A decision cell: ``("player", total, None)`` or ``("banker", total, third-card value or
#: None when the Player stood)``.
Cell = tuple[str, int, int | None]


def cell_flips(tableau: Tableau = STANDARD) -> tuple[tuple[Cell, Mutant], ...]:
    """One engine per decision cell of ``tableau`` that decides that cell the other way round
    (a Player total that draws stands, a Banker cell that stands draws, ...) and every other
    cell by the rules: the diagnosis fits a one-cell bug with them when no catalogue bug
    explains the findings.  Each with its cell; names ``cell:player-5``, ``cell:banker-5-3``,
    ``cell:banker-4-stood``."""
    out: list[tuple[Cell, Mutant]] = []
    plain = [t for t in TOTALS if t not in tableau.naturals]
    for t in plain:
        draws = tableau.player_draws_on ^ {t}
        variant = replace(tableau, name=f"cell:player-{t}", player_draws_on=frozenset(draws))
        out.append((("player", t, None), _flip(variant, tableau)))
    thirds: list[int | None] = [None, *TOTALS]
    for b in plain:
        for v in thirds:
            name = f"cell:banker-{b}-{'stood' if v is None else v}"
            if v is None:
                stood = tableau.banker_draws_when_player_stood ^ {b}
                variant = replace(tableau, name=name, banker_draws_when_player_stood=frozenset(stood))
            else:
                table = list(tableau.banker_draws_on_third)
                table[b] = frozenset(table[b] ^ {v})
                variant = replace(tableau, name=name, banker_draws_on_third=tuple(table))
            out.append((("banker", b, v), _flip(variant, tableau)))
    return tuple(out)


def _flip(variant: Tableau, tableau: Tableau) -> Mutant:
    return Mutant(
        variant.name,
        "tableau",
        _tableau_cause(variant, tableau),
        functools.partial(_fixed_rules, variant),
        breadth=1,
    )


def find_mutant(name: str) -> Mutant:
    """The mutant named ``name`` (``correct`` for the engine without a bug).

    Raises:
        MutantError: no such mutant (the message lists them).
    """
    if not isinstance(name, str):
        raise MutantError(f"bad mutant {name!r}: give its name, e.g. ace-high")
    key = name.strip().lower()
    if key == CORRECT.name:
        return CORRECT
    found = _BY_NAME.get(key)
    if found is None:
        raise MutantError(f"unknown mutant {name!r}: known mutants are {', '.join(_BY_NAME)}")
    return found


# -- logs dealt by a mutant --------------------------------------------------------------------------


def shoe_cards(shoe: Shoe) -> list[Card]:
    """The physical cards of ``shoe`` (suited when it knows suits, else spread over the four
    suits as evenly as its counts allow), in a fixed order."""
    cards: list[Card] = []
    if shoe.suited is not None:
        for i, n in enumerate(shoe.suited):
            cards += [Card(RANKS[i // 4], SUITS[i % 4])] * n
        return cards
    for r, n in enumerate(shoe.counts):
        cards += [Card(RANKS[r], SUITS[k % 4]) for k in range(n)]
    return cards


#: Cards left in a shoe when the cut card comes out (the coup in progress is finished).
DEFAULT_CUT = 14


@functools.lru_cache(maxsize=8)
def _bet_of(name: str) -> Bet:
    return lookup_bet(name)


def deal_log(
    mutant: Mutant,
    coups: int,
    *,
    seed: int = 1,
    shoe: Shoe | None = None,
    tableau: Tableau = STANDARD,
    stakes: Stakes | None = None,
    cut: int | None = DEFAULT_CUT,
    file_bets: FileBets = NO_FILE_BETS,
) -> Iterator[dict[str, object]]:
    """Hand-log records (JSON-ready dicts) of ``coups`` coups dealt by ``mutant``'s engine: a
    shuffled ``shoe`` (8 decks by default; the engine's own, for shoe mutants) dealt down to the
    cut card (``cut`` cards left; ``None``: one fresh shoe per coup), each coup marked with its
    shoe id and carrying ``stakes`` settled.  Seeded: the same arguments give the same log.

    Raises:
        MutantError: ``coups`` below 0, a shoe too small to deal a coup, or a cut that leaves no
            room for one.
    """
    if isinstance(coups, bool) or not isinstance(coups, int) or coups < 0:
        raise MutantError(f"bad number of coups {coups!r}: use a whole number >= 0")
    declared = shoe if shoe is not None else Shoe.standard(8)
    if declared.size < 6:
        raise MutantError(f"a shoe of {declared.size} cards cannot deal a coup: use 6 cards or more")
    bad_cut = isinstance(cut, bool) or not isinstance(cut, int) or not 0 <= cut < declared.size - 6
    if cut is not None and bad_cut:
        raise MutantError(
            f"bad cut {cut!r}: the cut card must leave room for a coup: 0 to {declared.size - 7} cards "
            f"left in a shoe of {declared.size}"
        )
    dealer = mutant.dealer(tableau)
    real = shoe_cards(dealer.shoe(declared))
    rng = random.Random(seed)
    bets = {name: (file_bets.get(name) or _bet_of(name)) for name in (stakes or {})}
    previous: EngineCoup | None = None
    shoe_number = 0
    cards: list[Card] = []
    pos = 0
    done = 0
    while done < coups:
        if not cards or cut is None or len(cards) - pos <= max(cut, 6):
            cards = list(real)
            rng.shuffle(cards)
            pos = 0
            shoe_number += 1
        if dealer.refills:  # the engine counts its shoe down, but deals from a full one
            top = list(real)
            rng.shuffle(top)
            coup = dealer.deal(top[:8], stakes, previous, bets=bets)
        else:
            coup = dealer.deal(cards[pos:pos + 8], stakes, previous, bets=bets)
        pos += len(coup.cards)
        done += 1
        previous = coup
        yield coup.record(f"c{done}", f"s{shoe_number}")


__all__ = [
    "CORRECT",
    "DEFAULT_CUT",
    "KINDS",
    "MUTANTS",
    "Cards",
    "Cell",
    "Dealer",
    "EngineCoup",
    "Mutant",
    "catalogue_for",
    "cell_flips",
    "deal_log",
    "find_mutant",
    "interleave",
    "net_text",
    "shoe_cards",
]
