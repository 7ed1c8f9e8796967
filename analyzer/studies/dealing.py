"""Dealing real shoes for the shoe-walk study: seeded shuffles, the burn, the cut card, the end
rule, every coup by the tableau (numpy imported here).

Conventions (the field's names; the manual's study section, docs/studies.md, cites where each comes from):

* **Seeds.**  Shoe ``i`` of a study with seed ``s`` is shuffled by
  ``numpy.random.Generator(PCG64(SeedSequence(s, spawn_key=(i,))))`` -- exactly the stream of
  ``SeedSequence(s).spawn(i + 1)[i]`` -- so a shoe is the same whatever the partitioning.
  Cards are codes 0-51, ``4 x rank + suit`` (ranks A, 2, ..., 9, 10, J, Q, K; suits s h d c),
  the order of :attr:`analyzer.core.shoe.Shoe.suited`.
* **Burn** (``standard``): the first card is shown (seen), then as many cards as its point value
  are burned face down (unseen), 10 / J / Q / K burning 10; ``none``: no burn.
* **Cut card** ``K`` cards from the end: it lies between cards N - K - 1 and N - K (0-based), so
  it *comes out* in the coup that deals card N - K, or, if a coup starts exactly there, as the
  first card of that coup (also when the burn already reaches past it).
* **End rules.**  ``jacobson``: when the cut card comes out during a coup, that coup is finished
  and one more is dealt; when it comes out as the first card of a coup, that coup and one more
  are dealt.  ``wizard``: the same, except that when it comes out as the first card only that
  coup is dealt.
* **The end of the cards.**  A coup is dealt whenever the rules say so and at least one card is
  left; a coup that needs more cards than remain is *void* (every bet on it is returned) and
  ends the shoe.
* **Information.**  Before each coup the bettor knows the unseen cards: the shoe less the shown
  card and every card of the coups dealt; burned cards are unseen.  The next coup's cards are
  uniform draws from the unseen cards, so the exact EV on them is the conditional EV given
  everything seen (the burned cards are exchangeable with the cards still in the shoe).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.cards import RANK_POINTS
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import StudyError

BURNS = ("standard", "none")
END_RULES = ("jacobson", "wizard")
#: The largest shoe the study deals (the float kernel's exact int64 range, N**6 < 2**63).
MAX_DECKS = 27
IntArray = npt.NDArray[np.int64]
#: Point value of each card code 0-51.
CARD_VALUE = np.asarray([RANK_POINTS[c // 4] for c in range(52)], dtype=np.int64)
#: Winner codes of a dealt coup.
PLAYER, BANKER, TIE, VOID = 0, 1, 2, -1


@dataclass(frozen=True)
class Dealing:
    """How shoes are dealt: ``decks`` (1 to :data:`MAX_DECKS`), the cut card ``cut_card`` cards
    from the end, the ``burn`` (``standard`` or ``none``), the ``end_rule`` (``jacobson`` or
    ``wizard``) and the tableau.

    Raises:
        StudyError: a setting out of range (checked by :meth:`checked`).
    """

    decks: int = 8
    cut_card: int = 14
    burn: str = "standard"
    end_rule: str = "jacobson"
    tableau: Tableau = STANDARD

    def checked(self) -> Dealing:
        """This dealing, after checking every setting (one clear line on a bad one)."""
        decks = self.decks
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
            raise StudyError(f"bad number of decks {self.decks!r}: the study deals 1 to {MAX_DECKS} decks")
        size = 52 * self.decks
        cut = self.cut_card
        if isinstance(cut, bool) or not isinstance(cut, int) or not 0 <= cut < size:
            raise StudyError(f"bad cut card {self.cut_card!r}: give the cards behind it, 0 to {size - 1}")
        if self.burn not in BURNS:
            raise StudyError(f"bad burn {self.burn!r}: use {' or '.join(BURNS)}")
        if self.end_rule not in END_RULES:
            raise StudyError(f"bad end rule {self.end_rule!r}: use {' or '.join(END_RULES)}")
        if not isinstance(self.tableau, Tableau):
            raise StudyError(f"bad rules {self.tableau!r}: give a Tableau")
        return self

    @property
    def size(self) -> int:
        """Cards in a full shoe."""
        return 52 * self.decks


def shoe_generator(seed: int, index: int) -> np.random.Generator:
    """The random stream of shoe ``index`` of a study seeded ``seed`` (see the module docstring)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))


def shuffle(seed: int, first: int, count: int, decks: int) -> npt.NDArray[np.int8]:
    """(count, 52 x decks) card codes: shoes ``first`` .. ``first + count - 1``, shuffled."""
    base = np.repeat(np.arange(52, dtype=np.int8), decks)
    out = np.empty((count, len(base)), dtype=np.int8)
    for i in range(count):
        out[i] = shoe_generator(seed, first + i).permutation(base)
    return out


@dataclass(frozen=True)
class DealtShoes:
    """Every coup of a run of shoes, in shoe order then coup order ("states").

    Per shoe (``shoes`` of them, the first numbered ``first``): ``shown`` (the shown card's code,
    -1 without a burn), ``coups``.  Per state: ``shoe`` (0-based within the run), ``coup``
    (0-based within the shoe), ``depth`` (cards out of the shoe before the coup, the shown and
    burned cards included), ``physical`` (cards still in the shoe), ``unseen`` ((states, 52)
    counts of the cards not seen), ``cards`` ((states, 6) the dealt codes in dealing order, -1
    past the coup's last card), ``ncards``, ``player_third`` (the Player drew), ``winner``
    (:data:`PLAYER`, :data:`BANKER`, :data:`TIE` or :data:`VOID`).
    """

    first: int
    shoes: int
    shown: IntArray
    coups: IntArray
    shoe: IntArray
    coup: IntArray
    depth: IntArray
    physical: IntArray
    unseen: npt.NDArray[np.int16]
    cards: IntArray
    ncards: IntArray
    player_third: npt.NDArray[np.bool_]
    winner: IntArray

    @property
    def states(self) -> int:
        """Number of coups dealt."""
        return len(self.shoe)


