"""The bets a command names: catalogue specs, one bet of a bet file, every bet of a file, the
catalogue bets that pay a given pay table.

Every command that takes a bet (``bets``, ``deal``, ``verify``, ``conform``, ``eor``,
``symbolic``, ``study``) reads its ``--bet`` and ``--bet-file`` options through this module, so
a bet from a file is the same :class:`~analyzer.bets.model.Bet` (and so gives the same exact
values) in each of them.

A ``--bet`` spec is read in one of three ways (:func:`split_file_spec`):

* ``NAME`` or ``NAME:PARAM``: a catalogue bet (``banker``, ``tie:9``);
* ``FILE:NAME``: the bet ``NAME`` of the bet file ``FILE``, when the part before the *last*
  ``:`` ends with ``.toml`` (any case) or holds a path separator (``/``, or the system's), e.g.
  ``mine.toml:natural-tie``, ``./bets:natural-tie``, ``C:\\bets\\mine.toml:x``;
* anything else is a catalogue spec.  Which files exist never changes how a spec is read: a
  file named ``mybets`` in the current folder is picked with ``./mybets:NAME``.  The one case
  that looks like a slip, a ``NAME:PARAM`` whose ``NAME`` is no catalogue bet but is the name of
  an existing file, is an error that says how to write it.

A bet from a file must not take the name (or alias) of a catalogue bet, nor the name of
another bet chosen: a log column, a family ``bet:NAME`` or a table row naming it could mean
either (:func:`refuse_clashes`).

The bets from files a command was given are a value, :class:`FileBets`, passed explicitly to
whatever resolves a bet by name (a hand log's ``bet:NAME`` columns, conform's families, the
oracle's bet names): :func:`lookup_bet` finds a name among them, else in the catalogue.

**Bets found by their pays** (``punto-banco bets --pays``).  Another engine's pay table is
known by the numbers it pays, not by a name: one package's Dragon Bonus "table 3" is this
catalogue's ``dragon-bonus-player:2``.  :func:`find_by_pays` takes the winning pays of a pay
table and returns the catalogue bets that pay them.

The matching rule.  A bet's *pay table* here is the multiset of the pays of its winning lines
(:func:`winning_pays`: every pay line paying more than 0, in any order; pushes and losses do not
count, nor does the event a line pays on).  A list of pays matches a bet

* ``exact``: when, as a multiset, it is the bet's pay table (Dragon Bonus table 1:
  ``1,30,10,6,4,2,1``, its natural win and its margins);
* ``exact-distinct``: when it names each pay once and the set of the bet's different winning
  pays is that set (the same table as ``30,10,6,4,2,1``: the natural win and a win by 4 both
  pay 1), as pay tables are often posted ("Win by 6 or 7 points pays 4 to 1").

Pays are exact: ``19/20``, ``0.95``, ``1.5`` and ``11`` are read without a float.  The bets
searched are those of :func:`~analyzer.bets.catalogue.catalogue_bets` (each bet's default and
published parameters).

Bets whose parameter *is* a pay (``tie:PAY``, ``dragon-7:PAY``, ``banker:COMMISSION``; any
entry whose default bet has an adjustable line and whose parameter sets that line's pay, checked
by building the bet) match with that parameter set, kind ``parameter`` (``--pays 7`` and
``tie:7``).  A one-pay list matches every one-line bet so; they are listed only when asked
(``with_params``), else counted, so the published tables come first and alone.

When nothing published matches (and no parameter match is listed), the nearest pay tables are
given, kind ``near``: the bets whose pay table differs from the list in at most half its lines
(at least one; a pay changed, or a line the list lacks or adds, counts one line), fewest lines
differing first, then those with the list's number of lines, then those whose differing pays are
closest (the product of the ratios of the differing pays paired in order); at most
:data:`MOST_NEAR`.  They are near, not equal.  A one-pay list has no near table: every one-line
bet would be as near as any other.
"""

from __future__ import annotations

import enum
import functools
import importlib
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

from analyzer.bets.catalogue import (
    CATALOGUE,
    Entry,
    bet_key,
    catalogue_bets,
    catalogue_name,
    find_bet,
    pay_signature,
)
from analyzer.bets.files import load_bets, name_skeleton, parse_bets
from analyzer.bets.main import parse_amount
from analyzer.bets.model import Bet
from analyzer.core.exact import fraction_text
from analyzer.errors import AnalyzerError, BetError
from analyzer.limits import MAX_BETS_PER_FILE
from analyzer.text import show

