"""``punto-banco verify``: every way an implementation can misread the tableau or the pay tables,
each caught with the rule it broke (RULES.md, "Tableau" and "Pay tables in the sheets"); its
caches bounded and its memory flat in the log's length."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import one_error_line, run_process
from deadline import deadline

from analyzer.checks.handlog import Record, detect_format, read_records
from analyzer.checks.verify import (
    Discrepancy,
    LogError,
    Verifier,
    amount_text,
    report_line,
    summary_text,
    verify_file,
)
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD
from analyzer.errors import AnalyzerError, ShoeError

EXAMPLES = Path(__file__).parent.parent / "examples"


def run(*records: dict[str, object] | str, fmt: str = "jsonl", **options: object) -> list[Discrepancy]:
    """Verify JSON Lines records (dicts, or raw JSON text) and return the discrepancies."""
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n"
    verifier = Verifier(**options)  # type: ignore[arg-type]
    return list(verifier.run(read_records(io.StringIO(text), fmt)))


def only(found: list[Discrepancy]) -> Discrepancy:
    assert len(found) == 1, [str(d) for d in found]
    return found[0]


# -- the tableau ----------------------------------------------------------------------------------


def test_a_correct_coup_conforms():
    # Player 2 3 6 (1), Banker 4 10 A (5): Banker wins (the resolve() doctest).
    assert run({"cards": "2 4 3 10 6 A", "player_total": 1, "banker_total": 5, "winner": "banker"}) == []


def test_banker_3_draws_against_an_8():
    # Player 2 3 = 5 draws an 8; Banker K 3 = 3 must stand on an 8 (RULES.md table, row 3).
    d = only(run({"player": "2 3 8", "banker": "K 3 4"}))
    assert (d.field, d.expected, d.claimed) == ("banker", "Banker stands", "Banker draws a third card (4)")
    assert d.rule == "Banker on 3 must stand when the Player's third card is 8"


def test_banker_3_stands_against_a_9_from_the_card_sequence_alone():
    # Only 5 cards dealt: the Banker did not draw; on 3 it must draw against a 9.
    d = only(run({"cards": "2 K 3 3 9"}))
    assert d.field == "cards"
    assert d.rule == "Banker on 3 must draw when the Player's third card is 9"


# RULES.md, "Tableau", step 4, at the edges of rows 4, 5 and 6: (Banker total, Player's third
# card, must the Banker draw?).
BANKER_EDGES = [
    (4, 1, False), (4, 2, True), (4, 7, True), (4, 8, False), (4, 0, False),
    (5, 3, False), (5, 4, True), (5, 7, True), (5, 8, False),
    (6, 5, False), (6, 6, True), (6, 7, True), (6, 8, False),
    (7, 6, False), (3, 0, True),
]


@pytest.mark.parametrize(("banker", "third", "draws"), BANKER_EDGES)
def test_banker_edges(banker, third, draws):
    # Player 2 3 = 5 draws `third`; Banker K + `banker`.  The implementation does the opposite.
    third_card = {0: "K", 1: "A"}.get(third, str(third))
    player = f"2 3 {third_card}"
    bank = f"K {banker}" + ("" if draws else " 5")
    d = only(run({"player": player, "banker": bank}))
    verb = "draw" if draws else "stand"
    assert d.rule == f"Banker on {banker} must {verb} when the Player's third card is {third}"
    assert d.field == "banker"


def test_banker_when_the_player_stood():
    d = only(run({"player": "K 7", "banker": "K 6 2"}))
    assert d.rule == "Banker on 6 must stand when the Player stands"
    d = only(run({"player": "K 6", "banker": "K 5"}))
    assert d.rule == "Banker on 5 must draw when the Player stands"


def test_player_draws_on_6():
    # The Player stands on 6 (RULES.md step 2); this implementation draws.
    d = only(run({"player": "K 6 2", "banker": "K 7"}))
    assert (d.field, d.expected, d.claimed) == ("player", "Player stands", "Player draws a third card (2)")
    assert d.rule == "Player on 6 must stand"


def test_player_stands_on_5():
    d = only(run({"player": "K 5", "banker": "K 7"}))
    assert d.rule == "Player on 5 must draw"


def test_natural_against_a_drawing_hand():
    # Player natural 8; the implementation still let the Banker (5) draw.
    d = only(run({"player": "3 5", "banker": "K 5 2"}))
    assert d.field == "banker"
    assert d.rule == "Player has a natural 8: both hands stand"
    # Banker natural 9; the implementation let the Player (1) draw; and from cards alone.
    d = only(run({"player": "A K 4", "banker": "4 5"}))
    assert (d.field, d.rule) == ("player", "Banker has a natural 9: both hands stand")
    d = only(run({"cards": "A 4 K 5 4"}))
    assert (d.field, d.rule) == ("cards", "Banker has a natural 9: both hands stand")


def test_both_naturals():
    d = only(run({"cards": "9 8 K K 2"}))
    assert d.rule == "Player has a natural 9 and Banker has a natural 8: both hands stand"
    # Both hands drew: two mistakes, each reported.
    found = run({"cards": "9 8 K K 2 2"})
    assert [d.claimed for d in found] == ["Player draws a third card (2)", "Banker draws a third card (2)"]


def test_ten_valued_cards_in_totals():
    # 10, J, Q, K count 0: Player 10 6 is 6, not 16; Banker K Q is 0 (baccara).
    found = run({"player": "10 6", "banker": "K Q 9", "player_total": 16, "banker_total": 10})
    fields = {d.field: d for d in found}
    assert set(fields) == {"player_total", "banker_total"}
    assert (fields["player_total"].expected, fields["player_total"].claimed) == ("6", "16")
    assert "10(0) + 6 = 6 -> 6" in fields["player_total"].rule
    assert fields["banker_total"].expected == "9"


def test_ten_valued_third_card_is_zero_in_the_tableau():
    # A K as the Player's third card has point value 0: Banker on 4 stands (RULES.md; sheet 004
    # writes it "10").  An implementation reading it as "no third card" would draw.
    d = only(run({"cards": "2 A 3 3 K 6", "player": "2 3 K", "banker": "A 3 6"}))
    assert d.rule == "Banker on 4 must stand when the Player's third card is 0"


def test_wrong_total_and_winner():
    found = run({"cards": "9 5 K 2", "player_total": 9, "banker_total": 7, "winner": "banker"})
    d = only(found)
    assert (d.field, d.expected, d.claimed) == ("winner", "Player", "Banker")
    assert d.rule == "the higher total wins and equal totals tie: Player 9, Banker 7"


def test_each_mistake_reported_once_where_it_was_made():
    # The Banker wrongly drew (3 against an 8); its totals, winner and payouts are right for
    # the hands it dealt, so only the draw is reported.
    found = run({"cards": "2 K 3 3 8 4", "player": "2 3 8", "banker": "K 3 4", "player_total": 3,
                 "banker_total": 7, "winner": "banker", "bets": {"banker": {"stake": 10, "paid": "9.5"}}})
    assert [d.field for d in found] == ["banker"]


def test_hands_disagree_with_the_dealing_order():
    found = run({"cards": "2 4 3 10 6 A", "player": "2 4 6", "banker": "3 10 A"})
    assert [(d.field, d.expected, d.claimed) for d in found] == [
        ("player", "2 3 6", "2 4 6"), ("banker", "4 10 A", "3 10 A")]
    assert found[0].rule.startswith("dealing order: Player, Banker, Player, Banker")


def test_lone_fifth_card_resolved_by_the_claimed_totals():
    # K 6 / K 7: both must stand.  A fifth card 2: whose?  The claimed totals say the Player's.
    d = only(run({"cards": "K K 6 7 2", "player_total": 8, "banker_total": 7}))
    assert d.rule == "Player on 6 must stand"
    d = only(run({"cards": "K K 6 7 2", "player_total": 6, "banker_total": 9}))
    assert d.rule == "Banker on 7 must stand when the Player stands"
    # Without totals it cannot be told: both rules are named.
    d = only(run({"cards": "K K 6 7 2"}))
    assert d.rule == "Player on 6 must stand, and Banker on 7 must stand when the Player stands"


def test_too_many_or_too_few_cards():
    assert only(run({"cards": "2 4 3"})).expected == "4 to 6 cards"
    assert only(run({"cards": "2 4 3 10 6 A 5"})).expected == "4 to 6 cards"
    assert only(run({"player": "2 3 4 5", "banker": "K K"})).field == "player"


# -- the pay tables -------------------------------------------------------------------------------

BANKER_WIN = "3 6 4 2"  # Player 7, Banker natural 8: Banker wins
TIE = "5 7 2 K"  # Player 7, Banker 7: a tie


def bet(cards: str, name: str, stake: str, paid: str) -> str:
    return f'{{"cards": "{cards}", "bets": {{"{name}": {{"stake": {stake}, "paid": {paid}}}}}}}'


def test_commission_on_banker_wins():
    # 5% commission: a Banker win pays 19/20 (RULES.md pay tables, sheets 000, 001, 003, 004).
    assert run(bet(BANKER_WIN, "banker", "10", "9.5")) == []
    d = only(run(bet(BANKER_WIN, "banker", "10", "10")))
    assert (d.field, d.expected, d.claimed) == ("bet:banker", "9.5 net", "10 net")
    assert d.rule == "Banker (5% commission), stake 10: Banker wins: pays 19/20 per unit staked"
    # 4% commission is a named variant: banker:4 pays 24/25.
    d = only(run(bet(BANKER_WIN, "banker:4", "25", "23.75")))
    assert (d.expected, d.rule.split(": ")[-1]) == ("24 net", "pays 24/25 per unit staked")


def test_commission_charged_on_a_push():
    d = only(run(bet(TIE, "banker", "10", "-0.5")))
    assert d.expected == "0 net"
    assert d.rule == "Banker (5% commission), stake 10: Tie (push): a push, the stake is returned"


@pytest.mark.parametrize("name", ["player", "banker"])
def test_ties_push_player_and_banker(name):
    assert run(bet(TIE, name, "10", "0")) == []
    d = only(run(bet(TIE, name, "10", "-10")))
    assert (d.field, d.expected, d.claimed) == (f"bet:{name}", "0 net", "-10 net")
    assert d.rule.endswith("Tie (push): a push, the stake is returned")


def test_tie_pays_8_to_1():
    assert run(bet(TIE, "tie", "10", "80")) == []
    assert only(run(bet(TIE, "tie", "10", "90"))).expected == "80 net"
    assert run(bet(TIE, "tie:9", "10", "90")) == []


def test_punto_2000_banker_6_pays_half():
    # Sheet 001, Punto 2000: no commission, a Banker win with 6 pays 1/2.
    six = "2 K 2 6 A"  # Player 2 2 A = 5, Banker K 6 = 6 stands on an A: Banker wins with 6
    assert run(bet(six, "punto-2000", "10", "5")) == []
    d = only(run(bet(six, "punto-2000", "10", "10")))
    assert (d.expected, d.claimed) == ("5 net", "10 net")
    assert d.rule.endswith("Banker wins with 6: pays 1/2 per unit staked")
    # Other Banker wins pay even money, no commission.
    assert only(run(bet(BANKER_WIN, "punto-2000", "10", "9.5"))).expected == "10 net"


def test_returned_amounts():
    assert run(bet(BANKER_WIN, "banker", "10", "19.5"), paid_means="returned") == []
    assert run(bet(TIE, "player", "10", "10"), paid_means="returned") == []
    d = only(run(bet(TIE, "player", "10", "0"), paid_means="returned"))
    assert (d.expected, d.claimed) == ("10 returned", "0 returned")


def test_amounts_are_exact():
    # 1/3 of a unit is no decimal; 0.1 + 0.2 style float error must not creep in.
    assert run(bet(BANKER_WIN, "banker", "0.3", '"0.285"')) == []
    assert only(run(bet(BANKER_WIN, "banker", "0.3", "0.28500000000000003"))).expected == "0.285 net"
    assert amount_text(Fraction(1, 3)) == "1/3"


def test_pair_bet_reads_the_ranks():
    assert run(bet("8h 3d 8s 4c", "player-pair", "1", "11")) == []
    assert only(run(bet("8h 3d 9s 4c", "player-pair", "1", "11"))).expected == "-1 net"


def test_suited_bet_needs_suits():
    with pytest.raises(LogError, match="needs the suits"):
        run(bet("8 3 8 4", "perfect-pair", "1", "-1"))


# -- the shoe check -------------------------------------------------------------------------------


def test_shoe_runs_out_of_a_rank():
    # One deck holds four aces; the fifth is flagged.
    # Each coup is two naturals (A 7 = 8 against 7 A = 8, and so on), so only the shoe can fail.
    recs = [{"cards": "A 7 7 A"}, {"cards": "A 8 7 A"}, {"cards": "A 9 7 K"}]
    d = only(run(*recs, shoe=Shoe.standard(1)))
    assert (d.record, d.field, d.claimed) == (3, "cards", "A")
    assert d.rule.startswith("the shoe (1 deck (52 cards)) holds 4 of rank A, all dealt before this card "
                             "(card 9 of this shoe)")


def test_suited_duplicate_is_flagged():
    found = run({"cards": "Ah 2s 7d 6c"}, {"cards": "Ah 3s 7h 5s"}, shoe=Shoe.standard(1))
    assert [(d.record, d.claimed) for d in found] == [(2, "Ah")]
    # Without suits only the rank is tracked: a suitless A takes any ace still there.
    assert run({"cards": "Ah 2s 7d 6c"}, {"cards": "A 3s 7h 5s"}, shoe=Shoe.standard(1)) == []


def test_new_shoe_and_shoe_ids_reset():
    recs = [{"cards": "Ah 2s 7d 6c", "shoe": 1}, {"cards": "Ah 3s 7h 5s", "shoe": 2},
            {"new_shoe": True, "burn": "Ah"}, {"cards": "2s 3s 7s 5c"}]
    assert run(*recs, shoe=Shoe.standard(1)) == []
    found = run({"cards": "Ah 2s 7d 6c"}, {"burn": "Ah", "new_shoe": False}, shoe=Shoe.standard(1))
    assert [(d.field, d.claimed) for d in found] == [("burn", "Ah")]


def test_shoe_check_does_not_hide_other_discrepancies():
    # The second coup's Player bet is settled wrongly, and its 5th ace is one too many.
    recs = [{"cards": "A 7 7 A"}, {"cards": "A 8 7 A"},
            {"cards": "A 9 7 K", "bets": {"player": {"stake": 1, "paid": 1}}}]
    found = run(*recs, shoe=Shoe.standard(1))
    assert [(d.record, d.field) for d in found] == [(3, "cards"), (3, "bet:player")]


def test_no_shoe_check_without_a_shoe():
    assert run({"cards": "A 7 7 A"}, {"cards": "A 7 7 A"}, {"cards": "A 7 7 A"}) == []


# -- reading --------------------------------------------------------------------------------------


def test_csv_and_jsonl_examples(tmp_path):
    verifier, found = verify_file(str(EXAMPLES / "hands.jsonl"), shoe=Shoe.standard(8))
    assert found == []
    assert (verifier.coups, verifier.records) == (5, 7)
    verifier, found = verify_file(str(EXAMPLES / "hands.csv"))
    assert [(d.record, d.field) for d in found] == [
        (2, "banker"), (4, "bet:banker"), (5, "bet:player"), (6, "banker"), (7, "bet:punto-2000")]
    assert [d.line for d in found] == [3, 5, 6, 7, 8]


@pytest.mark.parametrize(("text", "fmt", "message"), [
    ("cards\n2 4 3 10 6 A\n2 4 3 11 6 A\n", "csv", "line 3: cards: bad card '11'"),
    ("cards,winner\n2 4 3 10 6 A,banker\n2 4 3 10 6 A,dealer\n", "csv", "line 3: bad winner 'dealer'"),
    ("cards,winner\n2 4 3 10 6 A\n", "csv", "line 2: 1 fields where the header has 2"),
    ("winner\nbanker\n", "csv", "line 1: the header"),
    ("cards,bet:bankr\n2 4 3 10 6 A,1\n", "csv", "line 1: unknown bet 'bankr'"),
    ("cards,bet:banker\n2 4 3 10 6 A,9.5\n", "csv", "line 2: bet 'banker' has a settled amount but no stake"),
    ("cards,stake,bet:banker\n2 4 3 10 6 A,ten,9.5\n", "csv", "line 2: bad stake of banker 'ten'"),
    ("cards,player_total\n2 4 3 10 6 A,1.5\n", "csv", "line 2: bad player_total '1.5'"),
    ('{"cards": "2 4 3 10 6 A"}\n\n{"cards": 7}\n', "jsonl", "line 3: bad cards 7"),
    ('{"cards": "2 4 3 10 6 A"}\n{"cards": \n', "jsonl", "line 2: not JSON"),
    ('["2 4 3 10 6 A"]\n', "jsonl", "line 1: each line must be a JSON object"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"banker": {"stake": 10}}}\n', "jsonl", "line 1: bet 'banker'"),
])
def test_unreadable_input_names_the_line(text, fmt, message):
    with pytest.raises(LogError) as info:
        list(Verifier().run(read_records(io.StringIO(text), fmt)))
    assert str(info.value).startswith(message), str(info.value)


def test_detect_format():
    assert detect_format("a/b.CSV") == "csv"
    assert detect_format("b.ndjson") == "jsonl"
    assert detect_format("b.txt", "jsonl") == "jsonl"
    with pytest.raises(LogError, match="--log-format"):
        detect_format("b.txt")


def test_unknown_columns_are_reported():
    ignored: list[str] = []
    list(read_records(io.StringIO("cards,table\n2 4 3 10 6 A,7\n"), "csv", ignored=ignored))
    assert ignored == ["table"]


# -- the command ----------------------------------------------------------------------------------


def test_cli_exit_codes(cli, tmp_path):
    good = cli("verify", str(EXAMPLES / "hands.jsonl"), "--decks", "8")
    assert good.exit_code == 0, good.output
    assert good.output.splitlines() == [
        f"read {EXAMPLES / 'hands.jsonl'} as JSON Lines (the hand-log format)",
        "verified 5 coups (7 records): all conform",
    ]
    bad = cli("verify", str(EXAMPLES / "hands.csv"))
    assert bad.exit_code == 1
    assert "Banker on 3 must stand when the Player's third card is 8" in bad.output
    assert bad.output.strip().endswith("5 discrepancies in 5 records")
    broken = tmp_path / "broken.csv"
    broken.write_text("cards\n2 4 3 10 6 A\n2 4 Z 10\n", encoding="utf-8")
    out = tmp_path / "report.txt"
    err = cli("verify", str(broken), "-o", str(out))
    assert err.exit_code == 2
    assert err.output.startswith("Error: line 3: cards: bad card 'Z'")
    assert "Traceback" not in err.output
    assert not out.exists() and list(tmp_path.iterdir()) == [broken]


def test_cli_report_formats_and_output_file(cli, tmp_path):
    out = tmp_path / "report.jsonl"
    res = cli("verify", str(EXAMPLES / "hands.csv"), "--format", "jsonl", "-o", str(out))
    assert res.exit_code == 1
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["record"] for r in rows] == [2, 4, 5, 6, 7]
    res = cli("verify", str(EXAMPLES / "hands.csv"), "--format", "csv", "--max-report", "2")
    assert res.exit_code == 1
    rules = f",standard,{STANDARD.fingerprint}"  # what the log was checked against, on every row
    assert res.stdout.splitlines() == [
        "record,line,id,field,expected,claimed,rule,rules,rules_fingerprint",
        "2,3,c2,banker,Banker stands,Banker draws a third card (4),Banker on 3 must stand when the Player's "
        "third card is 8" + rules,
        "4,5,c4,bet:banker,9.5 net,10 net,"
        "\"Banker (5% commission), stake 10: Banker wins: pays 19/20 per unit staked\"" + rules,
    ]
    summary = "verified 7 coups (7 records): 5 discrepancies in 5 records (first 2 reported)"
    # how the log was read, the diagnosis, then the summary: on standard error, as the report is data
    said = res.stderr.splitlines()
    assert said[0] == f"read {EXAMPLES / 'hands.csv'} as CSV (the hand-log format)"
    assert said[1].startswith("diagnosis: ") and said[-1] == summary
    plain = cli(
        "verify", str(EXAMPLES / "hands.csv"), "--format", "csv", "--max-report", "2", "--no-diagnose"
    )
    assert plain.stdout == res.stdout and plain.stderr.splitlines() == [said[0], summary]


def test_cli_reads_standard_input_and_shows_progress(cli):
    text = (EXAMPLES / "hands.jsonl").read_text(encoding="utf-8")
    res = cli("verify", "-", "--log-format", "jsonl", input=text)
    assert res.exit_code == 0
    res = cli("verify", str(EXAMPLES / "hands.jsonl"), "--progress")
    assert res.exit_code == 0
    assert "verifying" in res.output  # the bar is drawn on standard error (merged by CliRunner)


# -- bad input (QA report: H2, H3, H4, H6, M8, M9, LOW, M10) ----------------------------------------






def log_error(text: str, fmt: str = "jsonl", **options: object) -> str:
    with deadline(), pytest.raises(LogError) as info:
        list(Verifier(**options).run(read_records(io.StringIO(text), fmt)))  # type: ignore[arg-type]
    return str(info.value)


@pytest.mark.parametrize(("text", "fmt"), [
    ("", "csv"), ("", "jsonl"), ("cards\n", "csv"), ("id,cards\n\n\n", "csv"), ("\n\n", "jsonl"),
    ('{"new_shoe": true}\n', "jsonl"),
])
def test_a_log_without_coups_is_unreadable_not_all_conform(text, fmt):
    assert "no coups in the log" in log_error(text, fmt)


def test_cli_empty_log_exits_2_with_one_line(cli, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("id,cards\n", encoding="utf-8")
    res = cli("verify", str(empty))
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [res.output.strip()]
    assert res.output.startswith("Error: no coups in the log")
    assert "all conform" not in res.output


@pytest.mark.parametrize(("line", "message"), [
    ("{}", "line 2: record 2 has nothing to check"),
    ('{"cards": null}', "line 2: record 2 has nothing to check"),
    ('{"cards": "", "new_shoe": false}', "line 2: record 2 has nothing to check"),
    ('{"winner": "banker"}', "line 2: record 2 claims winner but gives no cards"),
    ('{"new_shoe": true, "bets": {"banker": {"stake": 1, "paid": 1}}}', "line 2: record 2 claims bet:banker"),
])
def test_a_record_with_nothing_to_check_is_an_error(line, message):
    assert log_error('{"cards": "2 4 3 10 6 A"}\n' + line + "\n").startswith(message)


def test_csv_row_with_nothing_to_check_is_an_error():
    assert log_error("cards,winner\n2 4 3 10 6 A,banker\n,\n", "csv").startswith(
        "line 3: record 2 has nothing to check")


def test_markers_still_pass():
    assert run({"new_shoe": True}, {"cards": "2 4 3 10 6 A"}, {"burn": "K"}) == []


def test_the_stopping_error_says_how_much_was_verified():
    text = ('{"cards": "2 4 3 10 6 A", "player_total": 7}\n{"cards": "2 4 3 10 6 A"}\n'
            '{"cards": "2 4 3 10 6 A", "winner": "dealer"}\n')
    message = log_error(text)
    assert message.startswith("line 3: bad winner 'dealer'")
    assert "the 2 records before this one were verified, with 1 discrepancy" in message
    # The first bad record says nothing about records before it.
    assert "stopped" not in log_error('{"cards": 7}\n')


def test_cli_partial_report_then_error_with_the_count(cli, tmp_path):
    log = tmp_path / "claims.csv"
    log.write_text("id,cards,player_total\nc1,2 4 3 10 6 A,7\nc2,2 4 3 10 6 A,abc\n", encoding="utf-8")
    res = cli("verify", str(log))
    assert res.exit_code == 2
    assert res.stdout.splitlines()[0] == f"read {log} as CSV (the hand-log format)"
    assert res.stdout.splitlines()[1].startswith(
        "record 1 (line 2, id c1): player_total: expected 1, claimed 7"
    )
    assert res.stderr.startswith("Error: line 3: bad player_total 'abc'")
    assert "the 1 record before this one was verified, with 1 discrepancy" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("claim", ["99999999999999999999", "-1", "10", "12"])
def test_any_whole_claimed_total_is_a_discrepancy(claim):
    for fmt, text in (("csv", f"cards,player_total\n2 4 3 10 6 A,{claim}\n"),
                      ("jsonl", f'{{"cards": "2 4 3 10 6 A", "player_total": {claim}}}\n')):
        found = list(Verifier().run(read_records(io.StringIO(text), fmt)))
        d = only(found)
        assert (d.field, d.expected, d.claimed) == ("player_total", "1", str(int(claim)))


@pytest.mark.parametrize("claim", ["1.0", "abc", "9" * 81, "٤", '"1e3"'])
def test_a_total_that_is_not_a_whole_number_is_malformed(claim):
    assert log_error(f"cards,player_total\n2 4 3 10 6 A,{claim}\n", "csv").startswith(
        "line 2: bad player_total")


def test_a_json_total_of_5001_digits_is_malformed():
    message = log_error('{"cards": "2 4 3 10 6 A", "banker_total": ' + "9" * 5001 + "}\n")
    assert message.startswith("line 1: bad banker_total <a number of 5001 digits>")


@pytest.mark.parametrize(("text", "fmt", "start"), [
    ("cards,stake,bet:banker\n2 4 3 10 6 A,1e5000,1\n", "csv", "line 2: bad stake of banker '1e5000'"),
    ("cards,stake,bet:banker\n2 4 3 10 6 A,10,1e999999999\n", "csv",
     "line 2: bad amount settled for banker '1e999999999'"),
    ("cards,stake,bet:banker\n2 4 3 10 6 A,10,1e-999999999\n", "csv",
     "line 2: bad amount settled for banker '1e-999999999'"),
    ("cards,stake,bet:banker\n2 4 3 10 6 A,10," + "1" * 5001 + "\n", "csv",
     "line 2: bad amount settled for banker '1111"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"banker": {"stake": 10, "paid": 1e999999999}}}\n', "jsonl",
     "line 1: bad amount settled for banker '1E+999999999'"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"banker": {"stake": 10, "paid": ' + "1" * 5001 + "}}}\n", "jsonl",
     "line 1: bad amount settled for banker"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"banker": {"stake": 1e5000, "paid": 1}}}\n', "jsonl",
     "line 1: bad stake of banker"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"tie:1e999999999": {"stake": 1, "paid": -1}}}\n', "jsonl",
     "line 1: "),
    ("cards,stake,bet:tie:1e5000\n2 4 3 10 6 A,1,-1\n", "csv", "line 1: "),
])
def test_huge_numbers_are_rejected_quickly_naming_the_line(text, fmt, start):
    message = log_error(text, fmt)
    assert message.startswith(start), message
    assert len(message) < 400


def test_deeply_nested_json_names_the_line():
    deep = '{"cards": ' + "[" * 100000 + "]" * 100000 + "}"
    assert log_error('{"cards": "2 4 3 10 6 A"}\n' + deep + "\n").startswith(
        "line 2: JSON nested too deeply")


def test_non_utf8_log_names_the_line(cli, tmp_path):
    log = tmp_path / "bin.csv"
    log.write_bytes(b"cards\n2 4 3 10 6 A\n\xff\xfe\x00\x01\n")
    with pytest.raises(LogError, match=r"^line 3: not UTF-8 text"):
        verify_file(str(log))
    res = cli("verify", str(log))
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_shoe_check_names_a_rank_the_shoe_never_held():
    def shoe_rules(found: list[Discrepancy]) -> list[str]:
        return [d.rule for d in found if d.expected == "a card the shoe still holds"]

    (rule,) = shoe_rules(run({"cards": "2 K K K"}, shoe=Shoe.parse("K=4,A=1")))
    assert rule.startswith("the shoe (5 cards: A=1, K=4) holds no 2 (card 1 of this shoe)"), rule
    assert "holds 0" not in rule
    (rule,) = shoe_rules(run({"cards": "2h K K K"}, shoe=Shoe.standard(1).remove("2h")))
    assert "holds no 2h (card 1 of this shoe)" in rule


def test_amount_text_keeps_every_digit():
    assert amount_text(Fraction(10**40 + 1, 8)) == "1250000000000000000000000000000000000000.125"
    assert amount_text(Fraction(-1, 4)) == "-0.25"


@pytest.mark.parametrize("call", [
    lambda: Verifier(shoe="K=4"),  # type: ignore[arg-type]
    lambda: Verifier(paid_means=["net"]),  # type: ignore[arg-type]
    lambda: Verifier().check(None),  # type: ignore[arg-type]
    lambda: list(Verifier().run(None)),  # type: ignore[arg-type]
    lambda: list(read_records(None, "csv")),  # type: ignore[arg-type]
    lambda: list(read_records(b"cards\n", "csv")),  # type: ignore[arg-type]
    lambda: list(read_records([b"cards\n"], "csv")),  # type: ignore[list-item]
    lambda: list(read_records(["cards\n"], None)),  # type: ignore[arg-type]
    lambda: detect_format(None),  # type: ignore[arg-type]
    lambda: verify_file(None),  # type: ignore[arg-type]
    lambda: amount_text(0.5),  # type: ignore[arg-type]
    lambda: report_line(None, "text"),  # type: ignore[arg-type]
    lambda: summary_text(None),  # type: ignore[arg-type]
])
def test_wrong_types_raise_analyzer_errors(call: Callable[[], object]):
    with pytest.raises(AnalyzerError):
        call()


def test_wrong_shoe_type_is_a_shoe_error():
    with pytest.raises(ShoeError):
        Verifier(shoe=8)  # type: ignore[arg-type]


def test_read_records_accepts_the_whole_log_as_text():
    assert [r.number for r in read_records("cards\n2 4 3 10 6 A\n", "csv")] == [1]


def test_records_built_by_hand_are_checked_too():
    with pytest.raises(LogError, match=r"^line 9: record 3 has nothing to check"):
        Verifier().check(Record(3, 9))


# -- round-2 bad-input report: duplicate columns / keys, byte order marks ---------------------


@pytest.mark.parametrize(("header", "row", "column"), [
    ("cards,cards", "5 7 2 K,2 4 3 10 6 A", "'cards' appears twice (columns 1 and 2)"),
    ("cards,winner,winner", "2 4 3 10 6 A,banker,player", "'winner' appears twice (columns 2 and 3)"),
    ("cards,Winner,winner", "2 4 3 10 6 A,banker,player", "'Winner' and 'winner' appears twice"),
    ("cards,bet:tie,bet:TIE", "2 4 3 10 6 A,-1,-1", "'bet:tie' and 'bet:TIE' appears twice"),
    ("cards,foo,foo", "2 4 3 10 6 A,x,y", "'foo' appears twice"),
])
def test_duplicate_csv_columns_are_an_error_naming_the_column(header, row, column):
    with pytest.raises(LogError, match="^" + re.escape(f"line 1: the column {column}")):
        list(read_records(io.StringIO(f"{header}\n{row}\n"), "csv"))


def test_unnamed_columns_may_repeat():
    records = list(read_records(io.StringIO("cards,,\n2 4 3 10 6 A,,\n"), "csv"))
    assert len(records) == 1


def test_duplicate_jsonl_keys_are_an_error():
    with pytest.raises(LogError, match=r"^line 2: the key 'cards' is given twice"):
        run({"cards": "2 4 3 10 6 A"}, '{"cards": "2 4 3 10 6 A", "cards": "5 7 2 K"}')


@pytest.mark.parametrize(("name", "body"), [
    ("bom.csv", b"cards,winner\n2 4 3 10 6 A,banker\n"),
    ("bom.jsonl", b'{"cards": "2 4 3 10 6 A", "winner": "banker"}\n'),
])
def test_utf8_bom_is_accepted(cli, tmp_path, name, body):
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + body)
    verifier, found = verify_file(str(path))
    assert found == [] and verifier.coups == 1
    # also when the text is given directly (a str or lines read without utf-8-sig)
    text = "\ufeff" + body.decode()
    assert len(list(read_records(text, name.split(".")[1]))) == 1
    result = cli("verify", str(path))
    assert result.exit_code == 0, result.output


def test_json_numbers_are_shown_as_written():
    with pytest.raises(LogError) as info:
        run({"cards": "2 4 3 10 6 A", "player_total": 1.0})
    assert "Decimal" not in str(info.value) and "1.0" in str(info.value)


@pytest.mark.parametrize(("record", "message"), [
    ('{"cards": "2 4 3 10 6 A", "bets": []}', "'bets' must map bet names"),
    ('{"cards": "2 4 3 10 6 A", "shoe": {"a": 1}}', "bad shoe {'a': 1}: give an id as text or a number"),
    ('{"cards": "2 4 3 10 6 A", "id": [1, 2]}', "bad id [1, 2]: give an id as text or a number"),
    ('{"cards": "2 4 3 10 6 A", "id": true}', "bad id True"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"banker": {"stake": 10, "paid": 9.5, "extra": 1}}}',
     "unknown key 'extra'"),
    ('{"cards": "2 4 3 10 6 A", "bets": {"banker": {"stake": 10}}}', "no 'paid'"),
])
def test_jsonl_junk_is_rejected(record, message):
    with pytest.raises(LogError, match="^line 1: .*" + re.escape(message)):
        run(record)


def test_a_jsonl_log_may_name_a_bet_from_a_file():
    """Issue 13: a log's ``bets`` objects name a bet of a file once its file's bets are given
    (``verify --bet-file``); without them the name is unknown, with the hint."""
    from analyzer.bets.choice import FileBets
    from analyzer.bets.files import parse_bets
    from analyzer.checks.handlog import read_records
    from analyzer.checks.verify import Verifier

    mine = parse_bets('[[bet]]\nname = "natural-tie"\n[[bet.pay]]\n'
                      'when = { winner = "tie", natural = true }\npays = 25\n')
    log = ['{"cards": "K 10 9 9", "bets": {"natural-tie": {"stake": 2, "paid": 50}, '
           '"tie": {"stake": 1, "paid": 8}}}',
           '{"cards": "2 4 3 10 6 A", "bets": {"natural-tie": {"stake": 2, "paid": -2}}}']
    verifier = Verifier()
    records = read_records(iter(line + "\n" for line in log), "jsonl", file_bets=FileBets.of(mine))
    assert list(verifier.run(records)) == []
    assert verifier.coups == 2
    with pytest.raises(LogError, match=r"unknown bet 'natural-tie'.*--bet-file FILE"):
        list(Verifier().run(read_records(iter(line + "\n" for line in log), "jsonl")))


# -- memory flat in the log's length -------------------------------------------------------------


def _distinct_bets(path: Path, coups: int) -> Path:
    """A log whose every coup settles a different bet (tie:8.0000001, tie:8.0000002, ...), all
    correctly (the Banker wins, so each tie bet loses its stake)."""
    with open(path, "w") as fh:
        for i in range(1, coups + 1):
            bet, field = f"tie:8.{i:07d}", f"x{i}"
            fh.write(f'{{"cards": "2 4 3 10 6 A", "stake": 10, "bets": {{"{bet}": -10}}, "{field}": 1}}\n')
    return path


def test_every_verify_cache_is_bounded(tmp_path):
    import analyzer.checks.handlog as handlog
    import analyzer.checks.verify as verify
    from analyzer.bets import choice

    coups = 3 * max(choice.BET_CACHE_SIZE, handlog.CLAIM_CACHE_SIZE, handlog.AMOUNT_CACHE_SIZE) + 10
    log = _distinct_bets(tmp_path / "many.jsonl", coups)
    verifier = verify.Verifier()
    ignored: list[str] = []
    with verify.open_log(log) as fh:
        assert list(verifier.run(handlog.read_records(fh, "jsonl", ignored=ignored))) == []
    assert verifier.coups == coups
    assert choice.catalogue_bet.cache_info().currsize <= choice.BET_CACHE_SIZE
    assert handlog._claim.cache_info().currsize <= handlog.CLAIM_CACHE_SIZE
    assert handlog._text_amount.cache_info().currsize <= handlog.AMOUNT_CACHE_SIZE
    assert len(handlog._CARD_CACHE) <= handlog._CARD_CACHE_LIMIT
    assert 0 < len(verifier._settled) <= verify.SETTLE_CACHE_SIZE
    assert len(ignored) == handlog.MAX_IGNORED


def _peak_rss_kb(*args: str) -> int:
    proc = run_process(*args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0
    return int(usage.ru_maxrss)  # kilobytes (Linux)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes is Linux's")
def test_verify_memory_stays_flat_on_a_log_of_distinct_bets(tmp_path):
    short = _peak_rss_kb("verify", str(_distinct_bets(tmp_path / "short.jsonl", 20_000)))
    long = _peak_rss_kb("verify", str(_distinct_bets(tmp_path / "long.jsonl", 120_000)))
    assert long - short < 8 * 1024, (short, long)  # six times the log, not eight more megabytes


# -- logs written by other engines (docs/checks.md, "Logs written by other engines") ---------------


def test_a_natural_claim_is_checked_against_the_tableaus_naturals():
    # Player 9 K (natural 9), Banker 7 K (7): the Player alone has a natural.
    assert run({"cards": "9 7 K K", "natural": "player"}) == []
    assert run({"cards": "9 7 K K", "natural": True}) == []
    d = only(run({"cards": "9 7 K K", "natural": "both"}))
    assert (d.field, d.expected, d.claimed) == ("natural", "player", "both")
    assert d.rule == "a natural is a two-card total of 8 or 9: Player 9 + K(0) = 9, Banker 7 + K(0) = 7"
    d = only(run({"cards": "2 4 3 10 6 A", "natural": "true"}))
    assert (d.field, d.expected, d.claimed) == ("natural", "none", "either")
    assert run({"cards": "2 4 3 10 6 A", "natural": "false"}) == []
    assert only(run({"cards": "8 8 K K", "natural": "banker"})).expected == "both"
    # the tableau says which totals are naturals: where only 9 is, Banker's 8 is none
    nine = dataclasses.replace(STANDARD, name="nine-only", naturals=frozenset({9}))
    assert run({"cards": "9 8 K K", "natural": "player"}, tableau=nine) == []
    d = only(run({"cards": "9 8 K K", "natural": "player"}))
    assert (d.expected, d.claimed) == ("both", "player")
    assert only(run({"cards": "9 8 K K", "natural": "both"}, tableau=nine)).rule.startswith(
        "a natural is a two-card total of 9: ")


def test_a_natural_claim_without_cards_is_unreadable():
    with pytest.raises(LogError, match="claims natural but gives no cards"):
        run({"natural": "none", "new_shoe": True})


def test_the_shoe_hint_only_when_the_log_marks_no_shoe():
    recs = [{"cards": "A 7 7 A"}, {"cards": "A 8 7 A"}, {"cards": "A 9 7 K"}]
    unmarked = only(run(*recs, shoe=Shoe.standard(1)))
    assert unmarked.rule.endswith(
        "(card 9 of this shoe) (mark each new shoe with a 'shoe' id or a 'new_shoe' record)"
    )
    with_ids = only(run(*({**r, "shoe": "S7"} for r in recs), shoe=Shoe.standard(1)))
    assert with_ids.rule.endswith("all dealt before this card (card 9 of shoe 'S7')")
    assert "mark each new shoe" not in with_ids.rule
    marked = only(run({"new_shoe": True}, *recs, shoe=Shoe.standard(1)))
    assert marked.rule.endswith("(card 9 of the shoe begun on line 1)")
    # marked only after the finding: the hint is still said at the finding
    late = run(*recs, {"new_shoe": True}, shoe=Shoe.standard(1))
    assert only(late).rule.endswith("'new_shoe' record)")


def test_the_shoe_check_counts_point_values_only_by_value():
    # Each coup is two naturals of 0-valued cards and a 9: 9 0 0 9, both natural 9 (a tie).
    coup = "9 0 0 9"
    # one deck holds 16 ten-valued cards: 8 coups use them all, the 9th coup's first 0 is one too many
    found = run(*({"cards": coup} for _ in range(9)), shoe=Shoe.standard(8))
    assert found == []  # 18 nines and 18 tens in 8 decks: fine
    small = Shoe.from_counts({"9": 20, "10": 4, "J": 4, "Q": 4, "K": 4})  # 16 ten-valued cards
    found = run(*({"cards": coup} for _ in range(9)), shoe=small)
    d = found[0]
    assert (d.record, d.field, d.claimed) == (9, "cards", "0")
    assert d.rule.startswith("the shoe (") and d.rule.endswith(
        "holds 16 ten-valued cards (10, J, Q, K), all dealt before this card (card 34 of this shoe) "
        "(mark each new shoe with a 'shoe' id or a 'new_shoe' record)"
    )
    # the same coups with ranks: the shoe of 4 tens only runs out of tens at the third coup
    ranked = run(*({"cards": "9 10 10 9"} for _ in range(3)), shoe=small)
    assert [(d.record, d.claimed) for d in ranked] == [(3, "10"), (3, "10")]


def test_a_bet_that_reads_ranks_or_suits_is_refused_on_a_log_of_point_values():
    # Player 8 8 (6), Banker 9 K (natural 9): both stand, the Player has a pair of eights.
    assert run('{"cards": "8 9 8 K", "bets": {"player-pair": {"stake": 1, "paid": 11}}}') == []
    points = '{"cards": "8 9 8 0", "bets": {"player-pair": {"stake": 1, "paid": 11}}}'
    refused = r"^line 1: bet 'player-pair' reads the ranks of the cards, and the log gives point values only"
    with pytest.raises(LogError, match=refused + r" \(no ranks, no suits\)"):
        run(points)
    colour = '{"cards": "8 9 8 0", "bets": {"perfect-pair": {"stake": 1, "paid": -1}}}'
    with pytest.raises(LogError, match="reads the ranks and suits of the cards"):
        run(colour)
    # a bet that reads no card is settled on point values, and its mistakes found
    assert run('{"cards": "8 9 8 0", "bets": {"banker": {"stake": 10, "paid": 9.5}}}') == []
    wrong = only(run('{"cards": "8 9 8 0", "bets": {"banker": {"stake": 10, "paid": 10}}}'))
    assert wrong.field == "bet:banker"


FOREIGN = EXAMPLES / "foreign"


def _as_ours(row: dict[str, str], tens: list[str]) -> dict[str, object]:
    """A record of the table engine's log (examples/foreign/table.csv) written in our format;
    its ten-valued cards take the ranks of ``tens`` in turn (the shoe's 10s, Js, Qs, Ks)."""
    values = row["deal"].split()
    ours = [values[0], values[2], values[1], values[3], *values[4:]]  # P P B B -> P B P B
    return {
        "id": row["round"],
        "shoe": row["shoe_id"],
        "cards": " ".join(tens.pop() if v == "0" else "A" if v == "1" else v for v in ours),
        "winner": {"1": "player", "2": "banker", "3": "tie"}[row["outcome"]],
        "natural": row["natural"] == "true",
        "bets": {"banker": {"stake": int(row["stake"]), "paid": float(row["banker_bet"])}},
    }


def test_a_log_read_through_a_map_gives_the_findings_of_the_same_log_in_our_format(tmp_path):
    import csv

    with open(FOREIGN / "table.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    ours = tmp_path / "ours.jsonl"
    shoes: dict[str, list[str]] = {}
    records = [_as_ours(row, shoes.setdefault(row["shoe_id"], ["10", "J", "Q", "K"] * 4)) for row in rows]
    ours.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    from analyzer.checks.logmap import load_map

    log_map = load_map(FOREIGN / "table.toml")
    theirs_verifier, theirs = verify_file(str(FOREIGN / "table.csv"), shoe=Shoe.standard(1), log_map=log_map)
    ours_verifier, found = verify_file(str(ours), shoe=Shoe.standard(1))
    assert [d.field for d in theirs] == ["natural", "bet:banker"]  # the two mistakes
    assert [(d.record, d.field, d.expected, d.claimed, d.coup_id) for d in theirs] == [
        (d.record, d.field, d.expected, d.claimed, d.coup_id) for d in found]
    # the rules alike but for how a ten-valued card is shown (0 for a value, K(0) for a rank)
    assert [d.rule for d in theirs] == [re.sub(r"(10|J|Q|K)\(0\)", "0", d.rule) for d in found]
    assert (theirs_verifier.coups, theirs_verifier.records) == (14, 14)
    assert (ours_verifier.coups, ours_verifier.records) == (14, 14)
    # and the engine's other log, read without a map, conforms
    verifier, found = verify_file(str(FOREIGN / "hands.jsonl"), shoe=Shoe.standard(1))
    assert found == [] and verifier.coups == 14


def test_cli_map_first_line_and_findings(cli):
    args = ("verify", str(FOREIGN / "table.csv"), "--map", str(FOREIGN / "table.toml"), "--decks", "1")
    res = cli(*args)
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert lines[0].startswith(
        f"read {FOREIGN / 'table.csv'} as CSV through {FOREIGN / 'table.toml'}: cards from 'deal'; "
        "winner from 'outcome'"
    )
    assert lines[0].endswith("; cards as point values only (ten-valued cards 0); dealing order P P B B")
    assert [line.split(":")[0] for line in lines if line.startswith("record ")] == [
        "record 8 (line 9, id 8)",
        "record 9 (line 10, id 9)",
    ]
    data = cli(*args, "--format", "jsonl")
    assert [json.loads(line)["field"] for line in data.stdout.splitlines()] == ["natural", "bet:banker"]
    assert data.stderr.splitlines()[0] == lines[0] and data.stderr.splitlines()[-1] == lines[-1]
    # without the map the same log is unreadable: its dealing order and codes cannot be guessed
    bare = cli("verify", str(FOREIGN / "table.csv"))
    assert bare.exit_code == 2 and "needs a 'cards' column" in one_error_line(bare)


def test_cli_map_gives_the_format_of_a_log_whose_extension_does_not(cli, tmp_path):
    log = tmp_path / "engine.log"
    log.write_text('{"cards": "2 4 3 10 6 A"}\n', encoding="utf-8")
    plan = tmp_path / "engine.toml"
    plan.write_text('format = "jsonl"\n', encoding="utf-8")
    res = cli("verify", str(log), "--map", str(plan))
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == f"read {log} as JSON Lines through {plan} (the hand-log format)"
    stdin = cli("verify", "-", "--map", str(plan), input=log.read_text(encoding="utf-8"))
    assert stdin.exit_code == 0 and stdin.stdout.startswith("read standard input as JSON Lines through")
    assert cli("verify", str(log)).exit_code == 2


def test_cli_refuses_to_write_the_report_over_the_map(cli, tmp_path):
    plan = tmp_path / "engine.toml"
    plan.write_text("", encoding="utf-8")
    res = cli("verify", str(EXAMPLES / "hands.csv"), "--map", str(plan), "-o", str(plan))
    assert res.exit_code == 2 and plan.read_text(encoding="utf-8") == ""


def test_cli_notes_a_reading_met_after_the_first_line(cli, tmp_path, monkeypatch):
    import analyzer.checks.handlog as handlog

    monkeypatch.setattr(handlog, "LOOKAHEAD_RECORDS", 1)
    log = tmp_path / "late.csv"
    log.write_text("cards,winner\n2 4 3 10 6 A,player\n2 4 3 10 6 A,banker win\n", encoding="utf-8")
    # streamed (--no-diagnose): the first line is said before the first finding, and the
    # reading met later is noted at the end
    res = cli("verify", str(log), "--no-diagnose")
    assert res.exit_code == 1
    assert res.stdout.splitlines()[0] == f"read {log} as CSV (the hand-log format)"
    assert res.stderr.splitlines() == [
        f"note: by the end of the log: read {log} as CSV: winner 'banker win' as banker"
    ]
    # with the diagnosis the report is written at the end: its first line says it all
    whole = cli("verify", str(log))
    assert whole.stdout.splitlines()[0] == f"read {log} as CSV: winner 'banker win' as banker"
    assert whole.stderr == ""


# -- the diagnosis leads the report ----------------------------------------------------------------


def _bug_log(tmp_path, name: str, coups: int = 2000) -> str:
    import json as _json

    from analyzer.checks.mutants import deal_log, find_mutant

    path = tmp_path / f"{name}.jsonl"
    stakes = {"banker": Fraction(10), "player-pair": Fraction(1)}
    records = deal_log(find_mutant(name), coups, seed=4, stakes=stakes)
    path.write_text("".join(_json.dumps(r) + "\n" for r in records))
    return str(path)


def test_the_report_leads_with_the_bug_that_explains_the_findings(cli, tmp_path):
    from analyzer.checks.mutants import find_mutant

    log = _bug_log(tmp_path, "pairs-on-two-card-hands")
    result = cli("verify", log, "--decks", "8")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("read ") and lines[1] == "diagnosis: 1 cause explains the findings"
    assert lines[2].startswith(f"  1. {find_mutant('pairs-on-two-card-hands').cause}: explains ")
    findings = lines[3:-1]
    assert findings and all(line.startswith("record ") for line in findings)
    assert lines[-1].startswith("verified 2,000 coups")
    # without the diagnosis: the same findings, streamed as met
    plain = cli("verify", log, "--decks", "8", "--no-diagnose").stdout.splitlines()
    assert plain[1:-1] == findings and "diagnosis" not in "".join(plain)


def test_a_data_report_keeps_its_records_and_says_the_diagnosis_on_standard_error(cli, tmp_path):
    log = _bug_log(tmp_path, "commission-rounded:down", 300)
    result = cli("verify", log, "--format", "jsonl")
    assert result.exit_code == 1
    assert all(line.startswith("{") for line in result.stdout.splitlines())
    assert "A winning Banker bet is paid" not in result.stdout
    assert "A winning Banker bet is paid" in result.stderr


def test_a_shoe_refilled_between_coups_is_named(cli, tmp_path):
    log = _bug_log(tmp_path, "shoe-refilled", 1500)
    result = cli("verify", log, "--decks", "8", "--max-report", "1")
    assert "The shoe is refilled (reshuffled whole) between coups" in result.stdout.splitlines()[2]
    assert "mark each new shoe" not in result.stdout  # the log marks its shoes
