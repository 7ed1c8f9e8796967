"""The named bet catalogue: main bets, the rule-sheet pay tables, and common side bets.

Each entry is a factory taking an optional parameter (``NAME:PARAM`` on the command line),
registered under a name and aliases (cf. python-chess ``find_variant``).  Pay tables follow
RULES.md ("Pay tables in the sheets", "Common casino variants and side bets").
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from analyzer.bets.main import banker, parse_amount, player, tie
from analyzer.bets.main import main_bets as _main_bets
from analyzer.bets.main import winning_pay as _pay
from analyzer.bets.model import Bet, PayLine, combine, is_tie, wins
from analyzer.core.cards import SUITS, Card, Colour, Rank, Suit, parse_card
from analyzer.core.coup import (
    ALL_CARDS,
    BANKER_FIRST_TWO,
    BANKER_HAND,
    FIRST_FOUR,
    PLAYER_FIRST_TWO,
    PLAYER_HAND,
    Coup,
    Winner,
)
from analyzer.core.exact import fraction_text
from analyzer.core.hands import CardGroup
from analyzer.core.reads import Reads
from analyzer.errors import BetError

F = Fraction
P, B, T = Winner.PLAYER, Winner.BANKER, Winner.TIE

#: What the catalogue's bets read (WINNER, the main bets': :mod:`analyzer.bets.main`).
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
#: Dragon Bonus pays for a non-natural win by 9, 8, 7, 6, 5, 4 points (RULES.md; the table the
#: Wizard of Odds analyses, "Baccarat Side Bets", appendix 5).
DRAGON_BONUS_MARGIN_PAYS: dict[int, int] = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
#: Dragon Bonus pay tables by number: non-natural win margin -> pays (a natural win pays 1 and a
#: natural tie pushes in both).  Table 2 is the one Cypress Bayou posts (win by 6 or 7 pays 4,
#: by 4 or 5 pays 2); a third published table was not found.
DRAGON_BONUS_TABLES: dict[str, dict[int, int]] = {
    "1": DRAGON_BONUS_MARGIN_PAYS,
    "2": {9: 30, 8: 10, 7: 4, 6: 4, 5: 2, 4: 2},
}
DRAGON_BONUS_SOURCES: dict[str, str] = {
    "1": 'Wizard of Odds, "Baccarat Side Bets" (appendix 5), '
         'https://wizardofodds.com/games/baccarat/appendix/5/',
    "2": 'Cypress Bayou Casino, "Mini Baccarat" (Dragon Bonus), '
         "http://www.cypressbayou.com/play-casino-table-games/mini-baccarat",
}
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
PARITY_SOURCE = ('Wizard of Odds, "Even and Odd", '
                 'https://wizardofodds.com/games/baccarat/side-bets/even-odd/ '
                 "(Triple PG pay table: 0.86 to 1, Player Odd 0.9 to 1)")
LUCKY_6_SOURCE = 'Wizard of Odds, "Lucky 6", https://wizardofodds.com/games/baccarat/side-bets/lucky-6/'
#: Lucky 6 pay tables: (two-card 6 pays, three-card 6 pays).
LUCKY_6_TABLES: dict[str, tuple[int, int]] = {"1": (12, 20), "2": (12, 23)}


# -- factories ----------------------------------------------------------------------------------


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

    def make(param: str | None) -> Bet:
        table = _choice(param, DRAGON_BONUS_TABLES, "1", "Dragon Bonus pay table")
        lines = [
            PayLine("Natural win", lambda f: f.winner is side and natural(f), F(1)),
            PayLine("Natural tie (push)", lambda f: f.winner is T and f.natural, F(0)),
        ]
        for margin, pays in DRAGON_BONUS_TABLES[table].items():
            lines.append(PayLine(f"Non-natural win by {margin}", _wins_by(side, margin), F(pays)))
        margins = ", ".join(f"{m}: {p}" for m, p in DRAGON_BONUS_TABLES[table].items())
        return Bet(
            f"dragon-bonus-{mine}",
            f"Dragon Bonus ({mine.capitalize()})" + ("" if table == "1" else f", pay table {table}"),
            tuple(lines),
            reads=DRAGON_BONUS,
            source=DRAGON_BONUS_SOURCES[table],
            rules=(f"Pays on the {side.label} hand: a natural win pays 1 to 1 and a natural tie pushes; "
                   f"a win without a natural on either side pays by the winning margin in points "
                   f"({margins}); anything else, a non-natural tie included, loses."),
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


#: Perfect Pair versions: (pays for one suited pair, pays when both sides have one, or None when
#: both pay as one).  The Wizard of Odds analyses version 1 (Playtech, BetConstruct) and
#: version 2 (Evolution); 25 / 200 is a pay table users ask for, not found published.
PERFECT_PAIR_VERSIONS: dict[str, tuple[int, int | None]] = {
    "1": (25, None), "2": (25, 250), "25/200": (25, 200),
}
PERFECT_PAIR_SOURCES: dict[str, str] = {
    "1": 'Wizard of Odds, "Perfect Pairs (version 1)", '
         "https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver1/",
    "2": 'Wizard of Odds, "Perfect Pairs (version 2)", '
         "https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver2/",
}


def perfect_pair(param: str | None) -> Bet:
    """Perfect Pair: ``1`` (default) pays 25 if either side's first two cards are a suited
    pair (two identical cards); ``2`` pays 25 for one and 250 for both; ``ONE/BOTH`` (e.g.
    ``25/200``) pays ONE for one and BOTH for both."""
    version = param or "1"
    one_pays: Fraction
    both_pays: Fraction | None
    if version in PERFECT_PAIR_VERSIONS:
        one_i, both_i = PERFECT_PAIR_VERSIONS[version]
        one_pays, both_pays = F(one_i), (None if both_i is None else F(both_i))
    elif "/" in version and version.count("/") == 1 and "." not in version:
        one_text, both_text = version.split("/")
        one_pays, both_pays = _pay(one_text, 1), _pay(both_text, 1)
    else:
        raise BetError(f"bad Perfect Pair version {param!r}: use 1 (25 either), 2 (25 one, 250 both) "
                       "or ONE/BOTH pays such as 25/200")

    def both(c: Coup) -> bool:
        return c.player_suited_pair and c.banker_suited_pair

    def one(c: Coup) -> bool:
        return c.player_suited_pair or c.banker_suited_pair

    lines = (
        (PayLine("Either side suited pair", one, one_pays),)
        if both_pays is None
        else (
            PayLine("Both sides suited pairs", both, both_pays),
            PayLine("One side suited pair", one, one_pays),
        )
    )
    label = f"version {version}" if version in ("1", "2") else f"{fraction_text(one_pays)} one / " \
        f"{fraction_text(both_pays or one_pays)} both"
    return Bet(
        "perfect-pair",
        f"Perfect Pair ({label})",
        lines,
        reads=PERFECT_PAIR,
        source=PERFECT_PAIR_SOURCES.get(version, PERFECT_PAIR_SOURCES["2"] + " (its counts; this pay table "
                                                                             "is "
                                        "not in the source)"),
        rules=("Pays when the first two cards of the Player or of the Banker are two identical cards "
               "(same rank and suit): " + (f"{fraction_text(one_pays)} to 1 if either side has one"
                                           if both_pays is None else
                                           f"{fraction_text(both_pays)} to 1 if both sides have one, "
                                           f"{fraction_text(one_pays)} to 1 if one side has one") + "."),
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
    return Bet("lucky-6", f"Lucky 6 (pays {two} / {three})", lines, reads=BANKER_RESULT,
               source=LUCKY_6_SOURCE + " "
                      f"({'stingy' if table == '1' else 'liberal'} pay table; also called the Tiger)",
               rules=(f"Pays when the Banker wins with a total of 6: {two} to 1 with two cards, {three} to 1 "
                      "with three cards; anything else loses."))


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


# -- parameters -----------------------------------------------------------------------------------


def _choice(param: str | None, options: Mapping[str, object], default: str, what: str) -> str:
    """The option ``param`` names (case-insensitive), or ``default``.

    Raises:
        BetError: ``param`` names none of ``options``.
    """
    if param is None:
        return default
    key = param.strip().lower()
    if key not in options:
        raise BetError(f"bad {what} {param!r}: use one of {', '.join(options)}")
    return key


def _side(param: str | None, what: str) -> Winner:
    """``player`` (default) or ``banker`` (also ``p`` / ``b``)."""
    key = _choice(param, {"player": P, "banker": B, "p": P, "b": B}, "player", f"{what} side")
    return P if key in ("player", "p") else B


def _options(param: str | None, defaults: dict[str, str], what: str) -> dict[str, str]:
    """``key=value`` options separated by commas, over ``defaults`` (which name every key).

    Raises:
        BetError: an unknown or repeated key, or an option without ``=``.
    """
    out = dict(defaults)
    if param is None:
        return out
    seen: set[str] = set()
    for part in param.split(","):
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not value.strip():
            raise BetError(f"bad {what} option {part.strip()!r}: write KEY=VALUE, e.g. "
                           f"{next(iter(defaults))}={defaults[next(iter(defaults))]}")
        if key not in defaults:
            raise BetError(f"unknown {what} option {key!r}: known are {', '.join(defaults)}")
        if key in seen:
            raise BetError(f"{what} option {key!r} is given twice")
        seen.add(key)
        out[key] = value.strip()
    return out


def _amount(text: str, what: str) -> Fraction:
    """A non-negative exact amount (a meter reading, a prize, a stake).

    Raises:
        BetError: not an exact number, or negative.
    """
    value = parse_amount(text, what)
    if value < 0:
        raise BetError(f"bad {what} {text!r}: it must be 0 or more")
    return value


def _two_cards(text: str, what: str) -> tuple[Card, Card]:
    """Two cards with suits written together, e.g. ``Ks9h`` (or ``K♠ 9♥`` as ``Ks 9h``).

    Raises:
        BetError: not exactly two cards, each with its suit.
    """
    tokens = re.findall(r"(10|[2-9TJQKA])([shdc])", text.strip(), flags=re.IGNORECASE)
    joined = "".join(r + s for r, s in tokens).lower()
    if len(tokens) != 2 or joined != re.sub(r"\s", "", text).lower():
        raise BetError(f"bad {what} {text!r}: give two cards with their suits, e.g. Ks9h")
    first, second = (parse_card(r + s) for r, s in tokens)
    return first, second


def _card_text(cards: tuple[Card, ...]) -> str:
    return "".join(c.rank.label + (c.suit.value if c.suit else "") for c in cards)


# -- bets on the first two cards of a side ------------------------------------------------------------

def _first_two(side: Winner, ranks: str = "none", suits: str = "none") -> Reads:
    """What a bet on ``side``'s first two cards reads, at the given rank and suit detail."""
    return Reads.of([], [PLAYER_FIRST_TWO if side is P else BANKER_FIRST_TWO], ranks=ranks, suits=suits)


