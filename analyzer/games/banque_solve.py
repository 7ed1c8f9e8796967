"""Baccara banque's three solutions at a stake theta, exact, each verified by exact best responses.

The game is :mod:`analyzer.games.banque`'s (our reading of Ethier and Lee, "On the three-person
game baccara banque", *Games* 2015, 6(2):57-78; only the abstract and the rules of its
introduction could be read, so the three definitions below are ours, written to match the
abstract's names).  Player i draws at 5 with probability p_i; Banker draws in cell c with
probability s_c.  Player 1 maximises E X1 (his payoff theta E X1), Player 2 E X2, Banker
minimises ``theta E X1 + (1 - theta) E X2``.

1. **Nash equilibrium** (:func:`nash`): (p1, p2, s) from which no player gains by a unilateral
   deviation.  Banker's gain from drawing in cell c, ``E_c(p1, p2)``, is bilinear, so his best
   response is cell by cell and each Player's payoff is linear in his own p_i.  Every
   equilibrium is sought by support enumeration: the four corners of the square of (p1, p2);
   its four edges (one Player pure), Foster's way (the points where a Banker cell is
   indifferent, and the intervals between them); and its interior by an exact subdivision:
   a box of (p1, p2) is discarded when one Player's slope (his gain from drawing at 5 more
   often, over every play Banker may choose in the cells not decided on the box) cannot vanish
   on it; in the boxes left, where at most a few cells are undecided, the candidate points are
   found for every choice of none, one or two of those cells to be indifferent (two conditions
   fix a point: where two bilinear equations meet, the root of a quadratic, carried exactly as
   a :class:`~analyzer.games.surd.Surd`) and of Banker's play in the rest.  An equilibrium where
   Banker is indifferent in three cells or more lies where any two of their curves meet, so it
   is among the candidates too.  At each candidate every cell indifferent there (however many)
   is taken together: the Players' conditions are solved over his draw probabilities in all of
   them (an exact linear program at a rational point; at an irrational one, up to two cells,
   else the point is reported unsettled).  Each candidate is checked exactly; every equilibrium
   returned passes :func:`verify_nash`.  The search is complete
   (``complete``) unless a box could not be settled (then it says so).
2. **Independent cooperative equilibrium** (:func:`independent`): Players 1 and 2 maximise
   ``theta E X1 + (1 - theta) E X2`` together, each randomising independently (a product
   strategy (p1, p2)): a saddle point (p*, s*) with s* a best response of Banker and p* a best
   response of the coalition among product strategies.  Such a point is a saddle point of the
   correlated game below too (a bilinear payoff is greatest at a corner of the square, and the
   corners are the coalition's pure strategies), so it exists exactly when some optimal
   correlated strategy q is a product, ``q_DD q_SS = q_DS q_SD``, and then pairs with any
   optimal Banker strategy.  The solver ranges the optimal set of q exactly: a single point
   decides at once; a larger set contains a product when the determinant changes sign on it
   (a root along a segment, exact); otherwise it says what is not decided.
3. **Correlated cooperative equilibrium** (:func:`correlated`): the coalition plays a
   probability vector q over its four joint pure strategies (DD, DS, SD, SS: Player 1's then
   Player 2's play at 5) against Banker's 2^1144: a zero-sum matrix game, additive in Banker's
   cells, value ``max_q (const . q + sum_c min(draw_c . q, stand_c . q))``, solved by the exact
   simplex of :mod:`analyzer.games.lp` (cells whose best play is the same against every q are
   fixed first); its dual values are Banker's draw probabilities.  :func:`verify_correlated`
   checks the coalition's four pure strategies and every Banker cell.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from analyzer.errors import GameError
from analyzer.games.banque import Banque, banque, bilinear, check_theta
from analyzer.games.lp import maximise
from analyzer.games.surd import Surd

#: The coalition's joint pure strategies: Player 1's play at 5, then Player 2's (D draw, S stand).
JOINT = ("DD", "DS", "SD", "SS")
#: (p1, p2) of each joint pure strategy.
CORNERS = ((1, 1), (1, 0), (0, 1), (0, 0))
#: Interior boxes are split until at most this many Banker cells are undecided on them.
BOX_CELLS = 3
#: ... or until their side is 2^-MAX_DEPTH (then up to LAST_CELLS undecided cells are enumerated).
MAX_DEPTH = 14
LAST_CELLS = 8

Form = tuple[int, int, int, int]


def _sub(a: Sequence[int], b: Sequence[int]) -> Form:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def _lin(a: Sequence[int], b: Sequence[int], x: int, y: int) -> Form:
    return (x * a[0] + y * b[0], x * a[1] + y * b[1], x * a[2] + y * b[2], x * a[3] + y * b[3])


def _total(forms: Sequence[Sequence[int]]) -> list[int]:
    out = [0, 0, 0, 0]
    for f in forms:
        for i in range(4):
            out[i] += f[i]
    return out


@dataclass(frozen=True)
class Stakes:
    """The game at a stake ``theta`` = n/d: the integer forms the solvers use.

    ``gain[c]``: Banker's gain from drawing rather than standing in cell c, times
    ``d * denominator`` (``-(n (draw1 - stand1) + (d - n)(draw2 - stand2))``); ``delta1[c]``,
    ``delta2[c]``: hand 1's and hand 2's ``draw - stand`` in cell c (times the denominator).
    """

    game: Banque
    theta: Fraction
    gain: tuple[Form, ...]
    delta1: tuple[Form, ...]
    delta2: tuple[Form, ...]

    @property
    def cells(self) -> int:
        return len(self.gain)


def stakes(theta: object, game: Banque | None = None) -> Stakes:
    """The forms of ``game`` (the banque game by default) at the stake ``theta``.

    Raises:
        GameError: theta not strictly between 0 and 1.
    """
    t = check_theta(theta)
    g = game if game is not None else banque()
    n, d = t.numerator, t.denominator
    delta1 = tuple(_sub(dr, st) for dr, st in zip(g.draw1, g.stand1, strict=True))
    delta2 = tuple(_sub(dr, st) for dr, st in zip(g.draw2, g.stand2, strict=True))
    gain = tuple(_lin(a, b, -n, -(d - n)) for a, b in zip(delta1, delta2, strict=True))
    return Stakes(g, t, gain, delta1, delta2)


Number = Surd | Fraction | int


def _s(x: Number) -> Surd:
    return Surd.of(x)


def results(st: Stakes, p1: Number, p2: Number, draws: Sequence[Number]) -> tuple[Surd, Surd]:
    """(E X1, E X2) at (p1, p2) against Banker drawing in cell c with probability ``draws[c]``
    (exact; a Surd)."""
    g = st.game
    # sum the forms first (integers), then evaluate once per distinct draw probability
    f1 = _total([g.base1, *g.stand1])
    f2 = _total([g.base2, *g.stand2])
    groups: dict[Surd, tuple[list[int], list[int]]] = {}
    for c, s in enumerate(draws):
        if not s:
            continue
        key = _s(s)
        a, b = groups.setdefault(key, ([0, 0, 0, 0], [0, 0, 0, 0]))
        for i in range(4):
            a[i] += st.delta1[c][i]
            b[i] += st.delta2[c][i]
    x, y = _s(p1), _s(p2)
    x1 = _s(bilinear(f1, x, y))
    x2 = _s(bilinear(f2, x, y))
    for s, (a, b) in groups.items():
        x1 = x1 + s * bilinear(a, x, y)
        x2 = x2 + s * bilinear(b, x, y)
    den = g.denominator
    return x1 / den, x2 / den


def _coalition(st: Stakes, x1: Surd, x2: Surd) -> Surd:
    return st.theta * x1 + (1 - st.theta) * x2


def banker_best(st: Stakes, p1: Number, p2: Number, draws: Sequence[Number]) -> bool:
    """Whether ``draws`` is a best response of Banker to (p1, p2): he draws (probability 1)
    in every cell where drawing gains, stands where it loses, any mixture where it is even."""
    x, y = _s(p1), _s(p2)
    for c, s in enumerate(draws):
        e = _s(bilinear(st.gain[c], x, y)).sign()
        if (e > 0 and s != 1) or (e < 0 and s != 0) or not 0 <= s <= 1:
            return False
    return True


# -- the results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """One solution: the Players' draw probabilities at 5 (``p1``, ``p2``; for the correlated
    solution the marginals of ``joint``), ``joint`` (the coalition's q over :data:`JOINT`, or
    None), Banker's draw probability per cell (``banker``), each hand's expected result
    (``x1``, ``x2``, per coup) and each side's gain per coup: Player 1 ``theta x1``, Player 2
    ``(1 - theta) x2``, Banker minus their sum; ``verified``: the exact best-response check
    passed; ``banker_unique``: whether Banker's play is the only one that makes a solution with
    these Players' strategies (None: not decided)."""

    p1: Surd
    p2: Surd
    joint: tuple[Surd, ...] | None
    banker: tuple[Surd, ...] = field(repr=False)
    x1: Surd
    x2: Surd
    theta: Fraction
    verified: bool
    banker_unique: bool | None

    @property
    def gains(self) -> tuple[Surd, Surd, Surd]:
        """(Player 1's, Player 2's, Banker's) gain per coup."""
        one = self.theta * self.x1
        two = (1 - self.theta) * self.x2
        return one, two, -(one + two)

    @property
    def mixed_cells(self) -> tuple[int, ...]:
        """The cells where Banker mixes (draws with a probability strictly between 0 and 1)."""
        return tuple(c for c, s in enumerate(self.banker) if 0 < s < 1)

    def indifferent_cells(self, game: Banque | None = None) -> tuple[int, ...]:
        """The cells where Banker gains nothing by drawing rather than standing against these
        Players' strategies (the correlated solution: against its joint q), exact: every cell
        where he may mix, and where his play could differ (``banker_unique``).  ``game``: the
        banque game by default."""
        st = stakes(self.theta, game)
        if self.joint is not None:
            q = self.joint
            return tuple(c for c in range(st.cells)
                         if sum((qj * g for qj, g in zip(q, _corner_values(st.gain[c]), strict=True)),
                                Surd(0)) == 0)
        return tuple(c for c in range(st.cells) if _s(bilinear(st.gain[c], self.p1, self.p2)) == 0)


