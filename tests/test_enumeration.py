"""Whole-deck counts of RULES.md §4 (standard), asserted by full enumeration."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import all_hands, reference_key

from fivecard import Hand, evaluate, full_deck, get_rules, strength, strength_function
from fivecard.tables import tables_for

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


@pytest.fixture(scope="module")
def standard_strengths() -> Counter[int]:
    """How many of the 2,598,960 hands have each strength."""
    f = strength_function("standard")
    return Counter(f(tuple(c.code for c in cards)) for cards in all_hands())


def test_every_standard_hand_is_counted_in_rules_table(standard_strengths: Counter[int]) -> None:
    tables = tables_for(get_rules("standard"))
    assert sum(standard_strengths.values()) == 2_598_960
    assert 0 not in standard_strengths
    assert set(standard_strengths) == set(range(1, 7_463))  # 7,462 strengths, all used
    hands: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for s, n in standard_strengths.items():
        name = tables.hand_class(s).category.name
        hands[name] += n
        classes[name] += 1
    assert {k: (classes[k], hands[k]) for k in STANDARD_TABLE} == STANDARD_TABLE


def test_strength_order_agrees_with_category_order() -> None:
    rules = get_rules("standard")
    tables = tables_for(rules)
    scores = [rules.score(c.category) for c in tables.classes()]
    assert scores == sorted(scores)
    assert tables.hand_class(1).key == (7, 5, 4, 3, 2)  # the weakest hand
    assert tables.hand_class(7_462).category.name == "royal_flush"


def test_strength_agrees_with_an_independent_reference_on_random_pairs() -> None:
    """A naive evaluator written from seed 000's table orders hands the same."""
    rng = random.Random(2012)
    deck = full_deck()
    for _ in range(20_000):
        a, b = rng.sample(deck, 5), rng.sample(deck, 5)
        expected = (reference_key(tuple(a)) > reference_key(tuple(b))) - (
            reference_key(tuple(a)) < reference_key(tuple(b))
        )
        sa, sb = strength(Hand.of(a)), strength(Hand.of(b))
        assert (sa > sb) - (sa < sb) == expected, (a, b)


def test_rich_and_fast_paths_agree() -> None:
    rng = random.Random(7)
    deck = full_deck()
    f = strength_function()
    for _ in range(5_000):
        hand = Hand.of(rng.sample(deck, 5))
        e = evaluate(hand)
        assert e.strength == strength(hand) == f(hand.codes)
        assert e.category == tables_for(hand.rules).hand_class(e.strength).category
        assert sorted(e.showdown, key=id) == sorted(hand.cards, key=id)
