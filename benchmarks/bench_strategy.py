"""How long the whole game takes to solve, and how the dealer game
scales over Dask workers.

    .venv/bin/python benchmarks/bench_strategy.py [--rules standard one-eyed-jacks]
        [--workers 0 1 2] [--rounds 3] [--no-running] [--skip-paytables]

a) the pay tables (``fivecard strategy --paytable``, a fresh process each,
   as a user runs it): Jacks or Better 9/6 and Deuces Wild full pay, cold (a
   fresh, empty cache folder: the lookup tables, the deal classes and the
   counts per card set made again; target <= 2 s) and warm (that folder
   again; target <= 1 s);
b) the dealer game under each of ``--rules`` (default: the standard game,
   about 3 s of one core, and One-Eyed Jacks, whose wild cards make five
   times the classes): in this process (``--workers 0``), on 1 and 2 new
   workers (``--workers N``: threads of the command where the compiled
   kernel is built, else a new Dask LocalCluster of processes, whose start
   and close are in the time), and on Dask clusters started beforehand
   (``--scheduler``: a user's own cluster, whose start is not the
   command's): of 1 and 2 single-threaded worker processes, and, with 2,
   of one worker process of 2 threads (what the manual suggests with the
   kernel); each worker maps the tables the command made or found in the
   cache; each cluster runs only around its own setting, warmed by one
   untimed run, so that the other settings have the two cores idle). A
   fresh process each, as a user runs it; the settings in turn,
   ``--rounds`` times, so that a drift of the machine's speed moves them
   alike. Each setting's
   wall time and its CPU time (the command and the processes it waited
   for: a new cluster's workers, not a running one's), median and range;
   the ratio of this process to 2 workers in each round; and, for each kind
   of cluster, t(N) = fixed + divided / N fitted to the medians of 1 and 2
   workers: the work that divides (the parts) and the work that does not
   (the command's and the cluster's start, the sums at the end).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

FIVECARD = [sys.executable, "-m", "fivecard"]


def timed(arguments: list[str], cache: str | None = None) -> tuple[float, float, dict[str, object]]:
    """A fresh process's wall time, its CPU time (with every process it waited for) and its JSON;
    ``cache``: the table cache folder it uses (default: the user's)."""
    environment = {**os.environ, "FIVECARD_CACHE": cache} if cache is not None else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(FIVECARD + arguments, capture_output=True, text=True, check=True, env=environment)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, json.loads(done.stdout)


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())

@contextlib.contextmanager
def running_clusters(shapes: list[tuple[int, int]]) -> Iterator[dict[tuple[int, int], str]]:
    """Dask clusters of each shape in ``shapes`` (worker processes, threads
    each; single-threaded as ``--workers N`` starts them without the
    compiled kernel: one BLAS thread each, no ``MALLOC_TRIM_THRESHOLD_``),
    started before the runs they serve, as a user's own cluster is: their
    scheduler addresses."""
    import dask
    from distributed import LocalCluster

    one_thread = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    with contextlib.ExitStack() as stack, dask.config.set(
        {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
    ):
        addresses = {}
        for size, threads in shapes:
            cluster = stack.enter_context(LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=size, threads_per_worker=threads, processes=True, host="127.0.0.1",
                dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.CRITICAL, env=one_thread,
            ))
            addresses[size, threads] = cluster.scheduler_address
        yield addresses


def spread(values: list[float]) -> str:
    """The median and the range of ``values``."""
    return f"{statistics.median(values):5.2f} ({min(values):.2f}-{max(values):.2f})"


def fitted(one: float, two: float) -> tuple[float, float]:
    """t(N) = fixed + divided / N through t(1) = ``one`` and t(2) = ``two``."""
    divided = 2 * (one - two)
    return one - divided, divided


