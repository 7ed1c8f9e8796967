"""``chemin-de-fer`` and ``baccara-banque``: baccara chemin de fer and baccara banque solved as
games, exactly (:mod:`analyzer.games`)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import click

from analyzer.cli.common import (
    INPUTS,
    UsageProblem,
    WholeNumber,
    command_line,
    emit,
    guard,
    note_inputs,
    output_options,
    table_names_of,
)
from analyzer.core.exact import parse_exact
from analyzer.games.banque import check_theta
from analyzer.games.banque_solve import BanqueSolution, solve_banque
from analyzer.games.model import MAX_DECKS, build, check_model, shoe_game, with_replacement
from analyzer.games.rooms import ROOMS, Room, find_room, room_report, room_toml
from analyzer.games.solve import MAX_COMMISSION, Solution, solve
from analyzer.output.banque_tables import BANQUE_TABLES, SOLUTIONS, banque_tables
from analyzer.output.banque_tables import DEFAULT_TABLES as BANQUE_DEFAULT_TABLES
from analyzer.output.banque_tables import study_table as banque_study_table
from analyzer.output.game_tables import DEFAULT_TABLES, GAME_TABLES, game_tables, room_table, study_table
from analyzer.output.render import Table, provenance, render

STUDY_DECKS = range(1, 9)
#: The stakes of ``baccara-banque --study``: 1/10, 2/10, ..., 9/10 (1/2 among them).
STUDY_THETAS = tuple(Fraction(k, 10) for k in range(1, 10))


def parse_commission(text: str) -> Fraction:
    """``5%``, ``0.05`` or ``1/20`` as an exact fraction, 0 to 1/10.

    Raises:
        UsageProblem: not a number, or outside 0 to 10% (the message echoes ``text``).
    """
    raw = text.strip()
    if raw.endswith("%"):
        alpha = parse_exact(raw[:-1], "--commission") / 100
    else:
        alpha = parse_exact(raw, "--commission")
    if not 0 <= alpha <= MAX_COMMISSION:
        raise UsageProblem(
            f"bad --commission {text!r}: the commission on Banker wins is 0 to 10% (0 to 1/10)"
        )
    return alpha


def read_room(spec: str, output: str | None) -> Room:
    """The room ``spec`` names; a room file and the tableau file it names are remembered as
    inputs, and ``output`` may be neither (refused before any solving).

    Raises:
        GameError: an unknown room or a bad room file.
        OutputError: ``output`` is one of the room's files.
    """
    room = find_room(spec)
    if all(room is not shipped for shipped in ROOMS.values()):  # read from a file
        note_inputs([spec])
    if room.tableau_file is not None:
        note_inputs([room.tableau_file])
    if output is not None and INPUTS:
        from analyzer.output.files import refuse_inputs  # lazy: start-up time

        refuse_inputs([output], INPUTS)
    return room


def _given(ctx: click.Context, *names: str) -> list[str]:
    """The options among ``names`` (parameter names) given on the command line, as typed."""
    given = []
    for param in ctx.command.params:
        if param.name in names and ctx.get_parameter_source(param.name) not in (
            click.core.ParameterSource.DEFAULT, None
        ):
            given.append(max(param.opts, key=len))
    return given


@click.command("chemin-de-fer")
@click.option("--model", default="B2", show_default=True, metavar="A1|B2|B3",
              help="A1: with replacement, each side sees its total (Kemeny and Snell); B2: d decks, the "
                   "Banker sees his composition; B3: both see their compositions.")
@click.option("--decks", type=WholeNumber(1, MAX_DECKS), default=None, metavar="D",
              help="Decks in the shoe, dealt without replacement (B2, B3; default 6; not for A1).")
@click.option("--commission", "commission_text", default="0", show_default=True, metavar="ALPHA",
              help="Commission on Banker wins, 0 to 10%: 5%, 0.05 or 1/20 (a bimatrix game; "
                   "B3: one equilibrium).")
@click.option("--room", "room_spec", default=None, metavar="NAME|FILE",
              help=f"Also measure a room's fixed rules against the equilibrium: {', '.join(ROOMS)} or a "
                   "room file (TOML); no commission.")
@click.option("--room-toml", "room_toml_spec", default=None, metavar="NAME|FILE",
              help="Print a room's rules as a room file (TOML) and stop.")
@click.option("--study", is_flag=True,
              help="The value as the shoe grows: the model on 1-8 decks and the with-replacement limit (A1).")
@click.option("--table", "table_names", default=",".join(DEFAULT_TABLES), show_default=True, metavar="NAMES",
              help=f"Tables, comma-separated: {', '.join(GAME_TABLES)}, or all.")
@output_options
@guard
def chemin_de_fer(
    model: str,
    decks: int | None,
    commission_text: str,
    room_spec: str | None,
    room_toml_spec: str | None,
    study: bool,
    table_names: str,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
) -> None:
    """Chemin de fer solved as a game, exactly: the value to the Player (fraction and decimal),
    the Player's probability of drawing on 5 at each of his information sets, the Banker's play
    in every cell (draw, stand, or draw with an exact probability), whether each is unique, each
    equilibrium verified by exact best responses.  With --commission, the Nash equilibria and
    each side's gain."""
    ctx = click.get_current_context()
    if room_toml_spec is not None:
        ignored = _given(ctx, "model", "decks", "commission_text", "room_spec", "study", "table_names",
                         "fmt", "digits", "raw_csv")
        if ignored:
            raise UsageProblem(
                f"--room-toml prints a room file and solves nothing: give no {', '.join(ignored)} with it"
            )
        emit(room_toml(read_room(room_toml_spec, output)), output)
        return
    if study:
        ignored = _given(ctx, "room_spec", "table_names")
        if ignored:
            raise UsageProblem(
                f"--study makes one table, the value as the shoe grows: give no {', '.join(ignored)} with it"
            )
    name, d = check_model(model, decks)
    alpha = parse_commission(commission_text)
    names = table_names_of(table_names, GAME_TABLES)
    room = read_room(room_spec, output) if room_spec is not None else None
    if room is not None and alpha:
        raise UsageProblem("--room measures the zero-sum game: give no --commission with it")
    tables: list[Table] = []
    if study:
        if name == "A1":
            raise UsageProblem("--study grows the shoe of B2 or B3: give --model B2 or B3")
        if decks is not None:
            raise UsageProblem("--study solves 1-8 decks and the limit: give no --decks with it")
        rows: list[tuple[str, int | None, Solution]] = [
            (name, k, solve(shoe_game(name, k), alpha, uniqueness=False)) for k in STUDY_DECKS
        ]
        rows.append(("A1", None, solve(with_replacement(), alpha)))
        tables.append(study_table(rows))
        shoe = f"{name} on 1-8 decks and A1"
    else:
        game = build(name, d)
        solution = solve(game, alpha)
        tables += game_tables(solution, names)
        if room is not None:
            tables.append(room_table(room_report(game, room, solution)))
        shoe = game.describe()
    info = provenance(command_line(), shoe, None, model=name, commission=str(alpha))
    info.pop("rules")
    emit(render(tables, fmt, digits, info, raw_csv=raw_csv), output)


