"""Baccara banque's solutions as tables (:mod:`analyzer.games.banque_solve`'s results, rendered by
:mod:`analyzer.output.render` in every format).

A number of a solution may be irrational (the root of a quadratic, ``a + b*sqrt(d)``), so each
is given as two columns, one data field each (JSON and CSV rows have exactly the table's
columns): its exact value as text (``KEY``: a fraction ``p/q``, or ``a + b*sqrt(d)``) and its
decimal (``KEY_decimal``, a ``number`` column), rounded exactly to ``--digits`` (a JSON number,
never via a float); a value that does not exist is empty (``null``) in both.

Reading Banker's strategy: the grid (:func:`banker_grid`) has one block of rows per Banker total,
one row per Player 1's hand (his third card 0-9, ``stood``, or ``natural``: he is out, paid),
one column per Player 2's hand (headed ``0`` ... ``9``, ``stood``, ``natural``); each cell says
``D`` (draw), ``S`` (stand), Banker's exact probability of drawing when it is a fraction, or a
label ``m1``, ``m2``... for an irrational one (a note under the grid gives it exactly).  A total
on which Banker plays alike in every cell is one row, Player 1's hand ``any``.  The mixed table
lists every cell where Banker is indifferent under each solution, with his play there; the
hands table each hand's result per unit staked (E X1, E X2; the summary's gains weigh them by
the stakes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from analyzer.errors import GameError
from analyzer.games.banque import CELLS, NATURAL, PLAYER_THIRDS, hand_text
from analyzer.games.banque_solve import JOINT, BanqueSolution, Point
from analyzer.games.surd import Surd
from analyzer.output.render import Cell, Column, Table

BANQUE_TABLES = ("summary", "players", "hands", "banker", "mixed", "cells")
DEFAULT_TABLES = ("summary", "players", "banker", "mixed")
SOLUTIONS = ("nash", "independent", "correlated")
HANDS = (*PLAYER_THIRDS, NATURAL)


def _exact(x: Surd) -> Cell:
    """The exact value: a Fraction when rational (shown ``p/q``), else ``a + b*sqrt(d)``."""
    return x.rational if x.rational is not None else str(x)


def _pair(x: Surd | None, digits: int) -> tuple[Cell, Cell]:
    if x is None:
        return None, None
    return _exact(x), x.decimal(digits)


def _number_columns(header: str, key: str) -> tuple[Column, Column]:
    return Column(header, "text", key), Column(f"{header} (decimal)", "number", f"{key}_decimal")


def _yes(flag: bool | None) -> str:
    return "undecided" if flag is None else "yes" if flag else "no"


def _solutions(sol: BanqueSolution) -> list[tuple[str, Point | None]]:
    """(name, point) of every solution shown: each Nash equilibrium, the independent cooperative
    equilibrium (None when it does not exist), the correlated cooperative equilibrium."""
    many = len(sol.nash.points) > 1
    out: list[tuple[str, Point | None]] = [
        (f"Nash equilibrium {i}" if many else "Nash equilibrium", p) for i, p in enumerate(sol.nash.points, 1)
    ]
    out.append(("Independent cooperative", sol.independent.point))
    out.append(("Correlated cooperative", sol.correlated.point))
    return out


def summary_table(sol: BanqueSolution, digits: int = 10) -> Table:
    """Each side's gain per coup under each solution, whether it exists, is unique, is verified."""
    rows: list[tuple[Cell, ...]] = []
    nash_unique = sol.nash.complete and len(sol.nash.points) == 1 and not sol.nash.continua
    for name, point in _solutions(sol):
        unique: str | None
        if name.startswith("Nash"):
            exists, unique = "yes", _yes(nash_unique if sol.nash.complete else None)
        elif name.startswith("Independent"):
            exists, unique = _yes(sol.independent.exists), _yes(sol.independent.unique) if point else None
        else:
            exists, unique = "yes", _yes(sol.correlated.joint_unique)
        gains = point.gains if point is not None else (None, None, None)
        rows.append((name, exists, *_pair(gains[0], digits), *_pair(gains[1], digits),
                     *_pair(gains[2], digits), unique, None if point is None else _yes(point.banker_unique),
                     None if point is None else "yes" if point.verified else "NO"))
    notes = [
        f"theta = {sol.theta}: the stake on Player 1's hand (1 - theta on Player 2's); gains per coup, "
        "zero-sum (Banker's is minus the Players' sum).",
        "Player 1's gain is theta E X1 and Player 2's (1 - theta) E X2: weighted by their stakes; "
        "each hand's result per unit staked, E X1 and E X2, is the table hands (--table hands).",
        "Unique: whether the Players' strategies are the only ones of that solution (Nash: every "
        "equilibrium was sought; correlated: the coalition's q); Banker unique: whether his play "
        "is the only one that makes that solution with these Players' strategies.",
        "Verified: no pure deviation of any side gains, in exact arithmetic (the coalition's four "
        "joint pure strategies and every Banker cell for the cooperative solutions).",
        f"Independent cooperative: {sol.independent.reason}.",
    ]
    if not sol.nash.complete:
        notes.append("The Nash search is not complete: " + "; ".join(sol.nash.unsettled) + ".")
    for player, fixed, lo, hi in sol.nash.continua:
        notes.append(f"Every p{player} from {lo} to {hi} with p{3 - player} = {fixed} is also a Nash "
                     "equilibrium.")
    value = sol.correlated.value
    notes.append(f"The correlated cooperative value to the coalition (theta E X1 + (1 - theta) E X2) is "
                 f"{value}.")
    return Table(
        "summary",
        f"Baccara banque at theta = {sol.theta}: each side's gain under each solution",
        (Column("Solution", key="solution"), Column("Exists", key="exists"),
         *_number_columns("Player 1's gain", "player1_gain"),
         *_number_columns("Player 2's gain", "player2_gain"),
         *_number_columns("Banker's gain", "banker_gain"), Column("Unique", key="unique"),
         Column("Banker unique", key="banker_unique"),
         Column("Verified", key="verified")),
        tuple(rows),
        tuple(notes),
    )


