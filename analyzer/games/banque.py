"""Baccara banque as a three-person game: the Banker's cells and the exact additive payoffs.

Source: S. N. Ethier and J. Lee, "On the three-person game baccara banque", *Games* 2015,
6(2):57-78, doi:10.3390/g6020057.  Only its abstract and the rules in its introduction could
be read; the model below is our reading of them, not a transcription of the paper's.

* Three players: Player 1, Player 2 (the two punters' hands) and Banker.  Cards are dealt WITH
  REPLACEMENT (each of the 13 ranks with probability 1/13; values A=1, 2-9, 10/J/Q/K = 0), two
  to each hand; a total is the sum mod 10; 8 or 9 on two cards is a natural.
* If Banker or both Players have naturals, play ends: each Player's hand is compared with
  Banker's two-card hand (higher total wins, equal totals push).  If exactly one Player has a
  natural and Banker has not, that Player wins, and play continues between the other Player
  and Banker alone.
* A Player without a natural draws on 0-4, stands on 6-7, and chooses at 5.  Each Player sees
  only his own two-card total (the paper's "simplifying assumption concerning the information
  available to one of the players": at the table Player 2 would also see Player 1's third card
  dealt face up before he decides; we assume he does not use it).  So Player i's strategy is
  one number p_i, his probability of drawing at 5.
* Banker (no natural) then sees his own total (0-7), and for each Player still in play his
  third card (value 0-9) or that he stood, and draws or stands: every such cell is a free
  choice.  Cells: 8 totals x (11 x 11 with both Players in play + 2 x 11 with one Player out
  on a natural) = 1144.  Then each hand still in play is compared with Banker's final hand.
* Stakes: theta is bet on Player 1's hand and 1 - theta on Player 2's (0 < theta < 1).
  Zero-sum: Player 1 gets theta X1, Player 2 gets (1 - theta) X2, Banker gets
  -(theta X1 + (1 - theta) X2), where X_i in {+1, 0, -1} is hand i's result against Banker.

A deal passes through at most one Banker cell, and through each Player's choice at 5 at most
once, so each hand's expected result is *additive* over Banker's cells and each term is
*bilinear* in (p1, p2): ``base + sum over cells of (stand or draw)``, every form a 4-tuple of
integers, the coefficients of ``1, p1, p2, p1 p2``, over the denominator 13^9 (every hand
padded to three cards).  :class:`Banque` stores those forms for X1 and for X2 apart, so the
stakes theta enter only when a solution is sought (:mod:`analyzer.games.banque_solve`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import TypeVar

from analyzer.core.exact import LIMITS_WORDS, parse_exact, past_limits
from analyzer.errors import AnalyzerError, GameError

#: A Player's state in a cell: his third card's value 0-9, or one of these.
STOOD = 10
NATURAL = 11
#: What Banker sees of a Player still in play: his third card 0-9, or that he stood.
PLAYER_THIRDS = (*range(10), STOOD)
#: Banker's two-card totals that are not naturals: his totals in a cell.
BANKER_TOTALS = tuple(range(8))
#: Ranks per point value (of 13): four count 0 (10, J, Q, K), one each the rest.
RANKS_OF_VALUE = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
DENOMINATOR = 13**9
CELL_COUNT = 8 * (11 * 11 + 2 * 11)

#: Coefficients of ``1, p1, p2, p1 p2``.
Bilinear = tuple[int, int, int, int]
N = TypeVar("N")


def hand_text(state: int) -> str:
    """A Player's state as shown: ``"0"``-``"9"`` (his third card), ``"stood"``, ``"natural"``."""
    return "stood" if state == STOOD else "natural" if state == NATURAL else str(state)


@dataclass(frozen=True)
class BanqueCell:
    """One of Banker's information sets: his two-card total 0-7 and what he sees of each Player:
    the third card's value 0-9, :data:`STOOD` or :data:`NATURAL` (that Player is out, paid)."""

    total: int
    first: int
    second: int

    @property
    def label(self) -> str:
        """``"6 v 4, stood"``: Banker's total against Player 1's and Player 2's hands."""
        return f"{self.total} v {hand_text(self.first)}, {hand_text(self.second)}"


def _cells() -> tuple[BanqueCell, ...]:
    out = []
    for k in BANKER_TOTALS:
        out += [BanqueCell(k, x1, x2) for x1 in PLAYER_THIRDS for x2 in PLAYER_THIRDS]
        out += [BanqueCell(k, NATURAL, x2) for x2 in PLAYER_THIRDS]
        out += [BanqueCell(k, x1, NATURAL) for x1 in PLAYER_THIRDS]
    return tuple(out)


CELLS = _cells()


