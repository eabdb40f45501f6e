"""Starting hands that play alike: the deals of a deck grouped into classes,
so that a solver works each class once and weighs it by its deals.

Two deals are alike when one becomes the other by

* renaming the suits (any of the 24 renamings that keeps the deck and the
  rule set's wild cards as they are: all 24 for a standard deck, deuces
  wild or a deck with jokers, whose jokers have no suit to rename; the 4
  that keep J♠ and J♥ together under one-eyed jacks), or
* swapping cards the rules cannot tell apart (the four aces of ``semi``,
  whose suits are hidden; the two jokers).

Over the 2,598,960 deals of 52 cards that makes 134,459 classes; ``semi``
has 6,175 (the rank multisets). Cards are deck positions (places in
``deck``: not the cards' indices, for a deck may hold a card more than
once, as ``semi``'s holds each rank alone four times), and a class is named
by its first deal in deck order (the smallest, read as five ascending
positions).

Also here, what the solvers share about a deal's 32 holds: :data:`HOLDS`
(the cards each mask keeps) and :func:`signed_supersets`, the
inclusion-exclusion step from "hands holding these cards" to "hands holding
these cards and none of the others".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations
from math import comb
from typing import Any, Final, TypeVar


import numpy as np
import numpy.typing as npt

from . import batch
from ..core import lookup_cache
from ..core.cards import Card, Suit
from ..core.rules import RuleSet

__all__ = [
    "DealClasses",
    "deal_classes",
    "HOLDS",
    "KEPT",
    "signed_supersets",
    "mean_over_deals",
    "choose_table",
    "set_numbers",
    "numbered_sets",
]

_BITS = 6  # bits a deck position takes in a packed deal (decks of at most 64 cards)

#: Hold masks 0-31: bit ``i`` keeps the ``i``-th card of the deal (its
#: cards in deck order); the positions each mask keeps.
HOLDS: Final = tuple(tuple(i for i in range(5) if m >> i & 1) for m in range(32))
#: How many cards each mask keeps.
KEPT: Final = np.array([len(h) for h in HOLDS], dtype=np.int64)

_Counts = TypeVar("_Counts", bound=np.ndarray[Any, Any])


def signed_supersets(found: _Counts) -> _Counts:
    """In place, per row (axis 1 is the 32 masks), each mask's count
    becomes the signed sum of the counts of its supersets among the 32: from
    the hands that hold a mask's cards to those that hold them and none of
    the deal's other cards (inclusion-exclusion, five steps: each the masks
    without a bit less those with it, as one subtraction of halves)."""
    rows, rest = found.shape[0], found.shape[2:]
    for place in range(5):
        halves = found.reshape(rows, 16 >> place, 2, 1 << place, *rest)  # axis 2: the bit
        if not np.shares_memory(halves, found):  # (not C-contiguous: reshaped as a copy)
            for mask in range(32):
                if not mask >> place & 1:
                    found[:, mask] -= found[:, mask | 1 << place]
            continue
        halves[:, :, 0] -= halves[:, :, 1]
    return found


@dataclass(frozen=True, slots=True)
class DealClasses:
    """``first``: each class's first deal (rows of five ascending deck
    indices), in ascending order; ``deals``: how many deals each holds
    (they add up to every deal of the deck)."""

    first: npt.NDArray[np.int64]
    deals: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.deals)

    @property
    def total(self) -> int:
        """Every deal of the deck: the classes' deals added up."""
        return int(self.deals.sum())


def deal_classes(deck: Sequence[Card], rules: RuleSet) -> DealClasses:
    """The classes of the five-card deals of ``deck`` under ``rules``: kept
    in the user's cache (:mod:`fivecard.core.lookup_cache`) once found, as
    the lookup tables are, so that a later solve loads them."""
    if len(deck) > 1 << _BITS:
        raise ValueError(f"a deck of at most {1 << _BITS} cards, not {len(deck)}")
    key = ("deal classes", tuple(c.index for c in deck), tuple(sorted(rules.wild_indices)), lookup_cache.module_digest(__file__))
    stored = lookup_cache.load(f"{rules.name}-classes", key)
    if isinstance(stored, tuple) and len(stored) == 2 and all(isinstance(part, bytes) for part in stored):
        if len(stored[0]) % 5 == 0 and len(stored[1]) == len(stored[0]) // 5 * 8:
            first = np.frombuffer(stored[0], dtype=np.uint8).reshape(-1, 5).astype(np.int64)
            deals = np.frombuffer(stored[1], dtype=np.int64)
            if int(deals.sum()) == comb(len(deck), 5):
                return DealClasses(first, deals)
    found = _deal_classes(deck, rules)
    # (positions of at most 64 cards: a byte each)
    lookup_cache.store(f"{rules.name}-classes", key, (found.first.astype(np.uint8).tobytes(), found.deals.tobytes()))
    return found


