"""``punto-banco chemin-de-fer`` (analyzer/cli/game_commands.py)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from clirun import one_error_line

from analyzer.games.banque_solve import solve_banque
from analyzer.games.model import with_replacement
from analyzer.games.rooms import REGLE, parse_room
from analyzer.games.solve import solve


def _tables(result):
    assert result.exit_code == 0, result.output
    return {t["name"]: t for t in json.loads(result.stdout)["tables"]}


def test_a1_prints_kemeny_and_snells_solution(cli):
    result = cli("chemin-de-fer", "--model", "A1")
    assert result.exit_code == 0, result.output
    assert "9/11" in result.stdout and "0.8181818182" in result.stdout
    tables = _tables(cli("chemin-de-fer", "--model", "A1", "--format", "json"))
    (row,) = tables["player"]["rows"]
    assert Fraction(row["draw_probability"]) == Fraction(9, 11)
    (summary,) = tables["summary"]["rows"]
    assert Fraction(summary["player_gain"]) == solve(with_replacement()).value
    assert summary["verified"] == "yes" and summary["player_unique"] == "yes"


def test_b2_and_b3_on_one_deck_every_table(cli):
    for model in ("B2", "B3"):
        tables = _tables(cli("chemin-de-fer", "--model", model, "--decks", 1, "--table", "all",
                             "--format", "json"))
        assert set(tables) == {"summary", "player", "banker", "mixed", "cells"}
        assert len(tables["cells"]["rows"]) == 484 and len(tables["banker"]["rows"]) == 44
        assert len(tables["player"]["rows"]) == (1 if model == "B2" else 5)


def test_a_commission_gives_each_sides_gain(cli):
    tables = _tables(cli("chemin-de-fer", "--model", "A1", "--commission", "5%", "--format", "json"))
    (row,) = tables["summary"]["rows"]
    eq = solve(with_replacement(), Fraction(1, 20)).equilibria[0]
    assert (Fraction(row["player_gain"]), Fraction(row["banker_gain"])) == (eq.player_gain, eq.banker_gain)
    same = _tables(cli("chemin-de-fer", "--model", "A1", "--commission", "1/20", "--format", "json"))
    assert same["summary"]["rows"] == tables["summary"]["rows"]


def test_a_room_and_its_file(cli, tmp_path):
    result = cli("chemin-de-fer", "--model", "A1", "--room", "regle", "--format", "json")
    rows = _tables(result)["room"]["rows"]
    assert rows[0]["player_gain"] == rows[1]["player_gain"]  # the règle costs nothing in A1
    toml = cli("chemin-de-fer", "--room-toml", "regle")
    assert toml.exit_code == 0 and parse_room(toml.stdout) == REGLE
    path = tmp_path / "room.toml"
    path.write_text(toml.stdout)
    again = _tables(cli("chemin-de-fer", "--model", "A1", "--room", path, "--format", "json"))
    assert again["room"]["rows"] == rows


def test_the_study_of_the_value_as_the_shoe_grows(cli):
    rows = _tables(cli("chemin-de-fer", "--model", "B2", "--study", "--format", "json"))["study"]["rows"]
    assert [r["decks"] for r in rows] == [*(str(d) for d in range(1, 9)), "with replacement"]
    values = [Fraction(r["value"]) for r in rows]
    assert values == sorted(values)  # the Player's value rises toward the limit
    assert rows[-1]["player_draws"] == "9/11"


@pytest.mark.parametrize(("args", "message"), [
    (("--model", "C3"), "unknown model"),
    (("--model", "A1", "--decks", "6"), "no --decks"),
    (("--commission", "11%"), "commission"),
    (("--commission", "five"), "--commission"),
    (("--room", "regle", "--commission", "1%"), "zero-sum"),
    (("--room", "nowhere"), "unknown room"),
    (("--room", "/nonexistent/room.toml"), "no such file"),
    (("--commission", "12%"), "'12%'"),
    (("--study", "--room", "regle"), "give no --room"),
    (("--study", "--table", "summary"), "give no --table"),
    (("--room-toml", "regle", "--model", "A1"), "give no --model"),
    (("--room-toml", "regle", "--decks", "2", "--commission", "5%", "--study"),
     "give no --decks, --commission, --study"),
    (("--table", "value"), "--table"),
    (("--model", "A1", "--study"), "--study"),
    (("--model", "B3", "--decks", "2", "--study"), "no --decks"),
])
def test_bad_input_is_one_line_and_exit_code_2(cli, args, message):
    result = cli("chemin-de-fer", *args)
    assert result.exit_code == 2
    assert message in one_error_line(result)


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "latex", "html"])
def test_every_format_and_a_file(cli, fmt, tmp_path):
    target = tmp_path / f"out.{fmt}"
    result = cli("chemin-de-fer", "--model", "A1", "--table", "all", "--format", fmt, "-o", target)
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert "9/11" in text and "859/2288" in text


def test_a_directory_is_not_a_room(cli, tmp_path):
    result = cli("chemin-de-fer", "--room", tmp_path)
    assert result.exit_code == 2 and "is a directory" in one_error_line(result)


@pytest.mark.parametrize("link", [False, True])
def test_the_output_may_not_overwrite_the_room_file(cli, tmp_path, monkeypatch, link):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r2.toml").write_text(cli("chemin-de-fer", "--room-toml", "regle").stdout)
    before = (tmp_path / "r2.toml").read_bytes()
    if link:
        (tmp_path / "link.toml").symlink_to("r2.toml")
    room = "link.toml" if link else "./r2.toml"
    for args in (("--model", "A1", "--room", room), ("--room-toml", room)):
        result = cli("chemin-de-fer", *args, "-o", "r2.toml")
        assert result.exit_code == 2
        assert "refusing to write 'r2.toml': it is the input" in one_error_line(result)
        assert (tmp_path / "r2.toml").read_bytes() == before


def test_the_output_may_not_overwrite_the_rooms_tableau_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rules = tmp_path / "myrules.toml"
    rules.write_text(cli("rules", "standard", "--toml").stdout)
    before = rules.read_bytes()
    room = cli("chemin-de-fer", "--room-toml", "regle").stdout.replace('"standard"', '"myrules.toml"')
    (tmp_path / "room.toml").write_text(room)
    for args in (("--model", "A1", "--room", "room.toml"), ("--room-toml", "room.toml")):
        result = cli("chemin-de-fer", *args, "-o", "myrules.toml")
        assert result.exit_code == 2
        assert "refusing to write 'myrules.toml': it is the input" in one_error_line(result)
        assert rules.read_bytes() == before
    # the room's tableau file is written back as the file it names
    assert 'tableau = "myrules.toml"' in cli("chemin-de-fer", "--room-toml", "room.toml").stdout


# -- baccara-banque ------------------------------------------------------------------------------


def test_baccara_banque_prints_the_three_solutions(cli):
    tables = _tables(cli("baccara-banque", "--theta", "30%", "--table", "all", "--format", "json"))
    assert set(tables) == {"summary", "players", "hands", "banker", "mixed", "cells"}
    sol = solve_banque(Fraction(3, 10))
    rows = tables["summary"]["rows"]
    assert Fraction(rows[-1]["banker_gain"]) == -sol.correlated.value
    assert all(r["verified"] == "yes" for r in rows)
    for same in ("0.3", "3/10"):
        again = _tables(cli("baccara-banque", "--theta", same, "--table", "all", "--format", "json"))
        assert again["summary"]["rows"] == rows and again["cells"]["rows"] == tables["cells"]["rows"]
    text = cli("baccara-banque", "--theta", "3/10", "--banker", "nash")
    assert text.exit_code == 0 and "Banker's play under the Nash equilibrium" in text.stdout


def test_baccara_banque_over_a_list_of_stakes(cli):
    rows = _tables(cli("baccara-banque", "--thetas", "1/10, 30%", "--format", "json"))["study"]["rows"]
    assert [Fraction(r["theta"]) for r in rows] == [Fraction(1, 10), Fraction(3, 10)]
    assert [r["independent_exists"] for r in rows] == ["no", "yes"]


def test_baccara_banque_says_when_equal_stakes_are_merged(cli):
    (study,) = _tables(cli("baccara-banque", "--thetas", "1/2,2/4,50%,3/10", "--format", "json")).values()
    assert [Fraction(r["theta"]) for r in study["rows"]] == [Fraction(1, 2), Fraction(3, 10)]
    assert "--thetas: 1/2, 2/4, 50% are one stake, 1/2, solved once." in study["notes"]
    plain = _tables(cli("baccara-banque", "--thetas", "1/2,3/10", "--format", "json"))["study"]
    assert not any("one stake" in n for n in plain["notes"])


def test_baccara_banque_data_rows_have_exactly_the_tables_columns(cli):
    # the independent cooperative equilibrium does not exist at 1/2: empty cells, no extra fields
    for names, columns in (("summary", ["solution", "exists", "player1_gain", "player1_gain_decimal",
                                        "player2_gain", "player2_gain_decimal", "banker_gain",
                                        "banker_gain_decimal", "unique", "banker_unique", "verified"]),
                           ("players", None), ("all", None)):
        result = cli("baccara-banque", "--theta", "1/2", "--table", names, "--format", "csv")
        assert result.exit_code == 0, result.output
        header = result.stdout.splitlines()[0].split(",")
        assert not any(k.endswith("_decimal_decimal") for k in header)
        if columns is not None:
            assert header == ["table", *columns]
        for table in _tables(cli("baccara-banque", "--theta", "1/2", "--table", names,
                                 "--format", "json")).values():
            assert all(list(row) == table["columns"] for row in table["rows"])


def test_baccara_banque_json_decimals_keep_the_digits_asked(cli):
    result = cli("baccara-banque", "--theta", "1/10", "--table", "players", "--digits", "60",
                 "--format", "json")
    (point,) = solve_banque(Fraction(1, 10)).nash.points
    assert f'"player1_draws_decimal": {point.p1.decimal(60)},' in result.stdout
    rows = json.loads(result.stdout, parse_float=Decimal)["tables"][0]["rows"]
    assert -rows[0]["player1_draws_decimal"].as_tuple().exponent == 60


@pytest.mark.parametrize(("args", "message"), [
    (("--theta", "0"), "strictly between 0 and 1"),
    (("--theta", "1"), "strictly between 0 and 1"),
    (("--theta", "-1"), "strictly between 0 and 1"),
    (("--theta", "100%"), "'100%'"),
    (("--theta", "abc"), "bad --theta 'abc': a stake is"),
    (("--theta", "1/0"), "bad --theta '1/0': a stake is"),
    (("--theta", "abc"), "strictly between 0 and 1: 1/2, 0.3 or 30%"),
    (("--thetas", "1/2,,3/10"), "bad --thetas '1/2,,3/10'"),
    (("--thetas", ",1/2"), "bad --thetas ',1/2'"),
    (("--thetas", "1/2,"), "bad --thetas '1/2,'"),
    (("--theta", "1/2", "--table", "summary,summary"), "name each table once"),
    (("--theta", "1/2", "--table", "summary", "--banker", "nash"), "--banker"),
    (("--theta", "1/2", "--raw-csv"), "--raw-csv"),
    (("--theta", "1/2", "--raw-csv", "--format", "json"), "--format csv"),
    ((), "give --theta"),
    (("--thetas", "1/2,abc"), "bad --thetas"),
    (("--thetas", " , "), "bad --thetas"),
    (("--study", "--theta", "1/2"), "give no --theta"),
    (("--study", "--thetas", "1/2"), "give no --thetas"),
    (("--theta", "1/2", "--table", "grid"), "--table"),
    (("--theta", "1/10", "--banker", "independent"), "does not exist at theta = 1/10"),
])
def test_baccara_banque_bad_input_is_one_line_and_exit_code_2(cli, args, message):
    result = cli("baccara-banque", *args)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line.startswith("Error: ") and message in line


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "latex", "html"])
def test_baccara_banque_in_every_format_and_a_file(cli, fmt, tmp_path):
    target = tmp_path / f"banque.{fmt}"
    result = cli("baccara-banque", "--theta", "3/10", "--table", "all", "--format", fmt, "-o", target)
    assert result.exit_code == 0, result.output
    text = target.read_text()
    sol = solve_banque(Fraction(3, 10))
    corr = sol.correlated.point
    for exact in (sol.correlated.value, corr.p1, corr.banker[corr.mixed_cells[0]], sol.nash.points[0].p2):
        assert str(exact).lstrip("-") in text


@pytest.mark.slow
def test_baccara_banque_study_over_the_tenths(cli):
    rows = _tables(cli("baccara-banque", "--study", "--format", "json"))["study"]["rows"]
    assert [Fraction(r["theta"]) for r in rows] == [Fraction(k, 10) for k in range(1, 10)]
    assert all(r["verified"] == "yes" and r["nash_count"] == 1 for r in rows)
    # theta and 1 - theta swap the Players: the same value, the same answer on existence
    for low, high in zip(rows, reversed(rows), strict=True):
        assert low["correlated_value"] == high["correlated_value"]
        assert low["independent_exists"] == high["independent_exists"]
        assert (low["nash_p1"], low["nash_p2"]) == (high["nash_p2"], high["nash_p1"])
