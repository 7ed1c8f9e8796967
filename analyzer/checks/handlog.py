"""The hand-log reader: a log file or its lines into :class:`Record` objects, one per coup.

A *hand log* lists coups in the order they were dealt, one record per coup, in CSV or JSON Lines
(format: docs/checks.md, "Hand-log format").  Each record gives the cards in dealing order (``cards``) and/or
the two hands (``player``, ``banker``), and optionally what the implementation claimed: the
final totals, the winner, which sides had a natural, and the amount it settled for named bets
on a stake (each bet's ``bet:NAME`` column or ``bets`` entry, read as a :class:`ClaimedBet`).
:mod:`analyzer.checks.verify` checks the records; :func:`analyzer.checks.conform.tally_log`
tallies them.

A log written by another engine is read through :mod:`analyzer.checks.logmap`: the common
spellings of names and values that have one reading only, and a map (``--map FILE.toml``,
:class:`~analyzer.checks.logmap.LogMap`) for the rest: other column names, winner and natural
values, card tokens, the order of a ``cards`` field (``P P B B`` reaches the checks as ``P B P
B``), cards given as point values only.  :func:`read_records` returns a :class:`HandLog`, whose
:attr:`~HandLog.described` says in one line how the log was read.

Streaming: records are read and dropped one at a time (a look-ahead of at most
:data:`LOOKAHEAD_RECORDS` records and :data:`LOOKAHEAD_CHARS` characters, for the description);
amounts are parsed exactly (``Fraction`` from the decimal text, never through a float) and
bounded (:func:`analyzer.core.exact.parse_exact`: at most 80 characters, exponent at most 30),
so no input number can make the arithmetic explode.

What is unreadable input (a :class:`~analyzer.errors.LogError` naming the line):

* A claimed total that is a whole number is a *claim* (``12`` or ``-1`` is read, and reported
  by the check); a total that is not a whole number (``1.5``, ``abc``) or has more than 80
  digits is malformed.
* A bet name that is neither a catalogue bet nor one of the bets from files given
  (:class:`~analyzer.bets.choice.FileBets`), a settled amount without a stake, a bad amount.
* A name or a value with two readings: two columns that would be one field, a ``0`` card in a
  log that also names ten-valued ranks or suits; the message asks for a map.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from os import PathLike
from pathlib import Path

from analyzer.bets.choice import NO_FILE_BETS, FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.logmap import (
    ALIAS,
    KNOWN_FIELDS,
    NO_MAP,
    POINT,
    RANKED,
    LogMap,
    PointCard,
    Reading,
    card_token,
    describe,
    field_of,
    fold,
    natural_spelling,
    winner_spelling,
)
from analyzer.checks.logs import (
    MAX_LINE_CHARS,
    csv_rows,
    exact_amount,
    jsonl_objects,
    show,
    stream_name,
    text_lines,
    whole_number,
)
from analyzer.core.cards import Card
from analyzer.core.coup import Winner
from analyzer.core.exact import MAX_NUMBER_CHARS
from analyzer.errors import AnalyzerError, LogError
from analyzer.limits import LIMIT_CEILING

#: Log formats by file extension.
LOG_FORMATS: dict[str, str] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}
#: How a description names each format.
FORMAT_NAMES = {"csv": "CSV", "jsonl": "JSON Lines"}
#: At most this many unknown field names are noted (a log whose every line names a new one
#: keeps constant memory).
MAX_IGNORED = 20
#: How far a :class:`HandLog` reads ahead of the records taken, at most: so many records, and
#: records holding about so many characters (ids, and 8 for each card or bet: whichever
#: comes first), kept until they are taken.
LOOKAHEAD_RECORDS = 256
LOOKAHEAD_CHARS = 1_000_000
#: The hint of every message that asks for a map.
MAP_HINT = "give a map (--map FILE.toml) saying how the log writes it"


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
    ``natural`` is the claim of which sides have a natural: ``"none"``, ``"player"``,
    ``"banker"``, ``"both"`` (compare with :attr:`analyzer.core.coup.Coup.naturals`) or
    ``"either"`` (the log's ``true``: one side or both), ``None`` when not claimed.
    ``points_only`` is True when the log gives point values only: its ten-valued cards are
    :data:`~analyzer.checks.logmap.ZERO` (rank unknown), no card has a suit, and a bet that
    reads ranks or suits cannot be settled.
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
    natural: str | None = None
    points_only: bool = False

    @property
    def is_coup(self) -> bool:
        """True unless the record is only a new-shoe or burn marker."""
        return self.cards is not None or self.player is not None or self.banker is not None


#: How many distinct amounts (as written) and claims (bet, stake, amount settled) are
#: remembered, the least recently used dropped first: every cache is bounded, so memory stays
#: flat however long the log and however many different bets it names.
AMOUNT_CACHE_SIZE = 1024
CLAIM_CACHE_SIZE = 1024
#: Card tokens (and winner and natural values) a reader remembers (the first ones seen).
_CARD_CACHE_LIMIT = 4096
_VALUE_CACHE_LIMIT = 256
#: The shapes of JSON records (their keys in order) a reader remembers, each of at most so many
#: characters.
_PLAN_CACHE_LIMIT = 64
_PLAN_KEY_CHARS = 2000
#: The one object of each card the readers hand out (at most the 65 cards with and without a
#: suit, and :data:`~analyzer.checks.logmap.ZERO`): they live as long as the module.
_CARD_CACHE: dict[Card, Card] = {}
#: (point value, rank index or -1, suit index or -1) of each card object held in
#: ``_CARD_CACHE``, by ``id``: those cards are never freed, so their ids are never reused.
_META: dict[int, tuple[int, int, int]] = {}


def card_meta(card: Card) -> tuple[int, int, int]:
    """(point value, rank index, suit index or -1) of ``card``: looked up for a card the reader
    parsed, computed otherwise.  The rank index of a :class:`~analyzer.checks.logmap.PointCard`
    (a ten-valued card of unknown rank) is -1."""
    found = _META.get(id(card))
    if found is None:
        rank = -1 if isinstance(card, PointCard) else card.rank.index
        return card.point, rank, card.suit.index if card.suit is not None else -1
    return found


def _record_size(rec: Record) -> int:
    """About how much a record holds, in characters (see :data:`LOOKAHEAD_CHARS`)."""
    cards = sum(len(hand) for hand in (rec.cards, rec.player, rec.banker) if hand is not None)
    return 64 + len(rec.coup_id or "") + len(rec.shoe_id or "") + 8 * (cards + len(rec.burn) + len(rec.bets))


def points_only_refusal(spec: str, bet: Bet) -> str | None:
    """Why bet ``spec`` cannot be settled on a log that gives point values only (it reads the
    cards' ranks, suits or colours, which such a log does not give), or ``None`` when it can."""
    reads = bet.reads
    read = [what for what, yes in (("ranks", reads.ranks), ("suits", reads.needs_suits)) if yes]
    if not read:
        return None
    return (
        f"bet {spec!r} reads the {' and '.join(read)} of the cards, and the log gives point values "
        "only (no ranks, no suits): it cannot be settled on this log"
    )


def _canonical(card: Card) -> Card:
    """The one object of ``card`` (see ``_CARD_CACHE``)."""
    found = _CARD_CACHE.get(card)
    if found is None:
        found = _CARD_CACHE[card] = card
        _META[id(card)] = card_meta(card)
    return found


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


class HandLog:
    """A hand log being read: an iterator of :class:`Record` objects (made by
    :func:`read_records`, which see), and how the log was read.

    :attr:`described` is one line saying how the log was read (its format, the map, the names
    and spellings read otherwise than the plain format's); :attr:`points_only` whether its cards
    are point values only.  The first record taken (or the first question) reads ahead of it,
    once: at most :data:`LOOKAHEAD_RECORDS` records and :data:`LOOKAHEAD_CHARS` characters, kept
    until taken (an error met there is raised when its record is reached), so that the first
    records are read as the log goes on (a log's first ``0`` makes every record points only).
    Both say what was read so far: asked after the last record, they speak of the whole log.
    """

    def __init__(
        self,
        stream: Iterable[str],
        log_format: str,
        progress: Callable[[int], None] | None = None,
        ignored: list[str] | None = None,
        *,
        name: str | None = None,
        max_line: int = MAX_LINE_CHARS,
        file_bets: FileBets = NO_FILE_BETS,
        log_map: LogMap = NO_MAP,
    ) -> None:
        if isinstance(stream, str):  # the whole log as one text
            stream = stream.splitlines(keepends=True)
        if isinstance(stream, bytes | bytearray) or not isinstance(stream, Iterable):
            raise LogError(
                f"cannot read a hand log from {type(stream).__name__}: give a text file "
                "(open_log) or lines of text"
            )
        if not isinstance(log_format, str) or log_format not in FORMAT_NAMES:
            raise LogError(f"bad log format {show(log_format)}: use csv or jsonl")
        if isinstance(max_line, bool) or not isinstance(max_line, int) or not 1 <= max_line <= LIMIT_CEILING:
            raise LogError(
                f"bad line-length limit {show(max_line)}: use a whole number from 1 to {LIMIT_CEILING:,}"
            )
        if not isinstance(file_bets, FileBets):
            raise LogError(f"bad bets from files {show(file_bets)}: give a FileBets (FileBets.of(bets))")
        if not isinstance(log_map, LogMap):
            raise LogError(f"bad map {show(log_map)}: give a LogMap (analyzer.checks.logmap.load_map)")
        #: How the log is named in messages and in :attr:`described`.
        self.name = name if name is not None else stream_name(stream)
        self.log_format = log_format
        self.log_map = log_map
        self.file_bets = file_bets
        self.ignored = ignored
        self.reading = Reading(points=bool(log_map.points))
        # the cards' reading: RANKED (ranks and suits), POINT (point values only) or 0 (not yet
        # known), and the first token that told it (line, token)
        self._mode = POINT if log_map.points else RANKED if log_map.points is False else 0
        self._told: tuple[int, str] = (0, "")
        self._ppbb = log_map.order == "P P B B"
        self._tokens: dict[str, tuple[Card, int]] = {}
        self._winners: dict[str, Winner] = {}
        self._winner_folds: set[str] = set()
        self._naturals: dict[str, str] = {}
        self._ahead: deque[Record] = deque()
        self._stashed: AnalyzerError | None = None
        self._looked = False
        lines = text_lines(stream, LogError, name=name, max_line=max_line, progress=progress)
        read = self._read_csv if log_format == "csv" else self._read_jsonl
        self._records: Iterator[Record] = read(lines)

    # -- iteration ------------------------------------------------------------------------------

    def __iter__(self) -> HandLog:
        return self

    def __next__(self) -> Record:
        if not self._looked:  # so the first records know what the log is (points only...)
            self._look_ahead()
        if self._ahead:
            rec = self._ahead.popleft()
        elif self._stashed is not None:
            exc, self._stashed = self._stashed, None
            self._records = iter(())
            raise exc
        else:
            rec = next(self._records)
        if self._mode == POINT:
            rec.points_only = True
        return rec

    @property
    def described(self) -> str:
        """How the log was read, in one line (see :func:`analyzer.checks.logmap.describe`):
        ``read LOG as JSON Lines (the hand-log format)``, or what was read otherwise."""
        self._look_ahead()
        return describe(self.name, self.log_format, self.log_map, self.reading)

    @property
    def points_only(self) -> bool:
        """True when the log gives point values only (by its map, or by its tokens so far)."""
        self._look_ahead()
        return self._mode == POINT

    def _look_ahead(self) -> None:
        """Read ahead once (bounded; see the class), keeping an error for its record."""
        if self._looked:
            return
        self._looked = True
        ahead = self._ahead
        held = 0
        while self._stashed is None and len(ahead) < LOOKAHEAD_RECORDS and held < LOOKAHEAD_CHARS:
            try:
                rec = next(self._records)
            except StopIteration:
                break
            except AnalyzerError as exc:
                self._stashed = exc
                break
            ahead.append(rec)
            held += _record_size(rec)

    # -- values ---------------------------------------------------------------------------------

    def _cards(self, value: object, what: str, line: int) -> tuple[Card, ...]:
        if isinstance(value, str):
            tokens = value.replace(",", " ").split()
        elif isinstance(value, list) and all(isinstance(t, str) for t in value):
            tokens = value
        elif isinstance(value, list) and all(type(t) is int and 0 <= t <= 10 for t in value):
            tokens = [str(t) for t in value]  # point values (or 10) as JSON numbers
        else:
            raise LogError(
                f"line {line}: bad {what} {show(value)}: give cards as text such as '2 4 3 10 6 A', "
                "a list of card strings, or a list of point values such as [2, 4, 0]"
            )
        out = []
        known = self._tokens
        mode = self._mode
        for token in tokens:
            hit = known.get(token)
            if hit is None:
                hit = self._token(token, what, line)
            card, kind = hit
            if kind and kind != mode:
                self._told_by(kind, token, what, line)
                mode = self._mode
            out.append(card)
        return tuple(out)

    def _token(self, token: str, what: str, line: int) -> tuple[Card, int]:
        """A card token met for the first time, read and remembered (bounded)."""
        try:
            card, kind, spelt = card_token(token, self.log_map)
        except AnalyzerError as exc:
            raise LogError(f"line {line}: {what}: {exc}") from None
        found = (_canonical(card), kind)
        if spelt is not None and spelt not in self.reading.ranks and len(self.reading.ranks) < 64:
            self.reading.ranks[spelt] = card.rank
        if len(self._tokens) < _CARD_CACHE_LIMIT:
            self._tokens[token] = found
        return found

    def _told_by(self, kind: int, token: str, what: str, line: int) -> None:
        """A token that tells how the log writes cards: the first one sets it; one that tells
        otherwise is an error asking for a map."""
        if not self._mode:
            self._mode, self._told = kind, (line, token)
            self.reading.points = kind == POINT
            return
        told_line, told = self._told
        if kind == POINT:
            raise LogError(
                f"line {line}: {what}: card {token!r}: a 0 in a log that names ranks or suits "
                f"({told!r} on line {told_line}) could be the 10 or any ten-valued card: {MAP_HINT}"
            )
        raise LogError(
            f"line {line}: {what}: card {token!r} names a rank or a suit, but the log writes "
            f"ten-valued cards as 0 (point values only, from line {told_line}): {MAP_HINT}"
        )

    def _winner(self, value: object, line: int) -> Winner:
        if isinstance(value, str):
            found = self._winners.get(value)
            if found is not None:
                return found
            named, plain = winner_spelling(value, self.log_map)
            if named is not None:
                key = fold(value)
                if not plain and key not in self._winner_folds and len(self._winner_folds) < 64:
                    self._winner_folds.add(key)
                    self.reading.winners[value.strip()] = named
                if len(self._winners) < _VALUE_CACHE_LIMIT:
                    self._winners[value] = named
                return named
        raise LogError(
            f"line {line}: bad winner {show(value)}: use player, banker or tie (or P, B, T), "
            f"or {MAP_HINT}"
        )

    def _natural(self, value: object, line: int) -> str:
        key = value if isinstance(value, str) else None
        found = self._naturals.get(key) if key is not None else None
        if found is not None:
            return found
        named, plain = natural_spelling(value, self.log_map)
        if named is None:
            raise LogError(
                f"line {line}: bad natural {show(value)}: use none, player, banker or both (the "
                f"sides with a natural), true or false (either side / neither), or {MAP_HINT}"
            )
        if key is not None:
            if not plain and len(self.reading.naturals) < 64:
                self.reading.naturals.setdefault(key.strip(), named)
            if len(self._naturals) < _VALUE_CACHE_LIMIT:
                self._naturals[key] = named
        return named

    def _build(
        self,
        number: int,
        line: int,
        fields: dict[str, object],
        bets: Sequence[tuple[str, object, object]],
    ) -> Record:
        """A record from the fields given (blank ones left out) and bets as (spec, stake, paid),
        their names looked up among the bets from files and the catalogue."""
        file_bets = self.file_bets
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
        pt, bt, win, nat = get("player_total"), get("banker_total"), get("winner"), get("natural")
        shoe_id, new_shoe, burn, coup_id = get("shoe"), get("new_shoe"), get("burn"), get("id")
        for what, ident in (("shoe", shoe_id), ("id", coup_id)):
            if ident is not None and (isinstance(ident, bool) or not isinstance(ident, str | int | Decimal)):
                raise LogError(f"line {line}: bad {what} {show(ident)}: give an id as text or a number")
        dealt = self._cards(cards, "cards", line) if cards is not None else None
        if self._ppbb and dealt is not None and len(dealt) >= 4:
            dealt = (dealt[0], dealt[2], dealt[1], dealt[3], *dealt[4:])
        return Record(
            number,
            line,
            dealt,
            self._cards(player, "player", line) if player is not None else None,
            self._cards(banker, "banker", line) if banker is not None else None,
            _total(pt, "player_total", line) if pt is not None else None,
            _total(bt, "banker_total", line) if bt is not None else None,
            self._winner(win, line) if win is not None else None,
            tuple(claimed),
            str(shoe_id) if shoe_id is not None else None,
            _flag(new_shoe, "new_shoe", line) if new_shoe is not None else False,
            self._cards(burn, "burn", line) if burn is not None else (),
            str(coup_id) if coup_id is not None else None,
            self._natural(nat, line) if nat is not None else None,
        )

    # -- names ----------------------------------------------------------------------------------

    def _note_ignored(self, name: str) -> None:
        """Add ``name`` to the unknown fields noted, once, keeping at most :data:`MAX_IGNORED`."""
        ignored = self.ignored
        if ignored is not None and name not in ignored and len(ignored) < MAX_IGNORED:
            ignored.append(name)

    def _fields_of(self, names: Sequence[str], where: str, what: str) -> dict[str, int]:
        """Which of ``names`` (a CSV header or a JSON record's keys) is which field: field ->
        index.  Our names and the map's first; a common spelling only for a field neither
        gives (else it is noted as ignored).  ``what`` is ``column`` or ``key``.

        Raises:
            LogError: two names that would be one field (naming both, asking for a map when
                both are common spellings).
        """
        log_map = self.log_map
        found: dict[str, int] = {}
        common: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            if not name.strip():
                continue
            ours, how = field_of(name, log_map)
            if ours is None:
                self._note_ignored(name)
            elif how == ALIAS:
                common.setdefault(ours, []).append(i)
            elif ours in found:
                j = found[ours]
                raise LogError(
                    f"{where}the {what}s {names[j].strip()!r} and {name.strip()!r} are both the field "
                    f"{ours!r}: give each field one {what}"
                    + (" (the map names one of them)" if log_map.fields else "")
                )
            else:
                found[ours] = i
                if fold(name) in log_map.fields:
                    self.reading.fields.setdefault(ours, name.strip())
        for ours, spots in common.items():
            if ours in found:
                for i in spots:
                    self._note_ignored(names[i])
            elif len(spots) > 1:
                both = " and ".join(repr(names[i].strip()) for i in spots)
                raise LogError(
                    f"{where}the {what}s {both} could each be the field {ours!r}: give a map "
                    "(--map FILE.toml) naming the one to read"
                )
            else:
                found[ours] = spots[0]
                self.reading.fields.setdefault(ours, names[spots[0]].strip())
        if "cards" in found and log_map.order == "hands":
            raise LogError(
                f"{where}the {what} {names[found['cards']].strip()!r} gives cards in dealing order, "
                f"but the map {log_map.source} says the log gives hands only ([cards] order)"
            )
        return found

    # -- the formats ----------------------------------------------------------------------------

    def _read_csv(self, lines: Iterable[str]) -> Iterator[Record]:
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
        columns = self._fields_of(header, "line 1: ", "column")
        if "cards" not in columns and not ("player" in columns and "banker" in columns):
            raise LogError(
                f"line 1: the header {','.join(header)!r} needs a 'cards' column (cards in dealing "
                "order) or both 'player' and 'banker' columns (a log that names them otherwise: "
                "--map FILE.toml)"
            )
        plain: list[tuple[int, str]] = []
        bet_cols: dict[str, int] = {}
        stake_cols: dict[str, int] = {}
        for ours, i in columns.items():
            if ours.startswith("bet:"):
                bet_cols[ours[4:]] = i
            elif ours.startswith("stake:"):
                stake_cols[ours[6:]] = i
            elif ours == "bets":  # a JSON Lines object: a CSV log gives each bet a column
                raise LogError(
                    f"line 1: the column {header[i].strip()!r} is read as 'bets', a field of JSON Lines "
                    "logs: in a CSV log, give each bet a column of its own (map it to bet:NAME, and "
                    "its stake to stake:NAME)"
                )
            else:
                plain.append((i, ours))
        for spec in stake_cols:
            if spec not in bet_cols:
                raise LogError(f"line 1: column 'stake:{spec}' has no matching 'bet:{spec}' column")
        for spec in bet_cols:
            _bet(spec, 1, self.file_bets)
        width = len(names)
        number = 0
        build = self._build
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
            yield build(number, line, fields, bets)

    def _read_jsonl(self, lines: Iterable[str]) -> Iterator[Record]:
        # which key is which field, by the record's keys in order (a log's records share a few
        # such shapes; bounded): the (field, key) pairs, or None when every key is the field's
        # own name; and whether any is a bet:NAME or stake:NAME key
        plans: dict[tuple[str, ...], tuple[list[tuple[str, str]] | None, bool]] = {}
        for number, (line_no, obj) in enumerate(jsonl_objects(lines, LogError), 1):
            shape = tuple(obj)
            plan = plans.get(shape)
            if plan is None:
                found = self._fields_of(shape, f"line {line_no}: ", "key")
                pairs = [(ours, shape[i]) for ours, i in found.items()]
                plan = (
                    None if len(pairs) == len(shape) and all(o == k for o, k in pairs) else pairs,
                    any(ours.startswith(("bet:", "stake:")) for ours in found),
                )
                if len(plans) < _PLAN_CACHE_LIMIT and sum(map(len, shape)) <= _PLAN_KEY_CHARS:
                    plans[shape] = plan
            renamed, bet_keys = plan
            fields = obj if renamed is None else {ours: obj[key] for ours, key in renamed}
            raw_bets = fields.pop("bets", None)
            raw_bets = {} if _blank(raw_bets) else raw_bets
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
            if bet_keys:
                bets += self._json_bet_keys(fields, line_no)
            yield self._build(number, line_no, {k: v for k, v in fields.items() if not _blank(v)}, bets)

    def _json_bet_keys(self, fields: dict[str, object], line: int) -> list[tuple[str, object, object]]:
        """The bets a JSON record gives as ``bet:NAME`` (and ``stake:NAME``) keys, taken out of
        ``fields``."""
        found = {ours[4:]: fields.pop(ours) for ours in list(fields) if ours.startswith("bet:")}
        stakes = {ours[6:]: fields.pop(ours) for ours in list(fields) if ours.startswith("stake:")}
        for spec in stakes:
            if spec not in found:
                raise LogError(f"line {line}: key 'stake:{spec}' has no matching 'bet:{spec}' key")
        return [(spec, stakes.get(spec), paid) for spec, paid in found.items()]


def detect_format(path: str, log_format: str | None = None, log_map: LogMap = NO_MAP) -> str:
    """``"csv"`` or ``"jsonl"``: ``log_format`` if given, else from the file extension
    (``.csv``; ``.jsonl``, ``.ndjson``, ``.json``), else the map's ``format``.

    Raises:
        LogError: an unknown format; no format from the extension nor the map; an extension
            that says one format and the map the other.
    """
    if log_format is not None:
        if not isinstance(log_format, str) or log_format not in FORMAT_NAMES:
            raise LogError(f"bad log format {show(log_format)}: use csv or jsonl")
        return log_format
    if not isinstance(path, str | PathLike):
        raise LogError(f"bad log path {show(path)}: give a file name")
    if not isinstance(log_map, LogMap):
        raise LogError(f"bad map {show(log_map)}: give a LogMap (analyzer.checks.logmap.load_map)")
    found = LOG_FORMATS.get(Path(path).suffix.lower())
    said = log_map.log_format
    if found is not None and said is not None and found != said:
        raise LogError(
            f"{path}: its extension says {FORMAT_NAMES[found]} and the map {log_map.source} says "
            f"{FORMAT_NAMES[said]}: pass --log-format csv|jsonl"
        )
    if found is None and said is None:
        raise LogError(
            f"cannot tell the format of {path!r} from its extension: name it .csv or .jsonl "
            "(or .ndjson), or pass --log-format csv|jsonl (or a map's format)"
        )
    return found or said or "csv"


def read_records(
    stream: Iterable[str],
    log_format: str,
    progress: Callable[[int], None] | None = None,
    ignored: list[str] | None = None,
    *,
    name: str | None = None,
    max_line: int = MAX_LINE_CHARS,
    file_bets: FileBets = NO_FILE_BETS,
    log_map: LogMap = NO_MAP,
) -> HandLog:
    """Parse a hand log line by line into :class:`Record` objects (streaming, through the shared
    reader :func:`analyzer.checks.logs.text_lines`): a :class:`HandLog`, whose
    :attr:`~HandLog.described` says how the log was read.

    ``progress``, if given, is called now and then with the number of characters read since
    its last call.  Unknown CSV columns / JSON keys are skipped and their names appended to
    ``ignored`` (once each, at most :data:`MAX_IGNORED` names).  ``name`` is how errors name
    the log (default: the stream's file name); a line longer than ``max_line`` characters
    stops the run.  ``bet:NAME`` columns and ``bets`` objects name catalogue bets or bets of
    ``file_bets`` (:class:`~analyzer.bets.choice.FileBets`, e.g. from ``--bet-file``).
    ``log_map`` (:func:`analyzer.checks.logmap.load_map`) says how a foreign log writes what
    the common spellings do not cover.

    Raises:
        LogError: bad arguments now; unreadable input as the records are taken, the message
            giving the line number (and, for a line over the limit, the file and the limit).
    """
    return HandLog(
        stream,
        log_format,
        progress,
        ignored,
        name=name,
        max_line=max_line,
        file_bets=file_bets,
        log_map=log_map,
    )


__all__ = [
    "AMOUNT_CACHE_SIZE",
    "CLAIM_CACHE_SIZE",
    "KNOWN_FIELDS",
    "LOG_FORMATS",
    "LOOKAHEAD_CHARS",
    "LOOKAHEAD_RECORDS",
    "MAX_IGNORED",
    "ClaimedBet",
    "HandLog",
    "Record",
    "card_meta",
    "detect_format",
    "points_only_refusal",
    "read_records",
]
