"""The exact solution of a chemin de fer game, and the check of every equilibrium by best responses.

**The Player with one information set (A1, B2): Foster's algorithm.**  The payoff is additive
over the Banker's cells (:mod:`analyzer.games.model`), so against the Player's probability
``p`` of drawing on 5 the Banker's best response is chosen cell by cell: he draws where his
own gain from drawing, ``E_c(p)``, a linear function of ``p``, is positive.  With a commission
``alpha`` on his wins his gain is the Player's loss less ``alpha`` times his probability of
winning, so the game is a bimatrix game; with ``alpha = 0`` it is zero-sum and ``E_c`` is minus
the Player's ``D_c``.  Every Nash equilibrium has ``p`` at 0, at 1, or at a point where some
cell's ``E_c`` vanishes (there the Banker may mix), or lies in an interval on which the
Player's slope is exactly zero.  The solver tries every such point exactly: the Banker's cells
where ``E_c`` is not zero are fixed, and the tied cells must leave the Player indifferent
(``p`` inside), or not wanting to move (``p`` at 0 or 1).  This is the algorithm of Foster
(1964) as Ethier and Gámez (2013, section 4) used it, generalised to bimatrix games as Ethier
and Lee (2023, "A game-theoretic analysis of baccara chemin de fer, II", Games 14:63) did.

**The Player with five information sets (B3).**  Cells whose sign of ``D_c`` is the same at
every Player strategy (strict dominance) are fixed; the rest, with the Player's probabilities,
make a small linear program (:mod:`analyzer.games.lp`), solved exactly: its optimum is the
Player's optimal strategy and its dual values are the Banker's draw probabilities in the
ambiguous cells.  Whether each side's optimal strategy is unique is decided by further exact
programs (the range of each probability over the optimal set).  With a commission, one Nash
equilibrium is found in the spirit of Ethier and Lee (2023), who built theirs on the model with
one Player information set: Foster's algorithm in each of the Player's sets, the others played pure, kept
when the check of best responses passes; its uniqueness is not decided.

Every equilibrium returned is verified by :func:`verify`: no pure deviation of either side
gains, in exact arithmetic.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.errors import GameError
from analyzer.games.lp import maximise
from analyzer.games.model import Game, LinearForm, evaluate

MAX_COMMISSION = Fraction(1, 10)


def check_commission(alpha: object) -> Fraction:
    """The commission as an exact fraction 0 to 1/10.

    Raises:
        GameError: not a number from 0 to 10%.
    """
    if isinstance(alpha, bool) or not isinstance(alpha, int | Fraction):
        raise GameError(f"bad commission {alpha!r}: give an exact fraction 0 to 1/10")
    value = Fraction(alpha)
    if not 0 <= value <= MAX_COMMISSION:
        raise GameError(f"bad commission {value}: the commission on Banker wins is 0 to 10% (0 to 1/10)")
    return value


@dataclass(frozen=True)
class Equilibrium:
    """One Nash equilibrium (a saddle point when there is no commission).

    ``player[k]``: the Player's probability of drawing at his information set ``k``;
    ``banker[c]``: the Banker's probability of drawing in cell ``c`` (0 in a cell no deal
    reaches); ``player_gain``, ``banker_gain``: each side's expected gain per coup, the
    Banker's net of the commission; ``banker_unique``: whether the Banker's strategy is the
    only one that makes an equilibrium with this ``player`` (None: not decided);
    ``free_cells``: cells where the Banker is indifferent at this ``player`` (any mixture there
    keeps his gain; the ones shown are those that also keep the Player's).
    """

    player: tuple[Fraction, ...]
    banker: tuple[Fraction, ...]
    player_gain: Fraction
    banker_gain: Fraction
    banker_unique: bool | None
    free_cells: tuple[int, ...]


@dataclass(frozen=True)
class Solution:
    """A model solved: its equilibria (every one, for A1 and B2; one for B3), whether each
    side's equilibrium strategy is unique (None where it is not decided), the intervals of
    ``p`` on which every point is an equilibrium (``continua``), how it was solved, and the
    result of the best-response check of every equilibrium."""

    game: Game
    commission: Fraction
    equilibria: tuple[Equilibrium, ...]
    player_unique: bool | None
    banker_unique: bool | None
    continua: tuple[tuple[Fraction, Fraction], ...]
    method: str
    verified: bool

    @property
    def value(self) -> Fraction | None:
        """The value of the game to the Player (zero-sum only: no commission)."""
        if self.commission or not self.equilibria:
            return None
        return self.equilibria[0].player_gain


# -- payoffs and best responses ---------------------------------------------------------------


def _mix(game: Game, q: Sequence[Fraction], wins: bool) -> list[Fraction]:
    """The linear form (over 1, p) of the Player's net gain (or of the Banker's probability of
    winning) against the Banker's behaviour ``q``, not divided by the denominator."""
    if wins:
        base, stand, draw = game.base_wins, game.stand_wins, game.draw_wins
    else:
        base, stand, draw = game.base, game.stand, game.draw
    out = [Fraction(v) for v in base]
    for c, qc in enumerate(q):
        s, d = stand[c], draw[c]
        for i in range(len(out)):
            out[i] += s[i] + qc * (d[i] - s[i])
    return out