@dataclass(frozen=True)
class NashResult:
    """Every Nash equilibrium found (``points``), intervals of equilibria on an edge
    (``continua``: (which Player mixes, the other's pure p, from, to)), whether the search is
    complete (``complete``: every equilibrium of the model is listed) and what was not
    settled otherwise (``unsettled``)."""

    theta: Fraction
    points: tuple[Point, ...]
    continua: tuple[tuple[int, Fraction, Fraction, Fraction], ...]
    complete: bool
    unsettled: tuple[str, ...]
    boxes: int


@dataclass(frozen=True)
class CorrelatedResult:
    """The correlated cooperative solution: the value to the coalition (``value``, per coup:
    ``theta E X1 + (1 - theta) E X2``), one optimal q with Banker's optimal strategy
    (``point``), whether q is the only optimal one (``joint_unique``), and the optimal set's
    points the solver found (``extremes``: optimal q's, for the independent solution)."""

    theta: Fraction
    value: Fraction
    point: Point
    joint_unique: bool
    extremes: tuple[tuple[Fraction, ...], ...] = field(repr=False)
    ambiguous: int


@dataclass(frozen=True)
class IndependentResult:
    """The independent cooperative solution: ``point`` when it exists (None otherwise),
    ``exists`` (None when not decided), ``reason`` (why it exists or not, in words) and
    ``unique`` (the Players' (p1, p2) is the only one: the optimal correlated q is unique, and
    every independent solution is an optimal q; None when not decided or it does not exist)."""

    theta: Fraction
    exists: bool | None
    point: Point | None
    reason: str
    unique: bool | None = None


