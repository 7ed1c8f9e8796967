"""The shoe and the rules a caller names, read one way for the command line and the service.

A caller names a shoe by its decks (one count, or a sweep of them on the command line) or its
counts (as ``--shoe`` reads them, :meth:`~analyzer.core.shoe.Shoe.parse`), then the cards taken
out (``seen``, a list of cards, or ``remove``, cards or counts as text); and the rules by a
registered name, a TOML text, or (on the command line only) a rules file.  :func:`read_inputs`
reads both, :func:`read_shoes` and :func:`read_rules` each one, and each returns the matching
``punto-banco`` words too (what the service writes into ``meta.command``).

Every check and message lives here once; a message names each field as its caller calls it,
through a :class:`Spelling` the caller passes in (``--remove`` on the command line,
``shoe.remove`` in the service).  Errors are :class:`~analyzer.errors.ShoeError` and
:class:`~analyzer.errors.RulesError` (and :class:`~analyzer.errors.CardError` for a bad card),
one line each.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.cards import parse_cards
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, TABLEAUX, Tableau, find_tableau, parse_tableau
from analyzer.errors import RulesError, ShoeError

#: The shoe when none is named: 8 decks.
DEFAULT_DECKS = 8


@dataclass(frozen=True)
class Spelling:
    """How a caller calls each input, for its messages: ``decks``, ``counts``, ``seen``,
    ``remove``, ``rules`` and ``rules_text`` (a TOML rules text; also the label that names it in
    a TOML error and in the command's words); ``examples_as_options``: whether an example in a
    message is written as the option (``--remove 'K 5h'``) or as the value alone (``'K 5h'``)."""

    decks: str
    counts: str
    seen: str
    remove: str
    rules: str
    rules_text: str
    examples_as_options: bool

    def example(self, field: str, value: str) -> str:
        """``value`` as an example of ``field`` in a message."""
        return f"{field} {value}" if self.examples_as_options else value


@dataclass(frozen=True)
class ShoeSpec:
    """A shoe as named: ``decks`` (one count, or several for a sweep; ``None``: 8 decks) or
    ``counts`` (text, as :meth:`Shoe.parse` reads it), then the cards taken out: ``seen`` (card
    tokens) or ``remove`` (cards or ``RANK=COUNT`` pairs as text, :meth:`Shoe.remove`)."""

    decks: int | tuple[int, ...] | None = None
    counts: str | None = None
    seen: tuple[str, ...] = ()
    remove: str | None = None


@dataclass(frozen=True)
class RulesSpec:
    """Rules as named: ``name`` (a registered rule set; with ``files``, else the path of a TOML
    rules file) or ``text`` (a TOML rules text); neither: the standard tableau."""

    name: str | None = None
    text: str | None = None
    files: bool = False


@dataclass(frozen=True)
class Inputs:
    """What :func:`read_inputs` read: the ``shoes`` (one, or one per deck count of a sweep), the
    ``tableau``, the ``rules_file`` read (``None`` when no file was), and the ``punto-banco``
    words that name them (``shoe_words``, ``rule_words``)."""

    shoes: tuple[Shoe, ...]
    tableau: Tableau
    rules_file: str | None
    shoe_words: tuple[str, ...]
    rule_words: tuple[str, ...]

    @property
    def shoe(self) -> Shoe:
        """The shoe (the first of a sweep)."""
        return self.shoes[0]


def _deck_counts(decks: object, names: Spelling) -> tuple[int, ...] | None:
    """``decks`` as a tuple of deck counts (``None``: not given).

    Raises:
        ShoeError: an empty sweep, a repeated count, or a count that is not a whole number (each
            count's range is :meth:`Shoe.standard`'s to check).
    """
    if decks is None:
        return None
    counts = decks if isinstance(decks, tuple | list) else (decks,)
    if not counts:
        raise ShoeError(f"bad {names.decks} {decks!r}: give a number of decks, or several for a sweep")
    for d in counts:
        if isinstance(d, bool) or not isinstance(d, int):
            raise ShoeError(f"bad {names.decks} {d!r}: a number of decks is a whole number >= 1")
    if len(set(counts)) != len(counts):
        raise ShoeError(f"bad {names.decks} {decks!r}: a deck count is repeated")
    return tuple(counts)


def read_shoes(spec: ShoeSpec, names: Spelling) -> tuple[tuple[Shoe, ...], tuple[str, ...]]:
    """The shoes of ``spec`` (one, or one per deck count of a sweep) and the ``punto-banco``
    words that name them (``--decks`` / ``--shoe``, ``--remove``).

    Raises:
        ShoeError: decks and counts both given; seen and remove both given; remove with several
            deck counts (cards come out of one shoe); remove naming no card, or removing none
            (``5=0``); a card not in the shoe, too few cards left, bad counts.
        CardError: a bad card.
    """
    decks = _deck_counts(spec.decks, names)
    if decks is not None and spec.counts is not None:
        raise ShoeError(f"give {names.decks} or {names.counts}, not both")
    if spec.seen and spec.remove is not None:
        raise ShoeError(
            f"give {names.seen} (cards) or {names.remove} (cards or counts as text), not both"
        )
    if decks is not None and len(decks) > 1:
        if spec.remove is not None or spec.seen:
            raise ShoeError(
                f"{names.remove} takes cards out of one shoe: give one {names.decks} value with it"
            )
        return tuple(Shoe.standard(d) for d in decks), ("--decks", ",".join(str(d) for d in decks))
    if spec.counts is not None:
        shoe, words = Shoe.parse(spec.counts), ["--shoe", spec.counts]
    else:
        shoe = Shoe.standard(decks[0] if decks else DEFAULT_DECKS)
        words = [] if not decks else ["--decks", str(decks[0])]
    if spec.seen:
        shoe = shoe.remove(parse_cards(list(spec.seen)))
        words += ["--remove", " ".join(spec.seen)]
    elif spec.remove is not None:
        shoe = _removed(shoe, spec.remove, names)
        words += ["--remove", spec.remove]
    return (shoe,), tuple(words)


def _removed(shoe: Shoe, remove: str, names: Spelling) -> Shoe:
    """``shoe`` without the cards of the ``remove`` text: naming or removing no card is an error
    (removing nothing silently would analyse the wrong shoe)."""
    if not remove.replace(",", " ").split():
        example = names.example(names.remove, "'K 5h'")
        raise ShoeError(
            f"{names.remove} {remove!r} names no card: give the cards to take out, e.g. {example}"
        )
    out = shoe.remove(remove)
    if out.size == shoe.size:
        example = names.example(names.remove, "5=20")
        raise ShoeError(f"{names.remove} {remove!r} removes no card: give a count above 0, e.g. {example}")
    return out


def read_rules(spec: RulesSpec, names: Spelling) -> tuple[Tableau, str | None, tuple[str, ...]]:
    """The tableau of ``spec``, the rules file read (``None``: a name, a text or the default)
    and the ``--rules`` words that name it (a text is named by ``names.rules_text``).

    Raises:
        RulesError: a name and a text both given; an unknown name (read as a file only with
            ``spec.files``: then also a missing, unreadable or malformed file); malformed TOML.
    """
    name, text = spec.name, spec.text
    if name is not None and text is not None:
        raise RulesError(
            f"give {names.rules} (a rule-set name) or {names.rules_text} (a TOML rules text), not both"
        )
    if text is not None:
        return parse_tableau(text, names.rules_text), None, ("--rules", names.rules_text)
    if name is None:
        return STANDARD, None, ()
    if spec.files:
        return find_tableau(name), name if names_a_file(name) else None, ("--rules", name)
    if names_a_file(name):
        raise RulesError(
            f"unknown rules {name!r}: known rule sets are {', '.join(TABLEAUX)}; or send a TOML "
            f"rules text as {names.rules_text}"
        )
    return TABLEAUX[name.strip().lower().replace("_", "-")], None, ("--rules", name)


def read_inputs(shoe: ShoeSpec, rules: RulesSpec, names: Spelling, *, shoe_first: bool = False) -> Inputs:
    """The shoe(s) of ``shoe`` and the tableau of ``rules`` (:func:`read_shoes`,
    :func:`read_rules`), read in that order with ``shoe_first``, else the rules first (which
    error a caller naming two bad inputs hears first).

    Raises:
        ShoeError, CardError, RulesError: as :func:`read_shoes` and :func:`read_rules`.
    """
    if shoe_first:
        shoes, shoe_words = read_shoes(shoe, names)
        tableau, rules_file, rule_words = read_rules(rules, names)
    else:
        tableau, rules_file, rule_words = read_rules(rules, names)
        shoes, shoe_words = read_shoes(shoe, names)
    return Inputs(shoes, tableau, rules_file, shoe_words, rule_words)


def names_a_file(rules: str) -> bool:
    """Whether a command line's rules value is a file (not a registered rule-set name, as
    :func:`~analyzer.core.tableau.find_tableau` reads it)."""
    return rules.strip().lower().replace("_", "-") not in TABLEAUX


__all__ = [
    "DEFAULT_DECKS",
    "Inputs",
    "RulesSpec",
    "ShoeSpec",
    "Spelling",
    "names_a_file",
    "read_inputs",
    "read_rules",
    "read_shoes",
]
