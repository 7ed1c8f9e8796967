"""The named bet catalogue: main bets, the rule-sheet pay tables, and common side bets.

Each entry is a factory taking an optional parameter (``NAME:PARAM`` on the command line),
registered under a name and aliases (cf. python-chess ``find_variant``).  Pay tables follow
RULES.md ("Pay tables in the sheets", "Common casino variants and side bets").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.model import Bet, PayLine, combine, is_tie, wins
from analyzer.core.coup import BANKER_FIRST_TWO, PLAYER_FIRST_TWO, Coup, Winner
from analyzer.core.exact import fraction_text, parse_exact
from analyzer.core.reads import Reads
from analyzer.errors import AnalyzerError, BetError

F = Fraction
P, B, T = Winner.PLAYER, Winner.BANKER, Winner.TIE

#: What the catalogue's bets read.
WINNER = Reads.of(["winner"])
WINNER_TOTALS = Reads.of(["player_total", "banker_total"])
BANKER_RESULT = Reads.of(["winner", "banker_total", "banker_cards"])
PLAYER_RESULT = Reads.of(["winner", "player_total", "player_cards"])
DRAGON_BONUS = Reads.of(["player_total", "banker_total", "player_natural", "banker_natural"])
CARDS_DEALT = Reads.of(["cards"])
PAIRS = {
    "player": Reads.of([], [PLAYER_FIRST_TWO], ranks="equality"),
    "banker": Reads.of([], [BANKER_FIRST_TWO], ranks="equality"),
}
EITHER_PAIR = Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="equality")
PERFECT_PAIR = Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="equality", suits="same-card")

#: Égalité pays per tie total (RULES.md, "Égalité").
EGALITE_PAYS: dict[int, int] = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}
#: Dragon Bonus pays for a non-natural win by 9, 8, 7, 6, 5, 4 points (RULES.md).
DRAGON_BONUS_MARGIN_PAYS: dict[int, int] = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
#: Égalité groupings as published by the Wizard of Odds ("Egalite Bets in Baccarat"):
#: tie totals -> pays.
EGALITE_GROUPS: dict[str, int] = {"0": 160, "1-3": 70, "4-5": 60, "6-7": 22, "8-9": 40}
#: Even / odd final total pays, (side, odd) -> pays: the Triple PG table the Wizard of Odds
#: analyses ("Even and Odd"): every bet pays 0.86 to 1 except Player Odd, which pays 0.9.
PARITY_PAYS: dict[tuple[str, bool], Fraction] = {
    ("player", False): Fraction(86, 100),
    ("player", True): Fraction(9, 10),
    ("banker", False): Fraction(86, 100),
    ("banker", True): Fraction(86, 100),
}
PARITY_SOURCE = ('Wizard of Odds, "Even and Odd", https://wizardofodds.com/games/baccarat/side-bets/even-odd/ '
                 "(Triple PG pay table: 0.86 to 1, Player Odd 0.9 to 1)")
#: Lucky 6 pay tables: (two-card 6 pays, three-card 6 pays).
LUCKY_6_TABLES: dict[str, tuple[int, int]] = {"1": (12, 20), "2": (12, 23)}


def parse_amount(text: str, what: str) -> Fraction:
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


# -- factories ----------------------------------------------------------------------------------


def _pay(param: str | None, default: int | Fraction, what: str = "pay") -> Fraction:
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
        lines=(PayLine("Player wins", wins(P), _pay(param, 1)), PayLine("Tie (push)", is_tie, F(0))),
        reads=WINNER,
        otherwise_event="Banker wins",
        source="rule sheets 000-004",
        adjustable=0,
    )


def tie(param: str | None) -> Bet:
    """Tie, pays ``param`` to 1 (default 8)."""
    pays = _pay(param, 8)
    return Bet(
        name="tie",
        title=f"Tie ({fraction_text(pays)} to 1)",
        lines=(PayLine("Tie", is_tie, pays),),
        reads=WINNER,
        otherwise_event="Player or Banker wins",
        source="rule sheets 000-004 (8 to 1); 9 to 1 is a common variant",
        adjustable=0,
    )


def _banker_half_on(total: int, name: str, title: str, source: str) -> Callable[[str | None], Bet]:
    def make(param: str | None) -> Bet:
        return Bet(
            name=name,
            title=title,
            lines=(
                PayLine(
                    f"Banker wins with {total}",
                    lambda f: f.winner is B and f.banker_total == total,
                    _pay(param, F(1, 2)),
                ),
                PayLine("Banker wins otherwise", wins(B), F(1)),
                PayLine("Tie (push)", is_tie, F(0)),
            ),
            reads=Reads.of(["winner", "banker_total"]),
            otherwise_event="Player wins",
            source=source,
            adjustable=0,
        )

    return make


def ez_banker(_: str | None) -> Bet:
    """EZ Baccarat Banker: no commission, a Banker win with a three-card 7 pushes."""
    return Bet(
        name="ez-banker",
        title="EZ Baccarat Banker (3-card 7 pushes)",
        lines=(
            PayLine("Banker wins with 3-card 7 (push)", _dragon_7, F(0)),
            PayLine("Banker wins otherwise", wins(B), F(1)),
            PayLine("Tie (push)", is_tie, F(0)),
        ),
        reads=BANKER_RESULT,
        otherwise_event="Player wins",
        source="RULES.md, EZ Baccarat",
    )


def _dragon_7(f: Coup) -> bool:
    return f.winner is B and f.banker_total == 7 and f.banker_cards == 3


def _panda_8(f: Coup) -> bool:
    return f.winner is P and f.player_total == 8 and f.player_cards == 3


def dragon_7(param: str | None) -> Bet:
    """Dragon 7: the Banker wins with a three-card 7, pays ``param`` (default 40)."""
    return Bet(
        "dragon-7",
        "Dragon 7",
        (PayLine("Banker wins with 3-card 7", _dragon_7, _pay(param, 40)),),
        reads=BANKER_RESULT,
        source="RULES.md, EZ Baccarat side bets",
        adjustable=0,
    )


def panda_8(param: str | None) -> Bet:
    """Panda 8: the Player wins with a three-card 8, pays ``param`` (default 25)."""
    return Bet(
        "panda-8",
        "Panda 8",
        (PayLine("Player wins with 3-card 8", _panda_8, _pay(param, 25)),),
        reads=PLAYER_RESULT,
        source="RULES.md, EZ Baccarat side bets",
        adjustable=0,
    )


def _dragon_bonus(side: Winner) -> Callable[[str | None], Bet]:
    mine = "player" if side is P else "banker"

    def natural(f: Coup) -> bool:
        return f.player_natural if side is P else f.banker_natural

    def make(_: str | None) -> Bet:
        lines = [
            PayLine("Natural win", lambda f: f.winner is side and natural(f), F(1)),
            PayLine("Natural tie (push)", lambda f: f.winner is T and f.natural, F(0)),
        ]
        for margin, pays in DRAGON_BONUS_MARGIN_PAYS.items():
            lines.append(PayLine(f"Non-natural win by {margin}", _wins_by(side, margin), F(pays)))
        return Bet(
            f"dragon-bonus-{mine}",
            f"Dragon Bonus ({mine.capitalize()})",
            tuple(lines),
            reads=DRAGON_BONUS,
            source="RULES.md, Dragon Bonus",
        )

    return make


def _wins_by(side: Winner, margin: int) -> Callable[[Coup], bool]:
    """Condition: ``side`` wins without a natural on either side, by exactly ``margin`` points."""
    return lambda f: f.winner is side and not f.natural and f.margin == margin


def _pair(side: str) -> Callable[[str | None], Bet]:
    def make(param: str | None) -> Bet:
        when: Callable[[Coup], bool] = (
            (lambda c: c.player_pair) if side == "player" else (lambda c: c.banker_pair)
        )
        return Bet(
            f"{side}-pair",
            f"{side.capitalize()} Pair",
            (PayLine(f"{side.capitalize()} pair", when, _pay(param, 11)),),
            reads=PAIRS[side],
            source="RULES.md, Player Pair / Banker Pair",
            adjustable=0,
        )

    return make


def either_pair(param: str | None) -> Bet:
    """Either Pair: either side's first two cards are a pair, pays ``param`` (default 5)."""
    return Bet(
        "either-pair",
        "Either Pair",
        (PayLine("Either side pairs", lambda c: c.player_pair or c.banker_pair, _pay(param, 5)),),
        reads=EITHER_PAIR,
        source="RULES.md, Either Pair",
        adjustable=0,
    )


