"""Lucky Win (Galaxy Gaming): a side wins with a low total, paid by suit; its parameter is
five pays."""

from __future__ import annotations

from collections.abc import Callable

from analyzer.bets.families.params import (
    B,
    F,
    P,
)
from analyzer.bets.main import winning_pay as _pay
from analyzer.bets.model import Bet, PayLine
from analyzer.core.cards import Suit
from analyzer.core.coup import (
    BANKER_HAND,
    PLAYER_HAND,
    Coup,
    Winner,
)
from analyzer.core.exact import fraction_text
from analyzer.core.reads import Reads
from analyzer.errors import BetError

#: Lucky Win (Galaxy Gaming), pay table #1: the chosen side wins with a total of 1-5.
LUCKY_WIN_PAYS: tuple[tuple[str, int], ...] = (
    ("Wins with 1, every card a spade", 500), ("Wins with 1, every card of one other suit", 200),
    ("Wins with 1, mixed suits", 30), ("Wins with 2", 20), ("Wins with 3", 12), ("Wins with 4", 8),
    ("Wins with 5", 5),
)
LUCKY_WIN_SOURCE = ('UK Casino Table Games, "Lucky Win (Associated Sidebets / Variations)", '
                    "https://www.ukcasinotablegames.info/puntoluckywin.html (usual odds paid); E. Jacobson, "
                    '"Card Counting the Lucky Win Baccarat Side Bet", '
                    "https://888casino.com/blog/side-bets/card-counting-the-lucky-win-baccarat-side-bet "
                    "(pay table #1, Player: house edge 12.040%)")


def _lucky_win(side: Winner) -> Callable[[str | None], Bet]:
    mine = side.value
    hand = PLAYER_HAND if side is P else BANKER_HAND

    def make(param: str | None) -> Bet:
        pays = [F(p) for _, p in LUCKY_WIN_PAYS]
        if param is not None:
            parts = param.split("/")
            if len(parts) != 5:
                raise BetError(f"bad Lucky Win pays {param!r}: give five pays, for a 1 of mixed suits, 2, "
                               "3, 4 "
                               "and 5, e.g. 30/20/12/8/5")
            pays[2:] = [_pay(x, 1, "Lucky Win pay") for x in parts]

        def total(n: int) -> Callable[[Coup], bool]:
            return lambda c: c.winner is side and c.cards(hand).total == n

        def with_one(suit: Suit | None) -> Callable[[Coup], bool]:
            def test(c: Coup) -> bool:
                g = c.cards(hand)
                return total(1)(c) and g.suited and (suit is None or g.suit(suit))
            return test

        tests: list[Callable[[Coup], bool]] = [with_one(Suit.SPADES), with_one(None), total(1),
                                               total(2), total(3), total(4), total(5)]
        tail = ", ".join(f"{n}: {fraction_text(p)}" for n, p in zip((2, 3, 4, 5), pays[3:], strict=True))
        banker_note = (
            "  Open question: the source's Banker list is cut off after its first two lines (500, 200); "
            "the rest is taken to be the Player's, which gives the player an edge of about 15.6% (8 decks), "
            "so the real Banker pays must be lower: give them as the parameter."
        ) if side is B else ""
        return Bet(
            f"lucky-win-{mine}",
            f"Lucky Win ({side.label})",
            tuple(PayLine(e, t, p) for (e, _), t, p in zip(LUCKY_WIN_PAYS, tests, pays, strict=True)),
            reads=Reads.of(["winner"], [hand], suits="one-suit-named"),
            source=LUCKY_WIN_SOURCE,
            rules=(f"Wins when the {side.label} wins with a total of 5 or less.  With 1: 500 to 1 when "
                   "every card "
                   f"of the {side.label}'s hand (two or three cards) is a spade, 200 to 1 when they are all "
                   "of one "
                   f"other suit, {fraction_text(pays[2])} to 1 otherwise; with {tail} to 1.  Anything else "
                   "loses.  The suits are read over the whole winning hand (the reading that reproduces the "
                   "published Player house edge, 12.040%)." + banker_note),
        )

    return make


def lucky_win_player(param: str | None) -> Bet:
    """Lucky Win on the Player (``param``: five pays, e.g. ``30/20/12/8/5``)."""
    return _lucky_win(P)(param)


def lucky_win_banker(param: str | None) -> Bet:
    """Lucky Win on the Banker (``param``: five pays, e.g. ``30/20/12/8/5``)."""
    return _lucky_win(B)(param)