def payoffs(game: Game, p: Sequence[Fraction], q: Sequence[Fraction],
            alpha: Fraction) -> tuple[Fraction, Fraction]:
    """(the Player's, the Banker's) expected gain per coup at the behaviour strategies ``p``
    (one draw probability per Player information set) and ``q`` (one per cell)."""
    net = _value(_mix(game, q, False), p)
    wins = _value(_mix(game, q, True), p)
    return net / game.denominator, (-net - alpha * wins) / game.denominator


def _value(form: Sequence[Fraction], p: Sequence[Fraction]) -> Fraction:
    return form[0] + sum((f * x for f, x in zip(form[1:], p, strict=True)), Fraction(0))


def player_best_response(game: Game, q: Sequence[Fraction]) -> Fraction:
    """The most the Player can gain per coup against the Banker's ``q``: he draws at each of
    his information sets where drawing gains (his payoff is linear in each ``p_k``)."""
    form = _mix(game, q, False)
    return (form[0] + sum(max(Fraction(0), f) for f in form[1:])) / game.denominator


def banker_best_response(game: Game, p: Sequence[Fraction], alpha: Fraction) -> Fraction:
    """The most the Banker can gain per coup (net of the commission ``alpha``) against the
    Player's ``p``: he chooses in each cell apart."""
    total = -evaluate(game.base, p) - alpha * evaluate(game.base_wins, p)
    for c in range(len(game.cells)):
        stand = -evaluate(game.stand[c], p) - alpha * evaluate(game.stand_wins[c], p)
        draw = -evaluate(game.draw[c], p) - alpha * evaluate(game.draw_wins[c], p)
        total += max(stand, draw)
    return total / game.denominator


def verify(game: Game, eq: Equilibrium, alpha: Fraction) -> bool:
    """Whether ``eq`` is a Nash equilibrium: its gains are the exact payoffs of its strategies,
    and neither side gains by any pure deviation (exact best responses)."""
    if not all(0 <= x <= 1 for x in (*eq.player, *eq.banker)):
        return False
    player, banker = payoffs(game, eq.player, eq.banker, alpha)
    return (
        (player, banker) == (eq.player_gain, eq.banker_gain)
        and player_best_response(game, eq.banker) == player
        and banker_best_response(game, eq.player, alpha) == banker
    )


# -- the Player with one information set: Foster's algorithm ---------------------------------


def _diff(a: LinearForm, b: LinearForm) -> tuple[int, int]:
    return a[0] - b[0], a[1] - b[1]


def _banker_gain_of_drawing(game: Game, c: int, alpha: Fraction) -> tuple[Fraction, Fraction]:
    """E_c(p) = e0 + e1 p: the Banker's gain from drawing rather than standing in cell ``c``
    (times the denominator)."""
    d0, d1 = _diff(game.draw[c], game.stand[c])
    w0, w1 = _diff(game.draw_wins[c], game.stand_wins[c])
    return -d0 - alpha * w0, -d1 - alpha * w1


