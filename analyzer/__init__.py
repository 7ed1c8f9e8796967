"""Exact combinatorial analyser for Punto Banco (baccarat).

>>> from analyzer import Shoe, analyze
>>> analyze(Shoe.standard(8)).outcome_counts["Tie"]
475627426473216

``import analyzer`` stays cheap: it imports neither click, tabulate nor sympy.
"""

from analyzer.analysis import (
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
from analyzer.bets import Bet, PayLine, combine
from analyzer.cards import Card, Rank, Suit, parse_card, parse_cards
from analyzer.catalogue import catalogue_bets, find_bet, main_bets
from analyzer.coup import Coup, Winner, resolve
from analyzer.errors import AnalyzerError, BetError, CardError, CoupError, ShoeError
from analyzer.features import Features, Level
from analyzer.rules import banker_draws, player_draws
from analyzer.shoe import Shoe

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