#: The suffix that marks the part before the last ``:`` of a spec as a bet file.
BET_FILE_SUFFIX = ".toml"
#: How many distinct catalogue specs :func:`catalogue_bet` keeps (least recently used dropped first).
BET_CACHE_SIZE = 256


def _looks_like_path(text: str) -> bool:
    separators = {"/", os.sep, *((os.altsep,) if os.altsep else ())}
    return text.lower().endswith(BET_FILE_SUFFIX) or any(s in text for s in separators)


def split_file_spec(spec: str) -> tuple[str, str] | None:
    """``(FILE, NAME)`` when ``spec`` picks one bet of a bet file, ``None`` when it is a catalogue
    ``NAME`` or ``NAME:PARAM`` (see the module's rule: the part before the last ``:`` ends with
    ``.toml`` or holds a path separator).

    Raises:
        BetError: ``spec`` is not text; a file part with no bet name after the ``:``
            (``mine.toml:``); a spec that is a file alone (``mine.toml``: use ``--bet-file``); a
            ``NAME:PARAM`` whose ``NAME`` is no catalogue bet but names an existing file
            (write ``./NAME:BET``).

    >>> split_file_spec("mine.toml:natural-tie"), split_file_spec("tie:9"), split_file_spec("tie")
    (('mine.toml', 'natural-tie'), None, None)
    >>> split_file_spec("bets/v2:big")
    ('bets/v2', 'big')
    """
    if not isinstance(spec, str):
        raise BetError(f"bad bet {spec!r}: give a catalogue name such as 'tie:9' or FILE:NAME")
    text = spec.strip()
    head, sep, name = text.rpartition(":")
    if not sep:
        if _looks_like_path(text):
            raise BetError(
                f"--bet {spec!r} names a file, not a bet: use --bet-file {text} for every bet of it, "
                f"or --bet {text}:NAME for one"
            )
        return None
    if _looks_like_path(head):
        if not name.strip():
            raise BetError(f"--bet {spec!r}: no bet name after the ':': write FILE:NAME, e.g. {head}:my-bet")
        return head, name.strip()
    base = head.partition(":")[0]
    if catalogue_name(base) is None and os.path.isfile(head):
        raise BetError(
            f"--bet {spec!r} is read as a catalogue NAME:PARAM, and {head!r} is no catalogue bet but a "
            f"file: to pick the bet {name.strip()!r} of that file write ./{head}:{name.strip()}"
        )
    return None


def bet_in_file(path: str | Path, name: str, max_bets: int = MAX_BETS_PER_FILE) -> Bet:
    """The bet called ``name`` (compared as :func:`~analyzer.bets.catalogue.bet_key` compares) of
    the bet file ``path``.

    Raises:
        BetError: the file cannot be read or is malformed (:func:`~analyzer.bets.files.load_bets`),
            or holds no bet of that name (the message lists the names it holds).
    """
    return _pick(path, name, load_bets(path, max_bets=max_bets))


def _pick(path: str | Path, name: str, bets: Sequence[Bet]) -> Bet:
    for bet in bets:
        if bet_key(bet.name) == bet_key(name):
            return bet
    names = ", ".join(b.name for b in bets)
    raise BetError(f"{path}: no bet {name!r} in this file; its bets are {names}")


def refuse_clashes(bets: Iterable[Bet], taken: Iterable[Bet] = ()) -> None:
    """Check that bets from files can be known by their names.

    Raises:
        BetError: a bet is not a :class:`Bet`; a bet takes the name (or alias) of a catalogue
            bet (:func:`~analyzer.bets.catalogue.catalogue_name`), or a name that looks like one
            (:func:`~analyzer.bets.files.name_skeleton`: ``dragon\u20107``); two bets (or a bet and one of
            ``taken``) take one name, compared by :func:`~analyzer.bets.catalogue.bet_key`.
    """
    known = {bet_key(b.name) for b in taken}
    for bet in bets:
        if not isinstance(bet, Bet):
            raise BetError(f"bad bet {bet!r:.80}: give Bet objects (e.g. from load_bets)")
        clash = catalogue_name(bet.name)
        looks = catalogue_name(name_skeleton(bet.name)) if clash is None else None
        if clash is not None or looks is not None:
            origin = "user-defined in "
            where = f" (in {bet.source[len(origin) :]})" if bet.source.startswith(origin) else ""
            takes = f"takes the name of the catalogue bet {clash!r}" if clash is not None else (
                f"looks like the name of the catalogue bet {looks!r} (a Unicode look-alike)"
            )
            raise BetError(
                f"bet {bet.name!r}{where} {takes}: a log, a count or a table naming it could mean "
                "either; give the bet another name"
            )
        key = bet_key(bet.name)
        if key in known:
            raise BetError(f"bet {bet.name!r} is given twice: give each bet once, with a distinct name")
        known.add(key)


