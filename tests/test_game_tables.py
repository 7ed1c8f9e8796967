"""Chemin de fer's solutions as tables (analyzer/output/game_tables.py)."""

from __future__ import annotations

from fractions import Fraction

from analyzer.core.tableau import STANDARD
from analyzer.games.model import shoe_game, with_replacement
from analyzer.games.solve import solve
from analyzer.output.game_tables import banker_grid, summary_table


def test_the_summary_speaks_of_a_value_only_in_the_zero_sum_game():
    game = with_replacement()
    assert "the value" in summary_table(solve(game)).title
    title = summary_table(solve(game, Fraction(1, 20))).title
    assert "value" not in title.replace("has no value", "") and "Nash equilibria" in title
    assert "1/20" in title


def test_the_a1_grid_shows_the_total_once():
    grid = banker_grid(solve(with_replacement()))
    assert [c.key for c in grid.columns][:2] == ["banker", "third_0"]
    assert [row[0] for row in grid.rows] == [str(t) for t in range(8)]
    b2 = banker_grid(solve(shoe_game("B2", 6)))
    assert [c.key for c in b2.columns][:2] == ["banker", "total"]


def test_the_grid_marks_each_pure_departure_from_the_punto_banco_tableau():
    solution = solve(shoe_game("B2", 6))
    grid = banker_grid(solution)
    game, q = solution.game, solution.equilibria[0].banker
    keys = [c.key for c in grid.columns]
    marked = set()
    for row in grid.rows:
        for key, text in zip(keys, row, strict=True):
            if isinstance(text, str) and text.endswith("*"):
                marked.add((row[0], key))
    expected = set()
    for c, cell in enumerate(game.cells):
        tableau_draws = STANDARD.banker_draws(cell.total, cell.third)
        if game.reached[c] and q[c] in (0, 1) and (q[c] == 1) != tableau_draws:
            expected.add((cell.hand, "stood" if cell.third is None else f"third_{cell.third}"))
    assert marked == expected and marked  # B2 on 6 decks departs from the tableau in a few cells
    assert f"({len(expected)} such cells" in grid.notes[1]
