"""``conform`` finds rule bugs: decision cells from hand logs, power, and ranking tableaux.

Logs are dealt here by resolving seeded random cards under a (possibly modified) tableau, each
coup from a freshly shuffled 8-deck shoe, and written as JSON Lines with the cards only.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.checks.compare import rank_tableaux
from analyzer.checks.conform import conform, first_cards, outside_rules, read_observed, tally_log
from analyzer.checks.decisions import (
    BANKER_CELLS,
    Cell,
    DecisionLog,
    attribute,
    check_decisions,
    decisions_summary,
)
from analyzer.checks.handlog import read_records
from analyzer.checks.power import (
    coups_to_see,
    effect_power,
    family_power,
    noncentrality_for_power,
)
from analyzer.core.cards import RANKS, SUITS, Card, parse_cards
from analyzer.core.coup import Coup, coup_from_cards, dealing_order, resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau, find_tableau
from analyzer.errors import ObservedError
from analyzer.testing import probability

ROOT = Path(__file__).resolve().parent.parent
SHOE = [Card(r, s) for r in RANKS for s in SUITS] * 8


def banker_draws_on_6_against_5() -> Tableau:
    """The engine bug of issue 13: the Banker draws on 6 against a Player third card of 5."""
    table = list(STANDARD.banker_draws_on_third)
    table[6] = frozenset({5, 6, 7})
    return replace(STANDARD, name="banker-draws-on-6-against-5", banker_draws_on_third=tuple(table))


def write_log(path: Path, tableau: Tableau, coups: int, seed: int) -> Path:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(coups):
            coup = resolve(rng.sample(SHOE, 6), tableau)
            fh.write(json.dumps({"cards": " ".join(map(str, dealing_order(coup)))}) + "\n")
    return path


def observed_of(path: Path, tableau: Tableau = STANDARD):
    return read_observed(str(path), tableau=tableau)


# -- decision cells ------------------------------------------------------------------------------


def test_a_banker_drawing_on_6_against_5_fails_at_once_through_its_cell(tmp_path):
    log = write_log(tmp_path / "bug.jsonl", banker_draws_on_6_against_5(), 3000, seed=13)
    obs = observed_of(log)
    # Deterministic: whatever the significance level, one coup against the tableau fails.
    result = conform(obs, Shoe.standard(8), alpha=Fraction(1, 10**30))
    assert not result.passed
    check = result.decisions
    assert check is not None and not check.passed
    (broken,) = check.broken
    assert broken.cell == Cell("banker", 6, 5)
    assert broken.cell.label == "Banker on 6, Player's third card 5"
    assert broken.drew == broken.contradicting > 0 and broken.stood == 0 and not broken.should_draw
    # The first lines are the log's own lines of such coups.
    lines = log.read_text(encoding="utf-8").splitlines()
    first = [i for i, text in enumerate(lines, 1) if _is_b6_p5(text)]
    assert list(broken.lines) == first[: len(broken.lines)] and broken.contradicting == len(first)
    # Every other cell reached follows the tableau.
    assert all(r.contradicting == 0 for r in check.rows if r.cell != broken.cell)


def _is_b6_p5(line: str) -> bool:
    seq = parse_cards(json.loads(line)["cards"])
    p2 = (seq[0].point + seq[2].point) % 10
    b2 = (seq[1].point + seq[3].point) % 10
    return p2 <= 5 and b2 == 6 and len(seq) == 6 and seq[4].point == 5


def test_the_cli_names_the_cell_and_the_first_lines(cli, tmp_path):
    log = write_log(tmp_path / "bug.jsonl", banker_draws_on_6_against_5(), 2000, seed=5)
    res = cli("conform", str(log), "--alpha", "1e-20")
    assert res.exit_code == 1, res.output
    assert "Decision cells: FAIL" in res.output
    assert "Banker on 6, Player's third card 5: Banker on 6 must stand when the Player's third card is 5" in (
        res.output
    )
    assert "but drew on line" in res.output
    assert "DOES NOT CONFORM" in res.output


def test_a_fair_log_follows_every_cell_and_its_cell_families_pass(tmp_path):
    log = write_log(tmp_path / "fair.jsonl", STANDARD, 3000, seed=21)
    result = conform(observed_of(log), Shoe.standard(8))
    assert result.decisions is not None and result.decisions.passed
    assert result.decisions.coups == 3000
    fams = {r.family: r for r in result.results}
    assert fams["player_cell"].passed and fams["banker_cell"].passed
    # Only cells reachable under the tableau are tested: 8 Player totals and the natural cell.
    assert {r.category for r in fams["player_cell"].rows} == {"natural", *map(str, range(8))}
    assert len(fams["banker_cell"].rows) == 1 + 8 * 11
    assert result.passed


def test_cell_probabilities_are_exact():
    # P(no natural, Banker two-card total 6, Player third card 5), independently from the oracle.
    from analyzer.checks.conform import expected
    from analyzer.engine.pricing import Pricer

    probs = expected("banker_cell", Pricer(Shoe.standard(8)))
    direct = probability(lambda c: not c.natural and c.banker_two_card_total == 6 and c.player_third == 5, 8)
    assert probs["6/5"] == direct
    assert sum(probs.values()) == 1 and set(probs) == set(BANKER_CELLS)


def test_the_cells_read_every_base_field_of_a_coup_and_no_card():
    # derived from the record's own list: a base field added to the record is read by the
    # cells too (the comparisons see every value-level fact of a coup)
    from analyzer.checks.decisions import CELL_READS
    from analyzer.core.reads import BASE_FIELDS

    assert set(CELL_READS.fields) == set(BASE_FIELDS) and not CELL_READS.sets


def test_a_fifth_card_where_both_stand_is_named(tmp_path):
    # Player 7 (stands), Banker 6 (stands when the Player stood): a fifth card contradicts.
    log = tmp_path / "five.jsonl"
    log.write_text('{"cards": "7 6 K K 3"}\n{"cards": "2 K 3 3 8"}\n', encoding="utf-8")
    obs = observed_of(log)
    assert obs.decisions is not None
    check = check_decisions(obs.decisions, STANDARD)
    assert check.contradicting == 1 and check.first_line == 1
    (broken,) = check.broken
    assert broken.cell.kind == "fifth" and "Player on 7 must stand" in broken.cell.rule(STANDARD)
    # Under a tableau where the Banker draws on 6 when the Player stood, the card is the Banker's.
    lenient = replace(STANDARD, banker_draws_when_player_stood=frozenset(range(7)))
    assert attribute((7, 6, 3), lenient) == (7, 6, None, 3)
    assert check_decisions(obs.decisions, lenient).contradicting == 0


def test_claimed_totals_attribute_a_fifth_card():
    log = DecisionLog()
    cards = tuple(Card(r) for r in (RANKS[6], RANKS[5], RANKS[9], RANKS[9], RANKS[2]))  # 7 6 10 10 3
    log.add_record(cards, False, (None, 9), None, 4)  # Banker 6 + 3 = 9: the Banker's card
    assert log.coups == {(7, 6, None, 3): 1} and not log.open_coups


# -- power ------------------------------------------------------------------------------------


def test_noncentrality_matches_cohen_and_the_normal_formula():
    # df = 1: lambda = (z_{1 - a/2} + z_{power})^2 exactly (the chi-square with 1 df is a squared normal,
    # up to the far tail); Cohen 1988 table 7.4.6: 7.85 at a = 0.05, power 0.80; 10.51 at power 0.90.
    assert noncentrality_for_power(1, Fraction(5, 100), Fraction(8, 10)) == pytest.approx(7.849, abs=2e-3)
    assert noncentrality_for_power(1, Fraction(5, 100), Fraction(9, 10)) == pytest.approx(10.507, abs=2e-3)


def test_coups_to_see_is_exact():
    r = Fraction(1, 100)
    n = coups_to_see(r, Fraction(9, 10))
    assert n is not None and (1 - r) ** n <= Fraction(1, 10) < (1 - r) ** (n - 1)
    assert coups_to_see(Fraction(0)) is None


def test_effect_power_is_the_smallest_n():
    level, w = Fraction(1, 100), Fraction(1, 10)
    fp = effect_power(2, w, level, 100)
    assert fp.coups is not None
    below = family_power(2, w * w, Fraction(0), level, fp.coups - 1)
    at = family_power(2, w * w, Fraction(0), level, fp.coups)
    assert below.power_at_n_float < 0.9 <= at.power_at_n_float


@pytest.mark.parametrize("family", ["cards", "banker_total"])
def test_the_power_approximation_agrees_with_a_simulation(family):
    # Multinomial samples of the reported n coups under the alternative: about 90% are rejected.
    import numpy as np
    from scipy import stats

    from analyzer.checks.conform import expected
    from analyzer.checks.power import effect_size_squared, impossible_mass
    from analyzer.engine.pricing import Pricer

    level = Fraction(1, 700)
    p = expected(family, Pricer(Shoe.standard(8)))
    q = expected(family, Pricer(Shoe.standard(8), find_tableau("banker-under-5-when-player-stood")))
    n = family_power(len(p) - 1, effect_size_squared(p, q), impossible_mass(p, q), level, 1).coups
    assert n is not None
    pv = np.array([float(p[c]) for c in p])
    qv = np.array([float(q[c]) for c in p])
    counts = np.random.default_rng(2026).multinomial(n, qv / qv.sum(), size=2000)
    stat = ((counts - n * pv) ** 2 / (n * pv)).sum(axis=1)
    rejected = float((stat > stats.chi2.isf(float(level), len(p) - 1)).mean())
    assert rejected == pytest.approx(0.9, abs=0.03)


def test_power_against_banker_stands_on_6(tmp_path):
    log = write_log(tmp_path / "fair.jsonl", STANDARD, 1000, seed=3)
    alt = find_tableau("banker-stands-on-6")
    result = conform(observed_of(log), Shoe.standard(8), against=[alt])
    rows = {r.family: r for r in result.power}
    # The Player's totals and the cells reached do not depend on the Banker's rule: never seen.
    for fam in ("player_total", "natural", "player_cell", "banker_cell"):
        assert rows[fam].coups is None, fam
    assert rows["cards"].coups is not None and rows["cards"].coups > 10_000
    # The decision cells see it on the first coup through Banker 6 against a third card 6 or 7.
    r = probability(lambda c: not c.natural and c.banker_two_card_total == 6 and c.player_third in (6, 7), 8)
    assert rows["decisions"].coups == coups_to_see(r, Fraction(9, 10))
    assert rows["decisions"].coups < 300
    assert rows["decisions"].power_at_n_float == pytest.approx(1 - (1 - float(r)) ** 1000)


def test_default_power_uses_the_effect_size_and_the_rarest_cell(tmp_path):
    log = write_log(tmp_path / "fair.jsonl", STANDARD, 500, seed=4)
    result = conform(observed_of(log), Shoe.standard(8))
    rows = {r.family: r for r in result.power}
    assert rows["winner"].alternative == "w = 0.01" and rows["winner"].coups is not None
    assert rows["decisions"].alternative == "any one cell changed"
    assert "rarest cell" in rows["decisions"].note


def test_power_options_are_checked():
    obs = read_observed(str(ROOT / "examples" / "observed.json"))
    with pytest.raises(ObservedError, match="effect size"):
        conform(obs, Shoe.standard(8), effect=Fraction(0))
    with pytest.raises(ObservedError, match="power"):
        conform(obs, Shoe.standard(8), power=Fraction(3, 2))
    with pytest.raises(ObservedError, match="alternative"):
        conform(obs, Shoe.standard(8), against=["banker-stands-on-6"])  # type: ignore[list-item]


# -- ranking tableaux ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "banker-stands-on-6", "banker-under-5-when-player-stood"])
def test_a_log_dealt_under_a_variant_ranks_it_first(tmp_path, name):
    true = find_tableau(name)
    log = write_log(tmp_path / "log.jsonl", true, 2000, seed=len(name))
    obs = observed_of(log)
    assert obs.decisions is not None
    listed = [find_tableau(n) for n in ("standard", "banker-stands-on-6", "banker-under-5-when-player-stood")]
    fits = rank_tableaux(obs.decisions, Shoe.standard(8), listed)
    assert fits[0].tableau == true and fits[0].contradicting == 0
    assert math.isfinite(fits[0].log_likelihood_float)
    assert all(f.contradicting > 0 and f.log_likelihood_float == -math.inf for f in fits[1:])


def test_the_outcome_likelihood_alone_prefers_the_true_tableau(tmp_path):
    # Without the cards' contradictions: the outcomes' likelihood ratio also points at the truth.
    log = write_log(tmp_path / "log.jsonl", find_tableau("banker-stands-on-6"), 4000, seed=8)
    obs = observed_of(log)
    assert obs.decisions is not None
    fits = {
        f.tableau.name: f
        for f in rank_tableaux(
            obs.decisions, Shoe.standard(8), [STANDARD, find_tableau("banker-stands-on-6")]
        )
    }
    assert (
        fits["banker-stands-on-6"].outcome_log_likelihood_float
        > fits["standard"].outcome_log_likelihood_float
    )


def test_cli_compare_with_a_rules_file(cli, tmp_path):
    rules = ROOT / "examples" / "rules" / "banker-under-5-when-player-stood.toml"
    log = write_log(tmp_path / "log.jsonl", find_tableau(str(rules)), 1500, seed=2)
    res = cli("conform", str(log), "--rules", str(rules), "--compare", f"standard,banker-stands-on-6,{rules}")
    assert res.exit_code == 0, res.output
    ranking = res.output[res.output.index("Tableaux ranked") :]
    first = [line for line in ranking.splitlines() if line.strip().startswith("1 ")]
    assert first and "banker-under-5-when-player-stood" in first[0]
    assert "-inf" in ranking


COUNTS = str(ROOT / "examples" / "observed.json")
LOG = str(ROOT / "examples" / "hands.jsonl")


@pytest.mark.parametrize(
    ("target", "args", "message"),
    [
        (COUNTS, ["--compare", "standard"], "--compare needs a hand log"),
        (LOG, ["--compare", " , "], "names no tableau"),
        (LOG, ["--compare", "standard,nonesuch"], "'nonesuch' names no tableau, rules file or engine bug"),
        (LOG, ["--compare", "nonesuch.toml"], "nonesuch.toml: no such rules file"),
        (LOG, ["--compare", "standard,standard"], "same tableau"),
        (COUNTS, ["--against", "nonesuch"], "unknown rules 'nonesuch'"),
        (COUNTS, ["--effect", "0"], "bad --effect"),
        (COUNTS, ["--power", "1.5"], "bad --power"),
        (COUNTS, ["--power", "0.001"], "must exceed the significance level"),
    ],
)
def test_cli_bad_options_are_one_line_exit_2(cli, target, args, message):
    res = cli("conform", target, *args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_tally_log_keeps_the_decisions():
    with open(ROOT / "examples" / "hands.jsonl", encoding="utf-8") as fh:
        obs = tally_log(read_records(fh, "jsonl"))
    assert obs.decisions is not None and obs.decisions.total == obs.coups


def test_one_coup_against_the_tableau_is_enough(cli, tmp_path):
    # Player 2 3 (5) draws a 5; Banker K 6 (6) must stand against a 5, but draws a 4.
    log = tmp_path / "one.jsonl"
    log.write_text('{"cards": "2 K 3 6 5 4"}\n', encoding="utf-8")
    res = cli("conform", str(log), "--family", "winner")
    assert res.exit_code == 1, res.output
    assert "Banker on 6 must stand when the Player's third card is 5, but drew on line 1." in res.output


def test_the_example_log_is_the_seeded_bugged_engine(tmp_path):
    # examples/hands-banker-draws-on-6-against-5.jsonl: 1000 coups, seed 1306, under the rules file.
    rules = find_tableau(str(ROOT / "examples" / "rules" / "banker-draws-on-6-against-5.toml"))
    assert rules.fingerprint == banker_draws_on_6_against_5().fingerprint
    fresh = write_log(tmp_path / "log.jsonl", rules, 1000, seed=1306)
    example = ROOT / "examples" / "hands-banker-draws-on-6-against-5.jsonl"
    assert fresh.read_text(encoding="utf-8") == example.read_text(encoding="utf-8")
    assert conform(observed_of(example), Shoe.standard(8), tableau=rules).passed


# -- coups dealt outside the rules: families tallied on every coup that decides them, else VOID --


def _hand_total(hand: list[Card]) -> int:
    return sum(c.point for c in hand) % 10


def banker_draws_twice(cards: list[Card], tableau: Tableau = STANDARD) -> tuple[list[Card], list[Card]]:
    """An engine bug: after drawing, the Banker applies its rule once more (its new total against
    the Player's third card), so it sometimes draws a second third card (a hand of 4 cards).
    Its naturals and the Player's draws are right.  ``cards``: at least 7, in dealing order."""
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    used = 4
    p2, b2 = _hand_total(player), _hand_total(banker)
    third = None
    if tableau.player_draws_third(p2, b2):
        player.append(cards[used])
        used += 1
        third = player[2].point
    if tableau.banker_draws_third(p2, b2, third):
        banker.append(cards[used])
        used += 1
        if tableau.banker_draws_third(p2, _hand_total(banker), third):
            banker.append(cards[used])
    return player, banker


def write_twice_log(path: Path, coups: int, seed: int, cards_only: bool = False) -> Path:
    """A hand log of :func:`banker_draws_twice`, each coup from a freshly shuffled 8-deck shoe:
    the hands (``player``, ``banker``), or with ``cards_only`` the cards in dealing order."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(coups):
            player, banker = banker_draws_twice(rng.sample(SHOE, 7))
            if cards_only:
                seq = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
                fh.write(json.dumps({"cards": " ".join(map(str, seq))}) + "\n")
            else:
                hands = {"player": " ".join(map(str, player)), "banker": " ".join(map(str, banker))}
                fh.write(json.dumps(hands) + "\n")
    return path


def _four_card_bankers(path: Path) -> list[int]:
    """The lines of the log whose Banker hand holds 4 cards."""
    return [
        i
        for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(json.loads(text)["banker"].split()) == 4
    ]


@pytest.fixture(scope="module")
def twice_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_twice_log(tmp_path_factory.mktemp("twice") / "twice.jsonl", 3000, seed=2026)


def test_a_banker_drawing_twice_biases_the_coups_the_verifier_reads(twice_log, tmp_path):
    # As conform tallied before: only the coups the verifier reads as coups, the Banker's
    # hands of 4 cards dropped.  Those are not a random subset (a Banker draws twice only
    # when there was no natural), so naturals and Player cells fail although they are right.
    lines = twice_log.read_text(encoding="utf-8").splitlines()
    dropped = set(_four_card_bankers(twice_log))
    read = tmp_path / "read.jsonl"
    read.write_text("".join(t + "\n" for i, t in enumerate(lines, 1) if i not in dropped), encoding="utf-8")
    result = conform(observed_of(read), Shoe.standard(8))
    fams = {r.family: r for r in result.results}
    assert not fams["natural"].passed and not fams["player_cell"].passed
    assert fams["natural"].p_value_float < 1e-20 and not result.void


def test_a_family_tallies_every_coup_that_decides_it_and_the_rest_are_void(twice_log):
    left = _four_card_bankers(twice_log)
    coups = len(twice_log.read_text(encoding="utf-8").splitlines())
    assert 0 < len(left) < coups
    obs = observed_of(twice_log)
    result = conform(obs, Shoe.standard(8))
    fams = {r.family: r for r in result.results}
    # naturals and the cells read the first four cards and the Player's draw: every coup counts
    assert set(fams) == {"natural", "player_cell", "banker_cell"}
    for fam in fams.values():
        assert fam.passed and fam.n == coups, (fam.family, fam.p_value_float)
    assert result.level == result.alpha / 3  # Bonferroni over the families tested
    # the others need a coup dealt within the rules: no verdict, with how many, why and where
    void = {v.family: v for v in result.void}
    assert set(void) == {"winner", "player_total", "banker_total", "cards"}
    for v in void.values():
        assert (v.coups, v.left_out) == (coups, len(left))
        assert v.reasons == (("a Banker hand of 4 cards", len(left)),)
        assert list(v.lines) == left[: len(v.lines)] and len(v.lines) == 5
        n = f"{len(left):,}"
        assert v.text == f"VOID: {n} of {coups:,} coups left out (a Banker hand of 4 cards: {n})"
    assert all(r.family in fams or r.family == "decisions" for r in result.power)
    # the decision cells still fail the log: those coups no tableau deals
    assert result.decisions is not None and result.decisions.malformed == len(left)
    assert not result.passed


def test_a_void_family_is_never_tested_on_the_rest(twice_log):
    # winner alone: every coup it could read is tallied, yet it gets no verdict, nor a power row
    result = conform(observed_of(twice_log), Shoe.standard(8), families=["winner"])
    assert result.results == () and [v.family for v in result.void] == ["winner"]
    assert [r.family for r in result.power] == ["decisions"]


def test_a_bet_family_needs_a_coup(twice_log):
    obs = read_observed(str(twice_log), bets=["player-pair"])
    result = conform(obs, Shoe.standard(8), families=["bet:player-pair", "natural"])
    assert [r.family for r in result.results] == ["natural"]
    (void,) = result.void
    assert void.family == "bet:player-pair" and void.needs == "a coup dealt within the rules"


def test_the_report_says_void_and_why(cli, twice_log):
    left = len(_four_card_bankers(twice_log))
    res = cli("conform", str(twice_log))
    assert res.exit_code == 1, res.output
    out = res.output
    assert f"VOID: {left:,} of 3,000 coups left out (a Banker hand of 4 cards: {left:,})" in out
    assert (
        f"VOID (no verdict): winner, player_total, banker_total, cards: {left:,} of 3,000 coups left out, "
        f"dealt outside the rules (a Banker hand of 4 cards: {left:,}; lines " in out
    )
    assert "verify names each fault" in out and "a frequency test on the rest would be biased" in out
    assert "Overall: DOES NOT CONFORM (4 families void, not tested; claims not checked)." in out
    tests = out[out.index("Goodness of fit per family") :].split("\n\n")[1]
    verdicts = {line.split()[0]: line for line in tests.splitlines()[2:]}
    assert all("PASS" in verdicts[f] for f in ("natural", "player_cell", "banker_cell"))
    assert all("VOID" in verdicts[f] and "FAIL" not in verdicts[f] for f in ("winner", "cards"))


def test_a_log_of_cards_only_reads_the_naturals_from_the_first_four(tmp_path):
    # Seven cards: the first four decide the naturals; whose the fifth card is, nobody can
    # say, so the cell families (which read the Player's draw) are void with the rest.
    log = write_twice_log(tmp_path / "cards.jsonl", 1500, seed=7, cards_only=True)
    texts = log.read_text(encoding="utf-8").splitlines()
    seven = [i for i, t in enumerate(texts, 1) if len(json.loads(t)["cards"].split()) == 7]
    assert seven
    result = conform(observed_of(log), Shoe.standard(8))
    (natural,) = result.results
    assert natural.family == "natural" and natural.n == 1500 and natural.passed
    void = {v.family: v for v in result.void}
    assert void["player_cell"].reasons == (("7 cards in one coup", len(seven)),)
    assert void["player_cell"].needs == "the first four cards and whether the Player drew"
    assert void["winner"].left_out == len(seven)


@pytest.mark.parametrize(
    ("record", "start", "known", "why"),
    [
        # a Banker hand of 4 cards: first four from the hands, the Player stood
        ({"player": "2 3", "banker": "K 2 A 3"}, (5, 2, None), True, "a Banker hand of 4 cards"),
        # the Player drew a 6: its third card is known
        ({"player": "2 3 6", "banker": "K 2 A 3"}, (5, 2, 6), True, "a Banker hand of 4 cards"),
        # a Player hand of 4 cards: it drew (its third card is the 5th dealt)
        ({"player": "2 3 6 7", "banker": "K 2"}, (5, 2, 6), True, "a Player hand of 4 cards"),
        # seven cards, no hands: who drew is unknown
        ({"cards": "2 K 3 2 6 A 3"}, (5, 2, None), False, "7 cards in one coup"),
        # cards and the Banker's hand: the Player's share is the rest
        ({"cards": "2 K 3 2 6 A 3", "banker": "K 2 A 3"}, (5, 2, 6), True, "a Banker hand of 4 cards"),
        # a fifth card where both hands stand (Player 7, Banker 6), no hands: unknown
        ({"cards": "7 6 K K 3"}, (7, 6, None), False, "a fifth card where both hands stand"),
        # three cards: no first four
        ({"cards": "2 K 3"}, None, False, "3 cards in one coup"),
        # hands that disagree with the cards on the first four
        ({"cards": "2 K 3 2 6 A", "player": "3 2 6", "banker": "K 2 A"}, None, False,
         "hands that are not the cards in dealing order"),
    ],
)
def test_first_cards_and_the_fault(record, start, known, why):
    (rec,) = read_records(iter([json.dumps(record) + "\n"]), "jsonl")
    got, is_known = first_cards(rec)
    assert outside_rules(rec) == why
    if start is None:
        assert got is None and not is_known
        return
    assert got is not None
    assert (got.player_two_card_total, got.banker_two_card_total, got.player_third) == start
    assert is_known is known


# -- a cell decided by something else than the cell -------------------------------------------------


def banker_on_6_reads_the_player_total(cards: list[Card]) -> Coup:
    """An engine bug: Banker on 6 against a Player third card of 4 draws when the Player's final
    total is below 5 and stands otherwise (its rule reads the Player's total, not the card)."""
    coup = resolve(cards)
    cell = not coup.natural and coup.banker_two_card_total == 6 and coup.player_third == 4
    if cell and coup.player_total < 5:
        return coup_from_cards(cards[:4], cards[4], cards[5])
    return coup


def test_a_cell_with_draws_and_stands_is_named(tmp_path):
    rng = random.Random(46)
    drew = stood = 0
    with open(tmp_path / "mixed.jsonl", "w", encoding="utf-8") as fh:
        for _ in range(6000):
            coup = banker_on_6_reads_the_player_total(rng.sample(SHOE, 6))
            if not coup.natural and coup.banker_two_card_total == 6 and coup.player_third == 4:
                drew += coup.banker_third is not None
                stood += coup.banker_third is None
            fh.write(json.dumps({"cards": " ".join(map(str, dealing_order(coup)))}) + "\n")
    assert drew and stood
    result = conform(observed_of(tmp_path / "mixed.jsonl"), Shoe.standard(8))
    check = result.decisions
    assert check is not None
    (mixed,) = check.mixed
    assert mixed.cell == Cell("banker", 6, 4) and (mixed.drew, mixed.stood) == (drew, stood)
    assert mixed.contradicting == drew and not result.passed
    text = decisions_summary(check)
    assert (
        f"Banker on 6, Player's third card 4: drew on {drew:,} coups and stood on {stood:,}: decided by "
        "something else than the cell (the engine's rule there reads more, such as the Player's total"
    ) in text
    # a cell where the engine only ever drew (or stood) is not named so, even when wrong
    bug = write_log(tmp_path / "bug.jsonl", banker_draws_on_6_against_5(), 2000, seed=5)
    plain = conform(observed_of(bug), Shoe.standard(8)).decisions
    assert plain is not None and plain.broken and not plain.mixed
    assert "decided by something else" not in decisions_summary(plain)


def test_the_twice_example_log_is_the_seeded_engine(tmp_path):
    # examples/hands-banker-draws-twice.jsonl: 1,000 coups of banker_draws_twice, seed 1306 (docs/checks.md).
    example = ROOT / "examples" / "hands-banker-draws-twice.jsonl"
    fresh = write_twice_log(tmp_path / "log.jsonl", 1000, seed=1306)
    assert fresh.read_text(encoding="utf-8") == example.read_text(encoding="utf-8")
    result = conform(observed_of(example), Shoe.standard(8))
    assert [r.family for r in result.results if r.passed] == ["natural", "player_cell", "banker_cell"]
    left = _four_card_bankers(example)
    assert [v.left_out for v in result.void] == [len(left)] * 4
    # as docs/checks.md says: tested on the coups without a 4-card Banker hand, the three would fail
    lines = example.read_text(encoding="utf-8").splitlines()
    rest = tmp_path / "rest.jsonl"
    rest.write_text("".join(t + "\n" for i, t in enumerate(lines, 1) if i not in set(left)), encoding="utf-8")
    biased = {r.family: r for r in conform(observed_of(rest), Shoe.standard(8)).results}
    assert len(lines) - len(left) == 731
    assert all(biased[f].p_value_float < 1e-11 for f in ("natural", "player_cell", "banker_cell"))


def test_the_faults_kept_per_family_are_bounded():
    from analyzer.checks.conform import MAX_REASONS, OTHER_FAULTS, LeftOut

    left = LeftOut()
    for n in range(MAX_REASONS + 3):
        left.add(f"{n + 7} cards in one coup", line=n + 1)
    assert left.count == MAX_REASONS + 3 and len(left.reasons) == MAX_REASONS + 1
    assert left.reasons[OTHER_FAULTS] == 3 and left.lines == [1, 2, 3, 4, 5]
