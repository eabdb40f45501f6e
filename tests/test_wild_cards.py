"""Wild cards of the deck (``deuces-wild``, ``one-eyed-jacks``) against an
independent brute-force substitution, on every hand of the 52-card deck.

The library never substitutes per hand: it looks a wild card up as a joker in
a table built from rank counts. This test does substitute: for each set of
natural cards and each number of wild cards it tries every choice of distinct
cards not among the naturals for the wild cards, keeps the best standard
class, and counts all five of a rank (naturals of one rank plus wild cards)
as Five of a Kind. Classes are compared by name and key through the joker
rule set's numbering (standard's 7,462 classes, then Five of a Kind), so the
check does not lean on the new tables' own numbering.
"""

from __future__ import annotations

import io
import itertools
import random
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from helpers import best_by_substitution

from fivecard import evaluate, get_rules, showdown
from fivecard.vector import batch
from fivecard.core.evaluate import strength_function, text_strength_function
from fivecard.cli import main
from fivecard.core.rules import RuleSet, wild_rules
from fivecard.core.errors import RulesError
from fivecard.core.lookup import KEY_SPACE, tables_for

STANDARD_CLASSES = 7_462
DECK = batch.CARDS[:52]

#: Exhaustive counts over the 2,598,960 hands of the 52-card deck, by category
#: (the README's tables), and the number of distinct strengths.
COUNTS = {
    "deuces-wild": (
        {
            "five_of_a_kind": 672,
            "royal_flush": 484,
            "straight_flush": 2_068,
            "four_of_a_kind": 31_552,
            "full_house": 12_672,
            "flush": 14_472,
            "straight": 62_232,
            "three_of_a_kind": 355_080,
            "two_pair": 95_040,
            "one_pair": 1_225_008,
            "high_card": 799_680,
        },
        5_162,
    ),
    "one-eyed-jacks": (
        {
            "five_of_a_kind": 72,
            "royal_flush": 54,
            "straight_flush": 480,
            "four_of_a_kind": 8_328,
            "full_house": 8_112,
            "flush": 9_476,
            "straight": 28_938,
            "three_of_a_kind": 199_758,
            "two_pair": 102_960,
            "one_pair": 1_188_652,
            "high_card": 1_052_130,
        },
        7_471,
    ),
}


def to_joker_numbering(rules: RuleSet) -> npt.NDArray[np.int64]:
    """Strength under ``rules`` -> the strength of the same class (category
    and key) under ``joker`` (index 0 -> 0)."""
    joker = tables_for(get_rules("joker"))
    number = {(c.category.name, c.key): c.strength for c in joker.classes()}
    mine = tables_for(rules)
    mapped = [0] + [number[c.category.name, c.key] for c in mine.classes()]
    return np.array(mapped, dtype=np.int64)


def wild_indices(rules: RuleSet) -> list[int]:
    return [i for i, c in enumerate(DECK) if rules.is_wild(c)]


@pytest.mark.parametrize("name", ["deuces-wild", "one-eyed-jacks", "standard+wild(3 Kd)"])
def test_every_hand_matches_best_by_substitution(name: str) -> None:
    """Every hand of the deck: naturals alone by the standard table, hands
    with k wild cards by brute force on their naturals (which wild cards
    they are does not matter: the single-hand path on every hand shows it)."""
    rules = get_rules(name)
    wild = wild_indices(rules)
    natural = np.array([i for i in range(52) if i not in wild], dtype=np.uint8)
    mapped = to_joker_numbering(rules)
    # Strength order is class order: the mapping is increasing.
    assert np.all(np.diff(mapped) > 0)
    standard = np.frombuffer(tables_for(get_rules("standard")).lookup, dtype=np.uint16)
    categories = tables_for(get_rules("joker"))
    expected_counts: dict[str, int] = {}

    def tally(values: npt.NDArray[np.int64], times: int) -> None:
        for strength, count in enumerate(np.bincount(values).tolist()):
            if count:
                category = categories.hand_class(strength).category.name
                expected_counts[category] = expected_counts.get(category, 0) + count * times

    # No wild card: the standard class.
    hands = natural[batch.combinations(len(natural), 5)]
    codes = batch.CODES[hands]
    ours = mapped[batch.strengths_of_codes(codes, rules=rules)]
    keys = (codes.astype(np.int64).sum(axis=1) >> 7) + KEY_SPACE * (
        np.bitwise_and.reduce(codes, axis=1) & 15 != 0
    )
    assert np.array_equal(ours, standard[keys].astype(np.int64))
    tally(ours, 1)
    checked = len(hands)
    for k in range(1, len(wild) + 1):
        if k == 5:  # five wild cards, no natural: Five of a Kind, Aces
            codes = batch.CODES[list(itertools.combinations(wild, 5))]
            ours = mapped[batch.strengths_of_codes(codes, rules=rules)]
            assert (ours == STANDARD_CLASSES + 13).all()
            tally(ours, 1)
            checked += len(ours)
            continue
        naturals = natural[batch.combinations(len(natural), 5 - k)]
        codes = np.column_stack([batch.CODES[naturals], np.tile(batch.CODES[wild[:k]], (len(naturals), 1))])
        ours = mapped[batch.strengths_of_codes(codes, rules=rules)]
        expected = best_by_substitution(naturals)
        wrong = np.flatnonzero(ours != expected)
        assert not len(wrong), [DECK[i].code_str for i in naturals[wrong[0]]]
        tally(ours, comb(len(wild), k))
        checked += len(naturals) * comb(len(wild), k)
    assert checked == 2_598_960
    # The census (every hand of the dealt deck) agrees with the brute force.
    census = batch.census_counts(rules)
    found: dict[str, int] = {}
    for strength, count in enumerate(census.tolist()):
        if count:
            category = tables_for(rules).hand_class(strength).category.name
            found[category] = found.get(category, 0) + count
    assert found == expected_counts
    # Every class is dealt: strengths 1 ... size, none missing.
    assert int((census[1:] > 0).sum()) == tables_for(rules).size
    if name in COUNTS:
        assert found == COUNTS[name][0]
        assert tables_for(rules).size == COUNTS[name][1]


