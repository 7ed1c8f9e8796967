"""User-defined bets from TOML files (``analyzer.bets.files``, a bounded number per file) and
from payout functions."""

import re
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import one_error_line
from deadline import deadline

from analyzer import Bet, Pricer, Reads, Shoe, distribution, find_bet
from analyzer.bets.files import DUELS, FIELDS, GROUP_FEATURES, SHORTCUTS, load_bets, name_skeleton, parse_bets
from analyzer.core.coup import BANKER_FIRST_TWO, PLAYER_FIRST_TWO, POSITION_SETS, resolve
from analyzer.core.hands import FEATURE_NEEDS
from analyzer.core.reads import BASE_FIELDS, RankDetail, SuitDetail
from analyzer.core.tableau import parse_tableau
from analyzer.errors import BetError, UndeclaredReadError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def eight():
    return Pricer(Shoe.standard(8))


def write(tmp_path, text, name="bets.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_bet_equals_the_catalogue_bet(tmp_path, eight):
    path = write(
        tmp_path,
        """
[[bet]]
name = "my-dragon"
[[bet.pay]]
event = "Banker wins with 3-card 7"
when = { winner = "banker", banker_total = 7, banker_cards = 3 }
pays = 40
""",
    )
    (mine,) = load_bets(path)
    ours, theirs = eight.summary(mine), eight.summary(find_bet("dragon-7"))
    assert (ours.ev, ours.variance) == (theirs.ev, theirs.variance)


def test_example_files_load_and_price(eight):
    bets = {b.name: b for f in sorted(EXAMPLES.glob("*.toml")) for b in load_bets(f)}
    assert {"banker-three-card-6", "natural-tie", "pair-and-win", "dragon-bonus-alt"} <= set(bets)
    assert bets["pair-and-win"].reads == Reads.of(["winner"], [PLAYER_FIRST_TWO], "equality")
    assert bets["banker-three-card-6"].reads == Reads.of(["winner", "banker_total", "banker_cards"])
    # Big Tiger (Banker wins with a three-card 6, pays 50): Jacobson, "Card Counting the Big
    # Tiger Baccarat Side Bet" (advancedadvantageplay.com, 2024): house edge 15.2533%, 8 decks.
    assert round(eight.summary(bets["banker-three-card-6"]).house_edge * 100, 4) == Fraction("15.2533")


def test_exact_pays_and_lists(tmp_path, eight):
    path = write(
        tmp_path,
        """
[[bet]]
name = "low-banker"
otherwise = 0
[[bet.pay]]
when = { winner = "banker", banker_total = [0, 1, 2] }
pays = "19/20"
[[bet.pay]]
when = { winner = "player" }
pays = -1
""",
    )
    (bet,) = load_bets(path)
    s = eight.summary(bet)
    d = distribution(Shoe.standard(8))
    low = d.probability(lambda f: f.winner == "banker" and f.banker_total <= 2)
    player = d.probability(lambda f: f.winner == "player")
    assert s.ev == Fraction(19, 20) * low - player
    assert s.push_probability == 1 - low - player


@pytest.mark.parametrize(
    "body, words",
    [
        ('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { colour = "red" }\npays = 3\n', ["'x'", "'colour'"]),
        (
            '[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { winner = "dealer" }\npays = 3\n',
            ["'x'", "'winner'", "'dealer'"],
        ),
        (
            '[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { banker_total = 12 }\npays = 3\n',
            ["'banker_total'", "12"],
        ),
        ('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { natural = 1 }\npays = 3\n', ["'natural'"]),
        ('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {}\npays = 0.95\n', ["'pays'", "not exact"]),
        ('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {}\npays = -2\n', ["'pays'", "-1"]),
        ('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {}\n', ["'pays' is missing"]),
        ('[[bet]]\nname = "x"\ncolour = 3\n[[bet.pay]]\npays = 1\n', ["'x'", "'colour'"]),
        ('[[bet]]\nname = "x"\n', ["'x'", "'pay'"]),
        ('[[bet]]\ntitle = "no name"\n', ["bet #1", "'name'"]),
        ('[bets]\nname = "x"\n', ["'bets'"]),
        ('[[bet]\nname = "x"\n', ["not valid TOML"]),
        ("", ["no bets"]),
    ],
)
def test_malformed_files_name_file_bet_and_key(tmp_path, body, words):
    path = write(tmp_path, body, "broken.toml")
    with pytest.raises(BetError) as info:
        load_bets(path)
    message = str(info.value)
    assert "broken.toml" in message
    for word in words:
        assert word in message


def test_vocabulary_covers_every_coup_field():
    assert set(BASE_FIELDS) <= set(FIELDS)
    assert {"value", "rank", "card"} <= set(GROUP_FEATURES)  # single-position features
    for name, (where, feature) in SHORTCUTS.items():
        assert where in POSITION_SETS and feature in GROUP_FEATURES, name


MISSING_FEATURES = sorted(set(FEATURE_NEEDS) - {"values"} - set(GROUP_FEATURES))


def test_vocabulary_covers_every_card_feature():
    # every card feature of the hand vocabulary has its bet-file name ("values" is a tuple, asked
    # through count_value / highest_value / lowest_value instead; docs/ARCHITECTURE.md: a card
    # feature's bet-file name comes from GROUP_FEATURES)
    assert MISSING_FEATURES == []


@pytest.mark.parametrize("when, fields, sets, ranks, suits", [
    ('{ winner = "banker" }', {"winner"}, set(), RankDetail.NONE, SuitDetail.NONE),
    ("{ margin = 4 }", {"player_total", "banker_total"}, set(), RankDetail.NONE, SuitDetail.NONE),
    ("{ player_pair = true }", set(), {PLAYER_FIRST_TWO}, RankDetail.EQUALITY, SuitDetail.NONE),
    ("{ banker_suited_pair = true }", set(), {BANKER_FIRST_TWO}, RankDetail.EQUALITY, SuitDetail.SAME_CARD),
    ("{ player_first_two = { suited = true } }", set(), {PLAYER_FIRST_TWO}, RankDetail.NONE,
     SuitDetail.ONE_SUIT),  # whether the set is of one suit: its flag, not each card's suit
    ('{ player_first_two = { colour = "red" } }', set(), {PLAYER_FIRST_TWO}, RankDetail.NONE,
     SuitDetail.ONE_COLOUR_NAMED),
    ('{ player_first_two = { suited = true }, player_1 = { suit = "h" } }', set(),
     {PLAYER_FIRST_TWO, frozenset({0})}, RankDetail.NONE, SuitDetail.SUIT),  # overlapping sets
    ('{ player_first_two = { count_colour = { colour = "red", at_least = 1 } } }', set(), {PLAYER_FIRST_TWO},
     RankDetail.NONE, SuitDetail.COLOUR),
    ('{ player_1 = { rank = "K" } }', set(), {frozenset({0})}, RankDetail.NAMED, SuitDetail.NONE),
    ("{ banker_3 = { value = 9 } }", set(), {frozenset({5})}, RankDetail.NONE, SuitDetail.NONE),
    ("{ identical_pairs = true }", set(), {PLAYER_FIRST_TWO, BANKER_FIRST_TWO}, RankDetail.EQUALITY,
     SuitDetail.SAME_CARD),
    ("{ player_first_two = { pictures = 2 } }", set(), {PLAYER_FIRST_TWO}, RankDetail.PICTURE,
     SuitDetail.NONE),  # whether each 10-valued card is a picture, not which
    ("{ player_first_two = { pictures = 2, pair = true } }", set(), {PLAYER_FIRST_TWO}, RankDetail.NAMED,
     SuitDetail.NONE),  # pictures and rank equality: each tells what the other cannot
    ("{ player_first_two = { pictures = 2, suited = true } }", set(), {PLAYER_FIRST_TWO}, RankDetail.NAMED,
     SuitDetail.ONE_SUIT),  # no pools of pictures by suit: the ranks are named
])
def test_a_file_bet_reads_what_its_features_need(when, fields, sets, ranks, suits):
    (bet,) = parse_bets(f'[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {when}\npays = 2\n')
    assert bet.reads.fields == fields and bet.reads.sets == sets
    assert (bet.reads.ranks, bet.reads.suits) == (ranks, suits)


def test_a_condition_that_can_never_hold_is_reported_when_priced(eight):
    text = '[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { player_cards = 3, player_natural = true }\npays = 2\n'
    (bet,) = parse_bets(text, "impossible.toml")  # reading a file compiles nothing
    with pytest.raises(BetError, match=r"pay line 1 .* can never hold: no coup meets its condition"):
        eight.summary(bet)


PLAYER_DRAWS_ON_7 = """
name = "player-draws-on-7"
title = "The Player draws on 0-7 (all else standard)"
naturals = [8, 9]
player_draws = [0, 1, 2, 3, 4, 5, 6, 7]
[banker]
when_player_stood = [0, 1, 2, 3, 4, 5]
[banker.when_player_drew]
0 = "any"
1 = "any"
2 = "any"
3 = [0, 1, 2, 3, 4, 5, 6, 7, 9]
4 = [2, 3, 4, 5, 6, 7]
5 = [4, 5, 6, 7]
6 = [6, 7]
7 = []
"""


@pytest.mark.parametrize("when", ["player_cards = 3, player_two_card_total = 7",
                                  "player_two_card_total = 7, player_3 = { rank = \"4\" }"],
                         ids=["values", "cards"])
def test_a_line_is_checked_against_the_tableau_in_use(when):
    # Issue 20: the "can never hold" check used the standard tableau whatever the rules, so a
    # line that can hold under the rules in use was refused (``deal --rules p-draws-7.toml 3 4 4 K
    # 2 5`` shows the Player drawing on 7).
    text = f'[[bet]]\nname = "p7"\n[[bet.pay]]\nwhen = {{ {when} }}\npays = 20\n'
    (bet,) = parse_bets(text, "p7.toml")
    rules = parse_tableau(PLAYER_DRAWS_ON_7)
    summary = Pricer(Shoe.standard(8), rules).summary(bet)
    assert summary.hit_frequency > 0
    assert resolve("3 4 4 K 2 5", rules).player_cards == 3
    with pytest.raises(BetError, match="can never hold"):
        Pricer(Shoe.standard(8)).summary(bet)


def test_duels_are_both_sides_first_two_cards():
    assert set(DUELS) == {"pairs_same_rank", "identical_pairs"}


def test_payout_function_api(eight):
    bet = Bet.from_function(
        "banker-even-money",
        lambda f: 1 if f.winner.value == "banker" else (0 if f.winner.value == "tie" else -1),
    )
    d = distribution(Shoe.standard(8))
    expected = d.probability(lambda f: f.winner.value == "banker") - d.probability(
        lambda f: f.winner.value == "player"
    )
    assert eight.summary(bet).ev == expected
    assert bet.reads == Reads.everything_but_cards()


def test_payout_function_reading_undeclared_fields_is_an_error(eight):
    # Without the guard, a card read at the default (no cards) would be priced as never
    # winning; it is refused instead, with what to declare.
    pair = Bet.from_function("pp", lambda f: 11 if f.player_pair else -1)
    with pytest.raises(UndeclaredReadError):
        eight.summary(pair)
    declared = Bet.from_function("pp", lambda f: 11 if f.player_pair else -1,
                                 reads=Reads.of([], [PLAYER_FIRST_TWO], "equality"))
    assert eight.summary(declared).ev == eight.summary(find_bet("player-pair")).ev
    third = Bet.from_function("p3", lambda f: 1 if f.player_third == 0 else -1, reads=Reads.of(["winner"]))
    with pytest.raises(UndeclaredReadError, match="player_third"):
        eight.summary(third)
    named = Bet.from_function("kings", lambda f: 20 if f.cards(PLAYER_FIRST_TWO).pair_of_kings else -1,
                              reads=Reads.of([], [PLAYER_FIRST_TWO], "equality"))
    with pytest.raises(AttributeError):
        eight.summary(named)
    by_name = Bet.from_function("king", lambda f: 5 if any(c.rank == "K" for c in f.cards(PLAYER_FIRST_TWO))
                                else -1, reads=Reads.of([], [PLAYER_FIRST_TWO], "equality"))
    with pytest.raises(UndeclaredReadError, match="rank"):
        eight.summary(by_name)  # ranks read by equality cannot be compared with a named rank
    suits = Bet.from_function("hearts", lambda f: 1 if f.cards(PLAYER_FIRST_TWO).suit("h") else -1,
                              reads=Reads.of([], [PLAYER_FIRST_TWO], "named"))
    with pytest.raises(UndeclaredReadError):
        eight.summary(suits)


def test_from_function_checks_its_arguments():
    for reads in ("winner", 3, ["winner"]):
        with pytest.raises(BetError, match="reads"):
            Bet.from_function("x", lambda c: 1, reads=reads)
    for payout in (None, "winner", 3):
        with pytest.raises(BetError, match="payout"):
            Bet.from_function("x", payout)
    for name in (None, 3, "", "   "):
        with pytest.raises(BetError, match="name"):
            Bet.from_function(name, lambda c: 1)


def test_payout_functions_must_pay_exactly(eight):
    for pays in (0.5, -2, True, "1"):
        bet = Bet.from_function("x", lambda c, p=pays: p, reads=Reads.of(["winner"]))
        with pytest.raises(BetError):
            eight.summary(bet)


def test_a_bet_beyond_the_compile_budget_is_refused_in_one_line(tmp_path):
    # Issue 16 item 4 / issue 20: a bet file whose table would cost more than the budget is
    # refused with one line naming the bet and the budget, before it costs minutes and GB
    import os
    import subprocess
    import sys

    bets = tmp_path / "heavy.toml"
    bets.write_text('[[bet]]\nname = "heavy"\n[[bet.pay]]\nwhen = { all_cards = { count_colour = '
                    '{ colour = "red", at_least = 3 } } }\npays = 20\n')
    env = {**os.environ, "PUNTO_BANCO_MAX_RECORDS": "1000", "PUNTO_BANCO_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-m", "analyzer", "bets", "--bet-file", str(bets)],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "'heavy'" in lines[0] and "1,000 settled records" in lines[0], lines
    assert "PUNTO_BANCO_MAX_RECORDS" in lines[0]
    env["PUNTO_BANCO_MAX_RECORDS"] = "many"
    done = subprocess.run([sys.executable, "-m", "analyzer", "bets", "--bet-file", str(bets)],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 2 and "PUNTO_BANCO_MAX_RECORDS" in done.stderr


def _many_bets(path: Path, count: int) -> Path:
    path.write_text("".join(f'[[bet]]\nname = "b{i}"\n[[bet.pay]]\nwhen = {{ winner = "tie" }}\npays = 8\n'
                            for i in range(count)))
    return path


def test_a_bet_file_holds_a_bounded_number_of_bets(cli, tmp_path):
    with deadline(20):
        result = cli("bets", "--bet-file", str(_many_bets(tmp_path / "many.toml", 1001)))
    assert result.exit_code == 2
    assert "more than the limit of 1,000 bets" in one_error_line(result)
    three = _many_bets(tmp_path / "three.toml", 3)
    assert cli("bets", "--bet-file", str(three)).exit_code == 0
    for result in (cli("bets", "--bet-file", str(three), "--max-bets", "2"),
                   cli("bets", "--bet-file", str(three), env={"PUNTO_BANCO_MAX_BETS": "2"})):
        assert result.exit_code == 2 and "limit of 2 bets" in one_error_line(result)
    assert "PUNTO_BANCO_MAX_BETS" in cli("bets", "--help").output


def test_a_text_read_again_gives_the_same_bets_from_a_bounded_memory(monkeypatch):
    from analyzer.bets import files

    monkeypatch.setattr(files, "READ_LIMIT", 3)
    monkeypatch.setattr(files, "_READ", {})
    text = '[[bet]]\nname = "b7"\n[[bet.pay]]\nwhen = { winner = "banker", banker_total = 7 }\npays = 2\n'
    first, again = parse_bets(text), parse_bets(text)
    assert first == again and first[0] is again[0] and first is not again  # a new list each time
    elsewhere = parse_bets(text, "other.toml")[0]  # another label: its own source
    assert elsewhere is not first[0] and "other.toml" in elsewhere.source
    for pays in range(3, 9):
        assert parse_bets(text.replace("pays = 2", f"pays = {pays}"))[0].lines[0].pays == pays
        assert len(files._READ) <= 3
    long = text + "#" * files.READ_CHARS  # a long text is read, not kept
    assert parse_bets(long)[0].lines[0].pays == 2 and not any(k[0] == long for k in files._READ)
    for _ in range(2):  # a bad text is refused every time
        with pytest.raises(BetError, match="no bets"):
            parse_bets("# nothing\n")


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("dragon\u20107", "U+2010 HYPHEN"),  # red team: taken as a bet of its own beside dragon-7
        ("dragon\u22127", "U+2212 MINUS SIGN"),
        ("p\u0430nda-8", "U+0430 CYRILLIC SMALL LETTER A"),
        ("\uff44ragon-7", "U+FF44 FULLWIDTH LATIN SMALL LETTER D"),
        ("ti\u0435", "U+0435 CYRILLIC SMALL LETTER IE"),
        ("caf\u00e9", "U+00E9 LATIN SMALL LETTER E WITH ACUTE"),
    ],
)
def test_a_bet_name_not_in_ascii_is_refused_naming_the_character(name, char):
    text = f'[[bet]]\nname = "{name}"\n[[bet.pay]]\nwhen = {{ winner = "tie" }}\npays = 8\n'
    with pytest.raises(BetError, match=re.escape(char)) as refused:
        parse_bets(text, "mine.toml")
    assert "must be written in ASCII" in str(refused.value)