# -- bets written in Python, named by their module ---------------------------------------------

#: The environment variable naming the Python bets a process knows by name (``MODULE:NAME``,
#: comma-separated): ``serve --bet-module`` sets it for itself and the workers it spawns.
BET_MODULES_ENV = "PUNTO_BANCO_BET_MODULES"
_MODULE_SPEC = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*")


def bet_from_module(spec: str) -> Bet:
    """The bet ``MODULE:NAME`` names: the :class:`~analyzer.bets.model.Bet` bound to ``NAME``
    in the Python module ``MODULE`` (imported as ``python -m`` finds it: the current folder, installed, or on
    ``PYTHONPATH``), or what ``NAME()`` returns when it is a function of no argument, e.g.
    ``mybets.thirds:THIRD_CARDS_OF_ONE_RANK`` (a bet from :meth:`Bet.from_function`).

    Importing a module runs its code: only a command line or the service's start names one,
    never a request.

    Raises:
        BetError: the spec is not ``MODULE:NAME``, the module cannot be imported (the message
            gives the reason in one line), it has no ``NAME``, or ``NAME`` is not a bet.
    """
    if not isinstance(spec, str) or not _MODULE_SPEC.fullmatch(spec.strip()):
        raise BetError(f"bad bet module {show(spec)}: give MODULE:NAME, e.g. mybets.thirds:THIRD_CARDS")
    module_name, _, name = spec.strip().partition(":")
    here = os.getcwd()
    added = here not in sys.path
    if added:  # as ``python -m`` finds a module: the current folder first
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # the user's module, whatever it raises: one line
        raise BetError(f"bet module {module_name!r}: cannot import it: {type(exc).__name__}: {exc}") from None
    finally:
        if added and here in sys.path:
            sys.path.remove(here)
    found = getattr(module, name, None)
    if found is None:
        raise BetError(f"bet module {module_name!r} has no {name!r}")
    if not isinstance(found, Bet) and callable(found):
        try:
            found = found()
        except Exception as exc:
            raise BetError(f"{spec}: {name}() failed: {type(exc).__name__}: {exc}") from None
    if not isinstance(found, Bet):
        raise BetError(f"{spec} is not a bet: give a Bet or a function that returns one")
    return found


@dataclass(frozen=True)
class ModuleBets:
    """The Python bets this process was given: ``specs`` (``MODULE:NAME``), their ``bets``,
    and whether a command chooses them all (``--bet-module``, as ``--bet-file`` chooses every
    bet of its file) or only knows them by name (``serve --bet-module``: a request names one)."""

    specs: tuple[str, ...] = ()
    bets: tuple[Bet, ...] = ()
    chosen: bool = False


#: The Python bets given to this process: ``[ModuleBets]`` once imported; ``_NAMED`` the
#: specs named and not yet imported (a command line's option is read before its command runs).
_GIVEN: list[ModuleBets] = []
_NAMED: list[tuple[tuple[str, ...], bool]] = []


def name_module_bets(specs: Sequence[str], *, chosen: bool = True) -> None:
    """Name this process's Python bets (``MODULE:NAME`` specs), imported when first asked for
    (:func:`module_bets`), replacing any named or given before; ``chosen``: :func:`choose`
    chooses them all (``--bet-module``), else it knows them by name only (the service)."""
    _GIVEN.clear()
    _NAMED[:] = [(tuple(specs), chosen)]


def give_module_bets(specs: Sequence[str], *, chosen: bool = True) -> ModuleBets:
    """Import the bets ``specs`` name (:func:`bet_from_module`) and make them this process's
    Python bets (replacing any given before): :func:`choose` and :func:`lookup_bet` then know
    them by name, and with ``chosen`` :func:`choose` chooses them all.

    Raises:
        BetError: what :func:`bet_from_module` refuses; a bet on a catalogue name, or two on one
            name (:func:`refuse_clashes`).
    """
    name_module_bets(specs, chosen=chosen)
    return module_bets()


