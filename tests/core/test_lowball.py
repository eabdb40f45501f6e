"""Lowball: ``ace-to-five`` and ``deuce-to-seven``, the best hand the
lowest, with "higher strength is better" kept.

Every one of the 2,598,960 hands is classified by the reference evaluator
(tests/oracle.py: numpy over the whole deck, from the cards' ranks and suits
and its own description of the rules, not the library's codes or tables),
and the library's counts, order and paths are checked against it hand for
hand; the order of the classes
against a comparator of two hands written here in plain Python; and the
order of random pairs of hands against pokerkit (an independent library:
its ``RegularLowHand`` is ace-to-five, its ``StandardLowHand`` deuce-to-seven).
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import oracle
import pytest
from helpers import oracle_keys, whole_deck

from fivecard import (
    Card,
    FivecardError,
    Hand,
    evaluate,
    get_rules,
    rule_names,
    showdown,
    strength_function,
)
from fivecard.vector import batch
from fivecard.cli import main
from fivecard.core.cards import CARDS
from fivecard.core.rules import STANDARD
from fivecard.core.showdown import explain
from fivecard.core.lookup import cache_key, tables_for

A5 = get_rules("ace-to-five")
D27 = get_rules("deuce-to-seven")
LOWBALL = ("ace-to-five", "deuce-to-seven")
ALL_HANDS = 2_598_960


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# --- the numbers, counted by hand (combinatorics, not the code) ---------------------------

#: Categories, weakest first (the lowball ladders: the standard ladder
#: reversed; ace-to-five has no straights nor flushes).
A5_NAMES = ("four_of_a_kind", "full_house", "three_of_a_kind", "two_pair", "one_pair", "no_pair")
D27_NAMES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "no_pair",
)

#: Hands per category. C(13, 5) = 1,287 sets of five ranks; deuce-to-seven
#: has nine straights (6-high to ace-high: A-2-3-4-5 is not one).
A5_HANDS = {
    "four_of_a_kind": 13 * 12 * 4,  # 624
    "full_house": 13 * 4 * 12 * 6,  # 3,744
    "three_of_a_kind": 13 * 4 * 66 * 16,  # 54,912
    "two_pair": 78 * 36 * 11 * 4,  # 123,552
    "one_pair": 13 * 6 * 220 * 64,  # 1,098,240
    "no_pair": 1_287 * 4**5,  # 1,317,888: suits do not count, straights neither
}
D27_HANDS = {
    "royal_flush": 4,
    "straight_flush": 8 * 4,  # 32: 6-high to king-high
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": (1_287 - 9) * 4,  # 5,112 (A-5-4-3-2 suited is a flush)
    "straight": 9 * (4**5 - 4),  # 9,180
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "no_pair": (1_287 - 9) * (4**5 - 4),  # 1,303,560
}
#: Classes (distinct strengths) per category, by the same counting.
A5_CLASSES = {
    "four_of_a_kind": 13 * 12,
    "full_house": 13 * 12,
    "three_of_a_kind": 13 * 66,
    "two_pair": 78 * 11,
    "one_pair": 13 * 220,
    "no_pair": 1_287,
}
D27_CLASSES = {
    "royal_flush": 1,
    "straight_flush": 8,
    "four_of_a_kind": 156,
    "full_house": 156,
    "flush": 1_278,
    "straight": 9,
    "three_of_a_kind": 858,
    "two_pair": 858,
    "one_pair": 2_860,
    "no_pair": 1_278,
}
EXPECTED: dict[str, tuple[tuple[str, ...], dict[str, int], dict[str, int], int]] = {
    "ace-to-five": (A5_NAMES, A5_HANDS, A5_CLASSES, 6_175),
    "deuce-to-seven": (D27_NAMES, D27_HANDS, D27_CLASSES, 7_462),
}


def test_expected_numbers_add_up() -> None:
    for names, hands, classes, total in EXPECTED.values():
        assert set(names) == set(hands) == set(classes)
        assert sum(hands.values()) == ALL_HANDS
        assert sum(classes.values()) == total
    # Deuce-to-seven is standard reversed without the wheel: A-5-4-3-2 leaves
    # the straights for No Pair and the straight flushes for Flush, so the
    # 7,462 classes of standard stay 7,462 (1,277 + 1 no-pair, 10 - 1 straights,
    # 1,277 + 1 flushes, 9 - 1 straight flushes below the royal).
    assert 1_277 + 1 == D27_CLASSES["no_pair"] == D27_CLASSES["flush"]
    assert D27_CLASSES["straight"] == 10 - 1 and D27_CLASSES["straight_flush"] == 9 - 1
    assert tables_for(STANDARD).size == 7_462


# --- the reference evaluator ---------------------------------------------------------------


def brute_force(rules: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every hand of the 52 cards (in ``batch.combinations(52)`` order): its
    category by the reference evaluator (tests/oracle.py; index into the
    names above, weakest first) and its key, which orders hands as lowball
    does, higher is better (the lower card makes the larger key)."""
    reference = oracle.RULES[rules]
    assert reference.ladder == EXPECTED[rules][0]
    key = oracle_keys(rules)
    return oracle.category(reference, key), key