@pytest.mark.parametrize(
    ("name", "looks"),
    [("dragon\u20107", "dragon-7"), ("\uff24ragon\u00a07", "Dragon 7"), ("p\u0430nda\u20118", "panda-8"),
     ("tie\u2019s", "tie's"), ("ban\u00adker", "banker")],
)
def test_a_name_skeleton_is_what_it_looks_like(name, looks):
    assert name_skeleton(name) == looks


# -- the grown language: any set of positions, comparisons, sums -------------------------------

THIRDS_SAME = "Kh 4h 3d 10c 6s 6h"  # P1 Kh B1 4h P2 3d B2 10c P3 6s B3 6h: Player 9, Banker 0
THIRDS_APART = "Kh 4h 3d 10c 6s Ah"  # the same, the Banker's third card an ace: Banker 5
NATURALS = "9h 2c Kd Js"  # Player natural 9: no third cards


def holds(when, cards):
    """Whether a one-line bet with this ``when`` wins on the coup dealt from ``cards``."""
    (bet,) = parse_bets(f'[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {when}\npays = 2\n')
    return bet.settle(resolve(cards))[1] == 2


@pytest.mark.parametrize("when, cards, wins", [
    ('{ "{P3, B3}" = { same_rank = true } }', THIRDS_SAME, True),
    ('{ "{P3, B3}" = { same_rank = true } }', THIRDS_APART, False),
    ('{ "{ p3 ,B3 }" = { same_rank = false } }', THIRDS_APART, True),
    ('{ "{P3, B3}" = { same_rank = true } }', NATURALS, False),  # no third cards: not "of one rank"
    ('{ "{P1, B1}" = { same_suit = true } }', THIRDS_SAME, True),
    ('{ "{P1, B1, P2}" = { same_colour = true } }', THIRDS_SAME, True),
    ('{ "{P1, B1, B2}" = { same_colour = true } }', THIRDS_SAME, False),
    ('{ player_hand = { sum = 9 }, banker_hand = { sum = 10, total = 0 } }', THIRDS_SAME, True),
    ('{ "{P2, B3}" = { count_value = { value = 6, at_least = 1 }, sum = 9 } }', THIRDS_SAME, True),
    ('{ P3 = { rank = "6" }, B3 = { value = 1 } }', THIRDS_APART, True),
    ('{ compare = { left = "P3", right = "B3", by = "rank" } }', THIRDS_SAME, True),
    ('{ compare = { left = "P3", right = "B3", by = "rank" } }', THIRDS_APART, False),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "different" } }', THIRDS_APART, True),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "different" } }', NATURALS, False),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "higher" } }', THIRDS_APART, True),
    ('{ compare = { left = "B3", right = "P3", by = "rank", is = "higher" } }', THIRDS_APART, False),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "same_or_lower" } }', THIRDS_SAME, True),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "lower" } }', THIRDS_SAME, False),
    ('{ compare = { left = "P1", right = "B1", by = "rank", is = "higher" } }', THIRDS_SAME, True),  # K > 4
    ('{ compare = { left = "P1", right = "B1", by = "value", is = "higher" } }', THIRDS_SAME, False),  # 0 < 4
    ('{ compare = { left = "P1", right = "B1", by = "value", is = "same_or_higher" } }', NATURALS, True),
    ('{ compare = { left = "P1", right = "B1", by = "suit" } }', THIRDS_SAME, True),
    ('{ compare = { left = "P3", right = "B3", by = "suit" } }', THIRDS_SAME, False),
    ('{ compare = { left = "P3", right = "B3", by = "colour", is = "different" } }', THIRDS_SAME, True),
    ('{ compare = { left = "P3", right = "B3", by = "value" } }', THIRDS_SAME, True),
    ('{ compare = { left = "player_hand", right = "banker_hand", by = "sum", is = "lower" } }',
     THIRDS_SAME, True),  # 9 < 10
    ('{ compare = { left = "player_hand", right = "banker_hand", by = "total", is = "higher" } }',
     THIRDS_SAME, True),  # 9 > 0
    ('{ compare = { left = "player_first_two", right = "banker_first_two", by = "value" } }',
     "Kh 3c 3d Ks 6s 2h", True),  # {K, 3} and {3, K}
    ('{ compare = { left = "player_first_two", right = "banker_first_two", by = "rank" } }',
     "Kh 3c 3d Qs 6s 2h", False),  # {K, 3} and {3, Q}: the same values, not the same ranks
    ('{ compare = [{ left = "P3", right = "B3", by = "rank" }, { left = "P3", right = "B3", by = "suit" }] }',
     THIRDS_SAME, False),  # both must hold
])
def test_sets_and_comparisons_settle_as_written(when, cards, wins):
    assert holds(when, cards) is wins


