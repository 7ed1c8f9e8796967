"""What the game-math report says, gathered and exact: for each bet and each number of decks,
its :class:`~analyzer.engine.pricing.BetSummary` (house edge per coup and per resolved bet, hit
frequency, variance) and the par-sheet figures drawn from it (RTP, element of risk, largest
win; the volatility index and the house's win-rate band use :data:`Z_LEVELS`); the fair pay and
the pay for a target house edge, of the bet's adjustable line, of a chosen line (``adjust``) or
of every win scaled by one factor (``scale``), solved by :mod:`analyzer.studies.ladder` from the
priced events; one run of the effects of removal (:mod:`analyzer.studies.eor`) on one shoe; the
closed forms in the number of decks d (:func:`analyzer.studies.symbolic.bet_forms`,
``pay_form``); and the exposure sections (:class:`ExposureSection`): the counting exposure, a
seeded shoe walk of :mod:`analyzer.studies.study` when asked.  Rendered by
:mod:`analyzer.output.report` (Markdown, HTML, xlsx, PDF)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.bets.files import read_bet_text
from analyzer.bets.model import Bet
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.core.tomltext import load_toml
from analyzer.engine.pricing import BetSummary, Pricer
from analyzer.errors import AnalyzerError, BetError, PeekError, RulesError, ShoeError, StudyError
from analyzer.studies.eor import BetEOR, EORReport, effects_of_removal
from analyzer.studies.ladder import ScaledLadder, find_line, ladder_lines, pay_for_line, scale_for_edge
from analyzer.studies.moments import Estimate
from analyzer.studies.symbolic import BetForms, RationalFunction, bet_forms, pay_form

#: The two-sided confidence levels of the par sheet (percent) and the standard normal quantile z
#: of each, P(|Z| <= z) = level, to 30 decimals (z = sqrt(2) erfinv(level); checked against
#: ``statistics.NormalDist`` in the tests).  The volatility index is z x SD; the house's
#: win-rate band after N hands is house edge +- z x SD / sqrt(N) (central limit theorem).
Z_LEVELS: tuple[tuple[int, Fraction], ...] = (
    (90, Fraction("1.644853626951472714863848907992")),
    (95, Fraction("1.959963984540054235524594430521")),
    (99, Fraction("2.575829303548900760978576748604")),
)
#: The numbers of hands of the house's win-rate band: 10^2 to 10^6.
BAND_HANDS: tuple[int, ...] = (10**2, 10**3, 10**4, 10**5, 10**6)
#: Shoes of the counting exposure by default, and the most one report may ask for.
COUNT_SHOES = 1000
MAX_COUNT_SHOES = 1_000_000


@dataclass(frozen=True)
class DeckFigures:
    """One bet on the standard shoe of ``decks`` decks: its exact :class:`BetSummary`, the fair
    pay of the solved line (:attr:`BetSection.solved_line`) and the pay giving the report's
    target house edge (``None`` when no line is solved for, the line's event cannot happen on
    this shoe, or no positive pay gives that edge); with ``scale``, ``fair_ladder`` and
    ``target_ladder``: every winning pay times one factor (:class:`ScaledLadder`; ``None`` when
    not asked or no positive factor gives that edge)."""

    decks: int
    summary: BetSummary
    fair_pay: Fraction | None
    target_pay: Fraction | None
    fair_ladder: ScaledLadder | None = None
    target_ladder: ScaledLadder | None = None

    @property
    def rtp(self) -> Fraction:
        """The theoretical return to player (RTP): what a unit staked returns on average,
        stake included, = 1 + EV = 1 - house edge."""
        return 1 + self.summary.ev

    @property
    def house_edge_resolved(self) -> Fraction | None:
        """The house edge per resolved bet: for a bet that cannot push every hand resolves, so
        it is the house edge per hand; ``None`` only for a bet that always pushes."""
        s = self.summary
        return s.house_edge if s.pushes == 0 else s.house_edge_resolved

    @property
    def element_of_risk(self) -> Fraction:
        """The element of risk: the expected loss over the average amount put at risk.  The
        stake is one unit and never grows, and a push risks nothing, so it is the house edge
        per resolved bet (the house edge itself for a bet that cannot push)."""
        s = self.summary
        resolved = s.house_edge_resolved
        return s.house_edge if resolved is None else resolved

    @property
    def largest_win(self) -> Fraction | None:
        """The largest pay (per unit staked) of an event that can happen on this shoe; ``None``
        when no event wins."""
        wins = [r.pays for r in self.summary.events if r.count > 0 and r.pays > 0]
        return max(wins) if wins else None


@dataclass(frozen=True)
class ExposureRow:
    """One bet under one way of play in an exposure study: ``figures`` are (label, estimate
    with its standard error, or an exact ``Fraction``; ``None`` when the study has none) in the
    section's column order; ``note`` says why a row has no figures (a bet the study cannot
    play), else empty."""

    bet: str
    play: str
    figures: tuple[tuple[str, Estimate | Fraction | None], ...]
    note: str = ""


@dataclass(frozen=True)
class ExposureSection:
    """A section of the report on what a player gains by knowing more than the rules: its
    ``key`` (``"counting"``; a later study, the partial-information exposure, adds its own),
    ``title``, ``method`` (how the figures were made, in words), ``settings`` (label, value:
    seed, shoes, dealing), ``rows`` and ``notes``.  The report holds them in
    :attr:`GameMathReport.exposures`, in order; the renderings show each the same way."""

    key: str
    title: str
    method: str
    settings: tuple[tuple[str, str], ...]
    rows: tuple[ExposureRow, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BetSection:
    """Everything the report says about one bet.

    ``figures`` follow the report's deck counts; ``eor`` is the bet's effects of removal on the
    report's EOR shoe; ``forms`` its closed forms in d; ``fair_pay_form`` / ``target_pay_form``
    the pay of the solved line for a zero / the target house edge as functions of d (``None``
    when no line is solved for, or no target was asked); ``solved_line`` the index of the pay
    line solved for (its adjustable line, or the line named by the report's ``adjust``;
    ``None`` for none, and under ``scale``); ``definition`` the bet's entry in its bet file as
    written (:func:`file_definitions`), so a lab can check the conditions of each pay line;
    empty for a catalogue bet (its rules text says what it settles by) or one built in Python.
    """

    bet: Bet
    figures: tuple[DeckFigures, ...]
    eor: BetEOR
    forms: BetForms
    fair_pay_form: RationalFunction | None
    target_pay_form: RationalFunction | None
    solved_line: int | None = None
    definition: str = ""


@dataclass(frozen=True)
class GameMathReport:
    """The report: one :class:`BetSection` per bet, for standard shoes of ``decks`` decks
    (in the order given), under ``tableau``; the effects of removal on ``eor_decks`` decks;
    ``target_edge`` the house edge (a fraction: 1/100 is 1%) the target pays are solved for,
    or ``None``; ``meta`` what produced it (tool, version, date, command, rules, shoes, bet
    files), as the caller gave it (empty: the renderings say the tool and its version);
    ``adjust`` the event of the pay line solved for instead of each bet's adjustable line, or
    ``None``; ``scale``: every winning pay scaled by one factor instead; ``exposures`` the
    exposure sections (:class:`ExposureSection`) in order, empty when none was asked: the
    place where a study of what a player gains by knowing more adds its section."""

    bets: tuple[BetSection, ...]
    decks: tuple[int, ...]
    eor_decks: int
    eor: EORReport
    target_edge: Fraction | None
    tableau: Tableau
    meta: Mapping[str, object]
    adjust: str | None = None
    scale: bool = False
    exposures: tuple[ExposureSection, ...] = ()


#: A line opening a bet of a bet file: ``[[bet]]`` (spaces and a comment allowed).
_BET_HEADER = re.compile(r"^\s*\[\[\s*bet\s*\]\]\s*(#.*)?$")


def bet_file_entries(text: str) -> list[tuple[str, str]]:
    """The bets of a bet file's ``text`` as (name, entry): the entry is the text of the bet's
    ``[[bet]]`` table as written, from its header to the next bet's (comments kept, trailing
    blank lines dropped); a file whose bets are not all written as ``[[bet]]`` tables gets each
    entry as the JSON of its table.  A bet without a text name is left out.

    Raises:
        BetError: the text is not valid TOML.
    """
    doc = load_toml(text, "bet file", BetError, "bet file")
    specs = doc.get("bet")
    if not isinstance(specs, list):
        return []
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _BET_HEADER.match(line)]
    blocks: list[str] = []
    if len(starts) == len(specs):
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            blocks.append("\n".join(lines[start:end]).rstrip())
    else:
        blocks = [json.dumps(spec, indent=2, default=str, ensure_ascii=False) for spec in specs]
    return [
        (spec["name"].strip(), block)
        for spec, block in zip(specs, blocks, strict=True)
        if isinstance(spec, dict) and isinstance(spec.get("name"), str)
    ]


def file_definitions(paths: Sequence[str]) -> dict[str, str]:
    """Each bet's entry in the bet files ``paths`` (:func:`bet_file_entries`), by bet name,
    the first file naming a bet winning; a file that cannot be read or parsed is left out (the
    bet reader reports it)."""
    out: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        try:
            entries = bet_file_entries(read_bet_text(path))
        except BetError:
            continue
        for name, entry in entries:
            out.setdefault(name, entry)
    return out


def _deck_counts(decks: object) -> tuple[int, ...]:
    if isinstance(decks, str | bytes) or not isinstance(decks, Sequence):
        raise ShoeError(f"bad deck counts {decks!r}: give a list of whole numbers >= 1, e.g. [1, 6, 8]")
    out: list[int] = []
    for d in decks:
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise ShoeError(f"bad number of decks {d!r}: use whole numbers >= 1")
        if d in out:
            raise ShoeError(f"{d} decks given twice: give each deck count once")
        out.append(d)
    if not out:
        raise ShoeError("no deck count given: give one or more, e.g. [8] or [1, 6, 8]")
    return tuple(out)


def _chosen_bets(bets: object) -> tuple[Bet, ...]:
    if isinstance(bets, str | bytes) or not isinstance(bets, Sequence):
        raise BetError(f"bad bets {bets!r}: give a list of Bet objects, e.g. [find_bet('dragon-7')]")
    chosen = tuple(bets)
    if not chosen:
        raise BetError("a report needs one or more bets")
    seen: set[str] = set()
    for b in chosen:
        if not isinstance(b, Bet):
            raise BetError(f"bad bet {b!r}: give a Bet, e.g. find_bet('dragon-7')")
        if b.name in seen:
            raise BetError(f"bet {b.name!r} is chosen twice: give each bet once, with a distinct name")
        seen.add(b.name)
    return chosen


def _pay(summary: BetSummary, line: int | None, edge: Fraction) -> Fraction | None:
    """The pay of pay line ``line`` giving ``edge`` (:func:`analyzer.studies.ladder.pay_for_line`),
    ``None`` for no line, an event that cannot happen on this shoe, or no positive pay."""
    if line is None:
        return None
    try:
        pay = pay_for_line(summary, line, edge)
    except BetError:  # the line's event cannot happen on this shoe
        return None
    return pay if pay > 0 else None


def _ladder(summary: BetSummary, edge: Fraction) -> ScaledLadder | None:
    try:
        return scale_for_edge(summary, edge)
    except BetError:  # no winning line can happen here, or no positive factor gives that edge
        return None


def _pay_form(bet: Bet, line: int | None, edge: Fraction, tableau: Tableau) -> RationalFunction | None:
    if line is None:
        return None
    try:
        return pay_form(bet, edge, tableau, line=line)
    except BetError:
        return None


def _definition(bet: Bet, definitions: Mapping[str, str] | None) -> str:
    """The bet file's entry of ``bet`` (a bet read from a file), else empty."""
    if not definitions or not bet.origin.startswith("file:"):
        return ""
    return definitions.get(bet.name, "")