@pytest.mark.parametrize("name", ["deuces-wild", "one-eyed-jacks"])
def test_single_hand_and_batch_paths_agree_on_every_hand(name: str) -> None:
    rules = get_rules(name)
    indices = batch.combinations(52, 5)
    codes = batch.CODES[indices]
    strengths = batch.strengths_of_codes(codes, rules=rules)
    assert strengths.min() >= 1
    single = strength_function(rules)
    found = np.fromiter(map(single, codes.tolist()), dtype=np.uint16, count=len(codes))
    assert np.array_equal(found, strengths)
    by_index = batch.encode_indices(indices, rules=rules)
    assert not by_index.errors
    assert np.array_equal(batch.strengths(by_index), strengths)
    # The text paths and evaluate on a seeded sample and every hand with the most wild cards.
    rng = random.Random(13)
    wild = set(wild_indices(rules))
    most = [i for i, row in enumerate(indices.tolist()) if len(wild.intersection(row)) >= min(3, len(wild))]
    sample = sorted(set(rng.sample(range(len(indices)), 20_000)) | set(most))
    texts = [" ".join(DECK[i].code_str for i in indices[k]) for k in sample]
    text = text_strength_function(rules)
    assert [text(t) for t in texts] == strengths[sample].tolist()
    encoded = batch.encode(texts, rules=rules)
    assert not encoded.errors
    assert np.array_equal(batch.strengths(encoded), strengths[sample])
    for t, s in zip(texts[::20], strengths[sample][::20].tolist()):
        e = evaluate(t, rules=rules)
        assert e.strength == s
        assert e.natural == (not any(rules.is_wild(c) for c in e.hand.cards))
        # What the wild cards became, with the naturals, makes the class.
        wilds = [c for c in e.hand.cards if rules.is_wild(c)]
        assert len(e.jokers) == len(wilds)
        made = [c for c in e.hand.cards if not rules.is_wild(c)] + list(e.jokers)
        if e.category_id != "five_of_a_kind":
            assert len(set(made)) == 5
            assert evaluate(made, rules="standard").key == e.key
            assert evaluate(made, rules="standard").category_id == e.category_id


def test_deuces_wild_examples() -> None:
    five = evaluate("2S 2H 2D 2C AS", rules="deuces-wild")
    assert five.category_id == "five_of_a_kind" and five.description == "Five of a Kind, Aces"
    assert not five.natural
    wild_royal = evaluate("2S KS QS JS TS", rules="deuces-wild")
    assert wild_royal.category_id == "royal_flush" and not wild_royal.natural
    assert [c.code_str for c in wild_royal.jokers] == ["As"]
    natural_royal = evaluate("AS KS QS JS TS", rules="deuces-wild")
    assert natural_royal.natural and natural_royal.jokers == ()
    assert natural_royal == wild_royal  # natural and wild hands of equal value draw
    assert five > natural_royal
    # A wild 2 may stand for a 2: A-3-4-5 and a deuce make the wheel.
    wheel = evaluate("AH 3D 4C 5S 2C", rules="deuces-wild")
    assert wheel.description == "Straight, Five high"
    # Two of one 2 is still a duplicate.
    with pytest.raises(ValueError, match="duplicate card 2♠"):
        evaluate("2S 2S 3D 4C 5S", rules="deuces-wild")
    result = showdown(["2C 2D 7H 7S 9C", "AS AH AD KC KD"], rules="deuces-wild")
    assert result.winners == (0,)  # four sevens beat a full house


