"""Baccara chemin de fer as a game: the information sets and the exact payoffs of each model.

Chemin de fer deals as Punto Banco does (two cards to the Player, two to the Banker, a natural 8
or 9 on either side ends the coup), but two choices are left to the players: the Player draws
or stands on a two-card total of 5 (he must draw on 0-4 and stand on 6-7), and the Banker,
after seeing the Player's third card (or that he stood), draws or stands in every cell.  The
models follow Ethier and Gámez (2013, "A game-theoretic analysis of baccara chemin de fer",
Games 4:711-737, section 2):

* **A1** (Kemeny and Snell 1957): cards dealt with replacement (each of the 13 ranks with
  probability 1/13), each side seeing only its own total.  The Banker's information sets are
  the 8 x 11 = 88 cells (Banker total 0-7; the Player's third card 0-9, or "stood"), the
  Player's is his total 5: a 2 x 2^88 matrix game.
* **B2**: a d-deck shoe dealt without replacement, the Banker seeing the composition of his
  two cards (44 unordered pairs of values with total 0-7, so 44 x 11 = 484 cells), the Player
  only his total: 2 x 2^484.
* **B3**: as B2, the Player seeing his composition too: at total 5 he has five information
  sets ({0,5}, {1,4}, {2,3}, {6,9}, {7,8}), 2^5 pure strategies: 2^5 x 2^484.

A deal passes through at most one Player choice and at most one Banker cell, so the payoff is
*additive*: the Player's expected gain is ``base + sum over cells of (stand or draw)``, each
term a linear form in the Player's probabilities of drawing at his information sets.  A
:class:`Game` stores those linear forms as integers over one denominator, for the Player's net
gain (win +1, loss -1, tie 0) and for the probability that the Banker wins (what the
commission is levied on).

Two builders: :func:`with_replacement` (A1, every rank enumerated with replacement) and
:func:`shoe_game` (B2 and B3 on d decks, every two-card composition with its falling-factorial
weight).  :mod:`analyzer.games.tableaux` cross-checks both against the engine's counts on fixed
tableaux.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from analyzer.core.cards import RANK_POINTS
from analyzer.errors import GameError

MODELS = ("A1", "B2", "B3")
#: The Banker's two-card totals that are not naturals: his totals in a cell.
BANKER_TOTALS = tuple(range(8))
#: The Player's third card in a cell: a point value 0-9, or ``None`` when he stood.
THIRDS: tuple[int | None, ...] = (*range(10), None)
#: The Player's two-card compositions at total 5 (B3's information sets), as sorted values.
FIVES = ((0, 5), (1, 4), (2, 3), (6, 9), (7, 8))
#: Unordered pairs of point values with a total 0-7 (the Banker's compositions in B2 and B3).
BANKER_PAIRS = tuple((a, b) for a in range(10) for b in range(a, 10) if (a + b) % 10 < 8)
MAX_DECKS = 10_000

LinearForm = tuple[int, ...]


def _outcome(player: int, banker: int) -> int:
    """The Player's net gain on final totals: +1 win, -1 loss, 0 tie (a push)."""
    return (player > banker) - (player < banker)


@dataclass(frozen=True)
class Cell:
    """A Banker information set: his two-card total (A1) or composition (B2, B3), and the
    Player's third card (a point value 0-9, ``None`` when the Player stood)."""

    banker: tuple[int, ...]
    third: int | None

    @property
    def total(self) -> int:
        """The Banker's two-card total 0-7."""
        return self.banker[0] if len(self.banker) == 1 else sum(self.banker) % 10

    @property
    def hand(self) -> str:
        """The Banker's hand as shown: ``"5"`` (a total) or ``"{2,3}"`` (a composition)."""
        if len(self.banker) == 1:
            return str(self.banker[0])
        return "{" + ",".join(str(v) for v in self.banker) + "}"

    @property
    def third_text(self) -> str:
        """The Player's third card as shown: ``"0"``-``"9"`` or ``"stood"``."""
        return "stood" if self.third is None else str(self.third)

    @property
    def label(self) -> str:
        """``"Banker 5, Player's third card 4"`` style, short: ``"{2,3} v 4"``, ``"6 v stood"``."""
        return f"{self.hand} v {self.third_text}"