def _deal_classes(deck: Sequence[Card], rules: RuleSet) -> DealClasses:
    deals = batch.combinations(len(deck))  # uint8
    repeats = len(set(deck)) < len(deck)
    renamings = _renamings(deck, rules)
    if len(renamings) == 24 and all(c.suit is not None for c in deck if not c.is_joker):
        return _classes_by_suit_shape(deck, deals)
    return _classes_by_renamings(deck, deals, renamings, repeats)


def _classes_by_renamings(
    deck: Sequence[Card], deals: npt.NDArray[np.uint8], renamings: list[npt.NDArray[np.int64]], repeats: bool
) -> DealClasses:
    """The classes by trying each renaming on every deal: a deal's class is
    named by the smallest deal a renaming makes of it."""
    keys = None
    for renaming in renamings:
        moved = batch.sort_rows(renaming.astype(np.uint8)[deals])
        found = _packed(_spread(moved) if repeats else moved)
        keys = found if keys is None else np.minimum(keys, found)
    assert keys is not None  # the identity is always a renaming
    first, counts = np.unique(keys, return_counts=True)
    return DealClasses(_unpacked(first), counts.astype(np.int64))


def _classes_by_suit_shape(deck: Sequence[Card], deals: npt.NDArray[np.uint8]) -> DealClasses:
    """The classes when every suit renaming is allowed (and the jokers,
    if any, are alike): two deals are alike when their four suits hold the
    same sets of ranks in some order and the same number of jokers.

    The deck lies in order of rank, highest first, and within a rank in the
    order of the suits, so a class's first deal (its smallest, read as
    ascending positions) gives the suits in turn its rank sets from the
    largest to the smallest (read as numbers, whose highest bit is the
    highest rank: the deal holding the highest ranks in the first suits)
    and holds the first of the deck's jokers. Those deals are picked out in
    one pass, in deck order; each class holds a deal per order of its rank
    sets over the suits (24 over the orders of equal sets) and per choice
    of its jokers among the deck's. The same classes, named the same, as
    trying all 24 renamings, in a fraction of the time."""
    suits = list(Suit)
    jokers = [place for place, c in enumerate(deck) if c.suit is None]
    if len(jokers) > 3 or any(c.rank is not None and int(c.rank) >= 15 for c in deck):
        raise ValueError("a deck of at most three jokers and ranks below 15")
    # a card as one bit: its rank's in its suit's field of 15 bits; a joker's past the four fields
    packed = np.array(
        [1 << int(c.rank) + 15 * suits.index(c.suit) if c.suit is not None and c.rank is not None else 0 for c in deck],
        dtype=np.int64,
    )
    packed[jokers] = [1 << 60 + i for i in range(len(jokers))]
    held = packed[deals[:, 0]]
    for column in range(1, 5):
        held += packed[deals[:, column]]  # (distinct cards: distinct bits)
    field = (1 << 15) - 1
    a, b, c, d = (held >> 15 * suit & field for suit in range(4))
    wild = held >> 60  # the jokers held, a bit each
    first = (a >= b) & (b >= c) & (c >= d) & (wild & (wild + 1) == 0)  # the first jokers of the deck
    a, b, c, d, wild = a[first], b[first], c[first], d[first], wild[first]
    same = (a == b).astype(np.int64) | (b == c) << 1 | (c == d) << 2
    orders = np.array([24, 12, 12, 4, 12, 6, 4, 1], dtype=np.int64)[same]  # the orders of the rank sets over the suits
    held_jokers = np.array([bin(x).count("1") for x in range(8)], dtype=np.int64)[wild]
    choices = np.array([comb(len(jokers), j) for j in range(4)], dtype=np.int64)[held_jokers]
    return DealClasses(deals[first].astype(np.int64), orders * choices)


