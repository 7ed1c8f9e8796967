"""User-defined bets from TOML files and from payout functions."""

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import Bet, Level, Pricer, Shoe, find_bet
from analyzer.bets.files import FEATURES, load_bets
from analyzer.errors import BetError

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
    assert {"big-tiger", "natural-tie", "pair-and-win", "dragon-bonus-alt"} <= set(bets)
    assert bets["pair-and-win"].level is Level.RANK
    # Big Tiger (Banker wins with a three-card 6, pays 50): Jacobson, "Card Counting the Big
    # Tiger Baccarat Side Bet" (advancedadvantageplay.com, 2024): house edge 15.2533%, 8 decks.
    assert round(eight.summary(bets["big-tiger"]).house_edge * 100, 4) == Fraction("15.2533")


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
    d = eight.distribution(Level.VALUE, False)
    low = d.probability(lambda f: f.winner.value == "banker" and f.banker_total <= 2)
    player = d.probability(lambda f: f.winner.value == "player")
    assert s.ev == Fraction(19, 20) * low - player


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


def test_vocabulary_covers_every_feature_field():
    from analyzer.core.features import Features

    fields = set(Features._fields) - {"player_third", "banker_third"}
    assert fields <= set(FEATURES)


def test_payout_function_api(eight):
    bet = Bet.from_function(
        "banker-even-money",
        lambda f: 1 if f.winner.value == "banker" else (0 if f.winner.value == "tie" else -1),
    )
    d = eight.distribution(Level.VALUE, False)
    expected = d.probability(lambda f: f.winner.value == "banker") - d.probability(
        lambda f: f.winner.value == "player"
    )
    assert eight.summary(bet).ev == expected


def test_payout_function_reading_undeclared_fields_is_an_error(eight):
    # Without the guard, f.player_pair would be None at the default level and the bet would be
    # silently priced as never winning.
    pair = Bet.from_function("pp", lambda f: 11 if f.player_pair else -1)
    with pytest.raises(BetError, match=r"level=Level\.RANK"):
        eight.summary(pair)
    declared = Bet.from_function("pp", lambda f: 11 if f.player_pair else -1, level=Level.RANK)
    assert eight.summary(declared).ev == eight.summary(find_bet("player-pair")).ev
    third = Bet.from_function("p3", lambda f: 1 if f.player_third == 0 else -1)
    with pytest.raises(BetError, match="thirds=True"):
        eight.summary(third)
