"""A video-poker pay table solved: the exact return under perfect play, and
the best hold of every starting hand.

:func:`fivecard.play.advise.advise` enumerates one hand's 32 holds. Doing
that for each of the 2,598,960 deals would take hours; instead the final
hands are counted once and each hold's value found by inclusion-exclusion,
the method of fast video-poker analysers:

1. **Counts per card set.** Each hand of the deck is of one kind: the
   pay-table line that pays it, or nothing. For every set ``U`` of at most
   five cards of the deck, ``C[U, k]`` counts the hands of kind ``k`` that
   hold ``U``. Sets are numbered by the combinatorial number system, so
   ``C`` is a table per set size; the hands are walked in the order of
   their numbers, each adding one to its five four-card subsets (rows the
   walk meets in turn, not scattered over the table), and each smaller
   set's counts are the sum of those of the sets of one card more that
   hold it, over ``5 - |U|``.
2. **A hold's draws.** Keeping ``S`` of a dealt hand ``D`` draws hands that
   hold ``S`` and none of the discarded cards ``D - S``:
   ``sum(C[U] * (-1) ** |U - S| for S <= U <= D)``, over the whole
   lattice of ``D``'s 32 subsets at once (a signed superset sum, five
   steps): how many draws end in each kind. Their pays, over the number of
   draws ``C(47, 5 - |S|)``, are the hold's value; their squared pays its
   variance.
3. The best hold of each deal is the largest value (values are exact
   integers over small denominators, so float64 orders them exactly; a tie
   goes to the lower variance, then to more cards kept), the return is the
   mean of the best values over all deals, and each kind's share of the
   final hands the mean of its draws, summed as
   :class:`~fractions.Fraction`.

Only one deal of each class that plays alike is worked (the suits renamed:
134,459 of the 2,598,960 deals of 52 cards, :mod:`fivecard.vector.classes`),
weighed by the deals it stands for, in parts that
:func:`fivecard.vector.jobs.run_parts` runs with progress and checkpoints.

The sums run in a compiled kernel (``fivecard.play._solver``, C) where
``pip install`` built it: the kind of every hand, the counts per card set and
each class's holds, in a fraction of a second; else in numpy, the same
integers in some seconds (:mod:`fivecard.core.kernel`). A game's counts are
kept in memory and in the user's cache (:func:`hold_values`).
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..core import kernel
from ..core.cards import Card, format_cards
from ..core.rules import RuleSet, get_rules
from ..core.errors import FivecardError, quote
from .paytables import PayTable, PayTableError, spell_pay
from ..vector.classes import (
    HOLDS,
    KEPT,
    DealClasses,
    choose_table,
    deal_classes,
    mean_over_deals,
    numbered_sets,
    set_numbers,
    signed_supersets,
)

if TYPE_CHECKING:
    from .dealer import DealerHand
    from .risk import BankrollRisk
    from .holds import HoldList

__all__ = [
    "PayTableSolution",
    "solve_paytable",
    "HOLDS",
    "TIES",
    "StartingHand",
    "starting_hands",
    "HoldValues",
    "DealValues",
    "hold_values",
    "hold_values_held",
    "hold_values_progress",
    "COUNT_STEPS",
]



#: How :func:`solve_paytable` breaks a tie between equally good holds:
#: the lower variance (the default: the same return with less risk), or the
#: higher; then more cards kept, then the lower mask.
TIES: Final = ("lower-variance", "higher-variance")


@dataclass(frozen=True, slots=True)
class PayTableSolution:
    """A pay table solved under a rule set: ``expected_return`` per coin bet
    (exact), ``final`` the probability of each final hand as the table
    pays it (a line's :attr:`~fivecard.play.paytables.PayEntry.key`, and
    ``"nothing"``) under optimal play, highest pay first, and per class of
    deals that play alike (``classes``, see :mod:`fivecard.vector.classes`)
    the best hold (a mask of :data:`HOLDS` over the class's first deal's
    five cards) with its value per coin, and the runner-up's."""

    paytable: PayTable
    rules: RuleSet
    expected_return: Fraction
    final: dict[str, Fraction]
    classes: DealClasses
    best: npt.NDArray[np.int8]
    best_value: npt.NDArray[np.float64]
    second: npt.NDArray[np.int8]
    second_value: npt.NDArray[np.float64]
    #: Every hold's value per class (rows of 32, by mask), when asked for
    #: (``solve_paytable(values=True)``); else ``None``.
    values: npt.NDArray[np.float64] | None = None
    #: How ties between equally good holds were broken (:data:`TIES`).
    ties: str = TIES[0]

    @property
    def percent(self) -> float:
        """The return as a percentage (99.5439 for Jacks or Better 9/6)."""
        return float(self.expected_return * 100)

    @property
    def variance(self) -> Fraction:
        """The variance of one hand's pay per coin, exactly (19.5147 for
        Jacks or Better 9/6)."""
        from .risk import variance

        found = variance(self.distribution())
        assert isinstance(found, Fraction)
        return found

    def bankroll(self, coins: int | None, hands: int, bet: int | None = None) -> BankrollRisk:
        """The bankroll figures of a session of ``hands`` hands betting
        ``bet`` coins a hand (default: the table's most) from ``coins``
        (None: the bankroll for each risk only), with the chance of a
        natural royal flush before ruin (:func:`~fivecard.play.risk.bankroll_risk`)."""
        from .risk import bankroll_risk

        royal = {
            place
            for place, key in enumerate(self.final)
            for entry in self.paytable.entries
            if entry.key == key and entry.hand == "royal_flush" and entry.wilds in (None, frozenset({0}))
        }
        size = bet if bet is not None else self.paytable.coins
        return bankroll_risk(self.distribution(), coins, hands, size, royal=royal)

    @property
    def deviation(self) -> float:
        """The standard deviation of one hand's pay per coin (4.4175 for
        Jacks or Better 9/6)."""
        return math.sqrt(self.variance)

    @property
    def weighting(self) -> int:
        """The number every final hand is counted out of, as published
        tables count them: each deal's draws weighed alike, ``C(n, 5) * 5 *
        C(n - 5, 5)`` (19,933,230,517,200 for 52 cards, 24,568,865,521,200
        for 53), which every hold's number of draws divides; for a deck
        where it does not (54 cards), ``C(n, 5)`` times the least number
        that they all divide."""
        n = len(self.rules.deck())
        draws = [comb(n - 5, k) for k in range(6)]
        each = 5 * comb(n - 5, 5)
        if any(each % d for d in draws):
            each = math.lcm(*draws)
        return comb(n, 5) * each

    @property
    def counts(self) -> dict[str, int]:
        """Each final hand's count out of :attr:`weighting`: exact
        integers, as published return tables list "combinations"."""
        whole = self.weighting
        made = {k: p * whole for k, p in self.final.items()}
        assert all(c.denominator == 1 for c in made.values())
        return {k: int(c) for k, c in made.items()}

    def pays_of(self, name: str) -> float:
        """What a final hand (a key of :attr:`final`) pays per coin."""
        return self.paytable.pays.get(name, 0.0)

    def distribution(self) -> list[tuple[int, Fraction]]:
        """The final hands as (pay per coin, probability), highest pay
        first: what bankroll figures are worked from."""
        return [(int(self.pays_of(k)), p) for k, p in self.final.items()]

    def to_json(self, holds: HoldList | None = None) -> dict[str, Any]:
        """The solution as ``fivecard strategy --json --paytable`` prints
        it: ``paytable``, ``rules``, ``deals``, ``classes``, ``return`` (the
        exact fraction), ``percent``, ``variance`` (exact) and
        ``variance_decimal``, ``deviation``, ``final`` (each final hand's
        probability), ``counts`` (each one's combinations out of
        ``weighting``), ``pays``, ``ties``, the table's ``published`` return
        and ``source`` where it names them, and given ``holds``, ``holds``."""
        ret = self.expected_return
        variance = self.variance
        return {
            "paytable": self.paytable.title,
            "rules": self.rules.name,
            "deals": self.classes.total,
            "classes": len(self.classes),
            "return": f"{ret.numerator}/{ret.denominator}",
            "percent": self.percent,
            "variance": f"{variance.numerator}/{variance.denominator}",
            "variance_decimal": float(variance),
            "deviation": self.deviation,
            "final": {name: float(p) for name, p in self.final.items()},
            "counts": self.counts,
            "weighting": self.weighting,
            "pays": {name: self.pays_of(name) for name in self.final},
            "ties": self.ties,
            **({"published": self.paytable.published} if self.paytable.published else {}),
            **({"source": self.paytable.source} if self.paytable.source else {}),
            **({"holds": holds.to_json()} if holds is not None else {}),
        }

    def text(self, holds: HoldList | None = None) -> str:
        """The solution as ``fivecard strategy --paytable`` prints it: the
        return (and a published one), the variance, a line per final hand
        (pay, combinations, probability, how often) and ``holds``."""
        ret = self.expected_return
        rules = self.rules
        labels = {name: self.paytable.entry_label(name, rules) for name in self.final}
        width = max([len("final hand"), *(len(labels[name]) for name in self.final)])
        counts = self.counts
        digits = max(len(f"{c:,}") for c in [*counts.values(), self.weighting])
        paid = {name: spell_pay(self.pays_of(name)) for name in self.final}
        pay_width = max(5, *(len(p) for p in paid.values()))
        published = (
            f"; published {self.paytable.published}" + (f" ({self.paytable.source})" if self.paytable.source else "")
            if self.paytable.published
            else ""
        )

        def often(p: Fraction) -> str:
            return f"1 in {float(1 / p):,.0f}" if p else "never"

        stated = self.paytable.exact
        differs = stated is not None and stated != ret and rules.name == (self.paytable.rules or "standard")
        lines = [
            f"{self.paytable.title} under {rules.name}, perfect play over all {self.classes.total:,} deals "
            f"({len(self.classes):,} classes):",
            f"return {self.percent:.4f}% ({ret.numerator}/{ret.denominator} per coin){published}",
            *(
                [f"note: the table states a return of {stated.numerator}/{stated.denominator}; it is not this one"]
                if differs and stated is not None
                else []
            ),
            f"variance {float(self.variance):.4f}, standard deviation {self.deviation:.4f} per coin",
            f"{'final hand':<{width}} {'pays':>{pay_width}} {'combinations':>{digits}} {'probability':>12}  how often",
            *(
                f"{labels[name]:<{width}} {paid[name]:>{pay_width}} {counts[name]:>{digits},} {float(p):>12.6%}  {often(p)}"
                for name, p in self.final.items()
            ),
            f"{'total':<{width}} {'':>{pay_width}} {self.weighting:>{digits},}",
        ]
        return "\n".join(lines) + "\n" + (holds.text() if holds is not None else "")


