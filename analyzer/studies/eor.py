"""Effects of removal (EOR): how each card leaving the shoe moves every bet, exactly.

For a shoe S of N cards and a group g of cards (a rank, or a point value), the **effect of
removal** of g on a bet is EOR_g = EV(S - g) - EV(S): the exact change in the bet's expected
value per unit staked when one card of g, chosen at random among the c_g cards of g in the shoe,
leaves it before the coup.  The change in house edge is -EOR_g (reported in percent).

**The identity tested** (exact, for N >= 7): burning one random card does not change the next
coup's distribution (the coup from positions 2-7 of a shuffled shoe is distributed like the one
from positions 1-6), so

    sum_g c_g EV(S - g) / N = EV(S),   equivalently   sum_g c_g EOR_g = 0.

(Below 7 cards the two shoes run out differently and the identity need not hold.)

A removal is exact whatever the suits: when a bet tells suits (Perfect Pair) and the shoe knows
them, "one card of rank r" is the mixture over its suits, weighted by their counts; removing k
cards mixes over every way to draw k cards of the group (multivariate hypergeometric weights).

A **count system** for a bet tags each group with an integer proportional to its EOR (largest
|tag| = m, each tag the EOR scaled and rounded half to even); its **betting correlation** is the
correlation, over the cards of the shoe, between the tags and the EORs (count-weighted Pearson;
for a balanced system this is the usual sum e t / sqrt(sum e^2 sum t^2)).  It is irrational, so
it is given as its exact square with a sign, and as a decimal rounded exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.core.cards import RANK_POINTS, RANKS, RANKS_OF_POINT, SUITS
from analyzer.core.exact import sqrt_decimal
from analyzer.core.shoe import MIN_CARDS, Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.batch import batch_ev
from analyzer.errors import BetError, ShoeError
from analyzer.errors import PlotUnavailableError as PlotUnavailableError  # re-exported: its old home

#: Value groups in counting order (A, 2, ..., 9, then the 0-valued 10/J/Q/K), as published
#: count systems list them.
VALUE_ORDER: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
VALUE_LABELS: dict[int, str] = {1: "A", **{v: str(v) for v in range(2, 10)}, 0: "10/J/Q/K"}

#: Published count systems checked against the derived ones (tags in :data:`VALUE_ORDER`).
#: Source: Eliot Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat",
#: https://www.888casino.com/blog/side-bets/co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat
#: (Dragon 7 tags {0,0,0,-1,-1,-1,-1,2,2,0}; Panda 8 tags {1,1,-2,-2,-2,-1,-1,-2,4,1}, the
#: Wizard of Odds system he uses), order A, 2, ..., 9, T.
PUBLISHED_TAGS: dict[str, tuple[str, tuple[int, ...]]] = {
    "dragon-7": ("Jacobson (888casino blog, Dragon 7)", (0, 0, 0, -1, -1, -1, -1, 2, 2, 0)),
    "panda-8": ("Jacobson / Wizard of Odds (888casino blog, Panda 8)", (1, 1, -2, -2, -2, -1, -1, -2, 4, 1)),
}


@dataclass(frozen=True)
class Group:
    """A group of cards removed together: a rank, or a point value (its ranks pooled)."""

    label: str
    ranks: tuple[int, ...]


def groups(by: str) -> tuple[Group, ...]:
    """The 13 rank groups (``by="rank"``) or the 10 value groups (``by="value"``).

    Raises:
        BetError: ``by`` is neither.
    """
    if by == "rank":
        return tuple(Group(r.label, (i,)) for i, r in enumerate(RANKS))
    if by == "value":
        return tuple(Group(VALUE_LABELS[v], RANKS_OF_POINT[v]) for v in VALUE_ORDER)
    raise BetError(f"bad grouping {by!r}: use rank or value")


@dataclass(frozen=True)
class CountSystem:
    """Integer tags per group, the largest |tag| ``max_tag``; ``bc_squared`` is the square of
    the betting correlation and ``sign`` its sign (None: undefined, all tags equal);
    ``balanced``: the tags weighted by the shoe's counts sum to 0."""

    tags: tuple[int, ...]
    max_tag: int
    bc_squared: Fraction | None
    sign: int
    balanced: bool

    def betting_correlation(self, digits: int = 6) -> Decimal | None:
        """The betting correlation, rounded exactly to ``digits`` decimals."""
        if self.bc_squared is None:
            return None
        return self.sign * sqrt_decimal(self.bc_squared, digits)