@pytest.mark.parametrize("rules", LOWBALL)
@pytest.mark.slow
def test_every_hand_is_counted_as_the_brute_force_counts_it(rules: str) -> None:
    names, hands, classes, _ = EXPECTED[rules]
    category, key = brute_force(rules)
    strengths = whole_deck(rules).strengths
    assert len(strengths) == ALL_HANDS and 0 not in strengths
    tables = tables_for(get_rules(rules))
    assert [c.name for c in get_rules(rules).ladder] == list(names)
    ladder_index = np.frombuffer(tables.ladder_indices(), dtype=np.uint8).astype(np.int64)
    assert np.array_equal(ladder_index[strengths], category)  # hand for hand
    counted = {names[i]: int(n) for i, n in enumerate(np.bincount(category, minlength=len(names)))}
    assert counted == hands
    distinct = {names[i]: len(np.unique(key[category == i])) for i in range(len(names))}
    assert distinct == classes


@pytest.mark.parametrize("rules", LOWBALL)
def test_strengths_are_the_brute_force_order(rules: str) -> None:
    """Every strength used, as many as the brute force's distinct keys, and
    strength a strictly increasing function of the key: the same order on
    every pair of hands."""
    total = EXPECTED[rules][3]
    _, key = brute_force(rules)
    strengths = whole_deck(rules).strengths
    assert tables_for(get_rules(rules)).size == total
    assert set(np.unique(strengths).tolist()) == set(range(1, total + 1))
    assert len(np.unique(key)) == total
    order = np.argsort(strengths, kind="stable")
    s, k = strengths[order].astype(np.int64), key[order]
    assert np.array_equal(np.sign(np.diff(s)), np.sign(np.diff(k)))


# --- the order of the classes, by a comparator of two hands ------------------------------


