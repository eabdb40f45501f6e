"""A video-poker pay table solved: the exact return under perfect play, and
the best hold of every starting hand.

:func:`fivecard.play.advise.advise` enumerates one hand's 32 holds. Doing
that for each of the 2,598,960 deals would take hours; instead the final
hands are counted once and each hold's value found by inclusion-exclusion,
the method of fast video-poker analysers:

1. **Totals per card set.** For every set ``U`` of at most five cards of the
   deck, ``T[U]`` is the sum of the pays of all five-card hands that hold
   ``U`` (each hand adds its pay to its 32 subsets). Sets are numbered by
   the combinatorial number system, so ``T`` is one array.
2. **A hold's value.** Keeping ``S`` of a dealt hand ``D`` draws hands that
   hold ``S`` and none of the discarded cards ``D - S``:
   ``sum(T[U] * (-1) ** |U - S| for S <= U <= D)``, over the whole
   lattice of ``D``'s 32 subsets at once (a signed superset sum, five steps),
   divided by the number of draws, ``C(47, 5 - |S|)``.
3. The best hold of each deal is the largest value (values are exact
   integers over small denominators, so float64 orders them exactly), and
   the return is the mean of the best values over all deals, summed as a
   :class:`~fractions.Fraction`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bulk import batch
from ..core.cards import Card
from ..core.rules import RuleSet, get_rules
from ..errors import FivecardError
from .advise import PayTable, PayTableError

__all__ = ["PayTableSolution", "solve_paytable", "HOLDS", "StartingHand", "starting_hands", "write_strategy"]

#: Hold masks 0-31: bit ``i`` keeps the ``i``-th card (of the dealt hand's
#: cards in deck order); the positions each mask keeps.
HOLDS: Final = tuple(tuple(i for i in range(5) if m >> i & 1) for m in range(32))
_KEPT: Final = np.array([len(h) for h in HOLDS], dtype=np.int64)
_CHUNK: Final = 1 << 15  # deals at a time: their 32 values stay small


@dataclass(frozen=True, slots=True)
class PayTableSolution:
    """A pay table solved under a rule set: ``expected_return`` per coin bet
    (exact), ``final`` the probability of each category name (and
    ``"nothing"``: a hand that pays 0) of the final hand under optimal play,
    and per deal (``deals``: indices into ``rules.dealt()``, ascending) the
    best hold (a mask of :data:`HOLDS` over the deal's five cards) with its
    value per coin, and the runner-up's. ``final`` is empty when it was not
    asked for."""

    paytable: PayTable
    rules: RuleSet
    expected_return: Fraction
    final: dict[str, Fraction]
    deals: npt.NDArray[np.uint8]
    best: npt.NDArray[np.int8]
    best_value: npt.NDArray[np.float64]
    second: npt.NDArray[np.int8]
    second_value: npt.NDArray[np.float64]

    @property
    def percent(self) -> float:
        """The return as a percentage (99.5439 for Jacks or Better 9/6)."""
        return float(self.expected_return * 100)


def solve_paytable(
    paytable: PayTable, *, rules: str | RuleSet = "standard", final: bool = True
) -> PayTableSolution:
    """Solve ``paytable`` under ``rules`` (a rule set of suited cards
    without jokers, for now; wild cards of the deck included): every deal's
    best hold and the exact return. ``final=False`` skips the distribution of final hands (a pass
    per category).

    >>> from fivecard.play.advise import JACKS_OR_BETTER
    >>> solution = solve_paytable(JACKS_OR_BETTER)  # doctest: +SKIP
    >>> round(solution.percent, 4)  # doctest: +SKIP
    99.5439
    """
    ruleset = get_rules(rules)
    if ruleset.low:
        raise PayTableError(f"a pay table pays high hands, but the {ruleset.name} rules rank low hands")
    deck = ruleset.dealt()
    paytable.check_rules(ruleset)
    if not ruleset.suits or ruleset.jokers:
        raise FivecardError(
            f"solving a pay table takes a deck of suited cards without jokers for now, not {ruleset.name}"
        )
    n = len(deck)
    deals = batch.combinations(n)
    codes = np.array([c.code for c in deck], dtype=np.int32)
    hands = codes[deals]  # every five-card hand of the deck, as card codes
    strengths = batch.strengths_of_codes(hands, rules=ruleset, check=False)
    pays = paytable.hand_pays(ruleset, hands, strengths)
    if not np.array_equal(pays, np.round(pays)):
        raise PayTableError(f"{paytable.name}: solving takes whole-number pays")
    pay = pays.astype(np.int64)
    index = _Index(n)
    totals = index.totals(deals, pay)
    draws = np.array([comb(n - 5, 5 - k) for k in _KEPT.tolist()], dtype=np.int64)
    best = np.empty(len(deals), dtype=np.int8)
    second = np.empty(len(deals), dtype=np.int8)
    best_value = np.empty(len(deals))
    second_value = np.empty(len(deals))
    sums = [0] * 6  # the best holds' pay totals, by cards kept
    for start in range(0, len(deals), _CHUNK):
        part = deals[start : start + _CHUNK].astype(np.int64)
        found = index.holds(part, totals)
        value = found / draws
        order = np.argsort(-value, axis=1, kind="stable")[:, :2]
        rows = np.arange(len(part))
        best[start : start + len(part)] = order[:, 0]
        second[start : start + len(part)] = order[:, 1]
        best_value[start : start + len(part)] = value[rows, order[:, 0]]
        second_value[start : start + len(part)] = value[rows, order[:, 1]]
        chosen = found[rows, order[:, 0]]
        kept = _KEPT[order[:, 0]]
        for k in range(6):
            sums[k] += int(chosen[kept == k].sum())
    deals_total = comb(n, 5)
    expected = sum((Fraction(sums[k], comb(n - 5, 5 - k)) for k in range(6)), Fraction(0)) / deals_total
    made = {}
    if final:
        names, entry = paytable.hand_entries(ruleset, hands, strengths)
        made = _final_hands(index, deals, best, entry, names, pays, paytable, ruleset)
    return PayTableSolution(paytable, ruleset, expected, made, deals, best, best_value, second, second_value)


def _final_hands(
    index: _Index,
    deals: npt.NDArray[np.uint8],
    best: npt.NDArray[np.int8],
    entry: npt.NDArray[np.int64],
    names: tuple[str, ...],
    pays: npt.NDArray[np.float64],
    paytable: PayTable,
    rules: RuleSet,
) -> dict[str, Fraction]:
    """The probability of each final hand under the best holds, by the pay
    table's entry that pays it (``"nothing"`` for a hand that pays 0),
    highest pay first: the same inclusion-exclusion, with the hands of one
    entry counted in place of pays, for the chosen hold of each deal. Each
    card set's number is made once per chunk of deals for all entries."""
    nothing = len(names)
    label = np.where(pays > 0, entry, nothing)
    found_kinds = [int(k) for k in np.unique(label) if k != nothing]
    strength_order = {name: place for place, name in enumerate(c.name for c in rules.ladder)}

    def pay_of(kind: int) -> tuple[float, int]:
        name = names[kind]
        base = name.removeprefix("natural_").removeprefix("wild_")
        return (-paytable.pays.get(name, paytable.pays.get(base, 0.0)), -strength_order.get(base, len(names)))

    kinds = sorted(found_kinds, key=pay_of) + [nothing]
    cards = deals.astype(np.int64)
    counts = [index.totals(cards[label == kind], None).astype(np.int32) for kind in kinds]
    kept = _KEPT[best.astype(np.int64)]
    sums = np.zeros((len(kinds), 6), dtype=np.int64)  # by kind, by cards kept
    for start in range(0, len(deals), _CHUNK):
        part = cards[start : start + _CHUNK]
        numbers = [index.number(part, mask) for mask in range(32)]
        rows = np.arange(len(part))
        chosen_hold = best[start : start + len(part)].astype(np.int64)
        mine = kept[start : start + len(part)]
        for j, table in enumerate(counts):
            found = _signed_supersets(np.stack([table[n] for n in numbers], axis=1).astype(np.int64))
            chosen = found[rows, chosen_hold]
            sums[j] += np.bincount(mine, weights=chosen, minlength=6).astype(np.int64)
    n = len(rules.dealt())
    named = [names[k] if k < nothing else "nothing" for k in kinds]
    return {
        name: sum((Fraction(int(sums[j, k]), comb(n - 5, 5 - k)) for k in range(6)), Fraction(0)) / len(deals)
        for j, name in enumerate(named)
    }


def _signed_supersets(found: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """In place, per row, each subset mask's value becomes the signed sum of
    the values of its supersets among the 32 (inclusion-exclusion over the
    cards not in the mask)."""
    for bit in (1, 2, 4, 8, 16):
        for mask in range(32):
            if not mask & bit:
                found[:, mask] -= found[:, mask | bit]
    return found


class _Index:
    """Sets of at most five of ``n`` cards numbered by the combinatorial
    number system: the sets of each size in a block of their own."""

    def __init__(self, n: int) -> None:
        self.choose = _choose(n)
        self.base = np.cumsum([0] + [comb(n, k) for k in range(5)]).astype(np.int64)
        self.size = int(self.base[-1]) + comb(n, 5)

    def number(self, cards: npt.NDArray[np.int64], mask: int) -> npt.NDArray[np.int64]:
        """The number of the subset ``mask`` of each row of ascending cards."""
        kept = HOLDS[mask]
        out = np.full(len(cards), self.base[len(kept)], dtype=np.int64)
        for place, column in enumerate(kept):
            out += self.choose[cards[:, column], place + 1]
        return out

    def totals(
        self, deals: npt.NDArray[np.integer[Any]], values: npt.NDArray[np.int64] | None
    ) -> npt.NDArray[np.int64]:
        """Per set of at most five cards, the sum of ``values`` of the deals
        that hold it (``None``: how many deals hold it)."""
        cards = deals.astype(np.int64)
        out = np.zeros(self.size, dtype=np.int64)
        for mask in range(32):
            numbers = self.number(cards, mask)
            if values is None:
                out += np.bincount(numbers, minlength=self.size)
            else:
                out += np.bincount(numbers, weights=values, minlength=self.size).astype(np.int64)
        return out

    def holds(self, cards: npt.NDArray[np.int64], totals: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Per deal (rows of ascending cards) and hold mask, the sum over the
        draws of that hold (hands with the kept cards and none of the
        discarded): a signed superset sum over the deal's 32 subsets."""
        return _signed_supersets(np.stack([totals[self.number(cards, mask)] for mask in range(32)], axis=1))


@cache
def _choose(n: int) -> npt.NDArray[np.int64]:
    """``C(x, j)`` for x up to ``n`` and j up to 5."""
    return np.array([[comb(x, j) for j in range(6)] for x in range(n + 1)], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class StartingHand:
    """A class of deals that play alike (the same ranks, suits renamed),
    by its first deal in deck order: ``deals`` how many deals it holds,
    ``hold`` the best cards to keep and ``value`` their return per coin,
    ``runner_up`` and ``runner_up_value`` the second-best hold's."""

    cards: tuple[Card, ...]
    deals: int
    hold: tuple[Card, ...]
    value: float
    runner_up: tuple[Card, ...]
    runner_up_value: float


def starting_hands(solution: PayTableSolution) -> list[StartingHand]:
    """The strategy: every class of starting hands (134,459 of the 2,598,960
    deals of 52 cards when renaming suits changes nothing; every deal when
    the rule set's wild cards tell suits apart, as one-eyed jacks'), best
    value first."""
    deck = solution.rules.dealt()
    deals = solution.deals.astype(np.int64)
    if _suits_alike(solution.rules):
        keys = _class_keys(deals)
        own = _packed(deals)
        first = np.flatnonzero(own == keys)  # the deals that are their class's first
        _, counts = np.unique(keys, return_counts=True)
        order = np.argsort(own[first], kind="stable")
        first = first[order]  # in the order of np.unique's keys
    else:
        first = np.arange(len(deals))
        counts = np.ones(len(deals), dtype=np.int64)
    by_value = np.argsort(-solution.best_value[first], kind="stable")
    made = []
    for place in by_value.tolist():
        row = int(first[place])
        cards = tuple(deck[i] for i in deals[row].tolist())
        made.append(
            StartingHand(
                cards,
                int(counts[place]),
                tuple(cards[i] for i in HOLDS[int(solution.best[row])]),
                float(solution.best_value[row]),
                tuple(cards[i] for i in HOLDS[int(solution.second[row])]),
                float(solution.second_value[row]),
            )
        )
    return made


def _suits_alike(rules: RuleSet) -> bool:
    """Whether renaming the suits maps every hand to one that plays alike:
    the wild cards (if any) are whole ranks."""
    ranks = {c.rank for c in rules.wild}
    return all(sum(1 for c in rules.wild if c.rank == r) == 4 for r in ranks)


def _packed(deals: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Five ascending deck indices as one number (6 bits each)."""
    out = np.zeros(len(deals), dtype=np.int64)
    for column in range(5):
        out = out << 6 | deals[:, column]
    return out


def _class_keys(deals: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each deal's class: the smallest packed deal among its 24 suit
    renamings (deck index = rank place * 4 + suit place)."""
    from itertools import permutations

    ranks, suits = deals // 4, deals % 4
    best = np.full(len(deals), np.iinfo(np.int64).max, dtype=np.int64)
    for renaming in permutations(range(4)):
        renamed = ranks * 4 + np.array(renaming, dtype=np.int64)[suits]
        np.minimum(best, _packed(batch.sort_rows(renamed)), out=best)
    return best


STRATEGY_COLUMNS: Final = ("hand", "deals", "hold", "value", "runner_up", "runner_up_value")


def write_strategy(path: str, hands: Sequence[StartingHand]) -> None:
    """Write the strategy to ``path``: CSV (``.csv``) or Parquet
    (``.parquet``, with the optional pyarrow), a row per class of starting
    hands (:data:`STRATEGY_COLUMNS`; cards as ``As Kd``). The file appears
    whole or not at all (written beside it, then renamed)."""
    import os

    from ..errors import FileError

    kind = os.path.splitext(path)[1].lower()
    if kind not in (".csv", ".parquet"):
        raise FileError(f"the strategy is written as FILE.csv or FILE.parquet, not {path!r}")
    rows = [
        (_spelled(h.cards), h.deals, _spelled(h.hold), h.value, _spelled(h.runner_up), h.runner_up_value)
        for h in hands
    ]
    part = f"{path}.part"
    try:
        if kind == ".csv":
            import csv

            with open(part, "w", encoding="utf-8", newline="") as handle:
                out = csv.writer(handle)
                out.writerow(STRATEGY_COLUMNS)
                out.writerows([(a, b, c, repr(d), e, repr(f)) for a, b, c, d, e, f in rows])
        else:
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise FileError("Parquet output needs pyarrow: pip install 'fivecard[parquet]'") from None
            columns = list(zip(*rows)) if rows else [()] * len(STRATEGY_COLUMNS)
            pq.write_table(pa.table(dict(zip(STRATEGY_COLUMNS, columns))), part)
        os.replace(part, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise FileError(f"cannot write {path!r}: {exc.strerror or exc}") from None


def _spelled(cards: Sequence[Card]) -> str:
    return " ".join(c.code_str for c in cards)
