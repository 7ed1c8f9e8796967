"""The shoe-walk study: what card counting is worth over real shoes, with the exact EV before
every coup (docs/studies.md, "The shoe-walk study"; docs/ARCHITECTURE.md, "The shoe walk, from a
seed to a table"; numpy imported here).

:func:`run_study` deals seeded shoes (:mod:`analyzer.studies.dealing`), prices every bet before
every coup on the unseen cards (:mod:`analyzer.engine.kernel`: float64 within a proven bound,
exact integers where the bound cannot decide), plays the strategies and returns a
:class:`StudyResult`:

* **Strategies.**  ``perfect``: one unit whenever the exact EV on the unseen cards exceeds the
  minimum edge (shown cards are seen, burned ones are not); ``count``: one unit when the count
  trigger holds (tags per point value or per rank; running count ``rc`` from the initial count,
  or true count ``tc`` = running count / decks remaining, kept by a convention of
  :mod:`analyzer.studies.counting`: exact by default, or estimated and rounded as counters keep
  it, with the exact convention's figures beside; compared exactly); ``flat``: every coup.
* **Estimates, two ways.**  Per shoe the study counts the coups and the bets and sums the
  exact EVs of the bets placed and their realised results (exact).  The EV sum is a
  conditional expectation of the realised one given the cards seen before each coup
  (Rao-Blackwell): both estimate the same win rate, the first with a fraction of the variance.
  Standard errors and 95% intervals come from the central limit theorem over shoes (shoes are
  independent; ratios use the delta method): value +- 1.96 SE.
* **Decisions are exact.**  A float EV decides "EV > threshold" only when it is farther than
  the kernel's proven error bound from the threshold; otherwise the exact EV decides
  (:func:`analyzer.engine.kernel.exact_ev`).  The EV sums themselves are float64 sums of
  values each within the bound (reported as ``ev_bound``), so they are estimates, not exact.
* **Determinism.**  Shoes are dealt in fixed blocks (:data:`BLOCK` shoes by default); every block is
  computed the same way wherever it runs, and blocks are reduced in shoe order, so one process,
  ``workers`` local processes and a Dask cluster give identical results for a seed.
* **Fixed memory.**  No per-shoe result is kept: each block is summarised (the moments of its
  per-shoe sums, :mod:`analyzer.studies.moments`; its EVs by depth) and folded into the result
  in shoe order, and only a window of blocks is in flight (:mod:`analyzer.studies.workers`),
  so memory does not grow with the number of shoes.
* **Multi-coup bets.**  ``banker-streak[:TABLE]`` (Wizard of Odds, "Banker Streak"): placed
  only after a Player or Tie win (or after a paid ten-win streak), settled by the run of Banker
  wins that follows (at least 4 win; 10 pays the top award and ends the bet); a streak still
  running when the shoe ends is settled on the wins counted so far.  It has no exact per-coup
  EV, so it is priced by its realised results only (strategies ``flat`` and ``count``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.bets.catalogue import bet_key, find_bet
from analyzer.bets.choice import bet_from_module, module_bets, refuse_clashes, split_file_spec
from analyzer.bets.files import parse_bets, read_bet_text
from analyzer.bets.model import Bet
from analyzer.core.cards import RANK_POINTS, RANKS, SUITS, Card
from analyzer.core.coup import build_record
from analyzer.core.dealt import card_of
from analyzer.core.exact import LIMITS_WORDS, MAX_NUMBER_CHARS, parse_exact, whole_number
from analyzer.core.reads import BASE_FIELDS, RankDetail, Reads, SuitDetail
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.batch import one_blas_thread
from analyzer.engine.kernel import exact_ev, kernels_for
from analyzer.engine.pricing import price
from analyzer.engine.walk import base_fields, project_fields
from analyzer.errors import AnalyzerError, StudyError
from analyzer.studies.counting import (
    EXACT,
    TrueCount,
    parse_true_count,
    running_count_holds,
    true_count_holds,
)
from analyzer.studies.dealing import BANKER, PLAYER, TIE, VOID, Dealing, DealtShoes, deal
from analyzer.studies.moments import Estimate, Moments
from analyzer.studies.workers import SCHEDULER_TIMEOUT, check_workers, ordered_map

#: Shoes per block (the default): the unit of work and of reduction.  A study's block size is
#: one of its settings, so results never depend on how the blocks are spread over processes.
BLOCK = 1000
#: The largest block: a block is dealt in memory (about 75 MB per 1,000 shoes).
MAX_BLOCK = 10_000
STRATEGIES = ("perfect", "count", "flat")
#: Histogram of EVs by depth: bins of this width on [-1, 1) (EVs from 1 up share the last).
EV_BIN = Fraction(1, 1000)
EV_BINS = 2000
Z95 = 1.959963984540054
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Banker Streak pay tables (Wizard of Odds, "Banker Streak", tables 1-4): wins -> pays.
STREAK_TABLES: dict[str, dict[int, int]] = {
    "1": {10: 250, 9: 150, 8: 60, 7: 40, 6: 25, 5: 15, 4: 10},
    "2": {10: 250, 9: 100, 8: 60, 7: 40, 6: 25, 5: 15, 4: 10},
    "3": {10: 200, 9: 100, 8: 60, 7: 40, 6: 25, 5: 15, 4: 10},
    "4": {10: 200, 9: 100, 8: 60, 7: 40, 6: 20, 5: 15, 4: 10},
}
STREAK_CAP = 10


# -- the settings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CountStrategy:
    """A count and when it bets (a count system of :mod:`analyzer.studies.eor` is tags alone,
    with their betting correlation): ``tags`` per rank (13, A..K), the trigger (``kind``
    ``"rc"`` or ``"tc"``, comparison ``op``, exact ``threshold``), the running count at the start
    of a shoe (``initial``, before the shown card is counted) and, for a ``tc`` trigger, how the
    true count is kept (``true_counts``: one or more conventions of :mod:`analyzer.studies.counting`,
    each played as a row of its own, the exact one beside them)."""

    tags: tuple[int, ...]
    kind: str
    op: str
    threshold: Fraction
    initial: int = 0
    true_counts: tuple[TrueCount, ...] = (EXACT,)

    @property
    def true_count(self) -> TrueCount:
        """The first convention chosen (the one :func:`_trigger` uses by default)."""
        return self.true_counts[0]

    def describe(self) -> str:
        """e.g. ``"tags A..K 0,0,0,-1,...; bet when tc>=7; true count exact: ..."``."""
        tags = ",".join(str(t) for t in self.tags)
        text = (
            f"tags (A..K) {tags}; initial count {self.initial}; bet when {self.kind}{self.op}{self.threshold}"
        )
        if self.kind == "tc":
            text += "; " + "; ".join(f"true count {tc.name}: {tc.describe()}" for tc in self.conventions)
        return text

    @property
    def conventions(self) -> tuple[TrueCount, ...]:
        """The true-count conventions played: those chosen, then the exact one beside them."""
        if self.kind != "tc" or EXACT in self.true_counts:
            return self.true_counts
        return (*self.true_counts, EXACT)

    @property
    def rc_bound(self) -> int:
        """A bound on ``|running count|`` (at most 27 decks of 4 cards per rank)."""
        return abs(self.initial) + 4 * 27 * sum(abs(t) for t in self.tags)


_TRIGGER = re.compile(
    r"^\s*(rc|tc)\s*(>=|<=|>|<|==|=)\s*([+-]?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?)\s*$", re.IGNORECASE
)


def parse_tags(text: str) -> tuple[int, ...]:
    """Tags per rank from ten values (A, 2, ..., 9, T: the ten-valued ranks share the last) or
    thirteen (A, 2, ..., 9, 10, J, Q, K), comma- or space-separated.

    Raises:
        StudyError: not 10 or 13 whole numbers.

    >>> parse_tags("0,0,0,-1,-1,-1,-1,2,2,0")[-4:]
    (0, 0, 0, 0)
    """
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    numbers = [whole_number(p, signed=True) for p in parts]  # ASCII digits, at most 80 of them
    values = [n for n in numbers if n is not None]
    if len(values) < len(parts):
        raise StudyError(
            f"bad --tags {_shown(text)}: give whole numbers (at most {MAX_NUMBER_CHARS} digits each), "
            "e.g. 0,0,0,-1,-1,-1,-1,2,2,0"
        )
    if len(values) == 10:
        return (*values[:9], values[9], values[9], values[9], values[9])
    if len(values) == 13:
        return tuple(values)
    raise StudyError(
        f"bad --tags {_shown(text)}: give 10 tags (A,2,...,9,T) or 13 (A,2,...,9,10,J,Q,K), got {len(values)}"
    )


def parse_trigger(text: str) -> tuple[str, str, Fraction]:
    """``rc>=32`` or ``tc>=7`` (also ``>``, ``<=``, ``<``, ``==``): (kind, operator, threshold).

    Raises:
        StudyError: another form.
    """
    m = _TRIGGER.match(text)
    if not m:
        raise StudyError(
            f"bad --bet-when {_shown(text)}: use rc>=N (running count) or tc>=X (true count), "
            "e.g. rc>=32 or tc>=7"
        )
    op = "==" if m.group(2) == "=" else m.group(2)
    try:
        threshold = parse_exact(m.group(3), "--bet-when threshold")  # at most 80 characters
    except AnalyzerError as exc:
        raise StudyError(str(exc)) from None
    return m.group(1).lower(), op, threshold


def parse_edge(text: str | Fraction | int) -> Fraction:
    """A minimum edge: an exact number of units per unit staked (``0.01``) or a percentage
    (``1%``).

    Raises:
        StudyError: not a number.
    """
    if isinstance(text, Fraction | int) and not isinstance(text, bool):
        return Fraction(text)
    if not isinstance(text, str):
        raise StudyError(f"bad minimum edge {text!r}: give a number such as 0, 0.01 or 1%")
    raw = text.strip()
    percent = raw.endswith("%")
    try:  # exact, bounded: at most 80 characters, an exponent at most 30 (1e400 is refused)
        value = parse_exact(raw.removesuffix("%").strip(), "minimum edge")
    except AnalyzerError:
        raise StudyError(
            f"bad minimum edge {_shown(text)}: give a number such as 0, 0.01 or 1% "
            f"({LIMITS_WORDS})"
        ) from None
    return value / 100 if percent else value


def _shown(text: str) -> str:
    """``text`` quoted for a message, shortened when long."""
    return repr(text) if len(text) <= 60 else repr(text[:40] + "...") + f" ({len(text):,} characters)"


@dataclass(frozen=True)
class BetSource:
    """Where a bet comes from, so that worker processes can rebuild it: a catalogue spec
    (``kind="catalogue"``), a bet file's text and the bet's index in it (``"file"``), the
    multi-coup Banker Streak (``"streak"``, ``spec`` its pay table), a Python bet (``"module"``,
    ``spec`` its ``MODULE:NAME``, imported again by each worker), or a Bet object (``"object"``,
    in this process or on a cluster that can pickle it)."""

    kind: str
    spec: str
    text: str = ""
    index: int = 0
    bet: Bet | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        """A stable identity (for caches)."""
        if self.kind == "file":
            return f"file:{hashlib.sha256(self.text.encode()).hexdigest()[:16]}:{self.index}"
        return f"{self.kind}:{self.spec}"

    def build(self) -> Bet:
        """The per-coup bet."""
        if self.kind == "catalogue":
            return find_bet(self.spec)
        if self.kind == "file":
            return parse_bets(self.text, self.spec)[self.index]
        if self.kind == "module":
            return bet_from_module(self.spec)
        if self.kind == "object" and self.bet is not None:
            return self.bet
        raise StudyError(f"internal: no per-coup bet for {self.kind} {self.spec!r}")

    @property
    def name(self) -> str:
        """The bet's machine name."""
        if self.kind == "streak":
            return "banker-streak" + ("" if self.spec == "1" else f":{self.spec}")
        return self.build().name


