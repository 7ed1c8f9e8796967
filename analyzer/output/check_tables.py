"""The checks' results as tables (:class:`~analyzer.output.render.Table`): a conformance test
(:class:`~analyzer.checks.conform.Conformance`: the diagnosis, per category, per family, the
claims, the decision cells, the power), a ranking of tableaux by fit
(:class:`~analyzer.checks.compare.TableauFit`) and of engine bugs
(:class:`~analyzer.checks.diagnose.EngineFit`), and the coups each check needs to catch each
engine bug (:class:`~analyzer.checks.mutant_power.MutantPower`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from analyzer.checks.compare import TableauFit
from analyzer.checks.conform import (
    CUT_CARD_NOTE,
    MIN_EXPECTED,
    ClaimCheck,
    Conformance,
    VoidFamily,
    alpha_text,
    claims_summary,
)
from analyzer.checks.decisions import DecisionCheck, decisions_summary, lines_text, mixed_text
from analyzer.checks.diagnose import Diagnosis, EngineFit
from analyzer.checks.mutant_power import BETS, BOUND, SEEDS, STAKES, MutantPower
from analyzer.checks.mutants import KINDS, net_text
from analyzer.core.shoe import Shoe
from analyzer.output.render import Cell, Column, Table


def _float_text(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:+.{digits}f}"


def _p_text(p: float) -> str:
    return f"{p:.4g}"


def overall_text(result: Conformance) -> str:
    """The verdict in words: ``"CONFORMS"`` or ``"DOES NOT CONFORM"``, with what got no verdict
    (void families) and whether the claims were checked."""
    out = "CONFORMS" if result.passed else "DOES NOT CONFORM"
    extra = []
    if result.void:
        n = len(result.void)
        extra.append(f"{n} famil{'y' if n == 1 else 'ies'} void, not tested")
    if result.claims is None or not result.claims.rows:
        extra.append("claims not checked")
    return out + (f" ({'; '.join(extra)})" if extra else "")


def claims_verdict(check: ClaimCheck | None) -> str:
    """The claims in a few words: ``ok: all 3,000 right``, ``FAIL: 412 of 3,000 wrong`` or
    ``not checked: ...`` (why)."""
    if check is None:
        return "not checked: counts make no claims"
    if not check.rows:
        return "not checked: the log claims no totals, winner or settled bets"
    if check.passed:
        return f"ok: all {check.checked:,} right"
    fields = ", ".join(r.field for r in check.failing)
    return f"FAIL: {check.wrong:,} of {check.checked:,} wrong ({fields})"


def _families_text(result: Conformance) -> str:
    failed = [fam.family for fam in result.results if not fam.passed]
    text = f"{len(result.results)}: {len(result.results) - len(failed)} pass, {len(failed)} fail" + (
        f" ({', '.join(failed)})" if failed else ""
    )
    if result.void:
        text += f"; {len(result.void)} void ({', '.join(v.family for v in result.void)})"
    return text


def small_sample_summary(result: Conformance) -> Table | None:
    """A short summary for a small sample (some category expects fewer than
    :data:`MIN_EXPECTED` coups, so the per-category table is long and the chi-square verdicts
    have little power), and for a log that does not conform (its verdict up front, not under a
    long table): coups, families passed, failed and void, the decision cells, the claims, the
    diagnosis, the verdict.  ``None`` for a sample large enough that conforms."""
    low = sum(len(fam.low_expected) for fam in result.results)
    if not low and result.passed:
        return None
    coups = max([fam.n for fam in result.results] + [v.coups for v in result.void], default=0)
    rows: list[tuple[str, str]] = [
        ("Coups", f"{coups:,}"),
        ("Families tested", _families_text(result)),
    ]
    check = result.decisions
    if check is not None:
        faults = []
        if check.contradicting:
            n = check.contradicting
            faults.append(f"{n:,} coup{'s' if n != 1 else ''} against the tableau")
        if check.malformed:
            faults.append(
                f"{check.malformed:,} coup{'s' if check.malformed != 1 else ''} dealt outside the rules"
            )
        rows.append(("Decision cells", "ok: every coup follows the tableau" if check.passed
                     else "FAIL: " + ", ".join(faults)))
    rows.append(("Claims", claims_verdict(result.claims)))
    diagnosis = result.diagnosis
    if diagnosis is not None and diagnosis.findings:
        if diagnosis.causes:
            named = ", ".join(c.mutant for c in diagnosis.causes)
            rows.append(("Diagnosis", f"explained by {named} (the diagnosis table)"))
        else:
            rows.append(("Diagnosis", diagnosis.lines()[0].removeprefix("diagnosis: ")))
    rows.append(("Overall", overall_text(result)))
    notes = (
        (f"{low} categor{'y' if low == 1 else 'ies'} expect fewer than {MIN_EXPECTED} coups at this "
         "sample size: the frequency tests below have little power (see the coups they need at the "
         "end); the decision cells and the claims need no large sample.",)
        if low
        else ()
    )
    return Table(
        "conform-summary",
        "Summary (a small sample)" if low else "Summary",
        (Column("Check", "text", "check"), Column("Result", "text", "result")),
        tuple(rows),
        notes,
    )


def void_notes(void: Sequence[VoidFamily]) -> list[str]:
    """One note per kind of void family (families that left out the same coups share it): how
    many coups were left out, why, where first, and why there is no verdict."""
    groups: dict[tuple[object, ...], list[VoidFamily]] = {}
    for v in void:
        groups.setdefault((v.coups, v.left_out, v.reasons, v.lines, v.needs), []).append(v)
    notes = []
    for fams in groups.values():
        v = fams[0]
        names = ", ".join(f.family for f in fams)
        faults = "; ".join(f"{why}: {n:,}" for why, n in v.reasons)
        lines = lines_text(v.lines, v.left_out > len(v.lines))
        notes.append(
            f"VOID (no verdict): {names}: {v.left_out:,} of {v.coups:,} coups left out, dealt outside "
            f"the rules ({faults}; {lines}; verify names each fault).  "
            f"{'These families need' if len(fams) > 1 else 'This family needs'} {v.needs}; the coups "
            "left out are not a random subset, so a frequency test on the rest would be biased, and "
            "none is made."
        )
    return notes


def conformance_tables(
    result: Conformance, summary_first: bool = False, failing_only: bool = False
) -> list[Table]:
    """The report: observed against expected per category, and the test per family (void
    families, given no verdict, with why), the claims checked, the decision cells and the power
    (:class:`analyzer.output.render.Table` objects); for a small sample, a short summary
    (:func:`small_sample_summary`), first with ``summary_first`` (for people; data formats
    keep the per-category table first and the summary last).

    With ``failing_only``, the tables show only the failing and void families, the failing
    decision cells and the wrong claims (and the power of what they show); the notes and the
    summary still count everything."""
    shown = [fam for fam in result.results if not (failing_only and fam.passed)]
    rows = []
    for fam in shown:
        for r in fam.rows:
            rows.append(
                (
                    fam.family,
                    r.category,
                    r.probability,
                    r.expected_count,
                    r.observed,
                    r.frequency,
                    _float_text(r.residual_float),
                )
            )
    only = (
        [f"Only the failing families are shown (failing only): {len(shown)} of {len(result.results)} tested."]
        if failing_only
        else []
    )
    detail = Table(
        "conform-categories",
        f"Observed against exact expected: {result.shoe.describe()}",
        (
            Column("Family"),
            Column("Category"),
            Column("Expected probability", "decimal", "probability"),
            Column("Expected count", "decimal", "expected_count"),
            Column("Observed", "count", "observed"),
            Column("Observed frequency", "decimal", "frequency"),
            Column("Std. residual (float)", "text", "residual_float"),
        ),
        tuple(rows),
        (
            "Expected probabilities are exact (JSON output gives each as a fraction p/q); the "
            "standardised residual (O - np) / sqrt(np(1 - p)) is a float.",
            *only,
        ),
    )
    m = len(result.results)
    tests: list[tuple[Cell, ...]] = []
    for fam in shown:
        verdict = "PASS" if fam.passed else "FAIL"
        if fam.impossible:
            verdict += f" (observed impossible: {', '.join(fam.impossible)})"
        tests.append(
            (
                fam.family,
                fam.n,
                len(fam.rows),
                fam.df,
                fam.chi_square,
                _p_text(fam.p_value_float),
                f"{fam.g_float:.4f}",
                verdict,
                0,
            )
        )
    for v in result.void:
        tests.append((v.family, v.coups, None, None, None, None, None, v.text, v.left_out))
    notes = [
        f"Pearson chi-square (exact, shown rounded) with k - 1 degrees of freedom; p-value and G "
        f"statistic are floats (scipy.stats).  Verdict at alpha = {alpha_text(result.alpha)}, "
        f"Bonferroni-corrected over {m} famil{'y' if m == 1 else 'ies'} tested: a family fails when "
        f"p < {alpha_text(result.level)}.",
        *void_notes(result.void),
    ]
    if failing_only:
        failed = sum(not fam.passed for fam in result.results)
        notes.append(
            f"Only the failing and void families are shown (failing only): of {m} famil"
            f"{'y' if m == 1 else 'ies'} tested, {m - failed} pass and {failed} fail; "
            f"{len(result.void)} void."
        )
    if result.decisions is not None:
        notes.append(decisions_summary(result.decisions))
    notes.append(claims_summary(result.claims))
    notes.append(f"Overall: {overall_text(result)}.")
    low = [(fam.family, len(fam.low_expected)) for fam in result.results if fam.low_expected]
    if low:  # how many, per family: the categories themselves are the rows with such expected counts
        total = sum(n for _, n in low)
        per_family = ", ".join(f"{family} {n}" for family, n in low)
        notes.append(
            f"Expected count below {MIN_EXPECTED} in {total} categor{'y' if total == 1 else 'ies'} "
            f"({per_family}): the chi-square approximation is doubtful there; use more coups."
        )
    if result.cut_card:
        notes.append(CUT_CARD_NOTE)
    elif result.cut_card is None:
        notes.append(
            "The expected probabilities are per coup from a full, freshly shuffled shoe; if the "
            "coups were dealt through shoes with a cut card, pass --cut-card (cut-card effect)."
        )
    summary = Table(
        "conform-tests",
        "Goodness of fit per family",
        (
            Column("Family"),
            Column("Coups", "count", "coups"),
            Column("Categories", "count", "categories"),
            Column("df", "count", "df"),
            Column("Chi-square", "decimal", "chi_square"),
            Column("p-value (float)", "text", "p_value_float"),
            Column("G (float)", "text", "g_float"),
            Column("Verdict"),
            Column("Coups left out", "count", "left_out", data_only=True),
        ),
        tuple(tests),
        tuple(notes),
    )
    tables = [detail, summary]
    if result.diagnosis is not None and result.diagnosis.causes:
        tables.insert(0, diagnosis_table(result.diagnosis))
    if result.claims is not None and result.claims.rows:
        tables.append(claims_table(result.claims, failing_only))
    if result.decisions is not None:
        tables.append(decisions_table(result.decisions, failing_only))
    if result.power:
        tables.append(power_table(result, failing_only))
    if failing_only:  # a table left with no rows says nothing the notes above do not
        tables = [t for t in tables if t.rows or t is summary]
    short = small_sample_summary(result)
    if short is not None:  # for people: after the diagnosis (the cause leads), before the rest
        lead = 1 if tables and tables[0].name == "conform-diagnosis" else 0
        tables = [*tables[:lead], short, *tables[lead:]] if summary_first else [*tables, short]
    return tables


def diagnosis_table(diagnosis: Diagnosis) -> Table:
    """The engine bugs that explain a log's findings (:mod:`analyzer.checks.diagnose`), one row
    a cause, best first; each cause's sentence and example coup in the notes (and in JSON)."""
    rows = [
        (
            cause.mutant,
            cause.explains,
            cause.contradicts,
            cause.sentence,
            cause.example.text() if cause.example else None,
        )
        for cause in diagnosis.causes
    ]
    notes = [line.strip() for line in diagnosis.lines()]
    notes.append(
        "A bug explains a coup with findings when everything it changes matches the engine's claims; "
        "a coup contradicts it when it would have changed a claim the engine got right "
        "(docs/engines.md, 'The diagnosis')."
    )
    return Table(
        "conform-diagnosis",
        f"Diagnosis: the engine bugs that explain the findings ({diagnosis.findings:,} coups with findings)",
        (
            Column("Bug"),
            Column("Explains (coups)", "count", "explains"),
            Column("Contradicted by (coups)", "count", "contradicts"),
            Column("Cause", "text", "cause", data_only=True),
            Column("Example", "text", "example", data_only=True),
        ),
        tuple(rows),
        tuple(notes),
    )


