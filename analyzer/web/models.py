"""The request bodies of the service (pydantic models: FastAPI checks every request against them
and publishes them in the OpenAPI document at ``/openapi.json``).

Every model is strict (a number is a JSON number, a flag ``true`` or ``false``, text a string)
and refuses unknown fields, so a misspelt option is an error, not silently ignored.  Every text
and list has a bound; what the values mean is checked by the library (a bad card, an unknown
bet), whose one-line message the answer carries.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from analyzer.bets.choice import MAX_PAYS_CHARS
from analyzer.bets.files import MAX_FILE_BYTES as MAX_BET_FILE_BYTES
from analyzer.checks.logmap import MAX_MAP_BYTES
from analyzer.core.tableau import MAX_RULES_FILE_BYTES
from analyzer.web.limits import MAX_BODY_BYTES, MAX_DECKS, MAX_FIELD_CHARS, MAX_SEEN

CardText = Annotated[str, StringConstraints(min_length=1, max_length=8)]
BetSpec = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Text = Annotated[str, StringConstraints(max_length=MAX_FIELD_CHARS)]
#: Longest card string of ``deal`` (100 cards, each at most 3 characters and a separator).
MAX_DEAL_CHARS = 400
CardList = Annotated[list[CardText], Field(min_length=1, max_length=100)]
CardString = Annotated[str, StringConstraints(min_length=1, max_length=MAX_DEAL_CHARS)]
#: Most bets named in one request's list (the server's --max-bets counts them with the file's).
MAX_BET_SPECS = 1_000


def _strict(examples: list[dict[str, Any]] | None = None) -> ConfigDict:
    extra: dict[str, Any] = {"examples": examples} if examples else {}
    return ConfigDict(extra="forbid", strict=True, json_schema_extra=extra)


class ShoeIn(BaseModel):
    """A shoe: ``decks`` standard decks (default 8) or ``counts`` (as ``--shoe`` reads them: 13
    counts A..K, ``RANK=COUNT`` pairs, or 52 counts / ``CARD=COUNT`` pairs with suits); then the
    cards already dealt taken out: ``seen`` (card tokens, e.g. ``["5h", "K"]``; a card without
    a suit makes the shoe rank-only) or ``remove`` (text as ``--remove`` reads it)."""

    model_config = _strict([{"decks": 8, "seen": ["5h", "Kd"]}])

    decks: int | None = Field(
        default=None, ge=1, le=MAX_DECKS, description="Standard shoe of N decks (default 8)."
    )
    counts: Text | None = Field(default=None, description="The shoe as --shoe reads it, e.g. '8=2,K=3'.")
    seen: list[CardText] = Field(
        default_factory=list, max_length=MAX_SEEN, description="Cards dealt so far, taken out of the shoe."
    )
    remove: Text | None = Field(
        default=None, description="Cards or counts to take out, as --remove reads them."
    )


def _full_shoe() -> ShoeIn:
    return ShoeIn()


def _main_tables() -> list[Literal["outcomes", "bets", "totals", "cards", "naturals", "all"]]:
    return ["outcomes", "bets"]


class _Rules(BaseModel):
    rules: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = Field(
        default=None, description="A registered rule set (see /api/v1/rules); default standard."
    )
    rules_toml: Annotated[str, StringConstraints(max_length=MAX_RULES_FILE_BYTES)] | None = Field(
        default=None, description="A rules file's TOML text (as 'punto-banco rules --toml' writes it)."
    )


class _Bets(_Rules):
    bets: list[BetSpec] = Field(
        default_factory=list,
        max_length=MAX_BET_SPECS,
        description="Catalogue bets, NAME or NAME:PARAM (see /api/v1/catalogue).",
    )
    bet_file: Annotated[str, StringConstraints(max_length=MAX_BET_FILE_BYTES)] | None = Field(
        default=None, description="A bet file's TOML text: every bet in it is chosen (never a path)."
    )


Digits = Annotated[int, Field(ge=0, le=100, description="Decimals of each KEY_decimal, rounded exactly.")]
#: A list of winning pays, as ``--pays`` reads it.
PaysText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_PAYS_CHARS)]


class PriceIn(_Bets):
    """``punto-banco bets``: the exact EV, house edge, hit frequency and SD of bets on a shoe."""

    model_config = _strict(
        [
            {"shoe": {"decks": 8, "seen": ["5h", "Kd"]}, "bets": ["dragon-7"]},
            {"shoe": {"decks": 6}, "bets": ["tie", "panda-8"], "events": True, "digits": 6},
            {"shoe": {"decks": 8}, "pays": "30,10,6,4,2,1"},
        ]
    )

    shoe: ShoeIn = Field(default_factory=_full_shoe)
    all: bool = Field(default=False, description="Every catalogue bet first (--all).")
    events: bool = Field(default=False, description="Also each bet's events table (--events).")
    fair_pay: bool = Field(
        default=False, description="Also the pay making each adjustable bet fair (--fair-pay)."
    )
    target_edge: Annotated[str, StringConstraints(max_length=50)] | None = Field(
        default=None,
        description="Also the pay giving this house edge in percent, e.g. '1.5' (--target-edge).",
    )
    pays: PaysText | None = Field(
        default=None,
        description="Instead of bets: the catalogue bets whose pay table is this list of winning pays, "
        "e.g. '30,10,6,4,2,1' (--pays).",
    )
    with_params: bool = Field(
        default=False,
        description="With pays: also the bets whose parameter gives those pays (--with-params).",
    )
    digits: Digits = 10


class AnalyzeIn(_Rules):
    """``punto-banco analyze``: outcome, main-bet, totals, cards and naturals tables."""

    model_config = _strict([{"shoe": {"decks": 8}, "tables": ["outcomes", "bets"]}])

    shoe: ShoeIn = Field(default_factory=_full_shoe)
    tables: list[Literal["outcomes", "bets", "totals", "cards", "naturals", "all"]] = Field(
        default_factory=_main_tables, min_length=1, max_length=6
    )
    digits: Digits = 10


class DealIn(_Bets):
    """``punto-banco deal``: one coup from cards in dealing order, bets settled on it."""

    model_config = _strict(
        [
            {"cards": ["2", "4", "3", "10", "6", "A"], "bets": ["dragon-7", "banker"]},
            {"cards": "5h Kd 9s 2c", "bets": ["perfect-pair"]},
        ]
    )

    cards: CardList | CardString = Field(
        description="Cards in dealing order: P1 B1 P2 B2, then third cards; a list of cards, or one "
        "string as the command reads them ('2 4 3 10 6 A' or '2,4,3,10,6,A').",
        examples=[["2", "4", "3", "10", "6", "A"], "5h Kd 9s 2c"],
    )
    stake: Annotated[str, StringConstraints(min_length=1, max_length=50)] = Field(
        default="1", description="Stake per bet, exact: '10', '2.5', '1/2'."
    )
    digits: Digits = 10


class VerifyIn(_Bets):
    """``punto-banco verify``: a hand log checked against the rules, the pay tables and (with
    ``shoe``) the cards a shoe can hold."""

    model_config = _strict(
        [{"log": "cards,winner\n2 4 3 10 6 A,banker\n", "log_format": "csv", "bets": ["dragon-7"]}]
    )

    log: Annotated[str, StringConstraints(max_length=MAX_BODY_BYTES)] = Field(
        description="The hand log's text (docs/checks.md, 'Hand-log format')."
    )
    log_format: Literal["csv", "jsonl"] | None = Field(
        default=None, description="The log's format (default: the map's format)."
    )
    map: Annotated[str, StringConstraints(max_length=MAX_MAP_BYTES)] | None = Field(
        default=None,
        description="How a log from another engine is written: a map file's TOML text (--map; "
        "docs/checks.md, 'Logs written by other engines'), never a path.",
    )
    shoe: ShoeIn | None = Field(
        default=None, description="Check every card against this shoe (default: no check)."
    )
    paid: Literal["net", "returned"] = Field(
        default="net", description="What a settled amount means (--paid)."
    )
    max_report: int = Field(
        default=0, ge=0, description="List at most N discrepancies (0: the server's limit)."
    )


PeekTable = Literal["patterns", "summary", "house", "all"]


def _all_peek_tables() -> list[PeekTable]:
    return ["all"]


class PeekIn(_Bets):
    """``punto-banco peek``: the exact edge of partial information (edge sorting, exposed
    cards): the patterns seen, each bet's EV given them, the best bet, the edges, the house's
    side; or (``search``) every two-group sort ranked by the edge it gives."""

    model_config = _strict(
        [
            {"shoe": {"decks": 8}, "see": "P1", "classes": "6-9", "bets": ["player", "banker"]},
            {"see": "first:4", "search": "value", "top": 3},
        ]
    )

    shoe: ShoeIn = Field(default_factory=_full_shoe)
    see: Annotated[str, StringConstraints(min_length=1, max_length=100)] = Field(
        default="P1", description="What is seen: P1 B1 P2 B2 P3 B3, first:N, burn, P1=9 (--see)."
    )
    classes: Annotated[str, StringConstraints(min_length=1, max_length=100)] = Field(
        default="6-9", description="The classes seen: 6-9, A-3/4-7/8-K, colour, suit (--classes)."
    )
    search: Literal["value", "rank"] | None = Field(
        default=None, description="Rank every two-group sort of the values or ranks (--search)."
    )
    top: int = Field(default=10, ge=0, le=5000, description="With search: sorts shown, 0 all (--top).")
    stake: Annotated[str, StringConstraints(min_length=1, max_length=50)] = Field(
        default="1", description="Units staked a coup, exact (--stake)."
    )
    hands_per_shoe: int = Field(default=80, ge=1, le=10**6, description="Coups per shoe (--hands-per-shoe).")
    hands_per_hour: int = Field(default=60, ge=1, le=10**6, description="Coups per hour (--hands-per-hour).")
    tables: list[PeekTable] = Field(
        default_factory=_all_peek_tables, min_length=1, max_length=4, description="Tables (--table)."
    )
    digits: Digits = 10


class ErrorOut(BaseModel):
    """Every error: one line, what is wrong and what is allowed."""

    error: str


# -- the answers (documented in the OpenAPI document; the routes send the commands' own JSON,
# -- which tests/test_web_api.py checks against these models field by field) ----------------

#: One field of a data row: an exact value as ``"p/q"`` text, a decimal rounded exactly (a
#: JSON number with every digit asked for), a count, a flag, a name, or ``null``.
Cell = str | int | float | bool | None


class MetaOut(BaseModel):
    """What produced a document: tool and version, the command that prints the same document,
    the rules in words, the shoe (absent where there is none)."""

    generated_by: str = Field(description="punto-banco-analyzer and its version.")
    command: str = Field(description="The command line giving the same document.")
    rules: str | None = Field(default=None, description="The rules, in words.")
    shoe: str | None = Field(default=None, description="The shoe, in words.")


class TableOut(BaseModel):
    """One table as data: its ``columns`` are the data keys of its rows (docs/output.md, "Data
    for scripts": an exact value ``KEY`` as ``"p/q"`` beside ``KEY_decimal``, a percentage also
    ``KEY_percent``, an SD ``sd_squared`` (its exact square, the variance) and ``sd_decimal``)."""

    name: str = Field(description="The table's machine name, e.g. 'bets' or 'events:dragon-7'.")
    title: str
    columns: list[str] = Field(description="The data keys of the rows (exact, decimal, percent).")
    rows: list[dict[str, Cell]] = Field(description="One object per row, the same keys in every row.")
    notes: list[str] = Field(default_factory=list)


class TablesOut(BaseModel):
    """A document of tables: ``--format json`` of ``bets``, ``analyze`` and ``bets --list``."""

    meta: MetaOut | dict[str, str] = Field(
        description="What produced the document (empty for the catalogue)."
    )
    tables: list[TableOut]


class SettledOut(BaseModel):
    """A bet settled on one coup: its event, what it pays per unit and the net for the stake."""

    bet_name: str
    bet: str
    event: str
    pays: str = Field(description="Pays per unit staked, exact ('p/q').")
    pays_decimal: float
    net: str = Field(description="Net for the stake, exact ('p/q').")
    net_decimal: float


class DealOut(BaseModel):
    """One coup told (``punto-banco deal``): the cards, each side's hand and total, who drew and
    why, the bets settled, and the command's lines."""

    meta: MetaOut
    cards: list[str] = Field(description="The cards as given, in dealing order.")
    player: list[str]
    banker: list[str]
    player_total: int
    banker_total: int
    winner: Literal["player", "banker", "tie"]
    player_natural: bool
    banker_natural: bool
    player_drew: bool
    banker_drew: bool
    cards_dealt: int
    not_dealt: list[str] = Field(description="Cards given past the coup's last card.")
    announcement: str
    story: list[str] = Field(description="Why each hand drew or stood.")
    stake: str = Field(description="The stake per bet, exact ('p/q').")
    stake_decimal: float
    settled: list[SettledOut]
    lines: list[str] = Field(description="What the command prints, line by line.")


