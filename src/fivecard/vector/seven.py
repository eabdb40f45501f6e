"""The best five of six or seven cards, for many hands at once (numpy).

The same strengths and the same choice of five as the single-hand path
(:mod:`fivecard.core.seven`): the best strength among the row's fives, and
among the fives of that strength the one whose cards, sorted, come first in
sorted order.

Where the rule set allows (:func:`fivecard.core.seven.seven_tables`), a row's
best strength is two lookups in the same tables as the single-hand path: its
cards' values are summed (the rank multiset's key, and how many cards each
suit holds), the key looked up, and for the rare row with five cards of a
suit (wild cards count in every suit) the best flush of that suit's ranks
too. Elsewhere (deuce-to-seven, where a flush counts against the hand) it is
the best of the row's 21 (or 6) fives, each looked up by the five-card batch
path.

:func:`seven_card_counts` evaluates every hand of a deck this way: the proof
that the whole path is right (the category counts over all 133,784,560
seven-card hands are known).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from ..core.cards import CARDS
from ..core.rules import RuleSet, get_rules
from ..core.seven import (
    COUNTER_SUITS,
    FIVES,
    INVALID,
    KEY_SHIFT,
    SUIT_FLAGS,
    SUIT_OFFSET,
    WILD_SHIFT,
    compiled_scorer,
    seven_tables,
)
from ..core.errors import FivecardError, kind_of
from . import batch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..core._kernel import Scorer

__all__ = ["best_strengths", "best_positions", "seven_card_counts"]

#: Rows per step of the fast path: its working arrays stay in the CPU's cache.
_CHUNK: Final = 1 << 14


def _indices(indices: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """An ``(N, 5)``, ``(N, 6)`` or ``(N, 7)`` array of card indices, as
    :func:`fivecard.vector.batch.strengths_of_indices` takes them."""
    return batch._index_array(indices, widths=(5, 6, 7))


@dataclass(frozen=True, slots=True)
class _Fast:
    """The fast path's tables as arrays, by card index where per card:
    ``first`` and ``value`` (a card's value, :meth:`SevenTables.values`;
    ``first`` with :data:`SUIT_OFFSET` added, for one card of each row;
    :data:`INVALID` for a card no hand of the rule set holds), ``flush``
    (``mask << 3 | wild cards`` -> strength), ``rank_bit`` (0 for a wild
    card) and ``suit`` (the top bit of the card's suit counter; 0 for none,
    and for a wild card); the key tables are :func:`_key_table`'s."""

    rules: RuleSet
    first: npt.NDArray[np.int64]
    value: npt.NDArray[np.int64]
    flush: npt.NDArray[np.uint16]
    rank_bit: npt.NDArray[np.int64]
    suit: npt.NDArray[np.int64]
    wild: bool


@cache
def _fast(rules: RuleSet) -> _Fast | None:
    seven = seven_tables(rules)
    if seven is None:
        return None
    value = np.array(seven.values(), dtype=np.int64)
    rank_bit = np.zeros(len(CARDS), dtype=np.int64)
    suit = np.zeros(len(CARDS), dtype=np.int64)
    for index, card in enumerate(CARDS):
        if index in rules.wild_indices or card.rank is None or value[index] == INVALID:
            continue
        rank_bit[index] = 1 << card.rank - 2
        if rules.suits and card.suit is not None:
            suit[index] = 8 << 4 * COUNTER_SUITS.index(card.suit)
    flush = np.frombuffer(seven.flush, dtype=np.uint16)
    return _Fast(rules, value + SUIT_OFFSET, value, flush, rank_bit, suit, seven.wild)


@cache
def _key_table(rules: RuleSet, size: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int64] | None]:
    """For hands of ``size`` (6 or 7) cards, made on first use: key ->
    strength, dense, its last entry 0 (where keys of invalid rows are
    clipped to). Under wild cards, whose keys spread wide, the rank keys of
    each number w of wild cards have a window of their own, from
    ``starts[w]``; ``starts[v]`` is given for ``v`` = all the bits of a sum
    from the wild count up, past the table where they are not a count."""
    seven = seven_tables(rules)
    assert seven is not None
    table = seven.best[size]
    found = np.fromiter(table.keys(), dtype=np.int64, count=len(table))
    strengths = np.fromiter(table.values(), dtype=np.uint16, count=len(table))
    if not seven.wild:
        dense = np.zeros(int(found.max()) + 2, dtype=np.uint16)
        dense[found] = strengths
        return dense, None
    wild = found >> WILD_SHIFT
    ranks = found & (1 << WILD_SHIFT) - 1
    ends = np.zeros(8, dtype=np.int64)  # each window as long as its keys need
    np.maximum.at(ends, wild, ranks + 1)
    start = np.concatenate([[0], np.cumsum(ends)[:-1]])
    dense = np.zeros(int(ends.sum()) + 1, dtype=np.uint16)
    dense[ranks + start[wild]] = strengths
    starts = np.full(1 << INVALID.bit_length() + 3 - KEY_SHIFT - WILD_SHIFT, len(dense), dtype=np.int64)
    starts[:8] = start
    return dense, starts


