"""The hand-log reader (``analyzer.checks.handlog``): logs as other engines write them (hands only,
P P B B, point values only, the ace as ``1``, ten-valued cards as ``0``, winners as ``B`` or
``banker win``, natural claims, their own names) reach the checks as the plain format would, a
name or token with two readings is one line asking for a map, and ``described`` says how the log
was read, reading ahead only a bounded way."""

from __future__ import annotations

import io
import json

import pytest

from analyzer.checks import handlog
from analyzer.checks.handlog import HandLog, Record, read_records
from analyzer.checks.logmap import ZERO, PointCard, parse_map
from analyzer.core.cards import Card, Rank, parse_cards
from analyzer.core.coup import Winner
from analyzer.errors import LogError


def read(text: str, fmt: str = "csv", map_text: str | None = None, **options: object) -> HandLog:
    log_map = parse_map(map_text, "m.toml") if map_text is not None else handlog.NO_MAP
    return read_records(io.StringIO(text), fmt, name="log", log_map=log_map, **options)  # type: ignore[arg-type]


def jsonl(*records: dict[str, object]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def test_a_plain_log_is_described_as_the_hand_log_format():
    log = read("cards,winner\n2 4 3 10 6 A,banker\n")
    assert log.described == "read log as CSV (the hand-log format)"
    assert [r.cards for r in log] == [cards("2 4 3 10 6 A")]
    assert (
        read(jsonl({"cards": "2 4 3 K"}), "jsonl").described == "read log as JSON Lines (the hand-log format)"
    )


def test_hands_only_under_their_names():
    log = read("Player Hand,Banker Hand,Result\n2 3 6,4 K A,Banker Wins\n")
    (rec,) = list(log)
    assert (rec.cards, rec.player, rec.banker, rec.winner) == (
        None,
        cards("2 3 6"),
        cards("4 K A"),
        Winner.BANKER,
    )
    assert log.described == (
        "read log as CSV: hands from 'Player Hand' and 'Banker Hand'; "
        "winner from 'Result', 'Banker Wins' as banker"
    )
    mapped = read(
        "P,B\n2 3 6,4 K A\n", map_text='[fields]\nP = "player"\nB = "banker"\n[cards]\norder = "hands"'
    )
    assert [r.player for r in mapped] == [cards("2 3 6")]
    assert mapped.described == "read log as CSV through m.toml: hands from 'P' and 'B'; hands only"
    with pytest.raises(
        LogError, match=r"line 1: the column 'cards' gives cards in dealing order, but the map m\.toml"
    ):
        list(read("cards\n2 4 3 K\n", map_text='[cards]\norder = "hands"'))


def test_p_p_b_b_reaches_the_checks_in_our_order():
    log = read(
        "deal\n2 3 4 10 6 A\n9 K 5 2\n2 4\n", map_text='[fields]\ndeal = "cards"\n[cards]\norder = "P P B B"'
    )
    assert [r.cards for r in log] == [cards("2 4 3 10 6 A"), cards("9 5 K 2"), cards("2 4")]
    assert log.described == "read log as CSV through m.toml: cards from 'deal'; dealing order P P B B"
    # the same in JSON Lines, as a list of point values
    found = read(jsonl({"cards": [2, 3, 4, 0, 6, 1]}), "jsonl", '[cards]\norder = "PPBB"')
    assert [r.cards for r in found] == [
        (Card(Rank.TWO), Card(Rank.FOUR), Card(Rank.THREE), ZERO, Card(Rank.SIX), Card(Rank.ACE))
    ]


def test_the_ace_written_1():
    log = read("cards\n1 4 3 10 6 1h\n")
    assert [r.cards for r in log] == [cards("A 4 3 10 6 Ah")]
    assert log.described == "read log as CSV: the ace written 1"
    assert not log.points_only


def test_ten_valued_cards_written_0_make_a_log_of_point_values_only():
    log = read("cards\n2 4 3 0 6 1\n9 5 0 2\n")
    records = list(log)
    assert [r.cards for r in records] == [
        (*cards("2 4 3"), ZERO, *cards("6 A")),
        (*cards("9 5"), ZERO, *cards("2")),
    ]
    assert all(r.points_only for r in records) and log.points_only
    assert log.described == "read log as CSV: cards as point values only (ten-valued cards 0)"
    assert isinstance(records[0].cards[3], PointCard) and str(records[0].cards[3]) == "0"


def test_records_before_the_first_0_are_points_only_too():
    # the look-ahead has read the whole (short) log before the first record is taken
    log = read(jsonl({"cards": "2 4 3 5"}, {"cards": "9 5 0 2"}), "jsonl")
    assert [r.points_only for r in log] == [True, True]


def test_a_map_says_points_without_waiting_for_a_0():
    log = read("cards\n2 4 3 5\n", map_text="[cards]\npoints = true")
    assert [r.points_only for r in log] == [True]
    with pytest.raises(
        LogError, match=r"line 2: cards: bad card 'K': the map m\.toml says the log gives point values only"
    ):
        list(read("cards\n2 4 3 K\n", map_text="[cards]\npoints = true"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "cards\n2 4 3 0\n2 4 3 K\n",
            "line 3: cards: card 'K' names a rank or a suit, but the log writes ten-valued "
            "cards as 0 (point values only, from line 2): give a map",
        ),
        ("cards\n2 4 3 0\n2 4 3 5h\n", "line 3: cards: card '5h' names a rank or a suit"),
        (
            "cards\n2 4 3 K\n2 4 3 0\n",
            "line 3: cards: card '0': a 0 in a log that names ranks or suits ('K' on line 2) "
            "could be the 10 or any ten-valued card: give a map",
        ),
        (
            "cards\n2h 4 3 5\n2 4 3 0\n",
            "line 3: cards: card '0': a 0 in a log that names ranks or suits ('2h' on line 2)",
        ),
        (
            "cards\n2 4 3 0h\n",
            "line 2: cards: bad card '0h': a 0 with a suit could be the 10 or any ten-valued card",
        ),
    ],
)
def test_a_card_with_two_readings_is_an_error_asking_for_a_map(text, message):
    with pytest.raises(LogError) as info:
        list(read(text))
    assert str(info.value).startswith(message), str(info.value)
    assert "--map FILE.toml" in str(info.value)