def _fill(slope: Fraction, tied: Sequence[tuple[int, int]],
          want: str) -> tuple[dict[int, Fraction], bool] | None:
    """Draw probabilities for the ``tied`` cells (``(cell, its slope d1)``) that make the
    Player's slope ``slope + sum q_c d1_c`` zero (``want == "zero"``), at most zero
    (``"le"``: he stays at 0) or at least zero (``"ge"``: he stays at 1); None when none do.
    Also whether that choice is the only one."""
    lo = slope + sum(min(0, d) for _, d in tied)
    hi = slope + sum(max(0, d) for _, d in tied)
    all_move = all(d != 0 for _, d in tied)
    if want == "le":
        if lo > 0:
            return None
        if slope <= 0:
            return {c: Fraction(0) for c, _ in tied}, not tied
        target, unique = Fraction(0), lo == 0 and all_move
    elif want == "ge":
        if hi < 0:
            return None
        if slope >= 0:
            return {c: Fraction(0) for c, _ in tied}, not tied
        target, unique = Fraction(0), hi == 0 and all_move
    else:
        if not lo <= 0 <= hi:
            return None
        target = Fraction(0)
        moving = [d for _, d in tied if d != 0]
        unique = all_move and (len(moving) <= 1 or lo == 0 or hi == 0)
    q: dict[int, Fraction] = {c: Fraction(0) for c, _ in tied}
    gap = target - slope  # what the tied cells must add
    for c, d in tied:
        if gap == 0:
            break
        if d == 0 or (d > 0) != (gap > 0):
            continue
        step = min(Fraction(1), gap / d)
        q[c] = step
        gap -= step * d
    return q, unique


def _foster(game: Game, alpha: Fraction) -> Solution:
    cells = [c for c in range(len(game.cells)) if game.reached[c]]
    gains = {c: _banker_gain_of_drawing(game, c, alpha) for c in cells}
    slopes = {c: Fraction(game.draw[c][1] - game.stand[c][1]) for c in cells}
    fixed_slope = Fraction(game.base[1] + sum(game.stand[c][1] for c in cells))
    points = {Fraction(0), Fraction(1)}
    for e0, e1 in gains.values():
        if e1 != 0 and 0 <= -e0 / e1 <= 1:
            points.add(-e0 / e1)
    ordered = sorted(points)
    found: list[Equilibrium] = []
    continua: list[tuple[Fraction, Fraction]] = []
    for p in ordered:
        tied = []
        q = [Fraction(0)] * len(game.cells)
        slope = fixed_slope
        for c in cells:
            e = gains[c][0] + gains[c][1] * p
            if e == 0:
                tied.append((c, int(slopes[c])))
            elif e > 0:
                q[c] = Fraction(1)
                slope += slopes[c]
        want = "le" if p == 0 else "ge" if p == 1 else "zero"
        filled = _fill(slope, [(c, d) for c, d in tied], want)
        if filled is None:
            continue
        chosen, unique = filled
        for c, v in chosen.items():
            q[c] = v
        player, banker = payoffs(game, (p,), q, alpha)
        found.append(Equilibrium((p,), tuple(q), player, banker, unique, tuple(c for c, _ in tied)))
    for a, b in itertools.pairwise(ordered):
        mid = (a + b) / 2
        slope = fixed_slope + sum(slopes[c] for c in cells if gains[c][0] + gains[c][1] * mid > 0)
        always = [(c, int(slopes[c])) for c in cells if gains[c][0] == 0 == gains[c][1]]
        if _fill(slope, always, "zero") is not None:
            continua.append((a, b))
    verified = all(verify(game, eq, alpha) for eq in found)
    single = len(found) == 1 and not continua
    if not alpha:
        # zero-sum: the Banker's optimal strategies pair with every optimal p, so they lie in the
        # set found at each point; one point where that set is a single strategy settles it
        banker_unique = any(eq.banker_unique for eq in found)
    else:
        banker_unique = bool(found[0].banker_unique) if single else False
    return Solution(
        game, alpha, tuple(found),
        player_unique=single if found else None,
        banker_unique=banker_unique,
        continua=tuple(continua),
        method="Foster's algorithm (every point where a Banker cell is indifferent, exactly)",
        verified=verified and bool(found),
    )


# -- the Player with several information sets: an exact linear program -------------------------


def _cube_range(form: Sequence[int]) -> tuple[int, int]:
    """The least and greatest value of a linear form over the cube [0, 1]^m."""
    rest = form[1:]
    return form[0] + sum(min(0, f) for f in rest), form[0] + sum(max(0, f) for f in rest)