Flags = npt.NDArray[np.bool_]


def _rules_arrays(tableau: Tableau) -> tuple[Flags, Flags]:
    """The tableau's draws as lookup tables for dealing many coups at once, tabulated from its
    rules in their order (:meth:`~analyzer.core.tableau.Tableau.player_draws_third`,
    :meth:`~analyzer.core.tableau.Tableau.banker_draws_third`): ``player[p2, b2]`` and
    ``banker[p2, b2, p3]``, ``p3`` the Player's third value or 10 when it stood."""
    player = np.zeros((10, 10), dtype=bool)
    banker = np.zeros((10, 10, 11), dtype=bool)
    for p2 in range(10):
        for b2 in range(10):
            player[p2, b2] = tableau.player_draws_third(p2, b2)
            for p3 in range(11):
                banker[p2, b2, p3] = tableau.banker_draws_third(p2, b2, p3 if p3 < 10 else None)
    return player, banker


def deal(dealing: Dealing, seed: int, first: int, count: int) -> DealtShoes:
    """Deal shoes ``first`` .. ``first + count - 1`` of the study seeded ``seed`` (all of them
    at once, coup by coup in lockstep)."""
    dealing = dealing.checked()
    size = dealing.size
    decks = shuffle(seed, first, count, dealing.decks).astype(np.int64)
    rows = np.arange(count)
    full = np.full(52, dealing.decks, dtype=np.int64)
    unseen = np.tile(full, (count, 1)).astype(np.int16)
    if dealing.burn == "standard":
        shown = decks[:, 0].copy()
        burned = CARD_VALUE[shown]
        burned[burned == 0] = 10
        pos = 1 + burned
        unseen[rows, shown] -= 1
    else:
        shown = np.full(count, -1, dtype=np.int64)
        pos = np.zeros(count, dtype=np.int64)
    player_draws, banker_draws = _rules_arrays(dealing.tableau)
    cut = size - dealing.cut_card
    left = np.full(count, -1, dtype=np.int64)  # coups still to deal once the cut card is out
    active = pos < size
    coups = np.zeros(count, dtype=np.int64)
    parts: list[tuple[Any, ...]] = []
    offsets = np.arange(6)
    while True:
        idx = np.flatnonzero(active)
        if not len(idx):
            break
        p = pos[idx]
        remaining = size - p
        at = p[:, None] + offsets
        valid = at < size
        cards = np.where(valid, decks[idx[:, None], np.minimum(at, size - 1)], -1)
        v = np.where(valid, CARD_VALUE[np.maximum(cards, 0)], 0)
        p2 = (v[:, 0] + v[:, 2]) % 10
        b2 = (v[:, 1] + v[:, 3]) % 10
        pdraw = player_draws[p2, b2]
        p3 = np.where(pdraw, v[:, 4], 10)
        bdraw = banker_draws[p2, b2, p3]
        b3 = np.where(bdraw, v[np.arange(len(idx)), 4 + pdraw.astype(np.int64)], 0)
        n = 4 + pdraw.astype(np.int64) + bdraw.astype(np.int64)
        void = n > remaining
        pt = (p2 + np.where(pdraw, v[:, 4], 0)) % 10
        bt = (b2 + b3) % 10
        winner = np.where(pt > bt, PLAYER, np.where(bt > pt, BANKER, TIE))
        winner[void] = VOID
        dealt = np.where(offsets[None, :] < n[:, None], cards, -1)
        parts.append(
            (idx, coups[idx].copy(), p.copy(), remaining, unseen[idx].copy(), dealt, n, pdraw, winner)
        )
        # the cards leave the shoe (a void coup ends the shoe: its cards do not matter)
        gone = (dealt >= 0) & ~void[:, None]
        flat = (idx[:, None] * 52 + dealt)[gone]
        unseen -= np.bincount(flat, minlength=count * 52).reshape(count, 52).astype(np.int16)
        coups[idx] += 1
        # the cut card and the end rule
        was_out = left[idx] >= 0
        comes_out = ~was_out & (p + n > cut)
        first_card = p >= cut
        extra = np.where(first_card & (dealing.end_rule == "wizard"), 0, 1)
        left_now = np.where(was_out, left[idx] - 1, np.where(comes_out, extra, -1))
        left[idx] = left_now
        pos[idx] = p + n
        active[idx] = ~void & (pos[idx] < size) & (left_now != 0)
    if parts:
        cols = [np.concatenate([part[j] for part in parts]) for j in range(9)]
    else:
        empty = np.zeros(0, dtype=np.int64)
        cols = [empty] * 4 + [np.zeros((0, 52), dtype=np.int16), np.zeros((0, 6), dtype=np.int64)]
        cols += [empty] * 3
    order = np.lexsort((cols[1], cols[0]))
    return DealtShoes(
        first,
        count,
        shown,
        coups,
        cols[0][order],
        cols[1][order],
        cols[2][order],
        cols[3][order],
        cols[4][order],
        cols[5][order],
        cols[6][order],
        cols[7][order].astype(bool),
        cols[8][order],
    )
