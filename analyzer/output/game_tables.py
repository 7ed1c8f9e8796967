"""Chemin de fer's solutions as tables: the value, each side's equilibrium strategy, a room's
rules against it, and the value as the shoe grows (:mod:`analyzer.games`'s results, rendered by
:mod:`analyzer.output.render` in every format).

Reading a strategy: the Player's number at an information set is his probability of drawing
there (1 = always draw, 0 = always stand); in the Banker's grid each cell says ``D`` (draw),
``S`` (stand), a fraction (draw with that probability) or ``.`` (no deal reaches the cell), and
``D*`` / ``S*`` where the pure play is the opposite of the Punto Banco tableau's.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from analyzer.core.tableau import STANDARD
from analyzer.games.model import THIRDS, Game
from analyzer.games.rooms import RoomReport
from analyzer.games.solve import Equilibrium, Solution
from analyzer.output.render import Cell, Column, Table

GAME_TABLES = ("summary", "player", "banker", "mixed", "cells")
DEFAULT_TABLES = ("summary", "player", "banker", "mixed")


def _unique_text(flag: bool | None) -> str:
    return "undecided" if flag is None else "yes" if flag else "no"


def _play(q: Fraction) -> str:
    return "draw" if q == 1 else "stand" if q == 0 else "mix"


def summary_table(solution: Solution) -> Table:
    """One row per equilibrium: each side's gain per coup, whether the strategies are unique."""
    game = solution.game
    rows: list[tuple[Cell, ...]] = []
    several = solution.value is None and len(solution.equilibria) > 1
    for i, eq in enumerate(solution.equilibria, 1):
        # several Nash equilibria: whether the Banker's strategy is the only one for this p
        banker = eq.banker_unique if several else solution.banker_unique
        rows.append((i, eq.player_gain, eq.banker_gain, _unique_text(solution.player_unique),
                     _unique_text(banker), "yes" if solution.verified else "NO"))
    notes = [f"Gains per coup; commission {solution.commission} on Banker wins; {solution.method}; "
             "verified: no pure deviation of either side gains (exact best responses)."]
    if solution.value is not None:
        notes.append("Zero-sum: the Player's gain at equilibrium is the value of the game; "
                     "the Banker's is its negative.")
    else:
        notes.append("A bimatrix game: each side's gain per coup at the equilibrium, "
                     "the Banker's net of the commission.")
    for lo, hi in solution.continua:
        notes.append(f"Every p from {lo} to {hi} is also an equilibrium (the Player is indifferent there).")
    if solution.player_unique is None or solution.banker_unique is None:
        notes.append("Uniqueness is not decided here: this equilibrium was found and verified, "
                     "others may exist.")
    if solution.value is not None:
        title = f"Chemin de fer, {game.describe()}: the value and the equilibria"
    else:
        title = (f"Chemin de fer, {game.describe()}, commission {solution.commission}: "
                 "the Nash equilibria and each side's gain (a bimatrix game has no value)")
    return Table(
        "summary",
        title,
        (Column("Equilibrium", "count", "equilibrium"), Column("Player's gain", "both", "player_gain"),
         Column("Banker's gain", "both", "banker_gain"), Column("Player unique", key="player_unique"),
         Column("Banker unique", key="banker_unique"), Column("Verified", key="verified")),
        tuple(rows),
        tuple(notes),
    )


def player_table(solution: Solution) -> Table:
    """The Player's probability of drawing at each of his information sets at 5."""
    rows: list[tuple[Cell, ...]] = []
    for i, eq in enumerate(solution.equilibria, 1):
        for name, p in zip(solution.game.player_sets, eq.player, strict=True):
            rows.append((i, "total 5" if name == "5" else f"5 as {name}", p, _play(p)))
    return Table(
        "player",
        "The Player on 5: his probability of drawing at each information set",
        (Column("Equilibrium", "count", "equilibrium"), Column("Information set", key="information_set"),
         Column("Draw probability", "both", "draw_probability"), Column("Play", key="play")),
        tuple(rows),
        ("0-4 always draw, 6-7 always stand; 1 = draw, 0 = stand, between: draw with that probability.",),
    )


def _hands(game: Game) -> list[tuple[int, ...]]:
    return list(dict.fromkeys(c.banker for c in game.cells))


def banker_grid(solution: Solution, eq: Equilibrium | None = None) -> Table:
    """The Banker's play in every cell, one row per hand (total or composition), one column per
    Player's third card and ``stood``: D, S, the exact draw probability, or ``.`` (unreached);
    ``D*`` / ``S*`` where the pure play is the opposite of the Punto Banco tableau's (a mixed
    cell is neither).  The ``Total`` column is shown only when hands are compositions (B2, B3):
    in A1 the hand is its total."""
    game = solution.game
    chosen = eq if eq is not None else solution.equilibria[0]
    where = {(c.banker, c.third): i for i, c in enumerate(game.cells)}
    firsts = [game.cells[where[(hand, THIRDS[0])]] for hand in _hands(game)]
    by_total = all(first.hand == str(first.total) for first in firsts)
    rows: list[tuple[Cell, ...]] = []
    departures = 0
    for first in firsts:
        cells: list[Cell] = [first.hand] if by_total else [first.hand, first.total]
        for third in THIRDS:
            c = where.get((first.banker, third))
            if c is None:
                cells.append("")
                continue
            q = chosen.banker[c]
            if not game.reached[c]:
                cells.append(".")
            elif 0 < q < 1:
                cells.append(str(q))
            else:
                play = "D" if q == 1 else "S"
                departs = (q == 1) != STANDARD.banker_draws(first.total, third)
                departures += departs
                cells.append(play + "*" if departs else play)
        rows.append(tuple(cells))
    columns = (Column("Banker", key="banker"), *(() if by_total else (Column("Total", "count", "total"),)),
               *(Column("v stood", key="stood") if t is None else Column(f"v {t}", key=f"third_{t}")
                 for t in THIRDS))
    return Table(
        "banker",
        "The Banker's play in every cell (his hand against the Player's third card, or stood)",
        columns,
        tuple(rows),
        ("D = draw, S = stand, p/q = draw with that probability, . = no deal reaches the cell.",
         f"D* / S* = the opposite of the Punto Banco tableau's play ({departures} such cells; "
         "a mixed cell departs from it too)."),
    )


