"""Every hand of every deck, once: the counts of every rule set, the order against an
independent evaluator (tests/oracle.py) under every rule set, and the
single-hand path, the batch path and the census agreeing hand for hand.

Each deck is enumerated and scored once, vectorised (``helpers.whole_deck``),
and shared by these tests; the single-hand path (a Python function per hand)
runs once over the standard deck, and over one hand of every kind (ranks and
suitedness) of the other rule sets' decks.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import numpy.typing as npt
import oracle
import pytest
from helpers import (
    JOKER_53_HANDS,
    JOKER_TABLE,
    RANKS,
    SEMI_52_HANDS,
    STANDARD_TABLE,
    SUITS,
    assert_same_order,
    oracle_keys,
    whole_deck,
)

from fivecard import Hand, HandError, full_deck, get_rules, strength, strength_function
from fivecard.vector import batch
from fivecard import evaluate
from fivecard.core.rules import RULE_SETS
from fivecard.core.lookup import tables_for


def category_table(rules: str, strengths: npt.NDArray[np.integer]) -> dict[str, tuple[int, int]]:
    """(classes, hands) per category of these strengths, by the rules' classes."""
    tables = tables_for(get_rules(rules))
    counts = np.bincount(strengths, minlength=tables.size + 1)
    table: dict[str, list[int]] = {}
    for s in np.flatnonzero(counts).tolist():
        entry = table.setdefault(tables.hand_class(s).category.name, [0, 0])
        entry[0] += 1
        entry[1] += int(counts[s])
    return {k: (v[0], v[1]) for k, v in table.items()}


# --- standard (and ace-king, which orders exactly as standard) ------------------------


def test_every_standard_hand_is_counted_in_rules_table() -> None:
    found = whole_deck("standard").strengths
    assert len(found) == 2_598_960
    assert set(np.unique(found).tolist()) == set(range(1, 7_463))  # 7,462 strengths, all used
    assert category_table("standard", found) == STANDARD_TABLE


@pytest.mark.slow
def test_every_standard_hand_is_ordered_as_an_independent_reference_orders_it() -> None:
    """The reference evaluator (tests/oracle.py: the rules as its own data,
    no code or table of the library's) orders all 2,598,960 hands as the
    library does: every pair of hands."""
    deck = whole_deck("standard")
    keys = oracle_keys("standard")
    assert len(np.unique(keys)) == 7_462
    assert_same_order(keys, deck.strengths)


def test_strength_order_agrees_with_category_order() -> None:
    rules = get_rules("standard")
    tables = tables_for(rules)
    scores = [rules.score(c.category) for c in tables.classes()]
    assert scores == sorted(scores)
    assert tables.hand_class(1).key == (7, 5, 4, 3, 2)  # the weakest hand
    assert tables.hand_class(7_462).category.name == "royal_flush"


def test_rich_and_fast_paths_agree() -> None:
    rng = random.Random(7)
    deck = full_deck()
    f = strength_function()
    for _ in range(5_000):
        hand = Hand.of(rng.sample(deck, 5))
        e = evaluate(hand)
        assert e.strength == strength(hand) == f(hand.indices)
        assert e.category == tables_for(hand.rules).hand_class(e.strength).category
        assert sorted(e.showdown, key=id) == sorted(hand.cards, key=id)


def test_ace_king_table() -> None:
    """ace-king orders every hand exactly as standard (the same lookup table:
    see test_rule_sets); its counts move Ace-King out of High Card."""
    found = whole_deck("ace-king").strengths
    assert np.array_equal(found, whole_deck("standard").strengths)
    table = category_table("ace-king", found)
    assert table["ace_king"] == (164, 167_280)
    assert table["high_card"] == (1_113, 1_135_260)
    assert {k: v for k, v in table.items() if k not in ("ace_king", "high_card")} == {
        k: v for k, v in STANDARD_TABLE.items() if k != "high_card"
    }


# --- semi --------------------------------------------------------------------------------


