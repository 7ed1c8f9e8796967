"""The exact enumerator against published counts, an independent brute force, and invariants."""

from fractions import Fraction

import pytest
from bruteforce import brute_force
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe, analyze
from analyzer.engine.walk import falling

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


def test_rules_md_short_shoe_examples():
    # RULES/issue examples: {8, 8, K, K, K} -> Player 3/10, Banker 3/10, Tie 2/5.
    a = analyze(Shoe.parse("8=2,K=3"))
    assert [a.probability(w) for w in _winners()] == [Fraction(3, 10), Fraction(3, 10), Fraction(2, 5)]
    # Six Aces: Player A A (2) draws an A (3), Banker A A (2) draws an A (3): a Tie, always.
    six_aces = analyze(Shoe.parse("A=6"))
    assert six_aces.outcome_counts["Tie"] == six_aces.denominator == falling(6, 6)


def _winners():
    from analyzer.core.coup import Winner

    return (Winner.PLAYER, Winner.BANKER, Winner.TIE)


def test_four_aces_run_out():
    a = analyze(Shoe.parse("A=4"))  # Player and Banker both on 2 need a fifth card
    assert a.outcome_counts == {"Banker": 0, "Player": 0, "Tie": 0, "Shoe runs out mid-coup (void)": 24}


SMALL_SHOES = [
    "A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1",  # 8 cards, one each of A-8
    "9=2,8=2,K=2,5=2",  # 8 cards, naturals likely
    "A=2,3=2,6=2,7=2,T=2",  # 10 cards
    "2=2,4=2,6=1,J=2,Q=1,K=2",  # 10 cards, many zeros
    "A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,K=3",  # 12 cards
    "5=4,6=4,7=1",  # 9 cards, short on variety
    "8=2,K=3",  # 5 cards: sequential dealing
    "A=5",  # 5 cards: always runs out or ties
]


def _engine_by_key(a):
    counts = dict(a.outcome_counts)
    return counts


@pytest.mark.parametrize("text", SMALL_SHOES)
def test_brute_force_outcomes_and_totals(text):
    shoe = Shoe.parse(text)
    a = analyze(shoe)
    brute, total = brute_force(
        shoe,
        lambda c: (
            c.player_total,
            c.banker_total,
            len(c.player),
            len(c.banker),
            c.player_natural,
            c.banker_natural,
        ),
    )
    assert total == a.denominator
    run_out = brute.pop("run out", 0)
    assert run_out == a.distribution.run_out
    assert sum(brute.values()) + run_out == total
    # Totals table, exactly, cell by cell.
    for p in range(10):
        for b in range(10):
            assert a.totals[p][b] == sum(n for k, n in brute.items() if k[:2] == (p, b)), (p, b)
    # Outcomes, cards dealt, naturals.
    for label, pred in [
        ("Player", lambda k: k[0] > k[1]),
        ("Banker", lambda k: k[1] > k[0]),
        ("Tie", lambda k: k[0] == k[1]),
    ]:
        assert a.outcome_counts[label] == sum(n for k, n in brute.items() if pred(k))
    for n_cards, count in a.cards_dealt.items():
        assert count == sum(n for k, n in brute.items() if k[2] + k[3] == n_cards)
    assert a.naturals["Either natural"] == sum(n for k, n in brute.items() if k[4] or k[5])
    assert a.naturals["Both natural"] == sum(n for k, n in brute.items() if k[4] and k[5])


@pytest.mark.slow
def test_brute_force_14_cards():
    shoe = Shoe.parse("A=2,2=1,3=1,4=1,5=2,6=1,7=1,8=1,9=1,T=1,K=2")
    assert shoe.size == 14
    a = analyze(shoe)
    brute, total = brute_force(shoe, lambda c: c.winner.label)
    assert total == a.denominator == falling(14, 6)
    assert dict(brute) == {k: v for k, v in a.outcome_counts.items() if v}


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
        assert "Shoe runs out mid-coup (void)" not in a.outcome_counts
    assert sum(map(sum, a.totals)) + a.distribution.run_out == a.denominator
    assert sum(Fraction(c, a.denominator) for c in a.outcome_counts.values()) == 1


def test_cost_is_flat_in_decks_and_exact_for_huge_shoes():
    a = analyze(Shoe.standard(10_000))
    assert a.denominator == falling(520_000, 6)
    assert sum(a.outcome_counts.values()) == a.denominator
