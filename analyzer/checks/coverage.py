"""Coverage coups: deterministic suited coups that settle every event of a bet in every
structural case where engines go wrong, and a coup through every decision cell of a tableau.

Test vectors drawn at random reach a bet's rare paying events by chance only, and never ask
whether an engine pays a pair on a side that drew a third card.  This module builds the coups
systematically, for any bet (catalogue, bet file, Python):

* **Targets.**  For each event the bet can settle on an 8-deck shoe, and each *class* the
  coup falls in on one *axis*: the deal (:data:`DEALS`: a natural of the Player, of the
  Banker or of both; else whether each side stood or drew a third card) and, from what the bet
  reads (:attr:`~analyzer.bets.model.Bet.reads`), for every set of card positions it reads:
  the rank pattern of those cards when it reads ranks (``ranks 2``: a pair; ``ranks 1+1``: two
  ranks; for a bet that reads only pictures against tens, how many pictures: ``pictures 2``),
  and the suit or colour pattern at the detail it reads them (identical cards or not;
  one suit or mixed; which suit; one colour or mixed; which colour; for a bet that reads only
  some values' suits, per such value).  A target is (event, ``"axis: class"``), e.g.
  (``"Player pair"``, ``"deal: Player drew, Banker stood"``).  Every axis is crossed with the
  event by itself (each pair of event and class is reached, not every combination of classes),
  which keeps the coups to a few per event.
* **Which are possible** is exact, not guessed: the bet is priced on 8 decks with its events
  split by class (:func:`possible_targets`, the engine's own tables,
  :func:`~analyzer.engine.pricing.price`); a target with no 6-card sequence is *impossible*
  (a Dragon 7 where the Banker stood, a tie on 5 after a natural).
* **The search** (:func:`coverage`) deals candidate coups from a seeded generator defined by
  SHA-256 (:func:`candidate`: value alphabets, card alphabets, runs of ranks, suit styles per
  side), resolves each, and keeps the first coup that reaches each possible target, until every
  one is reached or ``tries`` candidates were dealt; targets left are *not found within the
  bound*.  The same arguments give the same coups on every machine.

:func:`value_coups` enumerates every leaf of the value-level dealing tree from the tableau's
draw rules alone, and :func:`seeded_coups` deals the seeded suited coups: with the coverage
coups, what the test vectors hold (:mod:`analyzer.output.vectors` writes them), and what the
power of the vectors against each engine bug is measured on
(:mod:`analyzer.checks.mutant_power`).

:func:`cell_coups` gives one concrete suited coup through every decision cell of a tableau (the
naturals of each side and of both, then every Banker two-card total that can draw or stand
against a Player that stood or drew each third-card value); the hypothesis strategy
:func:`analyzer.checks.oracle.decision_cells` draws its seed.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from analyzer.bets.model import Bet
from analyzer.core.cards import COLOURS, RANKS, SUITS, Card, Cards, Rank, Suit, hand_total
from analyzer.core.coup import (
    ALL_CARDS,
    BANKER_FIRST_TWO,
    BANKER_HAND,
    FIRST_FOUR,
    PLAYER_FIRST_TWO,
    PLAYER_HAND,
    POSITION_LABELS,
    Coup,
    resolve,
)
from analyzer.core.reads import ALL_VALUES, PositionSet, RankDetail, Reads, SuitDetail
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, TOTALS, Tableau
from analyzer.engine.pricing import price
from analyzer.errors import OracleError

#: Decks of the shoe the coverage coups must be dealable from (and the targets possible on).
COVERAGE_DECKS = 8
#: The most candidates :func:`coverage` deals by default (it stops sooner when every possible
#: target is reached; every catalogue bet under seed 1 deals them all, then 16,453 variants).
COVERAGE_TRIES = 20_000
#: The most variants of found coups :func:`coverage` tries after the candidates (one card
#: changed, then two), for the targets the candidates missed.
COVERAGE_VARIANTS = 200_000
COVERAGE_STREAM = "punto-banco-coverage"
CELL_STREAM = "punto-banco-cells"
#: Bumped whenever the classes change (it keys the disk cache of the class tables).
CLASSES_VERSION = 1
COUP_CARDS = 6

#: The deal axis: which naturals, else who stood and who drew a third card.
DEALS: tuple[str, ...] = (
    "natural: Player",
    "natural: Banker",
    "natural: both",
    "Player stood, Banker stood",
    "Player stood, Banker drew",
    "Player drew, Banker stood",
    "Player drew, Banker drew",
)
DEAL_AXIS = "deal"
#: What the deal axis reads of a coup.
DEAL_READS = Reads.of(["player_cards", "banker_cards", "player_natural", "banker_natural"])


# -- the seeded stream ---------------------------------------------------------------------------


def seeded_index(seed: int, coup: int, draw: int, size: int, stream: str = "punto-banco-vectors") -> int:
    """A uniform index 0 <= i < ``size`` for draw ``draw`` of coup ``coup`` under ``seed``: the
    first 8 bytes (big-endian) of SHA-256 of the ASCII text
    ``"{stream} {seed} {coup} {draw} {attempt}"``, attempt 0, 1, ... until the number falls
    below the largest multiple of ``size`` under 2**64, taken modulo ``size`` (rejection
    sampling: exactly uniform).  Reproducible in any language.

    >>> seeded_index(1, 0, 0, 416) == seeded_index(1, 0, 0, 416) < 416
    True
    """
    limit = (1 << 64) - (1 << 64) % size
    for attempt in itertools.count():
        text = f"{stream} {seed} {coup} {draw} {attempt}"
        number = int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")
        if number < limit:
            return number % size
    raise AssertionError("unreachable")  # pragma: no cover


class _Draws:
    """Successive :func:`seeded_index` draws of one coup of one stream."""

    __slots__ = ("_coup", "_n", "_seed", "_stream")

    def __init__(self, seed: int, coup: int, stream: str) -> None:
        self._seed, self._coup, self._stream, self._n = seed, coup, stream, 0

    def below(self, size: int) -> int:
        self._n += 1
        return seeded_index(self._seed, self._coup, self._n - 1, size, self._stream)

    def choice(self, items: Sequence[int]) -> int:
        return items[self.below(len(items))]


_TENS: tuple[Rank, ...] = tuple(r for r in RANKS if r.point == 0)


def _owners(values: Sequence[int], tableau: Tableau) -> list[str]:
    """Whose card each of six values is under ``tableau`` ("P", "B", or "-" when unused)."""
    p2, b2 = hand_total([values[0], values[2]]), hand_total([values[1], values[3]])
    player = tableau.player_draws_third(p2, b2)
    banker = tableau.banker_draws_third(p2, b2, values[4] if player else None)
    owners = ["P", "B", "P", "B"] + (["P"] if player else []) + (["B"] if banker else [])
    return owners + ["-"] * (COUP_CARDS - len(owners))


def candidate(seed: int, attempt: int, tableau: Tableau = STANDARD) -> tuple[Card, ...]:
    """Six suited cards for try ``attempt`` of the coverage search under ``seed``, from the draws
    of :func:`seeded_index` on the stream ``punto-banco-coverage``.  Half the tries deal from a
    small alphabet of point values (1, 2, 3, 4 or all 10 values; a 0 as one of a few of 10 J Q
    K), so pairs, many of a kind and every deal come often; the other half from an alphabet of
    cards (any, of one suit, of one rank, or a run of ranks of one suit: A 2 .. K A, so J Q K A
    is one).  Each try then styles its suits: as drawn, all one suit, each side's hand one suit,
    all one colour, each side one colour, or copies (a card of a rank already dealt takes its
    suit: identical cards).  Any six cards with at most six copies of a card: every such coup can
    be dealt from a shoe of 6 decks or more."""
    draw = _Draws(seed, attempt, COVERAGE_STREAM)
    if draw.below(2) == 0:
        k = (1, 2, 3, 4, 10)[draw.below(5)]
        pool = list(range(10))
        alphabet = [pool.pop(draw.below(len(pool))) for _ in range(k)]
        values = [alphabet[draw.below(k)] for _ in range(COUP_CARDS)]
        tens = list(_TENS)
        ten_ranks = [tens.pop(draw.below(len(tens))) for _ in range(1 + draw.below(4))]
        ranks = [RANKS[v - 1] if v else ten_ranks[draw.below(len(ten_ranks))] for v in values]
        cards = [Card(r, SUITS[draw.below(4)]) for r in ranks]
    else:
        k, mode = 1 + draw.below(4), draw.below(4)
        if mode == 0:
            deck = [Card(r, s) for r in RANKS for s in SUITS]
            alphabet_cards = [deck.pop(draw.below(len(deck))) for _ in range(k)]
        elif mode == 1:
            suit, pool_ranks = SUITS[draw.below(4)], list(RANKS)
            alphabet_cards = [Card(pool_ranks.pop(draw.below(len(pool_ranks))), suit) for _ in range(k)]
        elif mode == 2:
            rank, suits = RANKS[draw.below(13)], list(SUITS)
            alphabet_cards = [Card(rank, suits.pop(draw.below(len(suits)))) for _ in range(k)]
        else:
            suit, start, run = SUITS[draw.below(4)], draw.below(14 - k), (*RANKS, RANKS[0])
            alphabet_cards = [Card(rank, suit) for rank in run[start : start + k]]
        cards = [alphabet_cards[draw.below(k)] for _ in range(COUP_CARDS)]
        if mode != 0:
            return tuple(cards)  # the alphabet is the style
    return tuple(_styled(cards, draw, tableau))


def _styled(cards: list[Card], draw: _Draws, tableau: Tableau) -> list[Card]:
    style = draw.below(6)
    if style == 0:
        return cards
    if style == 5:  # copies: a rank already dealt keeps its first suit
        first: dict[Rank, Suit | None] = {}
        return [Card(c.rank, first.setdefault(c.rank, c.suit)) for c in cards]
    owners = _owners([c.point for c in cards], tableau) if style in (2, 4) else ["P"] * COUP_CARDS
    picked: dict[str, Suit] = {}
    out = []
    for card, owner in zip(cards, owners, strict=True):
        if owner not in picked:
            picked[owner] = SUITS[draw.below(4)]
        suit = picked[owner]
        if style in (3, 4):  # one colour: the card's own suit when it has the colour, else the mate
            same = card.suit is not None and card.suit.colour is suit.colour
            suit = card.suit if same and card.suit is not None else suit
        out.append(Card(card.rank, suit))
    return out


# -- the classes ---------------------------------------------------------------------------------------


_SET_NAMES: dict[PositionSet, str] = {
    PLAYER_FIRST_TWO: "Player's first two cards",
    BANKER_FIRST_TWO: "Banker's first two cards",
    FIRST_FOUR: "first four cards",
    PLAYER_HAND: "Player's hand",
    BANKER_HAND: "Banker's hand",
    ALL_CARDS: "all cards",
}
_SHORT = ("P1", "B1", "P2", "B2", "P3", "B3")


def set_name(positions: PositionSet) -> str:
    """A read set of positions in words: ``"Player's first two cards"``, ``"cards P1 B3"``."""
    if positions in _SET_NAMES:
        return _SET_NAMES[positions]
    if len(positions) == 1:
        return POSITION_LABELS[next(iter(positions))]
    return "cards " + " ".join(_SHORT[i] for i in sorted(positions))


def _partitions(n: int, most: int | None = None) -> Iterator[tuple[int, ...]]:
    """The partitions of ``n``, parts in decreasing order, largest first."""
    top = n if most is None else min(n, most)
    if n == 0:
        yield ()
        return
    for first in range(top, 0, -1):
        for rest in _partitions(n - first, first):
            yield (first, *rest)


def _value_name(value: int) -> str:
    return "10-value cards" if value == 0 else f"{value}s"


_SUIT_WORDS = {s: s.name.lower() for s in SUITS}
_COLOUR_WORDS = {c: c.name.lower() for c in COLOURS}


def _suit_domain(detail: SuitDetail) -> tuple[str, ...]:
    if detail is SuitDetail.SAME_CARD:
        return ("identical cards", "no identical cards")
    if detail in (SuitDetail.ONE_SUIT, SuitDetail.SUIT_EQUALITY):
        return ("one suit", "mixed suits")
    if detail in (SuitDetail.ONE_SUIT_NAMED, SuitDetail.SUIT):
        return (*(f"all {_SUIT_WORDS[s]}" for s in SUITS), "mixed suits")
    if detail in (SuitDetail.ONE_COLOUR, SuitDetail.COLOUR_EQUALITY):
        return ("one colour", "mixed colours")
    return (*(f"all {_COLOUR_WORDS[c]}" for c in COLOURS), "mixed colours")


def _suit_class(g: Any, detail: SuitDetail) -> str:
    """The class of a card group (:class:`~analyzer.core.hands.CardGroup`) at ``detail``, read
    only through the features that detail answers (so it works inside the engine too)."""
    if detail is SuitDetail.SAME_CARD:
        return "identical cards" if g.same_card_pair else "no identical cards"
    if detail in (SuitDetail.ONE_SUIT, SuitDetail.SUIT_EQUALITY):
        return "one suit" if g.suited else "mixed suits"
    if detail in (SuitDetail.ONE_SUIT_NAMED, SuitDetail.SUIT):
        for s in SUITS:
            if g.suit(s):
                return f"all {_SUIT_WORDS[s]}"
        return "mixed suits"
    if detail in (SuitDetail.ONE_COLOUR, SuitDetail.COLOUR_EQUALITY):
        return "one colour" if g.one_colour else "mixed colours"
    for c in COLOURS:
        if g.colour(c):
            return f"all {_COLOUR_WORDS[c]}"
    return "mixed colours"


@dataclass(frozen=True)
class Axis:
    """One way of classing coups for a bet.

    Attributes:
        name: what is classed, e.g. ``"deal"``, ``"ranks of Player's first two cards"``.
        domain: every class the axis can name, in order (some may be impossible for a bet).
        of: the class of a coup record (full, or as the bet's reads see it).
    """

    name: str
    domain: tuple[str, ...]
    of: Callable[[Coup], str]


def deal_of(coup: Coup) -> str:
    """The coup's class on the deal axis (:data:`DEALS`)."""
    player, banker = coup.player_natural, coup.banker_natural
    if player or banker:
        return DEALS[2] if player and banker else DEALS[0] if player else DEALS[1]
    drew = coup.player_cards == 3, coup.banker_cards == 3
    return DEALS[3 + 2 * drew[0] + drew[1]]


def axes(reads: Reads) -> tuple[Axis, ...]:
    """The axes a bet reading ``reads`` is classed on: the deal, then per read set (in order of
    its first position) its rank pattern when ranks are read, and its suit or colour pattern at
    the detail read (per value for a bet that reads only some values' suits)."""
    out = [Axis(DEAL_AXIS, DEALS, deal_of)]
    for positions in sorted(reads.sets, key=sorted):
        name = set_name(positions)
        least = len(positions & FIRST_FOUR)
        if reads.ranks.covers(RankDetail.EQUALITY):
            sizes = range(len(positions), least - 1, -1)
            domain = tuple("ranks " + "+".join(map(str, p)) for n in sizes for p in _partitions(n))
            out.append(Axis(f"ranks of {name}", domain, _rank_axis(positions)))
        if reads.ranks is RankDetail.PICTURE:
            domain = tuple(f"pictures {n}" for n in range(len(positions), -1, -1))
            out.append(Axis(f"pictures of {name}", domain, _picture_axis(positions)))
        if reads.suits is SuitDetail.NONE:
            continue
        colours = reads.suits in (
            SuitDetail.ONE_COLOUR,
            SuitDetail.ONE_COLOUR_NAMED,
            SuitDetail.COLOUR_EQUALITY,
            SuitDetail.COLOUR,
        )
        what = "colours" if colours else "suits"
        if reads.suit_values == ALL_VALUES:
            domain = _suit_domain(reads.suits)
            out.append(Axis(f"{what} of {name}", domain, _suit_axis(positions, reads.suits)))
        else:
            for value in sorted(reads.suit_values):
                domain = (*_suit_domain(reads.suits), f"no {_value_name(value)}")
                axis_name = f"{what} of the {_value_name(value)} of {name}"
                out.append(Axis(axis_name, domain, _suit_axis(positions, reads.suits, value)))
    return tuple(out)


def _rank_axis(positions: PositionSet) -> Callable[[Coup], str]:
    def of(coup: Coup) -> str:
        return "ranks " + "+".join(map(str, coup.cards(positions).rank_pattern))

    return of


def _picture_axis(positions: PositionSet) -> Callable[[Coup], str]:
    def of(coup: Coup) -> str:
        return f"pictures {coup.cards(positions).pictures}"

    return of


def _suit_axis(positions: PositionSet, detail: SuitDetail, value: int | None = None) -> Callable[[Coup], str]:
    def of(coup: Coup) -> str:
        group = coup.cards(positions)
        if value is not None:
            group = group.of_value(value)
            if not len(group):
                return f"no {_value_name(value)}"
        return _suit_class(group, detail)

    return of


# -- the targets ---------------------------------------------------------------------------------------


class Target(NamedTuple):
    """A pair of event and class to reach: ``bet`` (machine name), ``event`` (as the bet names
    it), ``case`` (``"axis: class"``, e.g. ``"deal: Player drew, Banker stood"``)."""

    bet: str
    event: str
    case: str


@dataclass(frozen=True)
class BetTargets:
    """What :func:`possible_targets` found for one bet.

    Attributes:
        bet: the bet.
        axes: its axes (:func:`axes` of its reads).
        events: every event of the bet, in its pay table's order, with its pay.
        possible: the targets that have a 6-card sequence on the shoe, in order (event, axis,
            class).
        impossible: the other targets (every class of every axis's domain, for every event;
            an event that cannot happen at all makes each of its targets impossible).
    """

    bet: Bet
    axes: tuple[Axis, ...]
    events: tuple[tuple[str, Fraction], ...]
    possible: tuple[Target, ...]
    impossible: tuple[Target, ...]


_SEP = "\x1f"


def class_bet(bet: Bet) -> Bet:
    """``bet`` with its events split by class: the event ``EVENT␟CLASS␟CLASS...`` (one class per
    axis of :func:`axes`, joined by U+001F), paying what ``bet`` pays; it reads the bet's reads
    and the deal.  A bet with an origin gets one for the disk cache of compiled tables."""
    chosen = axes(bet.reads)

    def event(coup: Coup) -> str:
        return _SEP.join([bet.settle(coup)[0], *(axis.of(coup) for axis in chosen)])

    derived = Bet.from_function(
        f"{bet.name} (by class)", lambda coup: bet.settle(coup)[1], reads=bet.reads | DEAL_READS, event=event
    )
    if bet.origin:
        return replace(derived, origin=f"coverage{CLASSES_VERSION}:{bet.origin}")
    return derived


def possible_targets(bet: Bet, tableau: Tableau = STANDARD, decks: int = COVERAGE_DECKS) -> BetTargets:
    """Which targets of ``bet`` can happen on a standard shoe of ``decks`` decks, exactly: the
    bet's table with its events split by class (:func:`class_bet`) evaluated on the shoe.

    Cost: one table compile per bet (most bets well under a second; a bet that reads two hands'
    suits by name, such as the D7/P8 progressive, about 30 s), then the disk cache serves a bet
    with an origin (catalogue and bet-file bets).

    Raises:
        CompileBudgetError: the split table needs more records than the compile budget allows.
    """
    chosen = axes(bet.reads)
    shoe = Shoe.standard(decks)
    summary = price(class_bet(bet), shoe, tableau)
    seen: set[tuple[str, int, str]] = set()
    for row in summary.events:
        if row.count:
            event, *classes = row.event.split(_SEP)
            seen.update((event, i, c) for i, c in enumerate(classes))
    events = tuple((e.event, e.pays) for e in price(bet, shoe, tableau).events)
    possible: list[Target] = []
    impossible: list[Target] = []
    for event, _ in events:
        for i, axis in enumerate(chosen):
            extra = sorted({c for e, j, c in seen if e == event and j == i} - set(axis.domain))
            for c in (*axis.domain, *extra):
                target = Target(bet.name, event, f"{axis.name}: {c}")
                (possible if (event, i, c) in seen else impossible).append(target)
    return BetTargets(bet, chosen, events, tuple(possible), tuple(impossible))


# -- the search ---------------------------------------------------------------------------------------


class CoverageCoup(NamedTuple):
    """A coup that reaches one target.

    Attributes:
        bet: the bet's machine name.
        event: the event it settles at.
        case: the class reached, ``"axis: class"``.
        cards: the cards the coup uses, in dealing order (4-6 suited cards).
        spare: the cards after them, to six (so ``cards + spare`` can be dealt as six cards).
        net: the bet's net result per unit staked (win amount, 0 push, -1 loss).
        attempt: the try of the search that dealt it (:func:`candidate`).
    """

    bet: str
    event: str
    case: str
    cards: Cards
    spare: Cards
    net: Fraction
    attempt: int


@dataclass(frozen=True)
class Coverage:
    """What :func:`coverage` found.

    Attributes:
        coups: one coup per target reached, in the order of the targets (bet, event, axis,
            class).
        impossible: targets no coup can reach on the shoe (:func:`possible_targets`).
        not_found: possible targets no candidate reached within the tries.
        tries: candidates dealt (at most the bound).
        variants: neighbours of found coups tried after them (at most the bound).
        seed: the search's seed.
    """

    coups: tuple[CoverageCoup, ...]
    impossible: tuple[Target, ...]
    not_found: tuple[Target, ...]
    tries: int
    variants: int
    seed: int

    def why(self, target: Target) -> str:
        """Why ``target`` has a coup or has none, in words.

        Raises:
            OracleError: ``target`` is not one of this search's targets.
        """
        for c in self.coups:
            if (c.bet, c.event, c.case) == target:
                return f"reached by the coup {c.cards} (try {c.attempt})"
        if target in self.impossible:
            return (
                f"impossible: no sequence of six cards from a {COVERAGE_DECKS}-deck shoe settles "
                f"{target.event!r} in this class (its exact count is 0)"
            )
        if target in self.not_found:
            bound = f"{self.tries:,} candidates and {self.variants:,} variants"
            return f"not found within {bound} (seed {self.seed})"
        raise OracleError(f"{target!r} is not a target of this search")

    def distinct(self) -> list[tuple[int, Cards, Cards]]:
        """The distinct coups, in the order the search dealt them: (attempt, cards, spare)."""
        seen: dict[int, tuple[int, Cards, Cards]] = {}
        for c in self.coups:
            seen.setdefault(c.attempt, (c.attempt, c.cards, c.spare))
        return [seen[k] for k in sorted(seen)]


def coverage(
    bets: Iterable[Bet],
    tableau: Tableau = STANDARD,
    *,
    seed: int = 1,
    tries: int = COVERAGE_TRIES,
    variants: int = COVERAGE_VARIANTS,
    targets: Sequence[BetTargets] | None = None,
) -> Coverage:
    """Coverage coups for every possible target of every bet (:func:`possible_targets` on 8
    decks): deal :func:`candidate` 0, 1, ... (at most ``tries``) and keep, for each target, the
    first coup that reaches it; one coup often reaches targets of several bets.  Deterministic.

    Raises:
        OracleError: a bad seed or number of tries, or two bets of one name.
        CompileBudgetError: a bet's class table is beyond the compile budget.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OracleError(f"bad seed {seed!r}: use a whole number 0 or more")
    for what, bound in (("tries", tries), ("variants", variants)):
        if isinstance(bound, bool) or not isinstance(bound, int) or bound < 0:
            raise OracleError(f"bad {what} {bound!r}: use a whole number 0 or more")
    chosen = list(bets)
    names = [b.name for b in chosen]
    if len(set(names)) != len(names):
        raise OracleError(f"the bet {next(n for n in names if names.count(n) > 1)!r} is listed twice")
    found_targets = list(targets) if targets is not None else [possible_targets(b, tableau) for b in chosen]
    # per bet: event -> {(axis index, class)} still to reach
    left: dict[str, dict[str, set[tuple[int, str]]]] = {}
    order: dict[Target, int] = {}
    for bt in found_targets:
        index = {axis.name: i for i, axis in enumerate(bt.axes)}
        for t in bt.possible:
            axis, _, cls = t.case.partition(": ")
            left.setdefault(t.bet, {}).setdefault(t.event, set()).add((index[axis], cls))
            order[t] = len(order)
    by_name = {bt.bet.name: bt for bt in found_targets}
    reached: dict[Target, CoverageCoup] = {}

    def visit(six: tuple[Card, ...], attempt: int) -> None:
        coup = resolve(six, tableau)
        used = coup.cards_dealt
        for name in list(left):
            bt = by_name[name]
            event, net = bt.bet.settle(coup)
            wanted = left[name].get(event)
            if not wanted:
                continue
            for i, axis in enumerate(bt.axes):
                cls = axis.of(coup)
                if (i, cls) in wanted:
                    wanted.discard((i, cls))
                    target = Target(name, event, f"{axis.name}: {cls}")
                    reached[target] = CoverageCoup(
                        name, event, target.case, Cards(six[:used]), Cards(six[used:]), net, attempt
                    )
            if not wanted:
                del left[name][event]
                if not left[name]:
                    del left[name]

    attempt = 0
    while left and attempt < tries:
        visit(candidate(seed, attempt, tableau), attempt)
        attempt += 1
    dealt = attempt
    # the few targets the candidates missed: change one, then two, cards of a coup already
    # found at the same event (every card, in order), at most `variants` of them
    for variant in _neighbours(left, reached, tableau):
        if not left or attempt >= dealt + variants:
            break
        visit(variant, attempt)
        attempt += 1
    not_found = tuple(t for t in order if t not in reached)
    return Coverage(
        coups=tuple(reached[t] for t in sorted(reached, key=order.__getitem__)),
        impossible=tuple(t for bt in found_targets for t in bt.impossible),
        not_found=not_found,
        tries=dealt,
        variants=attempt - dealt,
        seed=seed,
    )


_ALL_CARDS = tuple(Card(r, st) for r in RANKS for st in SUITS)


def _neighbours(
    left: dict[str, dict[str, set[tuple[int, str]]]], reached: dict[Target, CoverageCoup], tableau: Tableau
) -> Iterator[tuple[Card, ...]]:
    """Variants of coups already found, for the targets still left (lazy: the caller stops when
    nothing is left): first every coup found for a bet with targets left, its suits permuted
    (23 ways), its ranks of value 0 permuted (23 ways), and each side's hand in one suit (16
    ways), which keep every value; then each coup found at an event with targets left, one card replaced by
    each of the 52 cards, then two."""
    for stage in ("permute", 1, 2):
        bases: dict[int, tuple[Card, ...]] = {}
        for target, found in list(reached.items()):
            wanted = left.get(target.bet, {})
            if wanted and (stage == "permute" or target.event in wanted):
                bases.setdefault(found.attempt, (*found.cards, *found.spare))
        for base in bases.values():
            if stage == "permute":
                for order in itertools.permutations(SUITS):
                    suit = dict(zip(SUITS, order, strict=True))
                    if order != SUITS:
                        yield tuple(Card(c.rank, suit[c.suit] if c.suit else None) for c in base)
                for tens in itertools.permutations(_TENS):
                    rank = dict(zip(_TENS, tens, strict=True))
                    if tens != _TENS:
                        yield tuple(Card(rank.get(c.rank, c.rank), c.suit) for c in base)
                owners = _owners([c.point for c in base], tableau)
                for a, b in itertools.product(SUITS, repeat=2):
                    yield tuple(Card(c.rank, a if o == "P" else b) for c, o in zip(base, owners, strict=True))
                continue
            for where in itertools.combinations(range(COUP_CARDS), int(stage)):
                for cards in itertools.product(_ALL_CARDS, repeat=int(stage)):
                    six = list(base)
                    for i, card in zip(where, cards, strict=True):
                        six[i] = card
                    yield tuple(six)


def event_coups(
    bet: Bet, tableau: Tableau = STANDARD, *, seed: int = 1, tries: int = COVERAGE_TRIES
) -> tuple[CoverageCoup, ...]:
    """The coverage coups of one bet (:func:`coverage`): one per possible target reached.

    >>> from analyzer.bets.catalogue import find_bet
    >>> coups = event_coups(find_bet("dragon-7"))
    >>> sorted({c.case for c in coups if c.event == "Banker wins with 3-card 7"})
    ['deal: Player drew, Banker drew', 'deal: Player stood, Banker drew']
    """
    return coverage([bet], tableau, seed=seed, tries=tries).coups


#: Decks of the shoe each seeded settlement coup of the test vectors is dealt from (a fresh
#: shoe per coup).
SETTLEMENT_DECKS = 8


# -- the value-level coups ----------------------------------------------------------------------


class ValueCoup(NamedTuple):
    """One leaf of the value-level dealing tree.

    Attributes:
        cards: the point values dealt (0-9; 10, J, Q, K are 0), in dealing order: Player,
            Banker, Player, Banker, then the Player's third card if it drew, then the
            Banker's third card if it drew (4 to 6 values).
        player_total, banker_total: final totals 0-9.
        player_draws, banker_draws: whether that side took a third card.
        winner: ``"player"``, ``"banker"`` or ``"tie"``.
        naturals: ``"none"``, ``"player"``, ``"banker"`` or ``"both"``: which sides' two-card
            totals are naturals under the rules.
    """

    cards: tuple[int, ...]
    player_total: int
    banker_total: int
    player_draws: bool
    banker_draws: bool
    winner: str
    naturals: str


def value_coups(tableau: Tableau = STANDARD) -> Iterator[ValueCoup]:
    """Every leaf of the value-level dealing tree under ``tableau``, in a fixed order: the first
    four values in lexicographic order (P1, B1, P2, B2 each 0-9), then the Player's third value
    0-9 (when it draws), then the Banker's third value 0-9 (when it draws).  Derived from the
    tableau's draw rules alone (:meth:`Tableau.draws`); the count equals
    :func:`analyzer.engine.walk.leaf_count` (339,400 under the standard tableau).

    >>> first = next(value_coups())
    >>> first.cards, first.player_draws, first.banker_draws
    ((0, 0, 0, 0, 0, 0), True, True)
    """
    thirds: tuple[int | None, ...] = tuple(range(10))
    for p1, b1, p2, b2 in itertools.product(range(10), repeat=4):
        pt2, bt2 = hand_total((p1, p2)), hand_total((b1, b2))
        p_nat, b_nat = pt2 in tableau.naturals, bt2 in tableau.naturals
        naturals = "both" if p_nat and b_nat else "player" if p_nat else "banker" if b_nat else "none"
        player_draws = tableau.player_draws_third(pt2, bt2)
        for p3 in thirds if player_draws else (None,):
            banker_draws = tableau.banker_draws_third(pt2, bt2, p3)
            for b3 in thirds if banker_draws else (None,):
                pt = (pt2 + (p3 or 0)) % 10
                bt = (bt2 + (b3 or 0)) % 10
                winner = "player" if pt > bt else "banker" if bt > pt else "tie"
                cards = (p1, b1, p2, b2, *(v for v in (p3, b3) if v is not None))
                yield ValueCoup(cards, pt, bt, p3 is not None, b3 is not None, winner, naturals)


# -- the seeded suited coups -----------------------------------------------------------------------


def kit_shoe_cards(decks: int = SETTLEMENT_DECKS) -> list[Card]:
    """The physical cards of a standard shoe in the kit's fixed order: rank A 2 .. 9 T J Q K,
    then suit s h d c, each card ``decks`` times (416 cards for 8 decks)."""
    return [Card(rank, suit) for rank in RANKS for suit in SUITS for _ in range(decks)]


def seeded_coups(seed: int, count: int, decks: int = SETTLEMENT_DECKS) -> list[tuple[Card, ...]]:
    """``count`` coups of six suited cards, coup ``i`` dealt from a fresh shoe of ``decks``
    decks (:func:`kit_shoe_cards`): draw ``j`` (0-5) takes the card at :func:`seeded_index`
    ``(seed, i, j, cards left)`` of the cards left, in their order, out of the shoe."""
    full = kit_shoe_cards(decks)
    out = []
    for i in range(count):
        left = list(full)
        out.append(tuple(left.pop(seeded_index(seed, i, j, len(left))) for j in range(COUP_CARDS)))
    return out


# -- the decision cells ------------------------------------------------------------------------------


class CellCoup(NamedTuple):
    """A coup through one decision cell: ``cell`` (:func:`decision_cells_of`) and six suited
    ``cards`` in dealing order."""

    cell: tuple[str, int | None, int | None]
    cards: Cards


def decision_cells_of(tableau: Tableau = STANDARD) -> tuple[tuple[str, int | None, int | None], ...]:
    """The decision cells of ``tableau``, in order: the naturals, ``("natural-player", None,
    None)``, ``("natural-banker", ...)``, ``("natural-both", ...)`` (each where the tableau has
    a natural), then every Banker cell ``("banker", b, v)``: a Banker two-card total ``b`` that
    is not a natural, against a Player that stood (``v`` None; when some Player total stands) or
    drew a third card of value ``v`` 0-9 (when some Player total draws).  A Banker cell's coup
    also passes through a Player cell.  The standard tableau has 3 + 8 x 11 = 91.

    >>> len(decision_cells_of())
    91
    """
    plain = [t for t in TOTALS if t not in tableau.naturals]
    cells: list[tuple[str, int | None, int | None]] = []
    if tableau.naturals:
        cells += [("natural-player", None, None), ("natural-banker", None, None)]
        cells.append(("natural-both", None, None))
    stands = any(not tableau.player_draws(p) for p in plain)
    draws = any(tableau.player_draws(p) for p in plain)
    situations: list[int | None] = ([None] if stands else []) + (list(range(10)) if draws else [])
    cells += [("banker", b, v) for b in plain for v in situations]
    return tuple(cells)


class CellCoups(list[Cards]):
    """The coups of :func:`cell_coups`, one :class:`Cards` per cell; its repr is the call that
    makes them again (``cell_coups(decks=8, seed=12345)``), so a failing test prints one line."""

    def __init__(self, coups: Iterable[Cards], call: str) -> None:
        super().__init__(coups)
        self.call = call

    def __repr__(self) -> str:
        return self.call

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def cell_coups(tableau: Tableau = STANDARD, decks: int = 8, seed: int = 0) -> CellCoups:
    """One coup through every decision cell of ``tableau`` (:func:`decision_cells_of`, in that
    order): six suited cards in dealing order that a standard shoe of ``decks`` decks can deal
    (at most ``decks`` copies of a card).  A natural cell gets a natural on that side only (or
    both); a Banker cell the Banker's two-card total, a Player two-card total that stands or
    draws as the cell says, and the Player's third card; every other choice (how a total splits
    into two cards, ranks of value 0, suits, the spare cards) is drawn from ``seed`` on the
    stream ``punto-banco-cells`` (:func:`seeded_index`).  The same arguments give the same coups.

    Raises:
        OracleError: ``decks`` is not a whole number from 1 to 1000, or ``seed`` is not a whole
            number 0 or more.

    >>> coups = cell_coups(seed=3)
    >>> resolve(coups[3]).banker_two_card_total, resolve(coups[3]).player_drew
    (0, False)
    """
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 1000:
        raise OracleError(f"bad decks {decks!r}: give a whole number of decks from 1 to 1000")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OracleError(f"bad seed {seed!r}: use a whole number 0 or more")
    plain = [t for t in TOTALS if t not in tableau.naturals]
    naturals = sorted(tableau.naturals)
    standing = [p for p in plain if not tableau.player_draws(p)]
    drawing = [p for p in plain if tableau.player_draws(p)]
    coups = []
    for n, cell in enumerate(decision_cells_of(tableau)):
        for attempt in range(100):
            draw = _Draws(seed, 100 * n + attempt, CELL_STREAM)
            cards = _cards_for(_values_for(cell, draw, naturals, plain, standing, drawing), draw, decks)
            if cards is not None:
                coups.append(Cards(cards))
                break
        else:  # pragma: no cover - a cell needs at most 5 cards of one value, one deck has 4
            raise OracleError(f"no coup through cell {cell} from {decks} deck(s)")
    call = f"cell_coups(decks={decks}, seed={seed})"
    if tableau != STANDARD:
        call = f"cell_coups(tableau={tableau.name!r}, decks={decks}, seed={seed})"
    return CellCoups(coups, call)


def _split(total: int, draw: _Draws) -> list[int]:
    first = draw.below(10)
    return [first, (total - first) % 10]


def _values_for(
    cell: tuple[str, int | None, int | None],
    draw: _Draws,
    naturals: list[int],
    plain: list[int],
    standing: list[int],
    drawing: list[int],
) -> list[int]:
    kind, banker, third = cell
    if kind.startswith("natural"):
        side = kind.removeprefix("natural-")
        p = draw.choice(naturals if side in ("player", "both") else plain)
        b = draw.choice(naturals if side in ("banker", "both") else plain)
        fifth = draw.below(10)
    else:
        p = draw.choice(standing if third is None else drawing)
        b = int(banker or 0)
        fifth = draw.below(10) if third is None else third
    (p1, p2), (b1, b2) = _split(p, draw), _split(b, draw)
    return [p1, b1, p2, b2, fifth, draw.below(10)]


def _cards_for(values: list[int], draw: _Draws, decks: int) -> list[Card] | None:
    """Suited cards of the given values, each a card the shoe still holds: from a drawn start,
    the first card of that value (its ranks x the suits) dealt fewer than ``decks`` times."""
    used: dict[Card, int] = {}
    out: list[Card] = []
    for v in values:
        ranks = _TENS if v == 0 else (RANKS[v - 1],)
        size = 4 * len(ranks)
        start = draw.below(size)
        for k in range(size):
            i = (start + k) % size
            card = Card(ranks[i // 4], SUITS[i % 4])
            if used.get(card, 0) < decks:
                break
        else:
            return None
        used[card] = used.get(card, 0) + 1
        out.append(card)
    return out
