"""Core speed: fivecard beside treys and poker-equity on the same hands, in one run.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_core.py [--hands N] [--repeat R] [--runs P]

Measures, best of R runs over the same N random hands (seeded):
  1. strength of an already-parsed hand: fivecard's strength_function on
     card indices vs treys' Evaluator().evaluate on its card ints and
     phevaluator's C call _pheval.evaluate_5cards on five ints;
     also fivecard.strength(Hand) and the rich fivecard.evaluate(Hand);
  2. parse from a string + strength, one string per call, on strings such as
     "As Kd 7h 7c 2s": strength_function(text=True) vs poker-equity's per-hand call
     (score_batch("high", [text]): its Rust evaluator takes the same strings)
     and treys' Card.hand_to_binary + evaluate;
  3. whole processes, best, median and worst of P runs, as bench_startup.py
     times them: `python -c pass`, `import fivecard`, and `fivecard classify
     "AS KS QS JS TS"` (the script and python -m) with the table cache warm
     (what every run after the first sees), off (FIVECARD_CACHE=off: the
     table built in every process) and cold (the first run ever: it builds
     the table and writes the cache), beside a treys one-liner;
  4. each rule set's whole deck through the single-hand path
     (strength_function on every combination of card indices), with the time
     to get its table from a warm cache and to build it.

The table cache is a temporary directory for the whole run (the user's own is
neither read nor written).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import bench_startup
import poker_equity
from phevaluator import Card as PhCard
from phevaluator._pheval import evaluate_5cards
from treys import Card as TreysCard
from treys import Evaluator

import fivecard
from fivecard.core import lookup as tables

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


def best_loop_rate(loop: Callable[[], object], count: int, repeat: int) -> float:
    """Items per second of a loop over ``count`` items, best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        loop()
        best = min(best, time.perf_counter() - started)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=20, help="runs of each whole process")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["FIVECARD_CACHE"] = cache
        run(args, cache)


def run(args: argparse.Namespace, cache: str) -> None:
    rng = random.Random(54)
    deck = fivecard.full_deck()
    hands = [fivecard.Hand.of(rng.sample(deck, 5)) for _ in range(args.hands)]
    texts = [" ".join(c.code_str for c in h.cards) for h in hands]
    indices = [h.indices for h in hands]
    treys_cards = [[TreysCard.new(c.code_str) for c in h.cards] for h in hands]

    ours = fivecard.strength_function("standard")
    ours_text = fivecard.strength_function("standard", text=True)
    evaluator = Evaluator()
    treys_eval = evaluator.evaluate
    to_binary = TreysCard.hand_to_binary

    score_batch = poker_equity.score_batch

    # Same answers first: treys ranks 1 = best and poker-equity 0 = best, so
    # their orders are reversed.
    for h, t, s in zip(hands[:20_000], treys_cards[:20_000], texts[:20_000]):
        assert ours(h.indices) == ours_text(s) == 7463 - treys_eval(t, []), h
        assert ours_text(s) == 7462 - score_batch("high", [s])[0], s

    print(f"fivecard {fivecard.__version__}, Python {sys.version.split()[0]}, "
          f"{args.hands:,} random hands, best of {args.repeat}")
    print()
    rows: list[tuple[str, float]] = []

    def row(label: str, rate: float) -> float:
        rows.append((label, rate))
        print(f"  {label:<58} {rate / 1e6:6.2f} M hands/s")
        return rate

    print("1. strength of an already-parsed hand")
    fast = row("fivecard strength_function(indices)", best_rate(ours, indices, args.repeat))
    row("fivecard strength(hand)", best_rate(fivecard.strength, hands, args.repeat))
    row("fivecard evaluate(hand) (rich object)", best_rate(fivecard.evaluate, hands, args.repeat))
    treys_rate = row(
        "treys Evaluator().evaluate(cards, [])",
        best_rate(lambda c: treys_eval(c, []), treys_cards, args.repeat),
    )
    ph_ids = [[PhCard(c.code_str).id_ for c in h.cards] for h in hands]
    ph_rate = row(
        "phevaluator _pheval.evaluate_5cards(five ints) (C)",
        best_rate(lambda c: evaluate_5cards(*c), ph_ids, args.repeat),
    )
    print(f"  ratio fivecard / treys: {fast / treys_rate:.2f}x (target >= 2x)")
    print(f"  ratio fivecard / phevaluator's C call: {fast / ph_rate:.2f}x (target >= 1x)")
    print()

    print("2. parse a string + strength, one string per call")

    def ours_loop() -> None:
        for text in texts:
            ours_text(text)

    def peq_loop() -> None:
        for text in texts:
            score_batch("high", [text])

    text_rate = row("fivecard strength_function(text=True)(text)", best_loop_rate(ours_loop, len(texts), args.repeat))
    peq_rate = row(
        'poker-equity score_batch("high", [text])', best_loop_rate(peq_loop, len(texts), args.repeat)
    )
    row(
        "fivecard evaluate(text) (rich object)",
        best_rate(fivecard.evaluate, texts, max(1, args.repeat // 2)),
    )
    treys_text = row(
        "treys evaluate(Card.hand_to_binary(text.split()), [])",
        best_rate(lambda s: treys_eval(to_binary(s.split()), []), texts, args.repeat),
    )
    print(f"  ratio fivecard / poker-equity: {text_rate / peq_rate:.2f}x (target >= 1x)")
    print(f"  ratio fivecard / treys: {text_rate / treys_text:.2f}x (target >= 3x)")
    print()

    compiled = "off: PYTHONDONTWRITEBYTECODE is set" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"
    print(f"3. whole processes (bench_startup.py: best / median / worst of {args.runs}; .pyc bytecode cache {compiled})")
    bench_startup.report(bench_startup.measure(args.runs, cache))
    print()

    print("4. whole deck per rule set, single-hand path (table from a warm cache, and built)")
    decks = {
        "standard": fivecard.full_deck(),
        "ace-king": fivecard.full_deck(),
        "semi": tuple(c.rank_only() for c in fivecard.full_deck()),
        "joker": fivecard.full_deck(jokers=2),
    }
    for name, deck_cards in decks.items():
        rules = fivecard.get_rules(name)
        tables.tables_for(rules)  # fills the cache
        started = time.perf_counter()
        tables.tables_for.__wrapped__(rules)  # loaded again, past the per-process memo
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        tables.build_tables(rules)
        built = time.perf_counter() - started
        indices_of = [c.index for c in deck_cards]
        f = fivecard.strength_function(name)
        count = 0
        started = time.perf_counter()
        for hand in itertools.combinations(indices_of, 5):
            f(hand)
            count += 1
        total = time.perf_counter() - started
        print(f"  {name:<9} {count:>9,} hands in {total:5.2f} s ({count / total / 1e6:4.2f} M hands/s;"
              f" table loaded in {loaded * 1000:4.1f} ms, built in {built * 1000:4.0f} ms)")


if __name__ == "__main__":
    main()
