"""Bets written in Python, for ``--bet-module`` (docs/bets.md, "A bet written in Python"):
``punto-banco bets --bet-module examples.python_bets:THIRD_CARDS_OF_ONE_RANK`` (run from the
repository's folder, or put this file's folder on PYTHONPATH)."""

from __future__ import annotations

from analyzer import Bet, Reads
from analyzer.core.coup import B3, P3, Coup


def _one_rank(c: Coup) -> int:
    player, banker = c.card(P3), c.card(B3)
    return 50 if player is not None and banker is not None and player.rank == banker.rank else -1


#: The designer's bet: the Player's and the Banker's third cards are of one rank, 50 to 1.
THIRD_CARDS_OF_ONE_RANK = Bet.from_function(
    "py-third-cards-one-rank",
    _one_rank,
    reads=Reads.of([], [[P3], [B3]], ranks="equality"),
    title="Third cards of one rank (Python)",
)
