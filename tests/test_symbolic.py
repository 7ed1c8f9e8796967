"""Closed forms in the number of decks (analyzer.studies.symbolic) against the numeric engine, a direct
polynomial evaluation of the compiled tables, and an independent infinite-deck computation."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from bruteforce import settle_full
from featurebets import quick_to_compile
from infinite import first_four_coups, value_coups

from analyzer import Pricer, Reads, Shoe, analyze, catalogue_bets, find_bet, main_bets, pay_for_edge
from analyzer.bets.families.first_two import PERFECT_PAIR
from analyzer.core.coup import PLAYER_FIRST_TWO, Winner
from analyzer.core.reads import RankDetail, SuitDetail
from analyzer.core.tableau import STANDARD
from analyzer.engine.algebra import POOLS, pool_members
from analyzer.engine.lookup import compile_table
from analyzer.engine.pricing import ANALYSIS_READS
from analyzer.engine.values import COMPOSITIONS, counts_of
from analyzer.errors import AnalyzerError, BetError

sym = pytest.importorskip("analyzer.studies.symbolic")
symout = pytest.importorskip("analyzer.output.symbolic_tables")

#: The closed forms are interpolated at d = 1..7 (``sym.NODES``) and every count is a polynomial
#: of degree at most 6 in d, so agreeing at 1..7 and at the check point 8 is agreeing at every d:
#: larger shoes add nothing (the engine's exactness on huge shoes is tested in test_engine.py and
#: test_batch.py).  The fast lane checks the first node and the check point.
DECKS = (*sym.NODES, 8)
QUICK_DECKS = (1, 8)
ALL_DECKS = [d if d in QUICK_DECKS else pytest.param(d, marks=pytest.mark.slow) for d in DECKS]


def test_import_analyzer_stays_free_of_sympy():
    code = "import sys, analyzer, analyzer.cli; assert 'sympy' not in sys.modules, 'sympy imported'"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# -- the closed forms equal the numeric engine ----------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
def test_engine_tables_equal_the_engine(decks):
    a = analyze(Shoe.standard(decks))
    d = a.denominator
    outcomes = {f.label: f.at(decks) for f in sym.engine_forms("outcomes")}
    assert outcomes == {
        "Banker wins": Fraction(a.outcome_counts["Banker"], d),
        "Player wins": Fraction(a.outcome_counts["Player"], d),
        "Tie": Fraction(a.outcome_counts["Tie"], d),
    }
    totals = sym.engine_forms("totals")
    expected = [Fraction(a.totals[p][b], d) for p in range(10) for b in range(10)]
    assert [f.at(decks) for f in totals] == expected
    assert [f.at(decks) for f in sym.engine_forms("naturals")] == [
        Fraction(c, d) for c in a.naturals.values()]
    assert [f.at(decks) for f in sym.engine_forms("cards")] == [
        Fraction(c, d) for c in a.cards_dealt.values()]


@pytest.mark.parametrize("decks", ALL_DECKS)
@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_every_catalogue_bet_equals_the_engine(decks, full):
    pricer = Pricer(Shoe.standard(decks))
    for bet in catalogue_bets() if full else [b for b in catalogue_bets() if quick_to_compile(b, 52)]:
        s = pricer.summary(bet)
        forms = sym.bet_forms(bet)
        assert forms.ev(decks) == s.ev, bet.name
        assert forms.house_edge(decks) == s.house_edge, bet.name
        assert forms.variance(decks) == s.variance, bet.name
        assert forms.hit_frequency(decks) == s.hit_frequency, bet.name
        if s.house_edge_resolved is None:
            assert forms.house_edge_resolved is None, bet.name
        else:
            assert forms.house_edge_resolved(decks) == s.house_edge_resolved, bet.name
        assert [(e, p, f(decks)) for e, p, f in forms.events] == [
            (r.event, r.pays, r.probability) for r in s.events], bet.name


def test_combined_and_function_bets_have_closed_forms():
    from analyzer.bets.model import Bet

    odd = Bet.from_function("banker-odd-3", lambda f: 3 if f.banker_total % 2 else -1)
    for bet in (find_bet("tie+banker"), odd):
        for decks in (1, 3, 8):
            assert sym.bet_forms(bet).ev(decks) == Pricer(Shoe.standard(decks)).summary(bet).ev


# -- the count polynomials, computed a second way --------------------------------------------------


def _pmul(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _padd(a, b):
    out = [0] * max(len(a), len(b))
    for i, x in enumerate(a):
        out[i] += x
    for i, x in enumerate(b):
        out[i] += x
    return out


def _falling(slope, offset, m):
    """(slope d + offset)(slope d + offset - 1)...: m factors, as a polynomial in d."""
    out = [1]
    for i in range(m):
        out = _pmul(out, [offset - i, slope])
    return out


def _trim(p):
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return tuple(p)


def direct_count_polynomials(reads):
    """Evaluate the compiled table with polynomial arithmetic in d (no interpolation): on d
    decks a pool of c cards per deck holds c d cards, so every falling factorial is a
    polynomial in d.  The value part: per value composition prod_v falling(c_v d, m_v) times the
    padding falling(52 d - k, 6 - k), by its tally.  The label part: per leaf, its row's
    compositions weighed without the read cards, prod_v falling(c_v d - r_v, m_v - r_v) (the
    polynomial S / D(R) of the table), times the leaf's program weight: subterms multiply
    falling factorials, factors add subterms (all of them: no symmetry shortcut), compositions
    add signed terms of factor products."""
    table = compile_table(STANDARD, reads, False)
    program = table.program
    per_deck = [len(pool_members(pool)) for pool in POOLS]
    per_value = [per_deck[v] for v in range(10)]  # the value pools come first in POOLS
    falls = [_falling(per_deck[pool], -shift, m) for pool, shift, m in program.falls]
    subterms = []
    for members in program.subterms:
        poly = [1]
        for i in members:
            poly = _pmul(poly, falls[i])
        subterms.append(poly)
    factors = []
    for members, _, _ in program.factors:
        poly = [0]
        for j in members:
            poly = _padd(poly, subterms[j])
        factors.append(poly)
    weights = []
    for c, cards in enumerate(program.cards):
        assert cards == 0, "a leaf's labels weigh without padding"
        weight = [0]
        for t in range(program.term_start[c], program.term_start[c + 1]):
            term = [program.term_mult[t]]
            for f in program.term_factors[program.factor_start[t]:program.factor_start[t + 1]]:
                term = _pmul(term, factors[f])
            weight = _padd(weight, term)
        weights.append(weight)

    def unread(comp, read):
        k, coded = COMPOSITIONS[comp]
        poly = _falling(52, -k, 6 - k)
        for v, (m, r) in enumerate(zip(counts_of(coded), counts_of(read), strict=True)):
            poly = _pmul(poly, _falling(per_value[v], -r, m - r))
        return poly

    counts = [[0] for _ in table.columns]
    for col, comp, tally in zip(table.value_col, table.value_comp, table.value_tally, strict=True):
        counts[col] = _padd(counts[col], [tally * x for x in unread(comp, 0)])
    leaves = zip(table.leaf_row, table.leaf_comp, table.leaf_col, table.leaf_mult, strict=True)
    for row, leaf, col, mult in leaves:
        for j in range(table.row_start[row], table.row_start[row + 1]):
            poly = _pmul(unread(table.row_comp[j], table.row_read[row]), weights[leaf])
            counts[col] = _padd(counts[col], [table.row_tally[j] * mult * x for x in poly])
            rest = table.row_rest[row]  # the leaf is taken back from its row's rest
            counts[rest] = _padd(counts[rest], [-table.row_tally[j] * mult * x for x in poly])
    return dict(zip(table.records, (_trim(c) for c in counts), strict=True))


@pytest.mark.parametrize("reads", [ANALYSIS_READS, find_bet("player-pair").reads,
                                   pytest.param(Reads.of([], [PLAYER_FIRST_TWO], "none", "suit"),
                                                marks=pytest.mark.slow),
                                   pytest.param(PERFECT_PAIR, marks=pytest.mark.slow)],
                         ids=["values", "player-pair", "named-suits", "perfect-pair"])
def test_interpolated_polynomials_equal_direct_symbolic_evaluation(reads):
    sd = sym.symbolic_distribution(reads)
    direct = direct_count_polynomials(reads)
    assert dict(zip(sd.records, sd.counts, strict=True)) == direct
    assert sd.denominator == tuple(_trim(_falling(52, 0, 6)))


def test_interpolation_rejects_what_is_not_an_integer_polynomial():
    assert sym.interpolate([d**6 - 3 * d for d in sym.NODES]) == (0, -3, 0, 0, 0, 0, 1)
    with pytest.raises(ArithmeticError):
        sym.interpolate([1, 0, 0, 0, 0, 0, 0])


# -- infinite deck: limits against an independent computation ----------------------------------


@pytest.fixture(scope="module")
def infinite():
    dist = value_coups()
    assert sum(dist.values()) == 1
    return dist


def _p(dist, predicate):
    return sum((p for c, p in dist.items() if predicate(c)), Fraction(0))


def test_engine_limits_equal_the_infinite_shoe(infinite):
    wins = {"Banker wins": Winner.BANKER, "Player wins": Winner.PLAYER, "Tie": Winner.TIE}
    for f in sym.engine_forms("outcomes"):
        assert f.limit == _p(infinite, lambda x, w=wins[f.label]: x.winner is w)
    pairs = [(p, b) for p in range(10) for b in range(10)]
    for f, (p, b) in zip(sym.engine_forms("totals"), pairs, strict=True):
        assert f.limit == _p(infinite, lambda x, p=p, b=b: (x.player_total, x.banker_total) == (p, b))
    for f, n in zip(sym.engine_forms("cards"), (4, 5, 6), strict=True):
        assert f.limit == _p(infinite, lambda x, n=n: x.cards_dealt == n)
    for f, key in zip(sym.engine_forms("naturals"), ("player", "banker", "both", "none"), strict=True):
        assert f.limit == _p(infinite, lambda x, key=key: x.naturals == key)


def _modelled(bet):
    """Which infinite-shoe model prices ``bet``: base fields only, or the first four cards by
    rank and same-card equality (None: neither)."""
    reads = bet.reads
    if not reads.sets:
        return "values"
    if (
        reads.first_four_only
        and RankDetail.EQUALITY.covers(reads.ranks)
        and reads.suits in (SuitDetail.NONE, SuitDetail.SAME_CARD)
    ):
        return "first-four"
    return None


def _limit_check(bet, dist):
    pays = [(settle_full(bet, c)[1], p) for c, p in dist.items()]
    ev = sum((x * p for x, p in pays), Fraction(0))
    second = sum((x * x * p for x, p in pays), Fraction(0))
    forms = sym.bet_forms(bet)
    assert forms.ev.limit() == ev, bet.name
    assert forms.variance.limit() == second - ev * ev, bet.name


def test_value_bet_limits_equal_the_infinite_shoe(infinite):
    checked = [b for b in catalogue_bets() if _modelled(b) == "values"]
    assert len(checked) >= 30
    for bet in checked:
        _limit_check(bet, infinite)


@pytest.mark.slow
def test_first_four_card_bet_limits_equal_the_infinite_shoe():
    dist = first_four_coups()
    assert sum(dist.values()) == 1
    checked = [b for b in catalogue_bets() if _modelled(b) == "first-four"]
    assert {"player-pair", "banker-pair", "either-pair", "perfect-pair"} <= {b.name for b in checked}
    for bet in checked:
        _limit_check(bet, dist)


def test_published_infinite_deck_figures():
    # Infinite deck: Banker 45.8428%, Player 44.6147%, Tie 9.5426% (Yui-Bin Chen,
    # vegastrip.com/game_baccarat.html); house edges Banker 1.064%, Player 1.228%, Tie 14.117%.
    outcomes = {f.label: round(f.limit * 100, 4) for f in sym.engine_forms("outcomes")}
    assert outcomes == {"Banker wins": Fraction("45.8428"), "Player wins": Fraction("44.6147"),
                        "Tie": Fraction("9.5426")}
    edges = {b.name: round(sym.bet_forms(b).house_edge.limit() * 100, 3) for b in main_bets()}
    assert edges == {"banker": Fraction("1.064"), "player": Fraction("1.228"), "tie": Fraction("14.117")}
    assert sym.engine_forms("outcomes")[0].limit == Fraction(2212744, 4826809)


def test_the_1_over_d_correction():
    for form in (*sym.engine_forms("outcomes"), *sym.bet_sections(main_bets())[0].forms):
        f = form.function
        c0, c1, c2 = f.expansion(3)
        assert (c0, c1) == (f.limit(), f.correction())
        # d (f(d) - f(inf)) - c = c2/d + O(1/d^2): check the remainder exactly at a large d.
        big = 10**9
        remainder = big * (f(big) - c0) - c1
        assert abs(remainder * big - c2) < Fraction(1, 10**6)


# -- rational functions ---------------------------------------------------------------------------


def test_rational_function_arithmetic_and_lowest_terms():
    rf = sym.RationalFunction
    f = rf.of([0, 2], [0, 0, 4])  # 2d / 4d^2 = 1/(2d)
    assert (f.num, f.den) == ((1,), (0, 2))
    g = rf.of([Fraction(1, 2), 1], [3])
    assert (f + g)(3) == f(3) + g(3) and (f * g)(Fraction(5, 2)) == f(Fraction(5, 2)) * g(Fraction(5, 2))
    assert (f - f).is_zero and (1 - f)(2) == Fraction(3, 4) and (f / g)(1) == f(1) / g(1)
    with pytest.raises(ArithmeticError):
        rf.of([1, 0, 1], [0, 1]).limit()
    with pytest.raises(ZeroDivisionError):
        rf.of([1], [0])


def test_texts_are_factored():
    he = sym.bet_forms(find_bet("banker")).house_edge
    assert he.denominator_text() == "65*(13*d - 1)*(26*d - 1)*(52*d - 5)*(52*d - 3)*(52*d - 1)"
    assert he.text().startswith("2*d*(16434304*d**4")
    assert he.latex().startswith(r"\frac{2 d \left(16434304 d^{4}")


# -- pay questions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["banker", "player", "tie", "tie:9", "dragon-7", "panda-8", "big",
                                  "egalite:5", "player-pair", "banker-natural-8"])
def test_pay_forms_equal_pay_for_edge(spec):
    bet = find_bet(spec)
    for edge in (Fraction(0), Fraction(1, 100)):
        form = sym.pay_form(bet, edge)
        for decks in (1, 2, 6, 8, 13):
            assert form(decks) == pay_for_edge(bet, Shoe.standard(decks), edge), (spec, decks)


def test_commission_form():
    fair = sym.commission_form()
    for decks in (1, 8):
        banker = find_bet(f"banker:{(fair(decks) * 100)}")
        assert Pricer(Shoe.standard(decks)).summary(banker).ev == 0
    assert round(fair.limit() * 100, 4) == Fraction("2.6790")
    assert sym.commission_form(Fraction(1, 100))(8) > fair(8)  # more edge, more commission


def test_pay_form_errors():
    with pytest.raises(BetError):
        sym.pay_form(find_bet("ez-banker"))
    with pytest.raises(BetError):
        sym.pay_form(find_bet("tie+player"))


def _scan(f, level, above, upto):
    return next((d for d in range(1, upto + 1) if (f(d) >= level if above else f(d) <= level)), None)


@pytest.mark.parametrize(("spec", "percent", "expected"), [
    ("banker", "1.05", 4), ("banker", "1.06", 13), ("banker", "1.063", 49), ("banker", "1.064", None),
    ("tie", "15", 3), ("tie", "14.2", 24), ("tie", "14.1", None), ("player", "1.23", 30),
    ("banker", "1.0117482890", None), ("banker", "1", None), ("tie:9", "5", 6),
])
def test_crossing_matches_a_scan(spec, percent, expected):
    he = sym.bet_forms(find_bet(spec)).house_edge
    level = Fraction(percent) / 100
    assert sym.crossing(he, level) == expected
    start = he(1)
    if expected is not None and start != level:
        assert _scan(he, level, start < level, 1000) == expected


def test_crossing_at_the_start():
    he = sym.bet_forms(find_bet("player")).house_edge
    assert sym.crossing(he, he(1)) == 1


def test_crossing_with_several_roots():
    rf = sym.RationalFunction
    # (d - 5/2)(d - 15/2) / (d^2 + 1): positive at 1, negative on 3..7, positive from 8 on.
    f = rf.of([Fraction(75, 4), -10, 1], [1, 0, 1])
    assert sym.crossing(f, 0) == 3
    assert sym.smallest_decks(f, 0, above=True) == 1
    g = -f + Fraction(1, 2)  # at 1: 1/2 - f(1) > 0 ...
    assert sym.crossing(g, Fraction(1, 2)) == _scan(g, Fraction(1, 2), g(1) < Fraction(1, 2), 100)
    assert sym.smallest_decks(rf.of([-1, 1], [1]), 5) == 6  # d - 1 >= 5
    assert sym.smallest_decks(rf.of([-1], [0, 1]), 0) is None  # -1/d never >= 0


# -- reports, CLI and results ------------------------------------------------------------------


def test_render_formats_are_deterministic_and_exact():
    sections = sym.engine_sections(["outcomes"]) + sym.bet_sections(main_bets())
    for fmt in ("text", "markdown", "latex", "json"):
        a = symout.render_sections(sections, fmt, 6, {"command": "x"})
        assert a == symout.render_sections(sections, fmt, 6, {"command": "x"})
    doc = json.loads(symout.render_sections(sections, "json", 6))
    banker = doc["sections"][0]["forms"][0]
    assert banker["label"] == "Banker wins" and banker["limit"] == "2212744/4826809"
    assert banker["values"]["8"] == str(Fraction(2292252566437888, 4998398275503360))
    latex = symout.render_sections(sections, "latex", 6)
    assert r"\frac{8 d" in latex and r"Banker (5\% commission)" in latex
    with pytest.raises(AnalyzerError):
        symout.render_sections(sections, "pdf", 6)


def test_cli_symbolic(cli):
    result = cli("symbolic", "--bet", "tie:9", "--crossing", "5", "--format", "json", "--digits", "4")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["meta"]["shoe"].startswith("standard shoe of d decks")
    titles = [s["title"] for s in doc["sections"]]
    assert titles[0].startswith("Outcomes") and "House edge per coup" in titles
    crossing = doc["tables"][0]["rows"][0]
    assert crossing["bet"] == "Tie (9 to 1)" and crossing["decks"] == "6"
    text = cli("symbolic", "--table", "none", "--bet", "dragon-7").output
    assert "Dragon 7: house edge" in text and "Outcomes" not in text
    assert "f(d) =" in cli("symbolic", "--format", "markdown", "--table", "cards").output
    args = ["symbolic", "--table", "none", "--quantity", "pay", "--target-edge", "1"]
    only = cli(*args).output
    assert "Pays for a house edge 1% bet" in only and "Variance" not in only


@pytest.mark.parametrize(("args", "message"), [
    (["symbolic", "--bet", "nope"], "nope"),
    (["symbolic", "--table", "everything"], "everything"),
    (["symbolic", "--format", "csv"], "csv"),
    (["symbolic", "--crossing", "lots"], "lots"),
    (["symbolic", "--bet", "tie:-1"], "-1"),
    (["symbolic", "--quantity", "nope"], "nope"),
])
def test_cli_symbolic_bad_input(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_result_files_are_headed_and_cover_the_catalogue():
    files = symout.result_files(lambda command: {"generated_by": "punto-banco-analyzer", "command": command})
    assert sorted(files) == ["symbolic-catalogue.md", "symbolic-catalogue.tex",
                             "symbolic-main.md", "symbolic-main.tex"]
    assert files["symbolic-main.tex"].startswith("% generated_by: punto-banco-analyzer")
    for bet in catalogue_bets():
        assert f"{bet.title}: house edge" in files["symbolic-catalogue.md"], bet.name


# -- bad input (QA report: M8 `--quantity ''`, H3/H4, M10) ---------------------------------------


def test_no_quantity_is_an_error(cli):
    with pytest.raises(AnalyzerError, match="no quantity named"):
        symout.symbolic_report(quantities=[])
    with pytest.raises(AnalyzerError, match="no quantity named"):
        sym.bet_sections(main_bets(), quantities=())
    res = cli("symbolic", "--quantity", "")
    assert res.exit_code == 2
    assert res.output.startswith("Error: no quantity named")


@pytest.mark.parametrize("edge", ["1e999999999", "0.01", 0.01, None, True])
def test_pay_form_wants_an_exact_edge(edge):
    with pytest.raises(sym.SymbolicTypeError) as info:
        sym.pay_form(find_bet("tie"), edge)
    assert isinstance(info.value, AnalyzerError) and isinstance(info.value, TypeError)


@pytest.mark.parametrize("huge", [10**5000, Fraction(1, 10**5000), Fraction(10**100, 3)],
                         ids=["10**5000", "10**-5000", "10**100/3"])
def test_huge_edges_and_levels_are_rejected_without_converting_them_to_text(huge):
    with pytest.raises(sym.SymbolicError, match="at most 80 digits"):
        symout.symbolic_report(target_edge=huge)
    with pytest.raises(sym.SymbolicError, match="at most 80 digits"):
        symout.symbolic_report(crossings=[huge])
    with pytest.raises(sym.SymbolicError, match="at most 80 digits"):
        sym.pay_form(find_bet("tie"), huge)
    with pytest.raises(sym.SymbolicError, match="at most 80 digits"):
        sym.crossing(sym.bet_forms(find_bet("tie")).house_edge, huge)


def test_cli_huge_bet_parameter_is_one_line(cli):
    res = cli("symbolic", "--bet", "tie:1e999999999")
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("call", [
    lambda: sym.bet_forms(None),
    lambda: sym.bet_forms("tie"),
    lambda: sym.engine_forms(["outcomes"]),
    lambda: sym.engine_forms(None),
    lambda: sym.bet_forms(find_bet("tie")).house_edge("1e999999999"),
    lambda: sym.bet_forms(find_bet("tie")).house_edge(1.5),
    lambda: sym.RationalFunction.of([1]) + "x",
    lambda: sym.RationalFunction.of([1]) * 0.5,
    lambda: sym.smallest_decks(None, 0),
    lambda: sym.crossing(sym.RationalFunction.of([1]), "0.5"),
    lambda: symout.symbolic_report("tie"),
    lambda: symout.symbolic_report([5]),
    lambda: symout.symbolic_report(tables="outcomes"),
    lambda: symout.symbolic_report(quantities="ev"),
    lambda: symout.symbolic_report(quantities=[None]),
    lambda: symout.symbolic_report(fmt=["text"]),
    lambda: symout.symbolic_report(digits=None),
    lambda: symout.symbolic_report(digits=-1),
    lambda: symout.symbolic_report(crossings=0.01),
    lambda: sym.bet_sections("tie"),
    lambda: sym.engine_sections("outcomes"),
    lambda: symout.render_sections([], "text", digits="3"),
    lambda: symout.render_sections([], "text", decks=[0]),
    lambda: sym.find_crossings([find_bet("tie")], [0.01]),
])
def test_wrong_types_raise_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


# -- round-2 bad-input report ------------------------------------------------------------------


def test_target_edge_shows_no_impossible_pays():
    """A pay <= 0, or a commission outside [0, 1), is '-' with the note, as in `bets`."""
    tie, banker = find_bet("tie"), find_bet("banker")
    sections = sym.bet_sections([tie, banker], house_edge=Fraction(1), quantities=["pay"])
    assert [f.kind for f in sections[0].forms] == ["pay", "pay", "commission"]
    for form in sections[0].forms:
        assert form.limit <= 0 or not 0 <= form.limit < 1   # the algebra itself is unchanged
        assert form.shown_limit is None and form.shown_at(8) is None
    text = symout.render_sections(sections, "text", 4)
    table = text.split("limits and values", 1)[1]
    assert "-1" not in table and "2.2082" not in table
    assert "'-': no positive pay gives that house edge, or the event cannot happen on this shoe" in table
    doc = json.loads(symout.render_sections(sections, "json", 4))
    tie_pay = doc["sections"][0]["forms"][0]
    assert tie_pay["limit"] is None and tie_pay["values"]["8"] is None and "note" in tie_pay


def test_negative_target_edge_hides_a_negative_commission_but_keeps_the_pay():
    sections = sym.bet_sections([find_bet("banker")], house_edge=Fraction(-10), quantities=["pay"])
    pay, commission = sections[0].forms
    assert pay.shown_limit is not None and pay.shown_limit > 1
    assert commission.limit < 0 and commission.shown_limit is None


def test_fair_pays_are_shown_without_the_note():
    sections = sym.bet_sections([find_bet("tie"), find_bet("banker")], quantities=["pay"])
    assert all(f.shown_limit is not None for f in sections[0].forms)
    assert "no positive pay" not in symout.render_sections(sections, "text", 4)


def test_cli_target_edge_prints_dashes(cli):
    out = cli("symbolic", "--target-edge", "1000", "--bet", "tie", "--bet", "banker",
              "--table", "none", "--quantity", "pay", "--digits", "4")
    assert out.exit_code == 0, out.output
    table = out.output.split("limits and values", 1)[1]
    assert "-95.3143" not in table and "21.8405" not in table
    assert "no positive pay gives that house edge" in table


def test_engine_sections_unknown_table_is_an_analyzer_error():
    with pytest.raises(sym.SymbolicError, match="unknown table 'nope': use outcomes, totals, naturals, "
                       "cards"):
        sym.engine_sections(["nope"])


def test_rational_function_at_a_pole_is_an_analyzer_error():
    he = sym.bet_forms(find_bet("tie")).house_edge
    with pytest.raises(sym.SymbolicZeroDivisionError, match="is a pole of the function") as info:
        he(Fraction(1, 52))
    assert isinstance(info.value, AnalyzerError) and isinstance(info.value, ZeroDivisionError)
    with pytest.raises(sym.SymbolicZeroDivisionError):
        sym.RationalFunction.of([1], [-1, 1])(1)


@pytest.mark.parametrize("call", [
    lambda: sym.RationalFunction.of([1], [0]),
    lambda: sym.RationalFunction.of([1], []),
    lambda: sym.RationalFunction.of(["a"]),
    lambda: sym.RationalFunction.of(None),
    lambda: sym.RationalFunction.of([Fraction(1, 2)], [0.5]),
    lambda: sym.RationalFunction.constant(None),
    lambda: sym.RationalFunction.constant(0.1),
    lambda: sym.RationalFunction.of([0.5]),
    lambda: sym.RationalFunction.of([1]) / 0,
    lambda: sym.interpolate([]),
    lambda: sym.interpolate([1, 2, 3]),
    lambda: sym.interpolate(None),
    lambda: sym.interpolate([1.5] * 7),
    lambda: sym.interpolate([1, 0, 0, 0, 0, 0, 0]),
    lambda: sym.RationalFunction.of([0, 0, 1]).limit(),
    lambda: sym.RationalFunction.of([1]).expansion(1.5),
    lambda: sym.RationalFunction.of([1]).expansion(-1),
    lambda: sym.falling_poly(None, 0, 2),
    lambda: sym.falling_poly(1, 0, -1),
    lambda: sym.smallest_decks(sym.RationalFunction.of([1]), 1, above="no"),
    lambda: sym.symbolic_distribution(Reads.of(["winner"]), "standard"),
    lambda: sym.symbolic_distribution([], STANDARD),
    lambda: sym.symbolic_distribution().count(None),
])
def test_more_wrong_inputs_raise_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bet_specs": ["tie", "tie"]}, "bet 'tie' is chosen twice"),
    ({"bet_specs": ["tie", "TIE"]}, "bet 'tie' is chosen twice"),
    ({"bet_specs": ["tie"], "all_bets": True}, "bet 'tie' is chosen twice"),
    ({"bet_specs": ["tie"], "crossings": [Fraction(1, 100), Fraction(1, 100)]},
     "crossing level 1% is given twice"),
])
def test_symbolic_report_rejects_repeats(kwargs, message):
    with pytest.raises(AnalyzerError, match=message):
        symout.symbolic_report(**kwargs)


def test_the_closed_forms_guard_their_markdown_header_too():
    from analyzer.output.symbolic_tables import render_sections

    text = render_sections([], "markdown", 4, {"command": "x --!> y --> z"})
    inner = text.split("<!--", 1)[1].rsplit("-->", 1)[0]
    assert "-->" not in inner and "--!>" not in inner


def test_pay_form_of_any_pay_line():
    from analyzer.studies.ladder import pay_for_line

    bet = find_bet("dragon-bonus-player")
    for line in (2, 5):
        form = sym.pay_form(bet, Fraction(1, 50), line=line)
        for d in (1, 8):
            summary = Pricer(Shoe.standard(d)).summaries([bet])[0]
            assert form(d) == pay_for_line(summary, line, Fraction(1, 50))
    for bad in (-1, len(bet.lines), True):
        with pytest.raises(BetError):
            sym.pay_form(bet, 0, line=bad)
