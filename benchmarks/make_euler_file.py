"""Write a Project-Euler-54-style file: each line ten distinct cards of one
deck (hand 1 = the first five, hand 2 = the last five).

    python benchmarks/make_euler_file.py LINES OUTPUT [--seed S]
"""

from __future__ import annotations

import argparse
import random

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = [r + s for r in RANKS for s in SUITS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines", type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=54)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w", encoding="ascii") as out:
        for _ in range(args.lines):
            out.write(" ".join(rng.sample(DECK, 10)) + "\n")


if __name__ == "__main__":
    main()
