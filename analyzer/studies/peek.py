"""What a bettor can see: exact edges from partial information (edge sorting, key cards).

A bettor who knows something of the cards before betting -- the *class* of some cards (an
asymmetric card back that tells 6-9 from the rest: "edge sorting", UK Supreme Court [2017] UKSC
67; a card back that shows colour or suit), or exact cards (an exposed card) -- bets the bet
best for what he saw.  This module gives, for each *pattern* seen (the class of each card seen),
its exact probability, the exact EV of every bet named given that pattern, the best bet and its
EV, and the edge per coup dealt when the bettor always bets the best bet, or only when it is
positive (and how often that is); and, over every two-group sort of the point values or ranks,
the sort that gives the most (:func:`search_sorts`).

What can be seen (:class:`Seen`, text ``P1,B1`` / ``first:4`` / ``burn`` / ``P1=9``):

* the cards at positions ``P1 B1 P2 B2 P3 B3`` (a third card not dealt is a class of its own,
  ``none``);
* the first N cards out of the shoe, ``first:N`` (N = 1..6): ``P1 B1 P2 B2``, then ``C5`` and
  ``C6``, the fifth and sixth cards out (a third card, or the next coup's first cards when the
  coup used fewer);
* ``burn``: a card taken from the shoe before the coup, its class seen;
* ``P1=9`` (or ``P1=9h`` on a suited shoe): that card exactly; the analysis is then conditional
  on it (only the patterns with that card are kept, their probabilities are still per coup).

The classes (:class:`Classes`, text ``6-9``, ``A-3/4-7/8-K``, ``colour``, ``suit``): groups of
ranks (a group named alone stands against the rest), or the card's colour or suit.

How it is computed, exactly.  Counted in the 6-card universe of the engine (docs/ARCHITECTURE.md,
"The one idea"; a burn card seen makes it 7): the dealing tree is walked once at the level of
point values (shoe-independent, per tableau, positions seen and bets: :func:`_compile`), its
leaves grouped by the values at the seen positions and the multiset of the other values drawn,
each group carrying its number of leaves and each bet's pays summed over them.  On a shoe, a
group's ordered draws of physical cards are a product of falling factorials: the seen cards'
*cells* (a cell: the cards of one point value and one class under every class function in use)
times the unseen cards of each value from what is left of that value, times the padding.  Seen
values are spread over their cells, each cell assignment is a pattern, and each sum is an
integer over the one denominator N!/(N-K)!.  Bets must read point values only (the main bets,
Dragon 7, Panda 8 and the other bets of the finished coup's values): a bet that reads ranks or
suits of the cards is refused.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.bets.model import Bet
from analyzer.core.cards import RANK_POINTS, RANKS, SUITS, Card, parse_card
from analyzer.core.coup import coup_from_cards
from analyzer.core.reads import RankDetail, SuitDetail
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import CardError, PeekError

#: The slots a bettor may see, in the order they are shown.
SLOTS: tuple[str, ...] = ("burn", "P1", "B1", "P2", "B2", "P3", "B3", "C5", "C6")
#: Dealing-order index of the fixed slots (``P3``/``B3`` depend on the draws).
_INDEX: dict[str, int] = {"P1": 0, "B1": 1, "P2": 2, "B2": 3, "C5": 4, "C6": 5}
#: The class label of a third card not dealt.
NOT_DEALT = "none"
#: The representative card of each point value, for settling a coup of values.
_REPRESENTATIVE: tuple[Card, ...] = tuple(Card(RANKS[RANK_POINTS.index(v)]) for v in range(10))
#: Published defaults for the house's side: coups per 8-deck shoe and per hour at a full table.
HANDS_PER_SHOE = 80
HANDS_PER_HOUR = 60

_RANK_ORDER = "A23456789TJQK"


# -- what is seen -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """The cards whose class the bettor knows before betting.

    Attributes:
        slots: the slots seen, in :data:`SLOTS` order (``burn``, ``P1`` ... ``B3``, ``C5``,
            ``C6``).
        fixed: per slot, the exact card known there (its rank, and suit when given), or None.
    """

    slots: tuple[str, ...]
    fixed: tuple[Card | None, ...]

    @classmethod
    def parse(cls, text: str) -> Seen:
        """Read ``P1,B1`` / ``first:4`` / ``burn`` / ``P1=9`` (items separated by commas or
        spaces; ``first:N`` for N = 1..6 stands for the first N cards out of the shoe).

        Raises:
            PeekError: an unknown slot, a slot named twice, ``P3``/``B3`` seen with ``C5``/``C6``
                (they may be the same card), a bad card, or nothing seen.

        >>> Seen.parse("first:2").slots
        ('P1', 'B1')
        """
        if not isinstance(text, str):
            raise PeekError(f"bad cards seen {text!r}: give text such as 'P1', 'first:4', 'burn' or 'P1=9'")
        found: dict[str, Card | None] = {}

        def add(slot: str, card: Card | None) -> None:
            if slot in found:
                raise PeekError(f"slot {slot} is named twice in {text!r}")
            found[slot] = card

        for token in text.replace(",", " ").split():
            head, _, card_text = token.partition("=")
            name = head.strip().upper()
            if name.startswith("FIRST:"):
                count = name[6:]
                if card_text or not count.isdigit() or not 1 <= int(count) <= 6:
                    raise PeekError(f"bad {token!r}: use first:N with N from 1 to 6")
                for slot in ("P1", "B1", "P2", "B2", "C5", "C6")[: int(count)]:
                    add(slot, None)
                continue
            slot = "burn" if name == "BURN" else name
            if slot not in SLOTS:
                raise PeekError(f"unknown slot {head!r}: slots are {', '.join(SLOTS)} or first:N")
            card = None
            if card_text:
                try:
                    card = parse_card(card_text)
                except CardError as exc:
                    raise PeekError(f"bad card in {token!r}: {exc}") from None
            add(slot, card)
        if not found:
            raise PeekError(
                f"no card seen in {text!r}: name a slot (P1 B1 P2 B2 P3 B3 C5 C6 burn) or first:N")
        if {"P3", "B3"} & set(found) and {"C5", "C6"} & set(found):
            raise PeekError(
                "see P3/B3 or the fifth and sixth cards out (first:5, first:6), not both: "
                "they may be the same card")
        slots = tuple(s for s in SLOTS if s in found)
        return cls(slots, tuple(found[s] for s in slots))

    @property
    def text(self) -> str:
        """The slots as the command line writes them (``P1,B1``, ``P1=9``)."""
        pairs = zip(self.slots, self.fixed, strict=True)
        return ",".join(s + (f"={c}" if c is not None else "") for s, c in pairs)


# -- the classes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Classes:
    """A partition of the cards into classes the bettor tells apart.

    Attributes:
        kind: ``"rank"`` (groups of ranks), ``"colour"`` or ``"suit"``.
        groups: for ``"rank"``, the rank indices (0..12, A..K) of each class, covering all 13.
        labels: each class's label (``6-9``, ``A-5,10-K``, ``red``...).
    """

    kind: str
    groups: tuple[frozenset[int], ...]
    labels: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Classes:
        """Read ``6-9`` (that group against the rest), ``A-3/4-7/8-K`` (groups split by ``/``;
        ranks not named form one more group), ``0`` for the ten-valued ranks, ``colour`` or
        ``suit``.  Ranks are ``A 2 .. 9 10 (T) J Q K``; a range runs in that order.

        Raises:
            PeekError: a bad rank or range, a rank in two groups, a single group of every rank.

        >>> Classes.parse("6-9").labels
        ('6-9', 'A-5,10-K')
        """
        if not isinstance(text, str) or not text.strip():
            raise PeekError(f"bad classes {text!r}: give e.g. 6-9, A-3/4-7/8-K, colour or suit")
        word = text.strip().lower()
        if word in ("colour", "color"):
            return cls("colour", (), ("red", "black"))
        if word == "suit":
            return cls("suit", (), tuple(s.symbol for s in SUITS))
        groups: list[frozenset[int]] = []
        seen: set[int] = set()
        for part in text.split("/"):
            members = _rank_group(part, text)
            if members & seen:
                raise PeekError(f"bad classes {text!r}: a rank is in two groups")
            seen |= members
            groups.append(frozenset(members))
        rest = frozenset(range(13)) - seen
        if rest:
            groups.append(rest)
        if len(groups) < 2:
            raise PeekError(
                f"bad classes {text!r}: one group of every rank tells nothing; name a group of ranks")
        return cls("rank", tuple(groups), tuple(rank_label(g) for g in groups))

    @classmethod
    def of_groups(cls, groups: Iterable[Iterable[int]]) -> Classes:
        """Classes from groups of rank indices (0..12, A..K) covering all 13, each once.

        Raises:
            PeekError: the groups do not partition the 13 ranks into at least two groups.
        """
        made = tuple(frozenset(g) for g in groups)
        flat = [r for g in made for r in g]
        if sorted(flat) != list(range(13)) or len(made) < 2 or not all(made):
            raise PeekError(
                f"bad rank groups {made!r}: give two or more groups covering A..K, each rank once")
        return cls("rank", made, tuple(rank_label(g) for g in made))

    @property
    def text(self) -> str:
        """The classes as the command line writes them."""
        return self.kind if self.kind != "rank" else "/".join(self.labels)

    def of_card(self, rank: int, suit: int | None) -> int:
        """The class index of a card (rank index 0..12, suit index 0..3 or None)."""
        if self.kind == "rank":
            for i, g in enumerate(self.groups):
                if rank in g:
                    return i
            raise AssertionError("rank groups cover every rank")  # pragma: no cover
        assert suit is not None
        return suit if self.kind == "suit" else (0 if SUITS[suit].colour.index == 0 else 1)


def _rank_group(part: str, text: str) -> set[int]:
    out: set[int] = set()
    for item in part.replace(",", " ").split():
        low, sep, high = item.partition("-")
        if item.strip() == "0":
            out |= {9, 10, 11, 12}
            continue
        a = _rank_index(low, text)
        b = _rank_index(high, text) if sep else a
        if b < a:
            raise PeekError(f"bad range {item!r} in {text!r}: ranks run A 2 .. 9 10 J Q K")
        out |= set(range(a, b + 1))
    if not out:
        raise PeekError(f"bad classes {text!r}: an empty group")
    return out


def _rank_index(token: str, text: str) -> int:
    t = token.strip().upper()
    t = "T" if t == "10" else t
    if len(t) != 1 or t not in _RANK_ORDER:
        raise PeekError(f"bad rank {token!r} in classes {text!r}: ranks are A 2 .. 9 10 J Q K")
    return _RANK_ORDER.index(t)


def rank_label(group: Iterable[int]) -> str:
    """A group of rank indices as ranges in rank order: ``{5,6,7,8}`` -> ``6-9``,
    ``{0,..,4,9,..,12}`` -> ``A-5,10-K``."""
    members = sorted(set(group))
    parts: list[str] = []
    start = prev = members[0]
    for r in [*members[1:], None]:
        if r is not None and r == prev + 1:
            prev = r
            continue
        a, b = RANKS[start].label, RANKS[prev].label
        parts.append(a if start == prev else f"{a}-{b}" if prev > start + 1 else f"{a},{b}")
        if r is not None:
            start = prev = r
    return ",".join(parts)


# -- the compile: the dealing tree at the level of values, grouped -------------------------------


def _value_only(bet: Bet) -> bool:
    r = bet.reads
    return not r.sets or (r.ranks is RankDetail.NONE and r.suits is SuitDetail.NONE)


def _scale(bet: Bet) -> int:
    pays = [ln.pays for ln in bet.lines] + [bet.otherwise]
    return math.lcm(*(p.denominator for p in pays)) if bet.payout_function is None else 0


#: A group of leaves: the unseen values as (value, how many) pairs, the cards in the sequence,
#: [leaves, each bet's pay x scale summed over them].
_Group = tuple[tuple[tuple[int, int], ...], int, list[int]]


@dataclass(frozen=True)
class _Compiled:
    """The walk grouped: ``groups[s]`` for the seen values ``s`` (a value 0-9 per seen slot,
    None for a third card not dealt) is a list of (unseen values as (value, how many) pairs,
    cards in the sequence, [leaves, each bet's pay x scale summed]); ``scales`` each bet's pay
    denominator; ``cards``: K, the sequence's length (6, or 7 with a burn card)."""

    groups: dict[tuple[int | None, ...], list[_Group]]
    scales: tuple[int, ...]
    cards: int


_Settle = Callable[[tuple[int, ...], int | None, int | None], tuple[int, ...]]


def _settler(bets: tuple[Bet, ...], tableau: Tableau) -> _Settle:
    """Each bet's pay x its scale for a coup of values (first four, thirds), cached per coup as
    the bets read it (the two-card totals and the thirds, or every value when a bet reads the
    values of its cards)."""
    by_cards = any(b.reads.sets for b in bets)
    cache: dict[tuple[object, ...], tuple[int, ...]] = {}
    scales = [_scale(b) for b in bets]

    def pays(four: tuple[int, ...], p3: int | None, b3: int | None) -> tuple[int, ...]:
        key: tuple[object, ...] = (four, p3, b3) if by_cards else (
            (four[0] + four[2]) % 10, (four[1] + four[3]) % 10, p3, b3)
        got = cache.get(key)
        if got is None:
            coup = coup_from_cards(
                [_REPRESENTATIVE[v] for v in four],
                None if p3 is None else _REPRESENTATIVE[p3],
                None if b3 is None else _REPRESENTATIVE[b3],
                tableau,
            )
            out = []
            for bet, scale in zip(bets, scales, strict=True):
                pay = bet.settle(coup)[1] * scale
                assert pay.denominator == 1  # the scale is the pays' common denominator
                out.append(int(pay))
            got = cache[key] = tuple(out)
        return got

    return pays


def _check_bets(bets: Sequence[Bet]) -> None:
    if not bets:
        raise PeekError("no bet to price: name at least one")
    for bet in bets:
        if not isinstance(bet, Bet):
            raise PeekError(f"bad bet {bet!r}: give Bet objects (analyzer.find_bet)")
        if not _value_only(bet):
            raise PeekError(
                f"bet {bet.name} reads the ranks or suits of the cards: peek prices bets on the point values"
                " of the coup (Player, Banker, Tie, Dragon 7, Panda 8, ...)")
        if bet.payout_function is not None:
            raise PeekError(f"bet {bet.name} is a payout function: peek prices bets given by pay lines")


def _slot_index(slot: str, p_drew: bool, b_drew: bool) -> int | None:
    """The dealing-order index of the card at ``slot`` (None: a third card not dealt)."""
    if slot == "P3":
        return 4 if p_drew else None
    if slot == "B3":
        return (5 if p_drew else 4) if b_drew else None
    return _INDEX[slot]


#: Walks kept in memory (a four-card walk holds about 60 MB of integers; a service's worker keeps
#: at most this many).
_WALKS_KEPT = 4


@functools.lru_cache(maxsize=_WALKS_KEPT)
def _compile(tableau: Tableau, slots: tuple[str, ...], bets: tuple[Bet, ...]) -> _Compiled:
    """Walk the dealing tree once over point values and group its leaves (see
    :class:`_Compiled`); a burn card is not walked: :func:`_seen_sums` spreads it."""
    settle = _settler(bets, tableau)
    coup_slots = [s for s in slots if s != "burn"]
    extend = max((_INDEX[s] + 1 for s in coup_slots if s in ("C5", "C6")), default=0)
    values = range(10)
    # per shape (Player drew, Banker drew): where each seen slot's card is (-1: not dealt, read
    # as the None put at the end of the sequence), the unseen indices, the cards in the sequence
    shapes: dict[tuple[bool, bool], tuple[list[int], list[int], int, int]] = {}
    for p_drew in (False, True):
        for b_drew in (False, True):
            dealt = 4 + p_drew + b_drew
            length = max(dealt, extend)
            where = [_slot_index(s, p_drew, b_drew) for s in coup_slots]
            seen_at = [-1 if i is None else i for i in where]
            unseen = [i for i in range(length) if i not in seen_at]
            shapes[(p_drew, b_drew)] = (seen_at, unseen, dealt, length)
    leaves: dict[tuple[tuple[int | None, ...], tuple[int, ...], tuple[int, ...]], int] = defaultdict(int)

    def leaf(seq: list[int], shape: tuple[bool, bool], pays: tuple[int, ...]) -> None:
        seen_at, unseen, dealt, length = shapes[shape]
        pads: Iterable[tuple[int, ...]] = (
            itertools.product(values, repeat=length - dealt) if length > dealt else [()])
        for pad in pads:
            full: list[int | None] = [*seq, *pad, None]
            s = tuple([full[i] for i in seen_at])
            u = tuple(sorted([full[i] for i in unseen]))  # type: ignore[type-var]
            leaves[(s, u, pays)] += 1  # type: ignore[index]

    for four in itertools.product(values, repeat=4):
        a, b, c, d = four
        p2, b2 = (a + c) % 10, (b + d) % 10
        seq = list(four)
        if tableau.decided_by_naturals(p2, b2):
            leaf(seq, (False, False), settle(four, None, None))
        elif tableau.player_draws_third(p2, b2):
            for p3 in values:
                if tableau.banker_draws_third(p2, b2, p3):
                    for b3 in values:
                        leaf([*seq, p3, b3], (True, True), settle(four, p3, b3))
                else:
                    leaf([*seq, p3], (True, False), settle(four, p3, None))
        elif tableau.banker_draws_third(p2, b2, None):
            for b3 in values:
                leaf([*seq, b3], (False, True), settle(four, None, b3))
        else:
            leaf(seq, (False, False), settle(four, None, None))
    nb = len(bets)
    groups: dict[tuple[tuple[int | None, ...], tuple[int, ...]], list[int]] = {}
    for (s, u, pays), n in leaves.items():
        acc = groups.get((s, u))
        if acc is None:
            acc = groups[(s, u)] = [0] * (nb + 1)
        acc[0] += n
        for j in range(nb):
            acc[j + 1] += n * pays[j]
    out: dict[tuple[int | None, ...], list[_Group]] = defaultdict(list)
    for (s, u), acc in groups.items():
        pairs = tuple((v, u.count(v)) for v in sorted(set(u)))
        cards = sum(1 for v in s if v is not None) + len(u)
        out[s].append((pairs, cards, acc))
    return _Compiled(dict(out), tuple(_scale(b) for b in bets), 7 if "burn" in slots else 6)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PatternRow:
    """One pattern seen: the class per slot seen, its count over the denominator, each bet's
    exact EV given the pattern (per unit staked), and the best of them (first on a tie)."""

    pattern: tuple[str, ...]
    count: int
    denominator: int
    evs: tuple[Fraction, ...]
    best: int

    @property
    def probability(self) -> Fraction:
        """Probability per coup of seeing this pattern."""
        return Fraction(self.count, self.denominator)

    @property
    def best_ev(self) -> Fraction:
        """The EV of the best bet given the pattern (per unit staked)."""
        return self.evs[self.best]


@dataclass(frozen=True)
class PeekResult:
    """What a bettor who sees ``seen`` (classes ``classes``) can win, on ``shoe`` under ``tableau``.

    ``rows``: one per pattern that occurs (count > 0), in the order of the classes; their
    probabilities sum to 1 (or to the probability of the card fixed, for ``P1=9``).
    ``unconditioned``: each bet's EV with nothing seen, from the same sums (it equals the
    engine's :func:`~analyzer.engine.pricing.price`; the tests hold them equal).
    """

    shoe: Shoe
    tableau: Tableau
    seen: Seen
    classes: Classes
    bets: tuple[Bet, ...]
    rows: tuple[PatternRow, ...]
    denominator: int
    unconditioned: tuple[Fraction, ...]

    @property
    def seen_probability(self) -> Fraction:
        """Probability per coup of the patterns shown (1 unless a card is fixed)."""
        return Fraction(sum(r.count for r in self.rows), self.denominator)

    @property
    def edge(self) -> Fraction:
        """The bettor's expected win per coup (per unit staked) betting the best bet on every
        pattern shown, whatever its sign (Jacobson's edge)."""
        return sum((r.probability * r.best_ev for r in self.rows), Fraction(0))

    @property
    def edge_when_positive(self) -> Fraction:
        """Expected win per coup dealt betting the best bet only when its EV is positive."""
        return sum((r.probability * r.best_ev for r in self.rows if r.best_ev > 0), Fraction(0))

    @property
    def bet_frequency(self) -> Fraction:
        """Probability per coup that the best bet's EV is positive (how often he bets)."""
        return sum((r.probability for r in self.rows if r.best_ev > 0), Fraction(0))

    @property
    def edge_per_bet(self) -> Fraction | None:
        """Expected win per unit bet when betting only positive patterns (None if never)."""
        f = self.bet_frequency
        return self.edge_when_positive / f if f else None


@dataclass(frozen=True)
class HouseExposure:
    """The house's side: expected loss in units staked, per coup, per shoe and per hour.

    ``per_coup`` is the bettor's edge (always betting the best bet, or only when positive:
    ``strategy``) times ``stake``; per shoe and per hour multiply by the coups dealt (every coup
    taken as the shoe's first: the drift of the shoe's composition is not modelled)."""

    strategy: str
    stake: Fraction
    hands_per_shoe: int
    hands_per_hour: int
    per_coup: Fraction

    @property
    def per_shoe(self) -> Fraction:
        """Expected loss per shoe, in units: per coup times the coups per shoe."""
        return self.per_coup * self.hands_per_shoe

    @property
    def per_hour(self) -> Fraction:
        """Expected loss per hour, in units: per coup times the coups per hour."""
        return self.per_coup * self.hands_per_hour


def house_exposure(
    result: PeekResult,
    stake: Fraction | int = 1,
    hands_per_shoe: int = HANDS_PER_SHOE,
    hands_per_hour: int = HANDS_PER_HOUR,
) -> tuple[HouseExposure, HouseExposure]:
    """The house's expected loss (``stake`` units a coup) when the bettor bets the best bet on
    every coup, and when only on the positive ones.

    Raises:
        PeekError: a stake that is not a positive number, or hands that are not whole numbers >= 1.
    """
    if isinstance(stake, bool) or not isinstance(stake, int | Fraction) or stake <= 0:
        raise PeekError(f"bad stake {stake!r}: give a positive number of units")
    for name, n in (("hands per shoe", hands_per_shoe), ("hands per hour", hands_per_hour)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise PeekError(f"bad {name} {n!r}: give a whole number >= 1")
    st = Fraction(stake)
    return (
        HouseExposure("always", st, hands_per_shoe, hands_per_hour, result.edge * st),
        HouseExposure("when positive", st, hands_per_shoe, hands_per_hour, result.edge_when_positive * st),
    )


# -- evaluation on a shoe -------------------------------------------------------------------


def _card_types(shoe: Shoe, need_suits: bool) -> list[tuple[int, int | None, int]]:
    """(rank index, suit index or None, count) of the shoe's physical card types."""
    if need_suits:
        if shoe.suited is None:
            raise PeekError(
                "classes by colour or suit, or a card seen with its suit, need a shoe whose suits are known")
        return [(i // 4, i % 4, n) for i, n in enumerate(shoe.suited)]
    return [(r, None, n) for r, n in enumerate(shoe.counts)]


def _check_common(
    shoe: object, tableau: object, seen: object, classes: object
) -> tuple[Shoe, Tableau, Seen, Classes]:
    if not isinstance(shoe, Shoe):
        raise PeekError(f"bad shoe {shoe!r}: give a Shoe")
    if not isinstance(tableau, Tableau):
        raise PeekError(f"bad rules {tableau!r}: give a Tableau")
    s = Seen.parse(seen) if isinstance(seen, str) else seen
    c = Classes.parse(classes) if isinstance(classes, str) else classes
    if not isinstance(s, Seen):
        raise PeekError(f"bad cards seen {seen!r}: give a Seen or text such as 'first:4'")
    if not isinstance(c, Classes):
        raise PeekError(f"bad classes {classes!r}: give a Classes or text such as '6-9'")
    need = 7 if "burn" in s.slots else 6
    if shoe.size < need:
        what = "a whole coup and the burn card" if need == 7 else "a whole coup"
        raise PeekError(f"a shoe of {shoe.size} cards is too small: peek needs at least {need} ({what})")
    return shoe, tableau, s, c


def _seen_sums(shoe: Shoe, compiled: _Compiled) -> dict[tuple[int | None, ...], list[int]]:
    """For each seen-values tuple, [ways, each bet's pay x scale x ways], the seen cards counted
    by value only (their cells are spread by :func:`peek`): the unseen cards and the padding.
    With a burn card seen (``compiled.cards`` 7), its value leads each tuple."""
    n = shoe.point_counts
    size = shoe.size
    burn = compiled.cards == 7
    out: dict[tuple[int | None, ...], list[int]] = {}
    for first in (range(10) if burn else [None]):
        for s, items in compiled.groups.items():
            left = list(n)
            if first is not None:
                left[first] -= 1
            for v in s:
                if v is not None:
                    left[v] -= 1
            if min(left) < 0:
                continue
            acc: list[int] | None = None
            for key_u, cards, sums in items:
                m = cards + burn
                w = _falling(size - m, compiled.cards - m)
                for v, k in key_u:
                    w *= _falling(left[v], k)
                    if not w:
                        break
                if not w:
                    continue
                if acc is None:
                    acc = [w * x for x in sums]
                else:
                    for j, x in enumerate(sums):
                        acc[j] += w * x
            if acc is not None:
                out[s if first is None else (first, *s)] = acc
    return out


def _cells(
    types: list[tuple[int, int | None, int]], functions: list[Callable[[int, int | None], int]]
) -> dict[int, list[tuple[tuple[int, ...], int]]]:
    """Per point value, its cells: (class index under each function, cards in the cell)."""
    by: dict[int, dict[tuple[int, ...], int]] = defaultdict(lambda: defaultdict(int))
    for r, s, n in types:
        if n:
            by[RANK_POINTS[r]][tuple(f(r, s) for f in functions)] += n
    return {v: sorted(cells.items()) for v, cells in by.items()}


def peek(
    shoe: Shoe,
    seen: Seen | str,
    classes: Classes | str,
    bets: Sequence[Bet],
    tableau: Tableau = STANDARD,
) -> PeekResult:
    """The exact value of seeing ``seen`` (classes ``classes``) for ``bets`` on ``shoe``.

    Returns a :class:`PeekResult`: per pattern its probability, each bet's EV given it, the
    best bet; the edges of betting the best always or when positive.  Exact (integers inside,
    Fractions out).  Golden figure: one card seen, 6-9 against the rest, the best of Player and
    Banker, 8 decks: edge 6604082064256/97624966318425 = 6.7647% (Jacobson, "Edge Sorting in
    Baccarat, Update #1", 2012: 6.765%).

    Raises:
        PeekError: bad seen slots or classes, a shoe under 6 cards (7 with a burn card seen),
            classes by suit on a shoe without suits, a bet that reads ranks or suits or is a
            payout function, no bet.
    """
    shoe, tableau, s, c = _check_common(shoe, tableau, seen, classes)
    bets_t = tuple(bets)
    _check_bets(bets_t)
    compiled = _compile(tableau, s.slots, bets_t)
    need_suits = c.kind != "rank" or any(f is not None and f.suit is not None for f in s.fixed)
    types = _card_types(shoe, need_suits)
    functions: list[Callable[[int, int | None], int]] = [c.of_card]
    slot_fn: list[int] = []
    for f in s.fixed:
        if f is None:
            slot_fn.append(0)
        else:
            functions.append(_matcher(f))
            slot_fn.append(len(functions) - 1)
    cells = _cells(types, functions)
    sums = _seen_sums(shoe, compiled)
    nb = len(bets_t)
    patterns: dict[tuple[int, ...], list[int]] = {}
    counts = {(v, cl): cnt for v, lst in cells.items() for cl, cnt in lst}
    for sv, acc in sums.items():
        options: list[list[tuple[tuple[int, ...] | None, int]]] = []
        for v in sv:
            options.append([(None, 0)] if v is None else [(cl, v) for cl, _ in cells.get(v, [])])
        for choice in itertools.product(*options):
            used: dict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
            for cl, v in choice:
                if cl is not None:
                    used[(v, cl)] += 1
            w = 1
            for key, m in used.items():
                w *= _falling(counts[key], m)
            if not w:
                continue
            pattern = tuple(-1 if cl is None else cl[slot_fn[j]] for j, (cl, _) in enumerate(choice))
            if any(s.fixed[j] is not None and pattern[j] != 0 for j in range(len(pattern))):
                continue
            got = patterns.get(pattern)
            if got is None:
                patterns[pattern] = [w * x for x in acc]
            else:
                for j, x in enumerate(acc):
                    got[j] += w * x
    denominator = _falling(shoe.size, compiled.cards)
    rows = []
    for pattern in sorted(patterns):
        acc = patterns[pattern]
        if not acc[0]:
            continue
        evs = tuple(Fraction(acc[j + 1], acc[0] * compiled.scales[j]) for j in range(nb))
        best = max(range(nb), key=lambda j: (evs[j], -j))
        labels = tuple(
            NOT_DEALT if p < 0 else (str(s.fixed[j]) if s.fixed[j] is not None else c.labels[p])
            for j, p in enumerate(pattern))
        rows.append(PatternRow(labels, acc[0], denominator, evs, best))
    total = [sum(patterns[p][j] for p in patterns) for j in range(nb + 1)]
    if any(f is not None for f in s.fixed):  # the unconditioned EVs: from the value sums
        total = [sum(a[j] * _seen_ways(sv, shoe) for sv, a in sums.items()) for j in range(nb + 1)]
    unconditioned = tuple(Fraction(total[j + 1], total[0] * compiled.scales[j]) for j in range(nb))
    return PeekResult(shoe, tableau, s, c, bets_t, tuple(rows), denominator, unconditioned)


def _seen_ways(sv: tuple[int | None, ...], shoe: Shoe) -> int:
    used: dict[int, int] = defaultdict(int)
    for v in sv:
        if v is not None:
            used[v] += 1
    n = shoe.point_counts
    w = 1
    for v, m in used.items():
        w *= _falling(n[v], m)
    return w


def _matcher(card: Card) -> Callable[[int, int | None], int]:
    r = card.rank.index
    su = card.suit.index if card.suit is not None else None

    def f(rank: int, suit: int | None) -> int:
        return 0 if rank == r and (su is None or suit == su) else 1

    return f


# -- the search over two-group sorts ------------------------------------------------------------


@dataclass(frozen=True)
class SortRow:
    """One two-group sort: its group (the one holding the ace, or the lowest rank) and the
    rest, the edge betting the best bet always and when positive, how often that is."""

    group: frozenset[int]
    classes: Classes
    edge: Fraction
    edge_when_positive: Fraction
    bet_frequency: Fraction


@dataclass(frozen=True)
class SortSearch:
    """Every two-group sort of the point values (``by="value"``: 511) or ranks (``"rank"``:
    4,095) for the slots ``seen``, ranked by the edge per coup betting the best bet only when
    it is positive (the most a sorter can take), then by the edge betting it always, then by
    the sort's label; best for the bettor first."""

    shoe: Shoe
    tableau: Tableau
    seen: Seen
    bets: tuple[Bet, ...]
    by: str
    rows: tuple[SortRow, ...]


def search_sorts(
    shoe: Shoe,
    seen: Seen | str,
    bets: Sequence[Bet],
    tableau: Tableau = STANDARD,
    by: str = "value",
) -> SortSearch:
    """Rank every two-group sort of the point values (or of the ranks) by the edge it gives a
    bettor who sees ``seen`` and bets the best of ``bets`` (the worst sorts for the house first).

    Exact: each sort's sums are integers (numpy int64 under a checked bound, Python integers
    past it).  Jacobson and Roach searched the 1,023 value groups of the four-card sort ("Edge
    Sorting in Baccarat, Update #1", 2012: 30.291%).

    Raises:
        PeekError: as :func:`peek`; exact cards seen (``P1=9``); ``by`` not value or rank.
    """
    import numpy as np  # lazy: numpy only for the search

    if by not in ("value", "rank"):
        raise PeekError(f"bad search {by!r}: sort by value or rank")
    shoe, tableau, s, _ = _check_common(shoe, tableau, seen, "6-9")
    if any(f is not None for f in s.fixed):
        raise PeekError("a search sorts the cards seen: give slots without exact cards (P1, not P1=9)")
    bets_t = tuple(bets)
    _check_bets(bets_t)
    compiled = _compile(tableau, s.slots, bets_t)
    sums = _seen_sums(shoe, compiled)
    k = len(s.slots)
    nb = len(bets_t)
    # cells: point values, or ranks (value 0 split into 10 J Q K); index `none` last
    if by == "value":
        cell_of_value: list[list[tuple[int, int]]] = [[(v, shoe.point_counts[v])] for v in range(10)]
        ncell = 10
    else:
        cell_of_value = [[(r, shoe.counts[r]) for r in range(13) if RANK_POINTS[r] == v] for v in range(10)]
        ncell = 13
    size = ncell + 1  # the last: a third card not dealt
    grid: dict[tuple[int, ...], list[int]] = {}
    for sv, acc in sums.items():
        options = [[(size - 1, 0)] if v is None else cell_of_value[v] for v in sv]
        for choice in itertools.product(*options):
            used: dict[int, int] = defaultdict(int)
            for cell, _ in choice:
                if cell != size - 1:
                    used[cell] += 1
            counts = {cell: cnt for cell, cnt in choice}
            w = 1
            for cell, m in used.items():
                w *= _falling(counts[cell], m)
            if w:
                grid[tuple(cell for cell, _ in choice)] = [w * x for x in acc]
    bound = sum(abs(x) for a in grid.values() for x in a)
    dtype: Any = np.int64 if bound < 2**62 else object
    tensor = np.zeros((size,) * k + (nb + 1,), dtype=dtype)
    for idx, a in grid.items():
        tensor[idx] = a
    scales = compiled.scales
    lcm = math.lcm(*scales)
    mult = np.array([1] + [lcm // sc for sc in scales], dtype=dtype)
    if dtype is np.int64 and bound * max(lcm // sc for sc in scales) >= 2**62:
        tensor = tensor.astype(object)
        mult = mult.astype(object)
    tensor = tensor * mult  # every bet on one scale, so EVs compare as integers
    items = range(ncell)
    rows: list[SortRow] = []
    for bits in range(1, 2 ** (ncell - 1)):
        # group = the cells whose bit is clear (it holds cell 0: each partition once)
        member = [((bits >> (ncell - 1 - c)) & 1) if c else 0 for c in items]
        onehot = np.zeros((size, 3), dtype=tensor.dtype)
        for c in items:
            onehot[c, member[c]] = 1
        onehot[size - 1, 2] = 1
        t = tensor
        for _ in range(k):  # each slot's axis (first) summed into its classes (appended last)
            t = np.tensordot(t, onehot, axes=([0], [0]))
        flat = np.moveaxis(t, 0, -1).reshape(-1, nb + 1)
        edge_num = 0
        pos_num = 0
        freq = 0
        for row in flat:
            ways = int(row[0])
            if not ways:
                continue
            best = max(int(x) for x in row[1:])
            edge_num += best
            if best > 0:
                pos_num += best
                freq += ways
        denom = _falling(shoe.size, compiled.cards)
        group = frozenset(c for c in items if not member[c])
        ranks = _ranks_of(group, by)
        cl = Classes.of_groups([ranks, frozenset(range(13)) - ranks])
        scale = denom * lcm
        edges = Fraction(edge_num, scale), Fraction(pos_num, scale)
        rows.append(SortRow(group, cl, *edges, Fraction(freq, denom)))
    rows.sort(key=lambda r: (-r.edge_when_positive, -r.edge, r.classes.text))
    return SortSearch(shoe, tableau, s, bets_t, by, tuple(rows))


@dataclass(frozen=True)
class SortingExposure:
    """A bet's exposure to edge sorting: the two-group sort of the point values that gives the
    most to a bettor who sees the first card (``one_card``) or the first four cards
    (``four_card``) and bets ``bet`` only when its EV given what he saw is positive.  Each is a
    :class:`PeekResult` (its patterns, and ``edge_when_positive``: the house's loss per coup
    dealt, per unit staked; ``bet_frequency``: how often he bets); ``searched``: the sorts tried
    for each."""

    bet: Bet
    shoe: Shoe
    tableau: Tableau
    one_card: PeekResult
    four_card: PeekResult
    searched: int

    @functools.cached_property
    def summary(self) -> tuple[SortingSummary, ...]:
        """The summary rows, one for the first card seen and one for the first four cards: what
        both ``peek``'s exposure table and the game-math report's edge-sorting section show."""
        return tuple(
            SortingSummary(
                cards_seen,
                result.classes.labels[1],
                result.classes.labels[0],
                result.edge_when_positive,
                result.bet_frequency,
                result.edge_per_bet,
            )
            for cards_seen, result in (("first card", self.one_card), ("first four cards", self.four_card))
        )


@dataclass(frozen=True)
class SortingSummary:
    """One row of a bet's exposure to edge sorting (:attr:`SortingExposure.summary`): the cards
    the bettor sees (``cards_seen``: ``first card`` or ``first four cards``), the best sort (its
    ``group`` and the ``rest``, labels as :class:`Classes` gives them), and its exact figures,
    fractions of one unit: ``edge_when_positive`` (his expected win per coup dealt, betting only
    when the bet's EV given what he saw is positive), ``bet_frequency`` (coups bet per coup
    dealt) and ``edge_per_bet`` (per unit bet; ``None`` when he never bets)."""

    cards_seen: str
    group: str
    rest: str
    edge_when_positive: Fraction
    bet_frequency: Fraction
    edge_per_bet: Fraction | None


def sorting_exposure(bet: Bet, shoe: Shoe | None = None, tableau: Tableau = STANDARD) -> SortingExposure:
    """The best one-card and four-card sorts against ``bet`` (default shoe: 8 decks), for the
    game-math report's section on partial information: every two-group sort of the point values
    searched (:func:`search_sorts`), the best analysed again in full (:func:`peek`).  A few
    seconds a bet.

    Raises:
        PeekError: as :func:`peek` (a bet that reads ranks or suits is refused).
    """
    chosen = Shoe.standard(8) if shoe is None else shoe
    out = []
    searched = 0
    for seen in ("P1", "first:4"):
        found = search_sorts(chosen, seen, [bet], tableau)
        searched = len(found.rows)
        out.append(peek(chosen, seen, found.rows[0].classes, [bet], tableau))
    return SortingExposure(bet, chosen, tableau, out[0], out[1], searched)


def _ranks_of(group: frozenset[int], by: str) -> frozenset[int]:
    if by == "rank":
        return group
    return frozenset(r for r in range(13) if RANK_POINTS[r] in group)


__all__ = [
    "HANDS_PER_HOUR",
    "HANDS_PER_SHOE",
    "NOT_DEALT",
    "SLOTS",
    "Classes",
    "HouseExposure",
    "PatternRow",
    "PeekResult",
    "Seen",
    "SortRow",
    "SortSearch",
    "SortingExposure",
    "SortingSummary",
    "house_exposure",
    "peek",
    "rank_label",
    "search_sorts",
    "sorting_exposure",
]