def _check_indices(indices: npt.NDArray[np.int32]) -> None:
    """A :class:`FivecardError` naming the first number that is no card index."""
    bad = (indices < 0) | (indices >= len(CARDS))
    if bad.any():
        row, column = (int(i) for i in np.argwhere(bad)[0])
        raise FivecardError(batch._not_an_index(row, column, indices[row, column]))


def _columns(indices: npt.NDArray[np.int32]) -> npt.NDArray[np.uint8]:
    """Card indices as a ``(k, N)`` array (a row per card column); a
    :class:`FivecardError` naming the first number that is no card index."""
    _check_indices(indices)
    return np.ascontiguousarray(indices.T.astype(np.uint8))


def _fast_best(places: npt.NDArray[np.uint8], fast: _Fast) -> npt.NDArray[np.uint16]:
    """The best five's strength of each column of a ``(k, N)`` array of card
    indices (k = 6 or 7), chunk by chunk: sum the cards' values, look the key
    up; for a row with five cards of a suit (wild cards count in every
    suit), also the best flush of that suit's ranks; a row holding a card of
    no hand of the rule set is 0."""
    k, n = places.shape
    table, starts = _key_table(fast.rules, k)
    out = np.empty(n, dtype=np.uint16)
    size = min(n, _CHUNK)
    total = np.empty(size, dtype=np.int64)
    work = np.empty(size, dtype=np.int64)
    index = np.empty(size, dtype=np.intp)
    for start in range(0, n, _CHUNK):
        end = min(n, start + _CHUNK)
        m = end - start
        acc, tmp, at = total[:m], work[:m], index[:m]
        np.copyto(at, places[0, start:end])
        np.take(fast.first, at, out=acc)
        for column in range(1, k):
            np.copyto(at, places[column, start:end])
            np.take(fast.value, at, out=tmp)
            np.add(acc, tmp, out=acc)
        np.right_shift(acc, KEY_SHIFT, out=tmp)
        if starts is not None:  # the rank key, in the window of the wild count
            np.right_shift(acc, KEY_SHIFT + WILD_SHIFT, out=at)
            np.bitwise_and(tmp, (1 << WILD_SHIFT) - 1, out=tmp)
            np.add(tmp, np.take(starts, at), out=tmp)
        np.take(table, tmp, out=out[start:end], mode="clip")
        np.bitwise_and(acc, SUIT_FLAGS, out=tmp)
        rows = np.flatnonzero(tmp)
        if len(rows):
            _flushes(places[:, start:end], rows, acc[rows], out[start:end], fast)
    return out


def _flushes(
    places: npt.NDArray[np.uint8],
    rows: npt.NDArray[np.intp],
    sums: npt.NDArray[np.int64],
    out: npt.NDArray[np.uint16],
    fast: _Fast,
) -> None:
    """Rows with five or more cards of a suit: the better of their best
    non-flush five (in ``out``) and the best flush of that suit's ranks
    (and wild cards: then every suit that reaches five)."""
    made = out[rows]
    # (which of the rows, the top bit of their suit's counter)
    suits: list[tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]] = []
    if fast.wild:
        wild = (sums >> KEY_SHIFT + WILD_SHIFT) & 7
        for i in range(len(COUNTER_SUITS)):
            chosen = np.flatnonzero(sums & 8 << 4 * i)
            suits.append((chosen, np.full(len(chosen), 8 << 4 * i, dtype=np.int64)))
    else:  # the one suit with five or more: its counter's top bit is the row's flag
        wild = np.zeros(len(rows), dtype=np.int64)
        suits.append((np.arange(len(rows)), sums & SUIT_FLAGS))
    for chosen, flag in suits:
        mask = np.zeros(len(chosen), dtype=np.int64)
        for column in range(places.shape[0]):
            cards = places[column, rows[chosen]]
            mask |= np.where(fast.suit[cards] == flag, fast.rank_bit[cards], 0)
        made[chosen] = np.maximum(made[chosen], fast.flush[mask << 3 | wild[chosen]])
    made[sums >= INVALID] = 0  # a card of no hand of the rules
    out[rows] = made


def _per_five(indices: npt.NDArray[np.int32], rules: RuleSet) -> npt.NDArray[np.uint16]:
    """An ``(N, F)`` array: the strength of each five of each row."""
    fives = FIVES[indices.shape[1]]
    out = np.empty((len(indices), len(fives)), dtype=np.uint16)
    for i, five in enumerate(fives):
        out[:, i] = batch.strengths_of_indices(indices[:, list(five)], rules=rules)
    return out


