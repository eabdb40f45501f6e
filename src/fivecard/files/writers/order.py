"""The order a hand's cards are shown in: sorted, or in showdown order
(groups first, a group's cards in sorted order, the wheel's ace last), for
whole chunks at once.

Guarantees: the showdown order is the single-hand path's
(:func:`fivecard.core.evaluate.evaluate`'s ``cards``): where each rank
stands is read from the class's ranks in showdown order
(:func:`~fivecard.vector.columns.rank_places`), and a wild card stands
where the card it became goes (:class:`~fivecard.vector.wild.WildCases`,
which settles each distinct case with the single-hand rule).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ...core.cards import CARDS
from ...vector import batch
from ...vector.columns import rank_places
from ...vector.wild import WildCases, wild_cases
from ..pipeline import Chunk

__all__ = ["sort_order", "showdown_order", "showdown_places", "Wild", "wild"]


#: Per card index: its rank's place (ace 0 ... two 12; a joker 13), and its
#: suit's (spades 0 ... clubs 3; none 4; a joker 0).
_RANK_PLACE: Final = np.array([13 if c.rank is None else 14 - c.rank for c in CARDS], dtype=np.int32)
_SUIT_PLACE: Final = np.array(
    [0 if c.rank is None else 4 if c.suit is None else c.suit.order for c in CARDS], dtype=np.int32
)


def sort_order(indices: npt.NDArray[np.int32]) -> npt.NDArray[np.int64]:
    """Per hand (card indices), the positions of its cards in sorted order."""
    return batch.row_order(indices)


def _positions(chunk: Chunk) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Per card of each hand: its position in showdown order (a group's
    first), and its suit's place."""
    rank_place, suit_place = _RANK_PLACE[chunk.indices], _SUIT_PLACE[chunk.indices]
    position = rank_places(chunk.rules)[chunk.strength[:, None], np.clip(rank_place, 0, 12)]
    return position, suit_place


def showdown_order(chunk: Chunk) -> npt.NDArray[np.int64]:
    """Per hand, the positions of its cards in showdown order: a group's
    cards in sorted order (a wild card where the card it became goes, see
    :class:`~fivecard.vector.wild.WildCases`)."""
    position, suit_place = _positions(chunk)
    order = batch.row_order(position * 8 + suit_place)
    found = wild(chunk)
    if found is not None:
        order[found.rows] = found.shown
    return order


def showdown_places(chunk: Chunk) -> npt.NDArray[np.int32]:
    """Per hand, the indices of its cards in showdown order (see
    :func:`showdown_order`), by one sort of packed numbers."""
    small = chunk.indices
    position, suit_place = _positions(chunk)
    packed = batch.sort_rows(((position * 8 + suit_place) << 8 | small).astype(np.int32))
    result: npt.NDArray[np.int32] = packed & 0xFF
    found = wild(chunk)
    if found is not None:
        result[found.rows] = np.take_along_axis(small[found.rows], found.shown, axis=1)
    return result


class Wild:
    """The hands of a chunk that hold a wild card: their indices (``rows``),
    the numbers of their cases (what the wild cards became, see
    :class:`~fivecard.vector.wild.WildCases`) and the positions of their cards
    in showdown order (``shown``)."""

    __slots__ = ("rows", "numbers", "shown", "cases")

    def __init__(self, chunk: Chunk) -> None:
        self.cases: WildCases = wild_cases(chunk.rules)
        self.rows = np.flatnonzero(~chunk.natural)
        self.numbers, self.shown = self.cases.numbers(chunk.indices[self.rows], chunk.strength[self.rows])


def wild(chunk: Chunk) -> Wild | None:
    """The chunk's hands that hold a wild card (made once per chunk), or
    None when there are none."""
    if not chunk.rules.wild_indices:
        return None
    made = chunk.prepared.get("wild")
    if made is None:
        made = chunk.prepared["wild"] = Wild(chunk)
    return made if len(made.rows) else None
