"""Baccara banque's tables (analyzer/output/banque_tables.py): exact cells, irrational numbers as
text beside their exactly rounded decimals, Banker's grid covering his 1,144 cells."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from functools import cache

import pytest

from analyzer.errors import GameError
from analyzer.games.banque import CELLS
from analyzer.games.banque_solve import BanqueSolution, solve_banque
from analyzer.output.banque_tables import (
    BANQUE_TABLES,
    banker_grid,
    banque_tables,
    study_table,
)
from analyzer.output.render import render


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
    assert len(mixed) == sum(len(p.mixed_cells) for p in (*sol.nash.points, sol.independent.point, corr)
                             if p is not None)


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
    hands = [c.header[2:] for c in grid.columns[2:]]
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