def _solved_line(summary: BetSummary, adjust: str | None, scale: bool) -> int | None:
    """The pay line solved for: none under ``scale``; the line ``adjust`` names; else the
    bet's adjustable line (none for a payout function)."""
    bet = summary.bet
    if scale or bet.payout_function is not None:
        return None
    return bet.adjustable if adjust is None else find_line(summary, adjust)


def _linear_threshold(b: BetEOR, decks: int) -> int:
    """The true count at which the linear estimate of a count proportional to the EORs says the
    bet turns even, rounded up to a whole number, at least 1.  A tag of t stands for an effect
    of removal of about t x u (u = max |EOR| / the largest tag), and removing cards of tag sum
    RC from a shoe of N cards, n left, moves the EV by about u RC N / n = u TC d, so
    EV(TC) ~ EV + u d TC = 0 at TC = -EV / (u d)."""
    live = [abs(e) for e in b.eor if e is not None]
    top = max(live, default=Fraction(0))
    if top == 0 or b.ev >= 0:
        return 1
    u = top / b.system.max_tag
    return max(1, math.ceil(-b.ev / (u * decks)))


def _never_bets(tags: Sequence[int], threshold: int, frequency: Estimate | None) -> str:
    """The note of a count row whose count never bet in the shoes dealt (its figures are then
    0 by construction, not a measured 0), saying why; empty when it bet."""
    if frequency is None or frequency.value > 0:
        return ""
    if not any(t > 0 for t in tags):
        return (
            f"the count never bets: no tag is above 0, so the true count never rises to tc>={threshold}; "
            "its figures are 0 by construction"
        )
    return (
        f"the count never bet: its true count never reached tc>={threshold} in these shoes (the linear "
        "estimate asks that much because the bet's edge is far below 0 for its effects of removal); its "
        "figures are 0 by construction"
    )


