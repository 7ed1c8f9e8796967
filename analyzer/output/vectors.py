"""Test vectors for baccarat engines written in other languages: a language-neutral kit.

``punto-banco vectors -o DIR`` writes (docs: docs/report.md, "Test vectors for engines in other languages"):

* ``coups.jsonl`` / ``coups.csv``: every leaf of the value-level dealing tree under the rules
  (339,400 under the standard tableau): the point values dealt in dealing order, both final
  totals, who drew, the winner, the cards used and the naturals.  Built here from the
  tableau's draw rules alone (:meth:`~analyzer.core.tableau.Tableau.draws`), not through
  :func:`~analyzer.core.coup.resolve`, so the tests can hold one against the other.
* ``settlements.jsonl`` / ``settlements.csv``: a seeded set of suited coups, each six cards
  dealt from a fresh 8-deck shoe, then the coverage coups of the bets
  (:func:`~analyzer.checks.coverage.coverage`: every event possible on 8 decks in every class
  of the deal and of the card patterns the bet reads, each row saying which it covers), and
  the net result per unit staked of every chosen bet on each
  (:meth:`~analyzer.bets.model.Bet.settle` on the resolved coup), as exact text.
* ``probabilities.jsonl`` / ``probabilities.csv``: for standard shoes of 1 to 8 decks, the
  exact counts and probabilities of the winner, the final totals, the naturals, the cards
  dealt, and every event of every chosen bet (:func:`~analyzer.engine.pricing.analyze`).
* ``golden.jsonl`` / ``golden.csv``: the golden counts of the chosen bets under the standard
  tableau (:func:`~analyzer.bets.catalogue.golden_counts`): counts a source prints, each row
  citing it, the same data the analyser's own tests hold it to (empty for other rules, or bets
  with none).
* ``schema.json``: every field of every file, with its type and meaning (JSON Schema 2020-12
  for the JSON Lines records and the manifest; a column list for the CSV files).
* ``MANIFEST.json``: the kit format, the analyser's version, the rules (name, title,
  fingerprint), the seed, the bets, the coverage (targets impossible or not found), and the
  SHA-256, size and record count of every file.

With ``keyed`` (``--keyed``) the JSON Lines records of coups and settlements are objects with
named fields (:data:`KEYED_FIELDS`; a settlement reads like a hand-log record).

Everything is deterministic: the same options give byte-identical files (no dates, no paths,
a generator defined by SHA-256 rather than by a library's random module).  Exact values are
strings (``"19/20"``, ``"-1"``, ``"p/q"``); a decimal beside a probability is the nearest IEEE
754 double to it (Python's int/int division is correctly rounded), written in its shortest
round-trip form.  Integers in the kit are below 2**53 for shoes of at most 8 decks, so a
JavaScript ``JSON.parse`` reads them exactly.

The kit's data is computed below (:func:`analyzer.checks.vector_kit.kit_data`, a frozen
:class:`~analyzer.checks.vector_kit.KitData`: the coups dealt, the bets settled, the tables
priced); here it is only written: as files in memory (:func:`kit_files`), then all or nothing
(:func:`write_kit`, through :func:`~analyzer.output.files.replace_folder`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shlex
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.bets.model import Bet
from analyzer.checks.coverage import (
    COUP_CARDS,
    COVERAGE_TRIES,
    COVERAGE_VARIANTS,
    SETTLEMENT_DECKS,
    Coverage,
    Target,
    ValueCoup,
)
from analyzer.checks.vector_kit import DECKS as DECKS  # the kit's constants, named here too
from analyzer.checks.vector_kit import MAX_COUPS as MAX_COUPS
from analyzer.checks.vector_kit import GoldenRow, KitData, ProbabilityRow, SettledCoup
from analyzer.core.cards import Card
from analyzer.core.coup import NATURAL_CLASSES
from analyzer.core.exact import fraction_text
from analyzer.core.tableau import Tableau
from analyzer.errors import OutputError
from analyzer.output.files import replace_folder
from analyzer.text import json_text

#: The kit's format name and version (in MANIFEST.json): bumped on any change of a file's
#: fields or meaning.
KIT_FORMAT = "punto-banco-vectors 3"
#: Every kit format this version replaces in place (a folder holding such a kit).
KIT_FORMATS = ("punto-banco-vectors 1", "punto-banco-vectors 2", KIT_FORMAT)
DEFAULT_SEED = 1
DEFAULT_COUPS = 2000
FORMATS: dict[str, tuple[str, ...]] = {"jsonl": ("jsonl",), "csv": ("csv",), "both": ("jsonl", "csv")}
MANIFEST = "MANIFEST.json"
SCHEMA = "schema.json"
DATA_FILES = ("coups", "settlements", "probabilities", "golden")
#: Every file name a kit can hold (a folder holding only these is a previous kit).
KIT_NAMES = frozenset({MANIFEST, SCHEMA} | {f"{s}.{e}" for s in DATA_FILES for e in ("jsonl", "csv")})


def card_code(card: Card) -> str:
    """A card as two characters: rank ``A 2-9 T J Q K``, suit ``s h d c`` (e.g. ``"Th"``)."""
    assert card.suit is not None
    return card.rank.value + card.suit.value


def settlement_row(settled: SettledCoup) -> dict[str, object]:
    """A settled coup as its settlements record: its number, ``kind`` (``"seeded"`` or
    ``"coverage"``), six cards, the cards the coup used, per bet (by its machine name) the
    event and the net result per unit staked (win amount, ``"0"`` a push, ``"-1"`` a loss) as
    exact text, and ``covers``: per bet, the classes this coup was kept for (empty for a seeded
    coup; see :func:`~analyzer.checks.coverage.coverage`)."""
    return {
        "coup": settled.number,
        "kind": settled.kind,
        "cards": [card_code(c) for c in settled.cards],
        "cards_used": settled.coup.cards_dealt,
        "results": {r.bet: {"event": r.event, "net": fraction_text(r.net)} for r in settled.results},
        "covers": {bet: list(cases) for bet, cases in settled.covers},
    }


def keyed_settlement(settled: SettledCoup) -> dict[str, object]:
    """A settled coup as a keyed record that reads like a hand-log record (docs/checks.md,
    "Hand-log format"): ``cards`` (the cards used), ``player`` and ``banker`` (the hands), the
    totals, ``winner``, ``stake`` 1 and ``bets`` (bet -> net result as exact text), so
    ``punto-banco verify`` reads it; beside them ``coup``, ``kind``, ``spare`` (the cards after
    those used), ``player_draws``, ``banker_draws``, ``cards_used``, ``events`` (bet -> event)
    and ``covers``."""
    row = settlement_row(settled)
    codes = row["cards"]
    assert isinstance(codes, list)
    coup = settled.coup
    used = coup.cards_dealt
    results = _results(row)
    return {
        "coup": row["coup"],
        "kind": row["kind"],
        "cards": codes[:used],
        "spare": codes[used:],
        "player": [card_code(c.card) for c in coup.player],
        "banker": [card_code(c.card) for c in coup.banker],
        "player_total": coup.player_total,
        "banker_total": coup.banker_total,
        "player_draws": coup.player_drew,
        "banker_draws": coup.banker_drew,
        "winner": coup.winner.value,
        "cards_used": used,
        "stake": 1,
        "bets": {name: r["net"] for name, r in results.items()},
        "events": {name: r["event"] for name, r in results.items()},
        "covers": row["covers"],
    }


def probability_row(row: ProbabilityRow) -> dict[str, object]:
    """A probability-table row as its record (the fields of ``probabilities`` in order): exact
    values as text, ``decimal`` the nearest IEEE 754 double to the probability."""
    return {
        "rules": row.rules,
        "decks": row.decks,
        "table": row.table,
        "bet": row.bet,
        "event": row.event,
        "pays": None if row.pays is None else fraction_text(row.pays),
        "count": row.count,
        "denominator": row.denominator,
        "probability": fraction_text(row.probability),
        "decimal": row.count / row.denominator,  # int / int: the correctly rounded double
    }


def golden_row(row: GoldenRow) -> dict[str, object]:
    """A golden count's event as its record (the fields of ``golden`` in order)."""
    return {
        "bet": row.bet,
        "decks": row.decks,
        "event": row.event,
        "count": row.count,
        "denominator": row.denominator,
        "probability": fraction_text(row.probability),
        "source": row.source,
        "prints": row.prints,
    }