@pytest.mark.parametrize("when, sets, ranks, suits", [
    ('{ "{P3, B3}" = { same_rank = true } }', {frozenset({4, 5})}, RankDetail.EQUALITY, SuitDetail.NONE),
    ('{ "{P1, B1}" = { sum = 5 } }', {frozenset({0, 1})}, RankDetail.NONE, SuitDetail.NONE),
    ('{ compare = { left = "P3", right = "B3", by = "rank" } }', {frozenset({4}), frozenset({5})},
     RankDetail.EQUALITY, SuitDetail.NONE),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "higher" } }',
     {frozenset({4}), frozenset({5})}, RankDetail.NAMED, SuitDetail.NONE),
    ('{ compare = { left = "P3", right = "B3", by = "value", is = "higher" } }',
     {frozenset({4}), frozenset({5})}, RankDetail.NONE, SuitDetail.NONE),
    ('{ compare = { left = "P1", right = "B1", by = "suit" } }', {frozenset({0}), frozenset({1})},
     RankDetail.NONE, SuitDetail.SUIT_EQUALITY),
    ('{ compare = { left = "P1", right = "B1", by = "colour" } }', {frozenset({0}), frozenset({1})},
     RankDetail.NONE, SuitDetail.COLOUR_EQUALITY),
    ('{ compare = { left = "player_hand", right = "banker_hand", by = "sum" } }',
     {frozenset({0, 2, 4}), frozenset({1, 3, 5})}, RankDetail.NONE, SuitDetail.NONE),
])
def test_sets_and_comparisons_read_no_more_than_they_need(when, sets, ranks, suits):
    (bet,) = parse_bets(f'[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {when}\npays = 2\n')
    assert bet.reads.fields == set() and bet.reads.sets == sets
    assert (bet.reads.ranks, bet.reads.suits) == (ranks, suits)