def _side_cards(side: Winner) -> Callable[[Coup], CardGroup]:
    members = PLAYER_FIRST_TWO if side is P else BANKER_FIRST_TWO

    def cards(c: Coup) -> CardGroup:
        group: CardGroup = c.cards(members)
        return group

    return cards


#: Perfect 9 Bonus, Okada pay table (the developer's #16): suited 9 without a nine, 9 without a
#: nine, a nine with a ten-valued card.
PERFECT_9_PAYS: tuple[int, int, int] = (20, 10, 5)
PERFECT_9_SOURCE = ('Wizard of Odds, "Perfect 9 Bonus Baccarat", '
                    'https://wizardofodds.com/article/perfect-9-bonus-baccarat/ '
                    "(Okada casino, the developer's pay table 16)")


def perfect_9_bonus(param: str | None) -> Bet:
    """Perfect 9 Bonus: the Player's first two cards total 9 (20 / 10 / 5, see the rules)."""
    del param
    suited, unsuited, nine = PERFECT_9_PAYS
    cards = _side_cards(P)

    def nine_without_a_nine(c: Coup) -> bool:
        g = cards(c)
        return bool(g.total == 9 and g.count_value(9) == 0)

    return Bet(
        "perfect-9-bonus",
        "Perfect 9 Bonus (Player's first two cards)",
        (
            PayLine("Suited A-8, 2-7, 3-6, 4-5", lambda c: nine_without_a_nine(c) and cards(c).suited,
                    F(suited)),
            PayLine("Unsuited A-8, 2-7, 3-6, 4-5", nine_without_a_nine, F(unsuited)),
            PayLine("9 with a 10 or face card", lambda c: cards(c).total == 9, F(nine)),
        ),
        reads=_first_two(P, suits="one-suit"),
        source=PERFECT_9_SOURCE,
        rules=("Reads the Player's first two cards.  They win when their baccarat total is 9: an ace-8, "
               f"2-7, 3-6 or 4-5 of one suit pays {suited} to 1, of two suits {unsuited} to 1; a 9 with a "
               "10, "
               f"J, Q or K pays {nine} to 1 (suited or not).  Anything else loses."),
    )


#: Fabulous Pair (Fabulous 4 Baccarat, Marina Bay Sands): suited pair, pair, suited non-pair.
FABULOUS_PAIR_PAYS: tuple[int, int, int] = (7, 4, 1)
FABULOUS_PAIR_SOURCE = ('Wizard of Odds, "Fabulous 4 Baccarat", '
                        'https://wizardofodds.com/games/fabulous-4-baccarat/ '
                        "(rule 5, Player / Banker Fabulous Pair; its analysis table was not available)")


def fabulous_pair(param: str | None) -> Bet:
    """Fabulous Pair on ``param`` = ``player`` (default) or ``banker``: 7 / 4 / 1."""
    side = _side(param, "Fabulous Pair")
    cards = _side_cards(side)
    identical, pair, suited = FABULOUS_PAIR_PAYS
    return Bet(
        "fabulous-pair",
        f"Fabulous Pair ({side.label})",
        (
            PayLine("Suited pair (identical cards)", lambda c: cards(c).same_card_pair, F(identical)),
            PayLine("Pair, not suited", lambda c: cards(c).pair, F(pair)),
            PayLine("Suited, not a pair", lambda c: cards(c).suited, F(suited)),
        ),
        reads=_first_two(side, ranks="equality", suits="suit-equality"),
        source=FABULOUS_PAIR_SOURCE,
        rules=(f"Reads the {side.label}'s first two cards: a pair of the same rank and suit pays "
               f"{identical} to 1, "
               f"any other pair (same rank; a K-Q is no pair) {pair} to 1, two cards of one suit that are "
               "no pair "
               f"{suited} to 1; two cards that differ in rank and suit lose."),
    )


#: Majestic Match / Royal Match pay tables: (suited king and queen, any other suited two).
MATCH_TABLES: dict[str, tuple[Fraction, Fraction]] = {"1": (F(25), F(5, 2)), "2": (F(10), F(3))}
MAJESTIC_MATCH_SOURCE = 'Wizard of Odds, "Majestic Match", https://wizardofodds.com/games/baccarat/side-bets/majestic-match/'
ROYAL_MATCH_SOURCE = ('Wizard of Odds, "Royal Match", '
                      'https://wizardofodds.com/games/blackjack/side-bets/royal-match/ '
                      "(the blackjack side bet on two cards; version 1 = 25 / 2.5, version 2 = 10 / 3)")


def _match_bet(name: str, title: str, side: Winner, version: str, source: str) -> Bet:
    royal, easy = MATCH_TABLES[version]
    cards = _side_cards(side)

    def king_queen(c: Coup) -> bool:
        g = cards(c)
        return bool(g.suited and g.ranks == (Rank.QUEEN, Rank.KING))

    return Bet(
        name,
        title,
        (
            PayLine("Suited king and queen", king_queen, royal),
            PayLine("Suited, not king-queen", lambda c: cards(c).suited, easy),
        ),
        reads=_first_two(side, ranks="named", suits="one-suit"),
        source=source,
        rules=(f"Reads the {side.label}'s first two cards: a king and a queen of one suit pay "
               f"{fraction_text(royal)} to 1, any other two cards of one suit (a pair of identical cards "
               f"included) {fraction_text(easy)} to 1; two suits lose."),
    )


def majestic_match(param: str | None) -> Bet:
    """Majestic Match on ``param`` = ``player`` (default) or ``banker``: 25 / 2.5."""
    side = _side(param, "Majestic Match")
    return _match_bet("majestic-match", f"Majestic Match ({side.label})", side, "1", MAJESTIC_MATCH_SOURCE)


def royal_match(param: str | None) -> Bet:
    """Royal Match on ``SIDE[,VERSION]``: side ``player`` (default) or ``banker``; version ``1``
    (default, 25 / 2.5) or ``2`` (10 / 3)."""
    side_text, _, version_text = (param or "").partition(",")
    side = _side(side_text or None, "Royal Match")
    version = _choice(version_text or None, MATCH_TABLES, "1", "Royal Match version")
    royal, easy = MATCH_TABLES[version]
    return _match_bet("royal-match", f"Royal Match ({side.label}, {fraction_text(royal)} / "
                                     f"{fraction_text(easy)})",
                      side, version, ROYAL_MATCH_SOURCE)


# -- bets on the first four cards ---------------------------------------------------------------------

#: Lucky Nines pay tables: 4 nines, 3 suited, 3, 2 suited, 2, one nine of diamonds, one nine.
LUCKY_NINES_TABLES: dict[str, tuple[int, ...]] = {
    "red-rock": (1000, 500, 35, 16, 5, 2, 1),
    "binions": (500, 250, 20, 8, 5, 2, 1),
}
LUCKY_NINES_SOURCE = ('Wizard of Odds, "Lucky Nines", '
                      'https://wizardofodds.com/games/baccarat/side-bets/lucky-nines/ '
                      "(Binion's and Red Rock pay tables)")
#: How "three nines of one suit" is read.  The Wizard of Odds' two tables disagree: its Red Rock
#: table counts 4 C(8, 3) 384 = 86,016 (three nines of one suit, whatever the fourth card), its
#: Binion's table 4 C(8, 3) 288 = 64,512 (the fourth card also of another suit: a fourth card of
#: the nines' suit makes the hand "mixed").
LUCKY_NINES_READINGS: dict[str, str] = {
    "any-fourth": "three nines of one suit, whatever the fourth card (the Red Rock table's count)",
    "off-suit": "three nines of one suit and a fourth card of another suit; a fourth card of the nines' "
                "suit pays as mixed (the Binion's table's count)",
}