def players_table(sol: BanqueSolution, digits: int = 10) -> Table:
    """Each Player's probability of drawing at 5 under each solution (the correlated solution's
    marginals), and the correlated solution's joint q."""
    rows: list[tuple[Cell, ...]] = []
    for name, point in _solutions(sol):
        if point is None:
            rows.append((name, None, None, None, None, None))
            continue
        joint = None if point.joint is None else ", ".join(
            f"{j} {_exact(v)}" for j, v in zip(JOINT, point.joint, strict=True))
        rows.append((name, *_pair(point.p1, digits), *_pair(point.p2, digits), joint))
    return Table(
        "players",
        "The Players on 5: each one's probability of drawing",
        (Column("Solution", key="solution"), *_number_columns("Player 1 draws", "player1_draws"),
         *_number_columns("Player 2 draws", "player2_draws"), Column("Joint play q", key="joint")),
        tuple(rows),
        ("0-4 always draw, 6-7 always stand; 1 = draw at 5, 0 = stand, between: draw with that "
         "probability.",
         "Joint play q (correlated): the coalition's probability of each joint pure strategy, "
         "Player 1's play then Player 2's (D draw, S stand); the draw columns are its marginals."),
    )


def hands_table(sol: BanqueSolution, digits: int = 10) -> Table:
    """Each hand's expected result per coup per unit staked on it, E X1 and E X2 (+1 win, 0
    push, -1 loss), under each solution: the figures to compare with per-hand ones (the
    summary's gains are theta E X1 and (1 - theta) E X2)."""
    rows: list[tuple[Cell, ...]] = []
    for name, point in _solutions(sol):
        if point is None:
            rows.append((name, None, None, None, None))
            continue
        rows.append((name, *_pair(point.x1, digits), *_pair(point.x2, digits)))
    return Table(
        "hands",
        "Each hand's result per unit staked on it: E X1 and E X2",
        (Column("Solution", key="solution"), *_number_columns("Player 1's hand, E X1", "player1_result"),
         *_number_columns("Player 2's hand, E X2", "player2_result")),
        tuple(rows),
        ("E X1, E X2: each hand's expected result per coup per unit staked on it (+1 win, 0 push, "
         "-1 loss), before the stakes weigh them; Player 1's gain in the summary is theta E X1, "
         "Player 2's (1 - theta) E X2.",),
    )