@dataclass(frozen=True)
class Banque:
    """The game's exact payoff forms (bilinear in p1, p2; integers over :data:`DENOMINATOR`).

    ``base1`` / ``base2``: hand 1's / hand 2's expected result (+1, 0, -1) from every deal that
    reaches no Banker cell, plus the wins of a Player out on a natural; ``stand1[c]`` /
    ``draw1[c]`` (``stand2``, ``draw2``): hand 1's (hand 2's) result from the deals through
    cell ``cells[c]`` when Banker stands / draws there.  So ``E X1`` against Banker drawing in
    cell c with probability ``s_c`` is ``(base1 + sum_c ((1 - s_c) stand1[c] + s_c draw1[c]))
    (p1, p2) / DENOMINATOR``; ``weight[c]`` is the probability form of reaching cell c.
    """

    cells: tuple[BanqueCell, ...]
    denominator: int
    base1: Bilinear
    base2: Bilinear
    stand1: tuple[Bilinear, ...]
    draw1: tuple[Bilinear, ...]
    stand2: tuple[Bilinear, ...]
    draw2: tuple[Bilinear, ...]
    weight: tuple[Bilinear, ...]


def bilinear(form: Sequence[int | Fraction], p1: N, p2: N) -> N:
    """A bilinear form ``(c, c1, c2, c12)`` at ``(p1, p2)``: ``c + c1 p1 + c2 p2 + c12 p1 p2``
    (any exact number type that multiplies with integers: Fraction, :class:`~analyzer.games.surd.Surd`)."""
    c, c1, c2, c12 = form
    return p1 * (p2 * c12 + c1) + p2 * c2 + c  # type: ignore[operator, return-value]


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _pairs() -> list[int]:
    """Ordered rank pairs (of 169) with each two-card total 0-9."""
    out = [0] * 10
    for a in range(10):
        for b in range(10):
            out[(a + b) % 10] += RANKS_OF_VALUE[a] * RANKS_OF_VALUE[b]
    return out


Linear = tuple[int, int]  # coefficients of 1 and p (one Player's draw probability at 5)


def _branches() -> dict[int, dict[int, Linear]]:
    """A Player without a natural, by what Banker sees of him (third card or STOOD): his final
    total -> the weight (of 13^3, a stood hand padded) as a linear form in his p."""
    pairs = _pairs()
    out: dict[int, dict[int, Linear]] = {x: {} for x in PLAYER_THIRDS}

    def put(x: int, final: int, c0: int, c1: int) -> None:
        a0, a1 = out[x].get(final, (0, 0))
        out[x][final] = (a0 + c0, a1 + c1)

    for a in range(8):
        w = pairs[a]
        if a <= 5:
            for x in range(10):
                wx = w * RANKS_OF_VALUE[x]
                put(x, (a + x) % 10, *((wx, 0) if a < 5 else (0, wx)))
        if a >= 5:
            put(STOOD, a, *((13 * w, -13 * w) if a == 5 else (13 * w, 0)))
    return out


def _outer(first: Linear, second: Linear) -> Bilinear:
    """(a0 + a1 p1)(b0 + b1 p2) as a bilinear form."""
    return (first[0] * second[0], first[1] * second[0], first[0] * second[1], first[1] * second[1])


def _add(acc: list[int], form: Bilinear, times: int = 1) -> None:
    for i in range(4):
        acc[i] += times * form[i]


def _result_form(branch: dict[int, Linear], banker: int) -> Linear:
    """A Player's expected result (times its weight) against Banker's final total."""
    c0 = sum(w[0] * _sign(f, banker) for f, w in branch.items())
    c1 = sum(w[1] * _sign(f, banker) for f, w in branch.items())
    return c0, c1


def _marginal(branch: dict[int, Linear]) -> Linear:
    return sum(w[0] for w in branch.values()), sum(w[1] for w in branch.values())


@cache
def banque() -> Banque:
    """The game, exact: every deal enumerated by two-card totals (ordered rank pairs), third
    cards and Banker's third card by value (ranks per value as weights), over 13^9."""
    pairs = _pairs()
    branches = _branches()
    marginal = {x: _marginal(b) for x, b in branches.items()}
    natural = (pairs[8] + pairs[9]) * 13  # a Player out on a natural, padded to three cards
    base1 = [0, 0, 0, 0]
    base2 = [0, 0, 0, 0]
    # Banker's natural, or both Players': play ends on the two-card totals
    for k in range(10):
        for a in range(10):
            for b in range(10):
                if k < 8 and not (a >= 8 and b >= 8):
                    continue
                w = pairs[k] * pairs[a] * pairs[b] * 13**3
                base1[0] += w * _sign(a, k)
                base2[0] += w * _sign(b, k)
    stand1: list[Bilinear] = []
    draw1: list[Bilinear] = []
    stand2: list[Bilinear] = []
    draw2: list[Bilinear] = []
    weight: list[Bilinear] = []
    for cell in CELLS:
        k = cell.total
        wk = pairs[k]
        # forms of hand 1 and hand 2 in p1 and in p2: (result form, weight form)
        res1_stand, res1_draw, mass1 = _hand_forms(cell.first, k, natural, branches, marginal)
        res2_stand, res2_draw, mass2 = _hand_forms(cell.second, k, natural, branches, marginal)
        pad = wk * 13  # Banker's two cards, padded to three when he stands
        s1, d1 = _outer(res1_stand, mass2), _outer(res1_draw, mass2)
        s2, d2 = _outer(mass1, res2_stand), _outer(mass1, res2_draw)
        if cell.first == NATURAL:  # hand 1 is paid whatever Banker does: into the base
            _add(base1, s1, pad)
            s1 = d1 = (0, 0, 0, 0)
        if cell.second == NATURAL:
            _add(base2, s2, pad)
            s2 = d2 = (0, 0, 0, 0)
        stand1.append(_times(s1, pad))
        draw1.append(_times(d1, wk))
        stand2.append(_times(s2, pad))
        draw2.append(_times(d2, wk))
        weight.append(_times(_outer(mass1, mass2), pad))
    return Banque(CELLS, DENOMINATOR, _tuple4(base1), _tuple4(base2), tuple(stand1), tuple(draw1),
                  tuple(stand2), tuple(draw2), tuple(weight))