def lucky_nines(param: str | None) -> Bet:
    """Lucky Nines on the first four cards: ``TABLE[,READING]`` with pay table ``red-rock``
    (default) or ``binions``, and the reading of "three nines of one suit", ``any-fourth``
    (default) or ``off-suit`` (see :data:`LUCKY_NINES_READINGS`)."""
    table_text, _, reading_text = (param or "").partition(",")
    table = _choice(table_text or None, LUCKY_NINES_TABLES, "red-rock", "Lucky Nines pay table")
    reading = _choice(reading_text or None, LUCKY_NINES_READINGS, "any-fourth", "Lucky Nines reading")
    four, three_suited, three, two_suited, two, diamond, one = LUCKY_NINES_TABLES[table]
    off_suit = reading == "off-suit"

    def nines(c: Coup) -> CardGroup:
        group: CardGroup = c.cards(FIRST_FOUR)
        return group.of_value(9)

    def count(n: int, suited: bool = False) -> Callable[[Coup], bool]:
        return lambda c: len(nines(c)) == n and (not suited or nines(c).suited)

    def three_of_one_suit(c: Coup) -> bool:
        if not count(3, True)(c):
            return False
        if not off_suit:
            return True
        (suit,) = (s for s in SUITS if nines(c).suit(s))
        return bool(c.cards(FIRST_FOUR).count_suit(suit) == 3)

    label = "Red Rock" if table == "red-rock" else "Binion's"
    suffix = "" if not off_suit else ", fourth card off suit"
    return Bet(
        "lucky-nines",
        f"Lucky Nines ({label} pay table{suffix})",
        (
            PayLine("Four nines", count(4), F(four)),
            PayLine("Three nines, one suit", three_of_one_suit, F(three_suited)),
            PayLine("Three nines, mixed suits", count(3), F(three)),
            PayLine("Two nines, one suit", count(2, True), F(two_suited)),
            PayLine("Two nines, mixed suits", count(2), F(two)),
            PayLine("One nine of diamonds", lambda c: count(1)(c) and nines(c).suit(Suit.DIAMONDS),
                    F(diamond)),
            PayLine("One nine of another suit", count(1), F(one)),
        ),
        # the off-suit reading compares the fourth card's suit with the nines': every suit is read
        reads=Reads.of([], [FIRST_FOUR], suits="suit", suit_values=None if off_suit else [9]),
        otherwise_event="No nines",
        source=LUCKY_NINES_SOURCE,
        rules=("Reads the first four cards (the Player's and the Banker's first two) and pays by their "
               f"nines ({label}): four nines {four} to 1; three of one suit {three_suited}, of mixed suits "
               f"{three}; two of one suit {two_suited}, of two suits {two}; exactly one nine, a diamond, "
               f"{diamond}; one nine of another suit {one}; no nine loses.  'Three of one suit' is read as "
               f"{LUCKY_NINES_READINGS[reading]}.  The Wizard of Odds' own tables disagree on it: the Red "
               "Rock table counts 86,016 = 4 C(8, 3) 384 such sets of four cards (8 decks), the Binion's "
               "table 64,512 = 4 C(8, 3) 288; the parameter ',off-suit' prices the Binion's count, "
               "',any-fourth' (the default) the Red Rock one."),
    )


#: Jackpot Baccarat pay table (Harrah's Las Vegas): event -> pays.
JACKPOT_BACCARAT_PAYS: tuple[tuple[str, int], ...] = (
    ("Mini royal", 250), ("Four of a kind", 75), ("Straight flush", 50), ("Three of a kind", 15),
    ("Flush", 10), ("Straight", 5), ("Two pair", 4), ("Pair of aces", 2), ("Pair of 10s to Ks (push)", 0),
)
JACKPOT_BACCARAT_SOURCE = ('Wizard of Odds, "Jackpot Baccarat", '
                           "https://wizardofodds.com/games/baccarat/side-bets/jackpot-baccarat/")
_TEN_VALUED = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


def jackpot_baccarat(param: str | None) -> Bet:
    """Jackpot Baccarat: the poker value of the first four cards (see the rules)."""
    del param

    def cards(c: Coup) -> CardGroup:
        group: CardGroup = c.cards(FIRST_FOUR)
        return group

    def category(name: str) -> Callable[[Coup], bool]:
        return lambda c: cards(c).four_card_poker == name

    tests: dict[str, Callable[[Coup], bool]] = {
        "Mini royal": lambda c: cards(c).royal_flush,
        "Four of a kind": category("four_of_a_kind"),
        "Straight flush": category("straight_flush"),
        "Three of a kind": category("three_of_a_kind"),
        "Flush": category("flush"),
        "Straight": category("straight"),
        "Two pair": category("two_pair"),
        "Pair of aces": lambda c: category("pair")(c) and cards(c).pair_of(Rank.ACE),
        "Pair of 10s to Ks (push)": lambda c: category("pair")(c) and any(cards(c).pair_of(r)
                                                                          for r in _TEN_VALUED),
    }
    return Bet(
        "jackpot-baccarat",
        "Jackpot Baccarat (first four cards)",
        tuple(PayLine(event, tests[event], F(pays)) for event, pays in JACKPOT_BACCARAT_PAYS),
        reads=Reads.of([], [FIRST_FOUR], ranks="named", suits="one-suit"),
        source=JACKPOT_BACCARAT_SOURCE,
        rules=("Pays on the poker value of the first four cards (the Player's and the Banker's first two), "
               "ranked as in Four Card Poker: mini royal (J-Q-K-A of one suit) 250 to 1, four of a kind 75, "
               "straight flush 50, three of a kind 15, flush 10, straight 5, two pair 4, pair of aces 2, "
               "pair of 10s to kings push; anything else (a pair of 2s to 9s, no pair) loses.  Ten, J, Q, K "
               "are distinct ranks; aces play low (A-2-3-4) or high (J-Q-K-A), no wrap-around.  With eight "
               "decks four cards of one suit are a flush even when they hold a pair or two pairs (of "
               "identical cards); a suited three or four of a kind pays as the three or four of a kind."),
    )


#: Tiger Pair (Tiger Baccarat): one pair, both pairs, both pairs of one rank.
TIGER_PAIR_PAYS: tuple[int, int, int] = (4, 20, 100)
TIGER_SOURCE = ("Tiger Baccarat rules (SBOTOP help, as a question-and-answer file): flashlin/Samples, "
                "torch-qa/fine-tune/data-user/TigerBaccarat.md @ 40fe29cde7896902e926f19539a1d2d9c23726b5")


def tiger_pair(param: str | None) -> Bet:
    """Tiger Pair: a pair in either side's first two cards (4), both (20), both of one rank (100)."""
    del param
    single, double, twin = TIGER_PAIR_PAYS

    def both(c: Coup) -> bool:
        return bool(c.player_pair and c.banker_pair)

    return Bet(
        "tiger-pair",
        "Tiger Pair",
        (
            PayLine("Twin Tiger Pair (both pairs of one rank)",
                    lambda c: both(c) and c.cards(FIRST_FOUR).of_a_kind == 4, F(twin)),
            PayLine("Double Tiger Pair (both sides pair)", both, F(double)),
            PayLine("Single Tiger Pair (one side pairs)", lambda c: c.player_pair or c.banker_pair,
                    F(single)),
        ),
        reads=Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="equality"),
        source=TIGER_SOURCE,
        rules=("Reads the Player's and the Banker's first two cards.  Both are pairs of one rank (jacks "
               "with "
               f"jacks; suits do not matter): {twin} to 1; both are pairs of different ranks: {double} to 1; "
               f"one side only is a pair: {single} to 1; no pair loses.  A pair is two cards of one rank "
               "(K-Q is no pair)."),
    )


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


# -- bets on every dealt card ---------------------------------------------------------------------------

#: Tie Max (formerly Lucky Max): (low pays, high pays).
TIE_MAX_PAYS: dict[str, int] = {"low": 55, "high": 10}
TIE_MAX_SOURCE = ('Wizard of Odds, "Tie Max (formerly Lucky Max)", '
                  "https://wizardofodds.com/games/baccarat/side-bets/lucky-max/")


def _tie_max(high: bool) -> Callable[[str | None], Bet]:
    word = "high" if high else "low"

    def make(param: str | None) -> Bet:
        pays = _pay(param, TIE_MAX_PAYS[word])

        def when(c: Coup) -> bool:
            top = c.cards(ALL_CARDS).highest_value
            return c.winner is T and (top >= 6) is high

        return Bet(
            f"{word}-tie-max",
            f"{word.capitalize()} Tie Max",
            (PayLine(f"Tie, highest card {'6-9' if high else '0-5'}", when, pays),),
            reads=Reads.of(["winner"], [ALL_CARDS]),
            source=TIE_MAX_SOURCE,
            adjustable=0,
            rules=("Wins on a tie when the highest point value among every card dealt to both hands (10, "
                   "J, Q, K "
                   f"count 0) is {'6, 7, 8 or 9' if high else '5 or less (no 6, 7, 8 or 9 dealt)'}; pays "
                   f"{fraction_text(pays)} to 1.  Any other coup loses.  Low and High Tie Max split the "
                   "ties."),
        )

    return make


#: Super Tie (21st Century Baccarat, Bicycle casino): (six-card 6-9 tie of one colour, of mixed
#: colours, any other tie) by pay table.
SUPER_TIE_TABLES: dict[str, tuple[int, int, int]] = {"1": (100, 25, 7), "2": (100, 20, 7)}
SUPER_TIE_SOURCE = 'Wizard of Odds, "Super Tie", https://wizardofodds.com/games/baccarat/side-bets/super-tie/'


def super_tie(param: str | None) -> Bet:
    """Super Tie; pay table ``1`` (default, 100 / 25 / 7) or ``2`` (100 / 20 / 7)."""
    table = _choice(param, SUPER_TIE_TABLES, "1", "Super Tie pay table")
    one_colour, mixed, other = SUPER_TIE_TABLES[table]

    def six_card_high_tie(c: Coup) -> bool:
        return c.winner is T and c.player_total >= 6 and c.cards(ALL_CARDS).size == 6

    return Bet(
        "super-tie",
        f"Super Tie (pay table {table})",
        (
            PayLine("Six-card tie on 6-9, one colour",
                    lambda c: six_card_high_tie(c) and c.cards(ALL_CARDS).one_colour, F(one_colour)),
            PayLine("Six-card tie on 6-9, mixed colours", six_card_high_tie, F(mixed)),
            PayLine("Any other tie", is_tie, F(other)),
        ),
        reads=Reads.of(["winner", "player_total"], [ALL_CARDS], suits="one-colour"),
        otherwise_event="No tie",
        source=SUPER_TIE_SOURCE,
        rules=(f"A tie bet: a tie on 6, 7, 8 or 9 with three cards in each hand pays {one_colour} to 1 when "
               "all six "
               f"cards are of one colour, {mixed} to 1 when they are mixed; any other tie pays {other} to "
               "1; a "
               "Player or Banker win loses."),
    )


