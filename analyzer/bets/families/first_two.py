"""Catalogue bets on the first two cards that the data file cannot say: a parameter that is a
pair of pays (Perfect Pair's ``ONE/BOTH``) or a side and a version together (Royal Match's
``SIDE,VERSION``).  Fabulous Pair and Majestic Match, whose parameter is a side alone, are data
(``analyzer/bets/catalogue.toml``, ``[bet.sides]``)."""

from __future__ import annotations

from fractions import Fraction

from analyzer.bets.families.params import (
    F,
    _choice,
    _first_two,
    _side,
    _side_cards,
)
from analyzer.bets.main import winning_pay as _pay
from analyzer.bets.model import Bet, PayLine
from analyzer.core.cards import Rank
from analyzer.core.coup import (
    BANKER_FIRST_TWO,
    PLAYER_FIRST_TWO,
    Coup,
    Winner,
)
from analyzer.core.exact import fraction_text
from analyzer.core.reads import Reads
from analyzer.errors import BetError

PERFECT_PAIR = Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="equality", suits="same-card")


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


#: Royal Match pay tables: (suited king and queen, any other suited two).
MATCH_TABLES: dict[str, tuple[Fraction, Fraction]] = {"1": (F(25), F(5, 2)), "2": (F(10), F(3))}
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

