"""The compile step: walk the dealing tree once, group its leaves by the cards they draw.

Design (DESIGN.md, section 1).  The outcome of a dealt sequence depends only on its cards'
values; its weight on a given shoe depends only on the multiset of cards it draws.  So the walk
runs once, shoe-free, over point values, and groups leaves by *composition*.  Evaluating a shoe
is then a sum, over compositions, of tally x (product of falling factorials of the shoe's counts).

Finer levels (pairs, suited pairs) refine only the first four cards, by their *equality
pattern*: which of them share a rank (and a suit).  A pattern's weight for value v is the number
of ordered ways to draw distinct physical cards of value v with exactly that pattern; patterns
with the same shape have the same weight, so the shape is what a composition records.

Counting convention: with N cards in the shoe and K = min(N, 6), every count is a number of
ordered K-card sequences of physical cards (a coup that ends early is padded with the cards that
would come next), with denominator N!/(N-K)!.  For N >= 6 these are the published permutation
counts; for N < 6 the sequences too short to finish a coup are the "shoe runs out" outcome.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import marshal
import os
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.core.cards import RANKS_OF_POINT
from analyzer.core.features import Features, Level
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import NATURALS, banker_draws, player_draws

#: A value's first-four-card pattern shape: ("v", k) plain k cards; ("r", sizes) rank blocks;
#: ("c", ((card-block sizes), ...)) rank blocks split into card (suit) blocks.
Shape = tuple[str, object]
#: One factor of a composition's weight: (point value, shape of its first-four cards, number of
#: its later cards).
Factor = tuple[int, Shape, int]

MAX_CARDS = 6


def falling(x: int, m: int) -> int:
    """Falling factorial x (x-1) ... (x-m+1); 0 when x < m (fewer cards than draws).

    >>> falling(416, 2), falling(3, 4), falling(5, 0)
    (172640, 0, 1)
    """
    if x < m:
        return 0
    out = 1
    for i in range(m):
        out *= x - i
    return out


@dataclass(frozen=True)
class CompiledTable:
    """Shoe-independent tallies of the dealing tree at one level.

    ``compositions[i]`` is ``(factor indices, cards drawn)``; ``entries[i]`` lists
    ``(feature index, tally)`` for that composition: how many leaves draw that composition and
    end in ``features[feature index]``.
    """

    level: Level
    thirds: bool
    factors: tuple[Factor, ...]
    compositions: tuple[tuple[tuple[int, ...], int], ...]
    entries: tuple[tuple[tuple[int, int], ...], ...]
    features: tuple[Features, ...]

    @property
    def leaves(self) -> int:
        """Total tally: the number of (leaf, first-four pattern) pairs walked."""
        return sum(t for ents in self.entries for _, t in ents)


# -- the dealing tree -------------------------------------------------------------------------


def _continuations(p: Sequence[int]) -> list[tuple[tuple[int, ...], int | None, int | None]]:
    """For first four values (P, B, P, B): every way the coup goes on, as
    (values of the later cards, Player's third value, Banker's third value)."""
    pt = (p[0] + p[2]) % 10
    bt = (p[1] + p[3]) % 10
    if pt in NATURALS or bt in NATURALS:
        return [((), None, None)]
    out: list[tuple[tuple[int, ...], int | None, int | None]] = []
    if player_draws(pt):
        for p3 in range(10):
            if banker_draws(bt, p3):
                out.extend(((p3, b3), p3, b3) for b3 in range(10))
            else:
                out.append(((p3,), p3, None))
    elif banker_draws(bt, None):
        out.extend(((b3,), None, b3) for b3 in range(10))
    else:
        out.append(((), None, None))
    return out


def _set_partitions(items: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every set partition of ``items`` (blocks keep the items' order)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


Refinement = tuple[tuple[tuple[int, Shape], ...], tuple[bool | None, ...]]


@functools.cache
def _refinements(prefix: tuple[int, ...], level: Level) -> tuple[Refinement, ...]:
    """The equality patterns of the first four cards at ``level``: for each, the shape per
    value and the pair flags (player_pair, banker_pair, player_suited, banker_suited)."""
    values = sorted(set(prefix))
    per_value: list[list[tuple[Shape, dict[int, int], dict[int, int]]]] = []
    for v in values:
        positions = [i for i, x in enumerate(prefix) if x == v]
        options: list[tuple[Shape, dict[int, int], dict[int, int]]] = []
        if level is Level.VALUE:
            options.append((("v", len(positions)), {}, {}))
        else:
            rank_parts = (
                list(_set_partitions(positions)) if len(RANKS_OF_POINT[v]) > 1 else [[positions]]
            )
            for rparts in rank_parts:
                rank_of = {pos: b for b, block in enumerate(rparts) for pos in block}
                if level is Level.RANK:
                    sizes = tuple(sorted((len(b) for b in rparts), reverse=True))
                    options.append((("r", sizes), rank_of, {}))
                    continue
                for cparts in itertools.product(*(_set_partitions(b) for b in rparts)):
                    card_of: dict[int, int] = {}
                    for b, cpart in enumerate(cparts):
                        for c, cblock in enumerate(cpart):
                            card_of.update({pos: 10 * b + c for pos in cblock})
                    shape = tuple(
                        sorted(
                            (tuple(sorted((len(c) for c in cp), reverse=True)) for cp in cparts),
                            reverse=True,
                        )
                    )
                    options.append((("c", shape), rank_of, card_of))
        per_value.append(options)
    out: list[Refinement] = []
    for combo in itertools.product(*per_value):
        shapes = tuple((v, opt[0]) for v, opt in zip(values, combo, strict=False))
        ranks_at = {pos: (v, b) for v, opt in zip(values, combo, strict=True) for pos, b in opt[1].items()}
        cards_at = {pos: (v, c) for v, opt in zip(values, combo, strict=True) for pos, c in opt[2].items()}
        flags: tuple[bool | None, ...] = (None, None, None, None)
        if level >= Level.RANK:
            pp = prefix[0] == prefix[2] and ranks_at[0] == ranks_at[2]
            bp = prefix[1] == prefix[3] and ranks_at[1] == ranks_at[3]
            flags = (pp, bp, None, None)
            if level is Level.CARD:
                flags = (pp, bp, cards_at[0] == cards_at[2], cards_at[1] == cards_at[3])
        out.append((shapes, flags))
    return tuple(out)


@functools.cache
def compile_table(level: Level = Level.VALUE, thirds: bool = True) -> CompiledTable:
    """Walk the dealing tree at ``level`` and return its tallies grouped by composition.

    ``thirds=False`` merges coups that differ only in the third cards' values (a smaller table
    for bets that do not look at them).  The result is cached per process, and on disk (see
    :func:`cache_dir`) when a writable cache folder exists; a missing, stale or unreadable
    cache file is simply recompiled.
    """
    if not thirds:
        return project_table(
            compile_table(level, True), lambda f: f.project(level, thirds=False), thirds=False
        )
    cached = _load_cached(level)
    if cached is not None:
        return cached
    table = _walk(level)
    _save_cached(table)
    return table


def _walk(level: Level) -> CompiledTable:
    """The recursive walk itself (no caching), third-card values kept."""
    thirds = True
    # Hot loop: plain tuples as keys; Features records are built once per distinct key.
    groups: dict[tuple[object, ...], dict[tuple[object, ...], int]] = defaultdict(
        lambda: defaultdict(int)
    )
    for prefix in itertools.product(range(10), repeat=4):
        refinements = _refinements(prefix, level)
        for later, p3, b3 in _continuations(prefix):
            base = (
                (prefix[0] + prefix[2] + (p3 or 0)) % 10,
                (prefix[1] + prefix[3] + (b3 or 0)) % 10,
                3 if p3 is not None else 2,
                3 if b3 is not None else 2,
                p3,
                b3,
            )
            if level is Level.VALUE:
                groups[tuple(sorted(prefix + later))][base] += 1
                continue
            later_key = tuple(sorted(later))
            for shapes, flags in refinements:
                groups[(later_key, shapes)][base + flags] += 1
    return _finish(
        level,
        thirds,
        {key: {Features(*f): t for f, t in tallies.items()} for key, tallies in groups.items()},  # type: ignore[arg-type]
    )


def project_table(
    table: CompiledTable, project: Callable[[Features], Features], thirds: bool
) -> CompiledTable:
    """The table with every feature record mapped through ``project`` and equal records merged
    (tallies add).  Compositions are unchanged, so the result evaluates like the original."""
    mapped = [project(f) for f in table.features]
    index: dict[Features, int] = {}
    new_ids = [index.setdefault(f, len(index)) for f in mapped]
    entries: list[tuple[tuple[int, int], ...]] = []
    for ents in table.entries:
        merged: dict[int, int] = defaultdict(int)
        for fi, t in ents:
            merged[new_ids[fi]] += t
        entries.append(tuple(merged.items()))
    return CompiledTable(
        level=table.level,
        thirds=thirds,
        factors=table.factors,
        compositions=table.compositions,
        entries=tuple(entries),
        features=tuple(index),
    )


def _factors_of(level: Level, key: tuple[object, ...]) -> tuple[list[Factor], int]:
    """A composition key -> its weight factors and the number of cards it draws."""
    if level is Level.VALUE:
        values = [int(v) for v in key]  # type: ignore[call-overload]
        factors: list[Factor] = [(v, ("v", values.count(v)), 0) for v in sorted(set(values))]
        return factors, len(values)
    later, shapes = key
    assert isinstance(later, tuple) and isinstance(shapes, tuple)
    shape_of = dict(shapes)
    out: list[Factor] = []
    for v in sorted(set(shape_of) | set(later)):
        shape = shape_of.get(v, ("v", 0))
        out.append((v, shape, later.count(v)))
    return out, 4 + len(later)


def _finish(
    level: Level, thirds: bool, groups: dict[tuple[object, ...], dict[Features, int]]
) -> CompiledTable:
    factor_index: dict[Factor, int] = {}
    feature_index: dict[Features, int] = {}
    compositions: list[tuple[tuple[int, ...], int]] = []
    entries: list[tuple[tuple[int, int], ...]] = []
    for key, tallies in groups.items():
        factors, k = _factors_of(level, key)
        idx = tuple(factor_index.setdefault(f, len(factor_index)) for f in factors)
        compositions.append((idx, k))
        entries.append(
            tuple((feature_index.setdefault(f, len(feature_index)), t) for f, t in tallies.items())
        )
    return CompiledTable(
        level=level,
        thirds=thirds,
        factors=tuple(factor_index),
        compositions=tuple(compositions),
        entries=tuple(entries),
        features=tuple(feature_index),
    )


# -- the first-four-card table (pair bets) -----------------------------------------------------

#: The coup every pair-class record of :func:`compile_pair_table` carries besides its pair flags:
#: both sides on a two-card natural 8 (reachable with and without a pair, suited or not).
PAIR_REPRESENTATIVE = Features(8, 8, 2, 2, None, None)


@functools.cache
def compile_pair_table(level: Level) -> CompiledTable:
    """The first four cards only, at ``level`` (RANK or CARD): their compositions tallied by
    the pair flags (player_pair, banker_pair, and at CARD level the suited flags).

    For bets whose pay depends on those flags alone (Player / Banker / Either / Perfect Pair)
    this table, a few hundred compositions, replaces the full RANK / CARD table (tens of
    thousands).  Every record is :data:`PAIR_REPRESENTATIVE` with the class's flags, a stand-in
    for all the coups of that class; evaluate it only on shoes of at least 6 cards, where the
    padding to six cards makes its counts the full table's marginals (below 6, the full table
    also counts the coups that run out).

    Raises:
        ValueError: ``level`` is VALUE (no pairs to tell).
    """
    if level is Level.VALUE:
        raise ValueError("the pair table needs Level.RANK or Level.CARD")
    cached = _load_cached(level, "pairs")
    if cached is not None:
        return cached
    table = _walk_pairs(level)
    _save_cached(table, "pairs")
    return table


def _walk_pairs(level: Level) -> CompiledTable:
    groups: dict[tuple[object, ...], dict[Features, int]] = defaultdict(lambda: defaultdict(int))
    for prefix in itertools.product(range(10), repeat=4):
        for shapes, flags in _refinements(prefix, level):
            feats = PAIR_REPRESENTATIVE._replace(
                player_pair=flags[0], banker_pair=flags[1],
                player_suited_pair=flags[2], banker_suited_pair=flags[3],
            )
            groups[((), shapes)][feats] += 1
    return _finish(level, False, groups)


# -- the on-disk cache ---------------------------------------------------------------------------

#: Environment variable naming the cache folder; empty or ``off`` disables the disk cache.
CACHE_ENV = "PUNTO_BANCO_CACHE_DIR"
_KEY_SOURCES = ("core/cards.py", "core/tableau.py", "core/features.py", "engine/walk.py")


def cache_dir() -> Path | None:
    """The folder for compiled tables: ``$PUNTO_BANCO_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/punto-banco-analyzer``, else ``~/.cache/punto-banco-analyzer``;
    ``None`` when disabled (the variable set to ``""`` or ``off``)."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "punto-banco-analyzer"


