"""Effects of removal: exact identities, direct checks, published figures and count systems; the
``eor`` command builds only the tables it prints."""

import json
import random
import sys
from fractions import Fraction

import pytest
from clirun import invoke
from featurebets import quick_to_compile
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe, analyze, catalogue_bets, find_bet, main_bets, price
from analyzer.core.coup import Winner
from analyzer.core.tableau import TABLEAUX
from analyzer.errors import BetError, ShoeError
from analyzer.studies.eor import (
    PUBLISHED_TAGS,
    PlotUnavailableError,
    betting_correlation,
    count_system,
    effects_of_removal,
    published_comparison,
    scaled_tags,
)

EIGHT = Shoe.standard(8)


@pytest.fixture(scope="module")
def by_value():
    return effects_of_removal(EIGHT, [find_bet("dragon-7"), find_bet("panda-8"), *main_bets()],
                              by="value", depth=2)


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_sum_identity_holds_exactly_for_the_whole_catalogue(full):
    # sum_g c_g EV(S - g) / N = EV(S): burning one random card leaves the next coup's law unchanged.
    bets = catalogue_bets() if full else [b for b in catalogue_bets() if quick_to_compile(b, 416)]
    report = effects_of_removal(EIGHT, bets, depth=1)
    for b in report.bets:
        assert b.identity_sum == 0, b.bet.name
        assert b.average_removed_ev == b.ev, b.bet.name


@given(st.lists(st.integers(0, 9), min_size=13, max_size=13).filter(lambda c: sum(c) >= 7))
@settings(max_examples=25, deadline=None)
def test_sum_identity_holds_on_any_shoe_of_7_cards_or_more(counts):
    shoe = Shoe(tuple(counts))
    report = effects_of_removal(shoe, [*main_bets(), find_bet("player-pair"), find_bet("dragon-7")], depth=1)
    for b in report.bets:
        assert b.identity_sum == 0 and b.average_removed_ev == b.ev


@pytest.mark.parametrize("rules", ["banker-stands-on-6", "banker-under-5-when-player-stood"])
def test_eor_under_a_variant_tableau(rules):
    # The identity and the direct removal hold under any rule set; the EVs are the variant's.
    tableau = TABLEAUX[rules]
    shoe = Shoe.standard(1).remove("K 5 5 9")
    bets = [find_bet("banker"), find_bet("tie"), find_bet("player-pair")]
    report = effects_of_removal(shoe, bets, depth=1, tableau=tableau)
    for b in report.bets:
        assert b.identity_sum == 0 and b.average_removed_ev == b.ev, b.bet.name
        assert b.ev == price(b.bet, shoe, tableau).ev
        for g, dep in zip(report.groups, b.depletion, strict=True):
            assert dep[0] == price(b.bet, shoe.remove(g.label), tableau).ev - b.ev, g.label
    standard = effects_of_removal(shoe, bets[:1], depth=1)
    assert standard.bets[0].ev != report.bets[0].ev  # the rules change the Banker's EV


def test_eor_is_the_direct_removal():
    rng = random.Random(2)
    shoe = Shoe(tuple(rng.randrange(20, 33) for _ in range(13)))
    bets = [find_bet("banker"), find_bet("either-pair"), find_bet("lucky-6")]
    report = effects_of_removal(shoe, bets, depth=3)
    for b in report.bets:
        ev = price(b.bet, shoe).ev
        assert b.ev == ev
        for g, dep in zip(report.groups, b.depletion, strict=False):
            label = "10" if g.label == "10" else g.label
            for k, change in enumerate(dep, start=1):
                assert change == price(b.bet, shoe.remove(" ".join([label] * k))).ev - ev


def test_suited_bets_average_over_the_suits_of_the_removed_card():
    shoe = Shoe.standard(2).remove("Ks Kh Kd 5s")  # uneven suits for K and 5
    pp = find_bet("perfect-pair:2")
    report = effects_of_removal(shoe, [pp], depth=1)
    ev = price(pp, shoe).ev
    for g, eor in zip(report.groups, report.bets[0].eor, strict=False):
        r = g.ranks[0]
        expected = sum(
            (Fraction(shoe.suited[4 * r + s], shoe.counts[r]) * price(pp, shoe.remove(f"{g.label}{suit}")).ev
             for s, suit in enumerate("shdc") if shoe.suited[4 * r + s]),
            Fraction(0),
        ) - ev
        assert eor == expected, g.label