@pytest.mark.parametrize("when, words", [
    ('{ "{P3, X9}" = { pair = true } }', ["bad set of positions", "'{P3, X9}'"]),
    ('{ "{P3, P3}" = { pair = true } }', ["bad set of positions"]),
    ('{ "{P3, B3}" = { rank = "K" } }', ["'rank' is a feature of one card position"]),
    ('{ compare = { left = "P3", by = "rank" } }', ["'right' is missing"]),
    ('{ compare = { left = "P3", right = "Z1", by = "rank" } }', ["right 'Z1' is not a position"]),
    ('{ compare = { left = "P3", right = "P3", by = "rank" } }', ["the same set {P3}"]),
    ('{ compare = { left = "P3", right = "B3", by = "shape" } }', ["'by' must be one of"]),
    ('{ compare = { left = "P3", right = "B3", by = "rank", is = "bigger" } }', ["'is' must be one of"]),
    ('{ compare = { left = "P3", right = "B3", by = "suit", is = "higher" } }', ["no order"]),
    ('{ compare = { left = "player_hand", right = "banker_hand", by = "rank", is = "higher" } }',
     ["sets are not ordered by rank"]),
    ('{ compare = { left = "P3", right = "B3", by = "rank", with = 1 } }', ["unknown key 'with'"]),
    ("{ compare = 3 }", ["give a table"]),
    ('{ "{P1, B1}" = { sum = 55 } }', ["0-54"]),
    ('{ player_first_two = { pictures = 7 } }', ["pictures", "0-6"]),
    ('{ player_first_two = { pictures = true } }', ["pictures", "at_most = N"]),
    ('{ player_first_two = { pictures = { at_least = 9 } } }', ["pictures at_least", "0-6, got 9"]),
    ('{ player_first_two = { size = { most = 1 } } }', ["size comparison key 'most'"]),
])
def test_bad_sets_and_comparisons_are_one_clear_error(when, words):
    with pytest.raises(BetError) as info:
        parse_bets(f'[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {when}\npays = 2\n', "mine.toml")
    for word in ["mine.toml", "'x'", *words]:
        assert word in str(info.value)