def _cache_file(level: Level, kind: str = "table") -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    from analyzer import __version__

    digest = hashlib.sha256(__version__.encode())
    here = Path(__file__).parent.parent
    for name in _KEY_SOURCES:
        try:
            digest.update((here / name).read_bytes())
        except OSError:
            return None
    return folder / f"{kind}-{level.name.lower()}-{digest.hexdigest()[:20]}.marshal"


def _load_cached(level: Level, kind: str = "table") -> CompiledTable | None:
    try:
        path = _cache_file(level, kind)
        if path is None or not path.is_file():
            return None
        data = marshal.loads(path.read_bytes())
        lv, thirds, factors, compositions, entries, features = data
        if lv != int(level) or thirds is not (kind == "table"):
            return None
        return CompiledTable(
            level=level,
            thirds=thirds,
            factors=tuple(factors),
            compositions=tuple(compositions),
            entries=tuple(entries),
            features=tuple(Features(*f) for f in features),
        )
    except Exception:
        return None


def _save_cached(table: CompiledTable, kind: str = "table") -> None:
    try:
        path = _cache_file(table.level, kind)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        data: Any = (int(table.level), table.thirds, table.factors, table.compositions,
                     table.entries, tuple(tuple(f) for f in table.features))
        blob = marshal.dumps(data)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".table-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, ValueError):
        return  # an unwritable cache folder only costs the next process a compile


