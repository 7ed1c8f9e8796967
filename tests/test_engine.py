"""The engine against published counts and the brute force, and its invariants: counts sum to
N!/(N-K)!, first-four tables agree with the full walk, the scalar and numpy evaluations agree bit
for bit, shoes of 4 and 5 cards, and every table of ``analyze`` is a partition."""

from collections import Counter
from fractions import Fraction

import pytest
from bruteforce import deal_every_coup
from featurebets import quick_to_compile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Reads, Shoe, analyze, catalogue_bets, distribution, price
from analyzer.core.cards import RANKS
from analyzer.core.coup import BANKER_FIRST_TWO, FIRST_FOUR, PLAYER_FIRST_TWO, Winner
from analyzer.core.tableau import STANDARD, TABLEAUX
from analyzer.engine.algebra import EXACT_FLOAT, POOLS, falling, pool_members, pool_sizes_many
from analyzer.engine.evaluate import one_shot, record_counts
from analyzer.engine.lookup import compile_table
from analyzer.engine.pricing import RUN_OUT
from analyzer.engine.walk import leaf_count

CATALOGUE = catalogue_bets()

# RULES.md "Counting conventions", from the Wizard of Odds baccarat appendix (8 and 6 decks):
# Banker, Player, Tie and total permutation counts over ordered 6-card sequences.
PUBLISHED = {
    8: (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216, 4_998_398_275_503_360),
    6: (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288, 878_869_206_895_680),
}


@pytest.mark.parametrize("decks", sorted(PUBLISHED))
def test_published_permutation_counts(decks):
    a = analyze(Shoe.standard(decks))
    counts = a.outcome_counts
    assert (counts["Banker"], counts["Player"], counts["Tie"], a.denominator) == PUBLISHED[decks]


def test_published_house_edges_8_decks():
    # RULES.md: 8 decks, Banker 1.0579%, Player 1.2351%, Tie 14.3596%; per resolved bet
    # 1.1692%, 1.3650% (Wizard of Odds).  Compared exactly after rounding to 4 decimals.
    a = analyze(Shoe.standard(8))
    edge = {s.bet.name: s for s in a.bets}

    def pct(x):
        return round(x * 100, 4)

    assert pct(edge["banker"].house_edge) == Fraction("1.0579")
    assert pct(edge["player"].house_edge) == Fraction("1.2351")
    assert pct(edge["tie"].house_edge) == Fraction("14.3596")
    assert pct(edge["banker"].house_edge_resolved) == Fraction("1.1692")
    assert pct(edge["player"].house_edge_resolved) == Fraction("1.3650")
    assert edge["tie"].house_edge_resolved is None  # the Tie bet never pushes


def test_the_compositions_are_every_multiset_of_4_to_6_values_in_lexicographic_order():
    # every compiled table (and every shipped file) indexes this order: it must never move
    from itertools import combinations_with_replacement

    from analyzer.engine.values import COMPOSITIONS, code

    expected = [(k, code(c)) for k in (4, 5, 6) for c in combinations_with_replacement(range(10), k)]
    assert list(COMPOSITIONS) == expected and len(expected) == 7722


def test_the_value_level_tree_has_339400_leaves():
    # docs/exact.md, "The walk": 339,400 leaves over the 10 point values.
    assert leaf_count(STANDARD) == 339_400
    # a variant that draws less deals fewer distinct coups, one that draws more deals more
    fewer = {"banker-stands-on-6", "banker-under-5-when-player-stood"}
    for t in TABLEAUX.values():
        if t is not STANDARD:
            assert (leaf_count(t) < 339_400) == (t.name in fewer), t.name
    assert leaf_count(TABLEAUX["banker-draws-on-6-against-5"]) > 339_400


def test_short_shoe_examples():
    # docs/shoes.md, "punto-banco analyze --shoe 8=2,K=3": {8, 8, K, K, K} -> Player 3/10, Banker
    # 3/10, Tie 2/5.
    a = analyze(Shoe.parse("8=2,K=3"))
    assert [a.probability(w) for w in (Winner.PLAYER, Winner.BANKER, Winner.TIE)] == [
        Fraction(3, 10), Fraction(3, 10), Fraction(2, 5)]
    # Six Aces: Player A A (2) draws an A (3), Banker A A (2) draws an A (3): a Tie, always.
    six_aces = analyze(Shoe.parse("A=6"))
    assert six_aces.outcome_counts == {"Banker": 0, "Player": 0, "Tie": falling(6, 6)}
    assert six_aces.denominator == falling(6, 6)


