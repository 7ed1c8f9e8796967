"""Verify another implementation's hand log against the tableau and the pay tables.

The log is read by :mod:`analyzer.checks.handlog` into :class:`~analyzer.checks.handlog.Record`
objects (format: docs/checks.md, "Hand-log format"); this module checks them.

:class:`Verifier` checks every coup and yields a :class:`Discrepancy` for each claim that
breaks a rule, naming the rule (e.g. "Banker on 3 must draw when the Player's third card is 9").
Each check takes the implementation's earlier decisions as given (the Banker's draw is judged
on the Player's hand as dealt; totals on the hands as dealt; payouts on the coup as dealt), so
one mistake is reported once, where it was made, not again in everything that follows from it.

Optional shoe check: given the starting shoe, every card dealt (and burned) is removed from it
in log order, and a card the shoe can no longer hold is reported.  A change of the ``shoe`` id
or a ``new_shoe`` marker starts a fresh shoe; the finding names that shoe, or, in a log that has
marked none so far, says how to mark them (:data:`SHOE_HINT`).  In a log of point values only
(:attr:`~analyzer.checks.handlog.Record.points_only`) a ten-valued card is taken from the
ten-valued cards left (16 per deck), and a bet that reads ranks or suits is refused.

A claim of the naturals (``natural``: which sides have one) is checked against the two-card
totals under the tableau's naturals (:attr:`~analyzer.core.tableau.Tableau.naturals`).

Streaming: records are checked and dropped one at a time (constant memory).

What is a discrepancy and what is unreadable input:

* A claimed total that is a whole number is a *claim*: any whole number other than the right
  total (``12``, ``-1`` or ``99999999999999999999`` as much as ``3``) is reported as a
  discrepancy, since an implementation that forgets the modulo 10 or reports a sentinel is
  exactly what the check is for.  A total that is not a whole number is malformed (the reader
  refuses it).
* A record must give the cards (``cards``, or both ``player`` and ``banker``), unless it is a
  marker: ``new_shoe`` true and/or ``burn`` cards, with no claims.  A record with nothing to
  check (``{}``, ``{"cards": null}``, only a winner) is unreadable input, naming its line.
* A log with no coup at all (empty, header only, markers only) is unreadable input ("no coups
  in the log"), never "all conform".
* Unreadable input stops the run with a :class:`LogError` naming the line; the discrepancies
  of the records before it have already been yielded (streamed), and the message says how many
  records were verified before the bad line.
"""

from __future__ import annotations

import csv
import io
import json
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from os import PathLike

from analyzer.bets.choice import NO_FILE_BETS, FileBets
from analyzer.bets.model import Bet
from analyzer.checks.handlog import (
    ClaimedBet,
    Record,
    card_meta,
    detect_format,
    points_only_refusal,
    read_records,
)
from analyzer.checks.logmap import NO_MAP, LogMap
from analyzer.checks.logs import open_log, show
from analyzer.core.cards import RANKS_OF_POINT, Card
from analyzer.core.coup import Coup, Winner, coup_from_cards
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import AnalyzerError, LogError, ShoeError
from analyzer.text import csv_cell, json_text, printable

#: What a settled amount means: ``net`` = amount won (0 on a push, minus the stake on a loss);
#: ``returned`` = what goes back to the player (stake + win; the stake on a push; 0 on a loss).
PAID_MEANINGS = ("net", "returned")

DEALING_ORDER_RULE = (
    "dealing order: Player, Banker, Player, Banker, then the Player's third card, then the Banker's"
)
TOTAL_RULE = "a hand's total is the sum of its point values modulo 10 (A = 1, 2-9 face value, 10/J/Q/K = 0)"