# -- evaluation -------------------------------------------------------------------------------


class SuitsUnknownError(Exception):
    """Internal: a CARD-level table was evaluated on a shoe without suit counts."""


def _shape_weight(shoe: Shoe, v: int, shape: Shape) -> int:
    """Ordered ways to draw distinct physical cards of value ``v`` with this pattern shape."""
    kind, data = shape
    ranks = RANKS_OF_POINT[v]
    if kind == "v":
        assert isinstance(data, int)
        return falling(sum(shoe.counts[r] for r in ranks), data)
    if kind == "r":
        assert isinstance(data, tuple)
        return sum(
            _prod(falling(shoe.counts[r], s) for r, s in zip(assign, data, strict=False))
            for assign in itertools.permutations(ranks, len(data))
        )
    assert isinstance(data, tuple)
    if shoe.suited is None:
        raise SuitsUnknownError
    suited = shoe.suited

    def inner(r: int, sizes: tuple[int, ...]) -> int:
        return sum(
            _prod(falling(suited[4 * r + s], n) for s, n in zip(assign, sizes, strict=False))
            for assign in itertools.permutations(range(4), len(sizes))
        )

    return sum(
        _prod(inner(r, sizes) for r, sizes in zip(assign, data, strict=False))
        for assign in itertools.permutations(ranks, len(data))
    )