def solve_paytable(
    paytable: PayTable,
    *,
    rules: str | RuleSet | None = None,
    ties: str = TIES[0],
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    resume: str | None = None,
    values: bool = False,
) -> PayTableSolution:
    """Solve ``paytable`` under ``rules`` (a rule set of suited cards, for
    now; wild cards and jokers included; default: the
    one the table names, else ``standard``): every class
    of deals' best hold, the exact return and the final hands. Equally
    good holds are told apart by ``ties`` (:data:`TIES`). The classes are worked in parts
    (:func:`fivecard.vector.jobs.run_parts`, in this process; by the
    compiled kernel, all in one): ``progress``
    is called with (parts done, parts), and with ``checkpoint`` (a folder)
    an interrupted run of several parts resumes where it stopped (``resume``: how, in the
    caller's words, for the interrupt's note); ``on_note`` hears why any
    checkpointed parts failed their checks (they are worked again).
    ``values=True`` keeps every hold's value of every class
    (:attr:`PayTableSolution.values`), which a strategy chart is judged by.
    The game's counts per card set are those :func:`hold_values` reads:
    in memory, or in the user's cache, once counted.

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
    names = paytable.final_names()
    pays = paytable.line_pays()
    if not np.array_equal(pays, np.round(pays)):
        raise PayTableError(f"{paytable.title}: solving takes whole-number pays")
    if ties not in TIES:
        raise FivecardError(f"ties are broken by {' or '.join(TIES)}, not {ties!r}")
    draws = np.array([comb(n - 5, 5 - k) for k in KEPT.tolist()], dtype=np.int64)
    job = _PayJob(
        _game_totals(paytable, ruleset),
        pays.astype(np.int64),
        deal_classes(deck, ruleset),
        draws,
        values,
        1 if ties == TIES[0] else -1,
        kernel.load("fivecard.play._solver") is not None,
    )
    parts = -(-len(job.classes) // job.size)
    key = job_key("paytable", [paytable, ruleset, job.size, values, ties])
    results = run_parts(
        _pay_part, job, parts, key=key, workers=0, progress=progress, on_note=on_note, resume=resume,
        checkpoint=checkpoint if parts > 1 else None,  # (a solve of one part has nothing to resume from)
    )
    joined = {name: np.concatenate([r[name] for r in results]) for name in ("best", "value", "second", "second_value")}
    made = np.sum([r["final"] for r in results], axis=0, dtype=object)  # by cards kept, per final hand
    expected = mean_over_deals(made @ job.pays.astype(object), n)
    order = sorted(range(len(names)), key=lambda j: (-int(pays[j]), j))  # highest pay first, then the table's order
    chances = {names[j]: mean_over_deals(made[:, j], n) for j in order}
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
        np.concatenate([r["values"] for r in results]) if values else None,
        ties,
    )


_PART_CLASSES: Final = 8192  # classes a part (numpy: per class some 32 rows of counts per kind at once)
#: By the compiled kernel: every class of a deck in one part (well under a second).
_COMPILED_PART_CLASSES: Final = 1 << 20


@dataclass(eq=False)
class _PayJob:
    """What every part reads (in this process): the final hands of each
    kind that hold each card set, the pay of each kind, the classes of
    deals."""

    totals: _KindTotals
    pays: npt.NDArray[np.int64]  # per kind of final hand ("nothing" last, 0)
    classes: DealClasses
    draws: npt.NDArray[np.int64]  # per hold: C(n - 5, 5 - cards kept)
    values: bool = False  # keep every hold's value
    spread: int = 1  # ties: 1 the lower variance first, -1 the higher
    compiled: bool = False  # worked by the compiled kernel

    @property
    def size(self) -> int:
        """The classes a part."""
        return _COMPILED_PART_CLASSES if self.compiled else _PART_CLASSES


def _pay_part(spec: Hashable, part: int) -> dict[str, npt.NDArray[Any]]:
    """One part of the classes: each one's best hold and runner-up, and the
    chosen holds' final hands (weighted by the deals of each class), by
    cards kept."""
    assert isinstance(spec, _PayJob)
    job = spec
    cards = job.classes.first[part * job.size : (part + 1) * job.size]
    weight = job.classes.deals[part * job.size : (part + 1) * job.size]
    if job.compiled:
        return _compiled_part(job, cards, weight)
    made = signed_supersets(job.totals.holding(cards))  # per class, hold, kind: the draws that make it
    _, value, order = _ranked_holds(made, job.pays, job.draws, job.spread)
    order = order[:, :2]
    rows = np.arange(len(cards))
    kept = KEPT[order[:, 0]]
    final = np.zeros((6, made.shape[2]), dtype=np.int64)
    np.add.at(final, kept, made[rows, order[:, 0]] * weight[:, None])  # integers, exactly
    return {
        "best": order[:, 0].astype(np.int8),
        "value": value[rows, order[:, 0]],
        "second": order[:, 1].astype(np.int8),
        "second_value": value[rows, order[:, 1]],
        "final": final,
        **({"values": value} if job.values else {}),
    }


def _compiled_part(
    job: _PayJob, cards: npt.NDArray[np.int64], weight: npt.NDArray[np.int64]
) -> dict[str, npt.NDArray[Any]]:
    """:func:`_pay_part` by the compiled kernel: the same sums, ranking and
    final hands in one pass over the part's classes."""
    compiled = kernel.load("fivecard.play._solver")
    assert compiled is not None, "the job was made for the compiled kernel"
    m, totals = len(cards), job.totals
    found: dict[str, npt.NDArray[Any]] = {
        "best": np.empty(m, dtype=np.int8),
        "value": np.empty(m, dtype=np.float64),
        "second": np.empty(m, dtype=np.int8),
        "second_value": np.empty(m, dtype=np.float64),
        "final": np.zeros((6, totals.kinds), dtype=np.int64),
        **({"values": np.empty((m, 32), dtype=np.float64)} if job.values else {}),
    }
    compiled.holds(
        np.ascontiguousarray(cards, dtype=np.int64), np.ascontiguousarray(weight, dtype=np.int64), totals.tables,
        totals.top, totals.n, job.pays, job.draws, job.spread, found["best"], found["value"], found["second"],
        found["second_value"], found["final"], found.get("values"),
    )
    return found


