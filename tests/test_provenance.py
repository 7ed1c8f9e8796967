"""What each catalogue figure rests on: the provenance grades, as data on the entries and as
``bets`` shows them (text, JSON, CSV, ``--list``).

The grades of heavy card-level bets are checked on the entries' data, not by pricing them."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from clirun import invoke

from analyzer.bets.catalogue import CATALOGUE, PROVENANCE, Grade, catalogue_bets, find_bet, provenance

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_entry_has_a_provenance_for_its_default():
    assert set(PROVENANCE) == {e.name for e in CATALOGUE}
    for entry in CATALOGUE:
        assert "" in entry.provenance, entry.name
        for key, p in entry.provenance.items():
            assert p.source, (entry.name, key)
            if p.grade is Grade.REPRODUCED:
                assert p.figure and p.test, (entry.name, key)
            else:
                assert not p.figure, (entry.name, key)
            if p.grade in (Grade.READING, Grade.WEAK):
                assert p.caveat, (entry.name, key)  # a reading says what it assumes


def test_every_grade_has_its_short_label_in_the_bets_table():
    # GRADE_SHORT is keyed by the grades' values (the catalogue loads only to show grades)
    from analyzer.output.tables import GRADE_SHORT

    assert set(GRADE_SHORT) == {g.value for g in Grade}


def test_every_reproduced_figure_names_a_golden_test_that_exists():
    for entry in CATALOGUE:
        for p in entry.provenance.values():
            if p.grade is not Grade.REPRODUCED:
                continue
            path, _, name = p.test.partition("::")
            text = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(name)}\(", text, re.M), p.test


def test_every_priced_bet_has_a_grade():
    for bet in catalogue_bets():
        assert provenance(bet) is not None, bet.name


@pytest.mark.parametrize(
    "spec, grade",
    [
        ("lucky-win-banker", Grade.READING),
        ("lucky-win-player", Grade.REPRODUCED),
        ("bellagio-match-player", Grade.READING),
        ("bellagio-match-banker", Grade.READING),
        ("royal-9", Grade.READING),
        ("d7p8-progressive", Grade.READING),
        ("tiger-pair", Grade.WEAK),
        ("small-tiger", Grade.WEAK),
        ("tiger-tie", Grade.WEAK),
        ("all-black", Grade.WEAK),
        ("super-tie:2", Grade.REPRODUCED),
        ("lucky-match", Grade.REPRODUCED),
        ("royal-match:banker,2", Grade.REPRODUCED),
        ("lucky-nines:binions", Grade.READING),
        ("lucky-nines:binions,off-suit", Grade.REPRODUCED),
        ("super-6:15", Grade.RULES),
    ],
)
def test_grades_of_heavy_and_odd_bets_are_data(spec, grade):
    assert provenance(find_bet(spec)).grade is grade


@pytest.mark.parametrize(
    "spec", ["lucky-win-banker", "bellagio-match-player", "bellagio-match-banker", "royal-match:player,2"]
)
def test_bets_with_a_player_edge_or_an_edge_above_half_say_why(spec):
    # Lucky Win (Banker) +15.6%, Bellagio Match 76.9% / 80.4%, Royal Match v2 +1.35% at 8 decks
    assert provenance(find_bet(spec)).caveat


def test_a_parameter_no_source_publishes_keeps_the_source_not_the_figure():
    p = provenance(find_bet("dragon-7:45"))
    assert p.grade is Grade.RULES and not p.figure and "no source publishes" in p.caveat
    assert provenance(find_bet("tie:8")) == provenance(find_bet("tie"))  # the default, spelt out
    assert provenance(find_bet("lucky-nines:red-rock")) == provenance(find_bet("lucky-nines"))
    assert provenance(find_bet("egalite:5")).grade is Grade.REPRODUCED
    assert provenance(find_bet("egalite:5@500")).grade is Grade.RULES
    assert provenance(find_bet("perfect-pair:25/200")).grade is Grade.READING


def test_titles_of_the_priced_catalogue_are_unique():
    # two rows titled "Super 6" (12 and 15 pays) could not be told apart
    titles = [b.title for b in catalogue_bets()]
    assert len(titles) == len(set(titles)), sorted(t for t in titles if titles.count(t) > 1)
    assert find_bet("super-6").title == "Super 6 (12 to 1)"
    assert find_bet("super-6:15").title == "Super 6 (15 to 1)"


def test_bets_text_shows_grades_and_notes_on_odd_rows():
    out = run(
        "bets",
        "--bet",
        "royal-match:player,2",
        "--bet",
        "tie",
        "--bet",
        "tie:12",
        "--bet",
        "examples/bets.toml:natural-tie",
        "--digits",
        "4",
    )
    header = next(line for line in out.splitlines() if line.startswith("Bet "))
    assert header.rstrip().endswith("Grade")
    rows = {line.split("  ")[0]: line for line in out.splitlines()}
    assert rows["Tie (8 to 1)"].rstrip().endswith("reproduced")
    assert rows["Tie (12 to 1)"].rstrip().endswith("rules only")
    assert rows["Tie with naturals"].rstrip().endswith("user-defined")
    assert (
        "Royal Match (Player, 10 / 3): EV is positive (a player edge of 1.35%): version 2 (10 / 3) is "
        "a one-deck pay table"
    ) in out
    assert "Tie (12 to 1): EV is positive (a player edge of 23.70%): the parameter '12' sets" in out
    assert "Tie with naturals: the house edge, 53.54%, is above 50%: a user-defined bet." in out
    assert "Tie (8 to 1):" not in out  # an ordinary row gets no note


def test_bets_with_ordinary_figures_get_no_odd_row_note():
    out = run("bets", "--bet", "dragon-7", "--bet", "banker")
    assert "EV is positive" not in out and "above 50%" not in out


def test_bets_data_carry_grade_figure_source_and_test():
    doc = json.loads(
        run("bets", "--bet", "dragon-7", "--bet", "examples/bets.toml:natural-tie", "--format", "json")
    )
    rows = {r["bet_name"]: r for r in doc["tables"][0]["rows"]}
    d7 = rows["dragon-7"]
    assert (d7["grade"], d7["grade_label"]) == ("reproduced", "reproduced")
    assert d7["published_figure"] == "house edge 7.6113% (8 decks)"
    assert "wizardofodds.com" in d7["source"] and d7["golden_test"].startswith("tests/test_catalogue.py::")
    assert rows["natural-tie"]["grade"] == "user-defined" and rows["natural-tie"]["published_figure"] is None
    table = list(csv.DictReader(io.StringIO(run("bets", "--bet", "dragon-7", "--format", "csv"))))
    assert table[0]["grade"] == "reproduced" and table[0]["published_figure"].startswith("house edge 7.6113%")


def test_bets_list_shows_grades_and_its_json_carries_rules_source_grade_figure_parameters():
    text = run("bets", "--list")
    assert "Grade" in text.splitlines()[2]
    line = next(ln for ln in text.splitlines() if ln.startswith("lucky-win-banker"))
    assert line.rstrip().endswith("our reading")
    doc = json.loads(run("bets", "--list", "--format", "json"))
    rows = {r["name"]: r for r in doc["tables"][0]["rows"]}
    assert set(rows) == {e.name for e in CATALOGUE}
    nines = rows["lucky-nines"]
    assert nines["rules"].startswith("Reads the first four cards") and "64,512" in nines["rules"]
    assert "wizardofodds.com" in nines["source"]
    assert (nines["grade"], nines["golden_test"]) == (
        "reproduced",
        "tests/test_catalogue_sources.py::test_lucky_nines_red_rock",
    )
    assert nines["published_figure"].startswith("house edge 8.27%")
    assert nines["parameter"].startswith("TABLE[,READING]")
    assert "lucky-nines:binions,off-suit: published figure reproduced (house edge 19.46%" in nines["variants"]
    # every bet is in --all: no column says otherwise
    assert rows["royal-9"]["grade"] == "our-reading" and "in_all" not in rows["royal-9"]
    assert rows["royal-9"]["caveat"]


def test_a_bet_that_cannot_win_on_the_shoe_says_so():
    # Perfect Pair needs two identical cards: a one-deck shoe has none (house edge 100%)
    out = run("bets", "--bet", "perfect-pair", "--decks", "1")
    assert (
        "Perfect Pair (version 1): the house edge, 100.00%, is above 50%: none of its winning "
        "events can happen on this shoe."
    ) in out
