"""Conformance test: an implementation's simulated outcome counts against the exact probabilities.

Input: observed counts per *family* of outcome categories (from the implementation's own
simulation, as JSON or CSV, or tallied from a hand log):

============  ==================================================================
family        categories
============  ==================================================================
winner        banker, player, tie
player_total  0 .. 9 (final Player total)
banker_total  0 .. 9 (final Banker total)
cards         4, 5, 6 (cards dealt in the coup)
natural       none, player, banker, both (which sides had a natural)
player_cell   natural, 0 .. 9 (the Player's decision cell: its two-card total)
banker_cell   natural, B/V or B/stood (the Banker's decision cell: its two-card
              total B and the point value V of the Player's third card)
bet:NAME      win, push, loss for catalogue bet NAME (e.g. ``bet:dragon-7``) or a
              bet of the files given (``file_bets``)
============  ==================================================================

A hand log is also checked cell by cell against the tableau (:mod:`analyzer.checks.decisions`):
a coup that the tableau would have dealt differently fails the test at once, whatever alpha, and
the report names the cell and the first lines.  The report gives the power of each test
(:mod:`analyzer.checks.power`): the coups needed to detect, at 90% power, a change to a named
alternative tableau (``against``) or, when none is named, an effect of Cohen's w = 0.01.

A family may leave out categories when the total number of coups is known: the missing ones
are merged into one ``other`` category (so ``{"bets": {"dragon-7": 2253}}`` with ``coups``
tests the hit rate alone).

For each family: the exact expected probability of each category (``Fraction``), the observed
frequency, the standardised residual (O - E) / sqrt(n p (1 - p)), and Pearson's chi-square
statistic sum (O - E)^2 / E, computed exactly, with its p-value from the chi-square
distribution with k - 1 degrees of freedom (``scipy.stats``).  Residuals and p-values are
floats, and are named so; probabilities and the statistic stay exact.  The verdict at
significance level alpha uses a Bonferroni correction over the families tested: a family fails
when its p-value is below alpha / (number of families).

The expected probabilities are per coup dealt from a full, freshly shuffled shoe.  Coups dealt
one after another through a shoe with a cut card do not follow that distribution exactly (the
cut-card effect): see :data:`CUT_CARD_NOTE`.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from os import PathLike
from pathlib import Path

from analyzer.bets.choice import NO_FILE_BETS, FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.decisions import (
    BANKER_CELLS,
    CELL_READS,
    MAX_LINES,
    PLAYER_CELLS,
    DecisionCheck,
    DecisionLog,
    banker_cell_of,
    cell_probabilities,
    check_decisions,
    contradiction_probability,
    lines_text,
    player_cell_of,
    rarest_cell,
)
from analyzer.checks.diagnose import Diagnoser, Diagnosis, EngineFit
from analyzer.checks.handlog import LOG_FORMATS, Record, points_only_refusal, read_records
from analyzer.checks.logmap import NO_MAP, LogMap
from analyzer.checks.logs import (
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    csv_rows,
    json_loads,
    open_log,
    read_bounded,
    show,
    whole_number,
    winner_of,
)
from analyzer.checks.power import (
    DEFAULT_EFFECT,
    DEFAULT_POWER,
    chance_to_see,
    coups_to_see,
    effect_power,
    effect_size_squared,
    family_power,
    impossible_mass,
)
from analyzer.checks.verify import Discrepancy, LogError, Verifier, amount_text
from analyzer.core.cards import Card
from analyzer.core.coup import Coup, coup_from_cards
from analyzer.core.exact import LIMITS_WORDS, MAX_NUMBER_CHARS, parse_exact, round_fraction
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.pricing import ANALYSIS_READS, Pricer
from analyzer.errors import AnalyzerError, ObservedError
from analyzer.limits import LIMIT_CEILING

#: Categories of each fixed family, in display order.
FAMILIES: dict[str, tuple[str, ...]] = {
    "winner": ("banker", "player", "tie"),
    "player_total": tuple(str(t) for t in range(10)),
    "banker_total": tuple(str(t) for t in range(10)),
    "cards": ("4", "5", "6"),
    "natural": ("none", "player", "banker", "both"),
}
#: The decision-cell families (tallied from hand logs; see :mod:`analyzer.checks.decisions`).
CELL_FAMILIES: dict[str, tuple[str, ...]] = {"player_cell": PLAYER_CELLS, "banker_cell": BANKER_CELLS}
#: Every family by name: the outcome families and the cell families.
KNOWN_FAMILIES: dict[str, tuple[str, ...]] = {**FAMILIES, **CELL_FAMILIES}
BET_CATEGORIES = ("win", "push", "loss")
OTHER = "other"
#: Expected counts below this make the chi-square approximation doubtful (Cochran's rule).
MIN_EXPECTED = 5
DEFAULT_ALPHA = Fraction(1, 100)

CUT_CARD_NOTE = (
    "Cut-card effect: the expected probabilities are for one coup dealt from a full, freshly "
    "shuffled shoe.  Coups dealt one after another through a shoe see a depleted shoe, and a cut "
    "card ends each shoe after a number of coups that depends on the cards they used, so the "
    "long-run frequency per coup differs slightly from these probabilities.  The difference is "
    "small, but a large enough sample will detect it: a failure on coups dealt through cut-card "
    "shoes is not by itself proof of a wrong implementation.  To separate the two, simulate each "
    "coup from a freshly shuffled full shoe."
)

_BET_ALIASES = {
    "hit": "win",
    "hits": "win",
    "wins": "win",
    "won": "win",
    "pushes": "push",
    "lose": "loss",
    "losses": "loss",
    "lost": "loss",
}


@dataclass
class Observed:
    """Observed counts: ``families[family][category] = count``; ``coups`` is the total number of
    coups if known; ``cut_card`` says whether coups were dealt through shoes with a cut card
    (``None``: not said); ``decks`` / ``shoe`` name the shoe if the input does; ``decisions``
    holds a hand log's coups by value, for the decision cells (``None`` for a counts file);
    ``file_bets`` are the bets from files that ``bet:NAME`` families may name
    (:class:`~analyzer.bets.choice.FileBets`; :func:`conform` tests them with these bets);
    ``described`` says how a hand log was read
    (:attr:`analyzer.checks.handlog.HandLog.described`; ``None`` for counts).

    From a hand log (:func:`tally_log`) also: ``left_out``, per family, the coups it could not
    tally (dealt outside the rules: :class:`LeftOut`; :func:`conform` gives such a family no
    verdict), and ``claims``, the log's claims checked as ``verify`` checks them
    (:class:`ClaimCheck`); ``None`` for counts, which make no claims; ``diagnosis``, the
    known engine bugs that explain its findings (:mod:`analyzer.checks.diagnose`), and with
    ``exact_fits`` how well the log fits each of them (``fits``, for ``--compare``)."""

    families: dict[str, dict[str, int]] = field(default_factory=dict)
    coups: int | None = None
    cut_card: bool | None = None
    decks: int | None = None
    shoe: str | None = None
    decisions: DecisionLog | None = None
    file_bets: FileBets = field(default=NO_FILE_BETS, compare=False)
    described: str | None = field(default=None, compare=False)
    left_out: dict[str, LeftOut] = field(default_factory=dict)
    claims: ClaimCheck | None = None
    diagnosis: Diagnosis | None = None
    fits: tuple[EngineFit, ...] = ()

    def add(self, family: str, category: str, count: int, where: str = "") -> None:
        """Add ``count`` to a category, normalising names.

        Raises:
            ObservedError: unknown family or category, or a count that is not a whole number >= 0.
        """
        fam, cat = normalise(family, category, where, self.file_bets)
        if (
            isinstance(count, bool)
            or not isinstance(count, int)
            or count < 0
            or count.bit_length() > 4 * MAX_NUMBER_CHARS
        ):
            raise ObservedError(
                f"{where}bad count {show(count)} for {fam} {cat}: use a whole number >= 0 "
                f"(at most {MAX_NUMBER_CHARS} digits)"
            )
        bucket = self.families.setdefault(fam, {})
        bucket[cat] = bucket.get(cat, 0) + count


def normalise(
    family: str, category: str, where: str = "", file_bets: FileBets = NO_FILE_BETS
) -> tuple[str, str]:
    """Canonical (family, category) names; a ``bet:NAME`` family names a catalogue bet or one
    of ``file_bets``.

    Raises:
        ObservedError: unknown family or category; the message lists the allowed ones.
    """
    if not isinstance(category, str):
        raise ObservedError(f"{where}bad category {show(category)}: give its name as text")
    fam = _family(family, where, file_bets)
    cat = category.strip().lower()
    if fam.startswith("bet:"):
        cat = _BET_ALIASES.get(cat, cat)
        if cat not in BET_CATEGORIES:
            raise ObservedError(f"{where}bad category {category!r} for {fam}: use win, push or loss")
        return fam, cat
    if fam == "winner":
        named = winner_of(cat)
        cat = named.value if named is not None else cat
    if fam == "banker_cell":
        cat = cat.replace(" ", "")
    if cat not in KNOWN_FAMILIES[fam]:
        allowed = (
            "natural, or TOTAL/VALUE (the Banker's two-card total and the Player's third card, "
            "e.g. 6/5) or TOTAL/stood"
            if fam == "banker_cell"
            else ", ".join(KNOWN_FAMILIES[fam])
        )
        raise ObservedError(f"{where}bad category {category!r} for {fam}: use {allowed}")
    return fam, cat


def _family(family: str, where: str = "", file_bets: FileBets = NO_FILE_BETS) -> str:
    """The canonical name of a family (``bet:NAME`` with the bet's own name, a catalogue bet's
    or one of ``file_bets``).

    Raises:
        ObservedError: not text, or an unknown family or bet.
    """
    if not isinstance(family, str):
        raise ObservedError(f"{where}bad family {show(family)}: give its name as text")
    if family.strip().lower().startswith("bet:"):
        try:
            return "bet:" + lookup_bet(family.strip()[4:], file_bets).name
        except AnalyzerError as exc:
            raise ObservedError(f"{where}family {show(family)}: {exc}") from None
    fam = family.strip().lower().replace("-", "_")
    if fam not in KNOWN_FAMILIES:
        raise ObservedError(f"{where}unknown family {family!r}: use {', '.join(KNOWN_FAMILIES)} or bet:NAME")
    return fam


# -- coups a family cannot tally, claims ----------------------------------------------------------------

#: What each fixed family reads of a coup.  A coup the verifier cannot read as a coup (dealt
#: outside the rules: a hand of 4 cards, 7 cards in one coup, hands that are not the cards in
#: dealing order) is still tallied in every family whose category it decides; a ``bet:NAME``
#: family settles the bet on a coup, so it needs one.
FAMILY_NEEDS: dict[str, str] = {
    "winner": "a coup dealt within the rules",
    "player_total": "a coup dealt within the rules",
    "banker_total": "a coup dealt within the rules",
    "cards": "a coup dealt within the rules",
    "natural": "the first four cards",
    "player_cell": "the first four cards and whether the Player drew",
    "banker_cell": "the first four cards and the Player's third card (or that it stood)",
}
BET_NEEDS = "a coup dealt within the rules"
#: Kinds of fault kept apart per family (the rest are counted as "other faults").
MAX_REASONS = 8
OTHER_FAULTS = "other faults"


@dataclass
class LeftOut:
    """The coups one family could not tally: ``count``, how many for each fault (``reasons``,
    e.g. ``{"a Banker hand of 4 cards": 3290}``; at most :data:`MAX_REASONS` kinds, the rest
    under :data:`OTHER_FAULTS`) and the first :data:`~analyzer.checks.decisions.MAX_LINES`
    line numbers (``lines``)."""

    count: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)

    def add(self, reason: str, line: int) -> None:
        """Count one coup left out for ``reason``, met on ``line``."""
        self.count += 1
        if reason not in self.reasons and len(self.reasons) >= MAX_REASONS:
            reason = OTHER_FAULTS
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        if len(self.lines) < MAX_LINES:
            self.lines.append(line)


def outside_rules(rec: Record) -> str:
    """Why the verifier cannot read a coup record as a coup dealt within the rules, in a few
    words (``verify`` names the fault of each one): ``"a Banker hand of 4 cards"``, ``"7 cards
    in one coup"``, ``"one hand and no cards"``, ``"a fifth card where both hands stand"`` (a
    log of cards only), ``"hands that are not the cards in dealing order"``.

    >>> from analyzer.core.cards import parse_cards
    >>> outside_rules(Record(1, 2, player=tuple(parse_cards("2 3")), banker=tuple(parse_cards("K 2 A 3"))))
    'a Banker hand of 4 cards'
    """
    for side, hand in (("Player", rec.player), ("Banker", rec.banker)):
        if hand is not None and len(hand) not in (2, 3):
            return f"a {side} hand of {len(hand)} card{'s' if len(hand) != 1 else ''}"
    if rec.cards is None and (rec.player is None or rec.banker is None):
        return "one hand and no cards"
    n = len(rec.cards) if rec.cards is not None else len(rec.player or ()) + len(rec.banker or ())
    if not 4 <= n <= 6:
        return f"{n} cards in one coup"
    if rec.player is None and rec.banker is None:
        return "a fifth card where both hands stand"
    return "hands that are not the cards in dealing order"


def first_cards(rec: Record, tableau: Tableau = STANDARD) -> tuple[Coup | None, bool]:
    """What a coup record says of its start, for a coup the verifier cannot read: a record of
    its first four cards and the Player's third card (its Banker standing: only the naturals,
    the two-card totals and the Player's third card of it are meant), and whether the Player's
    draw is known.  ``(None, False)`` when the log does not give the first four cards (or its
    cards and hands disagree on them).

    The first four cards are the hands' first two (``player``, ``banker``) or the first four
    of ``cards``; the Player drew when its hand holds more than two cards, or, from the cards
    only, when there are six (none: four; five or seven and more: unknown)."""
    cards, player, banker = rec.cards, rec.player, rec.banker
    first: tuple[Card, ...] | None = None
    if player is not None and banker is not None:
        if len(player) >= 2 and len(banker) >= 2:
            first = (player[0], banker[0], player[1], banker[1])
    elif cards is not None and len(cards) >= 4:
        first = tuple(cards[:4])
    if first is None or (cards is not None and tuple(cards[:4]) != first):
        return None, False
    if (player is not None and tuple(player[:2]) != first[0::2]) or (
        banker is not None and tuple(banker[:2]) != first[1::2]
    ):
        return None, False
    if player is not None:
        third = player[2] if len(player) > 2 else None
        known = third is None or cards is None or (len(cards) > 4 and cards[4] == third)
    else:
        assert cards is not None
        # the Player's cards beyond its two: the cards dealt less the Banker's hand, if given
        extra = len(cards) - 2 - len(banker) if banker is not None else {4: 0, 6: 1}.get(len(cards), -1)
        known = extra in (0, 1)
        third = cards[4] if extra == 1 else None
    return coup_from_cards(first, third if known else None, None, tableau), known


#: The claims a hand log may make besides its settled bets (``bet:NAME``), in report order.
CLAIM_FIELDS = ("player_total", "banker_total", "winner", "natural")
#: Fields of claims tallied apart (the rest, settled bets of more names, as one row).
MAX_CLAIM_FIELDS = 100
OTHER_BETS = "bet:(other bets)"


@dataclass(frozen=True)
class ClaimRow:
    """The claims of one field of a hand log (``player_total``, ``banker_total``, ``winner``,
    ``natural`` or ``bet:NAME``, as ``verify`` names it): ``checked`` claims, ``wrong`` ones, the first lines
    of the wrong ones (``lines``) and the first wrong one as ``verify`` reports it (``first``)."""

    field: str
    checked: int
    wrong: int
    lines: tuple[int, ...] = ()
    first: Discrepancy | None = None

    @property
    def noun(self) -> str:
        """What one claim of this field is: ``"settlements"``, ``"totals"`` or ``"winners"``."""
        return "settlements" if self.field.startswith("bet:") else (
            "winners" if self.field == "winner" else "totals"
        )

    @property
    def text(self) -> str:
        """One phrase, e.g. ``"bet:player-pair: 412 of 1,000 settlements wrong; first on line 7"``."""
        head = f"{self.field}: {self.wrong:,} of {self.checked:,} {self.noun} wrong"
        if not self.wrong:
            return head
        first = self.first
        shown = f" (expected {first.expected}, claimed {first.claimed})" if first is not None else ""
        return f"{head}; first on line {self.lines[0]}{shown}" if self.lines else head


@dataclass(frozen=True)
class ClaimCheck:
    """A hand log's claims (totals, winner, naturals, settled bets) checked as ``verify`` checks them, on
    every coup the verifier reads (:class:`~analyzer.checks.verify.Verifier`): ``rows`` per
    field, in :data:`CLAIM_FIELDS` order then the bets in the order met; ``paid_means`` what a
    settled amount means (``net`` or ``returned``); ``unchecked`` counts the claims on coups
    dealt outside the rules (not judged: ``verify`` names each fault), with their first lines.

    One wrong claim fails, whatever the significance level."""

    rows: tuple[ClaimRow, ...]
    paid_means: str = "net"
    unchecked: int = 0
    unchecked_lines: tuple[int, ...] = ()

    @property
    def checked(self) -> int:
        """Claims checked, every field."""
        return sum(r.checked for r in self.rows)

    @property
    def wrong(self) -> int:
        """Claims that break a rule, every field."""
        return sum(r.wrong for r in self.rows)

    @property
    def passed(self) -> bool:
        """True when no claim checked breaks a rule."""
        return not self.wrong

    @property
    def failing(self) -> tuple[ClaimRow, ...]:
        """The fields with wrong claims."""
        return tuple(r for r in self.rows if r.wrong)


class _ClaimTally:
    """The claims of a hand log, tallied record by record (see :class:`ClaimCheck`)."""

    def __init__(self) -> None:
        self.checked: dict[str, int] = {}
        self.wrong: dict[str, int] = {}
        self.lines: dict[str, list[int]] = {}
        self.first: dict[str, Discrepancy] = {}
        self.unchecked = 0
        self.unchecked_lines: list[int] = []

    def _field(self, name: str) -> str:
        if name in CLAIM_FIELDS or name in self.checked or len(self.checked) < MAX_CLAIM_FIELDS:
            return name
        return OTHER_BETS

    def add(self, rec: Record, found: Sequence[Discrepancy], read: bool) -> None:
        """The claims of one coup record: ``found`` its discrepancies, ``read`` whether the
        verifier read it as a coup (and so judged its claims)."""
        given = (rec.player_total, rec.banker_total, rec.winner, rec.natural)
        claimed = [name for name, v in zip(CLAIM_FIELDS, given, strict=True) if v is not None]
        claimed += [f"bet:{b.spec}" for b in rec.bets]
        if not claimed:
            return
        if not read:
            self.unchecked += len(claimed)
            if len(self.unchecked_lines) < MAX_LINES:
                self.unchecked_lines.append(rec.line)
            return
        for name in claimed:
            key = self._field(name)
            self.checked[key] = self.checked.get(key, 0) + 1
        for d in found:
            if d.field not in claimed:
                continue  # a decision or the dealing order: the decision cells' matter
            key = self._field(d.field)
            self.wrong[key] = self.wrong.get(key, 0) + 1
            kept = self.lines.setdefault(key, [])
            if len(kept) < MAX_LINES:
                kept.append(d.line)
            self.first.setdefault(key, d)

    def result(self, paid_means: str) -> ClaimCheck:
        order = [f for f in CLAIM_FIELDS if f in self.checked]
        order += [f for f in self.checked if f not in CLAIM_FIELDS]
        rows = tuple(
            ClaimRow(
                f, self.checked[f], self.wrong.get(f, 0), tuple(self.lines.get(f, ())), self.first.get(f)
            )
            for f in order
        )
        return ClaimCheck(rows, paid_means, self.unchecked, tuple(self.unchecked_lines))


def claims_summary(check: ClaimCheck | None) -> str:
    """One sentence on a log's claims: how many were checked and wrong, by field, or that none
    were checked and why (``None``: the input is counts)."""
    if check is None:
        return (
            "Claims: not checked: the input is counts of outcomes, which make no claims "
            "(a hand log's totals, winner and settled bets are checked, as verify checks them)."
        )
    where = lines_text(check.unchecked_lines, check.unchecked > len(check.unchecked_lines))
    skipped = (
        f"; {check.unchecked:,} claim{'s' if check.unchecked != 1 else ''} on coups dealt outside the "
        f"rules not checked ({where}; verify names each fault)"
        if check.unchecked
        else ""
    )
    if not check.rows:
        why = (
            "every claim is on a coup dealt outside the rules"
            if check.unchecked
            else "the log claims no totals, winner or settled bets (only its cards and hands are checked)"
        )
        return f"Claims: not checked: {why}{skipped}."
    if check.passed:
        fields = ", ".join(f"{r.field} {r.checked:,}" for r in check.rows)
        return (
            f"Claims: all {check.checked:,} claims of the log are right ({fields}), checked as "
            f"verify checks them{skipped}."
        )
    wrong = "; ".join(r.text for r in check.failing)
    return (
        f"Claims: FAIL: {check.wrong:,} of {check.checked:,} claims wrong: {wrong}; "
        f"run verify on the log to list each wrong claim{skipped}."
    )


# -- reading ----------------------------------------------------------------------------------------


def _file_bets(file_bets: object) -> FileBets:
    if not isinstance(file_bets, FileBets):
        raise ObservedError(f"bad bets from files {show(file_bets)}: give a FileBets (FileBets.of(bets))")
    return file_bets


def _count(value: object, what: str) -> int:
    """A count: a whole number >= 0 of at most :data:`~analyzer.core.exact.MAX_NUMBER_CHARS` digits
    (an int, or its ASCII digits as text)."""
    bad = ObservedError(
        f"bad count {show(value)} for {what}: use a whole number >= 0 (at most {MAX_NUMBER_CHARS} digits)"
    )
    number = whole_number(value)
    if number is None:
        raise bad
    return number


def _decks(value: object) -> int:
    """A number of decks: a whole number >= 1 of at most
    :data:`~analyzer.core.exact.MAX_NUMBER_CHARS` digits (an int, or its ASCII digits as text)."""
    bad = ObservedError(
        f"bad decks {show(value)}: use a whole number of decks >= 1 (at most {MAX_NUMBER_CHARS} digits)"
    )
    try:
        n = _count(value, "decks")
    except ObservedError:
        raise bad from None
    if n < 1:
        raise bad
    return n


class _Seen:
    """Families and categories read so far, with the spelling each was given in, so that two
    spellings of one (``"tie"`` and ``"TIE"``, ``"b"`` and ``"banker"``) are an error naming
    both, not silently added together."""

    def __init__(self) -> None:
        self.families: dict[str, str] = {}
        self.categories: dict[tuple[str, str], str] = {}

    def family(self, fam: str, spelling: str) -> None:
        first = self.families.get(fam)
        if first is not None:
            raise ObservedError(f"{first} and {spelling} both give family {fam}: give each family once")
        self.families[fam] = spelling

    def category(self, fam: str, cat: str, spelling: str, where: str = "") -> None:
        first = self.categories.get((fam, cat))
        if first is not None:
            raise ObservedError(
                f"{where}{first} and {spelling} both give {fam} {cat}: give each category once"
            )
        self.categories[(fam, cat)] = spelling


def read_counts_json(text: str, file_bets: FileBets = NO_FILE_BETS) -> Observed:
    """Observed counts from JSON: ``{"coups": N, "cut_card": bool, "decks": D,
    "winner": {"banker": n, ...}, "player_total": {...}, "banker_total": {...},
    "cards": {...}, "natural": {...}, "bets": {"NAME": hits or {"win": n, ...}}}``.

    ``decks`` is a whole number >= 1 and ``shoe`` a shoe as text (as ``--shoe``); not both.
    A key given twice, or two spellings of one family or category (``"tie"`` and ``"TIE"``,
    ``"b"`` and ``"banker"``), is an error naming both, never silently merged.  A leading UTF-8
    byte order mark is ignored.  A bet is a catalogue bet or one of ``file_bets``.

    Raises:
        ObservedError: malformed JSON or counts, or repeated or conflicting fields.
    """
    if not isinstance(text, str):
        raise ObservedError(f"bad JSON text {show(text)}: give the file's contents as text")
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark, as some editors write
    doc = json_loads(
        text,
        ObservedError,
        shape="observed counts are an object of families, each mapping categories to counts",
    )
    if not isinstance(doc, dict):
        raise ObservedError('observed counts must be a JSON object such as {"winner": {"banker": 4586, ...}}')
    obs = Observed(file_bets=_file_bets(file_bets))
    seen = _Seen()

    def family(key: str, spelling: str, counts: dict[str, object]) -> None:
        fam = _family(key, "", obs.file_bets)
        seen.family(fam, spelling)
        for cat, n in counts.items():
            fam, canon = normalise(fam, cat, "", obs.file_bets)
            seen.category(fam, canon, f"{spelling} {cat!r}")
            obs.add(fam, canon, _count(n, f"{key} {cat}"))

    for key, value in doc.items():
        if key == "coups":
            obs.coups = _count(value, "coups")
        elif key == "cut_card":
            if not isinstance(value, bool):
                raise ObservedError(f"bad cut_card {show(value)}: use true or false")
            obs.cut_card = value
        elif key == "decks":
            obs.decks = _decks(value)
        elif key == "shoe":
            if not isinstance(value, str) or not value.strip():
                raise ObservedError(
                    f'bad shoe {show(value)}: give the shoe as text, as for --shoe (e.g. "K=50,A=50")'
                )
            obs.shoe = value
        elif key == "bets":
            if not isinstance(value, dict):
                raise ObservedError("'bets' must map bet names to hit counts or to {\"win\": n, ...}")
            for name, counts in value.items():
                if isinstance(counts, dict):
                    family(f"bet:{name}", f"bets {name!r}", counts)
                else:
                    family(f"bet:{name}", f"bets {name!r}", {"win": counts})
        else:
            if not isinstance(value, dict):
                raise ObservedError(f"family {show(key)} must map categories to counts, got {show(value)}")
            family(key, repr(key), value)
    if obs.decks is not None and obs.shoe is not None:
        raise ObservedError("give 'shoe' or 'decks', not both (as with --shoe and --decks)")
    return obs


def read_counts_csv(text: str, file_bets: FileBets = NO_FILE_BETS) -> Observed:
    """Observed counts from CSV with the header ``family,category,count``; a row ``coups,,N``
    gives the total number of coups.  Each category, and ``coups``, is given once: a repeated
    row (in any spelling) is an error naming both lines.  A bet is a catalogue bet or one of
    ``file_bets``.

    Raises:
        ObservedError: a bad header, row or count, or a repeated row (the message gives the line).
    """
    if not isinstance(text, str):
        raise ObservedError(f"bad CSV text {show(text)}: give the file's contents as text")
    rows = csv_rows(io.StringIO(text.removeprefix("\ufeff"), newline=""), ObservedError)
    first = next(rows, None)
    header = [h.strip().lower() for h in first[1]] if first is not None else []
    if header != ["family", "category", "count"]:
        raise ObservedError(f"line 1: the header must be family,category,count, got {show(','.join(header))}")
    obs = Observed(file_bets=_file_bets(file_bets))
    seen = _Seen()
    coups_line = 0
    for line, row in rows:
        if not row or not "".join(row).strip():
            continue
        if len(row) != 3:
            raise ObservedError(f"line {line}: expected 3 fields (family, category, count), got {len(row)}")
        fam, cat, n = row
        where = f"line {line}: "
        try:
            if fam.strip().lower() == "coups":
                if coups_line:
                    raise ObservedError(
                        f"coups is given twice, on line {coups_line} and line {line}: give it once"
                    )
                obs.coups = _count(n, "coups")
                coups_line = line
            else:
                canon_fam, canon_cat = normalise(fam, cat, where, obs.file_bets)
                seen.category(canon_fam, canon_cat, f"line {line} ({fam.strip()},{cat.strip()})")
                obs.add(canon_fam, canon_cat, _count(n, f"{fam} {cat}"), where)
        except AnalyzerError as exc:
            msg = str(exc)
            raise ObservedError(msg if msg.startswith("line ") else where + msg) from None
    return obs


def tally_log(
    records: Iterable[object],
    bets: Sequence[str | Bet] = (),
    tableau: Tableau = STANDARD,
    *,
    file_bets: FileBets = NO_FILE_BETS,
    paid_means: str = "net",
    diagnose: bool = True,
    exact_fits: bool = False,
) -> Observed:
    """Observed counts tallied from hand-log records (:class:`analyzer.checks.handlog.Record`), coup by
    coup *as dealt* (the implementation's cards and hands), for every fixed family and for the
    ``bets``: catalogue names (or names of bets of ``file_bets``, the bets from files given:
    :class:`~analyzer.bets.choice.FileBets`) or :class:`~analyzer.bets.model.Bet` objects (e.g.
    from :func:`~analyzer.bets.files.load_bets`; the family ``bet:NAME`` of such a bet is then
    tested with the bet of ``file_bets`` by that name), with the two cell families (``player_cell``,
    ``banker_cell``) and the coups by value in ``decisions``
    (:class:`~analyzer.checks.decisions.DecisionLog`, for the decision cells and
    :mod:`analyzer.checks.compare`).  ``cut_card`` is True when the log marks its shoes
    (``shoe`` ids or ``new_shoe`` records) and deals more than one coup from one of them, False
    when every marked shoe deals one coup, and None (not known) when the log does not mark shoes.

    A coup the verifier cannot read as a coup (dealt outside the rules: a hand of 4 cards, 7
    cards in one coup...) is tallied in each family whose category it decides (:data:`FAMILY_NEEDS`:
    ``natural`` from its first four cards; the cell families when the Player's draw is known too,
    :func:`first_cards`) and left out of the others, each left-out coup counted with its fault in
    ``left_out`` (:class:`LeftOut`): the coups left out are not a random subset, so
    :func:`conform` tests no such family.  ``coups`` counts every coup of the log.

    Every claim of the log (totals, winner, naturals, settled bets) is checked as ``verify`` checks it,
    settled amounts meaning ``paid_means`` (``net`` or ``returned``), and tallied by field in
    ``claims`` (:class:`ClaimCheck`).  With ``diagnose``, every coup is also replayed through the
    catalogue of engine bugs (:class:`~analyzer.checks.diagnose.Diagnoser`): ``diagnosis`` names
    those that explain the findings; with ``exact_fits`` every bug is replayed on every coup and
    ``fits`` says how well the log fits each.

    Raises:
        LogError: unreadable log, or no coups in it, or a bad ``paid_means``, or a bet that
            reads ranks or suits on a log of point values only; ObservedError: a bad bet name.
    """

    if isinstance(bets, str) or not isinstance(bets, Iterable):
        raise ObservedError(f"bad bets {show(bets)}: give a list of catalogue bet names")
    file_bets = _file_bets(file_bets)
    if isinstance(records, str | bytes) or not isinstance(records, Iterable):
        raise ObservedError(f"bad records {show(records)}: give hand-log records (handlog.read_records)")
    verifier = Verifier(paid_means=paid_means, keep_coups=True, tableau=tableau)
    diagnoser = (
        Diagnoser(tableau, returned=paid_means == "returned", retire=not exact_fits)
        if diagnose or exact_fits
        else None
    )
    claims = _ClaimTally()
    chosen = []
    for b in bets:
        if isinstance(b, Bet):
            chosen.append(b)
            continue
        if not isinstance(b, str):
            raise ObservedError(f"bad bet {show(b)}: give a catalogue bet name such as 'tie' or a Bet")
        try:
            chosen.append(lookup_bet(b, file_bets))
        except AnalyzerError as exc:
            raise ObservedError(f"--bet {show(b)}: {exc}") from None
    obs = Observed(file_bets=file_bets)
    for fam, cats in KNOWN_FAMILIES.items():
        obs.families[fam] = dict.fromkeys(cats, 0)
    for bet in chosen:
        obs.families[f"bet:{bet.name}"] = dict.fromkeys(BET_CATEGORIES, 0)
    decisions = obs.decisions = DecisionLog()
    per_shoe = 0
    several = False
    shoe_info = False
    points_checked = False
    last_shoe: str | None = None

    def stopped(exc: AnalyzerError) -> LogError:
        done = verifier.records
        return LogError(
            f"{exc} (stopped here: {done:,} record{'s' if done != 1 else ''} tallied before this one)"
            if done
            else str(exc)
        )

    iterator = iter(records)
    while True:
        try:
            rec = next(iterator)
        except StopIteration:
            break
        except AnalyzerError as exc:
            raise stopped(exc) from None
        if not isinstance(rec, Record):
            raise ObservedError(f"bad record {show(rec)}: give hand-log records (handlog.read_records)")
        if rec.points_only and chosen and not points_checked:
            points_checked = True
            for bet in chosen:
                refused = points_only_refusal(bet.name, bet)
                if refused:
                    raise stopped(LogError(f"line {rec.line}: {refused}"))
        shoe_info = shoe_info or rec.new_shoe or rec.shoe_id is not None
        if rec.new_shoe or (rec.shoe_id is not None and rec.shoe_id != last_shoe):
            per_shoe = 0
        last_shoe = rec.shoe_id if rec.shoe_id is not None else last_shoe
        try:
            found = verifier.check(rec)
        except AnalyzerError as exc:
            raise stopped(exc) from None
        f = verifier.last_coup
        if diagnoser is not None:
            diagnoser.add(rec, clean=not found)
        if not rec.is_coup:
            continue
        claims.add(rec, found, f is not None)
        decisions.add_record(
            rec.cards,
            rec.player is not None or rec.banker is not None,
            (rec.player_total, rec.banker_total),
            f,
            rec.line,
        )
        per_shoe += 1
        several = several or per_shoe > 1
        if f is None:
            _tally_outside(obs, rec, tableau)
            continue
        obs.families["winner"][f.winner.value] += 1
        obs.families["player_total"][str(f.player_total)] += 1
        obs.families["banker_total"][str(f.banker_total)] += 1
        obs.families["cards"][str(f.cards_dealt)] += 1
        obs.families["natural"][f.naturals] += 1
        obs.families["player_cell"][player_cell_of(f)] += 1
        obs.families["banker_cell"][banker_cell_of(f)] += 1
        for bet in chosen:
            pays = bet.payout(f)
            obs.families[f"bet:{bet.name}"]["win" if pays > 0 else "push" if pays == 0 else "loss"] += 1
    obs.coups = verifier.coups
    if not verifier.coups:
        raise LogError(
            "no coups in the log: it is empty, has only a header or only new-shoe/burn "
            "markers; there is nothing to tally"
        )
    obs.cut_card = several if shoe_info else None
    obs.claims = claims.result(paid_means)
    obs.diagnosis = diagnoser.result() if diagnoser is not None else None
    obs.fits = diagnoser.fits() if diagnoser is not None and exact_fits else ()
    return obs


def _tally_outside(obs: Observed, rec: Record, tableau: Tableau) -> None:
    """Tally a coup dealt outside the rules in the families whose category it decides; leave it
    out of the others, with its fault."""
    start, known = first_cards(rec, tableau)
    decided: dict[str, str] = {}
    if start is not None:
        decided["natural"] = start.naturals
        if known or start.natural:
            decided["player_cell"] = player_cell_of(start)
            decided["banker_cell"] = banker_cell_of(start)
    why = outside_rules(rec)
    for fam, counts in obs.families.items():
        cat = decided.get(fam)
        if cat is None:
            obs.left_out.setdefault(fam, LeftOut()).add(why, rec.line)
        else:
            counts[cat] += 1


def observed_kind(path: str | PathLike[str], kind: str | None = None, log_map: LogMap = NO_MAP) -> str:
    """What :func:`read_observed` reads ``path`` as: ``kind`` when given, else from the
    extension (``.json`` counts, ``.csv`` counts if its header starts with ``family`` else a
    hand log, ``.jsonl`` / ``.ndjson`` a hand log): ``json``, ``csv``, ``log-csv`` or
    ``log-jsonl``.  With a map (``log_map``, a hand log's), always a hand log: its format from
    the extension as :func:`analyzer.checks.handlog.detect_format` tells it (``.json`` is JSON
    Lines), else the map's ``format``.

    Raises:
        ObservedError: ``kind`` is not text, or no kind follows from the extension, or a map is
            given with counts; OSError: a ``.csv`` file cannot be read.
    """
    if kind is not None and not isinstance(kind, str):
        raise ObservedError(f"bad observed format {show(kind)}: use json, csv, log-csv or log-jsonl")
    suffix = Path(path).suffix.lower()
    if log_map.given:
        if kind is None:
            found = LOG_FORMATS.get(suffix)
            if found is not None and log_map.log_format not in (None, found):
                raise ObservedError(
                    f"{path}: its extension says {found} and the map {log_map.source} says "
                    f"{log_map.log_format}: pass --observed-format log-csv or log-jsonl"
                )
            found = found or log_map.log_format
            if found is None:
                raise ObservedError(
                    f"cannot tell the format of {path!r} from its extension or the map "
                    f"{log_map.source}: pass --observed-format log-csv or log-jsonl"
                )
            return f"log-{found}"
        if kind not in ("log-csv", "log-jsonl"):
            raise ObservedError(
                f"a map ({log_map.source}) reads a hand log, and {path!r} is read as counts "
                f"({kind}): pass --observed-format log-csv or log-jsonl, or no map"
            )
        return kind
    if kind is None:
        if suffix == ".json":
            kind = "json"
        elif suffix in (".jsonl", ".ndjson"):
            kind = "log-jsonl"
        elif suffix == ".csv":
            with open(path, encoding="utf-8-sig", errors="replace") as fh:
                first = fh.readline(200).strip().lower().replace(" ", "").replace('"', "")
            # a counts file's header starts with 'family' (read_counts_csv then names a wrong one)
            kind = "csv" if first.split(",")[0] == "family" else "log-csv"
        else:
            raise ObservedError(
                f"cannot tell the kind of {path!r} from its extension: "
                "pass --observed-format json, csv, log-csv or log-jsonl"
            )
    return kind


def read_observed(
    path: str,
    kind: str | None = None,
    bets: Sequence[str | Bet] = (),
    *,
    max_line: int = MAX_LINE_CHARS,
    max_bytes: int = MAX_FILE_BYTES,
    tableau: Tableau = STANDARD,
    file_bets: FileBets = NO_FILE_BETS,
    log_map: LogMap = NO_MAP,
    paid_means: str = "net",
    exact_fits: bool = False,
) -> Observed:
    """Observed counts from a file: ``kind`` is ``json`` / ``csv`` (counts) or ``log-csv`` /
    ``log-jsonl`` (a hand log, tallied by :func:`tally_log`, read through ``log_map``
    (:func:`analyzer.checks.logmap.load_map`); its ``described`` says how); by default from
    the extension (:func:`observed_kind`).

    Bounded reads (:mod:`analyzer.checks.logs`): a counts file is read whole only up to
    ``max_bytes`` bytes; a hand log is streamed, each line at most ``max_line`` characters.
    Bet names (the log's columns, the counts' families, ``bets``) name catalogue bets or bets
    of ``file_bets``.  ``paid_means`` and ``exact_fits`` as :func:`tally_log`.

    Raises:
        ObservedError / LogError: unreadable input, or a limit exceeded (the message names the
            file and the limit); OSError: the file cannot be read.
    """

    if not isinstance(path, str | PathLike):
        raise ObservedError(f"bad path {show(path)}: give a file name")
    for what, limit in (("line-length", max_line), ("file-size", max_bytes)):
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= LIMIT_CEILING:
            raise ObservedError(
                f"bad {what} limit {show(limit)}: use a whole number from 1 to {LIMIT_CEILING:,}"
            )
    if not isinstance(log_map, LogMap):
        raise ObservedError(f"bad map {show(log_map)}: give a LogMap (analyzer.checks.logmap.load_map)")
    kind = observed_kind(path, kind, log_map)
    if kind in ("log-csv", "log-jsonl"):
        with open_log(path) as fh:
            records = read_records(
                fh, kind[4:], name=str(path), max_line=max_line, file_bets=file_bets, log_map=log_map
            )
            observed = tally_log(
                records, bets, tableau, file_bets=file_bets, paid_means=paid_means, exact_fits=exact_fits
            )
            observed.described = records.described
            return observed
    if bets:
        raise ObservedError(
            "--bet applies to hand logs only; name bets in the counts file (bet:NAME), and give the "
            "bet files of bets from files with --bet-file"
        )
    text = read_bounded(path, ObservedError, max_bytes=max_bytes)
    if kind in ("json", "csv"):
        reader = read_counts_json if kind == "json" else read_counts_csv
        try:
            return reader(text, file_bets)
        except ObservedError as exc:  # the counts file named, as a log's errors name it
            raise ObservedError(f"{path}: {exc}") from None
    raise ObservedError(f"bad observed format {kind!r}: use json, csv, log-csv or log-jsonl")


# -- expected -------------------------------------------------------------------------------------


_KEYS: dict[str, Callable[[Coup], str]] = {
    "winner": lambda c: c.winner.value,
    "player_total": lambda c: str(c.player_total),
    "banker_total": lambda c: str(c.banker_total),
    "cards": lambda c: str(c.cards_dealt),
    "natural": lambda c: c.naturals,
}
_CELL_KEYS: dict[str, Callable[[Coup], str]] = {"player_cell": player_cell_of, "banker_cell": banker_cell_of}


def expected(family: str, pricer: Pricer, file_bets: FileBets = NO_FILE_BETS) -> dict[str, Fraction]:
    """Exact probability per coup of each category of ``family`` on the pricer's shoe
    (categories of probability 0 included); ``bet:NAME`` a catalogue bet or one of ``file_bets``.

    Raises:
        ObservedError: unknown family; BetError: bad bet name, or suits needed and unknown.
    """
    if family.startswith("bet:"):
        bet = lookup_bet(family[4:], file_bets)
        summary = pricer.summary(bet)
        out = dict.fromkeys(BET_CATEGORIES, Fraction(0))
        for row in summary.events:
            out["win" if row.pays > 0 else "push" if row.pays == 0 else "loss"] += row.probability
        return out
    if family in _CELL_KEYS:
        cells = pricer.distribution(CELL_READS)
        counts = cells.tally(_CELL_KEYS[family])
        return {cat: Fraction(counts.get(cat, 0), cells.denominator) for cat in CELL_FAMILIES[family]}
    if family not in _KEYS:
        raise ObservedError(f"unknown family {family!r}: use {', '.join(KNOWN_FAMILIES)} or bet:NAME")
    dist = pricer.distribution(ANALYSIS_READS)
    key = _KEYS[family]
    tally = dist.tally(key)
    return {cat: Fraction(tally.get(cat, 0), dist.denominator) for cat in FAMILIES[family]}


# -- the test ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CategoryRow:
    """One category: exact ``probability``, ``observed`` count, and the float
    ``residual_float`` = (O - E) / sqrt(n p (1 - p)) (``None`` when p is 0 or 1)."""

    category: str
    probability: Fraction
    observed: int
    n: int

    @property
    def expected_count(self) -> Fraction:
        """n p, exact."""
        return self.n * self.probability

    @property
    def frequency(self) -> Fraction:
        """Observed frequency O / n, exact."""
        return Fraction(self.observed, self.n) if self.n else Fraction(0)

    @property
    def residual_float(self) -> float | None:
        """Standardised residual (O - n p) / sqrt(n p (1 - p)), as a float."""
        p = self.probability
        if p == 0 or p == 1 or not self.n:
            return None
        return float(self.observed - self.expected_count) / math.sqrt(float(self.n * p * (1 - p)))


@dataclass(frozen=True)
class FamilyResult:
    """The goodness-of-fit test of one family.

    ``chi_square`` is Pearson's statistic, exact; ``p_value_float`` its upper-tail probability
    from the chi-square distribution with ``df`` degrees of freedom (a float, scipy.stats);
    ``impossible`` lists categories observed although their probability is 0 (then the p-value
    is 0); ``passed`` compares the p-value with the corrected level ``level``.
    """

    family: str
    rows: tuple[CategoryRow, ...]
    n: int
    chi_square: Fraction
    df: int
    p_value_float: float
    level: Fraction
    impossible: tuple[str, ...]
    g_float: float

    @property
    def passed(self) -> bool:
        """True when the p-value is at least the corrected significance level."""
        return not self.impossible and self.p_value_float >= self.level

    @property
    def low_expected(self) -> tuple[str, ...]:
        """Categories with expected count below :data:`MIN_EXPECTED` (approximation doubtful)."""
        return tuple(r.category for r in self.rows if 0 < r.expected_count < MIN_EXPECTED)


@dataclass(frozen=True)
class PowerRow:
    """The power of one test against one alternative (see :mod:`analyzer.checks.power`).

    ``family`` is a family tested, or ``"decisions"`` for the decision cells; ``alternative``
    names the change (a tableau's name, or ``"w = 0.01"``); ``df`` and ``w_float`` are ``None``
    for the decision cells; ``coups`` the coups needed for ``power`` (``None``: never, the test
    cannot see that change); ``power_at_n_float`` the power at the log's ``n`` coups; ``note``
    says what the decision-cell row assumes.
    """

    family: str
    alternative: str
    df: int | None
    w_float: float | None
    coups: int | None
    n: int
    power_at_n_float: float
    note: str = ""


@dataclass(frozen=True)
class VoidFamily:
    """A family given no verdict, neither pass nor fail: ``left_out`` of the input's ``coups``
    could not be tallied in it (dealt outside the rules), and a frequency test on the rest would
    be biased (the coups left out are not a random subset: a Banker can draw twice only where
    there was no natural).  ``reasons`` counts the coups left out per fault, ``lines`` are the
    first of them, ``needs`` says what the family reads of a coup (:data:`FAMILY_NEEDS`)."""

    family: str
    coups: int
    left_out: int
    reasons: tuple[tuple[str, int], ...]
    lines: tuple[int, ...]
    needs: str

    @property
    def text(self) -> str:
        """The verdict in words, e.g.
        ``VOID: 3,290 of 80,114 coups left out (a Banker hand of 4 cards: 3,290)``."""
        faults = ", ".join(f"{why}: {n:,}" for why, n in self.reasons)
        return f"VOID: {self.left_out:,} of {self.coups:,} coups left out ({faults})"


@dataclass(frozen=True)
class Conformance:
    """Every family's test (``results``; ``void``: the families given no verdict, which would
    have to leave coups out), the significance level ``alpha`` and the shoe; for a hand log the
    decision-cell check (``decisions``) and its claims checked (``claims``; ``None`` for
    counts, which make none), and the engine bugs that explain its findings (``diagnosis``);
    the power of each test (``power``, at ``target_power``)."""

    shoe: Shoe
    alpha: Fraction
    results: tuple[FamilyResult, ...]
    cut_card: bool | None
    decisions: DecisionCheck | None = None
    power: tuple[PowerRow, ...] = ()
    target_power: Fraction = DEFAULT_POWER
    tableau: Tableau = STANDARD
    void: tuple[VoidFamily, ...] = ()
    claims: ClaimCheck | None = None
    diagnosis: Diagnosis | None = None

    @property
    def passed(self) -> bool:
        """True when every family tested passes at alpha / (number of families tested), no coup
        contradicts the tableau's decision cells and no claim breaks a rule.  A void family
        neither passes nor fails."""
        return (
            all(r.passed for r in self.results)
            and (self.decisions is None or self.decisions.passed)
            and (self.claims is None or self.claims.passed)
        )

    @property
    def level(self) -> Fraction:
        """The level each family is tested at: alpha over the families tested (Bonferroni)."""
        return self.alpha / max(len(self.results), 1)


def _chi2_sf(stat: float, df: int) -> float:
    from scipy import stats  # type: ignore[import-untyped]

    return float(stats.chi2.sf(stat, df))


def fit_family(
    family: str, counts: Mapping[str, int], probs: Mapping[str, Fraction], coups: int | None, level: Fraction
) -> FamilyResult:
    """Chi-square goodness of fit of one family's observed ``counts`` to exact ``probs``.

    Categories absent from ``counts`` are merged into ``other`` when ``coups`` is known (their
    count is ``coups`` minus the counts given).

    Raises:
        ObservedError: categories are missing and ``coups`` is unknown, the counts exceed
            ``coups``, or there are no observations.
    """
    given = dict(counts)
    missing = [c for c in probs if c not in given]
    cats: list[tuple[str, Fraction, int]] = [(c, probs[c], given[c]) for c in probs if c in given]
    if missing:
        if coups is None:
            raise ObservedError(
                f"family {family} lacks categories {', '.join(missing)}: give their counts, "
                "or the total number of coups ('coups') to test the rest as 'other'"
            )
        rest = coups - sum(given.values())
        if rest < 0:
            raise ObservedError(
                f"family {family} counts {sum(given.values())} coups, more than coups = {coups}"
            )
        cats.append((OTHER, sum((probs[c] for c in missing), Fraction(0)), rest))
    elif coups is not None and sum(given.values()) != coups:
        raise ObservedError(f"family {family} counts {sum(given.values())} coups, but coups = {coups}")
    n = sum(o for _, _, o in cats)
    if n == 0:
        raise ObservedError(f"family {family} has no observations")
    rows = tuple(CategoryRow(c, p, o, n) for c, p, o in cats)
    impossible = tuple(r.category for r in rows if r.probability == 0 and r.observed > 0)
    live = [r for r in rows if r.probability > 0]
    stat = sum(((r.observed - r.expected_count) ** 2 / r.expected_count for r in live), Fraction(0))
    g = 2 * sum(r.observed * math.log(r.observed / float(r.expected_count)) for r in live if r.observed)
    df = len(live) - 1
    p_value = 0.0 if impossible else (_chi2_sf(float(stat), df) if df > 0 else 1.0)
    return FamilyResult(family, rows, n, stat, df, p_value, level, impossible, g)


def conform(
    observed: Observed,
    shoe: Shoe,
    alpha: Fraction = DEFAULT_ALPHA,
    families: Sequence[str] | None = None,
    tableau: Tableau = STANDARD,
    *,
    against: Sequence[Tableau] = (),
    effect: Fraction = DEFAULT_EFFECT,
    power: Fraction = DEFAULT_POWER,
) -> Conformance:
    """Test every observed family (or those named) against the exact probabilities for ``shoe``
    under ``tableau``; for a hand log, check every decision cell against ``tableau``.

    The power of each test is computed against each alternative tableau of ``against`` (the
    exact distributions under both tableaux, :mod:`analyzer.checks.power`), or, when none is
    given, against an effect of Cohen's w = ``effect``; ``power`` is the power aimed at.
    A ``bet:NAME`` family is tested with the bet its counts were read with
    (``observed.file_bets``, else the catalogue's).

    Raises:
        ObservedError: nothing to test, an unknown family, alpha or power outside (0, 1), an
            effect not above 0, or a shoe of fewer than 6 cards (coups could run out mid-coup).
    """
    if not isinstance(observed, Observed):
        raise ObservedError(f"bad observed counts {show(observed)}: give an Observed (read_observed)")
    if not isinstance(shoe, Shoe):
        raise ObservedError(f"bad shoe {show(shoe)}: give a Shoe (e.g. Shoe.standard(8))")
    if isinstance(alpha, bool) or not isinstance(alpha, int | Fraction):
        raise ObservedError(f"bad significance level {show(alpha)}: give a Fraction (parse_alpha)")
    if not 0 < alpha < 1:
        raise ObservedError(f"bad significance level {show(alpha)}: use a number between 0 and 1, e.g. 0.01")
    if families is not None and (isinstance(families, str) or not isinstance(families, Iterable)):
        raise ObservedError(f"bad families {show(families)}: give a list of family names")
    if shoe.size < 6:
        raise ObservedError(f"a shoe of {shoe.size} cards can run out mid-coup: conform needs at least 6")
    known = observed.file_bets
    names = (
        list(observed.families)
        if families is None
        else [normalise(f, _any_category(f), "", known)[0] for f in families]
    )
    for i, name in enumerate(names):
        if name in names[:i]:
            raise ObservedError(
                f"family {name} is named twice: name each family once (the "
                "Bonferroni correction counts the families tested)"
            )
    for name in names:
        if name not in observed.families:
            raise ObservedError(
                f"family {name!r} is not in the observed counts: "
                f"they have {', '.join(observed.families) or 'none'}"
            )
    if not names:
        raise ObservedError("no observed counts to test: give at least one family, e.g. winner")
    if isinstance(against, str) or not isinstance(against, Iterable):
        raise ObservedError(f"bad alternatives {show(against)}: give a list of Tableau objects")
    alternatives = list(against)
    for alt in alternatives:
        if not isinstance(alt, Tableau):
            raise ObservedError(f"bad alternative {show(alt)}: give a Tableau (e.g. find_tableau(NAME))")
    if isinstance(effect, bool) or not isinstance(effect, int | Fraction) or effect <= 0:
        raise ObservedError(f"bad effect size {show(effect)}: give Cohen's w as a number above 0, e.g. 0.01")
    if isinstance(power, bool) or not isinstance(power, int | Fraction) or not 0 < power < 1:
        raise ObservedError(f"bad power {show(power)}: use a number between 0 and 1, e.g. 0.9")
    pricer = Pricer(shoe, tableau)
    left = observed.left_out
    tested = [name for name in names if name not in left or not left[name].count]
    level = alpha / max(len(tested), 1)
    if power <= level:
        raise ObservedError(
            f"power {alpha_text(power)} must exceed the significance level {alpha_text(level)}"
        )
    results = tuple(
        _fit(name, observed.families[name], expected(name, pricer, known), observed.coups, level)
        for name in tested
    )
    void = tuple(_void(name, left[name], observed.coups) for name in names if name not in tested)
    decisions = check_decisions(observed.decisions, tableau) if observed.decisions is not None else None
    rows = _power_rows(results, pricer, alternatives, effect, power, level, decisions)
    return Conformance(
        shoe,
        alpha,
        results,
        observed.cut_card,
        decisions,
        rows,
        power,
        tableau,
        void,
        observed.claims,
        observed.diagnosis,
    )


def _void(name: str, left: LeftOut, coups: int | None) -> VoidFamily:
    total = coups if coups is not None else left.count
    return VoidFamily(
        name,
        total,
        left.count,
        tuple(left.reasons.items()),
        tuple(left.lines),
        BET_NEEDS if name.startswith("bet:") else FAMILY_NEEDS.get(name, BET_NEEDS),
    )


def _fit(
    name: str, counts: Mapping[str, int], probs: Mapping[str, Fraction], coups: int | None, level: Fraction
) -> FamilyResult:
    """:func:`fit_family`; for a cell family, without the cells that are impossible under the
    tableau and not observed (most of the 111 Banker categories)."""
    if name in CELL_FAMILIES:
        probs = {c: p for c, p in probs.items() if p > 0 or counts.get(c, 0) > 0}
        counts = {c: n for c, n in counts.items() if c in probs}
    return fit_family(name, counts, probs, coups, level)


def _as_tested(result: FamilyResult, full: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """A family's probabilities ``full`` (every category) grouped as ``result`` tested them:
    its categories, the missing ones merged into ``other``; categories it left out as
    impossible under the null (cell families) kept apart, so they count as impossible."""
    cats = [r.category for r in result.rows]
    out = {c: full.get(c, Fraction(0)) for c in cats if c != OTHER}
    rest = {c: q for c, q in full.items() if c not in out}
    if OTHER in cats:
        out[OTHER] = sum(rest.values(), Fraction(0))
    else:
        out.update(rest)
    return out


def _power_rows(
    results: Sequence[FamilyResult],
    pricer: Pricer,
    against: Sequence[Tableau],
    effect: Fraction,
    power: Fraction,
    level: Fraction,
    decisions: DecisionCheck | None,
) -> tuple[PowerRow, ...]:
    rows: list[PowerRow] = []
    null_cells = pricer.distribution(CELL_READS)
    n_log = decisions.coups if decisions is not None else 0
    if not against:
        label = f"w = {alpha_text(effect)}"
        for res in results:
            fp = effect_power(res.df, effect, level, res.n, power) if res.df > 0 else None
            rows.append(
                PowerRow(
                    res.family,
                    label,
                    res.df,
                    float(effect),
                    fp.coups if fp else None,
                    res.n,
                    fp.power_at_n_float if fp else 0.0,
                )
            )
        if decisions is not None:
            rarest = rarest_cell(
                cell_probabilities(null_cells.records, null_cells.counts, null_cells.denominator)
            )
            if rarest is not None:
                cell, p = rarest
                rows.append(
                    PowerRow(
                        "decisions",
                        "any one cell changed",
                        None,
                        None,
                        coups_to_see(p, power),
                        n_log,
                        chance_to_see(p, n_log),
                        f"worst case: the rarest cell, {cell.label}, reached with probability "
                        f"about {float(p):.3g} per coup",
                    )
                )
        return tuple(rows)
    for alt in against:
        other = Pricer(pricer.shoe, alt)
        for res in results:
            null = {r.category: r.probability for r in res.rows}
            alt_probs = _as_tested(res, expected(res.family, other))
            w2 = effect_size_squared(null, alt_probs)
            fp = family_power(res.df, w2, impossible_mass(null, alt_probs), level, res.n, power)
            rows.append(
                PowerRow(res.family, alt.name, res.df, fp.w_float, fp.coups, res.n, fp.power_at_n_float)
            )
        if decisions is not None:
            cells = other.distribution(CELL_READS)
            r = contradiction_probability(cells.records, cells.counts, cells.denominator, pricer.tableau)
            rows.append(
                PowerRow(
                    "decisions",
                    alt.name,
                    None,
                    None,
                    coups_to_see(r, power),
                    n_log,
                    chance_to_see(r, n_log),
                    f"a coup through a cell where the two tableaux differ: probability about "
                    f"{float(r):.3g} per coup"
                    if r
                    else "the two tableaux deal every coup alike",
                )
            )
    return tuple(rows)


def _any_category(family: str) -> str:
    if not isinstance(family, str):
        return "?"  # normalise() rejects the family, naming it
    fam = family.strip().lower().replace("-", "_")
    return "win" if fam.startswith("bet:") else KNOWN_FAMILIES.get(fam, ("?",))[0]


def alpha_text(x: Fraction) -> str:
    """An exact level as text (``1/100``), with its decimal beside a fraction that needs one."""

    text = amount_text(x)
    return text if "/" not in text else f"{text} (about {round_fraction(x, 6)})"


def parse_alpha(text: str) -> Fraction:
    """A significance level from text (``0.01``, ``1/100``, ``1%``), exactly.

    Raises:
        ObservedError: not a number strictly between 0 and 1.
    """
    if not isinstance(text, str):
        raise ObservedError(f"bad significance level {show(text)}: give it as text such as '0.01'")
    raw = text.strip()
    try:
        value = (
            parse_exact(raw[:-1], "significance level") / 100
            if raw.endswith("%")
            else parse_exact(raw, "significance level")
        )
    except AnalyzerError:
        raise ObservedError(
            f"bad significance level {show(text)}: use a number between 0 and 1, "
            f"e.g. 0.01, 1/100 or 1% ({LIMITS_WORDS})"
        ) from None
    if not 0 < value < 1:
        raise ObservedError(f"bad significance level {show(text)}: use a number between 0 and 1, e.g. 0.01")
    return value


__all__ = [
    "BET_CATEGORIES",
    "BET_NEEDS",
    "CLAIM_FIELDS",
    "CUT_CARD_NOTE",
    "DEFAULT_ALPHA",
    "FAMILIES",
    "FAMILY_NEEDS",
    "CategoryRow",
    "ClaimCheck",
    "ClaimRow",
    "Conformance",
    "FamilyResult",
    "LeftOut",
    "Observed",
    "ObservedError",
    "VoidFamily",
    "alpha_text",
    "claims_summary",
    "conform",
    "expected",
    "first_cards",
    "fit_family",
    "normalise",
    "observed_kind",
    "outside_rules",
    "parse_alpha",
    "read_counts_csv",
    "read_counts_json",
    "read_observed",
    "tally_log",
]
