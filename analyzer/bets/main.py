"""The main bets: Banker, Player and Tie as the rule sheets pay them (RULES.md, "Pay tables
in the sheets"), and the exact amounts bets are paid in.

Their own module, under the catalogue (:mod:`analyzer.bets.catalogue` lists them with the side
bets): ``analyze`` prices them without loading the side-bet catalogue.
"""

from __future__ import annotations

from fractions import Fraction

from analyzer.bets.model import Bet, PayLine, is_tie, wins
from analyzer.core.coup import Winner
from analyzer.core.exact import fraction_text, parse_exact
from analyzer.core.reads import Reads
from analyzer.errors import AnalyzerError, BetError

F = Fraction
P, B = Winner.PLAYER, Winner.BANKER

#: What the main bets read.
WINNER = Reads.of(["winner"])


def parse_amount(text: str | Fraction | int, what: str) -> Fraction:
    """Parse a pay or rate given as an integer, a fraction ``p/q`` or a decimal (exactly; a
    trailing ``%`` is ignored).

    Raises:
        BetError: the text is not such a number (or is absurdly long, e.g. ``1e999999999``).

    >>> parse_amount("19/20", "pay"), parse_amount("0.95", "pay"), parse_amount("8", "pay")
    (Fraction(19, 20), Fraction(19, 20), Fraction(8, 1))
    """
    try:
        return parse_exact(text.strip().removesuffix("%") if isinstance(text, str) else text, what)
    except AnalyzerError as exc:
        raise BetError(str(exc)) from None


def winning_pay(param: str | None, default: int | Fraction, what: str = "pay") -> Fraction:
    value = F(default) if param is None else parse_amount(param, what)
    if value <= 0:
        raise BetError(f"bad {what} {param!r}: a winning pay must be greater than 0")
    return value


def banker(param: str | None) -> Bet:
    """Banker with commission ``param`` percent on wins (default 5: pays 19/20)."""
    rate = F(5) if param is None else parse_amount(param, "commission (percent)")
    if not 0 <= rate < 100:
        raise BetError(f"bad commission {param!r}: use a percentage from 0 up to (not incl.) 100")
    pays = 1 - rate / 100
    return Bet(
        name="banker",
        title=f"Banker ({fraction_text(rate)}% commission)",
        lines=(PayLine("Banker wins", wins(B), pays), PayLine("Tie (push)", is_tie, F(0))),
        reads=WINNER,
        otherwise_event="Player wins",
        source="rule sheets 000, 001, 003, 004 (19 for 20)",
        adjustable=0,
    )


def player(param: str | None) -> Bet:
    """Player, pays ``param`` (default 1, even money); a tie pushes."""
    return Bet(
        name="player",
        title="Player",
        lines=(PayLine("Player wins", wins(P), winning_pay(param, 1)), PayLine("Tie (push)", is_tie, F(0))),
        reads=WINNER,
        otherwise_event="Banker wins",
        source="rule sheets 000-004",
        adjustable=0,
    )


def tie(param: str | None) -> Bet:
    """Tie, pays ``param`` to 1 (default 8)."""
    pays = winning_pay(param, 8)
    return Bet(
        name="tie",
        title=f"Tie ({fraction_text(pays)} to 1)",
        lines=(PayLine("Tie", is_tie, pays),),
        reads=WINNER,
        otherwise_event="Player or Banker wins",
        source="rule sheets 000-004 (8 to 1); 9 to 1 is a common variant",
        adjustable=0,
    )


def main_bets() -> list[Bet]:
    """Banker (5%), Player, Tie (8 to 1), named as the catalogue names them: ``find_bet`` gives
    the same bets (name, origin, title, reads and pay lines).  A new list of the same (frozen)
    bets every call: a loop that asks for them each time costs no more than one that keeps
    them."""
    global _MAIN
    if not _MAIN:  # built once (threads racing here build equal bets; one set is kept)
        built = (banker(None), player(None), tie(None))
        _MAIN = tuple(bet.with_origin(f"catalogue:{bet.name}") for bet in built)
    return list(_MAIN)


_MAIN: tuple[Bet, ...] = ()


def commission_for_pay(pays: Fraction) -> str:
    """The Banker's parameter (a commission in percent) that gives a win ``pays``: 19/20 -> 5."""
    return fraction_text((1 - pays) * 100)
