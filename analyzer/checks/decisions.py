"""The tableau's decision cells, tallied from a hand log: a coup the tableau would have dealt
differently is a rule bug found at once, whatever the significance level.

A *decision cell* is one entry of the table of play (RULES.md, "Tableau"):

* ``natural``: either two-card total is a natural; both hands stand;
* Player cell ``t``: no natural and the Player's two-card total is ``t`` (0-9): draw or stand;
* Banker cell ``b/v``: no natural, the Banker's two-card total is ``b`` and the Player's third
  card has point value ``v`` (0-9), or ``b/stood`` when the Player took no third card.

Each coup of a log passes through the natural cell, or through one Player cell and one Banker
cell (judged on the hands as the engine dealt them, as ``verify`` does).  A :class:`DecisionLog`
keeps, per coup, only its *value coup* ``(p2, b2, p3, b3)``: the two-card totals and the point
values of the third cards (``None`` when a side stood), with the first line numbers of each.
That is enough to judge the coups against any tableau (:func:`check_decisions`), to rank several
(:mod:`analyzer.checks.compare`), and to find each coup's cell.

Logs that give only the cards (no hands): a coup of 4 or 6 cards says who drew; a coup of 5
cards does not say whose the fifth card is.  Such a coup is kept as ``(p2, b2, c5)`` and
attributed under each tableau judged (:func:`attribute`), as ``verify`` does: to the Player if
the tableau has the Player draw, else to the Banker if it has the Banker draw (or on a natural,
where any fifth card contradicts); otherwise the coup contradicts the tableau in the cell
"fifth card where both stand".  Claimed totals that fit exactly one attribution settle it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from analyzer.core.cards import Card
from analyzer.core.coup import Coup
from analyzer.core.reads import BASE_FIELDS, Reads
from analyzer.core.tableau import TOTALS, Tableau

#: A coup by value: (Player two-card total, Banker two-card total, point value of the Player's
#: third card or None, point value of the Banker's third card or None).
ValueCoup = tuple[int, int, int | None, int | None]
#: A coup of five cards whose fifth card the log does not attribute: (p2, b2, its point value).
OpenCoup = tuple[int, int, int]
#: Line numbers kept per kind of coup (the first ones met), for reports.
MAX_LINES = 5

#: What the cell families and the comparisons read of a coup: everything at value level (every
#: base field of the record, no card).
CELL_READS = Reads.of(BASE_FIELDS)

NATURAL = "natural"
STOOD = "stood"
#: The categories of the two cell families (tableau-free: a category whose probability is 0
#: under the tableau tested is impossible there, e.g. Player cell 8 under the standard rules).
PLAYER_CELLS: tuple[str, ...] = (NATURAL, *(str(t) for t in TOTALS))
BANKER_CELLS: tuple[str, ...] = (
    NATURAL,
    *(f"{b}/{v}" for b in TOTALS for v in (STOOD, *map(str, TOTALS))),
)


@dataclass(frozen=True)
class Cell:
    """One decision cell: ``kind`` is ``"natural"``, ``"player"``, ``"banker"`` or ``"fifth"``
    (a fifth card the log does not attribute, where the tableau has both hands stand);
    ``total`` the deciding side's two-card total (the Player's for ``player``, the Banker's for
    ``banker``; for ``fifth`` the Player's, with the Banker's in ``third``); ``third`` the
    point value of the Player's third card for a Banker cell (``None``: the Player stood)."""

    kind: str
    total: int = 0
    third: int | None = None

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Natural first, then Player cells by total, then Banker cells by total (stood first)."""
        order = {"natural": 0, "player": 1, "banker": 2, "fifth": 3}[self.kind]
        return (order, self.total, -1 if self.third is None else self.third)

    @property
    def label(self) -> str:
        """The cell in words, e.g. ``"Banker on 6, Player's third card 5"``."""
        if self.kind == "natural":
            return "Natural (either side)"
        if self.kind == "player":
            return f"Player on {self.total}"
        if self.kind == "fifth":
            return f"Fifth card, Player on {self.total} and Banker on {self.third}"
        if self.third is None:
            return f"Banker on {self.total}, Player stood"
        return f"Banker on {self.total}, Player's third card {self.third}"

    def rule(self, tableau: Tableau) -> str:
        """The tableau's rule for this cell, as a sentence."""
        if self.kind == "natural":
            return "a natural: both hands stand"
        if self.kind == "player":
            return tableau.player_rule_text(self.total)
        if self.kind == "fifth":
            assert self.third is not None
            return (
                f"{tableau.player_rule_text(self.total)} and "
                f"{tableau.banker_rule_text(self.third, None)}: four cards"
            )
        return tableau.banker_rule_text(self.total, self.third)


