"""Data that loads: JSON and CSV of every command carry the bet's machine name, the shoe and the
rules; exact values are strings equal to the engine's Fractions, decimals are numbers; CSV is
one tidy table that ``pandas.read_csv`` reads without options.  Deck sweeps (``--decks 1,6,8``,
``--decks 1-8``) give one table with a row per deck count."""

import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import invoke

from analyzer import Shoe, find_bet, price
from analyzer.cli.common import MAX_SWEEP, deck_counts
from analyzer.core.exact import round_fraction
from analyzer.core.tableau import STANDARD
from analyzer.engine.pricing import analyze
from analyzer.output.render import CONTEXT_KEYS, Column, Table, csv_text, data_rows, render, with_context

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture()
def run(cli):
    def invoke(*args, code=0):
        """Standard output of a run that ends with ``code``; for exit code 2, the error line."""
        result = cli(*args)
        assert result.exit_code == code, result.output
        return result.output if code == 2 else result.stdout

    return invoke


def load_json(text):
    """JSON with numbers read exactly (a decimal number as a Decimal, never through a float)."""
    return json.loads(text, parse_float=Decimal)


def read_csv(text):
    pd = pytest.importorskip("pandas")
    return pd.read_csv(io.StringIO(text))


def numeric(frame, column):
    pd = pytest.importorskip("pandas")
    return pd.api.types.is_numeric_dtype(frame[column])


# -- the library side ---------------------------------------------------------------------------


def test_data_rows_exact_strings_beside_decimal_numbers():
    t = Table(
        "t",
        "T",
        (Column("Bet"), Column("Edge", "percent", "edge"), Column("N", "count", "n")),
        (("tie", Fraction(1, 3), 5), ("x", None, None)),
    )
    rows = data_rows(t, 4)
    assert rows[0] == {
        "bet": "tie",
        "edge": "1/3",
        "edge_decimal": Decimal("0.3333"),
        "edge_percent": Decimal("33.3333"),
        "n": 5,
    }
    assert rows[1] == {"bet": "x", "edge": None, "edge_decimal": None, "edge_percent": None, "n": None}
    assert list(rows[0]) == list(rows[1])  # the same keys, in the same order, in every row


def test_context_is_data_only():
    t = Table("t", "T", (Column("A"),), (("x",),))
    ctx = {"decks": 8, "shoe": "8 decks (416 cards)", "rules": "standard", "rules_fingerprint": "f"}
    wide = with_context(t, ctx)
    assert [c.key for c in wide.columns] == ["", *CONTEXT_KEYS]
    assert "416" not in render([t], "text", context=ctx)  # people do not see it
    assert load_json(render([t], "json", context=ctx))["tables"][0]["rows"] == [{"a": "x", **ctx}]
    assert with_context(wide, ctx) is wide  # a table that has the fields keeps its own


def test_json_numbers_are_written_digit_for_digit():
    x = Fraction(1, 3)
    t = Table("t", "T", (Column("P", "both", "p"),), ((x,),))
    text = render([t], "json", 30)
    assert '"p_decimal": 0.333333333333333333333333333333' in text  # more digits than a float has
    assert load_json(text)["tables"][0]["rows"][0]["p_decimal"] == round_fraction(x, 30)


def test_csv_is_one_long_table_with_no_comment_lines():
    a = Table("a", "A", (Column("X", "count", "x"),), ((1,),))
    b = Table("b", "B", (Column("Y", "decimal", "y"),), ((Fraction(1, 2),),))
    text = csv_text([a, b], 2)
    assert text.splitlines() == ["table,x,y,y_decimal", "a,1,,", "b,,1/2,0.50"]


# -- the commands -------------------------------------------------------------------------------


def test_analyze_all_tables_csv_loads_in_pandas(run):
    frame = read_csv(run("analyze", "--table", "all", "--format", "csv"))
    assert set(frame["table"]) == {"outcomes", "bets", "totals", "cards", "naturals"}
    for col in (
        "count",
        "probability_decimal",
        "house_edge_decimal",
        "house_edge_percent",
        "banker_0_decimal",
        "decks",
        "sd_decimal",
    ):
        assert numeric(frame, col), col
    assert set(frame["decks"]) == {8} and set(frame["rules"]) == {"standard"}
    banker = frame[(frame["table"] == "outcomes") & (frame["event"] == "Banker")].iloc[0]
    assert int(banker["count"]) == 2_292_252_566_437_888  # RULES.md, 8 decks
    bets = frame[frame["table"] == "bets"].set_index("bet_name")
    edge = price(find_bet("banker"), Shoe.standard(8)).house_edge
    assert Fraction(bets.loc["banker", "house_edge"]) == edge
    assert bets.loc["banker", "house_edge_percent"] == pytest.approx(float(edge * 100), rel=1e-9)