@pytest.mark.slow
def test_semi_dealt_from_52_cards_with_suits_hidden() -> None:
    deck = whole_deck("semi")
    table = category_table("semi", deck.strengths)
    assert {k: v[1] for k, v in table.items()} == {k: v for k, v in SEMI_52_HANDS.items() if v}
    assert len(np.unique(deck.strengths)) == 6_175
    # Ordered as the reference evaluator orders rank-only hands (no flushes, no wheel).
    assert_same_order(oracle_keys("semi"), deck.strengths)


def test_semi_every_rank_multiset_is_its_own_class() -> None:
    """All 6,188 multisets of five ranks (five of a kind included), as text
    through the batch path and one by one: each its own strength, ordered as
    the reference evaluator orders them."""
    multisets = list(itertools.combinations_with_replacement(full_deck(suits=False), 5))
    texts = [" ".join(c.code_str for c in m) for m in multisets]
    found = batch.strengths(batch.encode(texts, rules="semi"))
    assert sorted(found.tolist()) == list(range(1, 6_189))
    assert found.tolist() == [strength(Hand.of(m, rules="semi")) for m in multisets]
    ranks, suits = oracle.hands(texts)
    assert_same_order(oracle.keys(oracle.RULES["semi"], ranks, suits), found)
    table = category_table("semi", found)
    assert table["five_of_a_kind"] == (13, 13)
    assert table["straight"] == (9, 9)


# --- joker -------------------------------------------------------------------------------


def test_joker_54_card_deck() -> None:
    found = whole_deck("joker").strengths
    assert len(found) == 3_162_510
    assert len(np.unique(found)) == 7_475 and 0 not in found
    assert category_table("joker", found) == JOKER_TABLE


def test_joker_53_card_deck() -> None:
    """The hands of the 54-card deck without its second joker are the 53-card
    deck's; batch.hand_counts counts them from the 53 cards alone."""
    deck = whole_deck("joker")
    found = deck.strengths[~(deck.indices == 53).any(axis=1)]
    assert len(found) == 2_869_685
    assert {k: v[1] for k, v in category_table("joker", found).items()} == JOKER_53_HANDS
    counts = batch.hand_counts(deck.cards[:53], rules="joker")
    assert np.array_equal(counts, np.bincount(found, minlength=len(counts)))


def test_one_joker_deck_is_the_joker_deck_without_its_second_joker() -> None:
    """one-joker deals the 53 cards of video poker's Joker Poker: its hands
    are the joker deck's without the second joker, each the same strength
    (the two rule sets share their ladder and their classes), and a hand
    may hold one joker only."""
    one, two = whole_deck("one-joker"), whole_deck("joker")
    assert len(get_rules("one-joker").deck()) == 53
    kept = ~(two.indices == 53).any(axis=1)
    assert np.array_equal(one.indices, two.indices[kept])
    assert np.array_equal(one.strengths, two.strengths[kept])
    assert category_table("one-joker", one.strengths) == {
        k: (JOKER_TABLE[k][0], n) for k, n in JOKER_53_HANDS.items()
    }
    encoded = batch.encode(["JK JK As Ks Qs", "JK As Ks Qs Js"], rules="one-joker")
    with pytest.raises(HandError) as refused:
        Hand.parse("JK JK As Ks Qs", rules="one-joker")
    assert encoded.errors == {0: str(refused.value)}
    assert str(refused.value).startswith("card 2 is joker number 2; the one-joker rules allow at most 1 per hand")
    wild_royal = int(batch.strengths(encoded)[1])
    assert tables_for(get_rules("one-joker")).hand_class(wild_royal).category.name == "royal_flush"


def test_encode_indices_takes_every_joker_hand() -> None:
    """Every hand of the 54-card deck with one joker or both (the deck indices
    52 and 53): no error, those indices, the same strengths."""
    deck = whole_deck("joker")
    rows = deck.indices[(deck.indices >= 52).any(axis=1)]
    assert len(rows) == 2 * 270_725 + 22_100
    encoded = batch.encode_indices(rows, rules="joker")
    assert not encoded.errors
    assert np.array_equal(encoded.indices, rows)
    assert np.array_equal(batch.strengths(encoded), deck.strengths[(deck.indices >= 52).any(axis=1)])


