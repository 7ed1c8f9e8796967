"""Exact combinatorial analyser for Punto Banco (baccarat).

>>> from analyzer import Shoe, analyze
>>> analyze(Shoe.standard(8)).outcome_counts["Tie"]
475627426473216

``import analyzer`` stays cheap: it imports neither click, tabulate nor sympy.
"""

from analyzer.bets.catalogue import catalogue_bets, find_bet, main_bets
from analyzer.bets.model import Bet, PayLine, combine
from analyzer.core.cards import Card, Rank, Suit, parse_card, parse_cards
from analyzer.core.coup import Coup, Winner, resolve
from analyzer.core.features import Features, Level
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import banker_draws, player_draws
from analyzer.engine.pricing import (
    Analysis,
    BetSummary,
    Distribution,
    EventRow,
    Pricer,
    analyze,
    distribution,
    pay_for_edge,
    price,
)
from analyzer.errors import AnalyzerError, BetError, CardError, CoupError, ShoeError

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "AnalyzerError",
    "Bet",
    "BetError",
    "BetSummary",
    "Card",
    "CardError",
    "Coup",
    "CoupError",
    "Distribution",
    "EventRow",
    "Features",
    "Level",
    "PayLine",
    "Pricer",
    "Rank",
    "Shoe",
    "ShoeError",
    "Suit",
    "Winner",
    "__version__",
    "analyze",
    "banker_draws",
    "catalogue_bets",
    "combine",
    "distribution",
    "find_bet",
    "main_bets",
    "parse_card",
    "parse_cards",
    "pay_for_edge",
    "player_draws",
    "price",
    "resolve",
]