def test_analyze_json_rows_carry_context_and_exact_values(run):
    doc = load_json(run("analyze", "--decks", "6", "--table", "outcomes,bets", "--format", "json"))
    outcomes, bets = doc["tables"]
    analysis = analyze(Shoe.standard(6))
    for row in outcomes["rows"]:
        assert row["decks"] == 6 and row["shoe"] == "6 decks (312 cards)"
        assert row["rules"] == "standard" and row["rules_fingerprint"] == STANDARD.fingerprint
        assert isinstance(row["probability_decimal"], Decimal)
        assert Fraction(row["probability"]).limit_denominator(10**30) == Fraction(row["probability"])
        assert round_fraction(Fraction(row["probability"]), 10) == row["probability_decimal"]
    for row, summary in zip(bets["rows"], analysis.bets, strict=True):
        assert row["bet_name"] == summary.bet.name
        assert Fraction(row["ev"]) == summary.ev and Fraction(row["house_edge"]) == summary.house_edge
        assert row["house_edge_percent"] == round_fraction(summary.house_edge * 100, 10)
    assert "bet_name" in bets["columns"] and "decks" in bets["columns"]


def test_bets_json_and_csv_name_each_bet(run):
    args = ("bets", "--bet", "banker:4", "--bet", "tie:9", "--events", "--fair-pay")
    doc = load_json(run(*args, "--format", "json"))
    summary = doc["tables"][0]["rows"]
    assert [r["bet_name"] for r in summary] == ["banker:4", "tie:9"]
    want = price(find_bet("banker:4"), Shoe.standard(8))
    assert Fraction(summary[0]["ev"]) == want.ev and Fraction(summary[0]["variance"]) == want.variance
    events = doc["tables"][1]
    assert {r["bet_name"] for r in events["rows"]} == {"banker:4"}
    assert [Fraction(r["probability"]) for r in events["rows"][:-1]] == [e.probability for e in want.events]
    pays = next(t for t in doc["tables"] if t["name"] == "pays")["rows"]
    assert [r["bet_name"] for r in pays] == ["banker:4", "tie:9"]
    frame = read_csv(run(*args, "--format", "csv"))
    assert {"bet_name", "decks", "shoe", "rules", "rules_fingerprint"} <= set(frame.columns)
    for col in (
        "ev_decimal",
        "count",
        "probability_decimal",
        "return_decimal",
        "pay_decimal",
        "pays_now_decimal",
    ):
        assert numeric(frame, col), col


def test_bets_list_csv_loads(run):
    frame = read_csv(run("bets", "--list", "--format", "csv"))
    assert "banker" in set(frame["name"])


def test_eor_csv_and_json(run):
    text = run("eor", "--bet", "dragon-7", "--depth", "2", "--format", "csv")
    frame = read_csv(text)
    assert {"eor-summary", "eor:dragon-7", "depletion:dragon-7"} <= set(frame["table"])
    assert set(frame["bet_name"].dropna()) == {"dragon-7"}
    for col in ("eor_decimal", "house_edge_change_percent", "betting_correlation", "k2_decimal", "cards"):
        assert numeric(frame, col), col
    doc = load_json(run("eor", "--bet", "tie", "--depth", "1", "--format", "json"))
    summary = doc["tables"][0]["rows"][0]
    assert summary["bet_name"] == "tie" and summary["decks"] == 8
    assert isinstance(summary["betting_correlation"], Decimal)


def test_conform_csv_loads(run):
    frame = read_csv(run("conform", str(EXAMPLES / "observed.json"), "--format", "csv"))
    assert numeric(frame, "probability_decimal") and numeric(frame, "observed")
    assert set(frame["rules"]) == {"standard"}


def test_verify_csv_loads(run, tmp_path):
    log = tmp_path / "hands.csv"
    log.write_text("cards,winner\n2 4 3 10 6 A,player\n2 4 3 10 6 A,banker\n", encoding="utf-8")
    frame = read_csv(run("verify", str(log), "--format", "csv", code=1))
    assert len(frame) == 1 and numeric(frame, "line") and list(frame["field"]) == ["winner"]
    assert list(frame["rules"]) == ["standard"] and "decks" not in frame.columns  # no shoe checked
    lines = run("verify", str(log), "--format", "jsonl", "--decks", "6", code=1).splitlines()
    row = json.loads(lines[0])
    assert (row["decks"], row["rules"], row["field"]) == (6, "standard", "winner")


# -- sweeps -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, counts",
    [
        ("8", (8,)),
        ("1,6,8", (1, 6, 8)),
        ("1-4", (1, 2, 3, 4)),
        (" 2 - 3 , 8 ", (2, 3, 8)),
        ("1-3,6", (1, 2, 3, 6)),
    ],
)
def test_deck_counts(text, counts):
    assert deck_counts(text) == counts