#: Lucky Match (21st Century Baccarat): rank pattern of every dealt card -> pays.
LUCKY_MATCH_PAYS: tuple[tuple[str, int], ...] = (
    ("Five or six of a kind", 250), ("Double triplets", 100), ("Four of a kind", 30), ("Full house", 15),
    ("Three of a kind", 6), ("Two or three pairs", 4),
)
LUCKY_MATCH_SOURCE = 'Wizard of Odds, "Lucky Match", https://wizardofodds.com/games/baccarat/side-bets/lucky-match/'


def lucky_match(param: str | None) -> Bet:
    """Lucky Match: the ranks of every card dealt to both hands (see the rules)."""
    del param

    def pattern(c: Coup) -> tuple[int, ...]:
        group: CardGroup = c.cards(ALL_CARDS)
        return group.rank_pattern

    tests: dict[str, Callable[[Coup], bool]] = {
        "Five or six of a kind": lambda c: pattern(c)[0] >= 5,
        "Double triplets": lambda c: pattern(c)[:2] == (3, 3),
        "Four of a kind": lambda c: pattern(c)[0] == 4,
        "Full house": lambda c: pattern(c)[:2] == (3, 2),
        "Three of a kind": lambda c: pattern(c)[0] == 3,
        "Two or three pairs": lambda c: pattern(c)[:2] == (2, 2),
    }
    return Bet(
        "lucky-match",
        "Lucky Match (every dealt card)",
        tuple(PayLine(e, tests[e], F(p)) for e, p in LUCKY_MATCH_PAYS),
        reads=Reads.of([], [ALL_CARDS], ranks="equality"),
        source=LUCKY_MATCH_SOURCE,
        rules=("Pays on the ranks of all the cards dealt to both hands (4 to 6 cards; 10, J, Q, K are "
               "distinct "
               "ranks; suits do not matter): five or six of a kind 250 to 1; two three of a kinds (six "
               "cards) 100; "
               "four of a kind 30; a three of a kind with a pair 15; three of a kind 6; two or three pairs "
               "4; "
               "anything else (one pair, no pair) loses."),
    )


#: All Red / All Black (a live-dealer casino; odds at the start of an eight-deck shoe).
ALL_COLOUR_PAYS: dict[str, int] = {"red": 22, "black": 24}
ALL_COLOUR_SOURCE = ('Wizard of Odds, "Baccarat Side Bets" (appendix 5), "All Red/Black", '
                     "https://wizardofodds.com/games/baccarat/appendix/5/ (its table was not available); "
                     "pays "
                     "22 and 24 to 1 as Wizard Slots, \"Baccarat side bets\", "
                     "https://www.wizardslots.com/blog/baccarat-side-bets prints them (all black: house "
                     "edge 6.53%)")


def _all_colour(colour: Colour) -> Callable[[str | None], Bet]:
    word = colour.value

    def make(param: str | None) -> Bet:
        pays = _pay(param, ALL_COLOUR_PAYS[word])
        return Bet(
            f"all-{word}",
            f"All {word.capitalize()}",
            (PayLine(f"Every card {word}", lambda c: c.cards(ALL_CARDS).colour(colour), pays),),
            reads=Reads.of([], [ALL_CARDS], suits="one-colour-named"),
            source=ALL_COLOUR_SOURCE,
            adjustable=0,
            rules=(f"Wins when every card dealt in the coup, to both hands (4 to 6 cards), is {word}; pays "
                   f"{fraction_text(pays)} to 1.  The live-dealer game adjusts the odds as the shoe is "
                   "dealt; "
                   "this is the fixed-odds bet.  Open question: the source does not say which cards count; "
                   "every "
                   "dealt card is the reading the published house edge (6.53% for all black at 24 to 1) "
                   "fits."),
        )

    return make


# -- bets on one hand and the outcome ------------------------------------------------------------------

#: Bellagio Match: three of a kind in the chosen side's hand -> pays.
BELLAGIO_MATCH_PAYS: dict[str, int] = {"player": 75, "banker": 68}
BELLAGIO_MATCH_SOURCE = ('Casino Insider, "Baccarat side bets: Three Card Win", '
                         "https://www.casinoinsider.com/baccarat/baccarat-side-bets-three-card-win/ (75 to 1 "
                         "Player, 68 to 1 Banker three of a kind; no analysis published)")


def _bellagio_match(side: Winner) -> Callable[[str | None], Bet]:
    mine = side.value

    def make(param: str | None) -> Bet:
        pays = _pay(param, BELLAGIO_MATCH_PAYS[mine])
        hand = PLAYER_HAND if side is P else BANKER_HAND

        def trips(c: Coup) -> bool:
            g = c.cards(hand)
            return bool(g.size == 3 and g.of_a_kind == 3)

        return Bet(
            f"bellagio-match-{mine}",
            f"Bellagio Match ({side.label})",
            (PayLine(f"{side.label} three of a kind", trips, pays),),
            reads=Reads.of([], [hand], ranks="equality"),
            source=BELLAGIO_MATCH_SOURCE,
            adjustable=0,
            rules=(f"Wins when the {side.label}'s final hand is three cards of one rank (10, J, Q, K "
                   "distinct); "
                   f"pays {fraction_text(pays)} to 1.  Open question: this is the only reading the published "
                   f"description ('a {mine} three of a kind') supports, but secondary sources quote house "
                   "edges of "
                   "5.27% (Player) and 8.57% (Banker), which no reading tried here reproduces (three of a "
                   "kind "
                   "by rank gives about 77% and 80%); the real rule must differ."),
        )

    return make


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


# -- trade names: Tiger Baccarat and Super 6 -----------------------------------------------------------

SUPER_6_SOURCE = ('E. Jacobson, "Card Counting the Super Six Baccarat Side Bet", '
                  "https://www.888casino.com/blog/card-counting-the-super-six-baccarat-side-bet/ (12 to 1; "
                  "some "
                  "tables pay 15)")
BIG_TIGER_SOURCE = ('E. Jacobson, "Card Counting the Big Tiger Baccarat Side Bet", '
                    "https://advancedadvantageplay.com/2024/07/card-counting-the-big-tiger-baccarat-side-bet")


def _banker_six(name: str, title: str, cards: int | None, default: int,
                source: str) -> Callable[[str | None], Bet]:
    def make(param: str | None) -> Bet:
        pays = _pay(param, default)
        how = "" if cards is None else f" with {'two' if cards == 2 else 'three'} cards"

        def when(c: Coup) -> bool:
            return c.winner is B and c.banker_total == 6 and (cards is None or c.banker_cards == cards)

        return Bet(
            name,
            title.format(pays=fraction_text(pays)),  # "Super 6 (15 to 1)": each pay its own title
            (PayLine(f"Banker wins with 6{how}", when, pays),),
            reads=BANKER_RESULT,
            source=source,
            adjustable=0,
            rules=f"Wins when the Banker wins with a total of 6{how}; pays {fraction_text(pays)} to 1.",
        )

    return make


def tiger_tie(param: str | None) -> Bet:
    """Tiger Tie: a tie on 6 pays ``param`` (default 35)."""
    pays = _pay(param, 35)
    return Bet(
        "tiger-tie",
        "Tiger Tie (tie on 6)",
        (PayLine("Tie on 6", lambda c: c.winner is T and c.player_total == 6, pays),),
        reads=WINNER_TOTALS,
        source=TIGER_SOURCE,
        adjustable=0,
        rules=f"Wins on a tie with a total of 6 (any number of cards); pays {fraction_text(pays)} to 1.",
    )


# -- provenance: what each figure rests on ---------------------------------------------------------


class Grade(enum.Enum):
    """How far a catalogue bet's figures can be trusted, by what its source gives.

    ``REPRODUCED``: a published figure (house edge, return table) is reproduced exactly, and a
    golden test pins it; ``RULES``: the rules are published (by the game's owner, a casino or a
    game-math author) but no figure to check against; ``READING``: our reading of an unpublished
    or ambiguous rule (the rules text says which); ``WEAK``: the rules come from a weak source
    only (a question-and-answer file, a blog), no better one was found.
    """

    REPRODUCED = "reproduced"
    RULES = "rules-only"
    READING = "our-reading"
    WEAK = "weak-source"

    @property
    def label(self) -> str:
        """The grade in words, as tables show it."""
        return _GRADE_LABELS[self]


_GRADE_LABELS = {
    Grade.REPRODUCED: "published figure reproduced",
    Grade.RULES: "rules published, no figure",
    Grade.READING: "our reading of an unpublished or ambiguous rule",
    Grade.WEAK: "weak source (rules from a secondary page only)",
}


@dataclass(frozen=True)
class Provenance:
    """What a catalogue bet's figures rest on.

    Attributes:
        grade: the :class:`Grade`.
        source: where the rules and any figure come from (author, title, address).
        figure: the published figure the engine reproduces, as published ("house edge 7.6113%,
            8 decks"); empty unless the grade is ``REPRODUCED``.
        test: the golden test that pins the figure (``tests/FILE.py::test_name``).
        caveat: why a figure looks odd (a player edge, a house edge above 50%) or what the
            reading assumes; shown under tables that print such a row.
    """

    grade: Grade
    source: str
    figure: str = ""
    test: str = ""
    caveat: str = ""