def bet_sources(specs: Sequence[str | Bet] = (), files: Sequence[str] = ()) -> list[BetSource]:
    """Sources for catalogue specs (``NAME[:PARAM]``, ``banker-streak[:1-4]``), one bet of a bet
    file (``FILE:NAME``, read as :func:`analyzer.bets.choice.split_file_spec` reads it) or Bet
    objects, and for every bet of each bet file.

    Raises:
        BetError / StudyError: an unknown bet, a bad or missing file, a ``FILE:NAME`` whose file
            holds no such bet, a bet of a file on a catalogue name
            (:func:`analyzer.bets.choice.refuse_clashes`), a bet chosen twice.
    """

    out: list[BetSource] = []
    texts: dict[str, str] = {}

    def file_sources(path: str) -> list[tuple[BetSource, Bet]]:
        if path not in texts:
            texts[path] = read_bet_text(path)
        bets = parse_bets(texts[path], path)
        return [(BetSource("file", path, texts[path], i), b) for i, b in enumerate(bets)]

    from_files: list[Bet] = []
    given = module_bets()
    python = {bet_key(b.name): m for m, b in zip(given.specs, given.bets, strict=True)}
    for spec in specs:
        if isinstance(spec, Bet):
            out.append(BetSource("object", spec.name, bet=spec))
            continue
        if bet_key(str(spec)) in python:
            out.append(BetSource("module", python[bet_key(str(spec))]))
            continue
        picked = split_file_spec(str(spec))
        if picked is not None:
            path, wanted = picked
            found = [(src, b) for src, b in file_sources(path) if bet_key(b.name) == bet_key(wanted)]
            if not found:
                held = ", ".join(b.name for _, b in file_sources(path))
                raise StudyError(f"{path}: no bet {wanted!r} in this file; its bets are {held}")
            out.append(found[0][0])
            from_files.append(found[0][1])
            continue
        name, _, param = str(spec).strip().partition(":")
        if name.strip().lower().replace("_", "-") == "banker-streak":
            table = param.strip() or "1"
            if table not in STREAK_TABLES:
                raise StudyError(f"bad Banker Streak pay table {param!r}: use 1, 2, 3 or 4 (Wizard of Odds)")
            out.append(BetSource("streak", table))
            continue
        src = BetSource("catalogue", str(spec).strip())
        src.build()  # a bad name fails here, in the caller
        out.append(src)
    for path in files:
        for src, bet in file_sources(str(path)):
            out.append(src)
            from_files.append(bet)
    if given.chosen:  # --bet-module: every Python bet it names
        out += [BetSource("module", m) for m in given.specs]
    refuse_clashes(from_files)
    names = [s.name for s in out]
    for n in names:
        if names.count(n) > 1:
            raise StudyError(f"bet {n!r} is chosen twice: give each bet once")
    if not out:
        raise StudyError("no bet to study: give --bet NAME (e.g. dragon-7) or --bet-file FILE")
    return out


@dataclass(frozen=True)
class StudySpec:
    """Everything a study needs, picklable (worker processes rebuild the bets from it)."""

    bets: tuple[BetSource, ...]
    strategies: tuple[str, ...]
    shoes: int
    seed: int
    dealing: Dealing
    min_edge: Fraction
    count: CountStrategy | None
    depth_bin: int
    block: int = BLOCK

    @property
    def blocks(self) -> int:
        """Number of blocks of :attr:`block` shoes."""
        return (self.shoes + self.block - 1) // self.block


