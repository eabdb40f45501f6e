"""Wild rule sets' whole-deck batch beside the standard deck's (the aim: within 2x).

    .venv/bin/pip install -e '.[bench,test]'
    .venv/bin/python benchmarks/bench_wild.py [--repeat 5] [--runs 3] [--xlsx-lines 100000]

For ``standard`` and each wild rule set (``joker``, ``deuces-wild``,
``one-eyed-jacks``, and the user-made ``standard+wild(2)`` and
``standard+wild(Js Jh)``), on the whole deck (2,598,960 hands; the joker deck
3,162,510):

  a) ``batch.strengths_of_codes`` over every hand (in process, best of --repeat);
  b) ``batch.census_counts`` (in process) and ``fivecard stats --rules R``
     (whole process, best of --runs);
  c) ``fivecard solve --rules R`` of a file holding every hand of the deck,
     two hands a line as Project Euler writes them (hands paired at random,
     the two of a line from one deck; a hand left over is a line alone), to
     CSV, JSON Lines, the text table and Parquet (whole processes, best of
     --runs), and to xlsx on the first --xlsx-lines lines (one run).

Each wild time is printed beside the standard time, as a ratio per hand (the
joker deck holds more hands than the 52-card deck), against the target <= 2x.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
from timing import best

from fivecard.core.cards import CARDS
from fivecard.vector import batch
from fivecard.core.rules import RuleSet, get_rules

RULES = ("standard", "joker", "deuces-wild", "one-eyed-jacks", "standard+wild(2)", "standard+wild(Js Jh)")
FORMATS = ("csv", "jsonl", "text", "parquet")
TARGET = 2.0
_TIMER = (
    "import subprocess, sys, time; t = time.perf_counter();"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
    "print(time.perf_counter() - t)"
)


def process(argv: list[str], runs: int) -> float:
    """Best wall time (s) of a whole process over ``runs`` runs (the disk
    catches up first: a previous run's output being written back must not
    slow this one)."""
    times = []
    for _ in range(runs):
        os.sync()
        time.sleep(0.3)
        out = subprocess.run([sys.executable, "-c", _TIMER, *argv], check=True, capture_output=True, text=True)
        times.append(float(out.stdout))
    return min(times)


def deck_indices(rules: RuleSet) -> npt.NDArray[np.int64]:
    """The card indices (see ``fivecard.core.cards.CARDS``) of the rule set's
    dealt deck, its second joker 53."""
    jokers = iter(range(52, 54))
    indices = [next(jokers) if c.is_joker else c.index for c in rules.deck()]
    return np.array(indices, dtype=np.int64)


def whole_deck(rules: RuleSet) -> npt.NDArray[np.int64]:
    """Every hand of the rule set's deck as ``(N, 5)`` card indices."""
    deck = deck_indices(rules)
    return deck[batch.combinations(len(deck)).astype(np.int64)]


def write_deck_file(hands: npt.NDArray[np.int64], path: Path, seed: int = 13) -> int:
    """Write every hand, two a line (the two of a line share no card; the
    jokers count as two cards), in a random order; return the lines."""
    rng = np.random.default_rng(seed)
    bits = np.left_shift(np.uint64(1), hands.astype(np.uint64))
    masks = np.bitwise_or.reduce(bits, axis=1)
    left = rng.permutation(len(hands))
    firsts, seconds = [], []
    while len(left) > 1:
        rng.shuffle(left)
        half = len(left) // 2
        a, b = left[:half], left[half : 2 * half]
        apart = (masks[a] & masks[b]) == 0
        firsts.append(a[apart])
        seconds.append(b[apart])
        rest = np.concatenate([a[~apart], b[~apart], left[2 * half :]])
        if len(rest) == len(left):
            break
        left = rest
    first, second = np.concatenate(firsts), np.concatenate(seconds)
    spell = np.array([list(c.code_str.encode()) for c in CARDS[:54]], dtype=np.uint8)  # (54, 2)
    pairs = np.concatenate([hands[first], hands[second]], axis=1)  # (m, 10)
    matrix = np.full((len(pairs), 30), ord(" "), dtype=np.uint8)
    matrix.reshape(len(pairs), 10, 3)[:, :, :2] = spell[pairs]
    matrix[:, -1] = ord("\n")
    with open(path, "wb") as out:
        out.write(matrix.tobytes())
        for row in hands[left].tolist():  # hands that found no partner: a line each
            out.write((" ".join(CARDS[i].code_str for i in row) + "\n").encode())
    return len(pairs) + len(left)


