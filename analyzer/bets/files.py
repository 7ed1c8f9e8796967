"""User-defined bets from TOML files (stdlib ``tomllib``): declarative, no code runs from a file.

A file holds one or more ``[[bet]]`` tables::

    [[bet]]
    name = "banker-7-three-cards"
    title = "Banker wins with a three-card 7"
    [[bet.pay]]
    event = "Banker wins with 3-card 7"
    when = { winner = "banker", banker_total = 7, banker_cards = 3 }
    pays = 40

``pays`` is a win amount per unit (integer, ``"p/q"`` or decimal string), 0 for a push, -1 for
a loss; lines are tried in order and the first match settles the coup; ``otherwise`` (default
-1) settles the rest.  A ``when`` table holds conditions that must all hold:

* a coup field (:data:`FIELDS`) = a value, or a list of values (any of), or for numbers a table
  ``{ at_least = 2 }``, ``{ at_most = 5 }``;
* a card position (``player_1`` ... ``banker_3``, or ``P1 B1 P2 B2 P3 B3``), a named set of
  positions (``player_first_two``, ``banker_first_two``, ``first_four``, ``player_hand``,
  ``banker_hand``, ``all_cards``) or any set of positions written in braces (``"{P3, B3}"``, a
  quoted TOML key) = a table of card features (:data:`GROUP_FEATURES`), e.g.
  ``player_first_two = { suited = true }``, ``"{P3, B3}" = { same_rank = true }``,
  ``first_four = { count_rank = { rank = "9", at_least = 2 } }``,
  ``player_1 = { rank = "K", suit = "h" }``;
* a comparison of two cards or two sets (:data:`COMPARE_BY`, :data:`COMPARE_IS`):
  ``compare = { left = "P3", right = "B3", by = "rank", is = "same" }`` (or a list of such
  tables, all of which must hold);
* either of several conditions: ``any = [{ player_pair = true }, { banker_pair = true }]``;
* side against side: ``pairs_same_rank`` / ``identical_pairs`` = true or false.

What a bet reads follows from the features it uses, so the engine refines no further.  A pay
line whose condition can never hold under the tableau in use (say, three cards and a natural on
the same side) is refused when the bet is first priced (its table is compiled).
"""

from __future__ import annotations

import functools
import hashlib
import json
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.bets.model import Bet, PayLine
from analyzer.core.cards import Colour, Rank, Suit, parse_card, parse_rank
from analyzer.core.coup import BANKER_FIRST_TWO, FIRST_FOUR, PLAYER_FIRST_TWO, POSITION_SETS, Coup
from analyzer.core.exact import parse_exact
from analyzer.core.hands import FEATURE_NEEDS, FOUR_CARD_POKER, CardGroup
from analyzer.core.reads import RankDetail, Reads, SuitDetail
from analyzer.core.tomltext import load_toml
from analyzer.errors import AnalyzerError, BetError
from analyzer.limits import MAX_BETS_ENV, MAX_BETS_PER_FILE

#: A bet file is a few lines; refuse anything that is not (e.g. /dev/zero).
MAX_FILE_BYTES = 1_000_000

Test = Callable[[Coup], bool]

#: Coup fields a condition may name: field -> (allowed values, getter, base fields read).
FIELDS: dict[str, tuple[str, Callable[[Coup], object], tuple[str, ...]]] = {
    "winner": ("player, banker or tie", lambda c: c.winner.value, ("winner",)),
    "player_total": ("0-9", lambda c: c.player_total, ("player_total",)),
    "banker_total": ("0-9", lambda c: c.banker_total, ("banker_total",)),
    "winner_total": (
        "0-9 (the winning side's total; never matches a tie)",
        lambda c: c.winner_total,
        ("winner_total",),
    ),
    "player_cards": ("2 or 3", lambda c: c.player_cards, ("player_cards",)),
    "banker_cards": ("2 or 3", lambda c: c.banker_cards, ("banker_cards",)),
    "winner_cards": (
        "2 or 3 (the winning side's; never matches a tie)",
        lambda c: c.winner_cards,
        ("winner_cards",),
    ),
    "cards": ("4, 5 or 6 (cards dealt in the coup)", lambda c: c.cards_dealt, ("cards",)),
    "cards_dealt": ("4, 5 or 6 (the same as cards)", lambda c: c.cards_dealt, ("cards_dealt",)),
    "margin": ("0-9 (winning margin in points)", lambda c: c.margin, ("margin",)),
    "player_natural": ("true or false", lambda c: c.player_natural, ("player_natural",)),
    "banker_natural": ("true or false", lambda c: c.banker_natural, ("banker_natural",)),
    "natural": ("true or false (either side)", lambda c: c.natural, ("natural",)),
    "naturals": ("player, banker, both or none", lambda c: c.naturals, ("natural",)),
    "player_two_card_total": (
        "0-9 (the Player's first two cards)",
        lambda c: c.player_two_card_total,
        ("player_two_card_total",),
    ),
    "banker_two_card_total": (
        "0-9 (the Banker's first two cards)",
        lambda c: c.banker_two_card_total,
        ("banker_two_card_total",),
    ),
    "player_third": (
        '0-9, or "none" when the Player stood',
        lambda c: "none" if c.player_third is None else c.player_third,
        ("player_third",),
    ),
    "banker_third": (
        '0-9, or "none" when the Banker stood',
        lambda c: "none" if c.banker_third is None else c.banker_third,
        ("banker_third",),
    ),
}
_RANGES = {
    "player_cards": (2, 3),
    "banker_cards": (2, 3),
    "winner_cards": (2, 3),
    "cards": (4, 6),
    "cards_dealt": (4, 6),
}
_WORDS = {"winner": ("player", "banker", "tie"), "naturals": ("player", "banker", "both", "none")}

