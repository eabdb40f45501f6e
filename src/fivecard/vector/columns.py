"""Core's columns of a rule set's classes (:mod:`fivecard.core.columns`)
as numpy arrays indexed by strength, made once per rule set and read-only:
what the bulk pipeline compares and the writers show, read from the one
statement of the facts, never decoded again from the lookup tables.

>>> from fivecard.core.rules import STANDARD
>>> arrays = class_arrays(STANDARD)
>>> arrays.category[[0, 1, 7462]].tolist(), arrays.score[[0, 1, 7462]].tolist()
([-1, 0, 9], [0, 1, 10])
>>> hex(int(arrays.key[7462])), rank_places(STANDARD)[7462, :5].tolist()  # A K Q J 10
('0xe0000', [0, 1, 2, 3, 4])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ..core.columns import class_columns
from ..core.rules import RuleSet

__all__ = ["ClassArrays", "class_arrays", "rank_places", "NO_PLACE"]

#: :func:`rank_places` of a rank a class does not hold.
NO_PLACE = 9


@dataclass(frozen=True, slots=True)
class ClassArrays:
    """Per strength (0: no hand), as arrays:

    ``category``: the ladder index (-1 for strength 0); ``score``: the
    category's score (0 for strength 0); ``key``: the ranks showdowns
    compare, four bits a rank, the first highest (``key[0] << 16 | key[1]
    << 12 ...``); ``names_first``, ``names_second``: whether the key's first
    and second rank name a group of two or more cards (so that a later step
    says "both Two Pair of Kings and ...").
    """

    category: npt.NDArray[np.int8]
    score: npt.NDArray[np.int16]
    key: npt.NDArray[np.int32]
    names_first: npt.NDArray[np.bool_]
    names_second: npt.NDArray[np.bool_]


@cache
def class_arrays(rules: RuleSet) -> ClassArrays:
    """The arrays of a rule set's classes (made once per process)."""
    columns = class_columns(rules)
    category = np.frombuffer(columns.category_index, dtype=np.int8)
    index = category.astype(np.int64)  # -1 for strength 0: the last entry of a per-category table
    order = np.frombuffer(columns.order, dtype=np.uint8).reshape(-1, 5).astype(np.int32)
    scores = np.array([rules.score(c) for c in rules.ladder] + [0], dtype=np.int16)
    named = np.array([*columns.named, 0], dtype=np.int8)[index]
    key = np.zeros(len(category), dtype=np.int32)
    for ladder_index, places in enumerate(columns.key_places):
        rows = np.flatnonzero(category == ladder_index)
        for i, place in enumerate(places):
            key[rows] |= order[rows, place] << (16 - 4 * i)
    arrays = ClassArrays(
        category=category,
        score=scores[index],
        key=key,
        names_first=named >= 1,
        names_second=named >= 2,
    )
    for array in (arrays.score, arrays.key, arrays.names_first, arrays.names_second):
        array.flags.writeable = False
    return arrays


@cache
def rank_places(rules: RuleSet) -> npt.NDArray[np.int64]:
    """Per strength and rank place (ace 0, king 1 ... two 12, a joker 13),
    where that rank's cards stand in showdown order (a group's first
    position; :data:`NO_PLACE` for a rank the class does not hold), for
    showing cards in showdown order. Made when first asked for, apart from
    :func:`class_arrays`: only the writers that show that order read it."""
    order = np.frombuffer(class_columns(rules).order, dtype=np.uint8).reshape(-1, 5).astype(np.int64)
    places = np.full((len(order), 14), NO_PLACE, dtype=np.int64)
    strengths = np.arange(1, len(order))
    for position in range(4, -1, -1):  # a group's rank: its first position
        places[strengths, 14 - order[1:, position]] = position
    places.flags.writeable = False
    return places
