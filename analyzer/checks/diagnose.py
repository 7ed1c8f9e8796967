"""Diagnosis: which known engine bug explains a hand log's findings.

``verify`` and ``conform`` say *what* is wrong coup by coup; a developer needs the *cause*.  The
:class:`Diagnoser` replays every coup of a log through the correct dealer and through every
mutant of :mod:`analyzer.checks.mutants`, each from the log's own cards, and compares what each
would have reported with what the engine claimed (its hands or the cards it used, totals,
winner, naturals, settled bets):

* a coup has *findings* where the engine's claims differ from the correct dealer's;
* a mutant *explains* a coup with findings when it changes some finding's field and every field
  it changes matches the claim (other findings on that coup may have another cause);
* a mutant is *contradicted* by a coup on which it changes a claimed field the engine got
  otherwise (on any coup, with findings or not): the engine does not have that bug, or not on
  every coup.

The causes reported are chosen greedily over the coups with findings: the mutant that explains
the most of them, net of its contradictions, then the one that explains the most of the rest,
and so on; coups no mutant explains are counted as unexplained.  A shoe that deals more cards
of a rank than it holds (with a shoe given) is a cause of its own, fitted from the counts.

Memory is bounded: per mutant a few counters and one example; the coups with findings are kept
only as counts per set of mutants explaining them (:data:`MAX_SIGNATURES` sets at most).  A log
from an engine with hands only (no ``cards`` field) is replayed in every shoe order the mutant
could have dealt those hands in (:meth:`~analyzer.checks.mutants.Dealer.orders`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.checks.handlog import Record, card_meta
from analyzer.checks.mutants import (
    CORRECT,
    KINDS,
    Cards,
    Cell,
    Dealer,
    EngineCoup,
    Hand,
    Mutant,
    catalogue_for,
    cell_flips,
    find_mutant,
    interleave,
    net_text,
)
from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import Coup, Winner
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import MutantError

#: Distinct sets of explaining mutants kept (a log whose findings fall into more sets than this
#: counts the rest as unexplained; in practice a few sets cover every log).
MAX_SIGNATURES = 4096
#: Causes a report spells out (the rest are named in one line).
MAX_CAUSES_SHOWN = 5
#: A mutant that has explained nothing and is contradicted by this many coups without findings
#: is no longer replayed on such coups (its count of contradictions is then a lower bound).
RETIRE_AFTER = 100

Fields = dict[str, object]


def _fields(coup: EngineCoup, keys: Iterable[str]) -> Fields:
    """The claims of ``coup`` named by ``keys`` (see :func:`claims_of`)."""
    out: Fields = {}
    bets = {name: net for name, _, net in coup.bets}
    for key in keys:
        if key == "player":
            out[key] = coup.player
        elif key == "banker":
            out[key] = coup.banker
        elif key == "cards":
            out[key] = len(coup.cards)
        elif key == "player_total":
            out[key] = coup.player_total
        elif key == "banker_total":
            out[key] = coup.banker_total
        elif key == "winner":
            out[key] = coup.winner
        elif key == "natural":
            out[key] = coup.natural
        else:  # bet:NAME
            out[key] = bets.get(key[4:])
    return out


@dataclass(frozen=True)
class Claims:
    """What a log's record claims of one coup, as the diagnosis compares it.

    ``order`` is the cards in the order the engine took them (the log's ``cards``, else its
    hands interleaved), ``hands_only`` whether the log gave the hands and no ``cards``;
    ``fields`` maps each claimed field (``player``, ``banker`` hands, ``cards`` used,
    ``player_total``, ``banker_total``, ``winner``, ``natural``, ``bet:NAME`` net amounts) to
    its value; ``player`` / ``banker`` are the hands as claimed or as split from the cards;
    ``stakes`` and ``bets`` the bets claimed.
    """

    order: Cards
    hands_only: bool
    fields: Fields
    player: Cards
    banker: Cards
    stakes: dict[str, Fraction]
    bets: dict[str, Bet]

    def as_coup(self) -> EngineCoup:
        """The engine's claimed coup (its hands; the rest as claimed where given), the
        ``previous`` coup of the next one for engines that carry state."""
        f = self.fields
        pt = f.get("player_total")
        bt = f.get("banker_total")
        winner = f.get("winner")
        return EngineCoup(
            self.order,
            self.player,
            self.banker,
            pt if isinstance(pt, int) else 0,
            bt if isinstance(bt, int) else 0,
            winner if isinstance(winner, Winner) else Winner.TIE,
            str(f.get("natural", "none")),
        )


def claims_of(rec: Record, returned: bool = False, tableau: Tableau = STANDARD) -> Claims | None:
    """The claims of a coup record, or ``None`` for a marker or a record without cards.

    ``returned``: the log's amounts are what goes back to the player (stake + win), as
    ``verify --paid returned`` reads them.
    """
    if rec.cards is None and (rec.player is None or rec.banker is None):
        return None
    fields: Fields = {}
    hands_only = rec.cards is None
    if rec.player is not None and rec.banker is not None:
        player: Cards = tuple(rec.player)
        banker: Cards = tuple(rec.banker)
        fields["player"], fields["banker"] = player, banker
        order: Cards = tuple(rec.cards) if rec.cards is not None else interleave(player, banker)
    else:
        assert rec.cards is not None
        order = tuple(rec.cards)
        fields["cards"] = len(order)
        player, banker = _hands_of_cards(order, rec, tableau)
    if rec.cards is not None and "cards" not in fields:
        fields["cards"] = len(order)
    for key, value in (
        ("player_total", rec.player_total),
        ("banker_total", rec.banker_total),
        ("winner", rec.winner),
        ("natural", getattr(rec, "natural", None)),
    ):
        if value is not None:
            fields[key] = value
    stakes: dict[str, Fraction] = {}
    bets: dict[str, Bet] = {}
    for claim in rec.bets:
        stakes[claim.spec] = claim.stake
        bets[claim.spec] = claim.bet
        fields[f"bet:{claim.spec}"] = claim.paid - claim.stake if returned else claim.paid
    return Claims(order, hands_only, fields, player, banker, stakes, bets)


def _hands_of_cards(order: Sequence[Card], rec: Record, tableau: Tableau) -> tuple[Cards, Cards]:
    """The hands of a coup given by its cards only: 4 cards both stand, 6 both drew; a fifth
    card goes to the side whose claimed totals it fits, else to the side the rules have draw
    (the Player's when in doubt), as verify reads it."""
    p = (order[0], order[2]) if len(order) > 2 else tuple(order[:1])
    b = (order[1], order[3]) if len(order) > 3 else tuple(order[1:2])
    extra = tuple(order[4:])
    if len(extra) != 1:
        return (*p, *extra[:1]), (*b, *extra[1:])
    p2 = sum(card_meta(c)[0] for c in p) % 10
    b2 = sum(card_meta(c)[0] for c in b) % 10
    fifth = card_meta(extra[0])[0]
    fits = [
        side
        for side, (pt, bt) in (("player", ((p2 + fifth) % 10, b2)), ("banker", (p2, (b2 + fifth) % 10)))
        if rec.player_total in (None, pt) and rec.banker_total in (None, bt)
    ]
    if len(fits) == 1:
        side = fits[0]
    elif tableau.player_draws_third(p2, b2) or not tableau.banker_draws_third(p2, b2, None):
        side = "player"
    else:
        side = "banker"
    return ((*p, *extra), b) if side == "player" else (p, (*b, *extra))


class _Replay:
    """One coup replayed: the correct dealer's report, then each mutant's verdict."""

    def __init__(
        self,
        claims: Claims,
        previous: EngineCoup | None,
        keys: list[str],
        payout: Callable[[Bet, Coup], Fraction],
    ) -> None:
        self.claims = claims
        self.previous = previous
        self.keys = keys
        self.payout = payout
        self.ref_core: EngineCoup | None = None
        self.ref: Fields = {}
        self.findings: set[str] = set()
        # a claim of a natural on either side (the log's true) says whether there is one, not which
        self.either = claims.fields.get("natural") == "either"

    def reference(self, dealer: Dealer) -> EngineCoup:
        """The correct dealer's report on the log's cards; sets :attr:`findings`."""
        c = self.claims
        self.ref_core = dealer.deal(c.order, None, self.previous)
        full = self._full(dealer, c.order, self.ref_core)
        self.ref = self._as_claimed(_fields(full, self.keys))
        self.findings = {k for k in self.keys if c.fields[k] != self.ref[k]}
        return full

    def _as_claimed(self, fields: Fields) -> Fields:
        """``fields`` as the log's claims say them: ``either`` for a natural on one side or both
        when the log claims only whether there is one."""
        if self.either and fields.get("natural", "none") != "none":
            fields["natural"] = "either"
        return fields

    def _full(self, dealer: Dealer, order: Cards, core: EngineCoup) -> EngineCoup:
        if not self.claims.stakes or not core.complete:
            return core
        c = self.claims
        return dealer.deal(order, c.stakes, self.previous, bets=c.bets, payout=self.payout)

    def verdict(self, dealer: Dealer) -> tuple[int, bool, frozenset[str]]:
        """(1: ``dealer`` explains findings of the coup; -1: the coup contradicts it; 0: neither,
        whether it reproduces every claim of the coup, and the finding fields it explains).  Over
        the shoe orders it could have dealt the claimed hands in, the best."""
        c = self.claims
        orders = dealer.orders(c.player, c.banker, self.previous) if c.hands_only else (c.order,)
        default_settle = type(dealer).settle is Dealer.settle
        best = -2
        reproduces = False
        covers: frozenset[str] = frozenset()
        for order in orders:
            core = dealer.deal(order, None, self.previous)
            if default_settle and core == self.ref_core:
                verdict, same, found = 0, not self.findings, frozenset[str]()
            else:
                mine = self._as_claimed(_fields(self._full(dealer, order, core), self.keys))
                changed = [k for k in self.keys if mine[k] != self.ref[k]]
                same = all(mine[k] == c.fields[k] for k in self.keys)
                found = frozenset(self.findings.intersection(changed))
                if any(mine[k] != c.fields[k] for k in changed):
                    verdict = -1
                elif found:
                    verdict = 1
                else:
                    verdict = 0
            # the order that explains most: a better verdict, then more of the findings
            if (verdict, len(found)) > (best, len(covers)):
                best, covers = verdict, (found if verdict == 1 else frozenset())
            reproduces = reproduces or same
            if best == 1 and reproduces:
                break
        return best, reproduces, covers


@dataclass(frozen=True)
class Example:
    """One coup a cause explains: where it is in the log and what the engine and the rules dealt."""

    record: int
    line: int
    coup_id: str | None
    engine: str
    rules: str
    unit: str = "record"

    @property
    def where(self) -> str:
        """``record 4 (line 5, id c4)``; ``request 94 (id p94)`` for the probe's requests."""
        if self.unit != "record":
            return f"{self.unit} {self.record}" + (f" (id {self.coup_id})" if self.coup_id else "")
        return f"record {self.record} (line {self.line}" + (f", id {self.coup_id})" if self.coup_id else ")")

    def text(self) -> str:
        """The example in one sentence."""
        if self.rules.startswith("a shoe of"):  # a shoe's example: the cards and what overflowed
            return f"{self.where}: the engine dealt {self.engine}; {self.rules}"
        return f"{self.where}: the engine dealt {self.engine}; the rules deal {self.rules}"


@dataclass(frozen=True)
class Cause:
    """A cause that explains some of a log's findings.

    ``mutant`` names the bug (:mod:`analyzer.checks.mutants`, or ``shoe`` for a shoe fitted from
    the counts), ``sentence`` says it; ``explains`` counts the coups with findings it explains
    (among those left by the causes before it in the diagnosis), ``explains_all`` the coups
    with findings it explains in the whole log, ``contradicts`` the coups that contradict it
    (``contradicts_exact`` False when counting stopped: a lower bound), ``example`` one coup it
    explains; ``one_stake`` the stake of every bet it settles otherwise, when they are all one
    (then other pay errors would give the same amounts: the report says so).
    """

    mutant: str
    kind: str
    sentence: str
    explains: int
    explains_all: int
    contradicts: int
    contradicts_exact: bool
    example: Example | None
    one_stake: Fraction | None = None

    def text(self, findings: int) -> str:
        """The cause, its counts and its example in one line."""
        if self.contradicts == 0:
            against = "contradicted by no coup"
        else:
            bound = "" if self.contradicts_exact else "at least "
            plural = "s" if self.contradicts != 1 else ""
            against = (
                f"contradicted by {bound}{self.contradicts:,} coup{plural} (a partial fit: the "
                "engine's bug is near this one, not this one)"
            )
        line = (
            f"{self.sentence}: explains {self.explains:,} of {findings:,} coup"
            f"{'s' if findings != 1 else ''} with findings, {against}"
        )
        if self.one_stake is not None:
            line += (
                f" (but every bet it explains was staked {net_text(self.one_stake)}: another pay error "
                "can give the same amounts at one stake; log several stakes to tell them apart)"
            )
        return line + (f"; e.g. {self.example.text()}" if self.example else "")


@dataclass(frozen=True)
class EngineFit:
    """How a log fits one engine bug (for ``conform --compare``): ``misses`` counts the coups
    the bug would have dealt or settled otherwise than the engine claimed (first on
    ``first_line``); ``explains`` / ``contradicts`` as for a :class:`Cause`; ``exact`` False
    when the counts stopped early (a lower bound)."""

    mutant: str
    cause: str
    coups: int
    misses: int
    first_line: int | None
    explains: int
    contradicts: int
    exact: bool = True


@dataclass(frozen=True)
class Diagnosis:
    """The causes that explain a log's findings, best first.

    ``coups``: coups replayed; ``findings``: coups whose claims differ from the correct dealer's;
    ``causes``: the greedy cover (see the module docstring); ``unexplained``: coups with findings
    no cause explains; ``ranked``: every mutant that explains a coup, by how well it fits.
    """

    coups: int
    findings: int
    causes: tuple[Cause, ...]
    unexplained: int
    ranked: tuple[Cause, ...] = ()

    def lines(self) -> list[str]:
        """The diagnosis as report lines (none when the log has no findings)."""
        if not self.findings:
            return []
        if not self.causes:
            return [
                f"diagnosis: no known engine bug explains the {self.findings:,} coup"
                f"{'s' if self.findings != 1 else ''} with findings (`punto-banco mutants` lists "
                "the bugs the oracle knows)"
            ]
        head = (
            f"diagnosis: {len(self.causes)} cause{'s' if len(self.causes) != 1 else ''} "
            f"explain{'s' if len(self.causes) == 1 else ''} the findings"
        )
        shown = self.causes[:MAX_CAUSES_SHOWN]
        out = [head] + [f"  {i}. {c.text(self.findings)}" for i, c in enumerate(shown, 1)]
        if len(self.causes) > len(shown):
            rest = self.causes[len(shown):]
            out.append(
                f"  and {len(rest)} more causes, each explaining fewer coups "
                f"({', '.join(c.mutant for c in rest[:10])}{', ...' if len(rest) > 10 else ''})"
            )
        if self.unexplained:
            out.append(
                f"  {self.unexplained:,} coup{'s' if self.unexplained != 1 else ''} with findings "
                "no known bug explains"
            )
        return out


@dataclass
class _Tally:
    """What one mutant has done so far in a log."""

    mutant: Mutant
    dealer: Dealer
    explains: int = 0
    contradicts: int = 0
    retired: bool = False
    example: Example | None = None
    misses: int = 0
    first_miss: int | None = None
    #: Stakes of the coups it explains (the first two kept: one stake alone leaves some pay
    #: errors indistinguishable).
    stakes: set[Fraction] = field(default_factory=set)


#: The pool of a points-only log's ten-valued cards (rank unknown: 10, J, Q and K together).
_TENS = 13
#: One card's key is this plus 4 * rank + suit.
_CARD = 100


@dataclass
class _ShoeFit:
    """The cards dealt per rank (``_TENS``: ten-valued cards of unknown rank) and, when the shoe
    and the cards know suits, per card (``_CARD + 4 * rank + suit``) in the current shoe, and
    the worst overflow seen: (count, key, shoe id)."""

    start: Shoe
    counts: dict[int, int] = field(default_factory=dict)
    dealt: int = 0
    overflow_coups: int = 0
    worst: tuple[int, int, str] | None = None
    most_dealt: int = 0
    example: Example | None = None

    def held(self, key: int) -> int:
        """How many cards of ``key`` (a rank, the ten-valued pool, or one card) the starting
        shoe holds."""
        if key >= _CARD:
            assert self.start.suited is not None
            return self.start.suited[key - _CARD]
        return sum(self.start.counts[9:13]) if key == _TENS else self.start.counts[key]

    @staticmethod
    def label(key: int) -> str:
        if key >= _CARD:
            return f"cards {Card(RANKS[(key - _CARD) // 4], SUITS[(key - _CARD) % 4])}"
        return "ten-valued cards" if key == _TENS else f"cards of rank {RANKS[key].label}"


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``33rd``, ``11th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Diagnoser:
    """Replays a log's coups through the correct dealer and every mutant (see the module
    docstring).  Feed it records in log order with :meth:`add` (or wrap a record stream with
    :meth:`watch`), then read :meth:`result`.

    Args:
        tableau: the rules the log is judged by.
        shoe: the shoe every shoe of the log starts from, for the shoe cause (``None``: no shoe
            cause is fitted).
        returned: the log's amounts are returned amounts (stake + win), not net.
        mutants: the mutants to try (default: the whole catalogue, written for ``tableau``:
            :func:`~analyzer.checks.mutants.catalogue_for`).
        unit: what a record is called in examples (``record``; the probe's ``request``).
        retire: stop replaying a mutant the log has long contradicted (:data:`RETIRE_AFTER`) on
            coups without findings; ``False`` keeps every count exact (:meth:`fits`).
        cells: also fit a one-cell bug (a decision cell decided the other way round) when no
            catalogue bug explains the findings.
    """

    def __init__(
        self,
        tableau: Tableau = STANDARD,
        shoe: Shoe | None = None,
        *,
        returned: bool = False,
        mutants: Sequence[Mutant] | None = None,
        unit: str = "record",
        retire: bool = True,
        cells: bool = True,
    ) -> None:
        self.unit = unit
        self.retire = retire
        if not isinstance(tableau, Tableau):
            raise MutantError(f"bad rules {tableau!r}: give a Tableau")
        self.tableau = tableau
        self.returned = returned
        self.reference = CORRECT.dealer(tableau)
        chosen = catalogue_for(tableau) if mutants is None else mutants
        self.tallies = [_Tally(m, m.dealer(tableau)) for m in chosen if m.kind != "shoe"]
        #: The catalogue's bugs are the first tallies; then one engine per decision cell that
        #: decides it the other way (:func:`~analyzer.checks.mutants.cell_flips`), replayed only
        #: on the coups that pass through its cell.
        self.catalogued = len(self.tallies)
        self.flips: dict[Cell, int] = {}
        for cell, mutant in cell_flips(tableau) if cells else ():
            self.flips[cell] = len(self.tallies)
            self.tallies.append(_Tally(mutant, mutant.dealer(tableau)))
        self.coups = 0
        self.findings = 0
        #: Records whose only finding is a card the shoe could not hold (the shoe's cause).
        self.shoe_only = 0
        self.signatures: dict[frozenset[int], int] = {}
        self._previous: EngineCoup | None = None
        self._shoe = _ShoeFit(shoe) if shoe is not None else None
        self._shoe_id: str | None = None

    def _cells(self, claims: Claims) -> tuple[Cell, ...]:
        """The decision cells the coup passes through under the rules (none on a natural): the
        Player's two-card total, and the Banker's against the Player's third card as the rules
        deal it (``None``: the Player stood)."""
        order = claims.order
        if len(order) < 4:
            return ()
        value = self.reference.value
        p2 = (value(order[0]) + value(order[2])) % 10
        b2 = (value(order[1]) + value(order[3])) % 10
        rules = self.tableau
        if rules.decided_by_naturals(p2, b2):
            return ()
        third = value(order[4]) if rules.player_draws(p2) and len(order) > 4 else None
        return (("player", p2, None), ("banker", b2, third))

    def after(self, rec: Record, found: Sequence[object]) -> None:
        """:meth:`add` ``rec`` as a checker's hook after it checked it (``found``: its
        discrepancies; none makes the record clean)."""
        self.add(rec, clean=not found)

    def watch(self, records: Iterable[Record]) -> Iterator[Record]:
        """``records`` passed through unchanged, each added to the diagnosis as it goes by."""
        for rec in records:
            self.add(rec)
            yield rec

    def add(self, rec: Record, clean: bool = False, order: Sequence[Card] | None = None) -> None:
        """Replay one record (a marker only moves the shoe on).  ``clean``: the caller knows
        every claim of the record is right (``verify`` found nothing in it), so once every bug
        that could show in it has been contradicted long enough (:data:`RETIRE_AFTER`), it is
        not replayed at all.  ``order``: the shoe's cards in the order they came out, when the
        caller knows them and the record gives its hands only (the probe's stacks)."""
        over = self._shoe is not None and self._track_shoe(rec)
        claims = claims_of(rec, self.returned, self.tableau)
        if claims is None:
            self.shoe_only += over  # a burn the shoe could not hold
            return
        if order is not None and claims.hands_only:
            claims = replace(claims, order=tuple(order), hands_only=False)
        self.coups += 1
        previous = self._previous
        self._previous = claims.as_coup()
        keys = list(claims.fields)
        claimed = {k for k in keys if not k.startswith("bet:")}
        for k in keys:
            if k.startswith("bet:"):
                claimed |= {"bet", "bet:" + k[4:].partition(":")[0]}
        cells = self._cells(claims)
        if clean:  # a one-cell bug through this coup's cells would have changed its draws
            for cell in cells:
                if cell in self.flips:
                    self.tallies[self.flips[cell]].contradicts += 1
        catalogue = self.tallies[: self.catalogued]
        if clean and self.retire and all(t.retired or not claimed & t.dealer.changes for t in catalogue):
            return  # as a replay would find: no finding, and no live bug that could change it
        cache: dict[tuple[str, object], Fraction] = {}

        def payout(bet: Bet, record: Coup) -> Fraction:  # one settlement per bet and record
            key = (bet.name, record)
            found = cache.get(key)
            if found is None:
                found = cache[key] = bet.payout(record)
            return found

        replay = _Replay(claims, previous, keys, payout)
        ref_coup = replay.reference(self.reference)
        findings = replay.findings
        self.shoe_only += over and not findings  # a coup whose only finding is the shoe
        if findings:
            self.findings += 1
        explaining: list[int] = []
        covered: set[str] = set()
        covering: dict[int, frozenset[str]] = {}
        flips = [self.flips[c] for c in cells if c in self.flips] if findings else []
        for i in [*range(self.catalogued), *flips]:
            tally = self.tallies[i]
            if tally.retired and not findings:
                continue
            if not claimed & tally.dealer.changes:  # it deals this coup as the rules do
                verdict, reproduces, covers = 0, not findings, frozenset[str]()
            else:
                verdict, reproduces, covers = replay.verdict(tally.dealer)
            if not reproduces:
                tally.misses += 1
                if tally.first_miss is None:
                    tally.first_miss = rec.line
            if verdict > 0:
                explaining.append(i)
                covered |= covers
                covering[i] = covers
            elif verdict < 0:
                tally.contradicts += 1
                if self.retire and not findings and not tally.explains and tally.contradicts >= RETIRE_AFTER:
                    tally.retired = True
        if not covered >= findings:  # a finding no bug reproduces: the coup is unexplained
            explaining = []
        for i in explaining:
            tally = self.tallies[i]
            tally.explains += 1
            if len(tally.stakes) < 2:  # the stakes of the bets it settles otherwise
                tally.stakes.update(claims.stakes[k[4:]] for k in covering[i] if k.startswith("bet:"))
            if tally.example is None:
                engine, rules = _engine(claims), ref_coup.announce()
                tally.example = Example(rec.number, rec.line, rec.coup_id, engine, rules, self.unit)
        if findings:
            key = frozenset(explaining)
            if key in self.signatures or len(self.signatures) < MAX_SIGNATURES:
                self.signatures[key] = self.signatures.get(key, 0) + 1
            else:
                self.signatures[frozenset()] = self.signatures.get(frozenset(), 0) + 1

    # -- the shoe -----------------------------------------------------------------------------------

    def _track_shoe(self, rec: Record) -> bool:
        """Count the cards of ``rec`` into its shoe; whether one of them overflowed it."""
        fit = self._shoe
        assert fit is not None
        changed = rec.shoe_id is not None and self._shoe_id is not None and rec.shoe_id != self._shoe_id
        if rec.new_shoe or changed:
            fit.counts = {}
            fit.dealt = 0
        if rec.shoe_id is not None:
            self._shoe_id = rec.shoe_id
        dealt = rec.cards if rec.cards is not None else (*(rec.player or ()), *(rec.banker or ()))
        cards = [*rec.burn, *dealt]
        over: tuple[int, int] | None = None
        suited = fit.start.suited is not None
        for card in cards:
            point, r, s = card_meta(card)
            keys = [_TENS if r < 0 or (rec.points_only and point == 0) else r]
            if suited and s >= 0 and r >= 0:
                keys.append(_CARD + 4 * r + s)
            fit.dealt += 1
            for key in keys:
                n = fit.counts[key] = fit.counts.get(key, 0) + 1
                held = fit.held(key)
                if n > held:
                    over = (n, key)
                    if fit.worst is None or n - held > fit.worst[0] - fit.held(fit.worst[1]):
                        fit.worst = (n, key, self._shoe_id or "1")
        fit.most_dealt = max(fit.most_dealt, fit.dealt)
        if over is None:
            return False
        fit.overflow_coups += 1
        if fit.example is None:
            n, key = over
            where = f"shoe {self._shoe_id}" if self._shoe_id is not None else "the shoe"
            fit.example = Example(
                rec.number,
                rec.line,
                rec.coup_id,
                " ".join(map(str, cards)),
                f"a shoe of {fit.start.describe()} holds {fit.held(key)} {fit.label(key)}, and this coup "
                f"deals the {_ordinal(n)} of {where}",
                self.unit,
            )
        return True

    def _shoe_cause(self) -> Cause | None:
        fit = self._shoe
        if fit is None or not fit.overflow_coups or fit.worst is None:
            return None
        count, r, shoe_id = fit.worst
        held = fit.held(r)
        start = fit.start.describe()
        decks = fit.start.decks
        per_deck = held // decks if decks else None
        if fit.most_dealt > fit.start.size:
            least = -(-fit.most_dealt // 52)
            if per_deck:
                least = max(least, -(-count // per_deck))
            mutant = "shoe-one-deck-more" if decks and least == decks + 1 else "shoe"
            sentence = (
                f"The shoe holds more cards than declared: {fit.most_dealt:,} cards were dealt from "
                f"one shoe, and a shoe of {start} holds {fit.start.size:,}"
                + (f" (consistent with at least {least} decks)" if decks else "")
            )
        else:
            mutant = "shoe-refilled"
            sentence = (
                f"The shoe is refilled (reshuffled whole) between coups: shoe {shoe_id} dealt {count} "
                f"{fit.label(r)} where a shoe of {start} holds {held}, though no more cards in all "
                "than the shoe holds"
            )
        return Cause(mutant, "shoe", sentence, fit.overflow_coups, fit.overflow_coups, 0, True, fit.example)

    # -- the result ---------------------------------------------------------------------------------

    def result(self) -> Diagnosis:
        """The causes, chosen greedily (see the module docstring)."""
        remaining = dict(self.signatures)
        chosen: list[Cause] = []
        used: set[int] = set()
        while True:
            best: tuple[bool, int, int, int, int] | None = None
            for i, tally in enumerate(self.tallies):
                if i in used:
                    continue
                covered = sum(n for sig, n in remaining.items() if i in sig)
                if not covered or covered <= tally.contradicts:
                    continue
                # a bug no coup contradicts first; then the most explained net of contradictions;
                # of two that explain as much, the narrower (fewer cells it could decide otherwise)
                breadth = tally.mutant.breadth
                key = (tally.contradicts == 0, covered - tally.contradicts, covered, -breadth, -i)
                if best is None or key > best:
                    best = key
            if best is None:
                break
            i = -best[4]
            used.add(i)
            chosen.append(self._cause(i, best[2]))
            remaining = {sig: n for sig, n in remaining.items() if i not in sig}
        unexplained = sum(remaining.values())
        shoe = self._shoe_cause()
        findings = self.findings + self.shoe_only  # each record with findings once
        if shoe is not None:
            chosen.append(shoe)
        ranked = sorted(
            (self._cause(i, t.explains) for i, t in enumerate(self.tallies) if t.explains),
            key=lambda c: (-(c.explains - c.contradicts), -c.explains, c.mutant),
        )
        return Diagnosis(self.coups, findings, tuple(chosen), unexplained, tuple(ranked))

    def fits(self) -> tuple[EngineFit, ...]:
        """How well each mutant fits the log: the coups it would have dealt or settled otherwise
        than the engine claimed, fewest first."""
        found = [
            EngineFit(
                t.mutant.name,
                t.mutant.cause,
                self.coups,
                t.misses,
                t.first_miss,
                t.explains,
                t.contradicts,
                not t.retired,
            )
            for t in self.tallies[: self.catalogued]
        ]
        return tuple(sorted(found, key=lambda f: (f.misses, -f.explains, f.mutant)))

    def _cause(self, i: int, explains: int) -> Cause:
        t = self.tallies[i]
        m = t.mutant
        # a pay error seen at one stake only may be another pay error (a draw's is not)
        one_stake = next(iter(t.stakes)) if m.kind == "settlement" and len(t.stakes) == 1 else None
        return Cause(
            m.name, m.kind, m.cause, explains, t.explains, t.contradicts, not t.retired, t.example, one_stake
        )


def _engine(claims: Claims) -> str:
    """The engine's claimed coup in a dealer's words (what the log gives)."""
    f = claims.fields

    def hand(cards: Hand) -> str:
        return " ".join("?" if c is None else str(c) for c in cards)

    pt, bt = f.get("player_total"), f.get("banker_total")
    player = f"Player {hand(claims.player)}" + (f" ({pt})" if pt is not None else "")
    banker = f"Banker {hand(claims.banker)}" + (f" ({bt})" if bt is not None else "")
    text = f"{player}, {banker}"
    winner = f.get("winner")
    if isinstance(winner, Winner):
        text += ": Tie" if winner is Winner.TIE else f": {winner.label} wins"
    bets = [f"{k[4:]} {net_text(v)}" for k, v in f.items() if k[:4] == "bet:" and isinstance(v, Fraction)]
    if bets:
        text += " (paid " + ", ".join(bets) + ")"
    return text


def diagnose(
    records: Iterable[Record],
    tableau: Tableau = STANDARD,
    shoe: Shoe | None = None,
    *,
    returned: bool = False,
) -> Diagnosis:
    """The diagnosis of a whole log's records (see :class:`Diagnoser`)."""
    diagnoser = Diagnoser(tableau, shoe, returned=returned)
    for rec in records:
        diagnoser.add(rec)
    return diagnoser.result()


__all__ = [
    "KINDS",
    "Cause",
    "Claims",
    "Diagnoser",
    "Diagnosis",
    "EngineFit",
    "Example",
    "claims_of",
    "diagnose",
    "find_mutant",
]
