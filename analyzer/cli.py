"""The ``punto-banco`` command line: parse, call the library, print (the only click import).

Library errors become one-line messages with exit code 2; no command leaves a partial file.
"""

from __future__ import annotations

import functools
import os
import shlex
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from analyzer import __version__
from analyzer.errors import AnalyzerError
from analyzer.rules import TABLEAU

FuncT = TypeVar("FuncT", bound=Callable[..., Any])



class UsageProblem(click.ClickException):
    """A bad input reported as one line, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)


def _guard(func: FuncT) -> FuncT:
    """Turn library errors (bad cards, shoes, bets, files) into exit-code-2 one-liners."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AnalyzerError as exc:
            raise UsageProblem(str(exc)) from None
        except OSError as exc:
            raise UsageProblem(f"{exc.filename or ''}: {exc.strerror or exc}".strip(": ")) from None

    return wrapper  # type: ignore[return-value]


def shoe_options(func: FuncT) -> FuncT:
    """--decks / --shoe / --remove."""
    func = click.option("--remove", "remove", default=None, metavar="CARDS",
                        help="Cards to take out of the shoe, e.g. 'K 5h 5 A' (suit optional).")(func)
    func = click.option("--shoe", "shoe_text", default=None, metavar="COUNTS",
                        help="Shoe as 13 counts A,2,...,9,10,J,Q,K (e.g. 32,32,...), as RANK=COUNT "
                        "pairs (e.g. 8=2,K=3), or with suits: 52 counts or pairs such as Kh=2.")(func)
    func = click.option("--decks", type=click.IntRange(min=1), default=None,
                        help="Standard shoe of N 52-card decks (default 8).")(func)
    return func


def output_options(func: FuncT) -> FuncT:
    """--format / --digits / --output."""
    from analyzer.report import FORMATS

    func = click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
                        help="Write to this file (atomically) instead of standard output.")(func)
    func = click.option("--digits", type=click.IntRange(min=0, max=1000), default=10, show_default=True,
                        help="Decimals shown, rounded exactly (never through a float).")(func)
    func = click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
                        help="Output format; JSON keeps every exact value.")(func)
    return func


def build_shoe(decks: int | None, shoe_text: str | None, remove: str | None) -> Any:
    """The shoe chosen by the shared options (default: 8 decks)."""
    from analyzer.shoe import Shoe

    if decks is not None and shoe_text is not None:
        raise UsageProblem("give --decks or --shoe, not both")
    shoe = Shoe.parse(shoe_text) if shoe_text is not None else Shoe.standard(decks or 8)
    if remove:
        shoe = shoe.remove(remove)
    return shoe