def test_value_groups_pool_their_ranks():
    report = effects_of_removal(EIGHT, [find_bet("player-pair")], by="value", depth=1)
    by_rank = effects_of_removal(EIGHT, [find_bet("player-pair")], by="rank", depth=1)
    zero = report.bets[0].eor[-1]  # 10/J/Q/K
    assert zero == sum(by_rank.bets[0].eor[9:13], Fraction(0)) / 4


def test_published_effects_on_player_win_probability():
    # excelpunks, "Concepts 16: Baccarat - Effects of Card Removal",
    # https://excelpunks.com/concepts-16-baccarat-effects-of-card-removal/ : 8 decks, change in
    # P(Player wins) after removing 1, 2, 3 cards of a value, printed to 10 decimals.
    published = {
        "4": ("-0.0000435175", "-0.0000870460", "-0.0001305855"),
        "K": ("-0.0000373810", "-0.0000749287", "-0.0001126377"),
        "A": ("-0.0000295798", "-0.0000594307", "-0.0000895596"),
        "3": ("-0.0000217068",),
    }
    base = analyze(EIGHT).probability(Winner.PLAYER)
    for card, figures in published.items():
        for k, text in enumerate(figures, start=1):
            change = analyze(EIGHT.remove(" ".join([card] * k))).probability(Winner.PLAYER) - base
            assert round(change, 10) == Fraction(text), (card, k)


def test_published_panda_8_count_after_one_zero_leaves():
    # Wizard of Odds, "Card counting the Panda 8 bet", https://wizardofodds.com/games/baccarat/appendix/8/
    # (Japanese mirror jp.wizardofodds.com): with one 0-valued card removed from 8 decks, the Panda 8
    # wins in 170,399,271,999,488 of the 415P6 = 4,926,305,992,683,600 orders.
    summary = price(find_bet("panda-8"), EIGHT.remove("K"))
    assert summary.denominator == 4_926_305_992_683_600
    assert summary.events[0].count == 170_399_271_999_488


def test_jacobson_dragon_7_tags_are_the_exact_eors_scaled_to_2(by_value):
    # E. Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat",
    # https://www.888casino.com/blog/side-bets/
    #     co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat :
    # Dragon 7 tags {0,0,0,-1,-1,-1,-1,2,2,0} (A..9, T).
    dragon = by_value.bets[0]
    assert scaled_tags(dragon.eor, 2) == PUBLISHED_TAGS["dragon-7"][1] == (0, 0, 0, -1, -1, -1, -1, 2, 2, 0)


def test_published_tags_agree_in_sign_with_the_exact_eors(by_value):
    for name, _source, tags, published, derived in published_comparison(by_value):
        bet = next(b for b in by_value.bets if b.bet.name == name)
        for t, e in zip(tags, bet.eor, strict=False):
            assert t == 0 or (t > 0) == (e > 0), name
        assert published.sign == 1 and published.bc_squared > Fraction(9, 10) ** 2
        assert derived.sign == 1 and derived.bc_squared > Fraction(9, 10) ** 2
        assert published.balanced


def test_panda_8_tags_scaled_to_4_differ_from_the_published_only_on_the_3(by_value):
    # Published Panda 8 tags (Jacobson / Wizard of Odds): {1,1,-2,-2,-2,-1,-1,-2,4,1}.
    panda = by_value.bets[1]
    ours = scaled_tags(panda.eor, 4)
    published = PUBLISHED_TAGS["panda-8"][1]
    assert [i for i, (a, b) in enumerate(zip(ours, published, strict=False)) if a != b] == [2]  # the 3


