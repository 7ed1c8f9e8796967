"""The analyser as a test oracle for other baccarat implementations' test suites.

Importing this module pulls in neither click, tabulate, sympy nor hypothesis: the hypothesis
strategies import hypothesis when called (install it as a test dependency).

* :func:`expected_probabilities`, :func:`probability`, :func:`house_edge`: exact values for
  any shoe (``Fraction``; per coup dealt from that shoe; counting per RULES.md).
* :func:`assert_coup`: compare what an implementation made of a card sequence (hands, totals,
  winner, draws, natural) with the tableau; on a difference, raise ``AssertionError`` naming
  the rule broken (e.g. "Banker on 3 must stand when the Player's third card is 8").
* :func:`assert_payout`: the same for a settled bet, against the catalogue's pay table or a
  bet's own (a :class:`~analyzer.bets.model.Bet`, e.g. from
  :func:`~analyzer.bets.files.load_bets`).
* Bets from files by name: :func:`house_edge` and :func:`assert_payout` take ``bets=``, the
  bets from files (e.g. from :func:`~analyzer.bets.files.load_bets`) a name may name beside
  the catalogue's.
* :func:`shoes`, :func:`card_sequences`, :func:`coups`, :func:`decision_cells` (a coup through
  every cell of the table of play): hypothesis strategies, whose examples print short
  (``Cards('5h Kd 9s 9c 2h 7d')``, ``cell_coups(decks=8, seed=12345)``).

Bad arguments raise :class:`OracleError` (an :class:`~analyzer.errors.AnalyzerError`; for an
argument of the wrong type, :class:`OracleTypeError`, also a ``TypeError``), or the
analyser's own errors (``CardError``, ``ShoeError``, ``BetError``, ``CoupError``); only a claim
that breaks a rule raises ``AssertionError``.

>>> coup = assert_coup("2 4 3 10 6 A", winner="banker", player_total=1, banker_total=5)
>>> coup.announce()
'Player 2 3 6 (1), Banker 4 10 A (5): Banker wins'
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.bets.choice import FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.coverage import CellCoups, cell_coups, decision_cells_of
from analyzer.checks.handlog import ClaimedBet, Record
from analyzer.checks.logs import exact_amount, show, winner_of
from analyzer.checks.verify import Discrepancy, Verifier
from analyzer.core.cards import RANKS, SUITS, Card, Cards, Rank, parse_card, parse_cards
from analyzer.core.coup import Coup, Winner, resolve
from analyzer.core.coup import dealing_order as core_dealing_order
from analyzer.core.dealt import DealtCard
from analyzer.core.exact import MAX_NUMBER_CHARS
from analyzer.core.reads import Reads
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.pricing import distribution, price
from analyzer.errors import CoupError, OracleError, OracleTypeError, ShoeError

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

CardsLike = str | Sequence[Card] | Sequence[str]


def _shoe(shoe: Shoe | int) -> Shoe:
    if isinstance(shoe, Shoe):
        return shoe
    if isinstance(shoe, bool) or not isinstance(shoe, int):
        raise OracleTypeError(f"bad shoe {show(shoe)}: give a Shoe or a number of decks (an int >= 1)")
    if shoe < 1:
        raise ShoeError(f"bad number of decks {shoe}: use 1 or more")
    return Shoe.standard(shoe)


def _as_cards(cards: CardsLike, what: str = "cards") -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, bytes | bytearray) or not isinstance(cards, Sequence):
        raise OracleTypeError(
            f"bad {what} {show(cards)}: give text such as '2 4 3 10 6 A' or a "
            "sequence of Card objects or card strings"
        )
    out = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c)
        elif isinstance(c, DealtCard) and isinstance(c._rank, Rank):
            out.append(c.card)  # a card of a full coup record (e.g. from resolve)
        elif isinstance(c, str):
            out.append(parse_card(c))
        else:
            raise OracleTypeError(f"bad card {show(c)} in {what}: give a Card or card text such as 'Kh'")
    return out


def _as_bet(bet: str | Bet, bets: Iterable[Bet] | FileBets = ()) -> Bet:
    """``bet`` itself, or the bet it names: one of ``bets`` (bets from files) or the catalogue's."""
    if isinstance(bet, Bet):
        return bet
    if not isinstance(bet, str):
        raise OracleTypeError(
            f"bad bet {show(bet)}: give a catalogue bet name such as 'tie', or a Bet (e.g. from load_bets)"
        )
    return lookup_bet(bet, FileBets.of(bets))