def make_spec(
    bets: Sequence[str | Bet | BetSource] = (),
    *,
    bet_files: Sequence[str] = (),
    shoes: int = 10_000,
    seed: int = 0,
    strategies: Sequence[str] = ("perfect",),
    decks: int = 8,
    cut_card: int = 14,
    burn: str = "standard",
    end_rule: str = "jacobson",
    tableau: Tableau = STANDARD,
    min_edge: str | Fraction | int = 0,
    tags: str | Sequence[int] | None = None,
    bet_when: str | None = None,
    initial_count: int = 0,
    true_count: str | TrueCount | Sequence[str | TrueCount] | None = None,
    depth_bin: int = 26,
    block: int = BLOCK,
) -> StudySpec:
    """A checked :class:`StudySpec` (see :func:`run_study` for the arguments).

    Raises:
        StudyError / BetError: a bad setting (one line naming it).
    """
    for name, value, low in (
        ("shoes", shoes, 1),
        ("seed", seed, 0),
        ("depth bin", depth_bin, 1),
        ("block", block, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise StudyError(f"bad {name} {value!r}: use a whole number of at least {low}")
    if block > MAX_BLOCK:
        raise StudyError(
            f"bad block {block}: at most {MAX_BLOCK:,} shoes (a block is dealt in memory, "
            "about 75 MB per 1,000 shoes)"
        )
    if isinstance(initial_count, bool) or whole_number(initial_count, signed=True) is None:
        raise StudyError(f"bad initial count {initial_count!r}: use a whole number")
    dealing = Dealing(decks, cut_card, burn, end_rule, tableau).checked()
    chosen = tuple(dict.fromkeys(s.strip().lower() for s in strategies))
    if not chosen or any(s not in STRATEGIES for s in chosen):
        raise StudyError(f"bad strategy {', '.join(strategies)!r}: use {', '.join(STRATEGIES)}")
    sources = [b for b in bets if isinstance(b, BetSource)]
    sources += bet_sources([b for b in bets if not isinstance(b, BetSource)], bet_files)
    if true_count is None or (not isinstance(true_count, str | TrueCount) and not true_count):
        conventions: tuple[TrueCount, ...] = ()
    elif isinstance(true_count, str | TrueCount):
        conventions = (parse_true_count(true_count),)
    else:
        conventions = tuple(dict.fromkeys(parse_true_count(t) for t in true_count))
    count = None
    if "count" in chosen:
        if tags is None or bet_when is None:
            raise StudyError("--strategy count needs --tags (10 or 13 tags) and --bet-when (e.g. tc>=7)")
        if not isinstance(tags, str):  # whole numbers first: str() of a huge int would raise
            numbers = [whole_number(t, signed=True) for t in tags]
            if None in numbers:
                raise StudyError(f"bad tags: give whole numbers (at most {MAX_NUMBER_CHARS} digits each)")
            tags = ",".join(str(t) for t in numbers)
        tag_values = parse_tags(tags)
        kind, op, threshold = parse_trigger(bet_when)
        if kind == "rc" and any(c != EXACT for c in conventions):
            name = next(c.name for c in conventions if c != EXACT)
            raise StudyError(f"--true-count {name} needs a true-count trigger (--bet-when tc...)")
        count = CountStrategy(tag_values, kind, op, threshold, initial_count, conventions or (EXACT,))
        _check_count_range(count, dealing)
    elif tags is not None or bet_when is not None:
        raise StudyError("--tags and --bet-when belong to --strategy count: add it")
    elif conventions:
        raise StudyError("--true-count belongs to --strategy count with a tc trigger: add them")
    if "perfect" in chosen and any(s.kind == "streak" for s in sources):
        raise StudyError(
            "banker-streak is a multi-coup bet with no exact per-coup EV: study it with "
            "--strategy flat or count"
        )
    return StudySpec(
        tuple(sources), chosen, shoes, seed, dealing, parse_edge(min_edge), count, depth_bin, block
    )


# -- one block of shoes --------------------------------------------------------------------------

#: A tally's key: (bet, strategy, true-count convention of a ``count`` row, else None).
Key = tuple[str, str, str | None]


@dataclass
class _Tally:
    """Per-shoe sums of one bet under one strategy (one block): bets placed, the sum of their
    exact EVs, their realised results (integers over the bet's scale)."""

    bets: IntArray
    ev: FloatArray
    realised: IntArray
    exact: int = 0


@dataclass
class _DepthSums:
    """The float sums of one bet's EVs by depth bin (one block; folded in block order)."""

    total: FloatArray
    squares: FloatArray


@dataclass
class _DepthCounts:
    """The order-free parts of one bet's EVs by depth bin: coups, EV > 0, smallest and largest
    EV, the histogram of EVs (sparse: flat index ``bin * EV_BINS + cell`` and count) and the
    decisions taken exactly."""

    count: IntArray
    positive: IntArray
    low: FloatArray
    high: FloatArray
    cells: IntArray
    cell_counts: IntArray
    exact: int = 0

    def merge(self, other: _DepthCounts) -> _DepthCounts:
        """Both parts together (exact: integers, minima and maxima)."""
        cells, inverse = np.unique(np.concatenate([self.cells, other.cells]), return_inverse=True)
        counts = np.zeros(len(cells), dtype=np.int64)
        np.add.at(counts, inverse, np.concatenate([self.cell_counts, other.cell_counts]))
        return _DepthCounts(
            self.count + other.count,
            self.positive + other.positive,
            np.minimum(self.low, other.low),
            np.maximum(self.high, other.high),
            cells.astype(np.int64),
            counts,
            self.exact + other.exact,
        )


@dataclass
class BlockResult:
    """What one block of shoes contributes (folded in block order): the moments of its per-shoe
    coups and voids (``coups``) and of each tally's per-shoe sums (``tallies``: coups, bets, ev,
    realised; the Banker Streak's: coups, bets, realised, opportunities), the decisions each
    tally took exactly, and each bet's float sums by depth.  ``counts`` holds the order-free
    depth counts of the block (:func:`run_blocks` gathers them over a task)."""

    block: int
    shoes: int
    coups_dealt: int
    coups: Moments
    tallies: dict[Key, Moments]
    exact: dict[Key, int]
    depth: dict[str, _DepthSums]
    counts: dict[str, _DepthCounts] = field(default_factory=dict)


@dataclass
class TaskResult:
    """The blocks of one task, in order, and their depth counts gathered."""

    blocks: list[BlockResult]
    counts: dict[str, _DepthCounts]


_SETTLED: dict[tuple[str, str, int], int] = {}
_BUILT: dict[str, Bet] = {}


def _bet_of(src: BetSource) -> Bet:
    """The bet of a source, built once per process (so its compiled kernels are reused)."""
    hit = _BUILT.get(src.key)
    if hit is None:
        hit = _BUILT[src.key] = src.build()
    return hit


#: The base fields of a coup follow from (Player's two-card total, Banker's, Player's third
#: card's value or 10 when he stood, Banker's): one code of ``((p2 * 10 + b2) * 11 + p3) * 11 + b3``.
_FIELD_CODES = 10 * 10 * 11 * 11
#: A card of a record key: 4 x rank + suit, or this when the position was not dealt.
_NO_CARD = 52
_CARD_BASE = 53


@functools.cache
def _field_classes(fields: frozenset[str], naturals: frozenset[int]) -> tuple[IntArray, IntArray]:
    """The base fields a bet reads, per field code (:data:`_FIELD_CODES`): (class of each code,
    a code of each class).  Two codes of one class give the same projected fields
    (:func:`analyzer.engine.walk.project_fields`), so a coup is settled by its class alone;
    ``naturals`` are the tableau's natural totals (all it adds to the base fields)."""
    codes = np.arange(_FIELD_CODES, dtype=np.int64)
    b3 = codes % 11
    p3 = codes // 11 % 11
    p2, b2 = np.divmod(codes // 121, 10)
    pt = (p2 + np.where(p3 == 10, 0, p3)) % 10
    bt = (b2 + np.where(b3 == 10, 0, b3)) % 10
    natural = np.asarray(sorted(naturals), dtype=np.int64)
    values = {
        "winner": np.sign(bt - pt) + 1,
        "player_total": pt,
        "banker_total": bt,
        "player_cards": (p3 != 10).astype(np.int64),
        "banker_cards": (b3 != 10).astype(np.int64),
        "player_natural": np.isin(p2, natural).astype(np.int64),
        "banker_natural": np.isin(b2, natural).astype(np.int64),
        "player_two_card_total": p2,
        "banker_two_card_total": b2,
        "player_third": p3,
        "banker_third": b3,
    }
    read = set(fields)
    if "player_total" in read and "banker_total" in read:
        read.add("winner")  # kept with both totals (project_fields)
    key = np.zeros(_FIELD_CODES, dtype=np.int64)
    for name in BASE_FIELDS:
        if name in read:
            key = key * 11 + values[name]
    _, first, classes = np.unique(key, return_index=True, return_inverse=True)
    return classes.ravel().astype(np.int64), first.astype(np.int64)


def _renamed(labels: IntArray, kinds: int) -> IntArray:
    """Labels (coups, positions; -1 where none) renamed per coup by first appearance along the
    positions: the first label seen becomes 0, the next new one 1, ..."""
    coups = np.arange(labels.shape[0])
    named = np.full((labels.shape[0], kinds), -1, dtype=np.int64)
    seen = np.zeros(labels.shape[0], dtype=np.int64)
    out = np.full(labels.shape, -1, dtype=np.int64)
    for p in range(labels.shape[1]):
        label = labels[:, p]
        has = label >= 0
        at = np.maximum(label, 0)
        new = has & (named[coups, at] < 0)
        named[coups[new], at[new]] = seen[new]
        seen += new
        out[:, p] = np.where(has, named[coups, at], -1)
    return out


def _reduced_cards(reads: Reads, cards: IntArray) -> IntArray:
    """The read cards of each coup (coups, cards; -1 where not dealt), every block of
    ``reads`` one after another, reduced to what ``reads`` tells apart, as cards (4 x rank +
    suit) a bet cannot tell from the dealt ones: ranks it does not read become their value's
    first rank, ten-valued ranks read by equality are renamed by first appearance (10, J, Q, K),
    pictures read as pictures (J, Q, K alike) become the Jack,
    suits (colours) it does not read become spades (hearts for red), and suits (colours) read
    by equality are renamed by first appearance.  Renaming classes is what the record's
    canonical numbering undoes (:func:`analyzer.core.canonical.canonical_blocks`), so a coup
    and its reduction give one record.  Same-card suits (which cards are the same card) are
    kept as dealt."""
    detail = reads.suits
    if detail is SuitDetail.SAME_CARD:
        return cards
    dealt = cards >= 0
    card = np.maximum(cards, 0)
    rank = card // 4
    suit = card % 4
    value = _VALUE_OF_RANK[rank]
    if reads.ranks is RankDetail.NONE:
        rank = _FIRST_RANK[value]
    elif reads.ranks is RankDetail.EQUALITY:
        ten = dealt & (value == 0)
        rank = np.where(ten, 9 + _renamed(np.where(ten, rank - 9, -1), 4), rank)
    elif reads.ranks is RankDetail.PICTURE:
        rank = np.minimum(rank, _JACK)  # 10 stays; J, Q, K become J (ranks below 10 stay)
    reading = dealt if detail.per_set else dealt & np.isin(value, sorted(reads.suit_values))
    colour = np.where((suit == 1) | (suit == 2), 0, 1)  # red (hearts, diamonds) 0, black 1
    kind = detail.exact_equivalent
    if kind is SuitDetail.SUIT:
        suit = np.where(reading, suit, 0)
    elif kind is SuitDetail.SUIT_EQUALITY:
        suit = np.maximum(_renamed(np.where(reading, suit, -1), 4), 0)
    elif kind is SuitDetail.COLOUR:
        suit = np.where(reading & (colour == 0), 1, 0)
    elif kind is SuitDetail.COLOUR_EQUALITY:
        suit = np.where(_renamed(np.where(reading, colour, -1), 2) == 0, 1, 0)
    else:
        suit = np.zeros_like(suit)
    return np.where(dealt, rank * 4 + suit, -1)


def _flag_suits(detail: SuitDetail, reduced: IntArray, sizes: list[int]) -> IntArray:
    """Reduced cards (:func:`_reduced_cards`) whose suits say no more than a per-set read sees:
    whether each block's dealt cards are of one suit (colour), and which for a named read.  A
    block of one suit (colour) keeps its cards' suit codes (all 0 unless the suit is named); a
    mixed block gets the first card's code 1 and the others' 0 (two suits, or red and black),
    so every mixed block of the same ranks is one key.  Shape as ``reduced``."""
    out = reduced.copy()
    named = detail in (SuitDetail.ONE_SUIT_NAMED, SuitDetail.ONE_COLOUR_NAMED)
    at = 0
    for size in sizes:
        block = out[:, at : at + size]
        at += size
        dealt = block >= 0
        suit = np.where(dealt, block % 4, -1)
        first = np.where(dealt, suit, 99).min(axis=1, keepdims=True)
        last = suit.max(axis=1, keepdims=True)
        one = (first == last) | (last < 0)  # one suit among the dealt cards (or none dealt)
        rank4 = np.where(dealt, block - block % 4, -1)
        position = np.cumsum(dealt, axis=1)  # 1 for the first dealt card of the block
        mixed_suit = np.where(position == 1, 1, 0)
        kept = suit if named else np.zeros_like(suit)
        block[:] = np.where(dealt, rank4 + np.where(one, kept, mixed_suit), -1)
    return out


#: The point value of each rank, and the first rank of each value (A..9, and 10 for 0).
_VALUE_OF_RANK = np.asarray(RANK_POINTS, dtype=np.int64)
_FIRST_RANK = np.asarray([RANK_POINTS.index(v) for v in range(10)], dtype=np.int64)
_JACK = 10  # Rank.JACK.index: the rank every picture is reduced to


def _record_keys(bet: Bet, dealt: DealtShoes, tableau: Tableau) -> tuple[IntArray, IntArray, list[int]]:
    """One integer per coup naming what ``bet`` can see of it, and what settles it: the class
    of the base fields it reads (:func:`_field_classes`), then the cards of the positions it
    reads reduced to what it tells apart (:func:`_reduced_cards`), sorted within each read
    block.  Also the field code of a coup of each class, and the record positions of the
    key's cards (block by block)."""
    cards = dealt.cards
    value = np.where(cards >= 0, _VALUE_OF_RANK[np.maximum(cards, 0) // 4], 0)
    p2 = (value[:, 0] + value[:, 2]) % 10
    b2 = (value[:, 1] + value[:, 3]) % 10
    third = dealt.player_third
    p3 = np.where(third, value[:, 4], 10)
    b3_card = np.where(third, cards[:, 5], cards[:, 4])
    b3 = np.where(b3_card >= 0, _VALUE_OF_RANK[np.maximum(b3_card, 0) // 4], 10)
    classes, first = _field_classes(bet.reads.fields, frozenset(tableau.naturals))
    key = classes[((p2 * 10 + b2) * 11 + p3) * 11 + b3]
    layout: list[int] = []  # the record position of each card of the key
    if bet.reads.sets:
        record = np.stack(
            [cards[:, 0], cards[:, 1], cards[:, 2], cards[:, 3], np.where(third, cards[:, 4], -1), b3_card],
            axis=1,
        )
        # each block's cards by what the bet reads of their ranks (no card last), so that the
        # renaming by first appearance sees a block's multiset in one order, whatever the deal
        ranks = bet.reads.ranks
        named = ranks is RankDetail.NAMED
        rank = np.maximum(record, 0) // 4
        value = _VALUE_OF_RANK[rank]
        told = np.where(named | ((ranks is RankDetail.EQUALITY) & (value != 0)), rank, 0)
        if ranks is RankDetail.PICTURE:  # the ten before the pictures, the pictures alike
            told = np.minimum(rank, _JACK)
        order = np.where(record >= 0, value * 13 + told, 13 * 10)
        blocks = [sorted(block) for block in bet.reads.blocks]
        parts = []
        for members in blocks:
            by = np.argsort(order[:, members], axis=1, kind="stable")
            parts.append(np.take_along_axis(record[:, members], by, axis=1))
        reduced = _reduced_cards(bet.reads, np.concatenate(parts, axis=1))
        if bet.reads.suits.per_set:
            reduced = _flag_suits(bet.reads.suits, reduced, [len(m) for m in blocks])
        at = 0
        for members in blocks:
            mine = reduced[:, at : at + len(members)]
            at += len(members)
            codes = np.sort(np.where(mine >= 0, mine, _NO_CARD), axis=1)
            for col, pos in enumerate(members):
                key = key * _CARD_BASE + codes[:, col]
                layout.append(pos)
    return key, first, layout


def _settle_key(bet: Bet, key: int, first: IntArray, layout: list[int], tableau: Tableau) -> Fraction:
    """Settle the coup a record key names (see :func:`_record_keys`)."""

    codes: list[int] = []
    for _ in layout:
        codes.append(key % _CARD_BASE)
        key //= _CARD_BASE
    codes.reverse()
    fields = int(first[key])
    b3 = fields % 11
    p3 = fields // 11 % 11
    p2, b2 = divmod(fields // 121, 10)
    projected = project_fields(
        base_fields(tableau, p2, b2, None if p3 == 10 else p3, None if b3 == 10 else b3), bet.reads
    )
    blocks = []
    at = 0
    for block in bet.reads.blocks:
        dealt: list[Any] = []
        for _ in sorted(block):
            code = codes[at]
            at += 1
            if code != _NO_CARD:
                dealt.append(card_of(Card(RANKS[code // 4], SUITS[code % 4])))
        blocks.append((block, dealt))
    return bet.settle(build_record(projected, blocks, bet.reads))[1]


def realised_pays(
    bet: Bet, source_key: str, scale: int, dealt: DealtShoes, void: npt.NDArray[np.bool_], tableau: Tableau
) -> IntArray:
    """The realised result of ``bet`` on each dealt coup, as integers over ``scale`` (0 on a
    void coup).  Each distinct coup, as the bet sees it (:func:`_record_keys`), is settled once
    per process, on the record :func:`analyzer.core.coup.build_record` builds for it -- the
    record the engine's tables and ``verify`` settle."""
    keys, first, layout = _record_keys(bet, dealt, tableau)
    out = np.zeros(len(keys), dtype=np.int64)
    live = ~void
    if not live.any():
        return out
    unique, inverse = np.unique(keys[live], return_inverse=True)
    pays = np.empty(len(unique), dtype=np.int64)
    tag = (source_key, tableau.fingerprint)
    for i, key in enumerate(unique.tolist()):
        hit = _SETTLED.get((*tag, key))
        if hit is None:
            pay = _settle_key(bet, key, first, layout, tableau) * scale
            if pay.denominator != 1:
                raise StudyError(f"internal: bet {bet.name!r} pays off its scale")
            hit = int(pay)
            if len(_SETTLED) > 2_000_000:
                _SETTLED.clear()
            _SETTLED[(*tag, key)] = hit
        pays[i] = hit
    out[live] = pays[inverse]
    return out


def _running_counts(spec: StudySpec, dealt: DealtShoes) -> IntArray:
    """The running count before each coup: the initial count plus the tags of every seen card
    (the shown card and the cards of the coups before)."""
    assert spec.count is not None
    tags = np.repeat(np.asarray(spec.count.tags, dtype=np.int64), 4)
    full = spec.dealing.decks * int(tags.sum())
    return spec.count.initial + full - dealt.unseen.astype(np.int64) @ tags


#: The largest magnitude the exact int64 arithmetic of the count (:func:`_running_counts`,
#: :func:`_trigger`) may meet.
_INT64_MAX = 2**63 - 1


def _check_count_range(count: CountStrategy, dealing: Dealing) -> None:
    """Refuse a count whose exact comparisons could leave int64 (where numpy would wrap around
    silently): the running count is at most ``|initial| + 2 x cards x max |tag|`` in size, and
    :func:`_trigger` multiplies it by 52 and the threshold's denominator, and the threshold's
    numerator by the unseen cards.

    Raises:
        StudyError: the tags, initial count and threshold are too large together.
    """
    cards = 52 * dealing.decks
    most = max(1, abs(count.initial) + 2 * cards * max(abs(t) for t in count.tags))  # 1: the factors alone
    t = count.threshold
    needed = max(most * 52 * t.denominator, abs(t.numerator) * cards)
    if needed > _INT64_MAX:
        raise StudyError(
            f"--tags, --initial-count and --bet-when {count.kind}{count.op}{t} are too large together: "
            f"the count's exact comparisons would need numbers of {len(str(needed))} digits, beyond the "
            "64-bit integers the study counts in (19 digits); use smaller tags, initial count or threshold"
        )


def _trigger(
    spec: StudySpec, dealt: DealtShoes, convention: TrueCount | None = None
) -> npt.NDArray[np.bool_]:
    """Whether the count trigger holds before each coup, the true count kept by ``convention``
    (default: the count's own; exact integer comparisons, :mod:`analyzer.studies.counting`)."""
    assert spec.count is not None
    c = spec.count
    convention = c.true_count if convention is None else convention
    rc = _running_counts(spec, dealt)
    if c.kind == "rc":
        return running_count_holds(rc, c.op, c.threshold, c.rc_bound)
    unseen = dealt.unseen.astype(np.int64).sum(axis=1)
    return true_count_holds(rc, unseen, convention, c.op, c.threshold, c.rc_bound)


def _exact_above(
    bet: Bet, dealt: DealtShoes, states: IntArray, threshold: Fraction, tableau: Tableau
) -> IntArray:
    """Exact EV > threshold for the given states (the cases the float bound cannot decide)."""

    out = np.zeros(len(states), dtype=bool)
    for i, s in enumerate(states.tolist()):
        ev = exact_ev(bet, dealt.unseen[s].astype(np.int64).tolist(), int(dealt.physical[s]), tableau)
        out[i] = ev > threshold
    return np.asarray(out, dtype=np.int64)


def _above(
    ev: FloatArray,
    bound: float,
    exact: dict[int, Fraction],
    threshold: Fraction,
    bet: Bet,
    dealt: DealtShoes,
    tableau: Tableau,
) -> tuple[npt.NDArray[np.bool_], int]:
    """EV > threshold per state, decided by the float where the bound allows, else exactly;
    and how many states needed the exact EV."""
    t = float(threshold)
    out = ev > t
    unsure = np.flatnonzero(np.abs(ev - t) <= bound + abs(t) * 2.0**-52)
    unsure = np.asarray([s for s in unsure.tolist() if s not in exact], dtype=np.int64)
    if len(unsure):
        out[unsure] = _exact_above(bet, dealt, unsure, threshold, tableau).astype(bool)
    for s, value in exact.items():
        out[s] = value > threshold
    return out, len(unsure)


def _per_shoe(values: Any, shoe: IntArray, shoes: int) -> Any:
    if values.dtype == np.int64:
        out = np.zeros(shoes, dtype=np.int64)
        np.add.at(out, shoe, values)
        return out
    return np.bincount(shoe, weights=values, minlength=shoes).astype(np.float64)


def _count_rows(spec: StudySpec) -> list[tuple[str | None, TrueCount]]:
    """The count rows a study plays: (label, convention) per true-count convention."""
    if spec.count is None:
        return []
    if spec.count.kind != "tc":
        return [(None, EXACT)]
    return [(tc.name, tc) for tc in spec.count.conventions]


def _strategy_keys(spec: StudySpec, name: str) -> list[Key]:
    """The tallies of bet ``name``, in the order of the results: the strategies chosen (a
    ``count`` row per true-count convention), then ``flat`` (every per-coup bet keeps it, for the
    cut-card effect)."""
    keys: list[Key] = []
    for strategy in spec.strategies:
        if strategy == "count":
            keys += [(name, "count", label) for label, _ in _count_rows(spec)]
        else:
            keys.append((name, strategy, None))
    return keys


def run_block(spec: StudySpec, block: int) -> BlockResult:
    """Deal and play block ``block`` (shoes ``block * spec.block`` onwards) and summarise it."""

    first = block * spec.block
    count = min(spec.block, spec.shoes - first)
    tableau = spec.dealing.tableau
    dealt = deal(spec.dealing, spec.seed, first, count)
    n = dealt.states
    void = dealt.winner == VOID
    coups = np.bincount(dealt.shoe, minlength=count).astype(np.int64)
    voids = np.bincount(dealt.shoe[void], minlength=count).astype(np.int64)
    triggers = {label: _trigger(spec, dealt, tc) for label, tc in _count_rows(spec)}
    per_coup = [s for s in spec.bets if s.kind != "streak"]
    bets = [_bet_of(s) for s in per_coup]
    tallies: dict[Key, Moments] = {}
    exacts: dict[Key, int] = {}
    depth: dict[str, _DepthSums] = {}
    counts: dict[str, _DepthCounts] = {}

    def keep(key: Key, tally: _Tally, scale: int) -> None:
        columns = {"coups": coups, "bets": tally.bets, "ev": tally.ev, "realised": tally.realised / scale}
        tallies[key] = Moments.of(columns)
        exacts[key] = tally.exact

    if bets:
        evs = np.zeros((n, len(bets)), dtype=np.float64)
        bounds = [0.0] * len(bets)
        scales = [1] * len(bets)
        fast = np.flatnonzero(dealt.physical >= 6)
        for kernel, members in kernels_for(bets, tableau):
            if len(fast):
                evs[np.ix_(fast, np.asarray(members, dtype=np.intp))] = kernel.evs(dealt.unseen[fast])
            for col, j in enumerate(members):
                bounds[j] = kernel.bound[col]
                scales[j] = kernel.vectors[col].scale
        slow = np.flatnonzero(dealt.physical < 6).tolist()
        nbins = spec.dealing.size // spec.depth_bin + 1
        bins = dealt.depth // spec.depth_bin
        for j, (src, bet) in enumerate(zip(per_coup, bets, strict=True)):
            exact = {
                s: exact_ev(bet, dealt.unseen[s].astype(np.int64).tolist(), int(dealt.physical[s]), tableau)
                for s in slow
            }
            for s, value in exact.items():
                evs[s, j] = float(value)
            ev = evs[:, j]
            name = src.name
            scale = scales[j]
            positive, unsure = _above(ev, bounds[j], exact, Fraction(0), bet, dealt, tableau)
            depth[name], counts[name] = _depth_stats(ev, positive, bins, nbins, unsure)
            realised = realised_pays(bet, src.key, scale, dealt, void, tableau)
            for key in _strategy_keys(spec, name):
                exact_count = 0
                if key[1] == "perfect":
                    take, exact_count = _above(ev, bounds[j], exact, spec.min_edge, bet, dealt, tableau)
                elif key[1] == "count":
                    take = triggers[key[2]]
                else:
                    take = np.ones(n, dtype=bool)
                keep(key, _tally(take, ev, realised, dealt.shoe, count, exact_count), scale)
            if "flat" not in spec.strategies:
                flat = _tally(np.ones(n, dtype=bool), ev, realised, dealt.shoe, count, 0)
                keep((name, "flat", None), flat, scale)
    for src in spec.bets:
        if src.kind != "streak":
            continue
        table = STREAK_TABLES[src.spec]
        for key in _strategy_keys(spec, src.name):
            placed, result, opp = _streak(
                dealt, count, table, triggers[key[2]] if key[1] == "count" else None
            )
            columns = {"coups": coups, "bets": placed, "realised": result, "opportunities": opp}
            tallies[key] = Moments.of(columns)
            exacts[key] = 0
    return BlockResult(
        block,
        count,
        int(coups.sum()),
        Moments.of({"coups": coups, "voids": voids}),
        tallies,
        exacts,
        depth,
        counts,
    )


def _tally(
    take: npt.NDArray[np.bool_], ev: FloatArray, realised: IntArray, shoe: IntArray, shoes: int, exact: int
) -> _Tally:
    idx = np.flatnonzero(take)
    return _Tally(
        _per_shoe(np.ones(len(idx), dtype=np.int64), shoe[idx], shoes),
        _per_shoe(ev[idx], shoe[idx], shoes),
        _per_shoe(realised[idx], shoe[idx], shoes),
        exact,
    )


def _depth_stats(
    ev: FloatArray, positive: npt.NDArray[np.bool_], bins: IntArray, nbins: int, exact: int
) -> tuple[_DepthSums, _DepthCounts]:
    count = np.bincount(bins, minlength=nbins).astype(np.int64)
    pos = np.bincount(bins[positive], minlength=nbins).astype(np.int64)
    total = np.bincount(bins, weights=ev, minlength=nbins).astype(np.float64)
    squares = np.bincount(bins, weights=ev * ev, minlength=nbins).astype(np.float64)
    low = np.full(nbins, np.inf)
    high = np.full(nbins, -np.inf)
    np.minimum.at(low, bins, ev)
    np.maximum.at(high, bins, ev)
    cell = np.clip(np.floor((ev + 1.0) / float(EV_BIN)), 0, EV_BINS - 1).astype(np.int64)
    cells, cell_counts = np.unique(bins * EV_BINS + cell, return_counts=True)
    return _DepthSums(total, squares), _DepthCounts(
        count, pos, low, high, cells.astype(np.int64), cell_counts.astype(np.int64), exact
    )


def _streak(
    dealt: DealtShoes, shoes: int, table: dict[int, int], take: npt.NDArray[np.bool_] | None
) -> tuple[IntArray, IntArray, IntArray]:
    """Banker Streak over each shoe: (bets placed, realised units, opportunities) per shoe.
    ``take`` (per state) says whether the strategy bets at an opportunity (``None``: always)."""
    width = int(dealt.coup.max(initial=-1)) + 1
    winners = np.full((shoes, width + 1), VOID, dtype=np.int64)
    winners[dealt.shoe, dealt.coup] = dealt.winner
    wants = np.zeros((shoes, width + 1), dtype=bool)
    wants[dealt.shoe, dealt.coup] = True if take is None else take
    placed = np.zeros(shoes, dtype=np.int64)
    result = np.zeros(shoes, dtype=np.int64)
    opp = np.zeros(shoes, dtype=np.int64)
    active = np.zeros(shoes, dtype=bool)
    wins = np.zeros(shoes, dtype=np.int64)
    free = np.zeros(shoes, dtype=bool)  # the previous coup was a Player or Tie win, or a paid streak
    pays = np.asarray([table.get(k, -1) for k in range(STREAK_CAP + 1)], dtype=np.int64)
    for j in range(width + 1):
        w = winners[:, j]
        dealt_here = w != VOID
        ended = active & ~dealt_here  # the shoe ended (or the coup was void) with a streak running
        result[ended] += pays[wins[ended]]
        active[ended] = False
        chance = free & ~active & dealt_here
        opp += chance
        bet = chance & wants[:, j]
        placed += bet
        active |= bet
        wins[bet] = 0
        banker = active & (w == BANKER)
        wins[banker] += 1
        capped = banker & (wins == STREAK_CAP)
        stop = (active & ((w == PLAYER) | (w == TIE))) | capped
        result[stop] += pays[wins[stop]]
        active[stop] = False
        free = dealt_here & ((w == PLAYER) | (w == TIE) | capped)
    return placed, result, opp


def run_blocks(spec: StudySpec, blocks: Sequence[int]) -> TaskResult:
    """:func:`run_block` for each block, in order, with the blocks' depth counts gathered (the
    unit of work sent to a process).  The BLAS libraries use one thread meanwhile
    (:func:`analyzer.engine.batch.one_blas_thread`: the kernel's products are small, and BLAS
    threads spin on them more than they share them)."""
    with one_blas_thread():
        done = [run_block(spec, b) for b in blocks]
    counts: dict[str, _DepthCounts] = {}
    for part in done:
        for name, c in part.counts.items():
            counts[name] = c if name not in counts else counts[name].merge(c)
        part.counts = {}
    return TaskResult(done, counts)


# -- estimates ---------------------------------------------------------------------------------


def mean_estimate(x: Any) -> Estimate:
    """The mean of per-shoe values and its standard error (:class:`Moments`)."""
    return Moments.of({"x": x}).mean_of("x")


def ratio_estimate(a: Any, b: Any) -> Estimate | None:
    """sum(a) / sum(b) over shoes, with its delta-method standard error; ``None`` when
    sum(b) is 0 (:class:`Moments`)."""
    return Moments.of({"a": a, "b": b}).ratio_of("a", "b")


def _scaled(e: Estimate | None, k: float) -> Estimate | None:
    return None if e is None else Estimate(e.value * k, e.se * k)


@dataclass(frozen=True)
class StrategyResult:
    """One bet under one strategy, over the study's shoes (units per unit staked).

    From the exact EVs: ``bets_per_shoe``, ``bet_frequency`` (bets per coup),
    ``edge_when_betting`` (mean EV of a bet placed), ``units_per_shoe``,
    ``units_per_100_coups``; from the realised results: the ``realised_*`` twins (the
    cross-check).  Multi-coup bets have only realised figures (the EV ones are ``None``).
    ``exact_decisions``: decisions the float bound could not take (taken exactly).
    ``true_count``: the true-count convention of a ``count`` row with a ``tc`` trigger (the
    chosen one, and ``exact`` beside it), else ``None``.
    """

    bet: str
    strategy: str
    shoes: int
    coups_per_shoe: Estimate
    bets_per_shoe: Estimate
    bet_frequency: Estimate | None
    edge_when_betting: Estimate | None
    units_per_shoe: Estimate | None
    units_per_100_coups: Estimate | None
    realised_edge_when_betting: Estimate | None
    realised_units_per_shoe: Estimate
    realised_units_per_100_coups: Estimate | None
    exact_decisions: int
    opportunities_per_shoe: Estimate | None = None
    true_count: str | None = None

    @property
    def label(self) -> str:
        """The strategy as tables show it: ``count (tc half-deck)`` for a convention's row."""
        return self.strategy if self.true_count is None else f"{self.strategy} (tc {self.true_count})"


@dataclass(frozen=True)
class DepthRow:
    """The exact EVs of one bet before the coups dealt at depths ``low`` .. ``high`` (cards out
    of the shoe, shown and burned included): how many, their mean, SD, smallest, largest, the
    5/25/50/75/95th percentiles (to :data:`EV_BIN`) and the share with EV > 0 (decided
    exactly)."""

    bet: str
    low: int
    high: int
    coups: int
    mean: float
    sd: float
    smallest: float
    largest: float
    percentiles: tuple[float, ...]
    positive: Fraction


@dataclass(frozen=True)
class CutCardRow:
    """The cut-card effect on one bet: flat betting's EV per coup over real shoes against the
    exact EV off the top of a full shoe (``full_shoe_ev``)."""

    bet: str
    full_shoe_ev: Fraction
    flat_ev_per_coup: Estimate
    effect: Estimate


@dataclass(frozen=True)
class StudyResult:
    """A finished study: its settings, one :class:`StrategyResult` per bet and strategy, the
    EVs by depth, the cut-card effect, and each bet's float error bound (``ev_bounds``)."""

    spec: StudySpec
    results: tuple[StrategyResult, ...]
    depth: tuple[DepthRow, ...]
    cut_card: tuple[CutCardRow, ...]
    ev_bounds: dict[str, float]
    voids_per_shoe: Estimate

    def settings(self) -> dict[str, object]:
        """The settings, as JSON-ready values."""
        s = self.spec
        d = s.dealing
        out: dict[str, object] = {
            "shoes": s.shoes,
            "seed": s.seed,
            "decks": d.decks,
            "cut_card": d.cut_card,
            "burn": d.burn,
            "end_rule": d.end_rule,
            "rules": d.tableau.name,
            "rules_fingerprint": d.tableau.fingerprint,
            "min_edge": str(s.min_edge),
            "depth_bin": s.depth_bin,
            "block": s.block,
            "standard_errors": "CLT over shoes (delta method for ratios); 95% interval = value +- 1.96 SE",
        }
        if s.count is not None:
            out.update(
                {
                    "tags": list(s.count.tags),
                    "bet_when": f"{s.count.kind}{s.count.op}{s.count.threshold}",
                    "initial_count": s.count.initial,
                }
            )
            if s.count.kind == "tc":
                out["true_count"] = ",".join(tc.name for tc in s.count.true_counts)
        return out


def _depth_rows(name: str, sums: _DepthSums, counts: _DepthCounts, depth_bin: int) -> list[DepthRow]:
    count, pos, total, squares = counts.count, counts.positive, sums.total, sums.squares
    flat = np.zeros(len(count) * EV_BINS, dtype=np.int64)
    flat[counts.cells] = counts.cell_counts
    hist = flat.reshape(len(count), EV_BINS)
    rows = []
    for b in np.flatnonzero(count).tolist():
        n = int(count[b])
        mean = float(total[b]) / n
        var = max(float(squares[b]) / n - mean * mean, 0.0) * n / max(n - 1, 1)
        cum = np.cumsum(hist[b])
        pct = []
        for q in (0.05, 0.25, 0.5, 0.75, 0.95):
            cell = int(np.searchsorted(cum, q * n, side="left"))
            pct.append(-1.0 + (cell + 0.5) * float(EV_BIN))
        rows.append(
            DepthRow(
                name,
                b * depth_bin,
                (b + 1) * depth_bin - 1,
                n,
                mean,
                math.sqrt(var),
                float(counts.low[b]),
                float(counts.high[b]),
                tuple(pct),
                Fraction(int(pos[b]), n),
            )
        )
    return rows


class _Reduction:
    """A study's result as its blocks arrive, in block order (fixed memory: moments, the depth
    sums and counts; no per-shoe values)."""

    def __init__(self, spec: StudySpec) -> None:
        self.spec = spec
        self.next_block = 0
        self.coups: Moments | None = None
        self.tallies: dict[Key, Moments] = {}
        self.exact: dict[Key, int] = {}
        self.sums: dict[str, _DepthSums] = {}
        self.counts: dict[str, _DepthCounts] = {}

    def add(self, task: TaskResult) -> int:
        """Fold a task's blocks (the next in order) in; the shoes they held."""
        shoes = 0
        for part in task.blocks:
            if part.block != self.next_block:
                raise StudyError(f"internal: block {part.block} of shoes came before block {self.next_block}")
            self.next_block += 1
            shoes += part.shoes
            self.coups = part.coups if self.coups is None else self.coups.merge(part.coups)
            for key, m in part.tallies.items():
                self.tallies[key] = self.tallies[key].merge(m) if key in self.tallies else m
                self.exact[key] = self.exact.get(key, 0) + part.exact[key]
            for name, d in part.depth.items():
                old = self.sums.get(name)
                self.sums[name] = (
                    d if old is None else _DepthSums(old.total + d.total, old.squares + d.squares)
                )
        for name, c in task.counts.items():
            self.counts[name] = c if name not in self.counts else self.counts[name].merge(c)
        return shoes

    def result(self) -> StudyResult:
        """The finished study."""
        spec = self.spec
        if self.next_block != spec.blocks or self.coups is None:
            raise StudyError("internal: a block of shoes is missing from the results")
        scales: dict[str, int] = {}
        bounds: dict[str, float] = {}
        per_coup = [s for s in spec.bets if s.kind != "streak"]
        if per_coup:
            built = [_bet_of(s) for s in per_coup]
            for kernel, members in kernels_for(built, spec.dealing.tableau):
                for col, j in enumerate(members):
                    scales[per_coup[j].name] = kernel.vectors[col].scale
                    bounds[per_coup[j].name] = kernel.bound[col]
        coups = self.coups.mean_of("coups")
        results = []
        cut_rows = []
        for src in spec.bets:
            name = src.name
            streak = src.kind == "streak"
            for key in _strategy_keys(spec, name):
                m = self.tallies[key]
                ev = not streak
                results.append(
                    StrategyResult(
                        name,
                        key[1],
                        spec.shoes,
                        coups,
                        m.mean_of("bets"),
                        m.ratio_of("bets", "coups"),
                        m.ratio_of("ev", "bets") if ev else None,
                        m.mean_of("ev") if ev else None,
                        _scaled(m.ratio_of("ev", "coups"), 100.0) if ev else None,
                        m.ratio_of("realised", "bets"),
                        m.mean_of("realised"),
                        _scaled(m.ratio_of("realised", "coups"), 100.0),
                        self.exact[key],
                        m.mean_of("opportunities") if streak else None,
                        key[2],
                    )
                )
            if not streak:
                est = self.tallies[(name, "flat", None)].ratio_of("ev", "coups")
                assert est is not None

                full = price(_bet_of(src), Shoe.standard(spec.dealing.decks), spec.dealing.tableau).ev
                cut_rows.append(CutCardRow(name, full, est, Estimate(est.value - float(full), est.se)))
        depth_rows: list[DepthRow] = []
        for src in per_coup:
            depth_rows += _depth_rows(src.name, self.sums[src.name], self.counts[src.name], spec.depth_bin)
        return StudyResult(
            spec, tuple(results), tuple(depth_rows), tuple(cut_rows), bounds, self.coups.mean_of("voids")
        )


# -- running ---------------------------------------------------------------------------------------


Progress = Callable[[int, int], None]


def _tasks(spec: StudySpec, workers: int) -> Iterator[list[int]]:
    """Contiguous runs of blocks, about eight per worker and at most 40 blocks each, made as
    they are needed (the partition never changes a result)."""
    n = spec.blocks
    per = max(1, min(40, n // max(1, 8 * workers)))
    for i in range(0, n, per):
        yield list(range(i, min(n, i + per)))


def execute(
    spec: StudySpec,
    *,
    workers: int | str = 1,
    scheduler: str | Any | None = None,
    progress: Progress | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT,
) -> StudyResult:
    """Run ``spec`` in this process (``workers`` = 1), on ``workers`` local processes
    (``"auto"``: the free cores, :func:`analyzer.studies.workers.free_cores`), or on a Dask
    distributed cluster (``scheduler``: its address, or a ``distributed.Client``; its answer is
    awaited ``scheduler_timeout`` seconds).  Memory stays fixed whatever the number of shoes.

    Raises:
        StudyError: bad ``workers`` (at most :func:`analyzer.studies.workers.worker_limit`;
            not checked with a ``scheduler``); the cluster cannot be reached, is not a Dask
            scheduler, has no worker, or dask is not installed.
    """

    # local workers: checked and capped (ignored on a cluster); a process per block at most
    count = 1 if scheduler is not None else min(check_workers(workers), spec.blocks)
    reduction = _Reduction(spec)
    done = 0
    results = ordered_map(
        run_blocks, spec, _tasks(spec, count), workers=count, scheduler=scheduler, timeout=scheduler_timeout
    )
    with contextlib.closing(results):  # type: ignore[type-var]
        for task in results:
            done += reduction.add(task)
            if progress is not None:
                progress(done, spec.shoes)
    return reduction.result()


def run_study(
    bets: Sequence[str | Bet | BetSource] = ("dragon-7",),
    *,
    bet_files: Sequence[str] = (),
    shoes: int = 10_000,
    seed: int = 0,
    strategies: Sequence[str] = ("perfect",),
    decks: int = 8,
    cut_card: int = 14,
    burn: str = "standard",
    end_rule: str = "jacobson",
    tableau: Tableau = STANDARD,
    min_edge: str | Fraction | int = 0,
    tags: str | Sequence[int] | None = None,
    bet_when: str | None = None,
    initial_count: int = 0,
    true_count: str | TrueCount | Sequence[str | TrueCount] | None = None,
    depth_bin: int = 26,
    block: int = BLOCK,
    workers: int | str = 1,
    scheduler: str | Any | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT,
    progress: Progress | None = None,
) -> StudyResult:
    """Deal ``shoes`` seeded shoes and study each bet under each strategy (module docstring).

    Args:
        bets: catalogue specs (``"dragon-7"``, ``"tie:9"``, ``"banker-streak:2"``) or Bet objects.
        bet_files: TOML bet files (every bet in each).
        shoes / seed: how many shoes; the seed (shoe i is the same for a seed whatever else).
        strategies: any of ``perfect``, ``count``, ``flat``.
        decks / cut_card / burn / end_rule / tableau: the dealing (:class:`Dealing`).
        min_edge: perfect play bets when EV > this (units per unit staked, or ``"1%"``).
        tags / bet_when / initial_count: the count (``--tags``, ``--bet-when rc>=32|tc>=7``).
        true_count: how a ``tc`` trigger's true count is kept (``exact``, ``floor``, ``round``,
            ``half-deck``, ... :mod:`analyzer.studies.counting`), or several, each a row of its
            own; the exact convention's row is added beside them.
        depth_bin: cards per depth bin of the EV-by-depth table.
        block: shoes per block of work, at most :data:`MAX_BLOCK` (part of the settings: float
            sums follow the blocks).
        workers / scheduler / scheduler_timeout: local processes (a number, or ``"auto"``), or a
            Dask scheduler address (or Client) and how long to await its answer (seconds).
        progress: called with (shoes done, shoes) after each piece of work.

    Raises:
        StudyError / BetError / RulesError: a bad setting; the message names it.

    >>> r = run_study(["dragon-7"], shoes=20, seed=1, strategies=["perfect", "flat"])
    >>> [(x.bet, x.strategy) for x in r.results]
    [('dragon-7', 'perfect'), ('dragon-7', 'flat')]
    """
    spec = make_spec(
        bets,
        bet_files=bet_files,
        shoes=shoes,
        seed=seed,
        strategies=strategies,
        decks=decks,
        cut_card=cut_card,
        burn=burn,
        end_rule=end_rule,
        tableau=tableau,
        min_edge=min_edge,
        tags=tags,
        bet_when=bet_when,
        initial_count=initial_count,
        true_count=true_count,
        depth_bin=depth_bin,
        block=block,
    )
    return execute(
        spec, workers=workers, scheduler=scheduler, progress=progress, scheduler_timeout=scheduler_timeout
    )