@dataclass(frozen=True)
class BetEOR:
    """Effects of removal for one bet on one shoe, per group of :attr:`EORReport.groups`.

    ``removed_ev[g]`` = EV after one card of group g leaves (None if the group is absent);
    ``eor[g]`` = that minus ``ev``; ``depletion[g][k-1]`` = EV(S - k cards of g) - EV(S).
    """

    bet: Bet
    ev: Fraction
    removed_ev: tuple[Fraction | None, ...]
    eor: tuple[Fraction | None, ...]
    depletion: tuple[tuple[Fraction | None, ...], ...]
    identity_sum: Fraction
    average_removed_ev: Fraction | None
    system: CountSystem

    @property
    def house_edge_change(self) -> tuple[Fraction | None, ...]:
        """Change in house edge per group (-EOR), as a fraction (x100 for percent)."""
        return tuple(None if e is None else -e for e in self.eor)


@dataclass(frozen=True)
class EORReport:
    """Effects of removal for several bets on ``shoe``, by ``by`` (rank or value)."""

    shoe: Shoe
    by: str
    groups: tuple[Group, ...]
    counts: tuple[int, ...]
    depth: int
    bets: tuple[BetEOR, ...]

    @property
    def identity_applies(self) -> bool:
        """True when the shoe holds at least 7 cards, where sum_g c_g EOR_g = 0 exactly."""
        return self.shoe.size >= 7


def _removal_cells(shoe: Shoe, group: Group, suits: bool) -> list[tuple[int, int]]:
    """Cells (count index, count) the group's cards sit in: (rank, suit) cells when suits
    matter, else ranks."""
    if suits:
        assert shoe.suited is not None
        return [(4 * r + s, shoe.suited[4 * r + s]) for r in group.ranks for s in range(len(SUITS))]
    return [(r, shoe.counts[r]) for r in group.ranks]


