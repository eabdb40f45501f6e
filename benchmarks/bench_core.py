"""Core speed: fivecard beside treys on the same hands, in one run.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_core.py [--hands N] [--repeat R]

Measures, best of R runs over the same N random hands (seeded):
  1. strength of an already-parsed hand: fivecard's strength_function on
     card codes vs treys' Evaluator().evaluate on its card ints;
     also fivecard.strength(Hand) and the rich fivecard.evaluate(Hand);
  2. parse from a string + strength: text_strength_function vs treys'
     Card.hand_to_binary + evaluate, on strings such as "As Kd 7h 7c 2s";
  3. whole processes: `import fivecard` and `fivecard classify "AS KS QS JS TS"`;
  4. each rule set's whole deck through the single-hand path
     (strength_function on every combination of card codes).
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from treys import Card as TreysCard
from treys import Evaluator

import fivecard

T = TypeVar("T")


def best_rate(fn: Callable[[T], object], items: Sequence[T], repeat: int) -> float:
    """Items per second of ``fn`` over ``items``, best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - started)
    return len(items) / best


def best_process_ms(argv: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        best = min(best, time.perf_counter() - started)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    rng = random.Random(54)
    deck = fivecard.full_deck()
    hands = [fivecard.Hand.of(rng.sample(deck, 5)) for _ in range(args.hands)]
    texts = [" ".join(c.code_str for c in h.cards) for h in hands]
    codes = [h.codes for h in hands]
    treys_cards = [[TreysCard.new(c.code_str) for c in h.cards] for h in hands]

    ours = fivecard.strength_function("standard")
    ours_text = fivecard.text_strength_function("standard")
    evaluator = Evaluator()
    treys_eval = evaluator.evaluate
    to_binary = TreysCard.hand_to_binary

    # Same answers first: treys ranks 1 = best, so its order is reversed.
    for h, t in zip(hands[:20_000], treys_cards[:20_000]):
        assert ours(h.codes) == 7463 - treys_eval(t, []), h

    print(f"fivecard {fivecard.__version__}, Python {sys.version.split()[0]}, "
          f"{args.hands:,} random hands, best of {args.repeat}")
    print()
    rows: list[tuple[str, float]] = []

    def row(label: str, rate: float) -> float:
        rows.append((label, rate))
        print(f"  {label:<58} {rate / 1e6:6.2f} M hands/s")
        return rate

    print("1. strength of an already-parsed hand")
    fast = row("fivecard strength_function(codes)", best_rate(ours, codes, args.repeat))
    row("fivecard strength(hand)", best_rate(fivecard.strength, hands, args.repeat))
    row("fivecard evaluate(hand) (rich object)", best_rate(fivecard.evaluate, hands, args.repeat))
    treys_rate = row(
        "treys Evaluator().evaluate(cards, [])",
        best_rate(lambda c: treys_eval(c, []), treys_cards, args.repeat),
    )
    print(f"  ratio fivecard / treys: {fast / treys_rate:.2f}x (target >= 2x)")
    print()

    print("2. parse a string + strength")
    text_rate = row("fivecard text_strength_function(text)", best_rate(ours_text, texts, args.repeat))
    row(
        "fivecard evaluate(text) (rich object)",
        best_rate(fivecard.evaluate, texts, max(1, args.repeat // 2)),
    )
    treys_text = row(
        "treys evaluate(Card.hand_to_binary(text.split()), [])",
        best_rate(lambda s: treys_eval(to_binary(s.split()), []), texts, args.repeat),
    )
    print(f"  ratio fivecard / treys: {text_rate / treys_text:.2f}x (target >= 3x)")
    print()

    print("3. whole processes (best of 10)")
    python = sys.executable
    bare = best_process_ms([python, "-c", "pass"], 10)
    imported = best_process_ms([python, "-c", "import fivecard"], 10)
    command = shutil.which("fivecard") or str(Path(python).parent / "fivecard")
    classify = best_process_ms([command, "classify", "AS KS QS JS TS"], 10)
    print(f"  python -c pass                                  {bare:6.1f} ms")
    print(f"  python -c 'import fivecard'                     {imported:6.1f} ms (target <= 60)")
    print(f"  fivecard classify 'AS KS QS JS TS'              {classify:6.1f} ms (target <= 200)")
    print()

    print("4. whole deck per rule set, single-hand path (table build included once)")
    decks = {
        "standard": fivecard.full_deck(),
        "ace-king": fivecard.full_deck(),
        "semi": tuple(c.rank_only() for c in fivecard.full_deck()),
        "joker": fivecard.full_deck(jokers=2),
    }
    for name, deck_cards in decks.items():
        codes_of = [c.code for c in deck_cards]
        started = time.perf_counter()
        f = fivecard.strength_function(name)
        built = time.perf_counter() - started
        count = 0
        for hand in itertools.combinations(codes_of, 5):
            f(hand)
            count += 1
        total = time.perf_counter() - started
        print(f"  {name:<9} {count:>9,} hands in {total:5.2f} s "
              f"(table {built * 1000:4.0f} ms; {count / (total - built) / 1e6:4.2f} M hands/s)")


if __name__ == "__main__":
    main()