def dealer_game(rules: str, workers: list[int], rounds: int, running: bool) -> None:
    """The dealer game under ``rules`` in each setting, the settings in
    turn ``rounds`` times (a drift of the machine's speed moves them
    alike): the medians and ranges, the ratios to this process in each
    round, and the model t(N) fitted to the medians of 1 and 2 workers."""
    print(f"b) the dealer game under {rules} (fivecard strategy --dealer --json, a fresh process;"
          f" {rounds} rounds, the settings in turn: median (range))")
    shapes = [(n, 1) for n in workers if n > 0] if running else []
    if (2, 1) in shapes:
        shapes.append((1, 2))
    # each setting: its name, its options and, for a running cluster, its
    # shape (the cluster's scheduler address follows --scheduler)
    settings: list[tuple[str, list[str], tuple[int, int] | None]] = []
    for n in workers:
        plural = "s" if n > 1 else ""
        settings.append(("this process" if n == 0 else f"new workers (--workers) of {n} worker{plural}",
                         ["--workers", str(n)], None))
    for n, threads in shapes:
        of = f" of {threads} threads" if threads > 1 else ""
        settings.append((f"a running cluster of {n} worker{'s' if n > 1 else ''}{of}", ["--scheduler"], (n, threads)))
    walls: dict[str, list[float]] = {name: [] for name, _, _ in settings}
    cpus: dict[str, list[float]] = {name: [] for name, _, _ in settings}
    answers = set()
    for _ in range(rounds):
        for name, options, size in settings:
            # a running cluster runs only for its own setting: an idle
            # cluster (its scheduler, nannies and workers) takes some 0.12
            # of a core, which the other settings' two cores would lose.
            # Each is warmed by one run first, as a user's own cluster that
            # has run the game before (fivecard imported, the tables mapped).
            with running_clusters([size] if size else []) as addresses:
                command = ["strategy", "--dealer", "--rules", rules, *options, *addresses.values(), "--json"]
                if size:
                    timed(command)
                wall, cpu, data = timed(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
            answers.add((data["win"], data["draw"], data["lose"]))
    for name, _, _ in settings:
        print(f"  {name:<34} {spread(walls[name])} s, CPU of the command {spread(cpus[name])} s")
    print(f"  the same answer every time: {len(answers) == 1}")
    here = walls.get("this process")
    for kind in ("new workers (--workers)", "a running cluster"):
        one, two = walls.get(f"{kind} of 1 worker"), walls.get(f"{kind} of 2 workers")
        for name in (f"{kind} of 2 workers", f"{kind} of 1 worker of 2 threads"):
            if here and name in walls:
                ratios = [a / b for a, b in zip(here, walls[name])]
                print(f"  this process / {name}, per round: {spread(ratios)}x (target >= 1.7x)")
        if one and two:
            fixed, divided = fitted(statistics.median(one), statistics.median(two))
            print(f"  {kind}: t(N) = {fixed:.2f} s + {divided:.2f} s / N  (medians of N = 1, 2)")
    if (2, 1) in shapes:
        with running_clusters([(2, 1)]) as addresses:
            solve_alone(rules, addresses[2, 1], rounds)


def solve_alone(rules: str, address: str, rounds: int) -> None:
    """The solve alone, from the library in this process (no command's
    start, no checkpoints): in this process against the running cluster of
    2 workers at ``address`` (warmed by one solve first), in turn."""
    from distributed import Client

    from fivecard.play.dealer import solve_dealer

    times: dict[str, list[float]] = {"here": [], "two": []}
    with Client(address) as client:  # type: ignore[no-untyped-call]
        solve_dealer(rules, client=client)
        for _ in range(rounds):
            for name, options in (("here", {"workers": 0}), ("two", {"client": client})):
                started = time.perf_counter()
                solve_dealer(rules, **options)
                times[name].append(time.perf_counter() - started)
    ratios = [a / b for a, b in zip(times["here"], times["two"])]
    print(f"  the solve alone (solve_dealer, this benchmark's process): here {spread(times['here'])} s,"
          f" on the running cluster of 2 workers {spread(times['two'])} s: {spread(ratios)}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", nargs="+", default=["standard", "one-eyed-jacks"])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--rounds", type=int, default=3, help="each setting run in turn, this many times")
    parser.add_argument("--running", action=argparse.BooleanOptionalAction, default=True,
                        help="also on clusters started beforehand (--scheduler)")
    parser.add_argument("--skip-paytables", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, {load()}")
    if not args.skip_paytables:
        print("a) pay tables (fivecard strategy --paytable ... --json, a fresh process)")
        for table, rules in (("jacks-or-better", "standard"), ("deuces-wild", "deuces-wild")):
            with tempfile.TemporaryDirectory() as cache:
                arguments = ["strategy", "--paytable", table, "--rules", rules, "--json"]
                cold, _, data = timed(arguments, cache)
                warm, _, _ = timed(arguments, cache)
            print(f"  {table:<16} {rules:<12} cold {cold:5.2f} s (target <= 2 s)  warm {warm:5.2f} s (target <= 1 s)"
                  f"  return {data['percent']:.4f}%")
    for rules in args.rules:
        dealer_game(rules, args.workers, args.rounds, args.running)
    print(f"machine after: {load()}")


if __name__ == "__main__":
    main()