def claims_table(check: ClaimCheck, failing_only: bool = False) -> Table:
    """A hand log's claims by field: how many were checked and wrong, the first lines and the
    first wrong claim (as ``verify`` reports it); with ``failing_only`` the wrong ones only."""
    rows = []
    for r in check.rows:
        if failing_only and not r.wrong:
            continue
        first = r.first
        rows.append(
            (
                r.field,
                r.checked,
                r.wrong,
                lines_text(r.lines, r.wrong > len(r.lines)) if r.wrong else "-",
                f"expected {first.expected}, claimed {first.claimed} -- {first.rule}" if first else "-",
                f"FAIL: {r.wrong:,} of {r.checked:,} {r.noun} wrong; verify lists each" if r.wrong else "ok",
                first.line if first else None,
                first.expected if first else None,
                first.claimed if first else None,
                first.rule if first else None,
            )
        )
    meaning = (
        "the net win (--paid net: 0 on a push, minus the stake on a loss)"
        if check.paid_means == "net"
        else "the amount returned (--paid returned: stake and win; the stake on a push; 0 on a loss)"
    )
    notes = [  # the verdict on the claims is under the tests (claims_summary), with the others
        "Each claim is checked as punto-banco verify checks it, on the coup as the engine dealt it: "
        f"the totals, the winner, and each settled amount, read as {meaning}, against the bet's pay "
        "table.  One wrong claim fails the test, whatever alpha; verify lists every wrong claim with "
        "its record, line and rule.",
    ]
    if failing_only:
        notes.append(
            f"Only the fields with wrong claims are shown (failing only): {len(rows)} of {len(check.rows)}."
        )
    return Table(
        "conform-claims",
        "Claims of the log, checked as verify checks them",
        (
            Column("Claim"),
            Column("Checked", "count", "checked"),
            Column("Wrong", "count", "wrong"),
            Column("First lines wrong", "text", "lines"),
            Column("First wrong claim", "text", "first"),
            Column("Verdict"),
            Column("First line wrong", "count", "first_line", data_only=True),
            Column("Expected", "text", "first_expected", data_only=True),
            Column("Claimed", "text", "first_claimed", data_only=True),
            Column("Rule", "text", "first_rule", data_only=True),
        ),
        tuple(rows),
        tuple(notes),
    )


