"""The bet catalogue against published tables (every bet against the physical-card brute force
is in test_bruteforce.py), and its bet specs refused in one clear error."""

import json
from fractions import Fraction

import pytest

from analyzer import Pricer, Shoe, catalogue_bets, find_bet, main_bets, pay_for_edge, price
from analyzer.bets.catalogue import CATALOGUE, PAY_TABLE_NAMES, GoldenCount, golden_counts, provenance
from analyzer.errors import BetError

T8 = 4_998_398_275_503_360  # 416!/410!, ordered 6-card sequences from 8 decks


@pytest.fixture(scope="module")
def eight():
    return Pricer(Shoe.standard(8))


def events(summary):
    return {r.event: r.count for r in summary.events}


# -- golden counts (analyzer/bets/golden-counts.toml): published figures as cited data -----------


def breakdown(golden, summary) -> str:
    """Per event: the published count, the engine's, and the difference (a failing golden test
    prints it whole, so a wrong event, a missing one or a shifted count is seen at once)."""
    got = events(summary)
    lines = [f"{golden.bet} on {golden.decks} decks, out of {golden.denominator:,} "
             f"(engine: {summary.denominator:,}); {golden.source}: {golden.prints}",
             f"  {'event':<42} {'published':>22} {'engine':>22} {'difference':>20}"]
    for event in [*golden.events, *(e for e in got if e not in golden.events)]:
        want = golden.events.get(event)
        have = got.get(event)
        diff = "" if want is None or have is None else f"{have - want:+,}"
        mark = "" if want is None or want == have else "  <--"
        shown_want = "-" if want is None else f"{want:,}"
        shown_have = "(none)" if have is None else f"{have:,}"
        lines.append(f"  {event:<42} {shown_want:>22} {shown_have:>22} {diff:>20}{mark}")
    return "\n".join(lines)


def check_golden(golden):
    """The engine's events of ``golden``'s bet hold its published counts (else the breakdown)."""
    summary = Pricer(Shoe.standard(golden.decks)).summary(find_bet(golden.bet))
    got = events(summary)
    held = summary.denominator == golden.denominator and all(
        got.get(event) == count for event, count in golden.events.items())
    assert held, "\n" + breakdown(golden, summary)


GOLDEN = [g for g in golden_counts() if not g.bet.startswith("egalite:")]
GOLDEN_EGALITE = [g for g in golden_counts() if g.bet.startswith("egalite:")]


@pytest.mark.parametrize("golden", GOLDEN, ids=[f"{g.bet}@{g.decks}" for g in GOLDEN])
def test_published_event_counts(golden):
    check_golden(golden)


@pytest.mark.parametrize("golden", GOLDEN_EGALITE, ids=[f"{g.bet}@{g.decks}" for g in GOLDEN_EGALITE])
def test_egalite(golden):
    # the count of ties on each total and on each grouping (the provenance's golden test)
    check_golden(golden)


def test_a_failing_golden_count_prints_every_event(eight):
    golden = GoldenCount("dragon-bonus-player", 8, T8, {"Natural win": 812_685_054_124_033, "Nothing": 1},
                         "a test", "a wrong count")
    text = breakdown(golden, eight.summary(find_bet("dragon-bonus-player")))
    assert "812,685,054,124,033" in text and "812,685,054,124,032" in text and " -1 " in text
    assert "Nothing" in text and "(none)" in text and "Non-natural win by 9" in text
    assert text.count("<--") == 2  # the shifted count and the event the engine never settles


def test_golden_counts_are_cited_and_name_catalogue_bets():
    assert len(golden_counts()) >= 24
    for golden in golden_counts():
        assert "Wizard of Odds" in golden.source or "Jacobson" in golden.source, golden.bet
        bet = find_bet(golden.bet)
        assert set(golden.events) <= {ln.event for ln in bet.lines} | {bet.otherwise_event}, golden.bet


# Published house edges (Wizard of Odds pages cited above), as printed to 4 decimals (percent).
PUBLISHED_EDGES_8 = {
    "ez-banker": "1.0183",
    "dragon-7": "7.6113",
    "panda-8": "10.1876",
    "punto-2000": "1.4581",
    "banker:4": "0.5993",
    "tie:9": "4.8440",
    "lucky-6": "16.6836",
    "lucky-6:2": "11.6985",
    "dragon-bonus-player": "2.6517",
    "dragon-bonus-banker": "9.3731",
    "player-3-card-win": "5.6860",
    "banker-3-card-win": "8.3044",
    "banker-natural-8": "5.4680",
    "banker-natural-9": "5.0973",
    "player-even": "5.3109",
    "player-odd": "6.7254",
    "banker-even": "6.9317",
    "perfect-pair": "13.0294",
    "perfect-pair:2": "6.6235",
    "player-pair": "10.3614",
}