# -- the correlated cooperative solution ---------------------------------------------------------


def _corner_values(form: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(bilinear(form, a, b)) for a, b in CORNERS)


def _correlated_program(st: Stakes) -> tuple[list[int], list[int], list[Fraction], list[tuple[int, ...]]]:
    """Split Banker's cells against the coalition's four pure strategies: always drawn (drawing
    lowers the coalition's gain against every one), always stood, ambiguous; and the
    coalition's gain per pure strategy with the first two fixed (times d * denominator)."""
    g = st.game
    n, d = st.theta.numerator, st.theta.denominator
    coal = _lin(_total([g.base1, *g.stand1]), _total([g.base2, *g.stand2]), n, d - n)
    fixed = [Fraction(v) for v in _corner_values(coal)]
    always: list[int] = []
    ambiguous: list[int] = []
    diffs: list[tuple[int, ...]] = []
    for c in range(st.cells):
        banker = _corner_values(st.gain[c])  # Banker's gain of drawing = -(coalition's)
        if min(banker) > 0 or (min(banker) >= 0 and max(banker) > 0):
            always.append(c)
            for j in range(4):
                fixed[j] -= banker[j]
        elif max(banker) > 0:
            ambiguous.append(c)
            diffs.append(banker)
    return always, ambiguous, fixed, diffs


def _correlated_lp(fixed: Sequence[Fraction], diffs: Sequence[Sequence[int]],
                   objective: Sequence[Fraction] | None = None,
                   floor: Fraction | None = None) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """max sum_j q_j fixed_j - sum_c u_c, u_c >= banker_c . q (Banker's gain of drawing, what
    the coalition loses when he draws), u >= 0, q a probability vector.  Returns q, the duals of
    the cell rows (Banker's draw probabilities) and the optimum; with ``objective`` and
    ``floor``, maximises ``objective . q`` over the optimal set (gain >= floor)."""
    n_a = len(diffs)
    gain = list(fixed) + [Fraction(-1)] * n_a
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for i, banker in enumerate(diffs):
        rows.append([Fraction(v) for v in banker] + [Fraction(-int(k == i)) for k in range(n_a)])
        rhs.append(Fraction(0))
    rows.append([Fraction(1)] * 4 + [Fraction(0)] * n_a)
    rhs.append(Fraction(1))
    rows.append([Fraction(-1)] * 4 + [Fraction(0)] * n_a)
    rhs.append(Fraction(-1))
    cost = gain
    if objective is not None and floor is not None:
        rows.append([-v for v in gain])
        rhs.append(-floor)
        cost = list(objective) + [Fraction(0)] * n_a
    result = maximise(cost, rows, rhs)
    gained = sum((g * x for g, x in zip(gain, result.x, strict=True)), Fraction(0))
    return list(result.x[:4]), list(result.duals[:n_a]), gained


def correlated(theta: object, game: Banque | None = None) -> CorrelatedResult:
    """The correlated cooperative solution at ``theta``, exact and verified.

    Raises:
        GameError: a bad theta.
    """
    st = stakes(theta, game)
    always, ambiguous, fixed, diffs = _correlated_program(st)
    q, duals, best = _correlated_lp(fixed, diffs)
    draws = [Fraction(0)] * st.cells
    for c in always:
        draws[c] = Fraction(1)
    for c, v in zip(ambiguous, duals, strict=True):
        draws[c] = v
    extremes: list[tuple[Fraction, ...]] = [tuple(q)]
    unique = True
    for j in range(4):
        for sign in (1, -1):
            unit = [Fraction(sign * int(k == j)) for k in range(4)]
            other, _, _ = _correlated_lp(fixed, diffs, unit, best)
            if tuple(other) not in extremes:
                extremes.append(tuple(other))
            if other[j] != q[j]:
                unique = False
    # two more directions, to find optimal q's on either side of the product surface
    for direction in ((1, -1, -1, 1), (-1, 1, 1, -1)):
        other, _, _ = _correlated_lp(fixed, diffs, [Fraction(v) for v in direction], best)
        if tuple(other) not in extremes:
            extremes.append(tuple(other))
    point = _correlated_point(st, q, draws)
    point = Point(point.p1, point.p2, point.joint, point.banker, point.x1, point.x2, point.theta,
                  point.verified, _banker_unique(st, q, draws, best))
    value = best / (st.theta.denominator * st.game.denominator)
    coalition = _coalition(st, point.x1, point.x2)
    verified = point.verified and coalition == value
    point = _replace_verified(point, verified)
    return CorrelatedResult(st.theta, value, point, unique, tuple(extremes), len(ambiguous))


