"""The catalogue's figures as data: every catalogue bet (defaults, published parameters and a
few others), what it is (title, source, rules, lines and pays) and its exact event counts on
three shoes, kept in ``tests/data/catalogue-figures.json``.

The file was written from the catalogue's Python definitions before its bets became data
entries (``analyzer/bets/catalogue.toml``); tests/test_catalogue.py holds every bet to it, so a
bet moved from code to data settles every coup as before.  ``python tests/catalogue_figures.py``
writes it again (only for a deliberate change of a bet: read the diff).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from analyzer import Shoe, catalogue_bets, find_bet, price
from analyzer.bets.catalogue import CATALOGUE, pay_table_names, provenance
from analyzer.bets.model import Bet
from analyzer.errors import AnalyzerError

FILE = Path(__file__).parent / "data" / "catalogue-figures.json"

#: Parameters beyond bets --all: a pay, a pay table by name, a combined stake, a grouping.
MORE_SPECS = (
    "dragon-7:45", "player-pair:12", "either-pair:6", "lucky-6:las-vegas", "tie+banker:9",
    "egalite:0-2@30", "perfect-pair:30/300", "royal-match:player,2", "lucky-win-player:30/20/12/8/5",
    "big:0.5", "small:1.4", "banker-natural-8:8", "super-6:15", "punto-2000:0.4", "banker-8-half:0.45",
    "player-odd:0.95", "dragon-bonus-banker:cypress-bayou", "super-tie:1", "tiger-tie:40", "all-red:20",
    "all-black:25", "player-3-card-win:5", "banker-3-card-win:6", "low-tie-max:50", "high-tie-max:9",
    "bellagio-match-player:70", "big-tiger:40", "small-tiger:20", "panda-8:30", "banker-even:0.9",
)
#: Parameters the catalogue refuses, each with its one line of error.
BAD_SPECS = (
    "dragon-7:0", "dragon-7:x", "dragon-7:1.5.5", "player-pair:-1", "lucky-6:3", "ez-banker:2", "big:",
    "dragon-bonus-player:9", "super-tie:3", "super-6:0", "player-odd:-0.5", "all-red:abc", "tiger-tie:0",
    "perfect-pair:9", "egalite", "egalite:1-2", "fabulous-pair:tie", "lucky-nines:x",
)
#: The shoes: 8 decks, one deck, and a depleted deck whose suits differ in count.
SHOES = {
    "8 decks": "8",
    "1 deck": "1",
    "depleted": "1 -Kh -Ks -9s -9d -8c -5h -5d -Qs -Ac -2h -7c -7d",
}


def shoe(text: str) -> Shoe:
    """A shoe of :data:`SHOES` (a number of decks, or one deck less the cards named)."""
    decks, *removed = text.split()
    whole = Shoe.standard(int(decks))
    return whole.remove(" ".join(card.lstrip("-") for card in removed)) if removed else whole


def specs() -> list[str]:
    """Every spec the file holds, in its order."""
    return list(dict.fromkeys([b.name for b in catalogue_bets()] + list(MORE_SPECS)))


def describe(bet: Bet) -> dict[str, object]:
    """What a bet is, as text: everything a table or a report shows of it."""
    return {
        "name": bet.name,
        "title": bet.title,
        "source": bet.source,
        "rules": bet.rules,
        "lines": [[line.event, str(line.pays)] for line in bet.lines],
        "otherwise": [bet.otherwise_event, str(bet.otherwise)],
        "adjustable": bet.adjustable,
        "function": bet.payout_function is not None,
        "suits": bet.reads.needs_suits,
        "provenance": _provenance(bet),
    }


def _provenance(bet: Bet) -> list[str] | None:
    known = provenance(bet)
    if known is None:
        return None
    return [known.grade.value, known.source, known.figure, known.test, known.caveat]


def entries() -> dict[str, object]:
    """What the catalogue lists of each entry: summary, parameter, aliases, pay-table names."""
    return {
        e.name: {
            "summary": e.summary,
            "param": e.param,
            "aliases": list(e.aliases),
            "main": e.main,
            "meters": e.meters is not None,
            "pay_table_names": [[n.alias, n.param, n.source] for n in pay_table_names(e.name)],
        }
        for e in CATALOGUE
    }


def figures(bet: Bet) -> dict[str, object]:
    """The bet's exact event counts (event -> [pays, count]) and denominator per shoe; a bet
    that needs suits is priced on suited shoes only (all three are)."""
    out: dict[str, object] = {}
    for label, text in SHOES.items():
        summary = price(bet, shoe(text))
        out[label] = {
            "denominator": summary.denominator,
            "events": {row.event: [str(row.pays), row.count] for row in summary.events},
        }
    return out


def build() -> dict[str, object]:
    """The whole file, from the catalogue as it is now."""
    bets = {spec: {"bet": describe(find_bet(spec)), "figures": figures(find_bet(spec))} for spec in specs()}
    return {"entries": entries(), "bets": bets, "errors": errors()}


def errors() -> dict[str, str]:
    """The error line of each of :data:`BAD_SPECS`."""
    out: dict[str, str] = {}
    for spec in BAD_SPECS:
        try:
            find_bet(spec)
        except AnalyzerError as exc:
            out[spec] = str(exc)
        else:  # pragma: no cover - a spec that no longer fails must leave the list
            raise AssertionError(f"{spec} is accepted")
    return out


if __name__ == "__main__":  # pragma: no cover - rewrites the golden file
    FILE.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FILE} ({len(specs())} bets)", file=sys.stderr)