def test_cards_dealt_is_a_field_of_files_and_of_reads(eight):
    (by_file,) = parse_bets('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { cards_dealt = 4 }\npays = 1\n')
    small = find_bet("small:1")
    assert by_file.reads == small.reads == Reads.of(["cards_dealt"])
    function = Bet.from_function("four", lambda c: 1 if c.cards_dealt == 4 else -1,
                                 reads=Reads.of(["cards_dealt"]))
    assert eight.summary(by_file).ev == eight.summary(function).ev == eight.summary(small).ev


# -- the catalogue's entries: the same parser, the same errors -----------------------------------

ENTRY = ('[[bet]]\nname = "x"\nsummary = "s"\n[[bet.pay]]\nevent = "e"\nwhen = { winner = "tie" }\npays = 8\n'
         '[[bet.published]]\ngrade = "rules-only"\nsource = "src"\n')


@pytest.mark.parametrize("extra, words", [
    ('[bet.tables]\ndefault = "1"\nrefused = "r"\n[bet.tables.2]\npays = [1, 2]\n', "one pay per line (1)"),
    ('[bet.sides]\ndefault = "player"\nrefused = "r"\n[bet.sides.banker]\nwhen = []\n',
     "one condition table per pay line (1)"),
    ('[bet.sides]\nrefused = "r"\n', "needs 'default'"),
    ("adjustable = 2\n", "'adjustable' is the number of a pay line, 1-1"),
    ('make = "nomodule"\n', "an entry built by 'nomodule' has no 'pay'"),
    ("aliases = [1]\n", "'aliases' must be a list of names"),
])
def test_a_malformed_catalogue_entry_is_one_clear_error(extra, words):
    from analyzer.bets.files import catalogue_bet, read_catalogue

    head, _, rest = ENTRY.partition("[[bet.pay]]")
    text = head + extra + "[[bet.pay]]" + rest if not extra.startswith("[") else ENTRY.replace(
        "[[bet.published]]", extra + "[[bet.published]]")
    with pytest.raises(BetError, match=re.escape(words)) as info:
        (spec,) = read_catalogue(text, "cat.toml")
        catalogue_bet(spec, "cat.toml")
    assert "cat.toml: bet 'x'" in str(info.value)


