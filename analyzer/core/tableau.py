"""The tableau (table of play) as a value: which two-card totals are naturals and when each side
draws (RULES.md, "Tableau"; rule sheets 000-004; the Table of Play printed on sheet 004).

A :class:`Tableau` is immutable and has a stable :attr:`~Tableau.fingerprint` over its rule
data (not its name), so every compiled table and cache entry can be keyed by the rules it was
computed under.  Named rule sets live in a registry (:data:`TABLEAUX`, :func:`find_tableau`);
any other rule set is a TOML file (:func:`parse_tableau`, :meth:`Tableau.to_toml`).  No other
module holds a rule constant: everything that resolves, walks, verifies or tests coups takes a
``Tableau``.

>>> STANDARD.player_draws(5), STANDARD.banker_draws(3, 8), STANDARD.banker_draws(6, None)
(True, False, False)
>>> find_tableau("banker-stands-on-6").banker_draws(6, 7)
False
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from analyzer.core.digest import sha256_hex
from analyzer.errors import RulesError
from analyzer.text import json_text

TOTALS = range(10)
#: A rule file is a few lines; refuse anything larger before parsing it.
MAX_RULES_FILE_BYTES = 64_000


def _check_total(what: str, total: object) -> int:
    if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 9:
        raise RulesError(f"bad {what} {total!r}: a baccarat total or point value is a whole number 0-9")
    return total


@dataclass(frozen=True)
class Tableau:
    """A Punto Banco rule set (who draws when), immutable.

    Attributes:
        name: registry name, lower-case and hyphenated (``"standard"``).
        title: one-line description for table headers.
        naturals: two-card totals on which both hands stand and the coup is decided.
        player_draws_on: the Player's two-card totals (not naturals) on which it draws.
        banker_draws_when_player_stood: the Banker's two-card totals on which it draws when the
            Player took no third card.
        banker_draws_on_third: for each Banker two-card total 0-9, the point values 0-9 of the
            Player's third card on which the Banker draws (empty for naturals and "never").
        source: where the rules come from.

    Build with :func:`make_tableau` (checked), :func:`parse_tableau` (TOML) or
    :func:`find_tableau` (registry name or file).
    """

    name: str
    title: str
    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    banker_draws_when_player_stood: frozenset[int]
    banker_draws_on_third: tuple[frozenset[int], ...]
    source: str = field(default="", compare=False)

    # -- the rules ------------------------------------------------------------------------------

    def is_natural(self, two_card_total: int) -> bool:
        """True when a two-card total (0-9) is a natural.

        Raises:
            RulesError: the total is not 0-9.
        """
        return _check_total("two-card total", two_card_total) in self.naturals

    def player_draws(self, total: int) -> bool:
        """Whether the Player draws a third card on a two-card ``total`` (0-9); False on a
        natural (either side's natural is checked first by :meth:`decided_by_naturals`).

        Raises:
            RulesError: the total is not 0-9.
        """
        return _check_total("Player total", total) in self.player_draws_on

    def banker_draws(self, banker_total: int, player_third: int | None) -> bool:
        """Whether the Banker draws, on its two-card total 0-9 and the point value 0-9 of the
        Player's third card (``None`` when the Player stood; 10, J, Q, K have value 0).

        Raises:
            RulesError: a total or point value is not 0-9.
        """
        total = _check_total("Banker total", banker_total)
        if player_third is None:
            return total in self.banker_draws_when_player_stood
        return _check_total("Player third-card value", player_third) in self.banker_draws_on_third[total]

    def decided_by_naturals(self, player_two: int, banker_two: int) -> bool:
        """True when either two-card total is a natural: both hands stand."""
        return player_two in self.naturals or banker_two in self.naturals

    # -- the order of the rules: the one place it lives --------------------------------------
    # A natural on either side ends the coup; else the Player draws or stands on its two-card
    # total; then the Banker, on its total and the Player's third card (None when it stood).
    # Every dealer and checker (resolve, the engine's walk, verify, the decision cells, the
    # oracle) asks these two questions, in this order.

    def player_draws_third(self, player_two: int, banker_two: int) -> bool:
        """Whether the Player draws a third card in a coup with these two-card totals: never
        after a natural on either side, else as :meth:`player_draws`.

        Raises:
            RulesError: a total is not 0-9.
        """
        return not self.decided_by_naturals(player_two, banker_two) and self.player_draws(player_two)

    def banker_draws_third(self, player_two: int, banker_two: int, player_third: int | None) -> bool:
        """Whether the Banker draws a third card in a coup with these two-card totals, once the
        Player's hand is as dealt: ``player_third`` is the point value of its third card, or
        ``None`` when it stood.  Never after a natural on either side, else as
        :meth:`banker_draws`.

        Raises:
            RulesError: a total or point value is not 0-9.
        """
        return not self.decided_by_naturals(player_two, banker_two) and self.banker_draws(
            banker_two, player_third
        )

    def draws(self, player_two: int, banker_two: int, player_third: int | None) -> tuple[bool, bool]:
        """(Player draws, Banker draws) for the two-card totals, given the Player's third-card
        value when it drew (ignored otherwise): :meth:`player_draws_third`, then
        :meth:`banker_draws_third` on the Player's hand as the tableau deals it.

        Raises:
            RulesError: the Player draws and ``player_third`` is ``None``; a bad total or value.
        """
        player = self.player_draws_third(player_two, banker_two)
        third = player_third if player else None
        if player and third is None:
            raise RulesError("the Player draws: give the point value of its third card")
        return player, self.banker_draws_third(player_two, banker_two, third)

    # -- text ---------------------------------------------------------------------------------

    def player_rule_text(self, total: int) -> str:
        """The rule that decides the Player's draw, as a sentence for reports."""
        return f"Player on {total} must {'draw' if self.player_draws(total) else 'stand'}"

    def banker_rule_text(self, banker_total: int, player_third: int | None) -> str:
        """The rule that decides the Banker's draw, as a sentence for reports.

        >>> STANDARD.banker_rule_text(3, 8)
        "Banker on 3 must stand when the Player's third card is 8"
        """
        verb = "draw" if self.banker_draws(banker_total, player_third) else "stand"
        if player_third is None:
            return f"Banker on {banker_total} must {verb} when the Player stands"
        return f"Banker on {banker_total} must {verb} when the Player's third card is {player_third}"

    def natural_rule_text(self, player_two: int, banker_two: int) -> str:
        """Why both hands stand on a natural, e.g. ``"Banker has a natural 9: both hands stand"``."""
        sides = [f"Player has a natural {player_two}"] if player_two in self.naturals else []
        if banker_two in self.naturals:
            sides.append(f"Banker has a natural {banker_two}")
        return " and ".join(sides) + ": both hands stand"

    @functools.cached_property
    def fingerprint(self) -> str:
        """A stable 16-hex-digit digest of the rule data (not the name or title): two rule
        sets with the same draws have the same fingerprint (computed once: every table lookup
        keys by it)."""
        return sha256_hex(self._canonical().encode())[:16]

    def _canonical(self) -> str:
        return json.dumps(
            {
                "naturals": sorted(self.naturals),
                "player_draws": sorted(self.player_draws_on),
                "banker_when_player_stood": sorted(self.banker_draws_when_player_stood),
                "banker_when_player_drew": [sorted(s) for s in self.banker_draws_on_third],
            },
            separators=(",", ":"),
        )

    def describe(self) -> str:
        """How table headers name the rules: the title, and for a non-standard set its name and
        fingerprint."""
        if self == STANDARD:
            return STANDARD.title
        return f"{self.name}: {self.title} (rules fingerprint {self.fingerprint})"

    def table_of_play(self) -> list[str]:
        """The tableau as a printed Table of Play (lines of text, like RULES.md)."""

        def listed(values: Iterable[int]) -> str:
            vals = sorted(values)
            return ", ".join(map(str, vals)) if vals else "never"

        non_natural = [t for t in TOTALS if t not in self.naturals]
        lines = [
            f"Rules: {self.name} - {self.title}",
            f"Naturals (both hands stand): {listed(self.naturals)}",
            f"Player draws on: {listed(self.player_draws_on)}; "
            f"stands on: {listed(t for t in non_natural if t not in self.player_draws_on)}",
            f"Banker, when the Player stood, draws on: {listed(self.banker_draws_when_player_stood)}",
            "Banker, when the Player drew:",
            "  Banker total | draws when the Player's third card is | stands when it is",
        ]
        for total in non_natural:
            draws = self.banker_draws_on_third[total]
            stands = [v for v in TOTALS if v not in draws]
            lines.append(
                f"  {total:>12} | {('any' if len(draws) == 10 else listed(draws)):<37} | "
                f"{'-' if not stands else ('any' if len(stands) == 10 else listed(stands))}"
            )
        return lines

    def to_toml(self) -> str:
        """The rule set as the TOML that :func:`parse_tableau` reads back (round trip)."""

        def arr(values: Iterable[int]) -> str:
            return "[" + ", ".join(map(str, sorted(values))) + "]"

        def string(text: str) -> str:  # a TOML basic string, safe to show (no raw DEL or RLO)
            return json_text(json.dumps(text, ensure_ascii=False))

        out = [
            "# A Punto Banco tableau (table of play), read by `punto-banco --rules FILE`.",
            f"name = {string(self.name)}",
            f"title = {string(self.title)}",
        ]
        if self.source:
            out.append(f"source = {string(self.source)}")
        out += [
            "",
            "# two-card totals on which both hands stand and the coup is decided",
            f"naturals = {arr(self.naturals)}",
            "# the Player's two-card totals on which it draws a third card",
            f"player_draws = {arr(self.player_draws_on)}",
            "",
            "[banker]",
            "# when the Player stood: the Banker's two-card totals on which it draws",
            f"when_player_stood = {arr(self.banker_draws_when_player_stood)}",
            "",
            "# when the Player drew: for each Banker two-card total, the point values of the",
            '# Player\'s third card on which the Banker draws ("any", or a list; [] for never)',
            "[banker.when_player_drew]",
        ]
        for total in TOTALS:
            if total in self.naturals:
                continue
            draws = self.banker_draws_on_third[total]
            out.append(f"{total} = " + ('"any"' if len(draws) == 10 else arr(draws)))
        return "\n".join(out) + "\n"


def make_tableau(
    name: str,
    title: str,
    *,
    naturals: Iterable[int],
    player_draws: Iterable[int],
    banker_when_player_stood: Iterable[int],
    banker_when_player_drew: Mapping[int, Iterable[int]],
    source: str = "",
) -> Tableau:
    """A checked :class:`Tableau`.

    ``banker_when_player_drew`` maps every Banker two-card total that is not a natural to the
    Player third-card values on which the Banker draws.

    Raises:
        RulesError: a total outside 0-9, a natural that also draws, a missing or extra Banker
            total, or a bad name.
    """
    if not isinstance(name, str) or not name.strip() or any(not ch.isprintable() for ch in name):
        raise RulesError(f"bad rules name {name!r}: give one line of text such as 'standard'")
    nat = frozenset(_check_total("natural total", t) for t in naturals)
    player = frozenset(_check_total("Player drawing total", t) for t in player_draws)
    stood = frozenset(_check_total("Banker drawing total", t) for t in banker_when_player_stood)
    for what, values in (("player_draws", player), ("banker when_player_stood", stood)):
        both = sorted(values & nat)
        if both:
            raise RulesError(f"{what} lists {both[0]}, which is a natural: a natural never draws")
    table: list[frozenset[int]] = [frozenset()] * 10
    seen: set[int] = set()
    for key, thirds in banker_when_player_drew.items():
        total = _check_total("Banker total", key)
        if total in nat:
            raise RulesError(f"banker when_player_drew gives total {total}, which is a natural")
        table[total] = frozenset(_check_total("Player third-card value", v) for v in thirds)
        seen.add(total)
    missing = [t for t in TOTALS if t not in nat and t not in seen]
    if missing:
        raise RulesError(
            f"banker when_player_drew has no entry for Banker total {missing[0]}: give every "
            "non-natural total (use [] for never)"
        )
    return Tableau(name.strip(), title.strip() or name.strip(), nat, player, stood, tuple(table), source)


def parse_tableau(text: str, where: str = "rules") -> Tableau:
    """Read a rule set from TOML text (the format :meth:`Tableau.to_toml` writes).

    Raises:
        RulesError: not TOML, unknown or missing keys, bad values; the message names ``where``.
    """
    from analyzer.core.tomltext import load_toml  # lazy: start-up time (only a rules file needs it)

    doc = load_toml(text, where, RulesError, "rules file")
    allowed = {"name", "title", "source", "naturals", "player_draws", "banker"}
    for key in doc:
        if key not in allowed:
            raise RulesError(f"{where}: unknown key {key!r}: allowed keys are {', '.join(sorted(allowed))}")
    for key in ("name", "naturals", "player_draws", "banker"):
        if key not in doc:
            raise RulesError(f"{where}: key {key!r} is missing")
    banker = doc["banker"]
    if not isinstance(banker, dict) or set(banker) != {"when_player_stood", "when_player_drew"}:
        raise RulesError(f"{where}: [banker] needs exactly when_player_stood and [banker.when_player_drew]")
    drew = banker["when_player_drew"]
    if not isinstance(drew, dict):
        raise RulesError(f"{where}: banker.when_player_drew must be a table: Banker total = values")
    table: dict[int, list[int]] = {}
    for key, values in drew.items():
        if not (key.isascii() and key.isdigit() and len(key) == 1):
            raise RulesError(f"{where}: banker.when_player_drew key {key!r} is not a Banker total 0-9")
        table[int(key)] = (
            list(TOTALS) if values == "any" else _int_list(where, f"when_player_drew.{key}", values)
        )
    for key in ("name", "title", "source"):
        if key in doc and not isinstance(doc[key], str):
            raise RulesError(f"{where}: key {key!r} must be text")
    try:
        return make_tableau(
            doc["name"],
            doc.get("title", doc["name"]),
            naturals=_int_list(where, "naturals", doc["naturals"]),
            player_draws=_int_list(where, "player_draws", doc["player_draws"]),
            banker_when_player_stood=_int_list(
                where, "banker.when_player_stood", banker["when_player_stood"]
            ),
            banker_when_player_drew=table,
            source=doc.get("source", f"rules file {where}"),
        )
    except RulesError as exc:
        raise RulesError(f"{where}: {exc}") from None


def _int_list(where: str, key: str, values: object) -> list[int]:
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise RulesError(f"{where}: {key} must be a list of totals 0-9, e.g. [0, 1, 2]")
    if len(set(values)) != len(values):
        raise RulesError(f"{where}: {key} lists a total twice")
    return list(values)


STANDARD = make_tableau(
    "standard",
    "standard Punto Banco tableau (RULES.md, rule sheets 000-004)",
    naturals=(8, 9),
    player_draws=range(6),
    banker_when_player_stood=range(6),
    banker_when_player_drew={
        0: TOTALS,
        1: TOTALS,
        2: TOTALS,
        3: (0, 1, 2, 3, 4, 5, 6, 7, 9),
        4: (2, 3, 4, 5, 6, 7),
        5: (4, 5, 6, 7),
        6: (6, 7),
        7: (),
    },
    source="RULES.md, 'Tableau'; rule sheets 000-004; sheet 004's printed Table of Play",
)

#: The Banker never draws on 6, even when the Player's third card is 6 or 7 (all else standard).
BANKER_STANDS_ON_6 = replace(
    STANDARD,
    name="banker-stands-on-6",
    title="Banker never draws on 6 (all else standard)",
    banker_draws_on_third=tuple(
        frozenset() if t == 6 else s for t, s in enumerate(STANDARD.banker_draws_on_third)
    ),
    source="variant for diagnosing engines; examples/rules/banker-stands-on-6.toml",
)

#: When the Player stood, the Banker draws on 0-4 only (a misreading printed on a public rules
#: page); all else standard.
BANKER_UNDER_5_WHEN_PLAYER_STOOD = replace(
    STANDARD,
    name="banker-under-5-when-player-stood",
    title="Banker draws on 0-4 only when the Player stood (all else standard)",
    banker_draws_when_player_stood=frozenset(range(5)),
    source="a misreading printed on a public rules page; "
    "examples/rules/banker-under-5-when-player-stood.toml",
)

#: Named rule sets (cf. python-chess ``find_variant``).
#: An engine bug seen in the wild, for diagnosing logs: the Banker on 6 also draws against a
#: Player third card of 5.
BANKER_DRAWS_ON_6_AGAINST_5 = replace(
    STANDARD,
    name="banker-draws-on-6-against-5",
    title="Banker draws on 6 against a Player third card of 5 (an engine bug; all else standard)",
    banker_draws_on_third=tuple(
        s | {5} if t == 6 else s for t, s in enumerate(STANDARD.banker_draws_on_third)
    ),
    source="an engine bug for diagnosing conform; examples/rules/banker-draws-on-6-against-5.toml",
)

TABLEAUX: dict[str, Tableau] = {
    t.name: t
    for t in (STANDARD, BANKER_STANDS_ON_6, BANKER_UNDER_5_WHEN_PLAYER_STOOD, BANKER_DRAWS_ON_6_AGAINST_5)
}


def find_tableau(spec: str | Tableau) -> Tableau:
    """The rule set named ``spec`` (case-insensitive, ``_`` as ``-``), or read from the TOML file
    ``spec`` when no such name exists.

    Raises:
        RulesError: neither a known name nor a readable rules file.

    >>> find_tableau("Standard") is STANDARD
    True
    """
    if isinstance(spec, Tableau):
        return spec
    if not isinstance(spec, str) or not spec.strip():
        raise RulesError(f"bad rules {spec!r}: give a rule-set name ({', '.join(TABLEAUX)}) or a TOML file")
    key = spec.strip().lower().replace("_", "-")
    if key in TABLEAUX:
        return TABLEAUX[key]
    path = Path(spec)
    if not path.exists() and (spec.lower().endswith(".toml") or "/" in spec or os.sep in spec):
        raise RulesError(f"{spec}: no such rules file")
    if not path.exists():
        raise RulesError(
            f"unknown rules {spec!r}: known rule sets are {', '.join(TABLEAUX)}; or give a TOML rules file"
        )
    if not path.is_file():
        raise RulesError(f"{spec}: not a regular file")
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_RULES_FILE_BYTES + 1)
    except OSError as exc:
        raise RulesError(f"{spec}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_RULES_FILE_BYTES:
        raise RulesError(f"{spec}: larger than {MAX_RULES_FILE_BYTES:,} bytes; a rules file is a few lines")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(f"{spec}: not UTF-8 text (byte {exc.start})") from None
    return parse_tableau(text, spec)
