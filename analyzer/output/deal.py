"""One coup dealt from given cards, told as the dealer tells it, with bets settled on it (what
``punto-banco deal`` prints and the web service's ``deal`` answers).

The coup is resolved and every bet settled below, in a frozen :class:`~analyzer.bets.settle.Deal`
(:func:`analyzer.bets.settle.deal`); here it is only told: :func:`deal_lines` is the text the
command prints and :func:`deal_document` the same facts as data (exact amounts as ``"p/q"``
text beside exactly rounded decimals, as every JSON output of the analyser).
"""

from __future__ import annotations

from fractions import Fraction

from analyzer.bets.settle import Deal
from analyzer.checks.verify import amount_text
from analyzer.core.coup import Coup
from analyzer.core.exact import fraction_text, round_fraction
from analyzer.core.tableau import Tableau


def deal_story(coup: Coup, tableau: Tableau) -> list[str]:
    """Why each hand drew or stood, one line each: the two-card totals, then the natural, or the
    Player's rule and the Banker's (with the card drawn)."""
    p2, b2 = coup.player_two_card_total, coup.banker_two_card_total
    player, banker = coup.player, coup.banker
    lines = [f"Player {player[0]} {player[1]} = {p2}; Banker {banker[0]} {banker[1]} = {b2}"]
    if coup.natural:
        lines.append("A natural: both hands stand.")
        return lines
    lines.append(tableau.player_rule_text(p2) + (f": draws {coup.player[2]}" if coup.player_drew else "."))
    lines.append(
        tableau.banker_rule_text(b2, coup.player_third)
        + (f": draws {coup.banker[2]}" if coup.banker_drew else ".")
    )
    return lines


def deal_lines(result: Deal) -> list[str]:
    """The lines ``punto-banco deal`` prints: the announcement, the story (indented), the cards
    not dealt, and each bet's event, pay and net amount."""
    lines = [result.coup.announce(), *(f"  {line}" for line in deal_story(result.coup, result.tableau))]
    if result.not_dealt:
        extra = " ".join(str(c) for c in result.not_dealt)
        lines.append(f"  (the coup used {result.coup.cards_dealt} cards; not dealt: {extra})")
    if result.settled:
        lines.append(f"Bets settled (stake {amount_text(result.stake)} each):")
        width = max(len(s.bet.name) for s in result.settled)
        for s in result.settled:
            sign = "+" if s.net > 0 else ""
            lines.append(
                f"  {s.bet.name:<{width}}  {s.event}: pays {fraction_text(s.pays)} per unit, "
                f"net {sign}{amount_text(s.net)}"  # money as a decimal when exact (+9.5, not +19/2)
            )
    return lines


def _exact(x: Fraction, digits: int) -> dict[str, object]:
    return {"": fraction_text(x), "_decimal": round_fraction(x, digits)}


def deal_document(result: Deal, digits: int = 10) -> dict[str, object]:
    """A :class:`~analyzer.bets.settle.Deal` as data: the cards (as given, then the dealt ones
    per side), the coup's fields, the story and the settled bets.  Exact amounts are ``"p/q"``
    text (``KEY``) beside a ``Decimal`` rounded exactly to ``digits`` (``KEY_decimal``)."""
    c = result.coup

    def exact(key: str, x: Fraction) -> dict[str, object]:
        return {key + suffix: value for suffix, value in _exact(x, digits).items()}

    settled: list[dict[str, object]] = [
        {
            "bet_name": s.bet.name,
            "bet": s.bet.title,
            "event": s.event,
            **exact("pays", s.pays),
            **exact("net", s.net),
        }
        for s in result.settled
    ]
    doc: dict[str, object] = {
        "cards": [str(card) for card in result.cards],
        "player": [str(card) for card in c.player],
        "banker": [str(card) for card in c.banker],
        "player_total": c.player_total,
        "banker_total": c.banker_total,
        "winner": c.winner.value,
        "player_natural": c.player_natural,
        "banker_natural": c.banker_natural,
        "player_drew": c.player_drew,
        "banker_drew": c.banker_drew,
        "cards_dealt": c.cards_dealt,
        "not_dealt": [str(card) for card in result.not_dealt],
        "announcement": c.announce(),
        "story": deal_story(c, result.tableau),
        **exact("stake", result.stake),
        "settled": settled,
        "lines": deal_lines(result),
    }
    return doc


__all__ = ["deal_document", "deal_lines", "deal_story"]