def module_bets() -> ModuleBets:
    """The Python bets this process was given (:func:`give_module_bets`, or named with
    :func:`name_module_bets` and imported now); when none were named, those the environment
    variable :data:`BET_MODULES_ENV` names (known by name, not chosen).

    Raises:
        BetError: a bet named cannot be had (see :func:`give_module_bets`).
    """
    if _GIVEN:
        return _GIVEN[0]
    if _NAMED:
        specs, chosen = _NAMED[0]
    else:
        specs = tuple(s.strip() for s in os.environ.get(BET_MODULES_ENV, "").split(",") if s.strip())
        chosen = False
    bets = tuple(bet_from_module(spec) for spec in specs)
    refuse_clashes(bets)
    given = ModuleBets(specs, bets, chosen)
    _GIVEN[:] = [given]
    return given


@dataclass(frozen=True, eq=False)
class FileBets:
    """Bets from files, known by name beside the catalogue's: what a hand log's ``bet:NAME``
    columns and ``bets`` objects, conform's ``bet:NAME`` families and counts, and the oracle's
    bet names may name (see :func:`lookup_bet`).  Build it with :meth:`of`; :data:`NO_FILE_BETS`
    is the empty one.

    ``by_key`` maps :func:`~analyzer.bets.catalogue.bet_key` of each name to its bet (read only).
    Compared and hashed by identity, so a cache keyed by a ``FileBets`` never serves one file's
    bet for another's name.
    """

    by_key: Mapping[str, Bet]

    @classmethod
    def of(cls, bets: Iterable[Bet]) -> FileBets:
        """The bets ``bets`` (e.g. from :func:`~analyzer.bets.files.load_bets`) known by name; a
        ``FileBets`` is returned as it is.

        Raises:
            BetError: ``bets`` is not a collection of :class:`~analyzer.bets.model.Bet`; a bet
                takes the name (or alias) of a catalogue bet; two bets take one name (compared
                by :func:`~analyzer.bets.catalogue.bet_key`); see :func:`refuse_clashes`.

        >>> from analyzer.bets.files import parse_bets
        >>> text = '[[bet]]\\nname = "natural-tie"\\n[[bet.pay]]\\nwhen = { winner = "tie" }\\npays = 8\\n'
        >>> lookup_bet("Natural_Tie", FileBets.of(parse_bets(text))).name
        'natural-tie'
        """
        if isinstance(bets, FileBets):
            return bets
        if isinstance(bets, str | bytes | Bet) or not isinstance(bets, Iterable):
            raise BetError(f"bad bets {show(bets)}: give a list of Bet objects (e.g. from load_bets)")
        listed = list(bets)
        refuse_clashes(listed)
        return cls(MappingProxyType({bet_key(bet.name): bet for bet in listed}))

    def get(self, name: str) -> Bet | None:
        """The bet called ``name`` (compared by :func:`~analyzer.bets.catalogue.bet_key`), or ``None``."""
        return self.by_key.get(bet_key(name))

    def __iter__(self) -> Iterator[Bet]:
        return iter(self.by_key.values())

    def __len__(self) -> int:
        return len(self.by_key)


#: No bets from files: names mean catalogue bets only.
NO_FILE_BETS = FileBets(MappingProxyType({}))


def lookup_bet(spec: str, file_bets: FileBets = NO_FILE_BETS) -> Bet:
    """The bet named by ``spec``: a bet of ``file_bets`` by its name, else the catalogue bet
    ``NAME`` or ``NAME:PARAM`` (:func:`catalogue_bet`).

    Raises:
        BetError: unknown bet or bad parameter (never a bare ``ValueError``); the message lists
            the bets of ``file_bets`` beside the catalogue's.
    """
    if not isinstance(file_bets, FileBets):
        raise BetError(f"bad bets from files {show(file_bets)}: give a FileBets (FileBets.of(bets))")
    if isinstance(spec, str):
        found = file_bets.get(spec) or _module_bet(spec)
        if found is not None:
            return found
    try:
        return catalogue_bet(spec)
    except BetError as exc:
        if not str(exc).startswith("unknown bet"):
            raise
        if not file_bets:
            raise BetError(
                f"{exc} (a bet from a file is known once its file is given: --bet-file FILE)"
            ) from None
        names = ", ".join(b.name for b in file_bets)
        raise BetError(f"{exc}; or a bet of the bet files given: {names}") from None