# -- the schema ------------------------------------------------------------------------------------

_COVERS = (
    "Per bet, the classes this coup was kept for by the coverage search, each 'axis: class' (e.g. "
    "'deal: Player drew, Banker stood', 'ranks of Player's first two cards: ranks 2', 'colours of all "
    "cards: all red'), at the event the bet settles here; empty for a seeded coup. CSV: the classes "
    "of the row's bet, separated by ' | '."
)
#: Per data file, its fields: (name, JSON type(s), meaning).  The one description of the files:
#: the builders write these fields in this order and schema.json is generated from it.
FIELDS: dict[str, tuple[tuple[str, str | list[str], str], ...]] = {
    "coups": (
        (
            "cards",
            "array",
            "Point values 0-9 dealt, in dealing order: Player, Banker, Player, Banker, "
            "then the Player's third card if it drew, then the Banker's third card if it drew (4-6 "
            "values; 10, J, Q, K are 0; any card of that value gives the same coup). CSV: the values "
            "separated by single spaces.",
        ),
        ("player_total", "integer", "The Player's final total 0-9 (sum of its point values mod 10)."),
        ("banker_total", "integer", "The Banker's final total 0-9."),
        ("player_draws", "boolean", "The Player took a third card. CSV: true or false."),
        ("banker_draws", "boolean", "The Banker took a third card. CSV: true or false."),
        ("winner", "string", "player, banker or tie: the higher final total wins."),
        ("cards_used", "integer", "Cards the coup used: 4, 5 or 6 (the length of cards)."),
        (
            "naturals",
            "string",
            "Which sides' two-card totals are naturals (standard rules: 8 or 9; "
            "then both hands stood): none, player, banker or both.",
        ),
    ),
    "settlements": (
        ("coup", "integer", "The coup's number, 0 up (for a seeded coup, the i of the generator)."),
        (
            "kind",
            "string",
            "seeded: drawn by the seeded generator (MANIFEST.json, generator); coverage: found by the "
            "coverage search, for an event of a bet in a class (MANIFEST.json, coverage; covers).",
        ),
        (
            "cards",
            "array",
            "The six cards dealt from the shoe, in dealing order, as rank (A 2-9 T J Q "
            "K) and suit (s h d c), e.g. Th; the coup uses the first cards_used of them. CSV: "
            "separated by single spaces.",
        ),
        ("cards_used", "integer", "Cards the coup used: 4, 5 or 6."),
        (
            "results",
            "object",
            "JSON Lines only: per bet (its machine name, as in MANIFEST.json), an "
            "object {event, net}. CSV: one row per coup and bet, with the columns bet, event, net "
            "instead.",
        ),
        ("covers", "object", _COVERS),
    ),
    "probabilities": (
        ("rules", "string", "The rule set's name (MANIFEST.json gives its fingerprint)."),
        ("decks", "integer", "The standard shoe: this many 52-card decks (1-8)."),
        ("table", "string", "winner, totals, naturals, cards_dealt, or bet."),
        ("bet", ["string", "null"], "For table bet: the bet's machine name; else null (CSV: empty)."),
        (
            "event",
            "string",
            "winner: banker, player, tie. totals: player_total=P,banker_total=B. "
            "naturals: none, player, banker, both. cards_dealt: 4, 5, 6. bet: the event as the "
            "analyser names it (one line of the bet's pay table, e.g. Banker wins).",
        ),
        (
            "pays",
            ["string", "null"],
            "For table bet: the event's net result per unit staked, exact "
            "(e.g. 19/20, 0 for a push, -1 for a loss); else null (CSV: empty).",
        ),
        (
            "count",
            "integer",
            "Ordered 6-card sequences of the shoe's physical cards whose coup ends in "
            "this event (a coup that ends after 4 or 5 cards is padded with the next cards).",
        ),
        ("denominator", "integer", "N!/(N-6)!, N the cards in the shoe: every ordered 6-card sequence."),
        ("probability", "string", "count/denominator in lowest terms, as p/q (or an integer)."),
        (
            "decimal",
            "number",
            "The nearest IEEE 754 double to the probability, in its shortest "
            "round-trip form (for tolerance-free comparison with a double).",
        ),
    ),
    "golden": (
        ("bet", "string", "The catalogue bet (its machine name, NAME[:PARAM])."),
        ("decks", "integer", "The shoe: a full standard shoe of this many decks."),
        ("event", "string", "The event as the analyser names it (a line of the bet's pay table)."),
        ("count", "integer", "The count the source prints, digit for digit."),
        ("denominator", "integer", "What the count is out of (for a whole coup: N!/(N-6)!)."),
        ("probability", "string", "count/denominator in lowest terms, as p/q."),
        ("source", "string", "Where the count is printed: author, title, address."),
        ("prints", "string", "What the source prints, in words."),
    ),
}
#: The fields of a coup record, in order (coups.jsonl: the header line; coups.csv: the columns).
COUP_FIELDS: tuple[str, ...] = tuple(name for name, _, _ in FIELDS["coups"])
_FIELD = {stem: {name: (kind, meaning) for name, kind, meaning in fields} for stem, fields in FIELDS.items()}