#: The figures of a row of the counting exposure, as (label, StrategyResult attribute).
COUNT_FIGURES: tuple[tuple[str, str], ...] = (
    ("Bets per 100 coups", "bet_frequency"),
    ("Edge when betting", "edge_when_betting"),
    ("Units won per shoe", "units_per_shoe"),
    ("Units won per 100 coups", "units_per_100_coups"),
)


def _figures(result: Any) -> tuple[tuple[str, Estimate | None], ...]:
    out: list[tuple[str, Estimate | None]] = []
    for label, attr in COUNT_FIGURES:
        e = getattr(result, attr)
        if e is not None and attr == "bet_frequency":
            e = Estimate(e.value * 100, e.se * 100)
        out.append((label, e))
    return tuple(out)


def counting_exposure(
    bets: Sequence[Bet],
    eor: EORReport,
    *,
    shoes: int = COUNT_SHOES,
    seed: int = 0,
    tableau: Tableau = STANDARD,
) -> ExposureSection:
    """The counting exposure of ``bets``: a seeded shoe walk (:func:`analyzer.studies.study.run_study`,
    the ``study`` command's) of ``shoes`` shoes of ``eor.shoe``'s decks (cut card 14 cards from
    the end, the standard burn, the Jacobson end rule), each bet played two ways: perfect play
    (one unit whenever the exact EV on the unseen cards is above 0) and the linear count of the
    EOR section (``eor``'s suggested tags per rank, the largest betting correlation), one unit
    when its exact true count reaches the threshold of :func:`_linear_threshold`.  Each figure
    has its standard error (CLT over shoes).  A bet the study cannot play gets a row saying why.

    Raises:
        StudyError: ``shoes`` or ``seed`` is not a whole number in range.
    """
    from analyzer.studies.study import run_study  # lazy: numpy, only when the exposure is asked

    for name, value, low, high in (("shoes", shoes, 1, MAX_COUNT_SHOES), ("seed", seed, 0, None)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high and value > high):
            bound = f"from {low:,} to {high:,}" if high else f"of at least {low}"
            raise StudyError(f"bad counting {name} {value!r}: use a whole number {bound}")
    decks = eor.shoe.decks
    if decks is None:
        raise StudyError("the counting exposure deals standard shoes: give the EOR shoe as a deck count")
    rows: list[ExposureRow] = []
    for bet, b in zip(bets, eor.bets, strict=True):
        threshold = _linear_threshold(b, decks)
        countable = any(t != 0 for t in b.system.tags)
        plays = ["perfect", "count"] if countable else ["perfect"]
        trigger = f"tc>={threshold}"
        try:
            result = run_study(
                [bet],
                shoes=shoes,
                seed=seed,
                strategies=plays,
                decks=decks,
                tableau=tableau,
                tags=list(b.system.tags) if countable else None,
                bet_when=trigger if countable else None,
            )
        except AnalyzerError as err:
            rows.append(ExposureRow(bet.name, "perfect play", (), f"not studied: {err}"))
            continue
        for r in result.results:
            if r.strategy == "perfect":
                rows.append(ExposureRow(bet.name, "perfect play", _figures(r)))
            elif r.strategy == "count":
                tags = ",".join(str(t) for t in b.system.tags)
                note = _never_bets(b.system.tags, threshold, r.bet_frequency)
                play = f"count {tags} (A..K), bet at {trigger}"
                rows.append(ExposureRow(bet.name, play, _figures(r), note))
        if not countable:
            rows.append(ExposureRow(bet.name, "count", (), "no count: every effect of removal is 0"))
    settings = (
        ("shoes", f"{shoes:,}"),
        ("seed", str(seed)),
        ("shoe", f"{eor.shoe.describe()}, cut card 14 cards from the end, standard burn, Jacobson end rule"),
    )
    method = (
        f"Seeded shoe walk (the study command's): {shoes:,} shoes dealt from seed {seed}; before every "
        "coup each bet is priced exactly on the unseen cards. Perfect play bets one unit whenever that "
        "EV is above 0 (the most any player could win by knowing the cards dealt). The count bets one "
        "unit when a running count of the tags of the cards seen, divided by the decks left, reaches "
        "the threshold: the tags are the EOR section's suggested count, and the threshold is the true "
        "count at which that count's linear estimate of the EV turns even, rounded up. Each figure is "
        "an estimate +- its standard error over shoes; a 95% interval is +- 1.96 standard errors."
    )
    return ExposureSection("counting", "Counting exposure", method, settings, tuple(rows))


