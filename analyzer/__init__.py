"""Exact combinatorial analyser for Punto Banco (baccarat).

>>> from analyzer import Shoe, analyze
>>> analyze(Shoe.standard(8)).outcome_counts["Tie"]
475627426473216

``import analyzer`` stays cheap: names are imported on first use (it pulls in neither click,
tabulate, sympy nor numpy).  The layers and where each name lives: docs/ARCHITECTURE.md.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"

#: Public name -> module that defines it.
_EXPORTS: dict[str, str] = {
    # core
    "Card": "analyzer.core.cards",
    "Colour": "analyzer.core.cards",
    "Rank": "analyzer.core.cards",
    "Suit": "analyzer.core.cards",
    "parse_card": "analyzer.core.cards",
    "parse_cards": "analyzer.core.cards",
    "Shoe": "analyzer.core.shoe",
    "Tableau": "analyzer.core.tableau",
    "STANDARD": "analyzer.core.tableau",
    "TABLEAUX": "analyzer.core.tableau",
    "find_tableau": "analyzer.core.tableau",
    "parse_tableau": "analyzer.core.tableau",
    "Coup": "analyzer.core.coup",
    "DealtCard": "analyzer.core.dealt",
    "Winner": "analyzer.core.coup",
    "resolve": "analyzer.core.coup",
    "PLAYER_FIRST_TWO": "analyzer.core.coup",
    "BANKER_FIRST_TWO": "analyzer.core.coup",
    "FIRST_FOUR": "analyzer.core.coup",
    "PLAYER_HAND": "analyzer.core.coup",
    "BANKER_HAND": "analyzer.core.coup",
    "ALL_CARDS": "analyzer.core.coup",
    "CardGroup": "analyzer.core.hands",
    "Reads": "analyzer.core.reads",
    "RankDetail": "analyzer.core.reads",
    "SuitDetail": "analyzer.core.reads",
    # bets
    "Bet": "analyzer.bets.model",
    "PayLine": "analyzer.bets.model",
    "combine": "analyzer.bets.model",
    "catalogue_bets": "analyzer.bets.catalogue",
    "find_bet": "analyzer.bets.catalogue",
    "main_bets": "analyzer.bets.catalogue",
    "load_bets": "analyzer.bets.files",
    # engine
    "Analysis": "analyzer.engine.pricing",
    "BetSummary": "analyzer.engine.pricing",
    "Distribution": "analyzer.engine.pricing",
    "EventRow": "analyzer.engine.pricing",
    "Pricer": "analyzer.engine.pricing",
    "analyze": "analyzer.engine.pricing",
    "distribution": "analyzer.engine.pricing",
    "pay_for_edge": "analyzer.engine.pricing",
    "practical_pays": "analyzer.engine.pricing",
    "PracticalPay": "analyzer.engine.pricing",
    "price": "analyzer.engine.pricing",
    "batch_ev": "analyzer.engine.batch",
    "BatchEV": "analyzer.engine.batch",
    # errors
    "AnalyzerError": "analyzer.errors",
    "BetError": "analyzer.errors",
    "CardError": "analyzer.errors",
    "CoupError": "analyzer.errors",
    "RulesError": "analyzer.errors",
    "ShoeError": "analyzer.errors",
    "UndeclaredReadError": "analyzer.errors",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
