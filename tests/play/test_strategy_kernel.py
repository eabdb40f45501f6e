"""The pay-table solver by its compiled kernel (fivecard.play._solver) and
by the numpy path that serves where it is not built: the same counts per
card set, and over whole games the same best holds and values, returns,
variances and final hands (one model, two executions). Both count for
themselves: the user's cache is off here."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from helpers import executed_by

from fivecard.core import kernel
from fivecard.core.rules import get_rules
from fivecard.play import strategy
from fivecard.play.paytables import JACKS_OR_BETTER, PAYTABLES, PayTable
from fivecard.play.strategy import TIES, PayTableSolution, solve_paytable
from fivecard.vector.classes import numbered_sets


@pytest.fixture(autouse=True)
def no_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("FIVECARD_CACHE", "off")
    yield


def solver() -> object:
    compiled = kernel.load("fivecard.play._solver")
    assert compiled is not None, "the compiled kernels are not built"
    return compiled


@pytest.mark.parametrize(("n", "kinds"), [(5, 1), (9, 3), (13, 7)])
def test_every_card_set_counts_the_hands_that_hold_it(execution: str, n: int, kinds: int) -> None:
    """Per set of 0-4 positions and kind, the hands of that kind holding
    it, against every hand's 31 smaller subsets counted one by one; the
    hands' own kinds kept as given."""
    rng = np.random.default_rng(n)
    top = rng.integers(0, kinds, comb(n, 5)).astype(np.uint8)
    totals = strategy._KindTotals(top, n, kinds)
    expected = [np.zeros((comb(n, size), kinds), dtype=np.int64) for size in range(5)]
    number_of = {tuple(row): i for size in range(5) for i, row in enumerate(numbered_sets(n, size).tolist())}
    for hand, kind in zip(numbered_sets(n, 5).tolist(), top.tolist()):
        for size in range(5):
            for subset in itertools.combinations(hand, size):
                expected[size][number_of[subset], kind] += 1
    assert all(np.array_equal(found, wanted) for found, wanted in zip(totals.tables, expected))
    assert np.array_equal(totals.top, top)


def both(table: PayTable, rules: str | None = None, ties: str = TIES[0]) -> tuple[PayTableSolution, PayTableSolution]:
    """The game solved by the kernel, then by numpy, every hold's value kept."""
    with executed_by("kernel"):
        compiled = solve_paytable(table, rules=rules, ties=ties, values=True)
    with executed_by("numpy"):
        fallback = solve_paytable(table, rules=rules, ties=ties, values=True)
    return compiled, fallback


def assert_alike(compiled: PayTableSolution, fallback: PayTableSolution) -> None:
    assert compiled.expected_return == fallback.expected_return
    assert compiled.variance == fallback.variance
    assert compiled.final == fallback.final and compiled.counts == fallback.counts
    assert np.array_equal(compiled.classes.first, fallback.classes.first)
    for name in ("best", "best_value", "second", "second_value", "values"):
        found: npt.NDArray[np.generic] = getattr(compiled, name)
        wanted: npt.NDArray[np.generic] = getattr(fallback, name)
        assert found.dtype == wanted.dtype and np.array_equal(found, wanted), name


@pytest.mark.slow
@pytest.mark.parametrize("ties", TIES)
def test_a_short_deck_game_solves_alike(ties: str) -> None:
    """Jacks or Better on the 36 cards of the short deck (19,998 classes),
    ties broken either way."""
    compiled, fallback = both(JACKS_OR_BETTER, "short-deck", ties)
    assert_alike(compiled, fallback)
    assert compiled.expected_return == Fraction(17196047, 9296280)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_every_catalogue_table_solves_alike(name: str) -> None:
    """Every table fivecard ships, under its own rules (52 cards, deuces
    wild, one joker and two), and its counts per card set."""
    table = PAYTABLES[name]
    compiled, fallback = both(table)
    assert_alike(compiled, fallback)
    assert compiled.expected_return == table.exact or table.exact is None
    counts = []
    for execution in ("kernel", "numpy"):
        with executed_by(execution):
            counts.append(strategy.hold_values(table)._totals)
    assert all(np.array_equal(a, b) for a, b in zip(counts[0].tables, counts[1].tables))
    assert np.array_equal(counts[0].top, counts[1].top)