def _field(stem: str, name: str) -> tuple[str, str | list[str], str]:
    return (name, *_FIELD[stem][name])


#: With ``--keyed``: the fields of the JSON Lines records of coups and settlements, objects with
#: named fields that read like a hand-log record (docs/checks.md, "Hand-log format").
KEYED_FIELDS: dict[str, tuple[tuple[str, str | list[str], str], ...]] = {
    "coups": (
        _field("coups", "cards"),
        ("player", "array", "The Player's point values in dealing order (2 or 3: P1, P2, its third card)."),
        ("banker", "array", "The Banker's point values in dealing order (2 or 3: B1, B2, its third card)."),
        *(_field("coups", n) for n in COUP_FIELDS[1:]),
    ),
    "settlements": (
        _field("settlements", "coup"),
        _field("settlements", "kind"),
        (
            "cards",
            "array",
            "The cards the coup used (cards_used of them), in dealing order, as rank (A 2-9 T J Q K) "
            "and suit (s h d c), e.g. Th: a hand log's cards.",
        ),
        ("spare", "array", "The cards dealt after them, to six (for an engine that deals six cards)."),
        ("player", "array", "The Player's hand in dealing order (2 or 3 cards)."),
        ("banker", "array", "The Banker's hand in dealing order (2 or 3 cards)."),
        ("player_total", "integer", "The Player's final total 0-9."),
        ("banker_total", "integer", "The Banker's final total 0-9."),
        ("player_draws", "boolean", "The Player took a third card."),
        ("banker_draws", "boolean", "The Banker took a third card."),
        ("winner", "string", "player, banker or tie."),
        _field("settlements", "cards_used"),
        ("stake", "integer", "1: every bet is settled per unit staked (a hand log's stake)."),
        (
            "bets",
            "object",
            "Per bet (its machine name, as in MANIFEST.json), the net result per unit staked, exact "
            "(e.g. 19/20, 0 a push, -1 a loss): a hand log's bets with stake 1.",
        ),
        ("events", "object", "Per bet, its event on this coup, as the analyser names it (a pay-table line)."),
        _field("settlements", "covers"),
    ),
}
#: The columns of settlements.csv (long: one row per coup and bet).
SETTLEMENT_CSV = ("coup", "kind", "cards", "cards_used", "bet", "event", "net", "covers")
_RESULT_FIELDS = {
    "event": "The bet's event on this coup, as the analyser names it (a line of its pay table).",
    "net": "Net result per unit staked, exact: the win amount (e.g. 19/20, 8), 0 for a push, "
    "-1 for a loss (a combined wager such as tie+player: per unit of its total stake).",
}
_MANIFEST_FIELDS: dict[str, tuple[str, str]] = {
    "format": ("string", f"The kit format and version: {KIT_FORMAT!r}."),
    "analyzer_version": ("string", "The version of punto-banco-analyzer that wrote the kit."),
    "rules": ("object", "The rule set: name, title and fingerprint (16 hex digits over the draw rules)."),
    "seed": ("integer", "The seed of the settlement coups."),
    "coups": ("integer", "Number of seeded settlement coups (the coverage coups follow them)."),
    "coverage": (
        "object",
        "The coverage coups: how many distinct coups, how many targets (event and class) they reach, "
        "the candidates and variants dealt, how they are searched, and per bet the targets that are "
        "impossible on 8 decks and those not found within the bound, each 'EVENT | axis: class'.",
    ),
    "settlement_shoe": ("string", "The shoe each settlement coup is dealt from (a fresh one per coup)."),
    "generator": ("string", "How the settlement coups are drawn (reproducible in any language)."),
    "decks": ("array", "The standard shoes of the probability tables, in decks."),
    "bets": ("array", "The bets settled and priced, by machine name (NAME or NAME:PARAM), in order."),
    "regenerate": ("string", "The command that writes this kit again (add -o FOLDER)."),
    "keyed": ("boolean", "The JSON Lines records of coups and settlements are keyed objects (--keyed)."),
    "files": (
        "object",
        "Per file (every file but this one): sha256 (hex digest of its bytes), bytes, "
        "and records (JSON Lines and CSV: the lines after any header line).",
    ),
}