def low_compare(rules: str, a: Sequence[Card], b: Sequence[Card]) -> int:
    """1 if hand ``a`` is the better low hand, -1 if ``b`` is, 0 for a draw:
    written from the rules' text alone, one hand at a time, no arrays."""

    def height(card: Card) -> int:
        assert card.rank is not None
        return 1 if rules == "ace-to-five" and card.rank == 14 else int(card.rank)

    def badness(cards: Sequence[Card]) -> tuple[int, list[int]]:
        counts = Counter(height(c) for c in cards)
        groups = sorted(counts.items(), key=lambda g: (g[1], g[0]), reverse=True)
        shape = sorted(counts.values(), reverse=True)
        ranks = [r for r, _ in groups]
        flush = len({c.suit for c in cards}) == 1
        straight = len(counts) == 5 and max(counts) - min(counts) == 4
        if rules == "ace-to-five":  # pairs and more count against you, nothing else
            level = {(4, 1): 5, (3, 2): 4, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
        elif straight and flush:
            level = 9 if max(counts) == 14 else 8
        else:
            level = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
            if shape == [1] * 5 and flush:
                level = 5
            elif shape == [1] * 5 and straight:
                level = 4
            if straight:
                ranks = [max(counts)]
        return level, ranks

    (level_a, ranks_a), (level_b, ranks_b) = badness(a), badness(b)
    if level_a != level_b:
        return 1 if level_a < level_b else -1
    for x, y in zip(ranks_a, ranks_b):
        if x != y:
            return 1 if x < y else -1
    return 0


@pytest.mark.parametrize("rules", LOWBALL)
@pytest.mark.slow
def test_the_classes_are_in_the_order_of_an_independent_comparator(rules: str) -> None:
    """One hand of each class, sorted by :func:`low_compare`: they come out in
    strength order 1, 2, ..., N, and neighbours never draw."""
    deck = whole_deck(rules)
    first = np.unique(deck.strengths, return_index=True)[1]
    cards = [[CARDS[i] for i in deck.indices[row].tolist()] for row in first.tolist()]
    strengths = [int(deck.strengths[row]) for row in first.tolist()]
    rng = random.Random(rules)
    shuffled = list(zip(cards, strengths))
    rng.shuffle(shuffled)

    def compare(x: tuple[list[Card], int], y: tuple[list[Card], int]) -> int:
        return low_compare(rules, x[0], y[0])

    ordered = sorted(shuffled, key=functools.cmp_to_key(compare))
    assert [s for _, s in ordered] == list(range(1, EXPECTED[rules][3] + 1))
    assert all(low_compare(rules, ordered[i + 1][0], ordered[i][0]) == 1 for i in range(len(ordered) - 1))


# --- every path, every hand ---------------------------------------------------------------


@pytest.mark.parametrize("rules", LOWBALL)
@pytest.mark.slow
def test_the_single_hand_path_equals_the_batch_path_on_every_hand(rules: str) -> None:
    """strength_function (behind strength and evaluate) on all 2,598,960
    hands; the text path and the text encoder on 50,000 of them."""
    deck = whole_deck(rules)
    single = strength_function(rules)
    found = np.fromiter(
        map(single, itertools.combinations(deck.cards.tolist(), 5)), dtype=np.uint16, count=ALL_HANDS
    )
    assert np.array_equal(found, deck.strengths)
    rows = np.random.default_rng(13).integers(0, ALL_HANDS, 50_000)
    texts = [" ".join(CARDS[i].code_str for i in deck.indices[row].tolist()) for row in rows.tolist()]
    text = strength_function(rules, text=True)
    assert [text(t) for t in texts] == deck.strengths[rows].tolist()
    encoded = batch.encode(texts, rules=rules)
    assert not encoded.errors
    assert np.array_equal(batch.strengths(encoded), deck.strengths[rows])


@pytest.mark.parametrize("rules", LOWBALL)
@pytest.mark.slow
def test_evaluate_and_the_census_agree_on_every_class(rules: str) -> None:
    deck = whole_deck(rules)
    assert np.array_equal(batch.census_counts(rules), np.bincount(deck.strengths, minlength=EXPECTED[rules][3] + 1))
    first = np.unique(deck.strengths, return_index=True)[1]
    for row in first.tolist():
        cards = [CARDS[i] for i in deck.indices[row].tolist()]
        e = evaluate(cards, rules=rules)
        assert e.strength == int(deck.strengths[row])
        assert sorted(e.showdown, key=id) == sorted(cards, key=id)


# --- an independent oracle: pokerkit ------------------------------------------------------


@pytest.mark.parametrize(("rules", "kind"), [("ace-to-five", "RegularLowHand"), ("deuce-to-seven", "StandardLowHand")])
@pytest.mark.slow
def test_pokerkit_orders_random_pairs_of_hands_the_same_way(rules: str, kind: str) -> None:
    """20,000 random pairs of hands (and some pairs of one class, for
    draws): the same sign of comparison as pokerkit's low hands.
    (``RegularLowHand``: ace low, straights and flushes ignored;
    ``StandardLowHand``: the standard lookup without the wrap, read low.)"""
    import pokerkit

    hand_type = getattr(pokerkit, kind)
    rng = random.Random(f"pokerkit {rules}")
    deck = [c.code_str for c in get_rules(rules).deck()]
    score = strength_function(rules)
    codes = {c.code_str: c.index for c in get_rules(rules).deck()}
    draws = 0
    for n in range(20_000):
        a = rng.sample(deck, 5)
        if n % 10 == 0:  # the same ranks in other suits: often a draw
            suits = {s: t for s, t in zip("shdc", rng.sample("shdc", 4))}
            b = [c[0] + suits[c[1]] for c in a]
        else:
            b = rng.sample(deck, 5)
        mine = score([codes[c] for c in a]) - score([codes[c] for c in b])
        ha, hb = hand_type("".join(a)), hand_type("".join(b))
        theirs = (ha > hb) - (ha < hb)
        assert (mine > 0) - (mine < 0) == theirs, (a, b)
        draws += theirs == 0
    assert draws > 500


# --- examples -----------------------------------------------------------------------------


def test_names_aliases_titles_and_data() -> None:
    assert rule_names()[-2:] == ["ace-to-five", "deuce-to-seven"]
    for alias in ("ace-to-five", "A5", "a-5", "ace-five"):
        assert get_rules(alias) is A5
    for alias in ("deuce-to-seven", "2-7", "Kansas-City", "deuce-seven"):
        assert get_rules(alias) is D27
    assert (A5.low, A5.ace_low, A5.wheel, A5.suits) == (True, True, False, True)
    assert (D27.low, D27.ace_low, D27.wheel, D27.suits) == (True, False, False, True)
    assert A5.deck() == D27.deck() == STANDARD.deck()
    # deuce-to-seven's ladder is standard's reversed, No Pair for High Card
    assert [c.name for c in D27.ladder] == ["no_pair" if c.name == "high_card" else c.name for c in reversed(STANDARD.ladder)]
    assert len({cache_key(r) for r in (A5, D27, STANDARD)}) == 3
    with pytest.raises(ValueError, match="an ace that is low only has no wheel"):
        type(A5)(name="x", summary="x", ladder=A5.ladder, ace_low=True, wheel=True)


@pytest.mark.parametrize(
    ("rules", "text", "description", "score", "strength"),
    [
        ("ace-to-five", "AS 2D 3C 4H 5S", "Five-Four low, 5-4-3-2-A (the wheel)", 6, 6_175),
        ("ace-to-five", "5H 4H 3H 2H AH", "Five-Four low, 5-4-3-2-A (the wheel)", 6, 6_175),  # no flush
        ("ace-to-five", "6S 4D 3C 2H AS", "Six-Four low, 6-4-3-2-A", 6, 6_174),
        ("ace-to-five", "6S 5D 4C 3H 2D", "Six-Five low, 6-5-4-3-2", 6, 6_170),  # no straight
        ("ace-to-five", "KS QD JC TH AS", "King-Queen low, K-Q-J-10-A", 6, 4_897),  # the ace low
        ("ace-to-five", "AS AD 2C 3H 4S", "One Pair, Aces, 4-3-2 kickers", 5, 4_888),  # the best pair
        ("ace-to-five", "2S 2D 5C 3H AS", "One Pair, Twos, 5-3-A kickers", 5, 4_667),
        ("ace-to-five", "AS AD 2C 2H 3S", "Two Pair, Twos and Aces, Three kicker", 4, 2_028),
        ("ace-to-five", "KS KH KD KC QS", "Four of a Kind, Kings, Queen kicker", 1, 1),  # the worst
        ("ace-to-five", "KS KH KD KC AS", "Four of a Kind, Kings, Ace kicker", 1, 12),
        ("deuce-to-seven", "7S 5D 4C 3H 2S", "Seven-Five low, 7-5-4-3-2", 10, 7_462),  # the best
        ("deuce-to-seven", "7S 6D 4C 3H 2S", "Seven-Six low, 7-6-4-3-2", 10, 7_461),
        ("deuce-to-seven", "8S 5D 4C 3H 2S", "Eight-Five low, 8-5-4-3-2", 10, 7_458),
        ("deuce-to-seven", "AS 2D 3C 4H 5S", "Ace-Five low, A-5-4-3-2", 10, 6_678),  # no straight
        ("deuce-to-seven", "AS KD QC JH 9S", "Ace-King low, A-K-Q-J-9", 10, 6_185),  # the worst no pair
        ("deuce-to-seven", "2S 2D 5C 4H 3S", "One Pair, Twos, 5-4-3 kickers", 9, 6_184),  # the best pair
        ("deuce-to-seven", "2S 2D 7C 5H 3S", "One Pair, Twos, 7-5-3 kickers", 9, 6_179),
        ("deuce-to-seven", "6S 5D 4C 3H 2D", "Straight, Six high", 6, 1_608),  # the best straight
        ("deuce-to-seven", "AS KD QC JH TS", "Straight, Ace high", 6, 1_600),  # the worst straight
        ("deuce-to-seven", "7S 5S 4S 3S 2S", "Flush, 7-5-4-3-2", 5, 1_599),  # the best flush
        ("deuce-to-seven", "AS 2S 3S 4S 5S", "Flush, A-5-4-3-2", 5, 815),  # no straight flush
        ("deuce-to-seven", "6S 5S 4S 3S 2S", "Straight Flush, Six high", 2, 9),
        ("deuce-to-seven", "AS KS QS JS TS", "Royal Flush", 1, 1),  # the worst
    ],
)
def test_examples(rules: str, text: str, description: str, score: int, strength: int) -> None:
    e = evaluate(text, rules=rules)
    assert (str(e), e.description, e.score, e.strength) == (description, description, score, strength)


def test_showdown_order_puts_the_low_ace_last() -> None:
    def order(text: str, rules: str) -> str:
        return " ".join(c.code_str for c in evaluate(text, rules=rules).showdown)

    assert order("AS 2D 3C 4H 5S", "ace-to-five") == "5s 4h 3c 2d As"
    assert order("AS 2D 2C KH 5S", "ace-to-five") == "2d 2c Kh 5s As"
    assert order("AS AD 2C 2H 3S", "ace-to-five") == "2h 2c As Ad 3s"
    assert order("AS 2D 3C 4H 5S", "deuce-to-seven") == "As 5s 4h 3c 2d"


# --- explanations -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "hands", "explanation"),
    [
        (
            "deuce-to-seven",
            ["7S 5D 4C 3H 2S", "8S 5C 4D 3D 2H"],
            "Hand 1 wins: both No Pair; the first card decides, 7 beats 8 (lower is better)",
        ),
        (
            "deuce-to-seven",
            ["7S 6D 5C 4H 2S", "7D 5S 4D 3D 2H"],
            "Hand 2 wins: both No Pair; the second card decides, 5 beats 6 (lower is better)",
        ),
        ("deuce-to-seven", ["2S 2D 7C 5H 3S", "KD QC JD 9D 8H"], "Hand 2 wins: No Pair beats One Pair"),
        ("deuce-to-seven", ["6S 5D 4C 3H 2D", "7D 5C 4D 3C 2H"], "Hand 2 wins: No Pair beats Straight"),
        ("deuce-to-seven", ["7S 5S 4S 3S 2S", "KD QC JD 9D 8H"], "Hand 2 wins: No Pair beats Flush"),
        ("deuce-to-seven", ["AS KS QS JS TS", "KH QH JH TH 9H"], "Hand 2 wins: Straight Flush beats Royal Flush"),
        (
            "deuce-to-seven",
            ["6S 5D 4C 3H 2D", "7D 6C 5H 4S 3C"],
            "Hand 1 wins: both Straight; the top card decides, 6 beats 7 (lower is better)",
        ),
        (
            "deuce-to-seven",
            ["7S 7D 3C 3H KS", "8H 8C 2D 2S KH"],
            "Hand 1 wins: both Two Pair; the higher pair decides, Sevens beat Eights (lower is better)",
        ),
        (
            "deuce-to-seven",
            ["7S 5D 4C 3H 2S", "7D 5C 4D 3D 2H"],
            "Draw: both Seven-Five low, 7-5-4-3-2; suits never break ties",
        ),
        (
            "ace-to-five",
            ["AS 2D 3C 4H 6S", "AD 2C 3D 4D 5H"],
            "Hand 2 wins: both No Pair; the first card decides, 5 beats 6 (lower is better)",
        ),
        (
            "ace-to-five",
            ["AS AD 3C 4H 6S", "2S 2C 3D 4D 5H"],
            "Hand 1 wins: both One Pair; the pair decides, Aces beat Twos (lower is better; the ace is low)",
        ),
        (
            "ace-to-five",
            ["6S 5D 4C 3H 2S", "6D 5C 4D 3D AH"],
            "Hand 2 wins: both No Pair; the fifth card decides, A beats 2 (lower is better; the ace is low)",
        ),
        (
            "ace-to-five",
            ["5S 4S 3S 2S AS", "5D 4C 3D 2D AH"],
            "Draw: both Five-Four low, 5-4-3-2-A (the wheel); suits never break ties",
        ),
        ("ace-to-five", ["KS KH KD KC QS", "9H 9C 9D 8S 8H"], "Hand 2 wins: Full House beats Four of a Kind"),
    ],
)
def test_explanations(rules: str, hands: list[str], explanation: str) -> None:
    assert showdown(hands, rules=rules).explanation == explanation
    assert explain(hands[0], hands[1], rules=rules) == explanation.split(": ", 1)[1]