#: The shoe of the partial-information exposure (the decks of the published edge-sorting cases).
SORTING_DECKS = 8


def sorting_exposure_section(bets: Sequence[Bet], tableau: Tableau = STANDARD) -> ExposureSection:
    """The partial-information exposure of ``bets`` (:func:`analyzer.studies.peek.sorting_exposure`):
    for each bet, the two-group sort of the point values that gives the most to a bettor who
    sees the first card, and the first four cards, out of an 8-deck shoe before he bets, and
    bets only when the bet's exact EV given what he saw is positive.  Exact figures
    (``Fraction``), in percent: how often he bets, his edge per coup dealt and per unit bet.  A
    bet that peek cannot price (one that reads ranks or suits) gets a row saying why.

    Raises:
        AnalyzerError: as :func:`~analyzer.studies.peek.sorting_exposure`, for a fault other than
            a bet it cannot price.
    """
    from analyzer.studies.peek import sorting_exposure  # lazy: numpy, only when the section is asked

    rows: list[ExposureRow] = []
    shoe = Shoe.standard(SORTING_DECKS)
    searched = 0
    for bet in bets:
        try:
            found = sorting_exposure(bet, shoe, tableau)
        except PeekError as err:
            rows.append(ExposureRow(bet.name, "edge sorting", (), f"not analysed: {err}"))
            continue
        searched = found.searched
        for row in found.summary:  # the rows peek's exposure table shows, in percent
            per_bet = row.edge_per_bet
            rows.append(
                ExposureRow(
                    bet.name,
                    f"sees the {row.cards_seen} sorted {row.rest} against {row.group}; bets when positive",
                    (
                        ("Bets per 100 coups", row.bet_frequency * 100),
                        ("Edge per coup dealt (%)", row.edge_when_positive * 100),
                        ("Edge per unit bet (%)", None if per_bet is None else per_bet * 100),
                    ),
                )
            )
    settings = (
        ("shoe", shoe.describe()),
        ("sorts searched", f"every two-group sort of the point values ({searched:,})"),
        ("tableau", tableau.fingerprint),
    )
    method = (
        "Edge sorting: cards whose backs tell two groups apart (as in the Crockfords and Borgata "
        "cases) let a bettor see the group of a card before it is dealt. For each bet, every way of "
        "splitting the point values into two groups is tried; the table shows the split that pays "
        "the bettor most when he sees the group of the first card, and of the first four cards, of "
        "each coup and bets only when the bet's exact EV given what he saw is positive. The figures "
        "are exact (rounded only for display): how often he bets, and his expected win per coup "
        "dealt and per unit bet, in percent (punto-banco peek gives every pattern)."
    )
    title = "Exposure to partial information (edge sorting)"
    return ExposureSection("sorting", title, method, settings, tuple(rows))