#: Closed sets and ranges of values, per (file, field), for schema.json.
_LIMITS: dict[tuple[str, str], dict[str, object]] = {
    ("coups", "winner"): {"enum": ["player", "banker", "tie"]},
    ("coups", "naturals"): {"enum": list(NATURAL_CLASSES)},
    ("coups", "player_total"): {"minimum": 0, "maximum": 9},
    ("coups", "banker_total"): {"minimum": 0, "maximum": 9},
    ("coups", "cards_used"): {"minimum": 4, "maximum": 6},
    ("coups", "cards"): {
        "items": {"type": "integer", "minimum": 0, "maximum": 9},
        "minItems": 4,
        "maxItems": 6,
    },
    ("settlements", "coup"): {"minimum": 0},
    ("settlements", "kind"): {"enum": ["seeded", "coverage"]},
    ("settlements", "cards_used"): {"minimum": 4, "maximum": 6},
    ("settlements", "cards"): {
        "items": {"type": "string", "pattern": "^[A2-9TJQK][shdc]$"},
        "minItems": COUP_CARDS,
        "maxItems": COUP_CARDS,
    },
    ("settlements", "covers"): {"additionalProperties": {"type": "array", "items": {"type": "string"}}},
    ("probabilities", "table"): {"enum": ["winner", "totals", "naturals", "cards_dealt", "bet"]},
    ("probabilities", "decks"): {"minimum": 1},
    ("probabilities", "count"): {"minimum": 0},
    ("probabilities", "denominator"): {"minimum": 1},
}