@pytest.mark.parametrize("rules", LOWBALL)
@pytest.mark.slow
def test_the_batch_explanations_equal_showdown_on_random_pairs(rules: str) -> None:
    """The bulk pipeline explains two-hand showdowns by a key per case;
    on 3,000 random pairs it says what :func:`showdown` says."""
    rng = random.Random(rules)
    deck = [c.code_str for c in get_rules(rules).deck()]
    lines = []
    for _ in range(3_000):
        cards = rng.sample(deck, 10)
        lines.append(" ".join(cards[:5]) + " | " + " ".join(cards[5:]))
    code, out, _ = run(["solve", "--rules", rules, "--format", "jsonl", "-"], "\n".join(lines) + "\n")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3_000
    for line, row in zip(lines, rows):
        assert row["explanation"] == showdown(line.split(" | "), rules=rules).explanation


# --- every command ------------------------------------------------------------------------


def test_classify_compare_and_rules() -> None:
    code, out, _ = run(["classify", "--rules", "a5", "AS 2D 3C 4H 5S"])
    assert code == 0 and "5♠  4♥  3♣  2♦  A♠  Five-Four low, 5-4-3-2-A (the wheel)  (score 6, strength 6,175)" in out
    code, out, _ = run(["compare", "--rules", "2-7", "--json", "7S 5D 4C 3H 2S", "6D 5H 4S 3C 2D"])
    data = json.loads(out)
    assert code == 0 and data["winners"] == [1] and data["explanation"] == "Hand 1 wins: No Pair beats Straight"
    assert [h["category"] for h in data["hands"]] == ["no_pair", "straight"]
    assert data["hands"][0]["description"] == "Seven-Five low, 7-5-4-3-2"
    code, out, _ = run(["rules"])
    assert code == 0
    assert "ace-to-five (also: a5, a-5, ace-five): lowball" in out
    assert "6 No Pair, 5 One Pair, 4 Two Pair, 3 Three of a Kind, 2 Full House, 1 Four of a Kind" in out
    assert "deuce-to-seven (also: 2-7, kansas-city, deuce-seven): lowball" in out
    assert "10 No Pair, 9 One Pair, 8 Two Pair, 7 Three of a Kind, 6 Straight, 5 Flush" in out
    code, out, _ = run(["classify", "--help"])
    assert "ace-to-five, deuce-to-seven" in " ".join(out.split()).replace("deuce-to- seven", "deuce-to-seven")


