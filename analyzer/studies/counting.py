"""True counts as counters keep them: how the decks remaining are estimated and how the true
count is rounded before it is compared with the trigger (numpy imported here).

A convention is an estimate of the decks remaining and a rounding of the quotient:

* **Decks remaining** (``U`` = the cards not yet seen: those in the shoe and the burned cards,
  which the counter has not seen either):

  - ``exact``: ``U / 52``, to the card (what simulators divide by);
  - ``half-deck``: ``U / 52`` to the nearest half deck, a quarter deck (13, 39, ... cards past a
    half deck) rounding up, and never below half a deck (Casino Verite's "Half Deck" setting,
    "the remaining decks to the nearest half deck"; Wattenberger, *Modern Blackjack*, p. 87:
    "rounding to the nearest full or half deck in shoe games is acceptable");
  - ``whole-deck``: ``U / 52`` to the nearest whole deck, a half deck rounding up, never below
    one deck (Casino Verite's "Full Deck": "always divide by a whole number").

* **Rounding** of the true count ``TC = RC / decks``:

  - none: the fraction itself, compared exactly;
  - ``floor``: the largest whole number not above it (-1.5 -> -2; "the most popular method used
    now", Wattenberger, "True Count Calculation -- The Whole Story", qfit.com; early editions of
    Wong's *Professional Blackjack*);
  - ``truncate``: towards zero (-1.5 -> -1; the same page: the 1994 and later editions of
    *Professional Blackjack*);
  - ``round``: to the nearest whole number, halves away from zero (1.5 -> 2, -1.5 -> -2; the
    same page and Casino Verite's "Round").

A convention is written ``ESTIMATE``, ``ROUNDING`` or ``ESTIMATE+ROUNDING``: ``exact`` (the
default), ``floor``, ``truncate``, ``round``, ``half-deck``, ``whole-deck``, ``half-deck+floor``,
``whole-deck+round``, ...  Every comparison is in exact integers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.errors import StudyError

DECK_ESTIMATES = ("exact", "half-deck", "whole-deck")
ROUNDINGS = ("none", "floor", "truncate", "round")
#: Products of at most this size are computed in int64; larger ones in Python integers.
_INT64_SAFE = 2**62
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_OPS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": np.greater_equal,
    ">": np.greater,
    "<=": np.less_equal,
    "<": np.less,
    "==": np.equal,
}


@dataclass(frozen=True)
class TrueCount:
    """A true-count convention: ``decks`` (one of :data:`DECK_ESTIMATES`) and ``rounding``
    (one of :data:`ROUNDINGS`); see the module docstring."""

    decks: str = "exact"
    rounding: str = "none"

    @property
    def name(self) -> str:
        """The convention as ``--true-count`` writes it (``exact``, ``floor``,
        ``half-deck+round``, ...)."""
        if self.rounding == "none":
            return self.decks
        if self.decks == "exact":
            return self.rounding
        return f"{self.decks}+{self.rounding}"

    def describe(self) -> str:
        """One line saying what the convention does."""
        decks = {
            "exact": "unseen cards / 52",
            "half-deck": "unseen cards / 52 to the nearest half deck (at least 1/2)",
            "whole-deck": "unseen cards / 52 to the nearest whole deck (at least 1)",
        }[self.decks]
        rounding = {
            "none": "unrounded",
            "floor": "floored",
            "truncate": "truncated towards 0",
            "round": "rounded to the nearest whole number, halves away from 0",
        }[self.rounding]
        return f"true count = running count / ({decks}), {rounding}"


EXACT = TrueCount()


def parse_true_count(text: str | TrueCount) -> TrueCount:
    """A convention from its name (``exact``, ``floor``, ``round``, ``half-deck``,
    ``whole-deck+floor``, ...).

    Raises:
        StudyError: another name.

    >>> parse_true_count("half-deck+floor").name
    'half-deck+floor'
    >>> parse_true_count("round") == TrueCount("exact", "round")
    True
    """
    if isinstance(text, TrueCount):
        return text
    words = [w.strip().lower() for w in str(text).split("+")]
    decks = [w for w in words if w in DECK_ESTIMATES]
    rounding = [w for w in words if w in ROUNDINGS]
    if len(words) > 2 or len(decks) + len(rounding) != len(words) or len(decks) > 1 or len(rounding) > 1:
        raise StudyError(
            f"bad --true-count {text!r}: use exact, floor, truncate, round, half-deck or whole-deck, "
            "or a deck estimate and a rounding joined by '+' (e.g. half-deck+floor)"
        )
    return TrueCount(decks[0] if decks else "exact", rounding[0] if rounding else "none")


def _divisor(unseen: IntArray, decks: str) -> tuple[int, IntArray]:
    """(a, b) with decks remaining = b / a, so that TC = RC * a / b (b > 0)."""
    u = np.maximum(unseen.astype(np.int64), 1)
    if decks == "exact":
        return 52, u
    if decks == "half-deck":
        return 2, np.maximum((u + 13) // 26, 1)  # half decks, a quarter deck rounding up
    return 1, np.maximum((u + 26) // 52, 1)  # whole decks, a half deck rounding up


def _wide(values: Any, bound: int) -> Any:
    """``values`` as int64 when every product stays below 2**62, else as Python integers."""
    arr = np.asarray(values)
    return arr.astype(np.int64) if bound < _INT64_SAFE else arr.astype(object)


def compare(lhs: Any, op: str, rhs: Any) -> BoolArray:
    """``lhs op rhs`` elementwise, as booleans."""
    return np.asarray(_OPS[op](lhs, rhs), dtype=bool)


def running_count_holds(rc: IntArray, op: str, threshold: Fraction, rc_bound: int) -> BoolArray:
    """``rc op threshold`` per coup, exactly (``rc_bound`` bounds ``|rc|``)."""
    q, p = threshold.denominator, threshold.numerator
    bound = max(rc_bound * q, abs(p))
    return compare(_wide(rc, bound) * q, op, p)


def true_count_holds(
    rc: IntArray, unseen: IntArray, convention: TrueCount, op: str, threshold: Fraction, rc_bound: int
) -> BoolArray:
    """``TC op threshold`` per coup, with TC kept by ``convention`` from the running counts
    ``rc`` and the unseen cards ``unseen`` (both per coup, ``unseen`` >= 1; ``rc_bound`` bounds
    ``|rc|``).  Exact: integers only.

    >>> import numpy as np
    >>> rc, unseen = np.array([3, 3, -3]), np.array([52, 104, 104])
    >>> true_count_holds(rc, unseen, EXACT, ">=", Fraction(3, 2), 3).tolist()
    [True, True, False]
    >>> true_count_holds(rc, unseen, TrueCount("exact", "floor"), ">=", Fraction(3, 2), 3).tolist()
    [True, False, False]
    >>> true_count_holds(rc, unseen, TrueCount("exact", "round"), "<=", Fraction(-2), 3).tolist()
    [False, False, True]
    """
    a, b = _divisor(unseen, convention.decks)
    q, p = threshold.denominator, threshold.numerator
    top = 2 * rc_bound * a + 1404
    bound = max(top * q + abs(p) * 1404, abs(p) * 2 * 1404)
    num = _wide(rc, bound) * a  # TC = num / den, den > 0
    den = _wide(b, bound)
    if convention.rounding == "none":
        return compare(num * q, op, p * den)
    sign = np.where(num < 0, -1, 1)  # (np.sign has no loop for Python integers)
    if convention.rounding == "floor":
        whole = num // den
    elif convention.rounding == "truncate":
        whole = sign * (abs(num) // den)
    else:  # round: halves away from zero
        whole = sign * ((2 * abs(num) + den) // (2 * den))
    return compare(whole * q, op, p)