def _ranked_holds(
    made: npt.NDArray[np.int64], pays: npt.NDArray[np.int64], draws: npt.NDArray[np.int64], spread: int = 1
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """Per deal (rows of ``made``: per hold mask, the draws that make each
    kind), each hold's total pay over its draws, its value (that over the
    ``draws``) and the masks best first: equal values (exact: equal
    fractions round to one float) go to the lower variance (the mean
    square pay; ``spread`` -1: the higher), then to more cards kept (fewer
    exchanged, as the advisor), then to the lower mask. The one ranking
    of holds, for the solver's classes and for one deal alike."""
    found = made @ pays
    value = found / draws
    square = (made @ pays**2) / draws
    order = np.lexsort((np.broadcast_to(-KEPT, value.shape), spread * square, -value), axis=-1)
    return found, value, order


class _KindTotals:
    """For every set ``U`` of at most five cards of a deck of ``n``, how
    many of its five-card hands hold ``U``, per kind of final hand: the sets
    of each size numbered by the combinatorial number system
    (:func:`~fivecard.vector.classes.set_numbers`) in a table of their own,
    rows of counts per kind; the five-card sets (the hands themselves) as
    the kind of each (``top``).

    Counted in :data:`COUNT_STEPS` steps, a size of sets each, from the
    largest: each hand adds one to its five four-card subsets (the hands
    walked in number order, where each hand's subsets lie in rows the walk
    meets in turn), then each smaller set's counts are those of the sets of
    one card more that hold it, added up: a hand holding a set of ``s``
    cards holds ``5 - s`` of those, so the sum counts it ``5 - s`` times.
    By the compiled kernel (``fivecard.play._solver``) where it is built,
    else by numpy: the same counts."""

    def __init__(
        self,
        kind: npt.NDArray[np.integer[Any]],
        n: int,
        kinds: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.n, self.kinds = n, kinds
        self.top = np.ascontiguousarray(kind, dtype=np.uint8)  # (a table has at most 100 lines)
        compiled = kernel.load("fivecard.play._solver")
        tables: list[npt.NDArray[np.int32]] = [np.empty((comb(n, k), kinds), dtype=np.int32) for k in range(5)]
        if compiled is not None:
            compiled.fours(self.top, n, kinds, tables[4])
        else:
            tables[4] = _fours(self.top, n, kinds)
        if progress is not None:
            progress(1, COUNT_STEPS)
        for size in (3, 2, 1, 0):
            if compiled is not None:
                compiled.fewer(tables[size + 1], n, kinds, size, tables[size])
            else:
                tables[size] = _fewer(tables[size + 1], n, size)
            if progress is not None:
                progress(5 - size, COUNT_STEPS)
        self.tables = tables

    def to_bytes(self) -> tuple[bytes, ...]:
        """The counts as the user's cache keeps them: each size's in the
        narrowest unsigned integers that hold them (:func:`_stored_type`:
        a four-card set of 52 cards is held by at most 48 hands, one
        byte), the kinds a byte each."""
        return (*(t.astype(_stored_type(self.n, size)).tobytes() for size, t in enumerate(self.tables)),
                self.top.tobytes())  # fmt: skip

    @classmethod
    def from_bytes(cls, stored: object, n: int, kinds: int) -> _KindTotals | None:
        """The counts :meth:`to_bytes` kept, or None for anything else."""
        if not (isinstance(stored, tuple) and len(stored) == 6 and all(isinstance(b, bytes) for b in stored)):
            return None
        types = [_stored_type(n, size) for size in range(5)]
        sizes = [comb(n, size) * kinds * np.dtype(t).itemsize for size, t in enumerate(types)] + [comb(n, 5)]
        if [len(b) for b in stored] != sizes:
            return None
        made = cls.__new__(cls)
        made.n, made.kinds = n, kinds
        made.tables = [np.frombuffer(b, dtype=t).astype(np.int32).reshape(-1, kinds) for b, t in zip(stored, types)]
        made.top = np.frombuffer(stored[5], dtype=np.uint8)
        if int(made.tables[0].sum()) != comb(n, 5) or int(made.top.max(initial=0)) >= kinds:
            return None
        return made

    def holding(self, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Per deal (rows of ascending cards), hold mask and kind: the
        hands of that kind holding the mask's cards."""
        out = np.empty((len(cards), 32, self.kinds), dtype=np.int64)
        for mask in range(31):
            kept = HOLDS[mask]
            out[:, mask] = self.tables[len(kept)][set_numbers(cards, kept, self.n)]
        out[:, 31] = np.eye(self.kinds, dtype=np.int64)[self.top[set_numbers(cards, HOLDS[31], self.n)]]
        return out


def _stored_type(n: int, size: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned integers that hold the counts of the sets of
    ``size`` cards of a deck of ``n``: at most the ``C(n - size, 5 - size)``
    hands that hold a set."""
    most = comb(n - size, 5 - size)
    return np.uint8 if most <= 0xFF else np.uint16 if most <= 0xFFFF else np.uint32


def _dropping(sets: npt.NDArray[np.uint8], n: int) -> Iterator[npt.NDArray[np.int64]]:
    """For each place of the rows of ``sets`` (ascending positions of a
    deck of ``n``), the number of each row's set without the card there
    (:func:`~fivecard.vector.classes.set_numbers`): the cards before it
    keep their terms, those after it move one place down."""
    choose = choose_table(n)
    cards = sets.astype(np.intp)
    size = cards.shape[1]
    before = np.zeros(len(cards), dtype=np.int64)
    after = np.zeros(len(cards), dtype=np.int64)
    for place in range(1, size):
        after += choose[cards[:, place], place]
    for place in range(size):
        if place:
            after -= choose[cards[:, place], place]
        yield before + after
        before += choose[cards[:, place], place + 1]


def _fours(top: npt.NDArray[np.uint8], n: int, kinds: int) -> npt.NDArray[np.int32]:
    """The counts of the four-card sets by numpy: each hand (in number
    order, of kind ``top``) counted in each of its five four-card subsets."""
    found = np.zeros(comb(n, 4) * kinds, dtype=np.int64)
    kind = top.astype(np.int64)
    for number in _dropping(numbered_sets(n, 5), n):
        found += np.bincount(number * kinds + kind, minlength=len(found))
    return found.reshape(-1, kinds).astype(np.int32)


def _fewer(upper: npt.NDArray[np.int32], n: int, size: int) -> npt.NDArray[np.int32]:
    """The counts of the sets of ``size`` cards by numpy, from those of the
    sets of one card more (``upper``): each of those added to its subsets of
    ``size`` cards, the sums over ``5 - size``."""
    kinds = upper.shape[1]
    counts = upper.ravel().astype(np.float64)  # (bincount adds weights as floats: exact below 2**53)
    found = np.zeros(comb(n, size) * kinds, dtype=np.float64)
    for number in _dropping(numbered_sets(n, size + 1), n):
        found += np.bincount((number[:, None] * kinds + np.arange(kinds)).ravel(), counts, minlength=len(found))
    whole = found.astype(np.int64).reshape(-1, kinds)
    assert not (whole % (5 - size)).any()
    return (whole // (5 - size)).astype(np.int32)


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


@dataclass(frozen=True, slots=True)
class DealValues:
    """Every hold's exact value of one deal (:meth:`HoldValues.of`):
    ``values[mask]`` is the expected return per coin bet of keeping the
    cards of ``mask`` (bit ``i``: the ``i``-th card as dealt), at a bet of
    ``coins``; ``order`` the 32 masks best first, ties broken as
    :func:`solve_paytable` breaks them (the lower variance, then more cards
    kept)."""

    cards: tuple[Card, ...]
    coins: int
    values: tuple[Fraction, ...]
    order: tuple[int, ...]

    @property
    def best(self) -> int:
        """The best hold's mask."""
        return self.order[0]

    @property
    def best_value(self) -> Fraction:
        return self.values[self.order[0]]

    def kept(self, mask: int) -> tuple[Card, ...]:
        """The cards a mask keeps, in the order dealt."""
        return tuple(c for i, c in enumerate(self.cards) if mask >> i & 1)


class HoldValues:
    """Every hold's exact value of any one deal of a game (a pay table
    under a rule set), judged as :func:`solve_paytable` judges the classes
    of deals: the same counts of final hands per card set, and the same
    sums over the 32 holds, for the one deal asked about (well under a
    millisecond). Made by :func:`hold_values`, which keeps the counts in
    memory and in the user's cache."""

    def __init__(self, paytable: PayTable, rules: RuleSet, totals: _KindTotals) -> None:
        self.paytable = paytable
        self.rules = rules
        self._totals = totals
        self._positions, self._draws = _deck_places(rules)

    def of(self, cards: Sequence[Card], coins: int | None = None) -> DealValues:
        """The deal's 32 holds valued at a bet of ``coins`` (default: the
        most the table takes; fewer pay each line's ``below_max``, as the
        royal's 250 per coin)."""
        dealt = tuple(cards)
        bet = self.paytable.coins if coins is None else coins
        places: list[int] = []
        for card in dealt:
            free = [p for p in self._positions.get(card, []) if p not in places]
            if len(dealt) != 5 or not free:
                raise FivecardError(
                    f"a deal of five different cards of the {self.rules.name} deck, not {quote(format_cards(dealt))}"
                )
            places.append(free[0])
        order = sorted(range(5), key=lambda i: places[i])  # the deal in deck order
        row = np.array([[places[i] for i in order]], dtype=np.int64)
        made = signed_supersets(self._totals.holding(row))  # per mask (deck order), kind
        found, _, ranked = _ranked_holds(made, self.paytable.line_pays(bet).astype(np.int64), self._draws)
        as_dealt = [sum(1 << order[j] for j in HOLDS[m]) for m in range(32)]  # the same cards, as dealt
        values: list[Fraction] = [Fraction(0)] * 32
        for sorted_mask, total in enumerate(found[0].tolist()):
            values[as_dealt[sorted_mask]] = Fraction(total, int(self._draws[sorted_mask]))
        return DealValues(dealt, bet, tuple(values), tuple(as_dealt[m] for m in ranked[0].tolist()))


@functools.lru_cache(maxsize=32)
def _deck_places(rules: RuleSet) -> tuple[dict[Card, list[int]], npt.NDArray[np.int64]]:
    """Where each card of the rule set's deck lies in it (its copies'
    places), and the draws of each hold mask: made once per rule set."""
    deck = rules.deck()
    positions: dict[Card, list[int]] = {}
    for place, card in enumerate(deck):
        positions.setdefault(card, []).append(place)
    return positions, np.array([comb(len(deck) - 5, 5 - int(k)) for k in KEPT.tolist()], dtype=np.int64)


_HELD: Final = 4  # games whose counts are kept in memory (about 15-20 MB each)


def hold_values(
    paytable: PayTable, rules: str | RuleSet | None = None, *, progress: Callable[[int, int], None] | None = None
) -> HoldValues:
    """The game's :class:`HoldValues`: loaded from the user's cache
    (:mod:`fivecard.core.lookup_cache`) when it holds them, else counted
    (a fraction of a second by the compiled kernel, about a second by
    numpy: ``progress`` hears (steps done, :data:`COUNT_STEPS`)) and kept
    there; the last few games asked for stay in memory."""
    ruleset = get_rules(rules) if rules is not None else paytable.rules_to_play()
    if ruleset.low:
        raise PayTableError(f"a pay table pays high hands, but the {ruleset.name} rules rank low hands")
    paytable.check_rules(ruleset)
    if not ruleset.suits:
        raise FivecardError(f"valuing holds takes a deck of suited cards for now, not {ruleset.name}")
    return HoldValues(paytable, ruleset, _game_totals(paytable, ruleset, progress))


def _game_totals(
    paytable: PayTable, ruleset: RuleSet, progress: Callable[[int, int], None] | None = None
) -> _KindTotals:
    """The counts per card set of a game (checked: a pay table of high hands
    under rules of suited cards) that :func:`hold_values` and
    :func:`solve_paytable` work from: in memory, else loaded from the user's
    cache, else counted (``progress`` hears how far) and kept in both."""
    key = _values_key(paytable, ruleset)
    with _HELD_LOCK:  # (a web app asks from several threads: found and marked the latest at once)
        cached = _HELD_VALUES.get(key)
        if cached is not None:
            _HELD_VALUES.move_to_end(key)
        game_lock = _GAME_LOCKS.setdefault(key, threading.Lock())
    if cached is not None:
        return cached
    with game_lock:  # one thread counts a game; another asking meanwhile waits for that count
        with _HELD_LOCK:
            cached = _HELD_VALUES.get(key)
        if cached is not None:
            return cached

        def heard(done: int, steps: int) -> None:
            _COUNTING[key] = done
            if progress is not None:
                progress(done, steps)

        _COUNTING[key] = 0
        try:
            totals = _counted_kinds(paytable, ruleset, key, heard)  # (the lock of all games is not held)
        finally:
            _COUNTING.pop(key, None)
        with _HELD_LOCK:
            _HELD_VALUES[key] = totals
            while len(_HELD_VALUES) > _HELD:
                _HELD_VALUES.popitem(last=False)
    return totals


_HELD_VALUES: OrderedDict[tuple[object, ...], _KindTotals] = OrderedDict()
_HELD_LOCK: Final = threading.Lock()
#: Per game, the lock its count is made under, and how far a count under way has come (of :data:`COUNT_STEPS`).
_GAME_LOCKS: dict[tuple[object, ...], threading.Lock] = {}
_COUNTING: dict[tuple[object, ...], int] = {}


def hold_values_progress(paytable: PayTable, rules: str | RuleSet | None = None) -> int | None:
    """How far the game's values are counted now: the steps done of
    :data:`COUNT_STEPS` while :func:`hold_values` loads or counts them (0
    while it loads them from the cache), else None."""
    ruleset = get_rules(rules) if rules is not None else paytable.rules_to_play()
    return _COUNTING.get(_values_key(paytable, ruleset))


#: The steps a game's count is made in (a size of card sets each), which ``progress`` hears.
COUNT_STEPS: Final = 5


def hold_values_held(paytable: PayTable, rules: str | RuleSet | None = None) -> bool:
    """Whether :func:`hold_values` of the game is in memory now (so it
    costs nothing: no counting, no loading)."""
    ruleset = get_rules(rules) if rules is not None else paytable.rules_to_play()
    return _values_key(paytable, ruleset) in _HELD_VALUES


@functools.lru_cache(maxsize=256)
def _values_key(paytable: PayTable, ruleset: RuleSet) -> tuple[object, ...]:
    return (paytable.kinds_key(), ruleset.name, tuple(c.index for c in ruleset.deck()), tuple(sorted(ruleset.wild_indices)))


def _counted_kinds(
    paytable: PayTable, ruleset: RuleSet, key: tuple[object, ...], progress: Callable[[int, int], None] | None
) -> _KindTotals:
    from ..core import lookup_cache

    deck = ruleset.deck()
    n = len(deck)
    cache_key = ("pay kinds", *key, lookup_cache.module_digest(__file__), kernel.digest("fivecard.play._solver"))
    kinds = len(paytable.final_names())  # each line's, and nothing
    found = _KindTotals.from_bytes(lookup_cache.load(f"{ruleset.name}-pay-kinds", cache_key), n, kinds)
    if found is not None:
        return found
    totals = _KindTotals(_hand_kinds(paytable, ruleset), n, kinds, progress)
    lookup_cache.store(f"{ruleset.name}-pay-kinds", cache_key, totals.to_bytes())
    return totals


def _hand_kinds(paytable: PayTable, ruleset: RuleSet) -> npt.NDArray[np.integer[Any]]:
    """The kind of every hand of the rule set's deck, in number order
    (:func:`~fivecard.vector.classes.numbered_sets`): the line of the table
    that pays it, or nothing (:meth:`~fivecard.play.paytables.PayTable.final_entries`).
    By the compiled kernel, the hands walked one card at a time with their
    codes summed (the evaluator's lookup index, from its tables); else by
    numpy, every hand made, scored and sorted."""
    deck = ruleset.deck()
    compiled = kernel.load("fivecard.play._solver")
    if compiled is None:
        hands = np.array([c.index for c in deck], dtype=np.int32)[numbered_sets(len(deck), 5)]
        return paytable.final_entries(ruleset, hands, batch.strengths_of_indices(hands, rules=ruleset))[1]
    from ..core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, tables_for

    codes = codes_for(ruleset)
    entry = paytable.entry_table(ruleset)
    kind = np.empty(comb(len(deck), 5), dtype=np.uint8)
    compiled.kinds(
        np.array([codes[c.index] for c in deck], dtype=np.int32),
        np.array([c.index in ruleset.wild_indices for c in deck], dtype=np.uint8),
        np.frombuffer(tables_for(ruleset).lookup, dtype=np.uint16), SUIT_SHIFT, SUIT_MASK, KEY_SPACE,
        np.ascontiguousarray(entry, dtype=np.uint8), entry.shape[1], kind,
    )
    return kind
