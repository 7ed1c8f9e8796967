"""The game's payoffs from the engine's own counts, on fixed tableaux: the cross-check.

A pure strategy pair in which the Banker's choice depends only on his total and the Player's
third card (never on his composition) is a tableau: the Player draws on 0-4, on 5 or not, and
the Banker draws in the cells listed.  The engine counts every coup of that tableau exactly
(:func:`analyzer.engine.pricing.distribution` on a d-deck shoe; the dealing tree of
:func:`analyzer.engine.walk.walk` weighted by the with-replacement probabilities of its values
for model A1), so the Player's expected net gain it gives must equal the one the game's own
enumeration (:mod:`analyzer.games.model`) gives for the same strategies.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from analyzer.core.reads import Reads
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import Tableau, make_tableau
from analyzer.engine.pricing import distribution
from analyzer.engine.walk import walk
from analyzer.games.model import BANKER_TOTALS, Game, evaluate

BankerRule = frozenset[tuple[int, int | None]]


def strategy_tableau(player_draws_on_5: bool, banker_draws: Iterable[tuple[int, int | None]]) -> Tableau:
    """The tableau of a pure strategy pair: the Player draws on 0-4 (and on 5 when
    ``player_draws_on_5``), the Banker draws in each cell ``(his total 0-7, the Player's third
    card 0-9 or None when he stood)`` of ``banker_draws`` and stands elsewhere."""
    cells = frozenset(banker_draws)
    return make_tableau(
        "chemin-de-fer-strategy",
        "a pure strategy pair of chemin de fer",
        naturals=(8, 9),
        player_draws=range(6 if player_draws_on_5 else 5),
        banker_when_player_stood=[t for t in BANKER_TOTALS if (t, None) in cells],
        banker_when_player_drew={t: [x for x in range(10) if (t, x) in cells] for t in BANKER_TOTALS},
    )


def engine_gain(tableau: Tableau, decks: int | None) -> Fraction:
    """The Player's expected net gain per coup (win +1, loss -1, tie 0) under ``tableau``, from
    the engine: on ``decks`` standard decks, or with replacement when ``decks`` is None."""
    reads = Reads.of(["winner"])
    if decks is not None:
        dist = distribution(Shoe.standard(decks), reads, tableau)
        net = dist.count(lambda r: r.winner == "player") - dist.count(lambda r: r.winner == "banker")
        return Fraction(net, dist.denominator)
    net = 0
    for key, n in walk(tableau, reads).items():
        fields, blocks, others, cards = key
        winner = fields[0]
        sign = (winner == "player") - (winner == "banker")
        if not sign:
            continue
        weight = n * 13 ** (6 - cards)
        for v in range(10):  # the multiset of the values drawn, 3 bits a value
            weight *= (4 if v == 0 else 1) ** ((others >> (3 * v)) & 7)
        assert blocks == ()
        net += sign * weight
    return Fraction(net, 13**6)


def game_gain(game: Game, player_draws_on_5: bool,
              banker_draws: Iterable[tuple[int, int | None]]) -> Fraction:
    """The same pure strategy pair's expected net gain from ``game`` (A1 or B2: the Player sees
    his total), every composition of a Banker total playing alike."""
    cells = frozenset(banker_draws)
    p = [Fraction(int(player_draws_on_5))] * game.size
    total = evaluate(game.base, p)
    for c, cell in enumerate(game.cells):
        form = game.draw[c] if (cell.total, cell.third) in cells else game.stand[c]
        total += evaluate(form, p)
    return total / game.denominator