def _banker_unique(st: Stakes, q: Sequence[Fraction], draws: Sequence[Fraction], best: Fraction) -> bool:
    """Whether Banker's optimal strategy in the correlated game is unique.  Every optimal one is a
    best response to the optimal ``q``, so only the cells where he is indifferent against ``q``
    may differ; each of those is ranged exactly over the strategies that hold every pure
    strategy of the coalition to the value ``best`` (times d * denominator)."""
    gains = [_corner_values(st.gain[c]) for c in range(st.cells)]
    free = [c for c in range(st.cells) if sum(qj * g for qj, g in zip(q, gains[c], strict=True)) == 0]
    if not free:
        return True
    g = st.game
    n, d = st.theta.numerator, st.theta.denominator
    coal = _corner_values(_lin(_total([g.base1, *g.stand1]), _total([g.base2, *g.stand2]), n, d - n))
    const = [Fraction(coal[j]) - sum(draws[c] * gains[c][j] for c in range(st.cells) if c not in free)
             for j in range(4)]
    # const_j - sum_free y_c gain_c(j) <= best for each joint pure strategy j; 0 <= y <= 1
    rows = [[Fraction(-gains[c][j]) for c in free] for j in range(4)]
    rhs = [best - const[j] for j in range(4)]
    for i in range(len(free)):
        rows.append([Fraction(int(k == i)) for k in range(len(free))])
        rhs.append(Fraction(1))
    for i in range(len(free)):
        unit = [Fraction(int(k == i)) for k in range(len(free))]
        top = maximise(unit, rows, rhs).objective
        low = -maximise([-u for u in unit], rows, rhs).objective
        if top != low:
            return False
    return True


def _replace_verified(point: Point, verified: bool) -> Point:
    return Point(point.p1, point.p2, point.joint, point.banker, point.x1, point.x2, point.theta,
                 verified, point.banker_unique)


def _correlated_point(st: Stakes, q: Sequence[Fraction], draws: Sequence[Fraction]) -> Point:
    x1 = x2 = Surd(0)
    for (a, b), qj in zip(CORNERS, q, strict=True):
        if qj:
            r1, r2 = results(st, a, b, draws)
            x1 = x1 + qj * r1
            x2 = x2 + qj * r2
    joint = tuple(Surd(v) for v in q)
    point = Point(Surd(q[0] + q[1]), Surd(q[0] + q[2]), joint, tuple(Surd(v) for v in draws), x1, x2,
                  st.theta, False, None)
    return _replace_verified(point, verify_correlated(st, point))


def verify_correlated(st: Stakes, point: Point) -> bool:
    """Whether ``point`` (q and Banker's strategy) is a saddle point of the correlated game:
    q is a probability vector, no pure strategy of the coalition gains against Banker's play,
    and in no cell Banker gains by changing his play against q (exact)."""
    if point.joint is None or sum(point.joint, Surd(0)) != 1 or any(v < 0 for v in point.joint):
        return False
    here = _coalition(st, point.x1, point.x2)
    for a, b in CORNERS:
        r1, r2 = results(st, a, b, point.banker)
        if _coalition(st, r1, r2) > here:
            return False
    # Banker's gain of drawing in cell c against q: sum_j q_j E_c(corner j)
    for c, s in enumerate(point.banker):
        e = sum((qj * bilinear(st.gain[c], a, b) for (a, b), qj in zip(CORNERS, point.joint, strict=True)),
                Surd(0))
        if (e > 0 and s != 1) or (e < 0 and s != 0) or not 0 <= s <= 1:
            return False
    # the payoff is the one of these strategies
    x1 = x2 = Surd(0)
    for (a, b), qj in zip(CORNERS, point.joint, strict=True):
        if qj:
            r1, r2 = results(st, a, b, point.banker)
            x1, x2 = x1 + qj * r1, x2 + qj * r2
    return (x1, x2) == (point.x1, point.x2)


# -- the independent cooperative solution --------------------------------------------------------


def _determinant(q: Sequence[Number]) -> Surd:
    """q_DD q_SS - q_DS q_SD: zero exactly when q is a product of two independent plays."""
    return _s(q[0]) * q[3] - _s(q[1]) * q[2]


def _quadratic_roots(a: Fraction, b: Fraction, c: Fraction) -> list[Surd] | None:
    """The real roots of a t^2 + b t + c = 0, exact; None when every t is a root."""
    if a == 0:
        if b == 0:
            return None if c == 0 else []
        return [Surd(-c / b)]
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    root = Surd.sqrt(disc)
    return [(-b + root) / (2 * a), (-b - root) / (2 * a)]