def _program(game: Game) -> tuple[list[int], list[int], list[Fraction], list[int]]:
    """Split the reached cells: always drawn (D_c < 0 at every Player strategy), always stood,
    ambiguous; and the linear form of the Player's gain with the first two fixed."""
    m = game.size
    fixed = [Fraction(v) for v in game.base]
    ambiguous: list[int] = []
    always_draw: list[int] = []
    for c in range(len(game.cells)):
        stand = game.stand[c]
        for i in range(m + 1):
            fixed[i] += stand[i]
        if not game.reached[c]:
            continue
        d = [a - b for a, b in zip(game.draw[c], stand, strict=True)]
        lo, hi = _cube_range(d)
        if hi < 0:
            always_draw.append(c)
            for i in range(m + 1):
                fixed[i] += d[i]
        elif lo <= 0 <= hi and any(d):
            ambiguous.append(c)
    stood = [c for c in range(len(game.cells))
             if game.reached[c] and c not in ambiguous and c not in always_draw]
    return ambiguous, always_draw, fixed, stood


def _player_lp(
    game: Game, ambiguous: Sequence[int], fixed: Sequence[Fraction],
    objective: Sequence[Fraction] | None = None, floor: Fraction | None = None,
) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """max K.p - sum w_c subject to -d_c.p - w_c <= d0_c (c ambiguous), p_k <= 1; returns p,
    the duals of the cell rows (the Banker's q) and the optimum.  With ``objective`` and
    ``floor``: maximise ``objective . p`` over the optimal set (gain >= floor)."""
    m, n_a = game.size, len(ambiguous)
    gain = [fixed[1 + k] for k in range(m)] + [Fraction(-1)] * n_a
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for j, c in enumerate(ambiguous):
        d = [a - b for a, b in zip(game.draw[c], game.stand[c], strict=True)]
        own = [Fraction(-int(i == j)) for i in range(n_a)]
        rows.append([Fraction(-d[1 + k]) for k in range(m)] + own)
        rhs.append(Fraction(d[0]))
    for k in range(m):
        rows.append([Fraction(int(i == k)) for i in range(m + n_a)])
        rhs.append(Fraction(1))
    cost = gain
    if objective is not None and floor is not None:
        rows.append([-g for g in gain])
        rhs.append(fixed[0] - floor)
        cost = list(objective) + [Fraction(0)] * n_a
    result = maximise(cost, rows, rhs)
    return list(result.x[:m]), list(result.duals[:n_a]), fixed[0] + result.objective


def _banker_range(game: Game, ambiguous: Sequence[int], fixed: Sequence[Fraction], ceiling: Fraction,
                  j: int, sign: int) -> Fraction:
    """The greatest (sign +1) or least (sign -1) draw probability of the ``j``-th ambiguous cell
    among the Banker's optimal strategies: variables q (ambiguous cells) and u_k >= the
    Player's gain from drawing at k, min sum u_k + q.d0 <= ceiling."""
    m, n_a = game.size, len(ambiguous)
    d = [[a - b for a, b in zip(game.draw[c], game.stand[c], strict=True)] for c in ambiguous]
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for k in range(m):  # K_k + sum_c q_c d_ck - u_k <= 0
        rows.append([Fraction(d[i][1 + k]) for i in range(n_a)] + [Fraction(-int(i == k)) for i in range(m)])
        rhs.append(-fixed[1 + k])
    for i in range(n_a):
        rows.append([Fraction(int(t == i)) for t in range(n_a + m)])
        rhs.append(Fraction(1))
    rows.append([Fraction(d[i][0]) for i in range(n_a)] + [Fraction(1)] * m)
    rhs.append(ceiling - fixed[0])
    cost = [Fraction(sign * int(i == j)) for i in range(n_a)] + [Fraction(0)] * m
    return sign * maximise(cost, rows, rhs).objective


