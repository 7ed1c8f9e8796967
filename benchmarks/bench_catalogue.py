"""Benchmark: the whole bet catalogue priced on an 8-deck shoe, after the compile.

Prints the median time of ``Pricer(shoe).summaries(catalogue_bets())`` (a fresh Pricer each
run, so every feature distribution is evaluated again), for 1, 8 and 10,000 decks.
Prints figures; not a test.

    .venv/bin/python benchmarks/bench_catalogue.py
"""

from __future__ import annotations

from _timing import median_seconds, ms

from analyzer import Pricer, Shoe, catalogue_bets


def main() -> None:
    bets = catalogue_bets()
    print(f"catalogue: {len(bets)} bets")
    for decks in (1, 8, 10_000):
        shoe = Shoe.standard(decks)
        Pricer(shoe).summaries(bets)  # compile, settle each bet's features once
        t = median_seconds(lambda s=shoe: Pricer(s).summaries(bets))
        print(f"whole catalogue, {decks} decks (median): {ms(t)}")


if __name__ == "__main__":
    main()