def test_a_catalogue_entry_without_its_default_provenance_is_refused():
    from analyzer.bets.files import catalogue_bet, read_catalogue

    bare = ENTRY.replace('[[bet.published]]\ngrade = "rules-only"\nsource = "src"\n', "")
    with pytest.raises(BetError, match=re.escape("no [[bet.published]] table for its default")):
        read_catalogue(bare, "c.toml")
    (spec,) = read_catalogue(ENTRY.replace('winner = "tie"', 'colour = "red"'), "c.toml")
    with pytest.raises(BetError, match="unknown feature 'colour'"):  # a bet file's own error
        catalogue_bet(spec, "c.toml")


def test_a_named_suit_or_colour_of_one_card_is_read_from_that_card():
    # regression: a set's one-suit flag was asked of a single position ({ banker_3 = { suit = "h" } }),
    # whose card no flag describes: pricing raised UndeclaredReadError
    from analyzer import Shoe, price

    def bet(when):
        (b,) = parse_bets(f'[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = {when}\npays = 10\n')
        return b

    shoe = Shoe.standard(1)
    for named, counted in [
        ('{ banker_3 = { suit = "h" } }', '{ banker_3 = { count_suit = { suit = "h", at_least = 1 } } }'),
        (
            '{ player_3 = { colour = "red" } }',
            '{ player_3 = { count_colour = { colour = "red", at_least = 1 } } }',
        ),
    ]:
        assert price(bet(named), shoe).ev == price(bet(counted), shoe).ev


