"""The commands about one shoe: ``analyze``, ``deal``, ``rules``, ``bets``, ``tables``."""

from __future__ import annotations

import os
from typing import Any

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_inputs,
    bet_options,
    bets_named,
    emit,
    folder_not_dash,
    guard,
    output_options,
    rules_inputs,
    rules_option,
    shoes_and_tableau,
    sweep_meta,
    sweep_shoe_options,
    sweep_tables,
    table_names_of,
    tableau_of,
)
from analyzer.cli.process import echo
from analyzer.limits import MAX_BETS_ENV, MAX_BETS_PER_FILE
from analyzer.text import printable


@click.command()
@sweep_shoe_options
@click.option(
    "--table",
    "table_names",
    default="outcomes,bets",
    show_default=True,
    metavar="NAMES",
    help="Tables to print, comma-separated: outcomes, bets, totals, cards, naturals, or all.",
)
@output_options
@guard
def analyze(
    decks: tuple[int, ...] | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    table_names: str,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
) -> None:
    """Print the exact outcome and main-bet tables for a shoe (default: 8 decks); with a list or
    range of deck counts (--decks 1,6,8 or 1-8), one table each with rows for every count."""
    from analyzer.engine.evaluate import one_shot  # lazy: start-up time
    from analyzer.engine.pricing import analyze as run  # lazy: start-up time
    from analyzer.output.render import context_of, render  # lazy: start-up time
    from analyzer.output.tables import TABLE_NAMES, analysis_tables  # lazy: start-up time

    names = table_names_of(table_names, TABLE_NAMES)
    shoes, tableau = shoes_and_tableau(decks, shoe_text, remove, rules)
    with one_shot():
        tables = sweep_tables(shoes, tableau, lambda shoe: analysis_tables(run(shoe, tableau=tableau), names))
    info = sweep_meta(shoes, tableau)
    context = context_of(shoes[0], tableau)
    emit(render(tables, fmt, digits, info, raw_csv=raw_csv, context=context), output)


@click.command()
@click.argument("cards", nargs=-1, required=True)
@rules_option
@bet_options(
    "Also settle this bet on the coup (repeatable), e.g. banker, dragon-7, perfect-pair.",
    "Also settle every bet of this TOML file (repeatable).",
)
@click.option(
    "--stake",
    default="1",
    show_default=True,
    metavar="AMOUNT",
    help="Stake per bet, for the net amounts shown (exact: 10, 2.5, 1/2).",
)
@guard
def deal(
    cards: tuple[str, ...], rules: str, bet_specs: tuple[str, ...], bet_files: tuple[str, ...], stake: str
) -> None:
    """Resolve one coup from CARDS in dealing order (Player, Banker, Player, Banker, then third
    cards), e.g. ``punto-banco deal 2 4 3 10 6 A``; with --bet, settle bets on it (each bet's
    event and net win for the stake), as a test lab checks a table's payouts by hand.  Give the
    cards with suits (``Kh``) for bets that read suits."""
    from analyzer.bets.main import parse_amount  # lazy: start-up time
    from analyzer.bets.settle import deal as settle  # lazy: start-up time
    from analyzer.core.cards import parse_cards  # lazy: start-up time
    from analyzer.output.deal import deal_lines  # lazy: start-up time
    from analyzer.studies.bet_result import choose_bets  # lazy: start-up time

    tableau = tableau_of(rules)
    parsed = parse_cards(list(" ".join(cards).replace(",", " ").split()))
    amount = parse_amount(stake, "--stake")
    if amount <= 0:
        raise UsageProblem(f"bad --stake {stake!r}: a stake must be greater than 0")
    chosen = choose_bets(bet_specs, bet_files) if bets_named(bet_specs, bet_files) else []
    for line in deal_lines(settle(parsed, tableau, chosen, amount)):  # settled before printing
        show(line)


def show(line: str) -> None:
    """Print one line of text that may hold a file's own words (a rules file's title, a bet's
    event) with its control characters escaped (:func:`analyzer.text.printable`)."""
    echo(printable(line))


