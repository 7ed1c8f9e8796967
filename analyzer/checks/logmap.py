"""How a hand log written by another engine is read: its map file (``--map FILE.toml``) and
the common spellings read without one (docs/checks.md, "Logs written by other engines").

:mod:`analyzer.checks.handlog` reads every log through here, so a log's names and spellings
mean one thing for ``verify``, ``conform`` and the service alike.  A *map* (:class:`LogMap`)
says what the reader cannot tell by itself; every key is optional::

    format = "csv"                      # csv or jsonl: the log's format, when its extension
                                        # does not say (--log-format overrides it)
    [fields]                            # their column (a JSON key) = our field
    "Player Hand" = "player"
    "Banker Hand" = "banker"
    "Result" = "winner"
    "Banker Bet" = "bet:banker"
    [cards]
    order = "P P B B"                   # the order of a `cards` field: "P B P B" (ours),
                                        # "P P B B", or "hands" (the log gives hands only)
    points = true                       # cards are point values 0-9: no ranks, no suits
    ranks = { "1" = "A", "0" = "10" }   # their card token = our rank (points = false)
    [winner]                            # their winner value = player, banker or tie
    "banker win" = "banker"
    [natural]                           # their natural value = none, player, banker, both
    "-" = "none"                        # (or either: a natural on one side or both)

Without a map (and beside one, for what it does not say), the reader takes the common
spellings that have one reading only:

* field names, compared without case, spaces, ``_`` or ``-``: :data:`FIELD_ALIASES`
  (``playerCards``, ``player_hand``, ``playerScore``, ``result``, ``shoeId``, ...), each read
  only when the record has no field of that name of its own (nor one the map names), and an
  error when two of them would be the same field (``result`` beside ``outcome``);
* winner values: :data:`~analyzer.checks.logs.WINNER_ALIASES`, also followed by ``win``,
  ``wins``, ``won`` or ``game`` (``banker win``, ``Banker wins``, ``tie game``);
* natural values: :data:`NATURAL_VALUES`;
* card tokens: ``1`` is the ace (``1h`` the ace of hearts); ``0`` is a ten-valued card of a log
  that gives *point values only* (:func:`card_token` says which tokens show it).  A log that
  writes ``0`` and also names a ten-valued rank (10, T, J, Q, K) or a suit has two readings,
  and :mod:`~analyzer.checks.handlog` stops with one line asking for a map; so does ``0`` with a
  suit.

In a points-only log, value 0 is :data:`ZERO`, a :class:`PointCard` (a ten-valued card whose
rank is not known, shown as ``0``); values 1-9 are the ace and 2-9, whose ranks their values
fix.  :func:`describe` words how a log was read (the first line of ``verify``'s report).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from types import MappingProxyType
from typing import Any

from analyzer.checks.logs import WINNER_ALIASES, show, winner_of
from analyzer.core.cards import SUITS, Card, Rank, Suit, parse_card, parse_rank
from analyzer.core.coup import Winner
from analyzer.core.tomltext import load_toml
from analyzer.errors import AnalyzerError, CardError, LogMapError
from analyzer.text import printable

#: The fields of the hand-log format (docs/checks.md, "Hand-log format"); ``bet:NAME`` and
#: ``stake:NAME`` too, and ``bets`` in JSON Lines.
KNOWN_FIELDS = (
    "cards",
    "player",
    "banker",
    "player_total",
    "banker_total",
    "winner",
    "natural",
    "stake",
    "shoe",
    "new_shoe",
    "burn",
    "id",
)
#: What a map's ``[fields]`` may name besides :data:`KNOWN_FIELDS` and ``bet:NAME`` /
#: ``stake:NAME``.
JSON_FIELDS = ("bets",)

#: Common field names read without a map, folded by :func:`squash` (lower case, no spaces,
#: ``_`` or ``-``): ``playerCards``, ``player_hand``, ``Player Score``, ``shoeId``...
FIELD_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        **{f"{side}{word}": side for side in ("player", "banker") for word in ("cards", "hand")},
        **{
            f"{side}{word}": f"{side}_total"
            for side in ("player", "banker")
            for word in ("total", "score", "points")
        },
        "result": "winner",
        "outcome": "winner",
        "shoeid": "shoe",
        "newshoe": "new_shoe",
        "burncards": "burn",
    }
)

#: A natural claim's values (case-insensitive) and what each claims: which sides have a natural
#: (the values of :attr:`analyzer.core.coup.Coup.naturals`), or ``either`` (one side or both).
NATURAL_VALUES: Mapping[str, str] = MappingProxyType(
    {
        "none": "none",
        "player": "player",
        "banker": "banker",
        "both": "both",
        "either": "either",
        "true": "either",
        "false": "none",
        "yes": "either",
        "no": "none",
        "1": "either",
        "0": "none",
    }
)
#: The values a record's ``natural`` claim takes (:attr:`analyzer.checks.handlog.Record.natural`).
NATURAL_CLAIMS = ("none", "player", "banker", "both", "either")

#: The dealing orders a map's ``[cards] order`` may give, by their letters.
ORDERS: Mapping[str, str] = MappingProxyType({"PBPB": "P B P B", "PPBB": "P P B B", "HANDS": "hands"})
PLAIN_ORDER = "P B P B"

#: Winner words that may follow a winner's name (``banker win``, ``tie game``).
_WINNER_SUFFIXES = ("win", "wins", "won", "game")
_SEPARATORS = re.compile(r"[\s_\-]+")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")

#: Kinds of a card token, as bits: names a ten-valued rank or a suit (a log of ranks); is the
#: point value 0 (a log of point values only).
RANKED, POINT = 1, 2
#: The largest map file read (a map is a few lines).
MAX_MAP_BYTES = 100_000


@dataclass(frozen=True)
class PointCard(Card):
    """A card known by its point value only: in a log that gives point values only, a
    ten-valued card (10, J, Q or K: which one is not known), shown as ``0``.  Its ``rank`` is
    the ten, so totals and the tableau read its value; a bet that reads ranks or suits is
    refused on such a log (:mod:`analyzer.checks.verify`)."""

    def __str__(self) -> str:
        return "0"


#: The ten-valued card of a points-only log.
ZERO = PointCard(Rank.TEN)


@dataclass(frozen=True)
class LogMap:
    """A map of one engine's hand logs (see the module docstring); :data:`NO_MAP` maps nothing.

    ``source`` names the map file in messages and in the description; ``fields`` maps a folded
    name (:func:`fold`) to our field, ``names`` the folded name to the name as the map writes
    it; ``ranks`` a folded card token to a rank; ``points`` is True (point values only), False
    (ranks) or None (not said: :func:`card_token` tells by the tokens); ``order`` is one of the
    values of :data:`ORDERS`; ``winners`` and ``naturals`` map a folded value to ours.
    """

    source: str = ""
    log_format: str | None = None
    fields: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    ranks: Mapping[str, Rank] = field(default_factory=dict)
    points: bool | None = None
    order: str = PLAIN_ORDER
    winners: Mapping[str, Winner] = field(default_factory=dict)
    naturals: Mapping[str, str] = field(default_factory=dict)

    @property
    def given(self) -> bool:
        """True for a map read from a file or text (False for :data:`NO_MAP`)."""
        return bool(self.source)


NO_MAP = LogMap()


def fold(name: str) -> str:
    """A name as the reader compares it with ours and a map's: lower case, outer spaces
    dropped (``" Winner "`` is ``winner``)."""
    return name.strip().lower()


def squash(name: str) -> str:
    """A name as it is compared with :data:`FIELD_ALIASES`: lower case without spaces, ``_``
    or ``-`` (``Player_Score`` and ``playerScore`` are ``playerscore``)."""
    return _SEPARATORS.sub("", name).lower()


#: How a name was matched to a field (:func:`field_of`): as ours or by the map, or as a common
#: spelling (read only when no field of our name or the map's is there).
OWN, ALIAS = 2, 1


def field_of(name: str, log_map: LogMap = NO_MAP) -> tuple[str | None, int]:
    """The field a column (a JSON key) ``name`` is, and how it was matched: ``(field, OWN)``
    for our name or the map's, ``(field, ALIAS)`` for a common spelling, ``(None, 0)`` for an
    unknown name.  ``bet:NAME`` and ``stake:NAME`` keep their NAME (spaces around it dropped).

    >>> field_of("Player Hand"), field_of(" Winner "), field_of("bet: tie")
    (('player', 1), ('winner', 2), ('bet:tie', 2))
    """
    key = fold(name)
    mapped = log_map.fields.get(key)
    if mapped is not None:
        return mapped, OWN
    if key in KNOWN_FIELDS or key in JSON_FIELDS:
        return key, OWN
    kind, colon, spec = key.partition(":")
    if colon and kind in ("bet", "stake") and spec.strip():
        return f"{kind}:{spec.strip()}", OWN
    alias = FIELD_ALIASES.get(squash(key))
    return (alias, ALIAS) if alias is not None else (None, 0)


def winner_spelling(value: str, log_map: LogMap = NO_MAP) -> tuple[Winner | None, bool]:
    """The winner a log's value names, and whether it is the plain format's spelling (one of
    :data:`~analyzer.checks.logs.WINNER_ALIASES`): the map's spelling first, then ours, then
    ours followed by ``win``, ``wins``, ``won`` or ``game`` (case-insensitive).

    >>> winner_spelling("Banker wins"), winner_spelling("B")
    ((<Winner.BANKER: 'banker'>, False), (<Winner.BANKER: 'banker'>, True))
    """
    key = fold(value)
    mapped = log_map.winners.get(key)
    if mapped is not None:
        return mapped, key in WINNER_ALIASES and WINNER_ALIASES[key] is mapped
    found = WINNER_ALIASES.get(key)
    if found is not None:
        return found, True
    words = _SEPARATORS.split(key)
    if len(words) == 2 and words[1] in _WINNER_SUFFIXES:
        return WINNER_ALIASES.get(words[0]), False
    return None, False


def natural_spelling(value: object, log_map: LogMap = NO_MAP) -> tuple[str | None, bool]:
    """The natural claim a log's value makes (one of :data:`NATURAL_CLAIMS`), and whether it
    is the plain format's spelling (:data:`NATURAL_VALUES`, a JSON ``true``/``false``, ``1``
    or ``0``); ``(None, False)`` when it names none.

    >>> natural_spelling("Banker"), natural_spelling(True)
    (('banker', True), ('either', True))
    """
    if isinstance(value, bool):
        return ("either" if value else "none"), True
    if isinstance(value, int):
        return ({1: "either", 0: "none"}.get(value), True)
    if not isinstance(value, str):
        return None, False
    key = fold(value)
    mapped = log_map.naturals.get(key)
    if mapped is not None:
        return mapped, NATURAL_VALUES.get(key) == mapped
    found = NATURAL_VALUES.get(key)
    return (found, True) if found is not None else (None, False)


def card_token(token: str, log_map: LogMap = NO_MAP) -> tuple[Card, int, str | None]:
    """The card a log's token names, its kind (bits :data:`RANKED`, :data:`POINT`) and, when
    its rank is written otherwise than ours, that spelling (folded): through the map's
    ``[cards]`` (``points``, ``ranks``), else as the plain format reads it, with ``1`` for the
    ace and ``0`` for a ten-valued card of a points-only log (:data:`ZERO`).  The reader keeps a
    log to one reading: ``0`` beside a token that names a ten-valued rank or a suit is an error
    there.

    Raises:
        CardError: the token names no card, or is ``0`` with a suit (the 10 of that suit, or
            any ten-valued card of it?), or is not a value 0-9 in a points-only map's log.

    >>> card_token("1h")[1:], card_token("0"), card_token("K")[1:]
    ((1, '1'), (PointCard(rank=<Rank.TEN: 'T'>, suit=None), 2, None), (1, None))
    """
    low = fold(token)
    if log_map.points:
        if len(low) == 1 and "0" <= low <= "9":
            return (ZERO, POINT, None) if low == "0" else (Card(_VALUE_RANKS[low]), 0, None)
        raise CardError(
            f"bad card {token!r}: the map {log_map.source} says the log gives point values only "
            "([cards] points = true): use 0-9"
        )
    spelt, suit = low, None
    if len(low) >= 2 and low[-1] in _SUIT_OF and low not in log_map.ranks and low != "10":
        spelt, suit = low[:-1], _SUIT_OF[low[-1]]
    rank = log_map.ranks.get(spelt)
    if rank is None and spelt == "1":
        rank = Rank.ACE
    if rank is not None:
        kind = RANKED if suit is not None or rank.point == 0 else 0
        return Card(rank, suit), kind, spelt
    if spelt == "0" and log_map.points is None:
        if suit is None:
            return ZERO, POINT, None
        raise CardError(
            f"bad card {token!r}: a 0 with a suit could be the 10 or any ten-valued card of that "
            "suit: give a map (--map FILE.toml) saying how the log writes cards"
        )
    try:
        card = parse_card(token)
    except CardError as exc:
        if log_map.given:
            raise CardError(f"{exc}; or map the token in {log_map.source} [cards] ranks") from None
        raise
    return card, RANKED if card.suit is not None or card.point == 0 else 0, None


_SUIT_OF: dict[str, Suit] = {s.value: s for s in SUITS}
_VALUE_RANKS: dict[str, Rank] = {str(v): r for r in Rank for v in [r.point] if 1 <= v <= 9}


# -- the map file ---------------------------------------------------------------------------------


def load_map(path: str | PathLike[str]) -> LogMap:
    """The map in a TOML file (UTF-8, a byte order mark dropped, at most
    :data:`MAX_MAP_BYTES` bytes).

    Raises:
        LogMapError: the file cannot be read, is too large or not UTF-8, or :func:`parse_map`
            refuses it (the message names the file and the key).
    """
    if not isinstance(path, str | PathLike) or not str(path).strip():
        raise LogMapError(f"bad map file {show(path)}: give the path of a TOML file")
    where = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_MAP_BYTES + 1)
    except FileNotFoundError:
        raise LogMapError(f"{where}: no such map file") from None
    except IsADirectoryError:
        raise LogMapError(f"{where}: is a folder, not a TOML file") from None
    except OSError as exc:
        raise LogMapError(f"{where}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_MAP_BYTES:
        raise LogMapError(f"{where}: larger than {MAX_MAP_BYTES:,} bytes; a map is a few lines")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogMapError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    return parse_map(text, where)


_TOP_KEYS = ("format", "fields", "cards", "winner", "natural")
_CARD_KEYS = ("order", "points", "ranks")


def parse_map(text: str, source: str = "map") -> LogMap:
    """The map in TOML ``text`` (see the module docstring); ``source`` names it in messages.

    Raises:
        LogMapError: not TOML; an unknown key; a value of the wrong kind; a column mapped to no
            field of the hand-log format; two columns mapped to one field (or one column named
            twice, without case); a card token mapped to no rank, or ranks beside ``points =
            true``; a winner or natural value mapped to none of ours.  One line naming
            ``source`` and the key.

    >>> dict(parse_map('[fields]\\n"Result" = "winner"', "m.toml").fields)
    {'result': 'winner'}
    """
    if not isinstance(text, str):
        raise LogMapError(f"bad map {show(text)}: give the TOML text of a map")
    if not isinstance(source, str) or not source:
        raise LogMapError(f"bad map name {show(source)}: give the map file's name")
    doc = load_toml(text, source, LogMapError, "map file")

    def fail(key: str, why: str) -> LogMapError:
        return LogMapError(printable(f"{source}: {key}: {why}"))

    for key in doc:
        if key not in _TOP_KEYS:
            raise fail(_key_text(key), f"unknown key: a map has {', '.join(_TOP_KEYS)}")
    log_format = doc.get("format")
    if log_format is not None and log_format not in ("csv", "jsonl"):
        raise fail("format", f"{show(log_format)} is not a log format: use \"csv\" or \"jsonl\"")
    fields, names = _map_fields(_table(doc, "fields", fail), fail)
    cards = _table(doc, "cards", fail)
    for key in cards:
        if key not in _CARD_KEYS:
            raise fail(f"cards.{_key_text(key)}", f"unknown key: [cards] has {', '.join(_CARD_KEYS)}")
    order_text = cards.get("order", PLAIN_ORDER)
    order = ORDERS.get(re.sub(r"\s+", "", order_text).upper()) if isinstance(order_text, str) else None
    if order is None:
        raise fail(
            "cards.order",
            f"{show(order_text)} is not a dealing order: use \"P B P B\" (ours), \"P P B B\" or "
            "\"hands\" (the log gives hands only)",
        )
    if order == "hands" and "cards" in fields.values():
        column = next(names[k] for k, v in fields.items() if v == "cards")
        raise fail(
            "cards.order",
            f"\"hands\" says the log gives hands only, but fields.{_key_text(column)} maps a column "
            "to cards: drop one",
        )
    points = cards.get("points")
    if points is not None and not isinstance(points, bool):
        raise fail("cards.points", f"{show(points)} is not true or false")
    ranks = _map_ranks(_table(cards, "ranks", fail, "cards.ranks"), fail)
    if points and ranks:
        raise fail(
            "cards.ranks",
            "a log of point values only (points = true) writes 0-9, and ranks say how a log of "
            "ranks writes them: drop one",
        )
    winners = _map_values(
        _table(doc, "winner", fail), "winner", fail, lambda v: winner_of(v) if isinstance(v, str) else None,
        "player, banker or tie",
    )
    naturals = _map_values(
        _table(doc, "natural", fail), "natural", fail,
        lambda v: NATURAL_VALUES.get(fold(v)) if isinstance(v, str) else None,
        "none, player, banker, both or either (true/false: a natural on either side / on neither)",
    )
    return LogMap(
        source,
        log_format,
        MappingProxyType(fields),
        MappingProxyType(names),
        MappingProxyType(ranks),
        points,
        order,
        MappingProxyType(winners),
        MappingProxyType(naturals),
    )


def _key_text(key: str) -> str:
    """A TOML key as a message shows it: bare when it can be, else quoted (cut to 60
    characters)."""
    return key if _BARE_KEY.match(key) else json.dumps(key[:60], ensure_ascii=False)


def _table(doc: Mapping[str, Any], key: str, fail: Any, where: str | None = None) -> dict[str, Any]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise fail(where or key, f"give a table ([{where or key}] with 'theirs' = 'ours' lines)")
    return value


def _map_fields(table: dict[str, Any], fail: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The ``[fields]`` table: folded name -> our field, folded name -> the map's own text."""
    fields: dict[str, str] = {}
    names: dict[str, str] = {}
    by_field: dict[str, str] = {}
    known = ", ".join((*KNOWN_FIELDS, *JSON_FIELDS, "bet:NAME", "stake:NAME"))
    for theirs, ours in table.items():
        where = f"fields.{_key_text(theirs)}"
        if not theirs.strip():
            raise fail(where, "an empty column name: give the log's name for the field")
        target = fold(ours) if isinstance(ours, str) else None
        if target is not None:
            kind, colon, spec = target.partition(":")
            if colon and kind in ("bet", "stake") and spec.strip():
                target = f"{kind}:{spec.strip()}"
            elif target not in KNOWN_FIELDS and target not in JSON_FIELDS:
                target = None
        if target is None:
            raise fail(where, f"{show(ours)} is not a field of the hand-log format: use {known}")
        key = fold(theirs)
        if key in names:
            raise fail(
                where,
                f"names the column of fields.{_key_text(names[key])} again (names are read without "
                "case): give it once",
            )
        if target in by_field:
            raise fail(
                where,
                f"fields.{_key_text(by_field[target])} maps a column to {target} too: map one "
                "column to each field",
            )
        fields[key] = target
        names[key] = theirs
        by_field[target] = theirs
    return fields, names


