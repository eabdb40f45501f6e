"""How long each call of the solvers' compiled kernels takes, alone: the
pay-table solver's (``fivecard.play._solver``: every hand's kind, the
counts per card set, every class's holds) and the dealer game's
(``fivecard.play._dealer``: the counts per set, the sums of a sample of
classes), on the standard deck, their arguments made once beforehand.

    .venv/bin/python benchmarks/bench_kernels.py [--rounds 5] [--deals 20000]

Each call is timed ``--rounds`` times; the median, min and max are printed
(a kernel's cost of checking its buffers, as against a build before).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from math import comb

import numpy as np

from fivecard.core import kernel
from fivecard.core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, tables_for
from fivecard.core.rules import get_rules
from fivecard.play import dealer, strategy

from fivecard.play.paytables import JACKS_OR_BETTER
from fivecard.vector import batch
from fivecard.vector.classes import KEPT, deal_classes


def spread(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1e3:8.2f} ms (min {min(times) * 1e3:8.2f}, max {max(times) * 1e3:8.2f})"


def timed(name: str, fn: Callable[[], object], rounds: int) -> None:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    print(f"{name:28} {spread(times)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=20000, help="classes of deals the dealer game's sums take")
    args = parser.parse_args()
    os.environ["FIVECARD_CACHE"] = "off"
    solver, counts_kernel = kernel.load("fivecard.play._solver"), kernel.load("fivecard.play._dealer")
    if solver is None or counts_kernel is None:
        raise SystemExit("the compiled kernels are not built")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    rules = get_rules("standard")
    deck = rules.deck()
    n = len(deck)
    # the pay-table solver
    codes = codes_for(rules)
    entry = np.ascontiguousarray(JACKS_OR_BETTER.entry_table(rules), dtype=np.uint8)
    kind_arguments = (
        np.array([codes[c.index] for c in deck], dtype=np.int32),
        np.array([c.index in rules.wild_indices for c in deck], dtype=np.uint8),
        np.frombuffer(tables_for(rules).lookup, dtype=np.uint16), SUIT_SHIFT, SUIT_MASK, KEY_SPACE,
        entry, entry.shape[1], np.empty(comb(n, 5), dtype=np.uint8),
    )  # fmt: skip
    timed("solver kinds", lambda: solver.kinds(*kind_arguments), args.rounds)
    top = strategy._hand_kinds(JACKS_OR_BETTER, rules)
    kinds = len(JACKS_OR_BETTER.final_names())
    tables = [np.empty((comb(n, k), kinds), dtype=np.int32) for k in range(5)]
    timed("solver fours", lambda: solver.fours(top, n, kinds, tables[4]), args.rounds)
    for size in (3, 2, 1, 0):
        solver.fewer(tables[size + 1], n, kinds, size, tables[size])
    timed("solver fewer (3 to 0)", lambda: [solver.fewer(tables[s + 1], n, kinds, s, tables[s]) for s in (3, 2, 1, 0)],
          args.rounds)  # fmt: skip
    classes = deal_classes(deck, rules)
    first = np.ascontiguousarray(classes.first, dtype=np.int64)
    weight = np.ascontiguousarray(classes.deals, dtype=np.int64)
    m = len(first)
    pays = JACKS_OR_BETTER.line_pays().astype(np.int64)
    draws = np.array([comb(n - 5, 5 - k) for k in KEPT.tolist()], dtype=np.int64)

    def holds() -> None:
        solver.holds(
            first, weight, tables, top, n, pays, draws, 1, np.empty(m, dtype=np.int8), np.empty(m),
            np.empty(m, dtype=np.int8), np.empty(m), np.zeros((6, kinds), dtype=np.int64), None,
        )  # fmt: skip

    timed(f"solver holds ({m} classes)", holds, args.rounds)
    # the dealer game
    indices = np.array([c.index for c in deck], dtype=np.int32)
    hands = batch.combinations(n)
    found = batch.strengths_of_indices(indices[hands], rules=rules)
    present = np.zeros(1 << 16, dtype=bool)
    present[found] = True
    level = (np.cumsum(present, dtype=np.int64) - 1).astype(np.uint16)[found]
    order = np.argsort(level, kind="stable")
    rows, ordered = np.ascontiguousarray(hands[order]), level[order]

    def subsets() -> None:
        for k in range(1, 5):
            size = len(rows) * comb(5, k)
            out = np.empty(comb(n, k) + 1, dtype=np.int64), np.empty(size, dtype=np.uint16), np.empty(size, dtype=np.uint32)
            counts_kernel.subsets(rows, ordered, k, n, *out)

    timed("dealer subsets (1 to 4)", subsets, args.rounds)
    made = dealer._tables(rules, tuple(c.index for c in deck))
    counts = made.compiled()
    assert counts is not None
    deals = first[: args.deals]
    win, draw = np.empty((len(deals), 32), dtype=np.int64), np.empty((len(deals), 32), dtype=np.int64)
    timed(f"dealer holds ({len(deals)} classes)", lambda: counts.holds(deals, win, draw), args.rounds)


if __name__ == "__main__":
    main()