def perfect_pair(param: str | None) -> Bet:
    """Perfect Pair: ``1`` (default) pays 25 if either side's first two cards are a suited
    pair; ``2`` pays 25 for one and 250 for both."""
    version = param or "1"
    if version not in ("1", "2"):
        raise BetError(f"bad Perfect Pair version {param!r}: use 1 (25 either) or 2 (25 one, 250 both)")

    def both(c: Coup) -> bool:
        return c.player_suited_pair and c.banker_suited_pair

    def one(c: Coup) -> bool:
        return c.player_suited_pair or c.banker_suited_pair

    lines = (
        (PayLine("Either side suited pair", one, F(25)),)
        if version == "1"
        else (
            PayLine("Both sides suited pairs", both, F(250)),
            PayLine("One side suited pair", one, F(25)),
        )
    )
    return Bet(
        "perfect-pair",
        f"Perfect Pair (version {version})",
        lines,
        reads=PERFECT_PAIR,
        source="RULES.md, Perfect Pair",
    )


def big(param: str | None) -> Bet:
    """Big: the coup uses 5 or 6 cards, pays ``param`` (default 0.54)."""
    return Bet(
        "big",
        "Big (5 or 6 cards)",
        (PayLine("5 or 6 cards", lambda c: c.cards_dealt >= 5, _pay(param, F(54, 100))),),
        reads=CARDS_DEALT,
        otherwise_event="4 cards",
        source="RULES.md, Big / Small",
        adjustable=0,
    )