# --- every rule set against the reference evaluator --------------------------------------

#: Every hand of each rule set's dealt deck: hands per category (the
#: the manual's rules page and its ``stats`` table), and the classes dealt.
DEALT: dict[str, tuple[dict[str, int], int]] = {
    "standard": ({k: v[1] for k, v in STANDARD_TABLE.items()}, 7_462),
    "ace-king": (
        {**{k: v[1] for k, v in STANDARD_TABLE.items()}, "ace_king": 167_280, "high_card": 1_135_260},
        7_462,
    ),
    "semi": ({k: v for k, v in SEMI_52_HANDS.items() if v}, 6_175),  # of 6,188: no Five of a Kind
    "joker": ({k: v[1] for k, v in JOKER_TABLE.items()}, 7_475),
    "one-joker": (JOKER_53_HANDS, 7_475),
    "short-deck": (
        {"royal_flush": 4, "straight_flush": 20, "four_of_a_kind": 288, "flush": 480, "full_house": 1_728,
         "straight": 6_120, "three_of_a_kind": 16_128, "two_pair": 36_288, "one_pair": 193_536,
         "high_card": 122_400},
        1_404,
    ),  # fmt: skip
    "deuces-wild": (
        {"five_of_a_kind": 672, "royal_flush": 484, "straight_flush": 2_068, "four_of_a_kind": 31_552,
         "full_house": 12_672, "flush": 14_472, "straight": 62_232, "three_of_a_kind": 355_080,
         "two_pair": 95_040, "one_pair": 1_225_008, "high_card": 799_680},
        5_162,
    ),  # fmt: skip
    "one-eyed-jacks": (
        {"five_of_a_kind": 72, "royal_flush": 54, "straight_flush": 480, "four_of_a_kind": 8_328,
         "full_house": 8_112, "flush": 9_476, "straight": 28_938, "three_of_a_kind": 199_758,
         "two_pair": 102_960, "one_pair": 1_188_652, "high_card": 1_052_130},
        7_471,
    ),  # fmt: skip
    "ace-to-five": (
        {"four_of_a_kind": 624, "full_house": 3_744, "three_of_a_kind": 54_912, "two_pair": 123_552,
         "one_pair": 1_098_240, "no_pair": 1_317_888},
        6_175,
    ),  # fmt: skip
    "deuce-to-seven": (
        {"royal_flush": 4, "straight_flush": 32, "four_of_a_kind": 624, "full_house": 3_744, "flush": 5_112,
         "straight": 9_180, "three_of_a_kind": 54_912, "two_pair": 123_552, "one_pair": 1_098_240,
         "no_pair": 1_303_560},
        7_462,
    ),  # fmt: skip
}
#: Wild rule sets: the reference evaluator tries every substitution (seconds each).
WILD = ("joker", "one-joker", "deuces-wild", "one-eyed-jacks")


def test_every_rule_set_is_counted() -> None:
    assert list(DEALT) == list(RULE_SETS)
    for rules, (hands, _) in DEALT.items():
        assert sum(hands.values()) == len(whole_deck(rules).strengths), rules


