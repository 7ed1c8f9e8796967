"""Bets: payout rules over a finished coup's :class:`~analyzer.core.features.Features`.

A bet is a *pay table*: an ordered list of lines (event, condition, pays); the first line whose
condition holds settles the coup, and a coup that matches no line settles at ``otherwise``
(normally -1, a loss).  Pays are win amounts per unit staked, as exact ``Fraction``: 19/20 for a
Banker win under 5% commission, 0 for a push, -1 for a loss.  A bet declares the coarsest
:class:`~analyzer.core.features.Level` its conditions need, so the enumerator walks no finer.

Any payout function can be priced with :meth:`Bet.from_function`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from analyzer.core.coup import Winner
from analyzer.core.exact import fraction_text
from analyzer.core.features import Features, GuardedFeatures, Level
from analyzer.errors import BetError

Condition = Callable[[Features], bool]


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: when ``when(features)`` holds, the bet pays ``pays`` per unit
    (0 = push, -1 = loss)."""

    event: str
    when: Condition
    pays: Fraction


@dataclass(frozen=True)
class Bet:
    """A wager priced per unit staked.

    Attributes:
        name: catalogue name (lower-case, hyphenated), e.g. ``"banker"``, ``"dragon-7"``.
        title: display name, e.g. ``"Banker (5% commission)"``.
        lines: the pay table, first match wins.
        otherwise: pays when no line matches (default -1, a loss).
        otherwise_event: event label for that case.
        level: the coarsest card level the conditions need.
        thirds: whether the conditions read the third cards' values.
        source: where the pay table comes from (rule sheet or publication).
        adjustable: index of the line whose pay :func:`analyzer.engine.pricing.pay_for_edge` solves
            for, or ``None``.
        payout_function: for bets not given as a pay table, the pay per unit for a coup.
        event_function: for those, the event label for a coup (default: from the pay).
    """

    name: str
    title: str
    lines: tuple[PayLine, ...]
    otherwise: Fraction = Fraction(-1)
    otherwise_event: str = "Loss"
    level: Level = Level.VALUE
    thirds: bool = False
    source: str = ""
    adjustable: int | None = None
    payout_function: Callable[[Features], Fraction] | None = field(default=None, compare=False)
    event_function: Callable[[Features], str] | None = field(default=None, compare=False)

    def settle(self, features: Features) -> tuple[str, Fraction]:
        """The event and the pay per unit staked for a coup with these features."""
        if self.payout_function is not None:
            # A payout function sees only the fields it declared (see GuardedFeatures).
            view: Any = GuardedFeatures(features, self.level, self.thirds, f"bet {self.name!r}")
            pays = _checked_pay(self.name, self.payout_function(view))
            label = self.event_function(view) if self.event_function else _label_for_pay(pays)
            return label, pays
        for line in self.lines:
            if line.when(features):
                return line.event, line.pays
        return self.otherwise_event, self.otherwise

    def payout(self, features: Features) -> Fraction:
        """The pay per unit staked (win amount, 0 push, -1 loss)."""
        return self.settle(features)[1]

    def pays_text(self) -> str:
        """Short pay summary for tables, e.g. ``"19/20"`` or ``"40 / push"``."""
        if self.payout_function is not None:
            return "custom"
        wins = [line.pays for line in self.lines if line.pays > 0]
        if len(wins) == 1:
            return str(wins[0])
        if not wins:
            return "-"
        return "varies"

    def with_pay(self, pays: Fraction, line: int | None = None) -> Bet:
        """The same bet with line ``line`` (default: the adjustable line) paying ``pays``.

        Raises:
            BetError: the bet has no adjustable line and none is given.
        """
        idx = self.adjustable if line is None else line
        if idx is None or self.payout_function is not None:
            raise BetError(f"bet {self.name!r} has no single adjustable pay")
        if not isinstance(idx, int) or not 0 <= idx < len(self.lines):
            raise BetError(f"bet {self.name!r} has no pay line {idx!r}: it has {len(self.lines)}")
        pays = _checked_pay(self.name, pays)
        lines = list(self.lines)
        lines[idx] = PayLine(lines[idx].event, lines[idx].when, Fraction(pays))
        return Bet(
            name=self.name,
            title=f"{self.title} [{lines[idx].event} pays {fraction_text(Fraction(pays))}]",
            lines=tuple(lines),
            otherwise=self.otherwise,
            otherwise_event=self.otherwise_event,
            level=self.level,
            thirds=self.thirds,
            source=self.source,
            adjustable=idx,
        )

    @classmethod
    def from_function(
        cls,
        name: str,
        payout: Callable[[Features], Fraction | int],
        *,
        level: Level = Level.VALUE,
        thirds: bool = False,
        title: str | None = None,
    ) -> Bet:
        """A bet from any payout function over :class:`Features` (win amount per unit staked,
        0 push, -1 loss).  Declare ``level=Level.RANK`` if it reads pairs, ``Level.CARD`` for
        suited pairs, and ``thirds=True`` if it reads third-card values; the features it gets
        carry ``None`` in the fields finer than that.

        >>> from fractions import Fraction
        >>> b = Bet.from_function("banker-7", lambda f: Fraction(1) if f.banker_total == 7 else -1)
        >>> b.name, b.level
        ('banker-7', <Level.VALUE: 0>)

        Raises:
            BetError: ``level`` is not a :class:`Level` or ``payout`` is not callable; when the
                bet is priced, a payout that is not an exact number >= -1.
        """
        if not isinstance(level, Level):
            raise BetError(f"bad level {level!r}: use Level.VALUE, Level.RANK or Level.CARD")
        if not callable(payout):
            raise BetError(f"bad payout {payout!r}: give a function of the coup's Features")
        return cls(
            name=name,
            title=title or name,
            lines=(),
            level=level,
            thirds=thirds,
            payout_function=payout,  # type: ignore[arg-type]  # checked by _checked_pay
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

    def payout(f: Features) -> Fraction:
        return sum((w * b.payout(f) for w, b in zip(weights, bets, strict=True)), Fraction(0)) / total

    def settle_event(f: Features) -> str:
        return " + ".join(b.settle(f)[0] for b in bets)

    names = "+".join(b.name for b in bets)
    staked = " + ".join(f"{fraction_text(w)} on {b.title}" for w, b in zip(weights, bets, strict=True))
    return Bet(
        name=names,
        title=f"Combined: {staked}",
        lines=(),
        level=max(b.level for b in bets),
        thirds=any(b.thirds for b in bets),
        source="sheet 000 (seven-seat table: Tie staked with Player or Banker)",
        payout_function=payout,
        event_function=settle_event,
    )


def _stake(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise BetError(f"bad stake {value!r}: give an int or a Fraction")
    return Fraction(value)


# -- conditions used by the catalogue -----------------------------------------------------------


def wins(side: Winner) -> Condition:
    """Condition: ``side`` wins (or, for ``Winner.TIE``, the coup ties)."""
    return lambda f: f.winner is side


def is_tie(f: Features) -> bool:
    """Condition: the coup ties."""
    return f.winner is Winner.TIE
