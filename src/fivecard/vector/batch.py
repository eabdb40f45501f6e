"""Vectorised evaluation of many hands at once, with numpy.

The batch path reads the same lookup table as the single-hand path
(:mod:`fivecard.core.lookup`) and applies the same arithmetic to whole arrays, so
the two agree exactly (the tests check every hand of every deck). Encoding
validates every row: a bad row (a bad hand, or not text at all) is reported by
its index with the same message the single-hand path gives, and is never
scored; the other rows are unaffected. Hands as arrays are card indices
(:attr:`Card.index <fivecard.core.cards.Card.index>`, the one number of a
card), checked in the same vectorised pass that scores them: ``strengths``
scores an encoded batch, ``strengths_of_indices`` an array of indices
(:func:`fivecard.vector.seven.best_strengths`: the best five of 5-7
indices); the evaluator's own codes stay inside. Every public function
checks its input once, at its edge: a number out of range (a strength
outside the rule set's, a card index that is none), NaN, infinity, a fraction, the wrong shape
or a showdown of no hands is a :class:`~fivecard.core.errors.FivecardError` naming
the first bad value and where it is; booleans, text, objects or complex
numbers are a :class:`TypeError` saying what they are.

>>> import numpy as np
>>> from fivecard.vector import batch
>>> hands = batch.encode(["8C TS KC 9H 4S", "7D 2S 5D 3S AC", "AS AS KD QD JD"])
>>> hands.errors
{2: "duplicate card A♠ (cards 1 and 2) in 'AS AS KD QD JD'"}
>>> batch.strengths(hands).tolist()
[578, 790, 0]
>>> pairs = np.array([[578, 790], [4469, 4469]])
>>> batch.settle(pairs).tolist()
[[False, True], [True, True]]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from ..core.cards import CARDS, JOKER, full_deck
from ..core.errors import FivecardError, HandError, kind_of
from ..core.hand import Hand
from ..core.rules import RuleSet, get_rules
from ..core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, tables_for
from .columns import class_arrays

__all__ = [
    "Encoded",
    "encode",
    "encode_indices",
    "strengths",
    "strengths_of_indices",
    "categories",
    "settle",
    "sorted_texts",
    "sorted_bytes",
    "sorted_from_indices",
    "combinations",
    "census_counts",
    "hand_counts",
    "category_table",
    "fixed_width_indices",
    "token_view",
]

Indices = npt.NDArray[np.int32]

#: The largest card index (:data:`fivecard.core.cards.CARDS`: the two of
#: clubs alone); a deck of the batch API holds 0-53 (the 52 suited cards,
#: then two jokers).
_LAST: Final = len(CARDS) - 1
_DECK: Final = JOKER.index + 2
_CHUNK: Final = 1 << 15  # rows per step: the working arrays stay in cache


@dataclass(frozen=True, slots=True)
class Encoded:
    """Hands as an ``(N, 5)`` array of card indices (:attr:`Card.index
    <fivecard.core.cards.Card.index>`) under a rule set.

    ``errors`` maps the index of every bad row to its message (the single-hand
    path's); those rows hold zeros and are never scored. The indices are
    trusted (not checked again when scored): make a batch with
    :func:`encode` or :func:`encode_indices`.
    """

    rules: RuleSet
    indices: Indices
    errors: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RuleSet):
            raise TypeError(f"an Encoded batch's rules are a RuleSet, got {kind_of(self.rules)}")
        indices = self.indices
        if not isinstance(indices, np.ndarray) or indices.dtype != np.int32 or indices.ndim != 2 or indices.shape[1] != 5:
            raise TypeError(f"an Encoded batch's indices are an (N, 5) int32 array, got {_array_words(indices)}")
        if not isinstance(self.errors, dict):
            raise TypeError(f"an Encoded batch's errors are a dict of row -> message, got {kind_of(self.errors)}")

    def __len__(self) -> int:
        return len(self.indices)

    @property
    def valid(self) -> npt.NDArray[np.bool_]:
        mask = np.ones(len(self.indices), dtype=bool)
        if self.errors:
            mask[list(self.errors)] = False
        return mask


# --- encoding ----------------------------------------------------------------------


def _luts() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Byte -> the rank's first index (``4 * (14 - rank)``, the card with
    spades; or -1), and byte -> the suit's place in an index (its sort
    order; or -1), for the two-character ASCII tokens of the fast path
    (``As``, ``td``, ``9C``)."""
    ranks = np.full(256, -1, dtype=np.int32)
    suits = np.full(256, -1, dtype=np.int32)
    for card in full_deck():
        assert card.rank is not None and card.suit is not None
        for ch in {card.rank.char, card.rank.char.lower()}:
            ranks[ord(ch)] = 4 * (14 - card.rank)
        for ch in {card.suit.value, card.suit.value.upper()}:
            suits[ord(ch)] = card.suit.order
    return ranks, suits


_RANK_LUT, _SUIT_LUT = _luts()
_PAIRS: Final = [(i, j) for i in range(5) for j in range(i + 1, 5)]


def _slow(
    texts: Sequence[str],
    rows: Sequence[int],
    rules: RuleSet,
    encoded: Encoded,
    problems: Mapping[int, str],
) -> None:
    """The single-hand path for the rows the fast path does not take: other
    spellings, jokers, and every bad row (for its exact message); rows in
    ``problems`` (not text) are errors already."""
    for row in rows:
        problem = problems.get(row)
        if problem is not None:
            encoded.errors[row] = problem
            continue
        try:
            hand = Hand.parse(texts[row], rules=rules)
        except FivecardError as exc:
            encoded.errors[row] = str(exc)
            encoded.indices[row] = 0
        else:
            encoded.indices[row] = hand.indices


@cache
def _token_indices(suits: bool, limits: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """Two ASCII bytes read as one little-endian uint16 -> card index, or
    -1: the fast path's whole parser is one lookup in this table (64 KiB).
    Without ``suits``, a card is its rank alone. Only the cards a deck of
    the rules holds (``limits``: :attr:`fivecard.core.rules.Deck.limits`)
    are in it: another card (a rank a short deck does not hold) is -1, so
    its row goes to the single-hand parser and its error; the joker's
    two-letter spellings (``JK``, any case) where the rules have jokers."""
    table = np.full(1 << 16, -1, dtype=np.int8)
    ranks, suit_places = _RANK_LUT, _SUIT_LUT
    for first in np.flatnonzero(ranks >= 0).tolist():
        rank_alone = JOKER.index + 2 + int(ranks[first]) // 4
        for second in np.flatnonzero(suit_places >= 0).tolist():
            index = int(ranks[first]) + int(suit_places[second]) if suits else rank_alone
            if limits[index]:
                table[first | second << 8] = index
    if limits[JOKER.index]:
        for first in b"Jj":
            for second in b"Kk":
                table[first | second << 8] = JOKER.index
    return table


def token_view(data: bytes, n: int, stride: int, offset: int = 0) -> npt.NDArray[np.uint16]:
    """The five two-byte tokens of ``n`` rows laid ``stride`` bytes apart in
    ``data`` (from ``offset``), each read as one uint16, without copying."""
    _check_rows(data, n, stride, offset)
    return np.ndarray((n, 5), dtype="<u2", buffer=data, offset=offset, strides=(stride, 3))


def fixed_width_indices(
    data: bytes, n: int, stride: int, rules: RuleSet, offset: int = 0
) -> tuple[Indices, npt.NDArray[np.bool_]]:
    """Parse ``n`` rows of ``As Kd 7h 7c 2s`` laid ``stride`` bytes apart in
    ``data``: card indices and which rows are well formed (known cards,
    single spaces, no card twice where the rule set has one deck, but for as
    many jokers as the rule set allows)."""
    _check_rows(data, n, stride, offset)
    if not isinstance(rules, RuleSet):
        raise TypeError(f"fixed_width_indices takes a RuleSet, got {kind_of(rules)}")
    if n == 0:
        return np.zeros((0, 5), dtype=np.int32), np.zeros(0, dtype=bool)
    tokens = token_view(data, n, stride, offset)
    gaps = np.ndarray((n, 4), dtype=np.uint8, buffer=data, offset=offset + 2, strides=(stride, 3))
    limits = rules.deck().limits
    indices = _token_indices(rules.suits, limits)[tokens]  # int8: a quarter of the traffic
    # Column by column: numpy reduces a short last axis slowly. An unknown
    # token is -1, so an OR of the five indices is negative exactly then.
    either = indices[:, 0] | indices[:, 1] | indices[:, 2] | indices[:, 3] | indices[:, 4]
    ok = either >= 0
    for column in range(4):
        ok &= gaps[:, column] == 32
    joker = np.int8(JOKER.index)
    if rules.one_deck:
        for i, j in _PAIRS:
            ok &= (indices[:, i] != indices[:, j]) | (indices[:, i] == joker if rules.jokers > 1 else False)
    if limits[JOKER.index]:
        jokers = sum((indices[:, i] == joker).astype(np.int8) for i in range(5))
        ok &= jokers <= limits[JOKER.index]
    return indices.astype(np.int32), ok


def _check_rows(data: bytes, n: int, stride: int, offset: int) -> None:
    """That ``n`` rows of 14 bytes, ``stride`` apart from ``offset``, lie
    inside ``data`` (a bytes-like object)."""
    try:
        size = memoryview(data).nbytes
    except TypeError:
        raise TypeError(f"expected bytes of hand rows, got {kind_of(data)}") from None
    for name, value in (("n", n), ("stride", stride), ("offset", offset)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} is a whole number, got {kind_of(value)}")
    if n < 0 or offset < 0 or stride < 14:
        raise FivecardError(f"rows of hands take n >= 0, offset >= 0 and stride >= 14, not {n}, {offset}, {stride}")
    if n and offset + (n - 1) * stride + 14 > size:
        raise FivecardError(
            f"{n:,} rows {stride} bytes apart from byte {offset:,} end past the data's {size:,} bytes"
        )


def encode(hands: Sequence[str], *, rules: str | RuleSet = "standard") -> Encoded:
    """Encode hand texts into an :class:`Encoded` batch in one vectorised
    pass; rows spelled ``As Kd 7h 7c 2s`` (two ASCII characters a card, single
    spaces) take the fast path, any other row the single-hand parser.

    A row that is not text (``None``, a number, bytes) or that holds
    characters no text encoding has (lone surrogates, from undecodable bytes)
    is an error row like any bad hand; a single text instead of a sequence is
    a :class:`TypeError`.
    """
    ruleset = get_rules(rules)
    if isinstance(hands, (str, bytes, bytearray, Mapping)) or not isinstance(hands, Iterable):
        hint = " (for one hand, pass a list of one)" if isinstance(hands, str) else ""
        raise TypeError(f"encode takes a sequence of hand texts, got {kind_of(hands)}{hint}")
    texts = list(hands)
    if not texts:
        return Encoded(ruleset, np.zeros((0, 5), dtype=np.int32))
    try:
        data = "\n".join(texts).encode("utf-8")
    except (TypeError, UnicodeEncodeError):  # rows that are not text, or not encodable
        problems = {
            row: f"expected a hand as text, got {kind_of(text)}"
            for row, text in enumerate(texts)
            if not isinstance(text, str)
        }
        texts = ["" if row in problems else text for row, text in enumerate(texts)]
        # A lone surrogate becomes '?', which no card has: its row goes to the
        # single-hand parser, which names the character.
        return _encode(texts, "\n".join(texts).encode("utf-8", "replace"), ruleset, problems)
    return _encode(texts, data, ruleset, {})


def _encode(
    texts: list[str], data: bytes, rules: RuleSet, problems: dict[int, str]
) -> Encoded:
    """:func:`encode` of texts joined by newlines into ``data`` (one byte per
    character where the fast path may read them)."""
    n = len(texts)
    lengths: npt.NDArray[np.int64] | None = None
    if len(data) == 15 * n - 1 and (
        n == 1 or bool(np.all(np.ndarray((n - 1,), np.uint8, data, 14, (15,)) == 10))
    ):
        # Every row is 14 ASCII bytes: parse them where they lie.
        rows = np.arange(n)
        indices, ok = fixed_width_indices(data, n, 15, rules)
        if bool(ok.all()):
            return Encoded(rules, indices)
        # A text with a line break in it can shift the rows after it: keep
        # only rows whose own text lies where it was read.
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
        ok &= (lengths == 14) & (np.cumsum(lengths + 1) == 15 * (rows + 1))
    else:  # rows of other lengths: gather the 14-character ones
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
        rows = np.flatnonzero(lengths == 14)
        raw = "".join([texts[i] for i in rows.tolist()]).encode("utf-8", "replace")
        if len(raw) != 14 * len(rows):  # non-ASCII among them: all to the slow path
            rows = rows[:0]
            raw = b""
        indices, ok = fixed_width_indices(raw, len(rows), 14, rules)
    encoded = Encoded(rules, np.zeros((n, 5), dtype=np.int32))
    encoded.indices[rows[ok]] = indices[ok]
    slow = np.ones(n, dtype=bool)
    slow[rows[ok]] = False
    _slow(texts, np.flatnonzero(slow).tolist(), rules, encoded, problems)
    return encoded


def encode_indices(
    indices: npt.ArrayLike, *, rules: str | RuleSet = "standard"
) -> Encoded:
    """Encode an ``(N, 5)`` array of card indices of a deck of two jokers
    (0-53: :data:`fivecard.core.cards.CARDS`, 0 = A♠, 1 = A♥ ... 51 = 2♣,
    52 and 53 the jokers), checking every row as the single-hand path does
    (range, duplicates, jokers): a bad row is an error row. Under rules
    without suits each card is its rank alone. An array that is not of integers is a
    :class:`TypeError`; one of another shape a
    :class:`~fivecard.core.errors.FivecardError`."""
    ruleset = get_rules(rules)
    index = _as_array(indices, "an (N, 5) array of card indices")
    if index.ndim != 2 or index.shape[1] != 5:
        raise FivecardError(f"expected an (N, 5) array of card indices, got shape {index.shape}")
    n = len(index)
    encoded = Encoded(ruleset, np.zeros((n, 5), dtype=np.int32))
    outside: npt.NDArray[np.bool_] = (index < 0) | (index >= _DECK)
    in_range = np.logical_not(outside.any(axis=1))
    for row in np.flatnonzero(~in_range).tolist():
        column = int(np.argmax(outside[row]))
        encoded.errors[row] = (
            f"card index {int(index[row, column])} in card {column + 1} is not 0-{_DECK - 1}"
        )
    safe = np.where(in_range[:, None], index, 0)
    limits = ruleset.deck().limits
    jokers = (safe >= JOKER.index).sum(axis=1)
    suspect = in_range & (jokers > limits[JOKER.index])
    # a card no deck of the rules holds (a rank a short deck does not hold)
    outside_deck = np.array([not limits[i] for i in range(JOKER.index)] + [False, False])
    suspect |= in_range & outside_deck[safe].any(axis=1)
    if ruleset.one_deck:
        cards = np.where(safe >= 52, -1 - np.arange(5), safe)  # jokers may repeat
        for i, j in _PAIRS:
            suspect |= in_range & (cards[:, i] == cards[:, j])
    for row in np.flatnonzero(suspect).tolist():
        try:
            Hand.of((CARDS[int(i)] for i in index[row]), rules=ruleset)
        except FivecardError as exc:
            encoded.errors[row] = str(exc)
    good = in_range & ~suspect
    chosen = safe[good].astype(np.int32)
    if not ruleset.suits:  # each suited card as its rank alone
        chosen = np.where(chosen < JOKER.index, JOKER.index + 2 + chosen // 4, chosen).astype(np.int32)
    encoded.indices[good] = chosen
    return encoded


@cache
def _spellings(width: int) -> npt.NDArray[np.uint8]:
    """Card index -> its canonical text (when it is ``width`` characters
    long, else ``?``) and a space: ``width + 1`` bytes each."""
    tokens = np.full((len(CARDS), width + 1), ord("?"), dtype=np.uint8)
    tokens[:, width] = ord(" ")
    for index, card in enumerate(CARDS):
        text = card.code_str.encode()
        if len(text) == width:
            tokens[index, :width] = list(text)
    return tokens


def sorted_texts(hands: Encoded) -> list[str]:
    """Each hand's cards in sorted order (rank high to low, then spades,
    hearts, diamonds, clubs; jokers last), canonical and space separated, as
    :meth:`fivecard.core.hand.Hand.sorted` gives them; "" for bad rows."""
    _check_encoded(hands, "sorted_texts")
    if len(hands.indices) == 0:
        return []
    line = sorted_bytes(hands)
    out: list[str] = line.view(f"S{line.shape[1]}").ravel().astype(str).tolist()
    for row in hands.errors:
        out[row] = ""
    return out


def _check_encoded(hands: object, function: str) -> None:
    if not isinstance(hands, Encoded):
        raise TypeError(
            f"{function} takes an Encoded batch (from batch.encode or batch.encode_indices), got {_array_words(hands)}"
        )


def _array_words(value: object) -> str:
    """What a value is, for a TypeError: an array by its shape and dtype."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return kind_of(value)


# The nine compare-exchanges that sort five values (an optimal sorting network).
_FIVE: Final = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))

_Int = TypeVar("_Int", bound=np.integer[Any])


def sort_rows(values: npt.NDArray[_Int]) -> npt.NDArray[_Int]:
    """Each row of ``values`` sorted, as a new array. Rows of five (hands)
    go through a sorting network, nine minimum/maximum steps over whole
    columns: several times faster than ``np.sort(axis=1)``, which sorts one
    short row at a time."""
    if values.ndim != 2 or values.shape[1] != 5:
        return np.sort(values, axis=1)
    columns = [values[:, i].copy() for i in range(5)]
    for i, j in _FIVE:
        low = np.minimum(columns[i], columns[j])
        np.maximum(columns[i], columns[j], out=columns[j])
        columns[i] = low
    result = np.empty_like(values)
    for i, column in enumerate(columns):
        result[:, i] = column
    return result


def row_order(keys: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """Per row of five small non-negative keys (below 2**28), the positions
    of its values in sorted order, equal keys in their order (a stable
    argsort): each key sorted with its position in its low three bits."""
    packed = keys.astype(np.int32) << 3 | np.arange(keys.shape[1], dtype=np.int32)
    order: npt.NDArray[np.int64] = (sort_rows(packed) & 7).astype(np.int64)
    return order


def sorted_bytes(hands: Encoded) -> npt.NDArray[np.uint8]:
    """:func:`sorted_texts` as an ``(N, width)`` array of ASCII bytes."""
    _check_encoded(hands, "sorted_bytes")
    return _sorted_from_indices(hands.indices, hands.rules.suits)


def sorted_from_indices(indices: npt.ArrayLike, *, suits: bool) -> npt.NDArray[np.uint8]:
    """Sort each row of an ``(N, 5)`` array of card indices (ascending index
    is sorted order) and spell the cards: an ``(N, width)`` byte array."""
    expected = "an (N, 5) array of card indices"
    array = _as_array(indices, expected)
    if array.ndim != 2 or array.shape[1] != 5:
        raise FivecardError(f"expected {expected}, got shape {array.shape}")
    return _sorted_from_indices(_whole_in(array, 0, _LAST, f"a card index (0-{_LAST})", item="card"), suits)


def _sorted_from_indices(indices: npt.NDArray[np.integer[Any]], suits: bool) -> npt.NDArray[np.uint8]:
    """:func:`sorted_from_indices` of indices known to be in range."""
    n = len(indices)
    width = 2 if suits else 1
    line: npt.NDArray[np.uint8] = _spellings(width)[sort_rows(indices)].reshape(n, 5 * (width + 1))[:, :-1]
    return line


# --- evaluation --------------------------------------------------------------------


@cache
def _lookup(rules: RuleSet) -> npt.NDArray[np.uint16]:
    """The rule set's lookup table as a numpy view (no copy)."""
    return np.frombuffer(tables_for(rules).lookup, dtype=np.uint16)


#: The mark of a checked card code: five codes sum to less than it.
_CHECKED: Final = 1 << 28
_CHECKED_KEYS: Final = 5 * (_CHECKED >> SUIT_SHIFT)  # what five marks add to a key


@cache
def _codes_of(rules: RuleSet, checked: bool = True) -> npt.NDArray[np.int32]:
    """Card index -> the code the rule set's table reads
    (:func:`fivecard.core.lookup.codes_for`: a wild card as the joker's),
    with the :data:`_CHECKED` mark when ``checked``; and one entry more, 0,
    where numbers that are no card index are clipped to (a code without the
    mark: what finds them). The batch path's one way from index to code."""
    mark = _CHECKED if checked else 0
    return np.array([code | mark for code in codes_for(rules)] + [0], dtype=np.int32)


@cache
def _checked_lookup(rules: RuleSet) -> npt.NDArray[np.uint16]:
    """The lookup table shifted by :data:`_CHECKED_KEYS` (a key of checked
    codes indexes it directly); the zeros before it take no memory."""
    table = np.zeros(_CHECKED_KEYS + 2 * KEY_SPACE, dtype=np.uint16)
    table[_CHECKED_KEYS:] = _lookup(rules)
    return table


def strengths_of_indices(indices: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.uint16]:
    """Strengths of an ``(N, 5)`` array of card indices (:attr:`Card.index
    <fivecard.core.cards.Card.index>`, as :attr:`Encoded.indices` and
    ``Hand.indices`` hold them), in cache-sized chunks: each index's code
    looked up (which checks it is a card index), the codes summed (the rank
    key) and ANDed (the flush test), then one lookup. Cards that make no
    valid hand under the rule set (a card twice, a joker under ``standard``)
    give 0.

    Raises :class:`~fivecard.core.errors.FivecardError` naming the first row
    that holds a number that is not a card index (0-66), and a
    :class:`TypeError` for an array that is not of integers.

    >>> strengths_of_indices([Hand.parse('AS KS QS JS TS').indices, [0, 1, 2, 3, 4]]).tolist()
    [7462, 7452]
    >>> strengths_of_indices([[0, 1, 2, 3, 67]])
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: row 0: 67 is not a card index 0-66 (card 5 of the row)
    """
    ruleset = get_rules(rules)
    return _strengths(_index_array(indices), ruleset, checked=True)


def _index_array(values: npt.ArrayLike, widths: tuple[int, ...] = (5,)) -> Indices:
    """An ``(N, k)`` C-contiguous int32 array of card indices (``k`` one of
    ``widths``): a TypeError for other than integers, a FivecardError for
    another shape, or for numbers that int32 would wrap (outside 0 ...
    66: the number is named, and where; the other numbers that are no card
    index are found by the path that reads them)."""
    shapes = ", ".join(f"(N, {k})" for k in widths[:-1]) + (" or " if len(widths) > 1 else "") + f"(N, {widths[-1]})"
    expected = f"an {shapes} array of card indices"
    array = _as_array(values, expected)
    if array.ndim != 2 or array.shape[1] not in widths:
        raise FivecardError(f"expected {expected}, got shape {array.shape}")
    if array.dtype != np.int32 and array.size:
        outside = (array < 0) | (array > _LAST)
        if outside.any():
            row, column = (int(i) for i in np.argwhere(outside)[0])
            raise FivecardError(_not_an_index(row, column, array[row, column]))
    return np.ascontiguousarray(array, dtype=np.int32)


def _as_array(values: npt.ArrayLike, expected: str, *, floats: bool = False) -> npt.NDArray[Any]:
    """``values`` as a numpy array of integers (with ``floats``, of any
    real numbers, for :func:`_whole_in` to check; an empty array of floats
    is one of integers either way): a FivecardError for ragged rows, a
    TypeError that says what it got for booleans, text, objects, complex
    numbers, dates."""
    try:
        array = np.asarray(values)
    except (ValueError, TypeError, OverflowError) as exc:  # ragged rows
        raise FivecardError(f"expected {expected}: {exc}") from None
    kind = array.dtype.kind
    if kind in "iu" or (kind == "f" and floats):
        return array
    if kind == "f" and array.size == 0:  # np.asarray([]) is of floats
        return array.astype(np.int64)
    numbers = "whole numbers" if floats else "integers"
    raise TypeError(f"expected {expected} ({numbers}), got {_dtype_words(array)}")


def _dtype_words(array: npt.NDArray[Any]) -> str:
    """What an array that is not of numbers holds, for a TypeError: its
    dtype, and for objects the first that is not a number and where."""
    kind = array.dtype.kind
    if kind == "b":
        return "booleans (dtype bool)"
    if kind in "US":
        return f"text (dtype {array.dtype})"
    if kind == "O":
        for index, item in np.ndenumerate(array):
            if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, float, np.number)):
                place = _place(index, None)[0].rstrip(": ")
                return f"dtype object ({kind_of(item)}{' at ' + place if place else ''})"
        return "dtype object (numbers too large for 64 bits?)"
    return f"dtype {array.dtype}"


def _place(index: tuple[int, ...], item: str | None) -> tuple[str, str]:
    """Where an item of an array is, for a message: a prefix (``row 3: ``,
    ``index 3: ``) and a suffix (`` (hand 2 of the row)``) when ``item``
    names the columns of a two-dimensional array."""
    if not index:
        return "", ""
    if len(index) == 2 and item is not None:
        return f"row {index[0]}: ", f" ({item} {index[1] + 1} of the row)"
    return f"index {index[0] if len(index) == 1 else tuple(int(i) for i in index)}: ", ""


def _whole_in(
    array: npt.NDArray[Any], low: int, high: int, what: str, item: str | None = None
) -> npt.NDArray[np.integer[Any]]:
    """``array`` (of numbers, see :func:`_as_array`) as integers (floats as
    int64), each a whole number from ``low`` to ``high``; else a
    FivecardError naming the first that is not and where it is, in one
    vectorised pass."""
    if array.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            ok = np.isfinite(array) & (array == np.floor(array)) & (array >= low) & (array <= high)
    else:
        ok = (array >= low) & (array <= high)
    _first_bad(array, ok, what, item)
    return array if array.dtype.kind in "iu" else array.astype(np.int64)


def _first_bad(array: npt.NDArray[Any], ok: npt.NDArray[np.bool_], what: str, item: str | None = None) -> None:
    """A FivecardError naming the first item of ``array`` that ``ok`` says
    is bad, and where it is (``row 3: 7463 is not ...``), if there is one."""
    if ok.all():
        return
    flat = int(np.argmin(ok.ravel()))
    index = tuple(int(i) for i in np.unravel_index(flat, array.shape))
    value = array.ravel()[flat].item()
    before, after = _place(index, item)
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise FivecardError(f"{before}{value} is not a whole number{after}")
        value = int(value)
    raise FivecardError(f"{before}{value} is not {what}{after}")


def _not_an_index(row: int, column: int, value: object) -> str:
    """The message for a number of an array of hands that is no card index."""
    return f"row {row}: {value} is not a card index 0-{_LAST} (card {column + 1} of the row)"


def _strengths(indices: Indices, rules: RuleSet, *, checked: bool) -> npt.NDArray[np.uint16]:
    """Strengths of an ``(N, 5)`` C-contiguous int32 array of card indices,
    chunk by chunk; ``checked``: raise on the first number that is not a
    card index, else trust them (indices the pipeline or :func:`encode` made)."""
    n = len(indices)
    out = np.empty(n, dtype=np.uint16)
    valid = _codes_of(rules, checked)
    lookup = _checked_lookup(rules) if checked else _lookup(rules)
    size = min(n, _CHUNK)
    work = np.empty((5, size), dtype=np.int32)  # the chunk, a row per card
    key = np.empty(size, dtype=np.int32)
    flush = np.empty(size, dtype=np.int32)
    for start in range(0, n, _CHUNK):
        chunk = indices[start : start + _CHUNK]
        m = len(chunk)
        if m < size:
            work = np.empty((5, m), dtype=np.int32)
        if checked:  # negative numbers read as uint32 are too large: clipped to the 0 past the cards
            np.take(valid, chunk.T.view(np.uint32), mode="clip", out=work)
        else:  # trusted indices: nothing to wrap (the cheapest mode)
            np.take(valid, chunk.T, mode="wrap", out=work)
        k, f = key[:m], flush[:m]
        np.add(work[0], work[1], out=k)
        np.bitwise_and(work[0], work[1], out=f)
        for column in (2, 3, 4):
            np.add(k, work[column], out=k)
            np.bitwise_and(f, work[column], out=f)
        if checked and m and int(f.min()) < _CHECKED:  # a row without the mark
            rows, columns = np.nonzero(chunk.view(np.uint32) > _LAST)
            row, column = int(rows[0]), int(columns[0])
            raise FivecardError(_not_an_index(start + row, column, chunk[row, column]))
        np.right_shift(k, SUIT_SHIFT, out=k)
        np.bitwise_and(f, SUIT_MASK, out=f)
        np.minimum(f, 1, out=f)
        np.multiply(f, KEY_SPACE, out=f)
        np.add(k, f, out=k)
        np.take(lookup, k, out=out[start : start + m], mode="clip")  # unchecked: no IndexError
    return out


def strengths(hands: Encoded) -> npt.NDArray[np.uint16]:
    """Strength per hand of an encoded batch (0 for bad rows): exactly the
    single-hand path's numbers."""
    _check_encoded(hands, "strengths")
    indices = np.ascontiguousarray(hands.indices, dtype=np.int32)
    out = _strengths(indices, hands.rules, checked=False)  # encode made them
    if hands.errors:
        out[list(hands.errors)] = 0
    return out


def distinct(values: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """The distinct values of an array of small non-negative integers,
    sorted (``np.unique`` without its first-call import of ``numpy.ma``,
    20 ms of a process's start)."""
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.bincount(values))


def first_of_each(values: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Where each distinct value is first met, in the order of the values
    (``np.unique(values, return_index=True)[1]``)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first = np.ones(len(values), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    result: npt.NDArray[np.int64] = order[first]
    return result


def category_table(rules: str | RuleSet = "standard") -> npt.NDArray[np.int8]:
    """The ladder index of every strength (index 0: -1, no hand), read-only
    (:attr:`fivecard.vector.columns.ClassArrays.category`)."""
    return _category_table(get_rules(rules))


def _category_table(rules: RuleSet) -> npt.NDArray[np.int8]:
    return class_arrays(rules).category


def categories(strength: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.int8]:
    """The ladder index of each strength's category (0 = the weakest, -1 for
    strength 0, a bad row's); ``rules.ladder[i].name`` names it. Strengths
    of any shape, each a whole number from 0 to the rule set's number of
    classes; anything else is a :class:`~fivecard.core.errors.FivecardError`
    naming the first bad one and where (a :class:`TypeError` for what is
    not numbers).

    >>> categories([7462, 1, 0]).tolist()
    [9, 0, -1]
    >>> categories([[1, 7463]])
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: index (0, 1): 7463 is not a strength of the standard rules, 0-7462 (0: no hand)
    """
    ruleset = get_rules(rules)
    table = _category_table(ruleset)
    expected = "an array of strengths"
    what = f"a strength of the {ruleset.name} rules, 0-{len(table) - 1} (0: no hand)"
    found: npt.NDArray[np.int8] = table[_whole_in(_as_array(strength, expected, floats=True), 0, len(table) - 1, what)]
    return found


def settle(strength: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.bool_]:
    """Winners of aligned showdowns: for an ``(N, H)`` array of strengths
    under ``rules`` (a row per showdown, a column per hand), a mask of the
    hands that win each row (several on a split).

    Each strength is a whole number from 1 to the rule set's number of
    classes (0, a bad row's, is no hand and settles nothing); anything else,
    or a showdown of no hands, is a :class:`~fivecard.core.errors.FivecardError`
    naming the first bad one and where (a :class:`TypeError` for what is
    not numbers).

    >>> settle([[5, 9, 9], [3, 1, 2]]).tolist()
    [[False, True, True], [True, False, False]]
    >>> settle([[578, float("nan")]])
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: row 0: nan is not a whole number (hand 2 of the row)
    """
    ruleset = get_rules(rules)
    expected = "an (N, H) array of strengths (a row per showdown, a column per hand)"
    array = _as_array(strength, expected, floats=True)
    if array.ndim != 2:
        hint = " (for one showdown, a list of one row)" if array.ndim == 1 else ""
        raise FivecardError(f"expected {expected}, got shape {array.shape}{hint}")
    if array.shape[1] == 0:
        raise HandError("a showdown needs at least one hand, got none")
    size = tables_for(ruleset).size
    what = f"a strength of the {ruleset.name} rules, 1-{size}"
    table = _whole_in(array, 1, size, what, item="hand")
    winners: npt.NDArray[np.bool_] = table == table.max(axis=1, keepdims=True)
    return winners


# --- enumeration -------------------------------------------------------------------


def combinations(n: int, k: int = 5) -> npt.NDArray[np.uint8]:
    """Every k-subset of ``range(n)`` as rows in lexicographic order (as
    ``itertools.combinations``), built column by column with ``np.repeat``;
    ``n`` from 0 to 256 (the values are uint8), ``k`` from 1 to 256 (none
    when ``k > n``)."""
    for name, value, low, high in (("n", n, 0, 256), ("k", k, 1, 256)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"combinations takes a whole number {name}, got {kind_of(value)}")
        if not low <= value <= high:
            raise FivecardError(f"combinations takes {name} from {low} to {high}, not {value}")
    n, k = int(n), int(k)
    columns = [np.arange(n, dtype=np.uint8)]
    for _ in range(k - 1):
        last = columns[-1].astype(np.int64)
        extra = n - 1 - last  # how many larger values can follow each row
        total = int(extra.sum())
        starts = np.repeat(last + 1 - (np.cumsum(extra) - extra), extra)
        columns = [np.repeat(c, extra) for c in columns]
        columns.append((starts + np.arange(total)).astype(np.uint8))
    return np.stack(columns, axis=1)


def hand_counts(indices: npt.ArrayLike, *, rules: str | RuleSet = "standard") -> npt.NDArray[np.int64]:
    """How many five-card hands of these cards (card indices, each a
    distinct card) have each strength (index = strength).

    Walks the combinations as :func:`combinations` does, but carries each
    partial hand's code sum and AND instead of its cards: two arrays, not five.
    """
    ruleset = get_rules(rules)
    expected = "a one-dimensional array of card indices"
    array = _as_array(indices, expected)
    if array.ndim != 1:
        raise FivecardError(f"expected {expected}, got shape {array.shape}")
    if len(array) > 256:
        raise FivecardError(f"hand_counts takes at most 256 cards, got {len(array):,}")
    _first_bad(array, (array >= 0) & (array <= _LAST), f"a card index (0-{_LAST})")
    codes = _codes_of(ruleset, False)[array.astype(np.intp)]  # wild cards as jokers
    n = len(codes)
    size = tables_for(ruleset).size
    if n < 5:
        return np.zeros(size + 1, dtype=np.int64)
    suits = (codes & 15).astype(np.uint8)
    last = np.arange(n, dtype=np.uint8)
    key, flush = codes.copy(), suits.copy()
    for _ in range(4):
        extra = n - 1 - last.astype(np.int64)
        ends = np.cumsum(extra)
        follow = np.arange(int(ends[-1]), dtype=np.int64)
        follow -= np.repeat(ends - extra - last - 1, extra)
        last = follow.astype(np.uint8)
        key = np.repeat(key, extra)
        key += codes[last]
        flush = np.repeat(flush, extra)
        flush &= suits[last]
    key >>= 7
    key += np.minimum(flush, 1).astype(np.int32) * KEY_SPACE
    return np.bincount(_lookup(ruleset)[key], minlength=size + 1).astype(np.int64)


def census_counts(rules: str | RuleSet = "standard") -> npt.NDArray[np.int64]:
    """How many hands of the rule set's dealt deck have each strength
    (index = strength; ``semi``: 52 cards with suits hidden)."""

    ruleset = get_rules(rules)
    return hand_counts([c.index for c in ruleset.deck()], rules=ruleset)