class VerifyOut(BaseModel):
    """A hand log checked (``punto-banco verify --format jsonl``): how it was read, the summary
    line, the tallies and the first discrepancies (each the object the command writes)."""

    read: str = Field(description="How the log was read (the command's first line).")
    summary: str
    conforms: bool
    coups: int
    records: int
    discrepancies: int
    failed_records: int
    reported: int = Field(description="Discrepancies listed in findings (all are counted).")
    ignored_fields: list[str]
    findings: list[dict[str, Any]] = Field(description="The command's JSON lines, one per discrepancy.")


class RuleSetOut(BaseModel):
    """A registered rule set."""

    name: str
    title: str
    fingerprint: str = Field(description="The rules' fingerprint (rows of results name it).")
    toml: str = Field(description="The rules file's TOML text (what rules_toml takes).")


class RulesOut(BaseModel):
    """The registered rule sets."""

    rules: list[RuleSetOut]


class CountSystemOut(BaseModel):
    """A published count system: one tag per point value, in the document's ``order``."""

    bet: str
    source: str
    tags: list[int]


class CountsOut(BaseModel):
    """Published count systems for the page's true count."""

    order: list[str] = Field(description="The point values the tags are in: A, 2, ..., 9, 10/J/Q/K.")
    systems: list[CountSystemOut]