_CARD_TEXT = {"type": "string", "pattern": "^[A2-9TJQK][shdc]$"}
_VALUE = {"type": "integer", "minimum": 0, "maximum": 9}
#: The keyed records' own limits (the others are those of :data:`_LIMITS`).
_KEYED_LIMITS: dict[tuple[str, str], dict[str, object]] = {
    ("coups", "player"): {"items": _VALUE, "minItems": 2, "maxItems": 3},
    ("coups", "banker"): {"items": _VALUE, "minItems": 2, "maxItems": 3},
    ("settlements", "cards"): {"items": _CARD_TEXT, "minItems": 4, "maxItems": COUP_CARDS},
    ("settlements", "spare"): {"items": _CARD_TEXT, "minItems": 0, "maxItems": 2},
    ("settlements", "player"): {"items": _CARD_TEXT, "minItems": 2, "maxItems": 3},
    ("settlements", "banker"): {"items": _CARD_TEXT, "minItems": 2, "maxItems": 3},
    ("settlements", "player_total"): {"minimum": 0, "maximum": 9},
    ("settlements", "banker_total"): {"minimum": 0, "maximum": 9},
    ("settlements", "winner"): {"enum": ["player", "banker", "tie"]},
    ("settlements", "stake"): {"enum": [1]},
    ("settlements", "bets"): {"additionalProperties": {"type": "string"}},
    ("settlements", "events"): {"additionalProperties": {"type": "string"}},
}


def _json_type(kind: str | list[str]) -> dict[str, object]:
    return {"type": kind}


def schema(formats: Sequence[str], keyed: bool = False) -> dict[str, object]:
    """The kit's schema.json: for each file, what its records hold (JSON Schema 2020-12 for a
    JSON Lines record and for MANIFEST.json; a column list for a CSV file); with ``keyed``, the
    JSON Lines records of coups and settlements are objects (:data:`KEYED_FIELDS`)."""
    files: dict[str, object] = {}
    for stem, fields in FIELDS.items():
        if "jsonl" in formats:
            props: dict[str, object] = {}
            records = KEYED_FIELDS.get(stem, fields) if keyed else fields
            for name, kind, meaning in records:
                prop: dict[str, object] = {**_json_type(kind), "description": meaning}
                prop.update(_LIMITS.get((stem, name), {}))
                if keyed:
                    prop.update(_KEYED_LIMITS.get((stem, name), {}))
                if name == "results":
                    prop["additionalProperties"] = {
                        "type": "object",
                        "additionalProperties": False,
                        "required": list(_RESULT_FIELDS),
                        "properties": {
                            k: {"type": "string", "description": v} for k, v in _RESULT_FIELDS.items()
                        },
                    }
                props[name] = prop
            if stem == "coups" and not keyed:  # 339,400 records: arrays under a header keep it to a third
                files[f"{stem}.jsonl"] = {
                    "description": "JSON Lines (UTF-8, '\\n' line ends): the first line is the array of "
                    "the field names; every further line is one record, an array of the fields in that "
                    f"order (as jsonlines.org shows), {_ABOUT[stem]}",
                    "header": list(COUP_FIELDS),
                    "record": {
                        "$schema": "https://json-schema.org/draft/2020-12/schema",
                        "type": "array",
                        "prefixItems": [props[name] for name in COUP_FIELDS],
                        "items": False,
                        "minItems": len(COUP_FIELDS),
                    },
                }
            else:
                files[f"{stem}.jsonl"] = {
                    "description": "JSON Lines: one JSON object per line (UTF-8, '\\n' line ends), "
                    + _ABOUT[stem],
                    "record": {
                        "$schema": "https://json-schema.org/draft/2020-12/schema",
                        "type": "object",
                        "additionalProperties": False,
                        "required": [name for name, _, _ in records],
                        "properties": props,
                    },
                }
        if "csv" in formats:
            names = SETTLEMENT_CSV if stem == "settlements" else tuple(n for n, _, _ in fields)
            meanings = (
                {n: m for n, _, m in fields}
                | _RESULT_FIELDS
                | {"bet": "The bet's machine name (as in MANIFEST.json)."}
            )
            files[f"{stem}.csv"] = {
                "description": f"CSV (RFC 4180, UTF-8, a header row, '\\n' line ends), {_ABOUT[stem]}",
                "columns": [{"name": n, "description": meanings[n]} for n in names],
            }
    files[MANIFEST] = {
        "description": "What wrote the kit, and a checksum of every other file.",
        "record": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": False,
            "required": list(_MANIFEST_FIELDS),
            "properties": {k: {"type": t, "description": m} for k, (t, m) in _MANIFEST_FIELDS.items()},
        },
    }
    return {
        "format": KIT_FORMAT,
        "description": "Test vectors of punto-banco-analyzer for baccarat (Punto Banco) engines in any "
        "language. Exact values are text (p/q); integers are below 2**53.",
        "files": files,
    }


_ABOUT = {
    "coups": "every leaf of the value-level dealing tree under the rules, in the order: first four "
    "values lexicographic, then the Player's third value, then the Banker's.",
    "settlements": "seeded suited coups, then coverage coups, and the net result of every bet on each "
    "(see MANIFEST.json, generator and coverage).",
    "probabilities": "exact probability tables for standard shoes of 1 to 8 decks.",
    "golden": "counts a source prints for the chosen catalogue bets (standard rules), each row "
    "citing it: the golden counts the analyser's own tests hold it to.",
}