def _play(s: Surd, labels: dict[Surd, str]) -> str:
    """``D``, ``S``, the exact fraction, or the label of an irrational probability (given the
    next label ``m1``, ``m2``... the first time it is met)."""
    if s == 1:
        return "D"
    if s == 0:
        return "S"
    if s.rational is not None:
        return str(s.rational)
    return labels.setdefault(s, f"m{len(labels) + 1}")


def banker_grid(sol: BanqueSolution, which: str = "correlated", digits: int = 10) -> Table:
    """Banker's play under one solution (``which``: nash (the first equilibrium), independent,
    correlated), by his total, Player 1's hand (rows) and Player 2's hand (columns ``0`` ...
    ``9``, ``stood``, ``natural``).  An irrational probability of drawing (a surd, some 80
    characters) is a label ``m1``, ``m2``... in the grid, given exactly (and rounded to
    ``digits``) in a note under it.

    Raises:
        GameError: ``which`` names the independent solution where it does not exist.
    """
    point = _chosen(sol, which)
    if point is None:
        raise GameError(f"the independent cooperative equilibrium does not exist at theta = {sol.theta}")
    cells = {(c.total, c.first, c.second): i for i, c in enumerate(CELLS)}
    labels: dict[Surd, str] = {}
    rows: list[tuple[Cell, ...]] = []
    for total in range(8):
        plays = [point.banker[i] for key, i in cells.items() if key[0] == total]
        if all(p == plays[0] for p in plays) and plays[0] in (0, 1):
            rows.append((total, "any", *(_play(plays[0], labels) for _ in HANDS)))
            continue
        for first in HANDS:
            row: list[Cell] = [total, hand_text(first)]
            for second in HANDS:
                i = cells.get((total, first, second))
                row.append("" if i is None else _play(point.banker[i], labels))
            rows.append(tuple(row))
    name = {"nash": "the Nash equilibrium", "independent": "the independent cooperative equilibrium",
            "correlated": "the correlated cooperative equilibrium"}[which]
    notes = ["Columns 0-9, stood, natural: Player 2's hand; rows: Banker's total, then Player 1's hand.",
             "D = draw, S = stand, p/q = draw with that probability; a hand is a third card 0-9, "
             "stood, or natural (that Player is out, paid); 'any': every cell of that total alike."]
    notes += [f"{label} = draw with probability {s} ({s.decimal(digits)})" for s, label in labels.items()]
    return Table(
        "banker",
        f"Banker's play under {name} (his total; Player 1's hand by row, Player 2's by column)",
        (Column("Banker", "count", "banker"), Column("Player 1's hand \\ Player 2's", key="player1"),
         *(Column(hand_text(h), key=f"player2_{hand_text(h)}") for h in HANDS)),
        tuple(rows),
        tuple(notes),
    )


def _chosen(sol: BanqueSolution, which: str) -> Point | None:
    if which == "nash":
        return sol.nash.points[0]
    if which == "independent":
        return sol.independent.point
    return sol.correlated.point


def _play_word(s: Surd) -> str:
    return "draw" if s == 1 else "stand" if s == 0 else "mix"


def mixed_table(sol: BanqueSolution, digits: int = 10) -> Table:
    """Every cell where Banker is indifferent under some solution (drawing gains him exactly
    what standing does against its Players' strategies), with his exact probability of drawing
    and his play there (``mix``, or ``draw``/``stand`` though he could mix): the cells on which
    ``Banker unique`` rests."""
    return Table(
        "mixed",
        "Banker's indifferent cells: his probability of drawing, his play",
        _CELL_COLUMNS,
        _cell_rows(sol, digits, lambda point: point.indifferent_cells()),
        ("Every cell listed leaves Banker indifferent at that solution's Players' strategies "
         "(drawing gains him exactly what standing does); play: mix (he draws with that "
         "probability), or draw / stand though any mixture would do as well there.",
         "Banker unique (summary): whether his play in these cells is forced by the solution; every "
         "other cell has one best play."),
    )


