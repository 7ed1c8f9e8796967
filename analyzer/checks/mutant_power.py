"""The power of each check against each engine bug: how many coups it needs to catch it.

For every mutant of :mod:`analyzer.checks.mutants` (an engine with one known bug), each of the
oracle's checks is run on what that engine produces, and the coups it needs until its first
finding are counted:

* **verify**: hand logs the engine dealt (8-deck shoes to a cut card, every claim present:
  hands, totals, winner, naturals, Banker, Player, Tie and Player Pair settled), checked with the
  shoe check on (``--decks 8``); the median over :data:`SEEDS` logs of the coups up to the first
  discrepancy.
* **conform**: the same logs tallied (claims, decision cells and the frequency families at the
  default alpha) at 100, 200, 400, ... coups (:data:`CONFORM_GRID`); the median of the first
  size at which conform fails.
* **decision cells**: the hypothesis strategy :func:`analyzer.testing.decision_cells` (one coup
  through every cell per example, :func:`~analyzer.checks.coverage.cell_coups`), each coup
  checked as :func:`analyzer.testing.assert_coup` checks it; the coups of the first examples
  up to the first failure (the median over :data:`SEEDS` examples).
* **probe**: ``punto-banco probe`` with its default plan and the same bets; the request of its
  first finding (one deterministic run).
* **vectors**: the test-vector kit replayed in file order by the engine (state carried from
  record to record, as a test harness feeding one engine instance would): ``coups.jsonl``, every
  value-level leaf, its point values dealt as cards (value 0 as a 10, 1 as an ace), compared on
  the draws, totals, winner and naturals; then ``settlements.jsonl`` (the seeded suited coups and
  the coverage coups of the same bets), compared on the same and every bet's net result per unit.

A check that does not catch a bug within its bound (:data:`BOUND` coups for the logs, the
probe's plan, the whole kit) says so.  Everything is seeded: the same catalogue gives the same
table (``results/mutants.md``, :mod:`analyzer.output.results`).
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.choice import lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.conform import conform, tally_log
from analyzer.checks.coverage import cell_coups, coverage, seeded_coups, value_coups
from analyzer.checks.diagnose import diagnose
from analyzer.checks.handlog import Record, read_records
from analyzer.checks.mutants import CORRECT, MUTANTS, Dealer, EngineCoup, Mutant, deal_log
from analyzer.checks.probe import DEFAULT_COUPS, DealerEngine, Probe, plan
from analyzer.checks.verify import Verifier
from analyzer.core.cards import RANKS, Card, Rank
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import AnalyzerError

#: The bets placed on every coup of the logs: a Banker stake of 25 tells the commission errors
#: apart (23.75 due, 23 rounded down, 24 to the nearest unit, 25 with none), Player and Tie 10,
#: Player Pair 1 (the probe rotates its own stakes).
BETS: tuple[str, ...] = ("banker", "player", "tie", "player-pair")
STAKES: dict[str, Fraction] = {
    "banker": Fraction(25),
    "player": Fraction(10),
    "tie": Fraction(10),
    "player-pair": Fraction(1),
}
#: Seeds of the logs (verify, conform) and of the decision-cell examples: the medians are over them.
SEEDS: tuple[int, ...] = (1, 2, 3, 4, 5)
#: Most coups of a log (verify, conform).
BOUND = 20_000
#: Stacks of the probe's plan: its default, as a developer runs it.
PROBE_COUPS = DEFAULT_COUPS
#: Settlement coups of the kit the vectors are measured on (the command's default).
KIT_COUPS = 2000


@dataclass(frozen=True)
class Catch:
    """When one check catches one bug.

    ``coups``: the coups (or requests, or vector records) it needs, the median over its runs
    (``None``: more than half the runs did not catch it within ``bound``); ``caught`` of
    ``runs`` runs caught it; ``where`` names what was counted when it says more than a number
    (e.g. ``settlements.jsonl``).
    """

    coups: int | None
    caught: int
    runs: int
    bound: int
    where: str = ""

    def text(self) -> str:
        """The cell of the table: ``1,204``, ``1,204 (4 of 5 runs)``, or ``not within 20,000``."""
        if self.coups is None:
            if self.caught:
                return f"not within {self.bound:,} ({self.caught} of {self.runs} runs caught it)"
            return f"not within {self.bound:,}"
        shown = f"{self.coups:,}"
        if self.where:
            shown = f"{self.where} {shown}"
        if self.caught < self.runs:
            shown += f" ({self.caught} of {self.runs} runs)"
        return shown


def _median(found: Sequence[int | None], bound: int, where: str = "") -> Catch:
    """The median of the runs' coups, a run that missed counting as more than ``bound``
    (``None`` when fewer than half the runs caught it)."""
    caught = sorted(n for n in found if n is not None)
    runs = len(found)
    if 2 * len(caught) < runs:
        return Catch(None, len(caught), runs, bound, where)
    padded = caught + [bound + 1] * (runs - len(caught))
    return Catch(int(statistics.median_low(padded)), len(caught), runs, bound, where)


# -- verify and conform -------------------------------------------------------------------------


def _records(mutant: Mutant, seed: int, coups: int, tableau: Tableau) -> Iterator[Record]:
    """The records of a log ``mutant`` deals, read back as ``verify`` reads a log (streamed)."""
    lines = (json.dumps(r) for r in deal_log(mutant, coups, seed=seed, tableau=tableau, stakes=STAKES))
    return read_records(lines, "jsonl")


def verify_catch(mutant: Mutant, tableau: Tableau = STANDARD, bound: int = BOUND) -> Catch:
    """The coups ``verify --decks 8`` needs to catch ``mutant`` (median over :data:`SEEDS`)."""
    found: list[int | None] = []
    for seed in SEEDS:
        verifier = Verifier(Shoe.standard(8), tableau=tableau)
        first: int | None = None
        for rec in _records(mutant, seed, bound, tableau):
            if verifier.check(rec):
                first = verifier.coups
                break
        found.append(first)
    return _median(found, bound)


def _conform_fails(records: Sequence[Record], tableau: Tableau) -> bool:
    try:
        observed = tally_log(records, BETS, tableau, diagnose=False)
        return not conform(observed, Shoe.standard(8), tableau=tableau).passed
    except AnalyzerError:
        return True  # a log conform cannot read is a finding too


class _Prefixes:
    """The first records of a streamed log, dealt only as far as asked."""

    def __init__(self, stream: Iterator[Record]) -> None:
        self.stream = stream
        self.records: list[Record] = []

    def __call__(self, n: int) -> list[Record]:
        self.records.extend(itertools.islice(self.stream, max(0, n - len(self.records))))
        return self.records[:n]


#: The log sizes conform is run at (a frequency test on a handful of coups fails on any rare
#: category, so sizes below 100 would measure that, not the bug).
CONFORM_GRID: tuple[int, ...] = (100, 200, 400, 800, 1600, 3200, 6400, 12800, BOUND)


def conform_catch(mutant: Mutant, tableau: Tableau = STANDARD, bound: int = BOUND) -> Catch:
    """The smallest log size of :data:`CONFORM_GRID` (up to ``bound``) at which ``conform``
    fails on ``mutant``'s log (median over :data:`SEEDS`)."""
    found: list[int | None] = []
    for seed in SEEDS:
        first = _Prefixes(_records(mutant, seed, bound, tableau))
        sizes = (n for n in CONFORM_GRID if n <= bound)
        found.append(next((n for n in sizes if _conform_fails(first(n), tableau)), None))
    return _median(found, bound)


