"""Partial information (analyzer/studies/peek, analyzer/output/peek_tables, ``punto-banco peek``):
the published edge-sorting figures, a brute force over physical cards on small shoes, and the
identity that the patterns' EVs weighted by their probabilities give each bet's EV exactly."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest

from analyzer.bets.catalogue import find_bet
from analyzer.core.coup import resolve
from analyzer.core.exact import round_fraction
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import TABLEAUX
from analyzer.engine.pricing import price
from analyzer.errors import PeekError
from analyzer.output.peek_tables import exposure_tables, peek_tables, search_table
from analyzer.studies.peek import (
    Classes,
    PeekResult,
    Seen,
    house_exposure,
    peek,
    search_sorts,
    sorting_exposure,
)
from tests.bruteforce import deal_every_coup, falling, physical_cards, settle_full

PLAYER, BANKER, TIE = find_bet("player"), find_bet("banker"), find_bet("tie")
EIGHT = Shoe.standard(8)
#: Eliot Jacobson, "Edge Sorting in Baccarat, Update #1" (2012), 888casino.com/blog/baccarat-tips/
#: edge-sorting-in-baccarat-update-1: "the ability to see one sorted card allows the player to
#: gain an edge of 6.765% over the house" (High = 6-9, Low = 0-5; Banker on Low, Player on High);
#: "if the player can see the first four cards, then he can gain an edge of 20.928%"; the best of
#: "1023 different sorts" (Fred Roach's search) gives "30.291%".  The figures filed in the
#: Crockfords case, Ivey v Genting Casinos [2017] UKSC 67.
JACOBSON_UPDATE_1 = "Jacobson, Edge Sorting in Baccarat, Update #1, 2012"
#: Jacobson, "Edge Sorting in Baccarat" (2012-08-18, 888casino.com/blog/baccarat-tips/edge-sorting-
#: in-baccarat): four cards seen, 6-9 against the rest: "the average edge is 20.928%"; Player
#: when the Player has HL and the Banker LL, "20.502% of hands, with a 36.332% advantage"; "no
#: profitable wager when both ... have the group LL, which happens on 22.824% of hands"; "the
#: only profitable move is to wager on the tie bet, occurring on about 19.075% of hands".
JACOBSON_FOUR_CARDS = "Jacobson, Edge Sorting in Baccarat, 2012"


def pct(x: Fraction, places: int) -> Decimal:
    return round_fraction(100 * x, places)


# -- the published figures ----------------------------------------------------------------------


def test_one_card_six_to_nine_is_jacobsons_edge_exactly() -> None:
    # JACOBSON_UPDATE_1: 6.765%; the exact fraction is this analyser's, to the last digit
    result = peek(EIGHT, "P1", "6-9", [PLAYER, BANKER])
    assert result.edge == Fraction(6604082064256, 97624966318425)
    assert pct(result.edge, 3) == Decimal("6.765")
    high, low = result.rows
    assert (high.pattern, low.pattern) == (("6-9",), ("A-5,10-K",))
    assert result.bets[high.best] is PLAYER and result.bets[low.best] is BANKER
    assert high.probability == Fraction(4, 13)  # 16 of the 52 ranks' cards are 6-9


def test_one_card_seven_eight_nine_is_about_six_and_a_half_percent() -> None:
    # the Crockfords sort (7, 8, 9 turned), "roughly 6.5%": Ivey v Genting Casinos [2017] UKSC 67
    result = peek(EIGHT, "P1", "7-9", [PLAYER, BANKER])
    assert pct(result.edge, 1) == Decimal("6.5")
    assert result.edge < peek(EIGHT, "P1", "6-9", [PLAYER, BANKER]).edge


def test_four_cards_six_to_nine_are_jacobsons_figures() -> None:
    # JACOBSON_FOUR_CARDS: the best of Player, Banker and Tie, betting only when positive
    result = peek(EIGHT, "first:4", "6-9", [PLAYER, BANKER, TIE])
    assert pct(result.edge_when_positive, 3) == Decimal("20.928")
    high, low = "6-9", "A-5,10-K"

    def chance(pred: object) -> Fraction:
        return sum((r.probability for r in result.rows if pred(r)), Fraction(0))  # type: ignore[operator]

    def player_hl_banker_ll(r: object) -> bool:
        p1, b1, p2, b2 = r.pattern  # type: ignore[attr-defined]
        return {p1, p2} == {high, low} and b1 == b2 == low

    hl_ll = [r for r in result.rows if player_hl_banker_ll(r)]
    assert pct(chance(player_hl_banker_ll), 3) == Decimal("20.502")
    assert {pct(r.best_ev, 3) for r in hl_ll} == {Decimal("36.332")}
    assert {result.bets[r.best] for r in hl_ll} == {PLAYER}
    (ll_ll,) = [r for r in result.rows if r.pattern == (low,) * 4]
    assert pct(ll_ll.probability, 3) == Decimal("22.824") and ll_ll.best_ev < 0
    assert pct(chance(lambda r: r.best_ev > 0 and result.bets[r.best] is TIE), 3) == Decimal("19.075")


def test_the_search_names_the_best_sorts_for_one_and_four_cards() -> None:
    one = search_sorts(EIGHT, "P1", [PLAYER, BANKER])
    assert len(one.rows) == 511  # two-group partitions of the 10 point values
    assert one.rows[0].classes.labels == ("A-5,10-K", "6-9")
    assert one.rows[0].edge == Fraction(6604082064256, 97624966318425)
    four = search_sorts(EIGHT, "first:4", [PLAYER, BANKER, TIE])
    best = four.rows[0]
    # JACOBSON_UPDATE_1: the best of the 1,023 groupings, 30.291%; the source's excerpt we could
    # read does not name its groups: this search finds 4-9 against A-3 and the ten-valued cards
    assert pct(best.edge_when_positive, 3) == Decimal("30.291")
    assert best.classes.labels == ("A-3,10-K", "4-9")
    assert all(r.edge_when_positive <= best.edge_when_positive for r in four.rows)
    # the search's edges are the analysis' own
    again = peek(EIGHT, "first:4", best.classes, [PLAYER, BANKER, TIE])
    assert (again.edge, again.edge_when_positive, again.bet_frequency) == (
        best.edge, best.edge_when_positive, best.bet_frequency)


def test_the_search_by_rank_agrees_with_the_analysis() -> None:
    shoe = Shoe.standard(1).remove("J J Q 5")
    found = search_sorts(shoe, "P1", [PLAYER, BANKER], by="rank")
    assert len(found.rows) == 4095
    for row in (found.rows[0], found.rows[-1], found.rows[100]):
        direct = peek(shoe, "P1", row.classes, [PLAYER, BANKER])
        assert (direct.edge, direct.edge_when_positive, direct.bet_frequency) == (
            row.edge, row.edge_when_positive, row.bet_frequency)


# -- the identity: the patterns average to the bet's EV ------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "seen", "classes", "rules"),
    [
        (EIGHT, "first:4", "6-9", "standard"),
        (Shoe.standard(6).remove("9 9 9 8 5 K K"), "P1,B1,P3,B3", "A-3/4-7/8-K", "standard"),
        (Shoe.standard(2).remove("9h 9s 8d Kc Kd 7h"), "P1,B1", "colour", "standard"),
        (Shoe.standard(1), "burn,P1", "6-9", "standard"),
        (Shoe.standard(8), "first:5", "7-9", "standard"),
        pytest.param(Shoe.standard(8), "first:6", "7-9", "standard", marks=pytest.mark.slow),
        (Shoe.standard(4).remove("6 6 6 6 3"), "P2,B2", "6-9", "banker-stands-on-6"),
    ],
)
def test_the_patterns_average_to_each_bets_ev(shoe: Shoe, seen: str, classes: str, rules: str) -> None:
    tableau = TABLEAUX[rules]
    bets = [PLAYER, BANKER, TIE, find_bet("dragon-7"), find_bet("panda-8")]
    result = peek(shoe, seen, classes, bets, tableau)
    assert sum(r.probability for r in result.rows) == 1
    for j, bet in enumerate(bets):
        engine = price(bet, shoe, tableau).ev
        assert sum((r.probability * r.evs[j] for r in result.rows), Fraction(0)) == engine
        assert result.unconditioned[j] == engine


# -- the brute force over physical cards ---------------------------------------------------------


def _class(classes: Classes, card: object) -> str:
    if card is None:
        return "none"
    suit = None if classes.kind == "rank" else card.suit.index  # type: ignore[attr-defined]
    return classes.labels[classes.of_card(card.rank.index, suit)]  # type: ignore[attr-defined]


def _brute(
    shoe: Shoe, seen: Seen, classes: Classes, bets: list[object], tableau: object
) -> dict[tuple[str, ...], list[Fraction]]:
    """pattern -> [count, each bet's pay x count] over every ordered sequence of physical cards
    (tests/bruteforce.py): the coup's positions from its full record, a burn card as a card
    taken first (a mixture over the shoe's cards)."""
    out: dict[tuple[str, ...], list[Fraction]] = defaultdict(lambda: [Fraction(0)] * (len(bets) + 1))
    positions = {"P1": 0, "B1": 1, "P2": 2, "B2": 3, "P3": 4, "B3": 5}
    burn_cards: list[object] = [None]
    if "burn" in seen.slots:
        burn_cards = physical_cards(shoe)
    for burned in burn_cards:
        rest = shoe if burned is None else shoe.remove([burned])  # type: ignore[list-item]
        brute = deal_every_coup(rest, tableau)  # type: ignore[arg-type]
        for coup, n in brute.coups:
            key = []
            for slot in seen.slots:
                card = burned if slot == "burn" else coup.card(positions[slot])
                key.append(_class(classes, card))
            acc = out[tuple(key)]
            acc[0] += n
            for j, bet in enumerate(bets):
                acc[j + 1] += n * settle_full(bet, coup)[1]  # type: ignore[arg-type]
    return out


def _agrees(result: PeekResult, brute: dict[tuple[str, ...], list[Fraction]], total: int) -> None:
    ours = {r.pattern: r for r in result.rows}
    assert set(ours) == {k for k, v in brute.items() if v[0]}
    for pattern, acc in brute.items():
        row = ours[pattern]
        assert row.probability == acc[0] / total
        assert row.evs == tuple(x / acc[0] for x in acc[1:])


@pytest.mark.parametrize(
    ("counts", "seen", "classes"),
    [
        ("A=1,3=1,5=2,6=1,7=1,9=2,K=2", "P1", "6-9"),
        ("A=1,3=1,5=2,6=1,7=1,9=2,K=2", "first:4", "6-9"),
        ("2=2,4=1,6=2,8=1,9=1,J=2", "P1,B1,P3,B3", "A-3/4-7/8-K"),
        ("A=1,2=1,5=1,6=1,7=2,8=1,Q=1,K=1", "P2,B3", "10/J-K"),
    ],
)
def test_peek_agrees_with_the_brute_force(counts: str, seen: str, classes: str) -> None:
    shoe = Shoe.parse(counts)
    bets = [PLAYER, BANKER, TIE, find_bet("dragon-7")]
    tableau = TABLEAUX["standard"]
    result = peek(shoe, seen, classes, bets, tableau)
    brute = _brute(shoe, result.seen, result.classes, bets, tableau)
    _agrees(result, brute, falling(shoe.size, 6))


def test_a_burn_card_and_colours_agree_with_the_brute_force() -> None:
    shoe = Shoe.parse("Ah=1,3s=1,5h=1,5c=1,6d=1,9s=1,9h=1,Kd=1")
    tableau = TABLEAUX["standard"]
    result = peek(shoe, "burn,P1", "colour", [PLAYER, BANKER], tableau)
    brute = _brute(shoe, result.seen, result.classes, [PLAYER, BANKER], tableau)
    _agrees(result, brute, shoe.size * falling(shoe.size - 1, 6))


def test_the_fifth_card_out_and_an_exact_card_agree_with_every_sequence() -> None:
    # C5 (first:5) is a third card or, when the coup used four, the next card out: dealt here
    # as every ordered 6-card sequence of physical cards, the coup resolved from its start
    shoe = Shoe.parse("A=1,3=1,5=1,6=1,8=1,9=1,K=2")
    cards = physical_cards(shoe)
    tableau = TABLEAUX["standard"]
    classes = Classes.parse("6-9")
    result = peek(shoe, "first:5", classes, [PLAYER, BANKER], tableau)
    fixed = peek(shoe, "P1=9,B1", classes, [PLAYER, BANKER], tableau)
    brute: dict[tuple[str, ...], list[Fraction]] = defaultdict(lambda: [Fraction(0)] * 3)
    nine: dict[tuple[str, ...], list[Fraction]] = defaultdict(lambda: [Fraction(0)] * 3)
    for seq in itertools.permutations(range(len(cards)), 6):
        dealt = [cards[i] for i in seq]
        coup = resolve(dealt, tableau)
        pays = [settle_full(b, coup)[1] for b in (PLAYER, BANKER)]
        key = tuple(_class(classes, c) for c in dealt[:5])
        for acc, k in ((brute, key),) + (((nine, ("9", key[1])),) if str(dealt[0]) == "9" else ()):
            acc[k][0] += 1
            acc[k][1] += pays[0]
            acc[k][2] += pays[1]
    total = falling(len(cards), 6)
    _agrees(result, brute, total)
    assert {r.pattern: (r.probability, r.evs) for r in fixed.rows} == {
        k: (v[0] / total, (v[1] / v[0], v[2] / v[0])) for k, v in nine.items()}


# -- the house's side, the tables ---------------------------------------------------------------


def test_the_house_loses_the_edge_times_the_stake_and_the_coups() -> None:
    result = peek(EIGHT, "first:4", "6-9", [PLAYER, BANKER, TIE])
    always, positive = house_exposure(result, Fraction(150000), hands_per_shoe=70, hands_per_hour=50)
    assert always.per_coup == 150000 * result.edge
    assert positive.per_shoe == 70 * 150000 * result.edge_when_positive
    assert positive.per_hour == 50 * 150000 * result.edge_when_positive
    with pytest.raises(PeekError, match="stake"):
        house_exposure(result, 0)
    with pytest.raises(PeekError, match="hands per shoe"):
        house_exposure(result, 1, hands_per_shoe=0)


def test_the_tables_carry_every_exact_figure() -> None:
    result = peek(EIGHT, "P1", "6-9", [PLAYER, BANKER])
    tables = peek_tables(result, house_exposure(result))
    assert [t.name for t in tables] == ["peek-patterns", "peek-summary", "peek-house"]
    summary = tables[1]
    assert summary.rows[0][1] == result.edge and summary.rows[1][2] == 1
    found = search_sorts(EIGHT, "P1", [PLAYER, BANKER])
    table = search_table(found, top=3)
    assert len(table.rows) == 3 and table.rows[0][1] == "6-9" and table.rows[0][3] == result.edge
    assert len(search_table(found, top=0).rows) == 511


def test_a_bets_exposure_is_the_best_sort_bet_only_when_positive() -> None:
    exposure = sorting_exposure(BANKER)
    one = search_sorts(EIGHT, "P1", [BANKER]).rows
    assert exposure.one_card.edge_when_positive == max(r.edge_when_positive for r in one)
    assert exposure.one_card.classes.labels == ("A-5,10-K", "6-9")  # Banker wants the low first card
    assert exposure.four_card.seen.slots == ("P1", "B1", "P2", "B2") and exposure.searched == 511
    summary, ones, fours = exposure_tables(exposure)
    assert summary.rows[0][3] == exposure.one_card.edge_when_positive
    assert summary.rows[1][1:3] == exposure.four_card.classes.labels[::-1]
    assert len(ones.rows) == 2 and len(fours.rows) == 16
    # the summary is computed once, in the study: peek's table and the report's section show it
    one, four = exposure.summary
    assert exposure.summary is exposure.summary
    assert (one.cards_seen, four.cards_seen) == ("first card", "first four cards")
    assert (one.rest, one.group) == exposure.one_card.classes.labels
    assert four.edge_per_bet == exposure.four_card.edge_per_bet
    assert four.bet_frequency == exposure.four_card.bet_frequency
    assert summary.rows == tuple(
        (s.cards_seen, s.group, s.rest, s.edge_when_positive, s.bet_frequency, s.edge_per_bet)
        for s in exposure.summary
    )


# -- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seen", "classes", "match"),
    [
        ("P4", "6-9", "unknown slot"),
        ("P1,P1", "6-9", "named twice"),
        ("first:7", "6-9", "first:N"),
        ("P3,first:5", "6-9", "not both"),
        ("", "6-9", "no card seen"),
        ("P1=Z", "6-9", "bad card"),
        ("P1", "A-K", "tells nothing"),
        ("P1", "9-6", "bad range"),
        ("P1", "6-9/8-K", "two groups"),
        ("P1", "X", "bad rank"),
    ],
)
def test_bad_seen_or_classes_are_one_clear_error(seen: str, classes: str, match: str) -> None:
    with pytest.raises(PeekError, match=match):
        peek(EIGHT, seen, classes, [PLAYER])


def test_bets_on_ranks_small_shoes_and_unknown_suits_are_refused() -> None:
    with pytest.raises(PeekError, match="reads the ranks or suits"):
        peek(EIGHT, "P1", "6-9", [find_bet("player-pair")])
    with pytest.raises(PeekError, match="no bet"):
        peek(EIGHT, "P1", "6-9", [])
    with pytest.raises(PeekError, match="too small"):
        peek(Shoe.parse("A=2,5=2,9=2"), "burn", "6-9", [PLAYER])
    with pytest.raises(PeekError, match="suits are known"):
        peek(Shoe.from_counts([4] * 13), "P1", "colour", [PLAYER])
    with pytest.raises(PeekError, match="exact cards"):
        search_sorts(EIGHT, "P1=9", [PLAYER])


# -- the command ---------------------------------------------------------------------------------


def test_peek_command_prints_the_golden_figure_and_its_json(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("peek", "--bet", "player", "--bet", "banker", "--digits", "4")
    assert result.exit_code == 0, result.output
    assert "6.7647%" in result.output
    doc = json.loads(cli("peek", "--bet", "player", "--bet", "banker", "--format", "json").output)
    (summary,) = [t for t in doc["tables"] if t["name"] == "peek-summary"]
    assert summary["rows"][0]["edge"] == "6604082064256/97624966318425"


def test_peek_search_names_the_worst_sort_for_the_house(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("peek", "--see", "first:4", "--search", "value", "--top", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)["tables"][0]["rows"]
    assert (row["group"], row["rest"]) == ("4-9", "A-3,10-K")
    assert Decimal(str(row["edge_when_positive_percent"])).quantize(Decimal("0.001")) == Decimal("30.291")


def test_peek_plot_and_bad_input(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    target = tmp_path / "edge.png"
    result = cli("peek", "--see", "P1,B1", "--plot", str(target), "--table", "summary")
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(b"\x89PNG")
    bad = cli("peek", "--see", "Q7")
    assert bad.exit_code == 2 and bad.output.startswith("Error: unknown slot")
    assert len(bad.output.strip().splitlines()) == 1
    assert cli("peek", "--bet", "perfect-pair").exit_code == 2


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "latex", "html"])
def test_peek_writes_every_table_format(cli, fmt, tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / f"peek.{fmt}"
    result = cli("peek", "--see", "P1,B1", "--format", fmt, "--digits", "3", "-o", str(target))
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert "6-9" in text and "A-5,10-K" in text
    if fmt == "csv":
        assert "6604082064256" not in text  # two cards seen: not the one-card figure
        assert "peek-patterns" in text and "peek-house" in text