def test_four_aces_run_out():
    a = analyze(Shoe.parse("A=4"))  # Player and Banker both on 2 need a fifth card
    assert a.outcome_counts == {"Banker": 0, "Player": 0, "Tie": 0, RUN_OUT: 24}
    assert a.naturals["No natural"] == 24 and a.cards_dealt == {4: 0, 5: 0, 6: 0}


def test_naturals_table_on_a_five_card_shoe():
    # Issue 9 item 9: {A, A, A, 8, 5}, 5! = 120 orders.  The only natural is 8 + A = 9: the 8
    # lands among a side's first two cards with probability 2/5 (each side), its partner is an
    # Ace with probability 3/4, so each side has a natural in 3/10 of the orders, never both,
    # and 2/5 of the orders have none (the run-outs among them).
    a = analyze(Shoe.parse("A=3,8=1,5=1"))
    assert a.denominator == 120
    assert sum(a.naturals.values()) == a.denominator
    assert Fraction(a.naturals["No natural"], a.denominator) == Fraction(2, 5)
    brute = deal_every_coup(Shoe.parse("A=3,8=1,5=1"))
    classes = brute.tally(lambda c: c.naturals)
    assert a.naturals["Player natural only"] == classes["player"] == a.naturals["Banker natural only"]
    assert a.naturals["No natural"] == classes["none"] + brute.run_out


SMALL_SHOES = [
    "A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1",  # 8 cards, one each of A-8
    "9=2,8=2,K=2,5=2",  # 8 cards, naturals likely
    "A=2,3=2,6=2,7=2,T=2",  # 10 cards
    "2=2,4=2,6=1,J=2,Q=1,K=2",  # 10 cards, many zeros
    "5=4,6=4,7=1",  # 9 cards, short on variety
    "8=2,K=3",  # 5 cards: sequential dealing
    "A=5",  # 5 cards: always runs out or ties
    "9=1,K=2,4=1",  # 4 cards
]


def check_analysis_against_brute_force(shoe, tableau=STANDARD):
    """Every table of ``analyze`` against the brute force, cell by cell, and each a partition of
    the N!/(N-K)! orders."""
    a = analyze(shoe, tableau=tableau)
    brute = deal_every_coup(shoe, tableau)
    total = a.denominator
    assert total == brute.total == falling(shoe.size, min(shoe.size, 6))
    assert a.distribution.run_out == brute.run_out
    # outcomes, with the run-out event
    wins = brute.tally(lambda c: c.winner.label)
    expected = {w: wins.get(w, 0) for w in ("Banker", "Player", "Tie")}
    if brute.run_out:
        expected[RUN_OUT] = brute.run_out
    assert a.outcome_counts == expected
    assert sum(a.outcome_counts.values()) == total
    # totals, cell by cell, and the run-out
    cells = brute.tally(lambda c: (c.player_total, c.banker_total))
    assert [[a.totals[p][b] for b in range(10)] for p in range(10)] == [
        [cells.get((p, b), 0) for b in range(10)] for p in range(10)]
    assert sum(map(sum, a.totals)) + a.distribution.run_out == total
    # cards per coup, and the run-out
    dealt = brute.tally(lambda c: c.cards_dealt)
    assert a.cards_dealt == {n: dealt.get(n, 0) for n in (4, 5, 6)}
    assert sum(a.cards_dealt.values()) + a.distribution.run_out == total
    # the naturals partition (run-outs had no natural: a natural ends the coup at 4 cards)
    nat = brute.tally(lambda c: c.naturals)
    assert a.naturals == {"Player natural only": nat.get("player", 0),
                          "Banker natural only": nat.get("banker", 0),
                          "Both natural": nat.get("both", 0),
                          "No natural": nat.get("none", 0) + brute.run_out}
    assert sum(a.naturals.values()) == total
    # probabilities sum exactly to 1
    for table in (a.outcome_counts.values(), a.naturals.values()):
        assert sum(Fraction(c, total) for c in table) == 1


@pytest.mark.parametrize("text", SMALL_SHOES)
def test_analyze_against_the_brute_force(text):
    check_analysis_against_brute_force(Shoe.parse(text))


@pytest.mark.parametrize("rules", sorted(TABLEAUX))
def test_analyze_against_the_brute_force_under_every_rule_set(rules):
    for text in ("9=2,8=2,K=2,5=2", "2=2,4=2,6=1,J=2,Q=1,K=2", "8=2,K=3", "6=1,K=2,5=1,4=1"):
        check_analysis_against_brute_force(Shoe.parse(text), TABLEAUX[rules])