def test_one_eyed_jacks_examples() -> None:
    natural = evaluate("JC JD 3S 4S 5S", rules="one-eyed-jacks")
    assert natural.natural and natural.description == "One Pair, Jacks, 5-4-3 kickers"
    wild = evaluate("JS JH JC JD AS", rules="one-eyed-jacks")
    assert wild.category_id == "four_of_a_kind" and not wild.natural
    five = evaluate("JS JH AC AD AS", rules="one-eyed-jacks")
    assert five.category_id == "five_of_a_kind"
    royal = evaluate("JH AS KS QS TS", rules="one-eyed-jacks")
    assert royal.category_id == "royal_flush"
    assert [c.code_str for c in royal.jokers] == ["Js"]
    # J♣ is natural: no royal flush here, only an ace-high straight.
    assert evaluate("JC AS KS QS TS", rules="one-eyed-jacks").description == "Straight, Ace high"


def test_wild_rules_are_named_and_made_once() -> None:
    assert wild_rules("2").name == "standard+wild(2)"
    assert wild_rules("JS, JH").name == "standard+wild(Js Jh)"
    assert wild_rules(["JH", "JS"]) is wild_rules("js jh") is get_rules("Standard+Wild(JS JH)")
    assert wild_rules("2S 2H 2D 2C") is wild_rules("2") is get_rules("standard+wild(2)")
    rules = wild_rules("JS JH")
    assert [c.name for c in rules.ladder] == [c.name for c in get_rules("one-eyed-jacks").ladder]
    # The same wild cards as a built-in rule set: the same table.
    for cards, name in (("JS JH", "one-eyed-jacks"), ("2", "deuces-wild")):
        assert np.array_equal(batch.census_counts(wild_rules(cards)), batch.census_counts(name))
    with pytest.raises(RulesError, match="not a joker"):
        wild_rules("JK 2S")
    with pytest.raises(RulesError, match="no wild cards"):
        wild_rules(" ")
    with pytest.raises(ValueError, match="unknown rank"):
        wild_rules("1S")


def test_five_wild_cards_make_five_aces() -> None:
    rules = wild_rules("2 3")
    e = evaluate("2S 2H 3D 3C 3S", rules=rules)
    assert e.description == "Five of a Kind, Aces" and e.strength == tables_for(rules).size
    assert len(e.jokers) == 5 and not e.natural
    assert batch.census_counts(rules).sum() == 2_598_960


def test_wild_in_the_library() -> None:
    e = evaluate("2S KS QS JS TS", wild="2")
    assert e.rules is wild_rules("2") and e.category_id == "royal_flush"
    assert e.strength == evaluate("2S KS QS JS TS", rules="deuces-wild").strength  # the same table
    assert evaluate("2S KS QS JS TS", rules="standard", wild=["2S"]).category_id == "royal_flush"
    result = showdown(["JH AS KS QS TS", "JC AD KD QD TD"], wild="JS JH")
    assert result.winners == (0,)
    assert showdown(["JH AS KS QS TS", "JC AD KD QD TD"]).winners == (0, 1)  # standard: two straights
    with pytest.raises(RulesError, match="on top of the standard rules, not joker"):
        evaluate("2S KS QS JS TS", rules="joker", wild="2")


def run(*argv: str) -> tuple[int, str]:
    screen = io.StringIO()
    code = main(list(argv), stdin=io.StringIO(""), stdout=screen, stderr=screen)
    return code, screen.getvalue()


def test_wild_on_the_command_line() -> None:
    code, text = run("classify", "--wild", "2", "2S 2H 2D 2C AS")
    assert code == 0 and "Five of a Kind, Aces  [wild as A♥, A♦, A♣, A]" in text
    code, text = run("compare", "--wild", "JS JH", "JH AS KS QS TS", "JC AD KD QD TD")
    assert code == 0 and "Hand 1 wins: Royal Flush beats Straight" in text
    code, text = run("classify", "--json", "--wild", "JS JH", "JS 9H TH QH KH")
    assert code == 0 and '"rules": "standard+wild(Js Jh)"' in text and '"natural": false' in text
    code, text = run("stats", "--wild", "2")
    assert code == 0 and "standard+wild(2)" in text and "5,162" in text
    code, text = run("deal", "--wild", "2", "--seed", "1")
    assert code == 0
    code, text = run("classify", "--rules", "joker", "--wild", "2", "2S 2H 2D 2C AS")
    assert code == 2 and "on top of the standard rules, not joker" in text
    code, text = run("classify", "--wild", "JK", "2S 2H 2D 2C AS")
    assert code == 2 and "not a joker" in text
