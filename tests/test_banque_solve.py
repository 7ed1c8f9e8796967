"""Baccara banque's three solutions (analyzer/games/banque_solve.py): each verified by exact best
responses, the checks shown to fail on a broken solution, the roles of the Players swapped by
theta -> 1 - theta."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from analyzer.errors import GameError
from analyzer.games.banque import CELLS, Banque, bilinear
from analyzer.games.banque_solve import (
    CORNERS,
    BanqueSolution,
    Point,
    _meet,
    correlated,
    nash,
    results,
    solve_banque,
    stakes,
    verify_correlated,
    verify_independent,
    verify_nash,
)
from analyzer.games.surd import Surd


@cache
def _solved(theta: str) -> BanqueSolution:
    return solve_banque(Fraction(theta))


def _moved(point: Point, **change: object) -> Point:
    fields = {name: getattr(point, name) for name in
              ("p1", "p2", "joint", "banker", "x1", "x2", "theta", "verified", "banker_unique")}
    fields.update(change)
    return Point(**fields)  # type: ignore[arg-type]


def _coalition(theta: Fraction, point: Point) -> Surd:
    return theta * point.x1 + (1 - theta) * point.x2


@pytest.mark.parametrize("theta", ["1/10", "3/10"])
def test_every_solution_is_verified(theta):
    sol = _solved(theta)
    st = stakes(sol.theta)
    assert sol.verified and sol.nash.points and sol.nash.complete
    for point in sol.nash.points:
        assert verify_nash(st, point)
        one, two, banker = point.gains
        assert one + two + banker == 0
    corr = sol.correlated
    assert verify_correlated(st, corr.point) and _coalition(sol.theta, corr.point) == corr.value
    # a Nash equilibrium's coalition gain is what Banker's best response leaves: at most the value
    for point in sol.nash.points:
        assert _coalition(sol.theta, point) <= corr.value


def test_a_quadratic_equilibrium_is_exact():
    sol = _solved("1/10")
    (point,) = sol.nash.points
    assert point.p1.rational is None and point.p2.rational is None  # roots of a quadratic
    assert 0 < point.p1 < 1 and 0 < point.p2 < 1
    assert len(point.mixed_cells) == 2  # Banker mixes in two cells: where their curves meet
    st = stakes(sol.theta)
    for c in point.mixed_cells:
        assert bilinear(st.gain[c], point.p1, point.p2) == 0


def test_breaking_an_equilibrium_fails_its_check():
    sol = _solved("1/10")
    st = stakes(sol.theta)
    (point,) = sol.nash.points
    nudged = _moved(point, p1=point.p1 + Fraction(1, 1000))
    assert not verify_nash(st, nudged)
    banker = list(point.banker)
    c = point.mixed_cells[0]
    banker[c] = Surd(1)
    assert not verify_nash(st, _moved(point, banker=tuple(banker)))
    corr = sol.correlated.point
    assert corr.joint is not None
    q = list(corr.joint)
    j = next(i for i, v in enumerate(q) if v > 0)
    q[j] -= Fraction(1, 1000)
    q[(j + 1) % 4] += Fraction(1, 1000)
    assert not verify_correlated(st, _moved(corr, joint=tuple(q)))


def test_the_independent_solution_where_it_exists():
    sol = _solved("3/10")
    ind = sol.independent
    assert ind.exists and ind.point is not None and ind.point.verified
    st = stakes(sol.theta)
    # a product saddle point is an optimal correlated strategy: its gain is the value
    assert _coalition(sol.theta, ind.point) == sol.correlated.value
    assert not verify_independent(st, _moved(ind.point, p2=ind.point.p2 - Fraction(1, 100)))


def test_the_independent_solution_where_it_does_not_exist():
    sol = _solved("1/10")
    assert sol.independent.exists is False and sol.independent.point is None
    assert "does not exist" in sol.independent.reason and sol.correlated.joint_unique
    q = sol.correlated.point.joint
    assert q is not None and q[0] * q[3] != q[1] * q[2]


def test_no_pure_equilibrium_is_missed():
    # at each corner of the square, Banker's best response (pure where he is not indifferent)
    for theta in ("1/10", "3/10"):
        sol = _solved(theta)
        st = stakes(sol.theta)
        for a, b in CORNERS:
            gains = [bilinear(g, a, b) for g in st.gain]
            if any(e == 0 for e in gains):
                continue
            banker = tuple(Surd(int(e > 0)) for e in gains)
            x1, x2 = results(st, a, b, banker)
            point = Point(Surd(a), Surd(b), None, banker, x1, x2, sol.theta, False, None)
            if verify_nash(st, point):
                assert any(p.p1 == a and p.p2 == b for p in sol.nash.points)


def test_theta_and_one_minus_theta_swap_the_players():
    low, high = _solved("3/10"), _solved("7/10")
    assert low.correlated.value == high.correlated.value
    q, r = low.correlated.point.joint, high.correlated.point.joint
    assert q is not None and r is not None
    assert (q[0], q[1], q[2], q[3]) == (r[0], r[2], r[1], r[3])
    assert sorted((p.p1, p.p2) for p in low.nash.points) == sorted((p.p2, p.p1) for p in high.nash.points)
    for a, b in zip(low.nash.points, high.nash.points, strict=True):
        assert a.gains[0] == b.gains[1] and a.gains[2] == b.gains[2]


@pytest.mark.slow
def test_an_even_stake():
    sol = _solved("1/2")
    assert sol.verified and sol.nash.complete
    (point,) = sol.nash.points
    assert point.p1 == point.p2  # the Players' roles are the same
    assert sol.independent.exists is False


def test_intervals_of_equilibria_and_an_unsettled_region_are_reported():
    # a made-up game of one Banker cell, where he always stands; hand 1's result does not depend
    # on p1 at all, and Player 2's slope is -1 + 2 p1: every p1 is a best response, so each edge
    # where Player 2 is pure is an interval of equilibria, and the interior cannot be settled
    zero = (0, 0, 0, 0)
    game = Banque((CELLS[0],), 1, zero, (0, 0, -1, 2), (zero,), ((1, 0, 0, 0),), (zero,), ((1, 0, 0, 0),),
                  ((1, 0, 0, 0),))
    result = nash(Fraction(1, 2), game)
    assert sorted(result.continua) == [(1, 0, 0, Fraction(1, 2)), (1, 1, Fraction(1, 2), 1)]
    assert {(p.p1, p.p2) for p in result.points} == {(0, 0), (1, 1)}  # the corners; the rest, intervals
    assert all(p.verified for p in result.points)
    assert not result.complete and "vanishes identically" in result.unsettled[0]


def test_the_independent_solution_is_unique_when_the_optimal_q_is():
    sol = _solved("3/10")
    assert sol.correlated.joint_unique and sol.independent.unique is True
    assert _solved("1/10").independent.unique is None  # it does not exist there


def test_where_two_bilinear_forms_vanish():
    # p1 = 1/2 and p2 = 1/3
    assert _meet((-1, 2, 0, 0), (-1, 0, 3, 0)) == [(Fraction(1, 2), Fraction(1, 3))]
    # p1 p2 = 1/2 and p1 = p2: (sqrt(1/2), sqrt(1/2)) and its negative, exactly
    points = _meet((-1, 0, 0, 2), (0, 1, -1, 0))
    assert points is not None and len(points) == 2
    for x, y in points:
        assert x == y and 2 * x * y == 1 and x.rational is None
    # two lines in p2 alone: apart, no point; the same line, not isolated points
    assert _meet((-1, 0, 2, 0), (-1, 0, 3, 0)) == []
    assert _meet((-1, 0, 2, 0), (-2, 0, 4, 0)) is None
    # a line in p2 alone against a general form: where the other crosses that line
    assert _meet((-1, 0, 2, 0), (-1, 1, 1, 0)) == [(Fraction(1, 2), Fraction(1, 2))]


def test_a_cell_indifferent_everywhere_is_reported():
    # at an even stake, hand 1 gains by Banker's draw what hand 2 loses: he never cares, they do
    zero = (0, 0, 0, 0)
    game = Banque((CELLS[0],), 1, (0, 1, 0, 0), (0, 0, 1, 0), (zero,), ((1, 0, 0, 0),), (zero,),
                  ((-1, 0, 0, 0),), ((1, 0, 0, 0),))
    result = nash(Fraction(1, 2), game)
    assert not result.complete and any("indifferent at every" in u for u in result.unsettled)
    assert nash(Fraction(1, 3), game).complete  # at another stake he does care


def test_banker_uniqueness_in_the_correlated_game():
    for theta in ("1/10", "3/10"):
        sol = _solved(theta)
        assert sol.correlated.point.banker_unique is True
        if sol.independent.point is not None:
            assert sol.independent.point.banker_unique is True
    # a made-up game of one cell where Banker's play changes nothing for the coalition at an
    # even stake: any play of his is optimal, so his optimal strategy is not unique
    zero = (0, 0, 0, 0)
    game = Banque((CELLS[0],), 1, (0, 1, 0, 0), (0, 0, 1, 0), (zero,), ((1, 0, 0, 0),), (zero,),
                  ((-1, 0, 0, 0),), ((1, 0, 0, 0),))
    assert correlated(Fraction(1, 2), game).point.banker_unique is False
    assert correlated(Fraction(1, 3), game).point.banker_unique is True


def test_solve_banque_takes_a_stake_as_text_and_refuses_a_float():
    assert solve_banque("3/10") is solve_banque(Fraction(3, 10)) is solve_banque("30%")
    with pytest.raises(GameError, match="not exact"):
        solve_banque(0.3)


def test_a_solution_has_a_short_repr():
    sol = _solved("1/10")
    text = repr(sol)
    assert len(text) < 200 and "sqrt" not in text
    assert "theta=1/10" in text and f"correlated value={sol.correlated.value}" in text
    # a point leaves out its 1,144 draw probabilities
    assert len(repr(sol.nash.points[0])) < 2000
