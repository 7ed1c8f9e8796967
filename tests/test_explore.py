"""The explorer's records (``analyzer.engine.explore``): every catalogue bet settles a coup
identically through the engine, verify and the oracle.

The engine prices a bet from the records it explores, each a coup as the bet's reads see it,
with the labels it reads fixed; verify and the oracle
(``analyzer.testing``) settle the full record of a dealt coup.  On random suited coups of an
8-deck shoe, for every catalogue bet: the record the engine builds for the coup, every label
fixed as its cards have them, settles like the full record (the brute force in
test_bruteforce.py ties the engine's counts to the same settlement on small shoes, which checks
that the labels left pending were never needed); verify accepts exactly that payout and rejects
it off by one unit; the oracle returns it.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from bruteforce import settle_full

from analyzer import catalogue_bets
from analyzer.checks.handlog import ClaimedBet, Record
from analyzer.checks.oracle import assert_payout
from analyzer.checks.verify import Verifier
from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import dealing_order, resolve
from analyzer.engine.explore import Budget, Explorer

CATALOGUE = catalogue_bets()
COUPS = 40


def random_coups(seed: int, count: int) -> list[list[Card]]:
    """``count`` six-card sequences dealt from shuffled 8-deck shoes (a coup uses 4 to 6)."""
    rng = random.Random(seed)
    shoe = [Card(r, s) for r in RANKS for s in SUITS] * 8
    return [rng.sample(shoe, 6) for _ in range(count)]


SEQUENCES = random_coups(2026, COUPS)


@pytest.mark.parametrize("bet", CATALOGUE, ids=[b.name for b in CATALOGUE])
def test_engine_verify_and_oracle_settle_alike(bet):
    explorer = Explorer(bet.reads, bet.settle, Budget(10**6, bet.name))
    verifier = Verifier()
    for number, cards in enumerate(SEQUENCES, 1):
        coup = resolve(cards)
        event, pays = settle_full(bet, coup)
        settled = bet.settle(explorer.record_of(coup))
        assert settled[1] == pays and event in (None, settled[0]), (
            f"{bet.name}: the engine's record settles otherwise on {coup}"
        )
        order = tuple(dealing_order(coup))
        right = Record(number, number, cards=order, bets=(ClaimedBet(bet.name, bet, Fraction(1), pays),))
        assert not verifier.check(right), f"{bet.name}: verify rejects the right payout {pays} on {coup}"
        wrong = Record(number, number, cards=order, bets=(ClaimedBet(bet.name, bet, Fraction(1), pays + 1),))
        assert verifier.check(wrong), f"{bet.name}: verify accepts a payout one unit off on {coup}"
        assert assert_payout(bet, list(order), 1, pays) == pays


# -- rows settled by their shape (fields and cards per block) ----------------------------------


def test_pending_cards_raise_when_looked_at_and_equal_only_themselves():
    from analyzer.core.dealt import CARDS_PENDING, LabelNeeded, PendingCards

    for look in (list, len, lambda c: c[0], lambda c: Card(RANKS[0], SUITS[0]) in c, bool):
        pending = PendingCards()
        with pytest.raises(LabelNeeded) as raised:
            look(pending)
        assert raised.value.pending is CARDS_PENDING and pending.looked
    # a record of pending cards is not a record whose block is empty (a bet keeping its answers
    # per record would otherwise give the one to the other)
    pending = PendingCards()
    assert pending != () and hash(pending) != hash(()) and pending == pending


def _brute_checked(bet, shoe, tableau):
    from bruteforce import brute_events, deal_every_coup, engine_events

    from analyzer import price

    got = price(bet, shoe, tableau)
    assert engine_events(bet, got) == brute_events(bet, deal_every_coup(shoe, tableau)), bet.name


def test_a_bet_that_swallows_the_look_at_a_card_is_explored_row_by_row():
    # a bare except catches the engine's LabelNeeded too: the shape's record looked "settled",
    # and every row of the shape took its one answer
    from analyzer import Shoe
    from analyzer.bets.model import Bet
    from analyzer.core.coup import PLAYER_HAND
    from analyzer.core.reads import Reads
    from analyzer.core.tableau import STANDARD

    def nine(c):
        try:
            return 1 if c.cards(PLAYER_HAND).total == 9 else -1
        except:  # noqa: E722 -- the point of the test
            return -1

    def sized(c):
        try:
            n = len(c.cards(PLAYER_HAND))
        except BaseException:
            n = 0
        return 1 if n == 3 else -1

    shoe = Shoe.parse("Kh=2,Qd=1,8h=1,8d=1,5c=2,9s=1")
    reads = Reads.of([], [PLAYER_HAND])
    for pay in (nine, sized):
        _brute_checked(Bet.from_function(pay.__name__, pay, reads=reads), shoe, STANDARD)


def test_a_bet_keeping_answers_per_record_is_not_misled_by_a_shape():
    # the shape's record of a pending third card must not hit the answer kept for a record
    # where the Player stood (an empty block): on every rule set after the first
    import functools

    from analyzer import Shoe
    from analyzer.bets.model import Bet
    from analyzer.core.reads import Reads
    from analyzer.core.tableau import TABLEAUX

    @functools.cache
    def eight(c):
        return 1 if c.cards({4}).values == (8,) else -1

    shoe = Shoe.parse("Kh=2,Qd=1,8h=1,8d=1,5c=2,9s=1")
    for name in sorted(TABLEAUX):
        _brute_checked(Bet.from_function("p3-eight", eight, reads=Reads.of([], [{4}])), shoe, TABLEAUX[name])


def test_a_bet_on_flags_shares_its_leaves_between_rows():
    from analyzer import find_bet

    bet = find_bet("all-red")
    explorer = Explorer(bet.reads, bet.settle, Budget(10**6, bet.name))
    # six cards in one block: uniform red, uniform black, mixed; only the first pays
    leaves = explorer.explore_shape((), (6,))
    assert leaves is not None and len(leaves) == 3
    assert sorted(flags for flags, _ in leaves) == [(-2,), (0,), (1,)]
    assert len({event for _, event in leaves}) == 2
    # a bet that looks at the cards themselves is explored row by row
    pair = find_bet("player-pair")
    assert Explorer(pair.reads, pair.settle, Budget(10**6, pair.name)).explore_shape((), (2,)) is None


def test_a_bet_on_flags_compiles_within_a_handful_of_records(monkeypatch):
    # 6,958 rows, each of four records when explored one by one: shared, the whole table
    # settles a dozen records, so a budget of 50 is enough
    from analyzer import find_bet
    from analyzer.core.tableau import STANDARD
    from analyzer.engine import table as tables

    monkeypatch.setenv("PUNTO_BANCO_MAX_RECORDS", "50")
    table = tables.build_bet(STANDARD, find_bet("all-red"), False, True)
    assert len(table.row_read) == 6958


@pytest.mark.parametrize("name", ["all-red", "super-tie", "d7p8-progressive", "lucky-win-banker", "royal-9"])
def test_shared_leaves_price_as_rows_explored_one_by_one(monkeypatch, name):
    from analyzer import Shoe, find_bet
    from analyzer.core.tableau import STANDARD
    from analyzer.engine import table as tables
    from analyzer.engine.evaluate import record_counts

    bet = find_bet(name)
    shoe = Shoe.standard(2).remove("Ah 5h 5h Kd Qs 9c 9c 2h")
    shared = tables.build_bet(STANDARD, bet, False, False)
    monkeypatch.setattr(Explorer, "explore_shape", lambda *_: None)
    alone = tables.build_bet(STANDARD, bet, False, False)
    by_event = [dict(zip(t.columns, record_counts(t, shoe)[0], strict=True)) for t in (shared, alone)]
    assert by_event[0] == by_event[1]


@pytest.mark.parametrize("suits", ["one-suit", "one-suit-named", "one-colour", "one-colour-named"])
@pytest.mark.parametrize("ranks", ["equality", "named"])
def test_ranks_beside_another_sets_flag_price_exactly(ranks, suits):
    # a pair in one set and a one-suit flag in another: the reads fix each card's suit, as
    # their pools do not nest across sets (the flag's weights came out negative)
    from analyzer import Shoe
    from analyzer.bets.model import Bet
    from analyzer.core.coup import BANKER_FIRST_TWO, PLAYER_FIRST_TWO
    from analyzer.core.reads import Reads
    from analyzer.core.tableau import STANDARD

    reads = Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], ranks, suits)
    assert not reads.suits.per_set
    colour = "colour" in suits

    def pay(c):
        if not c.cards(BANKER_FIRST_TWO).pair:
            return 0
        player = c.cards(PLAYER_FIRST_TWO)
        return 1 if (player.one_colour if colour else player.suited) else -1

    for shoe in ("Kh=2,Qh=2,5h=1,4s=1", "Kh=1,Ks=1,Qh=1,Qs=1,5h=1,4s=1"):
        _brute_checked(Bet.from_function("pair-and-flag", pay, reads=reads), Shoe.parse(shoe), STANDARD)


def test_a_bet_that_swallows_a_label_read_is_refused_in_one_line():
    # the engine learns which labels a bet reads from the exception it raises: a bet that
    # catches it (a bare except) would be priced as if it had read nothing
    from analyzer import Shoe, price
    from analyzer.bets.model import Bet
    from analyzer.core.coup import PLAYER_FIRST_TWO
    from analyzer.core.reads import Reads
    from analyzer.errors import BetError

    def suited(c):
        try:
            return 3 if c.cards(PLAYER_FIRST_TWO).suited else -1
        except:  # noqa: E722 -- the point of the test
            return -1

    for suits in ("one-suit", "suit-equality"):
        bet = Bet.from_function("swallows", suited, reads=Reads.of([], [PLAYER_FIRST_TWO], suits=suits))
        with pytest.raises(BetError, match="caught the engine's own exception") as raised:
            price(bet, Shoe.standard(8).remove("Ah 5h"))
        assert "\n" not in str(raised.value)


# -- a rank read as picture or ten -------------------------------------------------------------


def test_a_picture_read_is_fixed_two_ways_ten_or_picture():
    from featurebets import feature_bet

    from analyzer.engine.explore import PICTURE_SLOT, TEN_SLOT, Row
    from analyzer.engine.walk import project_fields

    bet = feature_bet("player_first_two", "pictures")
    explorer = Explorer(bet.reads, bet.settle, Budget(10**4, bet.name))
    fields = project_fields(tuple(resolve("Kh 2c Ts 3d 9h 9s")._fields), bet.reads)
    row = Row.of(fields, ((0, 0),))  # the Player's first two: two 10-valued cards
    leaves = explorer.explore(row)
    # each slot a ten or a picture, never a jack, queen or king by name: 4 leaves, not 16
    assert sorted(state[0] for state, _ in leaves) == sorted(
        (a, b) for a in (TEN_SLOT, PICTURE_SLOT) for b in (TEN_SLOT, PICTURE_SLOT))
    for state, event in leaves:
        pictures = state[0].count(PICTURE_SLOT)
        assert event[0].endswith(f"|{pictures}")
        pools = {slot: m for (slot, m) in explorer.demands(row, state)[0][1]}
        assert pools == {k: n for k, n in (((0, ("p", 0), None), pictures), ((0, ("n", TEN_SLOT), None),
                                                                            2 - pictures)) if n}


@pytest.mark.parametrize("where", ["player_first_two", "first_four", "banker_hand", "all_cards"])
def test_a_picture_bet_settles_the_explorer_s_record_as_the_full_coup(where):
    from featurebets import feature_bet

    bet = feature_bet(where, "pictures")
    explorer = Explorer(bet.reads, bet.settle, Budget(10**6, bet.name))
    for cards in SEQUENCES:
        coup = resolve(cards)
        assert bet.settle(explorer.record_of(coup)) == settle_full(bet, coup), coup
