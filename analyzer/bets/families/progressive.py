"""Jackpot bets with progressive meters: Royal 9 (AGS) and EZ Baccarat's Dragon 7 / Panda 8
progressive; each bet's EV is an exact function of its meters (:class:`Meter`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.families.params import (
    B,
    F,
    P,
    _amount,
    _card_text,
    _choice,
    _options,
    _two_cards,
)
from analyzer.bets.model import Bet, PayLine
from analyzer.core.cards import SUITS, Rank, Suit
from analyzer.core.coup import (
    BANKER_FIRST_TWO,
    BANKER_HAND,
    PLAYER_FIRST_TWO,
    PLAYER_HAND,
    Coup,
    Winner,
)
from analyzer.core.exact import fraction_text
from analyzer.core.hands import CardGroup
from analyzer.core.reads import Reads
from analyzer.errors import BetError


@dataclass(frozen=True)
class Meter:
    """A progressive meter of a bet: the pay line it pays and how a meter reading becomes that
    line's pay per unit staked, ``pays = reading * per_unit + offset`` (a jackpot paid "for one"
    on a stake s: ``per_unit = 1/s``, ``offset = -1``).

    Attributes:
        name: the bet's parameter that sets the meter (e.g. ``"star"``).
        event: the event label of the pay line it pays.
        per_unit: pay per unit staked per unit of meter reading (exact, > 0).
        offset: pay per unit staked at a reading of 0.
    """

    name: str
    event: str
    per_unit: Fraction
    offset: Fraction



#: Royal 9 (AGS) fixed prizes, paid "for one" on a flat wager: event -> amount (currency).
ROYAL_9_FIXED: tuple[tuple[str, int], ...] = (
    ("Both hands match another seat's printed hand", 5000),
    ("Both hands suited Royal 9s", 1500),
    ("Both hands Royal 9s", 250),
    ("One hand a suited Royal 9", 50),
    ("One hand a Royal 9", 25),
)
#: Royal 9 jackpots (progressive meters): parameter -> event.
ROYAL_9_METERS: dict[str, str] = {
    "star": "Star Jackpot: both hands match the seat's printed hand",
    "spade": "Spade Jackpot: only the Banker hand matches it",
    "heart": "Heart Jackpot: only the Player hand matches it",
}
ROYAL_9_DEFAULTS: dict[str, str] = {
    "seat": "Ks9s", "others": "Kh9h/Kd9d/Kc9c", "star": "0", "spade": "0", "heart": "0", "stake": "5",
}
ROYAL_9_SOURCE = ('Wizard of Odds, "Royal 9 Baccarat Side Bet", '
                  'https://wizardofodds.com/games/baccarat/side-bets/royal-9/ '
                  "(its eight-deck table was not available); AGS, US patent application 2018/0276950")
_FACES = (Rank.JACK, Rank.QUEEN, Rank.KING)


def _royal_9_of(g: CardGroup) -> bool:
    ranks = g.ranks
    return len(ranks) == 2 and ranks[0] is Rank.NINE and ranks[1] in _FACES


def royal_9(param: str | None) -> Bet:
    """Royal 9 (AGS): ``KEY=VALUE`` options ``seat`` (the seat's printed hand, default
    ``Ks9s``), ``others`` (the other seats' printed hands, ``/``-separated), ``star``, ``spade``,
    ``heart`` (the jackpot meters, currency, default 0) and ``stake`` (the flat wager, 5)."""
    opts = _options(param, ROYAL_9_DEFAULTS, "royal-9")
    stake = _amount(opts["stake"], "royal-9 stake")
    if stake <= 0:
        raise BetError(f"bad royal-9 stake {opts['stake']!r}: it must be more than 0")
    seat = _two_cards(opts["seat"], "royal-9 seat hand")
    others = tuple(_two_cards(t, "royal-9 printed hand") for t in opts["others"].split("/") if t.strip())
    printed = [seat, *others]
    keys = [sorted((c.rank.index, SUITS.index(c.suit)) for c in hand if c.suit is not None)
            for hand in printed]
    if any(keys[i] == keys[j] for i in range(len(keys)) for j in range(i)):
        raise BetError("royal-9: every seat's printed hand must differ from the others")
    meters = {m: _amount(opts[m], f"royal-9 {m} jackpot") for m in ROYAL_9_METERS}
    # a hand matches a printed hand only when it holds nines and ten-valued cards (the bet reads
    # no other suits); the values are checked first, then the ranks, the suits last, so a coup
    # is read no further than its pay needs
    matchable = [(i, tuple(sorted(c.point for c in hand))) for i, hand in enumerate(printed)
                 if all(c.point in (0, 9) for c in hand)]

    def for_one(amount: Fraction) -> Fraction:
        return amount / stake - 1

    def seat_of(g: CardGroup) -> int:
        """The index of the printed hand ``g`` is (0 the seat's own), or -1."""
        values = g.values
        for i, wanted in matchable:
            if values == wanted and sorted((c.rank.index, c.suit.index) for c in g) == keys[i]:
                return i
        return -1

    last: list[tuple[Coup | None, tuple[int, int]]] = [(None, (-1, -1))]

    def hands(c: Coup) -> tuple[int, int]:
        # four pay lines ask it of one coup in turn: the last answer is kept (one reference,
        # replaced whole, so threads sharing the bet never read half of another's)
        seen, found = last[0]
        if seen is not c:
            found = seat_of(c.cards(PLAYER_FIRST_TWO)), seat_of(c.cards(BANKER_FIRST_TWO))
            last[0] = (c, found)
        return found

    def royal(g: CardGroup) -> bool:
        return g.values == (0, 9) and _royal_9_of(g)

    def suited_royal(g: CardGroup) -> bool:
        return royal(g) and g.suited

    def both(test: Callable[[CardGroup], bool]) -> Callable[[Coup], bool]:
        return lambda c: test(c.cards(PLAYER_FIRST_TWO)) and test(c.cards(BANKER_FIRST_TWO))

    def either(test: Callable[[CardGroup], bool]) -> Callable[[Coup], bool]:
        return lambda c: test(c.cards(PLAYER_FIRST_TWO)) or test(c.cards(BANKER_FIRST_TWO))

    def seat_line(test: Callable[[int, int], bool]) -> Callable[[Coup], bool]:
        return lambda c: test(*hands(c))

    tests: dict[str, Callable[[Coup], bool]] = {
        ROYAL_9_METERS["star"]: seat_line(lambda p, b: p == b == 0),
        ROYAL_9_METERS["spade"]: seat_line(lambda p, b: b == 0),
        ROYAL_9_METERS["heart"]: seat_line(lambda p, b: p == 0),
        ROYAL_9_FIXED[0][0]: seat_line(lambda p, b: p == b > 0),
        ROYAL_9_FIXED[1][0]: both(suited_royal),
        ROYAL_9_FIXED[2][0]: both(royal),
        ROYAL_9_FIXED[3][0]: either(suited_royal),
        ROYAL_9_FIXED[4][0]: either(royal),
    }
    amounts = [*((ROYAL_9_METERS[m], meters[m]) for m in ROYAL_9_METERS),
               *((e, F(a)) for e, a in ROYAL_9_FIXED)]
    lines = tuple(PayLine(e, tests[e], for_one(a)) for e, a in amounts)
    shown = "/".join(_card_text(h) for h in others) or "none"
    return Bet(
        "royal-9",
        f"Royal 9 (seat {_card_text(seat)})",
        lines,
        reads=Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="named", suits="suit",
                       suit_values=[0, 9]),
        source=ROYAL_9_SOURCE,
        rules=("A flat wager (here " + fraction_text(stake) + ") on the first two cards of each side; every "
                                                              "pay is "
               "'for one' (the stake is not returned on top).  A Royal 9 is a nine with a face card (J, Q "
               "or K; "
               f"a 10 is no face).  The seat's printed hand is {_card_text(seat)}; the other seats' are "
               f"{shown}.  "
               "Pays, first match: Star Jackpot (meter) when both hands are the seat's printed hand; Spade "
               "Jackpot (meter) when only the Banker's is; Heart Jackpot (meter) when only the Player's is; "
               "5000 when both hands are the printed hand of one other seat; 1500 when both are suited "
               "Royal 9s; "
               "250 when both are Royal 9s; 50 when one is a suited Royal 9; 25 when one is a Royal 9.  Open "
               "questions: the source copy does not show which suits are printed at which seat (the default "
               "seat K\u26609\u2660 and the other suited K-9s are a reading), and '5000 when both hands "
               "match any other "
               "position' is read as both matching the same other seat.  It reads the ranks of both hands "
               "by name and the suits of their nines and ten-valued cards."),
    )



#: Dragon 7 / Panda 8 progressive (EZ Baccarat, Galaxy Gaming): qualifying events.
D7P8_EVENTS: dict[str, tuple[str, Winner, int]] = {"dragon": ("Dragon 7", B, 7), "panda": ("Panda 8", P, 8)}
D7P8_DEFAULTS: dict[str, str] = {"side": "dragon", "suits": "hc", "jackpot": "0", "suited": "0", "stake": "1"}
D7P8_SOURCE = ('CDC Gaming Reports, "EZ Baccarat adds progressive bonus bet with a twist", '
               "https://cdcgaming.com/ez-baccarat-adds-progressive-bonus-bet-with-a-twist/ (the pay table "
               "is not "
               "published)")
_SUIT_LETTERS = {s.value: s for s in Suit}


def d7p8_progressive(param: str | None) -> Bet:
    """EZ Baccarat's Dragon 7 / Panda 8 progressive: ``KEY=VALUE`` options ``side``
    (``dragon`` or ``panda``), ``suits`` (the seat's Player and Bank suits, e.g. ``hc``),
    ``jackpot`` (the meter) and ``suited`` (the secondary prize), both currency paid for one on
    ``stake``."""
    opts = _options(param, D7P8_DEFAULTS, "d7p8-progressive")
    side_key = _choice(opts["side"], D7P8_EVENTS, "dragon", "d7p8-progressive side")
    label, winner, point = D7P8_EVENTS[side_key]
    letters = opts["suits"].strip().lower()
    if len(letters) != 2 or any(x not in _SUIT_LETTERS for x in letters):
        raise BetError(f"bad d7p8-progressive suits {opts['suits']!r}: give the seat's Player and Bank "
                       "suits, e.g. hc")
    player_suit, bank_suit = _SUIT_LETTERS[letters[0]], _SUIT_LETTERS[letters[1]]
    stake = _amount(opts["stake"], "d7p8-progressive stake")
    if stake <= 0:
        raise BetError(f"bad d7p8-progressive stake {opts['stake']!r}: it must be more than 0")
    jackpot = _amount(opts["jackpot"], "d7p8-progressive jackpot")
    suited_prize = _amount(opts["suited"], "d7p8-progressive suited prize")

    def qualifies(c: Coup) -> bool:  # the side wins with three cards totalling the point
        if winner is P:
            return bool(c.winner is P and c.player_cards == 3 and c.player_total == point)
        return bool(c.winner is B and c.banker_cards == 3 and c.banker_total == point)

    def designated(c: Coup) -> bool:
        return bool(qualifies(c) and c.cards(PLAYER_HAND).suit(player_suit)
                    and c.cards(BANKER_HAND).suit(bank_suit))

    def both_suited(c: Coup) -> bool:
        return bool(qualifies(c) and c.cards(PLAYER_HAND).suited and c.cards(BANKER_HAND).suited)

    return Bet(
        "d7p8-progressive",
        f"{label} progressive (seat {player_suit.symbol}/{bank_suit.symbol})",
        (
            PayLine(f"{label}, both hands in the seat's suits (progressive)", designated,
                    jackpot / stake - 1),
            PayLine(f"{label}, both hands suited (secondary)", both_suited, suited_prize / stake - 1),
        ),
        reads=Reads.of(["winner", "player_total", "banker_total", "player_cards", "banker_cards"],
                       [PLAYER_HAND, BANKER_HAND], suits="one-suit-named"),
        otherwise_event="No progressive or secondary prize",
        source=D7P8_SOURCE,
        rules=(f"Reading of an unpublished pay table.  The bet qualifies on a {label} ("
               + ("the Banker wins with a three-card 7" if winner is B else "the Player wins with a "
                                                                            "three-card 8")
               + f").  The progressive (meter, 'for one') is paid when every card of the Player's hand is a "
               f"{player_suit.name.lower()[:-1]} and every card of the Banker's a "
               f"{bank_suit.name.lower()[:-1]} (the "
               "seat's designated suits; each seat has its own); the secondary prize when both hands are "
               "suited "
               "otherwise.  Open questions: the seven other prizes, the meter's seed and rate, and the "
               "secondary prize are not published (both default to 0, i.e. only what is given is priced); "
               "'all three cards of both hands' is read as every card of each hand, two or three."),
    )



def royal_9_meters(param: str | None) -> tuple[Meter, ...]:
    """The meters of ``royal-9:PARAM``: its three jackpots, paid for one on its stake."""
    stake = _amount(_options(param, ROYAL_9_DEFAULTS, "royal-9")["stake"], "royal-9 stake")
    return tuple(Meter(name, event, 1 / stake, F(-1)) for name, event in ROYAL_9_METERS.items())


def d7p8_meters(param: str | None) -> tuple[Meter, ...]:
    """The meter of ``d7p8-progressive:PARAM``: its jackpot, paid for one on its stake."""
    opts = _options(param, D7P8_DEFAULTS, "d7p8-progressive")
    label = D7P8_EVENTS[_choice(opts["side"], D7P8_EVENTS, "dragon", "d7p8-progressive side")][0]
    stake = _amount(opts["stake"], "d7p8-progressive stake")
    return (Meter("jackpot", f"{label}, both hands in the seat's suits (progressive)", 1 / stake, F(-1)),)
