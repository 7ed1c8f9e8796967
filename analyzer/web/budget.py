"""The work a request asks, weighed before it starts: a request over the server's limits is
refused with one line naming the limit, instead of running into the timeout.

:func:`check_work` counts the bets; the cost of a bet is the engine's to bound: every catalogue
table ships compiled with the package, and a bet a request brings (a bet file's bet) compiles
under the server's compile budget (``--max-records``, set in each worker as the engine's
``PUNTO_BANCO_MAX_RECORDS``): a table beyond it is refused in one line naming the bet
(:class:`~analyzer.errors.CompileBudgetError`, answered 422).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.bets.model import Bet
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import Tableau
from analyzer.errors import WorkLimitError
from analyzer.web.limits import Limits


def check_work(bets: Sequence[Bet], shoe: Shoe | None, tableau: Tableau, limits: Limits) -> None:
    """Refuse a request whose bets would take more work than ``limits`` allow: more than
    ``limits.max_bets`` bets.  ``shoe`` is ``None`` for work on single coups (``deal``,
    ``verify``), which settles bets and compiles no table.

    Raises:
        WorkLimitError: the limit passed, naming the count and the limit.
    """
    del shoe, tableau  # a table's cost is bounded when it compiles (the module docstring)
    if len(bets) > limits.max_bets:
        raise WorkLimitError(
            f"{len(bets):,} bets in one request, more than this server's limit of {limits.max_bets:,} "
            "(punto-banco serve --max-bets raises it)"
        )
