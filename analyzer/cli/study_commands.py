"""The studies built on exactness: ``symbolic`` (closed forms in d), ``eor`` (effects of removal)."""

from __future__ import annotations

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_choice,
    bet_inputs,
    bet_options,
    build_shoe,
    command_line,
    emit,
    guard,
    meta,
    output_options,
    rules_inputs,
    rules_option,
    shoe_options,
    table_names_of,
    tableau_of,
)


@click.command()
@bet_options(
    "A bet (repeatable): a catalogue bet, e.g. banker, tie:9, dragon-7 (default: the main bets).",
    "Every bet of this TOML file of user-defined bets (repeatable).",
)
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option(
    "--table",
    "table_names",
    default="outcomes",
    show_default=True,
    metavar="NAMES",
    help="Engine tables, comma-separated: outcomes, totals, naturals, cards, all, or none.",
)
@click.option(
    "--quantity",
    "quantity_names",
    default="all",
    show_default=True,
    metavar="NAMES",
    help="Bet quantities, comma-separated: house-edge, resolved, ev, variance, pay, or all.",
)
@click.option(
    "--target-edge",
    default=None,
    metavar="PERCENT",
    help="Solve the pays for this house edge (percent) instead of the fair pays.",
)
@click.option(
    "--crossing",
    "crossing_levels",
    multiple=True,
    metavar="PERCENT",
    help="Smallest number of decks at which each bet's house edge crosses PERCENT (repeatable).",
)
@output_options(
    formats=("text", "markdown", "latex", "json"),  # output.symbolic_tables.SYMBOLIC_FORMATS (sympy)
    format_help="Output format; JSON keeps every exact value and coefficient.",
    raw_csv=False,
)
@rules_option
@guard
def symbolic(
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    all_bets: bool,
    table_names: str,
    quantity_names: str,
    target_edge: str | None,
    crossing_levels: tuple[str, ...],
    fmt: str,
    digits: int,
    output: str | None,
    rules: str,
) -> None:
    """Closed forms in the number of decks d: each probability, EV, house edge, variance and
    fair pay as an exact rational function of d, with its infinite-deck limit, its 1/d
    correction and its values for the first deck counts."""
    from analyzer.bets.main import parse_amount  # lazy: start-up time
    from analyzer.core.shoe import Shoe  # lazy: start-up time
    from analyzer.output.files import refuse_inputs  # lazy: start-up time
    from analyzer.output.symbolic_tables import symbolic_report  # lazy: start-up time
    from analyzer.studies.symbolic import ENGINE_TABLES, QUANTITIES, STANDARD_SHOE  # lazy: start-up time

    refuse_inputs([output], [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)])
    names = [] if table_names.strip().lower() == "none" else table_names_of(table_names, ENGINE_TABLES)
    quantities = [q.strip().lower() for q in quantity_names.split(",") if q.strip()]
    quantities = list(QUANTITIES) if quantities == ["all"] else quantities
    edge = None if target_edge is None else parse_amount(target_edge, "--target-edge") / 100
    levels = [parse_amount(x, "--crossing") / 100 for x in crossing_levels]
    tableau = tableau_of(rules)
    info = {**meta(command_line(), Shoe.standard(1), tableau), "shoe": STANDARD_SHOE}
    choice = bet_choice(bet_specs, bet_files)
    emit(
        symbolic_report(
            choice.bets,
            all_bets=all_bets,
            tables=names,
            quantities=quantities,
            target_edge=edge,
            crossings=levels,
            fmt=fmt,
            digits=digits,
            meta=info,
            tableau=tableau,
        ),
        output,
    )


@click.command()
@shoe_options
@bet_options(
    "A bet (repeatable): a catalogue bet, e.g. banker, dragon-7 (default: the main bets).",
    "Every bet of this TOML file of user-defined bets (repeatable).",
)
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option(
    "--by",
    type=click.Choice(["rank", "value"]),
    default="rank",
    show_default=True,
    help="Remove one card of each rank (A..K) or of each point value (A..9, 10/J/Q/K).",
)
@click.option(
    "--depth",
    type=WholeNumber(1, 13),
    default=4,
    show_default=True,
    help="Depletion table: remove k = 1..DEPTH cards of one rank (or value).",
)
@click.option(
    "--max-tag",
    type=WholeNumber(1, 20),
    default=3,
    show_default=True,
    help="Largest |tag| tried for the suggested count systems.",
)
@click.option(
    "--table",
    "table_names",
    default="all",
    show_default=True,
    metavar="NAMES",
    help="Tables to print, comma-separated: summary, eor, depletion, published, or all.",
)
@click.option(
    "--plot",
    "plot_file",
    default=None,
    metavar="FILE.png|svg",
    help="Also draw the EOR chart (needs matplotlib: the 'plot' extra).",
)
@output_options
@guard
def eor(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    all_bets: bool,
    by: str,
    depth: int,
    max_tag: int,
    table_names: str,
    plot_file: str | None,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
) -> None:
    """Effects of removal: the exact change in each bet's EV (and house edge) when one card of
    each rank or value leaves the shoe, the sum check, a suggested count system with its betting
    correlation, and the EV after removing k = 1..DEPTH cards of one rank."""
    from analyzer.output.charts import eor_image  # lazy: start-up time
    from analyzer.output.eor_tables import EOR_TABLES, eor_tables  # lazy: start-up time
    from analyzer.output.files import refuse_inputs, same_file, write_files  # lazy: start-up time
    from analyzer.output.render import context_of, render  # lazy: start-up time
    from analyzer.studies.bet_result import choose_bets  # lazy: start-up time
    from analyzer.studies.eor import effects_of_removal  # lazy: start-up time

    refuse_inputs([output, plot_file], [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)])
    names = table_names_of(table_names, EOR_TABLES)
    shoe = build_shoe(decks, shoe_text, remove)
    chosen = choose_bets(bet_specs, bet_files, all_bets)
    tableau = tableau_of(rules)
    # only the tables printed are built: the depletion table's k = 2..depth only when it is asked for
    depth_needed = depth if "depletion" in names else 1
    report = effects_of_removal(shoe, chosen, by=by, depth=depth_needed, max_tag=max_tag, tableau=tableau)
    text = render(
        eor_tables(report, names, digits),
        fmt,
        digits,
        meta(command_line(), shoe, tableau),
        raw_csv=raw_csv,
        context=context_of(shoe, tableau),
    )
    if plot_file is None:
        emit(text, output)
        return
    if output is not None and same_file(plot_file, output):
        raise UsageProblem(f"--plot and -o name the same file {plot_file!r}: give two files")
    image = eor_image(report, plot_file)
    # Both targets are checked before either is written: a bad -o leaves no plot behind.
    write_files({plot_file: image, **({output: text} if output is not None else {})})
    if output is None:
        emit(text, None)