def _module_bet(name: str) -> Bet | None:
    """The Python bet this process was given under ``name`` (:func:`module_bets`), or ``None``."""
    key = bet_key(name)
    return next((b for b in module_bets().bets if bet_key(b.name) == key), None)


def named_bet(spec: str) -> Bet:
    """The bet a name or spec names where no file may be named (the service's requests): a
    Python bet this process was given (:func:`module_bets`) by its name, else the catalogue
    bet ``NAME`` or ``NAME:PARAM``.

    Raises:
        BetError: unknown bet or bad parameter.
    """
    found = _module_bet(spec) if isinstance(spec, str) else None
    return found if found is not None else catalogue_bet(spec)


@functools.lru_cache(maxsize=BET_CACHE_SIZE)
def catalogue_bet(spec: str) -> Bet:
    """The catalogue bet named by ``spec`` (``NAME`` or ``NAME:PARAM``), as
    :func:`~analyzer.bets.catalogue.find_bet`, remembered for the :data:`BET_CACHE_SIZE` specs
    used most recently (a log naming a million different bets stays in constant memory).

    Raises:
        BetError: unknown bet or bad parameter (never a bare ``ValueError``).
    """
    try:
        return find_bet(spec)
    except AnalyzerError:
        raise
    except (ValueError, ArithmeticError) as exc:
        raise BetError(f"bad bet {show(spec)}: {exc}") from None


@dataclass(frozen=True)
class Choice:
    """The bets a command line names.

    ``bets``: in the order given, the ``--bet`` specs (catalogue bets and ``FILE:NAME`` picks),
    then every bet of each ``--bet-file``; ``from_files``: those of them that come from files;
    ``file_bets``: the same, known by name (what a log, a count or a family may then name:
    pass it to :func:`lookup_bet` and the readers of :mod:`analyzer.checks`); ``named``: the
    bets named, without the whole catalogue ``all_bets`` puts first.
    """

    bets: tuple[Bet, ...]
    from_files: tuple[Bet, ...]
    file_bets: FileBets = field(default=NO_FILE_BETS, compare=False)
    named: tuple[Bet, ...] = field(default=(), compare=False)


def choose(
    specs: Sequence[str] = (),
    files: Sequence[str | Path] = (),
    *,
    all_bets: bool = False,
    max_bets: int = MAX_BETS_PER_FILE,
    texts: Sequence[tuple[str, str]] = (),
    resolved: Mapping[str, Bet] | None = None,
) -> Choice:
    """The bets of ``--bet`` ``specs`` (``NAME[:PARAM]``, ``FILE:NAME``, or the name of a Python
    bet this process was given, :func:`module_bets`) and of every bet of each of ``files`` (at
    most ``max_bets`` per file), then of every bet of each bet file given as text in ``texts``,
    then the Python bets of ``--bet-module`` (when given as chosen) (``(label, TOML text)`` pairs, read by
    :func:`~analyzer.bets.files.parse_bets`; the label names it in messages, as a path would:
    the web service's bet files, which never come as paths), after the whole catalogue with
    ``all_bets``.  No default: an empty choice is empty.  ``resolved``: the bets of catalogue
    specs the caller has built already (the service's, by :func:`named_bet`), by spec: taken
    as they are, not built again.

    Raises:
        BetError: an unknown bet or bad parameter; a bet file missing, malformed or too large;
            a ``FILE:NAME`` whose file holds no ``NAME`` (the message lists its names); a bet of a
            file taking a catalogue name; a bet chosen twice (``--bet-file`` chooses every bet of
            its file: a ``--bet`` naming one of them again is chosen twice).
    """
    if isinstance(specs, str) or isinstance(files, str):
        raise BetError("bad bets: give lists of specs and of file names, not one text")
    loaded: dict[str, list[Bet]] = {}

    def file_bets(path: str | Path) -> list[Bet]:
        key = os.path.realpath(path) if os.path.exists(path) else str(path)
        if key not in loaded:
            loaded[key] = load_bets(path, max_bets=max_bets)
        return loaded[key]

    chosen: list[Bet] = catalogue_bets() if all_bets else []
    first_named = len(chosen)
    from_files: list[Bet] = []
    given = module_bets()
    for spec in specs:
        picked = split_file_spec(spec)
        if picked is None:
            python = _module_bet(spec)
            if python is not None:
                chosen.append(python)
            else:
                chosen.append(resolved[spec] if resolved is not None and spec in resolved else find_bet(spec))
            if python is not None:
                from_files.append(python)
            continue
        bet = _pick(picked[0], picked[1], file_bets(picked[0]))
        chosen.append(bet)
        from_files.append(bet)
    for path in files:
        bets = file_bets(path)
        chosen += bets
        from_files += bets
    for label, text in texts:
        bets = parse_bets(text, label, max_bets)
        chosen += bets
        from_files += bets
    if given.chosen:  # --bet-module: every bet it names, after the files' bets
        chosen += given.bets
        from_files += given.bets
    for bet in from_files:
        refuse_clashes([bet])  # a file bet on a catalogue name (one twice: "chosen twice" below)
    seen: set[str] = set()
    for bet in chosen:
        if bet_key(bet.name) in seen:
            hint = " (--bet-file chooses every bet of its file)" if files or texts else ""
            hint = " (--bet-module chooses the bet it names)" if given.chosen and not hint else hint
            raise BetError(f"bet {bet.name!r} is chosen twice: give each bet once{hint}")
        seen.add(bet_key(bet.name))
    return Choice(tuple(chosen), tuple(from_files), FileBets.of(from_files), tuple(chosen[first_named:]))


