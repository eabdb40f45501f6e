"""How long the whole game takes to solve, and how the dealer game
scales over Dask workers.

    .venv/bin/python benchmarks/bench_strategy.py [--rules standard] [--workers 0 1 2] [--skip-paytables]

a) the pay tables (``fivecard strategy --paytable``, a fresh process each,
   as a user runs it): Jacks or Better 9/6 and Deuces Wild full pay, cold (a
   fresh, empty cache folder: the lookup tables, the deal classes and the
   counts per card set made again; target <= 2 s) and warm (that folder
   again; target <= 1 s);
b) the dealer game under ``--rules``: in this process (``--workers 0``) and
   on a Dask LocalCluster of 1 and 2 processes (a fresh process each; the
   cluster's start and each worker's tables are in the time, as a user
   sees it). From the 1- and 2-worker times it estimates the run time on N
   machines: the work that divides (the parts) and the work that does not
   (start-up, each worker's tables, the sums at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

FIVECARD = [sys.executable, "-m", "fivecard"]


def timed(arguments: list[str], cache: str | None = None) -> tuple[float, dict[str, object]]:
    environment = {**os.environ, "FIVECARD_CACHE": cache} if cache is not None else None
    started = time.perf_counter()
    done = subprocess.run(FIVECARD + arguments, capture_output=True, text=True, check=True, env=environment)
    return time.perf_counter() - started, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--skip-paytables", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores")
    if not args.skip_paytables:
        print("a) pay tables (fivecard strategy --paytable ... --json, a fresh process)")
        for table, rules in (("jacks-or-better", "standard"), ("deuces-wild", "deuces-wild")):
            with tempfile.TemporaryDirectory() as cache:
                arguments = ["strategy", "--paytable", table, "--rules", rules, "--json"]
                cold, data = timed(arguments, cache)
                warm, _ = timed(arguments, cache)
            print(f"  {table:<16} {rules:<12} cold {cold:5.2f} s (target <= 2 s)  warm {warm:5.2f} s (target <= 1 s)"
                  f"  return {data['percent']:.4f}%")
    print(f"b) the dealer game under {args.rules} (fivecard strategy --dealer --json, a fresh process)")
    times: dict[int, float] = {}
    answers = set()
    for workers in args.workers:
        seconds, data = timed(["strategy", "--dealer", "--rules", args.rules, "--workers", str(workers), "--json"])
        times[workers] = seconds
        answers.add((data["win"], data["draw"], data["lose"]))
        where = "this process" if workers == 0 else f"{workers} Dask worker{'s' if workers > 1 else ''}"
        print(f"  {where:<16} {seconds:6.1f} s  (the solver's own clock: {data['seconds']:.1f} s)  win {data['win']}")
    print(f"  the same answer every time: {len(answers) == 1}")
    if 1 in times and 2 in times:
        one, two = times[1], times[2]
        print(f"  1 -> 2 workers: {one / two:.2f}x faster")
        # t(w) = fixed + divided / w, from the two runs
        divided = 2 * (one - two)
        fixed = one - divided
        print(f"  model t(N) = {fixed:.1f} s + {divided:.1f} s / N  (N worker processes, one a core)")
        print("  (two points on a busy 2-core machine: the fixed part, the cluster's start and each")
        print("  worker's tables made side by side, is better read off a single run's progress)")
        for n in (4, 8, 16, 32, 64):
            print(f"    N = {n:>2}: about {fixed + divided / n:5.1f} s")


if __name__ == "__main__":
    main()
