"""Whole-deck counts of RULES.md §4 (standard), asserted by full enumeration."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from helpers import (
    JOKER_53_HANDS,
    JOKER_TABLE,
    SEMI_52_HANDS,
    STANDARD_TABLE,
    all_hands,
    reference_key,
)

from fivecard import Hand, evaluate, full_deck, get_rules, strength, strength_function
from fivecard.tables import tables_for



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


# --- the other rule sets ---------------------------------------------------------


def category_table(rules: str, strengths: Counter[int]) -> dict[str, tuple[int, int]]:
    tables = tables_for(get_rules(rules))
    table: dict[str, list[int]] = {}
    for s, n in strengths.items():
        entry = table.setdefault(tables.hand_class(s).category.name, [0, 0])
        entry[0] += 1
        entry[1] += n
    return {k: (v[0], v[1]) for k, v in table.items()}


def test_ace_king_table(standard_strengths: Counter[int]) -> None:
    """ace-king orders exactly as standard (same lookup table: see
    test_rule_sets), so the standard strengths give its counts."""
    table = category_table("ace-king", standard_strengths)
    assert table["ace_king"] == (164, 167_280)
    assert table["high_card"] == (1_113, 1_135_260)
    assert {k: v for k, v in table.items() if k not in ("ace_king", "high_card")} == {
        k: v for k, v in STANDARD_TABLE.items() if k != "high_card"
    }


def test_semi_dealt_from_52_cards_with_suits_hidden() -> None:
    f = strength_function("semi")
    strengths = Counter(
        f(tuple(c.rank_only().code for c in cards)) for cards in all_hands()
    )
    table = category_table("semi", strengths)
    assert {k: v[1] for k, v in table.items()} == {k: v for k, v in SEMI_52_HANDS.items() if v}
    assert len(strengths) == 6_175


def test_semi_every_rank_multiset_is_its_own_class() -> None:
    ranks = full_deck(suits=False)
    assert len(ranks) == 13
    strengths = [
        strength(Hand.of(combo, rules="semi"))
        for combo in itertools.combinations_with_replacement(ranks, 5)
    ]
    assert sorted(strengths) == list(range(1, 6_189))
    table = category_table("semi", Counter(strengths))
    assert table["five_of_a_kind"] == (13, 13)
    assert table["straight"] == (9, 9)





def test_joker_54_card_deck() -> None:
    f = strength_function("joker")
    deck = [c.code for c in full_deck(jokers=2)]
    strengths = Counter(f(hand) for hand in itertools.combinations(deck, 5))
    assert sum(strengths.values()) == 3_162_510
    assert len(strengths) == 7_475 and 0 not in strengths
    assert category_table("joker", strengths) == JOKER_TABLE


def test_joker_53_card_deck() -> None:
    f = strength_function("joker")
    deck = [c.code for c in full_deck(jokers=1)]
    strengths = Counter(f(hand) for hand in itertools.combinations(deck, 5))
    assert sum(strengths.values()) == 2_869_685
    assert {k: v[1] for k, v in category_table("joker", strengths).items()} == JOKER_53_HANDS
