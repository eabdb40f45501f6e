"""The short-deck rule set: 36 cards, 6 to A; a flush beats a full
house; A-6-7-8-9 is the lowest straight.

Every one of the C(36, 5) = 376,992 hands is classified by the reference
evaluator (tests/oracle.py: numpy over the whole deck, from the cards' ranks
and suits and its own description of the rules, not the library's codes or
tables), and the library's counts, order and paths are checked against it
hand for hand.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from functools import cache

import helpers
import numpy as np
import numpy.typing as npt
import oracle
import pytest
from helpers import oracle_keys

from fivecard import (
    HandError,
    evaluate,
    full_deck,
    get_rules,
    rule_names,
    showdown,
    strength_function,
)
from fivecard.vector import batch
from fivecard.cli import main
from fivecard.core.cards import CARDS, Rank
from fivecard.core.showdown import explain
from fivecard.core.lookup import cache_key, tables_for

RULES = get_rules("short-deck")


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()

#: The 36 cards, as the library deals them (checked below to be 6 to A).
DECK = RULES.deck()
RANK = np.array([int(c.rank) for c in DECK if c.rank is not None], dtype=np.int64)

# Categories of the short deck, weakest first (flush above full house).
NAMES = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "full_house",
    "flush",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)

#: Hands per category, counted by hand (combinatorics, not the code): 9 ranks,
#: 4 suits; C(9, 5) = 126 sets of five ranks, 6 of them straights (9 high to
#: ace high, A-6-7-8-9 included).
EXPECTED_HANDS = {
    "royal_flush": 4,  # 4 suits
    "straight_flush": 5 * 4,  # 5 straights below the royal, 4 suits
    "four_of_a_kind": 9 * 8 * 4,  # 288
    "flush": (126 - 6) * 4,  # 480
    "full_house": 9 * 4 * 8 * 6,  # 1,728
    "straight": 6 * (4**5 - 4),  # 6,120
    "three_of_a_kind": 9 * 4 * 28 * 16,  # 16,128
    "two_pair": 36 * 6 * 6 * 7 * 4,  # 36,288
    "one_pair": 9 * 6 * 56 * 64,  # 193,536
    "high_card": (126 - 6) * (4**5 - 4),  # 122,400
}
#: Classes per category (distinct strengths), by the same counting.
EXPECTED_CLASSES = {
    "royal_flush": 1,
    "straight_flush": 5,
    "four_of_a_kind": 9 * 8,
    "flush": 126 - 6,
    "full_house": 9 * 8,
    "straight": 6,
    "three_of_a_kind": 9 * 28,
    "two_pair": 36 * 7,
    "one_pair": 9 * 56,
    "high_card": 126 - 6,
}


def test_expected_numbers_add_up() -> None:
    assert sum(EXPECTED_HANDS.values()) == 376_992 == len(list(itertools.combinations(range(36), 5)))
    assert sum(EXPECTED_CLASSES.values()) == 1_404


@cache
def whole_deck() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """Every hand (in ``itertools.combinations(range(36), 5)`` order, deck
    indices into :data:`DECK`): the reference evaluator's category (index
    into :data:`NAMES`) and key of each, and the batch path's strengths."""
    key = oracle_keys("short-deck")
    assert oracle.RULES["short-deck"].ladder == NAMES
    return oracle.category(oracle.RULES["short-deck"], key), key, helpers.whole_deck("short-deck").strengths


def test_the_deck_is_36_cards_six_to_ace() -> None:
    assert len(DECK) == 36 and len(set(DECK)) == 36
    assert sorted(set(RANK.tolist())) == list(range(6, 15))
    assert all((RANK == r).sum() == 4 for r in range(6, 15))
    assert RULES.deck() == DECK
    assert RULES.wheel_top == Rank.NINE


def test_every_hand_is_counted_as_the_brute_force_counts_it() -> None:
    category, key, strengths = whole_deck()
    assert len(strengths) == 376_992 and 0 not in strengths
    tables = tables_for(RULES)
    names = [tables.hand_class(s).category.name for s in range(1, tables.size + 1)]
    found = np.array([NAMES.index(n) for n in names], dtype=np.int64)
    library = found[strengths.astype(np.int64) - 1]
    assert np.array_equal(library, category)  # hand for hand
    brute = {NAMES[i]: int(n) for i, n in enumerate(np.bincount(category, minlength=10))}
    assert brute == EXPECTED_HANDS
    classes = {
        NAMES[i]: len(np.unique(key[category == i])) for i in range(len(NAMES))
    }
    assert classes == EXPECTED_CLASSES


def test_strengths_are_the_brute_force_order() -> None:
    """1,404 distinct strengths, each used, and strength a strictly increasing
    function of the brute-force key: the same order on every pair of hands."""
    _, key, strengths = whole_deck()
    assert tables_for(RULES).size == 1_404
    assert set(np.unique(strengths).tolist()) == set(range(1, 1_405))
    assert len(np.unique(key)) == 1_404
    order = np.argsort(strengths, kind="stable")
    s, k = strengths[order].astype(np.int64), key[order]
    assert np.array_equal(np.sign(np.diff(s)), np.sign(np.diff(k)))