@pytest.mark.parametrize("rules", LOWBALL)
def test_stats_counts_every_hand(rules: str) -> None:
    names, hands, classes, total = EXPECTED[rules]
    code, out, _ = run(["stats", "--rules", rules, "--json"])
    data = json.loads(out)
    assert code == 0 and (data["rules"], data["hands"], data["classes"]) == (rules, ALL_HANDS, total)
    assert [c["category"] for c in data["categories"]] == list(reversed(names))  # strongest first
    assert {c["category"]: c["hands"] for c in data["categories"]} == hands
    assert {c["category"]: c["classes"] for c in data["categories"]} == classes


@pytest.mark.parametrize("rules", LOWBALL)
def test_deal_settles_low(rules: str) -> None:
    code, out, _ = run(["deal", "--rules", rules, "--players", "4", "--seed", "3", "--json"])
    assert code == 0
    data = json.loads(out)
    round_ = data["rounds"][0]
    hands = [" ".join(h["cards"]) for h in round_["hands"]]
    assert round_["explanation"] == showdown(hands, rules=rules).explanation


def test_solve_writes_every_format(tmp_path: Path) -> None:
    import openpyxl

    source = tmp_path / "showdowns.txt"
    source.write_text("6S 5D 4C 3H 2D | 7D 5C 4D 3C 2H\nAS KS QS JS TS\n", encoding="utf-8")
    expected = {
        "ace-to-five": ("1", "Hand 1 wins: both No Pair; the first card decides, 6 beats 7 (lower is better)"),
        "deuce-to-seven": ("2", "Hand 2 wins: No Pair beats Straight"),
    }
    for rules, (winner, explanation) in expected.items():
        code, out, _ = run(["solve", "--rules", rules, str(source)])
        assert code == 0 and explanation in out
        for ext in ("csv", "jsonl", "xlsx"):
            target = tmp_path / f"{rules}.{ext}"
            code, _, _ = run(["solve", "--rules", rules, str(source), "-o", str(target)])
            assert code == 0
        csv_text = (tmp_path / f"{rules}.csv").read_text(encoding="utf-8")
        assert f",{winner},{explanation}," in csv_text.replace('"', "")
        rows = [json.loads(line) for line in (tmp_path / f"{rules}.jsonl").read_text(encoding="utf-8").splitlines()]
        assert rows[0]["explanation"] == explanation
        assert rows[1]["hands"][0]["category"] == ("no_pair" if rules == "ace-to-five" else "royal_flush")
        sheet = openpyxl.load_workbook(tmp_path / f"{rules}.xlsx").worksheets[0]
        values = [list(row) for row in sheet.iter_rows(values_only=True)]
        header = values[0]
        assert values[1][header.index("explanation")] == explanation
        assert values[2][header.index("Step 2: hand 1 category")] == (
            "No Pair" if rules == "ace-to-five" else "Royal Flush"
        )