_WOO_BACCARAT = ('Wizard of Odds, "Baccarat" (appendix 1), '
                 "https://wizardofodds.com/games/baccarat/appendix/1/; rule sheets 000-004")
_WOO_EZ = 'Wizard of Odds, "EZ Baccarat", https://wizardofodds.com/games/ez-baccarat/'
_WOO_SIDE = 'Wizard of Odds, "Baccarat Side Bets" (appendix 5), https://wizardofodds.com/games/baccarat/appendix/5/'
_JACOBSON_SUPER_6 = ('E. Jacobson, "Card Counting the Super Six Baccarat Side Bet", '
                     "https://www.888casino.com/blog/card-counting-the-super-six-baccarat-side-bet/")
_WOO_NATURALS = 'Wizard of Odds, "Banker Natural 8 and 9"'
_EDGES = "tests/test_catalogue.py::test_published_house_edges"
_COUNTS = "tests/test_catalogue.py::test_published_event_counts"
_SOURCES = "tests/test_catalogue_sources.py::"


def _reproduced(source: str, figure: str, test: str, caveat: str = "") -> Provenance:
    return Provenance(Grade.REPRODUCED, source, figure, test, caveat)


def _rules(source: str, caveat: str = "") -> Provenance:
    return Provenance(Grade.RULES, source, caveat=caveat)


def _reading(source: str, caveat: str) -> Provenance:
    return Provenance(Grade.READING, source, caveat=caveat)


def _weak(source: str, caveat: str = "") -> Provenance:
    return Provenance(Grade.WEAK, source, caveat=caveat)


_EGALITE = _reproduced('Wizard of Odds, "Egalite Bets in Baccarat", '
                       "https://wizardofodds.com/games/baccarat/side-bets/egalite/",
                       "the count of ties on each total and on each grouping (8 decks)",
                       "tests/test_catalogue.py::test_egalite")
_BELLAGIO_CAVEAT = ("the only reading the published description ('a player / banker three of a kind') "
                    "supports; "
                    "secondary pages quote house edges of 5.27% (Player) and 8.57% (Banker), which no "
                    "reading tried fits: the real rule must differ, so this house edge describes no real "
                    "game")
_ROYAL_MATCH_V2 = ("version 2 (10 / 3) is a one-deck pay table: from 4 decks on it gives the player an edge "
                   "(the Wizard of Odds' house edge by decks shows it)")

#: Per catalogue name: the provenance of each published parameter ("" = the default
#: parameters); any other parameter gets :func:`provenance`'s derived grade.
PROVENANCE: dict[str, dict[str, Provenance]] = {
    "banker": {
        "": _reproduced(_WOO_BACCARAT, "house edge 1.0579%, 1.1692% per resolved bet (8 decks)",
                        "tests/test_engine.py::test_published_house_edges_8_decks"),
        "4": _reproduced(_WOO_BACCARAT, "house edge 0.5993% at 4% commission (8 decks)", _EDGES),
    },
    "player": {"": _reproduced(_WOO_BACCARAT, "house edge 1.2351%, 1.3650% per resolved bet (8 decks)",
                               "tests/test_engine.py::test_published_house_edges_8_decks")},
    "tie": {
        "": _reproduced(_WOO_BACCARAT, "house edge 14.3596% (8 decks)",
                        "tests/test_engine.py::test_published_house_edges_8_decks"),
        "9": _reproduced(_WOO_BACCARAT, "house edge 4.8440% at 9 to 1 (8 decks)", _EDGES),
    },
    "punto-2000": {"": _reproduced(_JACOBSON_SUPER_6 + "; rule sheet 001",
                                   "house edge 1.4581% (8 decks); Banker wins with 6: 269,232,304,455,680",
                                   _EDGES)},
    "banker-8-half": {"": _reading("rule sheet 002, as written",
                                   "the sheet halves a Banker win with 8; every other source halves the 6 "
                                   "(Punto 2000), so the 8 may be a misprint")},
    "ez-banker": {"": _reproduced(_WOO_EZ, "house edge 1.0183% (8 decks)", _EDGES)},
    "tie+player": {"": _rules("rule sheet 000 (a seat may stake the Tie with the Player)")},
    "tie+banker": {"": _rules("rule sheet 000 (a seat may stake the Tie with the Banker)")},
    "player-pair": {"": _reproduced(_WOO_SIDE, "house edge 10.3614%; 6,448 pairs of 86,320 (8 decks)",
                                    "tests/test_catalogue.py::test_pair_bets_match_the_two_card_convention")},
    "banker-pair": {"": _reproduced(_WOO_SIDE, "6,448 pairs of 86,320 two-card hands (8 decks)",
                                    "tests/test_catalogue.py::test_pair_bets_match_the_two_card_convention")},
    "either-pair": {"": _rules("RULES.md, Either Pair (5 to 1)")},
    "perfect-pair": {
        "": _reproduced(PERFECT_PAIR_SOURCES["1"], "house edge 13.0294% (8 decks)", _EDGES),
        "1": _reproduced(PERFECT_PAIR_SOURCES["1"], "house edge 13.0294% (8 decks)", _EDGES),
        "2": _reproduced(PERFECT_PAIR_SOURCES["2"], "house edge 6.6235% (8 decks)", _EDGES),
        "25/200": _reading(PERFECT_PAIR_SOURCES["2"],
                           "a pay table asked for but not found published; priced on version 2's rules"),
    },
    "dragon-7": {"": _reproduced(_WOO_EZ, "house edge 7.6113% (8 decks)", _COUNTS)},
    "panda-8": {"": _reproduced(_WOO_EZ, "house edge 10.1876% (8 decks)", _COUNTS)},
    "dragon-bonus-player": {
        "": _reproduced(DRAGON_BONUS_SOURCES["1"], "house edge 2.6517% and the return table (8 decks)",
                        _COUNTS),
        "2": _rules(DRAGON_BONUS_SOURCES["2"] + " (the casino's posted pay table)"),
    },
    "dragon-bonus-banker": {
        "": _reproduced(DRAGON_BONUS_SOURCES["1"], "house edge 9.3731% and the return table (8 decks)",
                        _COUNTS),
        "2": _rules(DRAGON_BONUS_SOURCES["2"] + " (the casino's posted pay table)"),
    },
    "big": {"": _rules("RULES.md, Big / Small (0.54 to 1)")},
    "small": {"": _rules("RULES.md, Big / Small (1.5 to 1)")},
    "lucky-6": {
        "": _reproduced(LUCKY_6_SOURCE, "house edge 16.6836% at 12 / 20 (8 decks)", _EDGES),
        "1": _reproduced(LUCKY_6_SOURCE, "house edge 16.6836% at 12 / 20 (8 decks)", _EDGES),
        "2": _reproduced(LUCKY_6_SOURCE, "house edge 11.6985% at 12 / 23 (8 decks)", _EDGES),
    },
    "egalite": {"": _EGALITE},
    "banker-natural-8": {"": _reproduced(_WOO_NATURALS, "house edge 5.4680% (8 decks)", _EDGES)},
    "banker-natural-9": {"": _reproduced(_WOO_NATURALS, "house edge 5.0973% (8 decks)", _EDGES)},
    "player-3-card-win": {"": _reproduced('Wizard of Odds, "3-Card Win", '
                                          "https://wizardofodds.com/games/baccarat/side-bets/3-card-win/",
                                          "house edge 5.6860% (8 decks)", _EDGES)},
    "banker-3-card-win": {"": _reproduced('Wizard of Odds, "3-Card Win", '
                                          "https://wizardofodds.com/games/baccarat/side-bets/3-card-win/",
                                          "house edge 8.3044% (8 decks)", _EDGES)},
    "player-even": {"": _reproduced(PARITY_SOURCE, "house edge 5.3109% (8 decks)", _EDGES)},
    "player-odd": {"": _reproduced(PARITY_SOURCE, "house edge 6.7254% (8 decks)", _EDGES)},
    "banker-even": {"": _reproduced(PARITY_SOURCE, "house edge 6.9317% (8 decks)", _EDGES)},
    "banker-odd": {"": _reproduced(PARITY_SOURCE, "house edge 7.07% (8 decks)",
                                   _SOURCES + "test_parity_defaults_are_the_triple_pg_table")},
    "perfect-9-bonus": {"": _reproduced(PERFECT_9_SOURCE, "house edge 7.47% and the return table (8 decks)",
                                        _SOURCES + "test_perfect_9_bonus")},
    "fabulous-pair": {"": _rules(FABULOUS_PAIR_SOURCE)},
    "majestic-match": {"": _reproduced(MAJESTIC_MATCH_SOURCE,
                                       "house edge 6.46% and the return table (8 decks)",
                                       _SOURCES + "test_majestic_match_eight_decks")},
    "royal-match": {
        "": _reproduced(ROYAL_MATCH_SOURCE, "house edge 6.46% (8 decks); the 6-deck return table",
                        _SOURCES + "test_royal_match_tables"),
        "2": _reproduced(ROYAL_MATCH_SOURCE, "the 1-deck return table (house edge 3.7707%) and the house "
                         "edge by decks (-1.3531% at 8)", _SOURCES + "test_royal_match_tables",
                         _ROYAL_MATCH_V2),
    },
    "lucky-nines": {
        "": _reproduced(LUCKY_NINES_SOURCE, "house edge 8.27% and the Red Rock return table (8 decks)",
                        _SOURCES + "test_lucky_nines_red_rock"),
        "binions": _reading(LUCKY_NINES_SOURCE,
                            "every row of the Binion's table but the split of three nines, which it counts "
                            "as lucky-nines:binions,off-suit does; read as the Red Rock table counts, its "
                            "house edge is 19.0583%, not the printed 19.46%"),
        "binions,off-suit": _reproduced(LUCKY_NINES_SOURCE,
                                        "house edge 19.46% and the Binion's return table (8 decks)",
                                        _SOURCES + "test_lucky_nines_binions_as_printed"),
    },
    "jackpot-baccarat": {"": _reproduced(JACKPOT_BACCARAT_SOURCE, "house edge 15.80% and the return table "
                                         "(8 decks)", _SOURCES + "test_jackpot_baccarat")},
    "tiger-pair": {"": _weak(TIGER_SOURCE, "no publisher's rules or figure found; the counts are checked by "
                             "a closed form")},
    "royal-9": {"": _reading(ROYAL_9_SOURCE, "which suits are printed at which seat, and what 'match any "
                             "other position' means, are not published (see the rules)")},
    "low-tie-max": {"": _reproduced(TIE_MAX_SOURCE, "house edge 16.45% and the return table (8 decks)",
                                    _SOURCES + "test_tie_max")},
    "high-tie-max": {"": _reproduced(TIE_MAX_SOURCE, "house edge 11.74% (return -0.117391, 8 decks)",
                                     _SOURCES + "test_tie_max")},
    "super-tie": {
        "": _reproduced(SUPER_TIE_SOURCE, "house edge 5.97% and the return table (8 decks)",
                        _SOURCES + "test_super_tie"),
        "2": _reproduced(SUPER_TIE_SOURCE, "house edge 10.26% (8 decks)", _SOURCES + "test_super_tie"),
    },
    "lucky-match": {"": _reproduced(LUCKY_MATCH_SOURCE, "house edge 8.89% and the return table (8 decks)",
                                    _SOURCES + "test_lucky_match")},
    "all-red": {"": _weak(ALL_COLOUR_SOURCE, "the pays are a casino blog's; every dealt card is the reading "
                          "that fits its 6.53% for all black")},
    "all-black": {"": _weak(ALL_COLOUR_SOURCE, "the pays and the 6.53% are a casino blog's (exactly 6.5241% "
                            "under this reading)")},
    "bellagio-match-player": {"": _reading(BELLAGIO_MATCH_SOURCE, _BELLAGIO_CAVEAT)},
    "bellagio-match-banker": {"": _reading(BELLAGIO_MATCH_SOURCE, _BELLAGIO_CAVEAT)},
    "lucky-win-player": {"": _reproduced(LUCKY_WIN_SOURCE,
                                         "house edge 12.040%, pay table #1 (Jacobson, 8 decks)",
                                         _SOURCES + "test_lucky_win_player_house_edge")},
    "lucky-win-banker": {"": _reading(LUCKY_WIN_SOURCE,
                                      "the source's Banker list is cut off after 500 and 200; the rest is "
                                      "taken to be the Player's, which gives the player an edge: the real "
                                      "Banker pays must be lower (give them as the parameter)")},
    "d7p8-progressive": {"": _reading(D7P8_SOURCE, "the pay table is not published: only the progressive and "
                                      "the secondary prize are priced, as given")},
    "super-6": {
        "": _reproduced(_JACOBSON_SUPER_6 + '; LeoVegas, "Super 6 side bet", '
                        "https://www.leovegas.com/en-row/blog/live-casino/baccarat-academy/side-bets-guide/"
                        "super-6-side-bet (house edge 29.98% at 12 to 1)",
                        "house edge 29.98% at 12 to 1 (8 decks)", _SOURCES + "test_super_6"),
        "15": _rules(_JACOBSON_SUPER_6 + " (some tables pay 15)"),
    },
    "big-tiger": {"": _reproduced(BIG_TIGER_SOURCE,
                                  "house edge 15.2533%, SD 6.519, hit rate 1.662% (8 decks)",
                                  _SOURCES + "test_big_tiger")},
    "small-tiger": {"": _weak(TIGER_SOURCE, "no publisher's rules or figure found")},
    "tiger-tie": {"": _weak(TIGER_SOURCE, "no publisher's rules or figure found")},
}


