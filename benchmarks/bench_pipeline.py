"""The bulk pipeline's numbers, whole processes, one run each
beside the plain treys script:

    .venv/bin/pip install -e '.[bench,test]'
    .venv/bin/python benchmarks/bench_pipeline.py [--lines 1000000] [--xlsx-rows 100000]

  1. ``fivecard solve`` of a Project-Euler-style file to CSV, JSON Lines, the
     text table and Parquet (wall time and peak RSS), JSON Lines against CSV
     (runs in turn, the ratio of each pair: from cold memory, as they come,
     and from warm, each run just after a 1 GB file is written and removed,
     beside the time to write their bytes alone), and the treys script;
  2. ``fivecard classify -`` of one hand a line;
  3. flat memory: each of those at a quarter of the lines, beside the full run;
  4. xlsx: rows read from a workbook and written to a workbook, beside
     openpyxl's own floor for the same cells (read-only load, write-only save).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
_TIMER = (
    "import resource, subprocess, sys, time; t = time.perf_counter();"
    "subprocess.run(sys.argv[2:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,"
    " stdin=open(sys.argv[1], 'rb') if sys.argv[1] != '-' else None);"
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)

_FLOOR = """
import sys, time, openpyxl
t = time.perf_counter()
book = openpyxl.load_workbook(sys.argv[1], read_only=True)
out = openpyxl.Workbook(write_only=True)
sheet = out.create_sheet()
for row in book.worksheets[0].iter_rows(values_only=True):
    # the same cells fivecard writes: the input's, three per hand, winner, explanation
    sheet.append([1, *row, "A♠ K♠ Q♠ J♠ 10♠", "Royal Flush", 10, "2♣ 3♣ 4♣ 5♣ 7♦",
                  "High Card", 1, 1, "Hand 1 wins: Royal Flush beats High Card", ""])
out.save(sys.argv[2])
print(time.perf_counter() - t)
"""


def run(argv: list[str], stdin: str = "-", *, warm: Path | None = None) -> tuple[float, float]:
    """Wall time (s) and peak RSS (MB) of one whole process. The disk
    catches up first (``sync``): the previous run's output being written
    back must not slow this one. ``warm``: a file written and removed just
    before the run (:func:`warm_memory`)."""
    os.sync()
    time.sleep(0.5)
    if warm is not None:
        warm_memory(warm)
    out = subprocess.run([sys.executable, "-c", _TIMER, stdin, *argv], check=True, capture_output=True, text=True)
    elapsed, peak_kb = out.stdout.split()
    return float(elapsed), float(peak_kb) / 1024


def warm_memory(path: Path, size: int = 1 << 30) -> None:
    """Write ``size`` bytes to ``path`` and remove it: the next process
    writes its output into memory the system has just used. On a virtual
    machine, memory left unused for a few seconds goes back to the host and
    is slow to touch again (here up to ten times: 637 MB written to a file
    took 0.12 s right after another such write, 0.95 s after three seconds
    idle), so a run that writes more bytes pays more of that, whatever it
    is; warming both formats' runs alike measures fivecard, not the host."""
    write_bytes(path, size)
    path.unlink()


