"""How long each pay table of the catalogue takes to solve, and its chart,
as a user runs them: a fresh process each (imports, tables, the solve and
the report all in the time).

    .venv/bin/python benchmarks/bench_catalogue.py [--rounds 3] [--tables NAME ...] [--charts NAME ...]

a) ``fivecard strategy --paytable NAME --json`` for every table (return,
   variance, final counts and the bankroll for a 1,000-hand session):
   target <= 2 s cold and warm, Jacks or Better 9/6 <= 1 s warm. Cold: a
   fresh, empty cache folder each run (the lookup tables, the deal classes
   and the game's counts per card set made again, as on a first run on a
   new machine); warm: the cache of the run before.
b) ``fivecard strategy --paytable NAME --chart`` (the chart derived and
   priced exactly): target <= 30 s, warm.

Each is run ``--rounds`` times; the median, min and max are printed, with
the machine's core count.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

FIVECARD = [sys.executable, "-m", "fivecard"]


def timed(arguments: list[str], cache: str) -> float:
    started = time.perf_counter()
    subprocess.run(FIVECARD + arguments, capture_output=True, check=True, env={**os.environ, "FIVECARD_CACHE": cache})
    return time.perf_counter() - started


def spread(times: list[float]) -> str:
    return f"median {statistics.median(times):5.2f} s (min {min(times):5.2f}, max {max(times):5.2f})"


def main() -> None:
    from fivecard.play.paytables import catalogue

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", nargs="*", default=[t.name for t in catalogue()])
    parser.add_argument("--charts", nargs="*", default=["jacks-or-better-9-6", "deuces-wild-full-pay",
                                                        "triple-double-bonus-9-7", "joker-poker-kings-20-7-5"])
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; {args.rounds} rounds each")
    print("a) fivecard strategy --paytable NAME --json (target <= 2 s cold and warm; Jacks or Better 9/6 <= 1 s warm)")
    worst = worst_warm = 0.0
    with tempfile.TemporaryDirectory() as warm:
        for name in args.tables:
            cold = []
            for _ in range(args.rounds):
                with tempfile.TemporaryDirectory() as empty:
                    cold.append(timed(["strategy", "--paytable", name, "--json", "--no-progress"], empty))
            timed(["strategy", "--paytable", name, "--json", "--no-progress"], warm)  # fills the warm cache
            hot = [timed(["strategy", "--paytable", name, "--json", "--no-progress"], warm) for _ in range(args.rounds)]
            worst = max(worst, statistics.median(cold))
            worst_warm = max(worst_warm, statistics.median(hot))
            print(f"  {name:<26} cold {spread(cold)}  warm {spread(hot)}")
        print(f"  slowest median, cold: {worst:.2f} s, warm: {worst_warm:.2f} s")
        print("b) fivecard strategy --paytable NAME --chart (target <= 30 s, warm)")
        for name in args.charts:
            charted = [timed(["strategy", "--paytable", name, "--chart", "--no-progress"], warm) for _ in range(args.rounds)]
            print(f"  {name:<26} {spread(charted)}")


if __name__ == "__main__":
    main()
