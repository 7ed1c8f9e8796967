"""The chemin de fer models (analyzer/games/model.py) and their cross-check against the engine's
counts on fixed tableaux (analyzer/games/tableaux.py)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from analyzer.core.tableau import STANDARD
from analyzer.errors import GameError
from analyzer.games import model, tableaux
from analyzer.games.model import FIVES, Game, build, shoe_game, with_replacement

STANDARD_CELLS = frozenset(
    {(t, x) for t in range(8) for x in range(10) if x in STANDARD.banker_draws_on_third[t]}
    | {(t, None) for t in STANDARD.banker_draws_when_player_stood}
)


def test_the_sizes_of_the_games():
    # Ethier and Gámez (2013), section 1: 2 x 2^88 (A1), 2 x 2^484 (B2), 2^5 x 2^484 (B3)
    a1, b2, b3 = with_replacement(), shoe_game("B2", 6), shoe_game("B3", 6)
    assert (a1.size, len(a1.cells)) == (1, 88)
    assert (b2.size, len(b2.cells)) == (1, 484)
    assert (b3.size, len(b3.cells)) == (5, 484)
    assert len({c.banker for c in b3.cells}) == 44
    assert b3.player_sets == ("{0,5}", "{1,4}", "{2,3}", "{6,9}", "{7,8}")
    assert all(sum(pair) % 10 == 5 for pair in FIVES)


def _probability_mass(game: Game, p: Fraction) -> Fraction:
    """P(the Banker wins) when the Player draws on 5 with probability ``p`` and the Banker
    draws in every cell."""
    total = model.evaluate(game.base_wins, [p] * game.size)
    total += sum(model.evaluate(f, [p] * game.size) for f in game.draw_wins)
    return total / game.denominator


@pytest.mark.parametrize("decks", [1, 8])
def test_b3_merges_into_b2(decks):
    b2, b3 = shoe_game("B2", decks), shoe_game("B3", decks)
    for c in range(len(b2.cells)):
        assert b2.stand[c][0] == b3.stand[c][0]
        assert b2.draw[c][1] == sum(b3.draw[c][1:])
    assert 0 < _probability_mass(b2, Fraction(1, 2)) < 1


@pytest.mark.parametrize("decks", [None, 1, 2, 6])
def test_the_payoffs_equal_the_engines_counts_on_fixed_tableaux(decks):
    # the game's own enumeration against the engine (with replacement: its dealing tree weighted
    # by the 13 ranks' probabilities), on the standard tableau and random Banker rules
    game = with_replacement() if decks is None else shoe_game("B2", decks)
    rng = random.Random(decks)
    every = [(t, x) for t in range(8) for x in (*range(10), None)]
    rules = [STANDARD_CELLS, frozenset(), frozenset(every)]
    rules += [frozenset(c for c in every if rng.random() < 0.5) for _ in range(3)]
    for draws_on_5 in (False, True):
        for rule in rules:
            table = tableaux.strategy_tableau(draws_on_5, rule)
            assert tableaux.game_gain(game, draws_on_5, rule) == tableaux.engine_gain(table, decks)


def test_the_standard_tableau_gives_the_known_player_edge():
    # the Player's net gain under the Punto Banco tableau (Player draws on 5), 8 decks: the
    # engine's Player and Banker win probabilities, independently of this package
    game = shoe_game("B2", 8)
    assert tableaux.game_gain(game, True, STANDARD_CELLS) == tableaux.engine_gain(STANDARD, 8)


@pytest.mark.slow
def test_every_cell_of_a1_from_the_engine():
    # all 88 cells one by one: the engine's gain with the Banker drawing in that cell alone
    game = with_replacement()
    for draws_on_5 in (False, True):
        none = tableaux.engine_gain(tableaux.strategy_tableau(draws_on_5, ()), None)
        assert tableaux.game_gain(game, draws_on_5, ()) == none
        for cell in game.cells:
            rule = [(cell.total, cell.third)]
            assert tableaux.game_gain(game, draws_on_5, rule) == tableaux.engine_gain(
                tableaux.strategy_tableau(draws_on_5, rule), None)


def test_one_deck_leaves_no_cell_unreached_and_weights_are_exact():
    game = shoe_game("B3", 1)
    assert all(game.reached)
    assert game.denominator == 52 * 51 * 50 * 49 * 48 * 47


@pytest.mark.parametrize(("args", "message"), [
    (("C4", None), "unknown model"),
    (("A1", 6), "takes no --decks"),
    (("B2", 0), "bad decks"),
    (("B3", True), "bad decks"),
])
def test_bad_models_are_one_clear_error(args, message):
    with pytest.raises(GameError, match=message):
        build(*args)


def test_build_defaults_to_six_decks():
    assert build("b2").decks == 6 and build("A1").decks is None
