"""Assemble the bet reports printed by ``punto-banco bets`` (library side of the command)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

from analyzer.bets.catalogue import CATALOGUE, find_bet, main_bets, pay_table_names, provenance
from analyzer.bets.choice import (
    Choice,
    MatchKind,
    PayFinding,
    PayMatch,
    choose,
    find_by_pays,
    pays_text,
    winning_pays,
)
from analyzer.bets.main import parse_amount
from analyzer.bets.model import Bet
from analyzer.core.exact import fraction_text
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.pricing import (
    PRACTICAL_STEPS,
    BetSummary,
    PracticalPay,
    Pricer,
    pay_for_edge,
    practical_pays,
)
from analyzer.errors import BetError
from analyzer.limits import MAX_BETS_PER_FILE
from analyzer.output.render import Cell, Column, Table, percent_words
from analyzer.output.tables import GRADE_SHORT, bets_table, events_table
from analyzer.studies.ladder import ladder_lines, line_terms, near_pays, pay_for_line, scale_for_edge


def choose_bets(
    specs: Sequence[str],
    files: Sequence[str],
    all_bets: bool = False,
    max_bets: int = MAX_BETS_PER_FILE,
    texts: Sequence[tuple[str, str]] = (),
) -> list[Bet]:
    """Bets named on the command line (:func:`analyzer.bets.choice.choose`: catalogue specs and
    ``FILE:NAME`` picks, then every bet of each file, at most ``max_bets`` per file, then every
    bet of each bet file given as ``(label, text)`` in ``texts``); the main bets when nothing is
    named; the whole catalogue first with ``all_bets``.

    Raises:
        BetError: an unknown name, bad parameter, missing or malformed file, a file of too many
            bets, a file bet on a catalogue name, a bet chosen twice.
    """
    return list(choose(specs, files, all_bets=all_bets, max_bets=max_bets, texts=texts).bets) or main_bets()


def bet_report(
    shoe: Shoe,
    specs: Sequence[str],
    files: Sequence[str],
    *,
    all_bets: bool = False,
    events: bool = False,
    fair_pay: bool = False,
    target_edge: str | None = None,
    tableau: Tableau = STANDARD,
    max_bets: int = MAX_BETS_PER_FILE,
    texts: Sequence[tuple[str, str]] = (),
    adjust: str | None = None,
    scale: bool = False,
    choice: Choice | None = None,
) -> list[Table]:
    """The summary table of the chosen bets on ``shoe``, then (optionally) each bet's events
    table and the pays solved for a zero or target house edge (bet files, and bet files given
    as text, as :func:`choose_bets` reads them): of each bet's adjustable line, of the line
    whose event is ``adjust``, or (``scale``) of every winning line times one factor
    (:mod:`analyzer.studies.ladder`).  ``choice``: those bets already chosen (as
    :func:`~analyzer.bets.choice.choose` chose them from the same arguments), not chosen again.

    Raises:
        BetError: as :func:`choose_bets`; ``adjust`` names no line of any chosen bet.
    """
    if choice is None:
        bets = choose_bets(specs, files, all_bets, max_bets, texts)
    else:
        bets = list(choice.bets) or main_bets()
    skipped: list[str] = []
    if all_bets and shoe.suited is None:
        # --all on a shoe without suits: price everything that can be priced, say what cannot.
        named = {b.name for b in choose(specs, files, max_bets=max_bets, texts=texts).bets}
        skipped = [b.name for b in bets if b.reads.needs_suits and b.name not in named]
        bets = [b for b in bets if b.name not in skipped]
    pricer = Pricer(shoe, tableau)
    summaries = pricer.summaries(bets)
    summary = bets_table(summaries, f"Bets: {shoe.describe()}", grades=True)
    if skipped:
        summary = dataclasses.replace(
            summary,
            notes=(
                *summary.notes,
                f"Not priced: {', '.join(skipped)} (suited bets need the suits of the cards, which "
                "this shoe does not give; use --decks, remove cards with their suits, or give counts "
                "per rank and suit).",
            ),
        )
    tables = [summary]
    if events:
        tables += [events_table(s) for s in summaries]
    if fair_pay or target_edge is not None:
        edge = Fraction(0) if target_edge is None else parse_amount(target_edge, "--target-edge") / 100
        if adjust is not None:
            tables += adjusted_line_tables(shoe, summaries, adjust, edge)
        elif scale:
            tables += scaled_ladder_tables(shoe, summaries, edge)
        else:
            tables.append(pay_table(shoe, bets, edge, tableau))
            tables.append(practical_pay_table(shoe, bets, edge, tableau))
    return tables


#: How many of the parameter matches not listed a note names.
NAMED_UNLISTED = 5


def pays_report(
    shoe: Shoe,
    pays: str | Sequence[Fraction],
    *,
    with_params: bool = False,
    events: bool = False,
    tableau: Tableau = STANDARD,
    finding: PayFinding | None = None,
) -> list[Table]:
    """The catalogue bets whose pay table is ``pays`` (:func:`analyzer.bets.choice.find_by_pays`:
    the published tables, with ``with_params`` also the bets whose parameter gives those pays,
    else the nearest tables), priced on ``shoe``: one ``pay-match`` table (the match, the bet's
    name with its parameter, its title, its winning pays and, for a near table, the pays that
    differ; then the columns of the bets table with grades), then (``events``) each bet's
    events table.  A suited bet on a shoe without suits is named in a note, not priced.

    ``finding``: those bets already found (``find_by_pays(pays, with_params=with_params)``),
    not searched again.

    Raises:
        BetError: bad pays (:func:`analyzer.bets.choice.parse_pays`).
    """
    if finding is None:
        finding = find_by_pays(pays, with_params=with_params)
    matches = list(finding.matches)
    skipped: list[str] = []
    if shoe.suited is None:
        skipped = [m.bet.name for m in matches if m.bet.reads.needs_suits]
        matches = [m for m in matches if not m.bet.reads.needs_suits]
    summaries = Pricer(shoe, tableau).summaries([m.bet for m in matches])
    wanted = pays_text(finding.pays)
    base = bets_table(summaries, f"Catalogue bets paying {wanted}: {shoe.describe()}", grades=True)
    columns = (
        Column("Match", "text", "match"),
        Column("Match (machine)", "text", "match_kind", data_only=True),
        Column("Name", "text", "bet_name"),
        Column("Bet", "text", "bet"),
        Column("Pay table", "text", "pay_table"),
        Column("Differs (bet / list)", "text", "differs"),
        Column("Lines differing", "count", "lines_differing", data_only=True),
        *base.columns[3:],
    )
    rows = tuple(
        (m.kind.label, m.kind.value, m.bet.name, row[0], pays_text(winning_pays(m.bet)), _differs(m),
         m.differs, *row[3:])
        for m, row in zip(matches, base.rows, strict=True)
    )
    notes = _match_notes(finding.matches, wanted, finding.exact)
    if finding.unlisted:
        named = ", ".join(finding.unlisted[:NAMED_UNLISTED])
        more = ", ..." if len(finding.unlisted) > NAMED_UNLISTED else ""
        notes.append(f"{len(finding.unlisted)} catalogue bets pay {wanted} with their parameter set "
                     f"({named}{more}): add --with-params to list them.")
    if skipped:
        notes.append(f"Not priced: {', '.join(skipped)} (suited bets need the suits of the cards, which "
                     "this shoe does not give; use --decks, remove cards with their suits, or give counts "
                     "per rank and suit).")
    if rows:
        notes += base.notes
    tables = [Table("pay-match", base.title, columns, rows, tuple(notes))]
    if events:
        tables += [events_table(s) for s in summaries]
    return tables


def _differs(match: PayMatch) -> str | None:
    """A near table's differing pays, ``"6, 1 / 4, 2"`` (the bet's, then the list's; ``-`` for
    none on a side); ``None`` for an exact match."""
    if match.kind is not MatchKind.NEAR:
        return None
    return f"{pays_text(match.bet_only) or '-'} / {pays_text(match.list_only) or '-'}"


def _match_notes(matches: Sequence[PayMatch], wanted: str, exact: bool) -> list[str]:
    """The notes that say how the rows match the list of pays ``wanted``."""
    meaning = {
        MatchKind.EXACT: "the bet's winning pays, one per winning line, are the list",
        MatchKind.DISTINCT: "the list names each different winning pay of the bet once (the bet pays some "
                            "of them on more than one line)",
        MatchKind.PARAMETER: "the bet with its parameter set to give those pays",
        MatchKind.NEAR: "the bet's pay table is near the list, not equal to it",
    }
    if not matches:
        return [f"No catalogue pay table is {wanted}, and none shares a pay with it."]
    shown = {m.kind for m in matches}
    notes = ["Match: " + "; ".join(f"'{k.label}' {meaning[k]}" for k in MatchKind if k in shown) + ".  "
             "Pays are wins per unit staked ('to 1'), largest first; pushes and losses are not listed."]
    if not exact:
        notes.append(f"No catalogue pay table is {wanted}: the nearest are shown, fewest lines differing "
                     "first (a pay changed, or a line one side lacks); they are near, not equal.")
    return notes


def _quoted(pays: Fraction | None) -> str | None:
    """A practical pay on the grid as it is quoted, e.g. ``"6.5 to 1"`` (``None`` for none)."""
    return None if pays is None else PracticalPay("to", "exact", pays, pays, Fraction(0)).text


def _target_words(house_edge: Fraction) -> str:
    if house_edge == 0:
        return "fair bet (house edge 0)"
    return f"house edge of {percent_words(house_edge)[0]}"


def adjusted_line_tables(
    shoe: Shoe, summaries: Sequence[BetSummary], event: str, house_edge: Fraction
) -> list[Table]:
    """For each priced bet with a pay line ``event``: the exact pay of that line that gives
    ``house_edge``, and the practical pays nearest it with their exact house edges (the same
    tables as :func:`pay_table` and :func:`practical_pay_table`, for the chosen line); derived
    from the priced events (:mod:`analyzer.studies.ladder`), not priced again.

    Raises:
        BetError: no bet has the line.
    """
    pays_rows: list[tuple[Cell, ...]] = []
    near_rows: list[tuple[Cell, ...]] = []
    skipped: list[str] = []
    for summary, index in ladder_lines(summaries, event):
        bet = summary.bet
        if index is None:
            skipped.append(bet.title)
            continue
        line = bet.lines[index]
        try:
            q, rest = line_terms(summary, index)
        except BetError:
            pays_rows.append((bet.title, bet.name, line.event, line.pays, None))
            near_rows.append((bet.title, bet.name, None, None, None, None))
            continue
        solved = pay_for_line(summary, index, house_edge)
        pay = solved if solved > 0 else None  # no winning pay gives that edge
        near = near_pays(pay, q, rest) if pay is not None else ()
        pays_rows.append((bet.title, bet.name, line.event, line.pays, pay))
        near_rows += [(bet.title, bet.name, p.text, p.side, p.pays, p.house_edge) for p in near] or [
            (bet.title, bet.name, None, None, None, None)
        ]
    pays = pay_table(shoe, [], house_edge)
    near_table = practical_pay_table(shoe, [], house_edge)
    extra: tuple[str, ...] = ()
    if skipped:
        extra = (f"Not listed (no pay line {event!r}): {', '.join(skipped)}.",)
    return [
        dataclasses.replace(pays, rows=tuple(pays_rows), notes=pays.notes[:1] + extra),
        dataclasses.replace(near_table, rows=tuple(near_rows)),
    ]


def scaled_ladder_tables(shoe: Shoe, summaries: Sequence[BetSummary], house_edge: Fraction) -> list[Table]:
    """For each priced bet with pay lines: the one factor on every winning pay that gives
    ``house_edge`` (exact), each line's scaled pay with the practical pays ("X to 1") on either
    side, and the ladder's exact house edge with every line at its practical pay below, nearest
    and above (:func:`analyzer.studies.ladder.scale_for_edge`)."""
    line_rows: list[tuple[Cell, ...]] = []
    ladder_rows: list[tuple[Cell, ...]] = []
    skipped: list[str] = []
    for summary in summaries:
        bet = summary.bet
        try:
            ladder = scale_for_edge(summary, house_edge)
        except BetError:
            skipped.append(bet.title)
            continue
        for event, now, _, scaled, low, high in ladder.lines:
            line_rows.append((bet.title, bet.name, event, now, scaled, _quoted(low), _quoted(high)))
        ladder_rows.append((bet.title, bet.name, ladder.factor, summary.house_edge,
                            ladder.edges["below"], ladder.edges["nearest"], ladder.edges["above"]))
    what = _target_words(house_edge)
    notes: tuple[str, ...] = (
        "Every winning pay times one factor; pushes and losses unchanged.  Practical pays 'X to 1' on the "
        "grid of --fair-pay; '-': no practical pay on that side is a win.",
    )
    if skipped:
        notes += (f"Not listed (no winning pay line, or none can happen here): {', '.join(skipped)}.",)
    lines_table = Table(
        "scaled-pays",
        f"Every win scaled for a {what}: {shoe.describe()}",
        (
            Column("Bet", "text", "bet"),
            Column("Bet name", "text", "bet_name", data_only=True),
            Column("Line", "text", "line"),
            Column("Pays now", "fraction", "pays_now"),
            Column("Scaled pay", "both", "pay"),
            Column("Practical below", "text", "practical_below"),
            Column("Practical above", "text", "practical_above"),
        ),
        tuple(line_rows),
        notes,
    )
    ladders = Table(
        "scaled-ladders",
        f"The scaled ladder's house edge: {shoe.describe()}",
        (
            Column("Bet", "text", "bet"),
            Column("Bet name", "text", "bet_name", data_only=True),
            Column("Factor", "both", "factor"),
            Column("House edge now", "percent", "house_edge_now"),
            Column("Every line below", "percent", "house_edge_below"),
            Column("Every line nearest", "percent", "house_edge_nearest"),
            Column("Every line above", "percent", "house_edge_above"),
        ),
        tuple(ladder_rows),
        ("House edge per coup with every winning line at its practical pay below, nearest or above the "
         "scaled pay (exact); a negative house edge is a player advantage.",),
    )
    return [lines_table, ladders]


def pay_table(shoe: Shoe, bets: Sequence[Bet], house_edge: Fraction, tableau: Tableau = STANDARD) -> Table:
    """For each bet with one adjustable pay: the exact pay giving ``house_edge`` per coup (the
    bet's machine name as the data-only ``bet_name``)."""
    rows: list[tuple[Cell, ...]] = []
    skipped: list[str] = []
    for bet in bets:
        if bet.adjustable is None or bet.payout_function is not None:
            skipped.append(bet.title)
            continue
        line = bet.lines[bet.adjustable]
        try:
            pay: Fraction | None = pay_for_edge(bet, shoe, house_edge, tableau)
        except BetError:
            rows.append((bet.title, bet.name, line.event, line.pays, None))
            continue
        if pay is not None and pay <= 0:
            pay = None  # no winning pay gives that edge
        rows.append((bet.title, bet.name, line.event, line.pays, pay))
    what = _target_words(house_edge)
    cols = (
        Column("Bet", "text", "bet"),
        Column("Bet name", "text", "bet_name", data_only=True),
        Column("Adjustable line", "text", "line"),
        Column("Pays now", "fraction", "pays_now"),
        Column("Pay for target", "both", "pay"),
    )
    notes: tuple[str, ...] = (
        "'-': no positive pay gives that house edge, or the event cannot happen on this shoe.",
    )
    if skipped:
        notes += (
            "Not listed (no single adjustable pay line: several pays, or a payout function): "
            f"{', '.join(skipped)}.",
        )
    return Table("pays", f"Pays for a {what}: {shoe.describe()}", cols, tuple(rows), notes)


def practical_pay_table(
    shoe: Shoe, bets: Sequence[Bet], house_edge: Fraction, tableau: Tableau = STANDARD
) -> Table:
    """For each bet with one adjustable pay: the practical pays nearest the pay giving
    ``house_edge``, below and above it, quoted "X to 1" and "X for 1", each with its exact
    house edge (:func:`analyzer.engine.pricing.practical_pays`); the bet's machine name as the
    data-only ``bet_name``."""
    rows: list[tuple[Cell, ...]] = []
    for bet in bets:
        if bet.adjustable is None or bet.payout_function is not None:
            continue
        try:
            near = practical_pays(bet, shoe, house_edge, tableau)
        except BetError:
            near = ()
        if not near:  # no positive pay gives that edge, or the event cannot happen on this shoe
            rows.append((bet.title, bet.name, None, None, None, None))
        for p in near:
            rows.append((bet.title, bet.name, p.text, p.side, p.pays, p.house_edge))
    percent = fraction_text(house_edge * 100)
    what = "the fair pay" if house_edge == 0 else f"the pay for a house edge of {percent}%"
    steps = ", ".join(
        f"below {fraction_text(limit)} in steps of {fraction_text(step)}"
        if limit is not None
        else f"then steps of {fraction_text(step)}"
        for limit, step in PRACTICAL_STEPS
    )
    cols = (
        Column("Bet", "text", "bet"),
        Column("Bet name", "text", "bet_name", data_only=True),
        Column("Practical pay", "text", "pay"),
        Column("Side of target", "text", "side"),
        Column("Net win per unit", "fraction", "net_pay"),
        Column("House edge", "percent", "house_edge"),
    )
    notes = (
        "'X to 1' wins X per unit staked; 'X for 1' returns X, the stake included (a win of X - 1).",
        f"Practical pays: the quoted number X on a grid ({steps}); the nearest on each side of "
        "the target in each form.  A negative house edge is a player advantage.",
        "'-': no positive pay gives that house edge, or the event cannot happen on this shoe.",
    )
    return Table(
        "practical-pays", f"Practical pays nearest {what}: {shoe.describe()}", cols, tuple(rows), notes
    )


def catalogue_listing() -> Table:
    """The catalogue as a table: name, aliases, parameter, the names sources give its pay
    tables (``ALIAS=PARAM``: :data:`~analyzer.bets.catalogue.PAY_TABLE_NAMES`), what it is, and
    the provenance grade of its default parameters; as data (JSON, CSV) also the bet's title,
    rules in words, source, published figure, golden test, its published parameters
    with their grades and figures (``variants``: ``PARAM: grade (figure)``, ``;``-separated) and
    the source of each pay-table name (``pay_table_name_sources``: ``ALIAS=PARAM: source``,
    ``;``-separated)."""
    rows: list[tuple[Cell, ...]] = []
    for e in CATALOGUE:
        bet = find_bet(e.name if e.name != "egalite" else "egalite:5")
        p = provenance(bet)
        variants = "; ".join(
            f"{e.name}:{key}: {v.grade.label}" + (f" ({v.figure})" if v.figure else "")
            for key, v in e.provenance.items()
            if key
        )
        named = pay_table_names(e.name)
        rows.append((
            e.name, ", ".join(e.aliases) or "-", e.param or "-",
            ", ".join(f"{n.alias}={n.param}" for n in named) or "-", e.summary,
            GRADE_SHORT[p.grade.value] if p else "-",
            bet.title, bet.rules or e.summary, (p.source if p else bet.source) or None,
            p.grade.value if p else None, p.figure or None if p else None, p.test or None if p else None,
            p.caveat or None if p else None, variants or None,
            "; ".join(f"{n.alias}={n.param}: {n.source}" for n in named) or None,
        ))
    cols = (
        Column("Name", "text", "name"),
        Column("Aliases", "text", "aliases"),
        Column("Parameter (NAME:PARAM)", "text", "parameter"),
        Column("Pay-table names (NAME:ALIAS)", "text", "pay_table_names"),
        Column("Bet", "text", "bet"),
        Column("Grade", "text", "grade_label"),
        Column("Title", "text", "title", data_only=True),
        Column("Rules", "text", "rules", data_only=True),
        Column("Source", "text", "source", data_only=True),
        Column("Grade (machine)", "text", "grade", data_only=True),
        Column("Published figure", "text", "published_figure", data_only=True),
        Column("Golden test", "text", "golden_test", data_only=True),
        Column("Caveat", "text", "caveat", data_only=True),
        Column("Published parameters", "text", "variants", data_only=True),
        Column("Pay-table name sources", "text", "pay_table_name_sources", data_only=True),
    )
    return Table(
        "catalogue",
        "Bet catalogue",
        cols,
        tuple(rows),
        ("Use --bet NAME or --bet NAME:PARAM, e.g. --bet banker:4 --bet tie:9 --bet egalite:5; a pay-table "
         "name stands for its parameter (--bet lucky-6:macau is lucky-6:1).  --pays LIST finds a bet by its "
         "pays.",
         "Grade of the default parameters: 'reproduced' a published figure is reproduced exactly (a golden "
         "test pins it); 'rules only' the rules are published, no figure; 'our reading' our reading of an "
         "unpublished or ambiguous rule; 'weak source' the rules come from a secondary page only.  "
         "--format json gives each bet's rules, source, figure and published parameters."),
    )