@click.command("rules")
@click.argument("spec", required=False, default="standard", metavar="[NAME|FILE]")
@click.option("--toml", "toml_only", is_flag=True, help="Print only the TOML (to save as a rules file).")
@click.option("--list", "list_only", is_flag=True, help="List the registered rule sets and exit.")
@guard
def rules_command(spec: str, toml_only: bool, list_only: bool) -> None:
    """Print a tableau (default: standard) as the Table of Play and as the TOML rules file that
    --rules reads back."""
    from analyzer.core.tableau import TABLEAUX  # lazy: start-up time

    if list_only:
        for name, t in TABLEAUX.items():
            show(f"{name:<34} {t.title} (fingerprint {t.fingerprint})")
        return
    tableau = tableau_of(spec)
    if toml_only:
        echo(tableau.to_toml(), nl=False)  # its strings are escaped (Tableau.to_toml)
        return
    for line in tableau.table_of_play():  # the title and source are the file's own text
        show(line)
    echo(f"Fingerprint: {tableau.fingerprint}")
    echo("")
    echo(tableau.to_toml(), nl=False)


@click.command()
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    callback=folder_not_dash,
    default="results",
    show_default=True,
    help="Folder to write the generated tables into.",
)
@click.option(
    "--shipped",
    "shipped_dir",
    type=click.Path(file_okay=False),
    callback=folder_not_dash,
    default=None,
    help="Also write the compiled tables the package ships into this folder (analyzer/tables in "
    "a source checkout).",
)
@guard
def tables(out_dir: str, shipped_dir: str | None) -> None:
    """Regenerate every committed file in results/: analysis tables for 1, 2, 4, 6, 8 decks and
    the bet catalogue for 1, 6, 8 decks (Markdown and JSON), and the closed forms in the number
    of decks (Markdown and LaTeX); with --shipped, the compiled tables the package ships.

    All or nothing: the files are written into a sibling folder that is then swapped into
    place.  An existing folder may hold only these files (it is refused otherwise)."""
    from analyzer.errors import OutputError  # lazy: start-up time
    from analyzer.output.files import check_folder, replace_folder  # lazy: start-up time
    from analyzer.output.results import file_names, generate  # lazy: start-up time

    if not out_dir.strip():
        raise OutputError("empty --out: give a folder, e.g. --out results/")
    if shipped_dir is not None and not shipped_dir.strip():
        raise OutputError("empty --shipped: give a folder, e.g. --shipped analyzer/tables/")
    from analyzer.engine.shipped import is_table_file, shipped_files  # lazy: start-up time

    if shipped_dir is not None:
        a, b = os.path.realpath(out_dir), os.path.realpath(shipped_dir)
        if os.path.commonpath([a, b]) in (a, b):  # each holds its own files only
            raise OutputError(
                f"--out ({out_dir}) and --shipped ({shipped_dir}) are one folder or one inside the other: "
                "give two separate folders"
            )
    check_folder(out_dir, file_names())  # refused at once, not after the build
    if shipped_dir is not None:
        check_folder(shipped_dir, (), previous=is_table_file)  # compiled tables only
    files = generate()  # everything is built in memory first: no partial output on error
    shipped = shipped_files() if shipped_dir is not None else {}
    replace_folder(out_dir, files)  # a sibling folder swapped into place: all or nothing
    show(f"wrote {len(files)} files to {out_dir}")
    if shipped_dir is not None:
        replace_folder(shipped_dir, shipped, previous=is_table_file)  # an older catalogue's tables go
        show(f"wrote {len(shipped)} compiled tables to {shipped_dir}")


