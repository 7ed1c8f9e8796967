"""Which tableau dealt this log?  Rank several rule sets by how well a hand log fits them.

For each tableau T and each coup of the log:

* **Contradictions.**  A coup that T would have dealt differently (a decision cell of
  :mod:`analyzer.checks.decisions` against T) is impossible under T: the log's likelihood under
  T is 0 (log-likelihood ``-inf``).  The count of such coups is exact and is the first key of
  the ranking (fewest first).
* **Log-likelihood of the outcomes.**  A coup T can deal has the same probability under every
  tableau that deals it: a sequence of cards is as likely under one rule set as under another
  (its weight depends only on the shoe).  So beyond the contradictions the cards say nothing;
  what separates the tableaux is how often each *outcome* occurs.  The outcome of a coup is
  (cards taken by the Player, by the Banker, Player total, Banker total): what an engine's own
  summary statistics show.  Its exact probability under T comes from the engine
  (``Pricer(shoe, T)``), and the outcome log-likelihood is ``sum log P_T(outcome)`` over every
  coup (natural log, a float): a proper likelihood of the log's outcomes, comparable across
  tableaux (the same coups under each), finite even for a tableau the cards contradict, unless
  an outcome is impossible under T (or a five-card coup cannot be attributed under T).

The ranking: fewest contradicting coups; then fewest impossible outcomes; then the higher
outcome log-likelihood (over the outcomes possible under T).  The log-likelihood of the log is
``-inf`` for a tableau the log contradicts, and otherwise the outcome log-likelihood.  Coups that
no tableau deals (malformed, see ``verify``) count against every tableau alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.checks.decisions import CELL_READS, DecisionLog, check_decisions
from analyzer.checks.logs import show
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import Tableau
from analyzer.engine.pricing import Pricer
from analyzer.errors import ObservedError

#: (Player cards, Banker cards, Player total, Banker total).
Outcome = tuple[int, int, int, int]


@dataclass(frozen=True)
class TableauFit:
    """How a log fits one tableau.

    ``contradicting``: coups the tableau would have dealt differently (exact), the first on
    ``first_line``; ``malformed``: coups no tableau deals; ``outcome_log_likelihood_float``: the
    sum of log P(outcome) over the coups whose outcome is possible under the tableau (natural
    log); ``impossible_outcomes``: the other coups (outcome of probability 0, or a five-card coup
    the tableau cannot attribute).
    """

    tableau: Tableau
    coups: int
    contradicting: int
    first_line: int | None
    malformed: int
    outcome_log_likelihood_float: float
    impossible_outcomes: int

    @property
    def log_likelihood_float(self) -> float:
        """The log-likelihood of the log under the tableau: ``-inf`` when a coup contradicts it
        (or has an impossible outcome, or no tableau deals it), else that of its outcomes."""
        if self.contradicting or self.malformed or self.impossible_outcomes:
            return -math.inf
        return self.outcome_log_likelihood_float

    @property
    def rank_key(self) -> tuple[int, int, float]:
        """Fewest contradicting coups, then fewest impossible outcomes, then the most likely."""
        return (self.contradicting, self.impossible_outcomes, -self.outcome_log_likelihood_float)


def _outcome(key: tuple[int, int, int | None, int | None]) -> Outcome:
    p2, b2, p3, b3 = key
    return (
        2 + (p3 is not None),
        2 + (b3 is not None),
        (p2 + (p3 or 0)) % 10,
        (b2 + (b3 or 0)) % 10,
    )


def fit_tableau(log: DecisionLog, shoe: Shoe, tableau: Tableau) -> TableauFit:
    """The fit of ``log`` to ``tableau`` on ``shoe`` (see the module docstring).

    Raises:
        ObservedError: ``log`` is not a DecisionLog or ``tableau`` not a Tableau.
    """
    if not isinstance(log, DecisionLog):
        raise ObservedError(f"bad log {show(log)}: give the decisions of a hand log (tally_log)")
    if not isinstance(tableau, Tableau):
        raise ObservedError(f"bad rules {show(tableau)}: give a Tableau (e.g. find_tableau(NAME))")
    check = check_decisions(log, tableau)
    dist = Pricer(shoe, tableau).distribution(CELL_READS)
    counts: dict[Outcome, int] = {}
    for rec, c in zip(dist.records, dist.counts, strict=True):
        if c:
            outcome = (rec.player_cards, rec.banker_cards, rec.player_total, rec.banker_total)
            counts[outcome] = counts.get(outcome, 0) + c
    log_den = math.log(dist.denominator)
    read = log.resolved(tableau)
    total = 0.0
    impossible = sum(read.stuck.values())
    for key, n in read.coups.items():
        c = counts.get(_outcome(key), 0)
        if c == 0:
            impossible += n
        else:
            total += n * (math.log(c) - log_den)
    return TableauFit(
        tableau, check.coups, check.contradicting, check.first_line, log.malformed, total, impossible
    )


def rank_tableaux(log: DecisionLog, shoe: Shoe, tableaux: Sequence[Tableau]) -> tuple[TableauFit, ...]:
    """The fits of ``log`` to each tableau, best first: fewest impossible coups, then the
    higher log-likelihood of the outcomes.

    Raises:
        ObservedError: no tableaux, or the same rules given twice (same fingerprint).
    """
    if isinstance(tableaux, str) or not isinstance(tableaux, Sequence) or not tableaux:
        raise ObservedError(f"bad tableaux {show(tableaux)}: give one or more Tableau objects")
    seen: dict[str, str] = {}
    for t in tableaux:
        if not isinstance(t, Tableau):
            raise ObservedError(f"bad rules {show(t)}: give a Tableau (e.g. find_tableau(NAME))")
        if t.fingerprint in seen:
            raise ObservedError(
                f"rules {t.name!r} and {seen[t.fingerprint]!r} are the same tableau "
                f"(fingerprint {t.fingerprint}): compare each rule set once"
            )
        seen[t.fingerprint] = t.name
    fits = [fit_tableau(log, shoe, t) for t in tableaux]
    return tuple(sorted(fits, key=lambda f: f.rank_key))


__all__ = ["TableauFit", "fit_tableau", "rank_tableaux"]