# -- bets found by their pays ------------------------------------------------------------------

#: Most pays in one list (the longest catalogue pay table has nine winning lines).
MAX_PAYS = 50
#: Most characters of a list of pays.
MAX_PAYS_CHARS = 1_000
#: Most near pay tables given when nothing matches.
MOST_NEAR = 5


class MatchKind(enum.Enum):
    """How a bet's pays match a list (see the module docstring)."""

    EXACT = "exact"
    DISTINCT = "exact-distinct"
    PARAMETER = "parameter"
    NEAR = "near"

    @property
    def label(self) -> str:
        """The kind in words, as tables show it."""
        return _LABELS[self]


_LABELS = {
    MatchKind.EXACT: "exact",
    MatchKind.DISTINCT: "exact (distinct pays)",
    MatchKind.PARAMETER: "with parameter",
    MatchKind.NEAR: "near, not equal",
}


@dataclass(frozen=True)
class PayMatch:
    """One catalogue bet whose pays match a list.

    Attributes:
        bet: the bet, with its parameter (``dragon-bonus-player:2``).
        kind: how it matches (:class:`MatchKind`).
        bet_only: the bet's winning pays the list lacks (largest first; empty unless ``near``).
        list_only: the list's pays the bet lacks (largest first; empty unless ``near``).
    """

    bet: Bet
    kind: MatchKind
    bet_only: tuple[Fraction, ...] = ()
    list_only: tuple[Fraction, ...] = ()

    @property
    def differs(self) -> int:
        """Lines differing: pays changed, plus lines one side has and the other lacks."""
        return max(len(self.bet_only), len(self.list_only))


@dataclass(frozen=True)
class PayFinding:
    """What :func:`find_by_pays` found.

    Attributes:
        pays: the list searched for, largest first.
        matches: exact matches first (published tables), then parameter matches (when asked),
            or else the near tables; each kind in catalogue order.
        unlisted: the specs of the parameter matches not listed (``with_params`` not given).
    """

    pays: tuple[Fraction, ...]
    matches: tuple[PayMatch, ...]
    unlisted: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        """Whether any listed bet pays exactly the list."""
        return any(m.kind is not MatchKind.NEAR for m in self.matches)


