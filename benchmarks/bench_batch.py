"""Batch speed: fivecard's numpy path beside treys, eval7 and phevaluator, in
one run on the same data.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_batch.py [--lines 1000000]

  d) (run first, see below) `fivecard solve` on a generated Project-Euler-style file of --lines lines
     to CSV (whole process), beside a plain treys script writing a CSV of the
     categories, winner and a category-level explanation
     (benchmarks/treys_solve.py); and `fivecard stats` (whole process);
  a) all 2,598,960 standard hands from card indices (and fivecard's peak memory);
  b) 1,000,000 random hands from strings such as "As Kd 7h 7c 2s" (poker-equity,
     a Rust batch API, gets its own notation "AsKd7h7c2s", prepared untimed);
  c) the whole 54-card joker deck (3,162,510 hands).

The peers evaluate one hand per Python call; their loops are timed the same
way for all. Best of --repeat runs for the in-process timings.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import eval7
import numpy as np
import poker_equity
from phevaluator import evaluate_cards
from timing import best
from treys import Card as TreysCard
from treys import Evaluator

from fivecard import full_deck
from fivecard.vector import batch

HERE = Path(__file__).resolve().parent


_TIMER = (
    "import resource, subprocess, sys, time; t = time.perf_counter();"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def process(argv: list[str], repeat: int = 3) -> tuple[float, float]:
    """Best wall time (s) of a whole process, with its peak RSS (MB), each run
    timed by a fresh helper process so that RSS belongs to that run alone."""
    results = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _TIMER, *argv], check=True, capture_output=True, text=True)
        elapsed, peak_kb = out.stdout.split()
        results.append((float(elapsed), float(peak_kb) / 1024))
    return min(results)


def line(label: str, hands: int, seconds: float) -> float:
    rate = hands / seconds
    print(f"  {label:<52} {seconds * 1000:9.1f} ms {rate / 1e6:9.2f} M hands/s")
    return rate


def peers_on_the_deck(combos: np.ndarray, texts52: list[str]) -> tuple[float, float, float]:
    """eval7, treys and phevaluator over the whole deck, one call a hand (their
    hand lists are large, so they live only in this function)."""
    e7_cards = [eval7.Card(t) for t in texts52]
    e7_hands = [[e7_cards[i] for i in row] for row in combos.tolist()]
    e7_eval = eval7.evaluate
    e7 = line("eval7 evaluate (one call a hand)", len(e7_hands), best(lambda: [e7_eval(h) for h in e7_hands], 1))
    tr_cards = [TreysCard.new(t) for t in texts52]
    tr_hands = [[tr_cards[i] for i in row] for row in combos.tolist()]
    tr_eval = Evaluator().evaluate
    tr = line("treys Evaluator().evaluate", len(tr_hands), best(lambda: [tr_eval(h, []) for h in tr_hands], 1))
    ph_hands = [[texts52[i] for i in row] for row in combos[::10].tolist()]
    ph = line("phevaluator evaluate_cards (every 10th hand)", len(ph_hands),
              best(lambda: [evaluate_cards(*h) for h in ph_hands], 1))
    return e7, tr, ph


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lines", type=int, default=1_000_000)
    args = parser.parse_args()
    deck = full_deck()
    texts52 = [c.code_str for c in deck]

    print(f"numpy {np.__version__}; Python {sys.version.split()[0]}; best of {args.repeat}\n")
    # Whole processes first: a child's peak RSS counts its parent's at fork,
    # so they run before this process holds the peers' big lists.
    print(f"d) whole processes on a generated {args.lines:,}-line Project-Euler-style file")
    fivecard = str(Path(sys.executable).parent / "fivecard")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "euler.txt"
        subprocess.run([sys.executable, str(HERE / "make_euler_file.py"), str(args.lines), str(source)], check=True)
        ours_d, ours_rss = process([fivecard, "solve", str(source), "-o", str(Path(tmp) / "out.csv")])
        treys_d, treys_rss = process([sys.executable, str(HERE / "treys_solve.py"), str(source),
                                      str(Path(tmp) / "treys.csv")], 1)
        print(f"  fivecard solve -o out.csv                {ours_d:7.2f} s  peak RSS {ours_rss:5.0f} MB")
        print(f"  treys script (treys_solve.py)            {treys_d:7.2f} s  peak RSS {treys_rss:5.0f} MB")
        print(f"  fivecard / treys {treys_d / ours_d:.1f}x (target >= 3x); target <= 1.5 s and <= 300 MB")
    stats, stats_rss = process([fivecard, "stats"], 5)
    print(f"  fivecard stats                           {stats:7.2f} s  peak RSS {stats_rss:5.0f} MB"
          " (target <= 0.3 s)\n")

    script = (
        "import numpy as np, resource, time; from fivecard.vector import batch;"
        "c = batch.combinations(52);"
        "t = time.perf_counter(); s = batch.strengths_of_indices(c); t = time.perf_counter() - t;"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    )
    peak = float(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)

    # a) the whole standard deck from card indices
    print("a) all 2,598,960 standard hands from card indices")
    combos = batch.combinations(52)
    indices = combos.astype(np.int32)
    n = len(indices)
    batch.strengths_of_indices(indices)  # warm up: the table, the output pages
    ours = line("fivecard batch.strengths_of_indices", n, best(lambda: batch.strengths_of_indices(indices), args.repeat))
    e7, tr, ph = peers_on_the_deck(combos, texts52)
    print(f"  fivecard / eval7 {ours / e7:.1f}x, / treys {ours / tr:.1f}x, / phevaluator {ours / ph:.1f}x;"
          f" target >= 100 M/s and >= 20x eval7; peak RSS of a process doing only this: {peak:.0f} MB"
          " (target <= 200)\n")

    # b) strings to strengths
    print("b) 1,000,000 random hands from strings")
    rng = random.Random(7)
    strings = [" ".join(rng.sample(texts52, 5)) for _ in range(1_000_000)]
    ours_b = line("fivecard batch.encode + batch.strengths", len(strings),
                  best(lambda: batch.strengths(batch.encode(strings)), args.repeat))
    new = TreysCard.new
    tr_eval = Evaluator().evaluate
    e7_eval = eval7.evaluate
    tr_b = line("treys Card.new per card + evaluate", len(strings),
                best(lambda: [tr_eval([new(t) for t in s.split()], []) for s in strings], 1))
    e7_card = eval7.Card
    e7_b = line("eval7 Card per card + evaluate", len(strings),
                best(lambda: [e7_eval([e7_card(t) for t in s.split()]) for s in strings], 1))
    ph_b = line("phevaluator evaluate_cards(*text.split())", len(strings),
                best(lambda: [evaluate_cards(*s.split()) for s in strings], 1))
    native = [s.replace(" ", "") for s in strings]  # its own notation: "AsKd7h7c2s"
    pe_b = line("poker-equity score_batch('high', ...) (Rust batch)", len(native),
                best(lambda: poker_equity.score_batch("high", native), args.repeat))
    print(f"  fivecard / treys {ours_b / tr_b:.1f}x (target >= 15x), / eval7 {ours_b / e7_b:.1f}x,"
          f" / phevaluator {ours_b / ph_b:.1f}x, / poker-equity {ours_b / pe_b:.1f}x (target >= 3x);"
          " target >= 10 M/s\n")

    # c) the joker deck
    print("c) the whole 54-card joker deck")
    started = time.perf_counter()
    joker_indices = batch.combinations(54).astype(np.int32)
    built = time.perf_counter() - started
    line("fivecard strengths_of_indices(rules='joker')", len(joker_indices),
         best(lambda: batch.strengths_of_indices(joker_indices, rules="joker"), args.repeat))
    started = time.perf_counter()
    counts = batch.census_counts("joker")
    line("fivecard census_counts('joker') (enumerate + evaluate)", int(counts.sum()),
         time.perf_counter() - started)
    print(f"  (building the {len(joker_indices):,} x 5 index array took {built * 1000:.0f} ms; "
          "target <= 100 ms for the deck)\n")


if __name__ == "__main__":
    main()