def _mixture(cells: list[tuple[int, int]], k: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every way to draw k cards from the cells, with its number of ways (multivariate
    hypergeometric: probability = ways / C(cards in the cells, k)):
    (ways, ((cell, cards taken), ...))."""
    out: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    live = [(i, c) for i, c in cells if c]

    def rec(j: int, left: int, taken: list[tuple[int, int]], ways: int) -> None:
        if j == len(live):
            if left == 0:
                out.append((ways, tuple(taken)))
            return
        cell, c = live[j]
        for t in range(min(left, c) + 1):
            rec(j + 1, left - t, [*taken, (cell, t)] if t else taken, ways * math.comb(c, t))

    rec(0, k, [], 1)
    return out


def effects_of_removal(
    shoe: Shoe,
    bets: Sequence[Bet],
    by: str = "rank",
    depth: int = 4,
    max_tag: int = 3,
    tableau: Tableau = STANDARD,
) -> EORReport:
    """Exact effects of removal of each group (rank or value) on each bet.

    Args:
        shoe: the shoe (at least 5 cards, so one card can leave).
        bets: the bets.
        by: ``"rank"`` (13 groups A..K) or ``"value"`` (10 groups A..9, 10/J/Q/K).
        depth: K, the most cards of one group removed in the depletion table (k = 1..K), >= 1.
        max_tag: the largest |tag| tried for the suggested count systems (1..max_tag), >= 1.
        tableau: the rules.

    Returns:
        :class:`EORReport`: per bet, the exact EV, the EV after each removal, the EORs, the
        depletion table, the sum identity and the suggested count system.

    Raises:
        BetError: bad ``by``, ``depth`` or ``max_tag``; a suited bet on a shoe without suits.
        ShoeError: the shoe is too small for a removal.

    >>> from analyzer.bets.catalogue import find_bet
    >>> r = effects_of_removal(Shoe.standard(8), [find_bet("banker")], depth=1)
    >>> r.bets[0].identity_sum
    Fraction(0, 1)
    """

    if not isinstance(shoe, Shoe):
        raise BetError(f"bad shoe {shoe!r}: give a Shoe (e.g. Shoe.standard(8))")
    try:
        chosen = tuple(bets)
    except TypeError:
        raise BetError(f"bad bets {bets!r}: give a list of Bet objects") from None
    if not chosen or not all(isinstance(b, Bet) for b in chosen):
        raise BetError("effects of removal need one or more Bet objects")
    for name, value, hi in (("depth", depth, 13), ("largest tag", max_tag, 20)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= hi:
            raise BetError(f"bad {name} {value!r}: use a whole number from 1 to {hi}")
    grps = groups(by)
    suits = any(b.reads.needs_suits for b in chosen)
    if suits and shoe.suited is None:
        raise BetError(
            "suited bets need the suits of the cards, and this shoe gives counts per rank only: "
            "use a standard shoe (a number of decks), remove cards with their suits (e.g. Kh), "
            "or give counts per rank and suit"
        )
    if shoe.size - 1 < MIN_CARDS:
        raise ShoeError(f"a shoe of {shoe.size} cards leaves fewer than {MIN_CARDS} after a removal")
    base = list(shoe.counts if shoe.suited is None or not suits else shoe.suited)
    _check_mixture_size(shoe, grps, suits, depth)
    counts = tuple(sum(shoe.counts[r] for r in g.ranks) for g in grps)
    # every shoe to evaluate: the full shoe, then each (group, k) mixture component
    vectors: dict[tuple[int, ...], int] = {tuple(base): 0}
    plans: list[list[list[tuple[int, int]] | None]] = []
    for g, c in zip(grps, counts, strict=False):
        row: list[list[tuple[int, int]] | None] = []
        cells = _removal_cells(shoe, g, suits)
        for k in range(1, depth + 1):
            if c < k or shoe.size - k < MIN_CARDS:
                row.append(None)
                continue
            parts = []
            for weight, taken in _mixture(cells, k):
                vec = list(base)
                for cell, t in taken:
                    vec[cell] -= t
                parts.append((weight, vectors.setdefault(tuple(vec), len(vectors))))
            row.append(parts)
        plans.append(row)
    result = batch_ev(list(vectors), chosen, tableau=tableau)
    out: list[BetEOR] = []
    for j, bet in enumerate(chosen):
        ev = result.ev(0, j)
        scale = result.scales[j]
        dep: list[tuple[Fraction | None, ...]] = []
        for gi, plan_row in enumerate(plans):
            changes: list[Fraction | None] = []
            for k, mix in enumerate(plan_row, start=1):
                if mix is None:
                    changes.append(None)
                    continue
                # every component draws k cards, so all share the denominator L N!/(N-k-K)!
                total = sum(ways * int(result.numerators[i, j]) for ways, i in mix)
                ways_all = math.comb(counts[gi], k)
                changes.append(Fraction(total, ways_all * scale * result.denominators[mix[0][1]]) - ev)
            dep.append(tuple(changes))
        eor = tuple(d[0] for d in dep)
        removed = tuple(None if e is None else ev + e for e in eor)
        ident = sum((c * e for c, e in zip(counts, eor, strict=False) if e is not None), Fraction(0))
        avg = None
        if all(e is not None for c, e in zip(counts, eor, strict=False) if c):
            pairs = zip(counts, removed, strict=True)
            avg = sum((c * r for c, r in pairs if r is not None), Fraction(0)) / shoe.size
        out.append(BetEOR(bet, ev, removed, eor, tuple(dep), ident, avg, count_system(eor, counts, max_tag)))
    return EORReport(shoe, by, grps, counts, depth, tuple(out))


#: The most shoes one EOR report may price (the suited mixtures grow fast with the depth).
MAX_MIXTURE_SHOES = 20_000


def _check_mixture_size(shoe: Shoe, grps: Sequence[Group], suits: bool, depth: int) -> None:
    """Refuse a report whose suit mixtures would price too many shoes (an upper bound:
    k cards spread over m card cells have at most C(m + k - 1, k) patterns)."""
    total = _mixture_bound(shoe, grps, suits, depth)
    if total > MAX_MIXTURE_SHOES:
        best = max(
            (d for d in range(1, depth) if _mixture_bound(shoe, grps, suits, d) <= MAX_MIXTURE_SHOES),
            default=1,
        )
        raise BetError(
            f"depth {depth} would price about {total:,} shoes (suited removals mix over every way "
            f"to draw the cards); use --depth {best} or less, or --by rank"
        )


def _mixture_bound(shoe: Shoe, grps: Sequence[Group], suits: bool, depth: int) -> int:
    """Upper bound on the shoes a report prices: the full shoe, then per group and k <= depth."""
    return 1 + sum(
        math.comb(len(_removal_cells(shoe, g, suits)) + k - 1, k) for g in grps for k in range(1, depth + 1)
    )


def betting_correlation(
    tags: Sequence[int | Fraction], eor: Sequence[Fraction | None], counts: Sequence[int]
) -> tuple[Fraction | None, int]:
    """(square of the betting correlation, its sign) of ``tags`` against ``eor``: the Pearson
    correlation over the cards of the shoe (each group weighted by its count ``counts``).
    Groups with no cards (EOR None) are left out.  ``(None, 0)`` when either side is constant.

    >>> betting_correlation([1, -1], [Fraction(1), Fraction(-1)], [2, 2])
    (Fraction(1, 1), 1)
    """
    live = [(Fraction(t), e, c) for t, e, c in zip(tags, eor, counts, strict=False) if e is not None and c]
    if not live:
        return None, 0
    # integers inside: put tags and EORs over common denominators (they cancel in the ratio)
    dt = math.lcm(*(t.denominator for t, _, _ in live))
    de = math.lcm(*(e.denominator for _, e, _ in live))
    rows = [(t.numerator * (dt // t.denominator), e.numerator * (de // e.denominator), c) for t, e, c in live]
    n = sum(c for _, _, c in rows)
    st = sum(c * t for t, _, c in rows)
    se = sum(c * e for _, e, c in rows)
    cov = n * sum(c * t * e for t, e, c in rows) - st * se
    vt = n * sum(c * t * t for t, _, c in rows) - st * st
    ve = n * sum(c * e * e for _, e, c in rows) - se * se
    if vt == 0 or ve == 0:
        return None, 0
    return Fraction(cov * cov, vt * ve), (cov > 0) - (cov < 0)


def scaled_tags(eor: Sequence[Fraction | None], largest: int) -> tuple[int, ...]:
    """Tags proportional to ``eor`` with the largest |tag| = ``largest``: each EOR x largest /
    max|EOR|, rounded half to even (0 for a group with no cards, or when every EOR is 0).

    >>> scaled_tags([Fraction(4), Fraction(-1), None], 2)
    (2, 0, 0)
    """
    live = [e for e in eor if e is not None]
    if not live or all(e == 0 for e in live):
        return tuple(0 for _ in eor)
    # integers inside: EORs over a common denominator, then exact half-to-even rounding
    den = math.lcm(*(e.denominator for e in live))
    nums = [None if e is None else e.numerator * (den // e.denominator) for e in eor]
    top = max(abs(x) for x in nums if x is not None)
    return tuple(0 if x is None else _round_half_even(x * largest, top) for x in nums)


def _round_half_even(a: int, b: int) -> int:
    """a / b (b > 0) rounded to the nearest integer, ties to even."""
    q, r = divmod(a, b)
    if 2 * r > b or (2 * r == b and q % 2 == 1):
        q += 1
    return q


def count_system(eor: Sequence[Fraction | None], counts: Sequence[int], max_tag: int = 3) -> CountSystem:
    """The integer count system proportional to ``eor`` with the best betting correlation among
    largest tags 1..``max_tag`` (ties: the smaller tags).  Tag = round(EOR x m / max|EOR|),
    half to even; a group with no cards gets 0.

    >>> count_system([Fraction(3), Fraction(-1), Fraction(-2)], [1, 1, 1], 3).tags
    (3, -1, -2)
    """
    best: CountSystem | None = None
    for m in range(1, max_tag + 1):
        tags = scaled_tags(eor, m)
        sq, sign = betting_correlation(tags, eor, counts)
        balanced = sum(c * t for c, t in zip(counts, tags, strict=False)) == 0
        system = CountSystem(tags, m, sq, sign, balanced)
        if best is None or _signed(system) > _signed(best):
            best = system
    assert best is not None
    return best


def _signed(system: CountSystem) -> Fraction:
    if system.bc_squared is None:
        return Fraction(-2)
    return system.sign * system.bc_squared


Comparison = tuple[str, str, tuple[int, ...], CountSystem, CountSystem]


def published_comparison(report: EORReport) -> list[Comparison]:
    """For the bets with published count systems (:data:`PUBLISHED_TAGS`), by value:
    (bet name, source, published tags, published system scored against our exact EORs,
    our derived system).  Rank reports are pooled to values first (10/J/Q/K share a tag)."""
    out = []
    for b in report.bets:
        name = b.bet.name.split(":")[0]
        if name not in PUBLISHED_TAGS:
            continue
        source, tags = PUBLISHED_TAGS[name]
        eor_v, counts_v = _by_value(report, b)
        sq, sign = betting_correlation(tags, eor_v, counts_v)
        balanced = sum(c * t for c, t in zip(counts_v, tags, strict=False)) == 0
        published = CountSystem(tags, max(abs(t) for t in tags), sq, sign, balanced)
        derived = b.system if report.by == "value" else count_system(eor_v, counts_v, b.system.max_tag)
        out.append((b.bet.name, source, tags, published, derived))
    return out


def _by_value(report: EORReport, b: BetEOR) -> tuple[list[Fraction | None], list[int]]:
    if report.by == "value":
        return list(b.eor), list(report.counts)
    eor: list[Fraction | None] = []
    counts: list[int] = []
    for v in VALUE_ORDER:
        idx = [i for i, g in enumerate(report.groups) if RANK_POINTS[g.ranks[0]] == v]
        c = sum(report.counts[i] for i in idx)
        parts = [(report.counts[i], b.eor[i]) for i in idx if report.counts[i]]
        counts.append(c)
        eor.append(None if not parts else sum((n * e for n, e in parts if e is not None), Fraction(0)) / c)
    return eor, counts