def parse_pays(text: str, what: str = "--pays") -> tuple[Fraction, ...]:
    """A list of winning pays, comma-separated, each an exact amount greater than 0 (``30``,
    ``19/20``, ``0.95``, ``1.5``), largest first.

    Raises:
        BetError: an empty list, a bad or non-positive pay, a pay with ``%``, too many pays.

    >>> [fraction_text(p) for p in parse_pays("1, 19/20, 0.95, 1.5")]
    ['3/2', '1', '19/20', '19/20']
    """
    example = f"give winning pays per unit staked, comma-separated, e.g. {what} 30,10,6,4,2,1"
    if not isinstance(text, str) or not text.strip():
        raise BetError(f"empty {what}: {example}")
    if len(text) > MAX_PAYS_CHARS:
        raise BetError(f"{what} is longer than {MAX_PAYS_CHARS:,} characters: {example}")
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > MAX_PAYS:
        raise BetError(f"{what} lists {len(parts):,} pays: at most {MAX_PAYS} (the longest catalogue pay "
                       "table has nine winning lines)")
    pays: list[Fraction] = []
    for part in parts:
        if not part:
            raise BetError(f"bad {what} {text.strip()[:60]!r}: an empty pay between commas; {example}")
        if "%" in part:
            raise BetError(f"bad pay {part[:40]!r} in {what}: a pay is an amount per unit staked, not a "
                           "percentage")
        value = parse_amount(part, f"pay in {what}")
        if value <= 0:
            raise BetError(f"bad pay {part[:40]!r} in {what}: list the winning pays only (greater than 0; "
                           "a push pays 0 and a loss -1)")
        pays.append(value)
    return tuple(sorted(pays, reverse=True))


def winning_pays(bet: Bet) -> tuple[Fraction, ...]:
    """The bet's pay table as matched: the pays of its lines paying more than 0 (and its
    ``otherwise`` pay, when that is a win), largest first; ``()`` for a payout function.

    >>> [fraction_text(p) for p in winning_pays(find_bet("dragon-bonus-player:2"))]
    ['30', '10', '4', '4', '2', '2', '1']
    """
    pays = [line.pays for line in bet.lines if line.pays > 0]
    if bet.lines and bet.otherwise > 0:
        pays.append(bet.otherwise)
    return tuple(sorted(pays, reverse=True))


def pays_text(pays: Iterable[Fraction]) -> str:
    """Pays as a list shows them: exact, largest first as given, comma-separated.

    >>> pays_text([Fraction(30), Fraction(19, 20)])
    '30, 19/20'
    """
    return ", ".join(fraction_text(p) for p in pays)


def match_kind(pays: Sequence[Fraction], bet: Bet) -> MatchKind | None:
    """How ``bet`` pays exactly ``pays`` (``EXACT`` or ``DISTINCT``), or ``None``."""
    own = winning_pays(bet)
    if not own:
        return None
    if Counter(own) == Counter(pays):
        return MatchKind.EXACT
    if len(set(pays)) == len(pays) and set(own) == set(pays):
        return MatchKind.DISTINCT
    return None


def find_by_pays(
    pays: Sequence[Fraction] | str, *, with_params: bool = False, most_near: int = MOST_NEAR
) -> PayFinding:
    """The catalogue bets paying ``pays`` (a list of exact pays, or its text as
    :func:`parse_pays` reads it), as the module docstring says: exact matches among the
    published tables; with ``with_params`` also the bets whose parameter gives those pays;
    the nearest tables (at most ``most_near``) when nothing is listed as exact.

    Raises:
        BetError: bad text (:func:`parse_pays`), or a pay that is not an exact number above 0.

    >>> [m.bet.name for m in find_by_pays("30,10,6,4,2,1").matches]
    ['dragon-bonus-player', 'dragon-bonus-banker']
    """
    wanted = parse_pays(pays) if isinstance(pays, str) else _checked(pays)
    published = catalogue_bets()
    matches = [PayMatch(bet, kind) for bet in published if (kind := match_kind(wanted, bet)) is not None]
    seen = {pay_signature(m.bet) for m in matches}
    by_param = [m for m in _parameter_matches(wanted) if pay_signature(m.bet) not in seen]
    unlisted: tuple[str, ...] = ()
    if with_params:
        matches += by_param
    else:
        unlisted = tuple(m.bet.name for m in by_param)
    if not matches:
        matches = _near(wanted, published, most_near)
    return PayFinding(wanted, tuple(matches), unlisted)


def _checked(pays: Sequence[Fraction]) -> tuple[Fraction, ...]:
    if not pays or len(pays) > MAX_PAYS:
        raise BetError(f"give 1 to {MAX_PAYS} winning pays")
    out = []
    for p in pays:
        if isinstance(p, bool) or not isinstance(p, int | Fraction) or p <= 0:
            raise BetError(f"bad pay {p!r}: give exact pays (int or Fraction) greater than 0")
        out.append(Fraction(p))
    return tuple(sorted(out, reverse=True))