def emit(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically (a temporary file renamed into place)."""
    if output is None:
        click.echo(text, nl=False)
        return
    write_atomic(Path(output), text)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def meta(command: str, shoe: Any) -> dict[str, object]:
    """What produced a table: tool and version, the command, the rules, the shoe."""
    return {
        "generated_by": f"punto-banco-analyzer {__version__}",
        "command": command,
        "rules": TABLEAU,
        "shoe": shoe.describe(),
    }


def _command_line() -> str:
    return "punto-banco " + " ".join(shlex.quote(a) for a in sys.argv[1:])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="punto-banco")
def main() -> None:
    """Exact combinatorial analyser for Punto Banco (baccarat).

    Every probability is exact: the analyser counts every ordered way the coup can be dealt
    from the shoe, with integer weights, under the fixed tableau.
    """


@main.command()
@shoe_options
@click.option("--table", "table_names", default="outcomes,bets", show_default=True, metavar="NAMES",
              help="Tables to print, comma-separated: outcomes, bets, totals, cards, naturals, or all.")
@output_options
@_guard
def analyze(decks: int | None, shoe_text: str | None, remove: str | None, table_names: str,
            fmt: str, digits: int, output: str | None) -> None:
    """Print the exact outcome and main-bet tables for a shoe (default: 8 decks)."""
    from analyzer.analysis import analyze as run
    from analyzer.report import render
    from analyzer.tables import TABLE_NAMES, analysis_tables

    names = _table_names(table_names, TABLE_NAMES)
    shoe = build_shoe(decks, shoe_text, remove)
    tables = analysis_tables(run(shoe), names)
    emit(render(tables, fmt, digits, meta(_command_line(), shoe)), output)


def _table_names(text: str, known: Sequence[str]) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return list(known)
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise UsageProblem(f"bad --table {text!r}: use {', '.join(known)} or all (comma-separated)")
    return names


@main.command()
@click.argument("cards", nargs=-1, required=True)
@_guard
def deal(cards: tuple[str, ...]) -> None:
    """Resolve one coup from CARDS in dealing order (Player, Banker, Player, Banker, then third
    cards), e.g. ``punto-banco deal 2 4 3 10 6 A``."""
    from analyzer.cards import parse_cards
    from analyzer.coup import resolve

    parsed = parse_cards(list(" ".join(cards).replace(",", " ").split()))
    coup = resolve(parsed)
    click.echo(coup.announce())
    for line in _deal_story(coup):
        click.echo(f"  {line}")
    if len(parsed) > coup.cards_used:
        extra = " ".join(str(c) for c in parsed[coup.cards_used:])
        click.echo(f"  (the coup used {coup.cards_used} cards; not dealt: {extra})")


def _deal_story(coup: Any) -> list[str]:
    from analyzer.cards import hand_total
    from analyzer.rules import banker_rule_text, player_rule_text

    p2 = hand_total([c.point for c in coup.player[:2]])
    b2 = hand_total([c.point for c in coup.banker[:2]])
    player, banker = coup.player, coup.banker
    lines = [f"Player {player[0]} {player[1]} = {p2}; Banker {banker[0]} {banker[1]} = {b2}"]
    if coup.natural:
        lines.append("A natural: both hands stand.")
        return lines
    lines.append(player_rule_text(p2) + (f": draws {coup.player[2]}" if coup.player_drew else "."))
    third = coup.player[2].point if coup.player_drew else None
    lines.append(banker_rule_text(b2, third) + (f": draws {coup.banker[2]}" if coup.banker_drew else "."))
    return lines


@main.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="results", show_default=True,
              help="Folder to write the generated tables into.")
@_guard
def tables(out_dir: str) -> None:
    """Regenerate every committed file in results/ (analysis tables for 1, 2, 4, 6, 8 decks and
    the bet catalogue for 1, 6, 8 decks, in Markdown and JSON)."""
    from analyzer.results import generate

    files = generate()  # everything is built in memory first: no partial output on error
    for name, text in files.items():
        write_atomic(Path(out_dir) / name, text)
    click.echo(f"wrote {len(files)} files to {out_dir}")


@main.command()
@shoe_options
@click.option("--bet", "bet_specs", multiple=True, metavar="NAME[:PARAM]",
              help="A catalogue bet (repeatable), e.g. banker, banker:4, tie:9, dragon-7, egalite:5.")
@click.option("--bet-file", "bet_files", multiple=True, type=click.Path(dir_okay=False),
              help="A TOML file of user-defined bets (repeatable).")
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option("--events", is_flag=True, help="Also print each bet's events table.")
@click.option("--fair-pay", is_flag=True, help="Also print the pay at which each adjustable bet is fair.")
@click.option("--target-edge", default=None, metavar="PERCENT",
              help="Also print the pay giving this house edge, e.g. 1.5 (percent).")
@click.option("--list", "list_only", is_flag=True, help="List the catalogue and exit.")
@output_options
@_guard
def bets(decks: int | None, shoe_text: str | None, remove: str | None, bet_specs: tuple[str, ...],
         bet_files: tuple[str, ...], all_bets: bool, events: bool, fair_pay: bool,
         target_edge: str | None, list_only: bool, fmt: str, digits: int, output: str | None) -> None:
    """Exact house edge, EV, hit frequency and SD of bets (default: the main bets) on a shoe."""
    from analyzer.betting import bet_report, catalogue_listing
    from analyzer.report import render

    if list_only:
        emit(render([catalogue_listing()], fmt, digits), output)
        return
    shoe = build_shoe(decks, shoe_text, remove)
    tables = bet_report(shoe, bet_specs, bet_files, all_bets=all_bets, events=events,
                        fair_pay=fair_pay, target_edge=target_edge)
    emit(render(tables, fmt, digits, meta(_command_line(), shoe)), output)


if __name__ == "__main__":  # pragma: no cover
    main()