class VectorDefaultsOut(BaseModel):
    """The defaults of ``punto-banco vectors``."""

    seed: int
    coups: int
    format: str


class VectorsOut(BaseModel):
    """The test-vector kit (``punto-banco vectors``): its format, files, defaults and schema."""

    format: str
    analyzer_version: str
    files: list[str]
    defaults: VectorDefaultsOut
    max_coups: int
    decks: list[int]
    settlement_decks: int
    command: str
    schema_: dict[str, Any] = Field(alias="schema", description="The kit's schema.json (JSON Schema).")


class LimitsOut(BaseModel):
    """The server's limits (each a ``punto-banco serve`` option)."""

    max_body: int
    max_bets: int
    timeout: float
    body_timeout: float
    head_timeout: float
    workers: int
    max_pending: int
    max_connections: int
    max_records: int
    compile_seconds: float
    worker_memory: int = Field(description="Megabytes past which a worker is replaced.")


class HealthOut(BaseModel):
    """The server is up: its version, the requests in progress and its limits."""

    status: Literal["ok"]
    version: str
    pending: int = Field(description="Requests scheduled and not yet answered.")
    limits: LimitsOut


MODELS = {"price": PriceIn, "analyze": AnalyzeIn, "deal": DealIn, "verify": VerifyIn, "peek": PeekIn}