def cells_table(sol: BanqueSolution, digits: int = 10) -> Table:
    """Every cell of every solution, one row each (the long form, for data)."""
    return Table("cells", "Banker's play in every cell", _CELL_COLUMNS,
                 _cell_rows(sol, digits, lambda point: range(len(CELLS))))


#: The columns of a table of Banker's cells, one row per (solution, cell).
_CELL_COLUMNS = (Column("Solution", key="solution"), Column("Banker", "count", "banker"),
                 Column("Player 1's hand", key="player1"), Column("Player 2's hand", key="player2"),
                 *_number_columns("Draw probability", "draw_probability"), Column("Play", key="play"))


def _cell_rows(sol: BanqueSolution, digits: int,
               cells: Callable[[Point], Iterable[int]]) -> tuple[tuple[Cell, ...], ...]:
    """One row per solution that exists and per cell of ``cells(point)``: the cell, Banker's
    probability of drawing there and his play."""
    rows: list[tuple[Cell, ...]] = []
    for name, point in _solutions(sol):
        if point is None:
            continue
        for c in cells(point):
            cell, s = CELLS[c], point.banker[c]
            rows.append((name, cell.total, hand_text(cell.first), hand_text(cell.second),
                         *_pair(s, digits), _play_word(s)))
    return tuple(rows)


def banque_tables(sol: BanqueSolution, names: Sequence[str] = DEFAULT_TABLES, digits: int = 10,
                  banker: str = "correlated") -> list[Table]:
    """The tables ``names`` (of :data:`BANQUE_TABLES`) of a solution, in that order; the grid
    shows Banker's play under ``banker`` (a name of :data:`SOLUTIONS`)."""
    out: list[Table] = []
    for n in names:
        if n == "banker":
            out.append(banker_grid(sol, banker, digits))
        else:
            build = {"summary": summary_table, "players": players_table, "hands": hands_table,
                     "mixed": mixed_table, "cells": cells_table}[n]
            out.append(build(sol, digits))
    return out


def study_table(solutions: Sequence[BanqueSolution], digits: int = 10) -> Table:
    """The solutions over a list of theta: the correlated value, the Nash equilibria's draws and
    Banker's gain, and whether the independent cooperative equilibrium exists."""
    rows: list[tuple[Cell, ...]] = []
    for sol in solutions:
        ind = sol.independent
        nash = sol.nash.points
        p1 = "; ".join(str(_exact(p.p1)) for p in nash) or None
        p2 = "; ".join(str(_exact(p.p2)) for p in nash) or None
        banker = nash[0].gains[2] if len(nash) == 1 else None
        rows.append((
            Fraction(sol.theta), *_pair(Surd(sol.correlated.value), digits), p1, p2,
            *_pair(banker, digits), len(nash) if sol.nash.complete else "undecided",
            _yes(ind.exists),
            None if ind.point is None else str(_exact(ind.point.p1)),
            None if ind.point is None else str(_exact(ind.point.p2)),
            "yes" if sol.verified else "NO",
        ))
    return Table(
        "study",
        "Baccara banque over the stake theta on Player 1's hand",
        (Column("Theta", key="theta"), *_number_columns("Correlated value", "correlated_value"),
         Column("Nash p1", key="nash_p1"), Column("Nash p2", key="nash_p2"),
         *_number_columns("Nash Banker's gain", "nash_banker_gain"),
         Column("Nash equilibria", "count", "nash_count"),
         Column("Independent exists", key="independent_exists"),
         Column("Independent p1", key="independent_p1"),
         Column("Independent p2", key="independent_p2"), Column("Verified", key="verified")),
        tuple(rows),
        ("Correlated value: the coalition's gain per coup (theta E X1 + (1 - theta) E X2) at the "
         "correlated cooperative equilibrium; Banker's gain there is its negative.",
         "Nash p1, p2: each Player's probability of drawing at 5 at every Nash equilibrium (several "
         "separated by ';'); Nash equilibria: how many (every one sought).",
         "Independent: whether the independent cooperative equilibrium exists, and its draws."),
    )
