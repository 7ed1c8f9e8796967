"""Parameters of the catalogue's bets built in Python (``NAME:PARAM``): options, sides,
amounts and cards, and the first two cards of a side."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from fractions import Fraction

from analyzer.bets.main import parse_amount
from analyzer.core.cards import Card, parse_card
from analyzer.core.coup import (
    BANKER_FIRST_TWO,
    PLAYER_FIRST_TWO,
    Coup,
    Winner,
)
from analyzer.core.hands import CardGroup
from analyzer.core.reads import Reads
from analyzer.errors import BetError

F = Fraction
P, B, T = Winner.PLAYER, Winner.BANKER, Winner.TIE


def _choice(param: str | None, options: Mapping[str, object], default: str, what: str) -> str:
    """The option ``param`` names (case-insensitive), or ``default``.

    Raises:
        BetError: ``param`` names none of ``options``.
    """
    if param is None:
        return default
    key = param.strip().lower()
    if key not in options:
        raise BetError(f"bad {what} {param!r}: use one of {', '.join(options)}")
    return key


def _side(param: str | None, what: str) -> Winner:
    """``player`` (default) or ``banker`` (also ``p`` / ``b``)."""
    key = _choice(param, {"player": P, "banker": B, "p": P, "b": B}, "player", f"{what} side")
    return P if key in ("player", "p") else B


def _options(param: str | None, defaults: dict[str, str], what: str) -> dict[str, str]:
    """``key=value`` options separated by commas, over ``defaults`` (which name every key).

    Raises:
        BetError: an unknown or repeated key, or an option without ``=``.
    """
    out = dict(defaults)
    if param is None:
        return out
    seen: set[str] = set()
    for part in param.split(","):
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not value.strip():
            raise BetError(f"bad {what} option {part.strip()!r}: write KEY=VALUE, e.g. "
                           f"{next(iter(defaults))}={defaults[next(iter(defaults))]}")
        if key not in defaults:
            raise BetError(f"unknown {what} option {key!r}: known are {', '.join(defaults)}")
        if key in seen:
            raise BetError(f"{what} option {key!r} is given twice")
        seen.add(key)
        out[key] = value.strip()
    return out


def _amount(text: str, what: str) -> Fraction:
    """A non-negative exact amount (a meter reading, a prize, a stake).

    Raises:
        BetError: not an exact number, or negative.
    """
    value = parse_amount(text, what)
    if value < 0:
        raise BetError(f"bad {what} {text!r}: it must be 0 or more")
    return value


def _two_cards(text: str, what: str) -> tuple[Card, Card]:
    """Two cards with suits written together, e.g. ``Ks9h`` (or ``K♠ 9♥`` as ``Ks 9h``).

    Raises:
        BetError: not exactly two cards, each with its suit.
    """
    tokens = re.findall(r"(10|[2-9TJQKA])([shdc])", text.strip(), flags=re.IGNORECASE)
    joined = "".join(r + s for r, s in tokens).lower()
    if len(tokens) != 2 or joined != re.sub(r"\s", "", text).lower():
        raise BetError(f"bad {what} {text!r}: give two cards with their suits, e.g. Ks9h")
    first, second = (parse_card(r + s) for r, s in tokens)
    return first, second


def _card_text(cards: tuple[Card, ...]) -> str:
    return "".join(c.rank.label + (c.suit.value if c.suit else "") for c in cards)


def _first_two(side: Winner, ranks: str = "none", suits: str = "none") -> Reads:
    """What a bet on ``side``'s first two cards reads, at the given rank and suit detail."""
    return Reads.of([], [PLAYER_FIRST_TWO if side is P else BANKER_FIRST_TWO], ranks=ranks, suits=suits)


def _side_cards(side: Winner) -> Callable[[Coup], CardGroup]:
    members = PLAYER_FIRST_TWO if side is P else BANKER_FIRST_TWO

    def cards(c: Coup) -> CardGroup:
        group: CardGroup = c.cards(members)
        return group

    return cards