def _hand_forms(hand: int, banker: int, natural: int, branches: dict[int, dict[int, Linear]],
                marginal: dict[int, Linear]) -> tuple[Linear, Linear, Linear]:
    """One Player's forms in a cell where Banker holds ``banker``: his result when Banker stands,
    when Banker draws, and his weight; a Player out on a natural has his weight alone, the same
    whatever Banker does."""
    if hand == NATURAL:
        return (natural, 0), (natural, 0), (natural, 0)
    return _result_form(branches[hand], banker), _drawn(branches[hand], banker), marginal[hand]


def _drawn(branch: dict[int, Linear], banker: int) -> Linear:
    """A Player's expected result (times its weight, and 13 for Banker's third card) when
    Banker, on ``banker``, draws: summed over his third card's value."""
    c0 = c1 = 0
    for y in range(10):
        r0, r1 = _result_form(branch, (banker + y) % 10)
        c0 += RANKS_OF_VALUE[y] * r0
        c1 += RANKS_OF_VALUE[y] * r1
    return c0, c1


def _times(form: Bilinear, k: int) -> Bilinear:
    return (form[0] * k, form[1] * k, form[2] * k, form[3] * k)


def _tuple4(acc: Sequence[int]) -> Bilinear:
    return (acc[0], acc[1], acc[2], acc[3])


def expected_results(game: Banque, p1: Fraction, p2: Fraction,
                     draws: Callable[[int], Fraction]) -> tuple[Fraction, Fraction]:
    """(E X1, E X2): each hand's expected result against Banker at the draw probabilities
    ``p1``, ``p2`` at 5, Banker drawing in cell ``c`` with probability ``draws(c)``."""
    x1 = Fraction(bilinear(game.base1, p1, p2))
    x2 = Fraction(bilinear(game.base2, p1, p2))
    for c in range(len(game.cells)):
        s = draws(c)
        x1 += (1 - s) * bilinear(game.stand1[c], p1, p2) + s * bilinear(game.draw1[c], p1, p2)
        x2 += (1 - s) * bilinear(game.stand2[c], p1, p2) + s * bilinear(game.draw2[c], p1, p2)
    return x1 / game.denominator, x2 / game.denominator


#: What a stake is, for the messages that refuse one.
STAKE_WORDS = ("a stake is the share bet on Player 1's hand, a fraction strictly between 0 and 1: "
               "1/2, 0.3 or 30%")


def check_theta(theta: object, what: str = "theta") -> Fraction:
    """The stake on Player 1's hand as an exact fraction strictly between 0 and 1: a Fraction
    (or an int or a finite Decimal), or text as the command line takes it (``"1/2"``, ``"0.3"``,
    ``"30%"``); the one reader of a stake, for ``--theta``, ``--thetas`` and Python.  ``what``
    names it in messages.

    Raises:
        GameError: a float (not exact: ``0.3`` is not 3/10; give ``"0.3"`` or ``Fraction(3, 10)``),
            text that is not a number, or a number not strictly between 0 and 1; one line that
            quotes ``theta``.

    >>> check_theta("30%"), check_theta("3/10"), check_theta(Fraction(1, 2))
    (Fraction(3, 10), Fraction(3, 10), Fraction(1, 2))
    """
    shown = theta if not isinstance(theta, str) or len(theta) <= 40 else theta[:37] + "..."
    if isinstance(theta, float):
        raise GameError(f"bad {what} {theta!r}: a float is not exact (0.3 is not 3/10); give the stake "
                        "as text or a Fraction: '3/10', '0.3', '30%' or Fraction(3, 10)")
    if isinstance(theta, str):
        raw = theta.strip()
        body = raw[:-1] if raw.endswith("%") else raw
        try:
            value = parse_exact(body, what)
        except AnalyzerError:
            limits = f" (an exact number: {LIMITS_WORDS})" if past_limits(body) else ""
            raise GameError(f"bad {what} {shown!r}: {STAKE_WORDS}{limits}") from None
        if raw.endswith("%"):
            value /= 100
    elif isinstance(theta, Decimal) and theta.is_finite():
        value = Fraction(theta)  # exact, as a Decimal is
    elif isinstance(theta, bool) or not isinstance(theta, int | Fraction):
        raise GameError(f"bad {what} {shown!r}: {STAKE_WORDS}")
    else:
        value = Fraction(theta)
    if not 0 < value < 1:
        raise GameError(f"bad {what} {shown!r}: {STAKE_WORDS}")
    return value