NATURAL_CELL = Cell("natural")


def player_cell_of(coup: Coup) -> str:
    """The ``player_cell`` category of a coup record (reads naturals and the Player's two-card
    total)."""
    return NATURAL if coup.natural else str(coup.player_two_card_total)


def banker_cell_of(coup: Coup) -> str:
    """The ``banker_cell`` category of a coup record: ``natural``, or ``b/v`` / ``b/stood``."""
    if coup.natural:
        return NATURAL
    third = coup.player_third
    return f"{coup.banker_two_card_total}/{STOOD if third is None else third}"


def value_coup(coup: Coup) -> ValueCoup:
    """The value coup of a coup record (two-card totals, third-card point values)."""
    return (coup.player_two_card_total, coup.banker_two_card_total, coup.player_third, coup.banker_third)


def judge(key: ValueCoup, tableau: Tableau) -> tuple[tuple[Cell, bool, bool], ...]:
    """The cells a value coup passes through under ``tableau``, each as (cell, drew, should draw).

    >>> from analyzer.core.tableau import STANDARD
    >>> [(c.label, drew, should) for c, drew, should in judge((5, 6, 5, 0), STANDARD)]
    [('Player on 5', True, True), ("Banker on 6, Player's third card 5", True, False)]
    """
    p2, b2, p3, b3 = key
    if tableau.decided_by_naturals(p2, b2):  # one cell: both hands stand
        return ((NATURAL_CELL, p3 is not None or b3 is not None, False),)
    return (
        (Cell("player", p2), p3 is not None, tableau.player_draws_third(p2, b2)),
        (Cell("banker", b2, p3), b3 is not None, tableau.banker_draws_third(p2, b2, p3)),
    )


def attribute(coup: OpenCoup, tableau: Tableau) -> ValueCoup | None:
    """Whose is the fifth card of a five-card coup given by its cards only, under ``tableau``:
    the Player's if it draws, else the Banker's if it draws when the Player stood (or on a
    natural); ``None`` when the tableau has both hands stand (the coup contradicts it)."""
    p2, b2, c5 = coup
    if tableau.player_draws_third(p2, b2):
        return (p2, b2, c5, None)
    if tableau.decided_by_naturals(p2, b2) or tableau.banker_draws_third(p2, b2, None):
        return (p2, b2, None, c5)
    return None


def contradicts(key: ValueCoup, tableau: Tableau) -> bool:
    """True when ``tableau`` would have dealt the value coup differently."""
    return any(drew != should for _, drew, should in judge(key, tableau))