def test_a_map_of_ranks_reads_0_as_the_ten():
    log = read("cards\n2 4 3 0 6 1\n2 4 3 K\n", map_text='[cards]\nranks = { "0" = "10" }')
    assert [r.cards for r in log] == [cards("2 4 3 10 6 A"), cards("2 4 3 K")]
    assert not log.points_only
    assert log.described == "read log as CSV through m.toml: 10 written '0', the ace written 1"


@pytest.mark.parametrize(
    ("value", "winner"),
    [
        ("B", Winner.BANKER),
        ("p", Winner.PLAYER),
        ("T", Winner.TIE),
        ("banker win", Winner.BANKER),
        ("Player Wins", Winner.PLAYER),
        ("tie game", Winner.TIE),
        ("Banco", Winner.BANKER),
    ],
)
def test_winner_spellings_read_without_a_map(value, winner):
    assert [r.winner for r in read(f"cards,winner\n2 4 3 K,{value}\n")] == [winner]


def test_winner_codes_through_a_map():
    log = read(
        "cards,outcome\n2 4 3 K,2\n2 4 3 K,3\n",
        map_text='[winner]\n"1" = "player"\n"2" = "banker"\n"3" = "tie"',
    )
    assert [r.winner for r in log] == [Winner.BANKER, Winner.TIE]
    assert log.described == "read log as CSV through m.toml: winner from 'outcome', '2' as banker, '3' as tie"
    with pytest.raises(LogError, match=r"line 2: bad winner '9': use player, banker or tie .* or give a map"):
        list(read("cards,winner\n2 4 3 K,9\n"))