@pytest.mark.parametrize(
    ("table", "rules"),
    [(JACKS_OR_BETTER, "short-deck"), pytest.param(JACKS_OR_BETTER, "standard+wild(Js Jh)", marks=pytest.mark.slow)],
)
def test_every_hands_kind_is_the_line_that_pays_it(table: PayTable, rules: str) -> None:
    """The kernel walks the hands summing their cards' codes; numpy makes
    and scores each hand: the same line for every hand, wild cards or not."""
    ruleset = get_rules(rules)
    kinds = []
    for execution in ("kernel", "numpy"):
        with executed_by(execution):
            kinds.append(strategy._hand_kinds(table, ruleset))
    assert np.array_equal(kinds[0], kinds[1]) and len(kinds[0]) == comb(len(ruleset.deck()), 5)


@pytest.mark.slow
def test_one_deals_hold_values_are_alike() -> None:
    """A sample of deals of Deuces Wild valued hold by hold from either
    execution's counts."""
    table = PAYTABLES["deuces-wild-full-pay"]
    deck = get_rules("deuces-wild").deck()
    rng = np.random.default_rng(5)
    deals = [[deck[i] for i in rng.choice(len(deck), 5, replace=False)] for _ in range(40)]
    valued = []
    for execution in ("kernel", "numpy"):
        with executed_by(execution):
            values = strategy.hold_values(table)
            valued.append([values.of(deal) for deal in deals])
    assert valued[0] == valued[1]


def test_the_kernel_refuses_what_is_no_count() -> None:
    """Arrays of the wrong size, a kind past the kinds, rows that are no
    deal, a tie rule other than 1 or -1: an error, never a read or a write
    past an array."""
    compiled: object = solver()
    n, kinds = 9, 3
    top = np.zeros(comb(n, 5), dtype=np.uint8)
    four = np.zeros((comb(n, 4), kinds), dtype=np.int32)
    fours, fewer, holds = (getattr(compiled, name) for name in ("fours", "fewer", "holds"))
    with pytest.raises(ValueError, match="top"):
        fours(top[:-1], n, kinds, four)
    with pytest.raises(ValueError, match="out"):
        fours(top, n, kinds, four[:-1])
    with pytest.raises(ValueError, match="kind"):
        fours(np.full_like(top, kinds), n, kinds, four)
    with pytest.raises(ValueError, match="deck"):
        fours(top, 65, kinds, four)
    with pytest.raises(ValueError, match="kinds"):
        fours(top, n, 0, four)
    entry = np.zeros((8000, 1), dtype=np.uint8)
    codes, flags, lookup = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.uint8), np.zeros(8, dtype=np.uint16)
    hand_kinds = getattr(compiled, "kinds")
    hand_kinds(codes, flags, lookup, 7, 15, 4, entry, 1, top)
    with pytest.raises(ValueError, match="wild"):
        hand_kinds(codes, flags[:-1], lookup, 7, 15, 4, entry, 1, top)
    with pytest.raises(ValueError, match="out"):
        hand_kinds(codes, flags, lookup, 7, 15, 4, entry, 1, top[:-1])
    with pytest.raises(ValueError, match="no row"):  # a strength past the entry table
        hand_kinds(codes, flags, np.full(8, 9000, dtype=np.uint16), 7, 15, 4, entry, 1, top)
    with pytest.raises(ValueError, match="sets of 0 to 3"):
        fewer(four, n, kinds, 4, four)
    with pytest.raises(ValueError, match="multiple"):  # a four-card set held once, its three-card subsets once each
        fewer(np.eye(len(four), kinds, dtype=np.int32), n, kinds, 3, np.zeros((comb(n, 3), kinds), dtype=np.int32))
    totals = strategy._KindTotals(top, n, kinds)
    first = np.array([[0, 1, 2, 3, 4], [0, 2, 1, 3, 4]], dtype=np.int64)

    def run(rows: npt.NDArray[np.int64], spread: int = 1, tables: object = None, draws: object = None) -> None:
        m = len(rows)
        holds(
            rows, np.ones(m, dtype=np.int64), totals.tables if tables is None else tables, totals.top, n,
            np.arange(kinds, dtype=np.int64), np.ones(32, dtype=np.int64) if draws is None else draws, spread,
            np.empty(m, dtype=np.int8), np.empty(m), np.empty(m, dtype=np.int8), np.empty(m),
            np.zeros((6, kinds), dtype=np.int64), None,
        )

    run(first[:1])
    with pytest.raises(ValueError, match="row 1"):
        run(first)
    with pytest.raises(ValueError, match="row 0"):
        run(np.array([[0, 1, 2, 3, n]], dtype=np.int64))
    with pytest.raises(ValueError, match="spread"):
        run(first[:1], spread=0)
    with pytest.raises(ValueError, match="tables"):
        run(first[:1], tables=totals.tables[:4])
    with pytest.raises(ValueError, match="draws"):
        run(first[:1], draws=np.zeros(32, dtype=np.int64))
