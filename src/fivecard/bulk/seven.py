"""The best five of six or seven cards, for many hands at once (numpy).

The same strengths and the same choice of five as the single-hand path
(:mod:`fivecard.core.seven`): the best strength among the row's fives, and
among the fives of that strength the one whose cards, sorted, come first in
sorted order.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..core.rules import RuleSet, get_rules
from ..core.seven import FIVES
from ..errors import FivecardError
from . import batch

__all__ = ["best_strengths", "best_positions"]


def _codes(codes: npt.ArrayLike) -> npt.NDArray[np.int32]:
    array = np.asarray(codes)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise FivecardError(
            f"expected an (N, 5), (N, 6) or (N, 7) array of card codes, got shape {array.shape}"
        )
    return array.astype(np.int32)


def _per_five(codes: npt.NDArray[np.int32], rules: RuleSet) -> npt.NDArray[np.uint16]:
    """An ``(N, F)`` array: the strength of each five of each row."""
    fives = FIVES[codes.shape[1]]
    out = np.empty((len(codes), len(fives)), dtype=np.uint16)
    for i, five in enumerate(fives):
        out[:, i] = batch.strengths_of_codes(codes[:, list(five)], rules=rules)
    return out


def best_strengths(codes: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.uint16]:
    """The strength of the best five of each row of an ``(N, k)`` array of
    card codes, k = 5, 6 or 7 (0 for a row that is no valid hand)."""
    array = _codes(codes)
    per_five = _per_five(array, get_rules(rules))
    result: npt.NDArray[np.uint16] = per_five.max(axis=1)
    result[per_five.min(axis=1) == 0] = 0  # a row that is no valid hand
    return result


def best_positions(codes: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.uint8]:
    """For each row of an ``(N, k)`` array of card codes (k = 5, 6 or 7), the
    positions (ascending) of the five that play: the best, and among equals
    the five whose cards sorted come first in sorted order."""
    array = _codes(codes)
    fives = FIVES[array.shape[1]]
    per_five = _per_five(array, get_rules(rules)).astype(np.int64)
    places = batch.sort_keys(array).astype(np.int64)
    score = np.empty_like(per_five)
    for i, five in enumerate(fives):
        ordered = batch.sort_rows(places[:, list(five)])
        packed = np.zeros(len(array), dtype=np.int64)
        for column in range(5):
            packed = packed << 7 | ordered[:, column]
        score[:, i] = per_five[:, i] << 35 | ((1 << 35) - 1 - packed)
    table = np.array(fives, dtype=np.uint8)
    chosen: npt.NDArray[np.uint8] = table[score.argmax(axis=1)]
    return chosen