def test_pictures_price_as_named_ranks_do(eight):
    # the picture read (ten or picture) against the same condition over named ranks: two tables,
    # one price, on a full shoe and on one whose tens and pictures are depleted unevenly
    text = ('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { player_first_two = { pictures = 2 } }\npays = 15\n'
            '[[bet.pay]]\nwhen = { first_four = { pictures = { at_least = 3 } } }\npays = 4\n')
    (by_file,) = parse_bets(text)
    assert by_file.reads.ranks is RankDetail.PICTURE

    def named(c):
        faces = [r for r in c.cards(POSITION_SETS["first_four"]).ranks if r.point == 0 and r.label != "10"]
        player = [r for r in c.cards(PLAYER_FIRST_TWO).ranks if r.point == 0 and r.label != "10"]
        return 15 if len(player) == 2 else 4 if len(faces) >= 3 else -1

    reads = Reads.of([], [POSITION_SETS["first_four"], PLAYER_FIRST_TWO], "named")
    function = Bet.from_function("named", named, reads=reads)
    assert eight.summary(by_file).ev == eight.summary(function).ev
    depleted = Pricer(Shoe.standard(2).remove("Js Qh Qd Kc Kc Kh 10s"))
    assert depleted.summary(by_file).ev == depleted.summary(function).ev
    assert depleted.summary(by_file).ev != eight.summary(by_file).ev