def write_bytes(path: Path, size: int) -> float:
    """The floor of writing ``size`` bytes to a file: in 1 MB writes of
    bytes made once, nothing else (seconds)."""
    piece = b"x" * (1 << 20)
    started = time.perf_counter()
    with open(path, "wb") as out:
        for _ in range(size >> 20):
            out.write(piece)
        out.write(piece[: size % (1 << 20)])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--xlsx-rows", type=int, default=100_000)
    parser.add_argument("--pairs", type=int, default=5, help="JSON Lines and CSV runs in turn, for their ratio")
    args = parser.parse_args()
    fivecard = str(Path(sys.executable).parent / "fivecard")
    targets = {"csv": 1.2, "jsonl": 2.0, "text": 2.0, "parquet": 1.0}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        euler, quarter = tmp / "euler.txt", tmp / "quarter.txt"
        make = HERE / "make_euler_file.py"
        subprocess.run([sys.executable, str(make), str(args.lines), str(euler)], check=True)
        subprocess.run([sys.executable, str(make), str(args.lines // 4), str(quarter)], check=True)
        print(f"1. fivecard solve of {args.lines:,} Project Euler lines (whole process; quarter = {args.lines // 4:,} lines)")
        print("   (each format twice: on a virtual machine, memory the system has not used for a while is")
        print("   slow to touch again, and a first run writes its output to such memory; a second run")
        print("   writes to the memory the first output freed: JSON Lines writes 637 MB)")
        for fmt, target in targets.items():
            times = []
            for _ in range(2):
                seconds, rss = run([fivecard, "solve", str(euler), "-o", str(tmp / f"out.{fmt}")])
                (tmp / f"out.{fmt}").unlink()
                times.append(seconds)
            _, rss_q = run([fivecard, "solve", str(quarter), "-o", str(tmp / f"q.{fmt}")])
            (tmp / f"q.{fmt}").unlink()
            print(f"   to {fmt:<8} {times[0]:6.2f} s, again {times[1]:5.2f} s (target <= {target} s)"
                  f"  peak RSS {rss:5.0f} MB (quarter: {rss_q:4.0f} MB)")
        sizes: dict[str, int] = {}
        for memory in ("cold", "warm"):
            ratios: list[float] = []
            timings: dict[str, list[float]] = {"csv": [], "jsonl": []}
            for _ in range(args.pairs):  # in turn: a drift of the machine's speed moves both runs of a pair
                pair: dict[str, float] = {}
                for fmt in ("csv", "jsonl"):
                    output = tmp / f"out.{fmt}"
                    pair[fmt], _ = run([fivecard, "solve", str(euler), "-o", str(output)],
                                       warm=tmp / "warm" if memory == "warm" else None)
                    sizes[fmt] = output.stat().st_size
                    output.unlink()
                    timings[fmt].append(pair[fmt])
                ratios.append(pair["jsonl"] / pair["csv"])
            if not ratios:
                break
            floors = {}
            for fmt, size in sizes.items():
                os.sync()
                if memory == "warm":
                    warm_memory(tmp / "warm")
                else:
                    time.sleep(3)
                floors[fmt] = write_bytes(tmp / "floor", size)
                (tmp / "floor").unlink()
            print(f"   JSON Lines / CSV, {len(ratios)} runs of each in turn, {memory} memory: median"
                  f" {statistics.median(ratios):.2f}x (pairs {min(ratios):.2f}-{max(ratios):.2f}x; target <= 1.4x);"
                  f" CSV {statistics.median(timings['csv']):.2f} s, JSON Lines {statistics.median(timings['jsonl']):.2f} s;"
                  f" writing their bytes alone ({sizes['csv'] >> 20} / {sizes['jsonl'] >> 20} MB):"
                  f" {floors['csv']:.2f} / {floors['jsonl']:.2f} s")
        seconds, rss = run([sys.executable, str(HERE / "treys_solve.py"), str(euler), str(tmp / "treys.csv")])
        (tmp / "treys.csv").unlink()
        print(f"   treys script to CSV {seconds:6.2f} s  peak RSS {rss:5.0f} MB")

        hands, hands_q = tmp / "hands.txt", tmp / "hands_q.txt"
        rng = random.Random(5)
        deck = [r + s for r in "23456789TJQKA" for s in "CDHS"]
        with open(hands, "w") as out:
            out.writelines(" ".join(rng.sample(deck, 5)) + "\n" for _ in range(args.lines))
        with open(hands_q, "w") as out:
            out.writelines(" ".join(rng.sample(deck, 5)) + "\n" for _ in range(args.lines // 4))
        seconds, rss = run([fivecard, "classify", "-"], str(hands))
        _, rss_q = run([fivecard, "classify", "-"], str(hands_q))
        print(f"\n2. fivecard classify - of {args.lines:,} hands: {seconds:6.2f} s (target <= 2.5 s)"
              f"  peak RSS {rss:5.0f} MB (quarter: {rss_q:4.0f} MB)")
        seconds, rss = run([fivecard, "classify", "--json", "-"], str(hands))
        print(f"   classify --json -: {seconds:6.2f} s  peak RSS {rss:5.0f} MB")

        import openpyxl

        book = tmp / "in.xlsx"
        workbook = openpyxl.Workbook(write_only=True)
        sheet = workbook.create_sheet("Hands")
        sheet.append(["Round", "Player 1", "Player 2"])
        for number in range(1, args.xlsx_rows + 1):
            cards = rng.sample(deck, 10)
            sheet.append([number, " ".join(cards[:5]), " ".join(cards[5:])])
        workbook.save(book)
        seconds, rss = run([fivecard, "solve", str(book), "-o", str(tmp / "out.xlsx")])
        floor = float(subprocess.run([sys.executable, "-c", _FLOOR, str(book), str(tmp / "floor.xlsx")],
                                     check=True, capture_output=True, text=True).stdout)
        print(f"\n4. {args.xlsx_rows:,} rows xlsx -> xlsx: fivecard {seconds:6.2f} s (peak RSS {rss:4.0f} MB);"
              f" openpyxl read-only + write-only floor {floor:6.2f} s: {seconds / floor:.2f}x (target <= 1.5x)")

        seconds, rss = run([fivecard, "deal", "--rounds", "200000", "--json"], "-")
        print(f"\n5. fivecard deal --rounds 200000 --json: {seconds:6.2f} s  peak RSS {rss:5.0f} MB")


if __name__ == "__main__":
    main()
