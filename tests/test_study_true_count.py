"""True counts as counters keep them (issue 18): every convention of ``--true-count`` against a
plain Fraction computation of its definition (analyzer/studies/counting.py, with the sources
cited there), on real dealt coups and on hand-made edge cases; the exact convention's row
beside another's; one-line refusals."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from clirun import invoke

from analyzer.errors import StudyError
from analyzer.studies import study as S  # noqa: N812
from analyzer.studies.counting import (
    DECK_ESTIMATES,
    EXACT,
    ROUNDINGS,
    TrueCount,
    parse_true_count,
    true_count_holds,
)
from analyzer.studies.dealing import deal

CONVENTIONS = [TrueCount(d, r) for d in DECK_ESTIMATES for r in ROUNDINGS]
OPS = {">=": Fraction.__ge__, ">": Fraction.__gt__, "<=": Fraction.__le__, "<": Fraction.__lt__}


def _decks(unseen: int, estimate: str) -> Fraction:
    """Decks remaining, from the words of the definition."""
    exact = Fraction(unseen, 52)
    if estimate == "exact":
        return exact
    step = Fraction(1, 2) if estimate == "half-deck" else Fraction(1)
    steps = exact / step
    nearest = math.floor(steps + Fraction(1, 2))  # halves (a quarter or a half deck) round up
    return max(step, nearest * step)


def _true_count(rc: int, unseen: int, tc: TrueCount) -> Fraction:
    x = Fraction(rc) / _decks(unseen, tc.decks)
    if tc.rounding == "floor":
        return Fraction(math.floor(x))
    if tc.rounding == "truncate":
        return Fraction(math.trunc(x))
    if tc.rounding == "round":  # halves away from zero
        return (1 if x >= 0 else -1) * Fraction(math.floor(abs(x) + Fraction(1, 2)))
    return x


def test_decks_remaining_estimates():
    half = [_decks(u, "half-deck") for u in (1, 12, 13, 38, 39, 64, 65, 416)]
    assert half == [Fraction(1, 2)] * 4 + [Fraction(1), Fraction(1), Fraction(3, 2), Fraction(8)]
    whole = [_decks(u, "whole-deck") for u in (1, 77, 78, 129, 130)]
    assert whole == [1, 1, 2, 2, 3]
    assert _true_count(-3, 52, TrueCount("exact", "round")) == -3
    assert _true_count(-3, 104, TrueCount("exact", "round")) == -2  # -1.5 -> -2
    assert _true_count(-3, 104, TrueCount("exact", "truncate")) == -1
    assert _true_count(-3, 104, TrueCount("exact", "floor")) == -2


@pytest.mark.parametrize("tc", CONVENTIONS, ids=lambda tc: tc.name)
def test_every_convention_is_its_definition(tc):
    rng = np.random.default_rng(3)
    rc = rng.integers(-60, 61, 4000)
    unseen = rng.integers(1, 417, 4000)
    rc[:6] = [3, -3, 13, -13, 0, 7]  # quotients that sit on a half or a whole
    unseen[:6] = [104, 104, 26, 26, 13, 52]
    for op, threshold in (
        (">=", Fraction(2)),
        (">", Fraction(3, 2)),
        ("<=", Fraction(-5, 2)),
        ("<", Fraction(0)),
    ):
        got = true_count_holds(rc, unseen, tc, op, threshold, 60)
        want = [OPS[op](_true_count(int(r), int(u), tc), threshold) for r, u in zip(rc, unseen, strict=True)]
        assert got.tolist() == want, (tc.name, op, threshold)


def test_huge_counts_and_thresholds_stay_exact():
    # past int64 the comparison is made in Python integers
    rc = np.asarray([10**17, -(10**17), 10**17 + 1], dtype=object)
    unseen = np.asarray([52, 52, 52])
    threshold = Fraction(10**17 * 2 + 1, 2)
    for tc in (EXACT, TrueCount("exact", "round")):
        got = true_count_holds(rc, unseen, tc, ">=", threshold, 10**17 + 1)
        want = [_true_count(int(r), 52, tc) >= threshold for r in rc]
        assert got.tolist() == want


def test_the_study_keeps_each_convention_on_real_coups():
    for name in ("half-deck", "whole-deck+floor", "round"):
        spec = S.make_spec(
            ["dragon-7"],
            shoes=6,
            strategies=["count"],
            tags="0,0,0,-1,-1,-1,-1,2,2,0",
            bet_when="tc>=3/2",
            true_count=name,
        )
        dealt = deal(spec.dealing, 0, 0, 6)
        rc = S._running_counts(spec, dealt)
        unseen = dealt.unseen.astype(np.int64).sum(axis=1)
        tc = parse_true_count(name)
        want = [_true_count(int(r), int(u), tc) >= Fraction(3, 2) for r, u in zip(rc, unseen, strict=True)]
        assert S._trigger(spec, dealt).tolist() == want
        assert [c.name for c in spec.count.conventions] == [name, "exact"]


def test_the_exact_row_stands_beside_the_chosen_one():
    kw = dict(
        shoes=200, seed=7, strategies=["count", "flat"], tags="0,0,0,-1,-1,-1,-1,2,2,0", bet_when="tc>=4"
    )
    plain = S.run_study(["dragon-7"], **kw)
    both = S.run_study(["dragon-7"], true_count="whole-deck", **kw)
    assert [(r.strategy, r.true_count) for r in plain.results] == [("count", "exact"), ("flat", None)]
    assert [(r.strategy, r.true_count) for r in both.results] == [
        ("count", "whole-deck"),
        ("count", "exact"),
        ("flat", None),
    ]
    assert both.results[1] == plain.results[0]
    assert both.results[0].bets_per_shoe != plain.results[0].bets_per_shoe
    count = ["study", "--shoes", "20", "--strategy", "count", "--tags", "0,0,0,-1,-1,-1,-1,2,2,0"]
    text = invoke(*count, "--bet-when", "tc>=4", "--true-count", "half-deck+floor", "--table", "results")
    assert text.exit_code == 0, text.output
    assert "count (tc half-deck+floor)" in text.output and "count (tc exact)" in text.output
    assert (
        "true count half-deck+floor: true count = running count / (unseen cards / 52 to the nearest"
        in text.output
    )
    data = invoke(*count, "--bet-when", "tc>=4", "--true-count", "round", "--format", "json")
    doc = json.loads(data.output)
    assert doc["settings"]["true_count"] == "round"
    assert [r["true_count"] for r in doc["results"]] == ["round", "exact"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--true-count", "half"], "bad --true-count"),
        (["--true-count", "floor+round"], "bad --true-count"),
        (["--true-count", "half-deck+whole-deck"], "bad --true-count"),
        (["--true-count", "floor"], "belongs to --strategy count"),
        (
            [
                "--strategy",
                "count",
                "--tags",
                "0,0,0,-1,-1,-1,-1,2,2,0",
                "--bet-when",
                "rc>=4",
                "--true-count",
                "round",
            ],
            "needs a true-count trigger",
        ),
    ],
)
def test_bad_conventions_are_one_line_exit_2(args, message):
    res = invoke("study", "--shoes", "5", *args)
    assert res.exit_code == 2, res.output
    assert message in res.output and res.output.count("\n") == 1


def test_parse_true_count_names():
    assert [parse_true_count(t.name) for t in CONVENTIONS] == CONVENTIONS
    assert parse_true_count("Floor+Half-Deck").name == "half-deck+floor"
    with pytest.raises(StudyError):
        parse_true_count("")


def test_several_conventions_are_rows_side_by_side():
    r = S.run_study(
        ["dragon-7"],
        shoes=60,
        seed=2,
        strategies=["count"],
        tags="0,0,0,-1,-1,-1,-1,2,2,0",
        bet_when="tc>=3",
        true_count=["round", "half-deck", "round"],
    )
    assert [row.true_count for row in r.results] == ["round", "half-deck", "exact"]
    alone = S.run_study(
        ["dragon-7"],
        shoes=60,
        seed=2,
        strategies=["count"],
        tags="0,0,0,-1,-1,-1,-1,2,2,0",
        bet_when="tc>=3",
        true_count="half-deck",
    )
    assert r.results[1] == alone.results[0] and r.results[2] == alone.results[1]
    assert r.settings()["true_count"] == "round,half-deck"
