"""The solvers' compiled kernels (fivecard.play._solver, fivecard.play._dealer)
given what their Python feeders never give: buffers that start at an odd
byte, outputs that share memory with inputs, arrays another thread writes
to during the call or changed after the kernel checked them, numbers large
enough to overflow int64. Each is an error or a right answer, never a read
or write past an array, a misaligned load or a signed overflow.

Most of these faults go unseen in the usual build (x86 loads misaligned
items, Python's -fwrapv wraps overflows); the kernels built with
``-fsanitize=address,undefined -fno-sanitize-recover=undefined`` and run
with ``LD_PRELOAD=$(gcc -print-file-name=libasan.so)`` report each one."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from fivecard.core import kernel
from fivecard.core.rules import get_rules
from fivecard.play import dealer, strategy
from fivecard.vector.classes import numbered_sets


@pytest.fixture(autouse=True)
def no_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("FIVECARD_CACHE", "off")
    yield


def module(name: str) -> Any:
    found = kernel.load(f"fivecard.play.{name}")
    assert found is not None, "the compiled kernels are not built"
    return found


def misaligned(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The same items, one byte past an aligned start."""
    room = np.zeros(array.nbytes + 1, dtype=np.uint8)
    view = room[1:].view(array.dtype).reshape(array.shape)
    view[...] = array
    return view


def while_written(call: Callable[[], object], write: Callable[[int], None], seconds: float = 1.0) -> int:
    """``call`` again and again while another thread calls ``write(i)``,
    i = 0, 1, ...: each call is an answer or a ValueError. How many calls
    raised."""
    stop = threading.Event()

    def writer() -> None:
        i = 0
        while not stop.is_set():
            write(i)
            i += 1

    thread = threading.Thread(target=writer)
    thread.start()
    refused = 0
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                call()
            except ValueError:
                refused += 1
    finally:
        stop.set()
        thread.join()
    return refused


# --- the pay-table solver ---------------------------------------------------------

N, KINDS = 9, 3


class Solver:
    """A small game's arguments for each of the solver kernel's calls."""

    def __init__(self, n: int = N, kinds: int = KINDS, rows: int = 4) -> None:
        self.n, self.kinds = n, kinds
        rng = np.random.default_rng(n)
        self.top = rng.integers(0, kinds, comb(n, 5)).astype(np.uint8)
        self.totals = strategy._KindTotals(self.top, n, kinds)
        self.first = np.tile(np.arange(5, dtype=np.int64), (rows, 1))
        self.weight = np.ones(rows, dtype=np.int64)
        self.pays = np.arange(kinds, dtype=np.int64)
        self.draws = np.ones(32, dtype=np.int64)
        self.outputs = self.made_outputs()

    def made_outputs(self) -> dict[str, npt.NDArray[Any]]:
        m = len(self.first)
        return {
            "best": np.empty(m, dtype=np.int8), "value": np.empty(m), "second": np.empty(m, dtype=np.int8),
            "second_value": np.empty(m), "final": np.zeros((6, self.kinds), dtype=np.int64),
            "values": np.empty((m, 32)),
        }  # fmt: skip

    def holds(self, **given: Any) -> dict[str, npt.NDArray[Any]]:
        """holds with the arguments ``given`` in place of the game's; the outputs."""
        a: dict[str, Any] = {
            "first": self.first, "weight": self.weight, "tables": self.totals.tables, "top": self.top, "n": self.n,
            "pays": self.pays, "draws": self.draws, "spread": 1, **self.made_outputs(),
        }  # fmt: skip
        a.update(given)
        module("_solver").holds(
            a["first"], a["weight"], a["tables"], a["top"], a["n"], a["pays"], a["draws"], a["spread"], a["best"],
            a["value"], a["second"], a["second_value"], a["final"], a["values"],
        )  # fmt: skip
        return {name: a[name] for name in ("best", "value", "second", "second_value", "final", "values")}

    def fours(self, top: Any = None, out: Any = None) -> None:
        top = self.top if top is None else top
        out = np.empty((comb(self.n, 4), self.kinds), dtype=np.int32) if out is None else out
        module("_solver").fours(top, self.n, self.kinds, out)

    def fewer(self, size: int = 3, upper: Any = None, out: Any = None) -> None:
        upper = self.totals.tables[size + 1] if upper is None else upper
        out = np.empty((comb(self.n, size), self.kinds), dtype=np.int32) if out is None else out
        module("_solver").fewer(upper, self.n, self.kinds, size, out)