@dataclass(frozen=True)
class Discrepancy:
    """One claim that breaks a rule.

    ``field`` is the log field (``cards``, ``player``, ``banker``, ``player_total``,
    ``banker_total``, ``winner``, ``natural``, ``burn``, ``bet:NAME``); ``expected`` and
    ``claimed`` are display text; ``rule`` is the rule that was broken, as a sentence.
    """

    record: int
    line: int
    field: str
    expected: str
    claimed: str
    rule: str
    coup_id: str | None = None

    def __str__(self) -> str:
        """One line: the log's own text (id, bet names) with control characters escaped
        (:func:`analyzer.text.printable`), so an id can neither recolour the terminal nor
        forge a report line."""
        where = f"record {self.record} (line {self.line}" + (f", id {self.coup_id})" if self.coup_id else ")")
        return printable(
            f"{where}: {self.field}: expected {self.expected}, claimed {self.claimed} -- {self.rule}"
        )

    def as_dict(self) -> dict[str, object]:
        """The discrepancy as a JSON-ready mapping."""
        return {
            "record": self.record,
            "line": self.line,
            "id": self.coup_id,
            "field": self.field,
            "expected": self.expected,
            "claimed": self.claimed,
            "rule": self.rule,
        }


#: How many settlements (bet, coup) a verifier remembers, the least recently used dropped
#: first (bounded, as every cache of the reader is: :mod:`analyzer.checks.handlog`).
SETTLE_CACHE_SIZE = 8192


# -- checking -------------------------------------------------------------------------------------