#: Card features of a position or a set of positions: feature -> (what its value is).
GROUP_FEATURES: dict[str, str] = {
    "size": "number of cards dealt in the set (a number, list or {at_least/at_most})",
    "total": "baccarat total of the cards (0-9)",
    "sum": "sum of the cards' point values, not reduced modulo 10 (0-54)",
    "value": "point value of a single position's card (0-9)",
    "highest_value": "highest point value, 10/J/Q/K counting 0",
    "lowest_value": "lowest point value",
    "count_value": "{ value = V, <comparison> }: cards of point value V",
    "pair": "true or false: two cards share a rank",
    "same_rank": "true or false: at least two cards dealt, every one of one rank",
    "same_suit": "true or false: at least two cards dealt, every one of one suit",
    "same_colour": "true or false: at least two cards dealt, every one of one colour",
    "pairs": "number of ranks with two or more cards",
    "of_a_kind": "most cards of one rank (a number or {at_least = N})",
    "rank_pattern": "cards per rank, largest first, e.g. [3, 3] or [2, 2, 1]",
    "two_pair": "true or false",
    "full_house": "true or false",
    "same_card_pair": "true or false: two of the cards are the same card (rank and suit)",
    "rank": "a single position's rank (A, 2-9, 10/T, J, Q, K), or a list (any of)",
    "ranks": 'the cards\' ranks exactly, as a list (any order), e.g. ["K", "Q"]',
    "contains": 'ranks the set holds at least, as a list, e.g. ["K", "Q"]',
    "count_rank": "{ rank = R, <comparison> }: cards of rank R",
    "pictures": "number of pictures (J, Q, K; a 10 is not one) among the cards (a number, list or "
    "{at_least/at_most})",
    "pair_of": "a rank: at least two cards of it",
    "straight": "true or false: distinct consecutive ranks (ace low or high)",
    "suited": "true or false: every card of one suit",
    "flush": "true or false: every card of one suit",
    "straight_flush": "true or false",
    "royal_flush": "true or false: a straight flush to the ace played high (A-K, Q-K-A, J-Q-K-A, ...)",
    "four_card_poker": "a Four Card Poker category of exactly four cards: " + ", ".join(FOUR_CARD_POKER),
    "one_colour": "true or false: every card of one colour",
    "colour": "red or black: every card of that colour (or a single position's colour)",
    "count_colour": "{ colour = C, <comparison> }: cards of colour C",
    "suit": "s, h, d or c: every card of that suit (or a single position's suit)",
    "count_suit": "{ suit = S, <comparison> }: cards of suit S",
    "card": 'a single position\'s card, e.g. "Kh"',
    "cards": 'the cards exactly, as a list, e.g. ["Kh", "9h"]',
    "count_card": '{ card = "9d", <comparison> }: copies of that card',
}
#: Side-against-side conditions (first two cards of each side).
DUELS: dict[str, tuple[str, Callable[[Coup], bool]]] = {
    "pairs_same_rank": (
        "true or false: both sides' first two cards are pairs of one rank",
        lambda c: c.player_pair and c.banker_pair and c.cards(FIRST_FOUR).of_a_kind == 4,
    ),
    "identical_pairs": (
        "true or false: both sides' first two cards are pairs of the same card (rank and suit)",
        lambda c: c.player_pair and c.banker_pair and _same_card_four(c.cards(FIRST_FOUR)),
    ),
}
_DUEL_READS = {
    "pairs_same_rank": Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="equality"),
    "identical_pairs": Reads.of(
        [], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks="equality", suits="same-card"
    ),
}

#: Short names for common card conditions: name -> (position set, card feature).
SHORTCUTS: dict[str, tuple[str, str]] = {
    "player_pair": ("player_first_two", "pair"),
    "banker_pair": ("banker_first_two", "pair"),
    "player_suited_pair": ("player_first_two", "same_card_pair"),
    "banker_suited_pair": ("banker_first_two", "same_card_pair"),
}

_BET_KEYS = {"name", "title", "pay", "otherwise", "otherwise_event", "source", "rules"}
_LINE_KEYS = {"event", "when", "pays"}


def _same_card_four(group: CardGroup) -> bool:
    keys = [c.card_key for c in group]
    return len(keys) == 4 and len(set(keys)) == 1


def load_bets(path: str | Path, max_bets: int = MAX_BETS_PER_FILE) -> list[Bet]:
    """Read the bets defined in a TOML file (UTF-8, a leading byte order mark ignored as in
    hand logs), at most ``max_bets`` of them.

    Raises:
        BetError: the file is missing, too large, not valid TOML, holds more than ``max_bets``
            bets, or a bet is malformed (unknown key or feature, bad value or pay); the message
            names the file, the bet and the offending key (or the limit).  A pay line that can
            never hold is refused when the bet is first priced (reading compiles nothing).
    """
    if isinstance(max_bets, bool) or not isinstance(max_bets, int) or max_bets < 1:
        raise BetError(f"bad limit on bets per file {max_bets!r}: use a whole number >= 1")
    return parse_bets(read_bet_text(path), str(path), max_bets)