def small(param: str | None) -> Bet:
    """Small: the coup uses exactly 4 cards, pays ``param`` (default 1.5)."""
    return Bet(
        "small",
        "Small (4 cards)",
        (PayLine("4 cards", lambda c: c.cards_dealt == 4, _pay(param, F(3, 2))),),
        reads=CARDS_DEALT,
        otherwise_event="5 or 6 cards",
        source="RULES.md, Big / Small",
        adjustable=0,
    )


def lucky_6(param: str | None) -> Bet:
    """Lucky 6: the Banker wins with 6; table ``1`` (default) pays 12 / 20 for two / three
    cards, table ``2`` pays 12 / 23."""
    table = param or "1"
    if table not in LUCKY_6_TABLES:
        raise BetError(f"bad Lucky 6 pay table {param!r}: use 1 (12/20) or 2 (12/23)")
    two, three = LUCKY_6_TABLES[table]
    lines = (
        PayLine(
            "Banker wins with two-card 6",
            lambda f: f.winner is B and f.banker_total == 6 and f.banker_cards == 2,
            F(two),
        ),
        PayLine(
            "Banker wins with three-card 6",
            lambda f: f.winner is B and f.banker_total == 6 and f.banker_cards == 3,
            F(three),
        ),
    )
    return Bet("lucky-6", f"Lucky 6 (pays {two} / {three})", lines, reads=BANKER_RESULT, source="RULES.md, Lucky 6")


def egalite(param: str | None) -> Bet:
    """Égalité: a tie on the named total(s).  ``PARAM`` is a total ``0``..``9``, or several
    (``0-2``, ``8,9``) for a grouped tie bet; pays per RULES.md for one total.  A group pays
    ``TOTALS@PAY`` (e.g. ``8,9@40``)."""
    if param is None:
        raise BetError("egalite needs a tie total: egalite:0 .. egalite:9, or a group such as egalite:8,9@40")
    spec, _, pay_text = param.partition("@")
    totals = _parse_totals(spec)
    if len(totals) == 1 and not pay_text:
        pays = F(EGALITE_PAYS[totals[0]])
    elif not pay_text:
        raise BetError(f"egalite group {spec!r} needs its pay: e.g. egalite:{spec}@40")
    else:
        pays = _pay(pay_text, 1)
    label = ",".join(map(str, totals))
    return Bet(
        f"egalite:{label}" + (f"@{pay_text}" if pay_text else ""),
        f"Égalité {spec.strip()} ({fraction_text(pays)} to 1)",
        (PayLine(f"Tie on {label}", lambda c: c.winner is T and c.player_total in totals, pays),),
        reads=WINNER_TOTALS,
        source="RULES.md, Égalité",
        adjustable=0,
    )


def _parse_totals(spec: str) -> list[int]:
    out: set[int] = set()
    for part in spec.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            if not all(x.strip().isdigit() and x.isascii() for x in ([lo, hi] if dash else [lo])):
                raise ValueError(part)
            a = int(lo)
            b = int(hi) if dash else a
        except ValueError:
            raise BetError(f"bad tie total {part!r}: use totals 0-9, e.g. 5, 0-2 or 8,9") from None
        if not (0 <= a <= b <= 9):
            raise BetError(f"bad tie total {part!r}: use totals 0-9, e.g. 5, 0-2 or 8,9")
        out.update(range(a, b + 1))
    return sorted(out)