def pay_signature(bet: Bet) -> tuple[object, ...]:
    """What a bet pays on what: two bets with one signature are the same bet (``tie`` and
    ``tie:8``)."""
    return (tuple((ln.event, ln.pays) for ln in bet.lines), bet.otherwise, bet.reads)


def provenance(bet: Bet) -> Provenance | None:
    """What a catalogue bet's figures rest on (:class:`Provenance`), by its name and parameter;
    ``None`` for a bet that is not in the catalogue (a bet from a file, a payout function).

    A parameter no source publishes (``tie:12``, ``dragon-7:45``) keeps the rules' source but
    not the figure: grade ``RULES`` (or the default's grade when that is weaker), with a caveat
    saying so.

    >>> provenance(find_bet("dragon-7")).grade, provenance(find_bet("dragon-7:45")).grade
    (<Grade.REPRODUCED: 'reproduced'>, <Grade.RULES: 'rules-only'>)
    """
    name, sep, param = bet.name.partition(":")
    entry = _entry(name)
    if entry is None or not entry.provenance:
        return None
    known = entry.provenance
    key = _key(param) if sep else ""
    if key in known:
        return known[key]
    side, _, version = key.partition(",")
    if side in ("player", "banker", "p", "b") and (version or "") in known:
        return known[version or ""]  # the other side of a one-side bet: the same rules and figures
    mine = pay_signature(bet)  # a parameter that spells a published one (tie:8, lucky-nines:red-rock)
    published: list[tuple[str, Provenance]] = list(known.items())
    if name == "egalite":  # each total at its own pay, and the published groupings, share one source
        published = [(f"{t}", known[""]) for t in range(10)]
        published += [(f"{g}@{p}", known[""]) for g, p in EGALITE_GROUPS.items()]
    for known_key, known_provenance in published:
        if pay_signature(entry.make(known_key or None)) == mine:
            return known_provenance
    default = known[""]
    grade = default.grade if default.grade in (Grade.READING, Grade.WEAK) else Grade.RULES
    return Provenance(grade, default.source,
                      caveat=f"the parameter {param!r} sets a pay table no source publishes: no figure to "
                             "check against" + (f"; {default.caveat}" if default.caveat else ""))


# -- the registry -------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Entry:
    """A catalogue entry: ``make(param)`` builds the bet; ``param`` documents the parameter;
    ``meters(param)``, for a bet with progressive meters, describes them (see
    :func:`meter_line`); ``provenance`` holds what the figures of the default parameters ("")
    and of each published parameter rest on (see :func:`provenance`)."""

    name: str
    make: Callable[[str | None], Bet]
    summary: str
    param: str = ""
    aliases: tuple[str, ...] = ()
    main: bool = False
    meters: Callable[[str | None], tuple[Meter, ...]] | None = field(default=None, compare=False)
    provenance: Mapping[str, Provenance] = field(default_factory=dict, compare=False)
    #: For a bet whose parameter sets its adjustable line's pay some other way than as the pay
    #: itself (Banker: a commission), the parameter giving a pay; ``None``: the parameter, when
    #: the bet takes one, is the pay as exact text (see :mod:`analyzer.bets.choice`).
    pay_param: Callable[[Fraction], str] | None = field(default=None, compare=False)


def _royal_9_meters(param: str | None) -> tuple[Meter, ...]:
    stake = _amount(_options(param, ROYAL_9_DEFAULTS, "royal-9")["stake"], "royal-9 stake")
    return tuple(Meter(name, event, 1 / stake, F(-1)) for name, event in ROYAL_9_METERS.items())


def _d7p8_meters(param: str | None) -> tuple[Meter, ...]:
    opts = _options(param, D7P8_DEFAULTS, "d7p8-progressive")
    label = D7P8_EVENTS[_choice(opts["side"], D7P8_EVENTS, "dragon", "d7p8-progressive side")][0]
    stake = _amount(opts["stake"], "d7p8-progressive stake")
    return (Meter("jackpot", f"{label}, both hands in the seat's suits (progressive)", 1 / stake, F(-1)),)