def _brute_strengths(indices: npt.NDArray[np.int32], rules: RuleSet) -> npt.NDArray[np.uint16]:
    """The best of every five of each row (0 where a five is no hand)."""
    per_five = _per_five(indices, rules)
    result: npt.NDArray[np.uint16] = per_five.max(axis=1)
    result[per_five.min(axis=1) == 0] = 0  # a row that is no valid hand
    return result


def _best(indices: npt.NDArray[np.int32], rules: RuleSet) -> npt.NDArray[np.uint16]:
    if indices.shape[1] == 5:
        return batch.strengths_of_indices(indices, rules=rules)
    compiled = compiled_scorer(rules)
    if compiled is not None:
        _check_indices(indices)
        out = np.empty(len(indices), dtype=np.uint16)
        compiled.rows(np.ascontiguousarray(indices, dtype=np.int32), out, indices.shape[1])
        return out
    fast = _fast(rules)
    if fast is None:
        return _brute_strengths(indices, rules)
    return _fast_best(_columns(indices), fast)


def best_strengths(indices: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.uint16]:
    """The strength of the best five of each row of an ``(N, k)`` array of
    card indices, k = 5, 6 or 7 (0 for a row holding a card that no hand of
    the rule set holds; like :func:`batch.strengths_of_indices`, the rows
    are not checked for a card twice).

    >>> from fivecard.core.cards import parse_cards
    >>> best_strengths([[c.index for c in parse_cards('2C AS KS 7D QS JS TS')]]).tolist()
    [7462]
    """
    return _best(_indices(indices), get_rules(rules))


def best_positions(indices: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.uint8]:
    """For each row of an ``(N, k)`` array of card indices (k = 5, 6 or 7),
    the positions (ascending) of the five that play: the best, and among
    equals the five whose cards sorted come first in sorted order.

    With each row's best strength known, the row's cards are put in sorted
    order and its fives tried in lexicographic order (which is sorted order
    of their cards): the first of the best strength is the one. Rows leave
    as soon as theirs is found; most find it among the first few fives.
    """
    array = _indices(indices)
    ruleset = get_rules(rules)
    n, k = array.shape
    fives = FIVES[k]
    table = np.array(fives, dtype=np.uint8)
    if k == 5 or n == 0:
        return np.repeat(table, n, axis=0)
    best = _best(array, ruleset)
    order = np.argsort(array.astype(np.int64) << 3 | np.arange(k), axis=1)  # sorted order; ties by position
    ordered = np.take_along_axis(array, order, axis=1)
    chosen = np.full(n, -1, dtype=np.int64)
    left = np.arange(n)
    for i, five in enumerate(fives):
        if not len(left):
            break
        found = batch.strengths_of_indices(ordered[left][:, list(five)], rules=ruleset)
        hit = found == best[left]
        chosen[left[hit]] = i
        left = left[~hit]
    result: npt.NDArray[np.uint8] = np.sort(
        np.take_along_axis(order, table[np.maximum(chosen, 0)].astype(np.int64), axis=1), axis=1
    ).astype(np.uint8)
    if len(left):  # rows that are no hand (a five is 0): the strongest five
        result[left] = _positions_by_score(array[left], ruleset)
    return result


def _positions_by_score(indices: npt.NDArray[np.int32], rules: RuleSet) -> npt.NDArray[np.uint8]:
    """The best five's positions by scoring every five (strength, then its
    cards' sorted indices, first smallest)."""
    fives = FIVES[indices.shape[1]]
    per_five = _per_five(indices, rules).astype(np.int64)
    places = indices.astype(np.int64)
    score = np.empty_like(per_five)
    for i, five in enumerate(fives):
        ordered = batch.sort_rows(places[:, list(five)])
        packed = np.zeros(len(indices), dtype=np.int64)
        for column in range(5):
            packed = packed << 7 | ordered[:, column]
        score[:, i] = per_five[:, i] << 35 | ((1 << 35) - 1 - packed)
    table = np.array(fives, dtype=np.uint8)
    chosen: npt.NDArray[np.uint8] = table[score.argmax(axis=1)]
    return chosen


# --- every hand of a deck ----------------------------------------------------------


