"""Lucky Nines: the nines of the first four cards, with two readings of "three nines of one
suit" (its parameter chooses a pay table and a reading)."""

from __future__ import annotations

from collections.abc import Callable

from analyzer.bets.families.params import (
    F,
    _choice,
)
from analyzer.bets.model import Bet, PayLine
from analyzer.core.cards import SUITS, Suit
from analyzer.core.coup import (
    FIRST_FOUR,
    Coup,
)
from analyzer.core.hands import CardGroup
from analyzer.core.reads import Reads

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

