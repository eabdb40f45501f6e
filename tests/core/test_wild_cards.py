"""Wild cards of the deck (``deuces-wild``, ``one-eyed-jacks``, one's own
with ``wild=``): the paths agree on every hand, and every hand of the
52-card deck agrees with an independent brute-force substitution.

The library never substitutes per hand: it looks a wild card up as a joker in
a table built from rank counts. The reference evaluator (tests/oracle.py)
does substitute: for each set of natural cards it tries every choice of
distinct cards not among the naturals for the wild cards, keeps the best
of its own keys, and counts all five of a rank (naturals of one rank plus
wild cards) as Five of a Kind.
"""

from __future__ import annotations

import io
import random

import numpy as np
import oracle
import pytest
from helpers import oracle_keys, whole_deck

from fivecard import evaluate, get_rules, showdown
from fivecard.vector import batch
from fivecard.core.cards import CARDS
from fivecard.core.evaluate import strength_function
from fivecard.cli import main
from fivecard.core.rules import RuleSet, wild_rules
from fivecard.core.errors import RulesError
from fivecard.core.lookup import tables_for

DECK = CARDS[:52]


def wild_indices(rules: RuleSet) -> list[int]:
    return [i for i, c in enumerate(DECK) if rules.is_wild(c)]


@pytest.mark.slow
def test_every_hand_with_wild_cards_of_one_s_own_matches_substitution() -> None:
    """standard+wild(3 Kd): five wild cards, so hands of no natural card too
    (Five of a Kind, Aces). Every hand of the deck against the reference
    evaluator, which substitutes: the category hand for hand, and strength
    each hand's place among the distinct keys (every class is dealt); the
    census agrees. (The built-in wild rule sets, joker, deuces-wild and
    one-eyed-jacks, are checked the same way in test_enumeration.)"""
    name = "standard+wild(3 Kd)"
    rules = get_rules(name)
    assert len(wild_indices(rules)) == 5
    deck, keys = whole_deck(name), oracle_keys(name)
    reference = oracle.rules_named(name)
    assert [c.name for c in rules.ladder] == list(reference.ladder)
    assert np.array_equal(batch.categories(deck.strengths, rules=rules), oracle.category(reference, keys))
    distinct = np.unique(keys)
    assert len(distinct) == tables_for(rules).size  # every class is dealt
    assert np.array_equal(deck.strengths, np.searchsorted(distinct, keys) + 1)
    five_wild = (np.isin(deck.indices, wild_indices(rules))).all(axis=1)
    assert five_wild.sum() == 1 and (deck.strengths[five_wild] == tables_for(rules).size).all()
    census = batch.census_counts(rules)
    assert np.array_equal(census, np.bincount(deck.strengths, minlength=tables_for(rules).size + 1))
    assert census.sum() == 2_598_960


@pytest.mark.parametrize("name", ["deuces-wild", "one-eyed-jacks"])
@pytest.mark.slow
def test_single_hand_and_batch_paths_agree_on_every_hand(name: str) -> None:
    rules = get_rules(name)
    indices = batch.combinations(52, 5)
    strengths = batch.strengths_of_indices(indices, rules=rules)
    assert strengths.min() >= 1
    single = strength_function(rules)
    found = np.fromiter(map(single, indices.tolist()), dtype=np.uint16, count=len(indices))
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
    text = strength_function(rules, text=True)
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


@pytest.mark.slow
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
