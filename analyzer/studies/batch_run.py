"""The batch over a file of shoes (``punto-banco batch``): shoes read in chunks from CSV or JSON
Lines, each chunk's exact EVs (:func:`analyzer.engine.batch.batch_ev`) in this process, on local
worker processes or on a Dask cluster (:func:`analyzer.studies.workers.ordered_map`), in the
order of the file.

* **A file of shoes.**  One shoe a row: 13 rank counts (A, 2, ..., 9, 10, J, Q, K) or 52 suited
  counts, rank-major (As, Ah, Ad, Ac, 2s, ...), every row as many as the first.  CSV may start
  with a header naming its columns (ranks, or cards such as ``Kh``; each once, in any order; a
  first row holding a letter is a header); without one the columns are in the order above.
  JSON Lines: a JSON array of the counts a line.  Blank lines are skipped; a shoe is numbered
  by its row (1 for the first), and every error names the row and the line it is on
  (:class:`~analyzer.errors.ShoeFileError`).
* **Fixed memory.**  Shoes are read a chunk at a time (:func:`chunk_size`: about
  :data:`ROWS_PER_CHUNK` shoe-and-bet results a chunk) and only a bounded window of chunks is in
  flight (:mod:`analyzer.studies.workers`), whatever the number of shoes.
* **Workers rebuild the bets.**  A bet is not picklable (its pays are functions): a
  :class:`BatchSpec` carries where each bet comes from (:class:`BetSource`: a catalogue spec, or
  a bet file's text and the bet's place in it), and a worker rebuilds the bets once
  (:meth:`BatchSpec.built`).  The results are exact integers, so they do not depend on where a
  chunk ran, nor on how the shoes were chunked.
"""

from __future__ import annotations

import csv
import json
import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.bets.catalogue import bet_key, catalogue_bets, find_bet, main_bets
from analyzer.bets.choice import bet_from_module, choose, module_bets, split_file_spec
from analyzer.bets.files import parse_bets, read_bet_text
from analyzer.bets.model import Bet
from analyzer.checks.logs import json_loads, text_lines
from analyzer.core.cards import parse_card, parse_rank
from analyzer.core.exact import MAX_NUMBER_CHARS, whole_number
from analyzer.core.shoe import MIN_CARDS
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.batch import batch_ev
from analyzer.errors import BetError, ShoeFileError
from analyzer.limits import MAX_BETS_PER_FILE, MAX_LINE_CHARS
from analyzer.studies.workers import SCHEDULER_TIMEOUT, check_workers, ordered_map

#: The formats of a file of shoes.
SHOE_FORMATS = ("csv", "jsonl")
#: Shoe-and-bet results a chunk of shoes aims at (its output is held in memory until written).
ROWS_PER_CHUNK = 16_384
#: The fewest and the most shoes in a chunk (the batch's vectorised step is 64 shoes).
MIN_CHUNK = 64
MAX_CHUNK = 4_096
#: Counts at or above this are kept as Python ints (sums of 52 of them must fit int64).
_SMALL = 2**56
#: A CSV row of plain digits: read without the csv module (each count under 10**18).
_PLAIN = re.compile(r"\d{1,18}(?:,\d{1,18})*")
#: Counts from JSON are bounded as every number is read (at most MAX_NUMBER_CHARS digits).
_LARGEST = 10**MAX_NUMBER_CHARS
_RANK_NAMES = "A, 2, ..., 9, 10, J, Q, K"
_CARD_NAMES = "As, Ah, Ad, Ac, 2s, ..., Kc"


