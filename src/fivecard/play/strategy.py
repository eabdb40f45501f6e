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

Only one deal of each class that plays alike is worked (the suits renamed:
134,459 of the 2,598,960 deals of 52 cards, :mod:`fivecard.vector.classes`),
weighed by the deals it stands for, in parts that
:func:`fivecard.vector.jobs.run_parts` runs with progress and checkpoints.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..core.cards import Card
from ..core.rules import RuleSet, get_rules
from ..core.errors import FivecardError
from .paytables import PayTable, PayTableError
from ..vector.classes import HOLDS, KEPT, DealClasses, deal_classes, mean_over_deals, set_numbers, signed_supersets

if TYPE_CHECKING:
    from .dealer import DealerHand
    from .holds import HoldList

__all__ = ["PayTableSolution", "solve_paytable", "HOLDS", "StartingHand", "starting_hands"]



@dataclass(frozen=True, slots=True)
class PayTableSolution:
    """A pay table solved under a rule set: ``expected_return`` per coin bet
    (exact), ``final`` the probability of each category name (and
    ``"nothing"``: a hand that pays 0) of the final hand under optimal play,
    and per class of deals that play alike (``classes``, see
    :mod:`fivecard.vector.classes`) the best hold (a mask of :data:`HOLDS`
    over the class's first deal's five cards) with its value per coin, and
    the runner-up's. ``final`` is empty when it was not asked for."""

    paytable: PayTable
    rules: RuleSet
    expected_return: Fraction
    final: dict[str, Fraction]
    classes: DealClasses
    best: npt.NDArray[np.int8]
    best_value: npt.NDArray[np.float64]
    second: npt.NDArray[np.int8]
    second_value: npt.NDArray[np.float64]

    @property
    def percent(self) -> float:
        """The return as a percentage (99.5439 for Jacks or Better 9/6)."""
        return float(self.expected_return * 100)

    def to_json(self, holds: HoldList | None = None) -> dict[str, Any]:
        """The solution as ``fivecard strategy --json --paytable`` prints
        it: ``paytable``, ``rules``, ``deals``, ``classes``, ``return`` (the
        exact fraction), ``percent``, ``final`` (each final hand's
        probability) and, given ``holds``, ``holds``."""
        ret = self.expected_return
        return {
            "paytable": self.paytable.title,
            "rules": self.rules.name,
            "deals": self.classes.total,
            "classes": len(self.classes),
            "return": f"{ret.numerator}/{ret.denominator}",
            "percent": self.percent,
            "final": {name: float(p) for name, p in self.final.items()},
            **({"holds": holds.to_json()} if holds is not None else {}),
        }

    def text(self, holds: HoldList | None = None) -> str:
        """The solution as ``fivecard strategy --paytable`` prints it: the
        return, a line per final hand (probability, pay) and ``holds``."""
        ret = self.expected_return
        rules = self.rules
        labels = {name: self.paytable.entry_label(name, rules) for name in self.final}
        width = max((len(labels[name]) for name in self.final), default=0)
        lines = [
            f"{self.paytable.title} under {rules.name}, perfect play over all {self.classes.total:,} deals "
            f"({len(self.classes):,} classes):",
            f"return {self.percent:.4f}% ({ret.numerator}/{ret.denominator} per coin)",
            f"{'final hand':<{width}} {'probability':>12}  pays",
            *(
                f"{labels[name]:<{width}} {float(p):>12.6%}  {self.paytable.pays.get(name, 0.0):g}"
                for name, p in self.final.items()
            ),
        ]
        return "\n".join(lines) + "\n" + (holds.text() if holds is not None else "")