def amount_text(x: Fraction) -> str:
    """An exact amount as text: a terminating decimal when it has one (``9.5``), else ``p/q``.

    >>> amount_text(Fraction(19, 2)), amount_text(Fraction(-10)), amount_text(Fraction(1, 3))
    ('9.5', '-10', '1/3')
    """
    if isinstance(x, bool) or not isinstance(x, int | Fraction):
        raise LogError(f"bad amount {show(x)}: give an int or a Fraction")
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    # Built from the integer (a Decimal would round to its context's 28 digits).
    digits = str(abs(x.numerator) * 10**places // x.denominator).rjust(places + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _hand_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _total_story(side: str, hand: Sequence[Card]) -> str:
    points = [c.point for c in hand]
    shown = " + ".join(_card_text(c) for c in hand)
    return f"{TOTAL_RULE}: {side} {shown} = {sum(points)} -> {sum(points) % 10}"


#: Which sides have a natural (as :attr:`~analyzer.core.coup.Coup.naturals` says it), by
#: (Player has one, Banker has one).
_NATURALS = {(True, True): "both", (True, False): "player", (False, True): "banker", (False, False): "none"}


def _natural_story(rules: Tableau, player: Sequence[Card], banker: Sequence[Card], p2: int, b2: int) -> str:
    """The rule of the naturals, told on the two first cards of each hand."""
    totals = " or ".join(str(t) for t in sorted(rules.naturals)) or "none (this tableau has no naturals)"
    sides = [
        f"{side} {' + '.join(_card_text(c) for c in hand[:2])} = {two}"
        for side, hand, two in (("Player", player, p2), ("Banker", banker, b2))
    ]
    return f"a natural is a two-card total of {totals}: {', '.join(sides)}"


def _card_text(card: Card) -> str:
    """A card in a sum: its point value beside it when its text is not that value (``K(0)``)."""
    return str(card) if str(card) == str(card.point) else f"{card}({card.point})"


def _decision(side: str, drew: bool, hand: Sequence[Card]) -> str:
    return (
        f"{side} draws a third card ({hand[2]})"
        if drew and len(hand) > 2
        else (f"{side} draws a third card" if drew else f"{side} stands")
    )


def _pays_text(bet: Bet, event: str, pays: Fraction, stake: Fraction) -> str:
    if pays > 0:
        what = f"pays {pays.numerator}/{pays.denominator}" if pays.denominator > 1 else f"pays {pays}"
        what += " per unit staked"
    elif pays == 0:
        what = "a push, the stake is returned"
    elif pays == -1:
        what = "the stake is lost"
    else:
        what = f"loses {-pays} per unit staked"
    return f"{bet.title}, stake {amount_text(stake)}: {event}: {what}"


class ShoeTracker:
    """The cards left in the shoe as a log deals them (exact counts per rank and, when the
    starting shoe knows suits, per card; and the ten-valued cards, for a log of point values
    only).

    A card without a suit is taken from its rank only; suited counts then remain upper bounds,
    which is exactly what feasibility needs (a suitless card can be any suit still left).  A
    ten-valued card of unknown rank (:class:`~analyzer.checks.logmap.PointCard`, the ``0`` of a
    log of point values only) is taken from the ten-valued cards (16 per deck); the counts of
    10, J, Q and K then remain upper bounds.
    """

    def __init__(self, start: Shoe) -> None:
        self.start = start
        self.reset()

    def reset(self) -> None:
        """Start a fresh shoe."""
        self.counts = list(self.start.counts)
        self.suited = list(self.start.suited) if self.start.suited is not None else None
        self.tens = sum(self.start.counts[r] for r in RANKS_OF_POINT[0])
        self.dealt = 0

    def take(self, card: Card, shoe: str | None = None) -> str | None:
        """Remove ``card``; return why it cannot be dealt (text) or ``None`` when it can.
        ``shoe`` names the shoe in that text (default: ``this shoe``).

        ``dealt`` counts every card the log dealt from this shoe, possible or not.
        """
        point, r, s = card_meta(card)
        self.dealt += 1
        if r < 0:  # a ten-valued card of unknown rank: from the ten-valued cards left
            if self.tens <= 0:
                where = self._where(shoe)
                held = sum(self.start.counts[t] for t in RANKS_OF_POINT[0])
                if held == 0:
                    return f"the shoe ({self.start.describe()}) holds no ten-valued card {where}"
                return (
                    f"the shoe ({self.start.describe()}) holds {held} ten-valued cards (10, J, Q, K), "
                    f"all dealt before this card {where}"
                )
            self.tens -= 1
            return None
        if self.counts[r] == 0:
            where = self._where(shoe)
            held = self.start.counts[r]
            if held == 0:
                return f"the shoe ({self.start.describe()}) holds no {card.rank.label} {where}"
            return (
                f"the shoe ({self.start.describe()}) holds {held} of rank "
                f"{card.rank.label}, all dealt before this card {where}"
            )
        if s >= 0 and self.suited is not None:
            i = 4 * r + s
            if self.suited[i] == 0:
                where = self._where(shoe)
                held = self.start.suited[i] if self.start.suited else 0
                if held == 0:
                    return f"the shoe ({self.start.describe()}) holds no {card} {where}"
                return (
                    f"the shoe ({self.start.describe()}) holds {held} of {card}, "
                    f"all dealt before this card {where}"
                )
            self.suited[i] -= 1
        self.counts[r] -= 1
        if point == 0:
            self.tens -= 1
        return None

    def _where(self, shoe: str | None) -> str:
        return f"(card {self.dealt} of {shoe or 'this shoe'})"


#: Said after a card the shoe cannot hold, when the log has marked no shoe before it (no
#: ``shoe`` id, no ``new_shoe`` record): with marks, the message names the shoe instead.
SHOE_HINT = "(mark each new shoe with a 'shoe' id or a 'new_shoe' record)"


class Verifier:
    """Checks hand-log records against the tableau and the pay tables.

    Args:
        shoe: the starting shoe for the shoe check, or ``None`` to skip it.
        paid_means: ``"net"`` (default) or ``"returned"``; see :data:`PAID_MEANINGS`.
        keep_coups: keep the record (:class:`~analyzer.core.coup.Coup`) of each coup as dealt in
            ``last_coup`` (for tallies such as :func:`analyzer.checks.conform.tally_log`).
        tableau: the rules each decision is judged by (default: the standard tableau).

    After :meth:`run`, ``records``, ``coups``, ``discrepancies`` and ``failed_coups`` hold the
    tallies.

    Raises:
        LogError: ``paid_means`` is not one of :data:`PAID_MEANINGS`; ShoeError: ``shoe`` is
            not a :class:`~analyzer.core.shoe.Shoe`.

    >>> from analyzer.core.cards import parse_cards
    >>> cards = tuple(parse_cards("2 K 3 3 8 4"))
    >>> print(*Verifier().check(Record(1, 2, cards=cards)))  # doctest: +NORMALIZE_WHITESPACE
    record 1 (line 2): cards: expected Banker stands, claimed Banker draws a third card (4)
    -- Banker on 3 must stand when the Player's third card is 8
    """

    def __init__(
        self,
        shoe: Shoe | None = None,
        paid_means: str = "net",
        keep_coups: bool = False,
        tableau: Tableau = STANDARD,
    ) -> None:
        if not isinstance(paid_means, str) or paid_means not in PAID_MEANINGS:
            raise LogError(
                f"bad meaning of a settled amount {show(paid_means)}: use {' or '.join(PAID_MEANINGS)}"
            )
        if shoe is not None and not isinstance(shoe, Shoe):
            raise ShoeError(f"bad shoe {show(shoe)}: give a Shoe (e.g. Shoe.standard(8)) or None")
        if not isinstance(tableau, Tableau):
            raise LogError(f"bad rules {show(tableau)}: give a Tableau (e.g. analyzer.STANDARD)")
        self.tableau = tableau
        self.tracker = ShoeTracker(shoe) if shoe is not None else None
        self.returned = paid_means == "returned"
        self.records = 0
        self.coups = 0
        self.discrepancies = 0
        self.failed_coups = 0
        self._shoe_id: str | None = None
        #: How the findings name the shoe: by its id, or by the new_shoe record that began it
        #: (None while the log has marked no shoe: the findings then say how to mark them).
        self._shoe_name: str | None = None
        self.keep_coups = keep_coups
        #: With ``keep_coups``: the record of the last coup as dealt (None if undecidable).
        self.last_coup: Coup | None = None
        #: Settlements by (bet spec, coup as dealt), the least recently used dropped first.
        self._settled: OrderedDict[tuple[str, Coup], tuple[str, Fraction]] = OrderedDict()

    def run(
        self,
        records: Iterable[Record],
        require_coups: bool = True,
        after: Callable[[Record, list[Discrepancy]], None] | None = None,
    ) -> Iterator[Discrepancy]:
        """Check each record in turn, yielding its discrepancies (streaming); ``after(record,
        discrepancies)``, if given, is called once each record is checked (e.g.
        :meth:`analyzer.checks.diagnose.Diagnoser.after`).

        Raises:
            LogError: an unreadable record (the message names its line and says how many
                records were verified before it; their discrepancies were already yielded),
                or, with ``require_coups``, no coup at all by the end ("no coups in the log").
        """
        if isinstance(records, str | bytes) or not isinstance(records, Iterable):
            raise LogError(f"bad records {show(records)}: give Record objects (e.g. from read_records)")
        iterator = iter(records)
        while True:
            before = self.records
            try:
                rec = next(iterator)
            except StopIteration:
                break
            except AnalyzerError as exc:
                raise self._stopped(exc, before) from None
            try:
                found = self.check(rec)
                if after is not None:
                    after(rec, found)
            except AnalyzerError as exc:
                raise self._stopped(exc, before) from None
            if found:
                self.discrepancies += len(found)
                self.failed_coups += 1
                yield from found
        if require_coups and not self.coups:
            markers = (
                f" ({self.records:,} marker record{'s' if self.records != 1 else ''})" if self.records else ""
            )
            raise LogError(
                f"no coups in the log{markers}: it is empty, has only a header or only "
                "new-shoe/burn markers; nothing was verified"
            )

    def _stopped(self, exc: AnalyzerError, before: int) -> LogError:
        """``exc`` as the error that stops a run, saying how much was verified before it."""
        if not before:
            return exc if isinstance(exc, LogError) else LogError(str(exc))
        found = self.discrepancies
        return LogError(
            f"{exc} (stopped here: the {before:,} record{'s' if before != 1 else ''} before this one "
            f"{'were' if before != 1 else 'was'} verified, with {found:,} "
            f"discrepanc{'y' if found == 1 else 'ies'})"
        )

    def check(self, rec: Record) -> list[Discrepancy]:
        """The discrepancies of one record (updates the shoe state and the tallies).

        Raises:
            LogError: ``rec`` is not a :class:`Record`, or has nothing to check (no cards or
                hands, and it is not a new-shoe / burn marker), or claims a result without the
                cards; or a suited bet on cards without suits, or a bet that reads ranks or
                suits on a log of point values only.
        """
        if not isinstance(rec, Record):
            raise LogError(f"bad record {show(rec)}: give a Record (e.g. from read_records)")
        if not rec.is_coup:
            given = (
                ("player_total", rec.player_total),
                ("banker_total", rec.banker_total),
                ("winner", rec.winner),
                ("natural", rec.natural),
            )
            claims = [name for name, v in given if v is not None]
            claims += [f"bet:{b.spec}" for b in rec.bets]
            if claims:
                raise LogError(
                    f"line {rec.line}: record {rec.number} claims {', '.join(claims)} but gives "
                    "no cards: add 'cards' (in dealing order) or both 'player' and 'banker'"
                )
            if not rec.new_shoe and not rec.burn:
                raise LogError(
                    f"line {rec.line}: record {rec.number} has nothing to check: give 'cards' "
                    "(in dealing order) or both 'player' and 'banker' (a record without them "
                    "must be a marker: 'new_shoe' true or 'burn' cards)"
                )
        self.records += 1
        self.last_coup = None
        out: list[Discrepancy] = []
        if self.tracker is not None:
            if rec.new_shoe or (
                rec.shoe_id is not None and rec.shoe_id != self._shoe_id and self._shoe_id is not None
            ):
                self.tracker.reset()
            if rec.shoe_id is not None:
                self._shoe_id = rec.shoe_id
                self._shoe_name = f"shoe {show(rec.shoe_id)}"
            elif rec.new_shoe:
                self._shoe_name = f"the shoe begun on line {rec.line}"
            for card in rec.burn:
                why = self.tracker.take(card, self._shoe_name)
                if why:
                    rule = self._shoe_rule(why)
                    out.append(self._d(rec, "burn", "a card the shoe still holds", str(card), rule))
        if not rec.is_coup:
            return out
        self.coups += 1
        out += self._check_coup(rec)
        return out

    def _shoe_rule(self, why: str) -> str:
        """Why a card cannot be dealt, and how to mark shoes when the log marked none so far."""
        return why if self._shoe_name is not None else f"{why} {SHOE_HINT}"

    def _d(self, rec: Record, field: str, expected: str, claimed: str, rule: str) -> Discrepancy:
        return Discrepancy(rec.number, rec.line, field, expected, claimed, rule, rec.coup_id)

    def _check_coup(self, rec: Record) -> list[Discrepancy]:
        out: list[Discrepancy] = []
        d = self._d
        for side, hand in (("player", rec.player), ("banker", rec.banker)):
            if hand is not None and len(hand) not in (2, 3):
                out.append(
                    d(
                        rec,
                        side,
                        "2 or 3 cards",
                        f"{len(hand)} cards ({_hand_text(hand)})",
                        "each hand gets two cards and at most one third card",
                    )
                )
        if out:
            return out
        if rec.cards is not None:
            seq = rec.cards
        elif rec.player is not None and rec.banker is not None:
            seq = _interleave(rec.player, rec.banker)
        else:
            return [
                d(
                    rec,
                    "cards",
                    "the cards in dealing order, or both hands",
                    "one hand only",
                    DEALING_ORDER_RULE,
                )
            ]
        if self.tracker is not None:
            for card in seq:
                why = self.tracker.take(card, self._shoe_name)
                if why:
                    rule = self._shoe_rule(why)
                    out.append(d(rec, "cards", "a card the shoe still holds", str(card), rule))
        if not 4 <= len(seq) <= 6:
            out.append(
                d(
                    rec,
                    "cards",
                    "4 to 6 cards",
                    f"{len(seq)} cards ({_hand_text(seq)})",
                    "a coup deals two cards to each hand and at most one third card to each",
                )
            )
            return out

        rules = self.tableau
        points = [card_meta(c)[0] for c in seq]
        p2 = (points[0] + points[2]) % 10
        b2 = (points[1] + points[3]) % 10
        natural = rules.decided_by_naturals(p2, b2)  # which rule a wrong draw broke
        ref_player = rules.player_draws_third(p2, b2)
        extra = len(seq) - 4

        # The implementation's draw decisions: from its hands, else from how many cards it dealt.
        hands_given = rec.player is not None or rec.banker is not None
        cp: bool | None = len(rec.player) == 3 if rec.player is not None else None
        cb: bool | None = len(rec.banker) == 3 if rec.banker is not None else None
        if cp is None and cb is None:
            if extra != 1:
                cp = cb = extra == 2
            else:
                cp, cb = _guess_fifth_card(seq, p2, b2, ref_player, natural, rec, rules)
                if cp is None or cb is None:
                    out.append(
                        d(
                            rec,
                            "cards",
                            "4 cards (both hands stand)",
                            f"5 cards ({_hand_text(seq)})",
                            f"{rules.player_rule_text(p2)}, and {rules.banker_rule_text(b2, None)}",
                        )
                    )
                    return out
        elif cp is None:
            cp = (extra - int(bool(cb))) == 1
        elif cb is None:
            cb = (extra - int(cp)) == 1
        assert cp is not None and cb is not None
        if 4 + cp + cb != len(seq):
            out.append(
                d(
                    rec,
                    "cards",
                    f"{4 + cp + cb} cards (the hands hold that many)",
                    f"{len(seq)} cards ({_hand_text(seq)})",
                    DEALING_ORDER_RULE,
                )
            )
            return out
        player = [seq[0], seq[2]] + ([seq[4]] if cp else [])
        banker = [seq[1], seq[3]] + ([seq[4 + cp]] if cb else [])
        misdealt = [
            d(
                rec,
                side,
                _hand_text(dealt),
                _hand_text(given),
                f"{DEALING_ORDER_RULE}; the cards were {_hand_text(seq)}",
            )
            for side, given, dealt in (("player", rec.player, player), ("banker", rec.banker, banker))
            if given is not None and not _same(given, dealt)
        ]
        if misdealt:
            return out + misdealt

        # The tableau, each decision judged on the hands as the implementation dealt them.
        field_p, field_b = ("player", "banker") if hands_given else ("cards", "cards")
        if cp != ref_player:
            rule = rules.natural_rule_text(p2, b2) if natural else rules.player_rule_text(p2)
            out.append(
                d(
                    rec,
                    field_p,
                    _decision("Player", ref_player, player),
                    _decision("Player", cp, player),
                    rule,
                )
            )
        third = points[4] if cp else None
        ref_banker = rules.banker_draws_third(p2, b2, third)
        if cb != ref_banker:
            rule = rules.natural_rule_text(p2, b2) if natural else rules.banker_rule_text(b2, third)
            out.append(
                d(
                    rec,
                    field_b,
                    _decision("Banker", ref_banker, banker),
                    _decision("Banker", cb, banker),
                    rule,
                )
            )

        # Totals and winner, on the hands as dealt.
        pt = (p2 + points[4]) % 10 if cp else p2
        bt = (b2 + points[4 + cp]) % 10 if cb else b2
        winner = Winner.PLAYER if pt > bt else Winner.BANKER if bt > pt else Winner.TIE
        if rec.player_total is not None and rec.player_total != pt:
            out.append(d(rec, "player_total", str(pt), str(rec.player_total), _total_story("Player", player)))
        if rec.banker_total is not None and rec.banker_total != bt:
            out.append(d(rec, "banker_total", str(bt), str(rec.banker_total), _total_story("Banker", banker)))
        if rec.natural is not None:
            naturals = rules.naturals
            found = _NATURALS[p2 in naturals, b2 in naturals]
            if rec.natural != found and (rec.natural != "either" or found == "none"):
                story = _natural_story(rules, player, banker, p2, b2)
                out.append(d(rec, "natural", found, rec.natural, story))
        if rec.winner is not None and rec.winner is not winner:
            out.append(
                d(
                    rec,
                    "winner",
                    winner.label,
                    rec.winner.label,
                    f"the higher total wins and equal totals tie: Player {pt}, Banker {bt}",
                )
            )

        # Payouts, on the coup as dealt (the one coup record, settled as every path settles it).
        if self.keep_coups or rec.bets:
            coup = coup_from_cards(seq[:4], seq[4] if cp else None, seq[4 + cp] if cb else None, rules)
            if self.keep_coups:
                self.last_coup = coup
            for claim in rec.bets:
                out += self._check_bet(rec, claim, coup, seq)
        return out

    def _settle(self, claim: ClaimedBet, coup: Coup) -> tuple[str, Fraction]:
        key = (claim.spec, coup)
        settled = self._settled
        found = settled.get(key)
        if found is None:
            found = settled[key] = claim.bet.settle(coup)
            if len(settled) > SETTLE_CACHE_SIZE:
                settled.popitem(last=False)
        else:
            settled.move_to_end(key)
        return found

    def _check_bet(
        self, rec: Record, claim: ClaimedBet, coup: Coup, seq: Sequence[Card]
    ) -> list[Discrepancy]:
        if rec.points_only:
            refused = points_only_refusal(claim.spec, claim.bet)
            if refused:
                raise LogError(f"line {rec.line}: {refused}")
        if claim.bet.reads.needs_suits and any(c.suit is None for c in seq):
            raise LogError(
                f"line {rec.line}: bet {claim.spec!r} needs the suits of the cards; "
                f"the cards {_hand_text(seq)} have none"
            )
        event, pays = self._settle(claim, coup)
        # paid == stake * (pays + [1 if returned]), in integers (no Fraction arithmetic per coup)
        stake, paid = claim.stake, claim.paid
        pn, pd = pays.numerator, pays.denominator
        if self.returned:
            pn += pd
        if paid.numerator * stake.denominator * pd == stake.numerator * pn * paid.denominator:
            return []
        expected = stake * Fraction(pn, pd)
        meaning = " returned" if self.returned else " net"
        return [
            self._d(
                rec,
                f"bet:{claim.spec}",
                amount_text(expected) + meaning,
                amount_text(claim.paid) + meaning,
                _pays_text(claim.bet, event, pays, claim.stake),
            )
        ]


def _same(a: Sequence[Card], b: Sequence[Card]) -> bool:
    return len(a) == len(b) and all(x is y or x == y for x, y in zip(a, b, strict=True))


def _interleave(player: Sequence[Card], banker: Sequence[Card]) -> tuple[Card, ...]:
    return (player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:])