def independent(theta: object, game: Banque | None = None,
                solved: CorrelatedResult | None = None) -> IndependentResult:
    """The independent cooperative solution at ``theta``, or why there is none.

    Raises:
        GameError: a bad theta.
    """
    st = stakes(theta, game)
    corr = solved if solved is not None else correlated(st.theta, game)
    sigma = corr.point.banker
    points = corr.extremes
    dets = [_determinant(q) for q in points]
    found: tuple[Surd, Surd] | None = None
    for q, det in zip(points, dets, strict=True):
        if det == 0:
            found = (Surd(q[0] + q[1]), Surd(q[0] + q[2]))
            break
    if found is None:
        for (qa, da), (qb, db) in itertools.combinations(zip(points, dets, strict=True), 2):
            if da.sign() * db.sign() < 0:
                # det(qa + t (qb - qa)) is a quadratic in t with a root in (0, 1)
                u = [Fraction(b - a) for a, b in zip(qa, qb, strict=True)]
                a2 = u[0] * u[3] - u[1] * u[2]
                a1 = qa[0] * u[3] + u[0] * qa[3] - qa[1] * u[2] - u[1] * qa[2]
                a0 = qa[0] * qa[3] - qa[1] * qa[2]
                for t in _quadratic_roots(a2, a1, a0) or []:
                    if 0 <= t <= 1:
                        on = [t * ui + qi for ui, qi in zip(u, qa, strict=True)]
                        found = (on[0] + on[1], on[0] + on[2])
                        break
                if found is not None:
                    break
    if found is None:
        joint = corr.point.joint
        assert joint is not None
        shown = ", ".join(f"{name} {v}" for name, v in zip(JOINT, joint, strict=True))
        if corr.joint_unique:
            return IndependentResult(
                st.theta, False, None,
                f"does not exist at theta = {st.theta}: the coalition's optimal correlated strategy is "
                f"unique ({shown}) and not a product of independent plays (q_DD q_SS - q_DS q_SD = "
                f"{dets[0]}, not 0); a saddle point in product strategies exists exactly when an optimal "
                "correlated strategy is a product",
            )
        if all(d > 0 for d in dets) or all(d < 0 for d in dets):
            return IndependentResult(
                st.theta, None, None,
                f"not decided at theta = {st.theta}: the coalition's optimal correlated strategies form a "
                "set on whose points found q_DD q_SS - q_DS q_SD keeps one sign",
            )
    assert found is not None
    p1, p2 = found
    x1, x2 = results(st, p1, p2, sigma)
    # the saddle points' Banker strategies are the correlated game's optimal ones
    point = Point(p1, p2, None, sigma, x1, x2, st.theta, False, corr.point.banker_unique)
    ok = verify_independent(st, point)
    point = _replace_verified(point, ok)
    return IndependentResult(
        st.theta, True if ok else None, point,
        f"exists at theta = {st.theta}: an optimal correlated strategy of the coalition is a product "
        f"(p1 = {p1}, p2 = {p2}), and with Banker's optimal play it is a saddle point in product strategies"
        if ok else "internal: the product point found failed the check of best responses",
        unique=True if ok and corr.joint_unique else None,
    )


def verify_independent(st: Stakes, point: Point) -> bool:
    """Whether (p1, p2, Banker's play) is a saddle point among product strategies: no corner of
    the square (the coalition's payoff is bilinear, so its maximum over the square is at a
    corner) gains for the coalition, and Banker's play is a best response (exact)."""
    if not (0 <= point.p1 <= 1 and 0 <= point.p2 <= 1):
        return False
    if (point.x1, point.x2) != results(st, point.p1, point.p2, point.banker):
        return False
    here = _coalition(st, point.x1, point.x2)
    for a, b in CORNERS:
        if _coalition(st, *results(st, a, b, point.banker)) > here:
            return False
    return banker_best(st, point.p1, point.p2, point.banker)


# -- Nash equilibria -----------------------------------------------------------------------------


def verify_nash(st: Stakes, point: Point) -> bool:
    """Whether (p1, p2, Banker's play) is a Nash equilibrium: neither Player gains by drawing
    or standing at 5 always instead (his payoff is linear in his own p), and Banker's play is
    a best response cell by cell (exact)."""
    if not (0 <= point.p1 <= 1 and 0 <= point.p2 <= 1):
        return False
    if (point.x1, point.x2) != results(st, point.p1, point.p2, point.banker):
        return False
    for dev in (0, 1):
        if results(st, dev, point.p2, point.banker)[0] > point.x1:
            return False
        if results(st, point.p1, dev, point.banker)[1] > point.x2:
            return False
    return banker_best(st, point.p1, point.p2, point.banker)