def test_natural_claims_are_read():
    text = "cards,natural\n" + "".join(
        f"2 4 3 K,{v}\n" for v in ("none", "Player", "banker", "both", "true", "false", "", "yes", "0")
    )
    assert [r.natural for r in read(text)] == [
        "none",
        "player",
        "banker",
        "both",
        "either",
        "none",
        None,
        "either",
        "none",
    ]
    assert [r.natural for r in read(jsonl({"cards": "2 4 3 K", "natural": True}), "jsonl")] == ["either"]
    assert Record(1, 1).natural is None
    mapped = read("cards,nat\n2 4 3 K,PB\n", map_text='[fields]\nnat = "natural"\n[natural]\n"PB" = "both"')
    assert [r.natural for r in mapped] == ["both"]
    assert mapped.described == "read log as CSV through m.toml: natural from 'nat', 'PB' as both"
    with pytest.raises(LogError, match="line 2: bad natural 'maybe': use none, player, banker or both"):
        list(read("cards,natural\n2 4 3 K,maybe\n"))


def test_our_own_name_comes_before_a_common_one():
    ignored: list[str] = []
    log = read("cards,winner,result\n2 4 3 K,banker,123\n", ignored=ignored)
    assert [r.winner for r in log] == [Winner.BANKER]
    assert ignored == ["result"] and log.described == "read log as CSV (the hand-log format)"


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        (
            "cards,result,outcome\n2 4 3 K,B,B\n",
            "csv",
            "line 1: the columns 'result' and 'outcome' could each be the field 'winner': give a map",
        ),
        (
            "playerCards,player_hand,banker\n2 3,4 K,5 6\n",
            "csv",
            "line 1: the columns 'playerCards' and 'player_hand' could each be the field 'player'",
        ),
        (
            jsonl({"cards": "2 4 3 K", "result": "B", "outcome": "B"}),
            "jsonl",
            "line 1: the keys 'result' and 'outcome' could each be the field 'winner'",
        ),
        (
            jsonl({"cards": "2 4 3 K", "Cards": "2 4 3 K"}),
            "jsonl",
            "line 1: the keys 'cards' and 'Cards' are both the field 'cards': give each field one key",
        ),
    ],
)
def test_two_names_for_one_field_are_an_error(text, fmt, message):
    with pytest.raises(LogError) as info:
        list(read(text, fmt))
    assert str(info.value).startswith(message), str(info.value)


def test_a_map_column_beside_our_own_name_for_it_is_an_error():
    with pytest.raises(
        LogError, match=r"line 1: the columns 'winner' and 'Result' are both the field 'winner'.*the map"
    ):
        list(read("cards,winner,Result\n2 4 3 K,B,B\n", map_text='[fields]\nResult = "winner"'))


def test_a_map_picks_one_of_two_common_names():
    log = read("cards,result,outcome\n2 4 3 K,7,B\n", map_text='[fields]\noutcome = "winner"')
    assert [r.winner for r in log] == [Winner.BANKER]


def test_bets_and_stakes_under_their_names():
    map_text = '[fields]\n"Banker Bet" = "bet:banker"\n"Tie Stake" = "stake:tie"\n"Tie Bet" = "bet:tie"'
    log = read("cards,stake,Banker Bet,Tie Stake,Tie Bet\n2 4 3 10 6 A,10,9.5,5,-5\n", map_text=map_text)
    (rec,) = list(log)
    assert [(b.spec, b.stake, b.paid) for b in rec.bets] == [("banker", 10, 9.5), ("tie", 5, -5)]
    # JSON Lines: bet:NAME keys, ours or mapped
    (rec,) = list(
        read(jsonl({"cards": "2 4 3 10 6 A", "Banker Bet": 9.5, "stake:banker": 10}), "jsonl", map_text)
    )
    assert [(b.spec, b.stake, b.paid) for b in rec.bets] == [("banker", 10, 9.5)]
    with pytest.raises(LogError, match="line 1: key 'stake:tie' has no matching 'bet:tie' key"):
        list(read(jsonl({"cards": "2 4 3 K", "Tie Stake": 1}), "jsonl", map_text))