def parse_theta(text: str, option: str = "--theta") -> Fraction:
    """``1/2``, ``0.3`` or ``30%`` as an exact fraction strictly between 0 and 1 (read by
    :func:`~analyzer.games.banque.check_theta`, as ``solve_banque`` reads text).

    Raises:
        GameError: not a stake; one line that names ``option``, quotes ``text`` and says what a
            stake is.
    """
    return check_theta(text, option)


def parse_thetas(text: str) -> tuple[list[Fraction], list[str]]:
    """A comma-separated list of stakes (each as :func:`parse_theta` reads it), in order, once
    each; and a note for each stake written more than once (``1/2,2/4,50%``: one stake).

    Raises:
        UsageProblem: an empty list or an empty item (``1/2,,3/10``, ``,1/2``, ``1/2,``).
        GameError: a bad stake in it.
    """
    items = text.split(",")
    if not text.strip() or any(not t.strip() for t in items):
        raise UsageProblem(
            f"bad --thetas {text!r}: give stakes separated by single commas, such as 1/10,1/2,0.9"
        )
    seen: dict[Fraction, list[str]] = {}
    for t in items:
        seen.setdefault(parse_theta(t, "--thetas"), []).append(t.strip())
    notes = [f"--thetas: {', '.join(spelt)} are one stake, {theta}, solved once."
             for theta, spelt in seen.items() if len(spelt) > 1]
    return list(seen), notes