# -- the files ----------------------------------------------------------------------------------------


def _json_line(row: object) -> str:
    return json_text(json.dumps(row, ensure_ascii=False, separators=(",", ":"))) + "\n"


_BOOL = {True: "true", False: "false"}


def _coup_json(c: ValueCoup) -> str:
    """A coup record as its JSON line, the fields of :data:`COUP_FIELDS` in order (what
    :func:`_json_line` gives for that list, written directly, three times faster: every field
    is an int, a bool or a fixed word)."""
    cards = ",".join(map(str, c.cards))
    return (
        f"[[{cards}],{c.player_total},{c.banker_total},{_BOOL[c.player_draws]},{_BOOL[c.banker_draws]},"
        f'"{c.winner}",{len(c.cards)},"{c.naturals}"]\n'
    )


def _coup_keyed_json(c: ValueCoup) -> str:
    """A coup record as its keyed JSON line (:data:`KEYED_FIELDS`), written directly."""
    v = c.cards
    player = [v[0], v[2], *v[4:5]] if c.player_draws else [v[0], v[2]]
    banker = [v[1], v[3], v[4 + c.player_draws]] if c.banker_draws else [v[1], v[3]]
    return (
        f'{{"cards":[{",".join(map(str, v))}],"player":[{",".join(map(str, player))}],'
        f'"banker":[{",".join(map(str, banker))}],"player_total":{c.player_total},'
        f'"banker_total":{c.banker_total},"player_draws":{_BOOL[c.player_draws]},'
        f'"banker_draws":{_BOOL[c.banker_draws]},"winner":"{c.winner}","cards_used":{len(v)},'
        f'"naturals":"{c.naturals}"}}\n'
    )


def _coup_csv(c: ValueCoup) -> str:
    """A coup record as its CSV line (no field needs quoting)."""
    cards = " ".join(map(str, c.cards))
    return (
        f"{cards},{c.player_total},{c.banker_total},{_BOOL[c.player_draws]},{_BOOL[c.banker_draws]},"
        f"{c.winner},{len(c.cards)},{c.naturals}\n"
    )


def _csv_text(header: Sequence[str], rows: Iterator[Sequence[object]]) -> tuple[str, int]:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    n = 0
    for row in rows:
        writer.writerow(row)
        n += 1
    return out.getvalue(), n


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(map(str, value))
    return value


@dataclass(frozen=True)
class KitOptions:
    """What a kit holds.

    Attributes:
        tableau: the rules.
        bets: the bets settled and priced, in order (the command's default: every catalogue bet,
            :func:`~analyzer.bets.catalogue.catalogue_bets`).
        seed: the settlement coups' seed (a whole number >= 0).
        coups: number of settlement coups (1 to :data:`MAX_COUPS`).
        formats: ``("jsonl",)``, ``("csv",)`` or both.
        rules_spec: how ``--rules`` named the rules, for the manifest's command.
        bet_specs: how ``--bet`` named the bets, for the manifest's command (empty, with no
            ``bet_files``: every catalogue bet, the default).
        bet_files: the ``--bet-file`` files the bets came from, for the manifest's command.
        bet_modules: the ``--bet-module`` Python bets (``MODULE:NAME``), for the manifest's command.
        coverage: add coverage coups (:func:`~analyzer.checks.coverage.coverage`): every
            event of every bet possible on 8 decks, in every class of every axis it can be in.
        keyed: write the JSON Lines records of coups and settlements as objects with named
            fields (:data:`KEYED_FIELDS`) instead of arrays under a header line (coups) and
            nested results (settlements).
    """

    tableau: Tableau
    bets: tuple[Bet, ...]
    seed: int = DEFAULT_SEED
    coups: int = DEFAULT_COUPS
    formats: tuple[str, ...] = ("jsonl", "csv")
    rules_spec: str = "standard"
    bet_specs: tuple[str, ...] = ()
    coverage: bool = True
    bet_files: tuple[str, ...] = ()
    keyed: bool = False
    bet_modules: tuple[str, ...] = ()