def decisions_table(check: DecisionCheck, failing_only: bool = False) -> Table:
    """The decision cells a log reaches: the tableau's rule, the coups that drew and stood
    there, and the contradicting coups with their first lines; a cell with both draws and stands
    is named as decided by something else than the cell.  With ``failing_only``, the failing
    cells only."""
    rows = []
    for r in check.rows:
        if failing_only and not r.contradicting:
            continue
        verdict = "ok" if not r.contradicting else "FAIL"
        if r.mixed:
            verdict = "FAIL: decided by something else than the cell"
        rows.append(
            (
                r.cell.label,
                "draw" if r.should_draw else "stand",
                r.drew,
                r.stood,
                r.contradicting,
                lines_text(r.lines, r.contradicting > len(r.lines)) if r.contradicting else "-",
                verdict,
            )
        )
    notes = [
        "Each coup passes through the natural cell, or one Player cell (its two-card total) and one "
        "Banker cell (its two-card total and the Player's third card, or 'stood'), judged on the "
        "hands as dealt.  A single coup against the rule fails the test, whatever alpha.",
    ]
    notes += [mixed_text(r) + "." for r in check.mixed]
    if failing_only:
        notes.append(
            f"Only the failing cells are shown (failing only): {len(rows)} of the {len(check.rows)} "
            "cells reached."
        )
    if check.malformed:
        notes.append(
            f"{check.malformed:,} coup{'s' if check.malformed != 1 else ''} could not be read as a coup "
            f"(not 4-6 cards, a hand of more than 3 cards, or hands that are not the cards in dealing "
            "order): "
            f"{lines_text(check.malformed_lines, check.malformed > len(check.malformed_lines))}."
        )
    return Table(
        "conform-decisions",
        f"Decision cells against the tableau: {check.tableau.describe()}",
        (
            Column("Cell"),
            Column("Tableau says", "text", "rule"),
            Column("Drew", "count", "drew"),
            Column("Stood", "count", "stood"),
            Column("Against the rule", "count", "contradicting"),
            Column("First lines against it", "text", "lines"),
            Column("Verdict"),
        ),
        tuple(rows),
        tuple(notes),
    )


