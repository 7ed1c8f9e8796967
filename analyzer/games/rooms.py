"""A room's fixed rules against the equilibrium: what the règle and the Punto Banco tableau cost.

A casino that deals chemin de fer fixes most of the Banker's play and leaves him a few options;
the Player's 5 is usually left to him.  A :class:`Room` says so: a tableau (the fixed part, as
:class:`~analyzer.core.tableau.Tableau` gives it), the cells ``(Banker total, Player's third
card or None when he stood)`` left to the Banker's option, and the Player's play on 5
(``"draw"``, ``"stand"`` or ``"option"``).  Two are shipped:

* ``regle``: the French *règle* of chemin de fer (the casino rules, as Ethier and Gámez 2013,
  section 1, give them): the Punto Banco tableau, except that the Banker has the option at 3
  against a 9, 4 against a 1, 5 against a 4 and 6 when the Player stands, and the Player the
  option on 5;
* ``punto-banco``: the standard tableau, nothing left to anyone (the Player draws on 5).

A room's own file is TOML, beside the tableau's format::

    name = "my-room"
    title = "the règle with the Banker's 6 against a stood Player fixed"
    tableau = "standard"              # a tableau name or a tableau file (standard when absent)
    player_on_5 = "option"            # "draw", "stand" or "option"
    [banker_options]                  # Banker total = the Player's third cards left to him
    3 = [9]
    4 = [1]
    5 = [4]                           # "stood" stands for a Player who did not draw

:func:`room_report` solves the game the room leaves (its options played optimally, the rest as
fixed) and measures each side's room strategy against an unrestricted best response.  Without
a commission only (the zero-sum game).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from analyzer.core.tableau import STANDARD, TABLEAUX, Tableau, find_tableau
from analyzer.errors import GameError, RulesError
from analyzer.games.model import BANKER_TOTALS, Game
from analyzer.games.solve import (
    Solution,
    banker_best_response,
    payoffs,
    player_best_response,
    solve,
)
from analyzer.text import json_text

PLAYER_PLAYS = ("draw", "stand", "option")
MAX_ROOM_FILE_BYTES = 64_000


@dataclass(frozen=True)
class Room:
    """A room's fixed rules of chemin de fer: the tableau it deals by, the Banker's cells left
    to his option (``(total 0-7, Player's third card 0-9 or None)``) and the Player's play on
    5 (``"draw"``, ``"stand"`` or ``"option"``)."""

    name: str
    title: str
    tableau: Tableau
    banker_options: frozenset[tuple[int, int | None]]
    player_on_5: str
    source: str = field(default="", compare=False)
    #: the tableau file the room's ``tableau`` key names (``None``: a tableau by name)
    tableau_file: str | None = field(default=None, compare=False)

    def banker_draws(self, total: int, third: int | None) -> bool:
        """The room's fixed play in a cell that is not an option: the tableau's."""
        return self.tableau.banker_draws(total, third)

    def options_text(self) -> str:
        """The Banker's options as shown: ``"3 v 9, 4 v 1, 5 v 4, 6 v stood"`` (or ``none``)."""
        cells = sorted(self.banker_options, key=lambda c: (c[0], 10 if c[1] is None else c[1]))
        return ", ".join(f"{t} v {'stood' if x is None else x}" for t, x in cells) or "none"


REGLE = Room(
    "regle",
    "the règle of chemin de fer: Banker options at 3 v 9, 4 v 1, 5 v 4, 6 v stood; the Player's 5 optional",
    STANDARD,
    frozenset({(3, 9), (4, 1), (5, 4), (6, None)}),
    "option",
    source="Ethier and Gámez (2013), section 1; casino rules of chemin de fer",
)
PUNTO_BANCO = Room(
    "punto-banco",
    "the Punto Banco tableau: nothing optional (the Player draws on 5)",
    STANDARD,
    frozenset(),
    "draw",
    source="RULES.md, 'Tableau'",
)
ROOMS = {r.name: r for r in (REGLE, PUNTO_BANCO)}


def _check_room_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not name.strip() or any(not ch.isprintable() for ch in name):
        raise GameError(f"{where}: name must be one line of text such as 'my-room'")
    return name.strip()


def parse_room(text: str, where: str = "room") -> Room:
    """A room from TOML text (the format in the module's docstring).

    Raises:
        GameError: not TOML, unknown or missing keys, a bad cell, a natural or an unknown
            tableau; the message names ``where``.
    """
    from analyzer.core.tomltext import load_toml  # lazy: start-up time (only a room file needs it)

    doc = load_toml(text, where, GameError, "room file")
    allowed = {"name", "title", "source", "tableau", "player_on_5", "banker_options"}
    for key in doc:
        if key not in allowed:
            raise GameError(f"{where}: unknown key {key!r}: allowed keys are {', '.join(sorted(allowed))}")
    for key in ("name", "player_on_5", "banker_options"):
        if key not in doc:
            raise GameError(f"{where}: key {key!r} is missing")
    name = _check_room_name(doc["name"], where)
    for key in ("title", "source", "tableau"):
        if key in doc and not isinstance(doc[key], str):
            raise GameError(f"{where}: key {key!r} must be text")
    play = doc["player_on_5"]
    if play not in PLAYER_PLAYS:
        raise GameError(f"{where}: player_on_5 must be one of {', '.join(PLAYER_PLAYS)}, not {play!r}")
    tableau_spec = doc.get("tableau", "standard")
    try:
        tableau = find_tableau(tableau_spec)
    except RulesError as exc:
        raise GameError(f"{where}: tableau: {exc}") from None
    options = doc["banker_options"]
    if not isinstance(options, dict):
        raise GameError(f"{where}: [banker_options] must be a table: Banker total = Player's third cards")
    cells: set[tuple[int, int | None]] = set()
    for key, thirds in options.items():
        if not (key.isascii() and key.isdigit() and len(key) == 1 and int(key) in BANKER_TOTALS):
            raise GameError(f"{where}: banker_options key {key!r} is not a Banker total 0-7")
        if not isinstance(thirds, list) or not thirds:
            raise GameError(f"{where}: banker_options.{key} must be a list of third cards 0-9 or \"stood\"")
        for third in thirds:
            if third == "stood":
                cell: tuple[int, int | None] = (int(key), None)
            elif isinstance(third, int) and not isinstance(third, bool) and 0 <= third <= 9:
                cell = (int(key), third)
            else:
                raise GameError(
                    f"{where}: banker_options.{key}: {third!r} is not a third card 0-9 or \"stood\""
                )
            if cell in cells:
                raise GameError(f"{where}: banker_options.{key}: {third!r} is listed twice")
            cells.add(cell)
    source = doc.get("source", f"room file {where}")
    named = tableau_spec.strip().lower().replace("_", "-") in TABLEAUX
    return Room(name, doc.get("title", name), tableau, frozenset(cells), play, source,
                None if named else tableau_spec)


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (escaped as JSON writes it, which TOML reads: quotes,
    backslashes, controls, line breaks; no raw DEL, C1 or bidirectional control shown)."""
    return json_text(json.dumps(text, ensure_ascii=False))


def room_toml(room: Room) -> str:
    """A room as the TOML :func:`parse_room` reads: its tableau by name, or by the file its
    own room file named; every string escaped (quotes, backslashes, line breaks, controls)."""
    tableau = room.tableau_file if room.tableau_file is not None else room.tableau.name
    lines = [f"name = {_toml_string(room.name)}", f"title = {_toml_string(room.title)}",
             f"tableau = {_toml_string(tableau)}", f"player_on_5 = {_toml_string(room.player_on_5)}",
             "", "[banker_options]"]
    by_total: dict[int, list[str]] = {}
    for total, third in sorted(room.banker_options, key=lambda c: (c[0], 10 if c[1] is None else c[1])):
        by_total.setdefault(total, []).append('"stood"' if third is None else str(third))
    lines += [f"{t} = [{', '.join(v)}]" for t, v in sorted(by_total.items())]
    return "\n".join(lines) + "\n"


def find_room(spec: str | Room) -> Room:
    """The room named ``spec`` (``regle``, ``punto-banco``) or read from the TOML file ``spec``.

    Raises:
        GameError: neither a known name nor a readable room file.
    """
    if isinstance(spec, Room):
        return spec
    key = spec.strip().lower().replace("_", "-").replace("è", "e")
    if key in ROOMS:
        return ROOMS[key]
    path = Path(spec)
    if path.is_dir():
        raise GameError(f"room file {spec}: is a directory")
    if not path.exists() and (spec.lower().endswith(".toml") or "/" in spec or os.sep in spec):
        raise GameError(f"room file {spec}: no such file")
    if not path.is_file():
        raise GameError(f"unknown room {spec!r}: give {', '.join(ROOMS)} or a room file (TOML)")
    try:
        data = path.read_bytes()[: MAX_ROOM_FILE_BYTES + 1]
    except OSError as exc:
        raise GameError(f"cannot read room file {spec}: {exc.strerror or exc}") from None
    if len(data) > MAX_ROOM_FILE_BYTES:
        raise GameError(f"room file {spec} is larger than {MAX_ROOM_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"room file {spec} is not UTF-8 text") from None
    return parse_room(text, spec)


def restrict(game: Game, room: Room) -> tuple[Game, list[int]]:
    """The game the room leaves: only the cells it leaves to the Banker's option (every
    composition of those totals), the fixed cells' play folded into the base.  Returns it with
    the index in ``game.cells`` of each cell kept."""
    kept = [c for c, cell in enumerate(game.cells) if (cell.total, cell.third) in room.banker_options]
    base = list(game.base)
    wins = list(game.base_wins)
    for c, cell in enumerate(game.cells):
        if c in kept:
            continue
        draws = room.banker_draws(cell.total, cell.third)
        net, won = (game.draw[c], game.draw_wins[c]) if draws else (game.stand[c], game.stand_wins[c])
        base = [a + b for a, b in zip(base, net, strict=True)]
        wins = [a + b for a, b in zip(wins, won, strict=True)]

    def pick(forms: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(forms[c] for c in kept)

    restricted = Game(game.model, game.decks, game.player_sets, tuple(game.cells[c] for c in kept),
                      game.denominator, tuple(base), pick(game.stand), pick(game.draw), tuple(wins),
                      pick(game.stand_wins), pick(game.draw_wins), tuple(game.reached[c] for c in kept))
    return restricted, kept


@dataclass(frozen=True)
class RoomReport:
    """A room against the equilibrium (each gain is the Player's expected net gain per coup).

    ``value``: the game's value, both sides free; ``room_value``: the value of the game the room
    leaves (its options played optimally by both sides); ``player`` / ``banker``: each side's
    play in the room at that optimum (the Player's draw probability per information set, the
    Banker's per cell of ``game``); ``player_best``: the Player's gain when he answers the room's
    Banker with an unrestricted best response; ``banker_best``: his gain when the Banker answers
    the room's Player so; so the room's Banker gives up ``player_best - value`` against a best
    response, the room's Player ``value - banker_best``.
    """

    room: Room
    game: Game
    value: Fraction
    room_value: Fraction
    player: tuple[Fraction, ...]
    banker: tuple[Fraction, ...]
    player_best: Fraction
    banker_best: Fraction
    solution: Solution

    @property
    def banker_loss(self) -> Fraction:
        """What the room's Banker gives up against the Player's best response."""
        return self.player_best - self.value

    @property
    def player_loss(self) -> Fraction:
        """What the room's Player gives up against the Banker's best response."""
        return self.value - self.banker_best


def room_report(game: Game, room: Room, solution: Solution | None = None) -> RoomReport:
    """``room`` against ``game``'s equilibrium (``solution``, solved when not given), exact.

    Raises:
        GameError: ``solution`` has a commission (rooms are measured in the zero-sum game).
    """
    free = solution if solution is not None else solve(game)
    if free.value is None:
        raise GameError("a room is measured against the zero-sum game: use --commission 0")
    restricted, kept = restrict(game, room)
    q = [Fraction(int(room.banker_draws(c.total, c.third))) if i not in kept else Fraction(0)
         for i, c in enumerate(game.cells)]
    if room.player_on_5 == "option":
        inner = solve(restricted, 0, uniqueness=False)
        p = inner.equilibria[0].player
        for i, qc in zip(kept, inner.equilibria[0].banker, strict=True):
            q[i] = qc
    else:
        p = (Fraction(int(room.player_on_5 == "draw")),) * game.size
        # the Banker's options answered best, cell by cell
        for i in kept:
            draw = sum(f * x for f, x in zip(game.draw[i][1:], p, strict=True)) + game.draw[i][0]
            stand = sum(f * x for f, x in zip(game.stand[i][1:], p, strict=True)) + game.stand[i][0]
            q[i] = Fraction(int(draw < stand))
    room_value = payoffs(game, p, q, Fraction(0))[0]
    return RoomReport(room, game, free.value, room_value, tuple(p), tuple(q),
                      player_best_response(game, q), -banker_best_response(game, p, Fraction(0)), free)