def kind_arguments(n: int = N) -> dict[str, Any]:
    """kinds' arguments: codes 0..n-1, none wild, a lookup of every sum."""
    return {
        "codes": np.arange(n, dtype=np.int32), "wild": np.zeros(n, dtype=np.uint8),
        "lookup": np.arange(8 * n, dtype=np.uint16), "shift": 0, "mask": 0, "space": 0,
        "entry": (np.arange(8 * n, dtype=np.uint8) % 7)[:, None].copy(), "columns": 1,
        "out": np.empty(comb(n, 5), dtype=np.uint8),
    }  # fmt: skip


def kinds(**given: Any) -> npt.NDArray[np.uint8]:
    a = {**kind_arguments(), **given}
    module("_solver").kinds(*a.values())
    out: npt.NDArray[np.uint8] = a["out"]
    return out


@pytest.mark.parametrize(
    "call",
    [
        lambda s: kinds(codes=misaligned(np.arange(N, dtype=np.int32))),
        lambda s: kinds(lookup=misaligned(np.arange(8 * N, dtype=np.uint16))),
        lambda s: s.fours(out=misaligned(np.zeros((comb(N, 4), KINDS), dtype=np.int32))),
        lambda s: s.fewer(upper=misaligned(s.totals.tables[4])),
        lambda s: s.fewer(out=misaligned(np.zeros((comb(N, 3), KINDS), dtype=np.int32))),
        *(
            (lambda name: lambda s: s.holds(**{name: misaligned(getattr(s, name))}))(name)
            for name in ("first", "weight", "pays", "draws")
        ),
        *(
            (lambda name: lambda s: s.holds(**{name: misaligned(s.made_outputs()[name])}))(name)
            for name in ("value", "second_value", "final", "values")
        ),
        lambda s: s.holds(tables=[*s.totals.tables[:4], misaligned(s.totals.tables[4])]),
    ],
    ids=[
        "kinds-codes", "kinds-lookup", "fours-out", "fewer-upper", "fewer-out", "holds-first", "holds-weight",
        "holds-pays", "holds-draws", "holds-value", "holds-second_value", "holds-final", "holds-values",
        "holds-tables",
    ],
)  # fmt: skip
def test_the_solver_refuses_buffers_not_aligned_for_their_items(call: Callable[[Solver], object]) -> None:
    """A buffer one byte past an aligned start (np.frombuffer(..., offset=1)
    makes them): refused, not read as misaligned int32 or int64 (undefined
    in C; x86 reads them, the sanitizer reports them)."""
    with pytest.raises(ValueError, match="aligned"):
        call(Solver())


