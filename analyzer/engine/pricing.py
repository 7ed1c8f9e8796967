"""Evaluate a shoe: exact outcome counts, probabilities, and bet statistics.

Everything here is exact: counts are ``int``, probabilities and EVs are ``Fraction``.  The one
irrational figure, the standard deviation, is given as a ``Decimal`` rounded exactly
(:meth:`BetSummary.standard_deviation`), never through a float.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.core.coup import Winner
from analyzer.core.exact import sqrt_decimal
from analyzer.core.features import Features, Level
from analyzer.core.shoe import Shoe
from analyzer.engine.walk import CompiledTable, SuitsUnknownError, compile_table, universe
from analyzer.errors import BetError, ShoeError

#: Event label of the sequences that run out of cards before the coup is decided (N < 6 only).
RUN_OUT = "Shoe runs out mid-coup (void)"


@dataclass(frozen=True)
class Distribution:
    """Exact counts of coup features for one shoe.

    ``counts[i]`` is the number of ordered K-card sequences of the shoe's physical cards
    (K = min(N, 6), N = cards in the shoe) whose coup ends with ``features[i]``;
    ``denominator`` = N!/(N-K)!.  For N >= 6 these are the published 6-card permutation counts;
    below, ``run_out`` counts the sequences that end before the coup is decided.
    """

    shoe: Shoe
    level: Level
    features: tuple[Features, ...]
    counts: tuple[int, ...]
    denominator: int

    @property
    def sequence_cards(self) -> int:
        """K: cards per counted sequence (6 when the shoe holds at least 6)."""
        return universe(self.shoe.size)

    @property
    def complete(self) -> bool:
        """True when the shoe holds at least 6 cards, so no coup can run out."""
        return self.shoe.size >= 6

    @property
    def run_out(self) -> int:
        """Count of sequences on which the shoe runs out before the coup is decided."""
        return self.denominator - sum(self.counts)

    def count(self, predicate: Callable[[Features], bool]) -> int:
        """Number of counted sequences whose coup satisfies ``predicate``."""
        return sum(c for f, c in zip(self.features, self.counts, strict=True) if predicate(f))

    def probability(self, predicate: Callable[[Features], bool]) -> Fraction:
        """Probability per coup that the coup satisfies ``predicate`` (exact)."""
        return Fraction(self.count(predicate), self.denominator)

    def tally(self, key: Callable[[Features], object]) -> dict[object, int]:
        """Counts grouped by ``key(features)``."""
        out: dict[object, int] = defaultdict(int)
        for f, c in zip(self.features, self.counts, strict=True):
            out[key(f)] += c
        return dict(out)


def distribution(shoe: Shoe, level: Level = Level.VALUE, thirds: bool = False) -> Distribution:
    """The exact :class:`Distribution` of coup features at ``level`` for ``shoe``.

    Raises:
        BetError: ``level`` is CARD and the shoe's suits are unknown.
        ShoeError: ``shoe`` is not a Shoe; BetError: ``level`` is not a Level.
    """
    _check_shoe(shoe)
    if not isinstance(level, Level):
        raise BetError(f"bad level {level!r}: use Level.VALUE, Level.RANK or Level.CARD")
    return _table_distribution(compile_table(level, bool(thirds)), shoe)


def _check_shoe(shoe: object) -> None:
    if not isinstance(shoe, Shoe):
        raise ShoeError(f"bad shoe {shoe!r}: give a Shoe, e.g. Shoe.standard(8) or Shoe.parse('8=2,K=3')")


def _check_bet(bet: object) -> None:
    if not isinstance(bet, Bet):
        raise BetError(f"bad bet {bet!r}: give a Bet, e.g. find_bet('banker')")


def _table_distribution(table: CompiledTable, shoe: Shoe) -> Distribution:
    """The exact counts of ``table``'s features on ``shoe`` (the fast path of
    :mod:`analyzer.engine.kernel`, equal to :func:`analyzer.engine.walk.evaluate`)."""
    from analyzer.engine.kernel import table_counts

    try:
        counts, denominator = table_counts(table, shoe)
    except SuitsUnknownError:
        raise BetError(
            "suited bets need the suits of the cards, and this shoe gives counts per rank only: "
            "use a standard shoe (--decks), remove cards with their suits (e.g. Kh), "
            "or give counts per rank and suit"
        ) from None
    return Distribution(shoe, table.level, table.features, tuple(counts), denominator)


# -- bets -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventRow:
    """One row of a bet's events table: the event, what it pays per unit, its exact count and
    probability per coup, and its contribution to the EV (probability x pays)."""

    event: str
    pays: Fraction
    count: int
    probability: Fraction

    @property
    def ret(self) -> Fraction:
        """Contribution to the expected value per unit staked."""
        return self.probability * self.pays


@dataclass(frozen=True)
class BetSummary:
    """Exact statistics of one bet on one shoe, per unit staked per coup.

    ``ev`` is the expected win (negative: the house has the edge); ``house_edge`` = -ev;
    ``house_edge_resolved`` = -ev / P(the bet does not push), ``None`` for a bet that cannot
    push; ``hit_frequency`` = P(the bet wins); ``variance`` of the result per unit staked.
    """

    bet: Bet
    events: tuple[EventRow, ...]
    denominator: int
    ev: Fraction
    variance: Fraction
    push_probability: Fraction
    hit_frequency: Fraction

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit staked per coup, pushes counted (e.g. 8 decks Banker ~1.0579%)."""
        return -self.ev

    @property
    def house_edge_resolved(self) -> Fraction | None:
        """Expected loss per unit staked per resolved (non-push) bet; None if the bet cannot push
        (then it equals ``house_edge``) or never resolves."""
        if self.push_probability in (0, 1):
            return None
        return -self.ev / (1 - self.push_probability)

    def standard_deviation(self, digits: int = 20) -> Decimal:
        """Standard deviation per unit staked, sqrt(variance), rounded exactly to ``digits``
        decimals (half-even; no float involved).

        Raises:
            BetError: ``digits`` is not a whole number from 0 to 1000.
        """
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 1000:
            raise BetError(f"bad digits {digits!r}: use a whole number from 0 to 1000")
        return sqrt_decimal(self.variance, digits)