def kit_files(data: KitData, options: KitOptions) -> dict[str, bytes]:
    """The kit's files, file name -> UTF-8 bytes (MANIFEST.json last), written in memory from
    ``data`` (:func:`analyzer.checks.vector_kit.kit_data` of the same rules, bets, seed, number
    of coups and coverage as ``options``) in the formats of ``options``.

    Raises:
        OutputError: no format or a bad one; ``data`` computed for other options.
    """
    if not options.formats or any(f not in ("jsonl", "csv") for f in options.formats):
        raise OutputError(f"bad formats {options.formats!r}: use jsonl, csv or both")
    seeded = sum(1 for s in data.settlements if s.kind == "seeded")
    if (data.tableau, data.bets, data.seed, seeded, data.coverage is not None) != (
        options.tableau, tuple(options.bets), options.seed, options.coups, options.coverage
    ):
        raise OutputError("the kit's data was computed for other rules, bets, seed, coups or coverage")
    tableau = data.tableau
    names = [b.name for b in data.bets]
    texts: dict[str, tuple[str, int]] = {}
    coups = data.coups
    found = data.coverage
    settled = [settlement_row(s) for s in data.settlements]
    probabilities = [probability_row(r) for r in data.probabilities]
    golden = [golden_row(r) for r in data.golden]
    if "jsonl" in options.formats:
        if options.keyed:
            texts["coups.jsonl"] = ("".join(map(_coup_keyed_json, coups)), len(coups))
            keyed = (keyed_settlement(s) for s in data.settlements)
            texts["settlements.jsonl"] = ("".join(map(_json_line, keyed)), len(settled))
        else:
            header = _json_line(list(COUP_FIELDS))
            texts["coups.jsonl"] = (header + "".join(map(_coup_json, coups)), len(coups))
            texts["settlements.jsonl"] = ("".join(map(_json_line, settled)), len(settled))
        texts["probabilities.jsonl"] = ("".join(map(_json_line, probabilities)), len(probabilities))
        texts["golden.jsonl"] = ("".join(map(_json_line, golden)), len(golden))
    if "csv" in options.formats:
        texts["coups.csv"] = (",".join(COUP_FIELDS) + "\n" + "".join(map(_coup_csv, coups)), len(coups))
        texts["settlements.csv"] = _csv_text(
            SETTLEMENT_CSV,
            (
                [
                    r["coup"],
                    r["kind"],
                    _cell(r["cards"]),
                    r["cards_used"],
                    bet,
                    result["event"],
                    result["net"],
                    " | ".join(_covers(r).get(bet, ())),
                ]
                for r in settled
                for bet, result in _results(r).items()
            ),
        )
        columns = [n for n, _, _ in FIELDS["probabilities"]]
        texts["probabilities.csv"] = _csv_text(
            columns, ([_cell(r[k]) for k in columns] for r in probabilities)
        )
        golden_columns = [n for n, _, _ in FIELDS["golden"]]
        texts["golden.csv"] = _csv_text(
            golden_columns, ([_cell(r[k]) for k in golden_columns] for r in golden)
        )
    schema_text = json.dumps(schema(options.formats, options.keyed), ensure_ascii=False, indent=2) + "\n"
    files: dict[str, bytes] = {name: text.encode("utf-8") for name, (text, _) in sorted(texts.items())}
    files[SCHEMA] = schema_text.encode("utf-8")
    records = {name: n for name, (_, n) in texts.items()} | {SCHEMA: 1}
    manifest = {
        "format": KIT_FORMAT,
        "analyzer_version": _version(),
        "rules": {"name": tableau.name, "title": tableau.title, "fingerprint": tableau.fingerprint},
        "seed": options.seed,
        "coups": options.coups,
        "settlement_shoe": f"{SETTLEMENT_DECKS} decks ({SETTLEMENT_DECKS * 52} cards), a fresh shoe per coup",
        "generator": (
            f"coup i, draw j (0-5): from the cards left of the {SETTLEMENT_DECKS * 52}-card shoe listed rank "
            f"A 2-9 T J Q K, then suit s h d c, each card {SETTLEMENT_DECKS} times, take the card at index "
            "u mod m (m the cards left), u the first 8 bytes, big-endian, of SHA-256 of the ASCII text "
            "'punto-banco-vectors SEED i j ATTEMPT', ATTEMPT 0, 1, ... until u < 2**64 - (2**64 mod m)"
        ),
        "coverage": _coverage_manifest(found, names),
        "keyed": options.keyed,
        "decks": list(DECKS),
        "bets": names,
        "regenerate": _command(options),
        "files": {
            name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "records": records[name]}
            for name, data in files.items()
        },
    }
    files[MANIFEST] = (json_text(json.dumps(manifest, ensure_ascii=False, indent=2)) + "\n").encode("utf-8")
    return files


#: How the coverage search works, for the manifest.
COVERAGE_SEARCH = (
    "after the seeded coups, coverage coups: for every bet, every event possible on 8 decks crossed "
    "with every class of each axis: the deal (a natural of the Player, of the Banker, of both; else "
    "whether each side stood or drew) and, per set of card positions the bet reads, the rank pattern "
    "(when it reads ranks) and the suit or colour pattern at the detail it reads; the classes possible "
    "are priced exactly on 8 decks (the others are impossible); candidates t = 0, 1, ... are dealt "
    "from a seeded SHA-256 stream (value alphabets, card alphabets, runs of one suit, suit styles per "
    f"side), at most {COVERAGE_TRIES:,}, then variants of the coups found (suits and 10-value ranks "
    f"permuted, each side's hand in one suit, one or two cards changed), at most {COVERAGE_VARIANTS:,}; "
    "a coup is kept when it reaches a target not reached before; its row says which (covers)"
)