@dataclass(frozen=True)
class Game:
    """One model's additive game, exact.

    Every payoff is a linear form over ``(1, p_1, ..., p_m)``, ``p_k`` being the Player's
    probability of drawing at his information set ``k`` (``player_sets``), stored as integers
    over ``denominator``:

    * ``base``: the Player's net gain from every deal that reaches no Banker choice (naturals);
    * ``stand[c]`` / ``draw[c]``: his net gain from the deals through cell ``cells[c]`` when the
      Banker stands / draws there;
    * ``base_wins``, ``stand_wins[c]``, ``draw_wins[c]``: the same for the probability that the
      Banker wins (a commission of ``alpha`` costs the Banker ``alpha`` times it).

    So the Player's expected net gain against a Banker who draws in cell ``c`` with probability
    ``q_c`` is ``(base + sum_c ((1 - q_c) stand[c] + q_c draw[c])) . (1, p) / denominator``.
    ``reached[c]`` says whether any deal reaches the cell (on a one-deck shoe some cannot).
    """

    model: str
    decks: int | None
    player_sets: tuple[str, ...]
    cells: tuple[Cell, ...]
    denominator: int
    base: LinearForm
    stand: tuple[LinearForm, ...]
    draw: tuple[LinearForm, ...]
    base_wins: LinearForm
    stand_wins: tuple[LinearForm, ...]
    draw_wins: tuple[LinearForm, ...]
    reached: tuple[bool, ...]

    @property
    def size(self) -> int:
        """m: the number of the Player's information sets (1 for A1 and B2, 5 for B3)."""
        return len(self.player_sets)

    def describe(self) -> str:
        """``"Model B2, 6 decks without replacement"`` style."""
        if self.decks is None:
            return f"Model {self.model}, cards dealt with replacement"
        return f"Model {self.model}, {self.decks} deck{'s' if self.decks != 1 else ''} without replacement"


def check_model(model: object, decks: object) -> tuple[str, int | None]:
    """The model name upper-cased and the deck count it takes (``None`` for A1).

    Raises:
        GameError: an unknown model, decks given to A1, or decks not a whole number 1-10,000.
    """
    if not isinstance(model, str) or model.strip().upper() not in MODELS:
        raise GameError(f"unknown model {model!r}: choose A1, B2 or B3")
    name = model.strip().upper()
    if name == "A1":
        if decks is not None:
            raise GameError("model A1 deals with replacement: it takes no --decks")
        return name, None
    if decks is None:
        return name, 6
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise GameError(f"bad decks {decks!r}: give a whole number of decks 1-{MAX_DECKS:,}")
    return name, decks


def build(model: str, decks: int | None = None) -> Game:
    """The game of ``model`` (A1, B2, B3) on ``decks`` decks (B2 and B3; 6 when omitted).

    Raises:
        GameError: see :func:`check_model`.
    """
    name, d = check_model(model, decks)
    if name == "A1":
        return with_replacement()
    assert d is not None
    return shoe_game(name, d)


class _Accumulator:
    """Sums of linear forms per cell and action while a model is enumerated."""

    def __init__(self, cells: int, size: int) -> None:
        width = 1 + size
        self.width = width
        self.base = [0] * width
        self.base_wins = [0] * width
        # per cell: stand, draw, stand_wins, draw_wins
        self.forms = [[[0] * width for _ in range(4)] for _ in range(cells)]
        self.reached = [False] * cells

    def add(self, target: list[int], weight: int, choice: int | None, drew: bool | None) -> None:
        """Add ``weight`` to ``target`` along the Player's choice: a deal through his
        information set ``choice`` counts with p (he drew) or 1 - p (he stood)."""
        if choice is None:
            target[0] += weight
        elif drew:
            target[1 + choice] += weight
        else:
            target[0] += weight
            target[1 + choice] -= weight

    def game(self, model: str, decks: int | None, sets: Sequence[str], cells: Sequence[Cell],
             den: int) -> Game:
        def frozen(i: int) -> tuple[LinearForm, ...]:
            return tuple(tuple(f[i]) for f in self.forms)

        return Game(model, decks, tuple(sets), tuple(cells), den, tuple(self.base), frozen(0), frozen(1),
                    tuple(self.base_wins), frozen(2), frozen(3), tuple(self.reached))


def _merge_sets(game: Game, model: str) -> Game:
    """The same deals with the Player seeing only his total: his information sets at 5 merged
    into one (B3 -> B2)."""

    def merged(form: LinearForm) -> LinearForm:
        return (form[0], sum(form[1:]))

    def each(forms: tuple[LinearForm, ...]) -> tuple[LinearForm, ...]:
        return tuple(merged(f) for f in forms)

    return Game(model, game.decks, ("5",), game.cells, game.denominator, merged(game.base),
                each(game.stand), each(game.draw), merged(game.base_wins), each(game.stand_wins),
                each(game.draw_wins), game.reached)