def _guess_fifth_card(
    seq: Sequence[Card], p2: int, b2: int, ref_player: bool, natural: bool, rec: Record, tableau: Tableau
) -> tuple[bool | None, bool | None]:
    """Whose was a lone fifth card, when the log gives no hands: the one whose totals match the
    claimed totals if exactly one does; else the Player's if the tableau has the Player draw;
    the Banker's if it has the Banker draw (or on a natural); else unknown (None, None)."""
    if rec.player_total is not None or rec.banker_total is not None:
        fits = []
        for cp in (True, False):
            pt = (p2 + seq[4].point) % 10 if cp else p2
            bt = b2 if cp else (b2 + seq[4].point) % 10
            if rec.player_total in (None, pt) and rec.banker_total in (None, bt):
                fits.append(cp)
        if len(fits) == 1:
            return fits[0], not fits[0]
    if ref_player:
        return True, False
    if natural or tableau.banker_draws_third(p2, b2, None):
        return False, True
    return None, None


REPORT_FORMATS = ("text", "jsonl", "csv")
CSV_FIELDS = ("record", "line", "id", "field", "expected", "claimed", "rule")


def report_header(fmt: str, context: Mapping[str, object] | None = None) -> str:
    """The first line of a discrepancy report in ``fmt`` (CSV header: :data:`CSV_FIELDS`, then
    the keys of ``context``; empty for text / jsonl)."""
    return ",".join((*CSV_FIELDS, *(context or {}))) + "\n" if fmt == "csv" else ""