def test_betting_correlation_basics():
    eor = [Fraction(3), Fraction(-1), Fraction(-2), Fraction(0)]
    counts = [1, 1, 1, 1]
    assert betting_correlation([3, -1, -2, 0], eor, counts) == (Fraction(1), 1)
    assert betting_correlation([-3, 1, 2, 0], eor, counts) == (Fraction(1), -1)
    assert betting_correlation([1, 1, 1, 1], eor, counts) == (None, 0)
    system = count_system(eor, counts, 3)
    assert system.tags == (3, -1, -2, 0) and system.betting_correlation(4) == 1


def test_depletion_is_close_to_linear_for_main_bets(by_value):
    for b in by_value.bets[2:]:
        for e, dep in zip(b.eor, b.depletion, strict=False):
            ratio = dep[1] / (2 * e)
            assert Fraction(9, 10) < ratio < Fraction(11, 10)


def test_bad_arguments():
    with pytest.raises(BetError):
        effects_of_removal(EIGHT, [], depth=1)
    with pytest.raises(BetError):
        effects_of_removal(EIGHT, main_bets(), by="suit")
    with pytest.raises(BetError):
        effects_of_removal(Shoe(EIGHT.counts), [find_bet("perfect-pair")])
    with pytest.raises(ShoeError):
        effects_of_removal(Shoe.parse("A=4"), main_bets())


# -- the command ------------------------------------------------------------------------------------


def test_cli_eor_default_and_json(cli):
    result = cli("eor", "--depth", "2")
    assert result.exit_code == 0
    assert "Effects of removal by rank: 8 decks" in result.output
    doc = json.loads(cli("eor", "--bet", "tie", "--depth", "1", "--format", "json").output)
    table = next(t for t in doc["tables"] if t["name"] == "eor:tie")
    ace = table["rows"][0]
    assert ace["rank"] == "A" and "/" in ace["eor"]
    shoe = Shoe.standard(8)
    tie = find_bet("tie")
    assert Fraction(ace["eor"]) == price(tie, shoe.remove("A")).ev - price(tie, shoe).ev


def test_cli_eor_bad_input_is_one_line_exit_2(cli, tmp_path):
    out = tmp_path / "out.txt"
    for args in (["--bet", "nope"], ["--shoe", "A=4"], ["--plot", str(tmp_path / "x.gif")]):
        result = cli("eor", *args, "-o", str(out))
        assert result.exit_code == 2, args
        assert len(result.output.strip().splitlines()) == 1
        assert not out.exists()


def test_cli_plot(cli, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "eor.svg"
    result = cli("eor", "--bet", "dragon-7", "--by", "value", "--depth", "1", "--plot", str(target))
    assert result.exit_code == 0 and target.read_text().lstrip().startswith("<?xml")


def test_plot_without_matplotlib_is_a_clear_error(monkeypatch, tmp_path):
    from analyzer.output.charts import eor_plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    report = effects_of_removal(EIGHT, [find_bet("banker")], depth=1)
    with pytest.raises(PlotUnavailableError, match="matplotlib"):
        eor_plot(report, tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_eor_refuses_explosive_suited_mixtures_and_plot_clobbering(cli, tmp_path):
    from analyzer.studies.eor import effects_of_removal

    with pytest.raises(BetError, match="--depth"):
        effects_of_removal(Shoe.standard(8), [find_bet("perfect-pair")], by="value", depth=13)
    same = str(tmp_path / "x.png")
    result = cli("eor", "--plot", same, "-o", same)
    assert result.exit_code == 2 and "same file" in result.output


def test_eor_footnote_follows_digits():
    out = invoke("eor", "--bet", "banker", "--table", "eor", "--digits", "6").output
    assert "EV per unit staked on the full shoe: -0.010579;" in out


def test_eor_builds_only_the_tables_it_prints(monkeypatch):
    import analyzer.studies.eor as eor

    depths: list[int] = []
    real = eor.effects_of_removal

    def spy(*args, **kwargs):
        depths.append(kwargs["depth"])
        return real(*args, **kwargs)

    monkeypatch.setattr(eor, "effects_of_removal", spy)
    assert invoke("eor", "--bet", "tie", "--table", "summary").exit_code == 0
    assert invoke("eor", "--bet", "tie", "--table", "summary,depletion", "--depth", "3").exit_code == 0
    assert depths == [1, 3]