def with_replacement() -> Game:
    """Model A1: every rank dealt with replacement, each with probability 1/13; the Banker sees
    his total, the Player his total.  Enumerates the 13 ranks for every card directly (the two
    first cards of a side through the number of rank pairs with each total), over the
    denominator 13^6 (every coup padded to six cards).  Source: Kemeny and Snell (1957)."""
    values = list(RANK_POINTS)  # the 13 ranks A, 2-9, 10, J, Q, K by point value
    pairs = [0] * 10  # rank pairs with each two-card total
    for a in values:
        for b in values:
            pairs[(a + b) % 10] += 1
    cells = [Cell((t,), third) for t in BANKER_TOTALS for third in THIRDS]
    index = {(c.banker[0], c.third): i for i, c in enumerate(cells)}
    acc = _Accumulator(len(cells), 1)
    for p in range(10):
        for b in range(10):
            w = pairs[p] * pairs[b]
            if p >= 8 or b >= 8:
                acc.base[0] += w * 169 * _outcome(p, b)
                acc.base_wins[0] += w * 169 * (b > p)
                continue
            choice = 0 if p == 5 else None
            if p <= 5:
                for x in values:
                    c = index[(b, x)]
                    _deal(acc, c, w, choice, True, (p + x) % 10, b, [(y, 1) for y in values], (13, 1))
            if p >= 5:
                _deal(acc, index[(b, None)], w, choice, False, p, b, [(y, 1) for y in values], (169, 13))
    return acc.game("A1", None, ("5",), cells, 13**6)


def _deal(acc: _Accumulator, c: int, w: int, choice: int | None, drew: bool, player: int, banker: int,
          thirds: Sequence[tuple[int, int]], pads: tuple[int, int]) -> None:
    """Add the deals through cell ``c`` with weight ``w``: the Banker stands (weight ``w`` times
    ``pads[0]``, the cards not drawn padding the coup to six) or draws each ``(value, ways)`` of
    ``thirds`` (times ``pads[1]``)."""
    forms = acc.forms[c]
    acc.reached[c] = True
    stand = w * pads[0]
    lost = stand * (player < banker)
    acc.add(forms[0], stand * _outcome(player, banker), choice, drew)
    if lost:
        acc.add(forms[2], lost, choice, drew)
    net = wins = 0
    for y, ways in thirds:
        final = (banker + y) % 10
        net += ways * _outcome(player, final)
        wins += ways * (player < final)
    acc.add(forms[1], w * pads[1] * net, choice, drew)
    acc.add(forms[3], w * pads[1] * wins, choice, drew)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def shoe_game(model: str, decks: int) -> Game:
    """Model B2 or B3 on ``decks`` standard decks dealt without replacement: every ordered deal
    of the Player's and the Banker's two cards by composition (2 orders of a pair of different
    values), then the third cards, each weighted by falling factorials of the cards of each
    value left, over the denominator N(N-1)...(N-5) (every coup padded to six cards, as the
    engine counts).  B2 merges B3's five Player information sets at 5.

    Raises:
        GameError: a model other than B2 or B3, or a bad deck count.
    """
    name, d = check_model(model, decks)
    if name == "A1" or d is None:
        raise GameError("shoe_game builds model B2 or B3")
    if name == "B2":
        return _merge_sets(shoe_game("B3", d), "B2")
    counts = [16 * d] + [4 * d] * 9
    total = sum(counts)
    cells = [Cell(pair, third) for pair in BANKER_PAIRS for third in THIRDS]
    index = {(c.banker, c.third): i for i, c in enumerate(cells)}
    sets = ["{" + f"{a},{b}" + "}" for a, b in FIVES]
    five = {pair: k for k, pair in enumerate(FIVES)}
    acc = _Accumulator(len(cells), len(FIVES))
    all_pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    for pa, pb in all_pairs:
        for ba, bb in all_pairs:
            left = list(counts)
            w = (1 if pa == pb else 2) * (1 if ba == bb else 2)
            for v in (pa, pb, ba, bb):
                w *= left[v]
                left[v] -= 1
            if w <= 0:
                continue
            p, b = (pa + pb) % 10, (ba + bb) % 10
            if p >= 8 or b >= 8:
                pad = _falling(total - 4, 2)
                acc.base[0] += w * pad * _outcome(p, b)
                acc.base_wins[0] += w * pad * (b > p)
                continue
            choice = five.get((pa, pb)) if p == 5 else None
            bank = (ba, bb)
            if p <= 5:
                for x in range(10):
                    if left[x] <= 0:
                        continue
                    wx = w * left[x]
                    left[x] -= 1
                    _deal(acc, index[(bank, x)], wx, choice, True, (p + x) % 10, b,
                          [(y, left[y]) for y in range(10)], (total - 5, 1))
                    left[x] += 1
            if p >= 5:
                _deal(acc, index[(bank, None)], w, choice, False, p, b,
                      [(y, left[y]) for y in range(10)], ((total - 4) * (total - 5), total - 5))
    return acc.game("B3", d, sets, cells, _falling(total, 6))


def evaluate(form: LinearForm, p: Sequence[Fraction]) -> Fraction:
    """A linear form at the Player's draw probabilities ``p`` (not divided by the denominator)."""
    return form[0] + sum((c * x for c, x in zip(form[1:], p, strict=True)), Fraction(0))