def power_table(result: Conformance, failing_only: bool = False) -> Table:
    """The power of each test: the coups needed to detect each alternative at the target power,
    and the power at the log's own number of coups.  With ``failing_only``, of the failing
    families (and the decision cells when they fail) only."""
    m = len(result.results)
    level = result.level
    failing = {fam.family for fam in result.results if not fam.passed}
    if result.decisions is not None and not result.decisions.passed:
        failing.add("decisions")
    pct = alpha_text(result.target_power * 100)
    rows = tuple(
        (
            r.family,
            r.alternative,
            r.df,
            "-" if r.w_float is None else f"{r.w_float:.4g}",
            r.coups,
            r.n,
            f"{r.power_at_n_float:.3f}",
            r.note or "-",
        )
        for r in result.power
        if not failing_only or r.family in failing
    )
    notes = (
        f"Coups needed for {pct}% power at the test's level {alpha_text(level)} (alpha "
        f"{alpha_text(result.alpha)}, Bonferroni over {m} famil{'y' if m == 1 else 'ies'}): Pearson's "
        "statistic under the alternative taken as noncentral chi-square with k - 1 df and "
        "noncentrality n w^2, w = Cohen's effect size sqrt(sum (q - p)^2 / p) between the exact "
        "distributions (Cohen 1988, ch. 7; Patnaik 1949; Mitra 1958); an asymptotic approximation.",
        "Decision cells: one coup through a cell where the tableaux differ fails the test; coups needed "
        "= the fewest n with 1 - (1 - r)^n at least the power, r its exact probability per coup "
        "(independent of alpha).",
        "Coups '-': never, the test cannot see that change.  w and the power are floats; the "
        "distributions they come from are exact.",
    )
    return Table(
        "conform-power",
        f"Power: coups needed to detect a change ({result.tableau.describe()})",
        (
            Column("Family"),
            Column("Alternative"),
            Column("df", "count", "df"),
            Column("Effect w (float)", "text", "w_float"),
            Column(f"Coups for {pct}% power", "count", "coups_needed"),
            Column("Coups in log", "count", "coups"),
            Column("Power at these coups (float)", "text", "power_at_n_float"),
            Column("Note"),
        ),
        rows,
        notes,
    )