def test_census_counts_every_hand() -> None:
    _, _, strengths = whole_deck()
    counts = batch.census_counts("short-deck")
    assert np.array_equal(counts, np.bincount(strengths, minlength=1_405))


@pytest.mark.slow
def test_single_hand_paths_equal_the_batch_path_on_every_hand() -> None:
    """strength_function (behind strength and evaluate) and the text path on
    every hand; batch.encode (the fast text encoder) and encode_indices too."""
    _, _, strengths = whole_deck()
    codes = [c.index for c in DECK]
    single = strength_function("short-deck")
    found = np.fromiter(
        map(single, itertools.combinations(codes, 5)), dtype=np.uint16, count=376_992
    )
    assert np.array_equal(found, strengths)
    texts = [" ".join(h) for h in itertools.combinations([c.code_str for c in DECK], 5)]
    text = strength_function("short-deck", text=True)
    assert np.array_equal(np.fromiter(map(text, texts), dtype=np.uint16, count=376_992), strengths)
    encoded = batch.encode(texts, rules="short-deck")
    assert not encoded.errors
    assert np.array_equal(batch.strengths(encoded), strengths)
    indices = np.array(list(itertools.combinations(range(36), 5)))
    by_index = batch.encode_indices(indices, rules="short-deck")  # DECK is CARDS[:36]
    assert not by_index.errors
    assert np.array_equal(batch.strengths(by_index), strengths)


def test_evaluate_agrees_on_a_hand_of_every_class() -> None:
    """The rich path (evaluate) on one hand of each of the 1,404 classes."""
    _, _, strengths = whole_deck()
    first = np.unique(strengths, return_index=True)[1]
    indices = list(itertools.combinations(range(36), 5))
    for row in first.tolist():
        cards = [DECK[i] for i in indices[row]]
        e = evaluate(cards, rules="short-deck")
        assert e.strength == int(strengths[row])
        assert sorted(e.showdown, key=id) == sorted(cards, key=id)


# --- examples ----------------------------------------------------------------------------


def test_names_aliases_and_title() -> None:
    assert "short-deck" in rule_names()
    for alias in ("short-deck", "Short-Deck", "six-plus", "short"):
        assert get_rules(alias) is RULES
    assert RULES.title == "Short deck (6+)"
    assert [c.name for c in RULES.ladder][5:7] == ["full_house", "flush"]


def test_a_6_7_8_9_is_the_lowest_straight_and_loses_to_6_7_8_9_10() -> None:
    low = evaluate("AS 6H 7D 8C 9S", rules="short-deck")
    assert low.description == "Straight, Nine high"
    assert " ".join(c.short for c in low.hand_class.order) == "9 8 7 6 A"
    assert low.category_id == "straight"
    straights = [c for c in tables_for(RULES).classes() if c.category.name == "straight"]
    assert straights[0].strength == low.strength and len(straights) == 6
    result = showdown(["AS 6H 7D 8C 9S", "TS 6D 7H 8S 9H"], rules="short-deck")
    assert result.winners == (1,)
    assert result.explanation == (
        "Hand 2 wins: both Straight; the top card decides, 10 beats 9 "
        "(the ace plays low in 9-8-7-6-A)"
    )
    assert "5-4-3-2-A" not in result.explanation
    # The suited one is the lowest straight flush.
    assert evaluate("AH 6H 7H 8H 9H", rules="short-deck").description == "Straight Flush, Nine high"
    # Ace-high straights and no wrap-around.
    assert evaluate("AS KH QD JC TS", rules="short-deck").description == "Straight, Ace high"
    assert evaluate("KS AH 6D 7C 8S", rules="short-deck").category_id == "high_card"


def test_a_flush_beats_a_full_house() -> None:
    flush = "6H 7H 8H 9H JH"  # the weakest flush
    full = "AS AD AC KS KD"  # the strongest full house
    assert evaluate(flush, rules="short").description == "Flush, J-9-8-7-6"
    assert evaluate(full, rules="short").description == "Full House, Aces over Kings"
    result = showdown([full, flush], rules="short-deck")
    assert result.winners == (1,)
    assert result.explanation == "Hand 2 wins: Flush beats Full House"
    assert explain(flush, full, rules="short-deck") == "Flush beats Full House"
    # Under standard it is the other way round.
    assert showdown([full, flush]).winners == (0,)
    assert evaluate(flush, rules="short").score == 7 and evaluate(full, rules="short").score == 6


def test_standard_keeps_its_wheel_note() -> None:
    assert explain("6S 2H 3D 4C 5S", "AS 2H 3D 4C 5D") == (
        "both Straight; the top card decides, 6 beats 5 (the ace plays low in 5-4-3-2-A)"
    )