def seven_card_counts(
    rules: str | RuleSet = "standard", *, cards: int = 7, processes: int | None = None
) -> npt.NDArray[np.int64]:
    """How many hands of ``cards`` (5, 6 or 7) cards of the rule set's dealt
    deck have each best-five strength (index = strength): every hand is
    made, as an array of its cards, and evaluated by :func:`best_strengths`'
    path (133,784,560 hands for seven of 52 cards), a prefix of its first
    cards at a time, so memory stays small. ``processes``: how many
    processes share the work (default: up to two, where ``fork`` exists).
    """
    ruleset = get_rules(rules)
    for name, value in (("cards", cards), ("processes", processes)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} is a whole number, got {kind_of(value)}")
    if cards not in (5, 6, 7):
        raise FivecardError(f"hands of 5, 6 or 7 cards, not {cards}")
    if processes is not None and processes < 1:
        raise FivecardError(f"at least one process, not {processes}")
    deck = np.array([c.index for c in ruleset.deck()], dtype=np.uint8)
    if processes is None:
        processes = min(2, os.cpu_count() or 1)
    compiled = compiled_scorer(ruleset)
    if compiled is not None:
        return _compiled_counts(compiled, deck, cards, processes, _size(ruleset))
    prefixes = list(_prefixes(len(deck), cards - 5))
    if not hasattr(os, "fork"):
        processes = 1
    _fast(ruleset)  # made once, before any fork
    size = _size(ruleset)
    if processes <= 1 or len(prefixes) < 2:
        return _count(ruleset, deck, prefixes, size)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Biggest prefixes first, dealt out so each process gets an even share.
    prefixes.sort(key=lambda p: -comb(len(deck) - 1 - p[-1] if p else len(deck), 5))
    shares = [prefixes[i::processes] for i in range(processes)]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
        # the rule set by name: a child's caches are keyed by the parent's object
        names = [ruleset.name] * processes
        parts = list(pool.map(_count, names, [deck] * processes, shares, [size] * processes))
    counts: npt.NDArray[np.int64] = np.sum(parts, axis=0)
    return counts


def _compiled_counts(
    compiled: Scorer, deck: npt.NDArray[np.uint8], cards: int, threads: int, size: int
) -> npt.NDArray[np.int64]:
    """:func:`seven_card_counts` by the compiled kernel: the hands by their
    first card's position, dealt out over ``threads`` threads (the kernel
    lets go of the interpreter), the most hands first, each share even."""
    n = len(deck)
    firsts = sorted(range(n - cards + 1), key=lambda i: -comb(n - 1 - i, cards - 1))
    shares = [firsts[i::threads] for i in range(threads)]
    parts = [np.zeros(size + 1, dtype=np.int64) for _ in shares]
    data = deck.tobytes()
    if threads <= 1:
        compiled.count(data, firsts, cards, parts[0])
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda share, part: compiled.count(data, share, cards, part), shares, parts))
    counts: npt.NDArray[np.int64] = np.sum(parts, axis=0)
    return counts


def _size(rules: RuleSet) -> int:
    from ..core.lookup import tables_for

    return tables_for(rules).size


def _prefixes(n: int, length: int) -> list[tuple[int, ...]]:
    """Every first ``length`` cards (deck positions, ascending) that leave at
    least five cards after them."""
    return [p for p in _combinations(n, length) if (p[-1] if p else -1) + 5 < n]


def _combinations(n: int, length: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(range(n), length))


@cache
def _colex(n: int) -> npt.NDArray[np.uint8]:
    """Every five of ``range(n)`` as a ``(5, C(n, 5))`` array, ordered so that
    the fives of ``range(m)`` are the first ``C(m, 5)`` (for every m)."""
    reversed_rows = (n - 1 - batch.combinations(n, 5).astype(np.int16))[::-1]
    return np.ascontiguousarray(reversed_rows.T.astype(np.uint8))


def _count(
    rules: str | RuleSet, deck: npt.NDArray[np.uint8], prefixes: list[tuple[int, ...]], size: int
) -> npt.NDArray[np.int64]:
    """The strength counts of the hands that start with these prefixes: each
    prefix's hands made as a ``(k, N)`` array of card indices and evaluated."""
    rules = get_rules(rules)
    n = len(deck)
    length = len(prefixes[0]) if prefixes else 0
    counts = np.zeros(size + 1, dtype=np.int64)
    fives = _colex(n - length)
    for prefix in prefixes:
        after = (prefix[-1] + 1) if prefix else 0
        m = comb(n - after, 5)
        hands = np.empty((length + 5, m), dtype=np.uint8)
        for column, card in enumerate(prefix):
            hands[column] = deck[card]
        np.take(deck, fives[:, :m] + np.uint8(after), out=hands[length:])
        if length == 0:
            found = batch.strengths_of_indices(hands.T, rules=rules)
        else:
            found = _evaluate_places(hands, rules)
        counts += np.bincount(found, minlength=size + 1)
    return counts


def _evaluate_places(hands: npt.NDArray[np.uint8], rules: RuleSet) -> npt.NDArray[np.uint16]:
    """:func:`best_strengths` of a ``(k, N)`` array of card indices."""
    fast = _fast(rules)
    if fast is None:
        return _brute_strengths(np.ascontiguousarray(hands.T.astype(np.int32)), rules)
    return _fast_best(hands, fast)
