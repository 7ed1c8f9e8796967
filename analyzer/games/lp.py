"""An exact linear program over the rationals: the simplex method on ``fractions.Fraction``.

Maximise ``c . x`` subject to ``A x <= b`` and ``x >= 0`` (``b`` of any sign: a first phase
finds a feasible basis through one auxiliary variable, as in Cormen, Leiserson, Rivest and
Stein, *Introduction to Algorithms*, section 29.5).  Bland's rule chooses every pivot, so the
method never cycles.  Every number is an exact rational: the answer is the optimum itself, with
the dual values of the constraints (what the game's solver reads as the Banker's strategy).
Meant for the small programs the games reduce to (tens of rows and columns).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.errors import GameError

Number = int | Fraction


@dataclass(frozen=True)
class LPResult:
    """An optimal solution: ``x`` (one value per variable), ``objective`` = c . x, ``duals``
    (one value >= 0 per constraint; ``b . duals`` = ``objective``)."""

    x: tuple[Fraction, ...]
    objective: Fraction
    duals: tuple[Fraction, ...]


class _Tableau:
    """Rows ``A | b`` with the basis, and the objective row of reduced costs."""

    def __init__(self, rows: list[list[Fraction]], basis: list[int]) -> None:
        self.rows = rows
        self.basis = basis

    def pivot(self, r: int, col: int) -> None:
        row = self.rows[r]
        k = row[col]
        if k != 1:
            self.rows[r] = row = [v / k for v in row]
        nonzero = [(j, v) for j, v in enumerate(row) if v]  # the tableau is sparse
        for i, other in enumerate(self.rows):
            f = other[col]
            if i != r and f:
                for j, v in nonzero:
                    other[j] -= f * v
        self.basis[r] = col

    def optimise(self, cost: list[Fraction], allowed: int) -> list[Fraction]:
        """Maximise ``cost`` over the first ``allowed`` columns (Bland's rule); returns the
        reduced costs at the optimum.

        Raises:
            GameError: the program is unbounded.
        """
        while True:
            reduced = self._reduced(cost)
            col = next((j for j in range(allowed) if reduced[j] > 0), None)
            if col is None:
                return reduced
            best: tuple[Fraction, int, int] | None = None
            for i, row in enumerate(self.rows):
                if row[col] > 0:
                    key = (row[-1] / row[col], self.basis[i], i)
                    if best is None or key < best:
                        best = key
            if best is None:
                raise GameError("internal: the linear program is unbounded")
            self.pivot(best[2], col)

    def _reduced(self, cost: list[Fraction]) -> list[Fraction]:
        out = list(cost)
        for i, row in enumerate(self.rows):
            cb = cost[self.basis[i]]
            if cb:
                for j, v in enumerate(row):
                    if v:
                        out[j] -= cb * v
        return out


def maximise(c: Sequence[Number], a: Sequence[Sequence[Number]], b: Sequence[Number]) -> LPResult:
    """The optimum of max c.x, A x <= b, x >= 0, exact.

    Shapes: ``c`` n numbers, ``a`` m rows of n numbers, ``b`` m numbers.

    Raises:
        GameError: the program is infeasible or unbounded (the games' programs are neither).
    """
    m, n = len(a), len(c)
    # columns: x (n), slacks (m), the auxiliary x0 (1); then the right-hand side
    width = n + m + 1
    rows = []
    for i in range(m):
        slack = [Fraction(int(j == i)) for j in range(m)]
        row = [Fraction(v) for v in a[i]] + slack + [Fraction(-1), Fraction(b[i])]
        rows.append(row)
    tab = _Tableau(rows, [n + i for i in range(m)])
    aux = n + m
    if m and min(b) < 0:
        worst = min(range(m), key=lambda i: (b[i], i))
        tab.pivot(worst, aux)
        phase1 = [Fraction(0)] * width + [Fraction(0)]
        phase1[aux] = Fraction(-1)
        tab.optimise(phase1, width)
        if aux in tab.basis:
            r = tab.basis.index(aux)
            if tab.rows[r][-1] != 0:
                raise GameError("internal: the linear program is infeasible")
            col = next(j for j in range(width - 1) if tab.rows[r][j] != 0)
            tab.pivot(r, col)
        elif any(row[-1] < 0 for row in tab.rows):
            raise GameError("internal: the linear program is infeasible")
    for row in tab.rows:
        row[aux] = Fraction(0)
    cost = [Fraction(v) for v in c] + [Fraction(0)] * (m + 1) + [Fraction(0)]
    reduced = tab.optimise(cost, width - 1)
    x = [Fraction(0)] * (n + m)
    for i, j in enumerate(tab.basis):
        if j < n + m:
            x[j] = tab.rows[i][-1]
    objective = sum((Fraction(c[j]) * x[j] for j in range(n)), Fraction(0))
    duals = tuple(-reduced[n + i] for i in range(m))
    return LPResult(tuple(x[:n]), objective, duals)
