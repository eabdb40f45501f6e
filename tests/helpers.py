"""Shared helpers for the tests."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from fivecard import Card, Hand, Suit, full_deck

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


def all_hands() -> Iterator[tuple[Card, ...]]:
    return itertools.combinations(full_deck(), 5)


def reference_key(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    """An independent, naive standard evaluator: (category 1..10, tie-break).

    Written from seed 000's table without the library's tables, to check them.
    """
    ranks = sorted((int(c.rank) for c in cards if c.rank is not None), reverse=True)
    suits = {c.suit for c in cards}
    counts = Counter(ranks)
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    flush = len(suits) == 1
    straight_top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return (10 if straight_top == 14 else 9, (straight_top,))
    if pattern == [4, 1]:
        return (8, tuple(by_group))
    if pattern == [3, 2]:
        return (7, tuple(by_group))
    if flush:
        return (6, tuple(ranks))
    if straight_top:
        return (5, (straight_top,))
    if pattern == [3, 1, 1]:
        return (4, tuple(by_group))
    if pattern == [2, 2, 1]:
        return (3, tuple(by_group))
    if pattern == [2, 1, 1, 1]:
        return (2, tuple(by_group))
    return (1, tuple(ranks))


#: Seed 002's "beats" table (002_0b4722e24cce8e10.txt): (better, worse), ranks only.
SEED_002_BEATS = [
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

#: Seed 002's hand examples: (ranks, category).
SEED_002_HANDS = [
    ("9, 9, 9, 9, 3", "four_of_a_kind"),
    ("4, Q, 4, 4, Q", "full_house"),
    ("2, 3, 4, 5, 6", "straight"),
    ("Q, A, 5, A, A", "three_of_a_kind"),
    ("9, 10, 3, 3, 10", "two_pair"),
    ("K, 4, 7, K, 9", "one_pair"),
    ("2, 3, 9, 8, 4", "high_card"),
]

STANDARD_TABLE = {  # category: (classes, hands), from RULES.md §4
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

JOKER_TABLE = {  # RULES.md §4 joker, 54-card deck: (classes, hands)
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

SEMI_52_HANDS = {  # RULES.md §4 semi: dealt from 52 cards, suits hidden
    "five_of_a_kind": 0,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "straight": 9_216,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_308_672,
}