@dataclass
class DecisionLog:
    """The coups of a hand log by value (see the module docstring).

    ``coups[key]`` counts the coups of each value coup, ``open_coups[key]`` the five-card coups
    whose fifth card the log does not attribute, ``malformed`` the coups no tableau can deal (not
    4-6 cards, hands that are not the cards in dealing order: ``verify`` names the fault);
    ``lines`` holds the first :data:`MAX_LINES` line numbers of each key.
    """

    coups: dict[ValueCoup, int] = field(default_factory=dict)
    open_coups: dict[OpenCoup, int] = field(default_factory=dict)
    malformed: int = 0
    lines: dict[object, list[int]] = field(default_factory=dict)
    malformed_lines: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Coups in the log (malformed ones included)."""
        return sum(self.coups.values()) + sum(self.open_coups.values()) + self.malformed

    def _line(self, key: object, line: int) -> None:
        kept = self.lines.setdefault(key, [])
        if len(kept) < MAX_LINES:
            kept.append(line)

    def add(self, key: ValueCoup, line: int) -> None:
        """Count one coup of value ``key``, met on ``line``."""
        self.coups[key] = self.coups.get(key, 0) + 1
        self._line(key, line)

    def add_open(self, key: OpenCoup, line: int) -> None:
        """Count one five-card coup whose fifth card the log does not attribute."""
        self.open_coups[key] = self.open_coups.get(key, 0) + 1
        self._line(("open", *key), line)

    def add_malformed(self, line: int) -> None:
        """Count one coup that no tableau deals."""
        self.malformed += 1
        if len(self.malformed_lines) < MAX_LINES:
            self.malformed_lines.append(line)

    def add_record(
        self,
        cards: tuple[Card, ...] | None,
        hands_given: bool,
        claimed: tuple[int | None, int | None],
        coup: Coup | None,
        line: int,
    ) -> None:
        """Count one coup of a log: ``cards`` in dealing order (or ``None`` when the log gives the
        hands only), whether it gives the hands, its claimed (Player, Banker) totals, and the coup
        as the verifier read it (``None`` when it could not)."""
        if not hands_given and cards is not None and len(cards) == 5:
            p2 = (cards[0].point + cards[2].point) % 10
            b2 = (cards[1].point + cards[3].point) % 10
            c5 = cards[4].point
            fits = [
                key
                for key in ((p2, b2, c5, None), (p2, b2, None, c5))
                if claimed[0] in (None, (p2 + (key[2] or 0)) % 10)
                and claimed[1] in (None, (b2 + (key[3] or 0)) % 10)
            ]
            if claimed != (None, None) and len(fits) == 1:
                self.add(fits[0], line)
            else:
                self.add_open((p2, b2, c5), line)
        elif coup is not None:
            self.add(value_coup(coup), line)
        else:
            self.add_malformed(line)

    def resolved(self, tableau: Tableau) -> Resolved:
        """The coups as ``tableau`` reads them (open coups attributed by :func:`attribute`)."""
        coups = dict(self.coups)
        lines: dict[ValueCoup, list[int]] = {k: list(self.lines.get(k, [])) for k in self.coups}
        stuck: dict[Cell, int] = {}
        stuck_lines: dict[Cell, list[int]] = {}
        for key, n in self.open_coups.items():
            got = attribute(key, tableau)
            where = self.lines.get(("open", *key), [])
            if got is None:
                cell = Cell("fifth", key[0], key[1])
                stuck[cell] = stuck.get(cell, 0) + n
                stuck_lines.setdefault(cell, []).extend(where)
            else:
                coups[got] = coups.get(got, 0) + n
                lines.setdefault(got, []).extend(where)
        return Resolved(coups, lines, stuck, stuck_lines)


@dataclass(frozen=True)
class Resolved:
    """A :class:`DecisionLog` read under one tableau: ``coups`` (value coups with their counts
    and ``lines``), and the five-card coups it cannot attribute (``stuck``, by their cell, with
    ``stuck_lines``)."""

    coups: dict[ValueCoup, int]
    lines: dict[ValueCoup, list[int]]
    stuck: dict[Cell, int]
    stuck_lines: dict[Cell, list[int]]


@dataclass(frozen=True)
class CellRow:
    """One decision cell of a log: coups that ``drew`` / ``stood`` there, whether the tableau
    has that side draw (``should_draw``), the coups contradicting it and their first lines."""

    cell: Cell
    drew: int
    stood: int
    should_draw: bool
    contradicting: int
    lines: tuple[int, ...]

    @property
    def mixed(self) -> bool:
        """True when the engine drew on some coups of this cell and stood on others: its choice
        there is decided by something else than the cell (its rule reads more than the cell)."""
        return self.drew > 0 and self.stood > 0


@dataclass(frozen=True)
class DecisionCheck:
    """A log's decision cells against one tableau.

    ``rows`` are the cells the log reaches, in table order; ``contradicting`` counts coups (each
    once, though it may break two cells), ``malformed`` the coups no tableau deals.
    """

    tableau: Tableau
    rows: tuple[CellRow, ...]
    coups: int
    contradicting: int
    malformed: int
    malformed_lines: tuple[int, ...]

    @property
    def passed(self) -> bool:
        """True when no coup contradicts the tableau (and none is malformed)."""
        return not self.contradicting and not self.malformed

    @property
    def broken(self) -> tuple[CellRow, ...]:
        """The cells with contradicting coups, the one met first in the log first."""
        rows = [r for r in self.rows if r.contradicting]
        return tuple(sorted(rows, key=lambda r: (r.lines[0] if r.lines else 0, r.cell.sort_key)))

    @property
    def mixed(self) -> tuple[CellRow, ...]:
        """The cells where the engine both drew and stood (:attr:`CellRow.mixed`), in table
        order."""
        return tuple(r for r in self.rows if r.mixed)

    @property
    def first_line(self) -> int | None:
        """The first line of a contradicting (or malformed) coup, if any."""
        found = [r.lines[0] for r in self.rows if r.contradicting and r.lines]
        found += list(self.malformed_lines[:1])
        return min(found) if found else None


def check_decisions(log: DecisionLog, tableau: Tableau) -> DecisionCheck:
    """Tally every decision cell of ``log`` under ``tableau``: draws, stands, contradictions.

    Deterministic: a single coup that ``tableau`` would have dealt otherwise is a failure,
    whatever the significance level of the frequency tests.
    """
    read = log.resolved(tableau)
    drew: dict[Cell, int] = {}
    stood: dict[Cell, int] = {}
    should: dict[Cell, bool] = {}
    bad: dict[Cell, int] = {}
    bad_lines: dict[Cell, list[int]] = {}
    contradicting = 0
    for key, n in read.coups.items():
        broke = False
        for cell, d, s in judge(key, tableau):
            should[cell] = s
            (drew if d else stood)[cell] = (drew if d else stood).get(cell, 0) + n
            if d != s:
                broke = True
                bad[cell] = bad.get(cell, 0) + n
                bad_lines.setdefault(cell, []).extend(read.lines.get(key, []))
        contradicting += n if broke else 0
    for cell, n in read.stuck.items():
        should[cell] = False
        drew[cell] = drew.get(cell, 0) + n
        bad[cell] = bad.get(cell, 0) + n
        bad_lines.setdefault(cell, []).extend(read.stuck_lines.get(cell, []))
        contradicting += n
    rows = tuple(
        CellRow(
            cell,
            drew.get(cell, 0),
            stood.get(cell, 0),
            should[cell],
            bad.get(cell, 0),
            tuple(sorted(bad_lines.get(cell, []))[:MAX_LINES]),
        )
        for cell in sorted(should, key=lambda c: c.sort_key)
    )
    return DecisionCheck(tableau, rows, log.total, contradicting, log.malformed, tuple(log.malformed_lines))


def cell_probabilities(
    records: Iterable[Coup], counts: Iterable[int], denominator: int
) -> dict[Cell, Fraction]:
    """Exact probability per coup of reaching each Player and Banker cell (and the natural cell),
    from an engine distribution read at :data:`CELL_READS`."""
    out: dict[Cell, int] = {}
    for rec, c in zip(records, counts, strict=True):
        if not c:
            continue
        if rec.natural:
            out[NATURAL_CELL] = out.get(NATURAL_CELL, 0) + c
            continue
        for cell in (
            Cell("player", rec.player_two_card_total),
            Cell("banker", rec.banker_two_card_total, rec.player_third),
        ):
            out[cell] = out.get(cell, 0) + c
    return {cell: Fraction(n, denominator) for cell, n in out.items()}


def contradiction_probability(
    records: Iterable[Coup], counts: Iterable[int], denominator: int, tableau: Tableau
) -> Fraction:
    """Exact probability per coup that a coup dealt by the distribution's own rules contradicts
    ``tableau`` (records read at :data:`CELL_READS`)."""
    hits = sum(
        c for rec, c in zip(records, counts, strict=True) if c and contradicts(value_coup(rec), tableau)
    )
    return Fraction(hits, denominator)


def lines_text(lines: Iterable[int], more: bool = False) -> str:
    """``"lines 3, 9, 12"`` (``"line 3"``; ``"-"`` for none), ``" and more"`` when more were
    not kept.

    >>> lines_text([3, 9], more=True)
    'lines 3, 9 and more'
    """
    got = list(lines)
    if not got:
        return "-"
    head = "line " if len(got) == 1 else "lines "
    return head + ", ".join(map(str, got)) + (" and more" if more else "")


#: What an engine's choice in a cell of each kind may read besides the cell, for the reports.
_READS_MORE = {
    "natural": "which side has the natural, or its total",
    "player": "the Banker's cards or total",
    "banker": "the Player's total or cards",
    "fifth": "the cards",
}


def mixed_text(row: CellRow) -> str:
    """Why a cell with both draws and stands fails, naming the cell and the counts.

    >>> row = CellRow(Cell("banker", 6, 4), drew=12, stood=30, should_draw=False, contradicting=12, lines=())
    >>> mixed_text(row)  # doctest: +NORMALIZE_WHITESPACE
    "Banker on 6, Player's third card 4: drew on 12 coups and stood on 30: decided by something
    else than the cell (the engine's rule there reads more, such as the Player's total or cards)"
    """
    return (
        f"{row.cell.label}: drew on {row.drew:,} coup{'s' if row.drew != 1 else ''} and stood on "
        f"{row.stood:,}: decided by something else than the cell (the engine's rule there reads "
        f"more, such as {_READS_MORE[row.cell.kind]})"
    )


def decisions_summary(check: DecisionCheck) -> str:
    """One sentence: how many coups contradict the tableau and where first, or that none do."""
    if check.passed:
        return (
            f"Decision cells: all {check.coups:,} coups follow the tableau ({check.tableau.name}) "
            f"in every cell reached ({len(check.rows)} cells)."
        )
    parts = []
    if check.contradicting:
        worst = check.broken[0]
        verb = "drew" if not worst.should_draw else "stood"
        parts.append(
            f"{check.contradicting:,} coup{'s' if check.contradicting != 1 else ''} contradict the "
            f"tableau ({check.tableau.name}); first: {worst.cell.label}: {worst.cell.rule(check.tableau)}, "
            f"but {verb} on {lines_text(worst.lines, worst.contradicting > len(worst.lines))}"
        )
        if len(check.broken) > 1:
            others = ", ".join(r.cell.label for r in check.broken[1:4])
            parts.append(
                f"also {others}"
                + (f" and {len(check.broken) - 4} more cells" if len(check.broken) > 4 else "")
            )
        mixed = check.mixed
        if mixed:
            parts.append(
                "; ".join(mixed_text(r) for r in mixed[:3])
                + (f"; and {len(mixed) - 3} more such cells" if len(mixed) > 3 else "")
            )
    if check.malformed:
        parts.append(
            f"{check.malformed:,} coup{'s' if check.malformed != 1 else ''} no tableau deals "
            f"({lines_text(check.malformed_lines, check.malformed > len(check.malformed_lines))}; "
            "run verify for the fault)"
        )
    return "Decision cells: FAIL: " + "; ".join(parts) + "."


def rarest_cell(probabilities: Mapping[Cell, Fraction]) -> tuple[Cell, Fraction] | None:
    """The reachable Player or Banker cell of smallest probability, with its probability."""
    cells = [(c, p) for c, p in probabilities.items() if p > 0 and c.kind in ("player", "banker")]
    if not cells:
        return None
    return min(cells, key=lambda cp: (cp[1], cp[0].sort_key))


__all__ = [
    "BANKER_CELLS",
    "CELL_READS",
    "MAX_LINES",
    "NATURAL",
    "PLAYER_CELLS",
    "STOOD",
    "Cell",
    "CellRow",
    "DecisionCheck",
    "DecisionLog",
    "OpenCoup",
    "Resolved",
    "ValueCoup",
    "attribute",
    "banker_cell_of",
    "cell_probabilities",
    "check_decisions",
    "contradiction_probability",
    "contradicts",
    "decisions_summary",
    "judge",
    "lines_text",
    "mixed_text",
    "player_cell_of",
    "rarest_cell",
    "value_coup",
]