@click.command("baccara-banque")
@click.option("--theta", "theta_text", default=None, metavar="THETA",
              help="The stake on Player 1's hand, strictly between 0 and 1 (1 - THETA on Player 2's): "
                   "1/2, 0.3 or 30%.")
@click.option("--thetas", "thetas_text", default=None, metavar="LIST",
              help="The solutions over a list of stakes, comma-separated (one table).")
@click.option("--study", is_flag=True,
              help="The solutions over theta = 1/10, 2/10, ..., 9/10 (one table; --thetas for others).")
@click.option("--banker", "banker_of", type=click.Choice(SOLUTIONS), default="correlated", show_default=True,
              help="The solution whose Banker the grid (table banker) shows; nash: the first equilibrium.")
@click.option("--table", "table_names", default=",".join(BANQUE_DEFAULT_TABLES), show_default=True,
              metavar="NAMES", help=f"Tables, comma-separated: {', '.join(BANQUE_TABLES)}, or all.")
@output_options
@guard
def baccara_banque(
    theta_text: str | None,
    thetas_text: str | None,
    study: bool,
    banker_of: str,
    table_names: str,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
) -> None:
    """Baccara banque solved as a three-person game (two Players, Banker; cards dealt with
    replacement), exactly: the Nash equilibria, the independent and the correlated cooperative
    equilibria, each side's gain (fraction and decimal), the Players' probabilities of drawing
    at 5, Banker's play in his 1,144 cells, each solution verified by exact best responses."""
    ctx = click.get_current_context()
    if raw_csv and fmt != "csv":
        raise UsageProblem("--raw-csv changes only CSV cells: give it with --format csv")
    sweep = study or thetas_text is not None
    if sweep:
        ignored = _given(ctx, "theta_text", "banker_of", "table_names")
        if study and thetas_text is not None:
            ignored.insert(0, "--thetas")
        if ignored:
            raise UsageProblem(
                f"--study and --thetas make one table over the stakes: give no {', '.join(ignored)} with it"
            )
        thetas, merged = parse_thetas(thetas_text) if thetas_text is not None else (list(STUDY_THETAS), [])
        solutions: list[BanqueSolution] = [solve_banque(t) for t in thetas]
        study_table = banque_study_table(solutions, digits)
        tables = [replace(study_table, notes=study_table.notes + tuple(merged))]
        shown = ", ".join(str(t) for t in thetas)
    else:
        if theta_text is None:
            raise UsageProblem(
                "give --theta (the stake on Player 1's hand, e.g. 1/2), or --study or --thetas")
        theta = parse_theta(theta_text)
        names = table_names_of(table_names, BANQUE_TABLES)
        if len(set(names)) < len(names):
            raise UsageProblem(f"bad --table {table_names!r}: name each table once")
        if "banker" not in names and _given(ctx, "banker_of"):
            raise UsageProblem("--banker chooses whose Banker the grid shows: give it with a --table "
                               "that includes banker (or all)")
        solution = solve_banque(theta)
        if "banker" in names and banker_of == "independent" and solution.independent.point is None:
            raise UsageProblem(
                "--banker independent: the independent cooperative equilibrium does not exist "
                f"at theta = {theta}"
            )
        tables = banque_tables(solution, names, digits, banker_of)
        shown = str(theta)
    info = provenance(command_line(), "cards dealt with replacement", None, theta=shown)
    info.pop("rules")
    emit(render(tables, fmt, digits, info, raw_csv=raw_csv), output)