def _map_ranks(table: dict[str, Any], fail: Any) -> dict[str, Rank]:
    ranks: dict[str, Rank] = {}
    for token, rank_text in table.items():
        where = f"cards.ranks.{_key_text(token)}"
        key = fold(token)
        if not key or any(ch.isspace() for ch in key):
            raise fail(where, "a card token is one word: give the log's token for a rank")
        if key in ranks:
            raise fail(where, "the token is given twice (tokens are read without case): give it once")
        try:
            rank = parse_rank(rank_text) if isinstance(rank_text, str) else None
        except AnalyzerError:
            rank = None
        if rank is None:
            raise fail(where, f"{show(rank_text)} is not a rank: use A, 2-9, 10 (or T), J, Q or K")
        ranks[key] = rank
    return ranks


def _map_values(table: dict[str, Any], name: str, fail: Any, read: Any, allowed: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for theirs, ours in table.items():
        where = f"{name}.{_key_text(theirs)}"
        key = fold(theirs)
        if not key:
            raise fail(where, f"an empty value: give the log's spelling of a {name}")
        if key in out:
            raise fail(where, "the value is given twice (values are read without case): give it once")
        found = read(ours)
        if found is None:
            raise fail(where, f"{show(ours)} is not a {name} value: use {allowed}")
        out[key] = found
    return out


# -- how a log was read -----------------------------------------------------------------------------

#: How :func:`describe` names each field a log gives under a name of its own.
_FIELD_WORDS = {
    "players": "hands",
    "player_totals": "totals",
    "player": "player",
    "banker": "banker",
    "player_total": "player total",
    "banker_total": "banker total",
    "cards": "cards",
    "winner": "winner",
    "natural": "natural",
    "stake": "stake",
    "shoe": "shoe ids",
    "new_shoe": "new-shoe markers",
    "burn": "burn cards",
    "id": "ids",
    "bets": "bets",
}
#: The fields told as a pair when a log gives both under names of its own.
_PAIRS = {
    "player": ("player", "banker"),
    "banker": ("player", "banker"),
    "player_total": ("player_total", "banker_total"),
    "banker_total": ("player_total", "banker_total"),
}
#: At most this many spellings of one kind are listed (the rest as "...").
_MAX_LISTED = 6


@dataclass
class Reading:
    """What the reader found out about a log so far, for :func:`describe`: the fields given
    under other names (ours -> theirs, first seen), the card tokens read otherwise than ours
    (theirs -> rank), the winner and natural values spelt otherwise (theirs -> ours), and
    whether the cards are point values only.  Bounded: each holds at most a few dozen entries
    (the names of our fields, the map's spellings and the common ones)."""

    fields: dict[str, str] = field(default_factory=dict)
    ranks: dict[str, Rank] = field(default_factory=dict)
    winners: dict[str, Winner] = field(default_factory=dict)
    naturals: dict[str, str] = field(default_factory=dict)
    points: bool = False


def describe(name: str, log_format: str, log_map: LogMap, reading: Reading) -> str:
    """One line saying how a log was read: its format, the map, and only what differs from the
    plain hand-log format, e.g. ``read LOG as CSV through MAP: hands from 'Player Hand' and
    'Banker Hand'; the ace written 1; winner 'banker win' as banker; dealing order P P B B``,
    or ``read LOG as JSON Lines (the hand-log format)``.

    >>> describe("h.csv", "csv", NO_MAP, Reading({"winner": "Result"}, {"1": Rank.ACE}))
    "read h.csv as CSV: winner from 'Result'; the ace written 1"
    """
    parts: list[str] = []
    given = reading.fields
    spelt: dict[str, Mapping[str, object]] = {"winner": reading.winners, "natural": reading.naturals}
    order = {ours: i for i, ours in enumerate(KNOWN_FIELDS)}
    for ours in sorted(given, key=lambda f: (order.get(f, len(order)), f)):
        theirs = _quoted(given[ours])
        pair = _PAIRS.get(ours)
        if pair is not None and pair[0] in given and pair[1] in given:
            if ours == pair[0]:
                parts.append(f"{_FIELD_WORDS[pair[0] + 's']} from {theirs} and {_quoted(given[pair[1]])}")
            continue
        parts.append(f"{_FIELD_WORDS.get(ours, ours)} from {theirs}")
    if reading.points:
        parts.append("cards as point values only (ten-valued cards 0)")
    else:
        spelt_ranks = _at_most([_rank_spelling(token, rank) for token, rank in reading.ranks.items()])
        if spelt_ranks:
            parts.append(", ".join(spelt_ranks))
    for what, values in spelt.items():
        if values:
            said = _at_most([f"{_quoted(theirs)} as {_value_text(ours)}" for theirs, ours in values.items()])
            if what in given:  # "winner from 'Result'" goes on with its values
                at = parts.index(f"{what} from {_quoted(given[what])}")
                parts[at] += ", " + ", ".join(said)
            else:
                parts.append(f"{what} " + ", ".join(said))
    if log_map.order != PLAIN_ORDER:
        parts.append("hands only" if log_map.order == "hands" else f"dealing order {log_map.order}")
    head = f"read {name} as {'CSV' if log_format == 'csv' else 'JSON Lines'}"
    if log_map.given:
        head += f" through {log_map.source}"
    return printable(head + (": " + "; ".join(parts) if parts else " (the hand-log format)"))


def _rank_spelling(token: str, rank: Rank) -> str:
    if (rank, token) == (Rank.ACE, "1"):
        return "the ace written 1"
    return f"{rank.label} written {_quoted(token)}"


def _value_text(value: object) -> str:
    return value.value if isinstance(value, Winner) else str(value)


def _quoted(text: str) -> str:
    return show(text, 40)


def _at_most(items: list[str]) -> list[str]:
    return items if len(items) <= _MAX_LISTED else [*items[:_MAX_LISTED], "..."]


__all__ = [
    "ALIAS",
    "FIELD_ALIASES",
    "KNOWN_FIELDS",
    "MAX_MAP_BYTES",
    "NATURAL_CLAIMS",
    "NATURAL_VALUES",
    "NO_MAP",
    "ORDERS",
    "OWN",
    "POINT",
    "RANKED",
    "ZERO",
    "LogMap",
    "PointCard",
    "Reading",
    "card_token",
    "describe",
    "field_of",
    "fold",
    "load_map",
    "natural_spelling",
    "parse_map",
    "squash",
    "winner_spelling",
]