def test_the_solver_refuses_an_output_that_shares_memory_with_an_input() -> None:
    """An output that is an input, or part of one: its writes would change
    what the kernel reads as it runs (the kinds in top, the deals' positions
    in first), and indices checked before would be read again unchecked."""
    game = Solver(n=24, kinds=1)  # C(24, 5) bytes of top are C(24, 4) int32 counts of one kind
    top = game.top.copy()
    with pytest.raises(ValueError, match="shares memory"):
        game.fours(top=top, out=top.view(np.int32).reshape(-1, 1))
    game = Solver(n=7, kinds=KINDS)  # C(7, 4) = C(7, 3): a table of the sets of 4 is one of 3
    upper = game.totals.tables[4].copy()
    with pytest.raises(ValueError, match="shares memory"):
        game.fewer(size=3, upper=upper, out=upper)
    game = Solver(rows=64)
    first = game.first.copy()
    with pytest.raises(ValueError, match="shares memory"):  # the values, float64, written over the deals
        game.holds(first=first, value=first.view(np.float64).reshape(-1)[:64])
    outputs = game.made_outputs()
    with pytest.raises(ValueError, match="shares memory"):  # two outputs in one buffer
        game.holds(value=outputs["values"][:, 0].copy(), second_value=outputs["values"].reshape(-1)[:64],
                   values=outputs["values"])  # fmt: skip
    entry = np.zeros((2 * comb(N, 5), 1), dtype=np.uint8)
    with pytest.raises(ValueError, match="shares memory"):
        kinds(out=entry.reshape(-1)[: comb(N, 5)], entry=entry)


def test_the_solver_adds_five_codes_past_int32_exactly() -> None:
    """Five int32 codes whose sum is past int32 (a lookup index is the sum
    shifted right): summed in int64, the index Python's integers give."""
    n, shift = 9, 28
    codes = np.full(n, 1 << 30, dtype=np.int32)  # five sum to 5 << 30: index 20
    lookup = np.arange(32, dtype=np.uint16)
    entry = np.arange(32, dtype=np.uint8)[:, None].copy()
    found = kinds(codes=codes, lookup=lookup, shift=shift, entry=entry)
    assert found.tolist() == [(5 << 30) >> shift] * comb(n, 5)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"pays": np.array([0, 1, 1 << 40], dtype=np.int64)}, "pays"),
        ({"pays": np.array([0, -1, 1], dtype=np.int64)}, "pays"),
        ({"weight": np.array([1, 1, 1, 1 << 62], dtype=np.int64)}, "weight"),
        ({"weight": np.array([1, -1, 1, 1], dtype=np.int64)}, "weight"),
    ],
    ids=["pay-too-large", "pay-negative", "weight-too-large", "weight-negative"],
)
def test_the_solver_refuses_pays_and_weights_that_could_overflow(given: dict[str, Any], message: str) -> None:
    """A pay or a weight large enough that a set's squared pays or the final
    counts would overflow int64: a ValueError, not a wrapped number."""
    with pytest.raises(ValueError, match=message):
        Solver().holds(**given)


def test_the_solver_refuses_tables_that_are_not_counts_of_hands() -> None:
    """Counts that would overflow the pays' sums (or are negative, or do not
    add up to the hands holding the set): refused, not summed."""
    game = Solver()
    for wrong in (np.iinfo(np.int32).max, -1, 0):
        tables = [t.copy() for t in game.totals.tables]
        tables[2][5, 1] = wrong
        with pytest.raises(ValueError, match="tables"):
            game.holds(tables=tables, pays=np.array([0, 1_000_000, 1_000_000], dtype=np.int64))


def test_the_solver_refuses_a_final_count_past_int64() -> None:
    game = Solver()
    final = np.full((6, KINDS), np.iinfo(np.int64).max, dtype=np.int64)
    with pytest.raises(ValueError, match="final"):
        game.holds(final=final)
    assert (final == np.iinfo(np.int64).max).all()


@pytest.mark.slow
def test_the_solver_reads_deals_and_kinds_another_thread_writes_to() -> None:
    """Another thread writes positions past the deck into the deals, and
    kinds past the kinds into top, while the kernel runs (the GIL let go):
    each call gives an answer or a ValueError, never a read past a table
    (the deals are copied, the kinds checked where they are read)."""
    game = Solver(n=20, kinds=3, rows=50_000)
    first, top = game.first.copy(), game.top.copy()
    last = len(first) - 1

    def deal(i: int) -> None:
        first[last, 4] = 10**6 if i % 2 else 4

    def kind(i: int) -> None:  # the kind of the deals' hand (the first), and of the last hand
        top[0] = top[-1] = 200 if i % 2 else 0

    while_written(lambda: game.holds(first=first), deal)
    while_written(lambda: game.holds(top=top), kind)
    while_written(lambda: game.fours(top=top), kind)


