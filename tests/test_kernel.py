"""The shoe walk's EV kernel (analyzer.engine.kernel): a label part's rows as one exact matrix
product (:class:`RowCompletions`), held to the rows counted one by one
(:meth:`analyzer.engine.labels.LabelPart.per_row`) on every kind of shoe state.  The kernel's
float EVs against the exact ones are in ``test_study.py``."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bets.catalogue import find_bet
from analyzer.bets.files import parse_bets
from analyzer.core.cards import RANK_POINTS
from analyzer.engine import kernel as K  # noqa: N812
from analyzer.engine.labels import LabelPart
from analyzer.engine.values import falling_tables_array, paddings_array
from analyzer.studies.dealing import Dealing, deal

#: Card-level bets whose label parts are parts of rows: three read cards with every unread
#: completion (the flush), one read card late in the coup (its rows' completions reach five
#: unread cards: products cut into digits), a hand read with the winner.
BETS = """
[[bet]]
name = "banker-three-card-flush"
[[bet.pay]]
event = "Banker's three cards of one suit"
when = { banker_hand = { size = 3, flush = true } }
pays = 30

[[bet]]
name = "banker-third-heart"
[[bet.pay]]
event = "heart"
when = { banker_3 = { suit = "h" } }
pays = 10

[[bet]]
name = "player-hand-flush"
[[bet.pay]]
event = "flush"
when = { player_hand = { flush = true } }
pays = 20

