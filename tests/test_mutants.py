"""The catalogue of engine bugs (analyzer.checks.mutants): each mutant deals as its sentence says,
deals differently from the correct engine, and writes logs that read back as hand logs."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from analyzer.checks.handlog import read_records
from analyzer.checks.mutants import CORRECT, MUTANTS, deal_log, find_mutant, net_text
from analyzer.checks.verify import Verifier
from analyzer.core.cards import parse_cards
from analyzer.core.coup import resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import TABLEAUX
from analyzer.errors import AnalyzerError, MutantError

STAKES = {"banker": Fraction(5), "player": Fraction(10), "tie": Fraction(1), "player-pair": Fraction(1)}


def deal(name: str, cards: str, previous: str | None = None, stakes=None):
    dealer = find_mutant(name).dealer()
    before = dealer.deal(parse_cards(previous)) if previous else None
    return dealer.deal(parse_cards(cards), stakes, before)


def test_the_catalogue_names_each_mutant_once_and_finds_it():
    names = [m.name for m in MUTANTS]
    assert len(names) == len(set(names))
    assert all(find_mutant(n.upper()).name == n for n in names)
    assert find_mutant("correct") is CORRECT
    for variant in TABLEAUX:  # every registered rule variant is a mutant
        assert variant == "standard" or variant in names
    with pytest.raises(MutantError, match="unknown mutant 'no-such'"):
        find_mutant("no-such")
    assert issubclass(MutantError, AnalyzerError)


@pytest.mark.parametrize(
    ("name", "cards", "announced"),
    [
        # the Player 2+3=5 draws an A -> 6; the Banker on 6 (A+5) stands on a third card of 1, but
        # reading the Player's total (6) it draws
        ("banker-reads-player-total:6", "2 A 3 5 A 9", "Player 2 3 A (6), Banker A 5 9 (5): Player wins"),
        ("correct", "2 A 3 5 A 9", "Player 2 3 A (6), Banker A 5 (6): Tie"),
        # the Player stood (6); the Banker on 4 must draw; read as a third card 0 it stands
        ("player-stood-as-zero", "3 2 3 2 9 9", "Player 3 3 (6), Banker 2 2 (4): Player wins"),
        ("correct", "3 2 3 2 9 9", "Player 3 3 (6), Banker 2 2 9 (3): Player wins"),
        # a Player natural 8 (4+4) unchecked: the Banker on 2 draws
        ("no-natural-check:player", "4 2 4 K 5 9", "Player 4 4 (8), Banker 2 K 5 (7): Player wins"),
        # a Banker natural 9 unchecked: the Player on 1 draws
        ("no-natural-check:banker", "A 4 K 5 9 9", "Player A K 9 (0), Banker 4 5 (9): Banker wins"),
        # 7 + 8 = 15: a raw total, not 5; the Player then stands (15 is not 0-5)
        ("totals-not-reduced", "7 K 8 2 3 3", "Player 7 8 (15), Banker K 2 3 (5): Player wins"),
        # Player 9 + 9 = 18 beats Banker 9 on raw sums (both are 8 and 9 after modulo 10)
        ("winner-before-modulo", "9 9 9 K 4 4", "Player 9 9 (8), Banker 9 K (9): Player wins"),
        ("face-cards-by-rank-number", "K 2 K 3 9 9", "Player K K (6), Banker 2 3 9 (4): Player wins"),
        ("ace-high", "A 2 2 3 9 9", "Player A 2 (6), Banker 2 3 9 (4): Player wins"),
        ("ten-counts-one", "10 2 5 3 9 9", "Player 10 5 (6), Banker 2 3 9 (4): Player wins"),
        ("deals-player-player-banker-banker", "5 K 2 2 9 9", "Player 5 K 9 (4), Banker 2 2 (4): Tie"),
        ("banker-draws-twice", "3 2 3 A 2 A 9 9", "Player 3 3 (6), Banker 2 A 2 A (6): Tie"),
    ],
)
def test_each_mutant_deals_as_its_sentence_says(name, cards, announced):
    assert deal(name, cards).announce() == announced


def test_state_mutants_read_the_previous_coup():
    # previous coup: the Player drew a 7 (2+K -> 2, draws 7); now the Player stands on 7
    before = "2 5 K A 7 Q"
    stale = deal("stale-third-card", "7 3 K K 9 9", before)
    assert [str(c) for c in stale.player] == ["7", "K", "7"]  # the old 7 kept in its row
    assert stale.player_total == 7  # the engine itself dealt right
    # Banker on 6 after a Player that stood: stands; reading the old third card 7: draws
    reads = deal("banker-reads-stale-third", "7 3 K 3 9 9", before)
    assert [str(c) for c in reads.banker] == ["3", "3", "9"]
    assert deal("correct", "7 3 K 3 9 9", before).banker_total == 6


def paid(name: str, cards: str) -> dict[str, Fraction]:
    return {bet: net for bet, _, net in deal(name, cards, stakes=STAKES).bets}


@pytest.mark.parametrize(
    ("name", "cards", "bet", "right", "wrong"),
    [
        # the Player's aces pair, then it draws a third card (A A = 2, draws the 2h)
        ("pairs-on-two-card-hands", "Ah 2s As 3s 2h 9d", "player-pair", Fraction(11), Fraction(-1)),
        # a Banker natural 9 wins: 5 staked win 4.75 after commission
        ("commission-rounded:down", "K 5 K 4 9 9", "banker", Fraction(19, 4), Fraction(4)),
        ("commission-rounded:nearest", "K 5 K 4 9 9", "banker", Fraction(19, 4), Fraction(5)),
        # a tie (9 against 9): the main bets push
        ("tie-loses-main-bets", "K K K K 9 9", "player", Fraction(0), Fraction(-10)),
        ("tie-loses-main-bets", "K K K K 9 9", "banker", Fraction(0), Fraction(-5)),
    ],
)
def test_settlement_mutants_change_only_the_bets(name, cards, bet, right, wrong):
    assert deal(name, cards).announce() == deal("correct", cards).announce()
    assert (paid("correct", cards)[bet], paid(name, cards)[bet]) == (right, wrong)
    changed = {"player", "banker"} if name == "tie-loses-main-bets" else {bet}
    others = {b: n for b, n in paid(name, cards).items() if b not in changed}
    assert others == {b: n for b, n in paid("correct", cards).items() if b not in changed}


def test_every_mutant_deals_differently_from_the_correct_engine_somewhere():
    """Over coups from a few 8-deck shoes (the shoe mutants: over the cards their shoes hold),
    every mutant's log differs from the correct engine's."""
    right = list(deal_log(CORRECT, 600, seed=11, stakes=STAKES))
    for mutant in MUTANTS:
        log = list(deal_log(mutant, 600, seed=11, stakes=STAKES))
        if mutant.kind == "shoe":
            assert [r["cards"] for r in log] != [r["cards"] for r in right], mutant.name
        else:
            assert log != right, mutant.name


def test_a_correct_log_verifies_clean_and_reads_back():
    lines = [json.dumps(r) for r in deal_log(CORRECT, 300, seed=3, stakes=STAKES)]
    verifier = Verifier(Shoe.standard(8))
    assert list(verifier.run(read_records(lines, "jsonl"))) == []
    assert verifier.coups == 300
    # deterministic: the same seed, the same log
    assert lines == [json.dumps(r) for r in deal_log(CORRECT, 300, seed=3, stakes=STAKES)]
    assert lines != [json.dumps(r) for r in deal_log(CORRECT, 300, seed=4, stakes=STAKES)]


def test_each_coup_of_a_correct_log_is_what_resolve_deals():
    for record in itertools.islice(deal_log(CORRECT, 200, seed=5), 200):
        coup = resolve(" ".join(record["cards"]))
        assert coup.player_total == record["player_total"]
        assert coup.banker_total == record["banker_total"]
        assert coup.winner == record["winner"]
        assert coup.naturals == record["natural"]


def test_shoe_mutants_break_only_the_shoe_check():
    for name in ("shoe-refilled", "shoe-one-deck-more"):
        lines = [json.dumps(r) for r in deal_log(find_mutant(name), 1500, seed=2)]
        plain = Verifier()
        assert list(plain.run(read_records(lines, "jsonl"))) == [], name
        checked = Verifier(Shoe.standard(8))
        found = list(checked.run(read_records(lines, "jsonl")))
        assert found and all(d.field == "cards" for d in found), name


def test_bad_requests_are_one_line_errors():
    with pytest.raises(MutantError, match="bad number of coups"):
        list(deal_log(CORRECT, -1))
    with pytest.raises(MutantError, match="cannot deal a coup"):
        list(deal_log(CORRECT, 1, shoe=Shoe.parse("A=5")))
    short = find_mutant("correct").dealer().deal(parse_cards("A 2 3 4"))
    assert not short.complete  # the Player on 4 wanted a fifth card
    with pytest.raises(MutantError, match="more cards than the stack holds"):
        short.record()


@pytest.mark.parametrize(
    ("x", "text"), [(Fraction(19, 2), "9.5"), (Fraction(-10), "-10"), (Fraction(1, 3), "1/3")]
)
def test_amounts_are_written_exactly(x, text):
    assert net_text(x) == text