# --- the dealer game ----------------------------------------------------------------


class Dealer:
    """The dealer game's tables of a deck of 20 cards (tens to aces), as
    arrays this test may change, and the kernel's counts over them."""

    def __init__(self) -> None:
        rules = get_rules("standard")
        self.deck = tuple(c.index for c in rules.deck() if c.rank is not None and c.rank >= 8)
        self.n = len(self.deck)
        self.arrays = {name: a.copy() for name, a in dealer._build(rules, self.deck).items()}
        self.m = len(self.arrays["level_category"])
        self.deals = np.array([[0, 1, 2, 3, 4], [0, 5, 9, 13, 17], [1, 2, 3, 4, 19]], dtype=np.int64)

    def counts(self, **given: Any) -> Any:
        a = {name: self.arrays[name] for name in ("offsets", "levels", "counts", "fives", "totals")}
        a.update(given)
        return module("_dealer").Counts(self.n, self.m, *a.values())

    def holds(self, counts: Any = None, deals: Any = None, win: Any = None, draw: Any = None) -> None:
        counts = self.counts() if counts is None else counts
        deals = self.deals if deals is None else deals
        room = np.empty((len(deals), 32), dtype=np.int64)
        counts.holds(deals, room if win is None else win, room.copy() if draw is None else draw)

    def subsets(self, k: int = 2, **given: Any) -> int:
        """subsets of the deck's hands, each its level, in order of level."""
        rows = numbered_sets(self.n, 5).astype(np.uint8)
        levels = np.sort(np.random.default_rng(0).integers(0, 50, len(rows))).astype(np.uint16)
        size = len(rows) * comb(5, k)
        a: dict[str, Any] = {
            "rows": rows, "levels": levels, "k": k, "n": self.n, "offsets": np.empty(comb(self.n, k) + 1, dtype=np.int64),
            "out_levels": np.empty(size, dtype=np.uint16), "out_counts": np.empty(size, dtype=np.uint32),
        }  # fmt: skip
        a.update(given)
        found: int = module("_dealer").subsets(*a.values())
        return found


@pytest.fixture(scope="module")
def game() -> Dealer:
    return Dealer()


@pytest.mark.parametrize(
    "call",
    [
        *(
            (lambda name: lambda g: g.counts(**{name: misaligned(g.arrays[name])}))(name)
            for name in ("offsets", "levels", "counts", "fives", "totals")
        ),
        lambda g: g.holds(deals=misaligned(g.deals)),
        lambda g: g.holds(win=misaligned(np.zeros((3, 32), dtype=np.int64))),
        lambda g: g.holds(draw=misaligned(np.zeros((3, 32), dtype=np.int64))),
        lambda g: g.subsets(levels=misaligned(np.zeros(comb(g.n, 5), dtype=np.uint16))),
        lambda g: g.subsets(offsets=misaligned(np.zeros(comb(g.n, 2) + 1, dtype=np.int64))),
        lambda g: g.subsets(out_levels=misaligned(np.zeros(comb(g.n, 5) * 10, dtype=np.uint16))),
        lambda g: g.subsets(out_counts=misaligned(np.zeros(comb(g.n, 5) * 10, dtype=np.uint32))),
    ],
    ids=[
        "counts-offsets", "counts-levels", "counts-counts", "counts-fives", "counts-totals", "holds-deals",
        "holds-win", "holds-draw", "subsets-levels", "subsets-offsets", "subsets-out_levels", "subsets-out_counts",
    ],
)  # fmt: skip
def test_the_dealer_kernel_refuses_buffers_not_aligned_for_their_items(
    game: Dealer, call: Callable[[Dealer], object]
) -> None:
    with pytest.raises(ValueError, match="aligned"):
        call(game)