def slice_file(source: Path, target: Path, lines: int) -> None:
    with open(source, "rb") as src, open(target, "wb") as out:
        for _, line in zip(range(lines), src):
            out.write(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="in-process timings: best of this many")
    parser.add_argument("--runs", type=int, default=3, help="whole processes: best of this many")
    parser.add_argument("--xlsx-lines", type=int, default=100_000)
    parser.add_argument("--rules", nargs="*", default=list(RULES), help="rule sets (standard is always first)")
    parser.add_argument("--formats", nargs="*", default=[*FORMATS, "xlsx"])
    args = parser.parse_args()
    names = ["standard", *[r for r in args.rules if r != "standard"]]
    fivecard = str(Path(sys.executable).parent / "fivecard")
    print(f"numpy {np.__version__}; Python {sys.version.split()[0]}; in process best of {args.repeat},"
          f" whole processes best of {args.runs} (xlsx: one run of {args.xlsx_lines:,} lines)\n")

    rows: dict[str, dict[str, tuple[float, int]]] = {}  # what -> rule set -> (seconds, hands)
    sizes: dict[str, int] = {}

    def record(what: str, name: str, seconds: float, hands: int) -> None:
        rows.setdefault(what, {})[name] = (seconds, hands)
        print(f"  {name:<22} {what:<34} {seconds * 1000:9.1f} ms  ({hands:,} hands)", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        files: dict[str, tuple[Path, Path, int]] = {}  # rule set -> its deck's file, xlsx slice, lines
        made: dict[int, tuple[Path, Path, int]] = {}  # by deck size
        for name in names:
            rules = get_rules(name)
            hands = whole_deck(rules)
            sizes[name] = len(hands)
            indices = np.ascontiguousarray(hands.astype(np.int32))
            batch.strengths_of_indices(indices, rules=rules)  # warm up: the tables, the output pages
            record("a) strengths_of_indices", name,
                   best(lambda: batch.strengths_of_indices(indices, rules=rules), args.repeat), len(hands))
            record("b) census_counts", name, best(lambda: batch.census_counts(rules), args.repeat), len(hands))
            subprocess.run([fivecard, "stats", "--rules", name], check=True, capture_output=True)  # the cache
            deck = len(deck_indices(rules))
            if deck not in made:
                path, part = tmp / f"deck{deck}.txt", tmp / f"deck{deck}-slice.txt"
                lines = write_deck_file(hands, path)
                slice_file(path, part, args.xlsx_lines)
                made[deck] = (path, part, lines)
            files[name] = made[deck]
            del indices, hands
        # Whole processes: the rule sets in turn within each run, so that a
        # busy spell of the machine falls on all of them alike.
        measures: list[tuple[str, list[str], int]] = [("b) fivecard stats", ["stats"], args.runs)]
        for fmt in args.formats:
            what = f"c) solve -> {fmt}" + (f" ({args.xlsx_lines:,} lines)" if fmt == "xlsx" else "")
            measures.append((what, ["solve", fmt], 1 if fmt == "xlsx" else args.runs))
        for what, command, runs in measures:
            times: dict[str, float] = {}
            for _ in range(runs):
                for name in names:
                    path, part, lines = files[name]
                    if command[0] == "stats":
                        argv = [fivecard, "stats", "--rules", name]
                    else:
                        source = part if command[1] == "xlsx" else path
                        argv = [fivecard, "solve", "--rules", name, str(source), "-o", str(tmp / f"out.{command[1]}")]
                    seconds = process(argv, 1)
                    times[name] = min(times.get(name, seconds), seconds)
            for name in names:
                path, part, lines = files[name]
                share = min(args.xlsx_lines, lines) / lines if command[-1] == "xlsx" else 1.0
                record(what, name, times[name], round(sizes[name] * share))

    print(f"\nper hand, each rule set / standard (target <= {TARGET:g}x):\n")
    width = max(len(n) for n in names[1:]) if len(names) > 1 else 10
    print(f"  {'':<34} {'standard':>12}  " + "  ".join(f"{n:>{width}}" for n in names[1:]))
    worst = 0.0
    for what, per in rows.items():
        base_seconds, base_hands = per["standard"]
        cells = []
        for name in names[1:]:
            ratio: float = (per[name][0] / per[name][1]) / (base_seconds / base_hands)
            worst = max(worst, ratio)
            cells.append(f"{ratio:>{width - 1}.2f}x")
        print(f"  {what:<34} {base_seconds * 1000:9.1f} ms  " + "  ".join(cells))
    print(f"\nworst ratio {worst:.2f}x (target <= {TARGET:g}x): {'met' if worst <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