short_shoes = st.lists(st.sampled_from(RANKS), min_size=4, max_size=7).map(
    lambda ranks: Shoe.from_counts(Counter(r.value for r in ranks)))


@settings(max_examples=25, deadline=None)
@given(short_shoes, st.sampled_from(sorted(TABLEAUX)))
def test_every_table_of_analyze_is_a_partition_on_short_shoes(shoe, rules):
    # Issue 9 item 9: outcomes with the run-out, totals + run-out, cards + run-out and the
    # naturals partition each sum exactly to 1, cell by cell as the brute force counts them.
    check_analysis_against_brute_force(shoe, TABLEAUX[rules])


@pytest.mark.slow
def test_brute_force_14_cards():
    shoe = Shoe.parse("A=2,2=1,3=1,4=1,5=2,6=1,7=1,8=1,9=1,T=1,K=2")
    assert shoe.size == 14
    check_analysis_against_brute_force(shoe)


counts13 = st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 4)


@settings(max_examples=60, deadline=None)
@given(counts13)
def test_counts_sum_to_the_universe(counts):
    shoe = Shoe.from_counts(counts)
    a = analyze(shoe)
    n = shoe.size
    assert a.denominator == falling(n, min(n, 6))
    assert sum(a.outcome_counts.values()) == a.denominator
    if n >= 6:
        assert RUN_OUT not in a.outcome_counts
    assert sum(map(sum, a.totals)) + a.distribution.run_out == a.denominator
    assert sum(a.cards_dealt.values()) + a.distribution.run_out == a.denominator
    assert sum(a.naturals.values()) == a.denominator


def test_cost_is_flat_in_decks_and_exact_for_huge_shoes():
    a = analyze(Shoe.standard(10_000))
    assert a.denominator == falling(520_000, 6)
    assert sum(a.outcome_counts.values()) == a.denominator
    huge = analyze(Shoe.from_counts([10**18] * 13))  # counts far beyond int64: Python integers
    assert huge.denominator == falling(13 * 10**18, 6)
    assert sum(huge.outcome_counts.values()) == huge.denominator


# -- tables: first four cards against the full walk, scalar against numpy ----------------------------

#: The first is checked in the fast lane; the others (card-level tables that take seconds to
#: compile today) in the slow lane.
FIRST_FOUR_READS = [
    Reads.of([], [PLAYER_FIRST_TWO], "equality"),
    pytest.param(Reads.of([], [PLAYER_FIRST_TWO, BANKER_FIRST_TWO], "equality", "same-card"),
                 marks=pytest.mark.slow),
    pytest.param(Reads.of([], [FIRST_FOUR], "named"), marks=pytest.mark.slow),
    pytest.param(Reads.of([], [{0}], "named", "suit"), marks=pytest.mark.slow),
    pytest.param(Reads.of([], [PLAYER_FIRST_TWO], "none", "suit-equality"), marks=pytest.mark.slow),
    pytest.param(Reads.of([], [{0}, {3}], "named", "suit"), marks=pytest.mark.slow),
    pytest.param(Reads.of([], [PLAYER_FIRST_TWO], "none", "one-suit"), marks=pytest.mark.slow),
]


def _by_record(table, shoe):
    counts, denominator = record_counts(table, shoe)
    return dict(zip(table.records, counts, strict=True)), denominator


suited_counts = st.lists(st.integers(0, 3), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6)


@pytest.mark.parametrize("reads", FIRST_FOUR_READS)
def test_first_four_tables_equal_the_full_walk_on_shoes_of_six_cards_or_more(reads):
    assert reads.first_four_only
    quick, full = compile_table(STANDARD, reads, True), compile_table(STANDARD, reads, False)
    shoes = [Shoe.standard(1), Shoe.standard(8).remove("Kh Kh Ks 5d 5d 5d 9c"),
             Shoe.parse("Kh=2,Ks=1,Qd=1,8h=2,8d=1,5c=2,9s=1"), Shoe.parse("Ah=3,Kd=2,Qs=1"),
             Shoe.parse("Kh=2,Qd=1,8h=1,5c=1")]
    for shoe in shoes:
        a, da = _by_record(quick, shoe)
        b, db = _by_record(full, shoe)
        assert da == db
        if shoe.size >= 6:
            assert {r: c for r, c in a.items() if c} == {r: c for r, c in b.items() if c}, shoe.describe()
        else:
            # below 6 cards the first four cards decide nothing: the full walk loses the
            # orders that run out, which the first-four table (padded to six) cannot know
            assert sum(b.values()) < db


