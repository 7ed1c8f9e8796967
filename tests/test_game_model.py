"""The chemin de fer models (analyzer/games/model.py) and their cross-check against the engine's
counts on fixed tableaux (analyzer/games/tableaux.py)."""

from __future__ import annotations

import itertools
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


def _ordered_deals_gain(decks: int, player_draws: dict, banker_draws: set) -> Fraction:
    """The Player's expected net gain by brute force over ordered point values dealt P1 B1 P2 B2
    (P3) (B3) from a d-deck shoe, each sequence weighted by the cards of each value left, with
    composition-dependent play: the Player draws on 5 with composition c when
    ``player_draws[c]``, the Banker draws in ``banker_draws`` cells ((his composition, the
    Player's third card or None)).  Independent of the game's enumeration by compositions."""
    counts = [16 * decks] + [4 * decks] * 9
    n = sum(counts)
    total = Fraction(0)

    def take(left, v):
        return left[v], [c - (i == v) for i, c in enumerate(left)]

    for first in itertools.product(range(10), repeat=4):
        left, w = counts, Fraction(1)
        for k, v in enumerate(first):
            ways, left = take(left, v)
            w *= Fraction(ways, n - k)
        if not w:
            continue
        p1, b1, p2, b2 = first
        p, b = (p1 + p2) % 10, (b1 + b2) % 10
        bank = tuple(sorted((b1, b2)))
        if p >= 8 or b >= 8:
            total += w * ((p > b) - (p < b))
            continue
        draws = p <= 4 or (p == 5 and player_draws[tuple(sorted((p1, p2)))])
        thirds = [(x, Fraction(left[x], n - 4)) for x in range(10)] if draws else [(None, Fraction(1))]
        for x, wx in thirds:
            if not wx:
                continue
            after = left if x is None else take(left, x)[1]
            cards = 4 if x is None else 5
            final_p = p if x is None else (p + x) % 10
            if (bank, x) in banker_draws:
                for y in range(10):
                    wy = Fraction(after[y], n - cards)
                    fb = (b + y) % 10
                    total += w * wx * wy * ((final_p > fb) - (final_p < fb))
            else:
                total += w * wx * ((final_p > b) - (final_p < b))
    return total


@pytest.mark.parametrize("decks", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_b3_payoffs_equal_a_brute_force_with_composition_play(decks):
    # composition-dependent strategies, which no tableau can express, against ordered deals
    game = shoe_game("B3", decks)
    rng = random.Random(decks)
    player = {pair: rng.random() < 0.5 for pair in FIVES}
    banker = {(c.banker, c.third) for c in game.cells if rng.random() < 0.5}
    p = [Fraction(int(player[pair])) for pair in FIVES]
    gain = model.evaluate(game.base, p)
    for c, cell in enumerate(game.cells):
        gain += model.evaluate(game.draw[c] if (cell.banker, cell.third) in banker else game.stand[c], p)
    assert gain / game.denominator == _ordered_deals_gain(decks, player, banker)