def _parameter_matches(wanted: tuple[Fraction, ...]) -> list[PayMatch]:
    """Each catalogue entry whose parameter sets its adjustable line's pay, with the parameter
    giving ``wanted`` exactly (one per entry and pay; catalogue order)."""
    found: list[PayMatch] = []
    for entry in CATALOGUE:
        for pay in dict.fromkeys(wanted):  # each distinct pay once, largest first
            bet = _with_pay(entry, pay)
            if bet is not None and match_kind(wanted, bet) is not None:
                found.append(PayMatch(bet, MatchKind.PARAMETER))
                break
    return found


def _with_pay(entry: Entry, pay: Fraction) -> Bet | None:
    """``entry``'s bet with the parameter that makes its adjustable line pay ``pay``, or
    ``None`` (no adjustable line, no such parameter, or a parameter that is not a pay)."""
    try:
        default = find_bet(entry.name)
    except BetError:  # a bet that needs its parameter (egalite: the totals)
        return None
    if default.adjustable is None or default.payout_function is not None or not entry.param:
        return None
    param = entry.pay_param(pay) if entry.pay_param is not None else fraction_text(pay)
    try:
        bet = find_bet(f"{entry.name}:{param}")
    except BetError:  # no parameter gives that pay (a commission above 100%)
        return None
    if bet.adjustable is None or bet.lines[bet.adjustable].pays != pay:
        return None  # the parameter is not that line's pay
    return bet


def _near(wanted: tuple[Fraction, ...], bets: Sequence[Bet], most: int) -> list[PayMatch]:
    """The bets nearest ``wanted`` (module docstring), at most ``most``."""
    ranked: list[tuple[tuple[int, int, Fraction, int], PayMatch]] = []
    distinct = len(set(wanted)) == len(wanted)
    furthest = max(1, len(wanted) // 2)
    for order, bet in enumerate(bets):
        own = winning_pays(bet)
        if not own:
            continue
        forms = [own] + ([tuple(sorted(set(own), reverse=True))] if distinct else [])
        best: tuple[tuple[int, int, Fraction, int], PayMatch] | None = None
        for form in forms:
            bet_only, list_only = _difference(form, wanted)
            match = PayMatch(bet, MatchKind.NEAR, bet_only, list_only)
            if match.differs > furthest or len(list_only) == len(wanted):
                continue  # too far, or no pay in common: not near
            key = (match.differs, abs(len(form) - len(wanted)), _spread(bet_only, list_only), order)
            if best is None or key < best[0]:
                best = (key, match)
        if best is not None:
            ranked.append(best)
    ranked.sort(key=lambda item: item[0])
    return [match for _, match in ranked[:most]]


def _difference(own: Sequence[Fraction], wanted: Sequence[Fraction]) -> tuple[tuple[Fraction, ...], ...]:
    """(the pays of ``own`` not in ``wanted``, those of ``wanted`` not in ``own``), as
    multisets, largest first."""
    a, b = Counter(own), Counter(wanted)
    return (tuple(sorted((a - b).elements(), reverse=True)), tuple(sorted((b - a).elements(), reverse=True)))


def _spread(bet_only: Sequence[Fraction], list_only: Sequence[Fraction]) -> Fraction:
    """How far apart the differing pays are: the product, over the pays paired in order
    (largest with largest), of the larger over the smaller; a pay without a partner (a line
    one side lacks) multiplies it by one plus that pay."""
    spread = Fraction(1)
    for i in range(max(len(bet_only), len(list_only))):
        if i < len(bet_only) and i < len(list_only):
            a, b = bet_only[i], list_only[i]
            spread *= max(a, b) / min(a, b)
        else:
            spread *= 1 + (bet_only[i] if i < len(bet_only) else list_only[i])
    return spread


__all__ = [
    "BET_CACHE_SIZE",
    "BET_FILE_SUFFIX",
    "MAX_PAYS",
    "MAX_PAYS_CHARS",
    "MOST_NEAR",
    "NO_FILE_BETS",
    "Choice",
    "FileBets",
    "MatchKind",
    "PayFinding",
    "PayMatch",
    "bet_in_file",
    "catalogue_bet",
    "choose",
    "find_by_pays",
    "lookup_bet",
    "match_kind",
    "parse_pays",
    "pays_text",
    "refuse_clashes",
    "split_file_spec",
    "winning_pays",
]