[[bet]]
name = "player-third-red-banker-wins"
[[bet.pay]]
event = "red"
when = { player_3 = { colour = "red" }, winner = "banker" }
pays = 4
"""


def _bets():
    catalogue = [find_bet(n) for n in ("lucky-win-player", "bellagio-match-banker")]
    return [*parse_bets(BETS, "rows.toml"), *catalogue]


def _rows_parts():
    """(bet name, label part, its RowCompletions) of every bet of :func:`_bets`."""
    out = []
    for bet in _bets():
        for kernel, _ in K.kernels_for([bet]):
            for _, part, _, rows in kernel.labels:
                assert part.kind == "rows" and rows is not None, bet.name
                out.append((bet.name, part, rows))
    return out


def _states(rng: np.random.Generator) -> np.ndarray:
    """Unseen cards (states, 52): depleted 8-deck shoes, 1-deck shoes down to 6 cards (values
    run out: rows whose read values are gone), and shoes of up to 1,448 cards."""
    out = []
    for decks, low, count in ((8, 6, 30), (1, 6, 40), (27, 6, 10), (27, 1300, 10)):
        full = np.repeat(np.arange(52), decks)
        for _ in range(count):
            keep = int(rng.integers(low, min(len(full), 1448) + 1))
            out.append(np.bincount(rng.permutation(full)[:keep], minlength=52))
    return np.asarray(out, dtype=np.int64)


def _inputs(states: np.ndarray):
    ranks = states.reshape(-1, 13, 4).sum(axis=2)
    values = np.zeros((len(states), 10), dtype=np.int64)
    for rank, v in enumerate(RANK_POINTS):
        values[:, v] += ranks[:, rank]
    sizes = states.sum(axis=1)
    return falling_tables_array(values), paddings_array(sizes), sizes


def test_row_products_are_the_rows_counted_one_by_one():
    states = _states(np.random.default_rng(30))
    falls, pads, sizes = _inputs(states)
    assert (falls[:, :, 1] == 0).any()  # some state lacks a value: rows with D(R) = 0
    digits = set()
    for name, part, rows in _rows_parts():
        want = part.per_row(falls, pads, sizes)
        got = rows.per_row(falls, pads, int(sizes.max()))
        assert got.dtype == np.int64 and np.array_equal(got, want), name
        digits.add(rows.exact_digits(int(sizes.max()))[0])
    assert digits >= {1, 2}  # one product, and products cut into digits


@pytest.mark.parametrize("cut", [(2, 40), (3, 24), (5, 13)])
def test_row_products_cut_into_any_digits_are_exact(cut):
    states = _states(np.random.default_rng(5))
    falls, pads, sizes = _inputs(states)
    largest = int(sizes.max())
    for name, part, rows in _rows_parts()[:2]:
        rows._digits[largest] = cut  # X cut into more (smaller) digits than it needs
        try:
            got = rows.per_row(falls, pads, largest)
        finally:
            rows._digits.pop(largest)
        assert np.array_equal(got, part.per_row(falls, pads, sizes)), (name, cut)


@pytest.mark.parametrize("fold_cells", [0, 256, 10**9])
def test_equal_columns_summed_at_any_depth_are_exact(monkeypatch, fold_cells):
    # equal columns of K summed into one (every level of them, the levels worth a numpy step,
    # none): the same counts, also where the digits of large shoes take the sums
    monkeypatch.setattr(K.RowCompletions, "FOLD_CELLS", fold_cells)
    states = _states(np.random.default_rng(fold_cells % 97))
    falls, pads, sizes = _inputs(states)
    columns = []
    for name, part, _ in _rows_parts():
        rows = K.RowCompletions(part)
        columns.append((rows.groups, len(rows.x_at[0]), len(rows.folds)))
        got = rows.per_row(falls, pads, int(sizes.max()))
        assert np.array_equal(got, part.per_row(falls, pads, sizes)), name
    if fold_cells > 10**8:
        assert all(groups == total and folds == 0 for groups, total, folds in columns)
    else:
        assert all(groups < total for groups, total, _ in columns[:-1])  # the last: one row
        assert columns[0][0] <= 120 and columns[0][1] == 288  # the flush: 117 distinct columns


def test_the_exact_bound_decides_the_digits():
    (flush, third, *_) = _rows_parts()
    assert flush[2].exact_digits(416) == (1, 0)  # 212 x 288 small integers
    digits, bits = third[2].exact_digits(1448)
    assert digits > 1 and 8 <= bits < 53
    # every digit's products are exact: sum |K| x (2**bits - 1) < 2**53
    assert max(sum(row) for row in third[2].abs_sums) * (2**bits - 1) < 2**53


def test_a_card_level_bets_rows_are_never_counted_one_by_one_in_the_walk(monkeypatch):
    # the cause of a flush study's cost: each state's rows weighed one by one (about a millisecond)
    (flush,) = parse_bets(BETS, "rows.toml")[:1]
    dealt = deal(Dealing(), 3, 0, 20)
    states = dealt.unseen[dealt.physical >= 6].astype(np.int64)
    kernel = K.kernels_for([flush])[0][0]
    want = kernel.evs(states)

    def refuse(*args, **kwargs):
        raise AssertionError("a row counted one by one")

    monkeypatch.setattr(LabelPart, "per_row", refuse)
    assert np.array_equal(kernel.evs(states), want)


def test_kernel_evs_equal_bit_for_bit_with_the_rows_one_by_one(monkeypatch):
    dealt = deal(Dealing(), 11, 0, 6)
    states = dealt.unseen[dealt.physical >= 6].astype(np.int64)
    bets = _bets()
    fast = [kernel.evs(states) for kernel, _ in K.kernels_for(bets)]
    monkeypatch.setattr(K, "_KERNELS", type(K._KERNELS)())
    monkeypatch.setattr(K.RowCompletions, "of", classmethod(lambda cls, part: None))
    slow = [kernel.evs(states) for kernel, _ in K.kernels_for(bets)]
    assert all(kernel.labels and kernel.labels[0][3] is None for kernel, _ in K.kernels_for(bets))
    for a, b in zip(fast, slow, strict=True):
        assert np.array_equal(a, b)


def test_a_product_dearer_than_the_rows_is_not_made(monkeypatch):
    part = _rows_parts()[0][1]
    assert K.RowCompletions.of(part) is not None
    monkeypatch.setattr(K.RowCompletions, "MAX_CELLS", 1000)
    assert K.RowCompletions.of(part) is None


def test_paddings_of_the_walks_states():
    sizes = np.arange(6, 1449)
    assert np.array_equal(K._paddings(sizes), paddings_array(sizes))
