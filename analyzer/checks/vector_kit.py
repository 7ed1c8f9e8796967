"""What the test-vector kit holds, computed and frozen: the value-level coups, the suited coups
dealt and every bet settled on them, the exact probability tables and the golden counts
(:func:`kit_data`, a :class:`KitData`).  :mod:`analyzer.output.vectors` writes it as files
(JSON Lines, CSV, the schema and the manifest) and computes nothing.

Three paths that agree by construction (the kit's tests hold them against each other):

* the coups: every leaf of the value-level dealing tree, from the tableau's draw rules alone
  (:func:`~analyzer.checks.coverage.value_coups`, not through
  :func:`~analyzer.core.coup.resolve`);
* the settlements: seeded suited coups, each six cards dealt from a fresh 8-deck shoe
  (:func:`~analyzer.checks.coverage.seeded_coups`), then the coverage coups of the bets
  (:func:`~analyzer.checks.coverage.coverage`), each resolved (:func:`~analyzer.core.coup.resolve`)
  and every bet settled on it (:meth:`~analyzer.bets.model.Bet.settle`), exact;
* the probabilities: for standard shoes of 1 to 8 decks, the exact counts of the winner, the
  final totals, the naturals, the cards dealt and every event of every bet
  (:func:`~analyzer.engine.pricing.analyze`); beside them the golden counts a source prints
  (:func:`~analyzer.bets.catalogue.golden_counts`, standard tableau only).

Counts are ordered 6-card sequences out of N!/(N-6)! (RULES.md, "Counting conventions").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.catalogue import golden_counts
from analyzer.bets.model import Bet
from analyzer.checks.coverage import Coverage, ValueCoup, coverage, seeded_coups, value_coups
from analyzer.core.cards import Card
from analyzer.core.coup import NATURAL_CLASSES, Coup, resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.pricing import analyze
from analyzer.errors import CompileBudgetError, OutputError

#: Most settlement coups a kit holds (about 3.5 kB per coup in JSON Lines with every bet).
MAX_COUPS = 100_000
#: The standard shoes of the probability tables (decks).
DECKS: tuple[int, ...] = tuple(range(1, 9))


@dataclass(frozen=True)
class Settlement:
    """One bet settled on a coup: the bet's machine name, the event it settled by, and the net
    result per unit staked (the win, 0 a push, -1 a loss), exact."""

    bet: str
    event: str
    net: Fraction


@dataclass(frozen=True)
class SettledCoup:
    """A suited coup of the kit with every bet settled on it.

    Attributes:
        number: the coup's number, 0 up (a seeded coup's is the generator's ``i``).
        kind: ``"seeded"`` (the seeded generator) or ``"coverage"`` (the coverage search).
        cards: the six cards dealt, in dealing order (the coup uses the first
            ``coup.cards_dealt``).
        coup: the coup resolved from them under the kit's rules.
        results: each bet settled, in the kit's order of bets.
        covers: per bet (in the order the search reached them), the classes this coup was kept
            for by the coverage search (``"axis: class"``); empty for a seeded coup.
    """

    number: int
    kind: str
    cards: tuple[Card, ...]
    coup: Coup
    results: tuple[Settlement, ...]
    covers: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class ProbabilityRow:
    """One exact count of a probability table on a standard shoe of ``decks`` decks.

    Attributes:
        rules: the rule set's name.
        decks: the shoe.
        table: ``"winner"``, ``"totals"``, ``"naturals"``, ``"cards_dealt"`` or ``"bet"``.
        event: the row's event (``"banker"``, ``"player_total=P,banker_total=B"``, ``"both"``,
            ``"5"``, or a bet's event).
        count: ordered 6-card sequences out of ``denominator``.
        denominator: N!/(N-6)! for the shoe's N cards.
        bet: the bet's machine name on a ``"bet"`` row, else ``None``.
        pays: the event's pay per unit on a ``"bet"`` row, else ``None``.
    """

    rules: str
    decks: int
    table: str
    event: str
    count: int
    denominator: int
    bet: str | None = None
    pays: Fraction | None = None

    @property
    def probability(self) -> Fraction:
        """The exact probability per coup."""
        return Fraction(self.count, self.denominator)


@dataclass(frozen=True)
class GoldenRow:
    """One event of a golden count a source prints (:class:`~analyzer.bets.catalogue.GoldenCount`):
    the bet, the shoe's decks, the event, its count out of ``denominator``, the source cited and
    what it prints."""

    bet: str
    decks: int
    event: str
    count: int
    denominator: int
    source: str
    prints: str

    @property
    def probability(self) -> Fraction:
        """The exact probability per coup."""
        return Fraction(self.count, self.denominator)


@dataclass(frozen=True)
class KitData:
    """Everything a kit's data files hold.

    Attributes:
        tableau: the rules.
        bets: the bets settled and priced, in order.
        seed: the settlement coups' seed.
        coups: the value-level coups (339,400 under the standard tableau), in a fixed order.
        settlements: the seeded coups, then the coverage coups, each with every bet settled.
        probabilities: the probability tables of every shoe of :data:`DECKS`.
        golden: the golden counts of the bets (none under other rules than the standard).
        coverage: what the coverage search found, ``None`` when it was not asked for.
    """

    tableau: Tableau
    bets: tuple[Bet, ...]
    seed: int
    coups: tuple[ValueCoup, ...]
    settlements: tuple[SettledCoup, ...]
    probabilities: tuple[ProbabilityRow, ...]
    golden: tuple[GoldenRow, ...]
    coverage: Coverage | None


def settle_coups(
    coups: Sequence[Sequence[Card]],
    bets: Sequence[Bet],
    tableau: Tableau = STANDARD,
    kind: str = "seeded",
    first: int = 0,
    covers: Sequence[tuple[tuple[str, tuple[str, ...]], ...]] | None = None,
) -> tuple[SettledCoup, ...]:
    """Each of ``coups`` (six cards each) resolved under ``tableau``, numbered from ``first``,
    with every bet settled on it (:meth:`~analyzer.bets.model.Bet.settle`); ``covers``, one per
    coup, the classes the coverage search kept it for."""
    out = []
    for n, cards in enumerate(coups):
        coup = resolve(list(cards), tableau)
        results = []
        for bet in bets:
            event, pays = bet.settle(coup)
            results.append(Settlement(bet.name, event, Fraction(pays)))
        kept = covers[n] if covers is not None else ()
        out.append(SettledCoup(first + n, kind, tuple(cards), coup, tuple(results), kept))
    return tuple(out)


def coverage_coups(
    found: Coverage, bets: Sequence[Bet], tableau: Tableau = STANDARD, first: int = 0
) -> tuple[SettledCoup, ...]:
    """The coverage coups settled (:func:`settle_coups`, kind ``"coverage"``): each distinct
    coup of ``found`` once, in the order the search dealt them, its six cards (the cards used,
    then the spare ones), ``covers`` the classes it was kept for."""
    distinct = found.distinct()
    covers: dict[int, dict[str, list[str]]] = {attempt: {} for attempt, _, _ in distinct}
    for c in found.coups:
        covers[c.attempt].setdefault(c.bet, []).append(c.case)
    coups = [(*cards, *spare) for _, cards, spare in distinct]
    kept = [tuple((bet, tuple(cases)) for bet, cases in covers[a].items()) for a, _, _ in distinct]
    return settle_coups(coups, bets, tableau, "coverage", first, kept)


def probability_rows(
    tableau: Tableau, bets: Sequence[Bet], decks: Sequence[int] = DECKS
) -> tuple[ProbabilityRow, ...]:
    """The exact probability tables for standard shoes of each number of ``decks``: per shoe
    the tables ``winner`` (banker, player, tie), ``totals`` (every final Player / Banker
    total pair, as ``player_total=P,banker_total=B``), ``naturals`` (none, player, banker,
    both), ``cards_dealt`` (4, 5, 6), then ``bet`` rows: every event of every bet with its pay
    (:func:`~analyzer.engine.pricing.analyze`)."""
    rows: list[ProbabilityRow] = []
    name = tableau.name
    for d in decks:
        analysis = analyze(Shoe.standard(d), list(bets), tableau)
        denom = analysis.denominator
        for label, count in analysis.outcome_counts.items():
            rows.append(ProbabilityRow(name, d, "winner", label.lower(), count, denom))
        for p, line in enumerate(analysis.totals):
            for b, count in enumerate(line):
                event = f"player_total={p},banker_total={b}"
                rows.append(ProbabilityRow(name, d, "totals", event, count, denom))
        naturals = analysis.naturals
        for key, label in NATURAL_CLASSES.items():
            rows.append(ProbabilityRow(name, d, "naturals", key, naturals[label], denom))
        for cards, count in analysis.cards_dealt.items():
            rows.append(ProbabilityRow(name, d, "cards_dealt", str(cards), count, denom))
        for summary in analysis.bets:
            for ev in summary.events:
                bet = summary.bet.name
                rows.append(ProbabilityRow(name, d, "bet", ev.event, ev.count, denom, bet, ev.pays))
    return tuple(rows)


def golden_rows(tableau: Tableau, bets: Sequence[Bet]) -> tuple[GoldenRow, ...]:
    """The golden counts of ``bets`` (by name) under the standard tableau, one row per event:
    what a source prints, cited; none under other rules (the sources print standard rules)."""
    if tableau.fingerprint != STANDARD.fingerprint:
        return ()
    names = {b.name for b in bets}
    return tuple(
        GoldenRow(g.bet, g.decks, event, count, g.denominator, g.source, g.prints)
        for g in golden_counts()
        if g.bet in names
        for event, count in g.events.items()
    )


def kit_data(
    tableau: Tableau, bets: Sequence[Bet], seed: int, coups: int, with_coverage: bool = True
) -> KitData:
    """The kit's data under ``tableau`` for ``bets``: the value-level coups, ``coups`` seeded
    suited coups from ``seed`` then (``with_coverage``) the coverage coups, each with every bet
    settled, the probability tables of every shoe of :data:`DECKS`, and the golden counts.

    Cost: the coups take a few seconds whatever the bets; the probability tables compile each
    bet's table once (every catalogue bet: about a minute the first time, then the disk cache
    of compiled tables serves them, :mod:`analyzer.engine.cache`) and evaluate it on 8 shoes;
    settling is about 4 ms per coup with every catalogue bet.

    Raises:
        OutputError: a bad seed (not a whole number >= 0) or number of coups (1 to
            :data:`MAX_COUPS`), no bets, a bet listed twice.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OutputError(f"bad seed {seed!r}: use a whole number 0 or more")
    if not 1 <= coups <= MAX_COUPS:
        raise OutputError(f"bad number of coups {coups}: use 1 to {MAX_COUPS:,}")
    if not bets:
        raise OutputError("no bets: give at least one bet")
    names = [b.name for b in bets]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise OutputError(f"the bet {twice!r} is listed twice")
    values = tuple(value_coups(tableau))
    probabilities = probability_rows(tableau, bets)
    golden = golden_rows(tableau, bets)
    settled = settle_coups(seeded_coups(seed, coups), bets, tableau)
    try:
        found = coverage(bets, tableau, seed=seed) if with_coverage else None
    except CompileBudgetError as exc:  # a bet's classes too many to search: the kit can do without
        why = str(exc).replace(" (by class)'", "' split by class")
        raise CompileBudgetError(
            f"the coverage search: {why}; or leave the coverage coups out (--no-coverage)"
        ) from None
    if found is not None:
        settled += coverage_coups(found, bets, tableau, len(settled))
    return KitData(tableau, tuple(bets), seed, values, settled, probabilities, golden, found)


__all__ = [
    "DECKS",
    "MAX_COUPS",
    "GoldenRow",
    "KitData",
    "ProbabilityRow",
    "SettledCoup",
    "Settlement",
    "coverage_coups",
    "golden_rows",
    "kit_data",
    "probability_rows",
    "settle_coups",
]
