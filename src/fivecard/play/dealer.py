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

``N_S`` is a dense vector per set of at most two cards and, per set of three
or four, the list of the strengths of the hands that hold it. Every count
is an integer, kept exact in float64 (below 2**53), so the answer is exact:
each deal class's best hold is chosen by exact comparison and the totals are
:class:`~fractions.Fraction`.

The deals are grouped into classes that play alike
(:mod:`fivecard.vector.classes`: 134,459 for 52 cards) and the classes split
into parts that :func:`fivecard.vector.jobs.run_parts` runs in this process or
on Dask workers, with checkpoints; each worker process builds the tables
once per rule set and deck.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..core.cards import CARDS, Card
from ..core.rules import RuleSet, get_rules
from ..core.errors import FivecardError
from ..vector.classes import KEPT, DealClasses, deal_classes, mean_over_deals, set_numbers, signed_supersets

if TYPE_CHECKING:
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

#: Deal classes per part (a part is one task: about a second of work).
PART_CLASSES: Final = 1024
_BATCH: Final = 32  # classes at a time inside a part: their tables stay in cache

_SUBSETS: Final = {k: list(combinations(range(5), k)) for k in range(6)}
_DENSE: Final = [()] + _SUBSETS[1] + _SUBSETS[2]  # the sets with a dense N_S
_DENSE_MASKS: Final = np.array([sum(1 << i for i in s) for s in _DENSE], dtype=np.int64)
_DENSE_SIGNS: Final = np.array([(-1.0) ** len(s) for s in _DENSE])
_MASKS3: Final = np.array([sum(1 << i for i in s) for s in _SUBSETS[3]], dtype=np.int64)
_MASKS4: Final = np.array([sum(1 << i for i in s) for s in _SUBSETS[4]], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class _Spec:
    """What a part's answer depends on (small: it goes to every task)."""

    rules: RuleSet
    deck: tuple[int, ...]  # card indices, in deck order
    part_classes: int = PART_CLASSES


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
    spec = _Spec(ruleset, tuple(c.index for c in cards), size)
    classes = _classes(spec.rules, spec.deck)
    parts = -(-len(classes) // size)
    if run is None:
        from ..vector.jobs import run_parts

        run = run_parts
        options["workers"] = default_workers(len(cards), options.get("workers", 0), options.get("scheduler"))
    results = run(_solve_part, spec, parts, key=job_key(ruleset, cards, size), **options)
    return _combined(spec, cards, classes, results)


def default_workers(deck_size: int = 52, workers: int | None = None, scheduler: str | None = None) -> int | None:
    """``workers`` as given, else (no scheduler either) a local cluster's
    processes (:func:`fivecard.vector.jobs.default_workers`): one a core, as
    many as half the machine's memory holds (each makes its own tables:
    about 600 MB for 52 cards); 0 (this process) where that is one, since a
    cluster of one process is slower than none."""
    from ..vector import jobs

    if workers is not None or scheduler is not None:
        return workers
    n = deck_size
    tables = 8 * 7462 * (1 + n + comb(n, 2)) + 4 * (comb(n, 3) * comb(n - 3, 2) + comb(n, 4) * (n - 4) + comb(n, 5))
    building = 3 * 8 * 5 * comb(n, 5)  # the deck's hands while the tables are made
    count = jobs.default_workers(memory_each=int(1.2 * (tables + building)))
    return 0 if count == 1 else count


def _combined(
    spec: _Spec, deck: tuple[Card, ...], classes: DealClasses, results: Sequence[dict[str, npt.NDArray[Any]]]
) -> DealerSolution:
    n = len(deck)
    joined = {name: np.concatenate([r[name] for r in results]) for name in results[0]}
    if len(joined["best"]) != len(classes):
        raise FivecardError(f"the parts hold {len(joined['best'])} classes, not {len(classes)}")
    kept = KEPT[joined["best"].astype(np.int64)]

    def by_kept(counts: npt.NDArray[np.int64]) -> list[int]:
        """Per cards kept, the sum of the classes' counts, in Python ints."""
        return [sum(counts[kept == k].tolist()) for k in range(6)]

    dealer_hands = comb(n - 5, 5)
    win = mean_over_deals(by_kept(joined["chosen_win"]), n, dealer_hands)
    draw = mean_over_deals(by_kept(joined["chosen_draw"]), n, dealer_hands)
    names = [c.name for c in spec.rules.ladder]
    final = {}
    for place in reversed(range(len(names))):  # strongest first
        if got := mean_over_deals(by_kept(joined["chosen_final"][:, place]), n):
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


def _solve_part(spec: Hashable, part: int) -> dict[str, npt.NDArray[Any]]:
    """One part: the best holds of classes ``part * spec.part_classes`` on,
    and per class the chosen hold's (draw, dealer hand) pairs won and drawn
    and its draws per final category, times the deals of the class
    (integers: the sums over classes are made in Python ints)."""
    assert isinstance(spec, _Spec)
    tables = _tables(spec.rules, spec.deck)
    classes = _classes(spec.rules, spec.deck)
    size = spec.part_classes
    first = classes.first[part * size : (part + 1) * size]
    weights = classes.deals[part * size : (part + 1) * size]
    names = ("best", "best_value", "best_win", "best_draw", "best_lose", "second", "second_value")
    out: dict[str, list[npt.NDArray[Any]]] = {k: [] for k in (*names, "chosen_win", "chosen_draw", "chosen_final")}
    for start in range(0, len(first), _BATCH):
        cards = first[start : start + _BATCH]
        weight = weights[start : start + _BATCH]
        win, draw, made = tables.holds(cards)
        values = tables.value(win, draw)
        best, second = _ranked(tables, cards, win, draw, values)
        rows = np.arange(len(cards))
        scale = tables.draws[best] * tables.dealer_hands
        out["best"].append(best)
        out["second"].append(second)
        out["best_value"].append(values[rows, best])
        out["second_value"].append(values[rows, second])
        out["best_win"].append(win[rows, best] / scale)
        out["best_draw"].append(draw[rows, best] / scale)
        out["best_lose"].append((scale - win[rows, best] - draw[rows, best]) / scale)
        out["chosen_win"].append(weight * win[rows, best])
        out["chosen_draw"].append(weight * draw[rows, best])
        out["chosen_final"].append(made[rows, best] * weight[:, None])  # (rows, categories)
    return {k: np.concatenate(v) for k, v in out.items()}


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
    # those rows are settled with integers.
    top = value[rows[:, None], order[:, :3]]
    close = (top[:, 0] - top[:, 1] <= 1e-9) | (top[:, 1] - top[:, 2] <= 1e-9)
    for row in np.flatnonzero(close).tolist():
        keys = sorted(
            (m for m in range(32) if not same[row, m]),
            key=lambda m: tables.exact_key(int(win[row, m]), int(draw[row, m]), m),
        )
        best[row], second[row] = keys[0], keys[1]
    return best, second


class _Tables:
    """The counts of hands holding each set of at most five cards of one
    deck under one rule set, and the per-deal work."""

    def __init__(self, rules: RuleSet, deck: tuple[int, ...]) -> None:
        n = len(deck)
        self.n = n
        indices = np.array(deck, dtype=np.int32)
        hands = batch.combinations(n).astype(np.int64)
        found = batch.strengths_of_indices(indices[hands], rules=rules)
        strengths, level = np.unique(found, return_inverse=True)
        level = level.reshape(-1)
        m = len(strengths)
        self.m = m
        dense = np.zeros((1 + n + comb(n, 2)) * m)
        dense[:m] = np.bincount(level, minlength=m)
        for j in range(5):
            dense += np.bincount((1 + hands[:, j]) * m + level, minlength=len(dense))
        for two in _SUBSETS[2]:
            rows = 1 + n + set_numbers(hands, two, n)
            dense += np.bincount(rows * m + level, minlength=len(dense))
        self.dense = dense.reshape(-1, m)
        self.threes = np.empty((comb(n, 3), comb(n - 3, 2)), dtype=np.int32)
        for three in _SUBSETS[3]:
            rest = [j for j in range(5) if j not in three]
            at = set_numbers(hands, three, n)
            # the other two cards' number among the sets of two of the deck less these three
            lowered = np.stack([hands[:, r] - sum(hands[:, t] < hands[:, r] for t in three) for r in rest], axis=1)
            self.threes[at, set_numbers(lowered, (0, 1), n)] = level
        self.fours = np.empty((comb(n, 4), n - 4), dtype=np.int32)
        for four in _SUBSETS[4]:
            (r,) = [j for j in range(5) if j not in four]
            at = set_numbers(hands, four, n)
            self.fours[at, hands[:, r] - sum(hands[:, t] < hands[:, r] for t in four)] = level
        self.fives = np.empty(comb(n, 5), dtype=np.int32)
        self.fives[set_numbers(hands, _SUBSETS[5][0], n)] = level
        # Categories: per set, the hands holding it by category of strength.
        category = batch.category_table(rules)[strengths].astype(np.int64)
        self.categories = len(rules.ladder)
        onehot = np.zeros((m, self.categories))
        onehot[np.arange(m), category] = 1
        self.dense_categories = self.dense @ onehot
        self.level_category = category
        self.draws = np.array([comb(n - 5, 5 - int(k)) for k in KEPT], dtype=np.int64)
        self.dealer_hands = comb(n - 5, 5)
        self.indices = indices

    def holds(
        self, cards: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Per deal (rows of five ascending deck positions) and hold mask: the
        pairs (draw, dealer hand) the player wins and draws, and the draws
        per final category."""
        B, m, n = len(cards), self.m, self.n
        rows = np.empty((B, len(_DENSE)), dtype=np.int64)
        rows[:, 0] = 0
        for place, s in enumerate(_DENSE[1:], 1):  # the dense table: the empty set, then each card, each pair
            rows[:, place] = 1 + cards[:, s[0]] if len(s) == 1 else 1 + n + set_numbers(cards, s, n)
        dense = self.dense[rows]  # (B, 16, m)
        dealer = _DENSE_SIGNS @ dense  # (B, m): the dealer's hands per strength, then corrected
        offset = (np.arange(B, dtype=np.int64) * m)[:, None]
        threes = self.threes[np.stack([set_numbers(cards, s, n) for s in _SUBSETS[3]], axis=1)] + offset[:, :, None]
        fours = self.fours[np.stack([set_numbers(cards, s, n) for s in _SUBSETS[4]], axis=1)] + offset[:, :, None]
        fives = self.fives[set_numbers(cards, _SUBSETS[5][0], n)] + offset[:, 0]
        flat = dealer.reshape(-1)
        flat -= np.bincount(threes.reshape(-1), minlength=B * m)
        flat += np.bincount(fours.reshape(-1), minlength=B * m)
        flat -= np.bincount(fives, minlength=B * m)
        below = np.cumsum(dealer, axis=1)
        below -= dealer
        found = np.empty((2, B, 32))
        for side, values in enumerate((below, dealer)):
            found[side][:, _DENSE_MASKS] = (dense @ values[:, :, None])[:, :, 0]
            spread = values.reshape(-1)
            found[side][:, _MASKS3] = spread[threes].sum(axis=2)
            found[side][:, _MASKS4] = spread[fours].sum(axis=2)
            found[side][:, 31] = spread[fives]
        win, draw = (signed_supersets(np.rint(f).astype(np.int64)) for f in found)
        # The final hands per category, for every hold.
        made = np.empty((B, 32, self.categories), dtype=np.int64)
        made[:, _DENSE_MASKS] = np.rint(self.dense_categories[rows]).astype(np.int64)
        cat = self.level_category
        for masks, table in ((_MASKS3, threes), (_MASKS4, fours)):
            levels = table - offset[:, :, None]
            for place, mask in enumerate(masks.tolist()):
                made[:, mask] = _row_counts(cat[levels[:, place]], self.categories)
        made[:, 31] = 0
        made[np.arange(B), 31, cat[fives - offset[:, 0]]] = 1
        return win, draw, signed_supersets(made)

    def value(self, win: npt.NDArray[np.int64], draw: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Each hold's expectation, win - lose, as a float."""
        pairs = self.draws * self.dealer_hands
        return (2 * win + draw - pairs) / pairs

    def exact_key(self, win: int, draw: int, mask: int) -> tuple[Fraction, Fraction, int, int]:
        """The order of holds, exactly: higher value, more wins, fewer cards
        exchanged, lower mask."""
        pairs = int(self.draws[mask]) * self.dealer_hands
        return (-Fraction(2 * win + draw - pairs, pairs), -Fraction(win, pairs), -int(KEPT[mask]), mask)

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


def _row_counts(categories: npt.NDArray[np.int64], size: int) -> npt.NDArray[np.int64]:
    """Per row, how many of its entries are each category."""
    rows = len(categories)
    flat = (np.arange(rows, dtype=np.int64)[:, None] * size + categories).reshape(-1)
    return np.bincount(flat, minlength=rows * size).reshape(rows, size)


def _tables(rules: RuleSet, deck: tuple[int, ...]) -> _Tables:
    """The tables of a rule set and deck (card indices), once per process."""
    return _kept("tables", rules, deck, lambda: _Tables(rules, deck))


def _classes(rules: RuleSet, deck: tuple[int, ...]) -> DealClasses:
    return _kept("classes", rules, deck, lambda: deal_classes([CARDS[i] for i in deck], rules))


_Made = TypeVar("_Made")
_KEPT_MOST: Final = 2  # rule sets' tables a process keeps (about 600 MB each for 52 cards)
_kept_things: dict[tuple[str, str, tuple[int, ...]], object] = {}


def _kept(kind: str, rules: RuleSet, deck: tuple[int, ...], make: Callable[[], _Made]) -> _Made:
    """What ``make`` makes for a rule set and deck, kept per process by the
    rule set's value, not its identity (each task of a Dask worker
    unpickles its own copy of the rule set), the most recent few only."""
    from ..vector.jobs import stable_text

    key = (kind, stable_text(rules), deck)
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
