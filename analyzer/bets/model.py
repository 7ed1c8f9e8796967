"""Bets: pay tables over a finished coup's record (:class:`~analyzer.core.coup.Coup`).

A bet is a *pay table*: an ordered list of lines (event, condition, pays); the first line whose
condition holds settles the coup, and a coup that matches no line settles at ``otherwise``
(normally -1, a loss).  Pays are win amounts per unit staked, as exact ``Fraction``: 19/20 for a
Banker win under 5% commission, 0 for a push, -1 for a loss.  A bet declares what it reads
(:class:`~analyzer.core.reads.Reads`), so the engine refines the walk no further; its
conditions see the coup projected to those reads, and reading anything else raises
:class:`~analyzer.errors.UndeclaredReadError` instead of mispricing the bet.

Any payout function can be priced with :meth:`Bet.from_function`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from analyzer.core.coup import Coup, Winner
from analyzer.core.exact import fraction_text
from analyzer.core.reads import Reads
from analyzer.errors import BetError

Condition = Callable[[Coup], bool]


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: when ``when(coup)`` holds, the bet pays ``pays`` per unit
    (0 = push, -1 = loss)."""

    event: str
    when: Condition
    pays: Fraction


@dataclass(frozen=True)
class Bet:
    """A wager priced per unit staked.

    Attributes:
        name: machine name (lower-case, hyphenated; ``NAME:PARAM`` for a parameter), e.g.
            ``"banker"``, ``"banker:4"``, ``"dragon-7"``.
        title: display name, e.g. ``"Banker (5% commission)"``.
        lines: the pay table, first match wins.
        reads: what the conditions (or the payout function) read of the coup.
        otherwise: pays when no line matches (default -1, a loss).
        otherwise_event: event label for that case.
        source: where the pay table comes from (rule sheet or publication).
        adjustable: index of the line whose pay :func:`analyzer.engine.pricing.pay_for_edge`
            solves for, or ``None``.
        payout_function: for bets not given as a pay table, the pay per unit for a coup.
        event_function: for those, the event label for a coup (default: from the pay).
        rules: a longer description of the bet's rules, for reports.
        origin: what identifies its conditions for the disk cache (see below).

    A bet is a value: :attr:`fingerprint` says what it settles by, so the engine's caches of
    settlements serve every object of one definition (``find_bet("dragon-7")`` called twice).
    """

    name: str
    title: str
    lines: tuple[PayLine, ...]
    reads: Reads = field(default_factory=Reads)
    otherwise: Fraction = Fraction(-1)
    otherwise_event: str = "Loss"
    source: str = ""
    adjustable: int | None = None
    payout_function: Callable[[Coup], Fraction | int] | None = field(default=None, compare=False)
    event_function: Callable[[Coup], str] | None = field(default=None, compare=False)
    rules: str = ""
    #: What identifies the bet's conditions across processes, for the disk cache of compiled
    #: tables: ``"catalogue:NAME[:PARAM]"``, ``"file:SHA-256"``; empty for a bet built in
    #: Python (its table is kept in memory only).
    origin: str = field(default="", compare=False)
    #: How far the origin names the bet (set only by :meth:`with_origin` and :meth:`with_pay`;
    #: ``dataclasses.replace`` makes a new bet without it): ``"definition"`` (the whole bet),
    #: ``"conditions"`` (its conditions; the values are added), ``""`` (nothing vouched).
    _vouched: str = field(default="", init=False, compare=False, repr=False)

    def with_origin(self, origin: str, *, names: str = "definition", **changes: Any) -> Bet:
        """This bet (with ``changes``, as ``dataclasses.replace`` takes them) under ``origin``,
        as the code that built its conditions gives it; the bet then has a :attr:`fingerprint`.

        ``names`` says what the origin names: ``"definition"``, the whole bet (the catalogue's
        ``"catalogue:NAME[:PARAM]"``: one name, one bet), or ``"conditions"``, the conditions
        and what they read (a bet file's ``"file:SHA-256"`` of its ``when`` tables: the
        fingerprint adds the pays and the events).

        Raises:
            BetError: an empty origin, ``names`` neither of those, or ``changes`` that change
                the conditions (``lines``, ``reads``, ``payout_function``, ``event_function``).
        """
        if not isinstance(origin, str) or not origin:
            raise BetError(f"bad origin {origin!r}: give the text that names the bet's conditions")
        if names not in ("definition", "conditions"):
            raise BetError(f"bad names {names!r}: use 'definition' or 'conditions'")
        moved = sorted(set(changes) & {"lines", "reads", "payout_function", "event_function"})
        if moved:
            raise BetError(f"with_origin vouches for the conditions as they are; it cannot change {moved}")
        bet = replace(self, origin=origin, **changes)
        object.__setattr__(bet, "_vouched", names)
        return bet

    @property
    def fingerprint(self) -> str | tuple[object, ...] | None:
        """What the bet settles by, as a value: two bets with one fingerprint settle every coup
        alike (the engine keys its settlements by it, so each ``find_bet("dragon-7")`` or each
        reading of one bet file shares them); ``None`` for a bet built in Python, whose
        conditions are known only as objects (the engine keys those by identity).

        A bet has one when its origin was given with :meth:`with_origin` by the code that built
        its conditions (:func:`~analyzer.bets.catalogue.find_bet`, the main bets, the bet-file
        reader).  An origin that names the whole bet is its fingerprint
        (``"catalogue:dragon-7"``); one that names the conditions (and so what they read: a
        bet file's reads are those of its ``when`` tables) is joined by everything else a
        settlement depends on: each line's event and pay, the ``otherwise`` event and pay.
        :meth:`with_pay` keeps the conditions (a fingerprint with the new pay); any other change
        through ``dataclasses.replace`` gives a bet without one.
        """
        vouched = self._vouched
        if vouched == "definition":
            return self.origin
        if not vouched:
            return None
        made = self.__dict__.get("_values")
        if made is None:  # built once per object (the fields are frozen)
            kind = "lines" if self.payout_function is None else "payout"
            lines = tuple((ln.event, ln.pays.numerator, ln.pays.denominator) for ln in self.lines)
            rest = (self.otherwise_event, self.otherwise.numerator, self.otherwise.denominator)
            made = (self.origin, kind, lines, rest)
            object.__setattr__(self, "_values", made)
        return made

    def settle(self, coup: Coup) -> tuple[str, Fraction]:
        """The event and the pay per unit staked for ``coup``, as the bet sees it: a full
        record (from :func:`~analyzer.core.coup.resolve`) is first projected to the bet's
        reads, so every path settles a coup the same way.

        Raises:
            UndeclaredReadError: a condition read what the bet did not declare.
            BetError: a payout function returned something that is not an exact pay >= -1.
        """
        if coup.is_full:
            coup = coup.project(self.reads)
        if self.payout_function is not None:
            pays = _checked_pay(self.name, self.payout_function(coup))
            label = self.event_function(coup) if self.event_function else _label_for_pay(pays)
            return label, pays
        line = self.line_of(coup)
        if line == len(self.lines):
            return self.otherwise_event, self.otherwise
        return self.lines[line].event, self.lines[line].pays

    def line_of(self, coup: Coup) -> int:
        """The index of the first pay line whose condition holds for ``coup`` (a record as the
        bet sees it), or ``len(lines)`` when none does (the bet settles at ``otherwise``).

        Raises:
            UndeclaredReadError: a condition read what the bet did not declare.
        """
        for i, line in enumerate(self.lines):
            if line.when(coup):
                return i
        return len(self.lines)

    def payout(self, coup: Coup) -> Fraction:
        """The pay per unit staked (win amount, 0 push, -1 loss)."""
        return self.settle(coup)[1]

    def pays_text(self) -> str:
        """Short pay summary for tables, e.g. ``"19/20"``, ``"varies"``."""
        if self.payout_function is not None:
            return "custom"
        wins = {line.pays for line in self.lines if line.pays > 0}
        if len(wins) == 1:
            return fraction_text(next(iter(wins)))
        return "varies" if wins else "-"

    def with_pay(self, pays: Fraction, line: int | None = None) -> Bet:
        """The same bet with line ``line`` (default: the adjustable line) paying ``pays``.

        Raises:
            BetError: the bet has no adjustable line and none is given, or a bad pay.
        """
        idx = self.adjustable if line is None else line
        if idx is None or self.payout_function is not None:
            raise BetError(f"bet {self.name!r} has no single adjustable pay")
        if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx < len(self.lines):
            raise BetError(f"bet {self.name!r} has no pay line {idx!r}: it has {len(self.lines)}")
        pays = _checked_pay(self.name, pays)
        lines = list(self.lines)
        lines[idx] = PayLine(lines[idx].event, lines[idx].when, pays)
        bet = replace(
            self,
            title=f"{self.title} [{lines[idx].event} pays {fraction_text(pays)}]",
            lines=tuple(lines),
            adjustable=idx,
        )
        if self._vouched:  # the same conditions, now with another pay
            object.__setattr__(bet, "_vouched", "conditions")
        return bet

    @classmethod
    def from_function(
        cls,
        name: str,
        payout: Callable[[Coup], Fraction | int],
        *,
        reads: Reads | None = None,
        title: str | None = None,
        event: Callable[[Coup], str] | None = None,
    ) -> Bet:
        """A bet from any payout function of the coup record (win amount per unit staked,
        0 push, -1 loss).  ``reads`` declares what it reads (default: every base field and no
        card detail); the record it gets carries nothing more.

        >>> from fractions import Fraction
        >>> b = Bet.from_function("banker-7", lambda c: Fraction(1) if c.banker_total == 7 else -1,
        ...                       reads=Reads.of(["banker_total"]))
        >>> b.name, sorted(b.reads.fields)
        ('banker-7', ['banker_total'])

        Raises:
            BetError: ``reads`` is not a Reads or ``payout`` is not callable; when the bet is
                priced, a payout that is not an exact number >= -1, or a read it did not declare.
        """
        chosen = Reads.everything_but_cards() if reads is None else reads
        if not isinstance(chosen, Reads):
            raise BetError(f"bad reads {reads!r}: give a Reads, e.g. Reads.of(['winner'])")
        if not callable(payout):
            raise BetError(f"bad payout {payout!r}: give a function of the coup record")
        if not isinstance(name, str) or not name.strip():
            raise BetError(f"bad bet name {name!r}: give a non-empty name")
        return cls(
            name=name,
            title=title or name,
            lines=(),
            reads=chosen,
            payout_function=payout,
            event_function=event,
        )