def _renamings(deck: Sequence[Card], rules: RuleSet) -> list[npt.NDArray[np.int64]]:
    """Each suit renaming that keeps the deck and its wild cards, as a map of
    deck positions (identical cards map to the first of them); the identity
    first, each map once."""
    first: dict[Card, int] = {}
    for place, card in enumerate(deck):
        if card in first and deck[place - 1] != card:
            raise ValueError(f"the copies of {card} in the deck must lie together")
        first.setdefault(card, place)
    wild = {c for c in deck if c in rules.wild}
    suits = list(Suit)
    maps: list[npt.NDArray[np.int64]] = []
    seen: set[bytes] = set()
    for order in permutations(suits):
        rename = dict(zip(suits, order))
        moved = [c if c.suit is None else Card(c.rank, rename[c.suit]) for c in deck]
        if any(c not in first for c in moved):
            continue
        if {moved[i] for i in range(len(deck)) if deck[i] in wild} != wild:
            continue
        mapped = np.array([first[c] for c in moved], dtype=np.int64)
        if mapped.tobytes() not in seen:
            seen.add(mapped.tobytes())
            maps.append(mapped)
    return maps


def _spread(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Sorted rows of deck positions (identical cards at the first position
    of their card) made deals again: the second, third... copy of a card
    moved to the next position holding that card."""
    offset = np.zeros_like(rows)
    for column in range(1, rows.shape[1]):
        same = rows[:, column] == rows[:, column - 1]
        offset[:, column] = np.where(same, offset[:, column - 1] + 1, 0)
    return rows + offset


def _packed(deals: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Ascending deck positions as one number, the first most significant."""
    out = np.zeros(len(deals), dtype=np.int64)
    for column in range(deals.shape[1]):
        out <<= _BITS
        out |= deals[:, column]
    return out


def _unpacked(packed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    out = np.empty((len(packed), 5), dtype=np.int64)
    for column in range(5):
        out[:, 4 - column] = packed >> (_BITS * column) & ((1 << _BITS) - 1)
    return out


def mean_over_deals(by_kept: Sequence[int], deck_size: int, per_draw: int = 1) -> Fraction:
    """The mean over every deal of a deck of ``deck_size`` cards, exactly,
    of a count summed over the draws of the chosen holds: ``by_kept[k]``
    sums the counts of the deals whose hold keeps ``k`` cards, each over
    its ``C(n - 5, 5 - k)`` draws (times ``per_draw``: the dealer hands
    each draw meets)."""
    n = deck_size
    total = sum((Fraction(int(by_kept[k]), comb(n - 5, 5 - k) * per_draw) for k in range(6)), Fraction(0))
    return total / comb(n, 5)


@cache
def choose_table(n: int) -> npt.NDArray[np.int64]:
    """``C(x, j)`` for x up to ``n`` and j up to 5."""
    return np.array([[comb(x, j) for j in range(6)] for x in range(n + 1)], dtype=np.int64)


def numbered_sets(n: int, size: int) -> npt.NDArray[np.uint8]:
    """Every set of ``size`` of the positions ``range(n)`` as ascending
    rows, in the order of their numbers (:func:`set_numbers`: row ``i`` is
    set number ``i``, the colexicographic order): the lexicographic
    combinations of the positions read from the end of the deck backwards.

    >>> numbered_sets(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    >>> numbered_sets(4, 0).tolist()
    [[]]
    """
    if size == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    lexicographic = batch.combinations(n, size)
    return np.ascontiguousarray(np.subtract(n - 1, lexicographic[::-1, ::-1], dtype=np.uint8))


def set_numbers(cards: npt.NDArray[np.int64], columns: Sequence[int], n: int) -> npt.NDArray[np.int64]:
    """The combinatorial number of the set of ``columns`` of each row of
    ascending deck positions (of a deck of ``n`` cards), among the sets of its
    size: ``sum(C(card, place + 1))``, from 0 to ``C(n, size) - 1``."""
    choose = choose_table(n)
    out = np.zeros(len(cards), dtype=np.int64)
    for place, column in enumerate(columns):
        out += choose[cards[:, column], place + 1]
    return out