SHOES_FOR_PATHS = [
    Shoe.standard(1), Shoe.standard(8), Shoe.standard(8).remove("Kh Kh Ks 5d 5d 5d 9c Qs"),
    Shoe.from_counts([31, 32, 29, 32, 32, 30, 32, 32, 32, 31, 32, 28, 32]),
    Shoe.parse("Kh=2,Ks=1,Qd=1,8h=2,8d=1,5c=2,9s=1"), Shoe.parse("Kh=2,Qd=1,8h=1,5c=1"), Shoe.parse("A=4"),
    Shoe.from_suited_counts([300] * 52),  # 15,600 cards: beyond int64, the scalar path only
]


@pytest.mark.parametrize("reads", [None, *FIRST_FOUR_READS[:3],
                                   pytest.param(Reads.of(["winner"], [{4}], "named", "colour"),
                                                marks=pytest.mark.slow)],
                         ids=["values", "player-pair", "perfect-pair", "first-four-named", "p3-colour"])
def test_scalar_and_numpy_evaluations_agree_bit_for_bit(reads):
    chosen = Reads.everything_but_cards() if reads is None else reads
    for first_four in (False, True) if chosen.first_four_only else (False,):
        table = compile_table(STANDARD, chosen, first_four)
        for shoe in SHOES_FOR_PATHS:
            if chosen.needs_suits and shoe.suited is None:
                continue
            if first_four and shoe.size < 6:
                continue
            vector = record_counts(table, shoe)
            with one_shot():
                scalar = record_counts(table, shoe)
            assert vector == scalar, shoe.describe()
            assert all(type(c) is int for c in vector[0]) and all(type(c) is int for c in scalar[0])
            assert sum(vector[0]) <= vector[1]


def test_first_four_bet_tables_agree_in_both_evaluations():
    # a first-four table's rows are priced from their orderings (no value weights) in numpy and
    # from the value weights in Python integers: the two must agree on depleted suited shoes
    bets = [b for b in catalogue_bets() if b.reads.sets and b.reads.first_four_only]
    assert any(b.name == "perfect-pair" for b in bets)
    shoes = [
        Shoe.standard(8).remove("As Ah Kd Kd 7c 9s 9s 9s 2h"),
        Shoe.standard(6).remove("Qs " * 6 + "Qh " * 6),
    ]
    for bet in bets:
        for shoe in shoes:
            vector = price(bet, shoe)
            with one_shot():
                scalar = price(bet, shoe)
            assert vector == scalar, bet.name


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(suited_counts)
def test_scalar_and_numpy_agree_on_random_suited_shoes(counts):
    shoe = Shoe.from_suited_counts(counts)
    for bet in CATALOGUE[:12]:
        vector = price(bet, shoe)
        with one_shot():
            scalar = price(bet, shoe)
        assert vector == scalar


@pytest.mark.parametrize("text", ["A=4", "9=1,K=2,4=1", "8=2,K=3", "A=3,8=1,5=1", "Kh=2,Qd=1,8h=1,5c=1"])
def test_four_and_five_card_shoes(text):
    shoe = Shoe.parse(text)
    d = distribution(shoe)
    assert d.denominator == falling(shoe.size, shoe.size) and not d.complete
    assert d.sequence_cards == shoe.size
    assert sum(d.counts) + d.run_out == d.denominator and d.run_out >= 0
    brute = deal_every_coup(shoe)
    assert d.run_out == brute.run_out
    # a coup of k cards on a shoe of k cards: counted once per order, no padding
    assert d.count(lambda r: r.player_cards + r.banker_cards == shoe.size) == sum(
        n for c, n in brute.coups if c.cards_dealt == shoe.size)
    for bet in CATALOGUE[:6]:
        s = price(bet, shoe)
        assert sum(r.count for r in s.events) == s.denominator


def test_distribution_records_hide_what_they_do_not_read():
    d = distribution(Shoe.standard(1), Reads.of(["winner"]))
    assert {r.winner for r in d.records} == {Winner.PLAYER, Winner.BANKER, Winner.TIE}
    assert len(d.records) == 3
    ties = analyze(Shoe.standard(1)).outcome_counts["Tie"]
    assert d.probability(lambda r: r.winner == "tie") == Fraction(ties, d.denominator)


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_suits_matter_only_to_bets_that_read_them(full):
    # The same cards with and without their suits: every bet that reads no suit prices alike.
    suited = Shoe.standard(2).remove("Kh Ks 5d 5c 9h")
    plain = Shoe(suited.counts)
    for bet in CATALOGUE if full else [b for b in CATALOGUE if quick_to_compile(b, 100)]:
        if not bet.reads.needs_suits:
            assert price(bet, suited).ev == price(bet, plain).ev, bet.name
            assert price(bet, suited).variance == price(bet, plain).variance, bet.name