def report_line(
    found: Discrepancy, fmt: str, raw_csv: bool = False, context: Mapping[str, object] | None = None
) -> str:
    """One discrepancy as a report line (with its newline) in ``fmt``: ``text`` (one sentence),
    ``jsonl`` (one JSON object) or ``csv`` (the columns of :data:`CSV_FIELDS`).  ``context``
    (e.g. ``{"rules": "standard", "rules_fingerprint": ...}``, what the log was checked
    against) adds its fields to each JSON object and CSV row (not to text).

    The log's text is made safe to show: control characters escaped in text and CSV, lone
    surrogates as ``\\udXXXX`` in JSON (:mod:`analyzer.text`), and, unless ``raw_csv``, a CSV
    text cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``) prefixed
    with a single quote (:func:`analyzer.text.csv_cell`; numbers are never changed)."""
    if not isinstance(found, Discrepancy):
        raise LogError(f"bad discrepancy {show(found)}: give a Discrepancy")
    if fmt not in REPORT_FORMATS:
        raise LogError(f"bad report format {show(fmt)}: use {', '.join(REPORT_FORMATS)}")
    extra = dict(context or {})
    if fmt == "jsonl":
        return json_text(json.dumps({**found.as_dict(), **extra}, ensure_ascii=False)) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        row = {**found.as_dict(), **extra}
        cells = [row[k] for k in (*CSV_FIELDS, *extra)]
        texts = ["" if c is None else c if isinstance(c, int) else printable(str(c)) for c in cells]
        if not raw_csv:
            texts = [c if isinstance(c, int) else csv_cell(c) for c in texts]
        csv.writer(buf, lineterminator="\n").writerow(texts)
        return buf.getvalue()
    return str(found) + "\n"