class _Nash:
    """The support enumeration of :func:`nash`."""

    def __init__(self, st: Stakes) -> None:
        self.st = st
        g = st.game
        self.always: list[int] = []
        self.ambiguous: list[int] = []
        for c in range(st.cells):
            corners = _corner_values(st.gain[c])
            if min(corners) > 0:
                self.always.append(c)
            elif max(corners) >= 0 and any(st.gain[c]):
                self.ambiguous.append(c)
        self.f1 = _total([g.base1, *g.stand1, *(st.delta1[c] for c in self.always)])
        self.f2 = _total([g.base2, *g.stand2, *(st.delta2[c] for c in self.always)])
        self.found: dict[tuple[Surd, Surd], Point] = {}
        self.unsettled: list[str] = []
        # a cell where Banker is indifferent everywhere may still move the Players (none does in
        # the banque game at any theta; a made-up game may have one): not searched, so said
        if any(not any(st.gain[c]) and (any(st.delta1[c]) or any(st.delta2[c])) for c in range(st.cells)):
            self.unsettled.append("a cell where Banker is indifferent at every (p1, p2) and his play "
                                  "moves a Player")
        self.continua: list[tuple[int, Fraction, Fraction, Fraction]] = []
        self.boxes = 0

    # -- one candidate point, exactly --

    def at(self, p1: Surd, p2: Surd) -> None:
        """Every equilibrium at (p1, p2): Banker's best response there, the Players'
        conditions met by his play in the cells where he is indifferent."""
        if not (0 <= p1 <= 1 and 0 <= p2 <= 1) or (p1, p2) in self.found:
            return
        st = self.st
        signs = [(c, _s(bilinear(st.gain[c], p1, p2)).sign()) for c in self.ambiguous]
        draw = [c for c, e in signs if e > 0]
        tied = [c for c, e in signs if e == 0]
        f1 = _total([self.f1, *(st.delta1[c] for c in draw)])
        f2 = _total([self.f2, *(st.delta2[c] for c in draw)])
        slope1 = f1[1] + f1[3] * p2
        slope2 = f2[2] + f2[3] * p1
        d1 = [st.delta1[c][1] + st.delta1[c][3] * p2 for c in tied]
        d2 = [st.delta2[c][2] + st.delta2[c][3] * p1 for c in tied]
        mix = self._mix(p1, p2, slope1, slope2, d1, d2)
        if mix is None:
            return
        q, unique = mix
        banker = [Surd(0)] * st.cells
        for c in (*self.always, *draw):
            banker[c] = Surd(1)
        for c, v in zip(tied, q, strict=True):
            banker[c] = v
        x1, x2 = results(st, p1, p2, banker)
        point = Point(p1, p2, None, tuple(banker), x1, x2, st.theta, False, unique)
        self.found[(p1, p2)] = _replace_verified(point, verify_nash(st, point))

    def _mix(self, p1: Surd, p2: Surd, slope1: Surd, slope2: Surd, d1: Sequence[Surd],
             d2: Sequence[Surd]) -> tuple[list[Surd], bool] | None:
        """Draw probabilities q in the tied cells with each Player's condition met: slope_i +
        sum q d_i = 0 where p_i is mixed, <= 0 at p_i = 0, >= 0 at p_i = 1.  Returns q and
        whether it is the only such q; None when there is none."""
        conds = []
        for p, slope, d in ((p1, slope1, d1), (p2, slope2, d2)):
            kind = "le" if p == 0 else "ge" if p == 1 else "eq"
            conds.append((kind, slope, d))
        n = len(d1)
        if n == 0:
            ok = all((k == "eq" and s == 0) or (k == "le" and s <= 0) or (k == "ge" and s >= 0)
                     for k, s, _ in conds)
            return ([], True) if ok else None
        rational = all(x.rational is not None for x in (slope1, slope2, *d1, *d2))
        if rational:
            return self._mix_lp(conds, n)
        equalities = [(s, d) for k, s, d in conds if k == "eq"]
        if len(equalities) == 2 and n <= 2:
            return self._mix_solve(equalities, n)
        self.unsettled.append(f"a point p1 = {p1}, p2 = {p2} where Banker is indifferent in {n} cells")
        return None

    @staticmethod
    def _mix_solve(eqs: Sequence[tuple[Surd, Sequence[Surd]]], n: int) -> tuple[list[Surd], bool] | None:
        (s1, a), (s2, b) = eqs
        if n == 1:
            # s1 + q a0 = 0 and s2 + q b0 = 0
            if a[0] != 0:
                q = -s1 / a[0]
                return ([q], True) if s2 + q * b[0] == 0 and 0 <= q <= 1 else None
            if s1 != 0:
                return None
            if b[0] != 0:
                q = -s2 / b[0]
                return ([q], True) if 0 <= q <= 1 else None
            return ([Surd(0)], False) if s2 == 0 else None
        det = a[0] * b[1] - a[1] * b[0]
        if det == 0:
            return None  # degenerate: reported unsettled by the caller's count
        qa = (-s1 * b[1] + s2 * a[1]) / det
        qb = (-s2 * a[0] + s1 * b[0]) / det
        if 0 <= qa <= 1 and 0 <= qb <= 1:
            return [qa, qb], True
        return None

    @staticmethod
    def _mix_lp(conds: Sequence[tuple[str, Surd, Sequence[Surd]]], n: int) -> tuple[list[Surd], bool] | None:
        rows: list[list[Fraction]] = []
        rhs: list[Fraction] = []
        for kind, slope, d in conds:
            s = slope.rational
            coeffs = [x.rational for x in d]
            assert s is not None and all(x is not None for x in coeffs)
            row = [Fraction(x) for x in coeffs if x is not None]
            if kind in ("eq", "le"):  # s + row.q <= 0
                rows.append(row)
                rhs.append(-s)
            if kind in ("eq", "ge"):  # s + row.q >= 0
                rows.append([-x for x in row])
                rhs.append(s)
        for i in range(n):
            rows.append([Fraction(int(k == i)) for k in range(n)])
            rhs.append(Fraction(1))
        try:
            first = maximise([Fraction(0)] * n, rows, rhs)
        except GameError:
            return None
        q = list(first.x)
        unique = True
        for i in range(n):
            unit = [Fraction(int(k == i)) for k in range(n)]
            top = maximise(unit, rows, rhs).objective
            low = -maximise([-u for u in unit], rows, rhs).objective
            if top != low:
                unique = False
                break
        return [Surd(v) for v in q], unique

    # -- the corners and edges --

    def boundary(self) -> None:
        for a, b in CORNERS:
            self.at(Surd(a), Surd(b))
        st = self.st
        for player in (1, 2):
            for fixed in (0, 1):
                # the other Player's p varies along the edge: E_c is linear in it
                points = {Fraction(0), Fraction(1)}
                always_tied = []
                for c in self.ambiguous:
                    e = st.gain[c]
                    if player == 1:  # p1 varies, p2 = fixed
                        e0, e1 = e[0] + e[2] * fixed, e[1] + e[3] * fixed
                    else:
                        e0, e1 = e[0] + e[1] * fixed, e[2] + e[3] * fixed
                    if e1 != 0:
                        root = Fraction(-e0, e1)
                        if 0 < root < 1:
                            points.add(root)
                    elif e0 == 0:
                        always_tied.append(c)
                ordered = sorted(points)
                for x in ordered:
                    p1, p2 = (Surd(x), Surd(fixed)) if player == 1 else (Surd(fixed), Surd(x))
                    self.at(p1, p2)
                for lo, hi in itertools.pairwise(ordered):
                    self._interval(player, fixed, lo, hi, always_tied)

    def _interval(self, player: int, fixed: int, lo: Fraction, hi: Fraction,
                  always_tied: Sequence[int]) -> None:
        """Between two breakpoints of an edge Banker's best response is fixed, and the varying
        Player's slope does not depend on his own p: every point is an equilibrium when it
        vanishes and the other Player's condition holds."""
        st = self.st
        mid = (lo + hi) / 2
        p1, p2 = (mid, Fraction(fixed)) if player == 1 else (Fraction(fixed), mid)
        draw = [c for c in self.ambiguous if bilinear(st.gain[c], p1, p2) > 0]
        f1 = _total([self.f1, *(st.delta1[c] for c in draw)])
        f2 = _total([self.f2, *(st.delta2[c] for c in draw)])
        if always_tied:
            self.unsettled.append(
                f"an edge (p{3 - player} = {fixed}) where Banker is indifferent in a cell all along")
            return
        own = f1[1] + f1[3] * fixed if player == 1 else f2[2] + f2[3] * fixed
        if own != 0:
            return
        # the other's slope is linear in the varying p: keep where it has the right sign
        if player == 1:
            c0, c1 = f2[2], f2[3]  # slope2 = c0 + c1 p1
        else:
            c0, c1 = f1[1], f1[3]
        want = 1 if fixed == 1 else -1  # the other Player's slope: >= 0 at p = 1, <= 0 at p = 0
        if c1 == 0:
            if c0 * want >= 0:
                self.continua.append((player, Fraction(fixed), lo, hi))
            return
        root = Fraction(-c0, c1)
        # want (c0 + c1 x) >= 0: x >= root when want c1 > 0, x <= root otherwise
        a, b = (max(lo, root), hi) if want * c1 > 0 else (lo, min(hi, root))
        if a < b:
            self.continua.append((player, Fraction(fixed), a, b))

    # -- the interior: an exact subdivision --

    def interior(self) -> None:
        stack = [(Fraction(0), Fraction(1), Fraction(0), Fraction(1), 0)]
        while stack:
            x0, x1, y0, y1, depth = stack.pop()
            self.boxes += 1
            undecided, f1, f2 = self._box(x0, x1, y0, y1)
            if not (self._may_vanish(f1, 1, y0, y1, undecided)
                    and self._may_vanish(f2, 2, x0, x1, undecided)):
                continue
            if len(undecided) <= BOX_CELLS or (depth >= MAX_DEPTH and len(undecided) <= LAST_CELLS):
                self._enumerate(f1, f2, undecided, (x0, x1, y0, y1))
                continue
            if depth >= MAX_DEPTH:
                self.unsettled.append(
                    f"a box p1 in [{x0}, {x1}], p2 in [{y0}, {y1}] with {len(undecided)} undecided cells")
                continue
            xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
            for a, b in ((x0, xm), (xm, x1)):
                for c, d in ((y0, ym), (ym, y1)):
                    stack.append((a, b, c, d, depth + 1))

    def _box(self, x0: Fraction, x1: Fraction, y0: Fraction,
             y1: Fraction) -> tuple[list[int], list[int], list[int]]:
        """The cells undecided on the box, and the Players' forms with the decided ones fixed."""
        st = self.st
        undecided: list[int] = []
        draw: list[int] = []
        for c in self.ambiguous:
            e = st.gain[c]
            vals = [bilinear(e, x, y) for x in (x0, x1) for y in (y0, y1)]
            if min(vals) > 0:
                draw.append(c)
            elif max(vals) >= 0:
                undecided.append(c)
        f1 = _total([self.f1, *(st.delta1[c] for c in draw)])
        f2 = _total([self.f2, *(st.delta2[c] for c in draw)])
        return undecided, f1, f2

    def _may_vanish(self, f: Sequence[int], player: int, lo: Fraction, hi: Fraction,
                    undecided: Sequence[int]) -> bool:
        """Whether Player ``player``'s slope may be 0 on the box: his fixed slope (linear in the
        other's p, over [lo, hi]) plus anything each undecided cell may add."""
        i = 1 if player == 1 else 2
        deltas = self.st.delta1 if player == 1 else self.st.delta2
        ends = [f[i] + f[3] * lo, f[i] + f[3] * hi]
        low, high = min(ends), max(ends)
        for c in undecided:
            d = deltas[c]
            v = [d[i] + d[3] * lo, d[i] + d[3] * hi]
            low += min(Fraction(0), v[0], v[1])
            high += max(Fraction(0), v[0], v[1])
        return low <= 0 <= high

    def _enumerate(self, f1: Sequence[int], f2: Sequence[int], undecided: Sequence[int],
                   box: tuple[Fraction, Fraction, Fraction, Fraction]) -> None:
        """Every candidate of a box: which undecided cells Banker is indifferent in (at most
        two), how he plays the others; each candidate point in the (closed) box checked exactly
        by :meth:`at` (one outside it was built on the box's decided cells, wrongly for it: an
        equilibrium there is found in its own box)."""
        x0, x1, y0, y1 = box
        st = self.st
        for size in range(min(2, len(undecided)) + 1):
            for tied in itertools.combinations(undecided, size):
                rest = [c for c in undecided if c not in tied]
                for plays in itertools.product((0, 1), repeat=len(rest)):
                    g1 = _total([f1, *(st.delta1[c] for c, s in zip(rest, plays, strict=True) if s)])
                    g2 = _total([f2, *(st.delta2[c] for c, s in zip(rest, plays, strict=True) if s)])
                    for p1, p2 in self._solve(g1, g2, tied):
                        if x0 <= p1 <= x1 and y0 <= p2 <= y1 and 0 < p1 < 1 and 0 < p2 < 1:
                            self.at(p1, p2)

    def _solve(self, g1: Sequence[int], g2: Sequence[int], tied: Sequence[int]) -> list[tuple[Surd, Surd]]:
        st = self.st
        # slope1 = g1[1] + g1[3] p2, slope2 = g2[2] + g2[3] p1 as bilinear forms in (p1, p2)
        s1: Form = (g1[1], 0, g1[3], 0)
        s2: Form = (g2[2], g2[3], 0, 0)
        if not tied:
            if g1[3] == 0 or g2[3] == 0:
                if (g1[3] == 0 and g1[1] == 0) or (g2[3] == 0 and g2[2] == 0):
                    self.unsettled.append("a region where a Player's slope vanishes identically")
                return []
            return [(Surd(Fraction(-g2[2], g2[3])), Surd(Fraction(-g1[1], g1[3])))]
        if len(tied) == 1:
            c = tied[0]
            d1: Form = (st.delta1[c][1], 0, st.delta1[c][3], 0)
            d2: Form = (st.delta2[c][2], st.delta2[c][3], 0, 0)
            if not any(d1) and not any(d2):
                return []  # his play there moves neither Player: the pure cases cover it
            # s1 d2 - s2 d1 = 0 (q eliminated), a bilinear form: products of linear ones
            other = _sub(_product(s1, d2), _product(s2, d1))
            points = _meet(st.gain[c], other)
        else:
            points = _meet(st.gain[tied[0]], st.gain[tied[1]])
        if points is None:
            self.unsettled.append("a curve of points where Banker's indifference and the Players' "
                                  "conditions all hold (not an isolated point)")
            return []
        return points