def _prod(xs: Iterator[int] | list[int]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def _shape_size(shape: Shape) -> int:
    kind, data = shape
    if kind == "v":
        assert isinstance(data, int)
        return data
    assert isinstance(data, tuple)
    if kind == "r":
        return sum(data)
    return sum(sum(sizes) for sizes in data)


def universe(size: int) -> int:
    """Cards per counted sequence for a shoe of ``size`` cards: min(size, 6)."""
    return min(size, MAX_CARDS)


def evaluate(table: CompiledTable, shoe: Shoe) -> tuple[list[int], int]:
    """Count, for each of ``table.features``, the ordered K-card sequences (K = min(N, 6)) of
    the shoe's physical cards that end in it, and return ``(counts, N!/(N-K)!)``.

    Exact integers throughout; costs the same for any number of decks.

    Raises:
        SuitsUnknownError: a CARD-level table on a shoe whose suits are unknown.
    """
    n = shoe.size
    kmax = universe(n)
    points = shoe.point_counts
    pad = [falling(n - k, kmax - k) if k <= kmax else 0 for k in range(MAX_CARDS + 1)]
    fvals = [
        _shape_weight(shoe, v, shape) * falling(points[v] - _shape_size(shape), m)
        for v, shape, m in table.factors
    ]
    counts = [0] * len(table.features)
    for (idx, k), ents in zip(table.compositions, table.entries, strict=False):
        w = pad[k]
        for i in idx:
            if not w:
                break
            w *= fvals[i]
        if w:
            for fi, t in ents:
                counts[fi] += t * w
    return counts, falling(n, kmax)
