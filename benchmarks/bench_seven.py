"""Seven-card speed: the best five of seven, fivecard beside treys, eval7,
phevaluator and poker-equity, in one run on the same hands.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_seven.py [--hands 100000] [--repeat 3]

  a) every one of the 133,784,560 seven-card hands of 52 cards, each
     evaluated by the whole-deck path (vector.seven.seven_card_counts), in a
     fresh process: wall time and peak RSS, on two cores and on one, by the
     compiled kernel and by the numpy path (FIVECARD_KERNEL=numpy) in the
     same run; the same for the wild decks of deuces-wild (52 cards) and
     joker (54 cards);
  b) --hands random seven-card hands, one Python call a hand: fivecard's
     strength_function(best_five=True) (and the brute force, the best of the
     21 fives, for scale), treys Evaluator().evaluate(board, hand), eval7
     evaluate (7 cards), phevaluator evaluate_cards (7 cards) and its C call
     _pheval.evaluate_7cards (seven ints), poker-equity score_batch with a
     batch of one (it has no single-hand call);
  c) the same hands in one batch: fivecard bulk.seven.best_strengths and
     best_positions, poker-equity score_batch("high", ...) (Rust).

Each peer gets the hands in its own form, prepared untimed. Best of --repeat
runs for the in-process timings.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys

import eval7
import numpy as np
import poker_equity
from phevaluator import Card as PhCard
from phevaluator import evaluate_cards
from phevaluator._pheval import evaluate_7cards
from timing import best
from treys import Card as TreysCard
from treys import Evaluator

from fivecard import full_deck, strength_function
from fivecard.vector import seven as bulk_seven
from fivecard.core import seven
from fivecard.core.rules import STANDARD


def line(label: str, hands: int, seconds: float) -> float:
    """Print a timing as time per hand and hands per second; return the rate."""
    rate = hands / seconds
    print(f"  {label:<58} {seconds / hands * 1e6:8.3f} us/hand {rate / 1e6:9.2f} M hands/s")
    return rate


_WHOLE_DECK = (
    "import resource, sys, time\n"
    "from fivecard.vector.seven import seven_card_counts\n"
    "rules = sys.argv[2]\n"
    "seven_card_counts(rules, cards=6, processes=1)  # warm: tables built or loaded, numpy imported\n"
    "t = time.perf_counter(); counts = seven_card_counts(rules, processes=int(sys.argv[1]))\n"
    "t = time.perf_counter() - t\n"
    "peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
    " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024\n"
    "print(t, peak, int(counts.sum()), int((counts > 0).sum()))\n"
)


def whole_deck(rules: str, processes: int, repeat: int, kernel: bool = True) -> tuple[float, float, int, int]:
    """Best wall time (s) of seven_card_counts in a fresh process, its peak
    RSS (MB, the largest of the process and its workers), hands, strengths;
    ``kernel`` False: by the numpy path."""
    runs = []
    env = {**os.environ, **({} if kernel else {"FIVECARD_KERNEL": "numpy"})}
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", _WHOLE_DECK, str(processes), rules],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        elapsed, peak, hands, strengths = out.stdout.split()
        runs.append((float(elapsed), float(peak), int(hands), int(strengths)))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    print(f"numpy {np.__version__}; Python {sys.version.split()[0]}; best of {args.repeat}\n")

    print("a) every seven-card hand of a deck (vector.seven.seven_card_counts, fresh process)")
    for rules, processes, kernel in (
        ("standard", 2, True),
        ("standard", 2, False),
        ("standard", 1, True),
        ("deuces-wild", 2, True),
        ("joker", 2, True),
    ):
        elapsed, peak, hands, strengths = whole_deck(rules, processes, args.repeat, kernel)
        print(f"  {rules:<12} {processes} core{'s' if processes > 1 else ' '} {'kernel' if kernel else 'numpy '}: "
              f"{elapsed:6.2f} s  {hands / elapsed / 1e6:6.1f} M hands/s  peak RSS {peak:4.0f} MB  "
              f"({hands:,} hands, {strengths:,} strengths)")
    print("  target: the 133,784,560 standard hands <= 0.5 s on two cores\n")

    deck = full_deck()
    texts = [c.code_str for c in deck]
    rng = random.Random(7)
    rows = [rng.sample(range(52), 7) for _ in range(args.hands)]
    n = len(rows)
    print(f"b) {n:,} random seven-card hands, one call a hand")
    codes = [[deck[i].index for i in row] for row in rows]
    fast = strength_function(STANDARD, best_five=True)
    brute = seven._brute_strength_function(STANDARD)
    ours = line("fivecard strength_function(best_five=True)", n, best(lambda: [fast(h) for h in codes], args.repeat))
    line("fivecard brute force (best of the 21 fives)", n, best(lambda: [brute(h) for h in codes], 1))
    tr_cards = [TreysCard.new(t) for t in texts]
    tr_hands = [([tr_cards[i] for i in row[:5]], [tr_cards[i] for i in row[5:]]) for row in rows]
    tr_eval = Evaluator().evaluate
    tr = line("treys Evaluator().evaluate(board, hand)", n,
              best(lambda: [tr_eval(board, hand) for board, hand in tr_hands], args.repeat))
    e7_cards = [eval7.Card(t) for t in texts]
    e7_hands = [[e7_cards[i] for i in row] for row in rows]
    e7_eval = eval7.evaluate
    e7 = line("eval7 evaluate (7 cards)", n, best(lambda: [e7_eval(h) for h in e7_hands], args.repeat))
    ph_hands = [[texts[i] for i in row] for row in rows]
    ph = line("phevaluator evaluate_cards (7 cards)", n,
              best(lambda: [evaluate_cards(*h) for h in ph_hands], args.repeat))
    ph_ids = [[PhCard(texts[i]).id_ for i in row] for row in rows]
    ph_c = line("phevaluator _pheval.evaluate_7cards (seven ints, C)", n,
                best(lambda: [evaluate_7cards(*h) for h in ph_ids], args.repeat))
    native = ["".join(texts[i] for i in row) for row in rows]  # its notation: "AsKd7h7c2s9d3c"
    score = poker_equity.score_batch
    pe = line("poker-equity score_batch('high', [hand]) (a batch of one)", n,
              best(lambda: [score("high", [h]) for h in native], 1))
    print(f"  fivecard / treys {ours / tr:.1f}x, / eval7 {ours / e7:.2f}x (target >= 1),"
          f" / phevaluator {ours / ph:.2f}x, / its C call {ours / ph_c:.2f}x, / poker-equity {ours / pe:.1f}x\n")

    print(f"c) the same {n:,} hands in one batch")
    array = np.array(codes, dtype=np.int32)
    bulk_seven.best_strengths(array)  # warm: the dense tables
    ours_c = line("fivecard bulk.seven.best_strengths", n, best(lambda: bulk_seven.best_strengths(array), args.repeat))
    line("fivecard bulk.seven.best_positions (the five that play)", n,
         best(lambda: bulk_seven.best_positions(array), args.repeat))
    pe_c = line("poker-equity score_batch('high', hands) (Rust)", n,
                best(lambda: score("high", native), args.repeat))
    print(f"  fivecard / poker-equity {ours_c / pe_c:.1f}x")


if __name__ == "__main__":
    main()