def ranking_table(fits: Sequence[TableauFit], shoe: Shoe) -> Table:
    """The ranking as a table (:class:`analyzer.output.render.Table`)."""
    best = fits[0] if fits else None
    rows = []
    for i, f in enumerate(fits, 1):
        outcome = f"{f.outcome_log_likelihood_float:.2f}"
        if f.impossible_outcomes:
            outcome = f"-inf ({outcome} over the {f.coups - f.impossible_outcomes:,} possible)"
        comparable = best is not None and f.impossible_outcomes == best.impossible_outcomes == 0
        delta = (
            f"{f.outcome_log_likelihood_float - best.outcome_log_likelihood_float:+.2f}"
            if comparable and best is not None
            else "-"
        )
        rows.append(
            (
                i,
                f.tableau.name,
                f.tableau.fingerprint,
                f.contradicting,
                "-" if f.first_line is None or not f.contradicting else str(f.first_line),
                "-inf" if math.isinf(f.log_likelihood_float) else f"{f.log_likelihood_float:.2f}",
                outcome,
                delta,
            )
        )
    coups = fits[0].coups if fits else 0
    notes = [
        "Ranked by the coups each tableau would have dealt differently (each impossible under it: "
        "log-likelihood -inf), then by the log-likelihood (natural log, float) of the coups' "
        "outcomes (cards per side, final totals) under the tableau's exact distribution.",
        "A card sequence is equally likely under every tableau that deals it, so beyond the "
        "contradictions only the outcomes tell the tableaux apart.  'vs best': outcome "
        "log-likelihood minus the first-ranked tableau's (a log likelihood ratio).",
    ]
    if fits and fits[0].malformed:
        notes.append(
            f"{fits[0].malformed:,} coups no tableau deals (run verify): every log-likelihood is -inf."
        )
    return Table(
        "conform-compare",
        f"Tableaux ranked by fit to the log ({coups:,} coups): {shoe.describe()}",
        (
            Column("Rank", "count", "rank"),
            Column("Rules"),
            Column("Fingerprint"),
            Column("Coups against its cells", "count", "contradicting"),
            Column("First such line", "text", "first_line"),
            Column("Log-likelihood (float)", "text", "log_likelihood_float"),
            Column("Outcome log-likelihood (float)", "text", "outcome_log_likelihood_float"),
            Column("vs best (float)", "text", "delta_float"),
        ),
        tuple(rows),
        tuple(notes),
    )