def _by_program(game: Game, uniqueness: bool) -> Solution:
    ambiguous, always_draw, fixed, _ = _program(game)
    p, duals, best = _player_lp(game, ambiguous, fixed)
    q = [Fraction(0)] * len(game.cells)
    for c in always_draw:
        q[c] = Fraction(1)
    for c, v in zip(ambiguous, duals, strict=True):
        q[c] = v
    player, banker = payoffs(game, p, q, Fraction(0))
    p_free = [c for c in ambiguous if evaluate(game.draw[c], p) == evaluate(game.stand[c], p)]
    eq = Equilibrium(tuple(p), tuple(q), player, banker, None, tuple(p_free))
    player_unique: bool | None = None
    banker_unique: bool | None = None
    if uniqueness:
        # every optimal strategy of one side is a best response to every optimal strategy of the
        # other: only the Player's sets where he is indifferent against q, and the Banker's
        # cells where he is indifferent against p, can vary; each of those is ranged exactly
        indifferent = _mix(game, q, False)[1:]
        player_unique = True
        for k in (k for k in range(game.size) if indifferent[k] == 0):
            unit = [Fraction(int(i == k)) for i in range(game.size)]
            top = _player_lp(game, ambiguous, fixed, unit, best)[2]
            low = _player_lp(game, ambiguous, fixed, [-u for u in unit], best)[2]
            if top - fixed[0] != -(low - fixed[0]):
                player_unique = False
                break
        banker_unique = True
        for j, c in enumerate(ambiguous):
            if c not in p_free:
                continue
            top = _banker_range(game, ambiguous, fixed, best, j, 1)
            if top != _banker_range(game, ambiguous, fixed, best, j, -1):
                banker_unique = False
                break
        eq = Equilibrium(eq.player, eq.banker, eq.player_gain, eq.banker_gain, banker_unique, eq.free_cells)
    return Solution(
        game, Fraction(0), (eq,), player_unique, banker_unique, (),
        method=f"strict dominance, then an exact linear program over {len(ambiguous)} ambiguous cells",
        verified=verify(game, eq, Fraction(0)) and eq.player_gain * game.denominator == best,
    )


def _slice(game: Game, k: int, others: Sequence[Fraction]) -> Game:
    """The game in which the Player plays ``others`` (pure, one per information set, the ``k``-th
    ignored) everywhere but at his information set ``k``: a 2 x 2^n game in ``p_k``."""

    def cut(form: LinearForm) -> LinearForm:
        rest = sum(f * x for j, (f, x) in enumerate(zip(form[1:], others, strict=True)) if j != k)
        return (form[0] + int(rest), form[1 + k])

    def each(forms: tuple[LinearForm, ...]) -> tuple[LinearForm, ...]:
        return tuple(cut(f) for f in forms)

    return Game(game.model, game.decks, (game.player_sets[k],), game.cells, game.denominator, cut(game.base),
                each(game.stand), each(game.draw), cut(game.base_wins), each(game.stand_wins),
                each(game.draw_wins), game.reached)


def _by_slices(game: Game, alpha: Fraction) -> Solution:
    """A Nash equilibrium of a game with several Player information sets in which the Player
    mixes at one of them at most: for each information set ``k`` and each pure play of the
    others, every equilibrium of the 2 x 2^n game in ``p_k`` (Foster's algorithm), kept when
    the others' pure play is a best response too (the full check of best responses).  The
    search starts from the zero-commission solution's pure play.  Finds one equilibrium; says
    nothing of uniqueness.

    Raises:
        GameError: no equilibrium of that form exists (then none is claimed).
    """
    start = _by_program(game, uniqueness=False).equilibria[0].player
    hint = [Fraction(int(x >= Fraction(1, 2))) for x in start]
    combos = sorted(itertools.product((Fraction(0), Fraction(1)), repeat=game.size),
                    key=lambda c: sum(a != b for a, b in zip(c, hint, strict=True)))
    for others in combos:
        for k in range(game.size):
            for eq in _foster(_slice(game, k, others), alpha).equilibria:
                p = tuple(eq.player[0] if j == k else others[j] for j in range(game.size))
                player, banker = payoffs(game, p, eq.banker, alpha)
                found = Equilibrium(p, eq.banker, player, banker, None, eq.free_cells)
                if verify(game, found, alpha):
                    return Solution(
                        game, alpha, (found,), None, None, (),
                        method="Foster's algorithm in each Player information set, the others pure "
                               "(one equilibrium; uniqueness not decided)",
                        verified=True,
                    )
    raise GameError("no equilibrium with the Player mixing at one information set at most was found")


def solve(game: Game, commission: object = 0, uniqueness: bool = True) -> Solution:
    """Solve ``game`` exactly with a commission of ``commission`` (0 to 1/10) on Banker wins.

    A1 and B2 (one Player information set): every Nash equilibrium, by Foster's algorithm.
    B3: an optimal strategy pair by an exact linear program, and (``uniqueness``) whether each
    side's is unique; with a commission, one Nash equilibrium (:func:`_by_slices`), its
    uniqueness not decided.

    Raises:
        GameError: a bad commission; B3 with a commission and no equilibrium of the form
            searched.
    """
    alpha = check_commission(commission)
    if game.size == 1:
        return _foster(game, alpha)
    if alpha:
        return _by_slices(game, alpha)
    return _by_program(game, uniqueness)