def test_json_keys_of_their_own_in_every_shape():
    log = read(
        jsonl(
            {"playerCards": "2 3", "bankerCards": "4 K", "shoeId": 7},
            {"bankerCards": "9 9", "playerCards": "2 3", "newShoe": True},
        ),
        "jsonl",
    )
    records = list(log)
    assert [(r.player, r.banker, r.shoe_id, r.new_shoe) for r in records] == [
        (cards("2 3"), cards("4 K"), "7", False),
        (cards("2 3"), cards("9 9"), None, True),
    ]
    assert log.described == (
        "read log as JSON Lines: hands from 'playerCards' and 'bankerCards'; shoe ids from 'shoeId'; "
        "new-shoe markers from 'newShoe'"
    )


def test_an_error_met_reading_ahead_is_raised_at_its_record():
    log = read("cards\n2 4 3 K\n5 6 7 8\n2 4 Z K\n")
    assert log.described == "read log as CSV (the hand-log format)"
    taken = [next(log), next(log)]
    assert [r.number for r in taken] == [1, 2]
    with pytest.raises(LogError, match="line 4: cards: bad card 'Z'"):
        next(log)
    assert list(log) == []


def test_the_look_ahead_is_bounded(monkeypatch):
    monkeypatch.setattr(handlog, "LOOKAHEAD_RECORDS", 3)
    log = read("cards\n" + "2 4 3 K\n" * 10)
    assert log.described and len(log._ahead) == 3
    assert len(list(log)) == 10
    monkeypatch.setattr(handlog, "LOOKAHEAD_CHARS", 200)
    monkeypatch.setattr(handlog, "LOOKAHEAD_RECORDS", 1000)
    log = read("cards\n" + "2 4 3 K\n" * 10)
    assert log.described and len(log._ahead) < 5


def test_described_after_the_last_record_speaks_of_the_whole_log(monkeypatch):
    monkeypatch.setattr(handlog, "LOOKAHEAD_RECORDS", 1)
    log = read("cards,winner\n2 4 3 K,B\n2 4 3 K,banker win\n")
    assert log.described == "read log as CSV (the hand-log format)"
    list(log)
    assert log.described == "read log as CSV: winner 'banker win' as banker"


def test_cards_as_a_list_of_point_values():
    (rec,) = list(read(jsonl({"player": [2, 3, 0], "banker": [1, 9]}), "jsonl"))
    assert (rec.player, rec.banker) == ((*cards("2 3"), ZERO), cards("A 9"))
    for bad in ([2, 11], [True, 2], [2.5]):
        with pytest.raises(LogError, match="bad player"):
            list(read(jsonl({"player": bad, "banker": "2 3"}), "jsonl"))


def test_bad_arguments_are_refused_at_once():
    with pytest.raises(LogError, match="bad map"):
        read_records(["cards\n"], "csv", log_map="m.toml")  # type: ignore[arg-type]
    with pytest.raises(LogError, match="bad log format"):
        read_records(["cards\n"], "xml")


def test_detect_format_takes_the_maps_format_when_the_extension_says_none():
    m = parse_map('format = "jsonl"', "m.toml")
    assert handlog.detect_format("engine.log", None, m) == "jsonl"
    assert handlog.detect_format("engine.jsonl", None, m) == "jsonl"
    assert handlog.detect_format("engine.csv", "csv", m) == "csv"  # --log-format first
    with pytest.raises(
        LogError, match=r"engine\.csv: its extension says CSV and the map m\.toml says JSON Lines"
    ):
        handlog.detect_format("engine.csv", None, m)
    with pytest.raises(LogError, match="or a map's format"):
        handlog.detect_format("engine.log")


def test_every_reader_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(handlog, "_CARD_CACHE_LIMIT", 5)
    monkeypatch.setattr(handlog, "_VALUE_CACHE_LIMIT", 3)
    monkeypatch.setattr(handlog, "_PLAN_CACHE_LIMIT", 2)
    lines = [
        {"cards": f"{a} {b} 3 4", "winner": w, f"k{a}{b}": 1}
        for a in range(1, 10)
        for b in range(1, 10)
        for w in ("B", "p win", "Banker")
    ]
    log = read(jsonl(*lines), "jsonl", ignored=[])
    assert len(list(log)) == len(lines)
    assert len(log._tokens) <= 5 and len(log._winners) <= 3
    assert len(handlog._CARD_CACHE) <= 66  # each card of the reader's is one of 65, or ZERO
