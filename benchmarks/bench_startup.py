"""Start-up: whole processes of fivecard's quickest uses beside a treys one-liner.

    .venv/bin/python -m compileall -q src/fivecard   # as scripts/setup.sh does
    .venv/bin/python benchmarks/bench_startup.py [--runs N]

Runs each process N times (default 20), one of each in turn so that a busy
moment hits all alike, and prints the best, median and worst wall time of
each (from its start to its exit: the interpreter's start, the imports, the
work, the exit), and its median over the yardstick's:
  - ``python -c pass``: the interpreter alone;
  - ``python -c 'import fivecard'``;
  - ``fivecard classify 'AS KS QS JS TS'`` as the ``fivecard`` script starts
    it and as ``python -m fivecard``, with the table cache warm (what every
    run after the first sees), with the cache off (``FIVECARD_CACHE=off``: the
    table built in the process), and cold (the first run ever: it builds the
    table and writes the cache; a quarter of N runs);
  - the yardstick: a treys one-liner that classifies the same hand (treys'
    import, its tables and one evaluation: ``Royal Flush``).

The table cache is a temporary folder (the user's own is neither read nor
written). ``bench_core.py`` prints these same processes as its third part.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HAND = "AS KS QS JS TS"
#: The yardstick: treys classifies the same hand in one line.
TREYS = (
    "from treys import Card, Evaluator; e = Evaluator(); print(e.class_to_string(e.get_rank_class("
    "e.evaluate([Card.new('As'), Card.new('Ks')], [Card.new('Qs'), Card.new('Js'), Card.new('Ts')]))))"
)

Case = tuple[list[str], dict[str, str]]  # a process's argv and environment


def process_times(cases: dict[str, Case], runs: int) -> dict[str, list[float]]:
    """Each process's wall times (ms) over ``runs`` runs, taken in turn so
    that a busy moment hits all alike."""
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(runs):
        for label, (argv, env) in cases.items():
            started = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            times[label].append((time.perf_counter() - started) * 1000)
    return times


def measure(runs: int, cache: str) -> list[tuple[str, list[float]]]:
    """The processes' wall times (ms), each with its label, the yardstick
    last; the table cache in ``cache`` (a folder)."""
    python = sys.executable
    script = shutil.which("fivecard") or str(Path(python).parent / "fivecard")
    warm = {**os.environ, "FIVECARD_CACHE": cache}
    off = {**os.environ, "FIVECARD_CACHE": "off"}
    by_script = [script, "classify", HAND]
    by_module = [python, "-m", "fivecard", "classify", HAND]
    subprocess.run(by_script, check=True, capture_output=True, env=warm)  # fills the cache
    measured = process_times(
        {
            "python -c pass": ([python, "-c", "pass"], warm),
            "python -c 'import fivecard'": ([python, "-c", "import fivecard"], warm),
            f"fivecard classify '{HAND}'": (by_script, warm),
            f"python -m fivecard classify '{HAND}'": (by_module, warm),
            "  fivecard classify, FIVECARD_CACHE=off": (by_script, off),
            "treys one-liner (the yardstick)": ([python, "-c", TREYS], warm),
        },
        runs,
    )
    cold: list[float] = []
    for i in range(max(1, runs // 4)):
        fresh = {**os.environ, "FIVECARD_CACHE": os.path.join(cache, f"cold{i}")}
        cold += process_times({"cold": (by_script, fresh)}, 1)["cold"]
    rows = list(measured.items())
    rows.insert(-1, (f"  fivecard classify, first run (cold cache; {len(cold)} runs)", cold))
    return rows


def report(rows: list[tuple[str, list[float]]]) -> None:
    """Best / median / worst of each process, and its median over the
    yardstick's (the last row)."""
    yardstick = statistics.median(rows[-1][1])
    for label, times in rows:
        best, median, worst = min(times), statistics.median(times), max(times)
        print(f"  {label:<52} {best:6.1f} / {median:6.1f} / {worst:6.1f} ms  {median / yardstick:5.2f}x treys")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each whole process")
    args = parser.parse_args()
    compiled = "off: PYTHONDONTWRITEBYTECODE is set" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; whole processes, best / median / worst "
          f"of {args.runs} (.pyc bytecode cache {compiled})")  # fmt: skip
    with tempfile.TemporaryDirectory() as cache:
        report(measure(args.runs, cache))


if __name__ == "__main__":
    main()
