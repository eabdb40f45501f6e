"""What the wild cards of many hands became, and where their cards stand in
showdown order, for the bulk writers: the single-hand rules
(:func:`fivecard.core.evaluate.wild_cards_made` and
:func:`fivecard.core.evaluate.showdown_places`, which :func:`evaluate` calls
for its hand) called once per distinct case, not once per hand.

What a hand's wild cards become depends only on what ``wild_cards_made``
reads of it: the ranks they stand for (the substitutes of its lookup index,
:attr:`fivecard.core.lookup.Tables.substitutes`), the suit of its naturals
when its class is a flush, and which natural cards of those ranks it holds.
Where its cards stand in showdown order depends only on what
``showdown_places`` reads: its class, the ranks of its sorted cards (a wild
card as wild) and the substitutes, all fixed by its lookup index and which
of its sorted cards are wild. Each is packed into one integer per hand with
array arithmetic; a case met for the first time is settled by the rule on
the first hand that has it, and every case is kept (per rule set and
process: a few thousand) to be found again by one sorted search.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from ..core.cards import CARDS, Card
from ..core.evaluate import showdown_places, wild_cards_made
from ..core.rules import RuleSet
from ..core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, tables_for
from . import batch

__all__ = ["WildCases", "wild_cases"]

I64 = npt.NDArray[np.int64]
_V = TypeVar("_V")


class _Memo(Generic[_V]):
    """Values of integer keys, each made once (by ``make`` of the first row
    that has the key); the keys met are found by one sorted search, and the
    values are numbered in the order they were made (:attr:`values`, which
    only grows)."""

    def __init__(self) -> None:
        self.values: list[_V] = []
        self._keys = np.zeros(0, dtype=np.int64)  # sorted
        self._numbers = np.zeros(0, dtype=np.int64)

    def _find(self, keys: I64) -> I64:
        found = np.full(len(keys), -1, dtype=np.int64)
        if len(self._keys):
            at = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
            hit = self._keys[at] == keys
            found[hit] = self._numbers[at[hit]]
        return found

    def numbers(self, keys: I64, make: Callable[[int], _V]) -> I64:
        """The number of each key's value; a key not met before gets the
        value ``make`` gives for the first row that has it."""
        found = self._find(keys)
        missing = np.flatnonzero(found < 0)
        if len(missing):
            new, first = np.unique(keys[missing], return_index=True)
            start = len(self.values)
            self.values.extend(make(row) for row in missing[first].tolist())
            every = np.concatenate([self._keys, new])
            order = np.argsort(every, kind="stable")
            self._keys = every[order]
            self._numbers = np.concatenate([self._numbers, np.arange(start, len(self.values))])[order]
            found[missing] = self._find(keys[missing])
        return found


class WildCases:
    """The cases of a rule set with wild cards: per hand holding one, what
    its wild cards became (:meth:`numbers`: numbers into :attr:`values`)
    and where its cards stand in showdown order."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        tables = tables_for(rules)
        self._tables = tables
        # per card index: whether the card is wild, what the table reads of
        # it (a wild card as the joker), and its bit among the natural cards
        # (its index: rank place * 4 + suit place)
        self._wild = np.array([rules.is_wild(c) for c in CARDS], dtype=bool)
        looked = codes_for(rules)
        self._weight = np.array([c >> SUIT_SHIFT for c in looked], dtype=np.int64)
        self._suit = np.array([c & SUIT_MASK for c in looked], dtype=np.int64)
        self._bit = np.array(
            [0 if w or c.suit is None else 1 << i for i, (c, w) in enumerate(zip(CARDS, self._wild))],
            dtype=np.int64,
        )
        # the lookup indices of hands with wild cards, numbered (a slot
        # each: lookup index -> slot + 1, 0 for none; the zeros between take
        # no memory), and per slot the places of its substitutes' ranks (ace
        # 0 ... two 12), four bits each, +1 (0: none)
        indices = sorted(tables.substitutes)
        self._slot = np.zeros(2 * KEY_SPACE, dtype=np.int32)
        self._slot[indices] = np.arange(1, len(indices) + 1)
        self._sub_places = np.array(
            [sum((15 - r) << (4 * j) for j, r in enumerate(tables.substitutes[i])) for i in indices],
            dtype=np.int64,
        )
        self._most = max((len(v) for v in tables.substitutes.values()), default=0)
        flush = np.array([c.flush for c in rules.ladder] + [False], dtype=bool)
        self._flush = flush[batch.category_table(rules)]  # per strength (0: none, index -1)
        self._made: _Memo[tuple[Card, ...]] = _Memo()
        # per slot and which sorted cards are wild: the number of its places, -1 for none yet
        self._place_numbers = np.full(len(indices) << 5, -1, dtype=np.int64)
        self._places: list[tuple[int, ...]] = []
        self._place_rows = np.zeros((0, 5), dtype=np.int64)  # the places as an array
        self._lock = threading.Lock()  # a reading thread and a writing thread may both ask

    @property
    def values(self) -> list[tuple[Card, ...]]:
        """What wild cards became, by the numbers :meth:`numbers` gives."""
        return self._made.values

    def numbers(self, indices: npt.NDArray[np.int32], strength: I64) -> tuple[I64, I64]:
        """Per hand (each holding a wild card): the number of what its wild
        cards became (see :attr:`values`), and the positions of its cards in
        showdown order.

        What wild cards become is fixed by the ranks they stand for (the
        substitutes of the hand's lookup index), the suit of a flush and
        which natural cards of those ranks the hand holds: what
        :func:`wild_cards_made` reads. The showdown order is fixed by the
        lookup index (the class, the substitutes and the ranks of the
        naturals) and which of the sorted cards are wild: what
        :func:`showdown_places` reads."""
        packed = batch.sort_rows(indices.astype(np.int32) << 3 | np.arange(5, dtype=np.int32))
        order = (packed & 7).astype(np.int64)  # the hand's positions in sorted order
        places = packed >> 3  # the sorted cards' indices
        c = [places[:, j] for j in range(5)]
        weight, suit, wild, bit = self._weight, self._suit, self._wild, self._bit
        index = weight[c[0]] + weight[c[1]] + weight[c[2]] + weight[c[3]] + weight[c[4]]
        both = suit[c[0]] & suit[c[1]] & suit[c[2]] & suit[c[3]] & suit[c[4]]
        index += np.where(both > 0, KEY_SPACE, 0)
        at = self._slot[index].astype(np.int64) - 1
        if len(at) and int(at.min()) < 0:
            raise AssertionError("a hand without wild cards")  # pragma: no cover
        subs = self._sub_places[at]
        made_key = subs << 24 | np.where(self._flush[strength], both, 0) << 20
        if self._most:
            held = bit[c[0]] | bit[c[1]] | bit[c[2]] | bit[c[3]] | bit[c[4]]
            for j in range(self._most):  # the natural cards held of each substitute's rank
                place = (subs >> (4 * j)) & 15  # the rank's place + 1, or 0: none
                made_key |= np.where(place > 0, (held >> (4 * np.maximum(place - 1, 0))) & 15, 0) << (4 * j)
        wilds = wild[c[0]] | wild[c[1]] << 1 | wild[c[2]] << 2 | wild[c[3]] << 3 | wild[c[4]] << 4
        place_key = at << 5 | wilds

        def made(row: int) -> tuple[Card, ...]:
            return self._settle_made(indices[row], int(index[row]), int(strength[row]))

        with self._lock:
            numbers = self._made.numbers(made_key, made)
            found = self._place_numbers[place_key]
            missing = np.flatnonzero(found < 0)
            if len(missing):
                for row in missing[batch.first_of_each(place_key[missing])].tolist():
                    self._place_numbers[place_key[row]] = len(self._places)
                    self._places.append(self._settle_places(places[row], int(index[row]), int(strength[row])))
                new = np.array(self._places[len(self._place_rows) :], dtype=np.int64).reshape(-1, 5)
                self._place_rows = np.concatenate([self._place_rows, new])
                found = self._place_numbers[place_key]
            rows = self._place_rows
        result: I64 = np.take_along_axis(order, rows[found], axis=1)
        return numbers, result

    def _settle_made(self, indices: npt.NDArray[np.int32], index: int, strength: int) -> tuple[Card, ...]:
        """What the wild cards of one hand became, by the single-hand rule."""
        naturals = [c for c in (CARDS[i] for i in indices.tolist()) if not self.rules.is_wild(c)]
        flush_suit = naturals[0].suit if self._tables.hand_class(strength).category.flush else None
        return wild_cards_made(self._tables.substitutes[index], frozenset(naturals), flush_suit, suits=self.rules.suits)

    def _settle_places(self, places: npt.NDArray[np.int32], index: int, strength: int) -> tuple[int, ...]:
        """Where the sorted cards of one hand go in showdown order, by the
        single-hand rule (wild cards become the substitutes' ranks)."""
        cards = [CARDS[i] for i in places.tolist()]
        ranks = [None if self.rules.is_wild(c) else c.rank for c in cards]
        return showdown_places(ranks, self._tables.hand_class(strength).order, self._tables.substitutes[index])


@cache
def wild_cases(rules: RuleSet) -> WildCases:
    """The cases of a rule set with wild cards (one per process)."""
    return WildCases(rules)
