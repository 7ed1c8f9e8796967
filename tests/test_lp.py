"""The exact linear program (analyzer/games/lp.py) against a brute force over the vertices."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from analyzer.errors import GameError
from analyzer.games.lp import maximise


def _solve_square(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gaussian elimination, exact; None when singular."""
    n = len(rows)
    m = [[*r, b] for r, b in zip(rows, rhs, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _brute_force(c, a, b):
    """The best feasible vertex: every choice of n tight constraints among A x <= b, x >= 0."""
    n = len(c)
    rows = [[Fraction(v) for v in r] for r in a]
    rows += [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    rhs = [Fraction(v) for v in b] + [Fraction(0)] * n
    best = None
    for tight in itertools.combinations(range(len(rows)), n):
        x = _solve_square([rows[i] for i in tight], [rhs[i] for i in tight])
        if x is None or any(v < 0 for v in x):
            continue
        if all(sum(r[j] * x[j] for j in range(n)) <= bb for r, bb in zip(rows[: len(a)], b, strict=True)):
            value = sum(Fraction(cj) * xj for cj, xj in zip(c, x, strict=True))
            best = value if best is None else max(best, value)
    return best


def test_a_textbook_program_and_its_duals():
    # max 3x + 2y, x + y <= 4, x + 3y <= 6, x <= 3: x = 3, y = 1, optimum 11, duals (2, 0, 1)
    result = maximise([3, 2], [[1, 1], [1, 3], [1, 0]], [4, 6, 3])
    assert result.x == (3, 1) and result.objective == 11
    assert result.duals == (2, 0, 1)


def test_a_program_that_needs_the_first_phase():
    # min x + y with x + y >= 2: the origin is infeasible
    result = maximise([-1, -1], [[-1, -1], [1, 0]], [-2, 5])
    assert result.objective == -2 and result.duals == (1, 0)


def test_random_bounded_programs_reach_the_best_vertex():
    rng = random.Random(7)
    for _ in range(150):
        n, m = rng.randint(1, 3), rng.randint(1, 4)
        # bounded: the last row is sum x <= 9
        a = [[rng.randint(-4, 4) for _ in range(n)] for _ in range(m)] + [[1] * n]
        b = [rng.randint(-3, 6) for _ in range(m)] + [9]
        c = [rng.randint(-4, 4) for _ in range(n)]
        best = _brute_force(c, a, b)
        if best is None:
            with pytest.raises(GameError, match="infeasible"):
                maximise(c, a, b)
            continue
        result = maximise(c, a, b)
        assert result.objective == best
        rows_ok = zip(a, b, strict=True)
        assert all(sum(Fraction(r[j]) * result.x[j] for j in range(n)) <= bb for r, bb in rows_ok)
        # strong duality, with duals >= 0 that price every column at least at its cost
        assert all(y >= 0 for y in result.duals)
        assert sum(bb * y for bb, y in zip(b, result.duals, strict=True)) == best
        assert all(sum(a[i][j] * result.duals[i] for i in range(len(a))) >= c[j] for j in range(n))


def test_an_unbounded_program_is_refused():
    with pytest.raises(GameError, match="unbounded"):
        maximise([1], [[-1]], [0])