def chunk_size(bets: int) -> int:
    """Shoes in a chunk for ``bets`` bets: about :data:`ROWS_PER_CHUNK` results, a multiple of
    :data:`MIN_CHUNK`, from :data:`MIN_CHUNK` to :data:`MAX_CHUNK`.

    >>> chunk_size(80), chunk_size(3), chunk_size(1000)
    (192, 4096, 64)
    """
    return max(MIN_CHUNK, min(MAX_CHUNK, ROWS_PER_CHUNK // max(bets, 1) // MIN_CHUNK * MIN_CHUNK))


def shoe_format(path: str, given: str | None = None) -> str:
    """The format of a file of shoes: ``given`` (``csv`` or ``jsonl``), else by the name's
    extension (``.jsonl``, ``.ndjson``: JSON Lines; anything else, and standard input: CSV).

    Raises:
        ShoeFileError: an unknown ``given`` format.
    """
    if given is not None:
        fmt = given.strip().lower()
        if fmt not in SHOE_FORMATS:
            raise ShoeFileError(f"bad shoe file format {given!r}: use csv or jsonl")
        return fmt
    return "jsonl" if path.lower().endswith((".jsonl", ".ndjson")) else "csv"


@dataclass(frozen=True)
class ShoeChunk:
    """Consecutive shoes of a file: ``counts`` an (n, 13) or (n, 52) array (int64, or Python ints
    when a count is too large for int64 sums), its first shoe numbered ``first`` (1 for the
    file's first), and ``end`` the characters of the file read through its last row (for a
    progress bar)."""

    first: int
    counts: Any
    end: int

    @property
    def shoes(self) -> int:
        """Shoes in the chunk."""
        return int(self.counts.shape[0])


def _counts_array(rows: list[list[int]]) -> Any:
    try:
        arr = np.asarray(rows, dtype=np.int64)
    except OverflowError:
        return np.asarray(rows, dtype=object)
    return arr if int(arr.max(initial=0)) < _SMALL else np.asarray(rows, dtype=object)


class _Rows:
    """The checks every row passes, whatever the format: its width (13 or 52, as the first
    row's), at least :data:`~analyzer.core.shoe.MIN_CARDS` cards, no suit-reading bet on rank
    counts."""

    def __init__(self, name: str, suits_for: str | None) -> None:
        self.name = name
        self.suits_for = suits_for
        self.width = 0
        self.order: list[int] | None = None  # a header's column of each count, when not in order
        self.row = 0

    def where(self, line: int) -> str:
        return f"{self.name}, row {self.row} (line {line})"

    def fail(self, line: int, what: str) -> ShoeFileError:
        return ShoeFileError(f"{self.where(line)}: {what}")

    def set_width(self, width: int, line: int, header: bool = False) -> None:
        if width not in (13, 52):
            what = "a header of" if header else "a row of"
            raise ShoeFileError(
                f"{self.name}, line {line}: {what} {width} column{'s' if width != 1 else ''}: a shoe "
                "is 13 rank counts "
                f"({_RANK_NAMES}) or 52 suited counts ({_CARD_NAMES})"
            )
        if width == 13 and self.suits_for is not None:
            raise ShoeFileError(
                f"{self.name}, line {line}: the bet {self.suits_for} reads suits: give 52 suited "
                f"counts a row ({_CARD_NAMES}), not 13 rank counts"
            )
        self.width = width

    def checked(self, values: list[int], line: int) -> list[int]:
        """``values`` (whole numbers >= 0) as a shoe in canonical order."""
        if len(values) != self.width:
            raise self.fail(line, f"{len(values)} counts where the rows before hold {self.width}")
        if self.order is not None:
            values = [values[i] for i in self.order]
        if sum(values) < MIN_CARDS:
            raise self.fail(
                line, f"a shoe of {sum(values)} cards cannot deal a coup: it needs at least {MIN_CARDS}"
            )
        return values

    def header(self, fields: list[str], line: int) -> None:
        """The columns a CSV header names: each rank, or each card, once."""
        self.set_width(len(fields), line, header=True)
        order: list[int] = [-1] * self.width
        for column, text in enumerate(fields):
            try:
                card = parse_card(text) if self.width == 52 else None
                rank = card.rank if card is not None else parse_rank(text)
            except ValueError:
                card, rank = None, None
            if rank is None or (self.width == 52 and (card is None or card.suit is None)):
                names = _CARD_NAMES if self.width == 52 else _RANK_NAMES
                raise ShoeFileError(
                    f"{self.name}, line {line}: the header's column {column + 1} {text.strip()!r} "
                    f"is not a {'card' if self.width == 52 else 'rank'}: name each of {names} once "
                    "(or give no header: the counts in that order)"
                )
            suit = card.suit if card is not None else None
            at = rank.index * 4 + suit.index if suit is not None else rank.index
            if order[at] >= 0:
                raise ShoeFileError(
                    f"{self.name}, line {line}: the header names {text.strip()!r} twice "
                    f"(columns {order[at] + 1} and {column + 1})"
                )
            order[at] = column
        self.order = None if order == list(range(self.width)) else order


def _csv_values(fields: list[str], rows: _Rows, line: int) -> list[int]:
    values = []
    for column, text in enumerate(fields):
        number = whole_number(text)
        if number is None:
            shown = text.strip()
            shown = shown if len(shown) <= 24 else f"{shown[:12]}...{shown[-6:]} ({len(shown):,} characters)"
            raise rows.fail(
                line,
                f"column {column + 1}: {shown!r} is not a count (a whole number >= 0, digits 0-9, "
                f"at most {MAX_NUMBER_CHARS} of them)",
            )
        values.append(number)
    return values


def _csv_fields(text: str, number: int) -> list[str]:
    """The cells of one CSV line (a row of a file of shoes is one line)."""
    try:
        return next(csv.reader([text]), [])
    except csv.Error as exc:
        raise ShoeFileError(f"line {number}: {exc} (a row of counts is one line)") from None


def _csv_shoes(lines: Iterable[tuple[str, int]], rows: _Rows) -> Iterator[tuple[list[int], int]]:
    """The shoes of CSV lines ``(text, line number)``: plain rows of digits quickly, any other
    through the csv module (quoted cells, spaces)."""
    first = True
    for text, number in lines:
        plain = text.rstrip("\r\n")
        if _PLAIN.fullmatch(plain):
            fields = plain.split(",")
            if first:
                rows.set_width(len(fields), number)
                first = False
            rows.row += 1
            yield rows.checked([int(x) for x in fields], number), number
            continue
        fields = _csv_fields(text, number)
        if not any(f.strip() for f in fields):
            continue  # a blank line
        if first:
            first = False
            if any(c.isalpha() for f in fields for c in f):  # rank and card names hold letters
                rows.header(fields, number)
                continue
            rows.set_width(len(fields), number)
        rows.row += 1
        yield rows.checked(_csv_values(fields, rows, number), number), number


def _json_shoes(lines: Iterable[tuple[str, int]], rows: _Rows) -> Iterator[tuple[list[int], int]]:
    """The shoes of JSON Lines: a JSON array of whole numbers a line."""
    first = True
    for text, number in lines:
        if not text.strip():
            continue
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = None
        plain = (
            isinstance(value, list)
            and all(type(x) is int and 0 <= x < _LARGEST for x in value)
        )
        rows.row += 1
        if not plain:
            value = json_loads(text, ShoeFileError, number, "a line is a JSON array of counts")
            if not isinstance(value, list):
                raise rows.fail(
                    number, f"a JSON {type(value).__name__}: each line is a JSON array of 13 or 52 counts"
                )
            for column, x in enumerate(value):
                if whole_number(x) is None:
                    raise rows.fail(
                        number,
                        f"item {column + 1}: {json.dumps(x, default=str)[:40]} is not a count (a whole "
                        f"number >= 0, at most {MAX_NUMBER_CHARS} digits)",
                    )
        if first:
            rows.set_width(len(value), number)
            first = False
        yield rows.checked(value, number), number


def read_chunks(
    stream: Iterable[str],
    fmt: str = "csv",
    *,
    shoes: int = MAX_CHUNK,
    name: str = "the shoe file",
    max_line: int = MAX_LINE_CHARS,
    suits_for: str | None = None,
) -> Iterator[ShoeChunk]:
    """The shoes of a file of shoes (module docstring), ``shoes`` at a time (the last chunk may
    hold fewer), as they are read.

    Args:
        stream: the file (opened by :func:`analyzer.checks.logs.open_log`), or lines of text.
        fmt: ``csv`` or ``jsonl``.
        shoes: shoes a chunk.
        name: how errors name the file.
        max_line: the longest line read (a longer one is an error naming the file and limit).
        suits_for: the name of a bet that reads suits, if any: rank counts are then refused.

    Raises:
        ShoeFileError: a bad row, header or line (the message names the row and the line).
    """
    if fmt not in SHOE_FORMATS:
        raise ShoeFileError(f"bad shoe file format {fmt!r}: use csv or jsonl")
    if isinstance(shoes, bool) or not isinstance(shoes, int) or shoes < 1:
        raise ShoeFileError(f"bad chunk {shoes!r}: use a whole number of 1 or more shoes")
    rows = _Rows(name, suits_for)
    read = [0]

    def numbered() -> Iterator[tuple[str, int]]:
        for number, text in enumerate(text_lines(stream, ShoeFileError, name=name, max_line=max_line), 1):
            read[0] += len(text)
            yield text, number

    parse = _csv_shoes if fmt == "csv" else _json_shoes
    batch: list[list[int]] = []
    first = 1
    for values, _ in parse(numbered(), rows):
        batch.append(values)
        if len(batch) == shoes:
            yield ShoeChunk(first, _counts_array(batch), read[0])
            first += len(batch)
            batch = []
    if batch:
        yield ShoeChunk(first, _counts_array(batch), read[0])


# -- the bets, as workers rebuild them -------------------------------------------------------------


@dataclass(frozen=True)
class BetSource:
    """Where a bet comes from, for a worker to rebuild it: a catalogue spec (``kind``
    ``"catalogue"``, ``spec`` what :func:`~analyzer.bets.catalogue.find_bet` takes), the text of
    a bet file and the bet's place in it (``"file"``: ``spec`` the file's name, ``limit`` the
    most bets the file may hold), or a Bet object (``"object"``: on a cluster that can pickle
    it).  ``bet``, when known, is the bet itself: this process uses it; a pickled source of a
    catalogue or file bet leaves it behind, to be rebuilt."""

    kind: str
    spec: str
    text: str = ""
    index: int = 0
    limit: int = MAX_BETS_PER_FILE
    bet: Bet | None = field(default=None, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        kept = self.bet if self.kind == "object" else None
        return (BetSource, (self.kind, self.spec, self.text, self.index, self.limit, kept))

    def build(self) -> Bet:
        """The bet."""
        if self.bet is not None:
            return self.bet
        if self.kind == "catalogue":
            return find_bet(self.spec)
        if self.kind == "file":
            return parse_bets(self.text, self.spec, self.limit)[self.index]
        if self.kind == "module":
            return bet_from_module(self.spec)
        raise BetError(f"internal: no bet for the source {self.kind} {self.spec!r}")


def bet_sources(
    specs: Sequence[str] = (),
    files: Sequence[str] = (),
    *,
    all_bets: bool = False,
    max_bets: int = MAX_BETS_PER_FILE,
) -> tuple[BetSource, ...]:
    """The bets of ``--bet`` / ``--bet-file`` / ``--all`` as
    :func:`analyzer.bets.choice.choose` picks them (the main bets when none is named), each with
    where it comes from.

    Raises:
        BetError: what :func:`~analyzer.bets.choice.choose` refuses.
    """
    chosen = choose(specs, files, all_bets=all_bets, max_bets=max_bets).bets
    if not chosen:
        return tuple(BetSource("catalogue", b.name, bet=b) for b in main_bets())
    texts: dict[str, tuple[str, list[Bet]]] = {}

    def of_file(path: str) -> tuple[str, list[Bet]]:
        if path not in texts:
            text = read_bet_text(path)
            texts[path] = (text, parse_bets(text, path, max_bets))
        return texts[path]

    out: list[BetSource] = []
    if all_bets:
        out += [BetSource("catalogue", b.name) for b in catalogue_bets()]
    given = module_bets()
    python = {bet_key(b.name): s for s, b in zip(given.specs, given.bets, strict=True)}
    for spec in specs:
        picked = split_file_spec(spec)
        if picked is None:
            module = python.get(bet_key(spec))
            out.append(BetSource("catalogue", spec) if module is None else BetSource("module", module))
            continue
        text, bets = of_file(picked[0])
        index = next(i for i, b in enumerate(bets) if bet_key(b.name) == bet_key(picked[1]))
        out.append(BetSource("file", picked[0], text, index, max_bets))
    for path in files:
        text, bets = of_file(str(path))
        out += [BetSource("file", str(path), text, i, max_bets) for i in range(len(bets))]
    if given.chosen:
        out += [BetSource("module", spec) for spec in given.specs]
    if len(out) != len(chosen):
        raise BetError("internal: the bets' sources do not match the bets chosen")
    return tuple(
        BetSource(s.kind, s.spec, s.text, s.index, s.limit, bet)
        for s, bet in zip(out, chosen, strict=True)
    )


#: Bets rebuilt in this process, by their sources (a worker serves one batch at a time).
_BUILT: OrderedDict[tuple[BetSource, ...], tuple[Bet, ...]] = OrderedDict()


@dataclass(frozen=True)
class BatchSpec:
    """What a chunk's worker needs: the bets' sources and the tableau (picklable)."""

    bets: tuple[BetSource, ...]
    tableau: Tableau = STANDARD

    def built(self) -> tuple[Bet, ...]:
        """The bets (rebuilt once per process from their sources)."""
        if all(s.bet is not None for s in self.bets):
            return tuple(s.bet for s in self.bets if s.bet is not None)
        bets = _BUILT.get(self.bets)
        if bets is None:
            bets = _BUILT[self.bets] = tuple(s.build() for s in self.bets)
            if len(_BUILT) > 4:
                _BUILT.popitem(last=False)
        return bets

    @property
    def names(self) -> tuple[str, ...]:
        """The bets' machine names."""
        return tuple(b.name for b in self.built())

    @property
    def suits_for(self) -> str | None:
        """The name of the first bet that reads suits (it needs 52 suited counts), if any."""
        return next((b.name for b in self.built() if b.reads.needs_suits), None)


@dataclass(frozen=True)
class PricedChunk:
    """The exact EVs of a chunk: ``numerators[i][j] / (scales[j] * denominators[i])`` is the EV
    per unit staked of bet ``j`` on shoe ``first + i`` (``numerators`` an (n, bets) array of
    Python ints; ``denominators[i]`` = N!/(N-K)!, K = min(N, 6)); ``end`` as the chunk's."""

    first: int
    numerators: Any
    scales: tuple[int, ...]
    denominators: tuple[int, ...]
    end: int


def price_chunk(spec: BatchSpec, chunk: ShoeChunk) -> PricedChunk:
    """The exact EVs of ``spec``'s bets on the shoes of ``chunk`` (a worker's task)."""
    result = batch_ev(chunk.counts, spec.built(), tableau=spec.tableau)
    return PricedChunk(chunk.first, result.numerators, result.scales, result.denominators, chunk.end)


def run_batch(
    func: Any,
    job: Any,
    chunks: Iterable[ShoeChunk],
    *,
    workers: int | str = 1,
    scheduler: str | Any | None = None,
    timeout: float = SCHEDULER_TIMEOUT,
) -> Iterator[Any]:
    """``func(job, chunk)`` for each chunk (:func:`price_chunk` with a :class:`BatchSpec`, or a
    function that prices and formats), in the order of the chunks: in this process
    (``workers`` = 1), on local processes (a number, or ``"auto"``) or on a Dask cluster
    (``scheduler``: an address or a ``distributed.Client``).  Close it (``contextlib.closing``)
    or exhaust it: closing stops the workers.

    Raises:
        StudyError: bad ``workers``; the cluster cannot be reached, is not a Dask scheduler, has
            no worker, or dask is not installed.
    """
    count = 1 if scheduler is not None else check_workers(workers)
    return ordered_map(func, job, chunks, workers=count, scheduler=scheduler, timeout=timeout)


__all__ = [
    "MAX_CHUNK",
    "MIN_CHUNK",
    "ROWS_PER_CHUNK",
    "SHOE_FORMATS",
    "BatchSpec",
    "BetSource",
    "PricedChunk",
    "ShoeChunk",
    "bet_sources",
    "chunk_size",
    "price_chunk",
    "read_chunks",
    "run_batch",
    "shoe_format",
]
