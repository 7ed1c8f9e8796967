"""The bets a command names: catalogue specs, one bet of a bet file, every bet of a file.

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
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from analyzer.bets.catalogue import bet_key, catalogue_bets, catalogue_name, find_bet
from analyzer.bets.files import load_bets, parse_bets
from analyzer.bets.model import Bet
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
            bet (:func:`~analyzer.bets.catalogue.catalogue_name`); two bets (or a bet and one of
            ``taken``) take one name, compared by :func:`~analyzer.bets.catalogue.bet_key`.
    """
    known = {bet_key(b.name) for b in taken}
    for bet in bets:
        if not isinstance(bet, Bet):
            raise BetError(f"bad bet {bet!r:.80}: give Bet objects (e.g. from load_bets)")
        clash = catalogue_name(bet.name)
        if clash is not None:
            origin = "user-defined in "
            where = f" (in {bet.source[len(origin) :]})" if bet.source.startswith(origin) else ""
            raise BetError(
                f"bet {bet.name!r}{where} takes the name of the catalogue bet {clash!r}: a log, a count "
                "or a table naming it could mean either; give the bet another name"
            )
        key = bet_key(bet.name)
        if key in known:
            raise BetError(f"bet {bet.name!r} is given twice: give each bet once, with a distinct name")
        known.add(key)


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
        found = file_bets.get(spec)
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
    pass it to :func:`lookup_bet` and the readers of :mod:`analyzer.checks`).
    """

    bets: tuple[Bet, ...]
    from_files: tuple[Bet, ...]
    file_bets: FileBets = field(default=NO_FILE_BETS, compare=False)


def choose(
    specs: Sequence[str] = (),
    files: Sequence[str | Path] = (),
    *,
    all_bets: bool = False,
    max_bets: int = MAX_BETS_PER_FILE,
    texts: Sequence[tuple[str, str]] = (),
) -> Choice:
    """The bets of ``--bet`` ``specs`` (``NAME[:PARAM]`` or ``FILE:NAME``) and of every bet of
    each of ``files`` (at most ``max_bets`` per file), then of every bet of each bet file given
    as text in ``texts`` (``(label, TOML text)`` pairs, read by
    :func:`~analyzer.bets.files.parse_bets`; the label names it in messages, as a path would:
    the web service's bet files, which never come as paths), after the whole catalogue with
    ``all_bets``.  No default: an empty choice is empty.

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
    from_files: list[Bet] = []
    for spec in specs:
        picked = split_file_spec(spec)
        if picked is None:
            chosen.append(find_bet(spec))
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
    for bet in from_files:
        refuse_clashes([bet])  # a file bet on a catalogue name (one twice: "chosen twice" below)
    seen: set[str] = set()
    for bet in chosen:
        if bet_key(bet.name) in seen:
            hint = " (--bet-file chooses every bet of its file)" if files or texts else ""
            raise BetError(f"bet {bet.name!r} is chosen twice: give each bet once{hint}")
        seen.add(bet_key(bet.name))
    return Choice(tuple(chosen), tuple(from_files), FileBets.of(from_files))


__all__ = [
    "BET_CACHE_SIZE",
    "BET_FILE_SUFFIX",
    "NO_FILE_BETS",
    "Choice",
    "FileBets",
    "bet_in_file",
    "catalogue_bet",
    "choose",
    "lookup_bet",
    "refuse_clashes",
    "split_file_spec",
]