def test_the_dealer_kernel_refuses_an_output_that_shares_memory_with_an_input(game: Dealer) -> None:
    """win over the deals (a deal's positions overwritten by sums, then read
    unchecked), win and draw one array, win over the counts' own tables,
    subsets' levels written over the rows they number."""
    room = np.zeros((32, 32), dtype=np.int64)
    deals = room.reshape(-1)[: 32 * 5].reshape(32, 5)  # the deals, in the first rows of the sums
    deals[:] = game.deals[0]
    with pytest.raises(ValueError, match="shares memory"):
        game.holds(deals=deals, win=room)
    both = np.zeros((3, 32), dtype=np.int64)
    with pytest.raises(ValueError, match="shares memory"):
        game.holds(win=both, draw=both)
    totals = game.arrays["totals"].copy()
    counts = game.counts(totals=totals)
    with pytest.raises(ValueError, match="shares memory"):
        game.holds(counts=counts, win=totals.reshape(-1)[: 3 * 32])
    hands = numbered_sets(game.n, 5).astype(np.uint8)
    written = np.zeros(len(hands) * comb(5, 2), dtype=np.uint16)
    rows = written.view(np.uint8)[: hands.size].reshape(hands.shape)  # the rows, in the first levels written
    rows[:] = hands
    with pytest.raises(ValueError, match="shares memory"):
        game.subsets(rows=rows, out_levels=written)


@pytest.mark.parametrize(
    ("name", "place", "value"),
    [("offsets", 5, 10**12), ("offsets", 30, -(10**12)), ("fives", 0, 65535), ("levels", 11, 65535)],
)
def test_the_dealer_kernel_reads_tables_changed_after_its_counts_were_made(
    game: Dealer, name: str, place: int, value: int
) -> None:
    """The counts read their tables where they are (a file's mapped pages,
    shared by processes), not copies: one who changes them after is told
    so or given meaningless sums, never a read past them."""
    tables = {n: game.arrays[n].copy() for n in ("offsets", "levels", "counts", "fives", "totals")}
    counts = game.counts(**tables)
    deals = numbered_sets(game.n, 5)[::97].astype(np.int64)
    tables[name][place] = value
    try:
        game.holds(counts=counts, deals=deals)
    except ValueError as error:
        assert "changed" in str(error)
    else:
        assert name == "levels"  # a level past the levels counts in none of them


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("counts", lambda a: a.__setitem__(3, a[3] + 1), "held by"),
        ("totals", lambda a: a.__setitem__(0, 1 << 62), "totals"),
        ("totals", lambda a: a.__setitem__(1, -1), "totals"),
    ],
    ids=["a-count-too-many", "a-total-too-large", "a-total-negative"],
)
def test_the_dealer_kernel_refuses_tables_that_are_not_counts(
    game: Dealer, name: str, change: Callable[[npt.NDArray[Any]], None], message: str
) -> None:
    """Counts that do not add up to the hands holding their set, totals
    past any count of pairs: the sums over them could overflow int64."""
    array = game.arrays[name].copy()
    change(array)
    with pytest.raises(ValueError, match=message):
        game.counts(**{name: array})


@pytest.mark.slow
def test_the_dealer_kernel_reads_deals_and_rows_another_thread_writes_to(game: Dealer) -> None:
    """Positions past the deck written into the deals (holds) or the rows
    (subsets) while the kernel runs, the GIL let go: an answer or a
    ValueError, never a read or write past an array."""
    counts = game.counts()
    deals = np.tile(game.deals[0], (2000, 1))

    def deal(i: int) -> None:
        deals[-1, 4] = 10**6 if i % 2 else 19

    while_written(lambda: game.holds(counts=counts, deals=deals), deal)
    rows = numbered_sets(game.n, 5).astype(np.uint8)

    def row(i: int) -> None:
        rows[-1, 4] = 250 if i % 2 else game.n - 1

    while_written(lambda: game.subsets(k=4, rows=rows), row)
