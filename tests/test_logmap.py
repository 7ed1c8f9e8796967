"""The map of a foreign hand log and the spellings read without one (``analyzer.checks.logmap``):
every key of the map read as documented (docs/checks.md, "Logs written by other engines"), every
bad map one line naming the file and the key, and each common spelling read one way only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import one_error_line

from analyzer.checks import logmap
from analyzer.checks.logmap import (
    NO_MAP,
    POINT,
    RANKED,
    ZERO,
    LogMap,
    Reading,
    card_token,
    describe,
    field_of,
    load_map,
    natural_spelling,
    parse_map,
    winner_spelling,
)
from analyzer.core.cards import Card, Rank, Suit
from analyzer.core.coup import Winner
from analyzer.errors import CardError, LogError, LogMapError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_MAP = ROOT / "examples" / "foreign" / "table.toml"


# -- the map file ---------------------------------------------------------------------------------


def test_every_key_of_a_map_is_read():
    text = """
format = "jsonl"
[fields]
"Player Hand" = "player"
"Banker Hand" = "Banker"
"Winner Paid" = "bet:banker"
"Stake On Tie" = "stake: tie"
[cards]
order = "ppbb"
ranks = { "1" = "A", "0" = "10", "ELEVEN" = "J" }
[winner]
"House" = "banker"
[natural]
"-" = "none"
"Yes" = "either"
"""
    found = parse_map(text, "m.toml")
    assert found.source == "m.toml" and found.log_format == "jsonl" and found.given
    assert dict(found.fields) == {
        "player hand": "player",
        "banker hand": "banker",
        "winner paid": "bet:banker",
        "stake on tie": "stake:tie",
    }
    assert found.names["player hand"] == "Player Hand"
    assert found.order == "P P B B" and found.points is None
    assert dict(found.ranks) == {"1": Rank.ACE, "0": Rank.TEN, "eleven": Rank.JACK}
    assert dict(found.winners) == {"house": Winner.BANKER}
    assert dict(found.naturals) == {"-": "none", "yes": "either"}
    assert parse_map('[cards]\norder = "hands"\npoints = true', "m").order == "hands"
    assert parse_map("", "m") == LogMap("m")


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("colums = 1", "colums", "unknown key: a map has format, fields, cards, winner, natural"),
        ('format = "xml"', "format", "'xml' is not a log format"),
        ("fields = 3", "fields", "give a table"),
        ('[fields]\n"Result" = "winer"', "fields.Result", "'winer' is not a field of the hand-log format"),
        ('[fields]\n"Result" = 7', "fields.Result", "7 is not a field"),
        ('[fields]\n"Result" = "bet:"', "fields.Result", "'bet:' is not a field"),
        (
            '[fields]\n"Result" = "winner"\n"Outcome" = "winner"',
            "fields.Outcome",
            "fields.Result maps a column to winner too: map one column to each field",
        ),
        (
            '[fields]\n"Result" = "winner"\n"RESULT" = "natural"',
            "fields.RESULT",
            "names the column of fields.Result again",
        ),
        (
            '[fields]\n"Player Hand" = "player"\n"Hand" = "player"',
            "fields.Hand",
            'fields."Player Hand" maps a column',
        ),
        ('[fields]\n" " = "player"', 'fields." "', "an empty column name"),
        ("[cards]\nshuffle = 1", "cards.shuffle", "unknown key: [cards] has order, points, ranks"),
        ('[cards]\norder = "B P B P"', "cards.order", "'B P B P' is not a dealing order"),
        (
            '[fields]\ndeal = "cards"\n[cards]\norder = "hands"',
            "cards.order",
            "fields.deal maps a column to cards",
        ),
        ('[cards]\npoints = "yes"', "cards.points", "'yes' is not true or false"),
        ('[cards]\nranks = { "1" = "one" }', "cards.ranks.1", "'one' is not a rank"),
        ('[cards]\nranks = { "x y" = "A" }', 'cards.ranks."x y"', "a card token is one word"),
        ('[cards]\nranks = { "a1" = "A", "A1" = "A" }', "cards.ranks.A1", "the token is given twice"),
        ('[cards]\npoints = true\nranks = { "1" = "A" }', "cards.ranks", "drop one"),
        (
            '[winner]\n"House" = "dealer"',
            "winner.House",
            "'dealer' is not a winner value: use player, banker or tie",
        ),
        ('[natural]\n"N" = "nobody"', "natural.N", "'nobody' is not a natural value"),
        ('[natural]\n"N" = "none"\n"n" = "none"', "natural.n", "the value is given twice"),
        ("[fields\n", None, "not valid TOML"),
    ],
)
def test_a_bad_map_is_one_line_naming_the_file_and_the_key(tmp_path, cli, text, key, message):
    with pytest.raises(LogMapError) as info:
        parse_map(text, "engine.toml")
    said = str(info.value)
    assert said.startswith(f"engine.toml: {key}: " if key else "engine.toml: "), said
    assert message in said and "\n" not in said
    # the commands: one line, exit code 2
    path = tmp_path / "engine.toml"
    path.write_text(text, encoding="utf-8")
    log = tmp_path / "log.csv"
    log.write_text("cards\n2 4 3 10 6 A\n", encoding="utf-8")
    for command in ("verify", "conform"):
        result = cli(command, str(log), "--map", str(path))
        assert result.exit_code == 2
        assert one_error_line(result).startswith(f"Error: {path}: "), result.output


def test_load_map_reads_a_file_and_refuses_what_is_not_one(tmp_path):
    assert load_map(EXAMPLE_MAP).fields["deal"] == "cards"
    with pytest.raises(LogMapError, match="no such map file"):
        load_map(tmp_path / "missing.toml")
    with pytest.raises(LogMapError, match="is a folder"):
        load_map(tmp_path)
    big = tmp_path / "big.toml"
    big.write_text("#" * (logmap.MAX_MAP_BYTES + 1), encoding="utf-8")
    with pytest.raises(LogMapError, match="larger than 100,000 bytes"):
        load_map(big)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"# caf\xe9\n")
    with pytest.raises(LogMapError, match="not UTF-8 text"):
        load_map(latin)
    with pytest.raises(LogMapError, match="bad map file"):
        load_map(7)  # type: ignore[arg-type]
    assert issubclass(LogMapError, LogError)  # a bad map stops a run as a bad log does


def test_the_manuals_map_is_the_example_file():
    manual = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", manual, re.S)
    assert EXAMPLE_MAP.read_text(encoding="utf-8") in blocks
    # and every key the manual's table names is a key of the map
    named = {word for cell in re.findall(r"^\| `([^`]+)`", manual, re.M) for word in re.findall(r"\w+", cell)}
    assert {"format", "fields", "cards", "order", "points", "ranks", "winner", "natural"} <= named


# -- names --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("playerCards", "player"),
        ("player_cards", "player"),
        ("player_hand", "player"),
        ("PlayerHand", "player"),
        ("Player Hand", "player"),
        ("bankerCards", "banker"),
        ("banker-hand", "banker"),
        ("playerTotal", "player_total"),
        ("player_score", "player_total"),
        ("playerScore", "player_total"),
        ("player_points", "player_total"),
        ("bankerScore", "banker_total"),
        ("result", "winner"),
        ("Outcome", "winner"),
        ("shoe_id", "shoe"),
        ("shoeId", "shoe"),
        ("newShoe", "new_shoe"),
        ("burn_cards", "burn"),
    ],
)
def test_common_names_are_read_as_our_fields(name, field):
    assert field_of(name) == (field, logmap.ALIAS)


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("cards", "cards"),
        (" Winner ", "winner"),
        ("player_total", "player_total"),
        ("bet: tie", "bet:tie"),
        ("STAKE:banker", "stake:banker"),
        ("bets", "bets"),
        ("natural", "natural"),
    ],
)
def test_our_names_are_ours_whatever_their_case(name, field):
    assert field_of(name) == (field, logmap.OWN)


def test_a_map_name_comes_before_ours_and_the_common_ones():
    m = parse_map('[fields]\n"winner" = "natural"\n"Result" = "id"', "m")
    assert field_of("Winner", m) == ("natural", logmap.OWN)
    assert field_of("result", m) == ("id", logmap.OWN)
    assert field_of("table", m) == (None, 0) and field_of("player", m) == ("player", logmap.OWN)


# -- values -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "winner", "plain"),
    [
        ("B", Winner.BANKER, True),
        ("banco", Winner.BANKER, True),
        ("P", Winner.PLAYER, True),
        ("banker win", Winner.BANKER, False),
        ("Banker wins", Winner.BANKER, False),
        ("player win", Winner.PLAYER, False),
        ("PLAYER_WON", Winner.PLAYER, False),
        ("tie game", Winner.TIE, False),
        ("  Tie  Game ", Winner.TIE, False),
        ("dealer wins", None, False),
        ("banker banker", None, False),
        ("win", None, False),
    ],
)
def test_winner_spellings(value, winner, plain):
    assert winner_spelling(value) == (winner, plain)


def test_a_mapped_winner_comes_first():
    m = parse_map('[winner]\n"1" = "player"\n"B" = "banker"\n"P" = "tie"', "m")
    assert winner_spelling("1", m) == (Winner.PLAYER, False)
    assert winner_spelling("b", m) == (Winner.BANKER, True)  # as we read it anyway
    assert winner_spelling("p", m) == (Winner.TIE, False)  # the map's reading, not ours
    assert winner_spelling("banker win", m) == (Winner.BANKER, False)


@pytest.mark.parametrize(
    ("value", "claim"),
    [
        ("none", "none"),
        ("Player", "player"),
        ("BANKER", "banker"),
        ("both", "both"),
        ("true", "either"),
        ("False", "none"),
        ("yes", "either"),
        ("no", "none"),
        ("1", "either"),
        ("0", "none"),
        (True, "either"),
        (False, "none"),
        (1, "either"),
        (0, "none"),
        ("either", "either"),
        ("maybe", None),
        (2, None),
        (None, None),
    ],
)
def test_natural_spellings(value, claim):
    assert natural_spelling(value)[0] == claim
    assert logmap.NATURAL_CLAIMS == ("none", "player", "banker", "both", "either")


def test_a_mapped_natural_comes_first():
    m = parse_map('[natural]\n"N" = "none"\n"no" = "both"\n"PB" = "true"', "m")
    assert natural_spelling("n", m) == ("none", False)
    assert natural_spelling("no", m) == ("both", False)
    assert natural_spelling("pb", m) == ("either", False)
    assert natural_spelling("false", m) == ("none", True)


# -- card tokens --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "card", "kind", "spelt"),
    [
        ("1", Card(Rank.ACE), 0, "1"),
        ("1h", Card(Rank.ACE, Suit.HEARTS), RANKED, "1"),
        ("A", Card(Rank.ACE), 0, None),
        ("7", Card(Rank.SEVEN), 0, None),
        ("7s", Card(Rank.SEVEN, Suit.SPADES), RANKED, None),
        ("10", Card(Rank.TEN), RANKED, None),
        ("K", Card(Rank.KING), RANKED, None),
        ("0", ZERO, POINT, None),
    ],
)
def test_card_tokens_without_a_map(token, card, kind, spelt):
    found = card_token(token)
    assert found == (card, kind, spelt)
    assert type(found[0]) is type(card)


def test_zero_is_a_ten_valued_card_of_unknown_rank_shown_as_0():
    assert ZERO.point == 0 and str(ZERO) == "0" and Card(Rank.TEN) != ZERO
    with pytest.raises(CardError, match="a 0 with a suit could be the 10 or any ten-valued card"):
        card_token("0h")
    with pytest.raises(CardError, match="bad card '11'"):
        card_token("11")


def test_card_tokens_through_a_map():
    ranks = parse_map('[cards]\nranks = { "1" = "A", "0" = "10", "x" = "K" }', "m.toml")
    assert card_token("0", ranks) == (Card(Rank.TEN), RANKED, "0")
    assert card_token("0d", ranks) == (Card(Rank.TEN, Suit.DIAMONDS), RANKED, "0")
    assert card_token("X", ranks) == (Card(Rank.KING), RANKED, "x")
    assert card_token("Q", ranks) == (Card(Rank.QUEEN), RANKED, None)
    with pytest.raises(CardError, match=r"bad card 'Z'.*; or map the token in m.toml \[cards\] ranks"):
        card_token("Z", ranks)
    points = parse_map("[cards]\npoints = true", "p.toml")
    assert card_token("0", points) == (ZERO, POINT, None)
    assert card_token("1", points) == (Card(Rank.ACE), 0, None)
    assert card_token("9", points) == (Card(Rank.NINE), 0, None)
    for token in ("K", "10", "5h", "A"):
        with pytest.raises(CardError, match=r"the map p.toml says the log gives point values only"):
            card_token(token, points)
    ranked = parse_map("[cards]\npoints = false", "r.toml")
    with pytest.raises(CardError, match="bad card '0'"):
        card_token("0", ranked)


# -- how a log was read -------------------------------------------------------------------------------


def test_describe_says_only_what_differs_from_the_plain_format():
    assert (
        describe("h.jsonl", "jsonl", NO_MAP, Reading()) == "read h.jsonl as JSON Lines (the hand-log format)"
    )
    m = parse_map(
        '[fields]\n"Player Hand" = "player"\n"Banker Hand" = "banker"\n[cards]\norder = "P P B B"', "m.toml"
    )
    reading = Reading(
        {"player": "Player Hand", "banker": "Banker Hand", "winner": "Result", "bet:tie": "Tie Bet"},
        {"1": Rank.ACE, "x": Rank.KING},
        {"banker win": Winner.BANKER},
        {"N": "none"},
    )
    assert describe("log.csv", "csv", m, reading) == (
        "read log.csv as CSV through m.toml: hands from 'Player Hand' and 'Banker Hand'; "
        "winner from 'Result', 'banker win' as banker; bet:tie from 'Tie Bet'; the ace written 1, "
        "K written 'x'; natural 'N' as none; dealing order P P B B"
    )
    one_side = Reading({"player_total": "pScore"}, points=True)
    assert describe("l", "csv", NO_MAP, one_side) == (
        "read l as CSV: player total from 'pScore'; cards as point values only (ten-valued cards 0)"
    )
    hands = parse_map('[cards]\norder = "hands"', "m")
    assert describe("l", "csv", hands, Reading()) == "read l as CSV through m: hands only"


def test_describe_escapes_what_the_log_wrote():
    said = describe("l\x1b[2J", "csv", NO_MAP, Reading({"winner": "Res\nult"}))
    assert "\x1b" not in said and "\n" not in said