def _checked_pay(name: str, pays: object) -> Fraction:
    """A pay per unit staked: an exact number, at least -1 (a bet loses at most its stake)."""
    if isinstance(pays, bool) or not isinstance(pays, int | Fraction):
        raise BetError(f"bet {name!r}: pay {pays!r} is not an exact number (int or Fraction)")
    if pays < -1:
        raise BetError(f"bet {name!r}: pay {pays} loses more than the stake (-1)")
    return Fraction(pays)


def _label_for_pay(pays: Fraction) -> str:
    if pays > 0:
        return f"Win, pays {fraction_text(pays)}"
    if pays == 0:
        return "Push"
    return "Loss" if pays == -1 else f"Loss of {fraction_text(-pays)}"


def combine(bets: Sequence[Bet], stakes: Sequence[Fraction | int] | None = None) -> Bet:
    """Several wagers placed together on the same coup (e.g. sheet 000's Tie staked together
    with Player or Banker), priced as one wager per unit of total stake.

    The payout is sum(stake_i * payout_i) / sum(stake_i) for each coup, so its variance comes
    from the joint distribution (not from adding the bets' standard deviations).

    Raises:
        BetError: no bets, stakes of the wrong number, or a stake that is not positive.
    """
    if not bets or not all(isinstance(b, Bet) for b in bets):
        raise BetError("a combined wager needs one or more Bet objects")
    weights = [Fraction(1)] * len(bets) if stakes is None else [_stake(s) for s in stakes]
    if len(weights) != len(bets) or any(w <= 0 for w in weights):
        raise BetError("a combined wager needs one positive stake per bet")
    total = sum(weights, Fraction(0))
    reads = bets[0].reads
    for b in bets[1:]:
        reads = reads | b.reads

    def payout(c: Coup) -> Fraction:
        return (
            sum(
                (
                    w * b.payout(c.project(b.reads) if c.is_full else _narrow(c, b))
                    for w, b in zip(weights, bets, strict=True)
                ),
                Fraction(0),
            )
            / total
        )

    def settle_event(c: Coup) -> str:
        return " + ".join(b.settle(_narrow(c, b))[0] for b in bets)

    names = "+".join(b.name for b in bets)
    staked = " + ".join(f"{fraction_text(w)} on {b.title}" for w, b in zip(weights, bets, strict=True))
    return Bet(
        name=names,
        title=f"Combined: {staked}",
        lines=(),
        reads=reads,
        source="sheet 000 (seven-seat table: Tie staked with Player or Banker)",
        payout_function=payout,
        event_function=settle_event,
    )


def _narrow(coup: Coup, bet: Bet) -> Coup:
    return coup.narrow(bet.reads)


def _stake(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise BetError(f"bad stake {value!r}: give an int or a Fraction")
    return Fraction(value)


# -- conditions used by the catalogue -----------------------------------------------------------


def wins(side: Winner) -> Condition:
    """Condition: ``side`` wins (or, for ``Winner.TIE``, the coup ties)."""
    return lambda c: c.winner is side


def is_tie(c: Coup) -> bool:
    """Condition: the coup ties."""
    return c.winner is Winner.TIE
