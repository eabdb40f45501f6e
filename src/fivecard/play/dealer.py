"""The game against the dealer solved (Poker vs Dealer's house
bet): for every starting hand the hold that maximises the bet's
expectation, and overall the player's chances to win, draw and lose, and
the house edge, exactly.

The model is the hold advisor's (:func:`fivecard.play.advise.advise`): the
player keeps some of the five cards and draws the rest from the cards not
seen; the dealer's hand is a random five of those same unseen cards. The
house bet pays 1:1, a draw returns it, so a hold's value is
``P(win) - P(lose)``.

Per deal ``D`` this is, for each of the 32 holds, a sum over the draws of
the chance that the dealer's hand is weaker (or equal). Both sides are
counts of five-card hands that hold some set of cards and avoid others, so
everything comes from per-strength counts of the hands holding each set of
at most five cards (``N_S``), made once:

1. the dealer's hands per strength, five of the unseen cards:
   ``f = sum((-1) ** |S| * N_S for S <= D)`` (inclusion-exclusion over the
   cards of the deal);
2. per set ``T <= D``: ``d_T = <N_T, below>`` and ``<N_T, f>``, where
   ``below[s]`` counts the dealer hands weaker than ``s``;
3. a hold ``K`` draws the hands that hold ``K`` and none of ``D - K``:
   ``sum((-1) ** |T - K| * d_T for K <= T <= D)`` (a signed superset sum).

``N_S`` is kept per set of at most four cards as the list of the strengths
its hands have, each with how many (a set of one card has some 2,300 of the
7,462 strengths of 52 cards, of three some 90), and a hand of five by its
strength. For the empty set (every hand) step 2 needs no list: ``<N, below>``
is ``sum((-1) ** |S| * <N_S, above>)``, ``above[s]`` the deck's hands
stronger than ``s``, and each set's ``<N_S, above>`` (and ``<N_S, N>``) is a
number made with the lists. Consecutive deals share most of their sets, so
``f`` is carried from one deal to the next, the sets that differ taken out
and added. The sums run in a compiled kernel
(:mod:`fivecard.play._dealer`, :mod:`fivecard.core.kernel`), or in numpy,
a batch of deals at a time, where none is built. Every count is an integer
(exact in int64, and in the numpy path in float64: below 2**53), so the
answer is exact: each deal class's best hold is chosen by exact comparison
and the totals are :class:`~fractions.Fraction`.

The deals are grouped into classes that play alike
(:mod:`fivecard.vector.classes`: 134,459 for 52 cards) and the classes split
into parts that :func:`fivecard.vector.jobs.run_parts` runs in this process or
on Dask workers, with checkpoints. The tables are made once per rule set and
deck and kept in the user's cache (:mod:`fivecard.core.lookup_cache`) as a
file that each process maps: the process that hands out the parts makes or
maps them first (or writes them to a temporary folder where the cache is
off), and each worker maps that file rather than building its own. The
compiled kernel releases the GIL, so local workers are then threads of this
process (:func:`threaded`), which use its tables as they are.
"""

from __future__ import annotations

import contextlib
import tempfile
import threading
import zlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..core import kernel, lookup_cache
from ..core.cards import CARDS, Card
from ..core.rules import RuleSet, get_rules
from ..core.errors import FivecardError
from ..vector.classes import (
    HOLDS,
    KEPT,
    DealClasses,
    choose_table,
    deal_classes,
    mean_over_deals,
    set_numbers,
    signed_supersets,
)

if TYPE_CHECKING:
    from . import _dealer
    from .holds import HoldList

__all__ = [
    "DealerSolution",
    "DealerHand",
    "solve_dealer",
    "dealer_hands",
    "kept_shares",
    "default_workers",
    "PART_CLASSES",
]

#: Deal classes per part (a part is one task: some 0.15 s of one core with the
#: compiled kernel, against a Dask task's own cost of a few milliseconds).
PART_CLASSES: Final = 4096
_BATCH: Final = 16  # classes at a time in the numpy path: its arrays stay in cache


@dataclass(frozen=True, slots=True)
class _Spec:
    """What a part's answer depends on (small: it goes to every task)."""

    rules: RuleSet
    deck: tuple[int, ...]  # card indices, in deck order
    part_classes: int = PART_CLASSES
    folder: str | None = None  # where the tables' file is, for a worker to map