def test_advise_keeps_the_low_cards_and_a_pay_table_is_an_error() -> None:
    from fivecard.files.paytable_file import load_paytable
    from fivecard.play.advise import advise
    from fivecard.play.paytables import PayTableError

    advice = advise("AS 2H 3C KD KS", rules="ace-to-five")
    assert advice.recommended.keep == Hand.parse("AS 2H 3C KD KS").cards[:3]
    advice = advise("7S 5H 3C 2D 2S", rules="deuce-to-seven")
    assert len(advice.recommended.keep) == 4 and Card.parse("7S") in advice.recommended.keep
    with pytest.raises(PayTableError, match="a pay table pays high hands .video poker., but the ace-to-five rules"):
        advise("AS 2H 3C KD KS", rules="a5", paytable=load_paytable("jacks-or-better"))
    assert issubclass(PayTableError, FivecardError)
    code, _, err = run(["advise", "--rules", "2-7", "--paytable", "jacks-or-better", "7S 5H 3C 2D 2S"])
    assert code == 2 and "the deuce-to-seven rules rank low hands" in err
    code, out, _ = run(["advise", "--rules", "ace-to-five", "AS 2H 3C KD KS"])
    assert code == 0 and "Recommended (*): Keep A♠ 2♥ 3♣, exchange 2" in out