def game_math_report(
    bets: Sequence[Bet],
    decks: Sequence[int],
    *,
    target_edge: Fraction | int | None = None,
    eor_decks: int | None = None,
    tableau: Tableau = STANDARD,
    meta: Mapping[str, object] | None = None,
    adjust: str | None = None,
    scale: bool = False,
    count_shoes: int = 0,
    count_seed: int = 0,
    sorting: bool = False,
    definitions: Mapping[str, str] | None = None,
) -> GameMathReport:
    """The game-math report of ``bets`` on the standard shoes of ``decks`` decks.

    Args:
        bets: the bets (catalogue bets, bets from files, any :class:`Bet`), distinct names.
        decks: deck counts, whole numbers >= 1, each once (e.g. ``[1, 6, 8]``).
        target_edge: a house edge per coup (an exact fraction: ``Fraction(1, 100)`` is 1%) to
            solve each adjustable pay for, besides the fair pay; ``None`` for the fair pay only.
        eor_decks: the shoe of the effects of removal (default: the largest of ``decks``).
        tableau: the rules.
        meta: what produced the report (default: none recorded; the renderings then name the
            tool, its version, the rules and the shoes).
        adjust: solve the pay of the line whose event is this text (as ``bets --adjust``),
            instead of each bet's adjustable line; a bet without it gets no solved pay.
        scale: solve one factor on every winning pay instead (as ``bets --scale``).
        count_shoes / count_seed: the counting exposure's shoes (0: no counting exposure)
            and seed (:func:`counting_exposure`).
        sorting: add the exposure to partial information (:func:`sorting_exposure_section`;
            a few seconds a bet).
        definitions: bet name -> its bet file's entry as written (:func:`file_definitions`),
            shown for each bet read from a file (:attr:`BetSection.definition`).

    Returns:
        :class:`GameMathReport`, exact throughout.

    Raises:
        BetError: no bets, a bet that is not a Bet, a name given twice, a target edge that is
            not an exact number or not above -1 and below 1, ``adjust`` with ``scale``, or
            ``adjust`` naming no line of any bet.
        StudyError: bad ``count_shoes`` or ``count_seed``.
        ShoeError: no deck count, a count that is not a whole number >= 1, or one given twice.
        RulesError: ``tableau`` is not a Tableau.

    >>> from analyzer.bets.catalogue import find_bet
    >>> r = game_math_report([find_bet("tie")], [8])
    >>> r.bets[0].figures[0].summary.house_edge == r.bets[0].forms.house_edge(8)
    True
    """
    chosen = _chosen_bets(bets)
    counts = _deck_counts(decks)
    if target_edge is not None and (
        isinstance(target_edge, bool) or not isinstance(target_edge, int | Fraction)
    ):
        raise BetError(f"bad target edge {target_edge!r}: give an exact int or Fraction (1/100 for 1%)")
    edge = None if target_edge is None else Fraction(target_edge)
    if edge is not None and not -1 < edge < 1:
        raise BetError(
            f"bad target edge {edge}: a house edge is above -1 and below 1 (a fraction: 1/100 is 1%)"
        )
    at = max(counts) if eor_decks is None else _deck_counts([eor_decks])[0]
    if not isinstance(tableau, Tableau):
        raise RulesError(f"bad rules {tableau!r}: give a Tableau, e.g. analyzer.STANDARD")
    if adjust is not None and (not isinstance(adjust, str) or not adjust.strip()):
        raise BetError(f"bad line to adjust {adjust!r}: give the event text of a pay line, e.g. 'Tie'")
    if adjust is not None and scale:
        raise BetError("adjust and scale are two ways to price a ladder: give one of them")
    per_deck: list[list[DeckFigures]] = [[] for _ in chosen]
    lines: list[int | None] = [None for _ in chosen]
    for d in counts:
        summaries = Pricer(Shoe.standard(d), tableau).summaries(chosen)
        if adjust is not None and d == counts[0]:
            ladder_lines(summaries, adjust)  # no bet has the line: one error, naming the lines
        for i, s in enumerate(summaries):
            lines[i] = _solved_line(s, adjust, scale)
            per_deck[i].append(
                DeckFigures(
                    d,
                    s,
                    _pay(s, lines[i], Fraction(0)),
                    None if edge is None else _pay(s, lines[i], edge),
                    _ladder(s, Fraction(0)) if scale else None,
                    _ladder(s, edge) if scale and edge is not None else None,
                )
            )
    eor = effects_of_removal(Shoe.standard(at), chosen, by="rank", depth=1, tableau=tableau)
    sections = tuple(
        BetSection(
            bet,
            tuple(per_deck[i]),
            eor.bets[i],
            bet_forms(bet, tableau),
            _pay_form(bet, lines[i], Fraction(0), tableau),
            None if edge is None else _pay_form(bet, lines[i], edge, tableau),
            lines[i],
            _definition(bet, definitions),
        )
        for i, bet in enumerate(chosen)
    )
    exposures: list[ExposureSection] = []
    if isinstance(count_shoes, bool) or not isinstance(count_shoes, int) or count_shoes < 0:
        raise StudyError(f"bad counting shoes {count_shoes!r}: use a whole number, 0 for none")
    if count_shoes:
        exposures.append(counting_exposure(chosen, eor, shoes=count_shoes, seed=count_seed, tableau=tableau))
    if sorting:
        exposures.append(sorting_exposure_section(chosen, tableau))
    return GameMathReport(
        sections,
        counts,
        at,
        eor,
        edge,
        tableau,
        dict(meta) if meta is not None else {},
        adjust,
        scale,
        tuple(exposures),
    )


__all__ = [
    "BAND_HANDS",
    "COUNT_SHOES",
    "Z_LEVELS",
    "BetSection",
    "DeckFigures",
    "ExposureRow",
    "ExposureSection",
    "GameMathReport",
    "bet_file_entries",
    "counting_exposure",
    "file_definitions",
    "game_math_report",
    "sorting_exposure_section",
]