@pytest.mark.parametrize("spec", sorted(PUBLISHED_EDGES_8))
def test_published_house_edges(eight, spec):
    assert round(eight.summary(find_bet(spec)).house_edge * 100, 4) == Fraction(PUBLISHED_EDGES_8[spec])


def test_pair_bets_match_the_two_card_convention(eight):
    # Pair bets are published over unordered two-card draws per side: Player pair 6,448 of 86,320
    # (Jacobson / Wizard of Odds "Pair Play"); Perfect Pairs 246,848,784 (either) and 2,101,008
    # (both) of 7,379,583,120 (Wizard of Odds, Perfect Pairs versions 1 and 2).
    assert eight.summary(find_bet("player-pair")).hit_frequency == Fraction(6448, 86320)
    assert eight.summary(find_bet("banker-pair")).hit_frequency == Fraction(6448, 86320)
    v1 = eight.summary(find_bet("perfect-pair"))
    assert v1.hit_frequency == Fraction(246_848_784, 7_379_583_120)
    v2 = events(eight.summary(find_bet("perfect-pair:2")))
    assert Fraction(v2["Both sides suited pairs"], T8) == Fraction(2_101_008, 7_379_583_120)


def test_six_deck_tables():
    six = Pricer(Shoe.standard(6))
    # Wizard of Odds "Commission Free Baccarat", six decks: Banker win with 6 = 47,322,230,031,360.
    assert events(six.summary(find_bet("punto-2000")))["Banker wins with 6"] == 47_322_230_031_360
    # Perfect Pairs v1, six decks: 74,114,820 of 2,323,673,820.
    assert six.summary(find_bet("perfect-pair")).hit_frequency == Fraction(74_114_820, 2_323_673_820)
    # Pair Play (same as the baccarat pair bets), six decks: 3,588 of 48,516.
    assert six.summary(find_bet("player-pair")).hit_frequency == Fraction(3588, 48516)


def test_combined_wager_uses_the_joint_distribution(eight):
    combo = eight.summary(find_bet("tie+banker"))
    tie, banker = eight.summary(find_bet("tie")), eight.summary(find_bet("banker"))
    # EV per unit of total stake is the mean of the two EVs ...
    assert combo.ev == (tie.ev + banker.ev) / 2
    # ... but the variance comes from the joint distribution: Var((X+Y)/2) with Cov(X, Y) != 0.
    cov = 4 * combo.variance - tie.variance - banker.variance
    assert cov != 0
    # On a tie the Banker stake pushes and the Tie pays 8: the pair wins 8 per 2 units.
    (row,) = [r for r in combo.events if r.event.startswith("Tie")]
    assert row.pays == Fraction(8, 2)


def test_fair_and_target_pays(eight):
    tie = find_bet("tie")
    fair = pay_for_edge(tie, Shoe.standard(8))
    assert price(tie.with_pay(fair), Shoe.standard(8)).ev == 0
    target = pay_for_edge(find_bet("dragon-7"), Shoe.standard(8), Fraction(5, 100))
    assert price(find_bet("dragon-7").with_pay(target), Shoe.standard(8)).house_edge == Fraction(5, 100)
    with pytest.raises(BetError, match="adjustable"):
        pay_for_edge(find_bet("dragon-bonus-player"), Shoe.standard(8))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nope", "unknown bet 'nope'"),
        ("banker:abc", "'abc'"),
        ("banker:150", "commission"),
        ("tie:-3", "greater than 0"),
        ("perfect-pair:3", "version"),
        ("egalite", "tie total"),
        ("egalite:12", "'12'"),
        ("egalite:1-3", "needs its pay"),
        ("lucky-6:9", "pay table"),
        ("tie:", "empty parameter"),
    ],
)
def test_bad_bet_specs(spec, message):
    with pytest.raises(BetError, match=message):
        find_bet(spec)