def _banker_natural(total: int) -> Callable[[str | None], Bet]:
    def make(param: str | None) -> Bet:
        return Bet(
            f"banker-natural-{total}",
            f"Banker natural {total}",
            (
                PayLine(
                    f"Banker natural {total}",
                    lambda f: f.banker_natural and f.banker_total == total,
                    _pay(param, 9),
                ),
            ),
            reads=Reads.of(["banker_natural", "banker_total"]),
            source="RULES.md, Banker natural 8 / natural 9",
            adjustable=0,
        )

    return make


def _three_card_win(side: Winner, default: int) -> Callable[[str | None], Bet]:
    mine = side.value

    def make(param: str | None) -> Bet:
        def when(f: Coup) -> bool:
            return f.winner is side and f.winner_cards == 3

        return Bet(
            f"{mine}-3-card-win",
            f"{side.label} 3-card win",
            (PayLine(f"{side.label} wins with 3 cards", when, _pay(param, default)),),
            reads=Reads.of(["winner_cards"]),
            source="RULES.md, Player / Banker 3-card win",
            adjustable=0,
        )

    return make


def _parity(side: Winner, odd: bool) -> Callable[[str | None], Bet]:
    mine, word = side.value, "odd" if odd else "even"

    def make(param: str | None) -> Bet:
        def when(f: Coup) -> bool:
            total = f.player_total if side is P else f.banker_total
            return total % 2 == (1 if odd else 0)

        return Bet(
            f"{mine}-{word}",
            f"{side.label} {word} total",
            (PayLine(f"{side.label} total {word}", when, _pay(param, PARITY_PAYS[(mine, odd)])),),
            reads=Reads.of([f"{mine}_total"]),
            source=PARITY_SOURCE,
            adjustable=0,
        )

    return make


def _combined(side: str) -> Callable[[str | None], Bet]:
    def make(param: str | None) -> Bet:
        main = banker(None) if side == "banker" else player(None)
        return combine([tie(param), main])

    return make


# -- the registry -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A catalogue entry: ``make(param)`` builds the bet; ``param`` documents the parameter."""

    name: str
    make: Callable[[str | None], Bet]
    summary: str
    param: str = ""
    aliases: tuple[str, ...] = ()
    main: bool = False