@click.command()
@sweep_shoe_options
@bet_options(
    "A bet (repeatable): a catalogue bet, e.g. banker, banker:4, tie:9, dragon-7, egalite:5.",
    "Every bet of this TOML file of user-defined bets (repeatable).",
)
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option("--events", is_flag=True, help="Also print each bet's events table.")
@click.option("--fair-pay", is_flag=True, help="Also print the pay at which each adjustable bet is fair.")
@click.option(
    "--target-edge",
    default=None,
    metavar="PERCENT",
    help="Also print the pay giving this house edge, e.g. 1.5 (percent).",
)
@click.option(
    "--adjust",
    default=None,
    metavar="EVENT",
    help="With --fair-pay or --target-edge: solve for the pay of this line (its event text, e.g. "
    "'Non-natural win by 9') instead of the bet's adjustable line.",
)
@click.option(
    "--scale",
    is_flag=True,
    help="With --fair-pay or --target-edge: scale every winning pay of each bet by one factor.",
)
@click.option(
    "--list",
    "list_only",
    is_flag=True,
    help="List the catalogue and exit (alone: not with bets, shoes or bet options).",
)
@click.option(
    "--pays",
    "pays",
    default=None,
    metavar="LIST",
    help="Find the catalogue bets whose pay table is LIST, whatever their names: winning pays per "
    "unit staked, comma-separated, exact (e.g. 30,10,6,4,2,1 or 19/20); the nearest tables when "
    "none matches.",
)
@click.option(
    "--with-params",
    is_flag=True,
    help="With --pays: also list the bets whose parameter can be set to give those pays (tie:7, "
    "dragon-7:45, banker:3, ...).",
)
@click.option(
    "--max-bets",
    type=WholeNumber(1),
    default=MAX_BETS_PER_FILE,
    show_default=True,
    metavar="N",
    envvar=MAX_BETS_ENV,
    show_envvar=True,
    help="Most bets read from one --bet-file (a file with more is an error naming the limit).",
)
@output_options
@guard
def bets(
    decks: tuple[int, ...] | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    all_bets: bool,
    events: bool,
    fair_pay: bool,
    target_edge: str | None,
    adjust: str | None,
    scale: bool,
    list_only: bool,
    pays: str | None,
    with_params: bool,
    max_bets: int,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
) -> None:
    """Exact house edge, EV, hit frequency and SD of bets (default: the main bets) on a shoe;
    with a list or range of deck counts (--decks 1,6,8 or 1-8), one table each with rows for
    every count.  With --pays, the catalogue bets that pay a given pay table (docs/bets.md,
    "Finding a bet by its pays")."""
    from analyzer.output.bet_tables import bet_tables, catalogue_listing, pays_tables  # lazy: start-up time
    from analyzer.output.files import refuse_inputs  # lazy: start-up time
    from analyzer.output.render import context_of, render  # lazy: start-up time
    from analyzer.studies.bet_result import bet_result, catalogue_rows, pays_result  # lazy: start-up time

    refuse_inputs([output], [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)])
    if list_only:
        given = [
            name
            for name, value in (
                ("--bet", bet_specs),
                ("--bet-file", bet_files),
                ("--all", all_bets),
                ("--events", events),
                ("--fair-pay", fair_pay),
                ("--target-edge", target_edge),
                ("--adjust", adjust),
                ("--scale", scale),
                ("--decks", decks),
                ("--shoe", shoe_text),
                ("--remove", remove),
                ("--pays", pays),
                ("--with-params", with_params),
            )
            if value not in (None, False, ())
        ]
        if given:
            raise UsageProblem(
                f"--list prints the catalogue and takes no {', '.join(given)}: give --list "
                "alone, or the bets without --list"
            )
        emit(render([catalogue_listing(catalogue_rows())], fmt, digits, raw_csv=raw_csv), output)
        return
    if with_params and pays is None:
        raise UsageProblem("--with-params widens a search by pays: add --pays LIST, e.g. --pays 9")
    if pays is not None:
        chooser = [
            name
            for name, value in (
                ("--bet", bet_specs),
                ("--bet-file", bet_files),
                ("--all", all_bets),
                ("--fair-pay", fair_pay),
                ("--target-edge", target_edge),
                ("--adjust", adjust),
                ("--scale", scale),
            )
            if value not in (None, False, ())
        ]
        if chooser:
            raise UsageProblem(
                f"--pays chooses the bets by their pays and takes no {', '.join(chooser)}: give --pays "
                "alone (with shoe, rules, --events and output options), or the bets without --pays"
            )
    if adjust is not None and scale:
        raise UsageProblem("--adjust and --scale are two ways to price a ladder: give one of them")
    if (adjust is not None or scale) and not (fair_pay or target_edge is not None):
        flag = "--scale" if scale else "--adjust"
        raise UsageProblem(f"{flag} solves pays for a house edge: add --fair-pay or --target-edge PERCENT")
    if adjust is not None and not adjust.strip():
        raise UsageProblem("empty --adjust: give the event text of a pay line, e.g. 'Non-natural win by 9'")
    from analyzer.engine.evaluate import one_shot  # lazy: start-up time

    shoes, tableau = shoes_and_tableau(decks, shoe_text, remove, rules)

    def build(shoe: Any) -> list[Any]:
        if pays is not None:
            found = pays_result(shoe, pays, with_params=with_params, events=events, tableau=tableau)
            return pays_tables(found)
        result = bet_result(
            shoe,
            bet_specs,
            bet_files,
            all_bets=all_bets,
            events=events,
            fair_pay=fair_pay,
            target_edge=target_edge,
            tableau=tableau,
            max_bets=max_bets,
            adjust=adjust,
            scale=scale,
        )
        return bet_tables(result)  # the result built once, then only rendered

    with one_shot():
        tables = sweep_tables(shoes, tableau, build)
    context = context_of(shoes[0], tableau)
    emit(render(tables, fmt, digits, sweep_meta(shoes, tableau), raw_csv=raw_csv, context=context), output)