def test_suited_bet_on_a_rank_only_shoe_is_a_clear_error():
    with pytest.raises(BetError, match="suits"):
        price(find_bet("perfect-pair"), Shoe.standard(8).remove("K"))
    # Removing cards with their suits keeps the suits known.
    assert price(find_bet("perfect-pair"), Shoe.standard(8).remove("Kh")).hit_frequency > 0


def test_catalogue_names_and_aliases():
    names = [e.name for e in CATALOGUE]
    assert len(names) == len(set(names))
    seen: set[str] = set()
    for entry in CATALOGUE:
        for key in (entry.name, *entry.aliases):
            assert key not in seen, key
            seen.add(key)
            try:
                bet = find_bet(key)
            except BetError:
                assert entry.param, key  # only a bet that needs its parameter refuses none
                continue
            assert bet.name == entry.name
            assert find_bet(key.upper().replace("-", "_")).name == entry.name
    assert [b.name for b in main_bets()] == ["banker", "player", "tie"]


def test_the_main_bets_outside_the_catalogue_are_the_catalogue_entries():
    # analyze builds them without loading the catalogue (analyzer.bets.main): the same bets
    from analyzer.bets import catalogue
    from analyzer.bets.main import main_bets as own

    listed = [find_bet(e.name) for e in catalogue.CATALOGUE if e.main]
    for mine, theirs in zip(own(), listed, strict=True):
        assert (mine.name, mine.origin, mine.title, mine.reads, mine.source) == (
            theirs.name, theirs.origin, theirs.title, theirs.reads, theirs.source)
        assert [(ln.event, ln.pays) for ln in mine.lines] == [(ln.event, ln.pays) for ln in theirs.lines]
        a, b = price(mine, Shoe.standard(8)), price(theirs, Shoe.standard(8))
        assert (a.ev, a.events, a.variance) == (b.ev, b.events, b.variance)


def test_every_catalogue_bet_is_sourced_and_reads_something():
    for bet in catalogue_bets():
        assert bet.source, bet.name
        assert bet.reads.fields or bet.reads.sets, bet.name
        assert bet.title


@pytest.mark.slow
def test_every_catalogue_bet_is_a_probability_distribution(eight):
    for bet in catalogue_bets():
        summary = eight.summary(bet)
        assert sum(r.count for r in summary.events) == summary.denominator == T8, bet.name
        assert all(r.count >= 0 for r in summary.events), bet.name
        assert 0 <= summary.hit_frequency <= 1 and summary.variance >= 0, bet.name


@pytest.mark.parametrize("spec", ["tie:1e999999999", "banker:1e-5000", "tie:1e5000"])
def test_huge_parameters_are_rejected_quickly(spec):
    with pytest.raises(BetError, match="exponent"):
        find_bet(spec)


def test_bet_without_parameter_rejects_one():
    with pytest.raises(BetError, match="takes no parameter"):
        find_bet("ez-banker:abc")


# -- names sources give the pay tables (PAY_TABLE_NAMES) ------------------------------------------


def _named():
    return [(name, n) for name, names in PAY_TABLE_NAMES.items() for n in names]


def test_every_pay_table_name_resolves_to_the_bet_of_the_parameter_it_names():
    assert _named()
    for name, named in _named():
        alias, same = find_bet(f"{name}:{named.alias}"), find_bet(f"{name}:{named.param}")
        assert (alias.name, alias.origin, alias.title, alias.reads, alias.source) == (
            same.name, same.origin, same.title, same.reads, same.source), (name, named.alias)
        assert [(ln.event, ln.pays) for ln in alias.lines] == [(ln.event, ln.pays) for ln in same.lines]
        assert provenance(alias) == provenance(same)
        # written as names are: any case, '_' or a space for '-'
        spelled = named.alias.upper().replace("-", " ")
        assert find_bet(f"{name.upper()}:{spelled}").name == same.name
        for bet_alias in next(e for e in CATALOGUE if e.name == name).aliases:
            assert find_bet(f"{bet_alias}:{named.alias}").name == same.name