def _product(a: Form, b: Form) -> Form:
    """The product of a form in p2 alone (a = (a0, 0, a2, 0)) and one in p1 alone, or of two
    forms whose product is bilinear; exact for the shapes :meth:`_Nash._solve` builds."""
    # a(p1, p2) b(p1, p2) with a, b each linear in one variable
    a0, a1, a2, _ = a
    b0, b1, b2, _ = b
    if a1 == 0 and b2 == 0:  # a in p2, b in p1
        return (a0 * b0, a0 * b1, a2 * b0, a2 * b1)
    if a2 == 0 and b1 == 0:  # a in p1, b in p2
        return (a0 * b0, a1 * b0, a0 * b2, a1 * b2)
    raise GameError("internal: a product that is not bilinear")


def _meet(a: Sequence[int], b: Sequence[int], swapped: bool = False) -> list[tuple[Surd, Surd]] | None:
    """The points where two bilinear forms both vanish (finitely many: none, one or two),
    exact; None when they may share a whole curve (not isolated points)."""
    a0, a1, a2, a3 = a
    b0, b1, b2, b3 = b
    # from a: p1 (a1 + a3 p2) = -(a0 + a2 p2); into b times (a1 + a3 p2): a quadratic in p2
    qa = Fraction(b2 * a3 - b3 * a2)
    qb = Fraction(b0 * a3 + b2 * a1 - b1 * a2 - b3 * a0)
    qc = Fraction(b0 * a1 - b1 * a0)
    roots = _quadratic_roots(qa, qb, qc)
    if roots is None:
        if swapped:
            return None
        # the elimination says nothing (two forms in p2 alone, say): eliminate p2 instead
        turned = _meet((a0, a2, a1, a3), (b0, b2, b1, b3), swapped=True)
        return None if turned is None else [(x, y) for y, x in turned]
    out: list[tuple[Surd, Surd]] = []
    for y in roots:
        den = a1 + a3 * y
        if den != 0:
            out.append((-(a0 + a2 * y) / den, y))
            continue
        # a line p2 = y on which a vanishes for every p1: b gives p1
        den_b = b1 + b3 * y
        if a0 + a2 * y == 0:
            if den_b != 0:
                out.append((-(b0 + b2 * y) / den_b, y))
            elif b0 + b2 * y == 0:
                return None  # both vanish all along that line
    return out