def summary_text(verifier: Verifier) -> str:
    """One line: how many coups were checked and how many broke a rule."""
    if not isinstance(verifier, Verifier):
        raise LogError(f"bad verifier {show(verifier)}: give a Verifier")
    head = f"verified {verifier.coups:,} coups ({verifier.records:,} records)"
    if not verifier.discrepancies:
        return f"{head}: all conform"
    return (
        f"{head}: {verifier.discrepancies:,} discrepanc{'y' if verifier.discrepancies == 1 else 'ies'} "
        f"in {verifier.failed_coups:,} record{'s' if verifier.failed_coups != 1 else ''}"
    )


def verify_file(
    path: str,
    log_format: str | None = None,
    shoe: Shoe | None = None,
    paid_means: str = "net",
    progress: Callable[[int], None] | None = None,
    tableau: Tableau = STANDARD,
    file_bets: FileBets = NO_FILE_BETS,
    log_map: LogMap = NO_MAP,
) -> tuple[Verifier, list[Discrepancy]]:
    """Verify a whole log file and return the verifier (with its tallies) and every discrepancy;
    the log's bets name catalogue bets or bets of ``file_bets``; ``log_map`` says how a
    foreign log is written (:func:`analyzer.checks.logmap.load_map`).

    Convenience for small logs and tests; for large logs iterate :meth:`Verifier.run` over
    :func:`read_records` so discrepancies stream out instead of piling up.

    Raises:
        LogError: unreadable input (with its line number), or no coups in the log; OSError: the
            file cannot be read.
    """
    if not isinstance(path, str | PathLike):
        raise LogError(f"bad log path {show(path)}: give a file name")
    verifier = Verifier(shoe, paid_means, tableau=tableau)
    fmt = detect_format(path, log_format, log_map)
    with open_log(path) as fh:
        found = list(verifier.run(read_records(fh, fmt, progress, file_bets=file_bets, log_map=log_map)))
    return verifier, found


__all__ = [
    "PAID_MEANINGS",
    "SETTLE_CACHE_SIZE",
    "Discrepancy",
    "LogError",
    "ShoeTracker",
    "Verifier",
    "amount_text",
    "open_log",
    "report_header",
    "report_line",
    "summary_text",
    "verify_file",
]
