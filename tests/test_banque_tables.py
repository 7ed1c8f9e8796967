"""Baccara banque's tables (analyzer/output/banque_tables.py): exact cells, irrational numbers as
text beside their exactly rounded decimals, Banker's grid covering his 1,144 cells."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from functools import cache

import pytest

from analyzer.errors import GameError
from analyzer.games.banque import CELLS, hand_text
from analyzer.games.banque_solve import BanqueSolution, results, solve_banque, stakes
from analyzer.output.banque_tables import (
    BANQUE_TABLES,
    banker_grid,
    banque_tables,
    study_table,
)
from analyzer.output.render import csv_text, render


@cache
def _solved(theta: str) -> BanqueSolution:
    return solve_banque(Fraction(theta))


def _json(tables, digits=10):
    document = json.loads(render(tables, "json", digits), parse_float=Decimal)
    return {t["name"]: t for t in document["tables"]}


def test_every_table_in_json_keeps_the_exact_values():
    sol = _solved("3/10")
    tables = _json(banque_tables(sol, BANQUE_TABLES))
    assert set(tables) == set(BANQUE_TABLES)
    summary = tables["summary"]["rows"]
    assert [r["solution"] for r in summary] == ["Nash equilibrium", "Independent cooperative",
                                                 "Correlated cooperative"]
    corr = sol.correlated.point
    assert Fraction(summary[2]["banker_gain"]) == corr.gains[2].rational == -sol.correlated.value
    assert all(r["verified"] == "yes" for r in summary)
    players = tables["players"]["rows"]
    assert Fraction(players[0]["player1_draws"]) == sol.nash.points[0].p1.rational
    # the long form: every cell of each of the three solutions
    assert len(tables["cells"]["rows"]) == 3 * len(CELLS)
    mixed = tables["mixed"]["rows"]
    points = [p for p in (*sol.nash.points, sol.independent.point, corr) if p is not None]
    assert len(mixed) == sum(len(p.indifferent_cells()) for p in points)
    assert sum(r["play"] == "mix" for r in mixed) == sum(len(p.mixed_cells) for p in points)


def test_an_irrational_solution_is_exact_text_and_an_exact_decimal():
    sol = _solved("1/10")
    (point,) = sol.nash.points
    rows = _json(banque_tables(sol, ("players",), digits=25), digits=25)["players"]["rows"]
    nash = rows[0]
    assert nash["player1_draws"] == str(point.p1) and "sqrt(" in nash["player1_draws"]
    assert nash["player1_draws_decimal"] == point.p1.decimal(25)
    text = render(banque_tables(sol, ("summary",)), "text", 10)
    assert str(point.gains[0]) in text and "does not exist" in text


def test_the_grid_covers_every_cell():
    sol = _solved("3/10")
    grid = banker_grid(sol, "nash")
    point = sol.nash.points[0]
    seen = 0
    assert [c.header for c in grid.columns[2:]] == [*map(str, range(10)), "stood", "natural"]
    hands = [c.header for c in grid.columns[2:]]
    for row in grid.rows:
        total, first, plays = row[0], row[1], row[2:]
        for hand, shown in zip(hands, plays, strict=True):
            matches = [i for i, c in enumerate(CELLS) if c.total == total
                       and (first == "any" or c.label.split(" v ")[1].split(", ")[0] == first)
                       and c.label.split(", ")[1] == hand]
            if not shown:
                assert matches == []  # both Players out on naturals: no cell
                continue
            for i in matches:
                s = point.banker[i]
                assert shown == ("D" if s == 1 else "S" if s == 0 else str(s))
            seen += len(matches)
    assert seen == len(CELLS)


def test_the_grid_of_a_solution_that_does_not_exist():
    with pytest.raises(GameError, match="does not exist"):
        banker_grid(_solved("1/10"), "independent")


def test_the_study_table():
    sols = [_solved("1/10"), _solved("3/10")]
    rows = _json([study_table(sols)])["study"]["rows"]
    assert [Fraction(r["theta"]) for r in rows] == [Fraction(1, 10), Fraction(3, 10)]
    assert [r["independent_exists"] for r in rows] == ["no", "yes"]
    assert Fraction(rows[1]["correlated_value"]) == sols[1].correlated.value
    assert rows[0]["nash_p1"] == str(sols[0].nash.points[0].p1)

    assert [r["nash_count"] for r in rows] == [1, 1]  # a number, not text
    assert all(list(r) == _json([study_table(sols)])["study"]["columns"] for r in rows)


@pytest.mark.parametrize("theta", ["1/2", "1/10"])
def test_data_rows_have_exactly_the_tables_columns(theta):
    # at 1/2 the independent cooperative equilibrium does not exist: its cells are empty, not
    # extra fields; every JSON row has the columns' keys, the CSV header every table's columns
    sol = _solved(theta)
    tables = banque_tables(sol, BANQUE_TABLES)
    for table in _json(tables).values():
        assert table["rows"]
        for row in table["rows"]:
            assert list(row) == table["columns"]
    for t in tables:
        header = csv_text([t]).splitlines()[0].split(",")
        assert header == ["table", *(c.json_key for c in t.columns)]


def test_a_solution_that_does_not_exist_has_null_cells_in_json():
    # at 1/2 no independent cooperative equilibrium: every cell but its name and "no" is null
    tables = _json(banque_tables(_solved("1/2"), ["summary", "players"]))
    for name in ("summary", "players"):
        (row,) = [r for r in tables[name]["rows"] if r["solution"] == "Independent cooperative"]
        assert {k: v for k, v in row.items() if k not in ("solution", "exists")} == dict.fromkeys(
            [k for k in row if k not in ("solution", "exists")]
        )


def test_an_irrational_decimal_keeps_every_digit_asked():
    sol = _solved("1/10")
    (point,) = sol.nash.points
    digits = 60
    rows = _json(banque_tables(sol, ("players",), digits=digits), digits=digits)["players"]["rows"]
    shown = rows[0]["player1_draws_decimal"]
    assert -shown.as_tuple().exponent == digits
    error = point.p1 - Fraction(shown)
    assert -Fraction(1, 2 * 10**digits) <= error <= Fraction(1, 2 * 10**digits)


def test_the_mixed_table_lists_every_indifferent_cell():
    # at 3/10 the Nash equilibrium (9/11, 9/11) leaves Banker indifferent in three cells, and he
    # stands in one of them: the cells on which "Banker unique: no" rests
    sol = _solved("3/10")
    (point,) = sol.nash.points
    rows = [r for r in _json(banque_tables(sol, ("mixed",)))["mixed"]["rows"]
            if r["solution"] == "Nash equilibrium"]
    listed = {(r["banker"], r["player1"], r["player2"]): r["play"] for r in rows}
    assert listed == {(6, "stood", "stood"): "mix", (6, "natural", "stood"): "mix",
                      (6, "stood", "natural"): "stand"}
    # indifferent: flipping Banker's play in a listed cell leaves the coalition's payoff as it
    # is; in another cell of the same total it changes it
    st = stakes(sol.theta)
    theta = sol.theta

    def coalition(draws):
        x1, x2 = results(st, point.p1, point.p2, draws)
        return theta * x1 + (1 - theta) * x2

    base = coalition(point.banker)
    for c, cell in enumerate(CELLS):
        key = (cell.total, hand_text(cell.first), hand_text(cell.second))
        if cell.total != 6 or key[1] not in ("stood", "natural"):
            continue
        flipped = list(point.banker)
        flipped[c] = 1 - flipped[c] if flipped[c] in (0, 1) else 1
        assert (coalition(flipped) == base) == (key in listed), key


def test_a_surd_in_the_grid_is_a_short_label_given_exactly_in_a_note():
    sol = _solved("1/10")
    (point,) = sol.nash.points
    grid = banker_grid(sol, "nash", digits=12)
    cells = [c for row in grid.rows for c in row[2:]]
    assert max(len(str(c)) for c in cells) <= 3
    assert sorted(c for c in cells if str(c).startswith("m")) == ["m1", "m2"]
    for c in point.mixed_cells:
        s = point.banker[c]
        assert any(n.endswith(f"= draw with probability {s} ({s.decimal(12)})") for n in grid.notes)


def test_the_hands_table_gives_each_hands_result_per_unit_staked():
    sol = _solved("3/10")
    rows = _json(banque_tables(sol, ("hands", "summary")))
    corr = sol.correlated.point
    players = rows["hands"]["rows"][-1]
    summary = rows["summary"]["rows"][-1]
    assert Fraction(players["player1_result"]) == corr.x1.rational
    assert Fraction(summary["player1_gain"]) == sol.theta * Fraction(players["player1_result"])
    assert Fraction(summary["player2_gain"]) == (1 - sol.theta) * Fraction(players["player2_result"])
