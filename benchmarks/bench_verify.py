"""Benchmark: verify a 1-million-coup hand log (target: under a minute, streaming).

Generates a CSV log (and optionally a JSON Lines log) in a temporary folder: coups dealt through
8-deck shoes with a cut card, every claim correct (hands, totals, winner, Banker / Player / Tie
settled on a stake of 10), then times ``Verifier`` over it with the shoe check on, first alone
(``verify --no-diagnose``), then with the diagnosis beside it, as ``verify`` runs by default
(every coup replayed through the catalogue of engine bugs), in CPU seconds with their ratio, and
reports the process's peak resident memory after each (flat: the log is streamed).
Prints figures; not a test.

    .venv/bin/python benchmarks/bench_verify.py [--coups 1000000] [--jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from analyzer.bets.catalogue import find_bet
from analyzer.checks.diagnose import Diagnoser
from analyzer.checks.handlog import read_records
from analyzer.checks.verify import Verifier, amount_text, open_log
from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD

BETS = ("banker", "player", "tie")
STAKE = Fraction(10)
CUT = 14  # cards left behind the cut card


def generate(path: Path, coups: int, seed: int, fmt: str) -> None:
    """Write ``coups`` correct coups dealt through 8-deck shoes to ``path`` in ``fmt``."""
    rng = random.Random(seed)
    deck = [Card(r, s) for r in RANKS for s in SUITS] * 8
    bets = [find_bet(b) for b in BETS]
    shoe_no, pos, shoe = 0, len(deck), deck
    with path.open("w", encoding="utf-8", newline="") as fh:
        if fmt == "csv":
            fh.write("shoe,cards,player,banker,player_total,banker_total,winner,stake,"
                     + ",".join(f"bet:{b}" for b in BETS) + "\n")
        for _ in range(coups):
            if len(shoe) - pos < CUT:
                shoe = deck[:]
                rng.shuffle(shoe)
                pos, shoe_no = 0, shoe_no + 1
            coup = resolve(shoe[pos:pos + 6])
            cards = shoe[pos:pos + coup.cards_dealt]
            pos += coup.cards_dealt
            paid = [amount_text(STAKE * b.payout(coup)) for b in bets]
            text = " ".join(map(str, cards))
            p, b = " ".join(map(str, coup.player)), " ".join(map(str, coup.banker))
            if fmt == "csv":
                fh.write(f"{shoe_no},{text},{p},{b},{coup.player_total},{coup.banker_total},"
                         f"{coup.winner.value},10,{','.join(paid)}\n")
            else:
                head = json.dumps({
                    "shoe": shoe_no, "cards": text, "player": p, "banker": b,
                    "player_total": coup.player_total, "banker_total": coup.banker_total,
                    "winner": coup.winner.value,
                })
                # amounts as exact JSON number text (9.5), never through a float
                settled = ", ".join(f'"{n}": {{"stake": 10, "paid": {x}}}'
                                    for n, x in zip(BETS, paid, strict=True))
                fh.write(f'{head[:-1]}, "bets": {{{settled}}}}}\n')


def bench(path: Path, fmt: str) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    size = path.stat().st_size
    alone = 0.0
    for diagnose in (False, True):
        verifier = Verifier(Shoe.standard(8))
        diagnoser = Diagnoser(STANDARD, Shoe.standard(8)) if diagnose else None
        start = time.process_time()
        with open_log(str(path)) as fh:
            hook = diagnoser.after if diagnoser is not None else None
            found = sum(1 for _ in verifier.run(read_records(fh, fmt), after=hook))
        causes = diagnoser.result().causes if diagnoser is not None else ()
        cpu = time.process_time() - start
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if not diagnose:
            alone = cpu
            print(f"{fmt}: {verifier.coups:,} coups, {size / 1e6:.1f} MB, {found} discrepancies")
        what = f"with the diagnosis ({len(causes)} causes), {cpu / alone:.2f}x alone" if diagnose else "alone"
        print(f"  verified {what}: {cpu:.1f} CPU-s ({verifier.coups / cpu:,.0f} coups/s), shoe check on; "
              f"peak RSS {after / 1024:.0f} MB (was {before / 1024:.0f} MB before verifying)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jsonl", action="store_true", help="also benchmark a JSON Lines log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("csv", "jsonl") if args.jsonl else ("csv",):
            path = Path(tmp) / f"hands.{fmt}"
            start = time.perf_counter()
            generate(path, args.coups, args.seed, fmt)
            print(f"generated {path.name} in {time.perf_counter() - start:.1f} s")
            bench(path, fmt)


if __name__ == "__main__":
    main()
