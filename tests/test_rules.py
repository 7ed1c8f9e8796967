"""The tableau against RULES.md and the printed Table of Play of rule sheet 004, and ``resolve``
under every registered rule set."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.cards import RANKS, SUITS, Card, hand_total
from analyzer.core.coup import Winner, resolve
from analyzer.core.tableau import STANDARD, TABLEAUX
from analyzer.errors import CoupError, RulesError

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "RULES.md").read_text(encoding="utf-8")
(SHEET_004,) = (ROOT / "docs" / "rule-sheets").glob("004_*.txt")


def _values(text: str) -> set[int]:
    text = text.strip()
    if text in ("any",):
        return set(range(10))
    if text in ("—", "-", "never", ""):
        return set()
    return {int(x) for x in text.split(",")}


def rules_md_banker_table() -> dict[int, tuple[set[int], set[int]]]:
    """RULES.md, "Tableau", step 4, read from the document: Banker total -> (Player third-card
    values on which the Banker draws, values on which it stands)."""
    rows = re.findall(r"^\| ([0-9, ]+) \| ([^|]+) \| ([^|]+) \|$", RULES, flags=re.MULTILINE)
    table: dict[int, tuple[set[int], set[int]]] = {}
    for totals, draws, stands in rows:
        for total in _values(totals):
            table[total] = (_values(draws), _values(stands))
    return table


def test_rules_md_banker_table_is_read_whole():
    table = rules_md_banker_table()
    assert sorted(table) == list(range(8))
    for draws, stands in table.values():
        assert draws | stands == set(range(10)) and not draws & stands


def test_player_rule():
    # RULES.md step 2: draws on 0-5, stands on 6-7.
    assert "Player.** Draws on 0–5, stands on 6–7" in RULES
    assert [t for t in range(8) if STANDARD.player_draws(t)] == [0, 1, 2, 3, 4, 5]


def test_naturals():
    # RULES.md step 1: a two-card 8 or 9 on either side ends the coup.
    assert "If either two-card total is 8 or 9, both hands stand" in RULES
    assert STANDARD.naturals == {8, 9}
    assert [t for t in range(10) if STANDARD.is_natural(t)] == [8, 9]
    for p, b in ((8, 0), (0, 9), (9, 8)):
        assert STANDARD.decided_by_naturals(p, b) and STANDARD.draws(p, b, None) == (False, False)


def test_banker_when_player_stood():
    # RULES.md step 3: draws on 0-5, stands on 6-7.
    assert "**Banker, when the Player stood** (took no third card): draws on 0–5, stands on 6–7" in RULES
    assert [t for t in range(8) if STANDARD.banker_draws(t, None)] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("total", range(8))
def test_banker_when_player_drew(total):
    draws, stands = rules_md_banker_table()[total]
    assert {v for v in range(10) if STANDARD.banker_draws(total, v)} == draws
    assert {v for v in range(10) if not STANDARD.banker_draws(total, v)} == stands


def sheet_004_table_of_play() -> dict[int, tuple[set[int], set[int]]]:
    """Sheet 004's printed Table of Play, read from the sheet: Banker total -> (values "DRAWS
    WHEN GIVING", values "DOES NOT DRAW WHEN GIVING"); a printed "10" is point value 0
    (RULES.md, "Where the sheets differ")."""
    text = SHEET_004.read_text(encoding="utf-8")
    section = text.split("BANCO", 1)[1]
    rows = re.findall(r"^(\d)\t([\d, ]+)\t([\d, ]+)$", section, flags=re.MULTILINE)
    return {int(t): ({int(x) % 10 for x in d.split(",")}, {int(x) % 10 for x in s.split(",")})
            for t, d, s in rows}


def test_sheet_004_table_of_play():
    printed = sheet_004_table_of_play()
    assert sorted(printed) == [3, 4, 5, 6]
    for total, (draws, stands) in printed.items():
        assert {v for v in range(10) if STANDARD.banker_draws(total, v)} == draws, total
        # every value is on exactly one side of the sheet's table
        assert {v for v in range(10) if not STANDARD.banker_draws(total, v)} == stands, total


def test_sheet_004_player_and_banker_on_7():
    text = SHEET_004.read_text(encoding="utf-8")
    assert "1,2,3,4,5,0\tDRAWS A CARD" in text and "6-7\tSTANDS" in text
    assert [t for t in range(8) if STANDARD.player_draws(t)] == [0, 1, 2, 3, 4, 5]
    assert "7\tSTANDS" in text
    assert not any(STANDARD.banker_draws(7, v) for v in range(10)) and not STANDARD.banker_draws(7, None)
    # "BANK MUST STAND HAVING 6 WHEN PUNTO HAS 6 OR 7 ON INITIAL DEAL"
    assert "BANK MUST STAND HAVING 6 WHEN PUNTO HAS 6 OR 7" in text
    assert not STANDARD.banker_draws(6, None)


@pytest.mark.parametrize("bad", [-1, 10, 3.0, None, True, "3"])
def test_bad_totals(bad):
    with pytest.raises(RulesError, match="0-9"):
        STANDARD.player_draws(bad)
    with pytest.raises(RulesError, match="0-9"):
        STANDARD.banker_draws(bad, None)
    if bad is not None:  # None is the Player standing
        with pytest.raises(RulesError, match="0-9"):
            STANDARD.banker_draws(3, bad)


def test_draws_needs_the_third_card_when_the_player_draws():
    with pytest.raises(RulesError, match="third card"):
        STANDARD.draws(2, 3, None)
    # RULES.md step 4: the Banker on 3 stands when the Player's third card is 8, else draws.
    assert STANDARD.draws(2, 3, 8) == (True, False)
    assert STANDARD.draws(2, 3, 9) == (True, True)
    assert STANDARD.draws(6, 6, None) == (False, False)


def test_sheet_004_worked_coup():
    # Sheet 004: Player 2+3 = 5 draws a 6 (total 1); Banker 4+10 = 4 draws an Ace (total 5): "Bank wins".
    coup = resolve("2 4 3 10 6 A")
    assert [str(c) for c in coup.player] == ["2", "3", "6"]
    assert [str(c) for c in coup.banker] == ["4", "10", "A"]
    assert (coup.player_total, coup.banker_total, coup.winner) == (1, 5, Winner.BANKER)
    assert coup.cards_dealt == 6 and coup.player_drew and coup.banker_drew
    assert (coup.player_third, coup.banker_third) == (6, 1)
    assert (coup.player_two_card_total, coup.banker_two_card_total) == (5, 4)
    assert coup.announce() == "Player 2 3 6 (1), Banker 4 10 A (5): Banker wins"


def test_naturals_stop_the_coup():
    coup = resolve("9 2 K 3 5 5")  # Player 9 natural; Banker 5 must not draw
    assert coup.player_natural and not coup.banker_natural and coup.cards_dealt == 4
    assert coup.winner is Winner.PLAYER and coup.naturals == "player"
    assert (coup.player_third, coup.banker_third) == (None, None)


def test_too_few_cards():
    with pytest.raises(CoupError, match="at least 4"):
        resolve("2 4 3")
    with pytest.raises(CoupError, match="5th card"):
        resolve("2 4 3 10")
    with pytest.raises(CoupError, match="6th card"):
        resolve("2 4 3 10 6")


cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))


@given(st.lists(cards, min_size=6, max_size=6), st.sampled_from(sorted(TABLEAUX)))
def test_resolve_follows_the_tableau(seq, name):
    tableau = TABLEAUX[name]
    coup = resolve(seq, tableau)
    p2 = hand_total([c.point for c in seq[0:3:2]])
    b2 = hand_total([c.point for c in seq[1:4:2]])
    natural = p2 in tableau.naturals or b2 in tableau.naturals
    assert coup.natural == natural
    p_draws = not natural and p2 in tableau.player_draws_on
    assert coup.player_drew == p_draws
    if natural:
        b_draws = False
    elif p_draws:
        b_draws = seq[4].point in tableau.banker_draws_on_third[b2]
    else:
        b_draws = b2 in tableau.banker_draws_when_player_stood
    assert coup.banker_drew == b_draws
    assert coup.cards_dealt == 4 + p_draws + b_draws
    used = seq[: coup.cards_dealt]
    assert [str(c) for c in coup.player] == [str(c) for c in used[0:3:2] + used[4:5] * p_draws]
    pt = hand_total([c.value for c in coup.player])
    bt = hand_total([c.value for c in coup.banker])
    assert (coup.player_total, coup.banker_total) == (pt, bt)
    assert coup.winner == ("player" if pt > bt else "banker" if bt > pt else "tie")