@pytest.mark.parametrize("rules", [pytest.param(r, marks=pytest.mark.slow) if r in WILD else r for r in RULE_SETS])
def test_every_hand_of_every_rule_set_is_valued_as_the_reference_evaluator_values_it(rules: str) -> None:
    """Every hand of the dealt deck, by the batch path and by the reference
    evaluator (tests/oracle.py, wild hands by substitution): the same
    category hand for hand, the same order on every pair of hands, and the
    manual's counts. Where every class is dealt (all but semi, whose deck
    never deals Five of a Kind), strength is each hand's place among the
    distinct keys: the very number, not just the order."""
    deck, keys = whole_deck(rules), oracle_keys(rules)
    reference = oracle.RULES[rules]
    assert [c.name for c in get_rules(rules).ladder] == list(reference.ladder)
    assert np.array_equal(batch.categories(deck.strengths, rules=rules), oracle.category(reference, keys))
    assert_same_order(keys, deck.strengths)
    hands, classes = DEALT[rules]
    distinct = np.unique(keys)
    assert len(distinct) == len(np.unique(deck.strengths)) == classes
    assert tables_for(get_rules(rules)).size == (6_188 if rules == "semi" else classes)
    if rules != "semi":
        assert np.array_equal(deck.strengths, np.searchsorted(distinct, keys) + 1)
    assert {name: n for name, (_, n) in oracle.counts(reference, keys).items()} == hands


# --- every path, every hand ----------------------------------------------------------------


@pytest.mark.slow
def test_the_single_hand_path_equals_the_batch_path_on_every_standard_hand() -> None:
    """strength_function (the per-hand path behind strength and evaluate) on
    all 2,598,960 hands, in itertools order, against the batch path."""
    deck = whole_deck("standard")
    single = strength_function("standard")
    hands = itertools.combinations(deck.cards.tolist(), 5)
    found = np.fromiter(map(single, hands), dtype=np.uint16, count=len(deck.strengths))
    assert np.array_equal(found, deck.strengths)


def kinds_of_hand(indices: npt.NDArray[np.uint8]) -> npt.NDArray[np.intp]:
    """A row of each kind of hand, and 100,000 rows at random. A hand's kind
    is what any rule set can see of it: its ranks (a joker its own rank) and
    whether its natural cards share a suit."""
    ranks, suits = RANKS.astype(np.int8), SUITS.astype(np.int8)  # 52 and 53: the jokers, rank 0, suit 4
    kind = np.zeros(len(indices), dtype=np.int32)
    for column in np.sort(ranks[indices], axis=1).T:
        kind = kind * 16 + column
    suit = [suits[indices[:, k]] for k in range(5)]
    lowest = np.minimum.reduce(suit)  # a natural's suit: jokers are 4
    suited = np.logical_and.reduce([(s == lowest) | (s == 4) for s in suit])
    kind = kind * 2 + suited
    row = np.zeros(1 << 21, dtype=np.intp)
    row[kind] = np.arange(len(indices))  # some row of each kind
    present = np.zeros(1 << 21, dtype=bool)
    present[kind] = True
    return np.concatenate([row[present], np.random.default_rng(3).integers(0, len(indices), 100_000)])


# Kinds: 6,175 multisets of five ranks and 1,287 suited ones of five different
# ranks; with a joker, 1,820 + 715 of four naturals, with two, 455 + 286 of three.
@pytest.mark.parametrize(
    ("rules", "kinds"),
    [("ace-king", 7_462), ("semi", 7_462), ("joker", 10_738), ("one-joker", 9_997), ("ace-to-five", 7_462), ("deuce-to-seven", 7_462)],
)
@pytest.mark.slow
def test_the_single_hand_path_equals_the_batch_path_on_every_kind_of_hand(rules: str, kinds: int) -> None:
    """The other rule sets: their lookup tables on one hand of every kind the
    deck holds (the strength depends on nothing else) and 100,000 more."""
    deck = whole_deck(rules)
    rows = kinds_of_hand(deck.indices)
    assert len(rows) == kinds + 100_000
    single = strength_function(rules)
    found = [single(hand) for hand in deck.cards[deck.indices[rows]].tolist()]
    assert found == deck.strengths[rows].tolist()


@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_the_census_counts_every_hand(rules: str) -> None:
    """batch.census_counts (which walks the deck its own way) counts each
    strength as often as the whole deck has it."""
    deck = whole_deck(rules)
    counts = batch.census_counts(rules)
    assert np.array_equal(counts, np.bincount(deck.strengths, minlength=tables_for(get_rules(rules)).size + 1))
    assert counts[0] == 0