# -- the decision-cell strategy, the probe --------------------------------------------------------


def _claims(coup: EngineCoup) -> tuple[object, ...]:
    return (coup.player, coup.banker, coup.player_total, coup.banker_total, coup.winner)


def cells_catch(mutant: Mutant, tableau: Tableau = STANDARD) -> Catch:
    """The coups of :func:`analyzer.testing.decision_cells` examples up to the first one that
    fails as :func:`analyzer.testing.assert_coup` checks it (its hands, totals and winner
    against the rules' deal of the same cards), one example per seed of :data:`SEEDS`, the
    engine's state carried from coup to coup as a test's loop carries it; the median."""
    dealer, correct = mutant.dealer(tableau), CORRECT.dealer(tableau)
    found: list[int | None] = []
    per_example = 0
    for seed in SEEDS:
        coups = cell_coups(tableau, decks=8, seed=seed)
        per_example = len(coups)
        previous: EngineCoup | None = None
        first: int | None = None
        for i, cards in enumerate(coups, 1):
            mine = dealer.deal(cards, None, previous)
            right = correct.deal(cards, None, None)
            previous = mine
            if _claims(mine) != _claims(right):
                first = i
                break
        found.append(first)
    return _median(found, per_example)


def probe_catch(mutant: Mutant, tableau: Tableau = STANDARD, bound: int = PROBE_COUPS) -> Catch:
    """The request of the probe's first finding against ``mutant``'s engine (its default plan
    for :data:`BETS`, seed 1, ``bound`` stacks)."""
    bets = [lookup_bet(b) for b in BETS]
    stacks = plan(bets, tableau=tableau, coups=bound)
    result = Probe(DealerEngine(mutant.dealer(tableau)), tableau=tableau, stop_at_first=True).run(stacks)
    first = result.first_failure
    return Catch(first, int(first is not None), 1, len(stacks))