@pytest.mark.slow
def test_suit_permutation_leaves_suit_symmetric_bets_unchanged():
    # Renaming the suits of a depleted shoe changes no bet that does not name a suit or colour.
    shoe = Shoe.parse("Kh=2,Ks=1,Qd=1,8h=2,8d=1,5c=2,9s=1,4h=1")
    perm = {0: 1, 1: 2, 2: 3, 3: 0}  # s->h->d->c->s (changes colours too)
    renamed = [0] * 52
    for i, n in enumerate(shoe.suited):
        renamed[4 * (i // 4) + perm[i % 4]] = n
    other = Shoe.from_suited_counts(renamed)
    for bet in CATALOGUE:
        if bet.reads.suits.value in ("none", "same-card", "suit-equality", "one-suit"):
            assert price(bet, shoe).ev == price(bet, other).ev, bet.name


def test_variants_that_pay_otherwise_share_one_compiled_table(monkeypatch):
    # super-tie:2 tests the conditions of super-tie in the same order (only the pays differ):
    # in one process its table is super-tie's, not compiled again; a bet whose conditions
    # differ (lucky-nines' off-suit reading) compiles its own
    from analyzer import find_bet
    from analyzer.engine import lookup as tables

    monkeypatch.setenv("PUNTO_BANCO_CACHE_DIR", "off")
    monkeypatch.setenv("PUNTO_BANCO_SHIPPED_TABLES", "off")
    shoe = Shoe.standard(8)
    tables.clear_memory()
    expected = price(find_bet("super-tie:2"), shoe).event_counts  # compiled on its own
    tables.clear_memory()
    price(find_bet("super-tie"), shoe)
    built = []
    real = tables.build_bet
    monkeypatch.setattr(tables, "build_bet", lambda *a, **k: built.append(a[1].name) or real(*a, **k))
    assert price(find_bet("super-tie:2"), shoe).event_counts == expected and built == []
    price(find_bet("lucky-nines"), shoe)
    price(find_bet("lucky-nines:binions,off-suit"), shoe)
    assert built == ["lucky-nines", "lucky-nines:binions,off-suit"]  # two readings, two tables
    tables.clear_memory()


def test_a_condition_over_an_unhashable_value_is_never_shared():
    from analyzer.bets.model import Bet, PayLine
    from analyzer.engine.lookup import _conditions

    pays = {"x": 1}  # a dict: two such bets cannot be told equal, so each keeps its own table
    bet = Bet("t", "t", (PayLine("tie", lambda c: c.winner is Winner.TIE and bool(pays), Fraction(8)),),
              reads=Reads.of(["winner"]))
    assert _conditions(STANDARD, bet, False, False) is None
    twin = Bet("t", "t", (PayLine("tie", lambda c: c.winner is Winner.TIE, Fraction(8)),),
               reads=Reads.of(["winner"]))
    assert _conditions(STANDARD, twin, False, False) is not None


def test_short_shoe_tables_account_for_the_void(cli):
    a = analyze(Shoe.parse("5=3,K=2"))
    assert sum(a.cards_dealt.values()) + a.distribution.run_out == a.denominator
    out = cli("analyze", "--shoe", "5=3,K=2", "--table", "cards").output
    assert "Shoe runs out mid-coup (void)" in out


def test_pool_sizes_of_many_shoes_are_the_sums_of_their_members_in_floats_and_past_them():
    # below 2**53 the sizes come from a float64 product (exact there), beyond it from integers:
    # both are each pool's card counts summed, whatever the counts
    import numpy as np

    rng = np.random.default_rng(2026)
    small = rng.integers(0, 33, size=(40, 52)).astype(np.int64)
    huge = np.full((2, 52), EXACT_FLOAT // 8, dtype=np.int64)  # a row sums past 2**53
    huge[1, 7] += 1
    for cards in (small, huge):
        sizes = pool_sizes_many(None, cards)
        assert sizes.dtype == np.int64 and sizes.shape == (len(POOLS), len(cards))
        for i, pool in enumerate(POOLS):
            members = pool_members(pool)
            assert sizes[i].tolist() == [sum(int(row[m]) for m in members) for row in cards.tolist()]