@pytest.mark.parametrize(
    ("text", "position", "card"),
    [
        ("AS KS QS 5S 9S", 4, "5♠"),
        ("2C 6H 7D 8C 9S", 1, "2♣"),
        ("AS 6H 7D 8C 4h", 5, "4♥"),
        ("A♠ 3♦ 7♦ 8♣ 9♠", 2, "3♦"),
    ],
)
def test_a_card_outside_the_deck_is_an_error_naming_it(text: str, position: int, card: str) -> None:
    message = f"card {position} ({card}) is not in the short-deck deck, which holds 6 to A"
    with pytest.raises(HandError, match=re.escape(message)):
        evaluate(text, rules="short-deck")
    with pytest.raises(HandError, match=re.escape(message)):
        strength_function("short-deck", text=True)(text)
    assert batch.encode(["AS KS QS JS TS", text], rules="short-deck").errors == {1: f"{message} in {text!r}"}
    with pytest.raises(HandError, match=re.escape(message)):
        showdown([text, "AH KH QH JH TH"], rules="short-deck")


def test_a_card_outside_the_deck_by_index_and_by_code() -> None:
    low = [i for i, c in enumerate(CARDS[:54]) if c.rank is not None and c.rank < 6]
    encoded = batch.encode_indices([[0, 4, 8, 12, 16], [0, 4, 8, 12, low[0]]], rules="short-deck")
    assert encoded.errors == {1: f"card 5 ({CARDS[low[0]]}) is not in the short-deck deck, which holds 6 to A"}
    assert batch.strengths(encoded).tolist() == [1_404, 0]
    # Codes are not checked against a deck: a hand no deck holds scores 0.
    assert batch.strengths_of_indices([[0, 4, 8, 12, low[0]]], rules="short").tolist() == [0]


def test_the_tables_cache_key_holds_the_deck() -> None:
    standard = get_rules("standard")
    assert cache_key(RULES) != cache_key(standard)
    assert (6, 7, 8, 9, 10, 11, 12, 13, 14) in cache_key(RULES)
    assert tuple(range(2, 15)) in cache_key(standard)
    assert len(full_deck()) == len(standard.deck()) == 52


# --- every command over a 36-card deck ----------------------------------------------------


def test_deal_stats_and_rules_use_the_36_cards() -> None:
    from fivecard import FivecardError
    from fivecard.play.deal import deal

    hands = deal(7, rules="short-deck", rng=random.Random(3))
    cards = [c for h in hands for c in h.cards]
    assert len(cards) == len(set(cards)) == 35 and all(c.rank is not None and c.rank >= 6 for c in cards)
    with pytest.raises(FivecardError, match=r"players must be from 1 to 7 under the short-deck rules \(36 cards\)"):
        deal(8, rules="short-deck", rng=random.Random(3))
    code, out, _ = run(["stats", "--rules", "six-plus", "--json"])
    data = json.loads(out)
    assert code == 0 and (data["rules"], data["hands"], data["classes"]) == ("short-deck", 376_992, 1_404)
    assert {c["category"]: c["hands"] for c in data["categories"]} == EXPECTED_HANDS
    assert [c["category"] for c in data["categories"]][3:5] == ["flush", "full_house"]  # strongest first
    code, out, _ = run(["rules"])
    assert code == 0
    assert "short-deck (also: six-plus, short): 36 cards (6 to A): a flush beats a full house" in out
    assert "7 Flush, 6 Full House" in out


def test_advise_play_and_a_table_for_friends() -> None:
    from fivecard.play.advise import advise, unseen_cards
    from fivecard.play.friends import FriendsTable
    from fivecard.play.table_game import GameError
    from fivecard.play.game import Game, GameError
    from fivecard import Hand, parse_cards

    hand = Hand.parse("AS AH 7C 6D 9S", rules="short-deck")
    assert len(unseen_cards(hand)) == 31
    assert advise(hand).recommended.keep == tuple(Hand.parse("AS AH 7C 6D 9S", rules="short").cards[:2])
    code, out, _ = run(["play", "--seed", "4", "--rules", "short-deck"], "a\nq\n")
    assert code == 0 and "(short-deck rules" in out and "Dealer has" in out
    full = "AS KS QS JS TS 9S 8S 7S 6S AH KH QH JH TH 9H 8H 7H 6H AD KD"
    Game(rules="short-deck", stacked=[parse_cards(full)])
    with pytest.raises(GameError, match=re.escape("card 20 of the stacked deck (5♦) is not in the short-deck deck, which holds 6 to A")):
        Game(rules="short-deck", stacked=[parse_cards(full[:-3] + " 5D")])
    table = FriendsTable(rules="short-deck", seed=5, host="h")
    assert table.max_seats == 7 and FriendsTable(rules="standard", host="h").max_seats == 10
    for n in range(7):
        table.join(f"o{n}", f"p{n}")
    with pytest.raises(GameError, match=r"the table is full \(7 seats"):
        table.join("o7", "p7")
    table.start_round("h")
    dealt = [table.deal(f"o{n}")[0] for n in range(7)]
    assert all(c.rank is not None and c.rank >= 6 for hand_ in dealt for c in hand_)