def bug_ranking_table(fits: Sequence[EngineFit]) -> Table:
    """Engine bugs ranked by fit to a log (``conform --compare`` with names of
    ``punto-banco mutants``): the coups each would have dealt or settled otherwise than the
    engine claimed, fewest first; then the coups with findings it explains."""
    ordered = sorted(fits, key=lambda f: (f.misses, -f.explains, f.mutant))
    rows = [
        (
            i,
            f.mutant,
            f.misses if f.exact else f"at least {f.misses:,}",
            "-" if f.first_line is None else str(f.first_line),
            f.explains,
            f.contradicts,
            f.cause,
        )
        for i, f in enumerate(ordered, 1)
    ]
    coups = ordered[0].coups if ordered else 0
    return Table(
        "conform-compare-bugs",
        f"Engine bugs ranked by fit to the log ({coups:,} coups)",
        (
            Column("Rank", "count", "rank"),
            Column("Bug"),
            Column("Coups it deals or settles otherwise", "text", "misses"),
            Column("First such line", "text", "first_line"),
            Column("Explains (coups)", "count", "explains"),
            Column("Contradicted by (coups)", "count", "contradicts"),
            Column("Cause", "text", "cause", data_only=True),
        ),
        tuple(rows),
        (
            "Each bug (punto-banco mutants) deals every coup of the log from the log's own cards; a "
            "coup counts against it when it would have dealt or settled the coup otherwise than the "
            "engine claimed.  A bug that fits every coup is the engine's, as far as the log shows.",
        ),
    )


def mutant_power_table(powers: Sequence[MutantPower]) -> Table:
    """Per engine bug of the catalogue (:mod:`analyzer.checks.mutant_power`): the sentence the
    diagnosis says, the cause the diagnosis names for the bug's own log, and the coups each
    check needs to catch it."""
    rows = [
        (
            p.mutant.name,
            KINDS[p.mutant.kind],
            p.mutant.cause,
            "yes" if p.diagnosed == p.mutant.name else f"no ({p.diagnosed})",
            p.verify.text(),
            p.conform.text(),
            p.cells.text(),
            p.probe.text(),
            p.coup_vectors.text(),
            p.settlement_vectors.text(),
        )
        for p in powers
    ]
    bets = ", ".join(f"{b} {net_text(STAKES[b])}" for b in BETS)
    notes = (
        f"Each bug is an engine of punto-banco mutants; every check is run on what it produces, with "
        f"the bets {bets} placed on every coup of the logs.  verify: the median over {len(SEEDS)} seeded "
        f"hand logs (8-deck shoes to a cut card, every claim present, the shoe check on) of the coups up "
        f"to the first discrepancy; conform: the first of 100, 200, 400, ... coups of the same logs at which "
        f"conform fails (claims, decision cells, frequencies at alpha 0.01); logs of at most {BOUND:,} "
        "coups.",
        f"Decision cells: the coups of analyzer.testing.decision_cells examples (one coup through every "
        f"cell, {len(SEEDS)} examples, the engine's state carried) up to the first that assert_coup "
        "fails.  Probe: the request of the first finding in punto-banco probe's default plan (1,000 "
        "stacks, seed 1).  coups.jsonl and settlements.jsonl: the record of the test-vector kit, "
        "replayed in file order by one engine, at which it first deals or settles otherwise (the "
        "value-level coups dealt with 10 for a 0 and an ace for a 1).",
        "Diagnosed: whether the diagnosis of the bug's own log (5,000 coups, the shoe given) names it "
        "first.  'not within N': the check did not catch it in N coups (or records); a bug of the "
        "shoe never shows in a stacked coup or a vector, and only the shoe check over a whole shoe "
        "sees it.  Regenerate with `punto-banco tables --out results/`.",
    )
    return Table(
        "mutant-power",
        "Engine bugs: the diagnosis, and the coups each check needs to catch each bug",
        (
            Column("Bug"),
            Column("Breaks"),
            Column("Diagnosis"),
            Column("Diagnosed", "text", "diagnosed"),
            Column("verify", "text", "verify"),
            Column("conform", "text", "conform"),
            Column("Decision cells", "text", "decision_cells"),
            Column("Probe", "text", "probe"),
            Column("coups.jsonl", "text", "coup_vectors"),
            Column("settlements.jsonl", "text", "settlement_vectors"),
        ),
        tuple(rows),
        notes,
    )


__all__ = [
    "bug_ranking_table",
    "claims_table",
    "claims_verdict",
    "conformance_tables",
    "decisions_table",
    "mutant_power_table",
    "overall_text",
    "power_table",
    "ranking_table",
    "small_sample_summary",
    "void_notes",
]