def mixed_table(solution: Solution) -> Table:
    """The cells where an equilibrium Banker mixes, or is left indifferent, with the exact
    probability of drawing."""
    game = solution.game
    rows: list[tuple[Cell, ...]] = []
    for i, eq in enumerate(solution.equilibria, 1):
        shown = {c for c, q in enumerate(eq.banker) if 0 < q < 1} | set(eq.free_cells)
        for c in sorted(shown):
            cell = game.cells[c]
            rows.append((i, cell.hand, cell.third_text, eq.banker[c]))
    return Table(
        "mixed",
        "The Banker's mixed cells: his probability of drawing",
        (Column("Equilibrium", "count", "equilibrium"), Column("Banker", key="banker"),
         Column("Player's third card", key="third"), Column("Draw probability", "both", "draw_probability")),
        tuple(rows),
        ("Each cell listed leaves the Banker indifferent at the Player's equilibrium strategy.",),
    )


def cells_table(solution: Solution) -> Table:
    """Every cell of every equilibrium, one row each (the long form of the grid, for data)."""
    game = solution.game
    rows: list[tuple[Cell, ...]] = []
    for i, eq in enumerate(solution.equilibria, 1):
        for c, cell in enumerate(game.cells):
            q = eq.banker[c]
            rows.append((i, cell.hand, cell.total, cell.third_text, q,
                         "unreached" if not game.reached[c] else _play(q)))
    return Table(
        "cells",
        "The Banker's play in every cell",
        (Column("Equilibrium", "count", "equilibrium"), Column("Banker", key="banker"),
         Column("Total", "count", "total"), Column("Player's third card", key="third"),
         Column("Draw probability", "both", "draw_probability"), Column("Play", key="play")),
        tuple(rows),
    )


def game_tables(solution: Solution, names: Sequence[str] = DEFAULT_TABLES) -> list[Table]:
    """The tables ``names`` (of :data:`GAME_TABLES`) of a solution, in that order."""
    build = {"summary": summary_table, "player": player_table, "banker": banker_grid,
             "mixed": mixed_table, "cells": cells_table}
    return [build[n](solution) for n in names]


def room_table(report: RoomReport) -> Table:
    """A room's rules against the equilibrium (the Player's gains per coup)."""
    room = report.room
    rows: list[tuple[Cell, ...]] = [
        ("Value of the game, both sides free", report.value),
        (f"Value under the room's rules ({room.name})", report.room_value),
        ("The room's Banker against the Player's best response", report.player_best),
        ("The room's Player against the Banker's best response", report.banker_best),
        ("What the room's Banker gives up against a best response", report.banker_loss),
        ("What the room's Player gives up against a best response", report.player_loss),
    ]
    plays = ", ".join(
        f"{'total 5' if s == '5' else s}: {p}"
        for s, p in zip(report.game.player_sets, report.player, strict=True)
    )
    return Table(
        "room",
        f"{room.title}: against the equilibrium ({report.game.describe()})",
        (Column("Quantity", key="quantity"), Column("Player's gain per coup", "both", "player_gain")),
        tuple(rows),
        (f"The room's options: Banker {room.options_text()}; the Player's 5: {room.player_on_5} "
         f"(in the room he draws with probability {plays}).",
         "Gains are the Player's; the Banker's are their negatives (no commission)."),
    )


def study_table(rows: Sequence[tuple[str, int | None, Solution]]) -> Table:
    """The value as the shoe grows: one row per (model, decks) solution; decks None is the
    with-replacement limit."""
    out: list[tuple[Cell, ...]] = []
    for model, decks, solution in rows:
        eq = solution.equilibria[0]
        mixed = [solution.game.cells[c].label for c, q in enumerate(eq.banker) if 0 < q < 1]
        plays = " ".join(str(p) for p in eq.player)
        out.append((model, "with replacement" if decks is None else str(decks), eq.player_gain,
                    eq.banker_gain, plays, ", ".join(mixed) or "none"))
    return Table(
        "study",
        "The value of chemin de fer to the Player as the shoe grows",
        (Column("Model", key="model"), Column("Decks", key="decks"), Column("Value", "both", "value"),
         Column("Banker's gain", "both", "banker_gain"),
         Column("Player draws on 5 with", key="player_draws"), Column("Banker mixes at", key="banker_mixes")),
        tuple(out),
        ("The with-replacement limit of B2 and B3 is A1: dealt with replacement, a side's "
         "composition tells nothing about the other cards.",
         "Value: the Player's gain per coup at the (first) equilibrium; with a commission the "
         "Banker's gain is net of it and no longer the Player's loss."),
    )
