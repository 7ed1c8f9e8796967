"""The named bet catalogue: main bets, the rule-sheet pay tables, and common side bets.

Every entry is data, in ``analyzer/bets/catalogue.toml`` (read on first use, one entry at a
time): its name and aliases, its summary and parameter, its provenance (source, grade,
published figure, golden test) and, for a bet the bet-file language can say, its pay lines in
that language, read by the bet files' own parser (:func:`analyzer.bets.files.read_catalogue`);
such an entry may take a pay (``NAME:PAY``), another pay table (``NAME:TABLE``) or the other
side (``NAME:banker``).  A bet the language cannot say (a parameter that is a set of tie
totals, a list of pays, or a side with a version; progressive meters) names the Python
function that builds it, in a small module by family (:mod:`.families.first_two`,
:mod:`.families.first_four`, :mod:`.families.ties`, :mod:`.families.lucky_win`,
:mod:`.families.progressive`; the main bets in :mod:`.main`).  ``NAME:PARAM`` gives a
parameter (cf. python-chess ``find_variant``).  Pay tables follow RULES.md ("Pay tables in the
sheets", "Common casino variants and side bets").
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from analyzer.bets.files import CatalogueSpec, catalogue_bet, catalogue_side_bet, read_catalogue
from analyzer.bets.main import main_bets as _main_bets
from analyzer.bets.main import winning_pay as _pay
from analyzer.bets.model import Bet, PayLine
from analyzer.core.exact import fraction_text
from analyzer.core.tomltext import load_toml
from analyzer.errors import BetError

if TYPE_CHECKING:  # the families' modules load with the bets that need them
    from analyzer.bets.families.progressive import Meter

#: The catalogue's data file, beside this module.
DATA_FILE = Path(__file__).with_name("catalogue.toml")
#: The golden counts: figures sources print, cited (:func:`golden_counts`).
GOLDEN_FILE = Path(__file__).with_name("golden-counts.toml")
_WHERE = "analyzer/bets/catalogue.toml"


# -- provenance: what each figure rests on ---------------------------------------------------------


class Grade(enum.Enum):
    """How far a catalogue bet's figures can be trusted, by what its source gives.

    ``REPRODUCED``: a published figure (house edge, return table) is reproduced exactly, and a
    golden test pins it; ``RULES``: the rules are published (by the game's owner, a casino or a
    game-math author) but no figure to check against; ``READING``: our reading of an unpublished
    or ambiguous rule (the rules text says which); ``WEAK``: the rules come from a weak source
    only (a question-and-answer file, a blog), no better one was found.
    """

    REPRODUCED = "reproduced"
    RULES = "rules-only"
    READING = "our-reading"
    WEAK = "weak-source"

    @property
    def label(self) -> str:
        """The grade in words, as tables show it."""
        return _GRADE_LABELS[self]


_GRADE_LABELS = {
    Grade.REPRODUCED: "published figure reproduced",
    Grade.RULES: "rules published, no figure",
    Grade.READING: "our reading of an unpublished or ambiguous rule",
    Grade.WEAK: "weak source (rules from a secondary page only)",
}


@dataclass(frozen=True)
class Provenance:
    """What a catalogue bet's figures rest on.

    Attributes:
        grade: the :class:`Grade`.
        source: where the rules and any figure come from (author, title, address).
        figure: the published figure the engine reproduces, as published ("house edge 7.6113%,
            8 decks"); empty unless the grade is ``REPRODUCED``.
        test: the golden test that pins the figure (``tests/FILE.py::test_name``).
        caveat: why a figure looks odd (a player edge, a house edge above 50%) or what the
            reading assumes; shown under tables that print such a row.
    """

    grade: Grade
    source: str
    figure: str = ""
    test: str = ""
    caveat: str = ""



def pay_signature(bet: Bet) -> tuple[object, ...]:
    """What a bet pays on what: two bets with one signature are the same bet (``tie`` and
    ``tie:8``)."""
    return (tuple((ln.event, ln.pays) for ln in bet.lines), bet.otherwise, bet.reads)


def provenance(bet: Bet) -> Provenance | None:
    """What a catalogue bet's figures rest on (:class:`Provenance`), by its name and parameter;
    ``None`` for a bet that is not in the catalogue (a bet from a file, a payout function).

    A parameter no source publishes (``tie:12``, ``dragon-7:45``) keeps the rules' source but
    not the figure: grade ``RULES`` (or the default's grade when that is weaker), with a caveat
    saying so.

    >>> provenance(find_bet("dragon-7")).grade, provenance(find_bet("dragon-7:45")).grade
    (<Grade.REPRODUCED: 'reproduced'>, <Grade.RULES: 'rules-only'>)
    """
    name, sep, param = bet.name.partition(":")
    entry = _entry(name)
    if entry is None or not entry.provenance:
        return None
    known = entry.provenance
    key = _key(param) if sep else ""
    if key in known:
        return known[key]
    side, _, version = key.partition(",")
    if side in ("player", "banker", "p", "b") and (version or "") in known:
        return known[version or ""]  # the other side of a one-side bet: the same rules and figures
    mine = pay_signature(bet)  # a parameter that spells a published one (tie:8, lucky-nines:red-rock)
    published: list[tuple[str, Provenance]] = list(known.items())
    if name == "egalite":  # each total at its own pay, and the published groupings, share one source
        published = [(f"{t}", known[""]) for t in range(10)]
        from analyzer.bets.families.ties import EGALITE_GROUPS  # lazy: start-up time

        published += [(f"{g}@{p}", known[""]) for g, p in EGALITE_GROUPS.items()]
    for known_key, known_provenance in published:
        if pay_signature(entry.make(known_key or None)) == mine:
            return known_provenance
    default = known[""]
    grade = default.grade if default.grade in (Grade.READING, Grade.WEAK) else Grade.RULES
    return Provenance(grade, default.source,
                      caveat=f"the parameter {param!r} sets a pay table no source publishes: no figure to "
                             "check against" + (f"; {default.caveat}" if default.caveat else ""))

# -- the registry -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A catalogue entry: ``make(param)`` builds the bet; ``param`` documents the parameter;
    ``meters(param)``, for a bet with progressive meters, describes them (see
    :func:`meter_line`); ``provenance`` holds what the figures of the default parameters ("")
    and of each published parameter rest on (see :func:`provenance`); ``pay_table_names`` the
    names sources give its pay tables (:class:`PayTableName`)."""

    name: str
    make: Callable[[str | None], Bet]
    summary: str
    param: str = ""
    aliases: tuple[str, ...] = ()
    main: bool = False
    meters: Callable[[str | None], tuple[Meter, ...]] | None = field(default=None, compare=False)
    provenance: Mapping[str, Provenance] = field(default_factory=dict, compare=False)
    #: For a bet whose parameter sets its adjustable line's pay some other way than as the pay
    #: itself (Banker: a commission), the parameter giving a pay; ``None``: the parameter, when
    #: the bet takes one, is the pay as exact text (see :mod:`analyzer.bets.choice`).
    pay_param: Callable[[Fraction], str] | None = field(default=None, compare=False)
    pay_table_names: tuple[PayTableName, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class PayTableName:
    """A name a source gives one of a bet's pay tables, usable as that bet's parameter:
    ``NAME:ALIAS`` is ``NAME:PARAM`` (:func:`find_bet` resolves it; the bet is named with
    ``PARAM``).

    Attributes:
        alias: the name as a parameter (lower case, hyphenated), e.g. ``"macau"``.
        param: the catalogue parameter it stands for, e.g. ``"1"``.
        source: who uses the name and where (author, title, address), in their words.
    """

    alias: str
    param: str
    source: str


def _function(path: str) -> Callable[..., Any]:
    """The function ``"module:function"`` names (imported on first use)."""
    module, _, name = path.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return found


def _python(path: str) -> Callable[..., Any]:
    """A caller of ``"module:function"`` that imports the module when first called."""

    def call(*args: Any) -> Any:
        return _function(path)(*args)

    return call


def _data_maker(spec: CatalogueSpec) -> Callable[[str | None], Bet]:
    """``make(param)`` of an entry written in the bet-file language: its pay lines as the
    data file gives them (read on the first call), with the parameter's pay on the adjustable
    line (``{pay}`` in the title and rules is that pay), or another of its pay tables."""

    @functools.cache
    def base() -> Bet:
        return catalogue_bet(spec, _WHERE)

    @functools.cache
    def side(name: str) -> Bet:
        return catalogue_side_bet(spec, name, _WHERE)

    def make(param: str | None) -> Bet:
        bet = base()
        if spec.adjustable is not None:
            line = spec.adjustable
            pays = _pay(param, bet.lines[line].pays)
            lines = list(bet.lines)
            lines[line] = PayLine(lines[line].event, lines[line].when, pays)
            text = fraction_text(pays)
            return dataclasses.replace(
                bet,
                lines=tuple(lines),
                title=bet.title.replace("{pay}", text),
                rules=bet.rules.replace("{pay}", text),
            )
        if spec.sides is not None and param is not None:
            key = param.strip().lower()
            spelled = {name: name for name in (spec.default_side, *spec.sides)}
            spelled |= {name[0]: name for name in list(spelled)}  # a side by its first letter too
            if key not in spelled:
                listed = ", ".join(spelled)
                raise BetError(spec.refused.replace("{param}", repr(param)).replace("{tables}", listed))
            return bet if spelled[key] == spec.default_side else side(spelled[key])
        if spec.tables is None or param is None or param.strip().lower() == spec.default_table:
            return bet
        key = param.strip().lower()
        if key not in spec.tables:
            names = ", ".join([spec.default_table, *spec.tables])
            raise BetError(spec.refused.replace("{param}", repr(param)).replace("{tables}", names))
        table = spec.tables[key]
        return dataclasses.replace(
            bet,
            lines=tuple(PayLine(ln.event, ln.when, p) for ln, p in zip(bet.lines, table.pays, strict=True)),
            title=table.title or bet.title,
            source=table.source or bet.source,
            rules=table.rules or bet.rules,
        )

    return make


def _entry_of(spec: CatalogueSpec) -> Entry:
    published = spec.published or {}
    return Entry(
        name=spec.name,
        make=_python(spec.make) if spec.make else _data_maker(spec),
        summary=spec.summary,
        param=spec.param,
        aliases=spec.aliases,
        main=spec.main,
        meters=_python(spec.meters) if spec.meters else None,
        provenance={
            param: Provenance(Grade(p["grade"]), p["source"], p.get("figure", ""), p.get("test", ""),
                              p.get("caveat", ""))
            for param, p in published.items()
        },
        pay_param=_python(spec.pay_param) if spec.pay_param else None,
        pay_table_names=tuple(PayTableName(*n) for n in spec.pay_table_names),
    )


@functools.cache
def _index() -> tuple[tuple[str, ...], dict[str, int]]:
    """The data file cut into its entries' texts (each ``[[bet]]`` table), and each name and
    alias -> its entry's place: found from the lines ``name = "..."`` and ``aliases = [...]``
    alone, so that :func:`find_bet` parses only the entry it builds (a test holds the index to
    the parsed entries).

    Raises:
        BetError: a name or an alias listed twice (a broken install).
    """
    text = DATA_FILE.read_text(encoding="utf-8")
    blocks = tuple("[[bet]]" + part for part in text.split("\n[[bet]]")[1:])
    where: dict[str, int] = {}
    for i, block in enumerate(blocks):
        names = _NAME_LINE.findall(block)[:1] + [
            alias for line in _ALIASES_LINE.findall(block)[:1] for alias in json.loads(line)
        ]
        for label in names:
            if label in where:
                raise BetError(f"internal: the catalogue lists {label!r} twice")
            where[label] = i
    return blocks, where


_NAME_LINE = re.compile(r'^name = "([^"\\]+)"$', re.M)
_ALIASES_LINE = re.compile(r"^aliases = (\[.*\])$", re.M)


@functools.cache
def _entry_at(place: int) -> Entry:
    """The entry at ``place`` in the data file, read (by the bet files' parser) on first use."""
    (spec,) = read_catalogue(_index()[0][place], f"{_WHERE} (entry {place + 1})")
    return _entry_of(spec)


def entries() -> tuple[Entry, ...]:
    """Every catalogue entry, in the data file's order (each read once, on first use).

    Raises:
        BetError: the data file is malformed (a broken install): the message names the entry.
    """
    return tuple(_entry_at(i) for i in range(len(_index()[0])))


def __getattr__(name: str) -> Any:
    """The catalogue's tables, built from its data on first use: ``CATALOGUE`` (every entry),
    ``PROVENANCE`` (name -> parameter -> :class:`Provenance`), ``PAY_TABLE_NAMES`` (name ->
    its :class:`PayTableName` s)."""
    if name == "CATALOGUE":
        return entries()
    if name == "PROVENANCE":
        return {e.name: dict(e.provenance) for e in entries()}
    if name == "PAY_TABLE_NAMES":
        return {e.name: e.pay_table_names for e in entries() if e.pay_table_names}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pay_table_names(name: str) -> tuple[PayTableName, ...]:
    """The names of the pay tables of catalogue bet ``name`` (a name or an alias), or ``()``.

    >>> [(n.alias, n.param) for n in pay_table_names("tiger")][:2]
    [('stingy', '1'), ('liberal', '2')]
    """
    entry = _entry(name)
    return entry.pay_table_names if entry is not None else ()


def _param_of(entry: Entry, param: str) -> str:
    """``param``, or the parameter a pay-table name stands for (compared as names are)."""
    key = _key(param)
    for named in entry.pay_table_names:
        if named.alias == key:
            return named.param
    return param


def find_bet(spec: str) -> Bet:
    """The catalogue bet named by ``spec`` = ``NAME`` or ``NAME:PARAM`` (names and aliases are
    case-insensitive; ``_`` and spaces count as ``-``).  ``PARAM`` may be a name a source gives
    the pay table (:data:`PAY_TABLE_NAMES`: ``lucky-6:macau``); the bet is then named with the
    parameter it stands for (``lucky-6:1``), as an alias of a name gives the bet's name.

    Raises:
        BetError: unknown name (the message suggests the closest names, see
            :func:`suggestions`, or lists them all when none is close) or bad parameter.

    >>> find_bet("banker:4").title, find_bet("Tie:9").title
    ('Banker (4% commission)', 'Tie (9 to 1)')
    >>> find_bet("lucky-6:Las Vegas").name
    'lucky-6:2'

    A bet is a value: the same ``spec`` gives the same (frozen) object again, from a memory of
    at most :data:`FOUND_LIMIT` specs (each of at most :data:`FOUND_CHARS` characters), so a loop
    that looks a bet up each time costs no more than one that keeps it.
    """
    if not isinstance(spec, str):
        raise BetError(f"bad bet {spec!r}: give a catalogue name such as 'banker' or 'tie:9'")
    hit = _FOUND.get(spec)
    if hit is not None:
        return hit
    bet = _build(spec)
    if len(spec) <= FOUND_CHARS:
        if len(_FOUND) >= FOUND_LIMIT:
            _FOUND.clear()  # one step (threads looking up meanwhile see it whole or empty)
        _FOUND[spec] = bet
    return bet


#: How many specs :func:`find_bet` remembers, and how long each may be (a client may send any
#: parameter: the memory is bounded).
FOUND_LIMIT = 512
FOUND_CHARS = 200
_FOUND: dict[str, Bet] = {}


def _build(spec: str) -> Bet:
    """The bet of ``spec``, built (:func:`find_bet` without its memory)."""
    name, sep, param = spec.strip().partition(":")
    entry = _entry(name)
    if entry is None:
        close = suggestions(name)
        if close:  # the near names alone: a line of every name would bury them
            raise BetError(
                f"unknown bet {name!r}: did you mean {' or '.join(repr(n) for n in close)}? "
                f"(`punto-banco bets --list` lists all {len(entries())})"
            )
        raise BetError(f"unknown bet {name!r}: known bets are {', '.join(e.name for e in entries())}")
    if sep and not param.strip():
        raise BetError(f"bet {spec!r} has an empty parameter after ':'")
    if sep and not entry.param:
        raise BetError(f"bet {entry.name!r} takes no parameter; got {param.strip()!r}")
    param = _param_of(entry, param.strip()) if sep else ""
    bet = entry.make(param if sep else None)
    name = entry.name + (f":{param}" if sep else "")
    return bet.with_origin(f"catalogue:{name}", name=name)


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def bet_key(name: str) -> str:
    """How bet names compare (catalogue names, aliases and the names of bets from files alike):
    case-insensitive, ``_`` and spaces counting as ``-``, spaces around ignored.

    >>> bet_key(" Big_Tiger "), bet_key("Banker:4")
    ('big-tiger', 'banker:4')
    """
    return _key(name)


def catalogue_name(name: str) -> str | None:
    """The catalogue bet whose name or alias ``name`` takes, comparing the part before the
    first ``:`` (as ``NAME:PARAM`` is read), or ``None``.  A bet from a file must not take one:
    a log column, a family ``bet:NAME`` or a table row naming it could mean either.

    >>> catalogue_name("Banker:4"), catalogue_name("B"), catalogue_name("natural-tie")
    ('banker', 'banker', None)
    """
    entry = _entry(name.partition(":")[0])
    return entry.name if entry is not None else None


def _entry(name: str) -> Entry | None:
    place = _index()[1].get(_key(name))
    return None if place is None else _entry_at(place)


def suggestions(name: str, most: int = 3) -> list[str]:
    """Catalogue names close to ``name`` (by difflib's ratio, at least 0.6, against every name
    and alias; an alias stands for its bet's name), closest first, at most ``most``.

    >>> suggestions("tigr-pair")
    ['tiger-pair', 'either-pair', 'tiger-tie']
    """
    import difflib  # lazy: only a name not found asks

    found: list[str] = []
    labels = _index()[1]
    for close in difflib.get_close_matches(_key(name), list(labels), n=len(labels), cutoff=0.6):
        if _entry_at(labels[close]).name not in found:
            found.append(_entry_at(labels[close]).name)
    return found[:most]


def catalogue_bets() -> list[Bet]:
    """Every catalogue bet with its default parameters, plus the published alternatives (Tie 9 to
    1, Banker 4%, Perfect Pair v2 and 25/200, Lucky 6 table 2, Dragon Bonus table 2, the Banker
    side of the one-side bets, Royal Match v2, Lucky Nines at Binion's, Super Tie table 2,
    Super 6 at 15, Égalité on each total and its groupings)."""
    specs = [e.name for e in entries() if e.name != "egalite"]
    extra = ["banker:4", "tie:9", "perfect-pair:2", "perfect-pair:25/200", "lucky-6:2",
             "dragon-bonus-player:2", "dragon-bonus-banker:2", "fabulous-pair:banker",
             "majestic-match:banker", "royal-match:banker", "royal-match:player,2", "royal-match:banker,2",
             "lucky-nines:binions", "super-tie:2", "super-6:15"]
    from analyzer.bets.families.ties import EGALITE_GROUPS  # lazy: start-up time

    egal = [f"egalite:{t}" for t in range(10)] + [f"egalite:{g}@{p}" for g, p in EGALITE_GROUPS.items()]
    ordered: list[str] = []
    for s in specs:
        ordered.append(s)
        ordered.extend(x for x in extra if x.split(":")[0] == s)
    return [find_bet(s) for s in ordered + egal]


def main_bets() -> list[Bet]:
    """Banker (5%), Player, Tie (8 to 1): the standard pay table of the rule sheets, as
    :func:`find_bet` gives them (:func:`analyzer.bets.main.main_bets`)."""
    return _main_bets()


# -- progressive meters -------------------------------------------------------------------------


class PricedEvent(Protocol):
    """What :func:`meter_line` reads of one event row (e.g. an ``EventRow``)."""

    @property
    def event(self) -> str: ...

    @property
    def pays(self) -> Fraction: ...

    @property
    def probability(self) -> Fraction: ...


class PricedBet(Protocol):
    """What :func:`meter_line` reads of a priced bet (e.g. a ``BetSummary``)."""

    @property
    def bet(self) -> Bet: ...

    @property
    def ev(self) -> Fraction: ...

    @property
    def events(self) -> Sequence[PricedEvent]: ...


@dataclass(frozen=True)
class MeterLine:
    """A bet's expected value per unit staked as an exact function of its progressive meters:
    ``EV = constant + sum(slopes[m] * reading[m])`` (linear: each meter feeds one pay line).

    Attributes:
        bet: the bet's name (with its parameters).
        constant: the EV with every meter reading 0.
        slopes: per meter, the EV gained per unit of meter reading (the line's probability
            times its pay per unit of reading).
        readings: the meter readings the bet was priced at.
    """

    bet: str
    constant: Fraction
    slopes: Mapping[str, Fraction]
    readings: Mapping[str, Fraction]

    def _values(self, readings: Mapping[str, Fraction | int]) -> dict[str, Fraction]:
        unknown = set(readings) - set(self.slopes)
        if unknown:
            raise BetError(f"{self.bet}: no meter {sorted(unknown)[0]!r}; its meters are "
                           f"{', '.join(self.slopes)}")
        values = dict(self.readings)
        for name, value in readings.items():
            if isinstance(value, bool) or not isinstance(value, int | Fraction):
                raise BetError(f"bad meter reading {value!r} for {name!r}: give an int or a Fraction")
            values[name] = Fraction(value)
        return values

    def ev(self, **readings: Fraction | int) -> Fraction:
        """EV per unit staked with the given meter readings (others as priced).

        Raises:
            BetError: an unknown meter or a reading that is not exact.
        """
        values = self._values(readings)
        return self.constant + sum((self.slopes[m] * values[m] for m in self.slopes), Fraction(0))

    def house_edge(self, **readings: Fraction | int) -> Fraction:
        """``-ev(**readings)``."""
        return -self.ev(**readings)

    def break_even(self, meter: str, **others: Fraction | int) -> Fraction:
        """The reading of ``meter`` at which the EV is 0, the other meters as given (else as
        priced); it may be negative (the bet has a player edge at every reading of 0 or more).

        Raises:
            BetError: an unknown meter, or one whose line cannot happen on this shoe.
        """
        values = self._values({**others, meter: 0})
        slope = self.slopes[meter]
        if slope == 0:
            raise BetError(f"{self.bet}: the {meter!r} meter's line cannot happen on this shoe")
        rest = self.constant + sum((self.slopes[m] * values[m] for m in self.slopes if m != meter),
                                   Fraction(0))
        return -rest / slope


def meters(bet: Bet) -> tuple[Meter, ...]:
    """The progressive meters of a catalogue bet (empty for a bet without).

    Raises:
        BetError: the bet's name is not a catalogue name.
    """
    name, sep, param = bet.name.partition(":")
    entry = _entry(name)
    if entry is None:
        raise BetError(f"bet {bet.name!r} is not in the catalogue")
    return () if entry.meters is None else entry.meters(param if sep else None)


def meter_line(priced: PricedBet) -> MeterLine:
    """A priced catalogue bet's EV as an exact linear function of its meters (see
    :class:`MeterLine`), from its events' exact probabilities, e.g.
    ``meter_line(price(find_bet("royal-9"), shoe))``.

    Raises:
        BetError: the bet has no meter (or, internally, a meter names no single pay line).
    """
    listed = meters(priced.bet)
    if not listed:
        raise BetError(f"bet {priced.bet.name!r} has no progressive meter")
    slopes: dict[str, Fraction] = {}
    readings: dict[str, Fraction] = {}
    constant = priced.ev
    for meter in listed:
        lines = [ln for ln in priced.bet.lines if ln.event == meter.event]
        if len(lines) != 1:
            raise BetError(f"internal: bet {priced.bet.name!r} has no single line {meter.event!r}")
        pays = lines[0].pays
        probability = sum((r.probability for r in priced.events if r.event == meter.event), Fraction(0))
        readings[meter.name] = (pays - meter.offset) / meter.per_unit
        slopes[meter.name] = probability * meter.per_unit
        constant -= probability * (pays - meter.offset)
    return MeterLine(priced.bet.name, constant, slopes, readings)


# -- golden counts: figures sources print ---------------------------------------------------------


@dataclass(frozen=True)
class GoldenCount:
    """A figure a source prints for a catalogue bet, as exact counts (a line of
    ``analyzer/bets/golden-counts.toml``, the python-chess perft files' way).

    Attributes:
        bet: the catalogue spec (``NAME[:PARAM]``).
        decks: the shoe, a full shoe of that many decks.
        denominator: what the counts are out of (the Wizard of Odds' whole-coup tables: the
            ordered 6-card sequences, 416!/410! for 8 decks).
        events: event label (as the bet names it) -> count; the events the source prints.
        source: author, title and address.
        prints: what the source prints, in words.
    """

    bet: str
    decks: int
    denominator: int
    events: Mapping[str, int]
    source: str
    prints: str


@functools.cache
def golden_counts() -> tuple[GoldenCount, ...]:
    """Every golden count, in the file's order (read once).

    Raises:
        BetError: the file is malformed (a broken install): the message names the entry.
    """
    where = "analyzer/bets/golden-counts.toml"
    doc = load_toml(GOLDEN_FILE.read_text(encoding="utf-8"), where, BetError, "golden counts file")
    out: list[GoldenCount] = []
    for i, entry in enumerate(doc.get("count", []), 1):
        keys = {"bet", "decks", "denominator", "events", "source", "prints"}
        if not isinstance(entry, dict) or set(entry) != keys:
            raise BetError(f"{where}: count #{i} needs exactly {', '.join(sorted(keys))}")
        events = entry["events"]
        if not isinstance(events, dict) or not all(isinstance(n, int) and n >= 0 for n in events.values()):
            raise BetError(f"{where}: count #{i}: events are event = count (whole numbers)")
        out.append(GoldenCount(str(entry["bet"]), int(entry["decks"]), int(entry["denominator"]),
                               dict(events), str(entry["source"]), str(entry["prints"])))
    return tuple(out)