@pytest.mark.parametrize(
    "value, words",
    [
        ("3-1", "larger than the second"),
        ("0-2", "1 deck or more"),
        ("0", "1 deck or more"),
        ("1,,2", "not a deck count"),
        ("", "not a deck count"),
        ("x", "'x' is not a whole number"),
        ("８", "not a whole number"),
        ("1-", "bad range"),
        ("1-2-3", "bad range"),
        ("1_000", "not a whole number"),
        ("1,1", "given twice"),
        ("1-3,2", "given twice"),
        (f"1-{MAX_SWEEP + 1}", "more than"),
        ("+8", "whole number"),
    ],
)
@pytest.mark.parametrize("command", ["analyze", "bets", "report"])
def test_bad_sweeps_are_one_line_exit_2(run, command, value, words):
    extra = ["--bet", "tie"] if command == "report" else []
    out = run(command, *extra, "--decks", value, code=2)
    assert len(out.strip().splitlines()) == 1 and words in out, out


def test_sweep_refuses_remove_and_shoe(run):
    assert "one --decks value" in run("analyze", "--decks", "1,2", "--remove", "K", code=2)
    assert "not both" in run("bets", "--decks", "1,2", "--shoe", "A=9", code=2)


def test_analyze_sweep_is_one_table_per_kind_with_a_row_per_deck_count(run):
    doc = load_json(run("analyze", "--decks", "1,6,8", "--table", "outcomes,bets", "--format", "json"))
    outcomes, bets = doc["tables"]
    assert [r["decks"] for r in outcomes["rows"]] == [1] * 4 + [6] * 4 + [8] * 4
    assert [r["decks"] for r in bets["rows"]] == [1, 1, 1, 6, 6, 6, 8, 8, 8]
    for row in bets["rows"]:
        summary = price(find_bet(row["bet_name"]), Shoe.standard(row["decks"]))
        assert Fraction(row["house_edge"]) == summary.house_edge
        assert row["shoe"] == Shoe.standard(row["decks"]).describe()
    assert doc["meta"]["shoe"] == "standard shoes of 1, 6, 8 decks"
    text = run("analyze", "--decks", "1-3", "--table", "outcomes")
    assert text.count("Outcomes:") == 1 and "Outcomes: 1, 2, 3 decks" in text
    assert "Decks" in text


def test_bets_sweep_text_and_csv(run):
    text = run("bets", "--bet", "tie", "--decks", "1-8")
    lines = [line for line in text.splitlines() if "Tie (8 to 1)" in line]
    assert len(lines) == 8 and [int(line.split()[0]) for line in lines] == list(range(1, 9))
    frame = read_csv(run("bets", "--bet", "tie", "--decks", "1-8", "--events", "--format", "csv"))
    assert list(frame[frame["table"] == "bets"]["decks"]) == list(range(1, 9))
    assert numeric(frame, "decks")
    events = frame[frame["table"] == "events:tie"]
    assert len(events) == 8 * 3  # Tie, otherwise, Total per deck count
    one = events[(events["decks"] == 1) & (events["event"] == "Tie")].iloc[0]
    tie = price(find_bet("tie"), Shoe.standard(1)).events[0]
    assert int(one["count"]) == tie.count and Fraction(one["probability"]) == tie.probability


def test_single_deck_count_output_for_people_is_unchanged(run):
    from analyzer.output.tables import analysis_tables

    text = run("analyze", "--decks", "6", "--table", "outcomes,bets")
    tables = analysis_tables(analyze(Shoe.standard(6)), ["outcomes", "bets"])
    body = render(tables, "text")  # no meta, no context: the tables people read
    assert text.endswith(body) and "Decks" not in text and "bet_name" not in text
    run("analyze", "--decks", "6,", code=2)


def test_symbolic_json_decimals_are_numbers(run):
    from analyzer.studies.symbolic import bet_forms

    doc = load_json(run("symbolic", "--bet", "tie", "--table", "none", "--format", "json"))
    forms = {f["key"]: f for s in doc["sections"] for f in s["forms"]}
    edge = forms["tie:house_edge"]
    want = bet_forms(find_bet("tie")).house_edge
    assert Fraction(edge["limit"]) == want.limit() and Fraction(edge["correction"]) == want.correction()
    assert edge["limit_decimal"] == round_fraction(want.limit(), 10)
    assert isinstance(edge["correction_decimal"], Decimal)


def test_a_deck_sweep_prints_a_shared_footnote_once():
    out = invoke("analyze", "--decks", "1-8", "--table", "outcomes").output
    assert out.count("Counts are ordered 6-card sequences") == 1