@dataclass(frozen=True, slots=True)
class DealerSolution:
    """The game against the dealer solved under ``rules`` with ``deck``:
    the player's chances under the best holds (exact), the distribution of
    the final hand's category, and per class of deals (``classes``) the
    best hold (a mask over the class's first deal's cards, bit ``i`` keeps
    the ``i``-th), its value and chances, and the runner-up's value."""

    rules: RuleSet
    deck: tuple[Card, ...]
    win: Fraction
    draw: Fraction
    lose: Fraction
    final: dict[str, Fraction]
    classes: DealClasses
    best: npt.NDArray[np.int8]
    best_value: npt.NDArray[np.float64]
    best_win: npt.NDArray[np.float64]
    best_draw: npt.NDArray[np.float64]
    best_lose: npt.NDArray[np.float64]
    second: npt.NDArray[np.int8]
    second_value: npt.NDArray[np.float64]

    @property
    def expectation(self) -> Fraction:
        """The player's expectation per unit of the house bet: win - lose."""
        return self.win - self.lose

    @property
    def house_edge(self) -> Fraction:
        """The house's expectation per unit bet (negative: the player's
        edge)."""
        return -self.expectation

    def _chances(self) -> dict[str, Fraction]:
        return {"win": self.win, "draw": self.draw, "lose": self.lose}

    def to_json(
        self, holds: HoldList | None = None, *, seconds: float | None = None, ran: str | None = None
    ) -> dict[str, Any]:
        """The solution as ``fivecard strategy --json --dealer`` prints it:
        ``game``, ``rules``, ``deals``, ``classes``, ``win``, ``draw`` and
        ``lose`` (exact fractions), ``percent`` (of each), ``house_edge``,
        ``final`` (each final category's probability), ``kept`` (the share
        of deals by cards kept), and, when given, the run's ``seconds`` and
        where it ``ran``, and ``holds``."""
        chances = self._chances()
        return {
            "game": "dealer",
            "rules": self.rules.name,
            "deals": self.classes.total,
            "classes": len(self.classes),
            **{name: f"{p.numerator}/{p.denominator}" for name, p in chances.items()},
            "percent": {name: float(p * 100) for name, p in chances.items()},
            "house_edge": float(self.house_edge * 100),
            "final": {name: float(p) for name, p in self.final.items()},
            "kept": {str(k): float(p) for k, p in kept_shares(self).items()},
            **({"seconds": round(seconds, 3)} if seconds is not None else {}),
            **({"ran": ran} if ran is not None else {}),
            **({"holds": holds.to_json()} if holds is not None else {}),
        }

    def text(self, holds: HoldList | None = None, *, seconds: float | None = None, ran: str | None = None) -> str:
        """The solution as ``fivecard strategy --dealer`` prints it: the
        chances, the house edge, a line per final category, the cards kept,
        how long the run took and where (when given), and ``holds``."""
        edge = float(self.house_edge * 100)
        labels = {c.name: c.label for c in self.rules.ladder}
        width = max((len(labels[name]) for name in self.final), default=0)
        side = "the player has the edge" if edge < 0 else "the house has the edge"
        kept = ", ".join(f"{k}: {float(p):.1%}" for k, p in kept_shares(self).items())
        lines = [
            f"Poker vs Dealer's house bet under {self.rules.name}, the best hold of each of {self.classes.total:,} deals "
            f"({len(self.classes):,} classes) against every dealer hand of the unseen cards:",
            *(f"{name:<5} {float(p):>10.6%}  ({p.numerator}/{p.denominator})" for name, p in self._chances().items()),
            f"house edge {edge:+.4f}% per unit bet ({side}; the player's expectation {-edge:+.4f}%)",
            f"{'final hand':<{width}} {'probability':>12}",
            *(f"{labels[name]:<{width}} {float(p):>12.6%}" for name, p in self.final.items()),
            f"cards kept under the best holds (share of deals): {kept}",
        ]
        if seconds is not None:
            lines.append(f"(solved in {seconds:.1f} s{f', {ran}' if ran else ''})")
        return "\n".join(lines) + "\n" + (holds.text() if holds is not None else "")


@dataclass(frozen=True, slots=True)
class DealerHand:
    """A class of starting hands: its first deal, how many deals it holds,
    the best cards to keep, their value (win - lose) and chances, and the
    runner-up hold's value."""

    cards: tuple[Card, ...]
    deals: int
    hold: tuple[Card, ...]
    value: float
    win: float
    draw: float
    lose: float
    runner_up: tuple[Card, ...]
    runner_up_value: float


def job_key(rules: RuleSet, deck: Sequence[Card], part_classes: int = PART_CLASSES) -> str:
    """A file-safe name of the job (for checkpoints): a digest of the rule
    set, the deck, the parts' size and the code that makes the parts."""
    from ..vector import jobs

    return jobs.job_key("dealer", [rules, [c.index for c in deck], part_classes])


