"""The exact solutions of chemin de fer (analyzer/games/solve.py), every equilibrium checked by
exact best responses."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.errors import GameError
from analyzer.games import solve as solver
from analyzer.games.model import Cell, Game, shoe_game, with_replacement
from analyzer.games.solve import Equilibrium, solve, verify


def test_kemeny_and_snell_the_player_draws_on_5_with_probability_9_11():
    # Kemeny and Snell, "Game-theoretic solution of baccarat", Amer. Math. Monthly 64 (1957)
    # 465-469: with replacement, each side seeing its total, the Player draws on 5 with
    # probability 9/11 (also Ethier and Gámez 2013, section 3)
    solution = solve(with_replacement())
    assert solution.verified and solution.player_unique and solution.banker_unique
    (eq,) = solution.equilibria
    assert eq.player == (Fraction(9, 11),)
    mixed = [c for c, q in enumerate(eq.banker) if 0 < q < 1]
    assert len(mixed) == 1  # the Banker mixes in one cell only
    assert solution.value == eq.player_gain < 0


def test_the_best_response_check_fails_off_the_equilibrium():
    game = with_replacement()
    (eq,) = solve(game).equilibria
    assert verify(game, eq, Fraction(0))
    for wrong in (Fraction(4, 5), Fraction(1)):
        gains = solver.payoffs(game, (wrong,), eq.banker, Fraction(0))
        moved = Equilibrium((wrong,), eq.banker, *gains, None, ())
        assert not verify(game, moved, Fraction(0))
    banker = list(eq.banker)
    c = next(c for c, q in enumerate(banker) if 0 < q < 1)
    banker[c] = Fraction(1)
    gains = solver.payoffs(game, eq.player, banker, Fraction(0))
    moved = Equilibrium(eq.player, tuple(banker), *gains, None, ())
    assert not verify(game, moved, Fraction(0))


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_b2_foster_and_the_linear_program_agree(decks):
    # two solvers, one answer: Foster's algorithm over every indifference point, and the exact
    # linear program of the cells that strict dominance leaves open
    game = shoe_game("B2", decks)
    foster = solve(game)
    program = solver._by_program(game, uniqueness=True)
    assert foster.verified and program.verified
    assert foster.player_unique and foster.banker_unique
    assert program.player_unique and program.banker_unique
    assert foster.equilibria[0].player == program.equilibria[0].player
    assert foster.equilibria[0].banker == program.equilibria[0].banker
    assert foster.value == program.value


def test_b2_tends_to_a1_as_the_shoe_grows():
    # with replacement the Banker's composition tells nothing about the other cards, so B2's
    # limit is A1; the values approach it monotonically over d = 1..8 and are close at 10,000
    limit = solve(with_replacement()).value
    assert limit is not None
    gaps = []
    for d in range(1, 9):
        value = solve(shoe_game("B2", d)).value
        assert value is not None
        gaps.append(limit - value)
    assert all(g > 0 for g in gaps) and gaps == sorted(gaps, reverse=True)
    big = solve(shoe_game("B2", 10_000))
    assert abs(big.value - limit) < Fraction(1, 10**5)
    assert abs(big.equilibria[0].player[0] - Fraction(9, 11)) < Fraction(1, 10**3)


@pytest.mark.parametrize("decks", [1, 6])
def test_b3_is_verified_and_worth_at_least_b2_to_the_player(decks):
    # the Player who sees his composition can still play B2's strategy: B3's value >= B2's
    b3 = solve(shoe_game("B3", decks))
    b2 = solve(shoe_game("B2", decks))
    assert b3.verified
    assert b3.value is not None and b2.value is not None and b3.value >= b2.value
    assert b3.player_unique is not None and b3.banker_unique is not None


@pytest.mark.slow
@pytest.mark.parametrize("decks", range(1, 9))
def test_every_model_solves_and_verifies_for_one_to_eight_decks(decks):
    for model in ("B2", "B3"):
        for alpha in (Fraction(0), Fraction(1, 20), Fraction(1, 10)):
            assert solve(shoe_game(model, decks), alpha).verified


@pytest.mark.parametrize("alpha", [Fraction(1, 40), Fraction(1, 20), Fraction(1, 10)])
@pytest.mark.parametrize("decks", [None, 6])
def test_with_a_commission_every_nash_equilibrium_is_verified(alpha, decks):
    game = with_replacement() if decks is None else shoe_game("B2", decks)
    zero, paid = solve(game), solve(game, alpha)
    assert paid.verified and paid.value is None
    eq = paid.equilibria[0]
    # the commission costs the Banker: his gain falls below the zero-sum value's negative
    assert eq.banker_gain < -zero.value
    # Ethier and Lee (2023): with rare exceptions the equilibrium is unique
    assert paid.player_unique and paid.banker_unique


@pytest.mark.parametrize("alpha", [Fraction(-1, 100), Fraction(11, 100), 0.05, True])
def test_a_bad_commission_is_refused(alpha):
    with pytest.raises(GameError, match="commission"):
        solve(with_replacement(), alpha)


@pytest.mark.parametrize("decks", [1, 6])
def test_b3_with_a_commission_has_a_verified_equilibrium(decks):
    # Ethier and Lee (2023) obtain one Nash equilibrium of B3 without a proof of uniqueness:
    # here one is found and checked by exact best responses; uniqueness is not claimed
    game = shoe_game("B3", decks)
    solution = solve(game, Fraction(1, 20))
    assert solution.verified and verify(game, solution.equilibria[0], Fraction(1, 20))
    assert solution.player_unique is None and solution.banker_unique is None


def test_b3_by_slices_finds_the_linear_programs_solution():
    # without a commission the solution is unique (decided by the programs), so the search of
    # the slices, an independent solver, must land on it
    game = shoe_game("B3", 6)
    program = solve(game)
    assert program.player_unique and program.banker_unique
    slices = solver._by_slices(game, Fraction(0))
    assert slices.equilibria[0].player == program.equilibria[0].player
    assert slices.equilibria[0].banker == program.equilibria[0].banker


def _toy(base: tuple[int, int], diffs: list[tuple[int, int]]) -> Game:
    """A 2 x 2^n additive game by hand: the Player's gain is base + the cells' draw - stand
    differences ``diffs`` (linear in p) where the Banker draws; nobody wins (no commission)."""
    cells = tuple(Cell((t,), None) for t in range(len(diffs)))
    zero = ((0, 0),) * len(diffs)
    return Game("A1", None, ("5",), cells, 1, base, zero, tuple(diffs), (0, 0), zero, zero,
                (True,) * len(diffs))


def test_a_flat_top_is_a_continuum_and_not_unique():
    # v(p) = min(0, 2p - 1) + min(0, 4p - 2): every p from 1/2 to 1 is optimal
    solution = solve(_toy((0, 0), [(-1, 2), (-2, 4)]))
    assert solution.verified and solution.player_unique is False
    assert solution.continua == ((Fraction(1, 2), Fraction(1)),)
    assert [eq.player for eq in solution.equilibria] == [(Fraction(1, 2),), (Fraction(1),)]
    assert solution.value == 0
    # the Banker's optimum is unique all the same: he stands in both cells
    assert solution.banker_unique and all(eq.banker == (0, 0) for eq in solution.equilibria)


def test_two_cells_tied_at_the_optimum_leave_the_banker_a_segment():
    # v(p) = 3p + min(0, 1 - 2p) + min(0, 2 - 4p): p = 1/2 is the only optimum, and any Banker
    # mixing with 2 q_A + 4 q_B = 3 keeps the Player indifferent there
    solution = solve(_toy((0, 3), [(1, -2), (2, -4)]))
    assert solution.verified and solution.player_unique
    (eq,) = solution.equilibria
    assert eq.player == (Fraction(1, 2),) and 2 * eq.banker[0] + 4 * eq.banker[1] == 3
    assert solution.banker_unique is False
    program = solver._by_program(solution.game, uniqueness=True)
    assert program.verified and program.player_unique and program.banker_unique is False