def _coverage_manifest(found: Coverage | None, names: Sequence[str]) -> dict[str, object]:
    """The manifest's coverage section: counts, the search, and per bet the targets that are
    impossible and the ones not found, each as ``"EVENT | axis: class"``."""

    def by_bet(targets: Sequence[Target]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for t in targets:
            out.setdefault(t.bet, []).append(f"{t.event} | {t.case}")
        return {name: out[name] for name in names if name in out}

    if found is None:
        return {"coups": 0, "targets": 0, "tries": 0, "variants": 0, "search": "off (--no-coverage)",
                "impossible": {}, "not_found": {}}
    return {
        "coups": len(found.distinct()),
        "targets": len(found.coups),
        "tries": found.tries,
        "variants": found.variants,
        "search": COVERAGE_SEARCH,
        "impossible": by_bet(found.impossible),
        "not_found": by_bet(found.not_found),
    }


def _covers(row: dict[str, object]) -> dict[str, list[str]]:
    covers = row["covers"]
    assert isinstance(covers, dict)
    return covers


def _results(row: dict[str, object]) -> dict[str, dict[str, str]]:
    results = row["results"]
    assert isinstance(results, dict)
    return results


def _version() -> str:
    return __version__


def _command(options: KitOptions) -> str:
    fmt = "both" if len(options.formats) == 2 else options.formats[0]
    words = ["punto-banco", "vectors", "--rules", options.rules_spec, "--seed", str(options.seed)]
    words += ["--coups", str(options.coups), "--format", fmt]
    if not options.coverage:
        words.append("--no-coverage")
    if options.keyed:
        words.append("--keyed")
    for spec in options.bet_specs:
        words += ["--bet", spec]
    for path in options.bet_files:
        words += ["--bet-file", path]
    for module in options.bet_modules:
        words += ["--bet-module", module]
    return shlex.join(words)


def kit_names(formats: Sequence[str]) -> frozenset[str]:
    """The file names of a kit in ``formats`` (``"jsonl"``, ``"csv"``)."""
    return frozenset({MANIFEST, SCHEMA} | {f"{stem}.{ext}" for stem in DATA_FILES for ext in formats})


def check_folder(folder: str | Path, names: Collection[str] = KIT_NAMES) -> None:
    """Refuse, before anything is built, a folder the kit may not be written into: it must be
    new (in a folder that exists), empty, or hold a previous kit (a MANIFEST.json of this
    format and only files of ``names``, the files the new kit writes: a previous kit's file
    that the new one does not write is refused, never silently dropped).

    Raises:
        OutputError: an empty name, a file, a missing parent folder, or a folder holding
            anything else (the message names one of its entries).
    """
    given = str(folder)
    if not given.strip():
        raise OutputError("empty folder name: give a new folder, e.g. -o vectors/")
    real = Path(os.path.realpath(given))
    if real.exists() and not real.is_dir():
        raise OutputError(f"cannot write {given!r}: it is a file, not a folder")
    if not real.parent.is_dir():
        parent = os.path.dirname(given.rstrip("/")) or "."
        raise OutputError(f"cannot write {given!r}: the folder {parent!r} does not exist (create it first)")
    if real.is_dir():
        try:
            with os.scandir(real) as entries:
                present = sorted(e.name for e in entries)
        except OSError as exc:
            raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
        if present and not _is_kit(real, present):
            more = f" and {len(present) - 1} more" if len(present) > 1 else ""
            raise OutputError(
                f"refusing to write into {given!r}: it holds {present[0]!r}{more} and is not a test-vector "
                "kit; give a new folder (or an empty one)"
            )
        stale = sorted(set(present) - set(names))
        if stale:
            raise OutputError(
                f"refusing to write into {given!r}: its previous kit holds {stale[0]!r}, which this kit "
                "does not write; give a new folder, or the same --format"
            )


def write_kit(folder: str | Path, files: dict[str, bytes]) -> None:
    """Write a kit into ``folder`` (see :func:`check_folder`), all or nothing: the files are
    written into a sibling folder that is then swapped into place
    (:func:`~analyzer.output.files.replace_folder`, which also refuses a previous kit holding
    a file this kit does not write, e.g. CSV files when only JSON Lines are written now).

    Raises:
        OutputError: as :func:`check_folder`; a write fails.
    """

    check_folder(folder, frozenset(files))
    replace_folder(str(folder), files)


def _is_kit(folder: Path, present: Sequence[str]) -> bool:
    if MANIFEST not in present or not set(present) <= KIT_NAMES:
        return False
    try:
        with open(folder / MANIFEST, "rb") as fh:
            doc: Any = json.loads(fh.read(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("format") in KIT_FORMATS