def solve_dealer(
    rules: str | RuleSet = "standard",
    *,
    deck: Sequence[Card] | None = None,
    run: Callable[..., list[dict[str, npt.NDArray[Any]]]] | None = None,
    part_classes: int | None = None,
    **options: Any,
) -> DealerSolution:
    """Solve the game against the dealer under ``rules``: every class of
    deals' best hold and the exact chances. ``deck``: the cards dealt from
    (default the rule set's; tests pass a small deck). ``run``: how the
    parts run (default :func:`fivecard.vector.jobs.run_parts` with
    ``options``: ``workers``, ``scheduler``, ``checkpoint``, ``progress``,
    ``on_note``, ``resume``; default in this process). ``part_classes``: classes per part (default
    :data:`PART_CLASSES`)."""
    ruleset = get_rules(rules)
    cards = tuple(deck) if deck is not None else ruleset.deck()
    if len(cards) < 10:
        raise FivecardError(f"the dealer game needs at least 10 cards in the deck, got {len(cards)}")
    if len(cards) > 64:
        raise FivecardError(f"the dealer game is solved for decks of at most 64 cards, got {len(cards)}")
    limits = ruleset.deck().limits  # a suited card: one a deck
    if len(set(cards)) < len(cards) and any(
        c.suit is not None and cards.count(c) > max(limits[c.index], 1) for c in set(cards)
    ):
        raise FivecardError("the deck holds a suited card twice")
    size = PART_CLASSES if part_classes is None else part_classes
    if size < 1:
        raise FivecardError(f"a part holds at least one class, not {size}")
    deck_indices = tuple(c.index for c in cards)
    classes = _classes(ruleset, deck_indices)
    parts = -(-len(classes) // size)
    if run is None:
        from ..vector.jobs import run_parts

        run = run_parts
        options.setdefault("threads", threaded())
        options["workers"] = default_workers(
            len(cards), options.get("workers", 0), options.get("scheduler"), threads=options["threads"]
        )
    # the parts run in this process (or in its threads), with the tables it has
    here = (
        options.get("scheduler") is None
        and options.get("client") is None
        and (options.get("workers") == 0 or options.get("threads", False))
    )
    with contextlib.ExitStack() as stack:

        def temporary() -> str:
            return stack.enter_context(tempfile.TemporaryDirectory(prefix="fivecard-dealer-"))

        # the tables made (or mapped) once here, and the parts' processes map their file
        folder = _shared_folder(ruleset, deck_indices, None if here else temporary)
        spec = _Spec(ruleset, deck_indices, size, folder)
        results = run(_solve_part, spec, parts, key=job_key(ruleset, cards, size), **options)
    return _combined(spec, cards, classes, results)


def default_workers(
    deck_size: int = 52, workers: int | None = None, scheduler: str | None = None, *, threads: bool = False
) -> int | None:
    """``workers`` as given, else (no scheduler either) a local cluster's
    workers (:func:`fivecard.vector.jobs.default_workers`): one a core, as
    many as half the machine's memory holds (each process some 250 MB for
    52 cards: the interpreter, Dask, the classes, a part's arrays, and the
    tables it maps, 60 MB that every worker shares; each thread
    (``threads``) a part's arrays, some 64 MB); 0 (this process) where that
    is one, since a cluster of one worker is slower than none."""
    from ..vector import jobs

    if workers is not None or scheduler is not None:
        return workers
    each = _THREAD_MEMORY if threads else 150 * 2**20 + 40 * comb(deck_size, 5)
    count = jobs.default_workers(memory_each=each)
    return 0 if count == 1 else count


#: What a worker thread needs beside this process: a part's arrays.
_THREAD_MEMORY: Final = 64 * 2**20


def threaded() -> bool:
    """Whether local workers are threads of this process (no Dask needed):
    where the compiled kernel
    (:mod:`fivecard.play._dealer`) does the parts' work, with the GIL
    released (two threads solve the One-Eyed Jacks game 1.8 to 1.9 times as
    fast as one); else (numpy) a local cluster of processes."""
    return kernel.load("fivecard.play._dealer") is not None


def _combined(
    spec: _Spec, deck: tuple[Card, ...], classes: DealClasses, results: Sequence[dict[str, npt.NDArray[Any]]]
) -> DealerSolution:
    n = len(deck)
    joined = {name: np.concatenate([r[name] for r in results]) for name in _PER_CLASS}
    if len(joined["best"]) != len(classes):
        raise FivecardError(f"the parts hold {len(joined['best'])} classes, not {len(classes)}")
    # per cards kept, per column (won, drawn, each final category), the sum over every class
    sums = [[0] * (2 + len(spec.rules.ladder)) for _ in range(6)]
    for result in results:
        for k, row in enumerate(result["kept_sums"].tolist()):
            for column, (high, low) in enumerate(row):
                sums[k][column] += (high << _HIGH) + low

    dealer_hands = comb(n - 5, 5)
    win = mean_over_deals([row[0] for row in sums], n, dealer_hands)
    draw = mean_over_deals([row[1] for row in sums], n, dealer_hands)
    names = [c.name for c in spec.rules.ladder]
    final = {}
    for place in reversed(range(len(names))):  # strongest first
        if got := mean_over_deals([row[2 + place] for row in sums], n):
            final[names[place]] = got
    return DealerSolution(
        spec.rules,
        deck,
        win,
        draw,
        1 - win - draw,
        final,
        classes,
        joined["best"].astype(np.int8),
        joined["best_value"],
        joined["best_win"],
        joined["best_draw"],
        joined["best_lose"],
        joined["second"].astype(np.int8),
        joined["second_value"],
    )


#: What a part returns per class (the rest, ``kept_sums``, is per part).
_PER_CLASS: Final = ("best", "best_value", "best_win", "best_draw", "best_lose", "second", "second_value")
#: A part's sums are sent as (high, low) pairs: high * 2**_HIGH + low.
_HIGH: Final = 62


def _solve_part(spec: Hashable, part: int) -> dict[str, npt.NDArray[Any]]:
    """One part: the best holds of classes ``part * spec.part_classes`` on,
    each class's best and runner-up hold with their values and chances
    (:data:`_PER_CLASS`), and ``kept_sums``: per cards kept by the chosen
    hold, the part's sums of the (draw, dealer hand) pairs won and drawn
    and of the draws per final category, each count times the deals of its
    class, exact (see :func:`_kept_sums`). The sums, not each class's
    counts, travel back: a third of the bytes, and no pass over every class
    at the end."""
    assert isinstance(spec, _Spec)
    tables = _tables(spec.rules, spec.deck, spec.folder)
    classes = _classes(spec.rules, spec.deck)
    size = spec.part_classes
    cards = classes.first[part * size : (part + 1) * size]
    weight = classes.deals[part * size : (part + 1) * size]
    win, draw = tables.holds(cards)
    values = tables.value(win, draw)
    best, second = _ranked(tables, cards, win, draw, values)
    rows = np.arange(len(cards))
    scale = tables.draws[best] * tables.dealer_hands
    chosen = np.concatenate(
        [
            (weight * win[rows, best])[:, None],
            (weight * draw[rows, best])[:, None],
            tables.made(cards, best) * weight[:, None],
        ],
        axis=1,
    )  # (rows, 2 + categories)
    return {
        "best": best.astype(np.int8),
        "best_value": values[rows, best],
        "best_win": win[rows, best] / scale,
        "best_draw": draw[rows, best] / scale,
        "best_lose": (scale - win[rows, best] - draw[rows, best]) / scale,
        "second": second.astype(np.int8),
        "second_value": values[rows, second],
        "kept_sums": _kept_sums(KEPT[best], chosen),
    }


def _kept_sums(kept: npt.NDArray[Any], counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per cards kept (0 to 5) and per column of ``counts``, the sum over
    the rows whose ``kept`` is that, exactly: an array (6, columns, 2) of
    (high, low) pairs, each sum ``high * 2**62 + low``. In int64 where no
    sum can pass it (either way: a count below 0 is summed exactly too),
    else in Python ints."""
    out = np.zeros((6, counts.shape[1], 2), dtype=np.int64)
    if not counts.size:
        return out
    small = max(int(counts.max()), -int(counts.min())) <= (2**63 - 1) // len(counts)
    for k in range(6):
        rows = counts[kept == k]
        if small:
            out[k, :, 1] = rows.sum(axis=0)
        else:
            for column, values in enumerate(rows.T.tolist()):
                out[k, column] = divmod(sum(values), 1 << _HIGH)
    return out


def _ranked(
    tables: _Tables,
    cards: npt.NDArray[np.int64],
    win: npt.NDArray[np.int64],
    draw: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per row the best hold and the runner-up, by exact value, then the
    chance to win, then fewer cards exchanged, then the lower mask; holds
    that keep the same cards as a lower mask (identical cards) are left
    out."""
    same = tables.repeated_holds(cards)
    value = np.where(same, -np.inf, values)
    order = np.argsort(-value, axis=1, kind="stable")
    best = order[:, 0].copy()
    second = order[:, 1].copy()
    rows = np.arange(len(cards))
    # Floats order holds exactly unless two values are within rounding:
    # those rows are settled with integers, among the holds whose value is
    # within rounding of the runner-up's (no other can be first or second).
    top = value[rows[:, None], order[:, :3]]
    close = (top[:, 0] - top[:, 1] <= 1e-9) | (top[:, 1] - top[:, 2] <= 1e-9)
    for row in np.flatnonzero(close).tolist():
        near = np.flatnonzero(value[row] >= top[row, 1] - 1e-9).tolist()
        keys = sorted(near, key=lambda m: tables.exact_key(int(win[row, m]), int(draw[row, m]), m))
        best[row], second[row] = keys[0], keys[1]
    return best, second


class _Tables:
    """The counts of hands holding each set of at most four cards of one
    deck under one rule set, and the per-deal work.

    The hands are numbered by level (their strength's place among the
    deck's strengths: ``m`` of them). ``offsets``, ``levels`` and
    ``counts`` hold, per set of at most four deck positions (the sets in
    order of size, each size by combinatorial number,
    :func:`~fivecard.vector.classes.set_numbers`), the levels of the hands
    that hold it and how many of each; ``fives`` each hand's level;
    ``categories`` per set of at most four, its hands by category. Built
    once (:func:`_build`) and kept in the user's cache as arrays each
    process maps (:func:`_tables`)."""

    def __init__(self, rules: RuleSet, deck: tuple[int, ...], arrays: dict[str, npt.NDArray[Any]]) -> None:
        n = len(deck)
        self.n = n
        self.offsets = arrays["offsets"]
        self.levels = arrays["levels"]
        self.counts = arrays["counts"]
        self.fives = arrays["fives"]
        self.totals = arrays["totals"]
        self.set_categories = arrays["categories"]
        self.level_category = arrays["level_category"].astype(np.int64)
        self.m = len(self.level_category)
        self.categories = len(rules.ladder)
        self.bases = np.cumsum([0] + [comb(n, k) for k in range(4)])  # each size's first set
        if len(self.offsets) != self.bases[-1] + comb(n, 4) + 1 or len(self.fives) != comb(n, 5):
            raise ValueError("the dealer tables are not this deck's")
        self.draws = np.array([comb(n - 5, 5 - int(k)) for k in KEPT], dtype=np.int64)
        self.dealer_hands = comb(n - 5, 5)
        common = lcm(*(int(d) for d in self.draws))
        self.scales = [common // int(d) for d in self.draws]  # per mask, exact (Python ints)
        self.indices = np.array(deck, dtype=np.int32)
        self.folder: str | None = None  # the folder of the file these tables are kept in
        self._compiled: tuple[ModuleType, _dealer.Counts] | None = None
        self._signed: npt.NDArray[np.float64] | None = None

    def subsets(self, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Per deal (rows of five ascending deck positions) and mask: the
        set's number among the tables' sets (masks 0-30, at most four
        cards) and, for mask 31, the hand's number among the deck's."""
        choose = choose_table(self.n)
        ids = np.empty((len(cards), 32), dtype=np.int64)
        for mask, kept in enumerate(HOLDS):
            number = np.full(len(cards), self.bases[len(kept)] if len(kept) < 5 else 0, dtype=np.int64)
            for place, column in enumerate(kept):
                number += choose[cards[:, column], place + 1]
            ids[:, mask] = number
        return ids

    def holds(self, cards: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Per deal (rows of five ascending deck positions) and hold mask: the
        pairs (draw, dealer hand) the player wins and draws."""
        cards = np.ascontiguousarray(cards, dtype=np.int64)
        win = np.empty((len(cards), 32), dtype=np.int64)
        draw = np.empty((len(cards), 32), dtype=np.int64)
        compiled = self.compiled()
        if compiled is not None:
            compiled.holds(cards, win, draw)
        else:
            for start in range(0, len(cards), _BATCH):
                rows = slice(start, start + _BATCH)
                win[rows], draw[rows] = self._sums(cards[rows])
        return win, draw

    def made(self, cards: npt.NDArray[np.int64], kept: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Per deal (rows of five ascending deck positions) and its hold
        ``kept`` (a mask a row): the draws that end in each final category,
        (rows, categories). The signed sum, over the deal's subsets T that
        hold the kept cards, of the hands that hold T by category (for T
        the whole deal, its own hand): the hands that hold the kept cards
        and none of the deal's others. Only the chosen hold's: a part's
        every hold (32 times the arrays, and five passes over them) was a
        tenth of its time, most of it holding Python's lock."""
        ids = self.subsets(np.asarray(cards, dtype=np.int64))
        kept = np.asarray(kept, dtype=np.int64)
        out = np.zeros((len(ids), self.categories), dtype=np.int64)
        for mask in range(32):
            rows = np.flatnonzero(mask & kept == kept)  # the rows whose hold this set holds
            if not len(rows):
                continue
            sign = np.where((KEPT[mask] - KEPT[kept[rows]]) & 1, -1, 1)
            if mask < 31:
                out[rows] += sign[:, None] * self.set_categories[ids[rows, mask]]
            else:  # the whole deal: its own hand, in its category
                out[rows, self.level_category[self.fives[ids[rows, 31]]]] += sign
        return out

    def compiled(self) -> _dealer.Counts | None:
        """The compiled kernel's counts over these tables, or None where it
        is not built or turned off (:mod:`fivecard.core.kernel`)."""
        module = kernel.load("fivecard.play._dealer")
        if module is None:
            return None
        with _keeping:  # made once, whichever thread asks first
            if self._compiled is None or self._compiled[0] is not module:
                made: _dealer.Counts = module.Counts(
                    self.n, self.m, self.offsets, self.levels, self.counts, self.fives, self.totals
                )
                self._compiled = (module, made)
            return self._compiled[1]

    def _sums(self, cards: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """What the compiled kernel's ``holds`` gives, by numpy: per deal,
        the dealer's hands by level (the signed sum of every subset's
        counts), those below each level, and per subset the hands that
        hold it weighed by both (for the empty set, every hand: the signed
        sum of the subsets' totals); then per hold the signed sum over its
        supersets. In floats, exactly: every count and sum is a whole
        number below 2**53."""
        B, m = len(cards), self.m
        ids = self.subsets(cards)
        sets = ids[:, 1:31]  # the empty set's counts are every hand's, added whole
        starts = self.offsets[sets].reshape(-1)
        lengths = self.offsets[sets + 1].reshape(-1) - starts
        total = int(lengths.sum())
        first = np.cumsum(lengths) - lengths  # each (deal, set)'s first entry among the batch's
        entry = np.repeat(starts - first, lengths) + np.arange(total)
        at = np.repeat(np.repeat(np.arange(0, B * m, m, dtype=np.int64), 30), lengths) + self.levels[entry]
        signed = self._signed_counts()[entry]
        every = self.counts[: m].astype(np.float64)  # the empty set: every hand, by level
        five = np.arange(0, B * m, m, dtype=np.int64) + self.fives[ids[:, 31]]
        dealer = np.bincount(at, weights=signed, minlength=B * m) + np.tile(every, B)
        dealer[five] -= 1
        below = np.cumsum(dealer.reshape(B, m), axis=1).reshape(-1) - dealer
        rows = np.concatenate([ids[:, :31], len(self.offsets) - 1 + self.fives[ids[:, 31:]].astype(np.int64)], axis=1)
        totals = (self.totals[rows] * _SIGNS[None, :, None]).sum(axis=1)  # (B, 2)
        found = []
        for side, values in enumerate((below, dealer)):
            sums = np.empty((B, 32), dtype=np.int64)
            sums[:, 0] = totals[:, side]
            sums[:, 1:31] = np.rint(np.add.reduceat(signed * values[at], first).reshape(B, 30) * _SIGNS[1:31])
            sums[:, 31] = values[five]
            found.append(signed_supersets(sums))
        return found[0], found[1]

    def _signed_counts(self) -> npt.NDArray[np.float64]:
        """Each entry's count, negative for a set of an odd size (made once)."""
        if self._signed is None:
            sizes = np.searchsorted(self.bases, np.arange(len(self.offsets) - 1), side="right") - 1
            signs = np.where(sizes % 2, -1.0, 1.0)
            self._signed = np.repeat(signs, np.diff(self.offsets)) * self.counts
        return self._signed

    def value(self, win: npt.NDArray[np.int64], draw: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Each hold's expectation, win - lose, as a float."""
        pairs = self.draws * self.dealer_hands
        return (2 * win + draw - pairs) / pairs

    def exact_key(self, win: int, draw: int, mask: int) -> tuple[int, int, int, int]:
        """The order of holds, exactly: higher value, more wins, fewer cards
        exchanged, lower mask. A hold's value is ``(2 * win + draw) / pairs -
        1`` and its chance to win ``win / pairs``, ``pairs`` its draws times
        the dealer's hands: over a common multiple of the draws, whole
        numbers."""
        scale = self.scales[mask]
        return (-(2 * win + draw) * scale, -win * scale, -int(KEPT[mask]), mask)

    def repeated_holds(self, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Per row and mask: whether a lower mask keeps the same cards (only
        where the deal holds identical cards: ``semi``, two jokers)."""
        same = np.zeros((len(cards), 32), dtype=bool)
        indices = self.indices[cards]
        for row in np.flatnonzero((indices[:, 1:] == indices[:, :-1]).any(axis=1)).tolist():
            seen: set[tuple[int, ...]] = set()
            for mask in range(32):
                kept = tuple(sorted(int(indices[row, i]) for i in range(5) if mask >> i & 1))
                same[row, mask] = kept in seen
                seen.add(kept)
        return same


_SIGNS: Final = np.array([(-1) ** len(kept) for kept in HOLDS], dtype=np.int64)
#: The arrays of the tables, as they are kept: name and type.
_ARRAYS: Final = (
    ("offsets", "<i8"),
    ("levels", "<u2"),
    ("counts", "<u4"),
    ("fives", "<u2"),
    ("totals", "<i8"),
    ("categories", "<u4"),
    ("level_category", "|i1"),
)


def _build(rules: RuleSet, deck: tuple[int, ...]) -> dict[str, npt.NDArray[Any]]:
    """The tables' arrays: every hand of the deck scored and numbered by
    level, then per set of at most four positions its hands by level (by
    the compiled kernel where built, else by numpy: the same arrays)."""
    n = len(deck)
    indices = np.array(deck, dtype=np.int32)
    hands = batch.combinations(n)  # uint8, in lexicographic order
    found = batch.strengths_of_indices(indices[hands], rules=rules)
    present = np.zeros(1 << 16, dtype=bool)  # strengths are uint16: the levels without a sort
    present[found] = True
    strengths = np.flatnonzero(present)
    level = (np.cumsum(present, dtype=np.int64) - 1).astype(np.uint16)[found]
    m = len(strengths)
    order = np.argsort(level, kind="stable")
    rows = np.ascontiguousarray(hands[order])
    ordered = level[order]
    offsets = [np.array([0, m], dtype=np.int64)]
    levels = [np.arange(m, dtype=np.uint16)]
    counts = [np.bincount(level, minlength=m).astype(np.uint32)]
    compiled = kernel.load("fivecard.play._dealer")
    for k in range(1, 5):
        if compiled is not None:
            size = len(rows) * comb(5, k)
            at = np.empty(comb(n, k) + 1, dtype=np.int64)
            out_levels = np.empty(size, dtype=np.uint16)
            out_counts = np.empty(size, dtype=np.uint32)
            entries = compiled.subsets(rows, ordered, k, n, at, out_levels, out_counts)
            set_levels, set_counts = out_levels[:entries].copy(), out_counts[:entries].copy()
        else:
            at, set_levels, set_counts = _subsets(rows.astype(np.int64), ordered, k, n)
        offsets.append(at[1:] + offsets[-1][-1])
        levels.append(set_levels)
        counts.append(set_counts)
    offsets_all = np.concatenate(offsets)
    levels_all = np.concatenate(levels)
    counts_all = np.concatenate(counts)
    category = batch.category_table(rules)[strengths].astype(np.int8)
    sets = len(offsets_all) - 1
    owner = np.repeat(np.arange(sets, dtype=np.int64), np.diff(offsets_all))
    categories = np.bincount(
        owner * len(rules.ladder) + category[levels_all], weights=counts_all, minlength=sets * len(rules.ladder)
    )
    fives = np.empty(comb(n, 5), dtype=np.uint16)
    fives[set_numbers(hands.astype(np.int64), HOLDS[31], n)] = level
    # per set, its hands weighed by the deck's hands above and level with
    # each: the sums over every hand of the deck, settled per set once
    every = counts[0].astype(np.int64)
    above = np.cumsum(every[::-1])[::-1] - every
    weighed = counts_all.astype(np.int64)
    totals = np.empty((sets + m, 2), dtype=np.int64)
    totals[:sets, 0] = np.add.reduceat(weighed * above[levels_all], offsets_all[:-1])
    totals[:sets, 1] = np.add.reduceat(weighed * every[levels_all], offsets_all[:-1])
    totals[sets:, 0] = above
    totals[sets:, 1] = every
    return {
        "offsets": offsets_all,
        "levels": levels_all,
        "counts": counts_all,
        "fives": fives,
        "totals": totals,
        "categories": categories.astype(np.uint32).reshape(sets, len(rules.ladder)),
        "level_category": category,
    }


def _subsets(
    rows: npt.NDArray[np.int64], levels: npt.NDArray[np.uint16], k: int, n: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16], npt.NDArray[np.uint32]]:
    """What the compiled kernel's ``subsets`` gives, by numpy: per set of
    ``k`` positions, the levels of the rows (in order of level) that hold
    it, and how many of each."""
    places = [kept for kept in HOLDS if len(kept) == k]
    numbers = np.stack([set_numbers(rows, kept, n) for kept in places], axis=1).reshape(-1)
    # a stable sort by set (the levels stay in order within a set): by
    # 16-bit digits, lowest first, each a radix sort
    order = np.argsort(numbers.astype(np.uint16), kind="stable")
    for shift in range(16, int(comb(n, k)).bit_length(), 16):
        order = order[np.argsort((numbers[order] >> shift).astype(np.uint16), kind="stable")]
    numbers = numbers[order]
    found = np.repeat(levels, len(places))[order]
    new = np.flatnonzero((numbers[1:] != numbers[:-1]) | (found[1:] != found[:-1])) + 1
    first = np.concatenate([[0], new])
    count = np.diff(np.append(first, len(numbers)))
    at = np.zeros(comb(n, k) + 1, dtype=np.int64)
    at[1:] = np.cumsum(np.bincount(numbers[first], minlength=comb(n, k)))
    return at, found[first].astype(np.uint16), count.astype(np.uint32)


#: How this process came by its dealer tables: built, or mapped from a file.
tables_made: Final = {"built": 0, "mapped": 0}


def _tables(rules: RuleSet, deck: tuple[int, ...], folder: str | None = None) -> _Tables:
    """The tables of a rule set and deck (card indices), once per process:
    mapped from the file in ``folder`` (one the process that hands out the
    parts wrote) or in the user's cache, else built and kept there."""
    return _kept("tables", rules, deck, lambda: _load_or_build(rules, deck, folder))


def _cache_name(rules: RuleSet, deck: tuple[int, ...]) -> str:
    """The file's name: the rule set's and the deck's (another version's
    file of the same name is replaced)."""
    return f"{rules.name}-dealer-{zlib.crc32(bytes(deck)):08x}"


def _cache_key(rules: RuleSet, deck: tuple[int, ...]) -> tuple[object, ...]:
    """What the tables depend on: the rule set, the deck and fivecard's code."""
    from ..vector.jobs import source_digest, stable_text

    return ("dealer tables", stable_text(rules), deck, source_digest())


def _load_or_build(rules: RuleSet, deck: tuple[int, ...], folder: str | None) -> _Tables:
    key = _cache_key(rules, deck)
    for place in (folder, None) if folder is not None else (None,):
        mapped = lookup_cache.map_arrays(_cache_name(rules, deck), key, place)
        arrays = _arrays_of(mapped) if mapped is not None else None
        if arrays is not None:
            try:
                tables = _Tables(rules, deck, arrays)
            except ValueError:
                continue
            tables_made["mapped"] += 1
            tables.folder = place if place is not None else lookup_cache.directory()
            return tables
    arrays = _build(rules, deck)
    tables_made["built"] += 1
    tables = _Tables(rules, deck, arrays)
    if lookup_cache.store_arrays(_cache_name(rules, deck), key, _stored(arrays)) is not None:
        tables.folder = lookup_cache.directory()
    return tables


def _stored(arrays: dict[str, npt.NDArray[Any]]) -> list[tuple[str, str, tuple[int, ...], Any]]:
    return [(name, kind, arrays[name].shape, np.ascontiguousarray(arrays[name], dtype=kind)) for name, kind in _ARRAYS]


def _arrays_of(mapped: dict[str, tuple[str, tuple[int, ...], memoryview]]) -> dict[str, npt.NDArray[Any]] | None:
    """The tables' arrays over a mapped file's bytes (read-only), or None
    where the file holds other arrays."""
    arrays = {}
    for name, kind in _ARRAYS:
        if name not in mapped or mapped[name][0] != kind:
            return None
        _, shape, data = mapped[name]
        size = int(np.prod(shape, dtype=np.int64)) * np.dtype(kind).itemsize
        if len(data) != size:
            return None
        arrays[name] = np.frombuffer(data, dtype=kind).reshape(shape)
    return arrays


def _shared_folder(rules: RuleSet, deck: tuple[int, ...], temporary: Callable[[], str] | None) -> str | None:
    """The tables made or mapped in this process, and the folder of their
    file for the processes that solve the parts to map: the user's cache,
    else (the cache is off or cannot be written) ``temporary()``; None where
    no file is kept (each process then builds its own)."""
    tables = _tables(rules, deck)
    if tables.folder is not None or temporary is None:
        return tables.folder
    arrays = {name: getattr(tables, attribute) for name, attribute in _ATTRIBUTES.items()}
    folder = temporary()
    return folder if lookup_cache.store_arrays(_cache_name(rules, deck), _cache_key(rules, deck), _stored(arrays), folder) else None


#: Where each of the tables' arrays lives on a :class:`_Tables`.
_ATTRIBUTES: Final = {
    "offsets": "offsets",
    "levels": "levels",
    "counts": "counts",
    "fives": "fives",
    "totals": "totals",
    "categories": "set_categories",
    "level_category": "level_category",
}


def _classes(rules: RuleSet, deck: tuple[int, ...]) -> DealClasses:
    return _kept("classes", rules, deck, lambda: deal_classes([CARDS[i] for i in deck], rules))


_Made = TypeVar("_Made")
_KEPT_MOST: Final = 2  # rule sets' tables a process keeps
_kept_things: dict[tuple[str, str, tuple[int, ...]], object] = {}
_texts: dict[int, tuple[RuleSet, str]] = {}  # by identity: a rule set and its text
_keeping = threading.RLock()  # the parts run on threads ask at once


def _kept(kind: str, rules: RuleSet, deck: tuple[int, ...], make: Callable[[], _Made]) -> _Made:
    """What ``make`` makes for a rule set and deck, kept per process by the
    rule set's value, not its identity (each task of a Dask worker
    unpickles its own copy of the rule set), the most recent few only;
    made once however many threads ask at once."""
    with _keeping:
        return _kept_locked(kind, rules, deck, make)


def _kept_locked(kind: str, rules: RuleSet, deck: tuple[int, ...], make: Callable[[], _Made]) -> _Made:
    from ..vector.jobs import stable_text

    text = _texts.get(id(rules))
    if text is None or text[0] is not rules:  # the rule set is kept with its text: its id is not reused meanwhile
        while len(_texts) >= 8:
            del _texts[next(iter(_texts))]
        text = _texts[id(rules)] = (rules, stable_text(rules))
    key = (kind, text[1], deck)
    if key in _kept_things:
        found = _kept_things[key] = _kept_things.pop(key)  # the most recent last
        return cast(_Made, found)
    made = make()
    _kept_things[key] = made
    while sum(1 for k in _kept_things if k[0] == kind) > _KEPT_MOST:
        del _kept_things[next(k for k in _kept_things if k[0] == kind)]
    return made


def kept_shares(solution: DealerSolution) -> dict[int, Fraction]:
    """The share of deals whose best hold keeps 0, 1, ... 5 cards."""
    kept = KEPT[solution.best.astype(np.int64)]
    deals = solution.classes.deals
    total = solution.classes.total
    return {k: Fraction(int(deals[kept == k].sum()), total) for k in range(6)}


def dealer_hands(solution: DealerSolution) -> list[DealerHand]:
    """The strategy: every class of starting hands, best value first."""
    deck = solution.deck
    by_value = np.argsort(-solution.best_value, kind="stable")
    made = []
    for row in by_value.tolist():
        cards = tuple(deck[i] for i in solution.classes.first[row].tolist())
        best, second = int(solution.best[row]), int(solution.second[row])
        made.append(
            DealerHand(
                cards,
                int(solution.classes.deals[row]),
                tuple(cards[i] for i in range(5) if best >> i & 1),
                float(solution.best_value[row]),
                float(solution.best_win[row]),
                float(solution.best_draw[row]),
                float(solution.best_lose[row]),
                tuple(cards[i] for i in range(5) if second >> i & 1),
                float(solution.second_value[row]),
            )
        )
    return made