@click.command()
@shoe_options
@bet_options(
    "A bet the bettor may choose (repeatable; default Player, Banker, Tie): any bet on the coup's "
    "point values, e.g. dragon-7.",
    "Every bet of this TOML file of user-defined bets (repeatable).",
)
@click.option(
    "--see",
    "see",
    default="P1",
    show_default=True,
    metavar="SLOTS",
    help="What the bettor sees before betting: slots P1 B1 P2 B2 P3 B3 (comma-separated), "
    "first:N (the first N cards out, N = 1..6), burn (the burn card), or an exact card, e.g. P1=9.",
)
@click.option(
    "--classes",
    "classes",
    default="6-9",
    show_default=True,
    metavar="GROUPS",
    help="The classes seen: ranks against the rest (6-9), groups split by '/' (A-3/4-7/8-K), "
    "colour or suit.",
)
@click.option(
    "--search",
    "search",
    type=click.Choice(["value", "rank"]),
    default=None,
    help="Rank every two-group sort of the point values (or ranks) by the edge it gives for "
    "the slots of --see (--classes is not used).",
)
@click.option(
    "--top", type=WholeNumber(0), default=10, show_default=True, help="--search: sorts shown (0: all)."
)
@click.option(
    "--stake", default="1", show_default=True, metavar="UNITS", help="The house's side: units staked a coup."
)
@click.option(
    "--hands-per-shoe", type=WholeNumber(1), default=80, show_default=True,
    help="The house's side: coups per shoe.",
)
@click.option(
    "--hands-per-hour", type=WholeNumber(1), default=60, show_default=True,
    help="The house's side: coups per hour.",
)
@click.option(
    "--table",
    "table_names",
    default="all",
    show_default=True,
    metavar="NAMES",
    help="Tables to print, comma-separated: patterns, summary, house, or all.",
)
@click.option(
    "--plot",
    "plot_file",
    default=None,
    metavar="FILE.png|svg|pdf",
    help="Also draw the chart of the best bet's EV by pattern (needs matplotlib: the 'plot' extra).",
)
@output_options
@guard
def peek(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    see: str,
    classes: str,
    search: str | None,
    top: int,
    stake: str,
    hands_per_shoe: int,
    hands_per_hour: int,
    table_names: str,
    plot_file: str | None,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
) -> None:
    """What a bettor can see: the exact edge of partial information (edge sorting, exposed cards).

    For each pattern of classes seen (6-9 or not at P1, say), its probability, each bet's exact
    EV given it and the best bet; the bettor's edge betting the best bet always and only when
    positive; the house's expected loss per coup, shoe and hour.  --search ranks every
    two-group sort instead: the sort a casino must guard against."""
    from analyzer.core.exact import parse_exact  # lazy: start-up time
    from analyzer.output.charts import peek_image, plot_format  # lazy: start-up time
    from analyzer.output.files import refuse_inputs, same_file, write_files  # lazy: start-up time
    from analyzer.output.peek_tables import PEEK_TABLES, peek_tables, search_table  # lazy: start-up time
    from analyzer.output.render import context_of, render  # lazy: start-up time
    from analyzer.studies import peek as study  # lazy: start-up time
    from analyzer.studies.bet_result import choose_bets  # lazy: start-up time

    refuse_inputs([output, plot_file], [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)])
    if plot_file is not None:
        if search is not None:
            raise UsageProblem("--plot draws the patterns of one sort: give it without --search")
        plot_format(plot_file)
        if output is not None and same_file(plot_file, output):
            raise UsageProblem(f"--plot and -o name the same file {plot_file!r}: give two files")
    names = table_names_of(table_names, PEEK_TABLES)
    units = parse_exact(stake, "--stake")
    shoe = build_shoe(decks, shoe_text, remove)
    chosen = choose_bets(bet_specs, bet_files)
    tableau = tableau_of(rules)
    if search is not None:
        found = study.search_sorts(shoe, see, chosen, tableau, by=search)
        tables = [search_table(found, top)]
        image = None
    else:
        result = study.peek(shoe, see, classes, chosen, tableau)
        exposure = study.house_exposure(result, units, hands_per_shoe, hands_per_hour)
        tables = peek_tables(result, exposure, names)
        image = peek_image(result, plot_file) if plot_file is not None else None
    info = meta(command_line(), shoe, tableau)
    text = render(tables, fmt, digits, info, raw_csv=raw_csv, context=context_of(shoe, tableau))
    if image is None or plot_file is None:
        emit(text, output)
        return
    write_files({plot_file: image, **({output: text} if output is not None else {})})
    if output is None:
        emit(text, None)