def _as_amount(value: object, what: str) -> Fraction:
    """An exact amount: an int, a Fraction or decimal text (bounded, via the shared reader)."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction | str):
        raise OracleTypeError(
            f"{what} {show(value)} is a {type(value).__name__}: give an int, a Fraction "
            "or decimal text such as '9.5'"
        )
    return exact_amount(value, what, OracleError)


def _claimed_total(value: object, what: str) -> int | None:
    """A claimed total: None or a whole number (one outside 0..9 is a claim the check reports)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise OracleTypeError(f"bad {what} {show(value)}: give an int (0..9)")
    if value.bit_length() > 4 * MAX_NUMBER_CHARS:
        raise OracleError(f"bad {what} {show(value)}: at most {MAX_NUMBER_CHARS} digits")
    return value


def _claimed_flag(value: object, what: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise OracleTypeError(f"bad {what} {show(value)}: give True, False or None")


# -- exact values ------------------------------------------------------------------------------------


def _as_tableau(tableau: object) -> Tableau:
    if not isinstance(tableau, Tableau):
        raise OracleTypeError(f"bad rules {show(tableau)}: give a Tableau (e.g. analyzer.STANDARD)")
    return tableau


def expected_probabilities(shoe: Shoe | int = 8, tableau: Tableau = STANDARD) -> dict[str, Fraction]:
    """Exact probability per coup of ``"banker"``, ``"player"`` and ``"tie"`` for a coup dealt
    from ``shoe`` (a :class:`Shoe`, or a number of standard decks) under ``tableau``.  For a
    shoe of fewer than 6 cards the three do not add up to 1: the rest is the chance the shoe
    runs out mid-coup.

    Raises:
        ShoeError: a bad number of decks; OracleTypeError: ``shoe`` is neither.

    >>> expected_probabilities(8)["tie"] == Fraction(475627426473216, 4998398275503360)
    True
    """
    dist = distribution(_shoe(shoe), Reads.of(["winner"]), _as_tableau(tableau))
    tally = dist.tally(lambda c: c.winner)
    sides = (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    return {w.value: Fraction(tally.get(w, 0), dist.denominator) for w in sides}


def probability(
    event: Callable[[Coup], bool],
    shoe: Shoe | int = 8,
    reads: Reads | None = None,
    tableau: Tableau = STANDARD,
) -> Fraction:
    """Exact probability per coup that ``event(coup)`` holds, the coup record read at ``reads``
    (default: every base field; see :class:`~analyzer.core.reads.Reads` for card detail).

    Raises:
        BetError: ``reads`` reads suits on a shoe whose suits are unknown, or ``event`` reads what
            ``reads`` does not declare (:class:`~analyzer.errors.UndeclaredReadError`).

    >>> probability(lambda c: c.cards_dealt == 4, 8) > Fraction(3, 8)
    True
    """
    if not callable(event):
        raise OracleTypeError(
            f"bad event {show(event)}: give a function of the coup record, e.g. lambda c: c.cards_dealt == 4"
        )
    if reads is not None and not isinstance(reads, Reads):
        raise OracleTypeError(f"bad reads {show(reads)}: give a Reads, e.g. Reads.of(['winner'])")
    dist = distribution(_shoe(shoe), reads, _as_tableau(tableau))
    return dist.probability(lambda c: bool(event(c)))


def house_edge(
    bet: str | Bet,
    shoe: Shoe | int = 8,
    tableau: Tableau = STANDARD,
    *,
    bets: Iterable[Bet] | FileBets = (),
) -> Fraction:
    """Exact house edge per unit staked per coup (pushes counted) of a catalogue bet (``"banker"``,
    ``"tie:9"``, ...) or a :class:`~analyzer.bets.model.Bet`, under ``tableau``.  A name may
    also name one of ``bets``, bets from files (e.g. from :func:`~analyzer.bets.files.load_bets`).

    Raises:
        BetError: unknown bet name; ``bets`` not Bet objects, or one takes a catalogue name.

    >>> from analyzer.core.exact import round_fraction
    >>> round_fraction(100 * house_edge("banker", 8), 4)  # RULES.md: 1.0579%
    Decimal('1.0579')
    """
    return price(_as_bet(bet, bets), _shoe(shoe), _as_tableau(tableau)).house_edge


# -- assertions ------------------------------------------------------------------------------------------


def dealing_order(coup: Coup) -> list[Card]:
    """The cards of a coup in the order they were dealt (P, B, P, B, Player third, Banker third).

    >>> " ".join(map(str, dealing_order(resolve("2 4 3 10 6 A"))))
    '2 4 3 10 6 A'
    """
    if not isinstance(coup, Coup) or not coup.is_full:
        raise OracleTypeError(f"bad coup {show(coup)}: give a Coup (e.g. resolve('2 4 3 10 6 A'))")
    return core_dealing_order(coup)


def _as_winner(value: Winner | str) -> Winner:
    if not isinstance(value, Winner | str):
        raise OracleTypeError(f"bad winner {show(value)}: use 'player', 'banker', 'tie' or a Winner")
    found = winner_of(value)
    if found is None:
        raise OracleError(f"bad winner {show(value)}: use 'player', 'banker', 'tie' or a Winner")
    return found


def _fail(
    seq: Sequence[Card], found: Sequence[Discrepancy], extra: str = "", tableau: Tableau = STANDARD
) -> AssertionError:
    """The failure of a check, short: the first line names the first rule broken (what pytest's
    summary line and hypothesis show) and the coup; then one line per claim that broke a rule
    (the first one's rule is the headline) and the reference coup."""
    more = f" (and {len(found) - 1} more rules broken)" if len(found) > 1 else ""
    lines = [f"{found[0].rule}{more} -- coup {' '.join(map(str, seq))}"]
    for i, d in enumerate(found):
        rule = f" -- {d.rule}" if i else ""
        lines.append(f"  {d.field}: expected {d.expected}, claimed {d.claimed}{rule}")
    with contextlib.suppress(CoupError):
        lines.append(f"  reference: {resolve(seq, tableau).announce()}")
    if extra:
        lines.append(f"  {extra}")
    return AssertionError("\n".join(lines))


def assert_coup(
    cards: CardsLike,
    *,
    player: CardsLike | None = None,
    banker: CardsLike | None = None,
    player_total: int | None = None,
    banker_total: int | None = None,
    winner: Winner | str | None = None,
    player_draws: bool | None = None,
    banker_draws: bool | None = None,
    natural: bool | None = None,
    tableau: Tableau = STANDARD,
) -> Coup:
    """Check an implementation's result for the coup dealt from ``cards`` against the tableau.

    Args:
        cards: the cards in dealing order, as text (``"2 4 3 10 6 A"``) or a sequence of
            :class:`Card` or card text; extra cards after those the coup uses are ignored.
        player, banker: the hands the implementation dealt (2 or 3 cards each).
        player_total, banker_total: its final totals (0-9).
        winner: ``"player"`` / ``"banker"`` / ``"tie"`` (or a :class:`Winner`).
        player_draws, banker_draws: whether it gave that side a third card.
        natural: whether it saw a natural (under the standard tableau, 8 or 9 on either side's
            first two cards).
        tableau: the rules to judge by (default: the standard tableau).

    Only the claims given are checked.  Returns the reference :class:`Coup`.

    Raises:
        AssertionError: a claim breaks a rule; the message's first line names the rule broken
            (tableau row, natural, total arithmetic, dealing order) and the coup, the next lines
            each difference and the reference coup.
        CoupError / CardError: ``cards`` cannot be parsed or are too few for the claims.
        OracleError: a claim of the wrong type (a total that is not an int, a draw that is
            not a bool) or claims that contradict each other.  A total outside 0..9 is a
            claim like any other, reported as a broken rule.

    >>> assert_coup("2 K 3 3 8 4", banker="K 3 4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Banker on 3 must stand when the Player's third card is 8 -- coup 2 K 3 3 8 4
      banker: expected Banker stands, claimed Banker draws a third card (4)
      reference: Player 2 3 8 (3), Banker K 3 (3): Tie
    """
    __tracebackhide__ = True  # pytest: report the caller's line and the rule, not this frame
    rules = _as_tableau(tableau)
    seq = _as_cards(cards)
    if len(seq) < 4:
        raise CoupError(f"a coup needs at least 4 cards (Player, Banker, Player, Banker); got {len(seq)}")
    p_hand = _as_cards(player, "player") if player is not None else None
    b_hand = _as_cards(banker, "banker") if banker is not None else None
    player_total = _claimed_total(player_total, "player_total")
    banker_total = _claimed_total(banker_total, "banker_total")
    player_draws = _claimed_flag(player_draws, "player_draws")
    banker_draws = _claimed_flag(banker_draws, "banker_draws")
    natural = _claimed_flag(natural, "natural")
    for name, hand, claim in (("player", p_hand, player_draws), ("banker", b_hand, banker_draws)):
        if hand is not None and claim is not None and (len(hand) == 3) != claim:
            raise OracleError(f"{name}_draws={claim} contradicts the {name} hand of {len(hand)} cards")
    if p_hand is None and b_hand is None and player_draws is None and banker_draws is None:
        reference = resolve(seq, rules)
        p_hand, b_hand = [c.card for c in reference.player], [c.card for c in reference.banker]
    pd = len(p_hand) == 3 if p_hand is not None else player_draws
    bd = len(b_hand) == 3 if b_hand is not None else banker_draws
    if pd is None or bd is None:
        reference = resolve(seq, rules)
        pd = reference.player_drew if pd is None else pd
        bd = reference.banker_drew if bd is None else bd
    used = 4 + pd + bd
    if len(seq) < used:
        raise CoupError(f"the claims deal {used} cards but only {len(seq)} were given")
    if p_hand is None:
        p_hand = [seq[0], seq[2]] + ([seq[4]] if pd else [])
    if b_hand is None:
        b_hand = [seq[1], seq[3]] + ([seq[4 + pd]] if bd else [])
    rec = Record(
        1,
        1,
        cards=tuple(seq[:used]),
        player=tuple(p_hand),
        banker=tuple(b_hand),
        player_total=player_total,
        banker_total=banker_total,
        winner=_as_winner(winner) if winner is not None else None,
    )
    found = Verifier(tableau=rules).check(rec)
    p2 = (seq[0].point + seq[2].point) % 10
    b2 = (seq[1].point + seq[3].point) % 10
    is_natural = rules.decided_by_naturals(p2, b2)
    if natural is not None and natural != is_natural:
        naturals = " or ".join(map(str, sorted(rules.naturals))) or "no total"
        rule = (
            rules.natural_rule_text(p2, b2)
            if is_natural
            else (f"a natural is {naturals} on a side's first two cards; here Player {p2}, Banker {b2}")
        )
        found.append(Discrepancy(1, 1, "natural", str(is_natural), str(natural), rule))
    if found:
        raise _fail(seq, found, tableau=rules)
    return resolve(seq, rules)


def assert_payout(
    bet: str | Bet,
    cards: CardsLike,
    stake: Fraction | int | str,
    paid: Fraction | int | str,
    *,
    returned: bool = False,
    tableau: Tableau = STANDARD,
    bets: Iterable[Bet] | FileBets = (),
) -> Fraction:
    """Check the amount an implementation settled for ``bet`` (a catalogue name, the name of one
    of ``bets``, bets from files, or a :class:`~analyzer.bets.model.Bet`) on the coup dealt from
    ``cards``.

    ``paid`` is the net win (0 for a push, minus the stake for a loss) or, with ``returned``,
    the amount handed back (stake + win).  Amounts are exact: give ints, Fractions or decimal
    text (``"9.5"``), never floats.  Returns the expected amount.

    Raises:
        AssertionError: the amount differs; the message's first line names the pay-table line.
        BetError: unknown bet; OracleTypeError (also a ``TypeError``): a float or other
            non-exact amount; OracleError: a bad amount text (``parse_exact`` bounds: at most
            80 characters, exponent at most 30) or a stake that is not above 0.

    >>> assert_payout("banker", "3 6 4 2", 10, "9.5")
    Fraction(19, 2)
    """
    __tracebackhide__ = True  # pytest: report the caller's line and the rule, not this frame
    amount_stake = _as_amount(stake, "stake")
    amount_paid = _as_amount(paid, "paid")
    if amount_stake <= 0:
        raise OracleError(f"bad stake {show(stake)}: a stake must be greater than 0")
    if not isinstance(returned, bool):
        raise OracleTypeError(f"bad returned {show(returned)}: give True or False")
    rules = _as_tableau(tableau)
    chosen = _as_bet(bet, bets)
    seq = _as_cards(cards)
    coup = resolve(seq, rules)
    claim = ClaimedBet(chosen.name, chosen, amount_stake, amount_paid)
    rec = Record(1, 1, cards=tuple(dealing_order(coup)), bets=(claim,))
    found = Verifier(paid_means="returned" if returned else "net", tableau=rules).check(rec)
    if found:
        raise _fail(seq, found, tableau=rules)
    return amount_stake * chosen.payout(coup) + (amount_stake if returned else 0)


# -- hypothesis strategies ----------------------------------------------------------------------------


def shoes(
    min_decks: int = 1, max_decks: int = 8, *, depleted: bool = True, suits: bool = True
) -> SearchStrategy[Shoe]:
    """Strategy for shoes: full standard shoes of ``min_decks``..``max_decks`` decks and, with
    ``depleted``, shoes with any cards removed (at least 6 left); with ``suits``, the shoes know
    their suits.  Needs hypothesis.

    Raises:
        OracleError: ``min_decks`` < 1 or ``max_decks`` < ``min_decks`` (OracleTypeError: not ints).
    """
    from hypothesis import strategies as st  # lazy: hypothesis, a test dependency

    for name, value in (("min_decks", min_decks), ("max_decks", max_decks)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise OracleTypeError(f"bad {name} {show(value)}: give a whole number of decks")
    if min_decks < 1 or max_decks < min_decks:
        raise OracleError(f"bad deck range {min_decks}..{max_decks}: use 1 <= min_decks <= max_decks")
    full = st.integers(min_decks, max_decks).map(Shoe.standard)
    if not depleted:
        return full

    @st.composite
    def partial(draw: st.DrawFn) -> Shoe:
        decks = draw(st.integers(min_decks, max_decks))
        if suits:
            counts = draw(st.lists(st.integers(0, decks), min_size=52, max_size=52))
            short = 6 - sum(counts)
            for i in range(52):  # top up to 6 cards, never above a full shoe's count
                add = min(max(short, 0), decks - counts[i])
                counts[i] += add
                short -= add
            return Shoe.from_suited_counts(counts)
        ranks = draw(st.lists(st.integers(0, 4 * decks), min_size=13, max_size=13))
        ranks[9] += max(0, 6 - sum(ranks))
        return Shoe.from_counts(ranks)

    return st.one_of(full, partial())


def card_sequences(shoe: Shoe | int | None = None, size: int = 6) -> SearchStrategy[Cards]:
    """Strategy for ``size`` cards drawn without replacement, in dealing order, from ``shoe``
    (a Shoe, a number of decks, or ``None`` for any shoe from :func:`shoes`).  Cards carry suits
    when the shoe knows them.  Six cards are enough to resolve any coup.  An example is a
    :class:`~analyzer.core.cards.Cards` (a list of :class:`Card`) whose repr is its text, so a
    failing test shows ``cards=Cards('5h Kd 9s 9c 2h 7d')``.  Needs hypothesis.

    Raises:
        OracleError: ``size`` is not 4..6 or the shoe holds fewer cards (OracleTypeError: a
            ``size`` or ``shoe`` of the wrong type).
    """
    from hypothesis import strategies as st  # lazy: hypothesis, a test dependency

    if isinstance(size, bool) or not isinstance(size, int):
        raise OracleTypeError(f"bad size {show(size)}: give a whole number from 4 to 6")
    if not 4 <= size <= 6:
        raise OracleError(f"bad size {size}: a coup uses 4 to 6 cards")
    fixed = _shoe(shoe) if shoe is not None else None
    if fixed is not None and fixed.size < size:
        raise OracleError(f"the shoe holds {fixed.size} cards, fewer than {size}")

    @st.composite
    def build(draw: st.DrawFn) -> Cards:
        source = fixed if fixed is not None else draw(shoes())
        if source.suited is not None:
            kinds = [Card(RANKS[i // 4], SUITS[i % 4]) for i in range(52)]
            counts = list(source.suited)
        else:
            kinds = [Card(r) for r in RANKS]
            counts = list(source.counts)
        out = Cards()
        for _ in range(size):
            pick = draw(st.integers(0, sum(counts) - 1))
            for i, n in enumerate(counts):
                if pick < n:
                    out.append(kinds[i])
                    counts[i] -= 1
                    break
                pick -= n
        return out

    return build()


#: The cells :func:`decision_cells` covers under the standard tableau
#: (:func:`~analyzer.checks.coverage.decision_cells_of`): a natural of the Player, of the
#: Banker, of both, then every Banker cell (two-card total 0-7, and the Player's third card 0-9
#: or ``None`` for "the Player stood"); a Banker cell's coup also passes through a Player cell,
#: so every Player cell (0-7) is covered too.
DECISION_CELLS: tuple[tuple[str, int | None, int | None], ...] = decision_cells_of(STANDARD)


def decision_cells(decks: int = 8, tableau: Tableau = STANDARD) -> SearchStrategy[CellCoups]:
    """Strategy for one coup through **every decision cell** of the table of play: a list of
    card sequences, one per cell of :func:`~analyzer.checks.coverage.decision_cells_of`
    (:data:`DECISION_CELLS`, 91 under the standard tableau, in that order), each six suited
    cards in dealing order that a standard shoe of ``decks`` decks can deal, passing through its
    cell: a natural of the Player, of the Banker, of both; or a Banker two-card total 0-7
    facing a Player that stood (Player 6 or 7) or drew a third card of each value 0-9 (Player
    0-5).  The other cards are drawn from the example's seed
    (:func:`~analyzer.checks.coverage.cell_coups`), and the example's repr is that call, e.g.
    ``cell_coups(decks=8, seed=12345)``: a failing test prints one short line, and the call
    gives the same coups again.

    A one-cell tableau bug (the Banker drawing on 6 against a Player third card of 5) is then
    found by the first example: drawing coups from the shoe (:func:`card_sequences`) reaches
    that cell with probability about 0.0045 per coup, so 100 examples find it about one time in
    three (:func:`analyzer.checks.power.coups_to_see` gives the examples a power needs).
    Needs hypothesis.

    Raises:
        OracleError: ``decks`` is not a whole number from 1 to 1000 (OracleTypeError: not an int).
    """
    from hypothesis import strategies as st  # lazy: hypothesis, a test dependency

    if isinstance(decks, bool) or not isinstance(decks, int):
        raise OracleTypeError(f"bad decks {show(decks)}: give a whole number of decks from 1 to 1000")
    if not 1 <= decks <= 1000:
        raise OracleError(f"bad decks {decks}: give a whole number of decks from 1 to 1000")
    rules = _as_tableau(tableau)
    # one draw per example: 91 coups of a dozen draws each would make generating, and shrinking
    # a failure, slow; a failure names its rule and its coup, not shrunk cards
    return st.integers(0, 2**64 - 1).map(lambda seed: cell_coups(rules, decks, seed))


def coups(shoe: Shoe | int | None = None) -> SearchStrategy[Coup]:
    """Strategy for reference coups (:func:`analyzer.core.coup.resolve` of :func:`card_sequences`).
    Needs hypothesis."""
    return card_sequences(shoe).map(resolve)


__all__ = [
    "Cards",
    "OracleError",
    "OracleTypeError",
    "assert_coup",
    "assert_payout",
    "card_sequences",
    "cell_coups",
    "coups",
    "dealing_order",
    "decision_cells",
    "expected_probabilities",
    "house_edge",
    "probability",
    "shoes",
]