def read_bet_text(path: str | Path) -> str:
    """The text of a bet file: UTF-8, a leading byte order mark dropped, at most
    :data:`MAX_FILE_BYTES` bytes.

    Raises:
        BetError: the name is empty, the file is missing, a folder or not a regular file, cannot
            be read, is too large or is not UTF-8 (the message names the file).
    """
    where = str(path)
    if not where.strip():
        raise BetError("empty bet-file name: give the path of a TOML file")
    p = Path(path)
    if p.is_dir():
        raise BetError(f"{where}: is a folder, not a TOML file")
    if p.exists() and not p.is_file():
        raise BetError(f"{where}: not a regular file")
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise BetError(f"{where}: no such bet file") from None
    except OSError as exc:
        raise BetError(f"{where}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise BetError(f"{where}: larger than {MAX_FILE_BYTES // 1_000_000} MB; a bet file is a few lines")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")  # Windows editors write a byte order mark
    except UnicodeDecodeError as exc:
        raise BetError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    return text


def parse_bets(text: str, where: str = "bet file", max_bets: int = MAX_BETS_PER_FILE) -> list[Bet]:
    """The bets of a bet file's text (see :func:`load_bets`).

    Bets are values: the same text read under the same label and limit gives the same (frozen)
    bets again, from a memory of at most :data:`READ_LIMIT` readings of texts of at most
    :data:`READ_CHARS` characters (the service reads a request's bet file with every request).
    """
    kept = len(text) <= READ_CHARS if isinstance(text, str) else False
    if kept:
        hit = _READ.get((text, where, max_bets))
        if hit is not None:
            return list(hit)
    bets = _parse_bets(text, where, max_bets)
    if kept:
        if len(_READ) >= READ_LIMIT:
            _READ.clear()  # one step (threads reading meanwhile see it whole or empty)
        _READ[(text, where, max_bets)] = tuple(bets)
    return bets


#: How many bet-file readings :func:`parse_bets` remembers, and the longest text it keeps.
READ_LIMIT = 32
READ_CHARS = 100_000
_READ: dict[tuple[str, str, int], tuple[Bet, ...]] = {}


def _parse_bets(text: str, where: str, max_bets: int) -> list[Bet]:
    doc = load_toml(text, where, BetError, "bet file")
    unknown = set(doc) - {"bet"}
    if unknown:
        raise BetError(f"{where}: unknown top-level key {sorted(unknown)[0]!r}: use [[bet]] tables")
    specs = doc.get("bet")
    if not isinstance(specs, list) or not specs:
        raise BetError(f"{where}: no bets: define at least one [[bet]] table")
    if len(specs) > max_bets:
        raise BetError(
            f"{where}: {len(specs):,} bets, more than the limit of {max_bets:,} bets per file "
            f"(--max-bets or {MAX_BETS_ENV} raise it)"
        )
    bets = [_bet(where, i, spec) for i, spec in enumerate(specs, 1)]
    names: set[str] = set()
    for bet in bets:
        if bet.name in names:
            raise BetError(f"{where}: bet {bet.name!r} is defined twice")
        names.add(bet.name)
    return bets


def _bet(where: str, number: int, spec: Any) -> Bet:
    if not isinstance(spec, dict):
        raise BetError(f"{where}: bet #{number} is not a table")
    name = spec.get("name")
    label = f"{where}: bet {name!r}" if isinstance(name, str) and name else f"{where}: bet #{number}"
    if "name" in spec and not isinstance(name, str):
        raise BetError(f"{label}: key 'name' must be text, got {name!r}")
    if not isinstance(name, str) or not name.strip():
        raise BetError(f"{label}: key 'name' is missing or empty")
    for key in ("name", "title", "otherwise_event"):
        if key in spec:
            _text(label, key, spec[key])
    _ascii_name(label, name)
    if "source" in spec:  # a citation: author, title, address
        _text(label, "source", spec["source"], 1000)
    if "rules" in spec:
        _text(label, "rules", spec["rules"], 2000)
    for key in spec:
        if key not in _BET_KEYS:
            raise BetError(f"{label}: unknown key {key!r}: allowed keys are {', '.join(sorted(_BET_KEYS))}")
    lines_spec = spec.get("pay")
    if not isinstance(lines_spec, list) or not lines_spec:
        raise BetError(f"{label}: key 'pay' needs at least one [[bet.pay]] line")
    reads = Reads()
    lines: list[PayLine] = []
    for j, line in enumerate(lines_spec, 1):
        where_line = f"{label}: pay line {j}"
        if not isinstance(line, dict):
            raise BetError(f"{where_line} is not a table")
        for key in line:
            if key not in _LINE_KEYS:
                raise BetError(f"{where_line}: unknown key {key!r}: use event, when, pays")
        when = line.get("when", {})
        if not isinstance(when, dict):
            raise BetError(f"{where_line}: 'when' must be a table of feature = value")
        cond, line_reads = condition(where_line, when)
        reads = reads | line_reads
        if "pays" not in line:
            raise BetError(f"{where_line}: key 'pays' is missing")
        pays = _amount(f"{where_line}: key 'pays'", line["pays"])
        event = _text(where_line, "event", line.get("event", f"line {j}"))
        lines.append(PayLine(event, cond, pays))
    otherwise = _amount(f"{label}: key 'otherwise'", spec.get("otherwise", -1))
    winning = [i for i, ln in enumerate(lines) if ln.pays > 0]
    bet = Bet(
        name=name.strip(),
        title=str(spec.get("title", name)).strip(),
        lines=tuple(lines),
        reads=_interned(reads),
        otherwise=otherwise,
        otherwise_event=str(spec.get("otherwise_event", "Loss" if otherwise < 0 else "Other")),
        source=str(spec.get("source", f"user-defined in {where}")),
        adjustable=winning[0] if len(winning) == 1 else None,
        rules=str(spec.get("rules", "")),
    )
    return bet.with_origin(_origin(lines_spec), names="conditions")


# -- the catalogue's entries (analyzer/bets/catalogue.toml) ---------------------------------------


@dataclass(frozen=True)
class CatalogueTable:
    """One pay table of a data entry besides its default (``NAME:TABLE``): the pays of its lines
    in order, and the title, source and rules where they differ from the default's."""

    pays: tuple[Fraction, ...]
    title: str = ""
    source: str = ""
    rules: str = ""


@dataclass(frozen=True)
class CatalogueSide:
    """A data entry's bet on the other side (``NAME:banker``): its pay lines' conditions in
    order (the events and pays are the default side's), and its title, rules and source."""

    whens: tuple[Mapping[str, Any], ...]
    title: str = ""
    rules: str = ""
    source: str = ""


@dataclass(frozen=True)
class CatalogueSpec:
    """A catalogue entry as its data file gives it (read by :func:`read_catalogue`). Its fields:

    - ``name``, ``aliases``, ``summary``, ``param``, ``main``: how ``bets --list`` lists it and
      how it is named.
    - ``make``: ``"module:function"`` of a bet the language cannot say (a factory of the
      parameter), or ``""`` for a bet written in the language (``table``).
    - ``meters``, ``pay_param``: ``"module:function"`` of its progressive meters / of the
      parameter that gives a pay, or ``""``.
    - ``adjustable``: the line (0-based) whose pay the parameter sets (``NAME:PAY``), or ``None``.
    - ``tables``, ``default_table``, ``refused``: the other pay tables by parameter, the
      default's name, and the error for any other parameter (``{param}``, ``{tables}`` filled in).
    - ``sides``, ``default_side``: for a bet on one side (``NAME:SIDE``), the other side's bet and
      the default side's name; a side is named in full or by its first letter, any other
      parameter is refused with ``refused``.
    - ``published``: per parameter (``""`` the default) its provenance, as text fields (grade,
      source, figure, test, caveat).
    - ``pay_table_names``: (alias, parameter, source) of each name a source gives a pay table.
    - ``table``: the entry's bet, as a bet file's ``[[bet]]`` table (read by
      :func:`catalogue_bet`, through the bet files' own parser).
    """

    name: str
    summary: str
    param: str = ""
    aliases: tuple[str, ...] = ()
    main: bool = False
    make: str = ""
    meters: str = ""
    pay_param: str = ""
    adjustable: int | None = None
    tables: Mapping[str, CatalogueTable] | None = None
    default_table: str = ""
    refused: str = ""
    published: Mapping[str, Mapping[str, str]] | None = None
    pay_table_names: tuple[tuple[str, str, str], ...] = ()
    table: Mapping[str, Any] | None = None
    sides: Mapping[str, CatalogueSide] | None = None
    default_side: str = ""


#: The keys of a catalogue entry beyond a bet file's.
CATALOGUE_KEYS = (
    "aliases", "summary", "param", "main", "make", "meters", "pay_param", "adjustable", "tables",
    "published", "pay_table_name", "sides",
)
_PROVENANCE_KEYS = ("param", "grade", "source", "figure", "test", "caveat")


def read_catalogue(text: str, where: str) -> list[CatalogueSpec]:
    """The entries of the catalogue's data file (its ``[[bet]]`` tables, in order): the listing
    and provenance of each checked now, a bet's pay lines when it is first built
    (:func:`catalogue_bet`), by the same parser and with the same errors as a user's file.

    Raises:
        BetError: a malformed entry (the message names the file, the entry and the key).
    """
    doc = load_toml(text, where, BetError, "catalogue file")
    specs = doc.get("bet")
    if set(doc) != {"bet"} or not isinstance(specs, list):
        raise BetError(f"{where}: a catalogue file holds [[bet]] tables only")
    return [_catalogue_spec(where, i, spec) for i, spec in enumerate(specs, 1)]


def _catalogue_spec(where: str, number: int, spec: Any) -> CatalogueSpec:
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise BetError(f"{where}: entry #{number} needs a name")
    label = f"{where}: bet {spec['name']!r}"
    for key in ("summary", "param", "make", "meters", "pay_param"):
        if key in spec:
            _text(label, key, spec[key])
    aliases = spec.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        raise BetError(f"{label}: 'aliases' must be a list of names")
    main = spec.get("main", False)
    if not isinstance(main, bool):
        raise BetError(f"{label}: 'main' must be true or false")
    make = str(spec.get("make", ""))
    rest = {k: v for k, v in spec.items() if k not in CATALOGUE_KEYS}
    if make:
        if set(rest) - {"name"}:
            raise BetError(f"{label}: an entry built by {make!r} has no {sorted(set(rest) - {'name'})[0]!r}")
        if ":" not in make:
            raise BetError(f"{label}: 'make' names a function as 'module:function'")
    adjustable = spec.get("adjustable")
    lines = rest.get("pay", [])
    if adjustable is not None and (
        isinstance(adjustable, bool) or not isinstance(adjustable, int) or not 1 <= adjustable <= len(lines)
    ):
        raise BetError(f"{label}: 'adjustable' is the number of a pay line, 1-{len(lines)}")
    tables, default_table, refused = _catalogue_tables(label, spec.get("tables"), len(lines))
    sides, default_side, side_refused = _catalogue_sides(label, spec.get("sides"), len(lines))
    if sides is not None and tables is not None:
        raise BetError(f"{label}: an entry has other pay tables or other sides, not both")
    published: dict[str, dict[str, str]] = {}
    for entry in spec.get("published", []):
        if not isinstance(entry, dict) or any(k not in _PROVENANCE_KEYS for k in entry):
            raise BetError(f"{label}: a [[bet.published]] table takes {', '.join(_PROVENANCE_KEYS)}")
        fields = {k: _text(label, k, v, 2000) for k, v in entry.items()}
        published[fields.pop("param", "")] = fields
    if "" not in published:
        raise BetError(f"{label}: no [[bet.published]] table for its default parameters")
    names: list[tuple[str, str, str]] = []
    for entry in spec.get("pay_table_name", []):
        if not isinstance(entry, dict) or set(entry) != {"alias", "param", "source"}:
            raise BetError(f"{label}: a [[bet.pay_table_name]] table takes alias, param and source")
        names.append((_text(label, "alias", entry["alias"]), _text(label, "param", entry["param"]),
                      _text(label, "source", entry["source"], 2000)))
    return CatalogueSpec(
        name=spec["name"],
        summary=str(spec.get("summary", "")),
        param=str(spec.get("param", "")),
        aliases=tuple(aliases),
        main=main,
        make=make,
        meters=str(spec.get("meters", "")),
        pay_param=str(spec.get("pay_param", "")),
        adjustable=None if adjustable is None else adjustable - 1,
        tables=tables,
        default_table=default_table,
        refused=refused or side_refused,
        published=published,
        pay_table_names=tuple(names),
        table=None if make else rest,
        sides=sides,
        default_side=default_side,
    )


def _catalogue_sides(
    label: str, raw: object, lines: int
) -> tuple[dict[str, CatalogueSide] | None, str, str]:
    if raw is None:
        return None, "", ""
    if not isinstance(raw, dict) or not isinstance(raw.get("default"), str) or "refused" not in raw:
        raise BetError(f"{label}: [bet.sides] needs 'default' (the default side's name) and 'refused'")
    sides: dict[str, CatalogueSide] = {}
    for key, side in raw.items():
        if key in ("default", "refused"):
            continue
        where = f"{label}: side {key!r}"
        whens = side.get("when") if isinstance(side, dict) else None
        if not isinstance(whens, list) or len(whens) != lines or not all(isinstance(w, dict) for w in whens):
            raise BetError(f"{where}: give its 'when', one condition table per pay line ({lines})")
        if set(side) - {"when", "title", "source", "rules"}:
            raise BetError(f"{where}: keys are when, title, source, rules")
        sides[key] = CatalogueSide(
            tuple(whens), *(_text(where, k, side.get(k, ""), 2000) for k in ("title", "rules", "source"))
        )
    return sides, raw["default"], _text(label, "refused", raw["refused"])


def catalogue_side_bet(spec: CatalogueSpec, side: str, where: str) -> Bet:
    """The bet of a data entry on its other side ``side`` (read by the bet files' parser, as
    :func:`catalogue_bet`): the default side's pay lines with that side's conditions.

    Raises:
        BetError: the entry has no such side, or its conditions are malformed.
    """
    if spec.table is None or spec.sides is None or side not in spec.sides:
        raise BetError(f"{where}: bet {spec.name!r} has no side {side!r}")
    other = spec.sides[side]
    table = dict(spec.table)
    table["pay"] = [{**line, "when": when} for line, when in zip(table["pay"], other.whens, strict=True)]
    for key in ("title", "rules", "source"):
        if getattr(other, key):
            table[key] = getattr(other, key)
    return replace(_bet(where, 0, table), adjustable=spec.adjustable)


def _catalogue_tables(
    label: str, raw: object, lines: int
) -> tuple[dict[str, CatalogueTable] | None, str, str]:
    if raw is None:
        return None, "", ""
    if not isinstance(raw, dict) or not isinstance(raw.get("default"), str) or "refused" not in raw:
        raise BetError(f"{label}: [bet.tables] needs 'default' (the default table's name) and 'refused'")
    tables: dict[str, CatalogueTable] = {}
    for key, table in raw.items():
        if key in ("default", "refused"):
            continue
        where = f"{label}: table {key!r}"
        if not isinstance(table, dict) or not isinstance(table.get("pays"), list):
            raise BetError(f"{where}: give its 'pays', one per pay line")
        if len(table["pays"]) != lines or set(table) - {"pays", "title", "source", "rules"}:
            raise BetError(f"{where}: one pay per line ({lines}); other keys: title, source, rules")
        tables[key] = CatalogueTable(
            tuple(_amount(f"{where}: pays", p) for p in table["pays"]),
            *(_text(where, k, table.get(k, ""), 2000) for k in ("title", "source", "rules")),
        )
    return tables, raw["default"], _text(label, "refused", raw["refused"])


def catalogue_bet(spec: CatalogueSpec, where: str) -> Bet:
    """The bet of a data entry with its default parameters, read by the bet files' parser
    (:func:`read_catalogue`); its ``adjustable`` line is the entry's.

    Raises:
        BetError: the entry is built in Python, or its pay lines are malformed.
    """
    if spec.table is None:
        raise BetError(f"{where}: bet {spec.name!r} is built by {spec.make}, not written as data")
    bet = _bet(where, 0, dict(spec.table))
    return replace(bet, adjustable=spec.adjustable)


def _interned(reads: Reads) -> Reads:
    """One object for each value of reads the files give (at most :data:`READ_LIMIT` times 16
    kept): the engine's caches find a bet's reads by object, and a read's derived values
    (its key, what positions it reads) are kept on it."""
    hit = _READS.get(reads)
    if hit is None:
        if len(_READS) >= 16 * READ_LIMIT:
            _READS.clear()
        hit = _READS[reads] = reads
    return hit


_READS: dict[Reads, Reads] = {}


def _origin(lines_spec: list[Any]) -> str:
    """What identifies a file bet's conditions (the disk cache's key for its table): its pay
    lines' ``when`` tables, which alone decide how a coup settles (the pays do not: a table's
    columns are the pay lines)."""
    whens = [line.get("when", {}) for line in lines_spec]
    text = json.dumps(whens, sort_keys=True, default=repr, separators=(",", ":"))
    return "file:" + hashlib.sha256(text.encode()).hexdigest()


def condition(label: str, when: dict[str, Any]) -> tuple[Test, Reads]:
    """A ``when`` table as (test of a coup record, what it reads).

    Raises:
        BetError: an unknown field, position, feature or bad value; the message names ``label``.
    """
    tests: list[Test] = []
    reads = Reads()
    for key, raw in when.items():
        members = position_set(key)
        if key in FIELDS:
            allowed, getter, names = FIELDS[key]
            accepted = _field_values(label, key, allowed, raw)
            tests.append(_membership(getter, accepted))
            reads = reads | Reads.of(names)
        elif key in SHORTCUTS:
            where_set, feature = SHORTCUTS[key]
            test, r = _group(f"{label}: {key}", POSITION_SETS[where_set], {feature: raw})
            tests.append(test)
            reads = reads | r
        elif members is not None:
            if not isinstance(raw, dict) or not raw:
                raise BetError(
                    f"{label}: {key!r} needs a table of card features, e.g. {key} = {{ suited = true }}"
                )
            test, r = _group(f"{label}: {key}", members, raw)
            tests.append(test)
            reads = reads | r
        elif key == "compare":
            for spec in raw if isinstance(raw, list) and raw else [raw]:
                test, r = _compare(f"{label}: compare", spec)
                tests.append(test)
                reads = reads | r
        elif key == "any":
            test, r = _any(label, raw)
            tests.append(test)
            reads = reads | r
        elif key in DUELS:
            if not isinstance(raw, bool):
                raise BetError(f"{label}: {key!r} must be true or false")
            fn = DUELS[key][1]
            tests.append(fn if raw else (lambda c, fn=fn: not fn(c)))  # type: ignore[misc]
            reads = reads | _DUEL_READS[key]
        elif isinstance(key, str) and key.lstrip().startswith("{"):
            raise BetError(
                f"{label}: bad set of positions {key!r}: write positions in braces, "
                f'e.g. "{{P3, B3}}" (P1 B1 P2 B2 P3 B3, or player_1 ... banker_3)'
            )
        else:
            known = [*FIELDS, *SHORTCUTS, *POSITION_SETS, *SHORT_POSITIONS, '"{P3, B3}"', "compare", "any"]
            known += DUELS
            raise BetError(f"{label}: unknown feature {key!r}: known are {', '.join(known)}")

    held = tuple(tests)  # a tuple, not a list: the engine compares conditions by what they hold

    def every(c: Coup) -> bool:
        return all(t(c) for t in held)

    return every, reads


def _any(label: str, raw: object) -> tuple[Test, Reads]:
    """``any = [{ ... }, { ... }]``: holds when one of the ``when`` tables holds (each read
    in full: the bet reads what every one of them reads)."""
    if not isinstance(raw, list) or not raw or not all(isinstance(w, dict) and w for w in raw):
        raise BetError(
            f"{label}: 'any' takes a list of condition tables, e.g. any = [{{ player_pair = true }}, "
            "{ banker_pair = true }]"
        )
    parts = [condition(f"{label}: any #{i}", when) for i, when in enumerate(raw, 1)]
    reads = Reads()
    for _, r in parts:
        reads = reads | r
    tests = tuple(t for t, _ in parts)
    return (lambda c: any(t(c) for t in tests)), reads


#: Short names of the six positions, in dealing order (P1 B1 P2 B2, then the third cards).
SHORT_POSITIONS: tuple[str, ...] = ("P1", "B1", "P2", "B2", "P3", "B3")
_POSITION_WORDS: dict[str, int] = {
    **{name.lower(): i for i, name in enumerate(SHORT_POSITIONS)},
    **{name: next(iter(members)) for name, members in POSITION_SETS.items() if len(members) == 1},
}


def position_set(text: object) -> frozenset[int] | None:
    """The positions ``text`` names, or ``None`` when it names none: a named set
    (``player_first_two``), a position (``player_3`` or ``P3``), or any set in braces,
    ``"{P3, B3}"`` (each member a position; at least one, none twice).

    >>> sorted(position_set("{P3, B3}")), sorted(position_set("P1")), position_set("{P3, X}")
    ([4, 5], [0], None)
    """
    if not isinstance(text, str):
        return None
    if text in POSITION_SETS:
        return POSITION_SETS[text]
    word = text.strip()
    if word.lower() in _POSITION_WORDS and word not in FIELDS:
        return frozenset({_POSITION_WORDS[word.lower()]})
    if not (word.startswith("{") and word.endswith("}")):
        return None
    parts = [part.strip().lower() for part in word[1:-1].split(",")]
    if not parts or not all(part in _POSITION_WORDS for part in parts):
        return None
    found = [_POSITION_WORDS[part] for part in parts]
    if len(set(found)) != len(found):
        return None
    return frozenset(found)


def _set_label(members: frozenset[int]) -> str:
    return "{" + ", ".join(SHORT_POSITIONS[i] for i in sorted(members)) + "}"


# -- comparisons of two cards or two sets ----------------------------------------------------

#: What a comparison compares: key -> (what it means, may order, may compare sets).
COMPARE_BY: dict[str, str] = {
    "rank": "ranks (ordered with the ace low: A 2 ... 10 J Q K); two sets: the same ranks",
    "value": "point values (10, J, Q, K count 0); two sets: the same values",
    "suit": "suits (same or different only); two sets: the same suits",
    "colour": "colours (same or different only); two sets: the same colours",
    "sum": "the sum of the point values of each side's dealt cards",
    "total": "the baccarat total (sum modulo 10) of each side's dealt cards",
}
#: How the two sides compare: name -> the test of (left, right) as numbers.
COMPARE_IS: dict[str, Callable[[int, int], bool]] = {
    "same": lambda a, b: a == b,
    "different": lambda a, b: a != b,
    "higher": lambda a, b: a > b,
    "lower": lambda a, b: a < b,
    "same_or_higher": lambda a, b: a >= b,
    "same_or_lower": lambda a, b: a <= b,
}
_COMPARE_KEYS = ("left", "right", "by", "is")
_ORDERED = ("rank", "value", "sum", "total")
_LABELS = ("rank", "value", "suit", "colour")


def _compare(label: str, spec: object) -> tuple[Test, Reads]:
    """A ``compare`` table (``left``, ``right``, ``by``, ``is``) as (test, reads).

    A side that is one position holds only when its card was dealt; a side that is a set reads
    its dealt cards (as a multiset).  What it reads: the two sides as sets, ranks by equality
    (``by = "rank"``, ``same`` / ``different``) or by name (ordered), suits or colours by
    equality; ``value``, ``sum`` and ``total`` read point values only.
    """
    if not isinstance(spec, dict):
        raise BetError(f'{label}: give a table, e.g. compare = {{ left = "P3", right = "B3", by = "rank" }}')
    for key in spec:
        if key not in _COMPARE_KEYS:
            raise BetError(f"{label}: unknown key {key!r}: use {', '.join(_COMPARE_KEYS)}")
    sides: list[frozenset[int]] = []
    for key in ("left", "right"):
        if key not in spec:
            raise BetError(f"{label}: key {key!r} is missing: name a position (P3) or a set (\"{{P1, P2}}\")")
        members = position_set(spec[key])
        if members is None:
            raise BetError(
                f"{label}: {key} {spec[key]!r} is not a position or a set of positions: "
                'use P1 B1 P2 B2 P3 B3, a named set (player_first_two) or "{P1, P2}"'
            )
        sides.append(members)
    left, right = sides
    if left == right:
        raise BetError(f"{label}: left and right are the same set {_set_label(left)}: compare two others")
    by = spec.get("by")
    if by not in COMPARE_BY:
        raise BetError(f"{label}: 'by' must be one of {', '.join(COMPARE_BY)}, got {by!r}")
    how = spec.get("is", "same")
    if how not in COMPARE_IS:
        raise BetError(f"{label}: 'is' must be one of {', '.join(COMPARE_IS)}, got {how!r}")
    ordered = how not in ("same", "different")
    singles = len(left) == 1 and len(right) == 1
    if ordered and by in ("suit", "colour"):
        raise BetError(f"{label}: suits and colours have no order: use is = \"same\" or \"different\"")
    if ordered and by in ("rank", "value") and not singles:
        raise BetError(
            f"{label}: sets are not ordered by {by}: compare their sum or total, or compare two positions"
        )
    ranks, suits = RankDetail.NONE, SuitDetail.NONE
    if by == "rank":
        ranks = RankDetail.NAMED if ordered else RankDetail.EQUALITY
    elif by == "suit":
        suits = SuitDetail.SUIT_EQUALITY
    elif by == "colour":
        suits = SuitDetail.COLOUR_EQUALITY
    reads = Reads.of([], [left, right], ranks, suits)
    relation = COMPARE_IS[how]
    need_dealt = tuple(members for members in (left, right) if len(members) == 1)

    def dealt(c: Coup) -> bool:
        return all(c.cards(members).size == 1 for members in need_dealt)

    if by in ("sum", "total"):
        modulo = 10 if by == "total" else 1000

        def numbers(c: Coup) -> bool:
            if not dealt(c):
                return False
            a = sum(card.value for card in c.cards(left)) % modulo
            b = sum(card.value for card in c.cards(right)) % modulo
            return relation(a, b)

        return numbers, reads
    if ordered:  # two positions, by value or by rank with the ace low
        number: Callable[[Any], int] = (
            (lambda card: card.value) if by == "value" else (lambda card: _r(card).order)
        )

        def order(c: Coup) -> bool:
            if not dealt(c):
                return False
            (a,) = c.cards(left)
            (b,) = c.cards(right)
            return relation(number(a), number(b))

        return order, reads
    want_same = how == "same"

    def labels(c: Coup) -> bool:
        if not dealt(c):
            return False
        mine = [_label_of(card, by) for card in c.cards(left)]
        theirs = [_label_of(card, by) for card in c.cards(right)]
        return _same_multiset(mine, theirs) is want_same

    return labels, reads


def _label_of(card: Any, by: str) -> object:
    if by == "value":
        return card.value
    return getattr(card, by)


def _same_multiset(mine: list[object], theirs: list[object]) -> bool:
    """Whether two lists hold the same labels, as multisets, by ``==`` alone (a rank read by
    equality is a class that equals only the same class of the same record)."""
    if len(mine) != len(theirs):
        return False
    left = list(theirs)
    for label in mine:
        for i, other in enumerate(left):
            if label == other:
                del left[i]
                break
        else:
            return False
    return True


def _membership(getter: Callable[[Coup], object], accepted: object) -> Test:
    if callable(accepted):
        return lambda c: bool(accepted(getter(c)))
    assert isinstance(accepted, frozenset)
    return lambda c: getter(c) in accepted


def _field_values(label: str, key: str, allowed: str, raw: object) -> object:
    """The accepted values of a field condition: a set, or a numeric comparison."""
    if isinstance(raw, dict):
        lo, hi = _RANGES.get(key, (0, 9))
        if key in _WORDS or "true or false" in allowed:
            raise BetError(f"{label}: feature {key!r} takes a value, not a comparison")
        return _comparison(label, key, raw, lo, hi)
    values = raw if isinstance(raw, list) else [raw]
    if not values:
        raise BetError(f"{label}: feature {key!r} has an empty list of values")
    return frozenset(_field_value(label, key, allowed, v) for v in values)


def _field_value(label: str, key: str, allowed: str, v: object) -> object:
    bad = BetError(f"{label}: feature {key!r} has bad value {v!r}: allowed {allowed}")
    if key in _WORDS:
        if not isinstance(v, str) or v.lower() not in _WORDS[key]:
            raise bad
        return v.lower()
    if "true or false" in allowed:
        if not isinstance(v, bool):
            raise bad
        return v
    if key in ("player_third", "banker_third") and isinstance(v, str) and v.lower() == "none":
        return "none"
    if isinstance(v, bool) or not isinstance(v, int):
        raise bad
    lo, hi = _RANGES.get(key, (0, 9))
    if not lo <= v <= hi:
        raise bad
    return v


def _comparison(label: str, key: str, raw: dict[str, Any], lo: int, hi: int) -> Callable[[object], bool]:
    # ``key``: the compared quantity's name when ``label`` does not already end with it
    named = f"{label}: {key!r}" if key else label
    allowed = {"at_least", "at_most", "equals"}
    for k in raw:
        if k not in allowed:
            raise BetError(f"{named} comparison key {k!r}: use at_least, at_most or equals")
    if not raw:
        raise BetError(f"{named} comparison is empty: give at_least, at_most or equals")
    bounds = {}
    for k, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise BetError(f"{named} {k} must be a whole number {lo}-{hi}, got {v!r}")
        bounds[k] = v
    least = bounds.get("at_least", bounds.get("equals", lo))
    most = bounds.get("at_most", bounds.get("equals", hi))
    return lambda x: isinstance(x, int) and least <= x <= most


# -- card features of a position or a set ---------------------------------------------------


def _group(label: str, members: frozenset[int], spec: dict[str, Any]) -> tuple[Test, Reads]:
    single = len(members) == 1
    position = next(iter(members))
    tests: list[Callable[[CardGroup], bool]] = []
    ranks, suits = RankDetail.NONE, SuitDetail.NONE
    values: set[int] | None = set()  # point values whose suits are read (None: all)
    for feature, raw in spec.items():
        if feature not in GROUP_FEATURES:
            raise BetError(
                f"{label}: unknown card feature {feature!r}: known are {', '.join(GROUP_FEATURES)}"
            )
        if feature in ("value", "rank", "card") and not single:
            raise BetError(
                f"{label}: {feature!r} is a feature of one card position (e.g. player_1); "
                f"for a set use count_value / count_rank / cards"
            )
        test, need_rank, need_suit = _feature(f"{label}: {feature}", feature, raw, single)
        if not single:  # one card's suit is its own: a set's flag only where the set has several
            need_suit = _PER_SET.get(feature, need_suit)
        tests.append(test)
        ranks = ranks.join(need_rank)
        suits = suits.join(need_suit)
        if need_suit is not SuitDetail.NONE and values is not None:
            named = _named_values(feature, raw)
            values = None if named is None else values | named
    reads = Reads.of([], [members], ranks, suits, values or None)

    held = tuple(tests)

    def check(c: Coup) -> bool:
        if single:
            card = c.card(position)
            group = CardGroup([] if card is None else [card])
        else:
            group = c.cards(members)
        return all(t(group) for t in held)

    return check, reads


def _feature(
    label: str, feature: str, raw: object, single: bool
) -> tuple[Callable[[CardGroup], bool], RankDetail, SuitDetail]:
    need_rank, need_suit = FEATURE_NEEDS.get(feature, (RankDetail.NONE, SuitDetail.NONE))
    if feature in (
        "size", "total", "sum", "highest_value", "lowest_value", "pairs", "of_a_kind", "value", "pictures"
    ):
        hi = 6 if feature in ("size", "pairs", "of_a_kind", "pictures") else 54 if feature == "sum" else 9
        accept = _numbers(label, raw, 0, hi)
        getter: Callable[[CardGroup], object] = {
            "size": lambda g: g.size,
            "total": lambda g: g.total,
            "sum": lambda g: sum(g.values),
            "highest_value": lambda g: g.highest_value,
            "lowest_value": lambda g: g.lowest_value,
            "pairs": lambda g: g.pairs,
            "of_a_kind": lambda g: g.of_a_kind,
            "value": lambda g: g.highest_value,
            "pictures": lambda g: g.pictures,
        }[feature]
        return (lambda g: accept(getter(g))), need_rank, need_suit
    if feature in (
        "pair",
        "two_pair",
        "full_house",
        "same_card_pair",
        "straight",
        "suited",
        "flush",
        "straight_flush",
        "one_colour",
        "royal_flush",
    ):
        want = _bool(label, raw)
        prop = feature
        return (lambda g: bool(getattr(g, prop)) is want), need_rank, need_suit
    if feature in _SAME:
        want_same = _bool(label, raw)
        alike, need_rank, need_suit = _SAME[feature]
        return (lambda g: (g.size >= 2 and alike(g)) is want_same), need_rank, need_suit
    if feature == "four_card_poker":
        if raw not in FOUR_CARD_POKER:
            raise BetError(f"{label}: four_card_poker is one of {', '.join(FOUR_CARD_POKER)}, got {raw!r}")
        return (lambda g: g.four_card_poker == raw), need_rank, need_suit
    if feature == "rank_pattern":
        if (
            not isinstance(raw, list)
            or not raw
            or not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in raw)
        ):
            raise BetError(f"{label}: give the cards per rank, largest first, e.g. [3, 3]")
        pattern = tuple(sorted(raw, reverse=True))
        return (lambda g: g.rank_pattern == pattern), need_rank, need_suit
    if feature == "rank":
        names = tuple(_rank_list(label, raw))
        return (lambda g: g.size == 1 and g.ranks[0] in names), RankDetail.NAMED, need_suit
    if feature == "ranks":
        wanted = tuple(sorted(_rank_list(label, raw, keep_order=True), key=lambda r: r.index))
        return (lambda g: tuple(g.ranks) == wanted), RankDetail.NAMED, need_suit
    if feature == "contains":
        wanted_list = tuple(_rank_list(label, raw, keep_order=True))

        def contains(g: CardGroup) -> bool:
            have = list(g.ranks)
            for r in wanted_list:
                if r not in have:
                    return False
                have.remove(r)
            return True

        return contains, RankDetail.NAMED, need_suit
    if feature == "pair_of":
        rank = _one_rank(label, raw)
        return (lambda g: g.pair_of(rank)), _rank_need(rank), need_suit
    if feature == "colour":
        colour = _colour(label, raw)
        return (lambda g: g.colour(colour)), need_rank, SuitDetail.COLOUR
    if feature == "suit":
        suit = _suit(label, raw)
        return (lambda g: g.suit(suit)), need_rank, SuitDetail.SUIT
    if feature == "card":
        card = _card(label, raw)
        return (
            (lambda g: g.size == 1 and g.count_card(card.rank, card.suit) == 1),
            RankDetail.NAMED,
            SuitDetail.SUIT,
        )
    if feature == "cards":
        if not isinstance(raw, list) or not raw:
            raise BetError(f'{label}: give a list of cards with suits, e.g. ["Kh", "9h"]')
        cards = [_card(label, x) for x in raw]
        key = tuple(sorted((_r(c).index, _s(c).index) for c in cards))
        values = tuple(sorted(_r(c).point for c in cards))

        def exactly(g: CardGroup) -> bool:
            # values first: the reads carry suits only for the named cards' values
            # (suit_values), so suits are looked at only once every value matches
            if tuple(sorted(c.value for c in g)) != values:
                return False
            return tuple(sorted((_r(c).index, _s(c).index) for c in g)) == key

        return (
            exactly,
            RankDetail.NAMED,
            SuitDetail.SUIT,
        )
    # counts: { <param> = X, comparison }
    if not isinstance(raw, dict):
        raise BetError(f"{label}: give a table, e.g. {{ {_PARAM[feature]} = ..., at_least = 1 }}")
    param_key = _PARAM[feature]
    if param_key not in raw:
        raise BetError(f"{label}: key {param_key!r} is missing")
    rest = {k: v for k, v in raw.items() if k != param_key}
    accept_n = _comparison(label, feature, rest, 0, 6) if rest else (lambda n: isinstance(n, int) and n >= 1)
    p = raw[param_key]
    counter: Callable[[CardGroup], int]
    if feature == "count_value":
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 9:
            raise BetError(f"{label}: value must be 0-9")
        counter = functools.partial(CardGroup.count_value, value=p)
    elif feature == "count_rank":
        rank = _one_rank(label, p)
        need_rank = _rank_need(rank)
        counter = functools.partial(CardGroup.count_rank, rank=rank)
    elif feature == "count_colour":
        counter = functools.partial(CardGroup.count_colour, colour=_colour(label, p))
    elif feature == "count_suit":
        counter = functools.partial(CardGroup.count_suit, suit=_suit(label, p))
    else:
        card = _card(label, p)
        need_rank = _rank_need(card.rank)
        counter = functools.partial(CardGroup.count_card, rank=card.rank, suit=_s(card))
    return (lambda g: bool(accept_n(counter(g)))), need_rank, need_suit


#: Features that ask only whether the whole set is of one suit (colour), and which: read as the
#: set's flag, not card by card (:meth:`Reads.of` reads card by card where sets overlap).
_PER_SET: dict[str, SuitDetail] = {
    **dict.fromkeys(
        ("suited", "flush", "same_suit", "straight_flush", "royal_flush", "four_card_poker"),
        SuitDetail.ONE_SUIT,
    ),
    "one_colour": SuitDetail.ONE_COLOUR,
    "same_colour": SuitDetail.ONE_COLOUR,
    "colour": SuitDetail.ONE_COLOUR_NAMED,
    "suit": SuitDetail.ONE_SUIT_NAMED,
}

#: The "every card alike" features: feature -> (CardGroup property, rank and suit detail read).
_SAME: dict[str, tuple[Callable[[CardGroup], bool], RankDetail, SuitDetail]] = {
    "same_rank": (lambda g: g.of_a_kind == g.size, *FEATURE_NEEDS["of_a_kind"]),
    "same_suit": (lambda g: g.suited, *FEATURE_NEEDS["suited"]),
    "same_colour": (lambda g: g.one_colour, *FEATURE_NEEDS["one_colour"]),
}


def _named_values(feature: str, raw: object) -> set[int] | None:
    """The point values whose suits a named-card feature reads (``None``: every value)."""
    try:
        if feature == "card":
            return {parse_card(str(raw)).point}
        if feature == "cards" and isinstance(raw, list):
            return {parse_card(str(x)).point for x in raw}
        if feature == "count_card" and isinstance(raw, dict):
            return {parse_card(str(raw.get("card"))).point}
    except AnalyzerError:
        return None
    return None


def _rank_need(rank: Rank) -> RankDetail:
    """A rank of value 1-9 is told by its point value; 10, J, Q, K need named ranks."""
    return RankDetail.NAMED if rank.point == 0 else RankDetail.NONE


_PARAM = {
    "count_value": "value",
    "count_rank": "rank",
    "count_colour": "colour",
    "count_suit": "suit",
    "count_card": "card",
}


def _r(card: Any) -> Rank:
    rank = card.rank
    assert isinstance(rank, Rank)
    return rank


def _s(card: Any) -> Suit:
    suit = card.suit
    assert isinstance(suit, Suit)
    return suit


def _numbers(label: str, raw: object, lo: int, hi: int) -> Callable[[object], bool]:
    if isinstance(raw, dict):
        return _comparison(label, "", raw, lo, hi)  # the label names the feature
    values = raw if isinstance(raw, list) else [raw]
    if not values or not all(
        isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in values
    ):
        raise BetError(
            f"{label}: give a whole number {lo}-{hi}, a list of them, {{ at_least = N }} or {{ at_most = N }}"
        )
    accepted = frozenset(values)
    return lambda x: x in accepted


def _bool(label: str, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise BetError(f"{label}: must be true or false, got {raw!r}")
    return raw


def _one_rank(label: str, raw: object) -> Rank:
    if not isinstance(raw, str | int) or isinstance(raw, bool):
        raise BetError(f'{label}: give a rank such as "A", "9", "10" or "K"')
    try:
        return parse_rank(str(raw))
    except AnalyzerError as exc:
        raise BetError(f"{label}: {exc}") from None


def _rank_list(label: str, raw: object, keep_order: bool = False) -> list[Rank]:
    values = raw if isinstance(raw, list) else [raw]
    if not values:
        raise BetError(f"{label}: give at least one rank")
    out = [_one_rank(label, v) for v in values]
    return out if keep_order else list(dict.fromkeys(out))


def _colour(label: str, raw: object) -> Colour:
    if isinstance(raw, str) and raw.strip().lower() in ("red", "black"):
        return Colour(raw.strip().lower())
    raise BetError(f"{label}: give a colour, red or black")


def _suit(label: str, raw: object) -> Suit:
    words = {
        "s": Suit.SPADES,
        "spades": Suit.SPADES,
        "h": Suit.HEARTS,
        "hearts": Suit.HEARTS,
        "d": Suit.DIAMONDS,
        "diamonds": Suit.DIAMONDS,
        "c": Suit.CLUBS,
        "clubs": Suit.CLUBS,
    }
    if isinstance(raw, str) and raw.strip().lower() in words:
        return words[raw.strip().lower()]
    raise BetError(f"{label}: give a suit: s, h, d or c (or spades, hearts, diamonds, clubs)")


def _card(label: str, raw: object) -> Any:
    if not isinstance(raw, str):
        raise BetError(f'{label}: give a card with its suit, e.g. "Kh"')
    try:
        card = parse_card(raw)
    except AnalyzerError as exc:
        raise BetError(f"{label}: {exc}") from None
    if card.suit is None:
        raise BetError(f'{label}: card {raw!r} needs its suit, e.g. "{raw}h"')
    return card


#: Characters that look like the ASCII a bet name is written in, after NFKC (which already
#: folds fullwidth forms, ligatures and most spaces): dashes and minus signs as ``-``, quotes
#: and primes as ``'``, the Cyrillic and Greek letters drawn like Latin ones as those letters.
#: Format characters (zero-width spaces and joiners, the soft hyphen) are dropped.
LOOK_ALIKES = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u02d7\ufe58\ufe63", "-"),
        **dict.fromkeys("\u2018\u2019\u201b\u2032\u02bc\u02b9\u0060\u00b4", "'"),
        **dict(zip("\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u051b\u051d\u04bb",
                   "aeopcyxijsdqwh", strict=True)),
        **dict(zip("\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408",
                   "ABEKMHOPCTXIJ", strict=True)),
        **dict(zip("\u03bf\u03b1\u03bd\u03c1\u03b9\u03ba\u03c4\u03c5",
                   "oavpiktu", strict=True)),
        **dict(zip("\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7",
                   "ABEZHIKMNOPTYX", strict=True)),
    }
)


