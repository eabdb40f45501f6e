"""Pieces of output made once per distinct value and reused: per strength
(from the class's facts, :mod:`fivecard.core.columns`), per outcome of the
run's register, per case of what wild cards became.

Guarantees: a piece is made the first time its value is met and never
again in the process (per writer; per rule set and layout for the shared
wild pieces); a column of values becomes a column of pieces by one gather.
A strength with no class is an :class:`IndexError` (as
:meth:`~fivecard.core.columns.ClassColumns.category` says), never a piece.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...core.cards import Card
from ...core.columns import ClassColumns, class_columns
from ...core.rules import RuleSet
from ...core.showdown import Outcome
from ...vector import batch
from ..pipeline import Chunk

if TYPE_CHECKING:
    from .order import Wild

__all__ = ["PerStrength", "PerOutcome", "PerCase", "OutcomeTexts"]

Objects = npt.NDArray[np.object_]
I64 = npt.NDArray[np.int64]


class PerStrength:
    """A piece made from a strength (with the rule set's
    :class:`~fivecard.core.columns.ClassColumns` at hand, :attr:`columns`)
    the first time it is met."""

    def __init__(self, rules: RuleSet, make: Callable[[int], Any]) -> None:
        self.columns: ClassColumns = class_columns(rules)
        self.make = make
        self.table: Objects = np.full(self.columns.size + 1, None, dtype=object)
        self.made = np.zeros(len(self.table), dtype=bool)

    def piece(self, strength: int) -> Any:
        """The piece of one strength."""
        if not self.made[strength]:
            self.table[strength] = self.make(strength)
            self.made[strength] = True
        return self.table[strength]

    def __call__(self, strengths: I64) -> Objects:
        table = self.table
        missing = ~self.made[strengths]
        if missing.any():
            for strength in batch.distinct(strengths[missing]).tolist():
                table[strength] = self.make(strength)
                self.made[strength] = True
        result: Objects = table[strengths]
        return result


class PerOutcome:
    """A piece made from an outcome the first time it is met (per register
    of outcomes: chunks share theirs, see :class:`~fivecard.files.pipeline.Chunk`)."""

    def __init__(self, make: Callable[[Outcome], Any], none: Any) -> None:
        self.make = make
        self.none = none
        self.source: list[Outcome] | None = None
        self.made: Objects = np.empty(0, dtype=object)

    def __call__(self, chunk: Chunk) -> Objects:
        if chunk.outcomes is not self.source:
            self.source = chunk.outcomes
            self.made = np.empty(0, dtype=object)
        have = len(self.made) - 1
        known = len(chunk.outcomes)  # once: the reading thread may add more meanwhile
        if have < known:
            made = np.empty(known + 1, dtype=object)
            made[: max(have, 0)] = self.made[: max(have, 0)]
            for i in range(max(have, 0), known):
                made[i] = self.make(chunk.outcomes[i])
            made[-1] = self.none  # index -1: no outcome
            self.made = made
        result: Objects = self.made[chunk.outcome]
        return result


class PerCase:
    """A piece made from what a wild hand's wild cards became (see
    :class:`~fivecard.vector.wild.WildCases`), the first time it is met."""

    def __init__(self, make: Callable[[tuple[Card, ...]], bytes]) -> None:
        self.make = make
        self.table: Objects = np.empty(0, dtype=object)
        self.made = np.zeros(0, dtype=bool)
        self.lock = threading.Lock()  # shared by the writers of a process (the table grows)

    def __call__(self, wild: Wild) -> Objects:
        """The pieces of the wild hands."""
        numbers = wild.numbers
        top = int(numbers.max(initial=-1)) + 1
        with self.lock:
            if len(self.table) < top:
                grown = np.empty(top, dtype=object)
                grown[: len(self.table)] = self.table
                self.table = grown
                self.made = np.concatenate([self.made, np.zeros(top - len(self.made), dtype=bool)])
            missing = numbers[~self.made[numbers]]
            if len(missing):
                values = wild.cases.values
                for number in batch.distinct(missing).tolist():
                    self.table[number] = self.make(values[number])
                    self.made[number] = True
            result: Objects = self.table[numbers]
        return result


class OutcomeTexts:
    """The texts of the run's outcomes (a dictionary's values), made once
    each as the register of outcomes grows."""

    def __init__(self, make: Callable[[Outcome], str]) -> None:
        self.make = make
        self.source: list[Outcome] | None = None
        self.texts: list[str] = []
        self.column: Any = None

    def __call__(self, chunk: Chunk, used: int) -> list[str]:
        """The texts of the first ``used`` outcomes of the chunk's register."""
        if chunk.outcomes is not self.source:
            self.source, self.texts, self.column = chunk.outcomes, [], None
        self.texts.extend(self.make(o) for o in chunk.outcomes[len(self.texts) : used])
        return self.texts[:used]

    def arrow(self, pa: Any, chunk: Chunk, used: int) -> Any:
        """The texts of at least the first ``used`` outcomes as an Arrow
        string array (a dictionary's values), made again only when the
        register has grown past it."""
        if chunk.outcomes is not self.source or self.column is None or len(self.column) < max(used, 1):
            texts = self(chunk, max(used, len(chunk.outcomes)))
            self.column = pa.array(texts or [""], pa.string())
        return self.column
