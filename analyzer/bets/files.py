"""User-defined bets from TOML files (stdlib ``tomllib``).

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
-1) settles the rest.  A condition value may be a list (any of).  The vocabulary is
:data:`FEATURES`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.bets.model import Bet, PayLine
from analyzer.core.exact import parse_exact
from analyzer.core.features import FIELD_LEVEL, THIRD_FIELDS, Features, Level
from analyzer.errors import AnalyzerError, BetError

#: Feature name -> (allowed values, getter).  The level a feature needs and whether it reads
#: third cards come from :data:`analyzer.core.features.FIELD_LEVEL` and ``THIRD_FIELDS``.
FEATURES: dict[str, tuple[str, Callable[[Features], object]]] = {
    "winner": ("player, banker or tie", lambda f: f.winner.value),
    "player_total": ("0-9", lambda f: f.player_total),
    "banker_total": ("0-9", lambda f: f.banker_total),
    "winner_total": ("0-9 (the winning side's total; never matches a tie)", lambda f: f.winner_total),
    "player_cards": ("2 or 3", lambda f: f.player_cards),
    "banker_cards": ("2 or 3", lambda f: f.banker_cards),
    "winner_cards": ("2 or 3 (the winning side's; never matches a tie)", lambda f: f.winner_cards),
    "cards": ("4, 5 or 6 (cards dealt in the coup)", lambda f: f.cards),
    "margin": ("0-9 (winning margin in points)", lambda f: f.margin),
    "player_natural": ("true or false", lambda f: f.player_natural),
    "banker_natural": ("true or false", lambda f: f.banker_natural),
    "natural": ("true or false (either side)", lambda f: f.natural),
    "player_third": (
        '0-9, or "none" when the Player stood',
        lambda f: "none" if f.player_third is None else f.player_third,
    ),
    "banker_third": (
        '0-9, or "none" when the Banker stood',
        lambda f: "none" if f.banker_third is None else f.banker_third,
    ),
    "player_pair": ("true or false (first two cards same rank)", lambda f: f.player_pair),
    "banker_pair": ("true or false", lambda f: f.banker_pair),
    "player_suited_pair": ("true or false (same rank and suit)", lambda f: f.player_suited_pair),
    "banker_suited_pair": ("true or false", lambda f: f.banker_suited_pair),
}

#: A bet file is a few lines; refuse anything that is not (e.g. /dev/zero).
MAX_FILE_BYTES = 1_000_000
#: Most bets read from one file (each is priced in turn: a file of thousands would take
#: minutes); ``load_bets(max_bets=...)``, ``bets --max-bets`` or this variable raise it.
MAX_BETS_PER_FILE = 1_000
MAX_BETS_ENV = "PUNTO_BANCO_MAX_BETS"

_BET_KEYS = {"name", "title", "pay", "otherwise", "otherwise_event", "source"}
_LINE_KEYS = {"event", "when", "pays"}


def load_bets(path: str | Path, max_bets: int = MAX_BETS_PER_FILE) -> list[Bet]:
    """Read the bets defined in a TOML file (UTF-8, a leading byte order mark ignored as in
    hand logs), at most ``max_bets`` of them.

    Raises:
        BetError: the file is not valid TOML, holds more than ``max_bets`` bets, or a bet is
            malformed (unknown key or feature, bad value or pay); the message names the file,
            the bet and the offending key (or the limit).
        OSError: the file cannot be read.
    """
    if isinstance(max_bets, bool) or not isinstance(max_bets, int) or max_bets < 1:
        raise BetError(f"bad limit on bets per file {max_bets!r}: use a whole number >= 1")
    where = str(path)
    if not where.strip():
        raise BetError("empty bet-file name: give the path of a TOML file")
    if Path(path).is_dir():
        raise BetError(f"{where}: is a folder, not a TOML file")
    if Path(path).exists() and not Path(path).is_file():
        raise BetError(f"{where}: not a regular file")
    with open(path, "rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise BetError(f"{where}: larger than {MAX_FILE_BYTES // 1_000_000} MB; a bet file is a few lines")
    try:
        doc = tomllib.loads(data.decode("utf-8-sig"))  # Windows editors write a byte order mark
    except UnicodeDecodeError as exc:
        raise BetError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BetError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise BetError(f"{where}: nested too deeply to be a bet file") from None
    unknown = set(doc) - {"bet"}
    if unknown:
        raise BetError(f"{where}: unknown top-level key {sorted(unknown)[0]!r}: use [[bet]] tables")
    specs = doc.get("bet")
    if not isinstance(specs, list) or not specs:
        raise BetError(f"{where}: no bets: define at least one [[bet]] table")
    if len(specs) > max_bets:
        raise BetError(f"{where}: {len(specs):,} bets, more than the limit of {max_bets:,} bets per file "
                       f"(--max-bets or {MAX_BETS_ENV} raise it)")
    return [_bet(where, i, spec) for i, spec in enumerate(specs, 1)]


def _bet(where: str, number: int, spec: Any) -> Bet:
    if not isinstance(spec, dict):
        raise BetError(f"{where}: bet #{number} is not a table")
    name = spec.get("name")
    label = f"{where}: bet {name!r}" if isinstance(name, str) and name else f"{where}: bet #{number}"
    if "name" in spec and not isinstance(name, str):
        raise BetError(f"{label}: key 'name' must be text, got {name!r}")
    if not isinstance(name, str) or not name.strip():
        raise BetError(f"{label}: key 'name' is missing or empty")
    for key in ("name", "title", "source", "otherwise_event"):
        if key in spec:
            _text(label, key, spec[key])
    for key in spec:
        if key not in _BET_KEYS:
            raise BetError(f"{label}: unknown key {key!r}: allowed keys are {', '.join(sorted(_BET_KEYS))}")
    lines_spec = spec.get("pay")
    if not isinstance(lines_spec, list) or not lines_spec:
        raise BetError(f"{label}: key 'pay' needs at least one [[bet.pay]] line")
    level, thirds = Level.VALUE, False
    lines: list[PayLine] = []
    for j, line in enumerate(lines_spec, 1):
        if not isinstance(line, dict):
            raise BetError(f"{label}: pay line {j} is not a table")
        for key in line:
            if key not in _LINE_KEYS:
                raise BetError(f"{label}: pay line {j}: unknown key {key!r}: use event, when, pays")
        when = line.get("when", {})
        if not isinstance(when, dict):
            raise BetError(f"{label}: pay line {j}: 'when' must be a table of feature = value")
        cond, lv, th = _condition(f"{label}: pay line {j}", when)
        level, thirds = max(level, lv), thirds or th
        if "pays" not in line:
            raise BetError(f"{label}: pay line {j}: key 'pays' is missing")
        pays = _amount(f"{label}: pay line {j}: key 'pays'", line["pays"])
        event = _text(f"{label}: pay line {j}", "event", line.get("event", f"line {j}"))
        lines.append(PayLine(event, cond, pays))
    otherwise = _amount(f"{label}: key 'otherwise'", spec.get("otherwise", -1))
    adjustable = next((i for i, ln in enumerate(lines) if ln.pays > 0), None)
    return Bet(
        name=name.strip(),
        title=str(spec.get("title", name)).strip(),
        lines=tuple(lines),
        otherwise=otherwise,
        otherwise_event=str(spec.get("otherwise_event", "Loss" if otherwise < 0 else "Other")),
        level=level,
        thirds=thirds,
        source=str(spec.get("source", f"user-defined in {where}")),
        adjustable=adjustable if sum(ln.pays > 0 for ln in lines) == 1 else None,
    )


def _condition(label: str, when: dict[str, Any]) -> tuple[Callable[[Features], bool], Level, bool]:
    tests: list[tuple[Callable[[Features], object], set[object]]] = []
    level, thirds = Level.VALUE, False
    for key, raw in when.items():
        if key not in FEATURES:
            raise BetError(f"{label}: unknown feature {key!r}: known features are {', '.join(FEATURES)}")
        allowed, getter = FEATURES[key]
        lv, th = FIELD_LEVEL.get(key, Level.VALUE), key in THIRD_FIELDS
        values = raw if isinstance(raw, list) else [raw]
        if not values:
            raise BetError(f"{label}: feature {key!r} has an empty list of values")
        checked = {_value(label, key, allowed, v) for v in values}
        tests.append((getter, checked))
        level, thirds = max(level, lv), thirds or th

    def cond(f: Features) -> bool:
        return all(getter(f) in accepted for getter, accepted in tests)

    return cond, level, thirds


def _value(label: str, key: str, allowed: str, v: object) -> object:
    """Check one condition value against the feature's domain; return it normalised."""
    bad = BetError(f"{label}: feature {key!r} has bad value {v!r}: allowed {allowed}")
    if key == "winner":
        if not isinstance(v, str) or v.lower() not in ("player", "banker", "tie"):
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
    ranges = {"player_cards": (2, 3), "banker_cards": (2, 3), "winner_cards": (2, 3), "cards": (4, 6)}
    lo, hi = ranges.get(key, (0, 9))
    if not lo <= v <= hi:
        raise bad
    return v


def _text(label: str, key: str, value: object) -> str:
    """A one-line text value (names, titles, events end up in tables of every format)."""
    if not isinstance(value, str):
        raise BetError(f"{label}: key {key!r} must be text, got {value!r}")
    if any(not ch.isprintable() for ch in value) or len(value) > 200:
        raise BetError(f"{label}: key {key!r} must be one line of at most 200 printable characters")
    return value


def _amount(label: str, raw: object) -> Fraction:
    if isinstance(raw, float):
        raise BetError(
            f"{label}: bad amount {raw!r}: write it as an integer or a quoted exact number "
            "(\"19/20\", \"0.95\"); TOML floats are not exact"
        )
    try:
        value = parse_exact(raw, "amount")
    except AnalyzerError as exc:
        raise BetError(f"{label}: {exc}") from None
    if value < -1:
        raise BetError(f"{label}: bad amount {raw!r}: a bet cannot lose more than its stake (-1)")
    return value