def name_skeleton(name: str) -> str:
    """What ``name`` looks like, in ASCII where a look-alike is known: NFKC, then
    :data:`LOOK_ALIKES`, format characters dropped.  Two names with one skeleton read the same
    on a screen (``dragon\u20107``, with U+2010 HYPHEN, looks like ``dragon-7``).

    >>> name_skeleton("dragon\u20107"), name_skeleton("\uff24ragon 7"), name_skeleton("p\u0430nda-8")
    ('dragon-7', 'Dragon 7', 'panda-8')
    """
    folded = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES)
    return "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")


def _ascii_name(label: str, name: str) -> None:
    """A bet file's bet name is ASCII: a name is what logs, counts and tables are matched by,
    and a look-alike of another name (``dragon\u20107``) must not pass for it.

    Raises:
        BetError: a character that is not ASCII, named with its code point.
    """
    if name.isascii():
        return
    bad = next(ch for ch in name if not ch.isascii())
    what = unicodedata.name(bad, "a character without a name")
    looks = name_skeleton(name)
    like = f", and the name looks like {looks!r}" if looks.isascii() and looks != name else ""
    raise BetError(
        f"{label}: key 'name' must be written in ASCII: it holds U+{ord(bad):04X} "
        f"{what}{like}; write the name in ASCII"
    )


def _text(label: str, key: str, value: object, limit: int = 200) -> str:
    """A one-line text value (names, titles, events end up in tables of every format)."""
    if not isinstance(value, str):
        raise BetError(f"{label}: key {key!r} must be text, got {value!r}")
    if any(not ch.isprintable() for ch in value) or len(value) > limit:
        raise BetError(f"{label}: key {key!r} must be one line of at most {limit} printable characters")
    return value


def _amount(label: str, raw: object) -> Fraction:
    if isinstance(raw, float):
        raise BetError(
            f"{label}: bad amount {raw!r}: write it as an integer or a quoted exact number "
            '("19/20", "0.95"); TOML floats are not exact'
        )
    try:
        value = parse_exact(raw, "amount")
    except AnalyzerError as exc:
        raise BetError(f"{label}: {exc}") from None
    if value < -1:
        raise BetError(f"{label}: bad amount {raw!r}: a bet cannot lose more than its stake (-1)")
    return value