@dataclass(frozen=True)
class _Settlement:
    """A bet settled over a tuple of feature records: the distinct (event, pays) keys, the key
    index of each record, each key's line order."""

    keys: tuple[tuple[str, Fraction], ...]
    index: tuple[int, ...]
    order: tuple[int, ...]


#: Cached per (bet object, records object); the objects are kept so their ids stay valid.
_SETTLED: OrderedDict[tuple[int, int], tuple[Bet, tuple[Features, ...], _Settlement]] = OrderedDict()


def _settle_all(bet: Bet, features: tuple[Features, ...]) -> _Settlement:
    key = (id(bet), id(features))
    hit = _SETTLED.get(key)
    if hit is not None and hit[0] is bet and hit[1] is features:
        _SETTLED.move_to_end(key)
        return hit[2]
    keys: dict[tuple[str, Fraction], int] = {}
    index = tuple(keys.setdefault(bet.settle(f), len(keys)) for f in features)
    settled = _Settlement(tuple(keys), index, tuple(_line_order(bet, k[0]) for k in keys))
    _SETTLED[key] = (bet, features, settled)
    if len(_SETTLED) > 4096:
        _SETTLED.popitem(last=False)
    return settled


def summarize(bet: Bet, dist: Distribution) -> BetSummary:
    """Price ``bet`` on the feature distribution ``dist`` (which must be at the bet's level)."""
    settled = _settle_all(bet, dist.features)
    sums = [0] * len(settled.keys)
    for i, c in zip(settled.index, dist.counts, strict=True):
        sums[i] += c
    by_event: dict[tuple[str, Fraction], int] = dict(zip(settled.keys, sums, strict=True))
    order: dict[tuple[str, Fraction], int] = dict(zip(settled.keys, settled.order, strict=True))
    if dist.run_out:
        by_event[(RUN_OUT, Fraction(0))] = by_event.get((RUN_OUT, Fraction(0)), 0) + dist.run_out
        order[(RUN_OUT, Fraction(0))] = 10**6
    d = dist.denominator
    ordered = sorted(by_event.items(), key=lambda kv: (order[kv[0]], -kv[0][1]))
    rows = tuple(EventRow(event, pays, c, Fraction(c, d)) for (event, pays), c in ordered)
    # integers inside: with L the lcm of the pays' denominators, EV = sum c (L pays) / (d L)
    scale = math.lcm(*(pays.denominator for (_, pays), _ in ordered))
    first = second = 0
    for (_, pays), c in ordered:
        x = pays.numerator * (scale // pays.denominator)
        first += c * x
        second += c * x * x
    return BetSummary(
        bet=bet,
        events=rows,
        denominator=d,
        ev=Fraction(first, d * scale),
        variance=Fraction(second * d - first * first, (d * scale) ** 2),
        push_probability=Fraction(sum(c for (_, pays), c in ordered if pays == 0), d),
        hit_frequency=Fraction(sum(c for (_, pays), c in ordered if pays > 0), d),
    )


def _line_order(bet: Bet, event: str) -> int:
    for i, line in enumerate(bet.lines):
        if line.event == event:
            return i
    return len(bet.lines) + (0 if event != bet.otherwise_event else 1)


class Pricer:
    """Prices bets on one shoe, computing each needed feature distribution once.

    >>> from analyzer.bets.catalogue import find_bet
    >>> Pricer(Shoe.standard(8)).summary(find_bet("banker")).house_edge > 0
    True
    """

    def __init__(self, shoe: Shoe) -> None:
        _check_shoe(shoe)
        self.shoe = shoe
        # distributions per compiled table, keyed by identity (hashing a table costs more)
        self._tables: dict[int, tuple[CompiledTable, Distribution]] = {}

    @functools.cache  # noqa: B019 - one Pricer per shoe; the cache lives as long as it does
    def distribution(self, level: Level, thirds: bool) -> Distribution:
        """The feature distribution at ``level`` (see :func:`distribution`)."""
        return distribution(self.shoe, level, thirds)

    def _of_table(self, table: CompiledTable) -> Distribution:
        hit = self._tables.get(id(table))
        if hit is None or hit[0] is not table:
            hit = self._tables[id(table)] = (table, _table_distribution(table, self.shoe))
        return hit[1]

    def summary(self, bet: Bet) -> BetSummary:
        """Exact statistics of ``bet`` on this shoe.

        Pair-only bets (their pay depends on the first-four-card pair flags alone, checked by
        :func:`analyzer.engine.kernel.pair_only`) are priced on the small first-four-card table, with
        the same result as on the full table.

        Raises:
            BetError: a suited bet on a shoe without suits.
        """
        from analyzer.engine.kernel import table_for

        _check_bet(bet)
        return summarize(bet, self._of_table(table_for(bet, self.shoe.size)))

    def summaries(self, bets: Iterable[Bet]) -> list[BetSummary]:
        """:meth:`summary` of each bet, in order."""
        return [self.summary(b) for b in bets]


def price(bet: Bet, shoe: Shoe) -> BetSummary:
    """Exact statistics of one bet on one shoe (see :class:`BetSummary`).

    Raises:
        BetError / ShoeError: ``bet`` is not a Bet or ``shoe`` not a Shoe; a suited bet on a
            shoe without suits.
    """
    _check_bet(bet)
    _check_shoe(shoe)
    return Pricer(shoe).summary(bet)


def pay_for_edge(bet: Bet, shoe: Shoe, house_edge: Fraction | int = 0) -> Fraction:
    """The pay of the bet's adjustable line (e.g. Tie's 8, Dragon 7's 40) at which its house
    edge per coup equals ``house_edge`` (0 = the fair pay), exactly.

    EV is linear in that pay: EV(x) = q x + r, with q the line's probability, so
    x = (-house_edge - r) / q.

    Raises:
        BetError: the bet has no adjustable line, or the line's event cannot happen on this shoe.
    """
    _check_bet(bet)
    _check_shoe(shoe)
    if isinstance(house_edge, bool) or not isinstance(house_edge, int | Fraction):
        raise BetError(
            f"bad house edge {house_edge!r}: give an exact int or Fraction (e.g. Fraction(1, 100) for 1%)"
        )
    if bet.adjustable is None or bet.payout_function is not None:
        raise BetError(f"bet {bet.name!r} has no single adjustable pay to solve for")
    summary = price(bet, shoe)
    line = bet.lines[bet.adjustable]
    q = sum((r.probability for r in summary.events if r.event == line.event), Fraction(0))
    if q == 0:
        raise BetError(f"the event {line.event!r} of bet {bet.name!r} cannot happen on this shoe")
    rest = summary.ev - q * line.pays
    return (-Fraction(house_edge) - rest) / q


# -- the engine-level analysis ---------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    """Exact analysis of one shoe under the standard tableau.

    Counts are integers over ``denominator`` = N!/(N-K)! ordered sequences (K = min(N, 6));
    for N >= 6 they are the published 6-card permutation counts.  Probabilities are per coup.
    ``bets`` holds Banker (19/20), Player (1) and Tie (8, Player/Banker push).
    """

    shoe: Shoe
    distribution: Distribution
    bets: tuple[BetSummary, ...]

    @property
    def denominator(self) -> int:
        """N!/(N-K)!, the number of ordered K-card sequences (K = min(N, 6))."""
        return self.distribution.denominator

    @property
    def outcome_counts(self) -> dict[str, int]:
        """Counts of ``"Banker"``, ``"Player"``, ``"Tie"`` and, when nonzero, the run-out event."""
        counts = self.distribution.tally(lambda f: f.winner)
        out = {w.label: counts.get(w, 0) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)}
        if self.distribution.run_out:
            out[RUN_OUT] = self.distribution.run_out
        return out

    def probability(self, outcome: Winner) -> Fraction:
        """Probability per coup that ``outcome`` happens."""
        return Fraction(self.outcome_counts[outcome.label], self.denominator)

    @property
    def totals(self) -> tuple[tuple[int, ...], ...]:
        """10 x 10 counts: ``totals[p][b]`` = final Player total p with final Banker total b."""
        counts = self.distribution.tally(lambda f: (f.player_total, f.banker_total))
        return tuple(tuple(counts.get((p, b), 0) for b in range(10)) for p in range(10))

    @property
    def naturals(self) -> dict[str, int]:
        """Counts of: Player natural, Banker natural, either, both, neither (decided coups)."""
        d = self.distribution
        return {
            "Player natural": d.count(lambda f: f.player_natural),
            "Banker natural": d.count(lambda f: f.banker_natural),
            "Either natural": d.count(lambda f: f.natural),
            "Both natural": d.count(lambda f: f.player_natural and f.banker_natural),
            "No natural": d.count(lambda f: not f.natural),
        }

    @property
    def cards_dealt(self) -> dict[int, int]:
        """Counts of coups that use 4, 5 and 6 cards."""
        counts = self.distribution.tally(lambda f: f.cards)
        return {n: counts.get(n, 0) for n in (4, 5, 6)}


@functools.cache
def _main_bets() -> tuple[Bet, ...]:
    """The main bets, built once (bets are immutable; priced settlements cache per object)."""
    from analyzer.bets.catalogue import main_bets

    return tuple(main_bets())


def analyze(shoe: Shoe, bets: Sequence[Bet] | None = None) -> Analysis:
    """Exact analysis of ``shoe``: outcome counts and probabilities, the totals table, naturals,
    cards per coup, and the main bets (or ``bets``, all at VALUE level without third cards).

    Costs the same for any number of decks after the one-time compile (about a second).

    >>> a = analyze(Shoe.standard(8))
    >>> a.outcome_counts["Banker"], a.denominator
    (2292252566437888, 4998398275503360)
    """
    dist = distribution(shoe, Level.VALUE, thirds=False)  # checks the shoe
    chosen = _main_bets() if bets is None else list(bets)
    for bet in chosen:
        _check_bet(bet)
        if bet.level > Level.VALUE or bet.thirds:
            raise BetError(f"analyze() prices value-level bets only; price {bet.name!r} with price()")
    return Analysis(shoe, dist, tuple(summarize(b, dist) for b in chosen))
