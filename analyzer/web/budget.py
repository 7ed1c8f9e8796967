"""The work a request asks, weighed before it starts: a request over the server's limits is
refused with one line naming the bet and the limit, instead of running into the timeout.

**The hook.**  :func:`check_work` is the one place that decides.  Today it counts bets and
refuses *card-level* bets (:func:`card_level`) unless the server allows them: the value-level
and first-two-card tables compile in about a second and price any shoe in milliseconds, while a
card-level table can take seconds to minutes to compile the first time.  When the engine offers
a compile budget (an estimate of a table's size and cost before building it, docs/DESIGN.md §4
"Budgets, not blow-ups"), :func:`check_work` should ask it instead of :func:`card_level`, with
the same signature and the same error.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.bets.model import Bet
from analyzer.core.reads import RankDetail, SuitDetail
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import Tableau
from analyzer.errors import WorkLimitError
from analyzer.web.limits import Limits

#: Card positions a bet may read ranks or suits of, per set, and stay light: the first two
#: cards of a side (pairs, suited two-card bets).
LIGHT_SET_SIZE = 2


def card_level(bet: Bet) -> bool:
    """True when ``bet`` reads the ranks or suits of a set of more than two card positions
    (all-red, lucky-win, super-tie, bellagio-match, jackpot-baccarat, ...): a card-level table,
    slow to compile.  Bets over point values (main bets, dragon-7, panda-8, dragon bonus, tie
    bets) and over the first two cards of a side (pairs, perfect-pair) are light.

    >>> from analyzer import find_bet
    >>> [card_level(find_bet(name)) for name in ("dragon-7", "perfect-pair", "all-red")]
    [False, False, True]
    """
    reads = bet.reads
    detailed = reads.ranks is not RankDetail.NONE or reads.suits is not SuitDetail.NONE
    return detailed and any(len(s) > LIGHT_SET_SIZE for s in reads.sets)


def check_work(bets: Sequence[Bet], shoe: Shoe | None, tableau: Tableau, limits: Limits) -> None:
    """Refuse a request whose bets would take more work than ``limits`` allow: more than
    ``limits.max_bets`` bets, or (unless ``limits.card_level``) a card-level bet to price on
    ``shoe``.  ``shoe`` is ``None`` for work on single coups (``deal``, ``verify``), which
    settles bets and compiles no table: any bet is light there.  ``shoe`` and ``tableau`` are
    what the engine's compile budget will weigh.

    Raises:
        WorkLimitError: the first limit passed, naming the bet (or the count) and the limit.
    """
    del tableau  # the engine's compile budget will weigh it (see the module docstring)
    if len(bets) > limits.max_bets:
        raise WorkLimitError(
            f"{len(bets):,} bets in one request, more than this server's limit of {limits.max_bets:,} "
            "(punto-banco serve --max-bets raises it)"
        )
    if shoe is None or limits.card_level:
        return
    heavy = [b.name for b in bets if card_level(b)]
    if heavy:
        raise WorkLimitError(
            f"bet {heavy[0]!r} reads the ranks or suits of more than the first two cards of a side: "
            "its table can take minutes to compile, more than this server spends on a request; price "
            "it with 'punto-banco bets', or start the server with --card-level"
        )