def test_every_pay_table_name_is_cited_and_names_no_other_parameter():
    for name, named in _named():
        assert named.alias == named.alias.strip().lower()
        assert " " not in named.alias and "_" not in named.alias
        assert "https://" in named.source or "http://" in named.source, named.alias
        words = named.source.lower()
        assert all(word in words for word in named.alias.split("-")), (named.alias, "is not in its source")
        entry = next(e for e in CATALOGUE if e.name == name)
        assert named.alias not in entry.provenance, "a name must not shadow a published parameter"
        published = provenance(find_bet(f"{name}:{named.param}"))
        assert any(published is p for p in entry.provenance.values()), "a name names a published pay table"
    for names in PAY_TABLE_NAMES.values():
        aliases = [n.alias for n in names]
        assert len(aliases) == len(set(aliases))
    assert set(PAY_TABLE_NAMES) <= {e.name for e in CATALOGUE}


def test_pay_table_names_are_listed_with_their_sources(cli):
    result = cli("bets", "--list", "--format", "json")
    rows = {r["name"]: r for r in json.loads(result.stdout)["tables"][0]["rows"]}
    for name, names in PAY_TABLE_NAMES.items():
        assert rows[name]["pay_table_names"] == ", ".join(f"{n.alias}={n.param}" for n in names)
        for n in names:
            assert f"{n.alias}={n.param}: {n.source}" in rows[name]["pay_table_name_sources"]
    assert rows["banker"]["pay_table_names"] == "-" and rows["banker"]["pay_table_name_sources"] is None
    text = cli("bets", "--list").output
    line = next(ln for ln in text.splitlines() if ln.startswith("lucky-6 "))
    assert "macau=1" in line and "las-vegas=2" in line


def test_an_unknown_pay_table_name_is_still_a_bad_parameter():
    with pytest.raises(BetError, match="bad Lucky 6 pay table 'reno'"):
        find_bet("lucky-6:reno")


def test_find_bet_gives_one_object_per_spec_from_a_bounded_memory(monkeypatch):
    from analyzer.bets import catalogue

    monkeypatch.setattr(catalogue, "FOUND_LIMIT", 4)
    monkeypatch.setattr(catalogue, "_FOUND", {})
    assert find_bet("dragon-7") is find_bet("dragon-7")
    assert find_bet("dragon-7").fingerprint == "catalogue:dragon-7" == find_bet("Dragon_7").fingerprint
    for pays in range(2, 20):
        assert find_bet(f"tie:{pays}").lines[0].pays == pays
        assert len(catalogue._FOUND) <= 4
    assert main_bets() is not main_bets() and main_bets()[0] is main_bets()[0]  # a new list, one bet
    long = "tie:" + " " * catalogue.FOUND_CHARS + "9"  # a client's spec may be long: not kept
    assert find_bet(long).lines[0].pays == 9 and long not in catalogue._FOUND
    for _ in range(2):  # a bad spec is refused every time
        with pytest.raises(BetError, match="unknown bet"):
            find_bet("no-such-bet")


# -- the catalogue's figures as data: every bet as before ---------------------------------------


@pytest.fixture(scope="module")
def kept_figures():
    import json

    from catalogue_figures import FILE

    return json.loads(FILE.read_text(encoding="utf-8"))


def test_every_entry_lists_what_it_listed(kept_figures):
    from catalogue_figures import entries

    assert entries() == kept_figures["entries"]


def test_every_bet_is_what_it_was(kept_figures):
    from catalogue_figures import describe, specs

    assert specs() == list(kept_figures["bets"])
    for spec, kept in kept_figures["bets"].items():
        assert describe(find_bet(spec)) == kept["bet"], spec


def test_every_bet_keeps_its_exact_figures_on_three_shoes(kept_figures):
    # written from the catalogue's Python definitions before its bets became data entries: each
    # entry, moved from code to data, settles every coup of three shoes as before
    from catalogue_figures import figures

    for spec, kept in kept_figures["bets"].items():
        assert figures(find_bet(spec)) == kept["figures"], spec


def test_every_bad_parameter_keeps_its_error_line(kept_figures):
    from catalogue_figures import errors

    assert errors() == kept_figures["errors"]


def test_the_index_of_names_is_the_data_file_s_entries():
    # find_bet parses only the entry it builds, found by its name and alias lines: they must be
    # the entries' own, in order, each entry one [[bet]] table
    import tomllib

    from analyzer.bets.catalogue import DATA_FILE, _index, entries

    blocks, where = _index()
    parsed = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))["bet"]
    assert len(blocks) == len(parsed) == len(entries())
    assert where == {label: i for i, e in enumerate(parsed) for label in (e["name"], *e.get("aliases", []))}
    assert [e.name for e in entries()] == [e["name"] for e in parsed]