def solve_paytable(
    paytable: PayTable,
    *,
    rules: str | RuleSet | None = None,
    final: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    resume: str | None = None,
) -> PayTableSolution:
    """Solve ``paytable`` under ``rules`` (a rule set of suited cards, for
    now; wild cards and jokers included; default: the
    one the table names, else ``standard``): every class
    of deals' best hold and the exact return. ``final=False`` skips the
    distribution of final hands. The classes are worked in parts
    (:func:`fivecard.vector.jobs.run_parts`, in this process): ``progress``
    is called with (parts done, parts), and with ``checkpoint`` (a folder)
    an interrupted run resumes where it stopped (``resume``: how, in the
    caller's words, for the interrupt's note); ``on_note`` hears why any
    checkpointed parts failed their checks (they are worked again).

    >>> from fivecard.play.paytables import JACKS_OR_BETTER
    >>> solution = solve_paytable(JACKS_OR_BETTER)  # doctest: +SKIP
    >>> round(solution.percent, 4)  # doctest: +SKIP
    99.5439
    """
    from ..vector.jobs import job_key, run_parts

    ruleset = get_rules(rules) if rules is not None else paytable.rules_to_play()
    if ruleset.low:
        raise PayTableError(f"a pay table pays high hands, but the {ruleset.name} rules rank low hands")
    deck = ruleset.deck()
    paytable.check_rules(ruleset)
    if not ruleset.suits:
        raise FivecardError(f"solving a pay table takes a deck of suited cards for now, not {ruleset.name}")
    n = len(deck)
    deals = batch.combinations(n)
    hands = np.array([c.index for c in deck], dtype=np.int32)[deals]  # every hand of the deck, as card indices
    strengths = batch.strengths_of_indices(hands, rules=ruleset)
    pays = paytable.hand_pays(ruleset, hands, strengths)
    if not np.array_equal(pays, np.round(pays)):
        raise PayTableError(f"{paytable.title}: solving takes whole-number pays")
    index = _Index(n)
    draws = np.array([comb(n - 5, 5 - k) for k in KEPT.tolist()], dtype=np.int64)
    kinds, counts = _final_kinds(index, deals, hands, strengths, pays, paytable, ruleset) if final else ([], [])
    job = _PayJob(index, index.totals(deals, pays.astype(np.int64)), deal_classes(deck, ruleset), draws, counts)
    parts = -(-len(job.classes) // _PART_CLASSES)
    key = job_key("paytable", [paytable, ruleset, _PART_CLASSES, final])
    results = run_parts(
        _pay_part, job, parts, key=key, workers=0, checkpoint=checkpoint, progress=progress, on_note=on_note,
        resume=resume,
    )
    joined = {name: np.concatenate([r[name] for r in results]) for name in ("best", "value", "second", "second_value")}
    sums = np.sum([r["sums"] for r in results], axis=0, dtype=object)
    made = np.sum([r["final"] for r in results], axis=0, dtype=object) if kinds else None
    expected = mean_over_deals(sums, n)
    chances = {} if made is None else {name: mean_over_deals(made[j], n) for j, name in enumerate(kinds)}
    return PayTableSolution(
        paytable,
        ruleset,
        expected,
        chances,
        job.classes,
        joined["best"].astype(np.int8),
        joined["value"],
        joined["second"].astype(np.int8),
        joined["second_value"],
    )


_PART_CLASSES: Final = 8192  # classes a part


@dataclass(eq=False)
class _PayJob:
    """What every part reads (in this process): the pay totals per card
    set, the hands per final entry per card set, the classes of deals."""

    index: _Index
    totals: npt.NDArray[np.int64]
    classes: DealClasses
    draws: npt.NDArray[np.int64]  # per hold: C(n - 5, 5 - cards kept)
    counts: list[npt.NDArray[np.int32]]  # per final entry (none without the final hands)


def _pay_part(spec: Hashable, part: int) -> dict[str, npt.NDArray[Any]]:
    """One part of the classes: each one's best hold and runner-up, and the
    chosen holds' pay totals and final hands (weighted by the deals of each
    class), by cards kept."""
    assert isinstance(spec, _PayJob)
    job = spec
    cards = job.classes.first[part * _PART_CLASSES : (part + 1) * _PART_CLASSES]
    weight = job.classes.deals[part * _PART_CLASSES : (part + 1) * _PART_CLASSES]
    numbers = [job.index.number(cards, mask) for mask in range(32)]
    found = signed_supersets(np.stack([job.totals[n] for n in numbers], axis=1))
    value = found / job.draws
    # best first; equal values (exact: equal fractions round to one float):
    # more cards kept (fewer exchanged, as the advisor), then the lower mask
    order = np.lexsort((np.broadcast_to(-KEPT, value.shape), -value), axis=-1)[:, :2]
    rows = np.arange(len(cards))
    kept = KEPT[order[:, 0]]
    chosen = found[rows, order[:, 0]] * weight
    final = np.zeros((len(job.counts), 6), dtype=np.int64)
    for j, table in enumerate(job.counts):
        made = signed_supersets(np.stack([table[n] for n in numbers], axis=1).astype(np.int64))
        np.add.at(final[j], kept, made[rows, order[:, 0]] * weight)  # integers, exactly
    sums = np.zeros(6, dtype=np.int64)
    np.add.at(sums, kept, chosen)
    return {
        "best": order[:, 0].astype(np.int8),
        "value": value[rows, order[:, 0]],
        "second": order[:, 1].astype(np.int8),
        "second_value": value[rows, order[:, 1]],
        "sums": sums,
        "final": final,
    }


def _final_kinds(
    index: _Index,
    deals: npt.NDArray[np.uint8],
    hands: npt.NDArray[np.int32],
    strengths: npt.NDArray[np.uint16],
    pays: npt.NDArray[np.float64],
    paytable: PayTable,
    rules: RuleSet,
) -> tuple[list[str], list[npt.NDArray[np.int32]]]:
    """The final hands by the pay table's entry that pays them
    (``"nothing"`` for a hand that pays 0), highest pay first, and per entry
    the hands of it that hold each card set."""
    names, label = paytable.final_entries(rules, hands, strengths, pays)
    nothing = len(names) - 1
    found_kinds = [int(k) for k in np.unique(label) if k != nothing]
    strength_order = {name: place for place, name in enumerate(c.name for c in rules.ladder)}

    def pay_of(kind: int) -> tuple[float, int]:
        name = names[kind]
        base = name.removeprefix("natural_").removeprefix("wild_")
        return (-paytable.pays.get(name, paytable.pays.get(base, 0.0)), -strength_order.get(base, len(names)))

    kinds = sorted(found_kinds, key=pay_of) + [nothing]
    cards = deals.astype(np.int64)
    counts = [index.totals(cards[label == kind], None).astype(np.int32) for kind in kinds]
    return [names[k] for k in kinds], counts


class _Index:
    """Sets of at most five of ``n`` cards numbered by the combinatorial
    number system: the sets of each size in a block of their own."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.base = np.cumsum([0] + [comb(n, k) for k in range(5)]).astype(np.int64)
        self.size = int(self.base[-1]) + comb(n, 5)

    def number(self, cards: npt.NDArray[np.int64], mask: int) -> npt.NDArray[np.int64]:
        """The number of the subset ``mask`` of each row of ascending cards."""
        kept = HOLDS[mask]
        return set_numbers(cards, kept, self.n) + int(self.base[len(kept)])

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
        return signed_supersets(np.stack([totals[self.number(cards, mask)] for mask in range(32)], axis=1))


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
    deals of 52 cards), best value first."""
    deck = solution.rules.deck()
    first = solution.classes.first
    made = []
    for row in np.argsort(-solution.best_value, kind="stable").tolist():
        cards = tuple(deck[i] for i in first[row].tolist())
        made.append(
            StartingHand(
                cards,
                int(solution.classes.deals[row]),
                tuple(cards[i] for i in HOLDS[int(solution.best[row])]),
                float(solution.best_value[row]),
                tuple(cards[i] for i in HOLDS[int(solution.second[row])]),
                float(solution.second_value[row]),
            )
        )
    return made