# -- the vectors ------------------------------------------------------------------------------------


#: The card a value-level record's point value is dealt as.
_VALUE_CARD: tuple[Card, ...] = (Card(Rank.TEN), *(Card(RANKS[v - 1]) for v in range(1, 10)))


def _first_miss(
    dealer: Dealer,
    correct: Dealer,
    stacks: Iterable[tuple[Sequence[Card], dict[str, Fraction] | None]],
    bets: dict[str, Bet],
) -> int | None:
    """The 1-based index of the first stack on which ``dealer`` (its state carried) reports
    otherwise than ``correct``: draws, totals, winner, naturals, and the bets' net results."""
    previous: EngineCoup | None = None
    for i, (cards, stakes) in enumerate(stacks, 1):
        mine = dealer.deal(cards, stakes, previous, bets=bets)
        right = correct.deal(cards, stakes, None, bets=bets)
        previous = mine
        if (*_claims(mine), mine.natural, mine.bets) != (*_claims(right), right.natural, right.bets):
            return i
    return None


def vectors_catch(mutant: Mutant, tableau: Tableau = STANDARD) -> tuple[Catch, Catch]:
    """(``coups.jsonl``, ``settlements.jsonl``): the record of each file at which ``mutant``'s
    engine first reports otherwise than the kit says, replayed in file order."""
    dealer, correct = mutant.dealer(tableau), CORRECT.dealer(tableau)
    values = [[_VALUE_CARD[v] for v in c.cards] for c in value_coups(tableau)]
    # an engine whose bug is in its bets or its shoe deals every value coup right
    blind = mutant.kind == "shoe" or all(c.startswith("bet") for c in dealer.changes)
    coups_first = None if blind else _first_miss(dealer, correct, ((cards, None) for cards in values), {})
    bets = {b: lookup_bet(b) for b in BETS}
    unit = dict.fromkeys(BETS, Fraction(1))
    found = coverage(list(bets.values()), tableau)
    settled = [*seeded_coups(1, KIT_COUPS), *((*c, *s) for _, c, s in found.distinct())]
    settle_first = _first_miss(dealer, correct, ((cards, unit) for cards in settled), bets)
    return (
        Catch(coups_first, int(coups_first is not None), 1, len(values)),
        Catch(settle_first, int(settle_first is not None), 1, len(settled)),
    )


# -- every mutant ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MutantPower:
    """Every check's catch of one mutant, and the diagnosis of its own log (the cause the
    oracle names, which must be the mutant itself)."""

    mutant: Mutant
    diagnosed: str
    verify: Catch
    conform: Catch
    cells: Catch
    probe: Catch
    coup_vectors: Catch
    settlement_vectors: Catch


def diagnosed_as(mutant: Mutant, tableau: Tableau = STANDARD, coups: int = 5000) -> str:
    """The first cause the diagnosis names for a log ``mutant`` dealt (with the shoe given, for
    the bugs of the shoe), or ``-`` when it finds nothing."""
    found = diagnose(_records(mutant, 1, coups, tableau), tableau, Shoe.standard(8))
    return found.causes[0].mutant if found.causes else "-"


def measure(mutant: Mutant, tableau: Tableau = STANDARD, bound: int = BOUND) -> MutantPower:
    """Every check's catch of ``mutant`` (see the module docstring)."""
    coups, settlements = vectors_catch(mutant, tableau)
    return MutantPower(
        mutant,
        diagnosed_as(mutant, tableau),
        verify_catch(mutant, tableau, bound),
        conform_catch(mutant, tableau, bound),
        cells_catch(mutant, tableau),
        probe_catch(mutant, tableau),
        coups,
        settlements,
    )


def measure_all(
    mutants: Sequence[Mutant] = MUTANTS,
    tableau: Tableau = STANDARD,
    bound: int = BOUND,
    progress: Callable[[Mutant], None] | None = None,
) -> tuple[MutantPower, ...]:
    """:func:`measure` of every mutant, in catalogue order."""
    out = []
    for mutant in mutants:
        if progress is not None:
            progress(mutant)
        out.append(measure(mutant, tableau, bound))
    return tuple(out)


__all__ = [
    "BETS",
    "BOUND",
    "SEEDS",
    "Catch",
    "MutantPower",
    "cells_catch",
    "conform_catch",
    "diagnosed_as",
    "measure",
    "measure_all",
    "probe_catch",
    "vectors_catch",
    "verify_catch",
]