def nash(theta: object, game: Banque | None = None) -> NashResult:
    """Every Nash equilibrium at ``theta`` (see the module's text), each verified.

    Raises:
        GameError: a bad theta.
    """
    st = stakes(theta, game)
    search = _Nash(st)
    search.boundary()
    search.interior()
    points = tuple(sorted((p for p in search.found.values()), key=lambda p: (p.p1.a, p.p2.a)))
    return NashResult(st.theta, points, tuple(search.continua), not search.unsettled,
                      tuple(dict.fromkeys(search.unsettled)), search.boxes)


@dataclass(frozen=True)
class BanqueSolution:
    """The three solutions at one theta."""

    theta: Fraction
    nash: NashResult
    independent: IndependentResult
    correlated: CorrelatedResult

    def __repr__(self) -> str:
        """A short repr: theta, how many Nash equilibria, whether the independent solution
        exists, the correlated value (the fields hold 1,144 draw probabilities each)."""
        count = len(self.nash.points)
        return (f"BanqueSolution(theta={self.theta}, nash={count} equilibri{'um' if count == 1 else 'a'}, "
                f"independent exists={_yes_no(self.independent.exists)}, "
                f"correlated value={self.correlated.value}, verified={self.verified})")

    @property
    def verified(self) -> bool:
        """Every solution given passed its exact check of best responses."""
        pts = [*self.nash.points, self.correlated.point]
        if self.independent.point is not None:
            pts.append(self.independent.point)
        return all(p.verified for p in pts)


def solve_banque(theta: object, game: Banque | None = None) -> BanqueSolution:
    """The three solutions of baccara banque at ``theta``, each verified (the last few stakes
    solved on the banque game are kept: the results are frozen).

    Raises:
        GameError: a bad theta.
    """
    t = check_theta(theta)
    if game is None:
        return _solved(t)
    corr = correlated(t, game)
    return BanqueSolution(t, nash(t, game), independent(t, game, corr), corr)


def _yes_no(flag: bool | None) -> str:
    return "undecided" if flag is None else "yes" if flag else "no"


@lru_cache(maxsize=16)
def _solved(theta: Fraction) -> BanqueSolution:
    corr = correlated(theta)
    return BanqueSolution(theta, nash(theta), independent(theta, None, corr), corr)