_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "banker",
        banker,
        "Banker, 5% commission (19/20)",
        "commission %, e.g. banker:4",
        ("banco", "b"),
        main=True,
        pay_param=lambda pays: fraction_text((1 - pays) * 100),
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
        "identical first two cards on either side: v1 pays 25; v2 25 one / 250 both",
        "version 1 or 2, or ONE/BOTH pays, e.g. 25/200",
    ),
    Entry("dragon-7", dragon_7, "Banker wins with a 3-card 7, pays 40", "pay", ("dragon7",)),
    Entry("panda-8", panda_8, "Player wins with a 3-card 8, pays 25", "pay", ("panda8",)),
    Entry("dragon-bonus-player", _dragon_bonus(P), "Dragon Bonus on the Player: natural 1, margins 4-9 pay "
                                                   "1-30",
          "pay table 1 or 2", ("dragon-bonus",)),
    Entry("dragon-bonus-banker", _dragon_bonus(B), "Dragon Bonus on the Banker: natural 1, margins 4-9 pay "
                                                   "1-30",
          "pay table 1 or 2"),
    Entry("big", big, "coup uses 5 or 6 cards, pays 0.54", "pay"),
    Entry("small", small, "coup uses exactly 4 cards, pays 1.5", "pay"),
    Entry(
        "lucky-6", lucky_6, "Banker wins with 6: 12 two cards, 20 (or 23) three", "table 1 or 2",
        ("lucky6", "tiger"),
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
    # first two cards of a side
    Entry("perfect-9-bonus", perfect_9_bonus, "Player's first two total 9: suited 20, unsuited 10, 9-ten 5",
          "",
          ("perfect-9", "perfect9")),
    Entry("fabulous-pair", fabulous_pair, "a side's first two: identical 7, pair 4, suited 1",
          "side: player or banker", ("fabulous-4-pair",)),
    Entry("majestic-match", majestic_match, "a side's first two suited: K-Q 25, other 2.5",
          "side: player or banker"),
    Entry("royal-match", royal_match, "a side's first two suited: K-Q 25, other 2.5 (v2: 10 / 3)",
          "SIDE[,VERSION], e.g. banker,2"),
    # first four cards
    Entry("lucky-nines", lucky_nines, "nines among the first four cards, 1 to 1000",
          "TABLE[,READING]: red-rock or binions; any-fourth or off-suit",
          ("lucky-9s",)),
    Entry("jackpot-baccarat", jackpot_baccarat, "poker value of the first four cards, mini royal 250", "",
          ("jackpot",)),
    Entry("tiger-pair", tiger_pair, "first-two pairs: one 4, both 20, both of one rank 100", "",
          ("twin-tiger-pair",)),
    Entry("royal-9", royal_9, "nine-face first two cards, seat's printed K-9 jackpots",
          "KEY=VALUE: seat, others, star, spade, heart, stake", ("royal9",), meters=_royal_9_meters,
          ),
    # every dealt card
    Entry("low-tie-max", _tie_max(False), "tie with no card of 6-9 dealt, pays 55", "pay", ("ltm",)),
    Entry("high-tie-max", _tie_max(True), "tie with a card of 6-9 dealt, pays 10", "pay", ("htm",)),
    Entry("super-tie", super_tie, "six-card 6-9 tie: one colour 100, mixed 25; other ties 7", "pay table 1 "
                                                                                              "or 2"),
    Entry("lucky-match", lucky_match, "ranks of every dealt card: 5-6 of a kind 250 .. two pairs 4", ""),
    Entry("all-red", _all_colour(Colour.RED), "every dealt card red, pays 22", "pay"),
    Entry("all-black", _all_colour(Colour.BLACK), "every dealt card black, pays 24", "pay"),
    # a hand and the outcome
    Entry("bellagio-match-player", _bellagio_match(P), "Player's hand three of a kind, pays 75", "pay"),
    Entry("bellagio-match-banker", _bellagio_match(B), "Banker's hand three of a kind, pays 68", "pay"),
    Entry("lucky-win-player", _lucky_win(P), "Player wins with 1-5: 1 in spades 500 .. 5 pays 5",
          "pays for a mixed 1, 2, 3, 4, 5, e.g. 30/20/12/8/5"),
    Entry("lucky-win-banker", _lucky_win(B), "Banker wins with 1-5: 1 in spades 500 .. 5 pays 5 (see rules)",
          "pays for a mixed 1, 2, 3, 4, 5, e.g. 30/20/12/8/5"),
    Entry("d7p8-progressive", d7p8_progressive, "Dragon 7 / Panda 8 progressive, seat's suits (reading)",
          "KEY=VALUE: side, suits, jackpot, suited, stake", ("dragon-7-panda-8-progressive",),
          meters=_d7p8_meters),
    # trade names
    Entry("super-6", _banker_six("super-6", "Super 6 ({pays} to 1)", None, 12, SUPER_6_SOURCE),
          "Banker wins with 6, pays 12", "pay", ("super-six", "super6")),
    Entry("big-tiger", _banker_six("big-tiger", "Big Tiger (Banker wins with a three-card 6)", 3, 50,
                                   BIG_TIGER_SOURCE), "Banker wins with a three-card 6, pays 50", "pay"),
    Entry("small-tiger", _banker_six("small-tiger", "Small Tiger (Banker wins with a two-card 6)", 2, 22,
                                     TIGER_SOURCE), "Banker wins with a two-card 6, pays 22", "pay"),
    Entry("tiger-tie", tiger_tie, "tie on 6, pays 35", "pay"),
)
#: The catalogue: every entry with its provenance (:data:`PROVENANCE`).
CATALOGUE: tuple[Entry, ...] = tuple(dataclasses.replace(e, provenance=PROVENANCE[e.name]) for e in _ENTRIES)

_BY_NAME: dict[str, Entry] = {}
for _listed in CATALOGUE:
    for _label in (_listed.name, *_listed.aliases):
        if _label in _BY_NAME:
            raise BetError(f"internal: the catalogue lists {_label!r} twice")
        _BY_NAME[_label] = _listed


# -- names of pay tables ------------------------------------------------------------------------


@dataclass(frozen=True)
class PayTableName:
    """A name a source gives one of a bet's pay tables, usable as that bet's parameter:
    ``NAME:ALIAS`` is ``NAME:PARAM`` (:func:`find_bet` resolves it; the bet is named with
    ``PARAM``).

    Attributes:
        alias: the name as a parameter (lower case, hyphenated), e.g. ``"macau"``.
        param: the catalogue parameter it stands for, e.g. ``"1"``.
        source: who uses the name and where (author, title, address), in their words.
    """

    alias: str
    param: str
    source: str


_PERFECT_PAIR_1_WHERE = (PERFECT_PAIR_SOURCES["1"] + ' ("This bet can be found at Internet casinos using '
                                                      'live dealer software by Playtech or BetConstruct")')
_WOO_LUCKY_6_2019 = (LUCKY_6_SOURCE + " (the version last updated September 11, 2019)")
_DRAGON_BONUS_NAMES: tuple[PayTableName, ...] = (
    PayTableName("rivers-des-plaines", "1",
                 'Rivers Casino Des Plaines, "Baccarat / Mini Baccarat", '
                 "https://www.riverscasino.com/desplaines/casino/table-games/baccarat-mini-baccarat "
                 "(posts win by 9: 30, by 8: 10, by 7: 6, by 6: 4, by 5: 2, by 4: 1, a natural win 1)"),
    PayTableName("cypress-bayou", "2",
                 DRAGON_BONUS_SOURCES["2"] + ' (posts "Win by 6 or 7 points pays 4 to 1, Win by 4 or 5 '
                                             'points pays 2 to 1")'),
)

#: The names sources give the catalogue's pay tables, per catalogue name: each usable as the
#: bet's parameter (``lucky-6:macau`` is ``lucky-6:1``), each with the source that uses it.
#: Only names found in a source are here; the numbers (``lucky-6:1``, ``dragon-bonus-player:2``)
#: are this catalogue's own, and other packages number the same tables differently
#: (docs/bets.md, "Names of pay tables").
PAY_TABLE_NAMES: dict[str, tuple[PayTableName, ...]] = {
    "lucky-6": (
        PayTableName("stingy", "1", LUCKY_6_SOURCE + ' ("Lucky 6 - Stingy Pay Table": 12 and 20)'),
        PayTableName("liberal", "2", LUCKY_6_SOURCE + ' ("Lucky 6 - Liberal Pay Table": 12 and 23)'),
        PayTableName("macau", "1", _WOO_LUCKY_6_2019 + ' ("Lucky 6 - Macau Pay Table": "The rules in '
                                                       'Macau are the same, except a 3-card winning '
                                                       'total of 6 pays 20 to 1")'),
        PayTableName("las-vegas", "2", _WOO_LUCKY_6_2019 + ' ("Lucky 6 - Las Vegas Pay Table": 12 and 23)'),
    ),
    "perfect-pair": (
        PayTableName("playtech", "1", _PERFECT_PAIR_1_WHERE),
        PayTableName("betconstruct", "1", _PERFECT_PAIR_1_WHERE),
        PayTableName("evolution", "2", PERFECT_PAIR_SOURCES["2"] + ' ("This bet can be found at Internet '
                                                                   'casinos using live dealer software by '
                                                                   'Evolution Gaming")'),
    ),
    "dragon-bonus-player": _DRAGON_BONUS_NAMES,
    "dragon-bonus-banker": _DRAGON_BONUS_NAMES,
    "super-tie": (
        PayTableName("bicycle", "1", SUPER_TIE_SOURCE + ' ("Pay Table 1 is the one in use at the Bicycle '
                                                        'Casino near Los Angeles")'),
    ),
}


def pay_table_names(name: str) -> tuple[PayTableName, ...]:
    """The names of the pay tables of catalogue bet ``name`` (a name or an alias), or ``()``.

    >>> [(n.alias, n.param) for n in pay_table_names("tiger")][:2]
    [('stingy', '1'), ('liberal', '2')]
    """
    entry = _entry(name)
    return PAY_TABLE_NAMES.get(entry.name, ()) if entry is not None else ()


def _param_of(entry: Entry, param: str) -> str:
    """``param``, or the parameter a pay-table name stands for (compared as names are)."""
    key = _key(param)
    for named in PAY_TABLE_NAMES.get(entry.name, ()):
        if named.alias == key:
            return named.param
    return param


def find_bet(spec: str) -> Bet:
    """The catalogue bet named by ``spec`` = ``NAME`` or ``NAME:PARAM`` (names and aliases are
    case-insensitive; ``_`` and spaces count as ``-``).  ``PARAM`` may be a name a source gives
    the pay table (:data:`PAY_TABLE_NAMES`: ``lucky-6:macau``); the bet is then named with the
    parameter it stands for (``lucky-6:1``), as an alias of a name gives the bet's name.

    Raises:
        BetError: unknown name (the message suggests the closest names, see
            :func:`suggestions`, or lists them all when none is close) or bad parameter.

    >>> find_bet("banker:4").title, find_bet("Tie:9").title
    ('Banker (4% commission)', 'Tie (9 to 1)')
    >>> find_bet("lucky-6:Las Vegas").name
    'lucky-6:2'

    A bet is a value: the same ``spec`` gives the same (frozen) object again, from a memory of
    at most :data:`FOUND_LIMIT` specs (each of at most :data:`FOUND_CHARS` characters), so a loop
    that looks a bet up each time costs no more than one that keeps it.
    """
    if not isinstance(spec, str):
        raise BetError(f"bad bet {spec!r}: give a catalogue name such as 'banker' or 'tie:9'")
    hit = _FOUND.get(spec)
    if hit is not None:
        return hit
    bet = _build(spec)
    if len(spec) <= FOUND_CHARS:
        if len(_FOUND) >= FOUND_LIMIT:
            _FOUND.clear()  # one step (threads looking up meanwhile see it whole or empty)
        _FOUND[spec] = bet
    return bet


