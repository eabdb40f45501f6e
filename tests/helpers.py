"""Shared helpers for the tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from fivecard import Card, Hand, Suit, get_rules
from fivecard.vector import batch
from fivecard.core.lookup import KEY_SPACE, tables_for

SUIT_CYCLE = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def ranked(text: str, *, offset: int = 0) -> Hand:
    """A standard hand from ranks alone ('K, 4, 7, K, 9'): suits go round in
    turn (starting ``offset`` places on), so the hand is never a flush and
    never holds a card twice."""
    cards: list[Card] = []
    for i, token in enumerate(text.replace(",", " ").split()):
        rank = Card.parse(token).rank
        assert rank is not None
        step = offset + i
        while Card(rank, SUIT_CYCLE[step % 4]) in cards:
            step += 1
        cards.append(Card(rank, SUIT_CYCLE[step % 4]))
    return Hand.of(cards)


@dataclass(frozen=True)
class WholeDeck:
    """Every five-card hand of a rule set's dealt deck (``semi``: the 52
    cards with suits hidden; ``joker``: 54 cards), scored once by the batch
    path and shared by the tests (:func:`whole_deck`)."""

    rules: str
    #: Deck indices (``batch.CARDS``) of each hand, in the order of
    #: ``itertools.combinations(range(n), 5)``.
    indices: npt.NDArray[np.uint8]
    #: The code of each deck index as the rule set sees it (rank-only for semi).
    codes: npt.NDArray[np.int32]
    #: The batch path's strength of each hand.
    strengths: npt.NDArray[np.uint16]


@cache
def whole_deck(rules: str) -> WholeDeck:
    """The whole deck of ``rules``, enumerated and scored once per test run."""
    n = 54 if rules == "joker" else 52
    codes = batch.CODES[:n] if rules != "semi" else batch.CODES[:n] & ~15
    indices = batch.combinations(n)
    return WholeDeck(rules, indices, codes, batch.strengths_of_codes(codes[indices], rules=rules))


#: Rank (2 ... 14) and suit (0 ... 3) of each of the 52 deck indices, read
#: from the cards themselves (not from their codes).
RANKS = np.array([int(c.rank) for c in batch.CARDS[:52] if c.rank is not None], dtype=np.int8)
SUITS = np.array([list(Suit).index(c.suit) for c in batch.CARDS[:52] if c.suit is not None], dtype=np.int8)

Column = npt.NDArray[np.int8]


def high_to_low(columns: list[Column]) -> list[Column]:
    """Five columns sorted row by row, largest first: every pair compared
    and exchanged in turn (after round i, column i holds the largest of
    columns i ... 4)."""
    c = list(columns)
    for i in range(5):
        for j in range(i + 1, 5):
            c[i], c[j] = np.maximum(c[i], c[j]), np.minimum(c[i], c[j])
    return c


def reference_keys(
    ranks: npt.NDArray[np.int8], suits: npt.NDArray[np.int8] | None, *, wheel: bool = True
) -> npt.NDArray[np.int64]:
    """An independent, naive evaluator, vectorised: for an ``(N, 5)`` array of
    ranks 2 ... 14 (and of suits, or None for rank-only hands), a key per hand
    that orders hands as the ModelOff 2012 scoring table does (category, then the ranks in
    group order), computed without the library's codes or tables.

    Categories: high card 1, pair 2, two pair 3, three of a kind 4, straight
    5, flush 6, full house 7, four of a kind 8, straight flush 9, royal flush
    10, five of a kind 11 (a rule set without flushes skips 6, 9 and 10 and
    keeps the order). ``wheel``: A-2-3-4-5 is the lowest straight.
    """
    r = high_to_low([ranks[:, k].astype(np.int8) for k in range(5)])
    counts = [sum(((r[i] == r[j]).astype(np.int8) for j in range(5)), np.zeros(len(ranks), np.int8)) for i in range(5)]
    grouped = [g & 15 for g in high_to_low([n * 16 + x for n, x in zip(counts, r)])]  # bigger groups first
    most = np.maximum.reduce(counts)
    paired = sum(((n == 2).astype(np.int8) for n in counts), np.zeros(len(ranks), np.int8))  # 2 or 4 cards in pairs
    flush = np.zeros(len(ranks), dtype=bool)
    if suits is not None:
        flush = np.logical_and.reduce([suits[:, k] == suits[:, 0] for k in range(1, 5)])
    top = np.where((most == 1) & (r[0] - r[4] == 4), r[0], 0)
    if wheel:
        top = np.where(np.logical_and.reduce([x == w for x, w in zip(r, (14, 5, 4, 3, 2))]), 5, top)
    straight = top > 0
    category = np.select(
        [
            most == 5,
            straight & flush & (top == 14),
            straight & flush,
            most == 4,
            (most == 3) & (paired == 2),
            flush,
            straight,
            most == 3,
            paired == 4,
            paired == 2,
        ],
        [11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
        default=1,
    ).astype(np.int64)
    digits = [np.where(straight, top, grouped[0])] + [np.where(straight, 0, g) for g in grouped[1:]]
    key = category
    for d in digits:
        key = key * 16 + d
    return key


def assert_same_order(keys: npt.NDArray[np.int64], strengths: npt.NDArray[np.uint16]) -> None:
    """Strength is a strictly increasing function of the reference key: for
    any two hands, the stronger by one is the stronger by the other, and
    equal is equal. (Sorted by strength, the keys rise where the strengths
    rise and stay where they stay.)"""
    order = np.argsort(strengths, kind="stable")
    s, k = strengths[order].astype(np.int64), keys[order]
    wrong = np.flatnonzero(np.sign(np.diff(k)) != np.sign(np.diff(s)))
    assert not len(wrong), f"rows {order[wrong[0]]} and {order[wrong[0] + 1]} are ordered differently"


#: Semi-Poker's "beats" table (the chat room's ranks-only poker): (better, worse).
SEMI_POKER_BEATS = [
    ("Q, Q, Q, Q, 9", "7, 7, 7, 7, 3"),
    ("Q, Q, Q, Q, 9", "Q, Q, Q, Q, 5"),
    ("7, 7, J, J, 7", "3, 3, 9, 9, 3"),
    ("7, 7, J, J, 7", "3, 3, K, K, 3"),
    ("7, 8, 9, 10, J", "2, 3, 4, 5, 6"),
    ("Q, A, 5, A, A", "2, 4, 2, K, 2"),
    ("Q, A, 5, A, A", "A, 4, A, J, A"),
    ("Q, A, 5, A, A", "A, 4, A, Q, A"),
    ("9, 10, 3, 3, 10", "2, 2, 8, 6, 6"),
    ("9, 10, 3, 3, 10", "2, 2, 7, 5, 5"),
    ("9, 10, 3, 3, 10", "4, 10, 3, 3, 10"),
    ("K, 4, 7, K, 9", "Q, Q, 8, 7, 6"),
    ("K, 4, 7, K, 9", "K, K, 7, 5, 3"),
    ("K, 4, 7, K, 9", "K, K, 9, 5, 3"),
    ("K, 4, 7, K, 9", "K, K, 9, 7, 3"),
    ("3, 4, 9, 8, 5", "2, 3, 4, 5, 7"),
    ("3, 4, 9, 8, 5", "2, 3, 4, 5, 9"),
    ("3, 4, 9, 8, 5", "2, 3, 4, 8, 9"),
    ("3, 4, 9, 8, 5", "2, 3, 5, 8, 9"),
    ("3, 4, 9, 8, 5", "2, 4, 5, 8, 9"),
]

#: Semi-Poker's hand examples: (ranks, category).
SEMI_POKER_HANDS = [
    ("9, 9, 9, 9, 3", "four_of_a_kind"),
    ("4, Q, 4, 4, Q", "full_house"),
    ("2, 3, 4, 5, 6", "straight"),
    ("Q, A, 5, A, A", "three_of_a_kind"),
    ("9, 10, 3, 3, 10", "two_pair"),
    ("K, 4, 7, K, 9", "one_pair"),
    ("2, 3, 9, 8, 4", "high_card"),
]

STANDARD_TABLE = {  # category: (classes, hands) of the standard rules
    "royal_flush": (1, 4),
    "straight_flush": (9, 36),
    "four_of_a_kind": (156, 624),
    "full_house": (156, 3_744),
    "flush": (1_277, 5_108),
    "straight": (10, 10_200),
    "three_of_a_kind": (858, 54_912),
    "two_pair": (858, 123_552),
    "one_pair": (2_860, 1_098_240),
    "high_card": (1_277, 1_302_540),
}

JOKER_TABLE = {  # the joker rules, 54-card deck: (classes, hands)
    "five_of_a_kind": (13, 78),
    "royal_flush": (1, 84),
    "straight_flush": (9, 540),
    "four_of_a_kind": (156, 9_360),
    "full_house": (156, 9_360),
    "flush": (1_277, 11_388),
    "straight": (10, 34_704),
    "three_of_a_kind": (858, 232_968),
    "two_pair": (858, 123_552),
    "one_pair": (2_860, 1_437_936),
    "high_card": (1_277, 1_302_540),
}

JOKER_53_HANDS = {
    "five_of_a_kind": 13,
    "royal_flush": 24,
    "straight_flush": 180,
    "four_of_a_kind": 3_120,
    "full_house": 6_552,
    "flush": 7_804,
    "straight": 20_532,
    "three_of_a_kind": 137_280,
    "two_pair": 123_552,
    "one_pair": 1_268_088,
    "high_card": 1_302_540,
}

SEMI_52_HANDS = {  # the semi rules: dealt from 52 cards, suits hidden
    "five_of_a_kind": 0,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "straight": 9_216,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_308_672,
}


# --- wild cards by brute force -------------------------------------------------------------

_STANDARD_CLASSES = 7_462
_SUBSTITUTION_CELLS = 4_000_000  # hands x substitutes per step


def best_by_substitution(naturals: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """For hands of natural cards (deck indices, 5 - k a row): the best class
    (joker numbering) over every choice of k distinct cards not among the
    naturals; all five of a rank is Five of a Kind."""
    standard = np.frombuffer(tables_for(get_rules("standard")).lookup, dtype=np.uint16)
    deck = batch.CODES[:52].astype(np.int64)
    wilds = 5 - naturals.shape[1]
    subs = batch.combinations(52, wilds).astype(np.int64)
    add = deck[subs].sum(axis=1)
    both = np.bitwise_and.reduce(deck[subs], axis=1)
    rows = max(1, _SUBSTITUTION_CELLS // len(subs))
    best = np.empty(len(naturals), dtype=np.int64)
    for start in range(0, len(naturals), rows):
        hands = naturals[start : start + rows]
        codes = deck[hands]
        total = codes.sum(axis=1)
        suits = np.bitwise_and.reduce(codes, axis=1) & 15
        held = np.zeros((len(hands), 52), dtype=bool)
        held[np.arange(len(hands))[:, None], hands] = True
        taken = held[:, subs].any(axis=2)
        index = ((total[:, None] + add) >> 7) + KEY_SPACE * ((suits[:, None] & both) != 0)
        values = standard[index].astype(np.int64)
        values[taken] = 0
        best[start : start + len(hands)] = values.max(axis=1)
    heights = RANKS[naturals].astype(np.int64)
    five = (heights == heights[:, :1]).all(axis=1)
    best[five] = _STANDARD_CLASSES + heights[five, 0] - 1
    return best


def read_until(fd: int, marker: bytes) -> bytes:
    """Read ``fd`` (a pipe from, or the terminal of, a process under test)
    until ``marker`` has come, and return all that came. The test fails if
    the stream ends first, or says nothing for two minutes (a guard against
    hanging, not a timing test)."""
    import os
    import selectors

    import pytest

    seen = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while marker not in seen:
            if not selector.select(timeout=120):
                pytest.fail(f"waited for {marker!r} in vain; so far: {seen!r}")
            chunk = os.read(fd, 65536)
            if not chunk:
                pytest.fail(f"the stream ended before {marker!r}: {seen!r}")
            seen += chunk
    return seen
