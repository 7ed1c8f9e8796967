"""The value-level weights every table shares.

A coup's weight on a shoe depends on the point values it draws, with multiplicity, and on how
many cards it draws (docs/ARCHITECTURE.md, "The one idea").  A *value composition* is that: k
cards (4, 5 or 6) and the multiset of their values.  On a shoe with n_v cards of value v and N
cards in all, the number of ordered K-card sequences (K = min(N, 6)) that start with a given
ordered draw of those k values is

    W = prod_v falling(n_v, m_v) * falling(N - k, K - k),

the same for every order of the k values.  There are 7,722 value compositions (715, 2,002 and
5,005 multisets of 4, 5 and 6 values); :data:`COMPOSITIONS` lists them in a fixed order, and
every compiled table refers to them by their index there, so one shoe's weights serve every
table.  For the cards a bet reads, :func:`read_weight` gives prod_v falling(n_v, m_v) over a
multiset of values alone (no padding).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from analyzer.core.shoe import MAX_CARDS


def code(values: Sequence[int]) -> int:
    """The integer code of a multiset of point values (sum of 8**value; at most 7 of each)."""
    return sum(8**v for v in values)


def counts_of(coded: int) -> tuple[int, ...]:
    """The multiplicity of each value 0-9 in a multiset code."""
    return tuple((coded >> (3 * v)) & 7 for v in range(10))


def _compositions() -> tuple[tuple[int, int], ...]:
    """Every value composition as (cards, code), in the order (cards, then the sorted values
    lexicographically): the sorted sequences of k values, each extended by a value no smaller
    than its last, one level per card (cheap at start-up)."""
    power = [8**v for v in range(10)]
    level = [(v, power[v]) for v in range(10)]  # (last value, code) of one card
    out: list[tuple[int, int]] = []
    for k in range(2, MAX_CARDS + 1):
        level = [(v, coded + power[v]) for last, coded in level for v in range(last, 10)]
        if k >= 4:
            out.extend((k, coded) for _, coded in level)
    return tuple(out)


#: Every value composition as (cards k, multiset code), in a fixed order (k, then values).
COMPOSITIONS = _compositions()


def composition_index(k: int, coded: int) -> int:
    """The index in :data:`COMPOSITIONS` of ``k`` cards of the multiset ``coded``.

    Raises:
        KeyError: no such composition.
    """
    return composition_indices()[(k, coded)]


@cache  # built whole and stored once (see _arrays below)
def composition_indices() -> dict[tuple[int, int], int]:
    """(cards k, multiset code) -> index in :data:`COMPOSITIONS` (for loops that look up many)."""
    return {c: i for i, c in enumerate(COMPOSITIONS)}


def falling(x: int, m: int) -> int:
    """Falling factorial x (x-1) ... (x-m+1); 0 when x < m."""
    if x < m:
        return 0
    out = 1
    for i in range(m):
        out *= x - i
    return out


def falling_table(values: Sequence[int]) -> list[list[int]]:
    """``t[v][m]`` = falling(n_v, m) for m = 0..6, from the counts n_v of each value."""
    out = []
    for n in values:
        row, x = [1], 1
        for m in range(MAX_CARDS):
            x *= n - m  # 0 from m = n on: the product stays 0 where n < m + 1
            row.append(x)
        out.append(row)
    return out


def paddings(size: int) -> tuple[int, ...]:
    """falling(N - k, K - k) for k = 0..6 (K = min(N, 6); 0 where k > K)."""
    top = min(size, MAX_CARDS)
    return tuple(falling(size - k, top - k) if k <= top else 0 for k in range(MAX_CARDS + 1))


def weights(values: Sequence[int]) -> list[int]:
    """The weight of every value composition (in :data:`COMPOSITIONS` order) on a shoe with
    ``values[v]`` cards of value v: exact Python integers."""
    t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 = falling_table(values)
    pads = paddings(sum(values))
    return [
        pads[k]
        * t0[c & 7] * t1[(c >> 3) & 7] * t2[(c >> 6) & 7] * t3[(c >> 9) & 7] * t4[(c >> 12) & 7]
        * t5[(c >> 15) & 7] * t6[(c >> 18) & 7] * t7[(c >> 21) & 7] * t8[(c >> 24) & 7] * t9[c >> 27]
        for k, c in COMPOSITIONS
    ]


def read_weight(coded: int, table: Sequence[Sequence[int]]) -> int:
    """prod_v falling(n_v, m_v) over a multiset code of values (``table`` from
    :func:`falling_table`): the ordered draws of those values alone."""
    w = 1
    for v in range(10):
        m = (coded >> (3 * v)) & 7
        if m:
            w *= table[v][m]
    return w


# -- many shoes at once (numpy, imported on first use) ------------------------------------------

# The lazily built arrays below are functools.cache'd: each is built whole and stored once, so
# threads that race to build one both get a complete value (a list filled in place could be
# read half-filled or filled twice).


@cache
def _arrays() -> Any:
    """(multiplicities (compositions, 10), cards (compositions,)) as int64 arrays."""
    import numpy as np

    mult = np.asarray([counts_of(c) for _, c in COMPOSITIONS], dtype=np.int64)
    cards = np.asarray([k for k, _ in COMPOSITIONS], dtype=np.int64)
    return mult, cards


def falling_tables_array(values: Any) -> Any:
    """(shoes, 10, 7) int64: falling(n_v, m) for m = 0..6, from (shoes, 10) value counts.
    Exact when every product of at most six counts fits int64 (N**6 < 2**63)."""
    import numpy as np

    n = np.asarray(values, dtype=np.int64)
    out = np.ones((*n.shape, MAX_CARDS + 1), dtype=np.int64)
    for m in range(1, MAX_CARDS + 1):
        out[..., m] = out[..., m - 1] * np.maximum(n - (m - 1), 0)
    return out


def paddings_array(sizes: Any) -> Any:
    """(shoes, 7) int64: :func:`paddings` of each size."""
    import numpy as np

    size = np.asarray(sizes, dtype=np.int64)
    top = np.minimum(size, MAX_CARDS)
    out = np.zeros((len(size), MAX_CARDS + 1), dtype=np.int64)
    for k in range(MAX_CARDS + 1):
        acc = np.ones(len(size), dtype=np.int64)
        for i in range(MAX_CARDS):
            acc *= np.where(i < top - k, size - k - i, 1)
        out[:, k] = np.where(k <= top, acc, 0)
    return out


@cache
def _split() -> Any:
    """The compositions split by value, 0-4 and 5-9: the distinct multiplicities of each half
    and, per composition, the index of its halves (a product over ten values becomes two
    gathers of shared half-products)."""
    import numpy as np

    mult, cards = _arrays()
    low, low_at = np.unique(mult[:, :5], axis=0, return_inverse=True)
    high, high_at = np.unique(mult[:, 5:], axis=0, return_inverse=True)
    return low, low_at.ravel(), high, high_at.ravel(), cards


def weights_array(falls: Any, pads: Any, as_float: bool = False) -> Any:
    """(shoes, compositions) int64 weights from :func:`falling_tables_array` and
    :func:`paddings_array` (exact under the same bound): per half of the values (0-4, 5-9) the
    products of each distinct multiplicity, then one product of two halves and the padding per
    composition.  ``as_float``: float64 weights, for a float64 matrix product; exact when
    every weight is below 2**53 (N!/(N-6)! is): the padding times the low half is at most the
    weight, unless the high half is 0, and then the product is 0 exactly."""
    import numpy as np

    low, low_at, high, high_at, cards = _split()
    a = np.ones((falls.shape[0], len(low)), dtype=np.int64)
    for v in range(5):
        a *= falls[:, v, :][:, low[:, v]]
    b = np.ones((falls.shape[0], len(high)), dtype=np.int64)
    for v in range(5):
        b *= falls[:, 5 + v, :][:, high[:, v]]
    if as_float:
        a, b, pads = a.astype(np.float64), b.astype(np.float64), pads.astype(np.float64)
    out = pads[:, cards]
    out *= a[:, low_at]
    out *= b[:, high_at]
    return out


@cache
def _one() -> Any:
    """The gathers of :func:`weights_vector`: (5, halves) indices into the flat falls table
    per half (a product down axis 0 runs along rows), and per composition the index of its
    padding times low half and of its high half."""
    import numpy as np

    low, low_at, high, high_at, cards = _split()
    width = MAX_CARDS + 1
    low_index = np.ascontiguousarray((np.arange(5) * width + low).T)
    high_index = np.ascontiguousarray(((5 + np.arange(5)) * width + high).T)
    return low_index, high_index, cards * len(low) + low_at, high_at


def weights_vector(values: Sequence[int], flat: Any = None) -> Any:
    """:func:`weights` of one shoe as an int64 numpy array (exact under the bound of
    :func:`falling_tables_array`), as :func:`weights_array` splits them: the products of each
    half's distinct multiplicities (two small gathers), the padding times the low half, then
    one gather of each and their product per composition.  ``flat``: the shoe's
    :func:`falling_table` as one int64 array, row after row (:func:`flat_falls`), when the
    caller has it."""
    import numpy as np

    low_index, high_index, padded_low_at, high_at = _one()
    if flat is None:
        flat = flat_falls(falling_table(values))
    pads = np.asarray(paddings(sum(values)), dtype=np.int64)
    padded_low = np.multiply.outer(pads, flat.take(low_index).prod(axis=0)).ravel()
    return padded_low.take(padded_low_at) * flat.take(high_index).prod(axis=0).take(high_at)


def flat_falls(falls: Sequence[Sequence[int]]) -> Any:
    """A :func:`falling_table` as one int64 array, row after row, and a 1 after them (an
    index for "no factor")."""
    import numpy as np

    count = len(falls) * (MAX_CARDS + 1) + 1
    return np.fromiter((*(x for row in falls for x in row), 1), dtype=np.int64, count=count)


def weights_of(falls: Any, pads: Any, comps: Any) -> Any:
    """(shoes, len(comps)) int64: the weights of the compositions ``comps`` (indices of
    :data:`COMPOSITIONS`) alone, from :func:`falling_tables_array` and :func:`paddings_array`."""
    import numpy as np

    mult, cards = _arrays()
    mult, cards = mult[comps], cards[comps]
    out = np.array(pads[:, cards], dtype=np.int64)
    for v in range(10):
        out *= falls[:, v, :][:, mult[:, v]]
    return out