def test_one_scripted_round_of_play() -> None:
    code, out, _ = run(["play", "--seed", "4", "--rules", "deuce-to-seven"], "a\nq\n")
    assert code == 0 and "(deuce-to-seven rules" in out and "Dealer has" in out
    assert "The dealer beats you: both Two Pair; the higher pair decides, Eights beat Nines (lower is better)" in out
    assert "Computer 1 beats the dealer: No Pair beats Two Pair" in out
    assert "Computer 1 takes the pot of 30: both No Pair; the first card decides, Q beats A (lower is better)" in out


def test_the_checker_page_lists_them(tmp_path: Path) -> None:
    import warnings

    with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from fivecard.web.app import create_app

    client = TestClient(create_app(tmp_path, allow_hosts=["testserver"]))
    page = client.get("/check", params=[("rules", "deuce-to-seven"), ("hand", "7S 5D 4C 3H 2S"), ("hand", "8S 5C 4D 3D 2H")])
    assert page.status_code == 200
    assert '<option value="ace-to-five"' in page.text and '<option value="deuce-to-seven"' in page.text
    assert "Seven-Five low, 7-5-4-3-2" in page.text
    assert "both No Pair; the first card decides, 7 beats 8 (lower is better)" in page.text
    answer = client.post("/api/compare", json={"hands": ["AS 2D 3C 4H 5S", "6S 4D 3H 2H AH"], "rules": "a5"})
    assert answer.status_code == 200 and answer.json()["winners"] == [1]
