"""The tables of ``punto-banco bets`` (``analyzer.output.bet_tables``)."""

import csv
import io
import json
import re

from analyzer.bets.catalogue import find_bet
from analyzer.bets.choice import find_by_pays, pays_text, winning_pays


def _margin_pays(table):
    """Dragon Bonus pay table ``table``: non-natural win margin -> pays, as the catalogue has it."""
    bet = find_bet(f"dragon-bonus-player:{table}")
    margins = [ln for ln in bet.lines if ln.event.startswith("Non-natural")]
    return {int(ln.event.rsplit(" ", 1)[1]): int(ln.pays) for ln in margins}


DRAGON_BONUS_TABLES = {"1": _margin_pays("1"), "2": _margin_pays("2")}


def test_all_bets_on_a_rank_only_shoe_skip_suited_bets_with_a_note(cli):
    result = cli("bets", "--all", "--shoe", ",".join(["32"] * 12 + ["31"]), "--digits", "3")
    assert result.exit_code == 0
    assert "Not priced: perfect-pair, perfect-pair:2" in result.output
    assert "Dragon 7" in result.output
    # Naming a suited bet explicitly on such a shoe is still an error.
    named = cli("bets", "--bet", "perfect-pair", "--shoe", ",".join(["32"] * 13))
    assert named.exit_code == 2 and "suits" in named.output


# -- bets --pays: catalogue bets found by their pays ---------------------------------------------


def _doc(cli, *args):
    result = cli("bets", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_pays_finds_the_bets_and_prices_them_as_bets_does(cli):
    doc = _doc(cli, "--pays", "30,10,6,4,2,1")
    table = doc["tables"][0]
    assert table["name"] == "pay-match"
    assert table["title"].startswith("Catalogue bets paying 30, 10, 6, 4, 2, 1")
    rows = table["rows"]
    assert [r["bet_name"] for r in rows] == [m.bet.name for m in find_by_pays("30,10,6,4,2,1").matches]
    priced = {r["bet_name"]: r for r in _doc(cli, *(w for r in rows for w in ("--bet", r["bet_name"])))
              ["tables"][0]["rows"]}
    for row in rows:
        assert row["match_kind"] == "exact-distinct"
        assert row["differs"] is None and row["lines_differing"] == 0
        assert row["pay_table"] == pays_text(winning_pays(find_bet(row["bet_name"])))
        same = priced[row["bet_name"]]
        for key in ("bet", "ev", "house_edge", "hit_frequency", "variance", "grade", "published_figure"):
            assert row[key] == same[key], key


def test_pays_takes_deck_sweeps_formats_and_an_output_file(cli, tmp_path):
    doc = _doc(cli, "--pays", "12,23", "--decks", "6,8")
    rows = doc["tables"][0]["rows"]
    assert [(r["decks"], r["bet_name"]) for r in rows] == [(6, "lucky-6:2"), (8, "lucky-6:2")]
    target = tmp_path / "found.csv"
    result = cli("bets", "--pays", "12,23", "--format", "csv", "-o", str(target))
    assert result.exit_code == 0 and result.stdout == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert {r["table"] for r in rows} == {"pay-match"} and rows[0]["bet_name"] == "lucky-6:2"
    assert "| lucky-6:2 |" in cli("bets", "--pays", "12,23", "--format", "markdown").stdout.replace("  ", " ")


def test_pays_near_tables_say_they_are_near(cli):
    margins = ",".join(str(p) for p in DRAGON_BONUS_TABLES["2"].values())  # the natural win left out
    result = cli("bets", "--pays", margins, "--digits", "4")
    assert result.exit_code == 0
    assert "they are near, not equal" in result.output
    rows = _doc(cli, "--pays", margins)["tables"][0]["rows"]
    assert rows and all(r["match_kind"] == "near" for r in rows)
    first = rows[0]
    assert first["bet_name"] == "dragon-bonus-player:2"
    assert (first["differs"], first["lines_differing"]) == ("1 / -", 1)


def test_pays_with_params_lists_what_the_note_counts(cli):
    plain = cli("bets", "--pays", "0.97").output
    said = re.search(r"(\d+) catalogue bets pay 97/100 with their parameter set \((.*?)\)", plain)
    count, named = said.groups()
    assert named.startswith("banker:3, ") and "add --with-params" in plain
    rows = _doc(cli, "--pays", "0.97", "--with-params")["tables"][0]["rows"]
    assert len(rows) == int(count) and rows[0]["bet_name"] == "banker:3"
    assert {r["match_kind"] for r in rows} == {"parameter"}


def test_pays_with_events_gives_each_bets_events_table(cli):
    tables = _doc(cli, "--pays", "25,250", "--events")["tables"]
    assert [t["name"] for t in tables] == ["pay-match", "events:perfect-pair:2"]
    assert {r["bet_name"] for r in tables[1]["rows"]} == {"perfect-pair:2"}


def test_pays_on_a_rank_only_shoe_names_the_suited_bets_it_cannot_price(cli):
    result = cli("bets", "--pays", "25", "--shoe", ",".join(["32"] * 13), "--digits", "3")
    assert result.exit_code == 0
    assert "Not priced: perfect-pair (suited bets need the suits" in result.output
    assert "panda-8" in result.output  # Panda 8 pays 25 too and needs no suits


def test_a_pay_table_name_prices_the_bet_it_names(cli):
    doc = _doc(cli, "--bet", "lucky-6:macau", "--bet", "dragon-bonus-banker:cypress-bayou")
    rows = doc["tables"][0]["rows"]
    assert [r["bet_name"] for r in rows] == ["lucky-6:1", "dragon-bonus-banker:2"]
