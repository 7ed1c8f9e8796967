"""The hand-log reader: a log file or its lines into :class:`Record` objects, one per coup.

A *hand log* lists coups in the order they were dealt, one record per coup, in CSV or JSON Lines
(format: docs/checks.md, "Hand-log format").  Each record gives the cards in dealing order (``cards``) and/or
the two hands (``player``, ``banker``), and optionally what the implementation claimed: the
final totals, the winner, and the amount it settled for named bets on a stake (each bet's
``bet:NAME`` column or ``bets`` entry, read as a :class:`ClaimedBet`).  :mod:`analyzer.checks.verify`
checks the records; :func:`analyzer.checks.conform.tally_log` tallies them.

Streaming: records are read and dropped one at a time (constant memory); amounts are parsed
exactly (``Fraction`` from the decimal text, never through a float) and bounded
(:func:`analyzer.core.exact.parse_exact`: at most 80 characters, exponent at most 30), so no input
number can make the arithmetic explode.

What is unreadable input (a :class:`~analyzer.errors.LogError` naming the line):

* A claimed total that is a whole number is a *claim* (``12`` or ``-1`` is read, and reported
  by the check); a total that is not a whole number (``1.5``, ``abc``) or has more than 80
  digits is malformed.
* A bet name that is neither a catalogue bet nor one of the bets from files given
  (:class:`~analyzer.bets.choice.FileBets`), a settled amount without a stake, a bad amount.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from os import PathLike
from pathlib import Path

from analyzer.bets.choice import NO_FILE_BETS, FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.logs import (
    MAX_LINE_CHARS,
    csv_rows,
    exact_amount,
    jsonl_objects,
    show,
    text_lines,
    whole_number,
    winner_of,
)
from analyzer.core.cards import Card, parse_card
from analyzer.core.coup import Winner
from analyzer.core.exact import MAX_NUMBER_CHARS
from analyzer.errors import AnalyzerError, LogError
from analyzer.limits import LIMIT_CEILING

#: Log formats by file extension.
LOG_FORMATS: dict[str, str] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}

#: CSV columns (and JSON keys) the reader understands; ``bet:NAME`` and ``stake:NAME`` too.
KNOWN_FIELDS = (
    "cards",
    "player",
    "banker",
    "player_total",
    "banker_total",
    "winner",
    "stake",
    "shoe",
    "new_shoe",
    "burn",
    "id",
)
#: At most this many unknown field names are noted (a log whose every line names a new one
#: keeps constant memory).
MAX_IGNORED = 20

@dataclass(frozen=True)
class ClaimedBet:
    """A bet settled by the implementation: ``paid`` on ``stake`` (both exact), for catalogue
    bet ``spec`` (``NAME`` or ``NAME:PARAM``, e.g. ``banker:4``)."""

    spec: str
    bet: Bet
    stake: Fraction
    paid: Fraction


@dataclass(slots=True)
class Record:
    """One record of a hand log.

    ``number`` counts records from 1 (header and blank lines excluded); ``line`` is the line
    it starts on.  ``cards`` are the cards in dealing order, ``player`` / ``banker`` the hands
    the implementation dealt (2 or 3 cards each), ``None`` when the log does not say.  A record
    with neither cards nor hands is a marker (``new_shoe`` and/or ``burn`` only), not a coup.
    """

    number: int
    line: int
    cards: tuple[Card, ...] | None = None
    player: tuple[Card, ...] | None = None
    banker: tuple[Card, ...] | None = None
    player_total: int | None = None
    banker_total: int | None = None
    winner: Winner | None = None
    bets: tuple[ClaimedBet, ...] = ()
    shoe_id: str | None = None
    new_shoe: bool = False
    burn: tuple[Card, ...] = ()
    coup_id: str | None = None

    @property
    def is_coup(self) -> bool:
        """True unless the record is only a new-shoe or burn marker."""
        return self.cards is not None or self.player is not None or self.banker is not None


#: How many distinct amounts (as written) and claims (bet, stake, amount settled) are
#: remembered, the least recently used dropped first: every cache is bounded, so memory stays
#: flat however long the log and however many different bets it names.
AMOUNT_CACHE_SIZE = 1024
CLAIM_CACHE_SIZE = 1024
#: Card tokens remembered (the first ones seen; cards are few, and kept for the log's life).
_CARD_CACHE_LIMIT = 4096
_CARD_CACHE: dict[str, Card] = {}
#: (point value, rank index, suit index or -1) of each card object held in ``_CARD_CACHE``, by
#: ``id``: those cards live as long as the module, so their ids are never reused.
_META: dict[int, tuple[int, int, int]] = {}


def card_meta(card: Card) -> tuple[int, int, int]:
    """(point value, rank index, suit index or -1) of ``card``: looked up for a card the reader
    parsed (cards of a log are few), computed otherwise."""
    found = _META.get(id(card))
    if found is None:
        return card.point, card.rank.index, card.suit.index if card.suit is not None else -1
    return found


def _cards(value: object, what: str, line: int) -> tuple[Card, ...]:
    if isinstance(value, str):
        tokens = value.replace(",", " ").split()
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        tokens = value
    else:
        raise LogError(
            f"line {line}: bad {what} {show(value)}: give cards as text such as '2 4 3 10 6 A' "
            "or a list of card strings"
        )
    out = []
    for token in tokens:
        card = _CARD_CACHE.get(token)
        if card is None:
            try:
                card = parse_card(token)
            except AnalyzerError as exc:
                raise LogError(f"line {line}: {what}: {exc}") from None
            if len(_CARD_CACHE) < _CARD_CACHE_LIMIT:
                _CARD_CACHE[token] = card
                _META[id(card)] = card_meta(card)
        out.append(card)
    return tuple(out)


@functools.lru_cache(maxsize=AMOUNT_CACHE_SIZE)
def _text_amount(text: str, what: str) -> Fraction:
    """An amount written as text (remembered: a log repeats its stakes and payouts)."""
    return exact_amount(text, what, LogError)


def _amount(value: object, what: str) -> Fraction:
    """An exact amount from a log value (text or a JSON number).

    Raises:
        LogError: not such a number (the caller adds the line).
    """
    return _text_amount(value, what) if isinstance(value, str) else exact_amount(value, what, LogError)


_TOTALS = {str(t): t for t in range(10)}


def _total(value: object, what: str, line: int) -> int:
    """A claimed total: any whole number (one outside 0..9 is a claim, reported as a discrepancy
    by the check); anything else, or more than 80 digits, is malformed."""
    found = _TOTALS.get(value) if isinstance(value, str) else None
    if found is not None:
        return found
    number = whole_number(value, signed=True)
    if number is not None:
        return number
    raise LogError(
        f"line {line}: bad {what} {show(value)}: use a whole number such as 0..9 "
        f"(at most {MAX_NUMBER_CHARS} digits)"
    )


def _winner(value: object, line: int) -> Winner:
    found = winner_of(value) if isinstance(value, str) else None
    if found is None:
        raise LogError(f"line {line}: bad winner {show(value)}: use player, banker or tie (or P, B, T)")
    return found


def _flag(value: object, what: str, line: int) -> bool:
    if isinstance(value, bool):
        return value
    text = value.strip().lower() if isinstance(value, str) else value
    if text in ("1", "true", "yes", "y", 1):
        return True
    if text in ("", "0", "false", "no", "n", 0):
        return False
    raise LogError(f"line {line}: bad {what} {show(value)}: use true/false, yes/no or 1/0")


def _bet(spec: str, line: int, file_bets: FileBets) -> Bet:
    try:
        return lookup_bet(spec, file_bets)
    except AnalyzerError as exc:
        raise LogError(f"line {line}: {exc}") from None


@functools.lru_cache(maxsize=CLAIM_CACHE_SIZE, typed=True)
def _claim(file_bets: FileBets, spec: str, stake: object, paid: object) -> ClaimedBet:
    """:func:`_make_claim`, remembered (bounded) by the bets from files too: ``file_bets`` is
    hashed by identity, so a name means the bet of the files given with that log, never a bet
    of another log's files.

    Raises:
        TypeError: ``stake`` or ``paid`` cannot be hashed (the caller then calls
            :func:`_make_claim` itself); AnalyzerError as :func:`_make_claim`.
    """
    return _make_claim(file_bets, spec, stake, paid)


def _make_claim(file_bets: FileBets, spec: str, stake: object, paid: object) -> ClaimedBet:
    """The claim that bet ``spec`` on ``stake`` settled ``paid``.

    Raises:
        AnalyzerError: an unknown bet, no stake, a stake not above 0, a bad amount (the caller
            adds the line).
    """
    bet = lookup_bet(spec, file_bets)
    if stake is None:
        raise LogError(
            f"bet {spec!r} has a settled amount but no stake: add a 'stake' column (or 'stake:{spec}')"
        )
    amount_stake = _amount(stake, f"stake of {spec}")
    if amount_stake.numerator <= 0:
        raise LogError(f"bad stake {show(stake)} for {spec}: a stake must be greater than 0")
    return ClaimedBet(spec, bet, amount_stake, _amount(paid, f"amount settled for {spec}"))


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and (not value or value.isspace()))


def _build(
    number: int,
    line: int,
    fields: dict[str, object],
    bets: Sequence[tuple[str, object, object]],
    file_bets: FileBets,
) -> Record:
    """A record from the fields given (blank ones left out) and bets as (spec, stake, paid),
    their names looked up among ``file_bets`` and the catalogue."""
    claimed: list[ClaimedBet] = []
    get = fields.get
    default_stake = get("stake")
    for spec, stake, paid in bets:
        if _blank(paid):
            continue
        stake_value = default_stake if _blank(stake) else stake
        try:
            try:
                claim = _claim(file_bets, spec, stake_value, paid)
            except TypeError:  # a list or an object as an amount: not hashable, not remembered
                claim = _make_claim(file_bets, spec, stake_value, paid)
        except AnalyzerError as exc:
            raise LogError(f"line {line}: {exc}") from None
        claimed.append(claim)

    cards, player, banker = get("cards"), get("player"), get("banker")
    pt, bt, win = get("player_total"), get("banker_total"), get("winner")
    shoe_id, new_shoe, burn, coup_id = get("shoe"), get("new_shoe"), get("burn"), get("id")
    for what, ident in (("shoe", shoe_id), ("id", coup_id)):
        if ident is not None and (isinstance(ident, bool) or not isinstance(ident, str | int | Decimal)):
            raise LogError(f"line {line}: bad {what} {show(ident)}: give an id as text or a number")
    return Record(
        number,
        line,
        _cards(cards, "cards", line) if cards is not None else None,
        _cards(player, "player", line) if player is not None else None,
        _cards(banker, "banker", line) if banker is not None else None,
        _total(pt, "player_total", line) if pt is not None else None,
        _total(bt, "banker_total", line) if bt is not None else None,
        _winner(win, line) if win is not None else None,
        tuple(claimed),
        str(shoe_id) if shoe_id is not None else None,
        _flag(new_shoe, "new_shoe", line) if new_shoe is not None else False,
        _cards(burn, "burn", line) if burn is not None else (),
        str(coup_id) if coup_id is not None else None,
    )


def detect_format(path: str, log_format: str | None = None) -> str:
    """``"csv"`` or ``"jsonl"``: ``log_format`` if given, else from the file extension
    (``.csv``; ``.jsonl``, ``.ndjson``, ``.json``).

    Raises:
        LogError: an unknown format or extension.
    """
    if log_format is not None:
        if not isinstance(log_format, str) or log_format not in ("csv", "jsonl"):
            raise LogError(f"bad log format {show(log_format)}: use csv or jsonl")
        return log_format
    if not isinstance(path, str | PathLike):
        raise LogError(f"bad log path {show(path)}: give a file name")
    found = LOG_FORMATS.get(Path(path).suffix.lower())
    if found is None:
        raise LogError(
            f"cannot tell the format of {path!r} from its extension: name it .csv or .jsonl "
            "(or .ndjson), or pass --log-format csv|jsonl"
        )
    return found


def read_records(
    stream: Iterable[str],
    log_format: str,
    progress: Callable[[int], None] | None = None,
    ignored: list[str] | None = None,
    *,
    name: str | None = None,
    max_line: int = MAX_LINE_CHARS,
    file_bets: FileBets = NO_FILE_BETS,
) -> Iterator[Record]:
    """Parse a hand log line by line into :class:`Record` objects (streaming, through the shared
    reader :func:`analyzer.checks.logs.text_lines`).

    ``progress``, if given, is called now and then with the number of characters read since
    its last call.  Unknown CSV columns / JSON keys are skipped and their names appended to
    ``ignored`` (once each, at most :data:`MAX_IGNORED` names).  ``name`` is how errors name
    the log (default: the stream's file name); a line longer than ``max_line`` characters
    stops the run.  ``bet:NAME`` columns and ``bets`` objects name catalogue bets or bets of
    ``file_bets`` (:class:`~analyzer.bets.choice.FileBets`, e.g. from ``--bet-file``).

    Raises:
        LogError: unreadable input; the message gives the line number (and, for a line over
            the limit, the file and the limit).
    """
    if isinstance(stream, str):  # the whole log as one text
        stream = stream.splitlines(keepends=True)
    if isinstance(stream, bytes | bytearray) or not isinstance(stream, Iterable):
        raise LogError(
            f"cannot read a hand log from {type(stream).__name__}: give a text file "
            "(open_log) or lines of text"
        )
    if not isinstance(log_format, str):
        raise LogError(f"bad log format {show(log_format)}: use csv or jsonl")
    if isinstance(max_line, bool) or not isinstance(max_line, int) or not 1 <= max_line <= LIMIT_CEILING:
        raise LogError(
            f"bad line-length limit {show(max_line)}: use a whole number from 1 to {LIMIT_CEILING:,}"
        )
    if not isinstance(file_bets, FileBets):
        raise LogError(f"bad bets from files {show(file_bets)}: give a FileBets (FileBets.of(bets))")
    lines = text_lines(stream, LogError, name=name, max_line=max_line, progress=progress)
    if log_format == "csv":
        yield from _read_csv(lines, ignored, file_bets)
    elif log_format == "jsonl":
        yield from _read_jsonl(lines, ignored, file_bets)
    else:
        raise LogError(f"bad log format {log_format!r}: use csv or jsonl")


def _note_ignored(ignored: list[str] | None, name: str) -> None:
    """Add ``name`` to the unknown fields noted, once, keeping at most :data:`MAX_IGNORED`."""
    if ignored is not None and name not in ignored and len(ignored) < MAX_IGNORED:
        ignored.append(name)


def _read_csv(lines: Iterable[str], ignored: list[str] | None, file_bets: FileBets) -> Iterator[Record]:
    rows = csv_rows(lines, LogError)
    head = next(rows, None)
    if head is None:
        return
    header = head[1]
    names = [h.strip().lower() for h in header]
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        if not name:
            continue  # unnamed columns (e.g. a trailing comma) are ignored
        key = name
        if name.startswith(("bet:", "stake:")):
            kind, _, spec = name.partition(":")
            key = f"{kind}:{spec.strip()}"
        if key in first:
            j = first[key]
            same = (
                repr(header[j].strip())
                if header[j].strip() == header[i].strip()
                else f"{header[j].strip()!r} and {header[i].strip()!r}"
            )
            raise LogError(
                f"line 1: the column {same} appears twice (columns {j + 1} and {i + 1}): "
                "give each column once"
            )
        first[key] = i
    if "cards" not in names and not ("player" in names and "banker" in names):
        raise LogError(
            f"line 1: the header {','.join(header)!r} needs a 'cards' column (cards in dealing "
            "order) or both 'player' and 'banker' columns"
        )
    plain: list[tuple[int, str]] = []
    bet_cols: dict[str, int] = {}
    stake_cols: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in KNOWN_FIELDS:
            plain.append((i, name))
        elif name.startswith("bet:") and name[4:].strip():
            bet_cols[name[4:].strip()] = i
        elif name.startswith("stake:") and name[6:].strip():
            stake_cols[name[6:].strip()] = i
        else:
            _note_ignored(ignored, header[i])
    for spec in stake_cols:
        if spec not in bet_cols:
            raise LogError(f"line 1: column 'stake:{spec}' has no matching 'bet:{spec}' column")
    for spec in bet_cols:
        _bet(spec, 1, file_bets)
    width = len(names)
    number = 0
    for line, row in rows:
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if len(row) != width:
            raise LogError(f"line {line}: {len(row)} fields where the header has {width}")
        number += 1
        fields: dict[str, object] = {name: row[i] for i, name in plain if row[i] and not row[i].isspace()}
        bets = [
            (spec, row[stake_cols[spec]] if spec in stake_cols else None, row[i])
            for spec, i in bet_cols.items()
        ]
        yield _build(number, line, fields, bets, file_bets)


def _read_jsonl(lines: Iterable[str], ignored: list[str] | None, file_bets: FileBets) -> Iterator[Record]:
    for number, (line_no, obj) in enumerate(jsonl_objects(lines, LogError), 1):
        raw_bets = obj.get("bets")
        raw_bets = {} if raw_bets is None else raw_bets
        if not isinstance(raw_bets, dict):
            raise LogError(
                f'line {line_no}: \'bets\' must map bet names to {{"stake": ..., "paid": ...}} '
                "or to the amount paid"
            )
        bets: list[tuple[str, object, object]] = []
        for spec, settled in raw_bets.items():
            if isinstance(settled, dict):
                extra = sorted(set(settled) - {"stake", "paid"})
                if extra:
                    raise LogError(
                        f"line {line_no}: bet {spec!r}: unknown key {show(extra[0])}: give "
                        '{"stake": ..., "paid": ...}'
                    )
                if "paid" not in settled:
                    raise LogError(
                        f'line {line_no}: bet {spec!r}: no \'paid\': give {{"stake": ..., "paid": ...}}'
                    )
                bets.append((str(spec).strip(), settled.get("stake"), settled["paid"]))
            else:
                bets.append((str(spec).strip(), None, settled))
        if ignored is not None:
            for key in obj:
                if key not in KNOWN_FIELDS and key != "bets":
                    _note_ignored(ignored, key)
        yield _build(number, line_no, {k: v for k, v in obj.items() if not _blank(v)}, bets, file_bets)


__all__ = [
    "AMOUNT_CACHE_SIZE",
    "CLAIM_CACHE_SIZE",
    "KNOWN_FIELDS",
    "LOG_FORMATS",
    "MAX_IGNORED",
    "ClaimedBet",
    "Record",
    "card_meta",
    "detect_format",
    "read_records",
]
