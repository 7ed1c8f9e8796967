"""The tableau (table of play) as data, per RULES.md and the rule sheets 000-004.

Every draw is fixed; no one has an option.  The two public functions are the reference that
other implementations can test their own drawing rules against.
"""

from __future__ import annotations

#: How generated tables name the rules they were computed under.
TABLEAU = "standard Punto Banco tableau (RULES.md, rule sheets 000-004)"

#: Two-card totals that are naturals: both hands stand and the coup is decided.
NATURALS = frozenset({8, 9})

#: Player: draws on 0-5, stands on 6-7 (8-9 are naturals).
PLAYER_DRAWS_ON = frozenset({0, 1, 2, 3, 4, 5})

#: Banker, when the Player stood: draws on 0-5, stands on 6-7.
BANKER_DRAWS_ON_WHEN_PLAYER_STOOD = frozenset({0, 1, 2, 3, 4, 5})

#: Banker, when the Player drew: for each Banker total, the point values of the Player's third
#: card on which the Banker draws (RULES.md, "Tableau", table of step 4).
BANKER_DRAWS_ON_PLAYER_THIRD: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def _check_total(what: str, total: int) -> None:
    if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 9:
        raise ValueError(f"bad {what} {total!r}: a baccarat total is a whole number 0-9")


def is_natural(total: int) -> bool:
    """True when a two-card total (0-9) is a natural (8 or 9).

    Raises:
        ValueError: ``total`` is not 0-9.
    """
    _check_total("total", total)
    return total in NATURALS


def player_draws(total: int) -> bool:
    """Whether the Player draws a third card on a two-card total of 0-7.

    Call only when neither side has a natural; a total of 8 or 9 is a natural and returns False.

    Raises:
        ValueError: ``total`` is not 0-9.

    >>> [t for t in range(10) if player_draws(t)]
    [0, 1, 2, 3, 4, 5]
    """
    _check_total("Player total", total)
    return total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether the Banker draws a third card.

    Args:
        banker_total: the Banker's two-card total, 0-9.
        player_third: the point value 0-9 of the Player's third card, or ``None`` when the
            Player stood.  A 10, J, Q or K has point value 0.

    Call only when neither side has a natural; a Banker total of 8 or 9 returns False.

    Raises:
        ValueError: a total or point value is not 0-9.

    >>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(6, None), banker_draws(6, 7)
    (False, True, False, True)
    """
    _check_total("Banker total", banker_total)
    if player_third is None:
        return banker_total in BANKER_DRAWS_ON_WHEN_PLAYER_STOOD
    _check_total("Player third-card value", player_third)
    return player_third in BANKER_DRAWS_ON_PLAYER_THIRD.get(banker_total, frozenset())


def banker_rule_text(banker_total: int, player_third: int | None) -> str:
    """The tableau rule that decides the Banker's draw, as a sentence for error reports.

    >>> banker_rule_text(3, 8)
    "Banker on 3 must stand when the Player's third card is 8"
    """
    verb = "draw" if banker_draws(banker_total, player_third) else "stand"
    if player_third is None:
        return f"Banker on {banker_total} must {verb} when the Player stands"
    return f"Banker on {banker_total} must {verb} when the Player's third card is {player_third}"


def player_rule_text(total: int) -> str:
    """The tableau rule that decides the Player's draw, as a sentence for error reports."""
    return f"Player on {total} must {'draw' if player_draws(total) else 'stand'}"