CATALOGUE: tuple[Entry, ...] = (
    Entry(
        "banker",
        banker,
        "Banker, 5% commission (19/20)",
        "commission %, e.g. banker:4",
        ("banco", "b"),
        main=True,
    ),
    Entry("player", player, "Player, even money", "pay", ("punto", "p"), main=True),
    Entry("tie", tie, "Tie 8 to 1", "pay, e.g. tie:9", ("egalite-any", "t", "standoff"), main=True),
    Entry(
        "punto-2000",
        _banker_half_on(
            6, "punto-2000", "Banker, Punto 2000 (no commission, 6 pays 1/2)", "rule sheet 001 (Punto 2000)"
        ),
        "no-commission Banker, a win with 6 pays 1/2 (sheet 001)",
        "pay on a winning 6",
        ("banker-6-half", "no-commission"),
    ),
    Entry(
        "banker-8-half",
        _banker_half_on(
            8, "banker-8-half", "Banker, no commission, 8 pays 1/2 (sheet 002)", "rule sheet 002, as written"
        ),
        "no-commission Banker, a win with 8 pays 1/2 (sheet 002)",
        "pay on a winning 8",
        ("sheet-002",),
    ),
    Entry("ez-banker", ez_banker, "EZ Baccarat Banker: no commission, 3-card 7 pushes", "", ("ez",)),
    Entry(
        "tie+player",
        _combined("player"),
        "Tie and Player staked together (sheet 000)",
        "tie pay",
        ("player+tie",),
    ),
    Entry(
        "tie+banker",
        _combined("banker"),
        "Tie and Banker staked together (sheet 000)",
        "tie pay",
        ("banker+tie",),
    ),
    Entry("player-pair", _pair("player"), "Player's first two cards a pair, pays 11", "pay", ("pp",)),
    Entry("banker-pair", _pair("banker"), "Banker's first two cards a pair, pays 11", "pay", ("bp",)),
    Entry("either-pair", either_pair, "either side's first two cards a pair, pays 5", "pay"),
    Entry(
        "perfect-pair",
        perfect_pair,
        "suited pair on either side: v1 pays 25; v2 25 one / 250 both",
        "version 1 or 2",
    ),
    Entry("dragon-7", dragon_7, "Banker wins with a 3-card 7, pays 40", "pay", ("dragon7",)),
    Entry("panda-8", panda_8, "Player wins with a 3-card 8, pays 25", "pay", ("panda8",)),
    Entry("dragon-bonus-player", _dragon_bonus(P), "Dragon Bonus on the Player", "", ("dragon-bonus",)),
    Entry("dragon-bonus-banker", _dragon_bonus(B), "Dragon Bonus on the Banker"),
    Entry("big", big, "coup uses 5 or 6 cards, pays 0.54", "pay"),
    Entry("small", small, "coup uses exactly 4 cards, pays 1.5", "pay"),
    Entry(
        "lucky-6", lucky_6, "Banker wins with 6: 12 two cards, 20 (or 23) three", "table 1 or 2", ("lucky6",)
    ),
    Entry(
        "egalite",
        egalite,
        "tie on a named total (0:150 .. 9:80), or a group TOTALS@PAY",
        "total 0-9, or e.g. 8,9@40",
    ),
    Entry("banker-natural-8", _banker_natural(8), "Banker natural 8, pays 9", "pay"),
    Entry("banker-natural-9", _banker_natural(9), "Banker natural 9, pays 9", "pay"),
    Entry("player-3-card-win", _three_card_win(P, 4), "Player wins with 3 cards, pays 4", "pay"),
    Entry("banker-3-card-win", _three_card_win(B, 5), "Banker wins with 3 cards, pays 5", "pay"),
    Entry("player-even", _parity(P, False), "Player's final total even (0 counts even), pays 0.86", "pay"),
    Entry("player-odd", _parity(P, True), "Player's final total odd, pays 0.9", "pay"),
    Entry("banker-even", _parity(B, False), "Banker's final total even, pays 0.86", "pay"),
    Entry("banker-odd", _parity(B, True), "Banker's final total odd, pays 0.86", "pay"),
)

_BY_NAME: dict[str, Entry] = {}
for _entry in CATALOGUE:
    for _key in (_entry.name, *_entry.aliases):
        _BY_NAME[_key] = _entry


def find_bet(spec: str) -> Bet:
    """The catalogue bet named by ``spec`` = ``NAME`` or ``NAME:PARAM`` (names and aliases are
    case-insensitive; ``_`` and spaces count as ``-``).

    Raises:
        BetError: unknown name (the message lists the names) or bad parameter.

    >>> find_bet("banker:4").title, find_bet("Tie:9").title
    ('Banker (4% commission)', 'Tie (9 to 1)')
    """
    if not isinstance(spec, str):
        raise BetError(f"bad bet {spec!r}: give a catalogue name such as 'banker' or 'tie:9'")
    name, sep, param = spec.strip().partition(":")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    entry = _BY_NAME.get(key)
    if entry is None:
        raise BetError(f"unknown bet {name!r}: known bets are {', '.join(e.name for e in CATALOGUE)}")
    if sep and not param.strip():
        raise BetError(f"bet {spec!r} has an empty parameter after ':'")
    if sep and not entry.param:
        raise BetError(f"bet {entry.name!r} takes no parameter; got {param.strip()!r}")
    bet = entry.make(param.strip() if sep else None)
    return dataclasses.replace(bet, name=entry.name + (f":{param.strip()}" if sep else ""))


def catalogue_bets() -> list[Bet]:
    """Every catalogue bet with its default parameters, plus the published alternatives (Tie 9 to
    1, Banker 4%, Perfect Pair v2, Lucky 6 table 2, Égalité on each total and its groupings)."""
    specs = [e.name for e in CATALOGUE if e.name != "egalite"]
    extra = ["banker:4", "tie:9", "perfect-pair:2", "lucky-6:2"]
    egal = [f"egalite:{t}" for t in range(10)] + [f"egalite:{g}@{p}" for g, p in EGALITE_GROUPS.items()]
    ordered: list[str] = []
    for s in specs:
        ordered.append(s)
        ordered.extend(x for x in extra if x.split(":")[0] == s)
    return [find_bet(s) for s in ordered + egal]


def main_bets() -> list[Bet]:
    """Banker (5%), Player, Tie (8 to 1): the standard pay table of the rule sheets."""
    return [find_bet(e.name) for e in CATALOGUE if e.main]