#: How many specs :func:`find_bet` remembers, and how long each may be (a client may send any
#: parameter: the memory is bounded).
FOUND_LIMIT = 512
FOUND_CHARS = 200
_FOUND: dict[str, Bet] = {}


def _build(spec: str) -> Bet:
    """The bet of ``spec``, built (:func:`find_bet` without its memory)."""
    name, sep, param = spec.strip().partition(":")
    entry = _entry(name)
    if entry is None:
        close = suggestions(name)
        if close:  # the near names alone: a line of every name would bury them
            raise BetError(
                f"unknown bet {name!r}: did you mean {' or '.join(repr(n) for n in close)}? "
                f"(`punto-banco bets --list` lists all {len(CATALOGUE)})"
            )
        raise BetError(f"unknown bet {name!r}: known bets are {', '.join(e.name for e in CATALOGUE)}")
    if sep and not param.strip():
        raise BetError(f"bet {spec!r} has an empty parameter after ':'")
    if sep and not entry.param:
        raise BetError(f"bet {entry.name!r} takes no parameter; got {param.strip()!r}")
    param = _param_of(entry, param.strip()) if sep else ""
    bet = entry.make(param if sep else None)
    name = entry.name + (f":{param}" if sep else "")
    return bet.with_origin(f"catalogue:{name}", name=name)


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def bet_key(name: str) -> str:
    """How bet names compare (catalogue names, aliases and the names of bets from files alike):
    case-insensitive, ``_`` and spaces counting as ``-``, spaces around ignored.

    >>> bet_key(" Big_Tiger "), bet_key("Banker:4")
    ('big-tiger', 'banker:4')
    """
    return _key(name)


def catalogue_name(name: str) -> str | None:
    """The catalogue bet whose name or alias ``name`` takes, comparing the part before the
    first ``:`` (as ``NAME:PARAM`` is read), or ``None``.  A bet from a file must not take one:
    a log column, a family ``bet:NAME`` or a table row naming it could mean either.

    >>> catalogue_name("Banker:4"), catalogue_name("B"), catalogue_name("natural-tie")
    ('banker', 'banker', None)
    """
    entry = _entry(name.partition(":")[0])
    return entry.name if entry is not None else None


def _entry(name: str) -> Entry | None:
    return _BY_NAME.get(_key(name))


def suggestions(name: str, most: int = 3) -> list[str]:
    """Catalogue names close to ``name`` (by difflib's ratio, at least 0.6, against every name
    and alias; an alias stands for its bet's name), closest first, at most ``most``.

    >>> suggestions("tigr-pair")
    ['tiger-pair', 'either-pair', 'tiger-tie']
    """
    import difflib  # lazy: only a name not found asks

    found: list[str] = []
    for close in difflib.get_close_matches(_key(name), list(_BY_NAME), n=len(_BY_NAME), cutoff=0.6):
        if _BY_NAME[close].name not in found:
            found.append(_BY_NAME[close].name)
    return found[:most]


def catalogue_bets() -> list[Bet]:
    """Every catalogue bet with its default parameters, plus the published alternatives (Tie 9 to
    1, Banker 4%, Perfect Pair v2 and 25/200, Lucky 6 table 2, Dragon Bonus table 2, the Banker
    side of the one-side bets, Royal Match v2, Lucky Nines at Binion's, Super Tie table 2,
    Super 6 at 15, Égalité on each total and its groupings)."""
    specs = [e.name for e in CATALOGUE if e.name != "egalite"]
    extra = ["banker:4", "tie:9", "perfect-pair:2", "perfect-pair:25/200", "lucky-6:2",
             "dragon-bonus-player:2", "dragon-bonus-banker:2", "fabulous-pair:banker",
             "majestic-match:banker", "royal-match:banker", "royal-match:player,2", "royal-match:banker,2",
             "lucky-nines:binions", "super-tie:2", "super-6:15"]
    egal = [f"egalite:{t}" for t in range(10)] + [f"egalite:{g}@{p}" for g, p in EGALITE_GROUPS.items()]
    ordered: list[str] = []
    for s in specs:
        ordered.append(s)
        ordered.extend(x for x in extra if x.split(":")[0] == s)
    return [find_bet(s) for s in ordered + egal]


def main_bets() -> list[Bet]:
    """Banker (5%), Player, Tie (8 to 1): the standard pay table of the rule sheets, as
    :func:`find_bet` gives them (:func:`analyzer.bets.main.main_bets`)."""
    return _main_bets()


# -- progressive meters -------------------------------------------------------------------------


class PricedEvent(Protocol):
    """What :func:`meter_line` reads of one event row (e.g. an ``EventRow``)."""

    @property
    def event(self) -> str: ...

    @property
    def pays(self) -> Fraction: ...

    @property
    def probability(self) -> Fraction: ...


class PricedBet(Protocol):
    """What :func:`meter_line` reads of a priced bet (e.g. a ``BetSummary``)."""

    @property
    def bet(self) -> Bet: ...

    @property
    def ev(self) -> Fraction: ...

    @property
    def events(self) -> Sequence[PricedEvent]: ...


@dataclass(frozen=True)
class MeterLine:
    """A bet's expected value per unit staked as an exact function of its progressive meters:
    ``EV = constant + sum(slopes[m] * reading[m])`` (linear: each meter feeds one pay line).

    Attributes:
        bet: the bet's name (with its parameters).
        constant: the EV with every meter reading 0.
        slopes: per meter, the EV gained per unit of meter reading (the line's probability
            times its pay per unit of reading).
        readings: the meter readings the bet was priced at.
    """

    bet: str
    constant: Fraction
    slopes: Mapping[str, Fraction]
    readings: Mapping[str, Fraction]

    def _values(self, readings: Mapping[str, Fraction | int]) -> dict[str, Fraction]:
        unknown = set(readings) - set(self.slopes)
        if unknown:
            raise BetError(f"{self.bet}: no meter {sorted(unknown)[0]!r}; its meters are "
                           f"{', '.join(self.slopes)}")
        values = dict(self.readings)
        for name, value in readings.items():
            if isinstance(value, bool) or not isinstance(value, int | Fraction):
                raise BetError(f"bad meter reading {value!r} for {name!r}: give an int or a Fraction")
            values[name] = Fraction(value)
        return values

    def ev(self, **readings: Fraction | int) -> Fraction:
        """EV per unit staked with the given meter readings (others as priced).

        Raises:
            BetError: an unknown meter or a reading that is not exact.
        """
        values = self._values(readings)
        return self.constant + sum((self.slopes[m] * values[m] for m in self.slopes), Fraction(0))

    def house_edge(self, **readings: Fraction | int) -> Fraction:
        """``-ev(**readings)``."""
        return -self.ev(**readings)

    def break_even(self, meter: str, **others: Fraction | int) -> Fraction:
        """The reading of ``meter`` at which the EV is 0, the other meters as given (else as
        priced); it may be negative (the bet has a player edge at every reading of 0 or more).

        Raises:
            BetError: an unknown meter, or one whose line cannot happen on this shoe.
        """
        values = self._values({**others, meter: 0})
        slope = self.slopes[meter]
        if slope == 0:
            raise BetError(f"{self.bet}: the {meter!r} meter's line cannot happen on this shoe")
        rest = self.constant + sum((self.slopes[m] * values[m] for m in self.slopes if m != meter),
                                   Fraction(0))
        return -rest / slope


def meters(bet: Bet) -> tuple[Meter, ...]:
    """The progressive meters of a catalogue bet (empty for a bet without).

    Raises:
        BetError: the bet's name is not a catalogue name.
    """
    name, sep, param = bet.name.partition(":")
    entry = _entry(name)
    if entry is None:
        raise BetError(f"bet {bet.name!r} is not in the catalogue")
    return () if entry.meters is None else entry.meters(param if sep else None)


def meter_line(priced: PricedBet) -> MeterLine:
    """A priced catalogue bet's EV as an exact linear function of its meters (see
    :class:`MeterLine`), from its events' exact probabilities, e.g.
    ``meter_line(price(find_bet("royal-9"), shoe))``.

    Raises:
        BetError: the bet has no meter (or, internally, a meter names no single pay line).
    """
    listed = meters(priced.bet)
    if not listed:
        raise BetError(f"bet {priced.bet.name!r} has no progressive meter")
    slopes: dict[str, Fraction] = {}
    readings: dict[str, Fraction] = {}
    constant = priced.ev
    for meter in listed:
        lines = [ln for ln in priced.bet.lines if ln.event == meter.event]
        if len(lines) != 1:
            raise BetError(f"internal: bet {priced.bet.name!r} has no single line {meter.event!r}")
        pays = lines[0].pays
        probability = sum((r.probability for r in priced.events if r.event == meter.event), Fraction(0))
        readings[meter.name] = (pays - meter.offset) / meter.per_unit
        slopes[meter.name] = probability * meter.per_unit
        constant -= probability * (pays - meter.offset)
    return MeterLine(priced.bet.name, constant, slopes, readings)
