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

    model_config = _strict([{"cards": ["2", "4", "3", "10", "6", "A"], "bets": ["dragon-7", "banker"]}])

    cards: list[CardText] = Field(
        min_length=1, max_length=100, description="Cards in dealing order: P1 B1 P2 B2, then third cards."
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


MODELS = {"price": PriceIn, "analyze": AnalyzeIn, "deal": DealIn, "verify": VerifyIn, "peek": PeekIn}
